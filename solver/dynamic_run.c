/*
 * dynamic_run.c - a dynamic analysis from start to files: the output loop, time series of
 * the ends and named points, envelopes along the arc length, progress line and the JSON
 * summary. Tuned for runs of 10^2..10^4 output times of 10^2..10^4 nodes: post-processing
 * costs one gather and one pass over the elements per output time.
 *
 * Files (rank 0, in the output directory, every double with 17 significant digits):
 *   timeseries_bottom.csv, timeseries_top.csv, timeseries_<point>.csv
 *       t_s,x_m,y_m,z_m,effective_tension_N,bending_moment_2_Nm,bending_moment_3_Nm,curvature_1pm
 *       (timeseries_top.csv also top_load_x_N, top_load_y_N, top_load_z_N, hang_off_angle_deg,
 *        flex_joint_angle_deg: kTopColumns)
 *       (node stations: positions at the node, section values averaged from the adjacent
 *        element midpoints as in static.csv); a row per output time, flushed at once, so an
 *       interrupted run keeps every row written.
 *   envelopes.csv  per node: min/max displacement from the static shape in x, y, z, min/max
 *       bending moments about t2 and t3, min/max effective tension and its static value,
 *       over the output times (t = 0 included).
 *   energy.csv     t_s,kinetic_J,strain_J,potential_J,total_J (see kEnergyHeader)
 *   summary.json   "analysis": "dynamic": the static start's results as static_* keys, the
 *       extrema over the whole run (DynamicSummary), the counters, "completed".
 *   restart.bin    the state to continue from (--restart), with the model as text.
 * Checkpoints: restart.bin, envelopes.csv and summary.json ("completed": false and the time
 * reached) are rewritten atomically after the first output, then every output.checkpoint_interval
 * seconds of wall-clock time (default 10), and at the end (also after a signal, an IDA failure or a failed
 * write), so that a killed run leaves a consistent set saying how far it got. Top tension is
 * the effective tension of the top node station (the top element's axial force).
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
  char path[4 + PL_MAX_OUTPUT_NODES][PL_PATH_MAX + 128];
  int vessel;                       /* has the vessel file */
  int node[2 + PL_MAX_OUTPUT_NODES];
  int n;
  double *env;     /* [nn][12]: dx,dy,dz,m2,m3,T as (min,max) pairs */
  const PlStation *stat; /* static node stations */
} Writer;

/* After a row of file j: flushed to the file system, or PL_EXIT_IO naming the file and the
 * reason (a full disk, a file-size limit). */
static int RowWritten(Writer *w, int j, PlError *err)
{
  if (fflush(w->f[j]) == 0 && !ferror(w->f[j])) return 0;
  snprintf(err->msg, sizeof err->msg, "%.900s: write failed: %s", w->path[j], strerror(errno));
  return PL_EXIT_IO;
}

/* top: NULL, or the top file's extra values (kTopColumns) */
static int WriteRow(Writer *w, int j, double t, const PlStation *s, const double *top, PlError *err)
{
  fprintf(w->f[j], "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g", t, s->x[0], s->x[1], s->x[2], s->tension,
          s->moment[0], s->moment[1], s->curvature);
  if (top) fprintf(w->f[j], ",%.17g,%.17g,%.17g,%.17g,%.17g", top[0], top[1], top[2], top[3], top[4]);
  fputc('\n', w->f[j]);
  return RowWritten(w, j, err);
}

/* The top's extra columns: the line's load on its top (support and applied end force
 * together: PlDynamicTopLoad; its magnitude is the top tension of a static summary), the
 * angle of the top tangent t1 from the horizontal (as hang_off_angle_deg of the summary) and
 * the angle between t1 and its static direction (the rotation a flex joint at the hang-off
 * takes). */
static const char *kTopColumns =
  ",top_load_x_N,top_load_y_N,top_load_z_N,hang_off_angle_deg,flex_joint_angle_deg\n";

