/*
 * system_run.c - a dynamic run of a system of lines, points and bodies to files
 * (system_dynamic.c holds the equations). Collective: every rank integrates (each evaluation
 * sums the ranks' parts), rank 0 writes; a stop request on any rank stops all of them.
 *
 * IDA steps one step at a time past each output time, whose state it interpolates (IDAGetDky;
 * stopping at every output would cut the steps there), so that a stop
 * request (SIGINT, SIGTERM) is honoured between any two steps and a stalled integration (100
 * steps below 1e-10 (1 + t) s) ends the run with its time and cause, as in a one-line run.
 * Written at every output time, each row flushed (what was computed before a failure stays):
 *   timeseries_lines.csv        t, then per line and end (a: S = 0, b: S = L) the tension
 *                               [N] and the line's pull on its end (global) [N]: what its
 *                               support and the end's applied force together hold
 *   timeseries_point_NAME.csv   each free point: position [m], velocity [m/s]
 *   timeseries_BODY.csv         each body (the vessel series: pose, velocities, the lines' load
 *                               on it in the pipe_* columns, body frame about O_b)
 *   timeseries_JOINT.csv        each joint: its point, the force and moment it applies to its
 *                               first body (global, about the point) [m, N, N m]
 *   energy.csv                  kinetic, strain, potential (submerged weight, restoring) [J],
 *                               the work integrals and balance_J (PlSysDynEnergyRow)
 *   waves.csv                   (a model with waves) the sea's elevation at each line's top end
 *                               and at the probes (wave_series.c)
 * and summary.json: the static summary of the lines with "analysis": "dynamic_lines",
 * "completed", and a "dynamic" object (counters, the extreme end tensions with their times,
 * each point's and body's final state and largest excursion, restarted_at_s after a restart).
 * Checkpoints (rank 0; every rank holds the whole state): restart.bin (dynamic_run.c's layout,
 * PlRestartWrite: IDA's state y, y' at its last step, the outputs written, the counters, and as
 * its aux block the running extrema (RunExtrema) and each line's envelopes), each line's
 * envelopes.csv and summary.json ("completed": false, the time reached), each atomically,
 * after the first output, then every output.checkpoint_interval s of wall time, and at the
 * end (also after a signal; after an IDA failure restart.bin stays at the last checkpoint).
 * A checkpoint is taken only while IDA's last step is before the next output, so that the
 * restarted run (PlSysDynResumeRunState: IDA's whole state as it was, so that it takes the
 * uninterrupted run's steps) reaches every output
 * after it. --restart (opt->restart): the same model text required (PlRestartRead names what
 * differs), every series trimmed to the last output written and appended.
 */
#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "system_impl.h"

/* The parts of the system this file reads (system_dynamic.c owns the struct). */
typedef struct {
  double max, min, t_max, t_min;
} Range;

/* The running extrema of a run over its outputs: the scalars, then the arrays in one block of
 * doubles (restart.bin keeps the scalars and the block as they are, before each line's
 * envelopes, as its aux block). */
typedef struct {
  double jgap, E0, Emax_dev, bal_max, work_max;
  PlRunExtrema *ext;           /* [nl] over each line, as a one-line run's */
  Range (*ten)[2];             /* [nl] each line end's tension */
  double *pmax, *bmax, *jfmax, *jmmax; /* [np], [nb], [nj], [nj] */
  double *boff, *bthrust;      /* [nb] each body's largest horizontal offset from its DP reference
                                  (from dp.start_time) and DP thrust [m, N] */
  double *block;               /* the arrays above */
  size_t nblock;               /* its doubles */
  PlDesignEnvelope *design;    /* [nl] with the model's design: block, else NULL (restart.bin keeps
                                  them after the lines' envelopes, PlDesignEnvelopePack) */
} RunExtrema;
#define EXTREMA_SCALARS 5
_Static_assert(sizeof(PlRunExtrema) % sizeof(double) == 0 && sizeof(Range) % sizeof(double) == 0,
               "the extrema are doubles");

/* x zeroed, its arrays for nl lines, np points, nb bodies and nj joints. 0, or -1 out of memory. */
static int ExtremaInit(RunExtrema *x, int nl, int np, int nb, int nj)
{
  memset(x, 0, sizeof *x);
  const size_t next = (size_t)nl * (sizeof(PlRunExtrema) / sizeof(double));
  const size_t nten = (size_t)nl * 2 * (sizeof(Range) / sizeof(double));
  x->nblock = next + nten + (size_t)np + 3 * (size_t)nb + 2 * (size_t)nj;
  x->block = calloc(x->nblock + 1, sizeof(double));
  if (!x->block) return -1;
  double *b = x->block;
  x->ext = (PlRunExtrema *)b, b += next;
  x->ten = (Range(*)[2])b, b += nten;
  x->pmax = b, b += np;
  x->bmax = b, b += nb;
  x->boff = b, b += nb;
  x->bthrust = b, b += nb;
  x->jfmax = b, b += nj;
  x->jmmax = b;
  return 0;
}

/* The design envelopes of the lines (x->design), when the model has a design: block. 0, or -1
 * out of memory. */
static int DesignInit(RunExtrema *x, PlSysDyn s)
{
  const PlModel *m = PlSysDynModel(s);
  if (!m->design.present) return 0;
  x->design = calloc((size_t)m->nlines, sizeof *x->design);
  if (!x->design) return -1;
  for (int l = 0; l < m->nlines; ++l)
    if (PlDesignEnvelopeInit(&x->design[l], PlLinesProblem(PlSysDynLines(s), l)->mesh.nnodes)) return -1;
  return 0;
}

static void DesignFree(RunExtrema *x, int nl)
{
  for (int l = 0; x->design && l < nl; ++l) PlDesignEnvelopeFree(&x->design[l]);
  free(x->design);
  x->design = NULL;
}

