/*
 * seabed.c - vertical seabed contact force per unit length.
 *
 * Nonlinear spring of eq. 5.38 (Saefstroem thesis, Ch. 5), with the penetration of the
 * pipe's lowest fibre below the seabed plane z = -depth:
 *   kappa = -depth - (z - d_o/2)                                  [m]
 *   k0    = w / (d_o/8 - d_o/40)                                  [N/m^2]
 *   sigma = 0                               kappa < 0
 *         = k0 * 10 kappa^2 / d_o           0 <= kappa <= d_o/20
 *         = k0 * (kappa - d_o/40)           kappa > d_o/20
 * C^1 at kappa = d_o/20 (both branches give k0 d_o/40 with slope k0) and at 0; the pipe
 * rests (sigma = w) at kappa = d_o/8. w is the submerged weight per length of the section.
 * Linear option: sigma = k kappa for kappa > 0.
 * sigma acts upwards (+z); dsigma/dz = -dsigma/dkappa.
 */
#include "pipelay/models.h"

void PlSeabedForce(const PlModel *m, const PlSection *s, double w, double z, double *sigma,
                   double *dsigma_dz)
{
  const double d_o = s->outer_diameter;
  const double kappa = -m->water_depth - (z - 0.5 * d_o);
  double f = 0.0, df = 0.0; /* sigma and dsigma/dkappa */
  if (kappa > 0.0) {
    if (m->seabed == PL_SEABED_NONLINEAR) {
      const double k0 = w / (d_o / 8.0 - d_o / 40.0);
      if (kappa <= d_o / 20.0) {
        f = k0 * 10.0 * kappa * kappa / d_o;
        df = k0 * 20.0 * kappa / d_o;
      } else {
        f = k0 * (kappa - d_o / 40.0);
        df = k0;
      }
    } else if (m->seabed == PL_SEABED_LINEAR) {
      f = m->seabed_stiffness * kappa;
      df = m->seabed_stiffness;
    }
  }
  *sigma = f;
  *dsigma_dz = -df;
}
