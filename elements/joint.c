/*
 * joint.c - the kinematic constraint of a joint between two rigid bodies, or a body and the
 * ground (docs/design-system-core.md §5.2).
 *
 * Bodies as PlVessel (elements.h): pose (r, q), r the origin O_b in the global frame, q the
 * unit quaternion (w, x, y, z) of R (body -> global); velocities v, w in the body frame, so
 * that r' = R v and R' = R [w]x. A joint has a point p_a in A's body frame and p_b in B's
 * (for the ground: global), and a frame in each body, F_a and F_b (columns f1, f2, f3; f1
 * the axis of a revolute or a prismatic joint). In the global frame:
 *
 *   d = (r_a + R_a p_a) - (r_b + R_b p_b),   a_i = R_a F_a e_i,   c_i = R_b F_b e_i.
 *
 * The constraints g = 0 (m rows) of each kind:
 *   spherical  (m = 3)  d
 *   revolute   (m = 5)  d; a1.c2, a1.c3                     (a1 stays along c1)
 *   prismatic  (m = 5)  d.c2, d.c3; a1.c2, a1.c3, a2.c3     (slides along c1, no rotation)
 *   fixed      (m = 6)  d; a1.c2, a1.c3, a2.c3
 * (the frames agree when assembled: a_i = c_i, up to the rotation about c1 of a revolute).
 *
 * Their rates are linear in the body velocities, g' = G_a (v_a, w_a) + G_b (v_b, w_b):
 *   d'          = R_a v_a - R_a [p_a]x w_a - R_b v_b + R_b [p_b]x w_b
 *   (a_i.c_j)'  = w_a . R_a^T (a_i x c_j) + w_b . R_b^T (c_j x a_i)
 *   (d.c_j)'    = c_j . d' + w_b . R_b^T (c_j x d)
 * The body's equations get -G^T lambda (the reaction: force and moment in its body frame
 * about O_b), and in the stabilised index-2 form the kinematics -T G^T mu.
 *
 * PlJointEval returns g, G_a, G_b and their exact derivatives with respect to the 14
 * position parameters (r_a, q_a, r_b, q_b): the kernel runs on forward-mode dual numbers
 * (dual.h) seeded in those 14 directions, as the rod element does. R(q) is the polynomial
 * of a unit quaternion (rod_kernel.inc's QToR); the derivatives are those of that
 * polynomial.
 */
#include <string.h>
#include "pipelay/elements.h"
#define PL_DUAL_N 14
#include "dual.h"

int PlJointRowCount(PlJointKind kind)
{
  switch (kind) {
  case PL_JOINT_SPHERICAL: return 3;
  case PL_JOINT_REVOLUTE: return 5;
  case PL_JOINT_PRISMATIC: return 5;
  case PL_JOINT_FIXED: return 6;
  }
  return 0;
}

typedef PlDual D;

static D Mul(D a, D b) { return PlDualMul(a, b); }
static D Add(D a, D b) { return PlDualAdd(a, b); }
static D Sub(D a, D b) { return PlDualSub(a, b); }
static D Const(double c) { return PlDualConst(c); }

/* R(q), row-major, as rod_kernel.inc */
static void QToR(const D q[4], D R[9])
{
  const D w = q[0], x = q[1], y = q[2], z = q[3];
  const D xx = Mul(x, x), yy = Mul(y, y), zz = Mul(z, z), xy = Mul(x, y), xz = Mul(x, z), yz = Mul(y, z);
  const D wx = Mul(w, x), wy = Mul(w, y), wz = Mul(w, z);
  R[0] = Sub(Const(1.0), PlDualScale(Add(yy, zz), 2.0));
  R[1] = PlDualScale(Sub(xy, wz), 2.0);
  R[2] = PlDualScale(Add(xz, wy), 2.0);
  R[3] = PlDualScale(Add(xy, wz), 2.0);
  R[4] = Sub(Const(1.0), PlDualScale(Add(xx, zz), 2.0));
  R[5] = PlDualScale(Sub(yz, wx), 2.0);
  R[6] = PlDualScale(Sub(xz, wy), 2.0);
  R[7] = PlDualScale(Add(yz, wx), 2.0);
  R[8] = Sub(Const(1.0), PlDualScale(Add(xx, yy), 2.0));
}

