/*
 * loader_waves.c - the reader of waves: (the sea of a dynamic analysis): the stretching, the
 * trains (PlWaveTrain, pipelay/models.h) and the probes of waves.csv. The sea is built once
 * here (PlWavesCreate) so that what it refuses (a stream-function wave that does not converge,
 * a spectrum without energy in its range, ...) is reported at the waves key.
 */
#include "loader_impl.h"
#include "pipelay/waves.h"

/* The kinds a train's key is used by (bits of PlWaveKind); heading and kind are every kind's. */
#define KB(k) (1 << (k))
#define K_REGULAR (KB(PL_WAVE_AIRY) | KB(PL_WAVE_STREAM))
#define K_SPECTRUM (KB(PL_WAVE_JONSWAP) | KB(PL_WAVE_PM) | KB(PL_WAVE_TABLE))
static const struct {
  const char *key;
  int kinds;
} kTrainKeys[] = {{"height", K_REGULAR},
                  {"amplitude", KB(PL_WAVE_AIRY)},
                  {"period", K_REGULAR},
                  {"phase", K_REGULAR},
                  {"stream_terms", KB(PL_WAVE_STREAM)},
                  {"hs", KB(PL_WAVE_JONSWAP) | KB(PL_WAVE_PM)},
                  {"tp", KB(PL_WAVE_JONSWAP) | KB(PL_WAVE_PM)},
                  {"gamma", KB(PL_WAVE_JONSWAP)},
                  {"sigma_a", KB(PL_WAVE_JONSWAP)},
                  {"sigma_b", KB(PL_WAVE_JONSWAP)},
                  {"n_components", K_SPECTRUM},
                  {"omega_min", K_SPECTRUM},
                  {"omega_max", K_SPECTRUM | KB(PL_WAVE_SERIES)},
                  {"n_directions", K_SPECTRUM},
                  {"spreading_s", K_SPECTRUM},
                  {"seed", K_SPECTRUM},
                  {"rayleigh", K_SPECTRUM},
                  {"table", KB(PL_WAVE_TABLE)},
                  {"file", KB(PL_WAVE_SERIES)},
                  {"elevations", KB(PL_WAVE_SERIES)},
                  {"dt", KB(PL_WAVE_SERIES)},
                  {"t0", KB(PL_WAVE_SERIES)},
                  {"reference", KB(PL_WAVE_SERIES)}};

/* A measured record (waves.trains[*].file): t [s] increasing, eta [m]. */
static const CsvFormat kWaveCsv = {{"t", "eta", "", "", "", "", ""}, 2, 2, true, "'t,eta'", "t,eta", "t,eta"};

/* The keys of s that kind does not use: an error at the first. */
static int reject_other_keys(const Scope *s, int kind)
{
  int rc = 0;
  for (size_t i = 0; !rc && i < sizeof kTrainKeys / sizeof kTrainKeys[0]; i++)
    if (!(kTrainKeys[i].kinds & KB(kind)))
      rc = ld_reject_key(s, kTrainKeys[i].key, "is not used by a train of kind '%s'", PlChoiceWaveKinds[kind]);
  return rc;
}

/* airy: height or amplitude (exactly one), period, phase; stream: height, period, phase, terms. */
static int read_regular(const Scope *s, PlWaveTrain *tr)
{
  const bool has_h = ld_pair_of(s, "height") != NULL, has_a = ld_pair_of(s, "amplitude") != NULL;
  int rc;
  if (tr->kind == PL_WAVE_AIRY && has_h && has_a)
    return ld_reject_key(s, "amplitude", "give either height or amplitude, not both");
  if (tr->kind == PL_WAVE_AIRY && !has_h && !has_a) return ld_missing(s, "height", "m", " (or amplitude)");
  if ((rc = ld_get_number_if(s, "height", tr->kind == PL_WAVE_STREAM, &tr->height, NULL)) ||
      (rc = ld_get_number_if(s, "amplitude", false, &tr->amplitude, NULL)) ||
      (rc = ld_get_number_if(s, "period", true, &tr->period, NULL)) ||
      (rc = ld_get_number(s, "phase", &tr->phase_deg, NULL)))
    return rc;
  tr->stream_terms = 0;
  return ld_get_int(s, "stream_terms", &tr->stream_terms);
}

