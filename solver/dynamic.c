/*
 * dynamic.c - the dynamic analysis: the semi-discrete equations of motion as a DAE
 * F(t, y, ydot) = 0, its exact iteration matrix, and their integration by SUNDIALS IDA
 * with PETSc SNES as the nonlinear solver.
 *
 * Unknowns per node (13 with quaternions, 12 with Euler angles): u, p, v, w (see
 * elements/rod_dynamics.c for the rows), where the position is carried as the displacement
 * u = x - x_static from the static configuration: IDA's error test weighs a component by
 * rtol |y| + atol, and with absolute coordinates (|x| ~ 10^3 m) rtol would allow position
 * errors of 0.1 m, i.e. axial-force noise of EA 0.1/L ~ 10^5 N in a steel pipe. Assembly on a 1-D DMDA like the static problem:
 *   F = sum_e [rod internal force (x rows -> V rows, p rows -> W rows through
 *              PlNodeMapParamForce), + w L/2 e3 (submerged weight, eq 5.33),
 *              - seabed sigma(z) e3 (eq 5.38) + c_s h(kappa) v_z (contact damping),
 *              Morison drag and added mass (eq 5.34)]
 *     + sum_n [kinematics, inertia, gyroscopic and rotational damping terms, - dead end
 *              loads]
 * Held DOFs of an end replace rows (index-1 algebraic equations):
 *   translation c: row X+c -> v_c - vbar_c(t), row V+c -> s_x (x_c - xbar_c(t));
 *   all rotations: rows P..P+2 -> w - wbar(t), rows W+c -> s_r (p_k - pbar_k(t)) with
 *     k = 1 + c (quaternion; the unit-norm row fixes p_0) or c (Euler);
 *   one rotation c of a partial hold: row W+c -> s_r (p_k - p_k,static).
 * xbar = x_static + d(t), pbar = params of q(p_static) (x) exp(th(t)), from the motion.
 *
 * Newton: IDA hands the corrector equation G(ycor) = F(t, ypred + ycor, yppred + cj ycor)
 * to SNES (SUNNonlinSol_PetscSNES). Like IDA's own modified Newton, the iteration matrix
 * is assembled (and factored) only when cj has changed by more than 25% since the last
 * one, after a failed solve, or 20 steps on; otherwise SNES reuses the factors. The
 * convergence test is IDA's: with the weighted RMS norm of the update |d| (IDA's error
 * weights), converged when ss |d| <= 0.33, ss = rate/(1 - rate), rate from the
 * successive updates (ss = 20 on the first iteration after a new matrix); at most 4
 * iterations, and a rate above 0.9 is a failure (IDA then cuts the step).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic_impl.h"

DM PlDynamicDM(PlDynamic d) { return d->da; }
Vec PlDynamicState(PlDynamic d) { return d->y; }
Vec PlDynamicRate(PlDynamic d) { return d->yp; }
Mat PlDynamicMatrix(PlDynamic d) { return d->J; }

/* Prescribed values of an end at time t: position, velocity, acceleration (3 each) and
 * rotation parameters pbar (np) with the body angular velocity wbar. */
void PlDynEndPrescribed(const PlDynamic d, const PlDynEnd *E, double t, double xb[3], double vb[3],
                          double ab[3], double *pb, double wb[3])
{
  double dd[3], dv[3], dacc[3], th[3], dth[3];
  PlMotionEval(E->motion, t, dd, dv, dacc, th, dth);
  for (int c = 0; c < 3; ++c) {
    xb[c] = E->xs[c] + dd[c];
    vb[c] = dv[c];
    ab[c] = dacc[c];
    wb[c] = dth[c];
  }
  /* q(pbar) = q(p_static) (x) exp(th) */
  const double a = sqrt(th[0] * th[0] + th[1] * th[1] + th[2] * th[2]);
  double qe[4] = {1, 0, 0, 0}, q[4];
  if (a > 0.0) {
    const double axis[3] = {th[0] / a, th[1] / a, th[2] / a};
    PlQuatFromAxisAngle(axis, a, qe);
  }
  PlQuatMul(E->qs, qe, q);
  if (d->kind == PL_PARAM_QUATERNION) {
    /* keep the hemisphere of the static parameters */
    const double s = q[0] * E->ps[0] + q[1] * E->ps[1] + q[2] * E->ps[2] + q[3] * E->ps[3];
    for (int i = 0; i < 4; ++i) pb[i] = s < 0 ? -q[i] : q[i];
  } else if (a == 0.0) {
    for (int i = 0; i < 3; ++i) pb[i] = E->ps[i];
  } else
    PlParamFromQuaternion(d->kind, q, pb);
}

/* Overwrites the held rows of end E (owned by this rank) in f (node row array). The rows
 * are chosen so that each constraint sits on the diagonal of the iteration matrix. */
void PlDynEndResidual(const PlDynamic d, const PlDynEnd *E, double t, const double *y, double *f)
{
  double xb[3], vb[3], ab[3], pb[4], wb[3];
  PlDynEndPrescribed(d, E, t, xb, vb, ab, pb, wb);
  for (int c = 0; c < 3; ++c)
    if (E->tr[c]) {
      f[c] = y[c] + E->xs[c] - xb[c];
      f[d->iV + c] = y[d->iV + c] - vb[c];
    }
  if (E->rot == 1)
    for (int c = 0; c < 3; ++c) {
      const int k = PlHeldParam(d->kind, c);
      f[3 + k] = y[3 + k] - pb[k];
      f[d->iW + c] = y[d->iW + c] - wb[c];
    }
  else if (E->rot == 2)
    for (int c = 0; c < 3; ++c)
      if (E->rp[c]) {
        const int k = PlHeldParam(d->kind, c);
        f[d->iW + c] = y[3 + k] - E->ps[k];
      }
  if (E->rot == 1 && d->kind == PL_PARAM_QUATERNION)
    f[3] = 0.5 * (y[3] * y[3] + y[4] * y[4] + y[5] * y[5] + y[6] * y[6] - 1.0);
}

/* Held rows of end E as rows of the node's Jacobian block Kn (ndd x ndd). */
void PlDynEndJacobian(const PlDynamic d, const PlDynEnd *E, const double *y, double *Kn)
{
  const int n = d->ndd;
#define ROW(r, col, val) do { memset(Kn + (r) * n, 0, n * sizeof(double)); Kn[(r) * n + (col)] = (val); } while (0)
  for (int c = 0; c < 3; ++c)
    if (E->tr[c]) {
      ROW(c, c, 1.0);
      ROW(d->iV + c, d->iV + c, 1.0);
    }
  if (E->rot == 1) {
    for (int c = 0; c < 3; ++c) {
      const int k = PlHeldParam(d->kind, c);
      ROW(3 + k, 3 + k, 1.0);
      ROW(d->iW + c, d->iW + c, 1.0);
    }
    if (d->kind == PL_PARAM_QUATERNION) {
      ROW(3, 3, y[3]);
      for (int k = 1; k < 4; ++k) Kn[3 * n + 3 + k] = y[3 + k];
    }
  } else if (E->rot == 2)
    for (int c = 0; c < 3; ++c)
      if (E->rp[c]) ROW(d->iW + c, 3 + PlHeldParam(d->kind, c), 1.0);
#undef ROW
}

/* Is row r of node i replaced by a constraint? */
int PlDynRowHeld(const PlDynamic d, int i, int r)
{
  if (d->ves.vm && i == d->sp->mesh.nnodes - 1) return PlDynVesselRowHeld(d, r);
  for (int k = 0; k < 2; ++k) {
    const PlDynEnd *E = &d->ends[k];
    if (E->node != i) continue;
    if (E->rot == 1 && r >= 3 && r < d->iV) return 1;
    for (int c = 0; c < 3; ++c) {
      if (E->tr[c] && (r == c || r == d->iV + c)) return 1;
      if (E->rot == 1 && r == d->iW + c) return 1;
      if (E->rot == 2 && E->rp[c] && r == d->iW + c) return 1;
    }
  }
  return 0;
}

/* Seabed force per length (upwards) with contact damping at height z, vertical velocity
 * vz: value, d/dz and d/dvz. h(kappa) ramps the damping in over the first d_o/40 of
 * penetration so that the force stays continuous. */
static void SeabedDyn(const PlModel *m, const PlSection *s, double w, double z, double vz,
                      double *f, double *df_dz, double *df_dvz)
{
  double sig, dsig;
  PlSeabedForce(m, s, w, z, &sig, &dsig);
  *f = sig;
  *df_dz = dsig;
  *df_dvz = 0.0;
  if (m->seabed == PL_SEABED_NONE || m->seabed_damping <= 0.0) return;
  const double kappa = -m->water_depth - (z - 0.5 * s->outer_diameter), k0 = s->outer_diameter / 40.0;
  if (kappa <= 0.0) return;
  const double h = kappa < k0 ? kappa / k0 : 1.0, dh_dz = kappa < k0 ? -1.0 / k0 : 0.0;
  *f -= m->seabed_damping * h * vz;
  *df_dz -= m->seabed_damping * dh_dz * vz;
  *df_dvz = -m->seabed_damping * h;
}

