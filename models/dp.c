/*
 * dp.c - the vessel's environmental load, the DP reference paths and the dynamic
 * positioning controller: the nonlinear PID of eqs 4.44-4.45 of the Saefstroem thesis
 * (gains of 4.46-4.50, the circle of section 5.4.3), with bounded integral action and
 * thrust limits. Pure functions (see models.h for the definitions and the symbols).
 *
 * Frames: global x, y horizontal, z up; body x forward, y to port, z up (as elements.h);
 * eta = [x, y, z, phi, theta, psi] with R_b^e = Rz(psi) Ry(theta) Rx(phi), nu = [v; w] in
 * the body frame.
 *
 * Controller (4.44-4.45), with J(eta) = diag(R, T_Theta) (4.7 with 4.9 written for the
 * body angular velocity as in 5.42):
 *   T_Theta = [[1, s phi t theta, c phi t theta], [0, c phi, -s phi],
 *              [0, s phi / c theta, c phi / c theta]]             (Fossen 2011, eq 2.41)
 *   eta~dot = J nu - eta_ref_dot,  tau_PID = Kp eta~ + Kd eta~dot + Ki S_b(z),
 *   tau = -J^T tau_PID, saturated per body DOF and ramped in from the start time.
 * With Ki = 0, a fixed reference, every DOF actuated and no saturation, the controller is
 * passive: nu^T tau = -eta~dot^T tau_PID = -d/dt(eta~^T Kp eta~/2) - eta~dot^T Kd eta~dot,
 * the closed-loop energy argument of 4.39-4.42. The integral state z enters the DAE as
 * extra unknowns with the rows zdot - s(t)(eta~ - B(z)/T_aw); the thesis (after 4.50)
 * asks for a bounded integral action for the PID, which S_b provides.
 *
 * The derivatives are exact: the controller is written once on dual numbers
 * (elements/dual.h, the same forward mode as the element kernels), evaluated twice, with
 * (eta, nu) seeded and then with z seeded.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "pipelay/elements.h"
#include "pipelay/models.h"
#include "../elements/dual_ops.h"

static const double kPi = 3.14159265358979323846;


/* ---- environment load ----------------------------------------------------------------- */
void PlVesselLoadEval(const PlVesselLoad *L, double t, double out[6])
{
  for (int i = 0; i < 6; ++i) out[i] = 0.0;
  if (!L) return;
  double s = 0.0, ds_, dds;
  if (L->ramp_time > 0.0) PlRamp((t - L->start_time) / L->ramp_time, &s, &ds_, &dds);
  else s = t >= L->start_time ? 1.0 : 0.0;
  for (int i = 0; i < 6; ++i) out[i] = s * L->value[i];
  if (L->nrows > 0 && L->table && t >= L->table[0]) {
    const double *T = L->table;
    const int n = L->nrows;
    if (t >= T[7 * (n - 1)]) {
      for (int i = 0; i < 6; ++i) out[i] += T[7 * (n - 1) + 1 + i];
    } else {
      int k = 0;
      while (k < n - 2 && t >= T[7 * (k + 1)]) ++k;
      const double a = (t - T[7 * k]) / (T[7 * (k + 1)] - T[7 * k]);
      for (int i = 0; i < 6; ++i) out[i] += (1.0 - a) * T[7 * k + 1 + i] + a * T[7 * (k + 1) + 1 + i];
    }
  }
}

void PlVesselLoadApply(const PlVesselLoad *L, double t, double out[6], double tau_body[6], double load_global[6])
{
  PlVesselLoadEval(L, t, out);
  for (int i = 0; i < 6; ++i) {
    if (L && L->body_frame) tau_body[i] += out[i];
    else load_global[i] += out[i];
  }
}

/* ---- reference paths ------------------------------------------------------------------- */
/* Distance along a line at speed U from t0 with the speed ramped in over Tr, and its rate. */
static void LineDistance(double U, double t0, double Tr, double t, double *s, double *sd)
{
  const double tau = t - t0;
  *s = *sd = 0.0;
  if (tau <= 0.0) return;
  if (Tr <= 0.0) {
    *s = U * tau;
    *sd = U;
    return;
  }
  const double r = tau / Tr;
  if (r >= 1.0) {
    *s = U * Tr * (r - 0.5);
    *sd = U;
    return;
  }
  double f, df, ddf;
  PlRamp(r, &f, &df, &ddf);
  const double r4 = r * r * r * r;
  *s = U * Tr * r4 * (2.5 - 3.0 * r + r * r);
  *sd = U * f;
}

