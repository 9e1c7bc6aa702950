/*
 * catenary.c - the natural catenary of an inextensible line on a rigid flat seabed.
 *
 * A line of submerged weight w hangs from a top point h above its touchdown point, where
 * it meets the seabed tangentially; H is the (constant) horizontal tension, a = H/w:
 *   z(x) = a (cosh(x/a) - 1),  s(x) = a sinh(x/a)
 *   suspended length s = sqrt(h^2 + 2 a h), horizontal span x = a asinh(s/a),
 *   top angle tan(beta) = s/a,  top tension T = H + w h.
 * Used for the initial guess of a static solve; the tests derive their own references.
 */
#include <math.h>
#include "pipelay/models.h"

void PlCatenarySolve(double H, double w, double h, PlCatenary *c)
{
  c->a = H / w;
  c->suspended_length = sqrt(h * h + 2.0 * c->a * h);
  c->horizontal_span = c->a * asinh(c->suspended_length / c->a);
  c->top_angle_rad = atan2(c->suspended_length, c->a);
  c->top_tension = H + w * h;
}

/* Total horizontal distance from the anchor (line laid along the seabed) to the top:
 * (L - s) + x. It decreases monotonically from L (H -> infinity... see below) as H falls:
 * d/dH [(L - s) + x] > 0 for the laid configuration, so bisection on H is safe. */
static double SpanOf(double L, double w, double h, double H)
{
  PlCatenary c;
  PlCatenarySolve(H, w, h, &c);
  return (L - c.suspended_length) + c.horizontal_span;
}

int PlCatenaryForSpan(double L, double w, double h, double span, PlCatenary *c)
{
  if (!(w > 0.0) || !(h > 0.0) || !(L > h)) return -1;
  /* Largest H with the line still touching down: s(H) = L, i.e. h^2 + 2 a h = L^2. */
  const double Hmax = w * (L * L - h * h) / (2.0 * h);
  double lo = 1e-9 * Hmax, hi = Hmax;
  if (span < SpanOf(L, w, h, lo) || span > SpanOf(L, w, h, hi)) return -1;
  for (int it = 0; it < 200 && hi - lo > 1e-12 * Hmax; ++it) {
    const double mid = 0.5 * (lo + hi);
    if (SpanOf(L, w, h, mid) < span) lo = mid;
    else hi = mid;
  }
  PlCatenarySolve(0.5 * (lo + hi), w, h, c);
  return 0;
}

/* ==== the elastic catenary of a line of several sections ==================================
 * A line of sections i (unstretched length L_i, submerged weight w_i [N/m], any sign, and
 * axial stiffness EA_i) hangs in a vertical plane from its bottom end A (s = 0) to its top
 * end B (s = L), with no bending stiffness and no horizontal load along it. Then the
 * horizontal tension H >= 0 is constant and the vertical one is
 *    V(s) = V0 + W(s),   W(s) = integral of w from 0 to s,   T = sqrt(H^2 + V^2),
 * and with the stretched tangent (1 + T/EA) (H, V)/T the position follows by
 *    dx/ds = H/T + H/EA,      dz/ds = V/T + V/EA.
 * Per section, V is linear in s (V_b = V_a + w ds), which integrates in closed form:
 *    dx = (H/w) [asinh(V_b/H) - asinh(V_a/H)] + H ds/EA
 *    dz = (T_b - T_a)/w + (V_a + V_b) ds/(2 EA)  = ds (V_a + V_b)/(T_a + T_b) + ...
 * (the second form of dz has no cancellation as w -> 0; for dx the difference of the asinh
 * is taken as asinh((b - a)(b + a)/(b sqrt(1 + a^2) + a sqrt(1 + b^2))) when a, b = V/H have
 * one sign). H = 0: the line is vertical, dz = |V| ... see Shape.
 * Seabed (A lies on it): where V0 < 0 the part of the line from A up to the point where the
 * weight has raised V to 0 lies on the seabed, straight, with tension H (stretched by H/EA),
 * and the rest hangs from there with V = V0 + W(s) >= 0 (MAP++/MoorDyn's treatment, without
 * friction). */

/* asinh(b) - asinh(a) without cancellation */
static double AsinhDiff(double a, double b)
{
  if (a * b > 0.0) {
    const double den = b * sqrt(1.0 + a * a) + a * sqrt(1.0 + b * b);
    return asinh((b - a) * (b + a) / den);
  }
  return asinh(b) - asinh(a);
}

/* Position (x, z) relative to A at arc length s of a hanging piece with vertical force Va
 * at its start, weight w, stiffness EA, length ds. */
static void Piece(double H, double Va, double w, double EA, double ds, double *dx, double *dz)
{
  const double Vb = Va + w * ds;
  if (H <= 0.0) { /* vertical: dz/ds = sign(V) (1 + |V|/EA) */
    *dx = 0.0;
    if (Va >= 0.0 && Vb >= 0.0) *dz = ds * (1.0 + 0.5 * (Va + Vb) / EA);
    else if (Va <= 0.0 && Vb <= 0.0) *dz = -ds * (1.0 - 0.5 * (Va + Vb) / EA);
    else { /* V changes sign at s0 = -Va/w */
      const double s0 = -Va / w;
      *dz = (Va > 0.0 ? 1.0 : -1.0) * s0 * (1.0 + 0.5 * fabs(Va) / EA) +
            (Vb > 0.0 ? 1.0 : -1.0) * (ds - s0) * (1.0 + 0.5 * fabs(Vb) / EA);
    }
    return;
  }
  const double Ta = hypot(H, Va), Tb = hypot(H, Vb);
  const double small = fabs(w * ds) <= 1e-10 * (H + fabs(Va));
  *dx = (small ? ds * H / (0.5 * (Ta + Tb)) : (H / w) * AsinhDiff(Va / H, Vb / H)) + H * ds / EA;
  *dz = ds * (Va + Vb) / (Ta + Tb) + 0.5 * (Va + Vb) * ds / EA;
}

