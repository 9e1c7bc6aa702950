/*
 * test_waves.c - the sea's kinematics service (models/waves.c) against exact linear theory,
 * closed forms computed here, DNV-RP-C205's spectra, the reference notes' check values
 * (/work/shared/reference-sea-slay-dnv.md s1, held at their printed precision), Stokes'
 * deep-water expansion of the wave speed (Fenton 1985) and the stream-function solution's own
 * invariants (free-surface conditions between the collocation points, mean level, linear
 * limit, convergence in the number of terms).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "pipelay/waves.h"

static const double kPi = 3.14159265358979323846;

/* k h by bisection on y tanh y = omega^2 h / g (independent of the module's Newton). */
static double KBisect(double omega, double h, double g)
{
  const double x = omega * omega * h / g;
  double lo = x, hi = x + 1.0; /* y tanh y < y, and (x+1) tanh(x+1) >= x */
  while (hi * tanh(hi) < x) hi *= 2.0;
  if (lo * tanh(lo) > x) lo = 0.0;
  for (int i = 0; i < 200; ++i) {
    const double m = 0.5 * (lo + hi);
    if (m * tanh(m) < x) lo = m;
    else hi = m;
  }
  return 0.5 * (lo + hi) / h;
}

static PlWaves *Make(double depth, PlWaveStretching st, const PlWaveTrain *tr, int n)
{
  char err[512];
  PlWaves *w = PlWavesCreate(depth, 9.81, 1025.0, st, tr, n, err, sizeof err);
  if (!w) fprintf(stderr, "PlWavesCreate: %s\n", err);
  return w;
}

static PlWaveTrain Airy(double a, double T, double heading, double phase)
{
  PlWaveTrain tr;
  memset(&tr, 0, sizeof tr);
  tr.kind = PL_WAVE_AIRY, tr.amplitude = a, tr.period = T, tr.heading_deg = heading, tr.phase_deg = phase;
  return tr;
}

/* ---- 1. dispersion ------------------------------------------------------------------------- */
static void TestDispersion(void)
{
  const double w = 2.0 * kPi / 10.0;
  /* the notes' table (T = 10 s) at its printed precision */
  const double kdeep = PlWaveNumber(w, INFINITY, 9.81), k100 = PlWaveNumber(w, 100.0, 9.81);
  const double k100b = PlWaveNumber(w, 100.0, 9.80665), k20 = PlWaveNumber(w, 20.0, 9.81);
  CHECK_ABS(kdeep, 0.040243, 5e-7, "deep k (notes)");
  CHECK_ABS(2.0 * kPi / kdeep, 156.131, 5e-4, "deep L (notes)");
  CHECK_ABS(k100, 0.040269, 5e-7, "k h=100 (notes)");
  CHECK_ABS(2.0 * kPi / k100, 156.032, 5e-4, "L h=100 (notes)");
  CHECK_ABS(w / k100, 15.603, 5e-4, "c h=100 (notes)");
  CHECK_ABS(k100b, 0.040282, 5e-7, "k h=100 g=9.80665 (notes)");
  CHECK_ABS(k20, 0.051826, 5e-7, "k h=20 (notes)");
  CHECK_ABS(2.0 * kPi / k20, 121.237, 5e-4, "L h=20 (notes)");
  /* machine precision against an independent bisection, shallow to deep */
  const double hs[] = {1.0, 5.0, 20.0, 100.0, 300.0, 1000.0, 5000.0};
  const double Ts[] = {2.0, 5.0, 10.0, 20.0, 60.0};
  for (size_t i = 0; i < sizeof hs / sizeof *hs; ++i)
    for (size_t j = 0; j < sizeof Ts / sizeof *Ts; ++j) {
      const double om = 2.0 * kPi / Ts[j], k = PlWaveNumber(om, hs[i], 9.81);
      CHECK_REL(k, KBisect(om, hs[i], 9.81), 1e-13, "k against bisection");
      CHECK_REL(9.81 * k * tanh(k * hs[i]), om * om, 1e-14, "omega^2 = g k tanh kh");
    }
  CHECK_REL(PlWaveNumber(w, 1e6, 9.81), w * w / 9.81, 1e-15, "deep-water limit");
}

/* ---- 2. Airy kinematics against the closed forms -------------------------------------------- */
static void TestAiry(void)
{
  /* the notes' amplitudes: a = 1 m, T = 10 s, h = 100 m; u and p at theta = 0, w and the
   * accelerations at theta = pi/2 (t = -T/4 at the origin) */
  PlWaveTrain tr = Airy(1.0, 10.0, 0.0, 0.0);
  PlWaves *w = Make(100.0, PL_STRETCH_VERTICAL, &tr, 1);
  const double zs[] = {0.0, -10.0, -50.0, -100.0};
  const double u_n[] = {0.62872, 0.42048, 0.08542, 0.02241}, w_n[] = {0.62832, 0.41988, 0.08243, 0.0};
  const double ah_n[] = {0.39504, 0.26419, 0.05367, 0.01408}, az_n[] = {0.39478, 0.26382, 0.05179, 0.0};
  const double p_n[] = {1.0, 0.66878, 0.13587, 0.03565};
  for (int i = 0; i < 4; ++i) {
    PlWaveKin k0, k1;
    const double x[3] = {0.0, 0.0, zs[i]};
    PlWavesKinematics(w, x, 0.0, &k0);
    PlWavesKinematics(w, x, -2.5, &k1);
    CHECK_ABS(k0.u[0], u_n[i], 5e-6, "Airy u (notes)");
    CHECK_ABS(k0.p / (1025.0 * 9.81), p_n[i], 5e-6, "Airy p/(rho g a) (notes)");
    CHECK_ABS(k1.u[2], w_n[i], 5e-6, "Airy w (notes)");
    CHECK_ABS(k1.a[0], ah_n[i], 5e-6, "Airy a_h (notes)");
    CHECK_ABS(-k0.a[2], az_n[i], 5e-6, "Airy a_z (notes)");
  }
  PlWavesDestroy(w);
  /* height H = 2 a is the same wave */
  {
    PlWaveTrain th = Airy(0.0, 10.0, 0.0, 0.0);
    th.height = 2.0;
    PlWaves *wa = Make(100.0, PL_STRETCH_VERTICAL, &tr, 1), *wh = Make(100.0, PL_STRETCH_VERTICAL, &th, 1);
    const double x[3] = {7.0, 3.0, -12.0};
    PlWaveKin ka, kh;
    PlWavesKinematics(wa, x, 1.7, &ka);
    PlWavesKinematics(wh, x, 1.7, &kh);
    CHECK_TRUE(memcmp(&ka, &kh, sizeof ka) == 0, "Airy: height 2 m = amplitude 1 m");
    PlWavesDestroy(wa);
    PlWavesDestroy(wh);
  }
  /* every output at arbitrary points, headings and depths against cosh/sinh closed forms */
  const double depths[] = {10.0, 20.0, 100.0, 1000.0};
  for (size_t d = 0; d < sizeof depths / sizeof *depths; ++d) {
    const double h = depths[d], a = 1.3, T = 8.0, beta = 30.0 * kPi / 180.0, phi = 0.7;
    tr = Airy(a, T, 30.0, phi * 180.0 / kPi);
    w = Make(h, PL_STRETCH_VERTICAL, &tr, 1);
    const double om = 2.0 * kPi / T, k = KBisect(om, h, 9.81);
    for (int s = 0; s < 5; ++s) {
      const double x[3] = {13.0 * s - 20.0, 7.0 - 3.0 * s, -h * (0.05 + 0.2 * s)}, t = 3.3 * s + 1.0;
      const double th = k * (x[0] * cos(beta) + x[1] * sin(beta)) - om * t + phi;
      const double C = cosh(k * (x[2] + h)) / sinh(k * h), S = sinh(k * (x[2] + h)) / sinh(k * h);
      const double P = cosh(k * (x[2] + h)) / cosh(k * h);
      PlWaveKin kk;
      PlWavesKinematics(w, x, t, &kk);
      const double uh = om * a * C * cos(th), ah = om * om * a * C * sin(th), sc = om * a / tanh(k * h);
      CHECK_ABS(kk.eta, a * cos(th), 1e-12, "Airy eta");
      CHECK_ABS(kk.u[0], uh * cos(beta), 1e-12 * sc, "Airy u_x");
      CHECK_ABS(kk.u[1], uh * sin(beta), 1e-12 * sc, "Airy u_y");
      CHECK_ABS(kk.u[2], om * a * S * sin(th), 1e-12 * sc, "Airy w");
      CHECK_ABS(kk.a[0], ah * cos(beta), 1e-12 * om * sc, "Airy a_x");
      CHECK_ABS(kk.a[1], ah * sin(beta), 1e-12 * om * sc, "Airy a_y");
      CHECK_ABS(kk.a[2], -om * om * a * S * cos(th), 1e-12 * om * sc, "Airy a_z");
      CHECK_ABS(kk.p, 1025.0 * 9.81 * a * P * cos(th), 1e-12 * 1025.0 * 9.81 * a, "Airy p");
      CHECK_TRUE(kk.wet, "Airy wet below the trough");
    }
    PlWavesDestroy(w);
  }
}

