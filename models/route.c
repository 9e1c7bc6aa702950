/*
 * route.c - the lay route on the seabed (lay.route; docs/design-laying.md
 * section 4): a polyline of waypoints in plan (x, y) whose inner corners are rounded by
 * circular arcs of one radius R, tangent to both legs.
 *
 * At an inner waypoint p with incoming direction d1 and outgoing d2 the route turns by
 * Delta = atan2(d1 x d2, d1 . d2) (left positive); the arc starts at A = p - T d1 and ends at
 * B = p + T d2, T = R tan(|Delta| / 2), about the centre C = A + R sgn(Delta) n1 (n1 = d1
 * turned 90 deg to the left), and is R |Delta| long. The pieces (legs and arcs) are laid end to
 * end in arc length sigma from the first waypoint; before the first and beyond the last the
 * route runs on along its end legs (so that a vessel or a node a little past an end still has
 * a station and an offset).
 *
 * PlRouteEval gives the point r(sigma), the unit tangent t and the signed curvature kappa
 * (1/R on a left arc, -1/R on a right one, 0 on a leg); PlRouteProject the station and the
 * signed lateral offset (left of the tangent positive) of a plan point: the nearest of the
 * pieces' nearest points.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pipelay/models.h"

static double Cross(const double a[2], const double b[2]) { return a[0] * b[1] - a[1] * b[0]; }
static double Dot(const double a[2], const double b[2]) { return a[0] * b[0] + a[1] * b[1]; }

/* PlRouteBuild with room for n directions d, legs, bend lengths T and turns. */
static int Build(PlRoute *r, char *why, size_t len, double (*d)[2], double *leg, double *T, double *turn);

int PlRouteBuild(PlRoute *r, char *why, size_t len)
{
  r->npieces = 0;
  r->length = 0.0;
  if (r->n < 2) {
    snprintf(why, len, "a route needs at least 2 points (it has %d)", r->n);
    return 1;
  }
  const size_t n = (size_t)r->n;
  double *w = malloc(5 * n * sizeof *w);
  if (!w) {
    snprintf(why, len, "out of memory (%d points)", r->n);
    return 1;
  }
  const int rc = Build(r, why, len, (double(*)[2])w, w + 2 * n, w + 3 * n, w + 4 * n);
  free(w);
  return rc;
}

static int Build(PlRoute *r, char *why, size_t len, double (*d)[2], double *leg, double *T, double *turn)
{
  for (int i = 0; i + 1 < r->n; ++i) {
    const double dx = r->p[i + 1][0] - r->p[i][0], dy = r->p[i + 1][1] - r->p[i][1];
    leg[i] = hypot(dx, dy);
    if (!(leg[i] > 0.0)) {
      snprintf(why, len, "points %d and %d are the same point (%g, %g)", i + 1, i + 2, r->p[i][0], r->p[i][1]);
      return 1;
    }
    d[i][0] = dx / leg[i];
    d[i][1] = dy / leg[i];
  }
  T[0] = T[r->n - 1] = 0.0;
  for (int i = 1; i + 1 < r->n; ++i) {
    turn[i] = atan2(Cross(d[i - 1], d[i]), Dot(d[i - 1], d[i]));
    if (fabs(turn[i]) > 0.9 * M_PI) {
      snprintf(why, len, "the route turns by %.1f deg at point %d: at most 162 deg", turn[i] * 180.0 / M_PI, i + 1);
      return 1;
    }
    T[i] = r->radius * tan(0.5 * fabs(turn[i]));
  }
  for (int i = 0; i + 1 < r->n; ++i)
    if (T[i] + T[i + 1] > leg[i] * (1.0 + 1e-12)) {
      snprintf(why, len,
               "the leg from point %d to point %d is %.6g m long, shorter than its two bends take at radius %.6g m "
               "(%.6g m and %.6g m): lower the radius or move the points apart",
               i + 1, i + 2, leg[i], r->radius, T[i], T[i + 1]);
      return 1;
    }
  double s = 0.0;
  for (int i = 0; i + 1 < r->n; ++i) {
    PlRoutePiece *pc = &r->piece[r->npieces++];
    memset(pc, 0, sizeof *pc);
    pc->arc = 0;
    pc->s0 = s;
    pc->len = leg[i] - T[i] - T[i + 1];
    for (int c = 0; c < 2; ++c) {
      pc->a[c] = r->p[i][c] + T[i] * d[i][c];
      pc->t[c] = d[i][c];
    }
    s += pc->len;
    if (i + 2 < r->n && T[i + 1] > 0.0) { /* the bend at point i + 2 (index i + 1) */
      PlRoutePiece *b = &r->piece[r->npieces++];
      memset(b, 0, sizeof *b);
      b->arc = 1;
      b->s0 = s;
      b->sign = turn[i + 1] > 0.0 ? 1.0 : -1.0;
      b->len = r->radius * fabs(turn[i + 1]);
      for (int c = 0; c < 2; ++c) {
        b->a[c] = r->p[i + 1][c] - T[i + 1] * d[i][c];
        b->t[c] = d[i][c];
      }
      const double n1[2] = {-d[i][1], d[i][0]};
      for (int c = 0; c < 2; ++c) b->c[c] = b->a[c] + r->radius * b->sign * n1[c];
      s += b->len;
    }
  }
  r->length = s;
  return 0;
}

