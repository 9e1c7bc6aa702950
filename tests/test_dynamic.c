/*
 * test_dynamic.c - physics tests of the dynamic analysis (issue 3). One CTest test per case:
 *
 *   jacobian   the assembled iteration matrix dF/dy + c dF/dydot of the line on the system
 *              core (as a run integrates it) against central finite differences of its residual (y and ydot perturbed together, c h
 *              for ydot), on a disturbed J-lay state with Morison drag, added mass,
 *              current, seabed contact with damping and an end moment: every row within
 *              1e-6 of the row's largest entry, quaternions and Euler angles.
 *   rest       the J-lay static configuration with drag on, no excitation, 60 s: every
 *              node moves less than 1e-6 m.
 *   motion     prescribed motions (harmonic, circle, linear and cubic series): velocities and
 *              accelerations are the derivatives of the positions (central FD); circle radius
 *              and speed while holding; current profiles' values and dv/dz.
 *   cantilever small free vibration of a clamped rod released from a static tip load: the
 *              period within 1% of Euler-Bernoulli 2 pi/(1.8751^2 sqrt(EI/(m L^4))).
 *   string     taut string (pinned ends, EI negligible) given the velocity of its first
 *              mode: period within 1% of 2 L/sqrt(T/m) (L, m of the stretched string).
 *   energy     a rod pinned at its top released from rest 30 deg off the vertical in
 *              water (weight and buoyancy, no drag, damping or seabed): over 100 periods of
 *              its pendulum mode the total energy (kinetic + strain + potential of the
 *              weights) stays within 0.5% of the energy of the swing, wL^2(1 - cos 30)/2.
 *   passivity  the same with Morison drag and rotational damping: the energy never rises
 *              between outputs by more than 1e-6 of the swing energy (eq 5.77), and falls.
 *   quat_euler the pendulum released with a sideways velocity and a dead twisting moment at
 *              its free end (a 3-D swing with up to ~45 deg of twist), quaternions against
 *              Euler angles: the tip path agrees to 1e-4 of L.
 *   convergence the section 5.4.3 scenario with 10, 20, 40, 80 and 100 nodes (Fig 5.14):
 *              the RMS difference of the top-tension history and the largest difference
 *              of the vertical-displacement envelope to the 100-node run fall as the node
 *              count grows.
 *   seabed_ring a straight chain (20 m, d_o = 0.1 m, 20 kg/m, C_an = 1, no drag) lying on the
 *              nonlinear seabed, its ends held in x, y and the rotations, set moving down at
 *              0.05 m/s: every node moves as one mass on the contact spring at rest (k = 10 w/d_o
 *              per length, m = m_p + C_an rho_w pi d_o^2/4; amplitude 2.4 mm, in the spring's
 *              linear branch), so with the default contact damping (zeta = 0.5 of critical,
 *              models/seabed.c) the extremes of the middle node about its rest fall by
 *              exp(-pi zeta/sqrt(1 - zeta^2)) = 0.163 each half period and 0.027 a period
 *              (within 20 %), at the damped period 2 pi/(omega sqrt(1 - zeta^2)) (2 %); the
 *              default takes fewer than half the steps of seabed.damping = 0 (which rings on)
 *              over 10 s at the default tolerances.
 * argv[2] is the examples/ directory.
 */
#include <string.h>
#include "check.h"
#include "system_fd.h"
#include "pipelay/solver.h"

static const char *g_examples;

static int LoadJlay(int n, const char *const *sets, PlModel *m)
{
  char path[1024];
  PlError err;
  snprintf(path, sizeof path, "%s/jlay_900m.yaml", g_examples);
  const int rc = PlModelLoad(path, n, sets, m, &err);
  if (rc) fprintf(stderr, "FAIL model load: %s\n", err.msg);
  return rc;
}

static void SetDynamicDefaults(PlModel *m, double duration)
{
  PlDynamicSettings *s = &m->analysis.dynamic;
  m->analysis.kind = PL_ANALYSIS_DYNAMIC;
  s->duration = duration;
  s->output_interval = 0.1;
  s->rtol = 1e-4;
  s->atol_position = 1e-5;
  s->atol_rotation = 1e-5;
  s->atol_velocity = 1e-3;
  s->atol_strain = 5e-7;
  s->max_step = 0.0;
  s->initial_step = 0.0;
  s->max_order = 2;
  s->max_steps = 1000000;
}

