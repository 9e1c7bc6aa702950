/*
 * yaml_tree.c - builds a bounded YAML tree (yaml_tree.h) from libyaml's event stream.
 *
 * The event API is used rather than libyaml's document loader so that aliases are
 * refused before anything is expanded (no billion-laughs blow-up), nesting is capped as
 * it is met, and each node keeps its own line and column. The builder keeps an explicit
 * stack of open containers (no recursion over the input).
 */
#include "yaml_tree.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

void PlYTreeInit(PlYTree *t)
{
  t->all = NULL;
  t->nall = 0;
  t->all_cap = 0;
}

void PlYTreeFree(PlYTree *t)
{
  for (size_t i = 0; i < t->nall; i++) {
    PlYNode *n = t->all[i];
    free(n->text);
    free(n->items);
    free(n->pairs);
    free(n);
  }
  free(t->all);
  PlYTreeInit(t);
}

PlYNode *PlYNewNode(PlYTree *t, PlYNodeKind kind, const char *source, int line, int col)
{
  if (t->nall >= PL_YAML_MAX_NODES) return NULL;
  if (t->nall == t->all_cap) {
    size_t cap = t->all_cap ? 2 * t->all_cap : 64;
    PlYNode **all = realloc(t->all, cap * sizeof *all);
    if (!all) return NULL;
    t->all = all;
    t->all_cap = cap;
  }
  PlYNode *n = calloc(1, sizeof *n);
  if (!n) return NULL;
  if (kind == PL_YNODE_SCALAR) {
    n->text = calloc(1, 1);
    if (!n->text) {
      free(n);
      return NULL;
    }
  }
  n->kind = kind;
  n->source = source;
  n->line = line;
  n->col = col;
  n->plain = true;
  t->all[t->nall++] = n;
  return n;
}

int PlYMapAppend(PlYNode *map, PlYNode *key, PlYNode *value)
{
  if (map->npairs == map->pairs_cap) {
    size_t cap = map->pairs_cap ? 2 * map->pairs_cap : 8;
    PlYPair *p = realloc(map->pairs, cap * sizeof *p);
    if (!p) return -1;
    map->pairs = p;
    map->pairs_cap = cap;
  }
  map->pairs[map->npairs].key = key;
  map->pairs[map->npairs].value = value;
  map->npairs++;
  return 0;
}

/* Appends item to sequence seq. Returns 0, or -1 when out of memory. */
static int seq_append(PlYNode *seq, PlYNode *item)
{
  if (seq->nitems == seq->items_cap) {
    size_t cap = seq->items_cap ? 2 * seq->items_cap : 8;
    PlYNode **p = realloc(seq->items, cap * sizeof *p);
    if (!p) return -1;
    seq->items = p;
    seq->items_cap = cap;
  }
  seq->items[seq->nitems++] = item;
  return 0;
}

PlYPair *PlYMapFind(const PlYNode *map, const char *name)
{
  if (!map || map->kind != PL_YNODE_MAP) return NULL;
  size_t len = strlen(name);
  for (size_t i = 0; i < map->npairs; i++) {
    const PlYNode *k = map->pairs[i].key;
    if (k->kind == PL_YNODE_SCALAR && k->len == len && memcmp(k->text, name, len) == 0)
      return &map->pairs[i];
  }
  return NULL;
}

bool PlYIsNull(const PlYNode *n)
{
  if (!n || n->kind != PL_YNODE_SCALAR || !n->plain) return false;
  return n->len == 0 || strcmp(n->text, "~") == 0 || strcmp(n->text, "null") == 0 ||
         strcmp(n->text, "Null") == 0 || strcmp(n->text, "NULL") == 0;
}

void PlYSetPlace(PlYNode *n, const char *source, int line, int col)
{
  n->source = source;
  n->line = line;
  n->col = col;
  for (size_t i = 0; i < n->nitems; i++) PlYSetPlace(n->items[i], source, line, col);
  for (size_t i = 0; i < n->npairs; i++) {
    PlYSetPlace(n->pairs[i].key, source, line, col);
    PlYSetPlace(n->pairs[i].value, source, line, col);
  }
}

/* ---- the builder ---------------------------------------------------------------------- */

/* One open container: the node and, for a mapping, the key waiting for its value. */
typedef struct {
  PlYNode *node;
  PlYNode *pending_key;
} Frame;

typedef struct {
  PlYTree *tree;
  const char *source;
  Frame stack[PL_YAML_MAX_DEPTH];
  int depth;
  PlYNode *root;
  int ndocs;
  PlYError *e;
} Builder;

