/*
 * dynamic_vessel.c - the vessel at the top of the line in the dynamic analysis (issue 4):
 * pipe, vessel and DP controller as one DAE, solved together by IDA (eq 5.66, Chapter 4).
 *
 * Unknowns: the pipe's (dynamic.c) followed, on the last rank, by the vessel's 13
 * (r, q, v, w: elements/vessel.c) and, with a DP controller, its 6 integral states z
 * (models/dp.c). The last rank also owns the top node.
 *
 * The joint. The top node sits on the hang-off point P = r + R a and moves with it; its
 * rows are replaced by
 *   X rows  x_top - r - R a = 0,    V rows  v_top - R (v + w x a) = 0,
 * and with a fixed connection (R_t^e(L) = R_b^e R_t^b, eq 4.5) also
 *   P rows  the node's parameters tied to X = q0* (x) q (x) q_T (PlParamTie; for
 *           quaternions p = X, which also holds |p| = 1),
 *   W rows  w_top - T^T w = 0        (T = R_t^b: the body angular velocity in the node frame).
 * The multiplier is eliminated: the top node's unconstrained momentum residual,
 * f (global) and m (node frame), is what the vessel supplies to the pipe, so the vessel's
 * Newton-Euler rows get + [R^T f ; a x R^T f + T m] (PlVesselJointLoad; a hinge passes no
 * moment). The pipe's inertia at the top node thereby rides on the vessel. The sum over
 * ranks of f, m is formed each evaluation (the top element may live on another rank); the
 * iteration matrix gets the same transfer of the top node's rows (exact, no lagging), plus
 * the derivative of R^T in the transfer.
 *
 * Vessel rows: PlVesselDynamics with the environment load (global: a dead load at O_b;
 * body: a follower) and the DP thrust tau (PlDPControlVessel, with its derivatives), and the
 * controller's integral rows.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "dynamic_impl.h"

/* ---- pipe views of state-sized vectors ---------------------------------------------------- */
PetscErrorCode PlDynPipeGet(PlDynamic d, Vec Y, Vec *P)
{
  PetscFunctionBeginUser;
  if (!d->ves.vm) {
    *P = Y;
    PetscFunctionReturn(0);
  }
  int k = 0;
  while (k < 4 && d->pv_of[k]) ++k;
  PetscCheck(k < 4, d->comm, PETSC_ERR_PLIB, "more than four pipe views at once");
  PetscCall(VecGetArray(Y, &d->pv_arr[k]));
  PetscCall(VecPlaceArray(d->pv[k], d->pv_arr[k]));
  d->pv_of[k] = Y;
  *P = d->pv[k];
  PetscFunctionReturn(0);
}

PetscErrorCode PlDynPipeRestore(PlDynamic d, Vec Y, Vec *P)
{
  PetscFunctionBeginUser;
  if (!d->ves.vm) {
    *P = NULL;
    PetscFunctionReturn(0);
  }
  int k = 0;
  while (k < 4 && d->pv[k] != *P) ++k;
  PetscCheck(k < 4 && d->pv_of[k] == Y, d->comm, PETSC_ERR_PLIB, "not a pipe view of this vector");
  PetscCall(VecResetArray(d->pv[k]));
  PetscCall(VecRestoreArray(Y, &d->pv_arr[k]));
  d->pv_of[k] = NULL;
  *P = NULL;
  PetscFunctionReturn(0);
}

/* Local pipe unknowns of this rank (the offset of the extras in the owner's array). */
static PetscInt PipeLocal(const PlDynamic d)
{
  PetscInt xs, xm;
  DMDAGetCorners(d->da, &xs, NULL, NULL, &xm, NULL, NULL);
  return xm * d->ndd;
}

