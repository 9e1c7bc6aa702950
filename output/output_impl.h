/*
 * output_impl.h - helpers shared by the files of output/ (never included by a public header).
 */
#pragma once
#include "pipelay/output.h"


/* 1 when name is non-empty, at most 100 characters of [A-Za-z0-9_-] (safe in file names,
 * XML attributes and gnuplot strings), else 0. */
int PlOutputNameValid(const char *name);

/* Writes ",v" (10 significant digits), or "," when v is not finite (undefined, not given). (statistics.c) */
void PlCsvNumber(FILE *f, double v);

/* Writes the cJSON root as dir/summary.json (through a temporary file renamed over it; root
 * stays the caller's). 0 or PL_EXIT_IO with err. (ownership.c) */
int PlOutputSummaryWrite(const char *dir, const void *root, PlError *err);

/* The sea surface of a run in waves as a ParaView block (sea_surface.c): a grid about the line
 * at each frame's time. Create returns NULL in a calm sea (err untouched) or on failure (err
 * set); Block fills b (name "sea", the grid's quads, the point data elevation_m in *elevation,
 * valid until the next call) for time t_s, its extent fixed at the first call from the nodes. */
typedef struct PlSeaSurface_ *PlSeaSurface;
PlSeaSurface PlSeaSurfaceCreate(const PlModel *m, PlError *err);
void PlSeaSurfaceBlock(PlSeaSurface s, double t_s, const PlStation *nodes, int nnodes, PlVtkBlock *b,
                       PlVtkArray *elevation);
void PlSeaSurfaceDestroy(PlSeaSurface *s); /* accepts NULL and a NULL handle */