/* ---- iteration matrix against finite differences --------------------------------------- */
static PetscErrorCode JacobianCase(const char *rotation, int friction)
{
  PlModel m;
  const char *sets[] = {"mesh.elements=24", rotation};
  PlProblem p;
  PlStaticReport rep;
  PetscFunctionBeginUser;
  if (LoadJlay(2, sets, &m)) PetscFunctionReturn(1);
  SetDynamicDefaults(&m, 1.0);
  PlHydro *h = &m.segments[0].hydro;
  h->drag_normal = 1.2;
  h->drag_tangential = 0.3;
  h->added_mass_normal = 1.0;
  h->added_mass_tangential = 0.2;
  h->rotational_damping[0] = 50.0;
  h->rotational_damping[1] = 20.0;
  h->rotational_damping[2] = 30.0;
  m.seabed_damping = 5e4;
  m.current.kind = PL_CURRENT_SHEARED;
  m.current.surface_speed = 0.8;
  m.current.seabed_speed = 0.1;
  m.current.direction_deg = -70.0;
  m.current.ramp_time = 0.0;
  m.ends[1].moment[1] = 2e5;
  m.ends[1].moment[2] = -1e5;
  if (friction) { /* seabed friction: the anchors as states (the generic state's slips: 0 to ~40
                     mobilisation distances, the flow rule on and off) */
    m.friction = true;
    m.friction_axial = 0.5;
    m.friction_lateral = 0.8;
    m.mobilisation_axial = 0.05;
    m.ends[1].payout = true; /* and pay-out: at t = 3 s the top element is 1.5 m longer */
    m.ends[1].payout_rate = 0.5;
  }
  PetscCall(PlProblemCreate(PETSC_COMM_WORLD, &m, &p));
  PetscCall(PlStaticSolve(p, &rep));
  CHECK_TRUE(rep.converged, "static start converged");
  /* the line on the system core (solver/system_dynamic.c), as a run integrates it */
  PlLines L;
  PlSysDyn S;
  PlLinesReport *lrep = calloc(1, sizeof *lrep);
  PetscCheck(lrep && PlLinesReportInit(lrep, 1, 0, 0, 0) == 0, PETSC_COMM_WORLD, PETSC_ERR_MEM, "memory");
  PetscCall(PlLinesOfProblem(p, &L));
  PetscCall(PlSysDynCreate(L, lrep, &S));
  const int n = PlSysDynSize(S);
  double *y = malloc(sizeof(double) * n), *yp = malloc(sizeof(double) * n);
  PetscCheck(y && yp, PETSC_COMM_WORLD, PETSC_ERR_MEM, "memory");
  FdGenericState(S, 7, y, yp); /* positions by up to 0.2 m, every rate set */
  int wr, wc;
  const double worst = FdMatrixError(S, 0, 3.0, y, yp, 37.0, &wr, &wc);
  const int ndd = (strstr(rotation, "quaternion") ? 13 : 12) + (friction ? 3 : 0);
  printf("%s%s: iteration matrix vs FD: worst row-relative error %.3g (row %d of %d, node %d dof %d; column %d)\n",
         rotation, friction ? ", seabed friction and pay-out" : "", worst, wr, n, wr / ndd, wr % ndd, wc);
  CHECK_TRUE(worst >= 0.0, "the matrix at a state inside the domain");
  CHECK_TRUE(worst < 1e-6, "iteration matrix matches central finite differences to 1e-6 (row-relative)");
  PlLinesReportFree(lrep);
  free(y), free(yp), free(lrep);
  PetscCall(PlSysDynDestroy(&S));
  PetscCall(PlLinesDestroy(&L));
  PetscCall(PlProblemDestroy(&p));
  PlModelFree(&m);
  PetscFunctionReturn(0);
}

/* ---- static start stays at rest -------------------------------------------------------- */
static PetscErrorCode RestCase(void)
{
  PlModel m;
  const char *sets[] = {"mesh.elements=99"};
  PlProblem p;
  PlDynamic d;
  PlStaticReport rep;
  PetscFunctionBeginUser;
  if (LoadJlay(1, sets, &m)) PetscFunctionReturn(1);
  SetDynamicDefaults(&m, 60.0);
  m.segments[0].hydro.drag_normal = 1.0;
  PetscCall(PlProblemCreate(PETSC_COMM_WORLD, &m, &p));
  PetscCall(PlStaticSolve(p, &rep));
  CHECK_TRUE(rep.converged, "static start converged");
  PetscCall(PlDynamicCreate(p, NULL, &d));
  double *y0, *y1;
  int ndd;
  PetscCall(PlDynamicGatherState(d, &y0, &ndd));
  double worst = 0.0, tw = 0.0;
  for (int k = 1; k <= 60; ++k) {
    int flag;
    char why[512];
    PetscCall(PlDynamicAdvance(d, (double)k, &flag, why, sizeof why));
    CHECK_TRUE(flag == 0, why);
    if (flag) break;
    PetscCall(PlDynamicGatherState(d, &y1, &ndd));
    const int nn = PlProblemMesh(p)->nnodes;
    for (int i = 0; i < nn; ++i)
      for (int c = 0; c < 3; ++c)
        if (fabs(y1[i * ndd + c] - y0[i * ndd + c]) > worst) worst = fabs(y1[i * ndd + c] - y0[i * ndd + c]), tw = k;
    free(y1);
  }
  PlDynamicStats st;
  PetscCall(PlDynamicGetStats(d, &st));
  printf("rest: largest displacement over 60 s %.3g m (at t = %g s); %ld steps, %ld Newton iterations, %ld matrices\n",
         worst, tw, st.steps, st.nonlinear_iterations, st.jacobian_evaluations);
  CHECK_TRUE(worst < 1e-6, "static start with no excitation stays within 1e-6 m");
  free(y0);
  PetscCall(PlDynamicDestroy(&d));
  PetscCall(PlProblemDestroy(&p));
  PlModelFree(&m);
  PetscFunctionReturn(0);
}

/* ---- shared set-up ---------------------------------------------------------------------- */
typedef struct {
  PlModel m;
  PlProblem p;
  PlDynamic d;
} Dyn;

static void TightTolerances(PlModel *m, double duration)
{
  SetDynamicDefaults(m, duration);
  PlDynamicSettings *s = &m->analysis.dynamic;
  s->rtol = 1e-7;
  s->atol_position = 1e-9;
  s->atol_rotation = 1e-9;
  s->atol_velocity = 1e-8;
}

static int LoadText(const char *text, int n, const char *const *sets, PlModel *m)
{
  PlError err;
  const int rc = PlModelLoadString("test.yaml", text, strlen(text), n, sets, m, &err);
  if (rc) fprintf(stderr, "FAIL model load: %s\n", err.msg);
  return rc;
}

/* Position of node i (gathered). */
static PetscErrorCode NodePosition(PlDynamic d, int i, double x[3])
{
  double *y;
  int ndd;
  PetscFunctionBeginUser;
  PetscCall(PlDynamicGatherState(d, &y, &ndd));
  for (int c = 0; c < 3; ++c) x[c] = y[(size_t)i * ndd + c];
  free(y);
  PetscFunctionReturn(0);
}

/* Mean spacing of the upward zero crossings of sample series v(t) (linear interpolation);
 * returns the number of crossings used in *n. */
static double CrossingPeriod(const double *t, const double *v, int n, int *ncross)
{
  double first = -1.0, last = -1.0;
  int k = 0;
  for (int i = 1; i < n; ++i)
    if (v[i - 1] < 0.0 && v[i] >= 0.0) {
      const double tc = t[i - 1] + (t[i] - t[i - 1]) * (-v[i - 1]) / (v[i] - v[i - 1]);
      if (k == 0) first = tc;
      last = tc;
      ++k;
    }
  *ncross = k;
  return k > 1 ? (last - first) / (k - 1) : NAN;
}

