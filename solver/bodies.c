/*
 * bodies.c - a model without a line: rigid bodies, each with its loads and optional DP
 * controller, joined to each other or to the ground by joints, integrated by SUNDIALS IDA as
 * one DAE (issue 14; docs/design-system-core.md §2.2). One body without joints is the Giusti
 * tests' rigid body alone; the vessel: block of such a model is one body named "vessel".
 *
 * Unknowns: those of solver/multibody.c (per body r, q, v, w; per joint lambda, mu in the
 * stabilised index-2 form), then the 6 integral states of each body's DP controller. Rows:
 * multibody.c's, with each body's loads passed to it as constants (tau_body: the DP thrust
 * and a body-frame environment load; load_global: a global environment load at O_b) and their
 * state derivatives added here (-dtau/dy in the Newton-Euler rows, the controller's rows as
 * models/dp.c gives them). Serial: a dense direct solver with the exact iteration matrix.
 *
 * The joints are assembled at the initial poses by construction (models.h, PlJointModel),
 * and the loader has checked that the initial velocities satisfy them (G nu = 0). IDACalcIC finds the initial accelerations and reactions (IDA_YA_YDP_INIT).
 * The multipliers are algebraic: left out of the error test (IDASetSuppressAlg), with the
 * absolute tolerance analysis.dynamic.atol_reaction in Newton's convergence test.
 *
 * Files (in the output directory): timeseries_<body>.csv per body (the columns of
 * timeseries_vessel.csv), timeseries_<joint>.csv per joint (the joint point, and the force
 * and moment about it that the joint applies to its first body, global), energy.csv, and
 * summary.json with "analysis": "rigid_body", a "bodies" and a "joints" object; the bodies'
 * poses go to opt->bodies_observer at every output time (the app draws them for ParaView).
 */
#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "solver_impl.h"

typedef struct {
  const PlModel *m;
  PlVessel V[PL_MAX_BODIES];
  PlMultibodyJoint jt[PL_MAX_JOINTS];
  PlMultibody mb;
  int nmb;                   /* unknowns of the bodies and joints */
  int zoff[PL_MAX_BODIES];   /* first DP integral state of body b, or -1 */
  int n;                     /* all unknowns */
  double tb[PL_MAX_BODIES][6], lg[PL_MAX_BODIES][6]; /* the loads passed to multibody.c */
  double tau[PL_MAX_BODIES][6], env[PL_MAX_BODIES][6]; /* the last residual's thrust, environment */
  double *Jd;                /* n x n scratch (row-major) */
  SUNContext ctx;
  void *ida;
  N_Vector y, yp, atol, id;
  SUNMatrix A;
  SUNLinearSolver LS;
} Sys;

