/*
 * loader_override.c - the --set overrides: "key.path=value" parsed as YAML and grafted onto
 * the tree, walked against the schema table (an unknown key names the allowed ones and the
 * nearest; the value's type is checked at the override), nodes placed at "--set:1:K".
 */
#include "loader_impl.h"

/* ---- overrides ------------------------------------------------------------------------ */

/* Splits "a.b[0].c" into steps. Returns the number of steps, or -1 if malformed. */
int ld_split_path(const char *p, size_t len, Step *steps)
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
    ld_cat(buf, cap, n ? " or '" : "; did you mean '");
    ld_cat(buf, cap, names[i]);
    ld_cat(buf, cap, "'");
    n++;
  }
  ld_cat(buf, cap, "?");
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
    return ld_parse_number(err, val, path, PlSchemaUnit(k), &v);
  }
  case PL_KEY_INTEGER: {
    bool ok = val->kind == PL_YNODE_SCALAR && val->plain && strlen(val->text) == val->len;
    for (size_t i = (ok && (val->text[0] == '+' || val->text[0] == '-')); ok && i < val->len; i++)
      ok = isdigit((unsigned char)val->text[i]) != 0;
    return ok ? 0 : ld_at(err, val, path, "expected an integer, found %s", ld_found(val).s);
  }
  case PL_KEY_CHOICE:
  case PL_KEY_BOOL: {
    if (val->kind == PL_YNODE_SCALAR && strlen(val->text) == val->len &&
        ld_name_index(k->choices, val->text) >= 0)
      return 0;
    char expect[256];
    ld_list_names(expect, sizeof expect, k->choices);
    return ld_at(err, val, path, "expected one of: %s; found %s", expect, ld_found(val).s);
  }
  case PL_KEY_MAP:
    return val->kind == PL_YNODE_MAP ? 0 : ld_at(err, val, path, "expected a mapping, found %s", ld_found(val).s);
  case PL_KEY_VEC3:
  case PL_KEY_LIST:
  case PL_KEY_MATRIX:
  case PL_KEY_ROWS:
  case PL_KEY_MAPS:
    return val->kind == PL_YNODE_SEQ ? 0 : ld_at(err, val, path, "expected a list, found %s", ld_found(val).s);
  case PL_KEY_STRING:
  case PL_KEY_NAMES:
    break;
  }
  return 0;
}

