/*
 * rod.c - geometrically exact Simo-Reissner rod, two nodes, one-point quadrature.
 *
 * Model (Saefstroem thesis, eqs 5.18-5.30; Simo & Vu-Quoc; Crisfield & Jelenic 1999 for
 * the objective interpolation):
 *   strain      gamma = R^T d_S(phi) - e1            (5.20)
 *   curvature   R^T d_S R = kappa^                    (5.14)
 *   stresses    n = C_T gamma, m = C_R kappa          (5.23, 5.24)
 *   energy      U = int (gamma.C_T gamma + kappa.C_R kappa)/2 dS   (5.19)
 * with a straight, unstressed reference configuration (5.7).
 *
 * Interpolation (objective, path independent). Nodes A, B with rotations R_A, R_B:
 *   psi = log(R_A^T R_B)           relative rotation vector, |psi| < pi
 *   R(s) = R_A exp(s psi^/L)       so kappa = psi/L, constant over the element
 *   R_m = R_A exp(psi^/2)          frame at the midpoint (the quadrature point)
 *   gamma = R_m^T (x_B - x_A)/L - e1
 * A rigid rotation Q of the element maps R_A, R_B, d to Q R_A, Q R_B, Q d, and psi, gamma
 * are unchanged: zero stress under any rigid motion, of any size.
 * One-point (midpoint) quadrature of the stiffness integral (5.106) avoids shear locking.
 *
 * Residual (first variation). With spatial spins dR R^T = w^ and
 *   delta psi = J_l^{-1}(psi) R_A^T (w_B - w_A)                 (J_l: left Jacobian of SO(3))
 *   w_m = w_A + R_A J_l(psi/2) delta psi / 2                     (spin of R_m)
 *   delta gamma = R_m^T (delta d + d x w_m) / L
 * the internal virtual work L (n.delta gamma + m.delta kappa) gives
 *   r_xA = -n^e, r_xB = n^e,  n^e = R_m n
 *   r_wB = R_A J_l^{-T}(psi) [ J_l^T(psi/2) R_A^T (n^e x d)/2 + m ],  r_wA = n^e x d - r_wB
 * with J_l(a) = I + (1-cos|a|)/|a|^2 a^ + (|a|-sin|a|)/|a|^3 a^^2 and
 *      J_l^{-1}(a) = I - a^/2 + (1/|a|^2 - (1+cos|a|)/(2|a| sin|a|)) a^^2.
 * Nodal rotations R = R0 R(p) (elements.h): the spin is w = R0 H(p) dp, so the residual
 * conjugate to the parameters is r_p = H(p)^T R0^T r_w, the exact gradient dU/dp.
 *
 * Tangent: the residual above is the hand-derived gradient; its Jacobian K = dr/du is
 * computed exactly (to round-off) by forward-mode differentiation of the same kernel on
 * dual numbers (dual.h), 14 directions. K is checked against finite differences in
 * tests/test_rod.c, and r against the finite-difference gradient of U.
 */
#include <math.h>
#include <string.h>
#include "pipelay/elements.h"
#include "dual.h"

/* ---- instantiation 1: double ------------------------------------------------------------ */
#define T double
#define FN(name) name##_d
#define TC(c) (c)
#define TV(a) (a)
#define TADD(a, b) ((a) + (b))
#define TSUB(a, b) ((a) - (b))
#define TMUL(a, b) ((a) * (b))
#define TDIV(a, b) ((a) / (b))
#define TSCL(a, c) ((a) * (c))
#define TSQRT(a) sqrt(a)
#define TSIN(a) sin(a)
#define TCOS(a) cos(a)
#define TATAN2(a, b) atan2(a, b)
#include "rod_kernel.inc"
#undef T
#undef FN
#undef TC
#undef TV
#undef TADD
#undef TSUB
#undef TMUL
#undef TDIV
#undef TSCL
#undef TSQRT
#undef TSIN
#undef TCOS
#undef TATAN2

/* ---- instantiation 2: dual numbers ------------------------------------------------------- */
#define T PlDual
#define FN(name) name##_dual
#define TC(c) PlDualConst(c)
#define TV(a) ((a).v)
#define TADD(a, b) PlDualAdd(a, b)
#define TSUB(a, b) PlDualSub(a, b)
#define TMUL(a, b) PlDualMul(a, b)
#define TDIV(a, b) PlDualDiv(a, b)
#define TSCL(a, c) PlDualScale(a, c)
#define TSQRT(a) PlDualSqrt(a)
#define TSIN(a) PlDualSin(a)
#define TCOS(a) PlDualCos(a)
#define TATAN2(a, b) PlDualAtan2(a, b)
#include "rod_kernel.inc"

