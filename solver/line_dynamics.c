/*
 * line_dynamics.c - a line's dynamic kernels, the pieces the system core (system_dynamic.c)
 * assembles for every line: the lumped inertia, Morison and weight data of its nodes, its
 * ends' holds (prescribed motion, fixed DOFs) as constraint rows with their exact
 * derivatives, the rod element's residual and iteration-matrix block (elements/rod_dynamics.c
 * on the seabed and in the current), and IDA's stepping with its stop and stall tests.
 *
 * Unknowns per node (13 with quaternions, 12 with Euler angles): u, p, v, w (see
 * elements/rod_dynamics.c for the rows), where the position is carried as the displacement
 * u = x - x_static from the static configuration: IDA's error test weighs a component by
 * rtol |y| + atol, and with absolute coordinates (|x| ~ 10^3 m) rtol would allow position
 * errors of 0.1 m, i.e. axial-force noise of EA 0.1/L ~ 10^5 N in a steel pipe.
 *   F = sum_e [rod internal force (x rows -> V rows, p rows -> W rows through
 *              PlNodeMapParamForce; the residual takes those moments in the nodes' frames
 *              directly, PlRodElementNodeForces), + w L/2 e3 (submerged weight, eq 5.33),
 *              - seabed sigma(z) e3 (eq 5.38) + c_s h(kappa) v_z (contact damping),
 *              Morison drag and added mass (eq 5.34)]
 *     + sum_n [kinematics, inertia, gyroscopic and rotational damping terms, - dead end
 *              loads]
 * Held DOFs of an end replace rows (index-1 algebraic equations):
 *   translation c: row X+c -> v_c - vbar_c(t), row V+c -> s_x (x_c - xbar_c(t));
 *   all rotations: rows P..P+2 -> w - wbar(t), rows W+c -> s_r (p_k - pbar_k(t)) with
 *     k = 1 + c (quaternion; the unit-norm row fixes p_0) or c (Euler);
 *   one rotation c of a partial hold: row W+c -> s_r (p_k - p_k,static).
 * xbar = x_static + d(t), pbar = params of q(p_static) (x) exp(th(t)), from the motion.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic_impl.h"

/* Prescribed values of an end at time t: position, velocity, acceleration (3 each) and
 * rotation parameters pbar (np) with the body angular velocity wbar. */
/* A route motion's offset dd, velocity dv and acceleration da at time t (PlMotion, models.h):
 * with sigma = sigma_0 + s(t), the route's tangent t(sigma) and curvature kappa, the turn from
 * sigma_0 Q = Rot(theta(sigma) - theta_0) (cos = t_0 . t, sin = t_0 x t) and b = Q b_0, the top
 * is at P = r(sigma) + b, so P' = t + kappa J b and P'' = kappa J t - kappa^2 b (J: a quarter
 * turn to the left; kappa is constant on a piece), dd = P - P(sigma_0), dv = s' P',
 * da = s'' P' + s'^2 P''. */
static void RouteMotion(const PlDynLine d, const PlDynEnd *E, double t, double dd[3], double dv[3], double da[3])
{
  const PlModel *m = &d->sp->model;
  double s, sd, x[2], tg[2], kap, x0[2], t0[2], k0;
  PlPayout(&m->ends[1], t, &s, &sd);
  const double sdd = PlPayoutAcceleration(&m->ends[1], t);
  PlRouteEval(&m->route, E->route_s0 + s, x, tg, &kap);
  PlRouteEval(&m->route, E->route_s0, x0, t0, &k0);
  const double c = E->route_t0[0] * tg[0] + E->route_t0[1] * tg[1], sn = E->route_t0[0] * tg[1] - E->route_t0[1] * tg[0];
  const double b[2] = {c * E->route_b[0] - sn * E->route_b[1], sn * E->route_b[0] + c * E->route_b[1]};
  const double Jb[2] = {-b[1], b[0]}, Jt[2] = {-tg[1], tg[0]};
  for (int k = 0; k < 2; ++k) {
    const double P1 = tg[k] + kap * Jb[k], P2 = kap * Jt[k] - kap * kap * b[k];
    dd[k] = x[k] + b[k] - x0[k] - E->route_b[k];
    dv[k] = sd * P1;
    da[k] = sdd * P1 + sd * sd * P2;
  }
  dd[2] = dv[2] = da[2] = 0.0;
}

void PlDynEndPrescribed(const PlDynLine d, const PlDynEnd *E, double t, double xb[3], double vb[3],
                          double ab[3], double *pb, double wb[3])
{
  double dd[3], dv[3], dacc[3], th[3], dth[3];
  PlMotionEval(E->motion, t, dd, dv, dacc, th, dth);
  if (E->motion && E->motion->kind == PL_MOTION_ROUTE) RouteMotion(d, E, t, dd, dv, dacc);
  for (int c = 0; c < 3; ++c) {
    xb[c] = E->xs[c] + dd[c];
    vb[c] = dv[c];
    ab[c] = dacc[c];
    wb[c] = dth[c];
  }
  /* q(pbar) = q(p_static) (x) exp(th) */
  const double a = sqrt(th[0] * th[0] + th[1] * th[1] + th[2] * th[2]);
  double qe[4] = {1, 0, 0, 0}, q[4];
  if (a > 0.0) {
    const double axis[3] = {th[0] / a, th[1] / a, th[2] / a};
    PlQuatFromAxisAngle(axis, a, qe);
  }
  PlQuatMul(E->qs, qe, q);
  if (d->kind == PL_PARAM_QUATERNION) {
    /* keep the hemisphere of the static parameters */
    const double s = q[0] * E->ps[0] + q[1] * E->ps[1] + q[2] * E->ps[2] + q[3] * E->ps[3];
    for (int i = 0; i < 4; ++i) pb[i] = s < 0 ? -q[i] : q[i];
  } else if (a == 0.0) {
    for (int i = 0; i < 3; ++i) pb[i] = E->ps[i];
  } else
    PlParamFromQuaternion(d->kind, q, pb);
}

/* Overwrites the held rows of end E (owned by this rank) in f (node row array). The rows
 * are chosen so that each constraint sits on the diagonal of the iteration matrix. */
void PlDynEndResidual(const PlDynLine d, const PlDynEnd *E, double t, const double *y, double *f)
{
  double xb[3], vb[3], ab[3], pb[4], wb[3];
  PlDynEndPrescribed(d, E, t, xb, vb, ab, pb, wb);
  for (int c = 0; c < 3; ++c)
    if (E->tr[c]) {
      f[c] = y[c] + d->xs[3 * E->node + c] - xb[c]; /* the node's position x = xs + y */
      f[d->iV + c] = y[d->iV + c] - vb[c];
    }
  if (E->rot == 1)
    for (int c = 0; c < 3; ++c) {
      const int k = PlHeldParam(d->kind, c);
      f[3 + k] = y[3 + k] - pb[k];
      f[d->iW + c] = y[d->iW + c] - wb[c];
    }
  else if (E->rot == 2)
    for (int c = 0; c < 3; ++c)
      if (E->rp[c]) {
        const int k = PlHeldParam(d->kind, c);
        f[d->iW + c] = y[3 + k] - E->ps[k];
      }
  if (E->rot == 1 && d->kind == PL_PARAM_QUATERNION)
    f[3] = 0.5 * (y[3] * y[3] + y[4] * y[4] + y[5] * y[5] + y[6] * y[6] - 1.0);
}

