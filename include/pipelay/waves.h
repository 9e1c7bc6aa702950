/*
 * waves.h - the sea's kinematics: one environment service (models/waves.c) that every load
 * asks for the water particle velocity, its local acceleration, its gradient, the dynamic
 * pressure and the surface elevation at a point x (global) and time t. Pure C, no solver.
 *
 * Frames and units: SI; global frame z up, mean sea level z = 0, seabed z = -depth (flat).
 * Heading beta of a wave train: the direction the waves travel towards, in degrees from +x
 * towards +y (beta = 0: crests travel along +x). A component of amplitude a, circular frequency
 * omega, wave number k and phase phi has the elevation
 *     eta = a cos(theta),   theta = k (x cos beta + y sin beta) - omega t + phi,
 * so phi = 0 puts a crest at the origin at t = 0.
 *
 * Theories (formulation and sources in models/waves.c):
 *   Airy         linear regular wave; dispersion omega^2 = g k tanh(k h) solved to rounding.
 *   stream       Fourier stream-function theory (Rienecker & Fenton 1981; Fenton 1988) for steep
 *                regular design waves. Chosen over Stokes 5th order (Fenton 1985) because it is
 *                valid at every depth up to near breaking (Stokes 5th fails in shallow water,
 *                Ursell numbers above ~25-40), its accuracy is set by the number of terms and can
 *                be checked (the free-surface conditions' residual), and it needs no long
 *                tables of closed-form coefficients. Stokes' first definition of the wave speed
 *                (no Eulerian mean current); the current is added separately (PlWavesFluid) without the
 *                Doppler shift of the wave's period. A stream-function train must be the only
 *                train of its sea (a nonlinear wave is not superposable).
 *   JONSWAP, PM  DNV-RP-C205 s3.5.5 spectra, synthesised as a sum of linear components.
 *   table        a user spectrum S(omega) (linear interpolation, zero outside the table).
 *   series       a measured elevation record at a reference point, as its Fourier components.
 * Several trains are superposed (wind sea + swell, ...).
 *
 * Irregular synthesis (JONSWAP, PM, table): the spectrum on [omega_min, omega_max] is cut into
 * n_components bins of equal energy m0/n, each bin into n_dir sub-bins of equal energy, one
 * per direction (a random permutation per bin). Each component takes the frequency
 * omega = centre + (U - 1/2)/2 * width of its sub-bin (uniform in its middle half: random, so
 * the frequencies are not multiples of a common step, yet never closer than half a sub-bin, so
 * no two components beat slower than the record), the equal amplitude
 * a = sqrt(2 m0 / (n n_dir)) (or, with rayleigh set, a Rayleigh amplitude of the same mean
 * square), a phase uniform in [0, 2 pi), and one of n_dir directions that each carry 1/n_dir
 * of the energy of the cos^2s spreading (the midpoints in probability of n_dir equal shares of
 * D(th) = Gamma(s+1)/(sqrt(pi) Gamma(s+1/2)) cos^2s(th - beta), |th - beta| < pi/2,
 * DNV-RP-C205 s3.5.8). Equal amplitudes reproduce the target spectrum in every realisation
 * (Rayleigh amplitudes scatter the realised spectrum, by 1/sqrt(n n_dir) in m0; they make a
 * sea of few components Gaussian); the default is equal amplitudes. The signal has no repeat
 * period (a grid of step d_omega would repeat after 2 pi/d_omega: 200 components over
 * 0.3-3.8 rad/s after 359 s). A record of duration T resolves 2 pi/T: while the components
 * are further apart than that near the peak (n n_dir up to ~200-300 for a 3-hour JONSWAP) the
 * 3-hour sample variance at a point scatters little from seed to seed (Hs 4 m, Tp 10 s,
 * gamma 3.3, 200 components: standard deviation 1.0 % over 30 seeds, the worst 2.5 %); with
 * many more components it scatters like a real Gaussian sea's (2.3 % over 12 seeds at 900
 * components, the worst 4.4 %; a Gaussian sea: sqrt(2 pi int S^2 d omega / T)/m0 = 3.7 %).
 * m0 is NOT rescaled to Hs^2/16:
 * the spectrum is DNV's as written (with gamma = 3.3 its m0 is 0.24 % above Hs^2/16 because
 * A_gamma is an approximation); the energy outside [omega_min, omega_max] is left out (the
 * defaults [0.5, 6] omega_p leave out 0.1 % of a PM spectrum). The realised m0 is reported.
 * Random numbers: splitmix64 seeded by the train's seed (same seed: bit-identical sea).
 *
 * Stretching of the linear components above the mean level (z > 0, wet up to eta):
 *   vertical       the kinematics at z = 0 held constant up to eta;
 *   Wheeler        the kinematics at z_s = h (z - eta)/(h + eta) (Wheeler 1970);
 *   extrapolation  f(z) = f(0) + z df/dz(0) (linear extrapolation, as OrcaFlex).
 * Above eta everything is zero (dry). The stream-function wave is not stretched (it is valid
 * up to its own surface). Below the seabed the seabed's values are returned.
 *
 * Cost (bench/bench_waves.c, bench/README.md): about 13 ns of CPU per point per component for
 * the values (PlWavesFluidValues), 18-20 ns with the gradients du/dx and da/dx (2-core AMD EPYC,
 * -O3; 4.5 ns for the elevation alone): one sincos of the phase and one exp(k z), each in a loop
 * over the components the compiler vectorises (PlWavesSinCos, PlWavesExp)
 * (the seabed term e^{-k(z+2h)} is e^{-2kh}/e^{kz}, a division, and is skipped where it is
 * below rounding: 2 k (z + h) >= 40), and the accumulation; everything else per component is
 * precomputed (a omega, a omega^2, rho g a, k cos beta, k sin beta, 1/(1 -+ e^{-2kh}), ...).
 * A per-time-step cache of cos/sin(omega t - phi) is not used: the phase's spatial part
 * k (x cos beta + y sin beta) differs at every point and costs the same sincos as the whole
 * phase, so the cache would save only a multiply-add. Components whose depth factor exp(k z)
 * is below 1e-16 contribute only their elevation, and nothing at all at a point deeper than the
 * crests and the caller's wetting band (PlWavesSetSurfaceBand), whose eta is not summed: on the
 * 740-node J-lay in a 100-component sea about 2/3 of the (point, component) pairs.
 * Wheeler stretching needs eta (and its gradient) before the kinematics: two passes over the
 * components, the phases kept in a scratch buffer between them.
 *
 * Thread safety: a PlWaves holds a scratch buffer: one PlWaves per thread.
 */
