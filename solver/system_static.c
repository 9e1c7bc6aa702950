/*
 * system_static.c - the static equilibrium of a system of lines, points and bodies in one
 * Newton over everything (docs/design-system-core.md §5.3): the dynamic residual
 * at rest, F(t0, y, y' = 0) = 0, over all unknowns of system_dynamic.c at once. Its rows at
 * rest are the kinematics (v = 0, w = 0, the quaternions' unit norm), the constraints of the
 * held and attached ends, and the force and moment balance of every node, free point and body
 * with the line-end loads of §2.1: no nested solve, no finite differences. Every body DOF is
 * free unless the caller holds it (PlSysStaticHold: its momentum row replaced by
 * eta_i - eta_i0 = 0, the load left there reported): the lines restore what the body's own
 * restoring does not (a moored platform's surge); a DOF nothing restores (a vessel's surge
 * without DP, which its pipe pulls along) has no equilibrium and is held.
 *
 * The time of the residual is the lines' static time (the current settled after its ramp in a
 * static analysis, t = 0 before a dynamic one: solver/assembly.c).
 *
 * Method (SolveAtRest): Newton's method with full steps on the exact tangent, then, when it
 * fails, pseudo-transient continuation with the one-line statics' rules (solver/static.c):
 * each step solves
 *     (dF/dy + sigma dF/dy') dy = -F(t0, y, 0),
 * the iteration matrix of a backward Euler step of 1/sigma seconds (sigma = c) from rest, and
 * then sets every velocity back to zero. With v = 0 the kinematic rows give dv = sigma dx, so
 * the positions take the step (K + sigma^2 M) dx = -R: first-order pseudo-dynamics with the
 * mass M as D and shift = sigma^2, which damps what a second-order pseudo-time would let
 * swing; Newton ends it. The rules are derived at SolveAtRest.
 * Converged when every force and moment row is within tol (1e-9) of the force scale (the
 * lines' and points' weights and the largest end tension) and every kinematic or constraint
 * row within 1e-10 (m/s, m, or -), or at the round-off floor (StepAtRoundoff, Resolution).
 * The start is the substructured equilibrium of solver/lines.c (each line at its ends) or, for
 * a line from its own start shape (PlSysStaticHoldTargets), the catenary or straight guess; it
 * is kept if this solve fails. On success the lines' static problems, the report and the
 * dynamic start take its state. From the substructured equilibrium it confirms it (Newton's
 * first step at the round-off floor) or refines it in the whole system's residual. A line end
 * fixed to a body (ends.*.connection: fixed) is a hinge in solver/lines.c; here its frame is
 * clamped (the constraint rows of system_dynamic.c), so this solve takes the hinge equilibrium
 * to the fixed one (the dp_sec44 J-lay clamped at 73 deg, tests/check_fixed_hangoff.py) and a
 * model with a fixed end has no equilibrium unless this solve converges (app/pipelay.c).
 * From the model's own start it converges on every model of the static robustness suite
 * (tests/test_system_static.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "system_impl.h"

/* The largest scaled force row and the largest kinematic row of F. */
static void Measure(const PlSysDyn s, const double *F, double fscale, double *force, double *kin)
{
  *force = *kin = 0.0;
  for (int i = 0; i < s->n; ++i) {
    if (!isfinite(F[i])) {
      *force = *kin = INFINITY;
      return;
    }
    if (s->rowforce[i]) *force = fmax(*force, fabs(F[i]) / fscale);
    else *kin = fmax(*kin, fabs(F[i]));
  }
}

/* The force scale: the weights of the lines and free points, the largest end tension. */
static double ForceScale(const PlSysDyn s, const PlLinesReport *rep)
{
  const PlModel *m = s->m;
  double f = 0.0;
  for (int l = 0; l < s->nl; ++l) {
    const PlProblem p = s->d[l]->sp;
    for (int e = 0; e < p->mesh.nelements; ++e) f += fabs(p->w[e]) * p->elements[e].L;
    for (int k = 0; k < 2; ++k) f = fmax(f, rep->end_tension[l][k]);
  }
  for (int k = 0; k < m->npoints; ++k)
    f += fabs((m->points[k].mass - m->water_density * m->points[k].volume) * m->gravity);
  return f > 0.0 ? f : 1.0;
}

/* Sets every velocity unknown (the nodes' v and w, the points' v, the bodies' nu) to zero. */
static void AtRest(const PlSysDyn s, double *y)
{
  for (int l = 0; l < s->nl; ++l)
    for (int i = 0; i < s->d[l]->sp->mesh.nnodes; ++i)
      for (int r = s->iV; r < s->ndd; ++r) y[s->loff[l] + i * s->ndd + r] = 0.0;
  for (int k = 0; k < s->m->npoints; ++k)
    if (s->poff[k] >= 0)
      for (int c = 3; c < 6; ++c) y[s->poff[k] + c] = 0.0;
  for (int b = 0; b < s->m->nbodies; ++b)
    for (int r = PL_VESSEL_V; r < PL_VESSEL_NY; ++r) y[s->moff + PL_VESSEL_NY * b + r] = 0.0;
}

/* Solves A x = b with KLU on the assembled pattern (x overwrites b). 0, or 1 singular. The
 * whole matrix, not IDA's condensed one: the statics of bodies on joints with DOFs that
 * nothing restores iterate near singular matrices, and the OC3 turbine's (examples/
 * oc3_hywind.yaml) converged in 175 steps with it but not in 500 with the condensed
 * solver, whose solutions differ from it only at rounding level (1e-13 of the right side);
 * the statics take a few dozen solves, so nothing is lost. */