/* ---- set-up --------------------------------------------------------------------------------- */
static PetscErrorCode CreateMatrix(PlDynamic d)
{
  const int ndd = d->ndd, nx = d->ves.nx, nn = d->sp->mesh.nnodes;
  PetscInt xs, xm, mloc;
  PetscMPIInt rank;
  ISLocalToGlobalMapping ltog_dm, ltog;
  const PetscInt *gidx;
  PetscInt nl;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(d->comm, &rank));
  PetscCall(DMDAGetCorners(d->da, &xs, NULL, NULL, &xm, NULL, NULL));
  mloc = xm * ndd + (rank == d->ves.owner ? nx : 0);
  PetscInt *dnz, *onz;
  PetscCall(PetscMalloc2(mloc, &dnz, mloc, &onz));
  for (PetscInt i = xs; i < xs + xm; ++i)
    for (int r = 0; r < ndd; ++r) {
      PetscInt dn = 0, on = 0;
      for (PetscInt j = i - 1; j <= i + 1; ++j) {
        if (j < 0 || j >= nn) continue;
        if (j >= xs && j < xs + xm) dn += ndd;
        else on += ndd;
      }
      if (i == nn - 1) dn += nx; /* the joint rows reach the vessel's unknowns */
      dnz[(i - xs) * ndd + r] = dn;
      onz[(i - xs) * ndd + r] = on;
    }
  if (rank == d->ves.owner)
    for (int r = 0; r < nx; ++r) {
      PetscInt dn = nx, on = 0;
      for (PetscInt j = nn - 2; j <= nn - 1; ++j) {
        if (j < 0) continue;
        if (j >= xs && j < xs + xm) dn += ndd;
        else on += ndd;
      }
      dnz[xm * ndd + r] = dn;
      onz[xm * ndd + r] = on;
    }
  PetscCall(MatCreateAIJ(d->comm, mloc, mloc, PETSC_DETERMINE, PETSC_DETERMINE, 0, dnz, 0, onz, &d->J));
  PetscCall(PetscFree2(dnz, onz));
  /* the DMDA's local (ghosted) numbering of the pipe unknowns, unchanged in the extended
   * global numbering (the extras come last) */
  PetscCall(DMGetLocalToGlobalMapping(d->da, &ltog_dm));
  PetscCall(ISLocalToGlobalMappingGetSize(ltog_dm, &nl));
  PetscCall(ISLocalToGlobalMappingGetIndices(ltog_dm, &gidx));
  PetscCall(ISLocalToGlobalMappingCreate(d->comm, 1, nl, gidx, PETSC_COPY_VALUES, &ltog));
  PetscCall(ISLocalToGlobalMappingRestoreIndices(ltog_dm, &gidx));
  PetscCall(MatSetLocalToGlobalMapping(d->J, ltog, ltog));
  PetscCall(ISLocalToGlobalMappingDestroy(&ltog));
  PetscCall(MatSetOption(d->J, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE));
  PetscFunctionReturn(0);
}

/* The tie of a fixed end to its body: X = q0* (x) q_b (x) q_T = Aq q_b (Aq 4x4, row-major),
 * q0 the end node's reference frame and q_T the quaternion of T (R(q0) R(p) = R_b T); for
 * quaternion parameters the sign that keeps the hemisphere of the end's parameters p at the
 * body attitude qb. */
void PlDynFixedTieMap(const double q0[4], const double T[9], PlParamKind kind, const double *p, const double qb[4],
                      double Aq[16])
{
  const double q0c[4] = {q0[0], -q0[1], -q0[2], -q0[3]};
  double qT[4];
  PlQuatFromMatrix(T, qT);
  for (int j = 0; j < 4; ++j) {
    double e[4] = {0, 0, 0, 0}, t[4], X[4];
    e[j] = 1.0;
    PlQuatMul(q0c, e, t);
    PlQuatMul(t, qT, X);
    for (int i = 0; i < 4; ++i) Aq[4 * i + j] = X[i];
  }
  if (kind != PL_PARAM_QUATERNION) return;
  double dot = 0.0;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) dot += p[i] * Aq[4 * i + j] * qb[j];
  if (dot < 0.0)
    for (int k = 0; k < 16; ++k) Aq[k] = -Aq[k];
}