/* Applies override number k (1-based) "key.path=value" to the tree. Returns 0 or 2. */
int ld_apply_override(PlError *err, PlYTree *tree, PlYNode *root, int k, const char *arg)
{
  static const char kSrc[] = "--set";
  if (!arg) return ld_report(err, kSrc, 1, k, "(override)", "missing argument (NULL)");
  const char *eq = strchr(arg, '=');
  if (!eq) {
    Txt a = ld_clip_n(arg, strlen(arg), 100);
    if (path_like(arg, strlen(arg)))
      return ld_report(err, kSrc, 1, k, a.s, "missing '=' (expected key.path=value)");
    return ld_report(err, kSrc, 1, k, "(override)", "missing '=' in '%s' (expected key.path=value)",
                  a.s);
  }
  const size_t plen = (size_t)(eq - arg);
  Txt shown = ld_clip_n(arg, plen, 100);
  const char *path = shown.s;
  Step steps[MAX_STEPS];
  const int nsteps = ld_split_path(arg, plen, steps);
  if (nsteps < 0 && path_like(arg, plen))
    return ld_report(err, kSrc, 1, k, path,
                  "malformed key path (expected names and list indices, like "
                  "line.sections[0].wall_thickness)");
  if (nsteps < 0)
    return ld_report(err, kSrc, 1, k, "(override)",
                  "malformed key path '%s' (expected names and list indices, like "
                  "line.sections[0].wall_thickness)",
                  path);
  const char *value = eq + 1;
  const size_t vlen = strlen(value);
  if (vlen > PL_YAML_MAX_BYTES)
    return ld_report(err, kSrc, 1, k, path, "value larger than 16 MiB");

  /* the value, as YAML */
  PlYNode *val = NULL;
  PlYError ye;
  if (PlYParse(tree, kSrc, value, vlen, &val, &ye) != 0)
    return ld_report(err, kSrc, 1, k, path, "invalid value: %s", ye.what);
  if (!val) {
    val = PlYNewNode(tree, PL_YNODE_SCALAR, kSrc, 1, k); /* empty: null */
    if (!val) return ld_report(err, kSrc, 1, k, path, "too many YAML nodes or out of memory");
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
        return ld_report(err, kSrc, 1, k, path, "item [%zu]: the value there is %s, not a list",
                      st->index, ld_found(cur).s);
      if (st->index >= cur->nitems)
        return ld_report(err, kSrc, 1, k, path, "item [%zu] does not exist (the list has %zu item%s)",
                      st->index, cur->nitems, cur->nitems == 1 ? "" : "s");
      if (last) {
        cur->items[st->index] = val;
        return 0;
      }
      cur = cur->items[st->index];
      char next[PATH_CAP];
      ld_join_index(next, sizeof next, here, st->index);
      memcpy(here, next, sizeof here);
      continue;
    }
    const char *keys[PL_SCHEMA_MAX_KEYS];
    if (PlSchemaChildren(here, keys, PL_SCHEMA_MAX_KEYS) == 0) {
      const PlKeySpec *hs = PlSchemaFind(here);
      if (hs && hs->type == PL_KEY_MAPS)
        return ld_report(err, kSrc, 1, k, path, "unknown key '%s' (a list needs an index [i] first)",
                      st->key);
      return ld_report(err, kSrc, 1, k, path, "unknown key '%s' (the value before it has no keys)",
                    st->key);
    }
    if (ld_name_index(keys, st->key) < 0) {
      char expect[512], near[160];
      ld_list_names(expect, sizeof expect, keys);
      nearest_names(keys, st->key, near, sizeof near);
      return ld_report(err, kSrc, 1, k, path, "unknown key '%s' (expected one of: %s)%s", st->key,
                    expect, near);
    }
    if (cur->kind != PL_YNODE_MAP)
      return ld_report(err, kSrc, 1, k, path,
                    "cannot set '%s': the value above it is %s, not a mapping", st->key,
                    ld_found(cur).s);
    char child[PATH_CAP];
    ld_join_key(child, sizeof child, here, st->key);
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
      if (!text) return ld_report(err, kSrc, 1, k, path, "too many YAML nodes or out of memory");
      strcpy(text, st->key);
      free(key->text);
      key->text = text;
      key->len = strlen(text);
      if (PlYMapAppend(cur, key, val)) return ld_report(err, kSrc, 1, k, path, "out of memory");
      return 0;
    }
    if (!p) {
      const char *sub[PL_SCHEMA_MAX_KEYS];
      if (steps[i + 1].is_index)
        return ld_report(err, kSrc, 1, k, path,
                      "'%s' is not in the model, so it has no item [%zu]", st->key,
                      steps[i + 1].index);
      if (cs && cs->type == PL_KEY_MAPS)
        return ld_report(err, kSrc, 1, k, path, "'%s' is a list: give an index, like %s[0]",
                      st->key, st->key);
      if (PlSchemaChildren(child, sub, PL_SCHEMA_MAX_KEYS) == 0)
        return ld_report(err, kSrc, 1, k, path, "unknown key '%s' ('%s' has no keys)",
                      steps[i + 1].key, st->key);
      PlYNode *key = PlYNewNode(tree, PL_YNODE_SCALAR, kSrc, 1, k);
      PlYNode *map = PlYNewNode(tree, PL_YNODE_MAP, kSrc, 1, k);
      char *text = (key && map) ? malloc(strlen(st->key) + 1) : NULL;
      if (!text) return ld_report(err, kSrc, 1, k, path, "too many YAML nodes or out of memory");
      strcpy(text, st->key);
      free(key->text);
      key->text = text;
      key->len = strlen(text);
      if (PlYMapAppend(cur, key, map)) return ld_report(err, kSrc, 1, k, path, "out of memory");
      cur = map;
    } else {
      cur = p->value;
    }
    memcpy(here, child, sizeof here);
  }
  return 0; /* not reached: the last step returns */
}