/* ---- 3. gradient, acceleration, their gradient and the surface's slope against central
 * differences; the values-only call equal to the full one ---- */
static void CheckDerivatives(PlWaves *w, const PlCurrent *cur, const double x[3], double t, const char *what)
{
  PlWaveKin k, kp, km;
  PlWavesFluid(w, cur, x, t, &k);
  if (!k.wet) {
    fprintf(stderr, "%s: point dry\n", what);
    ++pl_check_failures;
    return;
  }
  PlWaveKin kv; /* the values alone: the same to the bit */
  PlWavesFluidValues(w, cur, x, t, &kv);
  int same = kv.wet == k.wet && kv.p == k.p && kv.eta == k.eta && kv.deta_dx[0] == k.deta_dx[0] &&
             kv.deta_dx[1] == k.deta_dx[1];
  for (int i = 0; i < 3; ++i) same = same && kv.u[i] == k.u[i] && kv.a[i] == k.a[i];
  char vmsg[160];
  snprintf(vmsg, sizeof vmsg, "%s: PlWavesFluidValues' u, a, p, eta, slope and wet are PlWavesFluid's to the bit", what);
  CHECK_TRUE(same, vmsg);
  double scale = 0.0, ascale = 0.0, escale = 0.0;
  for (int i = 0; i < 9; ++i) scale = fmax(scale, fabs(k.du_dx[i])), ascale = fmax(ascale, fabs(k.da_dx[i]));
  for (int j = 0; j < 2; ++j) escale = fmax(escale, fabs(k.deta_dx[j]));
  const double hx = 1e-4, ht = 1e-4;
  char msg[160];
  for (int j = 0; j < 3; ++j) {
    double xp[3] = {x[0], x[1], x[2]}, xm[3] = {x[0], x[1], x[2]};
    xp[j] += hx, xm[j] -= hx;
    PlWavesFluid(w, cur, xp, t, &kp);
    PlWavesFluid(w, cur, xm, t, &km);
    for (int i = 0; i < 3; ++i) {
      snprintf(msg, sizeof msg, "%s: du_%d/dx_%d against central differences", what, i, j);
      CHECK_ABS(k.du_dx[i * 3 + j], (kp.u[i] - km.u[i]) / (2.0 * hx), 1e-6 * scale + 1e-9, msg);
      snprintf(msg, sizeof msg, "%s: da_%d/dx_%d against central differences", what, i, j);
      CHECK_ABS(k.da_dx[i * 3 + j], (kp.a[i] - km.a[i]) / (2.0 * hx), 1e-6 * ascale + 1e-9, msg);
    }
    if (j < 2) {
      snprintf(msg, sizeof msg, "%s: d eta/dx_%d against central differences", what, j);
      CHECK_ABS(k.deta_dx[j], (kp.eta - km.eta) / (2.0 * hx), 1e-6 * escale + 1e-9, msg);
    }
  }
  PlWavesFluid(w, cur, x, t + ht, &kp);
  PlWavesFluid(w, cur, x, t - ht, &km);
  double as = 0.0;
  for (int i = 0; i < 3; ++i) as = fmax(as, fabs(k.a[i]));
  for (int i = 0; i < 3; ++i) {
    snprintf(msg, sizeof msg, "%s: a_%d = du_%d/dt against central differences", what, i, i);
    CHECK_ABS(k.a[i], (kp.u[i] - km.u[i]) / (2.0 * ht), 1e-6 * as + 1e-9, msg);
  }
}

static void TestDerivatives(void)
{
  PlWaveTrain tr[2];
  tr[0] = Airy(2.0, 9.0, 25.0, 40.0);
  tr[1] = Airy(0.8, 14.0, -60.0, 10.0);
  const PlWaveStretching sts[] = {PL_STRETCH_VERTICAL, PL_STRETCH_WHEELER, PL_STRETCH_EXTRAPOLATION};
  const char *names[] = {"vertical", "Wheeler", "extrapolation"};
  char what[96];
  for (int s = 0; s < 3; ++s) {
    PlWaves *w = Make(40.0, sts[s], tr, 2);
    /* below z = 0, and above it under a crest (eta = 2.8 at the origin at the time chosen) */
    const double t0 = 0.0;
    PlWaveKin k;
    const double xc[3] = {0.0, 0.0, 0.0};
    PlWavesKinematics(w, xc, t0, &k);
    const double pts[][3] = {{3.0, -2.0, -5.0}, {-10.0, 4.0, -35.0}, {0.0, 0.0, 0.5 * k.eta}};
    for (int p = 0; p < 3; ++p) {
      snprintf(what, sizeof what, "two Airy trains, %s, point %d", names[s], p);
      CheckDerivatives(w, NULL, pts[p], t0, what);
    }
    PlWavesDestroy(w);
  }
  /* a spread JONSWAP sea plus a uniform current in its ramp (the ramp's rate in a) */
  PlWaveTrain js;
  memset(&js, 0, sizeof js);
  js.kind = PL_WAVE_JONSWAP, js.hs = 3.0, js.tp = 9.0, js.gamma = 3.3, js.n_components = 60, js.n_directions = 5;
  js.spreading_s = 4.0, js.heading_deg = 45.0, js.seed = 7;
  PlCurrent cur;
  memset(&cur, 0, sizeof cur);
  cur.kind = PL_CURRENT_SHEARED, cur.surface_speed = 1.2, cur.seabed_speed = 0.2, cur.direction_deg = 80.0;
  cur.start_time = 0.0, cur.ramp_time = 50.0;
  for (int s = 0; s < 3; ++s) {
    PlWaves *w = Make(60.0, sts[s], &js, 1);
    snprintf(what, sizeof what, "spread JONSWAP + current, %s", names[s]);
    const double x[3] = {5.0, -7.0, -12.0};
    CheckDerivatives(w, &cur, x, 20.0, what);
    PlWavesDestroy(w);
  }
}

/* ---- 4. spectra ---------------------------------------------------------------------------- */
static double Simpson(const PlWaveTrain *tr, double a, double b, int n, int moment)
{
  double s = 0.0;
  const double hh = (b - a) / n;
  for (int i = 0; i <= n; ++i) {
    const double w = a + i * hh, f = PlWaveSpectrum(tr, w) * pow(w, moment);
    s += (i == 0 || i == n ? 1.0 : (i % 2 ? 4.0 : 2.0)) * f;
  }
  return s * hh / 3.0;
}

