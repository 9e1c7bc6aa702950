/*
 * cmd_operability.c - pipelay operability: a model's dynamic run in each sea state of a table,
 * the criteria of each case, the allowable Hs per peak period and heading, the operability and
 * the fatigue damage per year.
 *
 *   pipelay operability FILE --sea-states TABLE [--set key.path=value]... [--output DIR]
 *                       [--quiet] [--no-plots] [PETSc options]
 *
 * TABLE is a CSV file (PlTableRead: a header naming the columns, '#' comments) with a row per
 * sea state: hs (m), tp (s), heading (deg, the direction the waves travel towards) and
 * optionally gamma, seed, and the occurrence as probability (a fraction of the year) or
 * hours_per_year. Each case is FILE's dynamic analysis from its own static start with the
 * model's waves.trains replaced by one JONSWAP train of the row (n_components and, without a
 * seed column, the seed from the model's operability: block; the waves: block's other keys,
 * e.g. ramp_time, stay the model's). The cases are dealt to the MPI ranks in turn (case i to
 * rank i mod K), each solved on its rank alone (PETSC_COMM_SELF), so that a case's result does
 * not depend on K or on which rank solves it; rank 0 writes the tables from the cases' files.
 *
 * Restart: a finished case leaves DIR/case_NNN/operability_case.json with its results and the
 * fingerprint of its model (a hash of the model as `pipelay info` describes it, the sea state's
 * train, design: and fatigue: included, and the fatigue window's start); a rerun skips every case whose file is
 * there with the same fingerprint and solves the others. The criteria's limits are not in the
 * fingerprint: changing them rewrites the tables without solving a case again.
 *
 * Writes into DIR (default: the model's output.directory followed by "_operability"):
 *   case_NNN/            the case's run (time series, summary.json, fatigue.csv, ...)
 *   cases.csv            a row per sea state: the sea state, whether the run completed, each
 *                        criterion's extreme, DNV's LCC validity ratio, the fatigue damage,
 *                        passes and operable
 *   allowable.csv        a row per (Tp, heading): the allowable Hs, tabulated and interpolated
 *                        (output/operability.c states the rule), the first failing Hs and the
 *                        criterion that governs
 *   operability.csv      with occurrences: per heading and in all, the occurrence, the operable
 *                        occurrence and its percentage
 *   fatigue_per_year.csv with occurrences and a fatigue: block: per fatigue point and angle the
 *                        damage per year, sum over the cases of damage / window x occurrence x
 *                        PL_SECONDS_PER_YEAR, and the life
 *   operability.json     the limits, counts, overall operability, the largest yearly damage
 *   plots/operability_polar.gp|png|svg   the allowable Hs against heading, one curve per Tp
 * Exit status: 0; 2 bad input; 3 a case's run did not complete (marked in the table); 4 a file
 * could not be written; 5 interrupted (the cases done stay for a rerun).
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <cjson/cJSON.h>
#include <petscsys.h>
#include "pipelay/solver.h"
#include "pipelay/output.h"
#include "pipelay/fatigue.h"
#include "commands.h"
#include "describe.h"

#define MAX_SETS 256
#define MAX_STATES 100000
#define CASE_FILE "operability_case.json"

static volatile sig_atomic_t g_oper_stop = 0;
static void OnSignal(int sig)
{
  (void)sig;
  g_oper_stop = 1;
}

static const char usage[] =
  "usage: pipelay operability FILE --sea-states TABLE [--set key.path=value]... [--output DIR]\n"
  "                           [--quiet] [--no-plots] [PETSc options]\n"
  "Runs FILE's dynamic analysis in each sea state of TABLE (CSV: hs, tp, heading and optionally\n"
  "gamma, seed, probability or hours_per_year), a JONSWAP train in place of the model's waves,\n"
  "each from its own static start; the cases are spread over the MPI ranks, and a rerun skips the\n"
  "cases already done. Checks each case against the operability: limits (and the DNV-ST-F101\n"
  "utilisation of design.dnv_f101); writes DIR/cases.csv, allowable.csv, operability.csv,\n"
  "fatigue_per_year.csv, operability.json and plots/operability_polar.png (DIR: output.directory +\n"
  "_operability). Exit status: 0 ok, 2 bad input, 3 a run did not complete, 4 output not written,\n"
  "5 interrupted.\n";

/* A row of the sea-state table. */
typedef struct {
  double hs, tp, heading, gamma; /* gamma NaN: DNV's rule from hs and tp */
  int seed;
  double occurrence;             /* fraction of the year; NaN: not given */
} SeaState;

/* What a case's run gives (operability_case.json). */
typedef struct {
  int done;                      /* solved now or found on disk */
  int completed;
  double value[PL_OPER_NCRIT];
  double lcc_axial_ratio;        /* max |S_Sd|/S_p (DNV's LCC needs < 0.4); NaN without dnv_f101 */
  double damage, window_s;       /* the largest fatigue damage and its window; NaN without fatigue: */
  double wall_s;
} CaseResult;

/* ---- the sea-state table ------------------------------------------------------------------ */

/* Line and column (1-based) in path of field c of data row r (the rows PlTableRead keeps: not
 * blank, not a '#' comment, after the header). */
static void FieldPlace(const char *path, int r, int c, int *line, int *col)
{
  *line = 0;
  *col = 1;
  FILE *f = fopen(path, "r");
  if (!f) return;
  char buf[8192];
  int kept = -1, ln = 0;
  while (fgets(buf, sizeof buf, f)) {
    ++ln;
    const char *p = buf + strspn(buf, " \t\r\n");
    if (!*p || *p == '#') continue;
    if (kept++ == r) {
      const char *q = buf;
      for (int k = 0; k < c && (q = strchr(q, ',')); ++k) ++q;
      *line = ln;
      *col = q ? (int)(q - buf) + 1 : 1;
      break;
    }
  }
  fclose(f);
}