/* ---- cantilever ------------------------------------------------------------------------- */
static const char *kCantilever =
  "environment: {water_depth: 1000, water_density: 1025, gravity: 9.81}\n"
  "line:\n"
  "  length: 10\n"
  "  sections:\n"
  "    - {outer_diameter: 0.1, EA: 6.0e8, EI: 1.0e5, GJ: 8.0e4, GA: 2.0e8, mass_per_length: 20,\n"
  "       rotary_inertia: [0.049, 0.0245, 0.0245]}\n"
  "seabed: {model: none}\n"
  "mesh: {elements: 40}\n"
  "rotation: quaternion\n"
  "ends:\n"
  "  bottom: {position: [0, 0, -500], orientation: [0, 0, 0], fixed: all}\n"
  "  top: {fixed: none, force: [0, 3.0, 0]}\n"
  "analysis: {type: static, initial_guess: straight, rtol: 1.0e-12}\n";

static PetscErrorCode CantileverCase(void)
{
  PlModel m;
  PlProblem p;
  PlDynamic d;
  PlStaticReport rep;
  PetscFunctionBeginUser;
  if (LoadText(kCantilever, 0, NULL, &m)) PetscFunctionReturn(1);
  m.gravity = 0.0; /* no weight: a pure bending vibration */
  const double EI = 1.0e5, mpl = 20.0, L = 10.0;
  const double w1 = 1.8751040687 * 1.8751040687 * sqrt(EI / (mpl * L * L * L * L)), T1 = 2.0 * PETSC_PI / w1;
  TightTolerances(&m, 6.0 * T1);
  m.analysis.dynamic.rtol = 1e-5; /* the tip moves 1 cm: 1e-7 m absolute is 1e-5 of it */
  m.analysis.dynamic.atol_position = 1e-7;
  m.analysis.dynamic.atol_velocity = 1e-6;
  m.analysis.dynamic.atol_rotation = 1e-7;
  PetscCall(PlProblemCreate(PETSC_COMM_WORLD, &m, &p));
  PetscCall(PlStaticSolve(p, &rep));
  CHECK_TRUE(rep.converged, "static tip-load solve converged");
  PlProblemSetEndLoads(p, 1, NULL, NULL); /* release */
  PetscCall(PlDynamicCreate(p, NULL, &d));
  const int n = 600, tip = PlProblemMesh(p)->nnodes - 1;
  double *t = malloc(sizeof(double) * (n + 1)), *v = malloc(sizeof(double) * (n + 1)), x[3];
  PetscCall(NodePosition(d, tip, x));
  t[0] = 0.0;
  v[0] = x[1];
  for (int k = 1; k <= n; ++k) {
    int flag;
    char why[512];
    t[k] = 6.0 * T1 * k / n;
    PetscCall(PlDynamicAdvance(d, t[k], &flag, why, sizeof why));
    CHECK_TRUE(flag == 0, why);
    PetscCall(NodePosition(d, tip, x));
    v[k] = x[1];
  }
  int nc;
  const double T = CrossingPeriod(t, v, n + 1, &nc);
  printf("cantilever: period %.6f s from %d crossings, Euler-Bernoulli %.6f s, difference %.3f%%\n", T, nc, T1,
         100.0 * (T - T1) / T1);
  CHECK_REL(T, T1, 0.01, "cantilever first period against Euler-Bernoulli");
  free(t);
  free(v);
  PetscCall(PlDynamicDestroy(&d));
  PetscCall(PlProblemDestroy(&p));
  PlModelFree(&m);
  PetscFunctionReturn(0);
}

/* ---- taut string ------------------------------------------------------------------------- */
static const char *kString =
  "environment: {water_depth: 1000, water_density: 1025, gravity: 9.81}\n"
  "line:\n"
  "  length: 10\n"
  "  sections:\n"
  "    - {outer_diameter: 0.05, EA: 1.0e7, EI: 1.0, GJ: 1.0, GA: 1.0e7, mass_per_length: 10,\n"
  "       rotary_inertia: [1.0e-3, 5.0e-4, 5.0e-4]}\n"
  "seabed: {model: none}\n"
  "mesh: {elements: 40}\n"
  "rotation: quaternion\n"
  "ends:\n"
  "  bottom: {position: [0, 0, -500], orientation: [0, 0, 0], fixed: [x, y, z]}\n"
  "  top: {position: [10.1, 0, -500], fixed: [x, y, z]}\n"
  "analysis: {type: static, initial_guess: straight, load_steps: 4, rtol: 1.0e-12}\n";

/* The taut string of kString, pretensioned, set moving in its first mode; for the energy
 * case with its weight on (it sags by w L^2/(8 T) ~ 1 cm). */