static void TopAngles(const PlStation *now, const PlStation *stat, double *hang_off_deg, double *flex_deg)
{
  double t1[3], s1[3];
  const double *a = now->t2, *b = now->t3, *c = stat->t2, *e = stat->t3;
  t1[0] = a[1] * b[2] - a[2] * b[1], t1[1] = a[2] * b[0] - a[0] * b[2], t1[2] = a[0] * b[1] - a[1] * b[0];
  s1[0] = c[1] * e[2] - c[2] * e[1], s1[1] = c[2] * e[0] - c[0] * e[2], s1[2] = c[0] * e[1] - c[1] * e[0];
  const double r2d = 180.0 / M_PI;
  *hang_off_deg = atan2(t1[2], hypot(t1[0], t1[1])) * r2d;
  const double cr[3] = {t1[1] * s1[2] - t1[2] * s1[1], t1[2] * s1[0] - t1[0] * s1[2], t1[0] * s1[1] - t1[1] * s1[0]};
  *flex_deg = atan2(sqrt(cr[0] * cr[0] + cr[1] * cr[1] + cr[2] * cr[2]), t1[0] * s1[0] + t1[1] * s1[1] + t1[2] * s1[2]) * r2d;
}

static int WriteEnergyRow(Writer *w, double t, double ek, double es, double ep, PlError *err)
{
  fprintf(w->f[w->n], "%.17g,%.17g,%.17g,%.17g,%.17g\n", t, ek, es, ep, ek + es + ep);
  return RowWritten(w, w->n, err);
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
    char *path = w->path[k];
    const size_t len = sizeof w->path[k];
    if (k == w->n) snprintf(path, len, "%s/energy.csv", dir);
    else if (k == w->n + 1) snprintf(path, len, "%s/timeseries_vessel.csv", dir);
    else snprintf(path, len, "%s/timeseries_%s.csv", dir, names[k]);
    if (t_restart >= 0.0) {
      w->f[k] = TrimSeries(path, t_restart);
      if (!w->f[k]) {
        snprintf(err->msg, sizeof err->msg, "%.900s: cannot continue the time series: %s", path, strerror(errno));
        return PL_EXIT_IO;
      }
      continue;
    }
    w->f[k] = fopen(path, "w");
    int bad = !w->f[k];
    if (!bad && k == 1) /* the top: the node columns and kTopColumns */
      bad = fprintf(w->f[k], "%.*s%s", (int)strlen(kSeriesHeader) - 1, kSeriesHeader, kTopColumns) < 0;
    else if (!bad) bad = fputs(k == w->n ? kEnergyHeader : k > w->n ? PlVesselSeriesHeader() : kSeriesHeader, w->f[k]) < 0;
    if (bad || fflush(w->f[k])) {
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

/* ---- extrema over the run ------------------------------------------------------------ */
static void ExtremaInit(PlRunExtrema *x)
{
  PlExtreme *all = (PlExtreme *)x;
  for (size_t k = 0; k < sizeof *x / sizeof *all; ++k) all[k] = (PlExtreme){NAN, NAN, NAN};
}

static void Raise(PlExtreme *e, double v, double S, double t, int larger)
{
  if (isnan(e->value) || (larger ? v > e->value : v < e->value)) *e = (PlExtreme){v, S, t};
}

/* The extrema of the state at time t: E the element stations, top the top node station. */
static void ExtremaUpdate(PlRunExtrema *x, const PlProblem p, double t, const PlStation *E, int ne,
                          const PlStation *top)
{
  Raise(&x->max_top_tension, top->tension, top->S, t, 1);
  Raise(&x->min_top_tension, top->tension, top->S, t, 0);
  for (int e = 0; e < ne; ++e) {
    const double d_o = p->model.segments[p->mesh.segment[e]].section.outer_diameter;
    Raise(&x->max_tension, E[e].tension, E[e].S, t, 1);
    Raise(&x->min_tension, E[e].tension, E[e].S, t, 0);
    Raise(&x->max_moment, hypot(E[e].moment[0], E[e].moment[1]), E[e].S, t, 1);
    Raise(&x->max_curvature, E[e].curvature, E[e].S, t, 1);
    Raise(&x->max_axial_strain, E[e].axial_strain, E[e].S, t, 1);
    Raise(&x->max_fibre_strain, E[e].axial_strain + 0.5 * d_o * E[e].curvature, E[e].S, t, 1);
  }
}

/* ---- restart files -------------------------------------------------------------------------
 * DIR/restart.bin, rewritten atomically (tmp + rename) at every checkpoint:
 *   header: magic "PLRST03", nnodes, ndd, parametrisation, the outputs written, the vessel's
 *   unknowns (0 without one), the length of the model text; time t of the state; the
 *   counters and the extrema so far; then y, ydot (nnodes ndd + nextra each, the raw IDA
 *   state at t), the envelopes (12 per node) and the model text (PlDynamicRunOptions
 *   fingerprint). Host byte order. */
typedef struct {
  char magic[8];
  int32_t nnodes, ndd, kind, noutputs, nextra, pad;
  int64_t text_len;
  double t;
  int64_t steps, residual_evaluations, nonlinear_iterations, nonlinear_failures, jacobian_evaluations,
    error_test_failures;
  PlRunExtrema ext;
} RestartHeader;

static const char kRestartMagic[8] = "PLRST03";

static int WriteRestart(const char *dir, const RestartHeader *h, const double *y, const double *yp,
                        const double *env, const char *text, PlError *err)
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
    if (h->text_len) bad |= fwrite(text, 1, (size_t)h->text_len, f) != (size_t)h->text_len;
  }
  return PlFileCommit(f, bad, tmp, path, err);
}

