/*
 * loader_ends.c - readers of a line's ends: position, orientation, holds, dead loads, an
 * end attached to a point or a body of a model of lines, and the prescribed motion of an
 * end (harmonic, circle, time series).
 */
#include "loader_impl.h"

/* ---- ends ----------------------------------------------------------------------------- */

/* fixed: all | none | [names]. */
static int read_fixed(const Scope *s, PlEnd *e)
{
  const PlYNode *n = ld_value_of(s, "fixed");
  for (int i = 0; i < 6; i++) e->fixed[i] = false;
  if (!n) return 0;
  char path[PATH_CAP];
  ld_join_key(path, sizeof path, s->path, "fixed");
  if (n->kind == PL_YNODE_SCALAR && !PlYIsNull(n)) {
    if (strcmp(n->text, "all") == 0 && strlen(n->text) == n->len) {
      for (int i = 0; i < 6; i++) e->fixed[i] = true;
      return 0;
    }
    if (strcmp(n->text, "none") == 0 && strlen(n->text) == n->len) return 0;
  }
  if (n->kind != PL_YNODE_SEQ)
    return ld_at(s->err, n, path,
              "expected 'all', 'none' or a list of names from x, y, z, rx, ry, rz; found %s",
              ld_found(n).s);
  for (size_t i = 0; i < n->nitems; i++) {
    const PlYNode *it = n->items[i];
    char ip[PATH_CAP];
    ld_join_index(ip, sizeof ip, path, i);
    int k = -1;
    if (it->kind == PL_YNODE_SCALAR && strlen(it->text) == it->len)
      k = ld_name_index(kDofNames, it->text);
    if (k < 0)
      return ld_at(s->err, it, ip, "expected one of: x, y, z, rx, ry, rz; found %s", ld_found(it).s);
    if (e->fixed[k]) return ld_at(s->err, it, ip, "'%s' is listed twice", kDofNames[k]);
    e->fixed[k] = true;
  }
  return 0;
}

/* R = R_y(theta) R_x(phi) R_z(psi) (eq 5.98) from [phi, theta, psi] in degrees, row-major. */
void ld_euler_zxy(const double deg[3], double R[9])
{
  const double phi = deg[0] * kPi / 180.0, th = deg[1] * kPi / 180.0,
               psi = deg[2] * kPi / 180.0;
  const double cf = cos(phi), sf = sin(phi), ct = cos(th), st = sin(th), cp = cos(psi),
               sp = sin(psi);
  const double Ry[9] = {ct, 0, st, 0, 1, 0, -st, 0, ct};
  const double Rx[9] = {1, 0, 0, 0, cf, -sf, 0, sf, cf};
  const double Rz[9] = {cp, -sp, 0, sp, cp, 0, 0, 0, 1};
  double T[9];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      T[3 * i + j] = 0.0;
      for (int k = 0; k < 3; k++) T[3 * i + j] += Ry[3 * i + k] * Rx[3 * k + j];
    }
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      R[3 * i + j] = 0.0;
      for (int k = 0; k < 3; k++) R[3 * i + j] += T[3 * i + k] * Rz[3 * k + j];
    }
}

/* When the end holds some but not all of its rotations, a rotational motion (at node where,
 * path) is an error: what says which motion. Returns 0 or 2. */
static int check_rotation_hold(PlError *err, const PlEnd *e, const char *end_path,
                               const PlYNode *where, const char *path, const char *what)
{
  const int held = (int)e->fixed[PL_DOF_RX] + (int)e->fixed[PL_DOF_RY] + (int)e->fixed[PL_DOF_RZ];
  if (held == 0 || held == 3) return 0;
  char names[32] = "";
  for (int k = PL_DOF_RX; k <= PL_DOF_RZ; k++)
    if (e->fixed[k]) {
      if (names[0]) ld_cat(names, sizeof names, ", ");
      ld_cat(names, sizeof names, kDofNames[k]);
    }
  return ld_at(err, where, path,
            "%s needs the end to hold all three rotations (rx, ry, rz) in 'fixed', or none of "
            "them (then the motion holds them); %s.fixed holds only %s",
            what, end_path, names);
}

/* motion.type, in PlMotionKind order from PL_MOTION_HARMONIC. */

/* The motion types that use each key (bit k - 1 for PlMotionKind k). */
#define MO_H (1u << (PL_MOTION_HARMONIC - 1))
#define MO_C (1u << (PL_MOTION_CIRCLE - 1))
#define MO_T (1u << (PL_MOTION_TIMESERIES - 1))
static const struct {
  const char *key;
  unsigned types;
} kMotionKeyUse[] = {{"start_time", MO_H | MO_C}, {"ramp_time", MO_H}, {"dofs", MO_H},
                     {"radius", MO_C},            {"period", MO_C},    {"ramp_up", MO_C},
                     {"hold", MO_C},              {"ramp_down", MO_C}, {"direction", MO_C},
                     {"file", MO_T},              {"interpolation", MO_T}};

