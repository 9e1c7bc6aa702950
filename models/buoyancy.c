/*
 * buoyancy.c - the weight and buoyancy of an element that may cross the sea surface.
 *
 * Per unit length, downwards (positive), at centreline height z:
 *   q(z) = m_p g - rho_w g A_o phi(z),     A_o = pi d_o^2 / 4,
 * m_p the mass per length (pipe and contents), phi the submerged fraction of the section:
 * 1 below z = -d_o/2, 0 above z = +d_o/2 and the C^1 smoothstep
 *   phi = 1 - (3 r^2 - 2 r^3),   r = (z + d_o/2) / d_o,
 * across the band of one diameter (the section's own height when horizontal). Fully
 * submerged, q = w, the submerged weight of PlSectionSubmergedWeight; dry, q = m_p g.
 * On a two-node element (z linear in xi in [0, 1], node shapes N_A = 1 - xi, N_B = xi) the
 * nodal loads f_a = L int N_a q(z(xi)) dxi are integrated exactly: the element is cut at
 * the band's edges, and on each piece the integrand is a polynomial of degree <= 4 in xi,
 * which three-point Gauss integrates exactly. Their derivatives d f_a / d z_b =
 * -rho_w g A_o L int N_a phi'(z) N_b dxi (phi is C^1: the moving cuts add nothing) likewise.
 */
#include <math.h>
#include "pipelay/models.h"

/* phi(z) and phi'(z) for the band [-d/2, d/2] */
void PlWetFraction(double z, double d, double *phi, double *dphi)
{
  const double r = (z + 0.5 * d) / d;
  if (r <= 0.0) {
    *phi = 1.0;
    *dphi = 0.0;
  } else if (r >= 1.0) {
    *phi = 0.0;
    *dphi = 0.0;
  } else {
    *phi = 1.0 - r * r * (3.0 - 2.0 * r);
    *dphi = -6.0 * r * (1.0 - r) / d;
  }
}

void PlElementWeight(const PlSection *s, double rho_w, double g, double L, double zA, double zB, double f[2],
                     double K[2][2])
{
  const double d = s->outer_diameter, Ab = rho_w * g * M_PI * d * d / 4.0, mg = s->mass_per_length * g;
  f[0] = f[1] = 0.0;
  if (K) K[0][0] = K[0][1] = K[1][0] = K[1][1] = 0.0;
  /* wholly below the band: the submerged weight, as before (no cuts, no derivative) */
  if (fmax(zA, zB) <= -0.5 * d) {
    f[0] = f[1] = 0.5 * L * (mg - Ab);
    return;
  }
  /* cuts at the band's edges */
  double cut[4] = {0.0, 0.0, 0.0, 1.0};
  int nc = 1;
  if (zB != zA)
    for (int k = 0; k < 2; ++k) {
      const double xi = ((k ? 0.5 : -0.5) * d - zA) / (zB - zA);
      if (xi > 0.0 && xi < 1.0) cut[nc++] = xi;
    }
  if (nc == 3 && cut[1] > cut[2]) {
    const double t = cut[1];
    cut[1] = cut[2];
    cut[2] = t;
  }
  cut[nc] = 1.0;
  static const double gx[3] = {-0.7745966692414834, 0.0, 0.7745966692414834};
  static const double gw[3] = {5.0 / 9.0, 8.0 / 9.0, 5.0 / 9.0};
  for (int piece = 0; piece < nc; ++piece) {
    const double a = cut[piece], b = cut[piece + 1], h = 0.5 * (b - a);
    if (!(h > 0.0)) continue;
    for (int q = 0; q < 3; ++q) {
      const double xi = 0.5 * (a + b) + h * gx[q], wq = h * gw[q] * L;
      const double N[2] = {1.0 - xi, xi};
      double phi, dphi;
      PlWetFraction((1.0 - xi) * zA + xi * zB, d, &phi, &dphi);
      for (int i = 0; i < 2; ++i) {
        f[i] += wq * N[i] * (mg - Ab * phi);
        if (K)
          for (int j = 0; j < 2; ++j) K[i][j] -= wq * N[i] * Ab * dphi * N[j];
      }
    }
  }
}
