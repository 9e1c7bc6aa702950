/*
 * output.h - views of a run's results: ParaView files (VTK XML) and plots (gnuplot).
 *
 * A layer above solver/: it reads PlStation arrays (solver.h) and the CSV files a run
 * leaves, and writes into the run's output directory DIR:
 *   DIR/vtk/static.vtu, DIR/static.pvd              the static state (one output time, t = 0)
 *   DIR/vtk/dynamic_000000.vtu ..., DIR/dynamic.pvd  one file per output time of a dynamic run
 *   DIR/plots/NAME.gp, NAME.png, NAME.svg            gnuplot scripts and their images
 * Nothing below this layer includes it. All functions run on one process (rank 0 of a
 * parallel run, which holds the stations); none uses MPI or PETSc.
 *
 * Errors: the VTK functions return 0, PL_EXIT_IO (a file could not be written) or
 * PL_EXIT_FAILURE (misuse, e.g. time going backwards), with one line in err->msg. Plots
 * never fail a run: a missing gnuplot or a failed script is a warning.
 */
#pragma once
#include <stdint.h>
#include <stdio.h>
#include "pipelay/models.h"
#include "pipelay/results.h"

/* ---- VTK XML unstructured grids (.vtu) and collections (.pvd) ---------------------------- */

/* A point-data array of a block: npoints tuples of ncomponents doubles. */
typedef struct {
  const char *name;          /* ParaView array name, with its unit (e.g. "effective_tension_N") */
  int ncomponents;           /* 1 (scalar) or 3 (vector in the global frame) */
  const double *values;      /* [npoints * ncomponents], tuple-major; not owned */
} PlVtkArray;

/* One cell block: an unstructured grid with its own points, cells and point data. The
 * line is one block (a poly line through the nodes); later blocks (a vessel box, say) are
 * written to their own .vtu files and listed as further parts of the same output time in
 * the .pvd (ParaView shows a multiblock data set). Nothing here is owned by the block. */
typedef struct {
  const char *name;          /* [A-Za-z0-9_-]+: pvd part name, suffix of the file name */
  int npoints;
  const double *points;      /* [3 npoints] positions [m], global frame */
  int ncells;
  const int64_t *connectivity; /* point indices of every cell, cell after cell */
  const int64_t *offsets;    /* [ncells] end of each cell in connectivity (VTK convention) */
  const uint8_t *types;      /* [ncells] VTK cell types: 4 poly line, 12 hexahedron, ... */
  int narrays;
  const PlVtkArray *arrays;  /* [narrays] point data */
} PlVtkBlock;

/* Writes block b to path as a VTK XML unstructured grid, Float64/Int64 arrays in appended raw
 * binary (host byte order, UInt64 headers), with the field-data array TimeValue = t_s:
 * atomically (path.tmp, then rename) for a file a collection already lists (static.vtu), or
 * in place (frame 1: a dynamic frame, which its collection lists only once it is written; an
 * existing file of an earlier run is overwritten in its inode: a new file and a rename per
 * frame cost the file system most of a moored system's run when the folder is reused).
 * Returns 0 or PL_EXIT_IO. */
int PlVtkWriteBlock(const char *path, const PlVtkBlock *b, double t_s, int frame, PlError *err);

typedef enum {
  PL_VTK_STATIC = 0,         /* one output: DIR/vtk/static.vtu, DIR/static.pvd */
  PL_VTK_DYNAMIC = 1         /* DIR/vtk/dynamic_%06d.vtu, DIR/dynamic.pvd */
} PlVtkSeriesKind;

typedef struct PlVtkSeries_ *PlVtkSeries;

/* A time series of the line in ParaView files. Create makes DIR and DIR/vtk, removes the
 * dynamic_*.vtu of an earlier dynamic run (PL_VTK_DYNAMIC only) and writes an empty
 * collection, so that the .pvd is valid from the start. The section table of m (outer
 * diameter along the arc length) is copied: m need not outlive the series.
 * Returns 0 or PL_EXIT_IO; *vs is NULL on failure. */
int PlVtkSeriesCreate(const char *dir, PlVtkSeriesKind kind, const PlModel *m, PlVtkSeries *vs,
                      PlError *err);

