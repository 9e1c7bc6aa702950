/*
 * rod.c - geometrically exact Simo-Reissner rod, two nodes, one-point quadrature.
 *
 * Model (Saefstroem thesis, eqs 5.18-5.30; Simo & Vu-Quoc; Crisfield & Jelenic 1999 for
 * the objective interpolation):
 *   strain      gamma = R^T d_S(phi) - e1            (5.20)
 *   curvature   R^T d_S R = kappa^                    (5.14)
 *   stresses    n = C_T gamma, m = C_R kappa          (5.23, 5.24)
 *   energy      U = int (gamma.C_T gamma + kappa.C_R kappa)/2 dS   (5.19)
 * The thesis takes the straight rest shape (5.7), phi_r = S e1, R_r = I. A rod curved at rest
 * (phi_r, R_r) measures both from its rest shape (Simo 1985): with the total measures
 *   Gamma = R^T d_S(phi),  K^ = R^T d_S R
 * the strains are gamma = Gamma - Gamma_r and kappa = K - K_r, Gamma_r = R_r^T d_S(phi_r),
 * K_r^ = R_r^T d_S R_r (the rest shape's own measures). For the straight rest shape
 * Gamma_r = e1, K_r = 0: (5.20) and (5.14) as they stand. Gamma and K are unchanged by a rigid
 * motion (phi, R) -> (Q phi + c, Q R), so the rest shape and all its rigid motions are
 * stress-free. The energy stays (5.19) in gamma, kappa; Gamma_r, K_r are constants per point,
 * so the variations, the residual and the tangent below keep their form (delta gamma =
 * delta Gamma, delta kappa = delta K), only n = C_T gamma and m = C_R kappa shift.
 *
 * Interpolation (objective, path independent). Nodes A, B with rotations R_A, R_B:
 *   psi = log(R_A^T R_B)           relative rotation vector, |psi| < pi
 *   R(s) = R_A exp(s psi^/L)       so kappa = psi/L, constant over the element
 *   R_m = R_A exp(psi^/2)          frame at the midpoint (the quadrature point)
 *   gamma = R_m^T (x_B - x_A)/L - Gamma0,   kappa = psi/L - K0
 * with the element's rest values Gamma0 = R_m,r^T d_r/L and K0 = psi_r/L: the same discrete
 * measures of the element's rest shape (chord d_r, frames R_A,r, R_B,r; PlRodElementSetRest),
 * so that shape is stress-free to the bit. Straight: Gamma0 = e1, K0 = 0.
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
 * Tangent: K = dr/du, exact, derived by hand (RodSpinTangent, RodTangent). The core of the
 * element (rod_kernel.inc, RodCore) depends on u only through the chord d = x_B - x_A and the
 * frames R_A, R_B; its outputs n^e, r_wA, r_wB are differentiated in the spatial spins
 * theta (dR = theta^ R) by the variations above, including those of J_l^T(psi/2) and
 * J_l^{-T}(psi) in psi (their coefficients' slopes, with series at small angles), then
 * chained with the nodes' spin maps theta = R0 H(p) dp and the parameter map's own derivative
 * d(H(p)^T l)/dp. PlRodElementInternalAD computes the same K by forward-mode differentiation
 * of the kernel on dual numbers (dual.h) in the core's 11 inputs (d, q_A, q_B) chained with
 * dq/dp: tests/test_rod.c holds the analytic K to it (to round-off) and both to finite
 * differences, and r to the finite-difference gradient of U. The analytic tangent costs
 * about a third of the dual one (bench/README.md).
 */
#include <math.h>
#include <string.h>
#include "pipelay/elements.h"
#define PL_DUAL_N 12 /* the reference tangent's core inputs: d (3), q_A (4), q_B (4); 12 for pairs of SIMD lanes */
#include "dual.h"

/* The core's intermediate values (rod_kernel.inc, RodCore), for RodSpinTangent. */
typedef struct {
  double psi[3];       /* log(R_A^T R_B) */
  double a1, a2, b;    /* J_l(psi/2) = I + a1 h^ + a2 h^^2; J_l^{-1}(psi) = I - psi^/2 + b psi^^2 */
  double RA[9], Rm[9]; /* node A's and the midpoint's frames */
  double f[3], g[3];   /* f = n^e x d, g = R_A^T f */
  double hv[3];        /* J_l^T(psi/2) g / 2 + m */
} RodCoreParts;