/* route: the layback b(t) and its rate, linear from b0 at tk to b1 at tk + interval. */
static void RouteLayback(const PlDPReference *ref, double t, double b[2], double bd[2])
{
  const double w = ref->interval > 0.0 ? (t - ref->tk) / ref->interval : 1.0;
  const int mid = w > 0.0 && w < 1.0;
  for (int i = 0; i < 2; ++i) {
    b[i] = ref->b0[i] + fmin(1.0, fmax(0.0, w)) * (ref->b1[i] - ref->b0[i]);
    bd[i] = mid ? (ref->b1[i] - ref->b0[i]) / ref->interval : 0.0;
  }
}

void PlDPReferenceEval(const PlDPReference *ref, double t, double eta_ref[6], double eta_ref_dot[6])
{
  for (int i = 0; i < 6; ++i) {
    eta_ref[i] = ref->eta0[i];
    eta_ref_dot[i] = 0.0;
  }
  switch (ref->kind) {
  case PL_DP_REF_CIRCLE: {
    double d[3], dd[3], ddd[3], th[3], dth[3];
    PlMotionEval(&ref->circle, t, d, dd, ddd, th, dth);
    for (int i = 0; i < 3; ++i) {
      eta_ref[i] += d[i];
      eta_ref_dot[i] = dd[i];
    }
    break;
  }
  case PL_DP_REF_LINE: {
    const double chi = ref->course_deg * kPi / 180.0, e[2] = {cos(chi), sin(chi)};
    double s, sd;
    LineDistance(ref->speed, ref->start_time, ref->ramp_time, t, &s, &sd);
    for (int i = 0; i < 2; ++i) {
      eta_ref[i] += s * e[i];
      eta_ref_dot[i] = sd * e[i];
    }
    if (ref->heading_along_path) eta_ref[5] = chi;
    break;
  }
  case PL_DP_REF_WAYPOINTS: {
    const int n = ref->nwaypoints;
    if (n < 1) break;
    double rem = t - ref->start_time;
    int leg = 0;
    eta_ref[0] = ref->waypoint[0][0];
    eta_ref[1] = ref->waypoint[0][1];
    for (leg = 0; leg < n - 1; ++leg) {
      const double dx = ref->waypoint[leg + 1][0] - ref->waypoint[leg][0];
      const double dy = ref->waypoint[leg + 1][1] - ref->waypoint[leg][1];
      const double len = sqrt(dx * dx + dy * dy), U = ref->leg_speed[leg];
      const double dur = U > 0.0 ? len / U : 0.0;
      if (ref->heading_along_path && len > 0.0) eta_ref[5] = atan2(dy, dx);
      if (rem <= 0.0) break;
      if (rem < dur) {
        const double a = rem / dur;
        eta_ref[0] = ref->waypoint[leg][0] + a * dx;
        eta_ref[1] = ref->waypoint[leg][1] + a * dy;
        eta_ref_dot[0] = U * dx / len;
        eta_ref_dot[1] = U * dy / len;
        break;
      }
      rem -= dur;
      eta_ref[0] = ref->waypoint[leg + 1][0];
      eta_ref[1] = ref->waypoint[leg + 1][1];
    }
    break;
  }
  case PL_DP_REF_ROUTE: { /* models.h: p_ref = r(sigma_t) + b_a t + b_c n */
    if (!ref->route) break;
    double D, Dd, x[2], tg[2], kap, b[2], bd[2];
    LineDistance(ref->speed, ref->start_time, ref->ramp_time, t, &D, &Dd);
    RouteLayback(ref, t, b, bd);
    PlRouteEval(ref->route, ref->sigma0 + D, x, tg, &kap);
    const double n[2] = {-tg[1], tg[0]};
    for (int i = 0; i < 2; ++i) {
      eta_ref[i] = x[i] + b[0] * tg[i] + b[1] * n[i];
      eta_ref_dot[i] = Dd * (tg[i] + kap * (b[0] * n[i] - b[1] * tg[i])) + bd[0] * tg[i] + bd[1] * n[i];
    }
    if (ref->heading_along_path) {
      eta_ref[5] = atan2(tg[1], tg[0]) + ref->psi0;
      eta_ref_dot[5] = kap * Dd;
    }
    break;
  }
  default:
    break;
  }
}

