/*
 * rod_dynamics.c - the inertial and hydrodynamic terms of the rod in time (the dynamic
 * part of the weak form, eq 5.96 of the Saefstroem thesis), with exact derivatives.
 *
 * Unknowns of a node in a dynamic analysis (layout PL_DYN_*): y = [x (3), p (np), v (3),
 * w (3)]: position [m], rotation parameters, velocity [m/s] (global) and angular velocity
 * w [rad/s] in the node's own frame (body frame, R = R0 R(p)). The residual rows:
 *
 *   X rows (3):  xdot - v                                          kinematics of x
 *   P rows:      quaternion (4): the kinematics w = 2 E(p)^T pdot (3 equations) and the
 *                  unit norm (|p|^2 - 1)/2 = 0 (held exactly as an algebraic equation, so
 *                  it cannot drift), written as E E^T pdot - E w/2 + p (|p|^2 - 1)/2,
 *                  i.e. premultiplied by the invertible [p | -E/2];
 *                  E(p) = [-p_v^T ; p_0 I + p_v^]  (pdot = E(p) w / 2 is q' = q (x) (0, w)/2)
 *                Euler zxy (3): pdot - T(p)^-1 w, with R(p) = R_y(th) R_x(phi) R_z(psi),
 *                  w = T pdot, T = [[c psi, s psi c phi, 0], [-s psi, c psi c phi, 0],
 *                  [0, -s phi, 1]] (singular at phi = +-90 deg, the Euler singularity)
 *   V rows (3):  m_n vdot + (internal, weight, drag, seabed, added mass: from elements)
 *   W rows (3):  J_n wdot + w x J_n w + D_n w - R^T M + m_int, with the body moment of
 *                the rod's generalised force r_p on p: m_int = E(p)^T r_p / 2 (quaternion,
 *                from r_p = 2 E m) or T(p)^-T r_p (Euler, from r_p = T^T m)
 *                (eq 5.29 in the body frame: I = R J R^T in space is J in the body frame;
 *                 M a dead spatial moment)
 * Mass is lumped: m_n = sum over the adjacent elements of m_P L/2, J_n = sum J_rho L/2,
 * D_n = sum D_R L/2 (eq 5.37). The node kernel returns the residual and the iteration
 * matrix dF/dy + c dF/dydot, both from one evaluation on dual numbers (seed y_j with 1 and
 * ydot_j with c).
 *
 * Morison loads on an element (eq 5.34, relative velocity 5.36), two-point Gauss on the
 * linear interpolation of v, with the chord t = (x_B - x_A)/|x_B - x_A| as the pipe axis:
 *   v_r = v_h - v_c(z_h, t), v_rt = (v_r.t) t, v_rn = v_r - v_rt,
 *   f = -rho_w d_h/2 (C_dt |v_r.t| v_rt + C_dn |v_rn|_e v_rn)       [N/m]
 * with |a|_e = sqrt(|a|^2 + e^2), e = 1e-4 m/s (a C^1 norm; changes f by < 1e-8 relative
 * at 1 m/s and keeps the tangent finite at rest; f.v_r <= 0 still, so it is passive).
 * Added mass, lumped at the nodes with the chord direction:
 *   f_n = -(L/2) rho_w pi d_h^2/4 [C_an (I - t t^T) + C_at t t^T] vdot_n.
 * Residual rows get -f (residual = internal - external).
 */
#include <math.h>
#include <string.h>
#include "pipelay/elements.h"
#include "dual.h"

static const double kPi = 3.14159265358979323846;

typedef PlDual D;
static inline D dc(double c) { return PlDualConst(c); }
static inline D da(D a, D b) { return PlDualAdd(a, b); }
static inline D ds(D a, D b) { return PlDualSub(a, b); }
static inline D dm(D a, D b) { return PlDualMul(a, b); }
static inline D dk(D a, double c) { return PlDualScale(a, c); }

static void DCross(const D a[3], const D b[3], D o[3])
{
  D r[3];
  r[0] = ds(dm(a[1], b[2]), dm(a[2], b[1]));
  r[1] = ds(dm(a[2], b[0]), dm(a[0], b[2]));
  r[2] = ds(dm(a[0], b[1]), dm(a[1], b[0]));
  for (int i = 0; i < 3; ++i) o[i] = r[i];
}
static D DDot(const D a[3], const D b[3]) { return da(da(dm(a[0], b[0]), dm(a[1], b[1])), dm(a[2], b[2])); }

