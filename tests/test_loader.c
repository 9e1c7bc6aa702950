/*
 * test_loader.c - tests of the YAML model loader (models/loader.c).
 *
 * Usage: test_loader BAD_MODELS_DIR [EXAMPLE_YAML]
 *   BAD_MODELS_DIR  tests/bad_models (every file in it must be rejected with the message
 *                   its first line announces; convention in tests/bad_models/README.md)
 *   EXAMPLE_YAML    examples/jlay_900m.yaml; default BAD_MODELS_DIR/../../examples/...
 * Checks, in order: a valid model read from a string (derived section properties,
 * defaults, explicit sections, orientation), --set overrides, the bad models, limits
 * (node count, size, alias bomb, nesting, long keys) and the annotated example.
 * Exit status 0 when everything passes; otherwise one line per failed check on stderr
 * and status 1.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipelay/models.h"

static const double kPi = 3.14159265358979323846;

/* Number of failed checks (local to main's run; passed by pointer). */
typedef struct {
  int failed;
  int checked;
} Tally;

/* Records one check; prints a line when it fails. */
static void check(Tally *t, int ok, const char *what, const char *detail)
{
  t->checked++;
  if (ok) return;
  t->failed++;
  fprintf(stderr, "FAIL: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
}

/* Checks |got - want| <= rtol |want| (or <= rtol when want == 0). */
static void check_close(Tally *t, double got, double want, double rtol, const char *what)
{
  char d[160];
  snprintf(d, sizeof d, "got %.17g, want %.17g (rtol %g)", got, want, rtol);
  const double scale = want != 0.0 ? fabs(want) : 1.0;
  check(t, fabs(got - want) <= rtol * scale, what, d);
}

/* Loads text; on failure records a check failure with the loader's message. */
static int load(Tally *t, const char *name, const char *text, int nov, const char *const *ov,
                PlModel *m, const char *what)
{
  PlError err;
  int rc = PlModelLoadString(name, text, strlen(text), nov, ov, m, &err);
  check(t, rc == 0, what, rc == 0 ? NULL : err.msg);
  return rc;
}

/* Loads text expecting failure whose message contains needle; also checks that the
 * message is one line. */
static void expect_error(Tally *t, const char *name, const char *text, size_t len, int nov,
                         const char *const *ov, const char *needle, const char *what)
{
  PlModel m;
  PlError err;
  memset(&err, 'x', sizeof err); /* must be overwritten with a terminated string */
  int rc = PlModelLoadString(name, text, len, nov, ov, &m, &err);
  char d[PL_ERRMSG_MAX + 128];
  const int terminated = memchr(err.msg, '\0', sizeof err.msg) != NULL;
  snprintf(d, sizeof d, "rc %d, message '%s', wanted '%s'", rc,
           terminated ? err.msg : "(unterminated)", needle);
  check(t, rc == 2 && terminated && strstr(err.msg, needle) != NULL &&
               strchr(err.msg, '\n') == NULL,
        what, d);
}

/* ---- 1. a valid model ------------------------------------------------------------------ */

static const char kValid[] =
    "# a valid model exercising most keys\n"
    "environment:\n"
    "  water_depth: 900\n"
    "line:\n"
    "  length: 1500\n"
    "  sections:\n"
    "    - length: 200                # pipe form, G given\n"
    "      outer_diameter: 0.762\n"
    "      wall_thickness: 0.033\n"
    "      material: {youngs_modulus: 206e9, shear_modulus: 7.9231e10, density: 7850}\n"
    "    - length: 300                # pipe form, Poisson's ratio, contents\n"
    "      outer_diameter: 0.762\n"
    "      wall_thickness: 0.033\n"
    "      material: {youngs_modulus: 206e9, poissons_ratio: 0.3, density: 7850}\n"
    "      contents_density: 1025\n"
    "      shear_coefficient: 0.6\n"
    "      hydrodynamic_diameter: 0.9\n"
    "    - length: 400                # explicit, EI2/EI3, radius of gyration\n"
    "      outer_diameter: 0.5\n"
    "      EA: 1.0e10\n"
    "      EI2: 2.0e8\n"
    "      EI3: 3.0e8\n"
    "      GJ: 1.5e8\n"
    "      GA: 4.0e9\n"
    "      mass_per_length: 300\n"
    "      radius_of_gyration: 0.2\n"
    "    - outer_diameter: 0.4        # explicit, defaults; length: the rest (600 m)\n"
    "      EA: 5e9\n"
    "      EI: 1e8\n"
    "      GJ: 8e7\n"
    "      mass_per_length: 200\n"
    "mesh:\n"
    "  target_length: 2.5\n"
    "  zones:\n"
    "    - {from: 0, to: 100, target_length: 0.5}\n"
    "    - {from: 1400, to: 1500, target_length: 1}\n"
    "ends:\n"
    "  bottom:\n"
    "    position: [0, 0, -899.71425]\n"
    "    orientation: [90, 90, 0]\n"
    "    fixed: all\n"
    "  top:\n"
    "    position: [~, 0, 0]\n"
    "    fixed: [z, y, rx]\n"
    "    force: [400e3, 0, -900]\n"
    "    moment: [0, 1.5e3, 0]\n";

static void test_valid(Tally *t)
{
  PlModel m;
  if (load(t, "dir/valid_case.yaml", kValid, 0, NULL, &m, "valid model loads")) return;

  /* environment defaults */
  check_close(t, m.water_depth, 900.0, 0.0, "water_depth");
  check_close(t, m.water_density, 1025.0, 0.0, "water_density default");
  check_close(t, m.gravity, 9.80665, 0.0, "gravity default");
  /* names */
  check(t, strcmp(m.name, "valid_case.yaml") == 0, "name defaults to the base name", m.name);
  check(t, strcmp(m.source_path, "dir/valid_case.yaml") == 0, "source_path", m.source_path);
  check(t, strcmp(m.output_dir, "valid_case_out") == 0, "output_dir default", m.output_dir);

  /* sections */
  check(t, m.nsegments == 4, "four sections", NULL);
  check_close(t, m.length, 1500.0, 0.0, "line length");
  check_close(t, m.segments[3].length, 600.0, 1e-15, "last section takes the rest");
  const double d_o = 0.762, d_i = 0.762 - 2 * 0.033, E = 206e9;
  const double A = kPi / 4.0 * (d_o * d_o - d_i * d_i);
  const double I = kPi / 64.0 * (pow(d_o, 4) - pow(d_i, 4));
  const PlSection *s0 = &m.segments[0].section;
  check_close(t, s0->EA, 206e9 * kPi / 4.0 * (0.762 * 0.762 - 0.696 * 0.696), 1e-12,
              "EA of the 30 in pipe");
  check_close(t, s0->EI[0], E * I, 1e-12, "EI2 of the pipe");
  check_close(t, s0->EI[1], E * I, 1e-12, "EI3 of the pipe");
  check_close(t, s0->GJ, 7.9231e10 * 2.0 * I, 1e-12, "GJ of the pipe");
  check_close(t, s0->GA[0], 0.5 * 7.9231e10 * A, 1e-12, "GA default shear coefficient 0.5");
  /* submerged weight inputs: m_P, d_o (rho_w and g above) */
  check_close(t, s0->mass_per_length, 7850.0 * A, 1e-12, "mass per length of the empty pipe");
  check_close(t, s0->mass_per_length, 593.2818, 1e-6, "m_p as in Table 5.2");
  check_close(t, s0->outer_diameter, 0.762, 0.0, "outer diameter");
  check_close(t, s0->hydro_diameter, 0.762, 0.0, "hydrodynamic diameter default");
  check_close(t, s0->wall_thickness, 0.033, 0.0, "wall thickness kept");

  const PlSection *s1 = &m.segments[1].section;
  const double G1 = E / (2.0 * 1.3);
  check_close(t, s1->GJ, G1 * 2.0 * I, 1e-12, "G from Poisson's ratio");
  check_close(t, s1->GA[1], 0.6 * G1 * A, 1e-12, "shear coefficient given");
  check_close(t, s1->mass_per_length, 7850.0 * A + 1025.0 * kPi / 4.0 * d_i * d_i, 1e-12,
              "mass per length with contents");
  check_close(t, s1->hydro_diameter, 0.9, 0.0, "hydrodynamic diameter given");

  const PlSection *s2 = &m.segments[2].section;
  check_close(t, s2->EA, 1e10, 0.0, "explicit EA");
  check_close(t, s2->EI[0], 2e8, 0.0, "explicit EI2");
  check_close(t, s2->EI[1], 3e8, 0.0, "explicit EI3");
  check_close(t, s2->GA[0], 4e9, 0.0, "explicit GA");
  check_close(t, s2->inertia[0], 300.0 * 0.04, 1e-15, "J1 from radius of gyration");
  check_close(t, s2->inertia[1], 150.0 * 0.04, 1e-15, "J2 = J1/2");
  check(t, s2->wall_thickness == 0.0 && s2->steel_area == 0.0, "explicit: no wall", NULL);

  const PlSection *s3 = &m.segments[3].section;
  check_close(t, s3->GA[0], 0.5 * 5e9 / (2.0 * 1.3), 1e-15, "explicit GA default");
  check_close(t, s3->EI[0], 1e8, 0.0, "explicit EI (axis 2)");
  check_close(t, s3->EI[1], 1e8, 0.0, "explicit EI (axis 3)");
  check_close(t, s3->inertia[0], 200.0 * 0.4 * 0.4 / 4.0, 1e-15, "J1 default m d_o^2/4");
  check_close(t, s3->inertia[2], 100.0 * 0.4 * 0.4 / 4.0, 1e-15, "J3 default J1/2");
  check_close(t, s3->hydro_diameter, 0.4, 0.0, "explicit hydrodynamic diameter default");

  check(t, PlModelSectionAt(&m, -1.0) == s0, "SectionAt below 0", NULL);
  check(t, PlModelSectionAt(&m, 199.9) == s0, "SectionAt in the first", NULL);
  check(t, PlModelSectionAt(&m, 200.0) == s1, "SectionAt at a junction: the upper", NULL);
  check(t, PlModelSectionAt(&m, 899.0) == s2, "SectionAt in the third", NULL);
  check(t, PlModelSectionAt(&m, 1500.0) == s3, "SectionAt at L", NULL);
  check(t, PlModelSectionAt(&m, 1e9) == s3, "SectionAt past L", NULL);

  /* seabed, mesh, rotation defaults */
  check(t, m.seabed == PL_SEABED_NONLINEAR, "seabed default nonlinear", NULL);
  check(t, m.rotation == PL_ROT_QUATERNION, "rotation default quaternion", NULL);
  check(t, m.mesh_elements == 0, "mesh by target length", NULL);
  check_close(t, m.mesh_target_length, 2.5, 0.0, "mesh target length");
  check(t, m.nzones == 2, "two zones", NULL);
  check_close(t, m.zones[1].s_from, 1400.0, 0.0, "zone from");
  check_close(t, m.zones[1].s_to, 1500.0, 0.0, "zone to");
  check_close(t, m.zones[0].target_length, 0.5, 0.0, "zone target length");

  /* ends */
  const PlEnd *b = &m.ends[0], *top = &m.ends[1];
  for (int i = 0; i < 6; i++) check(t, b->fixed[i], "bottom fixed all", NULL);
  check(t, b->has_position[0] && b->has_position[1] && b->has_position[2], "bottom position",
        NULL);
  check_close(t, b->position[2], -899.71425, 0.0, "bottom z");
  check(t, b->has_orientation, "bottom orientation given", NULL);
  /* R = R_y(90) R_x(90): rows [0 1 0; 0 0 -1; -1 0 0] */
  const double R[9] = {0, 1, 0, 0, 0, -1, -1, 0, 0};
  for (int i = 0; i < 9; i++) check_close(t, b->orientation[i] + 2.0, R[i] + 2.0, 1e-15, "R_y R_x");
  check(t, !top->fixed[0] && top->fixed[1] && top->fixed[2] && top->fixed[3] &&
               !top->fixed[4] && !top->fixed[5],
        "top fixed [z, y, rx]", NULL);
  check(t, !top->has_position[0] && top->has_position[1] && top->has_position[2],
        "top position x free", NULL);
  check(t, !top->has_orientation && top->orientation[0] == 1.0 && top->orientation[4] == 1.0 &&
               top->orientation[8] == 1.0 && top->orientation[1] == 0.0,
        "top orientation identity", NULL);
  check_close(t, top->force[0], 400e3, 0.0, "top force x");
  check_close(t, top->force[2], -900.0, 0.0, "top force z");
  check_close(t, top->moment[1], 1.5e3, 0.0, "top moment y");
  check_close(t, b->force[0], 0.0, 0.0, "bottom force default");

  /* analysis defaults */
  check(t, m.analysis.kind == PL_ANALYSIS_STATIC, "analysis static", NULL);
  check(t, m.analysis.load_steps == 1, "load_steps default", NULL);
  check(t, m.analysis.max_cutbacks == 10, "max_cutbacks default", NULL);
  check(t, m.analysis.max_iterations == 50, "max_iterations default", NULL);
  check_close(t, m.analysis.rtol, 1e-10, 0.0, "rtol default");
  check_close(t, m.analysis.atol, 0.0, 0.0, "atol default");
  check(t, m.analysis.initial_guess == PL_GUESS_CATENARY, "initial guess default", NULL);
  check(t, m.analysis.petsc_options[0] == '\0', "petsc options default", NULL);

  /* PlModelInitDefaults alone */
  PlModel d;
  PlModelInitDefaults(&d);
  check(t, d.water_depth == 0.0 && d.length == 0.0 && d.nsegments == 0 && d.mesh_elements == 0,
        "InitDefaults leaves required values unset", NULL);
  check(t, d.water_density == 1025.0 && d.gravity == 9.80665 && d.analysis.load_steps == 1,
        "InitDefaults sets defaults", NULL);
}

/* ---- 2. overrides ---------------------------------------------------------------------- */

static void test_overrides(Tally *t)
{
  const char *const ov[] = {
      "line.sections[0].wall_thickness=0.03",
      "ends.top.force=[200e3,0,0]",
      "mesh.elements=100", /* added next to target_length */
  };
  PlModel m;
  /* elements and target_length together are an error even when one comes from --set */
  PlError err;
  int rc = PlModelLoadString("case.yaml", kValid, strlen(kValid), 3, ov, &m, &err);
  check(t, rc == 2 && strstr(err.msg, "mesh.elements: give either 'elements' or "
                                      "'target_length', not both") != NULL,
        "override adds a conflicting key", err.msg);

  const char *const ov2[] = {
      "line.sections[0].wall_thickness=0.03",
      "ends.top.force=[200e3,0,0]",
      "mesh={elements: 100}",
      "analysis.load_steps=4",               /* creates the analysis mapping */
      "seabed.model=linear",                 /* creates the seabed mapping */
      "seabed.stiffness=1.5e5",
      "ends.top.position[0]=12.5",           /* an item of a list of numbers */
      "name='J-lay: quoted'",
      "output.directory=results/run1",
      "rotation=euler_zxy",
      "line.sections[3]={outer_diameter: 0.4, EA: 6e9, EI: 1e8, GJ: 8e7, mass_per_length: 200}",
  };
  if (load(t, "case.yaml", kValid, (int)(sizeof ov2 / sizeof ov2[0]), ov2, &m,
           "model with overrides loads"))
    return;
  const double d_i = 0.762 - 0.06;
  check_close(t, m.segments[0].section.EA, 206e9 * kPi / 4.0 * (0.762 * 0.762 - d_i * d_i),
              1e-12, "wall thickness override");
  check_close(t, m.segments[0].section.wall_thickness, 0.03, 0.0, "wall thickness stored");
  check_close(t, m.ends[1].force[0], 200e3, 0.0, "force override");
  check(t, m.mesh_elements == 100 && m.nzones == 0, "mesh replaced", NULL);
  check(t, m.analysis.load_steps == 4, "created analysis.load_steps", NULL);
  check(t, m.seabed == PL_SEABED_LINEAR, "created seabed.model", NULL);
  check_close(t, m.seabed_stiffness, 1.5e5, 0.0, "seabed stiffness");
  check(t, m.ends[1].has_position[0], "position item set", NULL);
  check_close(t, m.ends[1].position[0], 12.5, 0.0, "position item value");
  check(t, strcmp(m.name, "J-lay: quoted") == 0, "name override", m.name);
  check(t, strcmp(m.output_dir, "results/run1") == 0, "output override", m.output_dir);
  check(t, m.rotation == PL_ROT_EULER_ZXY, "rotation override", NULL);
  check_close(t, m.segments[3].section.EA, 6e9, 0.0, "list item replaced");
  check_close(t, m.segments[3].length, 600.0, 1e-15, "replaced last section takes the rest");

  /* override errors point at --set:1:K */
  const char *const bad1[] = {"mesh.target_length=3", "mesh.target_length=abc"};
  expect_error(t, "case.yaml", kValid, strlen(kValid), 2, bad1,
               "--set:1:2: mesh.target_length: expected a number (m), found 'abc'",
               "override value checked at its index");
  const char *const bad2[] = {"line.sections[0].bogus=1"};
  expect_error(t, "case.yaml", kValid, strlen(kValid), 1, bad2,
               "--set:1:1: line.sections[0].bogus: unknown key 'bogus' (expected one of: "
               "length, outer_diameter,",
               "override unknown nested key");
  const char *const bad3[] = {"line.length.x=1"};
  expect_error(t, "case.yaml", kValid, strlen(kValid), 1, bad3,
               "--set:1:1: line.length.x: unknown key 'x'", "override under a value");
  const char *const bad4[] = {"line..length=1"};
  expect_error(t, "case.yaml", kValid, strlen(kValid), 1, bad4,
               "--set:1:1: line..length: malformed key path", "malformed override path");
  const char *const bad5[] = {"ends.top.position[7]=1"};
  expect_error(t, "case.yaml", kValid, strlen(kValid), 1, bad5,
               "--set:1:1: ends.top.position[7]: item [7] does not exist (the list has 3 items)",
               "override index out of range");
  const char *const bad6[] = {"line.sections.length=1"};
  expect_error(t, "case.yaml", kValid, strlen(kValid), 1, bad6,
               "--set:1:1: line.sections.length: unknown key 'length' (a list needs an index",
               "override key on a list");
  const char *const anchored[] = {"ends.top.force=&a [1, 2, 3]"};
  if (!load(t, "case.yaml", kValid, 1, anchored, &m, "an anchor without alias is harmless"))
    check_close(t, m.ends[1].force[2], 3.0, 0.0, "anchored override value");
  const char *const bad8[] = {"ends.top.force=[*a, 2, 3]"};
  expect_error(t, "case.yaml", kValid, strlen(kValid), 1, bad8,
               "--set:1:1: ends.top.force: invalid value: YAML aliases are not supported",
               "alias in an override value");
  const char *const bad9[] = {"mesh.target_length="};
  expect_error(t, "case.yaml", kValid, strlen(kValid), 1, bad9,
               "--set:1:1: mesh.target_length: expected a number (m), found null",
               "empty override value");
  const char *const bad10[] = {NULL};
  expect_error(t, "case.yaml", kValid, strlen(kValid), 1, bad10, "--set:1:1: (override):",
               "NULL override");
}

/* ---- 3. the bad models ----------------------------------------------------------------- */

/* Files that cannot carry an "# expect:" line. */
static const struct {
  const char *file;
  const char *expect;
} kNoComment[] = {
    {"empty.yaml", "1:1: (document): the file is empty"},
    {"garbage.bin", "1:1: (syntax): control characters are not allowed"},
};

/* Checks msg against expectation E = "L:C: key: text" (see tests/bad_models/README.md):
 * msg must start with prefix + E up to its second ": " and contain the rest after that.
 * prefix is "PATH:" unless E starts with "--set:". Returns 1 when it matches. */
static int matches(const char *msg, const char *path, const char *e)
{
  const char *first = strstr(e, ": ");
  const char *second = first ? strstr(first + 2, ": ") : NULL;
  if (!second) return 0;
  const size_t head = (size_t)(second + 2 - e);
  size_t plen = 0;
  if (strncmp(e, "--set:", 6) != 0) {
    plen = strlen(path) + 1;
    if (strncmp(msg, path, plen - 1) != 0 || msg[plen - 1] != ':') return 0;
  }
  if (strncmp(msg + plen, e, head) != 0) return 0;
  return strstr(msg + plen + head, second + 2) != NULL;
}

/* Copies src into dst (capacity cap), cut to fit. */
static void copy_str(char *dst, size_t cap, const char *src)
{
  size_t n = strlen(src);
  if (n >= cap) n = cap - 1;
  memcpy(dst, src, n);
  dst[n] = '\0';
}

/* Reads the first lines of a file: the "# expect: " text and "# set: " overrides. Returns
 * 0, or -1 when the file has no expectation. */
static int read_header(const char *path, char *expect, size_t cap, char sets[][512], int *nsets)
{
  FILE *f = fopen(path, "rb");
  *nsets = 0;
  if (!f) return -1;
  char line[2048];
  int rc = -1;
  if (fgets(line, sizeof line, f) && strncmp(line, "# expect: ", 10) == 0) {
    line[strcspn(line, "\r\n")] = '\0';
    copy_str(expect, cap, line + 10);
    rc = 0;
    while (*nsets < 8 && fgets(line, sizeof line, f) && strncmp(line, "# set: ", 7) == 0) {
      line[strcspn(line, "\r\n")] = '\0';
      copy_str(sets[*nsets], 512, line + 7);
      (*nsets)++;
    }
  }
  fclose(f);
  return rc;
}

/* qsort comparator for file names. */
static int cmp_names(const void *a, const void *b)
{
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void test_bad_models(Tally *t, const char *dir)
{
  DIR *d = opendir(dir);
  if (!d) {
    check(t, 0, "open the bad models directory", dir);
    return;
  }
  char *names[512];
  int n = 0;
  struct dirent *de;
  while ((de = readdir(d)) != NULL && n < 512) {
    if (de->d_name[0] == '.' || strcmp(de->d_name, "README.md") == 0) continue;
    names[n] = malloc(strlen(de->d_name) + 1);
    if (!names[n]) break;
    strcpy(names[n], de->d_name);
    n++;
  }
  closedir(d);
  qsort(names, (size_t)n, sizeof names[0], cmp_names);
  int table_seen = 0;
  for (int i = 0; i < n; i++) {
    char path[1024], expect[1024], sets[8][512];
    const char *ovp[8];
    int nsets = 0;
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    const char *e = NULL;
    for (size_t k = 0; k < sizeof kNoComment / sizeof kNoComment[0]; k++)
      if (strcmp(names[i], kNoComment[k].file) == 0) e = kNoComment[k].expect;
    if (e) {
      table_seen++;
    } else if (read_header(path, expect, sizeof expect, sets, &nsets) == 0) {
      e = expect;
    } else {
      check(t, 0, "bad model has an '# expect: ' first line", path);
      continue;
    }
    for (int k = 0; k < nsets; k++) ovp[k] = sets[k];
    PlModel m;
    PlError err;
    const int rc = PlModelLoad(path, nsets, ovp, &m, &err);
    char detail[3 * 1024 + 64];
    snprintf(detail, sizeof detail, "%s: rc %d, message '%s', expected '%s'", names[i], rc,
             rc ? err.msg : "", e);
    check(t, rc == 2 && matches(err.msg, path, e) && strchr(err.msg, '\n') == NULL,
          "bad model rejected with the expected message", detail);
  }
  for (int i = 0; i < n; i++) free(names[i]);
  char cnt[64];
  snprintf(cnt, sizeof cnt, "%d files", n);
  check(t, n >= 15, "at least 15 bad models", cnt);
  check(t, table_seen == (int)(sizeof kNoComment / sizeof kNoComment[0]),
        "empty.yaml and garbage.bin present", NULL);
}

/* ---- 4. limits and hostile input ------------------------------------------------------- */

static void test_limits(Tally *t)
{
  /* more than 100000 nodes (each item of a flow list is one) */
  const size_t items = 100005;
  char *big = malloc(16 + 2 * items + 8);
  if (big) {
    size_t p = (size_t)sprintf(big, "name: [");
    for (size_t i = 0; i < items; i++) {
      big[p++] = '0';
      big[p++] = ',';
    }
    big[p - 1] = ']';
    big[p] = '\0';
    expect_error(t, "nodes.yaml", big, p, 0, NULL, "too many YAML nodes (more than 100000)",
                 "node limit");
    free(big);
  }
  /* larger than 16 MiB */
  const size_t huge = 16u * 1024u * 1024u + 1u;
  char *h = malloc(huge);
  if (h) {
    memset(h, ' ', huge);
    expect_error(t, "huge.yaml", h, huge, 0, NULL,
                 "huge.yaml:1:1: (document): the file is larger than 16 MiB", "size limit");
    free(h);
  }
  /* billion laughs: refused at the first alias */
  const char lol[] = "a: &a [x, x, x, x, x, x, x, x, x]\n"
                     "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                     "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
                     "d: [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n";
  expect_error(t, "lol.yaml", lol, strlen(lol), 0, NULL,
               "lol.yaml:2:8: b[0]: YAML aliases are not supported (found '*a')", "alias bomb");
  /* deep block mappings */
  char deep[8192];
  size_t p = 0;
  for (int i = 0; i < 100; i++) {
    for (int s = 0; s < i; s++) deep[p++] = ' ';
    memcpy(deep + p, "a:\n", 3);
    p += 3;
  }
  deep[p] = '\0';
  expect_error(t, "deep.yaml", deep, p, 0, NULL, ": nesting deeper than 64 levels",
               "nested mappings");
  /* an embedded NUL is a control character */
  const char nul[] = "name: a\0b\n";
  expect_error(t, "nul.yaml", nul, sizeof nul - 1, 0, NULL,
               "nul.yaml:1:8: (syntax): control characters are not allowed", "NUL byte");
  /* a NUL produced by an escape ends up in a string: refused, message stays one line */
  const char esc[] = "name: \"a\\0b\\nc\"\n";
  expect_error(t, "esc.yaml", esc, strlen(esc), 0, NULL,
               "esc.yaml:1:7: name: must be one line of text without control characters",
               "escaped control characters");
  /* a key longer than libyaml's 1024-character limit for simple keys */
  const size_t klen = 100000;
  char *lk = malloc(klen + 16);
  if (lk) {
    memset(lk, 'k', klen);
    memcpy(lk + klen, ": 1\n", 5);
    expect_error(t, "long.yaml", lk, klen + 4, 0, NULL,
                 "long.yaml:1:100001: (syntax): mapping values are not allowed", "huge key");
    /* a long unknown key: the message is cut safely */
    memcpy(lk + 1000, ": 1\n", 5);
    expect_error(t, "long.yaml", lk, 1004, 0, NULL, "long.yaml:1:1: kkkk", "long key");
    free(lk);
  }
  /* a key with a newline (quoted) does not break the one-line message */
  const char nl[] = "\"bad\\nkey\": 1\n";
  expect_error(t, "nl.yaml", nl, strlen(nl), 0, NULL, "nl.yaml:1:1: bad?key: unknown key 'bad?key'",
               "newline in a key");
  /* API misuse does not crash */
  PlError err;
  PlModel m;
  check(t, PlModelLoadString("x.yaml", NULL, 0, 0, NULL, &m, &err) == 2 &&
               strcmp(err.msg, "x.yaml:1:1: (document): the file is empty") == 0,
        "NULL text of length 0 is empty", err.msg);
  check(t, PlModelLoadString("x.yaml", "a: 1", 4, 0, NULL, NULL, &err) == 2, "NULL model",
        err.msg);
  check(t, PlModelLoadString("x.yaml", "a: 1", 4, 0, NULL, &m, NULL) == 2, "NULL error", NULL);
  check(t, PlModelLoad(NULL, 0, NULL, &m, &err) == 2, "NULL path", err.msg);
  check(t, PlModelLoad("/nonexistent/dir/model.yaml", 0, NULL, &m, &err) == 2 &&
               strcmp(err.msg,
                      "/nonexistent/dir/model.yaml:0:0: (file): cannot read: No such file or "
                      "directory") == 0,
        "unreadable file", err.msg);
  check(t, PlModelSectionAt(NULL, 0.0) == NULL, "SectionAt(NULL)", NULL);
}

/* ---- 5. the annotated example ---------------------------------------------------------- */

static void test_example(Tally *t, const char *path)
{
  PlModel m;
  PlError err;
  int rc = PlModelLoad(path, 0, NULL, &m, &err);
  check(t, rc == 0, "examples/jlay_900m.yaml loads", rc ? err.msg : NULL);
  if (rc) return;
  const PlSection *s = &m.segments[0].section;
  /* Table 5.2 of the thesis (4-5 significant digits) */
  check_close(t, s->mass_per_length, 593.2818, 1e-6, "Table 5.2 m_p");
  check_close(t, s->EA, 1.5569e10, 1e-4, "Table 5.2 EA");
  check_close(t, s->EI[0], 1.0364e9, 1e-4, "Table 5.2 EI");
  check_close(t, s->GJ, 7.9720e8, 1e-4, "Table 5.2 GJ");
  check_close(t, s->inertia[0], 78.9851, 1e-5, "Table 5.2 I_1");
  check_close(t, s->inertia[1], 39.4925, 1e-5, "Table 5.2 I_2");
  check_close(t, m.water_depth, 900.0, 0.0, "example depth");
  check_close(t, m.length, 1500.0, 0.0, "example length");
  check(t, m.mesh_elements == 739, "example 739 elements", NULL);
  check_close(t, m.ends[0].position[2], -900.0 + 3.0 * 0.762 / 8.0, 1e-12,
              "bottom at d_o/8 penetration");
  check(t, m.ends[1].fixed[1] && m.ends[1].fixed[2] && !m.ends[1].fixed[0], "top holds y, z",
        NULL);
  check_close(t, m.ends[1].force[0], 400e3, 0.0, "lay tension 400 kN");
  check(t, strcmp(m.output_dir, "jlay_900m_out") == 0, "example output dir", m.output_dir);
  check(t, m.seabed == PL_SEABED_NONLINEAR && m.rotation == PL_ROT_QUATERNION &&
               m.analysis.initial_guess == PL_GUESS_CATENARY,
        "example seabed, rotation, guess", NULL);
}

int main(int argc, char **argv)
{
  if (argc < 2) {
    fprintf(stderr, "usage: %s BAD_MODELS_DIR [EXAMPLE_YAML]\n", argv[0]);
    return 2;
  }
  Tally t = {0, 0};
  char example[1024];
  if (argc > 2)
    copy_str(example, sizeof example, argv[2]);
  else
    snprintf(example, sizeof example, "%s/../../examples/jlay_900m.yaml", argv[1]);
  test_valid(&t);
  test_overrides(&t);
  test_bad_models(&t, argv[1]);
  test_limits(&t);
  test_example(&t, example);
  if (t.failed) {
    fprintf(stderr, "test_loader: %d of %d checks failed\n", t.failed, t.checked);
    return 1;
  }
  printf("test_loader: all %d checks passed\n", t.checked);
  return 0;
}
