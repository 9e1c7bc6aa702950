/*
 * slay_output.c - what an S-lay engineer reads from a stinger's line at equilibrium: the
 * overbend strain over each roller, the departure angle and the clearance at the stinger's tip
 * (its last roller), the layback and the touchdown, the sagbend's moment and strain; into the
 * static summary (summary.json's "stinger", solver/lines.c) and the console.
 *
 * The strain at the outer fibre on the bend's tension side is kappa d_o/2 + gamma_1 (the rod's
 * axial strain, tension positive): in the overbend D/(2R) + T/EA on a stinger of radius R.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "solver_impl.h"

static const double kDeg = 180.0 / 3.14159265358979323846;

/* The outer-fibre strain at element station E of section d_o. */
static double FibreStrain(const PlStation *E, double d_o) { return 0.5 * E->curvature * d_o + E->axial_strain; }

/* The largest fibre strain of the elements e - 1, e, e + 1 (within 0..ne-1). */
static double StrainAround(const PlProblem p, const PlStation *E, int ne, int e)
{
  double eps = 0.0;
  for (int k = e - 1; k <= e + 1; ++k)
    if (k >= 0 && k < ne)
      eps = fmax(eps, FibreStrain(&E[k], p->model.segments[p->mesh.segment[k]].section.outer_diameter));
  return eps;
}

/* The sagbend: the elements below half the stinger tip's height above the seabed. */
static void Sagbend(const PlProblem p, const PlStation *E, int ne, double z_half, PlSlaySummary *o)
{
  o->sagbend_moment = o->sagbend_strain = 0.0;
  o->sagbend_S = NAN;
  for (int e = 0; e < ne; ++e) {
    if (E[e].x[2] > z_half) continue;
    const double M = hypot(E[e].moment[0], E[e].moment[1]);
    if (M > o->sagbend_moment) {
      o->sagbend_moment = M;
      o->sagbend_S = E[e].S;
    }
    o->sagbend_strain =
        fmax(o->sagbend_strain, FibreStrain(&E[e], p->model.segments[p->mesh.segment[e]].section.outer_diameter));
  }
}

void PlSlaySummarize(const PlModel *m, const PlProblem p, const PlStation *N, int nn, const PlStation *E, int ne,
                     PlLinesReport *rep)
{
  const PlStinger *g = &m->stinger;
  PlSlaySummary *o = &rep->slay;
  memset(o, 0, sizeof *o);
  o->last_contact = -1;
  o->max_overbend_roller = -1;
  for (int k = 0; k < g->nrollers; ++k) {
    const PlRollerResult *r = &rep->roller[k];
    o->overbend_strain[k] = r->element >= 0 ? StrainAround(p, E, ne, r->element) : NAN;
    if (r->element >= 0 && r->gap < 0.0) {
      o->last_contact = k;
      if (o->max_overbend_roller < 0 || o->overbend_strain[k] > o->max_overbend_strain) {
        o->max_overbend_strain = o->overbend_strain[k];
        o->max_overbend_roller = k;
      }
    }
  }
  const PlRollerResult *tip = &rep->roller[g->nrollers - 1];
  o->tip_clearance = tip->gap;
  o->departure_angle = o->tip_tension = NAN;
  if (tip->element >= 0) {
    const double *a = N[tip->element].x, *b = N[tip->element + 1].x;
    const double dz = a[2] - b[2], dh = hypot(a[0] - b[0], a[1] - b[1]);
    o->departure_angle = atan2(fabs(dz), dh) * kDeg;
    o->tip_tension = E[tip->element].tension;
  }
  o->touchdown_S = PlTouchdown(p, N, nn, o->touchdown_x);
  const double *top = g->rollers[g->nrollers - 1].top;
  o->layback = isnan(o->touchdown_S) ? NAN : hypot(o->touchdown_x[0] - top[0], o->touchdown_x[1] - top[1]);
  Sagbend(p, E, ne, 0.5 * (top[2] - m->water_depth), o);
}

