/*
 * body.c - a rigid body alone: the vessel of a model without a line (the free rigid bodies
 * of section 7 of the Giusti report, a vessel without a pipe), integrated by SUNDIALS IDA
 * on its 13 unknowns (elements/vessel.c) and, with a DP controller, its 6 integral states
 * (models/dp.c), with the environment load. Serial: a dense direct solver with the kernel's
 * exact iteration matrix (PlVesselDynamics, PlDPControlVessel).
 *
 * Files (in the output directory): timeseries_vessel.csv and energy.csv as a coupled run
 * writes them (dynamic_run.c), and summary.json with "analysis": "rigid_body".
 */
#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "solver_impl.h"

#define NB_MAX (PL_VESSEL_NY + 6)

typedef struct {
  const PlModel *m;
  int n;                    /* 13, or 19 with DP */
  SUNContext ctx;
  void *ida;
  N_Vector y, yp, atol;
  SUNMatrix A;
  SUNLinearSolver LS;
  double tau[6], env[6];    /* the last residual's loads */
} Body;

/* Residual (and with K the iteration matrix) of the body and its controller. */
static int Rows(Body *b, double t, const double *y, const double *yp, double c, double *r, double *K)
{
  const PlVesselModel *vm = &b->m->vessel;
  const int nv = PL_VESSEL_NY, n = b->n;
  double env[6], tb[6] = {0, 0, 0, 0, 0, 0}, lg[6] = {0, 0, 0, 0, 0, 0}, tau[6] = {0, 0, 0, 0, 0, 0}, rz[6];
  double dtau_dy[6 * PL_VESSEL_NY], dtau_dz[36], drz_dy[6 * PL_VESSEL_NY], drz_dz[36], Kv[PL_VESSEL_NY * PL_VESSEL_NY];
  PlVesselLoadApply(&vm->environment, t, env, tb, lg);
  if (vm->has_dp)
    PlDPControlVessel(&vm->dp, t, y, y + nv, yp + nv, c, tau, rz, K ? dtau_dy : NULL, K ? dtau_dz : NULL,
                      K ? drz_dy : NULL, K ? drz_dz : NULL);
  for (int i = 0; i < 6; ++i) tb[i] += tau[i];
  const int bad = PlVesselDynamics(&vm->body, y, yp, c, tb, lg, r, K ? Kv : NULL);
  memcpy(b->tau, tau, sizeof tau);
  memcpy(b->env, env, sizeof env);
  if (vm->has_dp)
    for (int i = 0; i < 6; ++i) r[nv + i] = rz[i];
  if (!K) return bad;
  memset(K, 0, sizeof(double) * n * n);
  for (int i = 0; i < nv; ++i)
    for (int j = 0; j < nv; ++j) K[i * n + j] = Kv[i * nv + j];
  if (vm->has_dp)
    for (int i = 0; i < 6; ++i) {
      for (int j = 0; j < nv; ++j) {
        K[(PL_VESSEL_V + i) * n + j] -= dtau_dy[i * nv + j];
        K[(nv + i) * n + j] = drz_dy[i * nv + j];
      }
      for (int j = 0; j < 6; ++j) {
        K[(PL_VESSEL_V + i) * n + nv + j] = -dtau_dz[6 * i + j];
        K[(nv + i) * n + nv + j] = drz_dz[6 * i + j];
      }
    }
  return bad;
}

static int IdaRes(realtype t, N_Vector yy, N_Vector yp, N_Vector rr, void *ud)
{
  return Rows((Body *)ud, t, N_VGetArrayPointer(yy), N_VGetArrayPointer(yp), 0.0, N_VGetArrayPointer(rr), NULL) ? 1
                                                                                                                : 0;
}

static int IdaJac(realtype t, realtype cj, N_Vector yy, N_Vector yp, N_Vector rr, SUNMatrix J, void *ud,
                  N_Vector t1, N_Vector t2, N_Vector t3)
{
  (void)rr, (void)t1, (void)t2, (void)t3;
  Body *b = (Body *)ud;
  double r[NB_MAX], K[NB_MAX * NB_MAX];
  if (Rows(b, t, N_VGetArrayPointer(yy), N_VGetArrayPointer(yp), cj, r, K)) return 1;
  for (int i = 0; i < b->n; ++i)
    for (int j = 0; j < b->n; ++j) SM_ELEMENT_D(J, i, j) = K[i * b->n + j];
  return 0;
}

static void Free(Body *b)
{
  if (b->ida) IDAFree(&b->ida);
  if (b->LS) SUNLinSolFree(b->LS);
  if (b->A) SUNMatDestroy(b->A);
  if (b->y) N_VDestroy(b->y);
  if (b->yp) N_VDestroy(b->yp);
  if (b->atol) N_VDestroy(b->atol);
  if (b->ctx) SUNContext_Free(&b->ctx);
}

