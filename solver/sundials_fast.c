/*
 * sundials_fast.c - compiled vector operations for SUNDIALS' serial N_Vector, and the sparse
 * matrix's zeroing.
 *
 * Why: Debian's SUNDIALS 6.4.1 (libsundials_ida.so.6.4.1, which carries the serial N_Vector)
 * is built without optimisation: its N_VWSqrSumMaskLocal_Serial keeps every operand on the
 * stack, 29 instructions per element, and IDA's vector work was 23 % of the instructions of
 * the 5.4.3 J-lay (callgrind, 100 nodes), its masked norm alone 7.4 % and 12.6 % of the time
 * at 740 nodes (perf). The operations are replaced here in the vector's own table of
 * operations (which N_VClone copies, so IDA's internal vectors carry them), compiled with the
 * project's flags.
 *
 * Contract: every operation computes what SUNDIALS' serial one computes, with the same
 * special cases (N_VLinearSum's a = +-1, a = +-b, N_VScale's c = +-1, the fused operations'
 * X[0] == z) and the reductions' order of summation, so every result is identical to the bit
 * (tests/test_nvector.c checks each against the library's own functions) and IDA takes the
 * same steps: the speed is the only change (the 5.4.3 J-lay's outputs are the same bytes).
 * Aliasing is that
 * of SUNDIALS: an output may be any input of the same element-wise operation; the fused
 * operations fall back to SUNDIALS' order of passes when z is one of the X[i], i > 0.
 * Operations IDA does not use keep the library's implementation. The one departure: the
 * weighted RMS norms of a vector whose context has a strain norm registered, taken with its
 * error weights, add the rods' element differences (PlStrainNorm, sundials_fast.h); every
 * other norm is the library's to the bit.
 *
 * The sparse matrix's SUNMatZero (called by IDA before every Jacobian evaluation, a loop over
 * the nonzeros at -O0: 1.8 % of the 740-node run) is replaced by a memset of its values: the
 * system's iteration matrix has one pattern, set at its creation, which the library's zeroing
 * (of the row indices and column pointers too) made its owner write back at every evaluation
 * (0.7 % of the 740-node run).
 */
#include <math.h>
#include <pthread.h>
#include <string.h>
#include "sundials_fast.h"

#define DATA(v) NV_DATA_S(v)
#define LEN(v) NV_LENGTH_S(v)

/* z = a x + b y (a, b general) */
static void Lin(sunindextype n, double a, const double *x, double b, const double *y, double *z)
{
  for (sunindextype i = 0; i < n; ++i) z[i] = a * x[i] + b * y[i];
}

static void LinearSum(realtype a, N_Vector x, realtype b, N_Vector y, N_Vector z)
{
  const sunindextype n = LEN(x);
  double *xd = DATA(x), *yd = DATA(y), *zd = DATA(z);
  if (b == 1.0 && z == y) { /* y += a x */
    if (a == 1.0) for (sunindextype i = 0; i < n; ++i) yd[i] += xd[i];
    else if (a == -1.0) for (sunindextype i = 0; i < n; ++i) yd[i] -= xd[i];
    else for (sunindextype i = 0; i < n; ++i) yd[i] += a * xd[i];
    return;
  }
  if (a == 1.0 && z == x) { /* x += b y */
    if (b == 1.0) for (sunindextype i = 0; i < n; ++i) xd[i] += yd[i];
    else if (b == -1.0) for (sunindextype i = 0; i < n; ++i) xd[i] -= yd[i];
    else for (sunindextype i = 0; i < n; ++i) xd[i] += b * yd[i];
    return;
  }
  if (a == 1.0 && b == 1.0) {
    for (sunindextype i = 0; i < n; ++i) zd[i] = xd[i] + yd[i];
    return;
  }
  if (a == 1.0 && b == -1.0) {
    for (sunindextype i = 0; i < n; ++i) zd[i] = xd[i] - yd[i];
    return;
  }
  if (a == -1.0 && b == 1.0) {
    for (sunindextype i = 0; i < n; ++i) zd[i] = yd[i] - xd[i];
    return;
  }
  if (a == 1.0 || b == 1.0) { /* z = c v1 + v2 */
    const double c = a == 1.0 ? b : a;
    const double *v1 = a == 1.0 ? yd : xd, *v2 = a == 1.0 ? xd : yd;
    for (sunindextype i = 0; i < n; ++i) zd[i] = c * v1[i] + v2[i];
    return;
  }
  if (a == -1.0 || b == -1.0) { /* z = c v1 - v2 */
    const double c = a == -1.0 ? b : a;
    const double *v1 = a == -1.0 ? yd : xd, *v2 = a == -1.0 ? xd : yd;
    for (sunindextype i = 0; i < n; ++i) zd[i] = c * v1[i] - v2[i];
    return;
  }
  if (a == b) {
    for (sunindextype i = 0; i < n; ++i) zd[i] = a * (xd[i] + yd[i]);
    return;
  }
  if (a == -b) {
    for (sunindextype i = 0; i < n; ++i) zd[i] = a * (xd[i] - yd[i]);
    return;
  }
  Lin(n, a, xd, b, yd, zd);
}

