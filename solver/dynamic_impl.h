/*
 * dynamic_impl.h - a line's dynamic kernels, the system core's parts its runs read, the
 * time series and restart files of a dynamic run (private).
 */
#pragma once
#include <signal.h>
#include <stdint.h>
#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include "solver_impl.h"
#include "pipelay/elements.h"
#include "pipelay/waves.h"

/* How the dynamic run holds an end node. */
typedef struct {
  int node;                 /* node index */
  bool tr[3];               /* translation held (x_c = xbar_c(t), v_c = vbar_c(t)) */
  int rot;                  /* 0 free, 1 all three held (p = pbar(t), w = wbar(t)), 2 partial */
  bool rp[3];               /* partial: rotation component c held at its static value */
  const PlMotion *motion;   /* prescribed motion (kind NONE: none) */
  double xs[3];             /* static position [m] */
  double ps[4];             /* static rotation parameters */
  double qs[4];             /* unit quaternion of R(ps) (without R0) */
  double F[3], M[3];        /* dead end force [N] and moment [N m] (global) */
  double route_s0;          /* a route motion: the static touchdown's station sigma_0 [m], */
  double route_b[2];        /* the top's static plan offset from it b_0 [m] */
  double route_t0[2];       /* and the route's unit tangent there */
} PlDynEnd;

/* The work integrals of a dynamic run (the energy balance of energy.csv): W_k' = P_k, the power
 * of each load that the energies of PlSysDynEnergy do not hold, integrated with the motion as
 * states of the DAE (system_dynamic.c). The first three are the bodies': the
 * work of their environment loads and thrusters, of the drag (hulls; with lines also the free
 * points' and the lines' Morison drag) and the energy their damping matrices dissipate (> 0).
 * The others are the lines': the work done on the pipe (negative when it takes energy out) by
 * the Morison added-mass force, the seabed's normal reaction (its elastic part) and its contact
 * damping, the seabed friction, the held or moved ends' supports (and dead end moments), the
 * rotational damping and the weight's splash-zone part (the buoyancy the constant submerged
 * weight of the potential energy does not have above the surface), the stinger's rollers'
 * contact (its elastic part, its damping and a moving stinger's work); and the split of the
 * friction's work (-W_friction = its springs' stored energy change + FRICTION_SLIP +
 * FRICTION_NONCONSERVATIVE): the energy the anchors' slip dissipated (> 0) and the spring work
 * the friction law neither stores nor dissipates, of either sign: the stored energy lost or
 * gained as the normal force changes, and the round-off of the law's solve (the law is
 * conservative, models/friction.c). */
enum {
  PL_WORK_LOADS,
  PL_WORK_DRAG,
  PL_WORK_DAMPING,
  PL_WORK_ADDED_MASS,
  PL_WORK_SEABED,
  PL_WORK_SEABED_DAMPING,
  PL_WORK_FRICTION,
  PL_WORK_ENDS,
  PL_WORK_ROTATIONAL_DAMPING,
  PL_WORK_SPLASH_ZONE,
  PL_WORK_ROLLERS,
  PL_WORK_FRICTION_SLIP,
  PL_WORK_FRICTION_NONCONSERVATIVE,
  PL_WORK_N
};
#define PL_WORK_N_BODIES 3 /* a system of bodies only carries the first three */

/* A line's dynamic data (line_dynamics.c), the system core's per-line part. */
struct PlDynLine_ {
  PlProblem sp;             /* the static problem: model, mesh, elements, static state */
  MPI_Comm comm;
  PlParamKind kind;
  int np, nd, ndd;          /* rotation parameters, static and dynamic DOFs per node */
  int iV, iW;               /* offsets of v and w in a node's unknowns */
  int iA;                   /* seabed.friction: offset of the anchor's displacement from its
                               static place (3) in a node's unknowns (node e: element e's
                               anchor; the last node's are idle, a' = 0); -1 without */
  PlNodeInertia *inertia;   /* [nnodes] lumped */
  PlMorison *morison;       /* [nelements] */
  PlWaves *waves;           /* the system's sea (borrowed, PlSysDynCreate), NULL in a calm sea: the
                               Morison loads take the current alone (PlCurrentVelocity) */
  double *xs;               /* [3 nnodes] static positions: y carries u = x - xs [m] */
  double *wnode;            /* [nnodes] lumped submerged weight [N] (potential energy) */
  PlDynEnd ends[2];
  double t0;                /* start time [s] */
  bool payout;              /* ends.top.payout: the top element's length follows the pay-out */
  double load_factor;       /* the statics' continuation (solver/system_static.c): the submerged
                               weight scaled by it (1 but in a ramp from a far start) */
  bool at_rest;             /* the system's statics (solver/system_static.c): no seabed contact
                               damping (0 at rest; in the pseudo-transient steps it would only
                               slow the lines' contact DOFs) */
  double Ltop0;             /* its length at the set-up [m] (PlDynTopLength) */
  double s0;                /* the length paid out by the set-up [m] (0 at the start; a
                               remeshed line's at its remesh, solver/dynamic.c) */
  struct PlDynTensioner {    /* tension control: at the last sample tk the paid-out length sk
                               [m] and rate rk [m/s], the rate rcmd commanded then and the
                               filtered tension [N] the command used; tf_t the time of the
                               filter's last sample (< 0: none yet) */
    double tk, sk, rk, rcmd, tension, tf_t;
  } ctl;
};
typedef struct PlDynLine_ *PlDynLine;

