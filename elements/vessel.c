/*
 * vessel.c - a rigid body in six degrees of freedom: the surface (pipelay) vessel of the
 * Saefstroem thesis (eqs 4.10-4.15 of Chapter 4 and 5.41-5.66 of Chapter 5, after Fossen)
 * and, with the water terms switched off, a free rigid body (the tests of section 7 of the
 * Giusti report). The residual rows of one body and their exact iteration matrix
 * dF/dy + c dF/dydot come from one evaluation on dual numbers, as for the rod nodes
 * (rod_dynamics_kernel.inc).
 *
 * Frames (see also the vessel section of elements.h):
 *   e  global frame of pipelay: x, y horizontal, z up, mean sea level z = 0.
 *   b  body frame, origin O_b at the body's reference point (the centre of gravity in the
 *      thesis, 5.2.2), axes x forward, y to port, z up (right-handed).
 *   Fossen and the thesis write the same model in NED / x forward, y starboard, z down.
 *   The two conventions differ by the half turn about x, T = diag(1, -1, -1), applied to
 *   both frames, so the data transform as A = S A_NED S with S = diag(1,-1,-1, 1,-1,-1)
 *   (entry (i, j) changes sign when exactly one of i, j is sway, heave, pitch or yaw;
 *   PlVesselMatrixFromNED), and the angles as roll = roll_NED, pitch = -pitch_NED,
 *   yaw = -yaw_NED (yaw measured from +x towards +y).
 *
 * Unknowns of the body (13): y = [r (3), q (4), v (3), w (3)]
 *   r  position of O_b in e [m];
 *   q  unit quaternion (w, x, y, z) of R = R_b^e (body -> global), the attitude without
 *      singularity; the Euler angles are only derived for reporting and the DP controller;
 *   v  velocity of O_b in the body frame [m/s]        } nu = [v; w], Fossen's nu (5.40)
 *   w  angular velocity in the body frame [rad/s]      }
 *
 * Residual rows (13), R = R(q/|q|):
 *   0-2   rdot - R v                                          kinematics (5.42), position
 *   3-6   E E^T qdot - E w/2 + k q (|q|^2 - 1)/2               kinematics, attitude, with
 *         E(q) = [-q_v^T ; q_0 I + q_v^], qdot = E w/2 (q' = q (x) (0, w)/2); the unit norm
 *         is held exactly as an algebraic equation (the rows [ k (|q|^2-1)/2 ; w - 2E^T qdot ]
 *         premultiplied by the invertible [q | -E/2]), as the rod nodes do (k = 1 there).
 *         k = norm_rate [1/s] does not change the solution (|q| = 1 exactly); it is the
 *         stiffness of the algebraic (radial) direction against the c E E^T of the
 *         tangential ones. The radial direction turns with the body, so an iteration
 *         matrix reused over steps (modified Newton) is misaligned by c * (angle turned
 *         since it was formed) ~ |w| * (steps since); Newton contracts when that is small
 *         against k (and k not far above c). The loader's default follows the body's
 *         initial spin, k = max(1, 100 |w0|) (PlVesselNormRateDefault, derived there): 1 for
 *         a vessel, ~1e3 for a body spinning at tens of rad/s
 *   7-12  M nudot + C_RB(nu) nu + C_A(nu) nu + D_p nu + D_v(nu) nu + g(r, R) + s(r, R)
 *           - tau_body - [R^T f_e ; R^T m_e]                   Newton-Euler (5.52), body frame
 * with
 *   M = M_RB + M_A (5.43-5.44), constant, symmetric positive definite;
 *   C(M, nu) nu = [w x p1 ; v x p1 + w x p2], p1 = M11 v + M12 w, p2 = M21 v + M22 w: the
 *     skew-symmetric Coriolis-centripetal matrix of Fossen (2011, Thm 3.2 / eq 6.43),
 *     C(M, nu) = [0, -S(p1); -S(p1), -S(p2)], used for C_RB = C(M_RB) and C_A = C(M_A)
 *     (5.54-5.56; the nonlinear forms replace the linearised M U L of 5.45). C = -C^T
 *     gives nu^T C nu = 0 (property P2 with Mdot = 0). With M the rigid-body matrix this is
 *     Kirchhoff's form of the Newton-Euler equations, exact for any origin;
 *   D_p linear damping (5.50), D_v(nu) = diag(d_i |nu_i|) quadratic damping (5.57);
 *   g restoring (5.58-5.64), the gradient of the potential U_V of eq 5.85:
 *     heave  R^T (0, 0, A_wp rho_w g (z - z_eq))           (the force of 5.58, moved to the
 *                                                           left-hand side: it resists z - z_eq)
 *     moment m_V g (r~ x k),  k = R^T e3 (the global up axis in the body frame),
 *            r~ = (GM_L k_1, GM_T k_2, 0) = (GM_L (R e1).e3, GM_T (R e2).e3, 0)   (5.62-5.63)
 *     so that nu^T g = dU_V/dt with U_V = A_wp rho_w g (z - z_eq)^2/2
 *            + m_V g (GM_L k_1^2 + GM_T k_2^2)/2   (eq 5.85, z_eq = -h_ref);
 *     or, for an axisymmetric wall-sided hull (a spar; BM = metacentric_radius given, GM_T =
 *     GM_L = GM), the exact large-angle law of the wall-sided formula GZ(a) = sin a (GM +
 *     BM tan^2 a / 2) (e.g. Biran, Ship Hydrostatics and Stability, eq 6.9) at the tilt a of
 *     the body's z axis, cos a = k_3: integrating m_V g GZ da,
 *            U = m_V g [GM (1 - k_3) + BM (1/k_3 + k_3 - 2)/2],
 *     and with U = U(k_3) the moment on the left-hand side is U'(k_3) (e3 x k) =
 *     U'(k_3) (-k_2, k_1, 0), U'(k_3) = m_V g (-GM + BM (1 - 1/k_3^2)/2): m_V g GZ(a) about
 *     the horizontal axis of the tilt. Small a: GM a, as the small-angle law. Valid while the
 *     waterline stays on the wall (k_3 > 0.2 is required: a tilt below 78 deg);
 *   weight (weight_mass m_w > 0): the dead load (0, 0, -m_w g) at the centre of gravity
 *     r + R r_g, on the left-hand side [m_w g k ; r_g x m_w g k] (k = R^T e3 as above), the
 *     gradient of U_w = m_w g (r_z + (R r_g)_z) = m_w g (r_z + k . r_g);
 *   s = [R^T K_s (r - r_a) ; 0], a linear spring on O_b in the global frame (not in the
 *     thesis: a soft mooring, and the spring of Giusti's oscillator, Table 4);
 *   a spring on the heading psi = atan2(R_10, R_00) about the global z axis, U = K_yaw
 *     (psi - psi_0)^2/2 (not in the thesis: the added yaw stiffness of a crowfoot mooring, as
 *     OC3's 98.34 MN m/rad); its moment is derived at PlVesselDynamics;
 *   tau_body external force and moment in the body frame (controller, follower loads, and
 *     later the pipe's reaction tau_pipe of 5.66); f_e, m_e a dead force and moment in the
 *     global frame acting at O_b (environment, gravity of a dry body).
 * Passivity: with T = nu^T M nu/2 and U = U_V + (r - r_a)^T K_s (r - r_a)/2 + K_yaw dpsi^2/2,
 *   d(T + U)/dt = nu^T tau - nu^T (D_p + D_v(nu)) nu   (5.89), <= nu^T tau when the
 * symmetric part of D_p is positive semidefinite and d_i >= 0.
 *
 * Assumptions: the restoring terms are those of the thesis (O_b at the centre of gravity,
 * small pitch in 5.61, constant waterplane area); M_RB + M_A enters C and the kinetic
 * energy through its symmetric part, K_s the potential energy through its symmetric part;
 * no fluid memory beyond D_p (5.50).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "pipelay/elements.h"
#include "dual_ops.h"

static const double kPi = 3.14159265358979323846;


static D DAbs(D a) { return a.v < 0.0 ? PlDualNeg(a) : a; }

/* R (row-major) of the normalised quaternion q/|q|. */
static void DQuatToMatrix(const D q[4], D R[9])
{
  const D n2 = da(da(dm(q[0], q[0]), dm(q[1], q[1])), da(dm(q[2], q[2]), dm(q[3], q[3])));
  const D s = PlDualDiv(dc(2.0), n2); /* 2/|q|^2 */
  const D w = q[0], x = q[1], y = q[2], z = q[3];
  const D xx = dm(x, x), yy = dm(y, y), zz = dm(z, z), xy = dm(x, y), xz = dm(x, z), yz = dm(y, z);
  const D wx = dm(w, x), wy = dm(w, y), wz = dm(w, z);
  R[0] = ds(dc(1.0), dm(s, da(yy, zz)));
  R[1] = dm(s, ds(xy, wz));
  R[2] = dm(s, da(xz, wy));
  R[3] = dm(s, da(xy, wz));
  R[4] = ds(dc(1.0), dm(s, da(xx, zz)));
  R[5] = dm(s, ds(yz, wx));
  R[6] = dm(s, ds(xz, wy));
  R[7] = dm(s, da(yz, wx));
  R[8] = ds(dc(1.0), dm(s, da(xx, yy)));
}

