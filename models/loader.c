/*
 * loader.c - reads a model file (YAML) into a PlModel, with --set overrides and strict
 * validation: the entry points, the walk of the whole document and the plausibility checks.
 * The keys are those of the schema table (schema_table.c, documented key by key in
 * docs/model-file.md). The loader is split by job: loader_schema.c (messages, scopes, the
 * typed getters that take unit, range and default from the table), the readers per object
 * kind (loader_env.c, loader_line.c, loader_ends.c, loader_analysis.c, loader_bodies.c,
 * loader_graph.c), loader_timeseries.c (CSV files) and loader_override.c (--set); what
 * they share is in loader_impl.h.
 *
 * Three stages:
 *   1. the text is parsed into a bounded tree (yaml_tree.c: no aliases, depth <= 64,
 *      <= 100000 nodes, one document; the loader caps the text at 16 MiB);
 *   2. each override "key.path=value" is parsed as YAML and grafted onto the tree; its
 *      nodes are placed at "--set:1:K" (K = 1-based index of the override) so that any
 *      later complaint about them points at the argument;
 *   3. the tree is walked against the schema: every mapping is checked for unknown and
 *      duplicate keys, every value for type and range, then cross-checks (section lengths
 *      against line.length, end heights against line.length, held DOFs against
 *      positions, dynamic-only keys against analysis.type, rotational motions against
 *      held rotations, the vessel's matrices with PlVesselCheck and its controller with
 *      PlDPControllerCheck) run, and PlModel is filled. With a vessel the top end is then
 *      filled from it (PlVesselTopEnd). The time series of a prescribed motion
 *      (ends.*.motion.file) and of the vessel's environmental load
 *      (vessel.environment_load.file), CSV files relative to the model file, are read here
 *      too, in one pass with a bounded line buffer (files up to 256 MiB, 10 million rows).
 * Every user error returns 2 with one line "FILE:LINE:COL: key.path: what is wrong" in
 * PlError (FILE is the CSV file for an error inside a time series). No global state. A
 * loaded model owns its arrays, each as long as the file's list (models.h, above PlModel;
 * PlModelFree); after an error the model holds the defaults and owns nothing.
 */
#include "loader_impl.h"

/* ---- the whole document --------------------------------------------------------------- */

/* Walks the (overridden) tree into m. */
static int check_plausible(PlError *err, const PlYNode *root, PlModel *m);
static void design_validity(const PlYNode *root, PlModel *m);
static int check_route_dp(PlError *err, const PlYNode *root, const PlModel *m, bool one_line);
static int check_target_tension(PlError *err, const PlYNode *root, const PlModel *m);

static int read_model_with(const PlYNode **body_names, PlError *err, const PlYNode *root, PlModel *m);

static int read_model(PlError *err, const PlYNode *root, PlModel *m)
{
  const PlYNode *bl = ld_value_of_node(root, "bodies"); /* room for the bodies' names (or the vessel's) */
  const PlYNode **names = ld_alloc((bl && bl->kind == PL_YNODE_SEQ ? bl->nitems : 0) + 1, sizeof *names);
  if (!names) return ld_at(err, root, "(document)", "out of memory");
  const int rc = read_model_with(names, err, root, m);
  free(names);
  return rc;
}

/* read_model with room for the bodies' name nodes. */
static int read_model_with(const PlYNode **body_names, PlError *err, const PlYNode *root, PlModel *m)
{
  Ctx c = {err, NULL, {NULL, NULL}, PL_ANALYSIS_STATIC, false, m->source_path, false, false, body_names, NULL, m, NULL,
           NULL};
  Scope top;
  int rc = ld_open_scope(err, root, root, "", &top);
  if (rc) return rc;
  if ((rc = ld_get_string(&top, "name", true, m->name, sizeof m->name))) return rc;
  if ((rc = ld_read_environment(&top, m))) return rc;
  if (ld_pair_of(&top, "lines"))
  {
    if ((rc = ld_read_line_system(&c, &top, m)) || (rc = ld_read_design(&top, m))) return rc;
    design_validity(root, m);
    return check_route_dp(err, root, m, false);
  }
  if ((rc = ld_reject_key(&top, "points", "are the connection points of a model of lines: (give the line under "
                                       "lines: with its ends on the points)")))
    return rc;
  if ((rc = ld_reject_key(&top, "stinger", "carries a line of a model of lines: (give the pipe under lines: with its "
                                        "top end at the firing line)")))
    return rc;
  c.has_vessel = ld_pair_of(&top, "vessel") != NULL;
  const PlYPair *pbodies = ld_pair_of(&top, "bodies"), *pjoints = ld_pair_of(&top, "joints");
  const bool has_line = ld_pair_of(&top, "line") != NULL;
  c.body_only = (c.has_vessel || pbodies) && !has_line;
  if (has_line && (pbodies || pjoints)) {
    const PlYPair *p = pbodies ? pbodies : pjoints;
    return ld_at(err, p->key, p->key->text,
              "is not yet available with a line: a line's top hangs from vessel: today; lines attached to "
              "bodies and joints come with the system core (docs/design-system-core.md §6)");
  }
  if (pjoints && !pbodies && !c.has_vessel)
    return ld_at(err, pjoints->key, "joints", "joins bodies: give them under bodies: (a model without line:)");
  if (c.body_only && c.has_vessel && pbodies) {
    const PlYPair *pv = ld_pair_of(&top, "vessel"), *later = ld_later_pair(pv, pbodies);
    return ld_at(err, later->key, later->key->text,
              "give the bodies either as vessel: (one body, named vessel) or as bodies:, not both");
  }
  if (c.body_only) {
    /* a system of rigid bodies (the Giusti tests; a vessel without a pipe; bodies on joints):
     * no line, so nothing that describes one */
    static const char *const line_keys[] = {"seabed", "mesh", "rotation", "ends", "current", "lay", "design",
                                            "fatigue", "operability", NULL};
    for (int k = 0; line_keys[k]; ++k)
      if ((rc = ld_reject_key(&top, line_keys[k], "describes the line; a model without line: is a system of "
                                                 "rigid bodies (vessel: or bodies:)")))
        return rc;
    m->rigid_body = true;
    if ((rc = ld_read_analysis(&c, &top, m))) return rc;
    if (m->analysis.kind != PL_ANALYSIS_DYNAMIC)
      return ld_at(err, top.anchor, "analysis.type",
                "a system of rigid bodies (vessel: or bodies: without line:) needs analysis.type: dynamic");
    if ((rc = ld_read_output(&c, &top, m))) return rc;
    if (m->noutput_points)
      return ld_at(err, top.anchor, "output.points", "a model without a line has no points along a line");
    if ((rc = ld_read_waves(&c, &top, m))) return rc; /* the bodies' wave excitation */
    if ((rc = ld_read_vessel(&c, &top, m))) return rc;
    if ((rc = ld_read_bodies(&c, &top, m))) return rc;
    if ((rc = ld_read_joints(&c, &top, m))) return rc;
    return check_route_dp(err, root, m, false);
  }
  if ((rc = ld_read_line(&c, &top, m))) return rc;
  if ((rc = ld_read_seabed(&c, &top, m))) return rc;
  if ((rc = ld_read_mesh(&c, &top, m))) return rc;
  int rot = (int)m->rotation;
  if ((rc = ld_get_choice(&top, "rotation", &rot))) return rc;
  m->rotation = rot ? PL_ROT_EULER_ZXY : PL_ROT_QUATERNION;
  if ((rc = ld_read_analysis(&c, &top, m))) return rc; /* before the ends: motions need it */
  if ((rc = ld_read_lay(&c, &top, m))) return rc;      /* before the ends: a route motion needs it */
  if ((rc = ld_read_ends(&c, &top, m))) return rc;
  if ((rc = ld_read_current(&top, m))) return rc;
  if ((rc = ld_read_waves(&c, &top, m))) return rc;
  if ((rc = ld_read_output(&c, &top, m))) return rc;
  if ((rc = ld_read_fatigue(&c, &top, m))) return rc;
  if ((rc = ld_read_operability(&c, &top, m))) return rc;
  if ((rc = ld_read_vessel(&c, &top, m))) return rc;
  if ((rc = ld_read_design(&top, m))) return rc;
  if (m->vessel.present) PlVesselTopEnd(&m->vessel, &m->ends[1]); /* the mesh and guess use it */
  if ((rc = check_route_dp(err, root, m, true))) return rc;

  /* the line must reach from one end to the other */
  if (c.end_z[0] && (c.end_z[1] || m->vessel.present)) {
    const double dz = fabs(m->ends[1].position[2] - m->ends[0].position[2]);
    if (dz > m->length)
      return ld_at(err, c.line_length, "line.length",
                "line shorter than the %.10g m vertical distance between its ends (length "
                "%.10g m%s)",
                dz, m->length,
                m->vessel.present ? "; the top end is the vessel's hang-off point" : "");
  }
  if ((rc = check_target_tension(err, root, m))) return rc;
  return check_plausible(err, root, m);
}

