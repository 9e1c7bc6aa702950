/*
 * sea_surface.c - the sea surface of a run in waves as a ParaView block: a square grid of
 * PL_SEA_GRID x PL_SEA_GRID points (x, y, eta(x, y, t)) joined by quadrilaterals (VTK_QUAD), with
 * the point data elevation_m = eta. The elevation is the one the loads see: the model's sea
 * (PlWavesCreate from its waves: block, with its ramp), evaluated at each frame's time
 * (PlWavesElevation: the linear components' sum, or the stream-function wave).
 *
 * Extent: fixed at the first frame from the line's nodes, their plan bounding box made square
 * (the larger side) and widened on every side by a tenth of that side and at least 20 m, so
 * that a riser (a point in plan) or a J-lay (a line along x) sits in a patch of sea around it.
 * With 101 x 101 points, a frame costs 10^4 elevations: 10^6 cosines for a 100-component sea,
 * a few ms, once per ParaView frame (output.vtk_interval), not per residual.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pipelay/waves.h"
#include "output_impl.h"

enum { PL_SEA_GRID = 101 };

struct PlSeaSurface_ {
  PlWaves *w;
  int have_extent;
  double x0, y0, h;  /* the grid's corner (x0, y0) and spacing h [m] */
  double *points;    /* [3 N^2] */
  double *eta;       /* [N^2] */
  int64_t *conn;     /* [4 (N-1)^2] */
  int64_t *offsets;  /* [(N-1)^2] */
  uint8_t *types;    /* [(N-1)^2] */
};

PlSeaSurface PlSeaSurfaceCreate(const PlModel *m, PlError *err)
{
  if (m->sea.ntrains < 1) return NULL;
  const int n = PL_SEA_GRID, nc = (n - 1) * (n - 1);
  PlSeaSurface s = calloc(1, sizeof *s);
  if (s) {
    s->points = malloc(sizeof(double) * 3 * (size_t)n * n);
    s->eta = malloc(sizeof(double) * (size_t)n * n);
    s->conn = malloc(sizeof(int64_t) * 4 * (size_t)nc);
    s->offsets = malloc(sizeof(int64_t) * (size_t)nc);
    s->types = malloc((size_t)nc);
  }
  if (!s || !s->points || !s->eta || !s->conn || !s->offsets || !s->types) {
    PlSeaSurfaceDestroy(&s);
    snprintf(err->msg, sizeof err->msg, "sea surface: out of memory");
    return NULL;
  }
  char msg[PL_ERRMSG_MAX];
  s->w = PlWavesCreate(m->water_depth, m->gravity, m->water_density, m->sea.stretching, m->sea.trains, m->sea.ntrains,
                       msg, sizeof msg);
  if (!s->w || PlWavesSetRamp(s->w, m->sea.ramp_time)) {
    snprintf(err->msg, sizeof err->msg, "sea surface: %.900s", s->w ? "the ramp needs a linear sea" : msg);
    PlSeaSurfaceDestroy(&s);
    return NULL;
  }
  for (int j = 0; j + 1 < n; ++j) /* quad (i, j): counter-clockwise seen from above */
    for (int i = 0; i + 1 < n; ++i) {
      const int c = j * (n - 1) + i;
      const int64_t p = (int64_t)j * n + i;
      s->conn[4 * c] = p, s->conn[4 * c + 1] = p + 1, s->conn[4 * c + 2] = p + 1 + n, s->conn[4 * c + 3] = p + n;
      s->offsets[c] = 4 * (int64_t)(c + 1);
      s->types[c] = 9; /* VTK_QUAD */
    }
  return s;
}

/* The grid's corner and spacing from the nodes' plan extent (see the file's comment). */
static void Extent(PlSeaSurface s, const PlStation *nodes, int nnodes)
{
  double lo[2] = {nodes[0].x[0], nodes[0].x[1]}, hi[2] = {lo[0], lo[1]};
  for (int i = 1; i < nnodes; ++i)
    for (int c = 0; c < 2; ++c) lo[c] = fmin(lo[c], nodes[i].x[c]), hi[c] = fmax(hi[c], nodes[i].x[c]);
  const double side = fmax(hi[0] - lo[0], hi[1] - lo[1]), pad = fmax(0.1 * side, 20.0), full = side + 2.0 * pad;
  s->x0 = 0.5 * (lo[0] + hi[0]) - 0.5 * full;
  s->y0 = 0.5 * (lo[1] + hi[1]) - 0.5 * full;
  s->h = full / (PL_SEA_GRID - 1);
  s->have_extent = 1;
}

void PlSeaSurfaceBlock(PlSeaSurface s, double t_s, const PlStation *nodes, int nnodes, PlVtkBlock *b,
                       PlVtkArray *elevation)
{
  const int n = PL_SEA_GRID;
  if (!s->have_extent) Extent(s, nodes, nnodes);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const int p = j * n + i;
      const double x = s->x0 + i * s->h, y = s->y0 + j * s->h, eta = PlWavesElevation(s->w, x, y, t_s);
      s->points[3 * p] = x, s->points[3 * p + 1] = y, s->points[3 * p + 2] = eta;
      s->eta[p] = eta;
    }
  elevation->name = "elevation_m";
  elevation->ncomponents = 1;
  elevation->values = s->eta;
  const PlVtkBlock blk = {"sea", n * n, s->points, (n - 1) * (n - 1), s->conn, s->offsets, s->types, 1, elevation};
  *b = blk;
}

void PlSeaSurfaceDestroy(PlSeaSurface *s)
{
  if (!s || !*s) return;
  PlWavesDestroy((*s)->w);
  free((*s)->points);
  free((*s)->eta);
  free((*s)->conn);
  free((*s)->offsets);
  free((*s)->types);
  free(*s);
  *s = NULL;
}