PetscErrorCode PlDynVesselSetUp(PlDynamic d)
{
  const PlProblem sp = d->sp;
  const PlVesselModel *vm = &sp->model.vessel;
  PlDynVessel *V = &d->ves;
  PetscMPIInt size, rank;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(d->comm, &size));
  PetscCallMPI(MPI_Comm_rank(d->comm, &rank));
  V->vm = vm;
  V->nx = PL_VESSEL_NY + (vm->has_dp ? 6 : 0);
  V->owner = size - 1;
  V->fixed = vm->connection == PL_HANGOFF_FIXED;
  memcpy(V->T, vm->top_frame, sizeof V->T);
  const int nn = sp->mesh.nnodes;
  V->g0 = (PetscInt)nn * d->ndd;

  /* the start: the coupled static equilibrium, else the vessel's initial pose */
  memset(V->y0, 0, sizeof V->y0);
  if (vm->has_dp) V->dp = vm->dp;
  if (sp->vessel_solved) {
    memcpy(V->y0, sp->vessel_y, sizeof(double) * PL_VESSEL_NY);
    if (vm->has_dp) {
      memcpy(V->y0 + PL_VESSEL_NY, sp->dp_z, 6 * sizeof(double));
      /* before the controller starts the thrusters hold the static thrust: the start is
       * the equilibrium the static analysis found */
      memcpy(V->dp.tau_hold, sp->vessel_report.thrust, sizeof V->dp.tau_hold);
    }
  } else {
    memcpy(V->y0, vm->position, 3 * sizeof(double));
    PlVesselQuatFromEulerZYX(vm->rpy, V->y0 + PL_VESSEL_Q);
  }
  for (int c = 0; c < 3; ++c) {
    V->y0[PL_VESSEL_V + c] = vm->velocity[c];
    V->y0[PL_VESSEL_W + c] = vm->angular_velocity[c];
  }

  /* fixed: X = q0* (x) q_v (x) q_T = Aq q_v, the sign of the static top parameters */
  if (V->fixed) PlDynFixedTieMap(sp->mesh.q0 + 4 * (nn - 1), V->T, d->kind, d->ends[1].ps, V->y0 + PL_VESSEL_Q, V->Aq);

  /* vectors: the pipe's DMDA layout with the extras appended on the owner */
  PetscInt xs, xm;
  PetscCall(DMDAGetCorners(d->da, &xs, NULL, NULL, &xm, NULL, NULL));
  const PetscInt nloc = xm * d->ndd;
  PetscCall(VecCreateMPI(d->comm, nloc + (rank == V->owner ? V->nx : 0), PETSC_DETERMINE, &d->y));
  PetscCall(VecDuplicate(d->y, &d->yp));
  PetscCall(VecDuplicate(d->y, &d->work_y));
  PetscCall(VecDuplicate(d->y, &d->work_yp));
  for (int k = 0; k < 4; ++k) {
    PetscCall(VecCreateMPIWithArray(d->comm, 1, nloc, PETSC_DETERMINE, NULL, &d->pv[k]));
    d->pv_of[k] = NULL;
  }
  PetscCall(CreateMatrix(d));
  PetscFunctionReturn(0);
}

/* ---- evaluation ------------------------------------------------------------------------------ */
PetscErrorCode PlDynVesselLoad(PlDynamic d, Vec Y, Vec YP)
{
  PlDynVessel *V = &d->ves;
  PetscMPIInt rank;
  double buf[2 * PL_DYN_NX_MAX];
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(d->comm, &rank));
  if (rank == V->owner) {
    const PetscScalar *a;
    const PetscInt off = PipeLocal(d);
    PetscCall(VecGetArrayRead(Y, &a));
    for (int k = 0; k < V->nx; ++k) buf[k] = a[off + k];
    PetscCall(VecRestoreArrayRead(Y, &a));
    PetscCall(VecGetArrayRead(YP, &a));
    for (int k = 0; k < V->nx; ++k) buf[V->nx + k] = a[off + k];
    PetscCall(VecRestoreArrayRead(YP, &a));
  }
  PetscCallMPI(MPI_Bcast(buf, 2 * V->nx, MPI_DOUBLE, V->owner, d->comm));
  memcpy(V->y, buf, sizeof(double) * V->nx);
  memcpy(V->yp, buf + V->nx, sizeof(double) * V->nx);
  double tau[6], f0[3] = {0, 0, 0};
  PlVesselJointLoad(V->y, V->vm->hang_off, V->fixed ? V->T : NULL, f0, f0, tau, NULL, V->dtau_df, V->dtau_dm);
  PetscFunctionReturn(0);
}

