/*
 * system_fd.h - the system core's iteration matrix against central differences of its
 * residual (tests/test_dynamic.c, test_coupled.c, test_system_dynamic.c; serial).
 */
#pragma once
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "pipelay/solver.h"

/* A generic state near S's start: every unknown displaced (a few cm or 0.2 of a small
 * value), every rate set, from a fixed seed (the same state on every rank). */
static inline void FdGenericState(PlSysDyn S, unsigned long seed, double *y, double *yp)
{
  const int n = PlSysDynSize(S);
  memcpy(y, PlSysDynState(S), sizeof(double) * n);
  memcpy(yp, PlSysDynRate(S), sizeof(double) * n);
  for (int i = 0; i < n; ++i) {
    seed = seed * 6364136223846793005UL + 1442695040888963407UL;
    const double r = ((double)(seed >> 11) / 9007199254740992.0) - 0.5;
    const double size = fabs(y[i]) > 1.5 ? 0.05 : fabs(y[i]) > 0.2 ? 0.01 : 0.2;
    y[i] += 2.0 * r * size;
    yp[i] += r * 0.3;
  }
}

/* The largest |J - J_fd| over its row's largest entry of J = dF/dy + c dF/dy' at (t, y, yp)
 * (the work integrals' rows: their diagonal only, PlSysDynWorkRows)
 * (J_fd column by column, y and y' perturbed together, c h for y'); or, with statics, of the
 * statics' J = dF/dy of the residual at rest (PlSysStaticResidual: the held DOFs' rows; t, yp
 * and c unused). The row and column where; -1 when the matrix cannot be assembled there
 * (outside the domain) or out of memory. */
static inline int FdEval(PlSysDyn S, int statics, double t, const double *y, const double *yp, double *F)
{
  return statics ? PlSysStaticResidual(S, y, F) : PlSysDynResidual(S, t, y, yp, F);
}

static inline double FdMatrixError(PlSysDyn S, int statics, double t, const double *y, const double *yp, double c,
                                   int *wr, int *wc)
{
  const int n = PlSysDynSize(S);
  double *J = malloc(sizeof(double) * n * n), *Fp = malloc(sizeof(double) * n), *Fm = malloc(sizeof(double) * n),
         *yw = malloc(sizeof(double) * n), *ypw = malloc(sizeof(double) * n), *rowmax = calloc(n, sizeof(double));
  double worst = -1.0;
  int w0, nw; /* the work integrals' rows W' - P(y, y') (energy.csv) leave dP/dy out of the matrix by
                 design (nothing depends on W: Newton on y is unchanged): their matrix is dF/dW' = c
                 on the diagonal (1 at rest), checked as such (central differences of the powers, of
                 order 1e8 W at a disturbed state, carry rounding noise of 1e-2 on c) */
  PlSysDynWorkRows(S, &w0, &nw);
  *wr = *wc = -1;
  if (statics) c = 0.0;
  if (J && Fp && Fm && yw && ypw && rowmax &&
      (statics ? PlSysStaticMatrixDense(S, y, J) : PlSysDynMatrixDense(S, t, y, yp, c, J)) == 0) {
    worst = 0.0;
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < n; ++k) rowmax[i] = fmax(rowmax[i], fabs(J[(size_t)i * n + k]));
    for (int i = w0; i < w0 + nw; ++i)
      for (int k = 0; k < n; ++k) {
        const double e = fabs(J[(size_t)i * n + k] - (k == i ? (statics ? 1.0 : c) : 0.0)) / fmax(rowmax[i], 1e-12);
        if (e > worst) worst = e, *wr = i, *wc = k;
      }
    /* central differences at h and h/2, extrapolated (Richardson): error O(h^4), so that
     * a state near a stiff spot of the residual (a zxy Euler node near phi = 90 deg, where
     * the spin map is near singular) is checked as tightly as any other */
    double *D1 = malloc(sizeof(double) * n);
    for (int j = 0; D1 && j < n; ++j) {
      const double H = 1e-6 * fmax(1.0, fabs(y[j]));
      for (int pass = 0; pass < 2; ++pass) {
        const double h = pass ? 0.5 * H : H;
        memcpy(yw, y, sizeof(double) * n);
        memcpy(ypw, yp, sizeof(double) * n);
        yw[j] += h;
        ypw[j] += c * h;
        FdEval(S, statics, t, yw, ypw, Fp);
        yw[j] -= 2.0 * h;
        ypw[j] -= 2.0 * c * h;
        FdEval(S, statics, t, yw, ypw, Fm);
        for (int i = 0; i < n; ++i) {
          if (i >= w0 && i < w0 + nw) continue; /* a work integral's row: checked above */
          const double fd = (Fp[i] - Fm[i]) / (2.0 * h);
          if (!pass) {
            D1[i] = fd;
            continue;
          }
          const double e = fabs((4.0 * fd - D1[i]) / 3.0 - J[(size_t)i * n + j]) / fmax(rowmax[i], 1e-12);
          if (e > worst) worst = e, *wr = i, *wc = j;
        }
      }
    }
    if (!D1) worst = -1.0;
    free(D1);
  }
  free(J), free(Fp), free(Fm), free(yw), free(ypw), free(rowmax);
  return worst;
}
