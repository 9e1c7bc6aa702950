/*
 * test_operability.c - the allowable significant wave height and the yearly fatigue damage of
 * pipelay operability (output/operability.c) on synthetic cases whose criteria are known
 * functions of Hs:
 *   - a monotone criterion, top tension T(Hs) = T0 + c Hs^2 against a limit, over Hs = 1..5 m:
 *     the tabulated allowable Hs is the largest row below the root Hs* = sqrt((L - T0)/c), the
 *     interpolated one is the secant's root between the rows around Hs*, both by hand;
 *   - two criteria: the one that crosses first governs; a heading with every Hs passing is not
 *     bounded (the largest Hs, a lower bound); a heading whose smallest Hs fails allows 0;
 *   - a run that did not complete fails its Hs and cannot be interpolated past;
 *   - the groups are per (Tp, heading) whatever the table's order, each case's group returned;
 *   - the least effective tension is a criterion from below (limit - value);
 *   - the damage per year is the hand sum of damage / window x occurrence x 365.25 days.
 */
#include <math.h>
#include <string.h>
#include "check.h"
#include "pipelay/output.h"

static PlOperLimits NoLimits(void)
{
  PlOperLimits L;
  for (int c = 0; c < PL_OPER_NCRIT; ++c) L.limit[c] = NAN;
  return L;
}

static PlOperCase Case(double hs, double tp, double heading, double top, double min_tension)
{
  PlOperCase k;
  memset(&k, 0, sizeof k);
  k.hs = hs, k.tp = tp, k.heading = heading, k.completed = 1;
  for (int c = 0; c < PL_OPER_NCRIT; ++c) k.value[c] = NAN;
  k.value[PL_OPER_TOP_TENSION] = top;
  k.value[PL_OPER_MIN_TENSION] = min_tension;
  return k;
}

/* T = 400 kN + 20 kN/m^2 Hs^2 against 700 kN: Hs* = sqrt(15) = 3.873 m; rows 1..5 m: the
 * tabulated allowable is 3 m, the secant between (3, 580 kN) and (4, 720 kN) crosses 700 kN at
 * 3 + 120/140 m. */
static void Monotone(void)
{
  PlOperLimits L = NoLimits();
  L.limit[PL_OPER_TOP_TENSION] = 700e3;
  PlOperCase cs[5];
  for (int i = 0; i < 5; ++i) cs[4 - i] = Case(i + 1.0, 8.0, 0.0, 400e3 + 20e3 * (i + 1.0) * (i + 1.0), 1e5);
  PlOperAllowable g[5];
  int group[5];
  const int ng = PlOperAllowableHs(&L, cs, 5, g, group);
  CHECK_TRUE(ng == 1, "one (Tp, heading): one group");
  CHECK_ABS(g[0].allowable_hs, 3.0, 0.0, "tabulated allowable Hs: the largest row below sqrt(15) m");
  CHECK_REL(g[0].allowable_hs_interpolated, 3.0 + 120.0 / 140.0, 1e-15, "the secant's root between 3 and 4 m");
  CHECK_TRUE(g[0].allowable_hs_interpolated <= sqrt(15.0), "a convex criterion's secant root lies below the true root");
  CHECK_ABS(g[0].hs_fail, 4.0, 0.0, "the first failing Hs");
  CHECK_TRUE(g[0].bounded && g[0].governing == PL_OPER_TOP_TENSION, "bounded, governed by the top tension");
  for (int i = 0; i < 5; ++i)
    CHECK_TRUE(PlOperCasePasses(&L, &cs[i]) == (cs[i].hs <= 3.0), "a case passes exactly up to 3 m");
}

/* Two criteria and three headings (rows shuffled): at 90 deg the least tension, 100 - 40 Hs^2 kN
 * against 0, crosses first (between 1 and 2 m: 1 + 60/120 = 1.5 m), before the top tension
 * (between 2 and 3 m); at 0 deg every Hs passes; at 180 deg the smallest Hs fails. */
static void Headings(void)
{
  PlOperLimits L = NoLimits();
  L.limit[PL_OPER_TOP_TENSION] = 500e3;
  L.limit[PL_OPER_MIN_TENSION] = 0.0;
  PlOperCase cs[9];
  int n = 0;
  for (int i = 3; i >= 1; --i) cs[n++] = Case(i, 8.0, 90.0, 400e3 + 15e3 * i * i, 100e3 - 40e3 * i * i);
  for (int i = 1; i <= 3; ++i) cs[n++] = Case(i, 8.0, 0.0, 400e3 + 1e3 * i, 100e3);
  for (int i = 1; i <= 3; ++i) cs[n++] = Case(i, 8.0, 180.0, 600e3, 100e3);
  PlOperAllowable g[9];
  int group[9];
  const int ng = PlOperAllowableHs(&L, cs, n, g, group);
  CHECK_TRUE(ng == 3, "three headings: three groups");
  CHECK_TRUE(g[0].heading == 0.0 && g[1].heading == 90.0 && g[2].heading == 180.0, "groups sorted by heading");
  CHECK_TRUE(group[0] == 1 && group[3] == 0 && group[8] == 2, "each case's group");
  CHECK_TRUE(!g[0].bounded && g[0].allowable_hs == 3.0 && g[0].allowable_hs_interpolated == 3.0 && g[0].governing == -1,
             "0 deg: every Hs passes, allowable the largest (a lower bound)");
  CHECK_ABS(g[1].allowable_hs, 1.0, 0.0, "90 deg: tabulated");
  CHECK_REL(g[1].allowable_hs_interpolated, 1.5, 1e-15, "90 deg: the least tension's crossing, limit - value linear");
  CHECK_TRUE(g[1].governing == PL_OPER_MIN_TENSION, "90 deg: governed by the least effective tension");
  CHECK_TRUE(g[2].bounded && g[2].allowable_hs == 0.0 && g[2].allowable_hs_interpolated == 0.0,
             "180 deg: the smallest Hs fails: allowable 0");
}

/* A run that did not complete at 2 m: fails there, no interpolation beyond the 1 m row. */
static void FailedRun(void)
{
  PlOperLimits L = NoLimits();
  L.limit[PL_OPER_TOP_TENSION] = 1e9;
  PlOperCase cs[3] = {Case(1, 10, 30, 1e5, 0), Case(2, 10, 30, 1e5, 0), Case(3, 10, 30, 1e5, 0)};
  cs[1].completed = 0;
  PlOperAllowable g[3];
  PlOperAllowableHs(&L, cs, 3, g, NULL);
  CHECK_TRUE(g[0].allowable_hs == 1.0 && g[0].allowable_hs_interpolated == 1.0 && g[0].governing == PL_OPER_NCRIT,
             "a failed run bounds the allowable Hs at the row below it, not interpolated");
}

/* sum damage_i / T_i x p_i x 31557600 s */
static void DamagePerYear(void)
{
  const double d[3] = {1e-6, 4e-6, 2e-5}, w[3] = {600.0, 600.0, 1200.0}, p[3] = {0.5, 0.3, 0.01};
  const double want = (1e-6 / 600 * 0.5 + 4e-6 / 600 * 0.3 + 2e-5 / 1200 * 0.01) * 365.25 * 86400;
  CHECK_REL(PlOperDamagePerYear(d, w, p, 3), want, 1e-15, "damage per year: the hand sum");
}

int main(void)
{
  Monotone();
  Headings();
  FailedRun();
  DamagePerYear();
  return pl_check_failures ? 1 : 0;
}
