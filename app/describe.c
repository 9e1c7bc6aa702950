/*
 * describe.c - the model as the program understands it, as text: what "pipelay info" prints
 * and what a restart file records (PlDescribeModel).
 *
 * Prints, with units: the environment; per section the derived properties of
 * materials.h (EA, EI2, EI3, GJ, GA2, GA3, mass per length m_p, submerged weight per length
 * w = (m_p - rho_w pi d_o^2/4) g (eq 5.33), outer and hydrodynamic diameter), its
 * hydrodynamic coefficients and its elements (count, min/max/mean length); the mesh; the
 * seabed; the ends (held DOFs, positions, forces, moments, motions, with a checksum of a
 * time series' rows); the current; the waves (each train, the realised sea); the vessel; the
 * analysis. One "label value unit" per
 * line, so that scripts can read it.
 *
 * With fingerprint set, the lines that do not change the solution up to a given time are
 * left out (the model file's path, the name, the duration, the output directory): the text
 * a restart compares (solver/dynamic_run.c), so that a run can be continued with a longer
 * duration but not with anything else changed.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "describe.h"
#include "pipelay/fatigue.h"
#include "pipelay/waves.h"

static void Line(FILE *out, const char *label, double v, const char *unit)
{
  fprintf(out, "    %-28s %.10g %s\n", label, v, unit);
}

static void PrintVector(FILE *out, const char *label, const double v[3], const bool *given, const char *unit)
{
  fprintf(out, "    %-28s [", label);
  for (int c = 0; c < 3; ++c) {
    if (given && !given[c]) fprintf(out, "%sfree", c ? ", " : "");
    else fprintf(out, "%s%.10g", c ? ", " : "", v[c]);
  }
  fprintf(out, "] %s\n", unit);
}

static const char *MotionName(int kind)
{
  switch (kind) {
  case PL_MOTION_HARMONIC: return "harmonic";
  case PL_MOTION_CIRCLE: return "circle";
  case PL_MOTION_TIMESERIES: return "timeseries";
  case PL_MOTION_ROUTE: return "route";
  default: return "none";
  }
}

static void PrintEnd(FILE *out, const char *name, const PlEnd *e, int dynamic)
{
  static const char *const dof[6] = {"x", "y", "z", "rx", "ry", "rz"};
  fprintf(out, "  end %s\n", name);
  fprintf(out, "    %-28s", "held DOFs");
  int nheld = 0;
  for (int d = 0; d < 6; ++d)
    if (e->fixed[d]) fprintf(out, " %s", dof[d]), ++nheld;
  fprintf(out, "%s\n", nheld ? "" : " none");
  PrintVector(out, "position", e->position, e->has_position, "m (global; free: found by the solve)");
  if (e->has_orientation) {
    const double t1[3] = {e->orientation[0], e->orientation[3], e->orientation[6]};
    PrintVector(out, "frame axis t1", t1, NULL, "(global, from the given orientation)");
  } else fprintf(out, "    %-28s from the initial guess\n", "frame");
  PrintVector(out, "force", e->force, NULL, e->target ? "N (global, dead load; the start: its magnitude is solved)"
                                                      : "N (global, dead load)");
  if (e->target == PL_TARGET_TENSION) Line(out, "target top tension", e->target_value, "N (the force scaled to it)");
  if (e->target == PL_TARGET_ANGLE)
    Line(out, "target hang-off angle", e->target_value * 180.0 / M_PI, "deg from the horizontal (the force scaled)");
  PrintVector(out, "moment", e->moment, NULL, "N m (global, dead load)");
  if (!dynamic) return;
  const PlMotion *mo = &e->motion;
  fprintf(out, "    %-28s %s\n", "prescribed motion", MotionName(mo->kind));
  if (mo->kind == PL_MOTION_HARMONIC) {
    Line(out, "start time", mo->start_time, "s");
    Line(out, "ramp time", mo->ramp_time, "s");
    for (int d = 0; d < 6; ++d)
      if (mo->harmonic_dof[d])
        fprintf(out, "    %-28s amplitude %.10g %s, period %.10g s, phase %.10g deg\n", dof[d], mo->harmonic[d].amplitude,
               d < 3 ? "m" : "deg", mo->harmonic[d].period, mo->harmonic[d].phase_deg);
  } else if (mo->kind == PL_MOTION_CIRCLE) {
    Line(out, "radius", mo->radius, "m");
    Line(out, "period", mo->period, "s");
    Line(out, "start time", mo->start_time, "s");
    fprintf(out, "    %-28s %.10g, %.10g, %.10g s\n", "ramp up, hold, ramp down", mo->ramp_up, mo->hold, mo->ramp_down);
    fprintf(out, "    %-28s %s\n", "direction", mo->counter_clockwise ? "counter-clockwise" : "clockwise");
  } else if (mo->kind == PL_MOTION_TIMESERIES) {
    fprintf(out, "    %-28s %s\n", "file", mo->file);
    fprintf(out, "    %-28s %d (t = %.10g .. %.10g s), %s\n", "rows", mo->nrows, mo->nrows ? mo->table[0] : 0.0,
           mo->nrows ? mo->table[7 * (mo->nrows - 1)] : 0.0, mo->ncols == 7 ? "positions and rotations" : "positions");
    fprintf(out, "    %-28s %s\n", "interpolation", mo->cubic ? "cubic (C^1)" : "linear");
    uint64_t h = 1469598103934665603ull; /* FNV-1a of the rows as read */
    const unsigned char *b = (const unsigned char *)mo->table;
    for (size_t k = 0; k < sizeof(double) * 7 * (size_t)mo->nrows; ++k) h = (h ^ b[k]) * 1099511628211ull;
    fprintf(out, "    %-28s %016llx\n", "rows checksum (FNV-1a)", (unsigned long long)h);
  }
  if (!e->payout) return;
  if (e->payout_tension) {
    fprintf(out, "    %-28s tension control from t = %.10g s\n", "pay-out", e->payout_start);
    Line(out, "set tension", e->tension_set, "N");
    Line(out, "gain", e->tension_gain, "m/s per N");
    Line(out, "max rate", e->tension_max_rate, "m/s");
    Line(out, "lag", e->tension_lag, "s");
    Line(out, "sample interval", e->tension_interval, "s");
    Line(out, "load cell filter", e->tension_filter, "s");
  } else {
    fprintf(out, "    %-28s %.10g m/s from t = %.10g s, ramp %.10g s\n", "pay-out rate", e->payout_rate, e->payout_start,
            e->payout_ramp);
  }
}

