/*
 * lay_output.c - what a lay engineer reads of a dynamic run along lay.route:
 *   lay.csv     a row per output: t_s, paid_out_m, touchdown_arc_length_m (the laid length
 *               from the bottom end), touchdown_station_m and touchdown_offset_m (its station
 *               along the route and its signed offset, left positive), vessel_station_m and
 *               vessel_offset_m (the top end's), top_tension_N (|top load|),
 *               laid_tension_N (the residual lay tension: the mean effective tension of the
 *               laid pipe over one water depth behind the touchdown point), sagbend_moment_Nm and
 *               sagbend_fibre_strain (the largest |bending moment| and |axial strain| +
 *               curvature d_o/2 over the suspended elements, between the touchdown and the top),
 *               the arc length of the latter;
 *   as_laid.csv at the end: per node S_m, x_m, y_m, z_m, station_m, offset_m,
 *               effective_tension_N and on_seabed (1 where the node touches the seabed): the
 *               pipe on the route, its offsets and the tension it is laid with; and where it
 *               landed (PlLayTrack: the first output at which the node touched the seabed):
 *               landed_t_s, moved_m (the horizontal distance it has moved since) and
 *               moved_offset_m (its offset's change since: a laid pipe that holds its curve
 *               keeps it near zero, one that slides inward on a bend shows it).
 *   route.csv   at the end: the route itself, station_m, x_m, y_m (the legs' ends and the
 *               arcs every 1 m), for the plan plot.
 * Stations and offsets: PlRouteProject (models/route.c).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic_impl.h"

const char *PlLaySeriesHeader(void)
{
  return "t_s,paid_out_m,touchdown_arc_length_m,touchdown_station_m,touchdown_offset_m,vessel_station_m,"
         "vessel_offset_m,top_tension_N,laid_tension_N,sagbend_moment_Nm,sagbend_fibre_strain,"
         "sagbend_fibre_strain_arc_length_m\n";
}

/* The laid pipe's tension: the mean effective tension of the element midpoints over one water
 * depth of arc length behind the touchdown point Std (fewer where the line ends). */
static double LaidTension(const PlStation *E, int ne, double Std, double depth)
{
  double sum = 0.0;
  int n = 0;
  for (int e = 0; e < ne; ++e)
    if (E[e].S < Std && E[e].S >= Std - depth) sum += E[e].tension, ++n;
  return n ? sum / n : NAN;
}

void PlLaySeriesRow(FILE *f, const PlProblem p, double t, double paid, const double top_load[3], const PlStation *N,
                    int nn, const PlStation *E, int ne)
{
  const PlModel *m = &p->model;
  double xt[3], st = NAN, ot = NAN, sv, ov, lt = NAN;
  const double Std = PlTouchdown(p, N, nn, xt);
  if (isfinite(Std)) {
    PlRouteProject(&m->route, xt, &st, &ot);
    lt = LaidTension(E, ne, Std, m->water_depth);
  }
  PlRouteProject(&m->route, N[nn - 1].x, &sv, &ov);
  double Mmax = 0.0, emax = 0.0, Se = NAN;
  for (int e = 0; e < ne; ++e) {
    if (isfinite(Std) && E[e].S < Std) continue; /* the laid pipe */
    const PlSection *sec = &m->segments[p->mesh.segment[e]].section;
    const double M = hypot(E[e].moment[0], E[e].moment[1]);
    const double eps = fabs(E[e].axial_strain) + E[e].curvature * 0.5 * sec->outer_diameter;
    Mmax = fmax(Mmax, M);
    if (eps > emax) emax = eps, Se = E[e].S;
  }
  const double T = sqrt(top_load[0] * top_load[0] + top_load[1] * top_load[1] + top_load[2] * top_load[2]);
  fprintf(f, "%.17g,%.17g,", t, paid);
  if (isfinite(Std)) fprintf(f, "%.17g,%.17g,%.17g,", Std, st, ot);
  else fputs(",,,", f);
  fprintf(f, "%.17g,%.17g,%.17g,", sv, ov, T);
  if (isfinite(lt)) fprintf(f, "%.17g,", lt);
  else fputs(",", f);
  fprintf(f, "%.17g,%.17g,%.17g\n", Mmax, emax, Se);
}