void PlDPRouteStart(PlDPReference *ref, const PlRoute *route, double t, const double td[2])
{
  double off, x[2], tg[2], kap;
  PlRouteProject(route, td, &ref->sigma0, &off);
  PlRouteEval(route, ref->sigma0, x, tg, &kap);
  const double d[2] = {ref->eta0[0] - x[0], ref->eta0[1] - x[1]};
  ref->route = route;
  ref->psi0 = ref->eta0[5] - atan2(tg[1], tg[0]);
  ref->tk = t;
  ref->b0[0] = ref->b1[0] = d[0] * tg[0] + d[1] * tg[1];
  ref->b0[1] = ref->b1[1] = ref->integ_c = -d[0] * tg[1] + d[1] * tg[0];
}

void PlDPRouteSample(PlDPReference *ref, double t, const double td[2])
{
  if (!ref->route) return;
  double D, Dd, b[2], bd[2], sm, e;
  LineDistance(ref->speed, ref->start_time, ref->ramp_time, t, &D, &Dd);
  RouteLayback(ref, t, b, bd);
  PlRouteProject(ref->route, td, &sm, &e);
  const double dt = t - ref->tk, T = fabs(b[0]) > 0.0 && Dd > 0.0 ? fabs(b[0]) / Dd : INFINITY;
  const double g = ref->gain, k = (1.0 + g) * (1.0 + g) / (4.0 * T);
  if (dt > 0.0 && isfinite(T)) ref->integ_c -= fmin(k * dt, 0.5) * e; /* a sampled integrator: at most half
                                                                         the offset per sample (a short
                                                                         layback's T is short) */
  ref->tk = t;
  memcpy(ref->b0, b, sizeof b); /* b1[0], the along layback, stays the start's */
  ref->b1[1] = ref->integ_c - g * e;
}

/* ---- the controller -------------------------------------------------------------------- */
/* sat(x; L, w) on a dual: identity for |x| <= L - w, +-L beyond L + w, a parabola between. */
static D DSat(D x, double L, double w)
{
  const double a = fabs(x.v), sg = x.v < 0.0 ? -1.0 : 1.0;
  if (a <= L - w) return x;
  if (a >= L + w) return PlDualApply(x, sg * L, 0.0);
  const double u = a - L + w;
  return PlDualApply(x, x.v - sg * u * u / (4.0 * w), 1.0 - u / (2.0 * w));
}

static double Wrap(double a) { return a - 2.0 * kPi * floor((a + kPi) / (2.0 * kPi)); }

/* Ramp-in factor of the controller at time t. */
static double OnFactor(const PlDPController *c, double t)
{
  if (t < c->start_time) return 0.0;
  if (c->ramp_time <= 0.0) return 1.0;
  double f, df, ddf;
  PlRamp((t - c->start_time) / c->ramp_time, &f, &df, &ddf);
  return f;
}

