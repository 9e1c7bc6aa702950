/*
 * test_multibody.c - the iteration matrix of bodies joined by joints (solver/multibody.c)
 * against central differences of its residual: two bodies with mass, added mass, damping,
 * restoring and a spring, a revolute joint between them, a spherical joint of the first to
 * the ground and a prismatic one of the second to the ground, at a random state with
 * nonzero multipliers lambda and mu (so that every block is exercised, the projection's
 * too), for dF/dy + c dF/dy' at c = 0 and c = 37. Passes when the largest difference is
 * below 1e-6 of the largest entry of its row.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pipelay/solver.h"
#include "check.h"

static double Rand(unsigned *s)
{
  *s = *s * 1103515245u + 12345u;
  return ((*s >> 8) & 0xffff) / 65535.0 * 2.0 - 1.0;
}

static void Body(unsigned *s, PlVessel *V)
{
  PlVesselInit(V);
  const double Ig[9] = {300, 10, 0, 10, 500, 20, 0, 20, 600}, rg[3] = {0.1, -0.2, 0.3};
  PlVesselRigidBodyMass(50.0 + 10 * Rand(s), rg, Ig, V->MRB);
  for (int i = 0; i < 6; ++i) {
    V->MA[7 * i] = 10.0 + Rand(s);
    V->Dp[7 * i] = 5.0 + Rand(s);
    V->Dq[i] = 2.0 + Rand(s);
  }
  V->Awp = 3.0, V->GM_T = 1.0, V->GM_L = 2.0, V->displacement = 40.0, V->z_eq = -1.0;
  V->K_spring[0] = V->K_spring[4] = V->K_spring[8] = 100.0;
}

static void Frame(unsigned *s, double F[9])
{
  double q[4], n = 0.0;
  for (int i = 0; i < 4; ++i) {
    q[i] = Rand(s);
    n += q[i] * q[i];
  }
  for (int i = 0; i < 4; ++i) q[i] /= sqrt(n);
  PlQuatToMatrix(q, F);
}

int main(void)
{
  unsigned s = 2024u;
  PlVessel V[2];
  Body(&s, &V[0]);
  Body(&s, &V[1]);
  PlMultibodyJoint jt[3];
  const PlJointKind kinds[3] = {PL_JOINT_REVOLUTE, PL_JOINT_SPHERICAL, PL_JOINT_PRISMATIC};
  const int pair[3][2] = {{0, 1}, {0, -1}, {1, -1}};
  for (int j = 0; j < 3; ++j) {
    jt[j].joint.kind = kinds[j];
    for (int i = 0; i < 3; ++i) jt[j].joint.pa[i] = Rand(&s), jt[j].joint.pb[i] = Rand(&s);
    Frame(&s, jt[j].joint.Fa);
    Frame(&s, jt[j].joint.Fb);
    jt[j].body[0] = pair[j][0], jt[j].body[1] = pair[j][1];
  }
  const double load[2][6] = {{0, 0, -500, 10, 0, 0}, {20, 0, -400, 0, 5, 0}};
  PlMultibody mb = {.nbodies = 2, .njoints = 3, .bodies = V, .load_global = load, .joints = jt};
  const int n = PlMultibodySize(&mb);
  CHECK_TRUE(n == 26 + 2 * (5 + 3 + 5), "unknowns: 13 per body, 2 m per joint");
  double *y = malloc(sizeof(double) * n), *yp = malloc(sizeof(double) * n), *F = malloc(sizeof(double) * n),
         *Fp = malloc(sizeof(double) * n), *Fm = malloc(sizeof(double) * n), *J = malloc(sizeof(double) * n * n);
  for (int k = 0; k < n; ++k) y[k] = Rand(&s), yp[k] = Rand(&s);
  for (int b = 0; b < 2; ++b) { /* quaternions near unit, not exactly */
    double nq = 0.0;
    for (int i = 0; i < 4; ++i) nq += y[13 * b + 3 + i] * y[13 * b + 3 + i];
    for (int i = 0; i < 4; ++i) y[13 * b + 3 + i] *= 1.01 / sqrt(nq);
  }
  for (int k = 26; k < n; ++k) y[k] *= 100.0; /* multipliers of force size, mu nonzero */
  const double cs[2] = {0.0, 37.0};
  for (int ic = 0; ic < 2; ++ic) {
    const double c = cs[ic];
    CHECK_TRUE(PlMultibodyEvaluate(&mb, 0.0, y, yp, c, F, J) == 0, "evaluate");
    double worst = 0.0;
    int wr = -1, wc = -1;
    for (int col = 0; col < n; ++col) {
      const double h = 1e-6 * fmax(1.0, fabs(y[col]));
      double *fd = malloc(sizeof(double) * n);
      const double y0 = y[col], yp0 = yp[col];
      y[col] = y0 + h;
      PlMultibodyResidual(&mb, 0.0, y, yp, Fp);
      y[col] = y0 - h;
      PlMultibodyResidual(&mb, 0.0, y, yp, Fm);
      y[col] = y0;
      for (int r = 0; r < n; ++r) fd[r] = (Fp[r] - Fm[r]) / (2 * h);
      if (c != 0.0) {
        const double hp = 1e-6 * fmax(1.0, fabs(yp0));
        yp[col] = yp0 + hp;
        PlMultibodyResidual(&mb, 0.0, y, yp, Fp);
        yp[col] = yp0 - hp;
        PlMultibodyResidual(&mb, 0.0, y, yp, Fm);
        yp[col] = yp0;
        for (int r = 0; r < n; ++r) fd[r] += c * (Fp[r] - Fm[r]) / (2 * hp);
      }
      for (int r = 0; r < n; ++r) {
        double scale = 1.0;
        for (int k = 0; k < n; ++k) scale = fmax(scale, fabs(J[(size_t)r * n + k]));
        const double e = fabs(J[(size_t)r * n + col] - fd[r]) / scale;
        if (e > worst) worst = e, wr = r, wc = col;
      }
      free(fd);
    }
    char what[160];
    snprintf(what, sizeof what, "iteration matrix at c = %g against central differences: worst %.2e of its row (row %d, column %d)",
             c, worst, wr, wc);
    printf("%s\n", what);
    CHECK_ABS(worst, 0.0, 1e-6, what);
  }
  free(y), free(yp), free(F), free(Fp), free(Fm), free(J);
  return CHECK_DONE();
}