/* out = R a, out = R^T a */
static void DMatVec(const D R[9], const D a[3], D out[3])
{
  for (int i = 0; i < 3; ++i) out[i] = da(da(dm(R[3 * i], a[0]), dm(R[3 * i + 1], a[1])), dm(R[3 * i + 2], a[2]));
}
static void DMatTVec(const D R[9], const D a[3], D out[3])
{
  for (int i = 0; i < 3; ++i) out[i] = da(da(dm(R[i], a[0]), dm(R[3 + i], a[1])), dm(R[6 + i], a[2]));
}

/* Symmetric part of a 6x6 matrix. */
static void Sym6(const double A[36], double S[36])
{
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) S[6 * i + j] = 0.5 * (A[6 * i + j] + A[6 * j + i]);
}

/* C(M, nu) nu with the symmetric part Ms of M (Kirchhoff form). */
static void DCoriolisTimesNu(const double Ms[36], const D nu[6], D out[6])
{
  D p[6];
  for (int i = 0; i < 6; ++i) {
    p[i] = dc(0.0);
    for (int j = 0; j < 6; ++j)
      if (Ms[6 * i + j] != 0.0) p[i] = da(p[i], dk(nu[j], Ms[6 * i + j]));
  }
  D a[3], b[3], c[3];
  DCross(nu + 3, p, a);     /* w x p1 */
  DCross(nu, p, b);         /* v x p1 */
  DCross(nu + 3, p + 3, c); /* w x p2 */
  for (int i = 0; i < 3; ++i) {
    out[i] = a[i];
    out[3 + i] = da(b[i], c[i]);
  }
}

void PlVesselInit(PlVessel *V)
{
  memset(V, 0, sizeof *V);
  V->rho_w = 1025.0;
  V->gravity = 9.80665;
  V->norm_rate = 1.0;
}

/* The default norm rate k = max(1, 100 |w0|) [1/s], |w0| the initial spin [rad/s].
 *
 * On the unit sphere the attitude rows' iteration matrix is J = c (I - q q^T) + k q q^T: IDA's
 * c = alpha/h (alpha about 1 to 2 at BDF orders 1 to 5) along the three tangent directions, k
 * along the radius q. Modified Newton reuses J formed at q_0 while the radius turns with the
 * body by theta ~ |w| (steps since J was formed) h (IDA renews J when c moves by 25 % or Newton
 * fails, and system_dynamic.c at least every 20 steps). The error of the reused matrix is
 * (k - c)(q q^T - q_0 q_0^T), of size |k - c| theta, and J_0^-1 scales it by 1/c tangentially
 * and 1/k radially, so each Newton iteration contracts by about theta max(c/k, k/c):
 *   k << c: the radial correction is c/k too large; Newton stalls when the body spins (the heavy
 *           top, 17 rad/s, k = 1: IDA_CONV_FAIL at t = 0.027 s with steps cut to 1e-19 s);
 *   k >> c: the tangential one is k/c too large, and since c = alpha/h, this ratio only falls
 *           by shortening the step: the stiffness limits the step.
 * k = c is best. The step the error test allows turns a spinning body by a roughly fixed angle
 * phi = |w| h per step (at rtol 1e-4 and BDF2, the lines' defaults, phi = 0.039 rad on the heavy
 * top; at the defaults of rigid bodies alone, rtol 1e-7 and BDF up to 5, 0.009 rad), so c =
 * alpha |w| / phi ~ 40 |w| and ~ 200 |w|, larger at tighter tolerances. k = 100 |w0| sits
 * between; the steps are flat within a factor of about 3 either way and rise beyond (the heavy
 * top at the bodies' defaults: 32272, 19764, 14701, 14037 steps at K = 30, 100, 300, 1000).
 * Measured at the lines' default tolerances with k = K |w0| (IDA steps; K = 30, 100, 300, 1000):
 *   heavy top (verification/multibody_joints, |w0| = 17.3 rad/s, 10 s): 4564, 4445, 4600, 4947
 *     (K = 3: 11026, K = 10: 6424; k = 1: stops at 0.027 s, k = 1e5: 5813);
 *   Giusti's sphere and axisymmetric body (verification/giusti_rigid_bodies, 5 s): 3080/897,
 *     3135/908, 3236/973, 3707/1036 (k = 1: 12975/3553);
 *   OC3 rotor at 1.27 rad/s on its shaft (verification/oc3_turbine shaft, 20 s): 274, 252, 255,
 *     251 (k = 1: 1349).
 * The floor 1 1/s keeps bodies that start without spin (a vessel, a platform: rates of
 * 0.01 rad/s) as before. A body that spins up from rest under a load keeps k = 1: give it
 * norm_rate. k does not change the solution (|q| = 1 is held exactly), only Newton's work. */
