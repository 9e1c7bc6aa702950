/*
 * loader_line.c - readers of a line: its length and sections (pipe or explicit form,
 * material, hydrodynamics) and its mesh (element count or target length, finer zones).
 */
#include "loader_impl.h"
#include "pipelay/meshes.h"

/* ---- line and sections ---------------------------------------------------------------- */

/* The first key of scope s (document order) that is in names, or NULL. */
const PlYPair *ld_first_of(const Scope *s, const char *const *names)
{
  for (size_t i = 0; i < s->map->npairs; i++)
    if (ld_name_index(names, s->map->pairs[i].key->text) >= 0) return &s->map->pairs[i];
  return NULL;
}

/* material: of a pipe-form section: E, G or nu, density into g. */
static int read_material(const Scope *sec, PlPipeGeometry *g)
{
  Scope s;
  bool present;
  int rc = ld_open_child(sec, "material", &s, &present);
  if (rc) return rc;
  if ((rc = ld_get_number(&s, "youngs_modulus", &g->youngs_modulus, NULL)))
    return rc;
  const PlYPair *pg = ld_pair_of(&s, "shear_modulus"), *pn = ld_pair_of(&s, "poissons_ratio");
  if (pg && pn) {
    const PlYPair *later = ld_later_pair(pg, pn);
    char path[PATH_CAP];
    ld_join_key(path, sizeof path, s.path, later->key->text);
    return ld_at(s.err, later->key, path,
              "give either 'shear_modulus' or 'poissons_ratio', not both");
  }
  if (!pg && !pn) return ld_missing(&s, "shear_modulus", "Pa", " (or 'poissons_ratio')");
  if (pg) {
    if ((rc = ld_get_number(&s, "shear_modulus", &g->shear_modulus, NULL)))
      return rc;
  } else {
    double nu = 0.0;
    if ((rc = ld_get_number(&s, "poissons_ratio", &nu, NULL))) return rc;
    g->shear_modulus = g->youngs_modulus / (2.0 * (1.0 + nu));
  }
  return ld_get_number(&s, "density", &g->density, NULL);
}

/* A pipe-form section (outer diameter, wall thickness, material). */
static int read_pipe_section(const Scope *s, PlSection *out)
{
  PlPipeGeometry g = {0};
  const PlYNode *wt = NULL;
  int rc;
  if ((rc = ld_get_number(s, "outer_diameter", &g.outer_diameter, NULL)))
    return rc;
  if ((rc = ld_get_number(s, "wall_thickness", &g.wall_thickness, &wt)))
    return rc;
  if (!(2.0 * g.wall_thickness < g.outer_diameter)) {
    char path[PATH_CAP];
    ld_join_key(path, sizeof path, s->path, "wall_thickness");
    return ld_at(s->err, wt, path,
              "must be less than half the outer diameter (%.10g m), got %s",
              0.5 * g.outer_diameter, ld_got(wt).s);
  }
  if ((rc = read_material(s, &g))) return rc;
  g.contents_density = PlSchemaDefault("line.sections[*].contents_density");
  g.shear_coefficient = PlSchemaDefault("line.sections[*].shear_coefficient");
  g.hydro_diameter = g.outer_diameter;
  if ((rc = ld_get_number(s, "contents_density", &g.contents_density, NULL)))
    return rc;
  if ((rc = ld_get_number(s, "shear_coefficient", &g.shear_coefficient, NULL)))
    return rc;
  if ((rc = ld_get_number(s, "hydrodynamic_diameter", &g.hydro_diameter, NULL)))
    return rc;
  if (PlSectionFromPipe(&g, out) != 0) {
    char path[PATH_CAP];
    ld_join_key(path, sizeof path, s->path, "wall_thickness");
    return ld_at(s->err, wt, path, "impossible pipe geometry (outer diameter %.10g m, wall %s m)",
              g.outer_diameter, ld_got(wt).s);
  }
  return 0;
}

