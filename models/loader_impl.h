/*
 * loader_impl.h - what the parts of the model loader share (models/loader*.c): the limits of
 * meaningful input, the message and scope types, the loader context and the functions one
 * part calls in another. Private to models/; never included by a public header.
 */
#pragma once

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipelay/models.h"
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
#define PL_CHORD_STRAIN 0.05         /* ends farther apart than L (1 + this): no steel line reaches
                                        (statics refuse |strain| > 5 %) */
#define PL_FAIRLEAD_MIN 1000.0       /* [m] a body point (ends.*.at) may be this far from O_b, */
#define PL_FAIRLEAD_SIZES 10.0       /*   or this many times the body's size if that is more */

/* A short, printable rendering of a piece of user text for messages. */
typedef struct {
  char s[128];
} Txt;

/* DOF names of an end (fixed, motion.dofs), in PL_DOF_* order. */
static const char *const kDofNames[] = {"x", "y", "z", "rx", "ry", "rz", NULL};

/* Section keys of the pipe form and of the explicit form (the rest are common). */
static const char *const kPipeOnlyKeys[] = {"wall_thickness", "material", "contents_density",
                                            "shear_coefficient", NULL};
static const char *const kExplicitOnlyKeys[] = {"EA", "EI", "EI2", "EI3", "GJ", "GA",
                                                "mass_per_length", "rotary_inertia",
                                                "radius_of_gyration", NULL};

/* A mapping being read: its node, where to point when a key is missing, its path. */
typedef struct {
  PlError *err;
  const PlYNode *map;
  const PlYNode *anchor; /* place of "missing required key" (the key naming the map) */
  char path[PATH_CAP];
} Scope;

/* Range of a number: lo/hi bounds, each strict or not; +-INFINITY for none. */
typedef struct {
  double lo, hi;
  bool lo_strict, hi_strict;
} Range;

static const Range kNonNegative = {0.0, INFINITY, false, false};
static const Range kAny = {-INFINITY, INFINITY, false, false};
static const Range kAngle = {-PL_ANGLE_MAX, PL_ANGLE_MAX, false, false};

/* The message of a number that is not meaningful() (for at() and report()). */
#define NOT_MEANINGFUL_FMT                                                                   \
  "must be 0 or between 1e-15 and 1e15 in magnitude (in SI units; other values are not "   \
  "physically meaningful), got %s"

/* How to read a list of numbers: items [0, split) in unit_lo and range r_lo, the others in
 * unit_hi and r_hi (a 6-vector: translations, then rotations; split 0: all alike); desc
 * says the units in "expected a list" messages. */
typedef struct {
  size_t split;
  const char *unit_lo, *unit_hi;
  Range r_lo, r_hi;
  const char *desc;
} ListSpec;

/* Time-series files (see docs/model-file.md, "Time-series file"). */
#define CSV_MAX_BYTES (256u * 1024u * 1024u) /* largest file */
#define CSV_MAX_ROWS 10000000                /* most data rows */
#define CSV_LINE_MAX 4096                    /* longest line [bytes] */
#define CSV_MAX_FIELDS 8                     /* fields kept per line (more are only counted) */

/* The columns of a kind of CSV file: the header names in table order (nfull <= 7; a table
 * row always has nfull values), the field counts a header may have (the first nshort or all
 * nfull names), whether the first column must increase from row to row (a time series) and
 * the headers as messages show them. */
typedef struct {
  const char *names[7];
  int nfull;           /* the full header's field count (a table row's width) */
  int nshort;          /* a shorter header allowed (4: t,x,y,z), or nfull */
  bool increasing;     /* the first column increases strictly (t [s]) */
  const char *shown;   /* "'t,x,y,z' or 't,x,y,z,rx,ry,rz'" */
  const char *short_s; /* the short header without quotes */
  const char *full_s;  /* the full header without quotes */
} CsvFormat;

/* Prescribed motion of an end (ends.*.motion.file): offsets, rotations optional. */
static const CsvFormat kMotionCsv = {{"t", "x", "y", "z", "rx", "ry", "rz"},
                                     7,
                                     4,
                                     true,
                                     "'t,x,y,z' or 't,x,y,z,rx,ry,rz'",
                                     "t,x,y,z",
                                     "t,x,y,z,rx,ry,rz"};
