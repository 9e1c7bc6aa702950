/*
 * test_static.c - physics tests of the static analysis (issue 2). One CTest test per case:
 *
 *   test_static catenary   EI made negligible (1e-6 of Table 5.2), rigid seabed (stiff
 *                          linear spring): hang-off angle within 0.05 deg and layback within
 *                          0.5% of the natural catenary computed here (Table 5.3), for
 *                          H = 200, 400, 800 kN.
 *   test_static riflex     full stiffness, 739 elements (~2 m): within 0.3 deg and 2.5% of
 *                          the RIFLEX values of Table 5.4.
 *   test_static convergence  eq 5.109 error against a 1024-element reference for 8..256
 *                          elements: least-squares observed order >= 1.8 (Fig 5.3).
 *   test_static rollup     cantilever under end moment 2 pi EI/L rolls into a circle: tip
 *                          back at the root within 1e-4 L, both parametrisations.
 *   test_static rigid      straight rod with both ends clamped at a rigid rotation (large
 *                          zxy angles) and translation of its unstressed state: every
 *                          internal force and moment below 1e-6 of EA resp. EI/L.
 *   test_static jacobian   assembled analytic Jacobian against central finite differences
 *                          of the assembled residual, 1e-6 relative, on a deformed state with
 *                          seabed contact and an end moment, both parametrisations.
 *   test_static quat_euler J-lay H = 400 kN with quaternions and with Euler angles: node
 *                          positions and top tension agree to 1e-6 relative.
 * Model files: argv[2] is the examples/ directory (the J-lay model is read from it).
 */
#include <math.h>
#include <string.h>
#include <petscsnes.h>
#include "check.h"
#include "pipelay/solver.h"

typedef struct {
  PlStaticReport rep;
  PlStaticSummary sum;
  PlStation *nodes, *els;
  int nn, ne;
  double *x, *q; /* gathered positions and node quaternions */
} Run;

static const char *g_examples;

static PetscErrorCode RunModel(PlModel *m, Run *r)
{
  PlProblem p;
  int nq;
  PetscFunctionBeginUser;
  PetscCall(PlProblemCreate(PETSC_COMM_WORLD, m, &p));
  PetscCall(PlStaticSolve(p, &r->rep));
  PetscCall(PlProblemStations(p, &r->nodes, &r->nn, &r->els, &r->ne));
  PetscCall(PlStaticSummarize(p, r->nodes, r->nn, r->els, r->ne, &r->sum));
  PetscCall(PlProblemGatherState(p, &r->x, &r->q, &nq));
  PetscCall(PlProblemDestroy(&p));
  PetscFunctionReturn(0);
}

static void FreeRun(Run *r)
{
  free(r->nodes);
  free(r->els);
  free(r->x);
  free(r->q);
}

/* Loads a model file or string with overrides; aborts the test on a load error. */
static int Load(const char *file, const char *text, int n, const char *const *sets, PlModel *m)
{
  PlError err;
  const int rc = text ? PlModelLoadString("test.yaml", text, strlen(text), n, sets, m, &err)
                      : PlModelLoad(file, n, sets, m, &err);
  if (rc) fprintf(stderr, "FAIL model load: %s\n", err.msg);
  return rc;
}

static void JlayPath(char *buf, size_t n) { snprintf(buf, n, "%s/jlay_900m.yaml", g_examples); }

/* ---- natural catenary (Table 5.3) ----------------------------------------------------- */
static const char *kCatenaryModel =
  "environment: {water_depth: 900, water_density: 1025, gravity: 9.80665}\n"
  "line:\n"
  "  length: 1500\n"
  "  sections:\n"
  "    - {outer_diameter: 0.762, EA: 1.5569e10, GA: 9.0330e9, GJ: 7.9720e8, EI: 1036.4,\n"
  "       mass_per_length: 593.2818}\n"
  "seabed: {model: linear, stiffness: 1.0e9}\n"
  "mesh: {elements: 739}\n"
  "ends:\n"
  "  bottom: {position: [0, 0, -899.619001234], fixed: all}\n" /* resting: w/k below d_o/2 */
  "  top: {position: [~, 0, 0], fixed: [y, z], force: [400e3, 0, 0]}\n";

static PetscErrorCode TestCatenary(void)
{
  const double Hs[3] = {200e3, 400e3, 800e3};
  PetscFunctionBeginUser;
  for (int k = 0; k < 3; ++k) {
    char set[64];
    snprintf(set, sizeof set, "ends.top.force=[%g,0,0]", Hs[k]);
    const char *sets[1] = {set};
    PlModel m;
    if (Load(NULL, kCatenaryModel, 1, sets, &m)) exit(1);
    Run r;
    PetscCall(RunModel(&m, &r));
    CHECK_TRUE(r.rep.converged, "catenary case converged");
    /* the catenary, derived independently: w = (m - rho pi d^2/4) g, a = H/w; the seabed
     * contact plane of the centreline is z = -900 + d_o/2 - w/k (resting penetration) */
    const double w = (593.2818 - 1025.0 * M_PI / 4.0 * 0.762 * 0.762) * 9.80665;
    const double zrest = -900.0 + 0.381 - w / 1.0e9;
    const double h = 0.0 - zrest, a = Hs[k] / w;
    const double s = sqrt(h * h + 2.0 * a * h);
    const double beta = atan(s / a) * 180.0 / M_PI, layback = a * asinh(s / a);
    char what[96];
    snprintf(what, sizeof what, "H = %.0f kN: hang-off angle [deg] vs catenary", Hs[k] / 1e3);
    CHECK_ABS(r.sum.hang_off_angle_deg, beta, 0.05, what);
    snprintf(what, sizeof what, "H = %.0f kN: layback [m] vs catenary", Hs[k] / 1e3);
    CHECK_REL(r.sum.layback_m, layback, 0.005, what);
    FreeRun(&r);
    PlModelFree(&m);
  }
  PetscFunctionReturn(0);
}

/* ---- RIFLEX, Table 5.4 -------------------------------------------------------------- */
static PetscErrorCode TestRiflex(void)
{
  const double Hs[3] = {200e3, 400e3, 800e3};
  const double beta_rfx[3] = {81.0, 74.4, 65.0}, lay_rfx[3] = {477.0, 686.0, 1001.0};
  char path[1024];
  PetscFunctionBeginUser;
  JlayPath(path, sizeof path);
  for (int k = 0; k < 3; ++k) {
    char set[64];
    snprintf(set, sizeof set, "ends.top.force=[%g,0,0]", Hs[k]);
    const char *sets[1] = {set};
    PlModel m;
    if (Load(path, NULL, 1, sets, &m)) exit(1);
    Run r;
    PetscCall(RunModel(&m, &r));
    CHECK_TRUE(r.rep.converged, "J-lay converged");
    char what[96];
    snprintf(what, sizeof what, "H = %.0f kN: hang-off angle [deg] vs RIFLEX", Hs[k] / 1e3);
    CHECK_ABS(r.sum.hang_off_angle_deg, beta_rfx[k], 0.3, what);
    snprintf(what, sizeof what, "H = %.0f kN: layback [m] vs RIFLEX", Hs[k] / 1e3);
    CHECK_REL(r.sum.layback_m, lay_rfx[k], 0.025, what);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "H = %4.0f kN: hang-off %.3f deg (RIFLEX %.1f), layback %.2f m (RIFLEX %.0f)\n",
                          Hs[k] / 1e3, r.sum.hang_off_angle_deg, beta_rfx[k], r.sum.layback_m, lay_rfx[k]));
    FreeRun(&r);
    PlModelFree(&m);
  }
  PetscFunctionReturn(0);
}

