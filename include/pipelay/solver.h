/*
 * solver.h - assembly into PETSc objects and the static analysis.
 *
 * The unknowns of node i are u_i = [x_i (3), p_i (4 or 3)], laid out by a 1-D DMDA with
 * stencil width 1: nodes are split into contiguous ranges across the ranks of the
 * communicator, each rank assembles the elements whose first node it owns. The residual
 * is F(u) = f_int(u) - f_ext(u), with held DOFs replaced by s (u - u_held).
 */
#pragma once
#include <signal.h>
#include <petscsnes.h>
#include "pipelay/elements.h"
#include "pipelay/meshes.h"
#include "pipelay/models.h"
#include "pipelay/results.h"

typedef struct PlProblem_ *PlProblem;


/* A failure's account: a static solve's (PlStaticReport) and a system's (PlLinesReport), which
 * quotes a line's whole account after at most PL_FAILURE_QUOTE bytes of its own words; a static
 * solve's notes stop that much short of PL_FAILURE_MAX, so the quote fits whole in either (a
 * line's results repeat the system's failure in their PlStaticReport). */
#define PL_FAILURE_MAX 8192
#define PL_FAILURE_QUOTE 1024

/* The strategy that produced the final state of a static solve (static.c). */
typedef enum { PL_STATIC_NEWTON = 0, PL_STATIC_PTC = 1 } PlStaticStrategy;

typedef struct {
  PetscBool converged;
  PlStaticStrategy strategy;   /* the last strategy tried */
  int ptc_steps;               /* pseudo-transient continuation steps (0: not needed) */
  int ptc_rejected;            /* of which rejected (retried with a larger shift) */
  int unphysical;              /* the last state found failed the physical check */
  int interrupted;             /* stopped by a signal */
  int load_steps;              /* converged load increments */
  int cutbacks;                /* failed increments that were halved */
  int newton_iterations;       /* total over all increments */
  double lambda;               /* load factor reached (1 when converged) */
  double wall_time_s;
  double final_residual_norm;
  int nhistory;                /* entries in history */
  double history[64];          /* residual norms [N] of the last converged load step */
  char failure[PL_FAILURE_MAX]; /* what was tried and where it stopped (whole lines; its notes
                                  stop PL_FAILURE_QUOTE short of the end) */
  int target_solves;           /* ends.top.target: the static solves it took (0: no target) */
  double target_force_N[3];    /* ends.top.target: the top force reached, global [N] */
} PlStaticReport;

PetscErrorCode PlProblemCreate(MPI_Comm comm, const PlModel *model, PlProblem *prob);
PetscErrorCode PlProblemDestroy(PlProblem *prob);

/* Newton-Raphson with load stepping and automatic cut-back. Honour -snes_/-ksp_/-pc_
 * options (SNESSetFromOptions is called last). On failure the last converged state stays
 * in the problem and report->failure says what happened. */
PetscErrorCode PlStaticSolve(PlProblem prob, PlStaticReport *report);
/* The static solve stops (within one Newton iteration, keeping the last accepted state,
 * report->interrupted set) once *stop is nonzero (a signal handler sets it). NULL: never. */
void PlProblemSetStopFlag(PlProblem prob, volatile sig_atomic_t *stop);
/* quiet: the static solve prints nothing of its failed attempts (they stay in the report). */
void PlProblemSetQuiet(PlProblem prob, int quiet);
/* A start whose held ends are more than two elements from their targets (a straight start)
 * turned as a rigid body about its bottom end onto the top's holds, where the holds allow it
 * (static.c AlignStart): *aligned 1 when it turned (the state and the holds' start values). */
PetscErrorCode PlProblemAlignStart(PlProblem prob, int *aligned);
/* The physical check of the current state that every converged static state passes
 * (static.c): *bad = 1 with the reason in why[len] when an axial strain exceeds +-5 %, an
 * element is folded back on itself or a node is through the seabed. Collective. */
PetscErrorCode PlStaticCheckState(PlProblem prob, int *bad, char *why, size_t len);

/* Post-processing on rank 0 (other ranks get 0 stations): node and element stations of the
 * current state. Arrays are malloc'd; free with free(). */
PetscErrorCode PlProblemStations(PlProblem prob, PlStation **nodes, int *nnodes,
                                 PlStation **elements, int *nelements);

/* Current solution gathered on every rank: positions [3 nnodes] and unit quaternions
 * [4 nnodes] of the node frames (malloc'd). */
PetscErrorCode PlProblemGatherState(PlProblem prob, double **x, double **q, int *nnodes);

const PlModel *PlProblemModel(PlProblem prob);
const PlMesh *PlProblemMesh(PlProblem prob);
/* Access for tests: the SNES, solution vector and the load factor used by F. */
SNES PlProblemSNES(PlProblem prob);
Vec PlProblemSolution(PlProblem prob);
void PlProblemSetLoadFactor(PlProblem prob, double lambda);

/* Changes the dead loads of an end (for tests and scenario set-up: e.g. a static solve with
 * a tip force, then a dynamic run released from it). end 0 = bottom, 1 = top. */
void PlProblemSetEndLoads(PlProblem prob, int end, const double F[3], const double M[3]);

