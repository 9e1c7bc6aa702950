/*
 * friction.c - Coulomb friction between the pipe and the seabed, elastic-slip (seabed.friction).
 *
 * The pipe-soil friction of DNV-RP-F114 as a hyperelastic spring to an anchor: the slip
 * u = x - a of the pipe's point x from its anchor a (where it lies as laid), resolved in the
 * seabed's tangent plane along the pipe (e_a, the chord's projection) and across it
 * (e_l = n x e_a), u_a = u.e_a, u_l = u.e_l, gives the friction force per unit normal force
 * phi (N the seabed's force, P = int N ds over the part of the pipe the anchor holds; the
 * force on that part is P phi). The law is built from its complementary energy, so that it is
 * conservative (a closed slip path does no work) for any mobilisation distances delta_a,
 * delta_l and coefficients mu_a, mu_l, with the elliptic capacity (phi_a/mu_a)^2 + (phi_l/mu_l)^2
 * < 1 and the small-slip springs mu_a/delta_a, mu_l/delta_l.
 *
 * Complementary energy. Write f = -phi (the force the spring takes, pointing along the slip;
 * f_a = f.e_a, f_l = f.e_l), q = (f_a/mu_a)^2 + (f_l/mu_l)^2 < 1 (the capacity ellipse), and
 *   psi_c(f) = (1/2) sum_i d_i f_i^2 + c B(q),   B(q) = 2 r atanh(r) + log(1 - r^2),  r = sqrt(q),
 *   c = (1/2) min(mu_a delta_a, mu_l delta_l),   d_i = (mu_i delta_i - 2c)/mu_i^2 >= 0,
 * with B'(q) = A(q) = atanh(r)/r = 1 + q/3 + q^2/5 + ... (>= 1, increasing, infinite at q = 1).
 * The slip is its gradient,
 *   u_i = dpsi_c/df_i = (d_i + (2c/mu_i^2) A(q)) f_i =: D_i(q) f_i.
 * psi_c is strictly convex (the Hessian below is diag(D) plus a positive rank-one term) and
 * infinite on the ellipse, so its conjugate Psi(u) = f.u - psi_c(f) is convex and C^1 on the
 * whole plane, grad Psi = f = -phi (the law is conservative: phi = -grad Psi), and u -> f maps
 * onto the open ellipse: the capacities are mu_a, mu_l with elliptic interaction. Properties:
 *   - small slips: D_i(0) = d_i + 2c/mu_i^2 = delta_i/mu_i, so the springs are mu_i/delta_i
 *     (the law's Hessian at 0 is diag(mu_a/delta_a, mu_l/delta_l));
 *   - along the axis with the smaller mu delta (d = 0; usually the axial one) u_i = delta_i
 *     atanh(f_i/mu_i): the load f_i is held with the slip delta atanh(f_i/mu_i) (a straight
 *     rigid pipe under an axial pull F: u_a/delta_a = atanh(F/(mu_a P)), the closed form the
 *     tests use);
 *   - along the other axis, with eps = mu_a delta_a/(mu_l delta_l) (or its inverse, < 1),
 *     u_l/delta_l = (1 - eps) r + eps atanh(r), r = f_l/mu_l: nearly bilinear, elastic to
 *     about the capacity and then perfectly plastic (the mobilisation curve of DNV-RP-F114);
 *   - mu_a delta_a = mu_l delta_l (= 2c = k): d = 0, D_i = (delta_i/mu_i) A, and with
 *     xi = u_a/delta_a, eta = u_l/delta_l, rho = |(xi, eta)| the solution below is s = rho:
 *     f = (tanh(rho)/rho) (mu_a xi e_a + mu_l eta e_l), Psi = k log cosh(rho), the tanh law.
 *
 * Evaluation (PlFrictionSaturated). In s = atanh(r) >= 0 (r = tanh s, A = s/tanh s; r is the
 * utilisation, the force's elliptic norm; s the scaled slip returned as rho: the slip over
 * delta along the small-mu-delta axis, and the old rho = |(xi, eta)| in the equal case) the
 * condition q = r^2 with f_i = u_i/D_i(s) reads
 *   h(s) = tanh(s) - R(s) = 0,   R(s) = |(u_a/(mu_a D_a(s)), u_l/(mu_l D_l(s)))|,
 * tanh increasing, R decreasing (D_i increases with A): one root. It lies between
 * rho = |(u_a/delta_a, u_l/delta_l)| (as D_i <= (delta_i/mu_i) A, R(rho) >= rho/A(rho) =
 * tanh(rho), so h(rho) <= 0) and s_hi = |(mu_a u_a, mu_l u_l)|/(2c) (as D_i >= (2c/mu_i^2) A,
 * tanh(s) <= R(s) <= s_hi/A(s) gives s <= s_hi), and atanh(rho) when rho < 1 (R <= rho). A
 * safeguarded Newton iteration (bisection when a step leaves the bracket) from s = rho finds
 * it, with h'(s) = sech^2(s) - R'(s), R' = -(1/R) sum_i v_i^2 (2c/mu_i^2) A_s/D_i,
 * v_i = u_i/(mu_i D_i), A_s = dA/ds = (tanh s - s sech^2 s)/tanh^2 s. Everything is written in
 * s: s up to thousands (a lateral slip of 100 delta_l with eps = 0.04 gives s ~ 2500; statics'
 * Newton iterates go far out) needs no cosh(s), and 1 - r^2 = sech^2 s is never formed by
 * subtraction (sech^2 s = 4 e^(-2s)/(1 + e^(-2s))^2). u = 0: s = 0, f = 0.
 *
 * Tangent (the Hessian of Psi, symmetric, and dphi/du = its negative). With g = grad q =
 * (2 f_i/mu_i^2) and A_q = dA/dq, du = (diag(D) + c A_q g g^T) df, whose inverse (Sherman-
 * Morrison) with gamma_j = g_j/D_j = 2 f_j/(mu_j^2 D_j) is
 *   df/du = diag(1/D) - kappa gamma gamma^T,   kappa = c A_q/(1 + c A_q sum_j gamma_j^2 D_j)
 *                                                    = c/(1/A_q + c sum_j gamma_j^2 D_j).
 * A_q = A_s/(dq/ds), dq/ds = 2 tanh(s) sech^2(s), grows like e^(2s): in the last form only
 *   1/A_q = 2 tanh^3(s) sech^2(s)/(tanh s - s sech^2 s)
 * appears, which tends to 0 (no overflow); for q < 0.01 (s < 0.1) the series A = sum_n
 * q^n/(2n + 1), A_q = sum_n n q^(n-1)/(2n + 1) = 1/3 + 2q/5 + 3q^2/7 + ... replace the forms in
 * s, which lose digits to cancellation there (tanh s - s sech^2 s = 2 s^3/3 + ...).
 *
 * Energy (PlFrictionPotential; the stored energy of a dynamic run, energy.csv). With
 * sum_i (2c/mu_i^2) f_i^2 = 2c q and 2 A q - B = -log(1 - q) = 2 log cosh s,
 *   Psi = f.u - psi_c(f) = sum_i D_i f_i^2 - (1/2) sum_i d_i f_i^2 - c B
 *       = (1/2) sum_i d_i f_i^2 + 2c log cosh(s),
 * a sum of positive terms (no cancellation; log cosh s = s + log1p(e^(-2s)) - log 2 for large
 * s, log1p(2 sinh^2(s/2)) otherwise), and grad Psi = f = -phi exactly. Along the small-mu-delta
 * axis Psi = mu delta log cosh(s); along the other (1/2) mu_l delta_l (1 - eps) r^2 + mu_a
 * delta_a log cosh(s). The dynamic run's friction is then a conservative spring plus the
 * anchors' slip (solver/line_dynamics.c): the non-conservative work it reports is zero up to
 * the normal force's change of the spring's energy.
 */