/* Held rows of end E as rows of the node's Jacobian block Kn (ndd x ndd). */
void PlDynEndJacobian(const PlDynLine d, const PlDynEnd *E, const double *y, double *Kn)
{
  const int n = d->ndd;
#define ROW(r, col, val) do { memset(Kn + (r) * n, 0, n * sizeof(double)); Kn[(r) * n + (col)] = (val); } while (0)
  for (int c = 0; c < 3; ++c)
    if (E->tr[c]) {
      ROW(c, c, 1.0);
      ROW(d->iV + c, d->iV + c, 1.0);
    }
  if (E->rot == 1) {
    for (int c = 0; c < 3; ++c) {
      const int k = PlHeldParam(d->kind, c);
      ROW(3 + k, 3 + k, 1.0);
      ROW(d->iW + c, d->iW + c, 1.0);
    }
    if (d->kind == PL_PARAM_QUATERNION) {
      ROW(3, 3, y[3]);
      for (int k = 1; k < 4; ++k) Kn[3 * n + 3 + k] = y[3 + k];
    }
  } else if (E->rot == 2)
    for (int c = 0; c < 3; ++c)
      if (E->rp[c]) ROW(d->iW + c, 3 + PlHeldParam(d->kind, c), 1.0);
#undef ROW
}

/* Is row r of node i replaced by a constraint? */
int PlDynRowHeld(const PlDynLine d, int i, int r)
{
  for (int k = 0; k < 2; ++k) {
    const PlDynEnd *E = &d->ends[k];
    if (E->node != i) continue;
    if (E->rot == 1 && r >= 3 && r < d->iV) return 1;
    for (int c = 0; c < 3; ++c) {
      if (E->tr[c] && (r == c || r == d->iV + c)) return 1;
      if (E->rot == 1 && r == d->iW + c) return 1;
      if (E->rot == 2 && E->rp[c] && r == d->iW + c) return 1;
    }
  }
  return 0;
}

/* Seabed force per length F (along the seabed's normal n, models/seabed.c) with contact
 * damping c (PlSeabedDamping) along n at centreline x, velocity v: F = sigma(kappa) n -
 * c h(kappa) (v.n) n, its
 * elastic part Fel = sigma n, and dF/dx, dF/dv (3 x 3, row-major). h(kappa) ramps the damping
 * in over the first d_o/40 of penetration so that the force stays continuous. On a plane
 * dkappa/dx = -n and dn/dx = 0; on a bathymetry grid both come from PlSeabedGeometry:
 *   dF/dx = sigma' n dk^T + sigma dn - c [dh (v.n) n dk^T + h (n (dn^T v)^T + (v.n) dn)]. */
static void SeabedDyn(const PlModel *m, const PlSection *s, double w, double c, const double x[3], const double v[3],
                      double F[3], double dF_dx[9], double dF_dv[9], double Fel[3])
{
  PlSeabedContact(m, s, w, x, F, dF_dx);
  memcpy(Fel, F, sizeof(double) * 3);
  memset(dF_dv, 0, sizeof(double) * 9);
  if (m->seabed == PL_SEABED_NONE || c <= 0.0) return;
  double kappa, n[3], dk[3], dn[9];
  PlSeabedGeometry(m, s, x, &kappa, n, dk, dn);
  const double k0 = s->outer_diameter / 40.0;
  if (kappa <= 0.0) return;
  const double h = kappa < k0 ? kappa / k0 : 1.0, dh = kappa < k0 ? 1.0 / k0 : 0.0; /* dh/dkappa */
  const double vn = n[0] * v[0] + n[1] * v[1] + n[2] * v[2];
  double vdn[3]; /* d(v.n)/dx = dn^T v */
  for (int j = 0; j < 3; ++j) vdn[j] = v[0] * dn[j] + v[1] * dn[3 + j] + v[2] * dn[6 + j];
  for (int i = 0; i < 3; ++i) {
    F[i] -= c * h * vn * n[i];
    for (int j = 0; j < 3; ++j) {
      if (!m->bathymetry) /* the plane's form, to the bit */
        dF_dx[3 * i + j] += c * dh * vn * n[i] * n[j];
      else
        dF_dx[3 * i + j] -= c * (dh * vn * n[i] * dk[j] + h * (n[i] * vdn[j] + vn * dn[3 * i + j]));
      dF_dv[3 * i + j] = -c * h * n[i] * n[j];
    }
  }
}

/* Seabed friction in time (seabed.friction; the law in models/friction.c). Element e's
 * anchor a = a_s + y_A[iA..iA+2] (a_s its static anchor, the statics' p->fric, so that the
 * run starts in the static equilibrium), its frame (e_a, e_l) the static one. The force is
 * the statics' F = P phi(u), u = (x_A + x_B)/2 - a, on the nodes' momentum rows (half each).
 * The law is hyperelastic, phi = -grad Psi(u) (models/friction.c), with the force f = -phi
 * inside the capacity ellipse f^T C f = tanh^2(s) < 1, C = e_a e_a^T/mu_a^2 + e_l e_l^T/mu_l^2,
 * s the utilisation measure the law returns (rho). The anchor follows the pipe where the
 * friction is mobilised, by the flow associated with the ellipse (along its outward normal at
 * the force, which points along the slip):
 *   a' = gamma m,   m = C f/|C f|,   gamma = S(s) pos(w),   w = v_m.m   (v_m the midpoint's
 *                                                                       velocity),
 *   S = the C^1 step 3t^2 - 2t^3, t = s - 3 clamped to [0, 1]; pos(w) = (w + sqrt(w^2 +
 *   eps^2))/2, eps = 0.01 min(delta_a, delta_l) per second (a smooth max(w, 0)).
 * Below s = 3 (tanh 3 = 99.5 % of the capacity) the anchor stays: the pipe sticks on the
 * spring; from s = 4 on, a pipe pulled along m slides with the force at tanh(4) = 99.93 % of
 * the capacity, the anchor dragged along; unloading (w < 0) leaves the anchor where it is.
 * Passive whatever the state: the anchor's motion takes the power -F.a' = P gamma f.m =
 * P gamma f^T C f/|C f| >= 0 out of the spring, which the friction dissipates. Rows of the
 * anchor (node A):
 *   a' - gamma m = 0,
 * with K = df/du = -dphi/du (symmetric, models/friction.c), dm/du = (I - m m^T) C K/|C f|,
 * dw/du = v_m^T dm/du, dw/dv_m = m^T, ds/du = K C f/(tanh(s) sech^2(s)) (from q = f^T C f =
 * tanh^2 s: dq/du = 2 K C f, dq/ds = 2 tanh s sech^2 s; needed only for 3 < s < 4, where S' is
 * not zero), dgamma/du = S' pos ds/du + S pos' dw/du; u depends on x_A, x_B (1/2 each) and a
 * (-1), v_m on v_A, v_B (1/2 each). The last node's anchor rows are idle: a' = 0.
 * Energy: the friction's power on the pipe F.v_m (PL_WORK_FRICTION), with v_m = u' + a',
 * splits into the rate of the spring's stored energy P Psi(u) (PlFrictionPotential), the
 * power the anchor's slip dissipates, -F.a' >= 0 (PL_WORK_FRICTION_SLIP), and the rest
 * (PL_WORK_FRICTION_NONCONSERVATIVE),
 *   L' = -F.u' - d(P Psi)/dt = P (-phi - grad Psi).u' - Psi P',   P' = dP/dx_A.v_A + dP/dx_B.v_B:
 * the law's non-conservative part, zero up to the round-off of the law's solve (grad Psi =
 * -phi), and the stored energy that a changing normal force takes away or brings (the spring
 * scales with P), so that -F.v_m = d(P Psi)/dt + slip + L' exactly. */
