/*
 * elements.h - the geometrically exact two-node rod element and the nodal rotation
 * parametrisations (unit quaternion, zxy Euler angles).
 *
 * Nodal unknowns: position x (3, global, m) and rotation parameters p (4 for quaternions,
 * 3 for zxy Euler angles). The nodal rotation is R = R0 R(p), with R0 a constant
 * reference frame per node (the node's initial orientation), so that p = identity at the
 * start and the Euler singularity (roll = +-90 deg) is measured from the reference frame.
 * See elements/rod.c for the formulation.
 */
#pragma once
#include "pipelay/materials.h"

typedef enum { PL_PARAM_QUATERNION = 0, PL_PARAM_EULER_ZXY = 1 } PlParamKind;

#define PL_NODE_DOF_MAX 7   /* 3 translations + up to 4 rotation parameters */
#define PL_ELEM_DOF_MAX 14

/* Number of rotation parameters (4 or 3) and of DOFs per node (7 or 6). */
int PlParamCount(PlParamKind kind);
static inline int PlNodeDofCount(PlParamKind kind) { return 3 + PlParamCount(kind); }

/* Identity parameters: quaternion (1,0,0,0), Euler (0,0,0). */
void PlParamIdentity(PlParamKind kind, double *p);

/* Unit quaternion (w, x, y, z) of the rotation R(p) (not including R0). For the
 * quaternion kind p is normalised. Euler zxy (eq 5.98): R = R_y(theta) R_x(phi) R_z(psi),
 * p = (phi, theta, psi). */
void PlParamToQuaternion(PlParamKind kind, const double *p, double q[4]);

/* Parameters of the rotation with unit quaternion q (inverse of the above; Euler angles
 * with phi in [-pi/2, pi/2]). */
void PlParamFromQuaternion(PlParamKind kind, const double q[4], double *p);
/* The same, a quaternion parametrisation taken in the hemisphere of the parameters near (q and
 * -q are one rotation: the sign that keeps a node's unknowns continuous). */
void PlParamFromQuaternionNear(PlParamKind kind, const double q[4], const double *near, double *p);

/* ---- quaternion and rotation utilities (double) ---------------------------------------- */
void PlQuatMul(const double a[4], const double b[4], double out[4]);
void PlQuatToMatrix(const double q[4], double R[9]);         /* row-major */
void PlQuatFromMatrix(const double R[9], double q[4]);      /* R orthonormal */
void PlQuatFromAxisAngle(const double axis[3], double angle_rad, double q[4]);
void PlQuatRotate(const double q[4], const double v[3], double out[3]);
/* Rotation vector psi with exp(psi^) = R(q), |psi| <= pi. */
void PlQuatLog(const double q[4], double psi[3]);

/* Rotation of node: q_total = q0 (x) q(p). */
/* Rows tying a node's rotation parameters p to a unit quaternion X (of R0^T R_wanted, in the
 * hemisphere of q(p)): quaternion p: g = p - X (4 rows); zxy Euler: g = vec(conj(q(p)) (x) X)
 * (3 rows; zero iff q(p) = +-X). dg_dp (n x np), dg_dX (n x 4), row-major, may be NULL.
 * Returns n. */
int PlParamTie(PlParamKind kind, const double *p, const double X[4], double *g, double *dg_dp, double *dg_dX);
void PlNodeQuaternion(PlParamKind kind, const double q0[4], const double *p, double q[4]);

/* ---- the rod element ------------------------------------------------------------------- */
typedef struct {
  double L;          /* reference (unstretched) length [m] */
  double CT[3];      /* EA, GA2, GA3 [N] */
  double CR[3];      /* GJ, EI2, EI3 [N m^2] */
  double q0[2][4];   /* reference frames R0 of the two nodes (unit quaternions) */
  PlParamKind kind;
  double Gamma0[3];  /* stress-free strain R_m^T d/L of the element's rest shape [-] (straight: e1) */
  double K0[3];      /* stress-free curvature log(R_A^T R_B)/L of its rest shape [1/m] (straight: 0) */
} PlRodElement;

