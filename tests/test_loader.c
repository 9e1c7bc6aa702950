/*
 * test_loader.c - tests of the YAML model loader (models/loader.c).
 *
 * Usage: test_loader BAD_MODELS_DIR [EXAMPLE_YAML]
 *   BAD_MODELS_DIR  tests/bad_models (every file in it must be rejected with the message
 *                   its first line announces; convention in tests/bad_models/README.md)
 *   EXAMPLE_YAML    examples/jlay_900m.yaml; default BAD_MODELS_DIR/../../examples/...
 * Checks, in order: a valid model read from a string (derived section properties,
 * defaults, explicit sections, orientation), --set overrides, the keys of a dynamic
 * analysis (hydrodynamics, current, motions with their time-series CSV files written to a
 * temporary directory, output points, their defaults, overrides and cross-checks, malformed
 * CSV files, PlModelCopy/PlModelFree), the vessel (every key in its field: M_RB against
 * PlVesselRigidBodyMass, angles in radians, the environmental time series, the DP
 * references, defaults, axes: fossen_ned against PlVesselMatrixFromNED, the top end from
 * PlVesselTopEnd, a few errors), the bad models, limits (node count, size, alias bomb,
 * nesting, long keys) and the annotated example.
 * Exit status 0 when everything passes; otherwise one line per failed check on stderr
 * and status 1.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

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
    "    force: [400e3, 0, 0]\n"
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
  check_close(t, top->force[2], 0.0, 0.0, "top force z");
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
  PlModelFree(&m);
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
  const char *const anchored[] = {"ends.top.force=&a [3, 0, 0]"};
  PlModelFree(&m); /* the model with overrides */
  if (!load(t, "case.yaml", kValid, 1, anchored, &m, "an anchor without alias is harmless"))
    check_close(t, m.ends[1].force[0], 3.0, 0.0, "anchored override value");
  PlModelFree(&m);
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

/* ---- 2b. dynamic analysis: hydrodynamics, current, motions, output points ------------- */

/* A dynamic model using every new key; the top end's time series is "top.csv" next to it. */
static const char kDynamic[] =
    "environment: {water_depth: 900}\n"
    "line:\n"
    "  length: 1500\n"
    "  sections:\n"
    "    - length: 500\n"
    "      outer_diameter: 0.762\n"
    "      wall_thickness: 0.033\n"
    "      material: {youngs_modulus: 206e9, shear_modulus: 7.9231e10, density: 7850}\n"
    "      hydrodynamics:\n"
    "        drag_normal: 1.2\n"
    "        drag_tangential: 0.1\n"
    "        added_mass_normal: 1.0\n"
    "        added_mass_tangential: 0.05\n"
    "        rotational_damping: [10, 20, 30]\n"
    "    - outer_diameter: 0.762                 # hydrodynamics: defaults\n"
    "      wall_thickness: 0.033\n"
    "      material: {youngs_modulus: 206e9, shear_modulus: 7.9231e10, density: 7850}\n"
    "seabed: {model: nonlinear, damping: 5000}\n"
    "current:\n"
    "  profile: table\n"
    "  direction: 30\n"
    "  table: [[-900, 0.1], [-100, 0.5], [0, 0.8]]\n"
    "  start_time: 1\n"
    "  ramp_time: 5\n"
    "mesh: {elements: 100}\n"
    "ends:\n"
    "  bottom:\n"
    "    position: [0, 0, -899.71425]\n"
    "    fixed: all\n"
    "    motion:\n"
    "      type: harmonic\n"
    "      start_time: 2\n"
    "      ramp_time: 3\n"
    "      dofs:\n"
    "        rx: {amplitude: 2, period: 8}\n"
    "        z: {amplitude: -0.5, period: 10, phase: 90}\n"
    "  top:\n"
    "    position: [~, 0, 0]\n"
    "    fixed: [y, z]\n"
    "    force: [400e3, 0, 0]\n"
    "    motion: {type: timeseries, file: top.csv}\n"
    "analysis:\n"
    "  type: dynamic\n"
    "  dynamic:\n"
    "    duration: 60\n"
    "    output_interval: 0.5\n"
    "    rtol: 1.0e-5\n"
    "    atol_position: 2.0e-4\n"
    "    atol_rotation: 3.0e-5\n"
    "    atol_velocity: 4.0e-3\n"
    "    atol_angular_velocity: 6.0e-4\n"
    "    max_step: 0.25\n"
    "    initial_step: 1.0e-3\n"
    "    max_order: 1\n"
    "    max_steps: 5000\n"
    "output:\n"
    "  points:\n"
    "    - {name: touchdown, arc_length: 370}\n"
    "    - {name: Top-End_2, arc_length: 1500}\n"
    "    - {name: '0', arc_length: 0}\n";

/* The time series of kDynamic: comments, blank lines, blanks around fields, CRLF. */
static const char kTopCsv[] = "# top end motion\n"
                              "\n"
                              " t , x,y , z\r\n"
                              "0,0,0,0\n"
                              "  # a comment between rows\n"
                              "0.5, 1.0 ,2,3\r\n"
                              "1,1e-3,-2,.5\n";

/* Writes text to dir/name; returns 0 or -1. */
static int write_file(const char *dir, const char *name, const char *text, size_t len)
{
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  const size_t n = fwrite(text, 1, len, f);
  return (fclose(f) == 0 && n == len) ? 0 : -1;
}

/* Removes dir/name. */
static void remove_file(const char *dir, const char *name)
{
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  remove(path);
}

/* The row-major [nrows][7] time series of a motion equals want[n][7]. */
static void check_table(Tally *t, const PlMotion *mo, int n, const double (*want)[7],
                        const char *what)
{
  check(t, mo->table != NULL && mo->nrows == n, what, "row count");
  if (!mo->table || mo->nrows != n) return;
  int ok = 1;
  for (int r = 0; r < n; r++)
    for (int k = 0; k < 7; k++) ok = ok && mo->table[7 * r + k] == want[r][k];
  check(t, ok, what, "values");
}

/* Values of kDynamic (with its top.csv). */
static void check_dynamic_values(Tally *t, const PlModel *m)
{
  check(t, m->analysis.kind == PL_ANALYSIS_DYNAMIC, "dynamic analysis", NULL);
  const PlHydro *h = &m->segments[0].hydro, *h1 = &m->segments[1].hydro;
  check_close(t, h->drag_normal, 1.2, 0.0, "drag_normal");
  check_close(t, h->drag_tangential, 0.1, 0.0, "drag_tangential");
  check_close(t, h->added_mass_normal, 1.0, 0.0, "added_mass_normal");
  check_close(t, h->added_mass_tangential, 0.05, 0.0, "added_mass_tangential");
  check(t, h->rotational_damping[0] == 10 && h->rotational_damping[1] == 20 &&
               h->rotational_damping[2] == 30,
        "rotational_damping", NULL);
  check(t, h1->drag_normal == 1.0 && h1->drag_tangential == 0.0 && h1->added_mass_normal == 0.0 &&
               h1->added_mass_tangential == 0.0 && h1->rotational_damping[1] == 0.0,
        "hydrodynamics defaults of the second section", NULL);
  check_close(t, m->seabed_damping, 5000.0, 0.0, "seabed damping");

  const PlCurrent *c = &m->current;
  check(t, c->kind == PL_CURRENT_TABLE && c->ntable == 3, "current table", NULL);
  check(t, c->table_z[0] == -900 && c->table_z[1] == -100 && c->table_z[2] == 0 &&
               c->table_speed[0] == 0.1 && c->table_speed[1] == 0.5 && c->table_speed[2] == 0.8,
        "current table rows", NULL);
  check_close(t, c->direction_deg, 30.0, 0.0, "current direction");
  check_close(t, c->start_time, 1.0, 0.0, "current start_time");
  check_close(t, c->ramp_time, 5.0, 0.0, "current ramp_time");

  const PlMotion *b = &m->ends[0].motion;
  check(t, b->kind == PL_MOTION_HARMONIC, "bottom harmonic", NULL);
  check(t, !b->harmonic_dof[0] && !b->harmonic_dof[1] && b->harmonic_dof[2] &&
               b->harmonic_dof[3] && !b->harmonic_dof[4] && !b->harmonic_dof[5],
        "harmonic DOFs z and rx", NULL);
  check_close(t, b->harmonic[PL_DOF_Z].amplitude, -0.5, 0.0, "harmonic z amplitude [m]");
  check_close(t, b->harmonic[PL_DOF_Z].period, 10.0, 0.0, "harmonic z period");
  check_close(t, b->harmonic[PL_DOF_Z].phase_deg, 90.0, 0.0, "harmonic z phase");
  check_close(t, b->harmonic[PL_DOF_RX].amplitude, 2.0, 0.0, "harmonic rx amplitude [deg]");
  check_close(t, b->harmonic[PL_DOF_RX].phase_deg, 0.0, 0.0, "harmonic phase default");
  check_close(t, b->start_time, 2.0, 0.0, "harmonic start_time");
  check_close(t, b->ramp_time, 3.0, 0.0, "harmonic ramp_time");
  check(t, b->table == NULL && b->nrows == 0, "harmonic has no table", NULL);

  const PlMotion *top = &m->ends[1].motion;
  check(t, top->kind == PL_MOTION_TIMESERIES && top->ncols == 4, "top time series t,x,y,z",
        NULL);
  check(t, strcmp(top->file, "top.csv") == 0, "file kept as given", top->file);
  const double want[3][7] = {
      {0, 0, 0, 0, 0, 0, 0}, {0.5, 1, 2, 3, 0, 0, 0}, {1, 1e-3, -2, 0.5, 0, 0, 0}};
  check_table(t, top, 3, want, "top time series");

  const PlDynamicSettings *d = &m->analysis.dynamic;
  check(t, d->duration == 60 && d->output_interval == 0.5 && d->rtol == 1e-5 &&
               d->atol_position == 2e-4 && d->atol_rotation == 3e-5 &&
               d->atol_velocity == 4e-3 && d->atol_angular_velocity == 6e-4 && d->max_step == 0.25 &&
               d->initial_step == 1e-3 &&
               d->max_order == 1 && d->max_steps == 5000,
        "dynamic settings", NULL);
  check(t, m->noutput_points == 3, "three output points", NULL);
  check(t, strcmp(m->output_points[0].name, "touchdown") == 0 &&
               m->output_points[0].arc_length == 370.0,
        "output point 0", m->output_points[0].name);
  check(t, strcmp(m->output_points[1].name, "Top-End_2") == 0 &&
               m->output_points[1].arc_length == 1500.0,
        "output point 1 at L", m->output_points[1].name);
  check(t, strcmp(m->output_points[2].name, "0") == 0 && m->output_points[2].arc_length == 0.0,
        "output point 2 at S = 0", m->output_points[2].name);
}