/* ---- mesh convergence (Fig. 5.3, eq. 5.109) ----------------------------------------- */
static PetscErrorCode TestConvergence(void)
{
  char path[1024];
  const int ns[6] = {8, 16, 32, 64, 128, 256}, nref = 1024;
  double err[6];
  Run ref;
  PetscFunctionBeginUser;
  JlayPath(path, sizeof path);
  {
    char set[64];
    snprintf(set, sizeof set, "mesh.elements=%d", nref);
    const char *sets[1] = {set};
    PlModel m;
    if (Load(path, NULL, 1, sets, &m)) exit(1);
    PetscCall(RunModel(&m, &ref));
    CHECK_TRUE(ref.rep.converged, "reference converged");
    PlModelFree(&m);
  }
  for (int k = 0; k < 6; ++k) {
    char set[64];
    snprintf(set, sizeof set, "mesh.elements=%d", ns[k]);
    const char *sets[2] = {set, "analysis.load_steps=4"};
    PlModel m;
    if (Load(path, NULL, 2, sets, &m)) exit(1);
    Run r;
    PetscCall(RunModel(&m, &r));
    CHECK_TRUE(r.rep.converged, "coarse mesh converged");
    /* eq 5.109: mean over nodes of |(phi_i, Theta_i) - ref(S_i)|, with the rotation
     * difference measured as the angle of R_ref^T R_i; reference nodes coincide */
    const int stride = nref / ns[k];
    double e = 0.0;
    for (int i = 0; i < r.nn; ++i) {
      const int j = i * stride;
      double d2 = 0.0, qc[4], qd[4], psi[3];
      for (int c = 0; c < 3; ++c) d2 += pow(r.x[3 * i + c] - ref.x[3 * j + c], 2);
      qc[0] = ref.q[4 * j];
      for (int c = 1; c < 4; ++c) qc[c] = -ref.q[4 * j + c];
      PlQuatMul(qc, r.q + 4 * i, qd);
      PlQuatLog(qd, psi);
      d2 += psi[0] * psi[0] + psi[1] * psi[1] + psi[2] * psi[2];
      e += sqrt(d2);
    }
    err[k] = e / r.nn;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "elements %4d: eps/L = %.4e\n", ns[k], err[k] / 1500.0));
    FreeRun(&r);
    PlModelFree(&m);
  }
  /* least-squares slope of log(err) against log(h) */
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (int k = 0; k < 6; ++k) {
    const double lx = log(1.0 / ns[k]), ly = log(err[k]);
    sx += lx;
    sy += ly;
    sxx += lx * lx;
    sxy += lx * ly;
  }
  const double order = (6 * sxy - sx * sy) / (6 * sxx - sx * sx);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "observed order of convergence %.3f\n", order));
  CHECK_TRUE(order >= 1.8, "observed order of convergence >= 1.8");
  FreeRun(&ref);
  PetscFunctionReturn(0);
}

/* ---- cantilever roll-up --------------------------------------------------------------- */
static PetscErrorCode TestRollup(void)
{
  /* weightless in water: mass per length = displaced water; EI = 1e4 N m^2, L = 10 m */
  const char *model =
    "environment: {water_depth: 100, water_density: 1000, gravity: 9.81}\n"
    "line:\n"
    "  length: 10\n"
    "  sections:\n"
    "    - {outer_diameter: 0.1, EA: 1.0e9, GA: 4.0e8, GJ: 8.0e3, EI: 1.0e4,\n"
    "       mass_per_length: 7.853981633974483}\n"
    "seabed: {model: none}\n"
    "mesh: {elements: 20}\n"
    "ends:\n"
    "  bottom: {position: [0, 0, -50], fixed: all}\n"
    "  top: {position: [~, ~, ~], moment: [0, -6283.185307179586, 0]}\n"
    "analysis: {initial_guess: straight, load_steps: 8}\n";
  const char *rot[2] = {"rotation=quaternion", "rotation=euler_zxy"};
  PetscFunctionBeginUser;
  for (int k = 0; k < 2; ++k) {
    const char *sets[1] = {rot[k]};
    PlModel m;
    if (Load(NULL, model, 1, sets, &m)) exit(1);
    Run r;
    PetscCall(RunModel(&m, &r));
    CHECK_TRUE(r.rep.converged, "roll-up converged");
    const double *tip = r.x + 3 * (r.nn - 1);
    const double gap = sqrt(tip[0] * tip[0] + tip[1] * tip[1] + pow(tip[2] + 50.0, 2));
    CHECK_ABS(gap / 10.0, 0.0, 1e-4, k ? "euler: roll-up tip-to-root distance / L" : "quaternion: roll-up tip-to-root distance / L");
    FreeRun(&r);
    PlModelFree(&m);
  }
  PetscFunctionReturn(0);
}

/* ---- rigid rotation of a clamped straight rod ---------------------------------------- */
static PetscErrorCode TestRigid(void)
{
  const double angles[3][3] = {{50, 120, 170}, {-80, 170, 30}, {10, -170, -100}};
  const double L = 10.0;
  PetscFunctionBeginUser;
  for (int rk = 0; rk < 2; ++rk)
    for (int k = 0; k < 3; ++k) {
      /* end frame R = R_y(theta) R_x(phi) R_z(psi); the top sits at R (L, 0, 0) */
      const double d = M_PI / 180.0, ph = angles[k][0] * d, th = angles[k][1] * d, ps = angles[k][2] * d;
      const double t1[3] = {cos(th) * cos(ps) + sin(th) * sin(ph) * sin(ps), cos(ph) * sin(ps),
                            -sin(th) * cos(ps) + cos(th) * sin(ph) * sin(ps)};
      char model[2048];
      snprintf(model, sizeof model,
               "environment: {water_depth: 100, water_density: 1000, gravity: 9.81}\n"
               "line: {length: %g, sections: [{outer_diameter: 0.1, EA: 1.0e9, GA: 4.0e8, GJ: 8.0e3, EI: 1.0e4, mass_per_length: 7.853981633974483}]}\n"
               "seabed: {model: none}\n"
               "mesh: {elements: 10}\n"
               "rotation: %s\n"
               "ends:\n"
               "  bottom: {position: [1, 2, -30], orientation: [%g, %g, %g], fixed: all}\n"
               "  top: {position: [%.17g, %.17g, %.17g], orientation: [%g, %g, %g], fixed: all}\n"
               "analysis: {initial_guess: straight}\n",
               L, rk ? "euler_zxy" : "quaternion", angles[k][0], angles[k][1], angles[k][2],
               1 + L * t1[0], 2 + L * t1[1], -30 + L * t1[2], angles[k][0], angles[k][1], angles[k][2]);
      PlModel m;
      if (Load(NULL, model, 0, NULL, &m)) exit(1);
      Run r;
      PetscCall(RunModel(&m, &r));
      CHECK_TRUE(r.rep.converged, "rigid case converged");
      double fmaxv = 0.0, mmaxv = 0.0;
      for (int e = 0; e < r.ne; ++e) {
        fmaxv = fmax(fmaxv, fmax(fabs(r.els[e].tension), fmax(fabs(r.els[e].shear[0]), fabs(r.els[e].shear[1]))));
        mmaxv = fmax(mmaxv, fmax(fabs(r.els[e].torque), fmax(fabs(r.els[e].moment[0]), fabs(r.els[e].moment[1]))));
      }
      CHECK_ABS(fmaxv / 1.0e9, 0.0, 1e-12, rk ? "euler: rigid rotation, max force / EA" : "quaternion: rigid rotation, max force / EA");
      CHECK_ABS(mmaxv / (1.0e4 / 1.0), 0.0, 1e-12, rk ? "euler: rigid rotation, max moment / (EI/L_e)" : "quaternion: rigid rotation, max moment / (EI/L_e)");
      FreeRun(&r);
      PlModelFree(&m);
    }
  PetscFunctionReturn(0);
}

