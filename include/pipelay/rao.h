/*
 * rao.h - a body's first-order wave-frequency motion from its displacement RAOs (models/rao.c):
 * the table (read from the documented CSV or from WAMIT's .4 file), its interpolation in heading
 * and period, and the motion it gives in a sea of linear wave components. Pure C, no solver.
 *
 * Internal form (every reader converts to it). For a wave component of amplitude a, circular
 * frequency omega, wave number k, direction of travel beta (global, from +x towards +y) and
 * phase phi, the elevation at the plan point x is eta = a cos(omega t - k.x - phi)
 * (pipelay/waves.h). The table holds per heading and period the complex RAOs H_j, j = surge,
 * sway, heave, roll, pitch, yaw, of the RAO origin O (translations in m/m, rotations in rad/m,
 * body axes: x forward, y to port, z up) such that
 *     xi_j(t) = Re{ a H_j exp(i (omega t - k.x_ph - phi)) } = a |H_j| cos(omega t - k.x_ph - phi + arg H_j),
 * x_ph the phase origin: arg H_j is the phase LEAD of the motion on the crest at the phase
 * origin (a crest there at t = 0 puts the motion's peak at omega t = -arg H_j). The heading the
 * table is indexed by is the direction of travel relative to the body's x axis, beta_r = beta -
 * psi (towards the body's y axis: 0 following seas, 90 waves travelling to port, i.e. from
 * starboard, 180 head seas).
 *
 * CSV format (raos.format: csv): '#' lines are comments; the first other line is the header
 *     heading,period,dof,amplitude,phase
 * then one row per heading [deg], period [s], DOF (surge, sway, heave, roll, pitch, yaw),
 * amplitude (>= 0; m/m, or rad/m or deg/m for rotations) and phase [deg]. Headings and
 * periods form a full grid: every (heading, period) of the file for each DOF the file has. A
 * DOF with no row at all is zero. What the numbers mean is declared in the model file
 * (PlRaoConventions): phase lag or lead, heading towards (direction of travel) or from
 * (where the waves come from: 180 deg more), rotations in deg or rad per m of amplitude.
 *
 * WAMIT .4 (raos.format: wamit4): rows "PER BETA I Mod(xi) Pha(xi) Re(xi) Im(xi)" (WAMIT
 * User Manual, section 4: the motion RAOs; PER the period [s], BETA the direction of travel
 * from the body's x axis [deg], mode I = 1..6 of body 1, 7..12 of body 2, ...), its
 * convention: xi = Re{Xi e^{i omega t}} on an incident wave Re{A e^{i(omega t - k.x)}}, the
 * phase a lead relative to the crest at the origin of WAMIT's body axes (z up, y to port);
 * rotations nondimensional, Xi L / A, with L = ULEN (raos.length_scale). Rows of PER <= 0
 * (WAMIT's infinite and zero periods) and of other bodies' modes are skipped.
 *
 * Interpolation: linear in the real and imaginary parts (no phase unwrapping to choose),
 * periodic in the heading (between the last heading and the first + 360 deg; one heading:
 * the same RAOs at every heading), linear in the period, the first and last periods' values
 * held outside the table.
 *
 * Motion (PlRaoMotion): with the body's initial pose (O_b at r0, heading psi0) and a forward
 * speed U along its initial x axis, the phase origin moves as x_ph(t) = x_ph0 + U t e_x, so a
 * component is met at the encounter frequency omega_e = omega - k U cos beta_r and its phase
 * constant is -k.x_ph0 - phi: xi(t) = sum Re{ a H(beta_r, 2 pi/|omega_e|) e^{i (omega_e t - k.x_ph0
 * - phi)} }, its rates from i omega_e and -omega_e^2. The relative headings and the phase
 * origin are those of the initial pose (the first-order motion's phases do not follow the
 * low-frequency drift of the body). The whole motion is scaled by the sea's ramp r(t)
 * (PlRamp over ramp_time: r = 0 with r' = r'' = 0 at t = 0, so that a run starts from the
 * static pose with the body points at rest), with its rates by the product rule.
 * A body point P (body frame, from O_b) moves by d_P = xi_t + xi_r x (P - O) (small angles),
 * in the body frame: its global position is r + R (P + d_P), r and R the body's low-frequency
 * pose.
 */
#pragma once
#include <stddef.h>

typedef struct {
  int nh, np;         /* headings and periods (0: no table) */
  double *block;      /* one owned block: headings [nh] (rad, increasing in [0, 2 pi)),
                         periods [np] (s, increasing), H [nh][np][6][re, im] */
  double origin[3];   /* the RAO origin O, body frame from O_b [m] */
  double phase_origin[3]; /* the phase origin, body frame from O_b [m] */
  double speed;       /* forward speed U along the body's x axis [m/s] (encounter frequency) */
} PlRaoTable;

/* What a CSV table's numbers mean (the model file's raos keys). */
typedef enum { PL_RAO_LAG = 0, PL_RAO_LEAD = 1 } PlRaoPhase;
typedef enum { PL_RAO_TOWARDS = 0, PL_RAO_FROM = 1 } PlRaoHeading;
typedef enum { PL_RAO_DEG = 0, PL_RAO_RAD = 1 } PlRaoRotation;
typedef struct {
  PlRaoPhase phase;
  PlRaoHeading heading;
  PlRaoRotation rotations;
} PlRaoConventions;

/* A reader's refusal: the file's line and column (1-based; 0: the file as a whole) and what. */
typedef struct {
  int line, col;
  char msg[400];
} PlRaoError;

/* Reads a CSV table (the format above) from path into t (t's conventions fields untouched).
 * Returns 0, or 1 with e filled (t then owns nothing). */
int PlRaoReadCsv(const char *path, const PlRaoConventions *cv, PlRaoTable *t, PlRaoError *e);
/* Reads the RAOs of body (1-based) from WAMIT's .4 file, rotations divided by ulen [m]. */
int PlRaoReadWamit(const char *path, int body, double ulen, PlRaoTable *t, PlRaoError *e);
void PlRaoFree(PlRaoTable *t);
/* dst = a deep copy of src (dst owns nothing before). Returns 0 or -1 out of memory. */
int PlRaoCopy(const PlRaoTable *src, PlRaoTable *dst);
/* The complex RAOs H[6][re, im] at relative heading beta_r [rad] and period T [s]. */
void PlRaoInterpolate(const PlRaoTable *t, double beta_r, double T, double H[12]);

/* The motion of a body in a sea: one term per linear wave component. */
typedef struct PlRaoMotion_ PlRaoMotion;
/* ncomp components (a, omega, k, beta [rad], phi) as PlWavesComponent gives them; r0 the
 * initial position of O_b, psi0 its initial heading [rad]; ramp_time [s] (0: no ramp).
 * Returns NULL out of memory. */
PlRaoMotion *PlRaoMotionCreate(const PlRaoTable *t, int ncomp, const double *a, const double *omega,
                               const double *k, const double *beta, const double *phi, const double r0[3],
                               double psi0, double ramp_time);
void PlRaoMotionDestroy(PlRaoMotion *m); /* accepts NULL */
/* The RAO origin's motion at t: xi = [translation (m), rotation (rad)] in the body frame and its
 * first two time derivatives (each may be NULL). */
void PlRaoMotionEval(const PlRaoMotion *m, double t, double xi[6], double xid[6], double xidd[6]);
/* The displacement d = xi_t + xi_r x (p - O) of the body point p (body frame) from the
 * origin's xi (or of its rates, from xid or xidd). */
void PlRaoPointMotion(const PlRaoMotion *m, const double xi[6], const double p[3], double d[3]);