int PlDynVesselRowHeld(const PlDynamic d, int r)
{
  if (r < 3 || (r >= d->iV && r < d->iV + 3)) return 1;
  return d->ves.fixed && ((r >= 3 && r < d->iV) || r >= d->iW);
}

PetscErrorCode PlDynVesselTransferRows(PlDynamic d, Mat J, const double *KV, const double *KW, int ncol,
                                       const PetscInt *gcol)
{
  const PlDynVessel *V = &d->ves;
  double out[6 * 2 * PL_DYN_DOF_MAX];
  PetscInt rows[6];
  PetscFunctionBeginUser;
  PetscCheck(ncol <= 2 * PL_DYN_DOF_MAX, d->comm, PETSC_ERR_PLIB, "too many columns");
  for (int i = 0; i < 6; ++i) {
    rows[i] = V->g0 + PL_VESSEL_V + i;
    for (int j = 0; j < ncol; ++j) {
      double s = 0.0;
      for (int k = 0; k < 3; ++k) {
        s += V->dtau_df[3 * i + k] * KV[k * ncol + j];
        if (V->fixed) s += V->dtau_dm[3 * i + k] * KW[k * ncol + j];
      }
      out[i * ncol + j] = s;
    }
  }
  PetscCall(MatSetValues(J, 6, rows, ncol, gcol, out, ADD_VALUES));
  PetscFunctionReturn(0);
}

/* Top node: its position x = u + x_static. */
static void TopPosition(const PlDynamic d, const double *y, double x[3])
{
  const int top = d->sp->mesh.nnodes - 1;
  for (int c = 0; c < 3; ++c) x[c] = y[c] + d->xs[3 * top + c];
}

static void TieQuat(const PlDynVessel *V, double X[4])
{
  for (int i = 0; i < 4; ++i) {
    X[i] = 0.0;
    for (int j = 0; j < 4; ++j) X[i] += V->Aq[4 * i + j] * V->y[PL_VESSEL_Q + j];
  }
}

void PlDynVesselTopResidual(const PlDynamic d, const double *y, double *f)
{
  const PlDynVessel *V = &d->ves;
  double xP[3], g[6];
  TopPosition(d, y, xP);
  if (PlVesselJointKinematics(V->y, V->vm->hang_off, xP, y + d->iV, g, NULL))
    for (int i = 0; i < 6; ++i) g[i] = NAN;
  for (int c = 0; c < 3; ++c) {
    f[c] = g[c];
    f[d->iV + c] = g[3 + c];
  }
  if (!V->fixed) return;
  double X[4], gt[4];
  TieQuat(V, X);
  const int n = PlParamTie(d->kind, y + 3, X, gt, NULL, NULL);
  for (int k = 0; k < n; ++k) f[3 + k] = gt[k];
  for (int c = 0; c < 3; ++c) {
    double s = y[d->iW + c];
    for (int j = 0; j < 3; ++j) s -= V->T[3 * j + c] * V->y[PL_VESSEL_W + j];
    f[d->iW + c] = s;
  }
}