double PlVesselNormRateDefault(const double w0[3])
{
  return fmax(1.0, 100.0 * sqrt(w0[0] * w0[0] + w0[1] * w0[1] + w0[2] * w0[2]));
}

void PlVesselRigidBodyMass(double m, const double r_g[3], const double I_g[9], double MRB[36])
{
  /* Fossen (2011) eq 3.44: M_RB = [m I, -m S(r_g); m S(r_g), I_g - m S(r_g)^2] */
  const double S[9] = {0, -r_g[2], r_g[1], r_g[2], 0, -r_g[0], -r_g[1], r_g[0], 0};
  memset(MRB, 0, 36 * sizeof(double));
  for (int i = 0; i < 3; ++i) {
    MRB[6 * i + i] = m;
    for (int j = 0; j < 3; ++j) {
      MRB[6 * i + 3 + j] = -m * S[3 * i + j];
      MRB[6 * (3 + i) + j] = m * S[3 * i + j];
      double SS = 0.0;
      for (int k = 0; k < 3; ++k) SS += S[3 * i + k] * S[3 * k + j];
      MRB[6 * (3 + i) + 3 + j] = I_g[3 * i + j] - m * SS;
    }
  }
}

void PlVesselCoriolis(const double M[36], const double nu[6], double C[36])
{
  double Ms[36], p[6];
  Sym6(M, Ms);
  for (int i = 0; i < 6; ++i) {
    p[i] = 0.0;
    for (int j = 0; j < 6; ++j) p[i] += Ms[6 * i + j] * nu[j];
  }
  memset(C, 0, 36 * sizeof(double));
  /* C = [0, -S(p1); -S(p1), -S(p2)], -S(a) = [0, a3, -a2; -a3, 0, a1; a2, -a1, 0] */
  for (int blk = 0; blk < 3; ++blk) {
    const double *a = blk == 2 ? p + 3 : p;
    const int r0 = blk == 0 ? 0 : 3, c0 = blk == 1 ? 0 : 3;
    const double mS[9] = {0, a[2], -a[1], -a[2], 0, a[0], a[1], -a[0], 0};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) C[6 * (r0 + i) + c0 + j] = mS[3 * i + j];
  }
}

void PlVesselMatrixFromNED(const double A_ned[36], double A[36])
{
  static const double s[6] = {1, -1, -1, 1, -1, -1};
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) A[6 * i + j] = s[i] * s[j] * A_ned[6 * i + j];
}

/* Cholesky test of a symmetric 6x6 matrix: 1 when positive definite (tol: relative floor). */
static int PosDef6(const double S[36], int semi)
{
  double L[36] = {0};
  double scale = 0.0;
  for (int i = 0; i < 6; ++i) scale = fmax(scale, fabs(S[7 * i]));
  if (scale == 0.0) return semi;
  for (int j = 0; j < 6; ++j) {
    double d = S[7 * j];
    for (int k = 0; k < j; ++k) d -= L[6 * j + k] * L[6 * j + k];
    if (d <= 1e-12 * scale) {
      if (!semi || d < -1e-9 * scale) return 0;
      d = 0.0;
    }
    L[7 * j] = sqrt(d);
    for (int i = j + 1; i < 6; ++i) {
      double s = S[6 * i + j];
      for (int k = 0; k < j; ++k) s -= L[6 * i + k] * L[6 * j + k];
      L[6 * i + j] = L[7 * j] > 0.0 ? s / L[7 * j] : 0.0;
    }
  }
  return 1;
}

