/*
 * cmd_sweep.c - pipelay sweep: static solves over a range of one model value.
 *
 *   pipelay sweep FILE --vary KEY=START:STOP:COUNT | --vary KEY=V1,V2,... [--vary KEY2=...]...
 *                 [--set key.path=value]... [--output DIR] [--quiet] [--no-plots] [PETSc options]
 *
 * KEY is any override path of --set (e.g. ends.top.force[0], line.sections[0].wall_thickness,
 * environment.water_depth); START:STOP:COUNT gives COUNT values evenly spaced from START to
 * STOP (either direction). Each case is the static analysis `pipelay run` solves
 * (PlStaticAnalysis: with a vessel, the vessel's equilibrium with the line). The cases are solved in order, each started from the static shape
 * of the last converged case (natural-parameter continuation: --start-from the neighbour's
 * folder, mapped onto the case's own mesh), every --set applied to all. With K MPI ranks the
 * cases are split into K contiguous blocks, each continued on its own rank (PETSC_COMM_SELF);
 * rank 0 writes the table, which is the same as one rank's to the solver's tolerance.
 *
 * Several --vary keys make a load-case matrix: every combination of their values (the full
 * factorial), numbered with the last key varying fastest (keys of n_0 .. n_{K-1} values: case
 * i = (..(j_0 n_1 + j_1) n_2 + ..) n_{K-1} + j_{K-1} has value j_k of key k). Each row of the
 * last key is continued as a one-key sweep of it is, from the model's own start at its first
 * value, so that a case of the matrix is solved exactly as in the one-key sweep of the last key
 * with the other keys given by --set (the test sweep_matrix). sweep.csv's first columns are then
 * the keys, named by their paths, in place of "value"; sweep.json names each case by its
 * values; a matrix draws no plots (the one-key sweep's are against its one value).
 *
 * Writes into DIR (default: the model's output.directory followed by "_sweep"):
 *   case_000/ ...           each case's static results (static.csv, static_elements.csv,
 *                           summary.json)
 *   sweep.csv, sweep.json   one row per case: the value, converged, the strategy, Newton
 *                           iterations, wall time and every quantity of the static summary
 *   plots/sweep_*.gp|png|svg  top tension, hang-off angle, layback, largest bending moment and
 *                           largest fibre strain against the value
 * A model of several lines (lines:, points:, bodies:) is swept the same way, each case solved
 * by the system's statics (PlSystemStatics) from the model's own start, and its table has per
 * body its pose (NAME_x_m .. NAME_yaw_deg), per free point its position and per line its end
 * tensions (NAME_bottom_tension_N, NAME_top_tension_N); case_NNN/ holds the case's
 * summary.json. Varying a body's load bodies[i].environment_load.force[c] (c = 0, 1, 2: x, y,
 * z) gives the mooring system's offset-restoring curve, and the table then has
 * restoring_stiffness_N_per_m, dF/dx_c of that body by differences between neighbouring
 * cases (central inside, one-sided at the ends), plotted against the offset.
 * Exit status: 0; 2 bad input; 3 some case did not converge (marked in the table, the next
 * case started from the last converged one); 4 a file could not be written; 5 interrupted
 * (the table of the cases done is written).
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include <petscsys.h>
#include "pipelay/solver.h"
#include "pipelay/output.h"
#include "commands.h"

#define MAX_CASES 10000
#define MAX_SETS 256
#define MAX_KEYS 8 /* --vary keys of a matrix */

/* The columns of sweep.csv (and the keys of sweep.json's rows), one place. */
enum {
  C_VALUE, C_CONVERGED, C_PTC, C_NEWTON, C_WALL, C_TOP_T, C_TOP_H, C_ANGLE, C_LAYBACK, C_TD, C_MAXM, C_MAXM_S,
  C_EPS_AX, C_EPS_FIB, C_MAXT, C_MAXK, NCOL
};
static const char *const kCol[NCOL] = {
  "value", "converged", "pseudo_transient", "newton_iterations", "wall_time_s", "top_tension_N",
  "top_horizontal_tension_N", "hang_off_angle_deg", "layback_m", "touchdown_arc_length_m", "max_bending_moment_Nm",
  "max_bending_moment_arc_length_m", "max_axial_strain", "max_fibre_strain", "max_effective_tension_N",
  "max_curvature_1pm"};

static volatile sig_atomic_t g_sweep_stop = 0;
static void OnSignal(int sig)
{
  (void)sig;
  g_sweep_stop = 1;
}

