/*
 * check.h - minimal assertions for pipelay's C tests: quiet on success, one clear line on
 * failure (file:line, what was compared, values and tolerance), non-zero exit status.
 */
#pragma once
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int pl_check_failures = 0;

/* |got - want| <= tol */
#define CHECK_ABS(got, want, tol, what)                                                     \
  do {                                                                                     \
    const double g_ = (got), w_ = (want), t_ = (tol);                                      \
    if (!(fabs(g_ - w_) <= t_)) {                                                           \
      fprintf(stderr, "%s:%d: FAIL %s: got %.10g, want %.10g, |diff| %.3g > tol %.3g\n",   \
              __FILE__, __LINE__, what, g_, w_, fabs(g_ - w_), t_);                          \
      ++pl_check_failures;                                                                 \
    }                                                                                      \
  } while (0)

/* |got - want| <= tol * |want| */
#define CHECK_REL(got, want, tol, what)                                                     \
  do {                                                                                     \
    const double g_ = (got), w_ = (want), t_ = (tol);                                      \
    if (!(fabs(g_ - w_) <= t_ * fabs(w_))) {                                                \
      fprintf(stderr, "%s:%d: FAIL %s: got %.10g, want %.10g, rel diff %.3g > tol %.3g\n", \
              __FILE__, __LINE__, what, g_, w_, fabs(g_ - w_) / fabs(w_), t_);               \
      ++pl_check_failures;                                                                 \
    }                                                                                      \
  } while (0)

#define CHECK_TRUE(cond, what)                                                              \
  do {                                                                                     \
    if (!(cond)) {                                                                         \
      fprintf(stderr, "%s:%d: FAIL %s\n", __FILE__, __LINE__, what);                       \
      ++pl_check_failures;                                                                 \
    }                                                                                      \
  } while (0)

#define CHECK_DONE() (pl_check_failures ? EXIT_FAILURE : EXIT_SUCCESS)