/* The controller on duals: tau[6] and f[6] (the integrand, rz = zdot - s f). */
static void DControl(const PlDPController *c, double t, const D eta[6], const D nu[6], const D z[6], D tau[6],
                     D f[6])
{
  const double s = OnFactor(c, t);
  for (int i = 0; i < 6; ++i) {
    tau[i] = dc(c->actuated[i] ? (1.0 - s) * c->tau_hold[i] : 0.0);
    f[i] = dc(0.0);
  }
  if (s == 0.0) return; /* off: the held thrust, z frozen */
  double er[6], erd[6];
  PlDPReferenceEval(&c->ref, t, er, erd);
  const D cf = PlDualCos(eta[3]), sf = PlDualSin(eta[3]), ct = PlDualCos(eta[4]), st = PlDualSin(eta[4]);
  const D cp = PlDualCos(eta[5]), sp = PlDualSin(eta[5]);
  /* R = Rz(psi) Ry(theta) Rx(phi), row-major */
  D R[9];
  R[0] = dm(cp, ct);
  R[1] = da(dk(dm(sp, cf), -1.0), dm(dm(cp, st), sf));
  R[2] = da(dm(sp, sf), dm(dm(cp, cf), st));
  R[3] = dm(sp, ct);
  R[4] = da(dm(cp, cf), dm(dm(sf, st), sp));
  R[5] = da(dk(dm(cp, sf), -1.0), dm(dm(st, sp), cf));
  R[6] = dk(st, -1.0);
  R[7] = dm(ct, sf);
  R[8] = dm(ct, cf);
  const D tt = PlDualDiv(st, ct), ict = PlDualDiv(dc(1.0), ct);
  D T[9];
  T[0] = dc(1.0);
  T[1] = dm(sf, tt);
  T[2] = dm(cf, tt);
  T[3] = dc(0.0);
  T[4] = cf;
  T[5] = dk(sf, -1.0);
  T[6] = dc(0.0);
  T[7] = dm(sf, ict);
  T[8] = dm(cf, ict);
  /* eta~ and eta~dot */
  D e[6], ed[6];
  for (int i = 0; i < 6; ++i) {
    e[i] = ds(eta[i], dc(er[i]));
    if (i >= 3) e[i].v = Wrap(e[i].v); /* the derivative is unchanged */
  }
  for (int i = 0; i < 3; ++i) {
    const D *M = R;
    ed[i] = ds(da(da(dm(M[3 * i], nu[0]), dm(M[3 * i + 1], nu[1])), dm(M[3 * i + 2], nu[2])), dc(erd[i]));
    M = T;
    ed[3 + i] = ds(da(da(dm(M[3 * i], nu[3]), dm(M[3 * i + 1], nu[4])), dm(M[3 * i + 2], nu[5])), dc(erd[3 + i]));
  }
  /* tau_PID and the integrand */
  D tp[6];
  for (int i = 0; i < 6; ++i) {
    const double b = c->integral_bound[i];
    const D Sz = b > 0.0 ? DSat(z[i], b, 0.1 * b) : z[i];
    tp[i] = da(da(dk(e[i], c->Kp[i]), dk(ed[i], c->Kd[i])), dk(Sz, c->Ki[i]));
    if (c->Ki[i] != 0.0) f[i] = b > 0.0 ? ds(e[i], dk(ds(z[i], Sz), 1.0 / c->antiwindup_time)) : e[i];
  }
  /* tau = -J^T tau_PID, saturated, on the actuated DOFs */
  for (int i = 0; i < 3; ++i) {
    D a = da(da(dm(R[i], tp[0]), dm(R[3 + i], tp[1])), dm(R[6 + i], tp[2]));
    D b = da(da(dm(T[i], tp[3]), dm(T[3 + i], tp[4])), dm(T[6 + i], tp[5]));
    tau[i] = dk(a, -1.0);
    tau[3 + i] = dk(b, -1.0);
  }
  for (int i = 0; i < 6; ++i) {
    if (!c->actuated[i]) tau[i] = dc(0.0);
    else if (c->thrust_max[i] > 0.0) tau[i] = DSat(tau[i], c->thrust_max[i], 0.05 * c->thrust_max[i]);
    /* before the start the thrusters hold tau_hold (open loop); the ramp blends */
    tau[i] = da(dk(tau[i], s), dc(c->actuated[i] ? (1.0 - s) * c->tau_hold[i] : 0.0));
    f[i] = dk(f[i], s);
  }
}

void PlDPControllerDefaults(PlDPController *c)
{
  memset(c, 0, sizeof *c);
  c->antiwindup_time = 1.0;
  c->actuated[0] = c->actuated[1] = c->actuated[5] = true;
  c->ref.kind = PL_DP_REF_FIXED;
  c->ref.circle.kind = PL_MOTION_CIRCLE;
  c->ref.circle.counter_clockwise = true;
}

