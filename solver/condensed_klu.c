/*
 * condensed_klu.c - IDA's linear solver for the system's iteration matrix: KLU on the matrix
 * with its kinematic rows condensed out.
 *
 * Workload: the iteration matrix A = dF/dy + c dF/dy' of a system of lines, 13 unknowns per
 * rod node (u, p, v, w), factorised every 20 steps and solved once per Newton iteration (about
 * 1.05 per step). An interior node's three translational kinematic rows u' - v = 0 hold two
 * entries each: c in u's column and -1 in v's. They are eliminated exactly (static
 * condensation of one unknown per row), so KLU works on the momentum rows alone:
 *
 *   row r:   a_rx dx + a_rv dv = b_r          =>  dv = (b_r - a_rx dx) / a_rv
 *   row i:   sum_j a_ij dj + a_iv dv = b_i    =>  sum_j a_ij dj + a_iv coef dx = b_i - a_iv t
 *            with coef = -a_rx / a_rv and t = b_r / a_rv,
 *
 * for every kept row i with an entry in v's column: the reduced matrix A' has a_ix + a_iv coef
 * in (i, x), its right side b_i - a_iv t; after KLU's solve, dv follows from row r. The
 * reduced matrix has 10 unknowns per node instead of 13: on the 740-node J-lay's matrix KLU's
 * triangular solve takes 0.083 ms instead of 0.103 ms and its refactorisation 0.54 ms instead
 * of 0.69 ms (bench/README.md, the fifth round). The rotations' kinematics p' - f(p) w are
 * left in the matrix: condensing them too moved the factors' entries into the coupling
 * products and made nothing faster (bench/README.md, the third round).
 *
 * The factorisation follows SUNDIALS' SUNLinSol_KLU: KLU's defaults with COLAMD ordering, a
 * symbolic analysis and factorisation at the first set-up, a refactorisation on the same
 * pivots after, and a new factorisation when KLU's condition estimate exceeds eps^(-2/3)
 * (checked when its cheap reciprocal estimate falls below eps^(2/3)) or, unlike SUNDIALS' (which
 * fails the set-up), when the old pivots meet a zero. The reduced matrix keeps A's order of rows
 * and columns, so its diagonal pairs unrelated unknowns, and KLU's partial pivoting (diagonal
 * preference 0.001) chooses: on a 740-node J-lay matrix the solve's residual is 5.3e-6 of the
 * right side against 6.7e-6 for KLU on the whole matrix (pivot growth 0.027 both).
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <klu.h>
#include "condensed_klu.h"

typedef SuiteSparse_long Long;

typedef struct {
  Long n, m;          /* the full and the reduced order */
  Long np;            /* condensed pairs */
  Long *prow, *pv;    /* pair p's row r and v column */
  Long *pax, *pav;    /* positions of a_rx and a_rv in A's values */
  Long *px;           /* pair p's x column */
  double *coef, *t;   /* -a_rx / a_rv (set-up), b_r / a_rv (solve) */
  double *rinv;       /* 1 / a_rv (set-up) */
  int *rowsrc;        /* reduced row k's row in A */
  int *colsrc;        /* reduced column k's column in A */
  Long *cp, *ri;      /* the reduced matrix's pattern (CSC) */
  double *val;        /* its values */
  Long *direct;       /* reduced entry k's a_ij position in A's values, -1 when none */
  Long nop;           /* the condensation's products a_iv coef */
  Long *opk;          /* product o's reduced entry */
  Long *opsrc;        /* its a_iv position in A's values */
  int *opq;           /* its pair */
  Long nopr;          /* the reduced rows with products */
  int *oprows;        /* their reduced rows */
  Long *opptr;        /* row oprows[q]'s products: opptr[q] to opptr[q + 1] - 1 */
  double *opval;      /* a_iv at the set-up */
  double *b;          /* the reduced right side and solution */
  klu_l_common common;
  klu_l_symbolic *sym;
  klu_l_numeric *num;
  sunindextype last; /* the last flag */
  Long nnzA;         /* A's entries */
  double *afull;     /* A's values at the factorisation whose pivots num keeps */
  double *acur;      /* A's values at the last set-up */
  int fresh;         /* the last set-up factorised afresh (acur is afull) */
} Content;

#define CONTENT(S) ((Content *)(S)->content)