/* Line l's design_envelope.csv into ldir (nothing without a design: block). */
static int DesignWrite(const RunExtrema *x, PlSysDyn s, int l, const char *ldir, PlError *err)
{
  return x->design ? PlDesignWriteEnvelope(ldir, &PlLinesProblem(PlSysDynLines(s), l)->model, &x->design[l], err) : 0;
}

static void RangeAdd(Range *r, double v, double t, int first)
{
  if (first || v > r->max) r->max = v, r->t_max = t;
  if (first || v < r->min) r->min = v, r->t_min = t;
}

static double Norm3(const double *a) { return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }

void PlIdaStats(void *ida, PlDynamicStats *st)
{
  long nst = 0, nre = 0, nni = 0, nnf = 0, netf = 0, nje = 0;
  realtype h = 0.0, t = 0.0;
  int q = 0;
  IDAGetNumSteps(ida, &nst);
  IDAGetNumResEvals(ida, &nre);
  IDAGetNumNonlinSolvIters(ida, &nni);
  IDAGetNumNonlinSolvConvFails(ida, &nnf);
  IDAGetNumErrTestFails(ida, &netf);
  IDAGetNumJacEvals(ida, &nje);
  IDAGetLastStep(ida, &h);
  IDAGetCurrentTime(ida, &t);
  IDAGetLastOrder(ida, &q);
  memset(st, 0, sizeof *st);
  st->t = t;
  st->steps = nst;
  st->residual_evaluations = nre;
  st->nonlinear_iterations = nni;
  st->nonlinear_failures = nnf;
  st->jacobian_evaluations = nje;
  st->error_test_failures = netf;
  st->last_step = h;
  st->last_order = q;
}

void PlIdaRunResult(void *ida, double t, double T, double wall0, int io, PlDynamicResult *res)
{
  PlIdaStats(ida, &res->stats);
  res->stats.t = t;
  res->simulated_time_s = t;
  res->wall_time_s = MPI_Wtime() - wall0;
  res->real_time_factor = res->wall_time_s > 0 ? (t - res->restarted_at_s) / res->wall_time_s : 0.0;
  res->completed = !res->ida_flag && !res->interrupted && !io && t >= T * (1 - 1e-12);
}

/* Each line's node and element stations at state y (malloc'd; freed by FreeStations). */
static int Stations(PlSysDyn s, const double *y, PlStation **nodes, PlStation **els, int *nn, PlError *err)
{
  const PlModel *m = PlSysDynModel(s);
  for (int l = 0; l < m->nlines; ++l) {
    double *u = PlSysDynLineUnknowns(s, l, y, &nn[l]);
    if (!u || PlStationsOf(PlLinesProblem(PlSysDynLines(s), l), u, &nodes[l], &els[l])) {
      free(u);
      snprintf(err->msg, sizeof err->msg, "out of memory for the lines' stations");
      return PL_EXIT_FAILURE;
    }
    free(u);
  }
  return 0;
}

static void FreeStations(int nl, PlStation **nodes, PlStation **els)
{
  for (int l = 0; l < nl; ++l) {
    free(nodes[l]);
    free(els[l]);
    nodes[l] = els[l] = NULL;
  }
}

/* The observers at time t: each line's stations, each body's pose. */
static int Observe(PlSysDyn s, const PlDynamicRunOptions *opt, double t, const double *y, PlStation **nodes,
                   PlStation **stat, const int *nn, PlError *err)
{
  const PlModel *m = PlSysDynModel(s);
  int rc = 0;
  if (opt->lines_observer) rc = opt->lines_observer(opt->lines_observer_ctx, t, m->nlines, nodes, stat, nn, err);
  if (!rc && opt->bodies_observer && m->nbodies > 0) {
    double r[m->nbodies][3], R[m->nbodies][9];
    for (int b = 0; b < m->nbodies; ++b) PlSysDynBodyPose(s, b, y, r[b], R[b]);
    rc = opt->bodies_observer(opt->bodies_observer_ctx, t, m->nbodies, (const double(*)[3])r, (const double(*)[9])R,
                              err);
  }
  return rc;
}

void PlSummaryAddRunCounters(void *obj, double T, double dt, const PlDynamicResult *res)
{
  cJSON *o = obj;
  cJSON_AddNumberToObject(o, "duration_s", T);
  cJSON_AddNumberToObject(o, "simulated_time_s", res->simulated_time_s);
  cJSON_AddNumberToObject(o, "output_interval_s", dt);
  cJSON_AddNumberToObject(o, "wall_time_s", res->wall_time_s);
  cJSON_AddNumberToObject(o, "real_time_factor", res->real_time_factor);
  cJSON_AddNumberToObject(o, "steps", (double)res->stats.steps);
  cJSON_AddNumberToObject(o, "nonlinear_iterations", (double)res->stats.nonlinear_iterations);
  cJSON_AddNumberToObject(o, "jacobian_evaluations", (double)res->stats.jacobian_evaluations);
  cJSON_AddNumberToObject(o, "error_test_failures", (double)res->stats.error_test_failures);
}

/* The system's summary.json (a cJSON *) at output time t: the static summary of the lines,
 * "completed" and the "dynamic" object. */
