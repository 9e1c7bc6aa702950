/*
 * bodies.c - a model without a line: rigid bodies, each with its loads and optional DP
 * controller, joined to each other or to the ground by joints
 * (docs/design-system-core.md §5.2). One body without joints is the Giusti tests' rigid body
 * alone; the vessel: block of such a model is one body named "vessel".
 *
 * The equations are the system core's (solver/system_dynamic.c, a system of no lines: its
 * bodies' block of solver/multibody.c, per body r, q, v, w and per joint lambda, mu in the
 * stabilised index-2 form, then each DP controller's 6 integral states; the exact iteration
 * matrix, IDA's Newton with KLU). The start is the initial poses and velocities with the
 * accelerations and the joints' reactions from the equations (PlSysDynPrepareRun). The
 * multipliers are algebraic: left out of the error test, with the absolute tolerance
 * analysis.dynamic.atol_reaction in Newton's convergence test. Serial (rank 0 runs it).
 *
 * Files (in the output directory): timeseries_<body>.csv per body (the columns of
 * timeseries_vessel.csv), timeseries_<joint>.csv per joint (the joint point, and the force
 * and moment about it that the joint applies to its first body, global), energy.csv, and
 * summary.json with "analysis": "rigid_body", a "bodies" and a "joints" object; the bodies'
 * poses go to opt->bodies_observer at the ParaView frame times (PlModelVtkFrame) (the app draws them for ParaView).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "system_impl.h"

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

void PlBodiesReportFree(PlBodiesReport *rep)
{
  if (!rep) return;
  free(rep->body_final);
  free(rep->body_max_offset_m);
  free(rep->body_max_thrust_N);
  free(rep->joint_point);
  free(rep->joint_force);
  free(rep->joint_moment);
  free(rep->joint_max_force_N);
  free(rep->joint_max_moment_Nm);
  memset(rep, 0, sizeof *rep);
}

/* rep zeroed with its arrays for nb bodies and nj joints. 0, or -1 out of memory. */
static int BodiesReportInit(PlBodiesReport *rep, int nb, int nj)
{
  memset(rep, 0, sizeof *rep);
  const size_t b = nb > 0 ? (size_t)nb : 1, j = nj > 0 ? (size_t)nj : 1;
  rep->body_final = calloc(b, sizeof *rep->body_final);
  rep->body_max_offset_m = calloc(b, sizeof *rep->body_max_offset_m);
  rep->body_max_thrust_N = calloc(b, sizeof *rep->body_max_thrust_N);
  rep->joint_point = calloc(j, sizeof *rep->joint_point);
  rep->joint_force = calloc(j, sizeof *rep->joint_force);
  rep->joint_moment = calloc(j, sizeof *rep->joint_moment);
  rep->joint_max_force_N = calloc(j, sizeof *rep->joint_max_force_N);
  rep->joint_max_moment_Nm = calloc(j, sizeof *rep->joint_max_moment_Nm);
  if (rep->body_final && rep->body_max_offset_m && rep->body_max_thrust_N && rep->joint_point && rep->joint_force &&
      rep->joint_moment && rep->joint_max_force_N && rep->joint_max_moment_Nm)
    return 0;
  PlBodiesReportFree(rep);
  return -1;
}

