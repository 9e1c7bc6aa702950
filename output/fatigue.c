/*
 * fatigue.c - the fatigue damage of a pipe wall under a dynamic run's tension and bending.
 *
 * Stress: the nominal axial stress at the outer fibre at angle theta around the circumference
 * (theta from the section's t2 axis towards t3; the fibre at r_o (cos theta t2 + sin theta t3)):
 *   sigma(theta) = N / A + (M2 sin theta - M3 cos theta) r_o / I,
 * A, I the steel wall's area and second moment (PlPipeAreaInertia), M2, M3 the internal bending
 * moments about t2, t3 (right-handed, t1 along the pipe): a moment M2 > 0 about t2 stretches the
 * fibres on the +t3 side (the strain of a fibre at p is (kappa x p) . t1 with kappa the curvature
 * vector: kappa_2 t2 x r_o sin theta t3 = kappa_2 r_o sin theta t1), a moment M3 > 0 about t3
 * compresses those on the +t2 side. Tension positive. The axial force N is the wall's: the
 * true-wall tension T_e + p_i A_i - p_e A_e (PlWallStressOf) of the effective tension the time
 * series give, with the pressures of a design: block at the point's depth; without a design:
 * block the effective tension (no pressure: the two are equal).
 *
 * Rainflow counting, ASTM E1049-85 (reapproved 2017) 5.4.4: the history is first reduced to its
 * reversals (peaks and valleys, the first and last samples included, repeated values merged);
 * then, with S the starting point (the first reversal) and the reversals read one by one:
 *   1. read the next reversal (none left: go to 6);
 *   2. with fewer than three points on the stack go to 1; X the range of the last two points,
 *      Y that of the two before;
 *   3. X < Y: go to 1;
 *   4. Y contains S: go to 5; else count Y as one cycle, discard both its points, go to 2;
 *   5. count Y as a half cycle, discard its first point (S moves to its second), go to 2;
 *   6. count every range left on the stack as a half cycle.
 *
 * S-N curves, DNV-RP-C203 (DNV GL, edition April 2016): log10 N = log10 a_i - m_i log10(Delta
 * sigma (t / t_ref)^k), t_ref = 25 mm, t = t_ref for thinner walls (section 2.4), two
 * slopes with the knee at 10^7 cycles in air (table 2-1) and 10^6 in seawater with cathodic
 * protection (table 2-2), one slope in free corrosion (table 2-4). The stress range is the
 * nominal one times the stress concentration factor. Values: the April 2016 tables as given in
 * fatpack's example "Defining DNVGL RP-C203 endurance curves" (github.com/Gunnstein/fatpack),
 * checked against each table's own fatigue limit at 10^7 cycles (tests/test_fatigue.c); curve D
 * in air also against a transcription of the October 2024 edition, which kept it; the free
 * corrosion values from fatpack alone. The thickness exponents k (table 2-1; the same taken in
 * the three environments) are not in fatpack: they agree with one public DNVGL-RP-C203 check
 * script (a code-search excerpt, 'k_exponent', air and seawater alike), a single source.
 *
 * Miner: D = sum n_i / N(Delta sigma_i) over the counted ranges (n_i = 1 or 1/2), per run; a run
 * that stands for fatigue.exposure seconds per year of its conditions does D exposure / T a
 * year (T the counted window), a life of 1 / that in years.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "pipelay/fatigue.h"
#include "pipelay/materials.h"
#include "pipelay/output.h"
#include "pipelay/results.h"
#include "output_impl.h"

static const double kThicknessRef = 0.025; /* t_ref [m] */

enum { kCurves = 14 };
/* per curve: m1, log a1 in air (table 2-1); log a1 in seawater with cathodic protection
 * (table 2-2, the same m1); log a2 (m2 = 5, both tables); k; m, log a in free corrosion
 * (table 2-4) */
