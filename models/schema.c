/*
 * schema.c - the schema engine's table side: finding the row of a key path, the keys of
 * a mapping, the defaults, and the table as text (`pipelay info --keys`) or as the
 * markdown tables of docs/model-file.md.
 *
 * A concrete path ("lines[2].ends.top.motion.dofs.x.period") is matched against the
 * rows' patterns ("ends.*.motion.dofs.*.period") segment by segment: list indices become
 * [*], a pattern segment * matches any key. When no row matches, the path is rewritten
 * through the rows with same_as ("lines[*].ends" -> "ends", "bodies[*]" -> "vessel") and
 * matched again, so a row of its own (bodies[*].name) wins over the shared one. The
 * table has a few hundred rows and a model a few hundred keys: a linear scan.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema.h"

#define SPATH 256 /* longest path handled */

int PlSchemaCount(void)
{
  return PlSchemaTableRows;
}

const PlKeySpec *PlSchemaAt(int i)
{
  return (i >= 0 && i < PlSchemaTableRows) ? &PlSchemaTable[i] : NULL;
}

const char *PlSchemaUnit(const PlKeySpec *k)
{
  return (!k || !k->unit || !strcmp(k->unit, "-")) ? "" : k->unit;
}

/* in with every list index [digits] written [*], into out (cap). */
static void normalize(const char *in, char *out, size_t cap)
{
  size_t o = 0;
  for (size_t i = 0; in[i] && o + 4 < cap; i++) {
    if (in[i] == '[') {
      size_t j = i + 1;
      while (in[j] >= '0' && in[j] <= '9') j++;
      if (j > i + 1 && in[j] == ']') {
        memcpy(out + o, "[*]", 3);
        o += 3;
        i = j;
        continue;
      }
    }
    out[o++] = in[i];
  }
  out[o] = '\0';
}

/* The length of the segment at s (up to '.' or the end). */
static size_t seg_len(const char *s)
{
  size_t n = 0;
  while (s[n] && s[n] != '.') n++;
  return n;
}

/* Matches pattern pat against the start of path n, whole segments. Returns the rest of n
 * after the match ("" or ".more"), or NULL. */
static const char *match_prefix(const char *pat, const char *n)
{
  if (!pat[0]) return n; /* the top level */
  for (;;) {
    const size_t pl = seg_len(pat), nl = seg_len(n);
    if (nl == 0) return NULL;
    const bool any = pl == 1 && pat[0] == '*';
    if (any ? memchr(n, '[', nl) != NULL : (pl != nl || memcmp(pat, n, pl) != 0)) return NULL;
    pat += pl;
    n += nl;
    if (!*pat) return n;
    if (!*n) return NULL;
    pat++;
    n++;
  }
}

/* True when pat matches all of n. */
static bool match_all(const char *pat, const char *n)
{
  const char *rest = match_prefix(pat, n);
  return rest && !*rest;
}

/* n rewritten through the first same_as row that matches a start of it, into out; false
 * when none does (or the result would not fit in cap). */
static bool through_alias(const char *n, char *out, size_t cap)
{
  for (int i = 0; i < PlSchemaTableRows; i++) {
    const PlKeySpec *k = &PlSchemaTable[i];
    if (!k->same_as) continue;
    const char *rest = match_prefix(k->path, n);
    if (!rest) continue;
    return snprintf(out, cap, "%s%s", k->same_as, rest) < (int)cap; /* a path too long for out: none */
  }
  return false;
}

/* The row whose pattern matches all of the normalized path n, or NULL. */
static const PlKeySpec *find_exact(const char *n)
{
  for (int i = 0; i < PlSchemaTableRows; i++)
    if (match_all(PlSchemaTable[i].path, n)) return &PlSchemaTable[i];
  return NULL;
}

static const PlKeySpec *find_uncached(char *n)
{
  char a[SPATH];
  for (int depth = 0; depth < 4; depth++) { /* aliases never chain deeper */
    const PlKeySpec *k = find_exact(n);
    if (k) return k;
    if (!through_alias(n, a, sizeof a)) return NULL;
    memcpy(n, a, SPATH);
  }
  return NULL;
}

/* The answers of PlSchemaFind by normalized path (the table is constant): a load asks for a
 * few hundred paths, many of them again (every default, unit and range), and each scan of the
 * table matches some 200 patterns. Open addressing; a full neighbourhood is just not cached. */
