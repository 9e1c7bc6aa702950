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
  if (!dynamic) return;
  const PlMotion *mo = &e->motion;
  printf("    %-28s %s\n", "prescribed motion", MotionName(mo->kind));
  if (mo->kind == PL_MOTION_HARMONIC) {
    Line("start time", mo->start_time, "s");
    Line("ramp time", mo->ramp_time, "s");
    for (int d = 0; d < 6; ++d)
      if (mo->harmonic_dof[d])
        printf("    %-28s amplitude %.10g %s, period %.10g s, phase %.10g deg\n", dof[d], mo->harmonic[d].amplitude,
               d < 3 ? "m" : "deg", mo->harmonic[d].period, mo->harmonic[d].phase_deg);
  } else if (mo->kind == PL_MOTION_CIRCLE) {
    Line("radius", mo->radius, "m");
    Line("period", mo->period, "s");
    Line("start time", mo->start_time, "s");
    printf("    %-28s %.10g, %.10g, %.10g s\n", "ramp up, hold, ramp down", mo->ramp_up, mo->hold, mo->ramp_down);
    printf("    %-28s %s\n", "direction", mo->counter_clockwise ? "counter-clockwise" : "clockwise");
  } else if (mo->kind == PL_MOTION_TIMESERIES) {
    printf("    %-28s %s\n", "file", mo->file);
    printf("    %-28s %d (t = %.10g .. %.10g s), %s\n", "rows", mo->nrows, mo->nrows ? mo->table[0] : 0.0,
           mo->nrows ? mo->table[7 * (mo->nrows - 1)] : 0.0, mo->ncols == 7 ? "positions and rotations" : "positions");
    printf("    %-28s %s\n", "interpolation", mo->cubic ? "cubic (C^1)" : "linear");
  }
}

static void PrintCurrent(const PlModel *m)
{
  static const char *const kind[] = {"none (still water)", "uniform", "sheared", "table"};
  const PlCurrent *c = &m->current;
  printf("  current\n");
  printf("    %-28s %s\n", "profile", kind[c->kind]);
  if (c->kind == PL_CURRENT_NONE) return;
  Line("direction", c->direction_deg, "deg (flowing towards, from +x to +y)");
  if (c->kind == PL_CURRENT_UNIFORM) Line("speed", c->speed, "m/s");
  if (c->kind == PL_CURRENT_SHEARED) {
    Line("surface speed", c->surface_speed, "m/s");
    Line("seabed speed", c->seabed_speed, "m/s");
  }
  for (int k = 0; c->kind == PL_CURRENT_TABLE && k < c->ntable; ++k)
    printf("    %-28s z %.10g m: %.10g m/s\n", k ? "" : "table", c->table_z[k], c->table_speed[k]);
  Line("start time", c->start_time, "s");
  Line("ramp time", c->ramp_time, "s");
  printf("    %-28s %s\n", "acts in", "statics (settled; before a dynamic run: at t = 0) and dynamics");
}