/* A harmonic motion: start_time, ramp_time and dofs. */
static int read_harmonic(const Scope *s, const char *end_path, PlEnd *e)
{
  PlMotion *mo = &e->motion;
  int rc;
  if ((rc = ld_get_number(s, "start_time", &mo->start_time, NULL)))
    return rc;
  if ((rc = ld_get_number(s, "ramp_time", &mo->ramp_time, NULL)))
    return rc;
  if (!ld_pair_of(s, "dofs"))
    return ld_missing(s, "dofs", NULL,
                   " (a mapping from x, y, z, rx, ry, rz to {amplitude, period, phase})");
  Scope d;
  bool present;
  if ((rc = ld_open_child(s, "dofs", &d, &present))) return rc;
  if (d.map->npairs == 0)
    return ld_at(s->err, d.map, d.path, "must name at least one DOF (x, y, z, rx, ry, rz)");
  const PlYNode *first_rot = NULL;
  char rot_path[PATH_CAP] = "";
  for (int k = 0; k < 6; k++) {
    const PlYPair *p = ld_pair_of(&d, kDofNames[k]);
    if (!p) continue;
    char hp[PATH_CAP];
    ld_join_key(hp, sizeof hp, d.path, kDofNames[k]);
    Scope h;
    if ((rc = ld_open_scope(s->err, p->value, p->key, hp, &h))) return rc;
    PlHarmonic *hm = &mo->harmonic[k];
    if ((rc = ld_get_number(&h, "amplitude", &hm->amplitude, NULL)))
      return rc;
    if ((rc = ld_get_number(&h, "period", &hm->period, NULL))) return rc;
    if ((rc = ld_get_number(&h, "phase", &hm->phase_deg, NULL))) return rc;
    mo->harmonic_dof[k] = true;
    if (k >= PL_DOF_RX && !first_rot) {
      first_rot = p->key;
      snprintf(rot_path, sizeof rot_path, "%s", hp);
    }
  }
  if (!first_rot) return 0;
  return check_rotation_hold(s->err, e, end_path, first_rot, rot_path,
                             "a harmonic rotation");
}

/* A circle motion: radius, period, ramps, hold, direction, start_time. */
int ld_read_circle(const Scope *s, PlMotion *mo)
{
  int rc;
  if ((rc = ld_get_number(s, "start_time", &mo->start_time, NULL)))
    return rc;
  if ((rc = ld_get_number(s, "radius", &mo->radius, NULL))) return rc;
  if ((rc = ld_get_number(s, "period", &mo->period, NULL))) return rc;
  if ((rc = ld_get_number(s, "ramp_up", &mo->ramp_up, NULL))) return rc;
  if ((rc = ld_get_number(s, "hold", &mo->hold, NULL))) return rc;
  if ((rc = ld_get_number(s, "ramp_down", &mo->ramp_down, NULL)))
    return rc;
  int dir = mo->counter_clockwise ? 0 : 1;
  if ((rc = ld_get_choice(s, "direction", &dir))) return rc;
  mo->counter_clockwise = (dir == 0);
  return 0;
}

/* A time-series motion: file, read relative to the model file's directory. */
static int read_timeseries(const Ctx *c, const Scope *s, const char *end_path, PlEnd *e)
{
  PlMotion *mo = &e->motion;
  int rc;
  if ((rc = ld_get_string(s, "file", false, mo->file, sizeof mo->file))) return rc;
  int interp = ld_choice_default(s, "interpolation");
  if ((rc = ld_get_choice(s, "interpolation", &interp))) return rc;
  mo->cubic = (interp == 1);
  if ((rc = ld_read_csv_file(c, s, &kMotionCsv, mo->file, sizeof mo->file, &mo->table, &mo->nrows,
                          &mo->ncols, NULL)))
    return rc;
  const PlYNode *fnode = ld_value_of(s, "file");
  char key[PATH_CAP];
  ld_join_key(key, sizeof key, s->path, "file");
  if (mo->ncols == 7)
    return check_rotation_hold(c->err, e, end_path, fnode, key,
                               "the file has rotation columns (rx, ry, rz): a rotational motion");
  return 0;
}