/* ---- several lines joined at points: their static equilibrium (solver/lines.c) ----------- */
typedef struct PlLines_ *PlLines;
/* A roller's contact with its line (solver/roller.c). */
typedef struct {
  int element;                           /* the line's element over the roller, -1: none in reach */
  double xi;                             /* where on it (0 at its first node, 1 at its second) */
  double gap;                            /* the pipe's clearance above the roller (< 0: pressed in) [m] */
  double reaction[3];                    /* the pipe's load on the roller, global [N] */
} PlRollerResult;
/* The S-lay results of a stinger's line at equilibrium (solver/slay_output.c). Strains are at
 * the pipe's outer fibre on the bend's tension side: kappa d_o/2 + gamma_1. */
typedef struct {
  double overbend_strain[PL_ROLLERS_MAX]; /* over each roller: the largest of the segment over
                                             it and its two neighbours [-] */
  double max_overbend_strain;            /* over all rollers [-] */
  int max_overbend_roller;               /* where (index) */
  int last_contact;                      /* the last roller the pipe presses on (-1: none) */
  double tip_clearance;                  /* the last roller's gap (> 0: the pipe lifted off) [m] */
  double departure_angle;                /* the pipe's slope below the horizontal over the last
                                            roller [deg] */
  double touchdown_S;                    /* the touchdown point's arc length (NaN: none) [m] */
  double touchdown_x[3];                 /* and its position [m] */
  double layback;                        /* horizontal distance from the last roller's top (the
                                            stinger tip) to the touchdown point [m] */
  double sagbend_moment, sagbend_strain; /* the largest bending moment [N m] and strain [-] in the
                                            sagbend (below half the tip's height above the seabed) */
  double sagbend_S;                      /* where the moment peaks [m] */
  double tip_tension;                    /* the effective tension over the last roller [N] */
} PlSlaySummary;
typedef struct {
  PetscBool converged;
  int iterations;                        /* Newton iterations over the lines and points */
  int line_solves;                       /* trials with every line re-solved at the masters' trial position */
  int coupled;                           /* iterations that took the coupled (linearised lines) step */
  int rejected;                          /* trial steps rejected (then damped by a larger pseudo-mass shift) */
  double residual_rel;                   /* largest point imbalance / the sum of its force magnitudes */
  /* the arrays below, one entry per point, line, body or joint (PlLinesReportInit; freed by
     PlLinesReportFree) */
  int npoints, nlines, nbodies, njoints; /* their lengths */
  double (*point_position)[3];           /* [m] */
  double (*point_force)[3];              /* the lines' pull on each point, global [N] */
  double (*end_force)[2][3];             /* each line end's pull on its support (point or fixed end) [N] */
  double (*end_tension)[2];              /* its magnitude [N] */
  PlStaticReport *line;                  /* each line's first solve (ends at the given positions) */
  double (*body_eta)[6];                 /* each body's pose: O_b [m], roll, pitch, yaw (zyx) [rad] */
  double (*body_lines_load)[6];          /* the lines' load on it, body frame, about O_b [N, N m] */
  bool (*body_held)[6];                  /* DOFs without restoring, kept at the initial pose */
  bool *body_whole;                      /* lines.c held the body whole (in a joint or with DP):
                                            the whole system's Newton frees it */
  double (*body_unbalanced)[6];          /* the load left in them (body frame) [N, N m] */
  int joints_solved;                     /* the joints' reactions below are set (the whole system's
                                            statics converged) */
  double (*joint_point)[3];              /* each joint's point (on its first body), global [m] */
  double (*joint_force)[3];              /* the joint's force and moment on its first body, */
  double (*joint_moment)[3];             /* global, about the joint point [N, N m] */
  PlSlaySummary slay;                    /* stinger: what an S-lay engineer reads (rollers_solved) */
  int rollers_solved;                    /* the rollers' results below are set (the whole system's
                                            statics converged) */
  PlRollerResult roller[PL_ROLLERS_MAX]; /* stinger: each roller's contact */
  char failure[PL_FAILURE_MAX];          /* what stopped it; quotes a line's whole account */
} PlLinesReport;
/* rep zeroed, with its arrays for nlines lines, npoints points, nbodies bodies and njoints
 * joints (zeroed; a report of a model m: m's counts); what rep held before is freed. 0, or -1
 * out of memory (rep then holds nothing). */
int PlLinesReportInit(PlLinesReport *rep, int nlines, int npoints, int nbodies, int njoints);
/* Frees the report's arrays (rep zeroed); accepts a zeroed report. */
void PlLinesReportFree(PlLinesReport *rep);
/* One static problem per line of m->lines (m must outlive it). */
PetscErrorCode PlLinesCreate(MPI_Comm comm, const PlModel *m, PlLines *s);
PetscErrorCode PlLinesDestroy(PlLines *s);
/* The one line of a one-line problem p (its model, mesh and current state, borrowed: p
 * outlives it) as a system of one line, for the system core's dynamics (PlSysDynCreate with a
 * zeroed PlLinesReport: no points, bodies or joints). */
PetscErrorCode PlLinesOfProblem(PlProblem p, PlLines *s);
/* Line l's static problem (its state is the solution after PlLinesSolve). */
PlProblem PlLinesProblem(PlLines s, int l);
/* Solves every line, then the lines and the free points together (see lines.c). */
PetscErrorCode PlLinesSolve(PlLines s, volatile sig_atomic_t *stop, int quiet, PlLinesReport *rep);
/* dir/summary.json of the system: "analysis": "static_lines", per line its folder (line_NAME,
 * each a one-line static result) and its ends' tensions and forces, per point its position,
 * net weight and the lines' pull on it. 0 or PL_EXIT_IO with err. */