static void PrintCurrent(FILE *out, const PlModel *m)
{
  static const char *const kind[] = {"none (still water)", "uniform", "sheared", "table"};
  const PlCurrent *c = &m->current;
  fprintf(out, "  current\n");
  fprintf(out, "    %-28s %s\n", "profile", kind[c->kind]);
  if (c->kind == PL_CURRENT_NONE) return;
  Line(out, "direction", c->direction_deg, "deg (flowing towards, from +x to +y)");
  if (c->kind == PL_CURRENT_UNIFORM) Line(out, "speed", c->speed, "m/s");
  if (c->kind == PL_CURRENT_SHEARED) {
    Line(out, "surface speed", c->surface_speed, "m/s");
    Line(out, "seabed speed", c->seabed_speed, "m/s");
  }
  for (int k = 0; c->kind == PL_CURRENT_TABLE && k < c->ntable; ++k)
    fprintf(out, "    %-28s z %.10g m: %.10g m/s\n", k ? "" : "table", c->table_z[k], c->table_speed[k]);
  Line(out, "start time", c->start_time, "s");
  Line(out, "ramp time", c->ramp_time, "s");
  fprintf(out, "    %-28s %s\n", "acts in", "statics (settled; before a dynamic run: at t = 0) and dynamics");
}

/* One wave train's parameters as given (PlWaveTrain; the defaults PlWavesCreate applies to a 0 are
 * shown as such). */
static void PrintTrain(FILE *out, int k, const PlWaveTrain *tr)
{
  static const char *const kind[] = {"airy (linear regular)", "stream (stream-function regular)", "jonswap",
                                     "pm (Pierson-Moskowitz)", "table (spectrum S(omega))", "series (measured record)"};
  fprintf(out, "    train %-22d %s\n", k + 1, kind[tr->kind]);
  Line(out, "heading", tr->heading_deg, "deg (travelling towards, from +x to +y)");
  if (tr->kind == PL_WAVE_AIRY || tr->kind == PL_WAVE_STREAM) {
    if (tr->amplitude > 0.0) Line(out, "amplitude", tr->amplitude, "m");
    else Line(out, "height", tr->height, "m");
    Line(out, "period", tr->period, "s");
    Line(out, "phase", tr->phase_deg, "deg");
    if (tr->kind == PL_WAVE_STREAM) {
      if (tr->stream_terms) fprintf(out, "    %-28s %d\n", "Fourier terms", tr->stream_terms);
      else fprintf(out, "    %-28s %s\n", "Fourier terms", "automatic");
    }
    return;
  }
  if (tr->kind == PL_WAVE_SERIES) {
    fprintf(out, "    %-28s %d at dt %.10g s from t0 %.10g s\n", "record", tr->n_series, tr->series_dt, tr->series_t0);
    fprintf(out, "    %-28s [%.10g, %.10g] m (global)\n", "measured at", tr->ref_x, tr->ref_y);
    if (tr->series_omega_max > 0.0) Line(out, "harmonics up to", tr->series_omega_max, "rad/s");
    else fprintf(out, "    %-28s %s\n", "harmonics up to", "Nyquist");
    return;
  }
  if (tr->kind != PL_WAVE_TABLE) {
    Line(out, "Hs", tr->hs, "m");
    Line(out, "Tp", tr->tp, "s");
  }
  if (tr->kind == PL_WAVE_JONSWAP) {
    if (tr->gamma > 0.0) Line(out, "gamma", tr->gamma, "");
    else fprintf(out, "    %-28s %.10g (DNV's rule from Hs, Tp)\n", "gamma", PlJonswapGamma(tr->hs, tr->tp));
    fprintf(out, "    %-28s %.10g, %.10g\n", "sigma_a, sigma_b", tr->sigma_a, tr->sigma_b);
  }
  for (int r = 0; tr->kind == PL_WAVE_TABLE && r < tr->n_table; ++r)
    fprintf(out, "    %-28s omega %.10g rad/s: %.10g m^2 s/rad\n", r ? "" : "table", tr->table_omega[r], tr->table_s[r]);
  fprintf(out, "    %-28s %d x %d directions (cos^2s, s = %.10g)\n", "components", tr->n_components, tr->n_directions,
          tr->n_directions > 1 ? tr->spreading_s : 0.0);
  if (tr->omega_min > 0.0 || tr->omega_max > 0.0)
    fprintf(out, "    %-28s %.10g to %.10g rad/s (0: the default)\n", "omega range", tr->omega_min, tr->omega_max);
  fprintf(out, "    %-28s %llu, %s amplitudes\n", "seed", (unsigned long long)tr->seed, tr->rayleigh ? "Rayleigh" : "equal");
}