static void Const(realtype c, N_Vector z)
{
  double *zd = DATA(z);
  for (sunindextype i = 0, n = LEN(z); i < n; ++i) zd[i] = c;
}

static void Prod(N_Vector x, N_Vector y, N_Vector z)
{
  const double *xd = DATA(x), *yd = DATA(y);
  double *zd = DATA(z);
  for (sunindextype i = 0, n = LEN(x); i < n; ++i) zd[i] = xd[i] * yd[i];
}

static void Div(N_Vector x, N_Vector y, N_Vector z)
{
  const double *xd = DATA(x), *yd = DATA(y);
  double *zd = DATA(z);
  for (sunindextype i = 0, n = LEN(x); i < n; ++i) zd[i] = xd[i] / yd[i];
}

static void Scale(realtype c, N_Vector x, N_Vector z)
{
  const double *xd = DATA(x);
  double *zd = DATA(z);
  const sunindextype n = LEN(x);
  if (c == 1.0) {
    if (z != x)
      for (sunindextype i = 0; i < n; ++i) zd[i] = xd[i];
  } else if (c == -1.0)
    for (sunindextype i = 0; i < n; ++i) zd[i] = -xd[i];
  else
    for (sunindextype i = 0; i < n; ++i) zd[i] = c * xd[i];
}

static void Abs(N_Vector x, N_Vector z)
{
  const double *xd = DATA(x);
  double *zd = DATA(z);
  for (sunindextype i = 0, n = LEN(x); i < n; ++i) zd[i] = fabs(xd[i]);
}

static void Inv(N_Vector x, N_Vector z)
{
  const double *xd = DATA(x);
  double *zd = DATA(z);
  for (sunindextype i = 0, n = LEN(x); i < n; ++i) zd[i] = 1.0 / xd[i];
}

static void AddConst(N_Vector x, realtype b, N_Vector z)
{
  const double *xd = DATA(x);
  double *zd = DATA(z);
  for (sunindextype i = 0, n = LEN(x); i < n; ++i) zd[i] = xd[i] + b;
}

/* sum of (x w)^2 over the entries with id > 0 (id NULL: all), in SUNDIALS' order: one running
 * sum, so the result is the library's to the bit. (Four interleaved partial sums were no faster
 * once compiled, and their different last bits moved IDA's steps: a multiplier's interpolated
 * value at an output time, out of the error test, then moved by 2e-6 of itself.) */
static double WSqrSum(sunindextype n, const double *x, const double *w, const double *id)
{
  double s = 0.0;
  if (id) {
    for (sunindextype i = 0; i < n; ++i)
      if (id[i] > 0.0) {
        const double p = x[i] * w[i];
        s += p * p;
      }
  } else
    for (sunindextype i = 0; i < n; ++i) {
      const double p = x[i] * w[i];
      s += p * p;
    }
  return s;
}

static realtype WSqrSumLocal(N_Vector x, N_Vector w) { return WSqrSum(LEN(x), DATA(x), DATA(w), NULL); }

static realtype WSqrSumMaskLocal(N_Vector x, N_Vector w, N_Vector id)
{
  return WSqrSum(LEN(x), DATA(x), DATA(w), DATA(id));
}

/* The registered strain norms (PlStrainNorm): a few simulations at a time, one per thread at
 * most, so a short table under a lock. */
enum { kMaxStrainNorms = 64 };
static PlStrainNorm *g_norms[kMaxStrainNorms];
static pthread_mutex_t g_norms_lock = PTHREAD_MUTEX_INITIALIZER;

int PlStrainNormRegister(PlStrainNorm *sn)
{
  int ok = -1;
  pthread_mutex_lock(&g_norms_lock);
  for (int k = 0; k < kMaxStrainNorms && ok; ++k)
    if (!g_norms[k]) g_norms[k] = sn, ok = 0;
  pthread_mutex_unlock(&g_norms_lock);
  return ok;
}

void PlStrainNormUnregister(const PlStrainNorm *sn)
{
  pthread_mutex_lock(&g_norms_lock);
  for (int k = 0; k < kMaxStrainNorms; ++k)
    if (g_norms[k] == sn) g_norms[k] = NULL;
  pthread_mutex_unlock(&g_norms_lock);
}

