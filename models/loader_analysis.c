/*
 * loader_analysis.c - readers of the analysis settings (static solve, start shape, the
 * dynamic time integration) and of the output (directory, named output points).
 */
#include "loader_impl.h"

/* ---- analysis, output ----------------------------------------------------------------- */

/* The integration defaults of a model of rigid bodies alone (no line), set before its keys are
 * read: every error tolerance a thousandth of the lines' default (the schema's), BDF up to
 * order 5.
 *
 * The lines' defaults (rtol 1e-4, BDF2) are set by a line's cost and by its stiff, lightly
 * damped modes, which only the A-stable BDF1 and BDF2 do not amplify (read_dynamic). A body's
 * error is of another kind: a spinning body's local errors shift its phase and, through
 * BDF's dissipation, its energy and so its spin rate, and neither is restored, so its attitude
 * error grows with the angle it turns through, Theta = integral of |w| dt: about
 * c rtol Theta, with c from 2 to 10 on the heavy top of verification/multibody_joints
 * (17.3 rad/s for 10 s, Theta = 173 rad; the Euler parameters' largest error against RK4:
 * 8.9e-2 at the lines' defaults, 4.2e-2 with BDF5 at the same tolerances, 3e-4 to 1.7e-3 and
 * 8e-5 to 1.7e-4 with BDF5 and every tolerance 100 and 1000 times tighter; the spreads over
 * small changes of the norm rate, which move the steps but not the solution). Within 1e-3
 * over tens of turns needs rtol below 1e-3 / (10 Theta), 6e-7 there: a thousandth of the
 * lines' rtol, 1e-7, holds it with a margin of 6, and up to Theta of about 1000 rad. The
 * absolute tolerances follow rtol by the same factor, so that they keep their balance
 * (loader.c) and none of them sets the steps alone.
 *
 * A body is 13 unknowns (and its joints' rows), so its steps are cheap: the heavy top's 10 s
 * take about 19000 steps against 4445 at the lines' defaults, the OC3 turbine's 200 s
 * (verification/oc3_turbine/energy.yaml) 20000 against 2800, seconds at most. Bodies on
 * joints have none of a line's many stiff, lightly damped modes (a joint is a constraint, not
 * a stiff spring), so BDF3-5 do not creep as on a line: at the lines'
 * tolerances BDF5 took fewer steps than BDF2 on 11 of the 14 models of rigid bodies in
 * verification/ (at most 25 % more on the other three). */
static void bodies_defaults(PlDynamicSettings *d)
{
  d->rtol = 1e-7;
  d->atol_position = 1e-8;         /* [m] */
  d->atol_rotation = 1e-8;         /* [-] */
  d->atol_velocity = 1e-6;         /* [m/s] */
  d->atol_angular_velocity = 1e-6; /* [rad/s] */
  d->max_order = 5;
}

