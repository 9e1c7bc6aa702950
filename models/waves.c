/*
 * waves.c - the sea's kinematics service (declarations and conventions in pipelay/waves.h).
 *
 * 1. Linear (Airy) components. With theta = k (x cos b + y sin b) - omega t + phi, depth h,
 *    and the potential phi_w = (g a/omega) cosh k(z+h)/cosh kh sin theta of a progressive wave
 *    (e.g. Dean & Dalrymple, Water Wave Mechanics for Engineers and Scientists, ch. 3;
 *    DNV-RP-C205 s3.2.2), u = grad phi_w gives
 *      eta = a cos theta
 *      u_h = omega a C(z) cos theta (along b),   w = omega a S(z) sin theta
 *      du_h/dt = omega^2 a C sin theta,          dw/dt = -omega^2 a S cos theta
 *      p_d = rho g a P(z) cos theta              (total pressure p_d - rho g z)
 *    with C = cosh k(z+h)/sinh kh, S = sinh k(z+h)/sinh kh, P = cosh k(z+h)/cosh kh, and
 *    omega^2 = g k tanh kh. dC/dz = k S, dS/dz = k C, d theta/dx_j = k e_j, d theta/dt = -omega,
 *    which give the gradient du_i/dx_j term by term. cosh and sinh overflow for kh > 710; in
 *    the exponential forms with E = e^{kz} (z <= 0) and G = e^{-k(z+2h)}, F = e^{-2kh},
 *      C = (E + G)/(1 - F),  S = (E - G)/(1 - F),  P = (E + G)/(1 + F),
 *    every factor is at most 1 and nothing overflows; G/E = e^{-2k(z+h)}, so G is left out
 *    (to rounding) where 2k(z+h) >= 40.
 *
 * 2. Dispersion omega^2 = g k tanh kh: with y = kh and x = omega^2 h/g, y tanh y = x. Start
 *    from Fenton & McKee's explicit approximation y0 = x / tanh(x^{3/4})^{2/3} (Fenton &
 *    McKee 1990, Coastal Engineering 14; within 1.6 % of k everywhere, checked), then Newton on
 *    f(y) = y tanh y - x, f' = tanh y + y (1 - tanh^2 y): quadratic convergence, 2-4 steps
 *    to rounding. For x > 20, y > 20 and tanh y = 1 in double: k = omega^2/g exactly.
 *
 * 3. Stretching above z = 0 (and Wheeler below): see waves.h. Wheeler (1970): the linear
 *    field U(x, z, t) is evaluated at z_s = h (z - eta)/(h + eta), so the surface z = eta maps
 *    to z_s = 0 and the seabed to itself. The exact derivatives follow by the chain rule:
 *      dz_s/dz = h/(h + eta),  dz_s/deta = -h (h + z)/(h + eta)^2,
 *      du/dx_j = dU/dx_j + dU/dz dz_s/deta deta/dx_j,  du/dt = dU/dt + dU/dz dz_s/deta deta/dt.
 *    Extrapolation: f(z) = f(0) + z df/dz(0) for u, du/dt, p and the horizontal gradient
 *    (d/dz of a component's field swaps C and S and multiplies by k; d/dz of P is k (E-G)/(1+F)).
 *
 * 4. Spectra (DNV-RP-C205 s3.5.5): S_PM = (5/16) Hs^2 omega_p^4 omega^-5 exp(-5/4 (omega_p/omega)^4),
 *    S_J = A_g S_PM g^exp(-(omega - omega_p)^2 / (2 sigma^2 omega_p^2)), A_g = 1 - 0.287 ln g,
 *    sigma 0.07 (omega <= omega_p), 0.09 above. The synthesis (waves.h) integrates S on a fine
 *    grid (20000 trapezoids; the bin energies are then equal to ~1e-7) and inverts the
 *    cumulative energy at i m0/n for the bin edges.
 *
 * 5. Measured series: eta_i at t0 + i dt, i < N, mean removed, is written as its discrete
 *    Fourier series eta(t) = sum_j A_j cos(omega_j tau) + B_j sin(omega_j tau), tau = t - t0,
 *    omega_j = 2 pi j/(N dt), A_j, B_j = (2/N) sum_i eta_i (cos, sin)(2 pi j i/N), for
 *    1 <= j < N/2 and omega_j <= omega_max (Nyquist term left out). Each harmonic is a linear
 *    component a_j cos(k e.(x - x_ref) - omega_j t + phi_j) with a_j = |A_j + i B_j|,
 *    phi_j = atan2(B_j, A_j) + omega_j t0 - k e.x_ref: at x_ref it reproduces the record (to
 *    the harmonics kept) and the record repeats with period N dt. Unidirectional (heading_deg).
 *
 * 6. Stream-function theory (Rienecker & Fenton 1981, J. Fluid Mech. 104; Fenton 1988,
 *    Computers & Geosciences 14(3)). In the frame moving with the wave speed c the flow is
 *    steady; with X = k(x - ct) and Y = k(z + h) (from the seabed) and lengths scaled by k,
 *    velocities by sqrt(g/k):
 *      psi(X, Y) = -Ubar Y + sum_{j=1..N} B_j sinh(jY)/cosh(jkh) cos(jX)
 *      u = dpsi/dY (horizontal, moving frame), v = -dpsi/dX,
 *    which satisfies Laplace's equation and the seabed condition exactly. The unknowns
 *    kh, k eta_m (m = 0..N at X_m = m pi/N, crest to trough), B_j, Ubar, c, Q, R (2N + 6) solve
 *      psi(X_m, k eta_m) = -Q                          (kinematic surface condition)
 *      (u^2 + v^2)/2 + k eta_m = R                     (dynamic surface condition, Bernoulli)
 *      trapezoidal mean of k eta_m = kh                (mean level at z = 0)
 *      k eta_0 - k eta_N = (H/h) kh                    (height)
 *      c sqrt(kh) T sqrt(g/h) = 2 pi                   (period: c T = L)
 *      c - Ubar = 0                                    (no Eulerian mean current, Stokes' first)
 *    by Newton's method with a central-difference Jacobian (Fenton 1988 uses differences), from linear
 *    theory, in height steps (more for steeper waves, each started from the linear
 *    extrapolation of the previous two). The surface is the cosine interpolant through the
 *    k eta_m. In the fixed frame u_h = c + sqrt(g/k) u, w = sqrt(g/k) v, d/dt = -omega d/dX,
 *    and Bernoulli gives the dynamic pressure p_d = p + rho g z = rho (g/k)(R - kh - (u^2+v^2)/2).
 *    The collocation satisfies the surface conditions at the N + 1 points only; between them
 *    the error falls spectrally with N. Unless N is given, N = 16, 24, 32, 48, 64 are solved
 *    in turn until the larger of |psi + Q| and |(u^2+v^2)/2 + k eta - R| at the midpoints
 *    (relative to kH; the second is the surface pressure over rho g H) is 1e-8 or less; the
 *    value reached is reported (PlWavesInfo.surface_error).
 *    Breaking limit for the height steps (Fenton 1990, after Williams 1981):
 *      H_max/h = (0.141063 L/h + 0.0095721 (L/h)^2 + 0.0077829 (L/h)^3)
 *              / (1 + 0.0788340 L/h + 0.0317567 (L/h)^2 + 0.0093407 (L/h)^3).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pipelay/waves.h"

static const double kPi = 3.14159265358979323846;

/* A linear component with its precomputed constants. */
typedef struct {
  double a, omega, k, phi, beta;
  double kx, ky;       /* k cos b, k sin b */
  double cb, sb;       /* cos b, sin b */
  double aw, aw2, rga; /* a omega, a omega^2, rho g a */
  double F;            /* e^{-2kh} */
  double inv_s, inv_c; /* 1/(1 - F), 1/(1 + F) */
  double coth, tanh;   /* C and (E - G)/(1 + F) at z = 0: coth kh, tanh kh */
  double two_h_k;      /* 2 k h */
} Comp;

#define STREAM_MAX 64
typedef struct {
  int n;
  double k, c, omega, V, kd, ubar, R, Q, phi, ex, ey, residual, surface_error;
  double B[STREAM_MAX + 1];       /* B_j, j = 1..n */
  double Yc[STREAM_MAX + 1];      /* cosine coefficients of k eta (from the seabed) */
  double inv_den[STREAM_MAX + 1]; /* 1/(1 + e^{-2 j kh}) */
} Stream;

