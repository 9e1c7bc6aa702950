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

/* ---- design answers along a line (solver/design_output.c; the model's design: block) ------ */
/* The design values of a node station s: pressures at its height, true-wall tension, hoop and
 * von Mises stresses and, with design.dnv_f101, the DNV-ST-F101 utilisations of both load
 * combinations. ref: the static start's station at the same node (a dynamic run: the
 * functional part of each load effect is ref's, the environmental part the rest), or NULL (a
 * static run: all functional). */
typedef struct {
  double p_i, p_e;                 /* internal and external pressure [Pa] */
  double true_wall_tension;        /* [N] */
  double hoop_thin, hoop_inner, hoop_outer;           /* [Pa] */
  double von_mises_inner, von_mises_outer, von_mises; /* [Pa] */
  double gamma_C;                  /* the condition factor at the node */
  double lcc[2], dcc[2];           /* combinations a, b */
  double utilisation;              /* the largest of the four (NaN without dnv_f101) */
  int governing;                   /* 0 lcc_a, 1 lcc_b, 2 dcc_a, 3 dcc_b; -1 none */
  double lcc_axial_ratio;          /* the larger of a's and b's |S_Sd|/S_p (the LCC's validity:
                                      < 0.4); NaN without dnv_f101 */
} PlDesignPoint;
void PlDesignPointOf(const PlModel *m, const PlStation *s, const PlStation *ref, PlDesignPoint *d);
/* "lcc_a", "lcc_b", "dcc_a", "dcc_b" for governing 0..3, else "none". */
const char *PlDesignCriterionName(int governing);

/* The envelopes over the output times, per node (columns of design_envelope.csv: S, min and
 * max true-wall tension, max von Mises and its time, max LCC a, b, DCC a, b, max utilisation
 * and its time, max |S_Sd|/S_p), and the governing place and time over the whole line. */
enum { kDesignEnvColumns = 12 };
typedef struct {
  int nn;
  double *v;                       /* [nn kDesignEnvColumns] */
  double max_utilisation, S, t, x[3];
  int governing;
  double max_von_mises, von_mises_S, von_mises_t;
  double max_lcc_axial_ratio, lcc_axial_ratio_S, lcc_axial_ratio_t; /* the LCC's validity: < 0.4 */
} PlDesignEnvelope;
#define PL_DNV_LCC_AXIAL_LIMIT 0.4 /* |S_Sd|/S_p below which the LCC is valid */
int PlDesignEnvelopeInit(PlDesignEnvelope *e, int nn); /* 0, or -1 out of memory */
void PlDesignEnvelopeFree(PlDesignEnvelope *e);
/* A checkpoint's copy of an envelope of nn nodes: PlDesignEnvelopePacked(nn) doubles, its values
 * per node then its governing values (restart.bin's aux block, so that a restarted run's
 * envelopes are the uninterrupted run's). */
size_t PlDesignEnvelopePacked(int nn);
void PlDesignEnvelopePack(const PlDesignEnvelope *e, double *buf);
void PlDesignEnvelopeUnpack(PlDesignEnvelope *e, const double *buf); /* e of the same nn */
/* After pay-out renumbered the nodes (as PlLineSeriesRenumber). 0, or -1 out of memory. */
int PlDesignEnvelopeRenumber(PlDesignEnvelope *e, int nn, int kept, int dropped);
/* The envelopes updated with the stations N at time t (stat: the static stations, or NULL). */
void PlDesignEnvelopeUpdate(PlDesignEnvelope *e, const PlModel *m, double t, const PlStation *N, int nn,
                            const PlStation *stat);
/* DIR/design.csv of a static state (every load effect functional). */
int PlDesignWriteStatic(const char *dir, const PlModel *m, const PlStation *N, int nn, PlError *err);
/* DIR/design_envelope.csv. */
int PlDesignWriteEnvelope(const char *dir, const PlModel *m, const PlDesignEnvelope *e, PlError *err);
/* summary.json's "design" object (root a cJSON *); dynamic: with the governing times. */
void PlDesignSummaryAdd(void *root, const PlModel *m, const PlDesignEnvelope *e, int dynamic);
/* The console's lines. */
void PlDesignPrint(FILE *f, const PlModel *m, const PlDesignEnvelope *e, int dynamic);