/* ---- parametrisations -------------------------------------------------------------------- */
int PlParamCount(PlParamKind kind) { return kind == PL_PARAM_QUATERNION ? 4 : 3; }

void PlParamIdentity(PlParamKind kind, double *p)
{
  const int np = PlParamCount(kind);
  for (int i = 0; i < np; ++i) p[i] = 0.0;
  if (kind == PL_PARAM_QUATERNION) p[0] = 1.0;
}

void PlParamToQuaternion(PlParamKind kind, const double *p, double q[4])
{
  ParamQuat_d(kind, p, q);
}

void PlParamFromQuaternion(PlParamKind kind, const double q[4], double *p)
{
  if (kind == PL_PARAM_QUATERNION) {
    for (int i = 0; i < 4; ++i) p[i] = q[i];
    return;
  }
  /* R = R_y(theta) R_x(phi) R_z(psi): R12 = -sin(phi), R02 = sin(theta) cos(phi),
   * R22 = cos(theta) cos(phi), R10 = cos(phi) sin(psi), R11 = cos(phi) cos(psi) */
  double R[9];
  PlQuatToMatrix(q, R);
  p[0] = asin(fmax(-1.0, fmin(1.0, -R[5])));
  p[1] = atan2(R[2], R[8]);
  p[2] = atan2(R[3], R[4]);
}

/* ---- quaternion utilities ---------------------------------------------------------------- */
void PlQuatMul(const double a[4], const double b[4], double out[4]) { QMul_d(a, b, out); }
void PlQuatToMatrix(const double q[4], double R[9]) { QToR_d(q, R); }

void PlQuatRotate(const double q[4], const double v[3], double out[3])
{
  double R[9];
  QToR_d(q, R);
  MatVec_d(R, v, out);
}

void PlQuatFromAxisAngle(const double axis[3], double angle, double q[4])
{
  const double n = sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
  const double s = n > 0.0 ? sin(0.5 * angle) / n : 0.0;
  q[0] = cos(0.5 * angle);
  for (int i = 0; i < 3; ++i) q[1 + i] = s * axis[i];
}

void PlQuatFromMatrix(const double R[9], double q[4])
{
  /* Shepperd's method: pick the largest of w^2, x^2, y^2, z^2 */
  const double tr = R[0] + R[4] + R[8];
  const double c[4] = {tr, R[0], R[4], R[8]};
  int k = 0;
  for (int i = 1; i < 4; ++i)
    if (c[i] > c[k]) k = i;
  if (k == 0) {
    const double s = 2.0 * sqrt(1.0 + tr);
    q[0] = 0.25 * s;
    q[1] = (R[7] - R[5]) / s;
    q[2] = (R[2] - R[6]) / s;
    q[3] = (R[3] - R[1]) / s;
  } else if (k == 1) {
    const double s = 2.0 * sqrt(1.0 + R[0] - R[4] - R[8]);
    q[0] = (R[7] - R[5]) / s;
    q[1] = 0.25 * s;
    q[2] = (R[1] + R[3]) / s;
    q[3] = (R[2] + R[6]) / s;
  } else if (k == 2) {
    const double s = 2.0 * sqrt(1.0 - R[0] + R[4] - R[8]);
    q[0] = (R[2] - R[6]) / s;
    q[1] = (R[1] + R[3]) / s;
    q[2] = 0.25 * s;
    q[3] = (R[5] + R[7]) / s;
  } else {
    const double s = 2.0 * sqrt(1.0 - R[0] - R[4] + R[8]);
    q[0] = (R[3] - R[1]) / s;
    q[1] = (R[2] + R[6]) / s;
    q[2] = (R[5] + R[7]) / s;
    q[3] = 0.25 * s;
  }
  if (q[0] < 0.0)
    for (int i = 0; i < 4; ++i) q[i] = -q[i];
}

void PlQuatLog(const double q[4], double psi[3])
{
  double w = q[0], v[3] = {q[1], q[2], q[3]};
  if (w < 0.0) {
    w = -w;
    for (int i = 0; i < 3; ++i) v[i] = -v[i];
  }
  const double s = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  const double f = s > 1e-300 ? 2.0 * atan2(s, w) / s : 2.0 / w;
  for (int i = 0; i < 3; ++i) psi[i] = f * v[i];
}

void PlNodeQuaternion(PlParamKind kind, const double q0[4], const double *p, double q[4])
{
  double qp[4];
  ParamQuat_d(kind, p, qp);
  QMul_d(q0, qp, q);
}