static void DynFriction(const PlDynLine d, int e, const double *yA, const double *ypA, const double *yB,
                        const double *ypB, double c, double *fe, double *Ke, double *pw)
{
  const PlProblem p = d->sp;
  const int ndd = d->ndd, n2 = 2 * ndd, iV = d->iV, iA = d->iA;
  const double *A0 = p->fric + 9 * (size_t)e, *ea = A0 + 3, *el = A0 + 6;
  double a[3], P, dP[2][3], phi[3], dphi[9], rho;
  for (int k = 0; k < 3; ++k) a[k] = A0[k] + yA[iA + k];
  PlProblemFrictionLaw(p, e, yA, yB, a, &P, dP, phi, dphi, &rho);
  for (int i = 0; i < 3; ++i) {
    for (int q = 0; q < 2; ++q) fe[q * ndd + iV + i] -= 0.5 * P * phi[i];
    fe[iA + i] += ypA[iA + i];
    if (Ke) {
      Ke[(iA + i) * n2 + iA + i] += c;
      for (int q = 0; q < 2; ++q) {
        const int row = (q * ndd + iV + i) * n2;
        for (int j = 0; j < 3; ++j) {
          for (int b = 0; b < 2; ++b) Ke[row + b * ndd + j] -= 0.5 * (0.5 * P * dphi[3 * i + j] + phi[i] * dP[b][j]);
          Ke[row + iA + j] += 0.5 * P * dphi[3 * i + j];
        }
      }
    }
  }
  if (pw) { /* the powers (see the energy paragraph above) */
    const PlSection *sc = &p->model.segments[p->mesh.segment[e]].section;
    double dA, dL, u[3], psi, gpsi[3], F = 0.0, slip = 0.0, ncons, dPdt = 0.0;
    PlFrictionMobilisation(&p->model, sc, &dA, &dL);
    for (int k = 0; k < 3; ++k) u[k] = 0.5 * (yA[k] + yB[k]) - a[k];
    PlFrictionPotential(&p->model, dA, dL, ea, el, u, &psi, gpsi);
    ncons = 0.0;
    for (int k = 0; k < 3; ++k) {
      const double vm = 0.5 * (yA[iV + k] + yB[iV + k]), ad = ypA[iA + k];
      F += P * phi[k] * vm;
      slip -= P * phi[k] * ad;
      ncons += P * (-phi[k] - gpsi[k]) * (vm - ad);
      dPdt += dP[0][k] * yA[iV + k] + dP[1][k] * yB[iV + k];
    }
    pw[PL_WORK_FRICTION] += F;
    pw[PL_WORK_FRICTION_SLIP] += slip;
    pw[PL_WORK_FRICTION_NONCONSERVATIVE] += ncons - psi * dPdt;
  }
  if (e == p->mesh.nelements - 1) /* the last node's idle anchor */
    for (int i = 0; i < 3; ++i) {
      fe[ndd + iA + i] += ypB[iA + i];
      if (Ke) Ke[(ndd + iA + i) * n2 + ndd + iA + i] += c;
    }
  if (!(rho > 3.0)) return;
  const PlModel *mo = &p->model;
  const double Ca = mo->friction_axial > 0.0 ? 1.0 / (mo->friction_axial * mo->friction_axial) : 0.0;
  const double Cl = mo->friction_lateral > 0.0 ? 1.0 / (mo->friction_lateral * mo->friction_lateral) : 0.0;
  const PlSection *sec = &p->model.segments[p->mesh.segment[e]].section;
  double da, dl, vm[3], Cf[3], C[9], fa = 0.0, fl = 0.0, nC = 0.0;
  PlFrictionMobilisation(mo, sec, &da, &dl);
  for (int k = 0; k < 3; ++k) {
    vm[k] = 0.5 * (yA[iV + k] + yB[iV + k]);
    fa -= phi[k] * ea[k], fl -= phi[k] * el[k]; /* f = -phi in the frame */
  }
  for (int k = 0; k < 3; ++k) {
    Cf[k] = Ca * fa * ea[k] + Cl * fl * el[k];
    nC += Cf[k] * Cf[k];
    for (int j = 0; j < 3; ++j) C[3 * k + j] = Ca * ea[k] * ea[j] + Cl * el[k] * el[j];
  }
  nC = sqrt(nC);
  if (!(nC > 0.0)) return;
  const double mh[3] = {Cf[0] / nC, Cf[1] / nC, Cf[2] / nC}, eps = 0.01 * fmin(da, dl);
  const double w = vm[0] * mh[0] + vm[1] * mh[1] + vm[2] * mh[2];
  const double root = sqrt(w * w + eps * eps), pos = 0.5 * (w + root), dpos = 0.5 * (1.0 + w / root);
  const double t = fmin(1.0, rho - 3.0), S = t * t * (3.0 - 2.0 * t), dS = 6.0 * t * (1.0 - t);
  const double gam = S * pos;
  for (int i = 0; i < 3; ++i) fe[iA + i] -= gam * mh[i];
  if (!Ke) return;
  double CK[9], dm[9], dw[3], ds[3] = {0, 0, 0}, dgam[3]; /* K = df/du = -dphi */
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) {
      CK[3 * i + k] = 0.0;
      for (int j = 0; j < 3; ++j) CK[3 * i + k] -= C[3 * i + j] * dphi[3 * j + k];
    }
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) {
      dm[3 * i + k] = CK[3 * i + k];
      for (int j = 0; j < 3; ++j) dm[3 * i + k] -= mh[i] * mh[j] * CK[3 * j + k];
      dm[3 * i + k] /= nC;
    }
  if (dS > 0.0) { /* ds/du = K C f/(tanh s sech^2 s) */
    const double e2 = exp(-2.0 * rho), sech2 = 4.0 * e2 / ((1.0 + e2) * (1.0 + e2)), den = tanh(rho) * sech2;
    for (int k = 0; k < 3; ++k) {
      for (int j = 0; j < 3; ++j) ds[k] -= dphi[3 * k + j] * Cf[j];
      ds[k] /= den;
    }
  }
  for (int k = 0; k < 3; ++k) {
    dw[k] = vm[0] * dm[k] + vm[1] * dm[3 + k] + vm[2] * dm[6 + k];
    dgam[k] = dS * pos * ds[k] + S * dpos * dw[k];
  }
  for (int i = 0; i < 3; ++i) {
    const int row = (iA + i) * n2;
    for (int k = 0; k < 3; ++k) {
      const double dr_du = -(mh[i] * dgam[k] + gam * dm[3 * i + k]), dr_dv = -mh[i] * S * dpos * mh[k];
      for (int b = 0; b < 2; ++b) {
        Ke[row + b * ndd + k] += 0.5 * dr_du;
        Ke[row + b * ndd + iV + k] += 0.5 * dr_dv;
      }
      Ke[row + iA + k] -= dr_du;
    }
  }
}

double PlDynFrictionEnergy(const PlDynLine d, int e, const double *xA, const double *xB, const double *da)
{
  const PlProblem p = d->sp;
  if (d->iA < 0) return 0.0;
  const double *A0 = p->fric + 9 * (size_t)e;
  const PlSection *sec = &p->model.segments[p->mesh.segment[e]].section;
  double a[3], u[3], P, dP[2][3], phi[3], rho, dA, dL, psi;
  for (int k = 0; k < 3; ++k) a[k] = A0[k] + da[k];
  PlProblemFrictionLaw(p, e, xA, xB, a, &P, dP, phi, NULL, &rho);
  PlFrictionMobilisation(&p->model, sec, &dA, &dL);
  for (int k = 0; k < 3; ++k) u[k] = 0.5 * (xA[k] + xB[k]) - a[k];
  PlFrictionPotential(&p->model, dA, dL, A0 + 3, A0 + 6, u, &psi, NULL);
  return P * psi;
}

void PlDynTouchdown(const PlDynLine d, const double *pos, int stride, const double *ref, double xt[3])
{
  const PlProblem p = d->sp;
  const int nn = p->mesh.nnodes;
  PlStation *N = calloc((size_t)nn, sizeof *N);
  for (int i = 0; N && i < nn; ++i) {
    N[i].S = p->mesh.S[i];
    for (int c = 0; c < 3; ++c) N[i].x[c] = pos[(size_t)i * stride + c] + (ref ? ref[3 * i + c] : 0.0);
  }
  if (!N || !isfinite(PlTouchdown(p, N, nn, xt)))
    for (int c = 0; c < 3; ++c) xt[c] = pos[c] + (ref ? ref[c] : 0.0);
  free(N);
}