/* A dynamic series continued by a restarted run: keeps DIR/vtk/dynamic_000000.vtu ..
 * dynamic_<nkeep-1>.vtu (written before, at times[0..nkeep)) in the collection and goes on
 * from there. Returns as PlVtkSeriesCreate. */
int PlVtkSeriesResume(const char *dir, const PlModel *m, int nkeep, const double *times, PlVtkSeries *vs,
                      PlError *err);

/* Writes the line at time t_s [s] from its node stations (as the rows of static.csv, from
 * the bottom end) and rewrites the .pvd atomically (tmp + rename), so an interrupted run
 * leaves a valid collection of every output time written so far. Point data:
 *   S_m, outer_diameter_m, radius_m (= d_o/2, for ParaView's Tube filter), effective_tension_N,
 *   shear_force_2_N, shear_force_3_N, torque_Nm, bending_moment_2_Nm, bending_moment_3_Nm,
 *   curvature_1pm, axial_strain, seabed_force_Npm, t2, t3 (section axes, 3-vectors, global).
 * Dynamic series: t_s must increase from call to call (else PL_EXIT_FAILURE). A static
 * series holds one output: a second call replaces it. Returns 0, PL_EXIT_IO or
 * PL_EXIT_FAILURE. */
int PlVtkSeriesWrite(PlVtkSeries vs, double t_s, const PlStation *nodes, int nnodes, PlError *err);

/* As PlVtkSeriesWrite, plus nextra further blocks at the same time: block k goes to
 * vtk/<stem>_<block name>.vtu and is part k+1 of this output time in the .pvd (the line is
 * part 0). The set of extra block names should be the same at every output time. */
int PlVtkSeriesWriteBlocks(PlVtkSeries vs, double t_s, const PlStation *nodes, int nnodes,
                           const PlVtkBlock *extra, int nextra, PlError *err);
/* As PlVtkSeriesWrite, with the static stations ref at the same nodes (the functional part of a
 * dynamic frame's DNV-ST-F101 utilisation; NULL: a dynamic frame has no utilisation array).
 * With the model's design: block every frame also carries internal_pressure_Pa,
 * external_pressure_Pa, true_wall_tension_N, hoop_stress_inner_Pa, von_mises_Pa and, with
 * design.dnv_f101, dnv_utilisation (the largest of LCC and DCC, combinations a and b). */
int PlVtkSeriesWriteRef(PlVtkSeries vs, double t_s, const PlStation *nodes, const PlStation *ref, int nnodes,
                        PlError *err);

/* A dynamic series of a model with waves also writes the sea surface at every frame: a square
 * grid of 101 x 101 points about the line's plan extent at its first frame (widened by a tenth
 * and at least 20 m on every side), at z = eta(x, y, t) of the model's sea (the one the loads
 * see, ramp included), joined by quadrilaterals, point data elevation_m; vtk/dynamic_NNNNNN_sea.vtu,
 * part "sea" of the frame's time in the .pvd (output/sea_surface.c). A run restarted from
 * restart.bin lists the sea from the restart on. Nothing in a calm sea or a static series.
 * Returns 0, or PL_EXIT_FAILURE (out of memory) with err. */
int PlVtkSeriesAddSea(PlVtkSeries vs, const PlModel *m, PlError *err);

/* Rewrites the .pvd (idempotent: it is already current after every write) and removes the
 * frames an earlier, longer run left beyond this run's in the folder. Call it at the end of
 * the run (also an interrupted one); returns 0 or PL_EXIT_IO. */
int PlVtkSeriesFinish(PlVtkSeries vs, PlError *err);

/* Frees the series (accepts NULL and a NULL handle; sets *vs to NULL). Writes nothing. */
void PlVtkSeriesDestroy(PlVtkSeries *vs);

/* ---- plots (gnuplot) ------------------------------------------------------------------- */

