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