static PetscErrorCode StringRun(int energy)
{
  PlModel m;
  PlProblem p;
  PlDynamic d;
  PlStaticReport rep;
  PetscFunctionBeginUser;
  if (LoadText(kString, 0, NULL, &m)) PetscFunctionReturn(1);
  if (!energy) m.gravity = 0.0;
  const double L0 = 10.0, eps = 0.01, EA = 1.0e7, m0 = 10.0, Ls = L0 * (1.0 + eps), Ten = EA * eps;
  const double T1 = 2.0 * Ls / sqrt(Ten / (m0 / (1.0 + eps)));
  const double duration = energy ? 100.0 * T1 : 6.0 * T1;
  TightTolerances(&m, duration);
  PetscCall(PlProblemCreate(PETSC_COMM_WORLD, &m, &p));
  PetscCall(PlStaticSolve(p, &rep));
  CHECK_TRUE(rep.converged, "static pretension solve converged");
  PetscCall(PlDynamicCreate(p, NULL, &d));
  const PlMesh *mesh = PlProblemMesh(p);
  const int nn = mesh->nnodes, mid = nn / 2;
  double *v0 = calloc(3 * nn, sizeof(double));
  for (int i = 0; i < nn; ++i) v0[3 * i + 1] = 0.01 * sin(PETSC_PI * mesh->S[i] / L0);
  PetscCall(PlDynamicSetVelocity(d, v0));
  free(v0);
  double k0, s0, p0;
  PetscCall(PlDynamicEnergy(d, &k0, &s0, &p0));
  const double E0 = k0 + s0 + p0;
  const int n = energy ? 4000 : 600;
  double *t = malloc(sizeof(double) * (n + 1)), *v = malloc(sizeof(double) * (n + 1)), x[3] = {0, 0, 0}, worst = 0.0;
  t[0] = 0.0;
  v[0] = 0.0;
  for (int k = 1; k <= n; ++k) {
    int flag;
    char why[512];
    t[k] = duration * k / n;
    PetscCall(PlDynamicAdvance(d, t[k], &flag, why, sizeof why));
    CHECK_TRUE(flag == 0, why);
    if (flag) break;
    PetscCall(NodePosition(d, mid, x));
    v[k] = -x[1]; /* starts moving to +y: its upward crossings of -y are a period apart */
    if (energy) {
      double kk, ss, pp;
      PetscCall(PlDynamicEnergy(d, &kk, &ss, &pp));
      worst = fmax(worst, fabs(kk + ss + pp - E0));
    }
  }
  PlDynamicStats st;
  PetscCall(PlDynamicGetStats(d, &st));
  if (energy) {
    printf("energy: taut string under its weight, %.3f s = 100 periods of %.4f s, %ld steps: largest "
           "|E - E0| = %.3e J = %.4f%% of the energy of the vibration %.4e J (total E0 = %.6e J)\n",
           duration, T1, st.steps, worst, 100.0 * worst / k0, k0, E0);
    CHECK_TRUE(worst <= 0.005 * k0, "energy drift below 0.5% of the vibration's energy over 100 periods");
  } else {
    int nc;
    const double T = CrossingPeriod(t, v, n + 1, &nc);
    printf("string: period %.6f s from %d crossings, 2L/sqrt(T/m) = %.6f s, difference %.3f%%\n", T, nc, T1,
           100.0 * (T - T1) / T1);
    CHECK_REL(T, T1, 0.01, "taut string fundamental period");
  }
  free(t);
  free(v);
  PetscCall(PlDynamicDestroy(&d));
  PetscCall(PlProblemDestroy(&p));
  PlModelFree(&m);
  PetscFunctionReturn(0);
}

/* ---- the pendulum: energy, passivity, quaternion/Euler ----------------------------------- */
/* A 2 m rod pinned at (0, 0, -10), released 30 deg off the vertical (towards +x). */
static const char *kPendulum =
  "environment: {water_depth: 100, water_density: 1025, gravity: 9.81}\n"
  "line:\n"
  "  length: 2\n"
  "  sections:\n"
  "    - {outer_diameter: 0.2, EA: 1.0e8, EI: 2.0e5, GJ: 100, GA: 4.0e7, mass_per_length: 100,\n"
  "       rotary_inertia: [0.5, 0.25, 0.25],\n"
  "       hydrodynamics: {drag_normal: 0, drag_tangential: 0}}\n"
  "seabed: {model: none}\n"
  "mesh: {elements: 16}\n"
  "rotation: quaternion\n"
  "ends:\n"
  "  bottom: {position: [1.0, 0, -11.732050807568877], orientation: [0, -120, 0], fixed: none}\n"
  "  top: {position: [0, 0, -10], fixed: [x, y, z]}\n"
  "analysis: {type: static, initial_guess: straight}\n";

/* The rod starts straight at rest in the released position (the static problem is set up
 * but not solved: its state is the straight initial guess). */
static PetscErrorCode PendulumCreate(int n, const char *const *sets, double duration, double rtol, double max_step,
                                     Dyn *D)
{
  PetscFunctionBeginUser;
  if (LoadText(kPendulum, n, sets, &D->m)) PetscFunctionReturn(1);
  SetDynamicDefaults(&D->m, duration);
  PlDynamicSettings *s = &D->m.analysis.dynamic;
  s->rtol = rtol;
  s->atol_position = 0.1 * rtol;
  s->atol_rotation = max_step > 0.0 ? 1e-4 : 0.1 * rtol;
  s->atol_velocity = max_step > 0.0 ? 1e-4 : rtol;
  s->max_step = max_step;
  PetscCall(PlProblemCreate(PETSC_COMM_WORLD, &D->m, &D->p));
  PetscCall(PlDynamicCreate(D->p, NULL, &D->d));
  PetscFunctionReturn(0);
}

static double PendulumSwingEnergy(const PlModel *m)
{
  const PlSection *s = &m->segments[0].section;
  const double w = PlSectionSubmergedWeight(s, m->water_density, m->gravity), L = m->length;
  return 0.5 * w * L * L * (1.0 - cos(PETSC_PI / 6.0));
}