/* The column named one of names (NULL-ended), or -1; a second name of the same quantity is an error. */
static int ColumnOf(const PlTable *t, const char *const *names, int *dup)
{
  int c = -1;
  for (int k = 0; names[k]; ++k) {
    const int j = PlTableColumn(t, names[k]);
    if (j >= 0 && c >= 0) *dup = 1;
    if (j >= 0) c = j;
  }
  return c;
}

/* Reads the sea states of path; 0 or PL_EXIT_BAD_INPUT with "PATH:LINE:COL: column: what" on stderr (rank 0). */
static int ReadSeaStates(const char *path, SeaState **out, int *n, int rank)
{
  static const char *const kHs[] = {"hs", "hs_m", NULL}, *const kTp[] = {"tp", "tp_s", NULL},
                           *const kHead[] = {"heading", "heading_deg", NULL}, *const kGamma[] = {"gamma", NULL},
                           *const kSeed[] = {"seed", NULL}, *const kProb[] = {"probability", NULL},
                           *const kHours[] = {"hours_per_year", NULL};
  PlTable t;
  PlError err;
  *out = NULL;
  *n = 0;
  if (PlTableRead(path, &t, &err)) {
    if (!rank) fprintf(stderr, "pipelay operability: --sea-states: %s\n", err.msg);
    return PL_EXIT_BAD_INPUT;
  }
  int dup = 0;
  const int ch = ColumnOf(&t, kHs, &dup), ct = ColumnOf(&t, kTp, &dup), cd = ColumnOf(&t, kHead, &dup),
            cg = ColumnOf(&t, kGamma, &dup), cs = ColumnOf(&t, kSeed, &dup), cp = ColumnOf(&t, kProb, &dup),
            cy = ColumnOf(&t, kHours, &dup);
  const char *what = NULL;
  if (ch < 0 || ct < 0 || cd < 0) what = "the columns hs, tp and heading are required";
  else if (dup) what = "a quantity is named twice (hs and hs_m, tp and tp_s, or heading and heading_deg)";
  else if (cp >= 0 && cy >= 0) what = "give the occurrence as probability or as hours_per_year, not both";
  else if (t.nrows < 1 || t.nrows > MAX_STATES) what = "1 to 100000 sea states are needed";
  if (what) {
    if (!rank) fprintf(stderr, "%s:1:1: %s\n", path, what);
    PlTableFree(&t);
    return PL_EXIT_BAD_INPUT;
  }
  SeaState *s = calloc((size_t)t.nrows, sizeof *s);
  if (!s) {
    PlTableFree(&t);
    return PL_EXIT_FAILURE;
  }
  int rc = 0;
  for (int r = 0; r < t.nrows && !rc; ++r) {
    const double hs = PlTableData(&t, ch)[r], tp = PlTableData(&t, ct)[r], hd = PlTableData(&t, cd)[r];
    const double g = cg >= 0 ? PlTableData(&t, cg)[r] : NAN, sd = cs >= 0 ? PlTableData(&t, cs)[r] : 0.0;
    const double p = cp >= 0 ? PlTableData(&t, cp)[r] : cy >= 0 ? PlTableData(&t, cy)[r] / 8766.0 : NAN;
    int bad = -1;
    const char *why = NULL;
    if (!(hs > 0.0) || !isfinite(hs)) bad = ch, why = "hs [m] must be a number > 0";
    else if (!(tp > 0.0) || !isfinite(tp)) bad = ct, why = "tp [s] must be a number > 0";
    else if (!(hd >= -360.0 && hd <= 360.0)) bad = cd, why = "heading [deg] must be a number from -360 to 360";
    else if (cg >= 0 && !(g > 0.0 && isfinite(g))) bad = cg, why = "gamma must be a number > 0";
    else if (cs >= 0 && !(sd >= 0.0 && sd <= 2147483647.0 && sd == floor(sd))) bad = cs, why = "seed must be an integer 0 to 2147483647";
    else if (cp >= 0 && !(p >= 0.0 && p <= 1.0)) bad = cp, why = "probability must be a fraction of the year, 0 to 1";
    else if (cy >= 0 && !(p >= 0.0 && p <= 1.0)) bad = cy, why = "hours_per_year must be 0 to 8766";
    if (why) {
      int line, col;
      FieldPlace(path, r, bad, &line, &col);
      if (!rank) fprintf(stderr, "%s:%d:%d: %s: '%s'\n", path, line, col, why, t.text[(size_t)bad * t.nrows + r]);
      rc = PL_EXIT_BAD_INPUT;
      break;
    }
    s[r] = (SeaState){hs, tp, hd, g, cs >= 0 ? (int)sd : -1, p};
  }
  *n = t.nrows;
  PlTableFree(&t);
  if (rc) {
    free(s);
    *n = 0;
    return rc;
  }
  double total = 0.0;
  for (int r = 0; r < *n; ++r) total += isnan(s[r].occurrence) ? 0.0 : s[r].occurrence;
  if (total > 1.0 + 1e-9) {
    if (!rank) fprintf(stderr, "%s:1:1: the occurrences add up to %.6g of the year, more than 1\n", path, total);
    free(s);
    return PL_EXIT_BAD_INPUT;
  }
  *out = s;
  return 0;
}

/* ---- one case ------------------------------------------------------------------------------ */

/* The override that replaces the model's wave trains by the sea state's JONSWAP train. */
static void TrainOverride(const SeaState *s, const PlOperabilitySettings *o, char *buf, size_t len)
{
  char gamma[64] = "";
  if (!isnan(s->gamma)) snprintf(gamma, sizeof gamma, ", gamma: %.17g", s->gamma);
  snprintf(buf, len, "waves.trains=[{kind: jonswap, hs: %.17g, tp: %.17g, heading: %.17g, seed: %d, n_components: %d%s}]",
           s->hs, s->tp, s->heading, s->seed, o->n_components, gamma);
}