static int Solve(PlSysDyn s, double *b)
{
  if (!s->LSs && !(s->LSs = SUNLinSol_KLU(s->y, s->A, s->ctx))) return 1;
  N_Vector x = N_VClone(s->y), r = N_VClone(s->y);
  if (!x || !r) {
    if (x) N_VDestroy(x);
    if (r) N_VDestroy(r);
    return 1;
  }
  memcpy(N_VGetArrayPointer(r), b, sizeof(double) * (size_t)s->n);
  int rc = SUNLinSolSetup(s->LSs, s->A) != SUNLS_SUCCESS;
  if (rc) { /* KLU refactors with its first factorisation's pivots, which a matrix far from that
               one (a large shift, a diverged Newton iterate) can make zero: pivot anew */
    SUNLinSolFree(s->LSs);
    rc = !(s->LSs = SUNLinSol_KLU(s->y, s->A, s->ctx)) || SUNLinSolSetup(s->LSs, s->A) != SUNLS_SUCCESS;
  }
  if (!rc) rc = SUNLinSolSolve(s->LSs, s->A, x, r, 0.0) != SUNLS_SUCCESS;
  if (!rc) memcpy(b, N_VGetArrayPointer(x), sizeof(double) * (size_t)s->n);
  N_VDestroy(x);
  N_VDestroy(r);
  return rc;
}

/* The held DOFs' rows (PlSysStaticHold): body b's momentum row i becomes
 *     eta_i(y) - hold_eta_i = 0        (rotations to within 2 pi),
 * its matrix row d eta_i / dy_b (PlVesselEta's exact derivative; the bodies' block is dense in
 * the pattern). The load the row held before is kept in held_load. */
static void SetEntry(PlSysDyn s, int row, int col, double v)
{
  for (sunindextype k = s->colptr[col]; k < s->colptr[col + 1]; ++k)
    if (s->rowind[k] == row) {
      s->val[k] = v;
      return;
    }
  s->domain_error = 3; /* not in the pattern */
}

static int HeldRow(const PlSysDyn s, int b, int i) { return s->moff + PL_VESSEL_NY * b + PL_VESSEL_V + i; }

static void ZeroRow(PlSysDyn s, int row)
{
  for (sunindextype k = 0; k < s->nnz; ++k)
    if (s->rowind[k] == row) s->val[k] = 0.0;
}

static void ApplyHolds(PlSysDyn s, const double *y, double *F, int wantJ)
{
  /* a DP integral state without integral action (Ki_i = 0 or DOF i not actuated) has the row
   * z_i' = 0, nothing at rest: it is held at 0 (z_i = 0), else the matrix is singular */
  for (int b = 0; b < s->m->nbodies; ++b) {
    const int z = s->zoff[b];
    if (z < 0) continue;
    for (int i = 0; i < 6; ++i) {
      if (s->dp_on[b].actuated[i] && s->dp_on[b].Ki[i] != 0.0) continue;
      if (F) F[z + i] = y[z + i];
      if (!wantJ || !s->val) continue;
      ZeroRow(s, z + i);
      SetEntry(s, z + i, z + i, 1.0);
    }
  }
  for (int b = 0; b < s->m->nbodies; ++b) {
    int any = 0;
    for (int i = 0; i < 6; ++i) any |= s->hold[b][i];
    if (!any) continue;
    const int bo = s->moff + PL_VESSEL_NY * b;
    double eta[6], deta[6 * PL_VESSEL_NY];
    PlVesselEta(y + bo, eta, deta);
    for (int i = 0; i < 6; ++i) {
      if (!s->hold[b][i]) continue;
      const int row = HeldRow(s, b, i);
      if (F) {
        const double d = eta[i] - s->hold_eta[b][i];
        s->held_load[b][i] = F[row];
        F[row] = i < 3 ? d : remainder(d, 2.0 * M_PI);
      }
      if (!wantJ || !s->val) continue;
      ZeroRow(s, row);
      for (int j = 0; j < PL_VESSEL_NY; ++j) SetEntry(s, row, bo + j, deta[i * PL_VESSEL_NY + j]);
    }
  }
}

void PlSysStaticHold(PlSysDyn s, int b, const int held[6])
{
  double eta[6];
  PlVesselEta(N_VGetArrayPointer(s->y) + s->moff + PL_VESSEL_NY * b, eta, NULL);
  for (int i = 0; i < 6; ++i) {
    s->hold[b][i] = held[i] != 0;
    s->hold_eta[b][i] = eta[i];
    s->held_load[b][i] = 0.0;
  }
}

void PlSysStaticHoldTargets(PlSysDyn s)
{
  for (int l = 0; l < s->nl; ++l) {
    const PlDynLine d = s->d[l];
    const PlProblem p = d->sp;
    for (int k = 0; k < 2; ++k) {
      PlDynEnd *D = &d->ends[k];
      const char *mask = p->bc_mask + (size_t)D->node * p->nd;
      const double *target = p->bc_target + (size_t)D->node * p->nd;
      for (int c = 0; c < 3; ++c)
        if (D->tr[c] && mask[c]) D->xs[c] = target[c];
      if (!D->rot) continue;
      for (int i = 0; i < d->np; ++i)
        if (mask[3 + i]) D->ps[i] = target[3 + i];
      PlParamToQuaternion(d->kind, D->ps, D->qs);
    }
  }
}

/* The residual at rest (and the matrix with wantJ) with the held rows. */
static int EvalAtRest(PlSysDyn s, const double *y, const double *zero, double sigma, double *F, int wantJ)
{
  const int rc = PlSysDynEval(s, s->d[0]->sp->current_time, y, zero, sigma, F, wantJ);
  ApplyHolds(s, y, F ? F : s->Fwork, wantJ);
  return rc ? rc : s->domain_error == 3 ? 3 : 0;
}

static int SolveAtRest(PlSysDyn s, const PlLinesReport *start, PlSysStaticReport *rep);

int PlSysStaticResidual(PlSysDyn s, const double *y, double *F)
{
  double *zero = calloc((size_t)s->n, sizeof(double));
  if (!zero) return 2;
  s->statics = 1;
  const int rc = EvalAtRest(s, y, zero, 0.0, F, 0);
  s->statics = 0;
  free(zero);
  return rc;
}