#define PL_PLOT_MAX_MARKS 32
typedef struct {
  double water_depth_m;      /* seabed line in the configuration plot; NaN: not drawn */
  double seabed_dzdx;        /* its slope along x at y = 0 (a sloped seabed), 0 flat */
  char name[256];            /* the model's name, shown under the titles; "" for none */
  FILE *warnings;            /* where warnings go ("pipelay: warning: ..."); NULL: silent */
  double touchdown_S_m;      /* static touchdown point, marked on the plots; NaN: none */
  int nboundaries;           /* section boundaries (arc lengths between sections), marked */
  double boundary_S_m[PL_PLOT_MAX_MARKS];
} PlPlotOptions;

/* Defaults: no water depth, no name, no marks, warnings to stderr. */
void PlPlotOptionsDefault(PlPlotOptions *o);

/* The options of a run of model m with its output in dir: the water depth, the name, the
 * section boundaries, and the static touchdown point recorded in dir/summary.json. */
void PlPlotOptionsFromModel(PlPlotOptions *o, const PlModel *m, const char *dir);

/* Options for the plots of a finished run in dir: the name and the water depth of the
 * model recorded in dir/summary.json (input.model_file with input.overrides, loaded
 * again; when that fails the seabed is not drawn). Never fails. */
void PlPlotOptionsFromRun(const char *dir, PlPlotOptions *o);

/* While on, the plot functions below start gnuplot and return without waiting (their count of
 * images is then 0): the static plots of a dynamic run are drawn while it integrates.
 * PlPlotWaitBackground waits for every plot so started, warns as the plot functions do, and
 * returns the number of images written, or -1 when one failed. Call it before the run's file
 * list is recorded and before the process ends. */
void PlPlotInBackground(int on);
int PlPlotWaitBackground(void);

/* Static plots from dir/static.csv: the configuration (elevation x-z and plan x-y),
 * effective tension, bending moments, curvature and seabed contact force along the arc
 * length. Scripts go to dir/plots/static_*.gp, images (PNG and SVG) beside them.
 * Returns the number of images written (2 per plot), or -1 when nothing could be plotted
 * (no gnuplot, no static.csv, a script failed): a warning says why. */
int PlPlotStatic(const char *dir, const PlPlotOptions *o);
/* The static configuration of a model of several lines (dir/summary.json with "analysis":
 * "static_lines"): every line (dir/line_NAME/static.csv), the points and the bodies' origins,
 * in elevation (x-z) and plan (x-y), into dir/plots/static_system.*. Returns the number of
 * plots drawn (1), or -1 with warnings to o->warnings. */
int PlPlotSystem(const char *dir, const PlPlotOptions *o);
/* The rigid bodies at time t_s as boxes, one hexahedron each (point data body_index): box b
 * of edges dims[b] (along its body axes x, y, z [m]) centred at centre[b] and turned by R[b]
 * (body -> global, row-major); a dynamic frame (PlVtkWriteBlock, frame 1). 0, PL_EXIT_IO or
 * PL_EXIT_FAILURE. */
int PlVtkBoxesWrite(const char *path, double t_s, int nboxes, const double (*centre)[3], const double (*R)[9],
                    const double (*dims)[3], PlError *err);
/* dir/STEM.pvd listing nframes files (file_format with the frame index, e.g.
 * "vtk/bodies_%06d.vtu", relative to dir) at times[]. 0 or PL_EXIT_IO. */
int PlVtkCollectionWrite(const char *dir, const char *stem, int nframes, const double *times, const char *file_format,
                         PlError *err);
/* dir/static.pvd of a model of several lines: one ParaView collection with every line's
 * line_NAME/vtk/static.vtu as a block. 0 or PL_EXIT_IO. */
int PlVtkSystemCollection(const char *dir, int nlines, const char *const *names, PlError *err);
/* dir/dynamic.pvd of a dynamic run of several lines (nframes > 0): at each times[k] every
 * line's line_NAME/vtk/dynamic_%06d.vtu (frame k) as a block and, with bodies, the bodies'
 * boxes vtk/bodies_%06d.vtu as one more; nframes = 0: the static collection (as above).
 * 0 or PL_EXIT_IO. */
int PlVtkSystemSeries(const char *dir, int nlines, const char *const *names, int bodies, int nframes,
                      const double *times, PlError *err);

