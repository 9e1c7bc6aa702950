/*
 * models.h - the world around the rod: the in-memory model, its YAML loader,
 * the seabed law and the analytic catenary.
 *
 * Frames and units: SI throughout; global frame e with z up, mean sea level z = 0,
 * seabed at z = -water_depth. Arc length S runs from the bottom end (S = 0) to the top
 * end (S = L). No PETSc here: this layer is plain C so that it can be used (and fuzzed)
 * without a solver.
 */
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "pipelay/materials.h"
#include "pipelay/design.h"
#include "pipelay/elements.h"
#include "pipelay/rao.h"

#define PL_PATH_MAX 1024
#define PL_ERRMSG_MAX 1024
#define PL_MAX_WARNINGS 8
#define PL_NAME_MAX 64

typedef enum { PL_ROT_QUATERNION = 0, PL_ROT_EULER_ZXY = 1 } PlRotationKind;
typedef enum { PL_SEABED_NONE = 0, PL_SEABED_NONLINEAR = 1, PL_SEABED_LINEAR = 2 } PlSeabedKind;
typedef enum { PL_GUESS_CATENARY = 0, PL_GUESS_STRAIGHT = 1, PL_GUESS_RESULTS = 2 } PlInitialGuess;
typedef enum { PL_ANALYSIS_STATIC = 0, PL_ANALYSIS_DYNAMIC = 1 } PlAnalysisKind;

/* A user error: "FILE:LINE:COL: key: what is wrong" (line, column 1-based). */
typedef struct {
  char msg[PL_ERRMSG_MAX];
} PlError;

/* One stretch of the line with one cross-section, listed from the bottom end. */
/* Hydrodynamic coefficients of a section (Morison, eqs 5.34-5.37), per unit length.
 * Drag on the velocity relative to the water, split into the part along the pipe axis t
 * (tangential) and normal to it, with the hydrodynamic diameter d_h of the section:
 *   f_drag = -1/2 rho_w d_h (C_dt |v_t| v_t + C_dn |v_n| v_n)          [N/m]
 * (eq 5.34 with D1 = C_dt, D2 = D3 = C_dn). Added mass (optional):
 *   f_added = -rho_w pi d_h^2/4 (C_at a_t + C_an a_n)                  [N/m]
 * Rotational damping (5.37): m = -D_R w, D_R = diag(D4, D5, D6) about t1, t2, t3 [N m s]. */
typedef struct {
  double drag_normal;         /* C_dn [-], default 1.0 */
  double drag_tangential;     /* C_dt [-], default 0.0 */
  double drag_axial_skin;     /* C_dz [-] as given (C_dt = pi C_dz), NAN when C_dt was given or
                                 defaulted: the axial drag on the skin area pi d_h */
  double added_mass_normal;   /* C_an [-], default 0.0 */
  double added_mass_tangential; /* C_at [-], default 0.0 */
  double rotational_damping[3]; /* D4, D5, D6 [N m s per m = N s], default 0 */
} PlHydro;

typedef struct {
  double length;          /* [m] unstretched */
  bool buoyant;           /* the section may float (a lazy wave's buoyancy section) */
  PlSection section;      /* derived properties (materials layer) */
  PlHydro hydro;          /* hydrodynamic coefficients (dynamic analyses only) */
  double curvature[3];    /* stress-free curvature in the section's axes [1/m]: twist, about t2,
                             about t3 (0: straight at rest) */
  double bend_radius;     /* > 0: bent at rest with this radius about the global axis bend_normal
                             instead [m] (meshes/mesh.c, PlMeshRestShape) */
  double bend_normal[3];  /* unit axis of that bend (the normal of its plane), global */
  bool has_sn_curve;      /* the section names its own S-N curve (fatigue:) */
  int sn_curve;           /* then its index in PlSNCurveNames (fatigue.h) */
  double scf;             /* its own stress concentration factor; 0: fatigue.scf */
  double axial_damping;   /* c_a [N s]: Kelvin-Voigt axial damping, the axial force c_a times the
                             strain rate (dynamics; solver/line_dynamics.c AxialDamping) */
} PlSegment;

/* A finer mesh over an arc-length range. */
typedef struct {
  double s_from, s_to;    /* [m] */
  double target_length;   /* [m] */
} PlMeshZone;

/* ---- dynamic analysis: current, prescribed motion, output points ----------------------- */

typedef enum { PL_CURRENT_NONE = 0, PL_CURRENT_UNIFORM, PL_CURRENT_SHEARED, PL_CURRENT_TABLE } PlCurrentKind;

/* Horizontal current v_c(z, t) = s(t) U(z) (cos a, sin a, 0), a = direction, with
 *   uniform: U = speed;  sheared: linear from surface_speed at z = 0 to seabed_speed at
 *   z = -water_depth;  table: piecewise linear in z through (table_z[i], table_speed[i]),
 *   z strictly increasing, constant beyond the ends (z > 0 is taken as z = 0);
 *   s(t) = 0 before start_time, then the C^2 ramp 10r^3 - 15r^4 + 6r^5 of
 *   r = (t - start_time)/ramp_time over ramp_time, then 1 (ramp_time = 0: a step). */
typedef struct {
  PlCurrentKind kind;
  double direction_deg;       /* the direction the water flows towards, from +x towards +y */
  double speed;               /* uniform [m/s] */
  double surface_speed;       /* sheared: at z = 0 [m/s] */
  double seabed_speed;        /* sheared: at z = -water_depth [m/s] */
  int ntable;                 /* table rows (>= 2) */
  double *table_z;            /* [ntable] [m], strictly increasing, <= 0 (owned by the model) */
  double *table_speed;        /* [ntable] [m/s] (owned by the model) */
  double start_time;          /* [s] */
  double ramp_time;           /* [s] >= 0 */
} PlCurrent;

/* ---- dynamic analysis: waves (the kinematics: models/waves.c, pipelay/waves.h) ----------- */
typedef enum {
  PL_WAVE_AIRY = 0, /* linear regular wave */
  PL_WAVE_STREAM,   /* Fourier stream-function regular wave */
  PL_WAVE_JONSWAP,  /* DNV-RP-C205 JONSWAP */
  PL_WAVE_PM,       /* Pierson-Moskowitz */
  PL_WAVE_TABLE,    /* user spectrum table (omega, S) */
  PL_WAVE_SERIES    /* measured elevation record at a reference point */
} PlWaveKind;

typedef enum { PL_STRETCH_VERTICAL = 0, PL_STRETCH_WHEELER, PL_STRETCH_EXTRAPOLATION } PlWaveStretching;

/* One wave train. Zero-initialise, then set what the kind needs; 0 selects the defaults. */
typedef struct {
  PlWaveKind kind;
  double heading_deg; /* direction of travel, degrees from +x towards +y */
  /* regular (Airy, stream) */
  double height;    /* H [m] crest to trough */
  double amplitude; /* Airy: a [m] (used when > 0, else a = H/2) */
  double period;    /* T [s] */
  double phase_deg; /* phi [deg]: crest at the origin at t = phi/omega */
  int stream_terms; /* stream: Fourier terms N (4..64; 0: the fewest of 16, 24, 32, 48, 64
                       that satisfy the surface conditions between the collocation points to
                       1e-8 of kH, else the best of those that converge: PlWavesInfo) */
  /* spectra (JONSWAP, PM, table) */
  double hs, tp;              /* [m], [s] */
  double gamma;               /* JONSWAP peak enhancement; <= 0: DNV's rule from Hs, Tp */
  double sigma_a, sigma_b;    /* JONSWAP widths below / above omega_p (0: 0.07, 0.09) */
  int n_components;           /* frequency bins (default 200) */
  double omega_min, omega_max; /* [rad/s] range synthesised (0: 0.5 and 6 omega_p; the table's) */
  int n_directions;           /* directions per bin (default 1: long-crested) */
  double spreading_s;         /* s of cos^2s spreading (n_directions > 1) */
  uint64_t seed;              /* random frequencies within bins, phases (and amplitudes) */
  int rayleigh;               /* 1: Rayleigh amplitudes; 0: equal amplitudes (default) */
  int n_table;                /* table rows (>= 2), omega strictly increasing */
  const double *table_omega;  /* [rad/s] (copied at PlWavesCreate) */
  const double *table_s;      /* [m^2 s/rad] */
  /* measured series: eta(t0 + i dt), i = 0..n_series-1, at (ref_x, ref_y) */
  int n_series;
  const double *series_eta; /* [m] (copied at PlWavesCreate; its mean is removed) */
  double series_dt, series_t0; /* [s] */
  double ref_x, ref_y;         /* [m] */
  double series_omega_max;     /* [rad/s] harmonics kept up to here (0: up to Nyquist) */
} PlWaveTrain;