#pragma once
#include <stddef.h>
#include <stdint.h>
#include "pipelay/models.h"

/* PlWaveKind, PlWaveStretching and PlWaveTrain (one train: what the model file's waves.trains give)
 * are in pipelay/models.h, which the model holds them in (PlSea). */

typedef struct PlWaves_ PlWaves;

/* Builds the sea: depth h [m] > 0, g [m/s^2], rho [kg/m^3] (dynamic pressure), stretching,
 * ntrains trains (0 allowed: calm sea). Returns NULL with a message in err on bad input or
 * when the stream-function solution does not converge. */
PlWaves *PlWavesCreate(double depth, double g, double rho, PlWaveStretching stretching,
                       const PlWaveTrain *trains, int ntrains, char *err, size_t errlen);
void PlWavesDestroy(PlWaves *w); /* accepts NULL */

/* The kinematics at one point. */
typedef struct {
  double u[3];     /* particle velocity [m/s] */
  double a[3];     /* local acceleration du/dt at the fixed point [m/s^2] (the convective
                      part (grad u) u is available from du_dx) */
  double du_dx[9]; /* du_i/dx_j, row-major (i*3 + j) [1/s]; consistent with the stretching */
  double da_dx[9]; /* da_i/dx_j, row-major [1/s^2]: the local acceleration's gradient (exact, with
                      the stretching's chain rule; the current's ramp rate times its dv/dz) */
  double p;        /* dynamic pressure [Pa]: total pressure = p - rho g z (zero at the surface
                      for vertical and Wheeler stretching) */
  double eta;      /* surface elevation above (x, y) [m] */
  double deta_dx[2]; /* its gradient d eta/dx, d eta/dy [-] (wet or dry) */
  int wet;         /* 1 when z <= eta (else u, a, du_dx, p are zero). Below the seabed the
                      seabed's values (z clamped to -depth; du/dz = 0) */
  int deep;        /* 1 at a point below PlWavesSetSurfaceBand's depth, wet whatever eta is: eta
                      and deta_dx are not evaluated there (0; PlWavesElevation gives eta) */
} PlWaveKin;

/* The ramp-in of a linear sea (waves.ramp_time): every component's amplitude times
 * r(t) = PlRamp(t/T) (10 r^3 - 15 r^4 + 6 r^5 of t/T clamped to [0, 1]: C^2, r = r' = r'' = 0 at
 * t = 0 and r = 1, r' = r'' = 0 from T on, so no breakpoint), from which every value follows:
 * the elevation r eta, the velocity and pressure r u, r p, the local acceleration r a + r' u, the
 * wetting and Wheeler's stretching on the ramped surface r eta. T = 0 (the default): none.
 * Returns 0, or -1 for T < 0 or a ramp on a stream-function sea (not a sum of amplitudes). */
