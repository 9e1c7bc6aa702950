/*
 * design.c - pressure, wall stresses and the DNV-ST-F101 local-buckling checks of a pipe
 * section (include/pipelay/design.h). Pure functions.
 *
 * Citations. The standard's text was not at hand; its formulas below are those two public
 * implementations of the code agree on. Equation numbers are DNV-OS-F101 (2007), Section 5 D
 * and Section 13 E, as one of those implementations cites them; DNV-ST-F101 (2017 onwards)
 * keeps the formulas and renumbers them (its numbers were not confirmed; docs/model-file.md,
 * "design", says which items were not confirmed at all).
 */
#include <math.h>
#include "pipelay/design.h"

double PlInternalPressure(const PlPressureSpec *ps, double contents_density, double gravity, double z)
{
  /* hydrostatics of the contents' column: dp/dz = -rho_c g */
  return ps->internal_pressure + contents_density * gravity * (ps->internal_pressure_level - z);
}

double PlExternalPressure(double water_density, double gravity, double z)
{
  return z < 0.0 ? water_density * gravity * -z : 0.0;
}

void PlLame(double r_i, double r_o, double p_i, double p_e, double r, double *sigma_h, double *sigma_r)
{
  /* plane axisymmetric elasticity: sigma_r = a - b/r^2, sigma_h = a + b/r^2 satisfy
   * d(r sigma_r)/dr = sigma_h; a and b from sigma_r(r_i) = -p_i, sigma_r(r_o) = -p_e */
  const double ri2 = r_i * r_i, ro2 = r_o * r_o, den = ro2 - ri2;
  const double a = (p_i * ri2 - p_e * ro2) / den, b = (p_i - p_e) * ri2 * ro2 / den;
  *sigma_h = a + b / (r * r);
  *sigma_r = a - b / (r * r);
}

/* von Mises of the principal-axis stresses (axial, hoop, radial) and the torsional shear in
 * the axial-hoop plane: sqrt(sa^2 + sh^2 + sr^2 - sa sh - sh sr - sr sa + 3 tau^2). */
static double VonMises(double sa, double sh, double sr, double tau)
{
  return sqrt(sa * sa + sh * sh + sr * sr - sa * sh - sh * sr - sr * sa + 3.0 * tau * tau);
}

void PlWallStressOf(double D, double t, double T_e, double M, double M_t, double p_i, double p_e, PlWallStress *w)
{
  const double r_o = 0.5 * D, r_i = r_o - t;
  const double A_e = M_PI * r_o * r_o, A_i = M_PI * r_i * r_i, A = A_e - A_i;
  const double I = 0.25 * M_PI * (r_o * r_o * r_o * r_o - r_i * r_i * r_i * r_i), J = 2.0 * I;
  w->true_wall_tension = T_e + (p_i * A_i - p_e * A_e); /* the caps' load p_i A_i - p_e A_e added */
  w->hoop_thin = (p_i - p_e) * D / (2.0 * t);
  PlLame(r_i, r_o, p_i, p_e, r_i, &w->hoop_inner, &w->radial_inner);
  PlLame(r_i, r_o, p_i, p_e, r_o, &w->hoop_outer, &w->radial_outer);
  w->axial_mean = w->true_wall_tension / A;
  /* the bending stress M r/I at each fibre, on the tension and the compression side */
  const double sb_i = fabs(M) * r_i / I, sb_o = fabs(M) * r_o / I;
  const double tau_i = M_t * r_i / J, tau_o = M_t * r_o / J;
  w->von_mises_inner = fmax(VonMises(w->axial_mean + sb_i, w->hoop_inner, w->radial_inner, tau_i),
                            VonMises(w->axial_mean - sb_i, w->hoop_inner, w->radial_inner, tau_i));
  w->von_mises_outer = fmax(VonMises(w->axial_mean + sb_o, w->hoop_outer, w->radial_outer, tau_o),
                            VonMises(w->axial_mean - sb_o, w->hoop_outer, w->radial_outer, tau_o));
  w->von_mises = fmax(w->von_mises_inner, w->von_mises_outer);
}

/* ---- DNV-ST-F101 ------------------------------------------------------------------------ */

/* gamma_m (Table 5-4, ULS), gamma_SC for local buckling (Table 5-5: low, medium, high),
 * gamma_eps (Table 5-8) and alpha_fab (Table 5-7: seamless, UO/TRB/ERW, UOE). */