/* Residual (and with J, n x n row-major, the iteration matrix) of the whole system. */
static int Rows(Sys *s, double t, const double *y, const double *yp, double c, double *F, double *J)
{
  const PlModel *m = s->m;
  const int n = s->n, nv = PL_VESSEL_NY;
  double dtau_dy[PL_MAX_BODIES][6 * PL_VESSEL_NY], dtau_dz[PL_MAX_BODIES][36];
  double drz_dy[PL_MAX_BODIES][6 * PL_VESSEL_NY], drz_dz[PL_MAX_BODIES][36], rz[PL_MAX_BODIES][6];
  for (int b = 0; b < m->nbodies; ++b) {
    const PlVesselModel *vm = &m->bodies[b];
    double tau[6] = {0, 0, 0, 0, 0, 0};
    memset(s->tb[b], 0, sizeof s->tb[b]);
    memset(s->lg[b], 0, sizeof s->lg[b]);
    PlVesselLoadApply(&vm->environment, t, s->env[b], s->tb[b], s->lg[b]);
    if (s->zoff[b] >= 0)
      PlDPControlVessel(&vm->dp, t, y + nv * b, y + s->zoff[b], yp + s->zoff[b], c, tau, rz[b], J ? dtau_dy[b] : NULL,
                        J ? dtau_dz[b] : NULL, J ? drz_dy[b] : NULL, J ? drz_dz[b] : NULL);
    for (int i = 0; i < 6; ++i) s->tb[b][i] += tau[i];
    memcpy(s->tau[b], tau, sizeof tau);
  }
  /* the bodies and joints: rows 0..nmb-1 over the columns 0..nmb-1 */
  double *Jmb = J ? s->Jd : NULL;
  if (PlMultibodyEvaluate(&s->mb, t, y, yp, c, F, Jmb)) return 1;
  for (int b = 0; b < m->nbodies; ++b)
    if (s->zoff[b] >= 0)
      for (int i = 0; i < 6; ++i) F[s->zoff[b] + i] = rz[b][i];
  if (!J) return 0;
  memset(J, 0, sizeof(double) * (size_t)n * (size_t)n);
  for (int i = 0; i < s->nmb; ++i) memcpy(J + (size_t)i * n, Jmb + (size_t)i * s->nmb, sizeof(double) * s->nmb);
  for (int b = 0; b < m->nbodies; ++b) {
    const int z = s->zoff[b];
    if (z < 0) continue;
    for (int i = 0; i < 6; ++i) {
      for (int j = 0; j < nv; ++j) {
        J[(size_t)(nv * b + PL_VESSEL_V + i) * n + nv * b + j] -= dtau_dy[b][i * nv + j];
        J[(size_t)(z + i) * n + nv * b + j] = drz_dy[b][i * nv + j];
      }
      for (int j = 0; j < 6; ++j) {
        J[(size_t)(nv * b + PL_VESSEL_V + i) * n + z + j] = -dtau_dz[b][6 * i + j];
        J[(size_t)(z + i) * n + z + j] = drz_dz[b][6 * i + j];
      }
    }
  }
  return 0;
}

static int IdaRes(realtype t, N_Vector yy, N_Vector yp, N_Vector rr, void *ud)
{
  return Rows((Sys *)ud, t, N_VGetArrayPointer(yy), N_VGetArrayPointer(yp), 0.0, N_VGetArrayPointer(rr), NULL) ? 1 : 0;
}

static int IdaJac(realtype t, realtype cj, N_Vector yy, N_Vector yp, N_Vector rr, SUNMatrix Jm, void *ud, N_Vector t1,
                  N_Vector t2, N_Vector t3)
{
  (void)t1, (void)t2, (void)t3;
  Sys *s = (Sys *)ud;
  double *J = malloc(sizeof(double) * (size_t)s->n * (size_t)s->n);
  if (!J) return -1;
  const int bad = Rows(s, t, N_VGetArrayPointer(yy), N_VGetArrayPointer(yp), cj, N_VGetArrayPointer(rr), J);
  if (!bad)
    for (int i = 0; i < s->n; ++i)
      for (int j = 0; j < s->n; ++j) SM_ELEMENT_D(Jm, i, j) = J[(size_t)i * s->n + j];
  free(J);
  return bad ? 1 : 0;
}

static void Free(Sys *s)
{
  if (s->ida) IDAFree(&s->ida);
  if (s->LS) SUNLinSolFree(s->LS);
  if (s->A) SUNMatDestroy(s->A);
  if (s->y) N_VDestroy(s->y);
  if (s->yp) N_VDestroy(s->yp);
  if (s->atol) N_VDestroy(s->atol);
  if (s->id) N_VDestroy(s->id);
  if (s->ctx) SUNContext_Free(&s->ctx);
  free(s->Jd);
}

/* The consistent start of the index-2 system: the accelerations nu' and the reactions lambda
 * at t = 0 from the Newton-Euler rows and the time derivative of the velocity constraint,
 *   M nu' + G^T lambda = -F_NE(nu' = 0, lambda = 0),   G nu' = -(dG/dt) nu,
 * with M = dF_NE/dnu', G^T = dF_NE/dlambda, G = dF_vel/dnu and (dG/dt) nu = dF_vel/dp p'
 * (p the poses, p' their kinematic rates), all read off the iteration matrices at c = 0 and
 * c = 1; mu = 0. IDA's own IDACalcIC cannot do this: F = 0 holds already with any lambda
 * (the index-2 form has no row that fixes it at t = 0). y, yp are updated. Returns 1 when the
 * saddle-point matrix is singular. */
