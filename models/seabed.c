/*
 * seabed.c - the seabed's contact force per unit length.
 *
 * The seabed is a plane with the upward unit normal n through x0 = (0, 0, -depth): flat
 * (n = e_z), or sloped (seabed.slope: rising at angle beta towards the direction psi, n =
 * (-sin beta cos psi, -sin beta sin psi, cos beta)). A section whose centreline is at x has its
 * lowest fibre at p = x - (d_o/2) n, which lies
 *   kappa = d_o/2 - n.(x - x0)                                    [m]
 * below the plane (flat: kappa = -depth - (z - d_o/2)). Nonlinear spring of eq. 5.38 (Saefstroem
 * thesis, Ch. 5) on kappa:
 *   k0    = w / (d_o/8 - d_o/40)                                  [N/m^2]
 *   sigma = 0                               kappa < 0
 *         = k0 * 10 kappa^2 / d_o           0 <= kappa <= d_o/20
 *         = k0 * (kappa - d_o/40)           kappa > d_o/20
 * C^1 at kappa = d_o/20 (both branches give k0 d_o/40 with slope k0) and at 0; the pipe
 * rests (sigma = w) at kappa = d_o/8. w is the submerged weight per length of the section.
 * Linear option: sigma = k kappa for kappa > 0. The force per length is F = sigma n, along
 * the normal (a frictionless plane), and dF/dx = sigma' n (dkappa/dx)^T = -sigma' n n^T.
 * On a slope the pipe's weight component along the plane is not resisted by the seabed: a
 * pipe resting there needs an end or a tension to hold it.
 */
#include <math.h>
#include "pipelay/models.h"

double PlSeabedPenetration(const PlModel *m, const PlSection *s, const double x[3])
{
  const double *n = m->seabed_normal;
  if (n[0] == 0.0 && n[1] == 0.0) /* flat: the thesis's form, to the bit */
    return -m->water_depth - (x[2] - 0.5 * s->outer_diameter);
  return 0.5 * s->outer_diameter - (n[0] * x[0] + n[1] * x[1] + n[2] * (x[2] + m->water_depth));
}

double PlSeabedHeight(const PlModel *m, double x, double y)
{
  const double *n = m->seabed_normal;
  return -m->water_depth - (n[0] * x + n[1] * y) / n[2];
}

void PlSeabedLaw(const PlModel *m, const PlSection *s, double w, double kappa, double *sigma, double *dsigma_dkappa)
{
  const double d_o = s->outer_diameter;
  double f = 0.0, df = 0.0;
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
  *dsigma_dkappa = df;
}

void PlSeabedContact(const PlModel *m, const PlSection *s, double w, const double x[3], double F[3], double *dF_dx)
{
  const double *n = m->seabed_normal;
  double sig, dsig;
  PlSeabedLaw(m, s, w, PlSeabedPenetration(m, s, x), &sig, &dsig);
  for (int i = 0; i < 3; ++i) {
    F[i] = sig * n[i];
    if (dF_dx)
      for (int j = 0; j < 3; ++j) dF_dx[3 * i + j] = -dsig * n[i] * n[j];
  }
}