/* motion: of an end, in a dynamic analysis. */
static int read_motion(const Ctx *c, const Scope *end, PlEnd *e)
{
  const PlYPair *pm = ld_pair_of(end, "motion");
  if (!pm) return 0;
  int rc = ld_dynamic_only(c, end, "motion");
  if (rc) return rc;
  char path[PATH_CAP];
  ld_join_key(path, sizeof path, end->path, "motion");
  Scope s;
  if ((rc = ld_open_scope(c->err, pm->value, pm->key, path, &s))) return rc;
  if (!ld_pair_of(&s, "type")) return ld_missing(&s, "type", NULL, " (harmonic, circle or timeseries)");
  int type = 0;
  if ((rc = ld_get_choice(&s, "type", &type))) return rc;
  const PlMotionKind kind = (PlMotionKind)(type + PL_MOTION_HARMONIC);
  const unsigned bit = 1u << (kind - 1);
  for (size_t i = 0; i < sizeof kMotionKeyUse / sizeof kMotionKeyUse[0]; i++) {
    const unsigned u = kMotionKeyUse[i].types;
    if (u & bit) continue;
    char users[64] = "";
    int nusers = 0;
    for (int k = 0; PlChoiceMotionTypes[k]; k++)
      if (u & (1u << k)) {
        if (nusers++) ld_cat(users, sizeof users, " and ");
        ld_cat(users, sizeof users, PlChoiceMotionTypes[k]);
      }
    if ((rc = ld_reject_key(&s, kMotionKeyUse[i].key, "is only used by %s%s motion%s (type is '%s')",
                         nusers > 1 ? "" : "a ", users, nusers > 1 ? "s" : "",
                         PlChoiceMotionTypes[type])))
      return rc;
  }
  e->motion.kind = kind;
  switch (kind) {
  case PL_MOTION_HARMONIC: return read_harmonic(&s, end->path, e);
  case PL_MOTION_CIRCLE: return ld_read_circle(&s, &e->motion);
  case PL_MOTION_TIMESERIES: return read_timeseries(c, &s, end->path, e);
  case PL_MOTION_ROUTE: /* the top only, with lay.route and a pay-out rate: ld_read_ends */
  case PL_MOTION_NONE: break;
  }
  return 0;
}

/* payout: of the top end, in a dynamic analysis, at an end held in x, y, z (the tensioner's
 * exit the pipe leaves from: given, fixed or moved). */
static int read_payout(const Ctx *c, const Scope *end, int which, PlEnd *e)
{
  const PlYPair *pp = ld_pair_of(end, "payout");
  if (!pp) return 0;
  char path[PATH_CAP];
  ld_join_key(path, sizeof path, end->path, "payout");
  if (!which)
    return ld_at(c->err, pp->key, path, "is only used at the top end (the tensioner's exit, where the pipe enters the "
                                        "model)");
  if (c->graph)
    return ld_at(c->err, pp->key, path, "is not yet available on a line of lines: (pay-out acts on a one-line model's "
                                        "top end; docs/design-laying.md)");
  int rc = ld_dynamic_only(c, end, "payout");
  if (rc) return rc;
  bool moved[6];
  PlMotionHeldDofs(&e->motion, moved);
  for (int i = 0; i < 3 && !c->has_vessel; i++) /* a vessel holds its hang-off */
    if (!e->fixed[i] && !moved[i])
      return ld_at(c->err, pp->key, path,
                   "needs the end held in x, y and z (fixed or moved by a motion): the pipe leaves the tensioner "
                   "there; %s is free", kDofNames[i]);
  Scope s;
  if ((rc = ld_open_scope(c->err, pp->value, pp->key, path, &s))) return rc;
  e->payout = true;
  e->payout_start = e->payout_ramp = 0.0;
  const PlYPair *pr = ld_pair_of(&s, "rate"), *pt = ld_pair_of(&s, "tension");
  if (pr && pt) {
    const PlYPair *later = ld_later_pair(pr, pt);
    ld_join_key(path, sizeof path, s.path, later->key->text);
    return ld_at(c->err, later->key, path, "give either 'rate' (a prescribed pay-out) or 'tension' (tension control), "
                                           "not both");
  }
  if (!pr && !pt) return ld_missing(&s, "rate", "m/s", " (or 'tension', N, for tension control)");
  if ((rc = ld_get_number(&s, "start_time", &e->payout_start, NULL))) return rc;
  if (pr) {
    static const char *const kTensionKeys[] = {"gain", "max_rate", "lag", "interval", "filter"};
    for (size_t i = 0; i < sizeof kTensionKeys / sizeof kTensionKeys[0]; i++)
      if ((rc = ld_reject_key(&s, kTensionKeys[i], "is only used by tension control (give 'tension', not 'rate')")))
        return rc;
    if ((rc = ld_get_number_if(&s, "rate", true, &e->payout_rate, NULL)) ||
        (rc = ld_get_number(&s, "ramp_time", &e->payout_ramp, NULL)))
      return rc;
    return 0;
  }
  if ((rc = ld_reject_key(&s, "ramp_time", "is only used with a prescribed 'rate' (tension control starts at "
                                           "start_time from rest)")))
    return rc;
  e->payout_tension = true;
  e->tension_lag = PlSchemaDefault("ends.*.payout.lag");
  e->tension_interval = PlSchemaDefault("ends.*.payout.interval");
  e->tension_filter = PlSchemaDefault("ends.*.payout.filter");
  if ((rc = ld_get_number_if(&s, "tension", true, &e->tension_set, NULL)) ||
      (rc = ld_get_number_if(&s, "gain", true, &e->tension_gain, NULL)) ||
      (rc = ld_get_number_if(&s, "max_rate", true, &e->tension_max_rate, NULL)) ||
      (rc = ld_get_number(&s, "lag", &e->tension_lag, NULL)) ||
      (rc = ld_get_number(&s, "interval", &e->tension_interval, NULL)) ||
      (rc = ld_get_number(&s, "filter", &e->tension_filter, NULL)))
    return rc;
  return 0;
}

