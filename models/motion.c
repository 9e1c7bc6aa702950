/*
 * motion.c - the time functions of a dynamic analysis: ramps, current profiles and the
 * prescribed motion of an end (pure functions; see models.h for the definitions).
 *
 * Ramp (C^2, so that prescribed accelerations are continuous):
 *   f(r) = 10 r^3 - 15 r^4 + 6 r^5,  r in [0, 1];  f(0) = 0, f(1) = 1, f' = f'' = 0 at both.
 * Circle of section 5.4.3: offset d(t) = a(t) r (cos th, sin th, 0), th = +-2 pi tau / T,
 *   tau = t - start, a(t) = f(tau / ramp_up) for the ramp up, 1 while holding,
 *   1 - f((tau - ramp_up - hold) / ramp_down) on the way down, 0 after;
 *   velocities and accelerations by the product rule (exact).
 * Harmonic: d(t) = s(tau) A sin(2 pi tau / T + phase), s = f(tau / ramp_time).
 * Time series: linear interpolation of the rows; the velocity is the slope of the segment
 *   (piecewise constant) and the acceleration zero. Or cubic Hermite: on [t_i, t_i+1] the
 *   cubic through both rows with slopes m_i = (h_{i-1} s_i + h_i s_{i-1})/(h_{i-1} + h_i)
 *   (s = segment slopes, h = intervals; zero at the first and last rows, where the motion
 *   meets rest before and the hold after the series): C^1, so the velocity is
 *   continuous (a linear series makes it jump at every row: an impulse on a stiff line). Rotation offsets are rotation vectors
 *   (about the static frame's axes); their rate is mapped to the body angular velocity by
 *   the right Jacobian of SO(3): w = J_r(th) dth/dt.
 *
 * Breakpoints (PlModelBreakpoints): the times where the forcing is not C^1, after which the
 * integrator restarts. An order-q BDF step is exact for a polynomial of degree q; its local
 * error C h^(q+1) y^(q+1), which IDA estimates from the (q+1)-th difference of the last
 * solutions, assumes y smooth over the step and its history, and the step samples the forcing
 * at its ends only (a pulse between them is not seen at all). A jump J in the j-th derivative
 * of a state inside them leaves an error of order J h^j / j! that no polynomial across it
 * removes. Where the forcing's jumps land: the free nodes' and bodies' accelerations a are as
 * smooth as the loads (a step load: a jumps) and as the prescribed positions d, which they
 * feel through the elements' stiffness (d' jumps: a' jumps). The rule: a breakpoint where a
 * load or a prescribed position is not C^1 (a jump of the velocities' first or second
 * derivative, j <= 2, against which the order-2 to 5 steps IDA takes have no margin). Not
 * breakpoints: the C^2 ramp's ends (d''' jumps: a''' jumps) and the knots of a cubic series
 * (C^1: d'' jumps, a'' jumps), j >= 3, errors of the order of IDA's own steps there, which its
 * error test measures; a restart there, at order 1 with steps sized from the start, costs
 * more steps and accuracy than it saves (the first steps' tolerance-sized errors ring the stiff
 * axial modes that the run's steady high-order steps leave alone). The lists, each function's:
 *   a ramp of zero length (a step): its start (current, environment load, the DP controller's
 *     blend, the pay-out rate, a harmonic motion's start, a circle's ramp up or down, the DP
 *     reference line's and route's speed, which the controller's derivative term turns into
 *     a thrust that steps);
 *   a linear time series (motions, environment loads): each corner, where a column's slope
 *     changes by more than half its largest slope (LinearBreaks: where the series starts,
 *     stops or turns; it is zero before its first row and held after its last). The other
 *     rows are not: a densely sampled smooth signal f changes its slope by h_row f'' at each,
 *     which the steps across them resolve as they resolve f, while a restart at every row
 *     would take every step at order 1;
 *   DP waypoints: the start and each arrival at a waypoint (the reference velocity jumps);
 *   the DP route's guidance: each sample (the layback's rate changes there).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "pipelay/models.h"

static const double kPi = 3.14159265358979323846;

void PlRamp(double r, double *f, double *df, double *ddf)
{
  if (r <= 0.0) {
    *f = *df = *ddf = 0.0;
    return;
  }
  if (r >= 1.0) {
    *f = 1.0;
    *df = *ddf = 0.0;
    return;
  }
  const double r2 = r * r, r3 = r2 * r;
  *f = r3 * (10.0 - 15.0 * r + 6.0 * r2);
  *df = 30.0 * r2 * (1.0 - 2.0 * r + r2);
  *ddf = 60.0 * r * (1.0 - 3.0 * r + 2.0 * r2);
}

/* Ramp over [t0, t0 + T] as a function of t: value, d/dt, d2/dt2 (T = 0: a step at t0). */
static void RampT(double t, double t0, double T, double *f, double *df, double *ddf)
{
  if (T <= 0.0) {
    *f = t >= t0 ? 1.0 : 0.0;
    *df = *ddf = 0.0;
    return;
  }
  PlRamp((t - t0) / T, f, df, ddf);
  *df /= T;
  *ddf /= T * T;
}