static void MatVec(const D R[9], const double v[3], D out[3])
{
  for (int i = 0; i < 3; ++i)
    out[i] = Add(Add(PlDualScale(R[3 * i], v[0]), PlDualScale(R[3 * i + 1], v[1])), PlDualScale(R[3 * i + 2], v[2]));
}

static void MatTVecD(const D R[9], const D v[3], D out[3])
{
  for (int i = 0; i < 3; ++i) out[i] = Add(Add(Mul(R[i], v[0]), Mul(R[3 + i], v[1])), Mul(R[6 + i], v[2]));
}

static void Cross(const D a[3], const D b[3], D c[3])
{
  c[0] = Sub(Mul(a[1], b[2]), Mul(a[2], b[1]));
  c[1] = Sub(Mul(a[2], b[0]), Mul(a[0], b[2]));
  c[2] = Sub(Mul(a[0], b[1]), Mul(a[1], b[0]));
}

static D Dot(const D a[3], const D b[3]) { return Add(Add(Mul(a[0], b[0]), Mul(a[1], b[1])), Mul(a[2], b[2])); }

/* The pose's pieces: R, the joint point in the global frame, the frame's axes (global). */
typedef struct {
  D R[9], x[3], axis[3][3];
} Pose;

static void PoseOf(const double y[7], int seed, const double p[3], const double F[9], Pose *P)
{
  D r[3], q[4], Rp[3];
  for (int i = 0; i < 3; ++i) r[i] = Const(y ? y[i] : 0.0);
  for (int i = 0; i < 4; ++i) q[i] = Const(y ? y[3 + i] : (i == 0));
  if (y)
    for (int k = 0; k < 7; ++k) { /* seed directions seed .. seed + 6: r, then q */
      if (k < 3) r[k].d[seed + k] = 1.0;
      else q[k - 3].d[seed + k] = 1.0;
    }
  QToR(q, P->R);
  MatVec(P->R, p, Rp);
  for (int i = 0; i < 3; ++i) P->x[i] = Add(r[i], Rp[i]);
  for (int c = 0; c < 3; ++c) {
    const double f[3] = {F[c], F[3 + c], F[6 + c]}; /* column c of F */
    MatVec(P->R, f, P->axis[c]);
  }
}

/* Rows of the velocity Jacobian (6 each) are written as duals, then split into values and
 * position derivatives. */
typedef struct {
  D g[6], Ga[6][6], Gb[6][6];
  int m;
} Rows;

static void ZeroRow(D row[6])
{
  for (int k = 0; k < 6; ++k) row[k] = Const(0.0);
}

/* the rows of d (3): G_a = [R_a, -R_a [p_a]x], G_b = [-R_b, R_b [p_b]x] */
static void AddPointRows(Rows *o, const Pose *A, const Pose *B, const double pa[3], const double pb[3], const D d[3])
{
  for (int i = 0; i < 3; ++i) {
    D *ga = o->Ga[o->m], *gb = o->Gb[o->m];
    for (int k = 0; k < 3; ++k) {
      ga[k] = A->R[3 * i + k];
      gb[k] = PlDualNeg(B->R[3 * i + k]);
    }
    /* -R [p]x w = R (w x p)... as a row on w: (-R [p]x)_ik = -(R_i x p)_k ... written out */
    for (int k = 0; k < 3; ++k) {
      /* ([p]x)_jk = -eps_jkl p_l: (R [p]x)_ik = sum_j R_ij [p]x_jk */
      D sa = Const(0.0), sb = Const(0.0);
      for (int j = 0; j < 3; ++j) {
        const int l = 3 - j - k; /* the third index when j != k */
        if (j == k) continue;
        const double eps = ((j + 1) % 3 == k) ? 1.0 : -1.0; /* eps_jkl for (j, k, l) */
        /* [p]x_jk = -eps_jkl p_l */
        sa = Add(sa, PlDualScale(A->R[3 * i + j], -eps * pa[l]));
        sb = Add(sb, PlDualScale(B->R[3 * i + j], -eps * pb[l]));
      }
      ga[3 + k] = PlDualNeg(sa); /* -R_a [p_a]x */
      gb[3 + k] = sb;            /* +R_b [p_b]x */
    }
    o->g[o->m] = d[i];
    ++o->m;
  }
}

