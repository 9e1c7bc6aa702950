/*
 * lines.c - the static equilibrium of several lines joined at points and hung from bodies
 * (issue 14; a model of lines:, points: and bodies:, docs/model-file.md).
 *
 * Unknowns: every line's unknowns u_l (its own static problem, assembly.c: an end attached
 * to a point or a body is held in x, y, z there, rotations free), and the masters' xi: the
 * positions of the free points, and the pose components eta_i (O_b, zyx Euler angles) of each
 * body that have restoring of their own (hydrostatics, spring; the others are held at the
 * initial pose and the load left in them is reported, as for the vessel, vessel_static.c).
 * Equations: each line's static rows F_l(u_l; xi) = 0 (the held rows s (x_end - target(xi)),
 * target a point's position or a body point r + R a), and the masters' balance (the line-end
 * attachment of docs/design-system-core.md §2.1: the end node's unconstrained residual f,
 * PlProblemEndReactionLocal, goes to the master's rows, Newton's third law):
 *     point k   R_k = sum over the line ends on k of f_end + (0, 0, (mass - rho_w volume) g),
 *     body b    its Newton-Euler rows at rest (elements/vessel.c: restoring, spring, weight, the
 *               environment load at t = 0) plus PlVesselJointLoad of each end on it (a hinge).
 *
 * Method: Newton on (u_1, ..., u_n, xi) together, from each line's own equilibrium with its
 * ends at the points' given positions (PlStaticSolve: its load stepping and pseudo-transient
 * continuation). The bordered system
 *     K_l du_l + B_l dxi = -F_l  (each line),     R + sum_l C_l du_l = 0
 * is solved by block elimination with each line's direct solver: w_l = -K_l^-1 F_l,
 * W_l = K_l^-1 B_l (a column per unknown of the masters the line touches), then
 *     (D - sum_l C_l W_l) dxi = -R - sum_l C_l w_l,   du_l = w_l - W_l dxi.
 * K_l is the line's exact tangent; B_l (-s times the targets' derivative) and D (the masters'
 * rows at fixed lines) by central differences of small closed-form maps (steps 1e-6 m,
 * 1e-7 rad); C_l, the end reactions' derivative, applied to the columns of W by central
 * differences of the end elements' reactions (step 1e-6 of the direction's size). The coupled step is
 * taken when it lowers the merit (the largest scaled point imbalance or line residual over its
 * force scale); else (far from the solution, where a stiff rod's residual jumps after a full
 * step) the reduced step: the points moved by dxi, halved until the imbalance falls, each line
 * re-solved there by its own robust path (PlStaticMoveEnd) - Newton on the points with the
 * exact Schur complement of the lines. Converged when every free point's force balance is
 * within 1e-9 of its scale (the sum of the magnitudes of the forces on it) and each line's
 * residual within its static tolerance (or its last step below 1e-13 of its state, the
 * round-off floor).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "solver_impl.h"

#define NX (3 * PL_MAX_POINTS + 6 * PL_MAX_BODIES)

struct PlLines_ {
  const PlModel *m;
  int nl;
  PlModel *lm[PL_MAX_LINES];   /* each line's one-line model */
  PlProblem p[PL_MAX_LINES];
  int col[PL_MAX_POINTS];      /* first unknown of a free point in xi, or -1 (fixed) */
  int bcol[PL_MAX_BODIES];     /* first unknown of a body's free pose components */
  int bfree[PL_MAX_BODIES][6]; /* eta_i of the body is an unknown */
  int bown[PL_MAX_BODIES][6];  /* eta_i has restoring of its own (hydrostatics, spring) */
  int jointed[PL_MAX_BODIES];  /* the body is in a joint or has DP: held whole here */
  int n;                       /* unknowns of the masters */
};

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
  PlVesselModel hinge = s->m->bodies[E->body];
  BodyPose(s, E->body, xi, eta, y);
  memcpy(hinge.hang_off, E->at, sizeof E->at);
  PlVesselHangOff(&hinge, y, y + PL_VESSEL_Q, x, NULL);
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
  PlVesselLoadApply(&vm->environment, 0.0, env, tb, lg);
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
  Vec U[PL_MAX_LINES], F[PL_MAX_LINES];
  double fnorm[PL_MAX_LINES];
  double *u[PL_MAX_LINES];     /* gathered */
  double R[NX], sc[NX];
  int bad;
} State;