static const double kTable[kCurves][7] = {
    {4.0, 15.117, 14.917, 17.146, 0.00, 3.0, 12.436}, /* B1 */
    {4.0, 14.885, 14.685, 16.856, 0.00, 3.0, 12.262}, /* B2 */
    {3.0, 12.592, 12.192, 16.320, 0.05, 3.0, 12.115}, /* C */
    {3.0, 12.449, 12.049, 16.081, 0.10, 3.0, 11.972}, /* C1 */
    {3.0, 12.301, 11.901, 15.835, 0.15, 3.0, 11.824}, /* C2 */
    {3.0, 12.164, 11.764, 15.606, 0.20, 3.0, 11.687}, /* D */
    {3.0, 12.010, 11.610, 15.350, 0.20, 3.0, 11.533}, /* E */
    {3.0, 11.855, 11.455, 15.091, 0.25, 3.0, 11.378}, /* F */
    {3.0, 11.699, 11.299, 14.832, 0.25, 3.0, 11.222}, /* F1 */
    {3.0, 11.546, 11.146, 14.576, 0.25, 3.0, 11.068}, /* F3 */
    {3.0, 11.398, 10.998, 14.330, 0.25, 3.0, 10.921}, /* G */
    {3.0, 11.261, 10.861, 14.101, 0.25, 3.0, 10.784}, /* W1 */
    {3.0, 11.107, 10.707, 13.845, 0.25, 3.0, 10.630}, /* W2 */
    {3.0, 10.970, 10.570, 13.617, 0.25, 3.0, 10.493}, /* W3 */
};

int PlSNCurveGet(int curve, PlSNEnvironment env, PlSNCurve *c)
{
  if (curve < 0 || curve >= kCurves || env < PL_SN_AIR || env > PL_SN_FREE_CORROSION) return 1;
  const double *r = kTable[curve];
  if (env == PL_SN_FREE_CORROSION)
    *c = (PlSNCurve){.m1 = r[5], .log_a1 = r[6], .m2 = 0.0, .log_a2 = 0.0, .n_knee = 0.0, .k = r[4]};
  else
    *c = (PlSNCurve){.m1 = r[0], .log_a1 = env == PL_SN_AIR ? r[1] : r[2], .m2 = 5.0, .log_a2 = r[3],
                     .n_knee = env == PL_SN_AIR ? 1e7 : 1e6, .k = r[4]};
  return 0;
}

double PlSNKneeStress(const PlSNCurve *c)
{
  if (!(c->m2 > 0.0) || !(c->n_knee > 0.0)) return NAN;
  return pow(10.0, (c->log_a1 - log10(c->n_knee)) / c->m1);
}

double PlSNCycles(const PlSNCurve *c, double s, double t, double scf)
{
  const double S = 1e-6 * scf * fabs(s) * pow(fmax(t, kThicknessRef) / kThicknessRef, c->k); /* [MPa] */
  if (!(S > 0.0)) return INFINITY;
  const double knee = PlSNKneeStress(c);
  if (isnan(knee) || S > knee) return pow(10.0, c->log_a1 - c->m1 * log10(S));
  return pow(10.0, c->log_a2 - c->m2 * log10(S));
}

double PlMinerDamage(const PlSNCurve *c, const double *range, const double *count, int n, double t, double scf)
{
  double D = 0.0;
  for (int i = 0; i < n; ++i) D += count[i] / PlSNCycles(c, range[i], t, scf);
  return D;
}

/* The reversals of x[0..n-1] into r (the first and last samples, and every sample where the
 * history turns; runs of equal values count once); their number. */
static int Reversals(const double *x, int n, double *r)
{
  int k = 0;
  for (int i = 0; i < n; ++i) {
    if (k > 0 && x[i] == r[k - 1]) continue;
    if (k >= 2 && (r[k - 1] - r[k - 2]) * (x[i] - r[k - 1]) > 0.0) r[k - 1] = x[i]; /* still rising or falling */
    else r[k++] = x[i];
  }
  return k;
}