/* ---- instantiation 1: double ------------------------------------------------------------ */
#define ROD_KERNEL_WHOLE
#define T double
#define FN(name) name##_d
/* the helpers inlined: on doubles their calls cost more than their arithmetic (the J-lay's
 * SO3Apply_d alone 3.4 % of a 740-node run) */
#define KERNEL_HELPER static inline __attribute__((always_inline))
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
#undef KERNEL_HELPER
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
#undef ROD_KERNEL_WHOLE

/* ---- instantiation 2: dual numbers ------------------------------------------------------- */
#define T PlDual
#define FN(name) name##_dual
#define KERNEL_HELPER static
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
#undef KERNEL_HELPER

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

void PlParamFromQuaternionNear(PlParamKind kind, const double q[4], const double *near, double *p)
{
  PlParamFromQuaternion(kind, q, p);
  if (kind != PL_PARAM_QUATERNION) return;
  const double s = p[0] * near[0] + p[1] * near[1] + p[2] * near[2] + p[3] * near[3];
  if (s < 0.0)
    for (int i = 0; i < 4; ++i) p[i] = -p[i];
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
  for (int i = 0; i < 3; ++i) {
    e->Gamma0[i] = i == 0;
    e->K0[i] = 0.0;
  }
}

int PlRodElementSetRest(PlRodElement *e, const double d0[3], const double qA[4], const double qB[4])
{
  /* the kernel's total measures of the rest shape: its strains with Gamma0 = K0 = 0 */
  PlRodElement t = *e;
  PlRodSectionState st;
  memset(t.Gamma0, 0, sizeof t.Gamma0);
  memset(t.K0, 0, sizeof t.K0);
  if (RodCore_d(&t, d0, qA, qB, NULL, &st, NULL)) return 1;
  memcpy(e->Gamma0, st.gamma, sizeof e->Gamma0);
  memcpy(e->K0, st.kappa, sizeof e->K0);
  return 0;
}

void PlRodArcStep(const double k[3], double h, double dx[3], double dq[4])
{
  /* J_l(a) e1 = e1 + a1 a x e1 + a2 a x (a x e1), a = h k, a1 = (1 - cos|a|)/|a|^2,
   * a2 = (|a| - sin|a|)/|a|^3 (series below |a| = 1e-2) */
  const double a[3] = {h * k[0], h * k[1], h * k[2]}, e1[3] = {1, 0, 0};
  const double y = a[0] * a[0] + a[1] * a[1] + a[2] * a[2], s = sqrt(y);
  double a1, a2, v[3];
  if (y < 1e-4) {
    a1 = 0.5 + y * (-1.0 / 24.0 + y / 720.0);
    a2 = 1.0 / 6.0 + y * (-1.0 / 120.0 + y / 5040.0);
  } else {
    a1 = (1.0 - cos(s)) / y;
    a2 = (s - sin(s)) / (y * s);
  }
  SO3Apply_d(a, a1, a2, e1, v);
  for (int i = 0; i < 3; ++i) dx[i] = h * v[i];
  PlQuatFromAxisAngle(a, s, dq);
}

/* A node's frame q = q0 (x) Q(p) and dq/dp (4 x np, row-major). */
static void FrameAndJacobian(PlParamKind kind, const double q0[4], const double *p, double q[4], double *J)
{
  const int np = PlParamCount(kind);
  PlDual pd[4], qp[4];
  for (int i = 0; i < np; ++i) {
    pd[i] = PlDualConst(p[i]);
    pd[i].d[i] = 1.0;
  }
  ParamQuat_dual(kind, pd, qp);
  double v[4], col[4];
  for (int i = 0; i < 4; ++i) v[i] = qp[i].v;
  QMul_d(q0, v, q);
  for (int j = 0; j < np; ++j) { /* q0 (x) . is linear */
    for (int i = 0; i < 4; ++i) v[i] = qp[i].d[j];
    QMul_d(q0, v, col);
    for (int i = 0; i < 4; ++i) J[i * np + j] = col[i];
  }
}

/* A node's map from spatial spins to its parameters: R0 and M = H(p)^T R0^T (np x 3), so that
 * r_p = M r_w and, transposed, the spin W = R0 H(p) dp = M^T dp. */
typedef struct {
  double R0[9], M[4 * 3];
} NodeMap;