static int ConsistentStart(Sys *s, double *y, double *yp)
{
  const int n = s->n, nmb = s->nmb, nb = s->mb.nbodies, nv = PL_VESSEL_NY;
  const int nlam = (nmb - nv * nb) / 2, k = 6 * nb + nlam;
  int rc = 1;
  double *J0 = malloc(sizeof(double) * (size_t)n * n), *J1 = malloc(sizeof(double) * (size_t)n * n);
  double *F = malloc(sizeof(double) * (size_t)n), *A = calloc((size_t)k * k, sizeof(double));
  double *b = calloc((size_t)k, sizeof(double));
  int *rows = malloc(sizeof(int) * (size_t)k), *cols = malloc(sizeof(int) * (size_t)k);
  if (!J0 || !J1 || !F || !A || !b || !rows || !cols) goto done;
  for (int bb = 0; bb < nb; ++bb)
    for (int i = 0; i < 6; ++i) yp[nv * bb + PL_VESSEL_V + i] = 0.0;
  for (int i = nv * nb; i < nmb; ++i) y[i] = yp[i] = 0.0;
  if (Rows(s, 0.0, y, yp, 0.0, F, J0) || Rows(s, 0.0, y, yp, 1.0, F, J1)) goto done;
  /* the unknowns: nu' of each body (columns of yp), then lambda of each joint (columns of y) */
  int off = nv * nb, e = 0;
  for (int bb = 0; bb < nb; ++bb)
    for (int i = 0; i < 6; ++i, ++e) rows[e] = cols[e] = nv * bb + PL_VESSEL_V + i;
  for (int j = 0; j < s->mb.njoints; ++j) {
    const int m = PlJointRowCount(s->jt[j].joint.kind);
    for (int r = 0; r < m; ++r, ++e) rows[e] = cols[e] = off + r; /* the velocity rows, the lambda columns */
    off += 2 * m;
  }
  for (int r = 0; r < k; ++r) {
    const int row = rows[r];
    const int is_ne = r < 6 * nb;
    for (int c = 0; c < k; ++c) {
      const int col = cols[c];
      const int is_acc = c < 6 * nb;
      if (is_ne) A[(size_t)r * k + c] = is_acc ? J1[(size_t)row * n + col] - J0[(size_t)row * n + col] : J0[(size_t)row * n + col];
      else A[(size_t)r * k + c] = is_acc ? J0[(size_t)row * n + col] : 0.0;
    }
    if (is_ne) b[r] = -F[row];
    else { /* -(dF_vel/dp) p' over the poses r, q of every body */
      double sum = 0.0;
      for (int bb = 0; bb < nb; ++bb)
        for (int i = 0; i < PL_VESSEL_V; ++i) sum += J0[(size_t)row * n + nv * bb + i] * yp[nv * bb + i];
      b[r] = -sum;
    }
  }
  if (PlDenseSolveInPlace(k, A, b)) goto done;
  for (int bb = 0; bb < nb; ++bb)
    for (int i = 0; i < 6; ++i) yp[nv * bb + PL_VESSEL_V + i] = b[6 * bb + i];
  for (int r = 6 * nb; r < k; ++r) y[cols[r]] = b[r];
  rc = 0;
done:
  free(J0), free(J1), free(F), free(A), free(b), free(rows), free(cols);
  return rc;
}

/* The start: the initial poses and velocities, DP states zero; the rates from the equations
 * (IDACalcIC with joints: the accelerations and the reactions). */
