/*
 * models.h - the world around the rod: the in-memory model, its YAML loader,
 * the seabed law and the analytic catenary.
 *
 * Frames and units: SI throughout; global frame e with z up, mean sea level z = 0,
 * seabed at z = -water_depth. Arc length S runs from the bottom end (S = 0) to the top
 * end (S = L). No PETSc here: this layer is plain C so that it can be used (and fuzzed)
 * without a solver.
 */
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include "pipelay/materials.h"

#define PL_MAX_SECTIONS 64
#define PL_MAX_ZONES 64
#define PL_PATH_MAX 1024
#define PL_ERRMSG_MAX 1024

typedef enum { PL_ROT_QUATERNION = 0, PL_ROT_EULER_ZXY = 1 } PlRotationKind;
typedef enum { PL_SEABED_NONE = 0, PL_SEABED_NONLINEAR = 1, PL_SEABED_LINEAR = 2 } PlSeabedKind;
typedef enum { PL_GUESS_CATENARY = 0, PL_GUESS_STRAIGHT = 1 } PlInitialGuess;
typedef enum { PL_ANALYSIS_STATIC = 0 } PlAnalysisKind;

/* A user error: "FILE:LINE:COL: key: what is wrong" (line, column 1-based). */
typedef struct {
  char msg[PL_ERRMSG_MAX];
} PlError;

/* One stretch of the line with one cross-section, listed from the bottom end. */
typedef struct {
  double length;          /* [m] unstretched */
  PlSection section;      /* derived properties (materials layer) */
} PlSegment;

/* A finer mesh over an arc-length range. */
typedef struct {
  double s_from, s_to;    /* [m] */
  double target_length;   /* [m] */
} PlMeshZone;

/* DOF indices of an end: translations x,y,z then rotations about the end frame's axes. */
enum { PL_DOF_X = 0, PL_DOF_Y, PL_DOF_Z, PL_DOF_RX, PL_DOF_RY, PL_DOF_RZ };

typedef struct {
  bool fixed[6];          /* held DOFs: x,y,z (global) and rotations about t1,t2,t3 of the
                             end's reference frame */
  bool has_position[3];   /* position component given (required where the DOF is held) */
  double position[3];     /* [m] global */
  double orientation[9];  /* R_t^e of the end, row-major; columns are t1,t2,t3 in e.
                             Identity (pipe along +x) unless given */
  bool has_orientation;   /* orientation given by the user */
  double force[3];        /* applied force [N], global, dead load */
  double moment[3];       /* applied moment [N m], global, dead load */
} PlEnd;

typedef struct {
  PlAnalysisKind kind;
  int load_steps;          /* initial number of equal load increments (>= 1) */
  int max_cutbacks;        /* halvings of a failed increment before giving up */
  int max_iterations;      /* Newton iterations per load step */
  double rtol;             /* relative residual tolerance */
  double atol;             /* absolute residual tolerance [N]; <= 0 means automatic */
  PlInitialGuess initial_guess;
  char petsc_options[PL_PATH_MAX]; /* extra PETSc options, e.g. "-snes_monitor" */
} PlAnalysis;

typedef struct {
  char name[256];              /* free text */
  char source_path[PL_PATH_MAX]; /* the model file */

  /* environment */
  double water_depth;          /* [m] > 0, seabed at z = -water_depth */
  double water_density;        /* [kg/m^3] */
  double gravity;              /* [m/s^2] */

  /* line */
  double length;               /* [m] total unstretched length = sum of segment lengths */
  int nsegments;
  PlSegment segments[PL_MAX_SECTIONS];

  /* seabed */
  PlSeabedKind seabed;
  double seabed_stiffness;     /* linear model: [N/m per m of pipe = N/m^2] */

  /* mesh */
  int mesh_elements;           /* > 0: total element count; 0: use target length */
  double mesh_target_length;   /* [m] used when mesh_elements == 0 */
  int nzones;
  PlMeshZone zones[PL_MAX_ZONES];

  PlRotationKind rotation;
  PlEnd ends[2];               /* [0] bottom (S = 0), [1] top (S = L) */
  PlAnalysis analysis;
  char output_dir[PL_PATH_MAX];
} PlModel;

/* Sets every optional value to its documented default and every required one to "unset". */
void PlModelInitDefaults(PlModel *m);

/* Loads and validates a model file. overrides are "key.path=value" strings applied after
 * parsing (as from --set), before validation. On a user error returns 2 and fills err with
 * one line "FILE:LINE:COL: key: what is wrong"; on success returns 0. Never aborts. */
int PlModelLoad(const char *path, int noverrides, const char *const *overrides, PlModel *m,
                PlError *err);

/* Same, from a string already in memory (fuzzing and tests); name is used in messages. */
int PlModelLoadString(const char *name, const char *text, size_t len, int noverrides,
                      const char *const *overrides, PlModel *m, PlError *err);

/* The section in force at arc length S (the segment that contains it). */
const PlSection *PlModelSectionAt(const PlModel *m, double S);

/* ---- seabed (eq 5.38) ------------------------------------------------------------------ */
/* Vertical contact force per length sigma [N/m] (upwards) and dsigma/dz for a centreline
 * at height z. Penetration kappa = (-depth) - (z - d_o/2). Nonlinear law (5.38): at rest at
 * kappa = d_o/8 under the submerged weight w; C^1. Linear law: k * kappa for kappa > 0. */
void PlSeabedForce(const PlModel *m, const PlSection *s, double w, double z, double *sigma,
                   double *dsigma_dz);

/* ---- the natural catenary (inextensible, rigid flat seabed) ---------------------------- */
/* A line of submerged weight w [N/m] hangs from a top point h [m] above the point where
 * it touches the seabed tangentially; horizontal tension H [N]. a = H/w.
 *   suspended length s = sqrt(h^2 + 2 a h),  horizontal span x = a asinh(s/a),
 *   top angle from horizontal beta = atan(s/a). */
typedef struct {
  double a, suspended_length, horizontal_span, top_angle_rad, top_tension;
} PlCatenary;
void PlCatenarySolve(double H, double w, double h, PlCatenary *c);
/* Finds H such that (L - s) + x = span (line of length L laid from its anchor).
 * Returns 0, or -1 when no such H exists (line too short or too long for the span). */
int PlCatenaryForSpan(double L, double w, double h, double span, PlCatenary *c);
