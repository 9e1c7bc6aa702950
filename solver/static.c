/*
 * static.c - static equilibrium F(u) = 0 (assembly.c) by a globalised Newton method.
 *
 * A start whose held ends are more than two elements from their targets (a straight start) is
 * first turned as a rigid body about its bottom end towards the top's holds, where the bottom's
 * holds allow it and the turned top meets them (AlignStart: the strategies' linear move of the
 * held DOFs cannot rotate a line, it shortens its chord).
 * Strategies, in order, each from the initial guess (the start shape):
 *  1. Newton (PETSc SNES: full steps, direct LU) with load stepping: the load factor lambda
 *     scales the submerged weight, the end loads and the motion of held DOFs. Increments
 *     start at 1/analysis.load_steps (default 1: one Newton solve at full load); a failed
 *     increment is restored and halved, up to analysis.max_cutbacks times in a row, but
 *     only while halving helps: lambda does not scale the bending of the start shape, so a
 *     retry whose first residual is not below half of the failed one's starts from the same
 *     imbalance and is not tried. Each increment starts from the secant predictor.
 *     This is the fast path: a good start shape converges here quadratically.
 *  2. Pseudo-transient continuation (PTC, implicit dynamic relaxation; Kelley & Keyes 1998,
 *     "Convergence analysis of pseudo-transient continuation", SIAM J. Numer. Anal. 35) at
 *     full load from the start shape: the steps solve
 *        (J(u_k) + sigma_k D) du = -F(u_k),   u_{k+1} = u_k + du,
 *     one Newton iteration of the backward-Euler step of the fictitious motion
 *     D u'' ~ sigma D (u - u_k) = -F(u), D = the lumped mass of the line (translations,
 *     [kg]) and the mass times the element length squared (rotation parameters, [kg m^2]),
 *     zero on held DOFs (they are reached in the first step). sigma [1/s^2] is the inverse
 *     square of a pseudo time step: large sigma damps every mode (a short, safe step along
 *     the steepest descent of the mass metric), sigma -> 0 is Newton. It follows the
 *     residual (switched evolution relaxation): sigma_{k+1} = sigma_k ||F_{k+1}|| / ||F_k||,
 *     bounded per step to [1/10, 10] of its value; a trial that leaves the rod's domain,
 *     takes an element's axial strain beyond +-PL_STRAIN_BOUND (or beyond the accepted
 *     state's, when that is already outside), raises the residual more than a hundredfold or
 *     to thirty times the best residual seen is rejected and retried with 10 sigma.
 *     Once sigma D is negligible against the tangent (or the residual has fallen by 1e-3),
 *     SNES's Newton finishes with its own tolerances (quadratic end game; on failure PTC
 *     goes on). For a stable structure with positive definite J + sigma D, every step is
 *     a descent step of the potential energy, hence the robustness.
 *  3. The same with the load factor ramped up from zero with the pseudo time (for a start
 *     far from the held DOFs' targets, where full load at once tears the line apart; such a
 *     start, more than two elements from a target, takes 3 before 2).
 * Every state accepted as converged is checked for physical sense (PlStaticCheckState): axial
 * strain within +-5 % (PL_STRAIN_BOUND), no element folded back on itself, no node deeper
 * in the seabed than its outer diameter plus ten times the penetration at which the seabed
 * carries the pipe's submerged weight. A "solution" that fails is not converged: the next
 * strategy is tried, and if none is left the report says why.
 * Defaults: Newton with full steps (no line search), direct LU (MUMPS on more than one
 * rank); every -snes_, -ksp_, -pc_ option on the command line or in
 * analysis.petsc_options overrides them (SNESSetFromOptions is called last); the options
 * -pipelay_ptc_max_steps N (default 400) and -pipelay_ptc 0 (skip strategy 2) tune PTC.
 * A stop request (p->stop, set by SIGINT/SIGTERM) is honoured at every residual evaluation:
 * the solve ends within one Newton iteration, with the last accepted state.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "solver_impl.h"

#define PL_HISTORY_MAX 200

/* Appends printf-style text to rep->failure, never past PL_FAILURE_QUOTE short of its end (cut
 * at a word): a system's failure quotes the whole account with its own words before it. */
static void Note(PlStaticReport *rep, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void Note(PlStaticReport *rep, const char *fmt, ...)
{
  const size_t used = strlen(rep->failure), cap = sizeof rep->failure - PL_FAILURE_QUOTE;
  if (used + 1 >= cap) return;
  va_list ap;
  va_start(ap, fmt);
  const int n = vsnprintf(rep->failure + used, cap - used, fmt, ap);
  va_end(ap);
  if (n >= 0 && (size_t)n >= cap - used) { /* cut: end at the last blank, with an ellipsis */
    char *end = rep->failure + cap - 5, *b = end;
    while (b > rep->failure + used && *b != ' ') --b;
    strcpy(b > rep->failure + used ? b : end, " ...");
  }
}

static void Say(PlProblem p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void Say(PlProblem p, const char *fmt, ...)
{
  char buf[2048];
  va_list ap;
  if (p->quiet) return;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  PetscPrintf(p->comm, "pipelay: %s\n", buf);
}

static int StopRequested(PlProblem p) { return p->stop && *p->stop; }

/* F and J with the PTC shift (p->ptc_shift = 0: the plain static problem). A stop request
 * makes the residual a domain error, so that SNES returns at once. */
static PetscErrorCode ShiftedFunction(SNES snes, Vec U, Vec F, void *ctx)
{
  PlProblem p = (PlProblem)ctx;
  PetscFunctionBeginUser;
  PetscCall(PlFormFunction(snes, U, F, ctx));
  if (p->ptc_shift > 0.0) {
    PetscCall(VecWAXPY(p->ptc_work, -1.0, p->ptc_ref, U));
    PetscCall(VecPointwiseMult(p->ptc_work, p->ptc_work, p->ptc_D));
    PetscCall(VecAXPY(F, p->ptc_shift, p->ptc_work));
  }
  int stop = StopRequested(p);
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &stop, 1, MPI_INT, MPI_MAX, p->comm));
  if (stop && snes) PetscCall(SNESSetFunctionDomainError(snes));
  PetscFunctionReturn(0);
}

static PetscErrorCode ShiftedJacobian(SNES snes, Vec U, Mat J, Mat P, void *ctx)
{
  PlProblem p = (PlProblem)ctx;
  PetscFunctionBeginUser;
  PetscCall(PlFormJacobian(snes, U, J, P, ctx));
  if (p->ptc_shift > 0.0) {
    PetscCall(VecCopy(p->ptc_D, p->ptc_work));
    PetscCall(VecScale(p->ptc_work, p->ptc_shift));
    PetscCall(MatDiagonalSet(P, p->ptc_work, ADD_VALUES));
  }
  PetscFunctionReturn(0);
}

/* With seabed friction: a Newton step is shortened so that no element near the seabed (its
 * midpoint's penetration above -d_o) slips by more than one mobilisation distance in it:
 * max over those elements of |(du.e_a/delta_a, du.e_l/delta_l)| <= 1 for the midpoint's
 * increment du. The saturated law (models/friction.c) is a spring of stiffness mu N/delta
 * only within a few delta of the anchor and flat beyond, so a full step of the linearised
 * problem from a state with little tension (the as-laid start) can leave the region the
 * spring sees and land on a distant state where saturated friction balances the loads
 * in another way: a static state the pipe cannot reach from its as-laid state. The step
 * limit keeps the iteration on the path from it. (PETSc's update is X - Y.) */