/* ---- assembled Jacobian vs finite differences ----------------------------------------- */
static PetscErrorCode TestJacobian(void)
{
  char path[1024];
  const char *rot[2] = {"rotation=quaternion", "rotation=euler_zxy"};
  PetscFunctionBeginUser;
  JlayPath(path, sizeof path);
  for (int k = 0; k < 2; ++k) {
    const char *sets[5] = {rot[k], "mesh.elements=40", "ends.top.moment=[2e5,-3e5,1e5]",
                           "analysis.max_iterations=1", "analysis.max_cutbacks=0"};
    PlModel m;
    if (Load(path, NULL, 5, sets, &m)) exit(1);
    PlProblem p;
    PlStaticReport rep;
    PetscCall(PlProblemCreate(PETSC_COMM_WORLD, &m, &p));
    PetscCall(PlStaticSolve(p, &rep)); /* sets up the SNES; the state stays the guess */
    SNES snes = PlProblemSNES(p);
    Vec U = PlProblemSolution(p), F0, Fp, Fm, Up;
    PlProblemSetLoadFactor(p, 1.0);
    /* perturb the state so rotations are far from identity and nodes sit in the seabed */
    PetscRandom rnd;
    PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
    PetscCall(PetscRandomSetInterval(rnd, -0.05, 0.05));
    PetscCall(VecDuplicate(U, &Up));
    PetscCall(VecSetRandom(Up, rnd));
    PetscCall(VecAXPY(U, 1.0, Up));
    PetscCall(VecDuplicate(U, &F0));
    PetscCall(VecDuplicate(U, &Fp));
    PetscCall(VecDuplicate(U, &Fm));
    Mat J;
    PetscCall(SNESGetJacobian(snes, &J, NULL, NULL, NULL));
    PetscCall(SNESComputeJacobian(snes, U, J, J));
    PetscInt n;
    PetscCall(VecGetSize(U, &n));
    Mat Jd;
    PetscCall(MatConvert(J, MATDENSE, MAT_INITIAL_MATRIX, &Jd));
    double jmax = 0.0, emax = 0.0;
    const PetscScalar *a;
    PetscCall(MatDenseGetArrayRead(Jd, &a));
    for (PetscInt i = 0; i < n * n; ++i) jmax = fmax(jmax, fabs(a[i]));
    for (PetscInt j = 0; j < n; ++j) {
      const double h = 1e-6;
      PetscCall(VecCopy(U, Up));
      PetscCall(VecSetValue(Up, j, h, ADD_VALUES));
      PetscCall(VecAssemblyBegin(Up));
      PetscCall(VecAssemblyEnd(Up));
      PetscCall(SNESComputeFunction(snes, Up, Fp));
      PetscCall(VecSetValue(Up, j, -2 * h, ADD_VALUES));
      PetscCall(VecAssemblyBegin(Up));
      PetscCall(VecAssemblyEnd(Up));
      PetscCall(SNESComputeFunction(snes, Up, Fm));
      const PetscScalar *fp, *fm;
      PetscCall(VecGetArrayRead(Fp, &fp));
      PetscCall(VecGetArrayRead(Fm, &fm));
      for (PetscInt i = 0; i < n; ++i) emax = fmax(emax, fabs((fp[i] - fm[i]) / (2 * h) - a[i + j * n]));
      PetscCall(VecRestoreArrayRead(Fp, &fp));
      PetscCall(VecRestoreArrayRead(Fm, &fm));
    }
    PetscCall(MatDenseRestoreArrayRead(Jd, &a));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: max |J - J_fd| / max |J| = %.3e\n", rot[k], emax / jmax));
    CHECK_ABS(emax / jmax, 0.0, 1e-6, k ? "euler: assembled Jacobian vs FD" : "quaternion: assembled Jacobian vs FD");
    PetscCall(MatDestroy(&Jd));
    PetscCall(VecDestroy(&F0));
    PetscCall(VecDestroy(&Fp));
    PetscCall(VecDestroy(&Fm));
    PetscCall(VecDestroy(&Up));
    PetscCall(PetscRandomDestroy(&rnd));
    PetscCall(PlProblemDestroy(&p));
    PlModelFree(&m);
  }
  PetscFunctionReturn(0);
}

/* ---- quaternion vs Euler ---------------------------------------------------------------- */
static PetscErrorCode TestQuatEuler(void)
{
  char path[1024];
  Run r[2];
  const char *rot[2] = {"rotation=quaternion", "rotation=euler_zxy"};
  PetscFunctionBeginUser;
  JlayPath(path, sizeof path);
  for (int k = 0; k < 2; ++k) {
    const char *sets[1] = {rot[k]};
    PlModel m;
    if (Load(path, NULL, 1, sets, &m)) exit(1);
    PetscCall(RunModel(&m, &r[k]));
    CHECK_TRUE(r[k].rep.converged, "J-lay converged");
    PlModelFree(&m);
  }
  double dmax = 0.0, xmax = 0.0;
  for (int i = 0; i < 3 * r[0].nn; ++i) {
    dmax = fmax(dmax, fabs(r[0].x[i] - r[1].x[i]));
    xmax = fmax(xmax, fabs(r[0].x[i]));
  }
  CHECK_ABS(dmax / xmax, 0.0, 1e-6, "quaternion vs Euler: node positions (relative)");
  CHECK_REL(r[1].sum.top_tension_N, r[0].sum.top_tension_N, 1e-6, "quaternion vs Euler: top tension");
  CHECK_REL(r[1].sum.max_bending_moment_Nm, r[0].sum.max_bending_moment_Nm, 1e-6, "quaternion vs Euler: max bending moment");
  FreeRun(&r[0]);
  FreeRun(&r[1]);
  PetscFunctionReturn(0);
}

/* The largest difference between the contact's derivative K = dF/dx at x and central
 * differences of F (step 1e-5 m: x is ~300 m, a smaller step loses digits to its rounding),
 * over K's largest entry. */
static double ContactFdError(const PlModel *m, const PlSection *sec, double w, const double x[3], const double K[9])
{
  double kmax = 0.0, err = 0.0;
  for (int i = 0; i < 9; ++i) kmax = fmax(kmax, fabs(K[i]));
  for (int j = 0; j < 3; ++j) {
    const double h = 1e-5;
    double xp[3] = {x[0], x[1], x[2]}, xm[3] = {x[0], x[1], x[2]}, Fp[3], Fm[3];
    xp[j] += h;
    xm[j] -= h;
    PlSeabedContact(m, sec, w, xp, Fp, NULL);
    PlSeabedContact(m, sec, w, xm, Fm, NULL);
    for (int i = 0; i < 3; ++i) err = fmax(err, fabs((Fp[i] - Fm[i]) / (2 * h) - K[3 * i + j]));
  }
  return err / kmax;
}

