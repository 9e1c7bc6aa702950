/*
 * test_roller.c - the roller contact kernel (elements/roller.c) at random states of a segment
 * over a roller of a random orientation, in the smoothing zone and beyond, with and without
 * damping:
 *   1. the force's magnitude is the penalty's F(p) at the penetration normal to the pipe, which
 *      is the built one (along the roller's normal) times the cosine of the pipe's smoothed slope,
 *      and the roller's reaction is normal to the pipe's smoothed tangent there (frictionless;
 *      1e-12);
 *   2. K = -df/dx (over the segment's nodes and their outer neighbours) and C = -df/dv equal
 *      central differences of f to 1e-6 of the largest entry, with and without neighbours;
 *   3. lift-off: a segment above the roller (gap > 0) carries nothing, and a segment that does
 *      not cross the roller's normal plane is not claimed;
 *   4. a bent line over the roller claims the crossing once, and moving a node across the
 *      roller's plane moves the contact continuously: the gap (1e-12 m) and the nodes' forces
 *      (1e-9 of the force) on either side of the switch agree.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "pipelay/elements.h"
#include "check.h"

static double Rand(unsigned *s)
{
  *s = *s * 1103515245u + 12345u;
  return ((*s >> 8) & 0xffff) / 65535.0 * 2.0 - 1.0;
}

static void Normalise(double v[3])
{
  const double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  for (int i = 0; i < 3; ++i) v[i] /= n;
}

/* A roller of random axis through a random point; n normal to a. */
static void RandomRoller(unsigned *s, PlRoller *r, double cd)
{
  double t[3];
  for (int i = 0; i < 3; ++i) r->c[i] = 10.0 * Rand(s), r->a[i] = Rand(s), t[i] = Rand(s);
  Normalise(r->a);
  const double d = t[0] * r->a[0] + t[1] * r->a[1] + t[2] * r->a[2];
  for (int i = 0; i < 3; ++i) r->n[i] = t[i] - d * r->a[i];
  Normalise(r->n);
  r->rho = 0.41;
  r->k = 1e7;
  r->delta = 3e-4;
  r->cd = cd;
  r->reach = 8.0;
}

/* A line of four nodes P, A, B, Q whose segment A-B crosses the roller's plane with its height
 * there at rho - p (p the penetration): A and B on either side along m, P and Q beyond them
 * with other slopes (a bent pipe), moved along a. */
static void Line(unsigned *s, const PlRoller *r, double p, double x[12])
{
  double m[3] = {r->a[1] * r->n[2] - r->a[2] * r->n[1], r->a[2] * r->n[0] - r->a[0] * r->n[2],
                 r->a[0] * r->n[1] - r->a[1] * r->n[0]};
  const double uA = -0.3 - 0.5 * fabs(Rand(s)), uB = 0.2 + 0.6 * fabs(Rand(s)), slope = 0.4 * Rand(s);
  const double h = r->rho - p, along = Rand(s), twist = 0.05 * Rand(s);
  const double uP = uA - 0.5 - 0.3 * fabs(Rand(s)), uQ = uB + 0.5 + 0.3 * fabs(Rand(s));
  const double wP = h + slope * uA + (slope + 0.1 * Rand(s)) * (uP - uA);
  const double wQ = h + slope * uB + (slope + 0.1 * Rand(s)) * (uQ - uB);
  const double uu[4] = {uP, uA, uB, uQ}, ww[4] = {wP, h + slope * uA, h + slope * uB, wQ};
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 3; ++i) x[3 * j + i] = r->c[i] + uu[j] * m[i] + ww[j] * r->n[i] + (along + twist * (j - 1.5)) * r->a[i];
}

/* The contact's forces of the line x (P, A, B, Q; the neighbours left out with ends). */
static void Force(const PlRoller *r, const double x[12], const double v[6], int damped, int ends, double f[6])
{
  PlRollerOut o;
  PlRollerContact(r, ends ? NULL : x, x + 3, x + 6, ends ? NULL : x + 9, damped ? v : NULL, damped ? v + 3 : NULL, &o,
                  NULL, NULL);
  memcpy(f, o.f, sizeof o.f);
}