/* The sea of the model file's waves: block: the trains superposed, their stretching and the
 * probes of waves.csv. Each train's table and series arrays are owned by the model (PlModelFree;
 * the pointers are const in PlWaveTrain, which PlWavesCreate copies from). ntrains 0: calm sea
 * (no kinematics are evaluated: the loads see the current alone). */
typedef struct {
  PlWaveStretching stretching; /* above the mean level (PL_STRETCH_VERTICAL default) */
  int ntrains;
  PlWaveTrain *trains;         /* [ntrains] */
  int nprobes;
  double (*probes)[2];         /* [nprobes] x, y [m] (global) where waves.csv records eta */
  double ramp_time;            /* [s] the bodies' RAO motion is ramped in over it from t = 0
                                  (PlRamp: C^2, no breakpoint); 0: none */
} PlSea;

typedef enum { PL_MOTION_NONE = 0, PL_MOTION_HARMONIC, PL_MOTION_CIRCLE, PL_MOTION_TIMESERIES, PL_MOTION_ROUTE } PlMotionKind;

/* Prescribed motion of an end in a dynamic analysis, relative to the end's static
 * position and frame. Every DOF the motion moves is held during the dynamic run (also
 * one that was free in the static analysis: its static value is the start of the motion).
 *   harmonic: DOF d (0..5 = x, y, z [m], rx, ry, rz [deg] about the end's static frame
 *     axes) moves by a_d sin(2 pi (t - t0)/T_d + phase_d), scaled by the C^2 ramp over
 *     ramp_time from start_time (nothing before start_time).
 *   circle (section 5.4.3): horizontal offset r(t) (cos th, sin th, 0),
 *     th = +-2 pi (t - start_time)/period (+ counter-clockwise seen from above), with
 *     r(t) = radius * ramp: up over ramp_up, full for hold, down over ramp_down (C^2
 *     ramps), zero before and after. x, y, z are held; the path spirals out and back.
 *   timeseries: CSV file with header "t,x,y,z" or "t,x,y,z,rx,ry,rz" (s, m, deg), offsets
 *     from the static position / frame, t strictly increasing, linear interpolation (or
 *     cubic: C^1, so that the prescribed velocity has no jumps),
 *     held constant after the last row and zero before the first. Rotations present:
 *     all three rotations are held.
 *   route (the top end, with lay.route and a pay-out rate): the vessel leads the touchdown
 *     point along the route: with the static touchdown at station sigma_0 and the top's
 *     static plan offset from it b_0, the top is at r(sigma) + Rot(theta(sigma) - theta_0) b_0,
 *     sigma = sigma_0 + s(t) (the pay-out), in plan (solver/line_dynamics.c); x, y, z held. */
typedef struct {
  double amplitude;           /* [m] or [deg] */
  double period;              /* [s] > 0 */
  double phase_deg;           /* [deg] */
} PlHarmonic;

typedef struct {
  PlMotionKind kind;
  double start_time;          /* [s] harmonic, circle */
  double ramp_time;           /* [s] harmonic: ramp up */
  bool harmonic_dof[6];       /* harmonic: which DOFs move */
  PlHarmonic harmonic[6];     /* harmonic: per DOF */
  double radius;              /* circle [m] */
  double period;              /* circle [s] */
  double ramp_up, hold, ramp_down; /* circle [s] */
  bool counter_clockwise;     /* circle, default true */
  char file[PL_PATH_MAX];     /* timeseries: path as given (relative to the model file) */
  int nrows;                  /* timeseries rows */
  int ncols;                  /* 4 (t,x,y,z) or 7 (t,x,y,z,rx,ry,rz) */
  bool cubic;                 /* timeseries: C^1 cubic Hermite interpolation (slopes from the
                                 neighbouring rows) instead of linear (the default) */
  double *table;              /* timeseries [nrows][7], row-major, rotations in deg;
                                 owned by the model (PlModelFree) */
} PlMotion;

/* ==== vessel environment load and DP controller (models/dp.c) ============================== */
/* Pure functions of time and of the vessel's state; the vessel itself is in elements.h
 * (PlVessel, state y of PL_VESSEL_NY = 13 unknowns: r, q, v, w). Frames as there: global
 * x, y horizontal, z up; body x forward, y to port, z up. eta = [x, y, z, phi, theta, psi]
 * (position of O_b, zyx Euler angles of R_b^e), nu = [v; w] in the body frame. */

/* Environmental force on the vessel (tau_env of 5.47; the thesis' w of 4.10): a constant
 * part ramped in from start_time (C^2 ramp PlRamp over ramp_time; 0: a step) plus an
 * optional time series, in the global frame (a dead load at O_b: pass it to
 * PlVesselDynamics as load_global) or the body frame (a follower load: tau_body). */
typedef struct {
  bool body_frame;       /* false: global frame (default); true: body frame */
  double value[6];       /* constant part: force [N], moment [N m] */
  double start_time;     /* [s] the constant part is zero before */
  double ramp_time;      /* [s] >= 0 */
  int nrows;             /* time-series rows (0: none) */
  const double *table;   /* [nrows][7]: t [s], Fx, Fy, Fz [N], Mx, My, Mz [N m], t strictly
                            increasing; linear interpolation, zero before the first row, the
                            last row held after; not owned (the caller keeps it alive) */
} PlVesselLoad;
/* out = the load at time t (6 values in the load's frame). */
void PlVesselLoadEval(const PlVesselLoad *L, double t, double out[6]);
/* The same (into out), added to tau_body (a body-frame load) or to load_global (a global one):
 * the two load arguments of PlVesselDynamics. */
void PlVesselLoadApply(const PlVesselLoad *L, double t, double out[6], double tau_body[6], double load_global[6]);

/* DP reference eta_ref(t), eta_ref_dot(t) (global position [m], Euler angles [rad]):
 *   fixed      eta0;
 *   circle     eta0 + (d(t), 0): the circle of section 5.4.3 with its ramps, d(t) from
 *              PlMotionEval on `circle` (kind PL_MOTION_CIRCLE: radius, period,
 *              start_time, ramp_up, hold, ramp_down, counter_clockwise);
 *   line       eta0 + s(t) (cos chi, sin chi, 0), chi = course, at the lay speed U from
 *              start_time, the speed ramped in by PlRamp over ramp_time:
 *              s = U T_r F((t - t0)/T_r), F(r) = 5r^4/2 - 3r^5 + r^6 (r <= 1), r - 1/2 after;
 *   waypoints  along the polyline waypoint[0] -> waypoint[1] -> ... from start_time, leg i at
 *              leg_speed[i] (velocity piecewise constant: it jumps at each waypoint), held at
 *              the last waypoint; before start_time at waypoint[0]; z from eta0.
 * Heading: line and waypoints: psi_ref = the course of the (current) leg when
 * heading_along_path, else eta0[5]; roll and pitch references eta0[3], eta0[4]. */
