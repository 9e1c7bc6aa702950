/*
 * test_nvector.c - the compiled serial vector operations (solver/sundials_fast.c) against
 * SUNDIALS' own serial ones, called directly as the reference.
 *
 * Every operation (N_VLinearSum in each of its special cases and aliasings, N_VScale, the
 * fused and vector-array operations, the weighted RMS norms, masked and not, the dot product,
 * the rest) must equal the library's to the bit: IDA's steps then cannot tell the two apart.
 * Vectors cloned from one with the operations carry them. The sparse matrix's compiled
 * SUNMatZero leaves its values as the library's does and keeps its pattern.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../solver/sundials_fast.h"
#include "check.h"

enum { N = 1003 }; /* not a multiple of the four partial sums */

static unsigned long long seed = 88172645463325252ull;

static double Rand(void) /* in [-1, 1), magnitudes over six decades */
{
  seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
  const double u = (double)(seed >> 11) / 9007199254740992.0;
  seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
  const double e = (double)(seed >> 11) / 9007199254740992.0;
  return (2.0 * u - 1.0) * pow(10.0, 3.0 - 6.0 * e);
}

static void Fill(N_Vector v)
{
  double *d = N_VGetArrayPointer(v);
  for (int i = 0; i < N; ++i) d[i] = Rand();
}

static int Same(N_Vector a, N_Vector b) { return !memcmp(N_VGetArrayPointer(a), N_VGetArrayPointer(b), sizeof(double) * N); }

typedef struct {
  N_Vector x[6], r[6]; /* fast copies and reference copies of the same data */
} Pair;

static void Copy(N_Vector from, N_Vector to) { memcpy(N_VGetArrayPointer(to), N_VGetArrayPointer(from), sizeof(double) * N); }

/* fresh random data in both sets */
static void Refill(Pair *p)
{
  for (int k = 0; k < 6; ++k) {
    Fill(p->x[k]);
    Copy(p->x[k], p->r[k]);
  }
}

static void TestLinearSum(Pair *p)
{
  const double c = 0.37, d = -2.9;
  const double ab[][2] = {{1, 1}, {1, -1}, {-1, 1}, {1, c}, {c, 1}, {-1, c}, {c, -1}, {c, c}, {c, -c}, {c, d}, {0, c}, {-1, -1}};
  for (size_t k = 0; k < sizeof ab / sizeof ab[0]; ++k)
    for (int alias = 0; alias < 3; ++alias) { /* z distinct, z = x, z = y */
      Refill(p);
      N_Vector zx = alias == 1 ? p->x[0] : alias == 2 ? p->x[1] : p->x[2];
      N_Vector zr = alias == 1 ? p->r[0] : alias == 2 ? p->r[1] : p->r[2];
      N_VLinearSum(ab[k][0], p->x[0], ab[k][1], p->x[1], zx);
      N_VLinearSum_Serial(ab[k][0], p->r[0], ab[k][1], p->r[1], zr);
      char what[96];
      snprintf(what, sizeof what, "N_VLinearSum a=%g b=%g alias %d bitwise", ab[k][0], ab[k][1], alias);
      CHECK_TRUE(Same(zx, zr), what);
    }
}

static void TestElementwise(Pair *p)
{
  const double cs[] = {1.0, -1.0, 0.61};
  for (int k = 0; k < 3; ++k)
    for (int alias = 0; alias < 2; ++alias) {
      Refill(p);
      N_Vector zx = alias ? p->x[0] : p->x[1], zr = alias ? p->r[0] : p->r[1];
      N_VScale(cs[k], p->x[0], zx);
      N_VScale_Serial(cs[k], p->r[0], zr);
      CHECK_TRUE(Same(zx, zr), "N_VScale bitwise");
    }
  Refill(p);
  N_VProd(p->x[0], p->x[1], p->x[2]), N_VProd_Serial(p->r[0], p->r[1], p->r[2]);
  CHECK_TRUE(Same(p->x[2], p->r[2]), "N_VProd bitwise");
  N_VDiv(p->x[0], p->x[1], p->x[3]), N_VDiv_Serial(p->r[0], p->r[1], p->r[3]);
  CHECK_TRUE(Same(p->x[3], p->r[3]), "N_VDiv bitwise");
  N_VAbs(p->x[0], p->x[4]), N_VAbs_Serial(p->r[0], p->r[4]);
  CHECK_TRUE(Same(p->x[4], p->r[4]), "N_VAbs bitwise");
  N_VInv(p->x[1], p->x[5]), N_VInv_Serial(p->r[1], p->r[5]);
  CHECK_TRUE(Same(p->x[5], p->r[5]), "N_VInv bitwise");
  N_VAddConst(p->x[0], 0.3, p->x[0]), N_VAddConst_Serial(p->r[0], 0.3, p->r[0]);
  CHECK_TRUE(Same(p->x[0], p->r[0]), "N_VAddConst bitwise");
  N_VConst(-4.5, p->x[1]), N_VConst_Serial(-4.5, p->r[1]);
  CHECK_TRUE(Same(p->x[1], p->r[1]), "N_VConst bitwise");
  Refill(p);
  CHECK_TRUE(N_VMin(p->x[0]) == N_VMin_Serial(p->r[0]), "N_VMin exact");
  CHECK_TRUE(N_VMaxNorm(p->x[0]) == N_VMaxNorm_Serial(p->r[0]), "N_VMaxNorm exact");
}

