/*
 * loader_stinger.c - the reader of stinger: (a model of lines:): the rollers an S-lay pipe rests
 * on over the overbend, on a constant-radius arc (models.h, PlStinger).
 */
#include "loader_impl.h"

/* The roller at arc length st of the stinger g: the arc's point (the pipe's centreline)
 *   P(theta) = C + R (sin theta h + cos theta e_z),  theta = theta0 + st/R,
 * with C = start + R n0 the arc's centre below the pipe, h the lay's plan direction and
 * n(theta) = -(sin theta h + cos theta e_z) the arc's inward normal (P(theta0) = start, dP/ds =
 * cos theta h - sin theta e_z: heading h, sloping down by theta). The roller's axis is
 * horizontal and normal to the lay's plane, a = e_z x h, at rho = roller radius + d_o/2 from
 * the pipe's centreline towards the centre; the pipe rests on the roller's side -n. */
static void roller_on_arc(const PlStinger *g, double st, PlRollerModel *r)
{
  const double h[3] = {cos(g->heading), sin(g->heading), 0.0}, R = g->radius;
  const double rho = g->roller_radius + 0.5 * g->pipe_diameter;
  const double t0 = g->start_angle, th = t0 + st / R;
  double n0[3], n[3];
  for (int k = 0; k < 3; ++k) {
    const double ez = k == 2 ? 1.0 : 0.0;
    n0[k] = -(sin(t0) * h[k] + cos(t0) * ez);
    n[k] = -(sin(th) * h[k] + cos(th) * ez);
    r->top[k] = g->start[k] + R * n0[k] - R * n[k];
    r->c[k] = r->top[k] + rho * n[k];
    r->n[k] = -n[k];
  }
  r->a[0] = -h[1], r->a[1] = h[0], r->a[2] = 0.0;
  r->station = st;
}

/* The line the stinger carries: stinger.line, or the model's only line. */
static int stinger_line(const Scope *s, const PlModel *m, int *line)
{
  char name[PL_NAME_MAX] = "";
  const PlYNode *n = ld_value_of(s, "line");
  char path[PATH_CAP];
  ld_join_key(path, sizeof path, s->path, "line");
  if (!n) {
    if (m->nlines != 1)
      return ld_missing(s, "line", NULL, " (the name of the line the stinger carries: the model has several)");
    *line = 0;
    return 0;
  }
  int rc = ld_get_string(s, "line", false, name, sizeof name);
  if (rc) return rc;
  for (int l = 0; l < m->nlines; ++l)
    if (!strcmp(m->lines[l].name, name)) {
      *line = l;
      return 0;
    }
  return ld_at(s->err, n, path, "no line named '%s'", ld_got(n).s);
}

/* The stations of the rollers: spacing and count (from 0), or the list stations. */
static int stinger_stations(const Scope *s, double *st, int *count)
{
  const PlYNode *ns = ld_value_of(s, "stations"), *nsp = ld_value_of(s, "spacing"), *nc = ld_value_of(s, "count");
  char path[PATH_CAP];
  if (ns && (nsp || nc))
    return ld_reject_key(s, nsp ? "spacing" : "count", "is not used with stinger.stations (give one of them)");
  if (!ns) {
    if (!nsp || !nc)
      return ld_missing(s, nsp ? "count" : "spacing", NULL,
                        " (the rollers: spacing and count, or their stations along the arc)");
    double sp = 0.0;
    int rc = ld_get_number(s, "spacing", &sp, NULL);
    if (!rc) rc = ld_get_int(s, "count", count);
    if (rc) return rc;
    for (int i = 0; i < *count; ++i) st[i] = i * sp;
    return 0;
  }
  ld_join_key(path, sizeof path, s->path, "stations");
  if (ns->kind != PL_YNODE_SEQ || ns->nitems < 1 || ns->nitems > PL_ROLLERS_MAX)
    return ld_at(s->err, ns, path, "expected a list of 1 to %d arc lengths (m), found %s", PL_ROLLERS_MAX,
                 ld_found(ns).s);
  const PlKeySpec *k = ld_spec_of(s, "stations");
  const ListSpec sp = {0, k->unit, k->unit, ld_range_of(k), ld_range_of(k), "m, increasing"};
  int rc = ld_parse_list(s->err, ns, path, ns->nitems, &sp, st);
  if (rc) return rc;
  for (size_t i = 1; i < ns->nitems; ++i)
    if (!(st[i] > st[i - 1])) {
      char ip[PATH_CAP];
      ld_join_index(ip, sizeof ip, path, i);
      return ld_at(s->err, ns->items[i], ip, "the stations must increase (%.10g after %.10g)", st[i], st[i - 1]);
    }
  *count = (int)ns->nitems;
  return 0;
}

int ld_read_stinger(const Scope *top, PlModel *m)
{
  Scope s;
  bool present;
  int rc = ld_open_child(top, "stinger", &s, &present);
  if (rc || !present) return rc;
  PlStinger *g = &m->stinger;
  memset(g, 0, sizeof *g);
  g->present = true;
  double heading = 180.0, start_angle = 0.0, st[PL_ROLLERS_MAX];
  g->roller_radius = 0.25;
  g->stiffness = g->reach = NAN;
  if ((rc = stinger_line(&s, m, &g->line))) return rc;
  if ((rc = ld_get_number(&s, "radius", &g->radius, NULL))) return rc;
  if ((rc = ld_get_list(&s, "start", g->start, NULL))) return rc;
  if ((rc = ld_get_number(&s, "heading", &heading, NULL))) return rc;
  if ((rc = ld_get_number(&s, "start_angle", &start_angle, NULL))) return rc;
  if ((rc = ld_get_number(&s, "roller_radius", &g->roller_radius, NULL))) return rc;
  if ((rc = ld_get_number(&s, "stiffness", &g->stiffness, NULL))) return rc;
  if ((rc = ld_get_number(&s, "damping", &g->damping, NULL))) return rc;
  if ((rc = ld_get_number(&s, "reach", &g->reach, NULL))) return rc;
  if ((rc = stinger_stations(&s, st, &g->nrollers))) return rc;
  g->heading = heading * kPi / 180.0;
  g->start_angle = start_angle * kPi / 180.0;
  /* the carried line's section at its top end (the pipe leaves the vessel over the stinger) */
  const PlLineModel *ln = &m->lines[g->line];
  const PlSection *sec = &ln->segments[ln->nsegments - 1].section;
  g->pipe_diameter = sec->outer_diameter;
  /* the contact's default stiffness: a roller load of 1e-3 EA would press the pipe in by one
   * diameter (a 12.75-inch x 15.9 mm steel pipe: 9.8e6 N/m, 3 mm under a roller load of 30 kN) */
  if (isnan(g->stiffness)) g->stiffness = 1e-3 * sec->EA / sec->outer_diameter;
  /* the penalty is C^1 over a thousandth of the diameter (models.h, elements/roller.c) */
  g->smoothing = 1e-3 * sec->outer_diameter;
  /* a crossing within the arc's radius below a roller is the pipe on the stinger: a line that
   * runs away from the vessel crosses each roller's normal plane once, and a start shape may
   * hang far below the stinger */
  if (isnan(g->reach)) g->reach = g->radius;
  for (int i = 0; i < g->nrollers; ++i) roller_on_arc(g, st[i], &g->rollers[i]);
  return 0;
}