/* Element e's contributions: fe (2 ndd, node rows of A then B) and, when Ke != NULL, the
 * iteration-matrix block (2 ndd x 2 ndd). Returns 1 outside the rod's domain. */
int PlDynElement(const PlDynamic d, int e, double t, const double *yA, const double *ypA,
                      const double *yB, const double *ypB, double c, double *fe, double *Ke)
{
  const PlProblem p = d->sp;
  const int nd = d->nd, ndd = d->ndd, n2 = 2 * ndd, np = d->np;
  const PlModel *m = &p->model;
  const PlSection *sec = &m->segments[p->mesh.segment[e]].section;
  double ue[PL_ELEM_DOF_MAX], re[PL_ELEM_DOF_MAX], K[PL_ELEM_DOF_MAX * PL_ELEM_DOF_MAX];
  memcpy(ue, yA, nd * sizeof(double));
  memcpy(ue + nd, yB, nd * sizeof(double));
  memset(fe, 0, n2 * sizeof(double));
  if (Ke) memset(Ke, 0, (size_t)n2 * n2 * sizeof(double));
  int bad = PlRodElementInternal(&p->elements[e], ue, re, Ke ? K : NULL);
  if (bad && Ke) memset(K, 0, sizeof K);
  /* rod: translation rows -> V, parameter rows -> W (mapped to body moments) */
  for (int a = 0; a < 2; ++a) {
    const double *pa = a ? yB + 3 : yA + 3;
    double mrow[3], dmdp[12], B[12];
    for (int i = 0; i < 3; ++i) fe[a * ndd + d->iV + i] += re[a * nd + i];
    PlNodeMapParamForce(d->kind, pa, re + a * nd + 3, mrow, Ke ? dmdp : NULL);
    for (int i = 0; i < 3; ++i) fe[a * ndd + d->iW + i] += mrow[i];
    if (!Ke) continue;
    /* the map m = B(p) r_p is linear in r_p: its 3 x np matrix, column by column */
    for (int k = 0; k < np; ++k) {
      double ek[4] = {0, 0, 0, 0}, col[3];
      ek[k] = 1.0;
      PlNodeMapParamForce(d->kind, pa, ek, col, NULL);
      for (int i = 0; i < 3; ++i) B[i * np + k] = col[i];
    }
    for (int b = 0; b < 2; ++b)
      for (int j = 0; j < nd; ++j) {
        const int col = b * ndd + j; /* static unknown j of node b has the same index */
        for (int i = 0; i < 3; ++i) Ke[(a * ndd + d->iV + i) * n2 + col] += K[(a * nd + i) * 2 * nd + b * nd + j];
        /* dm = B dr_p + (dm/dp) dp */
        for (int i = 0; i < 3; ++i) {
          double v = 0.0;
          for (int k = 0; k < np; ++k) v += B[i * np + k] * K[(a * nd + 3 + k) * 2 * nd + b * nd + j];
          Ke[(a * ndd + d->iW + i) * n2 + col] += v;
        }
      }
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < np; ++k) Ke[(a * ndd + d->iW + i) * n2 + a * ndd + 3 + k] += dmdp[i * np + k];
  }
  /* submerged weight and seabed (two-point Gauss) */
  const double L = p->elements[e].L, w = p->w[e];
  const double gq = 0.5 / sqrt(3.0), xi[2] = {0.5 - gq, 0.5 + gq};
  {
    double fw[2], kw[2][2];
    PlElementWeight(sec, m->water_density, m->gravity, L, yA[2], yB[2], fw, Ke ? kw : NULL);
    for (int a = 0; a < 2; ++a) {
      fe[a * ndd + d->iV + 2] += fw[a];
      if (Ke)
        for (int b = 0; b < 2; ++b) Ke[(a * ndd + d->iV + 2) * n2 + b * ndd + 2] += kw[a][b];
    }
  }
  if (m->seabed != PL_SEABED_NONE)
    for (int q = 0; q < 2; ++q) {
      const double N[2] = {1.0 - xi[q], xi[q]};
      const double z = N[0] * yA[2] + N[1] * yB[2], vz = N[0] * yA[d->iV + 2] + N[1] * yB[d->iV + 2];
      double f, fz, fv;
      SeabedDyn(m, sec, w, z, vz, &f, &fz, &fv);
      for (int a = 0; a < 2; ++a) {
        const int row = a * ndd + d->iV + 2;
        fe[row] -= 0.5 * L * N[a] * f;
        if (Ke)
          for (int b = 0; b < 2; ++b) {
            Ke[row * n2 + b * ndd + 2] -= 0.5 * L * N[a] * N[b] * fz;
            Ke[row * n2 + b * ndd + d->iV + 2] -= 0.5 * L * N[a] * N[b] * fv;
          }
      }
    }
  /* Morison */
  const PlMorison *h = &d->morison[e];
  if (h->Cdn > 0.0 || h->Cdt > 0.0 || h->Can > 0.0 || h->Cat > 0.0) {
    double vc[2][3], dvc[2][3], f6[6], K6[72];
    for (int q = 0; q < 2; ++q) {
      const double z = (1.0 - xi[q]) * yA[2] + xi[q] * yB[2];
      PlCurrentVelocity(&m->current, m->water_depth, z, t, vc[q], dvc[q]);
    }
    PlRodElementMorison(h, yA, ypA, yB, ypB, d->iV, vc, dvc, c, f6, Ke ? K6 : NULL);
    for (int a = 0; a < 2; ++a)
      for (int i = 0; i < 3; ++i) {
        const int row = a * ndd + d->iV + i;
        fe[row] += f6[3 * a + i];
        if (Ke)
          for (int b = 0; b < 2; ++b)
            for (int j = 0; j < 3; ++j) {
              Ke[row * n2 + b * ndd + j] += K6[(3 * a + i) * 12 + 6 * b + j];
              Ke[row * n2 + b * ndd + d->iV + j] += K6[(3 * a + i) * 12 + 6 * b + 3 + j];
            }
      }
  }
  return bad;
}

/* The dead moment of node i (NULL when none). */
const double *PlDynNodeMoment(const PlDynamic d, int i)
{
  for (int k = 0; k < 2; ++k)
    if (d->ends[k].node == i) {
      const double *M = d->ends[k].M;
      if (M[0] != 0.0 || M[1] != 0.0 || M[2] != 0.0) return M;
    }
  return NULL;
}

