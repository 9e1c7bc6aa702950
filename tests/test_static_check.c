/*
 * test_static_check.c - the static solve never reports a state that is not physical
 * (issue 12, item 6), and it stops when asked to (item 8).
 *
 *   test_static_check check EXAMPLES   the converged default J-lay passes the physical check;
 *                                      the same state shrunk to half its length about the
 *                                      bottom end (axial strain -0.5), with two nodes swapped
 *                                      (an element folded back) and moved 5 m down as a rigid
 *                                      body (the laid pipe through the seabed, strains
 *                                      unchanged) each fails it, with its reason.
 *   test_static_check stop EXAMPLES    a stop request before the solve: PlStaticSolve
 *                                      returns at once (< 1 s) not converged, interrupted.
 *   test_static_check loads EXAMPLES   the Jacobian of the external loads alone (current drag
 *                                      in a sheared current 30 deg off the lay plane with
 *                                      tangential drag, weight across the sea surface, seabed),
 *                                      J(with current) - J(without) and the load rows at the
 *                                      surface, against central finite differences of the
 *                                      residual: 1e-6 of the largest such entry, both
 *                                      parametrisations.
 *   test_static_check string EXAMPLES  a taut, neutrally buoyant vertical line (T = 100 kN,
 *                                      h = 100 m) in a uniform current U: mid-height deflection
 *                                      q h^2 / (8 T), q = rho d C_dn U^2 / 2, within 0.2 %
 *                                      (small-deflection string; the drag's angle effect is
 *                                      below 1e-4 here).
 *   test_static_check surface EXAMPLES a J-lay whose top is 15 m above the sea surface, EI
 *                                      negligible: top tension T = H + w (0 - z_td) + m g 15
 *                                      (dT = q dz along a cable: submerged weight below the
 *                                      surface, dry weight above) within 0.1 %, for H = 200 and
 *                                      800 kN; the same model all submerged would be 4 % off.
 */
#include <string.h>
#include <signal.h>
#include <math.h>
#include <petscdmda.h>
#include "check.h"
#include "pipelay/solver.h"

/* CHECK_TRUE with a formatted description */
#define CHECK(cond, ...)                                                                     \
  do {                                                                                     \
    char what_[640];                                                                       \
    snprintf(what_, sizeof what_, __VA_ARGS__);                                            \
    CHECK_TRUE(cond, what_);                                                               \
  } while (0)

static int LoadJlay(const char *examples, PlModel *m)
{
  char path[1024];
  PlError err;
  snprintf(path, sizeof path, "%s/jlay_900m.yaml", examples);
  const char *sets[] = {"output.directory=/tmp/unused"};
  if (PlModelLoad(path, 1, sets, m, &err)) {
    fprintf(stderr, "FAIL model load: %s\n", err.msg);
    return 1;
  }
  return 0;
}

/* u <- the transform of the saved state: positions about the bottom node scaled by s, moved
 * down by dz, and nodes a, a+1 swapped (a < 0: none). Rotations unchanged. */