int PlVesselCheck(const PlVessel *V, char *msg, size_t len)
{
  double M[36], S[36];
  for (int i = 0; i < 36; ++i) {
    M[i] = V->MRB[i] + V->MA[i];
    if (!isfinite(M[i]) || !isfinite(V->Dp[i])) {
      snprintf(msg, len, "mass or damping matrix entry (%d, %d) is not finite", i / 6 + 1, i % 6 + 1);
      return 1;
    }
  }
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < i; ++j) {
      const double a = M[6 * i + j], b = M[6 * j + i];
      if (fabs(a - b) > 1e-9 * (fabs(M[7 * i]) + fabs(M[7 * j]))) {
        snprintf(msg, len, "mass matrix M_RB + M_A is not symmetric: (%d, %d) = %g, (%d, %d) = %g", i + 1, j + 1, a,
                 j + 1, i + 1, b);
        return 1;
      }
    }
  Sym6(M, S);
  if (!PosDef6(S, 0)) {
    snprintf(msg, len, "mass matrix M_RB + M_A is not positive definite");
    return 1;
  }
  Sym6(V->Dp, S);
  if (!PosDef6(S, 1)) {
    snprintf(msg, len, "linear damping D_p: its symmetric part is not positive semidefinite (the vessel would "
                       "gain energy)");
    return 1;
  }
  for (int i = 0; i < 6; ++i)
    if (!(V->Dq[i] >= 0.0)) {
      snprintf(msg, len, "quadratic damping coefficient %d is %g, must be >= 0", i + 1, V->Dq[i]);
      return 1;
    }
  const double nonneg[5] = {V->Awp, V->displacement, V->rho_w, V->gravity, V->weight_mass};
  const char *names[5] = {"waterplane area", "displacement", "water density", "gravity", "weight mass"};
  for (int i = 0; i < 5; ++i)
    if (!(nonneg[i] >= 0.0)) {
      snprintf(msg, len, "%s is %g, must be >= 0", names[i], nonneg[i]);
      return 1;
    }
  if (!(V->norm_rate > 0.0) || !isfinite(V->norm_rate)) {
    snprintf(msg, len, "norm_rate is %g, must be > 0", V->norm_rate);
    return 1;
  }
  if (!isfinite(V->GM_T) || !isfinite(V->GM_L) || !isfinite(V->z_eq) || !isfinite(V->r_g[0]) ||
      !isfinite(V->r_g[1]) || !isfinite(V->r_g[2])) {
    snprintf(msg, len, "metacentric heights, heave equilibrium and centre of gravity must be finite");
    return 1;
  }
  if (!(V->K_yaw >= 0.0) || !isfinite(V->K_yaw) || !isfinite(V->psi_rest)) {
    snprintf(msg, len, "yaw spring stiffness %g must be finite and >= 0", V->K_yaw);
    return 1;
  }
  double K[36] = {0};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) K[6 * i + j] = 0.5 * (V->K_spring[3 * i + j] + V->K_spring[3 * j + i]);
  for (int i = 3; i < 6; ++i) K[7 * i] = 0.0;
  if (!PosDef6(K, 1)) {
    snprintf(msg, len, "spring stiffness K_s is not positive semidefinite");
    return 1;
  }
  msg[0] = '\0';
  return 0;
}

int PlVesselDynamics(const PlVessel *V, const double y[PL_VESSEL_NY], const double yp[PL_VESSEL_NY], double c,
                     const double tau_body[6], const double load_global[6], double r[PL_VESSEL_NY], double *K)
{
  enum { n = PL_VESSEL_NY };
  D Y[n], YP[n], F[n];
  int bad = 0;
  for (int j = 0; j < n; ++j) {
    Y[j] = dc(y[j]);
    YP[j] = dc(yp[j]);
    if (K) {
      Y[j].d[j] = 1.0;
      YP[j].d[j] = c;
    }
    if (!isfinite(y[j]) || !isfinite(yp[j])) bad = 1;
  }
  const double qn2 = y[3] * y[3] + y[4] * y[4] + y[5] * y[5] + y[6] * y[6];
  if (bad || !(qn2 > 1e-8)) {
    for (int i = 0; i < n; ++i) r[i] = NAN;
    if (K) memset(K, 0, sizeof(double) * n * n);
    return 1;
  }
  const D *rr = Y, *q = Y + PL_VESSEL_Q, *v = Y + PL_VESSEL_V, *w = Y + PL_VESSEL_W;
  const D *rd = YP, *qd = YP + PL_VESSEL_Q, *nud = YP + PL_VESSEL_V;
  D R[9];
  DQuatToMatrix(q, R);

  /* kinematics of the position: rdot - R v */
  D Rv[3];
  DMatVec(R, v, Rv);
  for (int i = 0; i < 3; ++i) F[i] = ds(rd[i], Rv[i]);

  /* kinematics of the attitude and unit norm: E E^T qdot - E w/2 + q (|q|^2 - 1)/2 */
  {
    D Etq[3], EEtq[4], Ew[4], c3[3];
    DCross(q + 1, qd + 1, c3);
    for (int i = 0; i < 3; ++i) Etq[i] = ds(ds(dm(q[0], qd[1 + i]), dm(qd[0], q[1 + i])), c3[i]);
    const D *vecs[2] = {Etq, w};
    D *outs[2] = {EEtq, Ew};
    for (int k = 0; k < 2; ++k) {
      D cx[3];
      DCross(q + 1, vecs[k], cx);
      outs[k][0] = dk(DDot(q + 1, vecs[k]), -1.0);
      for (int i = 0; i < 3; ++i) outs[k][1 + i] = da(dm(q[0], vecs[k][i]), cx[i]);
    }
    const D nn = dk(ds(da(da(dm(q[0], q[0]), dm(q[1], q[1])), da(dm(q[2], q[2]), dm(q[3], q[3]))), dc(1.0)), 0.5);
    const double kn = V->norm_rate > 0.0 ? V->norm_rate : 1.0;
    for (int i = 0; i < 4; ++i) F[PL_VESSEL_Q + i] = da(ds(EEtq[i], dk(Ew[i], 0.5)), dk(dm(q[i], nn), kn));
  }

  /* Newton-Euler rows in the body frame */
  D *G = F + PL_VESSEL_V;
  double M[36], Ms[36];
  for (int i = 0; i < 36; ++i) M[i] = V->MRB[i] + V->MA[i];
  Sym6(M, Ms);
  const D *nu = Y + PL_VESSEL_V;
  D Cn[6];
  DCoriolisTimesNu(Ms, nu, Cn); /* C_RB nu + C_A nu = C(M_RB + M_A) nu (linear in M) */
  for (int i = 0; i < 6; ++i) {
    D s = Cn[i];
    for (int j = 0; j < 6; ++j) {
      if (M[6 * i + j] != 0.0) s = da(s, dk(nud[j], M[6 * i + j]));
      if (V->Dp[6 * i + j] != 0.0) s = da(s, dk(nu[j], V->Dp[6 * i + j]));
    }
    if (V->Dq[i] != 0.0) s = da(s, dk(dm(DAbs(nu[i]), nu[i]), V->Dq[i]));
    G[i] = s;
  }
  /* restoring (5.58-5.64) through k = R^T e3 = (R_20, R_21, R_22) */
  const D k3[3] = {R[6], R[7], R[8]};
  const double kh = V->Awp * V->rho_w * V->gravity, mg = V->displacement * V->gravity;
  if (kh != 0.0) {
    const D fz = dk(ds(rr[2], dc(V->z_eq)), kh);
    for (int i = 0; i < 3; ++i) G[i] = da(G[i], dm(fz, k3[i]));
  }
  if (mg != 0.0 && V->wall_sided) { /* the wall-sided law */
    if (!(k3[2].v > 0.2)) bad = 1;
    const D inv = PlDualDiv(dc(1.0), dm(k3[2], k3[2]));
    const D dU = dk(da(dc(-V->GM_L + 0.5 * V->BM), dk(inv, -0.5 * V->BM)), mg);
    G[3] = ds(G[3], dm(dU, k3[1]));
    G[4] = da(G[4], dm(dU, k3[0]));
  } else if (mg != 0.0 && (V->GM_T != 0.0 || V->GM_L != 0.0)) {
    const D rt[3] = {dk(k3[0], V->GM_L), dk(k3[1], V->GM_T), dc(0.0)};
    D mr[3];
    DCross(rt, k3, mr);
    for (int i = 0; i < 3; ++i) G[3 + i] = da(G[3 + i], dk(mr[i], mg));
  }
  /* weight at the centre of gravity */
  if (V->weight_mass != 0.0) {
    const double W = V->weight_mass * V->gravity;
    const D rg[3] = {dc(V->r_g[0]), dc(V->r_g[1]), dc(V->r_g[2])};
    D wk[3], mw[3];
    for (int i = 0; i < 3; ++i) wk[i] = dk(k3[i], W);
    DCross(rg, wk, mw);
    for (int i = 0; i < 3; ++i) {
      G[i] = da(G[i], wk[i]);
      G[3 + i] = da(G[3 + i], mw[i]);
    }
  }
  /* linear spring on O_b (global frame) */
  {
    int any = 0;
    for (int i = 0; i < 9; ++i) any |= V->K_spring[i] != 0.0;
    if (any) {
      D fs[3], fb[3];
      for (int i = 0; i < 3; ++i) {
        fs[i] = dc(0.0);
        for (int j = 0; j < 3; ++j)
          if (V->K_spring[3 * i + j] != 0.0)
            fs[i] = da(fs[i], dk(ds(rr[j], dc(V->r_anchor[j])), V->K_spring[3 * i + j]));
      }
      DMatTVec(R, fs, fb);
      for (int i = 0; i < 3; ++i) G[i] = da(G[i], fb[i]);
    }
  }
  /* spring on the heading: U = K_yaw dpsi^2/2, dpsi = psi - psi_rest wrapped to (-pi, pi],
   * psi = atan2(R_10, R_00). With Rdot = [w_s]x R, psidot = g . w_s, g = (-R_20 R_00 / c,
   * -R_20 R_10 / c, 1), c = R_00^2 + R_10^2 (1 without roll and pitch); so the moment that
   * derives from U is -K_yaw dpsi g (global), on the left-hand side K_yaw dpsi R^T g, and
   * w_b . (K_yaw dpsi R^T g) = K_yaw dpsi psidot = dU/dt (passive). */
  if (V->K_yaw != 0.0) {
    D psi = PlDualAtan2(R[3], R[0]);
    double wrap = psi.v - V->psi_rest;
    wrap = remainder(wrap, 2.0 * kPi); /* (-pi, pi] */
    const D dpsi = da(psi, dc(wrap - psi.v)); /* psi - psi_rest, wrapped; same derivative as psi */
    const D cc = da(dm(R[0], R[0]), dm(R[3], R[3]));
    const D g[3] = {PlDualDiv(dk(dm(R[6], R[0]), -1.0), cc), PlDualDiv(dk(dm(R[6], R[3]), -1.0), cc), dc(1.0)};
    D gb[3];
    DMatTVec(R, g, gb);
    const D kd = dk(dpsi, V->K_yaw);
    for (int i = 0; i < 3; ++i) G[3 + i] = da(G[3 + i], dm(kd, gb[i]));
  }
  /* external loads */
  if (tau_body)
    for (int i = 0; i < 6; ++i) G[i] = ds(G[i], dc(tau_body[i]));
  if (load_global)
    for (int blk = 0; blk < 2; ++blk) {
      const D fg[3] = {dc(load_global[3 * blk]), dc(load_global[3 * blk + 1]), dc(load_global[3 * blk + 2])};
      D fb[3];
      DMatTVec(R, fg, fb);
      for (int i = 0; i < 3; ++i) G[3 * blk + i] = ds(G[3 * blk + i], fb[i]);
    }

  for (int i = 0; i < n; ++i) {
    r[i] = F[i].v;
    if (!isfinite(r[i])) bad = 1;
    if (K)
      for (int j = 0; j < n; ++j) K[i * n + j] = F[i].d[j];
  }
  return bad;
}

