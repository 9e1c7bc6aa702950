/*
 * dual_ops.h - short names for dual-number arithmetic in the kernels written only on dual
 * numbers (rod dynamics, vessel, DP controller) (private). Include after dual.h (which may
 * be given a PL_DUAL_N of its own).
 */
#pragma once
#include "dual.h"

typedef PlDual D;
static inline D dc(double c) { return PlDualConst(c); }
static inline D da(D a, D b) { return PlDualAdd(a, b); }
static inline D ds(D a, D b) { return PlDualSub(a, b); }
static inline D dm(D a, D b) { return PlDualMul(a, b); }
static inline D dk(D a, double c) { return PlDualScale(a, c); }
/* Seeds derivative direction k of a (ignored beyond this file's PL_DUAL_N directions). */
static inline void Seed(D *a, int k, double v)
{
  if (k < PL_DUAL_N) a->d[k] = v;
}
/* o = a x b (o may alias a or b) and a . b */
static inline void DCross(const D a[3], const D b[3], D o[3])
{
  D r[3];
  r[0] = ds(dm(a[1], b[2]), dm(a[2], b[1]));
  r[1] = ds(dm(a[2], b[0]), dm(a[0], b[2]));
  r[2] = ds(dm(a[0], b[1]), dm(a[1], b[0]));
  for (int i = 0; i < 3; ++i) o[i] = r[i];
}
static inline D DDot(const D a[3], const D b[3]) { return da(da(dm(a[0], b[0]), dm(a[1], b[1])), dm(a[2], b[2])); }