/* The strain norm of x's context when w holds its error weights, else NULL. */
static const PlStrainNorm *StrainNormOf(N_Vector x, N_Vector w)
{
  const PlStrainNorm *sn = NULL;
  pthread_mutex_lock(&g_norms_lock);
  for (int k = 0; k < kMaxStrainNorms && !sn; ++k)
    if (g_norms[k] && g_norms[k]->ctx == x->sunctx && g_norms[k]->ewt == DATA(w)) sn = g_norms[k];
  pthread_mutex_unlock(&g_norms_lock);
  return sn;
}

/* sum over the elements of |(x_b - x_a) / tol|^2; with a mask id, a component whose unknown
 * at either end is out of the error test (id 0: a position an end holds at a given function of
 * time) is left out as that unknown is */
static double StrainSqrSum(const PlStrainNorm *sn, const double *x, const double *id)
{
  double s = 0.0;
  for (int k = 0; k < sn->npairs; ++k) {
    const int a = sn->a[k], b = sn->b[k];
    const double wi = sn->winv[k];
    for (int c = 0; c < 3; ++c) {
      if (id && (id[a + c] <= 0.0 || id[b + c] <= 0.0)) continue;
      const double p = (x[b + c] - x[a + c]) * wi;
      s += p * p;
    }
  }
  return s;
}

static realtype WrmsNorm(N_Vector x, N_Vector w)
{
  const PlStrainNorm *sn = StrainNormOf(x, w);
  if (!sn) return sqrt(WSqrSumLocal(x, w) / (double)LEN(x));
  return sqrt((WSqrSumLocal(x, w) + StrainSqrSum(sn, DATA(x), NULL)) / (double)(LEN(x) + 3 * sn->npairs));
}

static realtype WrmsNormMask(N_Vector x, N_Vector w, N_Vector id)
{
  const PlStrainNorm *sn = StrainNormOf(x, w);
  if (!sn) return sqrt(WSqrSumMaskLocal(x, w, id) / (double)LEN(x));
  return sqrt((WSqrSumMaskLocal(x, w, id) + StrainSqrSum(sn, DATA(x), DATA(id))) / (double)(LEN(x) + 3 * sn->npairs));
}

static realtype DotProd(N_Vector x, N_Vector y)
{
  const double *xd = DATA(x), *yd = DATA(y);
  double s = 0.0;
  for (sunindextype i = 0, n = LEN(x); i < n; ++i) s += xd[i] * yd[i];
  return s;
}

static realtype MaxNorm(N_Vector x)
{
  const double *xd = DATA(x);
  double m = 0.0;
  for (sunindextype i = 0, n = LEN(x); i < n; ++i) m = fabs(xd[i]) > m ? fabs(xd[i]) : m;
  return m;
}

static realtype Min(N_Vector x)
{
  const double *xd = DATA(x);
  double m = xd[0];
  for (sunindextype i = 1, n = LEN(x); i < n; ++i) m = xd[i] < m ? xd[i] : m;
  return m;
}

/* z = sum c[i] X[i], summed left to right per entry as SUNDIALS' passes do */
static int LinearCombination(int nv, realtype *c, N_Vector *X, N_Vector z)
{
  if (nv == 1) {
    Scale(c[0], X[0], z);
    return 0;
  }
  if (nv == 2) {
    LinearSum(c[0], X[0], c[1], X[1], z);
    return 0;
  }
  const sunindextype n = LEN(z);
  double *zd = DATA(z);
  int alias = 0;
  for (int k = 1; k < nv; ++k) alias |= X[k] == z;
  if (alias) { /* SUNDIALS' passes, one vector at a time */
    if (X[0] != z)
      for (sunindextype i = 0; i < n; ++i) zd[i] = c[0] * DATA(X[0])[i];
    else if (c[0] != 1.0)
      for (sunindextype i = 0; i < n; ++i) zd[i] *= c[0];
    for (int k = 1; k < nv; ++k) {
      const double *xd = DATA(X[k]), ck = c[k];
      for (sunindextype i = 0; i < n; ++i) zd[i] += ck * xd[i];
    }
    return 0;
  }
  const double *x0 = DATA(X[0]);
  const int scale0 = !(X[0] == z && c[0] == 1.0);
  /* one pass per up to four further vectors: z = (z or c0 x0) + c1 x1 + ... */
  int k = 1;
  if (nv >= 4) {
    const double *x1 = DATA(X[1]), *x2 = DATA(X[2]), *x3 = DATA(X[3]), c0 = c[0], c1 = c[1], c2 = c[2],
                 c3 = c[3];
    for (sunindextype i = 0; i < n; ++i) {
      double v = scale0 ? c0 * x0[i] : zd[i];
      v += c1 * x1[i];
      v += c2 * x2[i];
      zd[i] = v + c3 * x3[i];
    }
    k = 4;
  } else {
    const double *x1 = DATA(X[1]), *x2 = DATA(X[2]), c0 = c[0], c1 = c[1], c2 = c[2];
    for (sunindextype i = 0; i < n; ++i) {
      double v = scale0 ? c0 * x0[i] : zd[i];
      v += c1 * x1[i];
      zd[i] = v + c2 * x2[i];
    }
    k = 3;
  }
  for (; k < nv; ++k) {
    const double *xd = DATA(X[k]), ck = c[k];
    for (sunindextype i = 0; i < n; ++i) zd[i] += ck * xd[i];
  }
  return 0;
}