/* Hull drag by strip theory (Morison's drag term, e.g. DNV-RP-C205 eq 6.1 without inertia):
 * strip k at c_k = (0, 0, z_k) + d_k (body frame; d_k its first-order motion, 0 without motion),
 * axis t = R e3 (global), at the global point p_k = r + R c_k, moving with
 * V_k = R (v + w x c_k + d_k'); in the water's velocity u(p_k) (the current,
 * and the waves' when the model has waves: PlFluidFn) the relative
 * velocity u = u_c - V_k, its part normal to the axis u_n = u - (u . t) t, and the force
 *   f_k = rho_w/2 Cd_k D_k len_k |u_n|_e u_n   (global),  |a|_e = sqrt(|a|^2 + e^2), e = 1e-4 m/s
 * (the pipe's C^1 norm, elements/rod_dynamics: f_k . u_n >= 0 still); on the body
 * tau = sum_k [R^T f_k ; c_k x R^T f_k], for the strips whose centre is below the surface (z = 0 in a
 * calm sea; a strip is wet or dry as a whole). Without current f_k . V_k = -rho_w/2 Cd D len |V_n|_e |V_n|^2 <= 0: the
 * drag only dissipates (passive). Tangential drag and the Froude-Krylov and added-mass terms
 * of the current's acceleration are not included. */