static void test_dynamic(Tally *t, const char *dir)
{
  char name[1024], want[2048];
  snprintf(name, sizeof name, "%s/dyn.yaml", dir);
  const size_t len = strlen(kDynamic);
  if (write_file(dir, "top.csv", kTopCsv, strlen(kTopCsv))) {
    check(t, 0, "write top.csv", dir);
    return;
  }

  /* every new key read back; the model owns its tables until PlModelFree */
  PlModel m;
  if (load(t, name, kDynamic, 0, NULL, &m, "dynamic model loads") == 0) {
    check_dynamic_values(t, &m);
    /* deep copy: equal values, separate tables */
    PlModel cp;
    check(t, PlModelCopy(&m, &cp) == 0, "PlModelCopy", NULL);
    check(t, cp.ends[1].motion.table != NULL && cp.ends[1].motion.table != m.ends[1].motion.table,
          "the copy has its own table", NULL);
    check_dynamic_values(t, &cp);
    cp.ends[1].motion.table[7] = 99.0;
    check(t, m.ends[1].motion.table[7] == 0.5, "changing the copy leaves the original", NULL);
    PlModelFree(&cp);
    check(t, cp.ends[1].motion.table == NULL && cp.ends[1].motion.kind == PL_MOTION_NONE &&
                 cp.analysis.dynamic.output_interval == 0.1 && cp.nsegments == 0,
          "PlModelFree leaves the defaults", NULL);
    PlModelFree(&cp); /* twice is harmless */
    PlModelFree(&m);
  }
  PlModelFree(NULL);
  PlModel d;
  memset(&d, 0x5a, sizeof d);
  check(t, PlModelCopy(NULL, &d) == -1 && d.ends[0].motion.table == NULL &&
               d.water_density == 1025.0,
        "PlModelCopy(NULL, dst) fails and leaves the defaults", NULL);
  check(t, PlModelCopy(&d, NULL) == -1, "PlModelCopy(src, NULL) fails", NULL);
  check(t, PlModelCopy(&d, &d) == 0, "PlModelCopy onto itself does nothing", NULL);

  /* the defaults of the dynamic keys */
  PlModelInitDefaults(&d);
  check(t, d.analysis.dynamic.duration == 0.0 && d.analysis.dynamic.output_interval == 0.1 &&
               d.analysis.dynamic.rtol == 1e-4 && d.analysis.dynamic.atol_position == 1e-5 &&
               d.analysis.dynamic.atol_rotation == 1e-5 &&
               d.analysis.dynamic.atol_velocity == 1e-3 && d.analysis.dynamic.atol_angular_velocity == 1e-3 &&
               d.analysis.dynamic.max_step == 0.0 &&
               d.analysis.dynamic.initial_step == 0.0 && d.analysis.dynamic.max_order == 2 &&
               d.analysis.dynamic.max_steps == 1000000,
        "InitDefaults: dynamic settings", NULL);
  check(t, d.segments == NULL && d.nsegments == 0 && d.lines == NULL && d.bodies == NULL,
        "InitDefaults: no arrays (the loader allocates what the file gives)", NULL);
  check(t, isnan(d.seabed_damping) && d.current.kind == PL_CURRENT_NONE &&
               d.current.start_time == 0.0 && d.current.ramp_time == 0.0 &&
               d.noutput_points == 0,
        "InitDefaults: seabed damping, current, output points", NULL);
  for (int e = 0; e < 2; e++)
    check(t, d.ends[e].motion.kind == PL_MOTION_NONE && d.ends[e].motion.table == NULL &&
                 d.ends[e].motion.counter_clockwise && d.ends[e].motion.nrows == 0,
          "InitDefaults: no motion", NULL);

  /* a static model: dynamic keys at their defaults */
  if (load(t, "s.yaml", kValid, 0, NULL, &m, "static model loads") == 0) {
    check(t, m.analysis.kind == PL_ANALYSIS_STATIC && m.segments[2].hydro.drag_normal == 1.0 &&
                 m.current.kind == PL_CURRENT_NONE && m.ends[1].motion.kind == PL_MOTION_NONE,
          "static model: dynamic defaults", NULL);
    PlModelFree(&m);
  }

  /* --set on the dynamic keys, creating the mappings they need */
  const char *const ov[] = {
      "analysis.type=dynamic",
      "analysis.dynamic.duration=10", /* creates analysis.dynamic */
      "ends.top.motion.type=circle",  /* creates ends.top.motion */
      "ends.top.motion.radius=2.5",
      "ends.top.motion.period=12",
      "ends.top.motion.hold=30",
      "ends.top.motion.ramp_up=10",
      "ends.top.motion.ramp_down=5",
      "ends.top.motion.start_time=1.5",
      "ends.top.motion.direction=clockwise",
      "current.profile=sheared", /* creates current */
      "current.surface_speed=0.8",
      "current.seabed_speed=0.1",
      "seabed.damping=20",
      "line.sections[1].hydrodynamics.drag_normal=0.7",
      "output.points=[{name: a, arc_length: 10}]",
      "output.points[0].arc_length=20",
  };
  const int nov = (int)(sizeof ov / sizeof ov[0]);
  if (load(t, "case.yaml", kValid, nov, ov, &m, "static model made dynamic with --set") == 0) {
    const PlMotion *mo = &m.ends[1].motion;
    check(t, m.analysis.kind == PL_ANALYSIS_DYNAMIC && m.analysis.dynamic.duration == 10.0 &&
                 m.analysis.dynamic.output_interval == 0.1,
          "--set analysis.dynamic.duration", NULL);
    check(t, mo->kind == PL_MOTION_CIRCLE && mo->radius == 2.5 && mo->period == 12 &&
                 mo->hold == 30 && mo->ramp_up == 10 && mo->ramp_down == 5 &&
                 mo->start_time == 1.5 && !mo->counter_clockwise,
          "circle motion from --set", NULL);
    check(t, m.current.kind == PL_CURRENT_SHEARED && m.current.surface_speed == 0.8 &&
                 m.current.seabed_speed == 0.1 && m.current.direction_deg == 0.0,
          "sheared current from --set", NULL);
    check(t, m.seabed_damping == 20 && m.segments[1].hydro.drag_normal == 0.7 &&
                 m.segments[0].hydro.drag_normal == 1.0,
          "seabed damping and drag from --set", NULL);
    check(t, m.noutput_points == 1 && m.output_points[0].arc_length == 20.0,
          "output point from --set", NULL);
    PlModelFree(&m);
  }
  const char *const ov2[] = {"analysis.dynamic.duration=10",
                             "current={profile: uniform, speed: 0.5}",
                             "ends.bottom.motion.dofs.x={amplitude: 1, period: 5}",
                             "ends.bottom.motion.dofs.rx.phase=45",
                             "ends.top.motion={type: circle, radius: 1, period: 4, hold: 0}"};
  if (load(t, name, kDynamic, 5, ov2, &m, "dynamic model with --set") == 0) {
    const PlMotion *b = &m.ends[0].motion;
    check(t, m.analysis.dynamic.duration == 10.0 && m.analysis.dynamic.output_interval == 0.5,
          "--set analysis.dynamic.duration=10", NULL);
    check(t, m.current.kind == PL_CURRENT_UNIFORM && m.current.speed == 0.5 &&
                 m.current.start_time == 0.0,
          "uniform current", NULL);
    check(t, b->harmonic_dof[0] && b->harmonic[0].amplitude == 1.0 && b->harmonic[0].period == 5 &&
                 b->harmonic[PL_DOF_RX].phase_deg == 45.0,
          "harmonic DOFs from --set", NULL);
    check(t, m.ends[1].motion.kind == PL_MOTION_CIRCLE && m.ends[1].motion.counter_clockwise &&
                 m.ends[1].motion.ramp_up == 0.0 && m.ends[1].motion.table == NULL,
          "circle replaces the time series (defaults)", NULL);
    PlModelFree(&m);
  }

  /* time series with rotations, absolute path, byte order mark, no final newline */
  const char rot[] = "\xEF\xBB\xBFt,x,y,z,rx,ry,rz\n0,0,0,0,0,0,0\n2,1,2,3,4,5,6";
  char abs_path[1200], ov_file[1300];
  snprintf(abs_path, sizeof abs_path, "%s/rot.csv", dir);
  snprintf(ov_file, sizeof ov_file, "ends.top.motion.file=%s", abs_path);
  const char *const ov3[] = {ov_file, "ends.top.fixed=[y, z, rx, ry, rz]"};
  if (write_file(dir, "rot.csv", rot, strlen(rot)) == 0 &&
      load(t, "elsewhere/dyn.yaml", kDynamic, 2, ov3, &m, "time series with rotations") == 0) {
    const double want7[2][7] = {{0, 0, 0, 0, 0, 0, 0}, {2, 1, 2, 3, 4, 5, 6}};
    check(t, m.ends[1].motion.ncols == 7, "seven columns", NULL);
    check_table(t, &m.ends[1].motion, 2, want7, "time series with rotations");
    PlModelFree(&m);
  }
  const char *const ov3b[] = {"ends.top.motion.file=rot.csv"}; /* the top holds no rotation */
  if (load(t, name, kDynamic, 1, ov3b, &m, "rotations of an end that holds none") == 0)
    PlModelFree(&m);

  /* a file that cannot be read: the message shows the path as given and as resolved */
  const char *const ov4[] = {"ends.top.motion.file=no_such.csv"};
  snprintf(want, sizeof want,
           "--set:1:1: ends.top.motion.file: cannot read 'no_such.csv' (resolved to '%s/"
           "no_such.csv'): No such file or directory",
           dir);
  expect_error(t, name, kDynamic, len, 1, ov4, want, "missing time series");
  expect_error(t, "sub/dyn.yaml", kDynamic, len, 0, NULL,
               "sub/dyn.yaml:41:38: ends.top.motion.file: cannot read 'top.csv' (resolved to "
               "'sub/top.csv'): No such file or directory",
               "time series relative to the model's directory");
  const char *const ov5[] = {"ends.top.motion.file=."};
  expect_error(t, name, kDynamic, len, 1, ov5, "(resolved to '", "a directory");
  expect_error(t, name, kDynamic, len, 1, ov5, "'): Is a directory", "a directory (errno)");

  /* malformed time series: FILE:LINE:COL of the CSV file */
  static const struct {
    const char *csv, *msg;
  } kBadCsv[] = {
      {"t,x,y,z\n0,0,0,0\n0.3,1.0,abc,0\n",
       "3:9: ends.top.motion.file: expected a number, found 'abc'"},
      {"t,x,y,z\n0,0,0,0\n0.1,1.0,2\n",
       "3:10: ends.top.motion.file: expected 4 fields (t,x,y,z), found 3"},
      {"t,x,y,z\n0,0,0,0\n0.1,1,2,3,4\n",
       "3:11: ends.top.motion.file: expected 4 fields (t,x,y,z), found 5"},
      {"t,x,y,z\n0,0,0,0\n1,0,0,0\n1,1,1,1\n",
       "4:1: ends.top.motion.file: t must increase from row to row: must be greater than 1 s "
       "(line 3), got 1"},
      {"# c\nt,x,y,z\n0,0,0,0\n",
       "2:1: ends.top.motion.file: expected at least 2 data rows after the header, found 1"},
      {"",
       "1:1: ends.top.motion.file: no header line"},
      {"# only a comment\n\n",
       "1:1: ends.top.motion.file: no header line"},
      {"time,x,y,z\n0,0,0,0\n1,0,0,0\n",
       "1:1: ends.top.motion.file: expected the header 't,x,y,z' or 't,x,y,z,rx,ry,rz', "
       "found 'time,x,y,z'"},
      {"t, x, y\n",
       "1:8: ends.top.motion.file: expected the header"},
      {"t,x,y,z,rx\n",
       "1:11: ends.top.motion.file: expected the header"},
      {"t,x,y,z,rx,ry,rz,s\n",
       "1:18: ends.top.motion.file: expected the header"},
      {"t,x,y,z\n0,0,0,nan\n",
       "2:7: ends.top.motion.file: expected a finite number, found 'nan'"},
      {"t,x,y,z\n0,0,0,-Inf\n",
       "2:7: ends.top.motion.file: expected a finite number, found '-Inf'"},
      {"t,x,y,z\n0,0,0,1e999\n",
       "2:7: ends.top.motion.file: number out of range (not a finite double), found '1e999'"},
      {"t,x,y,z\n0, ,0,0\n",
       "2:3: ends.top.motion.file: expected a number, found an empty field"},
      {"t,x,y,z\n0,0x10,0,0\n",
       "2:3: ends.top.motion.file: expected a number, found '0x10'"},
      {"t,x,y,z\n0,0,0,0\n1,0,0,0 # no trailing comments\n",
       "3:7: ends.top.motion.file: expected a number, found '0 # no trailing comments'"},
      {"t,x,y,z\n0,0,0,0\n1,0,0,\"1\"\n",
       "3:7: ends.top.motion.file: expected a number, found '\"1\"'"},
  };
  const char *const ov6[] = {"ends.top.motion.file=bad.csv"};
  for (size_t i = 0; i < sizeof kBadCsv / sizeof kBadCsv[0]; i++) {
    if (write_file(dir, "bad.csv", kBadCsv[i].csv, strlen(kBadCsv[i].csv))) {
      check(t, 0, "write bad.csv", dir);
      break;
    }
    snprintf(want, sizeof want, "%s/bad.csv:%s", dir, kBadCsv[i].msg);
    expect_error(t, name, kDynamic, len, 1, ov6, want, "malformed time series");
  }
  /* an embedded NUL byte and a line longer than 4096 bytes */
  const char nul[] = "t,x,y,z\n0,0,0,0\n1,0,0,0\0\n";
  if (write_file(dir, "bad.csv", nul, sizeof nul - 1) == 0) {
    snprintf(want, sizeof want,
             "%s/bad.csv:3:7: ends.top.motion.file: expected a number, found '0?'", dir);
    expect_error(t, name, kDynamic, len, 1, ov6, want, "NUL in a time series");
  }
  char *longl = malloc(6000);
  if (longl) {
    memset(longl, '1', 6000);
    memcpy(longl, "t,x,y,z\n0,", 10);
    if (write_file(dir, "bad.csv", longl, 6000) == 0) {
      snprintf(want, sizeof want,
               "%s/bad.csv:2:4097: ends.top.motion.file: line longer than 4096 bytes", dir);
      expect_error(t, name, kDynamic, len, 1, ov6, want, "long line in a time series");
    }
    free(longl);
  }

  /* cross-checks */
  const char *const s1[] = {"analysis.type=static", "analysis.dynamic="};
  expect_error(t, name, kDynamic, len, 2, s1,
               "dyn.yaml:44:3: analysis.dynamic: is only used by a dynamic analysis "
               "(analysis.type is 'static')",
               "dynamic settings with a static analysis");
  const char *const s2[] = {"ends.top.motion={type: circle, radius: 1, period: 2, hold: 3}"};
  expect_error(t, "s.yaml", kValid, strlen(kValid), 1, s2,
               "--set:1:1: ends.top.motion: is only used by a dynamic analysis (analysis.type is "
               "'static', the default)",
               "motion with a static analysis");
  const char *const s3[] = {"output.points=[]"};
  expect_error(t, "s.yaml", kValid, strlen(kValid), 1, s3,
               "--set:1:1: output.points: is only used by a dynamic analysis",
               "output points with a static analysis");
  const char *const s4[] = {"analysis.type=dynamic"};
  expect_error(t, "s.yaml", kValid, strlen(kValid), 1, s4,
               "--set:1:1: analysis: missing required key 'dynamic'", "dynamic without settings");
  const char *const s5[] = {"ends.bottom.fixed=[x, y, z, ry, rz]"};
  expect_error(t, name, kDynamic, len, 1, s5,
               "dyn.yaml:35:9: ends.bottom.motion.dofs.rx: a harmonic rotation needs the end to "
               "hold all three rotations (rx, ry, rz) in 'fixed', or none of them (then the "
               "motion holds them); ends.bottom.fixed holds only ry, rz",
               "harmonic rotation with a partial hold");
  const char *const s6[] = {"ends.bottom.fixed=[x, y, z]"}; /* no rotation held: allowed */
  if (load(t, name, kDynamic, 1, s6, &m, "harmonic rotation of an end that holds none") == 0)
    PlModelFree(&m);
  const char *const s7[] = {ov_file, "ends.top.fixed=[y, z, rz]"};
  expect_error(t, name, kDynamic, len, 2, s7,
               "--set:1:1: ends.top.motion.file: the file has rotation columns (rx, ry, rz): a "
               "rotational motion needs the end to hold all three rotations",
               "time-series rotations with a partial hold");
  const char *const s8[] = {"ends.top.fixed=[x, y, z]"}; /* x moved and held: needs a value */
  expect_error(t, name, kDynamic, len, 1, s8,
               "dyn.yaml:38:16: ends.top.position: component x is held (fixed) and needs a value",
               "a held DOF still needs a position");
  const char *const s9[] = {"ends.top.motion.start_time=1"};
  expect_error(t, name, kDynamic, len, 1, s9,
               "--set:1:1: ends.top.motion.start_time: is only used by harmonic and circle "
               "motions (type is 'timeseries')",
               "key of another motion type");
  const char *const s10[] = {"ends.bottom.motion.radius=1"};
  expect_error(t, name, kDynamic, len, 1, s10,
               "--set:1:1: ends.bottom.motion.radius: is only used by a circle motion (type is "
               "'harmonic')",
               "circle key in a harmonic motion");
  const char *const s11[] = {"current.speed=1"};
  expect_error(t, name, kDynamic, len, 1, s11,
               "--set:1:1: current.speed: is only used by the uniform profile (profile is 'table')",
               "speed with a table current");
  const char *const s12[] = {"analysis.dynamic.duration=0.05"};
  expect_error(t, name, kDynamic, len, 1, s12,
               "dyn.yaml:46:22: analysis.dynamic.output_interval: must be at most duration "
               "(0.05 s), got 0.5",
               "output_interval longer than duration");
  const char *const s12b[] = {"analysis.type=dynamic", "analysis.dynamic.duration=0.05"};
  expect_error(t, "s.yaml", kValid, strlen(kValid), 2, s12b,
               "--set:1:2: analysis.dynamic.duration: must be at least output_interval (0.1 s, "
               "the default), got 0.05",
               "duration shorter than the default output_interval");
  const char *const s12c[] = {"output.vtk_interval=0.75"}; /* output every 0.5 s */
  expect_error(t, name, kDynamic, len, 2, (const char *const[]){"output.directory=o", s12c[0]},
               "--set:1:2: output.vtk_interval: must be a whole multiple of analysis.dynamic.output_interval "
               "(0.5 s), or 0 for a frame at every output; got 0.75",
               "vtk_interval not a multiple of the output interval");
  const char *const s13[] = {"analysis.dynamic.max_steps=0"};
  expect_error(t, name, kDynamic, len, 1, s13,
               "--set:1:1: analysis.dynamic.max_steps: must be an integer from 1 to "
               "2147483647, got 0",
               "max_steps");
  const char *const s14[] = {"seabed.model=none"};
  expect_error(t, name, kDynamic, len, 1, s14,
               "dyn.yaml:18:28: seabed.damping: is not used without a seabed (model is 'none')",
               "seabed damping without a seabed");

  /* an error after a time series was read leaves nothing allocated (valgrind) */
  const char *const s16[] = {"output.points[2].arc_length=2000"};
  memset(&m, 0, sizeof m);
  PlError err;
  const int rc = PlModelLoadString(name, kDynamic, len, 1, s16, &m, &err);
  check(t, rc == 2 && m.ends[1].motion.table == NULL && m.ends[1].motion.kind == PL_MOTION_NONE,
        "failed load owns no table", err.msg);
  check(t, strstr(err.msg, "--set:1:1: output.points[2].arc_length: must be at most "
                           "line.length (1500 m), got 2000") != NULL,
        "point beyond the line", err.msg);

  remove_file(dir, "top.csv");
  remove_file(dir, "rot.csv");
  remove_file(dir, "bad.csv");
}