static void NodeMapInit(PlParamKind kind, const double q0[4], const double *p, NodeMap *nm)
{
  double HT[4 * 3];
  QToR_d(q0, nm->R0);
  ParamSpinMatrix_d(kind, p, HT);
  for (int i = 0; i < PlParamCount(kind); ++i)
    for (int k = 0; k < 3; ++k)
      nm->M[i * 3 + k] = HT[i * 3] * nm->R0[k * 3] + HT[i * 3 + 1] * nm->R0[k * 3 + 1] + HT[i * 3 + 2] * nm->R0[k * 3 + 2];
}

/* D = d(H(p)^T l)/dp at fixed l (np x np), r_p = H(p)^T l:
 *   quaternion: H(p)^T l = s B(l) p, s = 2/|p|^2, B(l) = [0, -l^T; l, l^], so
 *               D = s B(l) - (2/|p|^2) r_p p^T;
 *   Euler zxy:  the derivatives of ParamSpinMatrix's rows in phi and theta. */
static void SpinMapDerivative(PlParamKind kind, const double *p, const double l[3], const double *r_p, double *D)
{
  if (kind == PL_PARAM_QUATERNION) {
    const double n2 = p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3], s = 2.0 / n2;
    const double B[16] = {0, -l[0], -l[1], -l[2], l[0], 0, -l[2], l[1], l[1], l[2], 0, -l[0], l[2], -l[1], l[0], 0};
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) D[4 * i + j] = s * B[4 * i + j] - s * r_p[i] * p[j];
  } else {
    const double cphi = cos(p[0]), sphi = sin(p[0]), cth = cos(p[1]), sth = sin(p[1]);
    memset(D, 0, 9 * sizeof(double));
    D[1] = -sth * l[0] - cth * l[2];
    D[6] = -sphi * sth * l[0] - cphi * l[1] - sphi * cth * l[2];
    D[7] = cphi * cth * l[0] - cphi * sth * l[2];
  }
}

/* r_p = H(p)^T l and D = dr_p/dp by dual numbers (the reference tangent's D; a node's dead
 * moment). r or D may be NULL. */
static void SpinMapAD(PlParamKind kind, const double *p, const double l[3], double *r, double *D)
{
  const int np = PlParamCount(kind);
  PlDual pd[4], ld[3], rd[4];
  for (int i = 0; i < np; ++i) {
    pd[i] = PlDualConst(p[i]);
    pd[i].d[i] = 1.0;
  }
  for (int k = 0; k < 3; ++k) ld[k] = PlDualConst(l[k]);
  ParamSpinT_dual(kind, pd, ld, rd);
  for (int i = 0; i < np; ++i) {
    if (r) r[i] = rd[i].v;
    if (D)
      for (int j = 0; j < np; ++j) D[i * np + j] = rd[i].d[j];
  }
}

/* r and K from the core's values out (9) and G = d out/du (9 x n, rows of PL_ELEM_DOF_MAX):
 * r_x = -/+ n^e, r_p = M r_w with the nodes' maps nm, and K = [-/+ G_ne; M G_rw + D] (D by
 * dual numbers when ad). */
static int AssembleTangent(const PlRodElement *e, const double *u, const double out[9],
                           double G[9][PL_ELEM_DOF_MAX], const NodeMap nm[2], int ad, double *r, double *K)
{
  const int np = PlParamCount(e->kind), nd = 3 + np, n = 2 * nd;
  double rr[PL_ELEM_DOF_MAX];
  for (int c = 0; c < 3; ++c) {
    rr[c] = -out[c];
    rr[nd + c] = out[c];
    for (int j = 0; j < n; ++j) {
      K[c * n + j] = -G[c][j];
      K[(nd + c) * n + j] = G[c][j];
    }
  }
  for (int k = 0; k < 2; ++k) {
    const double *M = nm[k].M, *rw = out + 3 + 3 * k;
    const int o = k * nd + 3;
    double l[3], D[16];
    MatTVec_d(nm[k].R0, rw, l);
    for (int i = 0; i < np; ++i) rr[o + i] = M[i * 3] * rw[0] + M[i * 3 + 1] * rw[1] + M[i * 3 + 2] * rw[2];
    if (ad) SpinMapAD(e->kind, u + o, l, NULL, D);
    else SpinMapDerivative(e->kind, u + o, l, rr + o, D);
    for (int i = 0; i < np; ++i) {
      for (int j = 0; j < n; ++j)
        K[(o + i) * n + j] = M[i * 3] * G[3 + 3 * k][j] + M[i * 3 + 1] * G[4 + 3 * k][j] + M[i * 3 + 2] * G[5 + 3 * k][j];
      for (int j = 0; j < np; ++j) K[(o + i) * n + o + j] += D[i * np + j];
    }
  }
  for (int i = 0; i < n; ++i)
    if (!isfinite(rr[i])) return 1;
  if (r) memcpy(r, rr, (size_t)n * sizeof(double));
  return 0;
}