/* Dynamic plots from dir/envelopes.csv and dir/timeseries_<name>.csv (whichever exist):
 * envelopes of displacement, bending moment and effective tension along the arc length,
 * the top tension against time and, per time-series file, the position, tension, bending
 * moments and curvature against time (dynamic_*.gp, .png, .svg in dir/plots).
 * Returns the number of images written, 0 when there are no dynamic files, -1 on failure. */
int PlPlotDynamic(const char *dir, const PlPlotOptions *o);

/* Sweep plots from dir/sweep.csv (pipelay sweep): top tension, hang-off angle, layback,
 * largest bending moment and fibre strain against the varied value (key: its name on the
 * axis), cases that did not converge marked. dir/plots/sweep_*.gp, .png, .svg. Returns the
 * number of images written, or -1 with a warning. */
int PlPlotSweep(const char *dir, const char *key, const PlPlotOptions *o);
/* The polar plot of pipelay operability from dir/allowable.csv: the allowable Hs (interpolated,
 * and the tabulated as points) against the heading, a curve per peak period.
 * dir/plots/operability_polar.gp, .png, .svg. Returns the number of images, or -1 with a warning. */
int PlPlotOperability(const char *dir, const PlPlotOptions *o);
/* The plots of a sweep of a system of lines (dir/sweep.csv of pipelay sweep): with
 * offset_column (a force sweep on a body: that body's offset column) the restoring curve
 * (the load in kN against the offset) and the restoring stiffness (kN/m) against the offset;
 * the top tensions of the columns tension_columns[ntension] (kN) against the offset or the
 * value. dir/plots/sweep_*.gp, .png, .svg. Returns the number of images, or -1 with a warning. */
int PlPlotSweepSystem(const char *dir, const char *key, const char *offset_column, const char *const *tension_columns,
                      int ntension, const PlPlotOptions *o);

/* ---- what a static run writes besides its CSV and JSON files ----------------------------- */

/* The static VTK series (dir/vtk/static.vtu, dir/static.pvd) and, when plots is nonzero,
 * the static plots (warnings on stderr; never an error). Rank 0 only.
 * Returns 0 or PL_EXIT_IO with err->msg. */
int PlOutputWriteStatic(const char *dir, const PlModel *m, const PlStation *nodes, int nnodes,
                        int plots, PlError *err);

/* ---- free decays (output/decay.c; pipelay decay) -------------------------------------- */
typedef struct {
  double t, x;  /* the extreme's time [s] and value (the vertex of the parabola through 3 samples) */
  int kind;     /* 1 a maximum, -1 a minimum */
} PlDecayExtreme;
typedef struct {
  double t;              /* [s] the cycle's first extreme */
  double period;         /* [s] to the next extreme of the same kind */
  double amplitude;      /* half the swing after t (the signal's unit) */
  double damping_ratio;  /* from the logarithmic decrement of swings a period apart */
} PlDecayCycle;
/* The cycles of the free decay x(t) (n samples, t increasing): its alternating extremes into
 * ext[max_ext] (*next of them, those while the swing exceeds 1e-4 of the largest), and per
 * cycle the period, amplitude and damping ratio (see decay.c) into cycles[max_cycles].
 * Returns the number of cycles (0: fewer than 4 extremes). */
int PlDecayAnalyse(const double *t, const double *x, int n, PlDecayCycle *cycles, int max_cycles,
                   PlDecayExtreme *ext, int max_ext, int *next);
/* Whether the extremes of PlDecayAnalyse are a decay (see decay.c): the logarithmic decrement
 * per period fitted to all the swings and its standard error; decays is 1 when the decrement is
 * positive (a damping ratio above 1e-4) and at least 3 standard errors. */
typedef struct {
  int decays;
  double log_decrement;     /* fitted to every swing [-] (NAN: fewer than 3 swings) */
  double log_decrement_se;  /* its standard error [-] */
} PlDecayFit;
void PlDecayFitSwings(const PlDecayExtreme *ext, int next, PlDecayFit *fit);
/* Plots of the decay of a body's DOF dof (column `column`, in unit) of dir/timeseries_BODY.csv
 * and its cycles in dir/decay_BODY_DOF.csv: the signal, the period of each cycle against time,
 * the damping ratio against the amplitude (dir/plots/decay_BODY_DOF.*). Returns the number of
 * images, or -1 with a warning. */