static PetscErrorCode FrictionStepLimit(SNESLineSearch ls, Vec X, Vec Y, PetscBool *changed, void *ctx)
{
  PlProblem p = (PlProblem)ctx;
  Vec Xl, Yl;
  PetscScalar **x, **y;
  PetscInt xs, xm;
  double worst = 0.0;
  PetscFunctionBeginUser;
  (void)ls;
  *changed = PETSC_FALSE;
  PetscCall(DMGetLocalVector(p->da, &Xl));
  PetscCall(DMGetLocalVector(p->da, &Yl));
  PetscCall(DMGlobalToLocal(p->da, X, INSERT_VALUES, Xl));
  PetscCall(DMGlobalToLocal(p->da, Y, INSERT_VALUES, Yl));
  PetscCall(DMDAGetCorners(p->da, &xs, NULL, NULL, &xm, NULL, NULL));
  PetscCall(DMDAVecGetArrayDOFRead(p->da, Xl, &x));
  PetscCall(DMDAVecGetArrayDOFRead(p->da, Yl, &y));
  for (PetscInt e = xs; e < xs + xm && e < p->mesh.nelements; ++e) {
    const PlSection *s = &p->model.segments[p->mesh.segment[e]].section;
    const double *A = p->fric + 9 * (size_t)e;
    double mid[3], du[3], da, dl;
    for (int c = 0; c < 3; ++c) {
      mid[c] = 0.5 * (x[e][c] + x[e + 1][c]);
      du[c] = 0.5 * (y[e][c] + y[e + 1][c]);
    }
    if (!(PlSeabedPenetration(&p->model, s, mid) > -s->outer_diameter)) continue;
    PlFrictionMobilisation(&p->model, s, &da, &dl);
    /* a direction without friction (mu 0) has no spring to leave */
    const double xi = p->model.friction_axial > 0.0 ? (du[0] * A[3] + du[1] * A[4] + du[2] * A[5]) / da : 0.0;
    const double eta = p->model.friction_lateral > 0.0 ? (du[0] * A[6] + du[1] * A[7] + du[2] * A[8]) / dl : 0.0;
    worst = fmax(worst, hypot(xi, eta));
  }
  PetscCall(DMDAVecRestoreArrayDOFRead(p->da, Xl, &x));
  PetscCall(DMDAVecRestoreArrayDOFRead(p->da, Yl, &y));
  PetscCall(DMRestoreLocalVector(p->da, &Xl));
  PetscCall(DMRestoreLocalVector(p->da, &Yl));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPI_DOUBLE, MPI_MAX, p->comm));
  if (worst > 1.0) {
    PetscCall(VecScale(Y, 1.0 / worst));
    *changed = PETSC_TRUE;
  }
  PetscFunctionReturn(0);
}

/* The resolution of the residual at U [N]. The unknowns are doubles: an iterate is the
 * Newton update rounded to within half a unit in the last place, ulp(u_j) (about 2.2e-16
 * |u_j|), of each unknown, and that update was computed from a residual of a state rounded
 * in the same way, so an iterate can be off the exact equilibrium by up to ulp(u_j) in each
 * unknown, and its residual by J e_j ulp(u_j) per unknown: in quadrature
 *     r_res = sqrt( sum_j ( ||J e_j||_2 ulp(u_j) )^2 ).
 * No iteration can be trusted to get the residual norm below this. It matters for a stiff
 * line in absolute coordinates: a node 1000 m from the origin has ulp 1.1e-13 m, and an
 * element of axial stiffness EA/L_e = 7.5e12 N / 2 m turns that into 0.4 N per node and
 * about 10 N over 740 nodes, against the automatic tolerance 1e-9 of the line's weight or
 * of 1e-6 EA (7.5e-3 N for EA = 7.51e12 N), which then cannot be met: Newton stalls at the
 * resolution (measured: 5-6 N) until its iteration limit. J is the tangent SNES assembled at
 * the last iterate (the columns' norms change little in a step). */
static PetscErrorCode ResidualResolution(PlProblem p, Vec U, Mat J, double *res)
{
  PetscInt n, lo, hi;
  PetscReal *cn;
  const PetscScalar *u;
  double sum = 0.0;
  PetscFunctionBeginUser;
  PetscCall(MatGetSize(J, NULL, &n));
  PetscCall(PetscMalloc1(n, &cn));
  PetscCall(MatGetColumnNorms(J, NORM_2, cn));
  PetscCall(VecGetOwnershipRange(U, &lo, &hi));
  PetscCall(VecGetArrayRead(U, &u));
  for (PetscInt i = lo; i < hi; ++i) {
    const double a = fabs(u[i - lo]), r = cn[i] * (nextafter(a, INFINITY) - a);
    sum += r * r;
  }
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(PetscFree(cn));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_DOUBLE, MPI_SUM, p->comm));
  *res = sqrt(sum);
  PetscFunctionReturn(0);
}

/* SNES's test (atol, rtol, stol, iteration limit), and converged as well once the residual is
 * within the resolution of the unknowns (ResidualResolution) after at least one Newton step:
 * the state is then as balanced as double precision can represent it. */
static PetscErrorCode ConvergedToResolution(SNES snes, PetscInt it, PetscReal xnorm, PetscReal snorm, PetscReal fnorm,
                                            SNESConvergedReason *reason, void *ctx)
{
  PlProblem p = (PlProblem)ctx;
  PetscFunctionBeginUser;
  PetscCall(SNESConvergedDefault(snes, it, xnorm, snorm, fnorm, reason, NULL));
  if (*reason == SNES_CONVERGED_ITERATING && it > 0) {
    Vec U;
    Mat J;
    double res;
    PetscCall(SNESGetSolution(snes, &U));
    PetscCall(SNESGetJacobian(snes, &J, NULL, NULL, NULL));
    PetscCall(ResidualResolution(p, U, J, &res));
    p->resolution = res;
    if (fnorm <= res) *reason = SNES_CONVERGED_FNORM_ABS;
  }
  PetscFunctionReturn(0);
}

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
  PetscCall(SNESSetFunction(p->snes, NULL, ShiftedFunction, p));
  PetscCall(SNESSetJacobian(p->snes, p->J, p->J, ShiftedJacobian, p));
  PetscCall(SNESSetType(p->snes, SNESNEWTONLS));
  {
    /* full Newton steps: the residual norm of a stiff rod rises after the first step from a
     * distant state (linearised kinematics stretch the axis), so a norm-decreasing line
     * search stalls; PTC is the safeguard. A residual 1e10 times the first is divergence. */
    SNESLineSearch ls;
    PetscCall(SNESGetLineSearch(p->snes, &ls));
    PetscCall(SNESLineSearchSetType(ls, SNESLINESEARCHBASIC));
    PetscCall(SNESSetDivergenceTolerance(p->snes, 1e10));
    if (p->fric) PetscCall(SNESLineSearchSetPreCheck(ls, FrictionStepLimit, p));
  }
  const double atol = p->model.analysis.atol > 0.0 ? p->model.analysis.atol : 1e-9 * p->force_scale;
  PetscCall(SNESSetTolerances(p->snes, atol, p->model.analysis.rtol, 1e-13,
                              p->model.analysis.max_iterations, 100000));
  PetscCall(SNESSetConvergenceTest(p->snes, ConvergedToResolution, p, NULL));
  PetscCall(SNESGetKSP(p->snes, &ksp));
  PetscCall(KSPSetType(ksp, KSPPREONLY));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCLU));
  if (size > 1) PetscCall(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS));
  else PetscCall(PCFactorSetMatOrderingType(pc, MATORDERINGNATURAL)); /* a chain of node blocks: no fill */
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
  case SNES_DIVERGED_DTOL: return "the residual grew 1e10-fold (divergence)";
  default: return SNESConvergedReasons[r];
  }
}