static const char usage[] =
  "usage: pipelay sweep FILE --vary KEY=START:STOP:COUNT [--set key.path=value]... [--output DIR]\n"
  "                          [--quiet] [--no-plots] [PETSc options]\n"
  "       pipelay sweep FILE --vary KEY=V1,V2,... [--vary KEY2=...]... ...\n"
  "Solves the static analysis of FILE for each value of KEY (any --set path, e.g.\n"
  "ends.top.force[0]), each case started from the last converged one; several --vary keys give\n"
  "every combination of their values (a matrix, the last key varying fastest); writes\n"
  "DIR/case_NNN/, DIR/sweep.csv, DIR/sweep.json and DIR/plots/sweep_*.png (one key; DIR:\n"
  "output.directory + _sweep).\n"
  "Exit status: 0 ok, 2 bad input, 3 a case did not converge, 4 output not written, 5 interrupted.\n";

/* Parses SPEC into values; 0 or -1 with a message. */
static int ParseValues(const char *spec, double *v, int *n, char *msg, size_t len)
{
  char *end;
  *n = 0;
  if (strchr(spec, ':')) {
    const double a = strtod(spec, &end);
    if (end == spec || *end != ':') goto bad;
    const char *p = end + 1;
    const double b = strtod(p, &end);
    if (end == p || *end != ':') goto bad;
    p = end + 1;
    const long c = strtol(p, &end, 10);
    if (end == p || *end || c < 1 || c > MAX_CASES || !isfinite(a) || !isfinite(b)) goto bad;
    for (long k = 0; k < c; ++k) v[(*n)++] = c == 1 ? a : a + (b - a) * (double)k / (double)(c - 1);
    return 0;
  }
  const char *p = spec;
  for (;;) {
    const double x = strtod(p, &end);
    if (end == p || !isfinite(x) || *n == MAX_CASES) goto bad;
    v[(*n)++] = x;
    if (!*end) return 0;
    if (*end != ',') goto bad;
    p = end + 1;
  }
bad:
  snprintf(msg, len, "--vary: '%s' is not START:STOP:COUNT (COUNT 1 to %d) or a list V1,V2,... of finite numbers",
           spec, MAX_CASES);
  return -1;
}

/* The load-case matrix of the --vary keys (one key: a one-key sweep). */
typedef struct {
  int nkeys, ncases;
  char key[MAX_KEYS][512];
  int nvalues[MAX_KEYS];
  double *values[MAX_KEYS]; /* [nvalues[k]] */
} Matrix;

/* The index of case i's value of each key (the last key fastest). */
static void CaseIndices(const Matrix *x, int i, int *j)
{
  for (int k = x->nkeys - 1; k >= 0; --k) {
    j[k] = i % x->nvalues[k];
    i /= x->nvalues[k];
  }
}

/* Case i's overrides "KEY=VALUE" (ov[k], the value to 17 digits) and its name for messages and
 * sweep.json ("KEY = VALUE, ..." to 10 digits). 0, or -1 when a key does not fit. */
static int CaseOverrides(const Matrix *x, int i, char (*ov)[PL_PATH_MAX + 64], char *name, size_t len)
{
  int j[MAX_KEYS];
  size_t used = 0;
  CaseIndices(x, i, j);
  for (int k = 0; k < x->nkeys; ++k) {
    const double v = x->values[k][j[k]];
    if (snprintf(ov[k], sizeof ov[k], "%s=%.17g", x->key[k], v) >= (int)sizeof ov[k]) return -1;
    const int w = snprintf(name + used, len - used, "%s%s = %.10g", k ? ", " : "", x->key[k], v);
    if (w < 0 || (size_t)w >= len - used) return -1;
    used += (size_t)w;
  }
  return 0;
}

/* One case: load with the overrides ovs[nov] (named name in messages), solve from prev_dir
 * (NULL: the model's start shape), write its folder, fill row's columns from C_CONVERGED on
 * (the caller fills the varied values). Returns the exit status of the case (0, 2, 3, 4, 5). */