/* Pay-out: a Lagrangian line whose top element, between the last material node and the
 * tensioner's exit (the held top node), has the unstretched length l(t) = l_0 + s(t)
 * (docs/design-laying.md, step 3): its stiffness, weight, drag and lumped mass use l(t);
 * the momentum the paid-out material brings in, of order m s'^2 against the tension (3e-7 of
 * it at 2 km/day), is left out. */
double PlDynTopLength(const PlDynLine d, double t)
{
  if (!d->payout) return d->sp->elements[d->sp->mesh.nelements - 1].L;
  double s, sd;
  PlDynPaidOut(d, t, &s, &sd);
  return d->Ltop0 + s - d->s0;
}

/* Tension control: a sampled (digital) controller, as a tensioner's is. At each sample tk it
 * measures the tension T_k the pipe pulls the tensioner with and commands the rate
 * r_c = R tanh(k (T_k - T_set)/R) (paying out when the tension is above the set one; R the
 * rate limit, k the gain); the winch follows as a first-order lag, tau r' + r = r_c, which
 * between samples integrates exactly:
 *   r(t) = r_c + (r_k - r_c) e^(-(t - t_k)/tau),
 *   s(t) = s_k + r_c (t - t_k) + (r_k - r_c) tau (1 - e^(-(t - t_k)/tau)).
 * s and r are continuous at the samples (s' jumps in slope only), so the integrator runs
 * through them; PlDynamicAdvance stops it at each sample (IDA's stop time) to sample. */
void PlDynPaidOut(const PlDynLine d, double t, double *s, double *rate)
{
  const PlEnd *E = &d->sp->model.ends[1];
  if (!E->payout_tension) {
    PlPayout(E, t, s, rate);
    return;
  }
  const double tau = E->tension_lag, dt = t - d->ctl.tk, ex = exp(-dt / tau);
  *rate = d->ctl.rcmd + (d->ctl.rk - d->ctl.rcmd) * ex;
  *s = d->ctl.sk + d->ctl.rcmd * dt + (d->ctl.rk - d->ctl.rcmd) * tau * (1.0 - ex);
}

void PlDynTensionerSample(PlDynLine d, double t, double T)
{
  const PlEnd *E = &d->sp->model.ends[1];
  double s, r;
  PlDynPaidOut(d, t, &s, &r);
  d->ctl.tk = t;
  d->ctl.sk = s;
  d->ctl.rk = r;
  /* the load cell's first-order low-pass, tau_f T_f' = T - T_f, by backward Euler over the
   * sample interval (the first sample starts it at the measured value) */
  const double dt = t - d->ctl.tf_t, tf = E->tension_filter;
  d->ctl.tension = d->ctl.tf_t < 0.0 ? T : d->ctl.tension + dt / (tf + dt) * (T - d->ctl.tension);
  d->ctl.tf_t = t;
  T = d->ctl.tension;
  const double R = E->tension_max_rate;
  d->ctl.rcmd = t >= E->payout_start ? R * tanh(E->tension_gain * (T - E->tension_set) / R) : 0.0;
}

void PlDynNodeInertia(const PlDynLine d, int i, double t, PlNodeInertia *ni)
{
  const PlProblem p = d->sp;
  const int ne = p->mesh.nelements;
  *ni = d->inertia[i];
  if (d->at_rest) {
    /* the statics' pseudo-transient steps (solver/system_static.c): a rotation's pseudo-inertia
     * m L^2 (L the mean length of the node's elements), the mass that a turn d theta moving the
     * neighbours by L d theta carries, as in the one-line statics; the section's own J ~ m r^2
     * (r << L) leaves the rotations all but undamped in pseudo-time, where they oscillate */
    const double L = i == 0 ? p->elements[0].L
                     : i == ne ? p->elements[ne - 1].L
                               : 0.5 * (p->elements[i - 1].L + p->elements[i].L);
    for (int c = 0; c < 3; ++c) ni->J[c] = fmax(ni->J[c], ni->mass * L * L);
  }
  if (!d->payout || i < ne - 1) return;
  const PlSegment *seg = &p->model.segments[p->mesh.segment[ne - 1]];
  const double dl = PlDynTopLength(d, t) - d->Ltop0;
  ni->mass += 0.5 * dl * seg->section.mass_per_length;
  for (int c = 0; c < 3; ++c) {
    ni->J[c] += 0.5 * dl * seg->section.inertia[c];
    ni->D[c] += 0.5 * dl * seg->hydro.rotational_damping[c];
  }
}

void PlDynInterpolateNode(const PlDynLine d, int e, double xi, const double *yA, const double *ypA,
                          const double *yB, const double *ypB, double x[3], double q[4], double *yn, double *ypn)
{
  const PlProblem p = d->sp;
  const int ndd = d->ndd, iV = d->iV, iW = d->iW;
  double qa[4], qb[4], qr[4], qx[4] = {1, 0, 0, 0}, Ra[9], Rb[9], R[9], axis[3] = {1, 0, 0}, th = 0.0;
  PlNodeQuaternion(d->kind, p->mesh.q0 + 4 * e, yA + 3, qa);
  PlNodeQuaternion(d->kind, p->mesh.q0 + 4 * (e + 1), yB + 3, qb);
  const double qac[4] = {qa[0], -qa[1], -qa[2], -qa[3]};
  PlQuatMul(qac, qb, qr); /* R_A^T R_B = exp(psi^) */
  if (qr[0] < 0.0)
    for (int k = 0; k < 4; ++k) qr[k] = -qr[k];
  const double sv = sqrt(qr[1] * qr[1] + qr[2] * qr[2] + qr[3] * qr[3]);
  if (sv > 0.0) {
    for (int c = 0; c < 3; ++c) axis[c] = qr[1 + c] / sv;
    th = 2.0 * atan2(sv, qr[0]);
    PlQuatFromAxisAngle(axis, xi * th, qx); /* exp(xi psi^) */
  }
  PlQuatMul(qa, qx, q);
  /* The position: the rod's strain Gamma = R_m^T (x_B - x_A)/L (midpoint frame R_m = R_A
   * exp(psi^/2)) kept in both parts, whose midpoint frames are R_A exp(xi psi^/2) and R_A
   * exp((1 + xi) psi^/2): with D = x_B - x_A, D1 = R_A exp((xi - 1) psi^/2) R_A^T D and
   * D2 = R_A exp(xi psi^/2) R_A^T D, the parts' chords xi D1 and (1 - xi) D2 close up to
   * e = D - xi D1 - (1 - xi) D2 (second order in psi), shared between them:
   * x = x_A + xi (D1 + e). (The chord's own point, x_A + xi D, would shear both parts by
   * psi/2 in opposite senses: a large force on a stiff pipe.) */
  double xA[3], D[3], D1[3], D2[3], q1[4], q2[4], R1[9], R2[9], Rs1[9], Rs2[9];
  PlQuatFromAxisAngle(axis, 0.5 * (xi - 1.0) * th, q1);
  PlQuatFromAxisAngle(axis, 0.5 * xi * th, q2);
  PlQuatToMatrix(qa, Ra);
  PlQuatToMatrix(q1, R1);
  PlQuatToMatrix(q2, R2);
  for (int i = 0; i < 9; ++i) Rs1[i] = Rs2[i] = 0.0;
  for (int i = 0; i < 3; ++i) /* R_A R_k R_A^T */
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k)
        for (int m = 0; m < 3; ++m) {
          Rs1[3 * i + j] += Ra[3 * i + k] * R1[3 * k + m] * Ra[3 * j + m];
          Rs2[3 * i + j] += Ra[3 * i + k] * R2[3 * k + m] * Ra[3 * j + m];
        }
  for (int c = 0; c < 3; ++c) {
    xA[c] = yA[c] + d->xs[3 * e + c];
    D[c] = yB[c] + d->xs[3 * (e + 1) + c] - xA[c];
  }
  for (int c = 0; c < 3; ++c) {
    D1[c] = Rs1[3 * c] * D[0] + Rs1[3 * c + 1] * D[1] + Rs1[3 * c + 2] * D[2];
    D2[c] = Rs2[3 * c] * D[0] + Rs2[3 * c + 1] * D[1] + Rs2[3 * c + 2] * D[2];
  }
  for (int c = 0; c < 3; ++c) x[c] = xA[c] + xi * (D1[c] + D[c] - xi * D1[c] - (1.0 - xi) * D2[c]);
  PlQuatToMatrix(qb, Rb);
  PlQuatToMatrix(q, R);
  memset(yn, 0, sizeof(double) * ndd);
  memset(ypn, 0, sizeof(double) * ndd);
  PlParamIdentity(d->kind, yn + 3);
  double w[3], wd[3];
  for (int c = 0; c < 3; ++c) {
    yn[iV + c] = (1.0 - xi) * yA[iV + c] + xi * yB[iV + c];
    ypn[c] = yn[iV + c];
    ypn[iV + c] = (1.0 - xi) * ypA[iV + c] + xi * ypB[iV + c];
    w[c] = wd[c] = 0.0; /* spatial */
    for (int k = 0; k < 3; ++k) {
      w[c] += (1.0 - xi) * Ra[3 * c + k] * yA[iW + k] + xi * Rb[3 * c + k] * yB[iW + k];
      wd[c] += (1.0 - xi) * Ra[3 * c + k] * ypA[iW + k] + xi * Rb[3 * c + k] * ypB[iW + k];
    }
  }
  for (int c = 0; c < 3; ++c)
    for (int k = 0; k < 3; ++k) {
      yn[iW + c] += R[3 * k + c] * w[k]; /* body frame: R^T w */
      ypn[iW + c] += R[3 * k + c] * wd[k];
    }
  PlParamRateFromOmega(d->kind, yn + 3, yn + iW, ypn + 3);
}

