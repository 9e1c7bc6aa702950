/*
 * loader_env.c - readers of the environment around the line: environment (water, gravity),
 * seabed (contact law) and current (profile, direction, ramp).
 */
#include <math.h>
#include "loader_impl.h"

/* ---- environment ---------------------------------------------------------------------- */

/* environment: water_depth, water_density, gravity. */
int ld_read_environment(const Scope *top, PlModel *m)
{
  Scope s;
  bool present;
  int rc = ld_open_child(top, "environment", &s, &present);
  if (rc) return rc;
  if ((rc = ld_get_number(&s, "water_depth", &m->water_depth, NULL)))
    return rc;
  if ((rc = ld_get_number(&s, "water_density", &m->water_density, NULL)))
    return rc;
  return ld_get_number(&s, "gravity", &m->gravity, NULL);
}

/* ---- seabed, mesh, rotation ----------------------------------------------------------- */

/* seabed: model, (linear only) stiffness and (not with none) damping. */
int ld_read_seabed(const Scope *top, PlModel *m)
{
  Scope s;
  bool present;
  int rc = ld_open_child(top, "seabed", &s, &present);
  if (rc || !present) return rc;
  int model = ld_choice_default(&s, "model");
  if ((rc = ld_get_choice(&s, "model", &model))) return rc;
  m->seabed = model == 0 ? PL_SEABED_NONE : model == 1 ? PL_SEABED_NONLINEAR : PL_SEABED_LINEAR;
  const PlYPair *pd = ld_pair_of(&s, "damping");
  if (pd && m->seabed == PL_SEABED_NONE) {
    char path[PATH_CAP];
    ld_join_key(path, sizeof path, s.path, "damping");
    return ld_at(s.err, pd->key, path, "is not used without a seabed (model is 'none')");
  }
  if ((rc = ld_get_number(&s, "damping", &m->seabed_damping, NULL)))
    return rc;
  Scope sl;
  bool has_slope;
  if ((rc = ld_open_child(&s, "slope", &sl, &has_slope))) return rc;
  if (has_slope) { /* n = (-sin b cos p, -sin b sin p, cos b): the plane rises towards p */
    if ((rc = ld_get_number_if(&sl, "angle", true, &m->seabed_slope_deg, NULL)) ||
        (rc = ld_get_number(&sl, "direction", &m->seabed_slope_dir_deg, NULL)))
      return rc;
    const double b = m->seabed_slope_deg * M_PI / 180.0, ps = m->seabed_slope_dir_deg * M_PI / 180.0;
    m->seabed_normal[0] = -sin(b) * cos(ps);
    m->seabed_normal[1] = -sin(b) * sin(ps);
    m->seabed_normal[2] = cos(b);
  }
  if (m->seabed == PL_SEABED_LINEAR)
    return ld_get_number_if(&s, "stiffness", true, &m->seabed_stiffness, NULL);
  const PlYPair *pk = ld_pair_of(&s, "stiffness");
  if (pk) {
    char path[PATH_CAP];
    ld_join_key(path, sizeof path, s.path, "stiffness");
    return ld_at(s.err, pk->key, path, "is only used by the linear seabed model (model is '%s')",
              PlChoiceSeabedModels[model]);
  }
  return 0;
}

/* ---- current ------------------------------------------------------------------------- */

/* In PlCurrentKind order. */