int PlVesselHullLoad(const PlHull *H, const double y[PL_VESSEL_NY], double rho_w, PlFluidFn fluid,
                     PlPointMotionFn motion, void *ctx, double tau[6], double *dtau_dy)
{
  enum { n = PL_VESSEL_NY };
  D Y[n], T[6];
  for (int j = 0; j < n; ++j) {
    Y[j] = dc(y[j]);
    if (dtau_dy) Y[j].d[j] = 1.0;
  }
  for (int i = 0; i < 6; ++i) T[i] = dc(0.0);
  const double qn2 = y[3] * y[3] + y[4] * y[4] + y[5] * y[5] + y[6] * y[6];
  if (!(qn2 > 1e-8)) return 1;
  const D *r = Y, *q = Y + PL_VESSEL_Q, *v = Y + PL_VESSEL_V, *w = Y + PL_VESSEL_W;
  D R[9];
  DQuatToMatrix(q, R);
  const D t[3] = {R[2], R[5], R[8]};
  for (int k = 0; k < H->n; ++k) {
    const double c0[3] = {0.0, 0.0, H->z[k]};
    double mo[3] = {0, 0, 0}, mod[3] = {0, 0, 0}; /* the strip's motion: a function of time alone */
    if (motion) motion(ctx, c0, mo, mod);
    const D c[3] = {dc(mo[0]), dc(mo[1]), dc(motion ? H->z[k] + mo[2] : H->z[k])};
    D Rc[3], wc[3], vb[3], Vg[3];
    DMatVec(R, c, Rc);
    const D p[3] = {da(r[0], Rc[0]), da(r[1], Rc[1]), da(r[2], Rc[2])};
    const double pv[3] = {p[0].v, p[1].v, p[2].v};
    double uc[3], duc[9];
    if (!fluid(ctx, pv, uc, duc)) continue; /* a dry strip */
    DCross(w, c, wc);
    for (int i = 0; i < 3; ++i) vb[i] = motion ? da(da(v[i], wc[i]), dc(mod[i])) : da(v[i], wc[i]);
    DMatVec(R, vb, Vg);
    D u[3];
    for (int i = 0; i < 3; ++i) { /* u(p) - V, u to first order about the strip's centre */
      D ui = dc(uc[i]);
      for (int j = 0; j < 3; ++j) ui = da(ui, dk(ds(p[j], dc(pv[j])), duc[3 * i + j]));
      u[i] = ds(ui, Vg[i]);
    }
    const D ut = DDot(u, t);
    D un[3];
    for (int i = 0; i < 3; ++i) un[i] = ds(u[i], dm(ut, t[i]));
    const D mag = PlDualSqrt(da(DDot(un, un), dc(1e-8)));
    const double coef = 0.5 * rho_w * H->Cd[k] * H->D[k] * H->len[k];
    D f[3], fb[3], m[3];
    for (int i = 0; i < 3; ++i) f[i] = dk(dm(mag, un[i]), coef);
    DMatTVec(R, f, fb);
    DCross(c, fb, m);
    for (int i = 0; i < 3; ++i) {
      T[i] = da(T[i], fb[i]);
      T[3 + i] = da(T[3 + i], m[i]);
    }
  }
  for (int i = 0; i < 6; ++i) {
    tau[i] = T[i].v;
    if (dtau_dy)
      for (int j = 0; j < n; ++j) dtau_dy[i * n + j] = T[i].d[j];
  }
  return 0;
}

int PlDenseSolveInPlace(int n, double *A, double *b)
{
  for (int k = 0; k < n; ++k) {
    int p = k;
    for (int i = k + 1; i < n; ++i)
      if (fabs(A[(size_t)i * n + k]) > fabs(A[(size_t)p * n + k])) p = i;
    if (!(fabs(A[(size_t)p * n + k]) > 0.0)) return 1;
    if (p != k) {
      for (int j = 0; j < n; ++j) {
        const double t = A[(size_t)k * n + j];
        A[(size_t)k * n + j] = A[(size_t)p * n + j];
        A[(size_t)p * n + j] = t;
      }
      const double t = b[k];
      b[k] = b[p];
      b[p] = t;
    }
    for (int i = k + 1; i < n; ++i) {
      const double f = A[(size_t)i * n + k] / A[(size_t)k * n + k];
      if (f == 0.0) continue;
      for (int j = k; j < n; ++j) A[(size_t)i * n + j] -= f * A[(size_t)k * n + j];
      b[i] -= f * b[k];
    }
  }
  for (int k = n - 1; k >= 0; --k) {
    double sum = b[k];
    for (int j = k + 1; j < n; ++j) sum -= A[(size_t)k * n + j] * b[j];
    b[k] = sum / A[(size_t)k * n + k];
  }
  return 0;
}

int PlSolveDense(int n, const double *A_in, const double *b, double *x)
{
  double A[PL_DENSE_MAX * PL_DENSE_MAX];
  if (n < 1 || n > PL_DENSE_MAX) return 1;
  memcpy(A, A_in, sizeof(double) * n * n);
  memcpy(x, b, sizeof(double) * n);
  return PlDenseSolveInPlace(n, A, x);
}

int PlVesselConsistentRate(const PlVessel *V, const double y[PL_VESSEL_NY], const double tau_body[6],
                           const double load_global[6], double yp[PL_VESSEL_NY])
{
  double q[4], Rm[9];
  const double *v = y + PL_VESSEL_V, *w = y + PL_VESSEL_W;
  const double n = sqrt(y[3] * y[3] + y[4] * y[4] + y[5] * y[5] + y[6] * y[6]);
  if (!(n > 0.0)) return 1;
  for (int i = 0; i < 4; ++i) q[i] = y[3 + i] / n;
  PlQuatToMatrix(q, Rm);
  for (int i = 0; i < 3; ++i) yp[i] = Rm[3 * i] * v[0] + Rm[3 * i + 1] * v[1] + Rm[3 * i + 2] * v[2];
  /* qdot = E(q) w / 2 (for the given, unit q) */
  const double *qv = y + 4;
  yp[3] = -0.5 * (qv[0] * w[0] + qv[1] * w[1] + qv[2] * w[2]);
  const double cx[3] = {qv[1] * w[2] - qv[2] * w[1], qv[2] * w[0] - qv[0] * w[2], qv[0] * w[1] - qv[1] * w[0]};
  for (int i = 0; i < 3; ++i) yp[4 + i] = 0.5 * (y[3] * w[i] + cx[i]);
  /* nudot from the Newton-Euler rows: M nudot = -(rows at nudot = 0) */
  double r[PL_VESSEL_NY], M[36], b[6], x[6];
  for (int i = 0; i < 6; ++i) yp[PL_VESSEL_V + i] = 0.0;
  if (PlVesselDynamics(V, y, yp, 0.0, tau_body, load_global, r, NULL)) return 1;
  for (int i = 0; i < 36; ++i) M[i] = V->MRB[i] + V->MA[i];
  for (int i = 0; i < 6; ++i) b[i] = -r[PL_VESSEL_V + i];
  if (PlSolveDense(6, M, b, x)) return 1;
  for (int i = 0; i < 6; ++i) yp[PL_VESSEL_V + i] = x[i];
  return 0;
}

