/*
 * statistics.c - the statistics of a dynamic run's time series, and the most probable maxima
 * of an irregular sea's response.
 *
 * One series x(t) sampled at the output times t_0 < ... < t_{n-1} (from a start time on, to
 * leave out the start-up transient), duration T = t_{n-1} - t_0:
 *   mean    mu = (1/T) int x dt,  variance sigma^2 = (1/T) int (x - mu)^2 dt   (trapezoidal
 *           rule on the samples: the outputs are equally spaced but for a last one cut short);
 *   min, max over the samples;
 *   Tz      the mean zero up-crossing period of x - mu: the up-crossings (x - mu from < 0 to
 *           >= 0) at linearly interpolated times c_1 < ... < c_m, Tz = (c_m - c_1) / (m - 1);
 *   peaks   the largest x - mu between consecutive up-crossings (one per complete cycle), and
 *           the troughs: the largest mu - x between consecutive down-crossings.
 * Most probable maximum (MPM) over N cycles, the mode of the largest of N independent peaks
 * whose exceedance probability is Q(p): Q(p_mpm) = 1/N (for N >> 1). Two peak distributions:
 *   Rayleigh (a narrow-banded Gaussian process: Q(p) = exp(-p^2 / (2 sigma^2))):
 *           x_mpm = mu + sigma sqrt(2 ln N);
 *   Weibull fitted to the upper tail of the run's peaks (Q(p) = exp(-(p/alpha)^beta), beta = 2
 *           and alpha = sigma sqrt 2 being the Rayleigh case): sorted peaks p_(i), plotting
 *           positions F_i = i / (k + 1), and the least-squares line of ln(-ln(1 - F_i)) against
 *           ln p_(i) over the upper half of the peaks (at least 10), slope beta and intercept
 *           -beta ln alpha: x_mpm = mu + alpha (ln N)^(1/beta). The upper half, because the
 *           maximum is the upper tail's: a broad-banded response (a sea state's) has many small
 *           local cycles, which a fit of all peaks follows at the tail's expense (all peaks of
 *           a 500 s JONSWAP elevation gave a shape 1.5 and a run MPM 60 % above the Rayleigh one
 *           and the record's maximum).
 * N is the run's cycles T / Tz, and a 3-hour storm's 10800 s / Tz. The minima likewise from the
 * troughs (mu - ...). The Rayleigh form assumes a Gaussian, narrow-banded response; the
 * Weibull fit follows the run's own peaks (a tension's nonlinearity, a drag-dominated response):
 * both are reported, as the engineer judges which applies. They are given for irregular seas
 * only (a regular sea's response is periodic: its maximum is the run's).
 *
 * Spectra (spectra.csv): Welch's estimate of each series' one-sided power spectral density
 * from the same window, S(f_k) = 2 / (f_s U K) sum over K segments of |sum_j w_j (x_j - mean_s)
 * e^{-2 pi i j k / L}|^2 (the end bins k = 0 and L/2 not doubled), f_k = k f_s / L, on segments
 * of L samples (the largest power of two within a quarter of the window, 64 to 4096), half
 * overlapping, each with its own mean removed, under a Hann window w (U = sum w_j^2): the
 * spectrum's integral is the series' variance (Parseval) up to the window's leakage.
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cjson/cJSON.h>
#include "output_impl.h"

static const double kStormSeconds = 3.0 * 3600.0;

/* In-place radix-2 FFT of the n = 2^p complex values (re, im): X_k = sum_j x_j e^{-2 pi i j k / n}. */
static void Fft(double *re, double *im, int n)
{
  for (int i = 1, j = 0; i < n; ++i) { /* bit-reversed order */
    int bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      double t = re[i];
      re[i] = re[j], re[j] = t, t = im[i], im[i] = im[j], im[j] = t;
    }
  }
  for (int len = 2; len <= n; len <<= 1)
    for (int k = 0; k < len / 2; ++k) {
      const double wr = cos(-2.0 * M_PI * k / len), wi = sin(-2.0 * M_PI * k / len);
      for (int i = k; i < n; i += len) {
        const int j = i + len / 2;
        const double vr = re[j] * wr - im[j] * wi, vi = re[j] * wi + im[j] * wr;
        re[j] = re[i] - vr, im[j] = im[i] - vi;
        re[i] += vr, im[i] += vi;
      }
    }
}