/* A straight element at rest (Gamma0 = e1, K0 = 0). */
void PlRodElementInit(PlRodElement *e, double L, const PlSection *s, const double q0A[4],
                      const double q0B[4], PlParamKind kind);

/* Makes the element stress-free in the rest shape given by its chord d0 = x_B - x_A and the
 * nodes' frames qA, qB (unit quaternions; relative rotation below 180 deg): Gamma0 and K0 are
 * the kernel's own measures of that shape, so the internal force vanishes there exactly and, to
 * round-off, in every rigid motion of it. Returns 0, or 1 when the shape is outside the rod's domain. */
int PlRodElementSetRest(PlRodElement *e, const double d0[3], const double qA[4], const double qB[4]);

/* The rest shape of one element of constant material curvature k [1/m] and length h: node B's
 * position dx and frame dq relative to node A's frame (A at the origin, frame identity):
 * dq = exp(h k^), dx = h J_l(h k) e1 (the integral of exp(s k^) e1 over s in [0, h]). */
void PlRodArcStep(const double k[3], double h, double dx[3], double dq[4]);

/* Internal force vector r (= dU/du, the gradient of the strain energy with respect to the
 * element's nodal unknowns u = [x_A, p_A, x_B, p_B]) and, if K != NULL, its exact
 * derivative K = dr/du (row-major, ndof x ndof, ndof = 2 * PlNodeDofCount). Returns 0, or
 * 1 when the state is outside the rod's domain (relative rotation of 180 deg or more, or a
 * non-finite value) so the solver can back off. */
int PlRodElementInternal(const PlRodElement *e, const double *u, double *r, double *K);

/* The same internal force on the rows of a dynamic node (rod_dynamics.c): the force on the
 * positions, -f on A and f on B [N] (f = n^e, the first entries of r negated at A), and the
 * moments on the angular-momentum rows in the nodes' own frames, m_A = R_A^T r_wA and
 * m_B = R_B^T r_wB [N m] (r_w the spin residuals of rod.c's banner), from the nodes'
 * positions x and the unit quaternions q = q0 (x) q(p) of their frames (PlNodeQuaternion).
 * These are the moments PlNodeMapParamForce makes of r's parameter rows, m = B(p) H(p)^T R0^T
 * r_w, to rounding: B(p) H(p)^T R0^T = R^T for either parametrisation (quaternion: B = G(p)/2,
 * H = 2 E(q)/|p| and G(q) E(q)^T = R(q)^T), so the same iteration matrix serves. The nodes'
 * quaternions are computed once per node instead of once per element end, and the map
 * through the parameters and back is skipped. Returns 0, or 1 outside the rod's domain. */
int PlRodElementNodeForces(const PlRodElement *e, const double xA[3], const double xB[3], const double qA[4],
                           const double qB[4], double f[3], double mA[3], double mB[3]);

/* Strain energy U = L (gamma.C_T.gamma + kappa.C_R.kappa)/2 [J] (NaN outside the rod's domain). */
double PlRodElementEnergy(const PlRodElement *e, const double *u);

/* Section state at the element midpoint (the one-point quadrature point). */
typedef struct {
  double gamma[3];   /* material strain from the rest shape: axial, shear 2, shear 3 [-] */
  double kappa[3];   /* material curvature from the rest shape: twist, bending 2, bending 3 [1/m] */
  double n[3];       /* material stress resultant: axial (effective tension), shear 2, 3 [N] */
  double m[3];       /* material stress couple: torque, bending moments 2, 3 [N m] */
  double Rm[9];      /* midpoint frame R_t^e, row-major (columns t1, t2, t3) */
  double xm[3];      /* midpoint position [m] */
} PlRodSectionState;
/* The state at u; returns 1 outside the rod's domain (st then unset). */
int PlRodElementState(const PlRodElement *e, const double *u, PlRodSectionState *st);
/* The same from the nodes' positions and the unit quaternions of their frames
 * (PlNodeQuaternion), when the caller has those (the same bits). */
int PlRodElementStateOfFrames(const PlRodElement *e, const double xA[3], const double xB[3], const double qA[4],
                              const double qB[4], PlRodSectionState *st);
