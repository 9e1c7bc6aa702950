/*
 * friction.c - Coulomb friction between the pipe and the seabed, elastic-slip (seabed.friction).
 *
 * The pipe-soil friction of DNV-RP-F114 as a spring to an anchor with a mobilisation distance:
 * the slip u = x - a of the pipe's point x from its anchor a (where it lies as laid), resolved
 * in the seabed's tangent plane along the pipe (e_a, the chord's projection) and across it
 * (e_l = n x e_a), scaled by the mobilisation distances,
 *   xi = u.e_a / delta_a,  eta = u.e_l / delta_l,  rho = |(xi, eta)|,
 * gives the friction force per unit normal force (N the seabed's force, P = int N ds over the
 * part of the pipe the anchor holds)
 *   phi = -g(rho) (mu_a xi e_a + mu_l eta e_l),   g(rho) = tanh(rho) / rho,
 * and the friction force F = P phi on that part. Small slips: the linear spring
 * k_a = mu_a P / delta_a along, k_l = mu_l P / delta_l across; any slip: the elliptic norm
 * (phi.e_a / mu_a)^2 + (phi.e_l / mu_l)^2 = tanh(rho)^2 < 1, so the force never exceeds the
 * capacities mu_a P axially and mu_l P laterally and tends to them as the slip grows: a smooth
 * (C-infinity) saturation, Newton-friendly, holding any load below the capacity with a slip
 * of delta atanh(load / capacity) (a straight rigid pipe under an axial pull F: xi =
 * atanh(F / (mu_a P)), the closed form the tests use) and having no equilibrium above it (the
 * pipe slides: a static analysis reports it). This is the static law, a spring to fixed anchors,
 * which is what a static analysis from the as-laid state needs (it is path-independent, i.e.
 * hyperelastic, only when mu_a delta_a = mu_l delta_l: the energy paragraph below); a dynamic
 * analysis moves the anchors (docs/design-laying.md, step 2).
 *
 * Derivative: with G = g'(rho)/rho (g' = (rho sech^2 rho - tanh rho)/rho^2; series near 0:
 * g = 1 - rho^2/3 + 2 rho^4/15, G = -2/3 + 8 rho^2/15),
 *   d(g xi)/dxi = g + G xi^2,  d(g xi)/deta = G xi eta,  d(g eta)/deta = g + G eta^2,
 * and dxi/du = e_a/delta_a, deta/du = e_l/delta_l.
 *
 * Energy (PlFrictionPotential; the energy balance of a dynamic run, energy.csv). In the
 * frame's coordinates (u_a, u_l) = (u.e_a, u.e_l) the law is f_a = -g mu_a u_a/delta_a,
 * f_l = -g mu_l u_l/delta_l, whose curl is
 *   df_a/du_l - df_l/du_a = -g'(rho)/rho u_a u_l (mu_a/(delta_a delta_l^2) - mu_l/(delta_l delta_a^2))
 *                         = -g'/rho u_a u_l (mu_a delta_a - mu_l delta_l) / (delta_a delta_l)^2:
 * with the anchor fixed the spring is conservative (hyperelastic) only when mu_a delta_a =
 * mu_l delta_l (= k); then phi = -grad(k log cosh rho), since d(log cosh rho)/du =
 * tanh(rho)/rho (xi e_a/delta_a + eta e_l/delta_l). Otherwise (the defaults: mu_l delta_l is
 * tens of times mu_a delta_a) the work of a closed slip path that turns is not zero: nothing
 * stores it. The stored energy taken is the work done along the straight path from the anchor,
 * u(s) = s u, s in [0, 1]:
 *   Psi(u) = -int_0^1 phi(s u).u ds = (mu_a delta_a xi^2 + mu_l delta_l eta^2) int_0^1 g(s rho) s ds
 *          = K(xi, eta) h(rho),   K = mu_a delta_a xi^2 + mu_l delta_l eta^2,  h = log cosh(rho)/rho^2
 * (int_0^1 tanh(s rho) s/(s rho) ds = log cosh(rho)/rho^2), which is the exact potential k log
 * cosh rho in the conservative case, the linear springs' (k_a u_a^2 + k_l u_l^2)/(2P) for small
 * slips, and exact along any radial path (a slip in a fixed direction: the tests' axial and
 * lateral drags). Its gradient, with h' = tanh(rho)/rho^2 - 2 log cosh(rho)/rho^3,
 *   dPsi/dxi = 2 mu_a delta_a xi h + K (h'/rho) xi,  dPsi/deta = 2 mu_l delta_l eta h + K (h'/rho) eta,
 *   grad_u Psi = dPsi/dxi e_a/delta_a + dPsi/deta e_l/delta_l
 * (series near 0: h = 1/2 - rho^2/12 + rho^4/45 - 17 rho^6/2520, h'/rho = -1/6 + 4 rho^2/45 -
 * 17 rho^4/420), differs from -phi by the law's non-conservative part, which the dynamic run
 * integrates as the friction's non-conservative work (solver/line_dynamics.c, DynFriction).
 */
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