/* Reads key of scope s as a load vector of 3 numbers, each at most its schema row's bound
 * in magnitude (larger loads are not physically meaningful for what carries them: "a line",
 * "a vessel"). Absent: unchanged. 0 or 2. */
int ld_get_load(const Scope *s, const char *key, const char *what, double out[3])
{
  const PlKeySpec *k = ld_spec_of(s, key);
  const char *unit = PlSchemaUnit(k);
  const double bound = k->hi;
  const PlYNode *n = ld_value_of(s, key);
  if (!n) return 0;
  char path[PATH_CAP];
  ld_join_key(path, sizeof path, s->path, key);
  if (n->kind != PL_YNODE_SEQ || n->nitems != 3)
    return ld_at(s->err, n, path, "expected a list of 3 numbers (%s), found %s", unit, ld_found(n).s);
  double v[3];
  for (int i = 0; i < 3; i++) {
    const PlYNode *it = n->items[i];
    char ip[PATH_CAP];
    ld_join_index(ip, sizeof ip, path, (size_t)i);
    int rc = ld_parse_number(s->err, it, ip, unit, &v[i]);
    if (rc) return rc;
    if (!(fabs(v[i]) <= bound))
      return ld_at(s->err, it, ip,
                "must be at most %.0e %s in magnitude (a larger %s is not physically "
                "meaningful for %s), got %s",
                bound, unit, key, what, ld_got(it).s);
    if ((rc = ld_check_range(s->err, it, ip, unit, kAny, v[i]))) return rc;
  }
  for (int i = 0; i < 3; i++) out[i] = v[i];
  return 0;
}

/* A force component on a translation the end holds (fixed) does nothing: the hold's reaction
 * takes it, in statics and in dynamics alike (a DOF a motion moves but fixed leaves free is
 * free in statics, where its force acts: the J-lay top with fixed [y, z] and force x). So a
 * non-zero component there is an error at the force key. Returns 0 or 2. */
static int check_held_force(const Scope *s, const PlEnd *e)
{
  char names[16] = "", values[96] = "";
  int n = 0;
  for (int i = 0; i < 3; i++) {
    if (!e->fixed[i] || e->force[i] == 0.0) continue;
    char v[40];
    snprintf(v, sizeof v, "%s%s = %.6g N", n ? ", " : "", kDofNames[i], e->force[i]);
    if (n++) ld_cat(names, sizeof names, ", ");
    ld_cat(names, sizeof names, kDofNames[i]);
    ld_cat(values, sizeof values, v);
  }
  if (!n) return 0;
  char path[PATH_CAP];
  ld_join_key(path, sizeof path, s->path, "force");
  return ld_at(s->err, ld_pair_of(s, "force")->key, path,
               "acts on %s, which %s.fixed holds (%s): the support takes it and the line never feels it; set %s to 0, "
               "or free %s (remove %s from fixed) to pull the end by the force",
               names, s->path, values, n > 1 ? "those components" : "that component", n > 1 ? "them" : "it",
               n > 1 ? "them" : "it");
}

/* ends.*.z_reference: seabed makes position's z a height above the seabed under the end (its
 * x, y), so that the end follows the seabed when the water depth or the slope changes (a
 * depth sweep); it is turned into the global z here (PlSeabedHeight), and the model holds
 * global positions only. The seabed is the model's (a one-line model's, or the system's for a
 * line of lines: c->graph). */
static int read_z_reference(const Ctx *c, const Scope *s, PlEnd *e)
{
  int ref = 0;
  int rc = ld_get_choice(s, "z_reference", &ref);
  if (rc || !ref) return rc;
  char path[PATH_CAP];
  ld_join_key(path, sizeof path, s->path, "z_reference");
  const PlYNode *at = ld_value_of(s, "z_reference");
  if (!e->has_position[0] || !e->has_position[1] || !e->has_position[2])
    return ld_at(c->err, at, path, "seabed: needs position's x, y and z (the height above the seabed under x, y)");
  e->position[2] += PlSeabedHeight(c->env, e->position[0], e->position[1]);
  return 0;
}

/* ends.top.target: the top tension or the hang-off angle the statics reach by scaling the top
 * end's force (solver/static_target.c). Only at the top end of a one-line model, with a force
 * to scale (its direction is kept). */
