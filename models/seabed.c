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
 * The law's stiffness is scaled to that weight, so a section with w <= 0 (a lazy wave's
 * buoyancy section) gets no force from it: k0 < 0 would pull the section into the seabed,
 * harder the deeper it goes (a straight start laid on the seabed sinks its buoyancy section
 * through it), and a seabed only pushes.
 * Linear option: sigma = k kappa for kappa > 0. The force per length is F = sigma n, along
 * the normal (a frictionless plane), and dF/dx = sigma' n (dkappa/dx)^T = -sigma' n n^T.
 * On a slope the pipe's weight component along the plane is not resisted by the seabed: a
 * pipe resting there needs an end or a tension to hold it.
 *
 * Contact damping (dynamics, line_dynamics.c): -c (v.n) n per length. By default
 * (seabed.damping not given) c is a fraction zeta = 0.5 of the critical damping of the pipe on
 * its contact spring, per section:
 *   c = 2 zeta sqrt(k m),   k = dsigma/dkappa at rest (nonlinear: k0 = 10 w/d_o; linear: the
 *                           stiffness), m = m_p + C_an rho_w pi d_h^2/4 (the mass and the normal
 *                           added mass per length),
 * so a pipe that lands on the seabed rings down in a period or two (its swings fall by
 * exp(-2 pi zeta/sqrt(1 - zeta^2)) = 0.027 a period) instead of ringing on the undamped
 * spring, which costs the time integration its steps. MoorDyn's seabed (Hall, MoorDyn user
 * guide: kBot and cBot per unit of the contact area, defaults 3.0e6 Pa/m and 3.0e5 Pa s/m, the
 * force per length -(kBot pen + cBot v) d) damps as well; for the OC3 chain (d = 0.09 m, 77.7
 * kg/m) its defaults are 2.8 times critical. A buoyant section (w <= 0) has no spring at rest and
 * no default damping.
 *
 * Bathymetry (seabed.bathymetry): the surface z_s(x, y) of bicubic Hermite interpolation of
 * the grid's heights with Catmull-Rom slopes (C^1: the normal and Newton's tangent are
 * continuous across cells; bilinear interpolation kinks the normal at every cell edge). With
 * g = grad z_s, H its Hessian and q = sqrt(1 + |g|^2), evaluated under the centreline
 * (x_h = (x, y)):
 *   n     = (-g, 1) / q                                   the upward unit normal
 *   kappa = d_o/2 - (z - z_s(x_h)) / q                    below the tangent plane at x_h
 *   dkappa/dx_h = g/q + (z - z_s) H g / q^3,  dkappa/dz = -1/q
 *   dn_h/dx_h = -H/q + g (H g)^T / q^3,  dn_z/dx_h = -(H g)^T / q^3,  dn/dz = 0.
 * Exact on a plane (where it reduces to the plane's formula, H = 0); on a curved seabed the
 * tangent plane's distance differs from the true one by the curvature times (z - z_s)^2,
 * negligible at the contact's penetrations (~d_o/8). The force's derivative then carries
 * sigma dn/dx, the surface's curvature (checked against central differences in
 * tests/test_static.c).
 */
#include <math.h>
#include <string.h>
#include "pipelay/models.h"

/* ---- the grid -------------------------------------------------------------------------- */

/* Cubic Hermite basis on [0, 1] and its first two derivatives: h[0] the value at 0, h[1] the
 * slope at 0, h[2] the value at 1, h[3] the slope at 1. */
static void Hermite(double t, double h[4], double dh[4], double ddh[4])
{
  const double t2 = t * t, t3 = t2 * t;
  h[0] = 2.0 * t3 - 3.0 * t2 + 1.0, h[1] = t3 - 2.0 * t2 + t, h[2] = -2.0 * t3 + 3.0 * t2, h[3] = t3 - t2;
  dh[0] = 6.0 * t2 - 6.0 * t, dh[1] = 3.0 * t2 - 4.0 * t + 1.0, dh[2] = -dh[0], dh[3] = 3.0 * t2 - 2.0 * t;
  ddh[0] = 12.0 * t - 6.0, ddh[1] = 6.0 * t - 4.0, ddh[2] = -ddh[0], ddh[3] = 6.0 * t - 2.0;
}

/* The cell of coordinate v on an axis of n nodes from v0 by h: its index i (0..n-2) and the
 * local t in [0, 1]; *inside 0 when v was clamped. */
static int Cell(double v, double v0, double h, int n, double *t, int *inside)
{
  double r = (v - v0) / h;
  *inside = 1;
  if (!(r >= 0.0)) r = 0.0, *inside = 0; /* also NaN */
  if (r > n - 1) r = n - 1, *inside = 0;
  int i = (int)r;
  if (i > n - 2) i = n - 2;
  *t = r - i;
  return i;
}

