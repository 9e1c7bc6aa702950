/*
 * operability.c - the operability of a set of sea states from their cases' extreme values
 * (pipelay operability, app/cmd_operability.c): each case's pass or failure against the
 * limits, the allowable significant wave height per peak period and heading, and the
 * occurrence-weighted fatigue damage per year. Pure functions (include/pipelay/output.h).
 *
 * Exceedance. Each criterion c has a limit L_c and an exceedance e_c that is > 0 exactly when
 * the case fails it: e = x - L for a largest value (utilisation, top tension, fibre strain),
 * e = L - x for a least one (effective tension). A case passes when every used criterion has
 * e <= 0 and its run reached its duration.
 *
 * Allowable Hs of a group of cases of one (Tp, heading), sorted by Hs: Hs_b the smallest Hs at
 * which some case fails (every seed and gamma of that Hs counts), Hs_a the largest Hs below it
 * (every case at or below Hs_a passes). The tabulated allowable Hs is Hs_a (0 when the smallest
 * Hs fails, the largest Hs of the group when none fails: then it is a lower bound, bounded = 0).
 * The interpolated one assumes each failing criterion's exceedance linear in Hs between Hs_a
 * and Hs_b (e_a <= 0 < e_b, each the worst over the cases at that Hs) and takes the first
 * crossing, min over c of Hs_a + (Hs_b - Hs_a) e_a / (e_a - e_b); it equals the tabulated value
 * when no crossing is defined (no Hs_a, or a run at Hs_b that did not complete).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "pipelay/output.h"

const char *const PlOperCriterionNames[PL_OPER_NCRIT] = {"max_utilisation", "max_top_tension_N",
                                                          "min_effective_tension_N", "max_fibre_strain"};

double PlOperExceedance(const PlOperLimits *L, int c, double value)
{
  const double lim = L->limit[c];
  if (isnan(lim)) return NAN;
  return c == PL_OPER_MIN_TENSION ? lim - value : value - lim;
}

int PlOperCasePasses(const PlOperLimits *L, const PlOperCase *k)
{
  if (!k->completed) return 0;
  for (int c = 0; c < PL_OPER_NCRIT; ++c) {
    const double e = PlOperExceedance(L, c, k->value[c]);
    if (!isnan(L->limit[c]) && !(e <= 0.0)) return 0; /* a NaN value of a used criterion fails */
  }
  return 1;
}

/* The worst exceedance of criterion c over the cases idx[a..b) (all of one Hs); a run that did
 * not complete gives +inf. */
static double WorstAt(const PlOperLimits *L, const PlOperCase *cs, const int *idx, int a, int b, int c)
{
  double w = -INFINITY;
  for (int i = a; i < b; ++i) {
    const double e = cs[idx[i]].completed ? PlOperExceedance(L, c, cs[idx[i]].value[c]) : INFINITY;
    w = isnan(e) ? INFINITY : fmax(w, e);
  }
  return w;
}

static const PlOperCase *g_sort_cases; /* qsort has no context argument in C11 */

/* by Tp, then heading, then Hs, then the table's order */
static int CompareCases(const void *pa, const void *pb)
{
  const int ia = *(const int *)pa, ib = *(const int *)pb;
  const PlOperCase *a = &g_sort_cases[ia], *b = &g_sort_cases[ib];
  if (a->tp != b->tp) return a->tp < b->tp ? -1 : 1;
  if (a->heading != b->heading) return a->heading < b->heading ? -1 : 1;
  if (a->hs != b->hs) return a->hs < b->hs ? -1 : 1;
  return ia < ib ? -1 : ia > ib;
}

/* The allowable Hs of the group idx[a..b) (one Tp and heading, sorted by Hs) into *g. */
static void GroupAllowable(const PlOperLimits *L, const PlOperCase *cs, const int *idx, int a, int b,
                           PlOperAllowable *g)
{
  g->tp = cs[idx[a]].tp;
  g->heading = cs[idx[a]].heading;
  g->allowable_hs = 0.0;
  g->hs_fail = NAN;
  g->governing = -1;
  g->bounded = 0;
  int pa = -1, pb = a; /* the last passing Hs's rows [pa, pb) */
  for (int i = a; i < b;) {
    int j = i;
    int pass = 1;
    while (j < b && cs[idx[j]].hs == cs[idx[i]].hs) pass &= PlOperCasePasses(L, &cs[idx[j++]]);
    if (!pass) {
      g->bounded = 1;
      g->hs_fail = cs[idx[i]].hs;
      double best = INFINITY, worst_ratio = -INFINITY;
      int complete = 1;
      for (int k = i; k < j; ++k) complete &= cs[idx[k]].completed;
      for (int c = 0; c < PL_OPER_NCRIT; ++c) {
        if (isnan(L->limit[c])) continue;
        const double eb = WorstAt(L, cs, idx, i, j, c);
        if (!(eb > 0.0)) continue;
        const double ratio = eb / fmax(fabs(L->limit[c]), 1e-300);
        if (pa >= 0 && complete && isfinite(eb)) {
          const double ea = WorstAt(L, cs, idx, pa, pb, c);
          const double ha = cs[idx[pa]].hs, hb = g->hs_fail;
          const double cross = ha + (hb - ha) * ea / (ea - eb);
          if (cross < best) best = cross, g->governing = c;
        } else if (isinf(best) && ratio > worst_ratio) worst_ratio = ratio, g->governing = c;
      }
      if (!complete) g->governing = PL_OPER_NCRIT;
      g->allowable_hs_interpolated = isfinite(best) ? best : g->allowable_hs;
      return;
    }
    g->allowable_hs = cs[idx[i]].hs;
    pa = i;
    pb = j;
    i = j;
  }
  g->allowable_hs_interpolated = g->allowable_hs;
}

int PlOperAllowableHs(const PlOperLimits *L, const PlOperCase *cases, int n, PlOperAllowable *out, int *group)
{
  int *idx = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
  if (!idx) return -1;
  for (int i = 0; i < n; ++i) idx[i] = i;
  g_sort_cases = cases;
  qsort(idx, (size_t)n, sizeof *idx, CompareCases);
  int ng = 0;
  for (int i = 0; i < n;) {
    int j = i;
    while (j < n && cases[idx[j]].tp == cases[idx[i]].tp && cases[idx[j]].heading == cases[idx[i]].heading) {
      if (group) group[idx[j]] = ng;
      ++j;
    }
    GroupAllowable(L, cases, idx, i, j, &out[ng++]);
    i = j;
  }
  free(idx);
  return ng;
}

double PlOperDamagePerYear(const double *damage, const double *window_s, const double *occurrence, int n)
{
  double sum = 0.0;
  for (int i = 0; i < n; ++i)
    if (window_s[i] > 0.0 && occurrence[i] > 0.0) sum += damage[i] / window_s[i] * occurrence[i] * PL_SECONDS_PER_YEAR;
  return sum;
}
