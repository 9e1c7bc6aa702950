/*
 * loader_bodies.c - readers of rigid bodies: the vessel at the top of a line, the items of
 * bodies:, their mass, damping, restoring, spring, initial pose, hang-off, environmental
 * load and the DP controller with its reference.
 */
#include "loader_impl.h"

/* ---- the vessel at the top --------------------------------------------------------------- */
/* vessel: the 6-DOF vessel the top end hangs from (PlVesselModel, models.h; PlVessel,
 * elements.h). Frames: global x, y horizontal, z up (the pipe's); body x forward, y to
 * port, z up, origin O_b. With axes: fossen_ned the body-frame data are in Fossen's body
 * axes (x forward, y starboard, z down) and are turned into pipelay's by the half turn
 * T = diag(1, -1, -1) about x: vectors T v, 3x3 tensors T A T, frames T R, 6x6 matrices
 * S A S with S = diag(T, T) (PlVesselMatrixFromNED). Global-frame values are never
 * converted. */

/* reference types, in PlDPReferenceKind order */

/* Units of the blocks (translation, mixed, rotation) of the 6x6 matrices. */
static const char *const kMassUnits[3] = {"kg", "kg m", "kg m^2"};
static const char *const kDampingUnits[3] = {"N s/m", "N s", "N m s"};
static const char *const kInertiaUnits[3] = {"kg m^2", "kg m^2", "kg m^2"};
static const char *const kSpringUnits[3] = {"N/m", "N/m", "N/m"};

/* v = T v: a body-frame vector from Fossen's axes. */
static void ned_vec3(double v[3])
{
  v[1] = -v[1];
  v[2] = -v[2];
}

/* A = T A T: a body-frame 3x3 tensor (row-major) from Fossen's axes. */
static void ned_tensor3(double A[9])
{
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      if ((i == 0) != (j == 0)) A[3 * i + j] = -A[3 * i + j];
}

/* A = S A S: a body-frame 6x6 matrix from Fossen's axes (in place). */
static void ned_matrix6(double A[36])
{
  double t[36];
  PlVesselMatrixFromNED(A, t);
  memcpy(A, t, sizeof t);
}

/* PlVesselCheck on the vessel as filled so far; a complaint goes to node where (at path),
 * the value that was added last. Returns 0 or 2. */
static int vessel_check_at(PlError *err, const PlVessel *V, const PlYNode *where,
                           const char *path)
{
  char msg[512];
  if (PlVesselCheck(V, msg, sizeof msg) == 0) return 0;
  return ld_at(err, where, path, "%s", msg);
}

/* "a circle", "circle and line", "circle, line and waypoints": the names of bits in
 * names (bit k for names[k]) into buf. Returns the number of names. */
static int name_bits(const char *const *names, unsigned bits, char *buf, size_t cap)
{
  int n = 0, total = 0;
  for (int k = 0; names[k]; k++) total += (bits >> k) & 1u;
  buf[0] = '\0';
  for (int k = 0; names[k]; k++) {
    if (!((bits >> k) & 1u)) continue;
    if (n > 0) ld_cat(buf, cap, n + 1 == total ? " and " : ", ");
    ld_cat(buf, cap, names[k]);
    n++;
  }
  return n;
}

/* The rigid-body mass: mass, centre_of_gravity and radii_of_gyration or inertia
 * (PlVesselRigidBodyMass) plus added_mass; or mass_matrix, the total M (MA = 0). */
static int read_vessel_mass(const Scope *s, bool ned, PlVessel *V, double *mass_out, double cg_out[3])
{
  *mass_out = 0.0; /* the mass_matrix form: no mass and centre of gravity of their own */
  static const char *const kMassForm[] = {"mass", "centre_of_gravity", "radii_of_gyration",
                                          "inertia", "added_mass", NULL};
  int rc;
  char path[PATH_CAP];
  const PlYNode *where = NULL;
  const PlYPair *pmm = ld_pair_of(s, "mass_matrix");
  if (pmm) {
    const PlYPair *po = ld_first_of(s, kMassForm);
    if (po) {
      const PlYPair *later = ld_later_pair(pmm, po), *earlier = later == pmm ? po : pmm;
      ld_join_key(path, sizeof path, s->path, later->key->text);
      return ld_at(s->err, later->key, path,
                "cannot be combined with '%s' (give either mass_matrix, the total M = M_RB + "
                "M_A, or mass with radii_of_gyration or inertia, centre_of_gravity and "
                "added_mass)",
                earlier->key->text);
    }
    if ((rc = ld_get_matrix(s, "mass_matrix", kMassUnits, V->MRB, &where))) return rc;
    if (ned) ned_matrix6(V->MRB);
    memset(V->MA, 0, sizeof V->MA);
    ld_join_key(path, sizeof path, s->path, "mass_matrix");
    return vessel_check_at(s->err, V, where, path);
  }
  if (!ld_pair_of(s, "mass"))
    return ld_missing(s, "mass", "kg", " (or 'mass_matrix', the total 6x6 mass matrix)");
  double mass = 0.0, cg[3] = {0, 0, 0}, I[9] = {0};
  if ((rc = ld_get_number(s, "mass", &mass, NULL))) return rc;
  if ((rc = ld_get_list(s, "centre_of_gravity", cg, NULL))) return rc;
  const PlYPair *pr = ld_pair_of(s, "radii_of_gyration"), *pi = ld_pair_of(s, "inertia");
  if (pr && pi) {
    const PlYPair *later = ld_later_pair(pr, pi);
    ld_join_key(path, sizeof path, s->path, later->key->text);
    return ld_at(s->err, later->key, path,
              "give either 'radii_of_gyration' or 'inertia', not both");
  }
  if (!pr && !pi)
    return ld_missing(s, "radii_of_gyration", "m",
                   " (or 'inertia' (kg m^2), about the centre of gravity)");
  if (pr) {
    double r[3];
    if ((rc = ld_get_list(s, "radii_of_gyration", r, NULL))) return rc;
    for (int k = 0; k < 3; k++) I[4 * k] = mass * r[k] * r[k];
  } else {
    if ((rc = ld_get_matrix(s, "inertia", kInertiaUnits, I, &where))) return rc;
    ld_join_key(path, sizeof path, s->path, "inertia");
    if ((rc = ld_check_symmetric(s->err, where, path, 3, I))) return rc;
    const double d2 = I[0] * I[4] - I[1] * I[3];
    const double d3 = I[0] * (I[4] * I[8] - I[5] * I[7]) - I[1] * (I[3] * I[8] - I[5] * I[6]) +
                      I[2] * (I[3] * I[7] - I[4] * I[6]);
    if (!(I[0] > 0.0 && d2 > 0.0 && d3 > 0.0))
      return ld_at(s->err, where, path,
                "must be positive definite (the inertia of a rigid body about its centre of "
                "gravity is)");
    if (ned) ned_tensor3(I);
  }
  if (ned) ned_vec3(cg);
  PlVesselRigidBodyMass(mass, cg, I, V->MRB);
  *mass_out = mass;
  memcpy(cg_out, cg, sizeof cg);
  if ((rc = ld_get_matrix(s, "added_mass", kMassUnits, V->MA, &where))) return rc;
  if (!where) return 0;
  if (ned) ned_matrix6(V->MA);
  ld_join_key(path, sizeof path, s->path, "added_mass");
  return vessel_check_at(s->err, V, where, path);
}