static PetscErrorCode Evaluate(PlDynamic d, double t, Vec Y, Vec YP, double c, Vec F, Mat J)
{
  const PlProblem p = d->sp;
  const int ndd = d->ndd, ne = p->mesh.nelements, n2 = 2 * ndd, top = p->mesh.nnodes - 1;
  const int vessel = d->ves.vm != NULL;
  Vec Yl, YPl, Fl = NULL, Yg, YPg;
  PetscScalar **y, **yp, **f = NULL;
  PetscInt xs, xm, gxs;
  ISLocalToGlobalMapping ltog = NULL;
  double lam[6] = {0, 0, 0, 0, 0, 0}; /* the top node's momentum residual (vessel) */
  int bad = 0;
  PetscFunctionBeginUser;
  d->domain_error = 0;
  if (vessel) {
    PetscCall(PlDynVesselLoad(d, Y, YP));
    PetscCall(DMGetLocalToGlobalMapping(d->da, &ltog));
  }
  PetscCall(PlDynPipeGet(d, Y, &Yg));
  PetscCall(PlDynPipeGet(d, YP, &YPg));
  PetscCall(DMGetLocalVector(d->da, &Yl));
  PetscCall(DMGetLocalVector(d->da, &YPl));
  PetscCall(DMGlobalToLocal(d->da, Yg, INSERT_VALUES, Yl));
  PetscCall(DMGlobalToLocal(d->da, YPg, INSERT_VALUES, YPl));
  PetscCall(PlDynPipeRestore(d, Y, &Yg));
  PetscCall(PlDynPipeRestore(d, YP, &YPg));
  PetscCall(DMDAGetCorners(d->da, &xs, NULL, NULL, &xm, NULL, NULL));
  PetscCall(DMDAGetGhostCorners(d->da, &gxs, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAVecGetArrayDOFRead(d->da, Yl, &y));
  PetscCall(DMDAVecGetArrayDOFRead(d->da, YPl, &yp));
  if (F) {
    PetscCall(DMGetLocalVector(d->da, &Fl));
    PetscCall(VecZeroEntries(Fl));
    PetscCall(DMDAVecGetArrayDOF(d->da, Fl, &f));
  }
  if (J) PetscCall(MatZeroEntries(J));
  double fe[2 * PL_DYN_DOF_MAX], *Ke = NULL;
  if (J) PetscCall(PetscMalloc1((size_t)n2 * n2, &Ke));
  for (PetscInt e = xs; e < xs + xm && e < ne; ++e) {
    double ya[PL_DYN_DOF_MAX], yb[PL_DYN_DOF_MAX];
    memcpy(ya, y[e], ndd * sizeof(double));
    memcpy(yb, y[e + 1], ndd * sizeof(double));
    for (int k = 0; k < 3; ++k) {
      ya[k] += d->xs[3 * e + k];
      yb[k] += d->xs[3 * (e + 1) + k];
    }
    if (PlDynElement(d, (int)e, t, ya, yp[e], yb, yp[e + 1], c, fe, Ke)) bad = 1;
    if (F)
      for (int r = 0; r < ndd; ++r) {
        f[e][r] += fe[r];
        f[e + 1][r] += fe[ndd + r];
      }
    const int to_vessel = vessel && e + 1 == top;
    if (e + 1 == top) /* the top node's momentum residual: the vessel's load, the top reaction */
      for (int k = 0; k < 3; ++k) {
        lam[k] += fe[ndd + d->iV + k];
        lam[3 + k] += fe[ndd + d->iW + k];
      }
    if (J) {
      /* an element only has V and W rows (12 of the 2 ndd): insert those */
      PetscInt idx[2 * PL_DYN_DOF_MAX], rows[12];
      double Kr[12 * 2 * PL_DYN_DOF_MAX];
      int nr = 0;
      for (int a = 0; a < 2; ++a)
        for (int r = 0; r < ndd; ++r) idx[a * ndd + r] = (e + a - gxs) * ndd + r;
      for (int a = 0; a < 2; ++a)
        for (int r = d->iV; r < ndd; ++r) {
          rows[nr] = idx[a * ndd + r];
          if (PlDynRowHeld(d, (int)e + a, r)) memset(Kr + nr * n2, 0, n2 * sizeof(double));
          else memcpy(Kr + nr * n2, Ke + (a * ndd + r) * n2, n2 * sizeof(double));
          ++nr;
        }
      PetscCall(MatSetValuesLocal(J, nr, rows, n2, idx, Kr, ADD_VALUES));
      if (to_vessel) { /* the top node's rows go to the vessel (Newton's third law) */
        PetscInt gidx[2 * PL_DYN_DOF_MAX];
        PetscCall(ISLocalToGlobalMappingApply(ltog, n2, idx, gidx));
        PetscCall(PlDynVesselTransferRows(d, J, Ke + (ndd + d->iV) * n2, Ke + (ndd + d->iW) * n2, n2, gidx));
      }
    }
  }
  PetscCall(PetscFree(Ke));
  for (PetscInt i = xs; i < xs + xm; ++i) {
    double rn[PL_DYN_DOF_MAX], Kn[PL_DYN_DOF_MAX * PL_DYN_DOF_MAX];
    PlNodeDynamics(&d->inertia[i], d->kind, p->mesh.q0 + 4 * i, y[i], yp[i], c, PlDynNodeMoment(d, (int)i), rn,
                   J ? Kn : NULL);
    for (int k = 0; k < 2; ++k)
      if (d->ends[k].node == i)
        for (int cc = 0; cc < 3; ++cc) rn[d->iV + cc] -= d->ends[k].F[cc];
    const int to_vessel = vessel && i == top;
    if (i == top)
      for (int k = 0; k < 3; ++k) {
        lam[k] += rn[d->iV + k];
        lam[3 + k] += rn[d->iW + k];
      }
    if (F)
      for (int r = 0; r < ndd; ++r) f[i][r] += rn[r];
    if (J) {
      PetscInt idx[PL_DYN_DOF_MAX];
      for (int r = 0; r < ndd; ++r) idx[r] = (i - gxs) * ndd + r;
      if (to_vessel) {
        PetscInt gidx[PL_DYN_DOF_MAX];
        PetscCall(ISLocalToGlobalMappingApply(ltog, ndd, idx, gidx));
        PetscCall(PlDynVesselTransferRows(d, J, Kn + d->iV * ndd, Kn + d->iW * ndd, ndd, gidx));
      }
      for (int r = 0; r < ndd; ++r)
        if (PlDynRowHeld(d, (int)i, r)) memset(Kn + r * ndd, 0, ndd * sizeof(double));
      for (int k = 0; k < 2; ++k)
        if (d->ends[k].node == i && !(vessel && k == 1)) PlDynEndJacobian(d, &d->ends[k], y[i], Kn);
      if (to_vessel) PetscCall(PlDynVesselTopJacobian(d, J, y[i], Kn, d->ves.g0 - (PetscInt)ndd));
      PetscCall(MatSetValuesLocal(J, ndd, idx, ndd, idx, Kn, ADD_VALUES));
    }
  }
  PetscCall(DMDAVecRestoreArrayDOFRead(d->da, Yl, &y));
  PetscCall(DMDAVecRestoreArrayDOFRead(d->da, YPl, &yp));
  for (int k = 0; k < 3; ++k) d->top_part[k] = lam[k]; /* this rank's share (PlDynamicTopLoad) */
  if (vessel) {
    PetscCallMPI(MPIU_Allreduce(lam, d->ves.lam, 6, MPI_DOUBLE, MPI_SUM, d->comm));
    if (!d->ves.fixed)
      for (int k = 3; k < 6; ++k) d->ves.lam[k] = 0.0; /* a hinge passes no moment */
  }
  if (F) {
    Vec Fg;
    PetscCall(DMDAVecRestoreArrayDOF(d->da, Fl, &f));
    PetscCall(VecZeroEntries(F));
    PetscCall(PlDynPipeGet(d, F, &Fg));
    PetscCall(DMLocalToGlobal(d->da, Fl, ADD_VALUES, Fg));
    PetscCall(DMRestoreLocalVector(d->da, &Fl));
    /* held rows (owned end nodes) */
    PetscScalar **fg;
    const PetscScalar **yg;
    PetscCall(PlDynPipeGet(d, Y, &Yg));
    PetscCall(DMDAVecGetArrayDOF(d->da, Fg, &fg));
    PetscCall(DMDAVecGetArrayDOFRead(d->da, Yg, &yg));
    for (int k = 0; k < 2; ++k) {
      const int i = d->ends[k].node;
      if (i < xs || i >= xs + xm) continue;
      if (vessel && k == 1) PlDynVesselTopResidual(d, yg[i], fg[i]);
      else PlDynEndResidual(d, &d->ends[k], t, yg[i], fg[i]);
    }
    PetscCall(DMDAVecRestoreArrayDOF(d->da, Fg, &fg));
    PetscCall(DMDAVecRestoreArrayDOFRead(d->da, Yg, &yg));
    PetscCall(PlDynPipeRestore(d, Y, &Yg));
    PetscCall(PlDynPipeRestore(d, F, &Fg));
  }
  if (vessel) PetscCall(PlDynVesselRows(d, t, c, F, J));
  PetscCall(DMRestoreLocalVector(d->da, &Yl));
  PetscCall(DMRestoreLocalVector(d->da, &YPl));
  if (J) {
    PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  }
  if (d->domain_error) bad = 1; /* set by the vessel rows */
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, d->comm));
  d->domain_error = bad;
  PetscFunctionReturn(0);
}

/* The load of the line on its top (global frame, [N]): what the support and the applied end
 * force F together hold, reversed. The top node's translational momentum residual without
 * its constraint rows is r = M a + f_int - f_ext - F (f_ext: weight, drag, contact; F the
 * end's dead force), and the support's force on the node is S = r; the line's load on its
 * top attachments is -(S + F). In a static state its magnitude is the top tension of the
 * summary. One residual evaluation at the output state (t_out, y, yp); collective. */
PetscErrorCode PlDynamicTopLoad(PlDynamic d, double load[3])
{
  PetscFunctionBeginUser;
  /* work_y is the Newton iteration's scratch, free between steps */
  PetscCall(PlDynamicResidual(d, d->t_out, d->y, d->yp, d->work_y));
  double sum[3];
  PetscCallMPI(MPIU_Allreduce(d->top_part, sum, 3, MPI_DOUBLE, MPI_SUM, d->comm));
  for (int k = 0; k < 3; ++k) load[k] = -(sum[k] + d->ends[1].F[k]);
  PetscFunctionReturn(0);
}