static PetscErrorCode EnergyCase(int damped)
{
  Dyn D;
  /* a thick rod (rotary inertia 10x the tube's) on 8 elements: its second
   * (shear-rotation) spectrum near sqrt(GA/rho I) ~ 4000 rad/s is resolved at the tight
   * tolerance without the 1e-4 s steps a thin tube needs */
  const char *sets_damped[] = {"line.sections[0].rotary_inertia=[5, 2.5, 2.5]", "mesh.elements=8",
                               "line.sections[0].hydrodynamics.drag_normal=1.2",
                               "line.sections[0].hydrodynamics.drag_tangential=0.1",
                               "line.sections[0].hydrodynamics.rotational_damping=[5, 5, 5]"};
  PetscFunctionBeginUser;
  /* pendulum period ~ 2 pi sqrt(2L/(3 g w/m)) = 2.8 s: 100 periods */
  const double Tp = 2.0 * PETSC_PI * sqrt(2.0 * 2.0 / (3.0 * 9.81 * (100.0 - 1025.0 * PETSC_PI * 0.01) / 100.0));
  const double duration = damped ? 20.0 * Tp : 100.0 * Tp;
  /* BDF2 damps what it does not resolve: with looser tolerances the energy the swing
   * feeds into the rod's elastic modes is lost (3% at rtol 1e-6, 0.005% at 1e-7) */
  PetscCall(PendulumCreate(damped ? 5 : 2, sets_damped, duration, 1e-7, 0.0, &D));
  const double Eswing = PendulumSwingEnergy(&D.m);
  double k0, s0, p0;
  PetscCall(PlDynamicEnergy(D.d, &k0, &s0, &p0));
  const double E0 = k0 + s0 + p0;
  double worst = 0.0, rise = 0.0, Elast = E0, E = E0;
  const int nout = (int)(duration / 0.25);
  for (int k = 1; k <= nout; ++k) {
    int flag;
    char why[512];
    PetscCall(PlDynamicAdvance(D.d, duration * k / nout, &flag, why, sizeof why));
    CHECK_TRUE(flag == 0, why);
    if (flag) break;
    double kk, ss, pp;
    PetscCall(PlDynamicEnergy(D.d, &kk, &ss, &pp));
    E = kk + ss + pp;
    worst = fmax(worst, fabs(E - E0));
    rise = fmax(rise, E - Elast);
    Elast = E;
  }
  PlDynamicStats st;
  PetscCall(PlDynamicGetStats(D.d, &st));
  if (!damped) {
    printf("energy: %.0f s (100 pendulum periods of %.3f s), %ld steps: largest |E - E0| = %.3e J = %.4f%% of the "
           "swing energy %.4f J\n", duration, Tp, st.steps, worst, 100.0 * worst / Eswing, Eswing);
    CHECK_TRUE(worst <= 0.005 * Eswing, "energy drift below 0.5% of the swing energy over 100 periods");
  } else {
    printf("passivity: %.0f s, %ld steps: largest rise between outputs %.3e J (%.2e of the swing energy); "
           "energy lost %.1f%% of the swing energy\n", duration, st.steps, rise, rise / Eswing,
           100.0 * (E0 - E) / Eswing);
    CHECK_TRUE(rise <= 1e-6 * Eswing, "energy never rises by more than 1e-6 of the swing energy (passivity)");
    CHECK_TRUE(E0 - E >= 0.5 * Eswing, "drag and damping dissipate at least half of the swing energy");
  }
  PetscCall(PlDynamicDestroy(&D.d));
  PetscCall(PlProblemDestroy(&D.p));
  PlModelFree(&D.m);
  PetscFunctionReturn(0);
}

static PetscErrorCode QuatEulerCase(void)
{
  /* a thick body (rotary inertia 10x the tube's) so that twist is slow */
  const char *setq[] = {"rotation=quaternion", "ends.bottom.moment=[0, 0, 20]",
                        "line.sections[0].rotary_inertia=[5, 2.5, 2.5]"};
  const char *sete[] = {"rotation=euler_zxy", "ends.bottom.moment=[0, 0, 20]",
                        "line.sections[0].rotary_inertia=[5, 2.5, 2.5]"};
  Dyn D[2];
  const double duration = 1.5;
  const int nout = 75;
  double worst = 0.0, maxtw = 0.0;
  PetscFunctionBeginUser;
  PetscCall(PendulumCreate(3, setq, duration, 1e-6, 0.0, &D[0]));
  PetscCall(PendulumCreate(3, sete, duration, 1e-6, 0.0, &D[1]));
  const int nn = PlProblemMesh(D[0].p)->nnodes;
  double *v0 = calloc(3 * nn, sizeof(double));
  for (int i = 0; i < nn; ++i) v0[3 * i + 1] = 1.5 * (1.0 - PlProblemMesh(D[0].p)->S[i] / 2.0); /* sideways swing */
  for (int r = 0; r < 2; ++r) PetscCall(PlDynamicSetVelocity(D[r].d, v0));
  free(v0);
  for (int k = 1; k <= nout; ++k) {
    double x[2][3];
    for (int r = 0; r < 2; ++r) {
      int flag;
      char why[512];
      PetscCall(PlDynamicAdvance(D[r].d, duration * k / nout, &flag, why, sizeof why));
      CHECK_TRUE(flag == 0, why);
      PetscCall(NodePosition(D[r].d, 0, x[r]));
    }
    worst = fmax(worst, sqrt((x[0][0] - x[1][0]) * (x[0][0] - x[1][0]) + (x[0][1] - x[1][1]) * (x[0][1] - x[1][1]) +
                             (x[0][2] - x[1][2]) * (x[0][2] - x[1][2])));
    /* twist of the free end: rotation of its frame about t1 relative to the start */
    double *y;
    int ndd;
    PetscCall(PlDynamicGatherState(D[0].d, &y, &ndd));
    const double *pq = y + 3; /* node 0, quaternion of R(p) relative to its start frame */
    const double n = sqrt(pq[0] * pq[0] + pq[1] * pq[1] + pq[2] * pq[2] + pq[3] * pq[3]);
    maxtw = fmax(maxtw, 2.0 * acos(fmin(1.0, fabs(pq[0]) / n)) * 180.0 / PETSC_PI);
    free(y);
  }
  for (int r = 0; r < 2; ++r) {
    PlDynamicStats st;
    PetscCall(PlDynamicGetStats(D[r].d, &st));
    printf("quat_euler: %s run: %ld steps, %ld Newton iterations, %ld matrices, %ld error-test failures\n",
           r ? "Euler" : "quaternion", st.steps, st.nonlinear_iterations, st.jacobian_evaluations, st.error_test_failures);
  }
  printf("quat_euler: %g s of 3-D swing, largest rotation of the free end %.1f deg; tip paths differ by at most "
         "%.3e m = %.2e of L\n", duration, maxtw, worst, worst / 2.0);
  CHECK_TRUE(maxtw > 30.0, "the motion rotates the free end through more than 30 deg");
  CHECK_TRUE(worst <= 1e-4 * 2.0, "quaternion and Euler tip paths agree to 1e-4 of L");
  for (int r = 0; r < 2; ++r) {
    PetscCall(PlDynamicDestroy(&D[r].d));
    PetscCall(PlProblemDestroy(&D[r].p));
    PlModelFree(&D[r].m);
  }
  PetscFunctionReturn(0);
}

/* ---- node-count convergence of section 5.4.3 (Fig 5.14) -------------------------------- */
typedef struct {
  int n;          /* nodes */
  double *T;      /* top tension per output */
  double *S, *dzmax; /* envelope of vertical displacement at the nodes */
  int nout;
} ConvRun;