/* ---- the seabed's contact on a slope (models/seabed.c) --------------------------------- */
/* A 30-inch section on the plane rising at 12 deg towards 35 deg (seabed.slope), both laws:
 * the force is sigma(kappa) along the plane's normal n with kappa the lowest fibre's depth
 * below the plane (against the distance computed here from the plane's height), and its
 * derivative dF/dx against central differences (1e-7 of its largest entry); a point moved
 * along the plane keeps its force (no tangential force: frictionless); and the seabed never
 * pulls, a buoyancy section's (negative submerged weight) included. */
static PetscErrorCode TestSeabedSlope(void)
{
  PetscFunctionBeginUser;
  static PlModel m;
  PlModelInitDefaults(&m);
  m.water_depth = 300.0;
  const double beta = 12.0 * M_PI / 180.0, psi = 35.0 * M_PI / 180.0;
  m.seabed_normal[0] = -sin(beta) * cos(psi);
  m.seabed_normal[1] = -sin(beta) * sin(psi);
  m.seabed_normal[2] = cos(beta);
  PlSection sec;
  memset(&sec, 0, sizeof sec);
  sec.outer_diameter = 0.762;
  const double w = 1234.11, *n = m.seabed_normal;
  double worst_k = 0.0, worst_d = 0.0, worst_f = 0.0, worst_t = 0.0;
  for (int law = 0; law < 2; ++law) {
    m.seabed = law ? PL_SEABED_LINEAR : PL_SEABED_NONLINEAR;
    m.seabed_stiffness = 2.0e6;
    for (int k = 0; k < 6; ++k) {
      const double x0 = 40.0 * k - 90.0, y0 = 25.0 * sin(k);
      /* the centreline at a depth below the plane that puts kappa in every branch of the law */
      const double dk = 0.762 * (0.01 + 0.06 * k);
      const double zs = PlSeabedHeight(&m, x0, y0);
      double x[3] = {x0, y0, zs};
      for (int c = 0; c < 3; ++c) x[c] += (0.381 - dk) * n[c];
      const double kappa = PlSeabedPenetration(&m, &sec, x);
      worst_d = fmax(worst_d, fabs(kappa - dk));
      double F[3], K[9], sig, dsig;
      PlSeabedContact(&m, &sec, w, x, F, K);
      PlSeabedLaw(&m, &sec, w, dk, &sig, &dsig);
      for (int c = 0; c < 3; ++c) worst_f = fmax(worst_f, fabs(F[c] - sig * n[c]) / sig);
      worst_k = fmax(worst_k, ContactFdError(&m, &sec, w, x, K));
      /* along the plane: a tangent t = n x e_z (normalised), 5 m away */
      const double t[3] = {n[1], -n[0], 0.0}, nt = hypot(t[0], t[1]);
      double xt[3], Ft[3];
      for (int c = 0; c < 3; ++c) xt[c] = x[c] + 5.0 * t[c] / nt;
      PlSeabedContact(&m, &sec, w, xt, Ft, NULL);
      for (int c = 0; c < 3; ++c) worst_t = fmax(worst_t, fabs(Ft[c] - F[c]) / sig);
    }
  }
  /* the seabed only pushes: for a buoyancy section (w < 0) pressed into it, as for a heavy
   * one, the force along n is >= 0 at every penetration, and its stiffness along n too */
  double pull = 0.0;
  for (int law = 0; law < 2; ++law) {
    m.seabed = law ? PL_SEABED_LINEAR : PL_SEABED_NONLINEAR;
    for (int s = 0; s < 2; ++s)
      for (int k = 1; k <= 20; ++k) {
        double sig, dsig;
        PlSeabedLaw(&m, &sec, s ? -620.0 : w, 0.762 * 0.02 * k, &sig, &dsig);
        pull = fmax(pull, fmax(-sig, -dsig));
      }
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "seabed slope: penetration %.2e m, force along n %.2e, dF/dx against FD "
                        "%.2e, along the plane %.2e; largest pull %.2e\n", worst_d, worst_f, worst_k, worst_t, pull));
  CHECK_TRUE(pull == 0.0, "the seabed never pulls a section into it (nor softens against it), buoyant or not");
  CHECK_TRUE(worst_d <= 1e-9, "penetration = the lowest fibre's depth below the plane (1e-9 m)");
  CHECK_TRUE(worst_f <= 1e-9, "the force is sigma(kappa) along the plane's normal (1e-9)");
  CHECK_TRUE(worst_k <= 1e-7, "dF/dx against central differences (1e-7 of its largest entry)");
  CHECK_TRUE(worst_t <= 1e-9, "moving along the plane keeps the force: no tangential force");
  PetscFunctionReturn(0);
}

/* ---- seabed friction's tangent (models/friction.c, solver/assembly.c) ------------------- */
/* The J-lay of jlay_900m.yaml on 40 elements, with and without seabed.friction (mu_a 0.5,
 * mu_l 0.8; anchors at the start shape), at the start shape perturbed by up to +-2 cm (slips
 * from 0 to 4 axial mobilisation distances: the spring and the saturated range), on both
 * rotation parametrisations: the friction's share of the Jacobian, J_f - J_0, against central
 * differences of F_f - F_0 (1e-6 of its largest entry), and its size (it must not be zero). */
