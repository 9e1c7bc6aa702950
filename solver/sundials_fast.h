/*
 * sundials_fast.h - compiled vector operations for SUNDIALS' serial N_Vector and the sparse
 * matrix's zeroing (private; sundials_fast.c says why and what they promise).
 */
#pragma once
#include <nvector/nvector_serial.h>
#include <sunmatrix/sunmatrix_sparse.h>

/* Puts the compiled operations into v's table of operations (v serial; anything else, or
 * NULL, is left alone). Vectors cloned from v afterwards carry them. */
void PlVectorFastOps(N_Vector v);

/* Puts the compiled zeroing into the sparse matrix A's operations (anything else is left):
 * SUNMatZero then zeroes A's values and keeps its pattern (for a matrix whose pattern its
 * owner sets once). */
void PlSparseFastOps(SUNMatrix A);

/* The error norm of a system of rods (sundials_fast.c, PlStrainNorm): IDA measures every
 * error estimate and Newton update x in the weighted RMS norm of the error weights w. With a
 * strain norm registered for the vectors' SUNDIALS context, the norm of x with those weights
 * also holds, per rod element e with the position unknowns a and b at its ends (3 each), the
 * difference x_b - x_a against its own tolerance tol_e:
 *   |x|^2 = ( sum_i (x_i w_i)^2 + sum_e sum_c ((x_b+c - x_a+c) / tol_e)^2 ) / (n + 3 n_e).
 * A component whose unknown at either end is out of the error test (a masked norm's id 0) is
 * left out. Registered with the error-weight vector's data (ewt), recorded by the error-weight
 * function each time IDA computes the weights; any other weight vector gets the plain norm. */
typedef struct {
  SUNContext ctx;
  const double *ewt;  /* IDA's current error weights (the data of its ewt vector) */
  int npairs;         /* rod elements */
  const int *a, *b;   /* the first of the 3 position unknowns at each end of an element */
  const double *winv; /* 1 / tol_e per element */
} PlStrainNorm;
/* Registers sn (kept by the caller until unregistered); -1 if the table is full. */
int PlStrainNormRegister(PlStrainNorm *sn);
void PlStrainNormUnregister(const PlStrainNorm *sn);