static PetscErrorCode RunCase(const char *file, int nsets, const char **sets, int nov, const char *const *ovs,
                              const char *name, const char *case_dir, const char *prev_dir, int quiet, double *row,
                              int *status)
{
  char od[PL_PATH_MAX + 32];
  const char *all[MAX_SETS + MAX_KEYS + 1];
  PlModel m;
  PlError err;
  PetscFunctionBeginUser;
  *status = 0;
  for (int k = C_CONVERGED; k < NCOL; ++k) row[k] = NAN;
  row[C_CONVERGED] = 0;
  for (int k = 0; k < nsets; ++k) all[k] = sets[k];
  if (snprintf(od, sizeof od, "output.directory=%s", case_dir) >= (int)sizeof od) {
    fprintf(stderr, "pipelay sweep: the output directory is too long\n");
    *status = PL_EXIT_BAD_INPUT;
    PetscFunctionReturn(0);
  }
  for (int k = 0; k < nov; ++k) all[nsets + k] = ovs[k];
  all[nsets + nov] = od;
  if (PlModelLoad(file, nsets + nov + 1, all, &m, &err)) {
    fprintf(stderr, "%s\n", err.msg);
    *status = PL_EXIT_BAD_INPUT;
    PetscFunctionReturn(0);
  }
  if (strlen(case_dir) >= sizeof m.output_dir || (prev_dir && strlen(prev_dir) >= sizeof m.analysis.start_from)) {
    fprintf(stderr, "pipelay sweep: the output directory is too long\n");
    PlModelFree(&m);
    *status = PL_EXIT_BAD_INPUT;
    PetscFunctionReturn(0);
  }
  memcpy(m.output_dir, case_dir, strlen(case_dir) + 1); /* not relative to the model file */
  if (prev_dir) {
    memcpy(m.analysis.start_from, prev_dir, strlen(prev_dir) + 1);
    m.analysis.initial_guess = PL_GUESS_RESULTS;
  }
  PlProblem p;
  PlStaticReport rep;
  PlStaticSummary sum;
  PlStation *nodes, *els;
  int nn, ne;
  PetscCall(PlProblemCreate(PETSC_COMM_SELF, &m, &p));
  PlProblemSetQuiet(p, quiet);
  PlProblemSetStopFlag(p, &g_sweep_stop);
  PlVesselStaticReport vrep;
  bool converged;
  PetscCall(PlStaticAnalysis(p, &rep, &vrep, &converged));
  PetscCall(PlProblemStations(p, &nodes, &nn, &els, &ne));
  PetscCall(PlStaticSummarize(p, nodes, nn, els, ne, &sum));
  int wrc = PlMakeDirs(case_dir, &err);
  if (!wrc) wrc = PlWriteStaticResults(case_dir, &m, &rep, &sum, nodes, nn, els, ne, 1, nov, ovs, &err);
  if (wrc) {
    fprintf(stderr, "pipelay: %s\n", err.msg);
    *status = wrc;
  }
  row[C_CONVERGED] = converged ? 1 : 0;
  row[C_PTC] = rep.strategy == PL_STATIC_PTC ? 1 : 0;
  row[C_NEWTON] = rep.newton_iterations;
  row[C_WALL] = rep.wall_time_s;
  row[C_TOP_T] = sum.top_tension_N;
  row[C_TOP_H] = sum.top_horizontal_tension_N;
  row[C_ANGLE] = sum.hang_off_angle_deg;
  row[C_LAYBACK] = sum.layback_m;
  row[C_TD] = sum.touchdown_arc_length_m;
  row[C_MAXM] = sum.max_bending_moment_Nm;
  row[C_MAXM_S] = sum.max_bending_moment_arc_length_m;
  row[C_EPS_AX] = sum.max_axial_strain;
  row[C_EPS_FIB] = sum.max_fibre_strain;
  row[C_MAXT] = sum.max_tension_N;
  row[C_MAXK] = sum.max_curvature_1pm;
  if (!*status && !converged) {
    *status = rep.interrupted ? PL_EXIT_INTERRUPTED : PL_EXIT_NOT_CONVERGED;
    if (!rep.interrupted)
      fprintf(stderr, "pipelay sweep: %s did not converge:\n%s\n", name, rep.converged ? vrep.failure : rep.failure);
  }
  free(nodes);
  free(els);
  PetscCall(PlProblemDestroy(&p));
  PlModelFree(&m);
  PetscFunctionReturn(0);
}

/* ---- a system of lines, points and bodies --------------------------------------------- */
typedef struct {
  int ncol;
  char (*name)[PL_NAME_MAX + 32]; /* [ncol] (SysColumnsOf allocates; the sweep frees it) */
  int body, comp;      /* a force sweep of bodies[body].environment_load.force[comp], else -1 */
  int col_offset;      /* the column of that body's eta[comp] */
} SysColumns;

/* A stinger's columns: the S-lay design curves (summary.json's stinger, solver/slay_output.c). */
enum { kSlayColumns = 7 };
static const char *const kSlay[kSlayColumns] = {"max_overbend_strain", "tip_clearance_m", "departure_angle_deg",
                                                "tip_tension_N", "layback_m", "sagbend_moment_Nm", "sagbend_strain"};

/* The S-lay columns' values of rep (NaN before the rollers' results). */
static void SlayRow(const PlLinesReport *rep, double *row)
{
  const PlSlaySummary *o = &rep->slay;
  const double v[kSlayColumns] = {o->max_overbend_strain, o->tip_clearance, o->departure_angle, o->tip_tension,
                                  o->layback, o->sagbend_moment, o->sagbend_strain};
  for (int k = 0; k < kSlayColumns; ++k) row[k] = rep->rollers_solved ? v[k] : NAN;
}

/* The table's columns for model m (the value, or a matrix's keys, converged, wall time, each
 * body's pose, each free point's position, each line's end tensions, a stinger's S-lay results,
 * and the stiffness of a one-key force sweep). Returns 0, or -1 out of memory. */