PetscErrorCode PlDynVesselTopJacobian(PlDynamic d, Mat J, const double *y, double *Kn, PetscInt grow0)
{
  const PlDynVessel *V = &d->ves;
  const int ndd = d->ndd, nv = PL_VESSEL_NY;
  double xP[3], g[6], dg[6 * PL_VESSEL_NY];
  PetscInt cols[PL_VESSEL_NY], row;
  PetscFunctionBeginUser;
  for (int j = 0; j < nv; ++j) cols[j] = V->g0 + j;
  TopPosition(d, y, xP);
  PlVesselJointKinematics(V->y, V->vm->hang_off, xP, y + d->iV, g, dg);
  for (int c = 0; c < 3; ++c) {
    Kn[c * ndd + c] = 1.0;
    Kn[(d->iV + c) * ndd + d->iV + c] = 1.0;
    row = grow0 + c;
    PetscCall(MatSetValues(J, 1, &row, nv, cols, dg + c * nv, ADD_VALUES));
    row = grow0 + d->iV + c;
    PetscCall(MatSetValues(J, 1, &row, nv, cols, dg + (3 + c) * nv, ADD_VALUES));
  }
  if (!V->fixed) PetscFunctionReturn(0);
  double X[4], gt[4], dgp[16], dgX[16], vals[4];
  TieQuat(V, X);
  const int n = PlParamTie(d->kind, y + 3, X, gt, dgp, dgX);
  for (int k = 0; k < n; ++k) {
    for (int j = 0; j < d->np; ++j) Kn[(3 + k) * ndd + 3 + j] = dgp[k * d->np + j];
    for (int j = 0; j < 4; ++j) { /* d g/d q_v = dg/dX Aq */
      vals[j] = 0.0;
      for (int i = 0; i < 4; ++i) vals[j] += dgX[4 * k + i] * V->Aq[4 * i + j];
    }
    row = grow0 + 3 + k;
    PetscCall(MatSetValues(J, 1, &row, 4, cols + PL_VESSEL_Q, vals, ADD_VALUES));
  }
  for (int c = 0; c < 3; ++c) {
    Kn[(d->iW + c) * ndd + d->iW + c] = 1.0;
    for (int j = 0; j < 3; ++j) vals[j] = -V->T[3 * j + c];
    row = grow0 + d->iW + c;
    PetscCall(MatSetValues(J, 1, &row, 3, cols + PL_VESSEL_W, vals, ADD_VALUES));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode PlDynVesselRows(PlDynamic d, double t, double c, Vec F, Mat J)
{
  PlDynVessel *V = &d->ves;
  const PlVesselModel *vm = V->vm;
  const int nv = PL_VESSEL_NY, nx = V->nx;
  PetscMPIInt rank;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(d->comm, &rank));
  /* loads */
  double env[6], tau_body[6] = {0, 0, 0, 0, 0, 0}, load_global[6] = {0, 0, 0, 0, 0, 0};
  PlVesselLoadApply(&vm->environment, t, env, tau_body, load_global);
  double tau[6] = {0, 0, 0, 0, 0, 0}, rz[6], dtau_dy[6 * PL_VESSEL_NY], dtau_dz[36], drz_dy[6 * PL_VESSEL_NY],
         drz_dz[36];
  if (vm->has_dp)
    PlDPControlVessel(&V->dp, t, V->y, V->y + nv, V->yp + nv, c, tau, rz, J ? dtau_dy : NULL, J ? dtau_dz : NULL,
                      J ? drz_dy : NULL, J ? drz_dz : NULL);
  for (int i = 0; i < 6; ++i) tau_body[i] += tau[i];
  double r[PL_VESSEL_NY], K[PL_VESSEL_NY * PL_VESSEL_NY], tr[6], dtr[6 * PL_VESSEL_NY], df[18], dm[18];
  int bad = PlVesselDynamics(&vm->body, V->y, V->yp, c, tau_body, load_global, r, J ? K : NULL);
  PlVesselJointLoad(V->y, vm->hang_off, V->fixed ? V->T : NULL, V->lam, V->lam + 3, tr, J ? dtr : NULL, df, dm);
  for (int i = 0; i < 6; ++i) {
    r[PL_VESSEL_V + i] += tr[i];
    V->chi[i] = -tr[i];
    V->tau_dp[i] = tau[i];
    V->env[i] = env[i];
  }
  if (bad) d->domain_error = 1;
  if (rank != V->owner) PetscFunctionReturn(0);
  if (F) {
    PetscScalar *a;
    const PetscInt off = PipeLocal(d);
    PetscCall(VecGetArray(F, &a));
    for (int i = 0; i < nv; ++i) a[off + i] = r[i];
    if (vm->has_dp)
      for (int i = 0; i < 6; ++i) a[off + nv + i] = rz[i];
    PetscCall(VecRestoreArray(F, &a));
  }
  if (J) {
    double B[PL_DYN_NX_MAX * PL_DYN_NX_MAX];
    PetscInt idx[PL_DYN_NX_MAX];
    memset(B, 0, sizeof B);
    for (int i = 0; i < nx; ++i) idx[i] = V->g0 + i;
    for (int i = 0; i < nv; ++i)
      for (int j = 0; j < nv; ++j) B[i * nx + j] = K[i * nv + j];
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < nv; ++j) B[(PL_VESSEL_V + i) * nx + j] += dtr[i * nv + j];
    if (vm->has_dp) {
      for (int i = 0; i < 6; ++i) {
        for (int j = 0; j < nv; ++j) {
          B[(PL_VESSEL_V + i) * nx + j] -= dtau_dy[i * nv + j];
          B[(nv + i) * nx + j] = drz_dy[i * nv + j];
        }
        for (int j = 0; j < 6; ++j) {
          B[(PL_VESSEL_V + i) * nx + nv + j] -= dtau_dz[6 * i + j];
          B[(nv + i) * nx + nv + j] = drz_dz[6 * i + j];
        }
      }
    }
    PetscCall(MatSetValues(J, nx, idx, nx, idx, B, ADD_VALUES));
  }
  PetscFunctionReturn(0);
}