int PlLinesWriteSummary(const PlLines s, const PlLinesReport *rep, const char *dir, PlError *err);
/* The model of the system, and its communicator. */
const PlModel *PlLinesModel(const PlLines s);
MPI_Comm PlLinesComm(const PlLines s);

/* ---- the parts of a graph (solver/partition.c) ------------------------------------------ *
 * nv vertices with weights vwgt, adjacency in compressed rows (xadj[nv + 1], adj), into
 * nparts parts by METIS: part[v] in 0..nparts-1, *cut the number of edges cut. Returns 0, or
 * 1 when METIS fails (out of memory). nparts 1: every vertex in part 0. */
int PlPartitionGraph(int nv, const int *xadj, const int *adj, const int *vwgt, int nparts, int *part, int *cut);

/* ---- the dynamics of several lines, points and bodies (solver/system_dynamic.c) -------- *
 * One residual over every line, free point and body (the attachments of
 * docs/design-system-core.md §5.1), started from the static equilibrium of PlLinesSolve at
 * rest. On K ranks every rank holds the whole state and runs the same integration; the
 * assembly is split by METIS parts of the components (rod elements, free points, the bodies'
 * block) and each residual and matrix summed on rank 0 and broadcast, so every evaluation is
 * collective. */
typedef struct PlSysDyn_ *PlSysDyn;
/* Collective over the lines' communicator (gathers their static states, computes the parts). */
PetscErrorCode PlSysDynCreate(PlLines L, const PlLinesReport *rep, PlSysDyn *s);
PetscErrorCode PlSysDynDestroy(PlSysDyn *s);
int PlSysDynSize(const PlSysDyn s);
/* The state and rate IDA integrates (PlSysDynSize entries; the start after PlSysDynCreate). */
double *PlSysDynState(PlSysDyn s);
double *PlSysDynRate(PlSysDyn s);
/* The parts: per rank the number of rod elements, free points and bodies it assembles, and
 * the edges METIS cut (0 on one rank). */
typedef struct {
  int ranks, edge_cut;
  int elements[64], points[64], bodies[64]; /* the first 64 ranks */
} PlSysDynParts;
void PlSysDynGetParts(const PlSysDyn s, PlSysDynParts *parts);
/* split 0: every rank assembles everything, without communication (for tests: the parts'
 * sums against the whole); 1 (the default): the METIS parts. */
void PlSysDynSetSplit(PlSysDyn s, int split);
/* F(t, y, y'); returns 0, or 1 outside the rods' or bodies' domain. Collective. */
int PlSysDynResidual(PlSysDyn s, double t, const double *y, const double *yp, double *F);
/* The outputs' loads at (t, y, y'): the lines' end forces (PlSysDynEndForce) and the bodies'
 * loads (PlSysDynBodyOutput), as PlSysDynResidual leaves them, from
 * the elements and nodes at the lines' ends only (an output costs two elements per line, not
 * a residual). Returns as PlSysDynResidual. Collective. */
int PlSysDynOutputLoads(PlSysDyn s, double t, const double *y, const double *yp);
/* The bodies' block of the state at (t, y, y') with the joints' reactions lambda consistent with
 * the bodies' poses and velocities (and the lines' state), as the outputs report them (IDA's
 * multipliers are index-2 unknowns out of its error test): ymb[PlMultibodySize]. Returns 0, 1
 * (a singular saddle-point matrix) or 2 (out of memory). Every rank alike, not collective. */
int PlSysDynJointReactions(PlSysDyn s, double t, const double *y, const double *yp, double *ymb);
/* The iteration matrix dF/dy + c dF/dy' as a dense n x n row-major array (for tests). */
int PlSysDynMatrixDense(PlSysDyn s, double t, const double *y, const double *yp, double c, double *J);
/* The static equilibrium of the whole system (solver/system_static.c: Newton, then
 * pseudo-transient continuation; from a far start load steps and a ramp first): the dynamic
 * residual at rest from the state of PlSysDynCreate (the substructured equilibrium of
 * PlLinesSolve, start, or a line's own start shape with PlSysStaticHoldTargets), every body DOF
 * free but those of PlSysStaticHold. Returns 0 (rep says whether it converged; if not, the
 * start stays the state), 1 out of memory. */
typedef struct {
  int converged, iterations, rejected;
  double force_scale;            /* [N] */
  double initial_residual, residual; /* largest force row over the force scale */
  char failure[1024];
} PlSysStaticReport;
int PlSysStaticSolve(PlSysDyn s, const PlLinesReport *start, PlSysStaticReport *rep);
/* Holds body b's pose components with held[i] != 0 (O_b's x, y, z; roll, pitch, yaw, zyx) at
 * their values in the current state in PlSysStaticSolve: a DOF nothing restores (a vessel's
 * surge without DP or mooring) has no equilibrium, so the load left in it is reported
 * instead (PlSysStaticStore's body_unbalanced). */
void PlSysStaticHold(PlSysDyn s, int b, const int held[6]);
/* For tests: the residual at rest that PlSysStaticSolve zeroes (the held DOFs' rows, the DP
 * at its steady state) at state y, and its derivative d F / d y as a dense n x n row-major
 * array. 0, 1 outside the domain, 2 or 3 internal. */