/* In-place radix-2 FFT of n (a power of 2) complex values (re, im interleaved). */
static void Fft(double *x, int n)
{
  for (int i = 1, j = 0; i < n; ++i) {
    int bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      double t = x[2 * i];
      x[2 * i] = x[2 * j], x[2 * j] = t;
      t = x[2 * i + 1], x[2 * i + 1] = x[2 * j + 1], x[2 * j + 1] = t;
    }
  }
  for (int len = 2; len <= n; len <<= 1) {
    const double ang = -2.0 * kPi / len;
    for (int i = 0; i < n; i += len)
      for (int j = 0; j < len / 2; ++j) {
        const double wr = cos(ang * j), wi = sin(ang * j);
        double *u = x + 2 * (i + j), *v = x + 2 * (i + j + len / 2);
        const double vr = v[0] * wr - v[1] * wi, vi = v[0] * wi + v[1] * wr;
        v[0] = u[0] - vr, v[1] = u[1] - vi;
        u[0] += vr, u[1] += vi;
      }
  }
}

/* Welch estimate (Hann, 50 % overlap, nseg-sample segments) of the one-sided spectrum in
 * m^2 s/rad at omega_k = 2 pi k/(nseg dt), k = 0..nseg/2. */
static void Welch(const double *x, int n, double dt, int nseg, double *S)
{
  double *buf = malloc(2 * nseg * sizeof *buf), wsum = 0.0;
  for (int i = 0; i < nseg; ++i) {
    const double wi = 0.5 - 0.5 * cos(2.0 * kPi * i / nseg);
    wsum += wi * wi;
  }
  for (int k = 0; k <= nseg / 2; ++k) S[k] = 0.0;
  int count = 0;
  for (int s0 = 0; s0 + nseg <= n; s0 += nseg / 2, ++count) {
    for (int i = 0; i < nseg; ++i) buf[2 * i] = x[s0 + i] * (0.5 - 0.5 * cos(2.0 * kPi * i / nseg)), buf[2 * i + 1] = 0.0;
    Fft(buf, nseg);
    for (int k = 1; k < nseg / 2; ++k) S[k] += 2.0 * (buf[2 * k] * buf[2 * k] + buf[2 * k + 1] * buf[2 * k + 1]) * dt / (2.0 * kPi * wsum);
  }
  for (int k = 0; k <= nseg / 2; ++k) S[k] /= count;
  free(buf);
}

static void Series(PlWaves *w, const double x[3], double dt, int n, double *eta)
{
  for (int i = 0; i < n; ++i) eta[i] = PlWavesElevation(w, x[0], x[1], i * dt);
}

static double Variance(const double *x, int n)
{
  double m = 0.0, v = 0.0;
  for (int i = 0; i < n; ++i) m += x[i];
  m /= n;
  for (int i = 0; i < n; ++i) v += (x[i] - m) * (x[i] - m);
  return v / n;
}

