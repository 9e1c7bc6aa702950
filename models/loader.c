/*
 * loader.c - reads a model file (YAML) into a PlModel, with --set overrides and strict
 * validation. The schema is documented key by key in docs/model-file.md.
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
 *      positions) run, and PlModel is filled.
 * Every user error returns 2 with one line "FILE:LINE:COL: key.path: what is wrong" in
 * PlError. No global state; all memory is released before returning.
 */
#include "pipelay/models.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "yaml_tree.h"

static const double kPi = 3.14159265358979323846;

#define PATH_CAP 256 /* key paths in messages; longer ones are cut */

/* ---- messages ------------------------------------------------------------------------- */

/* A short, printable rendering of a piece of user text for messages. */
typedef struct {
  char s[128];
} Txt;

/* Appends s to the NUL-terminated buf (capacity cap), cutting it to fit. */
static void cat(char *buf, size_t cap, const char *s)
{
  size_t used = strlen(buf);
  if (used + 1 >= cap) return;
  size_t n = strlen(s);
  if (n > cap - 1 - used) n = cap - 1 - used;
  memcpy(buf + used, s, n);
  buf[used + n] = '\0';
}

/* Copies at most max (<= 120) bytes of s[0..len) into a Txt, control bytes shown as '?',
 * with "..." when cut (never in the middle of a UTF-8 sequence). */
static Txt clip_n(const char *s, size_t len, size_t max)
{
  Txt t;
  if (max > 120) max = 120;
  size_t n = len > max ? max : len;
  if (n < len)
    while (n > 0 && ((unsigned char)s[n] & 0xC0u) == 0x80u) n--;
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)s[i];
    t.s[i] = (ch < 0x20u || ch == 0x7Fu) ? '?' : (char)ch;
  }
  t.s[n] = '\0';
  if (n < len) strcat(t.s, "...");
  return t;
}

/* clip_n() at 48 bytes: user values in messages. */
static Txt clip(const char *s, size_t len)
{
  return clip_n(s, len, 48);
}

/* What a node is, for "found ..." in messages: null, 'text', the quoted string 'text',
 * a mapping, a list of N items. */
static Txt found(const PlYNode *n)
{
  Txt t;
  if (!n) {
    snprintf(t.s, sizeof t.s, "nothing");
  } else if (n->kind == PL_YNODE_MAP) {
    snprintf(t.s, sizeof t.s, "a mapping");
  } else if (n->kind == PL_YNODE_SEQ) {
    snprintf(t.s, sizeof t.s, "a list of %zu item%s", n->nitems, n->nitems == 1 ? "" : "s");
  } else if (PlYIsNull(n)) {
    snprintf(t.s, sizeof t.s, "null");
  } else {
    Txt c = clip(n->text, n->len);
    t.s[0] = '\0';
    cat(t.s, sizeof t.s, n->plain ? "'" : "the quoted string '");
    cat(t.s, sizeof t.s, c.s);
    cat(t.s, sizeof t.s, "'");
  }
  return t;
}

/* The node's own text, clipped, for "got ..." in messages. */
static Txt got(const PlYNode *n)
{
  if (n && n->kind == PL_YNODE_SCALAR) return clip(n->text, n->len);
  return found(n);
}

/* Replaces every control byte of msg by '?' so that the message stays one line. */
static void one_line(char *msg)
{
  for (char *p = msg; *p; p++)
    if ((unsigned char)*p < 0x20u || (unsigned char)*p == 0x7Fu) *p = '?';
}

/* Writes "SRC:LINE:COL: PATH: <fmt...>" into err; returns 2 (the user-error code). */
static int vreport(PlError *err, const char *src, int line, int col, const char *path,
                   const char *fmt, va_list ap)
{
  if (!err) return 2;
  int n = snprintf(err->msg, sizeof err->msg, "%s:%d:%d: %s: ", src ? src : "(input)", line,
                   col, (path && path[0]) ? path : "(document)");
  if (n >= 0 && (size_t)n < sizeof err->msg)
    vsnprintf(err->msg + n, sizeof err->msg - (size_t)n, fmt, ap);
  one_line(err->msg);
  return 2;
}

/* report() with an explicit place. */
static int report(PlError *err, const char *src, int line, int col, const char *path,
                  const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int rc = vreport(err, src, line, col, path, fmt, ap);
  va_end(ap);
  return rc;
}

/* report() at node n's place. */
static int at(PlError *err, const PlYNode *n, const char *path, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int rc = vreport(err, n->source, n->line, n->col, path, fmt, ap);
  va_end(ap);
  return rc;
}

/* ---- key paths ------------------------------------------------------------------------ */

/* buf = parent "." key (or key alone at the top level), cut to cap. */
static void join_key(char *buf, size_t cap, const char *parent, const char *key)
{
  buf[0] = '\0';
  if (parent && parent[0]) {
    cat(buf, cap, parent);
    cat(buf, cap, ".");
  }
  cat(buf, cap, key);
}

/* buf = parent "[i]", cut to cap. */
static void join_index(char *buf, size_t cap, const char *parent, size_t i)
{
  char idx[32];
  snprintf(idx, sizeof idx, "[%zu]", i);
  buf[0] = '\0';
  cat(buf, cap, parent);
  cat(buf, cap, idx);
}

/* ---- the schema: which keys each mapping takes ----------------------------------------- */

typedef enum {
  SCH_LEAF = 0, /* a value without keys (scalar or list of scalars) */
  SCH_TOP,
  SCH_ENV,
  SCH_LINE,
  SCH_SECTIONS, /* list of SCH_SECTION */
  SCH_SECTION,
  SCH_MATERIAL,
  SCH_SEABED,
  SCH_MESH,
  SCH_ZONES, /* list of SCH_ZONE */
  SCH_ZONE,
  SCH_ENDS,
  SCH_END,
  SCH_ANALYSIS,
  SCH_OUTPUT
} Schema;

static const char *const kTopKeys[] = {"name", "environment", "line", "seabed", "mesh",
                                       "rotation", "ends", "analysis", "output", NULL};
static const char *const kEnvKeys[] = {"water_depth", "water_density", "gravity", NULL};
static const char *const kLineKeys[] = {"length", "sections", NULL};
static const char *const kSectionKeys[] = {
    "length", "outer_diameter", "hydrodynamic_diameter", "wall_thickness", "material",
    "contents_density", "shear_coefficient", "EA", "EI", "EI2", "EI3", "GJ", "GA",
    "mass_per_length", "rotary_inertia", "radius_of_gyration", NULL};
static const char *const kMaterialKeys[] = {"youngs_modulus", "shear_modulus",
                                            "poissons_ratio", "density", NULL};
static const char *const kSeabedKeys[] = {"model", "stiffness", NULL};
static const char *const kMeshKeys[] = {"elements", "target_length", "zones", NULL};
static const char *const kZoneKeys[] = {"from", "to", "target_length", NULL};
static const char *const kEndsKeys[] = {"bottom", "top", NULL};
static const char *const kEndKeys[] = {"position", "orientation", "fixed", "force", "moment",
                                       NULL};
static const char *const kAnalysisKeys[] = {"type", "load_steps", "max_cutbacks",
                                            "max_iterations", "rtol", "atol",
                                            "initial_guess", "petsc_options", NULL};
static const char *const kOutputKeys[] = {"directory", NULL};

/* Section keys of the pipe form and of the explicit form (the rest are common). */
static const char *const kPipeOnlyKeys[] = {"wall_thickness", "material", "contents_density",
                                            "shear_coefficient", NULL};
