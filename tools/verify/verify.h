/*
 * verify.h - the verification harness of the command line (pipelay verify, pipelay compare):
 * not part of the library.
 */
#pragma once
#include <stdio.h>
#include "pipelay/output.h"

/* ---- reference data, checks, cases and reports (tools/verify/verify.c) ---------------------
 * The formats are described in verification/README.md. A case is a folder with case.yaml
 * (runs of pipelay, checks of computed quantities against reference data with a tolerance
 * each, plots), the model files and the reference CSV files. "pipelay verify" runs the
 * cases and "pipelay compare" compares two CSV files; both print the table of
 * PlCheckResult rows (PlCheckPrintTable). These functions use neither MPI nor PETSc. */

#define PL_EXIT_CHECK_FAILED 6     /* exit status of verify/compare when a check fails */

typedef enum {
  PL_TOL_ABS = 0,            /* |computed - reference| <= value (series: the largest difference) */
  PL_TOL_REL,                /* |computed - reference| <= value |reference| (series: relative to max |reference|) */
  PL_TOL_RMS_RANGE,          /* series: RMS of the difference <= value (max - min of the reference) */
  PL_TOL_MAX_REL,            /* series: |max computed - max reference| <= value |max reference| */
  PL_TOL_MIN_REL,            /* series: |min computed - min reference| <= value |min reference| */
  PL_TOL_DECREASING,         /* case.yaml, a series or sequence alone (no reference), values >= 0:
                                every value <= value x the one before */
  PL_TOL_RATIO_MAX           /* case.yaml, two numbers: |computed| <= value |reference| (e.g. what is
                                left of a quantity in one run against its size in another) */
} PlTolKind;

typedef struct {
  PlTolKind kind;
  double value;              /* >= 0, in the unit of the quantity for abs, else a fraction */
} PlTolerance;

/* Parses "abs:0.05", "rel:0.02", "rms_range:0.05", "max_rel:0.05", "min_rel:0.05" (also
 * "rel:2%"), the tolerances of a comparison of two files. Returns 0 or -1 (also for
 * decreasing and ratio_max, which only case.yaml takes). */
int PlToleranceParse(const char *text, PlTolerance *t);
/* The kind's name as in the files: "abs", "rel", ... */
const char *PlToleranceKindName(PlTolKind k);

/* One row of the table: a computed quantity against its reference. */
typedef struct {
  char case_name[64];        /* the case (verify) or the reference file (compare) */
  char quantity[160];        /* what is compared */
  char unit[32];             /* unit of reference and computed ("" for none) */
  int series;                /* 0: two numbers; 1: two series, summarised as below */
  double reference, computed;/* scalar: the two values. series, by tolerance kind:
                                abs/rel: both at the point of the largest difference;
                                rms_range: the reference's range and the RMS difference;
                                max_rel/min_rel: the two maxima/minima; decreasing: reference NaN,
                                computed the largest ratio of a value to the one before */
  double at;                 /* series: abscissa of that point (abs/rel, max_rel, min_rel; decreasing: of
                                the largest ratio's later value); NaN otherwise */
  char at_name[32];          /* its column name (S_m, t_s, ...) */
  int npoints;               /* series: reference points compared */
  double error;              /* abs: computed - reference [unit]; rel, max_rel, min_rel:
                                (computed - reference)/|reference|; rms_range: RMS/range;
                                decreasing: the largest ratio; ratio_max: |computed|/|reference| */
  PlTolerance tol;
  int pass;                  /* 1 when |error| <= tol.value (and evaluated) */
  int known_miss;            /* 1 when it failed and case.yaml lists it as a known miss (with
                                the reason and evidence): reported, not counted as a failure */
  char note[256];            /* why the check could not be evaluated; "" when it was */
} PlCheckResult;

/* Fills error and pass of r from r->reference, r->computed and r->tol (a scalar check;
 * rms_range, max_rel and min_rel act as rel; ratio_max compares |computed|/|reference| with
 * the value). NaN values fail. */
void PlCheckScalar(PlCheckResult *r);

/* A series check: the computed series (xc, yc) [nc] is interpolated onto the reference
 * abscissae xr [nr] inside [lo, hi] (NaN: no limit) and inside the computed range; fills
 * r (series = 1) by r->tol. Returns 0, or -1 with r->note set (fewer than 2 points in
 * common, a zero range). */