static void TestSpectra(void)
{
  PlWaveTrain tr;
  memset(&tr, 0, sizeof tr);
  tr.kind = PL_WAVE_JONSWAP, tr.hs = 4.0, tr.tp = 10.0, tr.gamma = 3.3;
  const double wp = 2.0 * kPi / 10.0;
  /* S(omega_p): A_g S_PM(omega_p) gamma, S_PM(omega_p) = (5/16) Hs^2 e^{-5/4}/omega_p */
  CHECK_REL(PlWaveSpectrum(&tr, wp), (1.0 - 0.287 * log(3.3)) * 5.0 / 16.0 * 16.0 * exp(-1.25) / wp * 3.3, 1e-14,
            "JONSWAP S(omega_p) closed form");
  CHECK_ABS(PlWaveSpectrum(&tr, wp), 4.9457, 5e-5, "JONSWAP S(omega_p) (notes 4.9457)");
  const double m0 = Simpson(&tr, 0.05, 20.0, 200000, 0);
  CHECK_REL(m0, 1.0, 0.003, "JONSWAP gamma 3.3 m0 within 0.3 % of Hs^2/16");
  CHECK_ABS(m0, 1.00242, 5e-6, "JONSWAP m0 (notes 1.00242)");
  const double tz = 2.0 * kPi * sqrt(m0 / Simpson(&tr, 0.05, 20.0, 200000, 2));
  CHECK_ABS(tz, 7.778, 5e-4, "JONSWAP Tz (notes 7.778)");
  PlWaveTrain t2 = tr;
  t2.gamma = 1.0;
  CHECK_ABS(PlWaveSpectrum(&t2, wp), 2.2799, 5e-5, "gamma 1 S(omega_p) (notes)");
  CHECK_ABS(Simpson(&t2, 0.05, 20.0, 200000, 0), 1.0, 5e-6, "gamma 1 m0 = Hs^2/16");
  t2 = tr, t2.hs = 2.0, t2.tp = 12.0;
  CHECK_ABS(PlWaveSpectrum(&t2, 2.0 * kPi / 12.0), 1.4837, 5e-5, "Hs 2 Tp 12 S(omega_p) (notes)");
  /* DNV's gamma rule */
  CHECK_ABS(PlJonswapGamma(4.0, 10.0), 1.0, 0.0, "gamma rule Tp/sqrt(Hs) = 5");
  CHECK_ABS(PlJonswapGamma(4.0, 7.0), 5.0, 0.0, "gamma rule Tp/sqrt(Hs) = 3.5");
  CHECK_REL(PlJonswapGamma(4.0, 8.5), exp(5.75 - 1.15 * 4.25), 1e-15, "gamma rule between");
  t2 = tr, t2.gamma = 0.0, t2.tp = 8.5;
  PlWaveTrain t3 = t2;
  t3.gamma = exp(5.75 - 1.15 * 4.25);
  CHECK_REL(PlWaveSpectrum(&t2, 0.8), PlWaveSpectrum(&t3, 0.8), 1e-15, "gamma 0 takes DNV's rule");
  /* Pierson-Moskowitz anchor: Hs 12 m, Tz 10 s: Tp = Tz (5 pi/4)^{1/4} (exact for PM), S(0.5) = 25.84 */
  PlWaveTrain pm;
  memset(&pm, 0, sizeof pm);
  pm.kind = PL_WAVE_PM, pm.hs = 12.0;
  CHECK_ABS(10.0 * pow(1.25 * kPi, 0.25), 14.077, 5e-4, "PM Tp from Tz (notes 14.077)");
  pm.tp = 14.077; /* as printed by DNV's example */
  CHECK_ABS(PlWaveSpectrum(&pm, 0.5), 25.8405, 5e-5, "PM S(0.5) (notes 25.8405; DNV 25.84)");

  /* a synthesised 3-hour sea at a point */
  tr.n_components = 200, tr.seed = 12345; /* the default count */
  PlWaves *w = Make(100.0, PL_STRETCH_WHEELER, &tr, 1);
  PlWavesInfo info;
  PlWavesGetInfo(w, &info);
  const double m0r = Simpson(&tr, 0.5 * wp, 6.0 * wp, 200000, 0);
  CHECK_REL(info.m0, m0r, 1e-6, "realised m0 = the spectrum's energy in [0.5, 6] omega_p");
  CHECK_REL(info.m0, m0, 0.002, "realised m0 within 0.2 % of the whole spectrum's");
  const double dt = 0.5;
  const int n = (int)(3 * 3600 / dt);
  double *e1 = malloc(3 * n * sizeof *e1), *e2 = e1 + n, *e3 = e2 + n;
  const double x0[3] = {10.0, 20.0, 0.0};
  Series(w, x0, dt, n, e1);
  const double var = Variance(e1, n);
  /* the seed is fixed; over 30 seeds this sea's 3-hour variance scatters by 1.0 % (standard
   * deviation; the worst 2.5 %), so 2 % is about two standard deviations */
  CHECK_REL(var, m0, 0.02, "3-hour sample variance within 2 % of m0");
  printf("JONSWAP 3 h: m0 %.6f (spectrum), %.6f (realised); sample variance %.6f (%+.2f %%)\n", m0, info.m0, var,
         100.0 * (var / m0 - 1.0));
  /* Welch: 1024-sample (512 s) Hann segments, 50 % overlap (41 averages, bins of
   * 0.0123 rad/s), averaged over omega_p/1.2 .. 1.2 omega_p against the target's average
   * there. A 3-hour record holds ~400 independent frequency cells in that band, so even a
   * perfect synthesis carries a few % of sampling scatter (a study over 20 seeds of this
   * scheme gave a standard deviation of 1.7 %, the worst 3.4 %): 5 % is the tolerance; the
   * four sub-bands are printed, not held (each scatters ~8 %). */
  enum { NSEG = 1024 };
  double S[NSEG / 2 + 1];
  Welch(e1, n, dt, NSEG, S);
  const double dw = 2.0 * kPi / (NSEG * dt);
  const int k0 = (int)ceil(wp / 1.2 / dw), k1 = (int)floor(1.2 * wp / dw);
  double sw = 0.0, stt = 0.0;
  for (int kb = k0; kb <= k1; kb += 4) {
    double se = 0.0, st = 0.0;
    for (int k = kb; k < kb + 4 && k <= k1; ++k)
      se += S[k], st += Simpson(&tr, (k - 0.5) * dw, (k + 0.5) * dw, 200, 0) / dw;
    sw += se, stt += st;
    printf("  band %.3f-%.3f rad/s: Welch/target %+.2f %%\n", (kb - 0.5) * dw, (kb + 3.5) * dw, 100.0 * (se / st - 1.0));
  }
  printf("  across the peak %.3f-%.3f rad/s: Welch/target %+.2f %%\n", (k0 - 0.5) * dw, (k1 + 0.5) * dw,
         100.0 * (sw / stt - 1.0));
  CHECK_REL(sw, stt, 0.05, "Welch spectrum within 5 % of the target across the peak");
  /* the components themselves: the energy in the band is the target's to within the two
   * equal-energy bins its edges cut (2 m0/n) */
  double eb = 0.0;
  for (int i = 0; i < info.n_components; ++i) {
    double a, om, k, b, ph;
    PlWavesComponent(w, i, &a, &om, &k, &b, &ph);
    if (om >= wp / 1.2 && om <= 1.2 * wp) eb += 0.5 * a * a;
  }
  CHECK_ABS(eb, Simpson(&tr, wp / 1.2, 1.2 * wp, 20000, 0), 2.0 * info.m0 / 200, "components' energy across the peak");
  /* reproducible by seed */
  PlWaves *w2 = Make(100.0, PL_STRETCH_WHEELER, &tr, 1);
  Series(w2, x0, dt, n, e2);
  CHECK_TRUE(memcmp(e1, e2, n * sizeof *e1) == 0, "same seed: bit-identical series");
  PlWavesDestroy(w2);
  tr.seed = 54321;
  w2 = Make(100.0, PL_STRETCH_WHEELER, &tr, 1);
  Series(w2, x0, dt, n, e2);
  double dmax = 0.0;
  for (int i = 0; i < n; ++i) dmax = fmax(dmax, fabs(e1[i] - e2[i]));
  CHECK_TRUE(dmax > 1.0, "another seed: a different series");
  PlWavesDestroy(w2);
  /* Rayleigh amplitudes: the realised m0 scatters about the target (400 components: ~5 %) */
  tr.rayleigh = 1;
  w2 = Make(100.0, PL_STRETCH_WHEELER, &tr, 1);
  PlWavesInfo ir;
  PlWavesGetInfo(w2, &ir);
  CHECK_REL(ir.m0, m0r, 0.2, "Rayleigh amplitudes: m0 within 20 % (4 sigma)");
  printf("Rayleigh amplitudes: realised m0 %.4f against %.4f\n", ir.m0, m0r);
  PlWavesDestroy(w2);
  tr.rayleigh = 0, tr.seed = 12345;

  /* spreading: D integrates to 1; a spread sea has the unspread one's variance */
  const double svals[] = {1.0, 2.0, 5.5, 15.0};
  for (int i = 0; i < 4; ++i) {
    const int nn = 20000;
    double s = 0.0;
    for (int j = 0; j <= nn; ++j) {
      const double th = -0.5 * kPi + kPi * j / nn;
      s += (j == 0 || j == nn ? 1.0 : (j % 2 ? 4.0 : 2.0)) * PlWaveSpreading(svals[i], th);
    }
    CHECK_ABS(s * kPi / nn / 3.0, 1.0, 1e-10, "cos^2s spreading integrates to 1");
  }
  /* 100 frequencies x 9 directions: the same m0; the directions are the midpoints in
   * probability of 9 equal shares of D (the cumulative of D by Simpson here) */
  PlWaveTrain sp = tr;
  sp.n_components = 100, sp.n_directions = 9, sp.spreading_s = 4.0, sp.heading_deg = 30.0;
  PlWaves *ws = Make(100.0, PL_STRETCH_WHEELER, &sp, 1);
  PlWavesInfo is;
  PlWavesGetInfo(ws, &is);
  CHECK_REL(is.m0, info.m0, 1e-12, "spread sea's m0 = the unspread one's");
  int seen[9] = {0};
  for (int i = 0; i < is.n_components; ++i) {
    double a, om, k, b, ph;
    PlWavesComponent(ws, i, &a, &om, &k, &b, &ph);
    const double d = b - 30.0 * kPi / 180.0;
    const int nn = 4000;
    double cdf = 0.0;
    for (int j = 0; j <= nn; ++j) {
      const double th = -0.5 * kPi + (d + 0.5 * kPi) * j / nn;
      cdf += (j == 0 || j == nn ? 1.0 : (j % 2 ? 4.0 : 2.0)) * PlWaveSpreading(4.0, th);
    }
    cdf *= (d + 0.5 * kPi) / nn / 3.0;
    const int q = (int)floor(cdf * 9.0);
    CHECK_ABS(cdf, (q + 0.5) / 9.0, 1e-6, "spread sea: direction at a probability midpoint");
    if (q >= 0 && q < 9) seen[q]++;
  }
  for (int q = 0; q < 9; ++q) CHECK_TRUE(seen[q] == 100, "spread sea: each direction once per frequency bin");
  PlWavesDestroy(ws);
  /* the sample variance of a spread sea at a point: 40 x 5 = 200 components, the count of the
   * unspread sea (see waves.h: the 3-hour variance is then deterministic to ~1-2 %) */
  sp.n_components = 40, sp.n_directions = 5;
  ws = Make(100.0, PL_STRETCH_WHEELER, &sp, 1);
  Series(ws, x0, dt, n, e3);
  const double vs = Variance(e3, n);
  CHECK_REL(vs, m0, 0.02, "spread 3-hour sample variance within 2 % of m0");
  printf("spread sea (40 x 5 directions, s = 4): sample variance %.6f (%+.2f %%)\n", vs, 100.0 * (vs / m0 - 1.0));
  PlWavesDestroy(ws);
  PlWavesDestroy(w);

  /* a user table sampled from the JONSWAP: the same m0 and S */
  enum { NT = 300 };
  double tw[NT], ts[NT];
  for (int i = 0; i < NT; ++i) tw[i] = 0.5 * wp + 5.5 * wp * i / (NT - 1), ts[i] = PlWaveSpectrum(&tr, tw[i]);
  PlWaveTrain tt;
  memset(&tt, 0, sizeof tt);
  tt.kind = PL_WAVE_TABLE, tt.n_table = NT, tt.table_omega = tw, tt.table_s = ts, tt.n_components = 300, tt.seed = 3;
  CHECK_ABS(PlWaveSpectrum(&tt, tw[10]), ts[10], 0.0, "table: S at a row");
  CHECK_ABS(PlWaveSpectrum(&tt, 0.5 * (tw[10] + tw[11])), 0.5 * (ts[10] + ts[11]), 1e-15, "table: linear between");
  PlWaves *wt = Make(100.0, PL_STRETCH_VERTICAL, &tt, 1);
  PlWavesInfo it;
  PlWavesGetInfo(wt, &it);
  CHECK_REL(it.m0, m0r, 2e-3, "table: m0 of the sampled JONSWAP");
  PlWavesDestroy(wt);
  free(e1);
}