#define CACHE_SLOTS 1024
static struct {
  char path[SPATH];
  const PlKeySpec *row;
  bool used;
} g_cache[CACHE_SLOTS];

static unsigned hash_path(const char *s)
{
  unsigned h = 2166136261u; /* FNV-1a */
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}

const PlKeySpec *PlSchemaFind(const char *path)
{
  if (!path) return NULL;
  char n[SPATH];
  normalize(path, n, sizeof n);
  unsigned h = hash_path(n) & (CACHE_SLOTS - 1);
  int slot = -1;
  for (int probe = 0; probe < 8; probe++, h = (h + 1) & (CACHE_SLOTS - 1)) {
    if (!g_cache[h].used) {
      slot = (int)h;
      break;
    }
    if (!strcmp(g_cache[h].path, n)) return g_cache[h].row;
  }
  char key[SPATH];
  memcpy(key, n, sizeof key);
  const PlKeySpec *k = find_uncached(n);
  if (slot >= 0) {
    memcpy(g_cache[slot].path, key, sizeof key);
    g_cache[slot].row = k;
    g_cache[slot].used = true;
  }
  return k;
}

/* Adds the keys of the rows directly under n (their parent matches all of n) that are not
 * in names yet. */
static int add_children(const char *n, const char **names, int count, int cap)
{
  for (int i = 0; i < PlSchemaTableRows; i++) {
    const char *p = PlSchemaTable[i].path, *dot = strrchr(p, '.');
    const char *key = dot ? dot + 1 : p;
    if (strchr(key, '[') || !strcmp(key, "*")) continue;
    char parent[SPATH] = "";
    if (dot) {
      const size_t pl = (size_t)(dot - p);
      if (pl >= sizeof parent) continue;
      memcpy(parent, p, pl);
      parent[pl] = '\0';
    }
    if (dot ? !match_all(parent, n) : n[0] != '\0') continue;
    bool have = false;
    for (int j = 0; j < count && !have; j++) have = !strcmp(names[j], key);
    if (!have && count + 1 < cap) names[count++] = key;
  }
  names[count] = NULL;
  return count;
}

int PlSchemaChildren(const char *path, const char **names, int cap)
{
  if (cap < 1) return 0;
  names[0] = NULL;
  char n[SPATH], a[SPATH];
  normalize(path ? path : "", n, sizeof n);
  int count = 0;
  /* the keys of a shared mapping first (its order), then those of the path's own rows */
  char chain[4][SPATH];
  int nchain = 0;
  snprintf(chain[nchain++], SPATH, "%s", n);
  while (nchain < 4 && through_alias(chain[nchain - 1], a, sizeof a)) snprintf(chain[nchain++], SPATH, "%s", a);
  for (int c = nchain - 1; c >= 0; c--) count = add_children(chain[c], names, count, cap);
  return count;
}

double PlSchemaDefault(const char *path)
{
  const PlKeySpec *k = PlSchemaFind(path);
  if (!k || k->need != PL_KEY_DEFAULT || isnan(k->def)) {
    fprintf(stderr, "pipelay: internal error: the schema has no numeric default for '%s'\n", path);
    abort();
  }
  return k->def;
}

/* ---- the table as text ------------------------------------------------------------------ */

/* What a value of row k is, in words, into buf. */
static void type_text(const PlKeySpec *k, char *buf, size_t cap)
{
  switch (k->type) {
  case PL_KEY_NUMBER: snprintf(buf, cap, "number"); break;
  case PL_KEY_INTEGER: snprintf(buf, cap, "integer"); break;
  case PL_KEY_STRING: snprintf(buf, cap, "string"); break;
  case PL_KEY_BOOL: snprintf(buf, cap, "true or false"); break;
  case PL_KEY_CHOICE: {
    buf[0] = '\0';
    for (int i = 0; k->choices[i]; i++) {
      const size_t u = strlen(buf);
      snprintf(buf + u, cap - u, "%s%s", i ? (k->choices[i + 1] ? ", " : " or ") : "", k->choices[i]);
    }
    break;
  }
  case PL_KEY_VEC3: snprintf(buf, cap, "list of 3 numbers"); break;
  case PL_KEY_LIST:
    if (k->count > 0) snprintf(buf, cap, "list of %d numbers", k->count);
    else snprintf(buf, cap, "list of numbers");
    break;
  case PL_KEY_MATRIX: snprintf(buf, cap, "%dx%d matrix", k->count, k->count); break;
  case PL_KEY_ROWS: snprintf(buf, cap, "list of rows"); break;
  case PL_KEY_NAMES: snprintf(buf, cap, "list of names"); break;
  case PL_KEY_MAP: snprintf(buf, cap, "mapping"); break;
  case PL_KEY_MAPS: snprintf(buf, cap, "list of mappings"); break;
  }
}