typedef enum {
  PL_DP_REF_FIXED = 0, PL_DP_REF_CIRCLE, PL_DP_REF_LINE, PL_DP_REF_WAYPOINTS, PL_DP_REF_ROUTE
} PlDPReferenceKind;
struct PlRoute_;
/* route (the lay along lay.route): the vessel leads the touchdown point along
 * the route; a sampled guidance (PlDPRouteStart, PlDPRouteSample) keeps the touchdown point on
 * it. With sigma_t(t) = sigma_0 + D(t) the touchdown's target station (D the lay speed's
 * distance, ramped in as `line`'s), r, t, n = t turned left and kappa the route's point,
 * tangent, normal and curvature there, and b = (b_a, b_c) the vessel's offset from that point
 * in the route's frame (along, across: the layback),
 *   p_ref = r(sigma_t) + b_a t + b_c n,  psi_ref = theta(sigma_t) + psi_0 - theta(sigma_0)
 *   (heading along_path; else eta0's), z, roll, pitch from eta0,
 *   p_ref' = sigma_t' (t + kappa (b_a n - b_c t)) + b_a' t + b_c' n,  psi_ref' = kappa sigma_t'.
 * The layback b is the guidance's: at each sample t_k (every `interval`) the touchdown point's
 * lateral offset e from the route (left positive) is measured and, with the span's time constant T = b_a / D' (the
 * touchdown follows the span's plan direction: e' = D' (y - e - d) / b_a for a vessel lateral
 * offset y and a drift d of the span by the current), a PI law on the touchdown's offset
 *   I_c <- I_c - min(k dt, 1/2) e,  k = (1 + g)^2 / (4 T),   b_target = (b_a, I_c - g e)
 * gives e'' + (1 + g)/T e' + k/T e = 0: critically damped, time constant 2 T / (1 + g), with
 * no steady offset under a steady drift (I_c takes up the current's deflection of the span and
 * the DP's own offset); b moves linearly from its value at t_k to b_target over the interval
 * (the reference stays continuous). The along part b_a stays the start's layback: moving the
 * vessel back moves a touchdown on a tensioned laid pipe forward (the catenary slackens and
 * lays more pipe down), so the touchdown's station is not a vessel-position loop; the lay speed
 * and the pay-out set it. Before PlDPRouteStart (statics) the reference is eta0. */
typedef struct {
  PlDPReferenceKind kind;
  double eta0[6];          /* set point / start of the path [m, rad] */
  PlMotion circle;         /* circle: its circle fields (kind PL_MOTION_CIRCLE) */
  double speed;            /* line: lay speed [m/s] >= 0 */
  double course_deg;       /* line: direction of travel from +x towards +y [deg] */
  double start_time;       /* line, waypoints [s] */
  double ramp_time;        /* line: speed ramp [s] >= 0 */
  bool heading_along_path; /* line, waypoints: psi_ref = course (else eta0[5]) */
  int nwaypoints;          /* waypoints: >= 2 */
  double (*waypoint)[2];   /* [nwaypoints] x, y [m], global (owned by the model, PlModelFree) */
  double *leg_speed;       /* [nwaypoints] speed from waypoint i to i+1 [m/s] > 0 (the last unused;
                              owned by the model) */
  /* route: the settings (speed, start_time, ramp_time above) */
  double gain;             /* g [-] >= 0: the lateral correction's proportional part */
  double interval;         /* the guidance's sample interval [s] > 0 */
  /* route: the guidance's state (PlDPRouteStart, PlDPRouteSample); route NULL: not started */
  const struct PlRoute_ *route; /* the model's lay.route (not owned) */
  double sigma0, psi0;     /* sigma_0 [m]; psi_0 - theta(sigma_0) [rad] */
  double tk;               /* the last sample's time [s] */
  double b0[2], b1[2];     /* the layback at tk and its target at tk + interval [m] */
  double integ_c;          /* the lateral layback's integral part I_c [m] */
} PlDPReference;
void PlDPReferenceEval(const PlDPReference *ref, double t, double eta_ref[6], double eta_ref_dot[6]);
/* route: starts the guidance at time t from the touchdown point td (plan) and the reference's
 * eta0: sigma_0 the station of td's projection, b = I the offset of eta0 from the route's point
 * there (so the reference is continuous with the statics'), psi_0 from eta0. */
void PlDPRouteStart(PlDPReference *ref, const struct PlRoute_ *route, double t, const double td[2]);
/* route: a sample at time t with the touchdown point td (plan): the PI step above. */
void PlDPRouteSample(PlDPReference *ref, double t, const double td[2]);

/* Nonlinear PID of eqs 4.44-4.45 with diagonal gains, in the body frame:
 *   eta~ = eta - eta_ref (angles wrapped to (-pi, pi]),  eta~dot = J(eta) nu - eta_ref_dot,
 *   tau_PID = Kp eta~ + Kd eta~dot + Ki S_b(z),
 *   tau_i = s(t) sat_i((-J(eta)^T tau_PID)_i) + (1 - s(t)) tau_hold_i on the actuated DOFs,
 *   0 on the others,
 * J = diag(R_b^e, T_Theta) (4.7, 5.42), T_Theta the zyx Euler-rate matrix (singular at
 * pitch +-90 deg); s(t) = 0 before start_time, then the C^2 ramp over ramp_time (0: step).
 * Integral state z (6 extra DAE unknowns, one per DOF) with the rows
 *   rz_i = zdot_i - s(t) (eta~_i - B_i(z_i)/T_aw)     (Ki_i != 0; else rz_i = zdot_i)
 * Bounded integral action (anti-windup), with b_i = integral_bound[i] > 0:
 *   S_b(z) = sat(z; b, b/10) (identity for |z| <= 0.9 b, C^1, |S_b| <= b), so |Ki S_b| <= Ki b,
 *   B(z) = z - S_b(z) (zero inside the band) bleeds z back into the band with time
 *   constant T_aw (back-calculation); b_i <= 0: S = z, B = 0 (the thesis' pure integral).
 * Thrust limit, L = thrust_max[i] > 0: sat(x; L, L/20), C^1, identity for |x| <= 0.95 L,
 * |sat| <= L. sat(x; L, w) = x for |x| <= L - w, sign(x) L for |x| >= L + w, and
 * x - sign(x)(|x| - L + w)^2/(4w) between. */
typedef struct {
  double Kp[6];            /* [N/m] x, y, z; [N m/rad] roll, pitch, yaw, >= 0 */
  double Kd[6];            /* [N s/m], [N m s/rad] >= 0 */
  double Ki[6];            /* [N/(m s)], [N m/(rad s)] >= 0 */
  double integral_bound[6];/* b_i [m s, rad s]; <= 0: unbounded */
  double antiwindup_time;  /* T_aw [s] > 0 (default 1) */
  bool actuated[6];        /* body-frame DOFs the thrusters act in (default surge, sway, yaw) */
  double thrust_max[6];    /* [N, N m] per body-frame DOF; <= 0: no limit */
  double start_time;       /* [s] controller off before: tau = tau_hold (open loop), z frozen */
  double ramp_time;        /* [s] >= 0 */
  PlDPReference ref;
  double tau_hold[6];      /* body-frame thrust held before start_time [N, N m] (default 0;
                              a run from the coupled static equilibrium holds the static
                              thrust there, so that the start is an equilibrium) */
} PlDPController;

/* Derivatives of the controller outputs (6x6, row-major). */
typedef struct {
  double dtau_deta[36], dtau_dnu[36], dtau_dz[36];
  double drz_deta[36];     /* d rz / d eta (d rz / d nu = 0) */
  double drz_dz[36];       /* d rz / dz + cj d rz / dzdot */
} PlDPJacobian;

/* Gains zero, actuated surge, sway and yaw, no limits, T_aw = 1 s, start 0, fixed reference
 * at the origin. */
void PlDPControllerDefaults(PlDPController *c);
/* Validates the settings. Returns 0, or 1 with a message naming the field. */
int PlDPControllerCheck(const PlDPController *c, char *msg, size_t len);
/* tau (body frame, add to the vessel's tau_body) and the integral rows rz at time t for
 * eta, nu, z, zdot; when J is not NULL their derivatives (exact, dual numbers). */
void PlDPControl(const PlDPController *c, double t, const double eta[6], const double nu[6], const double z[6],
                 const double zdot[6], double cj, double tau[6], double rz[6], PlDPJacobian *J);
/* The same on the vessel's state y (13, elements.h): eta, nu from y, and the derivatives
 * with respect to y by the chain rule (each pointer may be NULL): dtau_dy, drz_dy (6x13),
 * dtau_dz, drz_dz (6x6, the latter with cj on the diagonal). The vessel rows get -tau, so
 * its iteration matrix gets -dtau_dy (rows PL_VESSEL_V..+5) and -dtau_dz (columns of z). */
void PlDPControlVessel(const PlDPController *c, double t, const double y[13], const double z[6], const double zdot[6],
                       double cj, double tau[6], double rz[6], double *dtau_dy, double *dtau_dz, double *drz_dy,
                       double *drz_dz);
/* ==== end of the vessel environment and DP section ======================================== */

