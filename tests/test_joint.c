/*
 * test_joint.c - the joint constraint kernel (elements/joint.c), for every kind, on a body
 * joined to another body and to the ground:
 *   1. assembled poses (built from the joint's definition) satisfy g = 0 to 1e-13;
 *   2. G is the rate of g: along the motion r' = R v, q' = q (0, w)/2 from random poses and
 *      velocities, G_a nu_a + G_b nu_b equals the central difference of g to 1e-7 (relative
 *      to the largest rate);
 *   3. dg/dp and dG/dp (the dual-number derivatives with respect to r_a, q_a, r_b, q_b)
 *      equal central differences of g and G to 1e-7 relative;
 *   4. G is dg/dp mapped by the kinematics: G = dg/dp T(q) with T the map from (v, w) to
 *      (r', q'), to 1e-12: the two Jacobians describe the same constraint;
 *   5. the reaction of a spherical joint holding a body at rest against gravity, joint
 *      point straight above the centre of gravity: G_a^T lambda = the weight (body frame)
 *      has the solution lambda = (0, 0, -m g) with zero moment, and a joint point off the
 *      vertical leaves a moment |p x lambda| (the hand computation).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pipelay/elements.h"
#include "check.h"

static double Rand(unsigned *s)
{
  *s = *s * 1103515245u + 12345u;
  return ((*s >> 8) & 0xffff) / 65535.0 * 2.0 - 1.0;
}

static void RandomQuat(unsigned *s, double q[4])
{
  double n = 0.0;
  for (int i = 0; i < 4; ++i) {
    q[i] = Rand(s);
    n += q[i] * q[i];
  }
  n = sqrt(n);
  for (int i = 0; i < 4; ++i) q[i] /= n;
}

static void QuatMul(const double a[4], const double b[4], double c[4])
{
  c[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  c[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  c[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  c[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
}

static void MatMul(const double A[9], const double B[9], double C[9])
{
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) C[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
}

/* quaternion of a rotation matrix (Shepperd) */
static void MatToQuat(const double R[9], double q[4])
{
  const double tr = R[0] + R[4] + R[8];
  if (tr > 0) {
    const double s = 2.0 * sqrt(1.0 + tr);
    q[0] = 0.25 * s, q[1] = (R[7] - R[5]) / s, q[2] = (R[2] - R[6]) / s, q[3] = (R[3] - R[1]) / s;
  } else if (R[0] > R[4] && R[0] > R[8]) {
    const double s = 2.0 * sqrt(1.0 + R[0] - R[4] - R[8]);
    q[0] = (R[7] - R[5]) / s, q[1] = 0.25 * s, q[2] = (R[1] + R[3]) / s, q[3] = (R[2] + R[6]) / s;
  } else if (R[4] > R[8]) {
    const double s = 2.0 * sqrt(1.0 + R[4] - R[0] - R[8]);
    q[0] = (R[2] - R[6]) / s, q[1] = (R[1] + R[3]) / s, q[2] = 0.25 * s, q[3] = (R[5] + R[7]) / s;
  } else {
    const double s = 2.0 * sqrt(1.0 + R[8] - R[0] - R[4]);
    q[0] = (R[3] - R[1]) / s, q[1] = (R[2] + R[6]) / s, q[2] = (R[5] + R[7]) / s, q[3] = 0.25 * s;
  }
}

static void RandomFrame(unsigned *s, double F[9])
{
  double q[4];
  RandomQuat(s, q);
  PlQuatToMatrix(q, F);
}

/* A and B assembled: B's pose given (or the ground), A's from the joint: R_a F_a = R_b F_b
 * Rx(theta) (theta only for a revolute), x_a = x_b (+ s c1 for a prismatic). */
