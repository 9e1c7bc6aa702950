/*
 * test_fatigue.c - rainflow counting, the DNV-RP-C203 S-N curves and Miner's sum
 * (output/fatigue.c) against published references and closed forms:
 *   - rainflow: the worked example of ASTM E1049-85, 5.4.4 (its Fig. 6, the load history
 *     -2, 1, -3, 5, -1, 3, -4, 4, -2 and the counts of its table of ranges: 3 (1/2), 4 (1 1/2),
 *     6 (1/2), 8 (1), 9 (1/2)); the history and counts as quoted in the test suites of DNV's
 *     qats (qats/rainflow.py, "section 5.4.4 in ASTM E1049 (2011)") and of a Go port citing
 *     "Figure 6 of ASTM E1049 85"), reproduced exactly; and an invariant of any history: every
 *     range between consecutive reversals is counted once, as half cycles, so the sum of
 *     2 x count is the number of reversals less one;
 *   - S-N curves, DNV-RP-C203 April 2016: each curve's knee stress against the tables' own
 *     fatigue limit column (at 10^7 cycles; 52.63 MPa for D, rounded to 0.01 MPa, and the
 *     tables' log a rounded to 0.001, hence 5e-4 relative), the two branches meeting at the
 *     knee (log N of the second branch at the first's knee stress is log n_knee to the tables'
 *     rounding, 0.002), the thickness effect (t/t_ref)^k and the SCF;
 *   - Miner's sum of a narrow-banded Gaussian stress process with a single-slope curve
 *     N = a S^-m against the closed form for Rayleigh-distributed ranges,
 *     D = nu0 T (2 sqrt 2 sigma)^m Gamma(1 + m/2) / a (nu0 the mean up-crossing rate
 *     sqrt(m2/m0) / 2 pi), within 5 %;
 *   - the wall stress's sign convention (a moment about t2 stretches the +t3 fibre).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include "pipelay/fatigue.h"
#include "pipelay/materials.h"
#include "check.h"

static uint64_t g_state = 0x2545f4914f6cdd1dull;
static double Uniform(void) /* xorshift64*, in [0, 1) */
{
  g_state ^= g_state >> 12, g_state ^= g_state << 25, g_state ^= g_state >> 27;
  return (double)((g_state * 2685821657736338717ull) >> 11) * 0x1.0p-53;
}

static void TestAstmExample(void)
{
  const double x[] = {-2, 1, -3, 5, -1, 3, -4, 4, -2};
  double r[9], c[9];
  const int n = PlRainflow(x, 9, r, c);
  double count[11] = {0};
  for (int i = 0; i < n; ++i) {
    CHECK_TRUE(r[i] == floor(r[i]) && r[i] >= 0 && r[i] <= 10, "ASTM example: integer ranges");
    if (r[i] >= 0 && r[i] <= 10) count[(int)r[i]] += c[i];
  }
  const double want[11] = {0, 0, 0, 0.5, 1.5, 0, 0.5, 0, 1.0, 0.5, 0};
  for (int k = 0; k <= 10; ++k) {
    char what[64];
    snprintf(what, sizeof what, "ASTM E1049 Fig. 6: cycles of range %d", k);
    CHECK_ABS(count[k], want[k], 0.0, what);
  }
  /* samples between the reversals (a rising ramp, a plateau) change nothing */
  const double y[] = {-2, -1, 0, 1, 1, -3, 5, 2, -1, 3, -4, 4, -2};
  double r2[13], c2[13];
  const int n2 = PlRainflow(y, 13, r2, c2);
  double count2[11] = {0};
  for (int i = 0; i < n2; ++i) count2[(int)r2[i]] += c2[i];
  for (int k = 0; k <= 10; ++k) CHECK_ABS(count2[k], want[k], 0.0, "ASTM example with intermediate samples");
}