static PetscErrorCode Transform(PlProblem p, Vec saved, double s, double dz, int a)
{
  DM da;
  PetscInt xs, xm, nd;
  PetscScalar **u;
  const PetscScalar **u0;
  Vec U = PlProblemSolution(p);
  PetscFunctionBeginUser;
  PetscCall(VecGetDM(U, &da));
  PetscCall(DMDAGetInfo(da, NULL, NULL, NULL, NULL, NULL, NULL, NULL, &nd, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(da, &xs, NULL, NULL, &xm, NULL, NULL));
  /* serial test: the bottom node and the swapped pair are on this rank */
  PetscCall(DMDAVecGetArrayDOFRead(da, saved, &u0));
  PetscCall(DMDAVecGetArrayDOF(da, U, &u));
  for (PetscInt i = xs; i < xs + xm; ++i) {
    const PetscInt j = a >= 0 && i == a ? a + 1 : (a >= 0 && i == a + 1 ? a : i);
    for (int c = 0; c < 3; ++c) u[i][c] = u0[0][c] + s * (u0[j][c] - u0[0][c]);
    u[i][2] -= dz;
  }
  PetscCall(DMDAVecRestoreArrayDOF(da, U, &u));
  PetscCall(DMDAVecRestoreArrayDOFRead(da, saved, &u0));
  PetscFunctionReturn(0);
}

static PetscErrorCode CaseCheck(const char *examples)
{
  PlModel m;
  PlProblem p;
  PlStaticReport rep;
  Vec saved;
  int bad;
  char why[512];
  PetscFunctionBeginUser;
  if (LoadJlay(examples, &m)) PetscFunctionReturn(1);
  PetscCall(PlProblemCreate(PETSC_COMM_WORLD, &m, &p));
  PlProblemSetQuiet(p, 1);
  PetscCall(PlStaticSolve(p, &rep));
  CHECK(rep.converged, "the default J-lay converges");
  PetscCall(PlStaticCheckState(p, &bad, why, sizeof why));
  CHECK(!bad, "the converged J-lay passes the check (%s)", bad ? why : "");
  PetscCall(VecDuplicate(PlProblemSolution(p), &saved));
  PetscCall(VecCopy(PlProblemSolution(p), saved));

  PetscCall(Transform(p, saved, 0.5, 0.0, -1));
  PetscCall(PlStaticCheckState(p, &bad, why, sizeof why));
  CHECK(bad && strstr(why, "axial strain"), "half length: axial strain reported (%s)", why);

  PetscCall(Transform(p, saved, 1.0, 0.0, 400));
  PetscCall(PlStaticCheckState(p, &bad, why, sizeof why));
  CHECK(bad && (strstr(why, "folded") || strstr(why, "axial strain")), "swapped nodes: fold reported (%s)", why);

  PetscCall(Transform(p, saved, 1.0, 5.0, -1));
  PetscCall(PlStaticCheckState(p, &bad, why, sizeof why));
  CHECK(bad && strstr(why, "seabed"), "5 m down: the line through the seabed reported (%s)", why);

  PetscCall(Transform(p, saved, 1.0, 0.0, -1));
  PetscCall(PlStaticCheckState(p, &bad, why, sizeof why));
  CHECK(!bad, "restored: passes again");
  PetscCall(VecDestroy(&saved));
  PetscCall(PlProblemDestroy(&p));
  PlModelFree(&m);
  PetscFunctionReturn(0);
}

static PetscErrorCode CaseStop(const char *examples)
{
  PlModel m;
  PlProblem p;
  PlStaticReport rep;
  static volatile sig_atomic_t stop = 1;
  PetscLogDouble t0, t1;
  PetscFunctionBeginUser;
  if (LoadJlay(examples, &m)) PetscFunctionReturn(1);
  PetscCall(PlProblemCreate(PETSC_COMM_WORLD, &m, &p));
  PlProblemSetQuiet(p, 1);
  PlProblemSetStopFlag(p, &stop);
  PetscCall(PetscTime(&t0));
  PetscCall(PlStaticSolve(p, &rep));
  PetscCall(PetscTime(&t1));
  CHECK(!rep.converged && rep.interrupted, "a stop request: not converged, interrupted");
  CHECK(t1 - t0 < 1.0, "returns within a second (%.3f s)", t1 - t0);
  PetscCall(PlProblemDestroy(&p));
  PlModelFree(&m);
  PetscFunctionReturn(0);
}


/* J(with) - J(without) and F(with) - F(without) for two problems on one state: the rows the
 * loads touch, against central differences. */
static PetscErrorCode CaseLoads(const char *examples)
{
  char path[1024];
  const char *rot[2] = {"rotation=quaternion", "rotation=euler_zxy"};
  PetscFunctionBeginUser;
  snprintf(path, sizeof path, "%s/jlay_900m.yaml", examples);
  for (int k = 0; k < 2; ++k) {
    const char *sets[7] = {rot[k], "mesh.elements=30", "analysis.max_iterations=1", "analysis.max_cutbacks=0",
                           "ends.top.position=[~,0,0.2]", "output.directory=/tmp/unused",
                           "current={profile: sheared, surface_speed: 1.5, seabed_speed: 0.3, direction: 30}"};
    PlModel m1, m0;
    PlError err;
    if (PlModelLoad(path, 7, sets, &m1, &err) || PlModelLoad(path, 6, sets, &m0, &err)) {
      fprintf(stderr, "FAIL load: %s\n", err.msg);
      PetscFunctionReturn(1);
    }
    m1.segments[0].hydro.drag_tangential = 0.3;
    PlProblem p1, p0;
    PlStaticReport rep;
    PetscCall(PlProblemCreate(PETSC_COMM_WORLD, &m1, &p1));
    PetscCall(PlProblemCreate(PETSC_COMM_WORLD, &m0, &p0));
    PlProblemSetQuiet(p1, 1);
    PlProblemSetQuiet(p0, 1);
    PetscCall(PlStaticSolve(p1, &rep)); /* sets up the SNES and finds a state with contact */
    PetscCall(PlStaticSolve(p0, &rep));
    Vec U = PlProblemSolution(p1), Up, F1p, F1m, F0p, F0m, Ud;
    PetscRandom rnd;
    PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
    PetscCall(PetscRandomSetInterval(rnd, -0.02, 0.02));
    PetscCall(VecDuplicate(U, &Ud));
    PetscCall(VecSetRandom(Ud, rnd));
    PetscCall(VecAXPY(U, 1.0, Ud));
    PetscCall(VecCopy(U, PlProblemSolution(p0)));
    PlProblemSetLoadFactor(p1, 1.0);
    PlProblemSetLoadFactor(p0, 1.0);
    PetscCall(VecDuplicate(U, &Up));
    PetscCall(VecDuplicate(U, &F1p));
    PetscCall(VecDuplicate(U, &F1m));
    PetscCall(VecDuplicate(U, &F0p));
    PetscCall(VecDuplicate(U, &F0m));
    Mat J1, J0, D1, D0;
    SNES s1 = PlProblemSNES(p1), s0 = PlProblemSNES(p0);
    PetscCall(SNESGetJacobian(s1, &J1, NULL, NULL, NULL));
    PetscCall(SNESGetJacobian(s0, &J0, NULL, NULL, NULL));
    PetscCall(SNESComputeJacobian(s1, U, J1, J1));
    PetscCall(SNESComputeJacobian(s0, U, J0, J0));
    PetscCall(MatConvert(J1, MATDENSE, MAT_INITIAL_MATRIX, &D1));
    PetscCall(MatConvert(J0, MATDENSE, MAT_INITIAL_MATRIX, &D0));
    PetscInt n;
    PetscCall(VecGetSize(U, &n));
    const PetscScalar *a1, *a0;
    PetscCall(MatDenseGetArrayRead(D1, &a1));
    PetscCall(MatDenseGetArrayRead(D0, &a0));
    double dmax = 0.0, emax = 0.0;
    for (PetscInt i = 0; i < n * n; ++i) dmax = fmax(dmax, fabs(a1[i] - a0[i]));
    for (PetscInt j = 0; j < n; ++j) {
      const double h = 1e-4; /* the rod's forces (1e10 N) cancel in F1 - F0 only to round-off */
      const PetscScalar *f1p, *f1m, *f0p, *f0m;
      PetscCall(VecCopy(U, Up));
      PetscCall(VecSetValue(Up, j, h, ADD_VALUES));
      PetscCall(VecAssemblyBegin(Up));
      PetscCall(VecAssemblyEnd(Up));
      PetscCall(SNESComputeFunction(s1, Up, F1p));
      PetscCall(SNESComputeFunction(s0, Up, F0p));
      PetscCall(VecSetValue(Up, j, -2 * h, ADD_VALUES));
      PetscCall(VecAssemblyBegin(Up));
      PetscCall(VecAssemblyEnd(Up));
      PetscCall(SNESComputeFunction(s1, Up, F1m));
      PetscCall(SNESComputeFunction(s0, Up, F0m));
      PetscCall(VecGetArrayRead(F1p, &f1p));
      PetscCall(VecGetArrayRead(F1m, &f1m));
      PetscCall(VecGetArrayRead(F0p, &f0p));
      PetscCall(VecGetArrayRead(F0m, &f0m));
      for (PetscInt i = 0; i < n; ++i) {
        const double fd = ((f1p[i] - f0p[i]) - (f1m[i] - f0m[i])) / (2 * h);
        emax = fmax(emax, fabs(fd - (a1[i + j * n] - a0[i + j * n])));
      }
      PetscCall(VecRestoreArrayRead(F1p, &f1p));
      PetscCall(VecRestoreArrayRead(F1m, &f1m));
      PetscCall(VecRestoreArrayRead(F0p, &f0p));
      PetscCall(VecRestoreArrayRead(F0m, &f0m));
    }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: current drag: max |dJ - dJ_fd| / max |dJ| = %.3e (max |dJ| %.3e)\n",
                          rot[k], emax / dmax, dmax));
    CHECK(dmax > 1.0 && emax <= 1e-6 * dmax, "%s: the drag's Jacobian against FD (%.3e of %.3e)", rot[k], emax, dmax);
    PetscCall(MatDenseRestoreArrayRead(D1, &a1));
    PetscCall(MatDenseRestoreArrayRead(D0, &a0));
    PetscCall(MatDestroy(&D1));
    PetscCall(MatDestroy(&D0));
    PetscCall(VecDestroy(&Up));
    PetscCall(VecDestroy(&Ud));
    PetscCall(VecDestroy(&F1p));
    PetscCall(VecDestroy(&F1m));
    PetscCall(VecDestroy(&F0p));
    PetscCall(VecDestroy(&F0m));
    PetscCall(PetscRandomDestroy(&rnd));
    PetscCall(PlProblemDestroy(&p1));
    PetscCall(PlProblemDestroy(&p0));
    PlModelFree(&m1);
    PlModelFree(&m0);
  }
  /* the weight across the surface, against finite differences of the function itself */
  {
    PlSection sec = {0};
    sec.outer_diameter = 0.762;
    sec.mass_per_length = 593.28;
    const double zs[4][2] = {{-0.2, 0.3}, {-3.0, 2.0}, {0.1, -0.35}, {-0.5, 0.5}};
    for (int c = 0; c < 4; ++c) {
      double f[2], K[2][2], fp[2], fm[2], Kd[2][2], kmax = 0.0, e = 0.0;
      PlElementWeight(&sec, 1025, 9.80665, 2.0, zs[c][0], zs[c][1], f, K);
      for (int b = 0; b < 2; ++b) {
        double z1[2] = {zs[c][0], zs[c][1]}, z2[2] = {zs[c][0], zs[c][1]};
        z1[b] += 1e-7;
        z2[b] -= 1e-7;
        PlElementWeight(&sec, 1025, 9.80665, 2.0, z1[0], z1[1], fp, NULL);
        PlElementWeight(&sec, 1025, 9.80665, 2.0, z2[0], z2[1], fm, NULL);
        for (int a = 0; a < 2; ++a) {
          Kd[a][b] = (fp[a] - fm[a]) / 2e-7;
          kmax = fmax(kmax, fabs(K[a][b]));
          e = fmax(e, fabs(Kd[a][b] - K[a][b]));
        }
      }
      CHECK(kmax > 0.0 && e <= 1e-6 * kmax, "weight across the surface (%g .. %g m): dq/dz against FD, %.2e of %.2e",
            zs[c][0], zs[c][1], e, kmax);
    }
  }
  PetscFunctionReturn(0);
}

