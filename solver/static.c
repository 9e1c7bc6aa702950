/*
 * static.c - static equilibrium by Newton-Raphson (PETSc SNES) with load stepping.
 *
 * The load factor lambda scales the submerged weight, the end loads and the motion of
 * held DOFs from the initial guess to their targets. Increments start at
 * 1/analysis.load_steps; a failed increment (SNES divergence, domain error, iteration
 * limit) is restored to the last converged state and halved, up to analysis.max_cutbacks
 * times in a row; after two easy successes (< 8 iterations) the increment grows by 1.5.
 * Each increment starts from the secant predictor u + (dlam/dlam_prev)(u - u_prev).
 * Defaults: Newton with full steps (no line search), direct LU (MUMPS on more than one
 * rank); every -snes_, -ksp_, -pc_ option on the command line or in
 * analysis.petsc_options overrides them (SNESSetFromOptions is called last).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "solver_impl.h"

#define PL_HISTORY_MAX 200

static PetscErrorCode SetUpSNES(PlProblem p)
{
  KSP ksp;
  PC pc;
  PetscMPIInt size;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(p->comm, &size));
  if (p->model.analysis.petsc_options[0])
    PetscCall(PetscOptionsInsertString(NULL, p->model.analysis.petsc_options));
  PetscCall(SNESCreate(p->comm, &p->snes));
  PetscCall(SNESSetDM(p->snes, p->da));
  PetscCall(SNESSetFunction(p->snes, NULL, PlFormFunction, p));
  PetscCall(SNESSetJacobian(p->snes, p->J, p->J, PlFormJacobian, p));
  PetscCall(SNESSetType(p->snes, SNESNEWTONLS));
  {
    /* full Newton steps: the residual norm of a stiff rod rises after the first step from
     * a straight or distant state (linearised kinematics stretch the axis), so a
     * norm-decreasing line search stalls; the load-step cut-back is the safeguard */
    SNESLineSearch ls;
    PetscCall(SNESGetLineSearch(p->snes, &ls));
    PetscCall(SNESLineSearchSetType(ls, SNESLINESEARCHBASIC));
    PetscCall(SNESSetDivergenceTolerance(p->snes, -1.0));
  }
  const double atol = p->model.analysis.atol > 0.0 ? p->model.analysis.atol : 1e-9 * p->force_scale;
  PetscCall(SNESSetTolerances(p->snes, atol, p->model.analysis.rtol, 1e-13,
                              p->model.analysis.max_iterations, 100000));
  PetscCall(SNESGetKSP(p->snes, &ksp));
  PetscCall(KSPSetType(ksp, KSPPREONLY));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCLU));
  if (size > 1) PetscCall(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS));
  else PetscCall(PCFactorSetMatOrderingType(pc, MATORDERINGND));
  PetscCall(SNESSetFromOptions(p->snes));
  PetscFunctionReturn(0);
}

static const char *ReasonText(SNESConvergedReason r)
{
  switch (r) {
  case SNES_DIVERGED_FUNCTION_DOMAIN: return "the trial state left the rod's domain (a relative rotation of 180 deg or a non-finite value)";
  case SNES_DIVERGED_LINEAR_SOLVE: return "the linear solve failed (singular tangent: is the line held against rigid motion?)";
  case SNES_DIVERGED_MAX_IT: return "the iteration limit was reached";
  case SNES_DIVERGED_LINE_SEARCH: return "the line search found no decrease";
  case SNES_DIVERGED_FNORM_NAN: return "the residual became NaN";
  case SNES_DIVERGED_DTOL: return "the residual grew beyond the divergence tolerance";
  default: return SNESConvergedReasons[r];
  }
}

