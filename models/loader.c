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
 *      positions, dynamic-only keys against analysis.type, rotational motions against
 *      held rotations, the vessel's matrices with PlVesselCheck and its controller with
 *      PlDPControllerCheck) run, and PlModel is filled. With a vessel the top end is then
 *      filled from it (PlVesselTopEnd). The time series of a prescribed motion
 *      (ends.*.motion.file) and of the vessel's environmental load
 *      (vessel.environment_load.file), CSV files relative to the model file, are read here
 *      too, in one pass with a bounded line buffer (files up to 256 MiB, 10 million rows).
 * Every user error returns 2 with one line "FILE:LINE:COL: key.path: what is wrong" in
 * PlError (FILE is the CSV file for an error inside a time series). No global state. The
 * only memory a loaded model owns is its time-series tables (PlModelFree); after an error
 * the model holds the defaults and owns nothing.
 */
#include "pipelay/models.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema.h"
#include "yaml_tree.h"

static const double kPi = 3.14159265358979323846;

#define PATH_CAP 256 /* key paths in messages; longer ones are cut */

/* Limits of physically meaningful input (docs/model-file.md). */
#define PL_MESH_MAX_ELEMENTS 1000000 /* elements of a mesh (count, or from target lengths) */
#define PL_MAX_END_FORCE 1e12        /* [N] |component| of an end force: 10^5 x the largest
                                        lay tensions (~10^7 N) */
#define PL_MAX_END_MOMENT 1e13       /* [N m] |component| of an end moment */
#define PL_NUMBER_MAX 1e15           /* every number is 0 or within [MIN, MAX] in magnitude */
#define PL_NUMBER_MIN 1e-15          /*   (in its SI unit): products and quotients of a few
                                        of them stay finite in the set-up and the solver */
#define PL_ANGLE_MAX 360.0           /* [deg] |angle| of an orientation, direction or phase */

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

/* ---- the schema: the keys of each mapping come from schema_table.c ------------------- */

/* DOF names of an end (fixed, motion.dofs), in PL_DOF_* order. */
static const char *const kDofNames[] = {"x", "y", "z", "rx", "ry", "rz", NULL};

/* Section keys of the pipe form and of the explicit form (the rest are common). */
static const char *const kPipeOnlyKeys[] = {"wall_thickness", "material", "contents_density",
                                            "shear_coefficient", NULL};
static const char *const kExplicitOnlyKeys[] = {"EA", "EI", "EI2", "EI3", "GJ", "GA",
                                                "mass_per_length", "rotary_inertia",
                                                "radius_of_gyration", NULL};

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
 * only hold the keys the schema gives a mapping at path, each once. Returns 0 or 2. */
static int open_scope(PlError *err, const PlYNode *n, const PlYNode *anchor, const char *path,
                      Scope *s)
{
  const char *names[PL_SCHEMA_MAX_KEYS];
  PlSchemaChildren(path, names, PL_SCHEMA_MAX_KEYS);
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

/* The value of key in mapping node map, or NULL. */
static const PlYNode *value_of_node(const PlYNode *map, const char *key)
{
  const PlYPair *p = PlYMapFind(map, key);
  return p ? p->value : NULL;
}

/* "missing required key 'key' (unit)" at the scope's anchor. */
static int missing(const Scope *s, const char *key, const char *unit, const char *note)
{
  return at(s->err, s->anchor, s->path, "missing required key '%s'%s%s%s%s", key,
            (unit && unit[0]) ? " (" : "", (unit && unit[0]) ? unit : "",
            (unit && unit[0]) ? ")" : "", note ? note : "");
}

/* When key is present in scope s: an error at the key, with the text fmt (why the key is
 * not allowed there, e.g. "is only used by ..."). Returns 0 (absent) or 2. */
static int reject_key(const Scope *s, const char *key, const char *fmt, ...)
{
  const PlYPair *p = pair_of(s, key);
  if (!p) return 0;
  char path[PATH_CAP];
  join_key(path, sizeof path, s->path, key);
  va_list ap;
  va_start(ap, fmt);
  int rc = vreport(s->err, p->key->source, p->key->line, p->key->col, path, fmt, ap);
  va_end(ap);
  return rc;
}

/* Opens the mapping under key of scope s as a child scope. *present tells whether the key
 * exists; a missing required key is an error. Returns 0 or 2. */
static int open_child_if(const Scope *s, const char *key, bool required, Scope *child,
                         bool *present)
{
  const PlYPair *p = pair_of(s, key);
  *present = (p != NULL);
  if (!p) return required ? missing(s, key, NULL, NULL) : 0;
  char path[PATH_CAP];
  join_key(path, sizeof path, s->path, key);
  return open_scope(s->err, p->value, p->key, path, child);
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

static const Range kNonNegative = {0.0, INFINITY, false, false};
static const Range kAny = {-INFINITY, INFINITY, false, false};
static const Range kAngle = {-PL_ANGLE_MAX, PL_ANGLE_MAX, false, false};

/* True when v is 0 or within [PL_NUMBER_MIN, PL_NUMBER_MAX] in magnitude. */
static bool meaningful(double v)
{
  return v == 0.0 || (fabs(v) >= PL_NUMBER_MIN && fabs(v) <= PL_NUMBER_MAX);
}

/* The message of a number that is not meaningful() (for at() and report()). */
#define NOT_MEANINGFUL_FMT                                                                   \
  "must be 0 or between 1e-15 and 1e15 in magnitude (in SI units; other values are not "   \
  "physically meaningful), got %s"

/* Checks v (from node n at path) against r, then that it is meaningful(); messages say
 * the bound with its unit. */
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
  if (!meaningful(v)) return at(err, n, path, NOT_MEANINGFUL_FMT, got(n).s);
  return 0;
}

/* The schema row of key in scope s: its type, unit, range, default (schema_table.c). A
 * key the loader reads that the table lacks is a programming error, not a user's: abort
 * (any test that loads such a key finds it). */
static const PlKeySpec *spec_of(const Scope *s, const char *key)
{
  char path[PATH_CAP];
  join_key(path, sizeof path, s->path, key);
  const PlKeySpec *k = PlSchemaFind(path);
  if (!k) {
    fprintf(stderr, "pipelay: internal error: the key '%s' is not in the schema\n", path);
    abort();
  }
  return k;
}

/* The range of row k. */
static Range range_of(const PlKeySpec *k)
{
  const Range r = {k->lo, k->hi, k->lo_open, k->hi_open};
  return r;
}

/* Reads number key of scope s into *out, in the unit and range of its schema row. When
 * absent: an error if required, else *out is left as it is. *where (if not NULL) receives
 * the value node or NULL. Returns 0 or 2. */
static int get_number_if(const Scope *s, const char *key, bool required, double *out,
                         const PlYNode **where)
{
  const PlKeySpec *k = spec_of(s, key);
  const char *unit = PlSchemaUnit(k);
  const PlYNode *n = value_of(s, key);
  if (where) *where = n;
  if (!n) return required ? missing(s, key, unit, NULL) : 0;
  char path[PATH_CAP];
  join_key(path, sizeof path, s->path, key);
  double v;
  int rc = parse_number(s->err, n, path, unit, &v);
  if (rc) return rc;
  rc = check_range(s->err, n, path, unit, range_of(k), v);
  if (rc) return rc;
  *out = v;
  return 0;
}

/* get_number_if(), required when the schema says so (a conditional key is read with
 * get_number_if() where it is required, or after its presence was checked). */
static int get_number(const Scope *s, const char *key, double *out, const PlYNode **where)
{
  return get_number_if(s, key, spec_of(s, key)->need == PL_KEY_REQUIRED, out, where);
}

/* open_child_if(), required when the schema says so. */
static int open_child(const Scope *s, const char *key, Scope *child, bool *present)
{
  return open_child_if(s, key, spec_of(s, key)->need == PL_KEY_REQUIRED, child, present);
}

/* Reads integer key of scope s into *out, within its schema row's range. Strict: plain
 * digits with an optional sign; 1.5 or 1e3 are not integers. Absent: error if required,
 * else unchanged. why (may be NULL) is added to the range message, e.g. " (a line needs at
 * least 2 elements)". Returns 0 or 2. */
static int get_int_why(const Scope *s, const char *key, const char *why, int *out)
{
  const PlKeySpec *k = spec_of(s, key);
  const long lo = (long)k->lo, hi = (long)k->hi;
  const PlYNode *n = value_of(s, key);
  if (!n) return k->need == PL_KEY_REQUIRED ? missing(s, key, NULL, NULL) : 0;
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
    return at(s->err, n, path, "must be an integer from %ld to %ld%s, got %s", lo, hi,
              why ? why : "", got(n).s);
  *out = (int)v;
  return 0;
}

/* get_int_why() without an explanation. */
static int get_int(const Scope *s, const char *key, int *out)
{
  return get_int_why(s, key, NULL, out);
}

/* Reads string key of scope s into buf (capacity cap): one line of text, no control
 * characters, non-empty unless allow_empty. Absent: error if the schema requires it, else
 * unchanged. Returns 0 or 2. */
static int get_string(const Scope *s, const char *key, bool allow_empty, char *buf, size_t cap)
{
  const bool required = spec_of(s, key)->need == PL_KEY_REQUIRED;
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

/* Reads key of scope s as one of its schema row's choices; *out = its index. Absent:
 * unchanged. 0 or 2. */
static int get_choice(const Scope *s, const char *key, int *out)
{
  const char *const *names = spec_of(s, key)->choices;
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

/* The default of a choice key of scope s: the index of its default in its choices. */
static int choice_default(const Scope *s, const char *key)
{
  const PlKeySpec *k = spec_of(s, key);
  return isnan(k->def) ? 0 : (int)k->def;
}

/* Reads key of scope s as a list of exactly 3 numbers in its schema row's unit and range
 * (nulls allowed when has != NULL; has[i] then tells which were numbers). items (if not
 * NULL) receives the item nodes. *present tells whether the key exists. Returns 0 or 2. */
static int get_vec3(const Scope *s, const char *key, double out[3], bool has[3],
                    const PlYNode *items[3], bool *present)
{
  const PlKeySpec *k = spec_of(s, key);
  const char *unit = PlSchemaUnit(k);
  const Range r = range_of(k);
  const PlYNode *n = value_of(s, key);
  *present = (n != NULL);
  if (!n) return 0;
  char path[PATH_CAP];
  join_key(path, sizeof path, s->path, key);
  if (n->kind != PL_YNODE_SEQ || n->nitems != 3)
    return at(s->err, n, path, "expected a list of 3 numbers%s%s%s%s, found %s",
              has ? " or nulls (~)" : "", unit[0] ? " (" : "", unit, unit[0] ? ")" : "",
              found(n).s);
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

/* How to read a list of numbers: items [0, split) in unit_lo and range r_lo, the others in
 * unit_hi and r_hi (a 6-vector: translations, then rotations; split 0: all alike); desc
 * says the units in "expected a list" messages. */
typedef struct {
  size_t split;
  const char *unit_lo, *unit_hi;
  Range r_lo, r_hi;
  const char *desc;
} ListSpec;

/* A 6-vector's ListSpec: the range of its schema row k for every item, unit_lo for the
 * first three and unit_hi for the last three, desc for messages. */
static ListSpec split_list(const PlKeySpec *k, const char *unit_lo, const char *unit_hi,
                           const char *desc)
{
  const ListSpec l = {3, unit_lo, unit_hi, range_of(k), range_of(k), desc};
  return l;
}

/* Parses node n (at path) as a list of exactly count numbers read by sp into out.
 * Returns 0 or 2. */
static int parse_list(PlError *err, const PlYNode *n, const char *path, size_t count,
                      const ListSpec *sp, double *out)
{
  if (n->kind != PL_YNODE_SEQ || n->nitems != count)
    return at(err, n, path, "expected a list of %zu numbers (%s), found %s", count, sp->desc,
              found(n).s);
  for (size_t i = 0; i < count; i++) {
    const char *unit = i < sp->split ? sp->unit_lo : sp->unit_hi;
    const Range r = i < sp->split ? sp->r_lo : sp->r_hi;
    char ip[PATH_CAP];
    join_index(ip, sizeof ip, path, i);
    double v = 0.0;
    int rc = parse_number(err, n->items[i], ip, unit, &v);
    if (!rc) rc = check_range(err, n->items[i], ip, unit, r, v);
    if (rc) return rc;
    out[i] = v;
  }
  return 0;
}

/* Reads key of scope s as a list of count numbers read by sp (parse_list). Absent: an
 * error if the schema requires it, else out is left as it is. *where (if not NULL)
 * receives the value node or NULL. Returns 0 or 2. */
static int get_list_spec(const Scope *s, const char *key, size_t count, const ListSpec *sp,
                         double *out, const PlYNode **where)
{
  const bool required = spec_of(s, key)->need == PL_KEY_REQUIRED;
  const PlYNode *n = value_of(s, key);
  if (where) *where = n;
  if (!n) return required ? missing(s, key, sp->desc, NULL) : 0;
  char path[PATH_CAP];
  join_key(path, sizeof path, s->path, key);
  return parse_list(s->err, n, path, count, sp, out);
}

/* get_list_spec() of a list of the schema row's count numbers, all in its unit and range. */
static int get_list(const Scope *s, const char *key, double *out, const PlYNode **where)
{
  const PlKeySpec *k = spec_of(s, key);
  const ListSpec sp = {0, k->unit, k->unit, range_of(k), range_of(k), k->unit};
  return get_list_spec(s, key, (size_t)k->count, &sp, out, where);
}

/* Reads key of scope s as an n x n matrix (n = the schema row's count, 3 or 6), a list of
 * n rows of n finite numbers, into out (row-major). units: of the translational block,
 * the mixed blocks and the rotational block of a 6x6 (a 3x3 uses units[0]). Absent: an
 * error if the schema requires it, else out is left as it is. *where as for get_list.
 * Returns 0 or 2. */
static int get_matrix(const Scope *s, const char *key, const char *const units[3], double *out,
                      const PlYNode **where)
{
  const PlKeySpec *k = spec_of(s, key);
  const size_t n = (size_t)k->count;
  const bool required = k->need == PL_KEY_REQUIRED;
  const Range r = range_of(k);
  const PlYNode *m = value_of(s, key);
  if (where) *where = m;
  char desc[96];
  if (n == 6)
    snprintf(desc, sizeof desc, "%s, %s, %s", units[0], units[1], units[2]);
  else
    snprintf(desc, sizeof desc, "%s", units[0]);
  if (!m) return required ? missing(s, key, desc, NULL) : 0;
  char path[PATH_CAP];
  join_key(path, sizeof path, s->path, key);
  if (m->kind != PL_YNODE_SEQ || m->nitems != n)
    return at(s->err, m, path, "expected a %zux%zu matrix, a list of %zu rows of %zu numbers (%s), "
              "found %s",
              n, n, n, n, desc, found(m).s);
  double v[36];
  for (size_t i = 0; i < n; i++) {
    const PlYNode *row = m->items[i];
    char rp[PATH_CAP];
    join_index(rp, sizeof rp, path, i);
    if (row->kind != PL_YNODE_SEQ || row->nitems != n)
      return at(s->err, row, rp, "expected a row of %zu numbers (%s), found %s", n, desc,
                found(row).s);
    for (size_t j = 0; j < n; j++) {
      const char *unit = n == 6 ? units[(i >= 3) + (j >= 3)] : units[0];
      char ip[PATH_CAP];
      join_index(ip, sizeof ip, rp, j);
      int rc = parse_number(s->err, row->items[j], ip, unit, &v[n * i + j]);
      if (!rc) rc = check_range(s->err, row->items[j], ip, unit, r, v[n * i + j]);
      if (rc) return rc;
    }
  }
  memcpy(out, v, n * n * sizeof v[0]);
  return 0;
}

/* Checks that the n x n matrix A (from node where, at path) is symmetric to 1e-9 of its
 * diagonal; the message names the first pair that is not (1-based). Returns 0 or 2. */
static int check_symmetric(PlError *err, const PlYNode *where, const char *path, size_t n,
                           const double *A)
{
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < i; j++) {
      const double a = A[n * i + j], b = A[n * j + i];
      if (fabs(a - b) > 1e-9 * (fabs(A[(n + 1) * i]) + fabs(A[(n + 1) * j])))
        return at(err, where, path,
                  "must be symmetric: entry (%zu, %zu) is %.10g, entry (%zu, %zu) is %.10g",
                  i + 1, j + 1, a, j + 1, i + 1, b);
    }
  return 0;
}

/* ---- the loader context --------------------------------------------------------------- */

typedef struct {
  PlError *err;
  const PlYNode *line_length; /* value node of line.length (for cross-check messages) */
  const PlYNode *end_z[2];    /* position[2] nodes of the ends (NULL when not given) */
  PlAnalysisKind kind;        /* analysis.type (read before the ends and the output) */
  bool kind_given;            /* analysis.type was given (else it is the default) */
  const char *model_path;     /* the model file; time-series files are relative to it */
  bool has_vessel;            /* a vessel block is given: the top end hangs from it */
  bool body_only;             /* no line: a system of bodies (vessel: or bodies:) and joints */
  const PlYNode *body_names[PL_MAX_BODIES]; /* bodies[*].name value nodes (duplicate messages) */
  const PlModel *graph;       /* a model of lines: its points and bodies (ends.*.point, .body) */
  int *point_uses;            /* [npoints] ends attached to each point so far */
  int *body_uses;             /* [nbodies] ends attached to each body so far */
} Ctx;

/* "is only used by a dynamic analysis (analysis.type is 'static')" at key of scope s, when
 * the analysis is not dynamic and key is present. Returns 0 or 2. */
static int dynamic_only(const Ctx *c, const Scope *s, const char *key)
{
  if (c->kind == PL_ANALYSIS_DYNAMIC) return 0;
  return reject_key(s, key, "is only used by a dynamic analysis (analysis.type is 'static'%s)",
                    c->kind_given ? "" : ", the default");
}

/* ---- environment ---------------------------------------------------------------------- */

/* environment: water_depth, water_density, gravity. */
static int read_environment(const Scope *top, PlModel *m)
{
  Scope s;
  bool present;
  int rc = open_child(top, "environment", &s, &present);
  if (rc) return rc;
  if ((rc = get_number(&s, "water_depth", &m->water_depth, NULL)))
    return rc;
  if ((rc = get_number(&s, "water_density", &m->water_density, NULL)))
    return rc;
  return get_number(&s, "gravity", &m->gravity, NULL);
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
  int rc = open_child(sec, "material", &s, &present);
  if (rc) return rc;
  if ((rc = get_number(&s, "youngs_modulus", &g->youngs_modulus, NULL)))
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
    if ((rc = get_number(&s, "shear_modulus", &g->shear_modulus, NULL)))
      return rc;
  } else {
    double nu = 0.0;
    if ((rc = get_number(&s, "poissons_ratio", &nu, NULL))) return rc;
    g->shear_modulus = g->youngs_modulus / (2.0 * (1.0 + nu));
  }
  return get_number(&s, "density", &g->density, NULL);
}

/* A pipe-form section (outer diameter, wall thickness, material). */
static int read_pipe_section(const Scope *s, PlSection *out)
{
  PlPipeGeometry g = {0};
  const PlYNode *wt = NULL;
  int rc;
  if ((rc = get_number(s, "outer_diameter", &g.outer_diameter, NULL)))
    return rc;
  if ((rc = get_number(s, "wall_thickness", &g.wall_thickness, &wt)))
    return rc;
  if (!(2.0 * g.wall_thickness < g.outer_diameter)) {
    char path[PATH_CAP];
    join_key(path, sizeof path, s->path, "wall_thickness");
    return at(s->err, wt, path,
              "must be less than half the outer diameter (%.10g m), got %s",
              0.5 * g.outer_diameter, got(wt).s);
  }
  if ((rc = read_material(s, &g))) return rc;
  g.contents_density = PlSchemaDefault("line.sections[*].contents_density");
  g.shear_coefficient = PlSchemaDefault("line.sections[*].shear_coefficient");
  g.hydro_diameter = g.outer_diameter;
  if ((rc = get_number(s, "contents_density", &g.contents_density, NULL)))
    return rc;
  if ((rc = get_number(s, "shear_coefficient", &g.shear_coefficient, NULL)))
    return rc;
  if ((rc = get_number(s, "hydrodynamic_diameter", &g.hydro_diameter, NULL)))
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
  if ((rc = get_number(s, "outer_diameter", &d_o, NULL))) return rc;
  if ((rc = get_number(s, "EA", &EA, NULL))) return rc;

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
    if ((rc = get_number(s, "EI", &EI2, NULL))) return rc;
    EI3 = EI2;
  } else if (pe2 || pe3) {
    if ((rc = get_number(s, "EI2", &EI2, NULL))) return rc;
    if ((rc = get_number(s, "EI3", &EI3, NULL))) return rc;
  } else {
    return missing(s, "EI", "N m^2", " (or 'EI2' and 'EI3')");
  }
  if ((rc = get_number(s, "GJ", &GJ, NULL))) return rc;
  double GA = 0.5 * EA / (2.0 * (1.0 + 0.3)); /* k_s G A of a thin steel tube */
  if ((rc = get_number(s, "GA", &GA, NULL))) return rc;
  if ((rc = get_number(s, "mass_per_length", &mass, NULL))) return rc;

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
    if ((rc = get_number(s, "radius_of_gyration", &r, NULL))) return rc;
    J[0] = mass * r * r;
  }
  J[1] = J[2] = 0.5 * J[0];
  if (pri) {
    bool present;
    if ((rc = get_vec3(s, "rotary_inertia", J, NULL, NULL, &present)))
      return rc;
  }
  double dh = d_o;
  if ((rc = get_number(s, "hydrodynamic_diameter", &dh, NULL))) return rc;

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
  int rc = open_child(sec, "hydrodynamics", &s, &present);
  if (rc || !present) return rc;
  if ((rc = get_number(&s, "drag_normal", &h->drag_normal, NULL)))
    return rc;
  if ((rc = get_number(&s, "drag_tangential", &h->drag_tangential, NULL)))
    return rc;
  if ((rc = get_number(&s, "added_mass_normal", &h->added_mass_normal, NULL)))
    return rc;
  if ((rc = get_number(&s, "added_mass_tangential", &h->added_mass_tangential, NULL)))
    return rc;
  return get_vec3(&s, "rotational_damping", h->rotational_damping, NULL, NULL, &present);
}