static const char *const kExplicitOnlyKeys[] = {"EA", "EI", "EI2", "EI3", "GJ", "GA",
                                                "mass_per_length", "rotary_inertia",
                                                "radius_of_gyration", NULL};

/* The keys a mapping of schema s accepts (NULL for lists and leaves). */
static const char *const *schema_keys(Schema s)
{
  switch (s) {
  case SCH_TOP: return kTopKeys;
  case SCH_ENV: return kEnvKeys;
  case SCH_LINE: return kLineKeys;
  case SCH_SECTION: return kSectionKeys;
  case SCH_MATERIAL: return kMaterialKeys;
  case SCH_SEABED: return kSeabedKeys;
  case SCH_MESH: return kMeshKeys;
  case SCH_ZONE: return kZoneKeys;
  case SCH_ENDS: return kEndsKeys;
  case SCH_END: return kEndKeys;
  case SCH_ANALYSIS: return kAnalysisKeys;
  case SCH_OUTPUT: return kOutputKeys;
  default: return NULL;
  }
}

/* The schema of the value under key in a mapping of schema parent. */
static Schema schema_child(Schema parent, const char *key)
{
  static const struct {
    Schema parent;
    const char *key;
    Schema child;
  } kChildren[] = {
      {SCH_TOP, "environment", SCH_ENV}, {SCH_TOP, "line", SCH_LINE},
      {SCH_TOP, "seabed", SCH_SEABED},   {SCH_TOP, "mesh", SCH_MESH},
      {SCH_TOP, "ends", SCH_ENDS},       {SCH_TOP, "analysis", SCH_ANALYSIS},
      {SCH_TOP, "output", SCH_OUTPUT},   {SCH_LINE, "sections", SCH_SECTIONS},
      {SCH_SECTION, "material", SCH_MATERIAL}, {SCH_MESH, "zones", SCH_ZONES},
      {SCH_ENDS, "bottom", SCH_END},     {SCH_ENDS, "top", SCH_END},
  };
  for (size_t i = 0; i < sizeof kChildren / sizeof kChildren[0]; i++)
    if (kChildren[i].parent == parent && strcmp(kChildren[i].key, key) == 0)
      return kChildren[i].child;
  return SCH_LEAF;
}

/* The schema of an item of a list of schema s. */
static Schema schema_item(Schema s)
{
  return s == SCH_SECTIONS ? SCH_SECTION : s == SCH_ZONES ? SCH_ZONE : SCH_LEAF;
}

/* Index of name in a NULL-terminated list, or -1. */
static int name_index(const char *const *names, const char *name)
{
  for (int i = 0; names[i]; i++)
    if (strcmp(names[i], name) == 0) return i;
  return -1;
}

/* "a, b, c" into buf. */
static void list_names(char *buf, size_t cap, const char *const *names)
{
  buf[0] = '\0';
  size_t used = 0;
  for (int i = 0; names[i]; i++) {
    int n = snprintf(buf + used, cap - used, "%s%s", i ? ", " : "", names[i]);
    if (n < 0 || (size_t)n >= cap - used) break;
    used += (size_t)n;
  }
}

/* ---- scopes: one validated mapping ----------------------------------------------------- */

/* A mapping being read: its node, where to point when a key is missing, its path. */
typedef struct {
  PlError *err;
  const PlYNode *map;
  const PlYNode *anchor; /* place of "missing required key" (the key naming the map) */
  char path[PATH_CAP];
} Scope;

/* Opens node n (found at path; anchor = the key that names it, or n) as a mapping that may
 * only hold keys from names, each once. Returns 0 or 2. */
static int open_scope(PlError *err, const PlYNode *n, const PlYNode *anchor, const char *path,
                      const char *const *names, Scope *s)
{
  s->err = err;
  s->map = n;
  s->anchor = anchor ? anchor : n;
  snprintf(s->path, sizeof s->path, "%s", path);
  char expect[512];
  list_names(expect, sizeof expect, names);
  if (n->kind != PL_YNODE_MAP)
    return at(err, n, path, "expected a mapping with keys %s; found %s", expect,
              found(n).s);
  for (size_t i = 0; i < n->npairs; i++) {
    const PlYNode *k = n->pairs[i].key;
    Txt kt = clip(k->text, k->len);
    char kp[PATH_CAP];
    join_key(kp, sizeof kp, path, kt.s);
    if (strlen(k->text) != k->len || name_index(names, k->text) < 0)
      return at(err, k, kp, "unknown key '%s' (expected one of: %s)", kt.s, expect);
    for (size_t j = 0; j < i; j++) /* at most one earlier entry per known name */
      if (strcmp(n->pairs[j].key->text, k->text) == 0)
        return at(err, k, kp, "duplicate key '%s' (first given at %s:%d:%d)", kt.s,
                  n->pairs[j].key->source, n->pairs[j].key->line, n->pairs[j].key->col);
  }
  return 0;
}

/* Of two pairs of one mapping, the one given later (file order; overrides that added a
 * key come after the file's keys). */
static const PlYPair *later_pair(const PlYPair *a, const PlYPair *b)
{
  return a > b ? a : b;
}

/* The pair of key in scope s, or NULL. */
static const PlYPair *pair_of(const Scope *s, const char *key)
{
  return PlYMapFind(s->map, key);
}

/* The value of key in scope s, or NULL. */
static const PlYNode *value_of(const Scope *s, const char *key)
{
  const PlYPair *p = pair_of(s, key);
  return p ? p->value : NULL;
}

/* "missing required key 'key' (unit)" at the scope's anchor. */
static int missing(const Scope *s, const char *key, const char *unit, const char *note)
{
  return at(s->err, s->anchor, s->path, "missing required key '%s'%s%s%s%s", key,
            (unit && unit[0]) ? " (" : "", (unit && unit[0]) ? unit : "",
            (unit && unit[0]) ? ")" : "", note ? note : "");
}

/* Opens the mapping under key of scope s as a child scope. *present tells whether the key
 * exists; a missing required key is an error. Returns 0 or 2. */
static int open_child(const Scope *s, const char *key, bool required,
                      const char *const *names, Scope *child, bool *present)
{
  const PlYPair *p = pair_of(s, key);
  *present = (p != NULL);
  if (!p) return required ? missing(s, key, NULL, NULL) : 0;
  char path[PATH_CAP];
  join_key(path, sizeof path, s->path, key);
  return open_scope(s->err, p->value, p->key, path, names, child);
}

/* ---- scalars -------------------------------------------------------------------------- */

/* True when s names infinity or NaN in any usual spelling (.inf, -Inf, nan, .NaN, ...). */
static bool nonfinite_word(const char *s)
{
  if (*s == '+' || *s == '-') s++;
  if (*s == '.') s++;
  char low[16];
  size_t i = 0;
  for (; s[i] && i < sizeof low - 1; i++) low[i] = (char)tolower((unsigned char)s[i]);
  low[i] = '\0';
  if (s[i]) return false;
  return strcmp(low, "inf") == 0 || strcmp(low, "infinity") == 0 || strcmp(low, "nan") == 0;
}

/* Parses scalar n (at path) as a finite number: plain style, only [0-9+-.eE], the whole
 * text consumed by strtod. Returns 0 or 2. */