static int ReadHeader(FILE *f, RestartHeader *h)
{
  return fread(h, sizeof *h, 1, f) == 1 && !memcmp(h->magic, kRestartMagic, 8) && h->noutputs > 0 &&
         h->nnodes > 0 && h->ndd > 0 && h->nextra >= 0 && h->text_len >= 0 && h->text_len < (1 << 24);
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
  const int ok = ReadHeader(f, &h);
  fclose(f);
  if (!ok) {
    snprintf(err->msg, sizeof err->msg, "%.900s: not a pipelay restart file of this version (or cut short)", path);
    return PL_EXIT_BAD_INPUT;
  }
  *noutputs = h.noutputs;
  *t = h.t;
  return 0;
}

/* The first lines where two model texts differ, each under the heading it belongs to (the
 * last line before it indented by two blanks: "  end top (S = L)", "  section 2: ..."),
 * "was: ... / now: ..." (at most three). */
static void TextDiff(const char *was, const char *now, char *out, size_t len)
{
  size_t used = 0;
  int shown = 0;
  const char *head = NULL;
  size_t lhead = 0;
  out[0] = '\0';
  while ((*was || *now) && shown < 3) {
    const char *ew = strchr(was, '\n'), *en = strchr(now, '\n');
    const size_t lw = ew ? (size_t)(ew - was) : strlen(was), ln = en ? (size_t)(en - now) : strlen(now);
    if (ln > 2 && now[0] == ' ' && now[1] == ' ' && now[2] != ' ') {
      head = now + 2;
      lhead = ln - 2;
    }
    if (lw != ln || memcmp(was, now, lw)) {
      const int k = snprintf(out + used, len - used, "\n  in '%.*s':\n    was: %.*s\n    now: %.*s",
                             (int)(head ? (lhead > 40 ? 40 : lhead) : 5), head ? head : "model",
                             (int)(lw > 60 ? 60 : lw), was, (int)(ln > 60 ? 60 : ln), now);
      if (k < 0 || (size_t)k >= len - used) break;
      used += (size_t)k;
      ++shown;
    }
    was += lw + (ew ? 1 : 0);
    now += ln + (en ? 1 : 0);
  }
}

/* Reads the restart file of dir into h, y, yp, env (sized for nn, ndd) and checks that it
 * belongs to this model (text: the model as text, or NULL). 0 or PL_EXIT_BAD_INPUT with a
 * message naming what differs. */