int PlSysStaticResidual(PlSysDyn s, const double *y, double *F);
int PlSysStaticMatrixDense(PlSysDyn s, const double *y, double *J);
/* Makes the solved state the lines' static state (their problems, every rank its nodes) and
 * fills rep's points, end forces and tensions, and bodies (the held DOFs and their loads). */
PetscErrorCode PlSysStaticStore(PlSysDyn s, PlLinesReport *rep);
/* Holds each line's held end DOFs at the model's targets (the ends' positions and orientations
 * of the line's static problem) instead of where the state has them: for a solve from a start
 * shape (the catenary or straight guess), whose ends need not meet the holds (a bottom end
 * turned 10 deg in yaw from the start's plane). The constraint rows then carry the distance,
 * which Newton's first step closes. */
void PlSysStaticHoldTargets(PlSysDyn s);
/* The static equilibrium of a system of lines, points and bodies, the one sequence every
 * command uses: each line's own solve and the lines' Newton (PlLinesSolve), then, when that
 * converged, the whole system in one Newton from there (PlSysDynCreate into *S; every body DOF
 * free but those nothing restores, PlSysStaticHold), stored into rep (PlSysStaticStore). A
 * model with a line end fixed to a body converges only with the whole system's Newton (lines.c
 * holds such an end as a hinge); otherwise a failure of that Newton leaves the lines'
 * equilibrium at the bodies' held DOFs, converged, with a warning in warning[len] (else "").
 * *S is NULL when the lines' solve failed; the caller destroys it. A system of bodies alone (no
 * line) has no statics: rep holds its initial poses, converged, and *S starts there. Collective. */
PetscErrorCode PlSystemStatics(PlLines L, volatile sig_atomic_t *stop, int quiet, PlLinesReport *rep,
                               PlSysStaticReport *srep, PlSysDyn *S, char *warning, size_t len);
/* slay_output.c: rep->slay from the rollers' results in rep and the stinger's line p (node and
 * element stations N, E); summary.json's "stinger" object into root (a cJSON *); the console's
 * lines. */
void PlSlaySummarize(const PlModel *m, const PlProblem p, const PlStation *N, int nn, const PlStation *E, int ne,
                     PlLinesReport *rep);
void PlSlaySummaryJSON(const PlModel *m, const PlLinesReport *rep, void *root);
void PlSlayPrint(FILE *f, const PlModel *m, const PlLinesReport *rep);
/* Kinetic, strain and potential energy of state y at time t [J] (lines, points, bodies; a
 * pay-out line with its top element, masses and weights at t). */
void PlSysDynEnergy(PlSysDyn s, double t, const double *y, double *kin, double *strain, double *pot);
/* Pay-out line l's G = dE/dl at (t, y) [N] (0 without pay-out): the explicit derivative of the
 * energy by its top element's length (central differences, 1e-6 of it). The power the pay-out
 * brings in is the rate s' times G: the tensioner's work (-T s', the strain energy's part) and
 * the energy the paid-out pipe carries in (its weight's and kinetic share at the top nodes).
 * With no drag, damping or driving, dE/dt equals it (the momentum the pipe brings in is left out
 * of the equations, of the energy alike). */
double PlSysDynPayoutGradient(PlSysDyn s, int l, double t, const double *y);
/* energy.csv (system_dynamic.c, where its columns are described): its header line into buf
 * (with pay-out: work_payout_J and remesh_J), and the row of state y at time t into f: the
 * energies, the work integrals, with pay-out (w_payout not NULL) the pay-out's work *w_payout
 * and remesh_J, and balance_J against *e0, the total energy at t = 0 (set from this row when
 * not finite). strain: the lines' strain energy when the caller has it (the sum of their
 * element stations' strain_energy, in line and element order: the same bits), else NULL.
 * Returns balance_J [J]; when c != NULL also the
 * energy change total - total(0) and the balance's scale there, the largest of |total -
 * total(0)| and of the work columns' magnitudes. */
typedef struct {
  double change, scale; /* [J] */
} PlEnergyChange;
void PlSysDynEnergyHeader(const PlSysDyn s, char *buf, size_t len);
/* The work integrals' unknowns (energy.csv): the first and their count (0: none). Their rows
 * W' - P(y, y') = 0 carry only dF/dW' in the iteration matrix (nothing else depends on W). */
void PlSysDynWorkRows(const PlSysDyn s, int *first, int *count);
double PlSysDynEnergyRow(PlSysDyn s, double t, const double *y, const double *strain, const double *w_payout,
                         double *e0, FILE *f, PlEnergyChange *c);
/* A pay-out run's remesh (solver/dynamic.c) changed the energy by dE [J] (energy.csv's
 * remesh_J, carried to the rebuilt core); and the sum so far. */
void PlSysDynAddRemeshEnergy(PlSysDyn s, double dE);
double PlSysDynRemeshEnergy(const PlSysDyn s);

