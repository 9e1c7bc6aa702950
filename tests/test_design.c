/*
 * test_design.c - pressure, wall stresses and the DNV-ST-F101 checks (materials/design.c).
 *
 * test_design            the identities: a capped pipe's tensions, the thin-wall hoop stress as
 *                        the limit of Lame's, Lame's boundary values and equilibrium (by
 *                        differences), von Mises of a pure axial and a pure hoop state, the
 *                        collapse pressure as a root of its cubic, the load-controlled
 *                        criterion without pressure and axial force, and the LCC's validity
 *                        ratio |S_Sd|/S_p against S_p = f_y pi (D - t2) t2 by hand.
 * test_design terms      reads cases from stdin, one a line (the keys of tests/check_dnv_hand.py),
 *                        and prints every term of the checks: check_dnv_hand.py compares them
 *                        with its own hand computation.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "pipelay/design.h"

static PlDnvSpec Spec(void)
{
  PlDnvSpec s;
  memset(&s, 0, sizeof s);
  s.present = true;
  s.smys = 450e6;
  s.smts = 535e6;
  s.safety_class = PL_DNV_LOW;
  s.fabrication = PL_DNV_SEAMLESS;
  s.ovality = 0.005;
  s.alpha_h = 0.93;
  s.condition_factor = 1.0;
  return s;
}

/* A capped pipe with no axial load: the wall carries the caps' pressure load, so
 * T_e = T_tw - p_i A_i + p_e A_e = 0 exactly, and the mean axial stress is Lame's closed-end
 * value (p_i r_i^2 - p_e r_o^2)/(r_o^2 - r_i^2). */
static void CappedPipe(void)
{
  const double D = 0.3239, t = 0.0159, r_o = D / 2, r_i = r_o - t;
  const double cases[3][2] = {{20e6, 1e6}, {0.0, 3e6}, {5e6, 5e6}};
  for (int k = 0; k < 3; ++k) {
    const double p_i = cases[k][0], p_e = cases[k][1];
    const double A_i = M_PI * r_i * r_i, A_e = M_PI * r_o * r_o;
    PlWallStress w;
    PlWallStressOf(D, t, 0.0, 0.0, 0.0, p_i, p_e, &w);
    const double caps = p_i * A_i - p_e * A_e;
    CHECK_TRUE(w.true_wall_tension == caps && w.true_wall_tension - caps == 0.0,
               "capped pipe: T_tw = p_i A_i - p_e A_e and T_e = T_tw - (p_i A_i - p_e A_e) = 0 exactly");
    CHECK_REL(w.axial_mean, (p_i * r_i * r_i - p_e * r_o * r_o) / (r_o * r_o - r_i * r_i),
              1e-12, "capped pipe: the end caps' axial stress");
    /* with an axial load T_e the identity holds for any T_e */
    PlWallStressOf(D, t, 1.234e5, 0.0, 0.0, p_i, p_e, &w);
    CHECK_REL(w.true_wall_tension - p_i * A_i + p_e * A_e, 1.234e5, 1e-12, "T_e = T_tw - p_i A_i + p_e A_e");
  }
}

/* The thin-wall hoop stress p D/(2 t) is the limit of Lame's as t/D -> 0: Lame's mean hoop stress
 * over the wall is (p_i r_i - p_e r_o)/t exactly (the half-pipe's equilibrium), which differs from
 * p D/(2t) (p_e = 0) by the factor d_i/D = 1 - 2 t/D; the inner and outer values are
 * p (r_o^2 + r_i^2)/(r_o^2 - r_i^2) = p D/(2t) (1 - t/D + ...) and 2 p r_i^2/(r_o^2 - r_i^2) =
 * p D/(2t) (1 - 3 t/D + ...). */
static void ThinWall(void)
{
  const double D = 1.0, p = 1e6;
  for (double tD = 1e-2; tD >= 1e-5; tD /= 10.0) {
    const double t = tD * D;
    PlWallStress w;
    PlWallStressOf(D, t, 0.0, 0.0, 0.0, p, 0.0, &w);
    CHECK_REL(w.hoop_thin, p * D / (2 * t), 1e-15, "thin wall: p D/(2t)");
    CHECK_REL(w.hoop_inner, w.hoop_thin, 1.01 * tD, "thin wall: Lame's inner hoop stress -> p D/(2t), within t/D");
    CHECK_REL(w.hoop_outer, w.hoop_thin, 3.01 * tD, "thin wall: Lame's outer hoop stress -> p D/(2t), within 3 t/D");
    /* Simpson over the wall: the mean hoop stress (exact for a + b/r^2 to the rule's error) */
    const double r_o = 0.5 * D, r_i = r_o - t;
    double sum = 0.0;
    const int n = 200;
    for (int j = 0; j <= n; ++j) {
      double sh, sr;
      PlLame(r_i, r_o, p, 0.0, r_i + t * j / n, &sh, &sr);
      sum += (j == 0 || j == n ? 1.0 : j % 2 ? 4.0 : 2.0) * sh;
    }
    CHECK_REL(sum / (3.0 * n), p * r_i / t, 1e-12, "Lame's mean hoop stress = p_i r_i / t");
  }
}

