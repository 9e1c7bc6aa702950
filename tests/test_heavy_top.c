/*
 * test_heavy_top.c - the heavy top of Saefstroem §2.4.2 as a rigid body on a spherical joint
 * to the ground (solver/multibody.c: GGL index-2 form, IDA with the multipliers out of the
 * error test), against invariants and a reference of a different method.
 *
 * The top: inertia about the fixed point I = diag(1000, 5000, 6000) kg m^2, centre of mass
 * at u0 = (0, 0, 1) m from the fixed point (body frame, = global at t = 0), m g = 1 N
 * (m = 1 kg, the weight (0, 0, -1) N at the centre of mass: the thesis' normalised
 * potential V = e3^T Q u0), omega0 = (10, 10, 10) rad/s in the body frame. The body's origin
 * is the centre of mass, so its inertia there is I - m (|u0|^2 1 - u0 u0^T) =
 * diag(999, 4999, 6000); the joint point is p_a = -u0.
 *
 * IDA at rtol 1e-11 (atol 1e-11 on the body's unknowns; 1 N on the multipliers, which
 * only sets how far Newton converges them: they are out of the error test, and with a
 * tighter value Newton stalls at round-off as h shrinks, their updates scaling with 1/h).
 * Checked over 100 s (1 000 output times; measured: 925 000 steps, 25 s):
 *   1. the energy (kinetic 6e5 J + potential) stays within 1e-6 of the kinetic energy
 *      (measured 9.4e-8);
 *   2. the vertical angular momentum about the fixed point (gravity's moment about the fixed
 *      point is horizontal) stays within 1e-6 of |L| (measured 5.0e-8);
 *   3. the joint stays assembled: |g| <= 1e-9 m (3e-11);
 *   4. the centre of mass follows the reference path within 1e-6 m over the first 10 s
 *      (3.1e-7) and 1e-4 m over 100 s (3.2e-5: BDF's phase error over 160 turns; a 1e-6
 *      path over 100 s needs a tighter tolerance than IDA's round-off allows here, or a
 *      Lie-group integrator). The reference integrates
 *      the top's own equations about the fixed point, I w' = (I w) x w + u0 x R^T (0, 0, -m g),
 *      q' = q (0, w)/2, with classical RK4 at h = 5e-4, 2.5e-4 and 1.25e-4 s; the test shows
 *      its convergence (the differences between successive halvings fall by 16 or more:
 *      fourth order; measured 23) and uses the finest, whose error is about 1e-10 m.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include "pipelay/solver.h"
#include "check.h"

static const double kI[3] = {1000.0, 5000.0, 6000.0}, kW0[3] = {10.0, 10.0, 10.0};
static const double kT = 100.0, kDt = 0.1, kRtol = 1e-11;

/* ---- the reference: the top about its fixed point, RK4 ------------------------------------ */
typedef struct {
  double q[4], w[3];
} Top;

