/*
 * yaml_tree.h - a small, bounded YAML document tree for the model loader (private to
 * models/; not installed).
 *
 * libyaml's event parser feeds a plain tree of mappings, sequences and scalars, each
 * node carrying the place it came from (source name, 1-based line and column). The
 * builder is iterative and bounded so that hostile input cannot hurt it:
 *   - nesting deeper than PL_YAML_MAX_DEPTH is rejected,
 *   - more than PL_YAML_MAX_NODES nodes in one tree is rejected,
 *   - aliases (*name) and explicit tags (!tag) are rejected (anchors are ignored),
 *   - a mapping key must be a scalar,
 *   - only one document per stream.
 * Input size limits are the caller's business (the loader caps it at 16 MiB).
 * All nodes are owned by a PlYTree and freed together by PlYTreeFree.
 */
#pragma once
#include <stdbool.h>
#include <stddef.h>

#define PL_YAML_MAX_DEPTH 64       /* deepest nesting of mappings/sequences */
#define PL_YAML_MAX_NODES 100000   /* nodes in one tree, all sources together */
#define PL_YAML_MAX_BYTES (16u * 1024u * 1024u) /* largest input the loader accepts */

typedef enum { PL_YNODE_SCALAR = 0, PL_YNODE_MAP = 1, PL_YNODE_SEQ = 2 } PlYNodeKind;

typedef struct PlYNode PlYNode;

/* One key: value entry of a mapping (key is always a scalar node). */
typedef struct {
  PlYNode *key;
  PlYNode *value;
} PlYPair;

struct PlYNode {
  PlYNodeKind kind;
  const char *source;  /* name used in messages (not owned; outlives the tree) */
  int line, col;       /* 1-based place of the node's first character */
  /* scalar */
  char *text;          /* NUL-terminated copy of the value (may contain NULs: see len) */
  size_t len;          /* bytes in text, excluding the terminator */
  bool plain;          /* unquoted (plain style); only plain scalars can be null/numbers */
  /* sequence */
  PlYNode **items;
  size_t nitems, items_cap;
  /* mapping */
  PlYPair *pairs;
  size_t npairs, pairs_cap;
};

/* Owner of every node of one document (plus nodes added later, e.g. by overrides). */
typedef struct {
  PlYNode **all;       /* every node allocated, for freeing */
  size_t nall, all_cap;
} PlYTree;

/* Where and what went wrong while parsing. */
typedef struct {
  int line, col;       /* 1-based; 0:0 when unknown */
  char path[256];      /* dotted key path to the place, "" for the document itself */
  char what[512];      /* the problem, one line */
  bool syntax;         /* a YAML syntax (or encoding) error from libyaml; else a limit */
} PlYError;

/* Empties t (no allocation). */
void PlYTreeInit(PlYTree *t);

/* Frees every node owned by t and empties it. Safe to call twice. */
void PlYTreeFree(PlYTree *t);

/* Parses text[0..len) as one YAML document into t. On success returns 0 and sets *root
 * to the document's root node, or to NULL when the stream holds no document (empty or
 * only comments). On failure returns -1, fills *e and sets *root to NULL (nodes already
 * built stay owned by t). source is stored in every node (not copied). */
int PlYParse(PlYTree *t, const char *source, const char *text, size_t len, PlYNode **root,
             PlYError *e);

/* Allocates a node of the given kind owned by t; scalars get an empty text. Returns NULL
 * when out of memory or past PL_YAML_MAX_NODES. */
PlYNode *PlYNewNode(PlYTree *t, PlYNodeKind kind, const char *source, int line, int col);

/* Appends key: value to a mapping node. Returns 0, or -1 when out of memory. */
int PlYMapAppend(PlYNode *map, PlYNode *key, PlYNode *value);

/* The first pair of mapping map whose scalar key equals name, or NULL (also when map is
 * not a mapping). */
PlYPair *PlYMapFind(const PlYNode *map, const char *name);

/* True for a plain scalar spelling YAML's null: empty, ~, null, Null, NULL. */
bool PlYIsNull(const PlYNode *n);

/* Sets source, line and col of n and of everything below it. */
void PlYSetPlace(PlYNode *n, const char *source, int line, int col);