int PlCheckSeries(const double *xr, const double *yr, int nr, const double *xc, const double *yc,
                  int nc, double lo, double hi, PlCheckResult *r);

/* Texts of the reference, computed, error and tolerance cells of r (with units). */
void PlCheckFormat(const PlCheckResult *r, char *ref, char *comp, char *err, char *tol, size_t len);
/* Prints the results as an aligned table with a PASS/FAIL column and a closing count. */
void PlCheckPrintTable(FILE *f, const PlCheckResult *r, int n);
/* The same as Markdown table rows (with the header when header is nonzero). */
void PlCheckPrintMarkdown(FILE *f, const PlCheckResult *r, int n, int header);
/* Machine-readable results: case,quantity,unit,reference,computed,error,tolerance_type,
 * tolerance,pass,note. Returns 0 or PL_EXIT_IO with err. */
int PlCheckWriteCsv(const char *path, const PlCheckResult *r, int n, PlError *err);

/* ---- verification cases (case.yaml) ---- */
#define PL_VERIFY_MAX_RUNS 32
#define PL_VERIFY_MAX_SETS 16
#define PL_VERIFY_MAX_CHECKS 96
#define PL_VERIFY_MAX_PLOTS 16
#define PL_VERIFY_MAX_SERIES 12
#define PL_VERIFY_NAME_MAX 64      /* ids, case names */
#define PL_VERIFY_TEXT_MAX 256     /* titles, overrides, column names */

/* One pipelay run of a case: pipelay run MODEL --set ... --output WORK/runs/ID. */
typedef struct {
  char id[PL_VERIFY_NAME_MAX];   /* [A-Za-z0-9_-]+, unique in the case */
  char model[PL_PATH_MAX];       /* model file, relative to the case folder */
  int nsets;
  char sets[PL_VERIFY_MAX_SETS][PL_VERIFY_TEXT_MAX]; /* --set overrides */
} PlVerifyRun;

typedef enum {
  PL_VSRC_VALUE = 0,          /* value: a number written in case.yaml */
  PL_VSRC_SUMMARY,            /* run + summary: a number of the run's summary.json */
  PL_VSRC_NAMED,              /* file + name: the value of a row of a name,value,unit file */
  PL_VSRC_COLUMN,             /* [run +] file + column (or norm_of) [+ x] [+ at]: a series, or its value at x = at */
  PL_VSRC_CONVERGENCE         /* convergence: observed order of the static mesh convergence (eq 5.109) */
} PlVerifySourceKind;

/* The number a measure takes from a series over a check's window (verification/README.md). */
typedef enum {
  PL_MEASURE_NONE = 0,        /* no measure: the series itself, or its value at 'at' */
  PL_MEASURE_PERIOD,          /* mean spacing of the upward zero crossings of y - mean(y) */
  PL_MEASURE_DRIFT,           /* largest |y - y_first| */
  PL_MEASURE_MAX_RISE,        /* largest y_j - y_i over i < j (>= 0) */
  PL_MEASURE_CHANGE,          /* y_last - y_first */
  PL_MEASURE_MAX,
  PL_MEASURE_MIN,
  PL_MEASURE_MEAN
} PlVerifyMeasure;

/* Where a computed or reference quantity comes from. Files of a run are in WORK/runs/ID;
 * files without a run are in the case folder. */
typedef struct {
  PlVerifySourceKind kind;
  int run;                       /* index into runs, or -1 (a case-folder file) */
  char file[PL_PATH_MAX];        /* NAMED, COLUMN */
  char key[PL_VERIFY_TEXT_MAX];  /* SUMMARY: the summary.json key; NAMED: the row name */
  char column[PL_VERIFY_TEXT_MAX];   /* COLUMN: the column ("" when norm_of is used) */
  char norm_of[2][PL_VERIFY_TEXT_MAX]; /* COLUMN: the value is hypot of these two columns */
  char x[PL_VERIFY_NAME_MAX];    /* COLUMN: abscissa column; "" = S_m if present, else t_s */
  int has_at;
  double at;                     /* COLUMN: take the value at x = at (a scalar) */
  double value;                  /* VALUE */
  double scale;                  /* every value is multiplied by it (default 1) */
  int nconv;                     /* CONVERGENCE: runs of the meshes compared */
  int conv_runs[PL_VERIFY_MAX_RUNS];
  int conv_reference;            /* CONVERGENCE: run of the fine reference mesh */
  double conv_length;            /* CONVERGENCE: line length L for eps/L and h/L [m] */
  PlVerifyMeasure measure;       /* COLUMN: the number it takes from the series over the window */
  int ndiff;                     /* COLUMN: > 0: difference_rms of the series of these runs to the
                                    reference run's (a number for one run, a sequence for several);
                                    run is -1 then */
  int diff_runs[PL_VERIFY_MAX_RUNS];
  int diff_reference;            /* COLUMN with ndiff > 0: the reference run */
  char diff_abscissa[PL_VERIFY_TEXT_MAX]; /* COLUMN with ndiff > 1: the summary.json key that is each
                                    run's abscissa in the sequence ("": 1, 2, 3, ...) */
} PlVerifySource;