static void CheckState(unsigned *s, double p, double cd, int ends, int *cases)
{
  PlRoller r;
  RandomRoller(s, &r, cd);
  double x[12], v[6];
  Line(s, &r, p, x);
  for (int i = 0; i < 6; ++i) v[i] = 0.3 * Rand(s);
  PlRollerOut o;
  CHECK_TRUE(PlRollerCrossing(&r, x + 3, x + 6, &o), "the segment crosses the roller's plane");
  CHECK_ABS(o.gap, -p, 1e-12, "the crossing's gap is the built one");
  double K[72], C[36];
  const int damped = cd > 0.0;
  PlRollerContact(&r, ends ? NULL : x, x + 3, x + 6, ends ? NULL : x + 9, damped ? v : NULL, damped ? v + 3 : NULL, &o,
                  K, C);
  /* 1. the penalty's magnitude and a reaction normal to the pipe (without damping) */
  if (!damped) {
    const double d = r.delta, pn = -o.gap, F = pn <= 0.0 ? 0.0 : pn < d ? 0.5 * r.k * pn * pn / d : r.k * (pn - 0.5 * d);
    CHECK_ABS(o.force, F, 1e-8 * F, "the contact's force is the penalty's");
    double R[3], nR = 0.0, tR = 0.0, nt = 0.0;
    const double *n = r.n, *a = r.a;
    const double m[3] = {a[1] * n[2] - a[2] * n[1], a[2] * n[0] - a[0] * n[2], a[0] * n[1] - a[1] * n[0]};
    double uu[4], ww[4];
    for (int j = 0; j < 4; ++j) {
      uu[j] = ww[j] = 0.0;
      for (int i = 0; i < 3; ++i) uu[j] += (x[3 * j + i] - r.c[i]) * m[i], ww[j] += (x[3 * j + i] - r.c[i]) * n[i];
    }
    const double se = (ww[2] - ww[1]) / (uu[2] - uu[1]);
    const double sA = ends ? se : 0.5 * (se + (ww[1] - ww[0]) / (uu[1] - uu[0]));
    const double sB = ends ? se : 0.5 * (se + (ww[3] - ww[2]) / (uu[3] - uu[2]));
    const double seff = (1.0 - o.xi) * sA + o.xi * sB;
    CHECK_ABS(-o.gap, p / sqrt(1.0 + seff * seff) + r.rho * (1.0 - 1.0 / sqrt(1.0 + seff * seff)), 1e-12,
              "the penetration normal to the pipe");
    for (int i = 0; i < 3; ++i) {
      R[i] = o.f[i] + o.f[3 + i];
      const double t = m[i] + seff * n[i];
      tR += R[i] * t, nR += R[i] * R[i], nt += t * t;
    }
    CHECK_TRUE(fabs(tR) <= 1e-12 * sqrt(nR * nt), "the reaction is normal to the pipe's smoothed tangent");
  }
  /* 2. the tangent against central differences */
  double worst = 0.0, big = 0.0;
  for (int k = 0; k < 72; ++k) big = fmax(big, fabs(K[k]));
  for (int k = 0; k < 36; ++k) big = fmax(big, fabs(C[k]));
  for (int j = 0; j < 12; ++j) {
    const double h = 1e-8;
    double xp[12], xm[12], fp[6], fm[6];
    memcpy(xp, x, sizeof xp), memcpy(xm, x, sizeof xm);
    xp[j] += h, xm[j] -= h;
    Force(&r, xp, v, damped, ends, fp);
    Force(&r, xm, v, damped, ends, fm);
    for (int i = 0; i < 6; ++i) worst = fmax(worst, fabs(-(fp[i] - fm[i]) / (2.0 * h) - K[12 * i + j]));
  }
  for (int j = 0; damped && j < 6; ++j) {
    const double h = 1e-6;
    double vp[6], vm[6], fp[6], fm[6];
    memcpy(vp, v, sizeof vp), memcpy(vm, v, sizeof vm);
    vp[j] += h, vm[j] -= h;
    Force(&r, x, vp, damped, ends, fp);
    Force(&r, x, vm, damped, ends, fm);
    for (int i = 0; i < 6; ++i) worst = fmax(worst, fabs(-(fp[i] - fm[i]) / (2.0 * h) - C[6 * i + j]));
  }
  CHECK_TRUE(worst <= 1e-6 * big, "the contact's tangent equals central differences");
  if (worst > 1e-6 * big) fprintf(stderr, "  p %g cd %g ends %d: worst %.3e of %.3e\n", p, cd, ends, worst, big);
  ++*cases;
}

