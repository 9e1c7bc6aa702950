/*
 * vessel_static.c - the coupled static equilibrium of pipe and vessel (issue 4; one Newton
 * over both since issue 14, docs/design-system-core.md §2.3): the vessel pose eta where
 * restoring, controller, environment and pipe loads balance (eta_0 of section 4.4), the
 * start of a dynamic run.
 *
 * Unknowns: the pipe's unknowns u (its top end held at the hang-off point P(eta) and, with a
 * fixed connection, at the frame R(eta) R_t^b), and xi: eta_i (position of O_b, zyx Euler
 * angles) of every DOF with some restoring of its own (heave: waterplane area; roll, pitch:
 * metacentric heights; x, y, z: the mooring spring; any DOF the DP controller acts in with
 * Kp_i or Ki_i > 0), and the controller's integral states z_i with Ki_i > 0.
 * Equations: the pipe's static rows F(u; xi) = 0 (assembly.c; the top's held rows
 * s (u_top - target(xi))), and the vessel's Newton-Euler rows at rest (elements/vessel.c,
 * body frame, row i for DOF i) with the pipe's load from the top element's reaction at u
 * (PlProblemEndReactionLocal, PlVesselJointLoad: Newton's third law) and the controller
 * switched on (its steady state: the start time and ramp are ignored, so that a run whose
 * controller starts later begins from the pose the controller will hold), and the integral
 * rows eta~_i - B(z_i)/T_aw = 0 (eta at the reference unless the integral action is
 * saturated), R(xi, u) = 0.
 * DOFs without restoring (surge and sway of a vessel without DP or mooring, yaw without a
 * yaw gain) are held at the initial pose: the pipe alone holds no surge equilibrium (a free
 * vessel is pulled along), so the load left unbalanced there is reported instead.
 *
 * Method: Newton on (u, xi) together, from the pipe's equilibrium at the initial pose
 * (PlStaticSolve). The bordered system
 *     [K  B] [du ]     [F]        K = dF/du (the pipe's exact tangent, assembly.c)
 *     [C  D] [dxi] = - [R]        B = dF/dxi, C = dR/du, D = dR/dxi
 * is solved by block elimination with the pipe's direct solver: w0 = -K^-1 F, W = K^-1 B
 * (one factorisation, 1 + n solves, n <= 12), (D - C W) dxi = -R - C w0, du = w0 - W dxi.
 * B (the held targets' dependence on the pose: P(eta) and the frame's rotation parameters),
 * C (the top element's reaction, applied to the columns of W) and D (the vessel's rows at a
 * fixed pipe) come from central differences of these small closed-form maps (steps 1e-6 m,
 * 1e-7 rad, 1e-6 of the direction's size), which converge Newton to the 1e-9 used here; K is
 * analytic. Full steps, as the pipe's own Newton takes (static.c: the residual of a stiff
 * rod rises after a first step from a distant state, so a norm-decreasing line search
 * stalls); a step that leaves the rod's domain or raises the merit (the largest vessel row
 * over its scale at the start, or |F| over the force scale) 1e10-fold above the best is
 * halved (up to 12 times). When that fails, or after 8 iterations without a new best, the
 * pipe is re-solved at the current pose (PlStaticMoveEnd, its robust path) and
 * Newton goes on from there (at most 3 times). Converged when every vessel row is within
 * 1e-9 of its scale (the sum of the magnitudes of its terms; 1 m or 1 rad for the integral
 * rows) and |F| is within the static solve's absolute tolerance, or (at the round-off floor
 * of a long pipe) the last step moved the unknowns by less than 1e-13 of their norm, as the
 * pipe's own Newton's step test.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "solver_impl.h"

typedef struct {
  PlProblem p;
  const PlVesselModel *vm;
  PlDPController dp_on;   /* the controller at its steady state (start time ignored) */
  int free_eta[6], nint;  /* eta_i unknown; number of integral unknowns */
  int zi[6];              /* DOFs of the integral unknowns */
  int n;                  /* unknowns of the vessel = its equations */
  double eta[6], z[6];    /* the initial pose (the held DOFs keep it) and integral states */
  int nd, top;            /* DOFs per node; the top node */
  char failure[512];
} Ctx;

