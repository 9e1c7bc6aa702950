/*
 * test_statistics.c - the statistics of time series and the most probable maxima
 * (output/statistics.c) against closed forms:
 *   - a sine m + A sin(2 pi t / P) over whole periods: mean m, standard deviation A / sqrt 2,
 *     Tz = P, extremes m +- A;
 *   - a narrow-banded Gaussian process (200 components with random phases and frequencies in
 *     1 +- 20 % of omega_0, variance 1, 20000 cycles): the standard deviation 1, Tz = 2 pi sqrt(m0 / m2) of its
 *     spectrum, peaks Rayleigh-distributed (the fitted Weibull shape 2), so that the Weibull
 *     fit's most probable maximum is the Rayleigh one, sqrt(2 ln N);
 *   - the largest value over N = 150 cycles, from 300 realisations of a process of 1 +- 25 %
 *     of omega_0: its median is the closed form of the largest of N independent Rayleigh
 *     peaks, P(max <= p) = (1 - exp(-p^2/2))^N = 1/2 (1.9 % below it), and sqrt(2 ln N)
 *     approximates that distribution's mode (the MPM's definition, checked against the exact
 *     mode). The peaks of a narrower band are not independent over so short a record: at
 *     1 +- 5 % (an envelope that changes over some 10 cycles) the median was 17 % below, so
 *     the Rayleigh MPM of a short record of a very narrow-banded response is conservative;
 *   - Welch's spectrum: a sine's power A^2/2 in its bin (Parseval), white noise's flat level.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include "pipelay/output.h"
#include "check.h"

static uint64_t g_state = 0x9e3779b97f4a7c15ull;
static double Uniform(void) /* xorshift64*, in [0, 1) */
{
  g_state ^= g_state >> 12, g_state ^= g_state << 25, g_state ^= g_state >> 27;
  return (double)((g_state * 2685821657736338717ull) >> 11) * 0x1.0p-53;
}

static void TestSine(void)
{
  const double P = 7.0, A = 3.0, m = 10.0;
  const int per = 1000, n = 50 * per + 1;
  double *t = malloc(sizeof(double) * n), *x = malloc(sizeof(double) * n);
  for (int i = 0; i < n; ++i) t[i] = P * i / per, x[i] = m + A * sin(2.0 * M_PI * i / per);
  PlSeriesStats st;
  CHECK_TRUE(!PlSeriesStatistics(t, x, n, 0.0, &st), "sine: statistics");
  CHECK_ABS(st.mean, m, 1e-12 * m, "sine: mean");
  CHECK_REL(st.std, A / sqrt(2.0), 1e-12, "sine: standard deviation A / sqrt 2");
  CHECK_REL(st.tz, P, 1e-9, "sine: zero up-crossing period");
  CHECK_REL(st.max, m + A, 1e-14, "sine: max");
  CHECK_REL(st.min, m - A, 1e-14, "sine: min");
  CHECK_TRUE(st.cycles >= 49 && st.cycles <= 50, "sine: 49 or 50 whole cycles counted");
  /* from a start time on: the window [3.5 P, 50 P] */
  CHECK_TRUE(!PlSeriesStatistics(t, x, n, 3.5 * P, &st), "sine: statistics from 3.5 P");
  CHECK_REL(st.duration, 46.5 * P, 1e-12, "sine: the window's duration");
  CHECK_REL(st.tz, P, 1e-9, "sine: Tz from 3.5 P on");
  free(t), free(x);
}

/* x[0..n-1] at t[i] = i dt: a narrow-banded process of variance 1, Gaussian as K grows (K <= 200
 * components, amplitudes sqrt(2/K), frequencies uniform in (1 +- half) w0, phases uniform; a
 * sum of K equal sinusoids has a kurtosis 3 - 3/(2K), tails lighter than a Gaussian's); m2 / m0
 * of its spectrum in *w2. */
static void NarrowBand(double *x, int n, double dt, double w0, double half, int K, double *w2)
{
  double w[200], ph[200], a = sqrt(2.0 / K);
  *w2 = 0.0;
  for (int k = 0; k < K; ++k) {
    w[k] = w0 * (1.0 - half + 2.0 * half * Uniform()), ph[k] = 2.0 * M_PI * Uniform();
    *w2 += w[k] * w[k] / K;
  }
  for (int i = 0; i < n; ++i) {
    double s = 0.0;
    for (int k = 0; k < K; ++k) s += cos(w[k] * i * dt + ph[k]);
    x[i] = a * s;
  }
}

static void TestNarrowBand(void)
{
  const double w0 = 1.0, T0 = 2.0 * M_PI / w0, dt = T0 / 16.0;
  const int n = 20000 * 16; /* a record long against the envelope's correlation: the variance's
                               standard error about sqrt(2 pi / (T B)) = 0.4 % (B the band) */
  double *t = malloc(sizeof(double) * n), *x = malloc(sizeof(double) * n), w2;
  for (int i = 0; i < n; ++i) t[i] = i * dt;
  NarrowBand(x, n, dt, w0, 0.2, 200, &w2);
  PlSeriesStats st;
  CHECK_TRUE(!PlSeriesStatistics(t, x, n, 0.0, &st), "narrow band: statistics");
  CHECK_REL(st.std, 1.0, 0.03, "narrow band: standard deviation sqrt(m0) = 1");
  CHECK_REL(st.tz, 2.0 * M_PI / sqrt(w2), 0.01, "narrow band: Tz = 2 pi sqrt(m0 / m2)");
  CHECK_TRUE(st.fitted[0] && st.fitted[1], "narrow band: the peaks' and troughs' Weibull fits");
  CHECK_REL(st.weibull_beta[0], 2.0, 0.1, "narrow band: peaks Rayleigh (Weibull shape 2)");
  CHECK_REL(st.weibull_beta[1], 2.0, 0.1, "narrow band: troughs Rayleigh (Weibull shape 2)");
  const double D = 3.0 * 3600.0, N = D / st.tz;
  CHECK_REL(PlSeriesMPM(&st, 0, 0, D), st.mean + st.std * sqrt(2.0 * log(N)), 1e-14, "Rayleigh MPM formula");
  CHECK_REL(PlSeriesMPM(&st, 1, 0, D), PlSeriesMPM(&st, 0, 0, D), 0.04,
            "narrow band: the Weibull fit's MPM over 3 h is the Rayleigh one");
  CHECK_REL(PlSeriesMPM(&st, 1, 1, D), PlSeriesMPM(&st, 0, 1, D), 0.04,
            "narrow band: the Weibull fit's most probable minimum is the Rayleigh one");
  free(t), free(x);
}