/* table: 2 or more rows [omega, S], omega strictly increasing, S >= 0. The arrays are tr's
 * (the model's) from their allocation on. */
static int read_spectrum_table(const Scope *s, PlWaveTrain *tr)
{
  const PlYNode *n = ld_value_of(s, "table");
  char path[PATH_CAP];
  ld_join_key(path, sizeof path, s->path, "table");
  if (!n) return ld_missing(s, "table", NULL, " (a list of rows [omega, S] in rad/s and m^2 s/rad)");
  if (n->kind != PL_YNODE_SEQ || n->nitems < 2)
    return ld_at(s->err, n, path, "expected a list of at least 2 rows [omega, S] (rad/s, m^2 s/rad), found %s",
                 ld_found(n).s);
  double *omega = ld_alloc(n->nitems, sizeof *omega), *S = ld_alloc(n->nitems, sizeof *S);
  tr->table_omega = omega, tr->table_s = S;
  if (!omega || !S) return ld_at(s->err, n, path, "out of memory (%zu rows)", n->nitems);
  const ListSpec row = {1, "rad/s", "m^2 s/rad", kNonNegative, kNonNegative, "omega, S in rad/s and m^2 s/rad"};
  for (size_t i = 0; i < n->nitems; i++) {
    char rp[PATH_CAP];
    ld_join_index(rp, sizeof rp, path, i);
    double v[2];
    int rc = ld_parse_list(s->err, n->items[i], rp, 2, &row, v);
    if (rc) return rc;
    if (i > 0 && !(v[0] > omega[i - 1]))
      return ld_at(s->err, n->items[i], rp, "omega must increase from row to row: must be greater than %.10g rad/s "
                   "(the omega of row %zu), got %.10g", omega[i - 1], i - 1, v[0]);
    omega[i] = v[0], S[i] = v[1];
  }
  tr->n_table = (int)n->nitems;
  return 0;
}

/* jonswap, pm, table: the spectrum's parameters and the synthesis'. */
static int read_spectrum(const Scope *s, PlWaveTrain *tr)
{
  int rc;
  const bool jp = tr->kind != PL_WAVE_TABLE;
  if ((rc = ld_get_number_if(s, "hs", jp, &tr->hs, NULL)) || (rc = ld_get_number_if(s, "tp", jp, &tr->tp, NULL)))
    return rc;
  tr->gamma = 0.0; /* DNV's rule (PlJonswapGamma) */
  tr->sigma_a = PlSchemaDefault("waves.trains[*].sigma_a");
  tr->sigma_b = PlSchemaDefault("waves.trains[*].sigma_b");
  tr->n_components = (int)PlSchemaDefault("waves.trains[*].n_components");
  tr->n_directions = (int)PlSchemaDefault("waves.trains[*].n_directions");
  tr->omega_min = tr->omega_max = 0.0; /* PlWavesCreate's defaults */
  int seed = 0, ray = ld_choice_default(s, "rayleigh");
  if ((rc = ld_get_number(s, "gamma", &tr->gamma, NULL)) || (rc = ld_get_number(s, "sigma_a", &tr->sigma_a, NULL)) ||
      (rc = ld_get_number(s, "sigma_b", &tr->sigma_b, NULL)) || (rc = ld_get_int(s, "n_components", &tr->n_components)) ||
      (rc = ld_get_number(s, "omega_min", &tr->omega_min, NULL)) ||
      (rc = ld_get_number(s, "omega_max", &tr->omega_max, NULL)) ||
      (rc = ld_get_int(s, "n_directions", &tr->n_directions)) || (rc = ld_get_choice(s, "rayleigh", &ray)))
    return rc;
  if (!ld_pair_of(s, "seed")) return ld_missing(s, "seed", NULL, " (an integer: the same seed, the same sea)");
  if ((rc = ld_get_int(s, "seed", &seed))) return rc;
  tr->seed = (uint64_t)seed;
  tr->rayleigh = ray;
  if (tr->n_directions > 1) {
    if ((rc = ld_get_number_if(s, "spreading_s", true, &tr->spreading_s, NULL))) return rc;
  } else if ((rc = ld_reject_key(s, "spreading_s", "is only used with n_directions > 1 (a short-crested sea)")))
    return rc;
  return tr->kind == PL_WAVE_TABLE ? read_spectrum_table(s, tr) : 0;
}

