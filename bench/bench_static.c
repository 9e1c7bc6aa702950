/*
 * bench_static.c - speed of the static J-lay solve.
 *
 * Solves the model (default: examples/jlay_900m.yaml, 740 nodes, H = 400 kN) from its
 * default initial guess REPEAT times and prints the wall time of each solve (problem set-up
 * excluded, and included separately), the median, and the Newton iterations.
 * usage: bench_static [MODEL.yaml] [REPEAT] [PETSc options]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <petscsys.h>
#include <petsctime.h>
#include "pipelay/solver.h"

static int Cmp(const void *a, const void *b)
{
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
  PetscCall(PlInitialize(&argc, &argv));
  const char *file = argc > 1 && argv[1][0] != '-' ? argv[1] : "examples/jlay_900m.yaml";
  const int repeat = argc > 2 && argv[2][0] != '-' ? atoi(argv[2]) : 20;
  PlModel m;
  PlError err;
  if (PlModelLoad(file, 0, NULL, &m, &err)) {
    fprintf(stderr, "%s\n", err.msg);
    return 2;
  }
  double solve[1000], total[1000];
  int its = 0, nodes = 0;
  for (int r = 0; r < repeat && r < 1000; ++r) {
    PetscLogDouble t0, t1;
    PetscCall(PetscTime(&t0));
    PlProblem p;
    PlStaticReport rep;
    PetscCall(PlProblemCreate(PETSC_COMM_WORLD, &m, &p));
    PetscCall(PlStaticSolve(p, &rep));
    PetscCall(PetscTime(&t1));
    solve[r] = rep.wall_time_s;
    total[r] = t1 - t0;
    its = rep.newton_iterations;
    nodes = PlProblemMesh(p)->nnodes;
    if (!rep.converged) fprintf(stderr, "bench_static: solve did not converge\n");
    PetscCall(PlProblemDestroy(&p));
  }
  qsort(solve, repeat, sizeof(double), Cmp);
  qsort(total, repeat, sizeof(double), Cmp);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                        "bench_static: %s, %d nodes: Newton iterations %d; solve wall time median %.1f ms "
                        "(min %.1f, max %.1f) over %d runs; with set-up median %.1f ms\n",
                        file, nodes, its, 1e3 * solve[repeat / 2], 1e3 * solve[0], 1e3 * solve[repeat - 1],
                        repeat, 1e3 * total[repeat / 2]));
  PetscCall(PetscFinalize());
  PlModelFree(&m);
  return 0;
}