static PetscErrorCode ConvergenceRun(int nodes, double duration, double dt, ConvRun *r)
{
  PlModel m;
  PlError err;
  char path[1024], set[64];
  const char *sets[1] = {set};
  PlProblem p;
  PlDynamic d;
  PlStaticReport rep;
  PetscFunctionBeginUser;
  snprintf(path, sizeof path, "%s/jlay_circle.yaml", g_examples);
  snprintf(set, sizeof set, "mesh.elements=%d", nodes - 1);
  if (PlModelLoad(path, 1, sets, &m, &err)) {
    fprintf(stderr, "FAIL model load: %s\n", err.msg);
    PetscFunctionReturn(1);
  }
  m.analysis.dynamic.duration = duration;
  PetscCall(PlProblemCreate(PETSC_COMM_WORLD, &m, &p));
  PetscCall(PlStaticSolve(p, &rep));
  CHECK_TRUE(rep.converged, "static start converged");
  PetscCall(PlDynamicCreate(p, NULL, &d));
  r->n = nodes;
  r->nout = (int)(duration / dt + 0.5);
  r->T = calloc(r->nout + 1, sizeof(double));
  r->S = calloc(nodes, sizeof(double));
  r->dzmax = calloc(nodes, sizeof(double));
  double *z0 = calloc(nodes, sizeof(double));
  for (int k = 0; k <= r->nout; ++k) {
    if (k) {
      int flag;
      char why[512];
      PetscCall(PlDynamicAdvance(d, k * dt, &flag, why, sizeof why));
      CHECK_TRUE(flag == 0, why);
    }
    PlStation *N, *E;
    int nn, ne;
    PetscCall(PlDynamicSyncStatic(d));
    PetscCall(PlProblemStations(p, &N, &nn, &E, &ne));
    r->T[k] = N[nn - 1].tension;
    for (int i = 0; i < nn; ++i) {
      if (!k) {
        z0[i] = N[i].x[2];
        r->S[i] = N[i].S;
      }
      r->dzmax[i] = fmax(r->dzmax[i], N[i].x[2] - z0[i]);
    }
    free(N);
    free(E);
  }
  free(z0);
  PetscCall(PlDynamicDestroy(&d));
  PetscCall(PlProblemDestroy(&p));
  PlModelFree(&m);
  PetscFunctionReturn(0);
}

static double Interp(const double *x, const double *y, int n, double xq)
{
  if (xq <= x[0]) return y[0];
  for (int i = 1; i < n; ++i)
    if (xq <= x[i]) return y[i - 1] + (y[i] - y[i - 1]) * (xq - x[i - 1]) / (x[i] - x[i - 1]);
  return y[n - 1];
}

static PetscErrorCode ConvergenceCase(void)
{
  const int nodes[5] = {10, 20, 40, 80, 100};
  ConvRun r[5];
  const double duration = 60.0, dt = 0.1;
  double eT[4], eZ[4];
  PetscFunctionBeginUser;
  for (int k = 0; k < 5; ++k) PetscCall(ConvergenceRun(nodes[k], duration, dt, &r[k]));
  const ConvRun *ref = &r[4];
  for (int k = 0; k < 4; ++k) {
    double s = 0.0, z = 0.0;
    for (int j = 0; j <= ref->nout; ++j) s += (r[k].T[j] - ref->T[j]) * (r[k].T[j] - ref->T[j]);
    for (int i = 0; i < ref->n; ++i) z = fmax(z, fabs(Interp(r[k].S, r[k].dzmax, r[k].n, ref->S[i]) - ref->dzmax[i]));
    eT[k] = sqrt(s / (ref->nout + 1));
    eZ[k] = z;
    printf("convergence: %3d nodes: RMS top-tension difference to 100 nodes %.4e N, largest dz-envelope "
           "difference %.4e m\n", nodes[k], eT[k], eZ[k]);
  }
  for (int k = 1; k < 4; ++k) {
    CHECK_TRUE(eT[k] < eT[k - 1], "the top-tension difference to the 100-node run falls with the node count");
    CHECK_TRUE(eZ[k] < eZ[k - 1], "the dz-envelope difference to the 100-node run falls with the node count");
  }
  for (int k = 0; k < 5; ++k) {
    free(r[k].T);
    free(r[k].S);
    free(r[k].dzmax);
  }
  PetscFunctionReturn(0);
}

/* ---- time functions: prescribed motions and currents ------------------------------------ */
/* Velocities and accelerations of every motion kind against central differences of the
 * positions, the circle's radius during the hold, and the current profiles' values. */
