/*
 * rod_dynamics.c - the dynamic kernels with 14 derivative directions, the plain helper
 * functions, the hand-derived iteration matrices of the Morison loads and of a quaternion node
 * (checked against the dual-number kernels, kept as the *AD references), and the public entry
 * points, which use the plain instance (rod_dynamics_val.c) for the residuals. The formulation
 * is in the banner of rod_dynamics_kernel.inc.
 */
#define PL_DUAL_N 14
#define KFN(name) PlDyn##name##_jac
#define PL_DYN_COMMON
#include "rod_dynamics_kernel.inc"
#include "pipelay/models.h"

/* The iteration matrix K (13 x 13, row-major) of a quaternion node's own rows without a dead
 * moment, derived by hand from the kernel's formulas (rod_dynamics_kernel.inc, NodeDynamics),
 * for which it is checked against the forward-mode differentiation of that kernel
 * (PlNodeDynamicsAD, tests/test_rod.c). Unknowns u (0-2), p (3-6), v (7-9), w (10-12). With
 * E(p) a = (-p_v.a, p_0 a + p_v x a) and e = p_0 p'_v - p'_0 p_v - p_v x p'_v (E^T p'), the
 * rotation rows are E(p) b + p (|p|^2 - 1)/2 with b = e - w/2, so
 *   d/dp_k   = E(e_k) b + E(p) de/dp_k + e_k (|p|^2 - 1)/2 + p p_k,
 *              de/dp_0 = p'_v, de/dp_v = -p'_0 I + [p'_v]x (column j: -p'_0 e_j - e_j x p'_v),
 *   d/dp'_k  = E(p) de/dp'_k (times c), de/dp'_0 = -p_v, de/dp'_v = p_0 I - [p_v]x,
 *   d/dw     = -E(p)/2;
 * the kinematic rows u' - v: c I and -I; the linear momentum m v': c m I; the angular
 * momentum J w' + w x J w + D w: c J in w' and [w]x J - [J w]x + D in w. */
static void NodeTangentQuat(const PlNodeInertia *ni, const double *y, const double *yp, double c, double *K)
{
  enum { n = 13, P = 3, V = 7, W = 10 };
  const double *p = y + P, *pd = yp + P, *w = y + W;
  memset(K, 0, sizeof(double) * n * n);
  for (int i = 0; i < 3; ++i) {
    K[i * n + i] = c;
    K[i * n + V + i] = -1.0;
    K[(V + i) * n + V + i] = c * ni->mass;
  }
  double e[3], b[3], pdv[3] = {pd[1], pd[2], pd[3]}, pv[3] = {p[1], p[2], p[3]};
  const double nn = 0.5 * (p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3] - 1.0);
  e[0] = p[0] * pd[1] - pd[0] * p[1] - (p[2] * pd[3] - p[3] * pd[2]);
  e[1] = p[0] * pd[2] - pd[0] * p[2] - (p[3] * pd[1] - p[1] * pd[3]);
  e[2] = p[0] * pd[3] - pd[0] * p[3] - (p[1] * pd[2] - p[2] * pd[1]);
  for (int i = 0; i < 3; ++i) b[i] = e[i] - 0.5 * w[i];
  /* E(q) a into out[4], q of 4 */