/* ---- the check of a converged state ---------------------------------------------------- */
/* Returns 1 (on every rank) and a reason in why[len] when the state is not physical:
 * |axial strain| > PL_STRAIN_BOUND, an element whose chord points against its own axis
 * (folded back), or a node through the seabed (see the loop). */
PetscErrorCode PlStaticCheckState(PlProblem p, int *bad, char *why, size_t len)
{
  PetscFunctionBeginUser;
  PetscCall(PlStaticCheckStateOf(p, 1, bad, why, len));
  PetscFunctionReturn(0);
}

PetscErrorCode PlStaticCheckStateOf(PlProblem p, int seabed, int *bad, char *why, size_t len)
{
  const int nd = p->nd, ne = p->mesh.nelements;
  double *u;
  PetscFunctionBeginUser;
  PetscCall(PlGatherUnknowns(p, &u));
  double worst = 0.0, pen = 0.0;
  int we = -1, folded = -1, deep = -1;
  for (int e = 0; e < ne; ++e) {
    PlRodSectionState st;
    PlRodElementState(&p->elements[e], u + (size_t)e * nd, &st);
    const double *xa = u + (size_t)e * nd, *xb = u + (size_t)(e + 1) * nd;
    const double ch[3] = {xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2]};
    const double along = ch[0] * st.Rm[0] + ch[1] * st.Rm[3] + ch[2] * st.Rm[6];
    if (!(fabs(st.gamma[0]) <= fabs(worst))) {
      worst = st.gamma[0];
      we = e;
    }
    if (folded < 0 && !(along > 0.0)) folded = e;
  }
  if (seabed && p->model.seabed != PL_SEABED_NONE)
    for (int i = 0; i < p->mesh.nnodes; ++i) {
      const int e = i < ne ? i : ne - 1;
      const double d = p->model.segments[p->mesh.segment[e]].section.outer_diameter;
      const double depth_in = PlSeabedPenetration(&p->model, &p->model.segments[p->mesh.segment[e]].section,
                                                  u + (size_t)i * nd);
      /* the penetration at which the seabed carries the submerged weight (eq 5.38: d_o/8;
       * linear: w/k); ten times that plus a diameter is not contact but a line through it */
      const double rest = p->model.seabed == PL_SEABED_LINEAR && p->model.seabed_stiffness > 0.0
                            ? fabs(p->w[e]) / p->model.seabed_stiffness : d / 8.0;
      if (depth_in > d + 10.0 * rest && depth_in > pen) {
        pen = depth_in;
        deep = i;
      }
    }
  free(u);
  *bad = 1;
  if (!(fabs(worst) <= PL_STRAIN_BOUND))
    snprintf(why, len, "axial strain %.3g at S = %.2f m is beyond the plausible bound of +-%g (the line is "
             "torn apart or collapsed: not an equilibrium of a pipe)", worst,
             0.5 * (p->mesh.S[we] + p->mesh.S[we + 1]), PL_STRAIN_BOUND);
  else if (folded >= 0)
    snprintf(why, len, "the element at S = %.2f m is folded back on itself (its chord points against its axis)",
             0.5 * (p->mesh.S[folded] + p->mesh.S[folded + 1]));
  else if (deep >= 0)
    snprintf(why, len, "the line passes through the seabed: the node at S = %.2f m is %.3g m below its surface",
             p->mesh.S[deep], pen);
  else *bad = 0;
  PetscFunctionReturn(0);
}

/* One SNES (Newton) solve from p->u: its reason; its iterations are added to the report. */
static PetscErrorCode NewtonSolve(PlProblem p, PlStaticReport *rep, SNESConvergedReason *reason, PetscInt *its)
{
  PetscFunctionBeginUser;
  PetscCall(SNESSolve(p->snes, NULL, p->u));
  PetscCall(SNESGetConvergedReason(p->snes, reason));
  PetscCall(SNESGetIterationNumber(p->snes, its));
  rep->newton_iterations += (int)*its;
  PetscFunctionReturn(0);
}

/* ---- strategy 1: Newton with load stepping ---------------------------------------------- */
static PetscErrorCode NewtonLoadStepping(PlProblem p, PlStaticReport *rep, PetscBool *ok)
{
  const PlAnalysis *an = &p->model.analysis;
  Vec last, prev;
  PetscReal hist[PL_HISTORY_MAX];
  PetscInt hits[PL_HISTORY_MAX];
  PetscFunctionBeginUser;
  PetscCall(SNESSetConvergenceHistory(p->snes, hist, hits, PL_HISTORY_MAX, PETSC_TRUE));
  PetscCall(VecDuplicate(p->u, &last));
  PetscCall(VecCopy(p->u, last));
  PetscCall(VecDuplicate(p->u, &prev));
  double dlam_prev = 0.0, lam = 0.0, dlam = 1.0 / an->load_steps, first_failed = -1.0;
  int easy = 0, consecutive_cuts = 0;
  p->ptc_shift = 0.0;
  while (lam < 1.0 && !StopRequested(p)) {
    const double target = fmin(1.0, lam + dlam);
    p->lambda = target;
    if (dlam_prev > 0.0) { /* secant predictor from the last two converged states */
      PetscCall(VecCopy(last, p->u));
      PetscCall(VecAXPBYPCZ(p->u, (target - lam) / dlam_prev, -(target - lam) / dlam_prev, 1.0, last, prev));
    }
    SNESConvergedReason reason;
    PetscInt its, nh;
    PetscReal fnorm, *h;
    PetscCall(NewtonSolve(p, rep, &reason, &its));
    PetscCall(SNESGetFunctionNorm(p->snes, &fnorm));
    PetscCall(SNESGetConvergenceHistory(p->snes, &h, NULL, &nh));
    rep->final_residual_norm = fnorm;
    if (reason > 0) {
      rep->nhistory = (int)PetscMin(nh, 64);
      for (int k = 0; k < rep->nhistory; ++k) rep->history[k] = h[k];
      dlam_prev = target - lam;
      lam = target;
      rep->load_steps++;
      consecutive_cuts = 0;
      first_failed = -1.0;
      PetscCall(VecCopy(last, prev));
      PetscCall(VecCopy(p->u, last));
      easy = its < 8 ? easy + 1 : 0;
      if (easy >= 2) dlam *= 1.5;
      continue;
    }
    if (StopRequested(p)) break;
    /* failed: report, restore, cut back while that helps */
    char line[512];
    int n = snprintf(line, sizeof line, "Newton, load step to lambda = %.6g (increment %.3g): failed after %d "
                     "iterations, %s; residual norms [N]:", target, dlam, (int)its, ReasonText(reason));
    for (PetscInt k = 0; k < nh && k < 12 && n < (int)sizeof line - 16; ++k)
      n += snprintf(line + n, sizeof line - n, " %.3e", (double)h[k]);
    if (nh > 12 && n < (int)sizeof line - 8) snprintf(line + n, sizeof line - n, " ...");
    const double r0 = nh > 0 ? (double)h[0] : 0.0;
    const int futile = first_failed > 0.0 && r0 > 0.5 * first_failed;
    if (first_failed < 0.0) first_failed = r0;
    Note(rep, "%s\n", line);
    PetscCall(VecCopy(last, p->u));
    const int give_up = futile || consecutive_cuts >= an->max_cutbacks || dlam * 0.5 < 1e-10;
    Say(p, "%s; %s", line, give_up ? "next strategy" : "retrying with half the increment");
    if (futile) Note(rep, "halving the load increment did not lower the starting residual (%.3e N): the start "
                     "shape's own imbalance dominates, so load stepping cannot help\n", r0);
    if (give_up) break;
    consecutive_cuts++;
    rep->cutbacks++;
    dlam *= 0.5;
    easy = 0;
  }
  *ok = lam >= 1.0 ? PETSC_TRUE : PETSC_FALSE;
  rep->lambda = lam;
  PetscCall(SNESSetConvergenceHistory(p->snes, NULL, NULL, 0, PETSC_TRUE)); /* hist is on this stack */
  PetscCall(VecDestroy(&last));
  PetscCall(VecDestroy(&prev));
  PetscFunctionReturn(0);
}