static int SetUp(Sys *s, const PlModel *m, char *why, size_t len)
{
  const PlDynamicSettings *d = &m->analysis.dynamic;
  memset(s, 0, sizeof *s);
  s->m = m;
  PlMultibodyFromModel(m, s->V, s->jt, s->tb, s->lg, &s->mb);
  s->nmb = PlMultibodySize(&s->mb);
  s->n = s->nmb;
  for (int b = 0; b < m->nbodies; ++b) {
    s->zoff[b] = m->bodies[b].has_dp ? s->n : -1;
    if (m->bodies[b].has_dp) s->n += 6;
  }
  const int n = s->n;
  s->Jd = malloc(sizeof(double) * (size_t)s->nmb * (size_t)s->nmb);
  if (!s->Jd || SUNContext_Create(NULL, &s->ctx)) return 1;
  s->y = N_VNew_Serial(n, s->ctx);
  s->yp = N_VNew_Serial(n, s->ctx);
  s->atol = N_VNew_Serial(n, s->ctx);
  s->id = N_VNew_Serial(n, s->ctx);
  s->ida = IDACreate(s->ctx);
  s->A = SUNDenseMatrix(n, n, s->ctx);
  if (!s->y || !s->yp || !s->atol || !s->id || !s->ida || !s->A) return 1;
  s->LS = SUNLinSol_Dense(s->y, s->A, s->ctx);
  if (!s->LS) return 1;
  double *y = N_VGetArrayPointer(s->y), *yp = N_VGetArrayPointer(s->yp), *at = N_VGetArrayPointer(s->atol),
         *id = N_VGetArrayPointer(s->id);
  memset(y, 0, sizeof(double) * n);
  memset(yp, 0, sizeof(double) * n);
  PlMultibodyIds(&s->mb, id);
  for (int k = s->nmb; k < n; ++k) id[k] = 1.0; /* DP integral states */
  for (int b = 0; b < m->nbodies; ++b) {
    const PlVesselModel *vm = &m->bodies[b];
    double *yb = y + PL_VESSEL_NY * b, *ab = at + PL_VESSEL_NY * b;
    for (int c = 0; c < 3; ++c) {
      yb[c] = vm->position[c];
      yb[PL_VESSEL_V + c] = vm->velocity[c];
      yb[PL_VESSEL_W + c] = vm->angular_velocity[c];
    }
    PlVesselQuatFromEulerZYX(vm->rpy, yb + PL_VESSEL_Q);
    for (int k = 0; k < PL_VESSEL_NY; ++k)
      ab[k] = k < PL_VESSEL_Q ? d->atol_position : k < PL_VESSEL_V ? d->atol_rotation : d->atol_velocity;
    if (s->zoff[b] >= 0)
      for (int i = 0; i < 6; ++i) at[s->zoff[b] + i] = d->atol_position;
  }
  for (int k = PL_VESSEL_NY * m->nbodies; k < s->nmb; ++k) at[k] = d->atol_reaction;
  /* rates: each body's free motion under its loads (exact without joints; IDACalcIC corrects
   * the accelerations and finds the reactions with them), the DP rows zdot = f */
  double *r = malloc(sizeof(double) * (size_t)n);
  if (!r) return 1;
  Rows(s, 0.0, y, yp, 0.0, r, NULL);
  for (int b = 0; b < m->nbodies; ++b)
    if (PlVesselConsistentRate(&s->V[b], y + PL_VESSEL_NY * b, s->tb[b], s->lg[b], yp + PL_VESSEL_NY * b)) {
      snprintf(why, len, "bodies[%d] (%s): the mass matrix is singular or the start state is not finite", b,
               m->bodies[b].id);
      free(r);
      return 1;
    }
  Rows(s, 0.0, y, yp, 0.0, r, NULL);
  for (int b = 0; b < m->nbodies; ++b)
    if (s->zoff[b] >= 0)
      for (int i = 0; i < 6; ++i) yp[s->zoff[b] + i] = -r[s->zoff[b] + i];
  free(r);
  if (IDAInit(s->ida, IdaRes, 0.0, s->y, s->yp) || IDASVtolerances(s->ida, d->rtol, s->atol) ||
      IDASetUserData(s->ida, s) || IDASetLinearSolver(s->ida, s->LS, s->A) || IDASetJacFn(s->ida, IdaJac) ||
      IDASetId(s->ida, s->id))
    return 1;
  IDASetMaxNumSteps(s->ida, d->max_steps > 0 ? d->max_steps : 1000000);
  IDASetMaxOrd(s->ida, d->max_order);
  if (d->max_step > 0.0) IDASetMaxStep(s->ida, d->max_step);
  if (d->initial_step > 0.0) IDASetInitStep(s->ida, d->initial_step);
  IDASetStopTime(s->ida, d->duration);
  if (m->njoints > 0) {
    IDASetSuppressAlg(s->ida, SUNTRUE);
    if (ConsistentStart(s, y, yp)) {
      snprintf(why, len,
               "the initial accelerations and joint reactions could not be found (the joints' matrix [M G^T; G 0] is "
               "singular): check that no two joints hold the same freedom of a body");
      return 1;
    }
    IDAReInit(s->ida, 0.0, s->y, s->yp);
  }
  return 0;
}

