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

/* Fills x0, q0 with the initial guess of m->analysis.initial_guess:
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

/* Length-weighted mean submerged weight of the line [N/m]. */
double PlModelMeanSubmergedWeight(const PlModel *m);