/* ---- a line's dynamic kernels (line_dynamics.c), assembled by the system core
 * (system_dynamic.c) ---- */
/* A line's dynamic data from its static problem (solved): lumped inertia, Morison data,
 * nodal weights, the static positions xs and its ends (SetUpEnd); no layout, no IDA
 * (PlDynLineDestroy frees it). */
PetscErrorCode PlDynLineSetUp(PlProblem sp, PlDynLine *out);
PetscErrorCode PlDynLineDestroy(PlDynLine *d);
/* Element e's contributions fe (2 ndd, node rows of A then B) and, when Ke != NULL, the
 * iteration-matrix block (2 ndd x 2 ndd) for node states yA, yB (positions absolute) and
 * rates; pw (PL_WORK_N, may be NULL) += the powers of its loads [W] (the work integrals' rates:
 * drag, added mass, seabed, friction, splash zone). qAB (8, may be NULL): the nodes' frames
 * PlNodeQuaternion(kind, q0, p) of A then B, when the caller has them (the residual's loop
 * carries node e + 1's to element e + 1). Returns 1 outside the rod's domain. */
int PlDynElement(const PlDynLine d, int e, double t, const double *yA, const double *ypA, const double *yB,
                 const double *ypB, double c, double *fe, double *Ke, double *pw, const double *qAB);
/* Element e's friction spring at node positions xA, xB (absolute) and anchor displacement da
 * (from its static place, the state's iA unknowns): its stored energy P Psi(u) [J]
 * (models/friction.c). 0 without friction. */
double PlDynFrictionEnergy(const PlDynLine d, int e, const double *xA, const double *xB, const double *da);
/* The touchdown point of line d (PlTouchdown) with node i at pos[i stride + c], plus ref[3 i + c]
 * when ref is not NULL (the static positions under y's displacements); the bottom node without
 * contact with the seabed. */
void PlDynTouchdown(const PlDynLine d, const double *pos, int stride, const double *ref, double xt[3]);
/* Pay-out (ends.top.payout): the top element's unstretched length at time t, l(t) = l_0 +
 * s(t) (PlPayout; l_0 without pay-out); node i's lumped inertia at t (the top element's
 * share, m l(t)/2 and J l(t)/2, on its two nodes); and the line's outputs brought to time t
 * (the static problem's top element length and arc lengths, which its stations use). */
double PlDynTopLength(const PlDynLine d, double t);
/* The pipe paid out by t [m] and its rate [m/s] (prescribed, or the tensioner's). */
void PlDynPaidOut(const PlDynLine d, double t, double *s, double *rate);
/* Tension control: the controller's sample at time t with the measured tension T [N] (the
 * pipe's pull on the tensioner): the winch's state there is kept, the load cell's low-pass
 * T_f (ends.top.payout.filter) takes T in, and the new command is R tanh(k (T_f - T_set) / R)
 * from start_time on (0 before). */
void PlDynTensionerSample(PlDynLine d, double t, double T);
void PlDynNodeInertia(const PlDynLine d, int i, double t, PlNodeInertia *ni);
void PlDynLineSetTime(PlDynLine d, double t);
/* Pay-out: the material point at fraction xi of element e as a new node, from the element's
 * node states yA, yB and rates (the rod's interpolation: position and velocity linear, the
 * rotation R_A exp(xi psi), the spatial angular velocity and its rate linear): its position
 * x[3], its frame q[4] (its parameters then the identity) and its unknowns yn and rates ypn
 * (ndd each; positions as displacements from x, i.e. zero, and no anchor slip). */
