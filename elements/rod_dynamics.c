/*
 * rod_dynamics.c - the dynamic kernels with 14 derivative directions (iteration matrices),
 * the plain helper functions, and the public entry points, which use the cheap
 * one-direction instance (rod_dynamics_val.c) when no derivative is asked for. The
 * formulation is in the banner of rod_dynamics_kernel.inc.
 */
#define PL_DUAL_N 14
#define KFN(name) PlDyn##name##_jac
#define PL_DYN_COMMON
#include "rod_dynamics_kernel.inc"

void PlNodeDynamics(const PlNodeInertia *ni, PlParamKind kind, const double q0[4],
                    const double *y, const double *yp, double c, const double M_global[3],
                    double *r, double *K)
{
  if (K) PlDynNodeDynamics_jac(ni, kind, q0, y, yp, c, M_global, r, K);
  else PlDynNodeDynamics_val(ni, kind, q0, y, yp, c, M_global, r, NULL);
}

void PlNodeMapParamForce(PlParamKind kind, const double *p, const double *r_p, double m[3],
                         double *dm_dp)
{
  if (dm_dp) PlDynMapParamForce_jac(kind, p, r_p, m, dm_dp);
  else PlDynMapParamForce_val(kind, p, r_p, m, NULL);
}

/* The Morison loads' iteration matrix K (6 x 12, row-major: rows the loads on A then B, columns
 * x_A, v_A, x_B, v_B; a velocity column carries dF/dv + c dF/da), derived by hand from the
 * kernel's formulas (rod_dynamics_kernel.inc, Morison), for which it is checked against the
 * forward-mode differentiation of that kernel (PlRodElementMorisonAD, tests/test_rod.c).
 * Chord C = x_B - x_A, l = |C|, t = C/l, P = (I - t t^T)/l, so dt = s_b P dx_b (s_A = -1,
 * s_B = 1). At a Gauss point of weights N: v_r = N_A v_A + N_B v_B - v_c(z) with
 * z = N_A z_A + N_B z_B, v_t = v_r.t, v_n = v_r - v_t t, |v_n|_e = sqrt(v_n.v_n + e^2):
 *   dv_r = N_b dv_b - v_c' N_b dz_b,   dv_t = t.dv_r + s_b v_r^T P dx_b,
 *   dv_n = dv_r - t dv_t - v_t s_b P dx_b,
 *   d(|v_n|_e v_n) = (v_n v_n^T/|v_n|_e + |v_n|_e I) dv_n,
 *   d(a_t v_t t) = (v_t^2/a_t + a_t) t dv_t + a_t v_t s_b P dx_b   (a_t = sqrt(v_t^2 + 1e-8)),
 * and the load on node a is + L/2 N_a k_d (C_dn |v_n|_e v_n + C_dt a_t v_t t), k_d = rho d_h/2.
 * Added mass on node a: m_a (C_an (A_a - (A_a.t) t) + C_at (A_a.t) t), whose derivatives are
 * m_a (C_an (I - t t^T) + C_at t t^T) in A_a and m_a (C_at - C_an) s_b (t A_a^T + (A_a.t) I) P
 * in x_b. */