struct PlWaves_ {
  double h, g, rho;
  PlWaveStretching st;
  int n;
  Comp *c;
  double *th, *cs, *sn; /* scratch [n]: the phases of one point, their cosines and sines */
  double *kz, *E;       /* scratch [n]: a deep point's k z and e^{kz} */
  int *idx;             /* scratch [n]: the components a deep point keeps */
  int has_stream;
  Stream s;
  double ramp; /* the linear sea's ramp-in time [s] (PlWavesSetRamp; 0: none) */
  double amplitudes; /* the sum of the linear components' amplitudes: |eta| <= it (the ramp's r <= 1) */
  double deep; /* -(amplitudes) - the caller's wetting band (PlWavesSetSurfaceBand; -inf: none):
                  below it a point is wet whatever the surface, LinearKinematics' deep path */
};

/* ---- the phases' cosines and sines ---------------------------------------------------------
 * cos and sin of n phases at once, in a loop the compiler vectorises (no branch, no call): the
 * phase is reduced to r in [-pi/4, pi/4] about q pi/2, q the nearest integer to 2 theta/pi
 * (x 2/pi + 1.5 2^52 rounds to it and leaves q's two's complement in the low bits of the sum),
 * r = theta - q pi/2 with pi/2 split in three parts (Cody and Waite; the first two of 33 bits,
 * so q P1 and q P2 are exact for |q| < 2^20: |theta| < 1.6e6, beyond which PhasesSinCos uses the
 * library), then sin r and cos r by their Taylor series to r^15 and r^16 (remainders below
 * (pi/4)^17/17! = 5e-17 and (pi/4)^18/18! = 2e-18), and the quadrant q mod 4 swaps them and sets
 * their signs through the bits. Within one unit in the last place of the library's values
 * (tests/test_waves.c), at about a third of its cost. The phase itself, k x - omega t + phi,
 * is known to about 1e-16 |theta| (3e-12 rad after 3 hours): far coarser. */
static const double kTwoOverPi = 0.63661977236758134308, kRoundInt = 6755399441055744.0; /* 1.5 2^52 */
static const double kPio2a = 1.57079632673412561417e+00, kPio2b = 6.07710050630396597660e-11,
                    kPio2c = 2.02226624871116645580e-21;
#define PHASE_MAX 1.6e6

static void SinCosReduced(const double *restrict th, double *restrict c, double *restrict s, int n)
{
  for (int i = 0; i < n; ++i) {
    const double x = th[i], tq = x * kTwoOverPi + kRoundInt, q = tq - kRoundInt;
    uint64_t bits, us, uc;
    memcpy(&bits, &tq, sizeof bits);
    const double r = ((x - q * kPio2a) - q * kPio2b) - q * kPio2c, r2 = r * r;
    const double sr = r + r * r2 * (-1.0 / 6.0 + r2 * (1.0 / 120.0 + r2 * (-1.0 / 5040.0 + r2 * (1.0 / 362880.0 +
                      r2 * (-1.0 / 39916800.0 + r2 * (1.0 / 6227020800.0 + r2 * (-1.0 / 1307674368000.0)))))));
    const double cr = 1.0 + r2 * (-0.5 + r2 * (1.0 / 24.0 + r2 * (-1.0 / 720.0 + r2 * (1.0 / 40320.0 +
                      r2 * (-1.0 / 3628800.0 + r2 * (1.0 / 479001600.0 + r2 * (-1.0 / 87178291200.0 +
                      r2 * (1.0 / 20922789888000.0))))))));
    memcpy(&us, &sr, sizeof us);
    memcpy(&uc, &cr, sizeof uc);
    const uint64_t swap = (us ^ uc) & (0 - (bits & 1)); /* odd quadrants: sin <-> cos */
    us ^= swap, uc ^= swap;
    us ^= (bits & 2) << 62;       /* quadrants 2 and 3: -sin */
    uc ^= ((bits + 1) & 2) << 62; /* quadrants 1 and 2: -cos */
    memcpy(&s[i], &us, sizeof us);
    memcpy(&c[i], &uc, sizeof uc);
  }
}

/* e^x of x[0..n-1] for -700 < x <= 0 into e, in a loop the compiler vectorises: x = q ln 2 + r
 * with q the nearest integer to x / ln 2 (the rounding constant leaves it in the low bits) and
 * ln 2 in two parts (the first with trailing zeros: q ln2a exact for |q| < 2^11), |r| <= ln(2)/2,
 * e^r by its Taylor series to r^13 (remainder below (ln(2)/2)^14/14! = 4e-18), times 2^q added
 * to the exponent's bits. Within one unit in the last place of the library's (tests/test_waves.c). */
static const double kInvLn2 = 1.44269504088896338700e+00, kLn2a = 6.93147180369123816490e-01,
                    kLn2b = 1.90821492927058770002e-10;
static void ExpNonPositive(const double *restrict x, double *restrict e, int n)
{
  for (int i = 0; i < n; ++i) {
    const double tq = x[i] * kInvLn2 + kRoundInt, q = tq - kRoundInt;
    uint64_t bits, u;
    memcpy(&bits, &tq, sizeof bits);
    const double r = (x[i] - q * kLn2a) - q * kLn2b;
    const double p = 1.0 + r * (1.0 + r * (1.0 / 2.0 + r * (1.0 / 6.0 + r * (1.0 / 24.0 + r * (1.0 / 120.0 +
                     r * (1.0 / 720.0 + r * (1.0 / 5040.0 + r * (1.0 / 40320.0 + r * (1.0 / 362880.0 +
                     r * (1.0 / 3628800.0 + r * (1.0 / 39916800.0 + r * (1.0 / 479001600.0 + r * (1.0 / 6227020800.0)))))))))))));
    memcpy(&u, &p, sizeof u);
    u += bits << 52; /* the exponent plus q (two's complement in its 12 bits) */
    memcpy(&e[i], &u, sizeof u);
  }
}

void PlWavesExp(const double *x, double *e, int n) { ExpNonPositive(x, e, n); }

/* cos and sin of th[0..n-1] (SinCosReduced; the library's beyond its range); amax = max |th|. */
static void PhasesSinCos(const double *th, double *c, double *s, int n, double amax)
{
  if (amax < PHASE_MAX) {
    SinCosReduced(th, c, s, n);
    return;
  }
  for (int i = 0; i < n; ++i) c[i] = cos(th[i]), s[i] = sin(th[i]);
}

void PlWavesSinCos(const double *th, double *c, double *s, int n)
{
  double amax = 0.0;
  for (int i = 0; i < n; ++i) amax = fabs(th[i]) > amax ? fabs(th[i]) : amax;
  PhasesSinCos(th, c, s, n, amax);
}

/* The phases of every component at (x, y, t) into w->th, their cosines and sines into w->cs, w->sn. */
static void Phases(PlWaves *w, double x, double y, double t)
{
  double amax = 0.0;
  for (int i = 0; i < w->n; ++i) {
    const Comp *c = &w->c[i];
    w->th[i] = c->kx * x + c->ky * y - c->omega * t + c->phi;
    amax = fabs(w->th[i]) > amax ? fabs(w->th[i]) : amax;
  }
  PhasesSinCos(w->th, w->cs, w->sn, w->n, amax);
}

/* A component is left out at a depth where E = e^{kz} < 1e-16 (Depth). Below the surface the
 * test k z < kDepthCut (ln 1e-16, less a margin far above exp's rounding) leaves out only such
 * components, before their phase's sincos and exp are paid for. */
static const double kDepthCut = -36.841361487904734 - 1e-6;