static double Norm3(const double *a) { return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }

static void StateOf(const double eta[6], double y[PL_VESSEL_NY])
{
  memset(y, 0, sizeof(double) * PL_VESSEL_NY);
  for (int c = 0; c < 3; ++c) y[c] = eta[c];
  PlVesselQuatFromEulerZYX(eta + 3, y + PL_VESSEL_Q);
}

/* The vessel's 6 Newton-Euler rows (body frame) and 6 integral rows at pose eta, integral
 * states z and the top element's unknowns ue, with their scales; the loads into rep when
 * it is not NULL. */
static void VesselRows(const Ctx *C, const double eta[6], const double z[6], const double *ue, double r[12],
                       double scale[12], PlVesselStaticReport *rep)
{
  const PlVesselModel *vm = C->vm;
  double y[PL_VESSEL_NY], yp[PL_VESSEL_NY], f[3], m[3];
  StateOf(eta, y);
  memset(yp, 0, sizeof yp);
  PlProblemEndReactionLocal(C->p, 1, ue, f, m);
  const double t0 = 0.0;
  double env[6], tau_body[6] = {0, 0, 0, 0, 0, 0}, load_global[6] = {0, 0, 0, 0, 0, 0}, tau[6] = {0, 0, 0, 0, 0, 0};
  double rz[6] = {0, 0, 0, 0, 0, 0}, zd[6] = {0, 0, 0, 0, 0, 0};
  PlVesselLoadApply(&vm->environment, t0, env, tau_body, load_global);
  if (vm->has_dp) PlDPControlVessel(&C->dp_on, t0, y, z, zd, 0.0, tau, rz, NULL, NULL, NULL, NULL);
  for (int i = 0; i < 6; ++i) tau_body[i] += tau[i];
  double rt[PL_VESSEL_NY], rg[PL_VESSEL_NY], tr[6], df[18], dm[18];
  PlVesselDynamics(&vm->body, y, yp, 0.0, tau_body, load_global, rt, NULL);
  PlVesselDynamics(&vm->body, y, yp, 0.0, NULL, NULL, rg, NULL);
  PlVesselJointLoad(y, vm->hang_off, vm->connection == PL_HANGOFF_FIXED ? vm->top_frame : NULL, f, m, tr, NULL, df,
                    dm);
  for (int i = 0; i < 6; ++i) {
    const double g = rg[PL_VESSEL_V + i], loads = rt[PL_VESSEL_V + i] - g;
    r[i] = rt[PL_VESSEL_V + i] + tr[i];
    scale[i] = fabs(g) + fabs(loads) + fabs(tr[i]);
    r[6 + i] = rz[i];
    scale[6 + i] = 1.0;
  }
  if (rep) {
    for (int i = 0; i < 6; ++i) {
      rep->pipe_load[i] = -tr[i];
      rep->thrust[i] = tau[i];
      rep->environment[i] = env[i];
    }
    rep->top_force_N = Norm3(f);
  }
}

/* Largest scaled equation of the unknowns' set (scales floored at 1e-12 of the largest, so a
 * row whose terms all vanish counts as balanced). */
static double Measure(const Ctx *C, const double r[12], const double scale[12])
{
  double smax = 0.0, e = 0.0;
  for (int k = 0; k < 6; ++k)
    if (C->free_eta[k]) smax = fmax(smax, scale[k]);
  for (int k = 0; k < 6; ++k)
    if (C->free_eta[k]) e = fmax(e, fabs(r[k]) / fmax(scale[k], 1e-12 * smax + 1e-300));
  for (int k = 0; k < C->nint; ++k) e = fmax(e, fabs(r[6 + C->zi[k]]) / scale[6 + C->zi[k]]);
  return e;
}

