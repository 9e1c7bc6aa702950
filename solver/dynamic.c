/*
 * dynamic.c - the dynamic run of a one-line model on the system core: the line (and its
 * vessel) lent to solver/system_dynamic.c as a system of one line (PlLinesOfProblem: the
 * vessel is body 0 with the top end on its hang-off point, a hinge or fixed at top_frame),
 * started from the one-line statics (solver/static.c; with a vessel, vessel_static.c: its
 * pose, the DP controller's integral states and the static thrust the thrusters hold before
 * the controller starts). The output loop, files and restarts around it are dynamic_run.c's.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ida/ida.h>
#include "system_impl.h"

struct PlDynamic_ {
  PlProblem p;
  PlLines L;
  PlSysDyn S;
  volatile sig_atomic_t *stop;
  double t_out; /* the time of the state */
  int loads;    /* 1: the end forces and vessel loads are those of the state (one residual) */
};

PetscErrorCode PlDynamicCreate(PlProblem p, volatile sig_atomic_t *stop, PlDynamic *out)
{
  const PlVesselModel *vm = &p->model.vessel;
  PlDynamic d;
  PlLinesReport *rep;
  PetscFunctionBeginUser;
  PetscCall(PetscCalloc1(1, &d));
  d->p = p;
  d->stop = stop;
  PetscCall(PetscCalloc1(1, &rep)); /* no points or joints: only body_eta is read */
  if (vm->present && p->vessel_solved) PlVesselEta(p->vessel_y, rep->body_eta[0], NULL);
  else if (vm->present)
    for (int c = 0; c < 3; ++c) {
      rep->body_eta[0][c] = vm->position[c];
      rep->body_eta[0][3 + c] = vm->rpy[c];
    }
  PetscCall(PlLinesOfProblem(p, &d->L));
  PetscCall(PlSysDynCreate(d->L, rep, &d->S));
  PetscCall(PetscFree(rep));
  if (vm->present && vm->has_dp && p->vessel_solved) {
    memcpy(PlSysDynState(d->S) + d->S->zoff[0], p->dp_z, sizeof p->dp_z);
    PlSysDynHoldThrust(d->S, 0, p->vessel_report.thrust);
  }
  PetscCheck(!PlSysDynPrepareRun(d->S), p->comm, PETSC_ERR_LIB, "IDA refused the start state");
  *out = d;
  PetscFunctionReturn(0);
}

PetscErrorCode PlDynamicDestroy(PlDynamic *pd)
{
  PetscFunctionBeginUser;
  if (!pd || !*pd) PetscFunctionReturn(0);
  PetscCall(PlSysDynDestroy(&(*pd)->S));
  PetscCall(PlLinesDestroy(&(*pd)->L));
  PetscCall(PetscFree(*pd));
  PetscFunctionReturn(0);
}

int PlDynamicSize(const PlDynamic d) { return PlSysDynSize(d->S); }
int PlDynamicNodeDofs(const PlDynamic d) { return d->S->ndd; }

double PlDynamicPayoutPower(const PlDynamic d) { return PlSysDynPayoutPower(d->S, d->t_out, PlSysDynState(d->S)); }

void PlDynamicPayout(const PlDynamic d, double *s, double *rate, double *tension)
{
  const PlDynLine l = d->S->d[0];
  PlDynPaidOut(l, d->t_out, s, rate);
  *tension = d->p->model.ends[1].payout_tension ? l->ctl.tension : NAN;
}

PetscErrorCode PlDynamicSetVelocity(PlDynamic d, const double *v)
{
  PetscFunctionBeginUser;
  PetscCheck(!PlSysDynSetLineVelocity(d->S, 0, v), d->p->comm, PETSC_ERR_LIB, "IDA refused the start state");
  d->loads = 0;
  PetscFunctionReturn(0);
}

PetscErrorCode PlDynamicSetRaw(PlDynamic d, double t, const double *y, const double *yp)
{
  PetscFunctionBeginUser;
  d->t_out = t;
  d->loads = 0;
  PetscCheck(!PlSysDynResumeRun(d->S, t, y, yp), d->p->comm, PETSC_ERR_LIB, "IDA refused the restart state");
  PetscFunctionReturn(0);
}