/* ---- random numbers: splitmix64 (Steele, Lea & Flood 2014) ------------------------------ */
static uint64_t SplitMix(uint64_t *s)
{
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static double Uniform(uint64_t *s) { return (double)(SplitMix(s) >> 11) * 0x1.0p-53; } /* [0, 1) */

/* ---- dispersion, spectra, spreading ------------------------------------------------------- */
double PlWaveNumber(double omega, double depth, double g)
{
  if (!(omega > 0.0) || !(g > 0.0)) return 0.0;
  const double k0 = omega * omega / g;
  if (!(depth > 0.0) || isinf(depth)) return k0;
  const double x = k0 * depth;
  if (x > 20.0) return k0;
  double y = x / pow(tanh(pow(x, 0.75)), 2.0 / 3.0);
  for (int it = 0; it < 50; ++it) {
    const double th = tanh(y), f = y * th - x, df = th + y * (1.0 - th * th);
    const double dy = f / df;
    y -= dy;
    if (fabs(dy) <= 1e-15 * y) break;
  }
  return y / depth;
}

double PlJonswapGamma(double hs, double tp)
{
  const double r = tp / sqrt(hs);
  if (r <= 3.6) return 5.0;
  if (r >= 5.0) return 1.0;
  return exp(5.75 - 1.15 * r);
}

static double Spm(double hs, double wp, double w)
{
  if (!(w > 0.0)) return 0.0;
  const double r = wp / w, r4 = (r * r) * (r * r);
  return 5.0 / 16.0 * hs * hs * r4 / w * exp(-1.25 * r4);
}

double PlWaveSpectrum(const PlWaveTrain *tr, double w)
{
  if (!tr) return 0.0;
  switch (tr->kind) {
  case PL_WAVE_PM:
    return Spm(tr->hs, 2.0 * kPi / tr->tp, w);
  case PL_WAVE_JONSWAP: {
    const double wp = 2.0 * kPi / tr->tp;
    const double gam = tr->gamma > 0.0 ? tr->gamma : PlJonswapGamma(tr->hs, tr->tp);
    const double sa = tr->sigma_a > 0.0 ? tr->sigma_a : 0.07, sb = tr->sigma_b > 0.0 ? tr->sigma_b : 0.09;
    const double sig = w <= wp ? sa : sb, d = (w - wp) / (sig * wp);
    return (1.0 - 0.287 * log(gam)) * Spm(tr->hs, wp, w) * pow(gam, exp(-0.5 * d * d));
  }
  case PL_WAVE_TABLE: {
    const int n = tr->n_table;
    if (n < 2 || w < tr->table_omega[0] || w > tr->table_omega[n - 1]) return 0.0;
    int lo = 0, hi = n - 1;
    while (hi - lo > 1) {
      const int mid = (lo + hi) / 2;
      if (tr->table_omega[mid] <= w) lo = mid;
      else hi = mid;
    }
    const double r = (w - tr->table_omega[lo]) / (tr->table_omega[hi] - tr->table_omega[lo]);
    return tr->table_s[lo] + r * (tr->table_s[hi] - tr->table_s[lo]);
  }
  default:
    return 0.0;
  }
}

double PlWaveSpreading(double s, double dth)
{
  if (!(fabs(dth) < 0.5 * kPi)) return 0.0;
  const double cn = exp(lgamma(s + 1.0) - lgamma(s + 0.5)) / sqrt(kPi);
  return cn * pow(cos(dth), 2.0 * s);
}

/* x at which the piecewise-linear cumulative (xs[i], cum[i]), nondecreasing, reaches v. */
static double InvertCumulative(const double *xs, const double *cum, int n, double v)
{
  if (v <= cum[0]) return xs[0];
  if (v >= cum[n - 1]) return xs[n - 1];
  int lo = 0, hi = n - 1; /* cum[lo] < v <= cum[hi] */
  while (hi - lo > 1) {
    const int mid = (lo + hi) / 2;
    if (cum[mid] < v) lo = mid;
    else hi = mid;
  }
  const double d = cum[hi] - cum[lo];
  return d > 0.0 ? xs[lo] + (v - cum[lo]) / d * (xs[hi] - xs[lo]) : xs[hi];
}

/* ---- components ---------------------------------------------------------------------------- */
static void SetComp(Comp *c, double a, double omega, double k, double beta, double phi, double h, double g,
                    double rho)
{
  c->a = a, c->omega = omega, c->k = k, c->beta = beta, c->phi = phi;
  c->cb = cos(beta), c->sb = sin(beta);
  c->kx = k * c->cb, c->ky = k * c->sb;
  c->aw = a * omega, c->aw2 = a * omega * omega, c->rga = rho * g * a;
  const double F = exp(-2.0 * k * h);
  c->F = F;
  c->inv_s = 1.0 / (1.0 - F), c->inv_c = 1.0 / (1.0 + F);
  c->coth = (1.0 + F) * c->inv_s, c->tanh = (1.0 - F) * c->inv_c;
  c->two_h_k = 2.0 * k * h;
}

/* Linear spectrum synthesis of one train into c[0 .. n*m-1]. */
static int SynthesiseSpectrum(PlWaves *w, const PlWaveTrain *tr, Comp *c, int ncomp, int ndir, char *err,
                              size_t errlen)
{
  double lo = tr->omega_min, hi = tr->omega_max;
  if (tr->kind == PL_WAVE_TABLE) {
    if (!(lo > 0.0)) lo = tr->table_omega[0];
    if (!(hi > 0.0)) hi = tr->table_omega[tr->n_table - 1];
  } else {
    const double wp = 2.0 * kPi / tr->tp;
    if (!(lo > 0.0)) lo = 0.5 * wp;
    if (!(hi > 0.0)) hi = 6.0 * wp;
  }
  if (lo <= 0.0) lo = 1e-6; /* a table from omega = 0 */
  if (!(hi > lo)) {
    snprintf(err, errlen, "waves: spectrum range [%g, %g] rad/s is empty", lo, hi);
    return -1;
  }
  enum { NF = 20001 };
  double *xs = malloc(2 * NF * sizeof *xs);
  if (!xs) {
    snprintf(err, errlen, "waves: out of memory");
    return -1;
  }
  double *cum = xs + NF, sprev = 0.0;
  for (int i = 0; i < NF; ++i) {
    xs[i] = lo + (hi - lo) * i / (NF - 1);
    const double s = PlWaveSpectrum(tr, xs[i]);
    cum[i] = i ? cum[i - 1] + 0.5 * (s + sprev) * (xs[i] - xs[i - 1]) : 0.0;
    sprev = s;
  }
  const double m0 = cum[NF - 1];
  if (!(m0 > 0.0)) {
    free(xs);
    snprintf(err, errlen, "waves: the spectrum has no energy in [%g, %g] rad/s", lo, hi);
    return -1;
  }
  /* equal-energy directions (midpoints of ndir equal shares of the cos^2s distribution) */
  double dirs[256];
  const double beta0 = tr->heading_deg * kPi / 180.0;
  if (ndir == 1) dirs[0] = 0.0;
  else {
    enum { ND = 4001 };
    double th[ND], cd[ND], dprev = 0.0;
    for (int i = 0; i < ND; ++i) {
      th[i] = -0.5 * kPi + kPi * i / (ND - 1);
      const double d = PlWaveSpreading(tr->spreading_s, th[i]);
      cd[i] = i ? cd[i - 1] + 0.5 * (d + dprev) * (th[i] - th[i - 1]) : 0.0;
      dprev = d;
    }
    for (int j = 0; j < ndir; ++j) dirs[j] = InvertCumulative(th, cd, ND, (j + 0.5) / ndir * cd[ND - 1]);
  }
  /* bin i holds the energy [i, i+1) m0/n, split into ndir sub-bins of equal energy; each
   * direction takes one sub-bin (a random permutation per bin, so that direction and
   * frequency are not ordered together) and a frequency uniform in its middle half */
  uint64_t state = tr->seed;
  const int nsub = ncomp * ndir;
  const double amean = sqrt(2.0 * m0 / nsub);
  int perm[256];
  for (int i = 0; i < ncomp; ++i) {
    for (int j = 0; j < ndir; ++j) perm[j] = j;
    for (int j = ndir - 1; j > 0; --j) { /* Fisher-Yates */
      const int r = (int)(Uniform(&state) * (j + 1)), t = perm[j];
      perm[j] = perm[r], perm[r] = t;
    }
    for (int j = 0; j < ndir; ++j) {
      const int sb = i * ndir + perm[j];
      const double s0 = sb == 0 ? lo : InvertCumulative(xs, cum, NF, (double)sb / nsub * m0);
      const double s1 = sb == nsub - 1 ? hi : InvertCumulative(xs, cum, NF, (sb + 1.0) / nsub * m0);
      const double om = 0.5 * (s0 + s1) + 0.5 * (Uniform(&state) - 0.5) * (s1 - s0);
      const double ph = 2.0 * kPi * Uniform(&state);
      double a = amean;
      if (tr->rayleigh) a *= sqrt(-log(1.0 - Uniform(&state)));
      SetComp(&c[i * ndir + j], a, om, PlWaveNumber(om, w->h, w->g), beta0 + dirs[j], ph, w->h, w->g, w->rho);
    }
  }
  free(xs);
  return 0;
}

static int SeriesHarmonics(const PlWaveTrain *tr)
{
  const int n = tr->n_series;
  int jmax = (n - 1) / 2;
  if (tr->series_omega_max > 0.0) {
    const int jw = (int)floor(tr->series_omega_max * n * tr->series_dt / (2.0 * kPi));
    if (jw < jmax) jmax = jw;
  }
  return jmax < 0 ? 0 : jmax;
}

static int SynthesiseSeries(PlWaves *w, const PlWaveTrain *tr, Comp *c, int nh, char *err, size_t errlen)
{
  const int n = tr->n_series;
  double *tab = malloc(2 * (size_t)n * sizeof *tab);
  if (!tab) {
    snprintf(err, errlen, "waves: out of memory");
    return -1;
  }
  double mean = 0.0;
  for (int i = 0; i < n; ++i) mean += tr->series_eta[i];
  mean /= n;
  for (int i = 0; i < n; ++i) tab[2 * i] = cos(2.0 * kPi * i / n), tab[2 * i + 1] = sin(2.0 * kPi * i / n);
  const double T = n * tr->series_dt, beta = tr->heading_deg * kPi / 180.0;
  for (int j = 1; j <= nh; ++j) {
    double A = 0.0, B = 0.0;
    for (int i = 0; i < n; ++i) {
      const long long m = ((long long)j * i) % n;
      const double e = tr->series_eta[i] - mean;
      A += e * tab[2 * m], B += e * tab[2 * m + 1];
    }
    A *= 2.0 / n, B *= 2.0 / n;
    const double om = 2.0 * kPi * j / T, k = PlWaveNumber(om, w->h, w->g);
    const double phi = atan2(B, A) + om * tr->series_t0 - k * (cos(beta) * tr->ref_x + sin(beta) * tr->ref_y);
    SetComp(&c[j - 1], hypot(A, B), om, k, beta, phi, w->h, w->g, w->rho);
  }
  free(tab);
  return 0;
}

/* ---- stream function ------------------------------------------------------------------------- */
/* Residuals of the 2N + 6 equations at the unknowns z (layout: kh, k eta_0..N, B_1..N, Ubar, c,
 * Q, R), for height ratio hd = H/h and tau = T sqrt(g/h). trig[2 (m (n+1) + j)] holds
 * cos, sin(j m pi/n). sinh(jY)/cosh(jkh) and cosh(jY)/cosh(jkh) in their exponential forms
 * (r^j -+ q^j)/(1 + e^{-2jkh}), r = e^{Y - kh}, q = e^{-(Y + kh)}, by powers. */
static void StreamResidual(int n, double hd, double tau, const double *trig, const double *z, double *f)
{
  const double kd = z[0], *eta = z + 1, *B = z + n + 1; /* B[j], j = 1..n */
  const double ubar = z[2 * n + 2], c = z[2 * n + 3], Q = z[2 * n + 4], R = z[2 * n + 5];
  double inv_den[STREAM_MAX + 1];
  for (int j = 1; j <= n; ++j) inv_den[j] = 1.0 / (1.0 + exp(-2.0 * j * kd));
  double mean = 0.5 * (eta[0] + eta[n]);
  for (int m = 0; m <= n; ++m) {
    const double Y = eta[m], r = exp(Y - kd), q = exp(-(Y + kd));
    const double *tc = trig + 2 * m * (n + 1);
    double psi = -ubar * Y, u = -ubar, v = 0.0, rj = 1.0, qj = 1.0;
    for (int j = 1; j <= n; ++j) {
      rj *= r, qj *= q;
      const double sh = (rj - qj) * inv_den[j], ch = (rj + qj) * inv_den[j], cj = tc[2 * j], sj = tc[2 * j + 1];
      psi += B[j] * sh * cj;
      u += j * B[j] * ch * cj;
      v += j * B[j] * sh * sj;
    }
    f[m] = psi + Q;
    f[n + 1 + m] = 0.5 * (u * u + v * v) + Y - R;
    if (m > 0 && m < n) mean += eta[m];
  }
  f[2 * n + 2] = mean / n - kd;
  f[2 * n + 3] = eta[0] - eta[n] - hd * kd;
  f[2 * n + 4] = c * sqrt(kd) * tau - 2.0 * kPi;
  f[2 * n + 5] = c - ubar;
}

static double MaxAbs(const double *v, int n)
{
  double m = 0.0;
  for (int i = 0; i < n; ++i)
    if (fabs(v[i]) > m || isnan(v[i])) m = isnan(v[i]) ? INFINITY : fabs(v[i]);
  return m;
}

/* k eta (from the seabed) of the stream-function wave at phase X, and d/dX. */
static void StreamEta(const Stream *s, double X, double *ke, double *dke);

/* psi and the moving-frame velocity (u, v) at phase X and height Y = k(z + h) (scaled). */
static void StreamField(const Stream *s, double X, double Y, double *psi, double *u, double *v)
{
  const double c1 = cos(X), s1 = sin(X), r = exp(Y - s->kd), q = exp(-(Y + s->kd));
  double cj = 1.0, sj = 0.0, rj = 1.0, qj = 1.0, p = -s->ubar * Y, uu = -s->ubar, vv = 0.0;
  for (int j = 1; j <= s->n; ++j) {
    const double cn = cj * c1 - sj * s1;
    sj = sj * c1 + cj * s1, cj = cn;
    rj *= r, qj *= q;
    const double ch = (rj + qj) * s->inv_den[j], sh = (rj - qj) * s->inv_den[j];
    p += s->B[j] * sh * cj, uu += j * s->B[j] * ch * cj, vv += j * s->B[j] * sh * sj;
  }
  *psi = p, *u = uu, *v = vv;
}

/* The largest residual of the two surface conditions at the midpoints between the
 * collocation points, on the interpolated surface, relative to kH (for the dynamic condition
 * it is the surface pressure in units of rho g H). */
static double StreamSurfaceError(const Stream *s, double kH)
{
  double e = 0.0;
  for (int m = 0; m < s->n; ++m) {
    const double X = (m + 0.5) * kPi / s->n;
    double ke, dke, psi, u, v;
    StreamEta(s, X, &ke, &dke);
    StreamField(s, X, ke, &psi, &u, &v);
    e = fmax(e, fmax(fabs(psi + s->Q), fabs(0.5 * (u * u + v * v) + ke - s->R)) / kH);
  }
  return e;
}

/* Solves the wave with n terms into s (heading and phase not set). Returns 0, or -1 with a
 * message. */
static int StreamSolveN(const PlWaves *w, const PlWaveTrain *tr, int n, double hmax, Stream *s, char *err,
                        size_t errlen)
{
  const int nu = 2 * n + 6;
  const double h = w->h, g = w->g, H = tr->height, T = tr->period;
  const double kd0 = PlWaveNumber(2.0 * kPi / T, h, g) * h;
  const int nsteps = 1 + (int)floor(8.0 * (H / h) / hmax);
  const double tau = T * sqrt(g / h);
  double *z = calloc((size_t)nu * (nu + 6) + 2 * (size_t)(n + 1) * (n + 1), sizeof *z);
  if (!z) {
    snprintf(err, errlen, "waves: out of memory");
    return -1;
  }
  double *zp = z + nu, *zpp = zp + nu, *f = zpp + nu, *fp = f + nu, *J = fp + nu, *trig = J + nu * (nu + 1);
  for (int m = 0; m <= n; ++m)
    for (int j = 0; j <= n; ++j) {
      const int jm = (j * m) % (2 * n); /* cos, sin(jm pi/n) with the angle reduced exactly */
      trig[2 * (m * (n + 1) + j)] = cos(jm * kPi / n), trig[2 * (m * (n + 1) + j) + 1] = sin(jm * kPi / n);
    }
  /* linear theory at the first height */
  {
    const double hd = H / h / nsteps, ka = 0.5 * hd * kd0, th = tanh(kd0), c0 = sqrt(th);
    z[0] = kd0;
    for (int m = 0; m <= n; ++m) z[1 + m] = kd0 + ka * cos(m * kPi / n);
    z[n + 2] = ka / sqrt(th); /* B_1 */
    z[2 * n + 2] = c0, z[2 * n + 3] = c0, z[2 * n + 4] = c0 * kd0, z[2 * n + 5] = 0.5 * c0 * c0 + kd0;
  }
  double res = INFINITY;
  for (int step = 1; step <= nsteps; ++step) {
    const double hd = H / h * step / nsteps;
    if (step >= 3)
      for (int i = 0; i < nu; ++i) z[i] = 2.0 * zp[i] - zpp[i];
    else if (step == 2)
      for (int i = 0; i < nu; ++i) z[i] = zp[i];
    int ok = 0;
    double res_prev = INFINITY;
    for (int it = 0; it < 60; ++it) {
      StreamResidual(n, hd, tau, trig, z, f);
      res = MaxAbs(f, nu);
      if (!isfinite(res)) break;
      /* solved to rounding, or Newton no longer gains (the rounding floor of an
       * ill-conditioned system of many terms) at a small residual */
      if (res < 1e-14 * (1.0 + z[0]) || (res < 1e-9 && res > 0.25 * res_prev)) {
        ok = 1;
        break;
      }
      res_prev = res;
      /* Jacobian by central differences: steps of 1e-6 in kh and k eta (the harmonics
       * e^{j(Y - kh)} vary on the scale 1/j), relative 1e-6 in the others (in which the
       * equations are linear or quadratic) */
      for (int c = 0; c < nu; ++c) {
        const double zc = z[c], dz = c <= n + 1 ? 1e-6 : 1e-6 * (fabs(zc) > 1e-3 ? fabs(zc) : 1e-3);
        z[c] = zc + dz;
        StreamResidual(n, hd, tau, trig, z, fp);
        z[c] = zc - dz;
        StreamResidual(n, hd, tau, trig, z, J + (size_t)nu * nu); /* scratch row block */
        z[c] = zc;
        for (int r = 0; r < nu; ++r) J[r * nu + c] = (fp[r] - J[(size_t)nu * nu + r]) / (2.0 * dz);
      }
      for (int r = 0; r < nu; ++r) f[r] = -f[r];
      if (PlDenseSolveInPlace(nu, J, f)) break;
      for (int i = 0; i < nu; ++i) z[i] += f[i];
    }
    if (!ok || !(z[0] > 0.0)) {
      snprintf(err, errlen, "waves: the stream-function solution (H %g m, T %g s, h %g m, N %d) did not converge "
                            "(residual %.3g at height step %d of %d)", H, T, h, n, res, step, nsteps);
      free(z);
      return -1;
    }
    memcpy(zpp, zp, nu * sizeof *z);
    memcpy(zp, z, nu * sizeof *z);
  }
  s->n = n, s->kd = z[0], s->k = z[0] / h, s->V = sqrt(g / s->k);
  s->ubar = z[2 * n + 2], s->c = z[2 * n + 3] * s->V, s->Q = z[2 * n + 4], s->R = z[2 * n + 5];
  s->omega = s->k * s->c, s->residual = res;
  for (int j = 1; j <= n; ++j) s->B[j] = z[n + 1 + j], s->inv_den[j] = 1.0 / (1.0 + exp(-2.0 * j * s->kd));
  for (int j = 0; j <= n; ++j) {
    double y = 0.5 * (z[1] + z[1 + n] * (j % 2 ? -1.0 : 1.0));
    for (int m = 1; m < n; ++m) y += z[1 + m] * trig[2 * (m * (n + 1) + j)];
    s->Yc[j] = 2.0 * y / n;
  }
  s->surface_error = StreamSurfaceError(s, s->k * H);
  free(z);
  return 0;
}

/* The stream-function train: with stream_terms given, that many terms; otherwise N = 16, 24,
 * 32, 48, 64 in turn until the surface conditions hold between the collocation points to
 * 1e-8 (relative to kH), keeping the best converged solution. */
static int StreamSolve(PlWaves *w, const PlWaveTrain *tr, char *err, size_t errlen)
{
  const double h = w->h, g = w->g, H = tr->height, T = tr->period;
  if (!(H > 0.0) || !(T > 0.0)) {
    snprintf(err, errlen, "waves: a stream-function wave needs height > 0 and period > 0");
    return -1;
  }
  if (tr->stream_terms && (tr->stream_terms < 4 || tr->stream_terms > STREAM_MAX)) {
    snprintf(err, errlen, "waves: stream_terms %d outside 4..%d", tr->stream_terms, STREAM_MAX);
    return -1;
  }
  const double kd0 = PlWaveNumber(2.0 * kPi / T, h, g) * h, Ld = 2.0 * kPi / kd0;
  const double hmax = (0.141063 * Ld + 0.0095721 * Ld * Ld + 0.0077829 * Ld * Ld * Ld) /
                      (1.0 + 0.0788340 * Ld + 0.0317567 * Ld * Ld + 0.0093407 * Ld * Ld * Ld);
  if (H / h > 0.95 * hmax) {
    snprintf(err, errlen,
             "waves: stream-function wave H = %g m is %.0f %% of the breaking height %g m (at most 95 %%)", H,
             100.0 * H / h / hmax, hmax * h);
    return -1;
  }
  if (tr->stream_terms) return StreamSolveN(w, tr, tr->stream_terms, hmax, &w->s, err, errlen);
  static const int ladder[] = {16, 24, 32, 48, 64};
  Stream *trial = malloc(sizeof *trial);
  if (!trial) {
    snprintf(err, errlen, "waves: out of memory");
    return -1;
  }
  int have = 0;
  for (size_t i = 0; i < sizeof ladder / sizeof *ladder; ++i) {
    if (StreamSolveN(w, tr, ladder[i], hmax, trial, err, errlen)) {
      if (have) break; /* keep the fewer terms' solution */
      continue;
    }
    if (!have || trial->surface_error < w->s.surface_error) w->s = *trial, have = 1;
    if (w->s.surface_error <= 1e-8) break;
  }
  free(trial);
  if (!have) return -1;
  err[0] = '\0';
  return 0;
}

/* k eta (from the seabed) of the stream-function wave at phase X, and d/dX. */
static void StreamEta(const Stream *s, double X, double *ke, double *dke)
{
  const double c1 = cos(X), s1 = sin(X);
  double cj = 1.0, sj = 0.0, e = 0.5 * s->Yc[0], de = 0.0;
  for (int j = 1; j <= s->n; ++j) {
    const double cn = cj * c1 - sj * s1;
    sj = sj * c1 + cj * s1, cj = cn;
    const double wgt = j == s->n ? 0.5 : 1.0;
    e += wgt * s->Yc[j] * cj;
    de -= wgt * j * s->Yc[j] * sj;
  }
  *ke = e, *dke = de;
}

static void StreamKinematics(const PlWaves *w, const double x[3], double t, PlWaveKin *k)
{
  const Stream *s = &w->s;
  const double X = s->k * (s->ex * x[0] + s->ey * x[1]) - s->omega * t + s->phi;
  double ke, dke;
  StreamEta(s, X, &ke, &dke);
  k->eta = (ke - s->kd) / s->k;
  k->deta_dx[0] = dke * s->ex, k->deta_dx[1] = dke * s->ey; /* d(k eta)/dX dX/dx_j / k */
  if (x[2] > k->eta) return;
  k->wet = 1;
  const double Y = x[2] < -w->h ? 0.0 : s->k * (x[2] + w->h);
  const double c1 = cos(X), s1 = sin(X), r = exp(Y - s->kd), q = exp(-(Y + s->kd));
  double cj = 1.0, sj = 0.0, rj = 1.0, qj = 1.0;
  double u = -s->ubar, v = 0.0, uX = 0.0, uY = 0.0, vX = 0.0, vY = 0.0, uXX = 0.0, uXY = 0.0, vXX = 0.0, vXY = 0.0;
  for (int j = 1; j <= s->n; ++j) {
    const double cn = cj * c1 - sj * s1;
    sj = sj * c1 + cj * s1, cj = cn;
    rj *= r, qj *= q;
    const double ch = (rj + qj) * s->inv_den[j], sh = (rj - qj) * s->inv_den[j];
    const double jb = j * s->B[j], jjb = j * jb, j3b = j * jjb;
    u += jb * ch * cj, v += jb * sh * sj;
    uX -= jjb * ch * sj, uY += jjb * sh * cj;
    vX += jjb * sh * cj, vY += jjb * ch * sj;
    uXX -= j3b * ch * cj, uXY -= j3b * sh * sj; /* (the accelerations' gradient) */
    vXX -= j3b * sh * sj, vXY += j3b * ch * cj;
  }
  if (x[2] < -w->h) uY = vY = uXY = vXY = 0.0;
  const double V = s->V, kk = s->k, e[2] = {s->ex, s->ey};
  const double uh = s->c + V * u;
  k->u[0] = uh * e[0], k->u[1] = uh * e[1], k->u[2] = V * v;
  for (int i = 0; i < 2; ++i) {
    k->a[i] = -s->omega * V * uX * e[i];
    for (int j = 0; j < 2; ++j) k->du_dx[i * 3 + j] = V * kk * uX * e[i] * e[j];
    k->du_dx[i * 3 + 2] = V * kk * uY * e[i];
    k->du_dx[6 + i] = V * kk * vX * e[i];
  }
  k->a[2] = -s->omega * V * vX;
  k->du_dx[8] = V * kk * vY;
  /* a = -omega V (uX e, vX): d/dx_j = -omega V k (uXX e e_j, vXX e_j), d/dz = -omega V k (uXY e, vXY) */
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 2; ++j) k->da_dx[i * 3 + j] = -s->omega * V * kk * uXX * e[i] * e[j];
    k->da_dx[i * 3 + 2] = -s->omega * V * kk * uXY * e[i];
    k->da_dx[6 + i] = -s->omega * V * kk * vXX * e[i];
  }
  k->da_dx[8] = -s->omega * V * kk * vXY;
  k->p = w->rho * w->g / kk * (s->R - s->kd - 0.5 * (u * u + v * v));
}

