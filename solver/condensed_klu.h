/*
 * condensed_klu.h - IDA's linear solver for the system's iteration matrix: KLU on the matrix
 * with its kinematic rows condensed out (private; condensed_klu.c derives it).
 */
#pragma once
#include <sundials/sundials_linearsolver.h>
#include <sunmatrix/sunmatrix_sparse.h>

/* A direct SUNLinearSolver for the n x n CSC matrix A (its pattern set, and fixed for the
 * solver's life). Each candidate k names a row row[k] and a column vcol[k]; a candidate is
 * condensed when the row's pattern holds exactly two entries, one in vcol[k] and one in
 * another column x that no candidate condenses (u' - v = 0: c du - dv = b), and no other
 * candidate has that row or column; the others are left in the matrix. Every solve is
 * exact for any values whose entries A[row, vcol] are nonzero at the set-up (else the set-up
 * fails, unrecoverably: the caller's rows are not what it said). *ncondensed (may be NULL):
 * how many were condensed. NULL out of memory or when KLU cannot start. */
SUNLinearSolver PlCondensedKLU(SUNMatrix A, const int *row, const int *vcol, int ncand, int *ncondensed,
                               SUNContext ctx);

/* The solver's factors, saved as the matrices that made them (a restart continues with the
 * same bits): the size in doubles, the save, and the restore into S (A's values are
 * overwritten: they end as those of the last set-up). Restore returns 0, or 1 when KLU fails. */
long PlCondensedKLUStateSize(SUNLinearSolver S);
void PlCondensedKLUStateSave(SUNLinearSolver S, double *buf);
int PlCondensedKLUStateRestore(SUNLinearSolver S, SUNMatrix A, const double *buf);
