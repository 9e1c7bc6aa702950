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
 *              within 1e-4 of the initial kinetic energy over 30 s; with the pipe's Morison
 *              drag it never rises by more than 1e-6 of it between outputs (eq 4.42), and
 *              falls.
 */
#include <math.h>
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
  PetscInt n;
  PetscCall(VecGetSize(Y, &n));
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

int main(int argc, char **argv)
{
  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  const char *c = argc > 1 ? argv[1] : "";
  PetscErrorCode rc = 1;
  if (!strcmp(c, "jacobian_quat")) rc = JacobianCase(0, 1);
  else if (!strcmp(c, "jacobian_euler")) rc = JacobianCase(1, 1);
  else if (!strcmp(c, "jacobian_hinge")) rc = JacobianCase(0, 0);
  else fprintf(stderr, "unknown case '%s'\n", c);
  PetscCall(PetscFinalize());
  return rc || pl_check_failures ? 1 : 0;
}