static const double kGammaM = 1.15;
static const double kGammaSC[3] = {1.04, 1.14, 1.26};
static const double kGammaEps[3] = {2.0, 2.5, 3.3};
static const double kAlphaFab[3] = {1.0, 0.93, 0.85};

/* Girth-weld factor alpha_gw (Sec. 13 E1000): 1 up to D/t = 20, linear to 0.6 at D/t = 60,
 * 0.6 beyond. */
static double GirthWeld(double D_t)
{
  if (D_t <= 20.0) return 1.0;
  if (D_t >= 60.0) return 0.6;
  return 1.0 - 0.4 * (D_t - 20.0) / 40.0;
}

double PlDnvCollapse(double p_el, double p_p, double f0, double D_t2)
{
  /* Eq. 5.10: (p_c - p_el)(p_c^2 - p_p^2) = p_c p_el p_p f0 D/t2, i.e. the cubic
   *   p^3 + b p^2 + c p + d = 0,  b = -p_el,  c = -(p_p^2 + p_el p_p f0 D/t2),  d = p_el p_p^2.
   * Sec. 13 E700 solves it in closed form: with p = y - b/3 the depressed cubic
   * y^3 + 3u y + 2v = 0, u = (c - b^2/3)/3, v = (2b^3/27 - bc/3 + d)/2, has three real roots
   * (u < 0, v^2 + u^3 < 0) y_k = 2 sqrt(-u) cos(Phi/3 + 2 pi k/3), cos Phi = -v/sqrt(-u^3);
   * the collapse pressure is the smallest positive p, y = -2 sqrt(-u) cos(Phi/3 + 60 deg)
   * (k = 2 rotated: cos(x + 240 deg) = -cos(x + 60 deg)). The left side is p_el p_p^2 > 0 at
   * p = 0 and the equation's difference is negative at min(p_el, p_p), so that root lies in
   * (0, min(p_el, p_p)). */
  const double b = -p_el, c = -(p_p * p_p + p_el * p_p * f0 * D_t2), d = p_el * p_p * p_p;
  const double u = (c - b * b / 3.0) / 3.0, v = (2.0 * b * b * b / 27.0 - b * c / 3.0 + d) / 2.0;
  const double phi = acos(-v / sqrt(-u * u * u));
  const double y = -2.0 * sqrt(-u) * cos(phi / 3.0 + M_PI / 3.0);
  return y - b / 3.0;
}

void PlDnvCapacityOf(const PlDnvSpec *s, double D, double t, double E, double nu, PlDnvCapacity *c)
{
  const double t2 = t - s->corrosion_allowance;
  c->t2 = t2;
  c->D_t2 = D / t2;
  c->alpha_U = s->supplementary_u ? 1.0 : 0.96;                /* Table 5-6 */
  c->alpha_fab = kAlphaFab[s->fabrication];
  c->gamma_m = kGammaM;
  c->gamma_SC = kGammaSC[s->safety_class];
  c->gamma_eps = kGammaEps[s->safety_class];
  c->f_y = (s->smys - s->yield_derating) * c->alpha_U;          /* Eq. 5.5 */
  c->f_u = (s->smts - s->tensile_derating) * c->alpha_U;        /* Eq. 5.6 */
  c->M_p = c->f_y * (D - t2) * (D - t2) * t2;                   /* Eq. 5.21: thin-ring plastic moment */
  c->S_p = c->f_y * M_PI * (D - t2) * t2;                       /* Eq. 5.20: the mean-diameter ring at f_y */
  c->f_cb = fmin(c->f_y, c->f_u / 1.15);                        /* Eq. 5.9 */
  c->p_b = 2.0 * t2 / (D - t2) * c->f_cb * 2.0 / sqrt(3.0);     /* Eq. 5.8: burst, von Mises plane strain */
  c->p_el = 2.0 * E * pow(t2 / D, 3) / (1.0 - nu * nu);        /* Eq. 5.11: elastic ring buckling */
  c->p_p = c->f_y * c->alpha_fab * 2.0 * t2 / D;                /* Eq. 5.12: ring yield */
  c->p_c = PlDnvCollapse(c->p_el, c->p_p, fmax(s->ovality, 0.005), c->D_t2); /* Eq. 5.10, f0 >= 0.005 (5.13) */
  /* Eq. 5.24: beta = 0.5 (D/t2 < 15), (60 - D/t2)/90 (15 to 60), 0 (above) */
  c->beta = c->D_t2 < 15.0 ? 0.5 : c->D_t2 <= 60.0 ? (60.0 - c->D_t2) / 90.0 : 0.0;
  c->alpha_c = (1.0 - c->beta) + c->beta * c->f_u / c->f_y;     /* Eq. 5.22 */
  c->alpha_gw = GirthWeld(c->D_t2);
  c->alpha_h = s->alpha_h;
}