int PlDPControllerCheck(const PlDPController *c, char *msg, size_t len)
{
  static const char *dof[6] = {"x", "y", "z", "roll", "pitch", "yaw"};
  for (int i = 0; i < 6; ++i) {
    const double g[3] = {c->Kp[i], c->Kd[i], c->Ki[i]};
    const char *gn[3] = {"Kp", "Kd", "Ki"};
    for (int k = 0; k < 3; ++k)
      if (!(g[k] >= 0.0) || !isfinite(g[k])) {
        snprintf(msg, len, "%s[%s] is %g, must be finite and >= 0", gn[k], dof[i], g[k]);
        return 1;
      }
    if (!isfinite(c->integral_bound[i]) || !isfinite(c->thrust_max[i])) {
      snprintf(msg, len, "integral_bound[%s] and thrust_max[%s] must be finite (<= 0: none)", dof[i], dof[i]);
      return 1;
    }
  }
  if (!(c->antiwindup_time > 0.0)) {
    snprintf(msg, len, "antiwindup_time is %g, must be > 0", c->antiwindup_time);
    return 1;
  }
  if (!(c->ramp_time >= 0.0) || !isfinite(c->start_time)) {
    snprintf(msg, len, "start_time must be finite and ramp_time >= 0");
    return 1;
  }
  const PlDPReference *r = &c->ref;
  switch (r->kind) {
  case PL_DP_REF_FIXED:
    break;
  case PL_DP_REF_CIRCLE:
    if (r->circle.kind != PL_MOTION_CIRCLE || !(r->circle.period > 0.0) || !(r->circle.radius >= 0.0) ||
        !(r->circle.ramp_up >= 0.0) || !(r->circle.hold >= 0.0) || !(r->circle.ramp_down >= 0.0)) {
      snprintf(msg, len, "reference circle: needs kind circle, period > 0, radius >= 0 and ramps >= 0");
      return 1;
    }
    break;
  case PL_DP_REF_LINE:
    if (!(r->speed >= 0.0) || !(r->ramp_time >= 0.0) || !isfinite(r->course_deg)) {
      snprintf(msg, len, "reference line: speed %g and ramp_time %g must be >= 0", r->speed, r->ramp_time);
      return 1;
    }
    break;
  case PL_DP_REF_WAYPOINTS:
    if (r->nwaypoints < 2 || !r->waypoint || !r->leg_speed) {
      snprintf(msg, len, "reference waypoints: %d given, need 2 or more", r->nwaypoints);
      return 1;
    }
    for (int i = 0; i + 1 < r->nwaypoints; ++i)
      if (!(r->leg_speed[i] > 0.0)) {
        snprintf(msg, len, "reference waypoints: leg_speed[%d] is %g, must be > 0", i, r->leg_speed[i]);
        return 1;
      }
    break;
  case PL_DP_REF_ROUTE:
    if (!(r->speed >= 0.0) || !(r->ramp_time >= 0.0) || !(r->gain >= 0.0) || !(r->interval > 0.0)) {
      snprintf(msg, len, "reference route: speed %g, ramp_time %g and gain %g must be >= 0, interval %g > 0",
               r->speed, r->ramp_time, r->gain, r->interval);
      return 1;
    }
    break;
  default:
    snprintf(msg, len, "reference: unknown kind %d", (int)r->kind);
    return 1;
  }
  for (int i = 0; i < 6; ++i)
    if (!isfinite(r->eta0[i])) {
      snprintf(msg, len, "reference eta0[%d] is not finite", i);
      return 1;
    }
  msg[0] = '\0';
  return 0;
}

void PlDPControl(const PlDPController *c, double t, const double eta[6], const double nu[6], const double z[6],
                 const double zdot[6], double cj, double tau[6], double rz[6], PlDPJacobian *J)
{
  D E[6], N[6], Z[6], T[6], F[6];
  for (int i = 0; i < 6; ++i) {
    E[i] = dc(eta[i]);
    N[i] = dc(nu[i]);
    Z[i] = dc(z[i]);
    if (J) {
      E[i].d[i] = 1.0;
      N[i].d[6 + i] = 1.0;
    }
  }
  DControl(c, t, E, N, Z, T, F);
  for (int i = 0; i < 6; ++i) {
    tau[i] = T[i].v;
    rz[i] = zdot[i] - F[i].v;
  }
  if (!J) return;
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) {
      J->dtau_deta[6 * i + j] = T[i].d[j];
      J->dtau_dnu[6 * i + j] = T[i].d[6 + j];
      J->drz_deta[6 * i + j] = -F[i].d[j];
    }
  /* second pass: z seeded */
  for (int i = 0; i < 6; ++i) {
    E[i] = dc(eta[i]);
    N[i] = dc(nu[i]);
    Z[i] = dc(z[i]);
    Z[i].d[i] = 1.0;
  }
  DControl(c, t, E, N, Z, T, F);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) {
      J->dtau_dz[6 * i + j] = T[i].d[j];
      J->drz_dz[6 * i + j] = -F[i].d[j] + (i == j ? cj : 0.0);
    }
}

