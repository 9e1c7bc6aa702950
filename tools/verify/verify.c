/*
 * verify.c - the harness of "pipelay verify" and "pipelay compare" (a tool of the command line,
 * not in the library): checks of computed against reference data with tolerances (the CSV
 * files read by output/table.c, interpolated onto the reference's abscissae), the results
 * table, the case files (case.yaml) and the plots of a verification report.
 *
 * Formats (verification/README.md):
 *   reference data   CSV with named columns ('#' comment lines first): summary quantities
 *                    (name,value,unit), configurations along the arc length (S_m, x_m, ...),
 *                    envelopes (S_m, <q>_min_<unit>, <q>_max_<unit>), time series (t_s, ...)
 *   case.yaml        title, slow, runs (pipelay runs with --set overrides), checks
 *                    (computed source, reference source, tolerance), plots
 * A series check interpolates the computed series linearly onto the reference's abscissae
 * (arc length or time) and measures the difference there: largest absolute or relative
 * difference, RMS difference relative to the reference's range, or the relative error of
 * the maximum or the minimum.
 *
 * A source may also reduce a series to a number over the check's window (a measure: the
 * mean period between upward zero crossings of the series minus its mean, the largest
 * departure from the first value, the largest rise above any earlier value, the change,
 * the maximum, minimum or mean), or compare the same series of several runs with a
 * reference run (the RMS difference, each run interpolated onto the reference run's
 * abscissae): a number for one run, a sequence for several. The tolerance 'decreasing'
 * asks a sequence to fall: every value at most a given fraction of the one before; the
 * tolerance 'ratio_max' bounds a number by a fraction of another (|computed| <= value
 * |reference|), e.g. what is left of an offset in one run against its size in another.
 *
 * The static mesh-convergence measure is eq 5.109 of the Saefstroem thesis: the mean over
 * the nodes of a mesh of |(phi_i, Theta_i) - (phi_ref(S_i), Theta_ref(S_i))|, with the
 * rotation difference measured as the angle of R_ref^T R_i (the section axes t2, t3 of
 * static.csv give R); the reference mesh must have a node at every node of the others.
 *
 * case.yaml is parsed with the bounded YAML tree of models/ (models/yaml_tree.h: no
 * aliases, capped nesting and size, line and column of every node), so that its errors
 * read like those of a model file. Workload: a few files of up to 10^5 rows per check;
 * files are read again for every check (simple, and cheap next to the runs).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "verify.h"
#include "../../models/yaml_tree.h"

/* the names of PlVerifyMeasure in case.yaml, in the order of the enum */
static const char *const kMeasures[] = {"", "period", "drift", "max_rise", "change", "max", "min", "mean", NULL};

/* snprintf without the compiler's truncation warnings: every text here is cut on purpose
 * to its buffer (paths in messages, names). */
static int Fmt(char *buf, size_t len, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  const int n = vsnprintf(buf, len, fmt, ap);
  va_end(ap);
  return n;
}

/* ---- tolerances and checks ---------------------------------------------------------------- */
static const char *const kTolNames[] = {"abs", "rel", "rms_range", "max_rel", "min_rel", "decreasing", "ratio_max"};
enum { kNumTolKinds = (int)(sizeof kTolNames / sizeof kTolNames[0]) };

const char *PlToleranceKindName(PlTolKind k)
{
  return (int)k >= 0 && (int)k < kNumTolKinds ? kTolNames[k] : "?";
}

static int ToleranceKindFromName(const char *s, size_t n, PlTolKind *k)
{
  for (int i = 0; i < kNumTolKinds; ++i)
    if (strlen(kTolNames[i]) == n && !strncmp(s, kTolNames[i], n)) {
      *k = (PlTolKind)i;
      return 0;
    }
  return -1;
}

/* A finite number >= 0 filling the whole of s, with an optional '%' (then / 100). */
static int ParseTolValue(const char *s, double *v)
{
  char *end;
  errno = 0;
  double x = strtod(s, &end);
  if (end == s || errno) return -1;
  if (*end == '%') {
    x /= 100.0;
    ++end;
  }
  if (*end || !isfinite(x) || x < 0) return -1;
  *v = x;
  return 0;
}

int PlToleranceParse(const char *text, PlTolerance *t)
{
  const char *colon = strchr(text, ':');
  if (!colon) return -1;
  if (ToleranceKindFromName(text, (size_t)(colon - text), &t->kind) || t->kind == PL_TOL_DECREASING ||
      t->kind == PL_TOL_RATIO_MAX)
    return -1;
  return ParseTolValue(colon + 1, &t->value);
}

static void ResultInit(PlCheckResult *r)
{
  r->series = 0;
  r->reference = r->computed = r->error = r->at = NAN;
  r->at_name[0] = '\0';
  r->npoints = 0;
  r->pass = 0;
}

void PlCheckScalar(PlCheckResult *r)
{
  r->series = 0;
  r->at = NAN;
  if (r->tol.kind == PL_TOL_ABS) r->error = r->computed - r->reference;
  else if (r->tol.kind == PL_TOL_RATIO_MAX) r->error = fabs(r->computed) / fabs(r->reference);
  else r->error = (r->computed - r->reference) / fabs(r->reference);
  r->pass = !r->note[0] && isfinite(r->error) && fabs(r->error) <= r->tol.value;
}

int PlCheckSeries(const double *xr, const double *yr, int nr, const double *xc, const double *yc,
                  int nc, double lo, double hi, PlCheckResult *r)
{
  ResultInit(r);
  r->series = 1;
  double sum2 = 0, rmin = INFINITY, rmax = -INFINITY, amax = 0, dworst = -1;
  double cmin = INFINITY, cmax = -INFINITY, x_cmin = NAN, x_cmax = NAN;
  int m = 0, iworst = -1;
  double cworst = NAN;
  for (int i = 0; i < nr; ++i) {
    if ((isfinite(lo) && xr[i] < lo) || (isfinite(hi) && xr[i] > hi) || !isfinite(yr[i])) continue;
    const double c = PlInterpolate(xc, yc, nc, xr[i]);
    if (isnan(c)) continue;
    const double d = c - yr[i];
    ++m;
    sum2 += d * d;
    rmin = fmin(rmin, yr[i]);
    rmax = fmax(rmax, yr[i]);
    if (c < cmin) cmin = c, x_cmin = xr[i];
    if (c > cmax) cmax = c, x_cmax = xr[i];
    amax = fmax(amax, fabs(yr[i]));
    if (!(fabs(d) <= dworst)) dworst = fabs(d), iworst = i, cworst = c;
  }
  r->npoints = m;
  if (m < 2) {
    Fmt(r->note, sizeof r->note, "fewer than 2 reference points inside the computed range");
    r->pass = 0;
    return -1;
  }
  switch (r->tol.kind) {
  case PL_TOL_ABS:
  case PL_TOL_REL:
    r->reference = yr[iworst];
    r->computed = cworst;
    r->at = xr[iworst];
    /* a reference that is zero throughout: only an equal series passes (0/0 is no error) */
    r->error = r->tol.kind == PL_TOL_ABS ? cworst - yr[iworst]
               : amax > 0.0               ? (cworst - yr[iworst]) / amax
               : cworst == yr[iworst]      ? 0.0 : INFINITY;
    break;
  case PL_TOL_RMS_RANGE:
    r->reference = rmax - rmin;
    r->computed = sqrt(sum2 / m);
    if (r->reference > 0) r->error = r->computed / r->reference;
    else { /* a constant reference: only an equal series passes */
      r->error = r->computed == 0.0 ? 0.0 : INFINITY;
      if (r->computed != 0.0)
        Fmt(r->note, sizeof r->note, "the reference has zero range: only a series equal to it passes");
    }
    break;
  case PL_TOL_MAX_REL:
    r->reference = rmax;
    r->computed = cmax;
    r->at = x_cmax;
    r->error = (cmax - rmax) / fabs(rmax);
    break;
  case PL_TOL_MIN_REL:
    r->reference = rmin;
    r->computed = cmin;
    r->at = x_cmin;
    r->error = (cmin - rmin) / fabs(rmin);
    break;
  case PL_TOL_DECREASING:
  case PL_TOL_RATIO_MAX:
    Fmt(r->note, sizeof r->note, "'%s' is not a tolerance between two series", PlToleranceKindName(r->tol.kind));
    break;
  }
  r->pass = !r->note[0] && isfinite(r->error) && fabs(r->error) <= r->tol.value;
  return r->note[0] ? -1 : 0;
}

/* ---- measures of a series and the decreasing check ----------------------------------------- */

/* The measure called name, or PL_MEASURE_NONE. */
static PlVerifyMeasure MeasureFromName(const char *name)
{
  for (int k = 1; kMeasures[k]; ++k)
    if (!strcmp(kMeasures[k], name)) return (PlVerifyMeasure)k;
  return PL_MEASURE_NONE;
}

/* The measure m of the samples (x[i], y[i]) with lo <= x <= hi (NaN: open), in the
 * order of the file (x does not decrease):
 *   period    mean spacing of the upward zero crossings of y - mean(y) (linear interpolation
 *             between samples; (last - first)/(count - 1), at least two crossings)
 *   drift     max |y - y_first|              max_rise  max over i < j of y_j - y_i (>= 0)
 *   change    y_last - y_first               max, min, mean   of the samples
 * Returns 0, or -1 with note (fewer than two samples, fewer than two crossings, a value that
 * is not a number). */