PetscErrorCode PlDynamicResidual(PlDynamic d, double t, Vec Y, Vec YP, Vec F)
{
  return Evaluate(d, t, Y, YP, 0.0, F, NULL);
}
PetscErrorCode PlDynamicIterationMatrix(PlDynamic d, double t, Vec Y, Vec YP, double c, Mat J)
{
  return Evaluate(d, t, Y, YP, c, NULL, J);
}

/* ---- IDA adapters: return 0, +1 (recoverable: IDA retries smaller) or -1 (fatal) -------- */
static int IdaResidual(realtype t, N_Vector yy, N_Vector yp, N_Vector rr, void *ctx)
{
  PlDynamic d = (PlDynamic)ctx;
  if (PlDynamicResidual(d, t, N_VGetVector_Petsc(yy), N_VGetVector_Petsc(yp), N_VGetVector_Petsc(rr))) return -1;
  return d->domain_error ? 1 : 0;
}

static PetscErrorCode SnesJacobian(SNES snes, Vec ycor, Mat A, Mat P, void *ctx)
{
  PlDynamic d = (PlDynamic)ctx;
  realtype tcur, cj;
  N_Vector yypred, yppred, yyn, ypn, res;
  void *ud;
  PetscInt it;
  long nst;
  PetscFunctionBeginUser;
  (void)A;
  PetscCall(SNESGetIterationNumber(snes, &it));
  PetscCheck(IDAGetNonlinearSystemData(d->ida, &tcur, &yypred, &yppred, &yyn, &ypn, &res, &cj, &ud) == IDA_SUCCESS,
             d->comm, PETSC_ERR_LIB, "IDAGetNonlinearSystemData failed");
  PetscCheck(IDAGetNumSteps(d->ida, &nst) == IDA_SUCCESS, d->comm, PETSC_ERR_LIB, "IDAGetNumSteps failed");
  const int fresh_needed = d->force_J || d->cj_J == 0.0 || fabs(cj / d->cj_J - 1.0) > 0.25 || nst - d->nst_J >= 20;
  if (it > 0 || !fresh_needed) PetscFunctionReturn(0); /* keep the factored matrix */
  PetscCall(VecWAXPY(d->work_y, 1.0, ycor, N_VGetVector_Petsc(yypred)));
  PetscCall(VecWAXPY(d->work_yp, cj, ycor, N_VGetVector_Petsc(yppred)));
  PetscCall(PlDynamicIterationMatrix(d, tcur, d->work_y, d->work_yp, cj, P));
  d->cj_J = cj;
  d->nst_J = nst;
  d->force_J = 0;
  d->ss = 20.0;
  d->njac++;
  PetscFunctionReturn(0);
}

static PetscErrorCode ConvergenceTest(SNES snes, PetscInt it, PetscReal xnorm, PetscReal snorm, PetscReal fnorm,
                                      SNESConvergedReason *reason, void *ctx)
{
  PlDynamic d = (PlDynamic)ctx;
  Vec dx;
  PetscInt n;
  PetscReal nrm;
  PetscFunctionBeginUser;
  (void)xnorm;
  (void)snorm;
  *reason = SNES_CONVERGED_ITERATING;
  if (it == 0) {
    PetscCheck(IDAGetErrWeights(d->ida, d->newt) == IDA_SUCCESS, d->comm, PETSC_ERR_LIB, "IDAGetErrWeights failed");
    if (fnorm == 0.0) *reason = SNES_CONVERGED_FNORM_ABS;
    PetscFunctionReturn(0);
  }
  if (!isfinite(fnorm)) {
    *reason = SNES_DIVERGED_FNORM_NAN;
    d->force_J = 1;
    d->nni += it;
    PetscFunctionReturn(0);
  }
  PetscCall(SNESGetSolutionUpdate(snes, &dx));
  PetscCall(VecPointwiseMult(d->work_y, dx, d->ewt));
  PetscCall(VecNorm(d->work_y, NORM_2, &nrm));
  PetscCall(VecGetSize(dx, &n));
  const double del = nrm / sqrt((double)n);
  if (it == 1) {
    d->del1 = del;
    if (d->ss * del <= 0.33 || del <= 1e-12) *reason = SNES_CONVERGED_SNORM_RELATIVE;
  } else {
    const double rate = pow(del / d->del1, 1.0 / (double)(it - 1));
    if (rate > 0.9) {
      *reason = SNES_DIVERGED_MAX_IT;
      d->force_J = 1;
      d->nni += it;
      PetscFunctionReturn(0);
    }
    d->ss = rate / (1.0 - rate);
    if (d->ss * del <= 0.33) *reason = SNES_CONVERGED_SNORM_RELATIVE;
  }
  if (*reason == SNES_CONVERGED_ITERATING && it >= 4) {
    *reason = SNES_DIVERGED_MAX_IT;
    d->force_J = 1;
  }
  if (*reason != SNES_CONVERGED_ITERATING) d->nni += it;
  PetscFunctionReturn(0);
}

/* ---- set-up --------------------------------------------------------------------------- */
static void SetUpEnd(PlDynamic d, int k, const double *u_static)
{
  const PlProblem p = d->sp;
  const PlModel *m = &p->model;
  const PlEnd *E = &m->ends[k];
  PlDynEnd *D = &d->ends[k];
  memset(D, 0, sizeof *D);
  D->node = k ? p->mesh.nnodes - 1 : 0;
  D->motion = &E->motion;
  bool moved[6];
  PlMotionHeldDofs(&E->motion, moved);
  for (int c = 0; c < 3; ++c) D->tr[c] = E->fixed[c] || moved[c];
  const bool rot_moved = moved[3] || moved[4] || moved[5];
  const bool all = E->fixed[3] && E->fixed[4] && E->fixed[5];
  const bool any = E->fixed[3] || E->fixed[4] || E->fixed[5];
  D->rot = (rot_moved || all) ? 1 : (any ? 2 : 0);
  for (int c = 0; c < 3; ++c) D->rp[c] = E->fixed[3 + c];
  const double *u = u_static + (size_t)D->node * d->nd;
  for (int c = 0; c < 3; ++c) {
    D->xs[c] = u[c];
    D->F[c] = E->force[c];
    D->M[c] = E->moment[c];
  }
  for (int i = 0; i < d->np; ++i) D->ps[i] = u[3 + i];
  PlParamToQuaternion(d->kind, D->ps, D->qs);
}

/* Per-node 3x3 solve A x = b with the rows/columns in mask known (x given); in place. */
static void Solve3Masked(double A[9], const bool known[3], double x[3], const double b[3])
{
  double M[9], r[3];
  for (int i = 0; i < 3; ++i) {
    r[i] = b[i];
    for (int j = 0; j < 3; ++j) M[3 * i + j] = A[3 * i + j];
  }
  for (int i = 0; i < 3; ++i) {
    if (!known[i]) continue;
    for (int j = 0; j < 3; ++j) M[3 * i + j] = (i == j);
    r[i] = x[i];
  }
  /* move known columns to the right-hand side of the other rows */
  for (int i = 0; i < 3; ++i)
    if (!known[i])
      for (int j = 0; j < 3; ++j)
        if (known[j]) {
          r[i] -= M[3 * i + j] * x[j];
          M[3 * i + j] = 0.0;
        }
  /* Gaussian elimination with partial pivoting */
  int piv[3] = {0, 1, 2};
  for (int k = 0; k < 3; ++k) {
    int b = k;
    for (int i = k + 1; i < 3; ++i)
      if (fabs(M[3 * piv[i] + k]) > fabs(M[3 * piv[b] + k])) b = i;
    const int t = piv[k];
    piv[k] = piv[b];
    piv[b] = t;
    const double pv = M[3 * piv[k] + k];
    if (pv == 0.0) continue;
    for (int i = k + 1; i < 3; ++i) {
      const double l = M[3 * piv[i] + k] / pv;
      for (int j = k; j < 3; ++j) M[3 * piv[i] + j] -= l * M[3 * piv[k] + j];
      r[piv[i]] -= l * r[piv[k]];
    }
  }
  double s[3];
  for (int k = 2; k >= 0; --k) {
    double v = r[piv[k]];
    for (int j = k + 1; j < 3; ++j) v -= M[3 * piv[k] + j] * s[j];
    const double pv = M[3 * piv[k] + k];
    s[k] = pv != 0.0 ? v / pv : 0.0;
  }
  for (int i = 0; i < 3; ++i)
    if (!known[i]) x[i] = s[i];
}

/* Consistent initial rate: for the current y (held values set), ydot of x and p from the
 * kinematics, and vdot, wdot from the momentum rows (linear in them, lumped per node: the
 * 3x3 blocks are found from the residual's response to unit rates). */