int PlSysStaticMatrixDense(PlSysDyn s, const double *y, double *J)
{
  double *zero = calloc((size_t)s->n, sizeof(double)), *v = malloc(sizeof(double) * (size_t)s->nnz);
  if (!zero || !v) {
    free(zero), free(v);
    return 2;
  }
  double *keep = s->val;
  s->val = v;
  s->statics = 1;
  const int rc = EvalAtRest(s, y, zero, 0.0, NULL, 1);
  s->statics = 0;
  s->val = keep;
  PlSysDynDense(s, v, J);
  free(zero), free(v);
  return rc;
}

/* At rest every DP controller acts from the start (its steady state: the integral states carry
 * the mean loads), as in the one-line statics (vessel_static.c). */
int PlSysStaticSolve(PlSysDyn s, const PlLinesReport *start, PlSysStaticReport *rep)
{
  s->statics = 1;
  for (int b = 0; b < s->m->nbodies; ++b) /* a held row is a kinematic one */
    for (int i = 0; i < 6; ++i)
      if (s->hold[b][i]) s->rowforce[HeldRow(s, b, i)] = 0;
  const int rc = SolveAtRest(s, start, rep);
  for (int b = 0; b < s->m->nbodies; ++b)
    for (int i = 0; i < 6; ++i) s->rowforce[HeldRow(s, b, i)] = 1;
  s->statics = 0;
  return rc;
}

/* The joints' reactions at the start. solver/lines.c holds bodies in joints whole at their
 * poses and leaves the multipliers zero; from lambda = 0 Newton's first step is blind to the
 * reactions turning with the bodies (the geometric stiffness of G(q)^T lambda) and overshoots:
 * OC3's nacelle and rotor, 3.4 MN on a 167 m tower (examples/oc3_hywind.yaml), took the first
 * step 18 m and 5.6 deg away and the pseudo-transient steps never came back in 500. So the
 * multipliers start (once a Newton step from the given start has failed: Newton's own
 * multipliers balance the loads of kinematic rows it satisfies, as a line end's frame clamped
 * to a body, tests/check_fixed_hangoff.py) at the least-squares balance of the bodies' force and moment rows,
 * min |F_b + B lambda| with B = dF_b/dlambda (the bodies' block of the matrix): the joints then
 * carry what they carry at the start, and what no reaction can balance (the whole assembly's
 * net load) is left to Newton. Rows of held DOFs are left out. Every rank alike. The same
 * projection follows every pseudo-transient step (sigma > 0; a Newton step keeps its own
 * multipliers): with a large pseudo-mass the positions barely move
 * but the multipliers take the inertial split of the net load (what accelerations would
 * share), which the static residual counts as imbalance; with the OC3 turbine under 800 kN of
 * thrust every step was rejected up to sigma = 1e8 (41 against 0.18 of the force scale) and
 * with the projection it converges (101 steps, 4 rejected). */
static void StartMultipliers(PlSysDyn s, double *y, const double *zero)
{
  const int nb = s->m->nbodies, nv = PL_VESSEL_NY, nmb = s->nmb, mo = s->moff;
  if (!s->mb.njoints || nmb <= nv * nb) return;
  int nl = 0;
  for (int j = 0; j < s->mb.njoints; ++j) nl += PlJointRowCount(s->jt[j].joint.kind);
  double *F = malloc(sizeof(double) * (size_t)s->n), *A = calloc((size_t)nl * nl, sizeof(double)),
         *b = calloc((size_t)nl, sizeof(double));
  int *col = malloc(sizeof(int) * (size_t)nl);
  double *keep = s->val;
  s->val = NULL;
  if (F && A && b && col && EvalAtRest(s, y, zero, 0.0, F, 1) < 2) {
    for (int j = 0, off = nv * nb, k = 0; j < s->mb.njoints; ++j) {
      const int mj = PlJointRowCount(s->jt[j].joint.kind);
      for (int r = 0; r < mj; ++r) col[k++] = off + r;
      off += 2 * mj;
    }
    for (int bb = 0; bb < nb; ++bb)
      for (int i = 0; i < 6; ++i) {
        if (s->hold[bb][i]) continue;
        const int row = nv * bb + PL_VESSEL_V + i;
        const double *Jr = s->Jmb + (size_t)row * nmb;
        for (int p = 0; p < nl; ++p) {
          b[p] -= Jr[col[p]] * F[mo + row];
          for (int q = 0; q < nl; ++q) A[(size_t)p * nl + q] += Jr[col[p]] * Jr[col[q]];
        }
      }
    if (!PlDenseSolveInPlace(nl, A, b))
      for (int p = 0; p < nl; ++p) y[mo + col[p]] += b[p];
  }
  s->val = keep;
  free(F), free(A), free(b), free(col);
}

/* The largest displacement of a Newton step at which the state is as exact as double
 * precision represents it: the resolution of the residual (as solver/static.c). The unknowns
 * are doubles, so an iterate is off the exact equilibrium by up to ulp(x_j) in each position
 * (a node's absolute coordinate xs + u, which the residual computes: 1.1e-13 m at 1000 m
 * from the origin) and its force rows by ||A e_j|| ulp(x_j) per unknown, in quadrature
 *     r_res = sqrt( sum_j ( ||A_force e_j||_2 ulp(|x_j|) )^2 )   [N],
 * A the matrix last assembled (its columns' norms change little in a step). A stiff line in
 * absolute coordinates cannot get below it: EA = 1e12 N on 1 m elements turns ulp 1.1e-13 m
 * into 0.1 N per node, above 1e-9 of a light line's weight. */