/* The sea of waves: its trains and what PlWavesCreate made of them (the realised m0 and Hs, the
 * stream-function solution). */
static void PrintSea(FILE *out, const PlModel *m)
{
  static const char *const st[] = {"vertical", "wheeler", "extrapolation"};
  const PlSea *s = &m->sea;
  if (!s->ntrains) {
    fprintf(out, "  waves                          none (calm sea)\n");
    return;
  }
  fprintf(out, "  waves\n");
  fprintf(out, "    %-28s %s\n", "stretching", st[s->stretching]);
  Line(out, "ramp time", s->ramp_time, "s (0: none)");
  for (int k = 0; k < s->ntrains; ++k) PrintTrain(out, k, &s->trains[k]);
  char msg[PL_ERRMSG_MAX];
  PlWaves *w = PlWavesCreate(m->water_depth, m->gravity, m->water_density, s->stretching, s->trains, s->ntrains, msg,
                             sizeof msg);
  if (w) {
    PlWavesInfo in;
    PlWavesGetInfo(w, &in);
    if (in.n_components)
      fprintf(out, "    %-28s %d linear components, m0 %.10g m^2, Hs = 4 sqrt(m0) %.10g m\n", "realised sea",
              in.n_components, in.m0, 4.0 * sqrt(in.m0));
    if (in.stream)
      fprintf(out, "    %-28s k %.10g 1/m, c %.10g m/s, crest %.10g m, trough %.10g m, %d terms\n", "stream function",
              in.k, in.c, in.crest, in.trough, in.stream_terms);
    PlWavesDestroy(w);
  } else fprintf(out, "    %-28s %s\n", "not built", msg);
  for (int k = 0; k < s->nprobes; ++k)
    fprintf(out, "    %-28s [%.10g, %.10g] m (global)\n", k ? "" : "probes (waves.csv)", s->probes[k][0], s->probes[k][1]);
  fprintf(out, "    %-28s %s\n", "acts in", "dynamics only (the statics: calm water and the current)");
}