/* An explicit section (EA, EI, GJ, mass per length, ...). */
static int read_explicit_section(const Scope *s, PlSection *out)
{
  int rc;
  double d_o = 0.0, EA = 0.0, GJ = 0.0, mass = 0.0;
  if ((rc = ld_get_number(s, "outer_diameter", &d_o, NULL))) return rc;
  if ((rc = ld_get_number(s, "EA", &EA, NULL))) return rc;

  const PlYPair *pei = ld_pair_of(s, "EI"), *pe2 = ld_pair_of(s, "EI2"), *pe3 = ld_pair_of(s, "EI3");
  double EI2 = 0.0, EI3 = 0.0;
  if (pei && (pe2 || pe3)) {
    const PlYPair *p = pe2 ? pe2 : pe3;
    char path[PATH_CAP];
    ld_join_key(path, sizeof path, s->path, p->key->text);
    return ld_at(s->err, p->key, path,
              "cannot be combined with 'EI' (give EI for both axes, or EI2 and EI3)");
  }
  if (pei) {
    if ((rc = ld_get_number(s, "EI", &EI2, NULL))) return rc;
    EI3 = EI2;
  } else if (pe2 || pe3) {
    /* both axes: one alone would leave the other's stiffness zero without a word */
    if (!pe2) return ld_missing(s, "EI2", "N m^2", " (given 'EI3': give both, or 'EI' for both axes)");
    if (!pe3) return ld_missing(s, "EI3", "N m^2", " (given 'EI2': give both, or 'EI' for both axes)");
    if ((rc = ld_get_number(s, "EI2", &EI2, NULL))) return rc;
    if ((rc = ld_get_number(s, "EI3", &EI3, NULL))) return rc;
  } else {
    return ld_missing(s, "EI", "N m^2", " (or 'EI2' and 'EI3')");
  }
  if ((rc = ld_get_number(s, "GJ", &GJ, NULL))) return rc;
  double GA = 0.5 * EA / (2.0 * (1.0 + 0.3)); /* k_s G A of a thin steel tube */
  if ((rc = ld_get_number(s, "GA", &GA, NULL))) return rc;
  if ((rc = ld_get_number(s, "mass_per_length", &mass, NULL))) return rc;

  const PlYPair *pri = ld_pair_of(s, "rotary_inertia"), *prg = ld_pair_of(s, "radius_of_gyration");
  double J[3] = {mass * d_o * d_o / 4.0, 0.0, 0.0};
  if (pri && prg) {
    const PlYPair *later = ld_later_pair(prg, pri);
    char path[PATH_CAP];
    ld_join_key(path, sizeof path, s->path, later->key->text);
    return ld_at(s->err, later->key, path,
              "give either 'rotary_inertia' or 'radius_of_gyration', not both");
  }
  if (prg) {
    double r = 0.0;
    if ((rc = ld_get_number(s, "radius_of_gyration", &r, NULL))) return rc;
    J[0] = mass * r * r;
  }
  J[1] = J[2] = 0.5 * J[0];
  if (pri) {
    bool present;
    if ((rc = ld_get_vec3(s, "rotary_inertia", J, NULL, NULL, &present)))
      return rc;
  }
  double dh = d_o;
  if ((rc = ld_get_number(s, "hydrodynamic_diameter", &dh, NULL))) return rc;

  memset(out, 0, sizeof *out);
  out->EA = EA;
  out->GA[0] = out->GA[1] = GA;
  out->GJ = GJ;
  out->EI[0] = EI2;
  out->EI[1] = EI3;
  out->mass_per_length = mass;
  out->inertia[0] = J[0];
  out->inertia[1] = J[1];
  out->inertia[2] = J[2];
  out->outer_diameter = d_o;
  out->hydro_diameter = dh;
  out->wall_thickness = 0.0;
  out->steel_area = 0.0;
  return 0;
}

/* hydrodynamics: of a section (Morison coefficients and rotational damping), into h. The
 * values already in h are the defaults. */