/* The start: the initial pose and velocities at rest in z; rates from the equations. */
static int SetUp(Body *b, const PlModel *m, char *why, size_t len)
{
  const PlVesselModel *vm = &m->vessel;
  const PlDynamicSettings *s = &m->analysis.dynamic;
  memset(b, 0, sizeof *b);
  b->m = m;
  b->n = PL_VESSEL_NY + (vm->has_dp ? 6 : 0);
  if (SUNContext_Create(NULL, &b->ctx)) return 1;
  b->y = N_VNew_Serial(b->n, b->ctx);
  b->yp = N_VNew_Serial(b->n, b->ctx);
  b->atol = N_VNew_Serial(b->n, b->ctx);
  b->ida = IDACreate(b->ctx);
  b->A = SUNDenseMatrix(b->n, b->n, b->ctx);
  if (!b->y || !b->yp || !b->atol || !b->ida || !b->A) return 1;
  b->LS = SUNLinSol_Dense(b->y, b->A, b->ctx);
  if (!b->LS) return 1;
  double *y = N_VGetArrayPointer(b->y), *yp = N_VGetArrayPointer(b->yp), *at = N_VGetArrayPointer(b->atol);
  memset(y, 0, sizeof(double) * b->n);
  memset(yp, 0, sizeof(double) * b->n);
  for (int c = 0; c < 3; ++c) {
    y[c] = vm->position[c];
    y[PL_VESSEL_V + c] = vm->velocity[c];
    y[PL_VESSEL_W + c] = vm->angular_velocity[c];
  }
  PlVesselQuatFromEulerZYX(vm->rpy, y + PL_VESSEL_Q);
  for (int k = 0; k < b->n; ++k)
    at[k] = k < PL_VESSEL_Q ? s->atol_position : k < PL_VESSEL_V ? s->atol_rotation
          : k < PL_VESSEL_NY ? s->atol_velocity : s->atol_position;
  /* consistent rates: the loads at t0 do not depend on the rates */
  double r[NB_MAX];
  Rows(b, 0.0, y, yp, 0.0, r, NULL);
  double tb[6], lg[6] = {0, 0, 0, 0, 0, 0}, env[6];
  memcpy(tb, b->tau, sizeof tb);
  PlVesselLoadApply(&vm->environment, 0.0, env, tb, lg);
  if (PlVesselConsistentRate(&vm->body, y, tb, lg, yp)) {
    snprintf(why, len, "the vessel's mass matrix is singular or its start state is not finite");
    return 1;
  }
  if (vm->has_dp) { /* zdot - f = 0 */
    Rows(b, 0.0, y, yp, 0.0, r, NULL);
    for (int i = 0; i < 6; ++i) yp[PL_VESSEL_NY + i] = -r[PL_VESSEL_NY + i];
  }
  if (IDAInit(b->ida, IdaRes, 0.0, b->y, b->yp) || IDASVtolerances(b->ida, s->rtol, b->atol) ||
      IDASetUserData(b->ida, b) || IDASetLinearSolver(b->ida, b->LS, b->A) || IDASetJacFn(b->ida, IdaJac))
    return 1;
  IDASetMaxNumSteps(b->ida, s->max_steps > 0 ? s->max_steps : 1000000);
  IDASetMaxOrd(b->ida, s->max_order); /* the loader's default or the user's, 1..5 */
  if (s->max_step > 0.0) IDASetMaxStep(b->ida, s->max_step);
  if (s->initial_step > 0.0) IDASetInitStep(b->ida, s->initial_step);
  IDASetStopTime(b->ida, s->duration);
  return 0;
}

static void Output(Body *b, double t, PlVesselOutput *o)
{
  const PlVesselModel *vm = &b->m->vessel;
  const double *y = N_VGetArrayPointer(b->y), *yp = N_VGetArrayPointer(b->yp);
  double r[NB_MAX], dref[6];
  Rows(b, t, y, yp, 0.0, r, NULL);
  memset(o, 0, sizeof *o);
  PlVesselEta(y, o->eta, NULL);
  for (int i = 0; i < 6; ++i) {
    o->nu[i] = y[PL_VESSEL_V + i];
    o->thrust[i] = b->tau[i];
    o->environment[i] = b->env[i];
    o->z[i] = vm->has_dp ? y[PL_VESSEL_NY + i] : 0.0;
  }
  if (vm->has_dp) PlDPReferenceEval(&vm->dp.ref, t, o->eta_ref, dref);
  else memcpy(o->eta_ref, o->eta, sizeof o->eta);
  PlVesselHangOff(vm, y, y + PL_VESSEL_Q, o->hang_off_point, NULL);
}