/* What is written of body b at time t (the loads from the last residual at (y, yp)). */
static void BodyOutput(const Sys *s, int b, double t, const double *y, PlVesselOutput *o)
{
  const PlVesselModel *vm = &s->m->bodies[b];
  const double *yb = y + PL_VESSEL_NY * b;
  double dref[6];
  memset(o, 0, sizeof *o);
  PlVesselEta(yb, o->eta, NULL);
  for (int i = 0; i < 6; ++i) {
    o->nu[i] = yb[PL_VESSEL_V + i];
    o->thrust[i] = s->tau[b][i];
    o->environment[i] = s->env[b][i];
    o->z[i] = s->zoff[b] >= 0 ? y[s->zoff[b] + i] : 0.0;
  }
  if (vm->has_dp) PlDPReferenceEval(&vm->dp.ref, t, o->eta_ref, dref);
  else memcpy(o->eta_ref, o->eta, sizeof o->eta);
  PlVesselHangOff(vm, yb, yb + PL_VESSEL_Q, o->hang_off_point, NULL);
}

static void SummaryBodies(cJSON *root, const PlModel *m, const PlBodiesReport *rep)
{
  const double r2d = 180.0 / 3.14159265358979323846;
  cJSON *bodies = cJSON_AddObjectToObject(root, "bodies");
  for (int b = 0; b < m->nbodies; ++b) {
    const PlVesselOutput *o = &rep->body_final[b];
    cJSON *v = cJSON_AddObjectToObject(bodies, m->bodies[b].id);
    const double eta[6] = {o->eta[0], o->eta[1], o->eta[2], o->eta[3] * r2d, o->eta[4] * r2d, o->eta[5] * r2d};
    cJSON_AddItemToObject(v, "final_eta_m_deg", cJSON_CreateDoubleArray(eta, 6));
    cJSON_AddItemToObject(v, "final_reported_point_m", cJSON_CreateDoubleArray(o->hang_off_point, 3));
    if (m->bodies[b].has_dp) {
      const double off[2] = {o->eta[0] - o->eta_ref[0], o->eta[1] - o->eta_ref[1]};
      cJSON_AddItemToObject(v, "final_offset_from_reference_m", cJSON_CreateDoubleArray(off, 2));
      cJSON_AddNumberToObject(v, "max_offset_from_reference_m", rep->body_max_offset_m[b]);
      cJSON_AddItemToObject(v, "final_thrust_N_Nm", cJSON_CreateDoubleArray(o->thrust, 6));
      cJSON_AddItemToObject(v, "final_integral_states", cJSON_CreateDoubleArray(o->z, 6));
      cJSON_AddNumberToObject(v, "max_horizontal_thrust_N", rep->body_max_thrust_N[b]);
    }
  }
  cJSON *joints = cJSON_AddObjectToObject(root, "joints");
  for (int j = 0; j < m->njoints; ++j) {
    cJSON *v = cJSON_AddObjectToObject(joints, m->joints[j].name);
    cJSON_AddItemToObject(v, "final_point_m", cJSON_CreateDoubleArray(rep->joint_point[j], 3));
    cJSON_AddItemToObject(v, "final_force_N", cJSON_CreateDoubleArray(rep->joint_force[j], 3));
    cJSON_AddItemToObject(v, "final_moment_Nm", cJSON_CreateDoubleArray(rep->joint_moment[j], 3));
    cJSON_AddNumberToObject(v, "max_force_N", rep->joint_max_force_N[j]);
    cJSON_AddNumberToObject(v, "max_moment_Nm", rep->joint_max_moment_Nm[j]);
  }
  if (m->njoints) cJSON_AddNumberToObject(root, "max_joint_gap_m", rep->max_joint_gap_m);
}