static int SysColumnsOf(const PlModel *m, const Matrix *x, SysColumns *c)
{
  static const char *const kEta[6] = {"x_m", "y_m", "z_m", "roll_deg", "pitch_deg", "yaw_deg"};
  const char *key = x->key[0];
  c->ncol = 0;
  c->name = calloc(3 + MAX_KEYS + 6 * (size_t)m->nbodies + 3 * (size_t)m->npoints + 2 * (size_t)m->nlines +
                   kSlayColumns,
                   sizeof *c->name);
  if (!c->name) return -1;
  for (int k = 0; k < x->nkeys; ++k)
    snprintf(c->name[c->ncol++], sizeof c->name[0], "%.*s", (int)sizeof c->name[0] - 1, x->nkeys == 1 ? "value" : x->key[k]);
  snprintf(c->name[c->ncol++], sizeof c->name[0], "converged");
  snprintf(c->name[c->ncol++], sizeof c->name[0], "wall_time_s");
  c->body = c->comp = c->col_offset = -1;
  int b = -1, comp = -1, used = 0;
  if (x->nkeys == 1 && sscanf(key, "bodies[%d].environment_load.force[%d]%n", &b, &comp, &used) == 2 && !key[used] && b >= 0 &&
      b < m->nbodies && comp >= 0 && comp < 3) {
    c->body = b;
    c->comp = comp;
  }
  for (int k = 0; k < m->nbodies; ++k)
    for (int i = 0; i < 6; ++i) {
      if (k == c->body && i == c->comp) c->col_offset = c->ncol;
      snprintf(c->name[c->ncol++], sizeof c->name[0], "%s_%s", m->bodies[k].id, kEta[i]);
    }
  for (int k = 0; k < m->npoints; ++k)
    for (int i = 0; i < 3 && !m->points[k].fixed; ++i)
      snprintf(c->name[c->ncol++], sizeof c->name[0], "%s_%s", m->points[k].name, kEta[i]);
  for (int l = 0; l < m->nlines; ++l) {
    snprintf(c->name[c->ncol++], sizeof c->name[0], "%s_bottom_tension_N", m->lines[l].name);
    snprintf(c->name[c->ncol++], sizeof c->name[0], "%s_top_tension_N", m->lines[l].name);
  }
  for (int k = 0; k < kSlayColumns && m->stinger.present; ++k)
    snprintf(c->name[c->ncol++], sizeof c->name[0], "%s", kSlay[k]);
  if (c->body >= 0) snprintf(c->name[c->ncol++], sizeof c->name[0], "restoring_stiffness_N_per_m");
  return 0;
}

/* One case of a system: load with the overrides ovs[nov] (named name), solve, write
 * case_dir/summary.json, fill row's columns of SysColumnsOf from "converged" on (row[1]; the
 * caller passes the row from its last key's column). Returns the exit status of the case. */
static PetscErrorCode RunSystemCase(const char *file, int nsets, const char **sets, int nov, const char *const *ovs,
                                    const char *name, const char *case_dir, double *row, int ncol, int *status)
{
  const char *all[MAX_SETS + MAX_KEYS];
  PlModel m;
  PlError err;
  PetscFunctionBeginUser;
  *status = 0;
  for (int k = 1; k < ncol; ++k) row[k] = NAN;
  row[1] = 0;
  for (int k = 0; k < nsets; ++k) all[k] = sets[k];
  for (int k = 0; k < nov; ++k) all[nsets + k] = ovs[k];
  if (PlModelLoad(file, nsets + nov, all, &m, &err)) {
    fprintf(stderr, "%s\n", err.msg);
    *status = PL_EXIT_BAD_INPUT;
    PetscFunctionReturn(0);
  }
  const double wall0 = MPI_Wtime();
  static PlLinesReport rep;
  PlSysStaticReport srep;
  PlLines L = NULL;
  PlSysDyn S = NULL;
  char warning[1200]; /* the whole system's failure (PlSysStaticReport) and a few words */
  PetscCall(PlLinesCreate(PETSC_COMM_SELF, &m, &L));
  PetscCall(PlSystemStatics(L, &g_sweep_stop, 1, &rep, &srep, &S, warning, sizeof warning));
  if (warning[0]) fprintf(stderr, "pipelay sweep: %s: warning: %s\n", name, warning);
  int col = 1;
  row[col++] = rep.converged ? 1 : 0;
  row[col++] = MPI_Wtime() - wall0;
  const double r2d = 180.0 / 3.14159265358979323846;
  for (int b = 0; b < m.nbodies; ++b)
    for (int i = 0; i < 6; ++i) row[col++] = rep.body_eta[b][i] * (i < 3 ? 1.0 : r2d);
  for (int k = 0; k < m.npoints; ++k)
    for (int i = 0; i < 3 && !m.points[k].fixed; ++i) row[col++] = rep.point_position[k][i];
  for (int l = 0; l < m.nlines; ++l) {
    row[col++] = rep.end_tension[l][0];
    row[col++] = rep.end_tension[l][1];
  }
  if (m.stinger.present) {
    SlayRow(&rep, row + col);
    col += kSlayColumns;
  }
  int wrc = PlMakeDirs(case_dir, &err);
  if (!wrc) wrc = PlLinesWriteSummary(L, &rep, case_dir, &err);
  if (wrc) {
    fprintf(stderr, "pipelay: %s\n", err.msg);
    *status = wrc;
  }
  if (!*status && !rep.converged) {
    *status = g_sweep_stop ? PL_EXIT_INTERRUPTED : PL_EXIT_NOT_CONVERGED;
    if (!g_sweep_stop) fprintf(stderr, "pipelay sweep: %s did not converge: %s\n", name, rep.failure);
  }
  PetscCall(PlSysDynDestroy(&S));
  PetscCall(PlLinesDestroy(&L));
  PlLinesReportFree(&rep);
  PlModelFree(&m);
  PetscFunctionReturn(0);
}