/* analysis.dynamic: settings of the time integration (c: whether the model has a line). */
static int read_dynamic(const Ctx *c, const Scope *an, PlDynamicSettings *d)
{
  Scope s;
  bool present;
  int rc = ld_open_child(an, "dynamic", &s, &present);
  if (rc) return rc;
  if (c->body_only) bodies_defaults(d);
  const PlYNode *ndur = NULL, *nout = NULL;
  if ((rc = ld_get_number(&s, "duration", &d->duration, &ndur))) return rc;
  if ((rc = ld_get_number(&s, "output_interval", &d->output_interval, &nout)))
    return rc;
  if (!(d->output_interval <= d->duration)) {
    char path[PATH_CAP];
    if (nout) {
      ld_join_key(path, sizeof path, s.path, "output_interval");
      return ld_at(s.err, nout, path, "must be at most duration (%.10g s), got %s", d->duration,
                ld_got(nout).s);
    }
    ld_join_key(path, sizeof path, s.path, "duration");
    return ld_at(s.err, ndur, path,
              "must be at least output_interval (%.10g s, the default), got %s",
              d->output_interval, ld_got(ndur).s);
  }
  if ((rc = ld_get_number(&s, "rtol", &d->rtol, NULL))) return rc;
  if ((rc = ld_get_number(&s, "atol_position", &d->atol_position, NULL)))
    return rc;
  if ((rc = ld_get_number(&s, "atol_rotation", &d->atol_rotation, NULL)))
    return rc;
  if ((rc = ld_get_number(&s, "atol_velocity", &d->atol_velocity, NULL)))
    return rc;
  if ((rc = ld_get_number(&s, "atol_angular_velocity", &d->atol_angular_velocity, NULL))) return rc;
  if ((rc = ld_get_number(&s, "atol_strain", &d->atol_strain, NULL))) return rc;
  if ((rc = ld_get_number(&s, "atol_reaction", &d->atol_reaction, NULL))) return rc;
  if ((rc = ld_get_number(&s, "max_step", &d->max_step, NULL))) return rc;
  if ((rc = ld_get_number(&s, "initial_step", &d->initial_step, NULL)))
    return rc;
  if ((rc = ld_get_int(&s, "max_order", &d->max_order))) return rc;
  if (d->max_order > 2 && !c->body_only) {
    /* A line's axial (and bending) modes are stiff and lightly damped: eigenvalues far out
     * along the imaginary axis, which the steps do not resolve. BDF1 and BDF2 are A-stable;
     * BDF3 to BDF5 are not (their stability regions leave out a wedge of the left half-plane
     * next to the imaginary axis), so they amplify those modes: IDA creeps with tiny steps
     * or the results drift. Rigid bodies alone have no such modes (the verification cases
     * of bodies and joints run at order 5). */
    char path[PATH_CAP];
    ld_join_key(path, sizeof path, s.path, "max_order");
    const PlYNode *n = ld_value_of(&s, "max_order");
    return ld_at(s.err, n, path,
                 "must be 1 or 2 in a model with a line, got %s: a line's stiff axial modes are lightly damped "
                 "oscillations near the imaginary axis, and BDF orders 3 to 5 are not A-stable (their stability "
                 "region leaves out part of the left half-plane next to that axis), so they amplify them: IDA takes "
                 "millions of tiny steps and the results drift (an 80 s chain at order 3: 11 million steps, the mean "
                 "tension 25 %% off); keep the default 2 (orders up to 5 are for models of rigid bodies only)",
                 ld_got(n).s);
  }
  return ld_get_int(&s, "max_steps", &d->max_steps);
}

/* analysis: solver settings (also tells c whether the analysis is dynamic). */
int ld_read_analysis(Ctx *c, const Scope *top, PlModel *m)
{
  Scope s;
  bool present;
  int rc = ld_open_child(top, "analysis", &s, &present);
  if (rc || !present) return rc;
  PlAnalysis *a = &m->analysis;
  int type = ld_choice_default(&s, "type"), guess = a->initial_guess == PL_GUESS_STRAIGHT ? 1 : 0;
  if ((rc = ld_get_choice(&s, "type", &type))) return rc;
  a->kind = type ? PL_ANALYSIS_DYNAMIC : PL_ANALYSIS_STATIC;
  c->kind = a->kind;
  c->kind_given = ld_pair_of(&s, "type") != NULL;
  if ((rc = ld_get_int(&s, "load_steps", &a->load_steps))) return rc;
  if ((rc = ld_get_int(&s, "max_cutbacks", &a->max_cutbacks))) return rc;
  if ((rc = ld_get_int(&s, "max_iterations", &a->max_iterations))) return rc;
  if ((rc = ld_get_number(&s, "rtol", &a->rtol, NULL))) return rc;
  if ((rc = ld_get_number(&s, "atol", &a->atol, NULL))) return rc;
  if ((rc = ld_get_choice(&s, "initial_guess", &guess))) return rc;
  a->initial_guess = guess ? PL_GUESS_STRAIGHT : PL_GUESS_CATENARY;
  /* start_from: a previous run's output directory (relative to the model file) whose
   * static.csv is the start shape; it replaces initial_guess */
  char from[PL_PATH_MAX];
  from[0] = '\0';
  if ((rc = ld_get_string(&s, "start_from", false, from, sizeof from))) return rc;
  if (from[0]) {
    ld_resolve_path(c->model_path, from, a->start_from, sizeof a->start_from);
    a->initial_guess = PL_GUESS_RESULTS;
    PlShape shape;
    char why[PL_ERRMSG_MAX - 64];
    if (PlShapeRead(a->start_from, &shape, why, sizeof why))
      return ld_at(c->err, ld_value_of(&s, "start_from"), "analysis.start_from", "%s", why);
    PlShapeFree(&shape);
  }
  if ((rc = ld_get_string(&s, "petsc_options", true, a->petsc_options, sizeof a->petsc_options)))
    return rc;
  if ((rc = ld_dynamic_only(c, &s, "dynamic"))) return rc;
  if (a->kind != PL_ANALYSIS_DYNAMIC) return 0;
  if (!ld_pair_of(&s, "dynamic"))
    return ld_missing(&s, "dynamic", NULL,
                   " (analysis.type is 'dynamic': give its settings, at least 'duration' (s))");
  return read_dynamic(c, &s, &a->dynamic);
}