/* ---- the element ------------------------------------------------------------------------- */
void PlRodElementInit(PlRodElement *e, double L, const PlSection *s, const double q0A[4],
                      const double q0B[4], PlParamKind kind)
{
  e->L = L;
  e->CT[0] = s->EA;
  e->CT[1] = s->GA[0];
  e->CT[2] = s->GA[1];
  e->CR[0] = s->GJ;
  e->CR[1] = s->EI[0];
  e->CR[2] = s->EI[1];
  memcpy(e->q0[0], q0A, 4 * sizeof(double));
  memcpy(e->q0[1], q0B, 4 * sizeof(double));
  e->kind = kind;
}

int PlRodElementInternal(const PlRodElement *e, const double *u, double *r, double *K)
{
  const int n = 2 * PlNodeDofCount(e->kind);
  if (!K) return RodInternal_d(e, u, r, NULL);
  PlDual ud[PL_ELEM_DOF_MAX], rd[PL_ELEM_DOF_MAX];
  for (int i = 0; i < n; ++i) {
    ud[i] = PlDualConst(u[i]);
    ud[i].d[i] = 1.0;
  }
  const int bad = RodInternal_dual(e, ud, rd, NULL);
  if (bad) return bad;
  for (int i = 0; i < n; ++i) {
    if (r) r[i] = rd[i].v;
    for (int j = 0; j < n; ++j) K[i * n + j] = rd[i].d[j];
  }
  return 0;
}

void PlRodElementState(const PlRodElement *e, const double *u, PlRodSectionState *st)
{
  RodInternal_d(e, u, NULL, st);
}

double PlRodElementEnergy(const PlRodElement *e, const double *u)
{
  PlRodSectionState st;
  if (RodInternal_d(e, u, NULL, &st)) return NAN;
  double U = 0.0;
  for (int i = 0; i < 3; ++i)
    U += st.gamma[i] * e->CT[i] * st.gamma[i] + st.kappa[i] * e->CR[i] * st.kappa[i];
  return 0.5 * e->L * U;
}

void PlQuaternionGauge(double k, const double p[4], double r[4], double K[16])
{
  const double c = p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3] - 1.0;
  for (int i = 0; i < 4; ++i) {
    r[i] += k * c * p[i];
    if (K)
      for (int j = 0; j < 4; ++j) K[4 * i + j] += k * (2.0 * p[i] * p[j] + (i == j ? c : 0.0));
  }
}

void PlNodeMomentGeneralised(PlParamKind kind, const double q0[4], const double *p,
                             const double M[3], double *r, double *K)
{
  const int np = PlParamCount(kind);
  double R0[9], l[3];
  QToR_d(q0, R0);
  MatTVec_d(R0, M, l);
  PlDual pd[4], ld[3], rd[4];
  for (int i = 0; i < np; ++i) {
    pd[i] = PlDualConst(p[i]);
    pd[i].d[i] = 1.0;
  }
  for (int i = 0; i < 3; ++i) ld[i] = PlDualConst(l[i]);
  ParamSpinT_dual(kind, pd, ld, rd);
  for (int i = 0; i < np; ++i) {
    r[i] = rd[i].v;
    if (K)
      for (int j = 0; j < np; ++j) K[i * np + j] = rd[i].d[j];
  }
}

int PlParamTie(PlParamKind kind, const double *p, const double X[4], double *g, double *dg_dp, double *dg_dX)
{
  if (kind == PL_PARAM_QUATERNION) {
    for (int i = 0; i < 4; ++i) {
      g[i] = p[i] - X[i];
      for (int j = 0; j < 4; ++j) {
        if (dg_dp) dg_dp[4 * i + j] = i == j;
        if (dg_dX) dg_dX[4 * i + j] = -(double)(i == j);
      }
    }
    return 4;
  }
  /* dual directions: p (3), then X (4) */
  PlDual P[3], Q[4], Xd[4], Qc[4], G[4];
  for (int i = 0; i < 3; ++i) {
    P[i] = PlDualConst(p[i]);
    P[i].d[i] = 1.0;
  }
  for (int i = 0; i < 4; ++i) {
    Xd[i] = PlDualConst(X[i]);
    Xd[i].d[3 + i] = 1.0;
  }
  ParamQuat_dual(kind, P, Q);
  Qc[0] = Q[0];
  for (int i = 1; i < 4; ++i) Qc[i] = PlDualScale(Q[i], -1.0);
  QMul_dual(Qc, Xd, G);
  for (int i = 0; i < 3; ++i) {
    g[i] = G[1 + i].v;
    for (int j = 0; j < 3; ++j)
      if (dg_dp) dg_dp[3 * i + j] = G[1 + i].d[j];
    for (int j = 0; j < 4; ++j)
      if (dg_dX) dg_dX[4 * i + j] = G[1 + i].d[3 + j];
  }
  return 3;
}
