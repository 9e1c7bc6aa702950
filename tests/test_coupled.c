/*
 * test_coupled.c - the vessel at the top of the line (issue 4): pipe, vessel and DP
 * controller solved together. One CTest test per case:
 *
 *   jacobian_quat, jacobian_euler, jacobian_hinge
 *              the iteration matrix dF/dy + c dF/dydot of the coupled DAE on the system core (pipe
 *              with drag, added mass, current and seabed; vessel with added mass, damping,
 *              hydrostatics, environment load; PID controller; hang-off point off O_b)
 *              against central finite differences of the residual on a disturbed state:
 *              every row within 1e-6 of the row's largest entry. Fixed connection with
 *              quaternions and with Euler angles, and a hinge.
 *   static     the coupled static equilibrium (PD controller, environment load, fixed
 *              connection): balanced to 1e-6 relative in every solved DOF (the report's
 *              imbalance), the controller's force equals the pipe's and the environment's
 *              loads, and the dynamic run started from it stays at rest for 20 s (every
 *              node and the vessel move less than 1 mm): the static and dynamic equations
 *              agree on the equilibrium.
 *   held       the vessel without DP (surge, sway, yaw held at the initial pose) against the
 *              same vessel whose PID (integral action in those three, its reference the
 *              initial pose) holds it there, in a current 60 deg off the pipe's plane: the
 *              same pose to 1e-9, and the loads left in the held DOFs equal the PID's steady
 *              thrust to 1e-8 of it.
 *   passivity  no thrust, no environment, no vessel damping, the vessel given a velocity:
 *              without any damping the total energy of vessel and pipe stays constant
 *              within 1e-4 of the initial kinetic energy over 10 s; with the pipe's Morison
 *              drag it never rises by more than 1e-6 of it between outputs (eq 4.42), and
 *              falls.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "system_fd.h"
#include "pipelay/solver.h"

static const char *kRiser =
  "environment: {water_depth: 100, water_density: 1025, gravity: 9.80665}\n"
  "line:\n"
  "  length: 150\n"
  "  sections:\n"
  "    - {outer_diameter: 0.3, EA: 2.0e9, EI: 5.0e6, GJ: 4.0e6, GA: 8.0e8, mass_per_length: 120,\n"
  "       rotary_inertia: [2.0, 1.0, 1.0],\n"
  "       hydrodynamics: {drag_normal: 1.0, drag_tangential: 0.1, added_mass_normal: 1.0}}\n"
  "seabed: {model: nonlinear}\n"
  "mesh: {elements: 10}\n"
  "rotation: quaternion\n"
  "ends:\n"
  "  bottom: {position: [0, 0, -99.9], orientation: [0, 0, 0], fixed: all}\n"
  "  top: {position: [90, 0, -5], fixed: [x, y, z]}\n"
  "analysis: {type: static}\n";

static int Load(const char *text, int n, const char *const *sets, PlModel *m)
{
  PlError err;
  const int rc = PlModelLoadString("test.yaml", text, strlen(text), n, sets, m, &err);
  if (rc) fprintf(stderr, "FAIL model load: %s\n", err.msg);
  return rc;
}

static void Dynamic(PlModel *m, double duration, double rtol)
{
  PlDynamicSettings *s = &m->analysis.dynamic;
  m->analysis.kind = PL_ANALYSIS_DYNAMIC;
  s->duration = duration;
  s->output_interval = 0.1;
  s->rtol = rtol;
  s->atol_position = 0.1 * rtol;
  s->atol_rotation = 0.1 * rtol;
  s->atol_velocity = rtol;
  s->atol_strain = 5e-7;
  s->max_order = 2;
  s->max_steps = 1000000;
}

/* The MSS supply vessel (examples/vessels/pipelay_vessel.yaml) at (100, 0, 0), the pipe
 * hanging from a = (-10, 0, -5) in the body frame; fixed: the top section's t1 at 70 deg
 * above the horizontal, in the x-z plane. */