static cJSON *Summary(PlSysDyn s, const PlLinesReport *rep, const PlDynamicRunOptions *opt, const PlDynamicResult *res,
                      const RunExtrema *x, double t)
{
  const PlModel *m = PlSysDynModel(s);
  const int nl = m->nlines, np = m->npoints, nb = m->nbodies, nj = m->njoints;
  cJSON *sum; /* the static summary of the lines; bodies alone had no statics */
  if (nl) {
    sum = PlSysDynStaticSummary(s, rep);
    cJSON_ReplaceItemInObject(sum, "analysis", cJSON_CreateString("dynamic_lines"));
  } else {
    sum = cJSON_CreateObject();
    cJSON_AddStringToObject(sum, "analysis", "rigid_body");
    cJSON_AddStringToObject(sum, "name", m->name);
    cJSON_AddStringToObject(sum, "model", m->source_path);
  }
  cJSON_AddBoolToObject(sum, "completed", res->completed);
  cJSON *dy = cJSON_AddObjectToObject(sum, "dynamic");
  PlSummaryAddRunCounters(dy, m->analysis.dynamic.duration, m->analysis.dynamic.output_interval, res);
  if (opt->restart) cJSON_AddNumberToObject(dy, "restarted_at_s", res->restarted_at_s);
  cJSON_AddNumberToObject(dy, "unknowns", PlSysDynSize(s));
  PlSysDynParts parts;
  PlSysDynGetParts(s, &parts);
  cJSON *po = cJSON_AddObjectToObject(dy, "parts");
  cJSON_AddNumberToObject(po, "ranks", parts.ranks);
  cJSON_AddStringToObject(po, "method", parts.ranks > 1 ? "METIS" : "one rank");
  cJSON_AddNumberToObject(po, "edge_cut", parts.edge_cut);
  const int nr = parts.ranks < 64 ? parts.ranks : 64;
  cJSON_AddItemToObject(po, "elements", cJSON_CreateIntArray(parts.elements, nr));
  cJSON_AddItemToObject(po, "points", cJSON_CreateIntArray(parts.points, nr));
  cJSON_AddItemToObject(po, "bodies", cJSON_CreateIntArray(parts.bodies, nr));
  cJSON_AddNumberToObject(dy, "max_energy_change_J", x->Emax_dev);
  cJSON_AddNumberToObject(dy, "max_energy_balance_J", x->bal_max);
  cJSON_AddNumberToObject(dy, "max_work_J", x->work_max);
  cJSON *lines = cJSON_AddObjectToObject(dy, "lines");
  for (int l = 0; l < nl; ++l) {
    cJSON *o = cJSON_AddObjectToObject(lines, m->lines[l].name);
    PlRunExtremaToJson(o, &x->ext[l]); /* over the line, as a one-line run's */
    if (x->design) PlDesignSummaryAdd(o, &PlLinesProblem(PlSysDynLines(s), l)->model, &x->design[l], 1);
    for (int e = 0; e < 2; ++e) {
      cJSON *eo = cJSON_AddObjectToObject(o, e ? "top" : "bottom");
      cJSON_AddNumberToObject(eo, "max_tension_N", x->ten[l][e].max);
      cJSON_AddNumberToObject(eo, "max_tension_t_s", x->ten[l][e].t_max);
      cJSON_AddNumberToObject(eo, "min_tension_N", x->ten[l][e].min);
      cJSON_AddNumberToObject(eo, "min_tension_t_s", x->ten[l][e].t_min);
    }
  }
  cJSON *points = cJSON_AddObjectToObject(dy, "points");
  for (int p = 0; p < np; ++p) {
    if (m->points[p].fixed) continue;
    double xp[6];
    PlSysDynPoint(s, p, PlSysDynState(s), xp);
    cJSON *o = cJSON_AddObjectToObject(points, m->points[p].name);
    cJSON_AddItemToObject(o, "final_position_m", cJSON_CreateDoubleArray(xp, 3));
    cJSON_AddNumberToObject(o, "max_excursion_m", x->pmax[p]);
  }
  cJSON *bodies = cJSON_AddObjectToObject(dy, "bodies");
  for (int b = 0; b < nb; ++b) {
    PlVesselOutput vo;
    PlSysDynBodyOutput(s, b, t, PlSysDynState(s), &vo);
    const double r2d = 180.0 / 3.14159265358979323846;
    const double eta[6] = {vo.eta[0], vo.eta[1], vo.eta[2], vo.eta[3] * r2d, vo.eta[4] * r2d, vo.eta[5] * r2d};
    cJSON *o = cJSON_AddObjectToObject(bodies, m->bodies[b].id);
    cJSON_AddItemToObject(o, "final_eta_m_deg", cJSON_CreateDoubleArray(eta, 6));
    cJSON_AddItemToObject(o, "final_reported_point_m", cJSON_CreateDoubleArray(vo.hang_off_point, 3));
    cJSON_AddNumberToObject(o, "max_horizontal_excursion_m", x->bmax[b]);
    if (m->bodies[b].has_dp) {
      const double off[2] = {vo.eta[0] - vo.eta_ref[0], vo.eta[1] - vo.eta_ref[1]};
      cJSON_AddItemToObject(o, "final_offset_from_reference_m", cJSON_CreateDoubleArray(off, 2));
      cJSON_AddNumberToObject(o, "max_offset_from_reference_m", x->boff[b]);
      cJSON_AddItemToObject(o, "final_thrust_N_Nm", cJSON_CreateDoubleArray(vo.thrust, 6));
      cJSON_AddItemToObject(o, "final_integral_states", cJSON_CreateDoubleArray(vo.z, 6));
      cJSON_AddNumberToObject(o, "max_horizontal_thrust_N", x->bthrust[b]);
    }
  }
  if (nj) {
    cJSON *joints = cJSON_AddObjectToObject(dy, "joints");
    /* the reactions the final state implies (PlSysDynJointReactions), IDA's if that fails */
    double *ymb = malloc(sizeof(double) * (size_t)s->nmb);
    const double *yb = ymb && !PlSysDynJointReactions(s, t, PlSysDynState(s), PlSysDynRate(s), ymb)
                         ? ymb
                         : PlSysDynState(s) + s->moff;
    for (int j = 0; j < nj; ++j) {
      double P[3], Fj[3], Mj[3];
      PlMultibodyJointLoad(&s->mb, yb, j, P, Fj, Mj);
      cJSON *o = cJSON_AddObjectToObject(joints, m->joints[j].name);
      cJSON_AddItemToObject(o, "final_point_m", cJSON_CreateDoubleArray(P, 3));
      cJSON_AddItemToObject(o, "final_force_N", cJSON_CreateDoubleArray(Fj, 3));
      cJSON_AddItemToObject(o, "final_moment_Nm", cJSON_CreateDoubleArray(Mj, 3));
      cJSON_AddNumberToObject(o, "max_force_N", x->jfmax[j]);
      cJSON_AddNumberToObject(o, "max_moment_Nm", x->jmmax[j]);
    }
    cJSON_AddNumberToObject(dy, "max_joint_gap_m", x->jgap);
    free(ymb);
  }
  if (res->ida_flag) cJSON_AddStringToObject(dy, "failure", res->failure);
  if (res->interrupted) cJSON_AddStringToObject(dy, "failure", "interrupted by a signal");
  return sum;
}