/* vessel.restoring: waterplane area with the heave equilibrium, metacentric heights with
 * the displacement (eqs 5.58-5.64). */
static int read_restoring(const Scope *vs, PlVessel *V)
{
  Scope s;
  bool present;
  int rc = ld_open_child(vs, "restoring", &s, &present);
  if (rc || !present) return rc;
  const PlYNode *nawp = NULL, *ngt = NULL, *ngl = NULL;
  if ((rc = ld_get_number(&s, "waterplane_area", &V->Awp, &nawp)))
    return rc;
  if (nawp) {
    if (!ld_pair_of(&s, "heave_equilibrium"))
      return ld_missing(&s, "heave_equilibrium", "m",
                     " (the z of O_b where the vessel floats without the pipe; needed with "
                     "waterplane_area)");
    if ((rc = ld_get_number(&s, "heave_equilibrium", &V->z_eq, NULL))) return rc;
  } else if ((rc = ld_reject_key(&s, "heave_equilibrium",
                              "is only used with 'waterplane_area' (the heave restoring force)")))
    return rc;
  if ((rc = ld_get_number(&s, "gm_transverse", &V->GM_T, &ngt))) return rc;
  if ((rc = ld_get_number(&s, "gm_longitudinal", &V->GM_L, &ngl)))
    return rc;
  const PlYNode *nbm = NULL;
  double bm = NAN;
  if ((rc = ld_get_number(&s, "metacentric_radius", &bm, &nbm))) return rc;
  if (nbm) {
    if (!ngt || !ngl || V->GM_T != V->GM_L) {
      char path[PATH_CAP];
      ld_join_key(path, sizeof path, s.path, "metacentric_radius");
      return ld_at(s.err, nbm, path, "the wall-sided law is for an axisymmetric hull: give gm_transverse and "
                   "gm_longitudinal, equal (got %g and %g m)", V->GM_T, V->GM_L);
    }
    V->wall_sided = 1;
    V->BM = bm;
  }
  if (ngt || ngl) {
    if (!ld_pair_of(&s, "displacement"))
      return ld_missing(&s, "displacement", "kg",
                     " (the mass of the displaced water m_V of eq 5.63; needed with a "
                     "metacentric height)");
    return ld_get_number(&s, "displacement", &V->displacement, NULL);
  }
  return ld_reject_key(&s, "displacement",
                    "is only used with 'gm_transverse' or 'gm_longitudinal' (the roll and pitch "
                    "restoring moments)");
}

/* vessel.hull: sections of a slender hull along the body z axis, cut into strips of at most
 * 1 m (PlVesselHullLoad), the diameter linear along a section. */
/* Room for n strips in H's block (its four arrays of cap, one block from z), grown by doubling;
 * n < 0: the block made exactly H->n long (the layout PlHull states). 0, or -1 out of memory (H
 * unchanged). */
static int hull_reserve(PlHull *H, int n, int *cap)
{
  if (n <= *cap && n >= 0) return 0;
  int c = *cap ? *cap : 16;
  while (c < n) c *= 2;
  if (n < 0) c = H->n; /* compact: the arrays of exactly H->n */
  double *b = ld_alloc(4 * (size_t)c, sizeof *b);
  if (!b) return -1;
  for (int k = 0; k < H->n; ++k) b[k] = H->z[k], b[c + k] = H->len[k], b[2 * c + k] = H->D[k], b[3 * c + k] = H->Cd[k];
  free(H->z);
  H->z = b, H->len = b + c, H->D = b + 2 * c, H->Cd = b + 3 * c;
  *cap = c;
  return 0;
}