void PlCurrentVelocity(const PlCurrent *c, double water_depth, double z, double t, double v[3],
                       double dv_dz[3])
{
  double U = 0.0, dU = 0.0;
  v[0] = v[1] = v[2] = 0.0;
  dv_dz[0] = dv_dz[1] = dv_dz[2] = 0.0;
  if (!c || c->kind == PL_CURRENT_NONE) return;
  double s, ds, dds;
  RampT(t, c->start_time, c->ramp_time, &s, &ds, &dds);
  if (s == 0.0) return;
  const double zc = z > 0.0 ? 0.0 : z;
  switch (c->kind) {
  case PL_CURRENT_UNIFORM:
    U = c->speed;
    break;
  case PL_CURRENT_SHEARED: {
    /* linear between the seabed (z = -depth) and the surface (z = 0); constant below */
    const double r = zc < -water_depth ? 0.0 : (zc + water_depth) / water_depth;
    U = c->seabed_speed + r * (c->surface_speed - c->seabed_speed);
    if (zc > -water_depth && z < 0.0) dU = (c->surface_speed - c->seabed_speed) / water_depth;
    break;
  }
  case PL_CURRENT_TABLE: {
    const int n = c->ntable;
    if (zc <= c->table_z[0]) U = c->table_speed[0];
    else if (zc >= c->table_z[n - 1]) U = c->table_speed[n - 1];
    else {
      int i = 0;
      while (i < n - 2 && zc > c->table_z[i + 1]) ++i;
      const double h = c->table_z[i + 1] - c->table_z[i];
      dU = (c->table_speed[i + 1] - c->table_speed[i]) / h;
      U = c->table_speed[i] + (zc - c->table_z[i]) * dU;
      if (z > 0.0) dU = 0.0;
    }
    break;
  }
  default:
    return;
  }
  const double a = c->direction_deg * kPi / 180.0, e[2] = {cos(a), sin(a)};
  for (int k = 0; k < 2; ++k) {
    v[k] = s * U * e[k];
    dv_dz[k] = s * dU * e[k];
  }
}

void PlMotionHeldDofs(const PlMotion *mo, bool moved[6])
{
  for (int k = 0; k < 6; ++k) moved[k] = false;
  if (!mo) return;
  switch (mo->kind) {
  case PL_MOTION_HARMONIC:
    for (int k = 0; k < 6; ++k) moved[k] = mo->harmonic_dof[k];
    break;
  case PL_MOTION_CIRCLE:
    moved[0] = moved[1] = moved[2] = true;
    break;
  case PL_MOTION_TIMESERIES:
    for (int k = 0; k < (mo->ncols == 7 ? 6 : 3); ++k) moved[k] = true;
    break;
  case PL_MOTION_ROUTE:
    moved[0] = moved[1] = moved[2] = true;
    break;
  default:
    break;
  }
}