void PlDynLineSetTime(PlDynLine d, double t)
{
  if (!d->payout) return;
  const PlProblem p = d->sp;
  const int ne = p->mesh.nelements;
  p->elements[ne - 1].L = PlDynTopLength(d, t);
  p->mesh.S[ne] = p->mesh.S[ne - 1] + p->elements[ne - 1].L;
}

/* The rod's rows of element e with its iteration-matrix block (PlDynElement with Ke): the
 * static element's r and K = dr/du (PlRodElementInternal), its translation rows on the V rows
 * and its parameter rows r_p mapped to the nodes' body moments m = B(p) r_p
 * (PlNodeMapParamForce) on the W rows, dm = B dr_p + (dm/dp) dp. Returns 1 outside the rod's
 * domain (the block then zero). */
static int RodMatrixRows(const PlDynLine d, const PlRodElement *el, const double *yA, const double *yB, double *fe,
                         double *Ke)
{
  const int nd = d->nd, ndd = d->ndd, n2 = 2 * ndd, np = d->np;
  double ue[PL_ELEM_DOF_MAX], re[PL_ELEM_DOF_MAX], K[PL_ELEM_DOF_MAX * PL_ELEM_DOF_MAX];
  memcpy(ue, yA, nd * sizeof(double));
  memcpy(ue + nd, yB, nd * sizeof(double));
  const int bad = PlRodElementInternal(el, ue, re, K);
  if (bad) memset(K, 0, sizeof K);
  for (int a = 0; a < 2; ++a) {
    const double *pa = a ? yB + 3 : yA + 3;
    double mrow[3], dmdp[12], B[12];
    for (int i = 0; i < 3; ++i) fe[a * ndd + d->iV + i] += re[a * nd + i];
    PlNodeMapParamForce(d->kind, pa, re + a * nd + 3, mrow, dmdp);
    for (int i = 0; i < 3; ++i) fe[a * ndd + d->iW + i] += mrow[i];
    /* the map m = B(p) r_p is linear in r_p: its 3 x np matrix, column by column */
    for (int k = 0; k < np; ++k) {
      double ek[4] = {0, 0, 0, 0}, col[3];
      ek[k] = 1.0;
      PlNodeMapParamForce(d->kind, pa, ek, col, NULL);
      for (int i = 0; i < 3; ++i) B[i * np + k] = col[i];
    }
    for (int b = 0; b < 2; ++b)
      for (int j = 0; j < nd; ++j) {
        const int col = b * ndd + j; /* static unknown j of node b has the same index */
        for (int i = 0; i < 3; ++i) Ke[(a * ndd + d->iV + i) * n2 + col] += K[(a * nd + i) * 2 * nd + b * nd + j];
        /* dm = B dr_p + (dm/dp) dp */
        for (int i = 0; i < 3; ++i) {
          double v = 0.0;
          for (int k = 0; k < np; ++k) v += B[i * np + k] * K[(a * nd + 3 + k) * 2 * nd + b * nd + j];
          Ke[(a * ndd + d->iW + i) * n2 + col] += v;
        }
      }
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < np; ++k) Ke[(a * ndd + d->iW + i) * n2 + a * ndd + 3 + k] += dmdp[i * np + k];
  }
  return bad;
}

/* The water at the point of fraction xi along the chord from yA to yB (positions absolute) at
 * time t: with waves, the sea's service (PlWavesFluid: the waves' kinematics and the current);
 * in a calm sea the current alone at the point's height (PlCurrentVelocity: no kinematics
 * evaluated). A point above the instantaneous surface eta but within the wetted fraction's band
 * (z - eta < dw/2, dw its width) takes the water at the surface above it, u(x, y, eta(x, y)),
 * with the gradient of that (du/dx_j + du/dz deta/dx_j, nothing in z): the wetted fraction
 * alone then ends the load, continuously and centred on eta (the smoothstep is antisymmetric
 * about its middle), where the kinematics' own cut-off (zero above eta) would make the load
 * jump by half its value as a Gauss point crosses the surface. The gradients only with grad (the
 * iteration matrix's; PlWavesFluidValues else). */
static void GaussFluid(const PlDynLine d, const double *yA, const double *yB, double xi, double t, double dw, int grad,
                       PlFluidAt *fl)
{
  const PlModel *m = &d->sp->model;
  if (!d->waves) {
    PlCurrentFluid(&m->current, m->water_depth, (1.0 - xi) * yA[2] + xi * yB[2], t, fl);
    return;
  }
  double x[3];
  PlWaveKin k;
  for (int i = 0; i < 3; ++i) x[i] = (1.0 - xi) * yA[i] + xi * yB[i];
  void (*const sea)(PlWaves *, const PlCurrent *, const double *, double, PlWaveKin *) =
      grad ? PlWavesFluid : PlWavesFluidValues;
  sea(d->waves, &m->current, x, t, &k);
  if (!k.wet && x[2] - k.eta < 0.5 * dw) {
    const double xs[3] = {x[0], x[1], k.eta};
    const double eta[2] = {k.deta_dx[0], k.deta_dx[1]};
    sea(d->waves, &m->current, xs, t, &k);
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 2; ++j) {
        k.du_dx[3 * i + j] += k.du_dx[3 * i + 2] * eta[j];
        k.da_dx[3 * i + j] += k.da_dx[3 * i + 2] * eta[j];
      }
      k.du_dx[3 * i + 2] = k.da_dx[3 * i + 2] = 0.0;
    }
  }
  memset(fl, 0, sizeof *fl);
  memcpy(fl->u, k.u, sizeof fl->u);
  memcpy(fl->du_dx, k.du_dx, sizeof fl->du_dx);
  memcpy(fl->a, k.a, sizeof fl->a);
  memcpy(fl->da_dx, k.da_dx, sizeof fl->da_dx);
  fl->eta = k.eta;
  memcpy(fl->deta_dx, k.deta_dx, sizeof fl->deta_dx);
}