#include <float.h>
#include <math.h>
#include "pipelay/models.h"

void PlFrictionMobilisation(const PlModel *m, const PlSection *s, double *da, double *dl)
{
  *da = m->mobilisation_axial;
  *dl = m->mobilisation_lateral > 0.0 ? m->mobilisation_lateral : 0.1 * s->outer_diameter;
}

int PlFrictionFrame(const double t[3], const double n[3], double ea[3], double el[3])
{
  const double tn = t[0] * n[0] + t[1] * n[1] + t[2] * n[2];
  double a[3] = {t[0] - tn * n[0], t[1] - tn * n[1], t[2] - tn * n[2]};
  const double na = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
  if (!(na > 1e-12)) { /* the pipe stands on the seabed: any tangent pair */
    const double *h = fabs(n[0]) < 0.9 ? (const double[3]){1, 0, 0} : (const double[3]){0, 1, 0};
    const double hn = h[0] * n[0] + h[1] * n[1] + h[2] * n[2];
    for (int c = 0; c < 3; ++c) a[c] = h[c] - hn * n[c];
    const double nb = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    for (int c = 0; c < 3; ++c) ea[c] = a[c] / nb;
  } else
    for (int c = 0; c < 3; ++c) ea[c] = a[c] / na;
  el[0] = n[1] * ea[2] - n[2] * ea[1];
  el[1] = n[2] * ea[0] - n[0] * ea[2];
  el[2] = n[0] * ea[1] - n[1] * ea[0];
  return !(na > 1e-12);
}