void PlSlaySummaryJSON(const PlModel *m, const PlLinesReport *rep, void *root)
{
  const PlStinger *g = &m->stinger;
  const PlSlaySummary *o = &rep->slay;
  cJSON *st = cJSON_AddObjectToObject(root, "stinger");
  cJSON_AddStringToObject(st, "line", m->lines[g->line].name);
  cJSON_AddNumberToObject(st, "radius_m", g->radius);
  cJSON_AddNumberToObject(st, "contact_stiffness_N_per_m", g->stiffness);
  cJSON *rl = cJSON_AddArrayToObject(st, "rollers");
  for (int k = 0; k < g->nrollers; ++k) {
    const PlRollerResult *r = &rep->roller[k];
    cJSON *it = cJSON_CreateObject();
    cJSON_AddNumberToObject(it, "station_m", g->rollers[k].station);
    cJSON_AddItemToObject(it, "top_m", cJSON_CreateDoubleArray(g->rollers[k].top, 3));
    cJSON_AddBoolToObject(it, "in_contact", r->element >= 0 && r->gap < 0.0);
    cJSON_AddNumberToObject(it, "gap_m", r->element >= 0 ? r->gap : NAN);
    cJSON_AddNumberToObject(it, "reaction_N", hypot(hypot(r->reaction[0], r->reaction[1]), r->reaction[2]));
    cJSON_AddItemToObject(it, "reaction_vector_N", cJSON_CreateDoubleArray(r->reaction, 3));
    cJSON_AddNumberToObject(it, "overbend_strain", o->overbend_strain[k]);
    cJSON_AddItemToArray(rl, it);
  }
  cJSON_AddNumberToObject(st, "max_overbend_strain", o->max_overbend_strain);
  cJSON_AddNumberToObject(st, "max_overbend_roller", o->max_overbend_roller + 1);
  cJSON_AddNumberToObject(st, "last_roller_in_contact", o->last_contact + 1);
  cJSON_AddNumberToObject(st, "tip_clearance_m", o->tip_clearance);
  cJSON_AddNumberToObject(st, "departure_angle_deg", o->departure_angle);
  cJSON_AddNumberToObject(st, "tip_tension_N", o->tip_tension);
  cJSON_AddNumberToObject(st, "layback_m", o->layback);
  cJSON_AddNumberToObject(st, "touchdown_S_m", o->touchdown_S);
  cJSON_AddItemToObject(st, "touchdown_m", cJSON_CreateDoubleArray(o->touchdown_x, 3));
  cJSON_AddNumberToObject(st, "sagbend_moment_Nm", o->sagbend_moment);
  cJSON_AddNumberToObject(st, "sagbend_strain", o->sagbend_strain);
  cJSON_AddNumberToObject(st, "sagbend_S_m", o->sagbend_S);
}

void PlSlayPrint(FILE *f, const PlModel *m, const PlLinesReport *rep)
{
  const PlStinger *g = &m->stinger;
  const PlSlaySummary *o = &rep->slay;
  fprintf(f, "  stinger (R %.4g m, %d rollers): ", g->radius, g->nrollers);
  for (int k = 0; k < g->nrollers; ++k) {
    const PlRollerResult *r = &rep->roller[k];
    const double F = hypot(hypot(r->reaction[0], r->reaction[1]), r->reaction[2]);
    fprintf(f, "%s%.1f", k ? ", " : "", F / 1e3);
  }
  fprintf(f, " kN\n  overbend strain %.4f %% (roller %d); last roller in contact %d, tip clearance %.3f m, "
             "departure angle %.2f deg\n  layback %.2f m, touchdown at S %.2f m; sagbend moment %.2f kN m, strain "
             "%.4f %%\n", 100.0 * o->max_overbend_strain, o->max_overbend_roller + 1, o->last_contact + 1,
          o->tip_clearance, o->departure_angle, o->layback, o->touchdown_S, o->sagbend_moment / 1e3,
          100.0 * o->sagbend_strain);
}