/* ==== the vessel at the top of the line ===================================================
 * With a vessel the top end of the line hangs from the hang-off point P of a 6-DOF vessel
 * (elements.h, PlVessel), on its own or steered by the DP controller; the static
 * equilibrium and the dynamic run solve pipe and vessel together (solver/vessel_*.c).
 * ends.top then carries nothing: its position, rotation and loads are the vessel's. */
typedef enum { PL_HANGOFF_FIXED = 0, PL_HANGOFF_HINGE = 1 } PlHangOffKind;
typedef struct {
  bool present;              /* a vessel block was given */
  char name[256];            /* free text */
  PlVessel body;             /* inertia, damping, hydrostatics (PlVesselInit defaults; the
                                loader fills MRB from mass/centre of gravity/inertia or takes
                                mass_matrix, converts axes: fossen_ned; rho_w and gravity
                                are the environment's) */
  double position[3];        /* initial position of O_b, global [m]: where the coupled static
                                equilibrium starts (and where DOFs without any stiffness stay) */
  double rpy[3];             /* initial roll, pitch, yaw (zyx) [rad] (input in degrees) */
  double velocity[3];        /* initial velocity of O_b, body frame [m/s] (dynamic) */
  double angular_velocity[3];/* initial angular velocity, body frame [rad/s] (dynamic) */
  double hang_off[3];        /* hang-off point P from O_b, body frame [m] */
  PlHangOffKind connection;  /* fixed: the top section turns with the vessel (eq 4.5);
                                hinge: a ball joint, no moment passes */
  double top_frame[9];       /* fixed: R_t^b, the top section's axes t1, t2, t3 (columns) in
                                the body frame, row-major (eq 4.5: R_t^e(L) = R_b^e R_t^b);
                                input as zxy Euler angles [deg] like ends.*.orientation */
  PlVesselLoad environment;  /* environmental load w (its table owned by the model) */
  PlHull hull;               /* strips of a slender hull for Morison drag in the current
                                (PlVesselHullLoad); n = 0: none */
  PlRaoTable rao;            /* displacement RAOs (raos: rao.nh 0: none): the first-order motion
                                of the body points in the sea's waves (pipelay/rao.h; owned) */
  PlRaoTable excitation;     /* first-order wave force RAOs (excitation: N/m, N m/m about its origin;
                                nh 0: none): a body-frame load in the sea's waves (owned) */
  bool has_dp;               /* a dp block was given */
  PlDPController dp;         /* DP controller (reference angles in rad) */
  char id[PL_NAME_MAX];      /* the object's name in the model graph: "vessel" for the vessel
                                block, bodies[*].name otherwise (joints refer to it; its time
                                series is timeseries_<id>.csv) */
} PlVesselModel;

/* ==== bodies and joints without a line (docs/design-system-core.md) ======================
 * A model without line: is a system of rigid bodies (bodies: or the vessel: shorthand, one
 * body named "vessel") joined by joints to each other or to the ground, integrated as one
 * DAE (solver/system_run.c over solver/multibody.c). A joint is given in the global frame at
 * the bodies' initial poses (so that it is assembled there: g = 0 by construction): its point
 * P and, for a revolute or prismatic joint, its axis n; the loader turns these into the
 * kernel's body-frame data (PlJoint: p_a = R_a0^T (P - r_a0), F_a = R_a0^T F, F = [n, f2, f3]
 * orthonormal; the ground's p_b = P, F_b = F). */
typedef struct {
  char name[PL_NAME_MAX];    /* unique among the model's objects, [A-Za-z0-9_-]+ */
  int body[2];               /* indices into PlModel.bodies; body[1] = -1: the ground */
  double point[3];           /* P, global, at the initial poses [m] */
  double axis[3];            /* n, unit, global (revolute: the hinge axis; prismatic: the
                                sliding direction; others: (1, 0, 0)) */
  PlJoint joint;             /* the kernel's data (kind, p_a, p_b, F_a, F_b) */
} PlJointModel;

/* A point on the line whose time series is written: the node nearest arc length S. */
typedef struct {
  char name[64];              /* [A-Za-z0-9_-]+, used in the file name */
  double arc_length;          /* [m], 0 <= S <= L */
  int line;                   /* a model of lines: the index of its line in lines[]; else -1 */
} PlOutputPoint;

/* Settings of a dynamic (time-domain) analysis. It starts from the static solution of
 * the same model (analysis.* static settings apply to that solve). */
typedef struct {
  double duration;            /* [s] simulated time, required, > 0 */
  double output_interval;     /* [s] time between output rows, default 0.1 */
  double rtol;                /* IDA relative tolerance, default 1e-4 */
  double atol_position;       /* [m] absolute tolerance on positions (default: the loader's,
                                 PlModelInitDefaults; docs/model-file.md) */
  double atol_rotation;       /* [-] on rotation parameters, default 1e-5 */
  double atol_velocity;       /* [m/s] on translational velocities, default 1e-3 */
  double atol_angular_velocity; /* [rad/s] on angular velocities (the bodies' w, the line nodes'),
                                   default: the loader's (PlModelInitDefaults; schema_table.c) */
  double atol_strain;         /* [-] each rod element's strain (end positions' difference over
                                 its length) in the error norm, and a node's position tolerance
                                 min(atol_position, atol_strain x the shorter adjacent element),
                                 default 5e-7: the axial force is EA times that strain */
  double max_step;            /* [s] largest time step; 0 = no limit (default) */
  double initial_step;        /* [s] first step; 0 = IDA's choice (default) */
  int max_order;              /* BDF order limit 1..5 (default: the loader's, PlModelInitDefaults) */
  int max_steps;              /* steps allowed, default 1000000 */
  double atol_reaction;       /* [N, N m] absolute tolerance of joint reactions (Lagrange
                                 multipliers) in IDA's Newton test; they are left out of the
                                 error test; default 1 */
} PlDynamicSettings;

/* DOF indices of an end: translations x,y,z then rotations about the end frame's axes. */
enum { PL_DOF_X = 0, PL_DOF_Y, PL_DOF_Z, PL_DOF_RX, PL_DOF_RY, PL_DOF_RZ };

/* ends.top.target: what the static analysis of a one-line model reaches by scaling the top
 * end's force (its direction kept): the top tension (the magnitude of the line's force on its
 * top end, summary.json's top_tension_N) or the hang-off angle (the top tangent from the
 * horizontal, hang_off_angle_deg). */
typedef enum { PL_TARGET_NONE = 0, PL_TARGET_TENSION, PL_TARGET_ANGLE } PlEndTargetKind;

typedef struct {
  bool fixed[6];          /* held DOFs: x,y,z (global) and rotations about t1,t2,t3 of the
                             end's reference frame */
  bool has_position[3];   /* position component given (required where the DOF is held) */
  double position[3];     /* [m] global */
  double orientation[9];  /* R_t^e of the end, row-major; columns are t1,t2,t3 in e.
                             Identity (pipe along +x) unless given */
  bool has_orientation;   /* orientation given by the user */
  double force[3];        /* applied force [N], global, dead load */
  double moment[3];       /* applied moment [N m], global, dead load */
  PlEndTargetKind target; /* the top end: force scaled to reach target_value in statics */
  double target_value;    /* [N] a top tension, [rad] a hang-off angle */
  PlMotion motion;        /* prescribed motion in a dynamic analysis (kind NONE: none) */
  /* the pay-out, from payout to tension_filter: one block (PlVesselTopEnd keeps it whole) */
  bool payout;            /* ends.top.payout: pipe paid out (rate > 0) or in at this end */
  bool payout_tension;    /* tension-controlled (else the prescribed rate below) */
  double payout_rate;     /* [m/s] the settled rate */
  double payout_start;    /* [s] when the rate starts to rise (tension: the controller starts) */
  double payout_ramp;     /* [s] the rise (C^2 ramp, PlRamp), 0: a step */
  double tension_set;     /* tension control: the set tension [N] */
  double tension_gain;    /* k [m/s per N]: the rate commanded per newton of tension error */
  double tension_max_rate;/* [m/s] the commanded rate's limit (smooth: R tanh(k e / R)) */
  double tension_lag;     /* tau [s]: the winch follows the command as a first-order lag */
  double tension_interval;/* [s] the controller's sample interval */
  double tension_filter;  /* [s] the load cell's first-order low-pass time constant (0: none) */
  int point;              /* a line of lines: the index of the point it is attached to (held
                             in x, y, z at the point, rotations free, no loads), or -1 */
  int body;               /* a line of lines: the index of the body it is attached to (held in
                             x, y, z at the body point `at`, rotations free: a hinge), or -1 */
  double at[3];           /* the body point, body frame from O_b [m] */
  PlHangOffKind connection; /* an end on a body: hinge (rotations free, no moment) or fixed (the
                             end's frame turns with the body at body_frame; its moment goes
                             into the body), as vessel.hang_off.connection */
  double body_frame[9];   /* fixed: R_t^b, the end frame's t1, t2, t3 (columns) in the body
                             axes, row-major, as PlVesselModel.top_frame; else the identity */
} PlEnd;

