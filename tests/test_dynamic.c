/*
 * test_dynamic.c - physics tests of the dynamic analysis (issue 3). One CTest test per case:
 *
 *   jacobian   the assembled iteration matrix dF/dy + c dF/dydot against central finite
 *              differences of the assembled residual (y and ydot perturbed together, c h
 *              for ydot), on a disturbed J-lay state with Morison drag, added mass,
 *              current, seabed contact with damping and an end moment: every row within
 *              1e-6 of the row's largest entry, quaternions and Euler angles.
 *   rest       the J-lay static configuration with drag on, no excitation, 60 s: every
 *              node moves less than 1e-6 m.
 * argv[2] is the examples/ directory.
 */
#include <string.h>
#include <petscsnes.h>
#include <petscdm.h>
#include "check.h"
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
  s->atol_position = 1e-4;
  s->atol_rotation = 1e-5;
  s->atol_velocity = 1e-3;
  s->max_step = 0.0;
  s->initial_step = 0.0;
  s->max_order = 2;
  s->max_steps = 1000000;
}

/* ---- iteration matrix against finite differences --------------------------------------- */
static PetscErrorCode JacobianCase(const char *rotation)
{
  PlModel m;
  const char *sets[] = {"mesh.elements=24", rotation};
  PlProblem p;
  PlDynamic d;
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
  PetscCall(PlProblemCreate(PETSC_COMM_WORLD, &m, &p));
  PetscCall(PlStaticSolve(p, &rep));
  CHECK_TRUE(rep.converged, "static start converged");
  PetscCall(PlDynamicCreate(p, &d));
  DM da = PlDynamicDM(d);
  Vec Y, YP, F0, Fp, Fm, Yp, YPp;
  Mat J;
  PetscCall(VecDuplicate(PlDynamicState(d), &Y));
  PetscCall(VecDuplicate(Y, &YP));
  PetscCall(VecDuplicate(Y, &F0));
  PetscCall(VecDuplicate(Y, &Fp));
  PetscCall(VecDuplicate(Y, &Fm));
  PetscCall(VecDuplicate(Y, &Yp));
  PetscCall(VecDuplicate(Y, &YPp));
  PetscCall(VecCopy(PlDynamicState(d), Y));
  /* disturb: velocities, angular velocities and rates of a few m/s, positions by cm */
  PetscRandom rnd;
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
  PetscCall(PetscRandomSetSeed(rnd, 7));
  PetscCall(PetscRandomSeed(rnd));
  PetscInt n, lo, hi;
  PetscCall(VecGetSize(Y, &n));
  PetscCall(VecGetOwnershipRange(Y, &lo, &hi));
  const int ndd = strstr(rotation, "quaternion") ? 13 : 12, iV = ndd - 6;
  for (PetscInt k = lo; k < hi; ++k) {
    PetscScalar r1, r2;
    PetscCall(PetscRandomGetValue(rnd, &r1));
    PetscCall(PetscRandomGetValue(rnd, &r2));
    const int c = (int)(k % ndd);
    const double ys = c < 3 ? 0.02 : (c < iV ? 0.01 : 1.5);
    PetscCall(VecSetValue(Y, k, ys * r1, ADD_VALUES));
    PetscCall(VecSetValue(YP, k, 2.0 * r2, INSERT_VALUES));
  }
  PetscCall(VecAssemblyBegin(Y));
  PetscCall(VecAssemblyEnd(Y));
  PetscCall(VecAssemblyBegin(YP));
  PetscCall(VecAssemblyEnd(YP));
  const double t = 3.0, c = 37.0;
  PetscCall(DMCreateMatrix(da, &J));
  PetscCall(PlDynamicIterationMatrix(d, t, Y, YP, c, J));
  /* dense FD (serial test) */
  double *Jfd = calloc((size_t)n * n, sizeof(double));
  const PetscScalar *y0;
  for (PetscInt j = 0; j < n; ++j) {
    double yj;
    PetscCall(VecGetArrayRead(Y, &y0));
    yj = y0[j];
    PetscCall(VecRestoreArrayRead(Y, &y0));
    const double hh = 1e-6 * fmax(1.0, fabs(yj));
    PetscCall(VecCopy(Y, Yp));
    PetscCall(VecCopy(YP, YPp));
    PetscCall(VecSetValue(Yp, j, hh, ADD_VALUES));
    PetscCall(VecSetValue(YPp, j, c * hh, ADD_VALUES));
    PetscCall(VecAssemblyBegin(Yp));
    PetscCall(VecAssemblyEnd(Yp));
    PetscCall(VecAssemblyBegin(YPp));
    PetscCall(VecAssemblyEnd(YPp));
    PetscCall(PlDynamicResidual(d, t, Yp, YPp, Fp));
    PetscCall(VecCopy(Y, Yp));
    PetscCall(VecCopy(YP, YPp));
    PetscCall(VecSetValue(Yp, j, -hh, ADD_VALUES));
    PetscCall(VecSetValue(YPp, j, -c * hh, ADD_VALUES));
    PetscCall(VecAssemblyBegin(Yp));
    PetscCall(VecAssemblyEnd(Yp));
    PetscCall(VecAssemblyBegin(YPp));
    PetscCall(VecAssemblyEnd(YPp));
    PetscCall(PlDynamicResidual(d, t, Yp, YPp, Fm));
    const PetscScalar *fp, *fm;
    PetscCall(VecGetArrayRead(Fp, &fp));
    PetscCall(VecGetArrayRead(Fm, &fm));
    for (PetscInt i = 0; i < n; ++i) Jfd[i * n + j] = (fp[i] - fm[i]) / (2.0 * hh);
    PetscCall(VecRestoreArrayRead(Fp, &fp));
    PetscCall(VecRestoreArrayRead(Fm, &fm));
  }
  double worst = 0.0;
  PetscInt wrow = -1;
  for (PetscInt i = 0; i < n; ++i) {
    PetscInt ncols;
    const PetscInt *cols;
    const PetscScalar *vals;
    double rowmax = 0.0, err = 0.0;
    double *Ja = calloc(n, sizeof(double));
    PetscCall(MatGetRow(J, i, &ncols, &cols, &vals));
    for (PetscInt k = 0; k < ncols; ++k) Ja[cols[k]] = vals[k];
    PetscCall(MatRestoreRow(J, i, &ncols, &cols, &vals));
    for (PetscInt j = 0; j < n; ++j) rowmax = fmax(rowmax, fmax(fabs(Ja[j]), fabs(Jfd[i * n + j])));
    for (PetscInt j = 0; j < n; ++j) err = fmax(err, fabs(Ja[j] - Jfd[i * n + j]));
    free(Ja);
    if (rowmax > 0 && err / rowmax > worst) {
      worst = err / rowmax;
      wrow = i;
    }
  }
  printf("%s: iteration matrix vs FD: worst row-relative error %.3g (row %d of %d, node %d dof %d)\n",
         rotation, worst, (int)wrow, (int)n, (int)(wrow / ndd), (int)(wrow % ndd));
  CHECK_TRUE(worst < 1e-6, "iteration matrix matches central finite differences to 1e-6 (row-relative)");
  free(Jfd);
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(MatDestroy(&J));
  PetscCall(VecDestroy(&Y));
  PetscCall(VecDestroy(&YP));
  PetscCall(VecDestroy(&F0));
  PetscCall(VecDestroy(&Fp));
  PetscCall(VecDestroy(&Fm));
  PetscCall(VecDestroy(&Yp));
  PetscCall(VecDestroy(&YPp));
  PetscCall(PlDynamicDestroy(&d));
  PetscCall(PlProblemDestroy(&p));
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
  PetscCall(PlDynamicCreate(p, &d));
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
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  if (argc < 3) {
    fprintf(stderr, "usage: test_dynamic CASE EXAMPLES_DIR\n");
    return 2;
  }
  g_examples = argv[2];
  const char *c = argv[1];
  PetscErrorCode ierr = 0;
  if (!strcmp(c, "jacobian")) {
    ierr = JacobianCase("rotation=quaternion");
    if (!ierr) ierr = JacobianCase("rotation=euler_zxy");
  } else if (!strcmp(c, "rest"))
    ierr = RestCase();
  else {
    fprintf(stderr, "unknown case %s\n", c);
    ierr = 1;
  }
  PetscCall(PetscFinalize());
  return ierr ? 1 : CHECK_DONE();
}