/* The functions of s = atanh(r) the law needs: tanh s, sech^2 s, A = s/tanh s, A_s = dA/ds and
 * 1/A_q = (dq/ds)/A_s (0 at s = 0 is not reached: inv_Aq(0) = 3). */
typedef struct {
  double th, sech2, A, As, invAq;
} SFun;

static void SFunEval(double s, SFun *f)
{
  const double e2 = exp(-2.0 * s);
  f->th = tanh(s);
  f->sech2 = 4.0 * e2 / ((1.0 + e2) * (1.0 + e2));
  const double q = f->th * f->th;
  if (q < 0.01) { /* the series in q (tanh s - s sech^2 s cancels) */
    double A = 0.0, Aq = 0.0, qn = 1.0;
    for (int n = 0; n < 12; ++n) {
      A += qn / (2 * n + 1);
      if (n + 1 < 12) Aq += (n + 1) * qn / (2 * n + 3);
      qn *= q;
    }
    f->A = A;
    f->As = Aq * 2.0 * f->th * f->sech2;
    f->invAq = 1.0 / Aq;
  } else {
    const double num = f->th - s * f->sech2; /* tanh^2(s) A_s */
    f->A = s / f->th;
    f->As = num / q;
    f->invAq = 2.0 * q * f->th * f->sech2 / num;
  }
}

/* log cosh s, s >= 0, without overflow or cancellation */
static double LogCosh(double s)
{
  const double sh = sinh(0.5 * s); /* log(1 + 2 sinh^2(s/2)) */
  return s < 20.0 ? log1p(2.0 * sh * sh) : s + log1p(exp(-2.0 * s)) - log(2.0);
}

/* The law in the frame: slip (ua[0], ua[1]) = (u_a, u_l) -> the force along the slip f[2]
 * (f = -phi), s, the tangent T = df/du (2 x 2 row-major, may be NULL) and the energy Psi (may be
 * NULL); mu[2], dl[2] the coefficients and mobilisation distances. A zero coefficient leaves
 * its axis free (f = 0 along it) and the other one the 1-D law f = mu tanh(u/delta). */