static int read_target(const Ctx *c, const Scope *end, int which, PlEnd *e)
{
  const PlYPair *pt = ld_pair_of(end, "target");
  if (!pt) return 0;
  char path[PATH_CAP];
  ld_join_key(path, sizeof path, end->path, "target");
  if (!which || c->graph)
    return ld_at(c->err, pt->key, path, "is only used at the top end of a one-line model (line:): its force is "
                                        "scaled to reach the target");
  if (e->force[0] == 0.0 && e->force[1] == 0.0 && e->force[2] == 0.0)
    return ld_at(c->err, pt->key, path, "needs ends.top.force: its direction is kept and its magnitude solved, "
                                        "starting from the value given (e.g. force: [400e3, 0, 0] for a pull along +x)");
  Scope s;
  int rc = ld_open_scope(c->err, pt->value, pt->key, path, &s);
  if (rc) return rc;
  const PlYPair *pn = ld_pair_of(&s, "tension"), *pa = ld_pair_of(&s, "angle");
  if (pn && pa) {
    const PlYPair *later = ld_later_pair(pn, pa);
    ld_join_key(path, sizeof path, s.path, later->key->text);
    return ld_at(c->err, later->key, path, "give either 'tension' or 'angle', not both");
  }
  if (!pn && !pa) return ld_missing(&s, "tension", "N", " (or 'angle', deg: the hang-off angle from the horizontal)");
  e->target = pn ? PL_TARGET_TENSION : PL_TARGET_ANGLE;
  if ((rc = ld_get_number(&s, pn ? "tension" : "angle", &e->target_value, NULL))) return rc;
  if (pa) e->target_value *= 3.14159265358979323846 / 180.0;
  return 0;
}

/* ends.*.connection and, with fixed, ends.*.orientation of an end on a body: the meaning and
 * angle convention of vessel.hang_off.connection and .orientation (loader_bodies.c,
 * read_hang_off; pipelay's body axes, as `at`). */
static int read_end_connection(const Scope *s, PlEnd *e)
{
  int kind = ld_choice_default(s, "connection"), rc;
  if ((rc = ld_get_choice(s, "connection", &kind))) return rc;
  e->connection = kind ? PL_HANGOFF_HINGE : PL_HANGOFF_FIXED;
  for (int i = 0; i < 9; i++) e->body_frame[i] = (i % 4 == 0) ? 1.0 : 0.0;
  if (e->connection == PL_HANGOFF_HINGE)
    return ld_reject_key(s, "orientation",
                         "is only used by a fixed connection (connection is 'hinge': a ball joint, the end "
                         "section turns freely; give connection: fixed to hold it in the body's axes)");
  if (!ld_pair_of(s, "orientation"))
    return ld_missing(s, "orientation", "deg",
                      " (zxy Euler angles of the end section's frame in the body's axes; a fixed connection "
                      "holds it there)");
  double deg[3] = {0, 0, 0};
  bool has[3] = {false, false, false}, present = false;
  if ((rc = ld_get_vec3(s, "orientation", deg, has, NULL, &present))) return rc;
  if (!has[0] || !has[1] || !has[2]) {
    char path[PATH_CAP];
    ld_join_key(path, sizeof path, s->path, "orientation");
    return ld_at(s->err, ld_value_of(s, "orientation"), path,
                 "a fixed connection needs all three angles (null leaves one out)");
  }
  ld_euler_zxy(deg, e->body_frame);
  return 0;
}

/* A body's size [m], for judging its attachment points: the largest of its radii of gyration
 * about O_b (from M_RB), the side of its waterplane area, the cube root of its displaced
 * volume, its centre of gravity's distance from O_b and its hull strips' reach along z. */
static double body_size(const PlVesselModel *b, double rho_w)
{
  const PlVessel *V = &b->body;
  double size = 0.0;
  const double mass = V->MRB[0];
  for (int k = 3; k < 6 && mass > 0.0; k++) size = fmax(size, sqrt(fmax(0.0, V->MRB[7 * k]) / mass));
  size = fmax(size, sqrt(fmax(0.0, V->Awp)));
  if (rho_w > 0.0) size = fmax(size, cbrt(fmax(0.0, V->displacement) / rho_w));
  size = fmax(size, sqrt(V->r_g[0] * V->r_g[0] + V->r_g[1] * V->r_g[1] + V->r_g[2] * V->r_g[2]));
  for (int k = 0; k < b->hull.n; k++) size = fmax(size, fabs(b->hull.z[k]) + 0.5 * b->hull.len[k]);
  return size;
}

/* The body point `at` of an end on body b (body frame, from O_b): farther from O_b than
 * PL_FAIRLEAD_SIZES times the body's size, and than PL_FAIRLEAD_MIN, it is no point of the
 * body (a global position given in the body frame, or a unit slip). Returns 0 or 2. */
