/*
 * dynamic_run.c - a dynamic analysis from start to files: the output loop, time series of
 * the ends and named points, envelopes along the arc length, progress line and the JSON
 * summary. Tuned for runs of 10^2..10^4 output times of 10^2..10^4 nodes: post-processing
 * costs one gather and one pass over the elements per output time.
 *
 * Files (rank 0, in the output directory, every double with 17 significant digits):
 *   timeseries_bottom.csv, timeseries_top.csv, timeseries_<point>.csv
 *       t_s,x_m,y_m,z_m,effective_tension_N,bending_moment_2_Nm,bending_moment_3_Nm,curvature_1pm
 *       (node stations: positions at the node, section values averaged from the adjacent
 *        element midpoints as in static.csv); a row per output time, flushed at once, so an
 *       interrupted run keeps every row written.
 *   envelopes.csv  per node: min/max displacement from the static shape in x, y, z, min/max
 *       bending moments about t2 and t3, min/max effective tension and its static value,
 *       over the output times (t = 0 included).
 *   energy.csv     t_s,kinetic_J,strain_J,potential_J,total_J (see kEnergyHeader)
 *   summary.json   the static summary with "analysis": "dynamic" and the dynamic keys.
 * Top tension is the effective tension of the top node station (the top element's axial
 * force); the maximum bending moment is the largest |(m2, m3)| over nodes and output times.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <stdint.h>
#include <cjson/cJSON.h>
#include "dynamic_impl.h"

static const char *kSeriesHeader =
  "t_s,x_m,y_m,z_m,effective_tension_N,bending_moment_2_Nm,bending_moment_3_Nm,curvature_1pm\n";

/* energy.csv: the pipe's mechanical energy (PlDynamicEnergy): kinetic (translation and
 * rotation), strain (the elements' stored energy) and potential (the lumped submerged
 * weights and the dead end forces; not the seabed springs), and their sum. Work done by
 * drag, damping, seabed contact or prescribed motion is not in it: without those the total
 * is conserved by the equations (up to the integration error). */
static const char *kEnergyHeader = "t_s,kinetic_J,strain_J,potential_J,total_J\n";

static FILE *TrimSeries(const char *path, double t_last);

typedef struct {
  FILE *f[4 + PL_MAX_OUTPUT_NODES]; /* the node series, energy.csv, timeseries_vessel.csv */
  int vessel;                       /* has the vessel file */
  int node[2 + PL_MAX_OUTPUT_NODES];
  int n;
  double *env;     /* [nn][12]: dx,dy,dz,m2,m3,T as (min,max) pairs */
  const PlStation *stat; /* static node stations */
} Writer;

static void WriteRow(FILE *f, double t, const PlStation *s)
{
  fprintf(f, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", t, s->x[0], s->x[1], s->x[2], s->tension,
          s->moment[0], s->moment[1], s->curvature);
  fflush(f);
}

static int OpenSeries(Writer *w, const char *dir, const PlProblem p, double t_restart, PlError *err)
{
  const PlModel *m = &p->model;
  const int nn = p->mesh.nnodes;
  const char *names[2 + PL_MAX_OUTPUT_NODES];
  names[0] = "bottom";
  names[1] = "top";
  w->node[0] = 0;
  w->node[1] = nn - 1;
  w->n = 2 + m->noutput_points;
  for (int k = 0; k < m->noutput_points; ++k) {
    names[2 + k] = m->output_points[k].name;
    int best = 0;
    for (int i = 1; i < nn; ++i)
      if (fabs(p->mesh.S[i] - m->output_points[k].arc_length) < fabs(p->mesh.S[best] - m->output_points[k].arc_length))
        best = i;
    w->node[2 + k] = best;
  }
  names[w->n] = "energy";
  w->vessel = m->vessel.present;
  for (int k = 0; k <= w->n + w->vessel; ++k) {
    char path[PL_PATH_MAX + 128];
    if (k == w->n) snprintf(path, sizeof path, "%s/energy.csv", dir);
    else if (k == w->n + 1) snprintf(path, sizeof path, "%s/timeseries_vessel.csv", dir);
    else snprintf(path, sizeof path, "%s/timeseries_%s.csv", dir, names[k]);
    if (t_restart >= 0.0) {
      w->f[k] = TrimSeries(path, t_restart);
      if (!w->f[k]) {
        snprintf(err->msg, sizeof err->msg, "%.900s: cannot continue the time series: %s", path, strerror(errno));
        return PL_EXIT_IO;
      }
      continue;
    }
    w->f[k] = fopen(path, "w");
    if (!w->f[k] || fputs(k == w->n ? kEnergyHeader : k > w->n ? PlVesselSeriesHeader() : kSeriesHeader, w->f[k]) < 0) {
      snprintf(err->msg, sizeof err->msg, "%.900s: cannot write: %s", path, strerror(errno));
      return PL_EXIT_IO;
    }
  }
  return 0;
}