int PlBathymetryEval(const PlBathymetry *b, double x, double y, double *z, double g[2], double H[3])
{
  double t, u, hx[4], dhx[4], ddhx[4], hy[4], dhy[4], ddhy[4];
  int inx, iny;
  const int i = Cell(x, b->x0, b->dx, b->nx, &t, &inx), j = Cell(y, b->y0, b->dy, b->ny, &u, &iny);
  Hermite(t, hx, dhx, ddhx);
  Hermite(u, hy, dhy, ddhy);
  /* z(t, u) = sum over the corners (a, c) of the tensor products of the values and slopes
   * (slopes scaled to the cell: dz/dt = dx dz/dx) */
  double v = 0.0, vt = 0.0, vu = 0.0, vtt = 0.0, vtu = 0.0, vuu = 0.0;
  for (int a = 0; a < 2; ++a)
    for (int c = 0; c < 2; ++c) {
      const size_t k = (size_t)(j + c) * b->nx + (size_t)(i + a);
      const double cz[4] = {b->z[k], b->dx * b->zx[k], b->dy * b->zy[k], b->dx * b->dy * b->zxy[k]};
      /* basis in t: value h[2a], slope h[2a+1]; in u: value h[2c], slope h[2c+1] */
      const int pv = 2 * a, ps = 2 * a + 1, qv = 2 * c, qs = 2 * c + 1;
      v += hx[pv] * hy[qv] * cz[0] + hx[ps] * hy[qv] * cz[1] + hx[pv] * hy[qs] * cz[2] + hx[ps] * hy[qs] * cz[3];
      vt += dhx[pv] * hy[qv] * cz[0] + dhx[ps] * hy[qv] * cz[1] + dhx[pv] * hy[qs] * cz[2] + dhx[ps] * hy[qs] * cz[3];
      vu += hx[pv] * dhy[qv] * cz[0] + hx[ps] * dhy[qv] * cz[1] + hx[pv] * dhy[qs] * cz[2] + hx[ps] * dhy[qs] * cz[3];
      vtt += ddhx[pv] * hy[qv] * cz[0] + ddhx[ps] * hy[qv] * cz[1] + ddhx[pv] * hy[qs] * cz[2] +
             ddhx[ps] * hy[qs] * cz[3];
      vtu += dhx[pv] * dhy[qv] * cz[0] + dhx[ps] * dhy[qv] * cz[1] + dhx[pv] * dhy[qs] * cz[2] +
             dhx[ps] * dhy[qs] * cz[3];
      vuu += hx[pv] * ddhy[qv] * cz[0] + hx[ps] * ddhy[qv] * cz[1] + hx[pv] * ddhy[qs] * cz[2] +
             hx[ps] * ddhy[qs] * cz[3];
    }
  *z = v;
  const double sx = inx ? 1.0 / b->dx : 0.0, sy = iny ? 1.0 / b->dy : 0.0; /* held outside */
  if (g) g[0] = vt * sx, g[1] = vu * sy;
  if (H) H[0] = vtt * sx * sx, H[1] = vtu * sx * sy, H[2] = vuu * sy * sy;
  return inx && iny;
}

void PlBathymetrySlopes(PlBathymetry *b)
{
  const int nx = b->nx, ny = b->ny;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const int il = i > 0 ? i - 1 : 0, ir = i < nx - 1 ? i + 1 : nx - 1;
      const int jl = j > 0 ? j - 1 : 0, jr = j < ny - 1 ? j + 1 : ny - 1;
      const size_t k = (size_t)j * nx + i;
      b->zx[k] = (b->z[(size_t)j * nx + ir] - b->z[(size_t)j * nx + il]) / ((ir - il) * b->dx);
      b->zy[k] = (b->z[(size_t)jr * nx + i] - b->z[(size_t)jl * nx + i]) / ((jr - jl) * b->dy);
    }
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const int jl = j > 0 ? j - 1 : 0, jr = j < ny - 1 ? j + 1 : ny - 1;
      b->zxy[(size_t)j * nx + i] = (b->zx[(size_t)jr * nx + i] - b->zx[(size_t)jl * nx + i]) / ((jr - jl) * b->dy);
    }
}

/* ---- contact ----------------------------------------------------------------------------- */

