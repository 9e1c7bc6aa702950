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
 * Method: pseudo-transient continuation (as solver/static.c), here with the dynamics' own
 * mass as its D: each step solves
 *     (dF/dy + sigma dF/dy') dy = -F(t0, y, 0),
 * the iteration matrix of a backward Euler step of 1/sigma seconds (sigma = c) from rest, and
 * then sets every velocity back to zero. With v = 0 the kinematic rows give dv = sigma dx, so
 * the positions take the step (K + sigma^2 M) dx = -R: first-order pseudo-dynamics with the
 * mass M as D and sigma^2 as the shift, which damps what a second-order pseudo-time would let
 * swing. It starts as Newton's method (sigma = 0) on the exact tangent; a step that leaves the
 * domain, raises the force residual above kGrowth times the smallest so far or meets a singular matrix (a DOF without
 * stiffness) is rejected and sigma raised (to 1e-2 1/s, then x 10 up to 1e8); an accepted
 * step lowers it by switched evolution relaxation (sigma_k+1 = sigma_k |F_k+1| / |F_k|, at least
 * halved when the residual fell: with the plain ratio a slow DOF, OC3's sway under a pseudo-mass
 * of 20^2 times its 8e6 kg, kept the ratio at 0.999 and sigma at 20 for 400 steps; back
 * to Newton below 1e-6 1/s).
 * Converged when every force and moment row is within tol (1e-9) of the force scale (the
 * lines' and points' weights and the largest end tension) and every kinematic or constraint
 * row within 1e-10 (m/s, m, or -).
 * The start is the substructured equilibrium of solver/lines.c (each line at its ends); it is
 * kept if this solve fails. On success the lines' static problems, the report and the
 * dynamic start take its state. What it does today: from the substructured equilibrium it
 * confirms (0 steps, imbalance ~1e-11 in the verification cases) or refines it in the whole
 * system's residual. A line end fixed to a body (ends.*.connection: fixed) is a hinge in
 * solver/lines.c; here its frame is clamped (the constraint rows of system_dynamic.c), so this
 * Newton takes the hinge equilibrium to the fixed one (the dp_sec44 J-lay clamped at 73 deg:
 * 87 steps, 5 rejected; tests/check_fixed_hangoff.py) and a model with a fixed end has no
 * equilibrium unless this solve converges (app/pipelay.c). From a state far from equilibrium (a moored buoy 31 m from its offset
 * position) the full Newton step overshoots in the stiff rods and the pseudo-transient steps
 * crawl: solver/lines.c, which re-solves each line at trial master positions, is the solver
 * that gets there.
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

/* A step is accepted when its force residual is within kGrowth of the smallest residual of the
 * iteration so far (a stiff rod's residual rises after a good Newton step from a distant
 * state, so some rise is allowed; measured against the best rather than the last state, so it
 * cannot ratchet up). Measured against the last state, examples/oc3_hywind.yaml under its
 * 800 kN thrust (the platform 13.7 m and 5.6 deg from its start) climbed from 1.6 to 1e6 of the
 * force scale in 500 steps, or converged in 175 or 400 steps as round-off moved its path. */
static const double kGrowth = 10.0;

static int SolveAtRest(PlSysDyn s, const PlLinesReport *start, PlSysStaticReport *rep)
{
  const int n = s->n, maxit = 500;
  const double tol = 1e-9, ktol = 1e-10, smin = 1e-6, smax = 1e8, sfirst = 1e-2;
  double *y = N_VGetArrayPointer(s->y), *y0 = malloc(sizeof(double) * n), *yt = malloc(sizeof(double) * n),
         *zero = calloc((size_t)n, sizeof(double)), *F = malloc(sizeof(double) * n), *Ft = malloc(sizeof(double) * n),
         *dy = malloc(sizeof(double) * n);
  memset(rep, 0, sizeof *rep);
  rep->force_scale = ForceScale(s, start);
  if (!y0 || !yt || !zero || !F || !Ft || !dy) {
    snprintf(rep->failure, sizeof rep->failure, "out of memory");
    free(y0), free(yt), free(zero), free(F), free(Ft), free(dy);
    return 1;
  }
  memcpy(y0, y, sizeof(double) * n);
  double fr, kr, sigma = 0.0; /* Newton first */
  int bad = EvalAtRest(s, y, zero, 0.0, F, 0);
  Measure(s, F, rep->force_scale, &fr, &kr);
  rep->initial_residual = fr;
  double fbest = fr;
  int it = 0, rejected = 0, projected = 0, roundoff = 0;
  while (!bad && !(fr <= tol && kr <= ktol) && it < maxit) {
    ++it;
    s->val = SUNSparseMatrix_Data(s->A);
    if (EvalAtRest(s, y, zero, sigma, NULL, 1) >= 2) break;
    for (int i = 0; i < n; ++i) dy[i] = -F[i];
    if (Solve(s, dy)) { /* singular: a DOF without stiffness */
      if (sigma >= smax) break;
      sigma = sigma > 0.0 ? fmin(smax, sigma * 10.0) : sfirst;
      ++rejected;
      continue;
    }
    /* at the round-off floor: a Newton step that moves no node by more than 1e-12 of the
     * lines' length while the imbalance is below 1e-8 of the force scale is converged (a
     * steel line's axial force carries EA eps |x| / L of rounding, 4e-4 N for a 200 m pipe
     * of 2 m elements: above 1e-9 of a light line's weight; the one-line statics stop on the
     * step size likewise) */
    if (sigma == 0.0 && fr <= 1e-8 && kr <= 1e-8 && s->nl > 0) {
      double dmax = 0.0, xs = 1.0; /* over every position: the lines' nodes, free points, bodies */
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
      if (dmax <= 1e-12 * xs) {
        roundoff = 1;
        break;
      }
    }
    for (int i = 0; i < n; ++i) yt[i] = y[i] + dy[i];
    AtRest(s, yt);
    if (sigma > 0.0) StartMultipliers(s, yt, zero); /* a Newton step keeps Newton's multipliers */
    double ft, kt;
    const int tbad = EvalAtRest(s, yt, zero, 0.0, Ft, 0);
    Measure(s, Ft, rep->force_scale, &ft, &kt);
    if (tbad || !(ft <= kGrowth * fmax(fbest, tol))) {
      if (sigma >= smax) break;
      if (!projected && s->mb.njoints) { /* Newton from the start failed: the joints' reactions first */
        StartMultipliers(s, y, zero);
        EvalAtRest(s, y, zero, 0.0, F, 0);
        Measure(s, F, rep->force_scale, &fr, &kr);
        projected = 1;
      }
      sigma = sigma > 0.0 ? fmin(smax, sigma * 10.0) : sfirst;
      ++rejected;
      continue;
    }
    sigma = sigma * (fr > 0.0 ? (ft < fr ? fmin(ft / fr, 0.5) : ft / fr) : 0.0);
    if (sigma < smin) sigma = 0.0;
    memcpy(y, yt, sizeof(double) * n);
    memcpy(F, Ft, sizeof(double) * n);
    fr = ft;
    kr = kt;
    fbest = fmin(fbest, fr);
  }
  rep->iterations = it;
  rep->rejected = rejected;
  rep->residual = fr;
  rep->converged = !bad && ((fr <= tol && kr <= ktol) || roundoff);
  if (!rep->converged) {
    snprintf(rep->failure, sizeof rep->failure,
             "the equilibrium of the whole system did not converge in %d steps (%d rejected): largest force "
             "imbalance %.3g of the force scale %.4g N, largest kinematic row %.3g; a body or free point whose DOF "
             "nothing restores but a load pushes has no equilibrium (give it a spring, restoring or another line)",
             it, rejected, fr, rep->force_scale, kr);
    memcpy(y, y0, sizeof(double) * n); /* the substructured equilibrium stays */
    EvalAtRest(s, y, zero, 0.0, F, 0);
  }
  free(y0), free(yt), free(zero), free(F), free(Ft), free(dy);
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

PetscErrorCode PlSystemStatics(PlLines L, volatile sig_atomic_t *stop, int quiet, PlLinesReport *rep,
                               PlSysStaticReport *srep, PlSysDyn *S, char *warning, size_t len)
{
  const PlModel *m = PlLinesModel(L);
  PetscFunctionBeginUser;
  *S = NULL;
  if (len) warning[0] = '\0';
  memset(srep, 0, sizeof *srep);
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
  if (srep->converged) PetscCall(PlSysStaticStore(*S, rep));
  else if (fixed_ends) {
    rep->converged = PETSC_FALSE;
    snprintf(rep->failure, sizeof rep->failure,
             "%s (a line end fixed to a body is held only by the whole system's Newton)", srep->failure);
  } else if (len)
    snprintf(warning, len, "%s; the equilibrium of the lines at the bodies' held DOFs is reported", srep->failure);
  PetscFunctionReturn(0);
}