/* ---- 2b. the vessel (issue 4) ---------------------------------------------------------- */

/* A model whose top end hangs from a vessel, with every vessel key (the data of
 * examples/vessels/pipelay_vessel.yaml, made asymmetric where a mix-up would not show). */
static const char kVessel[] =
    "environment:\n"
    "  water_depth: 900\n"
    "  water_density: 1030\n"
    "  gravity: 9.81\n"
    "line:\n"
    "  length: 1500\n"
    "  sections:\n"
    "    - outer_diameter: 0.762\n"
    "      wall_thickness: 0.033\n"
    "      material: {youngs_modulus: 206e9, shear_modulus: 7.9231e10, density: 7850}\n"
    "mesh:\n"
    "  elements: 99\n"
    "ends:\n"
    "  bottom: {position: [0, 0, -899.71425], fixed: all}\n"
    "analysis:\n"
    "  type: dynamic\n"
    "  dynamic: {duration: 10}\n"
    "vessel:\n"
    "  name: test vessel\n"
    "  axes: pipelay\n"
    "  mass: 6.0e6\n"
    "  centre_of_gravity: [1.5, -0.5, 2.0]\n"
    "  radii_of_gyration: [7.0, 19.05, 19.5]\n"
    "  added_mass:\n"
    "    - [7.644e5, 0, 0, 0, 0, 0]\n"
    "    - [0, 5.3412e6, 0, 0, 0, -3.401568e7]\n"
    "    - [0, 0, 9.6446e6, 0, 0, 0]\n"
    "    - [0, 0, 0, 1.51813e8, 0, 0]\n"
    "    - [0, 0, 0, 0, 4.267725e9, 0]\n"
    "    - [0, -3.401568e7, 0, 0, 0, 2.274963e9]\n"
    "  linear_damping:\n"
    "    - [7.7032e4, 0, 0, 0, 0, 0]\n"
    "    - [0, 2.54549e5, 0, 0, 0, -2.033122e6]\n"
    "    - [0, 0, 5.5386e6, 0, 0, 0]\n"
    "    - [0, 0, 0, 6.7173e7, 0, 0]\n"
    "    - [0, 0, 0, 0, 3.39444e9, 0]\n"
    "    - [0, -6.72242e5, 0, 0, 0, 3.84811e8]\n"
    "  quadratic_damping: [6.057e3, 1.84615e5, 1, 2, 3, 2.5526e9]\n"
    "  restoring:\n"
    "    waterplane_area: 1219.2\n"
    "    heave_equilibrium: -0.5\n"
    "    gm_transverse: 1.9113\n"
    "    gm_longitudinal: 84.398\n"
    "    displacement: 6.1e6\n"
    "  spring: {stiffness: [[1e4, 5, 0], [5, 2e4, 0], [0, 0, 0]], anchor: [1, 2, -3]}\n"
    "  norm_rate: 2\n"
    "  initial:\n"
    "    position: [10, 20, 0.5]\n"
    "    orientation: [1, 2, 30]\n"
    "    velocity: [0.5, 0.1, -0.2]\n"
    "    angular_velocity: [0.1, -0.2, 1.8]\n"
    "  hang_off:\n"
    "    point: [-30, 5, 3]\n"
    "    connection: fixed\n"
    "    orientation: [10, -80, 20]\n"
    "  environment_load:\n"
    "    frame: global\n"
    "    force: [1, 6.0e5, -2]\n"
    "    moment: [3, -4, 1e6]\n"
    "    start_time: 10\n"
    "    ramp_time: 5\n"
    "    file: wind.csv\n"
    "  dp:\n"
    "    start_time: 30\n"
    "    ramp_time: 2\n"
    "    kp: [0.4e6, 0.3e6, 1, 2, 3, 1.0e5]\n"
    "    kd: [0.5e7, 0.4e7, 4, 5, 6, 1.1e5]\n"
    "    ki: [0.1e4, 0.5e4, 7, 8, 9, 0.2e4]\n"
    "    integral_bound: [500, 400, 0, 0, 0, 5]\n"
    "    antiwindup_time: 10\n"
    "    actuated: [yaw, surge, sway, heave]\n"
    "    thrust_max: [1.0e6, 2.0e6, 0, 0, 0, 5.0e7]\n"
    "    reference:\n"
    "      type: fixed\n"
    "      eta: [10, 20, 0.5, 1, -2, 90]\n";