static PetscErrorCode ConsistentRate(PlDynamic d)
{
  const int ndd = d->ndd;
  Vec F0, Fj[6], YP, Yv, YPv, F0v, Fjv[6], YPj;
  PetscScalar **y, **yp, **f0;
  PetscInt xs, xm;
  PetscFunctionBeginUser;
  PetscCall(DMDAGetCorners(d->da, &xs, NULL, NULL, &xm, NULL, NULL));
  /* kinematic part */
  PetscCall(PlDynPipeGet(d, d->y, &Yv));
  PetscCall(PlDynPipeGet(d, d->yp, &YPv));
  PetscCall(DMDAVecGetArrayDOFRead(d->da, Yv, &y));
  PetscCall(DMDAVecGetArrayDOF(d->da, YPv, &yp));
  for (PetscInt i = xs; i < xs + xm; ++i) {
    for (int r = 0; r < ndd; ++r) yp[i][r] = 0.0;
    for (int c = 0; c < 3; ++c) yp[i][c] = y[i][d->iV + c];
    PlParamRateFromOmega(d->kind, &y[i][3], &y[i][d->iW], &yp[i][3]);
  }
  PetscCall(DMDAVecRestoreArrayDOF(d->da, YPv, &yp));
  PetscCall(DMDAVecRestoreArrayDOFRead(d->da, Yv, &y));
  PetscCall(PlDynPipeRestore(d, d->yp, &YPv));
  PetscCall(PlDynPipeRestore(d, d->y, &Yv));
  PetscCall(VecDuplicate(d->y, &F0));
  PetscCall(VecDuplicate(d->y, &YP));
  PetscCall(PlDynamicResidual(d, d->t0, d->y, d->yp, F0));
  for (int j = 0; j < 6; ++j) {
    const int col = j < 3 ? d->iV + j : d->iW + j - 3;
    PetscCall(VecDuplicate(d->y, &Fj[j]));
    PetscCall(VecCopy(d->yp, YP));
    PetscCall(PlDynPipeGet(d, YP, &YPj));
    PetscCall(DMDAVecGetArrayDOF(d->da, YPj, &yp));
    for (PetscInt i = xs; i < xs + xm; ++i) yp[i][col] += 1.0;
    PetscCall(DMDAVecRestoreArrayDOF(d->da, YPj, &yp));
    PetscCall(PlDynPipeRestore(d, YP, &YPj));
    PetscCall(PlDynamicResidual(d, d->t0, d->y, YP, Fj[j]));
  }
  /* (at most four pipe views at once: y, yp, F0, and the Fj one by one below) */
  PetscCall(PlDynPipeGet(d, d->y, &Yv));
  PetscCall(PlDynPipeGet(d, d->yp, &YPv));
  PetscCall(PlDynPipeGet(d, F0, &F0v));
  PetscCall(DMDAVecGetArrayDOFRead(d->da, Yv, &y));
  PetscCall(DMDAVecGetArrayDOF(d->da, YPv, &yp));
  PetscCall(DMDAVecGetArrayDOFRead(d->da, F0v, &f0));
  /* the six probes' node rows, copied out (so that only one view of them is open) */
  double *fjc;
  PetscCall(PetscMalloc1((size_t)6 * xm * ndd, &fjc));
  for (int j = 0; j < 6; ++j) {
    const PetscScalar **fa;
    PetscCall(PlDynPipeGet(d, Fj[j], &Fjv[j]));
    PetscCall(DMDAVecGetArrayDOFRead(d->da, Fjv[j], &fa));
    for (PetscInt i = xs; i < xs + xm; ++i) memcpy(fjc + ((size_t)j * xm + (i - xs)) * ndd, fa[i], ndd * sizeof(double));
    PetscCall(DMDAVecRestoreArrayDOFRead(d->da, Fjv[j], &fa));
    PetscCall(PlDynPipeRestore(d, Fj[j], &Fjv[j]));
  }
  for (PetscInt i = xs; i < xs + xm; ++i) {
    for (int blk = 0; blk < 2; ++blk) {
      const int off = blk ? d->iW : d->iV;
      double A[9], b[3], x[3] = {0, 0, 0};
      bool known[3] = {false, false, false};
      for (int r = 0; r < 3; ++r) {
        b[r] = -f0[i][off + r];
        for (int c = 0; c < 3; ++c) A[3 * r + c] = fjc[((size_t)(3 * blk + c) * xm + (i - xs)) * ndd + off + r] - f0[i][off + r];
      }
      for (int k = 0; k < 2; ++k) {
        const PlDynEnd *E = &d->ends[k];
        if (E->node != i) continue;
        double xb[3], vb[3], ab[3], pb[4], wb[3];
        PlDynEndPrescribed(d, E, d->t0, xb, vb, ab, pb, wb);
        for (int c = 0; c < 3; ++c) {
          if (!blk && E->tr[c]) known[c] = true, x[c] = ab[c];
          if (blk && (E->rot == 1 || (E->rot == 2 && E->rp[c]))) known[c] = true, x[c] = 0.0;
        }
      }
      Solve3Masked(A, known, x, b);
      for (int c = 0; c < 3; ++c) yp[i][off + c] = x[c];
    }
  }
  PetscCall(PetscFree(fjc));
  PetscCall(DMDAVecRestoreArrayDOFRead(d->da, F0v, &f0));
  PetscCall(DMDAVecRestoreArrayDOF(d->da, YPv, &yp));
  PetscCall(DMDAVecRestoreArrayDOFRead(d->da, Yv, &y));
  PetscCall(PlDynPipeRestore(d, F0, &F0v));
  PetscCall(PlDynPipeRestore(d, d->yp, &YPv));
  PetscCall(PlDynPipeRestore(d, d->y, &Yv));
  for (int j = 0; j < 6; ++j) PetscCall(VecDestroy(&Fj[j]));
  PetscCall(VecDestroy(&F0));
  PetscCall(VecDestroy(&YP));
  if (d->ves.vm) PetscCall(PlDynVesselConsistentRate(d));
  PetscFunctionReturn(0);
}

/* Puts the prescribed values of the held DOFs into y at time t. */
static PetscErrorCode ApplyHeld(PlDynamic d, double t)
{
  PetscScalar **y;
  PetscInt xs, xm;
  PetscFunctionBeginUser;
  Vec Yv;
  PetscCall(DMDAGetCorners(d->da, &xs, NULL, NULL, &xm, NULL, NULL));
  PetscCall(PlDynPipeGet(d, d->y, &Yv));
  PetscCall(DMDAVecGetArrayDOF(d->da, Yv, &y));
  for (int k = 0; k < 2; ++k) {
    const PlDynEnd *E = &d->ends[k];
    const int i = E->node;
    if (i < xs || i >= xs + xm || (k == 1 && d->ves.vm)) continue;
    double xb[3], vb[3], ab[3], pb[4], wb[3];
    PlDynEndPrescribed(d, E, t, xb, vb, ab, pb, wb);
    for (int c = 0; c < 3; ++c)
      if (E->tr[c]) {
        y[i][c] = xb[c] - E->xs[c];
        y[i][d->iV + c] = vb[c];
      }
    if (E->rot == 1) {
      for (int j = 0; j < d->np; ++j) y[i][3 + j] = pb[j];
      for (int c = 0; c < 3; ++c) y[i][d->iW + c] = wb[c];
    }
  }
  PetscCall(DMDAVecRestoreArrayDOF(d->da, Yv, &y));
  PetscCall(PlDynPipeRestore(d, d->y, &Yv));
  if (d->ves.vm) PetscCall(PlDynVesselTie(d));
  PetscFunctionReturn(0);
}