/* ---- 5. measured series -------------------------------------------------------------------- */
static void TestSeriesTrain(void)
{
  enum { N = 4096 };
  const double dt = 0.25, T = N * dt, t0 = 100.0, xr = 50.0, yr = -20.0, beta = 20.0 * kPi / 180.0;
  const int js[] = {30, 77, 140};
  const double as[] = {1.1, 0.6, 0.25}, ps[] = {0.3, -2.0, 1.4};
  static double eta[N];
  for (int i = 0; i < N; ++i) {
    eta[i] = 0.37; /* a mean, removed */
    for (int c = 0; c < 3; ++c) eta[i] += as[c] * cos(2.0 * kPi * js[c] / T * (i * dt) - ps[c]);
  }
  PlWaveTrain tr;
  memset(&tr, 0, sizeof tr);
  tr.kind = PL_WAVE_SERIES, tr.n_series = N, tr.series_eta = eta, tr.series_dt = dt, tr.series_t0 = t0;
  tr.ref_x = xr, tr.ref_y = yr, tr.heading_deg = 20.0, tr.series_omega_max = 1.0;
  PlWaves *w = Make(30.0, PL_STRETCH_VERTICAL, &tr, 1);
  double e = 0.0;
  for (int i = 0; i < N; i += 7) e = fmax(e, fabs(PlWavesElevation(w, xr, yr, t0 + i * dt) - (eta[i] - 0.37)));
  CHECK_ABS(e, 0.0, 1e-11, "series: the record reproduced at the reference point");
  /* elsewhere: each harmonic travels with its own wave number */
  const double xq = 130.0, yq = 45.0, tq = 333.3;
  double want = 0.0;
  for (int c = 0; c < 3; ++c) {
    const double om = 2.0 * kPi * js[c] / T, k = KBisect(om, 30.0, 9.81);
    want += as[c] * cos(om * (tq - t0) - ps[c] - k * ((xq - xr) * cos(beta) + (yq - yr) * sin(beta)));
  }
  CHECK_ABS(PlWavesElevation(w, xq, yq, tq), want, 1e-11, "series: propagated harmonics");
  PlWavesDestroy(w);
}

/* ---- 6. Wheeler (the notes' table) and the other stretchings -------------------------------- */
static void TestStretching(void)
{
  PlWaveTrain tr = Airy(5.0, 10.0, 0.0, 0.0);
  PlWaves *w = Make(100.0, PL_STRETCH_WHEELER, &tr, 1);
  const double h = 100.0, om = 2.0 * kPi / 10.0, k = KBisect(om, h, 9.81);
  PlWaveKin kk;
  /* crest at the origin at t = 0 (eta = 5), trough at t = T/2 */
  const double zc[] = {5.0, 0.0, -10.0}, un[] = {3.1436, 2.5954, 1.7697};
  for (int i = 0; i < 3; ++i) {
    const double x[3] = {0.0, 0.0, zc[i]}, zs = h * (zc[i] - 5.0) / (h + 5.0);
    PlWavesKinematics(w, x, 0.0, &kk);
    CHECK_ABS(kk.u[0], un[i], 5e-5, "Wheeler crest u (notes)");
    CHECK_REL(kk.u[0], om * 5.0 * cosh(k * (zs + h)) / sinh(k * h), 1e-12, "Wheeler crest u closed form");
  }
  const double xt[3] = {0.0, 0.0, -5.0};
  PlWavesKinematics(w, xt, 5.0, &kk);
  CHECK_ABS(fabs(kk.u[0]), 3.1436, 5e-5, "Wheeler trough |u| at eta (notes)");
  CHECK_REL(-kk.u[0], om * 5.0 / tanh(k * h), 1e-12, "Wheeler at the surface = linear at z = 0");
  const double xd[3] = {0.0, 0.0, 5.01};
  PlWavesKinematics(w, xd, 0.0, &kk);
  CHECK_TRUE(!kk.wet && kk.u[0] == 0.0 && kk.p == 0.0, "above the crest: dry, zero");
  const double xd2[3] = {0.0, 0.0, -4.99};
  PlWavesKinematics(w, xd2, 5.0, &kk);
  CHECK_TRUE(!kk.wet && kk.u[0] == 0.0, "above the trough: dry");
  /* the total pressure vanishes at the surface with Wheeler and vertical stretching */
  const double xs[3] = {0.0, 0.0, 5.0};
  PlWavesKinematics(w, xs, 0.0, &kk);
  CHECK_ABS(kk.p - 1025.0 * 9.81 * 5.0, 0.0, 1e-9, "Wheeler: p - rho g z = 0 at the crest");
  PlWavesDestroy(w);
  /* unstretched column of the notes: linear theory at z = 0 and z = -10 under the crest */
  w = Make(100.0, PL_STRETCH_VERTICAL, &tr, 1);
  const double x0[3] = {0.0, 0.0, 0.0}, x10[3] = {0.0, 0.0, -10.0}, x3[3] = {0.0, 0.0, 3.0};
  PlWavesKinematics(w, x0, 0.0, &kk);
  CHECK_ABS(kk.u[0], 3.1436, 5e-5, "unstretched crest z = 0 (notes)");
  PlWavesKinematics(w, x10, 0.0, &kk);
  CHECK_ABS(kk.u[0], 2.1024, 5e-5, "unstretched crest z = -10 (notes)");
  PlWavesKinematics(w, x3, 0.0, &kk);
  CHECK_REL(kk.u[0], om * 5.0 / tanh(k * h), 1e-12, "vertical stretching: z = 0's value above");
  PlWavesDestroy(w);
  /* extrapolation: u(z) = u(0) + z du/dz(0), du/dz(0) = omega a k (S = 1 at z = 0) */
  w = Make(100.0, PL_STRETCH_EXTRAPOLATION, &tr, 1);
  PlWavesKinematics(w, x3, 0.0, &kk);
  CHECK_REL(kk.u[0], om * 5.0 / tanh(k * h) + 3.0 * om * 5.0 * k, 1e-12, "extrapolation above z = 0");
  CHECK_REL(kk.p, 1025.0 * 9.81 * 5.0 * (1.0 + 3.0 * k * tanh(k * h)), 1e-12, "extrapolated pressure");
  PlWavesDestroy(w);
  /* the wetted fraction of segments */
  w = Make(100.0, PL_STRETCH_WHEELER, &tr, 1);
  const double a1[3] = {0.0, 0.0, -15.0}, b1[3] = {0.0, 0.0, 15.0};
  CHECK_ABS(PlWavesWettedFraction(w, a1, b1, 0.0), 20.0 / 30.0, 1e-10, "wetted fraction: vertical at the crest");
  const double a2[3] = {0.0, 0.0, 0.0}, b2[3] = {2.0 * kPi / k, 0.0, 0.0};
  CHECK_ABS(PlWavesWettedFraction(w, a2, b2, 0.0), 0.5, 1e-10, "wetted fraction: a wavelength at z = 0");
  const double a3[3] = {0.0, 0.0, -6.0}, b3[3] = {100.0, 0.0, -6.0};
  CHECK_ABS(PlWavesWettedFraction(w, a3, b3, 0.0), 1.0, 0.0, "wetted fraction: submerged");
  PlWavesDestroy(w);
}