static int SeriesMeasure(PlVerifyMeasure m, const double *x, const double *y, int n, double lo, double hi, double *v, char *note,
                         size_t len)
{
  int i0 = 0, i1 = n; /* [i0, i1): the samples inside the window */
  while (i0 < n && isfinite(lo) && x[i0] < lo) ++i0;
  while (i1 > i0 && isfinite(hi) && x[i1 - 1] > hi) --i1;
  *v = NAN;
  if (i1 - i0 < 2) {
    Fmt(note, len, "fewer than 2 samples in the window");
    return -1;
  }
  for (int i = i0; i < i1; ++i)
    if (!isfinite(y[i]) || !isfinite(x[i])) {
      Fmt(note, len, "sample %d of the window is not a number", i - i0 + 1);
      return -1;
    }
  switch (m) {
  case PL_MEASURE_PERIOD: {
    double mean = 0, first = NAN, last = NAN;
    int k = 0;
    for (int i = i0; i < i1; ++i) mean += y[i];
    mean /= (double)(i1 - i0);
    for (int i = i0 + 1; i < i1; ++i) {
      const double a = y[i - 1] - mean, b = y[i] - mean;
      if (!(a < 0 && b >= 0)) continue;
      const double tc = x[i - 1] + (x[i] - x[i - 1]) * (-a) / (b - a);
      if (!k) first = tc;
      last = tc;
      ++k;
    }
    if (k < 2) {
      Fmt(note, len, "%d upward zero crossing%s in the window, the period needs 2", k, k == 1 ? "" : "s");
      return -1;
    }
    *v = (last - first) / (k - 1);
    break;
  }
  case PL_MEASURE_DRIFT:
    *v = 0;
    for (int i = i0; i < i1; ++i) *v = fmax(*v, fabs(y[i] - y[i0]));
    break;
  case PL_MEASURE_MAX_RISE: {
    double low = y[i0];
    *v = 0;
    for (int i = i0 + 1; i < i1; ++i) {
      *v = fmax(*v, y[i] - low);
      low = fmin(low, y[i]);
    }
    break;
  }
  case PL_MEASURE_CHANGE:
    *v = y[i1 - 1] - y[i0];
    break;
  case PL_MEASURE_MAX:
  case PL_MEASURE_MIN:
    *v = y[i0];
    for (int i = i0 + 1; i < i1; ++i) *v = m == PL_MEASURE_MAX ? fmax(*v, y[i]) : fmin(*v, y[i]);
    break;
  case PL_MEASURE_MEAN: {
    double sum = 0;
    for (int i = i0; i < i1; ++i) sum += y[i];
    *v = sum / (double)(i1 - i0);
    break;
  }
  case PL_MEASURE_NONE:
    Fmt(note, len, "no measure");
    return -1;
  }
  return 0;
}

/* The tolerance 'decreasing' on the sequence (x[i], y[i]), y >= 0: the largest ratio
 * y[i]/y[i-1] (0/0 counts as 0) must be at most r->tol.value. Fills r as a series check:
 * computed = error = the largest ratio, at = the abscissa of its later value. */
static void CheckDecreasing(const double *x, const double *y, int n, PlCheckResult *r)
{
  r->series = 1;
  r->npoints = n;
  r->reference = NAN;
  if (n < 2) {
    Fmt(r->note, sizeof r->note, "'decreasing' needs a sequence of at least 2 values");
    return;
  }
  double worst = -INFINITY;
  for (int i = 0; i < n; ++i)
    if (!(y[i] >= 0) || !isfinite(y[i])) {
      Fmt(r->note, sizeof r->note, "'decreasing' needs values >= 0 (value %d is %g)", i + 1, y[i]);
      return;
    }
  for (int i = 1; i < n; ++i) {
    const double q = y[i] == 0 ? 0.0 : y[i - 1] > 0 ? y[i] / y[i - 1] : INFINITY;
    if (q > worst) worst = q, r->at = x[i];
  }
  r->computed = r->error = worst;
  r->pass = worst <= r->tol.value;
}

/* %.6g with the unit, or "-" for NaN */
static void Num(char *buf, size_t len, double v, const char *unit)
{
  if (isnan(v)) Fmt(buf, len, "-");
  else Fmt(buf, len, "%.6g%s%s", v, unit && unit[0] ? " " : "", unit ? unit : "");
}

static void Percent(char *buf, size_t len, double f)
{
  if (isnan(f)) Fmt(buf, len, "-");
  else Fmt(buf, len, "%+.3g%%", 100.0 * f);
}

void PlCheckFormat(const PlCheckResult *r, char *ref, char *comp, char *err, char *tol, size_t len)
{
  char a[64] = "";
  if (r->series && isfinite(r->at)) Fmt(a, sizeof a, " at %s = %.6g", r->at_name[0] ? r->at_name : "x", r->at);
  if (r->tol.kind == PL_TOL_DECREASING) {
    Fmt(ref, len, "each <= %.3g x the one before", r->tol.value);
    if (isnan(r->computed)) Fmt(comp, len, "-");
    else Fmt(comp, len, "largest ratio %.4g%s", r->computed, a);
    if (isnan(r->error)) Fmt(err, len, "-");
    else Fmt(err, len, "ratio %.4g", r->error);
    Fmt(tol, len, "decreasing, ratio <= %.3g", r->tol.value);
    return;
  }
  if (r->tol.kind == PL_TOL_RATIO_MAX) {
    Num(ref, len, r->reference, r->unit);
    Num(comp, len, r->computed, r->unit);
    if (isnan(r->error)) Fmt(err, len, "-");
    else Fmt(err, len, "|comp/ref| %.3g%%", 100.0 * r->error);
    Fmt(tol, len, "|comp| <= %.3g%% of |ref|", 100.0 * r->tol.value);
    return;
  }
  switch (r->series ? r->tol.kind : (r->tol.kind == PL_TOL_ABS ? PL_TOL_ABS : PL_TOL_REL)) {
  case PL_TOL_ABS:
    Num(ref, len, r->reference, r->unit);
    Num(comp, len, r->computed, r->unit);
    if (a[0]) Fmt(comp + strlen(comp), len - strlen(comp), "%s", a);
    if (isnan(r->error)) Fmt(err, len, "-");
    else Fmt(err, len, "%+.3g%s%s", r->error, r->unit[0] ? " " : "", r->unit);
    Fmt(tol, len, "abs %.3g%s%s%s", r->tol.value, r->unit[0] ? " " : "", r->unit, r->series ? " (max over points)" : "");
    break;
  case PL_TOL_REL:
    Num(ref, len, r->reference, r->unit);
    Num(comp, len, r->computed, r->unit);
    if (a[0]) Fmt(comp + strlen(comp), len - strlen(comp), "%s", a);
    Percent(err, len, r->error);
    Fmt(tol, len, "rel %.3g%%%s", 100.0 * r->tol.value, r->series ? " of max |ref|" : "");
    break;
  case PL_TOL_RMS_RANGE: {
    char v[64];
    Num(v, sizeof v, r->reference, r->unit);
    Fmt(ref, len, "range %s", v);
    Num(v, sizeof v, r->computed, r->unit);
    Fmt(comp, len, "RMS diff %s", v);
    if (isnan(r->error)) Fmt(err, len, "-");
    else Fmt(err, len, "%.3g%% of range", 100.0 * r->error);
    Fmt(tol, len, "RMS %.3g%% of range", 100.0 * r->tol.value);
    break;
  }
  case PL_TOL_MAX_REL:
  case PL_TOL_MIN_REL: {
    char v[64];
    const char *w = r->tol.kind == PL_TOL_MAX_REL ? "max" : "min";
    Num(v, sizeof v, r->reference, r->unit);
    Fmt(ref, len, "%s %s", w, v);
    Num(v, sizeof v, r->computed, r->unit);
    Fmt(comp, len, "%s %s%s", w, v, a);
    Percent(err, len, r->error);
    Fmt(tol, len, "%s rel %.3g%%", w, 100.0 * r->tol.value);
    break;
  }
  case PL_TOL_DECREASING:
  case PL_TOL_RATIO_MAX: /* above */
    break;
  }
}

static const char *Verdict(const PlCheckResult *r) { return r->pass ? "PASS" : r->known_miss ? "KNOWN MISS" : "FAIL"; }

void PlCheckPrintTable(FILE *f, const PlCheckResult *r, int n)
{
  enum { NC = 7 };
  static const char *const head[NC] = {"case", "quantity", "reference", "computed", "error", "tolerance", "result"};
  int w[NC];
  for (int k = 0; k < NC; ++k) w[k] = (int)strlen(head[k]);
  char cell[4][160];
  for (int i = 0; i < n; ++i) {
    PlCheckFormat(&r[i], cell[0], cell[1], cell[2], cell[3], sizeof cell[0]);
    const char *c[NC] = {r[i].case_name, r[i].quantity, cell[0], cell[1], cell[2], cell[3], Verdict(&r[i])};
    for (int k = 0; k < NC; ++k)
      if ((int)strlen(c[k]) > w[k]) w[k] = (int)strlen(c[k]);
  }
  for (int k = 0; k < NC; ++k) fprintf(f, "%-*s%s", w[k], head[k], k + 1 < NC ? "  " : "\n");
  for (int k = 0; k < NC; ++k) {
    for (int j = 0; j < w[k]; ++j) fputc('-', f);
    fputs(k + 1 < NC ? "  " : "\n", f);
  }
  int fails = 0, known = 0;
  for (int i = 0; i < n; ++i) {
    PlCheckFormat(&r[i], cell[0], cell[1], cell[2], cell[3], sizeof cell[0]);
    const char *c[NC] = {r[i].case_name, r[i].quantity, cell[0], cell[1], cell[2], cell[3], Verdict(&r[i])};
    for (int k = 0; k < NC; ++k) fprintf(f, "%-*s%s", k + 1 < NC ? w[k] : 0, c[k], k + 1 < NC ? "  " : "\n");
    if (r[i].note[0]) fprintf(f, "    (%s)\n", r[i].note);
    fails += !r[i].pass && !r[i].known_miss;
    known += r[i].known_miss;
  }
  fprintf(f, "%d of %d checks passed", n - fails - known, n);
  if (known) fprintf(f, ", %d known miss%s (listed with their evidence in the case)", known, known == 1 ? "" : "es");
  fputs(fails ? "\n" : (known ? "; no failure\n" : ": all pass\n"), f);
}

/* Markdown cell text: '|' and newlines would break the table */
static void MdCell(FILE *f, const char *s)
{
  for (; *s; ++s) {
    if (*s == '|') fputs("\\|", f);
    else if (*s == '\n') fputc(' ', f);
    else fputc(*s, f);
  }
}

void PlCheckPrintMarkdown(FILE *f, const PlCheckResult *r, int n, int header)
{
  if (header)
    fputs("| case | quantity | reference | computed | error | tolerance | result |\n"
          "|---|---|---|---|---|---|---|\n", f);
  char cell[4][160];
  for (int i = 0; i < n; ++i) {
    PlCheckFormat(&r[i], cell[0], cell[1], cell[2], cell[3], sizeof cell[0]);
    const char *c[7] = {r[i].case_name, r[i].quantity, cell[0], cell[1], cell[2], cell[3],
                        r[i].pass ? "pass" : r[i].known_miss ? "known miss" : "**FAIL**"};
    for (int k = 0; k < 7; ++k) {
      fputs("| ", f);
      MdCell(f, c[k]);
      if (k == 6 && r[i].note[0]) {
        fputs(" (", f);
        MdCell(f, r[i].note);
        fputs(")", f);
      }
      fputc(' ', f);
    }
    fputs("|\n", f);
  }
}