/* 64-bit FNV-1a of text, as 16 hex digits. */
static void Hash(const char *text, size_t len, char out[17])
{
  uint64_t h = 14695981039346656037ULL;
  for (size_t i = 0; i < len; ++i) h = (h ^ (unsigned char)text[i]) * 1099511628211ULL;
  snprintf(out, 17, "%016llx", (unsigned long long)h);
}

/* The fingerprint of a case: the model as `pipelay info` describes it in full (a restart's
 * fingerprint mode leaves out the duration and the post-passes, design: and fatigue:, which a
 * case's results depend on), with the statistics' start (the fatigue window), hashed. */
static void Fingerprint(const PlModel *m, const PlMesh *mesh, char out[17])
{
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f) {
    snprintf(out, 17, "unknown");
    return;
  }
  PlDescribeModel(f, m, mesh, 0);
  fprintf(f, "statistics_start %.17g\n", m->statistics_start);
  fclose(f);
  Hash(text, len, out);
  free(text);
}

static double NumberOr(const cJSON *o, const char *key)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* case_dir's operability_case.json when its fingerprint is fp: 1 with r filled, else 0. */
static int ReadCase(const char *case_dir, const char *fp, CaseResult *r)
{
  char path[PL_PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/%s", case_dir, CASE_FILE);
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  char buf[8192];
  const size_t len = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[len] = '\0';
  cJSON *o = cJSON_Parse(buf);
  const cJSON *h = cJSON_GetObjectItemCaseSensitive(o, "fingerprint");
  int ok = cJSON_IsString(h) && (!fp || !strcmp(h->valuestring, fp));
  if (ok) {
    r->done = 1;
    r->completed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "completed"));
    for (int c = 0; c < PL_OPER_NCRIT; ++c) r->value[c] = NumberOr(o, PlOperCriterionNames[c]);
    r->lcc_axial_ratio = NumberOr(o, "max_lcc_axial_ratio");
    r->damage = NumberOr(o, "fatigue_max_damage");
    r->window_s = NumberOr(o, "fatigue_window_s");
    r->wall_s = NumberOr(o, "wall_time_s");
  }
  cJSON_Delete(o);
  return ok;
}

static void AddNum(cJSON *o, const char *key, double v)
{
  if (isfinite(v)) cJSON_AddNumberToObject(o, key, v);
  else cJSON_AddNullToObject(o, key);
}

static int WriteCase(const char *case_dir, const char *fp, const SeaState *s, const CaseResult *r, PlError *err)
{
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "fingerprint", fp);
  AddNum(o, "hs_m", s->hs);
  AddNum(o, "tp_s", s->tp);
  AddNum(o, "heading_deg", s->heading);
  cJSON_AddBoolToObject(o, "completed", r->completed);
  for (int c = 0; c < PL_OPER_NCRIT; ++c) AddNum(o, PlOperCriterionNames[c], r->value[c]);
  AddNum(o, "max_lcc_axial_ratio", r->lcc_axial_ratio);
  AddNum(o, "fatigue_max_damage", r->damage);
  AddNum(o, "fatigue_window_s", r->window_s);
  AddNum(o, "wall_time_s", r->wall_s);
  char *text = cJSON_Print(o);
  cJSON_Delete(o);
  char path[PL_PATH_MAX + 64], tmp[PL_PATH_MAX + 80];
  FILE *f = text ? PlFileOpenAtomic(case_dir, CASE_FILE, path, sizeof path, tmp, sizeof tmp, err) : NULL;
  if (f) fprintf(f, "%s\n", text);
  free(text);
  if (!f) return PL_EXIT_IO;
  return PlFileCommit(f, 0, tmp, path, err);
}

/* The case's fatigue: the largest damage and the window of summary.json's "fatigue". */
static void CaseFatigue(const char *case_dir, CaseResult *r)
{
  cJSON *root = PlOutputSummaryRead(case_dir);
  const cJSON *fat = cJSON_GetObjectItemCaseSensitive(root, "fatigue");
  r->damage = NumberOr(fat, "max_damage");
  r->window_s = NumberOr(fat, "duration_s");
  cJSON_Delete(root);
}

/* Solves the case of sea state s (or finds it done on disk): r filled, *status its exit
 * status; o: the model's operability: settings (the train's bins and seed). */