/* The restoring stiffness of a force sweep: dF/dx by differences of converged neighbours. */
static void SysStiffness(const SysColumns *c, double *rows, int n)
{
  if (c->body < 0) return;
  const int ks = c->ncol - 1, kx = c->col_offset;
  for (int i = 0; i < n; ++i) {
    const double *r = rows + (size_t)i * c->ncol;
    if (r[1] == 0) continue;
    const int a = i > 0 && rows[(size_t)(i - 1) * c->ncol + 1] != 0 ? i - 1 : i;
    const int b = i + 1 < n && rows[(size_t)(i + 1) * c->ncol + 1] != 0 ? i + 1 : i;
    if (a == b) continue;
    const double *ra = rows + (size_t)a * c->ncol, *rb = rows + (size_t)b * c->ncol;
    const double dx = rb[kx] - ra[kx];
    rows[(size_t)i * c->ncol + ks] = dx != 0.0 ? (rb[0] - ra[0]) / dx : NAN;
  }
}

/* sweep.csv and sweep.json: the rows[n][ncol] of the columns names[ncol], each of kind 'n' (a
 * number), 'i' (an integer) or 'b' (a flag: 0 or 1 in the CSV, false or true in the JSON). */
static int WriteTables(const char *dir, const char *file, const Matrix *x, const char *const *names, const char *kind,
                       int ncol, const double *rows, int n, PlError *err)
{
  char path[PL_PATH_MAX + 32], tmp[PL_PATH_MAX + 40];
  snprintf(path, sizeof path, "%s/sweep.csv", dir);
  snprintf(tmp, sizeof tmp, "%s/.sweep.csv.tmp", dir);
  FILE *f = fopen(tmp, "w");
  if (f) {
    for (int k = 0; k < ncol; ++k) fprintf(f, "%s%s", k ? "," : "", names[k]);
    fputc('\n', f);
    for (int i = 0; i < n; ++i) {
      for (int k = 0; k < ncol; ++k) {
        const double x = rows[(size_t)i * ncol + k];
        if (k) fputc(',', f);
        if (kind[k] != 'n') fprintf(f, "%d", (int)x);
        else if (isfinite(x)) fprintf(f, "%.17g", x);
        else fprintf(f, "nan");
      }
      fputc('\n', f);
    }
  }
  int rc = PlFileCommit(f, 0, tmp, path, err);
  if (rc) return rc;
  cJSON *root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "model_file", file);
  cJSON_AddStringToObject(root, "varied", x->key[0]);
  if (x->nkeys > 1) {
    cJSON *keys = cJSON_AddArrayToObject(root, "matrix_keys");
    for (int k = 0; k < x->nkeys; ++k) cJSON_AddItemToArray(keys, cJSON_CreateString(x->key[k]));
  }
  cJSON *arr = cJSON_AddArrayToObject(root, "cases");
  for (int i = 0; i < n; ++i) {
    cJSON *o = cJSON_CreateObject();
    char name[32], label[MAX_KEYS * 600];
    static char ov[MAX_KEYS][PL_PATH_MAX + 64];
    snprintf(name, sizeof name, "case_%03d", i);
    cJSON_AddStringToObject(o, "directory", name);
    if (x->nkeys > 1 && !CaseOverrides(x, i, ov, label, sizeof label)) cJSON_AddStringToObject(o, "name", label);
    for (int k = 0; k < ncol; ++k) {
      const double x = rows[(size_t)i * ncol + k];
      if (kind[k] == 'b') cJSON_AddBoolToObject(o, names[k], x != 0);
      else if (isfinite(x)) cJSON_AddNumberToObject(o, names[k], x);
      else cJSON_AddNullToObject(o, names[k]);
    }
    cJSON_AddItemToArray(arr, o);
  }
  char *text = cJSON_Print(root);
  cJSON_Delete(root);
  snprintf(path, sizeof path, "%s/sweep.json", dir);
  snprintf(tmp, sizeof tmp, "%s/.sweep.json.tmp", dir);
  f = text ? fopen(tmp, "w") : NULL;
  if (f) fprintf(f, "%s\n", text);
  free(text);
  return PlFileCommit(f, 0, tmp, path, err);
}

