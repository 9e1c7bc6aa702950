/*
 * system_impl.h - the system of lines, points and bodies shared by its residual
 * (system_dynamic.c), its statics (system_static.c) and its run (system_run.c) (private).
 */
#pragma once
#include <ida/ida.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_sparse.h>
#include <sunnonlinsol/sunnonlinsol_newton.h>
#include "dynamic_impl.h"

typedef struct {
  int l, k;       /* line and end (0: S = 0, 1: S = L) */
  int row;        /* the end node's first unknown */
  int point;      /* master: free point index, or -1 */
  int body;       /* master: body index, or -1 */
  int vert;       /* the end element's vertex of the parts' graph (its rank assembles this) */
  double a[3];    /* body point, body frame [m] */
  int fixed;      /* 1: a fixed connection to the body (frame and moment), 0: a hinge */
  double T[9];    /* fixed: R_t^b, the end frame in the body axes (row-major) */
  double Aq[16];  /* fixed: the end node's tied quaternion X = Aq q_b = q0* (x) q_b (x) q_T
                     (row-major; the sign keeps the hemisphere of the start) */
  double dtau_df[18]; /* d tau / d r_e at the current body state (6 x 3) */
  double dtau_dm[18]; /* d tau / d m_e (6 x 3; [0; T] when fixed) */
  double f[3];    /* r_e of the last evaluation (global) [N] */
  double mom[3];  /* fixed: m_e, the end node's angular-momentum residual (node frame) [N m] */
} Attach;

#include "sundials_fast.h"
typedef struct PlSysRollers_ *PlSysRollers; /* the stinger's rollers (roller.c) */
/* The arrays below, one entry per line [nl], per point, body or joint of the model, or per line
 * end (at: 2 nl), are allocated by PlSysDynCreate and freed by PlSysDynDestroy. */
