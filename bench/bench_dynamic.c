/*
 * bench_dynamic.c - speed of the dynamic analysis: the section 5.4.3
 * scenario (examples/jlay_circle.yaml, 60 s) with N nodes.
 *
 * For each node count: the static start, then the time integration with a state sample
 * every output interval (the top tension, the top node's station, from its element alone: a
 * run computes every station, which is output's cost, not the solver's; no files are
 * written, so the figure is the solver's, not the disk's). Prints wall time,
 * IDA steps, Newton iterations, iteration matrices and the real-time factor, then runs the
 * same with every tolerance ten times tighter and prints the largest change of the
 * top-tension history relative to the largest top tension. With --scaling the tightened run
 * is skipped and the cost per node and simulated second is printed instead (bench/scaling.sh).
 * usage: bench_dynamic [MODEL.yaml] [NODES...] [--scaling] [PETSc options]   (default 100 740)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <petscsys.h>
#include "pipelay/solver.h"

static PetscErrorCode Run(const char *file, int nodes, double tighten, double **T, int *nT, double *wall,
                          PlDynamicStats *st)
{
  PlModel m;
  PlError err;
  char set[64];
  const char *sets[1] = {set};
  PlProblem p;
  PlDynamic d;
  PlStaticReport rep;
  PetscFunctionBeginUser;
  snprintf(set, sizeof set, "mesh.elements=%d", nodes - 1);
  if (PlModelLoad(file, 1, sets, &m, &err)) {
    fprintf(stderr, "%s\n", err.msg);
    PetscFunctionReturn(1);
  }
  PlDynamicSettings *s = &m.analysis.dynamic;
  s->rtol /= tighten;
  s->atol_position /= tighten;
  s->atol_rotation /= tighten;
  s->atol_velocity /= tighten;
  s->atol_strain /= tighten;
  PetscCall(PlProblemCreate(PETSC_COMM_WORLD, &m, &p));
  PetscCall(PlStaticSolve(p, &rep));
  const double t0 = MPI_Wtime();
  PetscCall(PlDynamicCreate(p, NULL, &d));
  const int n = (int)(s->duration / s->output_interval + 0.5);
  *T = malloc(sizeof(double) * (n + 1));
  *nT = n + 1;
  for (int k = 0; k <= n; ++k) {
    if (k) {
      int flag;
      char why[512];
      PetscCall(PlDynamicAdvance(d, k * s->output_interval, &flag, why, sizeof why));
      if (flag) {
        fprintf(stderr, "%s\n", why);
        PetscFunctionReturn(1);
      }
    }
    PlStation top; /* the top node's station: its element's (the sample computes no other) */
    PetscCall(PlDynamicElementStation(d, PlProblemMesh(p)->nelements - 1, &top));
    (*T)[k] = top.tension;
  }
  *wall = MPI_Wtime() - t0;
  PetscCall(PlDynamicGetStats(d, st));
  PetscCall(PlDynamicDestroy(&d));
  PetscCall(PlProblemDestroy(&p));
  PlModelFree(&m);
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscCall(PlInitialize(&argc, &argv));
  const char *file = "examples/jlay_circle.yaml";
  int nodes[16], nn = 0, scaling = 0;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--scaling")) {
      scaling = 1;
      continue;
    }
    if (argv[i][0] == '-') break;
    if (strstr(argv[i], ".yaml")) file = argv[i];
    else if (nn < 16) nodes[nn++] = atoi(argv[i]);
  }
  if (!nn) {
    nodes[0] = 100;
    nodes[1] = 740;
    nn = 2;
  }
  printf("bench_dynamic: %s, 1 MPI rank\n", file);
  if (scaling) printf("%6s %10s %8s %8s %9s %10s %15s %20s %20s\n", "nodes", "wall [s]", "steps", "Newton", "matrices",
                     "x real", "wall/sim s [s]", "per node [us/sim s]", "per node, step [us]");
  else printf("%6s %10s %8s %8s %9s %10s %12s\n", "nodes", "wall [s]", "steps", "Newton", "matrices", "x real", "dT_top 10x");
  for (int i = 0; i < nn; ++i) {
    if (scaling) {
      double *T, w;
      int n;
      PlDynamicStats st;
      if (Run(file, nodes[i], 1.0, &T, &n, &w, &st)) return 1;
      printf("%6d %10.3f %8ld %8ld %9ld %10.1f %15.4f %20.2f %20.3f\n", nodes[i], w, st.steps, st.nonlinear_iterations,
             st.jacobian_evaluations, st.t / w, w / st.t, 1e6 * w / st.t / nodes[i], 1e6 * w / st.steps / nodes[i]);
      fflush(stdout);
      free(T);
      continue;
    }
    double *T1, *T2, w1, w2;
    int n1, n2;
    PlDynamicStats s1, s2;
    if (Run(file, nodes[i], 1.0, &T1, &n1, &w1, &s1)) return 1;
    if (Run(file, nodes[i], 10.0, &T2, &n2, &w2, &s2)) return 1;
    double dmax = 0.0, tmax = 0.0;
    for (int k = 0; k < n1 && k < n2; ++k) {
      dmax = fmax(dmax, fabs(T1[k] - T2[k]));
      tmax = fmax(tmax, fabs(T2[k]));
    }
    printf("%6d %10.3f %8ld %8ld %9ld %10.1f %11.3f%%\n", nodes[i], w1, s1.steps, s1.nonlinear_iterations,
           s1.jacobian_evaluations, s1.t / w1, 100.0 * dmax / tmax);
    printf("%6s %10.3f %8ld %8ld %9ld %10.1f   (tolerances / 10)\n", "", w2, s2.steps, s2.nonlinear_iterations,
           s2.jacobian_evaluations, s2.t / w2);
    free(T1);
    free(T2);
  }
  PetscCall(PetscFinalize());
  return 0;
}