int PlPlotDecay(const char *dir, const char *body, const char *dof, const char *column, const char *unit,
                const PlPlotOptions *o);

/* The gnuplot program: $PIPELAY_GNUPLOT (a path, or a name looked up on PATH), else
 * "gnuplot" on PATH; "" when not found or not executable. (plot.c) */
void PlOutputFindGnuplot(char *out, size_t len);

/* ---- CSV tables (output/table.c) ---------------------------------------------------------
 * A CSV file in memory: named columns of numbers. Comma-separated when the header line has
 * a comma, else separated by blanks; a field may be in double quotes; lines that are
 * blank or start with '#' (after blanks) are skipped; the first other line names the
 * columns. A field that is not a number reads as NaN and keeps its text. */
typedef struct {
  int ncols, nrows;
  char **names;              /* [ncols] column names (pointers into the file buffer) */
  double *values;            /* [ncols * nrows] column after column: values[c * nrows + r] */
  char **text;               /* [ncols * nrows] the fields as written, same layout */
  char *buffer;              /* the file's text, split in place (owned) */
  char path[PL_PATH_MAX];    /* as opened, for messages */
} PlTable;

/* Reads path into t. Returns 0, or PL_EXIT_BAD_INPUT with "PATH:LINE: what" in err (a
 * missing file, a row with the wrong number of fields, no header, duplicate names); t is
 * then empty. Free with PlTableFree. */
int PlTableRead(const char *path, PlTable *t, PlError *err);
/* Frees what t owns and empties it (accepts an empty or zeroed table). */
void PlTableFree(PlTable *t);
/* Index of the column called name, or -1. */
int PlTableColumn(const PlTable *t, const char *name);
/* Column c as an array of nrows numbers (not a copy). */
const double *PlTableData(const PlTable *t, int c);

/* Linear interpolation of (x[i], y[i]), x increasing, at a; NaN outside [x[0], x[n-1]]
 * (ends matched within 1e-9 of the span) or when n < 1. */
double PlInterpolate(const double *x, const double *y, int n, double a);

/* ---- statistics of time series (output/statistics.c: the definitions and their derivation) ---- */
typedef struct {
  double mean, std, min, max; /* over the samples from the start time on (time-weighted) */
  double duration;            /* [s] the window */
  double tz;                  /* [s] mean zero up-crossing period of x - mean; NaN below 2 crossings */
  int cycles;                 /* complete up-crossing cycles */
  int fitted[2];              /* a Weibull fit of the peaks' [0] and the troughs' [1] upper halves (20 or more) */
  double weibull_alpha[2], weibull_beta[2]; /* its scale (the series' unit) and shape */
} PlSeriesStats;

/* The statistics of x sampled at t[0..n-1] (increasing) from t0 on. 0, 1 with fewer than two
 * samples there, 2 out of memory. */
int PlSeriesStatistics(const double *t, const double *x, int n, double t0, PlSeriesStats *st);
/* The most probable maximum (minimum: minimum = 1) over `duration` seconds: the Rayleigh form
 * mean +- std sqrt(2 ln N) (weibull = 0) or the peaks' upper-tail Weibull fit mean +- alpha (ln N)^(1/beta),
 * N = duration / tz; NaN when undefined (no Tz, N <= 1, no fit). */
double PlSeriesMPM(const PlSeriesStats *st, int weibull, int minimum, double duration);
/* Welch's segment length for n samples: the largest power of two within n/4, 64 to 4096 (0
 * when n < 64). */
int PlWelchLength(int n);
/* The one-sided power spectral density S[0..L/2] [unit^2/Hz] at f_k = k / (L dt) of the n
 * samples x at spacing dt, by Welch's method on L-sample Hann segments half overlapping (L a
 * power of two, L <= n). 0, or 1 out of memory or L out of range. */
int PlWelchSpectrum(const double *x, int n, double dt, int L, double *S);
/* The statistics of every time series of the run in dir (each CSV whose first column is t_s,
 * in dir and its line_NAME folders, but energy.csv) from t0 on, in dir/statistics.csv and
 * summary.json's "statistics" (rank 0, after the run), their spectra in dir/spectra.csv; with
 * irregular the most probable maxima and minima over the run and a 3-hour storm too; say (or NULL): the top ends' tension statistics
 * printed there. 0, or PL_EXIT_IO with err. */