/* Element e's contributions: fe (2 ndd, node rows of A then B) and, when Ke != NULL, the
 * iteration-matrix block (2 ndd x 2 ndd). Returns 1 outside the rod's domain. */
/* Structural axial damping of element e (a Kelvin-Voigt material in tension, MoorDyn's BA):
 * the axial force N_d = c_a eps', eps = l/L - 1 the chord's strain (l = |x_B - x_A|, L the
 * element's unstretched length, L(t) for a paid-out top element), so
 *   eps' = l'/L - l L'/L^2,   l' = e.(v_B - v_A),   e = (x_B - x_A)/l,
 * acting as a tension (it pulls A towards B by N_d e and B back by -N_d e): in the residual
 * (internal minus external) fe_A -= N_d e and fe_B += N_d e, as the rod's own tension. It depends on the
 * positions and velocities only (no rates): with dv = v_B - v_A and P = I - e e^T,
 *   d(N_d e)/dv_B = (c_a/L) e e^T,
 *   d(N_d e)/dx_B = (c_a/(L l)) e dv^T P - (c_a L'/L^2) e e^T + (N_d/l) P,
 * and the negatives for A. A rigid motion has e.dv = 0 (dv = w x (x_B - x_A)): it is objective
 * and takes no energy from one. The power of the force on the nodes, N_d l' (= c_a L eps'^2 >= 0
 * at a fixed L), goes to energy.csv's dissipated_J. */
static void AxialDamping(const PlDynLine d, double ca, double L, double Ldot, const double *yA, const double *yB,
                         double *fe, double *Ke, double *pw)
{
  const int ndd = d->ndd, n2 = 2 * ndd;
  double e[3], dv[3], l = 0.0;
  for (int i = 0; i < 3; ++i) e[i] = yB[i] - yA[i], l += e[i] * e[i], dv[i] = yB[d->iV + i] - yA[d->iV + i];
  l = sqrt(l);
  if (!(l > 0.0)) return;
  for (int i = 0; i < 3; ++i) e[i] /= l;
  const double ldot = e[0] * dv[0] + e[1] * dv[1] + e[2] * dv[2];
  const double Nd = ca * (ldot / L - l * Ldot / (L * L));
  for (int i = 0; i < 3; ++i) {
    fe[d->iV + i] -= Nd * e[i];
    fe[ndd + d->iV + i] += Nd * e[i];
  }
  if (pw) pw[PL_WORK_DAMPING] += Nd * ldot;
  if (!Ke) return;
  double Pdv[3]; /* P dv */
  for (int j = 0; j < 3; ++j) Pdv[j] = dv[j] - ldot * e[j];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const double P = (i == j) - e[i] * e[j];
      const double gx = ca / (L * l) * e[i] * Pdv[j] - ca * Ldot / (L * L) * e[i] * e[j] + Nd / l * P;
      const double gv = ca / L * e[i] * e[j];
      for (int a = 0; a < 2; ++a) { /* row: A (-) or B (+); column: A (-) or B (+) */
        const int row = (a * ndd + d->iV + i) * n2;
        for (int b = 0; b < 2; ++b) {
          const double sgn = a == b ? 1.0 : -1.0;
          Ke[row + b * ndd + j] += sgn * gx;
          Ke[row + b * ndd + d->iV + j] += sgn * gv;
        }
      }
    }
}

int PlDynElement(const PlDynLine d, int e, double t, const double *yA, const double *ypA,
                      const double *yB, const double *ypB, double c, double *fe, double *Ke, double *pw, const double *qAB)
{
  const PlProblem p = d->sp;
  const int ndd = d->ndd, n2 = 2 * ndd;
  const PlModel *m = &p->model;
  const PlSection *sec = &m->segments[p->mesh.segment[e]].section;
  memset(fe, 0, n2 * sizeof(double));
  if (Ke) memset(Ke, 0, (size_t)n2 * n2 * sizeof(double));
  const PlRodElement *el = &p->elements[e];
  const PlMorison *h = &d->morison[e];
  PlRodElement etop;
  PlMorison htop;
  if (d->payout && e == p->mesh.nelements - 1) { /* the top element's length follows a pay-out */
    etop = *el, htop = *h;
    etop.L = htop.L = PlDynTopLength(d, t);
    el = &etop, h = &htop;
  }
  int bad;
  if (!Ke) { /* rod: the force on the V rows, the moments in the nodes' frames on the W rows */
    double q[8], f[3], mA[3], mB[3];
    if (!qAB) {
      PlNodeQuaternion(d->kind, el->q0[0], yA + 3, q);
      PlNodeQuaternion(d->kind, el->q0[1], yB + 3, q + 4);
      qAB = q;
    }
    bad = PlRodElementNodeForces(el, yA, yB, qAB, qAB + 4, f, mA, mB);
    for (int i = 0; i < 3; ++i) {
      fe[d->iV + i] -= f[i];
      fe[ndd + d->iV + i] += f[i];
      fe[d->iW + i] += mA[i];
      fe[ndd + d->iW + i] += mB[i];
    }
  } else
    bad = RodMatrixRows(d, el, yA, yB, fe, Ke);
  const double ca = m->segments[p->mesh.segment[e]].axial_damping;
  if (ca > 0.0 && !d->at_rest) {
    double Ldot = 0.0, s;
    if (el == &etop) PlDynPaidOut(d, t, &s, &Ldot); /* L(t) = L0 + s(t) - s0 */
    AxialDamping(d, ca, el->L, Ldot, yA, yB, fe, Ke, pw);
  }
  /* submerged weight and seabed (two-point Gauss) */
  const double L = el->L, w = p->w[e];
  const double gq = 0.5 / sqrt(3.0), xi[2] = {0.5 - gq, 0.5 + gq};
  {
    double fw[2], kw[2][2];
    PlElementWeight(sec, m->water_density, m->gravity, L, yA[2], yB[2], fw, Ke ? kw : NULL);
    if (d->load_factor != 1.0)
      for (int a = 0; a < 2; ++a) {
        fw[a] *= d->load_factor;
        kw[a][0] *= d->load_factor, kw[a][1] *= d->load_factor;
      }
    for (int a = 0; a < 2; ++a) {
      if (pw) /* the weight beyond the potential energy's constant submerged w L/2 */
        pw[PL_WORK_SPLASH_ZONE] -= (fw[a] - 0.5 * L * w) * (a ? yB : yA)[d->iV + 2];
      fe[a * ndd + d->iV + 2] += fw[a];
      if (Ke)
        for (int b = 0; b < 2; ++b) Ke[(a * ndd + d->iV + 2) * n2 + b * ndd + 2] += kw[a][b];
    }
  }
  const bool curved = m->bathymetry != NULL; /* the normal varies along the line */
  if (m->seabed != PL_SEABED_NONE)
    for (int q = 0; q < 2; ++q) {
      const double N[2] = {1.0 - xi[q], xi[q]};
      double x[3], v[3], F[3], Fx[9], Fv[9], Fel[3];
      for (int c = 0; c < 3; ++c) {
        x[c] = N[0] * yA[c] + N[1] * yB[c];
        v[c] = N[0] * yA[d->iV + c] + N[1] * yB[d->iV + c];
      }
      if (!curved && PlSeabedPenetration(m, sec, x) <= 0.0) continue; /* off a plane: F, its
                                                                         derivatives 0 */
      SeabedDyn(m, sec, w, d->at_rest ? 0.0 : PlSeabedDamping(m, &m->segments[p->mesh.segment[e]]), x, v, F, Fx, Fv,
                Fel);
      if (pw) /* the force per length at the Gauss point (weight L/2) on the pipe there */
        for (int c = 0; c < 3; ++c) {
          pw[PL_WORK_SEABED] += 0.5 * L * Fel[c] * v[c];
          pw[PL_WORK_SEABED_DAMPING] += 0.5 * L * (F[c] - Fel[c]) * v[c];
        }
      for (int a = 0; a < 2; ++a)
        for (int i = 0; i < 3; ++i) {
          if (!curved && m->seabed_normal[i] == 0.0) continue; /* F and its derivatives are along
                                                                   n: the flat seabed keeps its
                                                                   z-only pattern */
          const int row = a * ndd + d->iV + i;
          fe[row] -= 0.5 * L * N[a] * F[i];
          if (Ke)
            for (int b = 0; b < 2; ++b)
              for (int j = 0; j < 3; ++j) {
                if (!curved && m->seabed_normal[j] == 0.0) continue;
                Ke[row * n2 + b * ndd + j] -= 0.5 * L * N[a] * N[b] * Fx[3 * i + j];
                Ke[row * n2 + b * ndd + d->iV + j] -= 0.5 * L * N[a] * N[b] * Fv[3 * i + j];
              }
        }
    }
  if (d->iA >= 0) DynFriction(d, e, yA, ypA, yB, ypB, c, fe, Ke, pw);
  /* Morison */
  if (h->Cdn > 0.0 || h->Cdt > 0.0 || h->Can > 0.0 || h->Cat > 0.0 || d->waves) {
    double f6[6], K6[72];
    PlFluidAt fl[2];
    const double dw = h->d_o > 0.0 ? h->d_o : h->d_h; /* the wetted fraction's band (PlMorison) */
    for (int q = 0; q < 2; ++q) GaussFluid(d, yA, yB, xi[q], t, dw, Ke != NULL, &fl[q]);
    PlRodElementMorison(h, yA, ypA, yB, ypB, d->iV, fl, c, f6, Ke ? K6 : NULL);
    if (pw) { /* the force on the pipe is -f6 (the fluid's inertia counted with the drag): its added-mass part phi(z_a) m_a [C_an a_n + C_at a_t]
                 at each node (rod_dynamics_kernel.inc), the rest the drag */
      const double ma = 0.5 * h->L * h->rho_w * M_PI * h->d_h * h->d_h / 4.0;
      double t[3], len = 0.0, ptot = 0.0, pam = 0.0;
      for (int k = 0; k < 3; ++k) t[k] = yB[k] - yA[k], len += t[k] * t[k];
      len = sqrt(len);
      for (int a = 0; a < 2; ++a) {
        const double *v = (a ? yB : yA) + d->iV, *acc = (a ? ypB : ypA) + d->iV;
        const double at = (acc[0] * t[0] + acc[1] * t[1] + acc[2] * t[2]) / (len * len);
        double phi, dphi;
        PlWetFraction((a ? yB : yA)[2], h->d_o, &phi, &dphi);
        for (int k = 0; k < 3; ++k) {
          ptot -= f6[3 * a + k] * v[k];
          pam -= phi * ma * (h->Can * (acc[k] - at * t[k]) + h->Cat * at * t[k]) * v[k];
        }
      }
      pw[PL_WORK_DRAG] += ptot - pam;
      pw[PL_WORK_ADDED_MASS] += pam;
    }
    for (int a = 0; a < 2; ++a)
      for (int i = 0; i < 3; ++i) {
        const int row = a * ndd + d->iV + i;
        fe[row] += f6[3 * a + i];
        if (Ke)
          for (int b = 0; b < 2; ++b)
            for (int j = 0; j < 3; ++j) {
              Ke[row * n2 + b * ndd + j] += K6[(3 * a + i) * 12 + 6 * b + j];
              Ke[row * n2 + b * ndd + d->iV + j] += K6[(3 * a + i) * 12 + 6 * b + 3 + j];
            }
      }
  }
  return bad;
}

