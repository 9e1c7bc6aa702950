/*
 * test_coupled.c - the vessel at the top of the line (issue 4): pipe, vessel and DP
 * controller solved together. One CTest test per case:
 *
 *   jacobian_quat, jacobian_euler, jacobian_hinge
 *              the assembled iteration matrix dF/dy + c dF/dydot of the coupled DAE (pipe
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
 *   passivity  no thrust, no environment, no vessel damping, the vessel given a velocity:
 *              without any damping the total energy of vessel and pipe stays constant
 *              within 1e-4 of the initial kinetic energy over 10 s; with the pipe's Morison
 *              drag it never rises by more than 1e-6 of it between outputs (eq 4.42), and
 *              falls.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <petscsnes.h>
#include "check.h"
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

/* ---- iteration matrix against finite differences --------------------------------------- */
static PetscErrorCode JacobianCase(int euler, int fixed)
{
  PlModel m;
  const char *sets[] = {euler ? "rotation=euler_zxy" : "rotation=quaternion"};
  PlProblem p;
  PlDynamic d;
  PlStaticReport rep;
  PetscFunctionBeginUser;
  if (Load(kRiser, 1, sets, &m)) PetscFunctionReturn(1);
  Dynamic(&m, 1.0, 1e-4);
  AddVessel(&m, fixed, 2);
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
  PetscCall(PlDynamicCreate(p, &d));
  Vec Y, YP, Fp, Fm, Yp, YPp;
  PetscCall(VecDuplicate(PlDynamicState(d), &Y));
  PetscCall(VecDuplicate(Y, &YP));
  PetscCall(VecDuplicate(Y, &Fp));
  PetscCall(VecDuplicate(Y, &Fm));
  PetscCall(VecDuplicate(Y, &Yp));
  PetscCall(VecDuplicate(Y, &YPp));
  PetscCall(VecCopy(PlDynamicState(d), Y));
  PetscRandom rnd;
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
  PetscCall(PetscRandomSetSeed(rnd, 11));
  PetscCall(PetscRandomSeed(rnd));
  PetscInt n, lo, hi;
  PetscMPIInt size;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(VecGetSize(Y, &n));
  PetscCall(VecGetOwnershipRange(Y, &lo, &hi));
  const int ndd = euler ? 12 : 13, iV = ndd - 6, npipe = m.mesh_elements + 1;
  for (PetscInt k = 0; k < n; ++k) {
    PetscScalar r1, r2;
    PetscCall(PetscRandomGetValue(rnd, &r1));
    PetscCall(PetscRandomGetValue(rnd, &r2));
    double ys, yps = 2.0;
    if (k < (PetscInt)npipe * ndd) {
      const int c = (int)(k % ndd);
      ys = c < 3 ? 0.02 : (c < iV ? 0.01 : 1.5);
    } else {
      const int c = (int)(k - (PetscInt)npipe * ndd);
      ys = c < 3 ? 0.05 : c < 7 ? 0.01 : c < 10 ? 0.5 : c < 13 ? 0.02 : 20.0;
      yps = c < 13 ? 0.3 : 2.0;
    }
    if (k < lo || k >= hi) continue; /* (every rank draws every number: the same state) */
    PetscCall(VecSetValue(Y, k, ys * r1, ADD_VALUES));
    PetscCall(VecSetValue(YP, k, yps * r2, INSERT_VALUES));
  }
  PetscCall(VecAssemblyBegin(Y));
  PetscCall(VecAssemblyEnd(Y));
  PetscCall(VecAssemblyBegin(YP));
  PetscCall(VecAssemblyEnd(YP));
  const double t = 35.0, c = 23.0;
  Mat J;
  PetscCall(MatDuplicate(PlDynamicMatrix(d), MAT_DO_NOT_COPY_VALUES, &J));
  PetscCall(PlDynamicIterationMatrix(d, t, Y, YP, c, J));
  /* directional derivative along a random v (any number of ranks): J v against
   * (F(y + h v, yp + c h v) - F(y - h v, yp - c h v)) / 2h */
  {
    Vec v, Jv, dF;
    PetscReal nJv, nd;
    PetscCall(VecDuplicate(Y, &v));
    PetscCall(VecDuplicate(Y, &Jv));
    PetscCall(VecDuplicate(Y, &dF));
    PetscCall(VecSetRandom(v, rnd));
    PetscCall(MatMult(J, v, Jv));
    const double h = 1e-7;
    PetscCall(VecWAXPY(Yp, h, v, Y));
    PetscCall(VecWAXPY(YPp, c * h, v, YP));
    PetscCall(PlDynamicResidual(d, t, Yp, YPp, Fp));
    PetscCall(VecWAXPY(Yp, -h, v, Y));
    PetscCall(VecWAXPY(YPp, -c * h, v, YP));
    PetscCall(PlDynamicResidual(d, t, Yp, YPp, Fm));
    PetscCall(VecWAXPY(dF, -1.0, Fm, Fp));
    PetscCall(VecScale(dF, 0.5 / h));
    PetscCall(VecNorm(Jv, NORM_INFINITY, &nJv));
    PetscCall(VecAXPY(dF, -1.0, Jv));
    PetscCall(VecNorm(dF, NORM_INFINITY, &nd));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%d rank(s): |J v - FD| / |J v| = %.3g\n", (int)size, nd / nJv));
    CHECK_TRUE(nd <= 1e-6 * nJv, "J v matches the central difference of the residual along v (1e-6)");
    PetscCall(VecDestroy(&v));
    PetscCall(VecDestroy(&Jv));
    PetscCall(VecDestroy(&dF));
  }
  if (size > 1) { /* the entry-by-entry check below is serial */
    PetscCall(PetscRandomDestroy(&rnd));
    PetscCall(MatDestroy(&J));
    PetscCall(VecDestroy(&Y));
    PetscCall(VecDestroy(&YP));
    PetscCall(VecDestroy(&Fp));
    PetscCall(VecDestroy(&Fm));
    PetscCall(VecDestroy(&Yp));
    PetscCall(VecDestroy(&YPp));
    PetscCall(PlDynamicDestroy(&d));
    PetscCall(PlProblemDestroy(&p));
    PlModelFree(&m);
    PetscFunctionReturn(0);
  }
  double *Jfd = calloc((size_t)n * n, sizeof(double));
  for (PetscInt j = 0; j < n; ++j) {
    const PetscScalar *y0;
    PetscCall(VecGetArrayRead(Y, &y0));
    const double hh = 1e-6 * fmax(1.0, fabs(y0[j]));
    PetscCall(VecRestoreArrayRead(Y, &y0));
    for (int sgn = -1; sgn <= 1; sgn += 2) {
      PetscCall(VecCopy(Y, Yp));
      PetscCall(VecCopy(YP, YPp));
      PetscCall(VecSetValue(Yp, j, sgn * hh, ADD_VALUES));
      PetscCall(VecSetValue(YPp, j, sgn * c * hh, ADD_VALUES));
      PetscCall(VecAssemblyBegin(Yp));
      PetscCall(VecAssemblyEnd(Yp));
      PetscCall(VecAssemblyBegin(YPp));
      PetscCall(VecAssemblyEnd(YPp));
      PetscCall(PlDynamicResidual(d, t, Yp, YPp, sgn > 0 ? Fp : Fm));
    }
    const PetscScalar *fp, *fm;
    PetscCall(VecGetArrayRead(Fp, &fp));
    PetscCall(VecGetArrayRead(Fm, &fm));
    for (PetscInt i = 0; i < n; ++i) Jfd[i * n + j] = (fp[i] - fm[i]) / (2.0 * hh);
    PetscCall(VecRestoreArrayRead(Fp, &fp));
    PetscCall(VecRestoreArrayRead(Fm, &fm));
  }
  double worst = 0.0;
  PetscInt wrow = -1;
  double *Ja = calloc(n, sizeof(double));
  for (PetscInt i = 0; i < n; ++i) {
    PetscInt ncols;
    const PetscInt *cols;
    const PetscScalar *vals;
    double rowmax = 0.0, err = 0.0;
    memset(Ja, 0, sizeof(double) * n);
    PetscCall(MatGetRow(J, i, &ncols, &cols, &vals));
    for (PetscInt k = 0; k < ncols; ++k) Ja[cols[k]] = vals[k];
    PetscCall(MatRestoreRow(J, i, &ncols, &cols, &vals));
    for (PetscInt j = 0; j < n; ++j) rowmax = fmax(rowmax, fmax(fabs(Ja[j]), fabs(Jfd[i * n + j])));
    for (PetscInt j = 0; j < n; ++j) err = fmax(err, fabs(Ja[j] - Jfd[i * n + j]));
    if (rowmax > 0 && err / rowmax > worst) {
      worst = err / rowmax;
      wrow = i;
    }
  }
  const PetscInt g0 = (PetscInt)npipe * ndd;
  if (wrow >= g0) printf("worst row: vessel unknown %d\n", (int)(wrow - g0));
  else printf("worst row: node %d row %d\n", (int)(wrow / ndd), (int)(wrow % ndd));
  printf("%s, %s: coupled iteration matrix vs FD: worst row-relative error %.3g (%d unknowns)\n",
         euler ? "Euler" : "quaternion", fixed ? "fixed" : "hinge", worst, (int)n);
  CHECK_TRUE(worst < 1e-6, "coupled iteration matrix matches central finite differences to 1e-6 (row-relative)");
  free(Ja);
  free(Jfd);
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(MatDestroy(&J));
  PetscCall(VecDestroy(&Y));
  PetscCall(VecDestroy(&YP));
  PetscCall(VecDestroy(&Fp));
  PetscCall(VecDestroy(&Fm));
  PetscCall(VecDestroy(&Yp));
  PetscCall(VecDestroy(&YPp));
  PetscCall(PlDynamicDestroy(&d));
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
  printf("vessel equilibrium: eta = (%.6f, %.6f, %.6f) m, (%.5f, %.5f, %.5f) deg; %d iterations, %d pipe solves; "
         "imbalance %.2e; held: %s\n", vr.eta[0], vr.eta[1], vr.eta[2], vr.eta[3] * 180 / M_PI, vr.eta[4] * 180 / M_PI,
         vr.eta[5] * 180 / M_PI, vr.iterations, vr.pipe_solves, vr.residual_rel, vr.nheld ? vr.held_text : "none");
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
  PetscCall(PlDynamicCreate(p, &d));
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
  PetscCall(PlDynamicCreate(p, &d));
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
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  const char *c = argc > 1 ? argv[1] : "";
  PetscErrorCode rc = 1;
  if (!strcmp(c, "jacobian_quat")) rc = JacobianCase(0, 1);
  else if (!strcmp(c, "jacobian_euler")) rc = JacobianCase(1, 1);
  else if (!strcmp(c, "jacobian_hinge")) rc = JacobianCase(0, 0);
  else if (!strcmp(c, "static")) rc = StaticCase();
  else if (!strcmp(c, "energy")) rc = PassivityCase(0);
  else if (!strcmp(c, "passivity")) rc = PassivityCase(1);
  else fprintf(stderr, "unknown case '%s'\n", c);
  PetscCall(PetscFinalize());
  return rc || pl_check_failures ? 1 : 0;
}