int PlRunStatistics(const char *dir, double t0, int irregular, FILE *say, PlError *err);

/* ---- the run's files (output/ownership.c) ------------------------------------------------ */
/* Removes from dir every file of the kinds a run writes (results, time series, restart.bin,
 * ParaView files in vtk/, plots in plots/) but the numbered ParaView frames, which the run
 * writes over in place; other files stay. 0 or PL_EXIT_IO naming the file. */
int PlOutputClean(const char *dir, PlError *err);

/* dir/summary.json parsed (a cJSON *, free with cJSON_Delete), or NULL when it is missing,
 * larger than 64 MiB or not JSON. (ownership.c) */
void *PlOutputSummaryRead(const char *dir);

/* Notes a numbered ParaView frame this process wrote (PlVtkWriteBlock, by its inode). */
void PlOutputFrameWritten(const char *path);

/* After PlOutputClean: removes the numbered frames this process did not write (an earlier
 * run's that this one did not write over); then adds "files" (the run's files, relative to
 * dir) to dir/summary.json, atomically. */
int PlOutputRecordFiles(const char *dir, PlError *err);

/* 1 when rel (a path relative to dir) is listed in dir/summary.json's "files", or when the
 * summary has no such list (a killed run, an older version); else 0. */
int PlOutputFileListed(const char *dir, const char *rel);

/* The run's files in dir as one line: "static.csv, summary.json, ..., vtk/ (12 files)". */
void PlOutputDescribeFiles(const char *dir, char *buf, size_t len);


/* ---- operability over sea states (output/operability.c) ----------------------------------- */
/* The criteria of a case, in the columns' order; PlOperCriterionNames are their column names. */
enum { PL_OPER_UTILISATION, PL_OPER_TOP_TENSION, PL_OPER_MIN_TENSION, PL_OPER_FIBRE_STRAIN, PL_OPER_NCRIT };
extern const char *const PlOperCriterionNames[PL_OPER_NCRIT];
#define PL_SECONDS_PER_YEAR 31557600.0 /* 365.25 days */
typedef struct {
  double limit[PL_OPER_NCRIT]; /* the largest allowed value (the least, PL_OPER_MIN_TENSION); NaN: unused */
} PlOperLimits;
typedef struct {
  double hs, tp, heading;      /* the sea state [m, s, deg] */
  int completed;               /* its run reached the duration */
  double value[PL_OPER_NCRIT]; /* the run's extreme of each criterion */
} PlOperCase;
typedef struct {
  double tp, heading;
  double allowable_hs;         /* the largest Hs of the table up to which every case passes (0: none) */
  double allowable_hs_interpolated; /* the first failing criterion's crossing, linear in Hs */
  double hs_fail;              /* the smallest Hs that fails (NaN: none) */
  int bounded;                 /* 0: every Hs passes (allowable_hs is then a lower bound) */
  int governing;               /* the criterion that fails first; PL_OPER_NCRIT: a run that did
                                  not complete; -1: none fails */
} PlOperAllowable;
/* Exceedance of criterion c at value: > 0 fails (value - limit, limit - value for the least
 * effective tension); NaN for an unused criterion. */
double PlOperExceedance(const PlOperLimits *L, int c, double value);
/* 1 when case k's run completed and keeps every used limit. */
int PlOperCasePasses(const PlOperLimits *L, const PlOperCase *k);
/* The allowable Hs of each (Tp, heading) of cases[n] (output/operability.c derives the rule)
 * into out[] (room for n), sorted by Tp then heading; group[i] (may be NULL) gets case i's
 * group. Returns the number of groups, or -1 out of memory. */
int PlOperAllowableHs(const PlOperLimits *L, const PlOperCase *cases, int n, PlOperAllowable *out, int *group);
/* The damage per year of cases that each did damage[i] in window_s[i] seconds and occur
 * occurrence[i] of the year: sum damage / window x occurrence x PL_SECONDS_PER_YEAR. */
double PlOperDamagePerYear(const double *damage, const double *window_s, const double *occurrence, int n);