/* Appends s to buf (capacity cap, NUL-terminated), truncating safely. */
static void append(char *buf, size_t cap, const char *s, size_t slen)
{
  size_t used = strlen(buf);
  if (used + 1 >= cap) return;
  size_t room = cap - 1 - used;
  if (slen > room) slen = room;
  memcpy(buf + used, s, slen);
  buf[used + slen] = '\0';
}

/* The dotted key path of the place where the next event lands, into buf. */
static void current_path(const Builder *b, char *buf, size_t cap)
{
  buf[0] = '\0';
  for (int i = 0; i < b->depth; i++) {
    const PlYNode *c = b->stack[i].node;
    const bool innermost = (i == b->depth - 1);
    if (c->kind == PL_YNODE_MAP) {
      const PlYNode *k = NULL;
      if (innermost)
        k = b->stack[i].pending_key;
      else if (c->npairs > 0)
        k = c->pairs[c->npairs - 1].key;
      if (!k) continue; /* the event is itself a key: the map's own path */
      if (buf[0]) append(buf, cap, ".", 1);
      /* a key longer than 64 bytes is shown cut, to keep messages one short line */
      append(buf, cap, k->text, k->len > 64 ? 64 : strlen(k->text));
    } else {
      char idx[32];
      size_t n = innermost ? c->nitems : (c->nitems ? c->nitems - 1 : 0);
      snprintf(idx, sizeof idx, "[%zu]", n);
      append(buf, cap, idx, strlen(idx));
    }
  }
}

/* A libyaml 0-based line or column as a 1-based int (saturated). */
static int one_based(size_t v)
{
  return v >= (size_t)INT32_MAX ? INT32_MAX : (int)(v + 1);
}

/* Records an error at a libyaml mark (0-based) for the current place; returns -1. */
static int fail(Builder *b, yaml_mark_t mark, const char *fmt, ...)
{
  b->e->line = one_based(mark.line);
  b->e->col = one_based(mark.column);
  current_path(b, b->e->path, sizeof b->e->path);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(b->e->what, sizeof b->e->what, fmt, ap);
  va_end(ap);
  return -1;
}

/* Attaches a new node to the innermost open container (or makes it the root). */
static int attach(Builder *b, PlYNode *n, yaml_mark_t mark)
{
  if (b->depth == 0) {
    b->root = n;
    return 0;
  }
  Frame *f = &b->stack[b->depth - 1];
  if (f->node->kind == PL_YNODE_SEQ) {
    if (seq_append(f->node, n)) return fail(b, mark, "out of memory");
    return 0;
  }
  if (!f->pending_key) {
    if (n->kind != PL_YNODE_SCALAR)
      return fail(b, mark, "a mapping key must be a plain name, found a %s",
                  n->kind == PL_YNODE_MAP ? "mapping" : "list");
    f->pending_key = n;
    return 0;
  }
  if (PlYMapAppend(f->node, f->pending_key, n)) return fail(b, mark, "out of memory");
  f->pending_key = NULL;
  return 0;
}

/* Common checks of a node-starting event: tag and node budget. */
static PlYNode *start_node(Builder *b, PlYNodeKind kind, const yaml_char_t *tag,
                           yaml_mark_t mark)
{
  if (tag) {
    fail(b, mark, "YAML tags are not supported (found '%.40s')", (const char *)tag);
    return NULL;
  }
  PlYNode *n = PlYNewNode(b->tree, kind, b->source, one_based(mark.line),
                          one_based(mark.column));
  if (!n) {
    if (b->tree->nall >= PL_YAML_MAX_NODES)
      fail(b, mark, "too many YAML nodes (more than %d)", PL_YAML_MAX_NODES);
    else
      fail(b, mark, "out of memory");
  }
  return n;
}

