/*
 * roller.c - the stinger's rollers in the system (docs/design-system-core.md §2.3): each
 * roller's contact (elements/roller.c) written into its line's momentum rows, in the statics
 * and the dynamics alike.
 *
 * Contact search. A roller's window is its whole line: at every evaluation each of the line's
 * segments is asked whether it crosses the roller's normal plane within reach
 * (PlRollerCrossing), and the highest crossing (the one on the roller's side; a line crosses a
 * plane through a stinger more than once only far below it) carries the contact. The contact
 * writes into the momentum rows of that segment's two nodes, in the position (and velocity)
 * columns of those nodes and the position columns of the nodes either side (the smoothed
 * normal's slopes): the first are entries every element already has in the pattern
 * (system_dynamic.c, ElementEntry), the others the roller records for every segment of its line
 * (RecordWindow), so the pattern stays valid whatever segment the pipe slides the contact onto,
 * and a remesh (pay-out) records it anew with the line. The entries are found by their position in the
 * pattern (PlSysDynPosition), not by the assembly's recorded sequence, whose order they would
 * change as the contact moves. A node attached to a point or a body (its rows redirected) or
 * held takes no roller load: a line's end is at the firing line, not over a roller.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "system_impl.h"

struct PlSysRollers_ {
  int n, line;
  PlRoller *r;
  PlRollerResult *res;   /* at the last residual evaluation */
};

int PlSysRollersCreate(PlSysDyn s)
{
  const PlStinger *g = &s->m->stinger;
  if (!g->present || g->nrollers == 0) return 0;
  PlSysRollers R = calloc(1, sizeof *R);
  if (!R) return 1;
  R->r = calloc((size_t)g->nrollers, sizeof *R->r);
  R->res = calloc((size_t)g->nrollers, sizeof *R->res);
  if (!R->r || !R->res) {
    free(R->r);
    free(R->res);
    free(R);
    return 1;
  }
  R->n = g->nrollers;
  R->line = g->line;
  for (int k = 0; k < R->n; ++k) {
    PlRoller *r = &R->r[k];
    memcpy(r->c, g->rollers[k].c, sizeof r->c);
    memcpy(r->a, g->rollers[k].a, sizeof r->a);
    memcpy(r->n, g->rollers[k].n, sizeof r->n);
    r->rho = g->roller_radius + 0.5 * g->pipe_diameter;
    r->k = g->stiffness;
    r->delta = g->smoothing;
    r->cd = g->damping;
    r->reach = g->reach;
    R->res[k].element = -1;
  }
  s->rollers = R;
  return 0;
}

void PlSysRollersDestroy(PlSysDyn s)
{
  PlSysRollers R = s->rollers;
  if (!R) return;
  free(R->r);
  free(R->res);
  free(R);
  s->rollers = NULL;
}

/* Node i's position x (global) and velocity v. */
static void NodeState(const PlSysDyn s, const PlDynLine d, int base, int i, const double *y, double x[3], double v[3])
{
  const double *yn = y + base + i * s->ndd;
  for (int c = 0; c < 3; ++c) {
    x[c] = yn[c] + d->xs[3 * i + c];
    v[c] = yn[s->iV + c];
  }
}

/* The segment of line d that carries roller r: the highest crossing within reach, -1 none. */
static int Search(const PlSysDyn s, const PlDynLine d, int base, const PlRoller *r, const double *y, PlRollerOut *o)
{
  const int ne = d->sp->mesh.nelements;
  int best = -1;
  double xA[3], xB[3], v[3];
  NodeState(s, d, base, 0, y, xA, v);
  for (int e = 0; e < ne; ++e) {
    PlRollerOut c;
    NodeState(s, d, base, e + 1, y, xB, v);
    if (PlRollerCrossing(r, xA, xB, &c) && (best < 0 || c.gap > o->gap)) {
      best = e;
      *o = c;
    }
    memcpy(xA, xB, sizeof xA);
  }
  return best;
}