/* CSV field: quoted when it holds a comma or a quote */
static void CsvField(FILE *f, const char *s)
{
  if (!strpbrk(s, ",\"\n")) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; ++s) {
    if (*s == '"') fputc('"', f);
    fputc(*s == '\n' ? ' ' : *s, f);
  }
  fputc('"', f);
}

int PlCheckWriteCsv(const char *path, const PlCheckResult *r, int n, PlError *err)
{
  FILE *f = fopen(path, "w");
  if (!f) {
    Fmt(err->msg, sizeof err->msg, "%.900s: cannot write: %s", path, strerror(errno));
    return PL_EXIT_IO;
  }
  fputs("case,quantity,unit,series,reference,computed,at,error,tolerance_type,tolerance,pass,note\n", f);
  for (int i = 0; i < n; ++i) {
    CsvField(f, r[i].case_name);
    fputc(',', f);
    CsvField(f, r[i].quantity);
    fputc(',', f);
    CsvField(f, r[i].unit);
    fprintf(f, ",%d,%.17g,%.17g,%.17g,%.17g,%s,%.17g,%d,", r[i].series, r[i].reference, r[i].computed, r[i].at,
            r[i].error, PlToleranceKindName(r[i].tol.kind), r[i].tol.value, r[i].pass);
    CsvField(f, r[i].note);
    fputc('\n', f);
  }
  int bad = ferror(f);
  if (fclose(f)) bad = 1;
  if (bad) {
    Fmt(err->msg, sizeof err->msg, "%.900s: write failed", path);
    return PL_EXIT_IO;
  }
  return 0;
}

/* ---- case.yaml --------------------------------------------------------------------------- */

typedef struct {
  const char *file;  /* for messages */
  PlError *err;
  PlVerifyCase *c;
} Loader;

