/*
 * dynamic.c - the dynamic run of a one-line model on the system core: the line (and its
 * vessel) lent to solver/system_dynamic.c as a system of one line (PlLinesOfProblem: the
 * vessel is body 0 with the top end on its hang-off point, a hinge or fixed at top_frame),
 * started from the one-line statics (solver/static.c; with a vessel, vessel_static.c: its
 * pose, the DP controller's integral states and the static thrust the thrusters hold before
 * the controller starts). The output loop, files and restarts around it are dynamic_run.c's.
 */
#include <limits.h>
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
  double lref;  /* pay-out: the top element's length at the start [m], the split's step */
  PlDynamicStats before; /* the counters of the cores a remesh replaced */
  int remeshes;          /* splits and merges so far */
  int kept;              /* the leading nodes kept since PlDynamicRenumbered last asked, in
                            the numbering it last reported */
  int dropped;           /* the bottom nodes retired since (lay.retire_behind) */
  int retired;           /* retirements so far */
  /* pay-out: the work it brought in (energy.csv's work_payout_J), the power s'(t) G(t, y)
   * (G = dE/dl, PlSysDynPayoutGradient) integrated over each of the integrator's steps with G
   * linear between the step's converged ends and the pay-out's own rate s'(t) exact (4-point
   * Gauss-Legendre: exact for the C^2 ramp's quintic; the trapezoid on the product missed the
   * ramp's curvature over long steps, 2.4 kJ of 3 MJ, and Simpson's rule with the midpoint on the
   * step's interpolant took the interpolated strain's noise), each remesh's jump in G kept out:
   * w_payout to t_last, g_last = G there */
  double w_payout, g_last, t_last;
};

/* The integral of s'(t) (g0 + (g1 - g0)(t - t0)/(t1 - t0)) over [t0, t1]. */
static double PayoutIntegral(const PlDynamic d, double t0, double g0, double t1, double g1)
{
  static const double x[4] = {-0.86113631159405258, -0.33998104358485626, 0.33998104358485626, 0.86113631159405258};
  static const double wq[4] = {0.34785484513745386, 0.65214515486254614, 0.65214515486254614, 0.34785484513745386};
  const double h = t1 - t0;
  double sum = 0.0;
  for (int k = 0; k < 4; ++k) {
    const double a = 0.5 * (1.0 + x[k]);
    double s, rate;
    PlDynPaidOut(d->S->d[0], t0 + a * h, &s, &rate);
    sum += wq[k] * rate * (g0 + (g1 - g0) * a);
  }
  return 0.5 * h * sum;
}

/* The pay-out's work to time t at the state y from the last point it was taken at. */
static void PayoutWorkAt(PlDynamic d, double t, const double *y)
{
  if (!d->S->d[0]->payout || !(t > d->t_last)) return;
  const double G = PlSysDynPayoutGradient(d->S, 0, t, y);
  d->w_payout += PayoutIntegral(d, d->t_last, d->g_last, t, G);
  d->g_last = G;
  d->t_last = t;
}

/* PlIdaAdvance's hook: every step of a pay-out run. */
static void PayoutStep(void *ctx, double t, const double *y) { PayoutWorkAt((PlDynamic)ctx, t, y); }

/* The pay-out's work at the state's time t_out: forward from t_last, or, for an output inside
 * the last step (IDA stepped past it and interpolated back), the work from t_out to the step's
 * end taken off. settle: the count itself moved to t_out (a remesh there restarts it from t_out;
 * an output leaves it at the step's end, whose state is the integrator's, not an interpolant's). */
static double PayoutWorkAtState(PlDynamic d, int settle)
{
  const double *y = PlSysDynState(d->S);
  if (!d->S->d[0]->payout || !(d->t_out < d->t_last)) {
    PayoutWorkAt(d, d->t_out, y);
    return d->w_payout;
  }
  const double G = PlSysDynPayoutGradient(d->S, 0, d->t_out, y);
  const double w = d->w_payout - PayoutIntegral(d, d->t_out, G, d->t_last, d->g_last);
  if (settle) d->w_payout = w, d->g_last = G, d->t_last = d->t_out;
  return w;
}