/* The reference tangent: the core differentiated on dual numbers in its 11 inputs (d, q_A,
 * q_B), chained with dq/dp (tests compare the analytic tangent with it). */
int PlRodElementInternalAD(const PlRodElement *e, const double *u, double *r, double *K)
{
  const int np = PlParamCount(e->kind), nd = 3 + np;
  double q[2][4], Jq[2][16];
  NodeMap nm[2];
  for (int k = 0; k < 2; ++k) {
    FrameAndJacobian(e->kind, e->q0[k], u + k * nd + 3, q[k], Jq[k]);
    NodeMapInit(e->kind, e->q0[k], u + k * nd + 3, &nm[k]);
  }
  PlDual d[3], qA[4], qB[4], out[9];
  for (int i = 0; i < 3; ++i) {
    d[i] = PlDualConst(u[nd + i] - u[i]);
    d[i].d[i] = 1.0;
  }
  for (int i = 0; i < 4; ++i) {
    qA[i] = PlDualConst(q[0][i]);
    qA[i].d[3 + i] = 1.0;
    qB[i] = PlDualConst(q[1][i]);
    qB[i].d[7 + i] = 1.0;
  }
  if (RodCore_dual(e, d, qA, qB, out, NULL, NULL)) return 1;
  double G[9][PL_ELEM_DOF_MAX], ov[9];
  for (int a = 0; a < 9; ++a) {
    const double *z = out[a].d;
    ov[a] = out[a].v;
    for (int c = 0; c < 3; ++c) {
      G[a][c] = -z[c];
      G[a][nd + c] = z[c];
    }
    for (int k = 0; k < 2; ++k)
      for (int j = 0; j < np; ++j) {
        double s = 0.0;
        for (int i = 0; i < 4; ++i) s += z[3 + 4 * k + i] * Jq[k][i * np + j];
        G[a][k * nd + 3 + j] = s;
      }
  }
  return AssembleTangent(e, u, ov, G, nm, 1, r, K);
}

/* ---- the analytic tangent ----------------------------------------------------------------- */
/* 3 x 3 helpers, row-major: C = A B, C = A^T B, S = v^, C += s A */
static void M3Mul(const double A[9], const double B[9], double C[9])
{
  double t[9];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) t[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
  memcpy(C, t, sizeof t);
}
static void M3TMul(const double A[9], const double B[9], double C[9])
{
  double t[9];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) t[3 * i + j] = A[i] * B[j] + A[3 + i] * B[3 + j] + A[6 + i] * B[6 + j];
  memcpy(C, t, sizeof t);
}
static void M3Skew(const double v[3], double S[9])
{
  S[0] = 0.0, S[1] = -v[2], S[2] = v[1];
  S[3] = v[2], S[4] = 0.0, S[5] = -v[0];
  S[6] = -v[1], S[7] = v[0], S[8] = 0.0;
}
static void M3Axpy(double s, const double A[9], double C[9])
{
  for (int i = 0; i < 9; ++i) C[i] += s * A[i];
}

/* D = d/da [v + c1 a x v + c2 a x (a x v)] at fixed v (SO3Apply) with c1(|a|), c2(|a|) and
 * e1 = c1'(|a|)/|a|, e2 = c2'(|a|)/|a|:
 *   D = -c1 v^ + (a x v) e1 a^T + c2 (a v^T + (a.v) I - 2 v a^T) + (a x (a x v)) e2 a^T
 * (d(a x v)/da = -v^, d|a|/da = a^T/|a|). */
