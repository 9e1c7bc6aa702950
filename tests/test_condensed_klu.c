/*
 * test_condensed_klu.c - the condensed KLU linear solver (solver/condensed_klu.c) against a
 * dense LU with partial pivoting of the same matrix.
 *
 * The matrix has the system's shape: nodes of six unknowns (u, v), each node's rows
 * c du - dv = b (kinematic) and momentum rows coupled to the neighbouring nodes' u and v,
 * plus a block of three unknowns coupled to every node (a body). Candidates the solver must
 * leave in the matrix: node 0's kinematic rows carry a third entry, node 1's are named twice,
 * node 2's name a column outside their row, node 4's name a pair whose other column is node 3's
 * condensed v (so node 4's pair is dropped). Checked: how many pairs were condensed (exactly those expected), the solution
 * of three right sides within 1e-12 of the dense one (relative to its largest entry) at two
 * sets of values (factorisation, then refactorisation), a set-up with a_rv = 0 refused, and
 * with no candidate the whole matrix solved.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <nvector/nvector_serial.h>
#include <sunmatrix/sunmatrix_sparse.h>
#include "../solver/condensed_klu.h"
#include "check.h"

enum { NODES = 12, NN = 6 * NODES + 3 };

static unsigned long long seed = 88172645463325252ull;

static double Rand(void) /* in [-1, 1) */
{
  seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
  return 2.0 * (double)(seed >> 11) / 9007199254740992.0 - 1.0;
}

/* the pattern: pat[i][j] != 0 where the matrix has an entry */
static void Pattern(int pat[NN][NN])
{
  memset(pat, 0, sizeof(int) * NN * NN);
  const int body = 6 * NODES;
  for (int i = 0; i < NODES; ++i)
    for (int c = 0; c < 3; ++c) {
      const int r = 6 * i + c, m = 6 * i + 3 + c;
      pat[r][r] = pat[r][m] = 1; /* c du - dv */
      for (int k = i - 1; k <= i + 1; ++k)
        if (k >= 0 && k < NODES)
          for (int j = 0; j < 6; ++j) pat[m][6 * k + j] = 1;
      for (int j = 0; j < 3; ++j) pat[m][body + j] = pat[body + j][m] = pat[body + j][r] = 1;
    }
  for (int c = 0; c < 3; ++c) pat[c][6 * 1 + c] = 1; /* node 0's kinematic rows hold a third entry */
  for (int j = 0; j < 3; ++j) pat[body + j][body + j] = 1;
}

/* values on the pattern: kinematic rows (cj, -1) (scale 1: a_rv = scale), momentum rows
 * dominant on their diagonal */
static void Values(int pat[NN][NN], double D[NN][NN], double cj, double scale)
{
  for (int i = 0; i < NN; ++i)
    for (int j = 0; j < NN; ++j) D[i][j] = pat[i][j] ? Rand() : 0.0;
  for (int i = 0; i < NODES; ++i)
    for (int c = 0; c < 3; ++c) {
      const int r = 6 * i + c, m = 6 * i + 3 + c;
      D[r][r] = cj, D[r][m] = -scale;
      D[m][m] += 20.0;
    }
  for (int j = 0; j < 3; ++j) D[6 * NODES + j][6 * NODES + j] += 30.0;
  for (int i = 0; i < NN; ++i)
    for (int j = 0; j < NN; ++j)
      if (!pat[i][j]) D[i][j] = 0.0;
}

static void ToSparse(int pat[NN][NN], double D[NN][NN], SUNMatrix A)
{
  sunindextype *cp = SUNSparseMatrix_IndexPointers(A), *ri = SUNSparseMatrix_IndexValues(A), k = 0;
  double *v = SUNSparseMatrix_Data(A);
  for (int j = 0; j < NN; ++j) {
    cp[j] = k;
    for (int i = 0; i < NN; ++i)
      if (pat[i][j]) ri[k] = i, v[k++] = D[i][j];
  }
  cp[NN] = k;
}

/* x = D^{-1} b by Gaussian elimination with partial pivoting (D, b overwritten) */
static void DenseSolve(double D[NN][NN], double *b, double *x)
{
  for (int k = 0; k < NN; ++k) {
    int p = k;
    for (int i = k + 1; i < NN; ++i)
      if (fabs(D[i][k]) > fabs(D[p][k])) p = i;
    for (int j = 0; j < NN; ++j) {
      const double t = D[k][j];
      D[k][j] = D[p][j], D[p][j] = t;
    }
    const double t = b[k];
    b[k] = b[p], b[p] = t;
    for (int i = k + 1; i < NN; ++i) {
      const double f = D[i][k] / D[k][k];
      for (int j = k; j < NN; ++j) D[i][j] -= f * D[k][j];
      b[i] -= f * b[k];
    }
  }
  for (int i = NN - 1; i >= 0; --i) {
    double s = b[i];
    for (int j = i + 1; j < NN; ++j) s -= D[i][j] * x[j];
    x[i] = s / D[i][i];
  }
}