/* ---- the vessel at the top: coupled static equilibrium (solver/vessel_static.c) ---------- */
typedef struct {
  PetscBool converged;
  int iterations;              /* steps of the whole system's Newton (system_static.c) */
  int rejected;                /* of them rejected (then damped by a larger pseudo-mass shift) */
  double eta[6];               /* pose: O_b [m], roll, pitch, yaw (zyx) [rad] */
  double z[6];                 /* DP integral states [m s, rad s] */
  double residual_rel;         /* largest force or moment row of pipe and vessel over the force
                                  scale (the pipe's weight, its largest end tension) */
  double pipe_load[6];         /* the pipe's load on the vessel, body frame, about O_b [N, N m] */
  double thrust[6];            /* DP thrust (body frame) [N, N m] */
  double environment[6];       /* environment load at t = 0 (its frame) */
  double top_force_N;          /* |top reaction| [N] */
  bool held[6];                /* DOFs without restoring, kept at the initial pose */
  int nheld;
  char held_text[96];          /* their names */
  double unbalanced[6];        /* the load left in them (body frame) [N, N m] */
  char failure[1024];
} PlVesselStaticReport;
/* After PlStaticSolve of a model with a vessel (the top end at the vessel's initial pose):
 * finds the vessel pose where restoring, DP controller (at its steady state), environment
 * and pipe balance, moving the pipe with it; the result is the dynamic run's start. See
 * vessel_static.c. */
PetscErrorCode PlVesselStaticSolve(PlProblem prob, PlVesselStaticReport *rep);
/* The static analysis of a one-line model, the one sequence `pipelay run` and `pipelay sweep`
 * both solve: the line's equilibrium (PlStaticSolve) and, with a vessel, the coupled
 * equilibrium of line and vessel from it (PlVesselStaticSolve; vrep zeroed without a vessel or
 * when the line's solve failed). *converged: the line's and (with a vessel) the vessel's. */
PetscErrorCode PlStaticAnalysis(PlProblem prob, PlStaticReport *rep, PlVesselStaticReport *vrep, bool *converged);
/* PlStaticSolve, and with ends.top.target the top force's magnitude (its direction kept)
 * found by a secant iteration of static solves so that the top tension or the hang-off angle
 * is the target's (solver/static_target.c); the force reached stays in the problem's model. */
PetscErrorCode PlStaticTargetSolve(PlProblem prob, PlStaticReport *rep);

/* ---- the dynamic run of a one-line model (solver/dynamic.c) ------------------------------
 * The line (and its vessel, body 0 with the top end on the hang-off point) lent to the system
 * core as a system of one line (PlLinesOfProblem; solver/system_dynamic.c: the semi-discrete
 * equations of motion F(t, y, y') = 0, eq 5.96, their exact iteration matrix in sparse form,
 * SUNDIALS IDA with its own Newton and KLU). It starts from the current state of the static
 * problem (its solution, with a vessel the coupled equilibrium of PlVesselStaticSolve: the
 * pose, the DP integral states and the static thrust) at rest. The raw state (GetRaw, restart
 * files) is the core's layout: the nodes' unknowns in order (u = x - x_static, rotation
 * parameters, v, w: ndd per node), then the vessel's 13 (r, q, v, w) and its DP's 6. */
typedef struct PlDynamic_ *PlDynamic;

typedef struct {
  double t;                    /* time reached [s] */
  long steps;                  /* IDA steps */
  long residual_evaluations;
  long nonlinear_iterations;
  long nonlinear_failures;     /* Newton convergence failures (steps retried smaller) */
  long jacobian_evaluations;   /* iteration matrices assembled */
  long error_test_failures;
  double last_step;            /* [s] */
  int last_order;
} PlDynamicStats;

/* Creates the run from a static problem whose state is the start; stop (may be NULL) is the
 * flag a signal handler sets (PlDynamicAdvance then returns PL_DYN_INTERRUPTED). The static
 * problem must outlive it. Collective. */
/* PetscInitialize, with Open MPI's quick singleton start when no launcher started the
 * process (solver/mpi_start.c). */
PetscErrorCode PlInitialize(int *argc, char ***argv);

PetscErrorCode PlDynamicCreate(PlProblem statics, volatile sig_atomic_t *stop, PlDynamic *dyn);
PetscErrorCode PlDynamicDestroy(PlDynamic *dyn);
/* The number of unknowns of the raw state. */
int PlDynamicSize(const PlDynamic dyn);
/* The unknowns per node of the line (13 with quaternions, 12 with Euler angles, 3 more with
 * seabed friction: the anchors). */
int PlDynamicNodeDofs(const PlDynamic dyn);
/* Sets the nodes' velocities (global, [m/s]) from v(S) [3 per node, all nodes, on every
 * rank] before the first step, keeping held DOFs at their prescribed values. */
PetscErrorCode PlDynamicSetVelocity(PlDynamic dyn, const double *v_nodes);
/* Integrates to time tout (interpolated output). Returns 0 with *flag = 0 on success, or
 * *flag = the IDA return flag (< 0) and a reason in why[len] when IDA cannot continue. */
PetscErrorCode PlDynamicAdvance(PlDynamic dyn, double tout, int *flag, char *why, size_t len);
/* PlDynamicAdvance steps one IDA step at a time: between steps it honours a stop request
 * (*flag = PL_DYN_INTERRUPTED; the state stays at the last output) and detects a stalled
 * integration, 100 steps in a row shorter than 1e-10 (1 + |t|) s (*flag = PL_DYN_STALLED,
 * why says where and what to change). */
enum { PL_DYN_INTERRUPTED = -1000, PL_DYN_STALLED = -1001, PL_DYN_PAYOUT_LIMIT = -1002, PL_DYN_IMPLAUSIBLE = -1003 };
/* Pay-out: the top element, between the last material node and the tensioner's exit, is split
 * when it grows past PL_PAYOUT_SPLIT times the line's top element length at the start (l_ref:
 * a node is inserted at l_ref from its lower node) and merged into the element below when it
 * shrinks under PL_PAYOUT_MERGE times l_ref (solver/dynamic.c). PL_DYN_PAYOUT_LIMIT: paid in
 * until two elements are left. */