/* The strain energy of PlRodElementEnergy from the element's section state [J]. */
double PlRodSectionEnergy(const PlRodElement *e, const PlRodSectionState *st);
/* The same r and K as PlRodElementInternal (K required), K by forward-mode automatic
 * differentiation of the element's kernel instead of its analytic tangent: the reference the
 * tests hold the analytic tangent to. */
int PlRodElementInternalAD(const PlRodElement *e, const double *u, double *r, double *K);

/* Unit-norm gauge of a quaternion node: the element residual is invariant to the scale of
 * p, so the radial direction is closed by the energy k (|p|^2 - 1)^2 / 4, whose gradient
 * k (|p|^2 - 1) p vanishes only at |p| = 1 and is orthogonal to every element force at
 * equilibrium: the converged solution does not depend on k. r and K (4x4) are added to. */
void PlQuaternionGauge(double k, const double p[4], double r[4], double K[16]);

/* Generalised force of a dead spatial moment M [N m] on a node's rotation parameters:
 * r = H(p)^T R0^T M (virtual work M.w with w = R0 H(p) dp), and K = dr/dp (np x np,
 * exact, row-major) when K != NULL. */
void PlNodeMomentGeneralised(PlParamKind kind, const double q0[4], const double *p,
                             const double M[3], double *r, double *K);

/* ---- dynamics (elements/rod_dynamics.c) ------------------------------------------------- */
/* Unknowns of a node in a dynamic analysis: y = [x (3), p (np), v (3), w (3)]: position,
 * rotation parameters, velocity (global) and angular velocity in the node's frame. The
 * first 3 + np entries are the static unknowns. Count: 13 (quaternion) or 12 (Euler). */
int PlDynNodeDofCount(PlParamKind kind);
#define PL_DYN_DOF_MAX 16 /* 13, and 3 friction anchor states (solver/line_dynamics.c) */

/* Lumped inertia of a node (sums over the adjacent elements of L/2 times the values per
 * length): mass [kg], rotary inertia J1..J3 about the node frame's axes [kg m^2],
 * rotational damping D4..D6 (eq 5.37) [N m s]. */
typedef struct {
  double mass;
  double J[3];
  double D[3];
} PlNodeInertia;

/* The node's own rows of the dynamic residual (kinematics, unit norm, inertia, gyroscopic
 * term, rotational damping, dead spatial moment M_global (may be NULL); see
 * rod_dynamics.c) for state y and rate yp (both PlDynNodeDofCount entries), and if K is
 * not NULL the iteration matrix dr/dy + c dr/dyp (row-major n x n; derived by hand for a
 * quaternion node without a dead moment, rod_dynamics.c). */
void PlNodeDynamics(const PlNodeInertia *ni, PlParamKind kind, const double q0[4],
                    const double *y, const double *yp, double c, const double M_global[3],
                    double *r, double *K);
/* The same r and K, K by forward-mode differentiation of the kernel on dual numbers: the
 * reference the tests hold the hand-derived K to. */
void PlNodeDynamicsAD(const PlNodeInertia *ni, PlParamKind kind, const double q0[4], const double *y,
                      const double *yp, double c, const double M_global[3], double *r, double *K);

/* The rod's generalised force r_p on a node's parameters as the body moment m[3] of the
 * angular-momentum rows: quaternion m = E(p)^T r_p / 2, Euler m = T(p)^-T r_p. dm_dp
 * (3 x np, row-major) = dm/dp at fixed r_p when not NULL. */
void PlNodeMapParamForce(PlParamKind kind, const double *p, const double *r_p, double m[3],
                         double *dm_dp);
/* The same with dm_dp by forward-mode differentiation (the tests' reference; quaternion
 * dm_dp is derived by hand). */
void PlNodeMapParamForceAD(PlParamKind kind, const double *p, const double *r_p, double m[3], double *dm_dp);

/* Parameter rate from the body angular velocity (quaternion pdot = E(p) w/2; Euler
 * pdot = T(p)^-1 w, singular at phi = +-90 deg) and back. */
void PlParamRateFromOmega(PlParamKind kind, const double *p, const double w[3], double *pd);
void PlParamOmegaFromRate(PlParamKind kind, const double *p, const double *pd, double w[3]);