int PlWavesSetRamp(PlWaves *w, double ramp_time);
/* The depth below which a point is wet whatever the surface does, for the caller's wetting band
 * (the largest half-width of the band over which its loads fade at the surface, or more):
 * z < -(sum of the linear components' amplitudes) - band. The kinematics of such a point are
 * those of linear theory at z (eta enters neither them nor, with the vertical or extrapolation
 * stretching, their evaluation point), so they skip eta: it and its slope are reported as 0 with
 * PlWaveKin.deep = 1, and components with e^{kz} < 1e-16 are not visited (they contribute
 * nothing there); every other value is the same to the bit. With Wheeler stretching (the
 * evaluation point z_s needs eta) and for a stream-function wave nothing is skipped. The
 * default: no point is deep. Returns 0, or -1 for band < 0. */
int PlWavesSetSurfaceBand(PlWaves *w, double band);
/* Kinematics of the waves alone at x (global) and t. */
void PlWavesKinematics(PlWaves *w, const double x[3], double t, PlWaveKin *k);
/* Surface elevation eta(x, y, t) [m]. */
double PlWavesElevation(PlWaves *w, double x, double y, double t);
/* Current + waves: the waves' kinematics plus PlCurrentVelocity (and the current's ramp's
 * time derivative in a, its dv/dz in du_dx's z column). The current is added wherever the
 * point is wet (z <= eta; above z = 0 the current's z = 0 value, below the seabed its seabed
 * value). w is a sea from PlWavesCreate (a calm sea: ntrains = 0), which carries the depth;
 * with w NULL (and in the other calls) the kinematics are zero, wet for z <= 0. */
void PlWavesFluid(PlWaves *w, const PlCurrent *c, const double x[3], double t, PlWaveKin *k);
/* PlWavesFluid's values alone: u, a, p, eta and its slope, wet, each equal to PlWavesFluid's to
 * the bit; du_dx and da_dx zero (a linear sea's gradients are not computed: a third of its cost,
 * which a residual evaluation, needing no gradient, does not pay). */
void PlWavesFluidValues(PlWaves *w, const PlCurrent *c, const double x[3], double t, PlWaveKin *k);
/* The fraction in [0, 1] of the straight segment xa-xb below the instantaneous surface
 * (eta evaluated along the segment: 8 sub-intervals, the crossing by bisection). */
double PlWavesWettedFraction(PlWaves *w, const double xa[3], const double xb[3], double t);

/* ---- building blocks (also used by the tests) ------------------------------------------- */
/* cos and sin of th[0..n-1] as the kinematics take them (models/waves.c: a vectorised Cody-Waite
 * reduction and Taylor series, within one unit in the last place of the library's). */
void PlWavesSinCos(const double *th, double *c, double *s, int n);
/* e^x of x[0..n-1], -700 < x <= 0, as the kinematics take it at depth (a vectorised reduction
 * by ln 2 and Taylor series, within one unit in the last place of the library's). */
void PlWavesExp(const double *x, double *e, int n);
/* Wave number k [1/m] of omega [rad/s] at depth h [m] (h <= 0 or infinite: deep water). */
double PlWaveNumber(double omega, double depth, double g);
/* DNV-RP-C205 peak enhancement from Hs and Tp: 5 for Tp/sqrt(Hs) <= 3.6, 1 from 5 on,
 * exp(5.75 - 1.15 Tp/sqrt(Hs)) between. */
double PlJonswapGamma(double hs, double tp);
/* Spectral density S(omega) [m^2 s/rad] of a JONSWAP, PM or table train (0 for others). */
double PlWaveSpectrum(const PlWaveTrain *tr, double omega);
/* cos^2s directional density D(dth) [1/rad] about the mean direction (0 for |dth| >= pi/2). */
double PlWaveSpreading(double s, double dth);

/* What the sea was built of. */
typedef struct {
  int n_components;  /* linear components (all trains) */
  double m0;         /* sum of a^2/2 of the linear components [m^2] */
  int stream;        /* 1 when a stream-function train exists; then: */
  double k, c;       /* its wave number [1/m] and speed [m/s] */
  double crest, trough; /* its crest and trough elevations [m] (crest - trough = H) */
  double residual;   /* its largest equation residual at the collocation points (scaled) */
  int stream_terms;  /* its number of Fourier terms N */
  double surface_error; /* its largest surface-condition residual between the collocation
                           points, relative to kH (the surface pressure over rho g H) */
  double bernoulli_r, flux_q; /* R [m^2/s^2] (datum: the seabed) and Q [m^2/s] in the wave's frame */
} PlWavesInfo;
void PlWavesGetInfo(const PlWaves *w, PlWavesInfo *info);
/* Component i (0 <= i < n_components) of the linear sea: amplitude, omega, k, heading [rad],
 * phase [rad]. Returns -1 if out of range. */
int PlWavesComponent(const PlWaves *w, int i, double *a, double *omega, double *k, double *beta,
                     double *phi);
/* The stream function psi [m^2/s] of the stream-function train at x and t, in the frame moving
 * with the wave (its value on the surface is -Q, PlWavesInfo.flux_q). For tests; -1 when the
 * sea has no stream-function train. */
int PlWavesStreamPsi(const PlWaves *w, const double x[3], double t, double *psi);