static void Free(Content *c)
{
  if (!c) return;
  if (c->num) klu_l_free_numeric(&c->num, &c->common);
  if (c->sym) klu_l_free_symbolic(&c->sym, &c->common);
  free(c->prow), free(c->pv), free(c->pax), free(c->pav), free(c->px), free(c->coef), free(c->t), free(c->rinv);
  free(c->rowsrc), free(c->colsrc), free(c->cp), free(c->ri), free(c->val), free(c->direct);
  free(c->opk), free(c->opsrc), free(c->opq), free(c->oprows), free(c->opptr), free(c->opval), free(c->b);
  free(c->afull), free(c->acur);
  free(c);
}

static SUNLinearSolver_Type GetType(SUNLinearSolver S)
{
  (void)S;
  return SUNLINEARSOLVER_DIRECT;
}

static SUNLinearSolver_ID GetID(SUNLinearSolver S)
{
  (void)S;
  return SUNLINEARSOLVER_CUSTOM;
}

/* As SUNDIALS' KLU: the next set-up factorises afresh (new pivots); the pattern's analysis is kept. */
static int Initialize(SUNLinearSolver S)
{
  Content *c = CONTENT(S);
  if (c->num) klu_l_free_numeric(&c->num, &c->common);
  c->last = SUNLS_SUCCESS;
  return SUNLS_SUCCESS;
}

/* The reduced matrix's values from A's, then KLU's factorisation. */
static int Setup(SUNLinearSolver S, SUNMatrix A)
{
  Content *c = CONTENT(S);
  const double *a = SUNSparseMatrix_Data(A);
  for (Long p = 0; p < c->np; ++p) {
    if (a[c->pav[p]] == 0.0) return c->last = SUNLS_PACKAGE_FAIL_UNREC; /* not u' - v */
    c->rinv[p] = 1.0 / a[c->pav[p]];
    c->coef[p] = -a[c->pax[p]] * c->rinv[p];
  }
  const Long nnz = c->cp[c->m];
  for (Long k = 0; k < nnz; ++k) c->val[k] = c->direct[k] >= 0 ? a[c->direct[k]] : 0.0;
  for (Long o = 0; o < c->nop; ++o) {
    c->opval[o] = a[c->opsrc[o]];
    c->val[c->opk[o]] += c->opval[o] * c->coef[c->opq[o]];
  }
  if (!c->sym) {
    c->sym = klu_l_analyze(c->m, c->cp, c->ri, &c->common);
    if (!c->sym) return c->last = SUNLS_PACKAGE_FAIL_UNREC;
  }
  if (c->num) {
    const double small = pow(DBL_EPSILON, 2.0 / 3.0);
    if (!klu_l_refactor(c->cp, c->ri, c->val, c->sym, c->num, &c->common)) /* a zero pivot: new pivots */
      klu_l_free_numeric(&c->num, &c->common);
    else if (!klu_l_rcond(c->sym, c->num, &c->common)) return c->last = SUNLS_PACKAGE_FAIL_REC;
    else if (c->common.rcond < small) { /* the cheap estimate is small: the better one decides */
      if (!klu_l_condest(c->cp, c->val, c->sym, c->num, &c->common)) return c->last = SUNLS_PACKAGE_FAIL_REC;
      if (c->common.condest > 1.0 / small) klu_l_free_numeric(&c->num, &c->common);
    }
  }
  c->fresh = !c->num;
  if (!c->num) {
    c->num = klu_l_factor(c->cp, c->ri, c->val, c->sym, &c->common);
    if (!c->num) /* singular: IDA may retry with a smaller step; out of memory: it may not */
      return c->last = c->common.status == KLU_SINGULAR ? SUNLS_PACKAGE_FAIL_REC : SUNLS_PACKAGE_FAIL_UNREC;
    memcpy(c->afull, a, sizeof(double) * (size_t)c->nnzA);
  }
  memcpy(c->acur, a, sizeof(double) * (size_t)c->nnzA);
  return c->last = SUNLS_SUCCESS;
}