static PetscErrorCode MotionCase(void)
{
  PlMotion mo[4];
  double table[5 * 7] = {0.0, 0, 0, 0, 0, 0, 0, 1.0, 1, -2, 0.5, 10, 0, 0, 2.5, 3, 1, 0.25, 0, 5, 0,
                         3.0, 2, 0, 0, 0, 0, 20, 4.0, 0, 0, 0, 0, 0, 0};
  PetscFunctionBeginUser;
  memset(mo, 0, sizeof mo);
  mo[0].kind = PL_MOTION_HARMONIC;
  mo[0].start_time = 1.0;
  mo[0].ramp_time = 2.0;
  mo[0].harmonic_dof[0] = mo[0].harmonic_dof[2] = mo[0].harmonic_dof[4] = true;
  mo[0].harmonic[0] = (PlHarmonic){1.5, 7.0, 30.0};
  mo[0].harmonic[2] = (PlHarmonic){0.5, 3.0, 0.0};
  mo[0].harmonic[4] = (PlHarmonic){10.0, 5.0, 90.0};
  mo[1].kind = PL_MOTION_CIRCLE;
  mo[1].radius = 2.5;
  mo[1].period = 10.0;
  mo[1].start_time = 0.5;
  mo[1].ramp_up = 10.0;
  mo[1].hold = 30.0;
  mo[1].ramp_down = 10.0;
  mo[1].counter_clockwise = true;
  for (int k = 2; k < 4; ++k) {
    mo[k].kind = PL_MOTION_TIMESERIES;
    mo[k].nrows = 5;
    mo[k].ncols = 7;
    mo[k].table = table;
    mo[k].cubic = k == 3;
  }
  const char *names[4] = {"harmonic", "circle", "timeseries linear", "timeseries cubic"};
  for (int k = 0; k < 4; ++k) {
    double worst_v = 0.0, worst_a = 0.0, worst_w = 0.0;
    const double h = 1e-5;
    for (int i = 0; i < 400; ++i) {
      const double t = 0.013 + 0.1 * i * (k < 2 ? 1.5 : 0.01 * 1.0);
      const double tt = k < 2 ? t : 0.02 + 0.0099 * i; /* inside the table, away from rows */
      double d0[3], v0[3], a0[3], th0[3], w0[3], dp[3], vp[3], ap[3], thp[3], wp[3], dm[3], vm[3], am[3], thm[3], wm[3];
      PlMotionEval(&mo[k], tt, d0, v0, a0, th0, w0);
      PlMotionEval(&mo[k], tt + h, dp, vp, ap, thp, wp);
      PlMotionEval(&mo[k], tt - h, dm, vm, am, thm, wm);
      bool row = false; /* a table row within h: the linear series' slope jumps there */
      for (int r = 0; r < 5; ++r) row = row || fabs(tt - table[7 * r]) < 2 * h;
      if (row) continue;
      for (int c = 0; c < 3; ++c) {
        worst_v = fmax(worst_v, fabs((dp[c] - dm[c]) / (2 * h) - v0[c]));
        worst_a = fmax(worst_a, fabs((vp[c] - vm[c]) / (2 * h) - a0[c]));
        /* single-axis rotations: the body rate is the angle's rate */
        if (k == 0) worst_w = fmax(worst_w, fabs((thp[c] - thm[c]) / (2 * h) - w0[c]));
      }
    }
    printf("motion %s: velocity vs FD %.2e, acceleration vs FD %.2e, rotation rate vs FD %.2e\n", names[k], worst_v,
           worst_a, worst_w);
    CHECK_TRUE(worst_v < 1e-6, "prescribed velocity is the derivative of the position");
    CHECK_TRUE(worst_a < 1e-5 || k == 2, "prescribed acceleration is the derivative of the velocity");
    CHECK_TRUE(worst_w < 1e-6, "rotation rate is the derivative of the rotation angle");
  }
  /* circle: radius during the hold, zero before and after */
  double d[3], v[3], a[3], th[3], w[3];
  PlMotionEval(&mo[1], 0.5 + 10.0 + 12.3, d, v, a, th, w);
  CHECK_ABS(hypot(d[0], d[1]), 2.5, 1e-12, "circle radius while holding");
  CHECK_ABS(hypot(v[0], v[1]), 2.0 * PETSC_PI * 2.5 / 10.0, 1e-12, "circle speed while holding");
  PlMotionEval(&mo[1], 0.5 + 50.0 + 1e-9, d, v, a, th, w);
  CHECK_ABS(hypot(d[0], d[1]), 0.0, 1e-12, "circle back at the start after the ramp down");
  /* series: through the rows, held after the last */
  PlMotionEval(&mo[3], 2.5, d, v, a, th, w);
  CHECK_ABS(d[0], 3.0, 1e-12, "cubic series passes through its rows");
  PlMotionEval(&mo[2], 9.0, d, v, a, th, w);
  CHECK_ABS(d[0], 0.0, 1e-12, "series held at its last row");
  /* currents */
  PlCurrent c;
  memset(&c, 0, sizeof c);
  double vc[3], dvc[3];
  c.kind = PL_CURRENT_SHEARED;
  c.surface_speed = 0.8;
  c.seabed_speed = 0.2;
  c.direction_deg = -90.0;
  c.start_time = 10.0;
  c.ramp_time = 0.0;
  PlCurrentVelocity(&c, 800.0, -200.0, 20.0, vc, dvc);
  CHECK_ABS(vc[1], -(0.2 + 0.6 * 600.0 / 800.0), 1e-12, "sheared current at z = -200 m, towards -y");
  CHECK_ABS(vc[0], 0.0, 1e-12, "sheared current has no x component when heading -y");
  PlCurrentVelocity(&c, 800.0, -200.0, 5.0, vc, dvc);
  CHECK_ABS(vc[1], 0.0, 1e-12, "no current before its start time");
  c.kind = PL_CURRENT_TABLE;
  c.ntable = 3;
  double tz[3], ts[3];
  c.table_z = tz, c.table_speed = ts;
  c.table_z[0] = -800;
  c.table_z[1] = -100;
  c.table_z[2] = 0;
  c.table_speed[0] = 0.1;
  c.table_speed[1] = 0.5;
  c.table_speed[2] = 1.0;
  c.direction_deg = 0.0;
  PlCurrentVelocity(&c, 800.0, -50.0, 20.0, vc, dvc);
  CHECK_ABS(vc[0], 0.75, 1e-12, "table current interpolated in z");
  CHECK_ABS(dvc[0], 0.5 / 100.0, 1e-12, "table current's dv/dz");
  PetscFunctionReturn(0);
}

/* ---- a chain ringing on the seabed --------------------------------------------------------- */
static const char *kSeabedChain =
  "environment: {water_depth: 100, water_density: 1025, gravity: 9.81}\n"
  "line:\n"
  "  length: 20\n"
  "  sections:\n"
  "    - {outer_diameter: 0.1, EA: 1.0e8, EI: 1.0e3, GJ: 1.0e3, mass_per_length: 20,\n"
  "       hydrodynamics: {drag_normal: 0, added_mass_normal: 1}}\n"
  "seabed: {model: nonlinear}\n"
  "mesh: {elements: 10}\n"
  "ends:\n"
  "  bottom: {position: [0, 0, -99.9625], fixed: [x, y, rx, ry, rz]}\n"
  "  top: {position: [20, 0, -99.9625], fixed: [x, y, rx, ry, rz]}\n"
  "analysis: {type: static, initial_guess: straight}\n";

/* The chain of kSeabedChain (seabed.damping = damping unless NAN) set moving down at v0 from its
 * rest, for duration: the middle node's height above its rest every dt into z[n + 1] (may be
 * NULL), the IDA steps into *steps. */
