/*
 * results.h - what the solvers hand to the outputs: the command line's exit statuses and the
 * post-processed sections of a line. No PETSc or SUNDIALS type: the outputs (output.h) and a
 * host program read these without the solvers' headers.
 */
#pragma once
#include <stddef.h>
#include <stdio.h>
#include "pipelay/models.h"

/* Exit statuses of the command-line program (documented in the README). */
enum {
  PL_EXIT_OK = 0,
  PL_EXIT_FAILURE = 1,       /* internal error (a bug): please report */
  PL_EXIT_BAD_INPUT = 2,
  PL_EXIT_NOT_CONVERGED = 3,
  PL_EXIT_IO = 4,
  PL_EXIT_INTERRUPTED = 5
};

/* Sections of the post-processed state, one per element midpoint and per node. */
typedef struct {
  double S;                 /* arc length [m] */
  double x[3];              /* position [m] */
  double tension;           /* effective tension n1 [N] */
  double shear[2];          /* n2, n3 [N] */
  double torque;            /* m1 [N m] */
  double moment[2];         /* m2, m3 [N m] */
  double curvature;         /* |(kappa2, kappa3)| [1/m] */
  double axial_strain;      /* gamma1 [-] */
  double seabed_force;      /* contact force per length [N/m] (nodes only) */
  double t2[3], t3[3];      /* section axes in the global frame */
  double strain_energy;     /* the element's strain energy [J] (PlRodSectionEnergy; elements
                               only, NaN outside the rod's domain) */
} PlStation;

/* ---- result files (output/files.c) ------------------------------------------------------ */
/* Creates dir and its parents (mkdir -p). 0, or PL_EXIT_IO with "DIR: cannot create the
 * output directory: REASON" or "DIR: the output path is not a directory" in err. */
int PlMakeDirs(const char *dir, PlError *err);

/* Finishes an atomic file write: closes f (NULL: the open failed), and when neither bad nor
 * the stream's error flag is set renames tmp to path. Else removes tmp and returns
 * PL_EXIT_IO with "PATH: write failed: REASON" in err. Every result file goes through it, so
 * that a reader never sees a half-written file. */
int PlFileCommit(FILE *f, int bad, const char *tmp, const char *path, PlError *err);
/* Starts an atomic file write: opens DIR/.NAME.tmp for writing, path = DIR/NAME and tmp its
 * temporary name (for PlFileCommit). NULL with "TMP: cannot write: REASON" in err. */
FILE *PlFileOpenAtomic(const char *dir, const char *name, char *path, size_t plen, char *tmp, size_t tlen,
                       PlError *err);