static int read_hydro(const Scope *sec, PlHydro *h)
{
  Scope s;
  bool present;
  int rc = ld_open_child(sec, "hydrodynamics", &s, &present);
  if (rc || !present) return rc;
  if ((rc = ld_get_number(&s, "drag_normal", &h->drag_normal, NULL)))
    return rc;
  const PlYPair *pt = ld_pair_of(&s, "drag_tangential"), *pz = ld_pair_of(&s, "drag_axial_skin");
  if (pt && pz) {
    const PlYPair *later = ld_later_pair(pt, pz);
    char path[PATH_CAP];
    ld_join_key(path, sizeof path, s.path, later->key->text);
    return ld_at(s.err, later->key, path, "give either 'drag_tangential' (C_dt, on the diameter d) or "
                                          "'drag_axial_skin' (C_dz, on the skin pi d; C_dt = pi C_dz), not both");
  }
  if ((rc = ld_get_number(&s, "drag_tangential", &h->drag_tangential, NULL)))
    return rc;
  /* the axial drag per length is rho_w/2 C_dt d |v_t| v_t = rho_w/2 C_dz (pi d) |v_t| v_t */
  if (pz && (rc = ld_get_number(&s, "drag_axial_skin", &h->drag_axial_skin, NULL))) return rc;
  if (pz) h->drag_tangential = M_PI * h->drag_axial_skin;
  if ((rc = ld_get_number(&s, "added_mass_normal", &h->added_mass_normal, NULL)))
    return rc;
  if ((rc = ld_get_number(&s, "added_mass_tangential", &h->added_mass_tangential, NULL)))
    return rc;
  return ld_get_vec3(&s, "rotational_damping", h->rotational_damping, NULL, NULL, &present);
}

/* The section's shape at rest: curvature (a vector in the section's axes), or bend_radius
 * with bend_normal (a global axis, made unit), or neither (straight). */
static int read_rest_curvature(const Scope *s, PlSegment *seg)
{
  bool has_k, has_n;
  const PlYNode *rn = NULL;
  int rc = ld_get_vec3(s, "curvature", seg->curvature, NULL, NULL, &has_k);
  if (!rc) rc = ld_get_number_if(s, "bend_radius", false, &seg->bend_radius, &rn);
  if (!rc) rc = ld_get_vec3(s, "bend_normal", seg->bend_normal, NULL, NULL, &has_n);
  if (rc) return rc;
  if (rn && has_k)
    return ld_reject_key(s, "curvature", "cannot be combined with 'bend_radius' in one section (give the "
                         "curvature vector in the section's axes, or bend_radius with bend_normal)");
  if (!rn && has_n)
    return ld_reject_key(s, "bend_normal", "needs 'bend_radius' (the bend's radius about this axis)");
  if (!rn) return 0;
  if (!has_n) return ld_missing(s, "bend_normal", NULL, " (the global axis the section bends about at rest)");
  const double *a = seg->bend_normal, n = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
  if (!(n > 0.0)) return ld_reject_key(s, "bend_normal", "must not be the zero vector");
  for (int i = 0; i < 3; ++i) seg->bend_normal[i] /= n;
  return 0;
}

/* The section's own S-N curve and stress concentration factor (fatigue:), when given. */
static int read_section_fatigue(const Scope *s, PlSegment *seg)
{
  seg->has_sn_curve = ld_value_of(s, "sn_curve") != NULL;
  int rc = ld_get_choice(s, "sn_curve", &seg->sn_curve);
  if (!rc) rc = ld_get_number(s, "scf", &seg->scf, NULL);
  return rc;
}