static void TestRainflowInvariant(void)
{
  enum { n = 5001 };
  static double x[n], r[n], c[n];
  for (int i = 0; i < n; ++i) x[i] = Uniform() - 0.5 + 0.3 * sin(0.01 * i);
  const int nc = PlRainflow(x, n, r, c);
  int rev = 0; /* reversals: the ends and the turns */
  for (int i = 0; i < n; ++i)
    if (i == 0 || i == n - 1 || (x[i] - x[i - 1]) * (x[i + 1] - x[i]) < 0.0) ++rev;
  double half = 0.0;
  for (int i = 0; i < nc; ++i) half += 2.0 * c[i];
  CHECK_ABS(half, rev - 1, 0.0, "rainflow: 2 x the counts = reversals - 1");
  double lo = x[0], hi = x[0], rmax = 0.0;
  for (int i = 0; i < n; ++i) lo = fmin(lo, x[i]), hi = fmax(hi, x[i]);
  for (int i = 0; i < nc; ++i) rmax = fmax(rmax, r[i]);
  CHECK_ABS(rmax, hi - lo, 1e-15, "rainflow: the largest range is the history's");
}

static void TestSNCurves(void)
{
  /* the fatigue limits at 10^7 cycles [MPa] of tables 2-1 and 2-2 (the same column), B1 ... W3 */
  const double fl[] = {106.97, 93.59, 73.10, 65.50, 58.48, 52.63, 46.78, 41.52, 36.84, 32.75, 29.24, 26.32, 23.39, 21.05};
  int k = 0;
  for (; PlSNCurveNames[k]; ++k) {
    PlSNCurve air, cp, fc;
    CHECK_TRUE(!PlSNCurveGet(k, PL_SN_AIR, &air) && !PlSNCurveGet(k, PL_SN_SEAWATER_CP, &cp) &&
                   !PlSNCurveGet(k, PL_SN_FREE_CORROSION, &fc), "S-N curve exists");
    char what[96];
    snprintf(what, sizeof what, "curve %s in air: knee at 10^7 cycles is the table's fatigue limit", PlSNCurveNames[k]);
    CHECK_REL(PlSNKneeStress(&air), fl[k], 5e-4, what);
    snprintf(what, sizeof what, "curve %s in air: the branches meet at the knee", PlSNCurveNames[k]);
    CHECK_ABS(air.log_a2 - air.m2 * log10(PlSNKneeStress(&air)), 7.0, 2e-3, what);
    snprintf(what, sizeof what, "curve %s with CP: the branches meet at 10^6 cycles", PlSNCurveNames[k]);
    CHECK_ABS(cp.log_a2 - cp.m2 * log10(PlSNKneeStress(&cp)), 6.0, 2e-3, what);
    snprintf(what, sizeof what, "curve %s with CP: the fatigue limit at 10^7 cycles", PlSNCurveNames[k]);
    CHECK_REL(PlSNCycles(&cp, fl[k] * 1e6, 0.02, 1.0), 1e7, 0.01, what); /* 0.01: log N to 0.004 */
    CHECK_TRUE(isnan(PlSNKneeStress(&fc)), "free corrosion: one slope");
    /* either side of the knee: the branch of its side */
    const double sk = PlSNKneeStress(&air);
    CHECK_REL(PlSNCycles(&air, 2e6 * sk, 0.02, 1.0), pow(10.0, air.log_a1 - air.m1 * log10(2.0 * sk)), 1e-12, "S-N: above the knee");
    CHECK_REL(PlSNCycles(&air, 0.5e6 * sk, 0.02, 1.0), pow(10.0, air.log_a2 - air.m2 * log10(0.5 * sk)), 1e-12, "S-N: below the knee");
  }
  CHECK_TRUE(k == 14, "S-N: 14 curves B1 ... W3");
  PlSNCurve D;
  PlSNCurveGet(5, PL_SN_AIR, &D);
  CHECK_REL(PlSNKneeStress(&D), 52.63, 5e-4, "curve D in air: 52.63 MPa at 10^7 cycles (table 2-1)");
  /* thickness: 50 mm against 25 mm (and thinner walls as t_ref), k = 0.20; the SCF */
  const double s = 100e6;
  CHECK_REL(PlSNCycles(&D, s, 0.050, 1.0), PlSNCycles(&D, s, 0.025, 1.0) * pow(2.0, -0.2 * 3.0), 1e-12, "thickness effect (t/t_ref)^k");
  CHECK_REL(PlSNCycles(&D, s, 0.010, 1.0), PlSNCycles(&D, s, 0.025, 1.0), 1e-15, "thinner walls: t_ref");
  CHECK_REL(PlSNCycles(&D, s, 0.020, 1.3), PlSNCycles(&D, 1.3 * s, 0.020, 1.0), 1e-12, "the SCF multiplies the range");
}