/* ---- start ------------------------------------------------------------------------------------ */
static void Cross3(const double a[3], const double b[3], double o[3])
{
  o[0] = a[1] * b[2] - a[2] * b[1];
  o[1] = a[2] * b[0] - a[0] * b[2];
  o[2] = a[0] * b[1] - a[1] * b[0];
}

/* Owner: the top node's values from the vessel's (y: the node's row). */
static void TieTop(const PlDynamic d, const double *yv, double *y)
{
  const PlDynVessel *V = &d->ves;
  const double *a = V->vm->hang_off, *q = yv + PL_VESSEL_Q, *v = yv + PL_VESSEL_V, *w = yv + PL_VESSEL_W;
  const int top = d->sp->mesh.nnodes - 1;
  double P[3], R[9], wa[3], vb[3];
  PlVesselHangOff(V->vm, yv, q, P, NULL);
  PlQuatToMatrix(q, R);
  Cross3(w, a, wa);
  for (int c = 0; c < 3; ++c) vb[c] = v[c] + wa[c];
  for (int c = 0; c < 3; ++c) {
    y[c] = P[c] - d->xs[3 * top + c];
    y[d->iV + c] = R[3 * c] * vb[0] + R[3 * c + 1] * vb[1] + R[3 * c + 2] * vb[2];
  }
  if (!V->fixed) return;
  double X[4];
  for (int i = 0; i < 4; ++i) {
    X[i] = 0.0;
    for (int j = 0; j < 4; ++j) X[i] += V->Aq[4 * i + j] * q[j];
  }
  PlParamFromQuaternion(d->kind, X, y + 3);
  for (int c = 0; c < 3; ++c) y[d->iW + c] = V->T[c] * w[0] + V->T[3 + c] * w[1] + V->T[6 + c] * w[2];
}

PetscErrorCode PlDynVesselTie(PlDynamic d)
{
  PlDynVessel *V = &d->ves;
  PetscMPIInt rank;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(d->comm, &rank));
  if (rank != V->owner) PetscFunctionReturn(0);
  PetscScalar *a;
  const PetscInt off = PipeLocal(d);
  PetscCall(VecGetArray(d->y, &a));
  double *yv = a + off;
  const double n = sqrt(yv[3] * yv[3] + yv[4] * yv[4] + yv[5] * yv[5] + yv[6] * yv[6]);
  for (int k = 0; k < 4; ++k) yv[PL_VESSEL_Q + k] /= n;
  TieTop(d, yv, a + off - d->ndd); /* the top node is the owner's last */
  PetscCall(VecRestoreArray(d->y, &a));
  PetscFunctionReturn(0);
}