static const char *kVertical =
  "environment: {water_depth: 200, water_density: 1025, gravity: 9.80665}\n"
  "line:\n  length: 100\n  sections:\n"
  "    - {outer_diameter: 0.1, EA: 1e10, GA: 1e9, GJ: 1e4, EI: 10, mass_per_length: 8.050442793,\n"
  "       hydrodynamics: {drag_normal: 1.2}}\n"  /* rho pi d^2/4: neutrally buoyant */
  "seabed: {model: none}\nmesh: {elements: 200}\n"
  "ends:\n  bottom: {position: [0, 0, -150], fixed: [x, y, z, rx]}\n"
  "  top: {position: [0, 0, ~], fixed: [x, y], force: [0, 0, 1e5]}\n"
  "current: {profile: uniform, speed: 0.5}\n"
  "output: {directory: /tmp/unused}\n";

static PetscErrorCode CaseString(void)
{
  PlModel m;
  PlError err;
  PlProblem p;
  PlStaticReport rep;
  double *x, *q;
  int nn;
  PetscFunctionBeginUser;
  if (PlModelLoadString("vertical.yaml", kVertical, strlen(kVertical), 0, NULL, &m, &err)) {
    fprintf(stderr, "FAIL load: %s\n", err.msg);
    PetscFunctionReturn(1);
  }
  PetscCall(PlProblemCreate(PETSC_COMM_WORLD, &m, &p));
  PlProblemSetQuiet(p, 1);
  PetscCall(PlStaticSolve(p, &rep));
  CHECK(rep.converged, "the taut line in current converges");
  PetscCall(PlProblemGatherState(p, &x, &q, &nn));
  const double qd = 0.5 * 1025 * 0.1 * 1.2 * 0.5 * 0.5, h = 100.0, T = 1e5;
  const double want = qd * h * h / (8 * T), got = x[3 * (nn / 2)];
  CHECK(fabs(got - want) <= 2e-3 * want, "mid-height deflection %.6f m against q h^2/(8T) = %.6f m (0.2 %%)", got, want);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "string in current: deflection %.6f m, closed form %.6f m, %+.2e\n", got,
                        want, got / want - 1));
  free(x);
  free(q);
  PetscCall(PlProblemDestroy(&p));
  PlModelFree(&m);
  PetscFunctionReturn(0);
}