static int check_fairlead(const Scope *s, const PlVesselModel *b, double rho_w, const double at[3],
                          const PlYNode *at_node)
{
  const double r = sqrt(at[0] * at[0] + at[1] * at[1] + at[2] * at[2]), size = body_size(b, rho_w);
  const double limit = fmax(PL_FAIRLEAD_MIN, PL_FAIRLEAD_SIZES * size);
  if (r <= limit) return 0;
  char path[PATH_CAP];
  ld_join_key(path, sizeof path, s->path, "at");
  return ld_at(s->err, at_node, path,
               "the body point is %.6g m from the origin O_b of body '%s', more than %.6g m (%g times the body's size "
               "%.3g m, and at least %g m): no fairlead is that far from its body; 'at' is in the body frame from "
               "O_b, not a global position (check the frame and the unit, m)",
               r, b->id, limit, PL_FAIRLEAD_SIZES, size, PL_FAIRLEAD_MIN);
}

/* One end (which = 0 bottom, 1 top). */
/* ends.*.point or ends.*.body with at: the end attached to a point or a body of the model (a
 * line of lines:): held in x, y, z at the point or the body point, rotations free, nothing
 * else given; on a body, connection: fixed also holds its frame at orientation (body axes). */
static int read_end_point(Ctx *c, const Scope *s, PlEnd *e)
{
  char path[PATH_CAP];
  const PlYPair *pp = ld_pair_of(s, "point"), *pb = ld_pair_of(s, "body"), *pa = ld_pair_of(s, "at");
  const PlYPair *first = pp ? pp : pb ? pb : pa;
  ld_join_key(path, sizeof path, s->path, first->key->text);
  if (!c->graph)
    return ld_at(c->err, first->key, path,
              "is only used by an end of a line of lines: (ends attached to points: or bodies:)");
  if (pp && pb) {
    const PlYPair *later = ld_later_pair(pp, pb);
    ld_join_key(path, sizeof path, s->path, later->key->text);
    return ld_at(c->err, later->key, path, "give either 'point' or 'body', not both");
  }
  if (pa && !pb) {
    ld_join_key(path, sizeof path, s->path, "at");
    return ld_at(c->err, pa->key, path, "is the body point of an end attached to a body (give 'body' with it)");
  }
  for (size_t k = 0; k < s->map->npairs; k++) {
    const PlYNode *key = s->map->pairs[k].key;
    const bool body_key = pb && (!strcmp(key->text, "connection") || !strcmp(key->text, "orientation"));
    if (strcmp(key->text, "point") && strcmp(key->text, "body") && strcmp(key->text, "at") && !body_key) {
      char kp[PATH_CAP];
      ld_join_key(kp, sizeof kp, s->path, key->text);
      if (!strcmp(key->text, "connection"))
        return ld_at(c->err, key, kp, "is only used by an end attached to a body (a point holds the end in x, y, z; "
                  "rotations free)");
      return ld_at(c->err, key, kp, "cannot be given with '%s': the %s holds the end (%s)", pp ? "point" : "body",
                pp ? "point" : "body", pp ? "rotations free" : "connection and orientation say how");
    }
  }
  const char *what = pp ? "point" : "body";
  ld_join_key(path, sizeof path, s->path, what);
  const PlYNode *v = (pp ? pp : pb)->value;
  if (v->kind != PL_YNODE_SCALAR || strlen(v->text) != v->len)
    return ld_at(c->err, v, path, "expected a %s's name, found %s", what, ld_found(v).s);
  const int n = pp ? c->graph->npoints : c->graph->nbodies;
  int idx = -1;
  for (int k = 0; k < n; k++)
    if (!strcmp(pp ? c->graph->points[k].name : c->graph->bodies[k].id, v->text)) idx = k;
  if (idx < 0) {
    char names[512] = "";
    for (int k = 0; k < n; k++) {
      if (k) ld_cat(names, sizeof names, ", ");
      ld_cat(names, sizeof names, pp ? c->graph->points[k].name : c->graph->bodies[k].id);
    }
    return ld_at(c->err, v, path, "no %s named '%s' (the %s are: %s)", what, ld_got(v).s, pp ? "points" : "bodies",
              n ? names : pp ? "none; give them under points:" : "none; give them under bodies:");
  }
  double P[3];
  if (pp) {
    e->point = idx;
    memcpy(P, c->graph->points[idx].position, sizeof P);
    c->point_uses[idx]++;
  } else {
    if (!pa) return ld_missing(s, "at", "m", " (the body point the end hangs from, body frame from O_b)");
    const PlYNode *at_node = NULL;
    int rc = ld_get_list(s, "at", e->at, &at_node);
    if (rc) return rc;
    if ((rc = check_fairlead(s, &c->graph->bodies[idx], c->graph->water_density, e->at, at_node))) return rc;
    e->body = idx;
    if ((rc = read_end_connection(s, e))) return rc;
    const PlVesselModel *b = &c->graph->bodies[idx];
    double q[4], Rt[9];
    PlVesselQuatFromEulerZYX(b->rpy, q);
    PlVesselModel joint;
    PlEndBodyJoint(e, b, &joint);
    PlVesselHangOff(&joint, b->position, q, P, Rt);
    if (e->connection == PL_HANGOFF_FIXED) { /* the mesh's frame there and the initial guess */
      memcpy(e->orientation, Rt, sizeof Rt);
      e->has_orientation = true;
    }
    c->body_uses[idx]++;
  }
  for (int i = 0; i < 3; i++) {
    e->fixed[i] = true;
    e->has_position[i] = true;
    e->position[i] = P[i];
  }
  return 0;
}

