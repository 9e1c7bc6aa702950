/*
 * vessel_static.c - the coupled static equilibrium of pipe and vessel (issue 4): the vessel
 * pose eta where restoring, controller, environment and pipe loads balance (eta_0 of
 * section 4.4), the start of a dynamic run.
 *
 * Unknowns: eta_i (position of O_b, zyx Euler angles) of every DOF with some restoring of
 * its own (heave: waterplane area; roll, pitch: metacentric heights; x, y, z: the mooring
 * spring; any DOF the DP controller acts in with Kp_i or Ki_i > 0), and the controller's
 * integral states z_i with Ki_i > 0.
 * Equations: the vessel's Newton-Euler rows at rest (elements/vessel.c, body frame, row i for
 * DOF i) with the pipe's load from its top reaction (PlVesselJointLoad, Newton's third law)
 * and the controller switched on (its steady state: the start time and ramp are ignored,
 * so that a run whose controller starts later begins from the pose the controller will
 * hold), and the integral rows eta~_i - B(z_i)/T_aw = 0 (eta at the reference unless the
 * integral action is saturated).
 * DOFs without restoring (surge and sway of a vessel without DP or mooring, yaw without a
 * yaw gain) are held at the initial pose: the pipe alone holds no surge equilibrium (a free
 * vessel is pulled along), so the load left unbalanced there is reported instead.
 * Method: Newton on the unknowns, the pipe re-solved for each trial pose from the last
 * equilibrium (PlStaticMoveEnd); the Jacobian by forward differences (one pipe solve per
 * column: the pipe's stiffness at the top is only known through a solve, and there are at
 * most 12 unknowns); the step halved when a trial pose fails or does not reduce the largest
 * scaled row. Converged when every row is within 1e-9 of its scale (the sum of the
 * magnitudes of its terms; 1 m or 1 rad for the integral rows).
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
  int n;                  /* unknowns = equations */
  double eta[6], z[6];    /* current pose and integral states */
  int solves, newton;     /* pipe solves, their Newton iterations */
  char failure[512];
} Ctx;

static double Norm3(const double *a) { return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }

static void StateOf(const double eta[6], double y[PL_VESSEL_NY])
{
  memset(y, 0, sizeof(double) * PL_VESSEL_NY);
  for (int c = 0; c < 3; ++c) y[c] = eta[c];
  PlVesselQuatFromEulerZYX(eta + 3, y + PL_VESSEL_Q);
}

/* Moves the pipe's top to the pose eta and evaluates all 6 vessel rows (body frame) and the
 * 6 integral rows, with their scales and the loads. Returns 0, or 1 when the pipe failed. */
