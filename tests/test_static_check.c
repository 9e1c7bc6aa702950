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
 */
#include <string.h>
#include <signal.h>
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

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  if (argc < 3) {
    fprintf(stderr, "usage: test_static_check check|stop EXAMPLES_DIR\n");
    return 2;
  }
  PetscErrorCode ierr = 0;
  if (!strcmp(argv[1], "check")) ierr = CaseCheck(argv[2]);
  else if (!strcmp(argv[1], "stop")) ierr = CaseStop(argv[2]);
  else {
    fprintf(stderr, "unknown case %s\n", argv[1]);
    ierr = 1;
  }
  const int failed = ierr || CHECK_DONE() != EXIT_SUCCESS;
  PetscCall(PetscFinalize());
  return failed;
}