/* Owner: rates of the top node implied by the vessel's rates (velocity rows and, fixed,
 * the angular acceleration): vdot_P = R (nudot_v + wdot x a) + R (w x (v + w x a)). */
static void TieTopRates(const PlDynamic d, const double *yv, const double *ypv, double *yp_top)
{
  const PlDynVessel *V = &d->ves;
  const double *a = V->vm->hang_off, *w = yv + PL_VESSEL_W, *v = yv + PL_VESSEL_V;
  const double *vd = ypv + PL_VESSEL_V, *wd = ypv + PL_VESSEL_W;
  double R[9], t1[3], t2[3], acc[3], wa[3], vb[3];
  PlQuatToMatrix(yv + PL_VESSEL_Q, R);
  Cross3(w, a, wa);
  for (int c = 0; c < 3; ++c) vb[c] = v[c] + wa[c];
  Cross3(wd, a, t1);
  Cross3(w, vb, t2);
  for (int c = 0; c < 3; ++c) acc[c] = vd[c] + t1[c] + t2[c];
  for (int c = 0; c < 3; ++c) yp_top[d->iV + c] = R[3 * c] * acc[0] + R[3 * c + 1] * acc[1] + R[3 * c + 2] * acc[2];
  if (V->fixed)
    for (int c = 0; c < 3; ++c) yp_top[d->iW + c] = V->T[c] * wd[0] + V->T[3 + c] * wd[1] + V->T[6 + c] * wd[2];
}

/* Owner: sets the extras' rates for the vessel accelerations nudot (6) and the implied top
 * node rates. */
static PetscErrorCode SetRates(PlDynamic d, const double nudot[6])
{
  PlDynVessel *V = &d->ves;
  PetscMPIInt rank;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(d->comm, &rank));
  if (rank != V->owner) PetscFunctionReturn(0);
  PetscScalar *y, *yp;
  const PetscInt off = PipeLocal(d);
  PetscCall(VecGetArray(d->y, &y));
  PetscCall(VecGetArray(d->yp, &yp));
  const double *yv = y + off;
  double *ypv = yp + off;
  /* kinematics: rdot = R v, qdot = q (x) (0, w)/2 */
  double R[9], qd[4];
  PlQuatToMatrix(yv + PL_VESSEL_Q, R);
  for (int c = 0; c < 3; ++c)
    ypv[c] = R[3 * c] * yv[PL_VESSEL_V] + R[3 * c + 1] * yv[PL_VESSEL_V + 1] + R[3 * c + 2] * yv[PL_VESSEL_V + 2];
  const double w4[4] = {0, yv[PL_VESSEL_W], yv[PL_VESSEL_W + 1], yv[PL_VESSEL_W + 2]};
  PlQuatMul(yv + PL_VESSEL_Q, w4, qd);
  for (int k = 0; k < 4; ++k) ypv[PL_VESSEL_Q + k] = 0.5 * qd[k];
  for (int k = 0; k < 6; ++k) ypv[PL_VESSEL_V + k] = nudot[k];
  TieTopRates(d, yv, ypv, yp + off - d->ndd);
  PetscCall(VecRestoreArray(d->yp, &yp));
  PetscCall(VecRestoreArray(d->y, &y));
  PetscFunctionReturn(0);
}


/* The vessel's 6 Newton-Euler rows of the residual at the current y, yp (all ranks). */
static PetscErrorCode VesselMomentumRows(PlDynamic d, Vec F, double r[6])
{
  PetscMPIInt rank;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(d->comm, &rank));
  PetscCall(PlDynamicResidual(d, d->t0, d->y, d->yp, F));
  if (rank == d->ves.owner) {
    const PetscScalar *a;
    PetscCall(VecGetArrayRead(F, &a));
    for (int i = 0; i < 6; ++i) r[i] = a[PipeLocal(d) + PL_VESSEL_V + i];
    PetscCall(VecRestoreArrayRead(F, &a));
  }
  PetscCallMPI(MPI_Bcast(r, 6, MPI_DOUBLE, d->ves.owner, d->comm));
  PetscFunctionReturn(0);
}