/* restart.bin's aux block: the running extrema, then each line's envelopes, then with a design:
 * block each line's design envelopes (to == 1: into aux, 0: from it). */
static void PackAux(double *aux, RunExtrema *x, PlLineSeries *ls, int nl, int to)
{
  double *sc[EXTREMA_SCALARS] = {&x->jgap, &x->E0, &x->Emax_dev, &x->bal_max, &x->work_max};
  for (int i = 0; i < EXTREMA_SCALARS; ++i) {
    if (to) aux[i] = *sc[i];
    else *sc[i] = aux[i];
  }
  if (to) memcpy(aux + EXTREMA_SCALARS, x->block, sizeof(double) * x->nblock);
  else memcpy(x->block, aux + EXTREMA_SCALARS, sizeof(double) * x->nblock);
  size_t o = EXTREMA_SCALARS + x->nblock;
  for (int l = 0; l < nl; ++l) {
    const size_t ne = (size_t)12 * ls[l].nn;
    if (to) memcpy(aux + o, ls[l].env, sizeof(double) * ne);
    else memcpy(ls[l].env, aux + o, sizeof(double) * ne);
    o += ne;
  }
  for (int l = 0; x->design && l < nl; ++l) {
    if (to) PlDesignEnvelopePack(&x->design[l], aux + o);
    else PlDesignEnvelopeUnpack(&x->design[l], aux + o);
    o += PlDesignEnvelopePacked(x->design[l].nn);
  }
}

/* A checkpoint (rank 0): restart.bin (the state y, yp at IDA's time h->t; outputs 0 ..
 * h->noutputs - 1 written), each line's envelopes.csv and summary.json, each atomically. */
static int Checkpoint(PlSysDyn s, const PlLinesReport *rep, const PlDynamicRunOptions *opt,
                      const PlDynamicResult *res, RunExtrema *x, PlLineSeries *ls, PlRestartHeader *h,
                      const double *y, const double *yp, double *aux, double t, PlError *err)
{
  const PlModel *m = PlSysDynModel(s);
  h->stats = res->stats;
  PackAux(aux, x, ls, m->nlines, 1);
  int io = PlRestartWrite(m->output_dir, h, s, y, yp, aux, opt->fingerprint, err);
  for (int l = 0; l < m->nlines && !io; ++l) {
    char ldir[PL_PATH_MAX + PL_NAME_MAX + 8];
    snprintf(ldir, sizeof ldir, "%s/line_%s", m->output_dir, m->lines[l].name);
    io = PlLineSeriesEnvelopes(&ls[l], ldir, err);
    if (!io) io = DesignWrite(x, s, l, ldir, err);
  }
  if (!io) {
    cJSON *sum = Summary(s, rep, opt, res, x, t);
    io = PlSummaryWrite(m->output_dir, sum, err);
    cJSON_Delete(sum);
  }
  return io;
}

/* The counters of IDA since the start or the restart, plus base (the runs before). */
static void Result(void *ida, double t, double T, double wall0, int io, const PlDynamicStats *base,
                   PlDynamicResult *res)
{
  PlIdaRunResult(ida, t, T, wall0, io, res);
  PlDynamicStatsAdd(&res->stats, base);
}

/* What to change when the integration stops: a system with lines, and bodies alone. Newton's
 * failures in a model of bodies alone come from a spin that has outgrown the quaternion's norm
 * rate (its default follows the initial spin only, elements/vessel.c), a joint the bodies
 * cannot stay assembled on, or reactions converged against a tolerance far below their size
 * (their updates grow as 1/h as the step is cut, solver/multibody.c). */
static const char kSystemHint[] =
  "try a smaller analysis.dynamic.max_step or initial_step, finer meshes near the attachments, or check that "
  "every free point and body is held by a line or restoring (docs/model-file.md)";
static const char kBodiesHint[] =
  "on rigid bodies: a body spinning too fast for its quaternion norm rate (norm_rate; its default, 100 x the "
  "initial spin in rad/s, does not follow a body that spins up: give norm_rate about 100 x the largest spin), "
  "joints that drift apart or cannot be assembled (check the joint points and axes; the run reports the largest "
  "joint gap), atol_reaction far below the joint reactions, or tolerances too loose for the motion "
  "(docs/model-file.md)";