/* The line search's merit: the largest row of the unknowns' set over its fixed scale sref,
 * or the pipe's scaled residual fp. */
static double Merit(const Ctx *C, const double r[12], const double sref[12], double fp)
{
  double e = fp;
  for (int k = 0; k < 6; ++k)
    if (C->free_eta[k]) e = fmax(e, fabs(r[k]) / sref[k]);
  for (int k = 0; k < C->nint; ++k) e = fmax(e, fabs(r[6 + C->zi[k]]) / sref[6 + C->zi[k]]);
  return e;
}

static void Unpack(const Ctx *C, const double *xi, double eta[6], double z[6])
{
  int k = 0;
  for (int i = 0; i < 6; ++i) eta[i] = C->free_eta[i] ? xi[k++] : C->eta[i];
  for (int i = 0; i < 6; ++i) z[i] = C->z[i];
  for (int j = 0; j < C->nint; ++j) z[C->zi[j]] = xi[k++];
}

/* The rows of the unknowns' set, R[n], from the 12 rows. */
static void Select(const Ctx *C, const double r[12], double *R)
{
  int k = 0;
  for (int i = 0; i < 6; ++i)
    if (C->free_eta[i]) R[k++] = r[i];
  for (int j = 0; j < C->nint; ++j) R[k++] = r[6 + C->zi[j]];
}

/* R[n] at xi with the top element's unknowns ue. */
static void RowsAt(const Ctx *C, const double *xi, const double *ue, double *R)
{
  double eta[6], z[6], r[12], sc[12];
  Unpack(C, xi, eta, z);
  VesselRows(C, eta, z, ue, r, sc, NULL);
  Select(C, r, R);
}

/* The top node's held values at xi (the hemisphere of its current unknowns un). */
static void TargetAt(const Ctx *C, const double *xi, const double *un, double *target)
{
  double eta[6], z[6], y[PL_VESSEL_NY], P[3], Rt[9];
  Unpack(C, xi, eta, z);
  StateOf(eta, y);
  PlVesselHangOff(C->vm, y, y + PL_VESSEL_Q, P, Rt);
  PlProblemEndTarget(C->p, 1, P, C->vm->connection == PL_HANGOFF_FIXED ? Rt : NULL, un, target);
}

/* Step of the unknown j for the differences: 1e-6 m, 1e-7 rad, 1e-6 m s or rad s. */
static double StepOf(const Ctx *C, int j)
{
  int k = 0;
  for (int i = 0; i < 6; ++i)
    if (C->free_eta[i] && k++ == j) return i < 3 ? 1e-6 : 1e-7;
  return 1e-6;
}

/* xi with its unknown j moved by +h and by -h (StepOf), into xp and xm; returns h. */
static double Perturbed(const Ctx *C, const double *xi, int j, double *xp, double *xm)
{
  const double h = StepOf(C, j);
  memcpy(xp, xi, sizeof(double) * C->n);
  memcpy(xm, xi, sizeof(double) * C->n);
  xp[j] += h;
  xm[j] -= h;
  return h;
}

/* Holds the top at xi, evaluates the pipe's residual (into F, its 2-norm into fnorm, the
 * rod's domain into bad) and the vessel's rows (r, sc; the loads into rep). */
