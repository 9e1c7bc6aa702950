/*
 * test_system_static.c - the statics of the system core (solver/system_static.c) from a model's
 * own start, on the 75 generated one-line models of the static robustness suite
 * (tests/robustness/models: J-lays from 50 to 3000 m of water with 0.1 to 10 m elements and
 * horizontal tensions from 1.5 kN to 3 MN, risers, lazy waves with buoyancy sections, suspended
 * lines with EA from 1e7 to 1e12 N).
 *
 *   robustness MODELS_DIR [KEY=VALUE...]  For every model (with the overrides: the test
 *       system_static_robustness_straight gives analysis.initial_guess=straight): the whole
 *       system's statics (PlSysStaticSolve), started from the model's start (the catenary shape
 *       of meshes/ by default, or the straight line; not another solver's answer), converge
 *       with their defaults; and the equilibrium is the one-line statics' (solver/static.c,
 *       whose answers tests/robustness/check.py holds to independent BVP references): every
 *       node within 1e-6 of the line's length of it, the top end's tension within 1e-6 of it
 *       or of the line's submerged weight. Both solve one equation (the dynamic residual at rest is the static
 *       residual: test system_dynamic_rest), each to its own tolerance, 1e-9 of the force scale
 *       or the round-off floor; 1e-6 leaves room for a stiff line's round-off (EA = 1e12 N on
 *       1 m elements: 1e-13 m of position rounding is 0.1 N of force).
 *       Prints per model the iterations and the time of each solver.
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "pipelay/models.h"
#include "pipelay/solver.h"
#include "check.h"

static double Now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int CompareNames(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The system's statics of model m from its start: positions x[3 nnodes] (caller frees), the top
 * end's tension [N], iterations and time. */