#define EAPPLY(q, a, out)                                                                   \
  do {                                                                                      \
    (out)[0] = -((q)[1] * (a)[0] + (q)[2] * (a)[1] + (q)[3] * (a)[2]);                      \
    (out)[1] = (q)[0] * (a)[0] + (q)[2] * (a)[2] - (q)[3] * (a)[1];                         \
    (out)[2] = (q)[0] * (a)[1] + (q)[3] * (a)[0] - (q)[1] * (a)[2];                         \
    (out)[3] = (q)[0] * (a)[2] + (q)[1] * (a)[1] - (q)[2] * (a)[0];                         \
  } while (0)
  for (int k = 0; k < 4; ++k) {
    double ek[4] = {0, 0, 0, 0}, de[3], t1[4], t2[4], dep[3], t3[4];
    ek[k] = 1.0;
    EAPPLY(ek, b, t1);
    if (k == 0)
      for (int j = 0; j < 3; ++j) de[j] = pdv[j], dep[j] = -pv[j];
    else {
      const int m = k - 1;
      double ej[3] = {0, 0, 0}, x[3], y3[3];
      ej[m] = 1.0;
      /* e_j x p'_v and p_v x e_j */
      x[0] = ej[1] * pdv[2] - ej[2] * pdv[1], x[1] = ej[2] * pdv[0] - ej[0] * pdv[2], x[2] = ej[0] * pdv[1] - ej[1] * pdv[0];
      y3[0] = pv[1] * ej[2] - pv[2] * ej[1], y3[1] = pv[2] * ej[0] - pv[0] * ej[2], y3[2] = pv[0] * ej[1] - pv[1] * ej[0];
      for (int j = 0; j < 3; ++j) {
        de[j] = -pd[0] * ej[j] - x[j];
        dep[j] = p[0] * ej[j] - y3[j];
      }
    }
    EAPPLY(p, de, t2);
    EAPPLY(p, dep, t3);
    for (int i = 0; i < 4; ++i) K[(P + i) * n + P + k] = t1[i] + t2[i] + (i == k) * nn + p[i] * p[k] + c * t3[i];
  }
  for (int j = 0; j < 3; ++j) {
    double ej[3] = {0, 0, 0}, t[4];
    ej[j] = 1.0;
    EAPPLY(p, ej, t);
    for (int i = 0; i < 4; ++i) K[(P + i) * n + W + j] = -0.5 * t[i];
  }
#undef EAPPLY
  const double Jw[3] = {ni->J[0] * w[0], ni->J[1] * w[1], ni->J[2] * w[2]};
  for (int j = 0; j < 3; ++j) {
    /* d(w x J w)/dw_j = e_j x J w + w x J e_j */
    double ej[3] = {0, 0, 0}, Jej[3] = {0, 0, 0};
    ej[j] = 1.0;
    Jej[j] = ni->J[j];
    const double col[3] = {ej[1] * Jw[2] - ej[2] * Jw[1] + w[1] * Jej[2] - w[2] * Jej[1],
                           ej[2] * Jw[0] - ej[0] * Jw[2] + w[2] * Jej[0] - w[0] * Jej[2],
                           ej[0] * Jw[1] - ej[1] * Jw[0] + w[0] * Jej[1] - w[1] * Jej[0]};
    for (int i = 0; i < 3; ++i) K[(W + i) * n + W + j] = col[i] + (i == j) * (ni->D[j] + c * ni->J[j]);
  }
}

void PlNodeDynamics(const PlNodeInertia *ni, PlParamKind kind, const double q0[4],
                    const double *y, const double *yp, double c, const double M_global[3],
                    double *r, double *K)
{
  if (K && kind == PL_PARAM_QUATERNION && !M_global) { /* (an end's dead moment, Euler angles: dual numbers) */
    PlDynNodeDynamics_val(ni, kind, q0, y, yp, c, M_global, r, NULL);
    NodeTangentQuat(ni, y, yp, c, K);
  } else if (K)
    PlDynNodeDynamics_jac(ni, kind, q0, y, yp, c, M_global, r, K);
  else
    PlDynNodeDynamics_val(ni, kind, q0, y, yp, c, M_global, r, NULL);
}

void PlNodeDynamicsAD(const PlNodeInertia *ni, PlParamKind kind, const double q0[4], const double *y,
                      const double *yp, double c, const double M_global[3], double *r, double *K)
{
  PlDynNodeDynamics_jac(ni, kind, q0, y, yp, c, M_global, r, K);
}

void PlNodeMapParamForce(PlParamKind kind, const double *p, const double *r_p, double m[3],
                         double *dm_dp)
{
  if (dm_dp && kind == PL_PARAM_QUATERNION) {
    /* m = (p_0 r_v - r_0 p_v - p_v x r_v)/2: dm/dp_0 = r_v/2, dm/dp_v = (-r_0 I + [r_v]x)/2
     * (by hand; PlNodeMapParamForceAD the reference) */
    PlDynMapParamForce_val(kind, p, r_p, m, NULL);
    const double *rv = r_p + 1;
    const double X[9] = {0.0, -rv[2], rv[1], rv[2], 0.0, -rv[0], -rv[1], rv[0], 0.0};
    for (int i = 0; i < 3; ++i) {
      dm_dp[4 * i] = 0.5 * rv[i];
      for (int j = 0; j < 3; ++j) dm_dp[4 * i + 1 + j] = 0.5 * (X[3 * i + j] - (i == j) * r_p[0]);
    }
  } else if (dm_dp)
    PlDynMapParamForce_jac(kind, p, r_p, m, dm_dp);
  else
    PlDynMapParamForce_val(kind, p, r_p, m, NULL);
}