static double Resolution(const PlSysDyn s, const double *y)
{
  double *a = malloc(sizeof(double) * (size_t)s->n), sum = 0.0;
  if (!a) return 0.0;
  for (int j = 0; j < s->n; ++j) a[j] = fabs(y[j]);
  for (int l = 0; l < s->nl; ++l)
    for (int i = 0; i < s->d[l]->sp->mesh.nnodes; ++i)
      for (int c = 0; c < 3; ++c) a[s->loff[l] + (size_t)i * s->ndd + c] = fabs(s->d[l]->xs[3 * i + c] + y[s->loff[l] + (size_t)i * s->ndd + c]);
  for (int k = 0; k < s->m->npoints; ++k)
    for (int c = 0; c < 3 && s->poff[k] >= 0; ++c) a[s->poff[k] + c] = fabs(s->pxs[k][c] + y[s->poff[k] + c]);
  for (int j = 0; j < s->n; ++j) {
    double cn = 0.0;
    for (sunindextype k = s->colptr[j]; k < s->colptr[j + 1]; ++k)
      if (s->rowforce[s->rowind[k]]) cn += s->val[k] * s->val[k];
    const double r = sqrt(cn) * (nextafter(a[j], INFINITY) - a[j]);
    sum += r * r;
  }
  free(a);
  return sqrt(sum);
}

/* The 2-norm of the force and moment rows [N] (the pseudo-transient steps' measure, as the
 * one-line statics'). */
static double ForceNorm(const PlSysDyn s, const double *F)
{
  double f = 0.0;
  for (int i = 0; i < s->n; ++i)
    if (s->rowforce[i]) f += F[i] * F[i];
  return sqrt(f);
}

/* Work space and measures of one solve. */
typedef struct {
  double *zero, *yt, *F, *Ft, *dy;
  double fscale, tol, ktol;
  int newton_iterations;
} Solve_;

/* Converged: every force row within tol of the force scale and every kinematic row within ktol,
 * or, after a Newton step (matrix A at the state before it), the force rows within the
 * resolution of the unknowns and the kinematic rows within 1e-8. */
static int Converged(const PlSysDyn s, Solve_ *w, const double *y, const double *F, int after_newton)
{
  double fr, kr;
  Measure(s, F, w->fscale, &fr, &kr);
  if (fr <= w->tol && kr <= w->ktol) return 1;
  return after_newton && kr <= 1e-8 && ForceNorm(s, F) <= Resolution(s, y);
}

/* A Newton step dy at the round-off floor: it moves no node, point or body (rotations times the
 * lines' length) by more than 1e-12 of the lines' length while the force rows are within 1e-8
 * of the force scale and the kinematic rows within 1e-8; the state is then taken as it is (the
 * one-line statics stop on the step size likewise). */
static int StepAtRoundoff(const PlSysDyn s, const double *dy, const double *F, const Solve_ *w)
{
  double fr, kr;
  Measure(s, F, w->fscale, &fr, &kr);
  if (!(fr <= 1e-8 && kr <= 1e-8) || s->nl == 0) return 0;
  double dmax = 0.0, xs = 1.0;
  for (int l = 0; l < s->nl; ++l) {
    const PlProblem p = s->d[l]->sp;
    xs = fmax(xs, p->model.length);
    for (int i = 0; i < p->mesh.nnodes; ++i)
      for (int c = 0; c < 3; ++c) dmax = fmax(dmax, fabs(dy[s->loff[l] + (size_t)i * s->ndd + c]));
  }
  for (int k = 0; k < s->m->npoints; ++k)
    for (int c = 0; c < 3 && s->poff[k] >= 0; ++c) dmax = fmax(dmax, fabs(dy[s->poff[k] + c]));
  for (int b = 0; b < s->m->nbodies; ++b)
    for (int c = 0; c < PL_VESSEL_V; ++c) dmax = fmax(dmax, fabs(dy[s->moff + PL_VESSEL_NY * b + c]) * (c < 3 ? 1.0 : xs));
  return dmax <= 1e-12 * xs;
}

/* Newton's method with full steps from y (sigma = 0, the exact tangent), at most 50
 * iterations. Converged: y and F take the state, 1. Otherwise (a singular matrix, a state
 * outside the rods' domain, the force residual grown 1e10-fold or the limit reached) y and F
 * are left as they were, 0. */
static int Newton(PlSysDyn s, Solve_ *w, double *y, double *F)
{
  const int n = s->n;
  memcpy(w->yt, y, sizeof(double) * (size_t)n);
  memcpy(w->Ft, F, sizeof(double) * (size_t)n);
  const double f0 = fmax(ForceNorm(s, F), w->tol * w->fscale);
  int ok = Converged(s, w, y, F, 0);
  for (int it = 0; !ok && it < 50; ++it) {
    s->val = SUNSparseMatrix_Data(s->A);
    if (EvalAtRest(s, w->yt, w->zero, 0.0, NULL, 1) >= 2) break;
    for (int i = 0; i < n; ++i) w->dy[i] = -w->Ft[i];
    if (Solve(s, w->dy)) break;
    ++w->newton_iterations;
    if (StepAtRoundoff(s, w->dy, w->Ft, w)) { /* the state as it is */
      ok = 1;
      break;
    }
    for (int i = 0; i < n; ++i) w->yt[i] += w->dy[i];
    AtRest(s, w->yt);
    if (EvalAtRest(s, w->yt, w->zero, 0.0, w->Ft, 0)) break;
    const double f = ForceNorm(s, w->Ft);
    if (!(f < 1e10 * f0)) break;
    ok = Converged(s, w, w->yt, w->Ft, 1);
  }
  if (ok) {
    memcpy(y, w->yt, sizeof(double) * (size_t)n);
    memcpy(F, w->Ft, sizeof(double) * (size_t)n);
  }
  return ok;
}

/* The held ends' translations from where the state has them (from) to their targets (to: the
 * ends' xs, PlSysStaticHoldTargets), per line and end: the largest distance [m]. */
static double HeldDistance(const PlSysDyn s, const double *y, double (*from)[2][3], double (*to)[2][3])
{
  double far = 0.0;
  for (int l = 0; l < s->nl; ++l)
    for (int k = 0; k < 2; ++k) {
      const PlDynEnd *D = &s->d[l]->ends[k];
      for (int c = 0; c < 3; ++c) {
        from[l][k][c] = s->d[l]->xs[3 * D->node + c] + y[s->loff[l] + (size_t)D->node * s->ndd + c];
        to[l][k][c] = D->xs[c];
        if (D->tr[c]) far = fmax(far, fabs(to[l][k][c] - from[l][k][c]));
      }
    }
  return far;
}

