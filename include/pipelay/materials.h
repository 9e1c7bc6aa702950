/*
 * materials.h - cross-section laws of a pipe (pure functions, no allocation).
 *
 * A section is the linear elastic law of eqs 5.18-5.24 of the Saefstroem thesis:
 *   n_t = C_T gamma_t,  C_T = diag(EA, GA2, GA3)       (5.21, 5.23)
 *   m_t = C_R omega_t,  C_R = diag(GJ, EI2, EI3)       (5.22, 5.24)
 * together with the inertia and weight per unit length the rod needs:
 *   mass per length m_P (pipe + contents), section inertia J_rho = diag(J1,J2,J3) (5.30),
 *   submerged weight per length w = (m_P - rho_w pi d_o^2/4) g        (5.33)
 * Axis 1 is the pipe axis t1; axes 2, 3 span the cross-section.
 */
#pragma once

typedef struct {
  double EA;              /* axial stiffness [N] */
  double GA[2];           /* shear stiffnesses GA2, GA3 [N] */
  double GJ;              /* torsional stiffness [N m^2] */
  double EI[2];           /* bending stiffnesses EI2, EI3 [N m^2] */
  double mass_per_length; /* m_P: pipe + contents [kg/m] */
  double inertia[3];      /* J1, J2, J3: rotary inertia per length about t1,t2,t3 [kg m] */
  double outer_diameter;  /* d_o: buoyancy and seabed contact [m] */
  double hydro_diameter;  /* drag diameter [m] */
  double wall_thickness;  /* [m], 0 when the section was given explicitly */
  double steel_area;      /* A of the wall [m^2], 0 when unknown */
  double youngs_modulus;  /* E [Pa] of the wall, 0 when the section was given explicitly */
  double poissons_ratio;  /* nu = E/(2G) - 1 of the wall, 0 when given explicitly */
  double contents_density;/* [kg/m^3] of the fluid in the bore (pipe form; 0 explicit) */
} PlSection;

/* Geometric input of a pipe made of one isotropic material. */
typedef struct {
  double outer_diameter;   /* [m] */
  double wall_thickness;   /* [m], 0 < t < d_o/2 */
  double youngs_modulus;   /* E [Pa] */
  double shear_modulus;    /* G [Pa] */
  double density;          /* wall material density [kg/m^3] */
  double contents_density; /* fluid inside the bore [kg/m^3] */
  double shear_coefficient;/* k_s in GA = k_s G A (0.5 for a thin-walled tube) */
  double hydro_diameter;   /* drag diameter [m]; <= 0 means the outer diameter */
} PlPipeGeometry;

/* The wall's area A = pi/4 (d_o^2 - d_i^2) and second moment I = pi/64 (d_o^4 - d_i^4) of a
 * pipe of outer diameter d_o and wall thickness t (d_i = d_o - 2 t). */
void PlPipeAreaInertia(double d_o, double t, double *area, double *second_moment);

/* Fills *s from a pipe's geometry and material (exact annulus formulas):
 *   A = pi/4 (d_o^2 - d_i^2), I = pi/64 (d_o^4 - d_i^4), J = 2 I,
 *   EA = E A, EI2 = EI3 = E I, GJ = G J, GA2 = GA3 = k_s G A,
 *   m_P = rho A + rho_c pi d_i^2/4, J_rho = rho (J, I, I) + contents' share
 *   (contents add mass but no rotary inertia: a fluid does not follow the section's spin).
 * Returns 0, or -1 when the geometry is impossible (t <= 0, t >= d_o/2). */
int PlSectionFromPipe(const PlPipeGeometry *g, PlSection *s);

/* Submerged weight per length w = (m_P - rho_w pi d_o^2/4) g [N/m] (eq 5.33). */
double PlSectionSubmergedWeight(const PlSection *s, double water_density, double gravity);