void PlVesselEquivalentBox(const PlVessel *V, double dims[3])
{
  const double m = V->MRB[0], I[3] = {V->MRB[21], V->MRB[28], V->MRB[35]};
  double longest = 0.0;
  for (int i = 0; i < 3; ++i) {
    const double e2 = m > 0.0 ? 6.0 * (I[(i + 1) % 3] + I[(i + 2) % 3] - I[i]) / m : 0.0;
    dims[i] = e2 > 0.0 ? sqrt(e2) : 0.0;
    longest = fmax(longest, dims[i]);
  }
  if (!(longest > 0.0)) longest = 1.0;
  for (int i = 0; i < 3; ++i)
    if (!(dims[i] > 1e-3 * longest)) dims[i] = 1e-3 * longest;
}

double PlVesselKineticEnergy(const PlVessel *V, const double y[PL_VESSEL_NY])
{
  const double *nu = y + PL_VESSEL_V;
  double T = 0.0;
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) T += 0.5 * nu[i] * (V->MRB[6 * i + j] + V->MA[6 * i + j]) * nu[j];
  return T;
}

double PlVesselPotentialEnergy(const PlVessel *V, const double y[PL_VESSEL_NY])
{
  double q[4], Rm[9];
  const double n = sqrt(y[3] * y[3] + y[4] * y[4] + y[5] * y[5] + y[6] * y[6]);
  for (int i = 0; i < 4; ++i) q[i] = y[3 + i] / n;
  PlQuatToMatrix(q, Rm);
  const double k1 = Rm[6], k2 = Rm[7], dz = y[2] - V->z_eq;
  double U = 0.5 * V->Awp * V->rho_w * V->gravity * dz * dz;
  if (V->wall_sided) { /* the wall-sided law */
    const double k3 = Rm[8];
    U += V->displacement * V->gravity * (V->GM_L * (1.0 - k3) + 0.5 * V->BM * (1.0 / k3 + k3 - 2.0));
  } else
    U += 0.5 * V->displacement * V->gravity * (V->GM_L * k1 * k1 + V->GM_T * k2 * k2);
  U += V->weight_mass * V->gravity * (y[2] + Rm[6] * V->r_g[0] + Rm[7] * V->r_g[1] + Rm[8] * V->r_g[2]);
  const double d[3] = {y[0] - V->r_anchor[0], y[1] - V->r_anchor[1], y[2] - V->r_anchor[2]};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) U += 0.5 * d[i] * V->K_spring[3 * i + j] * d[j];
  if (V->K_yaw != 0.0) {
    const double dpsi = remainder(atan2(Rm[3], Rm[0]) - V->psi_rest, 2.0 * kPi);
    U += 0.5 * V->K_yaw * dpsi * dpsi;
  }
  return U;
}

void PlVesselPower(const PlVessel *V, const double y[PL_VESSEL_NY], const double tau_body[6],
                   const double load_global[6], double *p_loads, double *p_damping)
{
  const double *nu = y + PL_VESSEL_V;
  double q[4], Rm[9], pl = 0.0, pd = 0.0;
  const double n = sqrt(y[3] * y[3] + y[4] * y[4] + y[5] * y[5] + y[6] * y[6]);
  for (int i = 0; i < 4; ++i) q[i] = y[3 + i] / n;
  PlQuatToMatrix(q, Rm);
  for (int i = 0; i < 6; ++i) {
    double t = tau_body ? tau_body[i] : 0.0;
    if (load_global) /* (R^T g)_i of the force (i < 3) or the moment (i >= 3) */
      for (int k = 0; k < 3; ++k) t += Rm[3 * k + i % 3] * load_global[3 * (i / 3) + k];
    pl += nu[i] * t;
    for (int j = 0; j < 6; ++j) pd += nu[i] * V->Dp[6 * i + j] * nu[j];
    pd += V->Dq[i] * fabs(nu[i]) * nu[i] * nu[i];
  }
  *p_loads = pl;
  *p_damping = pd;
}

void PlVesselEulerZYX(const double q_in[4], double rpy[3])
{
  double q[4], Rm[9];
  const double n = sqrt(q_in[0] * q_in[0] + q_in[1] * q_in[1] + q_in[2] * q_in[2] + q_in[3] * q_in[3]);
  for (int i = 0; i < 4; ++i) q[i] = q_in[i] / n;
  PlQuatToMatrix(q, Rm);
  /* R = Rz(psi) Ry(theta) Rx(phi): R20 = -s theta, R21 = c theta s phi, R22 = c theta c phi,
   * R10 = c theta s psi, R00 = c theta c psi */
  rpy[0] = atan2(Rm[7], Rm[8]);
  rpy[1] = atan2(-Rm[6], sqrt(Rm[7] * Rm[7] + Rm[8] * Rm[8]));
  rpy[2] = atan2(Rm[3], Rm[0]);
}

void PlVesselQuatFromEulerZYX(const double rpy[3], double q[4])
{
  const double cr = cos(0.5 * rpy[0]), sr = sin(0.5 * rpy[0]);
  const double cp = cos(0.5 * rpy[1]), sp = sin(0.5 * rpy[1]);
  const double cy = cos(0.5 * rpy[2]), sy = sin(0.5 * rpy[2]);
  /* qz(psi) (x) qy(theta) (x) qx(phi) */
  q[0] = cy * cp * cr + sy * sp * sr;
  q[1] = cy * cp * sr - sy * sp * cr;
  q[2] = cy * sp * cr + sy * cp * sr;
  q[3] = sy * cp * cr - cy * sp * sr;
}

void PlVesselOwnRestoring(const PlVessel *V, int own[6])
{
  const int hydro[6] = {0, 0, V->Awp > 0.0, V->displacement > 0.0 && V->GM_T != 0.0,
                        V->displacement > 0.0 && V->GM_L != 0.0, V->K_yaw > 0.0};
  for (int i = 0; i < 6; ++i)
    own[i] = hydro[i] ||
             (i < 3 && (V->K_spring[3 * i] != 0.0 || V->K_spring[3 * i + 1] != 0.0 || V->K_spring[3 * i + 2] != 0.0));
}

