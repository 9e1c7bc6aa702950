/*
 * design.h - design answers of a pipe's section: pressure, wall stresses and the DNV-ST-F101
 * local-buckling checks (pure functions, no allocation; materials/design.c derives each).
 *
 * Sign conventions: tension positive; pressures are gauge pressures [Pa] (relative to the
 * atmosphere at the sea surface); z up, mean sea level z = 0.
 *
 * Pressure and tension. The solver's axial force with submerged weight is the effective
 * tension T_e (the Archimedes/Sparks decomposition: the wall force plus the pressure fields'
 * resultants over the closed cross-sections). The wall itself carries the true-wall tension
 *   T_tw = T_e + p_i A_i - p_e A_e,    A_i = pi d_i^2/4, A_e = pi d_o^2/4,
 * so a capped pipe with no axial load (T_e = 0) has T_tw = p_i A_i - p_e A_e, the end caps'
 * pressure load.
 *
 * Pressure and axial strain: not coupled. The solver's constitutive law is T_e = EA gamma1;
 * a pressurised steel wall would also stretch by -2 nu sigma_h/E (Poisson) and by the wall
 * force T_tw/EA, i.e. gamma1 = (T_e + (1 - 2 nu)(p_i A_i - p_e A_e))/EA (OrcaFlex includes
 * this). pipelay does not: pressure enters post-processing only (T_tw, hoop, von Mises, the
 * code checks), the statics and dynamics are those of the unpressurised line. The neglected
 * strain is (1 - 2 nu)(p_i A_i - p_e A_e)/EA; with A_i/A ~ D/(4t) of a thin wall and nu = 0.3
 * that is about 0.1 (p_i - p_e)(D/t)/E: 1.7e-4 for the 12.75 in x 15.9 mm pipe at 20 MPa
 * (computed with the exact areas), a tenth of a lay strain of 1e-3, which changes the line's
 * length by that fraction and so, slightly, its shape.
 */
#pragma once
#include <stdbool.h>

/* The pressures of a line (design: block): internal pressure p_ref at the level z_ref, the
 * contents' column below it (density rho_c from the section), the sea outside. */
typedef struct {
  double internal_pressure;       /* p_ref [Pa] */
  double internal_pressure_level; /* z_ref [m] */
} PlPressureSpec;

/* p_i(z) = p_ref + rho_c g (z_ref - z) [Pa] (not clamped: a column above z_ref with p_ref small
 * goes below the atmosphere, which the user's p_ref must rule out). */
double PlInternalPressure(const PlPressureSpec *ps, double contents_density, double gravity, double z);
/* p_e(z) = rho_w g (-z) below the surface, 0 above it [Pa] (still water). */
double PlExternalPressure(double water_density, double gravity, double z);

/* The stresses in a pipe wall (outer diameter D, wall t) at a section with effective tension
 * T_e, bending moment |M| (resultant), torque M_t, pressures p_i, p_e. */
typedef struct {
  double true_wall_tension;  /* T_tw [N] */
  double hoop_thin;          /* (p_i - p_e) D / (2 t) [Pa] */
  double hoop_inner, hoop_outer;     /* Lame's hoop stress at r_i, r_o [Pa] */
  double radial_inner, radial_outer; /* -p_i, -p_e [Pa] */
  double axial_mean;         /* T_tw / A [Pa] */
  double von_mises_inner, von_mises_outer; /* the larger of the two bending sides at r_i, r_o [Pa] */
  double von_mises;          /* the largest of the four fibres [Pa] */
} PlWallStress;

/* Lame's thick cylinder at radius r (r_i <= r <= r_o) under p_i, p_e:
 *   sigma_r = a - b/r^2, sigma_h = a + b/r^2, a = (p_i r_i^2 - p_e r_o^2)/(r_o^2 - r_i^2),
 *   b = (p_i - p_e) r_i^2 r_o^2/(r_o^2 - r_i^2)
 * (equilibrium d sigma_r/dr = (sigma_h - sigma_r)/r, sigma_r(r_i) = -p_i, sigma_r(r_o) = -p_e). */
void PlLame(double r_i, double r_o, double p_i, double p_e, double r, double *sigma_h, double *sigma_r);
/* The wall stresses (E, nu unused: an elastic wall's stresses follow from the resultants). */
void PlWallStressOf(double D, double t, double T_e, double M, double M_t, double p_i, double p_e, PlWallStress *w);

