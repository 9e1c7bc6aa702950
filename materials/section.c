/*
 * section.c - cross-section properties of a circular pipe (materials layer).
 *
 * Exact annulus formulas; see include/pipelay/materials.h for the law they feed
 * (eqs 5.18-5.24 and 5.33 of the Saefstroem thesis). Pure functions, no allocation.
 */
#include <math.h>
#include "pipelay/materials.h"

void PlPipeAreaInertia(double d_o, double t, double *area, double *second_moment)
{
  const double d_i = d_o - 2.0 * t;
  *area = M_PI / 4.0 * (d_o * d_o - d_i * d_i);
  *second_moment = M_PI / 64.0 * (pow(d_o, 4) - pow(d_i, 4));
}

int PlSectionFromPipe(const PlPipeGeometry *g, PlSection *s)
{
  const double d_o = g->outer_diameter, t = g->wall_thickness;
  if (!(d_o > 0.0) || !(t > 0.0) || !(2.0 * t < d_o)) return -1;
  const double d_i = d_o - 2.0 * t;
  double A, I;                                                               /* m^2, m^4 */
  PlPipeAreaInertia(d_o, t, &A, &I);
  const double J = 2.0 * I;                                                  /* m^4 */
  const double A_bore = M_PI / 4.0 * d_i * d_i;                              /* m^2 */
  const double ks = g->shear_coefficient > 0.0 ? g->shear_coefficient : 0.5;

  s->EA = g->youngs_modulus * A;
  s->GA[0] = s->GA[1] = ks * g->shear_modulus * A;
  s->GJ = g->shear_modulus * J;
  s->EI[0] = s->EI[1] = g->youngs_modulus * I;
  s->mass_per_length = g->density * A + g->contents_density * A_bore;
  s->inertia[0] = g->density * J;
  s->inertia[1] = s->inertia[2] = g->density * I;
  s->outer_diameter = d_o;
  s->hydro_diameter = g->hydro_diameter > 0.0 ? g->hydro_diameter : d_o;
  s->wall_thickness = t;
  s->steel_area = A;
  s->youngs_modulus = g->youngs_modulus;
  s->poissons_ratio = g->youngs_modulus / (2.0 * g->shear_modulus) - 1.0;
  s->contents_density = g->contents_density;
  return 0;
}

double PlSectionSubmergedWeight(const PlSection *s, double water_density, double gravity)
{
  const double displaced = water_density * M_PI / 4.0 * s->outer_diameter * s->outer_diameter;
  return (s->mass_per_length - displaced) * gravity;
}
