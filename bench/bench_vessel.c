/*
 * bench_vessel.c - speed of the coupled pipe + vessel + DP analysis: the
 * section 4.4 scenario (examples/dp_sec44.yaml: 48 nodes, PID, 200 s).
 *
 * Times, separately: the pipe's static solve, the coupled static equilibrium of the vessel,
 * and the time integration with a state sample (node stations and the vessel's state) every
 * output interval, as a run does, but without writing files. Prints wall times, IDA
 * counters and the real-time factor, then the same with every tolerance ten times tighter
 * and the change of the vessel's offset from its reference at the end.
 * usage: bench_vessel [MODEL.yaml] [PETSc options]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <petscsys.h>
#include "pipelay/solver.h"

static PetscErrorCode Run(const char *file, double tighten, double *offset)
{
  PlModel m;
  PlError err;
  PlProblem p;
  PlDynamic d;
  PlStaticReport rep;
  PlVesselStaticReport vrep;
  PetscFunctionBeginUser;
  if (PlModelLoad(file, 0, NULL, &m, &err)) {
    fprintf(stderr, "%s\n", err.msg);
    PetscFunctionReturn(1);
  }
  PlDynamicSettings *s = &m.analysis.dynamic;
  s->rtol /= tighten;
  s->atol_position /= tighten;
  s->atol_rotation /= tighten;
  s->atol_velocity /= tighten;
  double t0 = MPI_Wtime();
  PetscCall(PlProblemCreate(PETSC_COMM_WORLD, &m, &p));
  PetscCall(PlStaticSolve(p, &rep));
  const double t1 = MPI_Wtime();
  PetscCall(PlVesselStaticSolve(p, &vrep));
  const double t2 = MPI_Wtime();
  PetscCheck(rep.converged && vrep.converged, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "static start failed");
  PetscCall(PlDynamicCreate(p, NULL, &d));
  const long nout = (long)ceil(s->duration / s->output_interval - 1e-9);
  PlVesselOutput vo;
  int flag = 0;
  char why[512];
  for (long k = 1; k <= nout && !flag; ++k) {
    PetscCall(PlDynamicAdvance(d, fmin(k * s->output_interval, s->duration), &flag, why, sizeof why));
    PlStation *N, *E;
    int nn, ne;
    PetscCall(PlDynamicSyncStatic(d));
    PetscCall(PlProblemStations(p, &N, &nn, &E, &ne));
    free(N);
    free(E);
    PetscCall(PlDynamicVesselOutput(d, &vo));
  }
  PetscCheck(!flag, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "%s", why);
  const double t3 = MPI_Wtime();
  PlDynamicStats st;
  PetscCall(PlDynamicGetStats(d, &st));
  *offset = hypot(vo.eta[0] - vo.eta_ref[0], vo.eta[1] - vo.eta_ref[1]);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                        "tolerances / %g: static %.3f s, vessel equilibrium %.3f s (%d rejected steps), dynamic %.3f s "
                        "for %.0f s: %.0fx real time; %ld steps, %ld Newton iterations, %ld matrices; offset at the "
                        "end %.5f m\n",
                        tighten, t1 - t0, t2 - t1, vrep.rejected, t3 - t2, s->duration, s->duration / (t3 - t2),
                        st.steps, st.nonlinear_iterations, st.jacobian_evaluations, *offset));
  (void)t0;
  PetscCall(PlDynamicDestroy(&d));
  PetscCall(PlProblemDestroy(&p));
  PlModelFree(&m);
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscFunctionBeginUser;
  PetscCall(PlInitialize(&argc, &argv));
  const char *file = argc > 1 && argv[1][0] != '-' ? argv[1] : "examples/dp_sec44.yaml";
  double o1, o2;
  PetscCall(Run(file, 1.0, &o1));
  PetscCall(Run(file, 10.0, &o2));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "offset change with tolerances / 10: %.3g m\n", fabs(o1 - o2)));
  PetscCall(PetscFinalize());
  return 0;
}