void PlElasticCatenaryPoint(const PlElasticCatenary *c, double H, double V0, double s, double *x, double *z,
                            double *beta)
{
  double X = 0.0, Z = 0.0, sa = 0.0, V = V0;
  double laid = 0.0;
  if (c->on_seabed && V0 < 0.0) { /* the laid length: where V0 + W(s) reaches 0 */
    double Wacc = 0.0, s0 = 0.0;
    laid = c->length;
    for (int i = 0; i < c->nsections; ++i) {
      const double w = c->w[i], Li = c->L[i];
      if (w > 0.0 && V0 + Wacc + w * Li >= 0.0) {
        laid = s0 + (-(V0 + Wacc)) / w;
        break;
      }
      Wacc += w * Li;
      s0 += Li;
    }
  }
  for (int i = 0; i < c->nsections && sa < s; ++i) {
    const double Li = c->L[i], sb = fmin(sa + Li, s);
    double from = sa;
    if (laid > from) { /* on the seabed: straight, tension H */
      const double to = fmin(laid, sb);
      X += (to - from) * (1.0 + H / c->EA[i]);
      V += c->w[i] * (to - from);
      from = to;
    }
    if (sb > from) {
      double dx, dz;
      if (from >= laid && laid > 0.0 && V < 0.0) V = 0.0; /* round-off at touchdown */
      Piece(H, V, c->w[i], c->EA[i], sb - from, &dx, &dz);
      X += dx;
      Z += dz;
      V += c->w[i] * (sb - from);
    }
    sa += Li;
  }
  *x = X;
  *z = Z;
  if (beta) *beta = s < laid ? 0.0 : atan2(V, H);
}

/* The top end's height for (H, V0). */
static double TopZ(const PlElasticCatenary *c, double H, double V0)
{
  double x, z;
  PlElasticCatenaryPoint(c, H, V0, c->length, &x, &z, NULL);
  return z;
}

static double TopX(const PlElasticCatenary *c, double H, double V0)
{
  double x, z;
  PlElasticCatenaryPoint(c, H, V0, c->length, &x, &z, NULL);
  return x;
}

/* V0 with z(L) = h at horizontal tension H (z(L) increases with V0); -1 if not bracketed. */
static int SolveV0(const PlElasticCatenary *c, double H, double h, double *V0)
{
  double Wabs = 0.0;
  for (int i = 0; i < c->nsections; ++i) Wabs += fabs(c->w[i]) * c->L[i];
  double lo = -Wabs - H - 1.0, hi = Wabs + H + 1.0;
  for (int k = 0; k < 200 && TopZ(c, H, lo) > h; ++k) lo *= 2.0;
  for (int k = 0; k < 200 && TopZ(c, H, hi) < h; ++k) hi *= 2.0;
  if (!(TopZ(c, H, lo) <= h && TopZ(c, H, hi) >= h)) return -1;
  for (int it = 0; it < 200 && hi - lo > 1e-13 * (fabs(lo) + fabs(hi)); ++it) {
    const double mid = 0.5 * (lo + hi);
    if (TopZ(c, H, mid) < h) lo = mid;
    else hi = mid;
  }
  *V0 = 0.5 * (lo + hi);
  return 0;
}

int PlElasticCatenarySolve(const PlElasticCatenary *c, int mode, double span, double h, double *H, double *V0)
{
  double Wabs = 0.0, EAmin = INFINITY;
  for (int i = 0; i < c->nsections; ++i) {
    Wabs += fabs(c->w[i]) * c->L[i];
    EAmin = fmin(EAmin, c->EA[i]);
  }
  switch (mode) {
  case PL_CATENARY_GIVEN: return 0;
  case PL_CATENARY_SPAN_HEIGHT: /* H and V0 from span and height */
  case PL_CATENARY_SPAN_FREE_TOP: { /* H from the span, V0 given */
    if (span <= 1e-9 * c->length) {
      *H = 0.0;
      return mode == PL_CATENARY_SPAN_HEIGHT ? SolveV0(c, 0.0, h, V0) : 0;
    }
    double v = *V0;
    double lo = 0.0, hi = fmax(Wabs, 1.0);
    for (int k = 0; k < 200; ++k) {
      if (mode == PL_CATENARY_SPAN_HEIGHT && SolveV0(c, hi, h, &v)) return -1;
      if (TopX(c, hi, v) >= span) break;
      lo = hi;
      hi *= 2.0;
      if (hi > 1e3 * EAmin) return -1;
    }
    for (int it = 0; it < 200 && hi - lo > 1e-13 * hi; ++it) {
      const double mid = 0.5 * (lo + hi);
      if (mode == PL_CATENARY_SPAN_HEIGHT && SolveV0(c, mid, h, &v)) return -1;
      if (TopX(c, mid, v) < span) lo = mid;
      else hi = mid;
    }
    *H = 0.5 * (lo + hi);
    if (mode == PL_CATENARY_SPAN_HEIGHT) return SolveV0(c, *H, h, V0);
    return 0;
  }
  case PL_CATENARY_HEIGHT: /* V0 from the height, H given */
    return SolveV0(c, *H, h, V0);
  default: return -1;
  }
}
