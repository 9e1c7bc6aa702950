/*
 * lines.c - the static equilibrium of several lines joined at points and hung from bodies
 * (a model of lines:, points: and bodies:, docs/model-file.md).
 *
 * Unknowns: every line's unknowns u_l (its own static problem, assembly.c: an end attached
 * to a point or a body is held in x, y, z there, rotations free; an end fixed to a body too:
 * this equilibrium is its predictor, system_static.c clamps its frame), and the masters' xi: the
 * positions of the free points, and the pose components eta_i (O_b, zyx Euler angles) of each
 * body that have restoring of their own (hydrostatics, spring; the others are held at the
 * initial pose and the load left in them is reported, as for the vessel, vessel_static.c).
 * Equations: each line's static rows F_l(u_l; xi) = 0 (the held rows s (x_end - target(xi)),
 * target a point's position or a body point r + R a), and the masters' balance (the line-end
 * attachment of docs/design-system-core.md §5.1: the end node's unconstrained residual f,
 * PlProblemEndReactionLocal, goes to the master's rows, Newton's third law):
 *     point k   R_k = sum over the line ends on k of f_end + (0, 0, (mass - rho_w volume) g),
 *     body b    its Newton-Euler rows at rest (elements/vessel.c: restoring, spring, weight, the
 *               environment load at t = 0, the hull's drag in the current) plus PlVesselJointLoad of each
 *               end on it (a hinge).
 *
 * Method: Newton on (u_1, ..., u_n, xi) together, from each line's own equilibrium with its
 * ends at the points' given positions (PlStaticSolve: its load stepping and pseudo-transient
 * continuation). The bordered system
 *     K_l du_l + B_l dxi = -F_l  (each line),     R + sum_l C_l du_l = 0
 * is solved by block elimination with each line's direct solver: w_l = -K_l^-1 F_l,
 * W_l = K_l^-1 B_l (a column per unknown of the masters the line touches), then
 *     (S + sigma M) dxi = -R - sum_l C_l w_l,   S = D - sum_l C_l W_l,   du_l = w_l - W_l dxi.
 * K_l is the line's exact tangent; B_l (-s times the targets' derivative) and D (the masters'
 * rows at fixed lines) by central differences of small closed-form maps (steps 1e-6 m,
 * 1e-7 rad); C_l, the end reactions' derivative, applied to the columns of W by central
 * differences of the end elements' reactions (step 1e-6 of the direction's size).
 * Globalisation (far from equilibrium Newton on slack catenaries, whose stiffness rises
 * steeply as they straighten, extrapolates to chords no line reaches - the kSystem of
 * tests/test_system_dynamic.c asked its clump 162 m from an anchor of a 130 m line and 11 m
 * into the seabed in its first step): sigma M is a pseudo-transient shift (M the masters'
 * pseudo-mass, MastersMetric; sigma = 0 is Newton), and the step is clipped so that no line's
 * chord grows past half of what is left to its length at the strain bound and no free point
 * sinks far into the seabed (ClipStep). The coupled step (lines by their linearisation) is
 * taken when it lowers the merit (the masters' imbalance in the inverse pseudo-mass and each
 * line's residual, relative) and leaves every line physical; else the reduced step: every line
 * re-solved with its ends moved to the trial position (PlStaticMoveEnds), which must be
 * physical in strain and folding (PlStaticCheckStateOf; the seabed is checked at the end) and,
 * for Newton, lower the imbalance phi = |R|_{M^-1}; a damped step may raise it tenfold (thirty
 * times the best): the imbalance is not a potential (a body yawing round to where its lines
 * pull meets a larger moment on the way). A rejected trial raises sigma fourfold (from sigma0,
 * the shift whose first step moves the master farthest from balance by 2 % of the shortest
 * line, 0.02 rad); an accepted one lowers it with phi (switched evolution relaxation, at least
 * halved when phi fell), back to Newton below 1e-6 sigma0. Up to 200 iterations, 1e6 sigma0
 * and 150 trials with the lines re-solved (each may cost a line's cut-back continuation). Converged
 * when every free point's force balance is within 1e-9 of its scale (the sum of the
 * magnitudes of the forces on it), each line's residual within its static tolerance (or its
 * last step below 1e-13 of its state, the round-off floor), and every line passes
 * PlStaticCheckState (else the failure says which line and why).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "solver_impl.h"

/* The arrays, per line [nl], point or body of the model, are allocated by PlLinesCreate (or
 * PlLinesOfProblem) and freed by PlLinesDestroy. */
struct PlLines_ {
  const PlModel *m;
  MPI_Comm comm;
  int nl;
  PlModel **lm;                /* each line's one-line model */
  PlProblem *p;
  int *col;                    /* first unknown of a free point in xi, or -1 (fixed) */
  int *bcol;                   /* first unknown of a body's free pose components */
  int (*bfree)[6];             /* eta_i of the body is an unknown */
  int (*bown)[6];              /* eta_i has restoring of its own (hydrostatics, spring) */
  int *jointed;                /* the body is in a joint or has DP: held whole here */
  int n;                       /* unknowns of the masters */
  int nx;                      /* the most they can be: 3 npoints + 6 nbodies (at least 1) */
  int borrowed;                /* PlLinesOfProblem: the one problem is the caller's (its model as lines,
                                  lm[0] = m, is this one's: PlModelAsLines) */
};

/* s's arrays for m's lines, points and bodies. */
static PetscErrorCode LinesAlloc(PlLines s, const PlModel *m)
{
  PetscFunctionBeginUser;
  const int nl = m->nlines > 0 ? m->nlines : 1, np = m->npoints > 0 ? m->npoints : 1;
  const int nb = m->nbodies > 0 ? m->nbodies : 1;
  s->nx = 3 * m->npoints + 6 * m->nbodies;
  if (s->nx < 1) s->nx = 1;
  PetscCall(PetscCalloc1(nl, &s->lm));
  PetscCall(PetscCalloc1(nl, &s->p));
  PetscCall(PetscCalloc1(np, &s->col));
  PetscCall(PetscCalloc1(nb, &s->bcol));
  PetscCall(PetscCalloc1(nb, &s->bfree));
  PetscCall(PetscCalloc1(nb, &s->bown));
  PetscCall(PetscCalloc1(nb, &s->jointed));
  PetscFunctionReturn(0);
}

static PetscErrorCode LinesFree(PlLines s)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(s->lm));
  PetscCall(PetscFree(s->p));
  PetscCall(PetscFree(s->col));
  PetscCall(PetscFree(s->bcol));
  PetscCall(PetscFree(s->bfree));
  PetscCall(PetscFree(s->bown));
  PetscCall(PetscFree(s->jointed));
  PetscFunctionReturn(0);
}

static double Norm3(const double *a) { return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }

/* The node and element of end e of line l. */
static int EndNode(const PlLines s, int l, int e) { return e ? s->p[l]->mesh.nnodes - 1 : 0; }
static int EndElement(const PlLines s, int l, int e) { return e ? s->p[l]->mesh.nelements - 1 : 0; }

/* The pose eta (O_b; zyx Euler angles) of body b at xi and its state y (rest). */
static void BodyPose(const PlLines s, int b, const double *xi, double eta[6], double y[PL_VESSEL_NY])
{
  const PlVesselModel *vm = &s->m->bodies[b];
  int k = s->bcol[b];
  for (int i = 0; i < 6; ++i) eta[i] = s->bfree[b][i] ? xi[k++] : i < 3 ? vm->position[i] : vm->rpy[i - 3];
  memset(y, 0, sizeof(double) * PL_VESSEL_NY);
  for (int c = 0; c < 3; ++c) y[c] = eta[c];
  PlVesselQuatFromEulerZYX(eta + 3, y + PL_VESSEL_Q);
}