/* Environmental load on the vessel (vessel.environment_load.file): force and moment. */
static const CsvFormat kLoadCsv = {{"t", "Fx", "Fy", "Fz", "Mx", "My", "Mz"},
                                   7,
                                   7,
                                   true,
                                   "'t,Fx,Fy,Fz,Mx,My,Mz'",
                                   "t,Fx,Fy,Fz,Mx,My,Mz",
                                   "t,Fx,Fy,Fz,Mx,My,Mz"};
/* A bathymetry grid (seabed.bathymetry.file): one row per grid point. */
static const CsvFormat kBathymetryCsv = {{"x", "y", "depth", "", "", "", ""}, 3, 3, false, "'x,y,depth'",
                                         "x,y,depth", "x,y,depth"};

/* One step of an override's key path: a key, or a list index. */
typedef struct {
  bool is_index;
  size_t index;
  char key[64];
} Step;

#define MAX_STEPS 16

/* Body-frame DOFs, in the order of nu and tau. */
static const char *const kBodyDofs[] = {"surge", "sway", "heave", "roll", "pitch", "yaw", NULL};

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
  const PlYNode **body_names; /* [bodies read] bodies[*].name value nodes (duplicate messages) */
  const PlModel *graph;       /* a model of lines: its points and bodies (ends.*.point, .body) */
  const PlModel *env;         /* the model whose environment and seabed the ends are placed in
                                 (ends.*.z_reference): the one-line model, or the system */
  int *point_uses;            /* [npoints] ends attached to each point so far */
  int *body_uses;             /* [nbodies] ends attached to each body so far */
} Ctx;

/* loader.c */
/* A section's defaults (its hydrodynamics'), and a body's (the vessel block's, of m's water). */
void ld_segment_defaults(PlSegment *seg);
void ld_body_defaults(const PlModel *m, PlVesselModel *v);
/* n zeroed items of size bytes (calloc), or NULL (n 0, or out of memory). */
void *ld_alloc(size_t n, size_t size);
/* Moves a one-line model's line fields (its arrays with them) into a line of a model of lines;
 * src's line arrays are left NULL. */
void ld_line_take(PlModel *src, PlLineModel *dst);

/* loader_schema.c */
void ld_cat(char *buf, size_t cap, const char *s);
Txt ld_clip_n(const char *s, size_t len, size_t max);
Txt ld_clip(const char *s, size_t len);
Txt ld_found(const PlYNode *n);
Txt ld_got(const PlYNode *n);
int ld_report(PlError *err, const char *src, int line, int col, const char *path,
                  const char *fmt, ...);
int ld_at(PlError *err, const PlYNode *n, const char *path, const char *fmt, ...);
void ld_join_key(char *buf, size_t cap, const char *parent, const char *key);
void ld_join_index(char *buf, size_t cap, const char *parent, size_t i);
int ld_name_index(const char *const *names, const char *name);
void ld_list_names(char *buf, size_t cap, const char *const *names);
int ld_open_scope(PlError *err, const PlYNode *n, const PlYNode *anchor, const char *path,
                      Scope *s);
const PlYPair *ld_later_pair(const PlYPair *a, const PlYPair *b);
const PlYPair *ld_pair_of(const Scope *s, const char *key);
const PlYNode *ld_value_of(const Scope *s, const char *key);
const PlYNode *ld_value_of_node(const PlYNode *map, const char *key);
int ld_missing(const Scope *s, const char *key, const char *unit, const char *note);
int ld_reject_key(const Scope *s, const char *key, const char *fmt, ...);
int ld_open_child_if(const Scope *s, const char *key, bool required, Scope *child,
                         bool *present);
bool ld_nonfinite_word(const char *s);
int ld_parse_number(PlError *err, const PlYNode *n, const char *path, const char *unit,
                        double *out);
bool ld_meaningful(double v);
int ld_check_range(PlError *err, const PlYNode *n, const char *path, const char *unit,
                       Range r, double v);
const PlKeySpec *ld_spec_of(const Scope *s, const char *key);
Range ld_range_of(const PlKeySpec *k);
int ld_get_number_if(const Scope *s, const char *key, bool required, double *out,
                         const PlYNode **where);
int ld_get_number(const Scope *s, const char *key, double *out, const PlYNode **where);
int ld_open_child(const Scope *s, const char *key, Scope *child, bool *present);
int ld_get_int_why(const Scope *s, const char *key, const char *why, int *out);
int ld_get_int(const Scope *s, const char *key, int *out);
int ld_get_string(const Scope *s, const char *key, bool allow_empty, char *buf, size_t cap);
int ld_get_choice(const Scope *s, const char *key, int *out);
int ld_choice_default(const Scope *s, const char *key);
int ld_get_vec3(const Scope *s, const char *key, double out[3], bool has[3],
                    const PlYNode *items[3], bool *present);