/* The environmental time series of kVessel. */
static const char kWindCsv[] = "# wind and drift\n"
                               "t,Fx,Fy,Fz,Mx,My,Mz\n"
                               "0, 1, 2, 3, 4, 5, 6\n"
                               "10, -1, -2, -3, -4, -5, -6e3\n";

/* A small vessel: only what is required (a hinge, static analysis). */
static const char kVesselMinimal[] =
    "environment: {water_depth: 900}\n"
    "line:\n"
    "  length: 1500\n"
    "  sections:\n"
    "    - outer_diameter: 0.762\n"
    "      wall_thickness: 0.033\n"
    "      material: {youngs_modulus: 206e9, shear_modulus: 7.9231e10, density: 7850}\n"
    "mesh: {elements: 99}\n"
    "ends:\n"
    "  bottom: {position: [0, 0, -899.71425], fixed: all}\n"
    "  top: {}\n"
    "vessel:\n"
    "  mass: 1000\n"
    "  radii_of_gyration: [1, 2, 3]\n"
    "  initial: {position: [700, -1, 0]}\n"
    "  hang_off: {point: [0, 0, 0], connection: hinge}\n";

/* The 6x6 (row-major) a equals b entry by entry to rtol of the largest entry of b. */
static void check_matrix(Tally *t, const double *a, const double *b, int n, double rtol,
                         const char *what)
{
  double big = 0.0, worst = 0.0;
  for (int i = 0; i < n * n; i++) big = fmax(big, fabs(b[i]));
  for (int i = 0; i < n * n; i++) worst = fmax(worst, fabs(a[i] - b[i]));
  char d[96];
  snprintf(d, sizeof d, "largest difference %.3g of %.3g", worst, big);
  check(t, worst <= rtol * (big > 0.0 ? big : 1.0), what, d);
}

/* R = R_y(theta) R_x(phi) R_z(psi) (eq 5.98) of [phi, theta, psi] in degrees. */
static void zxy(const double deg[3], double R[9])
{
  const double f = deg[0] * kPi / 180, th = deg[1] * kPi / 180, p = deg[2] * kPi / 180;
  const double Ry[9] = {cos(th), 0, sin(th), 0, 1, 0, -sin(th), 0, cos(th)};
  const double Rx[9] = {1, 0, 0, 0, cos(f), -sin(f), 0, sin(f), cos(f)};
  const double Rz[9] = {cos(p), -sin(p), 0, sin(p), cos(p), 0, 0, 0, 1};
  double T[9];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      T[3 * i + j] = R[3 * i + j] = 0.0;
      for (int k = 0; k < 3; k++) T[3 * i + j] += Ry[3 * i + k] * Rx[3 * k + j];
    }
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      for (int k = 0; k < 3; k++) R[3 * i + j] += T[3 * i + k] * Rz[3 * k + j];
}

/* The top end is what PlVesselTopEnd makes of the vessel, and that is the hang-off point
 * r + R a with the frame R R_t^b (fixed) or free rotations (hinge). */