int main(void)
{
  unsigned s = 12345u;
  int cases = 0;
  /* penetrations in the smoothing zone (0 < p < delta) and beyond, without and with damping */
  const double pen[4] = {1e-4, 2.5e-4, 2e-3, 0.05};
  for (int rep = 0; rep < 25; ++rep)
    for (int k = 0; k < 4; ++k) {
      for (int ends = 0; ends < 2; ++ends) {
        CheckState(&s, pen[k], 0.0, ends, &cases);
        CheckState(&s, pen[k], 3e4, ends, &cases);
      }
    }
  /* 3. lift-off: above the roller nothing, away from its plane not claimed */
  PlRoller r;
  RandomRoller(&s, &r, 3e4);
  double x[12], v[6] = {0.1, -0.2, 0.3, 0.0, 0.1, 0.2}, K[72], C[36];
  Line(&s, &r, -0.2, x);
  PlRollerOut o;
  CHECK_TRUE(PlRollerCrossing(&r, x + 3, x + 6, &o) && o.gap > 0.0, "a segment above the roller crosses its plane");
  PlRollerContact(&r, x, x + 3, x + 6, x + 9, v, v + 3, &o, K, C);
  double fmax_ = 0.0, kmax = 0.0;
  for (int i = 0; i < 6; ++i) fmax_ = fmax(fmax_, fabs(o.f[i]));
  for (int i = 0; i < 72; ++i) kmax = fmax(kmax, fabs(K[i]));
  for (int i = 0; i < 36; ++i) kmax = fmax(kmax, fabs(C[i]));
  CHECK_TRUE(o.force == 0.0 && fmax_ == 0.0 && kmax == 0.0, "a lifted-off segment carries nothing");
  CHECK_TRUE(!PlRollerCrossing(&r, x, x + 3, &o) && !PlRollerCrossing(&r, x + 6, x + 9, &o),
             "a segment on one side of the roller's plane is not claimed");
  /* 4. a bent line of five nodes pressed on the roller, its middle node moved just before and
   * just after the roller's plane: one claim each time, the same gap and the same nodal forces */
  double pts[5][3], m[3] = {r.a[1] * r.n[2] - r.a[2] * r.n[1], r.a[2] * r.n[0] - r.a[0] * r.n[2],
                            r.a[0] * r.n[1] - r.a[1] * r.n[0]};
  for (int j = 0; j < 5; ++j) {
    const double uu = 0.6 * (j - 2), ww = r.rho - 0.01 - 0.05 * uu * uu + 0.02 * uu;
    for (int i = 0; i < 3; ++i) pts[j][i] = r.c[i] + uu * m[i] + ww * r.n[i] + 0.1 * j * r.a[i];
  }
  double gaps[2], node_f[2][9];
  for (int side = 0; side < 2; ++side) {
    double q[5][3];
    memcpy(q, pts, sizeof q);
    for (int i = 0; i < 3; ++i) q[2][i] += (side ? 1e-12 : -1e-12) * m[i];
    int claims = 0;
    memset(node_f[side], 0, sizeof node_f[side]);
    for (int e = 0; e < 4; ++e)
      if (PlRollerCrossing(&r, q[e], q[e + 1], &o)) {
        ++claims;
        PlRollerContact(&r, e > 0 ? q[e - 1] : NULL, q[e], q[e + 1], e < 3 ? q[e + 2] : NULL, NULL, NULL, &o, NULL, NULL);
        gaps[side] = o.gap;
        for (int a = 0; a < 2; ++a)
          if (e + a >= 1 && e + a <= 3)
            for (int i = 0; i < 3; ++i) node_f[side][3 * (e + a - 1) + i] += o.f[3 * a + i];
      }
    CHECK_TRUE(claims == 1, "one segment of a line claims the roller");
  }
  CHECK_ABS(gaps[0], gaps[1], 1e-12, "the gap is continuous where the contact moves to the next segment");
  double fd = 0.0, fb = 0.0;
  for (int i = 0; i < 9; ++i) fd = fmax(fd, fabs(node_f[0][i] - node_f[1][i])), fb = fmax(fb, fabs(node_f[0][i]));
  CHECK_TRUE(fb > 0.0 && fd <= 1e-9 * fb, "the nodes' forces are continuous where the contact moves to the next segment");
  printf("roller kernel: %d states (penalty force normal to the pipe, tangent against central differences), "
         "lift-off, one claim per line, continuity at the switch: %s\n", cases, pl_check_failures ? "FAILED" : "ok");
  return pl_check_failures ? 1 : 0;
}