/* ---- DNV-ST-F101 local buckling --------------------------------------------------------- */
typedef enum { PL_DNV_LOW = 0, PL_DNV_MEDIUM = 1, PL_DNV_HIGH = 2 } PlDnvSafetyClass;
typedef enum { PL_DNV_SEAMLESS = 0, PL_DNV_UO_TRO_ERW = 1, PL_DNV_UOE = 2 } PlDnvFabrication;
/* Their names in the model file, in the enums' order (NULL-ended; models/schema_table.c). */
extern const char *const PlDnvSafetyClassNames[];
extern const char *const PlDnvFabricationNames[];

/* A zone of the condition factor gamma_C along the line (arc length from, to). */
typedef struct {
  double from, to, factor;
} PlDnvZone;

/* The code check's settings (design.dnv_f101). */
typedef struct {
  bool present;
  double smys, smts;           /* [Pa] specified minimum yield and tensile strengths */
  double yield_derating, tensile_derating; /* f_y,temp, f_u,temp [Pa] */
  bool supplementary_u;        /* alpha_U = 1.0 (else 0.96) */
  PlDnvSafetyClass safety_class;
  PlDnvFabrication fabrication;
  double corrosion_allowance;  /* t_corr [m]: t2 = t - t_corr */
  double ovality;              /* f0 [-], at least 0.005 */
  double alpha_h;              /* [-] strain hardening (max Rt0.5/Rm) */
  double condition_factor;     /* gamma_C outside the zones */
  int nzones;
  PlDnvZone *zones;            /* [nzones] (owned by the model: its loader allocates them) */
} PlDnvSpec;

/* The design: block of a model. */
typedef struct {
  bool present;
  PlPressureSpec pressure;
  PlDnvSpec dnv;
} PlDesignSpec;

/* The pipe's resistance (depends on the section and the pressures' difference only). */
typedef struct {
  double t2, D_t2;             /* [m], D/t2 */
  double f_y, f_u;             /* characteristic strengths [Pa] */
  double M_p, S_p;             /* plastic moment [N m] and axial force [N] */
  double f_cb, p_b;            /* [Pa] */
  double p_el, p_p, p_c;       /* elastic, plastic and characteristic collapse pressures [Pa] */
  double beta, alpha_c;        /* strain hardening, flow stress parameter */
  double gamma_m, gamma_SC, gamma_eps;
  double alpha_U, alpha_fab, alpha_gw, alpha_h;
} PlDnvCapacity;

/* Capacities of a pipe of outer diameter D, nominal wall t, Young's modulus E, Poisson nu. */
void PlDnvCapacityOf(const PlDnvSpec *s, double D, double t, double E, double nu, PlDnvCapacity *c);
/* The characteristic collapse pressure: the root in (0, min(p_el, p_p)) of
 * (p_c - p_el)(p_c^2 - p_p^2) = p_c p_el p_p f0 D/t2. */
double PlDnvCollapse(double p_el, double p_p, double f0, double D_t2);

/* Load effects at a section: functional and environmental parts. */
typedef struct {
  double M_F, M_env;   /* bending moment [N m], resultant magnitude; M_env (M_E is math.h's e) signed */
  double S_F, S_E;     /* effective axial force [N], tension positive */
  double eps_F, eps_E; /* longitudinal strain [-] */
  double p_i, p_e;     /* local pressures [Pa] */
  double gamma_F, gamma_E, gamma_C;
} PlDnvLoad;

/* One combination's check, term by term. */
typedef struct {
  double M_Sd, S_Sd, eps_Sd;
  double alpha_p;
  bool internal;       /* p_i >= p_e: the internal-overpressure forms */
  double lcc_moment;   /* gamma_m gamma_SC |M_Sd|/(alpha_c M_p) */
  double lcc_axial;    /* (gamma_m gamma_SC S_Sd/(alpha_c S_p))^2 */
  double lcc_pressure; /* the pressure term (internal or external form) */
  double lcc;          /* the load-controlled utilisation */
  double eps_c;        /* the characteristic strain resistance used [-] */
  double dcc;          /* the displacement-controlled utilisation */
  double axial_ratio;  /* |S_Sd|/S_p: the LCC is valid for < 0.4 only */
} PlDnvCheck;

void PlDnvCheckOf(const PlDnvCapacity *c, const PlDnvLoad *l, PlDnvCheck *k);
/* (gamma_F, gamma_E) of load combination a (0) or b (1). */
void PlDnvCombination(int b, double *gamma_F, double *gamma_E);
/* gamma_C at arc length S: the zone that holds it (the first, in input order), else the default. */
double PlDnvConditionFactor(const PlDnvSpec *s, double S);