static int ReadRestart(const char *dir, int nn, int ndd, int nextra, int kind, const char *text, RestartHeader *h,
                       double *y, double *yp, double *env, PlError *err)
{
  char path[PL_PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/restart.bin", dir);
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err->msg, sizeof err->msg, "%.900s: cannot read the restart file: %s", path, strerror(errno));
    return PL_EXIT_BAD_INPUT;
  }
  if (!ReadHeader(f, h)) {
    fclose(f);
    snprintf(err->msg, sizeof err->msg, "%.900s: not a pipelay restart file of this version (or cut short)", path);
    return PL_EXIT_BAD_INPUT;
  }
  const size_t n = (size_t)nn * ndd + (size_t)nextra;
  const size_t nsaved = (size_t)h->nnodes * h->ndd + (size_t)h->nextra;
  char *saved = calloc((size_t)h->text_len + 1, 1);
  int ok = saved && n == nsaved && fread(y, sizeof(double), n, f) == n && fread(yp, sizeof(double), n, f) == n &&
           fread(env, sizeof(double), (size_t)12 * nn, f) == (size_t)12 * nn &&
           (h->text_len == 0 || fread(saved, 1, (size_t)h->text_len, f) == (size_t)h->text_len);
  fclose(f);
  if (ok && text && strcmp(saved, text)) {
    char diff[520]; /* with the path (200) and the text (~280): within the 1024 of a message */
    TextDiff(saved, text, diff, sizeof diff);
    snprintf(err->msg, sizeof err->msg,
             "%.200s: the model differs from the run that wrote this restart file, so it cannot be continued "
             "(only analysis.dynamic.duration may change); restart with the model file and --set options of that "
             "run, or start a new run. What differs (pipelay info shows the whole model):%s", path, diff);
    free(saved);
    return PL_EXIT_BAD_INPUT;
  }
  free(saved);
  if (ok && (h->nnodes != nn || h->ndd != ndd || h->nextra != nextra || h->kind != kind)) {
    snprintf(err->msg, sizeof err->msg,
             "%.700s: the restart file belongs to another model (%d nodes, %d unknowns per node); restart with the "
             "model file and --set options of the interrupted run", path, (int)h->nnodes, (int)h->ndd);
    return PL_EXIT_BAD_INPUT;
  }
  if (!ok) {
    snprintf(err->msg, sizeof err->msg, "%.900s: not a pipelay restart file of this model (or cut short)", path);
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

/* ---- summary.json of a dynamic run ----------------------------------------------------------
 * The static start's results keep their meaning under a static_ prefix (static_top_tension_N,
 * static_max_bending_moment_Nm, ...); the unprefixed extrema (max_effective_tension_N,
 * max_bending_moment_Nm, ...) are over the whole run, each with the arc length and the time
 * where it occurred; completed says whether the run reached its duration. */
static const char *const kStaticKeys[] = {
  "top_tension_N", "top_horizontal_tension_N", "hang_off_angle_deg", "layback_m", "touchdown_arc_length_m",
  "max_bending_moment_Nm", "max_bending_moment_arc_length_m", "max_axial_strain", "max_fibre_strain",
  "max_effective_tension_N", "max_curvature_1pm"};

static void AddExtreme(cJSON *root, const char *key, const char *unit, const PlExtreme *e, int with_S)
{
  char k[96];
  snprintf(k, sizeof k, "%s%s", key, unit);
  if (isfinite(e->value)) cJSON_AddNumberToObject(root, k, e->value);
  else cJSON_AddNullToObject(root, k);
  if (with_S) {
    snprintf(k, sizeof k, "%s_arc_length_m", key);
    if (isfinite(e->S_m)) cJSON_AddNumberToObject(root, k, e->S_m);
    else cJSON_AddNullToObject(root, k);
  }
  snprintf(k, sizeof k, "%s_time_s", key);
  if (isfinite(e->t_s)) cJSON_AddNumberToObject(root, k, e->t_s);
  else cJSON_AddNullToObject(root, k);
}

static cJSON *DynamicSummary(const PlProblem p, const PlStaticReport *srep, const PlStaticSummary *ssum,
                             const PlDynamicRunOptions *opt, const PlDynamicResult *res, int nranks, double T,
                             double dt)
{
  const PlModel *m = &p->model;
  cJSON *root = PlSummaryBuild(m, srep, ssum, p->mesh.nnodes, p->mesh.nelements, nranks, opt->noverrides,
                               opt->overrides);
  cJSON_ReplaceItemInObject(root, "analysis", cJSON_CreateString("dynamic"));
  for (size_t k = 0; k < sizeof kStaticKeys / sizeof *kStaticKeys; ++k) {
    cJSON *v = cJSON_DetachItemFromObject(root, kStaticKeys[k]);
    char key[96];
    snprintf(key, sizeof key, "static_%s", kStaticKeys[k]);
    if (v) cJSON_AddItemToObject(root, key, v);
  }
  cJSON *st_wall = cJSON_DetachItemFromObject(root, "wall_time_s");
  if (st_wall) cJSON_AddItemToObject(root, "static_wall_time_s", st_wall);
  cJSON_AddNumberToObject(root, "wall_time_s", res->wall_time_s);
  cJSON_AddBoolToObject(root, "completed", res->completed);
  cJSON_AddNumberToObject(root, "duration_s", T);
  cJSON_AddNumberToObject(root, "simulated_time_s", res->simulated_time_s);
  cJSON_AddNumberToObject(root, "real_time_factor", res->real_time_factor);
  const PlDynamicStats *st = &res->stats;
  cJSON_AddNumberToObject(root, "steps", (double)st->steps);
  cJSON_AddNumberToObject(root, "nonlinear_iterations", (double)st->nonlinear_iterations);
  cJSON_AddNumberToObject(root, "nonlinear_failures", (double)st->nonlinear_failures);
  cJSON_AddNumberToObject(root, "jacobian_evaluations", (double)st->jacobian_evaluations);
  cJSON_AddNumberToObject(root, "residual_evaluations", (double)st->residual_evaluations);
  cJSON_AddNumberToObject(root, "error_test_failures", (double)st->error_test_failures);
  cJSON_AddNumberToObject(root, "output_interval_s", dt);
  const PlRunExtrema *x = &res->extrema;
  AddExtreme(root, "max_top_tension", "_N", &x->max_top_tension, 0);
  AddExtreme(root, "min_top_tension", "_N", &x->min_top_tension, 0);
  AddExtreme(root, "max_effective_tension", "_N", &x->max_tension, 1);
  AddExtreme(root, "min_effective_tension", "_N", &x->min_tension, 1);
  AddExtreme(root, "max_bending_moment", "_Nm", &x->max_moment, 1);
  AddExtreme(root, "max_curvature", "_1pm", &x->max_curvature, 1);
  AddExtreme(root, "max_axial_strain", "", &x->max_axial_strain, 1);
  AddExtreme(root, "max_fibre_strain", "", &x->max_fibre_strain, 1);
  if (res->ida_flag) cJSON_AddStringToObject(root, "dynamic_failure", res->failure);
  else if (res->io_status) cJSON_AddStringToObject(root, "dynamic_failure", res->err.msg);
  else if (res->interrupted) cJSON_AddStringToObject(root, "dynamic_failure", "interrupted by a signal");
  if (opt->restart) cJSON_AddNumberToObject(root, "restarted_at_s", res->restarted_at_s);
  if (res->has_vessel) PlSummaryAddVessel(root, m, res);
  return root;
}

/* Every checkpoint (rank 0): restart.bin, envelopes.csv and summary.json, each written
 * atomically, so that a run killed at any moment leaves a consistent set that says how far
 * it got ("completed": false, "simulated_time_s"). Also called at the end. */

typedef struct {
  const PlProblem p;
  const PlStaticReport *srep;
  const PlStaticSummary *ssum;
  const PlDynamicRunOptions *opt;
  int nranks;
  double T, dt;
} SummaryContext;

static int Checkpoint(const SummaryContext *c, const Writer *w, RestartHeader *rh, const double *y,
                      const double *yp, const PlDynamicResult *res, PlError *err)
{
  const char *dir = c->p->model.output_dir;
  const PlDynamicStats *st = &res->stats;
  rh->steps = st->steps;
  rh->residual_evaluations = st->residual_evaluations;
  rh->nonlinear_iterations = st->nonlinear_iterations;
  rh->nonlinear_failures = st->nonlinear_failures;
  rh->jacobian_evaluations = st->jacobian_evaluations;
  rh->error_test_failures = st->error_test_failures;
  rh->ext = res->extrema;
  int io = WriteRestart(dir, rh, y, yp, w->env, c->opt->fingerprint, err);
  if (!io) io = WriteEnvelopes(w, dir, c->p->mesh.nnodes, err);
  if (!io) {
    cJSON *root = DynamicSummary(c->p, c->srep, c->ssum, c->opt, res, c->nranks, c->T, c->dt);
    io = PlSummaryWrite(dir, root, err);
    cJSON_Delete(root);
  }
  return io;
}

/* The counters of this process's IDA plus those of the runs before a restart. */
static PetscErrorCode Stats(PlDynamic d, const PlDynamicStats *base, PlDynamicStats *st)
{
  PetscFunctionBeginUser;
  PetscCall(PlDynamicGetStats(d, st));
  st->steps += base->steps;
  st->residual_evaluations += base->residual_evaluations;
  st->nonlinear_iterations += base->nonlinear_iterations;
  st->nonlinear_failures += base->nonlinear_failures;
  st->jacobian_evaluations += base->jacobian_evaluations;
  st->error_test_failures += base->error_test_failures;
  PetscFunctionReturn(0);
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
  ExtremaInit(&res->extrema);
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
  memcpy(rh.magic, kRestartMagic, 8);
  rh.nnodes = nn;
  rh.ndd = ndd;
  rh.nextra = (int32_t)(nstate - (PetscInt)nn * ndd);
  rh.kind = (int32_t)p->kind;
  rh.text_len = opt->fingerprint ? (int64_t)strlen(opt->fingerprint) : 0;
  PlDynamicStats base;
  memset(&base, 0, sizeof base);
  int io = 0;
  long k0 = 0;
  w.env = calloc((size_t)12 * nn, sizeof(double));
  PetscCheck(w.env, p->comm, PETSC_ERR_MEM, "out of memory for the envelopes");
  if (opt->restart) {
    /* continue an interrupted run from its last checkpoint (every rank reads the file) */
    RestartHeader in;
    io = ReadRestart(dir, nn, ndd, rh.nextra, rh.kind, opt->fingerprint, &in, yraw, ypraw, w.env, &res->err);
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &io, 1, MPI_INT, MPI_MAX, p->comm));
    if (!io) {
      PetscCall(PlDynamicSetRaw(d, in.t, yraw, ypraw));
      k0 = in.noutputs;
      res->extrema = in.ext;
      res->restarted_at_s = in.t;
      base.steps = in.steps;
      base.residual_evaluations = in.residual_evaluations;
      base.nonlinear_iterations = in.nonlinear_iterations;
      base.nonlinear_failures = in.nonlinear_failures;
      base.jacobian_evaluations = in.jacobian_evaluations;
      base.error_test_failures = in.error_test_failures;
    }
  }
  const int started = !io; /* else nothing of this run is written (a refused restart keeps its files) */
  if (!rank) {
    if (!io) io = PlMakeDirs(dir, &res->err);
    if (!io) io = OpenSeries(&w, dir, p, opt->restart ? res->restarted_at_s : -1.0, &res->err);
    w.stat = stat;
  }
  PetscCallMPI(MPI_Bcast(&io, 1, MPI_INT, 0, p->comm));
  const int progress = !rank && !opt->quiet && isatty(fileno(stdout));
  const double dt = s->output_interval, T = s->duration;
  const long nout = (long)ceil(T / dt - 1e-9);
  const SummaryContext sc = {p, srep, ssum, opt, size, T, dt};
  double t = opt->restart ? res->restarted_at_s : 0.0, last_checkpoint = -INFINITY;
  long k = k0;
  for (; !io && k <= nout; ++k) {
    const double tout = k == nout ? T : k * dt;
    if (k > 0) {
      PetscCall(PlDynamicAdvance(d, tout, &res->ida_flag, res->failure, sizeof res->failure));
      if (res->ida_flag == PL_DYN_INTERRUPTED) { /* between steps: the state at the last step */
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
    double top[5];
    PetscCall(PlDynamicTopLoad(d, top));
    if (!rank) {
      TopAngles(&N[nn - 1], &stat[nn - 1], &top[3], &top[4]);
      for (int j = 0; !io && j < w.n; ++j) io = WriteRow(&w, j, t, &N[w.node[j]], j == 1 ? top : NULL, &res->err);
      if (!io) io = WriteEnergyRow(&w, t, ek, es, ep, &res->err);
      if (!io && w.vessel) {
        PlVesselSeriesRow(w.f[w.n + 1], t, &vo);
        io = RowWritten(&w, w.n + 1, &res->err);
      }
      UpdateEnvelopes(&w, N, nn, k == 0 && !opt->restart);
      ExtremaUpdate(&res->extrema, p, t, E, ner, &N[nn - 1]);
      if (!io && opt->observer) io = opt->observer(opt->observer_ctx, t, N, nn, &res->err);
    }
    free(N);
    free(E);
    N = E = NULL;
    res->simulated_time_s = t;
    /* a checkpoint after the first output, then every output.checkpoint_interval s of wall time */
    int due = MPI_Wtime() - last_checkpoint >= m->checkpoint_interval && k < nout;
    PetscCallMPI(MPI_Bcast(&due, 1, MPI_INT, 0, p->comm));
    PetscCallMPI(MPI_Bcast(&io, 1, MPI_INT, 0, p->comm));
    if (due && !io) {
      PetscCall(PlDynamicGetRaw(d, &rh.t, yraw, ypraw));
      PetscCall(Stats(d, &base, &res->stats));
      res->wall_time_s = MPI_Wtime() - wall0;
      res->real_time_factor = res->wall_time_s > 0 ? t / res->wall_time_s : 0.0;
      rh.noutputs = (int32_t)(k + 1);
      if (!rank) io = Checkpoint(&sc, &w, &rh, yraw, ypraw, res, &res->err);
      PetscCallMPI(MPI_Bcast(&io, 1, MPI_INT, 0, p->comm));
      last_checkpoint = MPI_Wtime();
    }
    if (progress) {
      PlDynamicStats st;
      PetscCall(Stats(d, &base, &st));
      Progress(t, T, st.steps, MPI_Wtime() - wall0, k == nout);
    }
    if (opt->stop && *opt->stop) {
      res->interrupted = 1;
      ++k; /* output k is written */
      break;
    }
  }
  if (progress && (res->ida_flag || res->interrupted)) fputc('\n', stdout);
  PetscCall(Stats(d, &base, &res->stats));
  res->simulated_time_s = t;
  res->wall_time_s = MPI_Wtime() - wall0;
  res->real_time_factor = res->wall_time_s > 0 ? t / res->wall_time_s : 0.0;
  res->completed = !res->ida_flag && !res->interrupted && !io && t >= T * (1 - 1e-12);
  res->max_top_tension_N = res->extrema.max_top_tension.value;
  res->min_top_tension_N = res->extrema.min_top_tension.value;
  res->max_bending_moment_Nm = res->extrema.max_moment.value;
  /* The end: summary.json says how the run ended. With a state past the start (an output
   * written, or a restart's), also the envelopes and the final checkpoint: the state where
   * the run ended (an interrupted run: its last step); after an IDA failure restart.bin stays
   * at the last checkpoint, so that a restart does not begin from the failed state. */
  const int have_state = started && (k0 > 0 || k > 0);
  int final_io = 0;
  if (have_state && !res->ida_flag) PetscCall(PlDynamicGetRaw(d, &rh.t, yraw, ypraw));
  if (!rank) {
    for (int j = 0; j <= w.n + w.vessel; ++j)
      if (w.f[j] && fclose(w.f[j]) && !io) {
        snprintf(res->err.msg, sizeof res->err.msg, "%.900s: write failed: %s", w.path[j], strerror(errno));
        io = PL_EXIT_IO;
      }
    res->io_status = io;
    PlError *e = io ? &(PlError){{0}} : &res->err; /* the first failure's message stays */
    if (have_state && !res->ida_flag) {
      /* outputs 0 .. k-1 are in the files; the state is at rh.t >= their last time */
      rh.noutputs = (int32_t)k;
      final_io = Checkpoint(&sc, &w, &rh, yraw, ypraw, res, e);
    } else if (started) {
      if (have_state) final_io = WriteEnvelopes(&w, dir, nn, e);
      if (!final_io) {
        cJSON *root = DynamicSummary(p, srep, ssum, opt, res, size, T, dt);
        final_io = PlSummaryWrite(dir, root, e);
        cJSON_Delete(root);
      }
    }
    if (!io) io = final_io;
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