struct PlSysDyn_ {
  const PlModel *m;
  PlWaves *waves;                /* the sea of m's waves: (PlWavesCreate), NULL in a calm sea */
  PlRaoMotion **rao;             /* per body: its RAO motion in the sea (pipelay/rao.h), or NULL
                                    (no raos, or a calm sea) */
  double (*xi)[12];              /* per body: its RAO origin's motion xi and rate xi' at the last
                                    evaluation's t (body frame; zero in the statics) */
  PlRaoMotion **exc;             /* per body: its wave excitation (the same sum over the sea's
                                    components with the force RAOs: force and moment about the
                                    table's origin, body frame), or NULL */
  PlLines L;
  int nl;
  PlDynLine *d;
  int *loff;                     /* first unknown of line l */
  int *poff;                     /* first unknown of free point k, or -1 */
  double (*pxs)[3];              /* static position of point k [m] */
  int moff, nmb;                 /* the bodies' block */
  PlVessel *V;
  PlMultibody mb;
  PlMultibodyJoint *jt;
  int *zoff;                     /* first DP integral state of body b, or -1 */
  int woff, nwork;               /* the work integrals (PL_WORK_*, dynamic_impl.h) [J]: nwork of
                                    them from woff (PL_WORK_N_BODIES without lines); woff -1: none */
  double pw[PL_WORK_N];          /* their rates at the last evaluation [W] */
  double remesh_energy;          /* the energy a pay-out's remeshes changed so far [J]
                                    (PlSysDynAddRemeshEnergy; energy.csv's remesh_J) */
  PlDPController *dp_on;         /* each DP at its steady state (start time ignored) */
  PlDPController *dp_run;        /* each DP in time: before its start the thrusters hold
                                    the static thrust (tau_hold, PlSysDynHoldThrust) */
  int statics;                   /* 1: the DP controllers act from the start (system_static.c) */
  int (*hold)[6];                /* statics: body DOF i held at hold_eta (PlSysStaticHold): its
                                    momentum row becomes eta_i - hold_eta_i = 0 */
  double (*hold_eta)[6];
  double (*held_load)[6];        /* the momentum rows of the held DOFs at the last statics
                                    evaluation: the load left there (body frame) [N, N m] */
  double (*tau_dp)[6];           /* each DP's thrust at the last evaluation (body frame) */
  N_Vector id;                   /* IDA's ids: 0 for the joints' multipliers */
  double (*tb)[6], (*lg)[6], (*env)[6];
  double (*th)[6];               /* the hull's part of tb (body frame) */
  double (*lines_load)[6];       /* the lines' load on each body (body frame, about O_b) */
  int n;
  int ndd, iV, iW, np, iA;       /* iA: friction anchors' offset, -1 none (PlDynLine) */
  int nat;                       /* attachments (at most 2 nl) */
  Attach *at;
  unsigned char *plain;          /* per line node's first row: 1 when none of its rows is
                                    redirected (AddF's rows added as a block) */
  int *eent, neent;              /* an element's matrix entries where no row is held or redirected:
                                    (Ke index, row, column) from its first node's first row, in
                                    the order of the general loop (ElementEntry) */
  int *nent, nnent;              /* a node's likewise: (row, column) from its first row (NodeEntry) */
  int **epos;                    /* line l's element e's list entries' positions in the matrix's values
                                    (epos[l][e * neent + k]; -1 where e is not on the list path) */
  int **npos;                    /* its node i's likewise (npos[l][i * nnent + k]) */
  int *redir;                    /* per row: -1 as is, -2 dropped, else 6 attach + c (c < 3: the
                                    force row c, c >= 3: the moment row c - 3 of a fixed end) */
  int *rowforce;                 /* per row: 1 a force or moment row [N, N m], 0 a kinematic or
                                    constraint row (m/s, m, or dimensionless) */
  double (*end_force)[2][3];     /* each line end's momentum residual before its
                                           constraint (the support's force on the end) [N] */
  /* sparse pattern (CSC) and its recording */
  int recording;
  long nrec, caprec;
  int *rec;                      /* pairs (row, col) */
  /* the matrix entries' positions in the order the assembly visits them (PutSequence) */
  int *seq;                      /* pairs (row, position in val) */
  long nseq, capseq, iseq;       /* recorded, allocated, used in this assembly */
  int seq_state;                 /* 0 record at the next assembly, 1 recording, 2 valid */
  sunindextype *colptr, *rowind;
  long nnz;
  double *val;                   /* the values being assembled (NULL: no matrix wanted) */
  double *Jmb;                   /* nmb x nmb scratch */
  double *Ke;                    /* an element's iteration-matrix block (2 ndd x 2 ndd) */
  double *Fwork;                 /* the residual of a matrix-only evaluation [n] */
  int domain_error;
  /* the parts (solver/partition.c): the assembly's components are graph vertices, line l's
   * element e at voff[l] + e, free point k at vpt[k], the bodies' block at vbody; owner[v]
   * the rank that assembles v (node i of a line with element min(i, ne - 1), an attachment
   * with its end element). Every rank holds the whole state. */
  MPI_Comm comm;
  int rank, size, nv, edge_cut;
  int nosplit;                   /* 1: every rank assembles everything (PlSysDynSetSplit) */
  int ends_only;                 /* 1: only the elements and nodes at the lines' ends
                                    (PlSysDynOutputLoads) */
  int *voff, *vpt, vbody;        /* [nl], [npoints] */
  int *owner;
  double *red;                   /* the summed buffer: F, the end forces, the lines' loads,
                                    three error flags */
  /* IDA */
  SUNContext ctx;
  void *ida;
  N_Vector y, yp, atol;
  double rtol;                   /* IDA's relative tolerance (ErrorWeights) */
  SUNMatrix A;
  SUNLinearSolver LS;            /* IDA's: KLU with the lines' kinematic rows condensed (condensed_klu.c) */
  SUNLinearSolver LSs;           /* the statics': SUNDIALS' KLU on the whole matrix (system_static.c), made
                                    at its first solve */
  SUNNonlinearSolver NLS;        /* IDA's Newton with the convergence test of NewtonTest */
  double nls_ss, nls_oldnrm;     /* its rate estimate ss = rate / (1 - rate), the first update's norm */
  long jac_step;                 /* IDA's step count when the iteration matrix was assembled */
  double *bp;                    /* the forcing's breakpoints (PlModelBreakpoints), sorted */
  int nbp;
  double bp_done;                /* the time IDA was last restarted at (PlSysDynResumeRun); -inf
                                    after its state was restored (PlSysDynResumeRunState) */
  double tstop;                  /* the caller's stop time (PlSysDynSetStopTime), inf: none */
  long carry[9];                 /* IDA's counters before a breakpoint's restart, added back after
                                    the first step from it (PlIdaStep); carry[8] 1 while due */
  PlStrainNorm snorm;            /* the rods' element strains in IDA's error norm */
  int *sn_idx;                   /* its elements' a and b */
  double *sn_winv;               /* and their 1 / tol */
  int sn_registered;
  double vbody_w;                /* a body's translational velocity's weight factor (ErrorWeights) */
  PlSysRollers rollers;          /* the stinger's rollers (roller.c), NULL: none */
};