/* Kinetic energy of a lumped node: m |v|^2/2 + w.J w/2 [J]. */
double PlNodeKineticEnergy(const PlNodeInertia *ni, PlParamKind kind, const double *y);

/* Morison drag and added mass of one element (see rod_dynamics.c). */
typedef struct {
  double L;        /* element length [m] */
  double rho_w;    /* water density [kg/m^3] */
  double d_h;      /* hydrodynamic diameter [m] */
  double Cdn, Cdt; /* drag coefficients normal / tangential [-] */
  double Can, Cat; /* added mass coefficients normal / tangential [-] */
  double d_o;      /* outer diameter [m]: the band of the wetted fraction at the sea surface
                      (PlWetFraction; 0: d_h) */
} PlMorison;

/* The water at one of an element's two Gauss points (the sea's kinematics and the current,
 * PlWavesFluid; or the current alone): zero velocity and acceleration above the surface. */
typedef struct {
  double u[3];       /* the fluid's velocity [m/s] (global) */
  double du_dx[9];   /* its gradient du_i/dx_j, row-major [1/s] */
  double a[3];       /* its local acceleration du/dt [m/s^2] (0: no fluid-inertia load) */
  double da_dx[9];   /* its gradient da_i/dx_j, row-major [1/s^2] */
  double eta;        /* the surface elevation above the point [m] (0: the mean sea level) */
  double deta_dx[2]; /* d eta/dx, d eta/dy [-] */
} PlFluidAt;

/* Residual contributions f[6] to the linear-momentum rows of nodes A and B (minus the
 * hydrodynamic force) from the nodes' dynamic states yA, yB and rates ypA, ypB (iV = index
 * of v in a node's unknowns), with the water fl at the two Gauss points (rod_dynamics_kernel.inc:
 * drag on the relative velocity, added mass, the fluid's inertia). K (6 x 12, row-major, columns
 * xA, vA, xB, vB) = df/dy + c df/dyp when not NULL, derived by hand (rod_dynamics.c,
 * MorisonTangent). */
void PlRodElementMorison(const PlMorison *h, const double *yA, const double *ypA, const double *yB,
                         const double *ypB, int iV, const PlFluidAt fl[2], double c, double f[6], double *K);
/* The same f and K, K by forward-mode differentiation of the kernel on dual numbers: the
 * reference the tests hold the hand-derived K to. */
void PlRodElementMorisonAD(const PlMorison *h, const double *yA, const double *ypA, const double *yB,
                           const double *ypB, int iV, const PlFluidAt fl[2], double c, double f[6], double *K);

/* ==== vessel: a rigid body in 6 DOF (elements/vessel.c) ================================ */
/* The surface vessel of the thesis (eqs 4.10-4.15, 5.41-5.66, after Fossen) or, without
 * the water terms, a free rigid body. Frames: global e (x, y horizontal, z up); body b
 * with origin O_b (the centre of gravity in the thesis) and axes x forward, y to port,
 * z up. Fossen's NED data (x forward, y starboard, z down) convert with
 * S = diag(1,-1,-1,1,-1,-1): A = S A_NED S (PlVesselMatrixFromNED); roll = roll_NED,
 * pitch = -pitch_NED, yaw = -yaw_NED.
 * Unknowns (PL_VESSEL_NY = 13): y = [r (3) position of O_b, global [m]; q (4) unit
 * quaternion (w,x,y,z) of R_b^e (body -> global); v (3) velocity of O_b, body frame [m/s];
 * w (3) angular velocity, body frame [rad/s]], nu = [v; w] (Fossen's nu). Rows: see
 * vessel.c (kinematics 3, attitude + unit norm 4, Newton-Euler 6 in the body frame). */
#include <stddef.h>
#define PL_VESSEL_NY 13
enum { PL_VESSEL_R = 0, PL_VESSEL_Q = 3, PL_VESSEL_V = 7, PL_VESSEL_W = 10 };