/* ---- strategy 2: pseudo-transient continuation ----------------------------------------- */
/* D: lumped mass of the free translations, mass x (element length)^2 of the free rotation
 * parameters, zero on held DOFs. */
static PetscErrorCode BuildMetric(PlProblem p)
{
  const int nd = p->nd, ne = p->mesh.nelements;
  PetscInt xs, xm;
  PetscScalar **d;
  PetscFunctionBeginUser;
  if (!p->ptc_D) {
    PetscCall(VecDuplicate(p->u, &p->ptc_D));
    PetscCall(VecDuplicate(p->u, &p->ptc_ref));
    PetscCall(VecDuplicate(p->u, &p->ptc_work));
  }
  PetscCall(DMDAGetCorners(p->da, &xs, NULL, NULL, &xm, NULL, NULL));
  PetscCall(DMDAVecGetArrayDOF(p->da, p->ptc_D, &d));
  for (PetscInt i = xs; i < xs + xm; ++i) {
    double m = 0.0, L = 0.0;
    int k = 0;
    for (int e = (int)i - 1; e <= (int)i; ++e) {
      if (e < 0 || e >= ne) continue;
      const PlSection *s = &p->model.segments[p->mesh.segment[e]].section;
      m += 0.5 * s->mass_per_length * p->elements[e].L;
      L += p->elements[e].L;
      ++k;
    }
    L /= k;
    for (int c = 0; c < nd; ++c) d[i][c] = p->bc_mask[i * nd + c] ? 0.0 : (c < 3 ? m : m * L * L);
  }
  PetscCall(DMDAVecRestoreArrayDOF(p->da, p->ptc_D, &d));
  PetscFunctionReturn(0);
}

static PetscErrorCode Residual(PlProblem p, Vec U, Vec F, double *fnorm, int *bad)
{
  PetscFunctionBeginUser;
  PetscCall(PlFormFunction(NULL, U, F, p)); /* the plain residual: the shift is ShiftedFunction's */
  PetscCall(VecNorm(F, NORM_2, fnorm));
  *bad = p->domain_error || !isfinite(*fnorm);
  PetscFunctionReturn(0);
}

/* The largest |axial strain| of the elements at U (infinite when one leaves the rod's domain). */
static PetscErrorCode MaxAxialStrain(PlProblem p, Vec U, double *emax)
{
  const int nd = p->nd, ne = p->mesh.nelements;
  Vec Ul;
  const PetscScalar **u;
  PetscInt xs, xm;
  double worst = 0.0;
  PetscFunctionBeginUser;
  PetscCall(DMGetLocalVector(p->da, &Ul));
  PetscCall(DMGlobalToLocal(p->da, U, INSERT_VALUES, Ul));
  PetscCall(DMDAGetCorners(p->da, &xs, NULL, NULL, &xm, NULL, NULL));
  PetscCall(DMDAVecGetArrayDOFRead(p->da, Ul, &u));
  for (PetscInt e = xs; e < xs + xm && e < ne; ++e) {
    double ue[PL_ELEM_DOF_MAX];
    PlRodSectionState st;
    for (int c = 0; c < nd; ++c) {
      ue[c] = u[e][c];
      ue[nd + c] = u[e + 1][c];
    }
    worst = PlRodElementState(&p->elements[e], ue, &st) ? INFINITY : fmax(worst, fabs(st.gamma[0]));
    if (!isfinite(worst)) break;
  }
  PetscCall(DMDAVecRestoreArrayDOFRead(p->da, Ul, &u));
  PetscCall(DMRestoreLocalVector(p->da, &Ul));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPI_DOUBLE, MPI_MAX, p->comm));
  *emax = worst;
  PetscFunctionReturn(0);
}

/* The largest distance [m] between a held position of the start and its target. */
static double HoldDistance(const PlProblem p)
{
  double far = 0.0;
  const int nd = p->nd;
  for (int i = 0; i < p->mesh.nnodes; ++i)
    for (int c = 0; c < 3; ++c)
      if (p->bc_mask[i * nd + c]) far = fmax(far, fabs(p->bc_target[i * nd + c] - p->bc_start[i * nd + c]));
  return far;
}

/* PTC from `start`. ramp = 0: at full load. ramp = 1: the load factor (weight, end loads,
 * held DOFs) rises with the pseudo time from 0, by an increment that grows 1.5-fold after an
 * accepted step and halves after a rejected one, so that a start far from the holds (the
 * top of a straight start shape 900 m from its hang-off) is reached gradually. */