/* True for the characters of an output point name: [A-Za-z0-9_-]. */
bool ld_point_name_char(char ch)
{
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
         ch == '_' || ch == '-';
}

static int read_point_items(const Ctx *c, const PlYNode *list, const char *path, const PlYNode **name_nodes,
                            PlModel *m);

/* output.points: named points of the line (dynamic analyses). */
static int read_points(const Ctx *c, const Scope *out, PlModel *m)
{
  const PlYPair *pp = ld_pair_of(out, "points");
  if (!pp) return 0;
  int rc = ld_dynamic_only(c, out, "points");
  if (rc) return rc;
  char path[PATH_CAP];
  ld_join_key(path, sizeof path, out->path, "points");
  const PlYNode *list = pp->value;
  if (list->kind != PL_YNODE_SEQ)
    return ld_at(c->err, list, path, "expected a list of points {name, arc_length}, found %s",
              ld_found(list).s);
  if (list->nitems == 0) return 0;
  free(m->output_points);
  m->noutput_points = 0;
  m->output_points = ld_alloc(list->nitems, sizeof *m->output_points);
  const PlYNode **name_nodes = ld_alloc(list->nitems, sizeof *name_nodes);
  if (!m->output_points || !name_nodes) {
    free(name_nodes);
    return ld_at(c->err, list, path, "out of memory (%zu output points)", list->nitems);
  }
  rc = read_point_items(c, list, path, name_nodes, m);
  free(name_nodes);
  return rc;
}

/* The items of output.points (list, at path) into m->output_points (room for all), their name
 * nodes into name_nodes (for duplicate messages). */