/* system_dynamic.c: the residual F(t, y, y') into F (NULL: a scratch, for a matrix-only call)
 * and, with wantJ, the iteration matrix dF/dy + c dF/dy' into s->val (the pattern's values). Returns 0, 1 outside the domain, 2 or 3
 * on an internal error. */
int PlSysDynEval(PlSysDyn s, double t, const double *y, const double *yp, double c, double *F, int wantJ);
/* system_dynamic.c: the position of the entry (row, col) in the pattern's values, -1 when it is
 * not in the pattern. */
int PlSysDynPosition(const PlSysDyn s, int row, int col);
/* system_dynamic.c: while the pattern is recorded (BuildPattern), the entry (row, col) into it. */
void PlSysDynRecordEntry(PlSysDyn s, int row, int col);
/* roller.c: the stinger's rollers of s's model (PlSysDynCreate; returns 0, or 1 out of memory),
 * freed by PlSysRollersDestroy; their contacts into the residual Fw and, with putJ, the matrix
 * (PlSysDynEval, before the lines' ends take their rows) at time t (the stinger moves with the
 * firing line's motion); pw (may be NULL): += their power on the lines (PL_WORK_ROLLERS). */
int PlSysRollersCreate(PlSysDyn s);
void PlSysRollersDestroy(PlSysDyn s);
void PlSysRollersEval(PlSysDyn s, double t, const double *y, double *Fw, int putJ, double *pw);
/* system_dynamic.c: the pattern's values v as a dense n x n row-major matrix J. */
void PlSysDynDense(const PlSysDyn s, const double *v, double *J);
/* system_dynamic.c: the run's start from the current (static) state: the initial velocities,
 * y' from the kinematics (bodies without lines: their accelerations and the joints' reactions
 * from the equations, BodiesStart), IDA re-initialised at t = 0 (PlSysDynResumeRun). Returns
 * 0, 1 when IDA refuses, 2 when the bodies' mass or joint matrix [M G^T; G 0] is singular, 3
 * out of memory. */
int PlSysDynPrepareRun(PlSysDyn s);
/* system_dynamic.c: body b's DP thrusters hold tau (body frame [N, N m]) before the controller
 * starts: the static thrust, so that the run starts from the equilibrium the statics found
 * (PlSysStaticStore sets it from the whole system's statics, a one-line run from its own). */
void PlSysDynHoldThrust(PlSysDyn s, int b, const double tau[6]);
/* system_dynamic.c: line l's node velocities v [3 nnodes, global, m/s] before the first step
 * (the held and attached DOFs keep theirs), the kinematic rates from them, IDA re-initialised
 * at t = 0. Returns 0, or 1 when IDA refuses. */
int PlSysDynSetLineVelocity(PlSysDyn s, int l, const double *v);
/* system_dynamic.c: a restart of IDA at order 1 at time t from y, y' (the start, a checkpoint's
 * state, a pay-out's remesh, a breakpoint: PlIdaStep). Returns 0, or 1 when IDA refuses. */
int PlSysDynResumeRun(PlSysDyn s, double t, const double *y, const double *yp);
/* dynamic.c: the system core a one-line run integrates on (its line and vessel). */
PlSysDyn PlDynamicSystem(const PlDynamic d);