static PetscErrorCode RunCase(const char *file, int nsets, const char **sets, const PlOperabilitySettings *o,
                              const SeaState *s, const char *case_dir, CaseResult *r, int *skipped, int *status)
{
  char train[512], od[PL_PATH_MAX + 64], fp[17];
  const char *all[MAX_SETS + 2];
  PlModel m;
  PlError err;
  PetscFunctionBeginUser;
  *status = 0;
  *skipped = 0;
  memset(r, 0, sizeof *r);
  for (int c = 0; c < PL_OPER_NCRIT; ++c) r->value[c] = NAN;
  r->lcc_axial_ratio = r->damage = r->window_s = r->wall_s = NAN;
  for (int k = 0; k < nsets; ++k) all[k] = sets[k];
  snprintf(od, sizeof od, "output.directory=%s", case_dir);
  TrainOverride(s, o, train, sizeof train);
  all[nsets] = train;
  all[nsets + 1] = od;
  if (PlModelLoad(file, nsets + 2, all, &m, &err)) {
    fprintf(stderr, "pipelay operability: sea state Hs %.6g m, Tp %.6g s, heading %.6g deg: %s\n", s->hs, s->tp,
            s->heading, err.msg);
    *status = PL_EXIT_BAD_INPUT;
    PetscFunctionReturn(0);
  }
  memcpy(m.output_dir, case_dir, strlen(case_dir) + 1);
  PlProblem p;
  PetscCall(PlProblemCreate(PETSC_COMM_SELF, &m, &p));
  Fingerprint(&m, PlProblemMesh(p), fp);
  if (ReadCase(case_dir, fp, r)) {
    *skipped = 1;
    PetscCall(PlProblemDestroy(&p));
    PlModelFree(&m);
    PetscFunctionReturn(0);
  }
  const double wall0 = MPI_Wtime();
  PlProblemSetQuiet(p, 1);
  PlProblemSetStopFlag(p, &g_oper_stop);
  int wrc = PlMakeDirs(case_dir, &err);
  if (!wrc) wrc = PlOutputClean(case_dir, &err);
  char stale[PL_PATH_MAX + 64];
  snprintf(stale, sizeof stale, "%s/%s", case_dir, CASE_FILE);
  remove(stale); /* another model's results: not left beside this run's files if it stops */
  PlStaticReport rep;
  PlVesselStaticReport vrep;
  PlStaticSummary sum;
  PlStation *nodes = NULL, *els = NULL;
  int nn = 0, ne = 0;
  bool converged = false;
  if (!wrc) {
    PetscCall(PlStaticAnalysis(p, &rep, &vrep, &converged));
    PetscCall(PlProblemStations(p, &nodes, &nn, &els, &ne));
    PetscCall(PlStaticSummarize(p, nodes, nn, els, ne, &sum));
    wrc = PlWriteStaticResults(case_dir, &m, &rep, &sum, nodes, nn, els, ne, 1, nsets + 2, all, &err);
  }
  if (!wrc && converged) {
    PlDynamicRunOptions opt = {0};
    PlDynamicResult res;
    opt.quiet = 1;
    opt.noverrides = nsets + 2;
    opt.overrides = all;
    opt.stop = &g_oper_stop;
    PetscCall(PlDynamicRunToFiles(p, &rep, &sum, &opt, &res));
    r->completed = res.completed;
    r->value[PL_OPER_TOP_TENSION] = res.extrema.max_top_tension.value;
    r->value[PL_OPER_MIN_TENSION] = res.extrema.min_tension.value;
    r->value[PL_OPER_FIBRE_STRAIN] = res.extrema.max_fibre_strain.value;
    if (res.has_design && m.design.dnv.present) {
      r->value[PL_OPER_UTILISATION] = res.design.max_utilisation;
      r->lcc_axial_ratio = res.design.max_lcc_axial_ratio;
    }
    if (res.io_status) wrc = res.io_status, err = res.err;
    else if (res.interrupted) *status = PL_EXIT_INTERRUPTED;
    else if (!res.completed) {
      fprintf(stderr, "pipelay operability: %s: the run stopped at t = %.6g s: %s\n", case_dir, res.simulated_time_s,
              res.failure);
      *status = PL_EXIT_NOT_CONVERGED;
    }
    PlDynamicResultFree(&res);
    if (!wrc && res.completed && m.fatigue.present) {
      wrc = PlRunFatigue(&m, case_dir, m.statistics_start, NULL, &err);
      if (!wrc) CaseFatigue(case_dir, r);
    }
  } else if (!wrc) {
    *status = rep.interrupted ? PL_EXIT_INTERRUPTED : PL_EXIT_NOT_CONVERGED;
    if (!rep.interrupted)
      fprintf(stderr, "pipelay operability: %s: the static start did not converge:\n%s\n", case_dir,
              rep.converged ? vrep.failure : rep.failure);
  }
  r->wall_s = MPI_Wtime() - wall0;
  if (!wrc && *status != PL_EXIT_INTERRUPTED) {
    wrc = WriteCase(case_dir, fp, s, r, &err);
    r->done = !wrc;
  }
  if (wrc) {
    fprintf(stderr, "pipelay: %s\n", err.msg);
    *status = wrc;
  }
  free(nodes);
  free(els);
  PetscCall(PlProblemDestroy(&p));
  PlModelFree(&m);
  PetscFunctionReturn(0);
}

/* ---- the tables ---------------------------------------------------------------------------- */

static FILE *Open(const char *dir, const char *name, char *path, char *tmp, PlError *err)
{
  return PlFileOpenAtomic(dir, name, path, PL_PATH_MAX + 64, tmp, PL_PATH_MAX + 80, err);
}

/* A number of a CSV row (17 digits: the tables are compared bit for bit), empty when not finite. */
static void Num(FILE *f, double v)
{
  if (isfinite(v)) fprintf(f, ",%.17g", v);
  else fputc(',', f);
}

static int WriteCases(const char *dir, const SeaState *s, const CaseResult *r, const PlOperCase *oc, const int *group,
                      const PlOperAllowable *ga, const PlOperLimits *L, int n, PlError *err)
{
  char path[PL_PATH_MAX + 64], tmp[PL_PATH_MAX + 80];
  FILE *f = Open(dir, "cases.csv", path, tmp, err);
  if (!f) return PL_EXIT_IO;
  fputs("case,hs_m,tp_s,heading_deg,gamma,seed,occurrence,done,completed", f);
  for (int c = 0; c < PL_OPER_NCRIT; ++c) fprintf(f, ",%s", PlOperCriterionNames[c]);
  fputs(",max_lcc_axial_ratio,lcc_valid,fatigue_damage,fatigue_window_s,fatigue_damage_per_year,passes,operable\n", f);
  for (int i = 0; i < n; ++i) {
    fprintf(f, "%d", i);
    Num(f, s[i].hs);
    Num(f, s[i].tp);
    Num(f, s[i].heading);
    Num(f, s[i].gamma);
    fprintf(f, ",%d", s[i].seed);
    Num(f, s[i].occurrence);
    fprintf(f, ",%d,%d", r[i].done, r[i].completed);
    for (int c = 0; c < PL_OPER_NCRIT; ++c) Num(f, r[i].value[c]);
    Num(f, r[i].lcc_axial_ratio);
    if (isnan(r[i].lcc_axial_ratio)) fputc(',', f);
    else fprintf(f, ",%d", r[i].lcc_axial_ratio < 0.4);
    Num(f, r[i].damage);
    Num(f, r[i].window_s);
    Num(f, PlOperDamagePerYear(&r[i].damage, &r[i].window_s, &s[i].occurrence, 1) *
             (isnan(s[i].occurrence) || isnan(r[i].damage) ? NAN : 1.0));
    const int pass = r[i].done && PlOperCasePasses(L, &oc[i]);
    fprintf(f, ",%d,%d\n", pass, pass && s[i].hs <= ga[group[i]].allowable_hs);
  }
  return PlFileCommit(f, 0, tmp, path, err);
}

