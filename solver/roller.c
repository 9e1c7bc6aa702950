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
#include <errno.h>
#include <math.h>
#include <stdio.h>
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

/* The stinger's rigid motion in a dynamic run: with the firing line, i.e. with its line's top
 * end's prescribed motion (ends.top.motion), the displacement xb - xs of the end's point and
 * its rotation exp(theta) in the end's static frame F (global R_rel = F exp(theta) F^T),
 * applied to every roller about the end's static point: c(t) = xb + R_rel (c - xs),
 * a(t) = R_rel a, n(t) = R_rel n. The roller's velocity at its axis point, vb + omega x (c(t) -
 * xb) with omega = F theta' (exact for a rotation about one axis, as heave and pitch), is what
 * the contact's damping measures the pipe's velocity against. Returns 0 (and r untouched) in
 * the statics and without a motion. */
static int Moving(const PlSysDyn s, const PlDynLine d, double t, const PlRoller *r0, PlRoller *r, double vr[3])
{
  const PlDynEnd *E = &d->ends[1];
  if (s->statics || !E->motion || E->motion->kind == PL_MOTION_NONE) return 0;
  double xb[3], vb[3], ab[3], pb[4], wb[3], dd[3], dv[3], dacc[3], th[3], dth[3], q0s[4], qe[4] = {1, 0, 0, 0}, q[4];
  double qc[4], Rrel[9], F[9];
  PlDynEndPrescribed(d, E, t, xb, vb, ab, pb, wb);
  PlMotionEval(E->motion, t, dd, dv, dacc, th, dth);
  PlQuatMul(d->sp->mesh.q0 + 4 * E->node, E->qs, q0s); /* the end's static frame F */
  const double ang = sqrt(th[0] * th[0] + th[1] * th[1] + th[2] * th[2]);
  if (ang > 0.0) {
    const double axis[3] = {th[0] / ang, th[1] / ang, th[2] / ang};
    PlQuatFromAxisAngle(axis, ang, qe);
  }
  PlQuatMul(q0s, qe, q);
  const double q0c[4] = {q0s[0], -q0s[1], -q0s[2], -q0s[3]};
  PlQuatMul(q, q0c, qc);
  PlQuatToMatrix(qc, Rrel);
  PlQuatToMatrix(q0s, F);
  *r = *r0;
  double om[3];
  for (int i = 0; i < 3; ++i) {
    r->c[i] = xb[i];
    r->a[i] = r->n[i] = om[i] = 0.0;
    for (int j = 0; j < 3; ++j) {
      r->c[i] += Rrel[3 * i + j] * (r0->c[j] - E->xs[j]);
      r->a[i] += Rrel[3 * i + j] * r0->a[j];
      r->n[i] += Rrel[3 * i + j] * r0->n[j];
      om[i] += F[3 * i + j] * dth[j];
    }
  }
  const double rc[3] = {r->c[0] - xb[0], r->c[1] - xb[1], r->c[2] - xb[2]};
  vr[0] = vb[0] + om[1] * rc[2] - om[2] * rc[1];
  vr[1] = vb[1] + om[2] * rc[0] - om[0] * rc[2];
  vr[2] = vb[2] + om[0] * rc[1] - om[1] * rc[0];
  return 1;
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

void PlSysRollersEval(PlSysDyn s, double t, const double *y, double *Fw, int putJ, double *pw)
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
    PlRoller moved;
    double vr[3] = {0.0, 0.0, 0.0};
    const PlRoller *rk = Moving(s, d, t, &R->r[k], &moved, vr) ? &moved : &R->r[k];
    memset(res, 0, sizeof *res);
    res->element = Search(s, d, base, rk, y, &o);
    if (res->element < 0) {
      res->gap = INFINITY;
      continue;
    }
    const int e = res->element;
    double x[4][3], v[4][3], K[72], C[36];
    for (int j = 0; j < 4; ++j)
      if (e - 1 + j >= 0 && e - 1 + j < nn) {
        NodeState(s, d, base, e - 1 + j, y, x[j], v[j]);
        for (int c = 0; c < 3; ++c) v[j][c] -= vr[c]; /* relative to the roller */
      }
    PlRollerContact(rk, e > 0 ? x[0] : NULL, x[1], x[2], e + 2 < nn ? x[3] : NULL, s->statics ? NULL : v[1],
                    s->statics ? NULL : v[2], &o, matrix ? K : NULL, matrix ? C : NULL);
    res->xi = o.xi;
    res->gap = o.gap;
    for (int c = 0; c < 3; ++c) res->reaction[c] = -(o.f[c] + o.f[3 + c]);
    if (pw) /* the contact's power on the pipe: its nodes' forces times their velocities */
      for (int a = 0; a < 2; ++a)
        for (int c = 0; c < 3; ++c) pw[PL_WORK_ROLLERS] += o.f[3 * a + c] * (v[1 + a][c] + vr[c]);
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

double PlSysRollersUnder(const PlSysDyn s, int k)
{
  const PlSysRollers R = s->rollers;
  PlRoller r = R->r[k];
  PlRollerOut o;
  r.reach = INFINITY;
  if (R->res[k].element >= 0 || Search(s, s->d[R->line], s->loff[R->line], &r, N_VGetArrayPointer(s->y), &o) < 0)
    return NAN;
  return -o.gap;
}

int PlSysRollersCount(const PlSysDyn s) { return s->rollers ? s->rollers->n : 0; }

void PlSysRollersResult(const PlSysDyn s, int k, PlRollerResult *res) { *res = s->rollers->res[k]; }

FILE *PlSysRollersSeriesOpen(const PlSysDyn s, const char *dir, double t_last, PlError *err)
{
  const PlSysRollers R = s->rollers;
  char path[PL_PATH_MAX + 32];
  if (!R) return NULL;
  snprintf(path, sizeof path, "%s/timeseries_rollers.csv", dir);
  FILE *f = t_last >= 0.0 ? PlTrimSeries(path, t_last) : fopen(path, "w");
  int bad = !f;
  if (f && t_last < 0.0) {
    bad = fputs("t_s", f) < 0;
    for (int k = 0; k < R->n && !bad; ++k)
      bad = fprintf(f, ",roller%d_reaction_N,roller%d_reaction_x_N,roller%d_reaction_y_N,roller%d_reaction_z_N,"
                       "roller%d_gap_m", k + 1, k + 1, k + 1, k + 1, k + 1) < 0;
    bad = bad || fputc('\n', f) == EOF;
  }
  if (bad) {
    snprintf(err->msg, sizeof err->msg, "%.900s: cannot write: %s", path, strerror(errno));
    if (f) fclose(f);
    return NULL;
  }
  return f;
}

void PlSysRollersSeriesRow(const PlSysDyn s, FILE *f, double t)
{
  const PlSysRollers R = s->rollers;
  if (!R || !f) return;
  fprintf(f, "%.17g", t);
  for (int k = 0; k < R->n; ++k) {
    const PlRollerResult *r = &R->res[k];
    fprintf(f, ",%.17g,%.17g,%.17g,%.17g,%.17g", sqrt(r->reaction[0] * r->reaction[0] + r->reaction[1] * r->reaction[1] +
            r->reaction[2] * r->reaction[2]), r->reaction[0], r->reaction[1], r->reaction[2], r->gap);
  }
  fputc('\n', f);
  fflush(f);
}