static void UpdateEnvelopes(Writer *w, const PlStation *N, int nn, int first)
{
  for (int i = 0; i < nn; ++i) {
    const double v[6] = {N[i].x[0] - w->stat[i].x[0], N[i].x[1] - w->stat[i].x[1], N[i].x[2] - w->stat[i].x[2],
                         N[i].moment[0], N[i].moment[1], N[i].tension};
    double *e = w->env + 12 * i;
    for (int k = 0; k < 6; ++k) {
      if (first || v[k] < e[2 * k]) e[2 * k] = v[k];
      if (first || v[k] > e[2 * k + 1]) e[2 * k + 1] = v[k];
    }
  }
}

static int WriteEnvelopes(const Writer *w, const char *dir, int nn, PlError *err)
{
  char path[PL_PATH_MAX + 64], tmp[PL_PATH_MAX + 80];
  snprintf(path, sizeof path, "%s/envelopes.csv", dir);
  snprintf(tmp, sizeof tmp, "%s/.envelopes.csv.tmp", dir);
  FILE *f = fopen(tmp, "w");
  if (!f) {
    snprintf(err->msg, sizeof err->msg, "%.900s: cannot write: %s", tmp, strerror(errno));
    return PL_EXIT_IO;
  }
  fputs("S_m,dx_min_m,dx_max_m,dy_min_m,dy_max_m,dz_min_m,dz_max_m,bending_moment_2_min_Nm,"
        "bending_moment_2_max_Nm,bending_moment_3_min_Nm,bending_moment_3_max_Nm,"
        "effective_tension_min_N,effective_tension_max_N,effective_tension_static_N\n", f);
  for (int i = 0; i < nn; ++i) {
    const double *e = w->env + 12 * i;
    fprintf(f, "%.17g", w->stat[i].S);
    for (int k = 0; k < 12; ++k) fprintf(f, ",%.17g", e[k]);
    fprintf(f, ",%.17g\n", w->stat[i].tension);
  }
  return PlFileCommit(f, 0, tmp, path, err);
}

/* ---- restart files -------------------------------------------------------------------------
 * DIR/restart.bin, rewritten atomically (tmp + rename) after every output time:
 *   header: magic "PLRST02", nnodes, ndd, parametrisation, outputs written, the vessel's
 *   unknowns (0 without one), a fingerprint of
 *   the static shape (FNV-1a of its node positions: the run must restart on the same model),
 *   time t, top-tension and bending-moment extrema; then y, ydot (nnodes ndd + nextra each, the raw
 *   IDA state at t) and the envelopes (12 per node). Host byte order. */
typedef struct {
  char magic[8];
  int32_t nnodes, ndd, kind, noutputs, nextra;
  uint64_t fingerprint;
  double t, max_top, min_top, max_bm;
} RestartHeader;

static uint64_t Fingerprint(const PlStation *stat, int nn)
{
  uint64_t h = 1469598103934665603ull;
  for (int i = 0; i < nn; ++i) {
    const unsigned char *b = (const unsigned char *)stat[i].x;
    for (size_t k = 0; k < sizeof stat[i].x; ++k) h = (h ^ b[k]) * 1099511628211ull;
  }
  return h;
}

