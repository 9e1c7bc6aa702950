/*
 * static_target.c - the static equilibrium of a one-line model whose top end is given by what
 * an installation engineer sets on the vessel: the top (tensioner) tension or the hang-off
 * (tower) angle (ends.top.target), not the force at the top.
 *
 * The top end's force keeps its given direction u and its magnitude F is the unknown:
 * g(F) = q(F) - q*, q the top tension |f_top| (the magnitude of the line's force on its top
 * end, summary.json's top_tension_N) or the hang-off angle theta (the top tangent from the
 * horizontal), each measured on the converged equilibrium exactly as the summary reports it.
 * Each evaluation is a static solve (PlStaticSolve) from the last equilibrium, so the solves
 * after the first are a few Newton iterations each.
 *
 * The root is found by the secant method. Its first step uses the natural catenary: a line
 * hanging over a height h with submerged weight w has T_top = H + w h, so dT/dH = 1 for the
 * tension, and theta falls as H grows (tan theta = V / H), for which the first step is a 1 %
 * probe in the direction that lowers g. A step to F <= 0 is cut to half the last F (the pull
 * keeps its sign); a tension still above the target as F falls below 1e-6 of its start is out
 * of reach (the suspended weight holds more at the top). The iteration stops when |g| <= 1e-10 |q*| (the static solve's own
 * tolerance is 1e-10 of the residual's scale), or when the step has fallen below 1e-13 F (the
 * round-off floor of q), and fails after 40 solves or when a solve fails, saying which.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "solver_impl.h"

#define TARGET_MAX_SOLVES 40

/* q at the current equilibrium: the top tension [N] or the hang-off angle [rad] (rank 0's,
 * on every rank). */
static PetscErrorCode Measure(PlProblem p, PlEndTargetKind kind, double *q)
{
  PlStation *nodes, *els;
  int nn, ne;
  PlStaticSummary sum;
  PetscFunctionBeginUser;
  PetscCall(PlProblemStations(p, &nodes, &nn, &els, &ne));
  PetscCall(PlStaticSummarize(p, nodes, nn, els, ne, &sum));
  free(nodes);
  free(els);
  *q = kind == PL_TARGET_TENSION ? sum.top_tension_N : sum.hang_off_angle_deg * M_PI / 180.0;
  PetscCallMPI(MPI_Bcast(q, 1, MPI_DOUBLE, 0, p->comm));
  PetscFunctionReturn(0);
}

/* The top force's magnitude set to F along its direction u. */
static void SetForce(PlProblem p, const double u[3], double F)
{
  for (int c = 0; c < 3; ++c) p->model.ends[1].force[c] = F * u[c];
}

PetscErrorCode PlStaticTargetSolve(PlProblem p, PlStaticReport *rep)
{
  PlEnd *E = &p->model.ends[1];
  PetscFunctionBeginUser;
  PetscCall(PlStaticSolve(p, rep));
  if (E->target == PL_TARGET_NONE) PetscFunctionReturn(0);
  const int tension = E->target == PL_TARGET_TENSION;
  const double goal = E->target_value, tol = 1e-10 * fabs(goal);
  const double F0 = sqrt(E->force[0] * E->force[0] + E->force[1] * E->force[1] + E->force[2] * E->force[2]);
  const double u[3] = {E->force[0] / F0, E->force[1] / F0, E->force[2] / F0};
  const char *what = tension ? "top tension" : "hang-off angle";
  const double shown = tension ? 1e-3 : 180.0 / M_PI; /* kN, deg */
  const char *unit = tension ? "kN" : "deg";
  int newton = rep->newton_iterations, solves = 1;
  double wall = rep->wall_time_s, F = F0, Fp = F0, q, gp = NAN;
  char why[600] = "";
  while (rep->converged) {
    PetscCall(Measure(p, E->target, &q));
    const double g = q - goal;
    if (fabs(g) <= tol || (solves > 1 && fabs(F - Fp) <= 1e-13 * F)) break;
    if (g > 0.0 && F < 1e-6 * F0) { /* q falls with F: the target lies beyond F = 0 */
      snprintf(why, sizeof why, "with the top force down to %.3g kN the %s is still %.9g %s, above the %.9g %s asked: "
               "the line's suspended weight alone holds more than that at the top", F / 1e3, what, q * shown, unit,
               goal * shown, unit);
      break;
    }
    if (solves >= TARGET_MAX_SOLVES) {
      snprintf(why, sizeof why, "after %d static solves the top force %.9g kN gives a %s of %.9g %s against the %.9g %s "
               "asked", solves, F / 1e3, what, q * shown, unit, goal * shown, unit);
      break;
    }
    double Fn;
    if (solves == 1) Fn = tension ? F - g : F * (g > 0.0 ? 1.01 : 0.99);
    else Fn = F - g * (F - Fp) / (g - gp);
    if (!(Fn > 0.0) || !isfinite(Fn)) Fn = 0.5 * F;
    Fp = F, gp = g, F = Fn;
    SetForce(p, u, F);
    PetscCall(PlStaticSolve(p, rep));
    newton += rep->newton_iterations;
    wall += rep->wall_time_s;
    ++solves;
    if (!rep->converged)
      snprintf(why, sizeof why, "the static solve with the top force scaled to %.9g kN (solve %d) did not converge",
               F / 1e3, solves);
  }
  rep->newton_iterations = newton;
  rep->wall_time_s = wall;
  rep->target_solves = solves;
  for (int c = 0; c < 3; ++c) rep->target_force_N[c] = E->force[c];
  if (why[0]) {
    rep->converged = PETSC_FALSE;
    char head[PL_FAILURE_QUOTE];
    snprintf(head, sizeof head, "ends.top.target: the %s of %.9g %s was not reached: %s (a %s out of reach, or give "
             "ends.top.force nearer the answer as the start).\n", what, goal * shown, unit, why, what);
    const size_t hl = strlen(head), fl = strlen(rep->failure);
    if (hl + fl + 1 <= sizeof rep->failure) {
      memmove(rep->failure + hl, rep->failure, fl + 1);
      memcpy(rep->failure, head, hl);
    }
  }
  PetscFunctionReturn(0);
}