/* ---- 7. the stream-function wave ------------------------------------------------------------ */
static PlWaves *Stream(double H, double T, double h, int n, PlWavesInfo *info)
{
  PlWaveTrain tr;
  memset(&tr, 0, sizeof tr);
  tr.kind = PL_WAVE_STREAM, tr.height = H, tr.period = T, tr.stream_terms = n, tr.heading_deg = 0.0;
  PlWaves *w = Make(h, PL_STRETCH_VERTICAL, &tr, 1);
  if (w) PlWavesGetInfo(w, info);
  return w;
}

static void TestStream(void)
{
  PlWavesInfo in;
  /* linear limit: H = 2 mm, T = 10 s, h = 100 m against Airy (a = H/2); ka = 4e-5 */
  PlWaves *w = Stream(0.002, 10.0, 100.0, 16, &in);
  if (!w) {
    ++pl_check_failures;
    return;
  }
  const double om = 2.0 * kPi / 10.0, kl = KBisect(om, 100.0, 9.81);
  CHECK_REL(in.k, kl, 1e-8, "stream, linear limit: k = Airy's");
  PlWaveKin ks;
  const double zq[] = {0.0, -20.0, -60.0};
  for (int i = 0; i < 3; ++i) {
    const double x[3] = {0.0, 0.0, zq[i]}, C = cosh(kl * (zq[i] + 100.0)) / sinh(kl * 100.0);
    PlWavesKinematics(w, x, 0.0, &ks);
    CHECK_REL(ks.u[0], om * 0.001 * C, 2e-4, "stream, linear limit: crest u = Airy's");
    /* theta = pi/2 (eta = 0 to first order: just below z = 0) */
    const double xq[3] = {0.25 * 2.0 * kPi / kl, 0.0, zq[i] - 1e-3};
    PlWavesKinematics(w, xq, 0.0, &ks);
    CHECK_REL(ks.u[2], om * 0.001 * sinh(kl * (xq[2] + 100.0)) / sinh(kl * 100.0), 2e-4,
              "stream, linear limit: w = Airy's");
  }
  PlWavesDestroy(w);

  /* deep water: Stokes' expansion c sqrt(k/g) = 1 + eps^2/2 + eps^4/8 + O(eps^6), eps = kH/2
   * (Fenton 1985, J. Waterway Port Coastal Ocean Eng. 111(2), deep-water limits C2 = 1/2,
   * C4 = 1/8); crest elevation k eta_c = eps + eps^2/2 + O(eps^3) */
  w = Stream(5.0, 10.0, 1000.0, 24, &in);
  if (w) {
    const double eps = 0.5 * in.k * 5.0, cs = in.c * sqrt(in.k / 9.81);
    const double stokes = 1.0 + 0.5 * eps * eps + eps * eps * eps * eps / 8.0;
    CHECK_ABS(cs, stokes, 3.0 * pow(eps, 6), "stream, deep water: Stokes' 4th-order wave speed");
    CHECK_ABS(in.k * in.crest, eps + 0.5 * eps * eps, 2.0 * pow(eps, 3), "stream, deep water: crest elevation");
    printf("stream deep water eps = %.5f: c sqrt(k/g) = %.9f, Stokes to eps^4 %.9f (diff %.2e; eps^4/8 = %.2e)\n", eps,
           cs, stokes, cs - stokes, pow(eps, 4) / 8.0);
    PlWavesDestroy(w);
  } else ++pl_check_failures;

  /* a steep wave: H = 8 m, T = 10 s, h = 20 m (65 % of the breaking height), N chosen by the
   * module (the surface conditions between the collocation points to 1e-8) */
  const double H = 8.0, h = 20.0;
  w = Stream(H, 10.0, h, 0, &in);
  if (!w) {
    ++pl_check_failures;
    return;
  }
  PlWavesInfo in2;
  PlWaves *w2 = Stream(H, 10.0, h, 48, &in2);
  CHECK_TRUE(in.residual < 1e-10, "stream: collocation equations solved");
  CHECK_TRUE(in.surface_error <= 1e-8, "stream: automatic N meets 1e-8 between the collocation points");
  CHECK_ABS(in.crest - in.trough, H, 1e-9, "stream: crest - trough = H");
  CHECK_REL(in2.c, in.c, 1e-9, "stream: wave speed converged in N (against 48 terms)");
  CHECK_REL(in2.crest, in.crest, 1e-7, "stream: crest converged in N (against 48 terms)");
  printf("stream H 8 m T 10 s h 20 m: N %d, L %.4f m (Airy %.4f), c %.6f m/s (N 48: %.6f), crest %.4f m, "
         "trough %.4f m\n", in.stream_terms, 2.0 * kPi / in.k, 2.0 * kPi / KBisect(om, h, 9.81), in.c, in2.c, in.crest,
         in.trough);
  const double L = 2.0 * kPi / in.k, rho = 1025.0, g = 9.81;
  double pmax = 0.0, kmax = 0.0, mean = 0.0;
  const int nq = 2000;
  for (int i = 0; i < nq; ++i) {
    const double x = L * i / nq, eta = PlWavesElevation(w, x, 0.0, 0.0);
    mean += eta / nq;
    /* total pressure at the surface (the dynamic condition) and psi = -Q (the kinematic one)
     * between and at the collocation points */
    const double xs[3] = {x, 0.0, eta - 1e-12};
    PlWavesKinematics(w, xs, 0.0, &ks);
    pmax = fmax(pmax, fabs(ks.p - rho * g * xs[2]) / (rho * g * H));
    double psi;
    PlWavesStreamPsi(w, xs, 0.0, &psi);
    kmax = fmax(kmax, fabs(psi + in.flux_q) / (in.c * H));
  }
  CHECK_ABS(mean, 0.0, 1e-10 * H, "stream: mean level z = 0");
  CHECK_ABS(pmax, 0.0, 1e-7, "stream: surface pressure |p|/(rho g H) along the wavelength");
  CHECK_ABS(kmax, 0.0, 1e-7, "stream: kinematic condition |psi + Q|/(c H) along the wavelength");
  printf("stream surface conditions along the wavelength: |p|/(rho g H) <= %.2e, |psi + Q|/(c H) <= %.2e\n", pmax,
         kmax);
  /* near breaking: 90 % of the breaking height at h = 20 m, T = 10 s (L/h ~ 6.7) */
  {
    PlWavesInfo ib;
    const double ld = 2.0 * kPi / (KBisect(om, h, 9.81) * h);
    const double hb = h * (0.141063 * ld + 0.0095721 * ld * ld + 0.0077829 * ld * ld * ld) /
                      (1.0 + 0.0788340 * ld + 0.0317567 * ld * ld + 0.0093407 * ld * ld * ld);
    PlWaves *wb = Stream(0.9 * hb, 10.0, h, 0, &ib);
    if (wb) {
      const double Lb = 2.0 * kPi / ib.k;
      double pb = 0.0;
      for (int i = 0; i < nq; ++i) {
        const double x = Lb * i / nq, xs[3] = {x, 0.0, PlWavesElevation(wb, x, 0.0, 0.0) - 1e-12};
        PlWavesKinematics(wb, xs, 0.0, &ks);
        pb = fmax(pb, fabs(ks.p - rho * g * xs[2]) / (rho * g * 0.9 * hb));
      }
      CHECK_ABS(pb, 0.0, 1e-6, "stream near breaking: surface pressure along the wavelength");
      CHECK_TRUE(ib.crest > 0.65 * 0.9 * hb, "stream near breaking: the crest well above H/2");
      printf("stream at 0.9 H_break = %.3f m: N %d, surface error %.1e (sampled %.1e), crest %.3f H\n", 0.9 * hb,
             ib.stream_terms, ib.surface_error, pb, ib.crest / (0.9 * hb));
      PlWavesDestroy(wb);
    } else ++pl_check_failures;
  }
  /* no Eulerian mean current: the time mean of u below the trough is zero; incompressible and
   * irrotational (trace and the antisymmetric part of the gradient) */
  double um = 0.0;
  for (int i = 0; i < nq; ++i) {
    const double x[3] = {L * i / nq, 0.0, -10.0};
    PlWavesKinematics(w, x, 0.0, &ks);
    um += ks.u[0] / nq;
    CHECK_ABS(ks.du_dx[0] + ks.du_dx[4] + ks.du_dx[8], 0.0, 1e-10, "stream: div u = 0");
    CHECK_ABS(ks.du_dx[2] - ks.du_dx[6], 0.0, 1e-10, "stream: curl u = 0");
  }
  CHECK_ABS(um, 0.0, 1e-10, "stream: no Eulerian mean current");
  const double xc[3] = {0.0, 0.0, 0.9 * in.crest}, xq[3] = {0.2 * L, 0.0, -5.0};
  CheckDerivatives(w, NULL, xc, 0.0, "stream near the crest");
  CheckDerivatives(w, NULL, xq, 1.3, "stream at -5 m");
  PlWavesDestroy(w);
  PlWavesDestroy(w2);
  /* heading and phase: a train travelling towards 30 deg with phase 20 deg is the 0-deg wave
   * at the distance along the heading, shifted by the phase */
  {
    PlWaveTrain t0, t1;
    memset(&t0, 0, sizeof t0);
    t0.kind = PL_WAVE_STREAM, t0.height = 6.0, t0.period = 9.0, t0.stream_terms = 24;
    t1 = t0, t1.heading_deg = 30.0, t1.phase_deg = 20.0;
    PlWaves *a = Make(30.0, PL_STRETCH_VERTICAL, &t0, 1), *b = Make(30.0, PL_STRETCH_VERTICAL, &t1, 1);
    PlWavesInfo ia;
    PlWavesGetInfo(a, &ia);
    const double be = 30.0 * kPi / 180.0, xb[3] = {12.0, -31.0, -4.0}, t = 2.2;
    const double s1 = xb[0] * cos(be) + xb[1] * sin(be) + (20.0 * kPi / 180.0) / ia.k;
    const double xa[3] = {s1, 0.0, -4.0};
    PlWaveKin ka, kb;
    PlWavesKinematics(a, xa, t, &ka);
    PlWavesKinematics(b, xb, t, &kb);
    CHECK_ABS(kb.eta, ka.eta, 1e-12, "stream heading: eta");
    CHECK_ABS(kb.u[0], ka.u[0] * cos(be), 1e-12, "stream heading: u_x");
    CHECK_ABS(kb.u[1], ka.u[0] * sin(be), 1e-12, "stream heading: u_y");
    CHECK_ABS(kb.u[2], ka.u[2], 1e-12, "stream heading: w");
    CheckDerivatives(b, NULL, xb, t, "stream heading 30 deg");
    PlWavesDestroy(a);
    PlWavesDestroy(b);
  }
  /* too steep: refused with a message */
  PlWaveTrain tr;
  memset(&tr, 0, sizeof tr);
  tr.kind = PL_WAVE_STREAM, tr.height = 13.0, tr.period = 10.0;
  char err[256];
  PlWaves *wb = PlWavesCreate(20.0, 9.81, 1025.0, PL_STRETCH_VERTICAL, &tr, 1, err, sizeof err);
  CHECK_TRUE(!wb && strstr(err, "breaking"), "stream: a breaking wave is refused");
  PlWavesDestroy(wb);
}