typedef struct {
  PlAnalysisKind kind;
  int load_steps;          /* initial number of equal load increments (>= 1) */
  int max_cutbacks;        /* halvings of a failed increment before giving up */
  int max_iterations;      /* Newton iterations per load step */
  double rtol;             /* relative residual tolerance */
  double atol;             /* absolute residual tolerance [N]; <= 0 means automatic */
  PlInitialGuess initial_guess;
  char start_from[PL_PATH_MAX]; /* PL_GUESS_RESULTS: the previous run's output directory (as
                                   opened: resolved against the model file's directory) */
  char petsc_options[PL_PATH_MAX]; /* extra PETSc options, e.g. "-snes_monitor" */
  PlDynamicSettings dynamic;  /* used when kind == PL_ANALYSIS_DYNAMIC */
} PlAnalysis;

/* ==== several lines joined at points (docs/design-system-core.md) ==========================
 * A model may give lines: instead of line:, mesh: and ends:, each item with the keys line,
 * mesh and ends of a one-line model and a name; an end may be attached to a point (ends.*.point:
 * NAME) or to a body of bodies: at a body point on a hinge (ends.*.body: NAME, at: [x, y, z])
 * instead of being given. points: are connection nodes: fixed (an anchor several lines
 * share) or free, with a mass and a displaced volume (a clump weight, a buoy): their net weight
 * (mass - rho_w volume) g acts downwards at the point. Statics only today (solver/lines.c). */
typedef struct {
  char name[PL_NAME_MAX];    /* unique among the model's objects, [A-Za-z0-9_-]+ */
  double length;             /* [m] */
  int nsegments;
  PlSegment *segments;       /* [nsegments] (owned by the model) */
  bool rest_from_start;      /* as PlModel's */
  int mesh_elements;         /* as PlModel's */
  double mesh_target_length;
  int nzones;
  PlMeshZone *zones;         /* [nzones] (owned by the model) */
  PlEnd ends[2];             /* [0] bottom (S = 0), [1] top (S = L) */
} PlLineModel;
typedef struct {
  char name[PL_NAME_MAX];
  bool fixed;                /* held at position (an anchor); else free */
  double position[3];        /* [m] global: where it is held, or where a free one starts */
  double mass;               /* [kg] >= 0 */
  double volume;             /* [m^3] >= 0 displaced (buoyancy rho_w g volume) */
  double velocity[3];        /* [m/s] global, a free point's initial velocity (dynamic), default 0 */
  double drag_area;          /* [m^2] Cd A of a free point (isotropic Morison drag), default 0 */
  double added_mass_coefficient; /* [-] Ca: added mass Ca rho_w volume, default 0 */
} PlPointModel;

/* A seabed of measured depths (seabed.bathymetry): heights z_s = -depth [m] on the regular
 * grid x_i = x0 + i dx (i < nx), y_j = y0 + j dy (j < ny), with the Catmull-Rom slopes of
 * bicubic Hermite interpolation at the nodes (models/seabed.c). Arrays [ny][nx], one block. */
typedef struct {
  int nx, ny;
  double x0, y0, dx, dy;   /* [m] */
  double *z, *zx, *zy, *zxy; /* z [m], dz/dx, dz/dy [-], d2z/dxdy [1/m] at the nodes */
} PlBathymetry;

/* The lay route (lay.route, models/route.c): waypoints in plan with their inner corners rounded
 * by arcs of one radius; its pieces (legs and arcs) end to end in arc length from the first
 * point (PlRouteBuild). */
typedef struct {
  int arc;                     /* 0 a leg, 1 an arc */
  double s0, len;              /* its start station and length [m] */
  double a[2], t[2];           /* its start point and the unit tangent there */
  double c[2];                 /* an arc's centre */
  double sign;                 /* an arc's turn: +1 left, -1 right */
} PlRoutePiece;
typedef struct PlRoute_ {
  int n;                       /* waypoints (0: no route) */
  double (*p)[2];              /* [n] [m] global x, y (owned by the model) */
  double radius;               /* [m] of the arcs at the inner points */
  int npieces;
  PlRoutePiece *piece;         /* [2 n] room for the pieces (owned by the model; PlRouteBuild
                                  fills npieces of them) */
  double length;               /* [m] from the first point to the last */
} PlRoute;

/* stinger: the rollers an S-lay pipe rests on over the overbend (a model of lines:). Each roller
 * is an infinite cylinder of axis a through c, on whose contact side n (normal to a) the pipe
 * rests; the contact law is elements/roller.c's. The rollers stand on a constant-radius arc in
 * the vertical plane of the lay: the pipe's centreline passes through start, heading away from
 * the vessel along the plan direction heading, start_angle below the horizontal there, and
 * bends down with radius R (the pipe's centreline radius); roller i is at arc length
 * station[i] from start, its axis horizontal and normal to the lay's plane, rho = its radius +
 * the pipe's outer radius below the pipe's centreline. */
#define PL_ROLLERS_MAX 256
typedef struct {
  double c[3];                 /* a point of the axis, global [m] */
  double a[3];                 /* the axis (unit) */
  double n[3];                 /* the contact side (unit, normal to a): towards the pipe */
  double station;              /* arc length from the stinger's start [m] */
  double top[3];               /* the pipe's centreline on the arc above the roller, global [m] */
} PlRollerModel;

typedef struct {
  bool present;                /* stinger: given */
  int line;                    /* the line it carries (index in lines) */
  double radius;               /* R [m]: the pipe's centreline radius over the rollers */
  double start[3];             /* the arc's first point (station 0), global [m] */
  double heading;              /* the lay's plan direction away from the vessel [rad from +x] */
  double start_angle;          /* the pipe's slope below the horizontal at start [rad] */
  double roller_radius;        /* [m] */
  double pipe_diameter;        /* the carried line's outer diameter at the stinger [m] */
  double stiffness;            /* the contact's penalty stiffness [N/m] */
  double damping;              /* its damping along the normal, dynamics [N s/m] */
  double smoothing;            /* the penetration over which the penalty's slope grows from 0 to
                                  stiffness (C^1) [m] */
  double reach;                /* a crossing deeper than this below a roller's surface is no
                                  contact [m] */
  int nrollers;
  PlRollerModel rollers[PL_ROLLERS_MAX];
} PlStinger;

/* The model. Ownership: a model owns every array its pointers reference (the sections, zones,
 * output points, bodies, joints, lines with their sections and zones, points, the current's
 * table, the route's points and pieces, the motions' and environment loads' time series, the
 * bathymetry grid), each sized by its count; PlModelFree frees them all. A model is never
 * copied by assignment (the copy would share the arrays, and freeing both frees them twice):
 * PlModelCopy makes a deep copy, and PlModelLineModel and PlModelAsLines build models that
 * own their arrays too; each such model is freed with PlModelFree. */
/* fatigue: the Miner damage of a dynamic run's line points (output/fatigue.c). */
typedef struct {
  bool present;                /* the fatigue: block is given */
  int sn_curve;                /* index in PlSNCurveNames (fatigue.h) */
  int environment;             /* PlSNEnvironment (fatigue.h) */
  double scf;                  /* stress concentration factor >= 1 */
  int angles;                  /* points around the circumference */
  double exposure;             /* [s/year] the time per year the run's conditions act; 0: not given */
} PlFatigueSettings;

/* operability: the limits a sea state's dynamic run must keep to be operable (pipelay
 * operability, app/cmd_operability.c); NaN: not a criterion. */