int PlWavesStreamPsi(const PlWaves *w, const double x[3], double t, double *psi)
{
  if (!w || !w->has_stream) return -1;
  const Stream *s = &w->s;
  const double X = s->k * (s->ex * x[0] + s->ey * x[1]) - s->omega * t + s->phi, Y = s->k * (x[2] + w->h);
  double p = -s->ubar * Y;
  for (int j = 1; j <= s->n; ++j)
    p += s->B[j] * (exp(j * (Y - s->kd)) - exp(-j * (Y + s->kd))) * s->inv_den[j] * cos(j * X);
  *psi = p * s->V / s->k;
  return 0;
}

/* ---- linear kinematics ------------------------------------------------------------------------ */
/* A linear field: u, a = du/dt, their horizontal gradients g and ag ([i][j]: d/dx_j, j = x, y)
 * and z derivatives uz and az; for Wheeler's chain rule also uz's horizontal gradient uzg and
 * its z derivative uzz; the dynamic pressure p. */
typedef struct {
  double u[3], a[3], g[3][2], ag[3][2], uz[3], az[3], uzg[3][2], uzz[3], p;
} Field;

/* Adds one component with depth functions C, S, P and phase cos/sin (the z derivatives use
 * dC/dz = k S, dS/dz = k C: unused for the field of d/dz in the extrapolation) up to level: -1
 * the values u, a, p alone, 0 also uz (Wheeler's a needs it), 1 also the gradients g, ag, az, 2
 * also uzg and uzz (Wheeler's gradients). */