static void TestReductions(Pair *p)
{
  Refill(p);
  double *id = N_VGetArrayPointer(p->x[2]);
  for (int i = 0; i < N; ++i) id[i] = i % 7 == 3 ? 0.0 : i % 11 == 5 ? -1.0 : 1.0;
  Copy(p->x[2], p->r[2]);
  N_VAbs(p->x[1], p->x[1]), N_VAbs_Serial(p->r[1], p->r[1]); /* weights */
  CHECK_REL(N_VWrmsNorm(p->x[0], p->x[1]), N_VWrmsNorm_Serial(p->r[0], p->r[1]), 0.0, "N_VWrmsNorm");
  CHECK_REL(N_VWrmsNormMask(p->x[0], p->x[1], p->x[2]), N_VWrmsNormMask_Serial(p->r[0], p->r[1], p->r[2]), 0.0,
            "N_VWrmsNormMask");
  CHECK_REL(N_VDotProd(p->x[0], p->x[1]), N_VDotProd_Serial(p->r[0], p->r[1]), 0.0, "N_VDotProd");
  /* the mask matters: the masked norm differs from the plain one by far more than rounding */
  CHECK_TRUE(fabs(N_VWrmsNormMask(p->x[0], p->x[1], p->x[2]) / N_VWrmsNorm(p->x[0], p->x[1]) - 1.0) > 1e-4,
             "the mask removes terms");
  N_Vector X[3] = {p->x[0], p->x[3], p->x[4]}, W[3] = {p->x[1], p->x[1], p->x[5]};
  N_Vector XR[3] = {p->r[0], p->r[3], p->r[4]}, WR[3] = {p->r[1], p->r[1], p->r[5]};
  double n[3], nr[3];
  N_VWrmsNormVectorArray(3, X, W, n), N_VWrmsNormVectorArray_Serial(3, XR, WR, nr);
  for (int k = 0; k < 3; ++k) CHECK_REL(n[k], nr[k], 0.0, "N_VWrmsNormVectorArray");
  N_VWrmsNormMaskVectorArray(3, X, W, p->x[2], n), N_VWrmsNormMaskVectorArray_Serial(3, XR, WR, p->r[2], nr);
  for (int k = 0; k < 3; ++k) CHECK_REL(n[k], nr[k], 0.0, "N_VWrmsNormMaskVectorArray");
}