static void DQMul(const D a[4], const D b[4], D o[4])
{
  D r[4];
  r[0] = ds(dm(a[0], b[0]), da(da(dm(a[1], b[1]), dm(a[2], b[2])), dm(a[3], b[3])));
  r[1] = da(da(dm(a[0], b[1]), dm(b[0], a[1])), ds(dm(a[2], b[3]), dm(a[3], b[2])));
  r[2] = da(da(dm(a[0], b[2]), dm(b[0], a[2])), ds(dm(a[3], b[1]), dm(a[1], b[3])));
  r[3] = da(da(dm(a[0], b[3]), dm(b[0], a[3])), ds(dm(a[1], b[2]), dm(a[2], b[1])));
  for (int i = 0; i < 4; ++i) o[i] = r[i];
}

/* Unit quaternion of the node's total rotation q0 (x) q(p). */
static void DNodeQuat(PlParamKind kind, const double q0[4], const D *p, D q[4])
{
  D qp[4], q0d[4];
  if (kind == PL_PARAM_QUATERNION) {
    const D n = PlDualSqrt(da(da(dm(p[0], p[0]), dm(p[1], p[1])), da(dm(p[2], p[2]), dm(p[3], p[3]))));
    for (int i = 0; i < 4; ++i) qp[i] = PlDualDiv(p[i], n);
  } else {
    const D h0 = dk(p[0], 0.5), h1 = dk(p[1], 0.5), h2 = dk(p[2], 0.5);
    const D qy[4] = {PlDualCos(h1), dc(0), PlDualSin(h1), dc(0)};
    const D qx[4] = {PlDualCos(h0), PlDualSin(h0), dc(0), dc(0)};
    const D qz[4] = {PlDualCos(h2), dc(0), dc(0), PlDualSin(h2)};
    D t[4];
    DQMul(qy, qx, t);
    DQMul(t, qz, qp);
  }
  for (int i = 0; i < 4; ++i) q0d[i] = dc(q0[i]);
  DQMul(q0d, qp, q);
}

/* out = R(q)^T v (q unit): v rotated into the body frame, out = q* v q. */
static void DQRotT(const D q[4], const D v[3], D out[3])
{
  /* R^T v = v - 2 w (q_v x v) + 2 q_v x (q_v x v) */
  D t[3], tt[3];
  DCross(q + 1, v, t);
  DCross(q + 1, t, tt);
  for (int i = 0; i < 3; ++i) out[i] = da(ds(v[i], dk(dm(q[0], t[i]), 2.0)), dk(tt[i], 2.0));
}

/* Body angular velocity from the parameter rate: w = 2 E^T pdot or T pdot. */
static void DParamRateToOmega(PlParamKind kind, const D *p, const D *pd, D w[3])
{
  if (kind == PL_PARAM_QUATERNION) {
    /* E^T pd = p0 pd_v - pd0 p_v - p_v x pd_v */
    D c[3];
    DCross(p + 1, pd + 1, c);
    for (int i = 0; i < 3; ++i) w[i] = dk(ds(ds(dm(p[0], pd[1 + i]), dm(pd[0], p[1 + i])), c[i]), 2.0);
  } else {
    const D cphi = PlDualCos(p[0]), sphi = PlDualSin(p[0]), cpsi = PlDualCos(p[2]), spsi = PlDualSin(p[2]);
    w[0] = da(dm(cpsi, pd[0]), dm(dm(spsi, cphi), pd[1]));
    w[1] = da(dm(dk(spsi, -1.0), pd[0]), dm(dm(cpsi, cphi), pd[1]));
    w[2] = ds(pd[2], dm(sphi, pd[1]));
  }
}

int PlDynNodeDofCount(PlParamKind kind) { return 9 + PlParamCount(kind); }