static int WriteRestart(const char *dir, const RestartHeader *h, const double *y, const double *yp,
                        const double *env, PlError *err)
{
  char path[PL_PATH_MAX + 64], tmp[PL_PATH_MAX + 80];
  const size_t n = (size_t)h->nnodes * h->ndd + (size_t)h->nextra;
  snprintf(path, sizeof path, "%s/restart.bin", dir);
  snprintf(tmp, sizeof tmp, "%s/.restart.bin.tmp", dir);
  FILE *f = fopen(tmp, "wb");
  int bad = !f;
  if (f) {
    bad |= fwrite(h, sizeof *h, 1, f) != 1;
    bad |= fwrite(y, sizeof(double), n, f) != n;
    bad |= fwrite(yp, sizeof(double), n, f) != n;
    bad |= fwrite(env, sizeof(double), (size_t)12 * h->nnodes, f) != (size_t)12 * h->nnodes;
  }
  return PlFileCommit(f, bad, tmp, path, err);
}

int PlDynamicRestartInfo(const char *dir, int *noutputs, double *t, PlError *err)
{
  char path[PL_PATH_MAX + 64];
  RestartHeader h;
  snprintf(path, sizeof path, "%s/restart.bin", dir);
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err->msg, sizeof err->msg, "%.900s: cannot read the restart file: %s", path, strerror(errno));
    return PL_EXIT_BAD_INPUT;
  }
  const int ok = fread(&h, sizeof h, 1, f) == 1 && !memcmp(h.magic, "PLRST02", 8) && h.noutputs > 0;
  fclose(f);
  if (!ok) {
    snprintf(err->msg, sizeof err->msg, "%.900s: not a pipelay restart file (or cut short)", path);
    return PL_EXIT_BAD_INPUT;
  }
  *noutputs = h.noutputs;
  *t = h.t;
  return 0;
}

/* Reads the restart file of dir into h, y, yp, env (sized for nn, ndd) and checks that it
 * belongs to this model. 0 or PL_EXIT_BAD_INPUT with a message. */
static int ReadRestart(const char *dir, int nn, int ndd, int nextra, int kind, uint64_t fp, RestartHeader *h,
                       double *y, double *yp, double *env, PlError *err)
{
  char path[PL_PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/restart.bin", dir);
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err->msg, sizeof err->msg, "%.900s: cannot read the restart file: %s", path, strerror(errno));
    return PL_EXIT_BAD_INPUT;
  }
  const size_t n = (size_t)nn * ndd + (size_t)nextra;
  int ok = fread(h, sizeof *h, 1, f) == 1 && !memcmp(h->magic, "PLRST02", 8);
  if (ok && (h->nnodes != nn || h->ndd != ndd || h->nextra != nextra || h->kind != kind || h->fingerprint != fp)) {
    fclose(f);
    snprintf(err->msg, sizeof err->msg,
             "%.700s: the restart file belongs to another model (%d nodes, %d unknowns per node, or another "
             "static shape); restart with the model file and --set options of the interrupted run", path,
             (int)h->nnodes, (int)h->ndd);
    return PL_EXIT_BAD_INPUT;
  }
  ok = ok && fread(y, sizeof(double), n, f) == n && fread(yp, sizeof(double), n, f) == n &&
       fread(env, sizeof(double), (size_t)12 * nn, f) == (size_t)12 * nn;
  fclose(f);
  if (!ok) {
    snprintf(err->msg, sizeof err->msg, "%.900s: not a pipelay restart file (or cut short)", path);
    return PL_EXIT_BAD_INPUT;
  }
  return 0;
}

/* Keeps the header and the rows with t <= t_last of a time-series file (rows written after
 * the last restart point), then reopens it for appending. NULL on failure. */
static FILE *TrimSeries(const char *path, double t_last)
{
  FILE *f = fopen(path, "r");
  if (!f) return NULL;
  char tmp[PL_PATH_MAX + 160], line[4096];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *g = fopen(tmp, "w");
  if (!g) {
    fclose(f);
    return NULL;
  }
  int first = 1;
  while (fgets(line, sizeof line, f)) {
    if (first || strtod(line, NULL) <= t_last * (1 + 1e-12) + 1e-12) fputs(line, g);
    first = 0;
  }
  fclose(f);
  if (fclose(g) || rename(tmp, path)) return NULL;
  return fopen(path, "a");
}