void PlDPControlVessel(const PlDPController *c, double t, const double y[13], const double z[6], const double zdot[6],
                       double cj, double tau[6], double rz[6], double *dtau_dy, double *dtau_dz, double *drz_dy,
                       double *drz_dz)
{
  enum { n = PL_VESSEL_NY };
  double eta[6], deta[6 * n];
  const int need = dtau_dy || dtau_dz || drz_dy || drz_dz;
  PlVesselEta(y, eta, need ? deta : NULL);
  if (!need) {
    PlDPControl(c, t, eta, y + PL_VESSEL_V, z, zdot, cj, tau, rz, NULL);
    return;
  }
  PlDPJacobian J;
  PlDPControl(c, t, eta, y + PL_VESSEL_V, z, zdot, cj, tau, rz, &J);
  for (int i = 0; i < 6; ++i) {
    for (int j = 0; j < n; ++j) {
      double a = 0.0, b = 0.0;
      for (int k = 0; k < 6; ++k) {
        a += J.dtau_deta[6 * i + k] * deta[k * n + j];
        b += J.drz_deta[6 * i + k] * deta[k * n + j];
      }
      if (j >= PL_VESSEL_V) a += J.dtau_dnu[6 * i + j - PL_VESSEL_V];
      if (dtau_dy) dtau_dy[i * n + j] = a;
      if (drz_dy) drz_dy[i * n + j] = b;
    }
    for (int j = 0; j < 6; ++j) {
      if (dtau_dz) dtau_dz[6 * i + j] = J.dtau_dz[6 * i + j];
      if (drz_dz) drz_dz[6 * i + j] = J.drz_dz[6 * i + j];
    }
  }
}

/* ---- the hang-off point ------------------------------------------------------------------ */
void PlVesselHangOff(const PlVesselModel *v, const double r[3], const double q[4], double P[3], double R_top[9])
{
  double R[9], qn[4];
  const double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (int k = 0; k < 4; ++k) qn[k] = q[k] / n;
  PlQuatToMatrix(qn, R);
  for (int i = 0; i < 3; ++i) {
    P[i] = r[i];
    for (int k = 0; k < 3; ++k) P[i] += R[3 * i + k] * v->hang_off[k];
  }
  if (!R_top) return;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double s = 0.0;
      for (int k = 0; k < 3; ++k) s += R[3 * i + k] * v->top_frame[3 * k + j];
      R_top[3 * i + j] = s;
    }
}

void PlEndBodyJoint(const PlEnd *e, const PlVesselModel *b, PlVesselModel *joint)
{
  *joint = *b;
  memcpy(joint->hang_off, e->at, sizeof joint->hang_off);
  joint->connection = e->connection;
  memcpy(joint->top_frame, e->body_frame, sizeof joint->top_frame);
}

void PlVesselTopEnd(const PlVesselModel *v, PlEnd *top)
{
  double q[4], P[3], Rt[9];
  PlVesselQuatFromEulerZYX(v->rpy, q);
  PlVesselHangOff(v, v->position, q, P, Rt);
  const PlEnd keep = *top; /* its motion (none with a vessel) and the tensioner's pay-out */
  memset(top, 0, sizeof *top);
  top->motion = keep.motion;
  const size_t a = offsetof(PlEnd, payout), b = offsetof(PlEnd, tension_filter) + sizeof keep.tension_filter;
  memcpy((char *)top + a, (const char *)&keep + a, b - a); /* the pay-out's block (models.h) */
  top->point = top->body = -1;
  for (int c = 0; c < 3; ++c) {
    top->fixed[c] = true;
    top->has_position[c] = true;
    top->position[c] = P[c];
  }
  if (v->connection == PL_HANGOFF_FIXED) {
    memcpy(top->orientation, Rt, sizeof Rt);
    top->has_orientation = true;
    for (int c = 3; c < 6; ++c) top->fixed[c] = true;
  } else {
    /* hinge: the top section's frame is free; the mesh's reference frame there follows the
     * guess (orientation identity, as an end without one) */
    for (int i = 0; i < 9; ++i) top->orientation[i] = (i % 4 == 0) ? 1.0 : 0.0;
  }
}