/* A body: the vessel at the top of a line (on_line) or a body of a model without one. */
static void PrintBody(FILE *out, const PlVesselModel *v, int on_line)
{
  if (!v->present) return;
  if (on_line) fprintf(out, "  vessel: %s\n", v->name);
  else fprintf(out, "  body %s%s%s\n", v->id, strcmp(v->id, v->name) && v->name[0] ? ": " : "",
               strcmp(v->id, v->name) ? v->name : "");
  Line(out, "mass (M_RB 11)", v->body.MRB[0], "kg");
  fprintf(out, "    %-28s %.10g, %.10g, %.10g kg m^2\n", "inertia (M_RB 44, 55, 66)", v->body.MRB[21], v->body.MRB[28],
         v->body.MRB[35]);
  fprintf(out, "    %-28s %.10g, %.10g, %.10g kg\n", "added mass (M_A 11, 22, 33)", v->body.MA[0], v->body.MA[7], v->body.MA[14]);
  PrintVector(out, "initial position O_b", v->position, NULL, "m (global)");
  const double r2d = 180.0 / M_PI, rpy[3] = {v->rpy[0] * r2d, v->rpy[1] * r2d, v->rpy[2] * r2d};
  PrintVector(out, "initial roll, pitch, yaw", rpy, NULL, "deg");
  if (on_line) {
    PrintVector(out, "hang-off point", v->hang_off, NULL, "m (body frame, from O_b)");
    fprintf(out, "    %-28s %s\n", "connection", v->connection == PL_HANGOFF_HINGE ? "hinge" : "fixed");
  } else {
    PrintVector(out, "initial velocity", v->velocity, NULL, "m/s (body frame)");
    const double w[3] = {v->angular_velocity[0] * r2d, v->angular_velocity[1] * r2d, v->angular_velocity[2] * r2d};
    PrintVector(out, "initial angular velocity", w, NULL, "deg/s (body frame)");
    PrintVector(out, "reported body point", v->hang_off, NULL, "m (body frame, from O_b)");
  }
  if (v->body.weight_mass > 0.0) {
    Line(out, "weight", v->body.weight_mass * v->body.gravity, "N (at the centre of gravity)");
    PrintVector(out, "centre of gravity", v->body.r_g, NULL, "m (body frame, from O_b)");
  } else
    fprintf(out, "    %-28s none (floating: in the restoring law)\n", "weight");
  Line(out, "waterplane area", v->body.Awp, "m^2");
  fprintf(out, "    %-28s %.10g, %.10g m\n", "GM_T, GM_L", v->body.GM_T, v->body.GM_L);
  Line(out, "displacement", v->body.displacement, "kg (0: no roll/pitch restoring)");
  const double *D = v->body.Dp, *Q = v->body.Dq;
  fprintf(out, "    %-28s %.6g, %.6g, %.6g N s/m; %.6g, %.6g, %.6g N m s\n", "linear damping (diagonal)", D[0], D[7],
          D[14], D[21], D[28], D[35]);
  fprintf(out, "    %-28s %.6g, %.6g, %.6g N s^2/m^2; %.6g, %.6g, %.6g N m s^2\n", "quadratic damping", Q[0], Q[1], Q[2],
          Q[3], Q[4], Q[5]);
  const PlVesselLoad *L = &v->environment;
  fprintf(out, "    %-28s %s frame: %.6g, %.6g, %.6g N; %.6g, %.6g, %.6g N m\n", "environment load",
          L->body_frame ? "body" : "global", L->value[0], L->value[1], L->value[2], L->value[3], L->value[4], L->value[5]);
  fprintf(out, "    %-28s start %.10g s, ramp %.10g s; time series: %d rows\n", "environment load timing", L->start_time,
          L->ramp_time, L->nrows);
  if (v->rao.nh > 0) {
    fprintf(out, "    %-28s %d headings x %d periods (%.10g to %.10g s), speed %.10g m/s\n", "displacement RAOs", v->rao.nh,
            v->rao.np, v->rao.block[v->rao.nh], v->rao.block[v->rao.nh + v->rao.np - 1], v->rao.speed);
    PrintVector(out, "RAO origin", v->rao.origin, NULL, "m (body frame, from O_b)");
    PrintVector(out, "RAO phase origin", v->rao.phase_origin, NULL, "m (body frame, from O_b)");
  } else
    fprintf(out, "    %-28s none\n", "displacement RAOs");
  if (v->excitation.nh > 0) {
    fprintf(out, "    %-28s %d headings x %d periods (%.10g to %.10g s), speed %.10g m/s\n", "wave excitation",
            v->excitation.nh, v->excitation.np, v->excitation.block[v->excitation.nh],
            v->excitation.block[v->excitation.nh + v->excitation.np - 1], v->excitation.speed);
    PrintVector(out, "excitation origin", v->excitation.origin, NULL, "m (body frame, from O_b)");
  }
  Line(out, "norm rate", v->body.norm_rate, "1/s (attitude unit-norm term)");
  if (!v->has_dp) {
    fprintf(out, "    %-28s none\n", "DP controller");
    return;
  }
  const char *const *ref = PlSchemaFind("vessel.dp.reference.type")->choices; /* the schema's names */
  const PlDPController *c = &v->dp;
  fprintf(out, "    %-28s %s reference, start %.10g s, ramp %.10g s\n", "DP controller", ref[c->ref.kind], c->start_time,
         c->ramp_time);
  if (c->ref.kind == PL_DP_REF_ROUTE)
    fprintf(out, "    %-28s lay speed %.10g m/s from %.10g s (ramp %.10g s), gain %.6g, sampled every %.10g s\n",
            "route guidance", c->ref.speed, c->ref.start_time, c->ref.ramp_time, c->ref.gain, c->ref.interval);
  fprintf(out, "    %-28s %.6g, %.6g, %.6g N/m; %.6g N m/rad (yaw)\n", "Kp surge, sway, heave", c->Kp[0], c->Kp[1], c->Kp[2],
         c->Kp[5]);
  fprintf(out, "    %-28s %.6g, %.6g, %.6g N s/m; %.6g N m s/rad (yaw)\n", "Kd", c->Kd[0], c->Kd[1], c->Kd[2], c->Kd[5]);
  fprintf(out, "    %-28s %.6g, %.6g, %.6g N/(m s); %.6g N m/(rad s) (yaw)\n", "Ki", c->Ki[0], c->Ki[1], c->Ki[2], c->Ki[5]);
  fprintf(out, "    %-28s %.6g, %.6g, %.6g m s; %.6g rad s (yaw); <= 0: unbounded\n", "integral bound", c->integral_bound[0],
          c->integral_bound[1], c->integral_bound[2], c->integral_bound[5]);
  Line(out, "anti-windup time", c->antiwindup_time, "s");
  fprintf(out, "    %-28s %.6g, %.6g N; %.6g N m (yaw); <= 0: no limit\n", "thrust limit", c->thrust_max[0],
          c->thrust_max[1], c->thrust_max[5]);
}

/* The forcing's breakpoints, where the integrator restarts (PlModelBreakpoints): their count
 * and the first ten. */
/* The design: block (post-processing: not part of a restart's fingerprint). */
static void PrintDesign(FILE *out, const PlModel *m)
{
  if (!m->design.present) return;
  const PlDnvSpec *d = &m->design.dnv;
  fprintf(out, "  design\n");
  Line(out, "internal pressure", m->design.pressure.internal_pressure, "Pa");
  Line(out, "  at the level z", m->design.pressure.internal_pressure_level, "m");
  if (!d->present) return;
  fprintf(out, "    %-28s safety class %s, fabrication %s, alpha_U %s\n", "DNV-ST-F101",
          PlDnvSafetyClassNames[d->safety_class], PlDnvFabricationNames[d->fabrication],
          d->supplementary_u ? "1.0 (supplementary U)" : "0.96");
  Line(out, "SMYS", d->smys, "Pa");
  Line(out, "SMTS", d->smts, "Pa");
  Line(out, "yield derating", d->yield_derating, "Pa");
  Line(out, "tensile derating", d->tensile_derating, "Pa");
  Line(out, "corrosion allowance", d->corrosion_allowance, "m");
  Line(out, "ovality f0", d->ovality, "-");
  Line(out, "alpha_h", d->alpha_h, "-");
  Line(out, "condition factor gamma_C", d->condition_factor, "-");
  for (int k = 0; k < d->nzones; ++k)
    fprintf(out, "    %-28s %.10g from S = %.10g to %.10g m\n", "  zone gamma_C", d->zones[k].factor, d->zones[k].from,
            d->zones[k].to);
}