static void Assemble(const PlJoint *j, const double *yb, double theta, double s, double ya[7])
{
  double Rb[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, rb[3] = {0, 0, 0};
  if (yb) {
    PlQuatToMatrix(yb + 3, Rb);
    memcpy(rb, yb, sizeof rb);
  }
  const double c = cos(theta), sn = sin(theta), Rx[9] = {1, 0, 0, 0, c, -sn, 0, sn, c};
  double RbFb[9], T[9], FaT[9], Ra[9];
  MatMul(Rb, j->Fb, RbFb);
  MatMul(RbFb, Rx, T);
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) FaT[3 * i + k] = j->Fa[3 * k + i];
  MatMul(T, FaT, Ra);
  MatToQuat(Ra, ya + 3);
  double xb[3], Rapa[3];
  for (int i = 0; i < 3; ++i) xb[i] = rb[i] + Rb[3 * i] * j->pb[0] + Rb[3 * i + 1] * j->pb[1] + Rb[3 * i + 2] * j->pb[2];
  for (int i = 0; i < 3; ++i) Rapa[i] = Ra[3 * i] * j->pa[0] + Ra[3 * i + 1] * j->pa[1] + Ra[3 * i + 2] * j->pa[2];
  for (int i = 0; i < 3; ++i) ya[i] = xb[i] + s * RbFb[3 * i] - Rapa[i];
}

/* One step of the rigid motion with body velocities nu = (v, w) over h (second order:
 * enough for a central difference): r += h R v, q = q exp(h w / 2). */
static void Move(const double y[7], const double nu[6], double h, double out[7])
{
  double R[9];
  PlQuatToMatrix(y + 3, R);
  /* midpoint rotation for r: r(h) = r + int R(t) v dt, R(t) = R exp(t [w]x) */
  double wn = sqrt(nu[3] * nu[3] + nu[4] * nu[4] + nu[5] * nu[5]), dq[4] = {1, 0, 0, 0};
  if (wn > 0) {
    dq[0] = cos(0.5 * h * wn);
    for (int i = 0; i < 3; ++i) dq[1 + i] = sin(0.5 * h * wn) * nu[3 + i] / wn;
  }
  double qm[4], dqh[4] = {1, 0, 0, 0}, Rm[9];
  if (wn > 0) {
    dqh[0] = cos(0.25 * h * wn);
    for (int i = 0; i < 3; ++i) dqh[1 + i] = sin(0.25 * h * wn) * nu[3 + i] / wn;
  }
  QuatMul(y + 3, dqh, qm);
  PlQuatToMatrix(qm, Rm);
  for (int i = 0; i < 3; ++i) out[i] = y[i] + h * (Rm[3 * i] * nu[0] + Rm[3 * i + 1] * nu[1] + Rm[3 * i + 2] * nu[2]);
  QuatMul(y + 3, dq, out + 3);
}

static const char *kNames[4] = {"spherical", "revolute", "prismatic", "fixed"};