static int CompareDouble(const void *a, const void *b)
{
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void TestMaxima(void)
{
  enum { R = 300, CYC = 150, PER = 20 };
  const double w0 = 1.0, dt = 2.0 * M_PI / w0 / PER;
  const int n = CYC * PER;
  double *t = malloc(sizeof(double) * n), *x = malloc(sizeof(double) * n), mx[R], ncyc = 0.0, mpm = 0.0, w2;
  for (int i = 0; i < n; ++i) t[i] = i * dt;
  for (int r = 0; r < R; ++r) {
    NarrowBand(x, n, dt, w0, 0.25, 40, &w2);
    PlSeriesStats st;
    PlSeriesStatistics(t, x, n, 0.0, &st);
    mx[r] = st.max;
    ncyc += st.duration / st.tz / R;
    mpm += PlSeriesMPM(&st, 0, 0, st.duration) / R;
  }
  qsort(mx, R, sizeof *mx, CompareDouble);
  const double median = 0.5 * (mx[R / 2 - 1] + mx[R / 2]);
  const double want = sqrt(-2.0 * log(1.0 - pow(0.5, 1.0 / ncyc)));
  CHECK_REL(median, want, 0.03, "the median of the largest of N cycles: (1 - exp(-p^2/2))^N = 1/2");
  /* the exact mode of the largest of N Rayleigh peaks, f(p) = N p e^{-p^2/2} (1 - e^{-p^2/2})^(N-1),
   * by golden section on ln f; sqrt(2 ln N) is its asymptote */
  double lo = 1.0, hi = 6.0;
  const double g = 0.5 * (sqrt(5.0) - 1.0);
#define LNF(p) (log(p) - 0.5 * (p) * (p) + (ncyc - 1.0) * log(1.0 - exp(-0.5 * (p) * (p))))
  for (int it = 0; it < 200; ++it) {
    const double a = hi - g * (hi - lo), b = lo + g * (hi - lo);
    if (LNF(a) > LNF(b)) hi = b;
    else lo = a;
  }
#undef LNF
  CHECK_REL(sqrt(2.0 * log(ncyc)), 0.5 * (lo + hi), 0.02, "sqrt(2 ln N) against the exact mode of the maximum");
  CHECK_REL(mpm, 0.5 * (lo + hi), 0.04, "the run's Rayleigh MPM against the exact mode (mean over realisations)");
  free(t), free(x);
}

/* Welch's spectrum: a sine of amplitude A at f0 has its power A^2/2 in the bins about f0
 * (Parseval: the integral of S is the variance, 1e-3 with the Hann window's leakage) and its
 * peak in f0's bin; white noise of variance s^2 sampled at dt has the flat level 2 s^2 dt. */
static void TestSpectrum(void)
{
  const double dt = 0.1, A = 2.0, f0 = 0.25;
  const int n = 8192, L = PlWelchLength(n);
  CHECK_TRUE(L == 2048, "Welch: 2048-sample segments for 8192 samples");
  double *x = malloc(sizeof(double) * n), *S = malloc(sizeof(double) * (L / 2 + 1));
  for (int i = 0; i < n; ++i) x[i] = 3.0 + A * sin(2.0 * M_PI * f0 * i * dt + 0.3);
  CHECK_TRUE(!PlWelchSpectrum(x, n, dt, L, S), "Welch: spectrum");
  double m0 = 0.0;
  int kmax = 0;
  for (int k = 0; k <= L / 2; ++k) {
    m0 += S[k] / (L * dt);
    if (S[k] > S[kmax]) kmax = k;
  }
  CHECK_REL(m0, 0.5 * A * A, 1e-3, "Welch: a sine's spectrum integrates to A^2/2");
  CHECK_ABS(kmax / (L * dt), f0, 0.5 / (L * dt), "Welch: a sine's peak in its bin");
  double level = 0.0, var = 0.0;
  for (int i = 0; i < n; ++i) { /* uniform noise in [-1, 1): variance 1/3 */
    x[i] = 2.0 * Uniform() - 1.0;
    var += x[i] * x[i] / n;
  }
  PlWelchSpectrum(x, n, dt, L, S);
  for (int k = 1; k < L / 2; ++k) level += S[k] / (L / 2 - 1);
  CHECK_REL(level, 2.0 * var * dt, 0.05, "Welch: white noise's level 2 s^2 dt");
  free(x), free(S);
}

int main(void)
{
  TestSpectrum();
  TestSine();
  TestNarrowBand();
  TestMaxima();
  return CHECK_DONE();
}