static void PrintBreakpoints(FILE *out, const PlModel *m)
{
  double *t = NULL;
  const int n = PlModelBreakpoints(m, &t);
  fprintf(out, "    %-28s", "breakpoints (restarts)");
  if (n <= 0) fprintf(out, " %s\n", n < 0 ? "out of memory" : "none");
  else {
    fprintf(out, " %d:", n);
    for (int i = 0; i < n && i < 10; ++i) fprintf(out, "%s %.10g", i ? "," : "", t[i]);
    fprintf(out, "%s s\n", n > 10 ? ", ..." : "");
  }
  free(t);
}

/* The settings of a dynamic analysis (of model m; with fingerprint, what a restart must keep). */
static void PrintDynamic(FILE *out, const PlModel *m, int fingerprint)
{
  const PlDynamicSettings *d = &m->analysis.dynamic;
  if (!fingerprint) Line(out, "duration", d->duration, "s");
  Line(out, "output interval", d->output_interval, "s");
  Line(out, "IDA relative tolerance", d->rtol, "-");
  Line(out, "atol position", d->atol_position, "m");
  Line(out, "atol strain", d->atol_strain, "- (each element; x element length per node)");
  Line(out, "atol rotation", d->atol_rotation, "-");
  Line(out, "atol velocity", d->atol_velocity, "m/s");
  Line(out, "atol angular velocity", d->atol_angular_velocity, "rad/s");
  if (d->max_step > 0.0) Line(out, "max step", d->max_step, "s");
  else fprintf(out, "    %-28s none\n", "max step");
  if (d->initial_step > 0.0) Line(out, "initial step", d->initial_step, "s");
  else fprintf(out, "    %-28s IDA's choice\n", "initial step");
  fprintf(out, "    %-28s %d\n", "max BDF order", d->max_order);
  fprintf(out, "    %-28s %d\n", "max steps", d->max_steps);
  if (!fingerprint) PrintBreakpoints(out, m);
}

/* The defaults in use that differ from what users of other codes expect (an OrcaFlex or
 * RIFLEX model carries them explicitly): a frictionless seabed, no added mass, no structural
 * damping; each named only where this model uses it. */
static void PrintPracticeDefaults(FILE *out, const PlModel *m)
{
  int n = 0, ca = 0, undamped = 0;
  for (int k = 0; k < m->nsegments; ++k) {
    ca |= m->segments[k].hydro.added_mass_normal == 0.0;
    undamped |= m->segments[k].axial_damping == 0.0;
  }
  const int dynamic = m->analysis.kind == PL_ANALYSIS_DYNAMIC;
  if (m->seabed != PL_SEABED_NONE && !m->friction) ++n;
  if (dynamic && ca) ++n;
  if (dynamic && undamped) ++n;
  if (!n) return;
  fprintf(out, "  defaults in use that other codes set otherwise (give them to change):\n");
  if (m->seabed != PL_SEABED_NONE && !m->friction)
    fprintf(out, "    %-28s none (seabed.friction: a real seabed holds laid pipe by friction)\n",
            "seabed friction");
  if (dynamic && ca)
    fprintf(out, "    %-28s 0 in some section (hydrodynamics.added_mass_normal; 1 for a circular cylinder)\n",
            "normal added mass C_an");
  if (dynamic && undamped)
    fprintf(out, "    %-28s none in some section (axial_damping; mooring codes often give one)\n",
            "structural damping");
}