void PlNodeMapParamForceAD(PlParamKind kind, const double *p, const double *r_p, double m[3], double *dm_dp)
{
  PlDynMapParamForce_jac(kind, p, r_p, m, dm_dp);
}

/* The Morison loads' iteration matrix K (6 x 12, row-major: rows the loads on A then B, columns
 * x_A, v_A, x_B, v_B; a velocity column carries dF/dv + c dF/da), derived by hand from the
 * kernel's formulas (rod_dynamics_kernel.inc, Morison), for which it is checked against the
 * forward-mode differentiation of that kernel (PlRodElementMorisonAD, tests/test_rod.c).
 * Chord C = x_B - x_A, l = |C|, t = C/l, P = (I - t t^T)/l, so dt = s_b P dx_b (s_A = -1,
 * s_B = 1). At a Gauss point of weights N: v_r = N_A v_A + N_B v_B - u(x_q) with
 * x_q = N_A x_A + N_B x_B, v_t = v_r.t, v_n = v_r - v_t t, |v_n|_e = sqrt(v_n.v_n + e^2):
 *   dv_r = N_b dv_b - (du/dx) N_b dx_b,   dv_t = t.dv_r + s_b v_r^T P dx_b,
 *   dv_n = dv_r - t dv_t - v_t s_b P dx_b,
 *   d(|v_n|_e v_n) = (v_n v_n^T/|v_n|_e + |v_n|_e I) dv_n,
 *   d(a_t v_t t) = (v_t^2/a_t + a_t) t dv_t + a_t v_t s_b P dx_b   (a_t = sqrt(v_t^2 + 1e-8)),
 * and the load on node a is + L/2 N_a k_d (C_dn |v_n|_e v_n + C_dt a_t v_t t), k_d = rho d_h/2.
 * Added mass on node a: m_a (C_an (A_a - (A_a.t) t) + C_at (A_a.t) t), whose derivatives are
 * m_a (C_an (I - t t^T) + C_at t t^T) in A_a and m_a (C_at - C_an) s_b (t A_a^T + (A_a.t) I) P
 * in x_b. The fluid's inertia g_I at a Gauss point (rod_dynamics_kernel.inc) depends on x_b
 * through t and through the fluid's acceleration a_w(x_q) (below). The wetted fractions scale
 * the Gauss points' loads: g by
 * phi_q = phi(z_q - eta_q), which adds phi'(z_q - eta_q) N_b (e_z - grad eta_q) g to its
 * columns x_b, and node a's added-mass load h_a by phi(z_a), which adds phi'(z_a) h_a to its
 * column z_a. */
static void MorisonTangent(const PlMorison *h, const double *yA, const double *ypA, const double *yB,
                           const double *ypB, int iV, const PlFluidAt fl[2], double c, double *K)
{
  const double *ys[2] = {yA, yB}, *yps[2] = {ypA, ypB}, sgn[2] = {-1.0, 1.0};
  double t[3], P[9], len = 0.0;
  for (int i = 0; i < 3; ++i) {
    t[i] = yB[i] - yA[i];
    len += t[i] * t[i];
  }
  len = sqrt(len);
  for (int i = 0; i < 3; ++i) t[i] /= len;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) P[3 * i + j] = ((i == j) - t[i] * t[j]) / len;
  memset(K, 0, sizeof(double) * 72);