/* ---- plausibility: values a model can hold but no pipeline has ----------------------------
 * Errors where the value cannot be intended (a unit slip), warnings where it could be. Every
 * bound is here, with its reason; docs/model-file.md ("Plausibility checks") lists them. */
#define PL_E_MIN_ERROR 1e8      /* Pa: below, a modulus typed in GPa or MPa (steel 2.07e11) */
#define PL_E_MIN_WARN 1e9       /* Pa: below steel, titanium, aluminium, composites; HDPE ~1e9 */
#define PL_E_MAX_ERROR 1e13     /* Pa: above diamond (1.2e12) */
#define PL_G_MIN_ERROR 1e7      /* Pa: a shear modulus in GPa or MPa */
#define PL_DENSITY_MIN 100.0    /* kg/m^3: a wall material in t/m^3 (steel 7.85) */
#define PL_DIAMETER_MAX 5.0     /* m: no pipe, riser or cable is wider; a diameter in mm */
#define PL_DEPTH_MAX 12000.0    /* m: the deepest ocean is 10 935 m */
#define PL_HIGH_END 100.0       /* m above the sea surface: higher than any hang-off */

/* The node at a key path of the tree ("line.sections[0].material.youngs_modulus"), or NULL. */
static const PlYNode *node_at(const PlYNode *root, const char *path)
{
  Step steps[MAX_STEPS];
  const int n = ld_split_path(path, strlen(path), steps);
  const PlYNode *x = root;
  for (int k = 0; k < n && x; ++k) {
    if (steps[k].is_index) x = x->kind == PL_YNODE_SEQ && steps[k].index < x->nitems ? x->items[steps[k].index] : NULL;
    else {
      const PlYPair *pr = x->kind == PL_YNODE_MAP ? PlYMapFind(x, steps[k].key) : NULL;
      x = pr ? pr->value : NULL;
    }
  }
  return n > 0 ? x : NULL;
}

/* A DP reference of type route (the vessel lays along lay.route) needs the one-line model's
 * route and the pay-out that lays the pipe; a body of a system has neither. */
static int check_route_dp(PlError *err, const PlYNode *root, const PlModel *m, bool one_line)
{
  const char *where = NULL;
  if (m->vessel.present && m->vessel.has_dp && m->vessel.dp.ref.kind == PL_DP_REF_ROUTE) where = "vessel";
  for (int k = 0; k < m->nbodies && !where; ++k)
    if (m->bodies[k].has_dp && m->bodies[k].dp.ref.kind == PL_DP_REF_ROUTE) where = "bodies";
  if (!where) return 0;
  const int vessel = !strcmp(where, "vessel");
  const char *path = vessel ? "vessel.dp.reference.type" : "bodies";
  const PlYNode *at = node_at(root, path);
  if (!one_line || !vessel)
    return ld_at(err, at, path, "route: only the vessel of a one-line model (line: with vessel:) lays along lay.route");
  if (m->route.n == 0)
    return ld_at(err, at, path, "route: needs lay.route, the route the vessel lays along (give lay: {route: {points: "
                                "[[x, y], ...], radius: R}})");
  if (!m->ends[1].payout)
    return ld_at(err, at, path, "route: needs ends.top.payout (a rate, the lay speed, or a tension): the vessel lays "
                                "the pipe as the tensioner pays it out");
  return 0;
}

/* ends.top.target.tension below what the line's weight alone puts at the top. A line that
 * rests on the seabed at its bottom end (within a diameter of it) holds its suspended part
 * from the top: the vertical force there is the suspended length's submerged weight, at least
 * w_min h (w_min the lightest section's submerged weight per length, h the height of the top
 * above the bottom end), and the top tension is at least that whatever the horizontal force.
 * With a buoyant section, or a bottom end off the seabed (which can carry weight), no such
 * bound holds and the static solve says whether the target is reached. */
static int check_target_tension(PlError *err, const PlYNode *root, const PlModel *m)
{
  const PlEnd *b = &m->ends[0], *t = &m->ends[1];
  if (t->target != PL_TARGET_TENSION || m->seabed == PL_SEABED_NONE || m->nsegments < 1 || !b->has_position[0] ||
      !b->has_position[1] || !b->has_position[2] || !t->has_position[2])
    return 0;
  const double d = m->segments[0].section.outer_diameter;
  if (fabs(b->position[2] - PlSeabedHeight(m, b->position[0], b->position[1])) > d) return 0;
  double w_min = INFINITY;
  for (int k = 0; k < m->nsegments; ++k) {
    const PlSection *s = &m->segments[k].section;
    double f[2]; /* a metre of it wholly submerged: its submerged weight at its two ends */
    PlElementWeight(s, m->water_density, m->gravity, 1.0, -s->outer_diameter, -s->outer_diameter, f, NULL);
    w_min = fmin(w_min, f[0] + f[1]);
  }
  const double h = t->position[2] - b->position[2];
  if (!(w_min > 0.0) || !(h > 0.0) || t->target_value > w_min * h) return 0;
  const char *path = "ends.top.target.tension";
  return ld_at(err, node_at(root, path), path,
               "%.6g kN cannot be reached: the line rests on the seabed at its bottom end and hangs %.6g m up to the "
               "top, so the top holds at least its submerged weight w h = %.6g kN (w = %.6g N/m, the lightest "
               "section's) and the top tension is at least that plus the horizontal tension; give more than %.6g kN",
               t->target_value / 1e3, h, w_min * h / 1e3, w_min, w_min * h / 1e3);
}