int PlWelchLength(int n)
{
  int L = 64;
  while (2 * L <= n / 4 && 2 * L <= 4096) L *= 2;
  return L <= n ? L : 0;
}

int PlWelchSpectrum(const double *x, int n, double dt, int L, double *S)
{
  double *re = malloc(sizeof(double) * (size_t)L), *im = malloc(sizeof(double) * (size_t)L),
         *w = malloc(sizeof(double) * (size_t)L);
  if (!re || !im || !w || L < 2 || L > n) {
    free(re), free(im), free(w);
    return 1;
  }
  double U = 0.0;
  for (int j = 0; j < L; ++j) w[j] = 0.5 - 0.5 * cos(2.0 * M_PI * j / L), U += w[j] * w[j];
  for (int k = 0; k <= L / 2; ++k) S[k] = 0.0;
  int K = 0;
  for (int s0 = 0; s0 + L <= n; s0 += L / 2, ++K) {
    double m = 0.0;
    for (int j = 0; j < L; ++j) m += x[s0 + j] / L;
    for (int j = 0; j < L; ++j) re[j] = w[j] * (x[s0 + j] - m), im[j] = 0.0;
    Fft(re, im, L);
    for (int k = 0; k <= L / 2; ++k) S[k] += re[k] * re[k] + im[k] * im[k];
  }
  for (int k = 0; k <= L / 2; ++k) S[k] *= (k == 0 || k == L / 2 ? 1.0 : 2.0) * dt / (U * K);
  free(re), free(im), free(w);
  return 0;
}

