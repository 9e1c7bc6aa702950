/*
 * solver_impl.h - the problem object shared by the solver's files (private).
 */
#pragma once
#include <signal.h>
#include <stdio.h>
#include <petscdmda.h>
#include "pipelay/solver.h"

#define PL_STRAIN_BOUND 0.05 /* |axial strain| above this is not a pipe in equilibrium (PlStaticCheckState) */

struct PlProblem_ {
  MPI_Comm comm;
  PlModel model;          /* a deep copy of the validated model (PlModelCopy; owned) */
  PlMesh mesh;            /* nodes, segments, initial guess and reference frames q0 */
  PlParamKind kind;       /* rotation parametrisation */
  int nd;                 /* DOFs per node (6 or 7) */
  PlRodElement *elements; /* [nelements] */
  double *w;              /* [nelements] submerged weight per length [N/m] */
  char *bc_mask;          /* [nnodes nd] 1 where the DOF is held */
  double *bc_start;       /* [nnodes nd] initial state (the guess; identity rotations) */
  double *bc_target;      /* [nnodes nd] held values at lambda = 1 */
  double *bc_scale;       /* [nnodes nd] row scale s of a held DOF [N/m or N m] */
  double *gauge_k;        /* [nnodes] quaternion gauge stiffness [N m] */
  double *fric;           /* seabed.friction: [nelements][9] each element's anchor a (its
                             midpoint as laid: the start shape's) and frame e_a, e_l there
                             (PlFrictionFrame), else NULL */
  double force_scale;     /* reference force for the absolute tolerance [N] */
  double resolution;      /* [N] the residual norm's floor set by the unknowns' precision, as
                             the static solve's last Newton iteration measured it (static.c) */
  double lambda;          /* load factor in F */
  double current_time;    /* [s] the time at which the static solve takes the current */
  double hold_factor;     /* < 0: held DOFs move with lambda; else ubar = start + hold_factor
                             (target - start) at full load (PlStaticMoveEnd) */
  DM da;
  Vec u;                  /* solution (global) */
  /* static solve (static.c): pseudo-transient continuation adds shift D (u - ref) to the
   * residual of the free DOFs and shift D to the Jacobian's diagonal (shift 0: plain) */
  double ptc_shift;
  Vec ptc_D, ptc_ref, ptc_work;
  int domain_error;       /* set by PlFormFunction: an element left the rod's domain */
  volatile sig_atomic_t *stop; /* set asynchronously (a signal): the static solve stops */
  int quiet;              /* no progress lines from the static solve */
  Mat J;
  SNES snes;
  /* the vessel at the top (vessel_static.c): its state at the static equilibrium */
  int vessel_solved;      /* 1 once PlVesselStaticSolve has set the next two */
  double vessel_y[13];    /* r, q, v = 0, w = 0 (elements.h, PL_VESSEL_NY) */
  double dp_z[6];         /* the DP controller's integral states */
  PlVesselStaticReport vessel_report; /* of the last PlVesselStaticSolve */
};

/* The rotation parameter a hold of rotation component c (about t1, t2, t3) fixes when not
 * all three are held: the quaternion's vector part c, or Euler angle c. */
static inline int PlHeldParam(PlParamKind kind, int c) { return kind == PL_PARAM_QUATERNION ? 1 + c : c; }

PetscErrorCode PlFormFunction(SNES snes, Vec U, Vec F, void *ctx);
/* assembly.c: the external loads of element e at rest (weight, seabed, current drag) on its
 * nodes' translation rows with the residual's sign, f[6] = rows of A then B, and when K is
 * not NULL their derivative with respect to the two positions (6 x 6, row-major). */