static inline void Accum(Field *f, const Comp *c, double C, double S, double P, double cs, double sn, int level)
{
  const double hu = c->aw * C * cs, w = c->aw * S * sn, ha = c->aw2 * C * sn;
  const double dh = -c->aw * C * sn, dw = c->aw * S * cs; /* d/dtheta */
  const double e0 = c->cb, e1 = c->sb;
  f->u[0] += hu * e0, f->u[1] += hu * e1, f->u[2] += w;
  f->a[0] += ha * e0, f->a[1] += ha * e1, f->a[2] -= c->aw2 * S * cs;
  f->p += c->rga * P * cs;
  if (level < 0) return;
  const double huz = c->aw * c->k * S * cs;
  f->uz[0] += huz * e0, f->uz[1] += huz * e1, f->uz[2] += c->aw * c->k * C * sn;
  if (!level) return;
  f->g[0][0] += dh * e0 * c->kx, f->g[0][1] += dh * e0 * c->ky;
  f->g[1][0] += dh * e1 * c->kx, f->g[1][1] += dh * e1 * c->ky;
  f->g[2][0] += dw * c->kx, f->g[2][1] += dw * c->ky;
  /* a's gradient: d/dtheta of a_h = aw2 C sn, a_z = -aw2 S cs times k_j; d/dz with C' = k S, S' = k C */
  const double dha = c->aw2 * C * cs, dza = c->aw2 * S * sn, haz = c->aw2 * c->k * S * sn;
  f->ag[0][0] += dha * e0 * c->kx, f->ag[0][1] += dha * e0 * c->ky;
  f->ag[1][0] += dha * e1 * c->kx, f->ag[1][1] += dha * e1 * c->ky;
  f->ag[2][0] += dza * c->kx, f->ag[2][1] += dza * c->ky;
  f->az[0] += haz * e0, f->az[1] += haz * e1, f->az[2] -= c->aw2 * c->k * C * cs;
  if (level < 2) return;
  /* uz's gradient: d/dtheta of uz_h = aw k S cs, uz_z = aw k C sn times k_j; d/dz */
  const double kk = c->aw * c->k, dhz = -kk * S * sn, dzz = kk * C * cs, hzz = kk * c->k * C * cs;
  f->uzg[0][0] += dhz * e0 * c->kx, f->uzg[0][1] += dhz * e0 * c->ky;
  f->uzg[1][0] += dhz * e1 * c->kx, f->uzg[1][1] += dhz * e1 * c->ky;
  f->uzg[2][0] += dzz * c->kx, f->uzg[2][1] += dzz * c->ky;
  f->uzz[0] += hzz * e0, f->uzz[1] += hzz * e1, f->uzz[2] += kk * c->k * S * sn;
}