static int read_end(Ctx *c, const Scope *ends, int which, PlEnd *e)
{
  const char *key = which ? "top" : "bottom";
  Scope s;
  bool present;
  if (which == 1 && c->has_vessel) {
    /* the top end hangs from the vessel: PlVesselTopEnd fills it after the vessel is read; the
     * one key it may carry is the tensioner on the vessel (payout) */
    int rc = ld_open_child(ends, key, &s, &present);
    if (rc || !present || s.map->npairs == 0) return rc;
    for (size_t i = 0; i < s.map->npairs; ++i) {
      const PlYNode *k = s.map->pairs[i].key;
      if (!strcmp(k->text, "payout")) continue;
      char kp[PATH_CAP];
      ld_join_key(kp, sizeof kp, s.path, k->text);
      return ld_at(c->err, k, kp,
                   "is not allowed with a vessel: the top end hangs from the vessel, which sets "
                   "its position, rotation and loads (set vessel.hang_off and vessel.initial "
                   "instead; ends.top may only carry the tensioner's payout)");
    }
    return read_payout(c, &s, which, e);
  }
  if (which == 1 && !ld_pair_of(ends, key))
    return ld_missing(ends, key, NULL, " (or a vessel: block, which the top end then hangs from)");
  int rc = ld_open_child(ends, key, &s, &present);
  if (rc) return rc;
  e->point = e->body = -1;
  e->connection = PL_HANGOFF_HINGE;
  for (int i = 0; i < 9; i++) e->body_frame[i] = (i % 4 == 0) ? 1.0 : 0.0;
  if (ld_pair_of(&s, "connection") && !ld_pair_of(&s, "point") && !ld_pair_of(&s, "body")) {
    char kp[PATH_CAP];
    ld_join_key(kp, sizeof kp, s.path, "connection");
    return ld_at(c->err, ld_pair_of(&s, "connection")->key, kp,
                 "is only used by an end attached to a body (give 'body' and 'at' with it)");
  }
  if (ld_pair_of(&s, "point") || ld_pair_of(&s, "body") || ld_pair_of(&s, "at")) return read_end_point(c, &s, e);
  const PlYNode *pos_items[3] = {NULL, NULL, NULL};
  bool have_pos = false;
  if ((rc = ld_get_vec3(&s, "position", e->position, e->has_position, pos_items, &have_pos)))
    return rc;
  c->end_z[which] = (have_pos && e->has_position[2]) ? pos_items[2] : NULL;
  if ((rc = read_z_reference(c, &s, e))) return rc;
  double deg[3] = {0, 0, 0};
  if ((rc = ld_get_vec3(&s, "orientation", deg, NULL, NULL, &e->has_orientation)))
    return rc;
  if (e->has_orientation) ld_euler_zxy(deg, e->orientation);
  if ((rc = read_fixed(&s, e))) return rc;
  if ((rc = ld_get_load(&s, "force", "a line", e->force))) return rc;
  if ((rc = ld_get_load(&s, "moment", "a line", e->moment))) return rc;
  for (int i = 0; i < 3; i++) {
    if (!e->fixed[i] || e->has_position[i]) continue;
    char path[PATH_CAP];
    ld_join_key(path, sizeof path, s.path, "position");
    if (have_pos)
      return ld_at(c->err, pos_items[i], path, "component %s is held (fixed) and needs a value",
                kDofNames[i]);
    return ld_at(c->err, s.anchor, path,
              "component %s is held (fixed) and needs a value (no position given)",
              kDofNames[i]);
  }
  if ((rc = check_held_force(&s, e))) return rc;
  if ((rc = read_target(c, &s, which, e))) return rc;
  if ((rc = read_motion(c, &s, e))) return rc;
  return read_payout(c, &s, which, e);
}