/* The held translations' distances from their holds as forces [N], in quadrature: each times
 * the axial stiffness EA/L of its end element (the one-line statics' scale of a hold's row), so
 * that a continuation step that moves the holds is measured by what the move asks of the line
 * (the constraint rows are kinematic and out of ForceNorm). */
static double HoldNorm(const PlSysDyn s, const double *y)
{
  double h = 0.0;
  for (int l = 0; l < s->nl; ++l) {
    const PlDynLine d = s->d[l];
    for (int k = 0; k < 2; ++k) {
      const PlDynEnd *D = &d->ends[k];
      for (int c = 0; c < 3; ++c) {
        if (!D->tr[c]) continue;
        const double dist = d->xs[3 * D->node + c] + y[s->loff[l] + (size_t)D->node * s->ndd + c] - D->xs[c];
        const double f = d->sp->bc_scale[(size_t)D->node * d->sp->nd + c] * dist;
        h += f * f;
      }
    }
  }
  return sqrt(h);
}

/* The load factor mu in [0, 1] of the continuation from a far start: the holds mu of the way
 * from `from` to `to`, the lines' submerged weights and dead end loads times mu (as the one-line
 * statics' lambda: a straight start, unloaded at mu = 0, is in equilibrium there). */
static void SetHolds(PlSysDyn s, double (*from)[2][3], double (*to)[2][3], double mu)
{
  for (int l = 0; l < s->nl; ++l) {
    const PlDynLine d = s->d[l];
    d->load_factor = fmin(mu, 1.0);
    for (int k = 0; k < 2; ++k) {
      PlDynEnd *D = &d->ends[k];
      const PlEnd *E = &d->sp->model.ends[k];
      for (int c = 0; c < 3; ++c) {
        if (D->tr[c]) D->xs[c] = mu >= 1.0 ? to[l][k][c] : from[l][k][c] + mu * (to[l][k][c] - from[l][k][c]);
        D->F[c] = mu >= 1.0 ? E->force[c] : mu * E->force[c];
        D->M[c] = mu >= 1.0 ? E->moment[c] : mu * E->moment[c];
      }
    }
  }
}

/* Newton's method at increasing load factors (SetHolds) from a far start, as the one-line
 * statics' load steps: the whole load at once first, a failed increment halved (at most 8
 * times in a row, 60 Newton solves in all), a converged one doubled; each increment starts
 * from the last converged state moved along the secant of the last two (the predictor that
 * lets a straight line sag as its top rises). 1 when the full load converged (y, F its state),
 * else 0 with y, F at the last converged increment. */
static int LoadSteps(PlSysDyn s, Solve_ *w, double *y, double *F, double (*from)[2][3], double (*to)[2][3])
{
  const int n = s->n;
  double *prev = malloc(sizeof(double) * (size_t)n), *last = malloc(sizeof(double) * (size_t)n);
  if (!prev || !last) {
    free(prev), free(last);
    return 0;
  }
  memcpy(prev, y, sizeof(double) * (size_t)n);
  double lam = 0.0, dlam = 1.0, dprev = 0.0;
  int cuts = 0, solves = 0;
  while (lam < 1.0 && cuts <= 8 && solves < 60) {
    const double to_lam = fmin(1.0, lam + dlam);
    memcpy(last, y, sizeof(double) * (size_t)n);
    if (dprev > 0.0) /* the secant predictor */
      for (int i = 0; i < n; ++i) y[i] += (to_lam - lam) / dprev * (y[i] - prev[i]);
    AtRest(s, y);
    SetHolds(s, from, to, to_lam);
    EvalAtRest(s, y, w->zero, 0.0, F, 0);
    ++solves;
    if (Newton(s, w, y, F) && !PlSysDynPlausible(s, 0.0, y, NULL, 0)) {
      memcpy(prev, last, sizeof(double) * (size_t)n);
      dprev = to_lam - lam;
      lam = to_lam;
      dlam = fmin(2.0 * dlam, 1.0);
      cuts = 0;
      continue;
    }
    memcpy(y, last, sizeof(double) * (size_t)n);
    dlam *= 0.5;
    ++cuts;
  }
  if (lam < 1.0) {
    SetHolds(s, from, to, lam);
    EvalAtRest(s, y, w->zero, 0.0, F, 0);
  }
  free(prev), free(last);
  return lam >= 1.0;
}

/* The equilibrium from the state y (docs/design-system-core.md §5.3): Newton first (the fast
 * path: a good start converges quadratically), then pseudo-transient continuation with the
 * one-line statics' rules (solver/static.c, Kelley & Keyes 1998), each step
 *     (dF/dy + sigma dF/dy') dy = -F(t0, y, 0),   then every velocity set back to zero,
 * which with v = 0 is (K + shift M) dx = -R, shift = sigma^2 [1/s^2], M the lines' lumped
 * masses (their rotations a pseudo-inertia m L^2 in statics: PlDynNodeInertia), the points'
 * and bodies' masses. The first shift is the Jacobi estimate that moves no free node more
 * than a tenth of the mean element length, |R_i| / (shift m_i) <= L/10. A step is rejected
 * (and the shift raised tenfold) when it meets a singular matrix, leaves the rods' domain,
 * takes an element's |strain| beyond 5 % (or beyond the accepted state's, when that is
 * already beyond: the path may pass through what the equilibrium may not, as static.c's; a
 * node pressed into the seabed on the way is not checked, the contact pushes it out), or raises the
 * residual's 2-norm a hundredfold or, from a state at full load, to thirty times the best at
 * full load (while the holds and loads are ramped, tenfold: the best so far is then the
 * unloaded start's, zero, against which the step onto the full load would always fail and
 * the ramp would creep towards it by ever smaller increments); an accepted step sets
 * shift *= |F_k+1| / max(|F_k|, |F_k-1|) within [1/10, 10] (switched evolution relaxation on
 * the larger of the last two residuals: a stiff axial component that the linearisation
 * leaves on every other step must not stall the relaxation; with the last residual alone a
 * lazy wave's shift oscillated with it and the residual crept by 1e-3 in 500 steps). Newton
 * ends it once the residual has fallen by 1e-3 or the shift by 1e-8 (it goes on from where
 * it was if Newton fails there). A state that meets the tolerances is the equilibrium only
 * within the plausible (PlSysDynPlausible: 5 % strain, a node deep in the seabed): one that is
 * not (the first Newton's, the end game's) is dropped and the continuation goes on. Bodies on joints: after each pseudo-transient step the
 * joints' multipliers are projected (StartMultipliers). */