void PlProblemElementLoads(const PlProblem p, int e, const double *uA, const double *uB, double f[6], double *K);
PetscErrorCode PlFormJacobian(SNES snes, Vec U, Mat J, Mat P, void *ctx);
/* assembly.c: seabed friction (p->fric): sets element e's anchor at the midpoint of xA, xB and
 * its frame from their chord; the friction state of element e at positions uA, uB: its normal
 * force P [N] and the law's utilisation measure rho (models/friction.c: s = atanh of the
 * force's elliptic norm, the slip over delta along the axis with the smaller mu delta;
 * tanh(rho) of the capacity mobilised). */
void PlProblemSetAnchor(PlProblem p, int e, const double xA[3], const double xB[3]);
/* assembly.c, pay-out (solver/dynamic.c): renumbers the problem's nodes to nn, node i being
 * old node from[i] (from[i] >= 0: its frame, holds, gauge and unknowns kept) or a new free node
 * (from[i] < 0) at position x[3 i..] with frame q[4 i..] (its parameters the identity); S[nn]
 * the new arc lengths. An element between two consecutive old nodes is kept with its friction
 * anchor; any other takes segment seg's section, the length S[e+1] - S[e], its nodes' frames
 * and its anchor at its midpoint as it is. The static solver's DMDA, state and matrix are
 * rebuilt (its SNES on demand). Collective. */
PetscErrorCode PlProblemRenumber(PlProblem p, int nn, const int *from, const double *S, const double *x,
                                 const double *q, int seg);
void PlProblemFrictionState(const PlProblem p, int e, const double *uA, const double *uB, double *P, double *rho);
/* assembly.c: element e's friction law at positions xA, xB with its anchor at a[3] (the
 * frame is p->fric's): its normal force P [N] with dP[b] = dP/dx_b, the force per unit
 * normal force phi[3] with dphi/du[9] (u the midpoint's slip from a) and rho. */
void PlProblemFrictionLaw(const PlProblem p, int e, const double xA[3], const double xB[3], const double a[3],
                          double *P, double dP[2][3], double phi[3], double dphi[9], double *rho);
/* static.c: the held values target[nd] of an end node at position x and, when R is not NULL,
 * frame R (row-major; else the rotation parameters stay those of un, the node's current
 * unknowns, whose quaternion hemisphere is kept). */
void PlProblemEndTarget(PlProblem p, int end, const double x[3], const double *R, const double *un, double *target);
/* static.c: creates the problem's SNES (Newton with its direct linear solver) if needed. */
PetscErrorCode PlProblemEnsureSNES(PlProblem p);
/* assembly.c: the end node's reaction (as PlProblemEndReaction) from the end element's
 * unknowns ue[2 nd] (nodes A, B of that element). */
void PlProblemEndReactionLocal(const PlProblem p, int end, const double *ue, double f[3], double m[3]);
/* results.c: element e's station from its two nodes' static unknowns ue (2 nd: positions
 * absolute). */
void PlElementStationOf(const PlProblem p, int e, const double *ue, PlStation *s);
/* The node and element stations (malloc'd) of the line's unknowns u [nnodes nd] (positions
 * absolute), as PlProblemStations computes them, on the calling rank alone. Returns 0, or 1
 * out of memory. */
int PlStationsOf(const PlProblem p, const double *u, PlStation **nodes, PlStation **elements);
/* *U += the line's strain energy from its ne element stations [J] (their strain_energy in
 * element order: over the lines in turn, PlSysDynEnergyRow's sum to the bit). */
void PlStationsAddStrainEnergy(const PlStation *elements, int ne, double *U);
/* The raw unknowns [nnodes nd] gathered on every rank (malloc'd). */
PetscErrorCode PlGatherUnknowns(PlProblem p, double **u);

/* results.c: the summary.json object of a static run (a cJSON *, as void * so that this
 * header does not need cJSON) and its atomic write (tmp + rename). */
void *PlSummaryBuild(const PlModel *m, const PlStaticReport *rep, const PlStaticSummary *s,
                     int nnodes, int nelements, int nranks, int noverrides,
                     const char *const *overrides);