static int read_point_items(const Ctx *c, const PlYNode *list, const char *path, const PlYNode **name_nodes,
                            PlModel *m)
{
  int rc = 0;
  for (size_t i = 0; i < list->nitems; i++) {
    char ip[PATH_CAP], np[PATH_CAP], ap[PATH_CAP];
    ld_join_index(ip, sizeof ip, path, i);
    ld_join_key(np, sizeof np, ip, "name");
    ld_join_key(ap, sizeof ap, ip, "arc_length");
    Scope p;
    if ((rc = ld_open_scope(c->err, list->items[i], list->items[i], ip, &p))) return rc;
    PlOutputPoint *op = &m->output_points[i];
    if ((rc = ld_get_string(&p, "name", false, op->name, sizeof op->name))) return rc;
    const PlYNode *nn = ld_value_of(&p, "name");
    name_nodes[i] = nn;
    for (size_t k = 0; op->name[k]; k++)
      if (!ld_point_name_char(op->name[k]))
        return ld_at(c->err, nn, np,
                  "may only hold letters, digits, '_' and '-' (it names an output file), "
                  "found '%s'",
                  ld_got(nn).s);
    for (size_t j = 0; j < i; j++)
      if (strcmp(m->output_points[j].name, op->name) == 0)
        return ld_at(c->err, nn, np, "duplicate output point name '%s' (first given at %s:%d:%d)",
                  op->name, name_nodes[j]->source, name_nodes[j]->line, name_nodes[j]->col);
    /* a model of lines: the line the point is on, by name */
    op->line = -1;
    double L = m->length;
    const PlYNode *nl = ld_value_of(&p, "line");
    if (m->nlines > 0) {
      char lp[PATH_CAP], lname[PL_NAME_MAX];
      ld_join_key(lp, sizeof lp, ip, "line");
      if (!nl) return ld_missing(&p, "line", NULL, " (the name of the line the point is on, from lines:)");
      if ((rc = ld_get_string(&p, "line", false, lname, sizeof lname))) return rc;
      for (int l = 0; l < m->nlines; l++)
        if (!strcmp(m->lines[l].name, lname)) op->line = l;
      if (op->line < 0) {
        char names[256] = "";
        for (int l = 0; l < m->nlines; l++) {
          if (l) ld_cat(names, sizeof names, ", ");
          ld_cat(names, sizeof names, m->lines[l].name);
        }
        return ld_at(c->err, nl, lp, "no line named '%s' (the lines are: %s)", lname, names);
      }
      L = m->lines[op->line].length;
    } else if ((rc = ld_reject_key(&p, "line", "names the line of a model of lines: (a one-line model has one)")))
      return rc;
    const PlYNode *na = NULL;
    if ((rc = ld_get_number(&p, "arc_length", &op->arc_length, &na)))
      return rc;
    if (!(op->arc_length <= L) && op->line >= 0)
      return ld_at(c->err, na, ap, "must be at most the length of line '%s' (%.10g m), got %s",
                   m->lines[op->line].name, L, ld_got(na).s);
    if (!(op->arc_length <= L))
      return ld_at(c->err, na, ap, "must be at most line.length (%.10g m), got %s", L, ld_got(na).s);
    m->noutput_points = (int)i + 1;
  }
  return 0;
}

/* output: directory and points. */
int ld_read_output(const Ctx *c, const Scope *top, PlModel *m)
{
  Scope s;
  bool present;
  int rc = ld_open_child(top, "output", &s, &present);
  if (rc || !present) return rc;
  if ((rc = ld_get_string(&s, "directory", false, m->output_dir, sizeof m->output_dir)))
    return rc;
  if (ld_pair_of(&s, "checkpoint_interval") && (rc = ld_dynamic_only(c, &s, "checkpoint_interval"))) return rc;
  if ((rc = ld_get_number(&s, "checkpoint_interval", &m->checkpoint_interval, NULL)))
    return rc;
  const PlYNode *nv = NULL;
  if (ld_pair_of(&s, "statistics_start") && (rc = ld_dynamic_only(c, &s, "statistics_start"))) return rc;
  if ((rc = ld_get_number(&s, "statistics_start", &m->statistics_start, &nv))) return rc;
  if (nv && !(m->statistics_start < m->analysis.dynamic.duration)) {
    char path[PATH_CAP];
    ld_join_key(path, sizeof path, s.path, "statistics_start");
    return ld_at(s.err, nv, path, "must be before the end of the run (analysis.dynamic.duration %.10g s), got %s",
                 m->analysis.dynamic.duration, ld_got(nv).s);
  }
  nv = NULL;
  if (ld_pair_of(&s, "vtk_interval") && (rc = ld_dynamic_only(c, &s, "vtk_interval"))) return rc;
  if ((rc = ld_get_number(&s, "vtk_interval", &m->vtk_interval, &nv))) return rc;
  if (nv && m->vtk_interval > 0.0) {
    /* given: a whole number of output intervals (the frames are output states) */
    const double dt = m->analysis.dynamic.output_interval, r = m->vtk_interval / dt;
    if (r < 1.0 - 1e-9 || fabs(r - nearbyint(r)) > 1e-9 * r) {
      char path[PATH_CAP];
      ld_join_key(path, sizeof path, s.path, "vtk_interval");
      return ld_at(s.err, nv, path, "must be a whole multiple of analysis.dynamic.output_interval (%.10g s), or 0 "
                   "for a frame at every output; got %s", dt, ld_got(nv).s);
    }
  }
  return read_points(c, &s, m);
}

/* The first section of the n segments seg without a wall thickness (given explicitly, not as a
 * pipe), or -1. */