static PetscErrorCode SetUpIDA(PlDynamic d)
{
  const PlDynamicSettings *s = &d->sp->model.analysis.dynamic;
  KSP ksp;
  PC pc;
  PetscMPIInt size;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(d->comm, &size));
  PetscCheck(SUNContext_Create((void *)&d->comm, &d->sunctx) == 0, d->comm, PETSC_ERR_LIB, "SUNContext_Create failed");
  d->ny = N_VMake_Petsc(d->y, d->sunctx);
  d->nyp = N_VMake_Petsc(d->yp, d->sunctx);
  PetscCheck(d->ny && d->nyp, d->comm, PETSC_ERR_MEM, "N_VMake_Petsc failed");
  /* absolute tolerances per unknown kind */
  Vec atol, atolv;
  PetscScalar **a;
  PetscInt xs, xm;
  PetscCall(VecDuplicate(d->y, &atol));
  PetscCall(DMDAGetCorners(d->da, &xs, NULL, NULL, &xm, NULL, NULL));
  PetscCall(PlDynPipeGet(d, atol, &atolv));
  PetscCall(DMDAVecGetArrayDOF(d->da, atolv, &a));
  for (PetscInt i = xs; i < xs + xm; ++i) {
    const PlProblem sp = d->sp;
    const int ne = sp->mesh.nelements;
    double Lmin = sp->elements[i < ne ? i : ne - 1].L;
    if (i > 0) Lmin = fmin(Lmin, sp->elements[i - 1].L);
    const double ax = s->atol_strain > 0.0 ? fmin(s->atol_position, s->atol_strain * Lmin) : s->atol_position;
    for (int r = 0; r < d->ndd; ++r) a[i][r] = r < 3 ? ax : (r < d->iV ? s->atol_rotation : s->atol_velocity);
  }
  PetscCall(DMDAVecRestoreArrayDOF(d->da, atolv, &a));
  PetscCall(PlDynPipeRestore(d, atol, &atolv));
  if (d->ves.vm) {
    /* vessel: position, attitude, velocities as the pipe's; the DP integral states
     * (integrated position error) [m s] like positions */
    PetscMPIInt rank;
    PetscCallMPI(MPI_Comm_rank(d->comm, &rank));
    if (rank == d->ves.owner) {
      PetscScalar *v;
      PetscCall(VecGetArray(atol, &v));
      double *x = v + xm * d->ndd;
      for (int k = 0; k < d->ves.nx; ++k)
        x[k] = k < PL_VESSEL_Q ? s->atol_position
             : k < PL_VESSEL_V ? s->atol_rotation
             : k < PL_VESSEL_NY ? s->atol_velocity : s->atol_position;
      PetscCall(VecRestoreArray(atol, &v));
    }
  }
  d->natol = N_VMake_Petsc(atol, d->sunctx);
  PetscCall(VecDuplicate(d->y, &d->ewt));
  d->newt = N_VMake_Petsc(d->ewt, d->sunctx);
  d->ida = IDACreate(d->sunctx);
  PetscCheck(d->ida && d->natol && d->newt, d->comm, PETSC_ERR_MEM, "IDACreate failed");
  PetscCheck(IDAInit(d->ida, IdaResidual, d->t0, d->ny, d->nyp) == IDA_SUCCESS, d->comm, PETSC_ERR_LIB, "IDAInit failed");
  PetscCheck(IDASVtolerances(d->ida, s->rtol, d->natol) == IDA_SUCCESS, d->comm, PETSC_ERR_LIB, "IDASVtolerances failed");
  PetscCheck(IDASetUserData(d->ida, d) == IDA_SUCCESS, d->comm, PETSC_ERR_LIB, "IDASetUserData failed");
  if (s->max_step > 0.0) IDASetMaxStep(d->ida, s->max_step);
  if (s->initial_step > 0.0) IDASetInitStep(d->ida, s->initial_step);
  IDASetMaxOrd(d->ida, s->max_order); /* the loader's default or the user's, 1..5 */
  IDASetMaxNumSteps(d->ida, s->max_steps > 0 ? s->max_steps : 1000000);
  IDASetMaxConvFails(d->ida, 20);
  /* never step past the end of the analysis (outputs before it are interpolated) */
  if (s->duration > 0.0) IDASetStopTime(d->ida, d->t0 + s->duration);
  IDASetMaxErrTestFails(d->ida, 20);

  PetscCall(SNESCreate(d->comm, &d->snes));
  d->nls = SUNNonlinSol_PetscSNES(d->ny, d->snes, d->sunctx);
  PetscCheck(d->nls, d->comm, PETSC_ERR_LIB, "SUNNonlinSol_PetscSNES failed");
  PetscCall(SNESSetOptionsPrefix(d->snes, "dyn_"));
  PetscCall(SNESSetJacobian(d->snes, d->J, d->J, SnesJacobian, d));
  PetscCall(SNESSetType(d->snes, SNESNEWTONLS));
  SNESLineSearch ls;
  PetscCall(SNESGetLineSearch(d->snes, &ls));
  PetscCall(SNESLineSearchSetType(ls, SNESLINESEARCHBASIC));
  PetscCall(SNESSetTolerances(d->snes, 0.0, 0.0, 0.0, 50, 1000));
  PetscCall(SNESSetConvergenceTest(d->snes, ConvergenceTest, d, NULL));
  PetscCall(SNESGetKSP(d->snes, &ksp));
  PetscCall(KSPSetType(ksp, KSPPREONLY));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCLU));
  /* every constraint row has its own diagonal entry except a partial rotational hold
   * (its row is a parameter, its diagonal the angular velocity): that needs pivoting */
  const int partial = d->ends[0].rot == 2 || d->ends[1].rot == 2;
  if (size > 1 || partial) PetscCall(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS));
  if (size > 1 && d->ves.vm) {
    /* with the vessel's rows on more than one rank, MUMPS's default (automatic) ordering let
     * Newton fail after ~0.5 s of the section 4.4 scenario while its solves' residuals stayed
     * at 1e-18 (root cause not found); AMD (ICNTL(7) = 0) runs it to the same result as one
     * rank. A user's -dyn_mat_mumps_icntl_7 wins. */
    PetscBool set;
    PetscCall(PetscOptionsHasName(NULL, "dyn_", "-mat_mumps_icntl_7", &set));
    if (!set) PetscCall(PetscOptionsSetValue(NULL, "-dyn_mat_mumps_icntl_7", "0"));
  }
  else PetscCall(PCFactorSetMatOrderingType(pc, MATORDERINGRCM)); /* a chain: banded, half
                                                                     the LU time of ND */
  PetscCall(SNESSetFromOptions(d->snes));
  PetscCheck(IDASetNonlinearSolver(d->ida, d->nls) == IDA_SUCCESS, d->comm, PETSC_ERR_LIB, "IDASetNonlinearSolver failed");
  d->ss = 20.0;
  PetscFunctionReturn(0);
}

PetscErrorCode PlDynLineSetUp(PlProblem sp, PlDynamic *out)
{
  PlDynamic d;
  const PlModel *m = &sp->model;
  const int nn = sp->mesh.nnodes, ne = sp->mesh.nelements;
  double *us;
  PetscFunctionBeginUser;
  PetscCall(PetscCalloc1(1, &d));
  d->sp = sp;
  d->comm = sp->comm;
  d->kind = sp->kind;
  d->np = PlParamCount(d->kind);
  d->nd = sp->nd;
  d->ndd = PlDynNodeDofCount(d->kind);
  d->iV = 3 + d->np;
  d->iW = 6 + d->np;
  d->t0 = 0.0;
  /* lumped inertia and hydrodynamics */
  PetscCall(PetscCalloc1(nn, &d->inertia));
  PetscCall(PetscCalloc1(ne, &d->morison));
  PetscCall(PetscCalloc1(nn, &d->wnode));
  for (int e = 0; e < ne; ++e) {
    const PlSegment *seg = &m->segments[sp->mesh.segment[e]];
    const PlSection *s = &seg->section;
    const double L = sp->elements[e].L;
    for (int a = 0; a < 2; ++a) {
      PlNodeInertia *ni = &d->inertia[e + a];
      ni->mass += 0.5 * L * s->mass_per_length;
      for (int c = 0; c < 3; ++c) {
        ni->J[c] += 0.5 * L * s->inertia[c];
        ni->D[c] += 0.5 * L * seg->hydro.rotational_damping[c];
      }
      d->wnode[e + a] += 0.5 * L * sp->w[e];
    }
    PlMorison *h = &d->morison[e];
    h->L = L;
    h->rho_w = m->water_density;
    h->d_h = s->hydro_diameter > 0.0 ? s->hydro_diameter : s->outer_diameter;
    h->Cdn = seg->hydro.drag_normal;
    h->Cdt = seg->hydro.drag_tangential;
    h->Can = seg->hydro.added_mass_normal;
    h->Cat = seg->hydro.added_mass_tangential;
  }
  PetscCall(PlGatherUnknowns(sp, &us));
  SetUpEnd(d, 0, us);
  SetUpEnd(d, 1, us);
  if (m->vessel.present) { /* the top is the vessel's: the joint rows, not a hold */
    PlDynEnd *E = &d->ends[1];
    for (int c = 0; c < 3; ++c) E->tr[c] = E->rp[c] = false;
    E->rot = 0;
  }
  PetscCall(PetscMalloc1(3 * nn, &d->xs));
  for (int i = 0; i < nn; ++i)
    for (int k = 0; k < 3; ++k) d->xs[3 * i + k] = us[(size_t)i * d->nd + k];
  free(us);
  *out = d;
  PetscFunctionReturn(0);
}