static int parse_number(PlError *err, const PlYNode *n, const char *path, const char *unit,
                        double *out)
{
  const bool has_unit = unit && unit[0];
  if (n->kind != PL_YNODE_SCALAR || !n->plain || PlYIsNull(n))
    return at(err, n, path, "expected a number%s%s%s, found %s", has_unit ? " (" : "",
              has_unit ? unit : "", has_unit ? ")" : "", found(n).s);
  if (strlen(n->text) == n->len && nonfinite_word(n->text))
    return at(err, n, path, "expected a finite number, found '%s'", got(n).s);
  bool charset_ok = strlen(n->text) == n->len;
  for (size_t i = 0; charset_ok && i < n->len; i++)
    charset_ok = strchr("0123456789+-.eE", n->text[i]) != NULL;
  char *end = NULL;
  double v = 0.0;
  if (charset_ok) {
    errno = 0;
    v = strtod(n->text, &end);
  }
  if (!charset_ok || end != n->text + n->len)
    return at(err, n, path, "expected a number%s%s%s, found %s", has_unit ? " (" : "",
              has_unit ? unit : "", has_unit ? ")" : "", found(n).s);
  if (!isfinite(v))
    return at(err, n, path, "number out of range (not a finite double), found '%s'",
              got(n).s);
  *out = v;
  return 0;
}

/* Range of a number: lo/hi bounds, each strict or not; +-INFINITY for none. */
typedef struct {
  double lo, hi;
  bool lo_strict, hi_strict;
} Range;

static const Range kPositive = {0.0, INFINITY, true, false};
static const Range kNonNegative = {0.0, INFINITY, false, false};
static const Range kAny = {-INFINITY, INFINITY, false, false};

/* Checks v (from node n at path) against r; messages say the bound with its unit. */
static int check_range(PlError *err, const PlYNode *n, const char *path, const char *unit,
                       Range r, double v)
{
  const char *sp = (unit && unit[0]) ? " " : "";
  const char *u = unit ? unit : "";
  if (isfinite(r.lo) && (r.lo_strict ? !(v > r.lo) : !(v >= r.lo)))
    return at(err, n, path, "must be %s %.10g%s%s, got %s",
              r.lo_strict ? "greater than" : "at least", r.lo, sp, u, got(n).s);
  if (isfinite(r.hi) && (r.hi_strict ? !(v < r.hi) : !(v <= r.hi)))
    return at(err, n, path, "must be %s %.10g%s%s, got %s",
              r.hi_strict ? "less than" : "at most", r.hi, sp, u, got(n).s);
  return 0;
}

/* Reads number key of scope s into *out, checked against r. When absent: an error if
 * required, else *out is left as it is. *where (if not NULL) receives the value node or
 * NULL. Returns 0 or 2. */
static int get_number(const Scope *s, const char *key, const char *unit, bool required,
                      Range r, double *out, const PlYNode **where)
{
  const PlYNode *n = value_of(s, key);
  if (where) *where = n;
  if (!n) return required ? missing(s, key, unit, NULL) : 0;
  char path[PATH_CAP];
  join_key(path, sizeof path, s->path, key);
  double v;
  int rc = parse_number(s->err, n, path, unit, &v);
  if (rc) return rc;
  rc = check_range(s->err, n, path, unit, r, v);
  if (rc) return rc;
  *out = v;
  return 0;
}

/* Reads integer key of scope s into *out (lo <= value <= hi). Strict: plain digits with an
 * optional sign; 1.5 or 1e3 are not integers. Absent: error if required, else unchanged.
 * Returns 0 or 2. */
static int get_int(const Scope *s, const char *key, bool required, long lo, long hi, int *out)
{
  const PlYNode *n = value_of(s, key);
  if (!n) return required ? missing(s, key, NULL, NULL) : 0;
  char path[PATH_CAP];
  join_key(path, sizeof path, s->path, key);
  bool ok = n->kind == PL_YNODE_SCALAR && n->plain && !PlYIsNull(n) &&
            strlen(n->text) == n->len && n->len > 0;
  size_t i = 0;
  if (ok && (n->text[0] == '+' || n->text[0] == '-')) i = 1;
  ok = ok && i < n->len;
  for (; ok && i < n->len; i++) ok = isdigit((unsigned char)n->text[i]) != 0;
  if (!ok) return at(s->err, n, path, "expected an integer, found %s", found(n).s);
  errno = 0;
  long long v = strtoll(n->text, NULL, 10);
  if (errno == ERANGE || v < lo || v > hi)
    return at(s->err, n, path, "must be an integer from %ld to %ld, got %s", lo, hi,
              got(n).s);
  *out = (int)v;
  return 0;
}

/* Reads string key of scope s into buf (capacity cap): one line of text, no control
 * characters, non-empty unless allow_empty. Absent: error if required, else unchanged.
 * Returns 0 or 2. */
static int get_string(const Scope *s, const char *key, bool required, bool allow_empty,
                      char *buf, size_t cap)
{
  const PlYNode *n = value_of(s, key);
  if (!n) return required ? missing(s, key, NULL, NULL) : 0;
  char path[PATH_CAP];
  join_key(path, sizeof path, s->path, key);
  if (n->kind != PL_YNODE_SCALAR || (PlYIsNull(n) && !(allow_empty && n->len == 0)))
    return at(s->err, n, path, "expected a string, found %s", found(n).s);
  for (size_t i = 0; i < n->len; i++) {
    unsigned char ch = (unsigned char)n->text[i];
    if (ch < 0x20u || ch == 0x7Fu)
      return at(s->err, n, path, "must be one line of text without control characters");
  }
  if (n->len == 0 && !allow_empty) return at(s->err, n, path, "must not be empty");
  if (n->len >= cap)
    return at(s->err, n, path, "is too long (%zu bytes, at most %zu)", n->len, cap - 1);
  memcpy(buf, n->text, n->len + 1);
  return 0;
}

/* Reads key of scope s as one of names; *out = its index. Absent: unchanged. 0 or 2. */
static int get_choice(const Scope *s, const char *key, const char *const *names, int *out)
{
  const PlYNode *n = value_of(s, key);
  if (!n) return 0;
  char path[PATH_CAP], expect[256];
  join_key(path, sizeof path, s->path, key);
  list_names(expect, sizeof expect, names);
  int i = -1;
  if (n->kind == PL_YNODE_SCALAR && !PlYIsNull(n) && strlen(n->text) == n->len)
    i = name_index(names, n->text);
  if (i < 0) return at(s->err, n, path, "expected one of: %s; found %s", expect, found(n).s);
  *out = i;
  return 0;
}

/* Reads key of scope s as a list of exactly 3 numbers (nulls allowed when has != NULL;
 * has[i] then tells which were numbers). items (if not NULL) receives the item nodes.
 * *present tells whether the key exists. Returns 0 or 2. */
static int get_vec3(const Scope *s, const char *key, const char *unit, Range r, double out[3],
                    bool has[3], const PlYNode *items[3], bool *present)
{
  const PlYNode *n = value_of(s, key);
  *present = (n != NULL);
  if (!n) return 0;
  char path[PATH_CAP];
  join_key(path, sizeof path, s->path, key);
  if (n->kind != PL_YNODE_SEQ || n->nitems != 3)
    return at(s->err, n, path, "expected a list of 3 numbers%s%s%s%s, found %s",
              has ? " or nulls (~)" : "", (unit && unit[0]) ? " (" : "", unit ? unit : "",
              (unit && unit[0]) ? ")" : "", found(n).s);
  for (int i = 0; i < 3; i++) {
    const PlYNode *it = n->items[i];
    if (items) items[i] = it;
    char ip[PATH_CAP];
    join_index(ip, sizeof ip, path, (size_t)i);
    if (has && PlYIsNull(it)) {
      has[i] = false;
      out[i] = 0.0;
      continue;
    }
    double v;
    int rc = parse_number(s->err, it, ip, unit, &v);
    if (!rc) rc = check_range(s->err, it, ip, unit, r, v);
    if (rc) return rc;
    out[i] = v;
    if (has) has[i] = true;
  }
  return 0;
}

