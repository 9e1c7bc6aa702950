/*
 * meshes.h - discretisation of a line into two-node elements, and its initial geometry.
 *
 * Nodes are numbered from the bottom end (S = 0) to the top end (S = L). Element e joins
 * nodes e and e+1 and lies in exactly one segment (element boundaries fall on segment
 * boundaries). A line's nodes are split across MPI ranks in contiguous ranges by the
 * solver (a chain needs no graph partitioner).
 */
#pragma once
#include "pipelay/models.h"

typedef struct {
  int nnodes;          /* number of nodes */
  int nelements;       /* nnodes - 1 */
  double *S;           /* [nnodes] arc length of each node [m] */
  int *segment;        /* [nelements] segment index of each element */
  double *x0;          /* [3 nnodes] initial-guess positions [m], global */
  double *q0;          /* [4 nnodes] initial-guess frames R_t^e as unit quaternions */
  int guess_used;      /* PlInitialGuess actually used (catenary may fall back) */
  char guess_note[256];/* why the guess fell back, or "" */
} PlMesh;

/* Builds the node arc lengths from m->mesh_* and the zones: each segment (and zone piece)
 * gets ceil(length/target) equal elements; with mesh_elements = N the line is split into
 * N near-equal elements whose boundaries include the segment ends. Returns 0 or -1 (out of
 * memory, fewer than 2 elements, or more than 10 million nodes). */
int PlMeshCreate(const PlModel *m, PlMesh *mesh);
void PlMeshDestroy(PlMesh *mesh);

/* Fills x0, q0 with the initial guess of m->analysis.initial_guess (straight: the rest shape
 * PlMeshRestShape for a line curved at rest):
 *  catenary: the line laid on the seabed from the bottom end, then a natural catenary
 *    (inextensible, submerged weight averaged over the segments) up to the top end, in the
 *    vertical plane through the bottom end and the top end (or along the bottom end's
 *    heading when the top's horizontal position is free). The horizontal tension comes
 *    from the top end's applied force when its horizontal position is free, else from the
 *    horizontal distance between the ends. Falls back to "straight" (and says why in
 *    guess_note) when the geometry admits no catenary.
 *  straight: the line straight from the bottom end along its frame's t1.
 * Frames: t1 along the tangent, t2 horizontal, t3 = t1 x t2. */
void PlMeshInitialGuess(const PlModel *m, PlMesh *mesh);

/* Whether a section of the line is curved at rest (curvature or bend_radius given). */
bool PlModelCurvedAtRest(const PlModel *m);

/* The line's rest (stress-free) shape on this mesh: from the bottom end (its position, 0 where
 * not given, and its orientation), element by element the arc of its section's constant
 * material curvature k (PlRodArcStep): x_{i+1} = x_i + R_i dx, q_{i+1} = q_i (x) dq. A section
 * given by bend_radius R about the global axis n has k = R_s^T n / R, R_s the rest frame at the
 * section's start: its frame turns about n at 1/R per length (a circle of radius R in the
 * plane normal to n when n is normal to the tangent there, a helix otherwise). Positions xr
 * [3 nnodes] and frames qr [4 nnodes]; returns the largest turn of an element, |k| h [rad]. */
double PlMeshRestShape(const PlModel *m, const PlMesh *mesh, double *xr, double *qr);

/* Length-weighted mean submerged weight of the line [N/m]. */
double PlModelMeanSubmergedWeight(const PlModel *m);