static int read_hull(const Scope *vs, PlVesselModel *v)
{
  const PlYNode *list = NULL;
  char path[PATH_CAP];
  int rc = ld_open_list(vs->err, vs, "hull", false, "hull sections {top, bottom, diameter}", &list, path);
  if (rc || !list) return rc;
  PlHull *H = &v->hull;
  H->n = 0;
  free(H->z);
  H->z = H->len = H->D = H->Cd = NULL;
  int cap = 0;
  for (size_t i = 0; i < list->nitems; ++i) {
    char ip[PATH_CAP];
    ld_join_index(ip, sizeof ip, path, i);
    Scope h;
    if ((rc = ld_open_scope(vs->err, list->items[i], list->items[i], ip, &h))) return rc;
    double top = NAN, bottom = NAN, d0 = NAN, d1 = NAN, cd = PlSchemaDefault("vessel.hull[*].drag_normal");
    const PlYNode *nb = NULL;
    if ((rc = ld_get_number(&h, "top", &top, NULL)) || (rc = ld_get_number(&h, "bottom", &bottom, &nb)) ||
        (rc = ld_get_number(&h, "diameter", &d0, NULL)) || (rc = ld_get_number(&h, "diameter_bottom", &d1, NULL)) ||
        (rc = ld_get_number(&h, "drag_normal", &cd, NULL)))
      return rc;
    if (isnan(d1)) d1 = d0;
    if (!(bottom < top)) {
      char bp[PATH_CAP];
      ld_join_key(bp, sizeof bp, ip, "bottom");
      return ld_at(vs->err, nb, bp, "must be below top (%.10g m), got %s", top, ld_got(nb).s);
    }
    const double nsd = ceil((top - bottom) / 1.0 - 1e-9);
    if (!(nsd <= 10000000.0 - H->n))
      return ld_at(vs->err, list->items[i], ip, "the hull's sections make more than 10^7 strips of at most 1 m");
    const int ns = (int)nsd;
    if (hull_reserve(H, H->n + ns, &cap)) return ld_at(vs->err, list->items[i], ip, "out of memory for the hull's strips");
    const double l = (top - bottom) / ns;
    for (int k = 0; k < ns; ++k) {
      const double z = top - (k + 0.5) * l, f = (top - z) / (top - bottom);
      H->z[H->n] = z;
      H->len[H->n] = l;
      H->D[H->n] = d0 + (d1 - d0) * f;
      H->Cd[H->n] = cd;
      H->n++;
    }
  }
  if (H->n > 0 && cap != H->n && hull_reserve(H, -1, &cap))
    return ld_at(vs->err, list, path, "out of memory for the hull's strips");
  return 0;
}

/* vessel.yaw_spring: a spring on the heading (elements/vessel.c). */
static int read_yaw_spring(const Scope *vs, PlVessel *V)
{
  Scope s;
  bool present;
  int rc = ld_open_child(vs, "yaw_spring", &s, &present);
  if (rc || !present) return rc;
  if ((rc = ld_get_number(&s, "stiffness", &V->K_yaw, NULL))) return rc;
  double deg = 0.0;
  if ((rc = ld_get_number(&s, "heading", &deg, NULL))) return rc;
  V->psi_rest = deg * kPi / 180.0;
  return 0;
}

/* vessel.spring: a linear spring on O_b, global frame (a soft mooring). */
static int read_spring(const Scope *vs, PlVessel *V)
{
  Scope s;
  bool present;
  int rc = ld_open_child(vs, "spring", &s, &present);
  if (rc || !present) return rc;
  const PlYNode *nk = NULL;
  char path[PATH_CAP];
  if ((rc = ld_get_matrix(&s, "stiffness", kSpringUnits, V->K_spring, &nk))) return rc;
  ld_join_key(path, sizeof path, s.path, "stiffness");
  if ((rc = ld_check_symmetric(s.err, nk, path, 3, V->K_spring))) return rc;
  if ((rc = vessel_check_at(s.err, V, nk, path))) return rc;
  return ld_get_list(&s, "anchor", V->r_anchor, NULL);
}

/* vessel.initial: the vessel's pose (global) and velocities (body frame, dynamic only). */
static int read_vessel_initial(const Ctx *c, const Scope *vs, bool ned, PlVesselModel *v)
{
  Scope s;
  bool present;
  int rc = ld_open_child(vs, "initial", &s, &present);
  if (rc) return rc;
  if ((rc = ld_get_list(&s, "position", v->position, NULL))) return rc;
  double rpy[3] = {0, 0, 0}, w[3] = {0, 0, 0};
  if ((rc = ld_get_list(&s, "orientation", rpy, NULL))) return rc;
  for (int k = 0; k < 3; k++) v->rpy[k] = rpy[k] * kPi / 180.0;
  if ((rc = ld_dynamic_only(c, &s, "velocity"))) return rc;
  if ((rc = ld_dynamic_only(c, &s, "angular_velocity"))) return rc;
  if ((rc = ld_get_list(&s, "velocity", v->velocity, NULL))) return rc;
  if ((rc = ld_get_list(&s, "angular_velocity", w, NULL))) return rc;
  for (int k = 0; k < 3; k++) v->angular_velocity[k] = w[k] * kPi / 180.0;
  if (ned) {
    ned_vec3(v->velocity);
    ned_vec3(v->angular_velocity);
  }
  return 0;
}