static const char *GoverningName(int g)
{
  return g < 0 ? "" : g == PL_OPER_NCRIT ? "run_failed" : PlOperCriterionNames[g];
}

static int WriteAllowable(const char *dir, const PlOperAllowable *ga, int ng, PlError *err)
{
  char path[PL_PATH_MAX + 64], tmp[PL_PATH_MAX + 80];
  FILE *f = Open(dir, "allowable.csv", path, tmp, err);
  if (!f) return PL_EXIT_IO;
  fputs("tp_s,heading_deg,allowable_hs_m,allowable_hs_interpolated_m,first_failing_hs_m,bounded,governing\n", f);
  for (int g = 0; g < ng; ++g) {
    fprintf(f, "%.17g", ga[g].tp);
    Num(f, ga[g].heading);
    Num(f, ga[g].allowable_hs);
    Num(f, ga[g].allowable_hs_interpolated);
    Num(f, ga[g].hs_fail);
    fprintf(f, ",%d,%s\n", ga[g].bounded, GoverningName(ga[g].governing));
  }
  return PlFileCommit(f, 0, tmp, path, err);
}

/* operability.csv: per heading (in the order of the groups) and in all; *percent the whole's. */
static int WriteOperability(const char *dir, const SeaState *s, const int *operable, int n, double *percent,
                            PlError *err)
{
  char path[PL_PATH_MAX + 64], tmp[PL_PATH_MAX + 80];
  FILE *f = Open(dir, "operability.csv", path, tmp, err);
  if (!f) return PL_EXIT_IO;
  fputs("heading_deg,occurrence,operable_occurrence,operability_percent\n", f);
  double *seen = malloc(sizeof(double) * (size_t)n);
  int nseen = 0;
  double tot = 0.0, ok = 0.0;
  for (int i = 0; seen && i < n; ++i) {
    int k = 0;
    while (k < nseen && seen[k] != s[i].heading) ++k;
    if (k < nseen) continue;
    seen[nseen++] = s[i].heading;
    double t = 0.0, o = 0.0;
    for (int j = i; j < n; ++j)
      if (s[j].heading == s[i].heading && !isnan(s[j].occurrence)) {
        t += s[j].occurrence;
        o += operable[j] ? s[j].occurrence : 0.0;
      }
    tot += t;
    ok += o;
    fprintf(f, "%.17g,%.17g,%.17g", s[i].heading, t, o);
    Num(f, t > 0.0 ? 100.0 * o / t : NAN);
    fputc('\n', f);
  }
  *percent = tot > 0.0 ? 100.0 * ok / tot : NAN;
  fprintf(f, "all,%.17g,%.17g", tot, ok);
  Num(f, *percent);
  fputc('\n', f);
  const int bad = !seen;
  free(seen);
  return PlFileCommit(f, bad, tmp, path, err);
}

/* fatigue_per_year.csv: each fatigue point and angle's damage per year summed over the
 * completed cases (their fatigue.csv rows, which one model gives alike in every case);
 * *max the largest, *where its row's point and angle. */