void PlSeabedGeometry(const PlModel *m, const PlSection *s, const double x[3], double *kappa, double n[3], double dk[3],
                      double dn[9])
{
  if (!m->bathymetry) {
    const double *np = m->seabed_normal;
    *kappa = PlSeabedPenetration(m, s, x);
    for (int i = 0; i < 3; ++i) {
      n[i] = np[i];
      if (dk) dk[i] = -np[i];
    }
    if (dn) memset(dn, 0, 9 * sizeof(double));
    return;
  }
  double zs, g[2], H[3];
  PlBathymetryEval(m->bathymetry, x[0], x[1], &zs, g, H);
  const double q2 = 1.0 + g[0] * g[0] + g[1] * g[1], q = sqrt(q2), iq = 1.0 / q, iq3 = iq / q2;
  const double gap = x[2] - zs, Hg[2] = {H[0] * g[0] + H[1] * g[1], H[1] * g[0] + H[2] * g[1]};
  const double Hm[2][2] = {{H[0], H[1]}, {H[1], H[2]}};
  *kappa = 0.5 * s->outer_diameter - gap * iq;
  n[0] = -g[0] * iq, n[1] = -g[1] * iq, n[2] = iq;
  if (dk) dk[0] = g[0] * iq + gap * Hg[0] * iq3, dk[1] = g[1] * iq + gap * Hg[1] * iq3, dk[2] = -iq;
  if (dn) {
    for (int a = 0; a < 2; ++a) {
      for (int b = 0; b < 2; ++b) dn[3 * a + b] = -Hm[a][b] * iq + g[a] * Hg[b] * iq3;
      dn[3 * a + 2] = 0.0;
    }
    dn[6] = -Hg[0] * iq3, dn[7] = -Hg[1] * iq3, dn[8] = 0.0;
  }
}

double PlSeabedPenetration(const PlModel *m, const PlSection *s, const double x[3])
{
  if (m->bathymetry) {
    double kappa, n[3];
    PlSeabedGeometry(m, s, x, &kappa, n, NULL, NULL);
    return kappa;
  }
  const double *n = m->seabed_normal;
  if (n[0] == 0.0 && n[1] == 0.0) /* flat: the thesis's form, to the bit */
    return -m->water_depth - (x[2] - 0.5 * s->outer_diameter);
  return 0.5 * s->outer_diameter - (n[0] * x[0] + n[1] * x[1] + n[2] * (x[2] + m->water_depth));
}

double PlSeabedHeight(const PlModel *m, double x, double y)
{
  if (m->bathymetry) {
    double z;
    PlBathymetryEval(m->bathymetry, x, y, &z, NULL, NULL);
    return z;
  }
  const double *n = m->seabed_normal;
  return -m->water_depth - (n[0] * x + n[1] * y) / n[2];
}

void PlSeabedLaw(const PlModel *m, const PlSection *s, double w, double kappa, double *sigma, double *dsigma_dkappa)
{
  const double d_o = s->outer_diameter;
  double f = 0.0, df = 0.0;
  if (kappa > 0.0) {
    if (m->seabed == PL_SEABED_NONLINEAR && w > 0.0) {
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
  double sig, dsig;
  if (!m->bathymetry) { /* the plane: dkappa/dx = -n, dn/dx = 0 */
    const double *n = m->seabed_normal;
    PlSeabedLaw(m, s, w, PlSeabedPenetration(m, s, x), &sig, &dsig);
    for (int i = 0; i < 3; ++i) {
      F[i] = sig * n[i];
      if (dF_dx)
        for (int j = 0; j < 3; ++j) dF_dx[3 * i + j] = -dsig * n[i] * n[j];
    }
    return;
  }
  double kappa, n[3], dk[3], dn[9];
  PlSeabedGeometry(m, s, x, &kappa, n, dk, dn);
  PlSeabedLaw(m, s, w, kappa, &sig, &dsig);
  for (int i = 0; i < 3; ++i) {
    F[i] = sig * n[i];
    if (dF_dx)
      for (int j = 0; j < 3; ++j) dF_dx[3 * i + j] = dsig * n[i] * dk[j] + sig * dn[3 * i + j];
  }
}

double PlSeabedDamping(const PlModel *m, const PlSegment *seg)
{
  if (!isnan(m->seabed_damping)) return m->seabed_damping;
  const PlSection *s = &seg->section;
  const double d_h = s->hydro_diameter > 0.0 ? s->hydro_diameter : s->outer_diameter;
  const double k = m->seabed == PL_SEABED_LINEAR    ? m->seabed_stiffness
                   : m->seabed == PL_SEABED_NONLINEAR ? 10.0 * PlSectionSubmergedWeight(s, m->water_density, m->gravity) /
                                                            s->outer_diameter
                                                      : 0.0;
  const double mass = s->mass_per_length + seg->hydro.added_mass_normal * m->water_density * M_PI * d_h * d_h / 4.0;
  return k > 0.0 ? 2.0 * PL_SEABED_DAMPING_RATIO * sqrt(k * mass) : 0.0;
}
