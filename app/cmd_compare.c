/*
 * cmd_compare.c - "pipelay compare RESULT REFERENCE [--tol [COLUMN=]TYPE:VALUE]... [--x COLUMN]":
 * compares a run's CSV file (static.csv, timeseries_top.csv, envelopes.csv, ...) with a
 * reference CSV file (the formats of verification/README.md; comma- or blank-separated,
 * '#' comment lines) and prints the table of "pipelay verify".
 *
 * Columns are matched by name, in any order. The abscissa is --x, else S_m when both files
 * have it, else t_s. Every other column of REFERENCE that RESULT also has is compared:
 * RESULT is interpolated linearly onto REFERENCE's abscissae (points outside RESULT's
 * range are left out) and the difference is measured by the tolerance of that column
 * (--tol COLUMN=TYPE:VALUE), else by the default tolerance (--tol TYPE:VALUE; without one,
 * rms_range:0.05, the RMS difference within 5% of the reference's range). TYPE is abs,
 * rel, rms_range, max_rel or min_rel (verification/README.md). A REFERENCE column missing
 * from RESULT is reported and not compared.
 * Exit status: 0 every compared column within its tolerance, 2 bad input (unreadable file,
 * no common abscissa or column, a bad --tol), 6 (PL_EXIT_CHECK_FAILED) a column outside.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "pipelay/output.h"
#include "../tools/verify/verify.h"

static const char usage[] =
  "usage: pipelay compare RESULT REFERENCE [--tol [COLUMN=]TYPE:VALUE]... [--x COLUMN]\n"
  "Compares the columns of the CSV file RESULT with those of the same name in REFERENCE,\n"
  "RESULT interpolated onto REFERENCE's arc length (S_m) or time (t_s), or the column --x.\n"
  "TYPE: abs, rel, rms_range, max_rel, min_rel (default rms_range:0.05, for every column).\n"
  "Exit status: 0 all columns within tolerance, 2 bad input, 6 a column outside.\n";

#define MAX_TOLS 128

int PlCmdCompare(int argc, char **argv)
{
  const char *files[2] = {NULL, NULL}, *xname = NULL;
  char tol_col[MAX_TOLS][PL_VERIFY_TEXT_MAX];
  PlTolerance tol[MAX_TOLS], deflt = {PL_TOL_RMS_RANGE, 0.05};
  int ntol = 0, nfiles = 0;
  for (int i = 2; i < argc; ++i) {
    if (!strcmp(argv[i], "--tol") || !strcmp(argv[i], "--x")) {
      if (i + 1 >= argc) {
        fprintf(stderr, "pipelay: %s needs a value\n%s", argv[i], usage);
        return PL_EXIT_BAD_INPUT;
      }
      const char *v = argv[++i];
      if (argv[i - 1][2] == 'x') {
        xname = v;
        continue;
      }
      const char *eq = strchr(v, '=');
      PlTolerance t;
      if (PlToleranceParse(eq ? eq + 1 : v, &t) || (eq && (eq == v || eq - v >= PL_VERIFY_TEXT_MAX))) {
        fprintf(stderr, "pipelay: --tol %s: expected [COLUMN=]TYPE:VALUE, TYPE one of abs, rel, rms_range, "
                        "max_rel, min_rel, VALUE a number >= 0 (or a percentage, 2%%)\n", v);
        return PL_EXIT_BAD_INPUT;
      }
      if (!eq) deflt = t;
      else if (ntol == MAX_TOLS) {
        fprintf(stderr, "pipelay: more than %d --tol options\n", MAX_TOLS);
        return PL_EXIT_BAD_INPUT;
      } else {
        snprintf(tol_col[ntol], sizeof tol_col[ntol], "%.*s", (int)(eq - v), v);
        tol[ntol++] = t;
      }
    } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      fputs(usage, stdout);
      return PL_EXIT_OK;
    } else if (argv[i][0] != '-' && nfiles < 2) files[nfiles++] = argv[i];
    else {
      fprintf(stderr, "pipelay: unknown argument '%s'\n%s", argv[i], usage);
      return PL_EXIT_BAD_INPUT;
    }
  }
  if (nfiles != 2) {
    fputs(usage, stderr);
    return PL_EXIT_BAD_INPUT;
  }
  PlTable res, ref;
  PlError err;
  if (PlTableRead(files[0], &res, &err)) {
    fprintf(stderr, "pipelay: %s\n", err.msg);
    return PL_EXIT_BAD_INPUT;
  }
  if (PlTableRead(files[1], &ref, &err)) {
    fprintf(stderr, "pipelay: %s\n", err.msg);
    PlTableFree(&res);
    return PL_EXIT_BAD_INPUT;
  }
  int rc = 0;
  if (!xname) {
    if (PlTableColumn(&res, "S_m") >= 0 && PlTableColumn(&ref, "S_m") >= 0) xname = "S_m";
    else if (PlTableColumn(&res, "t_s") >= 0 && PlTableColumn(&ref, "t_s") >= 0) xname = "t_s";
  }
  const int xres = xname ? PlTableColumn(&res, xname) : -1, xref = xname ? PlTableColumn(&ref, xname) : -1;
  if (!xname) {
    fprintf(stderr, "pipelay: %s and %s share neither S_m nor t_s: name the abscissa with --x COLUMN\n", files[0], files[1]);
    rc = PL_EXIT_BAD_INPUT;
  } else if (xres < 0 || xref < 0) {
    fprintf(stderr, "pipelay: %s has no column %s\n", xres < 0 ? files[0] : files[1], xname);
    rc = PL_EXIT_BAD_INPUT;
  }
  for (int k = 0; !rc && k < ntol; ++k)
    if (PlTableColumn(&ref, tol_col[k]) < 0 || PlTableColumn(&res, tol_col[k]) < 0) {
      fprintf(stderr, "pipelay: --tol %s=...: %s has no column %s\n", tol_col[k],
              PlTableColumn(&ref, tol_col[k]) < 0 ? files[1] : files[0], tol_col[k]);
      rc = PL_EXIT_BAD_INPUT;
    }
  const double *xr = NULL, *xc = NULL;
  if (!rc) {
    xr = PlTableData(&ref, xref);
    xc = PlTableData(&res, xres);
    for (int r = 1; r < res.nrows && !rc; ++r)
      if (!(xc[r] >= xc[r - 1])) {
        fprintf(stderr, "pipelay: %s: column %s does not increase (row %d)\n", files[0], xname, r + 1);
        rc = PL_EXIT_BAD_INPUT;
      }
  }
  PlCheckResult *out = calloc((size_t)ref.ncols + 1, sizeof *out);
  int n = 0;
  const char *base = strrchr(files[1], '/');
  base = base ? base + 1 : files[1];
  for (int c = 0; !rc && out && c < ref.ncols; ++c) {
    if (c == xref) continue;
    const int cr = PlTableColumn(&res, ref.names[c]);
    if (cr < 0) {
      fprintf(stderr, "pipelay: compare: %s has no column %s: not compared\n", files[0], ref.names[c]);
      continue;
    }
    PlCheckResult *r = &out[n++];
    memset(r, 0, sizeof *r);
    r->tol = deflt;
    for (int k = 0; k < ntol; ++k)
      if (!strcmp(tol_col[k], ref.names[c])) r->tol = tol[k];
    PlCheckSeries(xr, PlTableData(&ref, c), ref.nrows, xc, PlTableData(&res, cr), res.nrows, NAN, NAN, r);
    snprintf(r->case_name, sizeof r->case_name, "%.63s", base);
    snprintf(r->quantity, sizeof r->quantity, "%s", ref.names[c]);
    snprintf(r->at_name, sizeof r->at_name, "%s", xname);
  }
  if (!rc && !out) rc = PL_EXIT_FAILURE;
  if (!rc && !n) {
    fprintf(stderr, "pipelay: %s and %s have no column in common besides %s\n", files[0], files[1], xname);
    rc = PL_EXIT_BAD_INPUT;
  }
  if (!rc) {
    printf("pipelay compare: %s against %s, %d columns on %s (%d reference points)\n", files[0], files[1], n, xname,
           ref.nrows);
    PlCheckPrintTable(stdout, out, n);
    for (int k = 0; k < n; ++k)
      if (!out[k].pass) rc = PL_EXIT_CHECK_FAILED;
  }
  free(out);
  PlTableFree(&res);
  PlTableFree(&ref);
  return rc;
}