/* x = A^{-1} b through the reduced system (the banner's formulas). */
static int Solve(SUNLinearSolver S, SUNMatrix A, N_Vector xv, N_Vector bv, realtype tol)
{
  (void)A, (void)tol;
  Content *c = CONTENT(S);
  const double *b = N_VGetArrayPointer(bv);
  double *x = N_VGetArrayPointer(xv), *br = c->b;
  if (!c->num || !b || !x) return c->last = SUNLS_MEM_NULL;
  for (Long k = 0; k < c->m; ++k) br[k] = b[c->rowsrc[k]];
  for (Long p = 0; p < c->np; ++p) c->t[p] = b[c->prow[p]] * c->rinv[p];
  for (Long q = 0; q < c->nopr; ++q) {
    double s = 0.0;
    for (Long o = c->opptr[q]; o < c->opptr[q + 1]; ++o) s += c->opval[o] * c->t[c->opq[o]];
    br[c->oprows[q]] -= s;
  }
  if (!klu_l_solve(c->sym, c->num, c->m, 1, br, &c->common)) return c->last = SUNLS_PACKAGE_FAIL_UNREC;
  for (Long k = 0; k < c->m; ++k) x[c->colsrc[k]] = br[k];
  for (Long p = 0; p < c->np; ++p) x[c->pv[p]] = c->t[p] + c->coef[p] * x[c->px[p]];
  return c->last = SUNLS_SUCCESS;
}

static sunindextype LastFlag(SUNLinearSolver S) { return CONTENT(S)->last; }

static int FreeSolver(SUNLinearSolver S)
{
  if (!S) return SUNLS_SUCCESS;
  Free(CONTENT(S));
  S->content = NULL;
  SUNLinSolFreeEmpty(S);
  return SUNLS_SUCCESS;
}

#define ALLOC(p, count) (((p) = malloc(sizeof *(p) * (size_t)((count) > 0 ? (count) : 1))) == NULL)