/* One item of line.sections; is_last allows the length to be omitted (*has_length). */
static int read_section(PlError *err, const PlYNode *n, const char *path, bool is_last,
                        PlSegment *seg, bool *has_length)
{
  Scope s;
  int rc = ld_open_scope(err, n, n, path, &s);
  if (rc) return rc;
  const PlYNode *len = NULL;
  if ((rc = ld_get_number(&s, "length", &seg->length, &len))) return rc;
  *has_length = (len != NULL);
  if (!len && !is_last)
    return ld_missing(&s, "length", "m", " (only the last section may omit it)");

  const PlYPair *pp = ld_first_of(&s, kPipeOnlyKeys), *pe = ld_first_of(&s, kExplicitOnlyKeys);
  if (pp && pe) {
    const PlYPair *later = ld_later_pair(pe, pp), *earlier = later == pe ? pp : pe;
    char kp[PATH_CAP];
    ld_join_key(kp, sizeof kp, s.path, later->key->text);
    Txt et = ld_clip(earlier->key->text, earlier->key->len);
    return ld_at(err, later->key, kp,
              "cannot be combined with '%s' in one section (give either the pipe form: "
              "wall_thickness, material, ...; or the explicit form: EA, EI, GJ, "
              "mass_per_length, ...)",
              et.s);
  }
  if (pp)
    rc = read_pipe_section(&s, &seg->section);
  else if (pe)
    rc = read_explicit_section(&s, &seg->section);
  else
    return ld_missing(&s, "wall_thickness", "m",
                   " (a pipe section needs outer_diameter, wall_thickness and material; an "
                   "explicit one EA, EI, GJ and mass_per_length)");
  if (rc) return rc;
  int buoyant = ld_choice_default(&s, "buoyant");
  if ((rc = ld_get_choice(&s, "buoyant", &buoyant))) return rc;
  seg->buoyant = buoyant == 1;
  if ((rc = ld_get_number(&s, "axial_damping", &seg->axial_damping, NULL))) return rc;
  if ((rc = read_rest_curvature(&s, seg))) return rc;
  if ((rc = read_section_fatigue(&s, seg))) return rc;
  return read_hydro(&s, &seg->hydro);
}

/* rest_shape: start (the start shape is stress-free) excludes a section's own curvature. */
static int read_rest_shape(const Scope *s, PlModel *m)
{
  int rest = ld_choice_default(s, "rest_shape");
  int rc = ld_get_choice(s, "rest_shape", &rest);
  if (rc) return rc;
  m->rest_from_start = rest == 1;
  if (m->rest_from_start && PlModelCurvedAtRest(m))
    return ld_reject_key(s, "rest_shape", "'start' takes the start shape as the stress-free shape: give no "
                         "section 'curvature' or 'bend_radius' with it");
  return 0;
}

/* line: length and sections (with the length sum check). */
int ld_read_line(Ctx *c, const Scope *top, PlModel *m)
{
  Scope s;
  bool present;
  int rc = ld_open_child_if(top, "line", true, &s, &present);
  if (rc) return rc;
  if ((rc = ld_get_number(&s, "length", &m->length, &c->line_length)))
    return rc;
  const PlYPair *ps = ld_pair_of(&s, "sections");
  if (!ps) return ld_missing(&s, "sections", NULL, " (a list of sections from the bottom end)");
  char path[PATH_CAP];
  ld_join_key(path, sizeof path, s.path, "sections");
  const PlYNode *list = ps->value;
  if (list->kind != PL_YNODE_SEQ || list->nitems == 0)
    return ld_at(c->err, list, path, "expected a non-empty list of sections, found %s",
              ld_found(list).s);
  const size_t n = list->nitems;
  free(m->segments);
  m->nsegments = 0;
  if (!(m->segments = ld_alloc(n, sizeof *m->segments)))
    return ld_at(c->err, list, path, "out of memory (%zu sections)", n);
  for (size_t i = 0; i < n; i++) ld_segment_defaults(&m->segments[i]);
  bool last_has_length = true;
  double sum = 0.0; /* of the given lengths */
  for (size_t i = 0; i < n; i++) {
    char ip[PATH_CAP];
    ld_join_index(ip, sizeof ip, path, i);
    bool has_len = false;
    if ((rc = read_section(c->err, list->items[i], ip, i + 1 == n, &m->segments[i], &has_len)))
      return rc;
    if (has_len) sum += m->segments[i].length;
    if (i + 1 == n) last_has_length = has_len;
  }
  m->nsegments = (int)n;
  if ((rc = read_rest_shape(&s, m))) return rc;
  const double L = m->length, tol = 1e-9 * L;
  if (last_has_length) {
    if (fabs(sum - L) > tol)
      return ld_at(c->err, c->line_length, "line.length",
                "the section lengths add up to %.10g m, but line.length is %.10g m", sum, L);
  } else {
    const double rest = L - sum;
    if (!(rest > tol))
      return ld_at(c->err, c->line_length, "line.length",
                "the sections before the last add up to %.10g m, leaving nothing for the "
                "last one (line.length is %.10g m)",
                sum, L);
    m->segments[n - 1].length = rest;
  }
  return 0;
}