typedef struct {
  double MRB[36];      /* rigid-body inertia M_RB about O_b, body frame, row-major 6x6 (order
                          surge, sway, heave, roll, pitch, yaw) [kg, kg m, kg m^2]; symmetric */
  double MA[36];       /* added mass M_A = A(inf), body frame (0 for a dry body); M_RB + M_A
                          symmetric positive definite; a total M given directly may be put
                          in MRB with MA = 0 (C_RB + C_A = C(M_RB + M_A)) */
  double Dp[36];       /* linear (potential + viscous) damping D_p, body frame [N s/m, N s,
                          N m s]; symmetric part positive semidefinite */
  double Dq[6];        /* quadratic damping D_v(nu) = diag(Dq_i |nu_i|) [N s^2/m^2, N m s^2] >= 0 */
  double rho_w;        /* water density [kg/m^3] (default 1025) */
  double gravity;      /* [m/s^2] (default 9.80665) */
  double Awp;          /* waterplane area A_wp [m^2] (5.58); 0: no heave restoring */
  double GM_T, GM_L;   /* transverse, longitudinal metacentric heights [m] (5.59-5.63) */
  int wall_sided;      /* 1: the wall-sided large-angle law of an axisymmetric hull (GM_T = GM_L,
                          with BM); 0: the small-angle law of the thesis */
  double BM;           /* metacentric radius I_wp/V [m] >= 0 of the wall-sided law */
  double displacement; /* m_V of 5.63: mass of the displaced water (= vessel mass) [kg];
                          0: no roll/pitch restoring */
  double z_eq;         /* heave equilibrium of O_b, global z [m] (z_eq = -h_ref of 5.85) */
  double K_spring[9];  /* linear spring on O_b, global, row-major 3x3 [N/m] (a soft mooring;
                          Giusti's oscillator), symmetric positive semidefinite; 0: none */
  double r_anchor[3];  /* rest position of the spring, global [m] */
  double K_yaw;        /* a spring on the heading psi = atan2(R_10, R_00) about the global z axis
                          [N m/rad] >= 0 (OC3's crowfoot: the delta lines' yaw stiffness); 0: none */
  double psi_rest;     /* its rest heading [rad] */
  double weight_mass;  /* m_w [kg] of the weight m_w g acting at the centre of gravity r_g,
                          global -z (a dry body, a pendulum, a clump); 0: none (a floating
                          body's weight is in its restoring law, balanced at z_eq) */
  double r_g[3];       /* centre of gravity from O_b, body frame [m] (with weight_mass) */
  double norm_rate;    /* k [1/s] > 0 of the unit-norm term k q (|q|^2 - 1)/2 of the attitude
                          rows (PlVesselInit: 1, as the rod nodes; the loader's default follows
                          the initial spin, PlVesselNormRateDefault): no effect on the solution,
                          only on Newton with a reused matrix */
} PlVessel;

/* Defaults: everything zero (no mass, no water terms) except rho_w = 1025, gravity = 9.80665,
 * norm_rate = 1. */
void PlVesselInit(PlVessel *V);
/* The loader's norm_rate of a body that does not give one: max(1, 100 |w0|) [1/s], w0 its initial
 * angular velocity (body frame) [rad/s] (the derivation at its definition, vessel.c). */
double PlVesselNormRateDefault(const double w0[3]);
/* M_RB = [m I, -m S(r_g); m S(r_g), I_g - m S(r_g)^2] (Fossen 2011, eq 3.44) from the mass
 * m [kg], the centre of gravity r_g (body frame, from O_b) [m] and the inertia I_g about
 * the centre of gravity, body axes, row-major 3x3 [kg m^2]. */
void PlVesselRigidBodyMass(double m, const double r_g[3], const double I_g[9], double MRB[36]);
/* Coriolis-centripetal matrix C(nu) of the symmetric part Ms of M (for C_RB: M_RB; for
 * C_A: M_A): C = [0, -S(p1); -S(p1), -S(p2)], p = Ms nu (Fossen 2011, eq 6.43); skew-
 * symmetric, so nu^T C nu = 0 (property P2). */
void PlVesselCoriolis(const double M[36], const double nu[6], double C[36]);
/* A = S A_NED S, S = diag(1,-1,-1,1,-1,-1): a 6x6 matrix (M, D, G) from Fossen's axes. */
void PlVesselMatrixFromNED(const double A_ned[36], double A[36]);
/* Validates the data (finite, M symmetric positive definite, dissipative damping, non-
 * negative coefficients, K_s positive semidefinite). Returns 0, or 1 with a message. */