/* x[0..n-1] at i dt: a narrow-banded Gaussian process of variance sigma^2 (K components of
 * amplitude sigma sqrt(2/K), frequencies uniform in (1 +- half) w0, random phases); the mean
 * up-crossing rate sqrt(m2/m0) / 2 pi of its spectrum in *nu0. */
static void NarrowBand(double *x, int n, double dt, double w0, double half, double sigma, double *nu0)
{
  enum { K = 200 };
  double w[K], ph[K], m2 = 0.0;
  const double a = sigma * sqrt(2.0 / K);
  for (int k = 0; k < K; ++k) {
    w[k] = w0 * (1.0 - half + 2.0 * half * Uniform()), ph[k] = 2.0 * M_PI * Uniform();
    m2 += w[k] * w[k] / K;
  }
  *nu0 = sqrt(m2) / (2.0 * M_PI);
  for (int i = 0; i < n; ++i) {
    double s = 0.0;
    for (int k = 0; k < K; ++k) s += cos(w[k] * i * dt + ph[k]);
    x[i] = a * s;
  }
}

static void TestNarrowBandDamage(void)
{
  const double w0 = 1.0, dt = 2.0 * M_PI / w0 / 40.0, sigma = 30e6; /* [Pa] */
  const int n = 20000 * 40;
  double *x = malloc(sizeof(double) * n), *r = malloc(sizeof(double) * n), *c = malloc(sizeof(double) * n), nu0;
  NarrowBand(x, n, dt, w0, 0.1, sigma, &nu0);
  const int nc = PlRainflow(x, n, r, c);
  const double T = (n - 1) * dt;
  for (int m = 3; m <= 4; ++m) {
    const PlSNCurve curve = {.m1 = m, .log_a1 = 12.0, .m2 = 0.0};
    const double D = PlMinerDamage(&curve, r, c, nc, 0.02, 1.0);
    const double Dc = nu0 * T * pow(2.0 * sqrt(2.0) * 1e-6 * sigma, m) * tgamma(1.0 + m / 2.0) / pow(10.0, 12.0);
    char what[96];
    snprintf(what, sizeof what, "narrow band: Miner damage, m = %d, against nu0 T (2 sqrt2 s)^m G(1+m/2)/a", m);
    CHECK_REL(D, Dc, 0.05, what);
    printf("narrow band m = %d: D %.6g, closed form %.6g (%+.2f %%)\n", m, D, Dc, 100.0 * (D / Dc - 1.0));
  }
  free(x), free(r), free(c);
}

static void TestWallStress(void)
{
  double A, I;
  PlPipeAreaInertia(0.3, 0.02, &A, &I);
  const double ro = 0.15;
  CHECK_REL(PlFibreStress(1e6, 0, 0, 1.0, A, I, ro), 1e6 / A, 1e-15, "wall stress: N / A");
  CHECK_REL(PlFibreStress(0, 1e5, 0, 0.5 * M_PI, A, I, ro), 1e5 * ro / I, 1e-15, "M2 > 0 stretches the +t3 fibre");
  CHECK_REL(PlFibreStress(0, 0, 1e5, 0.0, A, I, ro), -1e5 * ro / I, 1e-15, "M3 > 0 compresses the +t2 fibre");
}

int main(void)
{
  TestAstmExample();
  TestRainflowInvariant();
  TestSNCurves();
  TestNarrowBandDamage();
  TestWallStress();
  return CHECK_DONE();
}