/* The dead moment of node i (NULL when none). */
const double *PlDynNodeMoment(const PlDynLine d, int i)
{
  for (int k = 0; k < 2; ++k)
    if (d->ends[k].node == i) {
      const double *M = d->ends[k].M;
      if (M[0] != 0.0 || M[1] != 0.0 || M[2] != 0.0) return M;
    }
  return NULL;
}

/* ---- set-up --------------------------------------------------------------------------- */
static void SetUpEnd(PlDynLine d, int k, const double *u_static)
{
  const PlProblem p = d->sp;
  const PlModel *m = &p->model;
  const PlEnd *E = &m->ends[k];
  PlDynEnd *D = &d->ends[k];
  memset(D, 0, sizeof *D);
  D->node = k ? p->mesh.nnodes - 1 : 0;
  D->motion = &E->motion;
  bool moved[6];
  PlMotionHeldDofs(&E->motion, moved);
  for (int c = 0; c < 3; ++c) D->tr[c] = E->fixed[c] || moved[c];
  const bool rot_moved = moved[3] || moved[4] || moved[5];
  const bool all = E->fixed[3] && E->fixed[4] && E->fixed[5];
  const bool any = E->fixed[3] || E->fixed[4] || E->fixed[5];
  D->rot = (rot_moved || all) ? 1 : (any ? 2 : 0);
  for (int c = 0; c < 3; ++c) D->rp[c] = E->fixed[3 + c];
  const double *u = u_static + (size_t)D->node * d->nd;
  for (int c = 0; c < 3; ++c) {
    D->xs[c] = u[c];
    D->F[c] = E->force[c];
    D->M[c] = E->moment[c];
  }
  for (int i = 0; i < d->np; ++i) D->ps[i] = u[3 + i];
  PlParamToQuaternion(d->kind, D->ps, D->qs);
}


PetscErrorCode PlDynLineSetUp(PlProblem sp, PlDynLine *out)
{
  PlDynLine d;
  const PlModel *m = &sp->model;
  const int nn = sp->mesh.nnodes, ne = sp->mesh.nelements;
  double *us;
  PetscFunctionBeginUser;
  PetscCall(PetscCalloc1(1, &d));
  d->sp = sp;
  d->comm = sp->comm;
  d->kind = sp->kind;
  d->np = PlParamCount(d->kind);
  d->nd = sp->nd;
  d->ndd = PlDynNodeDofCount(d->kind);
  d->iV = 3 + d->np;
  d->iW = 6 + d->np;
  d->payout = m->ends[1].payout;
  d->Ltop0 = sp->elements[sp->mesh.nelements - 1].L;
  d->s0 = 0.0;
  d->ctl.tf_t = -1.0; /* no sample yet */
  d->iA = -1;
  if (sp->fric) { /* seabed friction: each node carries its element's anchor (DynFriction) */
    d->iA = d->ndd;
    d->ndd += 3;
  }
  d->t0 = 0.0;
  d->load_factor = 1.0;
  /* lumped inertia and hydrodynamics */
  PetscCall(PetscCalloc1(nn, &d->inertia));
  PetscCall(PetscCalloc1(ne, &d->morison));
  PetscCall(PetscCalloc1(nn, &d->wnode));
  for (int e = 0; e < ne; ++e) {
    const PlSegment *seg = &m->segments[sp->mesh.segment[e]];
    const PlSection *s = &seg->section;
    const double L = sp->elements[e].L;
    for (int a = 0; a < 2; ++a) {
      PlNodeInertia *ni = &d->inertia[e + a];
      ni->mass += 0.5 * L * s->mass_per_length;
      for (int c = 0; c < 3; ++c) {
        ni->J[c] += 0.5 * L * s->inertia[c];
        ni->D[c] += 0.5 * L * seg->hydro.rotational_damping[c];
      }
      d->wnode[e + a] += 0.5 * L * sp->w[e];
    }
    PlMorison *h = &d->morison[e];
    h->L = L;
    h->rho_w = m->water_density;
    h->d_h = s->hydro_diameter > 0.0 ? s->hydro_diameter : s->outer_diameter;
    h->Cdn = seg->hydro.drag_normal;
    h->Cdt = seg->hydro.drag_tangential;
    h->Can = seg->hydro.added_mass_normal;
    h->Cat = seg->hydro.added_mass_tangential;
    h->d_o = s->outer_diameter;
  }
  PetscCall(PlGatherUnknowns(sp, &us));
  SetUpEnd(d, 0, us);
  SetUpEnd(d, 1, us);
  if (m->ends[1].motion.kind == PL_MOTION_ROUTE) { /* the static touchdown's station (the bottom
                                                      end's without one) and the top's offset */
    double xt[3];
    PlDynTouchdown(d, us, d->nd, NULL, xt);
    PlDynEnd *E = &d->ends[1];
    double off, x0[2], kap;
    PlRouteProject(&m->route, xt, &E->route_s0, &off);
    PlRouteEval(&m->route, E->route_s0, x0, E->route_t0, &kap);
    for (int c = 0; c < 2; ++c) E->route_b[c] = E->xs[c] - x0[c];
  }
  if (m->vessel.present) { /* the top is the vessel's: the joint rows, not a hold */
    PlDynEnd *E = &d->ends[1];
    for (int c = 0; c < 3; ++c) E->tr[c] = E->rp[c] = false;
    E->rot = 0;
  }
  PetscCall(PetscMalloc1(3 * nn, &d->xs));
  for (int i = 0; i < nn; ++i)
    for (int k = 0; k < 3; ++k) d->xs[3 * i + k] = us[(size_t)i * d->nd + k];
  free(us);
  *out = d;
  PetscFunctionReturn(0);
}