static int WriteFatigueYear(const char *dir, const SeaState *s, const CaseResult *r, int n, double *max,
                            char *where, size_t wlen, PlError *err)
{
  PlTable *t = calloc((size_t)n, sizeof *t);
  double *d = malloc(sizeof(double) * (size_t)n), *w = malloc(sizeof(double) * (size_t)n),
         *o = malloc(sizeof(double) * (size_t)n);
  int rc = t && d && w && o ? 0 : PL_EXIT_FAILURE, ref = -1;
  *max = NAN;
  for (int i = 0; !rc && i < n; ++i) {
    if (!r[i].done || !r[i].completed || isnan(s[i].occurrence)) continue;
    char path[PL_PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/case_%03d/fatigue.csv", dir, i);
    if ((rc = PlTableRead(path, &t[i], err))) break;
    if (ref < 0) ref = i;
    else if (t[i].nrows != t[ref].nrows || t[i].ncols != t[ref].ncols) {
      snprintf(err->msg, sizeof err->msg, "%.900s: its rows are not those of case_%03d's fatigue.csv", path, ref);
      rc = PL_EXIT_BAD_INPUT;
    }
  }
  const int cd = ref >= 0 ? PlTableColumn(&t[ref], "damage") : -1;
  if (!rc && ref >= 0 && cd < 0) {
    snprintf(err->msg, sizeof err->msg, "%.900s/case_%03d/fatigue.csv has no damage column", dir, ref);
    rc = PL_EXIT_BAD_INPUT;
  }
  char path[PL_PATH_MAX + 64], tmp[PL_PATH_MAX + 80];
  FILE *f = !rc && ref >= 0 ? Open(dir, "fatigue_per_year.csv", path, tmp, err) : NULL;
  if (!rc && ref >= 0 && !f) rc = PL_EXIT_IO;
  if (f) {
    const int cf = PlTableColumn(&t[ref], "file"), cp = PlTableColumn(&t[ref], "point"),
              cs = PlTableColumn(&t[ref], "arc_length_m"), ca = PlTableColumn(&t[ref], "angle_deg");
    fputs("file,point,arc_length_m,angle_deg,damage_per_year,life_years\n", f);
    for (int row = 0; row < t[ref].nrows; ++row) {
      int m = 0;
      for (int i = 0; i < n; ++i)
        if (t[i].nrows) {
          d[m] = PlTableData(&t[i], cd)[row];
          w[m] = r[i].window_s;
          o[m++] = s[i].occurrence;
        }
      const double dy = PlOperDamagePerYear(d, w, o, m);
      const char *file = cf >= 0 ? t[ref].text[(size_t)cf * t[ref].nrows + row] : "";
      const char *point = cp >= 0 ? t[ref].text[(size_t)cp * t[ref].nrows + row] : "";
      const double S = cs >= 0 ? PlTableData(&t[ref], cs)[row] : NAN, a = ca >= 0 ? PlTableData(&t[ref], ca)[row] : NAN;
      fprintf(f, "%s,%s", file, point);
      Num(f, S);
      Num(f, a);
      Num(f, dy);
      Num(f, dy > 0.0 ? 1.0 / dy : NAN);
      fputc('\n', f);
      if (isnan(*max) || dy > *max) {
        *max = dy;
        snprintf(where, wlen, "%s at S = %.6g m, angle %.6g deg", point, S, a);
      }
    }
    rc = PlFileCommit(f, 0, tmp, path, err);
  }
  for (int i = 0; t && i < n; ++i) PlTableFree(&t[i]);
  free(t);
  free(d);
  free(w);
  free(o);
  return rc;
}

/* operability.json: the model, the limits, the counts and the answers. */
static int WriteJson(const char *dir, const char *file, const PlOperLimits *L, int n, int ndone, int ncompleted,
                     int nskipped, int nlcc, double percent, double fat_max, const char *fat_where, double wall,
                     int ranks, PlError *err)
{
  cJSON *root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "model_file", file);
  cJSON *lim = cJSON_AddObjectToObject(root, "limits");
  for (int c = 0; c < PL_OPER_NCRIT; ++c) AddNum(lim, PlOperCriterionNames[c], L->limit[c]);
  cJSON_AddNumberToObject(root, "cases", n);
  cJSON_AddNumberToObject(root, "done", ndone);
  cJSON_AddNumberToObject(root, "completed", ncompleted);
  cJSON_AddNumberToObject(root, "skipped_as_done", nskipped);
  cJSON_AddNumberToObject(root, "lcc_validity_exceeded", nlcc);
  AddNum(root, "operability_percent", percent);
  AddNum(root, "max_fatigue_damage_per_year", fat_max);
  if (fat_where[0]) cJSON_AddStringToObject(root, "max_fatigue_damage_per_year_at", fat_where);
  AddNum(root, "wall_time_s", wall);
  cJSON_AddNumberToObject(root, "mpi_ranks", ranks);
  char *text = cJSON_Print(root);
  cJSON_Delete(root);
  char path[PL_PATH_MAX + 64], tmp[PL_PATH_MAX + 80];
  FILE *f = text ? Open(dir, "operability.json", path, tmp, err) : NULL;
  if (f) fprintf(f, "%s\n", text);
  free(text);
  if (!f) return PL_EXIT_IO;
  return PlFileCommit(f, 0, tmp, path, err);
}

/* The limits of model m: its operability: block's, the DNV utilisation's 1 by default with
 * design.dnv_f101. 0, or -1 when m has no criterion at all. */
static int LimitsOf(const PlModel *m, PlOperLimits *L)
{
  L->limit[PL_OPER_UTILISATION] = m->operability.max_utilisation;
  L->limit[PL_OPER_TOP_TENSION] = m->operability.max_top_tension;
  L->limit[PL_OPER_MIN_TENSION] = m->operability.min_effective_tension;
  L->limit[PL_OPER_FIBRE_STRAIN] = m->operability.max_fibre_strain;
  if (m->design.dnv.present && isnan(L->limit[PL_OPER_UTILISATION])) L->limit[PL_OPER_UTILISATION] = 1.0;
  for (int c = 0; c < PL_OPER_NCRIT; ++c)
    if (!isnan(L->limit[c])) return 0;
  return -1;
}

/* Checks FILE as an operability model: 0, or PL_EXIT_BAD_INPUT with a message (rank 0). */
static int CheckModel(const char *file, int nsets, const char **sets, const char *out, char *dir, size_t dlen,
                      PlOperLimits *L, PlOperabilitySettings *o, int rank)
{
  PlModel m;
  PlError err;
  if (PlModelLoad(file, nsets, sets, &m, &err)) {
    if (!rank) fprintf(stderr, "%s\n", err.msg);
    return PL_EXIT_BAD_INPUT;
  }
  for (int k = 0; !rank && k < m.nwarnings; ++k) fprintf(stderr, "%s\n", m.warnings[k]);
  const char *why = NULL;
  if (m.analysis.kind != PL_ANALYSIS_DYNAMIC) why = "analysis.type must be dynamic (each sea state is a dynamic run)";
  else if (m.nlines > 0 || m.rigid_body) why = "operability runs a model of one line (line:, with or without vessel:)";
  else if (LimitsOf(&m, L))
    why = "no criterion: give an operability: block with limits (max_top_tension, min_effective_tension, "
          "max_fibre_strain, max_utilisation) or design.dnv_f101";
  if (why && !rank) fprintf(stderr, "pipelay operability: %s: %s\n", file, why);
  *o = m.operability;
  if (out) snprintf(dir, dlen, "%s", out);
  else if (snprintf(dir, dlen, "%s_operability", m.output_dir) >= (int)dlen) dir[0] = '\0';
  PlModelFree(&m);
  if (!why && !dir[0]) {
    if (!rank) fprintf(stderr, "pipelay operability: the output directory's name is too long\n");
    return PL_EXIT_BAD_INPUT;
  }
  return why ? PL_EXIT_BAD_INPUT : 0;
}