static PetscErrorCode TestFrictionJacobian(void)
{
  char path[1024];
  const char *rot[2] = {"rotation=quaternion", "rotation=euler_zxy"};
  PetscFunctionBeginUser;
  JlayPath(path, sizeof path);
  for (int k = 0; k < 2; ++k) {
    PlProblem p[2];
    SNES snes[2];
    Mat J[2], Jd[2];
    Vec U, Up, Fp[2], Fm[2];
    for (int f = 0; f < 2; ++f) {
      const char *sets[5] = {rot[k], "mesh.elements=40", "analysis.max_iterations=1", "analysis.max_cutbacks=0",
                             f ? "seabed.friction={axial: 0.5, lateral: 0.8}" : "seabed.model=nonlinear"};
      PlModel m;
      PlStaticReport rep;
      if (Load(path, NULL, 5, sets, &m)) exit(1);
      PetscCall(PlProblemCreate(PETSC_COMM_WORLD, &m, &p[f]));
      PetscCall(PetscOptionsSetValue(NULL, "-pipelay_ptc", "0"));
      PetscCall(PlStaticSolve(p[f], &rep)); /* sets up the SNES */
      PetscCall(PetscOptionsClearValue(NULL, "-pipelay_ptc"));
      snes[f] = PlProblemSNES(p[f]);
      PlProblemSetLoadFactor(p[f], 1.0);
      PetscCall(SNESGetJacobian(snes[f], &J[f], NULL, NULL, NULL));
      PetscCall(VecDuplicate(PlProblemSolution(p[f]), &Fp[f]));
      PetscCall(VecDuplicate(PlProblemSolution(p[f]), &Fm[f]));
      PlModelFree(&m);
    }
    /* the start shape (the anchors), perturbed */
    PlProblem q;
    PlModel m0;
    const char *sets0[2] = {rot[k], "mesh.elements=40"};
    if (Load(path, NULL, 2, sets0, &m0)) exit(1);
    PetscCall(PlProblemCreate(PETSC_COMM_WORLD, &m0, &q));
    PetscCall(VecDuplicate(PlProblemSolution(q), &U));
    PetscCall(VecCopy(PlProblemSolution(q), U));
    PetscCall(PlProblemDestroy(&q));
    PetscRandom rnd;
    PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
    PetscCall(PetscRandomSetInterval(rnd, -0.02, 0.02));
    PetscCall(VecDuplicate(U, &Up));
    PetscCall(VecSetRandom(Up, rnd));
    PetscCall(VecAXPY(U, 1.0, Up));
    PetscCall(PetscRandomDestroy(&rnd));
    for (int f = 0; f < 2; ++f) {
      PetscCall(SNESComputeJacobian(snes[f], U, J[f], J[f]));
      PetscCall(MatConvert(J[f], MATDENSE, MAT_INITIAL_MATRIX, &Jd[f]));
    }
    PetscInt n;
    PetscCall(VecGetSize(U, &n));
    const PetscScalar *a0, *a1;
    PetscCall(MatDenseGetArrayRead(Jd[0], &a0));
    PetscCall(MatDenseGetArrayRead(Jd[1], &a1));
    double jmax = 0.0, emax = 0.0;
    for (PetscInt i = 0; i < n * n; ++i) jmax = fmax(jmax, fabs(a1[i] - a0[i]));
    for (PetscInt j = 0; j < n; ++j) {
      const double h = 1e-7;
      for (int f = 0; f < 2; ++f) {
        PetscCall(VecCopy(U, Up));
        PetscCall(VecSetValue(Up, j, h, ADD_VALUES));
        PetscCall(VecAssemblyBegin(Up));
        PetscCall(VecAssemblyEnd(Up));
        PetscCall(SNESComputeFunction(snes[f], Up, Fp[f]));
        PetscCall(VecSetValue(Up, j, -2 * h, ADD_VALUES));
        PetscCall(VecAssemblyBegin(Up));
        PetscCall(VecAssemblyEnd(Up));
        PetscCall(SNESComputeFunction(snes[f], Up, Fm[f]));
      }
      const PetscScalar *p0, *m0v, *p1, *m1;
      PetscCall(VecGetArrayRead(Fp[0], &p0));
      PetscCall(VecGetArrayRead(Fm[0], &m0v));
      PetscCall(VecGetArrayRead(Fp[1], &p1));
      PetscCall(VecGetArrayRead(Fm[1], &m1));
      for (PetscInt i = 0; i < n; ++i) {
        const double fd = ((p1[i] - p0[i]) - (m1[i] - m0v[i])) / (2 * h);
        emax = fmax(emax, fabs(fd - (a1[i + j * n] - a0[i + j * n])));
      }
      PetscCall(VecRestoreArrayRead(Fp[0], &p0));
      PetscCall(VecRestoreArrayRead(Fm[0], &m0v));
      PetscCall(VecRestoreArrayRead(Fp[1], &p1));
      PetscCall(VecRestoreArrayRead(Fm[1], &m1));
    }
    PetscCall(MatDenseRestoreArrayRead(Jd[0], &a0));
    PetscCall(MatDenseRestoreArrayRead(Jd[1], &a1));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: friction's Jacobian, largest entry %.3e N/m, against FD %.3e of it\n",
                          rot[k], jmax, emax / jmax));
    CHECK_TRUE(jmax > 1e3, "the friction's share of the Jacobian is not zero");
    CHECK_TRUE(emax <= 1e-6 * jmax, "friction's Jacobian against central differences (1e-6 of its largest entry)");
    for (int f = 0; f < 2; ++f) {
      PetscCall(MatDestroy(&Jd[f]));
      PetscCall(VecDestroy(&Fp[f]));
      PetscCall(VecDestroy(&Fm[f]));
      PetscCall(PlProblemDestroy(&p[f]));
    }
    PetscCall(VecDestroy(&U));
    PetscCall(VecDestroy(&Up));
    PlModelFree(&m0);
  }
  PetscFunctionReturn(0);
}

/* ---- the seabed's contact on a bathymetry grid (models/seabed.c) ----------------------- */
/* Heights z_s(x, y) of a smooth test surface (a tilted plane, a 6 m Gaussian dip at (30, -10)
 * of 45 m width and a ripple), with its exact gradient. */
static double TestSurface(double x, double y, double g[2])
{
  const double r2 = ((x - 30.0) * (x - 30.0) + (y + 10.0) * (y + 10.0)) / (45.0 * 45.0), e = exp(-r2);
  const double z = -250.0 + 0.05 * x - 0.02 * y - 6.0 * e + 1.5 * sin(x / 40.0) * cos(y / 55.0);
  if (g) {
    g[0] = 0.05 + 6.0 * e * 2.0 * (x - 30.0) / (45.0 * 45.0) + 1.5 / 40.0 * cos(x / 40.0) * cos(y / 55.0);
    g[1] = -0.02 + 6.0 * e * 2.0 * (y + 10.0) / (45.0 * 45.0) - 1.5 / 55.0 * sin(x / 40.0) * sin(y / 55.0);
  }
  return z;
}

/* A grid of h [m] over [-150, 210] x [-120, 120] sampled from TestSurface (plane: only its
 * tilted plane). */
static PlBathymetry *TestGrid(double h, int plane)
{
  PlBathymetry *b = calloc(1, sizeof *b);
  b->nx = (int)lround(360.0 / h) + 1, b->ny = (int)lround(240.0 / h) + 1;
  b->x0 = -150.0, b->y0 = -120.0, b->dx = h, b->dy = h;
  const size_t np = (size_t)b->nx * b->ny;
  b->z = malloc(4 * np * sizeof(double));
  b->zx = b->z + np, b->zy = b->z + 2 * np, b->zxy = b->z + 3 * np;
  for (int j = 0; j < b->ny; ++j)
    for (int i = 0; i < b->nx; ++i) {
      const double x = b->x0 + i * h, y = b->y0 + j * h;
      b->z[(size_t)j * b->nx + i] = plane ? -250.0 + 0.05 * x - 0.02 * y : TestSurface(x, y, NULL);
    }
  PlBathymetrySlopes(b);
  return b;
}

/* The bicubic grid: (1) a plane is reproduced exactly (height and gradient, 1e-10), also
 * between the nodes and at the edges; (2) on the curved surface the height error falls at
 * third order or better with the spacing (10 m -> 5 m: at least 6-fold) and the gradient's at
 * second order (at least 3-fold); (3) the surface is C^1: the gradient's jump across a cell
 * edge is below 1e-9 (central differences of the height across the edge agree with it); (4)
 * the contact force F = sigma n on the curved grid and its derivative dF/dx (with the
 * surface's curvature) against central differences, both laws, kappa in every branch (1e-6
 * of the largest entry); (5) outside the grid the edge depths are held and Eval says so. */