static int SolveAtRest(PlSysDyn s, const PlLinesReport *start, PlSysStaticReport *rep)
{
  const int n = s->n, max_steps = 500;
  double *y = N_VGetArrayPointer(s->y);
  Solve_ w = {.zero = calloc((size_t)n, sizeof(double)), .yt = malloc(sizeof(double) * n),
              .F = malloc(sizeof(double) * n), .Ft = malloc(sizeof(double) * n), .dy = malloc(sizeof(double) * n),
              .tol = 1e-9, .ktol = 1e-10};
  double *y0 = malloc(sizeof(double) * n), *ykeep = malloc(sizeof(double) * n), *F = w.F;
  memset(rep, 0, sizeof *rep);
  w.fscale = rep->force_scale = ForceScale(s, start);
  if (!y0 || !ykeep || !w.zero || !w.yt || !w.F || !w.Ft || !w.dy) {
    snprintf(rep->failure, sizeof rep->failure, "out of memory");
    free(y0), free(ykeep), free(w.zero), free(w.yt), free(w.F), free(w.Ft), free(w.dy);
    return 1;
  }
  memcpy(y0, y, sizeof(double) * n);
  double fr, kr;
  const int bad = EvalAtRest(s, y, w.zero, 0.0, F, 0);
  Measure(s, F, w.fscale, &fr, &kr);
  rep->initial_residual = fr;
  /* a start whose held ends are more than two elements from their targets (a straight start
   * not turned onto them) has its holds moved there with the pseudo time, by at most half an
   * element length a step (growing 1.5-fold after an accepted step, halved after a rejected
   * one): the holds at once would tear or crush the elements next to them */
  double(*from)[2][3] = malloc(sizeof *from * (size_t)(s->nl ? s->nl : 1)),
  (*to)[2][3] = malloc(sizeof *to * (size_t)(s->nl ? s->nl : 1));
  double Lsum = 0.0;
  int ne = 0;
  for (int l = 0; l < s->nl; ++l)
    for (int e = 0; e < s->d[l]->sp->mesh.nelements; ++e, ++ne) Lsum += s->d[l]->sp->elements[e].L;
  const double Lm = ne ? Lsum / ne : 1.0, far = from && to ? HeldDistance(s, y, from, to) : 0.0;
  const int ramp = far > 2.0 * Lm;
  double mu = ramp ? 0.0 : 1.0, dmu_max = ramp ? fmin(1.0, 0.5 * Lm / far) : 1.0, dmu = fmin(1.0 / 16.0, dmu_max);
  if (ramp) {
    SetHolds(s, from, to, 0.0);
    EvalAtRest(s, y, w.zero, 0.0, F, 0);
  }
  char unphysical[512] = "";
  int ok = !bad && (ramp ? LoadSteps(s, &w, y, F, from, to) : Newton(s, &w, y, F)), steps = 0, rejected = 0;
  if (ok && PlSysDynPlausible(s, 0.0, y, unphysical, sizeof unphysical)) { /* not the equilibrium sought */
    ok = 0;
    memcpy(y, y0, sizeof(double) * n);
    EvalAtRest(s, y, w.zero, 0.0, F, 0);
  }
  if (ramp && !ok) { /* the continuation below starts again from the start, unloaded */
    memcpy(y, y0, sizeof(double) * n);
    SetHolds(s, from, to, 0.0);
    EvalAtRest(s, y, w.zero, 0.0, F, 0);
  }
  if (!ok && !bad) {
    if (s->mb.njoints) StartMultipliers(s, y, w.zero); /* the joints' reactions first */
    if (ramp) SetHolds(s, from, to, dmu); /* the first shift from the first increment's imbalance (the
                                             unloaded start has none) */
    EvalAtRest(s, y, w.zero, 0.0, F, 0);
    double ratio = 0.0;
    for (int l = 0; l < s->nl; ++l) {
      const PlDynLine d = s->d[l];
      for (int i = 0; i < d->sp->mesh.nnodes; ++i)
        for (int c = 0; c < 3; ++c) {
          const int row = s->loff[l] + i * s->ndd + s->iV + c;
          if (s->rowforce[row] && d->inertia[i].mass > 0.0) ratio = fmax(ratio, fabs(F[row]) / d->inertia[i].mass);
        }
    }
    const double shift0 = fmax(ratio / (0.1 * Lm), 1e-6);
    double shift = shift0, fn = ForceNorm(s, F), fn_start = fn, fn_prev = 0.0, fn_best = fn;
    double strain = PlSysDynMaxStrain(s, 0.0, y); /* the accepted state's largest |strain| */
    const int limit = ramp ? fmax(max_steps, 3.0 / dmu_max) : max_steps;
    while (steps < limit && !ok) {
      const double mu_try = fmin(1.0, mu + dmu);
      if (mu < 1.0) { /* the holds and loads of this step, and the residual there */
        SetHolds(s, from, to, mu_try);
        EvalAtRest(s, y, w.zero, 0.0, F, 0);
        fn = hypot(ForceNorm(s, F), HoldNorm(s, y));
      } else if (fn < 1e-3 * fn_start || shift < 1e-8 * shift0) { /* the end game */
        memcpy(ykeep, y, sizeof(double) * n);
        if ((ok = Newton(s, &w, y, F)) && PlSysDynPlausible(s, 0.0, y, unphysical, sizeof unphysical)) {
          ok = 0; /* a state that is not physical: the continuation goes on from before it */
          memcpy(y, ykeep, sizeof(double) * n);
          EvalAtRest(s, y, w.zero, 0.0, F, 0);
        }
        if (ok) break;
        fn_start = fn;
        shift = fmax(shift, 1e-6 * shift0);
      }
      ++steps;
      s->val = SUNSparseMatrix_Data(s->A);
      int tbad = EvalAtRest(s, y, w.zero, sqrt(shift), NULL, 1) >= 2;
      for (int i = 0; i < n; ++i) w.dy[i] = -F[i];
      tbad = tbad || Solve(s, w.dy);
      double fnt = INFINITY, strain_t = INFINITY;
      if (!tbad) {
        for (int i = 0; i < n; ++i) w.yt[i] = y[i] + w.dy[i];
        AtRest(s, w.yt);
        if (s->mb.njoints) StartMultipliers(s, w.yt, w.zero);
        tbad = EvalAtRest(s, w.yt, w.zero, 0.0, w.Ft, 0);
        if (!tbad) strain_t = PlSysDynMaxStrain(s, 0.0, w.yt);
        tbad = tbad || strain_t > fmax(0.05, strain);
        fnt = ForceNorm(s, w.Ft);
      }
      if (tbad || !(fnt <= (mu < 1.0 ? 10.0 : 100.0) * fn) || (mu >= 1.0 && !(fnt <= 30.0 * fn_best))) {
        ++rejected;
        shift *= 10.0;
        if (mu < 1.0) { /* the holds back where they were */
          dmu *= 0.5;
          SetHolds(s, from, to, mu);
          EvalAtRest(s, y, w.zero, 0.0, F, 0);
          fn = ForceNorm(s, F);
        }
        if (shift > 1e16 * shift0) break; /* no step is small enough */
        continue;
      }
      memcpy(y, w.yt, sizeof(double) * n);
      memcpy(F, w.Ft, sizeof(double) * n);
      strain = strain_t;
      shift *= fmin(10.0, fmax(0.1, fnt / fmax(fn, fn_prev)));
      fn_prev = fn;
      fn = fnt;
      if (mu < 1.0) {
        mu = mu_try;
        dmu = fmin(1.5 * dmu, dmu_max);
        if (mu >= 1.0) fn_start = fn_best = fn;
        continue;
      }
      fn_best = fmin(fn_best, fnt);
      ok = Converged(s, &w, y, F, 0) && !PlSysDynPlausible(s, 0.0, y, unphysical, sizeof unphysical);
    }
  }
  if (ramp && !ok) SetHolds(s, from, to, 1.0); /* the targets stay the holds */
  free(from), free(to);
  Measure(s, F, w.fscale, &fr, &kr);
  rep->iterations = w.newton_iterations + steps;
  rep->rejected = rejected;
  rep->residual = fr;
  rep->converged = ok;
  if (!ok) {
    snprintf(rep->failure, sizeof rep->failure,
             "the equilibrium of the whole system did not converge: Newton from the start, then %d pseudo-transient "
             "steps (%d rejected) and %d Newton iterations in all; largest force imbalance %.3g of the force scale "
             "%.4g N, largest kinematic row %.3g; a body or free point whose DOF nothing restores but a load pushes "
             "has no equilibrium (give it a spring, restoring or another line)%s%s",
             steps, rejected, w.newton_iterations, fr, w.fscale, kr,
             unphysical[0] ? "; a state that met the tolerances was not physical: " : "", unphysical);
    memcpy(y, y0, sizeof(double) * n); /* the start stays */
    EvalAtRest(s, y, w.zero, 0.0, F, 0);
  }
  free(y0), free(ykeep), free(w.zero), free(w.yt), free(w.F), free(w.Ft), free(w.dy);
  return 0;
}