/* Parses --vary KEY=VALUES into the next key of x; 0 or PL_EXIT_BAD_INPUT with a message. */
static int AddKey(Matrix *x, const char *arg, int rank)
{
  char msg[600];
  const char *eq = strchr(arg, '=');
  if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof x->key[0]) {
    if (!rank) fprintf(stderr, "pipelay sweep: --vary '%s': expected KEY=START:STOP:COUNT or KEY=V1,V2,...\n", arg);
    return PL_EXIT_BAD_INPUT;
  }
  if (x->nkeys == MAX_KEYS) {
    if (!rank) fprintf(stderr, "pipelay sweep: --vary '%s': at most %d keys in a matrix\n", arg, MAX_KEYS);
    return PL_EXIT_BAD_INPUT;
  }
  char *key = x->key[x->nkeys];
  memcpy(key, arg, (size_t)(eq - arg));
  key[eq - arg] = '\0';
  for (int k = 0; k < x->nkeys; ++k)
    if (!strcmp(x->key[k], key)) {
      if (!rank) fprintf(stderr, "pipelay sweep: --vary '%s': the key %s is already varied\n", arg, key);
      return PL_EXIT_BAD_INPUT;
    }
  double *v = malloc(sizeof(double) * MAX_CASES);
  int n = 0;
  if (!v || ParseValues(eq + 1, v, &n, msg, sizeof msg)) {
    if (!rank) fprintf(stderr, "pipelay sweep: %s\n", v ? msg : "out of memory");
    free(v);
    return PL_EXIT_BAD_INPUT;
  }
  if ((long)x->ncases * n > MAX_CASES) {
    if (!rank) fprintf(stderr, "pipelay sweep: --vary '%s': the matrix would have more than %d cases\n", arg, MAX_CASES);
    free(v);
    return PL_EXIT_BAD_INPUT;
  }
  x->values[x->nkeys] = v;
  x->nvalues[x->nkeys++] = n;
  x->ncases *= n;
  return 0;
}

static void MatrixFree(Matrix *x)
{
  for (int k = 0; k < x->nkeys; ++k) free(x->values[k]);
  x->nkeys = 0;
}