static int read_mesh(Ctx *c, const Scope *top, PlModel *m);

/* The elements of a section curved at rest must each turn by less than 160 deg (the rod's
 * measures read a turn of 180 deg or more the short way round): the mesh's longest element in
 * each such section times its curvature |k| (1/bend_radius). Reported at the line's mesh. */
static int check_rest_turns(Ctx *c, const Scope *top, const PlModel *m)
{
  if (!PlModelCurvedAtRest(m)) return 0;
  PlMesh mesh;
  if (PlMeshCreate(m, &mesh)) return 0; /* the solver reports what cannot be meshed */
  int rc = 0;
  for (int e = 0; e < mesh.nelements && !rc; ++e) {
    const PlSegment *g = &m->segments[mesh.segment[e]];
    const double k = g->bend_radius > 0.0 ? 1.0 / g->bend_radius
                                          : sqrt(g->curvature[0] * g->curvature[0] + g->curvature[1] * g->curvature[1] +
                                                 g->curvature[2] * g->curvature[2]);
    const double turn = k * (mesh.S[e + 1] - mesh.S[e]) * 180.0 / M_PI;
    if (turn >= 160.0) {
      const PlYPair *pm = ld_pair_of(top, "mesh");
      char path[PATH_CAP];
      ld_join_key(path, sizeof path, top->path, "mesh");
      rc = ld_at(c->err, pm->key, path, "an element of line.sections[%d] (S = %.6g to %.6g m) turns by %.1f deg at rest: "
                 "refine the mesh there to below 160 deg per element", mesh.segment[e], mesh.S[e], mesh.S[e + 1], turn);
    }
  }
  PlMeshDestroy(&mesh);
  return rc;
}

/* mesh: elements or target_length, and zones (needs m->length); its elements short enough for
 * the sections' curvature at rest. */
int ld_read_mesh(Ctx *c, const Scope *top, PlModel *m)
{
  const int rc = read_mesh(c, top, m);
  return rc ? rc : check_rest_turns(c, top, m);
}