PetscErrorCode PlDynamicGetRaw(PlDynamic d, double *t, double *y, double *yp)
{
  const int n = PlSysDynSize(d->S);
  PetscFunctionBeginUser;
  *t = d->t_out;
  memcpy(y, PlSysDynState(d->S), sizeof(double) * n);
  memcpy(yp, PlSysDynRate(d->S), sizeof(double) * n);
  PetscFunctionReturn(0);
}

PetscErrorCode PlDynamicAdvance(PlDynamic d, double tout, int *flag, char *why, size_t len)
{
  double tr;
  PetscFunctionBeginUser;
  const PlDynLine l = d->S->d[0];
  if (l->payout && !d->p->model.ends[1].payout_tension) { /* the top element within its bounds up to tout (the
                                                                prescribed pay-out is monotonic) */
    const double l0 = l->Ltop0, lt = PlDynTopLength(l, tout);
    if (!(lt >= PL_PAYOUT_MIN * l0 && lt <= PL_PAYOUT_MAX * l0)) {
      /* when it reaches the bound: bisection on the monotonic length */
      const double bound = lt > l0 ? PL_PAYOUT_MAX * l0 : PL_PAYOUT_MIN * l0;
      double lo = d->t_out, hi = tout;
      for (int k = 0; k < 60; ++k) {
        const double mid = 0.5 * (lo + hi), lm = PlDynTopLength(l, mid);
        if ((lt > l0) == (lm < bound)) lo = mid;
        else hi = mid;
      }
      snprintf(why, len,
               "the pay-out %s the top element from %.4g m to %.4g m (%g of it) at t = %.6g s: splitting or merging "
               "elements as the pipe is paid out or in is not built yet (docs/design-laying.md, step 3); shorten the "
               "run (analysis.dynamic.duration) or the pay-out, or use longer elements",
               lt > l0 ? "stretches" : "shortens", l0, bound, lt > l0 ? PL_PAYOUT_MAX : PL_PAYOUT_MIN, lo);
      *flag = PL_DYN_PAYOUT_LIMIT;
      PetscFunctionReturn(0);
    }
  }
  if (l->payout && d->p->model.ends[1].payout_tension) { /* to each of the controller's samples */
    const double dtc = d->p->model.ends[1].tension_interval, T = d->p->model.analysis.dynamic.duration;
    void *ida = PlSysDynIDA(d->S);
    *flag = 0;
    while (d->t_out < tout && !*flag) {
      const double next = (floor(d->t_out / dtc + 1e-9) + 1.0) * dtc, tn = fmin(tout, next);
      IDASetStopTime(ida, tn);
      *flag = PlIdaAdvance(ida, PlSysDynStateVector(d->S), PlSysDynRateVector(d->S), tn, d->stop, d->p->comm, &tr,
                           why, len);
      if (!*flag || *flag == PL_DYN_INTERRUPTED) d->t_out = tr;
      d->loads = 0;
      if (*flag || tn < next) break; /* an output time between samples */
      double load[5];
      PetscCall(PlDynamicTopLoad(d, load));
      PlDynTensionerSample(l, tn, sqrt(load[0] * load[0] + load[1] * load[1] + load[2] * load[2]));
      if (PlDynTopLength(l, tn + dtc) > PL_PAYOUT_MAX * l->Ltop0 || PlDynTopLength(l, tn + dtc) < PL_PAYOUT_MIN * l->Ltop0) {
        snprintf(why, len,
                 "the tensioner %s the top element beyond %g to %g times its %.4g m at t = %.6g s (it pays %s at "
                 "%.3g m/s at a tension of %.6g N against the set %.6g N): splitting or merging elements as the pipe "
                 "is paid out or in is not built yet (docs/design-laying.md, step 3); check the set tension, or use "
                 "longer elements", l->ctl.rcmd > 0 ? "stretches" : "shortens", PL_PAYOUT_MIN, PL_PAYOUT_MAX, l->Ltop0,
                 tn, l->ctl.rcmd > 0 ? "out" : "in", fabs(l->ctl.rcmd), l->ctl.tension,
                 d->p->model.ends[1].tension_set);
        *flag = PL_DYN_PAYOUT_LIMIT;
      }
    }
    IDASetStopTime(ida, T);
    PetscFunctionReturn(0);
  }
  *flag = PlIdaAdvance(PlSysDynIDA(d->S), PlSysDynStateVector(d->S), PlSysDynRateVector(d->S), tout, d->stop,
                       d->p->comm, &tr, why, len);
  if (!*flag || *flag == PL_DYN_INTERRUPTED) d->t_out = tr;
  d->loads = 0;
  PetscFunctionReturn(0);
}