int PlVesselCheck(const PlVessel *V, char *msg, size_t len);

/* Residual r (13 rows, see vessel.c) of the body for state y and rate yp, and if K is not
 * NULL the iteration matrix dr/dy + c dr/dyp (13x13, row-major), from one evaluation on
 * dual numbers. tau_body (may be NULL): force and moment on the body in the body frame
 * [N, N m] (controller, follower loads, the pipe's reaction); load_global (may be NULL): a
 * dead force and moment in the global frame acting at O_b. Both are taken as constants
 * here: state-dependent loads add their own derivatives to K (rows PL_VESSEL_V..+5, with
 * a minus sign). Returns 0, or 1 outside the domain (q = 0, non-finite values). */
int PlVesselDynamics(const PlVessel *V, const double y[PL_VESSEL_NY], const double yp[PL_VESSEL_NY], double c,
                     const double tau_body[6], const double load_global[6], double r[PL_VESSEL_NY], double *K);
/* A slender hull along the body's z axis through O_b (a spar) as strips for Morison drag: strip
 * k is centred at (0, 0, z[k]) in the body frame, of length len[k] [m], diameter D[k] [m] and
 * normal drag coefficient Cd[k] [-]. The four arrays of n are one block from z (a model's hull
 * is owned by the model: PlModelFree). */
typedef struct {
  int n;
  double *z, *len, *D, *Cd;
} PlHull;
/* The water's velocity u [m/s] (global) at the global point x [m] and its gradient du_i/dx_j
 * (row-major) [1/s]; returns 1 where the point is wet (below the surface), else 0. */
typedef int (*PlFluidFn)(void *ctx, const double x[3], double u[3], double du_dx[9]);
/* A body point's first-order (wave-frequency) motion superimposed on the body's pose: the
 * displacement d [m] and its rate d' [m/s] (body frame) of the body point p (body frame, from
 * O_b), functions of time alone (ctx holds the time). */
typedef void (*PlPointMotionFn)(void *ctx, const double p[3], double d[3], double ddot[3]);
/* Morison drag on the hull's wet strips (strip centre below the surface: fluid returns 1) in
 * the water, by strip theory (elements/vessel.c): tau (body frame, force and moment about O_b)
 * and, when dtau_dy is not NULL, its derivative with respect to the body state y (6 x 13,
 * row-major), exact (dual numbers). rho_w the water density. motion (NULL: none) moves each
 * strip's centre c by its first-order motion, to c + d with the rate d' (a body on displacement
 * RAOs); fluid and motion both get ctx. Returns 0, or 1 (q = 0). */
int PlVesselHullLoad(const PlHull *H, const double y[PL_VESSEL_NY], double rho_w, PlFluidFn fluid,
                     PlPointMotionFn motion, void *ctx, double tau[6], double *dtau_dy);
/* Consistent rate for state y (q unit): rdot = R v, qdot = E w/2, nudot = M^-1 (loads -
 * C nu - D nu - g - s). Returns 0, or 1 (singular M, bad state). */
int PlVesselConsistentRate(const PlVessel *V, const double y[PL_VESSEL_NY], const double tau_body[6],
                           const double load_global[6], double yp[PL_VESSEL_NY]);
/* The edges [m] along the body axes x, y, z of the uniform box with the body's mass and its
 * diagonal moments of inertia about O_b (M_RB): L_x^2 = 6 (I_y + I_z - I_x)/m and its
 * permutations (an edge whose square is not positive gets 1e-3 of the longest), to draw it. */