static PetscErrorCode PseudoTransient(PlProblem p, Vec start, int ramp, PlStaticReport *rep, PetscBool *ok)
{
  PetscInt max_steps = 400;
  PetscBool set, monitor = PETSC_FALSE;
  KSP ksp;
  Vec F, Ft, du, ut;
  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-pipelay_ptc_max_steps", &max_steps, &set));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-pipelay_ptc_monitor", &monitor, &set));
  PetscCall(BuildMetric(p));
  PetscCall(VecDuplicate(p->u, &F));
  PetscCall(VecDuplicate(p->u, &Ft));
  PetscCall(VecDuplicate(p->u, &du));
  PetscCall(VecDuplicate(p->u, &ut));
  PetscCall(SNESGetKSP(p->snes, &ksp));
  /* the ramp moves a held DOF by at most half an element length per step */
  double dlam_max = 1.0;
  if (ramp) {
    const double far = HoldDistance(p), Lmean = p->model.length / p->mesh.nelements;
    if (far > 0.0) dlam_max = fmin(1.0, 0.5 * Lmean / far);
    max_steps = PetscMax(max_steps, (PetscInt)(3.0 / dlam_max));
  }
  double lam = ramp ? 0.0 : 1.0, dlam = fmin(1.0 / 16.0, dlam_max);
  p->lambda = ramp ? dlam : 1.0;
  PetscCall(VecCopy(start, p->u));
  double fn, fn_start, fn_prev = 0.0, fn_best = INFINITY, sigma = -1.0, sigma0 = 0.0;
  int bad, steps = 0, rejects = 0, polishes = 0;
  *ok = PETSC_FALSE;
  PetscCall(Residual(p, p->u, F, &fn, &bad));
  fn_start = fn;
  if (!ramp) fn_best = fn;
  /* the iterate stays in the plausible strain band: a step that crushes or tears an element
   * is not a state a pipe passes through, however its residual compares (a compressed
   * straight line's residual can fall as it collapses to strain -1, and a ramp that follows
   * such steps ends there) */
  double strain;
  PetscCall(MaxAxialStrain(p, p->u, &strain));
  {
    /* sigma0: the Jacobi estimate of the first step, |F_i| / (sigma D_i), limited to a
     * tenth of the mean element length on the free translations */
    PetscInt xs, xm;
    const PetscScalar **f, **d;
    double ratio = 0.0, Lm = p->model.length / p->mesh.nelements;
    PetscCall(DMDAGetCorners(p->da, &xs, NULL, NULL, &xm, NULL, NULL));
    PetscCall(DMDAVecGetArrayDOFRead(p->da, F, &f));
    PetscCall(DMDAVecGetArrayDOFRead(p->da, p->ptc_D, &d));
    for (PetscInt i = xs; i < xs + xm; ++i)
      for (int c = 0; c < 3; ++c)
        if (d[i][c] > 0.0) ratio = fmax(ratio, fabs(f[i][c]) / d[i][c]);
    PetscCall(DMDAVecRestoreArrayDOFRead(p->da, F, &f));
    PetscCall(DMDAVecRestoreArrayDOFRead(p->da, p->ptc_D, &d));
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &ratio, 1, MPI_DOUBLE, MPI_MAX, p->comm));
    PetscReal opt = 0.0;
    PetscCall(PetscOptionsGetReal(NULL, NULL, "-pipelay_ptc_sigma0", &opt, &set));
    sigma = set ? opt : fmax(ratio / (0.1 * Lm), 1e-6);
    sigma0 = sigma;
  }
  const double atol = p->model.analysis.atol > 0.0 ? p->model.analysis.atol : 1e-9 * p->force_scale;
  while (steps < max_steps && !StopRequested(p)) {
    /* end game at full load: Newton when PTC has done its work */
    /* the residual's floor: the tolerance, or the resolution of the unknowns when the tolerance
     * is below it (as the last Newton iteration measured it: PTC's tangent has the shift) */
    const double floor_ = fmax(atol, p->resolution);
    if (lam >= 1.0 && (fn < 1e-3 * fn_start || sigma < 1e-8 * sigma0 || fn < 10.0 * floor_)) {
      PetscCall(VecCopy(p->u, ut));
      p->ptc_shift = 0.0;
      p->lambda = 1.0;
      SNESConvergedReason reason;
      PetscInt its;
      PetscCall(NewtonSolve(p, rep, &reason, &its));
      polishes++;
      if (reason > 0) {
        PetscReal fe;
        PetscCall(SNESGetFunctionNorm(p->snes, &fe));
        fn = fe; /* the report's final residual: the end game's, not the last PTC step's */
        *ok = PETSC_TRUE;
        break;
      }
      PetscCall(VecCopy(ut, p->u));
      if (StopRequested(p)) break;
      fn_start = fn; /* PTC goes on: the next end game after another 1e-3 */
      sigma = fmax(sigma, 1e-6 * sigma0);
    }
    /* the load factor of this step (ramp), and the residual there */
    const double lam_try = ramp ? fmin(1.0, lam + dlam) : 1.0;
    if (lam_try != p->lambda) {
      p->lambda = lam_try;
      PetscCall(Residual(p, p->u, F, &fn, &bad));
    }
    /* one PTC step */
    p->ptc_shift = sigma;
    PetscCall(VecCopy(p->u, p->ptc_ref));
    PetscCall(ShiftedJacobian(p->snes, p->u, p->J, p->J, p));
    PetscCall(KSPSetOperators(ksp, p->J, p->J));
    PetscCall(KSPSolve(ksp, F, du));
    KSPConvergedReason kr;
    PetscCall(KSPGetConvergedReason(ksp, &kr));
    double fnt = INFINITY;
    bad = 1;
    double strain_t = INFINITY;
    if (kr >= 0) {
      PetscCall(VecWAXPY(ut, -1.0, du, p->u));
      PetscCall(Residual(p, ut, Ft, &fnt, &bad));
      if (!bad) PetscCall(MaxAxialStrain(p, ut, &strain_t));
    }
    const int stretched = !bad && strain_t > fmax(PL_STRAIN_BOUND, strain);
    bad = bad || stretched;
    steps++;
    rep->newton_iterations++;
    /* a step that raises the residual a hundredfold, or thirty times above the best state
     * seen at this load, is rejected: accepted increases must not compound into a drift */
    if (bad || fnt > (ramp && lam < 1.0 ? 10.0 : 100.0) * fn || (lam_try >= 1.0 && fnt > 30.0 * fn_best)) {
      if (monitor)
        PetscCall(PetscPrintf(p->comm, "  PTC step %d rejected: lambda %.4g, |F| %.4e -> %.4e N%s, sigma %.4e\n", steps,
                              lam_try, fn, fnt, stretched ? " (strain)" : bad ? " (domain)" : "", sigma));
      rejects++;
      sigma *= 10.0;
      if (ramp && lam < 1.0) {
        dlam *= 0.5;
        p->lambda = lam; /* F is evaluated again at the next factor */
        PetscCall(Residual(p, p->u, F, &fn, &bad));
      }
      continue;
    }
    if (monitor)
      PetscCall(PetscPrintf(p->comm, "  PTC step %d: lambda %.4g, |F| %.4e -> %.4e N, sigma %.4e\n", steps, lam_try, fn,
                            fnt, sigma));
    PetscCall(VecCopy(ut, p->u));
    PetscCall(VecCopy(Ft, F));
    strain = strain_t;
    if (lam_try >= 1.0) fn_best = fmin(fn_best, fnt);
    /* SER on the larger of the last two residuals: a stiff (axial) component that the
     * linearisation leaves on every other step must not stall the relaxation */
    sigma *= fmin(10.0, fmax(0.1, fnt / fmax(fn, fn_prev)));
    fn_prev = fn;
    fn = fnt;
    if (ramp && lam < 1.0) {
      lam = lam_try;
      dlam = fmin(1.5 * dlam, dlam_max);
      if (lam >= 1.0) fn_start = fn_best = fn;
    }
  }
  p->ptc_shift = 0.0;
  rep->ptc_steps += steps;
  rep->ptc_rejected += rejects;
  rep->final_residual_norm = fn;
  rep->lambda = *ok ? 1.0 : lam;
  if (!*ok) {
    Note(rep, "pseudo-transient continuation %s: %s after %d steps (%d rejected, %d Newton end games) at load factor "
         "%.4g; residual %.3e N (tolerance %.3e N), pseudo-time shift %.3g of its start\n",
         ramp ? "with the load ramped from zero" : "at full load", StopRequested(p) ? "interrupted" : "no convergence",
         steps, rejects, polishes, lam, fn, atol, sigma / sigma0);
  }
  PetscCall(VecDestroy(&F));
  PetscCall(VecDestroy(&Ft));
  PetscCall(VecDestroy(&du));
  PetscCall(VecDestroy(&ut));
  PetscFunctionReturn(0);
}

