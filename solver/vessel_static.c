/*
 * vessel_static.c - the coupled static equilibrium of a line and the vessel it hangs from
 * (on the system core, docs/design-system-core.md §5.3): the vessel
 * pose eta where restoring, DP controller, environment and the pipe's load balance (eta_0 of
 * the thesis' section 4.4), the start of a dynamic run.
 *
 * The line is lent to the system core as a system of one line with the vessel as its body 0
 * (PlLinesOfProblem, PlModelAsLines: the top end on the hang-off point, a hinge or fixed at the
 * top frame), started from the line's own equilibrium at the vessel's initial pose
 * (PlStaticSolve), and solved by the whole system's Newton (system_static.c: the dynamic
 * residual at rest over the pipe, the vessel and the controller's integral states, the exact
 * tangent): no nested solve, no finite differences.
 *
 * Held DOFs: a pose component with no restoring of its own (heave: waterplane area; roll,
 * pitch: metacentric heights; x, y, z: the mooring spring; a DOF the DP controller acts in
 * with Kp_i or Ki_i > 0) is held at the initial pose (PlSysStaticHold): the pipe alone holds
 * no surge equilibrium (a free vessel is pulled along), so the load left unbalanced there is
 * reported instead. The DP controller acts at its steady state (its start time and ramp are
 * ignored), so that a run whose controller starts later begins from the pose it will hold.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "system_impl.h"

static double Norm3(const double *a) { return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }

/* The DOFs of vm with restoring of their own or a DP gain. */
static void OwnRestoring(const PlVesselModel *vm, int own[6])
{
  PlVesselOwnRestoring(&vm->body, own);
  for (int i = 0; i < 6; ++i)
    own[i] |= vm->has_dp && vm->dp.actuated[i] && (vm->dp.Kp[i] > 0.0 || vm->dp.Ki[i] > 0.0);
}

PetscErrorCode PlVesselStaticSolve(PlProblem p, PlVesselStaticReport *rep)
{
  const PlVesselModel *vm = &p->model.vessel;
  static const char *names[6] = {"surge (x)", "sway (y)", "heave (z)", "roll", "pitch", "yaw"};
  PetscFunctionBeginUser;
  memset(rep, 0, sizeof *rep);
  PetscCheck(vm->present, p->comm, PETSC_ERR_ARG_WRONG, "the model has no vessel");
  PlLinesReport *lr;
  PetscCall(PetscCalloc1(1, &lr));
  PetscCheck(PlLinesReportInit(lr, 1, 0, 1, 0) == 0, p->comm, PETSC_ERR_MEM, "out of memory"); /* the vessel is body 0 */
  for (int c = 0; c < 3; ++c) {
    lr->body_eta[0][c] = vm->position[c];
    lr->body_eta[0][3 + c] = vm->rpy[c];
  }
  PlLines L;
  PlSysDyn S;
  PetscCall(PlLinesOfProblem(p, &L));
  PetscCall(PlSysDynCreate(L, lr, &S));
  /* the end tensions at the start, for the force scale */
  const int n = PlSysDynSize(S);
  double *F = malloc(sizeof(double) * (size_t)n), *zero = calloc((size_t)n, sizeof(double));
  PetscCheck(F && zero, p->comm, PETSC_ERR_MEM, "out of memory");
  PlSysDynResidual(S, p->current_time, PlSysDynState(S), zero, F);
  for (int k = 0; k < 2; ++k) {
    PlSysDynEndForce(S, 0, k, lr->end_force[0][k]);
    lr->end_tension[0][k] = Norm3(lr->end_force[0][k]);
  }
  int own[6], held[6];
  OwnRestoring(vm, own);
  for (int i = 0; i < 6; ++i) held[i] = !own[i];
  PlSysStaticHold(S, 0, held);
  PlSysStaticReport srep;
  PetscCheck(!PlSysStaticSolve(S, lr, &srep), p->comm, PETSC_ERR_MEM, "out of memory");
  if (srep.converged) PetscCall(PlSysStaticStore(S, lr)); /* the pipe into p, the loads */
  /* the report: the pose, the controller's states and the loads at the state reached */
  PlVesselOutput o;
  const double *y = PlSysDynState(S);
  PlSysDynBodyOutput(S, 0, p->current_time, y, &o);
  double ftop[3];
  PlSysDynEndForce(S, 0, 1, ftop);
  rep->converged = srep.converged ? PETSC_TRUE : PETSC_FALSE;
  rep->iterations = srep.iterations;
  rep->rejected = srep.rejected;
  rep->residual_rel = srep.residual;
  rep->top_force_N = Norm3(ftop);
  for (int i = 0; i < 6; ++i) {
    rep->eta[i] = o.eta[i];
    rep->z[i] = o.z[i];
    rep->pipe_load[i] = o.pipe_load[i];
    rep->thrust[i] = o.thrust[i];
    rep->environment[i] = o.environment[i];
    rep->held[i] = held[i];
    rep->unbalanced[i] = held[i] ? S->held_load[0][i] : 0.0;
    if (held[i]) {
      const int len = (int)strlen(rep->held_text);
      snprintf(rep->held_text + len, sizeof rep->held_text - len, "%s%s", len ? ", " : "", names[i]);
      rep->nheld++;
    }
  }
  if (!srep.converged)
    snprintf(rep->failure, sizeof rep->failure, "%s", srep.failure);
  p->vessel_report = *rep;
  memcpy(p->vessel_y, y + S->moff, sizeof p->vessel_y);
  if (S->zoff[0] >= 0) memcpy(p->dp_z, y + S->zoff[0], sizeof p->dp_z);
  else memset(p->dp_z, 0, sizeof p->dp_z);
  p->vessel_solved = 1;
  free(F);
  free(zero);
  PlLinesReportFree(lr);
  PetscCall(PetscFree(lr));
  PetscCall(PlSysDynDestroy(&S));
  PetscCall(PlLinesDestroy(&L));
  PetscFunctionReturn(0);
}

PetscErrorCode PlStaticAnalysis(PlProblem p, PlStaticReport *rep, PlVesselStaticReport *vrep, bool *converged)
{
  PetscFunctionBeginUser;
  memset(vrep, 0, sizeof *vrep);
  PetscCall(PlStaticTargetSolve(p, rep));
  *converged = rep->converged;
  if (p->model.vessel.present && rep->converged) {
    PetscCall(PlVesselStaticSolve(p, vrep));
    *converged = vrep->converged;
  }
  PetscFunctionReturn(0);
}