static void SO3ApplyDerivative(const double a[3], double c1, double c2, double e1, double e2, const double v[3],
                               double D[9])
{
  const double av[3] = {a[1] * v[2] - a[2] * v[1], a[2] * v[0] - a[0] * v[2], a[0] * v[1] - a[1] * v[0]};
  const double aav[3] = {a[1] * av[2] - a[2] * av[1], a[2] * av[0] - a[0] * av[2], a[0] * av[1] - a[1] * av[0]};
  const double adv = a[0] * v[0] + a[1] * v[1] + a[2] * v[2];
  M3Skew(v, D);
  for (int i = 0; i < 9; ++i) D[i] *= -c1;
  for (int i = 0; i < 3; ++i) {
    D[4 * i] += c2 * adv;
    for (int j = 0; j < 3; ++j) D[3 * i + j] += (e1 * av[i] + e2 * aav[i]) * a[j] + c2 * (a[i] * v[j] - 2.0 * v[i] * a[j]);
  }
}

/* e1 = a1'(s)/s, e2 = a2'(s)/s for J_l's a1(s) = (1 - cos s)/s^2, a2(s) = (s - sin s)/s^3
 * (s = |h|, y = s^2; series below s = 0.2, where the closed forms lose digits) */
static void JlCoefficientSlopes(double y, double *e1, double *e2)
{
  if (y < 0.04) {
    *e1 = -1.0 / 12.0 + y * (1.0 / 180.0 + y * (-1.0 / 6720.0 + y / 453600.0));
    *e2 = -1.0 / 60.0 + y * (1.0 / 1260.0 + y * (-1.0 / 60480.0 + y / 4989600.0));
    return;
  }
  const double s = sqrt(y), y2 = y * y, cs = cos(s), sn = sin(s);
  *e1 = (s * sn - 2.0 * (1.0 - cs)) / y2;
  *e2 = (1.0 - cs) / y2 - 3.0 * (s - sn) / (y2 * s);
}

/* e = b'(phi)/phi for J_l^{-1}'s b(phi) = 1/phi^2 - (1 + cos phi)/(2 phi sin phi)
 * (x = phi^2; series below phi = 0.2):
 *   b' = -2/phi^3 + 1/(4 phi sin^2(phi/2)) + cot(phi/2)/(2 phi^2) */
static double JlInvCoefficientSlope(double x)
{
  if (x < 0.04) return 1.0 / 360.0 + x * (1.0 / 7560.0 + x * (1.0 / 201600.0 + x / 5987520.0));
  const double p = sqrt(x), sh = sin(0.5 * p);
  return (-2.0 / (x * p) + 1.0 / (4.0 * p * sh * sh) + cos(0.5 * p) / (sh * 2.0 * x)) / p;
}

/* The core's exact tangent in spin variables (the banner's variations): T (9 x 9, row-major),
 * rows n^e, r_wA, r_wB; columns d, theta_A, theta_B (spatial spins, dR = theta^ R). With
 *   P = J_l^{-1}(psi) R_A^T            d psi    = P (theta_B - theta_A)
 *   Q = R_A J_l(psi/2) P / 2           d theta_m = theta_A + Q (theta_B - theta_A)
 *   S = R_m C_T R_m^T / L              d n^e   = S dd + (S d^ - n^e^) d theta_m
 *   d f  = n^e^ dd - d^ d n^e,         d g  = R_A^T (d f + f^ theta_A)
 *   d hv = (J_l^T(psi/2) d g + D_h d psi / 2) / 2 + C_R d psi / L
 *   d r_wB = -r_wB^ theta_A + R_A (J_l^{-T}(psi) d hv + D_i d psi),   d r_wA = d f - d r_wB
 * (D_h = d(J_l^T(h) g)/dh at h = psi/2, D_i = d(J_l^{-T}(psi) hv)/dpsi: SO3ApplyDerivative). */