static PetscErrorCode Evaluate(Ctx *C, const double *xi, Vec U, Vec F, double *fnorm, int *bad, double r[12],
                               double sc[12], PlVesselStaticReport *rep)
{
  PlProblem p = C->p;
  const int nd = C->nd;
  double *u, eta[6], z[6];
  PetscFunctionBeginUser;
  PetscCall(VecCopy(U, p->u));
  PetscCall(PlGatherUnknowns(p, &u));
  double *start = p->bc_start + (size_t)C->top * nd, *target = p->bc_target + (size_t)C->top * nd;
  TargetAt(C, xi, u + (size_t)C->top * nd, target);
  memcpy(start, target, sizeof(double) * nd);
  PetscCall(PlFormFunction(NULL, U, F, p));
  *bad = p->domain_error;
  PetscCall(VecNorm(F, NORM_2, fnorm));
  Unpack(C, xi, eta, z);
  VesselRows(C, eta, z, u + (size_t)(C->top - 1) * nd, r, sc, rep);
  free(u);
  PetscFunctionReturn(0);
}

/* One Newton step (du into dU, dxi) of the bordered system at (U, xi) (see the top). */
static PetscErrorCode BorderedStep(Ctx *C, const double *xi, Vec U, Vec F, const double *R, Vec dU, double *dxi,
                                   int *singular)
{
  PlProblem p = C->p;
  const int n = C->n, nd = C->nd, top = C->top, ne = 2 * nd;
  KSP ksp;
  Vec W[12], b;
  double *u, *w, ue[2 * 7], S[144], rhs[12], Cw0[12], Cw[12][12];
  PetscInt lo, hi;
  PetscFunctionBeginUser;
  *singular = 0;
  PetscCall(VecCopy(U, p->u));
  PetscCall(PlFormJacobian(NULL, U, p->J, p->J, p));
  PetscCall(SNESGetKSP(p->snes, &ksp));
  PetscCall(KSPSetOperators(ksp, p->J, p->J));
  PetscCall(VecDuplicate(U, &b));
  PetscCall(VecGetOwnershipRange(U, &lo, &hi));
  PetscCall(PlGatherUnknowns(p, &u));
  memcpy(ue, u + (size_t)(top - 1) * nd, sizeof(double) * ne);
  /* w0 = -K^-1 F */
  PetscCall(VecCopy(F, b));
  PetscCall(VecScale(b, -1.0));
  PetscCall(KSPSolve(ksp, b, dU));
  /* W_j = K^-1 B_j, B_j = -s (d target / d xi_j) on the top's held rows */
  for (int j = 0; j < n; ++j) {
    double xp[12], xm[12], tp[7], tm[7];
    const double h = Perturbed(C, xi, j, xp, xm);
    TargetAt(C, xp, u + (size_t)top * nd, tp);
    TargetAt(C, xm, u + (size_t)top * nd, tm);
    PetscCall(VecZeroEntries(b));
    for (int c = 0; c < nd; ++c) {
      const PetscInt k = (PetscInt)top * nd + c;
      if (!p->bc_mask[k] || k < lo || k >= hi) continue;
      PetscCall(VecSetValue(b, k, -p->bc_scale[k] * (tp[c] - tm[c]) / (2 * h), INSERT_VALUES));
    }
    PetscCall(VecAssemblyBegin(b));
    PetscCall(VecAssemblyEnd(b));
    PetscCall(VecDuplicate(U, &W[j]));
    PetscCall(KSPSolve(ksp, b, W[j]));
  }
  /* C applied to w0 and the W_j: directional differences of the vessel's rows along the top
   * element's part of each */
  w = malloc(sizeof(double) * (size_t)p->mesh.nnodes * nd);
  PetscCheck(w, p->comm, PETSC_ERR_MEM, "out of memory");
  for (int j = -1; j < n; ++j) {
    double *out = j < 0 ? Cw0 : Cw[j], dmax = 0.0, up[2 * 7], um[2 * 7], Rp[12], Rm[12];
    PetscCall(PlVecGatherAll(j < 0 ? dU : W[j], w));
    const double *we = w + (size_t)(top - 1) * nd;
    double umax = 1.0;
    for (int k = 0; k < ne; ++k) {
      dmax = fmax(dmax, fabs(we[k]));
      umax = fmax(umax, fabs(ue[k]));
    }
    if (dmax == 0.0) {
      for (int i = 0; i < n; ++i) out[i] = 0.0;
      continue;
    }
    const double eps = 1e-6 * umax / dmax;
    for (int k = 0; k < ne; ++k) {
      up[k] = ue[k] + eps * we[k];
      um[k] = ue[k] - eps * we[k];
    }
    RowsAt(C, xi, up, Rp);
    RowsAt(C, xi, um, Rm);
    for (int i = 0; i < n; ++i) out[i] = (Rp[i] - Rm[i]) / (2 * eps);
  }
  free(w);
  /* S = D - C W, D by central differences at the fixed pipe */
  for (int j = 0; j < n; ++j) {
    double xp[12], xm[12], Rp[12], Rm[12];
    const double h = Perturbed(C, xi, j, xp, xm);
    RowsAt(C, xp, ue, Rp);
    RowsAt(C, xm, ue, Rm);
    for (int i = 0; i < n; ++i) S[i * n + j] = (Rp[i] - Rm[i]) / (2 * h) - Cw[j][i];
  }
  for (int i = 0; i < n; ++i) rhs[i] = -R[i] - Cw0[i];
  if (n > 0 && PlSolveDense(n, S, rhs, dxi)) *singular = 1;
  for (int j = 0; j < n && !*singular; ++j) PetscCall(VecAXPY(dU, -dxi[j], W[j]));
  for (int j = 0; j < n; ++j) PetscCall(VecDestroy(&W[j]));
  PetscCall(VecDestroy(&b));
  free(u);
  PetscFunctionReturn(0);
}

