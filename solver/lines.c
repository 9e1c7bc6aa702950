/*
 * lines.c - the static equilibrium of several lines joined at points (issue 14; a model of
 * lines: and points:, docs/model-file.md).
 *
 * Unknowns: every line's unknowns u_l (its own static problem, assembly.c: an end attached
 * to a point is held in x, y, z at the point, rotations free), and the positions xi_k of the
 * free points. Equations: each line's static rows F_l(u_l; xi) = 0 (the held rows
 * s (x_end - xi_k)), and each free point's force balance (the line-end attachment of
 * docs/design-system-core.md §2.1: the end node's unconstrained residual f, PlProblemEnd-
 * ReactionLocal, goes to the point's rows, Newton's third law)
 *     R_k = sum over the line ends on k of f_end + (0, 0, (mass - rho_w volume) g) = 0.
 *
 * Method: Newton on (u_1, ..., u_n, xi) together, from each line's own equilibrium with its
 * ends at the points' given positions (PlStaticSolve: its load stepping and pseudo-transient
 * continuation). The bordered system
 *     K_l du_l + B_l dxi = -F_l  (each line),     R + sum_l C_l du_l = 0
 * is solved by block elimination with each line's direct solver: w_l = -K_l^-1 F_l,
 * W_l = K_l^-1 B_l (3 columns per free point the line touches), then
 *     (-sum_l C_l W_l) dxi = -R - sum_l C_l w_l,   du_l = w_l - W_l dxi.
 * K_l is the line's exact tangent; B_l = -s on the held rows (exact); C_l, the end reactions'
 * derivative, is applied to the columns of W by central differences of the end element's
 * reaction (a small closed-form map; step 1e-6 of the direction's size). The coupled step is
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

#define NX (3 * PL_MAX_POINTS)

struct PlLines_ {
  const PlModel *m;
  int nl;
  PlModel *lm[PL_MAX_LINES];   /* each line's one-line model */
  PlProblem p[PL_MAX_LINES];
  int col[PL_MAX_POINTS];      /* first unknown of a free point in xi, or -1 (fixed) */
  int n;                       /* 3 x free points */
};

static double Norm3(const double *a) { return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }

/* The node and element of end e of line l. */
static int EndNode(const PlLines s, int l, int e) { return e ? s->p[l]->mesh.nnodes - 1 : 0; }
static int EndElement(const PlLines s, int l, int e) { return e ? s->p[l]->mesh.nelements - 1 : 0; }