static void AddVessel(PlModel *m, int fixed, int dp)
{
  PlVesselModel *v = &m->vessel;
  memset(v, 0, sizeof *v);
  v->present = true;
  PlVessel *V = &v->body;
  PlVesselInit(V);
  const double mass = 6.0e6, Ig[9] = {2.94e8, 0, 0, 0, 2.177415e9, 0, 0, 0, 2.177415e9}, rg[3] = {0, 0, 0};
  PlVesselRigidBodyMass(mass, rg, Ig, V->MRB);
  const double MA[36] = {7.644e5, 0, 0, 0, 0, 0, 0, 5.3412e6, 0, 0, 0, -3.401568e7,
                         0, 0, 9.6446e6, 0, 0, 0, 0, 0, 0, 1.51813e8, 0, 0,
                         0, 0, 0, 0, 4.267725e9, 0, 0, -3.401568e7, 0, 0, 0, 2.274963e9};
  const double Dp[36] = {7.7032e4, 0, 0, 0, 0, 0, 0, 2.54549e5, 0, 0, 0, -2.033122e6,
                         0, 0, 5.5386e6, 0, 0, 0, 0, 0, 0, 6.7173e7, 0, 0,
                         0, 0, 0, 0, 3.39444e9, 0, 0, -6.72242e5, 0, 0, 0, 3.84811e8};
  const double Dq[6] = {6.057e3, 1.84615e5, 0, 0, 0, 2.5526e9};
  memcpy(V->MA, MA, sizeof MA);
  memcpy(V->Dp, Dp, sizeof Dp);
  memcpy(V->Dq, Dq, sizeof Dq);
  V->Awp = 1219.2;
  V->GM_T = 1.9113;
  V->GM_L = 84.398;
  V->displacement = mass;
  V->z_eq = 0.0;
  V->rho_w = m->water_density;
  V->gravity = m->gravity;
  v->position[0] = 100.0;
  v->hang_off[0] = -10.0;
  v->hang_off[2] = -5.0;
  v->connection = fixed ? PL_HANGOFF_FIXED : PL_HANGOFF_HINGE;
  const double a = 70.0 * M_PI / 180.0, c = cos(a), s = sin(a);
  const double T[9] = {c, 0, -s, 0, 1, 0, s, 0, c}; /* columns t1 = (c, 0, s), t2 = e2, t3 = (-s, 0, c) */
  memcpy(v->top_frame, T, sizeof T);
  if (dp) {
    v->has_dp = true;
    PlDPControllerDefaults(&v->dp);
    PlDPController *C = &v->dp;
    const double kp[6] = {0.4e6, 0.4e6, 0, 0, 0, 1e7}, kd[6] = {0.5e7, 0.4e7, 0, 0, 0, 1e8},
                 ki[6] = {0.1e4, 0.5e4, 0, 0, 0, 0.2e5};
    memcpy(C->Kp, kp, sizeof kp);
    memcpy(C->Kd, kd, sizeof kd);
    if (dp == 2) memcpy(C->Ki, ki, sizeof ki);
    for (int i = 0; i < 6; ++i) C->integral_bound[i] = 0.0;
    C->ref.kind = PL_DP_REF_FIXED;
    C->ref.eta0[0] = 101.0;
  }
  PlVesselTopEnd(v, &m->ends[1]);
}

/* ---- iteration matrix against finite differences ---------------------------------------
 * statics 0: the dynamic iteration matrix; 1 or 2: the statics' matrix (system_static.c) with
 * held DOFs, 1 without DP (surge, sway, yaw held), 2 with the PID (heave and pitch held, the
 * integral states without integral action held at 0). */