static void check_top_end(Tally *t, const PlModel *m, const char *what)
{
  const PlVesselModel *v = &m->vessel;
  const PlEnd *e = &m->ends[1];
  PlEnd want;
  memset(&want, 0, sizeof want);
  PlVesselTopEnd(v, &want);
  int same = 1;
  for (int k = 0; k < 6; k++) same = same && e->fixed[k] == want.fixed[k];
  for (int k = 0; k < 3; k++)
    same = same && e->position[k] == want.position[k] && e->has_position[k] &&
           e->force[k] == 0.0 && e->moment[k] == 0.0;
  for (int k = 0; k < 9; k++) same = same && e->orientation[k] == want.orientation[k];
  check(t, same && e->motion.kind == PL_MOTION_NONE, what, "ends[1] = PlVesselTopEnd");
  double q[4], R[9], P[3];
  PlVesselQuatFromEulerZYX(v->rpy, q);
  PlQuatToMatrix(q, R);
  for (int i = 0; i < 3; i++) {
    P[i] = v->position[i];
    for (int k = 0; k < 3; k++) P[i] += R[3 * i + k] * v->hang_off[k];
  }
  double dp = 0.0;
  for (int i = 0; i < 3; i++) dp = fmax(dp, fabs(e->position[i] - P[i]));
  check(t, dp <= 1e-12 * 1000.0, what, "top end at r + R a");
  const bool fixed = v->connection == PL_HANGOFF_FIXED;
  check(t, e->fixed[0] && e->fixed[1] && e->fixed[2] && e->fixed[3] == fixed &&
               e->fixed[4] == fixed && e->fixed[5] == fixed,
        what, "held DOFs: x, y, z and (fixed) the rotations");
  if (fixed) {
    double Rt[9];
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) {
        Rt[3 * i + j] = 0.0;
        for (int k = 0; k < 3; k++) Rt[3 * i + j] += R[3 * i + k] * v->top_frame[3 * k + j];
      }
    check_matrix(t, e->orientation, Rt, 3, 1e-14, "top end frame R R_t^b");
  }
}

/* Every value of kVessel (with wind.csv) in its field. */
static void check_vessel_values(Tally *t, const PlModel *m)
{
  const PlVesselModel *v = &m->vessel;
  const PlVessel *V = &v->body;
  check(t, v->present && strcmp(v->name, "test vessel") == 0, "vessel present, name", v->name);
  /* M_RB from mass, centre of gravity and radii of gyration */
  const double mass = 6e6, cg[3] = {1.5, -0.5, 2.0}, r[3] = {7.0, 19.05, 19.5};
  const double Ig[9] = {mass * r[0] * r[0], 0, 0, 0, mass * r[1] * r[1], 0, 0, 0,
                        mass * r[2] * r[2]};
  double MRB[36];
  PlVesselRigidBodyMass(mass, cg, Ig, MRB);
  check_matrix(t, V->MRB, MRB, 6, 0.0, "MRB = PlVesselRigidBodyMass(mass, cg, m r^2)");
  check_close(t, V->MRB[0], 6e6, 0.0, "MRB(1,1) = mass");
  check_close(t, V->MRB[6 * 0 + 4], mass * cg[2], 1e-15, "MRB(1,5) = m z_g");
  check_close(t, V->MA[0], 7.644e5, 0.0, "MA(1,1)");
  check_close(t, V->MA[6 * 1 + 5], -3.401568e7, 0.0, "MA(2,6)");
  check_close(t, V->MA[6 * 5 + 1], -3.401568e7, 0.0, "MA(6,2)");
  check_close(t, V->MA[35], 2.274963e9, 0.0, "MA(6,6)");
  check_close(t, V->Dp[6 * 1 + 5], -2.033122e6, 0.0, "Dp(2,6)");
  check_close(t, V->Dp[6 * 5 + 1], -6.72242e5, 0.0, "Dp(6,2), not symmetric");
  check_close(t, V->Dp[14], 5.5386e6, 0.0, "Dp(3,3)");
  const double dq[6] = {6.057e3, 1.84615e5, 1, 2, 3, 2.5526e9};
  for (int i = 0; i < 6; i++) check_close(t, V->Dq[i], dq[i], 0.0, "quadratic damping Dq");
  check_close(t, V->Awp, 1219.2, 0.0, "waterplane area");
  check_close(t, V->z_eq, -0.5, 0.0, "heave equilibrium z_eq");
  check_close(t, V->GM_T, 1.9113, 0.0, "GM_T");
  check_close(t, V->GM_L, 84.398, 0.0, "GM_L");
  check_close(t, V->displacement, 6.1e6, 0.0, "displacement");
  check(t, V->K_spring[0] == 1e4 && V->K_spring[1] == 5 && V->K_spring[3] == 5 &&
               V->K_spring[4] == 2e4 && V->K_spring[8] == 0,
        "spring stiffness", NULL);
  check(t, V->r_anchor[0] == 1 && V->r_anchor[1] == 2 && V->r_anchor[2] == -3, "spring anchor",
        NULL);
  check_close(t, V->norm_rate, 2.0, 0.0, "norm_rate");
  check_close(t, V->rho_w, 1030.0, 0.0, "rho_w = environment.water_density");
  check_close(t, V->gravity, 9.81, 0.0, "gravity = environment.gravity");
  /* initial state: angles in rad */
  check(t, v->position[0] == 10 && v->position[1] == 20 && v->position[2] == 0.5,
        "initial position", NULL);
  check_close(t, v->rpy[0], kPi / 180.0, 1e-15, "initial roll [rad]");
  check_close(t, v->rpy[1], 2.0 * kPi / 180.0, 1e-15, "initial pitch [rad]");
  check_close(t, v->rpy[2], kPi / 6.0, 1e-15, "initial yaw [rad]");
  check(t, v->velocity[0] == 0.5 && v->velocity[1] == 0.1 && v->velocity[2] == -0.2,
        "initial velocity (body)", NULL);
  check_close(t, v->angular_velocity[2], 1.8 * kPi / 180.0, 1e-15,
              "initial angular velocity [rad/s] from deg/s");
  check_close(t, v->angular_velocity[1], -0.2 * kPi / 180.0, 1e-15, "angular velocity y");
  /* hang-off */
  check(t, v->hang_off[0] == -30 && v->hang_off[1] == 5 && v->hang_off[2] == 3,
        "hang-off point (body)", NULL);
  check(t, v->connection == PL_HANGOFF_FIXED, "connection fixed", NULL);
  double Rt[9];
  zxy((const double[3]){10, -80, 20}, Rt);
  check_matrix(t, v->top_frame, Rt, 3, 1e-15, "top_frame = zxy Euler angles, row-major");
  check_top_end(t, m, "vessel top end");
  /* environment load */
  const PlVesselLoad *L = &v->environment;
  const double val[6] = {1, 6e5, -2, 3, -4, 1e6};
  int ok = !L->body_frame && L->start_time == 10 && L->ramp_time == 5;
  for (int i = 0; i < 6; i++) ok = ok && L->value[i] == val[i];
  check(t, ok, "environment load: frame, force, moment, times", NULL);
  const double rows[2][7] = {{0, 1, 2, 3, 4, 5, 6}, {10, -1, -2, -3, -4, -5, -6e3}};
  ok = L->nrows == 2 && L->table != NULL;
  for (int i = 0; ok && i < 14; i++) ok = L->table[i] == rows[i / 7][i % 7];
  check(t, ok, "environment load time series t,Fx,...,Mz", NULL);
  double out[6];
  PlVesselLoadEval(L, 20.0, out); /* constant part on, series held at its last row */
  check_close(t, out[1], 6e5 - 2.0, 1e-15, "PlVesselLoadEval on the loaded load");
  /* DP */
  const PlDPController *d = &v->dp;
  check(t, v->has_dp, "has_dp", NULL);
  const double kp[6] = {0.4e6, 0.3e6, 1, 2, 3, 1e5}, kd[6] = {0.5e7, 0.4e7, 4, 5, 6, 1.1e5};
  const double ki[6] = {0.1e4, 0.5e4, 7, 8, 9, 0.2e4}, ib[6] = {500, 400, 0, 0, 0, 5};
  const double tm[6] = {1e6, 2e6, 0, 0, 0, 5e7};
  ok = 1;
  for (int i = 0; i < 6; i++)
    ok = ok && d->Kp[i] == kp[i] && d->Kd[i] == kd[i] && d->Ki[i] == ki[i] &&
         d->integral_bound[i] == ib[i] && d->thrust_max[i] == tm[i];
  check(t, ok, "DP gains, integral bounds, thrust limits", NULL);
  check(t, d->actuated[0] && d->actuated[1] && d->actuated[2] && !d->actuated[3] &&
               !d->actuated[4] && d->actuated[5],
        "DP actuated surge, sway, heave, yaw", NULL);
  check(t, d->antiwindup_time == 10 && d->start_time == 30 && d->ramp_time == 2,
        "DP antiwindup_time, start_time, ramp_time", NULL);
  check(t, d->ref.kind == PL_DP_REF_FIXED, "DP reference fixed", NULL);
  check(t, d->ref.eta0[0] == 10 && d->ref.eta0[1] == 20 && d->ref.eta0[2] == 0.5, "eta x, y, z",
        NULL);
  check_close(t, d->ref.eta0[3], kPi / 180.0, 1e-15, "eta roll [rad]");
  check_close(t, d->ref.eta0[4], -kPi / 90.0, 1e-15, "eta pitch [rad]");
  check_close(t, d->ref.eta0[5], kPi / 2.0, 1e-15, "eta yaw [rad]");
  char msg[256];
  check(t, PlVesselCheck(V, msg, sizeof msg) == 0, "loaded vessel passes PlVesselCheck", msg);
  check(t, PlDPControllerCheck(d, msg, sizeof msg) == 0, "loaded DP passes PlDPControllerCheck",
        msg);
}