void PlVesselEquivalentBox(const PlVessel *V, double dims[3]);
/* Kinetic energy nu^T M nu / 2 (M = M_RB + M_A, eq 5.85) [J]. */
double PlVesselKineticEnergy(const PlVessel *V, const double y[PL_VESSEL_NY]);
/* Potential energy U_V of eq 5.85 plus the spring's (r - r_a)^T K_s (r - r_a)/2 [J]. */
double PlVesselPotentialEnergy(const PlVessel *V, const double y[PL_VESSEL_NY]);
/* The power of the body's non-conservative loads at state y [W]: *p_loads = nu . (tau_body +
 * R^T load_global) (the external loads of PlVesselDynamics: environment, hull drag, thrust; a
 * global moment about O_b), *p_damping = nu^T D_p nu + sum_i d_i |nu_i| nu_i^2 >= 0 (the
 * damping matrices). With M nu' + C(nu) nu + D(nu) nu + dU/deta = tau and nu^T C(nu) nu = 0,
 * d(T + U)/dt = p_loads - p_damping. */
void PlVesselPower(const PlVessel *V, const double y[PL_VESSEL_NY], const double tau_body[6],
                   const double load_global[6], double *p_loads, double *p_damping);
/* The pose components eta_i (O_b's x, y, z; roll, pitch, yaw) the body's own static restoring
 * acts in: heave with a waterplane area, roll and pitch with a displacement and a nonzero
 * metacentric height, a translation with a row of the mooring spring K_spring, yaw with K_yaw.
 * own[i] 1 or 0. */
void PlVesselOwnRestoring(const PlVessel *V, int own[6]);
/* zyx Euler angles (roll phi, pitch theta, yaw psi) [rad] of R(q) = Rz(psi) Ry(theta) Rx(phi)
 * in pipelay's frames (theta in [-pi/2, pi/2]; psi from +x towards +y), and back. */
void PlVesselEulerZYX(const double q[4], double rpy[3]);
void PlVesselQuatFromEulerZYX(const double rpy[3], double q[4]);
/* eta = [r; phi, theta, psi] (the thesis' eta, eq 4.3, in pipelay's frames) of state y and,
 * when deta_dy is not NULL, d eta / dy (6 x 13, row-major; singular at theta = +-90 deg). */
void PlVesselEta(const double y[PL_VESSEL_NY], double eta[6], double *deta_dy);
/* The hang-off joint (vessel.c): the top node of a rod at the body point P = r + R a (a in
 * the body frame) moving with it: g = [x_P - r - R a ; v_P - R (v + w x a)] (6 rows,
 * dg/dx_P = dg/dv_P = I) and dg/dyv (6 x 13, row-major, may be NULL). R = R(q/|q|) as in
 * PlVesselDynamics. Returns 1 when q = 0. */
int PlVesselJointKinematics(const double yv[PL_VESSEL_NY], const double a[3], const double xP[3], const double vP[3],
                            double g[6], double *dg_dyv);
/* The same for a point a(t) that moves in the body frame at the rate adot (body frame; a function
 * of time only, so dg/dyv has the same form): g = [x_P - r - R a ; v_P - R (v + w x a + adot)].
 * adot NULL: PlVesselJointKinematics. */
int PlVesselJointKinematicsMoving(const double yv[PL_VESSEL_NY], const double a[3], const double adot[3],
                                  const double xP[3], const double vP[3], double g[6], double *dg_dyv);
/* What the top node's momentum residual (f global [N], m in the node's frame [N m]) adds to
 * the vessel's Newton-Euler rows (Newton's third law, eq 5.66): tau = [R^T f ; a x R^T f +
 * T m], T = R_t^b (3x3 row-major; NULL: a hinge, m ignored), with d tau/d yv (6 x 13, may
 * be NULL), d tau/d f and d tau/d m (6 x 3). */
void PlVesselJointLoad(const double yv[PL_VESSEL_NY], const double a[3], const double *T, const double f[3],
                       const double m[3], double tau[6], double *dtau_dyv, double dtau_df[18], double dtau_dm[18]);
/* Solves A x = b (n x n, row-major) by Gaussian elimination with partial pivoting; A is
 * overwritten, x replaces b. Returns 1 when A is singular (a zero or NaN pivot). */
int PlDenseSolveInPlace(int n, double *A, double *b);
/* The same for n <= PL_DENSE_MAX with A and b left unchanged. Returns 1 when A is singular (or
 * n out of range). */
#define PL_DENSE_MAX 16
int PlSolveDense(int n, const double *A, const double *b, double *x);
/* ==== end of the vessel section ========================================================== */