static int Fail(Loader *L, const PlYNode *n, const char *path, const char *fmt, ...)
{
  char what[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  Fmt(L->err->msg, sizeof L->err->msg, "%.300s:%d:%d: %s: %s", L->file, n ? n->line : 1, n ? n->col : 1,
           path, what);
  return PL_EXIT_BAD_INPUT;
}

/* Every key of map n is in the NULL-terminated list. */
static int KnownKeys(Loader *L, const PlYNode *n, const char *path, const char *const *keys)
{
  if (n->kind != PL_YNODE_MAP) return Fail(L, n, path, "expected a mapping");
  for (size_t i = 0; i < n->npairs; ++i) {
    const PlYNode *k = n->pairs[i].key;
    int ok = 0;
    for (const char *const *s = keys; *s && !ok; ++s) ok = !strcmp(k->text, *s);
    if (!ok) {
      char list[400] = "";
      for (const char *const *s = keys; *s; ++s)
        Fmt(list + strlen(list), sizeof list - strlen(list), "%s%s", s == keys ? "" : ", ", *s);
      return Fail(L, k, path, "unknown key '%s' (expected one of: %s)", k->text, list);
    }
    for (size_t j = 0; j < i; ++j)
      if (!strcmp(n->pairs[j].key->text, k->text)) return Fail(L, k, path, "duplicate key '%s'", k->text);
  }
  return 0;
}

static const PlYNode *Get(const PlYNode *map, const char *key)
{
  const PlYPair *p = PlYMapFind(map, key);
  return p ? p->value : NULL;
}

static int GetText(Loader *L, const PlYNode *n, const char *path, char *out, size_t len)
{
  if (n->kind != PL_YNODE_SCALAR || PlYIsNull(n)) return Fail(L, n, path, "expected a string");
  if (n->len >= len || strlen(n->text) != n->len) return Fail(L, n, path, "too long (at most %zu bytes) or not text", len - 1);
  for (const char *c = n->text; *c; ++c)
    if ((unsigned char)*c < 32) return Fail(L, n, path, "control characters are not allowed");
  Fmt(out, len, "%s", n->text);
  return 0;
}

static int GetNumber(Loader *L, const PlYNode *n, const char *path, double *v)
{
  if (n->kind != PL_YNODE_SCALAR || !n->plain || !n->len) return Fail(L, n, path, "expected a number");
  char *end;
  errno = 0;
  const double x = strtod(n->text, &end);
  if (end == n->text || *end || !isfinite(x) || isspace((unsigned char)n->text[0]))
    return Fail(L, n, path, "expected a finite number, found '%.60s'", n->text);
  *v = x;
  return 0;
}

static int GetBool(Loader *L, const PlYNode *n, const char *path, int *v)
{
  if (n->kind == PL_YNODE_SCALAR && n->plain && (!strcmp(n->text, "true") || !strcmp(n->text, "false"))) {
    *v = n->text[0] == 't';
    return 0;
  }
  return Fail(L, n, path, "expected true or false");
}

static int ValidId(const char *s)
{
  if (!s[0] || strlen(s) >= PL_VERIFY_NAME_MAX) return 0;
  for (; *s; ++s)
    if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-') return 0;
  return 1;
}

static int RunIndex(Loader *L, const PlYNode *n, const char *path, int *idx)
{
  char id[PL_VERIFY_NAME_MAX];
  int rc = GetText(L, n, path, id, sizeof id);
  if (rc) return rc;
  for (int k = 0; k < L->c->nruns; ++k)
    if (!strcmp(L->c->runs[k].id, id)) {
      *idx = k;
      return 0;
    }
  return Fail(L, n, path, "no run with id '%s' in runs", id);
}

/* A list of two column names (norm_of). */
static int GetPair(Loader *L, const PlYNode *n, const char *path, char out[2][PL_VERIFY_TEXT_MAX])
{
  if (n->kind != PL_YNODE_SEQ || n->nitems != 2) return Fail(L, n, path, "expected a list of two column names");
  for (int k = 0; k < 2; ++k) {
    const int rc = GetText(L, n->items[k], path, out[k], PL_VERIFY_TEXT_MAX);
    if (rc) return rc;
  }
  return 0;
}

static int LoadSource(Loader *L, const PlYNode *n, const char *path, PlVerifySource *s)
{
  static const char *const keys[] = {"value", "run", "summary", "file", "name", "column", "norm_of", "x",
                                     "at", "scale", "convergence", "measure", "difference_rms", NULL};
  int rc = KnownKeys(L, n, path, keys);
  if (rc) return rc;
  memset(s, 0, sizeof *s);
  s->run = -1;
  s->scale = 1.0;
  char p[300];
  const PlYNode *v;
#define SUB(key) (Fmt(p, sizeof p, "%s.%s", path, key), p)
  if ((v = Get(n, "scale")) && (rc = GetNumber(L, v, SUB("scale"), &s->scale))) return rc;
  if ((v = Get(n, "run")) && (rc = RunIndex(L, v, SUB("run"), &s->run))) return rc;
  if ((v = Get(n, "value"))) {
    s->kind = PL_VSRC_VALUE;
    if ((rc = GetNumber(L, v, SUB("value"), &s->value))) return rc;
    if (n->npairs != 1 + (Get(n, "scale") != NULL)) return Fail(L, n, path, "'value' takes no other key than 'scale'");
    return 0;
  }
  if ((v = Get(n, "convergence"))) {
    static const char *const ck[] = {"runs", "reference", "length", NULL};
    s->kind = PL_VSRC_CONVERGENCE;
    if (n->npairs != 1) return Fail(L, n, path, "'convergence' takes no other key");
    if ((rc = KnownKeys(L, v, SUB("convergence"), ck))) return rc;
    const PlYNode *runs = Get(v, "runs"), *ref = Get(v, "reference"), *len = Get(v, "length");
    if (!runs || !ref || !len) return Fail(L, v, SUB("convergence"), "needs runs, reference and length");
    if (runs->kind != PL_YNODE_SEQ || runs->nitems < 2 || runs->nitems > PL_VERIFY_MAX_RUNS)
      return Fail(L, runs, SUB("convergence.runs"), "expected a list of 2 to %d run ids", PL_VERIFY_MAX_RUNS);
    for (size_t k = 0; k < runs->nitems; ++k)
      if ((rc = RunIndex(L, runs->items[k], SUB("convergence.runs"), &s->conv_runs[k]))) return rc;
    s->nconv = (int)runs->nitems;
    if ((rc = RunIndex(L, ref, SUB("convergence.reference"), &s->conv_reference))) return rc;
    if ((rc = GetNumber(L, len, SUB("convergence.length"), &s->conv_length))) return rc;
    if (!(s->conv_length > 0)) return Fail(L, len, SUB("convergence.length"), "must be > 0");
    return 0;
  }
  if ((v = Get(n, "summary"))) {
    s->kind = PL_VSRC_SUMMARY;
    if (s->run < 0) return Fail(L, n, path, "'summary' needs the 'run' it is taken from");
    if ((rc = GetText(L, v, SUB("summary"), s->key, sizeof s->key))) return rc;
    for (const char *const *k = (const char *const[]){"file", "name", "column", "norm_of", "x", "at", "measure",
                                                      "difference_rms", NULL};
         *k; ++k)
      if (Get(n, *k)) return Fail(L, n, path, "'summary' and '%s' do not go together", *k);
    return 0;
  }
  if (!(v = Get(n, "file"))) return Fail(L, n, path, "expected one of value, summary (with run), file, convergence");
  if ((rc = GetText(L, v, SUB("file"), s->file, sizeof s->file))) return rc;
  if ((v = Get(n, "name"))) {
    s->kind = PL_VSRC_NAMED;
    if ((rc = GetText(L, v, SUB("name"), s->key, sizeof s->key))) return rc;
    for (const char *const *k = (const char *const[]){"column", "norm_of", "x", "at", "measure", "difference_rms", NULL};
         *k; ++k)
      if (Get(n, *k)) return Fail(L, n, path, "'name' and '%s' do not go together", *k);
    return 0;
  }
  s->kind = PL_VSRC_COLUMN;
  const PlYNode *col = Get(n, "column"), *nrm = Get(n, "norm_of"), *meas = Get(n, "measure"),
                *diff = Get(n, "difference_rms");
  if (!col == !nrm) return Fail(L, n, path, "give exactly one of 'column' and 'norm_of' (or 'name')");
  if (col && (rc = GetText(L, col, SUB("column"), s->column, sizeof s->column))) return rc;
  if (nrm && (rc = GetPair(L, nrm, SUB("norm_of"), s->norm_of))) return rc;
  if ((v = Get(n, "x")) && (rc = GetText(L, v, SUB("x"), s->x, sizeof s->x))) return rc;
  if ((v = Get(n, "at"))) {
    s->has_at = 1;
    if ((rc = GetNumber(L, v, SUB("at"), &s->at))) return rc;
  }
  if (meas) {
    char name[32];
    if (s->has_at || diff) return Fail(L, n, path, "'measure' and '%s' do not go together", diff ? "difference_rms" : "at");
    if ((rc = GetText(L, meas, SUB("measure"), name, sizeof name))) return rc;
    if ((s->measure = MeasureFromName(name)) == PL_MEASURE_NONE)
      return Fail(L, meas, p, "unknown measure '%s' (expected period, drift, max_rise, change, max, min or mean)", name);
  }
  if (diff) {
    static const char *const dk[] = {"runs", "reference", "abscissa", NULL};
    if (s->run >= 0 || s->has_at || nrm)
      return Fail(L, n, path, "'difference_rms' names its runs itself and takes 'column', not '%s'",
                  s->run >= 0 ? "run" : s->has_at ? "at" : "norm_of");
    if ((rc = KnownKeys(L, diff, SUB("difference_rms"), dk))) return rc;
    const PlYNode *runs = Get(diff, "runs"), *ref = Get(diff, "reference"), *abscissa = Get(diff, "abscissa");
    if (!runs || !ref) return Fail(L, diff, SUB("difference_rms"), "needs runs and reference");
    if (runs->kind != PL_YNODE_SEQ || runs->nitems < 1 || runs->nitems > PL_VERIFY_MAX_RUNS)
      return Fail(L, runs, SUB("difference_rms.runs"), "expected a list of 1 to %d run ids", PL_VERIFY_MAX_RUNS);
    for (size_t k = 0; k < runs->nitems; ++k)
      if ((rc = RunIndex(L, runs->items[k], SUB("difference_rms.runs"), &s->diff_runs[k]))) return rc;
    s->ndiff = (int)runs->nitems;
    if ((rc = RunIndex(L, ref, SUB("difference_rms.reference"), &s->diff_reference))) return rc;
    if (abscissa &&
        (rc = GetText(L, abscissa, SUB("difference_rms.abscissa"), s->diff_abscissa, sizeof s->diff_abscissa)))
      return rc;
  }
  return 0;
#undef SUB
}

/* A column source that a measure or difference_rms derives from the series. */
static int Derived(const PlVerifySource *s)
{
  return s->kind == PL_VSRC_COLUMN && (s->measure != PL_MEASURE_NONE || s->ndiff > 0);
}

/* A source that gives a series (a column, or the sequence of difference_rms over several
 * runs), not a number. */
static int SourceIsSeries(const PlVerifySource *s)
{
  if (s->kind != PL_VSRC_COLUMN || s->has_at || s->measure != PL_MEASURE_NONE) return 0;
  return s->ndiff != 1;
}

static int LoadRun(Loader *L, const PlYNode *n, const char *path, PlVerifyRun *r)
{
  static const char *const keys[] = {"id", "model", "set", NULL};
  int rc = KnownKeys(L, n, path, keys);
  if (rc) return rc;
  const PlYNode *id = Get(n, "id"), *model = Get(n, "model"), *set = Get(n, "set");
  char p[300];
  if (!id || !model) return Fail(L, n, path, "a run needs 'id' and 'model'");
  Fmt(p, sizeof p, "%s.id", path);
  if ((rc = GetText(L, id, p, r->id, sizeof r->id))) return rc;
  if (!ValidId(r->id)) return Fail(L, id, p, "use 1 to %d characters of A-Z a-z 0-9 _ -", PL_VERIFY_NAME_MAX - 1);
  Fmt(p, sizeof p, "%s.model", path);
  if ((rc = GetText(L, model, p, r->model, sizeof r->model))) return rc;
  r->nsets = 0;
  if (set) {
    Fmt(p, sizeof p, "%s.set", path);
    if (set->kind != PL_YNODE_SEQ || set->nitems > PL_VERIFY_MAX_SETS)
      return Fail(L, set, p, "expected a list of at most %d overrides key.path=value", PL_VERIFY_MAX_SETS);
    for (size_t k = 0; k < set->nitems; ++k) {
      if ((rc = GetText(L, set->items[k], p, r->sets[k], sizeof r->sets[k]))) return rc;
      if (!strchr(r->sets[k], '=')) return Fail(L, set->items[k], p, "an override is key.path=value");
    }
    r->nsets = (int)set->nitems;
  }
  return 0;
}

static int LoadCheck(Loader *L, const PlYNode *n, const char *path, PlVerifyCheck *k)
{
  static const char *const keys[] = {"quantity", "unit", "computed", "reference", "tolerance", "window",
                                     "known_miss", NULL};
  int rc = KnownKeys(L, n, path, keys);
  if (rc) return rc;
  char p[300];
  const PlYNode *q = Get(n, "quantity"), *u = Get(n, "unit"), *c = Get(n, "computed"), *r = Get(n, "reference"),
                *t = Get(n, "tolerance"), *w = Get(n, "window");
  if (!q || !c || !t) return Fail(L, n, path, "a check needs quantity, computed, reference and tolerance");
  Fmt(p, sizeof p, "%s.quantity", path);
  if ((rc = GetText(L, q, p, k->quantity, sizeof k->quantity))) return rc;
  k->unit[0] = '\0';
  Fmt(p, sizeof p, "%s.unit", path);
  if (u && (rc = GetText(L, u, p, k->unit, sizeof k->unit))) return rc;
  k->known_miss[0] = '\0';
  const PlYNode *km = Get(n, "known_miss");
  Fmt(p, sizeof p, "%s.known_miss", path);
  if (km && (rc = GetText(L, km, p, k->known_miss, sizeof k->known_miss))) return rc;
  Fmt(p, sizeof p, "%s.computed", path);
  if ((rc = LoadSource(L, c, p, &k->computed))) return rc;
  Fmt(p, sizeof p, "%s.tolerance", path);
  static const char *const tk[] = {"type", "value", NULL};
  if ((rc = KnownKeys(L, t, p, tk))) return rc;
  const PlYNode *tt = Get(t, "type"), *tv = Get(t, "value");
  if (!tt || !tv)
    return Fail(L, t, p, "needs type (abs, rel, rms_range, max_rel, min_rel, decreasing, ratio_max) and value");
  char name[32];
  if ((rc = GetText(L, tt, p, name, sizeof name))) return rc;
  if (ToleranceKindFromName(name, strlen(name), &k->tol.kind))
    return Fail(L, tt, p, "unknown type '%s' (expected abs, rel, rms_range, max_rel, min_rel, decreasing or ratio_max)",
                name);
  if ((rc = GetNumber(L, tv, p, &k->tol.value))) return rc;
  if (!(k->tol.value >= 0)) return Fail(L, tv, p, "must be >= 0");
  const int series = SourceIsSeries(&k->computed);
  char tp[300];
  Fmt(tp, sizeof tp, "%s", p);
  Fmt(p, sizeof p, "%s.reference", path);
  if (k->tol.kind == PL_TOL_DECREASING) { /* a property of the computed sequence alone */
    if (r) return Fail(L, r, p, "a 'decreasing' check has no reference");
    if (!series) return Fail(L, tt, tp, "'decreasing' is for a series or a sequence (difference_rms over several runs)");
    memset(&k->reference, 0, sizeof k->reference);
    k->reference.run = -1;
  } else {
    if (!r) return Fail(L, n, path, "a check needs quantity, computed, reference and tolerance");
    if ((rc = LoadSource(L, r, p, &k->reference))) return rc;
    if (k->reference.kind == PL_VSRC_CONVERGENCE) return Fail(L, r, p, "a convergence order is computed, not a reference");
    if (series != SourceIsSeries(&k->reference))
      return Fail(L, n, path, "computed and reference must both be series or both be numbers");
    if (!series && k->tol.kind != PL_TOL_ABS && k->tol.kind != PL_TOL_REL && k->tol.kind != PL_TOL_RATIO_MAX)
      return Fail(L, tt, tp, "'%s' is for series; a number takes abs, rel or ratio_max", name);
    if (series && k->tol.kind == PL_TOL_RATIO_MAX)
      return Fail(L, tt, tp, "'ratio_max' is for two numbers; series take abs, rel, rms_range, max_rel or min_rel");
  }
  k->window[0] = k->window[1] = NAN;
  if (w) {
    Fmt(p, sizeof p, "%s.window", path);
    if (!series && !Derived(&k->computed) && !Derived(&k->reference))
      return Fail(L, w, p, "only a series check, or one with a measure or difference_rms, has a window");
    if (w->kind != PL_YNODE_SEQ || w->nitems != 2) return Fail(L, w, p, "expected [from, to]");
    for (int j = 0; j < 2; ++j)
      if ((rc = GetNumber(L, w->items[j], p, &k->window[j]))) return rc;
  }
  return 0;
}

static int LoadSeries(Loader *L, const PlYNode *n, const char *path, PlVerifySeries *s)
{
  static const char *const keys[] = {"run", "file", "derived", "x", "y", "norm_of", "xscale", "yscale", "runs",
                                     "at", "summary", "title", "style", "color", "every", NULL};
  int rc = KnownKeys(L, n, path, keys);
  if (rc) return rc;
  memset(s, 0, sizeof *s);
  s->run = -1;
  s->xscale = s->yscale = 1.0;
  Fmt(s->style, sizeof s->style, "lines");
  char p[300];
  const PlYNode *v;
#define SUB(key) (Fmt(p, sizeof p, "%s.%s", path, key), p)
  if ((v = Get(n, "title")) && (rc = GetText(L, v, SUB("title"), s->title, sizeof s->title))) return rc;
  if ((v = Get(n, "style"))) {
    if ((rc = GetText(L, v, SUB("style"), s->style, sizeof s->style))) return rc;
    if (strcmp(s->style, "lines") && strcmp(s->style, "points") && strcmp(s->style, "linespoints"))
      return Fail(L, v, p, "expected lines, points or linespoints");
  }
  if ((v = Get(n, "color"))) {
    if ((rc = GetText(L, v, SUB("color"), s->color, sizeof s->color))) return rc;
    int ok = strlen(s->color) == 7 && s->color[0] == '#';
    for (int k = 1; ok && k < 7; ++k) ok = isxdigit((unsigned char)s->color[k]);
    if (!ok) return Fail(L, v, p, "expected a colour #rrggbb");
  }
  if ((v = Get(n, "every"))) {
    double e;
    if ((rc = GetNumber(L, v, SUB("every"), &e))) return rc;
    if (!(e >= 1 && e <= 1e6 && e == floor(e))) return Fail(L, v, p, "expected an integer >= 1");
    s->every = (int)e;
  }
  if ((v = Get(n, "xscale")) && (rc = GetNumber(L, v, SUB("xscale"), &s->xscale))) return rc;
  if ((v = Get(n, "yscale")) && (rc = GetNumber(L, v, SUB("yscale"), &s->yscale))) return rc;
  if ((v = Get(n, "runs"))) {
    const PlYNode *at = Get(n, "at"), *key = Get(n, "summary");
    if (!at || !key) return Fail(L, n, path, "'runs' needs 'at' (the abscissa of each run) and 'summary'");
    if (v->kind != PL_YNODE_SEQ || v->nitems < 1 || v->nitems > PL_VERIFY_MAX_RUNS)
      return Fail(L, v, SUB("runs"), "expected a list of run ids");
    if (at->kind != PL_YNODE_SEQ || at->nitems != v->nitems)
      return Fail(L, at, SUB("at"), "expected a list of numbers as long as runs");
    for (size_t k = 0; k < v->nitems; ++k) {
      if ((rc = RunIndex(L, v->items[k], SUB("runs"), &s->runs[k]))) return rc;
      if ((rc = GetNumber(L, at->items[k], SUB("at"), &s->at[k]))) return rc;
    }
    s->nruns = (int)v->nitems;
    return GetText(L, key, SUB("summary"), s->key, sizeof s->key);
  }
  if ((v = Get(n, "run")) && (rc = RunIndex(L, v, SUB("run"), &s->run))) return rc;
  if ((v = Get(n, "derived")) && (rc = GetBool(L, v, SUB("derived"), &s->derived))) return rc;
  if (!(v = Get(n, "file"))) return Fail(L, n, path, "a series needs 'file' (or 'runs', 'at' and 'summary')");
  if ((rc = GetText(L, v, SUB("file"), s->file, sizeof s->file))) return rc;
  if (!(v = Get(n, "x"))) return Fail(L, n, path, "a series needs 'x'");
  if ((rc = GetText(L, v, SUB("x"), s->x, sizeof s->x))) return rc;
  const PlYNode *y = Get(n, "y"), *nrm = Get(n, "norm_of");
  if (!y == !nrm) return Fail(L, n, path, "give exactly one of 'y' and 'norm_of'");
  if (y && (rc = GetText(L, y, SUB("y"), s->y, sizeof s->y))) return rc;
  if (nrm && (rc = GetPair(L, nrm, SUB("norm_of"), s->norm_of))) return rc;
  return 0;
#undef SUB
}

static int LoadPlot(Loader *L, const PlYNode *n, const char *path, PlVerifyPlot *pl)
{
  static const char *const keys[] = {"name", "title", "xlabel", "ylabel", "logscale", "xrange", "series", NULL};
  int rc = KnownKeys(L, n, path, keys);
  if (rc) return rc;
  char p[300];
  const PlYNode *v;
  memset(pl, 0, sizeof *pl);
#define SUB(key) (Fmt(p, sizeof p, "%s.%s", path, key), p)
  if (!(v = Get(n, "name"))) return Fail(L, n, path, "a plot needs 'name'");
  if ((rc = GetText(L, v, SUB("name"), pl->name, sizeof pl->name))) return rc;
  if (!ValidId(pl->name)) return Fail(L, v, p, "use 1 to %d characters of A-Z a-z 0-9 _ -", PL_VERIFY_NAME_MAX - 1);
  if ((v = Get(n, "title")) && (rc = GetText(L, v, SUB("title"), pl->title, sizeof pl->title))) return rc;
  if ((v = Get(n, "xlabel")) && (rc = GetText(L, v, SUB("xlabel"), pl->xlabel, sizeof pl->xlabel))) return rc;
  if ((v = Get(n, "ylabel")) && (rc = GetText(L, v, SUB("ylabel"), pl->ylabel, sizeof pl->ylabel))) return rc;
  pl->xrange[0] = pl->xrange[1] = NAN;
  if ((v = Get(n, "xrange"))) {
    if (v->kind != PL_YNODE_SEQ || v->nitems != 2) return Fail(L, v, SUB("xrange"), "expected [from, to]");
    for (int k = 0; k < 2; ++k)
      if ((rc = GetNumber(L, v->items[k], SUB("xrange"), &pl->xrange[k]))) return rc;
    if (!(pl->xrange[0] < pl->xrange[1])) return Fail(L, v, p, "expected from < to");
  }
  if ((v = Get(n, "logscale"))) {
    if ((rc = GetText(L, v, SUB("logscale"), pl->logscale, sizeof pl->logscale))) return rc;
    if (strcmp(pl->logscale, "x") && strcmp(pl->logscale, "y") && strcmp(pl->logscale, "xy"))
      return Fail(L, v, p, "expected x, y or xy");
  }
  if (!(v = Get(n, "series")) || v->kind != PL_YNODE_SEQ || v->nitems < 1 || v->nitems > PL_VERIFY_MAX_SERIES)
    return Fail(L, v ? v : n, SUB("series"), "expected a list of 1 to %d curves", PL_VERIFY_MAX_SERIES);
  for (size_t k = 0; k < v->nitems; ++k) {
    Fmt(p, sizeof p, "%s.series[%zu]", path, k);
    if ((rc = LoadSeries(L, v->items[k], p, &pl->series[k]))) return rc;
  }
  pl->nseries = (int)v->nitems;
  return 0;
#undef SUB
}

/* The comment block at the top of the file, without the '#' and one blank after it. */
static void LeadingComment(const char *text, char *out, size_t len)
{
  size_t n = 0;
  out[0] = '\0';
  const char *p = text;
  while (*p) {
    const char *q = p;
    while (*q == ' ' || *q == '\t') ++q;
    if (*q != '#') break;
    ++q;
    if (*q == ' ') ++q;
    const char *eol = strchr(q, '\n');
    const size_t k = eol ? (size_t)(eol - q) : strlen(q);
    if (n + k + 2 < len) {
      memcpy(out + n, q, k);
      n += k;
      out[n++] = '\n';
      out[n] = '\0';
    }
    if (!eol) break;
    p = eol + 1;
  }
}

int PlVerifyCaseLoad(const char *dir, PlVerifyCase *c, PlError *err)
{
  memset(c, 0, sizeof *c);
  char path[PL_PATH_MAX + 16];
  if (Fmt(path, sizeof path, "%s/case.yaml", dir) >= (int)sizeof path || strlen(dir) >= sizeof c->dir) {
    Fmt(err->msg, sizeof err->msg, "%.900s: path too long", dir);
    return PL_EXIT_BAD_INPUT;
  }
  Fmt(c->dir, sizeof c->dir, "%s", dir);
  {
    const char *end = dir + strlen(dir);
    while (end > dir && end[-1] == '/') --end;
    const char *b = end;
    while (b > dir && b[-1] != '/') --b;
    Fmt(c->name, sizeof c->name, "%.*s", (int)(end - b), b);
  }
  FILE *f = fopen(path, "rb");
  if (!f) {
    Fmt(err->msg, sizeof err->msg, "%.900s:0:0: (file): cannot read: %s", path, strerror(errno));
    return PL_EXIT_BAD_INPUT;
  }
  char *text = malloc(PL_YAML_MAX_BYTES + 1);
  const size_t n = text ? fread(text, 1, PL_YAML_MAX_BYTES + 1, f) : 0;
  fclose(f);
  if (!text || n > PL_YAML_MAX_BYTES) {
    free(text);
    Fmt(err->msg, sizeof err->msg, "%.900s:0:0: (file): %s", path, text ? "larger than 16 MiB" : "out of memory");
    return PL_EXIT_BAD_INPUT;
  }
  text[n] = '\0';
  LeadingComment(text, c->about, sizeof c->about);
  PlYTree tree;
  PlYTreeInit(&tree);
  PlYNode *root;
  PlYError ye;
  Loader L = {path, err, c};
  int rc = 0;
  if (PlYParse(&tree, path, text, n, &root, &ye)) {
    Fmt(err->msg, sizeof err->msg, "%.800s:%d:%d: %s: %s", path, ye.line, ye.col,
             ye.syntax ? "(syntax)" : (ye.path[0] ? ye.path : "(document)"), ye.what);
    rc = PL_EXIT_BAD_INPUT;
  } else if (!root) rc = Fail(&L, NULL, "(document)", "the file is empty");
  static const char *const keys[] = {"title", "slow", "runs", "checks", "plots", NULL};
  const PlYNode *v;
  if (!rc) rc = KnownKeys(&L, root, "(document)", keys);
  if (!rc && !(v = Get(root, "title"))) rc = Fail(&L, root, "title", "missing required key 'title'");
  if (!rc) rc = GetText(&L, Get(root, "title"), "title", c->title, sizeof c->title);
  if (!rc && (v = Get(root, "slow"))) rc = GetBool(&L, v, "slow", &c->slow);
  if (!rc) {
    v = Get(root, "runs");
    if (!v || v->kind != PL_YNODE_SEQ || v->nitems < 1 || v->nitems > PL_VERIFY_MAX_RUNS)
      rc = Fail(&L, v ? v : root, "runs", "expected a list of 1 to %d runs", PL_VERIFY_MAX_RUNS);
    for (size_t k = 0; !rc && k < v->nitems; ++k) {
      char p[64];
      Fmt(p, sizeof p, "runs[%zu]", k);
      rc = LoadRun(&L, v->items[k], p, &c->runs[k]);
      for (size_t j = 0; !rc && j < k; ++j)
        if (!strcmp(c->runs[j].id, c->runs[k].id)) rc = Fail(&L, v->items[k], p, "run id '%s' used twice", c->runs[k].id);
      c->nruns = (int)k + 1;
    }
  }
  if (!rc) {
    v = Get(root, "checks");
    if (!v || v->kind != PL_YNODE_SEQ || v->nitems < 1 || v->nitems > PL_VERIFY_MAX_CHECKS)
      rc = Fail(&L, v ? v : root, "checks", "expected a list of 1 to %d checks", PL_VERIFY_MAX_CHECKS);
    for (size_t k = 0; !rc && k < v->nitems; ++k) {
      char p[64];
      Fmt(p, sizeof p, "checks[%zu]", k);
      rc = LoadCheck(&L, v->items[k], p, &c->checks[k]);
      c->nchecks = (int)k + 1;
    }
  }
  if (!rc && (v = Get(root, "plots"))) {
    if (v->kind != PL_YNODE_SEQ || v->nitems > PL_VERIFY_MAX_PLOTS)
      rc = Fail(&L, v, "plots", "expected a list of at most %d plots", PL_VERIFY_MAX_PLOTS);
    for (size_t k = 0; !rc && k < v->nitems; ++k) {
      char p[64];
      Fmt(p, sizeof p, "plots[%zu]", k);
      rc = LoadPlot(&L, v->items[k], p, &c->plots[k]);
      for (size_t j = 0; !rc && j < k; ++j)
        if (!strcmp(c->plots[j].name, c->plots[k].name)) rc = Fail(&L, v->items[k], p, "plot name '%s' used twice", c->plots[k].name);
      c->nplots = (int)k + 1;
    }
  }
  PlYTreeFree(&tree);
  free(text);
  if (rc) {
    char keep[PL_ERRMSG_MAX];
    Fmt(keep, sizeof keep, "%s", err->msg);
    memset(c, 0, sizeof *c);
    Fmt(err->msg, sizeof err->msg, "%s", keep);
  }
  return rc;
}

/* ---- evaluating the checks ----------------------------------------------------------------- */

/* A resolved source: a number, or a series (x, y) (malloc'd). */
typedef struct {
  int series;
  double value;
  double *x, *y;
  int n;
  char xname[PL_VERIFY_NAME_MAX];
} Value;

static void ValueFree(Value *v)
{
  free(v->x);
  free(v->y);
  memset(v, 0, sizeof *v);
}

static void FilePath(const PlVerifyCase *c, const char *work, int run, const char *file, char *out, size_t len)
{
  if (file[0] == '/') Fmt(out, len, "%s", file);
  else if (run >= 0) Fmt(out, len, "%s/runs/%s/%s", work, c->runs[run].id, file);
  else Fmt(out, len, "%s/%s", c->dir, file);
}

/* A number of a run's summary.json: key may be a dotted path (input.nodes). */
static int SummaryValue(const char *path, const char *key, double *v, char *note, size_t len)
{
  FILE *f = fopen(path, "rb");
  if (!f) {
    Fmt(note, len, "%.200s: cannot read: %s", path, strerror(errno));
    return -1;
  }
  char *buf = malloc(64u << 20);
  const size_t n = buf ? fread(buf, 1, (64u << 20) - 1, f) : 0;
  fclose(f);
  if (!buf) {
    Fmt(note, len, "out of memory");
    return -1;
  }
  buf[n] = '\0';
  cJSON *root = cJSON_Parse(buf);
  free(buf);
  const cJSON *j = root;
  char part[PL_VERIFY_TEXT_MAX];
  for (const char *k = key; j && *k;) {
    const char *dot = strchr(k, '.');
    const size_t m = dot ? (size_t)(dot - k) : strlen(k);
    Fmt(part, sizeof part, "%.*s", (int)m, k);
    char *end = NULL;
    const long idx = strtol(part, &end, 10);
    if (cJSON_IsArray(j) && end != part && !*end) j = cJSON_GetArrayItem(j, (int)idx); /* key.2: an item */
    else j = cJSON_GetObjectItemCaseSensitive(j, part);
    k += m + (dot != NULL);
  }
  int rc = 0;
  if (!root) Fmt(note, len, "%.200s: not valid JSON", path), rc = -1;
  else if (!j) Fmt(note, len, "%.200s: no key '%s'", path, key), rc = -1;
  else if (cJSON_IsNull(j)) *v = NAN; /* written for a value that is not finite (no touchdown, ...) */
  else if (cJSON_IsBool(j)) *v = cJSON_IsTrue(j);
  else if (!cJSON_IsNumber(j)) Fmt(note, len, "%.200s: '%s' is not a number", path, key), rc = -1;
  else *v = j->valuedouble;
  cJSON_Delete(root);
  return rc;
}

/* The rotation angle [rad] between the frames (t2a, t3a) and (t2b, t3b): 2 asin(|Ra - Rb|_F / sqrt 8). */
static double FrameAngle(const double a[6], const double b[6])
{
  double t1a[3] = {a[1] * a[5] - a[2] * a[4], a[2] * a[3] - a[0] * a[5], a[0] * a[4] - a[1] * a[3]};
  double t1b[3] = {b[1] * b[5] - b[2] * b[4], b[2] * b[3] - b[0] * b[5], b[0] * b[4] - b[1] * b[3]};
  double f2 = 0;
  for (int k = 0; k < 3; ++k) f2 += pow(t1a[k] - t1b[k], 2) + pow(a[k] - b[k], 2) + pow(a[3 + k] - b[3 + k], 2);
  return 2.0 * asin(fmin(1.0, sqrt(f2 / 8.0)));
}

static const char *const kConvColumns[10] = {"S_m", "x_m", "y_m", "z_m", "t2_x", "t2_y", "t2_z", "t3_x", "t3_y", "t3_z"};

/* Opens static.csv of a run and finds the columns of kConvColumns. */
static int ConvTable(const PlVerifyCase *c, const char *work, int run, PlTable *t, const double *col[10], char *note,
                     size_t len)
{
  char path[2 * PL_PATH_MAX];
  PlError err;
  FilePath(c, work, run, "static.csv", path, sizeof path);
  if (PlTableRead(path, t, &err)) {
    Fmt(note, len, "%.250s", err.msg);
    return -1;
  }
  for (int k = 0; k < 10; ++k) {
    const int j = PlTableColumn(t, kConvColumns[k]);
    if (j < 0) {
      Fmt(note, len, "%.200s: no column %s", path, kConvColumns[k]);
      PlTableFree(t);
      return -1;
    }
    col[k] = PlTableData(t, j);
  }
  return 0;
}

/* Observed order of convergence (least-squares slope of log eps against log h), eq 5.109;
 * writes work/convergence.csv: elements, h_over_L, eps_over_L, quadratic_aux. */
static int Convergence(const PlVerifyCase *c, const char *work, const PlVerifySource *s, double *order, char *note,
                       size_t len)
{
  PlTable ref;
  const double *rc[10];
  if (ConvTable(c, work, s->conv_reference, &ref, rc, note, len)) return -1;
  const double L = s->conv_length;
  double lh[PL_VERIFY_MAX_RUNS], le[PL_VERIFY_MAX_RUNS];
  int nel[PL_VERIFY_MAX_RUNS];
  for (int k = 0; k < s->nconv; ++k) {
    PlTable t;
    const double *tc[10];
    if (ConvTable(c, work, s->conv_runs[k], &t, tc, note, len)) {
      PlTableFree(&ref);
      return -1;
    }
    double e = 0;
    int j = 0;
    for (int i = 0; i < t.nrows; ++i) {
      while (j < ref.nrows && rc[0][j] < tc[0][i] - 1e-9 * L) ++j;
      if (j == ref.nrows || fabs(rc[0][j] - tc[0][i]) > 1e-9 * L) {
        Fmt(note, len, "run %s: the reference mesh has no node at S = %g m", c->runs[s->conv_runs[k]].id, tc[0][i]);
        PlTableFree(&t);
        PlTableFree(&ref);
        return -1;
      }
      double a[6], b[6], d2 = 0;
      for (int q = 0; q < 3; ++q) d2 += pow(tc[1 + q][i] - rc[1 + q][j], 2);
      for (int q = 0; q < 6; ++q) a[q] = tc[4 + q][i], b[q] = rc[4 + q][j];
      const double th = FrameAngle(a, b);
      e += sqrt(d2 + th * th);
    }
    nel[k] = t.nrows - 1;
    lh[k] = log(1.0 / nel[k]);
    le[k] = log(e / t.nrows / L);
    PlTableFree(&t);
  }
  PlTableFree(&ref);
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const int m = s->nconv;
  for (int k = 0; k < m; ++k) sx += lh[k], sy += le[k], sxx += lh[k] * lh[k], sxy += lh[k] * le[k];
  *order = (m * sxy - sx * sy) / (m * sxx - sx * sx);
  const double c2 = sy / m - 2.0 * sx / m; /* log C of the quadratic line through the mean point */
  char path[2 * PL_PATH_MAX];
  Fmt(path, sizeof path, "%s/convergence.csv", work);
  FILE *f = fopen(path, "w");
  if (f) {
    fprintf(f, "# static mesh convergence, eq 5.109 of the Saefstroem thesis: eps_over_L = eps^N / L against\n"
               "# h_over_L = 1/(N-1); quadratic_aux = C (h/L)^2 through the mean point; observed order %.6g\n"
               "elements,h_over_L,eps_over_L,quadratic_aux\n", *order);
    for (int k = 0; k < m; ++k)
      fprintf(f, "%d,%.17g,%.17g,%.17g\n", nel[k], exp(lh[k]), exp(le[k]), exp(c2 + 2.0 * lh[k]));
    fclose(f);
  }
  return 0;
}

/* 0 when run k succeeded, else -1 with note. */
static int RunOk(const PlVerifyCase *c, const int *status, int k, char *note, size_t len)
{
  if (!status[k]) return 0;
  Fmt(note, len, "run %s failed (exit status %d)", c->runs[k].id, status[k]);
  return -1;
}

/* The series (x, column or hypot of norm_of, times scale) of s's file, of run 'run' (-1: the
 * case folder's file): out->series = 1. */
static int ReadSeries(const PlVerifyCase *c, const char *work, int run, const PlVerifySource *s, Value *out, char *note,
                      size_t len)
{
  char path[2 * PL_PATH_MAX];
  memset(out, 0, sizeof *out);
  FilePath(c, work, run, s->file, path, sizeof path);
  if (run >= 0) { /* only what the run wrote (ownership.c): never a file left by another run */
    char rundir[2 * PL_PATH_MAX];
    Fmt(rundir, sizeof rundir, "%s/runs/%s", work, c->runs[run].id);
    if (!PlOutputFileListed(rundir, s->file)) {
      Fmt(note, len, "%.250s: not a file of run %s (not in its summary.json's files)", path, c->runs[run].id);
      return -1;
    }
  }
  PlTable t;
  PlError err;
  if (PlTableRead(path, &t, &err)) {
    Fmt(note, len, "%.250s", err.msg);
    return -1;
  }
  const char *xn = s->x[0] ? s->x : PlTableColumn(&t, "S_m") >= 0 ? "S_m" : "t_s";
  const int cx = PlTableColumn(&t, xn);
  int cy[2] = {-1, -1};
  if (s->column[0]) cy[0] = PlTableColumn(&t, s->column);
  else {
    cy[0] = PlTableColumn(&t, s->norm_of[0]);
    cy[1] = PlTableColumn(&t, s->norm_of[1]);
  }
  if (cx < 0 || cy[0] < 0 || (!s->column[0] && cy[1] < 0)) {
    Fmt(note, len, "%.180s: no column %s", path,
        cx < 0 ? xn : cy[0] < 0 ? (s->column[0] ? s->column : s->norm_of[0]) : s->norm_of[1]);
    PlTableFree(&t);
    return -1;
  }
  Fmt(out->xname, sizeof out->xname, "%s", xn);
  out->n = t.nrows;
  out->x = malloc(sizeof *out->x * (size_t)(t.nrows + 1));
  out->y = malloc(sizeof *out->y * (size_t)(t.nrows + 1));
  if (!out->x || !out->y) {
    Fmt(note, len, "out of memory");
    PlTableFree(&t);
    ValueFree(out);
    return -1;
  }
  const double *X = PlTableData(&t, cx), *Y0 = PlTableData(&t, cy[0]), *Y1 = cy[1] >= 0 ? PlTableData(&t, cy[1]) : NULL;
  int rc = 0;
  for (int r = 0; r < t.nrows; ++r) {
    out->x[r] = X[r];
    out->y[r] = (Y1 ? hypot(Y0[r], Y1[r]) : Y0[r]) * s->scale;
    if (r && !(X[r] >= X[r - 1])) rc = -1;
  }
  PlTableFree(&t);
  if (rc) {
    Fmt(note, len, "%.200s: column %s does not increase", path, xn);
    ValueFree(out);
    return -1;
  }
  out->series = 1;
  return 0;
}

/* difference_rms: for each run of s, the RMS over the reference run's samples inside [lo, hi]
 * (and inside the run's range) of the run's series, interpolated linearly onto the
 * reference's abscissae, minus the reference's. One run: a number; several: the sequence
 * against the abscissa (the summary key diff_abscissa, else 1, 2, ...), also written to
 * work/difference_rms_<reference>_<column>_<run>-<run>-....csv (run, abscissa,
 * rms_difference; characters other than A-Z a-z 0-9 _ - replaced by _) for plots. */
static int DifferenceRms(const PlVerifyCase *c, const char *work, const int *status, const PlVerifySource *s, double lo,
                         double hi, Value *out, char *note, size_t len)
{
  memset(out, 0, sizeof *out);
  if (RunOk(c, status, s->diff_reference, note, len)) return -1;
  for (int k = 0; k < s->ndiff; ++k)
    if (RunOk(c, status, s->diff_runs[k], note, len)) return -1;
  Value ref;
  if (ReadSeries(c, work, s->diff_reference, s, &ref, note, len)) return -1;
  char refx[PL_VERIFY_NAME_MAX];
  Fmt(refx, sizeof refx, "%s", ref.xname);
  double xs[PL_VERIFY_MAX_RUNS], ys[PL_VERIFY_MAX_RUNS];
  const char *akey = s->diff_abscissa;
  for (int k = 0; k < s->ndiff; ++k) {
    Value v;
    const char *id = c->runs[s->diff_runs[k]].id;
    if (ReadSeries(c, work, s->diff_runs[k], s, &v, note, len)) {
      ValueFree(&ref);
      return -1;
    }
    double sum2 = 0;
    int m = 0;
    for (int i = 0; i < ref.n; ++i) {
      if ((isfinite(lo) && ref.x[i] < lo) || (isfinite(hi) && ref.x[i] > hi) || !isfinite(ref.y[i])) continue;
      const double y = PlInterpolate(v.x, v.y, v.n, ref.x[i]);
      if (!isfinite(y)) continue;
      sum2 += (y - ref.y[i]) * (y - ref.y[i]);
      ++m;
    }
    ValueFree(&v);
    if (m < 2) {
      Fmt(note, len, "run %s: fewer than 2 samples of run %s inside its range and the window", id,
          c->runs[s->diff_reference].id);
      ValueFree(&ref);
      return -1;
    }
    ys[k] = sqrt(sum2 / m);
    xs[k] = k + 1;
    if (akey[0]) {
      char sp[2 * PL_PATH_MAX];
      Fmt(sp, sizeof sp, "%s/runs/%s/summary.json", work, id);
      if (SummaryValue(sp, akey, &xs[k], note, len)) {
        ValueFree(&ref);
        return -1;
      }
    }
  }
  ValueFree(&ref);
  if (s->ndiff == 1) {
    out->value = ys[0];
    return 0;
  }
  out->series = 1;
  out->n = s->ndiff;
  Fmt(out->xname, sizeof out->xname, "%s", akey[0] ? akey : "run");
  out->x = malloc(sizeof *out->x * (size_t)s->ndiff);
  out->y = malloc(sizeof *out->y * (size_t)s->ndiff);
  if (!out->x || !out->y) {
    Fmt(note, len, "out of memory");
    ValueFree(out);
    return -1;
  }
  memcpy(out->x, xs, sizeof *xs * (size_t)s->ndiff);
  memcpy(out->y, ys, sizeof *ys * (size_t)s->ndiff);
  char name[200], path[2 * PL_PATH_MAX];
  Fmt(name, sizeof name, "%s_%s", c->runs[s->diff_reference].id, s->column);
  for (int k = 0; k < s->ndiff; ++k)
    Fmt(name + strlen(name), sizeof name - strlen(name), "%c%s", k ? '-' : '_', c->runs[s->diff_runs[k]].id);
  for (char *q = name; *q; ++q)
    if (!isalnum((unsigned char)*q) && *q != '_' && *q != '-') *q = '_';
  Fmt(path, sizeof path, "%s/difference_rms_%s.csv", work, name);
  FILE *f = fopen(path, "w");
  if (f) {
    fprintf(f, "# RMS difference of %s (%s) of each run to run %s, the runs interpolated onto its %s;\n"
               "# abscissa: %s\nrun,abscissa,rms_difference\n",
            s->column, s->file, c->runs[s->diff_reference].id, refx,
            akey[0] ? akey : "the run's place in the list");
    for (int k = 0; k < s->ndiff; ++k) fprintf(f, "%s,%.17g,%.17g\n", c->runs[s->diff_runs[k]].id, xs[k], ys[k]);
    fclose(f);
  }
  return 0;
}

/* The value of source s (a number or a series) for a check whose window is [lo, hi]. */
static int Resolve(const PlVerifyCase *c, const char *work, const int *status, const PlVerifySource *s, double lo,
                   double hi, Value *out, char *note, size_t len)
{
  memset(out, 0, sizeof *out);
  if (s->run >= 0 && RunOk(c, status, s->run, note, len)) return -1;
  char path[2 * PL_PATH_MAX];
  switch (s->kind) {
  case PL_VSRC_VALUE:
    out->value = s->value * s->scale;
    return 0;
  case PL_VSRC_SUMMARY:
    Fmt(path, sizeof path, "%s/runs/%s/summary.json", work, c->runs[s->run].id);
    if (SummaryValue(path, s->key, &out->value, note, len)) return -1;
    out->value *= s->scale;
    return 0;
  case PL_VSRC_CONVERGENCE:
    for (int k = 0; k < s->nconv; ++k)
      if (RunOk(c, status, s->conv_runs[k], note, len)) return -1;
    if (RunOk(c, status, s->conv_reference, note, len)) return -1;
    if (Convergence(c, work, s, &out->value, note, len)) return -1;
    out->value *= s->scale;
    return 0;
  case PL_VSRC_NAMED:
  case PL_VSRC_COLUMN:
    break;
  }
  if (s->kind == PL_VSRC_COLUMN && s->ndiff > 0)
    return DifferenceRms(c, work, status, s, lo, hi, out, note, len);
  FilePath(c, work, s->run, s->file, path, sizeof path);
  if (s->kind == PL_VSRC_NAMED) {
    PlTable t;
    PlError err;
    if (PlTableRead(path, &t, &err)) {
      Fmt(note, len, "%.250s", err.msg);
      return -1;
    }
    const int cn = PlTableColumn(&t, "name"), cv = PlTableColumn(&t, "value");
    int row = -1, rc = 0;
    if (cn < 0 || cv < 0) {
      Fmt(note, len, "%.200s: needs the columns name and value", path);
      rc = -1;
    }
    for (int r = 0; !rc && r < t.nrows; ++r)
      if (!strcmp(t.text[(size_t)cn * t.nrows + r], s->key)) row = r;
    if (!rc && row < 0) Fmt(note, len, "%.200s: no row named '%s'", path, s->key), rc = -1;
    if (!rc) out->value = PlTableData(&t, cv)[row] * s->scale;
    PlTableFree(&t);
    return rc;
  }
  if (ReadSeries(c, work, s->run, s, out, note, len)) return -1;
  if (!s->has_at && s->measure == PL_MEASURE_NONE) return 0;
  double v;
  if (s->has_at) {
    v = PlInterpolate(out->x, out->y, out->n, s->at);
    if (isnan(v)) Fmt(note, len, "%.180s: %s = %g is outside the file's range", path, out->xname, s->at);
  } else if (SeriesMeasure(s->measure, out->x, out->y, out->n, lo, hi, &v, note, len)) {
    char what[256];
    Fmt(what, sizeof what, "%s", note);
    Fmt(note, len, "%.150s: %s of %s: %s", path, kMeasures[s->measure], s->column[0] ? s->column : "the norm", what);
    v = NAN;
  }
  ValueFree(out);
  if (isnan(v)) return -1;
  out->value = v;
  return 0;
}

void PlVerifyCaseEvaluate(const PlVerifyCase *c, const char *work, const int *run_status, PlCheckResult *out)
{
  for (int k = 0; k < c->nchecks; ++k) {
    const PlVerifyCheck *ck = &c->checks[k];
    PlCheckResult *r = &out[k];
    memset(r, 0, sizeof *r);
    ResultInit(r);
    Fmt(r->case_name, sizeof r->case_name, "%s", c->name);
    Fmt(r->quantity, sizeof r->quantity, "%s", ck->quantity);
    Fmt(r->unit, sizeof r->unit, "%s", ck->unit);
    r->tol = ck->tol;
    Value cv, rv;
    char note[sizeof r->note] = "";
    const double lo = ck->window[0], hi = ck->window[1];
    const int okc = !Resolve(c, work, run_status, &ck->computed, lo, hi, &cv, note, sizeof note);
    if (!okc) Fmt(r->note, sizeof r->note, "computed: %s", note);
    const int decreasing = r->tol.kind == PL_TOL_DECREASING;
    const int okr = okc && !decreasing && !Resolve(c, work, run_status, &ck->reference, lo, hi, &rv, note, sizeof note);
    if (okc && !okr && !decreasing) Fmt(r->note, sizeof r->note, "reference: %s", note);
    if (okc && decreasing) {
      int i0 = 0, i1 = cv.n; /* a series' window (a difference_rms sequence has had it applied to its runs' series) */
      while (!Derived(&ck->computed) && i0 < cv.n && isfinite(lo) && cv.x[i0] < lo) ++i0;
      while (!Derived(&ck->computed) && i1 > i0 && isfinite(hi) && cv.x[i1 - 1] > hi) --i1;
      CheckDecreasing(cv.x + i0, cv.y + i0, i1 - i0, r);
      Fmt(r->at_name, sizeof r->at_name, "%s", cv.xname);
    } else if (okc && okr) {
      if (cv.series) {
        const PlTolerance tol = r->tol;
        const int seq = Derived(&ck->computed) || Derived(&ck->reference); /* window already used */
        PlCheckSeries(rv.x, rv.y, rv.n, cv.x, cv.y, cv.n, seq ? NAN : lo, seq ? NAN : hi, r);
        r->tol = tol;
        Fmt(r->at_name, sizeof r->at_name, "%s", rv.xname);
      } else {
        r->reference = rv.value;
        r->computed = cv.value;
        PlCheckScalar(r);
      }
    }
    r->pass = r->pass && !r->note[0];
    r->known_miss = !r->pass && !r->note[0] && ck->known_miss[0];
    if (okc) ValueFree(&cv);
    if (okr) ValueFree(&rv);
  }
}

/* ---- plots ------------------------------------------------------------------------------- */


/* s as the body of a gnuplot single-quoted string ('' for a quote, no control characters) */
static void GpQuote(FILE *f, const char *s)
{
  for (; *s; ++s) {
    if ((unsigned char)*s < 32) continue;
    if (*s == '\'') fputc('\'', f);
    fputc(*s, f);
  }
}

/* gnuplot's using expression of a column: column("name") * scale */
static void GpColumn(FILE *f, const char *name, double scale)
{
  fputs("(column('", f);
  GpQuote(f, name);
  fprintf(f, "')*%.17g)", scale);
}

static int FileExistsAt(const char *path)
{
  struct stat sb;
  return !stat(path, &sb) && S_ISREG(sb.st_mode) && sb.st_size > 0;
}

/* Runs "gnuplot NAME.gp" in dir; 0 when both images were written, else -1 with a warning. */
static int RunGnuplot(const char *gnuplot, const char *dir, const char *name, FILE *warnings)
{
  char img[2][2 * PL_PATH_MAX];
  for (int k = 0; k < 2; ++k) {
    Fmt(img[k], sizeof img[k], "%s/%s.%s", dir, name, k ? "svg" : "png");
    remove(img[k]);
  }
  fflush(NULL);
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    char gp[PL_VERIFY_NAME_MAX + 8];
    Fmt(gp, sizeof gp, "%s.gp", name);
    if (chdir(dir)) _exit(127);
    FILE *devnull = fopen("/dev/null", "w");
    if (devnull) dup2(fileno(devnull), 1);
    execl(gnuplot, gnuplot, gp, (char *)NULL);
    _exit(127);
  }
  int status;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  const int ok = WIFEXITED(status) && !WEXITSTATUS(status) && FileExistsAt(img[0]) && FileExistsAt(img[1]);
  if (!ok && warnings)
    fprintf(warnings, "pipelay: warning: gnuplot failed on %s/%s.gp (its messages are above)\n", dir, name);
  return ok ? 0 : -1;
}