static void test_vessel(Tally *t, const char *dir)
{
  char name[1024];
  snprintf(name, sizeof name, "%s/vessel.yaml", dir);
  if (write_file(dir, "wind.csv", kWindCsv, strlen(kWindCsv))) {
    check(t, 0, "write wind.csv", dir);
    return;
  }
  PlModel m, c;
  if (load(t, name, kVessel, 0, NULL, &m, "vessel model loads") == 0) {
    check_vessel_values(t, &m);
    /* a deep copy owns its own time series */
    if (PlModelCopy(&m, &c) == 0) {
      check(t, c.vessel.environment.table != m.vessel.environment.table &&
                   c.vessel.environment.nrows == 2 &&
                   memcmp(c.vessel.environment.table, m.vessel.environment.table,
                          14 * sizeof(double)) == 0,
            "PlModelCopy copies the environment time series", NULL);
      PlModelFree(&c);
    } else {
      check(t, 0, "PlModelCopy of the vessel model", NULL);
    }
    PlModelFree(&m);
    check(t, m.vessel.environment.table == NULL && !m.vessel.present,
          "PlModelFree frees the environment time series", NULL);
  }

  /* defaults */
  if (load(t, "min.yaml", kVesselMinimal, 0, NULL, &m, "minimal vessel loads") == 0) {
    const PlVesselModel *v = &m.vessel;
    const double zero[36] = {0};
    check_matrix(t, v->body.MA, zero, 6, 0.0, "added_mass default 0");
    check_matrix(t, v->body.Dp, zero, 6, 0.0, "linear_damping default 0");
    check_matrix(t, v->body.K_spring, zero, 3, 0.0, "no spring");
    check(t, v->body.Dq[0] == 0 && v->body.Dq[5] == 0 && v->body.Awp == 0 &&
                 v->body.displacement == 0 && v->body.norm_rate == 1.0,
          "quadratic damping, restoring, norm_rate defaults", NULL);
    check(t, v->body.rho_w == 1025.0 && v->body.gravity == 9.80665, "rho_w and g defaults", NULL);
    check(t, v->name[0] == '\0', "vessel name default empty", v->name);
    check(t, v->rpy[0] == 0 && v->rpy[1] == 0 && v->rpy[2] == 0 && v->velocity[0] == 0 &&
                 v->angular_velocity[2] == 0,
          "orientation and velocities default 0", NULL);
    check(t, v->connection == PL_HANGOFF_HINGE && v->top_frame[0] == 1 && v->top_frame[4] == 1 &&
                 v->top_frame[8] == 1 && v->top_frame[1] == 0,
          "hinge, top_frame identity", NULL);
    const double Ig[9] = {1000, 0, 0, 0, 4000, 0, 0, 0, 9000}, cg0[3] = {0, 0, 0};
    double MRB[36];
    PlVesselRigidBodyMass(1000, cg0, Ig, MRB);
    check_matrix(t, v->body.MRB, MRB, 6, 0.0, "MRB with the centre of gravity at O_b");
    const PlVesselLoad *L = &v->environment;
    check(t, !L->body_frame && L->value[1] == 0 && L->start_time == 0 && L->ramp_time == 0 &&
                 L->nrows == 0 && L->table == NULL,
          "no environment load", NULL);
    PlDPController dd;
    PlDPControllerDefaults(&dd);
    check(t, !v->has_dp && memcmp(&dd, &v->dp, sizeof dd) == 0, "no DP: the defaults", NULL);
    check_top_end(t, &m, "hinge top end");
    check(t, m.ends[1].position[0] == 700 && m.ends[1].position[1] == -1 &&
                 m.ends[1].position[2] == 0,
          "hinge at O_b: top end at the vessel's position", NULL);
    PlModelFree(&m);
  }
  /* a model without a vessel has none */
  if (load(t, "valid.yaml", kValid, 0, NULL, &m, "model without a vessel") == 0) {
    check(t, !m.vessel.present && !m.vessel.has_dp, "no vessel by default", NULL);
    PlModelFree(&m);
  }

  /* Fossen's axes: body-frame data turned by T = diag(1, -1, -1), global ones kept */
  {
    const char *const ov[] = {
        "vessel.axes=fossen_ned",
        "vessel.radii_of_gyration=",
        "vessel.inertia=[[3e8, 1e6, 2e6], [1e6, 2e9, 3e6], [2e6, 3e6, 2.2e9]]",
        "vessel.environment_load.frame=body",
    };
    /* radii_of_gyration set to null and inertia added: drop the radii from the text */
    char *text = malloc(sizeof kVessel);
    if (text) {
      memcpy(text, kVessel, sizeof kVessel);
      char *p = strstr(text, "  radii_of_gyration: [7.0, 19.05, 19.5]\n");
      memmove(p, p + 40, strlen(p + 40) + 1);
      expect_error(t, name, text, strlen(text), 0, NULL,
                   "vessel.yaml:18:1: vessel: missing required key 'radii_of_gyration' (m) (or "
                   "'inertia' (kg m^2), about the centre of gravity)",
                   "neither radii_of_gyration nor inertia");
      const char *const ov2[] = {ov[0], ov[2], ov[3]};
      if (load(t, name, text, 3, ov2, &m, "fossen_ned vessel loads") == 0) {
        const PlVesselModel *v = &m.vessel;
        const double mass = 6e6, cg_ned[3] = {1.5, -0.5, 2.0};
        const double I_ned[9] = {3e8, 1e6, 2e6, 1e6, 2e9, 3e6, 2e6, 3e6, 2.2e9};
        double Mned[36], Mw[36];
        PlVesselRigidBodyMass(mass, cg_ned, I_ned, Mned);
        PlVesselMatrixFromNED(Mned, Mw);
        check_matrix(t, v->body.MRB, Mw, 6, 1e-15, "NED: MRB = S MRB_ned S");
        check_close(t, v->body.MRB[6 * 0 + 4], -mass * 2.0, 1e-15,
                    "NED: MRB(1,5) = m z_g with z_g = -2 (z down)");
        check_close(t, v->body.MRB[6 * 3 + 4], -1e6 - mass * 1.5 * 0.5, 1e-12,
                    "NED: inertia I_xy flips sign (and y_g with it)");
        check_close(t, v->body.MA[6 * 1 + 5], -3.401568e7, 0.0,
                    "NED: sway-yaw added mass keeps its sign (both flip)");
        check_close(t, v->body.Dp[6 * 5 + 1], -6.72242e5, 0.0, "NED: yaw-sway damping kept");
        check_close(t, v->body.MA[0], 7.644e5, 0.0, "NED: surge kept");
        check(t, v->hang_off[0] == -30 && v->hang_off[1] == -5 && v->hang_off[2] == -3,
              "NED: hang-off point y, z negated", NULL);
        double Rt[9];
        zxy((const double[3]){10, -80, 20}, Rt);
        for (int k = 3; k < 9; k++) Rt[k] = -Rt[k];
        check_matrix(t, v->top_frame, Rt, 3, 1e-15, "NED: top_frame = T R_zxy");
        check(t, v->velocity[0] == 0.5 && v->velocity[1] == -0.1 && v->velocity[2] == 0.2,
              "NED: body velocity y, z negated", NULL);
        check_close(t, v->angular_velocity[2], -1.8 * kPi / 180.0, 1e-15,
                    "NED: body angular velocity z negated");
        check(t, v->position[1] == 20 && v->position[2] == 0.5 && v->body.r_anchor[1] == 2 &&
                     v->body.z_eq == -0.5 && v->dp.ref.eta0[1] == 20,
              "NED: global values kept", NULL);
        check_close(t, v->rpy[2], kPi / 6.0, 1e-15, "NED: initial yaw kept (global)");
        const PlVesselLoad *L = &v->environment;
        check(t, L->body_frame && L->value[0] == 1 && L->value[1] == -6e5 && L->value[2] == 2 &&
                     L->value[3] == 3 && L->value[4] == 4 && L->value[5] == -1e6,
              "NED: body-frame load y, z negated", NULL);
        check(t, L->table && L->table[7 + 2] == 2 && L->table[7 + 6] == 6e3 && L->table[1] == 1,
              "NED: body-frame time series y, z negated", NULL);
        check_top_end(t, &m, "NED top end");
        PlModelFree(&m);
      }
      /* the total mass matrix instead */
      char *q = strstr(text, "  mass: 6.0e6\n");
      const char *rest = strstr(q, "  linear_damping:");
      const char mm[] = "  mass_matrix:\n"
                        "    - [6e6, 0, 0, 0, 1e6, 0]\n"
                        "    - [0, 7e6, 0, -1e6, 0, 2e6]\n"
                        "    - [0, 0, 8e6, 0, 0, 0]\n"
                        "    - [0, -1e6, 0, 3e8, 0, 0]\n"
                        "    - [1e6, 0, 0, 0, 2e9, 0]\n"
                        "    - [0, 2e6, 0, 0, 0, 2e9]\n";
      const size_t head = (size_t)(q - text);
      char *text2 = malloc(head + sizeof mm + strlen(rest) + 1);
      if (text2) {
        memcpy(text2, text, head);
        strcpy(text2 + head, mm);
        strcat(text2, rest);
        if (load(t, name, text2, 0, NULL, &m, "vessel with mass_matrix loads") == 0) {
          check(t, m.vessel.body.MRB[4] == 1e6 && m.vessel.body.MRB[6 + 3] == -1e6 &&
                       m.vessel.body.MRB[35] == 2e9 && m.vessel.body.MA[7] == 0.0,
                "mass_matrix: MRB = M, MA = 0", NULL);
          PlModelFree(&m);
        }
        const char *const ov3[] = {ov[0]};
        if (load(t, name, text2, 1, ov3, &m, "NED mass_matrix loads") == 0) {
          check(t, m.vessel.body.MRB[4] == -1e6 && m.vessel.body.MRB[6 + 3] == 1e6 &&
                       m.vessel.body.MRB[6 + 5] == 2e6 && m.vessel.body.MRB[14] == 8e6,
                "NED mass_matrix: surge-pitch and sway-roll flip, sway-yaw keeps", NULL);
          PlModelFree(&m);
        }
        const char *const bad[] = {"vessel.added_mass=[[1,0,0,0,0,0],[0,1,0,0,0,0],"
                                   "[0,0,1,0,0,0],[0,0,0,1,0,0],[0,0,0,0,1,0],[0,0,0,0,0,1]]"};
        expect_error(t, name, text2, strlen(text2), 1, bad,
                     "--set:1:1: vessel.added_mass: cannot be combined with 'mass_matrix'",
                     "mass_matrix with added_mass");
        free(text2);
      }
      free(text);
    }
  }

  /* the other references and --set on the new keys */
  const char *const circle[] = {
      "vessel.dp.reference={type: circle, eta: [1, 2, 0, 0, 0, 45], radius: 2.5, period: 10, "
      "start_time: 30, ramp_up: 10, hold: 30, ramp_down: 5, direction: clockwise}",
      "vessel.dp.kp=[1, 2, 3, 4, 5, 6]"};
  if (load(t, name, kVessel, 2, circle, &m, "circle reference loads") == 0) {
    const PlDPReference *r = &m.vessel.dp.ref;
    check(t, r->kind == PL_DP_REF_CIRCLE && r->circle.kind == PL_MOTION_CIRCLE &&
                 r->circle.radius == 2.5 && r->circle.period == 10 && r->circle.start_time == 30 &&
                 r->circle.ramp_up == 10 && r->circle.hold == 30 && r->circle.ramp_down == 5 &&
                 !r->circle.counter_clockwise,
          "circle reference fields", NULL);
    check_close(t, r->eta0[5], kPi / 4.0, 1e-15, "circle eta yaw [rad]");
    check(t, m.vessel.dp.Kp[0] == 1 && m.vessel.dp.Kp[5] == 6, "--set vessel.dp.kp", NULL);
    PlModelFree(&m);
  }
  const char *const line[] = {"vessel.dp.reference={type: line, eta: [1, 2, 0, 0, 0, 0], "
                              "speed: 0.05, course: 30, start_time: 60, ramp_time: 60, "
                              "heading: along_path}"};
  if (load(t, name, kVessel, 1, line, &m, "line reference loads") == 0) {
    const PlDPReference *r = &m.vessel.dp.ref;
    check(t, r->kind == PL_DP_REF_LINE && r->speed == 0.05 && r->course_deg == 30 &&
                 r->start_time == 60 && r->ramp_time == 60 && r->heading_along_path,
          "line reference fields", NULL);
    PlModelFree(&m);
  }
  const char *const wp[] = {"vessel.dp.reference={type: waypoints, eta: [0, 0, 0, 0, 0, 10], "
                            "points: [[0, 0], [500, 0], [800, 300]], speeds: [0.05, 0.03], "
                            "start_time: 60}",
                            "vessel.dp.reference.points[2][1]=350"};
  if (load(t, name, kVessel, 2, wp, &m, "waypoints reference loads") == 0) {
    const PlDPReference *r = &m.vessel.dp.ref;
    check(t, r->kind == PL_DP_REF_WAYPOINTS && r->nwaypoints == 3 && r->waypoint[1][0] == 500 &&
                 r->waypoint[2][0] == 800 && r->waypoint[2][1] == 350 && r->leg_speed[0] == 0.05 &&
                 r->leg_speed[1] == 0.03 && r->start_time == 60 && !r->heading_along_path,
          "waypoints reference fields (heading default fixed)", NULL);
    PlModelFree(&m);
  }

  /* a few errors here (the rest in tests/check_hostile.py) */
  const size_t len = strlen(kVessel);
  const char *const e1[] = {"ends.top={position: [0, 0, 0]}"};
  expect_error(t, name, kVessel, len, 1, e1,
               "--set:1:1: ends.top.position: is not allowed with a vessel",
               "ends.top with a vessel");
  const char *const e2[] = {"vessel.hang_off.connection=hinge"};
  expect_error(t, name, kVessel, len, 1, e2,
               "vessel.yaml:55:5: vessel.hang_off.orientation: is only used by a fixed connection",
               "hinge with orientation");
  const char *const eh[] = {"vessel.hull=[{top: 5, bottom: 10, diameter: 9.4}]"};
  expect_error(t, name, kVessel, len, 1, eh,
               "--set:1:1: vessel.hull[0].bottom: must be below top (5 m), got 10",
               "a hull section upside down");
  const char *const e3[] = {"vessel.dp.reference.points=[[0, 0]]"};
  expect_error(t, name, kVessel, len, 1, e3,
               "--set:1:1: vessel.dp.reference.points: is only used by a waypoints reference "
               "(type is 'fixed')",
               "points of a fixed reference");
  const char *const e4[] = {"vessel.dp.reference={type: waypoints, eta: [0, 0, 0, 0, 0, 0], "
                            "points: [[0, 0]], speeds: []}"};
  expect_error(t, name, kVessel, len, 1, e4,
               "--set:1:1: vessel.dp.reference.points: expected a list of 2 or more points",
               "one waypoint");
  const char *const e5[] = {"analysis={type: static}"};
  expect_error(t, name, kVessel, len, 1, e5,
               "vessel.yaml:50:5: vessel.initial.velocity: is only used by a dynamic analysis",
               "initial velocity in a static analysis");
  const char *const e6[] = {"vessel.environment_load.file=missing.csv"};
  expect_error(t, name, kVessel, len, 1, e6,
               "--set:1:1: vessel.environment_load.file: cannot read 'missing.csv'",
               "missing environment file");
  write_file(dir, "wind_bad.csv", "t,Fx,Fy,Fz\n0,0,0,0\n1,0,0,0\n", 27);
  const char *const e7[] = {"vessel.environment_load.file=wind_bad.csv"};
  expect_error(t, name, kVessel, len, 1, e7,
               "wind_bad.csv:1:11: vessel.environment_load.file: expected the header "
               "'t,Fx,Fy,Fz,Mx,My,Mz', found 't,Fx,Fy,Fz'",
               "environment file with a motion-like header");
  remove_file(dir, "wind_bad.csv");
  const char *const e8[] = {"line.length=800", "line.sections[0].length=800"};
  expect_error(t, name, kVessel, len, 2, e8,
               "line shorter than the ", "line too short to reach the hang-off point");
  remove_file(dir, "wind.csv");
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
 * prefix is "PATH:" when E starts with a digit, nothing when E starts with "--set:", and
 * PATH's directory (with its '/') when E starts with another file's name
 * ("NAME.csv:L:C: key: text", an error inside a file next to the model). Returns 1 when
 * it matches. */
static int matches(const char *msg, const char *path, const char *e)
{
  const char *first = strstr(e, ": ");
  const char *second = first ? strstr(first + 2, ": ") : NULL;
  if (!second) return 0;
  const size_t head = (size_t)(second + 2 - e);
  size_t plen = 0;
  if (e[0] >= '0' && e[0] <= '9') {
    plen = strlen(path) + 1;
    if (strncmp(msg, path, plen - 1) != 0 || msg[plen - 1] != ':') return 0;
  } else if (strncmp(e, "--set:", 6) != 0) {
    const char *slash = strrchr(path, '/');
    plen = slash ? (size_t)(slash - path) + 1 : 0;
    if (strncmp(msg, path, plen) != 0) return 0;
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
    const size_t nlen = strlen(de->d_name);
    if (nlen > 4 && strcmp(de->d_name + nlen - 4, ".csv") == 0) continue; /* data of a model */
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

/* ---- 4b. no fixed capacity: more lines, points, bodies, joints, sections, zones, table rows,
 * output points and route points than a model could once hold, each read whole ------------ */

/* Appends printf-style text to the buffer b (cap bytes, *n used). */
static void cat_fmt(char *b, size_t cap, size_t *n, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  const int k = vsnprintf(b + *n, *n < cap ? cap - *n : 0, fmt, ap);
  va_end(ap);
  if (k > 0) *n += (size_t)k;
}

static void test_counts(Tally *t)
{
  enum { NL = 20, NP = 20, NB = 17, NS = 70, NZ = 70, NT = 300, NO = 40, NR = 70 };
  const size_t cap = 1 << 20;
  char *b = malloc(cap);
  if (!b) return;
  size_t n = 0;
  cat_fmt(b, cap, &n, "name: counts\nenvironment: {water_depth: 100}\nseabed: {model: nonlinear}\n");
  cat_fmt(b, cap, &n, "current:\n  profile: table\n  table: [");
  for (int i = 0; i < NT; ++i) cat_fmt(b, cap, &n, "%s[%g, %g]", i ? ", " : "", -100.0 + 100.0 * i / (NT - 1), 0.001 * i);
  cat_fmt(b, cap, &n, "]\npoints:\n");
  for (int k = 0; k < NP; ++k) cat_fmt(b, cap, &n, "  - {name: p%d, position: [%d, 0, -99.9625], fixed: true}\n", k, 1000 * k);
  cat_fmt(b, cap, &n, "bodies:\n");
  for (int k = 0; k < NB; ++k)
    cat_fmt(b, cap, &n, "  - {name: b%d, mass: 1000, radii_of_gyration: [1, 1, 1], initial: {position: [%d, 50, 0]}}\n",
            k, 1000 * k);
  cat_fmt(b, cap, &n, "joints:\n");
  for (int k = 0; k < NB; ++k)
    cat_fmt(b, cap, &n, "  - {name: j%d, type: spherical, bodies: [b%d, ground], point: [%d, 50, 0]}\n", k, k, 1000 * k);
  cat_fmt(b, cap, &n, "lines:\n");
  for (int l = 0; l < NL; ++l) {
    cat_fmt(b, cap, &n, "  - name: l%d\n    line:\n      length: 140\n      sections:\n", l);
    for (int i = 0; i < (l == 0 ? NS : 1); ++i)
      cat_fmt(b, cap, &n, "        - {length: %g, outer_diameter: 0.1, EA: 5.0e8, EI: 1.0e3, GJ: 1.0e3, "
                          "mass_per_length: %g}\n", 140.0 / (l == 0 ? NS : 1), 60.0 + i);
    cat_fmt(b, cap, &n, "    mesh:\n      elements: 140\n");
    if (l == 0) {
      cat_fmt(b, cap, &n, "      zones:\n");
      for (int z = 0; z < NZ; ++z) cat_fmt(b, cap, &n, "        - {from: %d, to: %g, target_length: 0.5}\n", 2 * z, 2 * z + 1.5);
    }
    cat_fmt(b, cap, &n, "    ends: {bottom: {point: p%d}, top: {position: [%d, 100, 0], fixed: [x, y, z]}}\n", l, 1000 * l);
  }
  cat_fmt(b, cap, &n, "analysis: {type: dynamic, dynamic: {duration: 1}}\noutput:\n  points:\n");
  for (int k = 0; k < NO; ++k) cat_fmt(b, cap, &n, "    - {name: o%d, line: l0, arc_length: %d}\n", k, 3 * k);
  check(t, n < cap, "the counts model fits its buffer", NULL);
  PlModel m;
  if (n < cap && load(t, "counts.yaml", b, 0, NULL, &m, "a model beyond the former caps loads") == 0) {
    check(t, m.nlines == NL && m.npoints == NP && m.nbodies == NB && m.njoints == NB,
          "20 lines, 20 points, 17 bodies, 17 joints", NULL);
    check(t, m.lines[0].nsegments == NS && m.lines[0].nzones == NZ && m.lines[NL - 1].nsegments == 1,
          "70 sections and 70 zones in a line", NULL);
    int ok = 1;
    for (int i = 0; i < NS; ++i)
      ok = ok && m.lines[0].segments[i].section.mass_per_length == 60.0 + i &&
           m.lines[0].segments[i].hydro.drag_normal == 1.0 && m.lines[0].segments[i].hydro.added_mass_normal == 0.0;
    check(t, ok, "each of the 70 sections read, with the default hydrodynamics", NULL);
    check(t, m.lines[0].zones[NZ - 1].s_from == 2.0 * (NZ - 1), "the last zone read", NULL);
    check(t, m.current.ntable == NT && m.current.table_z[NT - 1] == 0.0 && m.current.table_speed[NT - 1] == 0.001 * (NT - 1),
          "300 current table rows", NULL);
    check(t, m.noutput_points == NO && !strcmp(m.output_points[NO - 1].name, "o39") &&
               m.output_points[NO - 1].arc_length == 3.0 * (NO - 1),
          "40 output points", NULL);
    check(t, !strcmp(m.points[NP - 1].name, "p19") && !strcmp(m.bodies[NB - 1].id, "b16") &&
               !strcmp(m.joints[NB - 1].name, "j16") && m.lines[NL - 1].ends[0].point == NP - 1,
          "the last point, body, joint and line read", NULL);
    /* the copy is deep: its arrays are its own, equal to the source's */
    PlModel c;
    if (PlModelCopy(&m, &c) == 0) {
      check(t, c.lines != m.lines && c.lines[0].segments != m.lines[0].segments && c.bodies != m.bodies &&
                   c.current.table_z != m.current.table_z && c.output_points != m.output_points &&
                   !memcmp(c.lines[0].segments, m.lines[0].segments, sizeof *c.lines[0].segments * NS) &&
                   !memcmp(c.current.table_speed, m.current.table_speed, sizeof *c.current.table_speed * NT),
            "PlModelCopy: a deep copy", NULL);
      PlModelFree(&c);
      check(t, m.lines[0].segments[NS - 1].section.mass_per_length == 60.0 + NS - 1, "the source outlives its copy",
            NULL);
    } else {
      check(t, 0, "PlModelCopy of the counts model", NULL);
    }
    /* the one-line model of line 0 owns its arrays: writing into it leaves the source alone */
    PlModel lm;
    if (PlModelLineModel(&m, 0, &lm) == 0) {
      check(t, lm.nsegments == NS && lm.segments != m.lines[0].segments && lm.nzones == NZ && lm.noutput_points == NO,
            "PlModelLineModel: line 0's sections, zones and output points", NULL);
      lm.segments[0].length = -1.0;
      check(t, m.lines[0].segments[0].length == 140.0 / NS, "PlModelLineModel: the source untouched", NULL);
      PlModelFree(&lm);
    } else {
      check(t, 0, "PlModelLineModel of line 0", NULL);
    }
    PlModelFree(&m);
  }
  /* a lay route of 70 points */
  n = 0;
  cat_fmt(b, cap, &n, "lay.route={radius: 10, points: [");
  for (int i = 0; i < NR; ++i) cat_fmt(b, cap, &n, "%s[%d, %d]", i ? ", " : "", 100 * i, (i % 2) * 20);
  cat_fmt(b, cap, &n, "]}");
  const char *const ov[] = {b};
  if (load(t, "valid.yaml", kValid, 1, ov, &m, "a lay route of 70 points loads") == 0) {
    check(t, m.route.n == NR && m.route.p[NR - 1][0] == 100.0 * (NR - 1) && m.route.npieces == 2 * NR - 3,
          "70 route points, their legs and bends", NULL);
    PlModel c;
    if (PlModelCopy(&m, &c) == 0) {
      check(t, c.route.p != m.route.p && c.route.piece != m.route.piece &&
                   !memcmp(c.route.piece, m.route.piece, sizeof *c.route.piece * (size_t)m.route.npieces),
            "PlModelCopy: the route deep", NULL);
      PlModelFree(&c);
    }
    PlModelFree(&m);
  }
  free(b);
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
  PlModelFree(&m);
}

/* ---- the integration defaults of a model of rigid bodies alone -------------------------- */

static const char kBodiesOnly[] =
    "name: a top on a spherical joint\n"
    "environment: {water_depth: 100, gravity: 1}\n"
    "bodies:\n"
    "  - name: top\n"
    "    mass: 1\n"
    "    inertia: [[999, 0, 0], [0, 4999, 0], [0, 0, 6000]]\n"
    "    initial: {position: [0, 0, 1]}\n"
    "joints:\n"
    "  - {name: pivot, type: spherical, bodies: [top, ground], point: [0, 0, 0]}\n"
    "analysis:\n"
    "  type: dynamic\n"
    "  dynamic: {duration: 1}\n";

/* docs/model-file.md: without a line, the tolerances default to a thousandth of the lines'
 * (rtol 1e-7, atol_position 1e-8 m, atol_rotation 1e-8, atol_velocity 1e-6 m/s,
 * atol_angular_velocity 1e-6 rad/s) and max_order to 5; keys given keep their values. */
static void test_bodies_defaults(Tally *t)
{
  PlModel m;
  if (load(t, "bodies.yaml", kBodiesOnly, 0, NULL, &m, "bodies-only model loads") == 0) {
    const PlDynamicSettings *d = &m.analysis.dynamic;
    check(t, d->rtol == 1e-7 && d->atol_position == 1e-8 && d->atol_rotation == 1e-8 && d->atol_velocity == 1e-6 &&
                 d->atol_angular_velocity == 1e-6 && d->max_order == 5,
          "bodies alone: tolerances a thousandth of the lines' defaults, BDF up to order 5", NULL);
    check(t, d->atol_reaction == 1.0 && d->atol_strain == 5e-7 && d->max_steps == 1000000,
          "bodies alone: the other dynamic defaults as the lines'", NULL);
    PlModelFree(&m);
  }
  const char *const ov[] = {"analysis.dynamic.rtol=1e-5", "analysis.dynamic.max_order=2"};
  if (load(t, "bodies.yaml", kBodiesOnly, 2, ov, &m, "bodies-only model with rtol and max_order given") == 0) {
    const PlDynamicSettings *d = &m.analysis.dynamic;
    check(t, d->rtol == 1e-5 && d->max_order == 2 && d->atol_position == 1e-8,
          "bodies alone: keys given override the bodies' defaults, the others stay", NULL);
    PlModelFree(&m);
  }
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
  char tmp[1024];
  const char *tmpdir = getenv("TMPDIR");
  snprintf(tmp, sizeof tmp, "%s/pipelay_loader_XXXXXX", tmpdir && tmpdir[0] ? tmpdir : "/tmp");
  if (mkdtemp(tmp)) {
    test_dynamic(&t, tmp);
    test_vessel(&t, tmp);
    rmdir(tmp);
  } else {
    check(&t, 0, "create a temporary directory", tmp);
  }
  test_bad_models(&t, argv[1]);
  test_bodies_defaults(&t);
  test_limits(&t);
  test_counts(&t);
  test_example(&t, example);
  if (t.failed) {
    fprintf(stderr, "test_loader: %d of %d checks failed\n", t.failed, t.checked);
    return 1;
  }
  printf("test_loader: all %d checks passed\n", t.checked);
  return 0;
}
