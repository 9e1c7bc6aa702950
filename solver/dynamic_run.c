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
#include <cjson/cJSON.h>
#include "dynamic_impl.h"

static const char *kSeriesHeader =
  "t_s,x_m,y_m,z_m,effective_tension_N,bending_moment_2_Nm,bending_moment_3_Nm,curvature_1pm\n";

typedef struct {
  FILE *f[2 + PL_MAX_OUTPUT_NODES];
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

static int OpenSeries(Writer *w, const char *dir, const PlProblem p, PlError *err)
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
  for (int k = 0; k < w->n; ++k) {
    char path[PL_PATH_MAX + 128];
    snprintf(path, sizeof path, "%s/timeseries_%s.csv", dir, names[k]);
    w->f[k] = fopen(path, "w");
    if (!w->f[k] || fputs(kSeriesHeader, w->f[k]) < 0) {
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
  const int bad = ferror(f);
  if (fclose(f) || bad || rename(tmp, path)) {
    snprintf(err->msg, sizeof err->msg, "%.900s: write failed: %s", path, strerror(errno));
    return PL_EXIT_IO;
  }
  return 0;
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
  int io = 0;
  if (!rank) {
    io = PlResultsMakeDirs(dir, &res->err);
    if (!io) io = OpenSeries(&w, dir, p, &res->err);
    w.env = calloc((size_t)12 * nn, sizeof(double));
    w.stat = stat;
  }
  PetscCallMPI(MPI_Bcast(&io, 1, MPI_INT, 0, p->comm));
  const int progress = !rank && !opt->quiet && isatty(fileno(stdout));
  const double dt = s->output_interval, T = s->duration;
  const long nout = (long)ceil(T / dt - 1e-9);
  double t = 0.0;
  for (long k = 0; !io && k <= nout; ++k) {
    const double tout = k == nout ? T : k * dt;
    if (k > 0) {
      PetscCall(PlDynamicAdvance(d, tout, &res->ida_flag, res->failure, sizeof res->failure));
      if (res->ida_flag) break;
    }
    t = tout;
    PetscCall(PlDynamicSyncStatic(d));
    PetscCall(PlProblemStations(p, &N, &nnr, &E, &ner));
    if (!rank) {
      for (int j = 0; j < w.n; ++j) WriteRow(w.f[j], t, &N[w.node[j]]);
      UpdateEnvelopes(&w, N, nn, k == 0);
      const double Ttop = N[nn - 1].tension;
      res->max_top_tension_N = fmax(res->max_top_tension_N, Ttop);
      res->min_top_tension_N = fmin(res->min_top_tension_N, Ttop);
      for (int i = 0; i < nn; ++i) res->max_bending_moment_Nm = fmax(res->max_bending_moment_Nm, hypot(N[i].moment[0], N[i].moment[1]));
      if (opt->observer) io = opt->observer(opt->observer_ctx, t, N, nn, &res->err);
    }
    free(N);
    free(E);
    N = E = NULL;
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
    for (int j = 0; j < w.n; ++j)
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
      io = PlSummaryWrite(dir, root, &res->err);
      cJSON_Delete(root);
    }
    free(w.env);
  }
  PetscCallMPI(MPI_Bcast(&io, 1, MPI_INT, 0, p->comm));
  res->io_status = io;
  free(stat);
  free(Es);
  PetscCall(PlDynamicDestroy(&d));
  PetscFunctionReturn(0);
}
