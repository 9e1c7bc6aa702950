/*
 * rod_dynamics_impl.h - the two instances of the dynamic kernels (private): _val on
 * plain doubles (residuals; dual numbers of no direction), _jac on 14 directions (the iteration
 * matrices the hand-derived ones of rod_dynamics.c do not cover, and their references).
 */
#pragma once
#include "pipelay/elements.h"

#define PL_DYN_KERNEL_DECLS(S)                                                                 \
  void PlDynNodeDynamics##S(const PlNodeInertia *ni, PlParamKind kind, const double q0[4],     \
                            const double *y, const double *yp, double c, const double M[3],    \
                            double *r, double *K);                                             \
  void PlDynMapParamForce##S(PlParamKind kind, const double *p, const double *r_p, double m[3],\
                             double *dm_dp);                                                   \
  void PlDynMorison##S(const PlMorison *h, const double *yA, const double *ypA,                \
                       const double *yB, const double *ypB, int iV, const PlFluidAt fl[2],     \
                       double c, double f[6], double *K);
PL_DYN_KERNEL_DECLS(_val)
PL_DYN_KERNEL_DECLS(_jac)