/* The range of row k in words ("> 0", "-360 to 360", ""), into buf. */
static void range_text(const PlKeySpec *k, char *buf, size_t cap)
{
  buf[0] = '\0';
  if (k->type != PL_KEY_NUMBER && k->type != PL_KEY_INTEGER && k->type != PL_KEY_VEC3 &&
      k->type != PL_KEY_LIST)
    return;
  const bool lo = isfinite(k->lo), hi = isfinite(k->hi);
  if (lo && hi && !k->lo_open && !k->hi_open)
    snprintf(buf, cap, "%.10g to %.10g", k->lo, k->hi);
  else if (lo && hi)
    snprintf(buf, cap, "%.10g %s x %s %.10g", k->lo, k->lo_open ? "<" : "<=", k->hi_open ? "<" : "<=", k->hi);
  else if (lo)
    snprintf(buf, cap, "%s %.10g", k->lo_open ? ">" : ">=", k->lo);
  else if (hi)
    snprintf(buf, cap, "%s %.10g", k->hi_open ? "<" : "<=", k->hi);
}

/* The default column of row k: "required", the default, or the rule. */
static const char *need_text(const PlKeySpec *k)
{
  return k->def_text ? k->def_text : k->need == PL_KEY_REQUIRED ? "required" : "";
}

void PlSchemaPrint(FILE *out, int markdown)
{
  char type[160], range[96];
  if (!markdown) {
    fprintf(out, "%-52s %-24s %-20s %-36s %-16s %s\n", "path", "type", "unit", "default", "range",
            "description");
    for (int i = 0; i < PlSchemaTableRows; i++) {
      const PlKeySpec *k = &PlSchemaTable[i];
      type_text(k, type, sizeof type);
      range_text(k, range, sizeof range);
      if (k->same_as) snprintf(type, sizeof type, "mapping: the keys of %s", k->same_as);
      fprintf(out, "%-52s %-24s %-20s %-36s %-16s %s\n", k->path, type, k->unit, need_text(k), range, k->desc);
    }
    return;
  }
  /* one table per mapping: the rows in table order, grouped by their parent path */
  const char *done[PL_SCHEMA_MAX_KEYS * 8];
  int ndone = 0;
  for (int i = 0; i < PlSchemaTableRows; i++) {
    const char *p = PlSchemaTable[i].path, *dot = strrchr(p, '.');
    char parent[SPATH] = "";
    if (dot) snprintf(parent, sizeof parent, "%.*s", (int)(dot - p), p);
    bool seen = false;
    for (int j = 0; j < ndone && !seen; j++) seen = !strcmp(done[j], parent);
    if (seen) continue;
    if (ndone == (int)(sizeof done / sizeof done[0])) break;
    done[ndone++] = strdup(parent); /* freed below */
    if (!done[ndone - 1]) break;
    fprintf(out, "\n### `%s`\n\n| key | type | unit | default | range | description |\n"
                 "| --- | --- | --- | --- | --- | --- |\n",
            parent[0] ? parent : "(top level)");
    for (int r = i; r < PlSchemaTableRows; r++) {
      const PlKeySpec *k = &PlSchemaTable[r];
      const char *d = strrchr(k->path, '.');
      char par[SPATH] = "";
      if (d) snprintf(par, sizeof par, "%.*s", (int)(d - k->path), k->path);
      if (strcmp(par, parent)) continue;
      type_text(k, type, sizeof type);
      range_text(k, range, sizeof range);
      if (k->same_as) snprintf(type, sizeof type, "mapping: the keys of `%s`", k->same_as);
      fprintf(out, "| `%s` | %s | %s | %s | %s | %s |\n", d ? d + 1 : k->path, type, k->unit, need_text(k), range,
              k->desc);
    }
  }
  for (int j = 0; j < ndone; j++) free((void *)done[j]);
}