static void Progress(double t, double T, long steps, double wall, int done)
{
  const double rtf = wall > 0 ? t / wall : 0.0, left = t > 0 ? wall * (T - t) / t : 0.0;
  fprintf(stdout, "\r  t = %8.3f / %.3f s   steps %7ld   %8.1fx real time   %6.1f s left   ", t, T, steps, rtf,
          left);
  if (done) fputc('\n', stdout);
  fflush(stdout);
}

PetscErrorCode PlDynamicRunToFiles(PlProblem p, const PlStaticReport *srep, const PlStaticSummary *ssum,
                                   const PlDynamicRunOptions *opt, PlDynamicResult *res)
{
  const PlModel *m = &p->model;
  const PlDynamicSettings *s = &m->analysis.dynamic;
  const char *dir = m->output_dir;
  const int nn = p->mesh.nnodes;
  PetscMPIInt rank, size;
  PlDynamic d = NULL;
  Writer w;
  PlStation *N = NULL, *E = NULL, *stat = NULL, *Es = NULL;
  int nnr, ner;
  PetscFunctionBeginUser;
  memset(res, 0, sizeof *res);
  memset(&w, 0, sizeof w);
  PetscCallMPI(MPI_Comm_rank(p->comm, &rank));
  PetscCallMPI(MPI_Comm_size(p->comm, &size));
  res->max_top_tension_N = -INFINITY;
  res->min_top_tension_N = INFINITY;
  const double wall0 = MPI_Wtime();
  PetscCall(PlProblemStations(p, &stat, &nnr, &Es, &ner));
  PetscCall(PlDynamicCreate(p, &d));
  PlDynamicSetStopFlag(d, opt->stop);
  const int ndd = PlDynNodeDofCount(p->kind);
  PetscInt nstate;
  PetscCall(VecGetSize(PlDynamicState(d), &nstate));
  const size_t nraw = (size_t)nstate; /* nn ndd, then the vessel's unknowns */
  double *yraw = malloc(sizeof(double) * nraw), *ypraw = malloc(sizeof(double) * nraw);
  PetscCheck(yraw && ypraw, p->comm, PETSC_ERR_MEM, "out of memory for the restart state");
  RestartHeader rh;
  memset(&rh, 0, sizeof rh);
  memcpy(rh.magic, "PLRST02", 8);
  rh.nnodes = nn;
  rh.ndd = ndd;
  rh.nextra = (int32_t)(nstate - (PetscInt)nn * ndd);
  rh.kind = (int32_t)p->kind;
  int io = 0;
  long k0 = 0;
  w.env = calloc((size_t)12 * nn, sizeof(double));
  PetscCheck(w.env, p->comm, PETSC_ERR_MEM, "out of memory for the envelopes");
  if (!rank) rh.fingerprint = Fingerprint(stat, nn);
  PetscCallMPI(MPI_Bcast(&rh.fingerprint, 1, MPI_UINT64_T, 0, p->comm));
  if (opt->restart) {
    /* continue an interrupted run from its last output (every rank reads the file) */
    RestartHeader in;
    io = ReadRestart(dir, nn, ndd, rh.nextra, rh.kind, rh.fingerprint, &in, yraw, ypraw, w.env, &res->err);
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &io, 1, MPI_INT, MPI_MAX, p->comm));
    if (!io) {
      PetscCall(PlDynamicSetRaw(d, in.t, yraw, ypraw));
      k0 = in.noutputs;
      res->max_top_tension_N = in.max_top;
      res->min_top_tension_N = in.min_top;
      res->max_bending_moment_Nm = in.max_bm;
      res->restarted_at_s = in.t;
    }
  }
  if (!rank) {
    if (!io) io = PlMakeDirs(dir, &res->err);
    if (!io) io = OpenSeries(&w, dir, p, opt->restart ? res->restarted_at_s : -1.0, &res->err);
    w.stat = stat;
  }
  PetscCallMPI(MPI_Bcast(&io, 1, MPI_INT, 0, p->comm));
  const int progress = !rank && !opt->quiet && isatty(fileno(stdout));
  const double dt = s->output_interval, T = s->duration;
  const long nout = (long)ceil(T / dt - 1e-9);
  double t = opt->restart ? res->restarted_at_s : 0.0;
  for (long k = k0; !io && k <= nout; ++k) {
    const double tout = k == nout ? T : k * dt;
    if (k > 0) {
      PetscCall(PlDynamicAdvance(d, tout, &res->ida_flag, res->failure, sizeof res->failure));
      if (res->ida_flag == PL_DYN_INTERRUPTED) { /* between steps: the last output stays the result */
        res->ida_flag = 0;
        res->failure[0] = '\0';
        res->interrupted = 1;
        break;
      }
      if (res->ida_flag) break;
    }
    t = tout;
    PetscCall(PlDynamicSyncStatic(d));
    PetscCall(PlProblemStations(p, &N, &nnr, &E, &ner));
    double ek, es, ep;
    PetscCall(PlDynamicEnergy(d, &ek, &es, &ep));
    PlVesselOutput vo;
    if (m->vessel.present) {
      PetscCall(PlDynamicVesselOutput(d, &vo));
      res->has_vessel = 1;
      res->vessel_final = vo;
      if (m->vessel.has_dp && t >= m->vessel.dp.start_time)
        res->vessel_max_offset_m = fmax(res->vessel_max_offset_m, hypot(vo.eta[0] - vo.eta_ref[0], vo.eta[1] - vo.eta_ref[1]));
      res->vessel_max_thrust_N = fmax(res->vessel_max_thrust_N, hypot(vo.thrust[0], vo.thrust[1]));
    }
    if (!rank) {
      for (int j = 0; j < w.n; ++j) WriteRow(w.f[j], t, &N[w.node[j]]);
      fprintf(w.f[w.n], "%.17g,%.17g,%.17g,%.17g,%.17g\n", t, ek, es, ep, ek + es + ep);
      fflush(w.f[w.n]);
      if (w.vessel) PlVesselSeriesRow(w.f[w.n + 1], t, &vo);
      UpdateEnvelopes(&w, N, nn, k == 0 && !opt->restart);
      const double Ttop = N[nn - 1].tension;
      res->max_top_tension_N = fmax(res->max_top_tension_N, Ttop);
      res->min_top_tension_N = fmin(res->min_top_tension_N, Ttop);
      for (int i = 0; i < nn; ++i) res->max_bending_moment_Nm = fmax(res->max_bending_moment_Nm, hypot(N[i].moment[0], N[i].moment[1]));
      if (opt->observer) io = opt->observer(opt->observer_ctx, t, N, nn, &res->err);
    }
    free(N);
    free(E);
    N = E = NULL;
    /* the restart point: this output time */
    PetscCall(PlDynamicGetRaw(d, &rh.t, yraw, ypraw));
    if (!rank && !io) {
      rh.noutputs = (int32_t)(k + 1);
      rh.max_top = res->max_top_tension_N;
      rh.min_top = res->min_top_tension_N;
      rh.max_bm = res->max_bending_moment_Nm;
      io = WriteRestart(dir, &rh, yraw, ypraw, w.env, &res->err);
    }
    PetscCallMPI(MPI_Bcast(&io, 1, MPI_INT, 0, p->comm));
    if (progress) {
      PlDynamicStats st;
      PetscCall(PlDynamicGetStats(d, &st));
      Progress(t, T, st.steps, MPI_Wtime() - wall0, k == nout);
    }
    if (opt->stop && *opt->stop) {
      res->interrupted = 1;
      break;
    }
  }
  if (progress && (res->ida_flag || res->interrupted)) fputc('\n', stdout);
  PlDynamicStats st;
  PetscCall(PlDynamicGetStats(d, &st));
  res->stats = st;
  res->simulated_time_s = t;
  res->wall_time_s = MPI_Wtime() - wall0;
  res->real_time_factor = res->wall_time_s > 0 ? t / res->wall_time_s : 0.0;
  res->completed = !res->ida_flag && !res->interrupted && !io && t >= T * (1 - 1e-12);
  if (!rank) {
    for (int j = 0; j <= w.n + w.vessel; ++j)
      if (w.f[j] && fclose(w.f[j]) && !io) {
        snprintf(res->err.msg, sizeof res->err.msg, "%.900s: closing a time-series file failed", dir);
        io = PL_EXIT_IO;
      }
    if (!io && w.env) io = WriteEnvelopes(&w, dir, nn, &res->err);
    if (!io) {
      cJSON *root = PlSummaryBuild(m, srep, ssum, nn, p->mesh.nelements, size, opt->noverrides, opt->overrides);
      cJSON_ReplaceItemInObject(root, "analysis", cJSON_CreateString("dynamic"));
      cJSON *st_wall = cJSON_GetObjectItem(root, "wall_time_s");
      if (st_wall) cJSON_AddNumberToObject(root, "static_wall_time_s", st_wall->valuedouble);
      cJSON_ReplaceItemInObject(root, "wall_time_s", cJSON_CreateNumber(res->wall_time_s));
      cJSON_AddBoolToObject(root, "completed", res->completed);
      cJSON_AddNumberToObject(root, "duration_s", T);
      cJSON_AddNumberToObject(root, "simulated_time_s", t);
      cJSON_AddNumberToObject(root, "real_time_factor", res->real_time_factor);
      cJSON_AddNumberToObject(root, "steps", (double)st.steps);
      cJSON_AddNumberToObject(root, "nonlinear_iterations", (double)st.nonlinear_iterations);
      cJSON_AddNumberToObject(root, "nonlinear_failures", (double)st.nonlinear_failures);
      cJSON_AddNumberToObject(root, "jacobian_evaluations", (double)st.jacobian_evaluations);
      cJSON_AddNumberToObject(root, "residual_evaluations", (double)st.residual_evaluations);
      cJSON_AddNumberToObject(root, "error_test_failures", (double)st.error_test_failures);
      cJSON_AddNumberToObject(root, "output_interval_s", dt);
      if (isfinite(res->max_top_tension_N)) {
        cJSON_AddNumberToObject(root, "max_top_tension_N", res->max_top_tension_N);
        cJSON_AddNumberToObject(root, "min_top_tension_N", res->min_top_tension_N);
      }
      cJSON_AddNumberToObject(root, "max_bending_moment_dynamic_Nm", res->max_bending_moment_Nm);
      /* the key: the dynamic maximum (the static one stays as max_bending_moment_static_Nm) */
      cJSON *mb = cJSON_GetObjectItem(root, "max_bending_moment_Nm");
      if (mb) cJSON_AddNumberToObject(root, "max_bending_moment_static_Nm", mb->valuedouble);
      cJSON_ReplaceItemInObject(root, "max_bending_moment_Nm", cJSON_CreateNumber(res->max_bending_moment_Nm));
      cJSON_DeleteItemFromObject(root, "max_bending_moment_dynamic_Nm");
      if (res->ida_flag) cJSON_AddStringToObject(root, "dynamic_failure", res->failure);
      if (res->interrupted) cJSON_AddStringToObject(root, "dynamic_failure", "interrupted by a signal");
      if (opt->restart) cJSON_AddNumberToObject(root, "restarted_at_s", res->restarted_at_s);
      if (res->has_vessel) PlSummaryAddVessel(root, m, res);
      io = PlSummaryWrite(dir, root, &res->err);
      cJSON_Delete(root);
    }
  }
  free(w.env);
  free(yraw);
  free(ypraw);
  PetscCallMPI(MPI_Bcast(&io, 1, MPI_INT, 0, p->comm));
  res->io_status = io;
  free(stat);
  free(Es);
  PetscCall(PlDynamicDestroy(&d));
  PetscFunctionReturn(0);
}