int PlBodyRunToFiles(const PlModel *m, const PlDynamicRunOptions *opt, PlDynamicResult *res)
{
  const PlDynamicSettings *s = &m->analysis.dynamic;
  const char *dir = m->output_dir;
  Body b;
  FILE *fv = NULL, *fe = NULL;
  int io = 0;
  memset(res, 0, sizeof *res);
  res->has_vessel = 1;
  const double wall0 = MPI_Wtime();
  if (SetUp(&b, m, res->failure, sizeof res->failure)) {
    if (!res->failure[0]) snprintf(res->failure, sizeof res->failure, "cannot set up IDA for the body");
    res->ida_flag = -1;
    Free(&b);
    return 0;
  }
  io = PlMakeDirs(dir, &res->err);
  char path[PL_PATH_MAX + 64];
  if (!io) {
    snprintf(path, sizeof path, "%s/timeseries_vessel.csv", dir);
    fv = fopen(path, "w");
    snprintf(path, sizeof path, "%s/energy.csv", dir);
    fe = fopen(path, "w");
    if (!fv || !fe || fputs(PlVesselSeriesHeader(), fv) < 0 || fputs("t_s,kinetic_J,strain_J,potential_J,total_J\n", fe) < 0) {
      snprintf(res->err.msg, sizeof res->err.msg, "%.900s: cannot write the time series", dir);
      io = PL_EXIT_IO;
    }
  }
  const double dt = s->output_interval, T = s->duration;
  const long nout = (long)ceil(T / dt - 1e-9);
  double t = 0.0;
  PlVesselOutput vo;
  for (long k = 0; !io && k <= nout; ++k) {
    const double tout = k == nout ? T : k * dt;
    if (k > 0) {
      realtype tret;
      const int rc = IDASolve(b.ida, tout, &tret, b.y, b.yp, IDA_NORMAL);
      if (rc < 0) {
        res->ida_flag = rc;
        char *name = IDAGetReturnFlagName(rc);
        snprintf(res->failure, sizeof res->failure, "IDA stopped before t = %.6g s with %s", tout, name ? name : "an error");
        free(name);
        break;
      }
    }
    t = tout;
    Output(&b, t, &vo);
    const double *y = N_VGetArrayPointer(b.y);
    const double ek = PlVesselKineticEnergy(&m->vessel.body, y), ep = PlVesselPotentialEnergy(&m->vessel.body, y);
    PlVesselSeriesRow(fv, t, &vo);
    fprintf(fe, "%.17g,%.17g,0,%.17g,%.17g\n", t, ek, ep, ek + ep);
    fflush(fe);
    res->vessel_final = vo;
    if (m->vessel.has_dp && t >= m->vessel.dp.start_time)
      res->vessel_max_offset_m = fmax(res->vessel_max_offset_m, hypot(vo.eta[0] - vo.eta_ref[0], vo.eta[1] - vo.eta_ref[1]));
    res->vessel_max_thrust_N = fmax(res->vessel_max_thrust_N, hypot(vo.thrust[0], vo.thrust[1]));
    if (opt->stop && *opt->stop) {
      res->interrupted = 1;
      break;
    }
  }
  long nst = 0, nre = 0, nni = 0, nnf = 0, netf = 0, nje = 0;
  IDAGetNumSteps(b.ida, &nst);
  IDAGetNumResEvals(b.ida, &nre);
  IDAGetNumNonlinSolvIters(b.ida, &nni);
  IDAGetNumNonlinSolvConvFails(b.ida, &nnf);
  IDAGetNumErrTestFails(b.ida, &netf);
  IDAGetNumJacEvals(b.ida, &nje);
  res->stats.steps = nst;
  res->stats.residual_evaluations = nre;
  res->stats.nonlinear_iterations = nni;
  res->stats.nonlinear_failures = nnf;
  res->stats.error_test_failures = netf;
  res->stats.jacobian_evaluations = nje;
  res->stats.t = t;
  res->simulated_time_s = t;
  res->wall_time_s = MPI_Wtime() - wall0;
  res->real_time_factor = res->wall_time_s > 0 ? t / res->wall_time_s : 0.0;
  res->completed = !res->ida_flag && !res->interrupted && !io && t >= T * (1 - 1e-12);
  if (fv && fclose(fv) && !io) io = PL_EXIT_IO;
  if (fe && fclose(fe) && !io) io = PL_EXIT_IO;
  if (io == PL_EXIT_IO && !res->err.msg[0]) snprintf(res->err.msg, sizeof res->err.msg, "%.900s: closing a file failed", dir);
  if (!io) {
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "analysis", "rigid_body");
    cJSON_AddStringToObject(root, "name", m->name);
    cJSON_AddStringToObject(root, "model", m->source_path);
    cJSON_AddBoolToObject(root, "completed", res->completed);
    cJSON_AddNumberToObject(root, "duration_s", T);
    cJSON_AddNumberToObject(root, "simulated_time_s", t);
    cJSON_AddNumberToObject(root, "output_interval_s", dt);
    cJSON_AddNumberToObject(root, "wall_time_s", res->wall_time_s);
    cJSON_AddNumberToObject(root, "real_time_factor", res->real_time_factor);
    cJSON_AddNumberToObject(root, "steps", (double)nst);
    cJSON_AddNumberToObject(root, "nonlinear_iterations", (double)nni);
    cJSON_AddNumberToObject(root, "jacobian_evaluations", (double)nje);
    cJSON_AddNumberToObject(root, "error_test_failures", (double)netf);
    PlSummaryAddVessel(root, m, res);
    if (res->ida_flag) cJSON_AddStringToObject(root, "dynamic_failure", res->failure);
    if (res->interrupted) cJSON_AddStringToObject(root, "dynamic_failure", "interrupted by a signal");
    io = PlSummaryWrite(dir, root, &res->err);
    cJSON_Delete(root);
  }
  res->io_status = io;
  Free(&b);
  return 0;
}