/* One item of line.sections; is_last allows the length to be omitted (*has_length). */
static int read_section(PlError *err, const PlYNode *n, const char *path, bool is_last,
                        PlSegment *seg, bool *has_length)
{
  Scope s;
  int rc = open_scope(err, n, n, path, &s);
  if (rc) return rc;
  const PlYNode *len = NULL;
  if ((rc = get_number(&s, "length", &seg->length, &len))) return rc;
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
  if (pp)
    rc = read_pipe_section(&s, &seg->section);
  else if (pe)
    rc = read_explicit_section(&s, &seg->section);
  else
    return missing(&s, "wall_thickness", "m",
                   " (a pipe section needs outer_diameter, wall_thickness and material; an "
                   "explicit one EA, EI, GJ and mass_per_length)");
  if (rc) return rc;
  int buoyant = choice_default(&s, "buoyant");
  if ((rc = get_choice(&s, "buoyant", &buoyant))) return rc;
  seg->buoyant = buoyant == 1;
  return read_hydro(&s, &seg->hydro);
}

/* line: length and sections (with the length sum check). */
static int read_line(Ctx *c, const Scope *top, PlModel *m)
{
  Scope s;
  bool present;
  int rc = open_child_if(top, "line", true, &s, &present);
  if (rc) return rc;
  if ((rc = get_number(&s, "length", &m->length, &c->line_length)))
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


/* seabed: model, (linear only) stiffness and (not with none) damping. */
static int read_seabed(const Scope *top, PlModel *m)
{
  Scope s;
  bool present;
  int rc = open_child(top, "seabed", &s, &present);
  if (rc || !present) return rc;
  int model = choice_default(&s, "model");
  if ((rc = get_choice(&s, "model", &model))) return rc;
  m->seabed = model == 0 ? PL_SEABED_NONE : model == 1 ? PL_SEABED_NONLINEAR : PL_SEABED_LINEAR;
  const PlYPair *pd = pair_of(&s, "damping");
  if (pd && m->seabed == PL_SEABED_NONE) {
    char path[PATH_CAP];
    join_key(path, sizeof path, s.path, "damping");
    return at(s.err, pd->key, path, "is not used without a seabed (model is 'none')");
  }
  if ((rc = get_number(&s, "damping", &m->seabed_damping, NULL)))
    return rc;
  if (m->seabed == PL_SEABED_LINEAR)
    return get_number_if(&s, "stiffness", true, &m->seabed_stiffness, NULL);
  const PlYPair *pk = pair_of(&s, "stiffness");
  if (pk) {
    char path[PATH_CAP];
    join_key(path, sizeof path, s.path, "stiffness");
    return at(s.err, pk->key, path, "is only used by the linear seabed model (model is '%s')",
              PlChoiceSeabedModels[model]);
  }
  return 0;
}

/* ---- current ------------------------------------------------------------------------- */

/* In PlCurrentKind order. */

/* current.table: 2 to PL_MAX_TABLE rows [z, speed], z <= 0 strictly increasing, speed >= 0. */
static int read_current_table(const Scope *s, PlCurrent *c)
{
  const PlYNode *n = value_of(s, "table");
  char path[PATH_CAP];
  join_key(path, sizeof path, s->path, "table");
  if (n->kind != PL_YNODE_SEQ || n->nitems < 2)
    return at(s->err, n, path,
              "expected a list of at least 2 rows [z, speed] (m, m/s), found %s", found(n).s);
  if (n->nitems > PL_MAX_TABLE)
    return at(s->err, n, path, "too many rows (%zu, at most %d)", n->nitems, PL_MAX_TABLE);
  for (size_t i = 0; i < n->nitems; i++) {
    const PlYNode *row = n->items[i];
    char rp[PATH_CAP], zp[PATH_CAP], vp[PATH_CAP];
    join_index(rp, sizeof rp, path, i);
    if (row->kind != PL_YNODE_SEQ || row->nitems != 2)
      return at(s->err, row, rp, "expected a row [z, speed] of 2 numbers (m, m/s), found %s",
                found(row).s);
    join_index(zp, sizeof zp, rp, 0);
    join_index(vp, sizeof vp, rp, 1);
    const PlYNode *nz = row->items[0], *nv = row->items[1];
    double z = 0.0, v = 0.0;
    int rc = parse_number(s->err, nz, zp, "m", &z);
    if (!rc) rc = check_range(s->err, nz, zp, "m", kAny, z);
    if (rc) return rc;
    if (!(z <= 0.0))
      return at(s->err, nz, zp, "must be at most 0 m (the mean sea level), got %s", got(nz).s);
    if (i > 0 && !(z > c->table_z[i - 1]))
      return at(s->err, nz, zp,
                "z must increase from row to row: must be greater than %.10g m (the z of "
                "row %zu), got %s",
                c->table_z[i - 1], i - 1, got(nz).s);
    if ((rc = parse_number(s->err, nv, vp, "m/s", &v))) return rc;
    if ((rc = check_range(s->err, nv, vp, "m/s", kNonNegative, v))) return rc;
    c->table_z[i] = z;
    c->table_speed[i] = v;
  }
  c->ntable = (int)n->nitems;
  return 0;
}

/* current: profile and its values, direction, start and ramp times. */
static int read_current(const Scope *top, PlModel *m)
{
  Scope s;
  bool present;
  int rc = open_child(top, "current", &s, &present);
  if (rc || !present) return rc;
  PlCurrent *c = &m->current;
  if (!pair_of(&s, "profile"))
    return missing(&s, "profile", NULL, " (uniform, sheared, table or none)");
  int prof = 0;
  if ((rc = get_choice(&s, "profile", &prof))) return rc;
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
        (rc = reject_key(&s, kUse[i].key, "is only used by the %s profile (profile is '%s')",
                         PlChoiceCurrentProfiles[kUse[i].profile], PlChoiceCurrentProfiles[prof])))
      return rc;
  c->kind = (PlCurrentKind)prof;
  if ((rc = get_number(&s, "direction", &c->direction_deg, NULL))) return rc;
  if ((rc = get_number(&s, "start_time", &c->start_time, NULL)))
    return rc;
  if ((rc = get_number(&s, "ramp_time", &c->ramp_time, NULL)))
    return rc;
  switch (c->kind) {
  case PL_CURRENT_UNIFORM:
    return get_number_if(&s, "speed", true, &c->speed, NULL);
  case PL_CURRENT_SHEARED:
    if ((rc = get_number_if(&s, "surface_speed", true, &c->surface_speed, NULL)))
      return rc;
    return get_number_if(&s, "seabed_speed", true, &c->seabed_speed, NULL);
  case PL_CURRENT_TABLE:
    if (!pair_of(&s, "table"))
      return missing(&s, "table", NULL, " (a list of rows [z, speed] in m and m/s)");
    return read_current_table(&s, c);
  case PL_CURRENT_NONE:
    break;
  }
  return 0;
}

/* mesh: elements or target_length, and zones (needs m->length). */
static int read_mesh(Ctx *c, const Scope *top, PlModel *m)
{
  Scope s;
  bool present;
  int rc = open_child_if(top, "mesh", true, &s, &present);
  if (rc) return rc;
  const PlYPair *pe = pair_of(&s, "elements"), *pt = pair_of(&s, "target_length");
  if (pe && pt) {
    const PlYPair *later = later_pair(pt, pe);
    char path[PATH_CAP];
    join_key(path, sizeof path, s.path, later->key->text);
    return at(c->err, later->key, path, "give either 'elements' or 'target_length', not both");
  }
  if (!pe && !pt) return missing(&s, "elements", NULL, " (or 'target_length' (m))");
  const PlYNode *nt = NULL;
  if (pe) {
    if ((rc = get_int_why(&s, "elements", " (a line needs at least 2 elements)", &m->mesh_elements)))
      return rc;
    m->mesh_target_length = 0.0;
  } else {
    m->mesh_elements = 0;
    if ((rc = get_number(&s, "target_length", &m->mesh_target_length, &nt)))
      return rc;
    char tp[PATH_CAP];
    join_key(tp, sizeof tp, s.path, "target_length");
    if (!(m->mesh_target_length <= 0.5 * m->length))
      return at(c->err, nt, tp,
                "must be at most half of line.length (%.10g m), so that the line has at least "
                "2 elements; got %s",
                0.5 * m->length, got(nt).s);
    if (!(m->length / m->mesh_target_length <= PL_MESH_MAX_ELEMENTS))
      return at(c->err, nt, tp,
                "gives %.4g elements (line.length / target_length), more than the %d a mesh "
                "may have; got %s",
                m->length / m->mesh_target_length, PL_MESH_MAX_ELEMENTS, got(nt).s);
  }
  /* elements outside the zones, for the budget of the zones below */
  const double nglobal =
      pe ? (double)m->mesh_elements : m->length / m->mesh_target_length;
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
    if ((rc = open_scope(c->err, list->items[i], list->items[i], ip, &z))) return rc;
    PlMeshZone *zone = &m->zones[i];
    const PlYNode *nto = NULL;
    const PlYNode *nfrom = NULL;
    if ((rc = get_number(&z, "from", &zone->s_from, &nfrom))) return rc;
    if (!(zone->s_from < m->length)) {
      char fp[PATH_CAP];
      join_key(fp, sizeof fp, ip, "from");
      return at(c->err, nfrom, fp, "must be less than %.10g m, got %s", m->length, got(nfrom).s);
    }
    if ((rc = get_number(&z, "to", &zone->s_to, &nto))) return rc;
    char tp[PATH_CAP];
    join_key(tp, sizeof tp, ip, "to");
    if (!(zone->s_to > zone->s_from))
      return at(c->err, nto, tp, "must be greater than 'from' (%.10g m), got %s", zone->s_from,
                got(nto).s);
    if (!(zone->s_to <= m->length))
      return at(c->err, nto, tp, "must be at most line.length (%.10g m), got %s", m->length,
                got(nto).s);
    if ((rc = get_number(&z, "target_length", &zone->target_length, NULL)))
      return rc;
    for (size_t j = 0; j < i; j++)
      if (m->zones[j].s_from < zone->s_to && zone->s_from < m->zones[j].s_to)
        return at(c->err, list->items[i], ip,
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
    join_index(ip, sizeof ip, path, worst);
    join_key(tp, sizeof tp, ip, "target_length");
    const PlYNode *nw = value_of_node(list->items[worst], "target_length");
    return at(c->err, nw, tp,
              "the mesh would have about %.4g elements (%.4g outside the zones, %.4g in "
              "them), more than the %d a mesh may have; got %s",
              nglobal + nzone, nglobal, nzone, PL_MESH_MAX_ELEMENTS, got(nw).s);
  }
  return 0;
}


/* ---- ends ----------------------------------------------------------------------------- */

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

/* ---- prescribed motion of an end ------------------------------------------------------ */

/* Time-series files (see docs/model-file.md, "Time-series file"). */
#define CSV_MAX_BYTES (256u * 1024u * 1024u) /* largest file */
#define CSV_MAX_ROWS 10000000                /* most data rows */
#define CSV_LINE_MAX 4096                    /* longest line [bytes] */
#define CSV_MAX_FIELDS 8                     /* fields kept per line (more are only counted) */

/* The columns of a kind of time-series file: the header names in table order (7; a
 * table row always has 7 values), the field counts a header may have (the first nshort or
 * all 7 names) and the headers as messages show them. */
typedef struct {
  const char *names[7];
  int nshort;          /* a shorter header allowed (4: t,x,y,z), or 7 */
  const char *shown;   /* "'t,x,y,z' or 't,x,y,z,rx,ry,rz'" */
  const char *short_s; /* the short header without quotes */
  const char *full_s;  /* the full header without quotes */
} CsvFormat;