int PlRainflow(const double *x, int n, double *range, double *count)
{
  double *s = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
  if (!s) return 0;
  const int nr = Reversals(x, n, s); /* the reversals, read back from s as the stack fills it */
  int top = 0, c = 0;
  for (int i = 0; i < nr; ++i) {
    s[top++] = s[i];
    while (top >= 3) {
      const double X = fabs(s[top - 1] - s[top - 2]), Y = fabs(s[top - 2] - s[top - 3]);
      if (X < Y) break;
      range[c] = Y;
      if (top == 3) { /* Y holds the starting point: a half cycle, S moves on */
        count[c++] = 0.5;
        s[0] = s[1], s[1] = s[2], top = 2;
      } else {
        count[c++] = 1.0;
        s[top - 3] = s[top - 1], top -= 2;
      }
    }
  }
  for (int i = 0; i + 1 < top; ++i) range[c] = fabs(s[i + 1] - s[i]), count[c++] = 0.5;
  free(s);
  return c;
}

double PlFibreStress(double N, double M2, double M3, double theta, double A, double I, double r_o)
{
  return N / A + (M2 * sin(theta) - M3 * cos(theta)) * r_o / I;
}

/* ---- a run's points ------------------------------------------------------------------------ */

/* The wall's axial force [N] from the effective tension Te at height z [m] of a point in
 * section sec: the true-wall tension with the design: block's pressures, else Te. */
static double WallAxialForce(const PlModel *m, const PlSection *sec, double Te, double z)
{
  if (!m->design.present) return Te;
  PlWallStress w;
  PlWallStressOf(sec->outer_diameter, sec->wall_thickness, Te, 0.0, 0.0,
                 PlInternalPressure(&m->design.pressure, sec->contents_density, m->gravity, z),
                 PlExternalPressure(m->water_density, m->gravity, z), &w);
  return w.true_wall_tension;
}

typedef struct {
  const PlModel *m;
  double t0;
  FILE *csv;
  double worst, worst_theta, worst_scf, duration;
  int worst_curve;
  char worst_file[PL_PATH_MAX];
} Pass;

/* A point's series from the window's start on: n samples over T seconds of the axial force N
 * and the bending moments M2, M3. */
typedef struct {
  int n;
  double T;
  const double *N, *M2, *M3;
} Series;

/* The damage at every angle of the point (file rel, name point, arc length S) in segment g (its
 * section, and its own S-N curve and SCF or the fatigue: block's): fatigue.csv's rows and the
 * largest so far. sig, rg, cnt: room for x->n values. */
static void AnglesDamage(Pass *P, const char *rel, const char *point, double S, const PlSegment *g, const Series *x,
                         double *sig, double *rg, double *cnt)
{
  const PlFatigueSettings *F = &P->m->fatigue;
  const PlSection *sec = &g->section;
  const double scf = g->scf > 0.0 ? g->scf : F->scf;
  const int ic = g->has_sn_curve ? g->sn_curve : F->sn_curve;
  PlSNCurve curve;
  if (PlSNCurveGet(ic, (PlSNEnvironment)F->environment, &curve)) return;
  double A, I;
  PlPipeAreaInertia(sec->outer_diameter, sec->wall_thickness, &A, &I);
  const double ro = 0.5 * sec->outer_diameter;
  for (int j = 0; j < F->angles; ++j) {
    const double th = 2.0 * M_PI * j / F->angles;
    for (int i = 0; i < x->n; ++i) sig[i] = PlFibreStress(x->N[i], x->M2[i], x->M3[i], th, A, I, ro);
    const int nc = PlRainflow(sig, x->n, rg, cnt);
    const double D = PlMinerDamage(&curve, rg, cnt, nc, sec->wall_thickness, scf);
    const double Dy = F->exposure > 0.0 && x->T > 0.0 ? D * F->exposure / x->T : NAN;
    fprintf(P->csv, "%s,%s,%.10g,%s,%.10g,%.10g,%.10g", rel, point, S, PlSNCurveNames[ic], scf, th * 180.0 / M_PI, D);
    PlCsvNumber(P->csv, Dy), PlCsvNumber(P->csv, Dy > 0.0 ? 1.0 / Dy : NAN);
    fputc('\n', P->csv);
    if (D > P->worst) {
      P->worst = D, P->worst_theta = th, P->worst_scf = scf, P->worst_curve = ic;
      snprintf(P->worst_file, sizeof P->worst_file, "%s", rel);
    }
  }
}