/* out = J_r(th) v, J_r = I - (1 - cos a)/a^2 [th]x + (a - sin a)/a^3 [th]x^2, a = |th|. */
static void RightJacobian(const double th[3], const double v[3], double out[3])
{
  const double a2 = th[0] * th[0] + th[1] * th[1] + th[2] * th[2], a = sqrt(a2);
  double c1, c2;
  if (a < 1e-4) {
    c1 = 0.5 - a2 / 24.0;
    c2 = 1.0 / 6.0 - a2 / 120.0;
  } else {
    c1 = (1.0 - cos(a)) / a2;
    c2 = (a - sin(a)) / (a2 * a);
  }
  const double tv[3] = {th[1] * v[2] - th[2] * v[1], th[2] * v[0] - th[0] * v[2], th[0] * v[1] - th[1] * v[0]};
  const double ttv[3] = {th[1] * tv[2] - th[2] * tv[1], th[2] * tv[0] - th[0] * tv[2], th[0] * tv[1] - th[1] * tv[0]};
  for (int i = 0; i < 3; ++i) out[i] = v[i] - c1 * tv[i] + c2 * ttv[i];
}

void PlMotionEval(const PlMotion *mo, double t, double d[3], double dd[3], double ddd[3],
                  double th[3], double dth[3])
{
  double rate[3] = {0, 0, 0};
  for (int k = 0; k < 3; ++k) d[k] = dd[k] = ddd[k] = th[k] = dth[k] = 0.0;
  if (!mo) return;
  switch (mo->kind) {
  case PL_MOTION_HARMONIC: {
    const double tau = t - mo->start_time;
    if (tau < 0.0) break;
    double s, ds, dds;
    RampT(t, mo->start_time, mo->ramp_time, &s, &ds, &dds);
    for (int k = 0; k < 6; ++k) {
      if (!mo->harmonic_dof[k]) continue;
      const PlHarmonic *h = &mo->harmonic[k];
      const double w = 2.0 * kPi / h->period, ph = w * tau + h->phase_deg * kPi / 180.0;
      const double A = k < 3 ? h->amplitude : h->amplitude * kPi / 180.0;
      const double g = A * sin(ph), dg = A * w * cos(ph), ddg = -A * w * w * sin(ph);
      const double val = s * g, vel = ds * g + s * dg;
      if (k < 3) {
        d[k] = val;
        dd[k] = vel;
        ddd[k] = dds * g + 2.0 * ds * dg + s * ddg;
      } else {
        th[k - 3] = val;
        rate[k - 3] = vel;
      }
    }
    break;
  }
  case PL_MOTION_CIRCLE: {
    const double tau = t - mo->start_time;
    const double t1 = mo->ramp_up, t2 = t1 + mo->hold, t3 = t2 + mo->ramp_down;
    if (tau <= 0.0 || tau >= t3) break;
    double a, da, dda;
    if (tau < t1) RampT(tau, 0.0, t1, &a, &da, &dda);
    else if (tau <= t2) a = 1.0, da = dda = 0.0;
    else {
      RampT(tau, t2, mo->ramp_down, &a, &da, &dda);
      a = 1.0 - a;
      da = -da;
      dda = -dda;
    }
    const double w = (mo->counter_clockwise ? 1.0 : -1.0) * 2.0 * kPi / mo->period;
    const double c = cos(w * tau), s = sin(w * tau), r = mo->radius;
    /* d = r a (c, s); d' = r (a' (c, s) + a w (-s, c)); d'' = r (a'' (c, s) + 2 a' w (-s, c) - a w^2 (c, s)) */
    d[0] = r * a * c;
    d[1] = r * a * s;
    dd[0] = r * (da * c - a * w * s);
    dd[1] = r * (da * s + a * w * c);
    ddd[0] = r * (dda * c - 2.0 * da * w * s - a * w * w * c);
    ddd[1] = r * (dda * s + 2.0 * da * w * c - a * w * w * s);
    break;
  }
  case PL_MOTION_TIMESERIES: {
    const int n = mo->nrows;
    const double *T = mo->table;
    if (n < 1 || !T || t < T[0]) break;
    const double deg = kPi / 180.0;
    if (t >= T[7 * (n - 1)]) {
      for (int k = 0; k < 3; ++k) {
        d[k] = T[7 * (n - 1) + 1 + k];
        th[k] = T[7 * (n - 1) + 4 + k] * deg;
      }
      break;
    }
    int lo = 0, hi = n - 1; /* T[lo] <= t < T[hi] */
    while (hi - lo > 1) {
      const int mid = (lo + hi) / 2;
      if (T[7 * mid] <= t) lo = mid;
      else hi = mid;
    }
    const double *a = T + 7 * lo, *b = T + 7 * hi, h = b[0] - a[0], r = (t - a[0]) / h;
    for (int k = 0; k < 6; ++k) {
      double val, vel, acc;
      const double ya = a[1 + k], yb = b[1 + k];
      if (!mo->cubic) {
        val = ya + r * (yb - ya);
        vel = (yb - ya) / h;
        acc = 0.0;
      } else {
        /* slopes at a and b from the neighbouring segments */
        /* zero slope at the first and the last row: the motion is at rest before and held
         * after the series, so the velocity stays continuous there too */
        const double s0 = (yb - ya) / h;
        double ma = 0.0, mb = 0.0;
        if (lo > 0) {
          const double *z = T + 7 * (lo - 1), hz = a[0] - z[0], sz = (ya - z[1 + k]) / hz;
          ma = (hz * s0 + h * sz) / (hz + h);
        }
        if (hi < n - 1) {
          const double *z = T + 7 * (hi + 1), hz = z[0] - b[0], sz = (z[1 + k] - yb) / hz;
          mb = (hz * s0 + h * sz) / (hz + h);
        }
        const double r2 = r * r, r3 = r2 * r;
        const double h00 = 2 * r3 - 3 * r2 + 1, h10 = r3 - 2 * r2 + r, h01 = -2 * r3 + 3 * r2, h11 = r3 - r2;
        const double d00 = 6 * r2 - 6 * r, d10 = 3 * r2 - 4 * r + 1, d01 = -6 * r2 + 6 * r, d11 = 3 * r2 - 2 * r;
        const double e00 = 12 * r - 6, e10 = 6 * r - 4, e01 = -12 * r + 6, e11 = 6 * r - 2;
        val = h00 * ya + h10 * h * ma + h01 * yb + h11 * h * mb;
        vel = (d00 * ya + d10 * h * ma + d01 * yb + d11 * h * mb) / h;
        acc = (e00 * ya + e10 * h * ma + e01 * yb + e11 * h * mb) / (h * h);
      }
      if (k < 3) {
        d[k] = val;
        dd[k] = vel;
        ddd[k] = acc;
      } else {
        th[k - 3] = val * deg;
        rate[k - 3] = vel * deg;
      }
    }
    break;
  }
  default:
    break;
  }
  RightJacobian(th, rate, dth);
}