/* ---- the rigid part of the held ends' move ---------------------------------------------- */
/* A start far from the holds (HoldDistance above two elements: a straight start whose top
 * lies hundreds of metres from the top's held position) is first turned, as a rigid body,
 * about its bottom end so that its top meets the top's held translations, when the bottom's
 * holds let it turn so.
 * Why: the strategies move the held DOFs on straight lines ubar = start + lambda (target -
 * start). A rotation of the line about its bottom is not on such a path: the chord of a
 * straight start laid along x whose top is held at x = 0 above the bottom (a riser pulled up
 * by its top force) is shortened by the linear path, and the linearisation at the straight
 * line cannot turn it (the rotation moves the top across the chord, to first order not
 * along it), so Newton and the pseudo-transient steps compress it, down to a collapsed state
 * (axial strain -1). A rigid rotation costs no strain energy: doing it exactly leaves the
 * continuation only the deformation (the change of the chord, the loads).
 * The rotation Q is the smallest one taking the start's chord r = x_top - x_bottom to the
 * direction d of the wanted chord: d's components held at the top are the targets' (relative
 * to the bottom's target), its free components share the rest of |r| (the chord keeps its
 * length where the holds allow) in the direction of the start's free components, else of the
 * top's applied force there, else of the one free axis; of the two signs, the one whose
 * rotated line has the lower potential of the dead loads (weight, end forces) and does not
 * pass through the seabed. The line turns only when Q keeps every held DOF of the bottom node
 * (its position is the pivot; a held rotation is kept when Q's axis has no component about
 * it: a riser pinned at the seabed with its torsion held turns, a clamped end does not) and
 * the turned top meets the top's held translations: with all three held and the target
 * nearer than the chord, a turn would leave a compression along the chord, which a straight
 * line meets only by buckling, while the linear path's oblique move lets the weight sag the
 * line as it shortens. The turned state's held values become the holds' start values
 * (bc_start). *aligned is 1 when it turned. */
static PetscErrorCode AlignStart(PlProblem p, Vec start, int *aligned)
{
  const int nd = p->nd, nn = p->mesh.nnodes, ne = p->mesh.nelements, top = nn - 1;
  const char *mb = p->bc_mask, *mt = p->bc_mask + (size_t)top * nd;
  double *u;
  PetscFunctionBeginUser;
  *aligned = 0;
  if (!(mb[0] && mb[1] && mb[2]) || !(mt[0] || mt[1] || mt[2])) PetscFunctionReturn(0);
  PetscCall(PlGatherUnknowns(p, &u));
  const double *xb = u, *xt = u + (size_t)top * nd;
  const double *Tb = p->bc_target, *Tt = p->bc_target + (size_t)top * nd;
  double r[3], d[3] = {0, 0, 0}, g[3] = {0, 0, 0}, held2 = 0.0, gn = 0.0;
  for (int c = 0; c < 3; ++c) r[c] = xt[c] - xb[c];
  const double len = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
  for (int c = 0; c < 3; ++c)
    if (mt[c]) {
      d[c] = Tt[c] - Tb[c];
      held2 += d[c] * d[c];
    }
  /* the free components' direction: the start's, else the top force's, else the one free axis */
  for (int pass = 0; pass < 3 && !(gn > 1e-9 * len); ++pass) {
    gn = 0.0;
    int nfree = 0;
    for (int c = 0; c < 3; ++c) {
      g[c] = mt[c] ? 0.0 : pass == 0 ? r[c] : pass == 1 ? p->model.ends[1].force[c] : 1.0;
      nfree += !mt[c];
      gn += g[c] * g[c];
    }
    gn = sqrt(gn);
    if (pass == 2 && nfree != 1) gn = 0.0;
  }
  const double rest = held2 < len * len && gn > 0.0 ? sqrt(len * len - held2) : 0.0;
  double best = INFINITY, Qbest[4] = {1, 0, 0, 0};
  for (int sgn = 1; sgn >= -1; sgn -= 2) {
    double dd[3], dn = 0.0;
    for (int c = 0; c < 3; ++c) {
      dd[c] = d[c] + (gn > 0.0 ? sgn * rest * g[c] / gn : 0.0);
      dn += dd[c] * dd[c];
    }
    dn = sqrt(dn);
    if (!(dn > 0.0) || !(len > 0.0)) break;
    double ax[3] = {r[1] * dd[2] - r[2] * dd[1], r[2] * dd[0] - r[0] * dd[2], r[0] * dd[1] - r[1] * dd[0]};
    const double sn = sqrt(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]) / (len * dn);
    const double cs = (r[0] * dd[0] + r[1] * dd[1] + r[2] * dd[2]) / (len * dn), ang = atan2(sn, cs);
    double Q[4] = {1, 0, 0, 0};
    if (sn > 1e-12) PlQuatFromAxisAngle(ax, ang, Q); /* (antiparallel chords: no unique turn, none made) */
    /* the dead loads' potential of the turned line, and the seabed */
    double V = 0.0;
    int through = 0;
    for (int i = 0; i < nn; ++i) {
      double v[3], x[3];
      for (int c = 0; c < 3; ++c) v[c] = u[(size_t)i * nd + c] - xb[c];
      PlQuatRotate(Q, v, x);
      for (int c = 0; c < 3; ++c) x[c] += xb[c];
      double wl = 0.0;
      if (i > 0) wl += 0.5 * p->w[i - 1] * p->elements[i - 1].L;
      if (i < ne) wl += 0.5 * p->w[i] * p->elements[i].L;
      V += wl * x[2];
      if (i == 0 || i == top)
        for (int c = 0; c < 3; ++c) V -= p->model.ends[i ? 1 : 0].force[c] * x[c];
      const PlSection *s = &p->model.segments[p->mesh.segment[i < ne ? i : ne - 1]].section;
      if (p->model.seabed != PL_SEABED_NONE && PlSeabedPenetration(&p->model, s, x) > s->outer_diameter) through = 1;
    }
    if (!through && V < best) {
      best = V;
      memcpy(Qbest, Q, sizeof Qbest);
    }
    if (!(gn > 0.0) || !(rest > 0.0)) break; /* one candidate */
  }
  if (!(fabs(Qbest[0]) < 1.0 - 1e-12)) {
    free(u);
    PetscFunctionReturn(0);
  }
  /* the turned state: x' = x_b + Q (x - x_b), frames Q R (parameters of R0^T Q R) */
  const size_t n = (size_t)nn * nd;
  double *un = malloc(sizeof(double) * n);
  PetscCheck(un, p->comm, PETSC_ERR_MEM, "out of memory turning the start");
  int keeps = 1;
  for (int i = 0; i < nn; ++i) {
    const double *ui = u + (size_t)i * nd, *q0 = p->mesh.q0 + 4 * i;
    double *vi = un + (size_t)i * nd, v[3], q[4], qn[4], q0c[4] = {q0[0], -q0[1], -q0[2], -q0[3]}, qr[4];
    for (int c = 0; c < 3; ++c) v[c] = ui[c] - xb[c];
    PlQuatRotate(Qbest, v, vi);
    for (int c = 0; c < 3; ++c) vi[c] += xb[c];
    PlNodeQuaternion(p->kind, q0, ui + 3, q);
    PlQuatMul(Qbest, q, qn);
    PlQuatMul(q0c, qn, qr);
    PlParamFromQuaternionNear(p->kind, qr, ui + 3, vi + 3); /* the hemisphere of the unturned parameters */
  }
  for (int k = 3; k < nd; ++k)
    if (mb[k] && !(fabs(un[k] - u[k]) <= 1e-9)) keeps = 0;
  for (int c = 0; c < 3; ++c) /* and it meets the top's holds (else it leaves a pure compression) */
    if (mt[c] && !(fabs(un[(size_t)top * nd + c] - xb[c] - (Tt[c] - Tb[c])) <= 1e-6 * len)) keeps = 0;
  if (keeps) {
    PetscInt xs, xm;
    PetscScalar **a;
    PetscCall(DMDAGetCorners(p->da, &xs, NULL, NULL, &xm, NULL, NULL));
    PetscCall(DMDAVecGetArrayDOF(p->da, start, &a));
    for (PetscInt i = xs; i < xs + xm; ++i)
      for (int c = 0; c < nd; ++c) a[i][c] = un[(size_t)i * nd + c];
    PetscCall(DMDAVecRestoreArrayDOF(p->da, start, &a));
    PetscCall(VecCopy(start, p->u));
    for (size_t k = 0; k < n; ++k)
      if (p->bc_mask[k]) p->bc_start[k] = un[k];
    *aligned = 1;
  }
  free(un);
  free(u);
  PetscFunctionReturn(0);
}