PetscErrorCode PlDynamicGetStats(PlDynamic d, PlDynamicStats *st)
{
  PetscFunctionBeginUser;
  PlIdaStats(PlSysDynIDA(d->S), st);
  PetscFunctionReturn(0);
}

PetscErrorCode PlDynamicEnergy(PlDynamic d, double *kin, double *strain, double *pot)
{
  PetscFunctionBeginUser;
  PlSysDynEnergy(d->S, d->t_out, PlSysDynState(d->S), kin, strain, pot);
  PetscFunctionReturn(0);
}

PetscErrorCode PlDynamicSyncStatic(PlDynamic d)
{
  const PlProblem p = d->p;
  int nn;
  PetscFunctionBeginUser;
  double *u = PlSysDynLineUnknowns(d->S, 0, PlSysDynState(d->S), &nn);
  PetscCheck(u, p->comm, PETSC_ERR_MEM, "out of memory");
  PlDynLineSetTime(d->S->d[0], d->t_out); /* a pay-out's top element at the state's time */
  PetscScalar **a;
  PetscInt xs, xm;
  PetscCall(DMDAGetCorners(p->da, &xs, NULL, NULL, &xm, NULL, NULL));
  PetscCall(DMDAVecGetArrayDOF(p->da, p->u, &a));
  for (PetscInt i = xs; i < xs + xm; ++i)
    for (int r = 0; r < p->nd; ++r) a[i][r] = u[(size_t)i * p->nd + r];
  PetscCall(DMDAVecRestoreArrayDOF(p->da, p->u, &a));
  free(u);
  PetscFunctionReturn(0);
}

PetscErrorCode PlDynamicGatherState(PlDynamic d, double **out, int *ndd)
{
  const int n = PlSysDynSize(d->S), nn = d->p->mesh.nnodes;
  const PlDynLine l = d->S->d[0];
  PetscFunctionBeginUser;
  double *y = malloc(sizeof(double) * n);
  PetscCheck(y, d->p->comm, PETSC_ERR_MEM, "out of memory");
  memcpy(y, PlSysDynState(d->S), sizeof(double) * n);
  for (int i = 0; i < nn; ++i)
    for (int c = 0; c < 3; ++c) y[(size_t)i * d->S->ndd + c] += l->xs[3 * i + c];
  *out = y;
  *ndd = d->S->ndd;
  PetscFunctionReturn(0);
}

/* The end forces and the vessel's loads at the state: one residual evaluation. */
static void Loads(PlDynamic d)
{
  if (d->loads) return;
  PlSysDynResidual(d->S, d->t_out, PlSysDynState(d->S), PlSysDynRate(d->S), NULL);
  d->loads = 1;
}

PetscErrorCode PlDynamicTopLoad(PlDynamic d, double load[3])
{
  PetscFunctionBeginUser;
  Loads(d);
  PlSysDynEndForce(d->S, 0, 1, load);
  PetscFunctionReturn(0);
}

PetscErrorCode PlDynamicVesselOutput(PlDynamic d, PlVesselOutput *vo)
{
  PetscFunctionBeginUser;
  memset(vo, 0, sizeof *vo);
  if (!d->p->model.vessel.present) PetscFunctionReturn(0);
  Loads(d);
  const double *y = PlSysDynState(d->S), *yb = y + d->S->moff;
  PlSysDynBodyOutput(d->S, 0, d->t_out, y, vo);
  PlVesselHangOff(&d->p->model.vessel, yb, yb + PL_VESSEL_Q, vo->hang_off_point, NULL);
  PetscFunctionReturn(0);
}