/* Lame's thick cylinder (D/t = 4): sigma_r(r_i) = -p_i, sigma_r(r_o) = -p_e, and the radial
 * equilibrium d sigma_r/dr = (sigma_h - sigma_r)/r at interior radii (central differences,
 * truncation error h^2 r^-2 ~ 2e-9 relative at h = 1e-5). */
static void ThickWall(void)
{
  const double r_o = 0.5, r_i = 0.25, p_i = 30e6, p_e = 5e6;
  double sh, sr;
  PlLame(r_i, r_o, p_i, p_e, r_i, &sh, &sr);
  CHECK_REL(sr, -p_i, 1e-14, "Lame: sigma_r(r_i) = -p_i");
  /* closed form of the inner hoop stress: (p_i (r_o^2 + r_i^2) - 2 p_e r_o^2)/(r_o^2 - r_i^2) */
  CHECK_REL(sh, (p_i * (r_o * r_o + r_i * r_i) - 2 * p_e * r_o * r_o) / (r_o * r_o - r_i * r_i), 1e-14,
            "Lame: the inner hoop stress");
  PlLame(r_i, r_o, p_i, p_e, r_o, &sh, &sr);
  CHECK_REL(sr, -p_e, 1e-14, "Lame: sigma_r(r_o) = -p_e");
  CHECK_REL(sh, (2 * p_i * r_i * r_i - p_e * (r_o * r_o + r_i * r_i)) / (r_o * r_o - r_i * r_i), 1e-14,
            "Lame: the outer hoop stress");
  for (int j = 1; j < 10; ++j) {
    const double r = r_i + (r_o - r_i) * j / 10.0, h = 1e-5;
    double sh0, sr0, shp, srp, shm, srm;
    PlLame(r_i, r_o, p_i, p_e, r, &sh0, &sr0);
    PlLame(r_i, r_o, p_i, p_e, r + h, &shp, &srp);
    PlLame(r_i, r_o, p_i, p_e, r - h, &shm, &srm);
    CHECK_REL((srp - srm) / (2 * h), (sh0 - sr0) / r, 1e-8, "Lame: radial equilibrium");
  }
  PlWallStress w;
  PlWallStressOf(2 * r_o, r_o - r_i, 0.0, 0.0, 0.0, p_i, p_e, &w);
  double shi, sri;
  PlLame(r_i, r_o, p_i, p_e, r_i, &shi, &sri);
  CHECK_TRUE(w.hoop_inner == shi && w.radial_inner == -p_i, "the wall's inner fibre is Lame's");
}

/* von Mises: a pure axial state gives |sigma_a|; a pure bending state gives M c/I at the
 * outer fibre; a pure torque gives sqrt(3) tau. */
static void VonMisesStates(void)
{
  const double D = 0.3239, t = 0.0159, r_o = D / 2, r_i = r_o - t;
  const double A = M_PI * (r_o * r_o - r_i * r_i), I = M_PI / 4 * (pow(r_o, 4) - pow(r_i, 4));
  PlWallStress w;
  PlWallStressOf(D, t, 1e6, 0.0, 0.0, 0.0, 0.0, &w);
  CHECK_REL(w.von_mises, 1e6 / A, 1e-14, "von Mises of pure tension");
  PlWallStressOf(D, t, 0.0, -3e5, 0.0, 0.0, 0.0, &w);
  CHECK_REL(w.von_mises, 3e5 * r_o / I, 1e-14, "von Mises of pure bending: M r_o/I");
  CHECK_REL(w.von_mises_inner, 3e5 * r_i / I, 1e-14, "von Mises of pure bending, inner fibre: M r_i/I");
  PlWallStressOf(D, t, 0.0, 0.0, 2e5, 0.0, 0.0, &w);
  CHECK_REL(w.von_mises, sqrt(3.0) * 2e5 * r_o / (2 * I), 1e-14, "von Mises of pure torsion: sqrt(3) T r/J");
}

/* The collapse pressure is a root of (p - p_el)(p^2 - p_p^2) - p p_el p_p f0 D/t (Eq. 5.10) in
 * (0, min(p_el, p_p)), over a range of D/t. */
static void Collapse(void)
{
  for (double Dt = 10.0; Dt <= 60.0; Dt += 5.0) {
    const double E = 207e9, nu = 0.3, fy = 432e6, f0 = 0.01;
    const double pel = 2 * E / (Dt * Dt * Dt) / (1 - nu * nu), pp = 2 * fy / Dt;
    const double pc = PlDnvCollapse(pel, pp, f0, Dt);
    const double res = (pc - pel) * (pc * pc - pp * pp) - pc * pel * pp * f0 * Dt;
    CHECK_ABS(res / (pel * pp * pp), 0.0, 1e-12, "collapse pressure: a root of Eq. 5.10");
    CHECK_TRUE(pc > 0.0 && pc < fmin(pel, pp), "collapse pressure: in (0, min(p_el, p_p))");
  }
}