void PlVesselEta(const double y[PL_VESSEL_NY], double eta[6], double *deta_dy)
{
  D Q[4], Rm[9];
  for (int i = 0; i < 4; ++i) {
    Q[i] = dc(y[3 + i]);
    if (deta_dy) Q[i].d[i] = 1.0;
  }
  DQuatToMatrix(Q, Rm);
  const D phi = PlDualAtan2(Rm[7], Rm[8]);
  const D th = PlDualAtan2(PlDualNeg(Rm[6]), PlDualSqrt(da(dm(Rm[7], Rm[7]), dm(Rm[8], Rm[8]))));
  const D psi = PlDualAtan2(Rm[3], Rm[0]);
  for (int i = 0; i < 3; ++i) eta[i] = y[i];
  eta[3] = phi.v;
  eta[4] = th.v;
  eta[5] = psi.v;
  if (!deta_dy) return;
  memset(deta_dy, 0, sizeof(double) * 6 * PL_VESSEL_NY);
  for (int i = 0; i < 3; ++i) deta_dy[i * PL_VESSEL_NY + i] = 1.0;
  const D *ang[3] = {&phi, &th, &psi};
  for (int a = 0; a < 3; ++a)
    for (int k = 0; k < 4; ++k) deta_dy[(3 + a) * PL_VESSEL_NY + PL_VESSEL_Q + k] = ang[a]->d[k];
}

/* ---- the hang-off joint between the vessel and the top node of a rod -------------------------
 * P = r + R a is the hang-off point (a in the body frame); the top node sits on it with the
 * velocity of that body point, v_P = R (v + w x a) (Rdot = R S(w), w in the body frame):
 *   g = [x_P - r - R a ; v_P - R (v + w x a)] = 0.
 * A point that moves in the body frame (a(t), a body's RAO motion: pipelay/rao.h) adds its rate
 * there: v_P = R (v + w x a + a'), a' a function of time alone.
 * Newton's third law (eq 5.66): the top node's unconstrained momentum residual is the
 * force f (global) and moment m (in the node's frame) that the vessel must supply; the
 * vessel receives their opposite, so its Newton-Euler rows (which carry -tau_body) get
 *   + [R^T f ; a x (R^T f) + T m],
 * T = R_t^b the node frame in the body frame (a fixed connection; m = 0 through a hinge). */
int PlVesselJointKinematics(const double yv[PL_VESSEL_NY], const double a[3], const double xP[3], const double vP[3],
                            double g[6], double *dg_dyv)
{
  return PlVesselJointKinematicsMoving(yv, a, NULL, xP, vP, g, dg_dyv);
}

int PlVesselJointKinematicsMoving(const double yv[PL_VESSEL_NY], const double a[3], const double adot[3],
                                  const double xP[3], const double vP[3], double g[6], double *dg_dyv)
{
  enum { n = PL_VESSEL_NY };
  D Y[n];
  for (int j = 0; j < n; ++j) {
    Y[j] = dc(yv[j]);
    if (dg_dyv) Seed(&Y[j], j, 1.0);
  }
  const D *r = Y, *q = Y + PL_VESSEL_Q, *v = Y + PL_VESSEL_V, *w = Y + PL_VESSEL_W;
  if (!(yv[3] * yv[3] + yv[4] * yv[4] + yv[5] * yv[5] + yv[6] * yv[6] > 1e-8)) return 1;
  D R[9], A[3], Ra[3], wa[3], vp[3], Rvp[3];
  DQuatToMatrix(q, R);
  for (int i = 0; i < 3; ++i) A[i] = dc(a[i]);
  DMatVec(R, A, Ra);
  DCross(w, A, wa);
  for (int i = 0; i < 3; ++i) vp[i] = da(v[i], wa[i]);
  if (adot)
    for (int i = 0; i < 3; ++i) vp[i].v += adot[i]; /* a constant of the state: no derivative */
  DMatVec(R, vp, Rvp);
  D G[6];
  for (int i = 0; i < 3; ++i) {
    G[i] = ds(dc(xP[i]), da(r[i], Ra[i]));
    G[3 + i] = ds(dc(vP[i]), Rvp[i]);
  }
  for (int i = 0; i < 6; ++i) {
    g[i] = G[i].v;
    if (dg_dyv)
      for (int j = 0; j < n; ++j) dg_dyv[i * n + j] = j < PL_DUAL_N ? G[i].d[j] : 0.0;
  }
  return 0;
}

void PlVesselJointLoad(const double yv[PL_VESSEL_NY], const double a[3], const double *T, const double f[3],
                       const double m[3], double tau[6], double *dtau_dyv, double dtau_df[18], double dtau_dm[18])
{
  enum { n = PL_VESSEL_NY };
  D q[4], R[9], F[3], Rf[3], A[3], arf[3];
  for (int k = 0; k < 4; ++k) {
    q[k] = dc(yv[PL_VESSEL_Q + k]);
    if (dtau_dyv) Seed(&q[k], PL_VESSEL_Q + k, 1.0);
  }
  DQuatToMatrix(q, R);
  for (int i = 0; i < 3; ++i) {
    F[i] = dc(f[i]);
    A[i] = dc(a[i]);
  }
  DMatTVec(R, F, Rf);
  DCross(A, Rf, arf);
  for (int i = 0; i < 3; ++i) {
    double tm = 0.0;
    if (T)
      for (int k = 0; k < 3; ++k) tm += T[3 * i + k] * m[k];
    tau[i] = Rf[i].v;
    tau[3 + i] = arf[i].v + tm;
    if (dtau_dyv)
      for (int j = 0; j < n; ++j) {
        dtau_dyv[i * n + j] = j < PL_DUAL_N ? Rf[i].d[j] : 0.0;
        dtau_dyv[(3 + i) * n + j] = j < PL_DUAL_N ? arf[i].d[j] : 0.0;
      }
  }
  /* linear in f and m: d(R^T f)/df = R^T, d(a x R^T f)/df = S(a) R^T, d(T m)/dm = T */
  double Rv[9];
  for (int k = 0; k < 9; ++k) Rv[k] = R[k].v;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      dtau_df[i * 3 + j] = Rv[3 * j + i];
      const int i1 = (i + 1) % 3, i2 = (i + 2) % 3; /* (a x b)_i = a_i1 b_i2 - a_i2 b_i1 */
      dtau_df[(3 + i) * 3 + j] = a[i1] * Rv[3 * j + i2] - a[i2] * Rv[3 * j + i1];
      dtau_dm[i * 3 + j] = 0.0;
      dtau_dm[(3 + i) * 3 + j] = T ? T[3 * i + j] : 0.0;
    }
}
