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