/* Rank 0: every table, the plot and the console's summary from the cases' results r[n]. */
static int WriteResults(const char *dir, const char *file, const SeaState *s, const CaseResult *r, int n,
                        const PlOperLimits *L, int nskipped, double wall, int ranks, int quiet, int no_plots)
{
  PlError err;
  PlOperCase *oc = calloc((size_t)n, sizeof *oc);
  PlOperAllowable *ga = calloc((size_t)n, sizeof *ga);
  int *group = calloc((size_t)n, sizeof *group), *operable = calloc((size_t)n, sizeof *operable);
  if (!oc || !ga || !group || !operable) {
    free(oc), free(ga), free(group), free(operable);
    fprintf(stderr, "pipelay operability: out of memory\n");
    return PL_EXIT_FAILURE;
  }
  int ndone = 0, ncomp = 0, nlcc = 0, has_occ = 0;
  for (int i = 0; i < n; ++i) {
    oc[i] = (PlOperCase){s[i].hs, s[i].tp, s[i].heading, r[i].done && r[i].completed, {0}};
    memcpy(oc[i].value, r[i].value, sizeof oc[i].value);
    ndone += r[i].done;
    ncomp += r[i].done && r[i].completed;
    nlcc += r[i].lcc_axial_ratio >= 0.4;
    has_occ |= !isnan(s[i].occurrence);
  }
  const int ng = PlOperAllowableHs(L, oc, n, ga, group);
  for (int i = 0; i < n; ++i) operable[i] = r[i].done && PlOperCasePasses(L, &oc[i]) && s[i].hs <= ga[group[i]].allowable_hs;
  int rc = WriteCases(dir, s, r, oc, group, ga, L, n, &err);
  if (!rc) rc = WriteAllowable(dir, ga, ng, &err);
  double percent = NAN, fat_max = NAN;
  char fat_where[256] = "";
  if (!rc && has_occ) rc = WriteOperability(dir, s, operable, n, &percent, &err);
  int has_fat = 0;
  for (int i = 0; i < n; ++i) has_fat |= !isnan(r[i].damage);
  if (!rc && has_occ && has_fat) rc = WriteFatigueYear(dir, s, r, n, &fat_max, fat_where, sizeof fat_where, &err);
  if (!rc)
    rc = WriteJson(dir, file, L, n, ndone, ncomp, nskipped, nlcc, percent, fat_max, fat_where, wall, ranks, &err);
  if (rc) fprintf(stderr, "pipelay: %s\n", err.msg);
  if (!rc && !no_plots) {
    PlPlotOptions po;
    PlPlotOptionsDefault(&po);
    snprintf(po.name, sizeof po.name, "%.200s", file);
    PlPlotOperability(dir, &po);
  }
  if (nlcc)
    fprintf(stderr, "pipelay operability: warning: %d case(s) exceed DNV-ST-F101's LCC validity |S_Sd|/S_p < 0.4 "
                    "(cases.csv: lcc_valid 0); their utilisation is outside the criterion's range\n", nlcc);
  if (!quiet) {
    printf("pipelay operability: %d sea states, %d done (%d found done on disk), %d completed, MPI ranks %d, %.1f s\n",
           n, ndone, nskipped, ncomp, ranks, wall);
    for (int g = 0; g < ng; ++g)
      printf("  Tp %6.3g s, heading %7.2f deg: allowable Hs %.3g m (interpolated %.4g m)%s%s\n", ga[g].tp,
             ga[g].heading, ga[g].allowable_hs, ga[g].allowable_hs_interpolated,
             ga[g].bounded ? ", governed by " : ", every Hs passes", GoverningName(ga[g].governing));
    if (!isnan(percent)) printf("  operable %.2f %% of the occurrence\n", percent);
    if (!isnan(fat_max)) printf("  fatigue: largest damage %.4g per year (life %.4g years), %s\n", fat_max,
                                1.0 / fat_max, fat_where);
    printf("  results in %s/ (cases.csv, allowable.csv%s%s, operability.json%s)\n", dir,
           has_occ ? ", operability.csv" : "", !isnan(fat_max) ? ", fatigue_per_year.csv" : "",
           no_plots ? "" : ", plots/");
  }
  free(oc), free(ga), free(group), free(operable);
  return rc;
}

/* Waits for every rank to finish its cases, polling every 20 ms: a rank that is done does not
 * spin in a collective, taking a core from the ranks still solving. */
static void WaitForRanks(void)
{
  MPI_Request req;
  int done = 0;
  MPI_Ibarrier(PETSC_COMM_WORLD, &req);
  for (;;) {
    MPI_Test(&req, &done, MPI_STATUS_IGNORE);
    if (done) return;
    nanosleep(&(struct timespec){0, 20000000}, NULL);
  }
}