/* vessel.hang_off: where and how the top end hangs from the vessel. */
static int read_hang_off(const Ctx *c, const Scope *vs, bool ned, PlVesselModel *v)
{
  Scope s;
  bool present;
  int rc = ld_open_child_if(vs, "hang_off", !c->body_only, &s, &present);
  if (rc) return rc;
  for (int i = 0; i < 9; i++) v->top_frame[i] = (i % 4 == 0) ? 1.0 : 0.0;
  if (c->body_only) {
    /* a rigid body alone: hang_off.point is only the body point whose path is reported */
    if (!present) return 0;
    if ((rc = ld_reject_key(&s, "connection", "is not used by a rigid body alone (no line hangs from it)")) ||
        (rc = ld_reject_key(&s, "orientation", "is not used by a rigid body alone (no line hangs from it)")))
      return rc;
    if ((rc = ld_get_list(&s, "point", v->hang_off, NULL))) return rc;
    if (ned) ned_vec3(v->hang_off);
    return 0;
  }
  if ((rc = ld_get_list(&s, "point", v->hang_off, NULL))) return rc;
  if (!ld_pair_of(&s, "connection")) return ld_missing(&s, "connection", NULL, " (fixed or hinge)");
  int kind = 0;
  if ((rc = ld_get_choice(&s, "connection", &kind))) return rc;
  v->connection = kind ? PL_HANGOFF_HINGE : PL_HANGOFF_FIXED;
  for (int i = 0; i < 9; i++) v->top_frame[i] = (i % 4 == 0) ? 1.0 : 0.0;
  if (v->connection == PL_HANGOFF_HINGE) {
    if ((rc = ld_reject_key(&s, "orientation",
                         "is only used by a fixed connection (connection is 'hinge': a ball "
                         "joint, the top section turns freely)")))
      return rc;
  } else {
    double deg[3];
    if (!ld_pair_of(&s, "orientation"))
      return ld_missing(&s, "orientation", "deg",
                     " (zxy Euler angles of the top section's frame in the vessel's body axes; "
                     "a fixed connection holds it there)");
    if ((rc = ld_get_list(&s, "orientation", deg, NULL))) return rc;
    ld_euler_zxy(deg, v->top_frame);
    if (ned)
      for (int k = 3; k < 9; k++) v->top_frame[k] = -v->top_frame[k]; /* T R */
  }
  if (ned) ned_vec3(v->hang_off);
  return 0;
}

/* vessel.raos and vessel.excitation: a table of the RAO format (models/rao.c reads it;
 * pipelay/rao.h its formats and conventions) with its origin, phase origin and forward speed.
 * raos: the displacement RAOs (csv or WAMIT's .4); excitation: the first-order wave force and
 * moment per m of wave amplitude (csv; N/m, N m/m, no rotation unit). A CSV table's conventions
 * are required keys (nothing about them is assumed); WAMIT's .4 has its own (rao.h) and needs its
 * length scale. Either starts from the static pose only through waves.ramp_time. */
static int read_rao_table(const Ctx *c, const Scope *vs, const PlModel *m, bool ned, bool force, PlRaoTable *t)
{
  const char *block = force ? "excitation" : "raos";
  Scope s;
  bool present;
  int rc = ld_open_child(vs, block, &s, &present);
  if (rc || !present) return rc;
  if ((rc = ld_dynamic_only(c, vs, block))) return rc;
  int format = 0;
  if (!force && (rc = ld_get_choice(&s, "format", &format))) return rc;
  static const char *const conv[3] = {"phase", "heading", "rotations"};
  static const char kHeading[] = " (towards or from: the table's heading is the waves' direction of travel "
                                 "or where they come from, relative to the body's x axis)";
  static const char *const what[3] = {" (lag or lead: the sign of the table's phases)", kHeading,
                                      " (deg or rad: the rotations' unit per m of wave amplitude)"};
  int cv[3] = {0, 0, PL_RAO_RAD}; /* a force table's moments are in N m/m: no rotation unit */
  for (int k = 0; k < (force ? 2 : 3); k++) {
    if (format == 1) {
      if ((rc = ld_reject_key(&s, conv[k], "is WAMIT's own with format wamit4 (a lead, the direction of travel, "
                                           "rotations in rad after the length scale)")))
        return rc;
      continue;
    }
    if (!ld_pair_of(&s, conv[k])) return ld_missing(&s, conv[k], NULL, what[k]);
    if ((rc = ld_get_choice(&s, conv[k], &cv[k]))) return rc;
  }
  double ulen = NAN;
  int body = (int)PlSchemaDefault("vessel.raos.body");
  if (format == 1) {
    if ((rc = ld_get_number_if(&s, "length_scale", true, &ulen, NULL)) || (rc = ld_get_int(&s, "body", &body))) return rc;
  } else if (!force && ((rc = ld_reject_key(&s, "length_scale", "is WAMIT's ULEN (format wamit4)")) ||
                        (rc = ld_reject_key(&s, "body", "picks a body of a WAMIT file (format wamit4)"))))
    return rc;
  if (!ld_pair_of(&s, "origin"))
    return ld_missing(&s, "origin", "m", force ? " (the point the moments are about, body frame from O_b)"
                                               : " (the RAO origin, body frame from O_b)");
  if ((rc = ld_get_list(&s, "origin", t->origin, NULL))) return rc;
  memcpy(t->phase_origin, t->origin, sizeof t->origin);
  if ((rc = ld_get_list(&s, "phase_origin", t->phase_origin, NULL)) ||
      (rc = ld_get_number(&s, "speed", &t->speed, NULL)))
    return rc;
  if (ned) {
    ned_vec3(t->origin);
    ned_vec3(t->phase_origin);
  }
  if (m->sea.ntrains > 0 && !(m->sea.ramp_time > 0.0))
    return ld_at(s.err, s.anchor, s.path,
                 force ? "a body's wave excitation needs waves.ramp_time > 0 (the sea is ramped in from the static "
                         "equilibrium)"
                       : "a body's RAO motion needs waves.ramp_time > 0 (the motion is ramped in from the static pose, "
                         "where the line hangs at rest)");
  char name[PL_PATH_MAX], file[2 * PL_PATH_MAX], key[PATH_CAP];
  if (!ld_pair_of(&s, "file")) return ld_missing(&s, "file", NULL, force ? " (the force RAO table: csv)" : " (the RAO table: csv or WAMIT .4)");
  if ((rc = ld_get_string(&s, "file", false, name, sizeof name))) return rc;
  ld_resolve_path(c->model_path, name, file, sizeof file);
  ld_join_key(key, sizeof key, s.path, "file");
  const PlRaoConventions cvs = {(PlRaoPhase)cv[0], (PlRaoHeading)cv[1], (PlRaoRotation)cv[2]};
  PlRaoError e;
  const PlRaoTable keep = *t;
  if (format == 1 ? PlRaoReadWamit(file, body, ulen, t, &e) : PlRaoReadCsv(file, &cvs, t, &e)) {
    *t = keep;
    return e.line > 0 ? ld_report(s.err, file, e.line, e.col, key, "%s", e.msg)
                      : ld_at(s.err, ld_value_of(&s, "file"), key, "%s", e.msg);
  }
  t->speed = keep.speed;
  memcpy(t->origin, keep.origin, sizeof t->origin);
  memcpy(t->phase_origin, keep.phase_origin, sizeof t->phase_origin);
  return 0;
}