static PetscErrorCode Rows(Ctx *C, const double eta[6], const double z[6], double r[12], double scale[12],
                           PlVesselStaticReport *rep, int *fail)
{
  const PlVesselModel *vm = C->vm;
  double y[PL_VESSEL_NY], yp[PL_VESSEL_NY], P[3], Rt[9], f[3], m[3];
  PlStaticReport srep;
  PetscFunctionBeginUser;
  *fail = 0;
  StateOf(eta, y);
  memset(yp, 0, sizeof yp);
  PlVesselHangOff(vm, y, y + PL_VESSEL_Q, P, Rt);
  PetscCall(PlStaticMoveEnd(C->p, 1, P, vm->connection == PL_HANGOFF_FIXED ? Rt : NULL, &srep));
  C->solves++;
  C->newton += srep.newton_iterations;
  if (!srep.converged) {
    snprintf(C->failure, sizeof C->failure, "%.500s", srep.failure);
    *fail = 1;
    PetscFunctionReturn(0);
  }
  PetscCall(PlProblemEndReaction(C->p, 1, f, m));
  /* loads: environment at the start time, the controller on */
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
  PetscFunctionReturn(0);
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

static void Unpack(const Ctx *C, const double *xi, double eta[6], double z[6])
{
  int k = 0;
  for (int i = 0; i < 6; ++i) eta[i] = C->free_eta[i] ? xi[k++] : C->eta[i];
  for (int i = 0; i < 6; ++i) z[i] = C->z[i];
  for (int j = 0; j < C->nint; ++j) z[C->zi[j]] = xi[k++];
}

static void Residual(const Ctx *C, const double r[12], double *R)
{
  int k = 0;
  for (int i = 0; i < 6; ++i)
    if (C->free_eta[i]) R[k++] = r[i];
  for (int j = 0; j < C->nint; ++j) R[k++] = r[6 + C->zi[j]];
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
  C.p = p;
  C.vm = vm;
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
  double xi[12], r[12], sc[12], R[12], Jm[144], dx[12];
  {
    int k = 0;
    for (int i = 0; i < 6; ++i)
      if (C.free_eta[i]) xi[k++] = C.eta[i];
    for (int j = 0; j < C.nint; ++j) xi[k++] = 0.0;
  }
  int fail = 0, it = 0;
  double e = INFINITY;
  double eta[6], z[6];
  Unpack(&C, xi, eta, z);
  PetscCall(Rows(&C, eta, z, r, sc, rep, &fail));
  if (fail) {
    snprintf(rep->failure, sizeof rep->failure, "the pipe does not reach the vessel's initial pose: %s", C.failure);
    PetscFunctionReturn(0);
  }
  e = Measure(&C, r, sc);
  while (n > 0 && e > 1e-9 && it < 40) {
    ++it;
    Residual(&C, r, R);
    /* forward-difference Jacobian */
    for (int j = 0; j < n; ++j) {
      double xj[12], rj[12], scj[12], Rj[12], ej[6], zj[6];
      memcpy(xj, xi, sizeof(double) * n);
      int k = 0, kind = 0; /* 0 position, 1 angle, 2 integral */
      for (int i = 0; i < 6; ++i)
        if (C.free_eta[i] && k++ == j) kind = i < 3 ? 0 : 1;
      if (j >= n - C.nint) kind = 2;
      const double h = kind == 0 ? 1e-4 : kind == 1 ? 1e-6 : 1e-3;
      xj[j] += h;
      Unpack(&C, xj, ej, zj);
      PetscCall(Rows(&C, ej, zj, rj, scj, NULL, &fail));
      if (fail) {
        snprintf(rep->failure, sizeof rep->failure, "the pipe failed at a perturbed pose (iteration %d): %s", it,
                 C.failure);
        goto done;
      }
      Residual(&C, rj, Rj);
      for (int i = 0; i < n; ++i) Jm[i * n + j] = (Rj[i] - R[i]) / h;
    }
    for (int i = 0; i < n; ++i) R[i] = -R[i];
    if (PlSolveDense(n, Jm, R, dx)) {
      snprintf(rep->failure, sizeof rep->failure,
               "the equilibrium equations of the vessel are singular at iteration %d (a DOF with no stiffness)", it);
      goto done;
    }
    /* step halving */
    double alpha = 1.0, xt[12], rt[12], sct[12], et = INFINITY;
    int tries = 0;
    for (; tries < 12; ++tries, alpha *= 0.5) {
      for (int i = 0; i < n; ++i) xt[i] = xi[i] + alpha * dx[i];
      Unpack(&C, xt, eta, z);
      PetscCall(Rows(&C, eta, z, rt, sct, rep, &fail));
      if (fail) continue;
      et = Measure(&C, rt, sct);
      if (et < e || et <= 1e-9) break;
    }
    if (tries == 12) {
      snprintf(rep->failure, sizeof rep->failure,
               "no step along the Newton direction reduced the imbalance (iteration %d, largest scaled imbalance "
               "%.3g)%s%s", it, e, C.failure[0] ? "; last pipe failure: " : "", C.failure);
      /* back to the last accepted pose */
      Unpack(&C, xi, eta, z);
      PetscCall(Rows(&C, eta, z, r, sc, rep, &fail));
      goto done;
    }
    memcpy(xi, xt, sizeof(double) * n);
    memcpy(r, rt, sizeof r);
    memcpy(sc, sct, sizeof sc);
    e = et;
  }
done:
  Unpack(&C, xi, eta, z);
  rep->iterations = it;
  rep->pipe_solves = C.solves;
  rep->residual_rel = e;
  rep->converged = e <= 1e-9 && !rep->failure[0] ? PETSC_TRUE : PETSC_FALSE;
  if (!rep->converged && !rep->failure[0])
    snprintf(rep->failure, sizeof rep->failure,
             "the vessel's equilibrium did not converge in %d Newton iterations (largest scaled imbalance %.3g)", it, e);
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