static PetscErrorCode SeabedChainRun(double damping, double duration, int tight, int n, double *z, long *steps)
{
  PlModel m;
  PlProblem p;
  PlDynamic d;
  PlStaticReport rep;
  PetscFunctionBeginUser;
  if (LoadText(kSeabedChain, 0, NULL, &m)) PetscFunctionReturn(1);
  if (!isnan(damping)) m.seabed_damping = damping;
  if (tight) TightTolerances(&m, duration);
  else SetDynamicDefaults(&m, duration);
  PetscCall(PlProblemCreate(PETSC_COMM_WORLD, &m, &p));
  PetscCall(PlStaticSolve(p, &rep));
  CHECK_TRUE(rep.converged, "seabed chain: the static solve converged");
  PetscCall(PlDynamicCreate(p, NULL, &d));
  const int nn = PlProblemMesh(p)->nnodes, mid = nn / 2;
  double *v0 = calloc(3 * nn, sizeof(double)), x[3];
  for (int i = 0; i < nn; ++i) v0[3 * i + 2] = -0.05;
  PetscCall(PlDynamicSetVelocity(d, v0));
  free(v0);
  PetscCall(NodePosition(d, mid, x));
  const double z0 = x[2];
  if (z) z[0] = 0.0;
  for (int k = 1; k <= n; ++k) {
    int flag;
    char why[512];
    PetscCall(PlDynamicAdvance(d, duration * k / n, &flag, why, sizeof why));
    CHECK_TRUE(flag == 0, why);
    if (flag) break;
    PetscCall(NodePosition(d, mid, x));
    if (z) z[k] = x[2] - z0;
  }
  PlDynamicStats st;
  PetscCall(PlDynamicGetStats(d, &st));
  *steps = st.steps;
  PetscCall(PlDynamicDestroy(&d));
  PetscCall(PlProblemDestroy(&p));
  PlModelFree(&m);
  PetscFunctionReturn(0);
}

static PetscErrorCode SeabedRingCase(void)
{
  PetscFunctionBeginUser;
  const double zeta = PL_SEABED_DAMPING_RATIO, rho = 1025.0, g = 9.81, d_o = 0.1, mp = 20.0;
  const double ma = rho * PETSC_PI * d_o * d_o / 4.0, w = (mp - ma) * g, k = 10.0 * w / d_o;
  const double omega = sqrt(k / (mp + ma)), Td = 2.0 * PETSC_PI / (omega * sqrt(1.0 - zeta * zeta));
  const double duration = 2.0 * Td;
  const int n = 4000;
  double *z = calloc(n + 1, sizeof(double)), te[4], ze[4];
  long steps;
  PetscCall(SeabedChainRun(NAN, duration, 1, n, z, &steps));
  /* the first extremes (the samples', refined by a parabola) */
  int ne = 0;
  for (int i = 1; i < n && ne < 4; ++i)
    if ((z[i] - z[i - 1]) * (z[i + 1] - z[i]) < 0.0) {
      const double h = duration / n, a = 0.5 * (z[i + 1] - 2.0 * z[i] + z[i - 1]), b = 0.5 * (z[i + 1] - z[i - 1]);
      const double s = -b / (2.0 * a);
      te[ne] = (i + s) * h;
      ze[ne++] = z[i] + b * s + a * s * s;
    }
  CHECK_TRUE(ne >= 3, "seabed chain: three extremes in two damped periods");
  if (ne >= 3) {
    const double half = exp(-PETSC_PI * zeta / sqrt(1.0 - zeta * zeta)), full = half * half;
    printf("seabed_ring: zeta %.2f, damped period %.4f s (computed %.4f s); extremes %.4g, %.4g, %.4g mm: "
           "half-period ratio %.4f (expected %.4f), period ratio %.5f (expected %.5f)\n", zeta, Td,
           te[2] - te[0], 1e3 * ze[0], 1e3 * ze[1], 1e3 * ze[2], -ze[1] / ze[0], half, ze[2] / ze[0], full);
    CHECK_REL(-ze[1] / ze[0], half, 0.2, "seabed chain: the extremes fall by exp(-pi zeta/sqrt(1 - zeta^2)) a half period");
    CHECK_REL(ze[2] / ze[0], full, 0.2, "seabed chain: and by its square a period");
    CHECK_REL(te[2] - te[0], Td, 0.02, "seabed chain: the damped period");
  }
  free(z);
  long s_default, s_zero;
  PetscCall(SeabedChainRun(NAN, 10.0, 0, 100, NULL, &s_default));
  PetscCall(SeabedChainRun(0.0, 10.0, 0, 100, NULL, &s_zero));
  printf("seabed_ring: 10 s at the default tolerances: %ld steps with the default damping, %ld with damping 0\n",
         s_default, s_zero);
  CHECK_TRUE(2 * s_default < s_zero, "seabed chain: the default damping takes fewer than half the steps of none");
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscFunctionBeginUser;
  PetscCall(PlInitialize(&argc, &argv));
  if (argc < 3) {
    fprintf(stderr, "usage: test_dynamic CASE EXAMPLES_DIR\n");
    return 2;
  }
  g_examples = argv[2];
  const char *c = argv[1];
  PetscErrorCode ierr = 0;
  if (!strcmp(c, "jacobian")) {
    ierr = JacobianCase("rotation=quaternion", 0);
    if (!ierr) ierr = JacobianCase("rotation=euler_zxy", 0);
    if (!ierr) ierr = JacobianCase("rotation=quaternion", 1);
    if (!ierr) ierr = JacobianCase("rotation=euler_zxy", 1);
  } else if (!strcmp(c, "rest"))
    ierr = RestCase();
  else if (!strcmp(c, "motion"))
    ierr = MotionCase();
  else if (!strcmp(c, "cantilever"))
    ierr = CantileverCase();
  else if (!strcmp(c, "string"))
    ierr = StringRun(0);
  else if (!strcmp(c, "energy"))
    ierr = EnergyCase(0);
  else if (!strcmp(c, "passivity"))
    ierr = EnergyCase(1);
  else if (!strcmp(c, "quat_euler"))
    ierr = QuatEulerCase();
  else if (!strcmp(c, "convergence"))
    ierr = ConvergenceCase();
  else if (!strcmp(c, "seabed_ring"))
    ierr = SeabedRingCase();
  else {
    fprintf(stderr, "unknown case %s\n", c);
    ierr = 1;
  }
  PetscCall(PetscFinalize());
  return ierr ? 1 : CHECK_DONE();
}