int PlCmdSweep(int argc, char **argv)
{
  PetscMPIInt rank, size;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  const char *file = NULL, *out = NULL, *sets[MAX_SETS];
  int nsets = 0, quiet = 0, no_plots = 0;
  static Matrix x;
  x.nkeys = 0;
  x.ncases = 1;
  for (int i = 2; i < argc; ++i) {
    int petsc;
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      if (!rank) fputs(usage, stdout);
      MatrixFree(&x);
      return 0;
    } else if (!strcmp(argv[i], "--vary") || !strcmp(argv[i], "--set") || !strcmp(argv[i], "--output")) {
      if (i + 1 >= argc) {
        if (!rank) fprintf(stderr, "pipelay sweep: %s needs a value\n%s", argv[i], usage);
        MatrixFree(&x);
        return PL_EXIT_BAD_INPUT;
      }
      if (argv[i][2] == 'v') {
        const int krc = AddKey(&x, argv[++i], rank);
        if (krc) {
          MatrixFree(&x);
          return krc;
        }
      } else if (argv[i][2] == 'o') out = argv[++i];
      else if (nsets == MAX_SETS) {
        if (!rank) fprintf(stderr, "pipelay sweep: more than %d --set options\n", MAX_SETS);
        MatrixFree(&x);
        return PL_EXIT_BAD_INPUT;
      } else sets[nsets++] = argv[++i];
    } else if (!strcmp(argv[i], "--quiet")) quiet = 1;
    else if (!strcmp(argv[i], "--no-plots")) no_plots = 1;
    else if ((petsc = PlArgPetscOption(argc, argv, &i, "pipelay sweep", rank)) < 0 ||
             (!petsc && file)) {
      if (!petsc && !rank) fprintf(stderr, "pipelay sweep: unknown argument '%s'\n%s", argv[i], usage);
      MatrixFree(&x);
      return PL_EXIT_BAD_INPUT;
    } else if (!petsc) file = argv[i];
  }
  if (!file || !x.nkeys) {
    if (!rank) fprintf(stderr, "pipelay sweep: %s\n%s", file ? "--vary KEY=VALUES is required" : "no model FILE", usage);
    MatrixFree(&x);
    return PL_EXIT_BAD_INPUT;
  }
  const int n = x.ncases, nk = x.nkeys, off = nk - 1; /* off: the case columns' shift past "value" */
  static char ov[MAX_KEYS][PL_PATH_MAX + 64];
  const char *ovs[MAX_KEYS];
  char label[MAX_KEYS * 600];
  for (int k = 0; k < nk; ++k) ovs[k] = ov[k];
  /* the first case checks the keys and the model, and gives the default output directory */
  char dir[PL_PATH_MAX];
  static SysColumns sc;
  int is_system = 0;
  {
    const char *all[MAX_SETS + MAX_KEYS];
    for (int k = 0; k < nsets; ++k) all[k] = sets[k];
    if (CaseOverrides(&x, 0, ov, label, sizeof label)) {
      if (!rank) fprintf(stderr, "pipelay sweep: a --vary key is too long\n");
      MatrixFree(&x);
      return PL_EXIT_BAD_INPUT;
    }
    for (int k = 0; k < nk; ++k) all[nsets + k] = ov[k];
    PlModel m;
    PlError err;
    if (PlModelLoad(file, nsets + nk, all, &m, &err)) {
      if (!rank) fprintf(stderr, "%s\n", err.msg);
      MatrixFree(&x);
      return PL_EXIT_BAD_INPUT;
    }
    for (int k = 0; !rank && k < m.nwarnings; ++k) fprintf(stderr, "%s\n", m.warnings[k]);
    if (m.analysis.kind != PL_ANALYSIS_STATIC) {
      if (!rank) fprintf(stderr, "pipelay sweep: %s: analysis.type must be static for a sweep\n", file);
      PlModelFree(&m);
      MatrixFree(&x);
      return PL_EXIT_BAD_INPUT;
    }
    if (out) snprintf(dir, sizeof dir, "%s", out);
    else if (snprintf(dir, sizeof dir, "%s_sweep", m.output_dir) >= (int)sizeof dir) dir[0] = '\0';
    is_system = m.nlines > 0;
    const int oom = is_system && SysColumnsOf(&m, &x, &sc);
    PlModelFree(&m);
    PlError derr;
    int drc = 0;
    if (oom) {
      if (!rank) fprintf(stderr, "pipelay sweep: out of memory\n");
      drc = PL_EXIT_FAILURE;
    } else if (!dir[0]) {
      if (!rank) fprintf(stderr, "pipelay sweep: the output directory's name is too long\n");
      drc = PL_EXIT_BAD_INPUT;
    } else if (!rank && (drc = PlMakeDirs(dir, &derr))) fprintf(stderr, "pipelay: %s\n", derr.msg);
    MPI_Bcast(&drc, 1, MPI_INT, 0, PETSC_COMM_WORLD);
    if (drc) {
      MatrixFree(&x);
      free(sc.name);
      return drc;
    }
  }
  /* this rank's block of cases */
  const int i0 = (int)((long)n * rank / size), i1 = (int)((long)n * (rank + 1) / size);
  const int ncol = is_system ? sc.ncol : NCOL + off;
  const int c_conv = off + (is_system ? 1 : C_CONVERGED);
  double *rows = calloc((size_t)n * ncol, sizeof(double));
  int worst = 0;
  if (!rows) {
    MatrixFree(&x);
    free(sc.name);
    return PL_EXIT_FAILURE;
  }
  for (int i = 0; i < n * ncol; ++i) rows[i] = NAN;
  signal(SIGINT, OnSignal);
  signal(SIGTERM, OnSignal);
  char prev[PL_PATH_MAX + 32] = "";
  for (int i = i0; i < i1 && !g_sweep_stop; ++i) {
    char case_dir[PL_PATH_MAX + 32];
    snprintf(case_dir, sizeof case_dir, "%s/case_%03d", dir, i);
    int j[MAX_KEYS], st = 0;
    CaseIndices(&x, i, j);
    CaseOverrides(&x, i, ov, label, sizeof label);
    if (j[nk - 1] == 0) prev[0] = '\0'; /* a row of the last key starts from the model's start */
    double *row = rows + (size_t)i * ncol;
    if (is_system) {
      if (RunSystemCase(file, nsets, sets, nk, ovs, label, case_dir, row + off, ncol - off, &st))
        st = PL_EXIT_FAILURE;
    } else if (RunCase(file, nsets, sets, nk, ovs, label, case_dir, prev[0] ? prev : NULL, 1, row + off, &st))
      st = PL_EXIT_FAILURE;
    for (int k = 0; k < nk; ++k) row[k] = x.values[k][j[k]];
    if (st == PL_EXIT_INTERRUPTED) break;
    if (st == 0) snprintf(prev, sizeof prev, "%s", case_dir);
    if (st > worst) worst = st;
    if (!quiet && size == 1 && is_system) {
      printf("  case %3d: %-24s %s", i, label, row[c_conv] != 0 ? "converged    " : "NOT CONVERGED");
      if (sc.col_offset >= 0) printf("  %s %.6g", sc.name[sc.col_offset], row[sc.col_offset]);
      else if (ncol > c_conv + 2) printf("  %s %.6g", sc.name[c_conv + 2], row[c_conv + 2]);
      printf("\n");
    } else if (!quiet && size == 1)
      printf("  case %3d: %-24s %s  top tension %12.4f kN  hang-off %8.4f deg  layback %10.3f m  (%d its%s)\n", i,
             label, row[c_conv] != 0 ? "converged    " : "NOT CONVERGED", row[off + C_TOP_T] / 1e3,
             row[off + C_ANGLE], row[off + C_LAYBACK], (int)row[off + C_NEWTON],
             row[off + C_PTC] != 0 ? ", pseudo-transient" : "");
    fflush(stdout);
  }
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  int interrupted = g_sweep_stop ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &interrupted, 1, MPI_INT, MPI_MAX, PETSC_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPI_INT, MPI_MAX, PETSC_COMM_WORLD);
  /* every rank's block of rows to rank 0 (cases not reached stay NaN) */
  {
    int *counts = malloc(sizeof(int) * (size_t)size), *displs = malloc(sizeof(int) * (size_t)size);
    for (int r = 0; counts && displs && r < size; ++r) {
      const int a = (int)((long)n * r / size), b = (int)((long)n * (r + 1) / size);
      counts[r] = (b - a) * ncol;
      displs[r] = a * ncol;
    }
    if (counts && displs)
      MPI_Gatherv(rank ? rows + (size_t)i0 * ncol : MPI_IN_PLACE, (i1 - i0) * ncol, MPI_DOUBLE, rows, counts, displs,
                  MPI_DOUBLE, 0, PETSC_COMM_WORLD);
    free(counts);
    free(displs);
  }
  int rc = interrupted ? PL_EXIT_INTERRUPTED : worst;
  if (!rank) {
    int ndone = 0;
    while (ndone < n && !isnan(rows[(size_t)ndone * ncol + c_conv])) ++ndone;
    PlError err;
    if (is_system) SysStiffness(&sc, rows, ndone);
    const char *names[ncol];
    char kind[ncol + 1];
    for (int k = 0; k < ncol; ++k) {
      names[k] = is_system ? sc.name[k] : k < nk ? (nk == 1 ? kCol[C_VALUE] : x.key[k]) : kCol[k - off];
      kind[k] = k == c_conv || (!is_system && k == off + C_PTC) ? 'b' : !is_system && k == off + C_NEWTON ? 'i' : 'n';
    }
    const int wrc = WriteTables(dir, file, &x, names, kind, ncol, rows, ndone, &err);
    if (wrc) {
      fprintf(stderr, "pipelay: %s\n", err.msg);
      rc = wrc;
    } else if (!no_plots && nk == 1) {
      PlPlotOptions po;
      PlPlotOptionsDefault(&po);
      snprintf(po.name, sizeof po.name, "%.200s", file);
      if (is_system) {
        const char *cols[sc.ncol];
        int nt = 0;
        for (int k = 0; k < sc.ncol; ++k)
          if (strstr(sc.name[k], "_top_tension_N")) cols[nt++] = sc.name[k];
        PlPlotSweepSystem(dir, x.key[0], sc.col_offset >= 0 ? sc.name[sc.col_offset] : NULL, cols, nt, &po);
      } else
        PlPlotSweep(dir, x.key[0], &po);
    }
    int nconv = 0;
    for (int i = 0; i < ndone; ++i) nconv += rows[(size_t)i * ncol + c_conv] != 0;
    if (!quiet) {
      printf("pipelay sweep: ");
      for (int k = 0; k < nk; ++k) printf("%s%s (%d values)", k ? " x " : "", x.key[k], x.nvalues[k]);
      printf(": %d cases (%d done), %d converged, MPI ranks %d; results in %s/ (sweep.csv, sweep.json, case_NNN/%s)\n",
             n, ndone, nconv, size, dir, no_plots || nk > 1 ? "" : ", plots/");
    }
    if (interrupted) fprintf(stderr, "pipelay sweep: interrupted after %d cases; their table is written to %s/\n", ndone, dir);
  }
  MPI_Bcast(&rc, 1, MPI_INT, 0, PETSC_COMM_WORLD);
  free(rows);
  MatrixFree(&x);
  free(sc.name);
  return rc;
}