/* s(t) = rate int ramp: with r = (t - start)/ramp in [0, 1], int_0^r (10 x^3 - 15 x^4 + 6 x^5) dx
 * = 2.5 r^4 - 3 r^5 + r^6 (1/2 at r = 1), so s = rate ramp (2.5 r^4 - 3 r^5 + r^6) during the
 * ramp and rate (ramp/2 + t - start - ramp) after it. */
void PlPayout(const PlEnd *e, double t, double *s, double *sdot)
{
  *s = *sdot = 0.0;
  if (!e->payout || e->payout_tension || !(t > e->payout_start)) return;
  const double T = e->payout_ramp, tau = t - e->payout_start;
  if (T > 0.0 && tau < T) {
    const double r = tau / T, r4 = r * r * r * r;
    double f, df, ddf;
    PlRamp(r, &f, &df, &ddf);
    *s = e->payout_rate * T * (2.5 * r4 - 3.0 * r4 * r + r4 * r * r);
    *sdot = e->payout_rate * f;
    return;
  }
  *s = e->payout_rate * (0.5 * T + tau - T);
  *sdot = e->payout_rate;
}

double PlPayoutAcceleration(const PlEnd *e, double t)
{
  if (!e->payout || e->payout_tension || !(t > e->payout_start)) return 0.0;
  const double T = e->payout_ramp, tau = t - e->payout_start;
  if (!(T > 0.0) || tau >= T) return 0.0;
  double f, df, ddf;
  PlRamp(tau / T, &f, &df, &ddf);
  return e->payout_rate * df / T;
}