PetscErrorCode PlStaticSolve(PlProblem p, PlStaticReport *rep)
{
  const PlAnalysis *an = &p->model.analysis;
  Vec last;
  PetscReal hist[PL_HISTORY_MAX];
  PetscInt hits[PL_HISTORY_MAX];
  PetscLogDouble t0, t1;
  PetscFunctionBeginUser;
  memset(rep, 0, sizeof *rep);
  PetscCall(PetscTime(&t0));
  if (!p->snes) PetscCall(SetUpSNES(p));
  PetscCall(SNESSetConvergenceHistory(p->snes, hist, hits, PL_HISTORY_MAX, PETSC_TRUE));
  Vec prev;
  PetscCall(VecDuplicate(p->u, &last));
  PetscCall(VecCopy(p->u, last));
  PetscCall(VecDuplicate(p->u, &prev));
  double dlam_prev = 0.0;

  double lam = 0.0, dlam = 1.0 / an->load_steps;
  int easy = 0, consecutive_cuts = 0;
  size_t used = 0;
  while (lam < 1.0) {
    const double target = fmin(1.0, lam + dlam);
    p->lambda = target;
    if (dlam_prev > 0.0) { /* secant predictor from the last two converged states */
      PetscCall(VecCopy(last, p->u));
      PetscCall(VecAXPBYPCZ(p->u, (target - lam) / dlam_prev, -(target - lam) / dlam_prev, 1.0, last, prev));
    }
    PetscCall(SNESSolve(p->snes, NULL, p->u));
    SNESConvergedReason reason;
    PetscInt its;
    PetscReal fnorm;
    PetscCall(SNESGetConvergedReason(p->snes, &reason));
    PetscCall(SNESGetIterationNumber(p->snes, &its));
    PetscCall(SNESGetFunctionNorm(p->snes, &fnorm));
    rep->newton_iterations += (int)its;
    rep->final_residual_norm = fnorm;
    if (reason > 0) {
      PetscInt nh;
      PetscReal *h;
      PetscCall(SNESGetConvergenceHistory(p->snes, &h, NULL, &nh));
      rep->nhistory = (int)PetscMin(nh, 64);
      for (int k = 0; k < rep->nhistory; ++k) rep->history[k] = h[k];
      dlam_prev = target - lam;
      lam = target;
      rep->load_steps++;
      consecutive_cuts = 0;
      PetscCall(VecCopy(last, prev));
      PetscCall(VecCopy(p->u, last));
      easy = its < 8 ? easy + 1 : 0;
      if (easy >= 2) dlam *= 1.5;
      continue;
    }
    /* failed: report, restore, cut back */
    PetscInt nh;
    PetscReal *h;
    PetscCall(SNESGetConvergenceHistory(p->snes, &h, NULL, &nh));
    char line[512];
    int n = snprintf(line, sizeof line,
                     "load step to lambda = %.6g (increment %.3g) failed after %d Newton iterations: %s; residual norms [N]:",
                     target, dlam, (int)its, ReasonText(reason));
    for (PetscInt k = 0; k < nh && n < (int)sizeof line - 16; ++k)
      n += snprintf(line + n, sizeof line - n, " %.3e", (double)h[k]);
    PetscCall(PetscPrintf(p->comm, "pipelay: %s; %s\n", line,
                          consecutive_cuts < an->max_cutbacks ? "retrying with half the increment" : "giving up"));
    if (used < sizeof rep->failure)
      used += (size_t)snprintf(rep->failure + used, sizeof rep->failure - used, "%s\n", line);
    PetscCall(VecCopy(last, p->u));
    rep->cutbacks++;
    if (++consecutive_cuts > an->max_cutbacks) break;
    dlam *= 0.5;
    easy = 0;
    if (dlam < 1e-10) { /* no progress left to make: a limit point or a discontinuity */
      if (used < sizeof rep->failure)
        used += (size_t)snprintf(rep->failure + used, sizeof rep->failure - used,
                                 "the load increment fell below 1e-10 at lambda = %.6g: the equilibrium path has a "
                                 "limit point or a discontinuity there\n", lam);
      break;
    }
  }
  rep->lambda = lam;
  rep->converged = lam >= 1.0 ? PETSC_TRUE : PETSC_FALSE;
  if (!rep->converged && used < sizeof rep->failure)
    snprintf(rep->failure + used, sizeof rep->failure - used,
             "gave up after %d halvings of the load increment at lambda = %.6g (the last converged "
             "load factor). Hints: more analysis.load_steps; check that the line can reach its "
             "ends and that the top tension can hold its weight; -snes_monitor shows every iteration.",
             an->max_cutbacks, lam);
  p->lambda = lam;
  PetscCall(SNESSetConvergenceHistory(p->snes, NULL, NULL, 0, PETSC_TRUE)); /* hist is on this stack */
  PetscCall(VecDestroy(&last));
  PetscCall(VecDestroy(&prev));
  PetscCall(PetscTime(&t1));
  rep->wall_time_s = t1 - t0;
  PetscFunctionReturn(0);
}