void PlFrictionSaturated(const PlModel *m, double da, double dl, const double ea[3], const double el[3],
                         const double u[3], double phi[3], double *dphi_du, double *rho_out)
{
  const double mua = m->friction_axial, mul = m->friction_lateral;
  const double xi = (u[0] * ea[0] + u[1] * ea[1] + u[2] * ea[2]) / da;
  const double eta = (u[0] * el[0] + u[1] * el[1] + u[2] * el[2]) / dl;
  const double r2 = xi * xi + eta * eta, rho = sqrt(r2);
  double g, G;
  if (rho < 1e-3) {
    g = 1.0 - r2 / 3.0 + 2.0 * r2 * r2 / 15.0;
    G = -2.0 / 3.0 + 8.0 * r2 / 15.0;
  } else {
    const double th = tanh(rho), e2 = exp(-2.0 * rho), sech2 = 4.0 * e2 / ((1.0 + e2) * (1.0 + e2));
    g = th / rho;
    G = (rho * sech2 - th) / (r2 * rho);
  }
  if (rho_out) *rho_out = rho;
  for (int c = 0; c < 3; ++c) phi[c] = -g * (mua * xi * ea[c] + mul * eta * el[c]);
  if (!dphi_du) return;
  const double a11 = mua * (g + G * xi * xi), a12 = mua * G * xi * eta; /* d(mu_a g xi)/d(xi, eta) */
  const double a21 = mul * G * xi * eta, a22 = mul * (g + G * eta * eta);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      dphi_du[3 * i + j] = -(ea[i] * (a11 * ea[j] / da + a12 * el[j] / dl) + el[i] * (a21 * ea[j] / da + a22 * el[j] / dl));
}

void PlFrictionPotential(const PlModel *m, double da, double dl, const double ea[3], const double el[3],
                         const double u[3], double *psi, double grad[3])
{
  const double ka = m->friction_axial * da, kl = m->friction_lateral * dl; /* mu delta [m] */
  const double xi = (u[0] * ea[0] + u[1] * ea[1] + u[2] * ea[2]) / da;
  const double eta = (u[0] * el[0] + u[1] * el[1] + u[2] * el[2]) / dl;
  const double r2 = xi * xi + eta * eta, rho = sqrt(r2), K = ka * xi * xi + kl * eta * eta;
  double h, hr; /* h(rho) = log cosh(rho)/rho^2 and h'(rho)/rho */
  if (rho < 1e-2) {
    h = 0.5 - r2 / 12.0 + r2 * r2 / 45.0 - 17.0 * r2 * r2 * r2 / 2520.0;
    hr = -1.0 / 6.0 + 4.0 * r2 / 45.0 - 17.0 * r2 * r2 / 420.0;
  } else {
    const double sh = sinh(0.5 * rho); /* log cosh rho = log(1 + 2 sinh^2(rho/2)), without cancellation */
    const double lc = rho < 20.0 ? log1p(2.0 * sh * sh) : rho + log1p(exp(-2.0 * rho)) - log(2.0);
    h = lc / r2;
    hr = (tanh(rho) - 2.0 * lc / rho) / (r2 * rho);
  }
  *psi = K * h;
  if (!grad) return;
  const double dxi = 2.0 * ka * xi * h + K * hr * xi, deta = 2.0 * kl * eta * h + K * hr * eta;
  for (int c = 0; c < 3; ++c) grad[c] = dxi * ea[c] / da + deta * el[c] / dl;
}