/* ends: bottom and top. */
int ld_read_ends(Ctx *c, const Scope *top, PlModel *m)
{
  Scope s;
  bool present;
  int rc = ld_open_child_if(top, "ends", true, &s, &present);
  if (rc) return rc;
  if ((rc = read_end(c, &s, 0, &m->ends[0]))) return rc;
  if ((rc = read_end(c, &s, 1, &m->ends[1]))) return rc;
  for (int k = 0; k < 2; ++k) { /* a route motion: the vessel leads the touchdown along lay.route */
    const PlEnd *E = &m->ends[k];
    if (E->motion.kind != PL_MOTION_ROUTE) continue;
    Scope es, ms;
    bool here;
    char path[PATH_CAP];
    if ((rc = ld_open_child(&s, k ? "top" : "bottom", &es, &here)) || (rc = ld_open_child(&es, "motion", &ms, &here)))
      return rc;
    ld_join_key(path, sizeof path, ms.path, "type");
    const PlYNode *at = ld_value_of(&ms, "type");
    if (!k) return ld_at(c->err, at, path, "route: only the top end follows the route (the vessel)");
    if (m->route.n == 0)
      return ld_at(c->err, at, path, "route: needs lay.route, the route the vessel follows (give lay: {route: {points: "
                                     "[[x, y], ...], radius: R}})");
    if (!E->payout || E->payout_tension)
      return ld_at(c->err, at, path, "route: needs ends.top.payout with a rate: the vessel advances along the route "
                                     "as the pipe is paid out (the lay speed is the pay-out rate)");
  }
  const PlEnd *e = &m->ends[1];
  if (e->payout_tension && m->nsegments > 0) {
    /* the tension loop against the pipe's axial impedance Z = sqrt(EA m): a rate r the
     * tensioner imposes is a tension Z r at once (an axial wave), so the sampled loop's
     * command turns a rate into the next rate by the factor k Z (1 - e^(-dt/tau)); beyond 0.5
     * it rings on the pipe's axial waves (measured: 1.14 rings at +-200 kN on a 1500 m steel
     * pipe; 0.29 is smooth) */
    const PlSection *sec = &m->segments[m->nsegments - 1].section;
    const double Z = sqrt(sec->EA * sec->mass_per_length);
    const double f = 1.0 - exp(-e->tension_interval / e->tension_lag), loop = e->tension_gain * Z * f;
    if (loop > 0.5) {
      Scope es, ps;
      bool present;
      char path[PATH_CAP];
      if ((rc = ld_open_child(&s, "top", &es, &present)) || (rc = ld_open_child(&es, "payout", &ps, &present)))
        return rc;
      ld_join_key(path, sizeof path, ps.path, "gain");
      return ld_at(c->err, ld_value_of(&ps, "gain"), path,
                   "makes the tension loop ring on the pipe's axial waves (a rate the tensioner imposes is at once a "
                   "tension of Z = sqrt(EA m) = %.4g N s/m times it): the loop factor gain Z (1 - e^(-interval/lag)) "
                   "= %.3g must be at most 0.5; lower the gain to %.3g m/s/N or below, or raise lag",
                   Z, loop, 0.5 / (Z * f));
    }
  }
  return 0;
}

/* lay: (a one-line model): lay.route, its points and the arcs' radius, built into pieces. */
int ld_read_lay(const Ctx *c, const Scope *top, PlModel *m)
{
  Scope s, rs;
  bool present;
  int rc = ld_open_child(top, "lay", &s, &present);
  if (rc || !present) return rc;
  if ((rc = ld_get_number(&s, "retire_behind", &m->lay_retire, NULL))) return rc;
  if ((rc = ld_open_child_if(&s, "route", true, &rs, &present))) return rc;
  PlRoute *r = &m->route;
  free(r->p);
  free(r->piece);
  memset(r, 0, sizeof *r);
  const PlYNode *n = ld_value_of(&rs, "points");
  if (!n) return ld_missing(&rs, "points", NULL, " (a list of 2 or more points [x, y] in m, global)");
  char path[PATH_CAP];
  ld_join_key(path, sizeof path, rs.path, "points");
  if (n->kind != PL_YNODE_SEQ || n->nitems < 2)
    return ld_at(c->err, n, path, "expected a list of 2 or more points [x, y] (m), found %s", ld_found(n).s);
  r->p = ld_alloc(n->nitems, sizeof *r->p);
  r->piece = ld_alloc(2 * n->nitems, sizeof *r->piece);
  if (!r->p || !r->piece) return ld_at(c->err, n, path, "out of memory (%zu points)", n->nitems);
  const PlKeySpec *kpts = ld_spec_of(&rs, "points");
  const ListSpec xy = {0, kpts->unit, kpts->unit, ld_range_of(kpts), ld_range_of(kpts), "x, y in m"};
  for (size_t i = 0; i < n->nitems; i++) {
    char ip[PATH_CAP];
    ld_join_index(ip, sizeof ip, path, i);
    if ((rc = ld_parse_list(c->err, n->items[i], ip, 2, &xy, r->p[i]))) return rc;
  }
  r->n = (int)n->nitems;
  if (r->n > 2 || ld_pair_of(&rs, "radius")) {
    if ((rc = ld_get_number_if(&rs, "radius", r->n > 2, &r->radius, NULL))) return rc;
  }
  char why[512];
  if (PlRouteBuild(r, why, sizeof why)) {
    const PlYNode *at = r->n > 2 ? ld_value_of(&rs, "radius") : n;
    char kp[PATH_CAP];
    ld_join_key(kp, sizeof kp, rs.path, r->n > 2 ? "radius" : "points");
    return ld_at(c->err, at, kp, "%s", why);
  }
  return 0;
}