/* A number at a path of the tree (validated already); NAN when absent. */
static double number_at(const PlYNode *root, const char *path, const PlYNode **node)
{
  const PlYNode *x = node_at(root, path);
  if (node) *node = x;
  if (!x || x->kind != PL_YNODE_SCALAR) return NAN;
  return strtod(x->text, NULL);
}

/* Adds "SRC:LINE:COL: PATH: warning: ..." to the model's warnings (the place of n, or of
 * the document when NULL). */
static void warn(PlModel *m, const PlYNode *n, const PlYNode *root, const char *path, const char *fmt, ...)
{
  if (m->nwarnings >= PL_MAX_WARNINGS) return;
  PlError e;
  char what[PL_ERRMSG_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  const PlYNode *w = n ? n : root;
  ld_report(&e, w->source, w->line, w->col, path, "warning: %s", what);
  memcpy(m->warnings[m->nwarnings++], e.msg, sizeof e.msg);
}

/* The validity of DNV-ST-F101's local-buckling criteria (design.dnv_f101) for each pipe section
 * of the model (every line's): D/t2 above 45 is outside the external-overpressure criteria, D/t2
 * below 15 outside the standard's scope (its Table 1-1). Warnings: the check is still computed. */
static void design_validity(const PlYNode *root, PlModel *m)
{
  if (!m->design.dnv.present) return;
  const int nl = m->nlines > 0 ? m->nlines : 1;
  for (int l = 0; l < nl; ++l) {
    const PlSegment *seg = m->nlines > 0 ? m->lines[l].segments : m->segments;
    const int ns = m->nlines > 0 ? m->lines[l].nsegments : m->nsegments;
    for (int k = 0; k < ns; ++k) {
      const double D_t2 = seg[k].section.outer_diameter / (seg[k].section.wall_thickness - m->design.dnv.corrosion_allowance);
      if (D_t2 > 45.0 || D_t2 < 15.0)
        warn(m, node_at(root, "design.dnv_f101"), root, "design.dnv_f101",
             "%s%s%ssection %d has D/t2 = %.4g, %s", m->nlines > 0 ? "line " : "", m->nlines > 0 ? m->lines[l].name : "",
             m->nlines > 0 ? ": " : "", k, D_t2,
             D_t2 > 45.0 ? "above 45: the external-overpressure criteria (LCC and DCC) are outside their validity"
                         : "below 15: outside DNV-ST-F101's scope (its Table 1-1)");
    }
  }
}

static int check_plausible(PlError *err, const PlYNode *root, PlModel *m)
{
  design_validity(root, m);
  char path[PATH_CAP];
  const PlYNode *n;
  /* environment */
  number_at(root, "environment.water_depth", &n);
  if (m->water_depth > PL_DEPTH_MAX)
    return ld_at(err, n, "environment.water_depth", "%.10g m is deeper than any ocean (at most %g m; the unit is m)",
              m->water_depth, PL_DEPTH_MAX);
  if (!(m->gravity > 9.7 && m->gravity < 9.9))
    warn(m, node_at(root, "environment.gravity"), root, "environment.gravity",
         "%.6g m/s^2 is not the Earth's gravity (9.78 to 9.83 m/s^2)", m->gravity);
  if (!(m->water_density >= 990.0 && m->water_density <= 1050.0))
    warn(m, node_at(root, "environment.water_density"), root, "environment.water_density",
         "%.6g kg/m^3 is not sea or fresh water (1000 to 1030 kg/m^3)", m->water_density);
  /* sections */
  for (int i = 0; i < m->nsegments; ++i) {
    const PlSection *sec = &m->segments[i].section;
    snprintf(path, sizeof path, "line.sections[%d].material.youngs_modulus", i);
    const double E = number_at(root, path, &n);
    if (n && E < PL_E_MIN_ERROR)
      return ld_at(err, n, path, "%.6g Pa is no structural material's Young's modulus (steel: 2.07e11 Pa): the unit "
                "is Pa, not GPa or MPa", E);
    if (n && E > PL_E_MAX_ERROR)
      return ld_at(err, n, path, "%.6g Pa is stiffer than any material (the unit is Pa; steel 2.07e11 Pa)", E);
    if (n && E < PL_E_MIN_WARN)
      warn(m, n, root, path, "%.6g Pa is below steel, titanium, aluminium and composites (HDPE: about 1e9 Pa); "
           "check the unit (Pa)", E);
    snprintf(path, sizeof path, "line.sections[%d].material.shear_modulus", i);
    const double G = number_at(root, path, &n);
    if (n && G < PL_G_MIN_ERROR)
      return ld_at(err, n, path, "%.6g Pa is no structural material's shear modulus (steel: 7.9e10 Pa): the unit is "
                "Pa, not GPa or MPa", G);
    snprintf(path, sizeof path, "line.sections[%d].material.density", i);
    const double rho = number_at(root, path, &n);
    if (n && rho < PL_DENSITY_MIN)
      return ld_at(err, n, path, "%.6g kg/m^3 is no pipe wall material's density (steel: 7850 kg/m^3): the unit is "
                "kg/m^3, not t/m^3", rho);
    snprintf(path, sizeof path, "line.sections[%d].outer_diameter", i);
    number_at(root, path, &n);
    if (n && sec->outer_diameter > PL_DIAMETER_MAX)
      return ld_at(err, n, path, "%.6g m is wider than any pipe, riser or cable (at most %g m; the unit is m, not mm)",
                sec->outer_diameter, PL_DIAMETER_MAX);
    const double w = PlSectionSubmergedWeight(sec, m->water_density, m->gravity);
    if (w < -1e-9 * sec->mass_per_length * m->gravity && !m->segments[i].buoyant) { /* not neutral by round-off */
      snprintf(path, sizeof path, "line.sections[%d]", i);
      n = node_at(root, path);
      return ld_at(err, n ? n : root, path, "this section floats: its submerged weight is %.6g N/m (mass %.6g kg/m "
                "against %.6g kg/m of displaced water); if it should (a buoyancy section of a lazy wave), say so with "
                "'buoyant: true', else check the diameter, wall thickness and densities", w, sec->mass_per_length,
                m->water_density * M_PI * sec->outer_diameter * sec->outer_diameter / 4.0);
    }
  }
  /* ends */
  for (int k = 0; k < 2; ++k) {
    const PlEnd *e = &m->ends[k];
    if (!e->has_position[2] || (k == 1 && m->vessel.present)) continue;
    const double dk = m->segments[k ? m->nsegments - 1 : 0].section.outer_diameter;
    snprintf(path, sizeof path, "ends.%s.position", k ? "top" : "bottom");
    n = node_at(root, path);
    if (e->position[2] < -m->water_depth - dk)
      return ld_at(err, n ? n : root, path, "the end is %.6g m below the seabed (z = %.10g m, the seabed at z = -%.10g "
                "m): give its height above -water_depth", -m->water_depth - e->position[2], e->position[2],
                m->water_depth);
    if (e->position[2] > PL_HIGH_END)
      warn(m, n, root, path, "the end is %.6g m above the sea surface (z = 0 is mean sea level; depth is negative "
           "z)", e->position[2]);
  }
  /* A harmonic heave of an end larger than the water depth moves it through the seabed
   * or far out of the water: no vessel or buoy moves so (a 100-year heave is about 15 m). A
   * warning: a line long and slack enough could follow it, and the run's plausibility check
   * (PlSysDynPlausible) stops it where it cannot. */
  for (int k = 0; k < 2 * (m->nlines + 1) && m->analysis.kind == PL_ANALYSIS_DYNAMIC; ++k) {
    const PlMotion *mo = k < 2 ? &m->ends[k].motion : &m->lines[k / 2 - 1].ends[k % 2].motion;
    if (mo->kind != PL_MOTION_HARMONIC) continue;
    for (int c = 2; c < 3; ++c) { /* heave */
      if (!mo->harmonic_dof[c] || fabs(mo->harmonic[c].amplitude) <= m->water_depth) continue;
      if (k < 2) snprintf(path, sizeof path, "ends.%s.motion.dofs.%c.amplitude", k % 2 ? "top" : "bottom", "xyz"[c]);
      else
        snprintf(path, sizeof path, "lines[%d].ends.%s.motion.dofs.%c.amplitude", k / 2 - 1, k % 2 ? "top" : "bottom",
                 "xyz"[c]);
      warn(m, node_at(root, path), root, path, "%.6g m is more than the water depth (%.6g m): the end would move "
           "through the seabed or far out of the water (a vessel's heave in a severe sea is about 15 m); the run "
           "stops where the line's state leaves the plausible", mo->harmonic[c].amplitude, m->water_depth);
    }
  }
  /* a time series shorter than the run is held at its last row: said, not silent */
  for (int k = 0; k < 2 * (m->nlines + 1) && m->analysis.kind == PL_ANALYSIS_DYNAMIC; ++k) {
    const PlMotion *mo = k < 2 ? &m->ends[k].motion : &m->lines[k / 2 - 1].ends[k % 2].motion;
    if (mo->kind != PL_MOTION_TIMESERIES || mo->nrows < 1 || !mo->table) continue;
    const double tend = mo->table[7 * (mo->nrows - 1)];
    if (tend < m->analysis.dynamic.duration * (1.0 - 1e-12)) {
      if (k < 2) snprintf(path, sizeof path, "ends.%s.motion.file", k % 2 ? "top" : "bottom");
      else snprintf(path, sizeof path, "lines[%d].ends.%s.motion.file", k / 2 - 1, k % 2 ? "top" : "bottom");
      warn(m, node_at(root, path), root, path, "the time series ends at t = %.6g s, before the end of the run "
           "(analysis.dynamic.duration %.6g s): its last row is held from then on", tend,
           m->analysis.dynamic.duration);
    }
  }
  const PlEnd *b = &m->ends[0], *t = &m->ends[1];
  bool full = !m->vessel.present;
  for (int c = 0; c < 3; ++c) full = full && b->has_position[c] && t->has_position[c] && b->fixed[c] && t->fixed[c];
  if (full) {
    const double chord = sqrt(pow(t->position[0] - b->position[0], 2) + pow(t->position[1] - b->position[1], 2) +
                              pow(t->position[2] - b->position[2], 2));
    n = node_at(root, "ends.top.position");
    if (chord > m->length * (1.0 + PL_CHORD_STRAIN))
      return ld_at(err, n ? n : root, "ends.top.position", "the ends are %.10g m apart, %.3g %% more than the line's "
                "length %.10g m: no pipe stretches that far (give a longer line or closer ends)", chord,
                100.0 * (chord / m->length - 1.0), m->length);
    if (chord > m->length)
      warn(m, n, root, "ends.top.position", "the ends are %.10g m apart, farther than the line's length %.10g m: the "
           "line must stretch %.3g %% to reach them", chord, m->length, 100.0 * (chord / m->length - 1.0));
  }
  return 0;
}

/* ---- entry points --------------------------------------------------------------------- */

void ld_segment_defaults(PlSegment *seg)
{
  memset(seg, 0, sizeof *seg);
  PlHydro *h = &seg->hydro;
  seg->axial_damping = PlSchemaDefault("line.sections[*].axial_damping");
  h->drag_normal = PlSchemaDefault("line.sections[*].hydrodynamics.drag_normal");
  h->drag_tangential = PlSchemaDefault("line.sections[*].hydrodynamics.drag_tangential");
  h->drag_axial_skin = NAN;
  h->added_mass_normal = PlSchemaDefault("line.sections[*].hydrodynamics.added_mass_normal");
  h->added_mass_tangential = PlSchemaDefault("line.sections[*].hydrodynamics.added_mass_tangential");
  for (int k = 0; k < 3; k++) h->rotational_damping[k] = 0.0; /* [0, 0, 0] */
}

void ld_body_defaults(const PlModel *m, PlVesselModel *v)
{
  memset(v, 0, sizeof *v);
  v->present = false;
  PlVesselInit(&v->body);
  v->body.rho_w = m->water_density;
  v->body.gravity = m->gravity;
  v->body.norm_rate = PlSchemaDefault("vessel.norm_rate");
  v->connection = PL_HANGOFF_FIXED;
  for (int i = 0; i < 9; i++) v->top_frame[i] = (i % 4 == 0) ? 1.0 : 0.0;
  v->environment.body_frame = PlSchemaDefault("vessel.environment_load.frame") == 1;
  v->environment.start_time = PlSchemaDefault("vessel.environment_load.start_time");
  v->environment.ramp_time = PlSchemaDefault("vessel.environment_load.ramp_time");
  v->environment.nrows = 0;
  v->environment.table = NULL;
  v->has_dp = false;
  PlDPControllerDefaults(&v->dp);
  PlDPController *c = &v->dp;
  c->antiwindup_time = PlSchemaDefault("vessel.dp.antiwindup_time");
  c->start_time = PlSchemaDefault("vessel.dp.start_time");
  c->ramp_time = PlSchemaDefault("vessel.dp.ramp_time");
  c->ref.heading_along_path = PlSchemaDefault("vessel.dp.reference.heading") == 1;
  c->ref.start_time = PlSchemaDefault("vessel.dp.reference.start_time");
  c->ref.course_deg = PlSchemaDefault("vessel.dp.reference.course");
  c->ref.ramp_time = PlSchemaDefault("vessel.dp.reference.ramp_time");
  c->ref.circle.ramp_up = PlSchemaDefault("vessel.dp.reference.ramp_up");
  c->ref.circle.ramp_down = PlSchemaDefault("vessel.dp.reference.ramp_down");
  c->ref.circle.counter_clockwise = PlSchemaDefault("vessel.dp.reference.direction") == 0;
}

void *ld_alloc(size_t n, size_t size)
{
  if (n == 0 || size == 0 || n > SIZE_MAX / size) return NULL;
  return calloc(n, size);
}

/* The defaults of PlModel: every key's default from the schema (schema_table.c), the rest
 * (counts, required values) zero or unset. */
/* The defaults, from the schema table; PlModelInitDefaults copies them, computed once. */
static void InitDefaults(PlModel *m)
{
  memset(m, 0, sizeof *m);
  m->water_depth = 0.0; /* required: unset */
  m->water_density = PlSchemaDefault("environment.water_density");
  m->gravity = PlSchemaDefault("environment.gravity");
  m->length = 0.0;      /* required: unset */
  m->nsegments = 0;
  const int seabed = (int)PlSchemaDefault("seabed.model"); /* PlChoiceSeabedModels */
  m->seabed = seabed == 0 ? PL_SEABED_NONE : seabed == 1 ? PL_SEABED_NONLINEAR : PL_SEABED_LINEAR;
  m->seabed_stiffness = 0.0;
  m->seabed_normal[2] = 1.0; /* flat */
  m->mobilisation_axial = PlSchemaDefault("seabed.friction.mobilisation_axial");
  m->mesh_elements = 0; /* required (or target length): unset */
  m->mesh_target_length = 0.0;
  m->nzones = 0;
  m->rotation = PlSchemaDefault("rotation") == 1 ? PL_ROT_EULER_ZXY : PL_ROT_QUATERNION;
  for (int e = 0; e < 2; e++) {
    PlEnd *end = &m->ends[e];
    for (int i = 0; i < 9; i++) end->orientation[i] = (i % 4 == 0) ? 1.0 : 0.0;
    end->has_orientation = false;
    end->point = end->body = -1;
    end->connection = PL_HANGOFF_HINGE;
    for (int i = 0; i < 9; i++) end->body_frame[i] = (i % 4 == 0) ? 1.0 : 0.0;
  }
  m->analysis.kind = PlSchemaDefault("analysis.type") == 1 ? PL_ANALYSIS_DYNAMIC : PL_ANALYSIS_STATIC;
  m->analysis.load_steps = (int)PlSchemaDefault("analysis.load_steps");
  m->analysis.max_cutbacks = (int)PlSchemaDefault("analysis.max_cutbacks");
  m->analysis.max_iterations = (int)PlSchemaDefault("analysis.max_iterations");
  m->analysis.rtol = PlSchemaDefault("analysis.rtol");
  m->analysis.atol = PlSchemaDefault("analysis.atol");
  m->analysis.initial_guess =
      PlSchemaDefault("analysis.initial_guess") == 1 ? PL_GUESS_STRAIGHT : PL_GUESS_CATENARY;
  m->analysis.petsc_options[0] = '\0';
  m->design.pressure.internal_pressure = PlSchemaDefault("design.internal_pressure");
  m->design.pressure.internal_pressure_level = PlSchemaDefault("design.internal_pressure_level");
  PlDnvSpec *dnv = &m->design.dnv;
  dnv->yield_derating = PlSchemaDefault("design.dnv_f101.yield_derating");
  dnv->tensile_derating = PlSchemaDefault("design.dnv_f101.tensile_derating");
  dnv->supplementary_u = PlSchemaDefault("design.dnv_f101.supplementary_u") != 0.0;
  dnv->safety_class = (PlDnvSafetyClass)PlSchemaDefault("design.dnv_f101.safety_class");
  dnv->fabrication = (PlDnvFabrication)PlSchemaDefault("design.dnv_f101.fabrication");
  dnv->corrosion_allowance = PlSchemaDefault("design.dnv_f101.corrosion_allowance");
  dnv->ovality = PlSchemaDefault("design.dnv_f101.ovality");
  dnv->alpha_h = PlSchemaDefault("design.dnv_f101.alpha_h");
  dnv->condition_factor = PlSchemaDefault("design.dnv_f101.condition_factor");

  /* dynamic analysis */
  m->seabed_damping = NAN; /* per section (PlSeabedDamping) */
  m->current.kind = PL_CURRENT_NONE; /* no current: block absent */
  m->current.direction_deg = PlSchemaDefault("current.direction");
  m->current.ntable = 0;
  m->current.start_time = PlSchemaDefault("current.start_time");
  m->current.ramp_time = PlSchemaDefault("current.ramp_time");
  m->sea = (PlSea){PL_STRETCH_VERTICAL, 0, NULL, 0, NULL, PlSchemaDefault("waves.ramp_time")}; /* calm: waves block absent */
  for (int e = 0; e < 2; e++) {
    PlMotion *mo = &m->ends[e].motion;
    mo->kind = PL_MOTION_NONE;
    mo->start_time = PlSchemaDefault("ends.*.motion.start_time");
    mo->ramp_time = PlSchemaDefault("ends.*.motion.ramp_time");
    mo->ramp_up = PlSchemaDefault("ends.*.motion.ramp_up");
    mo->ramp_down = PlSchemaDefault("ends.*.motion.ramp_down");
    mo->counter_clockwise = PlSchemaDefault("ends.*.motion.direction") == 0;
    for (int k = 0; k < 6; k++) mo->harmonic[k].phase_deg = PlSchemaDefault("ends.*.motion.dofs.*.phase");
    mo->file[0] = '\0';
    mo->nrows = 0;
    mo->ncols = 0;
    mo->table = NULL;
  }
  m->checkpoint_interval = PlSchemaDefault("output.checkpoint_interval"); /* [s] wall clock */
  m->vtk_interval = PlSchemaDefault("output.vtk_interval"); /* [s] simulated */
  m->statistics_start = PlSchemaDefault("output.statistics_start"); /* [s] */
  m->fatigue.environment = (int)PlSchemaDefault("fatigue.environment");
  m->fatigue.scf = PlSchemaDefault("fatigue.scf");
  m->fatigue.angles = (int)PlSchemaDefault("fatigue.angles");
  m->operability.max_utilisation = m->operability.max_top_tension = NAN;
  m->operability.min_effective_tension = m->operability.max_fibre_strain = NAN;
  m->operability.n_components = (int)PlSchemaDefault("operability.n_components");
  m->operability.seed = (int)PlSchemaDefault("operability.seed");
  /* the time integration's defaults as a line takes them; a model of rigid bodies alone has its
   * own tolerances and max_order (loader_analysis.c, bodies_defaults) */
  PlDynamicSettings *d = &m->analysis.dynamic;
  d->duration = 0.0; /* required: unset */
  d->output_interval = PlSchemaDefault("analysis.dynamic.output_interval");
  d->rtol = PlSchemaDefault("analysis.dynamic.rtol");
  d->atol_position = PlSchemaDefault("analysis.dynamic.atol_position");
  d->atol_rotation = PlSchemaDefault("analysis.dynamic.atol_rotation");
  d->atol_velocity = PlSchemaDefault("analysis.dynamic.atol_velocity");
  /* 1e-3 rad/s: atol_rotation's quaternion component of 1e-5 is an angle of 2e-5 rad, and over the
   * 0.01 s that the atol_position / atol_velocity pair implies that is 2e-3 rad/s. Tighter buys
   * little at rtol 1e-4 and BDF2: a spinning body's weight is rtol |w| (the heavy top's Euler-
   * parameter error over its first second 2.2e-3 at 1e-3, 1.5e-3 at 1e-6); the OC3 turbine's
   * platform pitch error against a tight run halves at 1e-6 (0.14 to 0.07 deg) for 1.2 to 1.5
   * times the steps (docs/model-file.md). */
  d->atol_angular_velocity = PlSchemaDefault("analysis.dynamic.atol_angular_velocity");
  d->atol_strain = PlSchemaDefault("analysis.dynamic.atol_strain");
  d->max_step = PlSchemaDefault("analysis.dynamic.max_step");
  d->initial_step = PlSchemaDefault("analysis.dynamic.initial_step");
  d->max_order = (int)PlSchemaDefault("analysis.dynamic.max_order");
  d->max_steps = (int)PlSchemaDefault("analysis.dynamic.max_steps");
  d->atol_reaction = PlSchemaDefault("analysis.dynamic.atol_reaction");
  m->noutput_points = 0;

  /* the vessel (absent unless given) */
  ld_body_defaults(m, &m->vessel);
}

void PlModelInitDefaults(PlModel *m)
{
  static PlModel defaults; /* every pointer in it NULL: a copy owns nothing */
  static bool ready = false;
  if (!m) return;
  if (!ready) {
    InitDefaults(&defaults);
    ready = true;
  }
  memcpy(m, &defaults, sizeof *m);
}

/* A line's own fields, named once: the one-line model (PlModel) and each line of a model of
 * lines (PlLineModel) carry the same fields under the same names and types. */
#define PL_LINE_FIELDS(X) X(length) X(nsegments) X(segments) X(rest_from_start) X(mesh_elements) X(mesh_target_length) X(nzones) X(zones) X(ends)
#define PL_COPY_FIELD(f)                                                                   \
  _Static_assert(sizeof dst->f == sizeof src->f, "line field " #f " differs in size"); \
  memcpy(&dst->f, &src->f, sizeof dst->f);

/* The fields as they are (the arrays shared: the caller makes them owned or clears them). */
static void line_from_model(const PlModel *src, PlLineModel *dst) { PL_LINE_FIELDS(PL_COPY_FIELD) }
static void model_set_line(PlModel *dst, const PlLineModel *src) { PL_LINE_FIELDS(PL_COPY_FIELD) }

/* Clears a line's array pointers (after they were moved elsewhere). */
#define PL_CLEAR_LINE_ARRAYS(x)                                                                     \
  do {                                                                                              \
    (x)->segments = NULL, (x)->zones = NULL, (x)->nsegments = (x)->nzones = 0;                      \
    for (int e_ = 0; e_ < 2; e_++) (x)->ends[e_].motion.table = NULL, (x)->ends[e_].motion.nrows = 0; \
  } while (0)

void ld_line_take(PlModel *src, PlLineModel *dst)
{
  line_from_model(src, dst);
  PL_CLEAR_LINE_ARRAYS(src);
}

/* A new copy of n items of size bytes at src, or NULL when there are none (n 0 or src NULL) or
 * when out of memory (then *oom is set). */
static void *dup_items(const void *src, size_t n, size_t size, bool *oom)
{
  if (!src || n == 0) return NULL;
  void *d = n <= SIZE_MAX / size ? malloc(n * size) : NULL;
  if (!d) {
    *oom = true;
    return NULL;
  }
  memcpy(d, src, n * size);
  return d;
}

/* A time series of nrows rows of 7 values. */
static double *dup_table(const double *t, int nrows, bool *oom)
{
  return nrows > 0 ? dup_items(t, (size_t)nrows, 7 * sizeof *t, oom) : NULL;
}

/* A line's arrays (sections, zones, its ends' time series) replaced by copies of their own. */
#define PL_OWN_LINE_ARRAYS(x, oom)                                                                           \
  do {                                                                                                       \
    (x)->segments = dup_items((x)->segments, (size_t)(x)->nsegments, sizeof *(x)->segments, oom);           \
    (x)->zones = dup_items((x)->zones, (size_t)(x)->nzones, sizeof *(x)->zones, oom);                       \
    for (int e_ = 0; e_ < 2; e_++)                                                                           \
      (x)->ends[e_].motion.table = dup_table((x)->ends[e_].motion.table, (x)->ends[e_].motion.nrows, oom); \
  } while (0)

/* m's pointers (into arrays m does not own: another model's, the caller's) each replaced by a
 * copy of its own, so that m owns all it points to. Returns 0, or -1 out of memory: then m is
 * freed (PlModelFree: the defaults, owning nothing). */
/* A body's arrays (its environment table, RAO tables, hull strips and DP waypoints) copied, so that v owns
 * them (after v = another body's struct). */
static void own_body_arrays(PlVesselModel *v, bool *oom)
{
  PlVesselLoad *L = &v->environment;
  L->table = dup_table(L->table, L->nrows, oom);
  const PlRaoTable rao = v->rao, exc = v->excitation;
  if (PlRaoCopy(&rao, &v->rao) || PlRaoCopy(&exc, &v->excitation)) *oom = true;
  PlHull *H = &v->hull;
  if (H->n > 0) {
    H->z = dup_items(H->z, 4 * (size_t)H->n, sizeof *H->z, oom); /* one block of four arrays */
    if (!H->z) H->n = 0;
    H->len = H->z ? H->z + H->n : NULL, H->D = H->z ? H->z + 2 * H->n : NULL, H->Cd = H->z ? H->z + 3 * H->n : NULL;
  } else
    H->z = H->len = H->D = H->Cd = NULL;
  PlDPReference *r = &v->dp.ref;
  const size_t nw = r->nwaypoints > 0 ? (size_t)r->nwaypoints : 0;
  r->waypoint = nw ? dup_items(r->waypoint, nw, sizeof *r->waypoint, oom) : NULL;
  r->leg_speed = nw ? dup_items(r->leg_speed, nw, sizeof *r->leg_speed, oom) : NULL;
}

void ld_body_free(PlVesselModel *v)
{
  free((double *)v->environment.table);
  free(v->hull.z); /* one block */
  PlRaoFree(&v->rao);
  PlRaoFree(&v->excitation);
  free(v->dp.ref.waypoint);
  free(v->dp.ref.leg_speed);
  v->environment.table = NULL, v->environment.nrows = 0;
  v->hull.z = v->hull.len = v->hull.D = v->hull.Cd = NULL, v->hull.n = 0;
  v->dp.ref.waypoint = NULL, v->dp.ref.leg_speed = NULL, v->dp.ref.nwaypoints = 0;
}

/* The sea's trains, their tables and series, and the probes copied, so that m owns them. */
static void own_sea_arrays(PlSea *s, bool *oom)
{
  s->trains = dup_items(s->trains, (size_t)s->ntrains, sizeof *s->trains, oom);
  if (!s->trains) s->ntrains = 0;
  for (int k = 0; k < s->ntrains; k++) {
    PlWaveTrain *tr = &s->trains[k];
    tr->table_omega = dup_items(tr->table_omega, (size_t)tr->n_table, sizeof *tr->table_omega, oom);
    tr->table_s = dup_items(tr->table_s, (size_t)tr->n_table, sizeof *tr->table_s, oom);
    tr->series_eta = dup_items(tr->series_eta, (size_t)tr->n_series, sizeof *tr->series_eta, oom);
  }
  s->probes = dup_items(s->probes, (size_t)s->nprobes, sizeof *s->probes, oom);
  if (!s->probes) s->nprobes = 0;
}

void ld_sea_free(PlSea *s)
{
  for (int k = 0; s->trains && k < s->ntrains; k++) {
    free((double *)s->trains[k].table_omega); /* owned by the model (PlSea) */
    free((double *)s->trains[k].table_s);
    free((double *)s->trains[k].series_eta);
  }
  free(s->trains);
  free(s->probes);
  *s = (PlSea){PL_STRETCH_VERTICAL, 0, NULL, 0, NULL, PlSchemaDefault("waves.ramp_time")};
}

static int own_arrays(PlModel *m)
{
  bool oom = false;
  PL_OWN_LINE_ARRAYS(m, &oom);
  PlCurrent *c = &m->current;
  c->table_z = dup_items(c->table_z, (size_t)c->ntable, sizeof *c->table_z, &oom);
  c->table_speed = dup_items(c->table_speed, (size_t)c->ntable, sizeof *c->table_speed, &oom);
  own_sea_arrays(&m->sea, &oom);
  m->output_points = dup_items(m->output_points, (size_t)m->noutput_points, sizeof *m->output_points, &oom);
  m->joints = dup_items(m->joints, (size_t)m->njoints, sizeof *m->joints, &oom);
  m->points = dup_items(m->points, (size_t)m->npoints, sizeof *m->points, &oom);
  m->route.p = dup_items(m->route.p, (size_t)m->route.n, sizeof *m->route.p, &oom);
  m->route.piece = dup_items(m->route.piece, 2 * (size_t)m->route.n, sizeof *m->route.piece, &oom);
  own_body_arrays(&m->vessel, &oom);
  m->design.dnv.zones = dup_items(m->design.dnv.zones, (size_t)m->design.dnv.nzones, sizeof *m->design.dnv.zones, &oom);
  m->lines = dup_items(m->lines, (size_t)m->nlines, sizeof *m->lines, &oom);
  for (int l = 0; m->lines && l < m->nlines; l++) PL_OWN_LINE_ARRAYS(&m->lines[l], &oom);
  m->bodies = dup_items(m->bodies, (size_t)m->nbodies, sizeof *m->bodies, &oom);
  for (int k = 0; m->bodies && k < m->nbodies; k++) own_body_arrays(&m->bodies[k], &oom);
  if (m->bathymetry) {
    const PlBathymetry *b = m->bathymetry;
    const size_t np = (size_t)b->nx * b->ny;
    PlBathymetry *g = malloc(sizeof *g);
    double *block = g && np <= SIZE_MAX / (4 * sizeof *block) ? malloc(4 * np * sizeof *block) : NULL;
    if (block) {
      memcpy(block, b->z, np * sizeof *block); /* z, zx, zy, zxy are one block from z */
      memcpy(block + np, b->zx, np * sizeof *block);
      memcpy(block + 2 * np, b->zy, np * sizeof *block);
      memcpy(block + 3 * np, b->zxy, np * sizeof *block);
      *g = *b;
      g->z = block, g->zx = block + np, g->zy = block + 2 * np, g->zxy = block + 3 * np;
    } else {
      free(g);
      g = NULL;
      oom = true;
    }
    m->bathymetry = g;
  }
  if (!oom) return 0;
  PlModelFree(m);
  return -1;
}

int PlModelLineModel(const PlModel *m, int l, PlModel *out)
{
  *out = *m; /* a view of m's arrays until own_arrays */
  const PlLineModel *L = &m->lines[l];
  out->nlines = 0, out->lines = NULL;
  out->npoints = 0, out->points = NULL;
  out->nbodies = 0, out->bodies = NULL;
  out->njoints = 0, out->joints = NULL;
  out->rigid_body = false;
  out->vessel.present = false;
  out->vessel.environment.table = NULL, out->vessel.environment.nrows = 0;
  snprintf(out->name, sizeof out->name, "%.200s: %.50s", m->name, L->name);
  model_set_line(out, L);
  if (own_arrays(out)) return -1;
  int n = 0; /* the output points on this line */
  for (int k = 0; k < out->noutput_points; k++)
    if (out->output_points[k].line == l) out->output_points[n++] = out->output_points[k];
  out->noutput_points = n;
  for (int e = 0; e < 2; e++) {
    PlEnd *E = &out->ends[e];
    if (E->point < 0 && E->body < 0) continue;
    for (int i = 0; i < 3; i++) { /* the position was set from the point or body's pose when read */
      E->fixed[i] = true;
      E->has_position[i] = true;
      E->fixed[3 + i] = false;
      E->force[i] = E->moment[i] = 0.0;
    }
  }
  return 0;
}

static double LoadSettled(const PlVesselLoad *w)
{
  const double t = w->start_time + w->ramp_time;
  return w->nrows > 0 ? fmax(t, w->table[7 * (w->nrows - 1)]) : t;
}

double PlModelSettledTime(const PlModel *m)
{
  double t = m->current.start_time + m->current.ramp_time;
  if (m->vessel.present) t = fmax(t, LoadSettled(&m->vessel.environment));
  for (int b = 0; b < m->nbodies; ++b) t = fmax(t, LoadSettled(&m->bodies[b].environment));
  return t + 1.0;
}

long PlModelVtkStride(const PlModel *m)
{
  if (!(m->vtk_interval > 0.0)) return 1;
  const double r = nearbyint(m->vtk_interval / m->analysis.dynamic.output_interval);
  return r < 1.0 ? 1 : r > 1e9 ? 1000000000L : (long)r;
}

int PlModelVtkFrame(const PlModel *m, long k, long nout) { return k == nout || k % PlModelVtkStride(m) == 0; }

int PlModelAsLines(const PlModel *one, PlModel *out)
{
  PlLineModel line; /* out's one line and body until own_arrays copies them */
  PlVesselModel body;
  *out = *one; /* a view of one's arrays until own_arrays */
  memset(&line, 0, sizeof line);
  snprintf(line.name, sizeof line.name, "line");
  line_from_model(one, &line);
  for (int e = 0; e < 2; ++e) line.ends[e].point = line.ends[e].body = -1;
  out->lines = &line;
  out->nlines = 1;
  out->npoints = out->nbodies = out->njoints = 0;
  out->points = NULL, out->bodies = NULL, out->joints = NULL;
  out->rigid_body = false;
  if (one->vessel.present) { /* the vessel is body 0, the top end on its hang-off point */
    body = one->vessel;
    out->bodies = &body;
    out->nbodies = 1;
    PlEnd *top = &line.ends[1];
    top->body = 0;
    memcpy(top->at, one->vessel.hang_off, sizeof top->at);
    top->connection = one->vessel.connection;
    memcpy(top->body_frame, one->vessel.top_frame, sizeof top->body_frame);
  }
  out->vessel.present = false;
  out->vessel.environment.table = NULL, out->vessel.environment.nrows = 0;
  if (own_arrays(out)) return -1;
  for (int k = 0; k < out->noutput_points; ++k) out->output_points[k].line = 0;
  return 0;
}

int PlModelBodyIndex(const PlModel *m, const char *id)
{
  for (int k = 0; k < m->nbodies; k++)
    if (!strcmp(m->bodies[k].id, id)) return k;
  return -1;
}

/* Frees a line's arrays (sections, zones, its ends' time series). */
#define PL_FREE_LINE_ARRAYS(x)                                                        \
  do {                                                                                \
    free((x)->segments);                                                              \
    free((x)->zones);                                                                 \
    for (int e_ = 0; e_ < 2; e_++) free((x)->ends[e_].motion.table);                  \
  } while (0)

void PlModelFree(PlModel *m)
{
  if (!m) return;
  PL_FREE_LINE_ARRAYS(m);
  free(m->current.table_z);
  free(m->current.table_speed);
  ld_sea_free(&m->sea);
  free(m->output_points);
  free(m->joints);
  free(m->points);
  free(m->route.p);
  free(m->route.piece);
  free(m->design.dnv.zones);
  ld_body_free(&m->vessel); /* owned by the model (models.h) */
  for (int l = 0; m->lines && l < m->nlines; l++) PL_FREE_LINE_ARRAYS(&m->lines[l]);
  free(m->lines);
  for (int k = 0; m->bodies && k < m->nbodies; k++) ld_body_free(&m->bodies[k]);
  free(m->bodies);
  if (m->bathymetry) free(m->bathymetry->z); /* one block */
  free(m->bathymetry);
  PlModelInitDefaults(m);
}

int PlModelCopy(const PlModel *src, PlModel *dst)
{
  if (!dst) return -1;
  if (!src) {
    PlModelInitDefaults(dst);
    return -1;
  }
  if (src == dst) return 0;
  *dst = *src; /* a view of src's arrays until own_arrays */
  return own_arrays(dst);
}

/* The base name of a path (after the last '/'). */
static const char *base_name(const char *path)
{
  const char *b = strrchr(path, '/');
  return b ? b + 1 : path;
}

/* Name, source path and output directory derived from the file name. */
static void derive_names(const char *src, PlModel *m)
{
  m->source_path[0] = m->name[0] = m->output_dir[0] = '\0';
  ld_cat(m->source_path, sizeof m->source_path, src);
  const char *base = base_name(src);
  ld_cat(m->name, sizeof m->name, base);
  size_t stem = strlen(base);
  const char *dot = strrchr(base, '.');
  if (dot && dot != base) stem = (size_t)(dot - base);
  if (stem == 0) {
    ld_cat(m->output_dir, sizeof m->output_dir, "model_out");
  } else {
    if (stem > sizeof m->output_dir - 5) stem = sizeof m->output_dir - 5;
    memcpy(m->output_dir, base, stem);
    m->output_dir[stem] = '\0';
    ld_cat(m->output_dir, sizeof m->output_dir, "_out");
  }
}

int PlModelLoadString(const char *name, const char *text, size_t len, int noverrides,
                      const char *const *overrides, PlModel *m, PlError *err)
{
  const char *src = name ? name : "(string)";
  if (!err) return 2;
  err->msg[0] = '\0';
  if (!m) return ld_report(err, src, 0, 0, "(api)", "no model to fill (NULL)");
  PlModelInitDefaults(m);
  if (!text && len > 0) return ld_report(err, src, 0, 0, "(api)", "no text (NULL)");
  if (noverrides < 0 || (noverrides > 0 && !overrides))
    return ld_report(err, src, 0, 0, "(api)", "bad override list");
  if (strlen(src) >= PL_PATH_MAX)
    return ld_report(err, src, 0, 0, "(file)", "path too long (at most %d bytes)", PL_PATH_MAX - 1);
  if (len == 0) return ld_report(err, src, 1, 1, "(document)", "the file is empty");
  if (len > PL_YAML_MAX_BYTES)
    return ld_report(err, src, 1, 1, "(document)", "the file is larger than 16 MiB (%zu bytes)",
                  len);
  derive_names(src, m);

  PlYTree tree;
  PlYTreeInit(&tree);
  PlYNode *root = NULL;
  PlYError ye;
  int rc = 0;
  if (PlYParse(&tree, src, text, len, &root, &ye) != 0) {
    rc = ld_report(err, src, ye.line, ye.col, ye.syntax ? "(syntax)" : ye.path, "%s", ye.what);
  } else if (!root) {
    rc = ld_report(err, src, 1, 1, "(document)",
                "the file is empty (no YAML document, only blank lines or comments)");
  } else if (root->kind != PL_YNODE_MAP) {
    rc = ld_at(err, root, "(document)", "expected a mapping of model keys (environment, line, "
                                     "mesh, ends, ...) at the top level, found %s",
            ld_found(root).s);
  }
  for (int k = 0; rc == 0 && k < noverrides; k++)
    rc = ld_apply_override(err, &tree, root, k + 1, overrides[k]);
  if (rc == 0) rc = read_model(err, root, m);
  PlYTreeFree(&tree);
  if (rc) PlModelFree(m); /* nothing stays allocated after an error */
  return rc;
}

int PlModelLoad(const char *path, int noverrides, const char *const *overrides, PlModel *m,
                PlError *err)
{
  if (!err) return 2;
  err->msg[0] = '\0';
  if (!path) return ld_report(err, "(null)", 0, 0, "(file)", "no file name given");
  FILE *f = fopen(path, "rb");
  if (!f) {
    const int e = errno;
    if (m) PlModelInitDefaults(m);
    return ld_report(err, path, 0, 0, "(file)", "cannot read: %s", strerror(e));
  }
  size_t cap = 64 * 1024, len = 0;
  char *buf = malloc(cap);
  int rc = 0;
  if (!buf) {
    rc = ld_report(err, path, 0, 0, "(file)", "cannot read: out of memory");
  } else {
    for (;;) {
      if (len == cap) {
        if (cap > PL_YAML_MAX_BYTES) {
          rc = ld_report(err, path, 0, 0, "(file)", "cannot read: larger than 16 MiB");
          break;
        }
        size_t ncap = 2 * cap;
        char *nb = realloc(buf, ncap);
        if (!nb) {
          rc = ld_report(err, path, 0, 0, "(file)", "cannot read: out of memory");
          break;
        }
        buf = nb;
        cap = ncap;
      }
      size_t got_n = fread(buf + len, 1, cap - len, f);
      len += got_n;
      if (got_n == 0) {
        if (ferror(f)) {
          const int e = errno;
          rc = ld_report(err, path, 0, 0, "(file)", "cannot read: %s",
                      e ? strerror(e) : "read error");
        }
        break;
      }
    }
  }
  fclose(f);
  if (rc == 0 && len > PL_YAML_MAX_BYTES)
    rc = ld_report(err, path, 0, 0, "(file)", "cannot read: larger than 16 MiB");
  if (rc == 0) {
    rc = PlModelLoadString(path, buf, len, noverrides, overrides, m, err);
  } else if (m) {
    PlModelInitDefaults(m);
  }
  free(buf);
  return rc;
}

const PlSection *PlModelSectionAt(const PlModel *m, double S)
{
  const PlSegment *seg = m ? PlSegmentAt(m->segments, m->nsegments, S) : NULL;
  return seg ? &seg->section : NULL;
}

const PlSegment *PlSegmentAt(const PlSegment *seg, int n, double S)
{
  if (!seg || n <= 0) return NULL;
  double end = 0.0;
  for (int i = 0; i < n - 1; i++) {
    end += seg[i].length;
    if (S < end) return &seg[i];
  }
  return &seg[n - 1];
}