/* a row u.c (u on A: an axis; c on B: an axis): w_a . R_a^T (u x c) + w_b . R_b^T (c x u) */
static void AddAxisRow(Rows *o, const Pose *A, const Pose *B, const D u[3], const D c[3])
{
  D uc[3], cu[3], ta[3], tb[3];
  Cross(u, c, uc);
  Cross(c, u, cu);
  MatTVecD(A->R, uc, ta);
  MatTVecD(B->R, cu, tb);
  D *ga = o->Ga[o->m], *gb = o->Gb[o->m];
  ZeroRow(ga);
  ZeroRow(gb);
  for (int k = 0; k < 3; ++k) {
    ga[3 + k] = ta[k];
    gb[3 + k] = tb[k];
  }
  o->g[o->m] = Dot(u, c);
  ++o->m;
}

/* a row d.c (c an axis of B): c . d' + w_b . R_b^T (c x d), d' from the point rows */
static void AddSlideRow(Rows *o, const Pose *A, const Pose *B, const double pa[3], const double pb[3], const D d[3],
                        const D c[3])
{
  Rows pt;
  pt.m = 0;
  AddPointRows(&pt, A, B, pa, pb, d);
  D *ga = o->Ga[o->m], *gb = o->Gb[o->m];
  for (int k = 0; k < 6; ++k) {
    ga[k] = Add(Add(Mul(c[0], pt.Ga[0][k]), Mul(c[1], pt.Ga[1][k])), Mul(c[2], pt.Ga[2][k]));
    gb[k] = Add(Add(Mul(c[0], pt.Gb[0][k]), Mul(c[1], pt.Gb[1][k])), Mul(c[2], pt.Gb[2][k]));
  }
  D cd[3], tb[3];
  Cross(c, d, cd);
  MatTVecD(B->R, cd, tb);
  for (int k = 0; k < 3; ++k) gb[3 + k] = Add(gb[3 + k], tb[k]);
  o->g[o->m] = Dot(d, c);
  ++o->m;
}

void PlJointEval(const PlJoint *j, const double ya[7], const double yb[7], PlJointEvalOut *out)
{
  Pose A, B;
  PoseOf(ya, 0, j->pa, j->Fa, &A);
  PoseOf(yb, 7, j->pb, j->Fb, &B);
  D d[3];
  for (int i = 0; i < 3; ++i) d[i] = Sub(A.x[i], B.x[i]);
  Rows o;
  o.m = 0;
  switch (j->kind) {
  case PL_JOINT_SPHERICAL: AddPointRows(&o, &A, &B, j->pa, j->pb, d); break;
  case PL_JOINT_REVOLUTE:
    AddPointRows(&o, &A, &B, j->pa, j->pb, d);
    AddAxisRow(&o, &A, &B, A.axis[0], B.axis[1]);
    AddAxisRow(&o, &A, &B, A.axis[0], B.axis[2]);
    break;
  case PL_JOINT_PRISMATIC:
    AddSlideRow(&o, &A, &B, j->pa, j->pb, d, B.axis[1]);
    AddSlideRow(&o, &A, &B, j->pa, j->pb, d, B.axis[2]);
    AddAxisRow(&o, &A, &B, A.axis[0], B.axis[1]);
    AddAxisRow(&o, &A, &B, A.axis[0], B.axis[2]);
    AddAxisRow(&o, &A, &B, A.axis[1], B.axis[2]);
    break;
  case PL_JOINT_FIXED:
    AddPointRows(&o, &A, &B, j->pa, j->pb, d);
    AddAxisRow(&o, &A, &B, A.axis[0], B.axis[1]);
    AddAxisRow(&o, &A, &B, A.axis[0], B.axis[2]);
    AddAxisRow(&o, &A, &B, A.axis[1], B.axis[2]);
    break;
  }
  memset(out, 0, sizeof *out);
  out->m = o.m;
  for (int r = 0; r < o.m; ++r) {
    out->g[r] = o.g[r].v;
    for (int k = 0; k < 14; ++k) out->dg[14 * r + k] = o.g[r].d[k];
    for (int c = 0; c < 6; ++c) {
      out->Ga[6 * r + c] = o.Ga[r][c].v;
      out->Gb[6 * r + c] = o.Gb[r][c].v;
      for (int k = 0; k < 14; ++k) {
        out->dGa[14 * (6 * r + c) + k] = o.Ga[r][c].d[k];
        out->dGb[14 * (6 * r + c) + k] = o.Gb[r][c].d[k];
      }
    }
  }
}