static void TestFused(Pair *p)
{
  double c[6] = {1.0, -0.5, 0.25, 1.75, -3.0, 0.125};
  for (int nv = 1; nv <= 5; ++nv)
    for (int alias = 0; alias < 4; ++alias) { /* z distinct; z = X[0] with c0 = 1; with c0 != 1; z = X[2] */
      if (alias == 3 && nv < 3) continue;
      Refill(p);
      c[0] = alias == 2 ? 0.8 : 1.0;
      N_Vector X[5], XR[5];
      for (int k = 0; k < nv; ++k) X[k] = p->x[k], XR[k] = p->r[k];
      N_Vector z = alias == 0 ? p->x[5] : alias == 3 ? p->x[2] : p->x[0];
      N_Vector zr = alias == 0 ? p->r[5] : alias == 3 ? p->r[2] : p->r[0];
      N_VLinearCombination(nv, c, X, z);
      N_VLinearCombination_Serial(nv, c, XR, zr);
      char what[96];
      snprintf(what, sizeof what, "N_VLinearCombination nv=%d alias %d bitwise", nv, alias);
      CHECK_TRUE(Same(z, zr), what);
    }
  for (int nv = 1; nv <= 3; ++nv)
    for (int same = 0; same < 2; ++same) {
      Refill(p);
      N_Vector Y[3] = {p->x[1], p->x[2], p->x[3]}, Z[3] = {p->x[4], p->x[5], p->x[0]};
      N_Vector YR[3] = {p->r[1], p->r[2], p->r[3]}, ZR[3] = {p->r[4], p->r[5], p->r[0]};
      N_VScaleAddMulti(nv, c + 1, p->x[0], Y, same ? Y : Z);
      N_VScaleAddMulti_Serial(nv, c + 1, p->r[0], YR, same ? YR : ZR);
      for (int k = 0; k < nv; ++k) CHECK_TRUE(Same(same ? Y[k] : Z[k], same ? YR[k] : ZR[k]), "N_VScaleAddMulti bitwise");
    }
  Refill(p);
  N_Vector X[2] = {p->x[0], p->x[1]}, Y[2] = {p->x[2], p->x[3]}, Z[2] = {p->x[4], p->x[5]};
  N_Vector XR[2] = {p->r[0], p->r[1]}, YR[2] = {p->r[2], p->r[3]}, ZR[2] = {p->r[4], p->r[5]};
  N_VLinearSumVectorArray(2, 0.3, X, -1.2, Y, Z), N_VLinearSumVectorArray_Serial(2, 0.3, XR, -1.2, YR, ZR);
  CHECK_TRUE(Same(Z[0], ZR[0]) && Same(Z[1], ZR[1]), "N_VLinearSumVectorArray bitwise");
  N_VScaleVectorArray(2, c + 2, X, Z), N_VScaleVectorArray_Serial(2, c + 2, XR, ZR);
  CHECK_TRUE(Same(Z[0], ZR[0]) && Same(Z[1], ZR[1]), "N_VScaleVectorArray bitwise");
  N_VConstVectorArray(2, 2.5, Z), N_VConstVectorArray_Serial(2, 2.5, ZR);
  CHECK_TRUE(Same(Z[0], ZR[0]) && Same(Z[1], ZR[1]), "N_VConstVectorArray bitwise");
}

static void TestSparseZero(SUNContext ctx)
{
  SUNMatrix A = SUNSparseMatrix(40, 40, 120, CSC_MAT, ctx), B = SUNSparseMatrix(40, 40, 120, CSC_MAT, ctx);
  PlSparseFastOps(A);
  for (SUNMatrix M = A;; M = B) {
    for (sunindextype k = 0; k < 120; ++k) SUNSparseMatrix_Data(M)[k] = Rand(), SUNSparseMatrix_IndexValues(M)[k] = k % 40;
    for (sunindextype k = 0; k <= 40; ++k) SUNSparseMatrix_IndexPointers(M)[k] = 3 * k;
    if (M == B) break;
  }
  CHECK_TRUE(A->ops->zero != B->ops->zero, "the sparse matrix carries the compiled zeroing");
  SUNMatZero(A), SUNMatZero_Sparse(B);
  int kept = 1;
  for (sunindextype k = 0; k < 120; ++k) kept &= SUNSparseMatrix_IndexValues(A)[k] == k % 40;
  for (sunindextype k = 0; k <= 40; ++k) kept &= SUNSparseMatrix_IndexPointers(A)[k] == 3 * k;
  CHECK_TRUE(!memcmp(SUNSparseMatrix_Data(A), SUNSparseMatrix_Data(B), 120 * sizeof(double)) && kept,
             "SUNMatZero: the values as the library's, the pattern kept");
  SUNMatDestroy(A), SUNMatDestroy(B);
}

int main(void)
{
  SUNContext ctx = NULL;
  if (SUNContext_Create(NULL, &ctx)) return EXIT_FAILURE;
  N_Vector proto = N_VNew_Serial(N, ctx);
  PlVectorFastOps(proto);
  Pair p;
  for (int k = 0; k < 6; ++k) {
    p.x[k] = N_VClone(proto); /* the clones carry the compiled operations */
    p.r[k] = N_VNew_Serial(N, ctx);
  }
  CHECK_TRUE(p.x[3]->ops->nvwrmsnormmask == proto->ops->nvwrmsnormmask &&
               p.x[3]->ops->nvwrmsnormmask != p.r[3]->ops->nvwrmsnormmask,
             "a clone carries the compiled operations");
  TestLinearSum(&p);
  TestElementwise(&p);
  TestReductions(&p);
  TestFused(&p);
  TestSparseZero(ctx);
  for (int k = 0; k < 6; ++k) N_VDestroy(p.x[k]), N_VDestroy(p.r[k]);
  N_VDestroy(proto);
  SUNContext_Free(&ctx);
  if (!pl_check_failures) printf("nvector: all compiled operations agree with SUNDIALS' serial ones\n");
  return CHECK_DONE();
}