typedef struct {
  bool present;                /* the operability: block is given */
  double max_utilisation;      /* [-] the DNV-ST-F101 utilisation (design.dnv_f101) */
  double max_top_tension;      /* [N] */
  double min_effective_tension; /* [N] the least effective tension anywhere along the line */
  double max_fibre_strain;     /* [-] */
  int n_components;            /* frequency bins of each sea state's JONSWAP train */
  int seed;                    /* the trains' seed when the table has no seed column */
} PlOperabilitySettings;

typedef struct {
  char name[256];              /* free text */
  char source_path[PL_PATH_MAX]; /* the model file */

  /* environment */
  double water_depth;          /* [m] > 0, seabed at z = -water_depth */
  double water_density;        /* [kg/m^3] */
  double gravity;              /* [m/s^2] */

  /* line */
  double length;               /* [m] total unstretched length = sum of segment lengths */
  int nsegments;
  PlSegment *segments;         /* [nsegments] */
  bool rest_from_start;        /* line.rest_shape start: the start shape is the stress-free shape
                                  (else straight, or the sections' curvature at rest) */

  /* seabed */
  PlSeabedKind seabed;
  double seabed_stiffness;     /* linear model: [N/m per m of pipe = N/m^2] */
  double seabed_damping;       /* dynamic: contact damping along the normal [N s/m^2]; NAN (the
                                  default): per section, PlSeabedDamping */
  double seabed_slope_deg;     /* the seabed plane's slope [deg] in [0, 45), 0: flat */
  double seabed_slope_dir_deg; /* the direction it rises towards [deg from +x towards +y] */
  double seabed_normal[3];     /* its upward unit normal (0, 0, 1 flat); the plane passes
                                  through (0, 0, -water_depth) (PlModelInit, the loader) */
  PlBathymetry *bathymetry;    /* seabed.bathymetry: the grid (owned, PlModelFree), or NULL
                                  for the plane above */
  char bathymetry_file[PL_PATH_MAX]; /* its file as given */
  bool friction;               /* seabed.friction: Coulomb friction, elastic-slip (models/friction.c) */
  double friction_axial;       /* mu_a [-] along the pipe */
  double friction_lateral;     /* mu_l [-] across it */
  double mobilisation_axial;   /* delta_a [m]: the slip at which the axial friction is mobilised */
  double mobilisation_lateral; /* delta_l [m]; 0: 0.1 d_o of the section (PlFrictionMobilisation) */

  /* mesh */
  int mesh_elements;           /* > 0: total element count; 0: use target length */
  double mesh_target_length;   /* [m] used when mesh_elements == 0 */
  int nzones;
  PlMeshZone *zones;           /* [nzones] */

  PlRotationKind rotation;
  PlEnd ends[2];               /* [0] bottom (S = 0), [1] top (S = L) */
  PlRoute route;               /* lay.route (route.n 0: none) */
  double lay_retire;           /* lay.retire_behind [m]: laid pipe this far behind the touchdown
                                  point is retired into a fixed end (0: never) */
  PlAnalysis analysis;
  PlDesignSpec design;         /* design: pressures and the code check (post-processing only) */
  PlCurrent current;           /* dynamic analyses only */
  PlSea sea;                   /* waves: (dynamic analyses only; ntrains 0: calm) */
  char output_dir[PL_PATH_MAX];
  double checkpoint_interval;  /* [s] wall-clock time between a dynamic run's checkpoints */
  double vtk_interval;         /* [s] simulated time between ParaView frames (PlModelVtkStride) */
  PlFatigueSettings fatigue;   /* fatigue: */
  PlOperabilitySettings operability; /* operability: */
  double statistics_start;     /* [s] the statistics of a dynamic run's series from this time on */
  int noutput_points;          /* named output points (dynamic) */
  PlOutputPoint *output_points; /* [noutput_points] */
  PlVesselModel vessel;        /* the vessel at the top of the line (vessel.present false: none) */
  bool rigid_body;             /* no line: a system of bodies and joints (line, mesh, ends,
                                  vessel unused; the bodies are in bodies[]) */
  int nbodies;                 /* rigid_body: the bodies (>= 1) */
  PlVesselModel *bodies;       /* [nbodies] */
  int njoints;                 /* rigid_body: the joints */
  PlJointModel *joints;        /* [njoints] */
  int nlines;                  /* > 0: the lines of lines: (line, mesh and ends above unused) */
  PlLineModel *lines;          /* [nlines] */
  int npoints;                 /* points: */
  PlPointModel *points;        /* [npoints] */
  PlStinger stinger;           /* stinger: (present false: none) */
  int nwarnings;               /* plausibility warnings of the loader ("FILE:LINE:COL: key:
                                  warning: ..."), printed by the commands */
  char warnings[PL_MAX_WARNINGS][PL_ERRMSG_MAX];
} PlModel;

/* Hang-off point P = r + R(q) a (global) of the vessel at position r and attitude q (the
 * quaternion of R_b^e, normalised here), and when R_top is not NULL the top section's frame R(q) R_t^b
 * (row-major; meaningful for a fixed connection). */
void PlVesselHangOff(const PlVesselModel *v, const double r[3], const double q[4], double P[3], double R_top[9]);
/* The joint of end e (attached to body b) as b's hang-off: *joint is b with hang_off = e->at,
 * connection and top_frame = e->body_frame (fixed), so that PlVesselHangOff gives the end's
 * point and frame and PlVesselJointLoad its load (one definition for the vessel and bodies). */
void PlEndBodyJoint(const PlEnd *e, const PlVesselModel *b, PlVesselModel *joint);
/* The top end as the vessel's initial pose makes it (for the static problem's set-up and
 * initial guess): x, y, z held at P; a fixed connection also holds the rotations at
 * R(q0) R_t^b; a hinge leaves them free. No loads. */
void PlVesselTopEnd(const PlVesselModel *v, PlEnd *top);

/* The one-line model of line l of m->lines: m with the line's length, sections, mesh and
 * ends (with their prescribed motions), each end attached to a point held at the point's
 * position (rotations free, no loads); no lines, points, bodies or joints of its own. out
 * must own nothing; it owns its arrays after (a deep copy: free it with PlModelFree).
 * Returns 0, or -1 out of memory (out then holds the defaults and owns nothing). */
int PlModelLineModel(const PlModel *m, int l, PlModel *out);

/* The time of a static analysis [s]: every ramped load settled, 1 s after the last of the
 * current's and the environment loads' start_time + ramp_time and their time series' last
 * row (those loads then hold their final values). The static start of a dynamic analysis is
 * at t = 0 instead (solver/assembly.c). */
double PlModelSettledTime(const PlModel *m);
/* ParaView frames of a dynamic run: at output k of 0..nout when k is a multiple of the stride
 * (output.vtk_interval in output intervals, at least 1; 0 means 1) and at the last output. */
long PlModelVtkStride(const PlModel *m);
int PlModelVtkFrame(const PlModel *m, long k, long nout);
/* A one-line model as a model of one line of lines: named "line": one's line, mesh and ends
 * in lines[0], its output points on it; a vessel becomes body 0 (id "vessel") with the top end
 * on its hang-off point (hinge or fixed at top_frame). The inverse of PlModelLineModel. out
 * must own nothing; it owns its arrays after (a deep copy: free it with PlModelFree).
 * Returns 0, or -1 out of memory (out then holds the defaults and owns nothing). */
int PlModelAsLines(const PlModel *one, PlModel *out);

/* Index of the body named id in m->bodies, or -1. */
int PlModelBodyIndex(const PlModel *m, const char *id);

/* Frees what the model owns (every array, models.h's ownership rule above PlModel); the model
 * is left with defaults.
 * Accepts NULL. m must have been initialised (PlModelInitDefaults, a load or PlModelCopy). */
void PlModelFree(PlModel *m);
/* Deep copy (dst must not own anything yet). Returns 0 or -1 (out of memory or a NULL
 * argument; dst then holds the defaults and owns nothing). */
int PlModelCopy(const PlModel *src, PlModel *dst);

/* ---- time functions of a dynamic analysis (pure, in models/motion.c) -------------------- */
/* C^2 ramp 10r^3 - 15r^4 + 6r^5 of r clamped to [0, 1], and its first two derivatives. */
void PlRamp(double r, double *f, double *df, double *ddf);
/* Current velocity v [m/s] (global) at height z and time t, and dv/dz [1/s]. */
void PlCurrentVelocity(const PlCurrent *c, double water_depth, double z, double t, double v[3],
                       double dv_dz[3]);