/* ---- 8. current + waves ------------------------------------------------------------------- */
static void TestFluid(void)
{
  PlWaveTrain tr = Airy(1.0, 10.0, 0.0, 0.0);
  PlWaves *w = Make(100.0, PL_STRETCH_VERTICAL, &tr, 1);
  PlCurrent cur;
  memset(&cur, 0, sizeof cur);
  cur.kind = PL_CURRENT_UNIFORM, cur.speed = 0.5, cur.direction_deg = 90.0;
  PlWaveKin kw, kf;
  const double x[3] = {3.0, 1.0, -20.0};
  PlWavesKinematics(w, x, 4.0, &kw);
  PlWavesFluid(w, &cur, x, 4.0, &kf);
  CHECK_ABS(kf.u[0], kw.u[0], 1e-15, "fluid: x = waves");
  CHECK_ABS(kf.u[1], kw.u[1] + 0.5, 1e-15, "fluid: y = waves + current");
  CHECK_ABS(kf.a[1], kw.a[1], 0.0, "fluid: a steady current adds no acceleration");
  const double xdry[3] = {3.0, 1.0, 5.0};
  PlWavesFluid(w, &cur, xdry, 4.0, &kf);
  CHECK_TRUE(!kf.wet && kf.u[1] == 0.0, "fluid: nothing above the surface");
  PlWavesDestroy(w);
  /* a calm sea (no trains): the current alone, to z = 0 */
  w = Make(100.0, PL_STRETCH_VERTICAL, NULL, 0);
  PlWavesFluid(w, &cur, x, 4.0, &kf);
  CHECK_TRUE(kf.wet && kf.eta == 0.0, "calm sea: wet, eta = 0");
  CHECK_ABS(kf.u[0], 0.0, 1e-15, "calm sea: u_x");
  CHECK_ABS(kf.u[1], 0.5, 1e-15, "calm sea: u_y = the current");
  CHECK_ABS(kf.u[2], 0.0, 0.0, "calm sea: w");
  const double xa[3] = {0.0, 0.0, 0.1};
  PlWavesFluid(w, &cur, xa, 4.0, &kf);
  CHECK_TRUE(!kf.wet && kf.u[1] == 0.0, "calm sea: dry above z = 0");
  PlWavesDestroy(w);
}

/* The phases' cosines and sines (PlWavesSinCos) and the depth exponentials (PlWavesExp) the
 * kinematics take, against the C library's: 200,000 phases in [-3e4, 3e4] rad (an hour's
 * omega t) and a few beyond the reduction's range (1e7 rad: the library's own values), within
 * 2.3e-16 (about one unit in the last place of a value of 1); e^x for x in [-40, 0] within 2.5e-16
 * of the library's value, relative. */
static void TestFastMath(void)
{
  enum { N = 1000 };
  double th[N], c[N], s[N], x[N], e[N], ec = 0.0, ee = 0.0;
  uint64_t seed = 99;
  for (int rep = 0; rep < 200; ++rep) {
    for (int i = 0; i < N; ++i) {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      const double u = (double)(seed >> 11) * 0x1.0p-53;
      th[i] = rep == 0 && i < 8 ? 1e7 * (i + 1) : 6e4 * u - 3e4;
      x[i] = -40.0 * u;
    }
    PlWavesSinCos(th, c, s, N);
    PlWavesExp(x, e, N);
    for (int i = 0; i < N; ++i) {
      ec = fmax(ec, fmax(fabs(c[i] - cos(th[i])), fabs(s[i] - sin(th[i]))));
      ee = fmax(ee, fabs(e[i] - exp(x[i])) / exp(x[i]));
    }
  }
  printf("fast sincos: largest difference from the library %.2e; exp: %.2e relative\n", ec, ee);
  CHECK_TRUE(ec <= 2.3e-16, "PlWavesSinCos within 2.3e-16 of cos and sin");
  CHECK_TRUE(ee <= 2.5e-16, "PlWavesExp within 2.5e-16 of exp, relative");
}

