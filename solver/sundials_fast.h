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