int PlBodiesRunToFiles(const PlModel *m, const PlDynamicRunOptions *opt, PlDynamicResult *res, PlBodiesReport *rep)
{
  const PlDynamicSettings *d = &m->analysis.dynamic;
  const char *dir = m->output_dir;
  const int nb = m->nbodies, nj = m->njoints;
  FILE *fb[nb > 0 ? nb : 1], *fj[nj > 0 ? nj : 1], *fe = NULL;
  for (int b = 0; b < nb; ++b) fb[b] = NULL;
  for (int j = 0; j < nj; ++j) fj[j] = NULL;
  int io = 0;
  memset(res, 0, sizeof *res);
  res->has_vessel = 1;
  if (BodiesReportInit(rep, nb, nj)) {
    snprintf(res->failure, sizeof res->failure, "out of memory");
    res->ida_flag = -1;
    return 0;
  }
  const double wall0 = MPI_Wtime();
  /* the system of no lines: the bodies at their initial poses */
  PlLines L = NULL;
  PlSysDyn s = NULL;
  PlLinesReport *lr = calloc(1, sizeof *lr);
  int start = !lr || PlLinesReportInit(lr, 0, 0, nb, nj);
  if (!start) {
    for (int b = 0; b < nb; ++b)
      for (int c = 0; c < 3; ++c) {
        lr->body_eta[b][c] = m->bodies[b].position[c];
        lr->body_eta[b][3 + c] = m->bodies[b].rpy[c];
      }
    start = PlLinesCreate(PETSC_COMM_SELF, m, &L) || PlSysDynCreate(L, lr, &s);
  }
  PlLinesReportFree(lr);
  free(lr);
  if (!start) start = PlSysDynPrepareRun(s);
  if (start) {
    snprintf(res->failure, sizeof res->failure, "%s",
             start == 2 ? "the initial accelerations and joint reactions could not be found (a body's mass matrix or "
                          "the joints' matrix [M G^T; G 0] is singular): check that no two joints hold the same "
                          "freedom of a body"
                        : "cannot set up IDA for the bodies (out of memory?)");
    res->ida_flag = -1;
    PlSysDynDestroy(&s);
    PlLinesDestroy(&L);
    return 0;
  }
  io = PlMakeDirs(dir, &res->err);
  char path[PL_PATH_MAX + 128];
  for (int k = 0; !io && k < nb + nj + 1; ++k) {
    FILE **f = k < nb ? &fb[k] : k < nb + nj ? &fj[k - nb] : &fe;
    char eh[1024];
    PlSysDynEnergyHeader(s, eh, sizeof eh); /* the bodies' three works (system_dynamic.c) */
    const char *hdr = k < nb ? PlVesselSeriesHeader() : k < nb + nj ? PlJointSeriesHeader() : eh;
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
  double t = 0.0, e0 = NAN;
  double *ymb = malloc(sizeof(double) * (size_t)s->nmb); /* the bodies' block with the reactions */
  if (!ymb && !io) {
    snprintf(res->err.msg, sizeof res->err.msg, "out of memory for the joints' reactions");
    io = PL_EXIT_FAILURE;
  }
  for (long k = 0; !io && k <= nout; ++k) {
    const double tout = k == nout ? T : k * dt;
    if (k > 0) {
      char why[900];
      double tr;
      /* Newton's failures in a model of bodies alone: a spin that has outgrown the quaternion's
       * norm rate (its default follows the initial spin only, elements/vessel.c), a joint the
       * bodies cannot stay assembled on, or reactions converged against a tolerance far below
       * their size (their updates grow as 1/h as the step is cut, solver/multibody.c) */
      static const char kBodiesHint[] =
        "the Newton iteration kept failing as the step was cut. On rigid bodies: a body spinning too fast for "
        "its quaternion norm rate (norm_rate; its default, 100 x the initial spin in rad/s, does not follow a body "
        "that spins up: give norm_rate about 100 x the largest spin), joints that drift apart or cannot be "
        "assembled (check the joint points and axes; the run reports the largest joint gap), atol_reaction far "
        "below the joint reactions, or tolerances too loose for the motion (docs/model-file.md)";
      const int rc = PlIdaAdvance(PlSysDynIDA(s), PlSysDynStateVector(s), PlSysDynRateVector(s), tout, opt->stop,
                                  PETSC_COMM_SELF, NULL, kBodiesHint, &tr, why, sizeof why);
      if (rc == PL_DYN_INTERRUPTED) {
        res->interrupted = 1;
        break;
      }
      if (rc) {
        res->ida_flag = rc;
        snprintf(res->failure, sizeof res->failure, "%s", why);
        break;
      }
    }
    t = tout;
    const double *y = PlSysDynState(s), *yp = PlSysDynRate(s), *yb0 = y + s->moff;
    if (nj && PlSysDynJointReactions(s, t, y, yp, ymb)) { /* the reactions the state implies */
      res->ida_flag = -1;
      snprintf(res->failure, sizeof res->failure, "the joints' reactions at t = %.6g s: a singular saddle-point "
               "matrix (a joint's rows dependent on another's) or out of memory", t);
      break;
    }
    PlSysDynOutputLoads(s, t, y, yp); /* the loads at (t, y) for the output */
    for (int b = 0; b < nb; ++b) {
      PlVesselOutput vo;
      PlSysDynBodyOutput(s, b, t, y, &vo);
      PlVesselHangOff(&m->bodies[b], yb0 + PL_VESSEL_NY * b, yb0 + PL_VESSEL_NY * b + PL_VESSEL_Q, vo.hang_off_point,
                      NULL);
      PlVesselSeriesRow(fb[b], t, &vo);
      rep->body_final[b] = vo;
      if (m->bodies[b].has_dp && t >= m->bodies[b].dp.start_time)
        rep->body_max_offset_m[b] =
          fmax(rep->body_max_offset_m[b], hypot(vo.eta[0] - vo.eta_ref[0], vo.eta[1] - vo.eta_ref[1]));
      rep->body_max_thrust_N[b] = fmax(rep->body_max_thrust_N[b], hypot(vo.thrust[0], vo.thrust[1]));
    }
    for (int j = 0; j < nj; ++j) {
      double *P = rep->joint_point[j], *F = rep->joint_force[j], *M = rep->joint_moment[j];
      PlMultibodyJointLoad(&s->mb, ymb, j, P, F, M);
      PlJointSeriesRow(fj[j], t, P, F, M);
      rep->joint_max_force_N[j] = fmax(rep->joint_max_force_N[j], sqrt(F[0] * F[0] + F[1] * F[1] + F[2] * F[2]));
      rep->joint_max_moment_Nm[j] = fmax(rep->joint_max_moment_Nm[j], sqrt(M[0] * M[0] + M[1] * M[1] + M[2] * M[2]));
    }
    rep->max_joint_gap_m = fmax(rep->max_joint_gap_m, PlMultibodyJointGap(&s->mb, yb0));
    if (opt->bodies_observer && PlModelVtkFrame(m, k, nout)) {
      double r0[nb > 0 ? nb : 1][3], R0[nb > 0 ? nb : 1][9];
      for (int b = 0; b < nb; ++b) PlSysDynBodyPose(s, b, y, r0[b], R0[b]);
      if (opt->bodies_observer(opt->bodies_observer_ctx, t, nb, (const double(*)[3])r0, (const double(*)[9])R0,
                               &res->err))
        io = PL_EXIT_IO;
    }
    /* the energy balance: E(t) - E(0) = W_loads + W_drag - W_damping (joints do no work) */
    PlSysDynEnergyRow(s, t, y, NULL, NULL, &e0, fe, NULL);
    fflush(fe);
    if (nb > 0) res->vessel_final = rep->body_final[0];
    if (opt->stop && *opt->stop) {
      res->interrupted = 1;
      break;
    }
  }
  PlIdaRunResult(PlSysDynIDA(s), t, T, wall0, io, res);
  free(ymb);
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
  PlSysDynDestroy(&s);
  PlLinesDestroy(&L);
  return 0;
}