PetscErrorCode PlStaticMoveEnd(PlProblem p, int end, const double x[3], const double *R, PlStaticReport *rep)
{
  const int nd = p->nd, np = nd - 3, node = end ? p->mesh.nnodes - 1 : 0;
  double *u, *start = p->bc_start + (size_t)node * nd, *target = p->bc_target + (size_t)node * nd;
  Vec last;
  PetscFunctionBeginUser;
  memset(rep, 0, sizeof *rep);
  if (!p->snes) PetscCall(SetUpSNES(p));
  PetscCall(PlGatherUnknowns(p, &u));
  const double *un = u + (size_t)node * nd;
  /* the move starts where the end is and ends at (x, R) */
  for (int c = 0; c < nd; ++c) start[c] = un[c];
  for (int c = 0; c < 3; ++c) target[c] = x[c];
  if (R) {
    double qpres[4], q0c[4], qrel[4];
    const double *q0 = p->mesh.q0 + 4 * node;
    PlQuatFromMatrix(R, qpres);
    q0c[0] = q0[0];
    for (int i = 1; i < 4; ++i) q0c[i] = -q0[i];
    PlQuatMul(q0c, qpres, qrel);
    PlParamFromQuaternion(p->kind, qrel, target + 3);
    if (p->kind == PL_PARAM_QUATERNION) { /* the hemisphere of the current parameters */
      double s = 0.0;
      for (int i = 0; i < 4; ++i) s += target[3 + i] * un[3 + i];
      if (s < 0.0)
        for (int i = 0; i < 4; ++i) target[3 + i] = -target[3 + i];
    }
  } else
    for (int c = 0; c < np; ++c) target[3 + c] = un[3 + c];
  free(u);
  PetscCall(VecDuplicate(p->u, &last));
  PetscCall(VecCopy(p->u, last));
  p->lambda = 1.0;
  double mu = 0.0, dmu = 1.0;
  int cuts = 0;
  while (mu < 1.0) {
    const double to = fmin(1.0, mu + dmu);
    p->hold_factor = to;
    PetscCall(SNESSolve(p->snes, NULL, p->u));
    SNESConvergedReason reason;
    PetscInt its;
    PetscCall(SNESGetConvergedReason(p->snes, &reason));
    PetscCall(SNESGetIterationNumber(p->snes, &its));
    rep->newton_iterations += (int)its;
    if (reason > 0) {
      mu = to;
      rep->load_steps++;
      cuts = 0;
      PetscCall(VecCopy(p->u, last));
      continue;
    }
    PetscCall(VecCopy(last, p->u));
    rep->cutbacks++;
    if (++cuts > p->model.analysis.max_cutbacks) {
      snprintf(rep->failure, sizeof rep->failure,
               "moving the %s end to (%.6g, %.6g, %.6g) m: Newton failed (%s) after %d halvings of the move, at "
               "%.3g of it", end ? "top" : "bottom", x[0], x[1], x[2], ReasonText(reason), cuts - 1, mu);
      break;
    }
    dmu *= 0.5;
  }
  /* the end's hold is now where it got to */
  for (int c = 0; c < nd; ++c) {
    target[c] = start[c] + mu * (target[c] - start[c]);
    start[c] = target[c];
  }
  p->hold_factor = -1.0;
  rep->lambda = mu;
  rep->converged = mu >= 1.0 ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(VecDestroy(&last));
  PetscFunctionReturn(0);
}