/* series: a record from file (t,eta, evenly spaced) or elevations with dt and t0; the
 * reference point and the harmonics kept. The record is tr's (the model's) from its allocation on. */
static int read_series(const Ctx *c, const Scope *s, PlWaveTrain *tr)
{
  double *eta = NULL;
  const bool has_f = ld_pair_of(s, "file") != NULL, has_e = ld_pair_of(s, "elevations") != NULL;
  double ref[2] = {0.0, 0.0};
  int rc;
  if (has_f == has_e)
    return has_f ? ld_reject_key(s, "elevations", "give the record either as file or as elevations, not both")
                 : ld_missing(s, "file", NULL, " (or elevations with dt)");
  if ((rc = ld_get_list(s, "reference", ref, NULL)) || (rc = ld_get_number(s, "omega_max", &tr->series_omega_max, NULL)))
    return rc;
  tr->ref_x = ref[0], tr->ref_y = ref[1];
  if (has_e) {
    const PlYNode *n = ld_value_of(s, "elevations");
    char path[PATH_CAP];
    ld_join_key(path, sizeof path, s->path, "elevations");
    if (n->kind != PL_YNODE_SEQ || n->nitems < 4)
      return ld_at(s->err, n, path, "expected a list of 4 or more elevations (m), found %s", ld_found(n).s);
    if (!(tr->series_eta = eta = ld_alloc(n->nitems, sizeof *eta))) return ld_at(s->err, n, path, "out of memory");
    const ListSpec sp = {0, "m", "m", kAny, kAny, "m"};
    if ((rc = ld_parse_list(s->err, n, path, n->nitems, &sp, eta)) ||
        (rc = ld_get_number_if(s, "dt", true, &tr->series_dt, NULL)) ||
        (rc = ld_get_number(s, "t0", &tr->series_t0, NULL)))
      return rc;
    tr->n_series = (int)n->nitems;
    return 0;
  }
  if ((rc = ld_reject_key(s, "dt", "is read from the file's t column (give it with elevations)")) ||
      (rc = ld_reject_key(s, "t0", "is read from the file's t column (give it with elevations)")))
    return rc;
  char name[PL_PATH_MAX];
  double *t = NULL;
  int nrows = 0, ncols = 0, *lines = NULL;
  if ((rc = ld_read_csv_file(c, s, &kWaveCsv, name, sizeof name, &t, &nrows, &ncols, &lines))) return rc;
  const PlYNode *fnode = ld_value_of(s, "file");
  char key[PATH_CAP];
  ld_join_key(key, sizeof key, s->path, "file");
  if (nrows < 4) rc = ld_at(s->err, fnode, key, "'%s' holds %d rows: a record needs 4 or more", name, nrows);
  const double dt = nrows >= 2 ? (t[2 * (nrows - 1)] - t[0]) / (nrows - 1) : 0.0;
  for (int k = 1; !rc && k < nrows; k++)
    if (fabs(t[2 * k] - t[0] - k * dt) > 1e-6 * dt) {
      char file[2 * PL_PATH_MAX];
      ld_resolve_path(c->model_path, name, file, sizeof file);
      rc = ld_report(s->err, file, lines[k], 1, key,
                     "t = %.10g is not on the even spacing %.10g s from %.10g (a record needs evenly spaced t)",
                     t[2 * k], dt, t[0]);
    }
  if (!rc && !(tr->series_eta = eta = ld_alloc((size_t)nrows, sizeof *eta)))
    rc = ld_at(s->err, fnode, key, "out of memory");
  if (!rc) {
    for (int k = 0; k < nrows; k++) eta[k] = t[2 * k + 1];
    tr->n_series = nrows, tr->series_dt = dt, tr->series_t0 = t[0];
  }
  free(t);
  free(lines);
  return rc;
}