static PetscErrorCode StateCreate(PlLines s, State *st)
{
  PetscFunctionBeginUser;
  memset(st, 0, sizeof *st);
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
  PetscFunctionReturn(0);
}

/* The merit of a state: the largest of the scaled point imbalance ev and each line's residual
 * over its force scale. */
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
  double keep[2][14], Rp[NX], Rm[NX], sc[NX], dmax = 0.0, umax = 1.0;
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

/* One Newton step: dU[l] and dxi at the state st. */
static PetscErrorCode Step(PlLines s, const double *xi, State *st, Vec *dU, double *dxi, int *singular, double *Sdiag)
{
  const int n = s->n;
  double *S = calloc((size_t)n * n + 1, sizeof *S), rhs[NX], Cw[NX];
  PetscFunctionBeginUser;
  PetscCheck(S, PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory");
  *singular = 0;
  for (int i = 0; i < n; ++i) rhs[i] = -st->R[i];
  /* D: the masters' rows at fixed lines */
  for (int j = 0; j < n; ++j) {
    double xp[NX], xm[NX], Rp[NX], Rm[NX], sc[NX];
    const double h = Perturbed(s, xi, j, xp, xm);
    MasterRows(s, xp, st->u, Rp, sc);
    MasterRows(s, xm, st->u, Rm, sc);
    for (int i = 0; i < n; ++i) S[(size_t)i * n + j] = (Rp[i] - Rm[i]) / (2 * h);
  }
  Vec *W[PL_MAX_LINES];
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
    PetscCall(KSPSolve(ksp, b, dU[l]));
    PetscCall(PlVecGatherAll(dU[l], w));
    ApplyC(s, l, xi, st->u, w, Cw);
    for (int i = 0; i < n; ++i) rhs[i] -= Cw[i];
    /* W_l: a column per unknown that moves one of the line's held ends, B_j = -s dtarget/dxi_j */
    W[l] = calloc((size_t)n + 1, sizeof(Vec));
    PetscCheck(W[l], p->comm, PETSC_ERR_MEM, "out of memory");
    for (int j = 0; j < n; ++j) {
      if (!Moves(s, l, 0, j) && !Moves(s, l, 1, j)) continue;
      double xp[NX], xm[NX];
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
      PetscCall(VecDuplicate(b, &W[l][j]));
      PetscCall(KSPSolve(ksp, b, W[l][j]));
      PetscCall(PlVecGatherAll(W[l][j], w));
      ApplyC(s, l, xi, st->u, w, Cw);
      for (int i = 0; i < n; ++i) S[(size_t)i * n + j] -= Cw[i];
    }
    PetscCall(VecDestroy(&b));
    free(w);
  }
  if (Sdiag)
    for (int i = 0; i < n; ++i) Sdiag[i] = S[(size_t)i * n + i];
  if (n > 0 && PlDenseSolveInPlace(n, S, rhs)) *singular = 1;
  for (int i = 0; i < n; ++i) dxi[i] = *singular ? 0.0 : rhs[i];
  for (int l = 0; l < s->nl; ++l) {
    for (int j = 0; j < n; ++j) {
      if (!W[l][j]) continue;
      if (!*singular) PetscCall(VecAXPY(dU[l], -dxi[j], W[l][j]));
      PetscCall(VecDestroy(&W[l][j]));
    }
    free(W[l]);
  }
  free(S);
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
  s->nl = m->nlines;
  for (int b = 0; b < m->nbodies; ++b) { /* the pose components with restoring of their own */
    const PlVessel *B = &m->bodies[b].body;
    const int hydro[6] = {0, 0, B->Awp > 0.0, B->displacement > 0.0 && B->GM_T != 0.0,
                          B->displacement > 0.0 && B->GM_L != 0.0, 0};
    for (int i = 0; i < 6; ++i) {
      const int spring =
        i < 3 && (B->K_spring[3 * i] != 0.0 || B->K_spring[3 * i + 1] != 0.0 || B->K_spring[3 * i + 2] != 0.0);
      s->bown[b][i] = s->bfree[b][i] = hydro[i] || spring;
    }
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
    PetscCheck(s->lm[l], comm, PETSC_ERR_MEM, "out of memory");
    PlModelLineModel(m, l, s->lm[l]);
    PetscCall(PlProblemCreate(comm, s->lm[l], &s->p[l]));
  }
  *out = s;
  PetscFunctionReturn(0);
}