int main(void)
{
  SUNContext ctx;
  CHECK_TRUE(SUNContext_Create(NULL, &ctx) == 0, "SUNDIALS context");
  static int pat[NN][NN];
  static double D[NN][NN], Dc[NN][NN];
  Pattern(pat);
  int nnz = 0;
  for (int i = 0; i < NN; ++i)
    for (int j = 0; j < NN; ++j) nnz += pat[i][j];
  SUNMatrix A = SUNSparseMatrix(NN, NN, nnz, CSC_MAT, ctx);
  Values(pat, D, 40.0, 1.0);
  ToSparse(pat, D, A);
  /* candidates: every node's (u_c row, v_c column), node 1's twice, node 2's with a column
   * not in the row, and node 3's v columns named as node 4's x by a crafted row below */
  int row[6 * NODES], vcol[6 * NODES], nc = 0;
  for (int i = 0; i < NODES; ++i)
    for (int c = 0; c < 3; ++c) {
      row[nc] = 6 * i + c;
      vcol[nc++] = i == 2 ? 6 * i + 3 + (c + 1) % 3 : 6 * i + 3 + c;
      if (i == 1) row[nc] = 6 * i + c, vcol[nc++] = 6 * i + 3 + c;
    }
  /* node 4's kinematic rows re-pointed: their entries in u_4c and node 3's v_3c, and node 4's
   * candidates name (row u_4c, column u_4c): a pair whose x, v_3c, node 3's pair condenses
   * away, which must be dropped (node 4's candidates come after node 1's doubles) */
  for (int c = 0; c < 3; ++c) {
    pat[6 * 4 + c][6 * 4 + 3 + c] = 0;
    pat[6 * 4 + c][6 * 3 + 3 + c] = 1;
    vcol[3 * 4 + 1 * 3 + c] = 6 * 4 + c;
  }
  SUNMatDestroy(A);
  nnz = 0;
  for (int i = 0; i < NN; ++i)
    for (int j = 0; j < NN; ++j) nnz += pat[i][j];
  A = SUNSparseMatrix(NN, NN, nnz, CSC_MAT, ctx);
  int ncond = -1;
  SUNLinearSolver S = NULL;
  for (int set = 0; set < 2; ++set) {
    Values(pat, D, set ? 23.0 : 40.0, set ? -2.5 : 1.0);
    for (int c = 0; c < 3; ++c) D[6 * 4 + c][6 * 3 + 3 + c] = -1.0;
    ToSparse(pat, D, A);
    if (!S) {
      S = PlCondensedKLU(A, row, vcol, nc, &ncond, ctx);
      if (!S) {
        fprintf(stderr, "FAIL: the solver is not created\n");
        return EXIT_FAILURE;
      }
      /* nodes 1 (named twice, the first kept), 3 and 5 to 11; not 0 (three entries), 2 (a
       * column not in the row) or 4 (its x condensed away) */
      CHECK_ABS(ncond, 3 * 9, 0.0, "pairs condensed (nodes 1, 3 and 5 to 11)");
      CHECK_TRUE(SUNLinSolInitialize(S) == 0, "initialize");
    }
    CHECK_TRUE(SUNLinSolSetup(S, A) == 0, "set-up");
    N_Vector x = N_VNew_Serial(NN, ctx), b = N_VNew_Serial(NN, ctx);
    for (int rhs = 0; rhs < 3; ++rhs) {
      double bd[NN], xd[NN], big = 0.0, err = 0.0;
      for (int i = 0; i < NN; ++i) bd[i] = N_VGetArrayPointer(b)[i] = Rand();
      memcpy(Dc, D, sizeof D);
      DenseSolve(Dc, bd, xd);
      CHECK_TRUE(SUNLinSolSolve(S, A, x, b, 0.0) == 0, "solve");
      for (int i = 0; i < NN; ++i) {
        big = fmax(big, fabs(xd[i]));
        err = fmax(err, fabs(N_VGetArrayPointer(x)[i] - xd[i]));
      }
      CHECK_ABS(err / big, 0.0, 1e-12, "the dense solution (largest difference / largest entry)");
    }
    if (set == 1) { /* a_rv = 0 in a condensed row: refused */
      D[6 * 7][6 * 7 + 3] = 0.0;
      ToSparse(pat, D, A);
      CHECK_TRUE(SUNLinSolSetup(S, A) == SUNLS_PACKAGE_FAIL_UNREC, "a zero a_rv is refused");
      SUNLinSolFree(S);
    }
    N_VDestroy(x), N_VDestroy(b);
  }
  { /* no candidate: KLU on the whole matrix (the last values, whose a_rv = 0 row is then kept) */
    int none = -1;
    S = PlCondensedKLU(A, row, vcol, 0, &none, ctx);
    CHECK_TRUE(S && none == 0 && SUNLinSolInitialize(S) == 0 && SUNLinSolSetup(S, A) == 0, "no candidate: set-up");
    N_Vector x = N_VNew_Serial(NN, ctx), b = N_VNew_Serial(NN, ctx);
    double bd[NN], xd[NN], big = 0.0, err = 0.0;
    for (int i = 0; i < NN; ++i) bd[i] = N_VGetArrayPointer(b)[i] = Rand();
    memcpy(Dc, D, sizeof D);
    DenseSolve(Dc, bd, xd);
    CHECK_TRUE(S && SUNLinSolSolve(S, A, x, b, 0.0) == 0, "no candidate: solve");
    for (int i = 0; i < NN; ++i) {
      big = fmax(big, fabs(xd[i]));
      err = fmax(err, fabs(N_VGetArrayPointer(x)[i] - xd[i]));
    }
    CHECK_ABS(err / big, 0.0, 1e-12, "no candidate: the dense solution");
    if (S) SUNLinSolFree(S);
    N_VDestroy(x), N_VDestroy(b);
  }
  SUNMatDestroy(A);
  SUNContext_Free(&ctx);
  if (!pl_check_failures) printf("condensed KLU: the dense solution at two sets of values, %d pairs condensed\n", ncond);
  return CHECK_DONE();
}