/* The damage around the circumference of the point whose series is dir/rel (skipped when it is
 * missing or lacks the columns). */
static void PointFatigue(Pass *P, const char *dir, const char *rel, const char *point, double S, const PlSegment *g)
{
  char path[PL_PATH_MAX + 512];
  snprintf(path, sizeof path, "%s/%s", dir, rel);
  PlTable tb;
  PlError err;
  if (PlTableRead(path, &tb, &err)) return;
  const int ct = PlTableColumn(&tb, "t_s"), cn = PlTableColumn(&tb, "effective_tension_N"),
            cz = PlTableColumn(&tb, "z_m"), c2 = PlTableColumn(&tb, "bending_moment_2_Nm"),
            c3 = PlTableColumn(&tb, "bending_moment_3_Nm");
  int i0 = 0;
  const double *t = ct >= 0 ? PlTableData(&tb, ct) : NULL;
  while (t && i0 < tb.nrows && t[i0] < P->t0) ++i0;
  const int n = tb.nrows - i0;
  const size_t size = sizeof(double) * (size_t)(n > 0 ? n : 1);
  double *sig = malloc(size), *rg = malloc(size), *cnt = malloc(size), *N = malloc(size);
  if (ct >= 0 && cn >= 0 && cz >= 0 && c2 >= 0 && c3 >= 0 && n >= 2 && sig && rg && cnt && N) {
    for (int i = 0; i < n; ++i)
      N[i] = WallAxialForce(P->m, &g->section, PlTableData(&tb, cn)[i0 + i], PlTableData(&tb, cz)[i0 + i]);
    const Series x = {.n = n, .T = t[tb.nrows - 1] - t[i0], .N = N, .M2 = PlTableData(&tb, c2) + i0,
                      .M3 = PlTableData(&tb, c3) + i0};
    if (x.T > P->duration) P->duration = x.T;
    AnglesDamage(P, rel, point, S, g, &x, sig, rg, cnt);
  }
  free(sig), free(rg), free(cnt), free(N);
  PlTableFree(&tb);
}

/* The points of a line of n segments seg and length L whose series are in folder (prefix of
 * their files' names relative to the run's folder, "" or "line_NAME/"): its ends and the output
 * points on it (line index l, -1 for a one-line model). */
static void LineFatigue(Pass *P, const char *dir, const char *prefix, const PlSegment *seg, int nseg, double L, int l)
{
  char rel[PL_PATH_MAX];
  for (int e = 0; e < 2; ++e) {
    snprintf(rel, sizeof rel, "%stimeseries_%s.csv", prefix, e ? "top" : "bottom");
    PointFatigue(P, dir, rel, e ? "top" : "bottom", e ? L : 0.0, PlSegmentAt(seg, nseg, e ? L : 0.0));
  }
  for (int k = 0; k < P->m->noutput_points; ++k) {
    const PlOutputPoint *op = &P->m->output_points[k];
    if (op->line != l) continue;
    snprintf(rel, sizeof rel, "%stimeseries_%s.csv", prefix, op->name);
    PointFatigue(P, dir, rel, op->name, op->arc_length, PlSegmentAt(seg, nseg, op->arc_length));
  }
}