int PlCmdOperability(int argc, char **argv)
{
  PetscMPIInt rank, size;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  const char *file = NULL, *table = NULL, *out = NULL, *sets[MAX_SETS];
  int nsets = 0, quiet = 0, no_plots = 0;
  for (int i = 2; i < argc; ++i) {
    int petsc;
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      if (!rank) fputs(usage, stdout);
      return 0;
    } else if (!strcmp(argv[i], "--sea-states") || !strcmp(argv[i], "--set") || !strcmp(argv[i], "--output")) {
      if (i + 1 >= argc) {
        if (!rank) fprintf(stderr, "pipelay operability: %s needs a value\n%s", argv[i], usage);
        return PL_EXIT_BAD_INPUT;
      }
      if (!strcmp(argv[i], "--sea-states")) table = argv[++i];
      else if (argv[i][2] == 'o') out = argv[++i];
      else if (nsets == MAX_SETS) {
        if (!rank) fprintf(stderr, "pipelay operability: more than %d --set options\n", MAX_SETS);
        return PL_EXIT_BAD_INPUT;
      } else sets[nsets++] = argv[++i];
    } else if (!strcmp(argv[i], "--quiet")) quiet = 1;
    else if (!strcmp(argv[i], "--no-plots")) no_plots = 1;
    else if ((petsc = PlArgPetscOption(argc, argv, &i, "pipelay operability", rank)) < 0 || (!petsc && file)) {
      if (!petsc && !rank) fprintf(stderr, "pipelay operability: unknown argument '%s'\n%s", argv[i], usage);
      return PL_EXIT_BAD_INPUT;
    } else if (!petsc) file = argv[i];
  }
  if (!file || !table) {
    if (!rank) fprintf(stderr, "pipelay operability: %s\n%s", file ? "--sea-states TABLE is required" : "no model FILE", usage);
    return PL_EXIT_BAD_INPUT;
  }
  char dir[PL_PATH_MAX];
  PlOperLimits L;
  PlOperabilitySettings oset = {0};
  int rc = CheckModel(file, nsets, sets, out, dir, sizeof dir, &L, &oset, rank);
  SeaState *s = NULL;
  int n = 0;
  if (!rc) rc = ReadSeaStates(table, &s, &n, rank);
  for (int i = 0; !rc && i < n; ++i)
    if (s[i].seed < 0) s[i].seed = oset.seed; /* no seed column: the operability: block's */
  if (!rc && !rank) {
    PlError err;
    if ((rc = PlMakeDirs(dir, &err))) fprintf(stderr, "pipelay: %s\n", err.msg);
  }
  MPI_Bcast(&rc, 1, MPI_INT, 0, PETSC_COMM_WORLD);
  CaseResult *r = rc ? NULL : calloc((size_t)n, sizeof *r);
  if (rc || !r) {
    free(s);
    return rc ? rc : PL_EXIT_FAILURE;
  }
  const double wall0 = MPI_Wtime();
  signal(SIGINT, OnSignal);
  signal(SIGTERM, OnSignal);
  int worst = 0, nskipped = 0;
  for (int i = rank; i < n && !g_oper_stop; i += size) {
    char case_dir[PL_PATH_MAX + 32];
    snprintf(case_dir, sizeof case_dir, "%s/case_%03d", dir, i);
    int st = 0, skipped = 0;
    if (RunCase(file, nsets, sets, &oset, &s[i], case_dir, &r[i], &skipped, &st)) st = PL_EXIT_FAILURE;
    nskipped += skipped;
    if (st == PL_EXIT_INTERRUPTED) break;
    if (st > worst) worst = st;
    if (!quiet && size == 1)
      printf("  case %3d: Hs %6.3g m, Tp %6.3g s, heading %7.2f deg: %s%s, utilisation %.4g, top tension %.6g kN, "
             "min tension %.6g kN, fibre strain %.4g\n", i, s[i].hs, s[i].tp, s[i].heading,
             r[i].completed ? "completed" : "NOT COMPLETED", skipped ? " (done before)" : "",
             r[i].value[PL_OPER_UTILISATION], r[i].value[PL_OPER_TOP_TENSION] / 1e3,
             r[i].value[PL_OPER_MIN_TENSION] / 1e3, r[i].value[PL_OPER_FIBRE_STRAIN]);
    fflush(stdout);
  }
  WaitForRanks();
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  int interrupted = g_oper_stop ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &interrupted, 1, MPI_INT, MPI_MAX, PETSC_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPI_INT, MPI_MAX, PETSC_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &nskipped, 1, MPI_INT, MPI_SUM, PETSC_COMM_WORLD);
  /* which cases are done: each by its rank; rank 0 then reads their results from their files
   * (written with every digit), the same whichever rank solved them */
  int *done = calloc((size_t)n, sizeof *done);
  for (int i = rank; done && i < n; i += size) done[i] = r[i].done;
  if (done) MPI_Allreduce(MPI_IN_PLACE, done, n, MPI_INT, MPI_MAX, PETSC_COMM_WORLD);
  if (!done) rc = PL_EXIT_FAILURE;
  if (!rc && !rank) {
    for (int i = 0; i < n; ++i) {
      char case_dir[PL_PATH_MAX + 32];
      snprintf(case_dir, sizeof case_dir, "%s/case_%03d", dir, i);
      memset(&r[i], 0, sizeof r[i]);
      for (int c = 0; c < PL_OPER_NCRIT; ++c) r[i].value[c] = NAN;
      r[i].lcc_axial_ratio = r[i].damage = r[i].window_s = r[i].wall_s = NAN;
      if (done[i]) ReadCase(case_dir, NULL, &r[i]);
    }
    rc = WriteResults(dir, file, s, r, n, &L, nskipped, MPI_Wtime() - wall0, size, quiet, no_plots);
    if (interrupted)
      fprintf(stderr, "pipelay operability: interrupted; the cases done are kept in %s/ and a rerun continues\n", dir);
  }
  if (!rc) rc = interrupted ? PL_EXIT_INTERRUPTED : worst;
  MPI_Bcast(&rc, 1, MPI_INT, 0, PETSC_COMM_WORLD);
  free(done);
  free(r);
  free(s);
  return rc;
}