void PlDynInterpolateNode(const PlDynLine d, int e, double xi, const double *yA, const double *ypA,
                          const double *yB, const double *ypB, double x[3], double q[4], double *yn, double *ypn);
/* The dead moment of node i (NULL when none). */
const double *PlDynNodeMoment(const PlDynLine d, int i);
/* Is row r of node i replaced by a constraint (an end's hold)? */
int PlDynRowHeld(const PlDynLine d, int i, int r);
/* The held rows of end E in f (node row array, y the node's unknowns, positions as
 * displacements) and in the node's Jacobian block Kn (ndd x ndd). */
void PlDynEndResidual(const PlDynLine d, const PlDynEnd *E, double t, const double *y, double *f);
/* Prescribed values of end E at time t: position xb, velocity vb, acceleration ab (3 each),
 * rotation parameters pb (np) and the body angular velocity wb. */
void PlDynEndPrescribed(const PlDynLine d, const PlDynEnd *E, double t, double xb[3], double vb[3], double ab[3],
                        double *pb, double wb[3]);
void PlDynEndJacobian(const PlDynLine d, const PlDynEnd *E, const double *y, double *Kn);

/* ---- system_dynamic.c's parts that its run (system_run.c) reads ---- */
const PlModel *PlSysDynModel(const PlSysDyn s);
/* Line l's dynamic data (its unknowns are the first of the state for l = 0), and the system's sea
 * (NULL in a calm sea): the tests' access to the element kernels in waves. */
PlDynLine PlSysDynLine(const PlSysDyn s, int l);
PlWaves *PlSysDynWaves(const PlSysDyn s);
void *PlSysDynIDA(PlSysDyn s);
/* The integrator's whole state after its last step (IDA's history, its matrix and Newton data,
 * the factors of the iteration matrix): its size in doubles, and the save into buf; a restart
 * from it (PlSysDynResumeRunState: y, y' at IDA's last step, at its time t) continues with the
 * steps and values of the run that saved it. 1 when state is not this system's; NULL state: IDA
 * restarts at order 1 (PlSysDynResumeRun). */
long PlSysDynIntegratorSize(const PlSysDyn s);
void PlSysDynIntegratorSave(const PlSysDyn s, double *buf);
int PlSysDynResumeRunState(PlSysDyn s, double t, const double *y, const double *yp, const double *state, long count);
/* The largest |chord strain| |x_b - x_a| / L - 1 of the system's elements in state y at t
 * (PlSysDynPlausible's measure). */
double PlSysDynMaxStrain(const PlSysDyn s, double t, const double *y);
/* The state y at time t within the plausible (stretch, seabed, bodies' norms, joints' gap:
 * system_dynamic.c says the bounds and why): 0, or 1 with what, where, when and what to change
 * in why. */
int PlSysDynPlausible(const PlSysDyn s, double t, const double *y, char *why, size_t len);
/* analysis.dynamic.max_steps reached by IDA (its steps since its last start: the run's, or
 * since a pay-out's remesh; a breakpoint's restart keeps the count): 1 with what to change in why. IDA's own limit counts the steps of
 * one IDASolve call, one step in the runners' one-step mode, so it never fires there. */
int PlSysDynStepLimit(const PlSysDyn s, void *ida, double t, char *why, size_t len);
/* In IDA_ONE_STEP mode IDASolve's tout serves only the first step after a (re)start, which IDA
 * sizes as 0.001 of the distance to it (at most 0.5 / |y'|): IDASolve is called with tout this
 * far [s] beyond IDA's time, not at the next output time, so that the output interval does not
 * change the steps (a 1 ms first step, as a 1 s output interval gave). */
#define PL_IDA_FIRST_STEP_HORIZON 1.0
/* One step of IDA (IDA_ONE_STEP; y, yp its vectors) that does not step across a breakpoint of
 * the forcing (PlModelBreakpoints): IDA's stop time is the next one (or the caller's stop,
 * PlSysDynSetStopTime, when that is earlier), and the step after IDA stopped at one restarts
 * it there (system_dynamic.c: the restart and its derivation). Returns IDASolve's flag, with
 * IDA_TSTOP_RETURN for the caller's stop only; *tret the time of y. The breakpoints are the
 * model's, so the steps do not depend on the outputs, and every rank takes the same. */