PetscErrorCode PlDynLineDestroy(PlDynLine *pd)
{
  PetscFunctionBeginUser;
  if (!pd || !*pd) PetscFunctionReturn(0);
  PlDynLine d = *pd;
  PetscCall(PetscFree(d->inertia));
  PetscCall(PetscFree(d->morison));
  PetscCall(PetscFree(d->wnode));
  PetscCall(PetscFree(d->xs));
  PetscCall(PetscFree(d));
  *pd = NULL;
  PetscFunctionReturn(0);
}

/* The tie of a fixed end to its body: X = q0* (x) q_b (x) q_T = Aq q_b (Aq 4x4, row-major),
 * q0 the end node's reference frame and q_T the quaternion of T (R(q0) R(p) = R_b T); for
 * quaternion parameters the sign that keeps the hemisphere of the end's parameters p at the
 * body attitude qb. */
void PlDynFixedTieMap(const double q0[4], const double T[9], PlParamKind kind, const double *p, const double qb[4],
                      double Aq[16])
{
  const double q0c[4] = {q0[0], -q0[1], -q0[2], -q0[3]};
  double qT[4];
  PlQuatFromMatrix(T, qT);
  for (int j = 0; j < 4; ++j) {
    double e[4] = {0, 0, 0, 0}, t[4], X[4];
    e[j] = 1.0;
    PlQuatMul(q0c, e, t);
    PlQuatMul(t, qT, X);
    for (int i = 0; i < 4; ++i) Aq[4 * i + j] = X[i];
  }
  if (kind != PL_PARAM_QUATERNION) return;
  double dot = 0.0;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) dot += p[i] * Aq[4 * i + j] * qb[j];
  if (dot < 0.0)
    for (int k = 0; k < 16; ++k) Aq[k] = -Aq[k];
}


/* IDA one step at a time up to tout, then the state at tout interpolated (IDAGetDky: the
 * same interpolation as IDA_NORMAL's, so the results do not change). Between steps: a stop
 * request (agreed over the ranks) and the stall test. */
int PlIdaAdvance(void *ida, N_Vector y, N_Vector yp, double tout, volatile sig_atomic_t *stop, MPI_Comm comm,
                 const PlStepHook *hook, const char *conv_hint, double *t_reached, char *why, size_t len)
{
  realtype tret = 0.0, tcur = 0.0, h = 0.0;
  int small = 0;
  if (why && len) why[0] = '\0';
  IDAGetCurrentTime(ida, &tcur);
  *t_reached = tcur;
  while (tcur < tout) {
    int halt = stop && *stop;
    MPI_Allreduce(MPI_IN_PLACE, &halt, 1, MPI_INT, MPI_MAX, comm);
    if (halt) {
      /* y, yp hold IDA's last step at tcur (IDA_ONE_STEP returns it there): that state is
       * what a checkpoint of the interrupted run records */
      *t_reached = tcur;
      if (why && len) snprintf(why, len, "interrupted by a signal at t = %.6g s", (double)tcur);
      return PL_DYN_INTERRUPTED;
    }
    const int rc = PlIdaStep(ida, y, yp, &tret);
    if (rc < 0) {
      realtype hc = 0.0, tc = 0.0;
      IDAGetCurrentStep(ida, &hc);
      IDAGetCurrentTime(ida, &tc);
      *t_reached = tc;
      if (why && len) {
        const char *name = IDAGetReturnFlagName(rc);
        void *ud = NULL;
        IDAGetUserData(ida, &ud);
        const char *hint =
          (rc == IDA_CONV_FAIL || rc == IDA_ERR_FAIL) && ud && PlSysDynAtBreakpoint((PlSysDyn)ud, ida) ? PL_BREAKPOINT_HINT
          : rc == IDA_CONV_FAIL && conv_hint ? conv_hint
          : rc == IDA_CONV_FAIL ? "the Newton iteration kept failing as the step was cut (a state the rod cannot take, e.g. an end driven too hard, or too loose tolerances)"
          : rc == IDA_ERR_FAIL  ? "the error test kept failing as the step was cut (a discontinuity in the loads or the prescribed motion, or tolerances too tight)"
          : rc == IDA_TOO_MUCH_WORK ? "analysis.dynamic.max_steps reached"
          : rc == IDA_TOO_MUCH_ACC ? "the tolerances are below machine precision for this state"
          : rc == IDA_RES_FAIL  ? "the residual evaluation failed"
          : "see the IDA documentation";
        snprintf(why, len, "IDA stopped at t = %.6g s (step %.3g s) with %s: %s", (double)tc, (double)hc,
                 name ? name : "an error", hint);
        free((void *)name); /* IDAGetReturnFlagName mallocs its text */
      }
      return rc;
    }
    void *ud = NULL;
    IDAGetUserData(ida, &ud);
    if (ud && PlSysDynPlausible((PlSysDyn)ud, (double)tret, N_VGetArrayPointer(y), why, len)) {
      *t_reached = tret;
      return PL_DYN_IMPLAUSIBLE;
    }
    if (ud && PlSysDynStepLimit((PlSysDyn)ud, ida, (double)tret, why, len)) {
      *t_reached = tret;
      return IDA_TOO_MUCH_WORK;
    }
    if (hook) hook->fn(hook->ctx, (double)tret, N_VGetArrayPointer(y));
    IDAGetLastStep(ida, &h);
    small = h < 1e-10 * (1.0 + fabs((double)tret)) ? small + 1 : 0;
    if (small >= 100) {
      *t_reached = tret;
      if (why && len)
        snprintf(why, len, "the integration stalled at t = %.9g s: 100 steps in a row were shorter than %.1e s (the "
                 "last %.3g s). A jump in a prescribed position or rotation does this (time-series rows closer "
                 "together than the steps can follow: spread the jump over a longer time), or a jump in a state "
                 "the equations integrate; otherwise look for a step in the loads at that time, or loosen "
                 "analysis.dynamic.rtol", (double)tret,
                 1e-10 * (1.0 + fabs((double)tret)), (double)h);
      return PL_DYN_STALLED;
    }
    IDAGetCurrentTime(ida, &tcur);
    if (rc == IDA_TSTOP_RETURN) break;
  }
  if (IDAGetDky(ida, tout, 0, y) != IDA_SUCCESS || IDAGetDky(ida, tout, 1, yp) != IDA_SUCCESS) {
    if (why && len) snprintf(why, len, "IDA could not interpolate the state at t = %.6g s", tout);
    return IDA_ILL_INPUT;
  }
  *t_reached = tout;
  return 0;
}