/* ---- breakpoints ------------------------------------------------------------------------ */
typedef struct {
  double *t;
  int n, cap, oom;
  double end; /* the duration: breakpoints in (0, end) */
} Breaks;

static void AddBreak(Breaks *b, double t)
{
  if (!(t > 0.0 && t < b->end) || b->oom) return;
  if (b->n == b->cap) {
    const int c = b->cap ? 2 * b->cap : 64;
    double *p = realloc(b->t, sizeof(double) * (size_t)c);
    if (!p) {
      b->oom = 1;
      return;
    }
    b->t = p, b->cap = c;
  }
  b->t[b->n++] = t;
}

/* A function ramped in from start over ramp (PlRamp, C^2): a step when ramp is 0. */
static void RampBreak(Breaks *b, double start, double ramp)
{
  if (!(ramp > 0.0)) AddBreak(b, start);
}

/* Every time k dt, k >= 1. */
static void SampleBreaks(Breaks *b, double dt)
{
  if (!(dt > 0.0)) return;
  for (long k = 1; k * dt < b->end && !b->oom; ++k) AddBreak(b, k * dt);
}

/* A linear series of n rows [t, 6 values] (zero before the first row, the last held): each
 * corner, a row where a value jumps (the first row's from zero) or the slope of a column
 * changes by more than half the column's largest slope: where the series starts, stops or
 * turns. */
static void LinearBreaks(Breaks *b, const double *T, int n)
{
  double smax[7] = {0};
  for (int i = 0; i + 1 < n && T; ++i)
    for (int k = 1; k <= 6; ++k)
      smax[k] = fmax(smax[k], fabs((T[7 * i + 7 + k] - T[7 * i + k]) / (T[7 * i + 7] - T[7 * i])));
  for (int i = 0; i < n && T; ++i) {
    const double *r = T + 7 * i;
    int corner = 0;
    for (int k = 1; k <= 6 && !corner; ++k) {
      const double left = i > 0 ? (r[k] - r[k - 7]) / (r[0] - r[-7]) : 0.0;
      const double right = i + 1 < n ? (r[k + 7] - r[k]) / (r[7] - r[0]) : 0.0;
      corner = fabs(right - left) > 0.5 * smax[k] || (i == 0 && r[k] != 0.0);
    }
    if (corner) AddBreak(b, r[0]);
  }
}

static void MotionBreaks(Breaks *b, const PlMotion *mo)
{
  switch (mo->kind) {
  case PL_MOTION_HARMONIC:
    RampBreak(b, mo->start_time, mo->ramp_time);
    break;
  case PL_MOTION_CIRCLE:
    RampBreak(b, mo->start_time, mo->ramp_up);
    RampBreak(b, mo->start_time + mo->ramp_up + mo->hold, mo->ramp_down);
    break;
  case PL_MOTION_TIMESERIES:
    if (!mo->cubic) LinearBreaks(b, mo->table, mo->nrows);
    break;
  default:
    break;
  }
}

static void EndBreaks(Breaks *b, const PlEnd *e)
{
  MotionBreaks(b, &e->motion);
  if (!e->payout) return;
  if (!e->payout_tension && e->payout_rate != 0.0) RampBreak(b, e->payout_start, e->payout_ramp);
}