void PlDnvCombination(int b, double *gamma_F, double *gamma_E)
{
  /* Table 4-4 (ULS): a (system check) 1.2, 0.7; b (local check) 1.1, 1.3 */
  *gamma_F = b ? 1.1 : 1.2;
  *gamma_E = b ? 1.3 : 0.7;
}

double PlDnvConditionFactor(const PlDnvSpec *s, double S)
{
  for (int k = 0; k < s->nzones; ++k)
    if (S >= s->zones[k].from && S <= s->zones[k].to) return s->zones[k].factor;
  return s->condition_factor;
}

/* The characteristic strain resistance (Eq. 5.30) at the overpressure p_min - p_e:
 *   eps_c = 0.78 (t2/D - 0.01)(1 + 5.75 (p_min - p_e)/p_b) alpha_h^-1.5 alpha_gw. */
static double StrainResistance(const PlDnvCapacity *c, double dp)
{
  return 0.78 * (1.0 / c->D_t2 - 0.01) * (1.0 + 5.75 * dp / c->p_b) * pow(c->alpha_h, -1.5) * c->alpha_gw;
}

void PlDnvCheckOf(const PlDnvCapacity *c, const PlDnvLoad *l, PlDnvCheck *k)
{
  const double gF = l->gamma_F * l->gamma_C, gE = l->gamma_E, gmsc = c->gamma_m * c->gamma_SC;
  /* Eq. 4.5, 4.7: design load effects, the functional part with gamma_F gamma_C, the
   * environmental with gamma_E (gamma_A: no accidental loads here) */
  k->M_Sd = gF * l->M_F + gE * l->M_env;
  k->S_Sd = gF * l->S_F + gE * l->S_E;
  k->eps_Sd = gF * l->eps_F + gE * l->eps_E;
  const double dp = l->p_i - l->p_e; /* the minimum internal pressure p_min is the local p_i */
  k->internal = dp >= 0.0;
  /* Eq. 5.23: alpha_p = 1 - beta below 2/3 of p_b, 1 - 3 beta (1 - dp/p_b) above */
  const double r = dp / c->p_b;
  k->alpha_p = r < 2.0 / 3.0 ? 1.0 - c->beta : 1.0 - 3.0 * c->beta * (1.0 - r);
  k->lcc_moment = gmsc * fabs(k->M_Sd) / (c->alpha_c * c->M_p);
  const double sa = gmsc * k->S_Sd / (c->alpha_c * c->S_p);
  k->lcc_axial = sa * sa;
  /* the LCC (Eq. 5.19, 5.28) holds for |S_Sd|/S_p < 0.4 (and D/t2 <= 45); beyond it the axial
   * force is outside the criterion's range: reported by the callers, not refused */
  k->axial_ratio = fabs(k->S_Sd) / c->S_p;
  const double bending = (k->lcc_moment + k->lcc_axial) * (k->lcc_moment + k->lcc_axial);
  if (k->internal) {
    /* Eq. 5.19: {.}^2 + (alpha_p (p_i - p_e)/(alpha_c p_b))^2 */
    const double pt = k->alpha_p * dp / (c->alpha_c * c->p_b);
    k->lcc_pressure = pt * pt;
    /* Eq. 5.29: eps_Sd <= eps_c/gamma_eps, eps_c at the overpressure (Eq. 5.30) */
    k->eps_c = StrainResistance(c, dp);
    k->dcc = fabs(k->eps_Sd) / (k->eps_c / c->gamma_eps);
  } else {
    /* Eq. 5.28: {.}^2 + (gamma_m gamma_SC (p_e - p_min)/p_c)^2 */
    const double pt = gmsc * -dp / c->p_c;
    k->lcc_pressure = pt * pt;
    /* Sec. 5 D609 (external overpressure):
     * (eps_Sd/(eps_c(p = 0)/gamma_eps))^0.8 + (p_e - p_min)/(p_c/(gamma_m gamma_SC)) <= 1 */
    k->eps_c = StrainResistance(c, 0.0);
    k->dcc = pow(fabs(k->eps_Sd) / (k->eps_c / c->gamma_eps), 0.8) + -dp / (c->p_c / gmsc);
  }
  k->lcc = bending + k->lcc_pressure;
}