static void PrintVessel(const PlModel *m)
{
  const PlVesselModel *v = &m->vessel;
  if (!v->present) return;
  printf("  vessel: %s\n", v->name);
  Line("mass (M_RB 11)", v->body.MRB[0], "kg");
  printf("    %-28s %.10g, %.10g, %.10g kg m^2\n", "inertia (M_RB 44, 55, 66)", v->body.MRB[21], v->body.MRB[28],
         v->body.MRB[35]);
  printf("    %-28s %.10g, %.10g, %.10g kg\n", "added mass (M_A 11, 22, 33)", v->body.MA[0], v->body.MA[7], v->body.MA[14]);
  PrintVector("initial position O_b", v->position, NULL, "m (global)");
  const double r2d = 180.0 / M_PI, rpy[3] = {v->rpy[0] * r2d, v->rpy[1] * r2d, v->rpy[2] * r2d};
  PrintVector("initial roll, pitch, yaw", rpy, NULL, "deg");
  PrintVector("hang-off point", v->hang_off, NULL, "m (body frame, from O_b)");
  printf("    %-28s %s\n", "connection", v->connection == PL_HANGOFF_HINGE ? "hinge" : "fixed");
  Line("waterplane area", v->body.Awp, "m^2");
  printf("    %-28s %.10g, %.10g m\n", "GM_T, GM_L", v->body.GM_T, v->body.GM_L);
  if (!v->has_dp) {
    printf("    %-28s none\n", "DP controller");
    return;
  }
  static const char *const ref[] = {"fixed", "circle", "line", "waypoints"};
  const PlDPController *c = &v->dp;
  printf("    %-28s %s reference, start %.10g s, ramp %.10g s\n", "DP controller", ref[c->ref.kind], c->start_time,
         c->ramp_time);
  printf("    %-28s %.6g, %.6g, %.6g N/m; %.6g N m/rad (yaw)\n", "Kp surge, sway, heave", c->Kp[0], c->Kp[1], c->Kp[2],
         c->Kp[5]);
  printf("    %-28s %.6g, %.6g, %.6g N s/m; %.6g N m s/rad (yaw)\n", "Kd", c->Kd[0], c->Kd[1], c->Kd[2], c->Kd[5]);
  printf("    %-28s %.6g, %.6g, %.6g N/(m s); %.6g N m/(rad s) (yaw)\n", "Ki", c->Ki[0], c->Ki[1], c->Ki[2], c->Ki[5]);
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
    if (g->buoyant) printf("    %-28s yes (may float)\n", "buoyant");
    Line("drag coefficient normal", g->hydro.drag_normal, "- (C_dn)");
    Line("drag coefficient tangential", g->hydro.drag_tangential, "- (C_dt)");
    Line("added mass normal", g->hydro.added_mass_normal, "- (C_an, dynamics)");
    Line("added mass tangential", g->hydro.added_mass_tangential, "- (C_at, dynamics)");
    PrintVector("rotational damping", g->hydro.rotational_damping, NULL, "N s (D4, D5, D6, dynamics)");
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
  PrintCurrent(m);
  PrintVessel(m);

  printf("  analysis\n");
  printf("    %-28s %s\n", "type", dynamic ? "dynamic" : "static");
  if (m->analysis.initial_guess == PL_GUESS_RESULTS)
    printf("    %-28s the static shape in %s\n", "start shape", m->analysis.start_from);
  else
    printf("    %-28s %s\n", "start shape", m->analysis.initial_guess == PL_GUESS_CATENARY ? "elastic catenary" : "straight");
  printf("    %-28s %d\n", "load steps", m->analysis.load_steps);
  printf("    %-28s %d\n", "max cut-backs", m->analysis.max_cutbacks);
  printf("    %-28s %d\n", "max Newton iterations", m->analysis.max_iterations);
  Line("relative tolerance", m->analysis.rtol, "-");
  if (m->analysis.atol > 0.0) Line("absolute tolerance", m->analysis.atol, "N");
  else printf("    %-28s automatic\n", "absolute tolerance");
  if (dynamic) {
    const PlDynamicSettings *d = &m->analysis.dynamic;
    Line("duration", d->duration, "s");
    Line("output interval", d->output_interval, "s");
    Line("IDA relative tolerance", d->rtol, "-");
    Line("atol position", d->atol_position, "m");
    Line("atol strain", d->atol_strain, "- (x element length)");
    Line("atol rotation", d->atol_rotation, "-");
    Line("atol velocity", d->atol_velocity, "m/s, rad/s");
    if (d->max_step > 0.0) Line("max step", d->max_step, "s");
    else printf("    %-28s none\n", "max step");
    if (d->initial_step > 0.0) Line("initial step", d->initial_step, "s");
    else printf("    %-28s IDA's choice\n", "initial step");
    printf("    %-28s %d\n", "max BDF order", d->max_order);
    printf("    %-28s %d\n", "max steps", d->max_steps);
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
