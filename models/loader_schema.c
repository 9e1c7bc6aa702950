/*
 * loader_schema.c - the loader's schema engine: FILE:LINE:COL messages, key paths, a
 * mapping opened against the keys the schema table gives it (unknown and duplicate keys
 * named with the allowed ones), and the typed getters that read a key in the unit and
 * range of its row of models/schema_table.c (numbers, integers, strings, choices, vectors,
 * lists, matrices). Used by every reader (loader_*.c); see loader.c for the stages.
 */
#include "loader_impl.h"

/* ---- messages ------------------------------------------------------------------------- */

/* Appends s to the NUL-terminated buf (capacity cap), cutting it to fit. */
void ld_cat(char *buf, size_t cap, const char *s)
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
Txt ld_clip_n(const char *s, size_t len, size_t max)
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

/* ld_clip_n() at 48 bytes: user values in messages. */
Txt ld_clip(const char *s, size_t len)
{
  return ld_clip_n(s, len, 48);
}

/* What a node is, for "found ..." in messages: null, 'text', the quoted string 'text',
 * a mapping, a list of N items. */
Txt ld_found(const PlYNode *n)
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
    Txt c = ld_clip(n->text, n->len);
    t.s[0] = '\0';
    ld_cat(t.s, sizeof t.s, n->plain ? "'" : "the quoted string '");
    ld_cat(t.s, sizeof t.s, c.s);
    ld_cat(t.s, sizeof t.s, "'");
  }
  return t;
}