/* Euler: out = T(p)^-1 w (parameter rate from the body angular velocity). */
static void DEulerTinv(const D *p, const D w[3], D out[3])
{
  const D cphi = PlDualCos(p[0]), sphi = PlDualSin(p[0]), cpsi = PlDualCos(p[2]), spsi = PlDualSin(p[2]);
  out[0] = ds(dm(cpsi, w[0]), dm(spsi, w[1]));
  out[1] = PlDualDiv(da(dm(spsi, w[0]), dm(cpsi, w[1])), cphi);
  out[2] = da(w[2], dm(sphi, out[1]));
}

/* Euler: out = T(p)^-T r (body moment from the generalised force). With
 * T^-1 = [[c psi, -s psi, 0], [s psi/c phi, c psi/c phi, 0], [s phi s psi/c phi,
 * s phi c psi/c phi, 1]]: out = T^-T r. */
static void DEulerTinvT(const D *p, const D r[3], D out[3])
{
  const D cphi = PlDualCos(p[0]), sphi = PlDualSin(p[0]), cpsi = PlDualCos(p[2]), spsi = PlDualSin(p[2]);
  const D b = PlDualDiv(da(r[1], dm(sphi, r[2])), cphi); /* (r1 + s phi r2)/c phi */
  out[0] = da(dm(cpsi, r[0]), dm(spsi, b));
  out[1] = ds(dm(cpsi, b), dm(spsi, r[0]));
  out[2] = r[2];
}

/* Body moment rows from the generalised force: quaternion E^T r / 2, Euler T^-T r. */
static void DMapParamForce(PlParamKind kind, const D *p, const D *r, D m[3])
{
  if (kind == PL_PARAM_QUATERNION) {
    D c[3];
    DCross(p + 1, r + 1, c);
    for (int i = 0; i < 3; ++i) m[i] = dk(ds(ds(dm(p[0], r[1 + i]), dm(r[0], p[1 + i])), c[i]), 0.5);
  } else
    DEulerTinvT(p, r, m);
}

void PlNodeDynamics(const PlNodeInertia *ni, PlParamKind kind, const double q0[4],
                    const double *y, const double *yp, double c, const double M_global[3],
                    double *r, double *K)
{
  const int np = PlParamCount(kind), n = 9 + np, iV = 3 + np, iW = 6 + np;
  D Y[13], YP[13], R[13];
  for (int j = 0; j < n; ++j) {
    Y[j] = dc(y[j]);
    YP[j] = dc(yp[j]);
    if (K) {
      Y[j].d[j] = 1.0;
      YP[j].d[j] = c;
    }
  }
  const D *p = Y + 3, *pd = YP + 3, *v = Y + iV, *w = Y + iW, *vd = YP + iV, *wd = YP + iW;
  /* kinematics */
  for (int i = 0; i < 3; ++i) R[i] = ds(YP[i], v[i]);
  if (kind == PL_PARAM_QUATERNION) {
    /* E E^T pdot - E w/2 + p (|p|^2 - 1)/2: the rows [ (|p|^2-1)/2 ; w - 2 E^T pdot ]
     * premultiplied by the invertible [p | -E/2], so that the diagonal of the iteration
     * matrix is c (1 - p_i^2) + p_i^2 > 0 for any rotation (LU without pivoting) */
    D Etp[3], Ew[4], EEtp[4], c3[3];
    DCross(p + 1, pd + 1, c3);
    for (int i = 0; i < 3; ++i) Etp[i] = ds(ds(dm(p[0], pd[1 + i]), dm(pd[0], p[1 + i])), c3[i]);
    /* E a = (-p_v.a, p0 a + p_v x a) */
    const D *vecs[2] = {Etp, w};
    D *outs[2] = {EEtp, Ew};
    for (int k = 0; k < 2; ++k) {
      const D *a = vecs[k];
      D cx[3];
      DCross(p + 1, a, cx);
      outs[k][0] = dk(DDot(p + 1, a), -1.0);
      for (int i = 0; i < 3; ++i) outs[k][1 + i] = da(dm(p[0], a[i]), cx[i]);
    }
    const D nn = dk(ds(da(da(dm(p[0], p[0]), dm(p[1], p[1])), da(dm(p[2], p[2]), dm(p[3], p[3]))), dc(1.0)), 0.5);
    for (int i = 0; i < 4; ++i) R[3 + i] = da(ds(EEtp[i], dk(Ew[i], 0.5)), dm(p[i], nn));
  } else {
    /* pdot - T^-1 w */
    D tw[3];
    DEulerTinv(p, w, tw);
    for (int i = 0; i < 3; ++i) R[3 + i] = ds(pd[i], tw[i]);
  }
  /* linear momentum (mass part only) */
  for (int i = 0; i < 3; ++i) R[iV + i] = dk(vd[i], ni->mass);
  /* angular momentum in the body frame: J wdot + w x J w + D w - R^T M */
  D Jw[3], wJw[3], mb[3], Mg[3], q[4];
  for (int i = 0; i < 3; ++i) Jw[i] = dk(w[i], ni->J[i]);
  DCross(w, Jw, wJw);
  DNodeQuat(kind, q0, p, q);
  for (int i = 0; i < 3; ++i) Mg[i] = dc(M_global ? M_global[i] : 0.0);
  DQRotT(q, Mg, mb);
  for (int i = 0; i < 3; ++i) R[iW + i] = ds(da(da(dk(wd[i], ni->J[i]), wJw[i]), dk(w[i], ni->D[i])), mb[i]);
  for (int i = 0; i < n; ++i) {
    r[i] = R[i].v;
    if (K)
      for (int j = 0; j < n; ++j) K[i * n + j] = R[i].d[j];
  }
}