/* ---- the loader context --------------------------------------------------------------- */

typedef struct {
  PlError *err;
  const PlYNode *line_length; /* value node of line.length (for cross-check messages) */
  const PlYNode *end_z[2];    /* position[2] nodes of the ends (NULL when not given) */
} Ctx;

/* ---- environment ---------------------------------------------------------------------- */

/* environment: water_depth, water_density, gravity. */
static int read_environment(const Scope *top, PlModel *m)
{
  Scope s;
  bool present;
  int rc = open_child(top, "environment", true, kEnvKeys, &s, &present);
  if (rc) return rc;
  if ((rc = get_number(&s, "water_depth", "m", true, kPositive, &m->water_depth, NULL)))
    return rc;
  if ((rc = get_number(&s, "water_density", "kg/m^3", false, kPositive, &m->water_density,
                       NULL)))
    return rc;
  return get_number(&s, "gravity", "m/s^2", false, kPositive, &m->gravity, NULL);
}

/* ---- line and sections ---------------------------------------------------------------- */

/* The first key of scope s (document order) that is in names, or NULL. */
static const PlYPair *first_of(const Scope *s, const char *const *names)
{
  for (size_t i = 0; i < s->map->npairs; i++)
    if (name_index(names, s->map->pairs[i].key->text) >= 0) return &s->map->pairs[i];
  return NULL;
}

/* material: of a pipe-form section: E, G or nu, density into g. */
static int read_material(const Scope *sec, PlPipeGeometry *g)
{
  Scope s;
  bool present;
  int rc = open_child(sec, "material", true, kMaterialKeys, &s, &present);
  if (rc) return rc;
  if ((rc = get_number(&s, "youngs_modulus", "Pa", true, kPositive, &g->youngs_modulus,
                       NULL)))
    return rc;
  const PlYPair *pg = pair_of(&s, "shear_modulus"), *pn = pair_of(&s, "poissons_ratio");
  if (pg && pn) {
    const PlYPair *later = later_pair(pg, pn);
    char path[PATH_CAP];
    join_key(path, sizeof path, s.path, later->key->text);
    return at(s.err, later->key, path,
              "give either 'shear_modulus' or 'poissons_ratio', not both");
  }
  if (!pg && !pn) return missing(&s, "shear_modulus", "Pa", " (or 'poissons_ratio')");
  if (pg) {
    if ((rc = get_number(&s, "shear_modulus", "Pa", true, kPositive, &g->shear_modulus,
                         NULL)))
      return rc;
  } else {
    double nu = 0.0;
    const Range r = {-1.0, 0.5, true, true};
    if ((rc = get_number(&s, "poissons_ratio", "", true, r, &nu, NULL))) return rc;
    g->shear_modulus = g->youngs_modulus / (2.0 * (1.0 + nu));
  }
  return get_number(&s, "density", "kg/m^3", true, kPositive, &g->density, NULL);
}

/* A pipe-form section (outer diameter, wall thickness, material). */
static int read_pipe_section(const Scope *s, PlSection *out)
{
  PlPipeGeometry g = {0};
  const PlYNode *wt = NULL;
  int rc;
  if ((rc = get_number(s, "outer_diameter", "m", true, kPositive, &g.outer_diameter, NULL)))
    return rc;
  if ((rc = get_number(s, "wall_thickness", "m", true, kPositive, &g.wall_thickness, &wt)))
    return rc;
  if (!(2.0 * g.wall_thickness < g.outer_diameter)) {
    char path[PATH_CAP];
    join_key(path, sizeof path, s->path, "wall_thickness");
    return at(s->err, wt, path,
              "must be less than half the outer diameter (%.10g m), got %s",
              0.5 * g.outer_diameter, got(wt).s);
  }
  if ((rc = read_material(s, &g))) return rc;
  g.contents_density = 0.0;
  g.shear_coefficient = 0.5;
  g.hydro_diameter = g.outer_diameter;
  if ((rc = get_number(s, "contents_density", "kg/m^3", false, kNonNegative,
                       &g.contents_density, NULL)))
    return rc;
  const Range ks = {0.0, 1.0, true, false};
  if ((rc = get_number(s, "shear_coefficient", "", false, ks, &g.shear_coefficient, NULL)))
    return rc;
  if ((rc = get_number(s, "hydrodynamic_diameter", "m", false, kPositive, &g.hydro_diameter,
                       NULL)))
    return rc;
  if (PlSectionFromPipe(&g, out) != 0) {
    char path[PATH_CAP];
    join_key(path, sizeof path, s->path, "wall_thickness");
    return at(s->err, wt, path, "impossible pipe geometry (outer diameter %.10g m, wall %s m)",
              g.outer_diameter, got(wt).s);
  }
  return 0;
}