/* The node's own text, clipped, for "got ..." in messages. */
Txt ld_got(const PlYNode *n)
{
  if (n && n->kind == PL_YNODE_SCALAR) return ld_clip(n->text, n->len);
  return ld_found(n);
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

/* ld_report() with an explicit place. */
int ld_report(PlError *err, const char *src, int line, int col, const char *path,
                  const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int rc = vreport(err, src, line, col, path, fmt, ap);
  va_end(ap);
  return rc;
}

/* ld_report() at node n's place. */
int ld_at(PlError *err, const PlYNode *n, const char *path, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int rc = vreport(err, n->source, n->line, n->col, path, fmt, ap);
  va_end(ap);
  return rc;
}

/* ---- key paths ------------------------------------------------------------------------ */

/* buf = parent "." key (or key alone at the top level), cut to cap. */
void ld_join_key(char *buf, size_t cap, const char *parent, const char *key)
{
  buf[0] = '\0';
  if (parent && parent[0]) {
    ld_cat(buf, cap, parent);
    ld_cat(buf, cap, ".");
  }
  ld_cat(buf, cap, key);
}

/* buf = parent "[i]", cut to cap. */
void ld_join_index(char *buf, size_t cap, const char *parent, size_t i)
{
  char idx[32];
  snprintf(idx, sizeof idx, "[%zu]", i);
  buf[0] = '\0';
  ld_cat(buf, cap, parent);
  ld_cat(buf, cap, idx);
}

/* ---- the schema: the keys of each mapping come from schema_table.c ------------------- */

/* Index of name in a NULL-terminated list, or -1. */
int ld_name_index(const char *const *names, const char *name)
{
  for (int i = 0; names[i]; i++)
    if (strcmp(names[i], name) == 0) return i;
  return -1;
}

/* "a, b, c" into buf. */
void ld_list_names(char *buf, size_t cap, const char *const *names)
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

/* Opens node n (found at path; anchor = the key that names it, or n) as a mapping that may
 * only hold the keys the schema gives a mapping at path, each once. Returns 0 or 2. */
int ld_open_scope(PlError *err, const PlYNode *n, const PlYNode *anchor, const char *path,
                      Scope *s)
{
  const char *names[PL_SCHEMA_MAX_KEYS];
  PlSchemaChildren(path, names, PL_SCHEMA_MAX_KEYS);
  s->err = err;
  s->map = n;
  s->anchor = anchor ? anchor : n;
  snprintf(s->path, sizeof s->path, "%s", path);
  char expect[512];
  ld_list_names(expect, sizeof expect, names);
  if (n->kind != PL_YNODE_MAP)
    return ld_at(err, n, path, "expected a mapping with keys %s; found %s", expect,
              ld_found(n).s);
  for (size_t i = 0; i < n->npairs; i++) {
    const PlYNode *k = n->pairs[i].key;
    Txt kt = ld_clip(k->text, k->len);
    char kp[PATH_CAP];
    ld_join_key(kp, sizeof kp, path, kt.s);
    if (strlen(k->text) != k->len || ld_name_index(names, k->text) < 0)
      return ld_at(err, k, kp, "unknown key '%s' (expected one of: %s)", kt.s, expect);
    for (size_t j = 0; j < i; j++) /* at most one earlier entry per known name */
      if (strcmp(n->pairs[j].key->text, k->text) == 0)
        return ld_at(err, k, kp, "duplicate key '%s' (first given at %s:%d:%d)", kt.s,
                  n->pairs[j].key->source, n->pairs[j].key->line, n->pairs[j].key->col);
  }
  return 0;
}

/* Of two pairs of one mapping, the one given later (file order; overrides that added a
 * key come after the file's keys). */
const PlYPair *ld_later_pair(const PlYPair *a, const PlYPair *b)
{
  return a > b ? a : b;
}

/* The pair of key in scope s, or NULL. */
const PlYPair *ld_pair_of(const Scope *s, const char *key)
{
  return PlYMapFind(s->map, key);
}

/* The value of key in scope s, or NULL. */
const PlYNode *ld_value_of(const Scope *s, const char *key)
{
  const PlYPair *p = ld_pair_of(s, key);
  return p ? p->value : NULL;
}

/* The value of key in mapping node map, or NULL. */
const PlYNode *ld_value_of_node(const PlYNode *map, const char *key)
{
  const PlYPair *p = PlYMapFind(map, key);
  return p ? p->value : NULL;
}

/* "missing required key 'key' (unit)" at the scope's anchor. */
int ld_missing(const Scope *s, const char *key, const char *unit, const char *note)
{
  return ld_at(s->err, s->anchor, s->path, "missing required key '%s'%s%s%s%s", key,
            (unit && unit[0]) ? " (" : "", (unit && unit[0]) ? unit : "",
            (unit && unit[0]) ? ")" : "", note ? note : "");
}

/* When key is present in scope s: an error at the key, with the text fmt (why the key is
 * not allowed there, e.g. "is only used by ..."). Returns 0 (absent) or 2. */
int ld_reject_key(const Scope *s, const char *key, const char *fmt, ...)
{
  const PlYPair *p = ld_pair_of(s, key);
  if (!p) return 0;
  char path[PATH_CAP];
  ld_join_key(path, sizeof path, s->path, key);
  va_list ap;
  va_start(ap, fmt);
  int rc = vreport(s->err, p->key->source, p->key->line, p->key->col, path, fmt, ap);
  va_end(ap);
  return rc;
}

/* Opens the mapping under key of scope s as a child scope. *present tells whether the key
 * exists; a missing required key is an error. Returns 0 or 2. */
int ld_open_child_if(const Scope *s, const char *key, bool required, Scope *child,
                         bool *present)
{
  const PlYPair *p = ld_pair_of(s, key);
  *present = (p != NULL);
  if (!p) return required ? ld_missing(s, key, NULL, NULL) : 0;
  char path[PATH_CAP];
  ld_join_key(path, sizeof path, s->path, key);
  return ld_open_scope(s->err, p->value, p->key, path, child);
}

/* ---- scalars -------------------------------------------------------------------------- */

/* True when s names infinity or NaN in any usual spelling (.inf, -Inf, nan, .NaN, ...). */
bool ld_nonfinite_word(const char *s)
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
int ld_parse_number(PlError *err, const PlYNode *n, const char *path, const char *unit,
                        double *out)
{
  const bool has_unit = unit && unit[0];
  if (n->kind != PL_YNODE_SCALAR || !n->plain || PlYIsNull(n))
    return ld_at(err, n, path, "expected a number%s%s%s, found %s", has_unit ? " (" : "",
              has_unit ? unit : "", has_unit ? ")" : "", ld_found(n).s);
  if (strlen(n->text) == n->len && ld_nonfinite_word(n->text))
    return ld_at(err, n, path, "expected a finite number, found '%s'", ld_got(n).s);
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
    return ld_at(err, n, path, "expected a number%s%s%s, found %s", has_unit ? " (" : "",
              has_unit ? unit : "", has_unit ? ")" : "", ld_found(n).s);
  if (!isfinite(v))
    return ld_at(err, n, path, "number out of range (not a finite double), found '%s'",
              ld_got(n).s);
  *out = v;
  return 0;
}

/* True when v is 0 or within [PL_NUMBER_MIN, PL_NUMBER_MAX] in magnitude. */
bool ld_meaningful(double v)
{
  return v == 0.0 || (fabs(v) >= PL_NUMBER_MIN && fabs(v) <= PL_NUMBER_MAX);
}

/* Checks v (from node n at path) against r, then that it is ld_meaningful(); messages say
 * the bound with its unit. */
int ld_check_range(PlError *err, const PlYNode *n, const char *path, const char *unit,
                       Range r, double v)
{
  const char *sp = (unit && unit[0]) ? " " : "";
  const char *u = unit ? unit : "";
  if (isfinite(r.lo) && (r.lo_strict ? !(v > r.lo) : !(v >= r.lo)))
    return ld_at(err, n, path, "must be %s %.10g%s%s, got %s",
              r.lo_strict ? "greater than" : "at least", r.lo, sp, u, ld_got(n).s);
  if (isfinite(r.hi) && (r.hi_strict ? !(v < r.hi) : !(v <= r.hi)))
    return ld_at(err, n, path, "must be %s %.10g%s%s, got %s",
              r.hi_strict ? "less than" : "at most", r.hi, sp, u, ld_got(n).s);
  if (!ld_meaningful(v)) return ld_at(err, n, path, NOT_MEANINGFUL_FMT, ld_got(n).s);
  return 0;
}

/* The schema row of key in scope s: its type, unit, range, default (schema_table.c). A
 * key the loader reads that the table lacks is a programming error, not a user's: abort
 * (any test that loads such a key finds it). */
const PlKeySpec *ld_spec_of(const Scope *s, const char *key)
{
  char path[PATH_CAP];
  ld_join_key(path, sizeof path, s->path, key);
  const PlKeySpec *k = PlSchemaFind(path);
  if (!k) {
    fprintf(stderr, "pipelay: internal error: the key '%s' is not in the schema\n", path);
    abort();
  }
  return k;
}

/* The range of row k. */
Range ld_range_of(const PlKeySpec *k)
{
  const Range r = {k->lo, k->hi, k->lo_open, k->hi_open};
  return r;
}

/* Reads number key of scope s into *out, in the unit and range of its schema row. When
 * absent: an error if required, else *out is left as it is. *where (if not NULL) receives
 * the value node or NULL. Returns 0 or 2. */
int ld_get_number_if(const Scope *s, const char *key, bool required, double *out,
                         const PlYNode **where)
{
  const PlKeySpec *k = ld_spec_of(s, key);
  const char *unit = PlSchemaUnit(k);
  const PlYNode *n = ld_value_of(s, key);
  if (where) *where = n;
  if (!n) return required ? ld_missing(s, key, unit, NULL) : 0;
  char path[PATH_CAP];
  ld_join_key(path, sizeof path, s->path, key);
  double v;
  int rc = ld_parse_number(s->err, n, path, unit, &v);
  if (rc) return rc;
  rc = ld_check_range(s->err, n, path, unit, ld_range_of(k), v);
  if (rc) return rc;
  *out = v;
  return 0;
}

/* ld_get_number_if(), required when the schema says so (a conditional key is read with
 * ld_get_number_if() where it is required, or after its presence was checked). */
int ld_get_number(const Scope *s, const char *key, double *out, const PlYNode **where)
{
  return ld_get_number_if(s, key, ld_spec_of(s, key)->need == PL_KEY_REQUIRED, out, where);
}

/* ld_open_child_if(), required when the schema says so. */
int ld_open_child(const Scope *s, const char *key, Scope *child, bool *present)
{
  return ld_open_child_if(s, key, ld_spec_of(s, key)->need == PL_KEY_REQUIRED, child, present);
}

/* Reads integer key of scope s into *out, within its schema row's range. Strict: plain
 * digits with an optional sign; 1.5 or 1e3 are not integers. Absent: error if required,
 * else unchanged. why (may be NULL) is added to the range message, e.g. " (a line needs at
 * least 2 elements)". Returns 0 or 2. */
int ld_get_int_why(const Scope *s, const char *key, const char *why, int *out)
{
  const PlKeySpec *k = ld_spec_of(s, key);
  const long lo = (long)k->lo, hi = (long)k->hi;
  const PlYNode *n = ld_value_of(s, key);
  if (!n) return k->need == PL_KEY_REQUIRED ? ld_missing(s, key, NULL, NULL) : 0;
  char path[PATH_CAP];
  ld_join_key(path, sizeof path, s->path, key);
  bool ok = n->kind == PL_YNODE_SCALAR && n->plain && !PlYIsNull(n) &&
            strlen(n->text) == n->len && n->len > 0;
  size_t i = 0;
  if (ok && (n->text[0] == '+' || n->text[0] == '-')) i = 1;
  ok = ok && i < n->len;
  for (; ok && i < n->len; i++) ok = isdigit((unsigned char)n->text[i]) != 0;
  if (!ok) return ld_at(s->err, n, path, "expected an integer, found %s", ld_found(n).s);
  errno = 0;
  long long v = strtoll(n->text, NULL, 10);
  if (errno == ERANGE || v < lo || v > hi)
    return ld_at(s->err, n, path, "must be an integer from %ld to %ld%s, got %s", lo, hi,
              why ? why : "", ld_got(n).s);
  *out = (int)v;
  return 0;
}

/* ld_get_int_why() without an explanation. */
int ld_get_int(const Scope *s, const char *key, int *out)
{
  return ld_get_int_why(s, key, NULL, out);
}

/* Reads string key of scope s into buf (capacity cap): one line of text, no control
 * characters, non-empty unless allow_empty. Absent: error if the schema requires it, else
 * unchanged. Returns 0 or 2. */
int ld_get_string(const Scope *s, const char *key, bool allow_empty, char *buf, size_t cap)
{
  const bool required = ld_spec_of(s, key)->need == PL_KEY_REQUIRED;
  const PlYNode *n = ld_value_of(s, key);
  if (!n) return required ? ld_missing(s, key, NULL, NULL) : 0;
  char path[PATH_CAP];
  ld_join_key(path, sizeof path, s->path, key);
  if (n->kind != PL_YNODE_SCALAR || (PlYIsNull(n) && !(allow_empty && n->len == 0)))
    return ld_at(s->err, n, path, "expected a string, found %s", ld_found(n).s);
  for (size_t i = 0; i < n->len; i++) {
    unsigned char ch = (unsigned char)n->text[i];
    if (ch < 0x20u || ch == 0x7Fu)
      return ld_at(s->err, n, path, "must be one line of text without control characters");
  }
  if (n->len == 0 && !allow_empty) return ld_at(s->err, n, path, "must not be empty");
  if (n->len >= cap)
    return ld_at(s->err, n, path, "is too long (%zu bytes, at most %zu)", n->len, cap - 1);
  memcpy(buf, n->text, n->len + 1);
  return 0;
}

/* Reads key of scope s as one of its schema row's choices; *out = its index. Absent:
 * unchanged. 0 or 2. */
int ld_get_choice(const Scope *s, const char *key, int *out)
{
  const char *const *names = ld_spec_of(s, key)->choices;
  const PlYNode *n = ld_value_of(s, key);
  if (!n) return 0;
  char path[PATH_CAP], expect[256];
  ld_join_key(path, sizeof path, s->path, key);
  ld_list_names(expect, sizeof expect, names);
  int i = -1;
  if (n->kind == PL_YNODE_SCALAR && !PlYIsNull(n) && strlen(n->text) == n->len)
    i = ld_name_index(names, n->text);
  if (i < 0) return ld_at(s->err, n, path, "expected one of: %s; found %s", expect, ld_found(n).s);
  *out = i;
  return 0;
}

/* The default of a choice key of scope s: the index of its default in its choices. */
int ld_choice_default(const Scope *s, const char *key)
{
  const PlKeySpec *k = ld_spec_of(s, key);
  return isnan(k->def) ? 0 : (int)k->def;
}

/* Reads key of scope s as a list of exactly 3 numbers in its schema row's unit and range
 * (nulls allowed when has != NULL; has[i] then tells which were numbers). items (if not
 * NULL) receives the item nodes. *present tells whether the key exists. Returns 0 or 2. */
int ld_get_vec3(const Scope *s, const char *key, double out[3], bool has[3],
                    const PlYNode *items[3], bool *present)
{
  const PlKeySpec *k = ld_spec_of(s, key);
  const char *unit = PlSchemaUnit(k);
  const Range r = ld_range_of(k);
  const PlYNode *n = ld_value_of(s, key);
  *present = (n != NULL);
  if (!n) return 0;
  char path[PATH_CAP];
  ld_join_key(path, sizeof path, s->path, key);
  if (n->kind != PL_YNODE_SEQ || n->nitems != 3)
    return ld_at(s->err, n, path, "expected a list of 3 numbers%s%s%s%s, found %s",
              has ? " or nulls (~)" : "", unit[0] ? " (" : "", unit, unit[0] ? ")" : "",
              ld_found(n).s);
  for (int i = 0; i < 3; i++) {
    const PlYNode *it = n->items[i];
    if (items) items[i] = it;
    char ip[PATH_CAP];
    ld_join_index(ip, sizeof ip, path, (size_t)i);
    if (has && PlYIsNull(it)) {
      has[i] = false;
      out[i] = 0.0;
      continue;
    }
    double v;
    int rc = ld_parse_number(s->err, it, ip, unit, &v);
    if (!rc) rc = ld_check_range(s->err, it, ip, unit, r, v);
    if (rc) return rc;
    out[i] = v;
    if (has) has[i] = true;
  }
  return 0;
}

/* A 6-vector's ListSpec: the range of its schema row k for every item, unit_lo for the
 * first three and unit_hi for the last three, desc for messages. */
ListSpec ld_split_list(const PlKeySpec *k, const char *unit_lo, const char *unit_hi,
                           const char *desc)
{
  const ListSpec l = {3, unit_lo, unit_hi, ld_range_of(k), ld_range_of(k), desc};
  return l;
}

/* Parses node n (at path) as a list of exactly count numbers read by sp into out.
 * Returns 0 or 2. */
int ld_parse_list(PlError *err, const PlYNode *n, const char *path, size_t count,
                      const ListSpec *sp, double *out)
{
  if (n->kind != PL_YNODE_SEQ || n->nitems != count)
    return ld_at(err, n, path, "expected a list of %zu numbers (%s), found %s", count, sp->desc,
              ld_found(n).s);
  for (size_t i = 0; i < count; i++) {
    const char *unit = i < sp->split ? sp->unit_lo : sp->unit_hi;
    const Range r = i < sp->split ? sp->r_lo : sp->r_hi;
    char ip[PATH_CAP];
    ld_join_index(ip, sizeof ip, path, i);
    double v = 0.0;
    int rc = ld_parse_number(err, n->items[i], ip, unit, &v);
    if (!rc) rc = ld_check_range(err, n->items[i], ip, unit, r, v);
    if (rc) return rc;
    out[i] = v;
  }
  return 0;
}

/* Reads key of scope s as a list of count numbers read by sp (parse_list). Absent: an
 * error if the schema requires it, else out is left as it is. *where (if not NULL)
 * receives the value node or NULL. Returns 0 or 2. */
int ld_get_list_spec(const Scope *s, const char *key, size_t count, const ListSpec *sp,
                         double *out, const PlYNode **where)
{
  const bool required = ld_spec_of(s, key)->need == PL_KEY_REQUIRED;
  const PlYNode *n = ld_value_of(s, key);
  if (where) *where = n;
  if (!n) return required ? ld_missing(s, key, sp->desc, NULL) : 0;
  char path[PATH_CAP];
  ld_join_key(path, sizeof path, s->path, key);
  return ld_parse_list(s->err, n, path, count, sp, out);
}

/* ld_get_list_spec() of a list of the schema row's count numbers, all in its unit and range. */
int ld_get_list(const Scope *s, const char *key, double *out, const PlYNode **where)
{
  const PlKeySpec *k = ld_spec_of(s, key);
  const ListSpec sp = {0, k->unit, k->unit, ld_range_of(k), ld_range_of(k), k->unit};
  return ld_get_list_spec(s, key, (size_t)k->count, &sp, out, where);
}

/* Reads key of scope s as an n x n matrix (n = the schema row's count, 3 or 6), a list of
 * n rows of n finite numbers, into out (row-major). units: of the translational block,
 * the mixed blocks and the rotational block of a 6x6 (a 3x3 uses units[0]). Absent: an
 * error if the schema requires it, else out is left as it is. *where as for get_list.
 * Returns 0 or 2. */
int ld_get_matrix(const Scope *s, const char *key, const char *const units[3], double *out,
                      const PlYNode **where)
{
  const PlKeySpec *k = ld_spec_of(s, key);
  const size_t n = (size_t)k->count;
  const bool required = k->need == PL_KEY_REQUIRED;
  const Range r = ld_range_of(k);
  const PlYNode *m = ld_value_of(s, key);
  if (where) *where = m;
  char desc[96];
  if (n == 6)
    snprintf(desc, sizeof desc, "%s, %s, %s", units[0], units[1], units[2]);
  else
    snprintf(desc, sizeof desc, "%s", units[0]);
  if (!m) return required ? ld_missing(s, key, desc, NULL) : 0;
  char path[PATH_CAP];
  ld_join_key(path, sizeof path, s->path, key);
  if (m->kind != PL_YNODE_SEQ || m->nitems != n)
    return ld_at(s->err, m, path, "expected a %zux%zu matrix, a list of %zu rows of %zu numbers (%s), "
              "found %s",
              n, n, n, n, desc, ld_found(m).s);
  double v[36];
  for (size_t i = 0; i < n; i++) {
    const PlYNode *row = m->items[i];
    char rp[PATH_CAP];
    ld_join_index(rp, sizeof rp, path, i);
    if (row->kind != PL_YNODE_SEQ || row->nitems != n)
      return ld_at(s->err, row, rp, "expected a row of %zu numbers (%s), found %s", n, desc,
                ld_found(row).s);
    for (size_t j = 0; j < n; j++) {
      const char *unit = n == 6 ? units[(i >= 3) + (j >= 3)] : units[0];
      char ip[PATH_CAP];
      ld_join_index(ip, sizeof ip, rp, j);
      int rc = ld_parse_number(s->err, row->items[j], ip, unit, &v[n * i + j]);
      if (!rc) rc = ld_check_range(s->err, row->items[j], ip, unit, r, v[n * i + j]);
      if (rc) return rc;
    }
  }
  memcpy(out, v, n * n * sizeof v[0]);
  return 0;
}

/* Checks that the n x n matrix A (from node where, at path) is symmetric to 1e-9 of its
 * diagonal; the message names the first pair that is not (1-based). Returns 0 or 2. */
int ld_check_symmetric(PlError *err, const PlYNode *where, const char *path, size_t n,
                           const double *A)
{
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < i; j++) {
      const double a = A[n * i + j], b = A[n * j + i];
      if (fabs(a - b) > 1e-9 * (fabs(A[(n + 1) * i]) + fabs(A[(n + 1) * j])))
        return ld_at(err, where, path,
                  "must be symmetric: entry (%zu, %zu) is %.10g, entry (%zu, %zu) is %.10g",
                  i + 1, j + 1, a, j + 1, i + 1, b);
    }
  return 0;
}

/* "is only used by a dynamic analysis (analysis.type is 'static')" at key of scope s, when
 * the analysis is not dynamic and key is present. Returns 0 or 2. */
int ld_dynamic_only(const Ctx *c, const Scope *s, const char *key)
{
  if (c->kind == PL_ANALYSIS_DYNAMIC) return 0;
  return ld_reject_key(s, key, "is only used by a dynamic analysis (analysis.type is 'static'%s)",
                    c->kind_given ? "" : ", the default");
}

int ld_open_list(PlError *err, const Scope *top, const char *key, bool allow_empty, const char *what,
                 const PlYNode **list, char *path)
{
  *list = NULL;
  const PlYPair *p = ld_pair_of(top, key);
  if (!p) return 0;
  ld_join_key(path, PATH_CAP, top->path, key);
  const PlYNode *l = p->value;
  if (l->kind != PL_YNODE_SEQ || (!allow_empty && l->nitems == 0))
    return ld_at(err, l, path, "expected a %slist of %s, found %s", allow_empty ? "" : "non-empty ", what,
                 ld_found(l).s);
  *list = l;
  return 0;
}
