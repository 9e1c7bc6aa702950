/*
 * start_shape.c - a previous run's static shape as the start of a new solve
 * (analysis.start_from / --start-from): its static.csv read back.
 *
 * static.csv (solver/results.c) has one row per node with S_m, x_m, y_m, z_m and the
 * section axes t2_x ... t3_z (the mean of the adjacent elements' axes at a node). The
 * reader takes those columns by name, in any order, and requires S strictly increasing.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pipelay/models.h"

static const char *const kCols[PL_SHAPE_NCOL] = {"S_m", "x_m", "y_m", "z_m", "t2_x", "t2_y", "t2_z", "t3_x", "t3_y", "t3_z"};

void PlShapeFree(PlShape *s)
{
  if (!s) return;
  free(s->v);
  memset(s, 0, sizeof *s);
}

int PlShapeRead(const char *dir, PlShape *out, char *msg, size_t len)
{
  char path[2 * PL_PATH_MAX];
  memset(out, 0, sizeof *out);
  snprintf(path, sizeof path, "%s/static.csv", dir);
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(msg, len, "cannot read %s: %s (give the output directory of a finished static run)", path,
             strerror(errno));
    return -1;
  }
  char line[8192];
  int col[PL_SHAPE_NCOL], ncols = 0, rc = -1;
  for (int k = 0; k < PL_SHAPE_NCOL; ++k) col[k] = -1;
  if (!fgets(line, sizeof line, f)) {
    snprintf(msg, len, "%s: empty file", path);
    goto done;
  }
  for (char *tok = strtok(line, ",\r\n"); tok; tok = strtok(NULL, ",\r\n"), ++ncols)
    for (int k = 0; k < PL_SHAPE_NCOL; ++k)
      if (!strcmp(tok, kCols[k])) col[k] = ncols;
  for (int k = 0; k < PL_SHAPE_NCOL; ++k)
    if (col[k] < 0) {
      snprintf(msg, len, "%s:1: no column %s (not a pipelay static.csv)", path, kCols[k]);
      goto done;
    }
  int cap = 0, lineno = 1;
  while (fgets(line, sizeof line, f)) {
    ++lineno;
    if (out->n == cap) {
      cap = cap ? 2 * cap : 1024;
      double *v = realloc(out->v, sizeof(double) * PL_SHAPE_NCOL * (size_t)cap);
      if (!v) {
        snprintf(msg, len, "%s: out of memory", path);
        goto done;
      }
      out->v = v;
    }
    double vals[256];
    int nv = 0;
    char *p = line;
    while (nv < 256) {
      char *end;
      errno = 0;
      vals[nv] = strtod(p, &end);
      if (end == p || errno == ERANGE || !isfinite(vals[nv])) {
        snprintf(msg, len, "%s:%d:%d: not a finite number", path, lineno, (int)(p - line) + 1);
        goto done;
      }
      ++nv;
      p = end;
      if (*p != ',') break;
      ++p;
    }
    if (nv != ncols) {
      snprintf(msg, len, "%s:%d: %d values, the header has %d", path, lineno, nv, ncols);
      goto done;
    }
    double *r = out->v + (size_t)PL_SHAPE_NCOL * out->n;
    for (int k = 0; k < PL_SHAPE_NCOL; ++k) r[k] = vals[col[k]];
    if (out->n > 0 && !(r[0] > r[-PL_SHAPE_NCOL])) {
      snprintf(msg, len, "%s:%d:1: S_m is not strictly increasing", path, lineno);
      goto done;
    }
    out->n++;
  }
  if (out->n < 2) {
    snprintf(msg, len, "%s: fewer than two nodes", path);
    goto done;
  }
  rc = 0;
done:
  fclose(f);
  if (rc) PlShapeFree(out);
  return rc;
}