PetscErrorCode PlLinesDestroy(PlLines *ps)
{
  PetscFunctionBeginUser;
  PlLines s = *ps;
  if (!s) PetscFunctionReturn(0);
  for (int l = 0; l < s->nl; ++l) {
    PetscCall(PlProblemDestroy(&s->p[l]));
    free(s->lm[l]);
  }
  PetscCall(PetscFree(s));
  *ps = NULL;
  PetscFunctionReturn(0);
}

PlProblem PlLinesProblem(PlLines s, int l) { return s->p[l]; }
const PlModel *PlLinesModel(const PlLines s) { return s->m; }

PetscErrorCode PlLinesSolve(PlLines s, volatile sig_atomic_t *stop, int quiet, PlLinesReport *rep)
{
  const PlModel *m = s->m;
  double xi[NX], dxi[NX];
  State st, tr;
  Vec dU[PL_MAX_LINES];
  PetscFunctionBeginUser;
  memset(rep, 0, sizeof *rep);
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
               "line %s does not reach its ends at the points' given positions: %.700s", m->lines[l].name,
               lr.failure);
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
    double Sd[NX];
    int singular = 0;
    for (int b = 0; b < m->nbodies; ++b)
      for (int i = 0; i < 6; ++i) s->bfree[b][i] = !s->jointed[b];
    Layout(s);
    StartXi(s, xi);
    PetscCall(Evaluate(s, xi, &st));
    PetscCall(Step(s, xi, &st, dU, dxi, &singular, Sd));
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
  double atol[PL_MAX_LINES], dnorm[PL_MAX_LINES], unorm[PL_MAX_LINES];
  for (int l = 0; l < s->nl; ++l) {
    const PlProblem p = s->p[l];
    atol[l] = p->model.analysis.atol > 0.0 ? p->model.analysis.atol : 1e-9 * p->force_scale;
    dnorm[l] = INFINITY;
    unorm[l] = 1.0;
  }
  double ev = Measure(s, st.R, st.sc);
  int it = 0;
  for (;;) {
    int lines_ok = 1;
    for (int l = 0; l < s->nl; ++l) lines_ok &= st.fnorm[l] <= atol[l] || dnorm[l] <= 1e-13 * unorm[l];
    if ((ev <= 1e-9 && lines_ok) || it >= 50) break;
    if (stop && *stop) {
      snprintf(rep->failure, sizeof rep->failure, "interrupted by a signal at iteration %d", it);
      break;
    }
    ++it;
    int singular = 0;
    PetscCall(Step(s, xi, &st, dU, dxi, &singular, NULL));
    if (singular) {
      snprintf(rep->failure, sizeof rep->failure,
               "the points' equilibrium equations are singular at iteration %d (a free point that no line holds in "
               "some direction)", it);
      break;
    }
    /* the coupled step, taken when it lowers the merit (the largest scaled point row or line
     * residual) */
    const double merit = Merit(s, &st, ev);
    double xt[NX];
    for (int i = 0; i < n; ++i) xt[i] = xi[i] + dxi[i];
    for (int l = 0; l < s->nl; ++l) PetscCall(VecWAXPY(tr.U[l], 1.0, dU[l], st.U[l]));
    PetscCall(Evaluate(s, xt, &tr));
    const double evt = Measure(s, tr.R, tr.sc);
    if (!tr.bad && Merit(s, &tr, evt) < merit) {
      memcpy(xi, xt, sizeof(double) * n);
      for (int l = 0; l < s->nl; ++l) {
        PetscCall(VecNorm(dU[l], NORM_2, &dnorm[l]));
        PetscCall(VecCopy(tr.U[l], st.U[l]));
        PetscCall(VecNorm(st.U[l], NORM_2, &unorm[l]));
      }
      PetscCall(Evaluate(s, xi, &st));
      ev = Measure(s, st.R, st.sc);
      continue;
    }
    /* else the reduced step: the points moved by dxi (halved until it helps), each line re-solved
     * there by its own robust path (load stepping, cut-backs) */
    int moved = 0;
    double beta = 1.0;
    for (int tries = 0; tries < 8 && !moved; ++tries, beta *= 0.5) {
      for (int i = 0; i < n; ++i) xt[i] = xi[i] + beta * dxi[i];
      int ok = 1;
      for (int l = 0; l < s->nl && ok; ++l) {
        PetscCall(VecCopy(st.U[l], s->p[l]->u));
        for (int e = 0; e < 2 && ok; ++e) {
          if (!Attached(s, l, e)) continue;
          PlStaticReport lr;
          double x[3];
          EndTarget(s, l, e, xt, x);
          PetscCall(PlStaticMoveEnd(s->p[l], e, x, NULL, &lr));
          s->p[l]->lambda = 1.0;
          s->p[l]->hold_factor = -1.0;
          ok = lr.converged ? 1 : 0;
        }
        PetscCall(VecCopy(s->p[l]->u, tr.U[l]));
      }
      rep->line_solves++;
      if (!ok) continue;
      PetscCall(Evaluate(s, xt, &tr));
      const double evr = Measure(s, tr.R, tr.sc);
      if (!tr.bad && (evr < ev || beta < 0.01)) moved = 1;
    }
    if (!moved) {
      snprintf(rep->failure, sizeof rep->failure,
               "no step moved the points toward equilibrium at iteration %d (largest scaled point imbalance %.3g): "
               "the lines cannot reach where the points' balance asks (check the lengths, the points' positions and "
               "weights)", it, ev);
      for (int l = 0; l < s->nl; ++l) PetscCall(VecCopy(st.U[l], s->p[l]->u));
      break;
    }
    memcpy(xi, xt, sizeof(double) * n);
    for (int l = 0; l < s->nl; ++l) {
      PetscCall(VecCopy(tr.U[l], st.U[l]));
      dnorm[l] = INFINITY;
    }
    PetscCall(Evaluate(s, xi, &st));
    ev = Measure(s, st.R, st.sc);
  }
  /* the state reached */
  PetscCall(Evaluate(s, xi, &st));
  ev = Measure(s, st.R, st.sc);
  int lines_ok = 1;
  for (int l = 0; l < s->nl; ++l) {
    lines_ok &= st.fnorm[l] <= atol[l] || dnorm[l] <= 1e-13 * unorm[l];
    PetscCall(VecCopy(st.U[l], s->p[l]->u));
    s->p[l]->lambda = 1.0;
  }
  rep->iterations = it;
  rep->residual_rel = ev;
  rep->converged = ev <= 1e-9 && lines_ok && !st.bad && !rep->failure[0] ? PETSC_TRUE : PETSC_FALSE;
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
      memcpy(rep->end_force[l][e], f, sizeof f); /* the line's pull on its end's support is -f */
      for (int c = 0; c < 3; ++c) rep->end_force[l][e][c] = -f[c];
      rep->end_tension[l][e] = Norm3(f);
      const int k = m->lines[l].ends[e].point;
      if (k >= 0)
        for (int c = 0; c < 3; ++c) rep->point_force[k][c] -= f[c];
    }
  for (int b = 0; b < m->nbodies; ++b) {
    double y[PL_VESSEL_NY], r[6], sc[6];
    BodyPose(s, b, xi, rep->body_eta[b], y);
    BodyRows(s, b, xi, st.u, r, sc, rep->body_lines_load[b]);
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
  return root;
}

int PlLinesWriteSummary(const PlLines s, const PlLinesReport *rep, const char *dir, PlError *err)
{
  cJSON *root = PlLinesSummaryBuild(s, rep);
  const int rc = PlSummaryWrite(dir, root, err);
  cJSON_Delete(root);
  return rc;
}