int PlIdaStep(void *ida, N_Vector y, N_Vector yp, realtype *tret);
/* 1 when IDA stands at one of the breakpoints (after a failed step: the first from it). */
int PlSysDynAtBreakpoint(const PlSysDyn s, void *ida);
/* What a failure there means, and its fix. */
#define PL_BREAKPOINT_HINT                                                                           \
  "IDA could not step on from a breakpoint of the forcing (pipelay info lists them), where a prescribed " \
  "position or load changes faster than the line can follow: a jump in it, or time-series rows closer "   \
  "together than the steps can follow; spread the jump over a longer time"
/* The caller's stop time t for the steps of PlIdaStep (IDA_TSTOP_RETURN there), until reached. */
void PlSysDynSetStopTime(PlSysDyn s, double t);
N_Vector PlSysDynStateVector(PlSysDyn s);
N_Vector PlSysDynRateVector(PlSysDyn s);
/* The line's pull on its end e of line l at the last residual evaluation: what the end's
 * support (point, body, or the given end) and its applied force hold together, global [N]
 * (its magnitude is the end's effective tension). */
void PlSysDynEndForce(const PlSysDyn s, int l, int e, double f[3]);
/* Free point p at state y: position [m] and velocity [m/s]. */
void PlSysDynPoint(const PlSysDyn s, int p, const double *y, double x[6]);
/* Body b at state y (the lines' load from the last residual evaluation). */
void PlSysDynBodyOutput(const PlSysDyn s, int b, double t, const double *y, PlVesselOutput *o);
/* The static summary of the lines (a cJSON *). */
void *PlSysDynStaticSummary(const PlSysDyn s, const PlLinesReport *rep);
/* Line l's unknowns [nnodes nd] (positions absolute, as a static problem's) at state y
 * (malloc'd; NULL out of memory), and its node count. */
double *PlSysDynLineUnknowns(const PlSysDyn s, int l, const double *y, int *nnodes);
/* The same for the count nodes from i0 on, into u [count nd]. */
void PlSysDynNodeUnknowns(const PlSysDyn s, int l, const double *y, int i0, int count, double *u);
PlLines PlSysDynLines(const PlSysDyn s);
/* roller.c: the stinger's rollers (0: none) and roller k's contact at the last evaluation. */
int PlSysRollersCount(const PlSysDyn s);
void PlSysRollersResult(const PlSysDyn s, int k, PlRollerResult *res);
/* roller.c: how deep below roller k's surface the line passes at the current state when it
 * passes it out of reach only (stinger.reach: the pipe under the stinger) [m], else NaN. */
double PlSysRollersUnder(const PlSysDyn s, int k);
/* roller.c: a dynamic run's DIR/timeseries_rollers.csv (t, then per roller its reaction's
 * magnitude and global components [N] and its gap [m], at the last evaluation's state): opened
 * with its header, or trimmed to the restart's last output t_last (>= 0) and appended; NULL
 * without rollers or on an error (err). A row per output. */
FILE *PlSysRollersSeriesOpen(const PlSysDyn s, const char *dir, double t_last, PlError *err);
void PlSysRollersSeriesRow(const PlSysDyn s, FILE *f, double t);
/* Body b's origin (global) and attitude R (body -> global, row-major) at state y. */
void PlSysDynBodyPose(const PlSysDyn s, int b, const double *y, double r[3], double R[9]);

/* line_dynamics.c: the tie of a fixed end to its body, X = q0* (x) q_b (x) q_T = Aq q_b (Aq
 * 4x4 row-major; q0 the end node's reference frame, R(q0) R(p) = R_b T); for quaternion
 * parameters the sign keeping the hemisphere of the end's parameters p at body attitude qb. */
void PlDynFixedTieMap(const double q0[4], const double T[9], PlParamKind kind, const double *p, const double qb[4],
                      double Aq[16]);

/* line_dynamics.c: IDA one step at a time up to tout, then the state at tout interpolated into y,
 * yp (IDAGetDky: the same interpolation as IDA_NORMAL's). Between steps a stop request
 * (agreed over comm's ranks: PL_DYN_INTERRUPTED, y at the last step) and the stall test (100
 * steps in a row shorter than 1e-10 (1 + |t|) s: PL_DYN_STALLED). Returns 0, those, or IDA's
 * negative flag, with the reason and what to change in why; *t_reached the time of y. With a
 * hook (may be NULL) hook->fn(hook->ctx, t, y) after every step, with IDA's state at its end.
 * conv_hint (may be NULL: the lines' causes) says what makes Newton fail (IDA_CONV_FAIL) in
 * what is integrated. */