/* Z[i] = a[i] x + Y[i] */
static int ScaleAddMulti(int nv, realtype *a, N_Vector x, N_Vector *Y, N_Vector *Z)
{
  if (nv == 1) {
    LinearSum(a[0], x, 1.0, Y[0], Z[0]);
    return 0;
  }
  const double *xd = DATA(x);
  const sunindextype n = LEN(x);
  for (int k = 0; k < nv; ++k) {
    const double *yd = DATA(Y[k]), ak = a[k];
    double *zd = DATA(Z[k]);
    if (Y == Z)
      for (sunindextype i = 0; i < n; ++i) zd[i] += ak * xd[i];
    else
      for (sunindextype i = 0; i < n; ++i) zd[i] = ak * xd[i] + yd[i];
  }
  return 0;
}

static int LinearSumVectorArray(int nv, realtype a, N_Vector *X, realtype b, N_Vector *Y, N_Vector *Z)
{
  for (int k = 0; k < nv; ++k) LinearSum(a, X[k], b, Y[k], Z[k]);
  return 0;
}

static int ScaleVectorArray(int nv, realtype *c, N_Vector *X, N_Vector *Z)
{
  for (int k = 0; k < nv; ++k) Scale(c[k], X[k], Z[k]);
  return 0;
}

static int ConstVectorArray(int nv, realtype c, N_Vector *Z)
{
  for (int k = 0; k < nv; ++k) Const(c, Z[k]);
  return 0;
}

static int WrmsNormVectorArray(int nv, N_Vector *X, N_Vector *W, realtype *nrm)
{
  for (int k = 0; k < nv; ++k) nrm[k] = WrmsNorm(X[k], W[k]);
  return 0;
}

static int WrmsNormMaskVectorArray(int nv, N_Vector *X, N_Vector *W, N_Vector id, realtype *nrm)
{
  for (int k = 0; k < nv; ++k) nrm[k] = WrmsNormMask(X[k], W[k], id);
  return 0;
}

void PlVectorFastOps(N_Vector v)
{
  if (!v || N_VGetVectorID(v) != SUNDIALS_NVEC_SERIAL) return;
  N_Vector_Ops o = v->ops;
  o->nvlinearsum = LinearSum;
  o->nvconst = Const;
  o->nvprod = Prod;
  o->nvdiv = Div;
  o->nvscale = Scale;
  o->nvabs = Abs;
  o->nvinv = Inv;
  o->nvaddconst = AddConst;
  o->nvdotprod = DotProd;
  o->nvdotprodlocal = DotProd;
  o->nvmaxnorm = MaxNorm;
  o->nvmaxnormlocal = MaxNorm;
  o->nvmin = Min;
  o->nvminlocal = Min;
  o->nvwrmsnorm = WrmsNorm;
  o->nvwrmsnormmask = WrmsNormMask;
  o->nvwsqrsumlocal = WSqrSumLocal;
  o->nvwsqrsummasklocal = WSqrSumMaskLocal;
  o->nvlinearcombination = LinearCombination;
  o->nvscaleaddmulti = ScaleAddMulti;
  o->nvlinearsumvectorarray = LinearSumVectorArray;
  o->nvscalevectorarray = ScaleVectorArray;
  o->nvconstvectorarray = ConstVectorArray;
  o->nvwrmsnormvectorarray = WrmsNormVectorArray;
  o->nvwrmsnormmaskvectorarray = WrmsNormMaskVectorArray;
}

/* SUNMatZero for a matrix of fixed pattern: the values set to zero, the row indices and
 * column pointers kept (SUNMatZero_Sparse zeroes them too) */
static int SparseZero(SUNMatrix A)
{
  memset(SUNSparseMatrix_Data(A), 0, sizeof(realtype) * (size_t)SUNSparseMatrix_NNZ(A));
  return 0;
}

void PlSparseFastOps(SUNMatrix A)
{
  if (A && SUNMatGetID(A) == SUNMATRIX_SPARSE) A->ops->zero = SparseZero;
}