int PlSummaryWrite(const char *dir, void *root, PlError *err);
/* system_run.c: a serial IDA run's counters, times and completion (t reached of duration T,
 * wall0 its MPI_Wtime at the start, io its file status) into res; ida_flag, interrupted and
 * restarted_at_s (the real-time factor counts the time from there) must be set. */
void PlIdaRunResult(void *ida, double t, double T, double wall0, int io, PlDynamicResult *res);
/* IDA's counters (its own Newton's), its last step and order and its current time. */
void PlIdaStats(void *ida, PlDynamicStats *st);
/* system_run.c: a run's duration T, output interval dt, simulated and wall time, real-time
 * factor and counters from res into the summary object obj (a cJSON *). */
void PlSummaryAddRunCounters(void *obj, double T, double dt, const PlDynamicResult *res);
/* lines.c: the static summary of a system of lines (a cJSON *; PlLinesWriteSummary writes it). */
void *PlLinesSummaryBuild(const PlLines s, const PlLinesReport *rep);

/* assembly.c: the force f (global) [N] and moment m (the node's frame) [N m] that hold end
 * `end` in equilibrium: its residual rows before the hold replaces them (internal forces,
 * submerged weight, seabed, minus end loads; the quaternion gauge excluded). Collective. */
PetscErrorCode PlProblemEndReaction(PlProblem p, int end, double f[3], double m[3]);
/* static.c: moves the held DOFs of an end to position x and, when R is not NULL, the
 * rotation R (global, row-major) at full load, from the current equilibrium, in increments
 * halved on failure. rep as PlStaticSolve's (the solve's count and failure). */
PetscErrorCode PlStaticMoveEnd(PlProblem p, int end, const double x[3], const double *R, PlStaticReport *rep);
/* static.c: PlStaticCheckState, the seabed's part only when seabed is 1 (0: the strain and the
 * folding alone, for an intermediate state of an outer iteration). */
PetscErrorCode PlStaticCheckStateOf(PlProblem p, int seabed, int *bad, char *why, size_t len);
/* static.c: moves the held positions of both ends together, end e to x[e] (NULL: it stays;
 * rotations unchanged), as PlStaticMoveEnd (one continuation of the pair from the current
 * equilibrium, its increments halved on failure). */
PetscErrorCode PlStaticMoveEnds(PlProblem p, const double *const x[2], PlStaticReport *rep);

/* results.c: timeseries_vessel.csv (header, a row) and the vessel_dynamic block of
 * summary.json (root is a cJSON *). */
const char *PlVesselSeriesHeader(void);
void PlVesselSeriesRow(FILE *f, double t, const PlVesselOutput *o);
void PlSummaryAddVessel(void *root, const PlModel *m, const PlDynamicResult *res);

/* assembly.c: a global vector gathered on every rank in natural order into out (its global
 * size of doubles). Collective. */
PetscErrorCode PlVecGatherAll(Vec v, double *out);
/* Body b's external loads at time t and state y, the one place the statics (lines.c) and the
 * system core take them from: the environment load (its value into env, added to tau_body or
 * load_global as PlVesselLoadApply does) and the hull's drag in the model's current, and in the
 * waves of the sea waves when not NULL (PlVesselHullLoad, bodies[].hull), added to tau_body (and, when tau_hull is not NULL, also
 * written there alone; zero without a hull). When dtau_dy is not NULL it receives the
 * derivative of tau_body with respect to y (6 x 13; the environment load does not depend on y),
 * and the return's bit 2 says it is not zero (a hull). Returns 0, 2, or with bit 1 set outside
 * the domain (q = 0). rao (NULL: none) and xi, the body's RAO motion and its origin's motion and
 * rate at t (PlRaoMotionEval), move the hull's strips by their first-order motion. */
#include "pipelay/waves.h"
#include "pipelay/rao.h"
int PlBodyLoads(const PlModel *m, PlWaves *waves, const PlRaoMotion *rao, const double xi[12], int b, double t,
                const double *y, double env[6], double tau_body[6], double load_global[6], double tau_hull[6],
                double *dtau_dy);