void PlNodeMapParamForce(PlParamKind kind, const double *p, const double *r_p, double m[3],
                         double *dm_dp)
{
  const int np = PlParamCount(kind);
  D P[4], Rr[4], M[3];
  for (int i = 0; i < np; ++i) {
    P[i] = dc(p[i]);
    Rr[i] = dc(r_p[i]);
    if (dm_dp) P[i].d[i] = 1.0;
  }
  DMapParamForce(kind, P, Rr, M);
  for (int i = 0; i < 3; ++i) {
    m[i] = M[i].v;
    if (dm_dp)
      for (int j = 0; j < np; ++j) dm_dp[i * np + j] = M[i].d[j];
  }
}

void PlParamRateFromOmega(PlParamKind kind, const double *p, const double w[3], double *pd)
{
  if (kind == PL_PARAM_QUATERNION) {
    /* pdot = E(p) w / 2 */
    const double *pv = p + 1;
    pd[0] = -0.5 * (pv[0] * w[0] + pv[1] * w[1] + pv[2] * w[2]);
    const double cx[3] = {pv[1] * w[2] - pv[2] * w[1], pv[2] * w[0] - pv[0] * w[2], pv[0] * w[1] - pv[1] * w[0]};
    for (int i = 0; i < 3; ++i) pd[1 + i] = 0.5 * (p[0] * w[i] + cx[i]);
  } else {
    /* T = [[c psi, s psi c phi, 0], [-s psi, c psi c phi, 0], [0, -s phi, 1]]:
     * phid = c psi w0 - s psi w1, thd = (s psi w0 + c psi w1)/c phi, psid = w2 + s phi thd */
    const double cphi = cos(p[0]), sphi = sin(p[0]), cpsi = cos(p[2]), spsi = sin(p[2]);
    pd[0] = cpsi * w[0] - spsi * w[1];
    pd[1] = (spsi * w[0] + cpsi * w[1]) / cphi;
    pd[2] = w[2] + sphi * pd[1];
  }
}

void PlParamOmegaFromRate(PlParamKind kind, const double *p, const double *pd, double w[3])
{
  D P[4], PD[4], W[3];
  const int np = PlParamCount(kind);
  for (int i = 0; i < np; ++i) {
    P[i] = dc(p[i]);
    PD[i] = dc(pd[i]);
  }
  DParamRateToOmega(kind, P, PD, W);
  for (int i = 0; i < 3; ++i) w[i] = W[i].v;
}

/* Smooth norm |a|_e of a 3-vector. */
static D DNormE(const D a[3], double e) { return PlDualSqrt(da(DDot(a, a), dc(e * e))); }