/* The ramp-in (PlWavesSetRamp): at t inside the ramp the sea is the same sea with every amplitude
 * times r(t) (an Airy train of amplitude r a, built here), in each stretching, to 1e-12 (u, p, eta,
 * the wetting, du/dx); the local acceleration is the time derivative of the ramped velocity
 * (central differences, 1e-6 of its scale); from the ramp's end on, the sea is the full one to the
 * bit; a stream-function sea refuses a ramp. */
static void TestRamp(void)
{
  const double Tr = 30.0, a0 = 2.5;
  const PlWaveStretching sts[3] = {PL_STRETCH_VERTICAL, PL_STRETCH_WHEELER, PL_STRETCH_EXTRAPOLATION};
  PlWaveTrain tr;
  memset(&tr, 0, sizeof tr);
  tr.kind = PL_WAVE_AIRY, tr.amplitude = a0, tr.period = 9.0, tr.heading_deg = 25.0, tr.phase_deg = 40.0;
  for (int k = 0; k < 3; ++k) {
    PlWaves *w = Make(80.0, sts[k], &tr, 1), *full = Make(80.0, sts[k], &tr, 1);
    CHECK_TRUE(w && full && PlWavesSetRamp(w, Tr) == 0, "a linear sea takes a ramp");
    if (!w || !full) continue;
    const double pts[3][3] = {{3, -2, -10}, {40, 7, 0.8}, {-15, 30, -60}};
    for (int it = 1; it < 6; ++it) {
      const double t = 5.3 * it, x = t / Tr, r = x * x * x * (10.0 - 15.0 * x + 6.0 * x * x);
      PlWaveTrain ts = tr;
      ts.amplitude = r * a0;
      PlWaves *sc = Make(80.0, sts[k], &ts, 1);
      if (!sc) continue;
      for (int ip = 0; ip < 3; ++ip) {
        PlWaveKin A, B, P, M;
        PlWavesKinematics(w, pts[ip], t, &A);
        PlWavesKinematics(sc, pts[ip], t, &B);
        CHECK_TRUE(A.wet == B.wet, "ramp: the wetting of the scaled sea");
        CHECK_ABS(A.eta, B.eta, 1e-12, "ramp: eta of the scaled sea");
        CHECK_ABS(A.p, B.p, 1e-12 * 1025 * 9.81 * a0, "ramp: p of the scaled sea");
        for (int i = 0; i < 3; ++i) CHECK_ABS(A.u[i], B.u[i], 1e-12, "ramp: u of the scaled sea");
        for (int i = 0; i < 9; ++i) CHECK_ABS(A.du_dx[i], B.du_dx[i], 1e-12, "ramp: du/dx of the scaled sea");
        const double h = 1e-4;
        PlWavesKinematics(w, pts[ip], t + h, &P);
        PlWavesKinematics(w, pts[ip], t - h, &M);
        if (P.wet && M.wet && A.wet)
          for (int i = 0; i < 3; ++i)
            CHECK_ABS(A.a[i], (P.u[i] - M.u[i]) / (2 * h), 1e-6 * a0 * 0.7, "ramp: a = d u/dt of the ramped sea");
      }
      PlWavesDestroy(sc);
    }
    for (int ip = 0; ip < 3; ++ip) {
      PlWaveKin A, B;
      PlWavesKinematics(w, (const double[3]){5, 5, -5}, Tr + 0.1 * ip, &A);
      PlWavesKinematics(full, (const double[3]){5, 5, -5}, Tr + 0.1 * ip, &B);
      CHECK_TRUE(!memcmp(&A, &B, sizeof A), "ramp: the full sea from its end on, to the bit");
    }
    PlWavesDestroy(w);
    PlWavesDestroy(full);
  }
  PlWaveTrain st = tr;
  st.kind = PL_WAVE_STREAM, st.height = 5.0, st.amplitude = 0.0;
  PlWaves *s = Make(80.0, PL_STRETCH_VERTICAL, &st, 1);
  CHECK_TRUE(s && PlWavesSetRamp(s, Tr) == -1, "a stream-function sea refuses a ramp");
  PlWavesDestroy(s);
}

/* PlWavesSetSurfaceBand: a point below the crests' bound sum |a_i| plus the band has, with the
 * vertical and the extrapolation stretching, the same velocity, acceleration, gradients and
 * pressure as without the band, to the bit (the components it skips have e^{kz} < 1e-16, which
 * Depth skipped too), and eta and its slope reported as 0; a point above that depth (eta summed)
 * and every point with Wheeler stretching are the same to the bit, eta included. The sea: a
 * 100-component JONSWAP in 900 m (so that short components vanish at depth), during and after
 * its ramp; the bound is 0.088 m x 100 = 8.8 m for Hs 2.5 m. */
static void TestSurfaceBand(void)
{
  PlWaveTrain js;
  memset(&js, 0, sizeof js);
  js.kind = PL_WAVE_JONSWAP, js.hs = 2.5, js.tp = 8.0, js.n_components = 100, js.seed = 7, js.heading_deg = 165.0;
  const PlWaveStretching sts[3] = {PL_STRETCH_VERTICAL, PL_STRETCH_WHEELER, PL_STRETCH_EXTRAPOLATION};
  const double band = 0.8;
  for (int k = 0; k < 3; ++k) {
    PlWaves *w = Make(900.0, sts[k], &js, 1), *ref = Make(900.0, sts[k], &js, 1);
    if (!w || !ref) continue;
    CHECK_TRUE(PlWavesSetSurfaceBand(w, -1.0) == -1 && PlWavesSetSurfaceBand(w, band) == 0, "the band: < 0 refused");
    PlWavesSetRamp(w, 20.0), PlWavesSetRamp(ref, 20.0);
    double crest = 0.0, amp, om, kk, be, ph;
    for (int i = 0; PlWavesComponent(w, i, &amp, &om, &kk, &be, &ph) == 0; ++i) crest += fabs(amp);
    const double zs[] = {-5.0, -(crest + band) + 0.01, -(crest + band) - 0.01, -40.0, -300.0, -899.0};
    for (int iz = 0; iz < 6; ++iz)
      for (int it = 0; it < 3; ++it) {
        const double x[3] = {120.0 * it - 70.0, 15.0 * iz, zs[iz]}, t = 7.3 + 11.1 * it;
        PlWaveKin A, B;
        PlWavesKinematics(w, x, t, &A);
        PlWavesKinematics(ref, x, t, &B);
        const int deep = sts[k] != PL_STRETCH_WHEELER && zs[iz] < -(crest + band);
        CHECK_TRUE(A.wet == B.wet && !memcmp(A.u, B.u, sizeof A.u) && !memcmp(A.a, B.a, sizeof A.a) &&
                       !memcmp(A.du_dx, B.du_dx, sizeof A.du_dx) && !memcmp(A.da_dx, B.da_dx, sizeof A.da_dx) &&
                       !memcmp(&A.p, &B.p, sizeof A.p),
                   "surface band: the kinematics to the bit");
        if (deep)
          CHECK_TRUE(A.eta == 0.0 && A.deta_dx[0] == 0.0 && A.deta_dx[1] == 0.0 && A.wet && A.deep,
                     "surface band: a deep point's eta 0, wet, deep");
        else
          CHECK_TRUE(!memcmp(&A.eta, &B.eta, sizeof A.eta) && !memcmp(A.deta_dx, B.deta_dx, sizeof A.deta_dx),
                     "surface band: eta and its slope to the bit above the deep depth");
      }
    PlWavesDestroy(w);
    PlWavesDestroy(ref);
  }
}

int main(void)
{
  TestDispersion();
  TestAiry();
  TestDerivatives();
  TestSpectra();
  TestSeriesTrain();
  TestStretching();
  TestStream();
  TestFluid();
  TestFastMath();
  TestRamp();
  TestSurfaceBand();
  return CHECK_DONE();
}