ListSpec ld_split_list(const PlKeySpec *k, const char *unit_lo, const char *unit_hi,
                           const char *desc);
int ld_parse_list(PlError *err, const PlYNode *n, const char *path, size_t count,
                      const ListSpec *sp, double *out);
int ld_get_list_spec(const Scope *s, const char *key, size_t count, const ListSpec *sp,
                         double *out, const PlYNode **where);
int ld_get_list(const Scope *s, const char *key, double *out, const PlYNode **where);
int ld_get_matrix(const Scope *s, const char *key, const char *const units[3], double *out,
                      const PlYNode **where);
int ld_check_symmetric(PlError *err, const PlYNode *where, const char *path, size_t n,
                           const double *A);
int ld_dynamic_only(const Ctx *c, const Scope *s, const char *key);

/* loader_timeseries.c */
void ld_resolve_path(const char *model_path, const char *file, char *out, size_t cap);
int ld_read_csv_file(const Ctx *c, const Scope *s, const CsvFormat *fmt, char *name,
                     size_t cap, double **table, int *nrows, int *ncols, int **lines);

/* loader_env.c */
int ld_read_environment(const Scope *top, PlModel *m);
int ld_read_seabed(const Ctx *c, const Scope *top, PlModel *m);
int ld_read_current(const Scope *top, PlModel *m);

/* loader_waves.c: waves: (the sea, validated by building it once) into m->sea. */
int ld_read_waves(const Ctx *c, const Scope *top, PlModel *m);
/* loader.c: frees what a sea owns (its trains with their tables and series, its probes) and
 * leaves it calm. */
void ld_sea_free(PlSea *s);

/* loader_line.c */
const PlYPair *ld_first_of(const Scope *s, const char *const *names);
int ld_read_line(Ctx *c, const Scope *top, PlModel *m);
int ld_read_mesh(Ctx *c, const Scope *top, PlModel *m);

/* loader_ends.c */
void ld_euler_zxy(const double deg[3], double R[9]);
int ld_read_circle(const Scope *s, PlMotion *mo);
int ld_get_load(const Scope *s, const char *key, const char *what, double out[3]);
int ld_read_ends(Ctx *c, const Scope *top, PlModel *m);
/* loader_ends.c: lay: (lay.route, built; route.n stays 0 without it). */
int ld_read_lay(const Ctx *c, const Scope *top, PlModel *m);

/* loader_analysis.c */
int ld_read_analysis(Ctx *c, const Scope *top, PlModel *m);
bool ld_point_name_char(char ch);
int ld_read_output(const Ctx *c, const Scope *top, PlModel *m);
int ld_read_fatigue(const Ctx *c, const Scope *top, PlModel *m);
int ld_read_operability(const Ctx *c, const Scope *top, PlModel *m);

/* loader_bodies.c */
int ld_read_object_name(const Scope *s, const char *what, char *out, size_t cap,
                            const char (*seen)[PL_NAME_MAX], const PlYNode *const *seen_nodes, int nseen,
                            const PlYNode **node);
int ld_read_vessel(Ctx *c, const Scope *top, PlModel *m);
int ld_read_bodies(Ctx *c, const Scope *top, PlModel *m);

/* loader_graph.c */
/* The list of objects under key of top (PATH_CAP path into path): *list NULL when the key is
 * absent; else a sequence, non-empty unless allow_empty, or a message "expected a [non-empty ]list
 * of WHAT". Returns 0 or the message's status. */
int ld_open_list(PlError *err, const Scope *top, const char *key, bool allow_empty, const char *what,
                 const PlYNode **list, char *path);
int ld_read_joints(const Ctx *c, const Scope *top, PlModel *m);
int ld_read_line_system(Ctx *c, const Scope *top, PlModel *m);
/* loader_stinger.c: stinger: of a model of lines: (after the lines). */
int ld_read_stinger(const Scope *top, PlModel *m);

/* loader_design.c */
int ld_read_design(const Scope *top, PlModel *m);

/* loader_override.c */
int ld_split_path(const char *p, size_t len, Step *steps);
int ld_apply_override(PlError *err, PlYTree *tree, PlYNode *root, int k, const char *arg);

/* Frees what a body owns (its environment table, hull strips and DP waypoints) and clears the
 * pointers (loader.c): a body read in part, or PlModelFree's. */
void ld_body_free(PlVesselModel *v);