static int read_mesh(Ctx *c, const Scope *top, PlModel *m)
{
  Scope s;
  bool present;
  int rc = ld_open_child_if(top, "mesh", true, &s, &present);
  if (rc) return rc;
  const PlYPair *pe = ld_pair_of(&s, "elements"), *pt = ld_pair_of(&s, "target_length");
  if (pe && pt) {
    const PlYPair *later = ld_later_pair(pt, pe);
    char path[PATH_CAP];
    ld_join_key(path, sizeof path, s.path, later->key->text);
    return ld_at(c->err, later->key, path, "give either 'elements' or 'target_length', not both");
  }
  if (!pe && !pt) return ld_missing(&s, "elements", NULL, " (or 'target_length' (m))");
  const PlYNode *nt = NULL;
  if (pe) {
    if ((rc = ld_get_int_why(&s, "elements", " (a line needs at least 2 elements)", &m->mesh_elements)))
      return rc;
    m->mesh_target_length = 0.0;
  } else {
    m->mesh_elements = 0;
    if ((rc = ld_get_number(&s, "target_length", &m->mesh_target_length, &nt)))
      return rc;
    char tp[PATH_CAP];
    ld_join_key(tp, sizeof tp, s.path, "target_length");
    if (!(m->mesh_target_length <= 0.5 * m->length))
      return ld_at(c->err, nt, tp,
                "must be at most half of line.length (%.10g m), so that the line has at least "
                "2 elements; got %s",
                0.5 * m->length, ld_got(nt).s);
    if (!(m->length / m->mesh_target_length <= PL_MESH_MAX_ELEMENTS))
      return ld_at(c->err, nt, tp,
                "gives %.4g elements (line.length / target_length), more than the %d a mesh "
                "may have; got %s",
                m->length / m->mesh_target_length, PL_MESH_MAX_ELEMENTS, ld_got(nt).s);
  }
  /* elements outside the zones, for the budget of the zones below */
  const double nglobal =
      pe ? (double)m->mesh_elements : m->length / m->mesh_target_length;
  const PlYPair *pz = ld_pair_of(&s, "zones");
  m->nzones = 0;
  if (!pz) return 0;
  char path[PATH_CAP];
  ld_join_key(path, sizeof path, s.path, "zones");
  const PlYNode *list = pz->value;
  if (list->kind != PL_YNODE_SEQ)
    return ld_at(c->err, list, path, "expected a list of zones {from, to, target_length}, found %s",
              ld_found(list).s);
  free(m->zones);
  m->zones = NULL;
  if (list->nitems > 0 && !(m->zones = ld_alloc(list->nitems, sizeof *m->zones)))
    return ld_at(c->err, list, path, "out of memory (%zu zones)", list->nitems);
  for (size_t i = 0; i < list->nitems; i++) {
    char ip[PATH_CAP];
    ld_join_index(ip, sizeof ip, path, i);
    Scope z;
    if ((rc = ld_open_scope(c->err, list->items[i], list->items[i], ip, &z))) return rc;
    PlMeshZone *zone = &m->zones[i];
    const PlYNode *nto = NULL;
    const PlYNode *nfrom = NULL;
    if ((rc = ld_get_number(&z, "from", &zone->s_from, &nfrom))) return rc;
    if (!(zone->s_from < m->length)) {
      char fp[PATH_CAP];
      ld_join_key(fp, sizeof fp, ip, "from");
      return ld_at(c->err, nfrom, fp, "must be less than %.10g m, got %s", m->length, ld_got(nfrom).s);
    }
    if ((rc = ld_get_number(&z, "to", &zone->s_to, &nto))) return rc;
    char tp[PATH_CAP];
    ld_join_key(tp, sizeof tp, ip, "to");
    if (!(zone->s_to > zone->s_from))
      return ld_at(c->err, nto, tp, "must be greater than 'from' (%.10g m), got %s", zone->s_from,
                ld_got(nto).s);
    if (!(zone->s_to <= m->length))
      return ld_at(c->err, nto, tp, "must be at most line.length (%.10g m), got %s", m->length,
                ld_got(nto).s);
    if ((rc = ld_get_number(&z, "target_length", &zone->target_length, NULL)))
      return rc;
    for (size_t j = 0; j < i; j++)
      if (m->zones[j].s_from < zone->s_to && zone->s_from < m->zones[j].s_to)
        return ld_at(c->err, list->items[i], ip,
                  "overlaps mesh.zones[%zu] (%.10g m to %.10g m); zones must not overlap", j,
                  m->zones[j].s_from, m->zones[j].s_to);
    m->nzones = (int)i + 1;
  }
  /* an upper estimate of the element count: the global elements plus, per zone, its
   * length over its target length (the mesh has at most a few more, one per piece) */
  double nzone = 0.0;
  size_t worst = 0;
  for (size_t i = 0; i < list->nitems; i++) {
    const double ni = (m->zones[i].s_to - m->zones[i].s_from) / m->zones[i].target_length;
    if (ni > (m->zones[worst].s_to - m->zones[worst].s_from) / m->zones[worst].target_length)
      worst = i;
    nzone += ni;
  }
  if (list->nitems > 0 && !(nglobal + nzone <= PL_MESH_MAX_ELEMENTS)) {
    char ip[PATH_CAP], tp[PATH_CAP];
    ld_join_index(ip, sizeof ip, path, worst);
    ld_join_key(tp, sizeof tp, ip, "target_length");
    const PlYNode *nw = ld_value_of_node(list->items[worst], "target_length");
    return ld_at(c->err, nw, tp,
              "the mesh would have about %.4g elements (%.4g outside the zones, %.4g in "
              "them), more than the %d a mesh may have; got %s",
              nglobal + nzone, nglobal, nzone, PL_MESH_MAX_ELEMENTS, ld_got(nw).s);
  }
  return 0;
}