PetscErrorCode PlVesselStaticSolve(PlProblem p, PlVesselStaticReport *rep)
{
  const PlVesselModel *vm = &p->model.vessel;
  const PlVessel *B = &vm->body;
  static const char *names[6] = {"surge (x)", "sway (y)", "heave (z)", "roll", "pitch", "yaw"};
  Ctx C;
  PetscFunctionBeginUser;
  memset(rep, 0, sizeof *rep);
  memset(&C, 0, sizeof C);
  PetscCheck(vm->present, p->comm, PETSC_ERR_ARG_WRONG, "the model has no vessel");
  PetscCall(PlProblemEnsureSNES(p));
  C.p = p;
  C.vm = vm;
  C.nd = p->nd;
  C.top = p->mesh.nnodes - 1;
  if (vm->has_dp) {
    C.dp_on = vm->dp;
    C.dp_on.start_time = -1.0e30;
    C.dp_on.ramp_time = 0.0;
  }
  /* which DOFs have restoring of their own */
  const int hydro[6] = {0, 0, B->Awp > 0.0, B->displacement > 0.0 && B->GM_T != 0.0,
                        B->displacement > 0.0 && B->GM_L != 0.0, 0};
  for (int i = 0; i < 6; ++i) {
    const int spring = i < 3 && (B->K_spring[3 * i] != 0.0 || B->K_spring[3 * i + 1] != 0.0 || B->K_spring[3 * i + 2] != 0.0);
    const int dp = vm->has_dp && vm->dp.actuated[i] && (vm->dp.Kp[i] > 0.0 || vm->dp.Ki[i] > 0.0);
    C.free_eta[i] = hydro[i] || spring || dp;
    rep->held[i] = !C.free_eta[i];
    if (vm->has_dp && vm->dp.actuated[i] && vm->dp.Ki[i] > 0.0) C.zi[C.nint++] = i;
  }
  for (int c = 0; c < 3; ++c) {
    C.eta[c] = vm->position[c];
    C.eta[3 + c] = vm->rpy[c];
  }
  int n = 0;
  for (int i = 0; i < 6; ++i) n += C.free_eta[i];
  n += C.nint;
  C.n = n;
  double xi[12], r[12], sc[12], R[12], dxi[12];
  {
    int k = 0;
    for (int i = 0; i < 6; ++i)
      if (C.free_eta[i]) xi[k++] = C.eta[i];
    for (int j = 0; j < C.nint; ++j) xi[k++] = 0.0;
  }
  const double atol = p->model.analysis.atol > 0.0 ? p->model.analysis.atol : 1e-9 * p->force_scale;
  const double fscale = p->force_scale > 0.0 ? p->force_scale : 1.0;
  Vec U, F, dU, Ut, Ft;
  PetscCall(VecDuplicate(p->u, &U));
  PetscCall(VecCopy(p->u, U));
  PetscCall(VecDuplicate(U, &F));
  PetscCall(VecDuplicate(U, &dU));
  PetscCall(VecDuplicate(U, &Ut));
  PetscCall(VecDuplicate(U, &Ft));
  p->lambda = 1.0;
  p->hold_factor = -1.0;
  p->ptc_shift = 0.0;
  double fnorm = 0.0, ev = INFINITY;
  int bad = 0, it = 0, restarts = 0;
  PetscCall(Evaluate(&C, xi, U, F, &fnorm, &bad, r, sc, rep));
  ev = Measure(&C, r, sc);
  /* the line search's merit: the rows over their scales at the start (floored at 1e-3 of
   * the largest force, moment or integral row's), held fixed (the
   * convergence test's scales follow the loads, so that a row dominated by one load stays
   * near 1 however much it shrinks), and the pipe's residual over its force scale */
  double sref[12], smax[3] = {0.0, 0.0, 0.0};
  for (int i = 0; i < 12; ++i) smax[i < 3 ? 0 : i < 6 ? 1 : 2] = fmax(smax[i < 3 ? 0 : i < 6 ? 1 : 2], sc[i]);
  for (int i = 0; i < 12; ++i) sref[i] = fmax(sc[i], 1e-3 * smax[i < 3 ? 0 : i < 6 ? 1 : 2] + 1e-300);
  double merit = Merit(&C, r, sref, fnorm / fscale), best = merit;
  int best_it = 0;
  double dnorm = INFINITY, unorm = 1.0; /* the last accepted step and the state (2-norms) */
  while ((ev > 1e-9 || (fnorm > atol && dnorm > 1e-13 * unorm)) && it < 40) {
    if (p->stop && *p->stop) {
      snprintf(rep->failure, sizeof rep->failure, "interrupted by a signal at iteration %d", it);
      break;
    }
    ++it;
    int singular = 0;
    Select(&C, r, R);
    PetscCall(BorderedStep(&C, xi, U, F, R, dU, dxi, &singular));
    if (singular) {
      snprintf(rep->failure, sizeof rep->failure,
               "the equilibrium equations of the vessel are singular at iteration %d (a DOF with no stiffness)", it);
      break;
    }
    double alpha = 1.0, xt[12], rt[12], sct[12], ft = 0.0, et = INFINITY, mt = INFINITY;
    int tries = 0, badt = 0;
    for (; tries < 12; ++tries, alpha *= 0.5) {
      for (int i = 0; i < n; ++i) xt[i] = xi[i] + alpha * dxi[i];
      PetscCall(VecWAXPY(Ut, alpha, dU, U));
      PetscCall(Evaluate(&C, xt, Ut, Ft, &ft, &badt, rt, sct, rep));
      if (badt) continue;
      et = Measure(&C, rt, sct);
      mt = Merit(&C, rt, sref, ft / fscale);
      if (mt <= 1e10 * best) break; /* full steps, as the pipe's own Newton takes them */
    }
    if (tries < 12 && it - best_it > 8 && mt >= best) tries = 12; /* no progress in 8 iterations */
    if (tries == 12) {
      /* the safeguard: re-solve the pipe at the current pose by the static solver's robust
       * path, then go on */
      if (++restarts > 3) {
        snprintf(rep->failure, sizeof rep->failure,
                 "no step along the Newton direction reduced the imbalance (iteration %d, largest scaled vessel "
                 "imbalance %.3g, pipe residual %.3g N) after %d re-solves of the pipe", it, ev, fnorm, restarts - 1);
        break;
      }
      double eta[6], z[6], y[PL_VESSEL_NY], P[3], Rt[9];
      PlStaticReport srep;
      Unpack(&C, xi, eta, z);
      StateOf(eta, y);
      PlVesselHangOff(vm, y, y + PL_VESSEL_Q, P, Rt);
      PetscCall(VecCopy(U, p->u));
      PetscCall(PlStaticMoveEnd(p, 1, P, vm->connection == PL_HANGOFF_FIXED ? Rt : NULL, &srep));
      rep->pipe_solves++;
      p->lambda = 1.0;
      p->hold_factor = -1.0;
      if (!srep.converged) {
        snprintf(rep->failure, sizeof rep->failure, "the pipe does not reach the vessel's pose at iteration %d: %.800s",
                 it, srep.failure);
        break;
      }
      PetscCall(VecCopy(p->u, U));
      PetscCall(Evaluate(&C, xi, U, F, &fnorm, &bad, r, sc, rep));
      ev = Measure(&C, r, sc);
      merit = Merit(&C, r, sref, fnorm / fscale);
      best = fmin(best, merit);
      best_it = it;
      continue;
    }
    memcpy(xi, xt, sizeof(double) * n);
    PetscCall(VecNorm(dU, NORM_2, &dnorm));
    dnorm *= alpha;
    PetscCall(VecCopy(Ut, U));
    PetscCall(VecNorm(U, NORM_2, &unorm));
    PetscCall(VecCopy(Ft, F));
    memcpy(r, rt, sizeof r);
    memcpy(sc, sct, sizeof sc);
    fnorm = ft;
    ev = et;
    merit = mt;
    if (merit < best) {
      best = merit;
      best_it = it;
    }
  }
  /* the state reached: the pipe, its top's hold and the loads */
  PetscCall(Evaluate(&C, xi, U, F, &fnorm, &bad, r, sc, rep));
  ev = Measure(&C, r, sc);
  PetscCall(VecCopy(U, p->u));
  PetscCall(VecDestroy(&U));
  PetscCall(VecDestroy(&F));
  PetscCall(VecDestroy(&dU));
  PetscCall(VecDestroy(&Ut));
  PetscCall(VecDestroy(&Ft));
  double eta[6], z[6];
  Unpack(&C, xi, eta, z);
  rep->iterations = it;
  rep->residual_rel = ev;
  rep->converged = ev <= 1e-9 && (fnorm <= atol || dnorm <= 1e-13 * unorm) && !bad && !rep->failure[0] ? PETSC_TRUE
                                                                                                        : PETSC_FALSE;
  if (!rep->converged && !rep->failure[0])
    snprintf(rep->failure, sizeof rep->failure,
             "the equilibrium of pipe and vessel did not converge in %d Newton iterations (largest scaled vessel "
             "imbalance %.3g, pipe residual %.3g N against %.3g N)", it, ev, fnorm, atol);
  for (int i = 0; i < 6; ++i) {
    rep->eta[i] = eta[i];
    rep->z[i] = z[i];
    rep->unbalanced[i] = rep->held[i] ? r[i] : 0.0;
  }
  rep->nheld = 0;
  for (int i = 0; i < 6; ++i)
    if (rep->held[i]) {
      const int len = (int)strlen(rep->held_text);
      snprintf(rep->held_text + len, sizeof rep->held_text - len, "%s%s", len ? ", " : "", names[i]);
      rep->nheld++;
    }
  p->vessel_report = *rep;
  StateOf(eta, p->vessel_y);
  memcpy(p->dp_z, z, sizeof p->dp_z);
  p->vessel_solved = 1;
  PetscFunctionReturn(0);
}