static void QMul(const double a[4], const double b[4], double c[4])
{
  c[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  c[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  c[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  c[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
}

static void Rate(const Top *s, Top *d)
{
  double R[9], qn[4], n = 0.0;
  for (int i = 0; i < 4; ++i) n += s->q[i] * s->q[i];
  for (int i = 0; i < 4; ++i) qn[i] = s->q[i] / sqrt(n);
  PlQuatToMatrix(qn, R);
  const double Fb[3] = {-R[6], -R[7], -R[8]}; /* R^T (0, 0, -1) */
  const double u[3] = {0, 0, 1};
  const double tau[3] = {u[1] * Fb[2] - u[2] * Fb[1], u[2] * Fb[0] - u[0] * Fb[2], u[0] * Fb[1] - u[1] * Fb[0]};
  const double Iw[3] = {kI[0] * s->w[0], kI[1] * s->w[1], kI[2] * s->w[2]};
  const double c[3] = {Iw[1] * s->w[2] - Iw[2] * s->w[1], Iw[2] * s->w[0] - Iw[0] * s->w[2], Iw[0] * s->w[1] - Iw[1] * s->w[0]};
  for (int i = 0; i < 3; ++i) d->w[i] = (c[i] + tau[i]) / kI[i];
  const double wq[4] = {0, 0.5 * s->w[0], 0.5 * s->w[1], 0.5 * s->w[2]};
  QMul(s->q, wq, d->q);
}

static void Axpy(const Top *a, double h, const Top *b, Top *out)
{
  for (int i = 0; i < 4; ++i) out->q[i] = a->q[i] + h * b->q[i];
  for (int i = 0; i < 3; ++i) out->w[i] = a->w[i] + h * b->w[i];
}

/* the centre of mass R u0 at the output times 0, kDt, ..., kT (n + 1 of them) */
static void Reference(double h, double (*x)[3], int n)
{
  Top s = {{1, 0, 0, 0}, {kW0[0], kW0[1], kW0[2]}};
  const int per = (int)lround(kDt / h);
  for (int k = 0; k <= n; ++k) {
    double R[9];
    PlQuatToMatrix(s.q, R);
    for (int i = 0; i < 3; ++i) x[k][i] = R[3 * i + 2];
    for (int step = 0; k < n && step < per; ++step) {
      Top k1, k2, k3, k4, t;
      Rate(&s, &k1);
      Axpy(&s, 0.5 * h, &k1, &t);
      Rate(&t, &k2);
      Axpy(&s, 0.5 * h, &k2, &t);
      Rate(&t, &k3);
      Axpy(&s, h, &k3, &t);
      Rate(&t, &k4);
      for (int i = 0; i < 4; ++i) s.q[i] += h / 6 * (k1.q[i] + 2 * k2.q[i] + 2 * k3.q[i] + k4.q[i]);
      for (int i = 0; i < 3; ++i) s.w[i] += h / 6 * (k1.w[i] + 2 * k2.w[i] + 2 * k3.w[i] + k4.w[i]);
    }
  }
}

static double MaxDiff(double (*a)[3], double (*b)[3], int n)
{
  double d = 0.0;
  for (int k = 0; k <= n; ++k)
    for (int i = 0; i < 3; ++i) d = fmax(d, fabs(a[k][i] - b[k][i]));
  return d;
}

/* ---- pipelay's multibody residual through IDA -------------------------------------------- */
static int Res(realtype t, N_Vector y, N_Vector yp, N_Vector r, void *ctx)
{
  return PlMultibodyResidual((const PlMultibody *)ctx, t, N_VGetArrayPointer(y), N_VGetArrayPointer(yp),
                             N_VGetArrayPointer(r)) ? 1 : 0;
}

/* the exact iteration matrix (column-major for SUNDIALS' dense matrix) */
static int Jac(realtype t, realtype c, N_Vector y, N_Vector yp, N_Vector r, SUNMatrix A, void *ctx, N_Vector t1,
               N_Vector t2, N_Vector t3)
{
  (void)r, (void)t1, (void)t2, (void)t3;
  const PlMultibody *mb = ctx;
  const int n = PlMultibodySize(mb);
  double *F = malloc(sizeof(double) * n), *J = malloc(sizeof(double) * n * n);
  int bad = !F || !J || PlMultibodyEvaluate(mb, t, N_VGetArrayPointer(y), N_VGetArrayPointer(yp), c, F, J);
  for (int i = 0; !bad && i < n; ++i)
    for (int k = 0; k < n; ++k) SM_ELEMENT_D(A, i, k) = J[(size_t)i * n + k];
  free(F);
  free(J);
  return bad ? -1 : 0;
}

int main(void)
{
  const int n = (int)lround(kT / kDt);
  double(*ref)[3] = malloc(sizeof *ref * (size_t)(n + 1)), (*r2)[3] = malloc(sizeof *r2 * (size_t)(n + 1)),
  (*r4)[3] = malloc(sizeof *r4 * (size_t)(n + 1));
  Reference(5e-4, ref, n);
  Reference(2.5e-4, r2, n);
  Reference(1.25e-4, r4, n);
  const double d1 = MaxDiff(ref, r2, n), d2 = MaxDiff(r2, r4, n), rich = d2 / 15.0;
  printf("reference (RK4): |x(h) - x(h/2)| = %.3e m, |x(h/2) - x(h/4)| = %.3e m, ratio %.1f (16: fourth order); "
         "error of the finest about %.1e m\n", d1, d2, d1 / d2, rich);
  CHECK_TRUE(d1 / d2 > 12.0 && d1 / d2 < 40.0, "the reference converges at fourth order or faster");
  CHECK_TRUE(rich < 1e-8, "the reference is accurate to 1e-8 m");

  PlVessel V;
  PlVesselInit(&V);
  const double Ig[9] = {kI[0] - 1.0, 0, 0, 0, kI[1] - 1.0, 0, 0, 0, kI[2]}, rg[3] = {0, 0, 0};
  PlVesselRigidBodyMass(1.0, rg, Ig, V.MRB);
  V.norm_rate = 1e3; /* a body spinning at 17 rad/s (vessel.c) */
  const double weight[1][6] = {{0, 0, -1.0, 0, 0, 0}};
  PlMultibodyJoint J = {.joint = {.kind = PL_JOINT_SPHERICAL, .pa = {0, 0, -1}, .pb = {0, 0, 0},
                                  .Fa = {1, 0, 0, 0, 1, 0, 0, 0, 1}, .Fb = {1, 0, 0, 0, 1, 0, 0, 0, 1}},
                        .body = {0, -1}};
  PlMultibody mb = {.nbodies = 1, .njoints = 1, .bodies = &V, .load_global = weight, .joints = &J};
  const int N = PlMultibodySize(&mb);
  SUNContext ctx;
  CHECK_TRUE(SUNContext_Create(NULL, &ctx) == 0, "SUNDIALS context");
  N_Vector y = N_VNew_Serial(N, ctx), yp = N_VNew_Serial(N, ctx), id = N_VNew_Serial(N, ctx);
  double *Y = N_VGetArrayPointer(y), *YP = N_VGetArrayPointer(yp);
  memset(Y, 0, sizeof(double) * N);
  memset(YP, 0, sizeof(double) * N);
  Y[2] = 1.0;                 /* r: the centre of mass above the fixed point */
  Y[PL_VESSEL_Q] = 1.0;       /* q = 1 */
  const double pa[3] = {0, 0, -1};
  for (int i = 0; i < 3; ++i) Y[PL_VESSEL_W + i] = kW0[i];
  /* v = -(w x p_a): the joint point at rest */
  Y[PL_VESSEL_V + 0] = -(kW0[1] * pa[2] - kW0[2] * pa[1]);
  Y[PL_VESSEL_V + 1] = -(kW0[2] * pa[0] - kW0[0] * pa[2]);
  Y[PL_VESSEL_V + 2] = -(kW0[0] * pa[1] - kW0[1] * pa[0]);
  /* kinematic rates; the accelerations and multipliers from IDACalcIC */
  for (int i = 0; i < 3; ++i) YP[i] = Y[PL_VESSEL_V + i];
  for (int i = 0; i < 3; ++i) YP[PL_VESSEL_Q + 1 + i] = 0.5 * kW0[i];
  PlMultibodyIds(&mb, N_VGetArrayPointer(id));
  /* the multipliers are out of the error test; their absolute tolerance only sets how far
   * Newton converges them (index 2: their updates scale with 1/h) */
  N_Vector atol = N_VNew_Serial(N, ctx);
  for (int k = 0; k < N; ++k)
    N_VGetArrayPointer(atol)[k] = k < PL_VESSEL_NY ? kRtol : 1.0; /* [m, -, m/s, rad/s]; multipliers [N] */
  void *ida = IDACreate(ctx);
  SUNMatrix A = SUNDenseMatrix(N, N, ctx);
  SUNLinearSolver LS = SUNLinSol_Dense(y, A, ctx);
  int bad = IDAInit(ida, Res, 0.0, y, yp) || IDASVtolerances(ida, kRtol, atol) || IDASetUserData(ida, &mb) ||
            IDASetLinearSolver(ida, LS, A) || IDASetJacFn(ida, Jac) || IDASetId(ida, id) || IDASetSuppressAlg(ida, SUNTRUE) ||
            IDASetMaxNumSteps(ida, 10000000) || IDASetStopTime(ida, kT) || IDASetInitStep(ida, 1e-4);
  CHECK_TRUE(!bad, "IDA set up");
  bad = IDACalcIC(ida, IDA_YA_YDP_INIT, kDt);
  CHECK_TRUE(bad == 0, "consistent initial accelerations and multipliers (IDACalcIC)");
  IDAGetConsistentIC(ida, y, yp);
  const double E0 = PlVesselKineticEnergy(&V, Y) + Y[2];
  double L0[3], R[9];
  /* angular momentum about the fixed point: m x_c x v_c + R I_g w */
  #define ANGMOM(L)                                                                                          \
    do {                                                                                                     \
      PlQuatToMatrix(Y + PL_VESSEL_Q, R);                                                                    \
      double vc[3], Iw[3] = {Ig[0] * Y[PL_VESSEL_W], Ig[4] * Y[PL_VESSEL_W + 1], Ig[8] * Y[PL_VESSEL_W + 2]}; \
      for (int i = 0; i < 3; ++i)                                                                            \
        vc[i] = R[3 * i] * Y[PL_VESSEL_V] + R[3 * i + 1] * Y[PL_VESSEL_V + 1] + R[3 * i + 2] * Y[PL_VESSEL_V + 2]; \
      (L)[0] = Y[1] * vc[2] - Y[2] * vc[1], (L)[1] = Y[2] * vc[0] - Y[0] * vc[2], (L)[2] = Y[0] * vc[1] - Y[1] * vc[0]; \
      for (int i = 0; i < 3; ++i) (L)[i] += R[3 * i] * Iw[0] + R[3 * i + 1] * Iw[1] + R[3 * i + 2] * Iw[2];  \
    } while (0)
  ANGMOM(L0);
  const double Lnorm = sqrt(L0[0] * L0[0] + L0[1] * L0[1] + L0[2] * L0[2]);
  double dE = 0.0, dL = 0.0, gmax = 0.0, dx = 0.0, dx10 = 0.0;
  for (int k = 1; k <= n && !bad; ++k) {
    realtype tret;
    bad = IDASolve(ida, k * kDt, &tret, y, yp, IDA_NORMAL) < 0;
    dE = fmax(dE, fabs(PlVesselKineticEnergy(&V, Y) + Y[2] - E0));
    double L[3];
    ANGMOM(L);
    dL = fmax(dL, fabs(L[2] - L0[2]));
    double x_joint[3];
    for (int i = 0; i < 3; ++i) x_joint[i] = Y[i] - R[3 * i + 2];
    gmax = fmax(gmax, sqrt(x_joint[0] * x_joint[0] + x_joint[1] * x_joint[1] + x_joint[2] * x_joint[2]));
    for (int i = 0; i < 3; ++i) dx = fmax(dx, fabs(Y[i] - r4[k][i]));
    if (k * kDt <= 10.0 + 1e-9)
      for (int i = 0; i < 3; ++i) dx10 = fmax(dx10, fabs(Y[i] - r4[k][i]));
  }
  long nst = 0;
  IDAGetNumSteps(ida, &nst);
  CHECK_TRUE(!bad, "IDA integrated the 100 s");
  const double K0 = PlVesselKineticEnergy(&V, Y);
  printf("IDA, %ld steps over %.0f s: energy drift %.2e J of %.4e J; vertical angular momentum drift %.2e of |L| %.4e; "
         "joint gap %.1e m; centre of mass against the reference %.2e m (over the first 10 s %.2e m)\n", nst, kT, dE, K0,
         dL, Lnorm, gmax, dx, dx10);
  CHECK_ABS(dE / K0, 0.0, 1e-6, "energy conserved to 1e-6 of the kinetic energy over 100 s");
  CHECK_ABS(dL / Lnorm, 0.0, 1e-6, "vertical angular momentum about the fixed point conserved to 1e-6 of |L|");
  CHECK_ABS(gmax, 0.0, 1e-9, "the spherical joint stays assembled (1e-9 m)");
  CHECK_ABS(dx10, 0.0, 1e-6, "the centre of mass follows the reference within 1e-6 m over the first 10 s");
  CHECK_ABS(dx, 0.0, 1e-4, "and within 1e-4 m over 100 s (160 turns)");
  IDAFree(&ida);
  SUNLinSolFree(LS);
  SUNMatDestroy(A);
  N_VDestroy(y);
  N_VDestroy(yp);
  N_VDestroy(id);
  N_VDestroy(atol);
  SUNContext_Free(&ctx);
  free(ref);
  free(r2);
  free(r4);
  return CHECK_DONE();
}