void PlDescribeModel(FILE *out, const PlModel *m, const PlMesh *mesh_, int fingerprint)
{
  const PlMesh mesh = *mesh_;
  if (fingerprint) fprintf(out, "pipelay %s\n", PIPELAY_VERSION);
  else {
    fprintf(out, "pipelay %s: model %s\n", PIPELAY_VERSION, m->source_path);
    fprintf(out, "  name: %s\n", m->name);
  }
  const int dynamic = m->analysis.kind == PL_ANALYSIS_DYNAMIC;
  fprintf(out, "  analysis: %s\n", dynamic ? "dynamic (from the static solution)" : "static");

  fprintf(out, "  environment\n");
  Line(out, "water depth", m->water_depth, "m (seabed at z = -depth)");
  Line(out, "water density rho_w", m->water_density, "kg/m^3");
  Line(out, "gravity g", m->gravity, "m/s^2");

  fprintf(out, "  line\n");
  Line(out, "length", m->length, "m (unstretched)");
  fprintf(out, "    %-28s %d\n", "sections", m->nsegments);
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
    fprintf(out, "  section %d: S = %.10g .. %.10g m\n", k + 1, S0, S0 + g->length);
    S0 += g->length;
    Line(out, "length", g->length, "m");
    Line(out, "outer diameter d_o", s->outer_diameter, "m");
    Line(out, "hydrodynamic diameter", s->hydro_diameter, "m");
    if (s->wall_thickness > 0.0) Line(out, "wall thickness", s->wall_thickness, "m");
    if (s->steel_area > 0.0) Line(out, "steel area A", s->steel_area, "m^2");
    Line(out, "EA", s->EA, "N");
    Line(out, "EI2", s->EI[0], "N m^2");
    Line(out, "EI3", s->EI[1], "N m^2");
    Line(out, "GJ", s->GJ, "N m^2");
    Line(out, "GA2", s->GA[0], "N");
    Line(out, "GA3", s->GA[1], "N");
    Line(out, "mass per length m_p", s->mass_per_length, "kg/m");
    Line(out, "rotary inertia J1", s->inertia[0], "kg m");
    Line(out, "rotary inertia J2", s->inertia[1], "kg m");
    Line(out, "rotary inertia J3", s->inertia[2], "kg m");
    Line(out, "submerged weight w", PlSectionSubmergedWeight(s, m->water_density, m->gravity),
         "N/m  (m_p - rho_w pi d_o^2/4) g");
    if (g->buoyant) fprintf(out, "    %-28s yes (may float)\n", "buoyant");
    Line(out, "drag coefficient normal", g->hydro.drag_normal, "- (C_dn)");
    if (isnan(g->hydro.drag_axial_skin)) Line(out, "drag coefficient tangential", g->hydro.drag_tangential, "- (C_dt)");
    else {
      char u[96];
      snprintf(u, sizeof u, "- (C_dt = pi x drag_axial_skin %.6g, on d instead of pi d)", g->hydro.drag_axial_skin);
      Line(out, "drag coefficient tangential", g->hydro.drag_tangential, u);
    }
    Line(out, "added mass normal", g->hydro.added_mass_normal, "- (C_an, dynamics)");
    Line(out, "added mass tangential", g->hydro.added_mass_tangential, "- (C_at, dynamics)");
    PrintVector(out, "rotational damping", g->hydro.rotational_damping, NULL, "N s (D4, D5, D6, dynamics)");
    Line(out, "axial damping c_a", g->axial_damping, "N s (Kelvin-Voigt, dynamics)");
    fprintf(out, "    %-28s %d\n", "elements", ne);
    if (ne) {
      Line(out, "element length min", lmin, "m");
      Line(out, "element length max", lmax, "m");
      Line(out, "element length mean", lsum / ne, "m");
    }
  }

  fprintf(out, "  mesh\n");
  fprintf(out, "    %-28s %d\n", "nodes", mesh.nnodes);
  fprintf(out, "    %-28s %d\n", "elements", mesh.nelements);
  double lmin = INFINITY, lmax = 0.0;
  for (int e = 0; e < mesh.nelements; ++e) {
    lmin = fmin(lmin, mesh.S[e + 1] - mesh.S[e]);
    lmax = fmax(lmax, mesh.S[e + 1] - mesh.S[e]);
  }
  if (mesh.nelements) {
    Line(out, "element length min", lmin, "m");
    Line(out, "element length max", lmax, "m");
    Line(out, "element length mean", mesh.S[mesh.nnodes - 1] / mesh.nelements, "m");
  }
  fprintf(out, "    %-28s %s\n", "rotations", m->rotation == PL_ROT_QUATERNION ? "quaternion" : "euler_zxy");

  fprintf(out, "  seabed\n");
  if (m->seabed == PL_SEABED_NONE) fprintf(out, "    %-28s none\n", "model");
  else if (m->seabed == PL_SEABED_NONLINEAR) fprintf(out, "    %-28s nonlinear (eq 5.38)\n", "model");
  else {
    fprintf(out, "    %-28s linear\n", "model");
    Line(out, "stiffness", m->seabed_stiffness, "N/m^2");
  }
  if (m->seabed != PL_SEABED_NONE && dynamic && !isnan(m->seabed_damping))
    Line(out, "damping", m->seabed_damping, "N s/m^2 (dynamics)");
  else if (m->seabed != PL_SEABED_NONE && dynamic) /* the default: each section's */
    for (int k = 0; k < m->nsegments; ++k) {
      char label[64];
      snprintf(label, sizeof label, m->nsegments > 1 ? "damping, section %d" : "damping", k + 1);
      Line(out, label, PlSeabedDamping(m, &m->segments[k]), "N s/m^2 (dynamics; 0.5 of critical)");
    }
  if (m->bathymetry)
    fprintf(out, "    %-28s %s: %d x %d points from (%.10g, %.10g) m by (%.10g, %.10g) m\n", "bathymetry",
            m->bathymetry_file, m->bathymetry->nx, m->bathymetry->ny, m->bathymetry->x0, m->bathymetry->y0,
            m->bathymetry->dx, m->bathymetry->dy);
  else if (m->seabed_slope_deg != 0.0)
    fprintf(out, "    %-28s %.10g deg rising towards %.10g deg\n", "slope", m->seabed_slope_deg, m->seabed_slope_dir_deg);
  if (m->friction) {
    Line(out, "friction axial", m->friction_axial, "(mu_a)");
    Line(out, "friction lateral", m->friction_lateral, "(mu_l)");
    Line(out, "mobilisation axial", m->mobilisation_axial, "m (delta_a)");
    if (m->mobilisation_lateral > 0.0) Line(out, "mobilisation lateral", m->mobilisation_lateral, "m (delta_l)");
    else fprintf(out, "    %-28s 0.1 outer_diameter (delta_l)\n", "mobilisation lateral");
  }

  PrintEnd(out, "bottom (S = 0)", &m->ends[0], dynamic);
  PrintEnd(out, "top (S = L)", &m->ends[1], dynamic);
  if (m->route.n > 0) {
    fprintf(out, "lay route\n");
    fprintf(out, "    %-28s %d, from (%.10g, %.10g) to (%.10g, %.10g) m\n", "points", m->route.n, m->route.p[0][0],
            m->route.p[0][1], m->route.p[m->route.n - 1][0], m->route.p[m->route.n - 1][1]);
    if (m->route.n > 2) Line(out, "bend radius", m->route.radius, "m");
    Line(out, "length", m->route.length, "m");
    Line(out, "retire behind touchdown", m->lay_retire, "m");
  }
  PrintCurrent(out, m);
  PrintSea(out, m);
  PrintBody(out, &m->vessel, 1);
  if (!fingerprint) PrintDesign(out, m);

  fprintf(out, "  analysis\n");
  fprintf(out, "    %-28s %s\n", "type", dynamic ? "dynamic" : "static");
  if (m->analysis.initial_guess == PL_GUESS_RESULTS)
    fprintf(out, "    %-28s the static shape in %s\n", "start shape", m->analysis.start_from);
  else
    fprintf(out, "    %-28s %s\n", "start shape", m->analysis.initial_guess == PL_GUESS_CATENARY ? "elastic catenary" : "straight");
  fprintf(out, "    %-28s %d\n", "load steps", m->analysis.load_steps);
  fprintf(out, "    %-28s %d\n", "max cut-backs", m->analysis.max_cutbacks);
  fprintf(out, "    %-28s %d\n", "max Newton iterations", m->analysis.max_iterations);
  Line(out, "relative tolerance", m->analysis.rtol, "-");
  if (m->analysis.atol > 0.0) Line(out, "absolute tolerance", m->analysis.atol, "N");
  else fprintf(out, "    %-28s automatic\n", "absolute tolerance");
  if (dynamic) {
    PrintDynamic(out, m, fingerprint);
    fprintf(out, "    %-28s", "output points");
    for (int k = 0; k < m->noutput_points; ++k)
      fprintf(out, " %s (S = %.10g m)", m->output_points[k].name, m->output_points[k].arc_length);
    fprintf(out, "%s\n", m->noutput_points ? "" : " none (bottom and top only)");
  }
  if (!fingerprint) {
    fprintf(out, "  output directory: %s\n", m->output_dir);
    if (dynamic) fprintf(out, "  checkpoint interval: %.10g s (wall clock)\n", m->checkpoint_interval);
    if (m->fatigue.present) { /* a post-pass over the series: not in the fingerprint */
      fprintf(out, "  fatigue: DNV-RP-C203 curve %s, %s, SCF %.10g, %d angles", PlSNCurveNames[m->fatigue.sn_curve],
              PlSNEnvironmentNames[m->fatigue.environment], m->fatigue.scf, m->fatigue.angles);
      if (m->fatigue.exposure > 0.0) fprintf(out, ", exposure %.10g s/year", m->fatigue.exposure);
      fputc('\n', out);
    }
  }
  if (dynamic) /* in the fingerprint too: a restart must keep the frames' spacing */
    fprintf(out, "  ParaView frames: every %ld outputs (%.10g s) and the last\n", PlModelVtkStride(m),
            (double)PlModelVtkStride(m) * m->analysis.dynamic.output_interval);
  if (!fingerprint) PrintPracticeDefaults(out, m);

}