/* One train (an item of waves.trains at path ip) into tr. */
static int read_train(const Ctx *c, const PlYNode *item, const char *ip, PlWaveTrain *tr)
{
  Scope s;
  int rc = ld_open_scope(c->err, item, item, ip, &s), kind = 0;
  if (rc) return rc;
  if (!ld_pair_of(&s, "kind")) return ld_missing(&s, "kind", NULL, " (airy, stream, jonswap, pm, table or series)");
  if ((rc = ld_get_choice(&s, "kind", &kind)) || (rc = reject_other_keys(&s, kind))) return rc;
  tr->kind = (PlWaveKind)kind;
  if ((rc = ld_get_number(&s, "heading", &tr->heading_deg, NULL))) return rc;
  switch (tr->kind) {
  case PL_WAVE_AIRY:
  case PL_WAVE_STREAM: return read_regular(&s, tr);
  case PL_WAVE_SERIES: return read_series(c, &s, tr);
  default: return read_spectrum(&s, tr);
  }
}

/* waves.probes: rows [x, y] into sea->probes. */
static int read_probes(const Scope *s, PlSea *sea)
{
  const PlYNode *n = ld_value_of(s, "probes");
  if (!n) return 0;
  char path[PATH_CAP];
  ld_join_key(path, sizeof path, s->path, "probes");
  if (n->kind != PL_YNODE_SEQ || n->nitems < 1)
    return ld_at(s->err, n, path, "expected a list of points [x, y] (m), found %s", ld_found(n).s);
  if (!(sea->probes = ld_alloc(n->nitems, sizeof *sea->probes))) return ld_at(s->err, n, path, "out of memory");
  const ListSpec xy = {0, "m", "m", kAny, kAny, "x, y in m"};
  for (size_t i = 0; i < n->nitems; i++) {
    char ip[PATH_CAP];
    ld_join_index(ip, sizeof ip, path, i);
    const int rc = ld_parse_list(s->err, n->items[i], ip, 2, &xy, sea->probes[i]);
    if (rc) return rc;
    sea->nprobes = (int)i + 1;
  }
  return 0;
}

/* The sea as PlWavesCreate builds it: its refusal as the waves key's message. */
static int check_sea(const Scope *s, const PlModel *m)
{
  char msg[PL_ERRMSG_MAX];
  PlWaves *w = PlWavesCreate(m->water_depth, m->gravity, m->water_density, m->sea.stretching, m->sea.trains,
                             m->sea.ntrains, msg, sizeof msg);
  if (w) {
    const int bad_ramp = PlWavesSetRamp(w, m->sea.ramp_time);
    PlWavesDestroy(w);
    if (!bad_ramp) return 0;
    char key[PATH_CAP];
    ld_join_key(key, sizeof key, s->path, "ramp_time");
    return ld_at(s->err, ld_value_of(s, "ramp_time"), key,
                 "ramps the amplitudes of a linear sea: a stream-function wave (not a sum of components) "
                 "cannot be ramped; give 0");
  }
  const char *why = strncmp(msg, "waves: ", 7) ? msg : msg + 7; /* (the key names it) */
  return ld_at(s->err, s->anchor, s->path, "%s", why);
}

int ld_read_waves(const Ctx *c, const Scope *top, PlModel *m)
{
  Scope s;
  bool present;
  int rc = ld_open_child(top, "waves", &s, &present);
  if (rc || !present) return rc;
  PlSea *sea = &m->sea;
  int st = ld_choice_default(&s, "stretching");
  if ((rc = ld_get_choice(&s, "stretching", &st))) return rc;
  sea->stretching = (PlWaveStretching)st;
  if ((rc = ld_get_number(&s, "ramp_time", &sea->ramp_time, NULL))) return rc;
  const PlYNode *list = NULL;
  char path[PATH_CAP];
  if ((rc = ld_open_list(c->err, &s, "trains", false, "trains {kind, ...}", &list, path))) return rc;
  if (!list) return ld_missing(&s, "trains", NULL, " (a list of wave trains)");
  if (!(sea->trains = ld_alloc(list->nitems, sizeof *sea->trains)))
    return ld_at(c->err, list, path, "out of memory (%zu trains)", list->nitems);
  for (size_t i = 0; i < list->nitems; i++) {
    char ip[PATH_CAP];
    ld_join_index(ip, sizeof ip, path, i);
    sea->ntrains = (int)i + 1; /* its arrays are the model's (PlModelFree) as soon as they exist */
    if ((rc = read_train(c, list->items[i], ip, &sea->trains[i]))) return rc;
  }
  if ((rc = read_probes(&s, sea))) return rc;
  return check_sea(&s, m);
}