int PlBodiesRunToFiles(const PlModel *m, const PlDynamicRunOptions *opt, PlDynamicResult *res, PlBodiesReport *rep)
{
  const PlDynamicSettings *d = &m->analysis.dynamic;
  const char *dir = m->output_dir;
  const int nb = m->nbodies, nj = m->njoints;
  Sys *s = calloc(1, sizeof *s);
  FILE *fb[PL_MAX_BODIES] = {NULL}, *fj[PL_MAX_JOINTS] = {NULL}, *fe = NULL;
  int io = 0;
  memset(res, 0, sizeof *res);
  memset(rep, 0, sizeof *rep);
  res->has_vessel = 1;
  const double wall0 = MPI_Wtime();
  if (!s || SetUp(s, m, res->failure, sizeof res->failure)) {
    if (!res->failure[0]) snprintf(res->failure, sizeof res->failure, "cannot set up IDA for the bodies (out of memory?)");
    res->ida_flag = -1;
    if (s) Free(s);
    free(s);
    return 0;
  }
  io = PlMakeDirs(dir, &res->err);
  char path[PL_PATH_MAX + 128];
  for (int k = 0; !io && k < nb + nj + 1; ++k) {
    FILE **f = k < nb ? &fb[k] : k < nb + nj ? &fj[k - nb] : &fe;
    const char *hdr = k < nb ? PlVesselSeriesHeader() : k < nb + nj ? PlJointSeriesHeader()
                                                                     : "t_s,kinetic_J,strain_J,potential_J,total_J\n";
    if (k < nb + nj)
      snprintf(path, sizeof path, "%s/timeseries_%s.csv", dir, k < nb ? m->bodies[k].id : m->joints[k - nb].name);
    else
      snprintf(path, sizeof path, "%s/energy.csv", dir);
    *f = fopen(path, "w");
    if (!*f || fputs(hdr, *f) < 0) {
      snprintf(res->err.msg, sizeof res->err.msg, "%.900s: cannot write: %s", path, strerror(errno));
      io = PL_EXIT_IO;
    }
  }
  const double dt = d->output_interval, T = d->duration;
  const long nout = (long)ceil(T / dt - 1e-9);
  double t = 0.0;
  double *r = malloc(sizeof(double) * (size_t)s->n);
  if (!r) io = PL_EXIT_FAILURE;
  for (long k = 0; !io && k <= nout; ++k) {
    const double tout = k == nout ? T : k * dt;
    if (k > 0) {
      realtype tret;
      const int rc = IDASolve(s->ida, tout, &tret, s->y, s->yp, IDA_NORMAL);
      if (rc < 0) {
        res->ida_flag = rc;
        char *name = IDAGetReturnFlagName(rc);
        snprintf(res->failure, sizeof res->failure,
                 "IDA stopped before t = %.6g s with %s: try a smaller analysis.dynamic.max_step or initial_step, or "
                 "a larger norm_rate on fast-spinning bodies (docs/model-file.md)",
                 tout, name ? name : "an error");
        free(name);
        break;
      }
    }
    t = tout;
    const double *y = N_VGetArrayPointer(s->y), *yp = N_VGetArrayPointer(s->yp);
    Rows(s, t, y, yp, 0.0, r, NULL); /* the loads at (t, y) for the output */
    double ek = 0.0, ep = 0.0;
    for (int b = 0; b < nb; ++b) {
      PlVesselOutput vo;
      BodyOutput(s, b, t, y, &vo);
      PlVesselSeriesRow(fb[b], t, &vo);
      ek += PlVesselKineticEnergy(&s->V[b], y + PL_VESSEL_NY * b);
      ep += PlVesselPotentialEnergy(&s->V[b], y + PL_VESSEL_NY * b);
      rep->body_final[b] = vo;
      if (m->bodies[b].has_dp && t >= m->bodies[b].dp.start_time)
        rep->body_max_offset_m[b] =
          fmax(rep->body_max_offset_m[b], hypot(vo.eta[0] - vo.eta_ref[0], vo.eta[1] - vo.eta_ref[1]));
      rep->body_max_thrust_N[b] = fmax(rep->body_max_thrust_N[b], hypot(vo.thrust[0], vo.thrust[1]));
    }
    for (int j = 0; j < nj; ++j) {
      double *P = rep->joint_point[j], *F = rep->joint_force[j], *M = rep->joint_moment[j];
      PlMultibodyJointLoad(&s->mb, y, j, P, F, M);
      PlJointSeriesRow(fj[j], t, P, F, M);
      rep->joint_max_force_N[j] = fmax(rep->joint_max_force_N[j], sqrt(F[0] * F[0] + F[1] * F[1] + F[2] * F[2]));
      rep->joint_max_moment_Nm[j] = fmax(rep->joint_max_moment_Nm[j], sqrt(M[0] * M[0] + M[1] * M[1] + M[2] * M[2]));
    }
    rep->max_joint_gap_m = fmax(rep->max_joint_gap_m, PlMultibodyJointGap(&s->mb, y));
    if (opt->bodies_observer) {
      double r0[PL_MAX_BODIES][3], R0[PL_MAX_BODIES][9];
      for (int b = 0; b < nb; ++b) {
        const double *yb = y + PL_VESSEL_NY * b, *q = yb + PL_VESSEL_Q;
        const double nq = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        const double qn[4] = {q[0] / nq, q[1] / nq, q[2] / nq, q[3] / nq};
        memcpy(r0[b], yb, sizeof r0[b]);
        PlQuatToMatrix(qn, R0[b]);
      }
      if (opt->bodies_observer(opt->bodies_observer_ctx, t, nb, (const double(*)[3])r0, (const double(*)[9])R0,
                               &res->err))
        io = PL_EXIT_IO;
    }
    fprintf(fe, "%.17g,%.17g,0,%.17g,%.17g\n", t, ek, ep, ek + ep);
    fflush(fe);
    if (nb > 0) res->vessel_final = rep->body_final[0];
    if (opt->stop && *opt->stop) {
      res->interrupted = 1;
      break;
    }
  }
  free(r);
  PlIdaRunResult(s->ida, t, T, wall0, io, res);
  for (int k = 0; k < nb + nj + 1; ++k) {
    FILE *f = k < nb ? fb[k] : k < nb + nj ? fj[k - nb] : fe;
    if (f && fclose(f) && !io) {
      io = PL_EXIT_IO;
      snprintf(res->err.msg, sizeof res->err.msg, "%.900s: closing a file failed", dir);
    }
  }
  if (!io) {
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "analysis", "rigid_body");
    cJSON_AddStringToObject(root, "name", m->name);
    cJSON_AddStringToObject(root, "model", m->source_path);
    cJSON_AddBoolToObject(root, "completed", res->completed);
    PlSummaryAddRunCounters(root, T, dt, res);
    SummaryBodies(root, m, rep);
    if (res->ida_flag) cJSON_AddStringToObject(root, "dynamic_failure", res->failure);
    if (res->interrupted) cJSON_AddStringToObject(root, "dynamic_failure", "interrupted by a signal");
    io = PlSummaryWrite(dir, root, &res->err);
    cJSON_Delete(root);
  }
  res->io_status = io;
  Free(s);
  free(s);
  return 0;
}