/* Depth functions at z <= 0 from E = e^{kz}; returns 0 when the component is negligible there. */
static inline int DepthE(const Comp *c, double E, double z, double h, double *C, double *S, double *P)
{
  if (E < 1e-16) return 0;
  const double G = 2.0 * c->k * (z + h) < 40.0 ? c->F / E : 0.0; /* e^{-k(z+2h)}, E >= 1e-16 */
  *C = (E + G) * c->inv_s, *S = (E - G) * c->inv_s, *P = (E + G) * c->inv_c;
  return 1;
}

/* e^{k_i z} of every component into w->E (z <= 0; k z below -700 taken as -700, where e^{kz}
 * is far below DepthE's 1e-16 as the exact value is). */
static void DepthExponentials(PlWaves *w, double z)
{
  for (int i = 0; i < w->n; ++i) {
    const double kz = w->c[i].k * z;
    w->kz[i] = kz < -700.0 ? -700.0 : kz;
  }
  ExpNonPositive(w->kz, w->E, w->n);
}

/* The ramp-in of the linear sea: every amplitude times r(t) = PlRamp(t / T) (C^2; r = 1 from T on),
 * so a quantity linear in the amplitudes, q = r Q, has the rate q' = r Q' + r' Q. Returns 0 (r = 1,
 * r' = 0: nothing to scale) when there is no ramp or it is over. */
static int Ramp(const PlWaves *w, double t, double *r, double *dr)
{
  if (!(w->ramp > 0.0) || t >= w->ramp) return 0;
  double ddr;
  PlRamp(t / w->ramp, r, dr, &ddr);
  *dr /= w->ramp;
  return 1;
}

/* A field of the ramped sea from the full sea's: r times each value, the accelerations (time
 * derivatives) r a + r' u, r ag + r' g, r az + r' uz. */
static void RampField(Field *f, double r, double dr)
{
  for (int i = 0; i < 3; ++i) {
    f->a[i] = r * f->a[i] + dr * f->u[i];
    f->az[i] = r * f->az[i] + dr * f->uz[i];
    f->u[i] *= r, f->uz[i] *= r, f->uzz[i] *= r;
    for (int j = 0; j < 2; ++j) {
      f->ag[i][j] = r * f->ag[i][j] + dr * f->g[i][j];
      f->g[i][j] *= r, f->uzg[i][j] *= r;
    }
  }
  f->p *= r;
}

/* The linear sea's kinematics at x, t; the gradients du_dx, da_dx only with grad (else left zero).
 * During the ramp (PlWavesSetRamp) the sea is the ramped one: its elevation r eta decides the
 * wetting and Wheeler's stretching, its fields are RampField's. */
