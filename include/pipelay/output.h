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
#include "pipelay/solver.h"

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

/* Writes block b to path (atomically: path.tmp, then rename) as a VTK XML unstructured
 * grid, Float64/Int64 arrays in appended raw binary (host byte order, UInt64 headers),
 * with the field-data array TimeValue = t_s. Returns 0 or PL_EXIT_IO. */
int PlVtkWriteBlock(const char *path, const PlVtkBlock *b, double t_s, PlError *err);

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

/* Rewrites the .pvd (idempotent: it is already current after every write). Call it at the
 * end of the run; returns 0 or PL_EXIT_IO. */
int PlVtkSeriesFinish(PlVtkSeries vs, PlError *err);

/* Frees the series (accepts NULL and a NULL handle; sets *vs to NULL). Writes nothing. */
void PlVtkSeriesDestroy(PlVtkSeries *vs);

/* ---- plots (gnuplot) ------------------------------------------------------------------- */

typedef struct {
  double water_depth_m;      /* seabed line in the configuration plot; NaN: not drawn */
  char name[256];            /* the model's name, shown under the titles; "" for none */
  FILE *warnings;            /* where warnings go ("pipelay: warning: ..."); NULL: silent */
} PlPlotOptions;

/* Defaults: no water depth, no name, warnings to stderr. */
void PlPlotOptionsDefault(PlPlotOptions *o);

/* Options for the plots of a finished run in dir: the name and the water depth of the
 * model recorded in dir/summary.json (input.model_file with input.overrides, loaded
 * again; when that fails the seabed is not drawn). Never fails. */
void PlPlotOptionsFromRun(const char *dir, PlPlotOptions *o);

/* Static plots from dir/static.csv: the configuration (elevation x-z and plan x-y),
 * effective tension, bending moments, curvature and seabed contact force along the arc
 * length. Scripts go to dir/plots/static_*.gp, images (PNG and SVG) beside them.
 * Returns the number of images written (2 per plot), or -1 when nothing could be plotted
 * (no gnuplot, no static.csv, a script failed): a warning says why. */
int PlPlotStatic(const char *dir, const PlPlotOptions *o);

/* Dynamic plots from dir/envelopes.csv and dir/timeseries_<name>.csv (whichever exist):
 * envelopes of displacement, bending moment and effective tension along the arc length,
 * the top tension against time and, per time-series file, the position, tension, bending
 * moments and curvature against time (dynamic_*.gp, .png, .svg in dir/plots).
 * Returns the number of images written, 0 when there are no dynamic files, -1 on failure. */
int PlPlotDynamic(const char *dir, const PlPlotOptions *o);

/* ---- what a static run writes besides its CSV and JSON files ----------------------------- */

/* The static VTK series (dir/vtk/static.vtu, dir/static.pvd) and, when plots is nonzero,
 * the static plots (warnings on stderr; never an error). Rank 0 only.
 * Returns 0 or PL_EXIT_IO with err->msg. */
int PlOutputWriteStatic(const char *dir, const PlModel *m, const PlStation *nodes, int nnodes,
                        int plots, PlError *err);