/* A body moves by its RAOs or is driven by its excitation, not both (the RAOs are the response
 * to that excitation: the two would count the waves twice). */
static int read_raos(const Ctx *c, const Scope *vs, const PlModel *m, bool ned, PlVesselModel *v)
{
  int rc;
  if ((rc = read_rao_table(c, vs, m, ned, false, &v->rao)) || (rc = read_rao_table(c, vs, m, ned, true, &v->excitation)))
    return rc;
  if (v->rao.nh > 0 && v->excitation.nh > 0)
    return ld_reject_key(vs, "excitation", "and raos both give the body's wave response: give the displacement "
                                           "RAOs (a prescribed motion) or the excitation (the body's own dynamics), "
                                           "not both");
  return 0;
}

/* vessel.environment_load: a constant load ramped in, plus an optional time series. */
static int read_environment_load(const Ctx *c, const Scope *vs, bool ned, PlVesselModel *v)
{
  Scope s;
  bool present;
  int rc = ld_open_child(vs, "environment_load", &s, &present);
  if (rc || !present) return rc;
  PlVesselLoad *L = &v->environment;
  int frame = ld_choice_default(&s, "frame");
  if ((rc = ld_get_choice(&s, "frame", &frame))) return rc;
  L->body_frame = frame == 1;
  if ((rc = ld_get_load(&s, "force", "a vessel", L->value))) return rc;
  if ((rc = ld_get_load(&s, "moment", "a vessel", L->value + 3)))
    return rc;
  if ((rc = ld_get_number(&s, "start_time", &L->start_time, NULL)))
    return rc;
  if ((rc = ld_get_number(&s, "ramp_time", &L->ramp_time, NULL)))
    return rc;
  if (ld_pair_of(&s, "file")) {
    char name[PL_PATH_MAX];
    double *table = NULL;
    int nrows = 0, ncols = 0;
    if ((rc = ld_read_csv_file(c, &s, &kLoadCsv, name, sizeof name, &table, &nrows, &ncols, NULL)))
      return rc;
    L->table = table; /* owned by the model from here on (PlModelFree) */
    L->nrows = nrows;
    if (ned && L->body_frame)
      for (int i = 0; i < nrows; i++) {
        ned_vec3(table + 7 * i + 1);
        ned_vec3(table + 7 * i + 4);
      }
  }
  if (ned && L->body_frame) {
    ned_vec3(L->value);
    ned_vec3(L->value + 3);
  }
  return 0;
}

/* dp.actuated: a non-empty list of distinct body-frame DOF names. */
static int read_actuated(const Scope *s, bool actuated[6])
{
  const PlYNode *n = ld_value_of(s, "actuated");
  if (!n) return 0;
  char path[PATH_CAP];
  ld_join_key(path, sizeof path, s->path, "actuated");
  if (n->kind != PL_YNODE_SEQ || n->nitems == 0)
    return ld_at(s->err, n, path,
              "expected a non-empty list of names from surge, sway, heave, roll, pitch, yaw "
              "(the body-frame DOFs the thrusters act in); found %s",
              ld_found(n).s);
  bool act[6] = {false, false, false, false, false, false};
  for (size_t i = 0; i < n->nitems; i++) {
    const PlYNode *it = n->items[i];
    char ip[PATH_CAP];
    ld_join_index(ip, sizeof ip, path, i);
    int k = -1;
    if (it->kind == PL_YNODE_SCALAR && strlen(it->text) == it->len)
      k = ld_name_index(kBodyDofs, it->text);
    if (k < 0)
      return ld_at(s->err, it, ip, "expected one of: surge, sway, heave, roll, pitch, yaw; found %s",
                ld_found(it).s);
    if (act[k]) return ld_at(s->err, it, ip, "'%s' is listed twice", kBodyDofs[k]);
    act[k] = true;
  }
  memcpy(actuated, act, sizeof act);
  return 0;
}