double PlDynamicPayoutWork(PlDynamic d) { return PayoutWorkAtState(d, 0); }

/* The touchdown point of the line at the core's state (y's displacements from the static
 * positions). */
static void Touchdown(const PlDynamic d, double xt[3])
{
  const PlDynLine l = d->S->d[0];
  PlDynTouchdown(l, PlSysDynState(d->S) + d->S->loff[0], d->S->ndd, l->xs, xt);
}

/* The vessel's DP lays along lay.route (PlDPReference, kind route): its guidance. */
static PlDPReference *RouteGuidance(const PlDynamic d)
{
  const PlVesselModel *vm = &d->p->model.vessel;
  return vm->present && vm->has_dp && vm->dp.ref.kind == PL_DP_REF_ROUTE ? &d->S->dp_run[0].ref : NULL;
}

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
  PetscCheck(PlLinesReportInit(rep, 1, 0, 1, 0) == 0, p->comm, PETSC_ERR_MEM, "out of memory");
  if (vm->present && p->vessel_solved) PlVesselEta(p->vessel_y, rep->body_eta[0], NULL);
  else if (vm->present)
    for (int c = 0; c < 3; ++c) {
      rep->body_eta[0][c] = vm->position[c];
      rep->body_eta[0][3 + c] = vm->rpy[c];
    }
  PetscCall(PlLinesOfProblem(p, &d->L));
  PetscCall(PlSysDynCreate(d->L, rep, &d->S));
  PlLinesReportFree(rep);
  PetscCall(PetscFree(rep));
  if (vm->present && vm->has_dp && p->vessel_solved) {
    memcpy(PlSysDynState(d->S) + d->S->zoff[0], p->dp_z, sizeof p->dp_z);
    PlSysDynHoldThrust(d->S, 0, p->vessel_report.thrust);
  }
  PlDPReference *g = RouteGuidance(d);
  if (g) { /* from the static touchdown point and the statics' set point eta0 */
    double xt[3];
    Touchdown(d, xt);
    PlDPRouteStart(g, &p->model.route, 0.0, xt);
  }
  PetscCheck(!PlSysDynPrepareRun(d->S), p->comm, PETSC_ERR_LIB, "IDA refused the start state");
  d->lref = d->S->d[0]->Ltop0;
  d->g_last = PlSysDynPayoutGradient(d->S, 0, 0.0, PlSysDynState(d->S));
  d->kept = INT_MAX;
  d->dropped = 0;
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
PlSysDyn PlDynamicSystem(const PlDynamic d) { return d->S; }
int PlDynamicNodeDofs(const PlDynamic d) { return d->S->ndd; }


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
  return PlDynamicSetRawState(d, t, y, yp, NULL, 0);
}