int PlLayTrackInit(PlLayTrack *tr, int nn)
{
  tr->nn = nn;
  tr->land = malloc(sizeof(double) * 4 * (size_t)nn);
  if (!tr->land) return -1;
  for (int i = 0; i < nn; ++i) tr->land[4 * i] = NAN;
  return 0;
}

int PlLayTrackRenumber(PlLayTrack *tr, int nn, int kept, int dropped)
{
  double *l = malloc(sizeof(double) * 4 * (size_t)nn);
  if (!l) return -1;
  for (int i = 0; i < nn; ++i) {
    const int o = i == nn - 1 ? tr->nn - 1 : i + dropped < kept ? i + dropped : -1;
    for (int k = 0; k < 4; ++k) l[4 * i + k] = o >= 0 ? tr->land[4 * o + k] : NAN;
  }
  free(tr->land);
  tr->land = l;
  tr->nn = nn;
  return 0;
}

void PlLayTrackUpdate(PlLayTrack *tr, const PlProblem p, double t, const PlStation *N, int nn)
{
  const PlModel *m = &p->model;
  const int ne = p->mesh.nelements;
  for (int i = 0; i < nn && i < tr->nn; ++i) {
    double *l = tr->land + 4 * i;
    if (!isnan(l[0])) continue;
    const PlSection *sec = &m->segments[p->mesh.segment[i < ne ? i : ne - 1]].section;
    if (!(PlSeabedPenetration(m, sec, N[i].x) > 0.0)) continue;
    double st;
    l[0] = t;
    l[1] = N[i].x[0];
    l[2] = N[i].x[1];
    PlRouteProject(&m->route, N[i].x, &st, &l[3]);
  }
}

void PlLayTrackFree(PlLayTrack *tr)
{
  free(tr->land);
  tr->land = NULL;
}

int PlAsLaidWrite(const char *dir, const PlProblem p, const PlStation *N, int nn, const PlLayTrack *tr, PlError *err)
{
  const PlModel *m = &p->model;
  const int ne = p->mesh.nelements;
  char path[PL_PATH_MAX + 64], tmp[PL_PATH_MAX + 80];
  FILE *f = PlFileOpenAtomic(dir, "as_laid.csv", path, sizeof path, tmp, sizeof tmp, err);
  if (!f) return PL_EXIT_IO;
  fputs("S_m,x_m,y_m,z_m,station_m,offset_m,effective_tension_N,on_seabed,landed_t_s,moved_m,moved_offset_m\n", f);
  for (int i = 0; i < nn; ++i) {
    double st, off;
    PlRouteProject(&m->route, N[i].x, &st, &off);
    const PlSection *sec = &m->segments[p->mesh.segment[i < ne ? i : ne - 1]].section;
    const int on = m->seabed != PL_SEABED_NONE && PlSeabedPenetration(m, sec, N[i].x) > 0.0;
    fprintf(f, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%d", N[i].S, N[i].x[0], N[i].x[1], N[i].x[2], st, off,
            N[i].tension, on);
    const double *l = tr && i < tr->nn ? tr->land + 4 * i : NULL;
    if (l && !isnan(l[0]))
      fprintf(f, ",%.17g,%.17g,%.17g\n", l[0], hypot(N[i].x[0] - l[1], N[i].x[1] - l[2]), off - l[3]);
    else
      fputs(",,,\n", f);
  }
  return PlFileCommit(f, 0, tmp, path, err);
}

int PlRouteWrite(const char *dir, const PlRoute *r, PlError *err)
{
  char path[PL_PATH_MAX + 64], tmp[PL_PATH_MAX + 80];
  FILE *f = PlFileOpenAtomic(dir, "route.csv", path, sizeof path, tmp, sizeof tmp, err);
  if (!f) return PL_EXIT_IO;
  fputs("station_m,x_m,y_m\n", f);
  for (int k = 0; k < r->npieces; ++k) {
    const PlRoutePiece *pc = &r->piece[k];
    const int n = pc->arc ? (int)ceil(pc->len) : 1;
    for (int j = 0; j <= n; ++j) {
      if (j == 0 && k > 0) continue; /* the previous piece's end */
      double x[2], t[2], kap;
      const double st = pc->s0 + pc->len * j / n;
      PlRouteEval(r, st, x, t, &kap);
      fprintf(f, "%.17g,%.17g,%.17g\n", st, x[0], x[1]);
    }
  }
  return PlFileCommit(f, 0, tmp, path, err);
}