/* reference.points and reference.speeds of a waypoints reference. */
static int read_waypoints(const Scope *s, PlDPReference *ref)
{
  const PlYNode *n = ld_value_of(s, "points");
  if (!n)
    return ld_missing(s, "points", NULL, " (a list of 2 or more points [x, y] in m, global)");
  char path[PATH_CAP];
  ld_join_key(path, sizeof path, s->path, "points");
  if (n->kind != PL_YNODE_SEQ || n->nitems < 2)
    return ld_at(s->err, n, path, "expected a list of 2 or more points [x, y] (m), found %s", ld_found(n).s);
  free(ref->waypoint), free(ref->leg_speed);
  ref->nwaypoints = 0;
  ref->waypoint = ld_alloc(n->nitems, sizeof *ref->waypoint);
  ref->leg_speed = ld_alloc(n->nitems, sizeof *ref->leg_speed);
  if (!ref->waypoint || !ref->leg_speed) return ld_at(s->err, n, path, "out of memory (%zu points)", n->nitems);
  const PlKeySpec *kpts = ld_spec_of(s, "points");
  const ListSpec xy = {0, kpts->unit, kpts->unit, ld_range_of(kpts), ld_range_of(kpts), "x, y in m"};
  for (size_t i = 0; i < n->nitems; i++) {
    char ip[PATH_CAP];
    ld_join_index(ip, sizeof ip, path, i);
    int rc = ld_parse_list(s->err, n->items[i], ip, 2, &xy, ref->waypoint[i]);
    if (rc) return rc;
  }
  ref->nwaypoints = (int)n->nitems;
  const PlKeySpec *ksp = ld_spec_of(s, "speeds");
  const ListSpec sp = {0, ksp->unit, ksp->unit, ld_range_of(ksp), ld_range_of(ksp),
                       "m/s, one for each leg between the points"};
  return ld_get_list_spec(s, "speeds", n->nitems - 1, &sp, ref->leg_speed, NULL);
}

/* dp.reference: the set point or path of the controller. */
static int read_dp_reference(const Scope *dp, PlDPReference *ref)
{
  Scope s;
  bool present;
  int rc = ld_open_child(dp, "reference", &s, &present);
  if (rc) return rc;
  if (!ld_pair_of(&s, "type")) return ld_missing(&s, "type", NULL, " (fixed, circle, line, waypoints or route)");
  int type = 0;
  if ((rc = ld_get_choice(&s, "type", &type))) return rc;
  /* the reference types that use each key (bit k for PlChoiceRefTypes[k]) */
  enum { RF = 1u, RC = 2u, RL = 4u, RW = 8u, RR = 16u };
  static const struct {
    const char *key;
    unsigned types;
  } kUse[] = {{"radius", RC},         {"period", RC},          {"ramp_up", RC},
              {"hold", RC},           {"ramp_down", RC},       {"direction", RC},
              {"start_time", RC | RL | RW | RR}, {"speed", RL | RR}, {"course", RL},
              {"ramp_time", RL | RR}, {"heading", RL | RW | RR}, {"points", RW},
              {"speeds", RW},         {"gain", RR},            {"interval", RR}};
  for (size_t i = 0; i < sizeof kUse / sizeof kUse[0]; i++) {
    if (kUse[i].types & (1u << type)) continue;
    char users[64];
    const int nusers = name_bits(PlChoiceRefTypes, kUse[i].types, users, sizeof users);
    if ((rc = ld_reject_key(&s, kUse[i].key, "is only used by %s%s reference%s (type is '%s')",
                         nusers > 1 ? "" : "a ", users, nusers > 1 ? "s" : "", PlChoiceRefTypes[type])))
      return rc;
  }
  ref->kind = (PlDPReferenceKind)type;
  /* the row's range for x, y, z; the angles, like every orientation, within kAngle */
  const ListSpec eta = {3, "m", "deg", ld_range_of(ld_spec_of(&s, "eta")), kAngle,
                        "x, y, z in m; roll, pitch, yaw in deg"};
  if ((rc = ld_get_list_spec(&s, "eta", 6, &eta, ref->eta0, NULL))) return rc;
  for (int k = 3; k < 6; k++) ref->eta0[k] *= kPi / 180.0;
  int heading = ref->heading_along_path ? 1 : 0;
  if ((rc = ld_get_choice(&s, "heading", &heading))) return rc;
  ref->heading_along_path = heading == 1;
  switch (ref->kind) {
  case PL_DP_REF_CIRCLE:
    ref->circle.kind = PL_MOTION_CIRCLE;
    return ld_read_circle(&s, &ref->circle);
  case PL_DP_REF_LINE:
    if ((rc = ld_get_number(&s, "speed", &ref->speed, NULL))) return rc;
    if ((rc = ld_get_number(&s, "course", &ref->course_deg, NULL))) return rc;
    if ((rc = ld_get_number(&s, "start_time", &ref->start_time, NULL)))
      return rc;
    return ld_get_number(&s, "ramp_time", &ref->ramp_time, NULL);
  case PL_DP_REF_WAYPOINTS:
    if ((rc = ld_get_number(&s, "start_time", &ref->start_time, NULL)))
      return rc;
    return read_waypoints(&s, ref);
  case PL_DP_REF_ROUTE: /* lay.route and the pay-out: checked with them (loader.c) */
    ref->gain = PlSchemaDefault("vessel.dp.reference.gain");
    ref->interval = PlSchemaDefault("vessel.dp.reference.interval");
    if ((rc = ld_get_number(&s, "speed", &ref->speed, NULL)) ||
        (rc = ld_get_number(&s, "start_time", &ref->start_time, NULL)) ||
        (rc = ld_get_number(&s, "ramp_time", &ref->ramp_time, NULL)) ||
        (rc = ld_get_number(&s, "gain", &ref->gain, NULL)) || (rc = ld_get_number(&s, "interval", &ref->interval, NULL)))
      return rc;
    break;
  case PL_DP_REF_FIXED:
    break;
  }
  return 0;
}