typedef struct {
  char quantity[160];
  char unit[32];
  PlVerifySource computed, reference;
  PlTolerance tol;
  double window[2];              /* abscissa range that a series check compares, a measure reduces
                                    and difference_rms takes of the reference run (NaN: open) */
  char known_miss[512];          /* "": none; else why this check is known to miss (shown in the
                                    report; a failure of it does not fail the run) */
} PlVerifyCheck;

/* A curve of a report plot: a column pair of a run's file, of a case-folder file or of a
 * file the checks derived (convergence.csv), or summary values of several runs. */
typedef struct {
  int run;                       /* -1: not a run's file */
  int derived;                   /* file is in the case's work directory */
  char file[PL_PATH_MAX];
  char x[PL_VERIFY_TEXT_MAX], y[PL_VERIFY_TEXT_MAX];
  char norm_of[2][PL_VERIFY_TEXT_MAX]; /* y = hypot of two columns instead of y */
  double xscale, yscale;         /* default 1 */
  int nruns;                     /* > 0: summary values of these runs against at[] */
  int runs[PL_VERIFY_MAX_RUNS];
  double at[PL_VERIFY_MAX_RUNS];
  char key[PL_VERIFY_TEXT_MAX];
  char title[PL_VERIFY_TEXT_MAX];
  char style[16];                /* lines, points, linespoints */
  char color[16];                /* "#rrggbb", "" for the next of the palette */
  int every;                     /* plot every n-th row (points of a dense file); 0 or 1: all */
} PlVerifySeries;

typedef struct {
  char name[PL_VERIFY_NAME_MAX]; /* file stem */
  char title[PL_VERIFY_TEXT_MAX], xlabel[PL_VERIFY_TEXT_MAX], ylabel[PL_VERIFY_TEXT_MAX];
  char logscale[4];              /* "", "x", "y" or "xy" */
  double xrange[2];              /* abscissa range shown; NaN: automatic */
  int nseries;
  PlVerifySeries series[PL_VERIFY_MAX_SERIES];
} PlVerifyPlot;

typedef struct {
  char name[PL_VERIFY_NAME_MAX]; /* the folder's name */
  char dir[PL_PATH_MAX];         /* the case folder */
  char title[PL_VERIFY_TEXT_MAX];
  char about[8192];              /* the comment block at the top of case.yaml, '#' removed */
  int slow;                      /* takes more than a minute (CTest label slow) */
  int nruns, nchecks, nplots;
  PlVerifyRun runs[PL_VERIFY_MAX_RUNS];
  PlVerifyCheck checks[PL_VERIFY_MAX_CHECKS];
  PlVerifyPlot plots[PL_VERIFY_MAX_PLOTS];
} PlVerifyCase;

/* Reads dir/case.yaml. Returns 0, or PL_EXIT_BAD_INPUT with "FILE:LINE:COL: key: what"
 * in err. c is large (about 1 MB): allocate it on the heap. */
int PlVerifyCaseLoad(const char *dir, PlVerifyCase *c, PlError *err);

/* Evaluates the checks of c on the runs in work (work/runs/ID/...). run_status[k] is the
 * exit status of run k (nonzero: its checks fail with a note). out has room for
 * c->nchecks results. Derived files (convergence.csv) are written into work. */
void PlVerifyCaseEvaluate(const PlVerifyCase *c, const char *work, const int *run_status,
                          PlCheckResult *out);

/* Draws the case's plots into work/NAME.gp, .png, .svg (gnuplot, as the run plots).
 * Returns the number of plots drawn; warnings go to warnings (NULL: silent). */
int PlVerifyCasePlots(const PlVerifyCase *c, const char *work, FILE *warnings);