typedef struct {
  void (*fn)(void *ctx, double t, const double *y);
  void *ctx;
} PlStepHook;
int PlIdaAdvance(void *ida, N_Vector y, N_Vector yp, double tout, volatile sig_atomic_t *stop, MPI_Comm comm,
                 const PlStepHook *hook, const char *conv_hint, double *t_reached, char *why, size_t len);

/* ---- line_series.c: a line's time series at its ends and named points, its envelopes and
 * extrema over a run (one-line runs and each line of a system) ---- */
typedef struct {
  FILE **f;              /* [2 + the line's output points]: bottom, top, the output points */
  char (*path)[PL_PATH_MAX + 128]; /* their files */
  int *node;             /* their nodes */
  int n, nn;
  double *env;           /* [nn][12]: dx, dy, dz, m2, m3, T as (min, max) pairs */
  const PlStation *stat; /* the static node stations (borrowed) */
  PlProblem p;           /* the line (borrowed: its seabed, mesh and touchdown) */
  FILE *td;              /* touchdown.csv (a line with a seabed), else NULL */
  char td_path[PL_PATH_MAX + 128];
} PlLineSeries;
/* Zeroes w and allocates its envelopes and files for line problem p with static stations stat
 * (PlLineSeriesFree frees them). -1: out of memory. */
int PlLineSeriesInit(PlLineSeries *w, const PlProblem p, const PlStation *stat);
/* Opens DIR/timeseries_{bottom,top,POINT}.csv for p's ends and output points, and with a seabed
 * DIR/touchdown.csv; t_restart >= 0 keeps the rows up to it and appends. 0 or PL_EXIT_IO with
 * the file in err. */
int PlLineSeriesOpen(PlLineSeries *w, const char *dir, const PlProblem p, double t_restart, PlError *err);
/* A row at time t from the node stations N, with the line's load on its top top_load
 * (global [N]); updates the envelopes (first: they start here). */
int PlLineSeriesRow(PlLineSeries *w, double t, const PlStation *N, const double top_load[3], int first, PlError *err);
/* DIR/envelopes.csv, written atomically. */
int PlLineSeriesEnvelopes(const PlLineSeries *w, const char *dir, PlError *err);
/* Closes the files (the envelopes stay, for the last checkpoint); PL_EXIT_IO naming the file
 * when a close failed (err keeps the first failure's message only when io was 0: pass a
 * scratch PlError otherwise). */
int PlLineSeriesClose(PlLineSeries *w, PlError *err);
/* Pay-out: the line renumbered to nn nodes (PlDynamicRenumbered): its first `dropped` nodes
 * retired, those up to `kept` and its top kept, the others paid out since (their envelopes
 * start at the next row); stat the new static stations (borrowed). -1: out of memory. */
int PlLineSeriesRenumber(PlLineSeries *w, int nn, int kept, int dropped, const PlStation *stat);
/* Frees the envelopes. */
void PlLineSeriesFree(PlLineSeries *w);
/* After a row written to f: flushed, or PL_EXIT_IO naming path and the reason. */
int PlSeriesRowWritten(FILE *f, const char *path, PlError *err);
/* Keeps the header and the rows with t <= t_last of a time-series file, then reopens it
 * for appending. NULL on failure. */
FILE *PlTrimSeries(const char *path, double t_last);
void PlRunExtremaInit(PlRunExtrema *x);
/* The extrema of the state at time t: E the element stations, top the top node station. */
void PlRunExtremaUpdate(PlRunExtrema *x, const PlProblem p, double t, const PlStation *E, int ne, const PlStation *top);
/* The extrema as max_top_tension_N, ... (with their arc lengths and times) into a cJSON object. */
void PlRunExtremaToJson(void *obj, const PlRunExtrema *x);

/* ---- wave_series.c: waves.csv (a model with waves) ---- */
/* Its header into buf: t_s, eta at the top end (one line: eta_top_m; lines: eta_NAME_top_m each),
 * eta at each probe (eta_probeK_m). */
void PlWaveSeriesHeader(const PlModel *m, char *buf, size_t cap);
/* Its row at time t: eta [m] of the sea w above the ntops top ends at tops (global; x, y used)
 * and above sea's probes. */