static void LinearKinematics(PlWaves *w, const double x[3], double t, PlWaveKin *k, int grad)
{
  const double h = w->h, zin = x[2] < -h ? -h : x[2];
  Field f0, f1;
  memset(&f0, 0, sizeof f0);
  memset(&f1, 0, sizeof f1);
  double eta = 0.0, r = 1.0, dr = 0.0;
  const int ramp = Ramp(w, t, &r, &dr);
  if (w->st == PL_STRETCH_WHEELER) {
    double ex = 0.0, ey = 0.0, et = 0.0, etx = 0.0, ety = 0.0; /* eta's gradient, rate and the rate's gradient */
    Phases(w, x[0], x[1], t);
    for (int i = 0; i < w->n; ++i) {
      const Comp *c = &w->c[i];
      const double cs = w->cs[i], sn = w->sn[i];
      eta += c->a * cs;
      ex -= c->a * sn * c->kx, ey -= c->a * sn * c->ky, et += c->a * c->omega * sn;
      etx += c->a * c->omega * cs * c->kx, ety += c->a * c->omega * cs * c->ky;
    }
    if (ramp) { /* the ramped surface r eta: its gradient r grad eta, its rate r eta' + r' eta */
      et = r * et + dr * eta, etx = r * etx + dr * ex, ety = r * ety + dr * ey;
      eta *= r, ex *= r, ey *= r;
    }
    k->eta = eta;
    k->deta_dx[0] = ex, k->deta_dx[1] = ey;
    if (zin > eta) return;
    k->wet = 1;
    const double den = h + eta, zs = h * (zin - eta) / den;
    DepthExponentials(w, zs);
    for (int i = 0; i < w->n; ++i) {
      double C, S, P;
      if (DepthE(&w->c[i], w->E[i], zs, h, &C, &S, &P))
        Accum(&f0, &w->c[i], C, S, P, w->cs[i], w->sn[i], 2 * grad);
    }
    if (ramp) RampField(&f0, r, dr);
    const double dzs_deta = -h * (h + zin) / (den * den), dzs_dz = x[2] < -h ? 0.0 : h / den;
    /* a = U_t + U_z z_s,eta eta_t; its gradient by the chain rule, with z_s,j = z_s,eta eta_j,
     * d(z_s,eta)/dx_j = 2 h (h + z)/(h + eta)^3 eta_j and d(z_s,eta)/dz = -h/(h + eta)^2 */
    const double d2 = 2.0 * h * (h + zin) / (den * den * den), d2z = x[2] < -h ? 0.0 : -h / (den * den);
    const double ej[2] = {ex, ey}, etj[2] = {etx, ety};
    for (int i = 0; i < 3; ++i) {
      k->u[i] = f0.u[i];
      k->a[i] = f0.a[i] + f0.uz[i] * dzs_deta * et;
      if (!grad) continue;
      k->du_dx[i * 3 + 0] = f0.g[i][0] + f0.uz[i] * dzs_deta * ex;
      k->du_dx[i * 3 + 1] = f0.g[i][1] + f0.uz[i] * dzs_deta * ey;
      k->du_dx[i * 3 + 2] = f0.uz[i] * dzs_dz;
      for (int j = 0; j < 2; ++j) {
        const double zsj = dzs_deta * ej[j];
        k->da_dx[i * 3 + j] = f0.ag[i][j] + f0.az[i] * zsj + (f0.uzg[i][j] + f0.uzz[i] * zsj) * dzs_deta * et +
                              f0.uz[i] * (d2 * ej[j] * et + dzs_deta * etj[j]);
      }
      k->da_dx[i * 3 + 2] = (f0.az[i] + f0.uzz[i] * dzs_deta * et) * dzs_dz + f0.uz[i] * d2z * et;
    }
    k->p = f0.p;
    return;
  }
  const int above = zin > 0.0, extrap = above && w->st == PL_STRETCH_EXTRAPOLATION;
  double ex = 0.0, ey = 0.0; /* grad eta */
  if (zin < w->deep) {
    /* Deep: wet whatever eta is, so eta (the one use of a component at such a depth that
     * e^{kz} < 1e-16) is not summed: k->deta_dx and k->eta stay 0 and k->deep says so; the
     * components the depth leaves out are skipped before their sincos. The sums of the kept
     * components are those of the loop below, term for term and in its order. */
    int m = 0;
    double amax = 0.0;
    for (int i = 0; i < w->n; ++i) {
      const Comp *c = &w->c[i];
      if (c->k * zin < kDepthCut) continue;
      w->idx[m] = i;
      w->kz[m] = c->k * zin;
      w->th[m] = c->kx * x[0] + c->ky * x[1] - c->omega * t + c->phi;
      amax = fabs(w->th[m]) > amax ? fabs(w->th[m]) : amax;
      ++m;
    }
    PhasesSinCos(w->th, w->cs, w->sn, m, amax);
    ExpNonPositive(w->kz, w->E, m); /* k z >= the cut, far above -700 */
    for (int j = 0; j < m; ++j) {
      const Comp *c = &w->c[w->idx[j]];
      double C, S, P;
      if (DepthE(c, w->E[j], zin, h, &C, &S, &P)) Accum(&f0, c, C, S, P, w->cs[j], w->sn[j], grad ? 1 : -1);
    }
    k->deep = 1;
  } else {
    Phases(w, x[0], x[1], t);
    if (!above) DepthExponentials(w, zin);
    for (int i = 0; i < w->n; ++i) {
      const Comp *c = &w->c[i];
      const double cs = w->cs[i], sn = w->sn[i];
      eta += c->a * cs;
      ex -= c->a * sn * c->kx, ey -= c->a * sn * c->ky;
      if (above) {
        Accum(&f0, c, c->coth, 1.0, 1.0, cs, sn, grad ? 1 : -1);
        /* d/dz at z = 0: C' = k S = k, S' = k C = k coth kh, P' = k tanh kh */
        if (extrap) Accum(&f1, c, c->k, c->k * c->coth, c->k * c->tanh, cs, sn, grad ? 1 : -1);
      } else {
        double C, S, P;
        if (DepthE(c, w->E[i], zin, h, &C, &S, &P)) Accum(&f0, c, C, S, P, cs, sn, grad ? 1 : -1);
      }
    }
  }
  if (ramp) {
    eta *= r, ex *= r, ey *= r;
    RampField(&f0, r, dr);
    RampField(&f1, r, dr);
  }
  k->eta = eta;
  k->deta_dx[0] = ex, k->deta_dx[1] = ey;
  if (zin > eta) return;
  k->wet = 1;
  const double zz = extrap ? zin : 0.0;
  for (int i = 0; i < 3; ++i) {
    k->u[i] = f0.u[i] + zz * f1.u[i];
    k->a[i] = f0.a[i] + zz * f1.a[i];
    if (!grad) continue;
    k->du_dx[i * 3 + 0] = f0.g[i][0] + zz * f1.g[i][0];
    k->du_dx[i * 3 + 1] = f0.g[i][1] + zz * f1.g[i][1];
    k->du_dx[i * 3 + 2] = (above && !extrap) || x[2] < -h ? 0.0 : f0.uz[i];
    k->da_dx[i * 3 + 0] = f0.ag[i][0] + zz * f1.ag[i][0];
    k->da_dx[i * 3 + 1] = f0.ag[i][1] + zz * f1.ag[i][1];
    k->da_dx[i * 3 + 2] = (above && !extrap) || x[2] < -h ? 0.0 : f0.az[i];
  }
  k->p = f0.p + zz * f1.p;
}

/* The waves' kinematics at x, t (the gradients only with grad: the stream function's always). */
static void Kinematics(PlWaves *w, const double x[3], double t, PlWaveKin *k, int grad)
{
  memset(k, 0, sizeof *k);
  if (!w) {
    k->wet = x[2] <= 0.0;
    return;
  }
  if (w->has_stream) StreamKinematics(w, x, t, k);
  else LinearKinematics(w, x, t, k, grad);
}

void PlWavesKinematics(PlWaves *w, const double x[3], double t, PlWaveKin *k) { Kinematics(w, x, t, k, 1); }

double PlWavesElevation(PlWaves *w, double x, double y, double t)
{
  if (!w) return 0.0;
  if (w->has_stream) {
    const Stream *s = &w->s;
    double ke, dke;
    StreamEta(s, s->k * (s->ex * x + s->ey * y) - s->omega * t + s->phi, &ke, &dke);
    return (ke - s->kd) / s->k;
  }
  double eta = 0.0, r, dr;
  Phases(w, x, y, t);
  for (int i = 0; i < w->n; ++i) eta += w->c[i].a * w->cs[i];
  return Ramp(w, t, &r, &dr) ? r * eta : eta;
}

int PlWavesSetSurfaceBand(PlWaves *w, double band)
{
  if (!w || !(band >= 0.0)) return -1;
  w->deep = -w->amplitudes - band;
  return 0;
}

int PlWavesSetRamp(PlWaves *w, double ramp_time)
{
  if (!w || !(ramp_time >= 0.0)) return -1;
  if (w->has_stream && ramp_time > 0.0) return -1;
  w->ramp = ramp_time;
  return 0;
}

/* PlWavesFluid, the gradients only with grad. */
static void Fluid(PlWaves *w, const PlCurrent *c, const double x[3], double t, PlWaveKin *k, int grad)
{
  Kinematics(w, x, t, k, grad);
  if (!w || !k->wet || !c || c->kind == PL_CURRENT_NONE) return;
  const double depth = w->h;
  double v[3], dv[3];
  PlCurrentVelocity(c, depth, x[2] < -depth ? -depth : x[2], t, v, dv);
  /* the ramp s(t): v = s U(z) e, so dv/dt = (ds/dt / s) v */
  double rate = 0.0;
  if (c->ramp_time > 0.0) {
    double f, df, ddf;
    PlRamp((t - c->start_time) / c->ramp_time, &f, &df, &ddf);
    if (f > 0.0) rate = df / c->ramp_time / f;
  }
  for (int i = 0; i < 3; ++i) {
    k->u[i] += v[i];
    k->a[i] += rate * v[i];
    if (grad && x[2] >= -depth) k->du_dx[i * 3 + 2] += dv[i], k->da_dx[i * 3 + 2] += rate * dv[i];
  }
}

void PlWavesFluid(PlWaves *w, const PlCurrent *c, const double x[3], double t, PlWaveKin *k) { Fluid(w, c, x, t, k, 1); }

void PlWavesFluidValues(PlWaves *w, const PlCurrent *c, const double x[3], double t, PlWaveKin *k)
{
  Fluid(w, c, x, t, k, 0);
}