/* Handles one event. Returns 1 at the end of the stream, 0 to go on, -1 on error. */
static int on_event(Builder *b, const yaml_event_t *ev)
{
  switch (ev->type) {
  case YAML_STREAM_START_EVENT:
  case YAML_NO_EVENT:
    return 0;
  case YAML_STREAM_END_EVENT:
    return 1;
  case YAML_DOCUMENT_START_EVENT:
    if (++b->ndocs > 1)
      return fail(b, ev->start_mark, "only one YAML document is allowed (found a second '---')");
    return 0;
  case YAML_DOCUMENT_END_EVENT:
    return 0;
  case YAML_ALIAS_EVENT:
    return fail(b, ev->start_mark, "YAML aliases are not supported (found '*%.40s')",
                (const char *)ev->data.alias.anchor);
  case YAML_SCALAR_EVENT: {
    PlYNode *n = start_node(b, PL_YNODE_SCALAR, ev->data.scalar.tag, ev->start_mark);
    if (!n) return -1;
    size_t len = ev->data.scalar.length;
    char *text = malloc(len + 1);
    if (!text) return fail(b, ev->start_mark, "out of memory");
    if (len) memcpy(text, ev->data.scalar.value, len);
    text[len] = '\0';
    free(n->text);
    n->text = text;
    n->len = len;
    n->plain = (ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE);
    return attach(b, n, ev->start_mark);
  }
  case YAML_SEQUENCE_START_EVENT:
  case YAML_MAPPING_START_EVENT: {
    const bool seq = (ev->type == YAML_SEQUENCE_START_EVENT);
    if (b->depth >= PL_YAML_MAX_DEPTH)
      return fail(b, ev->start_mark, "nesting deeper than %d levels", PL_YAML_MAX_DEPTH);
    PlYNode *n = start_node(b, seq ? PL_YNODE_SEQ : PL_YNODE_MAP,
                            seq ? ev->data.sequence_start.tag : ev->data.mapping_start.tag,
                            ev->start_mark);
    if (!n) return -1;
    if (attach(b, n, ev->start_mark)) return -1;
    b->stack[b->depth].node = n;
    b->stack[b->depth].pending_key = NULL;
    b->depth++;
    return 0;
  }
  case YAML_SEQUENCE_END_EVENT:
  case YAML_MAPPING_END_EVENT:
    if (b->depth > 0) b->depth--;
    return 0;
  }
  return 0;
}

/* Line and column (1-based) of byte offset off in text (for reader errors, which carry
 * an offset rather than a mark). */
static void offset_place(const char *text, size_t len, size_t off, int *line, int *col)
{
  long l = 1, c = 1;
  if (off > len) off = len;
  for (size_t i = 0; i < off; i++) {
    if (text[i] == '\n') {
      l++;
      c = 1;
    } else {
      c++;
    }
  }
  *line = l > INT32_MAX ? INT32_MAX : (int)l;
  *col = c > INT32_MAX ? INT32_MAX : (int)c;
}

/* Fills e from a failed libyaml parser. */
static void parser_error(const yaml_parser_t *p, const char *text, size_t len, PlYError *e)
{
  e->path[0] = '\0';
  e->syntax = true;
  const char *problem = p->problem ? p->problem : "unknown error";
  switch (p->error) {
  case YAML_MEMORY_ERROR:
    e->line = e->col = 0;
    snprintf(e->what, sizeof e->what, "out of memory");
    return;
  case YAML_READER_ERROR:
    offset_place(text, len, p->problem_offset, &e->line, &e->col);
    if (p->problem_value >= 0)
      snprintf(e->what, sizeof e->what, "%s (#%02X at byte offset %zu): not a YAML text file",
               problem, (unsigned)p->problem_value, p->problem_offset);
    else
      snprintf(e->what, sizeof e->what, "%s (at offset %zu): not a YAML text file", problem,
               p->problem_offset);
    return;
  default:
    e->line = one_based(p->problem_mark.line);
    e->col = one_based(p->problem_mark.column);
    if (p->context)
      snprintf(e->what, sizeof e->what, "%s %s (started at line %zu, column %zu)", problem,
               p->context, p->context_mark.line + 1, p->context_mark.column + 1);
    else
      snprintf(e->what, sizeof e->what, "%s", problem);
    return;
  }
}

int PlYParse(PlYTree *t, const char *source, const char *text, size_t len, PlYNode **root,
             PlYError *e)
{
  *root = NULL;
  e->line = e->col = 0;
  e->path[0] = '\0';
  e->what[0] = '\0';
  e->syntax = false;
  Builder *b = calloc(1, sizeof *b);
  if (!b) {
    snprintf(e->what, sizeof e->what, "out of memory");
    return -1;
  }
  b->tree = t;
  b->source = source;
  b->e = e;

  yaml_parser_t parser;
  if (!yaml_parser_initialize(&parser)) {
    free(b);
    snprintf(e->what, sizeof e->what, "out of memory");
    return -1;
  }
  yaml_parser_set_input_string(&parser, (const unsigned char *)(text ? text : ""),
                               text ? len : 0);
  int rc = 0;
  for (;;) {
    yaml_event_t ev;
    if (!yaml_parser_parse(&parser, &ev)) {
      parser_error(&parser, text ? text : "", text ? len : 0, e);
      rc = -1;
      break;
    }
    int r = on_event(b, &ev);
    yaml_event_delete(&ev);
    if (r < 0) {
      rc = -1;
      break;
    }
    if (r > 0) break;
  }
  yaml_parser_delete(&parser);
  if (rc == 0) *root = b->root;
  free(b);
  return rc;
}
