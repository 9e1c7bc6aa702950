/*
 * dual.h - forward-mode dual numbers with a fixed number of directions (private).
 *
 * a = a.v + sum_k a.d[k] eps_k with eps_i eps_j = 0. Each operation applies the chain rule
 * to the derivative part, so a kernel written on PlDual returns its exact (to round-off)
 * Jacobian with respect to the seeded inputs. Sized for one rod element: 2 nodes x 7 DOFs.
 * Used only to differentiate the hand-derived element residual; never allocates.
 */
#pragma once
#include <math.h>

#ifndef PL_DUAL_N
#define PL_DUAL_N 14 /* a file may choose fewer (0: values only, plain doubles) */
#endif

typedef struct {
  double v;              /* value */
  double d[PL_DUAL_N];   /* derivatives with respect to the seeded inputs */
} PlDual;

static inline PlDual PlDualConst(double c)
{
  PlDual r;
  r.v = c;
  for (int k = 0; k < PL_DUAL_N; ++k) r.d[k] = 0.0;
  return r;
}
static inline PlDual PlDualAdd(PlDual a, PlDual b)
{
  PlDual r;
  r.v = a.v + b.v;
  for (int k = 0; k < PL_DUAL_N; ++k) r.d[k] = a.d[k] + b.d[k];
  return r;
}
static inline PlDual PlDualSub(PlDual a, PlDual b)
{
  PlDual r;
  r.v = a.v - b.v;
  for (int k = 0; k < PL_DUAL_N; ++k) r.d[k] = a.d[k] - b.d[k];
  return r;
}
static inline PlDual PlDualMul(PlDual a, PlDual b)
{
  PlDual r;
  r.v = a.v * b.v;
  for (int k = 0; k < PL_DUAL_N; ++k) r.d[k] = a.d[k] * b.v + a.v * b.d[k];
  return r;
}
static inline PlDual PlDualScale(PlDual a, double c)
{
  PlDual r;
  r.v = a.v * c;
  for (int k = 0; k < PL_DUAL_N; ++k) r.d[k] = a.d[k] * c;
  return r;
}
static inline PlDual PlDualDiv(PlDual a, PlDual b)
{
  PlDual r;
  const double ib = 1.0 / b.v;
  r.v = a.v * ib;
  for (int k = 0; k < PL_DUAL_N; ++k) r.d[k] = (a.d[k] - r.v * b.d[k]) * ib;
  return r;
}
static inline PlDual PlDualNeg(PlDual a) { return PlDualScale(a, -1.0); }
/* f(a) with f(a.v) = fv and f'(a.v) = dfv. */
static inline PlDual PlDualApply(PlDual a, double fv, double dfv)
{
  PlDual r;
  r.v = fv;
  for (int k = 0; k < PL_DUAL_N; ++k) r.d[k] = dfv * a.d[k];
  return r;
}
static inline PlDual PlDualSqrt(PlDual a)
{
  const double s = sqrt(a.v);
  return PlDualApply(a, s, 0.5 / s);
}
static inline PlDual PlDualSin(PlDual a) { return PlDualApply(a, sin(a.v), cos(a.v)); }
static inline PlDual PlDualCos(PlDual a) { return PlDualApply(a, cos(a.v), -sin(a.v)); }
static inline PlDual PlDualAtan2(PlDual y, PlDual x)
{
  PlDual r;
  const double n = x.v * x.v + y.v * y.v;
  r.v = atan2(y.v, x.v);
  for (int k = 0; k < PL_DUAL_N; ++k) r.d[k] = (x.v * y.d[k] - y.v * x.d[k]) / n;
  return r;
}