static int section_without_wall(const PlSegment *seg, int n)
{
  for (int i = 0; i < n; ++i)
    if (!(seg[i].section.wall_thickness > 0.0)) return i;
  return -1;
}

/* fatigue: the S-N curve, environment, SCF, angles and exposure of a dynamic run's damage; the
 * wall's stress needs every section given as a pipe (outer diameter and wall thickness). */
int ld_read_fatigue(const Ctx *c, const Scope *top, PlModel *m)
{
  Scope s;
  bool present;
  int rc = ld_open_child(top, "fatigue", &s, &present);
  if (rc) return rc;
  if (!present) { /* a section's own curve or SCF is for the block's damage */
    for (int l = 0; l < (m->nlines > 0 ? m->nlines : 1); ++l) {
      const PlSegment *seg = m->nlines > 0 ? m->lines[l].segments : m->segments;
      for (int i = 0; i < (m->nlines > 0 ? m->lines[l].nsegments : m->nsegments); ++i)
        if (seg[i].has_sn_curve || seg[i].scf > 0.0)
          return ld_at(top->err, top->anchor, "fatigue", "missing: section %d of %s%s gives its own %s, for the "
                       "fatigue: block's damage", i + 1, m->nlines > 0 ? "line " : "the line",
                       m->nlines > 0 ? m->lines[l].name : "", seg[i].has_sn_curve ? "sn_curve" : "scf");
    }
    return 0;
  }
  if ((rc = ld_dynamic_only(c, top, "fatigue"))) return rc;
  m->fatigue.present = true;
  if (!ld_value_of(&s, "sn_curve")) return ld_missing(&s, "sn_curve", NULL, NULL);
  if ((rc = ld_get_choice(&s, "sn_curve", &m->fatigue.sn_curve))) return rc;
  if ((rc = ld_get_choice(&s, "environment", &m->fatigue.environment))) return rc;
  if ((rc = ld_get_number(&s, "scf", &m->fatigue.scf, NULL))) return rc;
  if ((rc = ld_get_int(&s, "angles", &m->fatigue.angles))) return rc;
  if ((rc = ld_get_number(&s, "exposure", &m->fatigue.exposure, NULL))) return rc;
  for (int l = 0; l < (m->nlines > 0 ? m->nlines : 1); ++l) {
    const int i = m->nlines > 0 ? section_without_wall(m->lines[l].segments, m->lines[l].nsegments)
                                : section_without_wall(m->segments, m->nsegments);
    if (i >= 0)
      return ld_at(s.err, s.anchor, s.path, "needs the wall's stress: section %d of %s%s is given explicitly (EA, EI, "
                   "...), give it as a pipe (outer_diameter, wall_thickness, material)", i + 1,
                   m->nlines > 0 ? "line " : "the line", m->nlines > 0 ? m->lines[l].name : "");
  }
  return 0;
}

/* operability: the limits of each sea state's run (pipelay operability); a dynamic analysis's.
 * An absent limit stays NaN (the command makes the DNV utilisation's 1 when design.dnv_f101 is
 * given: that block is read after this one). */
int ld_read_operability(const Ctx *c, const Scope *top, PlModel *m)
{
  Scope s;
  bool present;
  int rc = ld_open_child(top, "operability", &s, &present);
  if (rc || !present) return rc;
  if ((rc = ld_dynamic_only(c, top, "operability"))) return rc;
  PlOperabilitySettings *o = &m->operability;
  o->present = true;
  if ((rc = ld_get_number(&s, "max_utilisation", &o->max_utilisation, NULL))) return rc;
  if ((rc = ld_get_number(&s, "max_top_tension", &o->max_top_tension, NULL))) return rc;
  if ((rc = ld_get_number(&s, "min_effective_tension", &o->min_effective_tension, NULL))) return rc;
  if ((rc = ld_get_number(&s, "max_fibre_strain", &o->max_fibre_strain, NULL))) return rc;
  if ((rc = ld_get_int(&s, "n_components", &o->n_components))) return rc;
  return ld_get_int(&s, "seed", &o->seed);
}
