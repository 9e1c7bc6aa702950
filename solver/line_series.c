/*
 * line_series.c - a line's results over a dynamic run: the time series of its ends and named
 * points, its envelopes along the arc length and its extrema. One line of a one-line run
 * (dynamic_run.c, in the output directory) or each line of a system of lines (system_run.c,
 * in OUTPUT/line_NAME/) writes the same files:
 *   timeseries_bottom.csv, timeseries_top.csv, timeseries_<point>.csv
 *       t_s,x_m,y_m,z_m,effective_tension_N,bending_moment_2_Nm,bending_moment_3_Nm,curvature_1pm
 *       (timeseries_top.csv also top_load_x_N, top_load_y_N, top_load_z_N, hang_off_angle_deg,
 *        flex_joint_angle_deg: kTopColumns)
 *       node stations: positions at the node, section values averaged from the adjacent
 *       element midpoints as in static.csv; a row per output time, flushed at once, so an
 *       interrupted run keeps every row written.
 *   touchdown.csv (a line with a seabed)
 *       t_s,touchdown_arc_length_m,touchdown_x_m,touchdown_y_m,layback_m: the touchdown point
 *       (PlTouchdown) and the layback, the horizontal distance from the top end to it (empty
 *       while the line does not touch down).
 *   envelopes.csv  per node: min/max displacement from the static shape in x, y, z, min/max
 *       bending moments about t2 and t3, min/max effective tension and its static value,
 *       over the output times (t = 0 included).
 * Every double with 17 significant digits.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "dynamic_impl.h"

static const char *kSeriesHeader =
  "t_s,x_m,y_m,z_m,effective_tension_N,bending_moment_2_Nm,bending_moment_3_Nm,curvature_1pm\n";

/* The top's extra columns: the line's load on its top (support and applied end force
 * together: PlDynamicTopLoad, PlSysDynEndForce; its magnitude is the top tension of a static
 * summary), the angle of the top tangent t1 from the horizontal (as hang_off_angle_deg of the
 * summary) and the angle between t1 and its static direction (the rotation a flex joint at
 * the hang-off takes). */
static const char *kTopColumns =
  ",top_load_x_N,top_load_y_N,top_load_z_N,hang_off_angle_deg,flex_joint_angle_deg\n";
static const char *kTouchdownHeader = "t_s,touchdown_arc_length_m,touchdown_x_m,touchdown_y_m,layback_m\n";

int PlSeriesRowWritten(FILE *f, const char *path, PlError *err)
{
  if (fflush(f) == 0 && !ferror(f)) return 0;
  snprintf(err->msg, sizeof err->msg, "%.900s: write failed: %s", path, strerror(errno));
  return PL_EXIT_IO;
}

FILE *PlTrimSeries(const char *path, double t_last)
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

int PlLineSeriesInit(PlLineSeries *w, const PlProblem p, const PlStation *stat)
{
  memset(w, 0, sizeof *w);
  w->nn = p->mesh.nnodes;
  w->stat = stat;
  w->p = p;
  const size_t nf = 2 + (size_t)p->model.noutput_points;
  w->env = calloc((size_t)12 * w->nn, sizeof(double));
  w->f = calloc(nf, sizeof *w->f);
  w->path = calloc(nf, sizeof *w->path);
  w->node = calloc(nf, sizeof *w->node);
  return w->env && w->f && w->path && w->node ? 0 : -1;
}

int PlLineSeriesOpen(PlLineSeries *w, const char *dir, const PlProblem p, double t_restart, PlError *err)
{
  const PlModel *m = &p->model;
  const int nn = p->mesh.nnodes;
  const char *names[2 + m->noutput_points];
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
    char *path = w->path[k];
    snprintf(path, sizeof w->path[k], "%s/timeseries_%s.csv", dir, names[k]);
    if (t_restart >= 0.0) {
      w->f[k] = PlTrimSeries(path, t_restart);
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
    else if (!bad) bad = fputs(kSeriesHeader, w->f[k]) < 0;
    if (bad || fflush(w->f[k])) {
      snprintf(err->msg, sizeof err->msg, "%.900s: cannot write: %s", path, strerror(errno));
      return PL_EXIT_IO;
    }
  }
  if (m->seabed == PL_SEABED_NONE) return 0;
  snprintf(w->td_path, sizeof w->td_path, "%s/touchdown.csv", dir);
  w->td = t_restart >= 0.0 ? PlTrimSeries(w->td_path, t_restart) : fopen(w->td_path, "w");
  if (!w->td || (t_restart < 0.0 && (fputs(kTouchdownHeader, w->td) < 0 || fflush(w->td)))) {
    snprintf(err->msg, sizeof err->msg, "%.900s: cannot %s: %s", w->td_path, t_restart >= 0.0 ? "continue" : "write",
             strerror(errno));
    return PL_EXIT_IO;
  }
  return 0;
}