/* Without pressure and axial force the load-controlled criterion is
 * (gamma_m gamma_SC M_Sd/(alpha_c M_p))^2. */
static void LccBending(void)
{
  const PlDnvSpec s = Spec();
  PlDnvCapacity c;
  PlDnvCapacityOf(&s, 0.3239, 0.0159, 207e9, 0.3, &c);
  const PlDnvLoad l = {3e5, 5e4, 0.0, 0.0, 1e-3, 0.0, 0.0, 0.0, 1.2, 0.7, 0.8};
  PlDnvCheck k;
  PlDnvCheckOf(&c, &l, &k);
  const double MSd = 1.2 * 0.8 * 3e5 + 0.7 * 5e4, r = 1.15 * 1.04 * MSd / (c.alpha_c * c.M_p);
  CHECK_REL(k.M_Sd, MSd, 1e-15, "M_Sd = gamma_F gamma_C M_F + gamma_E M_env");
  CHECK_REL(k.lcc, r * r, 1e-14, "LCC without pressure and axial force: (gamma_m gamma_SC M_Sd/(alpha_c M_p))^2");
}

/* The LCC holds for |S_Sd|/S_p < 0.4: the ratio of a compressed pipe against the hand value,
 * S_p = f_y pi (D - t2) t2 with f_y = SMYS alpha_U (0.96), S_Sd = gamma_F gamma_C S_F + gamma_E S_E. */
static void LccValidity(void)
{
  const PlDnvSpec s = Spec();
  const double D = 0.3239, t = 0.0159;
  PlDnvCapacity c;
  PlDnvCapacityOf(&s, D, t, 207e9, 0.3, &c);
  const double Sp = 450e6 * 0.96 * M_PI * (D - t) * t;
  const PlDnvLoad l = {1e5, 0.0, -2.0e6, -3.0e5, 1e-3, 0.0, 0.0, 0.0, 1.1, 1.3, 1.07};
  PlDnvCheck k;
  PlDnvCheckOf(&c, &l, &k);
  CHECK_REL(k.axial_ratio, fabs(1.1 * 1.07 * -2.0e6 + 1.3 * -3.0e5) / Sp, 1e-14, "|S_Sd|/S_p of a compressed pipe");
  CHECK_TRUE(k.axial_ratio > 0.4, "2.74 MN of compression on a 12-inch X65 pipe is outside the LCC's validity");
}

static int Terms(void)
{
  char line[2048];
  int n = 0;
  while (fgets(line, sizeof line, stdin)) {
    PlDnvSpec s = Spec();
    double D, t, E, nu;
    int cls, fab, supu;
    PlDnvLoad l;
    if (sscanf(line, "%lf %lf %lf %lf %lf %lf %d %d %d %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf",
               &D, &t, &E, &nu, &s.smys, &s.smts, &cls, &fab, &supu, &s.yield_derating, &s.tensile_derating,
               &s.corrosion_allowance, &s.ovality, &s.alpha_h, &l.M_F, &l.M_env, &l.S_F, &l.S_E, &l.eps_F, &l.eps_E,
               &l.p_i, &l.p_e, &l.gamma_F, &l.gamma_E, &l.gamma_C) != 25) {
      fprintf(stderr, "test_design terms: bad line %d\n", n + 1);
      return 1;
    }
    s.safety_class = (PlDnvSafetyClass)cls;
    s.fabrication = (PlDnvFabrication)fab;
    s.supplementary_u = supu != 0;
    PlDnvCapacity c;
    PlDnvCheck k;
    PlDnvCapacityOf(&s, D, t, E, nu, &c);
    PlDnvCheckOf(&c, &l, &k);
    printf("{\"f_y\": %.17g, \"f_u\": %.17g, \"M_p\": %.17g, \"S_p\": %.17g, \"p_b\": %.17g, \"p_el\": %.17g, "
           "\"p_p\": %.17g, \"p_c\": %.17g, \"beta\": %.17g, \"alpha_c\": %.17g, \"alpha_gw\": %.17g, "
           "\"alpha_p\": %.17g, \"M_Sd\": %.17g, \"S_Sd\": %.17g, \"eps_Sd\": %.17g, \"lcc_moment\": %.17g, "
           "\"lcc_axial\": %.17g, \"lcc_pressure\": %.17g, \"lcc\": %.17g, \"eps_c\": %.17g, \"dcc\": %.17g}\n",
           c.f_y, c.f_u, c.M_p, c.S_p, c.p_b, c.p_el, c.p_p, c.p_c, c.beta, c.alpha_c, c.alpha_gw, k.alpha_p, k.M_Sd,
           k.S_Sd, k.eps_Sd, k.lcc_moment, k.lcc_axial, k.lcc_pressure, k.lcc, k.eps_c, k.dcc);
    ++n;
  }
  return n == 0;
}

int main(int argc, char **argv)
{
  if (argc > 1 && !strcmp(argv[1], "terms")) return Terms();
  CappedPipe();
  ThinWall();
  ThickWall();
  VonMisesStates();
  Collapse();
  LccBending();
  LccValidity();
  return pl_check_failures ? 1 : 0;
}
