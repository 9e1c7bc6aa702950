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

static int CmpDouble(const void *a, const void *b)
{
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The distinct values of v[k * stride] (k < n) in increasing order into out (malloc'd);
 * returns their count, or -1 out of memory. */
static int Distinct(const double *v, int n, int stride, double **out)
{
  double *d = malloc((size_t)n * sizeof *d);
  if (!d) return -1;
  for (int k = 0; k < n; ++k) d[k] = v[(size_t)k * stride];
  qsort(d, (size_t)n, sizeof *d, CmpDouble);
  int u = 0;
  for (int k = 0; k < n; ++k)
    if (u == 0 || d[k] != d[u - 1]) d[u++] = d[k];
  *out = d;
  return u;
}

/* The index of value v on the regular axis a0 + i h (i < n) when it is one of its points
 * (to 1e-6 of h, the regularity test's tolerance), else -1. */
static int AxisIndex(double v, double a0, double h, int n)
{
  const double r = (v - a0) / h;
  const long i = lround(r);
  return i >= 0 && i < n && fabs(r - (double)i) <= 1e-6 ? (int)i : -1;
}

/* seabed.bathymetry: the CSV grid x,y,depth (m) into m->bathymetry: the distinct x and y
 * values must be evenly spaced (to 1e-6 of the spacing), at least 2 of each; every point of
 * the product grid present exactly once; depth > 0 (the seabed below the sea surface). */
static int read_bathymetry(const Ctx *c, const Scope *bs, PlModel *m)
{
  double *t = NULL, *xs = NULL, *ys = NULL;
  int *lines = NULL, nrows = 0, ncols = 0, rc;
  if ((rc = ld_read_csv_file(c, bs, &kBathymetryCsv, m->bathymetry_file, sizeof m->bathymetry_file, &t, &nrows,
                             &ncols, &lines)))
    return rc;
  char key[PATH_CAP], file[2 * PL_PATH_MAX];
  ld_join_key(key, sizeof key, bs->path, "file");
  ld_resolve_path(c->model_path, m->bathymetry_file, file, sizeof file);
  const PlYNode *fnode = ld_value_of(bs, "file");
  PlBathymetry *b = NULL;
  const int nx = Distinct(t, nrows, 3, &xs), ny = nx < 0 ? -1 : Distinct(t + 1, nrows, 3, &ys);
  if (nx < 0 || ny < 0) {
    rc = ld_at(c->err, fnode, key, "cannot read '%s': out of memory", m->bathymetry_file);
    goto done;
  }
  for (int k = 0; k < nrows; ++k)
    if (!(t[3 * k + 2] > 0.0)) {
      rc = ld_report(c->err, file, lines[k], 1, key,
                     "depth (the third field) must be greater than 0 m (the seabed below the sea surface), got %.10g", t[3 * k + 2]);
      goto done;
    }
  if (nx < 2 || ny < 2) {
    rc = ld_at(c->err, fnode, key, "'%s' holds %d distinct x and %d distinct y: a grid needs at least 2 of each",
               m->bathymetry_file, nx, ny);
    goto done;
  }
  const double dx = (xs[nx - 1] - xs[0]) / (nx - 1), dy = (ys[ny - 1] - ys[0]) / (ny - 1);
  for (int a = 0; a < 2; ++a) {
    const double *v = a ? ys : xs, h = a ? dy : dx;
    const int n = a ? ny : nx;
    for (int i = 1; i < n; ++i)
      if (fabs(v[i] - v[0] - i * h) > 1e-6 * h) {
        rc = ld_at(c->err, fnode, key,
                   "the grid of '%s' is not regular: %s = %.10g is not on the even spacing %.10g m from %.10g "
                   "(a bathymetry grid needs evenly spaced x and y)",
                   m->bathymetry_file, a ? "y" : "x", v[i], h, v[0]);
        goto done;
      }
  }
  b = calloc(1, sizeof *b);
  const size_t np = (size_t)nx * ny;
  double *block = b ? malloc(4 * np * sizeof *block) : NULL;
  int *seen = block ? calloc(np, sizeof *seen) : NULL; /* each point's line, 0 not yet */
  if (!seen) {
    free(block);
    rc = ld_at(c->err, fnode, key, "cannot read '%s': out of memory (%d x %d grid)", m->bathymetry_file, nx, ny);
    goto done;
  }
  *b = (PlBathymetry){nx, ny, xs[0], ys[0], dx, dy, block, block + np, block + 2 * np, block + 3 * np};
  for (int k = 0; k < nrows && !rc; ++k) {
    const int i = AxisIndex(t[3 * k], xs[0], dx, nx), j = AxisIndex(t[3 * k + 1], ys[0], dy, ny);
    if (i < 0 || j < 0) {
      rc = ld_report(c->err, file, lines[k], 1, key, "the point (%.10g, %.10g) is not on the grid's even spacing",
                     t[3 * k], t[3 * k + 1]);
      break;
    }
    const size_t q = (size_t)j * nx + i;
    if (seen[q])
      rc = ld_report(c->err, file, lines[k], 1, key, "the grid point (%.10g, %.10g) is given twice (first on line %d)",
                     t[3 * k], t[3 * k + 1], seen[q]);
    seen[q] = lines[k];
    b->z[q] = -t[3 * k + 2];
  }
  for (size_t q = 0; q < np && !rc; ++q)
    if (!seen[q])
      rc = ld_at(c->err, fnode, key,
                 "'%s' misses the grid point (%.10g, %.10g): every (x, y) of its %d x %d grid needs a depth",
                 m->bathymetry_file, xs[q % nx], ys[q / nx], nx, ny);
  free(seen);
  if (rc) {
    free(block);
    goto done;
  }
  PlBathymetrySlopes(b);
  m->bathymetry = b;
  b = NULL;
done:
  free(b);
  free(t);
  free(lines);
  free(xs);
  free(ys);
  return rc;
}

/* seabed: model, (linear only) stiffness and (not with none) damping; a slope or a grid. */
int ld_read_seabed(const Ctx *c, const Scope *top, PlModel *m)
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
  const PlYPair *pb = ld_pair_of(&s, "bathymetry");
  if (pb && has_slope) {
    char path[PATH_CAP];
    ld_join_key(path, sizeof path, s.path, "bathymetry");
    return ld_at(s.err, pb->key, path, "cannot be given with slope: give the sloped plane's depths in the grid, or "
                                       "remove one of them");
  }
  if (pb) {
    Scope bs;
    bool has_b;
    if ((rc = ld_open_child(&s, "bathymetry", &bs, &has_b)) || (rc = read_bathymetry(c, &bs, m))) return rc;
  }
  Scope fs;
  bool has_f;
  if ((rc = ld_open_child(&s, "friction", &fs, &has_f))) return rc;
  if (has_f) {
    if (m->seabed == PL_SEABED_NONE) {
      char path[PATH_CAP];
      ld_join_key(path, sizeof path, s.path, "friction");
      return ld_at(s.err, ld_pair_of(&s, "friction")->key, path, "is not used without a seabed (model is 'none')");
    }
    m->friction = true;
    double dl = 0.0;
    const PlYNode *has_dl = NULL;
    if ((rc = ld_get_number_if(&fs, "axial", true, &m->friction_axial, NULL)) ||
        (rc = ld_get_number_if(&fs, "lateral", true, &m->friction_lateral, NULL)) ||
        (rc = ld_get_number(&fs, "mobilisation_axial", &m->mobilisation_axial, NULL)) ||
        (rc = ld_get_number_if(&fs, "mobilisation_lateral", false, &dl, &has_dl)))
      return rc;
    m->mobilisation_lateral = has_dl ? dl : 0.0;
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

/* current.table: 2 or more rows [z, speed], z <= 0 strictly increasing, speed >= 0. */
static int read_current_table(const Scope *s, PlCurrent *c)
{
  const PlYNode *n = ld_value_of(s, "table");
  char path[PATH_CAP];
  ld_join_key(path, sizeof path, s->path, "table");
  if (n->kind != PL_YNODE_SEQ || n->nitems < 2)
    return ld_at(s->err, n, path,
              "expected a list of at least 2 rows [z, speed] (m, m/s), found %s", ld_found(n).s);
  free(c->table_z);
  free(c->table_speed);
  c->ntable = 0;
  c->table_z = ld_alloc(n->nitems, sizeof *c->table_z);
  c->table_speed = ld_alloc(n->nitems, sizeof *c->table_speed);
  if (!c->table_z || !c->table_speed) return ld_at(s->err, n, path, "out of memory (%zu rows)", n->nitems);
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