static PetscErrorCode SystemStatics(const PlModel *m, double **x, int *nn, double *Ttop, PlSysStaticReport *srep,
                                    double *secs)
{
  PlProblem p;
  PlLines L;
  PlSysDyn S;
  PlLinesReport lr;
  double *q;
  int nq;
  PetscFunctionBeginUser;
  PetscCall(PlProblemCreate(PETSC_COMM_WORLD, m, &p));
  const double t0 = Now();
  int aligned;
  PetscCall(PlProblemAlignStart(p, &aligned));
  PetscCall(PlLinesOfProblem(p, &L));
  memset(&lr, 0, sizeof lr);
  PetscCheck(!PlLinesReportInit(&lr, 1, 0, 0, 0), PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory");
  PetscCall(PlSysDynCreate(L, &lr, &S));
  PlSysStaticHoldTargets(S);
  PetscCheck(!PlSysStaticSolve(S, &lr, srep), PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory");
  if (srep->converged) PetscCall(PlSysStaticStore(S, &lr));
  *secs = Now() - t0;
  *Ttop = lr.end_tension[0][1];
  PetscCall(PlProblemGatherState(p, x, &q, nn));
  (void)nq;
  free(q);
  PetscCall(PlSysDynDestroy(&S));
  PetscCall(PlLinesDestroy(&L));
  PlLinesReportFree(&lr);
  PetscCall(PlProblemDestroy(&p));
  PetscFunctionReturn(0);
}

/* The one-line statics of m: positions, the top tension, the report. */
static PetscErrorCode OneLineStatics(const PlModel *m, double **x, int *nn, double *Ttop, PlStaticReport *rep)
{
  PlProblem p;
  PlStation *nodes, *els;
  PlStaticSummary sum;
  double *q;
  int nnodes, nels;
  PetscFunctionBeginUser;
  PetscCall(PlProblemCreate(PETSC_COMM_WORLD, m, &p));
  PetscCall(PlStaticSolve(p, rep));
  PetscCall(PlProblemStations(p, &nodes, &nnodes, &els, &nels));
  PetscCall(PlStaticSummarize(p, nodes, nnodes, els, nels, &sum));
  *Ttop = sum.top_tension_N;
  PetscCall(PlProblemGatherState(p, x, &q, nn));
  free(q), free(nodes), free(els);
  PetscCall(PlProblemDestroy(&p));
  PetscFunctionReturn(0);
}

static PetscErrorCode RobustnessCase(const char *dir, int nsets, const char *const *sets)
{
  DIR *d = opendir(dir);
  char *names[256];
  int n = 0, converged = 0;
  double tsys = 0.0, tone = 0.0;
  PetscFunctionBeginUser;
  PetscCheck(d, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot open %s", dir);
  for (struct dirent *e; (e = readdir(d)) && n < 256;) {
    const size_t len = strlen(e->d_name);
    if (len > 5 && !strcmp(e->d_name + len - 5, ".yaml")) names[n++] = strdup(e->d_name);
  }
  closedir(d);
  qsort(names, (size_t)n, sizeof names[0], CompareNames);
  CHECK_TRUE(n == 75, "the robustness suite's 75 models are found");
  for (int k = 0; k < n; ++k) {
    char path[4096], what[1600];
    snprintf(path, sizeof path, "%s/%s", dir, names[k]);
    PlModel m;
    PlError err;
    if (PlModelLoad(path, nsets, sets, &m, &err)) {
      fprintf(stderr, "FAIL %s: %s\n", path, err.msg);
      ++pl_check_failures;
      continue;
    }
    double *xs = NULL, *xo = NULL, Ts = 0.0, To = 0.0, secs = 0.0;
    int ns = 0, no = 0;
    PlSysStaticReport srep;
    PlStaticReport orep;
    PetscCall(SystemStatics(&m, &xs, &ns, &Ts, &srep, &secs));
    tsys += secs;
    const double t1 = Now();
    PetscCall(OneLineStatics(&m, &xo, &no, &To, &orep));
    tone += Now() - t1;
    snprintf(what, sizeof what, "%s: the system's statics converge from the model's start (%s)", names[k], srep.failure);
    CHECK_TRUE(srep.converged, what);
    converged += srep.converged;
    if (srep.converged && orep.converged && ns == no) {
      double dmax = 0.0;
      for (int i = 0; i < 3 * ns; ++i) dmax = fmax(dmax, fabs(xs[i] - xo[i]));
      snprintf(what, sizeof what, "%s: largest node distance from the one-line equilibrium [m]", names[k]);
      CHECK_ABS(dmax, 0.0, 1e-6 * m.length, what);
      /* the top tension within 1e-6 of itself, or of the line's submerged weight: its vertical
       * part is the weight of the suspended length, which positions 1e-6 L apart at a
       * touchdown on a soft seabed change by up to that (a J-lay of 0.1 m elements whose two
       * solves stop at their round-off floors 0.05 N apart in 30 kN, its line weighing 60 kN) */
      double weight = 0.0;
      for (int g = 0; g < m.nsegments; ++g)
        weight += fabs(PlSectionSubmergedWeight(&m.segments[g].section, m.water_density, m.gravity)) *
                  m.segments[g].length;
      snprintf(what, sizeof what, "%s: top tension [N] against the one-line statics'", names[k]);
      CHECK_ABS(Ts, To, 1e-6 * fmax(fabs(To), weight), what);
    }
    printf("%-45s system %s in %3d iterations (%2d rejected), %7.1f ms; one-line %s, %7.1f ms\n", names[k],
           srep.converged ? "converged" : "FAILED", srep.iterations, srep.rejected, 1e3 * secs,
           orep.converged ? "converged" : "FAILED", 1e3 * (Now() - t1));
    free(xs), free(xo);
    PlModelFree(&m);
    free(names[k]);
  }
  printf("%d of %d converged on the system; %.2f s in all (the one-line statics %.2f s)\n", converged, n, tsys, tone);
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscFunctionBeginUser;
  PetscCall(PlInitialize(&argc, &argv));
  const char *c = argc > 1 ? argv[1] : "";
  PetscErrorCode rc = 1;
  if (!strcmp(c, "robustness") && argc > 2) rc = RobustnessCase(argv[2], argc - 3, (const char *const *)argv + 3);
  else fprintf(stderr, "usage: test_system_static robustness MODELS_DIR [KEY=VALUE]...\n");
  PetscCall(PetscFinalize());
  return rc || pl_check_failures ? 1 : 0;
}