PetscErrorCode PlDynVesselConsistentRate(PlDynamic d)
{
  PlDynVessel *V = &d->ves;
  PetscMPIInt rank;
  Vec F;
  double r0[6], rj[6], A[36], nud[6] = {0, 0, 0, 0, 0, 0};
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(d->comm, &rank));
  PetscCall(VecDuplicate(d->y, &F));
  /* the controller's integral states: zdot = f (their rows are zdot - f) */
  if (V->vm->has_dp) {
    PetscCall(PlDynVesselLoad(d, d->y, d->yp));
    double tau[6], rz[6], zd0[6] = {0, 0, 0, 0, 0, 0};
    PlDPControlVessel(&V->dp, d->t0, V->y, V->y + PL_VESSEL_NY, zd0, 0.0, tau, rz, NULL, NULL, NULL, NULL);
    if (rank == V->owner) {
      PetscScalar *a;
      PetscCall(VecGetArray(d->yp, &a));
      for (int i = 0; i < 6; ++i) a[PipeLocal(d) + PL_VESSEL_NY + i] = -rz[i];
      PetscCall(VecRestoreArray(d->yp, &a));
    }
  }
  /* nudot: the Newton-Euler rows are linear in it (through the top node's rates too) */
  PetscCall(SetRates(d, nud));
  PetscCall(VesselMomentumRows(d, F, r0));
  for (int j = 0; j < 6; ++j) {
    double e[6] = {0, 0, 0, 0, 0, 0};
    e[j] = 1.0;
    PetscCall(SetRates(d, e));
    PetscCall(VesselMomentumRows(d, F, rj));
    for (int i = 0; i < 6; ++i) A[6 * i + j] = rj[i] - r0[i];
  }
  for (int i = 0; i < 6; ++i) r0[i] = -r0[i];
  PetscCheck(!PlSolveDense(6, A, r0, nud), d->comm, PETSC_ERR_NOT_CONVERGED,
             "the vessel's mass matrix with the pipe's is singular: check vessel.mass / mass_matrix");
  PetscCall(SetRates(d, nud));
  PetscCall(VecDestroy(&F));
  PetscFunctionReturn(0);
}

PetscErrorCode PlDynVesselEnergy(PlDynamic d, double *kin, double *pot)
{
  PetscFunctionBeginUser;
  PetscCall(PlDynVesselLoad(d, d->y, d->yp));
  *kin = PlVesselKineticEnergy(&d->ves.vm->body, d->ves.y);
  *pot = PlVesselPotentialEnergy(&d->ves.vm->body, d->ves.y);
  PetscFunctionReturn(0);
}

PetscErrorCode PlDynamicVesselOutput(PlDynamic d, PlVesselOutput *o)
{
  PlDynVessel *V = &d->ves;
  Vec F;
  PetscFunctionBeginUser;
  memset(o, 0, sizeof *o);
  if (!V->vm) PetscFunctionReturn(0);
  /* one residual evaluation at the current state leaves the loads in d->ves */
  PetscCall(VecDuplicate(d->y, &F));
  PetscCall(PlDynamicResidual(d, d->t_out, d->y, d->yp, F));
  PetscCall(VecDestroy(&F));
  PlVesselEta(V->y, o->eta, NULL);
  for (int i = 0; i < 6; ++i) {
    o->nu[i] = V->y[PL_VESSEL_V + i];
    o->thrust[i] = V->tau_dp[i];
    o->pipe_load[i] = V->chi[i];
    o->environment[i] = V->env[i];
    o->z[i] = V->vm->has_dp ? V->y[PL_VESSEL_NY + i] : 0.0;
  }
  double dref[6];
  if (V->vm->has_dp) PlDPReferenceEval(&V->dp.ref, d->t_out, o->eta_ref, dref);
  else memcpy(o->eta_ref, o->eta, sizeof o->eta);
  PlVesselHangOff(V->vm, V->y, V->y + PL_VESSEL_Q, o->hang_off_point, NULL);
  PetscFunctionReturn(0);
}