/* The pairs (the header's rule), the reduced pattern and the condensation's products. */
static int Build(Content *c, SUNMatrix A, const int *row, const int *vcol, int ncand)
{
  const Long n = c->n;
  const sunindextype *Ap = SUNSparseMatrix_IndexPointers(A), *Ai = SUNSparseMatrix_IndexValues(A);
  Long *rowcount = NULL, *rowpair = NULL, *colpair = NULL, *mark = NULL, *rnew = NULL;
  Long *rowfill = NULL, *rowcol = NULL, *rowpos = NULL, *rowop = NULL; /* rowop: reduced row k's products
                                                                       from rowop[k] (a counting sort) */
  int err = ALLOC(rowcount, n) || ALLOC(rowpair, n) || ALLOC(colpair, n) || ALLOC(mark, n) || ALLOC(rnew, n) ||
            ALLOC(rowfill, n) || ALLOC(rowcol, 2 * n) || ALLOC(rowpos, 2 * n);
  if (err) goto done;
  for (Long i = 0; i < n; ++i) rowcount[i] = 0, rowpair[i] = colpair[i] = -1, mark[i] = -1;
  for (Long j = 0; j < n; ++j)
    for (sunindextype k = Ap[j]; k < Ap[j + 1]; ++k) ++rowcount[Ai[k]];
  /* each two-entry row's columns and positions (rowcol[2 r], rowcol[2 r + 1], rowpos likewise) */
  for (Long i = 0; i < n; ++i) rowfill[i] = 0;
  for (Long j = 0; j < n; ++j)
    for (sunindextype k = Ap[j]; k < Ap[j + 1]; ++k) {
      const Long r = Ai[k];
      if (rowcount[r] == 2) rowcol[2 * r + rowfill[r]] = j, rowpos[2 * r + rowfill[r]] = k, ++rowfill[r];
    }
  /* candidates whose row has two entries, one in v's column; the first to name a row or a
   * column has it */
  err = ALLOC(c->prow, ncand) || ALLOC(c->pv, ncand) || ALLOC(c->pax, ncand) || ALLOC(c->pav, ncand) ||
        ALLOC(c->px, ncand) || ALLOC(c->coef, ncand) || ALLOC(c->t, ncand) ||
        ALLOC(c->rinv, ncand);
  if (err) goto done;
  c->np = 0;
  for (int k = 0; k < ncand; ++k) {
    const Long r = row[k], v = vcol[k];
    if (r < 0 || r >= n || v < 0 || v >= n || rowcount[r] != 2 || rowpair[r] >= 0 || colpair[v] >= 0) continue;
    const int iv = rowcol[2 * r] == v ? 0 : rowcol[2 * r + 1] == v ? 1 : -1;
    if (iv < 0) continue; /* v is not in the row */
    const Long p = c->np++;
    rowpair[r] = colpair[v] = p;
    c->prow[p] = r, c->pv[p] = v, c->pav[p] = rowpos[2 * r + iv];
    c->px[p] = rowcol[2 * r + 1 - iv], c->pax[p] = rowpos[2 * r + 1 - iv];
  }
  {
    Long w = 0; /* drop pairs whose x column is another pair's v: x stays in the matrix */
    for (Long p = 0; p < c->np; ++p)
      if (colpair[c->px[p]] < 0) {
        c->prow[w] = c->prow[p], c->pv[w] = c->pv[p], c->pax[w] = c->pax[p], c->pav[w] = c->pav[p], c->px[w] = c->px[p];
        ++w;
      }
    c->np = w;
  }
  for (Long i = 0; i < n; ++i) rowpair[i] = colpair[i] = -1, mark[i] = -1;
  for (Long p = 0; p < c->np; ++p) rowpair[c->prow[p]] = p, colpair[c->pv[p]] = p;
  /* the reduced order: kept rows and columns in their order in A */
  c->m = n - c->np;
  err = ALLOC(c->rowsrc, c->m) || ALLOC(c->colsrc, c->m) || ALLOC(c->cp, c->m + 1) || ALLOC(c->b, c->m);
  if (err) goto done;
  Long mr = 0, mc = 0;
  for (Long i = 0; i < n; ++i) {
    rnew[i] = rowpair[i] < 0 ? mr : -1;
    if (rowpair[i] < 0) c->rowsrc[mr++] = (int)i;
    if (colpair[i] < 0) c->colsrc[mc++] = (int)i;
  }
  /* column x of the reduced matrix: A's column x and, for each pair p with x_p = x, column v_p
   * (kept rows only); two passes, counting then filling, with mark[] for the union */
  Long *vofx = NULL, *vnext = NULL; /* the pairs of each x column as linked lists */
  err = ALLOC(vofx, n) || ALLOC(vnext, c->np);
  if (err) {
    free(vofx), free(vnext);
    goto done;
  }
  for (Long j = 0; j < n; ++j) vofx[j] = -1;
  for (Long p = c->np - 1; p >= 0; --p) vnext[p] = vofx[c->px[p]], vofx[c->px[p]] = p;
  Long nnz = 0, nop = 0;
  for (Long i = 0; i < n; ++i) rowcount[i] = 0; /* now: each reduced row's products */
  for (int pass = 0; pass < 2 && !err; ++pass) {
    nnz = nop = 0;
    for (Long k = 0; k < c->m; ++k) {
      const Long j = c->colsrc[k], start = nnz;
      if (pass) c->cp[k] = nnz;
      for (sunindextype q = Ap[j]; q < Ap[j + 1]; ++q) {
        const Long i = Ai[q];
        if (rnew[i] < 0) continue;
        if (pass) c->ri[nnz] = rnew[i], c->direct[nnz] = q;
        mark[i] = nnz++;
      }
      for (Long p = vofx[j]; p >= 0; p = vnext[p]) {
        const Long v = c->pv[p];
        for (sunindextype q = Ap[v]; q < Ap[v + 1]; ++q) {
          const Long i = Ai[q];
          if (rnew[i] < 0) continue;
          if (mark[i] < start) { /* a new entry of the column */
            if (pass) c->ri[nnz] = rnew[i], c->direct[nnz] = -1;
            mark[i] = nnz++;
          }
          if (pass) { /* in the order of the reduced rows (rowop counted in pass 0) */
            const Long o = rowop[rnew[i] + 1]++;
            c->opk[o] = mark[i], c->opsrc[o] = q, c->opq[o] = (int)p;
          } else
            ++rowcount[rnew[i]];
          ++nop;
        }
      }
    }
    if (!pass) {
      for (Long i = 0; i < n; ++i) mark[i] = -1;
      err = ALLOC(c->ri, nnz) || ALLOC(c->val, nnz) || ALLOC(c->direct, nnz) || ALLOC(c->opk, nop) ||
            ALLOC(c->opsrc, nop) || ALLOC(c->opq, nop) || ALLOC(c->opval, nop) || ALLOC(rowop, c->m + 1);
      if (!err) { /* rowop[k + 1]: where row k's products start; pass 1 advances it to their end */
        rowop[0] = rowop[1] = 0;
        for (Long k = 1; k < c->m; ++k) rowop[k + 1] = rowop[k] + rowcount[k - 1];
      }
    } else
      c->cp[c->m] = nnz;
  }
  c->nop = nop;
  free(vofx), free(vnext);
  if (!err) { /* the rows with products, for the solve */
    c->nopr = 0;
    for (Long k = 0; k < c->m; ++k) c->nopr += rowop[k + 1] > rowop[k];
    err = ALLOC(c->oprows, c->nopr) || ALLOC(c->opptr, c->nopr + 1);
    if (!err) {
      Long q = 0;
      c->opptr[0] = 0;
      for (Long k = 0; k < c->m; ++k)
        if (rowop[k + 1] > rowop[k]) c->oprows[q] = (int)k, c->opptr[++q] = rowop[k + 1];
    }
  }
done:
  free(rowcount), free(rowpair), free(colpair), free(mark), free(rnew);
  free(rowfill), free(rowcol), free(rowpos), free(rowop);
  return err;
}