/* Makes the current state the static one: the lines' static problems (each rank its own
 * nodes), the displacement origins re-based, and the report's points, bodies and end forces. */
PetscErrorCode PlSysStaticStore(PlSysDyn s, PlLinesReport *rep)
{
  const PlModel *m = s->m;
  double *y = N_VGetArrayPointer(s->y), *F = malloc(sizeof(double) * (size_t)s->n),
         *zero = calloc((size_t)s->n, sizeof(double));
  PetscFunctionBeginUser;
  PetscCheck(F && zero, PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory");
  s->statics = 1;
  EvalAtRest(s, y, zero, 0.0, F, 0); /* the end forces, the bodies' loads, the held DOFs' loads */
  s->statics = 0;
  for (int k = 0; k < PlSysRollersCount(s); ++k) PlSysRollersResult(s, k, &rep->roller[k]);
  rep->rollers_solved = PlSysRollersCount(s) > 0;
  for (int l = 0; l < s->nl; ++l) {
    const PlDynLine d = s->d[l];
    const PlProblem p = d->sp;
    PetscScalar **u;
    PetscInt xs, xm;
    PetscCall(DMDAGetCorners(p->da, &xs, NULL, NULL, &xm, NULL, NULL));
    PetscCall(DMDAVecGetArrayDOF(p->da, p->u, &u));
    for (int i = 0; i < p->mesh.nnodes; ++i) {
      double *yi = y + s->loff[l] + (size_t)i * s->ndd;
      for (int c = 0; c < 3; ++c) {
        d->xs[3 * i + c] += yi[c];
        yi[c] = 0.0;
      }
      if (i < xs || i >= xs + xm) continue;
      for (int r = 0; r < d->nd; ++r) u[i][r] = r < 3 ? d->xs[3 * i + r] : yi[r];
    }
    PetscCall(DMDAVecRestoreArrayDOF(p->da, p->u, &u));
    for (int k = 0; k < 2; ++k) {
      double f[3];
      PlSysDynEndForce(s, l, k, f);
      memcpy(rep->end_force[l][k], f, sizeof f);
      rep->end_tension[l][k] = sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
    }
  }
  memset(rep->point_force, 0, sizeof *rep->point_force * (size_t)rep->npoints);
  for (int k = 0; k < m->npoints; ++k) {
    const int o = s->poff[k];
    if (o >= 0)
      for (int c = 0; c < 3; ++c) {
        s->pxs[k][c] += y[o + c];
        y[o + c] = 0.0;
      }
    memcpy(rep->point_position[k], s->pxs[k], sizeof s->pxs[k]);
  }
  for (int l = 0; l < s->nl; ++l)
    for (int k = 0; k < 2; ++k) {
      const int pt = m->lines[l].ends[k].point;
      if (pt >= 0)
        for (int c = 0; c < 3; ++c) rep->point_force[pt][c] += rep->end_force[l][k][c];
    }
  for (int j = 0; j < m->njoints; ++j)
    PlMultibodyJointLoad(&s->mb, y + s->moff, j, rep->joint_point[j], rep->joint_force[j], rep->joint_moment[j]);
  rep->joints_solved = m->njoints > 0;
  for (int b = 0; b < m->nbodies; ++b) {
    if (s->zoff[b] >= 0) PlSysDynHoldThrust(s, b, s->tau_dp[b]); /* evaluated at rest above */
    PlVesselEta(y + s->moff + PL_VESSEL_NY * b, rep->body_eta[b], NULL);
    memcpy(rep->body_lines_load[b], s->lines_load[b], sizeof rep->body_lines_load[b]);
    for (int i = 0; i < 6; ++i) {
      rep->body_held[b][i] = s->hold[b][i];
      rep->body_unbalanced[b][i] = s->hold[b][i] ? s->held_load[b][i] : 0.0;
    }
  }
  free(F);
  free(zero);
  PetscFunctionReturn(0);
}

/* The S-lay results of the stinger's line at the stored equilibrium (slay_output.c). Collective. */
static PetscErrorCode SlayResults(PlLines L, PlLinesReport *rep)
{
  const PlModel *m = PlLinesModel(L);
  PlStation *nodes, *els;
  int nn, ne;
  const PlProblem p = PlLinesProblem(L, m->stinger.line);
  PetscFunctionBeginUser;
  PetscCall(PlProblemStations(p, &nodes, &nn, &els, &ne));
  if (nn > 0) PlSlaySummarize(m, p, nodes, nn, els, ne, rep);
  free(nodes);
  free(els);
  PetscFunctionReturn(0);
}

PetscErrorCode PlSystemStatics(PlLines L, volatile sig_atomic_t *stop, int quiet, PlLinesReport *rep,
                               PlSysStaticReport *srep, PlSysDyn *S, char *warning, size_t len)
{
  const PlModel *m = PlLinesModel(L);
  PetscFunctionBeginUser;
  *S = NULL;
  if (len) warning[0] = '\0';
  memset(srep, 0, sizeof *srep);
  if (m->rigid_body) {
    /* Bodies and joints alone have no static analysis: the run starts from the initial poses
     * and velocities the file gives (the accelerations and the joints' reactions follow from
     * the equations, PlSysDynPrepareRun), as a free rigid body's test needs. */
    PetscCheck(!PlLinesReportInit(rep, 0, 0, m->nbodies, m->njoints), PETSC_COMM_SELF, PETSC_ERR_MEM,
               "out of memory");
    for (int b = 0; b < m->nbodies; ++b)
      for (int c = 0; c < 3; ++c) {
        rep->body_eta[b][c] = m->bodies[b].position[c];
        rep->body_eta[b][3 + c] = m->bodies[b].rpy[c];
      }
    rep->converged = PETSC_TRUE;
    srep->converged = 1;
    PetscCall(PlSysDynCreate(L, rep, S));
    PetscFunctionReturn(0);
  }
  PetscCall(PlLinesSolve(L, stop, quiet, rep));
  if (!rep->converged) PetscFunctionReturn(0);
  PetscCall(PlSysDynCreate(L, rep, S));
  for (int b = 0; b < m->nbodies; ++b) /* what nothing restores stays held (lines.c's probe) */
    if (!rep->body_whole[b]) {
      int held[6];
      for (int i = 0; i < 6; ++i) held[i] = rep->body_held[b][i];
      PlSysStaticHold(*S, b, held);
    }
  PetscCheck(!PlSysStaticSolve(*S, rep, srep), PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory");
  int fixed_ends = 0;
  for (int l = 0; l < m->nlines; ++l)
    for (int e = 0; e < 2; ++e)
      fixed_ends |= m->lines[l].ends[e].body >= 0 && m->lines[l].ends[e].connection == PL_HANGOFF_FIXED;
  if (srep->converged) {
    PetscCall(PlSysStaticStore(*S, rep));
    if (m->stinger.present) PetscCall(SlayResults(L, rep));
    for (int k = 0; k < PlSysRollersCount(*S) && rep->converged; ++k) { /* the physical check */
      const double under = PlSysRollersUnder(*S, k);
      if (isnan(under)) continue;
      rep->converged = PETSC_FALSE;
      snprintf(rep->failure, sizeof rep->failure,
               "the line passes %.4g m under the stinger's roller %d, beyond stinger.reach (%.4g m): the start "
               "shape hangs too far below the stinger; raise stinger.reach", under, k + 1, m->stinger.reach);
    }
  } else if (fixed_ends || m->stinger.present) {
    rep->converged = PETSC_FALSE;
    snprintf(rep->failure, sizeof rep->failure, "%s (%s only by the whole system's Newton)", srep->failure,
             fixed_ends ? "a line end fixed to a body is held" : "the stinger's rollers carry the line");
  } else if (len)
    snprintf(warning, len, "%s; the equilibrium of the lines at the bodies' held DOFs is reported", srep->failure);
  PetscFunctionReturn(0);
}
