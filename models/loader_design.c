/*
 * loader_design.c - reader of the design: block: the internal pressure and the DNV-ST-F101
 * local-buckling check (docs/model-file.md, "design"). Post-processing settings only: a model
 * with the block solves exactly as without it.
 */
#include "loader_impl.h"

/* Every section of a line (or of each line of lines:) must be of the pipe form: the design
 * answers need the wall (thickness, E, nu). n the key to point at. */
static int check_pipe_sections(const Scope *s, const PlYNode *n, const PlModel *m)
{
  const int nl = m->nlines > 0 ? m->nlines : 1;
  for (int l = 0; l < nl; ++l) {
    const PlSegment *seg = m->nlines > 0 ? m->lines[l].segments : m->segments;
    const int ns = m->nlines > 0 ? m->lines[l].nsegments : m->nsegments;
    for (int k = 0; k < ns; ++k)
      if (!(seg[k].section.wall_thickness > 0.0))
        return ld_at(s->err, n, s->path,
                     "needs pipe-form sections (wall_thickness, material): %s%s%ssection %d is given explicitly "
                     "(EA, EI, ...), so it has no wall to check",
                     m->nlines > 0 ? "line " : "", m->nlines > 0 ? m->lines[l].name : "", m->nlines > 0 ? ": " : "",
                     k);
  }
  return 0;
}

/* The thinnest wall of the model's sections [m]. */
static double thinnest_wall(const PlModel *m)
{
  double t = INFINITY;
  const int nl = m->nlines > 0 ? m->nlines : 1;
  for (int l = 0; l < nl; ++l) {
    const PlSegment *seg = m->nlines > 0 ? m->lines[l].segments : m->segments;
    const int ns = m->nlines > 0 ? m->lines[l].nsegments : m->nsegments;
    for (int k = 0; k < ns; ++k) t = fmin(t, seg[k].section.wall_thickness);
  }
  return t;
}

/* design.dnv_f101.zones: gamma_C along arc-length zones. */
static int read_zones(const Scope *s, PlDnvSpec *d)
{
  const PlYNode *list;
  char path[PATH_CAP];
  int rc = ld_open_list(s->err, s, "zones", true, "zones {from, to, condition_factor}", &list, path);
  if (rc || !list) return rc;
  free(d->zones); /* an override may give the list again */
  d->nzones = 0;
  if (!(d->zones = calloc(list->nitems ? list->nitems : 1, sizeof *d->zones)))
    return ld_at(s->err, list, path, "out of memory for %zu zones", list->nitems);
  for (size_t i = 0; i < list->nitems; ++i) {
    char ip[PATH_CAP];
    ld_join_index(ip, sizeof ip, path, i);
    Scope z;
    PlDnvZone *zone = &d->zones[i];
    const PlYNode *nto = NULL;
    if ((rc = ld_open_scope(s->err, list->items[i], list->items[i], ip, &z)) ||
        (rc = ld_get_number_if(&z, "from", true, &zone->from, NULL)) ||
        (rc = ld_get_number_if(&z, "to", true, &zone->to, &nto)) ||
        (rc = ld_get_number_if(&z, "condition_factor", true, &zone->factor, NULL)))
      return rc;
    if (!(zone->to > zone->from)) {
      char tp[PATH_CAP];
      ld_join_key(tp, sizeof tp, ip, "to");
      return ld_at(s->err, nto, tp, "must be greater than 'from' (%.10g m), got %s", zone->from, ld_got(nto).s);
    }
    d->nzones = (int)i + 1;
  }
  return 0;
}

/* design.dnv_f101 (m: the sections, for the corrosion allowance's bound). */
static int read_dnv(const Scope *top, const PlModel *m, PlDnvSpec *d)
{
  Scope s;
  bool present;
  int rc = ld_open_child(top, "dnv_f101", &s, &present);
  if (rc || !present) return rc;
  d->present = true;
  int supu = ld_choice_default(&s, "supplementary_u"), cls = ld_choice_default(&s, "safety_class"),
      fab = ld_choice_default(&s, "fabrication");
  const PlYNode *ntc = NULL;
  if ((rc = ld_get_number_if(&s, "smys", true, &d->smys, NULL)) ||
      (rc = ld_get_number_if(&s, "smts", true, &d->smts, NULL)) ||
      (rc = ld_get_number(&s, "yield_derating", &d->yield_derating, NULL)) ||
      (rc = ld_get_number(&s, "tensile_derating", &d->tensile_derating, NULL)) ||
      (rc = ld_get_choice(&s, "supplementary_u", &supu)) || (rc = ld_get_choice(&s, "safety_class", &cls)) ||
      (rc = ld_get_choice(&s, "fabrication", &fab)) ||
      (rc = ld_get_number(&s, "corrosion_allowance", &d->corrosion_allowance, &ntc)) ||
      (rc = ld_get_number(&s, "ovality", &d->ovality, NULL)) || (rc = ld_get_number(&s, "alpha_h", &d->alpha_h, NULL)) ||
      (rc = ld_get_number(&s, "condition_factor", &d->condition_factor, NULL)) || (rc = read_zones(&s, d)))
    return rc;
  d->supplementary_u = supu != 0;
  d->safety_class = (PlDnvSafetyClass)cls;
  d->fabrication = (PlDnvFabrication)fab;
  char path[PATH_CAP];
  if (!(d->yield_derating < d->smys)) {
    ld_join_key(path, sizeof path, s.path, "yield_derating");
    return ld_at(s.err, ld_value_of(&s, "yield_derating"), path, "must be less than smys (%.10g Pa), got %s",
                 d->smys, ld_got(ld_value_of(&s, "yield_derating")).s);
  }
  if (!(d->tensile_derating < d->smts)) {
    ld_join_key(path, sizeof path, s.path, "tensile_derating");
    return ld_at(s.err, ld_value_of(&s, "tensile_derating"), path, "must be less than smts (%.10g Pa), got %s",
                 d->smts, ld_got(ld_value_of(&s, "tensile_derating")).s);
  }
  const double tmin = thinnest_wall(m);
  if (ntc && !(d->corrosion_allowance < 0.5 * tmin)) {
    ld_join_key(path, sizeof path, s.path, "corrosion_allowance");
    return ld_at(s.err, ntc, path, "must be less than half the thinnest wall (%.10g m, half of %.10g m), got %s", 0.5 * tmin, tmin,
                 ld_got(ntc).s);
  }
  return 0;
}

int ld_read_design(const Scope *top, PlModel *m)
{
  Scope s;
  bool present;
  int rc = ld_open_child(top, "design", &s, &present);
  if (rc || !present) return rc;
  if ((rc = check_pipe_sections(&s, ld_pair_of(top, "design")->key, m))) return rc;
  m->design.present = true;
  if ((rc = ld_get_number(&s, "internal_pressure", &m->design.pressure.internal_pressure, NULL)) ||
      (rc = ld_get_number(&s, "internal_pressure_level", &m->design.pressure.internal_pressure_level, NULL)))
    return rc;
  return read_dnv(&s, m, &m->design.dnv);
}