static int RodSpinTangent(const PlRodElement *e, const double d[3], const double qA[4], const double qB[4],
                          double out[9], double T[81])
{
  RodCoreParts c;
  if (RodCore_d(e, d, qA, qB, out, NULL, &c)) return 1;
  const double *ne = out, *rwB = out + 6;
  double h[3], I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  for (int i = 0; i < 3; ++i) h[i] = 0.5 * c.psi[i];
  const double x = c.psi[0] * c.psi[0] + c.psi[1] * c.psi[1] + c.psi[2] * c.psi[2];
  double e1, e2;
  JlCoefficientSlopes(0.25 * x, &e1, &e2);
  const double eb = JlInvCoefficientSlope(x);

  /* J_l(h) = I + a1 h^ + a2 h^^2 and J_l^{-1}(psi) = I - psi^/2 + b psi^^2 */
  double Hs[9], Hs2[9], Ps[9], Ps2[9], Jh[9], Ji[9];
  M3Skew(h, Hs);
  M3Mul(Hs, Hs, Hs2);
  M3Skew(c.psi, Ps);
  M3Mul(Ps, Ps, Ps2);
  memcpy(Jh, I, sizeof I);
  M3Axpy(c.a1, Hs, Jh);
  M3Axpy(c.a2, Hs2, Jh);
  memcpy(Ji, I, sizeof I);
  M3Axpy(-0.5, Ps, Ji);
  M3Axpy(c.b, Ps2, Ji);

  double P[9], Q[9], S[9], N[9], t[9];
  for (int i = 0; i < 3; ++i) /* P = Ji R_A^T */
    for (int j = 0; j < 3; ++j) P[3 * i + j] = Ji[3 * i] * c.RA[3 * j] + Ji[3 * i + 1] * c.RA[3 * j + 1] + Ji[3 * i + 2] * c.RA[3 * j + 2];
  M3Mul(Jh, P, t);
  M3Mul(c.RA, t, Q);
  for (int i = 0; i < 9; ++i) Q[i] *= 0.5;
  for (int i = 0; i < 3; ++i) /* S = R_m C_T R_m^T / L */
    for (int j = 0; j < 3; ++j) {
      double s = 0.0;
      for (int k = 0; k < 3; ++k) s += c.Rm[3 * i + k] * e->CT[k] * c.Rm[3 * j + k];
      S[3 * i + j] = s / e->L;
    }
  double Ds[9], Ns[9], Fs[9];
  M3Skew(d, Ds);
  M3Skew(ne, Ns);
  M3Skew(c.f, Fs);
  M3Mul(S, Ds, N);
  M3Axpy(-1.0, Ns, N);

  /* per column block k (0: d, 1: theta_A, 2: theta_B): d n^e, d f, d psi, then on */
  double Dh[9], Di[9];
  SO3ApplyDerivative(h, -c.a1, c.a2, -e1, e2, c.g, Dh); /* J_l^T(h) = SO3Apply(h, -a1, a2) */
  const double mpsi[3] = {-c.psi[0], -c.psi[1], -c.psi[2]};
  /* J_l^{-T}(psi) v = SO3Apply(-psi, -1/2, b) v: the derivative in -psi, times -1 */
  SO3ApplyDerivative(mpsi, -0.5, c.b, 0.0, eb, c.hv, Di);
  for (int i = 0; i < 9; ++i) Di[i] = -Di[i];
  for (int k = 0; k < 3; ++k) {
    double Ne[9], F[9], Psi[9], G[9], Hv[9], W[9];
    if (k == 0) {
      memcpy(Ne, S, sizeof S);
      memset(Psi, 0, sizeof Psi);
    } else {
      double Th[9]; /* d theta_m / d theta_k */
      for (int i = 0; i < 9; ++i) {
        Th[i] = k == 1 ? I[i] - Q[i] : Q[i];
        Psi[i] = k == 1 ? -P[i] : P[i];
      }
      M3Mul(N, Th, Ne);
    }
    M3Mul(Ds, Ne, F); /* d f = n^e^ dd - d^ d n^e */
    for (int i = 0; i < 9; ++i) F[i] = -F[i] + (k == 0 ? Ns[i] : 0.0);
    memcpy(t, F, sizeof t);
    if (k == 1) M3Axpy(1.0, Fs, t);
    M3TMul(c.RA, t, G); /* d g */
    M3TMul(Jh, G, Hv);  /* J_l^T(h) d g */
    M3Mul(Dh, Psi, t);
    M3Axpy(0.5, t, Hv);
    for (int i = 0; i < 9; ++i) Hv[i] *= 0.5;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) Hv[3 * i + j] += e->CR[i] / e->L * Psi[3 * i + j];
    M3TMul(Ji, Hv, W); /* J_l^{-T}(psi) d hv + D_i d psi */
    M3Mul(Di, Psi, t);
    M3Axpy(1.0, t, W);
    M3Mul(c.RA, W, t); /* d r_wB */
    if (k == 1) {
      double Rs[9];
      M3Skew(rwB, Rs);
      M3Axpy(-1.0, Rs, t);
    }
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        T[9 * i + 3 * k + j] = Ne[3 * i + j];
        T[9 * (6 + i) + 3 * k + j] = t[3 * i + j];
        T[9 * (3 + i) + 3 * k + j] = F[3 * i + j] - t[3 * i + j];
      }
  }
  return 0;
}