PetscErrorCode PlProblemAlignStart(PlProblem p, int *aligned)
{
  Vec start;
  PetscFunctionBeginUser;
  *aligned = 0;
  if (!(HoldDistance(p) > 2.0 * p->model.length / p->mesh.nelements)) PetscFunctionReturn(0);
  PetscCall(VecDuplicate(p->u, &start));
  PetscCall(VecCopy(p->u, start));
  PetscCall(AlignStart(p, start, aligned));
  PetscCall(VecDestroy(&start));
  PetscFunctionReturn(0);
}

/* A suggestion for a failed solve, from what the report shows, in buf[len]: only what can
 * help after what was tried. Load stepping is not suggested: it ran with cut-backs already
 * (and is given up when halving does not lower the starting residual). More PTC steps help
 * only when PTC ran and stopped at its step limit; when it was switched off, running it does.
 * A start from a converged run is "a nearer one" when this start already was one; a straight
 * start that was asked for can be replaced by the catenary. */
static const char *Suggestion(const PlProblem p, const PlStaticReport *rep, PetscBool ptc_ran, char *buf, size_t len)
{
  const char *start = p->mesh.guess_used == PL_GUESS_RESULTS
                        ? "start from a converged run of a model nearer to this one (--start-from DIR)"
                      : p->model.analysis.initial_guess == PL_GUESS_STRAIGHT
                        ? "start from the catenary (analysis.initial_guess: catenary) or from a nearby converged run "
                          "(--start-from DIR)"
                        : "start from a nearby converged run (--start-from DIR)";
  if (rep->unphysical)
    snprintf(buf, len, "check the ends' positions and the applied forces (a line pulled or pushed beyond what a pipe "
             "can take has no physical equilibrium), and %s", start);
  else if (p->mesh.guess_note[0])
    snprintf(buf, len, "the start shape fell back to a straight line (see the note above): give the top end's position "
             "or force so that a catenary start exists, or %s", start);
  else
    snprintf(buf, len, "%s, %s, or refine the mesh where the curvature is high (mesh.zones)", start,
             ptc_ran ? "raise -pipelay_ptc_max_steps" : "let pseudo-transient continuation run (drop -pipelay_ptc 0)");
  return buf;
}

/* With seabed friction, a failed solve whose last state has the friction mobilised (rho > 2:
 * tanh 2 = 96 % of the capacity) over at least half the length in contact is a pipe that
 * slides: *slides 1 and what[len] the capacities (mu_a, mu_l times the normal force). */
static PetscErrorCode Sliding(PlProblem p, int *slides, char *what, size_t len)
{
  PetscFunctionBeginUser;
  *slides = 0;
  if (!p->fric) PetscFunctionReturn(0);
  double *u, Pt = 0.0, Lc = 0.0, Ls = 0.0;
  PetscCall(PlGatherUnknowns(p, &u));
  for (int e = 0; e < p->mesh.nelements; ++e) {
    double P, rho;
    PlProblemFrictionState(p, e, u + (size_t)e * p->nd, u + (size_t)(e + 1) * p->nd, &P, &rho);
    if (!(P > 0.0)) continue;
    Pt += P;
    Lc += p->elements[e].L;
    if (rho > 2.0) Ls += p->elements[e].L;
  }
  PetscCall(PetscFree(u));
  if (Lc > 0.0 && Ls >= 0.5 * Lc) {
    *slides = 1;
    snprintf(what, len,
             "the pipe slides on the seabed: its friction is mobilised (beyond 96 %% of its capacity) over %.1f of the "
             "%.1f m in contact; the friction can hold at most mu_a N L = %.6g N along the pipe and mu_l N L = %.6g N "
             "across it (N L = %.6g N, the seabed's normal force), and the loads exceed that. A sliding pipe has no "
             "static equilibrium: lower the loads, check the friction coefficients, or follow the slide in time "
             "(analysis.type: dynamic)", Ls, Lc, p->model.friction_axial * Pt, p->model.friction_lateral * Pt, Pt);
  }
  PetscFunctionReturn(0);
}

/* A strategy's converged state that fails the physical check is not converged: *ok false,
 * *bad set, the reason in the report and on the console. */
static PetscErrorCode RejectUnphysical(PlProblem p, PlStaticReport *rep, const char *strategy, PetscBool *ok, int *bad)
{
  char why[512];
  PetscFunctionBeginUser;
  *bad = 0;
  if (!*ok) PetscFunctionReturn(0);
  PetscCall(PlStaticCheckState(p, bad, why, sizeof why));
  if (*bad) {
    *ok = PETSC_FALSE;
    Note(rep, "%s converged to a state that is not physical: %s\n", strategy, why);
    Say(p, "%s converged to a state that is not physical (%s); next strategy", strategy, why);
  }
  PetscFunctionReturn(0);
}

PetscErrorCode PlStaticSolve(PlProblem p, PlStaticReport *rep)
{
  PetscLogDouble t0, t1;
  Vec start;
  PetscBool ok = PETSC_FALSE, use_ptc = PETSC_TRUE, set;
  int bad = 0;
  PetscFunctionBeginUser;
  memset(rep, 0, sizeof *rep);
  PetscCall(PetscTime(&t0));
  if (!p->snes) PetscCall(SetUpSNES(p));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-pipelay_ptc", &use_ptc, &set));
  PetscCall(VecDuplicate(p->u, &start));
  PetscCall(VecCopy(p->u, start));
  if (HoldDistance(p) > 2.0 * p->model.length / p->mesh.nelements) {
    int aligned;
    PetscCall(AlignStart(p, start, &aligned));
    if (aligned) {
      Say(p, "the start is far from the holds: turned as a rigid body about its bottom end onto the top's holds");
      Note(rep, "the start, far from the holds, was turned as a rigid body about its bottom end onto the top's holds "
           "before the strategies below\n");
    }
  }

  PetscCall(NewtonLoadStepping(p, rep, &ok));
  rep->strategy = PL_STATIC_NEWTON;
  PetscCall(RejectUnphysical(p, rep, "Newton", &ok, &bad));
  /* a start whose held ends are more than two elements from their targets is ramped first */
  const int ramp_first = HoldDistance(p) > 2.0 * p->model.length / p->mesh.nelements;
  for (int k = 0; k < 2 && !ok && use_ptc && !StopRequested(p); ++k) {
    PetscCall(PseudoTransient(p, start, ramp_first ? 1 - k : k, rep, &ok));
    rep->strategy = PL_STATIC_PTC;
    PetscCall(RejectUnphysical(p, rep, "pseudo-transient continuation", &ok, &bad));
  }
  rep->unphysical = bad;
  rep->converged = ok;
  rep->interrupted = StopRequested(p) ? 1 : 0;
  if (!ok) {
    int slides = 0;
    char what[640];
    if (!rep->interrupted) PetscCall(Sliding(p, &slides, what, sizeof what));
    if (rep->interrupted) Note(rep, "interrupted by a signal; the last state reached is written.");
    else if (slides) Note(rep, "No static equilibrium: %s.", what);
    else {
      char advice[512];
      Note(rep, "No strategy converged to a physical equilibrium. Suggestion: %s; -snes_monitor shows every "
           "iteration.", Suggestion(p, rep, use_ptc && rep->ptc_steps > 0, advice, sizeof advice));
    }
  }
  p->lambda = ok ? 1.0 : rep->lambda;
  PetscCall(VecDestroy(&start));
  PetscCall(PetscTime(&t1));
  rep->wall_time_s = t1 - t0;
  PetscFunctionReturn(0);
}