static void Law2(const double mu[2], const double dl[2], const double ua[2], double f[2], double *s_out,
                 double T[4], double *psi)
{
  if (!(mu[0] > 0.0 && mu[1] > 0.0)) {
    const int j = mu[0] > 0.0 ? 0 : 1;
    const double s = mu[j] > 0.0 ? fabs(ua[j]) / dl[j] : 0.0, e2 = exp(-2.0 * s);
    f[j] = mu[j] > 0.0 ? mu[j] * tanh(ua[j] / dl[j]) : 0.0;
    f[1 - j] = 0.0;
    if (s_out) *s_out = s;
    if (T) {
      T[0] = T[1] = T[2] = T[3] = 0.0;
      T[3 * j] = mu[j] / dl[j] * 4.0 * e2 / ((1.0 + e2) * (1.0 + e2));
    }
    if (psi) *psi = mu[j] * dl[j] * LogCosh(s);
    return;
  }
  const double k0 = mu[0] * dl[0], k1 = mu[1] * dl[1], c = 0.5 * fmin(k0, k1);
  const double d[2] = {(k0 - 2.0 * c) / (mu[0] * mu[0]), (k1 - 2.0 * c) / (mu[1] * mu[1])};
  const double b[2] = {2.0 * c / (mu[0] * mu[0]), 2.0 * c / (mu[1] * mu[1])};
  const double rho = hypot(ua[0] / dl[0], ua[1] / dl[1]);
  SFun F;
  double s = 0.0, D[2];
  if (rho > 0.0) { /* the root of h(s) = tanh s - R(s) in [rho, s_hi], from rho (h <= 0) */
    double lo = rho, hi = hypot(mu[0] * ua[0], mu[1] * ua[1]) / (2.0 * c);
    if (rho < 1.0) hi = fmin(hi, atanh(rho));
    if (hi < lo) hi = lo;
    s = lo;
    for (int it = 0; it < 200; ++it) {
      SFunEval(s, &F);
      double R2 = 0.0, dR = 0.0; /* R^2 and R R' */
      for (int i = 0; i < 2; ++i) {
        D[i] = d[i] + b[i] * F.A;
        const double v = ua[i] / (mu[i] * D[i]);
        R2 += v * v;
        dR -= v * v * b[i] * F.As / D[i];
      }
      const double R = sqrt(R2), h = F.th - R, dh = F.sech2 - dR / R;
      if (h == 0.0) break;
      if (h < 0.0) lo = s;
      else hi = s;
      double sn = s - h / dh;
      if (!(sn >= lo && sn <= hi)) sn = 0.5 * (lo + hi); /* outside the bracket (or dh = 0): bisect */
      const double step = fabs(sn - s);
      s = sn;
      if (step <= 4.0 * DBL_EPSILON * s || hi - lo <= 4.0 * DBL_EPSILON * hi) break;
    }
  }
  SFunEval(s, &F);
  for (int i = 0; i < 2; ++i) {
    D[i] = d[i] + b[i] * F.A;
    f[i] = ua[i] / D[i];
  }
  if (s_out) *s_out = s;
  if (psi) *psi = 0.5 * (d[0] * f[0] * f[0] + d[1] * f[1] * f[1]) + 2.0 * c * LogCosh(s);
  if (!T) return;
  const double g[2] = {2.0 * f[0] / (mu[0] * mu[0] * D[0]), 2.0 * f[1] / (mu[1] * mu[1] * D[1])};
  const double kap = c / (F.invAq + c * (g[0] * g[0] * D[0] + g[1] * g[1] * D[1]));
  T[0] = 1.0 / D[0] - kap * g[0] * g[0];
  T[1] = T[2] = -kap * g[0] * g[1];
  T[3] = 1.0 / D[1] - kap * g[1] * g[1];
}

void PlFrictionSaturated(const PlModel *m, double da, double dl, const double ea[3], const double el[3],
                         const double u[3], double phi[3], double *dphi_du, double *rho_out)
{
  const double mu[2] = {m->friction_axial, m->friction_lateral}, de[2] = {da, dl};
  const double ua[2] = {u[0] * ea[0] + u[1] * ea[1] + u[2] * ea[2], u[0] * el[0] + u[1] * el[1] + u[2] * el[2]};
  double f[2], T[4];
  Law2(mu, de, ua, f, rho_out, dphi_du ? T : NULL, NULL);
  for (int c = 0; c < 3; ++c) phi[c] = -(f[0] * ea[c] + f[1] * el[c]);
  if (!dphi_du) return;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      dphi_du[3 * i + j] = -(ea[i] * (T[0] * ea[j] + T[1] * el[j]) + el[i] * (T[2] * ea[j] + T[3] * el[j]));
}

void PlFrictionPotential(const PlModel *m, double da, double dl, const double ea[3], const double el[3],
                         const double u[3], double *psi, double grad[3])
{
  const double mu[2] = {m->friction_axial, m->friction_lateral}, de[2] = {da, dl};
  const double ua[2] = {u[0] * ea[0] + u[1] * ea[1] + u[2] * ea[2], u[0] * el[0] + u[1] * el[1] + u[2] * el[2]};
  double f[2];
  Law2(mu, de, ua, f, NULL, NULL, psi);
  if (!grad) return;
  for (int k = 0; k < 3; ++k) grad[k] = f[0] * ea[k] + f[1] * el[k];
}