#define PL_PAYOUT_SPLIT 2.0
#define PL_PAYOUT_MERGE 0.5
PetscErrorCode PlDynamicGetStats(PlDynamic dyn, PlDynamicStats *st);
/* Energies [J] of the line and the vessel: kinetic, strain and potential (the lumped
 * submerged weights W_n z_n, the dead end forces -F.x, the vessel's restoring). */
PetscErrorCode PlDynamicEnergy(PlDynamic dyn, double *kinetic, double *strain, double *potential);
/* Copies the current positions and rotations into the static problem, so that
 * PlProblemStations / PlProblemGatherState post-process the dynamic state. */
PetscErrorCode PlDynamicSyncStatic(PlDynamic dyn);
/* The stations of the dynamic state at the last output time (as PlProblemStations gives
 * them for the static problem: node and element stations, malloc'd), from the state itself
 * (no copy into the static problem, no gather: every rank holds the state). On rank 0; the
 * other ranks get NULL and 0. */
PetscErrorCode PlDynamicStations(PlDynamic dyn, PlStation **nodes, int *nnodes, PlStation **elements, int *nelements);
/* One element's station of the dynamic state at the last output time (as PlDynamicStations
 * gives it; element e of the line, 0-based; on every rank). */
PetscErrorCode PlDynamicElementStation(PlDynamic dyn, int e, PlStation *station);
/* The whole raw state on every rank with the nodes' positions absolute (not the
 * displacements IDA integrates): [nnodes][ndd] then the vessel's unknowns (malloc'd). */
PetscErrorCode PlDynamicGatherState(PlDynamic dyn, double **y, int *ndd);
/* The raw state and rate at the last output time t, on every rank (PlDynamicSize doubles
 * each, caller's arrays). SetRaw restarts the integration from such a state (IDA starts
 * afresh at order 1: the run continues to the same result within the integration
 * tolerance). */
PetscErrorCode PlDynamicGetRaw(PlDynamic dyn, double *t, double *y, double *yp);
PetscErrorCode PlDynamicSetRaw(PlDynamic dyn, double t, const double *y, const double *yp);
/* The same with the integrator's whole state (count doubles of PlSysDynIntegratorSave; NULL:
 * IDA restarts at order 1), so that the run continues with the steps it would have taken. */
PetscErrorCode PlDynamicSetRawState(PlDynamic dyn, double t, const double *y, const double *yp, const double *state,
                                    long count);
/* The line's load on its top support at the output state, global frame [N] (collective). */
PetscErrorCode PlDynamicTopLoad(PlDynamic dyn, double load[3]);
/* The vessel at the current output state (every rank; zeros without a vessel). */
typedef struct {
  double eta[6];          /* O_b [m], roll, pitch, yaw (zyx) [rad] */
  double nu[6];           /* body velocities [m/s, rad/s] */
  double eta_ref[6];      /* the DP reference (eta itself without DP) */
  double thrust[6];       /* DP thrust, body frame [N, N m] */
  double pipe_load[6];    /* the pipe's load on the vessel, body frame, about O_b [N, N m] */
  double environment[6];  /* environment load (its frame) */
  double z[6];            /* DP integral states */
  double hang_off_point[3];/* the hang-off point (a body alone: the reported body point) [m] */
} PlVesselOutput;
PetscErrorCode PlDynamicVesselOutput(PlDynamic dyn, PlVesselOutput *o);

/* ---- results ------------------------------------------------------------------------- */
typedef struct {
  double top_tension_N, top_horizontal_tension_N, hang_off_angle_deg;
  double layback_m, touchdown_arc_length_m;   /* NaN when the line does not touch down */
  double max_bending_moment_Nm, max_bending_moment_arc_length_m;
  double max_axial_strain, max_fibre_strain;
  double max_tension_N, max_curvature_1pm;
  int has_vessel;               /* the coupled static equilibrium was solved */
  PlVesselStaticReport vessel;
  int off_grid_node;            /* the first node (from the top) outside the bathymetry grid,
                                   where its edge depths are held; -1 none (or no grid) */
  double off_grid_xy[2];        /* its (x, y) [m] */
  double friction_mobilised;    /* seabed.friction: the largest share tanh(rho) of an element's
                                   friction capacity in use [-], NaN without friction */
  double friction_mobilised_arc_length_m; /* where (the element's middle) */
  int has_design;               /* the model's design: block: design below holds the largest
                                   von Mises stress and utilisation and where (v NULL) */
  PlDesignEnvelope design;
} PlStaticSummary;

/* The touchdown point of the line at node stations N (nn): from the top down, the first node
 * in contact with the seabed, the crossing interpolated between it and the node above: its
 * arc length [m] (NaN without contact or seabed) and position xt [m]. */
double PlTouchdown(const PlProblem prob, const PlStation *N, int nn, double xt[3]);
PetscErrorCode PlStaticSummarize(PlProblem prob, const PlStation *nodes, int nnodes,
                                 const PlStation *elements, int nelements, PlStaticSummary *s);


/* Writes static.csv, static_elements.csv and summary.json (atomically) into dir (created
 * if missing), on rank 0. Returns 0, or PL_EXIT_IO with a message in err. */