PetscErrorCode PlDynamicCreate(PlProblem sp, PlDynamic *out)
{
  PlDynamic d;
  const PlModel *m = &sp->model;
  const int nn = sp->mesh.nnodes;
  PetscFunctionBeginUser;
  PetscCall(PlDynLineSetUp(sp, &d));

  /* DMDA with the static problem's ownership */
  const PetscInt *lx;
  PetscMPIInt size;
  PetscCallMPI(MPI_Comm_size(d->comm, &size));
  PetscCall(DMDAGetOwnershipRanges(sp->da, &lx, NULL, NULL));
  PetscCall(DMDACreate1d(d->comm, DM_BOUNDARY_NONE, nn, d->ndd, 1, lx, &d->da));
  PetscCall(DMSetUp(d->da));
  if (m->vessel.present) PetscCall(PlDynVesselSetUp(d));
  else {
    PetscCall(DMCreateGlobalVector(d->da, &d->y));
    PetscCall(VecDuplicate(d->y, &d->yp));
    PetscCall(VecDuplicate(d->y, &d->work_y));
    PetscCall(VecDuplicate(d->y, &d->work_yp));
    PetscCall(DMCreateMatrix(d->da, &d->J));
    PetscCall(MatSetOption(d->J, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE));
  }
  /* y0: the static state at rest */
  {
    PetscScalar **y;
    const PetscScalar **u;
    PetscInt xs, xm;
    Vec Yv;
    PetscCall(DMDAGetCorners(d->da, &xs, NULL, NULL, &xm, NULL, NULL));
    PetscCall(PlDynPipeGet(d, d->y, &Yv));
    PetscCall(DMDAVecGetArrayDOF(d->da, Yv, &y));
    PetscCall(DMDAVecGetArrayDOFRead(sp->da, sp->u, &u));
    for (PetscInt i = xs; i < xs + xm; ++i) {
      for (int r = 0; r < d->ndd; ++r) y[i][r] = 0.0;
      for (int r = 3; r < d->nd; ++r) y[i][r] = u[i][r]; /* displacement 0 */
      if (d->kind == PL_PARAM_QUATERNION) { /* exactly unit */
        const double n = sqrt(y[i][3] * y[i][3] + y[i][4] * y[i][4] + y[i][5] * y[i][5] + y[i][6] * y[i][6]);
        for (int k = 0; k < 4; ++k) y[i][3 + k] /= n;
      }
    }
    PetscCall(DMDAVecRestoreArrayDOFRead(sp->da, sp->u, &u));
    PetscCall(DMDAVecRestoreArrayDOF(d->da, Yv, &y));
    PetscCall(PlDynPipeRestore(d, d->y, &Yv));
    if (d->ves.vm) { /* the vessel's start */
      PetscMPIInt rank;
      PetscCallMPI(MPI_Comm_rank(d->comm, &rank));
      if (rank == d->ves.owner) {
        PetscScalar *a;
        PetscCall(VecGetArray(d->y, &a));
        memcpy(a + xm * d->ndd, d->ves.y0, sizeof(double) * d->ves.nx);
        PetscCall(VecRestoreArray(d->y, &a));
      }
    }
  }
  PetscCall(ApplyHeld(d, d->t0));
  PetscCall(ConsistentRate(d));
  PetscCall(SetUpIDA(d));
  *out = d;
  PetscFunctionReturn(0);
}

PetscErrorCode PlDynamicSetVelocity(PlDynamic d, const double *v)
{
  PetscScalar **y;
  PetscInt xs, xm;
  Vec Yv;
  PetscFunctionBeginUser;
  PetscCall(DMDAGetCorners(d->da, &xs, NULL, NULL, &xm, NULL, NULL));
  PetscCall(PlDynPipeGet(d, d->y, &Yv));
  PetscCall(DMDAVecGetArrayDOF(d->da, Yv, &y));
  for (PetscInt i = xs; i < xs + xm; ++i)
    for (int c = 0; c < 3; ++c) y[i][d->iV + c] = v[3 * i + c];
  PetscCall(DMDAVecRestoreArrayDOF(d->da, Yv, &y));
  PetscCall(PlDynPipeRestore(d, d->y, &Yv));
  PetscCall(ApplyHeld(d, d->t0));
  PetscCall(ConsistentRate(d));
  PetscCheck(IDAReInit(d->ida, d->t0, d->ny, d->nyp) == IDA_SUCCESS, d->comm, PETSC_ERR_LIB, "IDAReInit failed");
  d->cj_J = 0.0;
  PetscFunctionReturn(0);
}

PetscErrorCode PlDynamicGetRaw(PlDynamic d, double *t, double *y, double *yp)
{
  PetscFunctionBeginUser;
  *t = d->t_out;
  PetscCall(PlVecGatherAll(d->y, y));
  PetscCall(PlVecGatherAll(d->yp, yp));
  PetscFunctionReturn(0);
}

PetscErrorCode PlDynamicSetRaw(PlDynamic d, double t, const double *y, const double *yp)
{
  PetscScalar *ya, *ypa;
  PetscInt lo, hi;
  PetscFunctionBeginUser;
  /* the raw layout is the global vector's (pipe nodes in order, then the vessel's) */
  PetscCall(VecGetOwnershipRange(d->y, &lo, &hi));
  PetscCall(VecGetArray(d->y, &ya));
  PetscCall(VecGetArray(d->yp, &ypa));
  for (PetscInt k = lo; k < hi; ++k) {
    ya[k - lo] = y[k];
    ypa[k - lo] = yp[k];
  }
  PetscCall(VecRestoreArray(d->y, &ya));
  PetscCall(VecRestoreArray(d->yp, &ypa));
  d->t0 = t;
  d->t_out = t;
  PetscCheck(IDAReInit(d->ida, t, d->ny, d->nyp) == IDA_SUCCESS, d->comm, PETSC_ERR_LIB, "IDAReInit failed");
  if (d->sp->model.analysis.dynamic.duration > 0.0) IDASetStopTime(d->ida, d->sp->model.analysis.dynamic.duration);
  d->cj_J = 0.0;
  PetscFunctionReturn(0);
}

void PlDynamicSetStopFlag(PlDynamic d, volatile sig_atomic_t *stop) { d->stop = stop; }

/* IDA one step at a time up to tout, then the state at tout interpolated (IDAGetDky: the
 * same interpolation as IDA_NORMAL's, so the results do not change). Between steps: a stop
 * request (agreed over the ranks) and the stall test. */
int PlIdaAdvance(void *ida, N_Vector y, N_Vector yp, double tout, volatile sig_atomic_t *stop, MPI_Comm comm,
                 double *t_reached, char *why, size_t len)
{
  realtype tret = 0.0, tcur = 0.0, h = 0.0;
  int small = 0;
  if (why && len) why[0] = '\0';
  IDAGetCurrentTime(ida, &tcur);
  *t_reached = tcur;
  while (tcur < tout) {
    int halt = stop && *stop;
    MPI_Allreduce(MPI_IN_PLACE, &halt, 1, MPI_INT, MPI_MAX, comm);
    if (halt) {
      /* y, yp hold IDA's last step at tcur (IDA_ONE_STEP returns it there): that state is
       * what a checkpoint of the interrupted run records */
      *t_reached = tcur;
      if (why && len) snprintf(why, len, "interrupted by a signal at t = %.6g s", (double)tcur);
      return PL_DYN_INTERRUPTED;
    }
    const int rc = IDASolve(ida, tout, &tret, y, yp, IDA_ONE_STEP);
    if (rc < 0) {
      realtype hc = 0.0, tc = 0.0;
      IDAGetCurrentStep(ida, &hc);
      IDAGetCurrentTime(ida, &tc);
      *t_reached = tc;
      if (why && len) {
        const char *name = IDAGetReturnFlagName(rc);
        const char *hint =
          rc == IDA_CONV_FAIL   ? "the Newton iteration kept failing as the step was cut (a state the rod cannot take, e.g. an end driven too hard, or too loose tolerances)"
          : rc == IDA_ERR_FAIL  ? "the error test kept failing as the step was cut (a discontinuity in the loads or the prescribed motion, or tolerances too tight)"
          : rc == IDA_TOO_MUCH_WORK ? "analysis.dynamic.max_steps reached"
          : rc == IDA_TOO_MUCH_ACC ? "the tolerances are below machine precision for this state"
          : rc == IDA_RES_FAIL  ? "the residual evaluation failed"
          : "see the IDA documentation";
        snprintf(why, len, "IDA stopped at t = %.6g s (step %.3g s) with %s: %s", (double)tc, (double)hc,
                 name ? name : "an error", hint);
        free((void *)name); /* IDAGetReturnFlagName mallocs its text */
      }
      return rc;
    }
    IDAGetLastStep(ida, &h);
    small = h < 1e-10 * (1.0 + fabs((double)tret)) ? small + 1 : 0;
    if (small >= 100) {
      *t_reached = tret;
      if (why && len)
        snprintf(why, len, "the integration stalled at t = %.9g s: 100 steps in a row were shorter than %.1e s (the "
                 "last %.3g s). A jump in a prescribed velocity or a load does this: a time-series motion with "
                 "interpolation: linear jumps in velocity at every row, so set its interpolation: cubic; otherwise "
                 "look for a step in the loads at that time, or loosen analysis.dynamic.rtol", (double)tret,
                 1e-10 * (1.0 + fabs((double)tret)), (double)h);
      return PL_DYN_STALLED;
    }
    IDAGetCurrentTime(ida, &tcur);
    if (rc == IDA_TSTOP_RETURN) break;
  }
  if (IDAGetDky(ida, tout, 0, y) != IDA_SUCCESS || IDAGetDky(ida, tout, 1, yp) != IDA_SUCCESS) {
    if (why && len) snprintf(why, len, "IDA could not interpolate the state at t = %.6g s", tout);
    return IDA_ILL_INPUT;
  }
  *t_reached = tout;
  return 0;
}

