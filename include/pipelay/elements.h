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

/* ---- quaternion and rotation utilities (double) ---------------------------------------- */
void PlQuatMul(const double a[4], const double b[4], double out[4]);
void PlQuatToMatrix(const double q[4], double R[9]);         /* row-major */
void PlQuatFromMatrix(const double R[9], double q[4]);      /* R orthonormal */
void PlQuatFromAxisAngle(const double axis[3], double angle_rad, double q[4]);
void PlQuatRotate(const double q[4], const double v[3], double out[3]);
/* Rotation vector psi with exp(psi^) = R(q), |psi| <= pi. */
void PlQuatLog(const double q[4], double psi[3]);

/* Rotation of node: q_total = q0 (x) q(p). */
void PlNodeQuaternion(PlParamKind kind, const double q0[4], const double *p, double q[4]);

/* ---- the rod element ------------------------------------------------------------------- */
typedef struct {
  double L;          /* reference (unstretched) length [m] */
  double CT[3];      /* EA, GA2, GA3 [N] */
  double CR[3];      /* GJ, EI2, EI3 [N m^2] */
  double q0[2][4];   /* reference frames R0 of the two nodes (unit quaternions) */
  PlParamKind kind;
} PlRodElement;

void PlRodElementInit(PlRodElement *e, double L, const PlSection *s, const double q0A[4],
                      const double q0B[4], PlParamKind kind);

/* Internal force vector r (= dU/du, the gradient of the strain energy with respect to the
 * element's nodal unknowns u = [x_A, p_A, x_B, p_B]) and, if K != NULL, its exact
 * derivative K = dr/du (row-major, ndof x ndof, ndof = 2 * PlNodeDofCount). Returns 0, or
 * 1 when the state is outside the rod's domain (relative rotation of 180 deg or more, or a
 * non-finite value) so the solver can back off. */
int PlRodElementInternal(const PlRodElement *e, const double *u, double *r, double *K);

/* Strain energy U = L (gamma.C_T.gamma + kappa.C_R.kappa)/2 [J]. */
double PlRodElementEnergy(const PlRodElement *e, const double *u);

/* Section state at the element midpoint (the one-point quadrature point). */
typedef struct {
  double gamma[3];   /* material strain: axial, shear 2, shear 3 [-] */
  double kappa[3];   /* material curvature: twist, bending 2, bending 3 [1/m] */
  double n[3];       /* material stress resultant: axial (effective tension), shear 2, 3 [N] */
  double m[3];       /* material stress couple: torque, bending moments 2, 3 [N m] */
  double Rm[9];      /* midpoint frame R_t^e, row-major (columns t1, t2, t3) */
  double xm[3];      /* midpoint position [m] */
} PlRodSectionState;
void PlRodElementState(const PlRodElement *e, const double *u, PlRodSectionState *st);

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
#define PL_DYN_DOF_MAX 13

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
 * not NULL the iteration matrix dr/dy + c dr/dyp (row-major n x n). */
void PlNodeDynamics(const PlNodeInertia *ni, PlParamKind kind, const double q0[4],
                    const double *y, const double *yp, double c, const double M_global[3],
                    double *r, double *K);

/* The rod's generalised force r_p on a node's parameters as the body moment m[3] of the
 * angular-momentum rows: quaternion m = E(p)^T r_p / 2, Euler m = T(p)^-T r_p. dm_dp
 * (3 x np, row-major) = dm/dp at fixed r_p when not NULL. */
void PlNodeMapParamForce(PlParamKind kind, const double *p, const double *r_p, double m[3],
                         double *dm_dp);

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
} PlMorison;

/* Residual contributions f[6] to the linear-momentum rows of nodes A and B (minus the
 * hydrodynamic force) from the nodes' dynamic states yA, yB and rates ypA, ypB (iV = index
 * of v in a node's unknowns), with the current vc [m/s] and dvc/dz [1/s] at the two Gauss
 * points. K (6 x 12, row-major, columns xA, vA, xB, vB) = df/dy + c df/dyp when not NULL. */
void PlRodElementMorison(const PlMorison *h, const double *yA, const double *ypA, const double *yB,
                         const double *ypB, int iV, const double vc[2][3], const double dvc_dz[2][3],
                         double c, double f[6], double *K);