/* Holds the ends of line l at the points' positions xi (free points) or their own (fixed). */
static void HoldEnds(PlLines s, int l, const double *xi)
{
  PlProblem p = s->p[l];
  const int nd = p->nd;
  for (int e = 0; e < 2; ++e) {
    const int k = s->m->lines[l].ends[e].point;
    if (k < 0) continue;
    const double *x = s->col[k] >= 0 ? xi + s->col[k] : s->m->points[k].position;
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

/* Every free point's force balance R[n] with the scales sc[n] (for each of its rows the sum
 * of the magnitudes of the forces on the point), from the lines' gathered unknowns u[l]. */
static void PointRows(const PlLines s, double *const *u, double *R, double *sc)
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
}

/* The largest point row over its scale (floored at 1e-12 of the largest scale). */
static double Measure(const PlLines s, const double *R, const double *sc)
{
  double smax = 0.0, e = 0.0;
  for (int i = 0; i < s->n; ++i) smax = fmax(smax, sc[i]);
  for (int i = 0; i < s->n; ++i) e = fmax(e, fabs(R[i]) / fmax(sc[i], 1e-12 * smax + 1e-300));
  return e;
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
  PointRows(s, st->u, st->R, st->sc);
  PetscFunctionReturn(0);
}

/* The directional derivative of the points' rows along the end elements' parts of the
 * gathered direction w of line l (the other lines held): central differences. */
static void ApplyC(const PlLines s, int l, double *const *u, const double *w, double *out)
{
  PlProblem p = s->p[l];
  const int nd = p->nd;
  for (int i = 0; i < s->n; ++i) out[i] = 0.0;
  for (int e = 0; e < 2; ++e) {
    const int k = s->m->lines[l].ends[e].point;
    if (k < 0 || s->col[k] < 0) continue;
    const size_t off = (size_t)EndElement(s, l, e) * nd;
    double up[14], um[14], dmax = 0.0, umax = 1.0, fp[3], fm[3], mo[3];
    for (int j = 0; j < 2 * nd; ++j) {
      dmax = fmax(dmax, fabs(w[off + j]));
      umax = fmax(umax, fabs(u[l][off + j]));
    }
    if (dmax == 0.0) continue;
    const double eps = 1e-6 * umax / dmax;
    for (int j = 0; j < 2 * nd; ++j) {
      up[j] = u[l][off + j] + eps * w[off + j];
      um[j] = u[l][off + j] - eps * w[off + j];
    }
    PlProblemEndReactionLocal(p, e, up, fp, mo);
    PlProblemEndReactionLocal(p, e, um, fm, mo);
    for (int c = 0; c < 3; ++c) out[s->col[k] + c] += (fp[c] - fm[c]) / (2 * eps);
  }
}

/* One Newton step: dU[l] and dxi at the state st. */
static PetscErrorCode Step(PlLines s, State *st, Vec *dU, double *dxi, int *singular)
{
  const int n = s->n;
  double *S = calloc((size_t)n * n + 1, sizeof *S), rhs[NX], Cw[NX];
  PetscFunctionBeginUser;
  PetscCheck(S, PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory");
  *singular = 0;
  for (int i = 0; i < n; ++i) rhs[i] = -st->R[i];
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
    ApplyC(s, l, st->u, w, Cw);
    for (int i = 0; i < n; ++i) rhs[i] -= Cw[i];
    /* W_l: a column per free-point coordinate the line is held at */
    W[l] = calloc((size_t)n, sizeof(Vec));
    PetscCheck(n == 0 || W[l], p->comm, PETSC_ERR_MEM, "out of memory");
    for (int e = 0; e < 2; ++e) {
      const int k = s->m->lines[l].ends[e].point;
      if (k < 0 || s->col[k] < 0) continue;
      const int node = EndNode(s, l, e);
      for (int c = 0; c < 3; ++c) {
        const int j = s->col[k] + c;
        const PetscInt row = (PetscInt)node * nd + c;
        PetscCall(VecZeroEntries(b));
        if (row >= lo && row < hi) PetscCall(VecSetValue(b, row, -p->bc_scale[row], INSERT_VALUES));
        PetscCall(VecAssemblyBegin(b));
        PetscCall(VecAssemblyEnd(b));
        if (!W[l][j]) PetscCall(VecDuplicate(b, &W[l][j]));
        Vec t;
        PetscCall(VecDuplicate(b, &t));
        PetscCall(KSPSolve(ksp, b, t));
        PetscCall(VecAXPY(W[l][j], 1.0, t)); /* (both ends on one point add up) */
        PetscCall(VecDestroy(&t));
      }
    }
    for (int j = 0; j < n; ++j) {
      if (!W[l][j]) continue;
      PetscCall(PlVecGatherAll(W[l][j], w));
      ApplyC(s, l, st->u, w, Cw);
      for (int i = 0; i < n; ++i) S[(size_t)i * n + j] -= Cw[i];
    }
    PetscCall(VecDestroy(&b));
    free(w);
  }
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

PetscErrorCode PlLinesCreate(MPI_Comm comm, const PlModel *m, PlLines *out)
{
  PlLines s;
  PetscFunctionBeginUser;
  PetscCall(PetscCalloc1(1, &s));
  s->m = m;
  s->nl = m->nlines;
  for (int k = 0; k < m->npoints; ++k) {
    s->col[k] = m->points[k].fixed ? -1 : s->n;
    if (!m->points[k].fixed) s->n += 3;
  }
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

PetscErrorCode PlLinesSolve(PlLines s, volatile sig_atomic_t *stop, int quiet, PlLinesReport *rep)
{
  const PlModel *m = s->m;
  const int n = s->n;
  double xi[NX], dxi[NX];
  State st, tr;
  Vec dU[PL_MAX_LINES];
  PetscFunctionBeginUser;
  memset(rep, 0, sizeof *rep);
  for (int k = 0; k < m->npoints; ++k)
    if (s->col[k] >= 0) memcpy(xi + s->col[k], m->points[k].position, sizeof(double) * 3);
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
    PetscCall(Step(s, &st, dU, dxi, &singular));
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
          const int k = m->lines[l].ends[e].point;
          if (k < 0 || s->col[k] < 0) continue;
          PlStaticReport lr;
          PetscCall(PlStaticMoveEnd(s->p[l], e, xt + s->col[k], NULL, &lr));
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
  for (int l = 0; l < s->nl; ++l) PetscCall(VecDestroy(&dU[l]));
  PetscCall(StateDestroy(s, &st));
  PetscCall(StateDestroy(s, &tr));
  PetscFunctionReturn(0);
}

int PlLinesWriteSummary(const PlLines s, const PlLinesReport *rep, const char *dir, PlError *err)
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
      cJSON_AddStringToObject(eo, "attached_to", k >= 0 ? m->points[k].name : "given end");
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
  const int rc = PlSummaryWrite(dir, root, err);
  cJSON_Delete(root);
  return rc;
}