int PlWriteStaticResults(const char *dir, const PlModel *m, const PlStaticReport *rep,
                         const PlStaticSummary *s, const PlStation *nodes, int nnodes,
                         const PlStation *elements, int nelements, int nranks,
                         int noverrides, const char *const *overrides, PlError *err);

/* A whole dynamic run to files (solver/dynamic_run.c): starts from the problem's current
 * (static) state, writes the time series, envelopes and summary.json into
 * model.output_dir, and calls observer (rank 0) with the node stations at the output times
 * that are ParaView frames (PlModelVtkFrame: every output.vtk_interval and the last). */
typedef int (*PlDynamicObserverFn)(void *ctx, double t, const PlStation *nodes, const PlStation *stat, int nnodes,
                                   PlError *err); /* stat: the static start's stations at the same nodes */
/* Called at the frame times (as observer) of a model without a line with each body's origin r (global)
 * and attitude R (body -> global, row-major). */
typedef int (*PlBodiesObserverFn)(void *ctx, double t, int nbodies, const double (*r)[3], const double (*R)[9],
                                  PlError *err);
/* Called at the frame times (as observer) of a system of lines with each line's node stations (rank 0). */
typedef int (*PlLinesObserverFn)(void *ctx, double t, int nlines, PlStation *const *nodes,
                                 PlStation *const *stat, const int *nnodes, PlError *err); /* stat: each
                                 line's static start stations at the same nodes */
typedef struct {
  int quiet;                      /* no progress line */
  int noverrides;                 /* --set values, echoed in summary.json */
  const char *const *overrides;
  PlDynamicObserverFn observer;   /* may be NULL */
  void *observer_ctx;
  PlBodiesObserverFn bodies_observer; /* a system's bodies (solver/system_run.c); may be NULL */
  void *bodies_observer_ctx;
  PlLinesObserverFn lines_observer; /* a system of lines (solver/system_run.c); may be NULL */
  void *lines_observer_ctx;
  volatile sig_atomic_t *stop;    /* set asynchronously (a signal): stop at the next output */
  int restart;                    /* continue from model.output_dir/restart.bin */
  const char *fingerprint;        /* the model as text (app/describe.c, fingerprint mode): kept
                                     in restart.bin; a restart with another text is refused,
                                     naming the lines that differ. NULL: not checked */
} PlDynamicRunOptions;

/* An extreme value over a dynamic run, and where and when it occurred. */
typedef struct {
  double value, S_m, t_s;
} PlExtreme;

/* The extrema of a dynamic run over its output times, t = 0 (the static state) included.
 * Section values at the element midpoints (as the static summary); the top tension at the
 * top node station (the top element's effective tension). */
typedef struct {
  PlExtreme max_top_tension, min_top_tension;   /* [N] */
  PlExtreme max_tension, min_tension;           /* effective tension n1 [N] */
  PlExtreme max_moment;                         /* |(m2, m3)| [N m] */
  PlExtreme max_curvature;                      /* |(kappa2, kappa3)| [1/m] */
  PlExtreme max_axial_strain, max_fibre_strain; /* gamma1, gamma1 + |kappa| d_o/2 [-] */
} PlRunExtrema;

typedef struct {
  int completed;                  /* reached the duration with every file written */
  int ida_flag;                   /* < 0: IDA could not continue (failure says why) */
  int interrupted;                /* stopped through *stop */
  int io_status;                  /* 0 or PL_EXIT_IO (err says why) */
  double simulated_time_s;        /* the time reached [s] */
  double wall_time_s;             /* this process's wall time [s] (a restart's own) */
  double real_time_factor;        /* the time this process simulated (simulated_time_s - restarted_at_s)
                                     over its wall time */
  double max_top_tension_N, min_top_tension_N, max_bending_moment_Nm;
  PlRunExtrema extrema;           /* over the whole run (restarts included) */
  int nlines;                     /* a system of lines: its lines' extrema over the run */
  PlRunExtrema *line_extrema;     /* [nlines] (PlSysDynRunToFiles allocates; PlDynamicResultFree) */
  PlDesignEnvelope *line_design;  /* [nlines] with a design: block, else NULL: each line's governing
                                     design values (v NULL; as line_extrema) */
  int nbodies;                    /* a system's bodies: their state at the last output */
  PlVesselOutput *body_final;     /* [nbodies] (PlSysDynRunToFiles allocates; PlDynamicResultFree) */
  PlDynamicStats stats;           /* counters over the whole run (restarts included) */
  double restarted_at_s;          /* restart: the time it continued from (0 otherwise) */
  int has_vessel;
  PlVesselOutput vessel_final;    /* the vessel at the end */
  double vessel_max_offset_m;     /* largest horizontal distance of O_b from the DP reference
                                     (from the start time of the controller; 0 without DP) */
  double vessel_max_thrust_N;     /* largest |(surge, sway)| thrust */
  double paid_out_m;              /* ends.top.payout: the pipe paid out by the last output [m] */
  int payout_remeshes;            /* ends.top.payout: top elements split or merged */
  double max_energy_balance_J;    /* the largest |balance_J| of energy.csv over the run's outputs */
  double max_work_J;              /* the balance's scale there (PlSysDynEnergyRow) */
  int retired_elements;           /* lay.retire_behind: bottom elements retired */
  char failure[1024];
  PlError err;
  int has_design;                 /* the model's design: block (rank 0 holds design) */
  PlDesignEnvelope design;        /* its envelopes over the output times of this process's run
                                     (a restart's from the restart on); v freed at the end */
} PlDynamicResult;
/* Frees what a result holds (line_extrema); accepts a zeroed result. */
void PlDynamicResultFree(PlDynamicResult *res);
/* ends.top.payout: the pipe paid out by the state's time [m], its rate [m/s] and, under
 * tension control, the tension the tensioner measured at its last sample [N] (NaN else). */