SUNLinearSolver PlCondensedKLU(SUNMatrix A, const int *row, const int *vcol, int ncand, int *ncondensed,
                               SUNContext ctx)
{
  if (ncondensed) *ncondensed = 0;
  if (!A || SUNMatGetID(A) != SUNMATRIX_SPARSE || SUNSparseMatrix_SparseType(A) != CSC_MAT ||
      SUNSparseMatrix_Rows(A) != SUNSparseMatrix_Columns(A))
    return NULL;
  Content *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  c->n = SUNSparseMatrix_Rows(A);
  c->nnzA = SUNSparseMatrix_NNZ(A);
  c->afull = calloc((size_t)(c->nnzA + 1), sizeof(double));
  c->acur = calloc((size_t)(c->nnzA + 1), sizeof(double));
  if (!c->afull || !c->acur || !klu_l_defaults(&c->common) || Build(c, A, row, vcol, ncand)) {
    Free(c);
    return NULL;
  }
  c->common.ordering = 1; /* COLAMD, SUNDIALS' default */
  SUNLinearSolver S = SUNLinSolNewEmpty(ctx);
  if (!S) {
    Free(c);
    return NULL;
  }
  S->ops->gettype = GetType;
  S->ops->getid = GetID;
  S->ops->initialize = Initialize;
  S->ops->setup = Setup;
  S->ops->solve = Solve;
  S->ops->lastflag = LastFlag;
  S->ops->free = FreeSolver;
  S->content = c;
  if (ncondensed) *ncondensed = (int)c->np;
  return S;
}

/* The factors' state as the matrices that made them: KLU is deterministic, so factorising
 * afull and refactorising acur on its pivots gives the same numbers again. */
long PlCondensedKLUStateSize(SUNLinearSolver S) { return 2 + 2 * (long)CONTENT(S)->nnzA; }

void PlCondensedKLUStateSave(SUNLinearSolver S, double *buf)
{
  const Content *c = CONTENT(S);
  buf[0] = c->num != NULL;
  buf[1] = c->fresh;
  memcpy(buf + 2, c->afull, sizeof(double) * (size_t)c->nnzA);
  memcpy(buf + 2 + c->nnzA, c->acur, sizeof(double) * (size_t)c->nnzA);
}

int PlCondensedKLUStateRestore(SUNLinearSolver S, SUNMatrix A, const double *buf)
{
  Content *c = CONTENT(S);
  if (c->num) klu_l_free_numeric(&c->num, &c->common);
  if (buf[0] == 0.0) return 0; /* no factors yet */
  double *a = SUNSparseMatrix_Data(A);
  memcpy(a, buf + 2, sizeof(double) * (size_t)c->nnzA);
  if (Setup(S, A) != SUNLS_SUCCESS) return 1;
  memcpy(a, buf + 2 + c->nnzA, sizeof(double) * (size_t)c->nnzA);
  if (buf[1] == 0.0 && Setup(S, A) != SUNLS_SUCCESS) return 1;
  return 0;
}