static PetscErrorCode JacobianCase(int euler, int fixed, int statics)
{
  PlModel m;
  const char *sets[] = {euler ? "rotation=euler_zxy" : "rotation=quaternion"};
  PlProblem p;
  PlStaticReport rep;
  PetscFunctionBeginUser;
  if (Load(kRiser, 1, sets, &m)) PetscFunctionReturn(1);
  Dynamic(&m, 1.0, 1e-4);
  AddVessel(&m, fixed, statics == 1 ? 0 : 2);
  m.current.kind = PL_CURRENT_SHEARED;
  m.current.surface_speed = 0.8;
  m.current.seabed_speed = 0.1;
  m.current.direction_deg = -70.0;
  m.seabed_damping = 5e4;
  m.vessel.environment.value[1] = 6e5;
  m.vessel.environment.value[5] = 2e6;
  m.vessel.environment.ramp_time = 10.0;
  m.vessel.dp.thrust_max[0] = 2e6;
  m.vessel.dp.integral_bound[1] = 50.0;
  m.vessel.dp.ramp_time = 20.0;
  m.vessel.dp.start_time = 25.0; /* t = 35 s: half-way up the ramp, blending in from the held thrust */
  m.vessel.dp.tau_hold[0] = 1e5;
  m.vessel.dp.tau_hold[1] = -2e5;
  m.vessel.dp.tau_hold[5] = 3e6;
  PetscCall(PlProblemCreate(PETSC_COMM_WORLD, &m, &p));
  PetscCall(PlStaticSolve(p, &rep));
  CHECK_TRUE(rep.converged, "static start converged");
  /* pipe and vessel on the system core (the vessel its body 0), as a run integrates them */
  PlLines L;
  PlSysDyn S;
  PlLinesReport *lrep = calloc(1, sizeof *lrep);
  PetscCheck(lrep && PlLinesReportInit(lrep, 1, 0, 1, 0) == 0, PETSC_COMM_WORLD, PETSC_ERR_MEM, "memory");
  for (int k = 0; k < 3; ++k) {
    lrep->body_eta[0][k] = m.vessel.position[k];
    lrep->body_eta[0][3 + k] = m.vessel.rpy[k];
  }
  PetscCall(PlLinesOfProblem(p, &L));
  PetscCall(PlSysDynCreate(L, lrep, &S));
  const int n = PlSysDynSize(S);
  double *y = malloc(sizeof(double) * n), *yp = malloc(sizeof(double) * n);
  PetscCheck(y && yp, PETSC_COMM_WORLD, PETSC_ERR_MEM, "memory");
  if (statics) {
    const int held[2][6] = {{1, 1, 0, 0, 0, 1}, {0, 0, 1, 0, 1, 0}};
    PlSysStaticHold(S, 0, held[statics - 1]);
  }
  FdGenericState(S, 11, y, yp);
  const double t = 35.0, c = 23.0;
  int wr, wc;
  const double worst = FdMatrixError(S, statics > 0, t, y, yp, c, &wr, &wc);
  printf("%s, %s%s: coupled iteration matrix vs FD: worst row-relative error %.3g (%d unknowns; row %d, column %d)\n",
         euler ? "Euler" : "quaternion", fixed ? "fixed" : "hinge",
         statics == 1 ? ", statics, surge, sway, yaw held" : statics == 2 ? ", statics, PID, heave and pitch held" : "",
         worst, n, wr, wc);
  CHECK_TRUE(worst >= 0.0, "the matrix at a state inside the domain");
  CHECK_TRUE(worst < 1e-6, "coupled iteration matrix matches central finite differences to 1e-6 (row-relative)");
  PlLinesReportFree(lrep);
  free(y), free(yp), free(lrep);
  PetscCall(PlSysDynDestroy(&S));
  PetscCall(PlLinesDestroy(&L));
  PetscCall(PlProblemDestroy(&p));
  PlModelFree(&m);
  PetscFunctionReturn(0);
}

/* Gathered position of the vessel (O_b) and of every pipe node. */
static PetscErrorCode Positions(PlDynamic d, int nn, double *x)
{
  double *y;
  int ndd;
  PetscFunctionBeginUser;
  PetscCall(PlDynamicGatherState(d, &y, &ndd));
  for (int i = 0; i < nn; ++i)
    for (int c = 0; c < 3; ++c) x[3 * i + c] = y[(size_t)i * ndd + c];
  for (int c = 0; c < 3; ++c) x[3 * nn + c] = y[(size_t)nn * ndd + c];
  free(y);
  PetscFunctionReturn(0);
}