static void CheckKind(PlJointKind kind, int ground, unsigned seed)
{
  unsigned s = seed;
  PlJoint j;
  j.kind = kind;
  for (int i = 0; i < 3; ++i) j.pa[i] = 3.0 * Rand(&s), j.pb[i] = 2.0 * Rand(&s);
  RandomFrame(&s, j.Fa);
  RandomFrame(&s, j.Fb);
  double ya[7], yb[7];
  for (int i = 0; i < 3; ++i) yb[i] = 10.0 * Rand(&s);
  RandomQuat(&s, yb + 3);
  const double *pb = ground ? NULL : yb;
  char what[160];
  PlJointEvalOut o;

  /* 1. assembled */
  Assemble(&j, pb, kind == PL_JOINT_REVOLUTE ? 0.7 : 0.0, kind == PL_JOINT_PRISMATIC ? 1.3 : 0.0, ya);
  PlJointEval(&j, ya, pb, &o);
  CHECK_TRUE(o.m == PlJointRowCount(kind), "row count");
  double gmax = 0.0;
  for (int r = 0; r < o.m; ++r) gmax = fmax(gmax, fabs(o.g[r]));
  snprintf(what, sizeof what, "%s%s: assembled poses satisfy g = 0 (|g| = %.1e)", kNames[kind], ground ? " to ground" : "", gmax);
  CHECK_ABS(gmax, 0.0, 1e-13, what);
  printf("%s\n", what);

  /* 2. G is the rate of g, from a perturbed (not assembled) pose */
  for (int i = 0; i < 7; ++i) ya[i] += 0.3 * Rand(&s);
  double n = 0;
  for (int i = 3; i < 7; ++i) n += ya[i] * ya[i];
  for (int i = 3; i < 7; ++i) ya[i] /= sqrt(n);
  double nua[6], nub[6];
  for (int i = 0; i < 6; ++i) nua[i] = Rand(&s), nub[i] = ground ? 0.0 : Rand(&s);
  PlJointEval(&j, ya, pb, &o);
  const double h = 1e-5;
  double yap[7], yam[7], ybp[7], ybm[7];
  PlJointEvalOut op, om;
  Move(ya, nua, h, yap);
  Move(ya, nua, -h, yam);
  Move(yb, nub, h, ybp);
  Move(yb, nub, -h, ybm);
  PlJointEval(&j, yap, ground ? NULL : ybp, &op);
  PlJointEval(&j, yam, ground ? NULL : ybm, &om);
  double err = 0.0, scale = 0.0;
  for (int r = 0; r < o.m; ++r) {
    double rate = 0.0;
    for (int k = 0; k < 6; ++k) rate += o.Ga[6 * r + k] * nua[k] + o.Gb[6 * r + k] * nub[k];
    const double fd = (op.g[r] - om.g[r]) / (2 * h);
    err = fmax(err, fabs(rate - fd));
    scale = fmax(scale, fabs(fd));
  }
  snprintf(what, sizeof what, "%s%s: G nu is the rate of g (error %.1e of %.2f)", kNames[kind], ground ? " to ground" : "",
           err, scale);
  CHECK_ABS(err / scale, 0.0, 1e-7, what);
  printf("%s\n", what);

  /* 3. position derivatives against central differences */
  const int np = ground ? 7 : 14;
  double eg = 0.0, eG = 0.0, sg = 0.0, sG = 0.0;
  for (int k = 0; k < np; ++k) {
    double a2[7], b2[7], a3[7], b3[7];
    memcpy(a2, ya, sizeof a2), memcpy(a3, ya, sizeof a3), memcpy(b2, yb, sizeof b2), memcpy(b3, yb, sizeof b3);
    const double e = 1e-6;
    if (k < 7) a2[k] += e, a3[k] -= e;
    else b2[k - 7] += e, b3[k - 7] -= e;
    PlJointEval(&j, a2, ground ? NULL : b2, &op);
    PlJointEval(&j, a3, ground ? NULL : b3, &om);
    for (int r = 0; r < o.m; ++r) {
      const double fd = (op.g[r] - om.g[r]) / (2 * e);
      eg = fmax(eg, fabs(fd - o.dg[14 * r + k]));
      sg = fmax(sg, fabs(fd));
      for (int c = 0; c < 6; ++c) {
        const double fa = (op.Ga[6 * r + c] - om.Ga[6 * r + c]) / (2 * e), fb = (op.Gb[6 * r + c] - om.Gb[6 * r + c]) / (2 * e);
        eG = fmax(eG, fmax(fabs(fa - o.dGa[14 * (6 * r + c) + k]), fabs(fb - o.dGb[14 * (6 * r + c) + k])));
        sG = fmax(sG, fmax(fabs(fa), fabs(fb)));
      }
    }
  }
  snprintf(what, sizeof what, "%s%s: dg/dp against central differences (%.1e of %.2f)", kNames[kind],
           ground ? " to ground" : "", eg, sg);
  CHECK_ABS(eg / sg, 0.0, 1e-7, what);
  snprintf(what, sizeof what, "%s%s: dG/dp against central differences (%.1e of %.2f)", kNames[kind],
           ground ? " to ground" : "", eG, sG);
  CHECK_ABS(eG / sG, 0.0, 1e-7, what);
  printf("%s\n", what);

  /* 4. G = dg/dp T(q): r' = R v, q' = q (0, w)/2 */
  double e4 = 0.0;
  for (int body = 0; body < (ground ? 1 : 2); ++body) {
    const double *y = body ? yb : ya, *G = body ? o.Gb : o.Ga;
    double R[9];
    PlQuatToMatrix(y + 3, R);
    for (int c = 0; c < 6; ++c) {
      double dr[3] = {0, 0, 0}, dq[4] = {0, 0, 0, 0};
      if (c < 3)
        for (int i = 0; i < 3; ++i) dr[i] = R[3 * i + c];
      else {
        double w[4] = {0, 0, 0, 0};
        w[1 + c - 3] = 0.5;
        QuatMul(y + 3, w, dq);
      }
      for (int r = 0; r < o.m; ++r) {
        double v = 0.0;
        for (int i = 0; i < 3; ++i) v += o.dg[14 * r + 7 * body + i] * dr[i];
        for (int i = 0; i < 4; ++i) v += o.dg[14 * r + 7 * body + 3 + i] * dq[i];
        e4 = fmax(e4, fabs(v - G[6 * r + c]));
      }
    }
  }
  snprintf(what, sizeof what, "%s%s: G = dg/dp T(q) (%.1e)", kNames[kind], ground ? " to ground" : "", e4);
  CHECK_ABS(e4, 0.0, 1e-12, what);
  printf("%s\n", what);
}