static int CompareDouble(const void *a, const void *b)
{
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* The least-squares Weibull fit of the upper half of the k peaks p (sorted ascending on
 * return) at their plotting positions among all k: 0 with alpha and beta, or 1 when fewer than
 * 10 are there or the fit is degenerate. */
static int WeibullFit(double *p, int k, double *alpha, double *beta)
{
  qsort(p, (size_t)k, sizeof *p, CompareDouble);
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  int m = 0;
  for (int i = k / 2; i < k; ++i) {
    if (!(p[i] > 0.0)) continue;
    const double F = (double)(i + 1) / (k + 1), x = log(p[i]), y = log(-log(1.0 - F));
    sx += x, sy += y, sxx += x * x, sxy += x * y, ++m;
  }
  if (m < 10) return 1;
  const double d = m * sxx - sx * sx;
  if (!(d > 0.0)) return 1;
  *beta = (m * sxy - sx * sy) / d;
  const double c = (sy - *beta * sx) / m; /* intercept = -beta ln alpha */
  if (!(*beta > 0.0)) return 1;
  *alpha = exp(-c / *beta);
  return 0;
}

int PlSeriesStatistics(const double *t, const double *x, int n, double t0, PlSeriesStats *st)
{
  memset(st, 0, sizeof *st);
  st->tz = st->weibull_alpha[0] = st->weibull_alpha[1] = st->weibull_beta[0] = st->weibull_beta[1] = NAN;
  int i0 = 0;
  while (i0 < n && t[i0] < t0) ++i0;
  const int m = n - i0;
  if (m < 2 || !(t[n - 1] > t[i0])) return 1;
  const double *tt = t + i0, *xx = x + i0, T = tt[m - 1] - tt[0];
  double s = 0.0;
  st->min = st->max = xx[0];
  for (int i = 0; i + 1 < m; ++i) s += 0.5 * (xx[i] + xx[i + 1]) * (tt[i + 1] - tt[i]);
  for (int i = 0; i < m; ++i) st->min = fmin(st->min, xx[i]), st->max = fmax(st->max, xx[i]);
  const double mu = st->mean = s / T;
  double v = 0.0;
  for (int i = 0; i + 1 < m; ++i)
    v += 0.5 * ((xx[i] - mu) * (xx[i] - mu) + (xx[i + 1] - mu) * (xx[i + 1] - mu)) * (tt[i + 1] - tt[i]);
  st->std = sqrt(v / T);
  st->duration = T;
  /* crossings, peaks and troughs */
  double *pk = malloc(sizeof(double) * (size_t)m), *tr = malloc(sizeof(double) * (size_t)m);
  if (!pk || !tr) {
    free(pk), free(tr);
    return 2;
  }
  int nup = 0, ndown = 0, np = 0, nt = 0;
  double first_up = 0.0, last_up = 0.0, cur_pk = -INFINITY, cur_tr = -INFINITY;
  for (int i = 0; i + 1 < m; ++i) {
    const double a = xx[i] - mu, b = xx[i + 1] - mu;
    cur_pk = fmax(cur_pk, a), cur_tr = fmax(cur_tr, -a);
    if (a < 0.0 && b >= 0.0) { /* an up-crossing closes a peak's cycle */
      const double c = tt[i] + (tt[i + 1] - tt[i]) * (-a) / (b - a);
      if (nup == 0) first_up = c;
      else pk[np++] = cur_pk;
      last_up = c;
      ++nup;
      cur_pk = -INFINITY;
    } else if (a >= 0.0 && b < 0.0) { /* a down-crossing closes a trough's */
      if (ndown > 0) tr[nt++] = cur_tr;
      ++ndown;
      cur_tr = -INFINITY;
    }
  }
  st->cycles = nup > 1 ? nup - 1 : 0;
  if (nup > 1) st->tz = (last_up - first_up) / (nup - 1);
  if (np > 0 && !WeibullFit(pk, np, &st->weibull_alpha[0], &st->weibull_beta[0])) st->fitted[0] = 1;
  if (nt > 0 && !WeibullFit(tr, nt, &st->weibull_alpha[1], &st->weibull_beta[1])) st->fitted[1] = 1;
  free(pk), free(tr);
  return 0;
}

double PlSeriesMPM(const PlSeriesStats *st, int weibull, int minimum, double duration)
{
  if (!(st->tz > 0.0) || !(duration > 0.0)) return NAN;
  const double N = duration / st->tz, sign = minimum ? -1.0 : 1.0;
  if (!(N > 1.0)) return NAN;
  if (!weibull) return st->mean + sign * st->std * sqrt(2.0 * log(N));
  if (!st->fitted[minimum]) return NAN;
  return st->mean + sign * st->weibull_alpha[minimum] * pow(log(N), 1.0 / st->weibull_beta[minimum]);
}

/* ---- a run's folder ------------------------------------------------------------------------ */

typedef struct {
  FILE *csv, *say;
  cJSON *json;
  double t0;
  int irregular;
  /* the spectra: every column sampled as the first one (nsamp samples at dt from t0) */
  int nsamp, L, nspec, capspec;
  double dt;
  char **spec_name;
  double **spec;
} Pass;

/* Welch's spectrum of column x (window from P->t0) into the pass, when sampled as the first. */
static void AddSpectrum(Pass *P, const double *t, const double *x, int n, const char *rel, const char *col)
{
  int i0 = 0;
  while (i0 < n && t[i0] < P->t0) ++i0;
  const int m = n - i0;
  if (m < 64) return;
  const double dt = (t[n - 1] - t[i0]) / (m - 1);
  for (int i = i0; i + 1 < n; ++i) /* equally spaced outputs only (a last one cut short ends the window) */
    if (fabs(t[i + 1] - t[i] - dt) > 1e-6 * dt && i + 2 < n) return;
  if (P->nspec == 0) P->nsamp = m, P->dt = dt, P->L = PlWelchLength(m);
  if (m != P->nsamp || fabs(dt - P->dt) > 1e-9 * dt || P->L == 0) return;
  if (P->nspec == P->capspec) {
    const int cap = 2 * P->capspec + 16;
    char **nn = realloc(P->spec_name, sizeof *nn * (size_t)cap);
    if (nn) P->spec_name = nn;
    double **ns = realloc(P->spec, sizeof *ns * (size_t)cap);
    if (ns) P->spec = ns;
    if (!nn || !ns) return;
    P->capspec = cap;
  }
  double *S = malloc(sizeof(double) * (size_t)(P->L / 2 + 1));
  char *name = malloc(strlen(rel) + strlen(col) + 2);
  if (!S || !name || PlWelchSpectrum(x + i0, m, dt, P->L, S)) {
    free(S), free(name);
    return;
  }
  sprintf(name, "%s:%s", rel, col);
  P->spec_name[P->nspec] = name, P->spec[P->nspec++] = S;
}

static void PutNumber(cJSON *o, const char *key, double v)
{
  cJSON_AddItemToObject(o, key, isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull());
}

void PlCsvNumber(FILE *f, double v)
{
  if (isfinite(v)) fprintf(f, ",%.10g", v);
  else fputc(',', f);
}

/* The statistics of every column of the time series rel (a path relative to the run's folder). */
static void FileStatistics(Pass *P, const char *full, const char *rel)
{
  PlTable tb;
  PlError err;
  if (PlTableRead(full, &tb, &err)) return;
  if (tb.ncols < 2 || strcmp(tb.names[0], "t_s") || tb.nrows < 2) {
    PlTableFree(&tb);
    return;
  }
  cJSON *fo = cJSON_CreateObject();
  const double *t = PlTableData(&tb, 0);
  for (int c = 1; c < tb.ncols; ++c) {
    PlSeriesStats st;
    if (PlSeriesStatistics(t, PlTableData(&tb, c), tb.nrows, P->t0, &st)) continue;
    cJSON *co = cJSON_CreateObject();
    PutNumber(co, "mean", st.mean);
    PutNumber(co, "std", st.std);
    PutNumber(co, "min", st.min);
    PutNumber(co, "max", st.max);
    PutNumber(co, "tz_s", st.tz);
    fprintf(P->csv, "%s,%s", rel, tb.names[c]);
    PlCsvNumber(P->csv, st.mean), PlCsvNumber(P->csv, st.std), PlCsvNumber(P->csv, st.min), PlCsvNumber(P->csv, st.max);
    PlCsvNumber(P->csv, st.tz);
    fprintf(P->csv, ",%d", st.cycles);
    static const char *const kKey[2][2] = {{"mpm_max_run", "mpm_min_run"}, {"mpm_max_3h", "mpm_min_3h"}};
    for (int h = 0; h < 2; ++h)
      for (int lo = 0; lo < 2; ++lo) {
        const double D = h ? kStormSeconds : st.duration;
        const double r = P->irregular ? PlSeriesMPM(&st, 0, lo, D) : NAN, w = P->irregular ? PlSeriesMPM(&st, 1, lo, D) : NAN;
        PlCsvNumber(P->csv, r), PlCsvNumber(P->csv, w);
        if (P->irregular) {
          cJSON *mo = cJSON_CreateObject();
          PutNumber(mo, "rayleigh", r);
          PutNumber(mo, "weibull", w);
          cJSON_AddItemToObject(co, kKey[h][lo], mo);
        }
      }
    if (P->say && !strcmp(tb.names[c], "effective_tension_N") && strstr(rel, "timeseries_top")) {
      fprintf(P->say, "  %s tension from %.6g s: mean %.4g kN, std %.4g kN, min %.4g kN, max %.4g kN, Tz %.4g s\n", rel,
              P->t0, 1e-3 * st.mean, 1e-3 * st.std, 1e-3 * st.min, 1e-3 * st.max, st.tz);
      if (P->irregular) {
        const double r = PlSeriesMPM(&st, 0, 0, kStormSeconds), w = PlSeriesMPM(&st, 1, 0, kStormSeconds);
        fprintf(P->say, "    most probable maximum over 3 h: %.4g kN (Rayleigh), ", 1e-3 * r);
        if (isfinite(w)) fprintf(P->say, "%.4g kN (Weibull of the peaks)\n", 1e-3 * w);
        else fprintf(P->say, "no Weibull fit (%d peaks in the window; it needs 20)\n", st.cycles);
      }
    }
    PlCsvNumber(P->csv, P->irregular && st.fitted[0] ? st.weibull_beta[0] : NAN);
    PlCsvNumber(P->csv, P->irregular && st.fitted[1] ? st.weibull_beta[1] : NAN);
    fputc('\n', P->csv);
    cJSON_AddItemToObject(fo, tb.names[c], co);
    AddSpectrum(P, t, PlTableData(&tb, c), tb.nrows, rel, tb.names[c]);
  }
  cJSON_AddItemToObject(P->json, rel, fo);
  PlTableFree(&tb);
}

static int CompareNames(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Every CSV of dir whose first column is t_s but energy.csv (the integrator's accounting, not a
 * response), in name order; at depth 0 also those of the line_NAME folders. */
static void Walk(Pass *P, const char *dir, const char *prefix, int depth)
{
  DIR *d = opendir(dir);
  if (!d) return;
  char **names = NULL;
  int n = 0, cap = 0;
  for (struct dirent *e; (e = readdir(d));) {
    if (e->d_name[0] == '.') continue;
    if (n == cap) {
      char **nn = realloc(names, sizeof *names * (size_t)(cap = 2 * cap + 16));
      if (!nn) break;
      names = nn;
    }
    if (!(names[n] = strdup(e->d_name))) break;
    ++n;
  }
  closedir(d);
  qsort(names, (size_t)n, sizeof *names, CompareNames);
  for (int k = 0; k < n; ++k) {
    char full[PL_PATH_MAX + 512], rel[PL_PATH_MAX];
    struct stat sb;
    snprintf(full, sizeof full, "%s/%s", dir, names[k]);
    snprintf(rel, sizeof rel, "%s%s", prefix, names[k]);
    const size_t len = strlen(names[k]);
    if (depth == 0 && !strncmp(names[k], "line_", 5) && !stat(full, &sb) && S_ISDIR(sb.st_mode)) {
      char sub[PL_PATH_MAX];
      snprintf(sub, sizeof sub, "%.200s/", names[k]);
      Walk(P, full, sub, 1);
    } else if (len > 4 && !strcmp(names[k] + len - 4, ".csv") && strcmp(names[k], "energy.csv"))
      FileStatistics(P, full, rel);
    free(names[k]);
  }
  free(names);
}

int PlRunStatistics(const char *dir, double t0, int irregular, FILE *say, PlError *err)
{
  char path[PL_PATH_MAX + 64], tmp[PL_PATH_MAX + 80];
  cJSON *root = PlOutputSummaryRead(dir);
  if (!root) {
    snprintf(err->msg, sizeof err->msg, "%.900s/summary.json: cannot read the summary back to add the statistics", dir);
    return PL_EXIT_IO;
  }
  Pass P = {.t0 = t0, .irregular = irregular, .say = say, .json = cJSON_CreateObject()};
  P.csv = PlFileOpenAtomic(dir, "statistics.csv", path, sizeof path, tmp, sizeof tmp, err);
  if (!P.csv) {
    cJSON_Delete(root), cJSON_Delete(P.json);
    return PL_EXIT_IO;
  }
  fprintf(P.csv, "# statistics of every time series from t = %.10g s on (output.statistics_start); most probable "
                 "maxima and minima (Rayleigh, Weibull fitted to the peaks) over the run and a 3-hour storm %s\n",
          t0, irregular ? "(irregular sea)" : "left empty: not an irregular sea");
  fputs("file,column,mean,std,min,max,tz_s,cycles,mpm_max_run_rayleigh,mpm_max_run_weibull,mpm_min_run_rayleigh,"
        "mpm_min_run_weibull,mpm_max_3h_rayleigh,mpm_max_3h_weibull,mpm_min_3h_rayleigh,mpm_min_3h_weibull,"
        "weibull_shape_peaks,weibull_shape_troughs\n",
        P.csv);
  Walk(&P, dir, "", 0);
  int rc = PlFileCommit(P.csv, ferror(P.csv), tmp, path, err);
  if (!rc && P.nspec) { /* spectra.csv: f_Hz, then FILE:COLUMN's density [unit^2/Hz] */
    FILE *f = PlFileOpenAtomic(dir, "spectra.csv", path, sizeof path, tmp, sizeof tmp, err);
    if (!f) rc = PL_EXIT_IO;
    else {
      fprintf(f, "# one-sided power spectral densities [unit^2/Hz] of every time series from t = %.10g s on "
                 "(Welch: %d-sample Hann segments, half overlapping)\nf_Hz", t0, P.L);
      for (int k = 0; k < P.nspec; ++k) fprintf(f, ",%s", P.spec_name[k]);
      fputc('\n', f);
      for (int i = 0; i <= P.L / 2; ++i) {
        fprintf(f, "%.10g", i / (P.L * P.dt));
        for (int k = 0; k < P.nspec; ++k) fprintf(f, ",%.10g", P.spec[k][i]);
        fputc('\n', f);
      }
      rc = PlFileCommit(f, ferror(f), tmp, path, err);
    }
  }
  for (int k = 0; k < P.nspec; ++k) free(P.spec_name[k]), free(P.spec[k]);
  free(P.spec_name), free(P.spec);
  if (!rc) {
    cJSON *so = cJSON_CreateObject();
    cJSON_AddNumberToObject(so, "start_s", t0);
    cJSON_AddBoolToObject(so, "irregular_sea", irregular);
    cJSON_AddItemToObject(so, "series", P.json);
    cJSON_DeleteItemFromObjectCaseSensitive(root, "statistics");
    cJSON_AddItemToObject(root, "statistics", so);
    rc = PlOutputSummaryWrite(dir, root, err);
  } else
    cJSON_Delete(P.json);
  cJSON_Delete(root);
  return rc;
}