/* current.table: 2 to PL_MAX_TABLE rows [z, speed], z <= 0 strictly increasing, speed >= 0. */
static int read_current_table(const Scope *s, PlCurrent *c)
{
  const PlYNode *n = ld_value_of(s, "table");
  char path[PATH_CAP];
  ld_join_key(path, sizeof path, s->path, "table");
  if (n->kind != PL_YNODE_SEQ || n->nitems < 2)
    return ld_at(s->err, n, path,
              "expected a list of at least 2 rows [z, speed] (m, m/s), found %s", ld_found(n).s);
  if (n->nitems > PL_MAX_TABLE)
    return ld_at(s->err, n, path, "too many rows (%zu, at most %d)", n->nitems, PL_MAX_TABLE);
  for (size_t i = 0; i < n->nitems; i++) {
    const PlYNode *row = n->items[i];
    char rp[PATH_CAP], zp[PATH_CAP], vp[PATH_CAP];
    ld_join_index(rp, sizeof rp, path, i);
    if (row->kind != PL_YNODE_SEQ || row->nitems != 2)
      return ld_at(s->err, row, rp, "expected a row [z, speed] of 2 numbers (m, m/s), found %s",
                ld_found(row).s);
    ld_join_index(zp, sizeof zp, rp, 0);
    ld_join_index(vp, sizeof vp, rp, 1);
    const PlYNode *nz = row->items[0], *nv = row->items[1];
    double z = 0.0, v = 0.0;
    int rc = ld_parse_number(s->err, nz, zp, "m", &z);
    if (!rc) rc = ld_check_range(s->err, nz, zp, "m", kAny, z);
    if (rc) return rc;
    if (!(z <= 0.0))
      return ld_at(s->err, nz, zp, "must be at most 0 m (the mean sea level), got %s", ld_got(nz).s);
    if (i > 0 && !(z > c->table_z[i - 1]))
      return ld_at(s->err, nz, zp,
                "z must increase from row to row: must be greater than %.10g m (the z of "
                "row %zu), got %s",
                c->table_z[i - 1], i - 1, ld_got(nz).s);
    if ((rc = ld_parse_number(s->err, nv, vp, "m/s", &v))) return rc;
    if ((rc = ld_check_range(s->err, nv, vp, "m/s", kNonNegative, v))) return rc;
    c->table_z[i] = z;
    c->table_speed[i] = v;
  }
  c->ntable = (int)n->nitems;
  return 0;
}

/* current: profile and its values, direction, start and ramp times. */
int ld_read_current(const Scope *top, PlModel *m)
{
  Scope s;
  bool present;
  int rc = ld_open_child(top, "current", &s, &present);
  if (rc || !present) return rc;
  PlCurrent *c = &m->current;
  if (!ld_pair_of(&s, "profile"))
    return ld_missing(&s, "profile", NULL, " (uniform, sheared, table or none)");
  int prof = 0;
  if ((rc = ld_get_choice(&s, "profile", &prof))) return rc;
  /* the keys of one profile only */
  static const struct {
    const char *key;
    int profile;
  } kUse[] = {{"speed", PL_CURRENT_UNIFORM},
              {"surface_speed", PL_CURRENT_SHEARED},
              {"seabed_speed", PL_CURRENT_SHEARED},
              {"table", PL_CURRENT_TABLE}};
  for (size_t i = 0; i < sizeof kUse / sizeof kUse[0]; i++)
    if (kUse[i].profile != prof &&
        (rc = ld_reject_key(&s, kUse[i].key, "is only used by the %s profile (profile is '%s')",
                         PlChoiceCurrentProfiles[kUse[i].profile], PlChoiceCurrentProfiles[prof])))
      return rc;
  c->kind = (PlCurrentKind)prof;
  if ((rc = ld_get_number(&s, "direction", &c->direction_deg, NULL))) return rc;
  if ((rc = ld_get_number(&s, "start_time", &c->start_time, NULL)))
    return rc;
  if ((rc = ld_get_number(&s, "ramp_time", &c->ramp_time, NULL)))
    return rc;
  switch (c->kind) {
  case PL_CURRENT_UNIFORM:
    return ld_get_number_if(&s, "speed", true, &c->speed, NULL);
  case PL_CURRENT_SHEARED:
    if ((rc = ld_get_number_if(&s, "surface_speed", true, &c->surface_speed, NULL)))
      return rc;
    return ld_get_number_if(&s, "seabed_speed", true, &c->seabed_speed, NULL);
  case PL_CURRENT_TABLE:
    if (!ld_pair_of(&s, "table"))
      return ld_missing(&s, "table", NULL, " (a list of rows [z, speed] in m and m/s)");
    return read_current_table(&s, c);
  case PL_CURRENT_NONE:
    break;
  }
  return 0;
}