/* An explicit section (EA, EI, GJ, mass per length, ...). */
static int read_explicit_section(const Scope *s, PlSection *out)
{
  int rc;
  double d_o = 0.0, EA = 0.0, GJ = 0.0, mass = 0.0;
  if ((rc = get_number(s, "outer_diameter", "m", true, kPositive, &d_o, NULL))) return rc;
  if ((rc = get_number(s, "EA", "N", true, kPositive, &EA, NULL))) return rc;

  const PlYPair *pei = pair_of(s, "EI"), *pe2 = pair_of(s, "EI2"), *pe3 = pair_of(s, "EI3");
  double EI2 = 0.0, EI3 = 0.0;
  if (pei && (pe2 || pe3)) {
    const PlYPair *p = pe2 ? pe2 : pe3;
    char path[PATH_CAP];
    join_key(path, sizeof path, s->path, p->key->text);
    return at(s->err, p->key, path,
              "cannot be combined with 'EI' (give EI for both axes, or EI2 and EI3)");
  }
  if (pei) {
    if ((rc = get_number(s, "EI", "N m^2", true, kPositive, &EI2, NULL))) return rc;
    EI3 = EI2;
  } else if (pe2 || pe3) {
    if ((rc = get_number(s, "EI2", "N m^2", true, kPositive, &EI2, NULL))) return rc;
    if ((rc = get_number(s, "EI3", "N m^2", true, kPositive, &EI3, NULL))) return rc;
  } else {
    return missing(s, "EI", "N m^2", " (or 'EI2' and 'EI3')");
  }
  if ((rc = get_number(s, "GJ", "N m^2", true, kPositive, &GJ, NULL))) return rc;
  double GA = 0.5 * EA / (2.0 * (1.0 + 0.3)); /* k_s G A of a thin steel tube */
  if ((rc = get_number(s, "GA", "N", false, kPositive, &GA, NULL))) return rc;
  if ((rc = get_number(s, "mass_per_length", "kg/m", true, kPositive, &mass, NULL))) return rc;

  const PlYPair *pri = pair_of(s, "rotary_inertia"), *prg = pair_of(s, "radius_of_gyration");
  double J[3] = {mass * d_o * d_o / 4.0, 0.0, 0.0};
  if (pri && prg) {
    const PlYPair *later = later_pair(prg, pri);
    char path[PATH_CAP];
    join_key(path, sizeof path, s->path, later->key->text);
    return at(s->err, later->key, path,
              "give either 'rotary_inertia' or 'radius_of_gyration', not both");
  }
  if (prg) {
    double r = 0.0;
    if ((rc = get_number(s, "radius_of_gyration", "m", true, kPositive, &r, NULL))) return rc;
    J[0] = mass * r * r;
  }
  J[1] = J[2] = 0.5 * J[0];
  if (pri) {
    bool present;
    if ((rc = get_vec3(s, "rotary_inertia", "kg m", kPositive, J, NULL, NULL, &present)))
      return rc;
  }
  double dh = d_o;
  if ((rc = get_number(s, "hydrodynamic_diameter", "m", false, kPositive, &dh, NULL))) return rc;

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

/* One item of line.sections; is_last allows the length to be omitted (*has_length). */
static int read_section(PlError *err, const PlYNode *n, const char *path, bool is_last,
                        PlSegment *seg, bool *has_length)
{
  Scope s;
  int rc = open_scope(err, n, n, path, kSectionKeys, &s);
  if (rc) return rc;
  const PlYNode *len = NULL;
  if ((rc = get_number(&s, "length", "m", false, kPositive, &seg->length, &len))) return rc;
  *has_length = (len != NULL);
  if (!len && !is_last)
    return missing(&s, "length", "m", " (only the last section may omit it)");

  const PlYPair *pp = first_of(&s, kPipeOnlyKeys), *pe = first_of(&s, kExplicitOnlyKeys);
  if (pp && pe) {
    const PlYPair *later = later_pair(pe, pp), *earlier = later == pe ? pp : pe;
    char kp[PATH_CAP];
    join_key(kp, sizeof kp, s.path, later->key->text);
    Txt et = clip(earlier->key->text, earlier->key->len);
    return at(err, later->key, kp,
              "cannot be combined with '%s' in one section (give either the pipe form: "
              "wall_thickness, material, ...; or the explicit form: EA, EI, GJ, "
              "mass_per_length, ...)",
              et.s);
  }
  if (pp) return read_pipe_section(&s, &seg->section);
  if (pe) return read_explicit_section(&s, &seg->section);
  return missing(&s, "wall_thickness", "m",
                 " (a pipe section needs outer_diameter, wall_thickness and material; an "
                 "explicit one EA, EI, GJ and mass_per_length)");
}

/* line: length and sections (with the length sum check). */
static int read_line(Ctx *c, const Scope *top, PlModel *m)
{
  Scope s;
  bool present;
  int rc = open_child(top, "line", true, kLineKeys, &s, &present);
  if (rc) return rc;
  if ((rc = get_number(&s, "length", "m", true, kPositive, &m->length, &c->line_length)))
    return rc;
  const PlYPair *ps = pair_of(&s, "sections");
  if (!ps) return missing(&s, "sections", NULL, " (a list of sections from the bottom end)");
  char path[PATH_CAP];
  join_key(path, sizeof path, s.path, "sections");
  const PlYNode *list = ps->value;
  if (list->kind != PL_YNODE_SEQ || list->nitems == 0)
    return at(c->err, list, path, "expected a non-empty list of sections, found %s",
              found(list).s);
  if (list->nitems > PL_MAX_SECTIONS)
    return at(c->err, list, path, "too many sections (%zu, at most %d)", list->nitems,
              PL_MAX_SECTIONS);
  const size_t n = list->nitems;
  bool last_has_length = true;
  double sum = 0.0; /* of the given lengths */
  for (size_t i = 0; i < n; i++) {
    char ip[PATH_CAP];
    join_index(ip, sizeof ip, path, i);
    bool has_len = false;
    if ((rc = read_section(c->err, list->items[i], ip, i + 1 == n, &m->segments[i], &has_len)))
      return rc;
    if (has_len) sum += m->segments[i].length;
    if (i + 1 == n) last_has_length = has_len;
  }
  m->nsegments = (int)n;
  const double L = m->length, tol = 1e-9 * L;
  if (last_has_length) {
    if (fabs(sum - L) > tol)
      return at(c->err, c->line_length, "line.length",
                "the section lengths add up to %.10g m, but line.length is %.10g m", sum, L);
  } else {
    const double rest = L - sum;
    if (!(rest > tol))
      return at(c->err, c->line_length, "line.length",
                "the sections before the last add up to %.10g m, leaving nothing for the "
                "last one (line.length is %.10g m)",
                sum, L);
    m->segments[n - 1].length = rest;
  }
  return 0;
}

/* ---- seabed, mesh, rotation ----------------------------------------------------------- */

static const char *const kSeabedModels[] = {"none", "nonlinear", "linear", NULL};

/* seabed: model and (linear only) stiffness. */
static int read_seabed(const Scope *top, PlModel *m)
{
  Scope s;
  bool present;
  int rc = open_child(top, "seabed", false, kSeabedKeys, &s, &present);
  if (rc || !present) return rc;
  int model = 1; /* names index: nonlinear */
  if ((rc = get_choice(&s, "model", kSeabedModels, &model))) return rc;
  m->seabed = model == 0 ? PL_SEABED_NONE : model == 1 ? PL_SEABED_NONLINEAR : PL_SEABED_LINEAR;
  if (m->seabed == PL_SEABED_LINEAR)
    return get_number(&s, "stiffness", "N/m^2", true, kPositive, &m->seabed_stiffness, NULL);
  const PlYPair *pk = pair_of(&s, "stiffness");
  if (pk) {
    char path[PATH_CAP];
    join_key(path, sizeof path, s.path, "stiffness");
    return at(s.err, pk->key, path, "is only used by the linear seabed model (model is '%s')",
              kSeabedModels[model]);
  }
  return 0;
}

/* mesh: elements or target_length, and zones (needs m->length). */
static int read_mesh(Ctx *c, const Scope *top, PlModel *m)
{
  Scope s;
  bool present;
  int rc = open_child(top, "mesh", true, kMeshKeys, &s, &present);
  if (rc) return rc;
  const PlYPair *pe = pair_of(&s, "elements"), *pt = pair_of(&s, "target_length");
  if (pe && pt) {
    const PlYPair *later = later_pair(pt, pe);
    char path[PATH_CAP];
    join_key(path, sizeof path, s.path, later->key->text);
    return at(c->err, later->key, path, "give either 'elements' or 'target_length', not both");
  }
  if (!pe && !pt) return missing(&s, "elements", NULL, " (or 'target_length' (m))");
  if (pe) {
    if ((rc = get_int(&s, "elements", true, 1, 1000000, &m->mesh_elements))) return rc;
    m->mesh_target_length = 0.0;
  } else {
    m->mesh_elements = 0;
    if ((rc = get_number(&s, "target_length", "m", true, kPositive, &m->mesh_target_length,
                         NULL)))
      return rc;
  }
  const PlYPair *pz = pair_of(&s, "zones");
  m->nzones = 0;
  if (!pz) return 0;
  char path[PATH_CAP];
  join_key(path, sizeof path, s.path, "zones");
  const PlYNode *list = pz->value;
  if (list->kind != PL_YNODE_SEQ)
    return at(c->err, list, path, "expected a list of zones {from, to, target_length}, found %s",
              found(list).s);
  if (list->nitems > PL_MAX_ZONES)
    return at(c->err, list, path, "too many zones (%zu, at most %d)", list->nitems, PL_MAX_ZONES);
  for (size_t i = 0; i < list->nitems; i++) {
    char ip[PATH_CAP];
    join_index(ip, sizeof ip, path, i);
    Scope z;
    if ((rc = open_scope(c->err, list->items[i], list->items[i], ip, kZoneKeys, &z))) return rc;
    PlMeshZone *zone = &m->zones[i];
    const PlYNode *nto = NULL;
    const Range from_r = {0.0, m->length, false, true};
    if ((rc = get_number(&z, "from", "m", true, from_r, &zone->s_from, NULL))) return rc;
    if ((rc = get_number(&z, "to", "m", true, kAny, &zone->s_to, &nto))) return rc;
    char tp[PATH_CAP];
    join_key(tp, sizeof tp, ip, "to");
    if (!(zone->s_to > zone->s_from))
      return at(c->err, nto, tp, "must be greater than 'from' (%.10g m), got %s", zone->s_from,
                got(nto).s);
    if (!(zone->s_to <= m->length))
      return at(c->err, nto, tp, "must be at most line.length (%.10g m), got %s", m->length,
                got(nto).s);
    if ((rc = get_number(&z, "target_length", "m", true, kPositive, &zone->target_length,
                         NULL)))
      return rc;
    for (size_t j = 0; j < i; j++)
      if (m->zones[j].s_from < zone->s_to && zone->s_from < m->zones[j].s_to)
        return at(c->err, list->items[i], ip,
                  "overlaps mesh.zones[%zu] (%.10g m to %.10g m); zones must not overlap", j,
                  m->zones[j].s_from, m->zones[j].s_to);
    m->nzones = (int)i + 1;
  }
  return 0;
}

static const char *const kRotations[] = {"quaternion", "euler_zxy", NULL};

/* ---- ends ----------------------------------------------------------------------------- */

static const char *const kDofNames[] = {"x", "y", "z", "rx", "ry", "rz", NULL};

/* fixed: all | none | [names]. */
static int read_fixed(const Scope *s, PlEnd *e)
{
  const PlYNode *n = value_of(s, "fixed");
  for (int i = 0; i < 6; i++) e->fixed[i] = false;
  if (!n) return 0;
  char path[PATH_CAP];
  join_key(path, sizeof path, s->path, "fixed");
  if (n->kind == PL_YNODE_SCALAR && !PlYIsNull(n)) {
    if (strcmp(n->text, "all") == 0 && strlen(n->text) == n->len) {
      for (int i = 0; i < 6; i++) e->fixed[i] = true;
      return 0;
    }
    if (strcmp(n->text, "none") == 0 && strlen(n->text) == n->len) return 0;
  }
  if (n->kind != PL_YNODE_SEQ)
    return at(s->err, n, path,
              "expected 'all', 'none' or a list of names from x, y, z, rx, ry, rz; found %s",
              found(n).s);
  for (size_t i = 0; i < n->nitems; i++) {
    const PlYNode *it = n->items[i];
    char ip[PATH_CAP];
    join_index(ip, sizeof ip, path, i);
    int k = -1;
    if (it->kind == PL_YNODE_SCALAR && strlen(it->text) == it->len)
      k = name_index(kDofNames, it->text);
    if (k < 0)
      return at(s->err, it, ip, "expected one of: x, y, z, rx, ry, rz; found %s", found(it).s);
    if (e->fixed[k]) return at(s->err, it, ip, "'%s' is listed twice", kDofNames[k]);
    e->fixed[k] = true;
  }
  return 0;
}

/* R = R_y(theta) R_x(phi) R_z(psi) (eq 5.98) from [phi, theta, psi] in degrees, row-major. */
static void euler_zxy(const double deg[3], double R[9])
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

/* One end (which = 0 bottom, 1 top). */
static int read_end(Ctx *c, const Scope *ends, int which, PlEnd *e)
{
  const char *key = which ? "top" : "bottom";
  Scope s;
  bool present;
  int rc = open_child(ends, key, true, kEndKeys, &s, &present);
  if (rc) return rc;
  const PlYNode *pos_items[3] = {NULL, NULL, NULL};
  bool have_pos = false;
  if ((rc = get_vec3(&s, "position", "m", kAny, e->position, e->has_position, pos_items,
                     &have_pos)))
    return rc;
  c->end_z[which] = (have_pos && e->has_position[2]) ? pos_items[2] : NULL;
  double deg[3] = {0, 0, 0};
  if ((rc = get_vec3(&s, "orientation", "deg", kAny, deg, NULL, NULL, &e->has_orientation)))
    return rc;
  if (e->has_orientation) euler_zxy(deg, e->orientation);
  if ((rc = read_fixed(&s, e))) return rc;
  bool p;
  if ((rc = get_vec3(&s, "force", "N", kAny, e->force, NULL, NULL, &p))) return rc;
  if ((rc = get_vec3(&s, "moment", "N m", kAny, e->moment, NULL, NULL, &p))) return rc;
  for (int i = 0; i < 3; i++) {
    if (!e->fixed[i] || e->has_position[i]) continue;
    char path[PATH_CAP];
    join_key(path, sizeof path, s.path, "position");
    if (have_pos)
      return at(c->err, pos_items[i], path, "component %s is held (fixed) and needs a value",
                kDofNames[i]);
    return at(c->err, s.anchor, path,
              "component %s is held (fixed) and needs a value (no position given)",
              kDofNames[i]);
  }
  return 0;
}

/* ends: bottom and top. */
static int read_ends(Ctx *c, const Scope *top, PlModel *m)
{
  Scope s;
  bool present;
  int rc = open_child(top, "ends", true, kEndsKeys, &s, &present);
  if (rc) return rc;
  if ((rc = read_end(c, &s, 0, &m->ends[0]))) return rc;
  return read_end(c, &s, 1, &m->ends[1]);
}

/* ---- analysis, output ----------------------------------------------------------------- */

static const char *const kAnalysisTypes[] = {"static", NULL};
static const char *const kGuesses[] = {"catenary", "straight", NULL};

/* analysis: solver settings. */
static int read_analysis(const Scope *top, PlModel *m)
{
  Scope s;
  bool present;
  int rc = open_child(top, "analysis", false, kAnalysisKeys, &s, &present);
  if (rc || !present) return rc;
  PlAnalysis *a = &m->analysis;
  int type = 0, guess = a->initial_guess == PL_GUESS_STRAIGHT ? 1 : 0;
  if ((rc = get_choice(&s, "type", kAnalysisTypes, &type))) return rc;
  a->kind = PL_ANALYSIS_STATIC;
  if ((rc = get_int(&s, "load_steps", false, 1, 1000000, &a->load_steps))) return rc;
  if ((rc = get_int(&s, "max_cutbacks", false, 0, 60, &a->max_cutbacks))) return rc;
  if ((rc = get_int(&s, "max_iterations", false, 1, 1000000, &a->max_iterations))) return rc;
  const Range rtol = {0.0, 1.0, true, true};
  if ((rc = get_number(&s, "rtol", "", false, rtol, &a->rtol, NULL))) return rc;
  if ((rc = get_number(&s, "atol", "N", false, kNonNegative, &a->atol, NULL))) return rc;
  if ((rc = get_choice(&s, "initial_guess", kGuesses, &guess))) return rc;
  a->initial_guess = guess ? PL_GUESS_STRAIGHT : PL_GUESS_CATENARY;
  return get_string(&s, "petsc_options", false, true, a->petsc_options,
                    sizeof a->petsc_options);
}

/* output: directory. */
static int read_output(const Scope *top, PlModel *m)
{
  Scope s;
  bool present;
  int rc = open_child(top, "output", false, kOutputKeys, &s, &present);
  if (rc || !present) return rc;
  return get_string(&s, "directory", false, false, m->output_dir, sizeof m->output_dir);
}

/* ---- the whole document --------------------------------------------------------------- */

/* Walks the (overridden) tree into m. */
static int read_model(PlError *err, const PlYNode *root, PlModel *m)
{
  Ctx c = {err, NULL, {NULL, NULL}};
  Scope top;
  int rc = open_scope(err, root, root, "", kTopKeys, &top);
  if (rc) return rc;
  if ((rc = get_string(&top, "name", false, true, m->name, sizeof m->name))) return rc;
  if ((rc = read_environment(&top, m))) return rc;
  if ((rc = read_line(&c, &top, m))) return rc;
  if ((rc = read_seabed(&top, m))) return rc;
  if ((rc = read_mesh(&c, &top, m))) return rc;
  int rot = (int)m->rotation;
  if ((rc = get_choice(&top, "rotation", kRotations, &rot))) return rc;
  m->rotation = rot ? PL_ROT_EULER_ZXY : PL_ROT_QUATERNION;
  if ((rc = read_ends(&c, &top, m))) return rc;
  if ((rc = read_analysis(&top, m))) return rc;
  if ((rc = read_output(&top, m))) return rc;

  /* the line must reach from one end to the other */
  if (c.end_z[0] && c.end_z[1]) {
    const double dz = fabs(m->ends[1].position[2] - m->ends[0].position[2]);
    if (dz > m->length)
      return at(err, c.line_length, "line.length",
                "line shorter than the %.10g m vertical distance between its ends (length "
                "%.10g m)",
                dz, m->length);
  }
  return 0;
}

/* ---- overrides ------------------------------------------------------------------------ */

/* One step of an override's key path: a key, or a list index. */
typedef struct {
  bool is_index;
  size_t index;
  char key[64];
} Step;

#define MAX_STEPS 16

/* Splits "a.b[0].c" into steps. Returns the number of steps, or -1 if malformed. */
static int split_path(const char *p, size_t len, Step *steps)
{
  int n = 0;
  size_t i = 0;
  if (len == 0) return -1;
  for (;;) {
    /* a key */
    size_t k = 0;
    while (i < len && (isalnum((unsigned char)p[i]) || p[i] == '_')) {
      if (k + 1 >= sizeof steps[0].key) return -1;
      if (n >= MAX_STEPS) return -1;
      steps[n].key[k++] = p[i++];
    }
    if (k == 0) return -1;
    steps[n].key[k] = '\0';
    steps[n].is_index = false;
    n++;
    /* indices */
    while (i < len && p[i] == '[') {
      i++;
      size_t v = 0, digits = 0;
      while (i < len && isdigit((unsigned char)p[i])) {
        if (++digits > 9) return -1;
        v = 10 * v + (size_t)(p[i++] - '0');
      }
      if (digits == 0 || i >= len || p[i] != ']') return -1;
      i++;
      if (n >= MAX_STEPS) return -1;
      steps[n].is_index = true;
      steps[n].index = v;
      steps[n].key[0] = '\0';
      n++;
    }
    if (i == len) return n;
    if (p[i] != '.') return -1;
    i++;
  }
}

/* Applies override number k (1-based) "key.path=value" to the tree. Returns 0 or 2. */
static int apply_override(PlError *err, PlYTree *tree, PlYNode *root, int k, const char *arg)
{
  static const char kSrc[] = "--set";
  if (!arg) return report(err, kSrc, 1, k, "(override)", "missing argument (NULL)");
  const char *eq = strchr(arg, '=');
  if (!eq) {
    Txt a = clip_n(arg, strlen(arg), 100);
    return report(err, kSrc, 1, k, a.s, "missing '=' (expected key.path=value)");
  }
  const size_t plen = (size_t)(eq - arg);
  Txt shown = clip_n(arg, plen, 100);
  const char *path = shown.s;
  Step steps[MAX_STEPS];
  const int nsteps = split_path(arg, plen, steps);
  if (nsteps < 0)
    return report(err, kSrc, 1, k, path,
                  "malformed key path (expected names and list indices, like "
                  "line.sections[0].wall_thickness)");
  const char *value = eq + 1;
  const size_t vlen = strlen(value);
  if (vlen > PL_YAML_MAX_BYTES)
    return report(err, kSrc, 1, k, path, "value larger than 16 MiB");

  /* the value, as YAML */
  PlYNode *val = NULL;
  PlYError ye;
  if (PlYParse(tree, kSrc, value, vlen, &val, &ye) != 0)
    return report(err, kSrc, 1, k, path, "invalid value: %s", ye.what);
  if (!val) {
    val = PlYNewNode(tree, PL_YNODE_SCALAR, kSrc, 1, k); /* empty: null */
    if (!val) return report(err, kSrc, 1, k, path, "too many YAML nodes or out of memory");
  }
  PlYSetPlace(val, kSrc, 1, k);

  /* walk to the place, creating missing mappings when the schema allows them */
  PlYNode *cur = root;
  Schema sch = SCH_TOP;
  for (int i = 0; i < nsteps; i++) {
    const Step *st = &steps[i];
    const bool last = (i + 1 == nsteps);
    if (st->is_index) {
      if (cur->kind != PL_YNODE_SEQ)
        return report(err, kSrc, 1, k, path, "item [%zu]: the value there is %s, not a list",
                      st->index, found(cur).s);
      if (st->index >= cur->nitems)
        return report(err, kSrc, 1, k, path, "item [%zu] does not exist (the list has %zu item%s)",
                      st->index, cur->nitems, cur->nitems == 1 ? "" : "s");
      if (last) {
        cur->items[st->index] = val;
        return 0;
      }
      cur = cur->items[st->index];
      sch = schema_item(sch);
      continue;
    }
    const char *const *keys = schema_keys(sch);
    if (!keys) {
      if (sch == SCH_LEAF)
        return report(err, kSrc, 1, k, path, "unknown key '%s' (the value before it has no keys)",
                      st->key);
      return report(err, kSrc, 1, k, path, "unknown key '%s' (a list needs an index [i] first)",
                    st->key);
    }
    if (name_index(keys, st->key) < 0) {
      char expect[512];
      list_names(expect, sizeof expect, keys);
      return report(err, kSrc, 1, k, path, "unknown key '%s' (expected one of: %s)", st->key,
                    expect);
    }
    if (cur->kind != PL_YNODE_MAP)
      return report(err, kSrc, 1, k, path,
                    "cannot set '%s': the value above it is %s, not a mapping", st->key,
                    found(cur).s);
    const Schema child = schema_child(sch, st->key);
    PlYPair *p = PlYMapFind(cur, st->key);
    if (last) {
      if (p) {
        p->value = val;
        return 0;
      }
      PlYNode *key = PlYNewNode(tree, PL_YNODE_SCALAR, kSrc, 1, k);
      char *text = key ? malloc(strlen(st->key) + 1) : NULL;
      if (!text) return report(err, kSrc, 1, k, path, "too many YAML nodes or out of memory");
      strcpy(text, st->key);
      free(key->text);
      key->text = text;
      key->len = strlen(text);
      if (PlYMapAppend(cur, key, val)) return report(err, kSrc, 1, k, path, "out of memory");
      return 0;
    }
    if (!p) {
      if (steps[i + 1].is_index)
        return report(err, kSrc, 1, k, path,
                      "'%s' is not in the model, so it has no item [%zu]", st->key,
                      steps[i + 1].index);
      if (child == SCH_SECTIONS || child == SCH_ZONES)
        return report(err, kSrc, 1, k, path, "'%s' is a list: give an index, like %s[0]",
                      st->key, st->key);
      if (!schema_keys(child))
        return report(err, kSrc, 1, k, path, "unknown key '%s' ('%s' has no keys)",
                      steps[i + 1].key, st->key);
      PlYNode *key = PlYNewNode(tree, PL_YNODE_SCALAR, kSrc, 1, k);
      PlYNode *map = PlYNewNode(tree, PL_YNODE_MAP, kSrc, 1, k);
      char *text = (key && map) ? malloc(strlen(st->key) + 1) : NULL;
      if (!text) return report(err, kSrc, 1, k, path, "too many YAML nodes or out of memory");
      strcpy(text, st->key);
      free(key->text);
      key->text = text;
      key->len = strlen(text);
      if (PlYMapAppend(cur, key, map)) return report(err, kSrc, 1, k, path, "out of memory");
      cur = map;
    } else {
      cur = p->value;
    }
    sch = child;
  }
  return 0; /* not reached: the last step returns */
}

/* ---- entry points --------------------------------------------------------------------- */

void PlModelInitDefaults(PlModel *m)
{
  if (!m) return;
  memset(m, 0, sizeof *m);
  m->water_depth = 0.0; /* required: unset */
  m->water_density = 1025.0;
  m->gravity = 9.80665;
  m->length = 0.0;      /* required: unset */
  m->nsegments = 0;
  m->seabed = PL_SEABED_NONLINEAR;
  m->seabed_stiffness = 0.0;
  m->mesh_elements = 0; /* required (or target length): unset */
  m->mesh_target_length = 0.0;
  m->nzones = 0;
  m->rotation = PL_ROT_QUATERNION;
  for (int e = 0; e < 2; e++) {
    PlEnd *end = &m->ends[e];
    for (int i = 0; i < 9; i++) end->orientation[i] = (i % 4 == 0) ? 1.0 : 0.0;
    end->has_orientation = false;
  }
  m->analysis.kind = PL_ANALYSIS_STATIC;
  m->analysis.load_steps = 1;
  m->analysis.max_cutbacks = 10;
  m->analysis.max_iterations = 50;
  m->analysis.rtol = 1e-10;
  m->analysis.atol = 0.0;
  m->analysis.initial_guess = PL_GUESS_CATENARY;
  m->analysis.petsc_options[0] = '\0';
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
  cat(m->source_path, sizeof m->source_path, src);
  const char *base = base_name(src);
  cat(m->name, sizeof m->name, base);
  size_t stem = strlen(base);
  const char *dot = strrchr(base, '.');
  if (dot && dot != base) stem = (size_t)(dot - base);
  if (stem == 0) {
    cat(m->output_dir, sizeof m->output_dir, "model_out");
  } else {
    if (stem > sizeof m->output_dir - 5) stem = sizeof m->output_dir - 5;
    memcpy(m->output_dir, base, stem);
    m->output_dir[stem] = '\0';
    cat(m->output_dir, sizeof m->output_dir, "_out");
  }
}

int PlModelLoadString(const char *name, const char *text, size_t len, int noverrides,
                      const char *const *overrides, PlModel *m, PlError *err)
{
  const char *src = name ? name : "(string)";
  if (!err) return 2;
  err->msg[0] = '\0';
  if (!m) return report(err, src, 0, 0, "(api)", "no model to fill (NULL)");
  PlModelInitDefaults(m);
  if (!text && len > 0) return report(err, src, 0, 0, "(api)", "no text (NULL)");
  if (noverrides < 0 || (noverrides > 0 && !overrides))
    return report(err, src, 0, 0, "(api)", "bad override list");
  if (strlen(src) >= PL_PATH_MAX)
    return report(err, src, 0, 0, "(file)", "path too long (at most %d bytes)", PL_PATH_MAX - 1);
  if (len == 0) return report(err, src, 1, 1, "(document)", "the file is empty");
  if (len > PL_YAML_MAX_BYTES)
    return report(err, src, 1, 1, "(document)", "the file is larger than 16 MiB (%zu bytes)",
                  len);
  derive_names(src, m);

  PlYTree tree;
  PlYTreeInit(&tree);
  PlYNode *root = NULL;
  PlYError ye;
  int rc = 0;
  if (PlYParse(&tree, src, text, len, &root, &ye) != 0) {
    rc = report(err, src, ye.line, ye.col, ye.syntax ? "(syntax)" : ye.path, "%s", ye.what);
  } else if (!root) {
    rc = report(err, src, 1, 1, "(document)",
                "the file is empty (no YAML document, only blank lines or comments)");
  } else if (root->kind != PL_YNODE_MAP) {
    rc = at(err, root, "(document)", "expected a mapping of model keys (environment, line, "
                                     "mesh, ends, ...) at the top level, found %s",
            found(root).s);
  }
  for (int k = 0; rc == 0 && k < noverrides; k++)
    rc = apply_override(err, &tree, root, k + 1, overrides[k]);
  if (rc == 0) rc = read_model(err, root, m);
  PlYTreeFree(&tree);
  return rc;
}

int PlModelLoad(const char *path, int noverrides, const char *const *overrides, PlModel *m,
                PlError *err)
{
  if (!err) return 2;
  err->msg[0] = '\0';
  if (!path) return report(err, "(null)", 0, 0, "(file)", "no file name given");
  FILE *f = fopen(path, "rb");
  if (!f) {
    const int e = errno;
    if (m) PlModelInitDefaults(m);
    return report(err, path, 0, 0, "(file)", "cannot read: %s", strerror(e));
  }
  size_t cap = 64 * 1024, len = 0;
  char *buf = malloc(cap);
  int rc = 0;
  if (!buf) {
    rc = report(err, path, 0, 0, "(file)", "cannot read: out of memory");
  } else {
    for (;;) {
      if (len == cap) {
        if (cap > PL_YAML_MAX_BYTES) {
          rc = report(err, path, 0, 0, "(file)", "cannot read: larger than 16 MiB");
          break;
        }
        size_t ncap = 2 * cap;
        char *nb = realloc(buf, ncap);
        if (!nb) {
          rc = report(err, path, 0, 0, "(file)", "cannot read: out of memory");
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
          rc = report(err, path, 0, 0, "(file)", "cannot read: %s",
                      e ? strerror(e) : "read error");
        }
        break;
      }
    }
  }
  fclose(f);
  if (rc == 0 && len > PL_YAML_MAX_BYTES)
    rc = report(err, path, 0, 0, "(file)", "cannot read: larger than 16 MiB");
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
  if (!m || m->nsegments <= 0) return NULL;
  const int n = m->nsegments > PL_MAX_SECTIONS ? PL_MAX_SECTIONS : m->nsegments;
  double end = 0.0;
  for (int i = 0; i < n - 1; i++) {
    end += m->segments[i].length;
    if (S < end) return &m->segments[i].section;
  }
  return &m->segments[n - 1].section;
}