/* r and K: the core's spin tangent (RodSpinTangent) chained with the nodes' spin maps
 * d theta = R0 H(p) dp. */
static int RodTangent(const PlRodElement *e, const double *u, double *r, double *K)
{
  const int np = PlParamCount(e->kind), nd = 3 + np;
  double q[2][4], d[3], out[9], T[81];
  NodeMap nm[2];
  for (int k = 0; k < 2; ++k) {
    double qp[4];
    const double *p = u + k * nd + 3;
    ParamQuat_d(e->kind, p, qp);
    QMul_d(e->q0[k], qp, q[k]);
    NodeMapInit(e->kind, e->q0[k], p, &nm[k]);
  }
  for (int i = 0; i < 3; ++i) d[i] = u[nd + i] - u[i];
  if (RodSpinTangent(e, d, q[0], q[1], out, T)) return 1;
  double G[9][PL_ELEM_DOF_MAX];
  for (int a = 0; a < 9; ++a) {
    const double *t = T + 9 * a;
    for (int c = 0; c < 3; ++c) {
      G[a][c] = -t[c];
      G[a][nd + c] = t[c];
    }
    for (int k = 0; k < 2; ++k) /* d theta = M^T dp */
      for (int j = 0; j < np; ++j) {
        const double *Mj = nm[k].M + 3 * j;
        G[a][k * nd + 3 + j] = t[3 + 3 * k] * Mj[0] + t[4 + 3 * k] * Mj[1] + t[5 + 3 * k] * Mj[2];
      }
  }
  return AssembleTangent(e, u, out, G, nm, 0, r, K);
}

int PlRodElementNodeForces(const PlRodElement *e, const double xA[3], const double xB[3], const double qA[4],
                           const double qB[4], double f[3], double mA[3], double mB[3])
{
  double d[3], out[9], RA[9], RB[9];
  for (int i = 0; i < 3; ++i) d[i] = xB[i] - xA[i];
  if (RodCore_d(e, d, qA, qB, out, NULL, NULL)) return 1;
  QToR_d(qA, RA);
  QToR_d(qB, RB);
  MatTVec_d(RA, out + 3, mA);
  MatTVec_d(RB, out + 6, mB);
  int bad = 0;
  for (int i = 0; i < 3; ++i) {
    f[i] = out[i];
    bad |= !isfinite(f[i]) || !isfinite(mA[i]) || !isfinite(mB[i]);
  }
  return bad;
}

int PlRodElementInternal(const PlRodElement *e, const double *u, double *r, double *K)
{
  return K ? RodTangent(e, u, r, K) : RodInternal_d(e, u, r, NULL);
}

int PlRodElementState(const PlRodElement *e, const double *u, PlRodSectionState *st)
{
  return RodInternal_d(e, u, NULL, st);
}

int PlRodElementStateOfFrames(const PlRodElement *e, const double xA[3], const double xB[3], const double qA[4],
                              const double qB[4], PlRodSectionState *st)
{
  double d[3];
  for (int i = 0; i < 3; ++i) d[i] = xB[i] - xA[i];
  if (RodCore_d(e, d, qA, qB, NULL, st, NULL)) return 1;
  for (int i = 0; i < 3; ++i) st->xm[i] = 0.5 * (xA[i] + xB[i]);
  return 0;
}

double PlRodSectionEnergy(const PlRodElement *e, const PlRodSectionState *st)
{
  double U = 0.0;
  for (int i = 0; i < 3; ++i)
    U += st->gamma[i] * e->CT[i] * st->gamma[i] + st->kappa[i] * e->CR[i] * st->kappa[i];
  return 0.5 * e->L * U;
}

double PlRodElementEnergy(const PlRodElement *e, const double *u)
{
  PlRodSectionState st;
  return RodInternal_d(e, u, NULL, &st) ? NAN : PlRodSectionEnergy(e, &st);
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
  double R0[9], l[3];
  QToR_d(q0, R0);
  MatTVec_d(R0, M, l);
  SpinMapAD(kind, p, l, r, K);
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