/* ==== joints between rigid bodies (elements/joint.c; docs/design-system-core.md
 * §2.2) ===================================================================================
 * A joint between body A and body B (or the ground): its point p_a in A's body frame, p_b in
 * B's (ground: global), its frame in each (F_a, F_b: columns f1 = the axis, f2, f3;
 * row-major 3x3). Poses y = (r, q) as PlVessel's first 7 unknowns; NULL for the ground (the
 * identity). The constraint rows g (m of them: spherical 3, revolute 5, prismatic 5, fixed
 * 6; the formulas are in joint.c), their velocity Jacobians G_a, G_b (m x 6 each, with
 * respect to the body-frame (v, w); g' = G_a nu_a + G_b nu_b), and the exact derivatives of
 * g, G_a and G_b with respect to the 14 position parameters (r_a, q_a, r_b, q_b). */
typedef enum { PL_JOINT_SPHERICAL, PL_JOINT_REVOLUTE, PL_JOINT_PRISMATIC, PL_JOINT_FIXED } PlJointKind;
typedef struct {
  PlJointKind kind;
  double pa[3], pb[3]; /* the joint point in A's and in B's frame [m] */
  double Fa[9], Fb[9]; /* the joint frame in A and in B (columns f1, f2, f3) */
} PlJoint;
typedef struct {
  int m;               /* constraint rows */
  double g[6];         /* g [m, or - for the axis rows] */
  double Ga[36], Gb[36];       /* [m x 6] row-major */
  double dg[6 * 14];           /* dg_r / dp_k at [14 r + k] */
  double dGa[36 * 14], dGb[36 * 14]; /* dG_rc / dp_k at [14 (6 r + c) + k] */
} PlJointEvalOut;
int PlJointRowCount(PlJointKind kind);
void PlJointEval(const PlJoint *j, const double ya[7], const double yb[7], PlJointEvalOut *out);
/* ==== end of the joints section ========================================================= */

/* ==== roller contact (elements/roller.c; docs/design-system-core.md §2.3) ================
 * A roller: an infinite cylinder of axis a (unit) through c, the pipe resting on its side n
 * (unit, normal to a) at contact distance rho (roller radius + the pipe's outer radius) from
 * the axis; a C^1 penalty of stiffness k smoothed over the penetration delta, damping cd along
 * the contact's normal (0 in statics), acting where the pipe crosses the roller's normal plane
 * no deeper than reach below its surface. The formulation is derived in roller.c. */
typedef struct {
  double c[3], a[3], n[3];
  double rho, k, delta, cd, reach;
} PlRoller;
typedef struct {
  double xi;     /* where the segment A-B crosses the roller's normal plane (0 at A, 1 at B) */
  double gap;    /* the pipe's clearance above the roller [m]: PlRollerCrossing's h - rho
                    along n, PlRollerContact's normal to the pipe */
  double force;  /* the penalty's normal force F(p), p = -gap [N] */
  double f[6];   /* the contact's force on the pipe at A and at B (global) [N] */
} PlRollerOut;
/* The segment's crossing of the roller's normal plane: 1 when A-B crosses it (half-open: one
 * segment of a line claims a node on the plane) with h > rho - reach, o->xi and o->gap set;
 * 0 else. */
int PlRollerCrossing(const PlRoller *r, const double xA[3], const double xB[3], PlRollerOut *o);
/* The contact of a crossing segment A-B (PlRollerCrossing returned 1), with its neighbours'
 * outer nodes P (before A) and Q (after B) along the line, each NULL at a line's end: o->force
 * and o->f, and with K, C not NULL K = -df/dx (6 x 12 row-major: the rows of A and B, the
 * columns of P, A, B, Q; a missing node's columns 0) and C = -df/dv (6 x 6 over A, B), at
 * velocities vA, vB (NULL: at rest, no damping). */
void PlRollerContact(const PlRoller *r, const double *xP, const double xA[3], const double xB[3], const double *xQ,
                     const double *vA, const double *vB, PlRollerOut *o, double *K, double *C);
/* ==== end of the roller section ========================================================= */