/* ---- coupled static equilibrium, and rest ------------------------------------------------- */
static PetscErrorCode StaticCase(void)
{
  PlModel m;
  const char *sets[] = {"rotation=quaternion"};
  PlProblem p;
  PlDynamic d;
  PlStaticReport rep;
  PlVesselStaticReport vr;
  PetscFunctionBeginUser;
  if (Load(kRiser, 1, sets, &m)) PetscFunctionReturn(1);
  Dynamic(&m, 20.0, 1e-6);
  AddVessel(&m, 1, 1);
  m.vessel.environment.value[1] = 6e5; /* a step at t = 0: on in the static state */
  PetscCall(PlProblemCreate(PETSC_COMM_WORLD, &m, &p));
  PetscCall(PlStaticSolve(p, &rep));
  CHECK_TRUE(rep.converged, "pipe static converged");
  PetscCall(PlVesselStaticSolve(p, &vr));
  printf("vessel equilibrium: eta = (%.6f, %.6f, %.6f) m, (%.5f, %.5f, %.5f) deg; %d iterations, %d rejected; "
         "imbalance %.2e; held: %s\n", vr.eta[0], vr.eta[1], vr.eta[2], vr.eta[3] * 180 / M_PI, vr.eta[4] * 180 / M_PI,
         vr.eta[5] * 180 / M_PI, vr.iterations, vr.rejected, vr.residual_rel, vr.nheld ? vr.held_text : "none");
  if (vr.failure[0]) printf("failure: %s\n", vr.failure);
  CHECK_TRUE(vr.converged, "coupled static equilibrium converged");
  CHECK_TRUE(vr.nheld == 0, "every DOF has restoring (hydrostatics, DP)");
  CHECK_TRUE(vr.residual_rel <= 1e-6, "forces and moments balance to 1e-6 relative");
  /* horizontal force balance in the global frame (restoring is vertical there): R (thrust +
   * pipe load) + environment = 0 in x and y */
  double q[4], R[9];
  PlVesselQuatFromEulerZYX(vr.eta + 3, q);
  PlQuatToMatrix(q, R);
  for (int i = 0; i < 2; ++i) {
    double th = 0.0, pl = 0.0;
    for (int k = 0; k < 3; ++k) {
      th += R[3 * i + k] * vr.thrust[k];
      pl += R[3 * i + k] * vr.pipe_load[k];
    }
    const double sum = th + pl + vr.environment[i], mag = fabs(th) + fabs(pl) + fabs(vr.environment[i]);
    printf("global %c: thrust %.6e N, pipe %.6e N, environment %.6e N, sum %.3e N\n", "xy"[i], th, pl,
           vr.environment[i], sum);
    CHECK_TRUE(fabs(sum) <= 1e-6 * mag, "thrust balances pipe and environment horizontally (1e-6 relative)");
  }
  /* rest: the dynamic run from the equilibrium, nothing changing */
  const int nn = m.mesh_elements + 1;
  double *x0 = malloc(sizeof(double) * 3 * (nn + 1)), *x1 = malloc(sizeof(double) * 3 * (nn + 1));
  PetscCall(PlDynamicCreate(p, NULL, &d));
  PetscCall(Positions(d, nn, x0));
  int flag;
  char why[512];
  PetscCall(PlDynamicAdvance(d, 20.0, &flag, why, sizeof why));
  CHECK_TRUE(flag == 0, "dynamic run completed");
  PetscCall(Positions(d, nn, x1));
  double worst = 0.0;
  for (int k = 0; k < 3 * (nn + 1); ++k) worst = fmax(worst, fabs(x1[k] - x0[k]));
  printf("rest for 20 s from the coupled equilibrium: largest displacement %.3g m (vessel %.3g m)\n", worst,
         hypot(hypot(x1[3 * nn] - x0[3 * nn], x1[3 * nn + 1] - x0[3 * nn + 1]), x1[3 * nn + 2] - x0[3 * nn + 2]));
  CHECK_TRUE(worst < 1e-3, "pipe and vessel stay at rest (1 mm)");
  free(x0);
  free(x1);
  PetscCall(PlDynamicDestroy(&d));
  PetscCall(PlProblemDestroy(&p));
  PlModelFree(&m);
  PetscFunctionReturn(0);
}