void PlDynamicPayout(const PlDynamic dyn, double *s, double *rate, double *tension);
/* ends.top.payout: 1 when the line was renumbered since the last call (PlProblemRenumber): the
 * top element split or merged, or laid pipe retired at the bottom (lay.retire_behind). The
 * nodes of the last call's numbering: the first *dropped were retired, those from *dropped to
 * *kept - 1 are the new numbering's 0 to *kept - *dropped - 1, the top stays the last, the
 * others are new. The splits and merges so far in *count, the retired nodes in *retired. */
int PlDynamicRenumbered(PlDynamic dyn, int *kept, int *dropped, int *count, int *retired);
/* ends.top.payout: the work the pay-out has brought in by the state's time [J] (energy.csv's
 * work_payout_J): its power, the rate times PlSysDynPayoutGradient, over each of the
 * integrator's steps (solver/dynamic.c), each remesh's jump kept out (the remesh's own energy
 * change is remesh_J). */
double PlDynamicPayoutWork(PlDynamic dyn);

/* The number of output times and the time of the restart file in dir (for a restarted run's
 * ParaView collection). 0, or PL_EXIT_BAD_INPUT with a message. */
int PlDynamicRestartInfo(const char *dir, int *noutputs, double *t, PlError *err);

/* The whole run to files in model.output_dir (solver/system_run.c): timeseries_lines.csv
 * (each line end's tension and force on its support; not for bodies alone),
 * timeseries_point_NAME.csv per free point, timeseries_BODY.csv per body, timeseries_JOINT.csv
 * per joint, energy.csv, and summary.json (the static summary of the lines with "analysis":
 * "dynamic_lines", or "rigid_body" for bodies alone, and a "dynamic" object). On rank 0 only. */
int PlSysDynRunToFiles(PlSysDyn s, const PlLinesReport *rep, const PlDynamicRunOptions *opt, PlDynamicResult *res);
PetscErrorCode PlDynamicRunToFiles(PlProblem p, const PlStaticReport *srep, const PlStaticSummary *ssum,
                                   const PlDynamicRunOptions *opt, PlDynamicResult *res);


/* ---- rigid bodies joined by joints (solver/multibody.c) ----------------------------------
 * The residual of nbodies bodies (PlVessel each, 13 unknowns) and njoints joints (lambda and
 * mu, m rows each, after the bodies' unknowns) in the stabilised index-2 form of
 * docs/design-system-core.md §5.2. load_global[b] (may be NULL): a dead force and moment at
 * body b's origin, global frame (its weight when O_b is the centre of gravity). */
typedef struct {
  PlJoint joint;
  int body[2];                  /* body a, body b (-1: the ground) */
} PlMultibodyJoint;
typedef struct {
  int nbodies, njoints;
  const PlVessel *bodies;       /* [nbodies] */
  const double (*load_global)[6]; /* [nbodies] or NULL */
  const double (*tau_body)[6];    /* [nbodies] or NULL: force and moment in the body frame about
                                     O_b (controller, follower loads), taken as constants */
  const PlMultibodyJoint *joints; /* [njoints] */
} PlMultibody;
/* The number of unknowns: 13 nbodies + 2 sum_j m_j. */
int PlMultibodySize(const PlMultibody *mb);
/* mb over the bodies and joints of m: V[nbodies] and jt[njoints] filled from the model, the
 * loads tau_body and load_global (the caller's arrays, set before each evaluation). */
void PlMultibodyFromModel(const PlModel *m, PlVessel *V, PlMultibodyJoint *jt, double (*tau_body)[6],
                          double (*load_global)[6], PlMultibody *mb);
/* IDA's ids: 1 for the bodies' unknowns (differential), 0 for the multipliers. */
void PlMultibodyIds(const PlMultibody *mb, double *id);
/* F(t, y, y') (n = PlMultibodySize rows). Returns 0, or 1 outside the domain. */
int PlMultibodyResidual(const PlMultibody *mb, double t, const double *y, const double *yp, double *F);
/* The same, and when J is not NULL the iteration matrix dF/dy + c dF/dy' (n x n, row-major,
 * overwritten). */
int PlMultibodyEvaluate(const PlMultibody *mb, double t, const double *y, const double *yp, double c, double *F,
                        double *J);
/* The load joint j applies to its first body (body[0]) at state y: the joint point P, the
 * force and the moment about P, global frame [m, N, N m] (the second body, or the ground,
 * gets the opposite). */
void PlMultibodyJointLoad(const PlMultibody *mb, const double *y, int j, double P[3], double force[3],
                          double moment[3]);
/* The largest translational gap of the joints at y [m] (the joint point's rows; a prismatic
 * guide's two across it; the dimensionless axis rows are not in it). */
double PlMultibodyJointGap(const PlMultibody *mb, const double *y);
/* A joint's time series (timeseries_JOINT.csv): the header, and a row (t, point, force,
 * moment; flushed). */
const char *PlJointSeriesHeader(void);
void PlJointSeriesRow(FILE *f, double t, const double P[3], const double F[3], const double M[3]);