static PetscErrorCode TestSeabedGrid(void)
{
  PetscFunctionBeginUser;
  PlBathymetry *plane = TestGrid(20.0, 1), *coarse = TestGrid(10.0, 0), *fine = TestGrid(5.0, 0);
  double e_plane = 0.0, ez[2] = {0, 0}, eg[2] = {0, 0}, jump = 0.0;
  for (int k = 0; k < 400; ++k) {
    const double x = -140.0 + 337.0 * fmod(0.6180339887 * k, 1.0), y = -110.0 + 217.0 * fmod(0.7548776662 * k, 1.0);
    double z, g[2], ge[2];
    PlBathymetryEval(plane, x, y, &z, g, NULL);
    e_plane = fmax(e_plane, fmax(fabs(z - (-250.0 + 0.05 * x - 0.02 * y)), fmax(fabs(g[0] - 0.05), fabs(g[1] + 0.02))));
    const double ze = TestSurface(x, y, ge);
    for (int r = 0; r < 2; ++r) {
      PlBathymetryEval(r ? fine : coarse, x, y, &z, g, NULL);
      ez[r] = fmax(ez[r], fabs(z - ze));
      eg[r] = fmax(eg[r], fmax(fabs(g[0] - ge[0]), fabs(g[1] - ge[1])));
    }
  }
  for (int k = 1; k < 30; ++k) { /* across the edges x = x0 + k dx of the coarse grid */
    const double x = coarse->x0 + k * coarse->dx, y = -37.3 + 3.1 * k, d = 1e-7;
    double zl, gl[2], zr, gr[2];
    PlBathymetryEval(coarse, x - d, y, &zl, gl, NULL);
    PlBathymetryEval(coarse, x + d, y, &zr, gr, NULL);
    jump = fmax(jump, fmax(fabs(gl[0] - gr[0]), fabs(gl[1] - gr[1])));
  }
  /* the contact on the curved grid */
  static PlModel m;
  PlModelInitDefaults(&m);
  m.water_depth = 250.0;
  m.bathymetry = coarse;
  PlSection sec;
  memset(&sec, 0, sizeof sec);
  sec.outer_diameter = 0.762;
  const double w = 1234.11;
  double worst_k = 0.0;
  for (int law = 0; law < 2; ++law) {
    m.seabed = law ? PL_SEABED_LINEAR : PL_SEABED_NONLINEAR;
    m.seabed_stiffness = 2.0e6;
    for (int k = 0; k < 8; ++k) {
      const double x0 = 23.0 * k - 68.3, y0 = 25.0 * sin(k) + 1.1, dk = 0.762 * (0.01 + 0.05 * k);
      double g[2], zs;
      PlBathymetryEval(coarse, x0, y0, &zs, g, NULL);
      const double x[3] = {x0, y0, zs + (0.381 - dk) * sqrt(1.0 + g[0] * g[0] + g[1] * g[1])};
      double F[3], K[9];
      PlSeabedContact(&m, &sec, w, x, F, K);
      worst_k = fmax(worst_k, ContactFdError(&m, &sec, w, x, K));
    }
  }
  double zo, go[2], ze;
  const int inside = PlBathymetryEval(coarse, 400.0, 10.0, &zo, go, NULL);
  PlBathymetryEval(coarse, 210.0, 10.0, &ze, NULL, NULL);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "seabed grid: plane %.2e; height error %.3e -> %.3e m (%.1f-fold), gradient "
                        "%.3e -> %.3e (%.1f-fold); gradient jump across edges %.2e; dF/dx against FD %.2e; outside "
                        "held %.2e\n", e_plane, ez[0], ez[1], ez[0] / ez[1], eg[0], eg[1], eg[0] / eg[1], jump,
                        worst_k, fabs(zo - ze)));
  CHECK_TRUE(e_plane <= 1e-10, "a plane is reproduced exactly by the grid (1e-10)");
  CHECK_TRUE(ez[0] / ez[1] >= 6.0, "the height converges at third order or better (10 m -> 5 m: 6-fold)");
  CHECK_TRUE(eg[0] / eg[1] >= 3.0, "the gradient converges at second order or better (3-fold)");
  CHECK_TRUE(ez[1] <= 0.01, "the 5 m grid holds the surface to 1 cm");
  CHECK_TRUE(jump <= 1e-6, "C^1: the gradient is continuous across cell edges (1e-6)");
  CHECK_TRUE(worst_k <= 1e-6, "dF/dx on the curved grid against central differences (1e-6 of its largest entry)");
  CHECK_TRUE(!inside && fabs(zo - ze) <= 1e-12 && go[0] == 0.0, "outside the grid the edge depth is held");
  for (int r = 0; r < 3; ++r) {
    PlBathymetry *b = r == 0 ? plane : r == 1 ? coarse : fine;
    free(b->z);
    free(b);
  }
  PetscFunctionReturn(0);
}

/* The friction law and its stored energy Psi (models/friction.c: hyperelastic, built from its
 * complementary energy), in a tilted frame, with the defaults' mobilisation (mu_l delta_l =
 * 24 mu_a delta_a) and with mu_a delta_a = mu_l delta_l, on slips from 1e-4 to 4e3 mobilisation
 * distances in sixteen directions:
 *   - conservative: central differences of Psi equal -phi (1e-7 of |phi|), Psi against the
 *     work along the straight path from the anchor, -int_0^1 phi(s u).u ds (Gauss-Legendre, 8
 *     points on 64 panels; 1e-12 relative), and the work of phi around closed turning slip
 *     paths (ellipses through the spring and the saturated range; 8 Gauss points on each of
 *     2048 panels: the lateral law's knee at the capacity is sharp) vanishes (1e-12 of the
 *     path's int |phi| |du|; the old tanh law phi = -tanh(rho)/rho (mu_a xi e_a + mu_l eta e_l)
 *     does 2.7 % of it on the same paths);
 *   - the tangent dphi/du against central differences of phi (1e-6 of its largest entry), and
 *     symmetric: analytically (1e-14) and in its central differences (the curl, 1e-6);
 *   - the capacity is the ellipse: (phi.e_a/mu_a)^2 + (phi.e_l/mu_l)^2 = tanh^2(rho) < 1, and
 *     within 1e-12 of 1 at 1e3 mobilisation distances in every direction; no overflow at 1e9;
 *   - small slips: dphi/du = -diag(mu_a/delta_a, mu_l/delta_l) in the frame at u = 0 (1e-12);
 *   - along the axial axis (the smaller mu delta) phi.e_a = -mu_a tanh(xi), rho = xi; across,
 *     eta = (1 - eps) r + eps atanh(r), r = -phi.e_l/mu_l, eps = mu_a delta_a/(mu_l delta_l)
 *     (1e-12);
 *   - mu_a delta_a = mu_l delta_l (= k): the tanh law, phi = -tanh(rho)/rho (mu_a xi e_a +
 *     mu_l eta e_l), rho = |(xi, eta)|, Psi = k log cosh(rho) (1e-12). */
static void OldTanhLaw(double mua, double mul, double da, double dl, const double ea[3], const double el[3],
                       const double u[3], double phi[3], double *rho)
{
  const double xi = (u[0] * ea[0] + u[1] * ea[1] + u[2] * ea[2]) / da;
  const double eta = (u[0] * el[0] + u[1] * el[1] + u[2] * el[2]) / dl;
  const double r = hypot(xi, eta), g = r > 0.0 ? tanh(r) / r : 1.0;
  for (int c = 0; c < 3; ++c) phi[c] = -g * (mua * xi * ea[c] + mul * eta * el[c]);
  *rho = r;
}