/* Prescribed motion of an end (ends.*.motion.file): offsets, rotations optional. */
static const CsvFormat kMotionCsv = {{"t", "x", "y", "z", "rx", "ry", "rz"},
                                     4,
                                     "'t,x,y,z' or 't,x,y,z,rx,ry,rz'",
                                     "t,x,y,z",
                                     "t,x,y,z,rx,ry,rz"};
/* Environmental load on the vessel (vessel.environment_load.file): force and moment. */
static const CsvFormat kLoadCsv = {{"t", "Fx", "Fy", "Fz", "Mx", "My", "Mz"},
                                   7,
                                   "'t,Fx,Fy,Fz,Mx,My,Mz'",
                                   "t,Fx,Fy,Fz,Mx,My,Mz",
                                   "t,Fx,Fy,Fz,Mx,My,Mz"};

/* A buffered reader of one file, line by line. */
typedef struct {
  FILE *f;
  unsigned char buf[1 << 16];
  size_t pos, len;  /* unread bytes: buf[pos..len) */
  size_t total;     /* bytes read so far */
  bool eof;
  int read_errno;   /* errno of a failed read */
} CsvReader;

/* Reads the next line into line (capacity CSV_LINE_MAX + 1) without its "\n" or "\r\n",
 * NUL-terminated, its length in *n (it may hold NUL bytes). Returns 1 for a line, 0 at the
 * end of the file, -1 on a read error (r->read_errno), -2 when the file is larger than
 * CSV_MAX_BYTES, -3 for a line longer than CSV_LINE_MAX bytes. */
static int csv_line(CsvReader *r, char *line, size_t *n)
{
  size_t used = 0;
  bool any = false;
  for (;;) {
    if (r->pos == r->len) {
      if (r->eof) break;
      errno = 0;
      const size_t got_n = fread(r->buf, 1, sizeof r->buf, r->f);
      if (got_n == 0) {
        r->eof = true;
        if (ferror(r->f)) {
          r->read_errno = errno ? errno : EIO;
          return -1;
        }
        break;
      }
      r->total += got_n;
      if (r->total > CSV_MAX_BYTES) return -2;
      r->pos = 0;
      r->len = got_n;
    }
    any = true;
    const unsigned char *start = r->buf + r->pos;
    const size_t avail = r->len - r->pos;
    const unsigned char *nl = memchr(start, '\n', avail);
    const size_t take = nl ? (size_t)(nl - start) : avail;
    if (used + take > CSV_LINE_MAX) return -3;
    memcpy(line + used, start, take);
    used += take;
    r->pos += take + (nl ? 1 : 0);
    if (nl) break;
  }
  if (!any) return 0;
  if (used > 0 && line[used - 1] == '\r') used--;
  line[used] = '\0';
  *n = used;
  return 1;
}

/* One comma-separated field: its text without surrounding blanks and the 1-based column
 * where it starts (its first non-blank byte; just after the comma when it is blank). */
typedef struct {
  const char *s;
  size_t len;
  int col;
} Field;

/* Splits line[0..n) at commas into f (the first CSV_MAX_FIELDS); returns the field count. */
static int csv_split(const char *line, size_t n, Field *f)
{
  int nf = 0;
  size_t i = 0;
  for (;;) {
    size_t a = i;
    while (a < n && (line[a] == ' ' || line[a] == '\t')) a++;
    size_t e = a;
    while (e < n && line[e] != ',') e++;
    size_t b = e;
    while (b > a && (line[b - 1] == ' ' || line[b - 1] == '\t')) b--;
    if (nf < CSV_MAX_FIELDS) {
      f[nf].s = line + a;
      f[nf].len = b - a;
      f[nf].col = (int)(a < b ? a : i) + 1; /* a blank field: where it starts */
    }
    nf++;
    if (e >= n) return nf;
    i = e + 1;
  }
}

/* True for a line that is blank or a comment ('#' as its first non-blank byte). */
static bool csv_skip(const char *line, size_t n)
{
  size_t i = 0;
  while (i < n && (line[i] == ' ' || line[i] == '\t')) i++;
  return i == n || line[i] == '#';
}

/* Where a time series is read from, for messages. */
typedef struct {
  PlError *err;
  const char *file; /* the file as opened (resolved path) */
  const char *key;  /* key path of the file: entry */
  const CsvFormat *fmt;
} CsvPlace;

/* Parses field f of line `line` as a finite number (the rules of the YAML numbers).
 * Returns 0 or 2. */
static int csv_number(const CsvPlace *cp, int line, const Field *f, double *out)
{
  if (f->len == 0)
    return report(cp->err, cp->file, line, f->col, cp->key,
                  "expected a number, found an empty field");
  bool charset_ok = true;
  for (size_t i = 0; charset_ok && i < f->len; i++)
    charset_ok = f->s[i] != '\0' && strchr("0123456789+-.eE", f->s[i]) != NULL;
  char *end = NULL;
  double v = 0.0;
  if (charset_ok) v = strtod(f->s, &end); /* stops at ',', a blank or the line's NUL */
  const Txt shown = clip(f->s, f->len);
  if (!charset_ok || end != f->s + f->len) {
    char word[16];
    if (f->len < sizeof word) {
      memcpy(word, f->s, f->len);
      word[f->len] = '\0';
      if (strlen(word) == f->len && nonfinite_word(word))
        return report(cp->err, cp->file, line, f->col, cp->key,
                      "expected a finite number, found '%s'", shown.s);
    }
    return report(cp->err, cp->file, line, f->col, cp->key, "expected a number, found '%s'",
                  shown.s);
  }
  if (!isfinite(v))
    return report(cp->err, cp->file, line, f->col, cp->key,
                  "number out of range (not a finite double), found '%s'", shown.s);
  if (!meaningful(v))
    return report(cp->err, cp->file, line, f->col, cp->key, NOT_MEANINGFUL_FMT, shown.s);
  *out = v;
  return 0;
}

/* Checks the header line (fields f[0..nf), the line line[0..n)) against cp->fmt; sets
 * *ncols to its field count (fmt->nshort or 7). Returns 0 or 2. */
static int csv_header(const CsvPlace *cp, int line, const char *text, size_t n,
                      const Field *f, int nf, int *ncols)
{
  const CsvFormat *fmt = cp->fmt;
  int bad_col = 0;
  const int ncheck = nf < 7 ? nf : 7;
  for (int i = 0; i < ncheck && !bad_col; i++)
    if (f[i].len != strlen(fmt->names[i]) || memcmp(f[i].s, fmt->names[i], f[i].len) != 0)
      bad_col = f[i].col;
  if (!bad_col && (nf == fmt->nshort || nf == 7)) {
    *ncols = nf;
    return 0;
  }
  if (!bad_col) bad_col = nf > 7 ? f[7].col : (int)n + 1; /* too many, or too few names */
  const Txt shown = clip_n(text, n, 80);
  return report(cp->err, cp->file, line, bad_col, cp->key, "expected the header %s, found '%s'",
                fmt->shown, shown.s);
}

/* Reads a time series in cp->fmt from the open file f (see docs/model-file.md) into
 * *table ([nrows][7], malloc'd, missing columns 0), *nrows and *ncols. fnode is the YAML
 * value of the file: key and shown the path as given, for errors that are not at a place
 * of the file. Returns 0, or 2 with nothing allocated and the outputs unchanged. */
static int csv_read(const CsvPlace *cp, FILE *f, const PlYNode *fnode, const char *shown,
                    double **table_out, int *nrows_out, int *ncols_out)
{
  CsvReader *r = calloc(1, sizeof *r);
  char *text = malloc(CSV_LINE_MAX + 1);
  double *table = NULL;
  size_t cap = 0, nrows = 0;
  int ncols = 0, header_line = 0, line = 0, prev_line = 0, rc = 0;
  if (!r || !text) {
    rc = at(cp->err, fnode, cp->key, "cannot read '%s' (resolved to '%s'): out of memory", shown,
            cp->file);
    goto done;
  }
  r->f = f;
  for (;;) {
    size_t n = 0;
    const int got_line = csv_line(r, text, &n);
    if (got_line == 0) break;
    if (got_line == -1 || got_line == -2) {
      rc = at(cp->err, fnode, cp->key, "cannot read '%s' (resolved to '%s'): %s", shown, cp->file,
              got_line == -1 ? strerror(r->read_errno) : "larger than 256 MiB");
      goto done;
    }
    line++;
    if (got_line == -3) {
      rc = report(cp->err, cp->file, line, CSV_LINE_MAX + 1, cp->key,
                  "line longer than %d bytes", CSV_LINE_MAX);
      goto done;
    }
    char *p = text;
    if (line == 1 && n >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) { /* UTF-8 byte order mark */
      p += 3;
      n -= 3;
    }
    if (csv_skip(p, n)) continue;
    Field fl[CSV_MAX_FIELDS];
    const int nf = csv_split(p, n, fl);
    if (!ncols) {
      if ((rc = csv_header(cp, line, p, n, fl, nf, &ncols))) goto done;
      header_line = line;
      continue;
    }
    if (nf != ncols) {
      rc = report(cp->err, cp->file, line, nf > ncols ? fl[ncols].col : (int)n + 1, cp->key,
                  "expected %d fields (%s), found %d", ncols,
                  ncols == 7 ? cp->fmt->full_s : cp->fmt->short_s, nf);
      goto done;
    }
    if (nrows == CSV_MAX_ROWS) {
      rc = report(cp->err, cp->file, line, 1, cp->key, "more than %d data rows", CSV_MAX_ROWS);
      goto done;
    }
    if (nrows == cap) {
      const size_t ncap = cap ? (2 * cap > CSV_MAX_ROWS ? CSV_MAX_ROWS : 2 * cap) : 1024;
      double *nt = realloc(table, ncap * 7 * sizeof *nt);
      if (!nt) {
        rc = at(cp->err, fnode, cp->key,
                "cannot read '%s' (resolved to '%s'): out of memory (%zu rows)", shown,
                cp->file, nrows);
        goto done;
      }
      table = nt;
      cap = ncap;
    }
    double *row = table + 7 * nrows;
    for (int k = 0; k < 7; k++) row[k] = 0.0;
    for (int k = 0; k < ncols; k++)
      if ((rc = csv_number(cp, line, &fl[k], &row[k]))) goto done;
    if (nrows > 0 && !(row[0] > table[7 * (nrows - 1)])) {
      const Txt tt = clip(fl[0].s, fl[0].len);
      rc = report(cp->err, cp->file, line, fl[0].col, cp->key,
                  "t must increase from row to row: must be greater than %.10g s (line %d), "
                  "got %s",
                  table[7 * (nrows - 1)], prev_line, tt.s);
      goto done;
    }
    prev_line = line;
    nrows++;
  }
  if (!ncols) {
    rc = report(cp->err, cp->file, 1, 1, cp->key,
                "no header line: expected %s (the file is empty or holds only blank and "
                "comment lines)",
                cp->fmt->shown);
    goto done;
  }
  if (nrows < 2) {
    rc = report(cp->err, cp->file, header_line, 1, cp->key,
                "expected at least 2 data rows after the header, found %zu", nrows);
    goto done;
  }
  double *fit = realloc(table, nrows * 7 * sizeof *fit); /* give back the unused rows */
  if (fit) table = fit;
  *table_out = table;
  *nrows_out = (int)nrows;
  *ncols_out = ncols;
  table = NULL;
done:
  free(table);
  free(text);
  free(r);
  return rc;
}

/* The path of file for opening: as given when absolute or when the model's path has no
 * directory, else relative to the model file's directory. */