PetscErrorCode PlDynamicSetRawState(PlDynamic d, double t, const double *y, const double *yp, const double *state,
                                    long count)
{
  PetscFunctionBeginUser;
  d->t_out = t;
  d->loads = 0;
  PetscCheck(!PlSysDynResumeRunState(d->S, t, y, yp, state, count), d->p->comm, PETSC_ERR_LIB,
             "IDA refused the restart state");
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

/* Moves a node's unknowns yn: translation c by h [m] (rot 0) or a rotation by h [rad] about
 * its own axis c (rot 1; R = R0 R(p) -> R exp(h e_c^)). */
static void Turn(const PlDynLine l, double *yn, int rot, int c, double h, const double q1[4])
{
  if (!rot) {
    yn[c] += h;
    return;
  }
  double q[4], e[4] = {1, 0, 0, 0}, qn[4], axis[3] = {0, 0, 0};
  axis[c] = 1.0;
  PlNodeQuaternion(l->kind, q1, yn + 3, q);
  PlQuatFromAxisAngle(axis, h, e);
  PlQuatMul(q, e, qn);
  if (l->kind == PL_PARAM_QUATERNION) memcpy(yn + 3, qn, sizeof qn); /* the same hemisphere */
  else PlParamFromQuaternion(l->kind, qn, yn + 3);
}

/* Pay-out: the nodes i0..i1 brought to balance after a remesh. Inserting a node changes the
 * discretisation: the lumped weight, drag and inertia move to the new node, which sits on the
 * old element's shape (PlDynInterpolateNode), so its rows are out of balance by about the
 * tributary weight (1.5e4 N and 7e4 N m on the 30-inch J-lay's 24 m top element), an impulse
 * that rings in the short new element's axial and bending modes. A few Newton iterations on
 * the free positions and rotations of these nodes (their momentum and angular-momentum rows,
 * the rates held: the local static correction, millimetres) remove it; the Jacobian by
 * forward differences, the rest of the line held. A top end on the vessel is not free: its
 * position (and with a fixed connection its rotation) is the joint's, and moving it would break
 * the joint at the restart (the run rang after each split: 2656 steps for 200 s of pay-out from
 * a DP vessel against 726 with it held). */
static PetscErrorCode Equilibrate(PlSysDyn S, double t, double *y, double *yp, int i0, int i1)
{
  const PlDynLine l = S->d[0];
  const int ndd = S->ndd, n = PlSysDynSize(S);
  int node[96], rot[96], comp[96], m = 0;
  PetscFunctionBeginUser;
  /* free: neither held nor on a body (an attachment: the system redirects the node's momentum
   * rows to the joint, PlSysDynCreate) */
  #define FREE(i, r) (S->redir[S->loff[0] + (i) * ndd + (r)] == -1)
  for (int i = i0; i <= i1; ++i)
    for (int c = 0; c < 3; ++c) {
      if (!PlDynRowHeld(l, i, c) && !PlDynRowHeld(l, i, l->iV + c) && FREE(i, l->iV + c))
        node[m] = i, rot[m] = 0, comp[m++] = c;
      if (!PlDynRowHeld(l, i, l->iW + c) && !PlDynRowHeld(l, i, 3 + PlHeldParam(l->kind, c)) && FREE(i, l->iW + c))
        node[m] = i, rot[m] = 1, comp[m++] = c;
    }
  #undef FREE
  double *F = malloc(sizeof(double) * n), *G = malloc(sizeof(double) * n), *A = malloc(sizeof(double) * m * m),
         r[96], save[PL_DYN_DOF_MAX];
  PetscCheck(F && G && A, PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory");
  const double q1[4] = {1, 0, 0, 0};
  /* moves unknown k of y by h: a position, or a rotation about the node's own axis comp[k] */
  #define ROW(k) ((size_t)node[k] * ndd + (rot[k] ? l->iW : l->iV) + comp[k])
  for (int it = 0; it < 6 && m > 0; ++it) {
    if (PlSysDynResidual(S, t, y, yp, F)) break;
    for (int k = 0; k < m; ++k) r[k] = -F[ROW(k)];
    for (int j = 0; j < m; ++j) {
      double *yn = y + (size_t)node[j] * ndd;
      const double h = rot[j] ? 1e-7 : 1e-6;
      memcpy(save, yn, sizeof(double) * ndd);
      Turn(l, yn, rot[j], comp[j], h, q1);
      const int bad = PlSysDynResidual(S, t, y, yp, G);
      memcpy(yn, save, sizeof(double) * ndd);
      PetscCheck(!bad, PETSC_COMM_SELF, PETSC_ERR_LIB, "the remesh's balance left the rod's domain");
      for (int k = 0; k < m; ++k) A[k * m + j] = (G[ROW(k)] - F[ROW(k)]) / h;
    }
    if (PlDenseSolveInPlace(m, A, r)) break;
    double step = 0.0;
    for (int j = 0; j < m; ++j) {
      Turn(l, y + (size_t)node[j] * ndd, rot[j], comp[j], r[j], q1);
      step = fmax(step, fabs(r[j]));
    }
    if (step < 1e-12) break;
  }
  #undef ROW
  for (int i = i0; i <= i1; ++i) /* the parameters' rates from the angular velocities */
    PlParamRateFromOmega(l->kind, y + (size_t)i * ndd + 3, y + (size_t)i * ndd + l->iW, yp + (size_t)i * ndd + 3);
  free(F), free(G), free(A);
  PetscFunctionReturn(0);
}

/* Pay-out: the top element split (split = 1) or merged into the one below (0) at the state's
 * time t. Splitting inserts the material point at l_ref above the last material node, with the
 * rod's own interpolation of the element's state (PlDynInterpolateNode: no impulse; the lumped
 * momentum and weight are kept exactly, the kinetic energy loses m l xi (1 - xi) |v_A - v_B|^2
 * / 2 at most); merging drops the last material node (the tensioner takes it in). The static
 * problem is renumbered (PlProblemRenumber), the system core rebuilt on it, the state mapped
 * (positions absolute through the new static positions) and IDA restarted at t. */
enum { REMESH_MERGE = 0, REMESH_SPLIT = 1, REMESH_RETIRE = 2 };
static PetscErrorCode StateToStatic(PlDynamic d);

static PetscErrorCode Remesh(PlDynamic d, int kind)
{
  const PlProblem p = d->p;
  PlDynLine l = d->S->d[0];
  const int split = kind == REMESH_SPLIT, retire = kind == REMESH_RETIRE;
  const int nn = p->mesh.nnodes, ne = nn - 1, ndd = d->S->ndd, nn2 = nn + (split ? 1 : -1);
  const double t = d->t_out, lt = PlDynTopLength(l, t);
  double s, rate;
  PetscFunctionBeginUser;
  PlDynPaidOut(l, t, &s, &rate);
  PlDynLineSetTime(l, t); /* the static problem's top element and arc lengths at t */
  const int n_old = PlSysDynSize(d->S);
  double *y = malloc(sizeof(double) * n_old), *yp = malloc(sizeof(double) * n_old);
  PetscCheck(y && yp, p->comm, PETSC_ERR_MEM, "out of memory");
  memcpy(y, PlSysDynState(d->S), sizeof(double) * n_old); /* the old core's, freed below */
  memcpy(yp, PlSysDynRate(d->S), sizeof(double) * n_old);
  int *from = malloc(sizeof(int) * nn2);
  double *S = malloc(sizeof(double) * nn2), *x = calloc((size_t)3 * nn2, sizeof(double)),
         *q = calloc((size_t)4 * nn2, sizeof(double)), *xa = malloc(sizeof(double) * 3 * nn), /* the old static positions */
         *y2 = malloc(sizeof(double) * (ndd * nn2 + n_old - ndd * nn)),
         *yp2 = malloc(sizeof(double) * (ndd * nn2 + n_old - ndd * nn)), yn[PL_DYN_DOF_MAX], ypn[PL_DYN_DOF_MAX];
  PetscCheck(from && S && x && q && xa && y2 && yp2, p->comm, PETSC_ERR_MEM, "out of memory");
  for (int i = 0; i < nn; ++i)
    for (int c = 0; c < 3; ++c) xa[3 * i + c] = l->xs[3 * i + c]; /* the static positions, y's reference */
  for (int i = 0; i < nn2 - 1; ++i) from[i] = retire ? i + 1 : i;
  from[nn2 - 1] = ne; /* the top */
  memcpy(S, p->mesh.S + retire, sizeof(double) * (split ? nn : nn2 - 1));
  if (retire)
    S[nn2 - 1] = p->mesh.S[ne];
  else if (split) {
    from[ne] = -1;
    const double *yA = y + (size_t)(ne - 1) * ndd, *yB = y + (size_t)ne * ndd;
    PlDynInterpolateNode(l, ne - 1, d->lref / lt, yA, yp + (size_t)(ne - 1) * ndd, yB, yp + (size_t)ne * ndd,
                         x + 3 * ne, q + 4 * ne, yn, ypn);
    S[ne] = p->mesh.S[ne - 1] + d->lref;
    S[nn] = p->mesh.S[ne - 1] + lt;
  } else
    S[nn2 - 1] = p->mesh.S[ne - 1] + lt;
  double y0[PL_DYN_DOF_MAX]; /* retiring: the new bottom node, held where it lies */
  if (retire) memcpy(y0, y + ndd, sizeof(double) * ndd);
  PlDynEnd ends[2];
  memcpy(ends, l->ends, sizeof ends);
  const struct PlDynTensioner ctl = l->ctl;
  const int vessel = p->model.vessel.present;
  PlDPController dp; /* the vessel's DP in time: its held thrust and its guidance's state */
  double eta[6] = {0, 0, 0, 0, 0, 0};
  if (vessel) {
    dp = d->S->dp_run[0];
    PlVesselEta(y + d->S->moff, eta, NULL);
  }
  PayoutWorkAtState(d, 1); /* the old line's work to the remesh */
  PetscCall(StateToStatic(d)); /* the static problem as the line is now: PlProblemRenumber keeps
                                  its old nodes' state (a new element's friction anchor starts at
                                  its midpoint there) */
  double ek, es, ep; /* the energy before (energy.csv's remesh_J takes the change) */
  PlSysDynEnergy(d->S, t, y, &ek, &es, &ep);
  const double e_before = ek + es + ep, remeshed = PlSysDynRemeshEnergy(d->S);
  PlDynamicStats st;
  PlIdaStats(PlSysDynIDA(d->S), &st);
  PlDynamicStatsAdd(&d->before, &st);
  PetscCall(PlSysDynDestroy(&d->S));
  PetscCall(PlLinesDestroy(&d->L));
  PetscCall(PlProblemRenumber(p, nn2, from, S, x, q, p->mesh.segment[ne - 1]));
  PlLinesReport *rep;
  PetscCall(PetscCalloc1(1, &rep)); /* no points; the vessel where it is */
  PetscCheck(PlLinesReportInit(rep, 1, 0, 1, 0) == 0, p->comm, PETSC_ERR_MEM, "out of memory");
  memcpy(rep->body_eta[0], eta, sizeof eta);
  PetscCall(PlLinesOfProblem(p, &d->L));
  PetscCall(PlSysDynCreate(d->L, rep, &d->S));
  PlLinesReportFree(rep);
  PetscCall(PetscFree(rep));
  if (vessel) d->S->dp_run[0] = dp;
  l = d->S->d[0];
  for (int k = 0; k < 2; ++k) {
    const int node = l->ends[k].node;
    l->ends[k] = ends[k]; /* the static references of the holds and motions */
    l->ends[k].node = node;
  }
  for (int i = 0; i < nn2; ++i) /* an old node keeps its reference (the ends' holds read it) */
    if (from[i] >= 0) memcpy(l->xs + 3 * i, xa + 3 * from[i], sizeof(double) * 3);
  if (retire) { /* the new bottom end: all held where it lies, at rest; its reference its position */
    PlDynEnd *E = &l->ends[0];
    memset(E, 0, sizeof *E);
    E->node = 0;
    E->tr[0] = E->tr[1] = E->tr[2] = true;
    E->rot = 1;
    for (int c = 0; c < 3; ++c) E->xs[c] = l->xs[c] = xa[3 + c] + y0[c];
    for (int k = 0; k < l->np; ++k) E->ps[k] = y0[3 + k];
    PlParamToQuaternion(l->kind, E->ps, E->qs);
    char *mask = p->bc_mask; /* and the static problem's holds, for its record */
    for (int r = 0; r < p->nd; ++r) mask[r] = 1;
    for (int c = 0; c < 3; ++c) p->bc_target[c] = E->xs[c];
    for (int k = 0; k < l->np; ++k) p->bc_target[3 + k] = E->ps[k];
  }
  l->ctl = ctl;
  l->Ltop0 = p->elements[nn2 - 2].L;
  l->s0 = s;
  for (int i = 0; i < nn2; ++i) {
    double *yi = y2 + (size_t)i * ndd, *ypi = yp2 + (size_t)i * ndd;
    if (from[i] >= 0) {
      memcpy(yi, y + (size_t)from[i] * ndd, sizeof(double) * ndd);
      memcpy(ypi, yp + (size_t)from[i] * ndd, sizeof(double) * ndd);
    } else {
      memcpy(yi, yn, sizeof(double) * ndd);
      memcpy(ypi, ypn, sizeof(double) * ndd);
    }
    if (from[i] < 0)
      for (int c = 0; c < 3; ++c) yi[c] = x[3 * i + c] - l->xs[3 * i + c]; /* zero: p->u has x there */
  }
  if (retire) { /* held at rest where it lies */
    for (int c = 0; c < 3; ++c) y2[c] = y2[l->iV + c] = y2[l->iW + c] = 0.0;
    memset(yp2, 0, sizeof(double) * ndd);
  }
  if (l->iA >= 0) /* a new element's friction anchor starts at its place, its midpoint as it is
                     (PlProblemRenumber): no slip (node e's anchor rows are element e's) */
    for (int e = 0; e + 1 < nn2; ++e)
      if (!(from[e] >= 0 && from[e + 1] == from[e] + 1))
        for (int c = 0; c < 3; ++c) y2[(size_t)e * ndd + l->iA + c] = yp2[(size_t)e * ndd + l->iA + c] = 0.0;
  /* the states after the nodes (the tensioner's load cell) keep their order */
  PetscCheck(PlSysDynSize(d->S) - ndd * nn2 == n_old - ndd * nn, p->comm, PETSC_ERR_PLIB, "remesh: extra states");
  memcpy(y2 + (size_t)ndd * nn2, y + (size_t)ndd * nn, sizeof(double) * (n_old - ndd * nn));
  memcpy(yp2 + (size_t)ndd * nn2, yp + (size_t)ndd * nn, sizeof(double) * (n_old - ndd * nn));
  free(from), free(S), free(x), free(q), free(xa), free(y), free(yp);
  if (!retire) PetscCall(Equilibrate(d->S, t, y2, yp2, split ? ne - 1 : ne - 2, nn2 - 1));
  PlSysDynEnergy(d->S, t, y2, &ek, &es, &ep);
  PlSysDynAddRemeshEnergy(d->S, remeshed + ek + es + ep - e_before);
  d->g_last = PlSysDynPayoutGradient(d->S, 0, t, y2); /* the new line's from the remesh */
  d->loads = 0;
  if (retire) {
    d->retired++;
    d->dropped++;
  } else {
    d->remeshes++;
    d->kept = PetscMin(d->kept, (split ? nn - 1 : nn - 2) + d->dropped);
  }
  const int bad = PlSysDynResumeRun(d->S, t, y2, yp2);
  free(y2), free(yp2);
  PetscCheck(!bad, p->comm, PETSC_ERR_LIB, "IDA refused the state after the pay-out's remesh at t = %g s", t);
  PetscFunctionReturn(0);
}

int PlDynamicRenumbered(PlDynamic d, int *kept, int *dropped, int *count, int *retired)
{
  *count = d->remeshes;
  *retired = d->retired;
  *kept = d->kept;
  *dropped = d->dropped;
  d->kept = INT_MAX;
  d->dropped = 0;
  return *kept != INT_MAX || *dropped > 0;
}

/* Retirement (lay.retire_behind): 1 when the bottom element lies wholly more than that arc
 * length behind the touchdown point (the first node from the top on the seabed), with the
 * line keeping at least four elements. */
static int RetireDue(const PlDynamic d)
{
  const PlProblem p = d->p;
  const PlModel *m = &p->model;
  const int nn = p->mesh.nnodes, ne = nn - 1, ndd = d->S->ndd;
  if (!(m->lay_retire > 0.0) || m->seabed == PL_SEABED_NONE || ne <= 4) return 0;
  const PlDynLine l = d->S->d[0];
  const double *y = PlSysDynState(d->S);
  for (int i = nn - 1; i > 0; --i) {
    double x[3];
    for (int c = 0; c < 3; ++c) x[c] = y[(size_t)i * ndd + c] + l->xs[3 * i + c];
    const PlSection *sec = &m->segments[p->mesh.segment[i < ne ? i : ne - 1]].section;
    if (PlSeabedPenetration(m, sec, x) > 0.0) return p->mesh.S[i] - p->mesh.S[1] > m->lay_retire;
  }
  return 0;
}

/* Pay-out: 1 when the top element is due to be split, -1 merged, 0 neither. */
static int RemeshDue(const PlDynamic d)
{
  const double lt = PlDynTopLength(d->S->d[0], d->t_out);
  if (lt >= PL_PAYOUT_SPLIT * d->lref * (1.0 - 1e-9)) return 1;
  if (lt <= PL_PAYOUT_MERGE * d->lref * (1.0 + 1e-9)) return -1;
  return 0;
}

/* Pay-out: the prescribed pay-out (monotonic) reaches a split or merge bound between t0 and t1:
 * the first time it does (the bisection's upper end, so that the bound is reached there), or t1
 * (the top element's length is monotonic in time, so the bound at t1 tells whether it does). */
static double NextRemesh(const PlDynamic d, double t0, double t1)
{
  const PlDynLine l = d->S->d[0];
  const double l1 = PlDynTopLength(l, t1), hi = PL_PAYOUT_SPLIT * d->lref, lo = PL_PAYOUT_MERGE * d->lref;
  if (l1 < hi && l1 > lo) return t1;
  const double bound = l1 >= hi ? hi : lo;
  for (int k = 0; k < 80 && t1 - t0 > 1e-12 * (1.0 + fabs(t1)); ++k) {
    const double mid = 0.5 * (t0 + t1), lm = PlDynTopLength(l, mid);
    if (bound == hi ? lm < hi : lm > lo) t0 = mid;
    else t1 = mid;
  }
  return t1;
}

PetscErrorCode PlDynamicAdvance(PlDynamic d, double tout, int *flag, char *why, size_t len)
{
  double tr;
  PetscFunctionBeginUser;
  *flag = 0;
  if (!d->S->d[0]->payout) {
    *flag = PlIdaAdvance(PlSysDynIDA(d->S), PlSysDynStateVector(d->S), PlSysDynRateVector(d->S), tout, d->stop,
                         d->p->comm, NULL, NULL, &tr, why, len);
    if (!*flag || *flag == PL_DYN_INTERRUPTED) d->t_out = tr;
    d->loads = 0;
    PetscFunctionReturn(0);
  }
  /* pay-out: to each remesh (a prescribed pay-out's bound, or a tensioner's sample) and each
   * sample of the vessel's route guidance */
  const PlEnd *E = &d->p->model.ends[1];
  const int tension = E->payout_tension;
  const double dtc = E->tension_interval, T = d->p->model.analysis.dynamic.duration;
  const PlDPReference *guidance = RouteGuidance(d);
  const double dtg = guidance ? guidance->interval : 0.0;
  for (;;) {
    /* a remesh due at the state's time (one found when the last call reached its output time
     * is done here, so that the outputs show the line as integrated to them) */
    for (int due = RemeshDue(d); due; due = RemeshDue(d)) {
      if (due < 0 && d->p->mesh.nelements <= 2) {
        const PlDynLine l = d->S->d[0];
        snprintf(why, len,
                 "the pipe is paid in until two elements are left at t = %.6g s (top element %.4g m, line %.6g m): "
                 "the pay-in (ends.top.payout) takes in more pipe than the line has; shorten the run or the pay-in",
                 d->t_out, PlDynTopLength(l, d->t_out), d->p->mesh.S[d->p->mesh.nnodes - 1]);
        *flag = PL_DYN_PAYOUT_LIMIT;
        break;
      }
      PetscCall(Remesh(d, due > 0 ? REMESH_SPLIT : REMESH_MERGE));
    }
    while (!*flag && RetireDue(d)) PetscCall(Remesh(d, REMESH_RETIRE));
    if (*flag || d->t_out >= tout) break;
    const double sample = tension ? (floor(d->t_out / dtc + 1e-9) + 1.0) * dtc : INFINITY;
    const double guide = dtg > 0.0 ? (floor(d->t_out / dtg + 1e-9) + 1.0) * dtg : INFINITY;
    /* IDA stops at a sample, and at the prescribed pay-out's next bound (which it must not step
     * past); to an output time it may step past and interpolate back */
    const double stop = fmin(tension ? fmin(tout, sample) : NextRemesh(d, d->t_out, T), guide),
                 next = fmin(tout, stop);
    void *ida = PlSysDynIDA(d->S);
    PlSysDynSetStopTime(d->S, stop); /* (PlIdaStep: none when IDA stands at it already, having
                                        stopped there while the last output was interpolated) */
    const PlStepHook hook = {PayoutStep, d};
    *flag = PlIdaAdvance(ida, PlSysDynStateVector(d->S), PlSysDynRateVector(d->S), next, d->stop, d->p->comm, &hook,
                         NULL, &tr, why, len);
    if (!*flag || *flag == PL_DYN_INTERRUPTED) d->t_out = tr;
    d->loads = 0;
    if (*flag) break;
    if (tension && next == sample) {
      double load[3];
      PetscCall(PlDynamicTopLoad(d, load));
      PlDynTensionerSample(d->S->d[0], next, sqrt(load[0] * load[0] + load[1] * load[1] + load[2] * load[2]));
    }
    if (next == guide) {
      double xt[3];
      Touchdown(d, xt);
      PlDPRouteSample(RouteGuidance(d), next, xt); /* (the core a remesh may have rebuilt) */
    }
    if (d->t_out >= tout) break; /* a remesh due now waits for the next call */
  }
  PetscFunctionReturn(0);
}

PetscErrorCode PlDynamicGetStats(PlDynamic d, PlDynamicStats *st)
{
  PetscFunctionBeginUser;
  PlIdaStats(PlSysDynIDA(d->S), st);
  PlDynamicStatsAdd(st, &d->before);
  PetscFunctionReturn(0);
}

PetscErrorCode PlDynamicEnergy(PlDynamic d, double *kin, double *strain, double *pot)
{
  PetscFunctionBeginUser;
  PlSysDynEnergy(d->S, d->t_out, PlSysDynState(d->S), kin, strain, pot);
  PetscFunctionReturn(0);
}

/* The static problem's unknowns (p->u) set to the line's current state: its positions and
 * rotation parameters (the rest of the static problem, a pay-out's top element, as it is). */
static PetscErrorCode StateToStatic(PlDynamic d)
{
  const PlProblem p = d->p;
  int nn;
  PetscFunctionBeginUser;
  double *u = PlSysDynLineUnknowns(d->S, 0, PlSysDynState(d->S), &nn);
  PetscCheck(u, p->comm, PETSC_ERR_MEM, "out of memory");
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

PetscErrorCode PlDynamicSyncStatic(PlDynamic d)
{
  PetscFunctionBeginUser;
  PlDynLineSetTime(d->S->d[0], d->t_out); /* a pay-out's top element at the state's time */
  PetscCall(StateToStatic(d));
  PetscFunctionReturn(0);
}

PetscErrorCode PlDynamicStations(PlDynamic d, PlStation **nodes, int *nnodes, PlStation **elements, int *nelements)
{
  const PlProblem p = d->p;
  PetscMPIInt rank;
  int nn;
  PetscFunctionBeginUser;
  *nodes = *elements = NULL;
  *nnodes = *nelements = 0;
  PlDynLineSetTime(d->S->d[0], d->t_out); /* a pay-out's top element at the state's time */
  PetscCallMPI(MPI_Comm_rank(p->comm, &rank));
  if (rank) PetscFunctionReturn(0);
  double *u = PlSysDynLineUnknowns(d->S, 0, PlSysDynState(d->S), &nn);
  PetscCheck(u, PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory");
  const int rc = PlStationsOf(p, u, nodes, elements);
  free(u);
  PetscCheck(!rc, PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory in post-processing");
  *nnodes = nn;
  *nelements = p->mesh.nelements;
  PetscFunctionReturn(0);
}

PetscErrorCode PlDynamicElementStation(PlDynamic d, int e, PlStation *station)
{
  const PlProblem p = d->p;
  double ue[PL_ELEM_DOF_MAX];
  PetscFunctionBeginUser;
  PetscCheck(e >= 0 && e < p->mesh.nelements, p->comm, PETSC_ERR_ARG_OUTOFRANGE, "no element %d", e);
  PlDynLineSetTime(d->S->d[0], d->t_out); /* a pay-out's top element at the state's time */
  PlSysDynNodeUnknowns(d->S, 0, PlSysDynState(d->S), e, 2, ue);
  PlElementStationOf(p, e, ue, station);
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
  PlSysDynOutputLoads(d->S, d->t_out, PlSysDynState(d->S), PlSysDynRate(d->S));
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
  PlSysDynBodyOutput(d->S, 0, d->t_out, PlSysDynState(d->S), vo); /* its hang-off point: body 0's is the vessel's */
  PetscFunctionReturn(0);
}