#define KX(a, i, b, j) K[(3 * (a) + (i)) * 12 + 6 * (b) + (j)]     /* d F_a,i / d x_b,j */
#define KV(a, i, b, j) K[(3 * (a) + (i)) * 12 + 6 * (b) + 3 + (j)] /* d F_a,i / d v_b,j (+ c d/da) */
  const double L = h->L, g = 0.5 / sqrt(3.0), xi[2] = {0.5 - g, 0.5 + g};
  const double kd = 0.5 * h->rho_w * h->d_h, dw = h->d_o > 0.0 ? h->d_o : h->d_h;
  const double mI = h->rho_w * kPi * h->d_h * h->d_h / 4.0;
  const int drag = h->Cdn > 0.0 || h->Cdt > 0.0;
  for (int q = 0; q < 2; ++q) {
    const int inertia = FluidAccelerates(&fl[q]);
    if (!drag && !inertia) continue;
    const double N[2] = {1.0 - xi[q], xi[q]};
    double phi, dphi;
    PlWetFraction(N[0] * yA[2] + N[1] * yB[2] - fl[q].eta, dw, &phi, &dphi);
    if (phi == 0.0) continue; /* in the air */
    /* d(z_q - eta_q)/dx_b,j = N_b dz[j] */
    const double dz[3] = {-fl[q].deta_dx[0], -fl[q].deta_dx[1], 1.0};
    if (drag) {
      const double *G = fl[q].du_dx;
      double vr[3], vn[3], vt = 0.0, nn = 1e-8;
      for (int i = 0; i < 3; ++i) {
        vr[i] = N[0] * ys[0][iV + i] + N[1] * ys[1][iV + i] - fl[q].u[i];
        vt += vr[i] * t[i];
      }
      for (int i = 0; i < 3; ++i) {
        vn[i] = vr[i] - vt * t[i];
        nn += vn[i] * vn[i];
      }
      nn = sqrt(nn);
      const double at = h->Cdt > 0.0 ? sqrt(vt * vt + 1e-8) : 0.0;
      const double gt = h->Cdt > 0.0 ? vt * vt / at + at : 0.0; /* d(a_t v_t)/dv_t */
      double Dn[9]; /* d(|v_n|_e v_n)/dv_n */
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) Dn[3 * i + j] = vn[i] * vn[j] / nn + (i == j) * nn;
      double ct[3], vP[3]; /* t^T du/dx (by column), v_r^T P */
      for (int j = 0; j < 3; ++j) {
        ct[j] = 0.0;
        for (int i = 0; i < 3; ++i) ct[j] += t[i] * G[3 * i + j];
        vP[j] = vr[0] * P[j] + vr[1] * P[3 + j] + vr[2] * P[6 + j];
      }
      double g[3]; /* the drag per length before its weights: C_dn |v_n|_e v_n + C_dt a_t v_t t */
      for (int i = 0; i < 3; ++i) g[i] = h->Cdn * nn * vn[i] + h->Cdt * at * vt * t[i];
      for (int b = 0; b < 2; ++b) {
        /* the Gauss point's drag force per length (before its weights) in node b's unknowns:
         * C_dn Dn (dv_r - t dv_t - v_t dt) + C_dt (gt t dv_t + a_t v_t dt), times phi_q, and
         * phi'(z_q - eta_q) N_b g in x_b */
        double Fx[9], Fv[9];
        for (int j = 0; j < 3; ++j) {
          /* column j of x_b: dv_r = -du/dx_j N_b, dv_t = t.dv_r + s_b vP_j, dt = s_b P e_j */
          double dvr[3], dvn[3];
          for (int i = 0; i < 3; ++i) dvr[i] = -G[3 * i + j] * N[b];
          const double dvt = -ct[j] * N[b] + sgn[b] * vP[j];
          for (int i = 0; i < 3; ++i) dvn[i] = dvr[i] - t[i] * dvt - vt * sgn[b] * P[3 * i + j];
          for (int i = 0; i < 3; ++i) {
            double v = 0.0;
            for (int k = 0; k < 3; ++k) v += Dn[3 * i + k] * dvn[k];
            Fx[3 * i + j] = phi * (h->Cdn * v + h->Cdt * (gt * t[i] * dvt + at * vt * sgn[b] * P[3 * i + j])) +
                            dphi * N[b] * dz[j] * g[i];
          }
          /* column j of v_b: dv_r = N_b e_j, dv_t = N_b t_j, dv_n = N_b (e_j - t t_j) */
          for (int i = 0; i < 3; ++i) {
            double v = 0.0;
            for (int k = 0; k < 3; ++k) v += Dn[3 * i + k] * N[b] * ((k == j) - t[k] * t[j]);
            Fv[3 * i + j] = phi * (h->Cdn * v + h->Cdt * gt * t[i] * N[b] * t[j]);
          }
        }
        for (int a = 0; a < 2; ++a) {
          const double w = 0.5 * L * N[a] * kd;
          for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) {
              KX(a, i, b, j) += w * Fx[3 * i + j];
              KV(a, i, b, j) += w * Fv[3 * i + j];
            }
        }
      }
    }
    if (inertia) {
      /* g_I = rho A [(1 + C_an)(a_w - (a_w.t) t) + C_at (a_w.t) t] (the force per length before phi
       * and the weights): through t, dg_I = rho A (C_at - 1 - C_an)(t a_w^T + (a_w.t) I) s_b P dx_b;
       * through a_w(x_q), M (da_w/dx) N_b dx_b with M = rho A [(1 + C_an)(I - t t^T) + C_at t t^T];
       * through phi, phi' N_b dz g_I; the residual takes -(L/2) N_a phi g_I */
      const double *aw = fl[q].a, *Ga = fl[q].da_dx;
      double MG[9]; /* M da_w/dx */
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          double tg = 0.0; /* t^T da_w/dx_j */
          for (int k = 0; k < 3; ++k) tg += t[k] * Ga[3 * k + j];
          MG[3 * i + j] = mI * ((1.0 + h->Can) * (Ga[3 * i + j] - t[i] * tg) + h->Cat * t[i] * tg);
        }
      const double awt = aw[0] * t[0] + aw[1] * t[1] + aw[2] * t[2];
      double aP[3], gI[3];
      for (int j = 0; j < 3; ++j) aP[j] = aw[0] * P[j] + aw[1] * P[3 + j] + aw[2] * P[6 + j];
      for (int i = 0; i < 3; ++i) gI[i] = mI * ((1.0 + h->Can) * (aw[i] - awt * t[i]) + h->Cat * awt * t[i]);
      const double kt = mI * (h->Cat - 1.0 - h->Can);
      for (int a = 0; a < 2; ++a) {
        const double w = 0.5 * L * N[a];
        for (int b = 0; b < 2; ++b)
          for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
              KX(a, i, b, j) -= w * (phi * (kt * sgn[b] * (t[i] * aP[j] + awt * P[3 * i + j]) + MG[3 * i + j] * N[b]) +
                                     dphi * N[b] * dz[j] * gI[i]);
      }
    }
  }
  if (h->Can > 0.0 || h->Cat > 0.0) {
    const double ma = 0.5 * L * h->rho_w * kPi * h->d_h * h->d_h / 4.0;
    for (int a = 0; a < 2; ++a) {
      double phi, dphi;
      PlWetFraction(ys[a][2], dw, &phi, &dphi);
      if (phi == 0.0) continue; /* in the air */
      const double *A = yps[a] + iV;
      const double at = A[0] * t[0] + A[1] * t[1] + A[2] * t[2];
      double AP[3]; /* A^T P */
      for (int j = 0; j < 3; ++j) AP[j] = A[0] * P[j] + A[1] * P[3 + j] + A[2] * P[6 + j];
      for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
          KV(a, i, a, j) += c * phi * ma * (h->Can * ((i == j) - t[i] * t[j]) + h->Cat * t[i] * t[j]);
          const double dx = phi * ma * (h->Cat - h->Can) * (t[i] * AP[j] + at * P[3 * i + j]);
          for (int b = 0; b < 2; ++b) KX(a, i, b, j) += sgn[b] * dx;
        }
        KX(a, i, a, 2) += dphi * ma * (h->Can * (A[i] - at * t[i]) + h->Cat * at * t[i]);
      }
    }
  }
#undef KX
#undef KV
}

void PlRodElementMorison(const PlMorison *h, const double *yA, const double *ypA, const double *yB,
                         const double *ypB, int iV, const PlFluidAt fl[2], double c, double f[6], double *K)
{
  PlDynMorison_val(h, yA, ypA, yB, ypB, iV, fl, c, f, NULL);
  if (K) MorisonTangent(h, yA, ypA, yB, ypB, iV, fl, c, K);
}

void PlRodElementMorisonAD(const PlMorison *h, const double *yA, const double *ypA, const double *yB,
                           const double *ypB, int iV, const PlFluidAt fl[2], double c, double f[6], double *K)
{
  PlDynMorison_jac(h, yA, ypA, yB, ypB, iV, fl, c, f, K);
}