void PlProblemEndTarget(PlProblem p, int end, const double x[3], const double *R, const double *un, double *target)
{
  const int node = end ? p->mesh.nnodes - 1 : 0, np = p->nd - 3;
  for (int c = 0; c < 3; ++c) target[c] = x[c];
  if (R) {
    double qpres[4], q0c[4], qrel[4];
    const double *q0 = p->mesh.q0 + 4 * node;
    PlQuatFromMatrix(R, qpres);
    q0c[0] = q0[0];
    for (int i = 1; i < 4; ++i) q0c[i] = -q0[i];
    PlQuatMul(q0c, qpres, qrel);
    PlParamFromQuaternionNear(p->kind, qrel, un + 3, target + 3); /* the hemisphere of the current parameters */
  } else
    for (int c = 0; c < np; ++c) target[3 + c] = un[3 + c];
}

/* The continuation of a move of held ends: bc_start and bc_target of the moving ends' nodes
 * are set (every other held DOF has start = target); the holds follow hold_factor mu from 0
 * to 1 at full load in increments halved on failure (max_cutbacks in a row). On return every
 * moving end's hold is where it got to (start = target there), hold_factor is off again and
 * rep says how far (lambda) and, on failure, why in `what`'s words. grow: the increment doubles
 * after each success (else it stays as halved), and the move gives up after 40 Newton solves. */
static PetscErrorCode MoveHolds(PlProblem p, const int moving[2], int grow, const char *what, PlStaticReport *rep)
{
  const int nd = p->nd;
  Vec last;
  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(p->u, &last));
  PetscCall(VecCopy(p->u, last));
  p->lambda = 1.0;
  p->ptc_shift = 0.0;
  double mu = 0.0, dmu = 1.0;
  int cuts = 0;
  while (mu < 1.0) {
    const double to = fmin(1.0, mu + dmu);
    p->hold_factor = to;
    SNESConvergedReason reason;
    PetscInt its;
    PetscCall(NewtonSolve(p, rep, &reason, &its));
    if (reason > 0) {
      mu = to;
      rep->load_steps++;
      cuts = 0;
      if (grow) dmu = fmin(1.0, 2.0 * dmu);
      PetscCall(VecCopy(p->u, last));
      if (grow && mu < 1.0 && rep->load_steps + rep->cutbacks >= 40) {
        snprintf(rep->failure, sizeof rep->failure, "%s: stopped at %.3g of it after 40 Newton solves", what, mu);
        break;
      }
      continue;
    }
    PetscCall(VecCopy(last, p->u));
    rep->cutbacks++;
    if (++cuts > p->model.analysis.max_cutbacks || (grow && rep->load_steps + rep->cutbacks >= 40)) {
      snprintf(rep->failure, sizeof rep->failure, "%s: Newton failed (%s) after %d halvings of the move, at %.3g of it",
               what, ReasonText(reason), cuts - 1, mu);
      break;
    }
    dmu *= 0.5;
  }
  /* the ends' holds are now where they got to */
  for (int e = 0; e < 2; ++e) {
    if (!moving[e]) continue;
    const int node = e ? p->mesh.nnodes - 1 : 0;
    double *start = p->bc_start + (size_t)node * nd, *target = p->bc_target + (size_t)node * nd;
    for (int c = 0; c < nd; ++c) {
      target[c] = start[c] + mu * (target[c] - start[c]);
      start[c] = target[c];
    }
  }
  p->hold_factor = -1.0;
  rep->lambda = mu;
  rep->converged = mu >= 1.0 ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(VecDestroy(&last));
  PetscFunctionReturn(0);
}

PetscErrorCode PlStaticMoveEnd(PlProblem p, int end, const double x[3], const double *R, PlStaticReport *rep)
{
  const int nd = p->nd, node = end ? p->mesh.nnodes - 1 : 0, moving[2] = {end == 0, end != 0};
  double *u, *start = p->bc_start + (size_t)node * nd, *target = p->bc_target + (size_t)node * nd;
  char what[160];
  PetscFunctionBeginUser;
  memset(rep, 0, sizeof *rep);
  if (!p->snes) PetscCall(SetUpSNES(p));
  PetscCall(PlGatherUnknowns(p, &u));
  const double *un = u + (size_t)node * nd;
  /* the move starts where the end is and ends at (x, R) */
  for (int c = 0; c < nd; ++c) start[c] = un[c];
  PlProblemEndTarget(p, end, x, R, un, target);
  free(u);
  snprintf(what, sizeof what, "moving the %s end to (%.6g, %.6g, %.6g) m", end ? "top" : "bottom", x[0], x[1], x[2]);
  PetscCall(MoveHolds(p, moving, 0, what, rep));
  PetscFunctionReturn(0);
}

PetscErrorCode PlStaticMoveEnds(PlProblem p, const double *const x[2], PlStaticReport *rep)
{
  const int nd = p->nd, moving[2] = {x[0] != NULL, x[1] != NULL};
  double *u;
  char what[256];
  int n = 0;
  PetscFunctionBeginUser;
  memset(rep, 0, sizeof *rep);
  if (!p->snes) PetscCall(SetUpSNES(p));
  PetscCall(PlGatherUnknowns(p, &u));
  n = snprintf(what, sizeof what, "moving");
  for (int e = 0; e < 2; ++e) {
    if (!moving[e]) continue;
    const int node = e ? p->mesh.nnodes - 1 : 0;
    const double *un = u + (size_t)node * nd;
    double *start = p->bc_start + (size_t)node * nd, *target = p->bc_target + (size_t)node * nd;
    for (int c = 0; c < nd; ++c) start[c] = un[c];
    PlProblemEndTarget(p, e, x[e], NULL, un, target);
    n += snprintf(what + n, sizeof what - (size_t)n, "%s the %s end from (%.6g, %.6g, %.6g) to (%.6g, %.6g, %.6g) m",
                  moving[0] && e ? " and" : "", e ? "top" : "bottom", un[0], un[1], un[2], x[e][0], x[e][1], x[e][2]);
  }
  free(u);
  PetscCall(MoveHolds(p, moving, 1, what, rep));
  PetscFunctionReturn(0);
}

PetscErrorCode PlProblemEnsureSNES(PlProblem p)
{
  PetscFunctionBeginUser;
  if (!p->snes) PetscCall(SetUpSNES(p));
  PetscFunctionReturn(0);
}

void PlProblemSetStopFlag(PlProblem p, volatile sig_atomic_t *stop) { p->stop = stop; }
void PlProblemSetQuiet(PlProblem p, int quiet) { p->quiet = quiet; }