double PlWavesWettedFraction(PlWaves *w, const double xa[3], const double xb[3], double t)
{
  enum { NS = 8 };
  double fs[NS + 1], wet = 0.0;
  for (int i = 0; i <= NS; ++i) {
    const double r = (double)i / NS;
    const double p[3] = {xa[0] + r * (xb[0] - xa[0]), xa[1] + r * (xb[1] - xa[1]), xa[2] + r * (xb[2] - xa[2])};
    fs[i] = p[2] - PlWavesElevation(w, p[0], p[1], t); /* <= 0: wet */
  }
  for (int i = 0; i < NS; ++i) {
    const double r0 = (double)i / NS, r1 = (double)(i + 1) / NS;
    if (fs[i] <= 0.0 && fs[i + 1] <= 0.0) wet += r1 - r0;
    else if ((fs[i] <= 0.0) != (fs[i + 1] <= 0.0)) {
      double lo = r0, hi = r1; /* the crossing: f(lo) has the sign of fs[i] */
      for (int it = 0; it < 40; ++it) {
        const double m = 0.5 * (lo + hi);
        const double p[3] = {xa[0] + m * (xb[0] - xa[0]), xa[1] + m * (xb[1] - xa[1]), xa[2] + m * (xb[2] - xa[2])};
        const double fm = p[2] - PlWavesElevation(w, p[0], p[1], t);
        if ((fm <= 0.0) == (fs[i] <= 0.0)) lo = m;
        else hi = m;
      }
      const double m = 0.5 * (lo + hi);
      wet += fs[i] <= 0.0 ? m - r0 : r1 - m;
    }
  }
  return wet;
}

/* ---- construction ------------------------------------------------------------------------------ */
PlWaves *PlWavesCreate(double depth, double g, double rho, PlWaveStretching stretching,
                       const PlWaveTrain *trains, int ntrains, char *err, size_t errlen)
{
  char dummy[8];
  if (!err) err = dummy, errlen = sizeof dummy;
  err[0] = '\0';
  if (!(depth > 0.0) || !isfinite(depth) || !(g > 0.0) || !(rho > 0.0) || ntrains < 0 || (ntrains && !trains)) {
    snprintf(err, errlen, "waves: need depth > 0 (finite), g > 0, rho > 0 and the trains");
    return NULL;
  }
  if (stretching != PL_STRETCH_VERTICAL && stretching != PL_STRETCH_WHEELER &&
      stretching != PL_STRETCH_EXTRAPOLATION) {
    snprintf(err, errlen, "waves: unknown stretching %d", (int)stretching);
    return NULL;
  }
  PlWaves *w = calloc(1, sizeof *w);
  if (!w) {
    snprintf(err, errlen, "waves: out of memory");
    return NULL;
  }
  w->h = depth, w->g = g, w->rho = rho, w->st = stretching;
  /* count and check */
  int total = 0;
  for (int i = 0; i < ntrains; ++i) {
    const PlWaveTrain *tr = &trains[i];
    switch (tr->kind) {
    case PL_WAVE_AIRY:
      if (!(tr->period > 0.0) || !(tr->amplitude > 0.0 || tr->height > 0.0)) {
        snprintf(err, errlen, "waves: train %d (Airy) needs period > 0 and height or amplitude > 0", i);
        goto fail;
      }
      total += 1;
      break;
    case PL_WAVE_STREAM:
      if (ntrains != 1) {
        snprintf(err, errlen, "waves: a stream-function train must be the only train (it is not superposable)");
        goto fail;
      }
      break;
    case PL_WAVE_JONSWAP:
    case PL_WAVE_PM:
    case PL_WAVE_TABLE: {
      if (tr->kind != PL_WAVE_TABLE && (!(tr->hs > 0.0) || !(tr->tp > 0.0))) {
        snprintf(err, errlen, "waves: train %d needs hs > 0 and tp > 0", i);
        goto fail;
      }
      if (tr->kind == PL_WAVE_TABLE) {
        if (tr->n_table < 2 || !tr->table_omega || !tr->table_s) {
          snprintf(err, errlen, "waves: train %d: a spectrum table needs at least 2 rows", i);
          goto fail;
        }
        for (int r = 0; r < tr->n_table; ++r)
          if (!(tr->table_omega[r] >= 0.0) || !(tr->table_s[r] >= 0.0) ||
              (r && !(tr->table_omega[r] > tr->table_omega[r - 1]))) {
            snprintf(err, errlen, "waves: train %d: table row %d: omega >= 0 increasing and S >= 0 required", i, r);
            goto fail;
          }
      }
      const int nc = tr->n_components > 0 ? tr->n_components : 200, nd = tr->n_directions > 0 ? tr->n_directions : 1;
      if (nd > 256 || (nd > 1 && !(tr->spreading_s > 0.0))) {
        snprintf(err, errlen, "waves: train %d: n_directions <= 256, and spreading_s > 0 when spread", i);
        goto fail;
      }
      total += nc * nd;
      break;
    }
    case PL_WAVE_SERIES:
      if (tr->n_series < 4 || !tr->series_eta || !(tr->series_dt > 0.0)) {
        snprintf(err, errlen, "waves: train %d: a series needs >= 4 samples and dt > 0", i);
        goto fail;
      }
      total += SeriesHarmonics(tr);
      break;
    default:
      snprintf(err, errlen, "waves: train %d: unknown kind %d", i, (int)tr->kind);
      goto fail;
    }
  }
  w->c = calloc(total > 0 ? total : 1, sizeof *w->c);
  w->deep = -INFINITY; /* set from the amplitudes below */
  const size_t nscratch = total > 0 ? (size_t)total : 1;
  w->th = calloc(nscratch, sizeof *w->th), w->cs = calloc(nscratch, sizeof *w->cs);
  w->sn = calloc(nscratch, sizeof *w->sn), w->idx = calloc(nscratch, sizeof *w->idx);
  w->kz = calloc(nscratch, sizeof *w->kz), w->E = calloc(nscratch, sizeof *w->E);
  if (!w->c || !w->th || !w->cs || !w->sn || !w->idx || !w->kz || !w->E) {
    snprintf(err, errlen, "waves: out of memory");
    goto fail;
  }
  for (int i = 0; i < ntrains; ++i) {
    const PlWaveTrain *tr = &trains[i];
    Comp *c = w->c + w->n;
    switch (tr->kind) {
    case PL_WAVE_AIRY: {
      const double a = tr->amplitude > 0.0 ? tr->amplitude : 0.5 * tr->height, om = 2.0 * kPi / tr->period;
      SetComp(c, a, om, PlWaveNumber(om, depth, g), tr->heading_deg * kPi / 180.0, tr->phase_deg * kPi / 180.0,
              depth, g, rho);
      w->n += 1;
      break;
    }
    case PL_WAVE_STREAM:
      if (StreamSolve(w, tr, err, errlen)) goto fail;
      w->has_stream = 1;
      w->s.ex = cos(tr->heading_deg * kPi / 180.0), w->s.ey = sin(tr->heading_deg * kPi / 180.0);
      w->s.phi = tr->phase_deg * kPi / 180.0;
      break;
    case PL_WAVE_SERIES: {
      const int nh = SeriesHarmonics(tr);
      if (SynthesiseSeries(w, tr, c, nh, err, errlen)) goto fail;
      w->n += nh;
      break;
    }
    default: {
      const int nc = tr->n_components > 0 ? tr->n_components : 200, nd = tr->n_directions > 0 ? tr->n_directions : 1;
      if (SynthesiseSpectrum(w, tr, c, nc, nd, err, errlen)) goto fail;
      w->n += nc * nd;
      break;
    }
    }
  }
  for (int i = 0; i < w->n; ++i) w->amplitudes += fabs(w->c[i].a);
  return w;
fail:
  PlWavesDestroy(w);
  return NULL;
}

void PlWavesDestroy(PlWaves *w)
{
  if (!w) return;
  free(w->c);
  free(w->th);
  free(w->cs);
  free(w->sn);
  free(w->idx);
  free(w->kz);
  free(w->E);
  free(w);
}

void PlWavesGetInfo(const PlWaves *w, PlWavesInfo *info)
{
  memset(info, 0, sizeof *info);
  if (!w) return;
  info->n_components = w->n;
  for (int i = 0; i < w->n; ++i) info->m0 += 0.5 * w->c[i].a * w->c[i].a;
  if (w->has_stream) {
    const Stream *s = &w->s;
    double ke, dke;
    info->stream = 1, info->k = s->k, info->c = s->c, info->residual = s->residual;
    info->stream_terms = s->n, info->surface_error = s->surface_error;
    StreamEta(s, 0.0, &ke, &dke);
    info->crest = (ke - s->kd) / s->k;
    StreamEta(s, kPi, &ke, &dke);
    info->trough = (ke - s->kd) / s->k;
    info->bernoulli_r = s->R * w->g / s->k;
    info->flux_q = s->Q * s->V / s->k;
  }
}

int PlWavesComponent(const PlWaves *w, int i, double *a, double *omega, double *k, double *beta, double *phi)
{
  if (!w || i < 0 || i >= w->n) return -1;
  const Comp *c = &w->c[i];
  *a = c->a, *omega = c->omega, *k = c->k, *beta = c->beta, *phi = c->phi;
  return 0;
}