int PlVerifyCasePlots(const PlVerifyCase *c, const char *work, FILE *warnings)
{
  char gnuplot[PL_PATH_MAX];
  PlOutputFindGnuplot(gnuplot, sizeof gnuplot);
  if (!gnuplot[0] && c->nplots && warnings)
    fprintf(warnings, "pipelay: warning: gnuplot not found (install gnuplot-nox, or set PIPELAY_GNUPLOT): "
                      "the report has no images; the scripts are in %s/\n", work);
  char casedir[PATH_MAX];
  if (!realpath(c->dir, casedir)) Fmt(casedir, sizeof casedir, "%s", c->dir);
  int drawn = 0;
  for (int p = 0; p < c->nplots; ++p) {
    const PlVerifyPlot *pl = &c->plots[p];
    char path[2 * PL_PATH_MAX];
    /* summary values of several runs: a small data file per curve */
    for (int k = 0; k < pl->nseries; ++k) {
      const PlVerifySeries *s = &pl->series[k];
      if (!s->nruns) continue;
      Fmt(path, sizeof path, "%s/%s_curve%d.csv", work, pl->name, k + 1);
      FILE *f = fopen(path, "w");
      if (!f) continue;
      fprintf(f, "x,y\n");
      for (int j = 0; j < s->nruns; ++j) {
        char sp[2 * PL_PATH_MAX], note[256];
        double v = NAN;
        Fmt(sp, sizeof sp, "%s/runs/%s/summary.json", work, c->runs[s->runs[j]].id);
        if (SummaryValue(sp, s->key, &v, note, sizeof note)) v = NAN;
        if (isfinite(v)) fprintf(f, "%.17g,%.17g\n", s->at[j] * s->xscale, v * s->yscale);
      }
      fclose(f);
    }
    Fmt(path, sizeof path, "%s/%s.gp", work, pl->name);
    FILE *f = fopen(path, "w");
    if (!f) {
      if (warnings) fprintf(warnings, "pipelay: warning: %s: cannot write: %s\n", path, strerror(errno));
      continue;
    }
    fprintf(f, "# %s.gp - written by pipelay %s verify for the case %s; rerun with: gnuplot %s.gp\n"
               "if (strlen(ARG0) > 0) {\n  d = ARG0; i = strlen(d)\n  while (i > 0 && d[i:i] ne \"/\") { i = i - 1 }\n"
               "  if (i > 0) { cd d[1:i] }\n}\n"
               "set datafile separator comma\nset encoding utf8\n"
               "do for [fmt in \"png svg\"] {\n"
               "  if (fmt eq \"png\") {\n"
               "    if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
               "      set terminal pngcairo size 1100,700 noenhanced font \"sans,11\"\n"
               "    } else {\n      set terminal png size 1100,700 noenhanced\n    }\n"
               "  } else {\n    set terminal svg size 1100,700 dynamic noenhanced font \"sans,11\" background \"white\"\n  }\n"
               "  set output \"%s.\" . fmt\n  set grid\n  set key below horizontal\n",
            pl->name, PIPELAY_VERSION, c->name, pl->name, pl->name);
    fputs("  set title '", f);
    GpQuote(f, pl->title[0] ? pl->title : pl->name);
    fputs("' . \"\\n\" . '", f);
    GpQuote(f, c->title);
    fputs("'\n  set xlabel '", f);
    GpQuote(f, pl->xlabel);
    fputs("'\n  set ylabel '", f);
    GpQuote(f, pl->ylabel);
    fputs("'\n", f);
    if (isfinite(pl->xrange[0])) fprintf(f, "  set xrange [%.17g:%.17g]\n", pl->xrange[0], pl->xrange[1]);
    else fputs("  set autoscale x\n", f);
    if (pl->logscale[0]) fprintf(f, "  set logscale %s\n  set format x '%%g'\n  set format y '%%.1e'\n", pl->logscale);
    else fputs("  set format y '%.10g'\n", f); /* ticks of a narrow range far from 0 (a conserved energy) */
    fputs("  plot ", f);
    static const char *const colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};
    for (int k = 0; k < pl->nseries; ++k) {
      const PlVerifySeries *s = &pl->series[k];
      const char *col = s->color[0] ? s->color : colors[k % 8];
      fputs(k ? ", \\\n       '" : "'", f);
      if (s->nruns) fprintf(f, "%s_curve%d.csv", pl->name, k + 1);
      else if (s->run >= 0) { /* runs/ID/FILE, relative to work (the script's directory) */
        fputs("runs/", f);
        GpQuote(f, c->runs[s->run].id);
        fputc('/', f);
        GpQuote(f, s->file);
      } else if (s->derived || s->file[0] == '/') GpQuote(f, s->file);
      else { /* a file of the case folder */
        GpQuote(f, casedir);
        fputc('/', f);
        GpQuote(f, s->file);
      }
      fputs("'", f);
      if (s->every > 1) fprintf(f, " every %d", s->every);
      fputs(" using ", f);
      if (s->nruns) fputs("1:2", f);
      else {
        GpColumn(f, s->x, s->xscale);
        fputs(":", f);
        if (s->y[0]) GpColumn(f, s->y, s->yscale);
        else {
          fputs("(sqrt(column('", f);
          GpQuote(f, s->norm_of[0]);
          fputs("')**2 + column('", f);
          GpQuote(f, s->norm_of[1]);
          fprintf(f, "')**2)*%.17g)", s->yscale);
        }
      }
      if (!strcmp(s->style, "points")) fprintf(f, " with points pt 6 ps 1.2 lw 1.5 lc rgb '%s'", col);
      else if (!strcmp(s->style, "linespoints")) fprintf(f, " with linespoints lw 2 pt 7 ps 0.8 lc rgb '%s'", col);
      else fprintf(f, " with lines lw 2 lc rgb '%s'", col);
      fputs(" title '", f);
      GpQuote(f, s->title);
      fputs("'", f);
    }
    fputs("\n  set output\n}\n", f);
    const int bad = ferror(f);
    fclose(f);
    if (bad) continue;
    if (gnuplot[0] && !RunGnuplot(gnuplot, work, pl->name, warnings)) ++drawn;
  }
  return drawn;
}