static void ReferenceBreaks(Breaks *b, const PlDPReference *r)
{
  switch (r->kind) {
  case PL_DP_REF_CIRCLE:
    MotionBreaks(b, &r->circle);
    break;
  case PL_DP_REF_ROUTE: /* the guidance's samples and the lay speed's ramp */
    SampleBreaks(b, r->interval);
    if (r->speed > 0.0) RampBreak(b, r->start_time, r->ramp_time);
    break;
  case PL_DP_REF_LINE:
    if (r->speed > 0.0) RampBreak(b, r->start_time, r->ramp_time);
    break;
  case PL_DP_REF_WAYPOINTS: { /* as PlDPReferenceEval: leg i takes |w_i+1 - w_i| / U_i */
    double t = r->start_time;
    AddBreak(b, t);
    for (int i = 0; i + 1 < r->nwaypoints; ++i) {
      const double len = hypot(r->waypoint[i + 1][0] - r->waypoint[i][0], r->waypoint[i + 1][1] - r->waypoint[i][1]);
      t += r->leg_speed[i] > 0.0 ? len / r->leg_speed[i] : 0.0;
      AddBreak(b, t);
    }
    break;
  }
  default:
    break;
  }
}

static void BodyBreaks(Breaks *b, const PlVesselModel *v)
{
  const PlVesselLoad *L = &v->environment;
  int loaded = 0;
  for (int i = 0; i < 6; ++i) loaded |= L->value[i] != 0.0;
  if (loaded) RampBreak(b, L->start_time, L->ramp_time);
  LinearBreaks(b, L->table, L->nrows);
  if (v->has_dp) {
    RampBreak(b, v->dp.start_time, v->dp.ramp_time);
    ReferenceBreaks(b, &v->dp.ref);
  }
}

static int CompareDouble(const void *a, const void *b)
{
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int PlModelBreakpoints(const PlModel *m, double **t)
{
  Breaks b = {NULL, 0, 0, 0, m->analysis.dynamic.duration};
  *t = NULL;
  if (m->current.kind != PL_CURRENT_NONE) RampBreak(&b, m->current.start_time, m->current.ramp_time);
  for (int l = 0; l < (m->nlines > 0 ? m->nlines : 1); ++l)
    for (int k = 0; k < 2; ++k) EndBreaks(&b, m->nlines > 0 ? &m->lines[l].ends[k] : &m->ends[k]);
  if (m->vessel.present) BodyBreaks(&b, &m->vessel);
  for (int i = 0; i < m->nbodies; ++i) BodyBreaks(&b, &m->bodies[i]);
  if (b.oom) {
    free(b.t);
    return -1;
  }
  if (b.n > 1) qsort(b.t, (size_t)b.n, sizeof(double), CompareDouble); /* (b.t is NULL without any) */
  int n = 0;
  for (int i = 0; i < b.n; ++i)
    if (n == 0 || b.t[i] > b.t[n - 1]) b.t[n++] = b.t[i];
  if (n == 0) free(b.t);
  else *t = b.t;
  return n;
}

void PlCurrentFluid(const PlCurrent *c, double water_depth, double z, double t, PlFluidAt *fl)
{
  double dv[3];
  PlCurrentVelocity(c, water_depth, z, t, fl->u, dv);
  for (int i = 0; i < 3; ++i) { /* (field by field: a memset of the whole struct cost 2 % of a J-lay's run) */
    fl->du_dx[3 * i] = fl->du_dx[3 * i + 1] = 0.0, fl->du_dx[3 * i + 2] = dv[i];
    fl->a[i] = 0.0;
    fl->da_dx[3 * i] = fl->da_dx[3 * i + 1] = fl->da_dx[3 * i + 2] = 0.0;
  }
  fl->eta = fl->deta_dx[0] = fl->deta_dx[1] = 0.0;
}