/* Where end e of line l is held at xi: its point's position or its body point r + R a. */
static void EndTarget(const PlLines s, int l, int e, const double *xi, double x[3])
{
  const PlEnd *E = &s->m->lines[l].ends[e];
  if (E->point >= 0) {
    const int k = E->point;
    memcpy(x, s->col[k] >= 0 ? xi + s->col[k] : s->m->points[k].position, sizeof(double) * 3);
    return;
  }
  double eta[6], y[PL_VESSEL_NY];
  PlVesselModel joint;
  PlEndBodyJoint(E, &s->m->bodies[E->body], &joint);
  BodyPose(s, E->body, xi, eta, y);
  PlVesselHangOff(&joint, y, y + PL_VESSEL_Q, x, NULL);
}

/* 1 when end e of line l hangs from a master (a point or a body). */
static int Attached(const PlLines s, int l, int e)
{
  return s->m->lines[l].ends[e].point >= 0 || s->m->lines[l].ends[e].body >= 0;
}

/* Holds the attached ends of line l where the masters are at xi. */
static void HoldEnds(PlLines s, int l, const double *xi)
{
  PlProblem p = s->p[l];
  const int nd = p->nd;
  for (int e = 0; e < 2; ++e) {
    if (!Attached(s, l, e)) continue;
    double x[3];
    EndTarget(s, l, e, xi, x);
    const int node = EndNode(s, l, e);
    for (int c = 0; c < 3; ++c) p->bc_start[(size_t)node * nd + c] = p->bc_target[(size_t)node * nd + c] = x[c];
  }
}

/* The net weight of point k as a residual term (0, 0, (mass - rho_w volume) g). */
static double PointWeight(const PlLines s, int k)
{
  const PlPointModel *pt = &s->m->points[k];
  return (pt->mass - s->m->water_density * pt->volume) * s->m->gravity;
}

/* Body b's six Newton-Euler rows at rest (body frame) at xi with the lines' gathered unknowns
 * u, their scales (the sum of the magnitudes of the terms), and its loads (NULL: not wanted):
 * the lines' load on it (body frame, about O_b). */
static void BodyRows(const PlLines s, int b, const double *xi, double *const *u, double r[6], double sc[6],
                     double lines_load[6])
{
  const PlVesselModel *vm = &s->m->bodies[b];
  double eta[6], y[PL_VESSEL_NY], yp[PL_VESSEL_NY], env[6], tb[6] = {0, 0, 0, 0, 0, 0}, lg[6] = {0, 0, 0, 0, 0, 0};
  double rt[PL_VESSEL_NY], rg[PL_VESSEL_NY];
  BodyPose(s, b, xi, eta, y);
  memset(yp, 0, sizeof yp);
  const double t = s->p[0]->current_time; /* the static time (the system's, PlLinesCreate) */
  PlBodyLoads(s->m, NULL, NULL, NULL, b, t, y, env, tb, lg, NULL, NULL); /* environment, a hull's drag in the current
                                                                  (statics: calm water) */
  PlVesselDynamics(&vm->body, y, yp, 0.0, tb, lg, rt, NULL);
  PlVesselDynamics(&vm->body, y, yp, 0.0, NULL, NULL, rg, NULL);
  for (int i = 0; i < 6; ++i) {
    r[i] = rt[PL_VESSEL_V + i];
    sc[i] = fabs(rg[PL_VESSEL_V + i]) + fabs(rt[PL_VESSEL_V + i] - rg[PL_VESSEL_V + i]);
    if (lines_load) lines_load[i] = 0.0;
  }
  for (int l = 0; l < s->nl; ++l)
    for (int e = 0; e < 2; ++e) {
      const PlEnd *E = &s->m->lines[l].ends[e];
      if (E->body != b) continue;
      double f[3], mo[3], tr[6], df[18], dm[18];
      PlProblemEndReactionLocal(s->p[l], e, u[l] + (size_t)EndElement(s, l, e) * s->p[l]->nd, f, mo);
      PlVesselJointLoad(y, E->at, NULL, f, mo, tr, NULL, df, dm);
      for (int i = 0; i < 6; ++i) {
        r[i] += tr[i];
        sc[i] += fabs(tr[i]);
        if (lines_load) lines_load[i] -= tr[i];
      }
    }
}

/* Every master's balance R[n] at xi with the scales sc[n] (a point: for each of its rows the
 * sum of the magnitudes of the forces on it; a body: of the terms of the row), from the
 * lines' gathered unknowns u[l]. */
static void MasterRows(const PlLines s, const double *xi, double *const *u, double *R, double *sc)
{
  for (int i = 0; i < s->n; ++i) R[i] = sc[i] = 0.0;
  for (int k = 0; k < s->m->npoints; ++k) {
    if (s->col[k] < 0) continue;
    R[s->col[k] + 2] += PointWeight(s, k);
    for (int c = 0; c < 3; ++c) sc[s->col[k] + c] += fabs(PointWeight(s, k));
  }
  for (int l = 0; l < s->nl; ++l)
    for (int e = 0; e < 2; ++e) {
      const int k = s->m->lines[l].ends[e].point;
      if (k < 0 || s->col[k] < 0) continue;
      double f[3], mo[3];
      PlProblemEndReactionLocal(s->p[l], e, u[l] + (size_t)EndElement(s, l, e) * s->p[l]->nd, f, mo);
      for (int c = 0; c < 3; ++c) {
        R[s->col[k] + c] += f[c];
        sc[s->col[k] + c] += Norm3(f); /* the point's force magnitudes: a row whose forces cancel by
                                          symmetry is measured against them, not against round-off */
      }
    }
  for (int b = 0; b < s->m->nbodies; ++b) {
    double r[6], bs[6];
    int k = s->bcol[b], any = 0;
    for (int i = 0; i < 6; ++i) any |= s->bfree[b][i];
    if (!any) continue;
    BodyRows(s, b, xi, u, r, bs, NULL);
    for (int i = 0; i < 6; ++i)
      if (s->bfree[b][i]) {
        R[k] = r[i];
        sc[k++] = bs[i];
      }
  }
}

/* The largest master row over its scale (floored at 1e-12 of the largest scale). */
static double Measure(const PlLines s, const double *R, const double *sc)
{
  double smax = 0.0, e = 0.0;
  for (int i = 0; i < s->n; ++i) smax = fmax(smax, sc[i]);
  for (int i = 0; i < s->n; ++i) e = fmax(e, fabs(R[i]) / fmax(sc[i], 1e-12 * smax + 1e-300));
  return e;
}

/* Step of the differences in the unknown j: 1e-7 rad for a body's angle, else 1e-6 m. */
static double StepOf(const PlLines s, int j)
{
  for (int b = 0; b < s->m->nbodies; ++b) {
    int k = s->bcol[b];
    for (int i = 0; i < 6; ++i)
      if (s->bfree[b][i] && k++ == j) return i < 3 ? 1e-6 : 1e-7;
  }
  return 1e-6;
}

typedef struct {
  Vec *U, *F;                  /* [nl] */
  double *fnorm;               /* [nl] */
  double **u;                  /* [nl] gathered */
  double *R, *sc;              /* [nx] */
  int bad;
} State;