int main(void)
{
  for (int kind = PL_JOINT_SPHERICAL; kind <= PL_JOINT_FIXED; ++kind)
    for (int ground = 0; ground < 2; ++ground) CheckKind((PlJointKind)kind, ground, 17u + 31u * (unsigned)kind + 7u * (unsigned)ground);

  /* 5. a body of mass m hanging at rest from a spherical joint to the ground */
  const double m = 1200.0, g = 9.81;
  PlJoint j = {.kind = PL_JOINT_SPHERICAL, .pa = {0, 0, 2.0}, .pb = {5, 1, -3},
               .Fa = {1, 0, 0, 0, 1, 0, 0, 0, 1}, .Fb = {1, 0, 0, 0, 1, 0, 0, 0, 1}};
  double ya[7] = {5, 1, -5, 1, 0, 0, 0};
  PlJointEvalOut o;
  PlJointEval(&j, ya, NULL, &o);
  CHECK_ABS(fabs(o.g[0]) + fabs(o.g[1]) + fabs(o.g[2]), 0.0, 1e-14, "hanging body: the joint is assembled");
  /* equilibrium: the weight f = (0, 0, -m g) at O_b (the centre of gravity) balances G^T lambda */
  double A[9], b[3] = {0, 0, -m * g}, lam[3];
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) A[3 * c + r] = o.Ga[6 * r + c]; /* the force rows of G^T */
  CHECK_TRUE(PlSolveDense(3, A, b, lam) == 0, "hanging body: the force rows are regular");
  double M[3] = {0, 0, 0};
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) M[c] += o.Ga[6 * r + 3 + c] * lam[r];
  CHECK_ABS(lam[2], -m * g, 1e-9 * m * g, "hanging body: lambda = (0, 0, -m g), the weight carried by the joint");
  CHECK_ABS(fabs(M[0]) + fabs(M[1]) + fabs(M[2]), 0.0, 1e-9 * m * g, "hanging body: no moment with the joint above O_b");
  /* the joint point 0.5 m off the vertical: the weight's moment about the joint, |p x lambda| = 0.5 m g */
  j.pa[0] = 0.5;
  ya[0] = 4.5;
  PlJointEval(&j, ya, NULL, &o);
  for (int c = 0; c < 3; ++c) M[c] = 0.0;
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) M[c] += o.Ga[6 * r + 3 + c] * lam[r];
  CHECK_ABS(sqrt(M[0] * M[0] + M[1] * M[1] + M[2] * M[2]), 0.5 * m * g, 1e-9 * m * g,
            "joint 0.5 m off the vertical: moment 0.5 m g about O_b (hand computation)");
  return CHECK_DONE();
}