/* Adds v at (row, col) of the matrix being assembled (its place found in the pattern). */
static void AddEntry(PlSysDyn s, int row, int col, double v)
{
  const int pos = PlSysDynPosition(s, row, col);
  if (pos >= 0) s->val[pos] += v;
  else s->domain_error = 3; /* not in the pattern: a bug */
}

/* The pattern's entries a roller adds to its line's elements': the momentum rows of each
 * segment's nodes in the position columns of the nodes either side of it (the smoothed
 * normal's slopes, elements/roller.c), for every segment (the window: the whole line). */
static void RecordWindow(PlSysDyn s, const PlSysRollers R)
{
  const PlDynLine d = s->d[R->line];
  const int base = s->loff[R->line], ndd = s->ndd, nn = d->sp->mesh.nnodes;
  for (int i = 0; i < nn; ++i)
    for (int j = i - 2; j <= i + 2; j += 4)
      if (j >= 0 && j < nn)
        for (int r = 0; r < 3; ++r)
          for (int c = 0; c < 3; ++c) PlSysDynRecordEntry(s, base + i * ndd + s->iV + r, base + j * ndd + c);
}

void PlSysRollersEval(PlSysDyn s, const double *y, double *Fw, int putJ)
{
  PlSysRollers R = s->rollers;
  if (!R || (s->size > 1 && !s->recording && !s->nosplit && s->rank != 0)) return; /* one rank */
  if (s->recording) RecordWindow(s, R);
  const PlDynLine d = s->d[R->line];
  const int base = s->loff[R->line], ndd = s->ndd, nn = d->sp->mesh.nnodes;
  const int matrix = putJ && s->val && !s->recording;
  for (int k = 0; k < R->n; ++k) {
    PlRollerResult *res = &R->res[k];
    PlRollerOut o;
    memset(res, 0, sizeof *res);
    res->element = Search(s, d, base, &R->r[k], y, &o);
    if (res->element < 0) {
      res->gap = INFINITY;
      continue;
    }
    const int e = res->element;
    double x[4][3], v[4][3], K[72], C[36];
    for (int j = 0; j < 4; ++j)
      if (e - 1 + j >= 0 && e - 1 + j < nn) NodeState(s, d, base, e - 1 + j, y, x[j], v[j]);
    PlRollerContact(&R->r[k], e > 0 ? x[0] : NULL, x[1], x[2], e + 2 < nn ? x[3] : NULL, s->statics ? NULL : v[1],
                    s->statics ? NULL : v[2], &o, matrix ? K : NULL, matrix ? C : NULL);
    res->xi = o.xi;
    res->gap = o.gap;
    for (int c = 0; c < 3; ++c) res->reaction[c] = -(o.f[c] + o.f[3 + c]);
    if (o.force == 0.0 && !matrix) continue;
    for (int a = 0; a < 2; ++a)
      for (int i = 0; i < 3; ++i) {
        const int row = base + (e + a) * ndd + s->iV + i;
        if (s->redir[row] != -1 || PlDynRowHeld(d, e + a, s->iV + i)) continue;
        Fw[row] -= o.f[3 * a + i];
        if (!matrix) continue;
        for (int b = 0; b < 4; ++b) {
          const int node = e - 1 + b;
          if (node < 0 || node >= nn) continue;
          for (int j = 0; j < 3; ++j) {
            const int col = base + node * ndd + j;
            AddEntry(s, row, col, K[12 * (3 * a + i) + 3 * b + j]);
            if (!s->statics && (b == 1 || b == 2)) AddEntry(s, row, col + s->iV, C[6 * (3 * a + i) + 3 * (b - 1) + j]);
          }
        }
      }
  }
}

int PlSysRollersCount(const PlSysDyn s) { return s->rollers ? s->rollers->n : 0; }

void PlSysRollersResult(const PlSysDyn s, int k, PlRollerResult *res) { *res = s->rollers->res[k]; }
