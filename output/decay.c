/*
 * decay.c - natural periods and damping ratios from a free decay (pipelay decay).
 *
 * A free decay x(t) of a lightly damped mode swings between alternating extremes e_0, e_1,
 * e_2, ... at times t_0, t_1, ...: a local maximum or minimum of the samples, refined by the
 * parabola through the sample and its two neighbours (its vertex; exact to O(dt^3) for a
 * smooth signal). The swings s_k = |e_k - e_(k-1)| (k >= 1) do not depend on the mean about
 * which x oscillates; for a linear oscillator with damping ratio zeta and damped period T_d,
 * swings a period apart fall by exp(-delta), the logarithmic decrement
 *   delta = 2 pi zeta / sqrt(1 - zeta^2)   (zeta = delta / sqrt(4 pi^2 + delta^2)),
 * and extremes of the same kind lie T_d apart. Cycle j (from extreme j, j >= 0, while
 * extreme j + 3 exists) reports
 *   t_j, the period t_(j+2) - t_j, the amplitude s_(j+1)/2 (half the swing after t_j), and
 *   zeta_j = delta_j / sqrt(4 pi^2 + delta_j^2), delta_j = ln(s_(j+1) / s_(j+3)),
 * so that zeta against amplitude shows how the damping depends on the motion (quadratic drag
 * damps large swings more). Extremes are kept only while the swing exceeds 1e-4 of the
 * largest swing (below it the mode has died out, or what is left is noise); consecutive
 * extremes of the same kind (noise) keep the more extreme one. An extreme counts only once
 * the signal has left it: a sample equal to its predecessor continues a plateau, and a
 * plateau that lasts to the end of the record (a record that stops on a repeated value) is no
 * extreme, so an unfinished last cycle is not counted.
 *
 * Whether the extremes are a decay at all (PlDecayFit): the logarithm of the swings, half a
 * period apart, is fitted by least squares with a straight line in k,
 *   ln s_k = a - (delta/2) k,
 * whose delta is the decrement per period of the whole record and se its standard error
 * (2 sqrt(SSR / ((m - 2) S_kk)) of the m swings). The swings decay when delta > 2 pi 1e-4 (a
 * damping ratio above 1e-4: below it they do not measurably fall, as a sine's) and delta > 3 se
 * (the fall is not lost in the scatter of the swings about the line: swings that grow and fall
 * without a trend, a beat or a forced response, are not a decay).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "pipelay/output.h"

static const double kTwoPi = 6.28318530717958647692;

/* The vertex of the parabola through (t[i-1..i+1], x[i-1..i+1]), when it lies between the
 * neighbours; else the sample itself. */
static void Vertex(const double *t, const double *x, int i, double *tv, double *xv)
{
  const double h1 = t[i] - t[i - 1], h2 = t[i + 1] - t[i];
  *tv = t[i];
  *xv = x[i];
  if (!(h1 > 0.0 && h2 > 0.0)) return; /* (a repeated time) */
  const double d1 = (x[i] - x[i - 1]) / h1, d2 = (x[i + 1] - x[i]) / h2;
  const double a = (d2 - d1) / (h1 + h2); /* x'' / 2 */
  if (a == 0.0) return;
  const double b = d1 + a * h1; /* the slope at t[i] */
  const double dt = -b / (2.0 * a);
  if (dt > -h1 && dt < h2) {
    *tv = t[i] + dt;
    *xv = x[i] + b * dt + a * dt * dt;
  }
}

int PlDecayAnalyse(const double *t, const double *x, int n, PlDecayCycle *cycles, int max_cycles,
                   PlDecayExtreme *ext, int max_ext, int *next)
{
  *next = 0;
  if (n < 3) return 0;
  /* the extremes (alternating), refined */
  int ne = 0;
  for (int i = 1; i + 1 < n && ne < max_ext; ++i) {
    if (x[i] == x[i - 1]) continue; /* a plateau: judged at its first sample */
    int j = i + 1;                  /* the first sample that leaves x[i] */
    while (j < n && x[j] == x[i]) ++j;
    if (j == n) break; /* the record ends before the signal leaves x[i] */
    const int kind = x[i] > x[i - 1] && x[j] < x[i] ? 1 : x[i] < x[i - 1] && x[j] > x[i] ? -1 : 0;
    if (!kind) continue;
    double tv, xv;
    Vertex(t, x, i, &tv, &xv);
    if (ne > 0 && ext[ne - 1].kind == kind) { /* same kind again: keep the more extreme */
      if ((kind > 0 && xv > ext[ne - 1].x) || (kind < 0 && xv < ext[ne - 1].x)) {
        ext[ne - 1].t = tv;
        ext[ne - 1].x = xv;
      }
      continue;
    }
    ext[ne].t = tv;
    ext[ne].x = xv;
    ext[ne].kind = kind;
    ++ne;
  }
  /* keep them while the swing exceeds 1e-4 of the largest */
  double smax = 0.0;
  for (int k = 1; k < ne; ++k) smax = fmax(smax, fabs(ext[k].x - ext[k - 1].x));
  int keep = ne > 0 ? 1 : 0;
  while (keep < ne && fabs(ext[keep].x - ext[keep - 1].x) > 1e-4 * smax) ++keep;
  ne = keep;
  *next = ne;
  int nc = 0;
  for (int j = 0; j + 3 < ne && nc < max_cycles; ++j) {
    const double s1 = fabs(ext[j + 1].x - ext[j].x), s3 = fabs(ext[j + 3].x - ext[j + 2].x);
    PlDecayCycle *c = &cycles[nc++];
    c->t = ext[j].t;
    c->period = ext[j + 2].t - ext[j].t;
    c->amplitude = 0.5 * s1;
    const double delta = s3 > 0.0 ? log(s1 / s3) : NAN;
    c->damping_ratio = delta / sqrt(kTwoPi * kTwoPi + delta * delta);
  }
  return nc;
}

void PlDecayFitSwings(const PlDecayExtreme *ext, int next, PlDecayFit *fit)
{
  /* the swings s_k (k = 1 .. next - 1) and the least-squares line through (k, ln s_k) */
  const int m = next - 1;
  fit->log_decrement = NAN;
  fit->log_decrement_se = NAN;
  fit->decays = 0;
  if (m < 3) return;
  double km = 0.0, lm = 0.0;
  for (int k = 1; k <= m; ++k) {
    const double s = fabs(ext[k].x - ext[k - 1].x);
    if (!(s > 0.0)) return;
    km += (double)k / m;
    lm += log(s) / m;
  }
  double skk = 0.0, skl = 0.0;
  for (int k = 1; k <= m; ++k) {
    const double l = log(fabs(ext[k].x - ext[k - 1].x));
    skk += (k - km) * (k - km);
    skl += (k - km) * (l - lm);
  }
  const double b = skl / skk;
  double ssr = 0.0;
  for (int k = 1; k <= m; ++k) {
    const double r = log(fabs(ext[k].x - ext[k - 1].x)) - lm - b * (k - km);
    ssr += r * r;
  }
  fit->log_decrement = -2.0 * b;
  fit->log_decrement_se = m > 2 ? 2.0 * sqrt(ssr / ((m - 2) * skk)) : INFINITY;
  fit->decays = fit->log_decrement > kTwoPi * 1e-4 && fit->log_decrement > 3.0 * fit->log_decrement_se;
}