static PetscErrorCode StateCreate(PlLines s, State *st)
{
  PetscFunctionBeginUser;
  memset(st, 0, sizeof *st);
  PetscCall(PetscCalloc1(s->nl, &st->U));
  PetscCall(PetscCalloc1(s->nl, &st->F));
  PetscCall(PetscCalloc1(s->nl, &st->fnorm));
  PetscCall(PetscCalloc1(s->nl, &st->u));
  PetscCall(PetscCalloc1(s->nx, &st->R));
  PetscCall(PetscCalloc1(s->nx, &st->sc));
  for (int l = 0; l < s->nl; ++l) {
    PetscCall(VecDuplicate(s->p[l]->u, &st->U[l]));
    PetscCall(VecDuplicate(s->p[l]->u, &st->F[l]));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode StateDestroy(PlLines s, State *st)
{
  PetscFunctionBeginUser;
  for (int l = 0; l < s->nl; ++l) {
    PetscCall(VecDestroy(&st->U[l]));
    PetscCall(VecDestroy(&st->F[l]));
    free(st->u[l]);
    st->u[l] = NULL;
  }
  PetscCall(PetscFree(st->U));
  PetscCall(PetscFree(st->F));
  PetscCall(PetscFree(st->fnorm));
  PetscCall(PetscFree(st->u));
  PetscCall(PetscFree(st->R));
  PetscCall(PetscFree(st->sc));
  PetscFunctionReturn(0);
}

/* The merit of a state for the coupled step: the largest of the masters' relative merit ev and
 * each line's residual over its force scale. */
static double Merit(const PlLines s, const State *st, double ev)
{
  double m = ev;
  for (int l = 0; l < s->nl; ++l) m = fmax(m, st->fnorm[l] / fmax(s->p[l]->force_scale, 1e-300));
  return m;
}

/* Evaluates every line's residual and the points' rows at the lines' states st->U and xi. */
static PetscErrorCode Evaluate(PlLines s, const double *xi, State *st)
{
  PetscFunctionBeginUser;
  st->bad = 0;
  for (int l = 0; l < s->nl; ++l) {
    PlProblem p = s->p[l];
    PetscCall(VecCopy(st->U[l], p->u));
    HoldEnds(s, l, xi);
    PetscCall(PlFormFunction(NULL, st->U[l], st->F[l], p));
    st->bad |= p->domain_error;
    PetscCall(VecNorm(st->F[l], NORM_2, &st->fnorm[l]));
    free(st->u[l]);
    PetscCall(PlGatherUnknowns(p, &st->u[l]));
  }
  MasterRows(s, xi, st->u, st->R, st->sc);
  PetscFunctionReturn(0);
}

/* xi with its unknown j moved by +h and by -h (StepOf), into xp and xm; returns h. */
static double Perturbed(const PlLines s, const double *xi, int j, double *xp, double *xm)
{
  const double h = StepOf(s, j);
  memcpy(xp, xi, sizeof(double) * s->n);
  memcpy(xm, xi, sizeof(double) * s->n);
  xp[j] += h;
  xm[j] -= h;
  return h;
}

/* The directional derivative of the masters' rows along the end elements' parts of the
 * gathered direction w of line l (the other lines held), at xi: central differences. */
static void ApplyC(const PlLines s, int l, const double *xi, double *const *u, const double *w, double *out)
{
  PlProblem p = s->p[l];
  const int nd = p->nd;
  double keep[2][14], Rp[s->nx], Rm[s->nx], sc[s->nx], dmax = 0.0, umax = 1.0;
  for (int i = 0; i < s->n; ++i) out[i] = 0.0;
  for (int e = 0; e < 2; ++e) {
    if (!Attached(s, l, e)) continue;
    const size_t off = (size_t)EndElement(s, l, e) * nd;
    for (int j = 0; j < 2 * nd; ++j) {
      dmax = fmax(dmax, fabs(w[off + j]));
      umax = fmax(umax, fabs(u[l][off + j]));
    }
  }
  if (dmax == 0.0) return;
  const double eps = 1e-6 * umax / dmax;
  for (int sign = 1; sign >= -1; sign -= 2) {
    for (int e = 0; e < 2; ++e) { /* (a two-element line: both ends' elements are one) */
      const size_t off = (size_t)EndElement(s, l, e) * nd;
      memcpy(keep[e], u[l] + off, sizeof(double) * 2 * nd);
    }
    for (int e = 0; e < 2; ++e) {
      const size_t off = (size_t)EndElement(s, l, e) * nd;
      for (int j = 0; j < 2 * nd; ++j) u[l][off + j] = keep[e][j] + sign * eps * w[off + j];
    }
    MasterRows(s, xi, u, sign > 0 ? Rp : Rm, sc);
    for (int e = 1; e >= 0; --e) {
      const size_t off = (size_t)EndElement(s, l, e) * nd;
      memcpy(u[l] + off, keep[e], sizeof(double) * 2 * nd);
    }
  }
  for (int i = 0; i < s->n; ++i) out[i] = (Rp[i] - Rm[i]) / (2 * eps);
}

/* 1 when the unknown j moves where end e of line l is held. */
static int Moves(const PlLines s, int l, int e, int j)
{
  const PlEnd *E = &s->m->lines[l].ends[e];
  if (E->point >= 0) return s->col[E->point] >= 0 && j >= s->col[E->point] && j < s->col[E->point] + 3;
  if (E->body < 0) return 0;
  int n = 0;
  for (int i = 0; i < 6; ++i) n += s->bfree[E->body][i];
  return j >= s->bcol[E->body] && j < s->bcol[E->body] + n;
}

/* The masters' reduced problem at a state: the Schur complement of the lines and its right-hand
 * side, and what recovers the lines' step from a step of the masters. */
typedef struct {
  double *S;            /* [n n] row-major: D - sum_l C_l W_l, the masters' tangent with the lines in balance */
  double *rhs;          /* [nx] -R - sum_l C_l w_l */
  Vec **W;              /* [nl] of [n] per line: K_l^-1 B_l for each unknown that moves one of its ends, else NULL */
} Schur;

/* The reduced problem at the state st (masters at xi): sc->S, sc->rhs, sc->W, and each line's
 * step at fixed masters w[l] = -K_l^-1 F_l. SchurDestroy frees it. */
static PetscErrorCode SchurBuild(PlLines s, const double *xi, State *st, Vec *w_l, Schur *sc)
{
  const int n = s->n;
  double Cw[s->nx];
  PetscFunctionBeginUser;
  memset(sc, 0, sizeof *sc);
  sc->S = calloc((size_t)n * n + 1, sizeof *sc->S);
  sc->rhs = calloc((size_t)s->nx, sizeof *sc->rhs);
  sc->W = calloc((size_t)s->nl, sizeof *sc->W);
  PetscCheck(sc->S && sc->rhs && sc->W, PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory");
  double *S = sc->S, *rhs = sc->rhs;
  for (int i = 0; i < n; ++i) rhs[i] = -st->R[i];
  /* D: the masters' rows at fixed lines */
  for (int j = 0; j < n; ++j) {
    double xp[s->nx], xm[s->nx], Rp[s->nx], Rm[s->nx], scl[s->nx];
    const double h = Perturbed(s, xi, j, xp, xm);
    MasterRows(s, xp, st->u, Rp, scl);
    MasterRows(s, xm, st->u, Rm, scl);
    for (int i = 0; i < n; ++i) S[(size_t)i * n + j] = (Rp[i] - Rm[i]) / (2 * h);
  }
  for (int l = 0; l < s->nl; ++l) {
    PlProblem p = s->p[l];
    const int nd = p->nd, nn = p->mesh.nnodes;
    KSP ksp;
    Vec b;
    PetscInt lo, hi;
    double *w = malloc(sizeof(double) * (size_t)nn * nd);
    PetscCheck(w, p->comm, PETSC_ERR_MEM, "out of memory");
    PetscCall(VecCopy(st->U[l], p->u));
    PetscCall(PlFormJacobian(NULL, st->U[l], p->J, p->J, p));
    PetscCall(SNESGetKSP(p->snes, &ksp));
    PetscCall(KSPSetOperators(ksp, p->J, p->J));
    PetscCall(VecDuplicate(st->U[l], &b));
    PetscCall(VecGetOwnershipRange(b, &lo, &hi));
    /* w_l = -K^-1 F */
    PetscCall(VecCopy(st->F[l], b));
    PetscCall(VecScale(b, -1.0));
    PetscCall(KSPSolve(ksp, b, w_l[l]));
    PetscCall(PlVecGatherAll(w_l[l], w));
    ApplyC(s, l, xi, st->u, w, Cw);
    for (int i = 0; i < n; ++i) rhs[i] -= Cw[i];
    /* W_l: a column per unknown that moves one of the line's held ends, B_j = -s dtarget/dxi_j */
    sc->W[l] = calloc((size_t)n + 1, sizeof(Vec));
    PetscCheck(sc->W[l], p->comm, PETSC_ERR_MEM, "out of memory");
    for (int j = 0; j < n; ++j) {
      if (!Moves(s, l, 0, j) && !Moves(s, l, 1, j)) continue;
      double xp[s->nx], xm[s->nx];
      const double h = Perturbed(s, xi, j, xp, xm);
      PetscCall(VecZeroEntries(b));
      for (int e = 0; e < 2; ++e) {
        if (!Moves(s, l, e, j)) continue;
        double tp[3], tm[3];
        EndTarget(s, l, e, xp, tp);
        EndTarget(s, l, e, xm, tm);
        for (int c = 0; c < 3; ++c) {
          const PetscInt row = (PetscInt)EndNode(s, l, e) * nd + c;
          if (row >= lo && row < hi)
            PetscCall(VecSetValue(b, row, -p->bc_scale[row] * (tp[c] - tm[c]) / (2 * h), ADD_VALUES));
        }
      }
      PetscCall(VecAssemblyBegin(b));
      PetscCall(VecAssemblyEnd(b));
      PetscCall(VecDuplicate(b, &sc->W[l][j]));
      PetscCall(KSPSolve(ksp, b, sc->W[l][j]));
      PetscCall(PlVecGatherAll(sc->W[l][j], w));
      ApplyC(s, l, xi, st->u, w, Cw);
      for (int i = 0; i < n; ++i) S[(size_t)i * n + j] -= Cw[i];
    }
    PetscCall(VecDestroy(&b));
    free(w);
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode SchurDestroy(PlLines s, Schur *sc)
{
  PetscFunctionBeginUser;
  for (int l = 0; sc->W && l < s->nl; ++l) {
    for (int j = 0; j < s->n && sc->W[l]; ++j) PetscCall(VecDestroy(&sc->W[l][j]));
    free(sc->W[l]);
  }
  free(sc->W);
  free(sc->S);
  free(sc->rhs);
  sc->W = NULL, sc->S = NULL, sc->rhs = NULL;
  PetscFunctionReturn(0);
}

/* The masters' step dxi of (S + sigma diag(M)) dxi = rhs (sigma = 0: Newton; M the masters'
 * pseudo-mass, MastersMetric). Returns 1 when the matrix is singular (dxi then zero). */
static int SchurSolve(const PlLines s, const Schur *sc, double sigma, const double *M, double *dxi)
{
  const int n = s->n;
  double *A = malloc(sizeof(double) * ((size_t)n * n + 1));
  if (!A) return 1;
  memcpy(A, sc->S, sizeof(double) * (size_t)n * n);
  for (int i = 0; i < n; ++i) {
    A[(size_t)i * n + i] += sigma * M[i];
    dxi[i] = sc->rhs[i];
  }
  const int singular = n > 0 && PlDenseSolveInPlace(n, A, dxi);
  if (singular)
    for (int i = 0; i < n; ++i) dxi[i] = 0.0;
  free(A);
  return singular;
}

/* The lines' linearised step for the masters' step dxi: dU[l] = w[l] - W_l dxi. */
static PetscErrorCode SchurLines(const PlLines s, const Schur *sc, Vec *w, const double *dxi, Vec *dU)
{
  PetscFunctionBeginUser;
  for (int l = 0; l < s->nl; ++l) {
    PetscCall(VecCopy(w[l], dU[l]));
    for (int j = 0; j < s->n; ++j)
      if (sc->W[l][j]) PetscCall(VecAXPY(dU[l], -dxi[j], sc->W[l][j]));
  }
  PetscFunctionReturn(0);
}

/* The masters' pseudo-mass M[n], the metric of the damped steps and of the merit: a free
 * point's mass plus half of the dry mass of each line that ends on it [kg]; a body's rigid-body
 * inertia diag(M_RB) (the rotations' floored at its mass times 1 m^2), plus half of its lines'
 * mass on the translations [kg, kg m^2]; every entry at least 1. */
static void MastersMetric(const PlLines s, double *M)
{
  double half[s->nl];
  for (int l = 0; l < s->nl; ++l) {
    const PlProblem p = s->p[l];
    half[l] = 0.0;
    for (int e = 0; e < p->mesh.nelements; ++e)
      half[l] += 0.5 * p->model.segments[p->mesh.segment[e]].section.mass_per_length * p->elements[e].L;
  }
  for (int i = 0; i < s->n; ++i) M[i] = 0.0;
  for (int l = 0; l < s->nl; ++l)
    for (int e = 0; e < 2; ++e) {
      const PlEnd *E = &s->m->lines[l].ends[e];
      if (E->point >= 0 && s->col[E->point] >= 0)
        for (int c = 0; c < 3; ++c) M[s->col[E->point] + c] += half[l];
      if (E->body >= 0) {
        int k = s->bcol[E->body];
        for (int i = 0; i < 6; ++i)
          if (s->bfree[E->body][i]) M[k++] += i < 3 ? half[l] : 0.0;
      }
    }
  for (int k = 0; k < s->m->npoints; ++k)
    if (s->col[k] >= 0)
      for (int c = 0; c < 3; ++c) M[s->col[k] + c] += s->m->points[k].mass;
  for (int b = 0; b < s->m->nbodies; ++b) {
    const double *MRB = s->m->bodies[b].body.MRB;
    int k = s->bcol[b];
    for (int i = 0; i < 6; ++i)
      if (s->bfree[b][i]) M[k++] += i < 3 ? MRB[7 * i] : fmax(MRB[7 * i], MRB[0] * 1.0);
  }
  for (int i = 0; i < s->n; ++i) M[i] = fmax(M[i], 1.0);
}

/* The merit of the masters' rows R: their norm in the inverse pseudo-mass, sqrt(sum R_i^2 / M_i)
 * [N / sqrt(kg)] (force and moment rows in one consistent unit; the pseudo-transient step
 * (S + sigma M) dxi = -R descends it for a stiffness S). */
static double Phi(const PlLines s, const double *R, const double *M)
{
  double f = 0.0;
  for (int i = 0; i < s->n; ++i) f += R[i] * R[i] / M[i];
  return sqrt(f);
}

/* Where end e of line l is at xi: its master's target, or the end node's position in the
 * gathered unknowns u (an end held by the line's own model). */
static void EndAt(const PlLines s, int l, int e, const double *xi, const double *u, double x[3])
{
  if (Attached(s, l, e)) EndTarget(s, l, e, xi, x);
  else memcpy(x, u + (size_t)EndNode(s, l, e) * s->p[l]->nd, sizeof(double) * 3);
}

static double Chord(const PlLines s, int l, const double *xi, const double *u)
{
  double a[3], b[3];
  EndAt(s, l, 0, xi, u, a);
  EndAt(s, l, 1, xi, u, b);
  const double d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  return Norm3(d);
}

/* The deepest a free point may go at a trial: three of its lines' largest outer diameter below
 * the seabed (their end nodes rest in it by a fraction of a diameter, and a state through it
 * fails PlStaticCheckState by d + 10 rest penetrations); -INFINITY without seabed. */
static double PointFloor(const PlLines s, int k, double x, double y)
{
  double d = 0.0, depth = 0.0;
  int contact = 0;
  for (int l = 0; l < s->nl; ++l)
    for (int e = 0; e < 2; ++e) {
      const PlProblem p = s->p[l];
      if (s->m->lines[l].ends[e].point != k || p->model.seabed == PL_SEABED_NONE) continue;
      contact = 1;
      depth = -PlSeabedHeight(&p->model, x, y); /* the seabed under the point */
      d = fmax(d, p->model.segments[p->mesh.segment[EndElement(s, l, e)]].section.outer_diameter);
    }
  return contact ? -depth - 3.0 * d : -INFINITY;
}

/* 1 when the masters at xt keep every line within reach and every free point above its floor,
 * as seen from xi (the lines' gathered unknowns u): a line's chord may grow by at most half of
 * what is left to its length at the strain bound, L (1 + PL_STRAIN_BOUND) (no tension a pipe
 * carries holds it beyond); a point may not sink below PointFloor (deeper than it is). On 0,
 * why[len] names the limit. */
static int Feasible(const PlLines s, const double *xi, const double *xt, double *const *u, char *why, size_t len)
{
  for (int l = 0; l < s->nl; ++l) {
    if (!Attached(s, l, 0) && !Attached(s, l, 1)) continue;
    const double c0 = Chord(s, l, xi, u[l]), ct = Chord(s, l, xt, u[l]);
    const double reach = s->p[l]->model.length * (1.0 + PL_STRAIN_BOUND);
    if (ct > c0 && ct > c0 + 0.5 * fmax(0.0, reach - c0)) {
      if (why)
        snprintf(why, len, "the step would stretch line %s from a chord of %.4g m to %.4g m (length %.4g m)",
                 s->m->lines[l].name, c0, ct, s->p[l]->model.length);
      return 0;
    }
  }
  for (int k = 0; k < s->m->npoints; ++k) {
    if (s->col[k] < 0) continue;
    const double z0 = xi[s->col[k] + 2], zt = xt[s->col[k] + 2], floor = PointFloor(s, k, xt[s->col[k]], xt[s->col[k] + 1]);
    if (zt < z0 && zt < floor) {
      if (why)
        snprintf(why, len, "the step would sink point %s to z = %.4g m, below the seabed", s->m->points[k].name, zt);
      return 0;
    }
  }
  return 1;
}

/* The largest fraction beta of the masters' step dxi from xi that is Feasible (bisection to
 * 1e-6; the feasible fractions are an interval from 0 for the points' straight moves); xt
 * xi + beta dxi. 0: no fraction is (why says which limit). */
static double ClipStep(const PlLines s, const double *xi, const double *dxi, double *const *u, double *xt, char *why,
                       size_t len)
{
  double lo = 0.0, hi = 1.0;
  for (int i = 0; i < s->n; ++i) xt[i] = xi[i] + dxi[i];
  if (Feasible(s, xi, xt, u, why, len)) return 1.0;
  for (int k = 0; k < 20; ++k) {
    const double mid = 0.5 * (lo + hi);
    for (int i = 0; i < s->n; ++i) xt[i] = xi[i] + mid * dxi[i];
    if (Feasible(s, xi, xt, u, NULL, 0)) lo = mid;
    else hi = mid;
  }
  for (int i = 0; i < s->n; ++i) xt[i] = xi[i] + lo * dxi[i];
  return lo;
}

/* Every line re-solved from its state in st with its attached ends moved together to where the
 * masters are at xt (PlStaticMoveEnds: continuation of the holds, cut back on failure), into
 * tr->U, and checked for physical sense (PlStaticCheckState's strain and folding; an
 * intermediate state may cross the seabed). *ok 0 and why[len] when a line does not get there
 * or is not physical there. */
static PetscErrorCode ReSolve(PlLines s, const double *xt, const State *st, State *tr, PlLinesReport *rep, int *ok,
                              char *why, size_t len)
{
  PetscFunctionBeginUser;
  *ok = 1;
  rep->line_solves++;
  for (int l = 0; l < s->nl && *ok; ++l) {
    PlProblem p = s->p[l];
    double t[2][3];
    const double *x[2] = {NULL, NULL};
    PlStaticReport lr;
    int bad = 0;
    char w[512];
    PetscCall(VecCopy(st->U[l], p->u));
    for (int e = 0; e < 2; ++e)
      if (Attached(s, l, e)) {
        EndTarget(s, l, e, xt, t[e]);
        x[e] = t[e];
      }
    if (x[0] || x[1]) PetscCall(PlStaticMoveEnds(p, x, &lr));
    else lr.converged = PETSC_TRUE;
    p->lambda = 1.0;
    if (!lr.converged) {
      snprintf(why, len, "line %s: %.*s", s->m->lines[l].name, PL_FAILURE_MAX - PL_FAILURE_QUOTE, lr.failure);
      *ok = 0;
    } else {
      PetscCall(PlStaticCheckStateOf(p, 0, &bad, w, sizeof w));
      if (bad) {
        snprintf(why, len, "line %s is not physical there: %s", s->m->lines[l].name, w);
        *ok = 0;
      }
    }
    PetscCall(VecCopy(p->u, tr->U[l]));
  }
  PetscFunctionReturn(0);
}

/* 1 when every line's state in st passes the strain and folding parts of PlStaticCheckState
 * (an intermediate state may cross the seabed: the final one is checked in full). */
static PetscErrorCode AllPhysical(PlLines s, State *st, int *ok)
{
  PetscFunctionBeginUser;
  *ok = 1;
  for (int l = 0; l < s->nl && *ok; ++l) {
    int bad = 0;
    char w[512];
    PetscCall(VecCopy(st->U[l], s->p[l]->u));
    PetscCall(PlStaticCheckStateOf(s->p[l], 0, &bad, w, sizeof w));
    *ok = !bad;
  }
  PetscFunctionReturn(0);
}

/* The masters' unknowns xi: each free point's position, then each body's free pose components. */
static void Layout(PlLines s)
{
  s->n = 0;
  for (int k = 0; k < s->m->npoints; ++k) {
    s->col[k] = s->m->points[k].fixed ? -1 : s->n;
    if (!s->m->points[k].fixed) s->n += 3;
  }
  for (int b = 0; b < s->m->nbodies; ++b) {
    s->bcol[b] = s->n;
    for (int i = 0; i < 6; ++i) s->n += s->bfree[b][i];
  }
}

/* xi at the model's given positions and poses. */
static void StartXi(const PlLines s, double *xi)
{
  const PlModel *m = s->m;
  for (int k = 0; k < m->npoints; ++k)
    if (s->col[k] >= 0) memcpy(xi + s->col[k], m->points[k].position, sizeof(double) * 3);
  for (int b = 0; b < m->nbodies; ++b) {
    int k = s->bcol[b];
    for (int i = 0; i < 6; ++i)
      if (s->bfree[b][i]) xi[k++] = i < 3 ? m->bodies[b].position[i] : m->bodies[b].rpy[i - 3];
  }
}

PetscErrorCode PlLinesCreate(MPI_Comm comm, const PlModel *m, PlLines *out)
{
  PlLines s;
  PetscFunctionBeginUser;
  PetscCall(PetscCalloc1(1, &s));
  s->m = m;
  s->comm = comm;
  s->nl = m->nlines;
  PetscCall(LinesAlloc(s, m));
  for (int b = 0; b < m->nbodies; ++b) { /* the pose components with restoring of their own */
    int own[6];
    PlVesselOwnRestoring(&m->bodies[b].body, own);
    for (int i = 0; i < 6; ++i) s->bown[b][i] = s->bfree[b][i] = own[i];
  }
  /* a body in a joint or with a DP controller is held whole at its initial pose here (the
   * joints are assembled there; DP holds a reference): the whole system's Newton
   * (system_static.c), which has the joints and the controllers, then frees it */
  for (int j = 0; j < m->njoints; ++j)
    for (int k = 0; k < 2; ++k)
      if (m->joints[j].body[k] >= 0) s->jointed[m->joints[j].body[k]] = 1;
  for (int b = 0; b < m->nbodies; ++b)
    if (m->bodies[b].has_dp) s->jointed[b] = 1;
  for (int b = 0; b < m->nbodies; ++b)
    if (s->jointed[b])
      for (int i = 0; i < 6; ++i) s->bown[b][i] = s->bfree[b][i] = 0;
  Layout(s);
  for (int l = 0; l < s->nl; ++l) {
    s->lm[l] = malloc(sizeof *s->lm[l]);
    PetscCheck(s->lm[l] && PlModelLineModel(m, l, s->lm[l]) == 0, comm, PETSC_ERR_MEM, "out of memory");
    PetscCall(PlProblemCreate(comm, s->lm[l], &s->p[l]));
    /* one static time for the system (its bodies' environment loads too) */
    s->p[l]->current_time = m->analysis.kind == PL_ANALYSIS_DYNAMIC ? 0.0 : PlModelSettledTime(m);
    {
      /* a line hinged at both ends has a twist about its chord that only its sag resists: a
       * straight one (laid out on the seabed between a clump and an anchor) has a zero pivot
       * there, which the factorisation shifts (the ends' response does not depend on it): in
       * the node's block, where the block LU of the nd x nd blocked matrix meets it */
      KSP ksp;
      PC pc;
      PetscCall(PlProblemEnsureSNES(s->p[l]));
      PetscCall(SNESGetKSP(s->p[l]->snes, &ksp));
      PetscCall(KSPGetPC(ksp, &pc));
      PetscCall(PCFactorSetShiftType(pc, MAT_SHIFT_INBLOCKS));
    }
  }
  *out = s;
  PetscFunctionReturn(0);
}

PetscErrorCode PlLinesOfProblem(PlProblem p, PlLines *out)
{
  PlLines s;
  PetscFunctionBeginUser;
  PetscCall(PetscCalloc1(1, &s));
  PlModel *m = malloc(sizeof *m);
  PetscCheck(m && PlModelAsLines(&p->model, m) == 0, p->comm, PETSC_ERR_MEM, "out of memory");
  s->m = m;
  s->comm = p->comm;
  s->nl = 1;
  PetscCall(LinesAlloc(s, m));
  s->lm[0] = m;
  s->p[0] = p;
  s->borrowed = 1;
  Layout(s);
  *out = s;
  PetscFunctionReturn(0);
}

PetscErrorCode PlLinesDestroy(PlLines *ps)
{
  PetscFunctionBeginUser;
  PlLines s = *ps;
  if (!s) PetscFunctionReturn(0);
  if (s->borrowed) {
    PlModelFree(s->lm[0]);
    free(s->lm[0]);
    PetscCall(LinesFree(s));
    PetscCall(PetscFree(s));
    *ps = NULL;
    PetscFunctionReturn(0);
  }
  for (int l = 0; l < s->nl; ++l) {
    PetscCall(PlProblemDestroy(&s->p[l]));
    PlModelFree(s->lm[l]);
    free(s->lm[l]);
  }
  PetscCall(LinesFree(s));
  PetscCall(PetscFree(s));
  *ps = NULL;
  PetscFunctionReturn(0);
}

int PlLinesReportInit(PlLinesReport *rep, int nlines, int npoints, int nbodies, int njoints)
{
  PlLinesReportFree(rep);
  const size_t nl = nlines > 0 ? (size_t)nlines : 1, np = npoints > 0 ? (size_t)npoints : 1;
  const size_t nb = nbodies > 0 ? (size_t)nbodies : 1, nj = njoints > 0 ? (size_t)njoints : 1;
  rep->nlines = nlines, rep->npoints = npoints, rep->nbodies = nbodies, rep->njoints = njoints;
  rep->point_position = calloc(np, sizeof *rep->point_position);
  rep->point_force = calloc(np, sizeof *rep->point_force);
  rep->end_force = calloc(nl, sizeof *rep->end_force);
  rep->end_tension = calloc(nl, sizeof *rep->end_tension);
  rep->line = calloc(nl, sizeof *rep->line);
  rep->body_eta = calloc(nb, sizeof *rep->body_eta);
  rep->body_lines_load = calloc(nb, sizeof *rep->body_lines_load);
  rep->body_held = calloc(nb, sizeof *rep->body_held);
  rep->body_whole = calloc(nb, sizeof *rep->body_whole);
  rep->body_unbalanced = calloc(nb, sizeof *rep->body_unbalanced);
  rep->joint_point = calloc(nj, sizeof *rep->joint_point);
  rep->joint_force = calloc(nj, sizeof *rep->joint_force);
  rep->joint_moment = calloc(nj, sizeof *rep->joint_moment);
  if (rep->point_position && rep->point_force && rep->end_force && rep->end_tension && rep->line && rep->body_eta &&
      rep->body_lines_load && rep->body_held && rep->body_whole && rep->body_unbalanced && rep->joint_point &&
      rep->joint_force && rep->joint_moment)
    return 0;
  PlLinesReportFree(rep);
  return -1;
}

void PlLinesReportFree(PlLinesReport *rep)
{
  if (!rep) return;
  free(rep->point_position);
  free(rep->point_force);
  free(rep->end_force);
  free(rep->end_tension);
  free(rep->line);
  free(rep->body_eta);
  free(rep->body_lines_load);
  free(rep->body_held);
  free(rep->body_whole);
  free(rep->body_unbalanced);
  free(rep->joint_point);
  free(rep->joint_force);
  free(rep->joint_moment);
  memset(rep, 0, sizeof *rep);
}

PlProblem PlLinesProblem(PlLines s, int l) { return s->p[l]; }
const PlModel *PlLinesModel(const PlLines s) { return s->m; }
MPI_Comm PlLinesComm(const PlLines s) { return s->comm; }

PetscErrorCode PlLinesSolve(PlLines s, volatile sig_atomic_t *stop, int quiet, PlLinesReport *rep)
{
  const PlModel *m = s->m;
  double xi[s->nx], dxi[s->nx];
  State st, tr;
  Vec dU[s->nl];
  PetscFunctionBeginUser;
  PetscCheck(PlLinesReportInit(rep, m->nlines, m->npoints, m->nbodies, m->njoints) == 0, s->comm, PETSC_ERR_MEM,
             "out of memory");
  StartXi(s, xi);
  /* each line on its own, its ends at the points' given positions */
  for (int l = 0; l < s->nl; ++l) {
    PlStaticReport lr;
    PlProblemSetStopFlag(s->p[l], stop);
    PlProblemSetQuiet(s->p[l], quiet);
    PetscCall(PlStaticSolve(s->p[l], &lr));
    rep->line[l] = lr;
    if (!lr.converged) {
      snprintf(rep->failure, sizeof rep->failure,
               "line %s does not reach its ends at the points' given positions: %.*s", m->lines[l].name,
               PL_FAILURE_MAX - PL_FAILURE_QUOTE, lr.failure); /* (the whole account: static.c's Note) */
      PetscFunctionReturn(0);
    }
  }
  PetscCall(StateCreate(s, &st));
  PetscCall(StateCreate(s, &tr));
  for (int l = 0; l < s->nl; ++l) {
    PetscCall(VecCopy(s->p[l]->u, st.U[l]));
    PetscCall(VecDuplicate(st.U[l], &dU[l]));
  }
  PetscCall(Evaluate(s, xi, &st));
  /* A body DOF without restoring of its own is free where its lines restore it (a moored
   * platform's surge, sway and yaw): the Schur complement's diagonal with every DOF free, a
   * translation when it exceeds 1e-9 of the body's stiffest translation, a rotation when it
   * exceeds 1e-9 of that times 1 m^2; otherwise it is held at the initial pose (a rotation
   * about an axis every line passes through). */
  int probe = 0;
  for (int b = 0; b < m->nbodies; ++b)
    for (int i = 0; i < 6; ++i) probe |= !s->bown[b][i] && !s->jointed[b];
  if (probe) {
    double Sd[s->nx];
    Schur sch;
    for (int b = 0; b < m->nbodies; ++b)
      for (int i = 0; i < 6; ++i) s->bfree[b][i] = !s->jointed[b];
    Layout(s);
    StartXi(s, xi);
    PetscCall(Evaluate(s, xi, &st));
    PetscCall(SchurBuild(s, xi, &st, dU, &sch));
    for (int i = 0; i < s->n; ++i) Sd[i] = sch.S[(size_t)i * s->n + i];
    PetscCall(SchurDestroy(s, &sch));
    for (int b = 0; b < m->nbodies; ++b) {
      double kt = 0.0;
      for (int i = 0; i < 3; ++i) kt = fmax(kt, fabs(Sd[s->bcol[b] + i]));
      for (int i = 0; i < 6; ++i)
        s->bfree[b][i] = !s->jointed[b] && (s->bown[b][i] || fabs(Sd[s->bcol[b] + i]) > 1e-9 * kt);
    }
    Layout(s);
    StartXi(s, xi);
    PetscCall(Evaluate(s, xi, &st));
  }
  const int n = s->n;
  double atol[s->nl], dnorm[s->nl], unorm[s->nl];
  for (int l = 0; l < s->nl; ++l) {
    const PlProblem p = s->p[l];
    atol[l] = p->model.analysis.atol > 0.0 ? p->model.analysis.atol : 1e-9 * p->force_scale;
    dnorm[l] = INFINITY;
    unorm[l] = 1.0;
  }
  double ev = Measure(s, st.R, st.sc), M[s->nx], xt[s->nx];
  MastersMetric(s, M);
  double phi = Phi(s, st.R, M);
  /* sigma0: the pseudo-mass shift whose first step moves the master farthest from balance by
   * 2 % of the shortest line's length (as static.c's PTC: a Jacobi estimate); its rotations by
   * 0.02 rad */
  double lmin = INFINITY, sigma0 = 0.0, sigma = 0.0;
  for (int l = 0; l < s->nl; ++l) lmin = fmin(lmin, s->p[l]->model.length);
  for (int b = 0; b < m->nbodies; ++b) {
    int k = s->bcol[b];
    for (int i = 0; i < 6; ++i)
      if (s->bfree[b][i]) {
        sigma0 = fmax(sigma0, fabs(st.R[k]) / (M[k] * (i < 3 ? 0.02 * lmin : 0.02)));
        ++k;
      }
  }
  for (int k = 0; k < m->npoints; ++k)
    if (s->col[k] >= 0)
      for (int c = 0; c < 3; ++c) sigma0 = fmax(sigma0, fabs(st.R[s->col[k] + c]) / (M[s->col[k] + c] * 0.02 * lmin));
  sigma0 = fmax(sigma0, 1e-12);
  double phi_ref = 0.0; /* phi of the start's force magnitudes: the merit's relative scale */
  for (int i = 0; i < n; ++i) phi_ref += st.sc[i] * st.sc[i] / M[i];
  phi_ref = fmax(sqrt(phi_ref), 1e-300);
  int it = 0, rejected = 0, coupled = 0;
  double phi_best = phi;
  char last[PL_FAILURE_MAX - 512] = ""; /* the last rejection; quoted in rep->failure after ~450 bytes */
  for (;;) {
    int lines_ok = 1;
    for (int l = 0; l < s->nl; ++l) lines_ok &= st.fnorm[l] <= atol[l] || dnorm[l] <= 1e-13 * unorm[l];
    if ((ev <= 1e-9 && lines_ok) || it >= 200 || n == 0) break; /* n = 0: each line's own solve is it */
    if (stop && *stop) {
      snprintf(rep->failure, sizeof rep->failure, "interrupted by a signal at iteration %d", it);
      break;
    }
    ++it;
    Schur sch;
    PetscCall(SchurBuild(s, xi, &st, dU, &sch));
    /* the coupled merit: the masters' merit and each line's residual, relative */
    const double merit = Merit(s, &st, phi / phi_ref);
    int accepted = 0, was_coupled = 0;
    double phit = phi;
    while (!accepted && !(stop && *stop)) {
      if (SchurSolve(s, &sch, sigma, M, dxi)) {
        snprintf(last, sizeof last, "the masters' tangent is singular at a pseudo-mass shift of %.3g 1/s^2 (a free "
                 "point that no line holds in some direction?)", sigma);
      } else {
        const double beta = ClipStep(s, xi, dxi, st.u, xt, last, sizeof last);
        if (beta > 0.0) {
          for (int i = 0; i < n; ++i) dxi[i] *= beta;
          /* the coupled step: the lines by their linearisation, taken when it lowers the merit
           * and every line stays physical */
          Vec dUt[s->nl];
          for (int l = 0; l < s->nl; ++l) dUt[l] = tr.F[l]; /* (scratch: Evaluate overwrites it) */
          PetscCall(SchurLines(s, &sch, dU, dxi, dUt));
          for (int l = 0; l < s->nl; ++l) {
            PetscCall(VecNorm(dUt[l], NORM_2, &dnorm[l]));
            PetscCall(VecWAXPY(tr.U[l], 1.0, dUt[l], st.U[l]));
          }
          PetscCall(Evaluate(s, xt, &tr));
          const double mt = Merit(s, &tr, Phi(s, tr.R, M) / phi_ref);
          int phys = 0;
          if (!tr.bad && mt < merit) PetscCall(AllPhysical(s, &tr, &phys));
          if (phys) {
            accepted = was_coupled = 1;
            phit = Phi(s, tr.R, M);
          } else {
            /* else the reduced step: every line re-solved where the masters go */
            int ok;
            for (int l = 0; l < s->nl; ++l) dnorm[l] = INFINITY;
            PetscCall(ReSolve(s, xt, &st, &tr, rep, &ok, last, sizeof last));
            if (ok) {
              /* Newton (sigma = 0) must lower the imbalance, unless it stays balanced (the masters
               * at round-off while a line's own residual is still above its tolerance: the
               * re-solve is what is left to do; seen on the OC3 moorings under a surge load); a
               * damped step may raise it somewhat (tenfold, thirty times the best seen): the
               * imbalance is not a potential, and a body yawing round to where its lines pull has
               * to pass a larger moment on the way */
              PetscCall(Evaluate(s, xt, &tr));
              phit = Phi(s, tr.R, M);
              const int balanced = Measure(s, tr.R, tr.sc) <= 1e-9;
              if (!tr.bad && (sigma > 0.0 ? phit < 10.0 * phi && phit < 30.0 * phi_best : phit < phi || balanced))
                accepted = 1;
              else
                snprintf(last, sizeof last, "the imbalance rose from %.4g to %.4g N/kg^0.5 with the lines re-solved",
                         phi, phit);
            }
          }
        }
      }
      if (accepted) break;
      /* rejected: a larger pseudo-mass shift (a shorter, more gradient-like step) */
      rejected++;
      sigma = sigma > 0.0 ? 4.0 * sigma : sigma0;
      if (sigma > 1e6 * sigma0 || rep->line_solves >= 150) break;
    }
    PetscCall(SchurDestroy(s, &sch));
    if (!accepted) {
      if (!(stop && *stop))
        snprintf(rep->failure, sizeof rep->failure,
                 "no step of the points and bodies was accepted at iteration %d (Newton, then steps damped by a "
                 "pseudo-mass shift up to %.3g 1/s^2%s; scaled imbalance %.3g): %s. Check that each line can reach "
                 "between its ends and that the points' weights and buoyancies can be balanced by the lines; start the "
                 "free points nearer their equilibrium (points[].position)", it, sigma,
                 rep->line_solves >= 150 ? ", until the budget of 150 trials with the lines re-solved was spent" : "",
                 ev, last);
      else snprintf(rep->failure, sizeof rep->failure, "interrupted by a signal at iteration %d", it);
      for (int l = 0; l < s->nl; ++l) {
        PetscCall(VecCopy(st.U[l], s->p[l]->u));
        HoldEnds(s, l, xi);
      }
      break;
    }
    coupled += was_coupled;
    /* the shift follows the imbalance (switched evolution relaxation), at least halved after a
     * step that lowered it; back to Newton once small */
    if (sigma > 0.0) {
      sigma *= phit < phi ? fmax(0.1, fmin(0.5, phit / phi)) : fmin(10.0, phit / phi);
      if (sigma < 1e-6 * sigma0) sigma = 0.0;
    }
    phi_best = fmin(phi_best, phit);
    memcpy(xi, xt, sizeof(double) * n);
    for (int l = 0; l < s->nl; ++l) {
      PetscCall(VecCopy(tr.U[l], st.U[l]));
      PetscCall(VecNorm(st.U[l], NORM_2, &unorm[l]));
    }
    PetscCall(Evaluate(s, xi, &st));
    ev = Measure(s, st.R, st.sc);
    phi = Phi(s, st.R, M);
  }
  rep->rejected = rejected;
  rep->coupled = coupled;
  /* the state reached */
  PetscCall(Evaluate(s, xi, &st));
  ev = Measure(s, st.R, st.sc);
  int lines_ok = 1;
  for (int l = 0; l < s->nl; ++l) {
    /* with nothing to couple (n = 0) each line converged by its own solve's test above */
    lines_ok &= n == 0 || st.fnorm[l] <= atol[l] || dnorm[l] <= 1e-13 * unorm[l];
    PetscCall(VecCopy(st.U[l], s->p[l]->u));
    s->p[l]->lambda = 1.0;
  }
  /* a balance whose lines are not physical (strain, folding, through the seabed) is no
   * equilibrium of the model */
  char unphysical[640] = ""; /* "line NAME: " and w */
  for (int l = 0; l < s->nl && !unphysical[0]; ++l) {
    int bad = 0;
    char w[512];
    PetscCall(PlStaticCheckState(s->p[l], &bad, w, sizeof w));
    if (bad) snprintf(unphysical, sizeof unphysical, "line %s: %s", m->lines[l].name, w);
  }
  rep->iterations = it;
  rep->residual_rel = ev;
  rep->converged =
    ev <= 1e-9 && lines_ok && !st.bad && !unphysical[0] && !rep->failure[0] ? PETSC_TRUE : PETSC_FALSE;
  /* a finer mesh near the seabed helps only a line through the seabed (elements longer than
   * the contact's curvature let nodes pass through it); a torn or folded line needs other data */
  if (!rep->converged && !rep->failure[0] && unphysical[0] && ev <= 1e-9 && lines_ok)
    snprintf(rep->failure, sizeof rep->failure,
             "the lines and points balance, but not physically (%s): check the lines' lengths, the points' weights and "
             "positions%s", unphysical,
             strstr(unphysical, "passes through the seabed") ? ", or refine the mesh where a line meets the seabed "
                                                                "(mesh.elements)" : "");
  if (!rep->converged && !rep->failure[0])
    snprintf(rep->failure, sizeof rep->failure,
             "the equilibrium of the lines and points did not converge in %d Newton iterations (largest scaled point "
             "imbalance %.3g)", it, ev);
  for (int k = 0; k < m->npoints; ++k) {
    const double *x = s->col[k] >= 0 ? xi + s->col[k] : m->points[k].position;
    memcpy(rep->point_position[k], x, sizeof(double) * 3);
    rep->point_force[k][0] = rep->point_force[k][1] = rep->point_force[k][2] = 0.0;
  }
  for (int l = 0; l < s->nl; ++l)
    for (int e = 0; e < 2; ++e) {
      double f[3], mo[3];
      PlProblemEndReactionLocal(s->p[l], e, st.u[l] + (size_t)EndElement(s, l, e) * s->p[l]->nd, f, mo);
      /* f is the support's force on the end; with the end's applied force F they hold the
       * line's pull -(f + F), whose magnitude is the end's effective tension */
      const double *F = s->p[l]->model.ends[e].force;
      for (int c = 0; c < 3; ++c) rep->end_force[l][e][c] = -(f[c] + F[c]);
      rep->end_tension[l][e] = Norm3(rep->end_force[l][e]);
      const int k = m->lines[l].ends[e].point;
      if (k >= 0)
        for (int c = 0; c < 3; ++c) rep->point_force[k][c] -= f[c];
    }
  for (int b = 0; b < m->nbodies; ++b) {
    double y[PL_VESSEL_NY], r[6], sc[6];
    BodyPose(s, b, xi, rep->body_eta[b], y);
    BodyRows(s, b, xi, st.u, r, sc, rep->body_lines_load[b]);
    rep->body_whole[b] = s->jointed[b];
    for (int i = 0; i < 6; ++i) {
      rep->body_held[b][i] = !s->bfree[b][i];
      rep->body_unbalanced[b][i] = s->bfree[b][i] ? 0.0 : r[i];
    }
  }
  for (int l = 0; l < s->nl; ++l) PetscCall(VecDestroy(&dU[l]));
  PetscCall(StateDestroy(s, &st));
  PetscCall(StateDestroy(s, &tr));
  PetscFunctionReturn(0);
}

void *PlLinesSummaryBuild(const PlLines s, const PlLinesReport *rep)
{
  const PlModel *m = s->m;
  cJSON *root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "analysis", "static_lines");
  cJSON_AddStringToObject(root, "name", m->name);
  cJSON_AddStringToObject(root, "model", m->source_path);
  cJSON_AddBoolToObject(root, "converged", rep->converged);
  cJSON_AddNumberToObject(root, "newton_iterations", rep->iterations);
  cJSON_AddNumberToObject(root, "line_re_solves", rep->line_solves);
  cJSON_AddNumberToObject(root, "coupled_steps", rep->coupled);
  cJSON_AddNumberToObject(root, "rejected_steps", rep->rejected);
  cJSON_AddNumberToObject(root, "point_imbalance_relative", rep->residual_rel);
  if (rep->failure[0]) cJSON_AddStringToObject(root, "failure", rep->failure);
  cJSON *lines = cJSON_AddObjectToObject(root, "lines");
  for (int l = 0; l < s->nl; ++l) {
    cJSON *o = cJSON_AddObjectToObject(lines, m->lines[l].name);
    char folder[PL_NAME_MAX + 8];
    snprintf(folder, sizeof folder, "line_%s", m->lines[l].name);
    cJSON_AddStringToObject(o, "folder", folder);
    for (int e = 0; e < 2; ++e) {
      const int k = m->lines[l].ends[e].point;
      cJSON *eo = cJSON_AddObjectToObject(o, e ? "top" : "bottom");
      const int bb = m->lines[l].ends[e].body;
      cJSON_AddStringToObject(eo, "attached_to", k >= 0 ? m->points[k].name : bb >= 0 ? m->bodies[bb].id : "given end");
      cJSON_AddNumberToObject(eo, "tension_N", rep->end_tension[l][e]);
      cJSON_AddItemToObject(eo, "force_on_support_N", cJSON_CreateDoubleArray(rep->end_force[l][e], 3));
    }
  }
  cJSON *points = cJSON_AddObjectToObject(root, "points");
  for (int k = 0; k < m->npoints; ++k) {
    cJSON *o = cJSON_AddObjectToObject(points, m->points[k].name);
    cJSON_AddBoolToObject(o, "fixed", m->points[k].fixed);
    cJSON_AddItemToObject(o, "position_m", cJSON_CreateDoubleArray(rep->point_position[k], 3));
    cJSON_AddNumberToObject(o, "net_weight_N", PointWeight(s, k));
    cJSON_AddItemToObject(o, "force_from_lines_N", cJSON_CreateDoubleArray(rep->point_force[k], 3));
  }
  cJSON *bodies = cJSON_AddObjectToObject(root, "bodies");
  static const char *const dof[6] = {"surge", "sway", "heave", "roll", "pitch", "yaw"};
  for (int b = 0; b < m->nbodies; ++b) {
    cJSON *o = cJSON_AddObjectToObject(bodies, m->bodies[b].id);
    const double r2d = 180.0 / 3.14159265358979323846, *e = rep->body_eta[b];
    const double eta[6] = {e[0], e[1], e[2], e[3] * r2d, e[4] * r2d, e[5] * r2d};
    cJSON_AddItemToObject(o, "eta_m_deg", cJSON_CreateDoubleArray(eta, 6));
    cJSON_AddItemToObject(o, "lines_load_N_Nm", cJSON_CreateDoubleArray(rep->body_lines_load[b], 6));
    cJSON *held = cJSON_AddArrayToObject(o, "held");
    for (int i = 0; i < 6; ++i)
      if (rep->body_held[b][i]) cJSON_AddItemToArray(held, cJSON_CreateString(dof[i]));
    cJSON_AddItemToObject(o, "unbalanced_N_Nm", cJSON_CreateDoubleArray(rep->body_unbalanced[b], 6));
  }
  if (m->njoints > 0) {
    cJSON *joints = cJSON_AddObjectToObject(root, "joints");
    for (int j = 0; j < m->njoints; ++j) {
      cJSON *o = cJSON_AddObjectToObject(joints, m->joints[j].name);
      cJSON_AddBoolToObject(o, "solved", rep->joints_solved);
      cJSON_AddItemToObject(o, "point_m", cJSON_CreateDoubleArray(rep->joint_point[j], 3));
      cJSON_AddItemToObject(o, "force_N", cJSON_CreateDoubleArray(rep->joint_force[j], 3));
      cJSON_AddItemToObject(o, "moment_Nm", cJSON_CreateDoubleArray(rep->joint_moment[j], 3));
    }
  }
  if (m->stinger.present && rep->rollers_solved) PlSlaySummaryJSON(m, rep, root);
  return root;
}

int PlLinesWriteSummary(const PlLines s, const PlLinesReport *rep, const char *dir, PlError *err)
{
  cJSON *root = PlLinesSummaryBuild(s, rep);
  const int rc = PlSummaryWrite(dir, root, err);
  cJSON_Delete(root);
  return rc;
}
