/*
 * fuzz_timeseries.c - libFuzzer harness of the time-series reader of the model loader
 * (the CSV file of ends.*.motion.file, models/loader.c).
 *
 * Input: the bytes of the CSV file. They are written to ts.csv in a private temporary
 * directory (made once per process, removed at exit), and a fixed dynamic model in the
 * same directory that names it is loaded with PlModelLoadString. Nothing else is read.
 *
 * Besides the sanitizers' reports, a run aborts when the reader breaks its contract:
 *   - the status is neither 0 nor 2;
 *   - an error message is not one line "FILE:LINE:COL: ends.top.motion.file: text" (FILE
 *     the CSV file, or the model for a file that cannot be read), or a failed load owns a
 *     table;
 *   - an accepted series has fewer than 2 rows, not 4 or 7 columns, a non-finite value,
 *     a time that does not increase from row to row, or PlMotionEval gives a non-finite
 *     offset, velocity or acceleration at a time before, inside or after the series, with
 *     the linear or the cubic interpolation.
 *
 * Built by CMake with -DPIPELAY_FUZZ=ON (clang); see tests/fuzz/README.md.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pipelay/models.h"

static const char kModel[] =
    "environment: {water_depth: 100}\n"
    "line:\n"
    "  length: 150\n"
    "  sections:\n"
    "    - {outer_diameter: 0.3, wall_thickness: 0.02,\n"
    "       material: {youngs_modulus: 206e9, shear_modulus: 7.9e10, density: 7850}}\n"
    "mesh: {elements: 10}\n"
    "ends:\n"
    "  bottom: {position: [0, 0, -100], fixed: all}\n"
    "  top:\n"
    "    position: [~, 0, 0]\n"
    "    fixed: [y, z]\n"
    "    force: [1e5, 0, 0]\n"
    "    motion: {type: timeseries, file: ts.csv}\n"
    "analysis:\n"
    "  type: dynamic\n"
    "  dynamic: {duration: 10}\n";

/* The private directory, its model path and CSV path (set once by setup()). */
static char g_dir[256], g_model[300], g_csv[300];

static void cleanup(void)
{
  unlink(g_csv);
  rmdir(g_dir);
}

/* Makes the private directory; returns 0 or -1. */
static int setup(void)
{
  if (g_dir[0]) return 0;
  const char *tmp = getenv("TMPDIR");
  snprintf(g_dir, sizeof g_dir, "%s/pipelay_fuzz_ts_XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
  if (!mkdtemp(g_dir)) {
    g_dir[0] = '\0';
    return -1;
  }
  snprintf(g_model, sizeof g_model, "%s/model.yaml", g_dir);
  snprintf(g_csv, sizeof g_csv, "%s/ts.csv", g_dir);
  atexit(cleanup);
  return 0;
}

static void fail(const char *what, const char *detail)
{
  fprintf(stderr, "fuzz_timeseries: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
  abort();
}

/* Checks "PREFIX:LINE:COL: ends.top.motion.file: text", one line. */
static void check_message(const char *msg)
{
  if (strchr(msg, '\n') || strchr(msg, '\r')) fail("message longer than one line", msg);
  const char *rest = NULL;
  if (strncmp(msg, g_csv, strlen(g_csv)) == 0 && msg[strlen(g_csv)] == ':')
    rest = msg + strlen(g_csv) + 1;
  else if (strncmp(msg, g_model, strlen(g_model)) == 0 && msg[strlen(g_model)] == ':')
    rest = msg + strlen(g_model) + 1;
  if (!rest) fail("message names neither the CSV file nor the model", msg);
  for (int part = 0; part < 2; part++) {
    if (*rest < '0' || *rest > '9') fail("message without LINE:COL", msg);
    while (*rest >= '0' && *rest <= '9') rest++;
    if (*rest++ != ':') fail("message without LINE:COL", msg);
  }
  static const char kKey[] = " ends.top.motion.file: ";
  if (strncmp(rest, kKey, sizeof kKey - 1) != 0 || !rest[sizeof kKey - 1])
    fail("message without the key and a text", msg);
}

/* Checks an accepted series and evaluates the motion around it, with the linear and the
 * cubic interpolation (motion.interpolation). */
static void check_series(PlMotion *mo)
{
  if (mo->kind != PL_MOTION_TIMESERIES || !mo->table) fail("no table", NULL);
  if (mo->nrows < 2 || (mo->ncols != 4 && mo->ncols != 7)) fail("rows or columns", NULL);
  for (int i = 0; i < mo->nrows; i++) {
    for (int k = 0; k < 7; k++)
      if (!isfinite(mo->table[7 * i + k])) fail("value not finite", NULL);
    if (i > 0 && !(mo->table[7 * i] > mo->table[7 * (i - 1)])) fail("t not increasing", NULL);
  }
  const double t0 = mo->table[0], t1 = mo->table[7 * (mo->nrows - 1)];
  const double ts[] = {t0 - 1.0, t0, 0.5 * (t0 + mo->table[7]), 0.5 * (t0 + t1), t1, t1 + 1.0};
  for (int cubic = 0; cubic < 2; cubic++) {
    mo->cubic = cubic;
    for (size_t k = 0; k < sizeof ts / sizeof ts[0]; k++) {
      double d[3], dd[3], ddd[3], th[3], dth[3];
      PlMotionEval(mo, ts[k], d, dd, ddd, th, dth);
      for (int i = 0; i < 3; i++)
        if (!isfinite(d[i]) || !isfinite(dd[i]) || !isfinite(ddd[i]) || !isfinite(th[i]) ||
            !isfinite(dth[i]))
          fail(cubic ? "PlMotionEval (cubic) not finite" : "PlMotionEval not finite", NULL);
    }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (setup()) fail("cannot make a temporary directory", NULL);
  FILE *f = fopen(g_csv, "wb");
  if (!f) fail("cannot write the CSV file", g_csv);
  if (size && fwrite(data, 1, size, f) != size) fail("cannot write the CSV file", g_csv);
  if (fclose(f)) fail("cannot write the CSV file", g_csv);

  PlModel *m = malloc(sizeof *m);
  PlError err;
  if (!m) return 0;
  const int rc = PlModelLoadString(g_model, kModel, sizeof kModel - 1, 0, NULL, m, &err);
  if (rc == 2) {
    check_message(err.msg);
    if (m->ends[1].motion.table) fail("a failed load owns a table", NULL);
  } else if (rc == 0) {
    check_series(&m->ends[1].motion);
    PlModelFree(m);
  } else {
    fail("PlModelLoadString returned neither 0 nor 2", NULL);
  }
  free(m);
  return 0;
}
