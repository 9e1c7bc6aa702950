/*
 * rod_dynamics.c - the dynamic kernels with 14 derivative directions (iteration matrices),
 * the plain helper functions, and the public entry points, which use the cheap
 * one-direction instance (rod_dynamics_val.c) when no derivative is asked for. The
 * formulation is in the banner of rod_dynamics_kernel.inc.
 */
#define PL_DUAL_N 14
#define KFN(name) PlDyn##name##_jac
#define PL_DYN_COMMON
#include "rod_dynamics_kernel.inc"

void PlNodeDynamics(const PlNodeInertia *ni, PlParamKind kind, const double q0[4],
                    const double *y, const double *yp, double c, const double M_global[3],
                    double *r, double *K)
{
  if (K) PlDynNodeDynamics_jac(ni, kind, q0, y, yp, c, M_global, r, K);
  else PlDynNodeDynamics_val(ni, kind, q0, y, yp, c, M_global, r, NULL);
}

void PlNodeMapParamForce(PlParamKind kind, const double *p, const double *r_p, double m[3],
                         double *dm_dp)
{
  if (dm_dp) PlDynMapParamForce_jac(kind, p, r_p, m, dm_dp);
  else PlDynMapParamForce_val(kind, p, r_p, m, NULL);
}

void PlRodElementMorison(const PlMorison *h, const double *yA, const double *ypA, const double *yB,
                         const double *ypB, int iV, const double vc[2][3], const double dvc_dz[2][3],
                         double c, double f[6], double *K)
{
  if (K) PlDynMorison_jac(h, yA, ypA, yB, ypB, iV, vc, dvc_dz, c, f, K);
  else PlDynMorison_val(h, yA, ypA, yB, ypB, iV, vc, dvc_dz, c, f, NULL);
}
