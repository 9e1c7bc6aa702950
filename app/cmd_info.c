/*
 * cmd_info.c - "pipelay info FILE [--set key.path=value]...": the model as the program
 * understands it, without solving anything.
 *
 * Prints, with units: the environment; per section the derived properties of
 * materials.h (EA, EI2, EI3, GJ, GA2, GA3, mass per length m_p, submerged weight per length
 * w = (m_p - rho_w pi d_o^2/4) g (eq 5.33), outer and hydrodynamic diameter) and its
 * elements (count, min/max/mean length); the mesh; the seabed; the ends (held DOFs,
 * positions, forces, moments); the analysis. One "label value unit" per line, so that
 * scripts can read it. A model error prints the same "FILE:LINE:COL: key: ..." line as
 * "pipelay run" and returns 2.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "pipelay/meshes.h"
#include "pipelay/solver.h"

static void Line(const char *label, double v, const char *unit)
{
  printf("    %-28s %.10g %s\n", label, v, unit);
}

static void PrintVector(const char *label, const double v[3], const bool *given, const char *unit)
{
  printf("    %-28s [", label);
  for (int c = 0; c < 3; ++c) {
    if (given && !given[c]) printf("%sfree", c ? ", " : "");
    else printf("%s%.10g", c ? ", " : "", v[c]);
  }
  printf("] %s\n", unit);
}

static const char *MotionName(int kind)
{
  switch (kind) {
  case PL_MOTION_HARMONIC: return "harmonic";
  case PL_MOTION_CIRCLE: return "circle";
  case PL_MOTION_TIMESERIES: return "timeseries";
  default: return "none";
  }
}

static void PrintEnd(const char *name, const PlEnd *e, int dynamic)
{
  static const char *const dof[6] = {"x", "y", "z", "rx", "ry", "rz"};
  printf("  end %s\n", name);
  printf("    %-28s", "held DOFs");
  int nheld = 0;
  for (int d = 0; d < 6; ++d)
    if (e->fixed[d]) printf(" %s", dof[d]), ++nheld;
  printf("%s\n", nheld ? "" : " none");
  PrintVector("position", e->position, e->has_position, "m (global; free: found by the solve)");
  if (e->has_orientation) {
    const double t1[3] = {e->orientation[0], e->orientation[3], e->orientation[6]};
    PrintVector("frame axis t1", t1, NULL, "(global, from the given orientation)");
  } else printf("    %-28s from the initial guess\n", "frame");
  PrintVector("force", e->force, NULL, "N (global, dead load)");
  PrintVector("moment", e->moment, NULL, "N m (global, dead load)");
  if (dynamic) printf("    %-28s %s\n", "prescribed motion", MotionName(e->motion.kind));
}

int PlCmdInfo(int argc, char **argv)
{
  const char *file = NULL;
  const char **sets = calloc(argc > 0 ? (size_t)argc : 1, sizeof *sets);
  int nsets = 0;
  if (!sets) {
    fprintf(stderr, "pipelay: out of memory\n");
    return PL_EXIT_FAILURE;
  }
  for (int i = 2; i < argc; ++i) {
    if (!strcmp(argv[i], "--set")) {
      if (i + 1 >= argc) {
        fprintf(stderr, "pipelay: --set needs a value\n");
        free(sets);
        return PL_EXIT_BAD_INPUT;
      }
      sets[nsets++] = argv[++i];
    } else if (!file && argv[i][0] != '-') file = argv[i];
    else {
      fprintf(stderr, "pipelay: unknown argument '%s'\nusage: pipelay info FILE [--set key.path=value]...\n", argv[i]);
      free(sets);
      return PL_EXIT_BAD_INPUT;
    }
  }
  if (!file) {
    fprintf(stderr, "usage: pipelay info FILE [--set key.path=value]...\n");
    free(sets);
    return PL_EXIT_BAD_INPUT;
  }
  PlModel *m = calloc(1, sizeof *m);
  PlError err;
  PlMesh mesh;
  memset(&mesh, 0, sizeof mesh);
  int rc = m ? PlModelLoad(file, nsets, sets, m, &err) : PL_EXIT_FAILURE;
  free(sets);
  if (rc) {
    fprintf(stderr, "%s\n", m ? err.msg : "pipelay: out of memory");
    PlModelFree(m);
    free(m);
    return rc;
  }
  for (int k = 0; k < m->nwarnings; ++k) fprintf(stderr, "%s\n", m->warnings[k]);
  if (m->rigid_body) {
    printf("pipelay info: %s (%s)\n  a rigid body alone (a vessel without a line): mass matrix M_RB + M_A,\n"
           "  damping and restoring as given; nothing of a line to report\n", m->name, file);
    PlModelFree(m);
    free(m);
    return 0;
  }
  if (PlMeshCreate(m, &mesh)) {
    fprintf(stderr, "pipelay: %s: the mesh cannot be built (more than 10 million nodes, or out of memory)\n", file);
    PlModelFree(m);
    free(m);
    return PL_EXIT_BAD_INPUT;
  }

  printf("pipelay %s: model %s\n", PIPELAY_VERSION, m->source_path);
  printf("  name: %s\n", m->name);
  const int dynamic = m->analysis.kind == PL_ANALYSIS_DYNAMIC;
  printf("  analysis: %s\n", dynamic ? "dynamic (from the static solution)" : "static");

  printf("  environment\n");
  Line("water depth", m->water_depth, "m (seabed at z = -depth)");
  Line("water density rho_w", m->water_density, "kg/m^3");
  Line("gravity g", m->gravity, "m/s^2");

  printf("  line\n");
  Line("length", m->length, "m (unstretched)");
  printf("    %-28s %d\n", "sections", m->nsegments);
  double S0 = 0.0;
  for (int k = 0; k < m->nsegments; ++k) {
    const PlSegment *g = &m->segments[k];
    const PlSection *s = &g->section;
    int ne = 0;
    double lmin = INFINITY, lmax = 0.0, lsum = 0.0;
    for (int e = 0; e < mesh.nelements; ++e) {
      if (mesh.segment[e] != k) continue;
      const double l = mesh.S[e + 1] - mesh.S[e];
      ++ne;
      lmin = fmin(lmin, l);
      lmax = fmax(lmax, l);
      lsum += l;
    }
    printf("  section %d: S = %.10g .. %.10g m\n", k + 1, S0, S0 + g->length);
    S0 += g->length;
    Line("length", g->length, "m");
    Line("outer diameter d_o", s->outer_diameter, "m");
    Line("hydrodynamic diameter", s->hydro_diameter, "m");
    if (s->wall_thickness > 0.0) Line("wall thickness", s->wall_thickness, "m");
    if (s->steel_area > 0.0) Line("steel area A", s->steel_area, "m^2");
    Line("EA", s->EA, "N");
    Line("EI2", s->EI[0], "N m^2");
    Line("EI3", s->EI[1], "N m^2");
    Line("GJ", s->GJ, "N m^2");
    Line("GA2", s->GA[0], "N");
    Line("GA3", s->GA[1], "N");
    Line("mass per length m_p", s->mass_per_length, "kg/m");
    Line("rotary inertia J1", s->inertia[0], "kg m");
    Line("rotary inertia J2", s->inertia[1], "kg m");
    Line("rotary inertia J3", s->inertia[2], "kg m");
    Line("submerged weight w", PlSectionSubmergedWeight(s, m->water_density, m->gravity),
         "N/m  (m_p - rho_w pi d_o^2/4) g");
    printf("    %-28s %d\n", "elements", ne);
    if (ne) {
      Line("element length min", lmin, "m");
      Line("element length max", lmax, "m");
      Line("element length mean", lsum / ne, "m");
    }
  }

  printf("  mesh\n");
  printf("    %-28s %d\n", "nodes", mesh.nnodes);
  printf("    %-28s %d\n", "elements", mesh.nelements);
  double lmin = INFINITY, lmax = 0.0;
  for (int e = 0; e < mesh.nelements; ++e) {
    lmin = fmin(lmin, mesh.S[e + 1] - mesh.S[e]);
    lmax = fmax(lmax, mesh.S[e + 1] - mesh.S[e]);
  }
  if (mesh.nelements) {
    Line("element length min", lmin, "m");
    Line("element length max", lmax, "m");
    Line("element length mean", mesh.S[mesh.nnodes - 1] / mesh.nelements, "m");
  }
  printf("    %-28s %s\n", "rotations", m->rotation == PL_ROT_QUATERNION ? "quaternion" : "euler_zxy");

  printf("  seabed\n");
  if (m->seabed == PL_SEABED_NONE) printf("    %-28s none\n", "model");
  else if (m->seabed == PL_SEABED_NONLINEAR) printf("    %-28s nonlinear (eq 5.38)\n", "model");
  else {
    printf("    %-28s linear\n", "model");
    Line("stiffness", m->seabed_stiffness, "N/m^2");
  }

  PrintEnd("bottom (S = 0)", &m->ends[0], dynamic);
  PrintEnd("top (S = L)", &m->ends[1], dynamic);

  printf("  analysis\n");
  printf("    %-28s %s\n", "type", dynamic ? "dynamic" : "static");
  printf("    %-28s %s\n", "initial guess", m->analysis.initial_guess == PL_GUESS_CATENARY ? "catenary" : "straight");
  printf("    %-28s %d\n", "load steps", m->analysis.load_steps);
  printf("    %-28s %d\n", "max cut-backs", m->analysis.max_cutbacks);
  printf("    %-28s %d\n", "max Newton iterations", m->analysis.max_iterations);
  Line("relative tolerance", m->analysis.rtol, "-");
  if (m->analysis.atol > 0.0) Line("absolute tolerance", m->analysis.atol, "N");
  else printf("    %-28s automatic\n", "absolute tolerance");
  if (dynamic) {
    Line("duration", m->analysis.dynamic.duration, "s");
    Line("output interval", m->analysis.dynamic.output_interval, "s");
    printf("    %-28s", "output points");
    for (int k = 0; k < m->noutput_points; ++k)
      printf(" %s (S = %.10g m)", m->output_points[k].name, m->output_points[k].arc_length);
    printf("%s\n", m->noutput_points ? "" : " none (bottom and top only)");
  }
  printf("  output directory: %s\n", m->output_dir);

  PlMeshDestroy(&mesh);
  PlModelFree(m);
  free(m);
  return PL_EXIT_OK;
}