/* The joints of m: kind, bodies, point, axis, rows. */
static void PrintJoints(FILE *out, const PlModel *m)
{
  static const char *const kinds[] = {"spherical", "revolute", "prismatic", "fixed"};
  for (int j = 0; j < m->njoints; ++j) {
    const PlJointModel *jm = &m->joints[j];
    fprintf(out, "  joint %s: %s, %s to %s\n", jm->name, kinds[jm->joint.kind], m->bodies[jm->body[0]].id,
            jm->body[1] >= 0 ? m->bodies[jm->body[1]].id : "ground");
    PrintVector(out, "point", jm->point, NULL, "m (global, initial poses)");
    if (jm->joint.kind == PL_JOINT_REVOLUTE || jm->joint.kind == PL_JOINT_PRISMATIC)
      PrintVector(out, "axis", jm->axis, NULL, "- (global, initial poses)");
    fprintf(out, "    %-28s %d (reactions lambda; as many projection multipliers mu)\n", "constraint rows",
            PlJointRowCount(jm->joint.kind));
  }
}

/* The stinger of m: its arc, its rollers and the contact law. */
static void PrintStinger(FILE *out, const PlModel *m)
{
  const PlStinger *g = &m->stinger;
  if (!g->present) return;
  const double r2d = 180.0 / 3.14159265358979323846;
  fprintf(out, "  stinger under line %s: %d rollers on an arc of radius %.10g m\n", m->lines[g->line].name, g->nrollers,
          g->radius);
  PrintVector(out, "start", g->start, NULL, "m (global; the pipe's centreline)");
  Line(out, "heading", g->heading * r2d, "deg (from +x towards +y)");
  Line(out, "start angle", g->start_angle * r2d, "deg (below the horizontal)");
  fprintf(out, "    %-28s", "stations");
  for (int k = 0; k < g->nrollers; ++k) fprintf(out, " %.10g", g->rollers[k].station);
  fprintf(out, " m\n");
  Line(out, "roller radius", g->roller_radius, "m");
  Line(out, "contact stiffness", g->stiffness, "N/m");
  Line(out, "contact damping", g->damping, "N s/m (dynamic)");
  Line(out, "contact smoothing", g->smoothing, "m (d_o/1000)");
  Line(out, "reach", g->reach, "m");
  const PlRollerModel *tip = &g->rollers[g->nrollers - 1];
  PrintVector(out, "tip (last roller's top)", tip->top, NULL, "m (global)");
}