PetscErrorCode PlDynamicAdvance(PlDynamic d, double tout, int *flag, char *why, size_t len)
{
  double tr;
  PetscFunctionBeginUser;
  *flag = PlIdaAdvance(d->ida, d->ny, d->nyp, tout, d->stop, d->comm, &tr, why, len);
  if (!*flag || *flag == PL_DYN_INTERRUPTED) d->t_out = tr;
  PetscFunctionReturn(0);
}

PetscErrorCode PlDynamicGetStats(PlDynamic d, PlDynamicStats *st)
{
  long nst = 0, nre = 0, nnf = 0, netf = 0;
  realtype h = 0.0, t = 0.0;
  int q = 0;
  PetscFunctionBeginUser;
  IDAGetNumSteps(d->ida, &nst);
  IDAGetNumResEvals(d->ida, &nre);
  IDAGetNumNonlinSolvConvFails(d->ida, &nnf);
  IDAGetNumErrTestFails(d->ida, &netf);
  IDAGetLastStep(d->ida, &h);
  IDAGetCurrentTime(d->ida, &t);
  IDAGetLastOrder(d->ida, &q);
  st->t = t;
  st->steps = nst;
  st->residual_evaluations = nre;
  st->nonlinear_iterations = d->nni; /* counted here: SUNDIALS 6.4's SNES wrapper reads a
                                         PetscInt into a 64-bit integer */
  st->nonlinear_failures = nnf;
  st->jacobian_evaluations = d->njac;
  st->error_test_failures = netf;
  st->last_step = h;
  st->last_order = q;
  PetscFunctionReturn(0);
}

PetscErrorCode PlDynamicEnergy(PlDynamic d, double *kin, double *strain, double *pot)
{
  const PlProblem p = d->sp;
  const int ne = p->mesh.nelements, nd = d->nd;
  Vec Yl;
  PetscScalar **y;
  PetscInt xs, xm;
  double e[3] = {0, 0, 0};
  PetscFunctionBeginUser;
  Vec Yv;
  PetscCall(DMGetLocalVector(d->da, &Yl));
  PetscCall(PlDynPipeGet(d, d->y, &Yv));
  PetscCall(DMGlobalToLocal(d->da, Yv, INSERT_VALUES, Yl));
  PetscCall(PlDynPipeRestore(d, d->y, &Yv));
  PetscCall(DMDAGetCorners(d->da, &xs, NULL, NULL, &xm, NULL, NULL));
  PetscCall(DMDAVecGetArrayDOFRead(d->da, Yl, &y));
  for (PetscInt i = xs; i < xs + xm; ++i) {
    e[0] += PlNodeKineticEnergy(&d->inertia[i], d->kind, y[i]);
    e[2] += d->wnode[i] * (y[i][2] + d->xs[3 * i + 2]);
    for (int k = 0; k < 2; ++k)
      if (d->ends[k].node == i)
        for (int c = 0; c < 3; ++c) e[2] -= d->ends[k].F[c] * (y[i][c] + d->xs[3 * i + c]);
    if (i < ne) {
      double ue[PL_ELEM_DOF_MAX];
      memcpy(ue, y[i], nd * sizeof(double));
      memcpy(ue + nd, y[i + 1], nd * sizeof(double));
      for (int k = 0; k < 3; ++k) {
        ue[k] += d->xs[3 * i + k];
        ue[nd + k] += d->xs[3 * (i + 1) + k];
      }
      e[1] += PlRodElementEnergy(&p->elements[i], ue);
    }
  }
  PetscCall(DMDAVecRestoreArrayDOFRead(d->da, Yl, &y));
  PetscCall(DMRestoreLocalVector(d->da, &Yl));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, e, 3, MPI_DOUBLE, MPI_SUM, d->comm));
  if (d->ves.vm) { /* the vessel's (the same on every rank) */
    double vk, vp;
    PetscCall(PlDynVesselEnergy(d, &vk, &vp));
    e[0] += vk;
    e[2] += vp;
  }
  *kin = e[0];
  *strain = e[1];
  *pot = e[2];
  PetscFunctionReturn(0);
}

PetscErrorCode PlDynamicSyncStatic(PlDynamic d)
{
  PetscScalar **u;
  const PetscScalar **y;
  PetscInt xs, xm;
  PetscFunctionBeginUser;
  PetscCall(DMDAGetCorners(d->da, &xs, NULL, NULL, &xm, NULL, NULL));
  Vec Yv;
  PetscCall(DMDAVecGetArrayDOF(d->sp->da, d->sp->u, &u));
  PetscCall(PlDynPipeGet(d, d->y, &Yv));
  PetscCall(DMDAVecGetArrayDOFRead(d->da, Yv, &y));
  for (PetscInt i = xs; i < xs + xm; ++i)
    for (int r = 0; r < d->nd; ++r) u[i][r] = y[i][r] + (r < 3 ? d->xs[3 * i + r] : 0.0);
  PetscCall(DMDAVecRestoreArrayDOFRead(d->da, Yv, &y));
  PetscCall(PlDynPipeRestore(d, d->y, &Yv));
  PetscCall(DMDAVecRestoreArrayDOF(d->sp->da, d->sp->u, &u));
  PetscFunctionReturn(0);
}

PetscErrorCode PlDynamicGatherState(PlDynamic d, double **out, int *ndd)
{
  PetscInt n;
  PetscFunctionBeginUser;
  PetscCall(VecGetSize(d->y, &n)); /* the pipe's nodes, then the vessel's unknowns */
  double *y = malloc(sizeof(double) * n);
  PetscCheck(y, d->comm, PETSC_ERR_MEM, "out of memory gathering the state");
  PetscCall(PlVecGatherAll(d->y, y));
  for (int i = 0; i < d->sp->mesh.nnodes; ++i) /* displacements -> positions */
    for (int k = 0; k < 3; ++k) y[(size_t)i * d->ndd + k] += d->xs[3 * i + k];
  *out = y;
  *ndd = d->ndd;
  PetscFunctionReturn(0);
}

PetscErrorCode PlDynamicDestroy(PlDynamic *pd)
{
  PetscFunctionBeginUser;
  if (!pd || !*pd) PetscFunctionReturn(0);
  PlDynamic d = *pd;
  if (d->ida) IDAFree(&d->ida);
  if (d->nls) SUNNonlinSolFree(d->nls);
  PetscCall(SNESDestroy(&d->snes));
  if (d->natol) {
    Vec a = N_VGetVector_Petsc(d->natol);
    N_VDestroy(d->natol);
    PetscCall(VecDestroy(&a));
  }
  if (d->newt) N_VDestroy(d->newt);
  if (d->ny) N_VDestroy(d->ny);
  if (d->nyp) N_VDestroy(d->nyp);
  if (d->sunctx) SUNContext_Free(&d->sunctx);
  PetscCall(VecDestroy(&d->ewt));
  PetscCall(VecDestroy(&d->y));
  PetscCall(VecDestroy(&d->yp));
  PetscCall(VecDestroy(&d->work_y));
  PetscCall(VecDestroy(&d->work_yp));
  PetscCall(MatDestroy(&d->J));
  for (int k = 0; k < 4; ++k) PetscCall(VecDestroy(&d->pv[k]));
  PetscCall(DMDestroy(&d->da));
  PetscCall(PetscFree(d->inertia));
  PetscCall(PetscFree(d->morison));
  PetscCall(PetscFree(d->wnode));
  PetscCall(PetscFree(d->xs));
  PetscCall(PetscFree(d));
  *pd = NULL;
  PetscFunctionReturn(0);
}