/* vessel.dp: the DP controller (PlDPController, eqs 4.44-4.45). */
static int read_dp(const Scope *vs, PlVesselModel *v)
{
  Scope s;
  bool present;
  int rc = ld_open_child(vs, "dp", &s, &present);
  if (rc || !present) return rc;
  v->has_dp = true;
  PlDPController *d = &v->dp;
  const ListSpec kp = ld_split_list(ld_spec_of(&s, "kp"), "N/m", "N m/rad",
                                  "N/m for x, y, z; N m/rad for roll, pitch, yaw");
  const ListSpec kd = ld_split_list(ld_spec_of(&s, "kd"), "N s/m", "N m s/rad",
                                  "N s/m for x, y, z; N m s/rad for roll, pitch, yaw");
  const ListSpec ki = ld_split_list(ld_spec_of(&s, "ki"), "N/(m s)", "N m/(rad s)",
                                  "N/(m s) for x, y, z; N m/(rad s) for roll, pitch, yaw");
  const ListSpec ib = ld_split_list(ld_spec_of(&s, "integral_bound"), "m s", "rad s",
                                  "m s for x, y, z; rad s for roll, pitch, yaw; 0: unbounded");
  const ListSpec tm = ld_split_list(ld_spec_of(&s, "thrust_max"), "N", "N m",
                                  "N for surge, sway, heave; N m for roll, pitch, yaw; 0: no limit");
  if ((rc = ld_get_list_spec(&s, "kp", 6, &kp, d->Kp, NULL))) return rc;
  if ((rc = ld_get_list_spec(&s, "kd", 6, &kd, d->Kd, NULL))) return rc;
  if ((rc = ld_get_list_spec(&s, "ki", 6, &ki, d->Ki, NULL))) return rc;
  if ((rc = ld_get_list_spec(&s, "integral_bound", 6, &ib, d->integral_bound, NULL))) return rc;
  if ((rc = ld_get_number(&s, "antiwindup_time", &d->antiwindup_time, NULL)))
    return rc;
  if ((rc = read_actuated(&s, d->actuated))) return rc;
  if ((rc = ld_get_list_spec(&s, "thrust_max", 6, &tm, d->thrust_max, NULL))) return rc;
  if ((rc = ld_get_number(&s, "start_time", &d->start_time, NULL)))
    return rc;
  if ((rc = ld_get_number(&s, "ramp_time", &d->ramp_time, NULL))) return rc;
  if (!ld_pair_of(&s, "reference"))
    return ld_missing(&s, "reference", NULL, " (the set point or path: type fixed, circle, line, "
                                          "waypoints or route, with eta)");
  if ((rc = read_dp_reference(&s, &d->ref))) return rc;
  char msg[512];
  if (PlDPControllerCheck(d, msg, sizeof msg) != 0) return ld_at(s.err, s.anchor, s.path, "%s", msg);
  return 0;
}

/* An object's name (the key 'name' of s, required): letters, digits, '_' and '-' (it names
 * files), not "ground" (a joint's word for the fixed frame), unique among the nseen names
 * given before (seen, with their nodes). */
int ld_read_object_name(const Scope *s, const char *what, char *out, size_t cap,
                            const char (*seen)[PL_NAME_MAX], const PlYNode *const *seen_nodes, int nseen,
                            const PlYNode **node)
{
  int rc = ld_get_string(s, "name", false, out, cap);
  if (rc) return rc;
  const PlYNode *nn = ld_value_of(s, "name");
  char np[PATH_CAP];
  ld_join_key(np, sizeof np, s->path, "name");
  for (size_t k = 0; out[k]; k++)
    if (!ld_point_name_char(out[k]))
      return ld_at(s->err, nn, np, "may only hold letters, digits, '_' and '-' (it names an output file), found '%s'",
                ld_got(nn).s);
  if (!strcmp(out, "ground"))
    return ld_at(s->err, nn, np, "'ground' is the fixed frame a joint may hold a body to; give the %s another name",
              what);
  for (int j = 0; j < nseen; j++)
    if (!strcmp(seen[j], out))
      return ld_at(s->err, nn, np, "duplicate name '%s' (first given at %s:%d:%d); every body and joint needs its own",
                out, seen_nodes[j]->source, seen_nodes[j]->line, seen_nodes[j]->col);
  *node = nn;
  return 0;
}

/* weight: the body's weight at its centre of gravity (needs mass and centre_of_gravity). */
static int read_weight(const Scope *s, double mass, const double cg[3], PlVessel *V)
{
  int on = ld_choice_default(s, "weight");
  int rc = ld_get_choice(s, "weight", &on);
  if (rc || !on) return rc;
  if (!(mass > 0.0)) {
    const PlYPair *pw = ld_pair_of(s, "weight");
    char path[PATH_CAP];
    ld_join_key(path, sizeof path, s->path, "weight");
    return ld_at(s->err, pw->value, path,
              "needs 'mass' and 'centre_of_gravity' (the weight acts there), not 'mass_matrix'");
  }
  V->weight_mass = mass;
  memcpy(V->r_g, cg, sizeof V->r_g);
  return 0;
}

/* One body: the vessel block (its object name "vessel", 'name' free text) or an item of
 * bodies: ('name' its object name). Environment first (rho_w, g). */