void PlDescribeBodies(FILE *out, const PlModel *m)
{
  fprintf(out, "pipelay info: %s (%s)\n", m->name, m->source_path);
  fprintf(out, "  a system of %d rigid bod%s and %d joint%s, no line\n", m->nbodies, m->nbodies == 1 ? "y" : "ies",
          m->njoints, m->njoints == 1 ? "" : "s");
  fprintf(out, "  environment\n");
  Line(out, "gravity", m->gravity, "m/s^2");
  Line(out, "water density", m->water_density, "kg/m^3");
  for (int b = 0; b < m->nbodies; ++b) PrintBody(out, &m->bodies[b], 0);
  PrintJoints(out, m);
  fprintf(out, "  analysis\n    %-28s dynamic\n", "type");
  PrintDynamic(out, m, 0);
  if (m->njoints) Line(out, "atol reaction", m->analysis.dynamic.atol_reaction, "N, N m (Newton test)");
  fprintf(out, "  output directory: %s\n", m->output_dir);
}

int PlDescribeLines(FILE *out, const PlModel *m, int fingerprint)
{
  if (fingerprint) fprintf(out, "pipelay %s\n", PIPELAY_VERSION);
  else fprintf(out, "pipelay info: %s (%s)\n", m->name, m->source_path);
  fprintf(out, "  a system of %d line%s joined at %d point%s, %d bod%s and %d joint%s (%s)\n", m->nlines,
          m->nlines == 1 ? "" : "s", m->npoints, m->npoints == 1 ? "" : "s", m->nbodies, m->nbodies == 1 ? "y" : "ies",
          m->njoints, m->njoints == 1 ? "" : "s",
          m->analysis.kind == PL_ANALYSIS_DYNAMIC ? "statics, then dynamics" : "statics");
  for (int k = 0; k < m->npoints; ++k) {
    const PlPointModel *pt = &m->points[k];
    fprintf(out, "  point %s: %s\n", pt->name, pt->fixed ? "fixed" : "free");
    PrintVector(out, pt->fixed ? "position" : "initial position", pt->position, NULL, "m (global)");
    Line(out, "mass", pt->mass, "kg");
    Line(out, "displaced volume", pt->volume, "m^3");
    if (!pt->fixed) PrintVector(out, "initial velocity", pt->velocity, NULL, "m/s (global, dynamic)");
    Line(out, "net weight", (pt->mass - m->water_density * pt->volume) * m->gravity, "N (downwards)");
    if (!pt->fixed) {
      Line(out, "drag area C_d A", pt->drag_area, "m^2");
      Line(out, "added mass", pt->added_mass_coefficient * m->water_density * pt->volume, "kg (C_a rho_w volume)");
    }
    fprintf(out, "    %-28s", "line ends");
    for (int l = 0; l < m->nlines; ++l)
      for (int e = 0; e < 2; ++e)
        if (m->lines[l].ends[e].point == k) fprintf(out, " %s.%s", m->lines[l].name, e ? "top" : "bottom");
    fprintf(out, "\n");
  }
  for (int b = 0; b < m->nbodies; ++b) PrintBody(out, &m->bodies[b], 0);
  PrintJoints(out, m);
  PrintStinger(out, m);
  PlModel *lm = malloc(sizeof *lm);
  if (!lm) return 1;
  int rc = 0;
  for (int l = 0; l < m->nlines && !rc; ++l) {
    PlMesh mesh;
    if (PlModelLineModel(m, l, lm)) {
      fprintf(stderr, "pipelay: out of memory\n");
      rc = 1;
      break;
    }
    fprintf(out, "\nline %s:\n", m->lines[l].name);
    for (int e = 0; e < 2; ++e) { /* the attachments (the one-line view below holds them given) */
      const PlEnd *E = &m->lines[l].ends[e];
      if (E->point >= 0)
        fprintf(out, "  end %s on point %s: held at the point, rotations free (a hinge)\n", e ? "top" : "bottom",
                m->points[E->point].name);
      else if (E->body >= 0) {
        fprintf(out, "  end %s on body %s at [%.10g, %.10g, %.10g] m (body frame from O_b): ", e ? "top" : "bottom",
                m->bodies[E->body].id, E->at[0], E->at[1], E->at[2]);
        if (E->connection == PL_HANGOFF_FIXED)
          fprintf(out, "fixed (its frame turns with the body; its moment goes into the body)\n");
        else fprintf(out, "a hinge (rotations free, no moment)\n");
      }
    }
    if (PlMeshCreate(lm, &mesh)) {
      fprintf(stderr, "pipelay: line %s: the mesh cannot be built (more than 10 million nodes, or out of memory)\n",
              m->lines[l].name);
      rc = 1;
      PlModelFree(lm);
      break;
    }
    PlDescribeModel(out, lm, &mesh, fingerprint);
    PlMeshDestroy(&mesh);
    PlModelFree(lm);
  }
  free(lm);
  return rc;
}