/* The current alone as the water at a point at height z (the Morison loads' input in a calm
 * sea): its velocity, dv/dz in du_dx's z column, everything else zero. */
void PlCurrentFluid(const PlCurrent *c, double water_depth, double z, double t, PlFluidAt *fl);
/* Prescribed offset of an end at time t: translation d[3] [m], its velocity and
 * acceleration, and the rotation offset as a rotation vector th[3] [rad] about the static
 * frame's axes with its time derivative (the body angular velocity for the harmonic and
 * the linear interpolation used here). moved[6] tells which DOFs the motion holds. */
void PlMotionEval(const PlMotion *mo, double t, double d[3], double dd[3], double ddd[3],
                  double th[3], double dth[3]);
void PlMotionHeldDofs(const PlMotion *mo, bool moved[6]);
/* The pipe paid out at end e by time t at a prescribed rate, s(t) = int_0^t rate r((t' -
 * start)/ramp) dt' [m] (r PlRamp; a step when ramp is 0), and its rate s' [m/s]; 0 without
 * pay-out or under tension control (solver/line_dynamics.c integrates that). */
void PlPayout(const PlEnd *e, double t, double *s, double *sdot);
/* Its rate's derivative s'' [m/s^2] (the ramp's; 0 else). */
double PlPayoutAcceleration(const PlEnd *e, double t);
/* The breakpoints of a dynamic analysis's forcing: the times in (0, duration) where a load or
 * a prescribed position is not C^1 (models/motion.c gives the rule and each function's list),
 * sorted, each once, into *t (malloc'd; NULL when there are none). Returns their count, or -1
 * out of memory. The integrator restarts at each. */
int PlModelBreakpoints(const PlModel *m, double **t);

/* Sets every optional value to its documented default and every required one to "unset". */
void PlModelInitDefaults(PlModel *m);

/* Loads and validates a model file. overrides are "key.path=value" strings applied after
 * parsing (as from --set), before validation. On a user error returns 2 and fills err with
 * one line "FILE:LINE:COL: key: what is wrong"; on success returns 0. Never aborts.
 * m is overwritten: if it owns arrays from an earlier load, PlModelFree it first. On
 * success the caller owns the model's arrays (PlModelFree); on error m holds the
 * defaults and owns nothing. A time-series file is read relative to the model file's
 * directory (name's directory for PlModelLoadString). */
int PlModelLoad(const char *path, int noverrides, const char *const *overrides, PlModel *m,
                PlError *err);

/* Same, from a string already in memory (fuzzing and tests); name is used in messages. */
int PlModelLoadString(const char *name, const char *text, size_t len, int noverrides,
                      const char *const *overrides, PlModel *m, PlError *err);

/* The section in force at arc length S (the segment that contains it). */
const PlSection *PlModelSectionAt(const PlModel *m, double S);
/* The segment of the n segments seg (listed from the bottom end) that contains arc length S. */
const PlSegment *PlSegmentAt(const PlSegment *seg, int n, double S);

/* ---- seabed (eq 5.38) ------------------------------------------------------------------ */
/* The seabed is the plane through (0, 0, -water_depth) with the upward unit normal n =
 * m->seabed_normal (flat: e_z; seabed.slope), or the surface z_s(x, y) of m->bathymetry.
 * The penetration of a section whose centreline is at x: its lowest fibre p = x - (d_o/2) n
 * lies kappa = d_o/2 - n.(x - x0) below the plane (x0 = (0, 0, -depth)); for the flat seabed
 * kappa = -depth - (z - d_o/2); on a grid, the distance below the tangent plane at the point
 * under x (models/seabed.c). */
double PlSeabedPenetration(const PlModel *m, const PlSection *s, const double x[3]);
/* The penetration kappa, the upward unit normal n[3] and their derivatives dkappa/dx[3] and
 * dn/dx[9] (row-major dn_i/dx_j) at centreline x; dk and dn may be NULL. */
void PlSeabedGeometry(const PlModel *m, const PlSection *s, const double x[3], double *kappa, double n[3], double dk[3],
                      double dn[9]);
/* The seabed's height z at (x, y). */
double PlSeabedHeight(const PlModel *m, double x, double y);
/* The grid's surface at (x, y): height z [m], gradient g[2] and Hessian H[3] (zxx, zxy, zyy)
 * of the bicubic Hermite interpolation (C^1); outside the grid the edge values are held
 * (the gradient across the edge and its derivatives are 0). Returns 1 inside, 0 outside.
 * g and H may be NULL. */
int PlBathymetryEval(const PlBathymetry *b, double x, double y, double *z, double g[2], double H[3]);
/* Fills b->zx, b->zy, b->zxy from b->z: Catmull-Rom (central) differences, one-sided at the
 * edges (exact for a plane). */
void PlBathymetrySlopes(PlBathymetry *b);
/* models/route.c: the route's pieces (into r->piece, room for 2 r->n) from its points and radius; 1 with the reason in why when
 * the points or the radius cannot make one (two equal points, a turn beyond 162 deg, a leg
 * shorter than its bends). */
int PlRouteBuild(PlRoute *r, char *why, size_t len);
/* The route's point x, unit tangent t (plan) and signed curvature kappa [1/m] (left turns
 * positive) at station s [m]; before the first and after the last point along the end legs. */
void PlRouteEval(const PlRoute *r, double s, double x[2], double t[2], double *kappa);
/* The station [m] and signed lateral offset [m] (left of the route positive) of plan point x:
 * its nearest point on the route. */
void PlRouteProject(const PlRoute *r, const double x[2], double *station, double *offset);
/* The contact force per length sigma(kappa) [N/m] along n and dsigma/dkappa. Nonlinear law
 * (5.38): at rest at kappa = d_o/8 under the submerged weight w; C^1. Linear law: k kappa for
 * kappa > 0. */
void PlSeabedLaw(const PlModel *m, const PlSection *s, double w, double kappa, double *sigma, double *dsigma_dkappa);
/* The contact force per length F = sigma(kappa) n at centreline x, and dF/dx (row-major 3 x 3,
 * sigma' n dkappa/dx^T + sigma dn/dx, on a plane -sigma' n n^T; may be NULL). */
void PlSeabedContact(const PlModel *m, const PlSection *s, double w, const double x[3], double F[3], double *dF_dx);
/* The contact damping per length [N s/m^2] along n of segment seg's section: seabed.damping
 * when given (m->seabed_damping not NAN), else half the critical damping of the contact spring
 * at rest, 2 zeta sqrt(k m) with zeta = PL_SEABED_DAMPING_RATIO (formula in seabed.c). */
#define PL_SEABED_DAMPING_RATIO 0.5
double PlSeabedDamping(const PlModel *m, const PlSegment *seg);

/* ---- seabed friction (models/friction.c: the law and its derivation) -------------------- */
/* The mobilisation distances delta_a, delta_l [m] for a section (delta_l: 0.1 d_o unless given). */
void PlFrictionMobilisation(const PlModel *m, const PlSection *s, double *da, double *dl);
/* The friction frame at a point of the seabed with upward normal n: e_a the pipe's direction t
 * projected on the tangent plane (unit), e_l = n x e_a. Returns 1 when t is along n (any
 * tangent pair then), else 0. */
int PlFrictionFrame(const double t[3], const double n[3], double ea[3], double el[3]);
/* The saturated elastic-slip law: the friction force per unit normal force phi[3] (the force
 * is P phi, P the normal force the anchor holds) of slip u = x - a, hyperelastic (phi = -grad
 * Psi) with the elliptic capacity (phi.e_a/mu_a)^2 + (phi.e_l/mu_l)^2 = tanh^2(rho) < 1 and the
 * small-slip springs mu_a/delta_a, mu_l/delta_l (models/friction.c: built from its
 * complementary energy); dphi/du (3 x 3 row-major, symmetric, may be NULL) and rho (may be
 * NULL): the utilisation measure s = atanh(elliptic norm of phi), the slip over delta along the
 * axis with the smaller mu delta (|(xi, eta)|, xi = u.e_a/delta_a, eta = u.e_l/delta_l, when
 * mu_a delta_a = mu_l delta_l, where the law is phi = -tanh(rho)/rho (mu_a xi e_a + mu_l eta e_l)). */