void PlWaveSeriesRow(FILE *f, PlWaves *w, const PlSea *sea, double t, const double (*tops)[3], int ntops);

/* ---- lay_output.c: the lay's files along lay.route (lay.csv, as_laid.csv) ---- */
const char *PlLaySeriesHeader(void);
/* lay.csv's row at time t: paid the pipe paid out [m], top_load the line's load on its top
 * [N], N and E the node and element stations. */
void PlLaySeriesRow(FILE *f, const PlProblem p, double t, double paid, const double top_load[3], const PlStation *N,
                    int nn, const PlStation *E, int ne);
/* Where each node landed: the first output at which it touched the seabed (t, x, y, its offset
 * from the route; NAN t: not yet), kept through the pay-out's renumbering (-1: out of memory). */
typedef struct {
  int nn;
  double *land; /* [nn][4] */
} PlLayTrack;
int PlLayTrackInit(PlLayTrack *tr, int nn);
int PlLayTrackRenumber(PlLayTrack *tr, int nn, int kept, int dropped);
void PlLayTrackUpdate(PlLayTrack *tr, const PlProblem p, double t, const PlStation *N, int nn);
void PlLayTrackFree(PlLayTrack *tr);
/* DIR/route.csv: the route's points (atomic). 0 or PL_EXIT_IO. */
int PlRouteWrite(const char *dir, const PlRoute *r, PlError *err);
/* DIR/as_laid.csv from the node stations N and where they landed (atomic). 0 or PL_EXIT_IO. */
int PlAsLaidWrite(const char *dir, const PlProblem p, const PlStation *N, int nn, const PlLayTrack *tr, PlError *err);

/* ---- dynamic_run.c: restart.bin, the state a dynamic run continues from (--restart) -----
 * One layout for a one-line run and a system of lines (system_run.c): the header below, then
 * y and y' (nnodes ndd + nextra each: the raw IDA state at t), naux further doubles (a one-line
 * run: its envelopes, 12 per node; a system: its running extrema and each line's envelopes and
 * extrema), nint doubles of the integrator's state (PlSysDynIntegratorSave: a restart
 * continues with the uninterrupted run's steps) and the model as text (the fingerprint). Written atomically (tmp + rename), host
 * byte order. kind: the parametrisation of a one-line run, PL_RESTART_SYSTEM for a system
 * (nnodes: its unknowns, ndd 1). */
#define PL_RESTART_SYSTEM (-1)
typedef struct {
  char magic[8];
  int32_t nnodes, ndd, kind, noutputs, nextra, naux;
  int64_t text_len;
  int64_t nint;            /* the integrator's state (PlSysDynIntegratorSave), doubles */
  double t;                /* the time of the state (IDA's, >= t_out) */
  double t_out;            /* the time of the last output written (output noutputs - 1) */
  PlDynamicStats stats;    /* the counters up to t */
  PlRunExtrema ext;        /* a one-line run's extrema (a system keeps its own in aux) */
  double e0;               /* a one-line run's total energy at t = 0 (energy.csv's balance) [J] */
} PlRestartHeader;
/* A header for this layout (magic set, counts zero). */
void PlRestartHeaderInit(PlRestartHeader *h, int nnodes, int ndd, int nextra, int kind, int naux, const char *text);
/* DIR/restart.bin from h, y, yp, aux, S's integrator state (PlSysDynIntegratorSave; h->nint
 * set here) and text (h->text_len bytes). 0, PL_EXIT_IO, or PL_EXIT_FAILURE out of memory. */
int PlRestartWrite(const char *dir, PlRestartHeader *h, PlSysDyn S, const double *y, const double *yp,
                   const double *aux, const char *text, PlError *err);
/* Reads DIR/restart.bin into in, y, yp, aux and *integ (malloc'd, in->nint doubles; NULL when
 * none), checked against want (its sizes and kind) and the model text (NULL: not checked; a
 * different text is refused naming the lines that differ). 0 or PL_EXIT_BAD_INPUT with a
 * message naming the file. */
int PlRestartRead(const char *dir, const PlRestartHeader *want, const char *text, PlRestartHeader *in, double *y,
                  double *yp, double *aux, double **integ, PlError *err);
/* st += base, counter by counter (the runs before a restart). */
void PlDynamicStatsAdd(PlDynamicStats *st, const PlDynamicStats *base);