/* ---- held DOFs against the DP that holds them ------------------------------------------------
 * The vessel without DP has surge, sway and yaw held at its initial pose (their rows become
 * eta_i - eta_i0 = 0, the loads left there reported); with a PID whose integral action drives
 * those three to a reference at the initial pose, the controller holds the same pose by its
 * thrust. The two equilibria are the same: the pose equal, and the loads left in the held DOFs
 * equal to the PID's steady thrust (both are minus the other loads on those rows). */
static PetscErrorCode HeldCase(void)
{
  PlVesselStaticReport vr[2];
  PetscFunctionBeginUser;
  for (int k = 0; k < 2; ++k) {
    PlModel m;
    const char *sets[] = {"rotation=quaternion"};
    PlProblem p;
    PlStaticReport rep;
    if (Load(kRiser, 1, sets, &m)) PetscFunctionReturn(1);
    AddVessel(&m, 1, k ? 2 : 0); /* a static analysis: the current settled */
    m.vessel.dp.ref.eta0[0] = m.vessel.position[0]; /* the reference at the initial pose */
    m.current.kind = PL_CURRENT_UNIFORM;              /* a load in sway and yaw too */
    m.current.speed = 0.8;
    m.current.direction_deg = 60.0;
    m.current.ramp_time = 0.0;
    PetscCall(PlProblemCreate(PETSC_COMM_WORLD, &m, &p));
    PetscCall(PlStaticSolve(p, &rep));
    CHECK_TRUE(rep.converged, "pipe static converged");
    PetscCall(PlVesselStaticSolve(p, &vr[k]));
    CHECK_TRUE(vr[k].converged, k ? "the equilibrium with the PID converged" : "the equilibrium with held DOFs converged");
    printf("%s: eta (%.9f, %.9f, %.9f) m, (%.9f, %.9f, %.9f) deg; held %s; unbalanced (%.6e, %.6e, %.6e) N m; thrust "
           "(%.6e, %.6e, %.6e)\n", k ? "PID" : "no DP", vr[k].eta[0], vr[k].eta[1], vr[k].eta[2],
           vr[k].eta[3] * 180 / M_PI, vr[k].eta[4] * 180 / M_PI, vr[k].eta[5] * 180 / M_PI,
           vr[k].nheld ? vr[k].held_text : "none", vr[k].unbalanced[0], vr[k].unbalanced[1], vr[k].unbalanced[5],
           vr[k].thrust[0], vr[k].thrust[1], vr[k].thrust[5]);
    PetscCall(PlProblemDestroy(&p));
    PlModelFree(&m);
  }
  CHECK_TRUE(vr[0].nheld == 3 && vr[0].held[0] && vr[0].held[1] && vr[0].held[5], "no DP: surge, sway and yaw held");
  CHECK_TRUE(vr[1].nheld == 0, "PID: nothing held");
  double dpose = 0.0, dload = 0.0, scale = 0.0;
  for (int i = 0; i < 6; ++i) {
    dpose = fmax(dpose, fabs(vr[0].eta[i] - vr[1].eta[i]));
    scale = fmax(scale, fabs(vr[1].thrust[i]));
  }
  for (int i = 0; i < 6; ++i) dload = fmax(dload, fabs(vr[0].unbalanced[i] - vr[1].thrust[i]));
  printf("held against PID: pose %.2e (m, rad), held loads against thrust %.2e of the largest thrust %.4e\n", dpose,
         dload / scale, scale);
  CHECK_TRUE(dpose <= 1e-9, "the same pose (1e-9 m and rad)");
  CHECK_TRUE(dload <= 1e-8 * scale, "the loads left in the held DOFs equal the PID's steady thrust (1e-8)");
  PetscFunctionReturn(0);
}