static const char *kSurface =
  "environment: {water_depth: 900, water_density: 1025, gravity: 9.80665}\n"
  "line:\n  length: 1500\n  sections:\n"
  "    - {outer_diameter: 0.762, EA: 1.5569e10, GA: 9.0330e9, GJ: 7.9720e8, EI: 1036.4,\n"
  "       mass_per_length: 593.2818}\n"
  "seabed: {model: linear, stiffness: 1.0e9}\nmesh: {elements: 739}\n"
  "ends:\n  bottom: {position: [0, 0, -899.619001234], fixed: all}\n"
  "  top: {position: [~, 0, 15], fixed: [y, z], force: [400e3, 0, 0]}\n"
  "output: {directory: /tmp/unused}\n";

static PetscErrorCode CaseSurface(void)
{
  const double Hs[2] = {200e3, 800e3};
  PetscFunctionBeginUser;
  for (int k = 0; k < 2; ++k) {
    char set[64];
    snprintf(set, sizeof set, "ends.top.force=[%g,0,0]", Hs[k]);
    const char *sets[1] = {set};
    PlModel m;
    PlError err;
    PlProblem p;
    PlStaticReport rep;
    PlStaticSummary sum;
    PlStation *nodes, *els;
    int nn, ne;
    if (PlModelLoadString("surface.yaml", kSurface, strlen(kSurface), 1, sets, &m, &err)) {
      fprintf(stderr, "FAIL load: %s\n", err.msg);
      PetscFunctionReturn(1);
    }
    PetscCall(PlProblemCreate(PETSC_COMM_WORLD, &m, &p));
    PlProblemSetQuiet(p, 1);
    PetscCall(PlStaticSolve(p, &rep));
    CHECK(rep.converged, "the J-lay with its top 15 m above the surface converges (H = %g N)", Hs[k]);
    PetscCall(PlProblemStations(p, &nodes, &nn, &els, &ne));
    PetscCall(PlStaticSummarize(p, nodes, nn, els, ne, &sum));
    const double g = 9.80665, mp = 593.2818, w = (mp - 1025 * M_PI * 0.762 * 0.762 / 4) * g;
    const double z_td = -899.619001234, want = Hs[k] + w * (0.0 - z_td) + mp * g * 15.0;
    CHECK(fabs(sum.top_tension_N - want) <= 1e-3 * want, "top tension %.1f N against H + w depth + m g 15 = %.1f N",
          sum.top_tension_N, want);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "surface, H = %g N: top tension %.1f N, closed form %.1f N, %+.2e\n",
                          Hs[k], sum.top_tension_N, want, sum.top_tension_N / want - 1));
    free(nodes);
    free(els);
    PetscCall(PlProblemDestroy(&p));
    PlModelFree(&m);
  }
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscCall(PlInitialize(&argc, &argv));
  if (argc < 3) {
    fprintf(stderr, "usage: test_static_check check|stop EXAMPLES_DIR\n");
    return 2;
  }
  PetscErrorCode ierr = 0;
  if (!strcmp(argv[1], "check")) ierr = CaseCheck(argv[2]);
  else if (!strcmp(argv[1], "stop")) ierr = CaseStop(argv[2]);
  else if (!strcmp(argv[1], "loads")) ierr = CaseLoads(argv[2]);
  else if (!strcmp(argv[1], "string")) ierr = CaseString();
  else if (!strcmp(argv[1], "surface")) ierr = CaseSurface();
  else {
    fprintf(stderr, "unknown case %s\n", argv[1]);
    ierr = 1;
  }
  const int failed = ierr || CHECK_DONE() != EXIT_SUCCESS;
  PetscCall(PetscFinalize());
  return failed;
}