static void MorisonTangent(const PlMorison *h, const double *yA, const double *ypA, const double *yB,
                           const double *ypB, int iV, const double vc[2][3], const double dvc_dz[2][3], double c,
                           double *K)
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
  const double kd = 0.5 * h->rho_w * h->d_h;
  if (h->Cdn > 0.0 || h->Cdt > 0.0)
    for (int q = 0; q < 2; ++q) {
      const double N[2] = {1.0 - xi[q], xi[q]};
      double vr[3], vn[3], vt = 0.0, nn = 1e-8;
      for (int i = 0; i < 3; ++i) {
        vr[i] = N[0] * ys[0][iV + i] + N[1] * ys[1][iV + i] - vc[q][i];
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
      double ct = 0.0, vP[3]; /* t.v_c', v_r^T P */
      for (int i = 0; i < 3; ++i) {
        ct += t[i] * dvc_dz[q][i];
        vP[i] = vr[0] * P[i] + vr[1] * P[3 + i] + vr[2] * P[6 + i];
      }
      for (int b = 0; b < 2; ++b) {
        /* the Gauss point's drag force per length (before its weights) in node b's unknowns:
         * C_dn Dn (dv_r - t dv_t - v_t dt) + C_dt (gt t dv_t + a_t v_t dt) */
        double Fx[9], Fv[9];
        for (int j = 0; j < 3; ++j) {
          /* column j of x_b: dv_r = -v_c' N_b [j = z], dv_t = t.dv_r + s_b vP_j, dt = s_b P e_j */
          double dvr[3], dvn[3];
          for (int i = 0; i < 3; ++i) dvr[i] = j == 2 ? -dvc_dz[q][i] * N[b] : 0.0;
          const double dvt = (j == 2 ? -ct * N[b] : 0.0) + sgn[b] * vP[j];
          for (int i = 0; i < 3; ++i) dvn[i] = dvr[i] - t[i] * dvt - vt * sgn[b] * P[3 * i + j];
          for (int i = 0; i < 3; ++i) {
            double v = 0.0;
            for (int k = 0; k < 3; ++k) v += Dn[3 * i + k] * dvn[k];
            Fx[3 * i + j] = h->Cdn * v + h->Cdt * (gt * t[i] * dvt + at * vt * sgn[b] * P[3 * i + j]);
          }
          /* column j of v_b: dv_r = N_b e_j, dv_t = N_b t_j, dv_n = N_b (e_j - t t_j) */
          for (int i = 0; i < 3; ++i) {
            double v = 0.0;
            for (int k = 0; k < 3; ++k) v += Dn[3 * i + k] * N[b] * ((k == j) - t[k] * t[j]);
            Fv[3 * i + j] = h->Cdn * v + h->Cdt * gt * t[i] * N[b] * t[j];
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
  if (h->Can > 0.0 || h->Cat > 0.0) {
    const double ma = 0.5 * L * h->rho_w * kPi * h->d_h * h->d_h / 4.0;
    for (int a = 0; a < 2; ++a) {
      const double *A = yps[a] + iV;
      const double at = A[0] * t[0] + A[1] * t[1] + A[2] * t[2];
      double AP[3]; /* A^T P */
      for (int j = 0; j < 3; ++j) AP[j] = A[0] * P[j] + A[1] * P[3 + j] + A[2] * P[6 + j];
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          KV(a, i, a, j) += c * ma * (h->Can * ((i == j) - t[i] * t[j]) + h->Cat * t[i] * t[j]);
          const double dx = ma * (h->Cat - h->Can) * (t[i] * AP[j] + at * P[3 * i + j]);
          for (int b = 0; b < 2; ++b) KX(a, i, b, j) += sgn[b] * dx;
        }
    }
  }
#undef KX
#undef KV
}

void PlRodElementMorison(const PlMorison *h, const double *yA, const double *ypA, const double *yB,
                         const double *ypB, int iV, const double vc[2][3], const double dvc_dz[2][3],
                         double c, double f[6], double *K)
{
  PlDynMorison_val(h, yA, ypA, yB, ypB, iV, vc, dvc_dz, c, f, NULL);
  if (K) MorisonTangent(h, yA, ypA, yB, ypB, iV, vc, dvc_dz, c, K);
}

void PlRodElementMorisonAD(const PlMorison *h, const double *yA, const double *ypA, const double *yB,
                           const double *ypB, int iV, const double vc[2][3], const double dvc_dz[2][3], double c,
                           double f[6], double *K)
{
  PlDynMorison_jac(h, yA, ypA, yB, ypB, iV, vc, dvc_dz, c, f, K);
}