/* The point, tangent and curvature of piece pc at u from its start (legs extend beyond). */
static void PieceEval(const PlRoute *r, const PlRoutePiece *pc, double u, double x[2], double t[2], double *kappa)
{
  if (!pc->arc) {
    for (int c = 0; c < 2; ++c) {
      x[c] = pc->a[c] + u * pc->t[c];
      t[c] = pc->t[c];
    }
    *kappa = 0.0;
    return;
  }
  const double ph = pc->sign * u / r->radius, cs = cos(ph), sn = sin(ph);
  const double v[2] = {pc->a[0] - pc->c[0], pc->a[1] - pc->c[1]};
  x[0] = pc->c[0] + cs * v[0] - sn * v[1];
  x[1] = pc->c[1] + sn * v[0] + cs * v[1];
  t[0] = cs * pc->t[0] - sn * pc->t[1];
  t[1] = sn * pc->t[0] + cs * pc->t[1];
  *kappa = pc->sign / r->radius;
}

void PlRouteEval(const PlRoute *r, double s, double x[2], double t[2], double *kappa)
{
  int k = 0;
  while (k + 1 < r->npieces && s >= r->piece[k + 1].s0) ++k;
  PieceEval(r, &r->piece[k], s - r->piece[k].s0, x, t, kappa);
}

void PlRouteProject(const PlRoute *r, const double x[2], double *station, double *offset)
{
  double best = INFINITY;
  *station = *offset = 0.0;
  for (int k = 0; k < r->npieces; ++k) {
    const PlRoutePiece *pc = &r->piece[k];
    double u;
    if (!pc->arc) {
      const double v[2] = {x[0] - pc->a[0], x[1] - pc->a[1]};
      u = Dot(v, pc->t);
      if (k > 0 && u < 0.0) u = 0.0; /* the first leg runs on before the start */
      if (k + 1 < r->npieces && u > pc->len) u = pc->len; /* the last beyond the end */
    } else {
      const double v0[2] = {pc->a[0] - pc->c[0], pc->a[1] - pc->c[1]}, v[2] = {x[0] - pc->c[0], x[1] - pc->c[1]};
      double ph = pc->sign * atan2(Cross(v0, v), Dot(v0, v));
      if (ph < 0.0) ph = 0.0;
      if (ph * r->radius > pc->len) ph = pc->len / r->radius;
      u = ph * r->radius;
    }
    double p[2], t[2], kap;
    PieceEval(r, pc, u, p, t, &kap);
    const double dist = hypot(x[0] - p[0], x[1] - p[1]);
    if (dist < best) {
      best = dist;
      *station = pc->s0 + u;
      const double w[2] = {x[0] - p[0], x[1] - p[1]};
      *offset = Cross(t, w); /* left of the tangent positive */
    }
  }
}