/* ---- passivity of vessel + pipe (eq 4.42) --------------------------------------------------- */
static PetscErrorCode PassivityCase(int damped)
{
  PlModel m;
  const char *sets[] = {"rotation=quaternion", "seabed.model=none"};
  PlProblem p;
  PlDynamic d;
  PlStaticReport rep;
  PetscFunctionBeginUser;
  if (Load(kRiser, 2, sets, &m)) PetscFunctionReturn(1);
  const double T = 10.0;
  Dynamic(&m, T, 1e-5); m.analysis.dynamic.duration = T;
  AddVessel(&m, 1, 0);
  PlHydro *h = &m.segments[0].hydro;
  h->drag_normal = damped ? 1.0 : 0.0;
  h->drag_tangential = damped ? 0.1 : 0.0;
  h->added_mass_normal = 0.0; /* (added mass of the pipe is not in the energy) */
  memset(m.vessel.body.Dp, 0, sizeof m.vessel.body.Dp);
  memset(m.vessel.body.Dq, 0, sizeof m.vessel.body.Dq);
  m.vessel.velocity[0] = 0.5;
  m.vessel.velocity[1] = 0.3;
  m.vessel.velocity[2] = 0.1;
  m.vessel.angular_velocity[0] = 0.002;
  m.vessel.angular_velocity[1] = 0.003;
  m.vessel.angular_velocity[2] = 0.004;
  PetscCall(PlProblemCreate(PETSC_COMM_WORLD, &m, &p));
  PetscCall(PlStaticSolve(p, &rep));
  CHECK_TRUE(rep.converged, "pipe static converged");
  PetscCall(PlDynamicCreate(p, NULL, &d));
  double k0, s0, p0, ke, se, pe;
  PetscCall(PlDynamicEnergy(d, &k0, &s0, &p0));
  const double E0 = k0 + s0 + p0;
  double prev = E0, rise = 0.0, drift = 0.0, E = E0;
  int flag = 0;
  char why[512];
  for (int k = 1; k <= (int)(T / 0.1 + 0.5) && !flag; ++k) {
    PetscCall(PlDynamicAdvance(d, 0.1 * k, &flag, why, sizeof why));
    PetscCall(PlDynamicEnergy(d, &ke, &se, &pe));
    E = ke + se + pe;
    rise = fmax(rise, E - prev);
    drift = fmax(drift, fabs(E - E0));
    prev = E;
  }
  CHECK_TRUE(flag == 0, "dynamic run completed");
  PlDynamicStats st;
  PetscCall(PlDynamicGetStats(d, &st));
  printf("IDA: %ld steps, %ld Newton iterations, %ld matrices, %ld convergence failures, %ld error-test failures\n",
         st.steps, st.nonlinear_iterations, st.jacobian_evaluations, st.nonlinear_failures, st.error_test_failures);
  printf("%s: initial kinetic energy %.6e J; largest rise between outputs %.3e J (%.2e of it), largest |E - E0| "
         "%.3e J (%.2e), E(T) - E0 = %.3e J\n", damped ? "with drag" : "no damping", k0, rise, rise / k0, drift,
         drift / k0, E - E0);
  if (damped) {
    CHECK_TRUE(rise <= 1e-6 * k0, "energy never rises by more than 1e-6 of the initial kinetic energy");
    CHECK_TRUE(E < E0 - 1e-3 * k0, "drag dissipates energy");
  } else
    CHECK_TRUE(drift <= 1e-4 * k0, "total energy conserved within 1e-4 of the initial kinetic energy");
  PetscCall(PlDynamicDestroy(&d));
  PetscCall(PlProblemDestroy(&p));
  PlModelFree(&m);
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscFunctionBeginUser;
  PetscCall(PlInitialize(&argc, &argv));
  const char *c = argc > 1 ? argv[1] : "";
  PetscErrorCode rc = 1;
  if (!strcmp(c, "jacobian_quat")) rc = JacobianCase(0, 1, 0);
  else if (!strcmp(c, "jacobian_euler")) rc = JacobianCase(1, 1, 0);
  else if (!strcmp(c, "jacobian_hinge")) rc = JacobianCase(0, 0, 0);
  else if (!strcmp(c, "jacobian_static")) rc = JacobianCase(0, 1, 1) || JacobianCase(1, 1, 2);
  else if (!strcmp(c, "static")) rc = StaticCase();
  else if (!strcmp(c, "held")) rc = HeldCase();
  else if (!strcmp(c, "energy")) rc = PassivityCase(0);
  else if (!strcmp(c, "passivity")) rc = PassivityCase(1);
  else fprintf(stderr, "unknown case '%s'\n", c);
  PetscCall(PetscFinalize());
  return rc || pl_check_failures ? 1 : 0;
}