static PetscErrorCode TestFrictionPotential(void)
{
  PetscFunctionBeginUser;
  PlModel m;
  memset(&m, 0, sizeof m);
  const double n[3] = {0.1, -0.2, 1.0}, t[3] = {1.0, 0.3, 0.05};
  const double nn = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]), nu[3] = {n[0] / nn, n[1] / nn, n[2] / nn};
  double ea[3], el[3];
  PlFrictionFrame(t, nu, ea, el);
  static const double gx[8] = {-0.9602898564975363, -0.7966664774136267, -0.5255324099163290, -0.1834346424956498,
                               0.1834346424956498,  0.5255324099163290,  0.7966664774136267,  0.9602898564975363};
  static const double gw[8] = {0.1012285362903763, 0.2223810344533745, 0.3137066458778873, 0.3626837833783620,
                               0.3626837833783620, 0.3137066458778873, 0.2223810344533745, 0.1012285362903763};
  double worst_fd = 0.0, worst_path = 0.0, worst_loop = 0.0, old_loop = 0.0, worst_jac = 0.0, worst_sym = 0.0,
         worst_curl = 0.0, worst_cap = 0.0, worst_ell = 0.0, worst_k0 = 0.0, worst_axes = 0.0, worst_eq = 0.0;
  int finite = 1;
  m.friction_axial = 0.5;
  m.friction_lateral = 0.8;
  for (int conservative = 0; conservative < 2; ++conservative) {
    const double da = 0.005, dl = conservative ? 0.5 * 0.005 / 0.8 : 0.0762;
    const double mua = m.friction_axial, mul = m.friction_lateral, eps = mua * da / (mul * dl);
    for (int r = 0; r < 9; ++r)
      for (int k = 0; k < 16; ++k) {
        const double rho = r < 8 ? 1e-4 * pow(10.0, 0.6 * r) : 4e3, ang = 0.3 + k * M_PI / 8.0;
        double u[3], psi, g[3], phi[3], J[9], s;
        for (int c = 0; c < 3; ++c) u[c] = rho * (cos(ang) * da * ea[c] + sin(ang) * dl * el[c]);
        PlFrictionPotential(&m, da, dl, ea, el, u, &psi, g);
        PlFrictionSaturated(&m, da, dl, ea, el, u, phi, J, &s);
        const double pn = sqrt(phi[0] * phi[0] + phi[1] * phi[1] + phi[2] * phi[2]);
        double pa = 0.0, pl = 0.0, jmax = 0.0, Jfd[9];
        for (int c = 0; c < 3; ++c) pa += phi[c] * ea[c], pl += phi[c] * el[c];
        for (int c = 0; c < 9; ++c) jmax = fmax(jmax, fabs(J[c]));
        const double q = (pa / mua) * (pa / mua) + (pl / mul) * (pl / mul);
        worst_ell = fmax(worst_ell, fabs(q - tanh(s) * tanh(s)));
        finite = finite && isfinite(psi) && isfinite(s) && q < 1.0 + 1e-14;
        for (int c = 0; c < 3; ++c) { /* central differences along the frame's axes, step 1e-6 delta rho */
          const double h = 1e-6 * fmin(da, dl) * fmax(rho, 1.0);
          double up[3], um[3], pp, pm, php[3], phm[3], gc = 0.0;
          const double *e = c == 0 ? ea : c == 1 ? el : nu;
          for (int j = 0; j < 3; ++j) up[j] = u[j] + h * e[j], um[j] = u[j] - h * e[j];
          PlFrictionPotential(&m, da, dl, ea, el, up, &pp, NULL);
          PlFrictionPotential(&m, da, dl, ea, el, um, &pm, NULL);
          PlFrictionSaturated(&m, da, dl, ea, el, up, php, NULL, NULL);
          PlFrictionSaturated(&m, da, dl, ea, el, um, phm, NULL, NULL);
          for (int j = 0; j < 3; ++j) gc -= phi[j] * e[j]; /* -phi.e */
          if (r < 8) worst_fd = fmax(worst_fd, fabs((pp - pm) / (2.0 * h) - gc) / fmax(pn, 1e-300));
          for (int i = 0; i < 3; ++i) { /* column along e: dphi/du e */
            double je = 0.0;
            for (int j = 0; j < 3; ++j) je += J[3 * i + j] * e[j];
            Jfd[3 * i + c] = (php[i] - phm[i]) / (2.0 * h);
            worst_jac = fmax(worst_jac, fabs(Jfd[3 * i + c] - je) / jmax);
          }
        }
        { /* symmetry: analytic, and the FD matrix's in the frame (the curl) */
          const double *E[2] = {ea, el};
          double Tfd[2][2];
          for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 2; ++j) {
              Tfd[i][j] = 0.0;
              for (int a = 0; a < 3; ++a) Tfd[i][j] += E[i][a] * Jfd[3 * a + j];
            }
          worst_curl = fmax(worst_curl, fabs(Tfd[0][1] - Tfd[1][0]) / jmax);
          for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) worst_sym = fmax(worst_sym, fabs(J[3 * i + j] - J[3 * j + i]) / jmax);
        }
        if (r == 8) worst_cap = fmax(worst_cap, fabs(q - 1.0));
        if (r < 8) {
          double work = 0.0; /* -int_0^1 phi(s u).u ds on 64 panels */
          for (int pnl = 0; pnl < 64; ++pnl)
            for (int qq = 0; qq < 8; ++qq) {
              const double sq = (pnl + 0.5 + 0.5 * gx[qq]) / 64.0;
              double us[3], ph[3];
              for (int j = 0; j < 3; ++j) us[j] = sq * u[j];
              PlFrictionSaturated(&m, da, dl, ea, el, us, ph, NULL, NULL);
              work -= gw[qq] / 128.0 * (ph[0] * u[0] + ph[1] * u[1] + ph[2] * u[2]);
            }
          if (rho <= 10.0) worst_path = fmax(worst_path, fabs(psi - work) / fabs(work));
        }
        if (conservative) {
          double po[3], ro;
          OldTanhLaw(mua, mul, da, dl, ea, el, u, po, &ro);
          const double kk = 0.5 * da, lc = log1p(2.0 * sinh(0.5 * rho) * sinh(0.5 * rho)); /* log cosh rho */
          double dev = 0.0;
          for (int j = 0; j < 3; ++j) dev = fmax(dev, fabs(phi[j] - po[j]) / fmax(pn, 1e-300));
          if (r < 8) worst_eq = fmax(worst_eq, fmax(dev, fmax(fabs(s - rho) / rho, fabs(psi - kk * lc) / (kk * lc))));
        }
      }
    /* small slips: the springs at u = 0 */
    {
      double u0[3] = {0, 0, 0}, phi[3], J[9], s, T[2][2];
      const double *E[2] = {ea, el}, K0[2] = {mua / da, mul / dl};
      PlFrictionSaturated(&m, da, dl, ea, el, u0, phi, J, &s);
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) {
          T[i][j] = 0.0;
          for (int a = 0; a < 3; ++a)
            for (int b = 0; b < 3; ++b) T[i][j] += E[i][a] * J[3 * a + b] * E[j][b];
          worst_k0 = fmax(worst_k0, fabs(T[i][j] + (i == j ? K0[i] : 0.0)) / K0[i]);
        }
      worst_k0 = fmax(worst_k0, fabs(phi[0]) + fabs(phi[1]) + fabs(phi[2]) + fabs(s));
    }
    /* along the axes (the defaults only: the closed forms of the two axes) */
    if (!conservative)
      for (int k = 0; k < 40; ++k) {
        const double v = 0.01 + 0.2 * k;
        double u[3], phi[3], s;
        for (int c = 0; c < 3; ++c) u[c] = v * da * ea[c];
        PlFrictionSaturated(&m, da, dl, ea, el, u, phi, NULL, &s);
        const double pa = phi[0] * ea[0] + phi[1] * ea[1] + phi[2] * ea[2];
        worst_axes = fmax(worst_axes, fmax(fabs(pa + mua * tanh(v)) / mua, fabs(s - v) / v));
        const double rl = tanh(0.05 + 0.02 * k); /* a lateral utilisation up to tanh(0.83) */
        const double eta = (1.0 - eps) * rl + eps * atanh(rl);
        for (int c = 0; c < 3; ++c) u[c] = eta * dl * el[c];
        PlFrictionSaturated(&m, da, dl, ea, el, u, phi, NULL, &s);
        const double pl = phi[0] * el[0] + phi[1] * el[1] + phi[2] * el[2];
        worst_axes = fmax(worst_axes, fmax(fabs(pl + mul * rl) / mul, fabs(s - atanh(rl)) / atanh(rl)));
      }
    /* closed turning slip paths: u(t) = rho (cos t da e_a + sin t dl e_l) + centre, work of phi around */
    for (int lp = 0; lp < 4; ++lp) {
      const double rho = 0.5 + 1.5 * lp, c0 = 0.7 * lp, c1 = -0.4 * lp;
      const int N = 2048; /* panels of 8 Gauss points */
      double W = 0.0, Wabs = 0.0, Wo = 0.0, Woabs = 0.0;
      for (int i = 0; i < 8 * N; ++i) {
        const double tt = 2.0 * M_PI * (i / 8 + 0.5 + 0.5 * gx[i % 8]) / N, wq = 0.5 * gw[i % 8] * 2.0 * M_PI / N;
        double u[3], du[3], phi[3], po[3], ro;
        for (int c = 0; c < 3; ++c) {
          u[c] = (c0 + rho * cos(tt)) * da * ea[c] + (c1 + rho * sin(tt)) * dl * el[c];
          du[c] = rho * (-sin(tt) * da * ea[c] + cos(tt) * dl * el[c]) * wq;
        }
        PlFrictionSaturated(&m, da, dl, ea, el, u, phi, NULL, NULL);
        OldTanhLaw(mua, mul, da, dl, ea, el, u, po, &ro);
        const double dw = phi[0] * du[0] + phi[1] * du[1] + phi[2] * du[2];
        const double dwo = po[0] * du[0] + po[1] * du[1] + po[2] * du[2], dn = sqrt(du[0] * du[0] + du[1] * du[1] + du[2] * du[2]);
        W += dw, Wabs += sqrt(phi[0] * phi[0] + phi[1] * phi[1] + phi[2] * phi[2]) * dn;
        Wo += dwo, Woabs += sqrt(po[0] * po[0] + po[1] * po[1] + po[2] * po[2]) * dn;
      }
      worst_loop = fmax(worst_loop, fabs(W) / Wabs);
      if (!conservative) old_loop = fmax(old_loop, fabs(Wo) / Woabs);
    }
  }
  { /* no overflow far out */
    double u[3], phi[3], J[9], s, psi;
    for (int c = 0; c < 3; ++c) u[c] = 1e9 * (0.6 * ea[c] + 0.8 * el[c]);
    PlFrictionSaturated(&m, 0.005, 0.0762, ea, el, u, phi, J, &s);
    PlFrictionPotential(&m, 0.005, 0.0762, ea, el, u, &psi, NULL);
    for (int c = 0; c < 9; ++c) finite = finite && isfinite(J[c]);
    finite = finite && isfinite(phi[0] + phi[1] + phi[2]) && isfinite(s) && isfinite(psi);
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                        "friction law: FD of Psi against -phi %.2e, Psi against the path integral %.2e, closed-path work "
                        "%.2e of int |phi| |du| (the old tanh law's %.3g), tangent against FD %.2e, symmetric %.2e (FD's curl "
                        "%.2e), capacity at 1e3 delta %.2e, elliptic norm = tanh^2 %.2e, springs at 0 %.2e, axes' closed "
                        "forms %.2e, equal mu delta = tanh law %.2e, finite %d\n",
                        worst_fd, worst_path, worst_loop, old_loop, worst_jac, worst_sym, worst_curl, worst_cap,
                        worst_ell, worst_k0, worst_axes, worst_eq, finite));
  CHECK_TRUE(worst_fd <= 1e-7, "central differences of Psi equal -phi (1e-7 of |phi|): phi = -grad Psi");
  CHECK_TRUE(worst_path <= 1e-12, "Psi against the work along the straight path (1e-12)");
  CHECK_TRUE(worst_loop <= 1e-12, "no work around closed turning slip paths (1e-12 of int |phi| |du|): conservative");
  CHECK_TRUE(old_loop > 0.01, "(the old tanh law does work around them: the check can fail)");
  CHECK_TRUE(worst_jac <= 1e-6, "dphi/du against central differences (1e-6 of its largest entry)");
  CHECK_TRUE(worst_sym <= 1e-14 && worst_curl <= 1e-6, "dphi/du symmetric, and its central differences (no curl)");
  CHECK_TRUE(worst_cap <= 1e-12 && worst_ell <= 1e-14, "the capacity is the ellipse (1e-12 at 1e3 delta)");
  CHECK_TRUE(worst_k0 <= 1e-12, "small slips: the springs mu_a/delta_a, mu_l/delta_l (1e-12)");
  CHECK_TRUE(worst_axes <= 1e-12, "the axes' closed forms: axial tanh, lateral (1 - eps) r + eps atanh r (1e-12)");
  CHECK_TRUE(worst_eq <= 1e-12, "mu_a delta_a = mu_l delta_l: the tanh law and Psi = k log cosh(rho) (1e-12)");
  CHECK_TRUE(finite, "finite at any slip (1e9 m), the force inside the ellipse");
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscCall(PlInitialize(&argc, &argv));
  if (argc < 3) {
    fprintf(stderr, "usage: test_static CASE EXAMPLES_DIR\n");
    return 2;
  }
  g_examples = argv[2];
  const char *c = argv[1];
  if (!strcmp(c, "catenary")) PetscCall(TestCatenary());
  else if (!strcmp(c, "seabed_grid")) PetscCall(TestSeabedGrid());
  else if (!strcmp(c, "friction_jacobian")) PetscCall(TestFrictionJacobian());
  else if (!strcmp(c, "friction_potential")) PetscCall(TestFrictionPotential());
  else if (!strcmp(c, "riflex")) PetscCall(TestRiflex());
  else if (!strcmp(c, "convergence")) PetscCall(TestConvergence());
  else if (!strcmp(c, "rollup")) PetscCall(TestRollup());
  else if (!strcmp(c, "rigid")) PetscCall(TestRigid());
  else if (!strcmp(c, "jacobian")) PetscCall(TestJacobian());
  else if (!strcmp(c, "quat_euler")) PetscCall(TestQuatEuler());
  else if (!strcmp(c, "seabed_slope")) PetscCall(TestSeabedSlope());
  else {
    fprintf(stderr, "unknown case %s\n", c);
    ++pl_check_failures;
  }
  PetscCall(PetscFinalize());
  return CHECK_DONE();
}