void PlFrictionSaturated(const PlModel *m, double da, double dl, const double ea[3], const double el[3],
                         const double u[3], double phi[3], double *dphi_du, double *rho);
/* The energy per unit normal force stored in that spring at slip u [m], its potential Psi (convex,
 * Psi(0) = 0; mu delta log cosh(rho) when mu_a delta_a = mu_l delta_l), and its gradient
 * grad[3] = dPsi/du = -phi (may be NULL). */
void PlFrictionPotential(const PlModel *m, double da, double dl, const double ea[3], const double el[3],
                         const double u[3], double *psi, double grad[3]);

/* ---- a previous run's static shape (models/start_shape.c; analysis.start_from) ----------- */
#define PL_SHAPE_NCOL 10
typedef struct {
  int n;        /* nodes */
  double *v;    /* [n][PL_SHAPE_NCOL]: S, x, y, z, t2 (3), t3 (3) (malloc'd) */
} PlShape;
/* Reads DIR/static.csv. Returns 0, or -1 with "FILE:LINE:COL: what is wrong" in msg. */
int PlShapeRead(const char *dir, PlShape *shape, char *msg, size_t len);
void PlShapeFree(PlShape *shape);

/* ---- weight and buoyancy at the sea surface (models/buoyancy.c) ------------------------ */
/* Nodal downward loads f[2] [N] of a two-node element of length L whose centreline runs from
 * height zA to zB: its dry weight above the sea surface, its submerged weight below, a C^1
 * transition over one outer diameter (formulas in buoyancy.c); K = df_i/dz_j (may be NULL).
 * Wholly submerged: f = w L/2 each. */
void PlElementWeight(const PlSection *s, double rho_w, double g, double L, double zA, double zB, double f[2],
                     double K[2][2]);
/* The wetted (submerged) fraction phi of a section of outer diameter d whose centreline is at
 * height z, and dphi/dz: 1 below z = -d/2, 0 above z = d/2, a C^1 smoothstep between
 * (buoyancy.c). The buoyancy and the Morison loads (rod_dynamics_kernel.inc) act on it. */
void PlWetFraction(double z, double d, double *phi, double *dphi);

/* ---- the natural catenary (inextensible, rigid flat seabed) ---------------------------- */
/* A line of submerged weight w [N/m] hangs from a top point h [m] above the point where
 * it touches the seabed tangentially; horizontal tension H [N]. a = H/w.
 *   suspended length s = sqrt(h^2 + 2 a h),  horizontal span x = a asinh(s/a),
 *   top angle from horizontal beta = atan(s/a). */
typedef struct {
  double a, suspended_length, horizontal_span, top_angle_rad, top_tension;
} PlCatenary;
void PlCatenarySolve(double H, double w, double h, PlCatenary *c);
/* Finds H such that (L - s) + x = span (line of length L laid from its anchor).
 * Returns 0, or -1 when no such H exists (line too short or too long for the span). */
int PlCatenaryForSpan(double L, double w, double h, double span, PlCatenary *c);

/* ---- the elastic catenary of several sections (models/catenary.c; the start shape) ------ */
/* A line of sections from A (s = 0) to B (s = L) in a vertical plane, no bending stiffness:
 * constant horizontal tension H >= 0, vertical force V(s) = V0 + integral of w, each piece
 * stretched by T/EA. on_seabed: A lies on the seabed and where V0 < 0 the line lies on it up
 * to where V reaches 0. Formulas in catenary.c. */
typedef struct {
  int nsections;
  const double *L;             /* [nsections] unstretched lengths [m] (the caller's arrays) */
  const double *w;             /* [nsections] submerged weights [N/m] (negative: buoyant) */
  const double *EA;            /* [nsections] axial stiffnesses [N] */
  double length;               /* sum of L [m] */
  bool on_seabed;
} PlElasticCatenary;
/* Position (x horizontal, z up) relative to A of the point at unstretched arc length s, and
 * the tangent's angle beta from the horizontal (may be NULL). */
void PlElasticCatenaryPoint(const PlElasticCatenary *c, double H, double V0, double s, double *x, double *z,
                            double *beta);
/* What the ends prescribe: GIVEN (H and V0 both known), HEIGHT (H known: V0 for the top's
 * height h), SPAN_HEIGHT (H and V0 for the top at horizontal distance span and height h),
 * SPAN_FREE_TOP (V0 known: H for the span). Returns 0, or -1 when no such catenary exists. */
enum { PL_CATENARY_GIVEN = 0, PL_CATENARY_HEIGHT, PL_CATENARY_SPAN_HEIGHT, PL_CATENARY_SPAN_FREE_TOP };
int PlElasticCatenarySolve(const PlElasticCatenary *c, int mode, double span, double h, double *H, double *V0);


/* ---- the model file's schema (models/schema.c, models/schema_table.c) -------------------
 * One row per key of the model file: the one place that owns each key's type, unit, range,
 * default and description. The loader takes the allowed keys of every mapping, each
 * number's unit and range, and each default from it; `pipelay info --keys` prints it and
 * docs/model-file.md is tested against it. */

/* What a key's value is. */
typedef enum {
  PL_KEY_NUMBER,  /* a finite number in unit, within [lo, hi] */
  PL_KEY_INTEGER, /* an integer within [lo, hi] */
  PL_KEY_STRING,  /* one line of text */
  PL_KEY_CHOICE,  /* one of choices */
  PL_KEY_BOOL,    /* true or false */
  PL_KEY_VEC3,    /* a list of 3 numbers in unit, each within [lo, hi] */
  PL_KEY_LIST,    /* a list of count numbers (count 0: the length depends on other keys) */
  PL_KEY_MATRIX,  /* a count x count matrix, a list of rows */
  PL_KEY_ROWS,    /* a list of rows of numbers (a table) */
  PL_KEY_NAMES,   /* a list of names (or a word standing for a set of them) */
  PL_KEY_MAP,     /* a mapping: the rows whose path continues this one are its keys */
  PL_KEY_MAPS     /* a list of mappings: the rows under path[*] are their keys */
} PlKeyType;

/* Whether a key must be given. */
typedef enum {
  PL_KEY_REQUIRED, /* must be given wherever its mapping is read */
  PL_KEY_DEFAULT,  /* may be left out: then def (numbers, integers, choices, bools) or def_text */
  PL_KEY_OPTIONAL, /* may be left out: then absent (def_text says what that means) */
  PL_KEY_CONDITIONAL /* required or refused depending on other keys (def_text says when) */
} PlKeyNeed;

/* One key of the model file. */
typedef struct {
  const char *path;    /* "line.sections[*].EA": [*] any list index, * any key (ends.*) */
  PlKeyType type;      /* what the value is */
  const char *unit;    /* SI unit of a number ("-": none; a list may name several) */
  double lo, hi;       /* range of a number or integer (+-INFINITY: unbounded) */
  bool lo_open, hi_open; /* the bound itself is excluded */
  int count;           /* items of a PL_KEY_LIST, rows of a PL_KEY_MATRIX */
  PlKeyNeed need;      /* required, default, optional or conditional */
  double def;          /* the default of a number or integer, the index of a choice's or
                          bool's default in choices; NAN when def_text is a rule */
  const char *def_text; /* the default or requirement as the docs give it */
  const char *const *choices; /* NULL-terminated names of a choice or bool (else NULL) */
  const char *same_as; /* a PL_KEY_MAP(S) whose keys are those of another path, or NULL */
  const char *desc;    /* one line: what the key means */
} PlKeySpec;

/* The number of rows of the schema, and row i (0 <= i < PlSchemaCount()), in table order. */
int PlSchemaCount(void);
const PlKeySpec *PlSchemaAt(int i);
/* The row of a key path, concrete ("lines[2].line.sections[0].EA") or a pattern
 * ("line.sections[*].EA"); NULL when the path is no key of the model file. */
const PlKeySpec *PlSchemaFind(const char *path);
/* The default of a PL_KEY_DEFAULT row at path (a pattern); aborts when path has no numeric
 * default (a programming error, caught by every test that loads a model). */
double PlSchemaDefault(const char *path);
/* Prints the schema to out: one row per key with path, type, unit, default or requirement,
 * range and description; markdown != 0: as the tables of docs/model-file.md, one per
 * mapping ("### `block`" then "| key | type | unit | default | range | description |"). */
void PlSchemaPrint(FILE *out, int markdown);