int PlLineSeriesRow(PlLineSeries *w, double t, const PlStation *N, const double top_load[3], int first, PlError *err)
{
  double top[5] = {top_load[0], top_load[1], top_load[2], 0.0, 0.0};
  TopAngles(&N[w->nn - 1], &w->stat[w->nn - 1], &top[3], &top[4]);
  for (int j = 0; j < w->n; ++j) {
    const PlStation *s = &N[w->node[j]];
    fprintf(w->f[j], "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g", t, s->x[0], s->x[1], s->x[2], s->tension,
            s->moment[0], s->moment[1], s->curvature);
    if (j == 1) fprintf(w->f[j], ",%.17g,%.17g,%.17g,%.17g,%.17g", top[0], top[1], top[2], top[3], top[4]);
    fputc('\n', w->f[j]);
    const int io = PlSeriesRowWritten(w->f[j], w->path[j], err);
    if (io) return io;
  }
  if (w->td) {
    double xt[3];
    const double Std = PlTouchdown(w->p, N, w->nn, xt);
    if (isfinite(Std))
      fprintf(w->td, "%.17g,%.17g,%.17g,%.17g,%.17g\n", t, Std, xt[0], xt[1],
              hypot(N[w->nn - 1].x[0] - xt[0], N[w->nn - 1].x[1] - xt[1]));
    else
      fprintf(w->td, "%.17g,,,,\n", t);
    const int io = PlSeriesRowWritten(w->td, w->td_path, err);
    if (io) return io;
  }
  for (int i = 0; i < w->nn; ++i) {
    const double v[6] = {N[i].x[0] - w->stat[i].x[0], N[i].x[1] - w->stat[i].x[1], N[i].x[2] - w->stat[i].x[2],
                         N[i].moment[0], N[i].moment[1], N[i].tension};
    double *e = w->env + 12 * i;
    for (int k = 0; k < 6; ++k) {
      if (first || !(v[k] >= e[2 * k])) e[2 * k] = v[k]; /* a new node's NAN: its first value */
      if (first || !(v[k] <= e[2 * k + 1])) e[2 * k + 1] = v[k];
    }
  }
  return 0;
}

int PlLineSeriesEnvelopes(const PlLineSeries *w, const char *dir, PlError *err)
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
  for (int i = 0; i < w->nn; ++i) {
    const double *e = w->env + 12 * i;
    fprintf(f, "%.17g", w->stat[i].S);
    for (int k = 0; k < 12; ++k) fprintf(f, ",%.17g", e[k]);
    fprintf(f, ",%.17g\n", w->stat[i].tension);
  }
  return PlFileCommit(f, 0, tmp, path, err);
}

int PlLineSeriesClose(PlLineSeries *w, PlError *err)
{
  int io = 0;
  for (int j = 0; j < w->n; ++j)
    if (w->f[j] && fclose(w->f[j]) && !io) {
      snprintf(err->msg, sizeof err->msg, "%.900s: write failed: %s", w->path[j], strerror(errno));
      io = PL_EXIT_IO;
    }
  for (int j = 0; j < w->n; ++j) w->f[j] = NULL;
  if (w->td && fclose(w->td) && !io) {
    snprintf(err->msg, sizeof err->msg, "%.900s: write failed: %s", w->td_path, strerror(errno));
    io = PL_EXIT_IO;
  }
  w->td = NULL;
  return io;
}

int PlLineSeriesRenumber(PlLineSeries *w, int nn, int kept, int dropped, const PlStation *stat)
{
  double *env = malloc(sizeof(double) * 12 * (size_t)nn);
  if (!env) return -1;
  for (int i = 0; i < nn; ++i) {
    const int o = i == nn - 1 ? w->nn - 1 : i + dropped < kept ? i + dropped : -1;
    for (int k = 0; k < 12; ++k) env[12 * i + k] = o >= 0 ? w->env[12 * o + k] : NAN; /* NAN: from the next row */
  }
  free(w->env);
  w->env = env;
  for (int j = 2; j < w->n; ++j) /* an output point on a node the tensioner took in: the top's; on a
                                    retired one: the new bottom's */
    w->node[j] = w->node[j] >= kept ? nn - 1 : w->node[j] < dropped ? 0 : w->node[j] - dropped;
  w->node[1] = nn - 1;
  w->nn = nn;
  w->stat = stat;
  return 0;
}

void PlLineSeriesFree(PlLineSeries *w)
{
  free(w->env);
  free(w->f);
  free(w->path);
  free(w->node);
  w->env = NULL, w->f = NULL, w->path = NULL, w->node = NULL;
}

/* ---- extrema over the run ------------------------------------------------------------ */
void PlRunExtremaInit(PlRunExtrema *x)
{
  PlExtreme *all = (PlExtreme *)x;
  for (size_t k = 0; k < sizeof *x / sizeof *all; ++k) all[k] = (PlExtreme){NAN, NAN, NAN};
}

static void Raise(PlExtreme *e, double v, double S, double t, int larger)
{
  if (isnan(e->value) || (larger ? v > e->value : v < e->value)) *e = (PlExtreme){v, S, t};
}

void PlRunExtremaUpdate(PlRunExtrema *x, const PlProblem p, double t, const PlStation *E, int ne, const PlStation *top)
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

void PlRunExtremaToJson(void *obj, const PlRunExtrema *x)
{
  cJSON *root = obj;
  AddExtreme(root, "max_top_tension", "_N", &x->max_top_tension, 0);
  AddExtreme(root, "min_top_tension", "_N", &x->min_top_tension, 0);
  AddExtreme(root, "max_effective_tension", "_N", &x->max_tension, 1);
  AddExtreme(root, "min_effective_tension", "_N", &x->min_tension, 1);
  AddExtreme(root, "max_bending_moment", "_Nm", &x->max_moment, 1);
  AddExtreme(root, "max_curvature", "_1pm", &x->max_curvature, 1);
  AddExtreme(root, "max_axial_strain", "", &x->max_axial_strain, 1);
  AddExtreme(root, "max_fibre_strain", "", &x->max_fibre_strain, 1);
}