int PlSysDynRunToFiles(PlSysDyn s, const PlLinesReport *rep, const PlDynamicRunOptions *opt, PlDynamicResult *res)
{
  const PlModel *m = PlSysDynModel(s);
  const PlDynamicSettings *ds = &m->analysis.dynamic;
  const char *dir = m->output_dir;
  const int nl = m->nlines, np = m->npoints, nb = m->nbodies, nj = m->njoints, n = PlSysDynSize(s);
  const int nls = nl > 0 ? nl : 1;
  FILE *fr = NULL, *fl = NULL, *fe = NULL, *fw = NULL, *fp[np > 0 ? np : 1], *fb[nb > 0 ? nb : 1], *fj[nj > 0 ? nj : 1];
  for (int k = 0; k < np; ++k) fp[k] = NULL;
  for (int k = 0; k < nb; ++k) fb[k] = NULL;
  for (int k = 0; k < nj; ++k) fj[k] = NULL;
  char path[PL_PATH_MAX + 128];
  int io = 0;
  const int root = s->rank == 0;
  memset(res, 0, sizeof *res);
  const double wall0 = MPI_Wtime();
  RunExtrema x = {0}; /* rank 0's are the run's */
  res->line_extrema = calloc((size_t)nls, sizeof *res->line_extrema);
  res->body_final = calloc((size_t)(nb > 0 ? nb : 1), sizeof *res->body_final);
  if (!res->line_extrema || !res->body_final || ExtremaInit(&x, nl, np, nb, nj) || (root && DesignInit(&x, s))) {
    PlDynamicResultFree(res);
    DesignFree(&x, nl);
    free(x.block);
    snprintf(res->err.msg, sizeof res->err.msg, "out of memory for the run's extrema");
    res->io_status = PL_EXIT_FAILURE;
    return 0;
  }
  /* restart.bin: the header this run would write, its aux block sized for these lines */
  int nnl[nls];
  size_t naux = EXTREMA_SCALARS + x.nblock;
  for (int l = 0; l < nl; ++l) {
    naux += (size_t)12 * (nnl[l] = PlLinesProblem(PlSysDynLines(s), l)->mesh.nnodes);
    if (m->design.present) naux += PlDesignEnvelopePacked(nnl[l]); /* PackAux */
  }
  PlRestartHeader rh, in;
  PlRestartHeaderInit(&rh, n, 1, 0, PL_RESTART_SYSTEM, (int)naux, opt->fingerprint);
  double *ycur = malloc(sizeof(double) * (size_t)n), *ypcur = malloc(sizeof(double) * (size_t)n),
         *aux = malloc(sizeof(double) * naux), *ymb = malloc(sizeof(double) * (size_t)(s->nmb + 1));
  if (!ycur || !ypcur || !aux || !ymb) {
    free(ycur), free(ypcur), free(aux), free(ymb), free(x.block);
    DesignFree(&x, nl);
    snprintf(res->err.msg, sizeof res->err.msg, "out of memory for the restart state");
    res->io_status = PL_EXIT_FAILURE;
    return 0;
  }
  PlDynamicStats base;
  memset(&base, 0, sizeof base);
  long k0 = 0;
  int prepared = 0;      /* PlSysDynPrepareRun's status */
  double t_out = 0.0;    /* a restart: the last output written */
  double *integ = NULL;  /* a restart: the integrator's state (PlSysDynIntegratorSave) */
  if (opt->restart) {
    /* every rank reads the state; nothing is written before it is accepted */
    io = PlRestartRead(dir, &rh, opt->fingerprint, &in, ycur, ypcur, aux, &integ, &res->err);
    MPI_Allreduce(MPI_IN_PLACE, &io, 1, MPI_INT, MPI_MAX, s->comm);
    if (io) {
      free(ycur), free(ypcur), free(aux), free(integ), free(ymb), free(x.block);
      res->io_status = io;
      return 0;
    }
    k0 = in.noutputs;
    t_out = in.t_out;
    base = in.stats;
    if (integ) memset(&base, 0, sizeof base); /* IDA's restored counters hold the runs before */
    res->restarted_at_s = in.t;
  } else if ((prepared = PlSysDynPrepareRun(s)) != 0) {
    free(ycur), free(ypcur), free(aux), free(ymb), free(x.block);
    DesignFree(&x, nl);
    snprintf(res->failure, sizeof res->failure, "%s",
             prepared == 2 ? "the initial accelerations and joint reactions could not be found (a body's mass matrix or "
                       "the joints' matrix [M G^T; G 0] is singular): check that no two joints hold the same "
                       "freedom of a body"
                     : "IDA refused the start state (out of memory?)");
    res->ida_flag = -1;
    return 0;
  }
  if (root) io = PlMakeDirs(dir, &res->err);
  /* the files (rank 0); a restart keeps their rows up to its last output and appends */
  for (int k = -3; root && !io && k < np + nb + nj; ++k) {
    FILE **f;
    if (k == -3) {
      if (!m->sea.ntrains) continue;
      f = &fw, snprintf(path, sizeof path, "%s/waves.csv", dir);
    } else if (k == -2) {
      if (!nl) continue; /* bodies alone: no line end */
      f = &fl, snprintf(path, sizeof path, "%s/timeseries_lines.csv", dir);
    }
    else if (k == -1) f = &fe, snprintf(path, sizeof path, "%s/energy.csv", dir);
    else if (k < np) {
      if (m->points[k].fixed) continue;
      f = &fp[k], snprintf(path, sizeof path, "%s/timeseries_point_%s.csv", dir, m->points[k].name);
    } else if (k < np + nb)
      f = &fb[k - np], snprintf(path, sizeof path, "%s/timeseries_%s.csv", dir, m->bodies[k - np].id);
    else
      f = &fj[k - np - nb], snprintf(path, sizeof path, "%s/timeseries_%s.csv", dir, m->joints[k - np - nb].name);
    if (opt->restart) {
      if (!(*f = PlTrimSeries(path, t_out))) {
        snprintf(res->err.msg, sizeof res->err.msg, "%.900s: cannot continue the time series: %s", path,
                 strerror(errno));
        io = PL_EXIT_IO;
      }
      continue;
    }
    *f = fopen(path, "w");
    int bad = !*f;
    if (!bad) {
      if (k == -3) {
        char wh[4096];
        PlWaveSeriesHeader(m, wh, sizeof wh);
        bad = fputs(wh, *f) < 0;
      } else if (k == -2) {
        bad = fputs("t_s", *f) < 0;
        for (int l = 0; l < nl && !bad; ++l)
          for (int e = 0; e < 2 && !bad; ++e) {
            const char *nm = m->lines[l].name, ab = e ? 'b' : 'a';
            bad = fprintf(*f, ",%s_%c_tension_N,%s_%c_force_x_N,%s_%c_force_y_N,%s_%c_force_z_N", nm, ab, nm, ab, nm,
                          ab, nm, ab) < 0;
          }
        bad = bad || fputc('\n', *f) == EOF;
      } else if (k == -1) {
        char eh[1024];
        PlSysDynEnergyHeader(s, eh, sizeof eh);
        bad = fputs(eh, *f) < 0;
      }
      else if (k < np)
        bad = fputs("t_s,x_m,y_m,z_m,vx_mps,vy_mps,vz_mps\n", *f) < 0;
      else if (k < np + nb)
        bad = fputs(PlVesselSeriesHeader(), *f) < 0;
      else
        bad = fputs(PlJointSeriesHeader(), *f) < 0;
    }
    if (bad) {
      snprintf(res->err.msg, sizeof res->err.msg, "%.900s: cannot write: %s", path, strerror(errno));
      io = PL_EXIT_IO;
    }
  }
  if (root && !io && PlSysRollersCount(s) > 0 && !(fr = PlSysRollersSeriesOpen(s, dir, opt->restart ? t_out : -1.0, &res->err)))
    io = PL_EXIT_IO;
  /* each line's series and envelopes in OUTPUT/line_NAME/ (line_series.c), against its
   * static stations: the start state (a restart's too: its state is set below) */
  PlLineSeries ls[nls];
  PlStation *stat[nls], *sels[nls], *nodes[nls], *els[nls];
  int nn[nls];
  for (int l = 0; l < nls; ++l) stat[l] = sels[l] = nodes[l] = els[l] = NULL, nn[l] = 0;
  memset(ls, 0, sizeof ls);
  int wrote = k0 > 0; /* a row of the lines' series (their envelopes have a value) */
  if (root && !io) io = Stations(s, PlSysDynState(s), stat, sels, nn, &res->err);
  for (int l = 0; root && !io && l < nl; ++l) {
    const PlProblem p = PlLinesProblem(PlSysDynLines(s), l);
    char ldir[PL_PATH_MAX + PL_NAME_MAX + 8];
    snprintf(ldir, sizeof ldir, "%s/line_%s", dir, m->lines[l].name);
    PlRunExtremaInit(&x.ext[l]);
    if (PlLineSeriesInit(&ls[l], p, stat[l])) {
      snprintf(res->err.msg, sizeof res->err.msg, "out of memory for the envelopes");
      io = PL_EXIT_FAILURE;
    }
    if (!io) io = PlMakeDirs(ldir, &res->err);
    if (!io) io = PlLineSeriesOpen(&ls[l], ldir, PlLinesProblem(PlSysDynLines(s), l), opt->restart ? t_out : -1.0,
                                   &res->err);
  }
  if (root && !io && opt->restart) PackAux(aux, &x, ls, nl, 0);
  void *ida = PlSysDynIDA(s);
  MPI_Bcast(&io, 1, MPI_INT, 0, s->comm);
  if (!io && opt->restart && PlSysDynResumeRunState(s, in.t, ycur, ypcur, integ, in.nint)) {
    snprintf(res->failure, sizeof res->failure, "IDA refused the state of the restart file at t = %.6g s", in.t);
    res->ida_flag = -1;
  }
  free(integ);
  integ = NULL;
  const int started = !io; /* the files are open: the end writes summary.json */
  const double dt = ds->output_interval, T = ds->duration;
  const long nout = (long)ceil(T / dt - 1e-9);
  double t = opt->restart ? t_out : 0.0, tida = opt->restart ? in.t : 0.0; /* tida: IDA's last step */
  double last_checkpoint = -INFINITY;
  if (!opt->restart) {
    memcpy(ycur, PlSysDynState(s), sizeof(double) * (size_t)n);
    memcpy(ypcur, PlSysDynRate(s), sizeof(double) * (size_t)n);
  }
  int stall = 0;
  long k = k0;
  for (; !io && !res->ida_flag && k <= nout; ++k) {
    const double tout = k == nout ? T : k * dt;
    if (k > 0) {
      /* IDA steps past the output time (its own step sizes: a stop at every output would cut
       * the step there and change cj, costing steps and iteration matrices) and the output
       * state is interpolated (IDAGetDky); it stops and restarts at the forcing's breakpoints
       * only (PlIdaStep) */
      realtype tret = tida;
      int rc = 0, stepped = 0;
      while (tret < tout * (1 - 1e-14) && rc >= 0) {
        stepped = 1;
        rc = PlIdaStep(ida, PlSysDynStateVector(s), PlSysDynRateVector(s), &tret);
        int stop = opt->stop && *opt->stop;
        if (s->size > 1) MPI_Allreduce(MPI_IN_PLACE, &stop, 1, MPI_INT, MPI_MAX, s->comm);
        if (stop) {
          res->interrupted = 1;
          break;
        }
        realtype h = 0.0;
        IDAGetLastStep(ida, &h);
        stall = h < 1e-10 * (1.0 + tret) ? stall + 1 : 0;
        if (stall >= 100) break;
        if (rc >= 0 && PlSysDynPlausible(s, (double)tret, PlSysDynState(s), res->failure, sizeof res->failure)) {
          res->ida_flag = PL_DYN_IMPLAUSIBLE;
          break;
        }
        if (rc >= 0 && PlSysDynStepLimit(s, ida, (double)tret, res->failure, sizeof res->failure)) {
          res->ida_flag = IDA_TOO_MUCH_WORK;
          break;
        }
      }
      if (res->ida_flag == PL_DYN_IMPLAUSIBLE || res->ida_flag == IDA_TOO_MUCH_WORK) {
        t = tret;
        break;
      }
      if (rc < 0 || stall >= 100) {
        char *name = rc < 0 ? IDAGetReturnFlagName(rc) : NULL;
        res->ida_flag = rc < 0 ? rc : -1;
        if (rc < 0 && PlSysDynAtBreakpoint(s, ida))
          snprintf(res->failure, sizeof res->failure, "the integration stopped at t = %.6g s (%s) before the output "
                   "at %.6g s: %s", (double)tret, name ? name : "an IDA error", tout, PL_BREAKPOINT_HINT);
        else
          snprintf(res->failure, sizeof res->failure, "the integration stopped at t = %.6g s (%s) before the output "
                   "at %.6g s: %s", (double)tret, rc < 0 ? (name ? name : "an IDA error")
                   : "the step collapsed below 1e-10 s", tout, nl ? kSystemHint : kBodiesHint);
        free(name);
        t = tret;
        break;
      }
      /* IDA's state at its last step: what a checkpoint keeps. When IDA's last step had already
       * reached this output (it stepped past two outputs at once, or to the duration), the
       * state vectors still hold the previous output's interpolated state: IDA's own is put
       * back before it is interpolated or written. */
      tida = tret;
      if (stepped) {
        memcpy(ycur, PlSysDynState(s), sizeof(double) * (size_t)n);
        memcpy(ypcur, PlSysDynRate(s), sizeof(double) * (size_t)n);
      } else {
        memcpy(PlSysDynState(s), ycur, sizeof(double) * (size_t)n);
        memcpy(PlSysDynRate(s), ypcur, sizeof(double) * (size_t)n);
      }
      if (res->interrupted && tret < tout * (1 - 1e-14)) { /* else output k is written first */
        t = tret;
        break;
      }
      if (tret > tout && (IDAGetDky(ida, tout, 0, PlSysDynStateVector(s)) != IDA_SUCCESS ||
                          IDAGetDky(ida, tout, 1, PlSysDynRateVector(s)) != IDA_SUCCESS)) {
        res->ida_flag = -1;
        snprintf(res->failure, sizeof res->failure, "IDA could not interpolate the state at the output time %.6g s",
                 tout);
        t = tret;
        break;
      }
      t = tout;
    }
    const double *y = PlSysDynState(s), *yp = PlSysDynRate(s);
    if (nj && PlSysDynJointReactions(s, t, y, yp, ymb)) { /* the reactions the state implies (every rank) */
      res->ida_flag = -1;
      snprintf(res->failure, sizeof res->failure, "the joints' reactions at t = %.6g s: a singular saddle-point "
               "matrix (a joint's rows dependent on another's) or out of memory", t);
      break;
    }
    PlSysDynOutputLoads(s, t, y, yp); /* the end forces and the bodies' loads at (t, y) (collective) */
    if (root) {
      if (fl) fprintf(fl, "%.17g", t);
      for (int l = 0; l < nl; ++l)
        for (int e = 0; e < 2; ++e) {
          double f[3];
          PlSysDynEndForce(s, l, e, f);
          const double T_e = Norm3(f);
          RangeAdd(&x.ten[l][e], T_e, t, k == 0);
          fprintf(fl, ",%.17g,%.17g,%.17g,%.17g", T_e, f[0], f[1], f[2]);
        }
      if (fl) {
        fputc('\n', fl);
        fflush(fl);
      }
      PlSysRollersSeriesRow(s, fr, t); /* the stinger's rollers at (t, y) */
      for (int p = 0; p < np; ++p) {
        if (!fp[p]) continue;
        double xp[6];
        PlSysDynPoint(s, p, y, xp);
        fprintf(fp[p], "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", t, xp[0], xp[1], xp[2], xp[3], xp[4], xp[5]);
        fflush(fp[p]);
        x.pmax[p] = fmax(x.pmax[p], Norm3((const double[3]){xp[0] - rep->point_position[p][0],
                                                             xp[1] - rep->point_position[p][1],
                                                             xp[2] - rep->point_position[p][2]}));
      }
      for (int b = 0; b < nb; ++b) {
        PlVesselOutput vo;
        PlSysDynBodyOutput(s, b, t, y, &vo);
        PlVesselSeriesRow(fb[b], t, &vo);
        fflush(fb[b]);
        res->body_final[b] = vo;
        res->nbodies = nb;
        x.bmax[b] = fmax(x.bmax[b], hypot(vo.eta[0] - rep->body_eta[b][0], vo.eta[1] - rep->body_eta[b][1]));
        if (m->bodies[b].has_dp && t >= m->bodies[b].dp.start_time)
          x.boff[b] = fmax(x.boff[b], hypot(vo.eta[0] - vo.eta_ref[0], vo.eta[1] - vo.eta_ref[1]));
        x.bthrust[b] = fmax(x.bthrust[b], hypot(vo.thrust[0], vo.thrust[1]));
      }
      for (int j = 0; j < nj; ++j) {
        double P[3], Fj[3], Mj[3];
        PlMultibodyJointLoad(&s->mb, ymb, j, P, Fj, Mj);
        PlJointSeriesRow(fj[j], t, P, Fj, Mj);
        x.jfmax[j] = fmax(x.jfmax[j], Norm3(Fj));
        x.jmmax[j] = fmax(x.jmmax[j], Norm3(Mj));
      }
      if (nj) x.jgap = fmax(x.jgap, PlMultibodyJointGap(&s->mb, y + s->moff));
      if (!io) io = Stations(s, y, nodes, els, nn, &res->err);
      for (int l = 0; l < nl && !io; ++l) {
        const PlProblem p = PlLinesProblem(PlSysDynLines(s), l);
        double f[3];
        PlSysDynEndForce(s, l, 1, f); /* the line's load on its top, as a one-line run's top_load */
        io = PlLineSeriesRow(&ls[l], t, nodes[l], f, k == 0, &res->err);
        wrote = 1;
        PlRunExtremaUpdate(&x.ext[l], p, t, els[l], p->mesh.nelements, &nodes[l][nn[l] - 1]);
        if (x.design) PlDesignEnvelopeUpdate(&x.design[l], &p->model, t, nodes[l], nn[l], stat[l]);
      }
      if (!io && fw) {
        double(*tops)[3] = malloc(sizeof *tops * (size_t)nl);
        for (int l = 0; tops && l < nl; ++l) memcpy(tops[l], nodes[l][nn[l] - 1].x, sizeof tops[l]);
        if (tops) PlWaveSeriesRow(fw, s->waves, &m->sea, t, (const double(*)[3])tops, nl);
        free(tops);
        fflush(fw);
        if (!tops || ferror(fw)) {
          snprintf(res->err.msg, sizeof res->err.msg, "%.900s/waves.csv: writing failed", dir);
          io = PL_EXIT_IO;
        }
      }
      if (!io && (opt->lines_observer || (opt->bodies_observer && nb > 0)) && PlModelVtkFrame(m, k, nout))
        io = Observe(s, opt, t, y, nodes, stat, nn, &res->err);
      double strain = 0.0; /* the lines' strain energy from their stations */
      for (int l = 0; l < nl && !io; ++l)
        PlStationsAddStrainEnergy(els[l], PlLinesProblem(PlSysDynLines(s), l)->mesh.nelements, &strain);
      FreeStations(nl, nodes, els);
      if (k == 0) x.E0 = NAN; /* set by the first row */
      PlEnergyChange ec;
      const double bal = PlSysDynEnergyRow(s, t, y, io ? NULL : &strain, NULL, &x.E0, fe, &ec);
      x.bal_max = fmax(x.bal_max, fabs(bal));
      x.work_max = fmax(x.work_max, ec.scale);
      fflush(fe);
      x.Emax_dev = fmax(x.Emax_dev, fabs(ec.change));
      if ((fl && ferror(fl)) || ferror(fe)) {
        snprintf(res->err.msg, sizeof res->err.msg, "%.900s: writing a time series failed", dir);
        io = PL_EXIT_IO;
      }
      if (!opt->quiet && k > 0 && (k % 100 == 0 || k == nout)) {
        printf("  t = %.6g s of %.6g s\n", t, T);
        fflush(stdout);
      }
    }
    /* a checkpoint after the first output, then every output.checkpoint_interval s of wall
     * time, when IDA's state is before the next output (a restart continues from there) */
    const double tnext = k + 1 >= nout ? T : (k + 1) * dt;
    int due = MPI_Wtime() - last_checkpoint >= m->checkpoint_interval && k < nout && tida < tnext * (1 - 1e-14);
    MPI_Bcast(&due, 1, MPI_INT, 0, s->comm);
    MPI_Bcast(&io, 1, MPI_INT, 0, s->comm);
    if (due && !io) {
      Result(ida, t, T, wall0, io, &base, res);
      rh.t = tida;
      rh.t_out = t;
      rh.noutputs = (int32_t)(k + 1);
      if (root) io = Checkpoint(s, rep, opt, res, &x, ls, &rh, ycur, ypcur, aux, t, &res->err);
      MPI_Bcast(&io, 1, MPI_INT, 0, s->comm);
      last_checkpoint = MPI_Wtime();
    }
    if (res->interrupted) {
      ++k; /* output k is written */
      break;
    }
  }
  Result(ida, t, T, wall0, io, &base, res);
  FILE *all[4 + np + nb + nj];
  int nf = 0;
  all[nf++] = fr;
  all[nf++] = fw;
  all[nf++] = fl;
  all[nf++] = fe;
  for (int p = 0; p < np; ++p) all[nf++] = fp[p];
  for (int b = 0; b < nb; ++b) all[nf++] = fb[b];
  for (int j = 0; j < nj; ++j) all[nf++] = fj[j];
  for (int i = 0; i < nf; ++i)
    if (all[i] && fclose(all[i]) && !io) {
      io = PL_EXIT_IO;
      snprintf(res->err.msg, sizeof res->err.msg, "%.900s: closing a time series failed", dir);
    }
  for (int l = 0; root && l < nl; ++l) { /* the series; the envelopes stay for the end below */
    const int lio = PlLineSeriesClose(&ls[l], io ? &(PlError){{0}} : &res->err);
    if (!io) io = lio;
  }
  /* The end: with outputs written (or a restart's), the final checkpoint at the state where
   * the run ended (the next output after it: a restart continues there). After an IDA failure,
   * or with IDA past the next output, restart.bin stays at the last checkpoint; each line's
   * envelopes over the outputs written and summary.json are written all the same. */
  const double tnext = k >= nout ? INFINITY : k * dt;
  if (root && started) {
    res->nlines = nl;
    for (int l = 0; l < nl; ++l) res->line_extrema[l] = x.ext[l];
    if (x.design && (res->line_design = calloc((size_t)nl, sizeof *res->line_design)))
      for (int l = 0; l < nl; ++l) res->line_design[l] = x.design[l], res->line_design[l].v = NULL; /* the governing values */
    PlError e2;
    int fio = 0;
    if (wrote && !res->ida_flag && !io && tida < tnext * (1 - 1e-14)) {
      rh.t = tida;
      rh.t_out = k - 1 >= nout ? T : (k - 1) * dt;
      rh.noutputs = (int32_t)k;
      fio = Checkpoint(s, rep, opt, res, &x, ls, &rh, ycur, ypcur, aux, t, &e2);
    } else {
      for (int l = 0; wrote && l < nl && !fio; ++l) {
        char ldir[PL_PATH_MAX + PL_NAME_MAX + 8];
        snprintf(ldir, sizeof ldir, "%s/line_%s", dir, m->lines[l].name);
        fio = PlLineSeriesEnvelopes(&ls[l], ldir, &e2);
        if (!fio) fio = DesignWrite(&x, s, l, ldir, &e2);
      }
      if (!fio) {
        cJSON *sum = Summary(s, rep, opt, res, &x, t);
        fio = PlSummaryWrite(dir, sum, &e2);
        cJSON_Delete(sum);
      }
    }
    if (fio && !io) {
      io = fio;
      res->err = e2;
    }
  }
  for (int l = 0; root && l < nl; ++l) PlLineSeriesFree(&ls[l]);
  FreeStations(nl, stat, sels);
  free(ycur), free(ypcur), free(aux), free(ymb), free(x.block);
  DesignFree(&x, nl);
  MPI_Bcast(&io, 1, MPI_INT, 0, s->comm);
  res->io_status = io;
  return 0;
}

void PlDynamicResultFree(PlDynamicResult *res)
{
  if (!res) return;
  free(res->line_extrema);
  free(res->line_design);
  free(res->body_final);
  res->line_extrema = NULL;
  res->line_design = NULL;
  res->body_final = NULL;
  res->nlines = res->nbodies = 0;
}