void PlRodElementMorison(const PlMorison *h, const double *yA, const double *ypA, const double *yB,
                         const double *ypB, int iV, const double vc[2][3], const double dvc_dz[2][3],
                         double c, double f[6], double *K)
{
  /* local unknowns (12): xA, vA, xB, vB */
  D X[2][3], V[2][3], A[2][3];
  const double *ys[2] = {yA, yB}, *yps[2] = {ypA, ypB};
  for (int a = 0; a < 2; ++a)
    for (int i = 0; i < 3; ++i) {
      X[a][i] = dc(ys[a][i]);
      V[a][i] = dc(ys[a][iV + i]);
      A[a][i] = dc(yps[a][iV + i]);
      if (K) {
        X[a][i].d[6 * a + i] = 1.0;
        V[a][i].d[6 * a + 3 + i] = 1.0;
        A[a][i].d[6 * a + 3 + i] = c;
      }
    }
  D F[2][3];
  for (int a = 0; a < 2; ++a)
    for (int i = 0; i < 3; ++i) F[a][i] = dc(0.0);
  D ch[3];
  for (int i = 0; i < 3; ++i) ch[i] = ds(X[1][i], X[0][i]);
  const D len = PlDualSqrt(DDot(ch, ch));
  D t[3];
  for (int i = 0; i < 3; ++i) t[i] = PlDualDiv(ch[i], len);
  const double L = h->L, g = 0.5 / sqrt(3.0), xi[2] = {0.5 - g, 0.5 + g};
  const double kd = 0.5 * h->rho_w * h->d_h;
  if (h->Cdn > 0.0 || h->Cdt > 0.0)
    for (int q = 0; q < 2; ++q) {
      const double N[2] = {1.0 - xi[q], xi[q]};
      const D zq = da(dk(X[0][2], N[0]), dk(X[1][2], N[1]));
      D vr[3];
      for (int i = 0; i < 3; ++i) {
        D cur = dc(vc[q][i]);
        for (int k = 0; k < PL_DUAL_N; ++k) cur.d[k] = dvc_dz[q][i] * zq.d[k];
        vr[i] = ds(da(dk(V[0][i], N[0]), dk(V[1][i], N[1])), cur);
      }
      const D vt = DDot(vr, t);
      D vn[3];
      for (int i = 0; i < 3; ++i) vn[i] = ds(vr[i], dm(vt, t[i]));
      const D nn = DNormE(vn, 1e-4);
      const D at = PlDualSqrt(da(dm(vt, vt), dc(1e-8)));
      for (int i = 0; i < 3; ++i) {
        /* f_i per length (force on the pipe), weight 1/2 of L */
        const D fi = dk(da(dk(dm(dm(at, vt), t[i]), h->Cdt), dk(dm(nn, vn[i]), h->Cdn)), -kd);
        for (int a = 0; a < 2; ++a) F[a][i] = ds(F[a][i], dk(fi, 0.5 * L * N[a]));
      }
    }
  if (h->Can > 0.0 || h->Cat > 0.0) {
    const double ma = 0.5 * L * h->rho_w * kPi * h->d_h * h->d_h / 4.0;
    for (int a = 0; a < 2; ++a) {
      const D at = DDot(A[a], t);
      for (int i = 0; i < 3; ++i) {
        const D an = ds(A[a][i], dm(at, t[i]));
        /* residual += m_a [C_an a_n + C_at a_t] */
        F[a][i] = da(F[a][i], dk(da(dk(an, h->Can), dk(dm(at, t[i]), h->Cat)), ma));
      }
    }
  }
  for (int a = 0; a < 2; ++a)
    for (int i = 0; i < 3; ++i) {
      f[3 * a + i] = F[a][i].v;
      if (K)
        for (int j = 0; j < 12; ++j) K[(3 * a + i) * 12 + j] = F[a][i].d[j];
    }
}

double PlNodeKineticEnergy(const PlNodeInertia *ni, PlParamKind kind, const double *y)
{
  const int np = PlParamCount(kind);
  const double *v = y + 3 + np, *w = y + 6 + np;
  double T = 0.0;
  for (int i = 0; i < 3; ++i) T += 0.5 * ni->mass * v[i] * v[i] + 0.5 * ni->J[i] * w[i] * w[i];
  return T;
}