/* summary.json's "fatigue" object of the pass. */
static cJSON *SummaryObject(const Pass *P)
{
  const PlFatigueSettings *F = &P->m->fatigue;
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "sn_curve", PlSNCurveNames[P->worst_curve]);
  cJSON_AddStringToObject(o, "environment", PlSNEnvironmentNames[F->environment]);
  cJSON_AddNumberToObject(o, "scf", P->worst_scf);
  cJSON_AddNumberToObject(o, "angles", F->angles);
  cJSON_AddNumberToObject(o, "start_s", P->t0);
  cJSON_AddNumberToObject(o, "duration_s", P->duration);
  cJSON_AddNumberToObject(o, "max_damage", P->worst);
  cJSON_AddStringToObject(o, "file", P->worst_file);
  cJSON_AddNumberToObject(o, "angle_deg", P->worst_theta * 180.0 / M_PI);
  const double Dy = F->exposure > 0.0 && P->duration > 0.0 ? P->worst * F->exposure / P->duration : NAN;
  cJSON_AddItemToObject(o, "exposure_s_per_year", F->exposure > 0.0 ? cJSON_CreateNumber(F->exposure) : cJSON_CreateNull());
  cJSON_AddItemToObject(o, "max_damage_per_year", isfinite(Dy) ? cJSON_CreateNumber(Dy) : cJSON_CreateNull());
  cJSON_AddItemToObject(o, "life_years", isfinite(Dy) && Dy > 0.0 ? cJSON_CreateNumber(1.0 / Dy) : cJSON_CreateNull());
  return o;
}

int PlRunFatigue(const PlModel *m, const char *dir, double t0, FILE *say, PlError *err)
{
  char path[PL_PATH_MAX + 64], tmp[PL_PATH_MAX + 80];
  Pass P = {.m = m, .t0 = t0, .worst_curve = m->fatigue.sn_curve, .worst_scf = m->fatigue.scf};
  P.csv = PlFileOpenAtomic(dir, "fatigue.csv", path, sizeof path, tmp, sizeof tmp, err);
  if (!P.csv) return PL_EXIT_IO;
  fprintf(P.csv, "# Miner damage of the nominal axial stress at the outer fibre (DNV-RP-C203 April 2016, %s; each "
                 "section's S-N curve and SCF) from t = %.10g s on; ", PlSNEnvironmentNames[m->fatigue.environment], t0);
  if (m->fatigue.exposure > 0.0) fprintf(P.csv, "per year and life with fatigue.exposure %.10g s/year\n", m->fatigue.exposure);
  else fputs("no fatigue.exposure: no damage per year or life\n", P.csv);
  fputs("file,point,arc_length_m,sn_curve,scf,angle_deg,damage,damage_per_year,life_years\n", P.csv);
  if (m->nlines > 0)
    for (int l = 0; l < m->nlines; ++l) {
      char prefix[PL_NAME_MAX + 8];
      snprintf(prefix, sizeof prefix, "line_%s/", m->lines[l].name);
      LineFatigue(&P, dir, prefix, m->lines[l].segments, m->lines[l].nsegments, m->lines[l].length, l);
    }
  else
    LineFatigue(&P, dir, "", m->segments, m->nsegments, m->length, -1);
  int rc = PlFileCommit(P.csv, ferror(P.csv), tmp, path, err);
  if (rc) return rc;
  cJSON *root = PlOutputSummaryRead(dir);
  if (!root) {
    snprintf(err->msg, sizeof err->msg, "%.900s/summary.json: cannot read the summary back to add the fatigue", dir);
    return PL_EXIT_IO;
  }
  cJSON *o = SummaryObject(&P);
  if (say) {
    cJSON *life = cJSON_GetObjectItemCaseSensitive(o, "life_years");
    fprintf(say, "  fatigue (DNV-RP-C203 %s, %s, SCF %.4g): largest damage %.4g at %s, angle %.4g deg", PlSNCurveNames[P.worst_curve],
            PlSNEnvironmentNames[m->fatigue.environment], P.worst_scf, P.worst, P.worst_file, P.worst_theta * 180.0 / M_PI);
    if (cJSON_IsNumber(life)) fprintf(say, ", life %.4g years", life->valuedouble);
    fputc('\n', say);
  }
  cJSON_DeleteItemFromObjectCaseSensitive(root, "fatigue");
  cJSON_AddItemToObject(root, "fatigue", o);
  rc = PlOutputSummaryWrite(dir, root, err);
  cJSON_Delete(root);
  return rc;
}