static void resolve_path(const char *model_path, const char *file, char *out, size_t cap)
{
  out[0] = '\0';
  const char *slash = model_path ? strrchr(model_path, '/') : NULL;
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
  /* fuzzing (tests/fuzz): never open a file outside the model's (non-existent) directory */
  const bool absolute = false;
#else
  const bool absolute = file[0] == '/';
#endif
  if (!absolute && slash) {
    const size_t dlen = (size_t)(slash - model_path) + 1;
    if (dlen < cap) {
      memcpy(out, model_path, dlen);
      out[dlen] = '\0';
    }
  }
  cat(out, cap, file);
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
      if (names[0]) cat(names, sizeof names, ", ");
      cat(names, sizeof names, kDofNames[k]);
    }
  return at(err, where, path,
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
  if ((rc = get_number(s, "start_time", &mo->start_time, NULL)))
    return rc;
  if ((rc = get_number(s, "ramp_time", &mo->ramp_time, NULL)))
    return rc;
  if (!pair_of(s, "dofs"))
    return missing(s, "dofs", NULL,
                   " (a mapping from x, y, z, rx, ry, rz to {amplitude, period, phase})");
  Scope d;
  bool present;
  if ((rc = open_child(s, "dofs", &d, &present))) return rc;
  if (d.map->npairs == 0)
    return at(s->err, d.map, d.path, "must name at least one DOF (x, y, z, rx, ry, rz)");
  const PlYNode *first_rot = NULL;
  char rot_path[PATH_CAP] = "";
  for (int k = 0; k < 6; k++) {
    const PlYPair *p = pair_of(&d, kDofNames[k]);
    if (!p) continue;
    char hp[PATH_CAP];
    join_key(hp, sizeof hp, d.path, kDofNames[k]);
    Scope h;
    if ((rc = open_scope(s->err, p->value, p->key, hp, &h))) return rc;
    PlHarmonic *hm = &mo->harmonic[k];
    if ((rc = get_number(&h, "amplitude", &hm->amplitude, NULL)))
      return rc;
    if ((rc = get_number(&h, "period", &hm->period, NULL))) return rc;
    if ((rc = get_number(&h, "phase", &hm->phase_deg, NULL))) return rc;
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
static int read_circle(const Scope *s, PlMotion *mo)
{
  int rc;
  if ((rc = get_number(s, "start_time", &mo->start_time, NULL)))
    return rc;
  if ((rc = get_number(s, "radius", &mo->radius, NULL))) return rc;
  if ((rc = get_number(s, "period", &mo->period, NULL))) return rc;
  if ((rc = get_number(s, "ramp_up", &mo->ramp_up, NULL))) return rc;
  if ((rc = get_number(s, "hold", &mo->hold, NULL))) return rc;
  if ((rc = get_number(s, "ramp_down", &mo->ramp_down, NULL)))
    return rc;
  int dir = mo->counter_clockwise ? 0 : 1;
  if ((rc = get_choice(s, "direction", &dir))) return rc;
  mo->counter_clockwise = (dir == 0);
  return 0;
}

/* Reads the time-series file named by key "file" of scope s (required; the name as given
 * into name[cap]), relative to the model file's directory, in format fmt, into *table
 * ([nrows][7], malloc'd), *nrows and *ncols. Returns 0, or 2 with nothing allocated. */
static int read_csv_file(const Ctx *c, const Scope *s, const CsvFormat *fmt, char *name,
                         size_t cap, double **table, int *nrows, int *ncols)
{
  int rc;
  if ((rc = get_string(s, "file", false, name, cap))) return rc;
  const PlYNode *fnode = value_of(s, "file");
  char key[PATH_CAP], resolved[2 * PL_PATH_MAX];
  join_key(key, sizeof key, s->path, "file");
  resolve_path(c->model_path, name, resolved, sizeof resolved);
  FILE *f = fopen(resolved, "rb");
  if (!f) {
    const int en = errno;
    return at(c->err, fnode, key, "cannot read '%s' (resolved to '%s'): %s", name, resolved,
              strerror(en));
  }
  const CsvPlace cp = {c->err, resolved, key, fmt};
  rc = csv_read(&cp, f, fnode, name, table, nrows, ncols);
  fclose(f);
  return rc;
}

/* A time-series motion: file, read relative to the model file's directory. */
static int read_timeseries(const Ctx *c, const Scope *s, const char *end_path, PlEnd *e)
{
  PlMotion *mo = &e->motion;
  int rc;
  if ((rc = get_string(s, "file", false, mo->file, sizeof mo->file))) return rc;
  int interp = choice_default(s, "interpolation");
  if ((rc = get_choice(s, "interpolation", &interp))) return rc;
  mo->cubic = (interp == 1);
  if ((rc = read_csv_file(c, s, &kMotionCsv, mo->file, sizeof mo->file, &mo->table, &mo->nrows,
                          &mo->ncols)))
    return rc;
  const PlYNode *fnode = value_of(s, "file");
  char key[PATH_CAP];
  join_key(key, sizeof key, s->path, "file");
  if (mo->ncols == 7)
    return check_rotation_hold(c->err, e, end_path, fnode, key,
                               "the file has rotation columns (rx, ry, rz): a rotational motion");
  return 0;
}

/* motion: of an end, in a dynamic analysis. */
static int read_motion(const Ctx *c, const Scope *end, PlEnd *e)
{
  const PlYPair *pm = pair_of(end, "motion");
  if (!pm) return 0;
  int rc = dynamic_only(c, end, "motion");
  if (rc) return rc;
  char path[PATH_CAP];
  join_key(path, sizeof path, end->path, "motion");
  Scope s;
  if ((rc = open_scope(c->err, pm->value, pm->key, path, &s))) return rc;
  if (!pair_of(&s, "type")) return missing(&s, "type", NULL, " (harmonic, circle or timeseries)");
  int type = 0;
  if ((rc = get_choice(&s, "type", &type))) return rc;
  const PlMotionKind kind = (PlMotionKind)(type + PL_MOTION_HARMONIC);
  const unsigned bit = 1u << (kind - 1);
  for (size_t i = 0; i < sizeof kMotionKeyUse / sizeof kMotionKeyUse[0]; i++) {
    const unsigned u = kMotionKeyUse[i].types;
    if (u & bit) continue;
    char users[64] = "";
    int nusers = 0;
    for (int k = 0; PlChoiceMotionTypes[k]; k++)
      if (u & (1u << k)) {
        if (nusers++) cat(users, sizeof users, " and ");
        cat(users, sizeof users, PlChoiceMotionTypes[k]);
      }
    if ((rc = reject_key(&s, kMotionKeyUse[i].key, "is only used by %s%s motion%s (type is '%s')",
                         nusers > 1 ? "" : "a ", users, nusers > 1 ? "s" : "",
                         PlChoiceMotionTypes[type])))
      return rc;
  }
  e->motion.kind = kind;
  switch (kind) {
  case PL_MOTION_HARMONIC: return read_harmonic(&s, end->path, e);
  case PL_MOTION_CIRCLE: return read_circle(&s, &e->motion);
  case PL_MOTION_TIMESERIES: return read_timeseries(c, &s, end->path, e);
  case PL_MOTION_NONE: break;
  }
  return 0;
}

/* Reads key of scope s as a load vector of 3 numbers, each at most its schema row's bound
 * in magnitude (larger loads are not physically meaningful for what carries them: "a line",
 * "a vessel"). Absent: unchanged. 0 or 2. */
static int get_load(const Scope *s, const char *key, const char *what, double out[3])
{
  const PlKeySpec *k = spec_of(s, key);
  const char *unit = PlSchemaUnit(k);
  const double bound = k->hi;
  const PlYNode *n = value_of(s, key);
  if (!n) return 0;
  char path[PATH_CAP];
  join_key(path, sizeof path, s->path, key);
  if (n->kind != PL_YNODE_SEQ || n->nitems != 3)
    return at(s->err, n, path, "expected a list of 3 numbers (%s), found %s", unit, found(n).s);
  double v[3];
  for (int i = 0; i < 3; i++) {
    const PlYNode *it = n->items[i];
    char ip[PATH_CAP];
    join_index(ip, sizeof ip, path, (size_t)i);
    int rc = parse_number(s->err, it, ip, unit, &v[i]);
    if (rc) return rc;
    if (!(fabs(v[i]) <= bound))
      return at(s->err, it, ip,
                "must be at most %.0e %s in magnitude (a larger %s is not physically "
                "meaningful for %s), got %s",
                bound, unit, key, what, got(it).s);
    if ((rc = check_range(s->err, it, ip, unit, kAny, v[i]))) return rc;
  }
  for (int i = 0; i < 3; i++) out[i] = v[i];
  return 0;
}

/* One end (which = 0 bottom, 1 top). */
/* ends.*.point or ends.*.body with at: the end attached to a point or a body of the model (a
 * line of lines:): held in x, y, z at the point or the body point, rotations free, nothing
 * else given. */
static int read_end_point(Ctx *c, const Scope *s, PlEnd *e)
{
  char path[PATH_CAP];
  const PlYPair *pp = pair_of(s, "point"), *pb = pair_of(s, "body"), *pa = pair_of(s, "at");
  const PlYPair *first = pp ? pp : pb ? pb : pa;
  join_key(path, sizeof path, s->path, first->key->text);
  if (!c->graph)
    return at(c->err, first->key, path,
              "is only used by an end of a line of lines: (ends attached to points: or bodies:)");
  if (pp && pb) {
    const PlYPair *later = later_pair(pp, pb);
    join_key(path, sizeof path, s->path, later->key->text);
    return at(c->err, later->key, path, "give either 'point' or 'body', not both");
  }
  if (pa && !pb) {
    join_key(path, sizeof path, s->path, "at");
    return at(c->err, pa->key, path, "is the body point of an end attached to a body (give 'body' with it)");
  }
  for (size_t k = 0; k < s->map->npairs; k++) {
    const PlYNode *key = s->map->pairs[k].key;
    if (strcmp(key->text, "point") && strcmp(key->text, "body") && strcmp(key->text, "at")) {
      char kp[PATH_CAP];
      join_key(kp, sizeof kp, s->path, key->text);
      return at(c->err, key, kp, "cannot be given with '%s': the %s holds the end (rotations free)",
                pp ? "point" : "body", pp ? "point" : "body");
    }
  }
  const char *what = pp ? "point" : "body";
  join_key(path, sizeof path, s->path, what);
  const PlYNode *v = (pp ? pp : pb)->value;
  if (v->kind != PL_YNODE_SCALAR || strlen(v->text) != v->len)
    return at(c->err, v, path, "expected a %s's name, found %s", what, found(v).s);
  const int n = pp ? c->graph->npoints : c->graph->nbodies;
  int idx = -1;
  for (int k = 0; k < n; k++)
    if (!strcmp(pp ? c->graph->points[k].name : c->graph->bodies[k].id, v->text)) idx = k;
  if (idx < 0) {
    char names[512] = "";
    for (int k = 0; k < n; k++) {
      if (k) cat(names, sizeof names, ", ");
      cat(names, sizeof names, pp ? c->graph->points[k].name : c->graph->bodies[k].id);
    }
    return at(c->err, v, path, "no %s named '%s' (the %s are: %s)", what, got(v).s, pp ? "points" : "bodies",
              n ? names : pp ? "none; give them under points:" : "none; give them under bodies:");
  }
  double P[3];
  if (pp) {
    e->point = idx;
    memcpy(P, c->graph->points[idx].position, sizeof P);
    c->point_uses[idx]++;
  } else {
    if (!pa) return missing(s, "at", "m", " (the body point the end hangs from, body frame from O_b)");
    int rc = get_list(s, "at", e->at, NULL);
    if (rc) return rc;
    e->body = idx;
    const PlVesselModel *b = &c->graph->bodies[idx];
    double q[4];
    PlVesselQuatFromEulerZYX(b->rpy, q);
    PlVesselModel hinge = *b;
    memcpy(hinge.hang_off, e->at, sizeof e->at);
    PlVesselHangOff(&hinge, b->position, q, P, NULL);
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
    /* the top end hangs from the vessel: PlVesselTopEnd fills it after the vessel is read */
    int rc = open_child(ends, key, &s, &present);
    if (rc || !present || s.map->npairs == 0) return rc;
    const PlYNode *k = s.map->pairs[0].key;
    char kp[PATH_CAP];
    join_key(kp, sizeof kp, s.path, k->text);
    return at(c->err, k, kp,
              "is not allowed with a vessel: the top end hangs from the vessel, which sets "
              "its position, rotation and loads (set vessel.hang_off and vessel.initial "
              "instead, and leave ends.top out or empty)");
  }
  if (which == 1 && !pair_of(ends, key))
    return missing(ends, key, NULL, " (or a vessel: block, which the top end then hangs from)");
  int rc = open_child(ends, key, &s, &present);
  if (rc) return rc;
  e->point = e->body = -1;
  if (pair_of(&s, "point") || pair_of(&s, "body") || pair_of(&s, "at")) return read_end_point(c, &s, e);
  const PlYNode *pos_items[3] = {NULL, NULL, NULL};
  bool have_pos = false;
  if ((rc = get_vec3(&s, "position", e->position, e->has_position, pos_items, &have_pos)))
    return rc;
  c->end_z[which] = (have_pos && e->has_position[2]) ? pos_items[2] : NULL;
  double deg[3] = {0, 0, 0};
  if ((rc = get_vec3(&s, "orientation", deg, NULL, NULL, &e->has_orientation)))
    return rc;
  if (e->has_orientation) euler_zxy(deg, e->orientation);
  if ((rc = read_fixed(&s, e))) return rc;
  if ((rc = get_load(&s, "force", "a line", e->force))) return rc;
  if ((rc = get_load(&s, "moment", "a line", e->moment))) return rc;
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
  return read_motion(c, &s, e);
}

/* ends: bottom and top. */
static int read_ends(Ctx *c, const Scope *top, PlModel *m)
{
  Scope s;
  bool present;
  int rc = open_child_if(top, "ends", true, &s, &present);
  if (rc) return rc;
  if ((rc = read_end(c, &s, 0, &m->ends[0]))) return rc;
  return read_end(c, &s, 1, &m->ends[1]);
}

/* ---- analysis, output ----------------------------------------------------------------- */


/* analysis.dynamic: settings of the time integration. */
static int read_dynamic(const Scope *an, PlDynamicSettings *d)
{
  Scope s;
  bool present;
  int rc = open_child(an, "dynamic", &s, &present);
  if (rc) return rc;
  const PlYNode *ndur = NULL, *nout = NULL;
  if ((rc = get_number(&s, "duration", &d->duration, &ndur))) return rc;
  if ((rc = get_number(&s, "output_interval", &d->output_interval, &nout)))
    return rc;
  if (!(d->output_interval <= d->duration)) {
    char path[PATH_CAP];
    if (nout) {
      join_key(path, sizeof path, s.path, "output_interval");
      return at(s.err, nout, path, "must be at most duration (%.10g s), got %s", d->duration,
                got(nout).s);
    }
    join_key(path, sizeof path, s.path, "duration");
    return at(s.err, ndur, path,
              "must be at least output_interval (%.10g s, the default), got %s",
              d->output_interval, got(ndur).s);
  }
  if ((rc = get_number(&s, "rtol", &d->rtol, NULL))) return rc;
  if ((rc = get_number(&s, "atol_position", &d->atol_position, NULL)))
    return rc;
  if ((rc = get_number(&s, "atol_rotation", &d->atol_rotation, NULL)))
    return rc;
  if ((rc = get_number(&s, "atol_velocity", &d->atol_velocity, NULL)))
    return rc;
  if ((rc = get_number(&s, "atol_strain", &d->atol_strain, NULL))) return rc;
  if ((rc = get_number(&s, "atol_reaction", &d->atol_reaction, NULL))) return rc;
  if ((rc = get_number(&s, "max_step", &d->max_step, NULL))) return rc;
  if ((rc = get_number(&s, "initial_step", &d->initial_step, NULL)))
    return rc;
  if ((rc = get_int(&s, "max_order", &d->max_order))) return rc;
  return get_int(&s, "max_steps", &d->max_steps);
}

/* analysis: solver settings (also tells c whether the analysis is dynamic). */
static int read_analysis(Ctx *c, const Scope *top, PlModel *m)
{
  Scope s;
  bool present;
  int rc = open_child(top, "analysis", &s, &present);
  if (rc || !present) return rc;
  PlAnalysis *a = &m->analysis;
  int type = choice_default(&s, "type"), guess = a->initial_guess == PL_GUESS_STRAIGHT ? 1 : 0;
  if ((rc = get_choice(&s, "type", &type))) return rc;
  a->kind = type ? PL_ANALYSIS_DYNAMIC : PL_ANALYSIS_STATIC;
  c->kind = a->kind;
  c->kind_given = pair_of(&s, "type") != NULL;
  if ((rc = get_int(&s, "load_steps", &a->load_steps))) return rc;
  if ((rc = get_int(&s, "max_cutbacks", &a->max_cutbacks))) return rc;
  if ((rc = get_int(&s, "max_iterations", &a->max_iterations))) return rc;
  if ((rc = get_number(&s, "rtol", &a->rtol, NULL))) return rc;
  if ((rc = get_number(&s, "atol", &a->atol, NULL))) return rc;
  if ((rc = get_choice(&s, "initial_guess", &guess))) return rc;
  a->initial_guess = guess ? PL_GUESS_STRAIGHT : PL_GUESS_CATENARY;
  /* start_from: a previous run's output directory (relative to the model file) whose
   * static.csv is the start shape; it replaces initial_guess */
  char from[PL_PATH_MAX];
  from[0] = '\0';
  if ((rc = get_string(&s, "start_from", false, from, sizeof from))) return rc;
  if (from[0]) {
    resolve_path(c->model_path, from, a->start_from, sizeof a->start_from);
    a->initial_guess = PL_GUESS_RESULTS;
    PlShape shape;
    char why[PL_ERRMSG_MAX - 64];
    if (PlShapeRead(a->start_from, &shape, why, sizeof why))
      return at(c->err, value_of(&s, "start_from"), "analysis.start_from", "%s", why);
    PlShapeFree(&shape);
  }
  if ((rc = get_string(&s, "petsc_options", true, a->petsc_options, sizeof a->petsc_options)))
    return rc;
  if ((rc = dynamic_only(c, &s, "dynamic"))) return rc;
  if (a->kind != PL_ANALYSIS_DYNAMIC) return 0;
  if (!pair_of(&s, "dynamic"))
    return missing(&s, "dynamic", NULL,
                   " (analysis.type is 'dynamic': give its settings, at least 'duration' (s))");
  return read_dynamic(&s, &a->dynamic);
}

/* True for the characters of an output point name: [A-Za-z0-9_-]. */
static bool point_name_char(char ch)
{
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
         ch == '_' || ch == '-';
}

/* output.points: named points of the line (dynamic analyses). */
static int read_points(const Ctx *c, const Scope *out, PlModel *m)
{
  const PlYPair *pp = pair_of(out, "points");
  if (!pp) return 0;
  int rc = dynamic_only(c, out, "points");
  if (rc) return rc;
  char path[PATH_CAP];
  join_key(path, sizeof path, out->path, "points");
  const PlYNode *list = pp->value;
  if (list->kind != PL_YNODE_SEQ)
    return at(c->err, list, path, "expected a list of points {name, arc_length}, found %s",
              found(list).s);
  if (list->nitems > PL_MAX_OUTPUT_NODES)
    return at(c->err, list, path, "too many output points (%zu, at most %d)", list->nitems,
              PL_MAX_OUTPUT_NODES);
  const PlYNode *name_nodes[PL_MAX_OUTPUT_NODES];
  for (size_t i = 0; i < list->nitems; i++) {
    char ip[PATH_CAP], np[PATH_CAP], ap[PATH_CAP];
    join_index(ip, sizeof ip, path, i);
    join_key(np, sizeof np, ip, "name");
    join_key(ap, sizeof ap, ip, "arc_length");
    Scope p;
    if ((rc = open_scope(c->err, list->items[i], list->items[i], ip, &p))) return rc;
    PlOutputPoint *op = &m->output_points[i];
    if ((rc = get_string(&p, "name", false, op->name, sizeof op->name))) return rc;
    const PlYNode *nn = value_of(&p, "name");
    name_nodes[i] = nn;
    for (size_t k = 0; op->name[k]; k++)
      if (!point_name_char(op->name[k]))
        return at(c->err, nn, np,
                  "may only hold letters, digits, '_' and '-' (it names an output file), "
                  "found '%s'",
                  got(nn).s);
    for (size_t j = 0; j < i; j++)
      if (strcmp(m->output_points[j].name, op->name) == 0)
        return at(c->err, nn, np, "duplicate output point name '%s' (first given at %s:%d:%d)",
                  op->name, name_nodes[j]->source, name_nodes[j]->line, name_nodes[j]->col);
    const PlYNode *na = NULL;
    if ((rc = get_number(&p, "arc_length", &op->arc_length, &na)))
      return rc;
    if (!(op->arc_length <= m->length))
      return at(c->err, na, ap, "must be at most line.length (%.10g m), got %s", m->length,
                got(na).s);
    m->noutput_points = (int)i + 1;
  }
  return 0;
}

/* output: directory and points. */
static int read_output(const Ctx *c, const Scope *top, PlModel *m)
{
  Scope s;
  bool present;
  int rc = open_child(top, "output", &s, &present);
  if (rc || !present) return rc;
  if ((rc = get_string(&s, "directory", false, m->output_dir, sizeof m->output_dir)))
    return rc;
  if (pair_of(&s, "checkpoint_interval") && (rc = dynamic_only(c, &s, "checkpoint_interval"))) return rc;
  if ((rc = get_number(&s, "checkpoint_interval", &m->checkpoint_interval, NULL)))
    return rc;
  return read_points(c, &s, m);
}

/* ---- the vessel at the top (issue 4) --------------------------------------------------- */
/* vessel: the 6-DOF vessel the top end hangs from (PlVesselModel, models.h; PlVessel,
 * elements.h). Frames: global x, y horizontal, z up (the pipe's); body x forward, y to
 * port, z up, origin O_b. With axes: fossen_ned the body-frame data are in Fossen's body
 * axes (x forward, y starboard, z down) and are turned into pipelay's by the half turn
 * T = diag(1, -1, -1) about x: vectors T v, 3x3 tensors T A T, frames T R, 6x6 matrices
 * S A S with S = diag(T, T) (PlVesselMatrixFromNED). Global-frame values are never
 * converted. */

/* Body-frame DOFs, in the order of nu and tau. */
static const char *const kBodyDofs[] = {"surge", "sway", "heave", "roll", "pitch", "yaw", NULL};
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
  return at(err, where, path, "%s", msg);
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
    if (n > 0) cat(buf, cap, n + 1 == total ? " and " : ", ");
    cat(buf, cap, names[k]);
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
  const PlYPair *pmm = pair_of(s, "mass_matrix");
  if (pmm) {
    const PlYPair *po = first_of(s, kMassForm);
    if (po) {
      const PlYPair *later = later_pair(pmm, po), *earlier = later == pmm ? po : pmm;
      join_key(path, sizeof path, s->path, later->key->text);
      return at(s->err, later->key, path,
                "cannot be combined with '%s' (give either mass_matrix, the total M = M_RB + "
                "M_A, or mass with radii_of_gyration or inertia, centre_of_gravity and "
                "added_mass)",
                earlier->key->text);
    }
    if ((rc = get_matrix(s, "mass_matrix", kMassUnits, V->MRB, &where))) return rc;
    if (ned) ned_matrix6(V->MRB);
    memset(V->MA, 0, sizeof V->MA);
    join_key(path, sizeof path, s->path, "mass_matrix");
    return vessel_check_at(s->err, V, where, path);
  }
  if (!pair_of(s, "mass"))
    return missing(s, "mass", "kg", " (or 'mass_matrix', the total 6x6 mass matrix)");
  double mass = 0.0, cg[3] = {0, 0, 0}, I[9] = {0};
  if ((rc = get_number(s, "mass", &mass, NULL))) return rc;
  if ((rc = get_list(s, "centre_of_gravity", cg, NULL))) return rc;
  const PlYPair *pr = pair_of(s, "radii_of_gyration"), *pi = pair_of(s, "inertia");
  if (pr && pi) {
    const PlYPair *later = later_pair(pr, pi);
    join_key(path, sizeof path, s->path, later->key->text);
    return at(s->err, later->key, path,
              "give either 'radii_of_gyration' or 'inertia', not both");
  }
  if (!pr && !pi)
    return missing(s, "radii_of_gyration", "m",
                   " (or 'inertia' (kg m^2), about the centre of gravity)");
  if (pr) {
    double r[3];
    if ((rc = get_list(s, "radii_of_gyration", r, NULL))) return rc;
    for (int k = 0; k < 3; k++) I[4 * k] = mass * r[k] * r[k];
  } else {
    if ((rc = get_matrix(s, "inertia", kInertiaUnits, I, &where))) return rc;
    join_key(path, sizeof path, s->path, "inertia");
    if ((rc = check_symmetric(s->err, where, path, 3, I))) return rc;
    const double d2 = I[0] * I[4] - I[1] * I[3];
    const double d3 = I[0] * (I[4] * I[8] - I[5] * I[7]) - I[1] * (I[3] * I[8] - I[5] * I[6]) +
                      I[2] * (I[3] * I[7] - I[4] * I[6]);
    if (!(I[0] > 0.0 && d2 > 0.0 && d3 > 0.0))
      return at(s->err, where, path,
                "must be positive definite (the inertia of a rigid body about its centre of "
                "gravity is)");
    if (ned) ned_tensor3(I);
  }
  if (ned) ned_vec3(cg);
  PlVesselRigidBodyMass(mass, cg, I, V->MRB);
  *mass_out = mass;
  memcpy(cg_out, cg, sizeof cg);
  if ((rc = get_matrix(s, "added_mass", kMassUnits, V->MA, &where))) return rc;
  if (!where) return 0;
  if (ned) ned_matrix6(V->MA);
  join_key(path, sizeof path, s->path, "added_mass");
  return vessel_check_at(s->err, V, where, path);
}

/* vessel.restoring: waterplane area with the heave equilibrium, metacentric heights with
 * the displacement (eqs 5.58-5.64). */
static int read_restoring(const Scope *vs, PlVessel *V)
{
  Scope s;
  bool present;
  int rc = open_child(vs, "restoring", &s, &present);
  if (rc || !present) return rc;
  const PlYNode *nawp = NULL, *ngt = NULL, *ngl = NULL;
  if ((rc = get_number(&s, "waterplane_area", &V->Awp, &nawp)))
    return rc;
  if (nawp) {
    if (!pair_of(&s, "heave_equilibrium"))
      return missing(&s, "heave_equilibrium", "m",
                     " (the z of O_b where the vessel floats without the pipe; needed with "
                     "waterplane_area)");
    if ((rc = get_number(&s, "heave_equilibrium", &V->z_eq, NULL))) return rc;
  } else if ((rc = reject_key(&s, "heave_equilibrium",
                              "is only used with 'waterplane_area' (the heave restoring force)")))
    return rc;
  if ((rc = get_number(&s, "gm_transverse", &V->GM_T, &ngt))) return rc;
  if ((rc = get_number(&s, "gm_longitudinal", &V->GM_L, &ngl)))
    return rc;
  if (ngt || ngl) {
    if (!pair_of(&s, "displacement"))
      return missing(&s, "displacement", "kg",
                     " (the mass of the displaced water m_V of eq 5.63; needed with a "
                     "metacentric height)");
    return get_number(&s, "displacement", &V->displacement, NULL);
  }
  return reject_key(&s, "displacement",
                    "is only used with 'gm_transverse' or 'gm_longitudinal' (the roll and pitch "
                    "restoring moments)");
}

/* vessel.spring: a linear spring on O_b, global frame (a soft mooring). */
static int read_spring(const Scope *vs, PlVessel *V)
{
  Scope s;
  bool present;
  int rc = open_child(vs, "spring", &s, &present);
  if (rc || !present) return rc;
  const PlYNode *nk = NULL;
  char path[PATH_CAP];
  if ((rc = get_matrix(&s, "stiffness", kSpringUnits, V->K_spring, &nk))) return rc;
  join_key(path, sizeof path, s.path, "stiffness");
  if ((rc = check_symmetric(s.err, nk, path, 3, V->K_spring))) return rc;
  if ((rc = vessel_check_at(s.err, V, nk, path))) return rc;
  return get_list(&s, "anchor", V->r_anchor, NULL);
}

/* vessel.initial: the vessel's pose (global) and velocities (body frame, dynamic only). */
static int read_vessel_initial(const Ctx *c, const Scope *vs, bool ned, PlVesselModel *v)
{
  Scope s;
  bool present;
  int rc = open_child(vs, "initial", &s, &present);
  if (rc) return rc;
  if ((rc = get_list(&s, "position", v->position, NULL))) return rc;
  double rpy[3] = {0, 0, 0}, w[3] = {0, 0, 0};
  if ((rc = get_list(&s, "orientation", rpy, NULL))) return rc;
  for (int k = 0; k < 3; k++) v->rpy[k] = rpy[k] * kPi / 180.0;
  if ((rc = dynamic_only(c, &s, "velocity"))) return rc;
  if ((rc = dynamic_only(c, &s, "angular_velocity"))) return rc;
  if ((rc = get_list(&s, "velocity", v->velocity, NULL))) return rc;
  if ((rc = get_list(&s, "angular_velocity", w, NULL))) return rc;
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
  int rc = open_child_if(vs, "hang_off", !c->body_only, &s, &present);
  if (rc) return rc;
  for (int i = 0; i < 9; i++) v->top_frame[i] = (i % 4 == 0) ? 1.0 : 0.0;
  if (c->body_only) {
    /* a rigid body alone: hang_off.point is only the body point whose path is reported */
    if (!present) return 0;
    if ((rc = reject_key(&s, "connection", "is not used by a rigid body alone (no line hangs from it)")) ||
        (rc = reject_key(&s, "orientation", "is not used by a rigid body alone (no line hangs from it)")))
      return rc;
    if ((rc = get_list(&s, "point", v->hang_off, NULL))) return rc;
    if (ned) ned_vec3(v->hang_off);
    return 0;
  }
  if ((rc = get_list(&s, "point", v->hang_off, NULL))) return rc;
  if (!pair_of(&s, "connection")) return missing(&s, "connection", NULL, " (fixed or hinge)");
  int kind = 0;
  if ((rc = get_choice(&s, "connection", &kind))) return rc;
  v->connection = kind ? PL_HANGOFF_HINGE : PL_HANGOFF_FIXED;
  for (int i = 0; i < 9; i++) v->top_frame[i] = (i % 4 == 0) ? 1.0 : 0.0;
  if (v->connection == PL_HANGOFF_HINGE) {
    if ((rc = reject_key(&s, "orientation",
                         "is only used by a fixed connection (connection is 'hinge': a ball "
                         "joint, the top section turns freely)")))
      return rc;
  } else {
    double deg[3];
    if (!pair_of(&s, "orientation"))
      return missing(&s, "orientation", "deg",
                     " (zxy Euler angles of the top section's frame in the vessel's body axes; "
                     "a fixed connection holds it there)");
    if ((rc = get_list(&s, "orientation", deg, NULL))) return rc;
    euler_zxy(deg, v->top_frame);
    if (ned)
      for (int k = 3; k < 9; k++) v->top_frame[k] = -v->top_frame[k]; /* T R */
  }
  if (ned) ned_vec3(v->hang_off);
  return 0;
}

/* vessel.environment_load: a constant load ramped in, plus an optional time series. */
static int read_environment_load(const Ctx *c, const Scope *vs, bool ned, PlVesselModel *v)
{
  Scope s;
  bool present;
  int rc = open_child(vs, "environment_load", &s, &present);
  if (rc || !present) return rc;
  PlVesselLoad *L = &v->environment;
  int frame = choice_default(&s, "frame");
  if ((rc = get_choice(&s, "frame", &frame))) return rc;
  L->body_frame = frame == 1;
  if ((rc = get_load(&s, "force", "a vessel", L->value))) return rc;
  if ((rc = get_load(&s, "moment", "a vessel", L->value + 3)))
    return rc;
  if ((rc = get_number(&s, "start_time", &L->start_time, NULL)))
    return rc;
  if ((rc = get_number(&s, "ramp_time", &L->ramp_time, NULL)))
    return rc;
  if (pair_of(&s, "file")) {
    char name[PL_PATH_MAX];
    double *table = NULL;
    int nrows = 0, ncols = 0;
    if ((rc = read_csv_file(c, &s, &kLoadCsv, name, sizeof name, &table, &nrows, &ncols)))
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
  const PlYNode *n = value_of(s, "actuated");
  if (!n) return 0;
  char path[PATH_CAP];
  join_key(path, sizeof path, s->path, "actuated");
  if (n->kind != PL_YNODE_SEQ || n->nitems == 0)
    return at(s->err, n, path,
              "expected a non-empty list of names from surge, sway, heave, roll, pitch, yaw "
              "(the body-frame DOFs the thrusters act in); found %s",
              found(n).s);
  bool act[6] = {false, false, false, false, false, false};
  for (size_t i = 0; i < n->nitems; i++) {
    const PlYNode *it = n->items[i];
    char ip[PATH_CAP];
    join_index(ip, sizeof ip, path, i);
    int k = -1;
    if (it->kind == PL_YNODE_SCALAR && strlen(it->text) == it->len)
      k = name_index(kBodyDofs, it->text);
    if (k < 0)
      return at(s->err, it, ip, "expected one of: surge, sway, heave, roll, pitch, yaw; found %s",
                found(it).s);
    if (act[k]) return at(s->err, it, ip, "'%s' is listed twice", kBodyDofs[k]);
    act[k] = true;
  }
  memcpy(actuated, act, sizeof act);
  return 0;
}

/* reference.points and reference.speeds of a waypoints reference. */
static int read_waypoints(const Scope *s, PlDPReference *ref)
{
  const PlYNode *n = value_of(s, "points");
  if (!n)
    return missing(s, "points", NULL, " (a list of 2 to 64 points [x, y] in m, global)");
  char path[PATH_CAP];
  join_key(path, sizeof path, s->path, "points");
  if (n->kind != PL_YNODE_SEQ || n->nitems < 2 || n->nitems > PL_DP_MAX_WAYPOINTS)
    return at(s->err, n, path, "expected a list of 2 to %d points [x, y] (m), found %s",
              PL_DP_MAX_WAYPOINTS, found(n).s);
  const PlKeySpec *kpts = spec_of(s, "points");
  const ListSpec xy = {0, kpts->unit, kpts->unit, range_of(kpts), range_of(kpts), "x, y in m"};
  for (size_t i = 0; i < n->nitems; i++) {
    char ip[PATH_CAP];
    join_index(ip, sizeof ip, path, i);
    int rc = parse_list(s->err, n->items[i], ip, 2, &xy, ref->waypoint[i]);
    if (rc) return rc;
  }
  ref->nwaypoints = (int)n->nitems;
  const PlKeySpec *ksp = spec_of(s, "speeds");
  const ListSpec sp = {0, ksp->unit, ksp->unit, range_of(ksp), range_of(ksp),
                       "m/s, one for each leg between the points"};
  return get_list_spec(s, "speeds", n->nitems - 1, &sp, ref->leg_speed, NULL);
}

/* dp.reference: the set point or path of the controller. */
static int read_dp_reference(const Scope *dp, PlDPReference *ref)
{
  Scope s;
  bool present;
  int rc = open_child(dp, "reference", &s, &present);
  if (rc) return rc;
  if (!pair_of(&s, "type")) return missing(&s, "type", NULL, " (fixed, circle, line or waypoints)");
  int type = 0;
  if ((rc = get_choice(&s, "type", &type))) return rc;
  /* the reference types that use each key (bit k for PlChoiceRefTypes[k]) */
  enum { RF = 1u, RC = 2u, RL = 4u, RW = 8u };
  static const struct {
    const char *key;
    unsigned types;
  } kUse[] = {{"radius", RC},         {"period", RC},          {"ramp_up", RC},
              {"hold", RC},           {"ramp_down", RC},       {"direction", RC},
              {"start_time", RC | RL | RW}, {"speed", RL},     {"course", RL},
              {"ramp_time", RL},      {"heading", RL | RW},    {"points", RW},
              {"speeds", RW}};
  for (size_t i = 0; i < sizeof kUse / sizeof kUse[0]; i++) {
    if (kUse[i].types & (1u << type)) continue;
    char users[64];
    const int nusers = name_bits(PlChoiceRefTypes, kUse[i].types, users, sizeof users);
    if ((rc = reject_key(&s, kUse[i].key, "is only used by %s%s reference%s (type is '%s')",
                         nusers > 1 ? "" : "a ", users, nusers > 1 ? "s" : "", PlChoiceRefTypes[type])))
      return rc;
  }
  ref->kind = (PlDPReferenceKind)type;
  /* the row's range for x, y, z; the angles, like every orientation, within kAngle */
  const ListSpec eta = {3, "m", "deg", range_of(spec_of(&s, "eta")), kAngle,
                        "x, y, z in m; roll, pitch, yaw in deg"};
  if ((rc = get_list_spec(&s, "eta", 6, &eta, ref->eta0, NULL))) return rc;
  for (int k = 3; k < 6; k++) ref->eta0[k] *= kPi / 180.0;
  int heading = ref->heading_along_path ? 1 : 0;
  if ((rc = get_choice(&s, "heading", &heading))) return rc;
  ref->heading_along_path = heading == 1;
  switch (ref->kind) {
  case PL_DP_REF_CIRCLE:
    ref->circle.kind = PL_MOTION_CIRCLE;
    return read_circle(&s, &ref->circle);
  case PL_DP_REF_LINE:
    if ((rc = get_number(&s, "speed", &ref->speed, NULL))) return rc;
    if ((rc = get_number(&s, "course", &ref->course_deg, NULL))) return rc;
    if ((rc = get_number(&s, "start_time", &ref->start_time, NULL)))
      return rc;
    return get_number(&s, "ramp_time", &ref->ramp_time, NULL);
  case PL_DP_REF_WAYPOINTS:
    if ((rc = get_number(&s, "start_time", &ref->start_time, NULL)))
      return rc;
    return read_waypoints(&s, ref);
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
  int rc = open_child(vs, "dp", &s, &present);
  if (rc || !present) return rc;
  v->has_dp = true;
  PlDPController *d = &v->dp;
  const ListSpec kp = split_list(spec_of(&s, "kp"), "N/m", "N m/rad",
                                  "N/m for x, y, z; N m/rad for roll, pitch, yaw");
  const ListSpec kd = split_list(spec_of(&s, "kd"), "N s/m", "N m s/rad",
                                  "N s/m for x, y, z; N m s/rad for roll, pitch, yaw");
  const ListSpec ki = split_list(spec_of(&s, "ki"), "N/(m s)", "N m/(rad s)",
                                  "N/(m s) for x, y, z; N m/(rad s) for roll, pitch, yaw");
  const ListSpec ib = split_list(spec_of(&s, "integral_bound"), "m s", "rad s",
                                  "m s for x, y, z; rad s for roll, pitch, yaw; 0: unbounded");
  const ListSpec tm = split_list(spec_of(&s, "thrust_max"), "N", "N m",
                                  "N for surge, sway, heave; N m for roll, pitch, yaw; 0: no limit");
  if ((rc = get_list_spec(&s, "kp", 6, &kp, d->Kp, NULL))) return rc;
  if ((rc = get_list_spec(&s, "kd", 6, &kd, d->Kd, NULL))) return rc;
  if ((rc = get_list_spec(&s, "ki", 6, &ki, d->Ki, NULL))) return rc;
  if ((rc = get_list_spec(&s, "integral_bound", 6, &ib, d->integral_bound, NULL))) return rc;
  if ((rc = get_number(&s, "antiwindup_time", &d->antiwindup_time, NULL)))
    return rc;
  if ((rc = read_actuated(&s, d->actuated))) return rc;
  if ((rc = get_list_spec(&s, "thrust_max", 6, &tm, d->thrust_max, NULL))) return rc;
  if ((rc = get_number(&s, "start_time", &d->start_time, NULL)))
    return rc;
  if ((rc = get_number(&s, "ramp_time", &d->ramp_time, NULL))) return rc;
  if (!pair_of(&s, "reference"))
    return missing(&s, "reference", NULL, " (the set point or path: type fixed, circle, line or "
                                          "waypoints, with eta)");
  if ((rc = read_dp_reference(&s, &d->ref))) return rc;
  char msg[512];
  if (PlDPControllerCheck(d, msg, sizeof msg) != 0) return at(s.err, s.anchor, s.path, "%s", msg);
  return 0;
}

/* An object's name (the key 'name' of s, required): letters, digits, '_' and '-' (it names
 * files), not "ground" (a joint's word for the fixed frame), unique among the nseen names
 * given before (seen, with their nodes). */
static int read_object_name(const Scope *s, const char *what, char *out, size_t cap,
                            const char (*seen)[PL_NAME_MAX], const PlYNode *const *seen_nodes, int nseen,
                            const PlYNode **node)
{
  int rc = get_string(s, "name", false, out, cap);
  if (rc) return rc;
  const PlYNode *nn = value_of(s, "name");
  char np[PATH_CAP];
  join_key(np, sizeof np, s->path, "name");
  for (size_t k = 0; out[k]; k++)
    if (!point_name_char(out[k]))
      return at(s->err, nn, np, "may only hold letters, digits, '_' and '-' (it names an output file), found '%s'",
                got(nn).s);
  if (!strcmp(out, "ground"))
    return at(s->err, nn, np, "'ground' is the fixed frame a joint may hold a body to; give the %s another name",
              what);
  for (int j = 0; j < nseen; j++)
    if (!strcmp(seen[j], out))
      return at(s->err, nn, np, "duplicate name '%s' (first given at %s:%d:%d); every body and joint needs its own",
                out, seen_nodes[j]->source, seen_nodes[j]->line, seen_nodes[j]->col);
  *node = nn;
  return 0;
}

/* weight: the body's weight at its centre of gravity (needs mass and centre_of_gravity). */
static int read_weight(const Scope *s, double mass, const double cg[3], PlVessel *V)
{
  int on = choice_default(s, "weight");
  int rc = get_choice(s, "weight", &on);
  if (rc || !on) return rc;
  if (!(mass > 0.0)) {
    const PlYPair *pw = pair_of(s, "weight");
    char path[PATH_CAP];
    join_key(path, sizeof path, s->path, "weight");
    return at(s->err, pw->value, path,
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
    const PlYNode *seen_nodes[PL_MAX_BODIES];
    char seen[PL_MAX_BODIES][PL_NAME_MAX];
    int nseen = 0;
    for (int k = 0; k < m->nbodies && nseen < PL_MAX_BODIES; k++) {
      snprintf(seen[nseen], PL_NAME_MAX, "%s", m->bodies[k].id);
      seen_nodes[nseen++] = c->body_names[k];
    }
    if ((rc = read_object_name(&s, "body", v->id, sizeof v->id, (const char(*)[PL_NAME_MAX])seen, seen_nodes, nseen,
                               &nn)))
      return rc;
    snprintf(v->name, sizeof v->name, "%s", v->id);
    c->body_names[m->nbodies] = nn;
  } else {
    snprintf(v->id, sizeof v->id, "vessel");
    if ((rc = get_string(&s, "name", true, v->name, sizeof v->name))) return rc;
  }
  int axes = choice_default(&s, "axes");
  if ((rc = get_choice(&s, "axes", &axes))) return rc;
  const bool ned = axes == 1;
  double mass = 0.0, cg[3] = {0, 0, 0};
  if ((rc = read_vessel_mass(&s, ned, V, &mass, cg))) return rc;
  if ((rc = read_weight(&s, mass, cg, V))) return rc;
  const PlYNode *where = NULL;
  char path[PATH_CAP];
  if ((rc = get_matrix(&s, "linear_damping", kDampingUnits, V->Dp, &where))) return rc;
  if (where) {
    if (ned) ned_matrix6(V->Dp);
    join_key(path, sizeof path, s.path, "linear_damping");
    if ((rc = vessel_check_at(s.err, V, where, path))) return rc;
  }
  const ListSpec dq = split_list(spec_of(&s, "quadratic_damping"), "N s^2/m^2", "N m s^2",
                                 "N s^2/m^2 for surge, sway, heave; N m s^2 for roll, pitch, yaw");
  if ((rc = get_list_spec(&s, "quadratic_damping", 6, &dq, V->Dq, NULL))) return rc;
  if ((rc = get_number(&s, "norm_rate", &V->norm_rate, NULL))) return rc;
  if ((rc = read_restoring(&s, V))) return rc;
  if ((rc = read_spring(&s, V))) return rc;
  if ((rc = read_vessel_initial(c, &s, ned, v))) return rc;
  if ((rc = read_hang_off(c, &s, ned, v))) return rc;
  if ((rc = read_environment_load(c, &s, ned, v))) return rc;
  if ((rc = read_dp(&s, v))) return rc;
  char msg[512];
  if (PlVesselCheck(V, msg, sizeof msg) != 0) return at(s.err, s.anchor, s.path, "%s", msg);
  return 0;
}

/* vessel: the body at the top of the line, or (no line) the one body of the model. */
static int read_vessel(Ctx *c, const Scope *top, PlModel *m)
{
  Scope s;
  bool present;
  int rc = open_child(top, "vessel", &s, &present);
  if (rc || !present) return rc;
  if (!c->body_only) return read_body(c, &s, m, false, &m->vessel);
  if ((rc = read_body(c, &s, m, false, &m->bodies[0]))) return rc;
  m->nbodies = 1;
  return 0;
}

/* bodies: the rigid bodies of a model without a line. */
static int read_bodies(Ctx *c, const Scope *top, PlModel *m)
{
  const PlYPair *pb = pair_of(top, "bodies");
  if (!pb) return 0;
  char path[PATH_CAP];
  join_key(path, sizeof path, top->path, "bodies");
  const PlYNode *list = pb->value;
  if (list->kind != PL_YNODE_SEQ || list->nitems == 0)
    return at(c->err, list, path, "expected a non-empty list of bodies (each with name, mass, ...), found %s",
              found(list).s);
  if (list->nitems > PL_MAX_BODIES)
    return at(c->err, list, path, "too many bodies (%zu, at most %d)", list->nitems, PL_MAX_BODIES);
  for (size_t i = 0; i < list->nitems; i++) {
    char ip[PATH_CAP];
    join_index(ip, sizeof ip, path, i);
    Scope s;
    int rc = open_scope(c->err, list->items[i], list->items[i], ip, &s);
    if (rc) return rc;
    if ((rc = reject_key(&s, "dp", "is not yet available on a body of bodies: (the DP controller acts on the "
                                   "vessel: block; docs/design-system-core.md)")))
      return rc;
    if ((rc = read_body(c, &s, m, true, &m->bodies[i]))) return rc;
    m->nbodies = (int)i + 1;
  }
  return 0;
}


/* Orthonormal frame F (columns n, f2, f3; row-major) with its first column along n (unit). */
static void frame_from_axis(const double n[3], double F[9])
{
  const double a[3] = {fabs(n[0]) < 0.9 ? 1.0 : 0.0, fabs(n[0]) < 0.9 ? 0.0 : 1.0, 0.0};
  double f2[3] = {n[1] * a[2] - n[2] * a[1], n[2] * a[0] - n[0] * a[2], n[0] * a[1] - n[1] * a[0]};
  const double l = sqrt(f2[0] * f2[0] + f2[1] * f2[1] + f2[2] * f2[2]);
  for (int i = 0; i < 3; i++) f2[i] /= l;
  const double f3[3] = {n[1] * f2[2] - n[2] * f2[1], n[2] * f2[0] - n[0] * f2[2], n[0] * f2[1] - n[1] * f2[0]};
  for (int i = 0; i < 3; i++) {
    F[3 * i] = n[i];
    F[3 * i + 1] = f2[i];
    F[3 * i + 2] = f3[i];
  }
}

/* The kernel's data of joint j from the bodies' initial poses (models.h, PlJointModel). */
static void joint_from_initial_poses(const PlModel *m, PlJointModel *j)
{
  double F[9];
  frame_from_axis(j->axis, F);
  for (int side = 0; side < 2; side++) {
    double *p = side ? j->joint.pb : j->joint.pa, *Fs = side ? j->joint.Fb : j->joint.Fa;
    if (j->body[side] < 0) { /* the ground: global */
      memcpy(p, j->point, 3 * sizeof *p);
      memcpy(Fs, F, sizeof F);
      continue;
    }
    const PlVesselModel *b = &m->bodies[j->body[side]];
    double q[4], R[9];
    PlVesselQuatFromEulerZYX(b->rpy, q);
    PlQuatToMatrix(q, R);
    for (int r = 0; r < 3; r++) {
      p[r] = 0.0;
      for (int k = 0; k < 3; k++) p[r] += R[3 * k + r] * (j->point[k] - b->position[k]);
      for (int col = 0; col < 3; col++) {
        double sum = 0.0;
        for (int k = 0; k < 3; k++) sum += R[3 * k + r] * F[3 * k + col];
        Fs[3 * r + col] = sum;
      }
    }
  }
}

/* The bodies' initial velocities must be ones the joint allows: G_a nu_a + G_b nu_b = 0
 * (to 1e-8 of the velocities' scale). */
static int check_joint_velocities(const Scope *s, const PlModel *m, const PlJointModel *j)
{
  double y[2][PL_VESSEL_NY];
  for (int side = 0; side < 2; side++) {
    memset(y[side], 0, sizeof y[side]);
    if (j->body[side] < 0) continue;
    const PlVesselModel *b = &m->bodies[j->body[side]];
    memcpy(y[side], b->position, 3 * sizeof(double));
    PlVesselQuatFromEulerZYX(b->rpy, y[side] + PL_VESSEL_Q);
    memcpy(y[side] + PL_VESSEL_V, b->velocity, 3 * sizeof(double));
    memcpy(y[side] + PL_VESSEL_W, b->angular_velocity, 3 * sizeof(double));
  }
  PlJointEvalOut o;
  PlJointEval(&j->joint, y[0], j->body[1] >= 0 ? y[1] : NULL, &o);
  double worst = 0.0, scale = 1e-3;
  for (int side = 0; side < 2; side++) {
    if (j->body[side] < 0) continue;
    const double *p = side ? j->joint.pb : j->joint.pa;
    const double lp = 1.0 + sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    for (int c = 0; c < 6; c++) scale = fmax(scale, fabs(y[side][PL_VESSEL_V + c]) * (c < 3 ? 1.0 : lp));
  }
  for (int r = 0; r < o.m; r++) {
    double rate = 0.0;
    for (int c = 0; c < 6; c++)
      rate += o.Ga[6 * r + c] * y[0][PL_VESSEL_V + c] + (j->body[1] >= 0 ? o.Gb[6 * r + c] * y[1][PL_VESSEL_V + c] : 0.0);
    worst = fmax(worst, fabs(rate));
  }
  if (worst <= 1e-8 * scale) return 0;
  const PlYNode *nn = value_of(s, "name");
  char np[PATH_CAP];
  join_key(np, sizeof np, s->path, "name");
  return at(s->err, nn, np,
            "the initial velocities of %s%s%s violate this joint (its constraint changes at %.3g m/s or rad/s): "
            "give initial velocity and angular_velocity the joint allows (a body turning at w about a fixed "
            "joint point P moves its origin at w x (r - P); velocity is in the body frame)",
            m->bodies[j->body[0]].id, j->body[1] >= 0 ? " and " : "",
            j->body[1] >= 0 ? m->bodies[j->body[1]].id : "", worst);
}

/* joints: links between the bodies, or a body and the ground, at the initial poses. */
static int read_joints(const Ctx *c, const Scope *top, PlModel *m)
{
  const PlYPair *pj = pair_of(top, "joints");
  if (!pj) return 0;
  char path[PATH_CAP];
  join_key(path, sizeof path, top->path, "joints");
  const PlYNode *list = pj->value;
  if (list->kind != PL_YNODE_SEQ)
    return at(c->err, list, path, "expected a list of joints {name, type, bodies, point, axis}, found %s",
              found(list).s);
  if (list->nitems > PL_MAX_JOINTS)
    return at(c->err, list, path, "too many joints (%zu, at most %d)", list->nitems, PL_MAX_JOINTS);
  const PlYNode *seen_nodes[PL_MAX_BODIES + PL_MAX_JOINTS];
  char seen[PL_MAX_BODIES + PL_MAX_JOINTS][PL_NAME_MAX];
  int nseen = 0;
  for (int k = 0; k < m->nbodies; k++) {
    snprintf(seen[nseen], PL_NAME_MAX, "%s", m->bodies[k].id);
    seen_nodes[nseen++] = c->body_names[k] ? c->body_names[k] : list;
  }
  for (size_t i = 0; i < list->nitems; i++) {
    char ip[PATH_CAP], bp[PATH_CAP];
    join_index(ip, sizeof ip, path, i);
    Scope s;
    int rc = open_scope(c->err, list->items[i], list->items[i], ip, &s);
    if (rc) return rc;
    PlJointModel *j = &m->joints[i];
    const PlYNode *nn = NULL;
    if ((rc = read_object_name(&s, "joint", j->name, sizeof j->name, (const char(*)[PL_NAME_MAX])seen, seen_nodes,
                               nseen, &nn)))
      return rc;
    snprintf(seen[nseen], PL_NAME_MAX, "%s", j->name);
    seen_nodes[nseen++] = nn;
    if (!pair_of(&s, "type")) return missing(&s, "type", NULL, " (spherical, revolute, prismatic or fixed)");
    int type = 0;
    if ((rc = get_choice(&s, "type", &type))) return rc;
    j->joint.kind = (PlJointKind)type;
    /* bodies: [A, B], B may be ground */
    const PlYNode *nb = value_of(&s, "bodies");
    join_key(bp, sizeof bp, s.path, "bodies");
    if (!nb) return missing(&s, "bodies", NULL, " ([A, B]: two bodies, or a body and ground)");
    if (nb->kind != PL_YNODE_SEQ || nb->nitems != 2)
      return at(c->err, nb, bp, "expected two names [A, B] (bodies, or a body and ground), found %s", found(nb).s);
    for (int side = 0; side < 2; side++) {
      const PlYNode *it = nb->items[side];
      char itp[PATH_CAP];
      join_index(itp, sizeof itp, bp, (size_t)side);
      if (it->kind != PL_YNODE_SCALAR || strlen(it->text) != it->len)
        return at(c->err, it, itp, "expected a body name, found %s", found(it).s);
      if (!strcmp(it->text, "ground")) {
        j->body[side] = -1;
        continue;
      }
      j->body[side] = PlModelBodyIndex(m, it->text);
      if (j->body[side] < 0) {
        char names[512] = "";
        for (int k = 0; k < m->nbodies; k++) {
          if (k) cat(names, sizeof names, ", ");
          cat(names, sizeof names, m->bodies[k].id);
        }
        return at(c->err, it, itp, "no body named '%s' (the bodies are: %s; or ground)", got(it).s, names);
      }
    }
    if (j->body[0] < 0 && j->body[1] < 0)
      return at(c->err, nb, bp, "joins the ground to itself: name at least one body");
    if (j->body[0] == j->body[1])
      return at(c->err, nb, bp, "joins body '%s' to itself: name two bodies, or a body and ground",
                m->bodies[j->body[0]].id);
    if (j->body[0] < 0) { /* the kernel's body A is a body: swap */
      j->body[0] = j->body[1];
      j->body[1] = -1;
    }
    if ((rc = get_list(&s, "point", j->point, NULL))) return rc;
    const bool axial = j->joint.kind == PL_JOINT_REVOLUTE || j->joint.kind == PL_JOINT_PRISMATIC;
    if (!axial) {
      if ((rc = reject_key(&s, "axis", "is only used by a revolute or a prismatic joint (type is '%s')",
                           PlChoiceJointTypes[type])))
        return rc;
      j->axis[0] = 1.0, j->axis[1] = j->axis[2] = 0.0;
    } else {
      const PlYNode *na = NULL;
      if (!pair_of(&s, "axis"))
        return missing(&s, "axis", NULL, type == PL_JOINT_REVOLUTE ? " (the hinge axis, global, at the initial poses)"
                                                                   : " (the sliding direction, global, at the initial poses)");
      if ((rc = get_list(&s, "axis", j->axis, &na))) return rc;
      const double l = sqrt(j->axis[0] * j->axis[0] + j->axis[1] * j->axis[1] + j->axis[2] * j->axis[2]);
      char ap[PATH_CAP];
      join_key(ap, sizeof ap, s.path, "axis");
      if (!(l > 1e-12) || !isfinite(l)) return at(c->err, na, ap, "must be a non-zero direction, found %s", got(na).s);
      for (int k = 0; k < 3; k++) j->axis[k] /= l;
    }
    joint_from_initial_poses(m, j);
    if ((rc = check_joint_velocities(&s, m, j))) return rc;
    m->njoints = (int)i + 1;
  }
  return 0;
}

/* points: the connection nodes of a model of lines. */
static int read_gpoints(Ctx *c, const Scope *top, PlModel *m, const PlYNode **name_nodes)
{
  const PlYPair *pp = pair_of(top, "points");
  if (!pp) return 0;
  char path[PATH_CAP];
  join_key(path, sizeof path, top->path, "points");
  const PlYNode *list = pp->value;
  if (list->kind != PL_YNODE_SEQ || list->nitems == 0)
    return at(c->err, list, path, "expected a non-empty list of points {name, position, fixed, mass, volume}, found %s",
              found(list).s);
  if (list->nitems > PL_MAX_POINTS)
    return at(c->err, list, path, "too many points (%zu, at most %d)", list->nitems, PL_MAX_POINTS);
  char seen[PL_MAX_POINTS][PL_NAME_MAX];
  for (size_t i = 0; i < list->nitems; i++) {
    char ip[PATH_CAP];
    join_index(ip, sizeof ip, path, i);
    Scope s;
    int rc = open_scope(c->err, list->items[i], list->items[i], ip, &s);
    if (rc) return rc;
    PlPointModel *pt = &m->points[i];
    if ((rc = read_object_name(&s, "point", pt->name, sizeof pt->name, (const char(*)[PL_NAME_MAX])seen, name_nodes,
                               (int)i, &name_nodes[i])))
      return rc;
    snprintf(seen[i], PL_NAME_MAX, "%s", pt->name);
    if ((rc = get_list(&s, "position", pt->position, NULL))) return rc;
    int fixed = choice_default(&s, "fixed");
    if ((rc = get_choice(&s, "fixed", &fixed))) return rc;
    pt->fixed = fixed == 1;
    if ((rc = get_number(&s, "mass", &pt->mass, NULL))) return rc;
    if ((rc = get_number(&s, "volume", &pt->volume, NULL))) return rc;
    if ((rc = get_list(&s, "velocity", pt->velocity, NULL))) return rc;
    if (pt->fixed && (pt->velocity[0] != 0.0 || pt->velocity[1] != 0.0 || pt->velocity[2] != 0.0)) {
      char vp[PATH_CAP];
      join_key(vp, sizeof vp, ip, "velocity");
      return at(c->err, value_of_node(list->items[i], "velocity"), vp,
                "a fixed point does not move: give a velocity only to a free point (fixed: false)");
    }
    m->npoints = (int)i + 1;
  }
  return 0;
}

/* lines: each item a one-line model's line, mesh and ends, with a name. */
static int read_lines(Ctx *c, const Scope *top, PlModel *m, const PlYNode **point_nodes)
{
  const PlYPair *pl = pair_of(top, "lines");
  char path[PATH_CAP];
  join_key(path, sizeof path, top->path, "lines");
  const PlYNode *list = pl->value;
  if (list->kind != PL_YNODE_SEQ || list->nitems == 0)
    return at(c->err, list, path, "expected a non-empty list of lines {name, line, mesh, ends}, found %s",
              found(list).s);
  if (list->nitems > PL_MAX_LINES)
    return at(c->err, list, path, "too many lines (%zu, at most %d)", list->nitems, PL_MAX_LINES);
  char seen[PL_MAX_POINTS + PL_MAX_LINES][PL_NAME_MAX];
  const PlYNode *seen_nodes[PL_MAX_POINTS + PL_MAX_LINES];
  int nseen = 0;
  for (int k = 0; k < m->npoints; k++) {
    snprintf(seen[nseen], PL_NAME_MAX, "%s", m->points[k].name);
    seen_nodes[nseen++] = point_nodes[k];
  }
  PlModel *lm = malloc(sizeof *lm);
  if (!lm) return at(c->err, list, path, "out of memory");
  int rc = 0;
  for (size_t i = 0; i < list->nitems && !rc; i++) {
    char ip[PATH_CAP];
    join_index(ip, sizeof ip, path, i);
    Scope s;
    if ((rc = open_scope(c->err, list->items[i], list->items[i], ip, &s))) break;
    PlLineModel *L = &m->lines[i];
    const PlYNode *nn = NULL;
    if ((rc = read_object_name(&s, "line", L->name, sizeof L->name, (const char(*)[PL_NAME_MAX])seen, seen_nodes, nseen,
                               &nn)))
      break;
    snprintf(seen[nseen], PL_NAME_MAX, "%s", L->name);
    seen_nodes[nseen++] = nn;
    PlModelInitDefaults(lm);
    c->end_z[0] = c->end_z[1] = NULL;
    if ((rc = read_line(c, &s, lm)) || (rc = read_mesh(c, &s, lm)) || (rc = read_ends(c, &s, lm))) break;
    L->length = lm->length;
    L->nsegments = lm->nsegments;
    memcpy(L->segments, lm->segments, sizeof L->segments);
    L->mesh_elements = lm->mesh_elements;
    L->mesh_target_length = lm->mesh_target_length;
    L->nzones = lm->nzones;
    memcpy(L->zones, lm->zones, sizeof L->zones);
    memcpy(L->ends, lm->ends, sizeof L->ends);
    if (L->ends[0].point >= 0 && L->ends[0].point == L->ends[1].point)
      rc = at(c->err, s.anchor, ip, "both ends on point '%s': a line from a point back to it is not a connection",
              m->points[L->ends[0].point].name);
    m->nlines = (int)i + 1;
  }
  free(lm);
  return rc;
}

/* A model of several lines (lines: and points:; statics today). */
static int read_line_system(Ctx *c, const Scope *top, PlModel *m)
{
  int rc;
  static const char *const single[] = {"line", "mesh", "ends", "vessel", "joints", NULL};
  for (int k = 0; single[k]; k++)
    if ((rc = reject_key(top, single[k],
                         k < 3 ? "is the form of a one-line model; with lines: each line gives its own line, mesh "
                                 "and ends"
                               : "is not yet available with lines: (lines on bodies come with the system core's "
                                 "assembler, docs/design-system-core.md)")))
      return rc;
  if ((rc = read_seabed(top, m))) return rc;
  int rot = (int)m->rotation;
  if ((rc = get_choice(top, "rotation", &rot))) return rc;
  m->rotation = rot ? PL_ROT_EULER_ZXY : PL_ROT_QUATERNION;
  if ((rc = read_analysis(c, top, m))) return rc;
  if ((rc = read_current(top, m))) return rc;
  if ((rc = read_output(c, top, m))) return rc;
  const PlYNode *point_nodes[PL_MAX_POINTS] = {NULL};
  if ((rc = read_gpoints(c, top, m, point_nodes))) return rc;
  const PlYPair *pb = pair_of(top, "bodies");
  if (pb && pb->value->kind == PL_YNODE_SEQ)
    for (size_t i = 0; i < pb->value->nitems; i++) {
      const PlYNode *item = pb->value->items[i];
      const PlYNode *ho = item->kind == PL_YNODE_MAP ? value_of_node(item, "hang_off") : NULL;
      if (!ho) continue;
      char hp[PATH_CAP];
      snprintf(hp, sizeof hp, "bodies[%zu].hang_off", i);
      return at(c->err, ho, hp, "is not used by a body of a model of lines (a line hangs from it by ends.*.body "
                                "with at)");
    }
  c->body_only = true;
  rc = read_bodies(c, top, m);
  c->body_only = false;
  if (rc) return rc;
  for (int b = 0; b < m->nbodies; b++)
    if (m->bodies[b].has_dp) {
      char dp[PATH_CAP];
      snprintf(dp, sizeof dp, "bodies[%d].dp", b);
      return at(c->err, c->body_names[b], dp,
                "a DP controller on a body of a model of lines is not yet available (the vessel: of a one-line "
                "model has it)");
    }
  int uses[PL_MAX_POINTS] = {0}, buses[PL_MAX_BODIES] = {0};
  c->graph = m;
  c->point_uses = uses;
  c->body_uses = buses;
  rc = read_lines(c, top, m, point_nodes);
  c->graph = NULL;
  c->point_uses = c->body_uses = NULL;
  if (rc) return rc;
  for (int b = 0; b < m->nbodies; b++)
    if (!buses[b]) {
      char np[PATH_CAP];
      snprintf(np, sizeof np, "bodies[%d].name", b);
      return at(c->err, c->body_names[b], np, "body '%s' has no line attached to it", m->bodies[b].id);
    }
  for (int k = 0; k < m->npoints; k++) {
    char np[PATH_CAP];
    snprintf(np, sizeof np, "points[%d].name", k);
    if (!uses[k]) return at(c->err, point_nodes[k], np, "point '%s' has no line attached to it", m->points[k].name);
  }
  return 0;
}

/* ---- the whole document --------------------------------------------------------------- */

/* Walks the (overridden) tree into m. */
static int check_plausible(PlError *err, const PlYNode *root, PlModel *m);

static int read_model(PlError *err, const PlYNode *root, PlModel *m)
{
  Ctx c = {err, NULL, {NULL, NULL}, PL_ANALYSIS_STATIC, false, m->source_path, false, false, {NULL}, NULL, NULL, NULL};
  Scope top;
  int rc = open_scope(err, root, root, "", &top);
  if (rc) return rc;
  if ((rc = get_string(&top, "name", true, m->name, sizeof m->name))) return rc;
  if ((rc = read_environment(&top, m))) return rc;
  if (pair_of(&top, "lines")) return read_line_system(&c, &top, m);
  if ((rc = reject_key(&top, "points", "are the connection points of a model of lines: (give the line under "
                                       "lines: with its ends on the points)")))
    return rc;
  c.has_vessel = pair_of(&top, "vessel") != NULL;
  const PlYPair *pbodies = pair_of(&top, "bodies"), *pjoints = pair_of(&top, "joints");
  const bool has_line = pair_of(&top, "line") != NULL;
  c.body_only = (c.has_vessel || pbodies) && !has_line;
  if (has_line && (pbodies || pjoints)) {
    const PlYPair *p = pbodies ? pbodies : pjoints;
    return at(err, p->key, p->key->text,
              "is not yet available with a line: a line's top hangs from vessel: today; lines attached to "
              "bodies and joints come with the system core (docs/design-system-core.md, step 2)");
  }
  if (pjoints && !pbodies && !c.has_vessel)
    return at(err, pjoints->key, "joints", "joins bodies: give them under bodies: (a model without line:)");
  if (c.body_only && c.has_vessel && pbodies) {
    const PlYPair *pv = pair_of(&top, "vessel"), *later = later_pair(pv, pbodies);
    return at(err, later->key, later->key->text,
              "give the bodies either as vessel: (one body, named vessel) or as bodies:, not both");
  }
  if (c.body_only) {
    /* a system of rigid bodies (the Giusti tests; a vessel without a pipe; bodies on joints):
     * no line, so nothing that describes one */
    static const char *const line_keys[] = {"seabed", "mesh", "rotation", "ends", "current", NULL};
    for (int k = 0; line_keys[k]; ++k)
      if ((rc = reject_key(&top, line_keys[k], "describes the line; a model without line: is a system of "
                                                 "rigid bodies (vessel: or bodies:)")))
        return rc;
    m->rigid_body = true;
    if ((rc = read_analysis(&c, &top, m))) return rc;
    if (m->analysis.kind != PL_ANALYSIS_DYNAMIC)
      return at(err, top.anchor, "analysis.type",
                "a system of rigid bodies (vessel: or bodies: without line:) needs analysis.type: dynamic");
    if ((rc = read_output(&c, &top, m))) return rc;
    if (m->noutput_points)
      return at(err, top.anchor, "output.points", "a model without a line has no points along a line");
    if ((rc = read_vessel(&c, &top, m))) return rc;
    if ((rc = read_bodies(&c, &top, m))) return rc;
    return read_joints(&c, &top, m);
  }
  if ((rc = read_line(&c, &top, m))) return rc;
  if ((rc = read_seabed(&top, m))) return rc;
  if ((rc = read_mesh(&c, &top, m))) return rc;
  int rot = (int)m->rotation;
  if ((rc = get_choice(&top, "rotation", &rot))) return rc;
  m->rotation = rot ? PL_ROT_EULER_ZXY : PL_ROT_QUATERNION;
  if ((rc = read_analysis(&c, &top, m))) return rc; /* before the ends: motions need it */
  if ((rc = read_ends(&c, &top, m))) return rc;
  if ((rc = read_current(&top, m))) return rc;
  if ((rc = read_output(&c, &top, m))) return rc;
  if ((rc = read_vessel(&c, &top, m))) return rc;
  if (m->vessel.present) PlVesselTopEnd(&m->vessel, &m->ends[1]); /* the mesh and guess use it */

  /* the line must reach from one end to the other */
  if (c.end_z[0] && (c.end_z[1] || m->vessel.present)) {
    const double dz = fabs(m->ends[1].position[2] - m->ends[0].position[2]);
    if (dz > m->length)
      return at(err, c.line_length, "line.length",
                "line shorter than the %.10g m vertical distance between its ends (length "
                "%.10g m%s)",
                dz, m->length,
                m->vessel.present ? "; the top end is the vessel's hang-off point" : "");
  }
  return check_plausible(err, root, m);
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

/* ---- plausibility: values a model can hold but no pipeline has (issue 12) --------------
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
#define PL_CHORD_STRAIN 0.05    /* ends farther apart than L (1 + this): no steel line reaches */

/* The node at a key path of the tree ("line.sections[0].material.youngs_modulus"), or NULL. */
static const PlYNode *node_at(const PlYNode *root, const char *path)
{
  Step steps[MAX_STEPS];
  const int n = split_path(path, strlen(path), steps);
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
  report(&e, w->source, w->line, w->col, path, "warning: %s", what);
  memcpy(m->warnings[m->nwarnings++], e.msg, sizeof e.msg);
}

static int check_plausible(PlError *err, const PlYNode *root, PlModel *m)
{
  char path[PATH_CAP];
  const PlYNode *n;
  /* environment */
  number_at(root, "environment.water_depth", &n);
  if (m->water_depth > PL_DEPTH_MAX)
    return at(err, n, "environment.water_depth", "%.10g m is deeper than any ocean (at most %g m; the unit is m)",
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
      return at(err, n, path, "%.6g Pa is no structural material's Young's modulus (steel: 2.07e11 Pa): the unit "
                "is Pa, not GPa or MPa", E);
    if (n && E > PL_E_MAX_ERROR)
      return at(err, n, path, "%.6g Pa is stiffer than any material (the unit is Pa; steel 2.07e11 Pa)", E);
    if (n && E < PL_E_MIN_WARN)
      warn(m, n, root, path, "%.6g Pa is below steel, titanium, aluminium and composites (HDPE: about 1e9 Pa); "
           "check the unit (Pa)", E);
    snprintf(path, sizeof path, "line.sections[%d].material.shear_modulus", i);
    const double G = number_at(root, path, &n);
    if (n && G < PL_G_MIN_ERROR)
      return at(err, n, path, "%.6g Pa is no structural material's shear modulus (steel: 7.9e10 Pa): the unit is "
                "Pa, not GPa or MPa", G);
    snprintf(path, sizeof path, "line.sections[%d].material.density", i);
    const double rho = number_at(root, path, &n);
    if (n && rho < PL_DENSITY_MIN)
      return at(err, n, path, "%.6g kg/m^3 is no pipe wall material's density (steel: 7850 kg/m^3): the unit is "
                "kg/m^3, not t/m^3", rho);
    snprintf(path, sizeof path, "line.sections[%d].outer_diameter", i);
    number_at(root, path, &n);
    if (n && sec->outer_diameter > PL_DIAMETER_MAX)
      return at(err, n, path, "%.6g m is wider than any pipe, riser or cable (at most %g m; the unit is m, not mm)",
                sec->outer_diameter, PL_DIAMETER_MAX);
    const double w = PlSectionSubmergedWeight(sec, m->water_density, m->gravity);
    if (w < -1e-9 * sec->mass_per_length * m->gravity && !m->segments[i].buoyant) { /* not neutral by round-off */
      snprintf(path, sizeof path, "line.sections[%d]", i);
      n = node_at(root, path);
      return at(err, n ? n : root, path, "this section floats: its submerged weight is %.6g N/m (mass %.6g kg/m "
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
      return at(err, n ? n : root, path, "the end is %.6g m below the seabed (z = %.10g m, the seabed at z = -%.10g "
                "m): give its height above -water_depth", -m->water_depth - e->position[2], e->position[2],
                m->water_depth);
    if (e->position[2] > PL_HIGH_END)
      warn(m, n, root, path, "the end is %.6g m above the sea surface (z = 0 is mean sea level; depth is negative "
           "z)", e->position[2]);
  }
  /* a time series shorter than the run is held at its last row: said, not silent */
  for (int k = 0; k < 2 && m->analysis.kind == PL_ANALYSIS_DYNAMIC; ++k) {
    const PlMotion *mo = &m->ends[k].motion;
    if (mo->kind != PL_MOTION_TIMESERIES || mo->nrows < 1 || !mo->table) continue;
    const double tend = mo->table[7 * (mo->nrows - 1)];
    if (tend < m->analysis.dynamic.duration * (1.0 - 1e-12)) {
      snprintf(path, sizeof path, "ends.%s.motion.file", k ? "top" : "bottom");
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
      return at(err, n ? n : root, "ends.top.position", "the ends are %.10g m apart, %.3g %% more than the line's "
                "length %.10g m: no pipe stretches that far (give a longer line or closer ends)", chord,
                100.0 * (chord / m->length - 1.0), m->length);
    if (chord > m->length)
      warn(m, n, root, "ends.top.position", "the ends are %.10g m apart, farther than the line's length %.10g m: the "
           "line must stretch %.3g %% to reach them", chord, m->length, 100.0 * (chord / m->length - 1.0));
  }
  return 0;
}


/* True when s[0..len) can stand as the key of a message: not empty, only the characters
 * of key paths (names, '.', '[', ']'). Else messages name "(override)" and quote it. */
static bool path_like(const char *s, size_t len)
{
  if (len == 0) return false;
  for (size_t i = 0; i < len; i++)
    if (!(isalnum((unsigned char)s[i]) || strchr("_.[]", s[i]) != NULL) || s[i] == '\0')
      return false;
  return true;
}

/* The edit distance of a and b (insertions, deletions, substitutions; at most 63 bytes each
 * are compared, longer keys are never near anything). */
static int edit_distance(const char *a, const char *b)
{
  const size_t na = strlen(a), nb = strlen(b);
  if (na > 63 || nb > 63) return INT_MAX;
  int row[64];
  for (size_t j = 0; j <= nb; j++) row[j] = (int)j;
  for (size_t i = 1; i <= na; i++) {
    int diag = row[0];
    row[0] = (int)i;
    for (size_t j = 1; j <= nb; j++) {
      const int up = row[j];
      int best = diag + (a[i - 1] != b[j - 1]);
      if (up + 1 < best) best = up + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[nb];
}

/* "; did you mean 'a' or 'b'?" into buf: the names nearest to key (edit distance at most a
 * third of its length, at least 1; or key a part of the name), or "" when none is near. */
static void nearest_names(const char *const *names, const char *key, char *buf, size_t cap)
{
  buf[0] = '\0';
  int best = INT_MAX;
  const int limit = (int)strlen(key) / 3 > 1 ? (int)strlen(key) / 3 : 1;
  for (int i = 0; names[i]; i++) {
    const int d = strstr(names[i], key) && strlen(key) >= 3 ? 1 : edit_distance(names[i], key);
    if (d <= limit && d < best) best = d;
  }
  if (best == INT_MAX) return;
  int n = 0;
  for (int i = 0; names[i] && n < 3; i++) {
    const int d = strstr(names[i], key) && strlen(key) >= 3 ? 1 : edit_distance(names[i], key);
    if (d != best) continue;
    cat(buf, cap, n ? " or '" : "; did you mean '");
    cat(buf, cap, names[i]);
    cat(buf, cap, "'");
    n++;
  }
  cat(buf, cap, "?");
}

/* The value val of an override of the key with schema row k (NULL: a list item, checked
 * when the model is read) against the row's type: a number, an integer, one of the choices,
 * a mapping or a list. A null value is left to the reader (a key set to nothing). The
 * message is the reader's, at the override's place. Returns 0 or 2. */
static int check_override_type(PlError *err, const PlKeySpec *k, const PlYNode *val,
                               const char *path)
{
  if (!k || PlYIsNull(val)) return 0;
  switch (k->type) {
  case PL_KEY_NUMBER: {
    double v;
    return parse_number(err, val, path, PlSchemaUnit(k), &v);
  }
  case PL_KEY_INTEGER: {
    bool ok = val->kind == PL_YNODE_SCALAR && val->plain && strlen(val->text) == val->len;
    for (size_t i = (ok && (val->text[0] == '+' || val->text[0] == '-')); ok && i < val->len; i++)
      ok = isdigit((unsigned char)val->text[i]) != 0;
    return ok ? 0 : at(err, val, path, "expected an integer, found %s", found(val).s);
  }
  case PL_KEY_CHOICE:
  case PL_KEY_BOOL: {
    if (val->kind == PL_YNODE_SCALAR && strlen(val->text) == val->len &&
        name_index(k->choices, val->text) >= 0)
      return 0;
    char expect[256];
    list_names(expect, sizeof expect, k->choices);
    return at(err, val, path, "expected one of: %s; found %s", expect, found(val).s);
  }
  case PL_KEY_MAP:
    return val->kind == PL_YNODE_MAP ? 0 : at(err, val, path, "expected a mapping, found %s", found(val).s);
  case PL_KEY_VEC3:
  case PL_KEY_LIST:
  case PL_KEY_MATRIX:
  case PL_KEY_ROWS:
  case PL_KEY_MAPS:
    return val->kind == PL_YNODE_SEQ ? 0 : at(err, val, path, "expected a list, found %s", found(val).s);
  case PL_KEY_STRING:
  case PL_KEY_NAMES:
    break;
  }
  return 0;
}

/* Applies override number k (1-based) "key.path=value" to the tree. Returns 0 or 2. */
static int apply_override(PlError *err, PlYTree *tree, PlYNode *root, int k, const char *arg)
{
  static const char kSrc[] = "--set";
  if (!arg) return report(err, kSrc, 1, k, "(override)", "missing argument (NULL)");
  const char *eq = strchr(arg, '=');
  if (!eq) {
    Txt a = clip_n(arg, strlen(arg), 100);
    if (path_like(arg, strlen(arg)))
      return report(err, kSrc, 1, k, a.s, "missing '=' (expected key.path=value)");
    return report(err, kSrc, 1, k, "(override)", "missing '=' in '%s' (expected key.path=value)",
                  a.s);
  }
  const size_t plen = (size_t)(eq - arg);
  Txt shown = clip_n(arg, plen, 100);
  const char *path = shown.s;
  Step steps[MAX_STEPS];
  const int nsteps = split_path(arg, plen, steps);
  if (nsteps < 0 && path_like(arg, plen))
    return report(err, kSrc, 1, k, path,
                  "malformed key path (expected names and list indices, like "
                  "line.sections[0].wall_thickness)");
  if (nsteps < 0)
    return report(err, kSrc, 1, k, "(override)",
                  "malformed key path '%s' (expected names and list indices, like "
                  "line.sections[0].wall_thickness)",
                  path);
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
  char here[PATH_CAP] = ""; /* the path walked so far ("" the top level) */
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
      char next[PATH_CAP];
      join_index(next, sizeof next, here, st->index);
      memcpy(here, next, sizeof here);
      continue;
    }
    const char *keys[PL_SCHEMA_MAX_KEYS];
    if (PlSchemaChildren(here, keys, PL_SCHEMA_MAX_KEYS) == 0) {
      const PlKeySpec *hs = PlSchemaFind(here);
      if (hs && hs->type == PL_KEY_MAPS)
        return report(err, kSrc, 1, k, path, "unknown key '%s' (a list needs an index [i] first)",
                      st->key);
      return report(err, kSrc, 1, k, path, "unknown key '%s' (the value before it has no keys)",
                    st->key);
    }
    if (name_index(keys, st->key) < 0) {
      char expect[512], near[160];
      list_names(expect, sizeof expect, keys);
      nearest_names(keys, st->key, near, sizeof near);
      return report(err, kSrc, 1, k, path, "unknown key '%s' (expected one of: %s)%s", st->key,
                    expect, near);
    }
    if (cur->kind != PL_YNODE_MAP)
      return report(err, kSrc, 1, k, path,
                    "cannot set '%s': the value above it is %s, not a mapping", st->key,
                    found(cur).s);
    char child[PATH_CAP];
    join_key(child, sizeof child, here, st->key);
    const PlKeySpec *cs = PlSchemaFind(child);
    PlYPair *p = PlYMapFind(cur, st->key);
    if (last) {
      int rc = check_override_type(err, cs, val, path);
      if (rc) return rc;
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
      const char *sub[PL_SCHEMA_MAX_KEYS];
      if (steps[i + 1].is_index)
        return report(err, kSrc, 1, k, path,
                      "'%s' is not in the model, so it has no item [%zu]", st->key,
                      steps[i + 1].index);
      if (cs && cs->type == PL_KEY_MAPS)
        return report(err, kSrc, 1, k, path, "'%s' is a list: give an index, like %s[0]",
                      st->key, st->key);
      if (PlSchemaChildren(child, sub, PL_SCHEMA_MAX_KEYS) == 0)
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
    memcpy(here, child, sizeof here);
  }
  return 0; /* not reached: the last step returns */
}

/* ---- entry points --------------------------------------------------------------------- */

/* The defaults of PlModel: every key's default from the schema (schema_table.c), the rest
 * (counts, required values) zero or unset. */
void PlModelInitDefaults(PlModel *m)
{
  if (!m) return;
  memset(m, 0, sizeof *m);
  m->water_depth = 0.0; /* required: unset */
  m->water_density = PlSchemaDefault("environment.water_density");
  m->gravity = PlSchemaDefault("environment.gravity");
  m->length = 0.0;      /* required: unset */
  m->nsegments = 0;
  const int seabed = (int)PlSchemaDefault("seabed.model"); /* PlChoiceSeabedModels */
  m->seabed = seabed == 0 ? PL_SEABED_NONE : seabed == 1 ? PL_SEABED_NONLINEAR : PL_SEABED_LINEAR;
  m->seabed_stiffness = 0.0;
  m->mesh_elements = 0; /* required (or target length): unset */
  m->mesh_target_length = 0.0;
  m->nzones = 0;
  m->rotation = PlSchemaDefault("rotation") == 1 ? PL_ROT_EULER_ZXY : PL_ROT_QUATERNION;
  for (int e = 0; e < 2; e++) {
    PlEnd *end = &m->ends[e];
    for (int i = 0; i < 9; i++) end->orientation[i] = (i % 4 == 0) ? 1.0 : 0.0;
    end->has_orientation = false;
    end->point = end->body = -1;
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

  /* dynamic analysis */
  for (int i = 0; i < PL_MAX_SECTIONS; i++) {
    PlHydro *h = &m->segments[i].hydro;
    h->drag_normal = PlSchemaDefault("line.sections[*].hydrodynamics.drag_normal");
    h->drag_tangential = PlSchemaDefault("line.sections[*].hydrodynamics.drag_tangential");
    h->added_mass_normal = PlSchemaDefault("line.sections[*].hydrodynamics.added_mass_normal");
    h->added_mass_tangential =
        PlSchemaDefault("line.sections[*].hydrodynamics.added_mass_tangential");
    for (int k = 0; k < 3; k++) h->rotational_damping[k] = 0.0; /* [0, 0, 0] */
  }
  m->seabed_damping = PlSchemaDefault("seabed.damping");
  m->current.kind = PL_CURRENT_NONE; /* no current: block absent */
  m->current.direction_deg = PlSchemaDefault("current.direction");
  m->current.ntable = 0;
  m->current.start_time = PlSchemaDefault("current.start_time");
  m->current.ramp_time = PlSchemaDefault("current.ramp_time");
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
  PlDynamicSettings *d = &m->analysis.dynamic;
  d->duration = 0.0; /* required: unset */
  d->output_interval = PlSchemaDefault("analysis.dynamic.output_interval");
  d->rtol = PlSchemaDefault("analysis.dynamic.rtol");
  d->atol_position = PlSchemaDefault("analysis.dynamic.atol_position");
  d->atol_rotation = PlSchemaDefault("analysis.dynamic.atol_rotation");
  d->atol_velocity = PlSchemaDefault("analysis.dynamic.atol_velocity");
  d->atol_strain = PlSchemaDefault("analysis.dynamic.atol_strain");
  d->max_step = PlSchemaDefault("analysis.dynamic.max_step");
  d->initial_step = PlSchemaDefault("analysis.dynamic.initial_step");
  d->max_order = (int)PlSchemaDefault("analysis.dynamic.max_order");
  d->max_steps = (int)PlSchemaDefault("analysis.dynamic.max_steps");
  d->atol_reaction = PlSchemaDefault("analysis.dynamic.atol_reaction");
  m->noutput_points = 0;

  /* vessel and bodies (absent unless given) */
  for (int k = -1; k < PL_MAX_BODIES; k++) {
    PlVesselModel *v = k < 0 ? &m->vessel : &m->bodies[k];
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
}

void PlModelLineModel(const PlModel *m, int l, PlModel *out)
{
  *out = *m;
  const PlLineModel *L = &m->lines[l];
  out->nlines = 0;
  out->npoints = 0;
  out->nbodies = 0;
  out->njoints = 0;
  out->rigid_body = false;
  out->vessel.present = false;
  out->vessel.environment.table = NULL;
  for (int k = 0; k < PL_MAX_BODIES; k++) out->bodies[k].environment.table = NULL;
  snprintf(out->name, sizeof out->name, "%.200s: %.50s", m->name, L->name);
  out->length = L->length;
  out->nsegments = L->nsegments;
  memcpy(out->segments, L->segments, sizeof out->segments);
  out->mesh_elements = L->mesh_elements;
  out->mesh_target_length = L->mesh_target_length;
  out->nzones = L->nzones;
  memcpy(out->zones, L->zones, sizeof out->zones);
  memcpy(out->ends, L->ends, sizeof out->ends);
  for (int e = 0; e < 2; e++) {
    PlEnd *E = &out->ends[e];
    E->motion.table = NULL;
    E->motion.kind = PL_MOTION_NONE;
    if (E->point < 0 && E->body < 0) continue;
    for (int i = 0; i < 3; i++) { /* the position was set from the point or body's pose when read */
      E->fixed[i] = true;
      E->has_position[i] = true;
      E->fixed[3 + i] = false;
      E->force[i] = E->moment[i] = 0.0;
    }
  }
}

int PlModelBodyIndex(const PlModel *m, const char *id)
{
  for (int k = 0; k < m->nbodies; k++)
    if (!strcmp(m->bodies[k].id, id)) return k;
  return -1;
}

void PlModelFree(PlModel *m)
{
  if (!m) return;
  for (int e = 0; e < 2; e++) free(m->ends[e].motion.table);
  free((double *)m->vessel.environment.table); /* owned by the model (models.h) */
  for (int k = 0; k < PL_MAX_BODIES; k++) free((double *)m->bodies[k].environment.table);
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
  *dst = *src;
  for (int e = 0; e < 2; e++) dst->ends[e].motion.table = NULL;
  dst->vessel.environment.table = NULL;
  for (int k = 0; k < PL_MAX_BODIES; k++) dst->bodies[k].environment.table = NULL;
  for (int e = 0; e < 2; e++) {
    const PlMotion *from = &src->ends[e].motion;
    if (!from->table || from->nrows <= 0) continue;
    const size_t n = (size_t)from->nrows;
    double *t = n <= SIZE_MAX / (7 * sizeof *t) ? malloc(n * 7 * sizeof *t) : NULL;
    if (!t) {
      PlModelFree(dst); /* frees the table copied so far */
      return -1;
    }
    memcpy(t, from->table, n * 7 * sizeof *t);
    dst->ends[e].motion.table = t;
  }
  for (int k = -1; k < PL_MAX_BODIES; k++) { /* the vessel, then the bodies */
    const PlVesselLoad *L = k < 0 ? &src->vessel.environment : &src->bodies[k].environment;
    if (!L->table || L->nrows <= 0) continue;
    const size_t n = (size_t)L->nrows;
    double *t = n <= SIZE_MAX / (7 * sizeof *t) ? malloc(n * 7 * sizeof *t) : NULL;
    if (!t) {
      PlModelFree(dst);
      return -1;
    }
    memcpy(t, L->table, n * 7 * sizeof *t);
    if (k < 0) dst->vessel.environment.table = t;
    else dst->bodies[k].environment.table = t;
  }
  return 0;
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
  if (rc) PlModelFree(m); /* nothing stays allocated after an error */
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