static int read_body(Ctx *c, const Scope *bs, const PlModel *m, bool listed, PlVesselModel *v)
{
  const Scope s = *bs;
  int rc;
  PlVessel *V = &v->body;
  v->present = true;
  V->rho_w = m->water_density;
  V->gravity = m->gravity;
  if (listed) {
    const PlYNode *nn = NULL;
    const int nseen = m->nbodies; /* the bodies read before this one */
    char(*seen)[PL_NAME_MAX] = ld_alloc((size_t)nseen + 1, sizeof *seen);
    if (!seen) return ld_at(s.err, s.anchor, s.path, "out of memory");
    for (int k = 0; k < nseen; k++) snprintf(seen[k], PL_NAME_MAX, "%s", m->bodies[k].id);
    rc = ld_read_object_name(&s, "body", v->id, sizeof v->id, (const char(*)[PL_NAME_MAX])seen, c->body_names, nseen,
                             &nn);
    free(seen);
    if (rc) return rc;
    snprintf(v->name, sizeof v->name, "%s", v->id);
    c->body_names[m->nbodies] = nn;
  } else {
    snprintf(v->id, sizeof v->id, "vessel");
    if ((rc = ld_get_string(&s, "name", true, v->name, sizeof v->name))) return rc;
  }
  int axes = ld_choice_default(&s, "axes");
  if ((rc = ld_get_choice(&s, "axes", &axes))) return rc;
  const bool ned = axes == 1;
  double mass = 0.0, cg[3] = {0, 0, 0};
  if ((rc = read_vessel_mass(&s, ned, V, &mass, cg))) return rc;
  if ((rc = read_weight(&s, mass, cg, V))) return rc;
  const PlYNode *where = NULL;
  char path[PATH_CAP];
  if ((rc = ld_get_matrix(&s, "linear_damping", kDampingUnits, V->Dp, &where))) return rc;
  if (where) {
    if (ned) ned_matrix6(V->Dp);
    ld_join_key(path, sizeof path, s.path, "linear_damping");
    if ((rc = vessel_check_at(s.err, V, where, path))) return rc;
  }
  const ListSpec dq = ld_split_list(ld_spec_of(&s, "quadratic_damping"), "N s^2/m^2", "N m s^2",
                                 "N s^2/m^2 for surge, sway, heave; N m s^2 for roll, pitch, yaw");
  if ((rc = ld_get_list_spec(&s, "quadratic_damping", 6, &dq, V->Dq, NULL))) return rc;
  const PlYNode *norm_rate_given = NULL;
  if ((rc = ld_get_number(&s, "norm_rate", &V->norm_rate, &norm_rate_given))) return rc;
  if ((rc = read_restoring(&s, V))) return rc;
  if ((rc = read_spring(&s, V))) return rc;
  if ((rc = read_yaw_spring(&s, V))) return rc;
  if ((rc = read_hull(&s, v))) return rc;
  if ((rc = read_vessel_initial(c, &s, ned, v))) return rc;
  if (!norm_rate_given) V->norm_rate = PlVesselNormRateDefault(v->angular_velocity);
  if ((rc = read_hang_off(c, &s, ned, v))) return rc;
  if ((rc = read_environment_load(c, &s, ned, v))) return rc;
  if ((rc = read_dp(&s, v))) return rc;
  if ((rc = read_raos(c, &s, m, ned, v))) return rc;
  char msg[512];
  if (PlVesselCheck(V, msg, sizeof msg) != 0) return ld_at(s.err, s.anchor, s.path, "%s", msg);
  return 0;
}

/* vessel: the body at the top of the line, or (no line) the one body of the model. */
int ld_read_vessel(Ctx *c, const Scope *top, PlModel *m)
{
  Scope s;
  bool present;
  int rc = ld_open_child(top, "vessel", &s, &present);
  if (rc || !present) return rc;
  if (!c->body_only) return read_body(c, &s, m, false, &m->vessel);
  free(m->bodies);
  m->nbodies = 0;
  if (!(m->bodies = ld_alloc(1, sizeof *m->bodies))) return ld_at(s.err, s.anchor, s.path, "out of memory");
  ld_body_defaults(m, &m->bodies[0]);
  if ((rc = read_body(c, &s, m, false, &m->bodies[0]))) {
    ld_body_free(&m->bodies[0]); /* not counted in nbodies yet */
    return rc;
  }
  m->nbodies = 1;
  return 0;
}

/* bodies: the rigid bodies of a model without a line. */
int ld_read_bodies(Ctx *c, const Scope *top, PlModel *m)
{
  char path[PATH_CAP];
  const PlYNode *list;
  int rc0 = ld_open_list(c->err, top, "bodies", false, "bodies (each with name, mass, ...)", &list, path);
  if (rc0 || !list) return rc0;
  free(m->bodies);
  m->nbodies = 0;
  if (!(m->bodies = ld_alloc(list->nitems, sizeof *m->bodies)))
    return ld_at(c->err, list, path, "out of memory (%zu bodies)", list->nitems);
  for (size_t i = 0; i < list->nitems; i++) ld_body_defaults(m, &m->bodies[i]);
  for (size_t i = 0; i < list->nitems; i++) {
    char ip[PATH_CAP];
    ld_join_index(ip, sizeof ip, path, i);
    Scope s;
    int rc = ld_open_scope(c->err, list->items[i], list->items[i], ip, &s);
    if (rc) return rc;
    if ((rc = read_body(c, &s, m, true, &m->bodies[i]))) {
      ld_body_free(&m->bodies[i]); /* not counted in nbodies yet */
      return rc;
    }
    m->nbodies = (int)i + 1;
  }
  return 0;
}
