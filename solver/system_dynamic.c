/*
 * system_dynamic.c - the dynamics of several lines joined at points and hung from bodies
 * (docs/design-system-core.md §2 and §5.1): one residual F(t, y, y') = 0 over every
 * line, free point and body, with its exact iteration matrix in compressed sparse columns,
 * integrated by SUNDIALS IDA with its own Newton and the KLU sparse direct solver.
 *
 * Unknowns, in this order:
 *   line l     per node its ndd unknowns as a one-line run (dynamic.c): u = x - x_static (3),
 *              rotation parameters, v (3), w (3);
 *   point k    (free points only) u = x - x_static (3), v (3), global;
 *   bodies     the block of solver/multibody.c: per body r, q, v, w (13; PlVessel), then the
 *              joints' multipliers lambda, mu (GGL, index 2; algebraic: IDASetId 0 and out
 *              of the error test, absolute tolerance analysis.dynamic.atol_reaction).
 *
 * Rows:
 *   line nodes   the rod elements (PlDynElement: internal forces, submerged weight, seabed,
 *                Morison) and the nodes (PlNodeDynamics), ends given or moved as in a one-line
 *                run (PlDynEndResidual); each line model keeps its own sections and ends.
 *   attachment   an end of line l on a free point k or on a body b at the body point a (a
 *                hinge: the rotation stays free and no moment passes; or fixed, below). The end node's
 *                translation rows become the constraint and its linear-momentum residual
 *                r_e (the rows before replacement: M a + f_int - f_ext) goes to the master,
 *                Newton's third law (§2.1):
 *                  point:  x_e - x_k = 0, v_e - v_k = 0;   point momentum rows += r_e
 *                  body:   x_e - (r + R a) = 0, v_e - R (v + w x a) = 0 (PlVesselJointKinematics);
 *                          body Newton-Euler rows += [R^T r_e ; a x R^T r_e] (PlVesselJointLoad)
 *                A fixed end (ends.*.connection: fixed, the vessel's fixed hang-off, eq 4.5):
 *                its frame is clamped to the body at R_t^b = T (ends.*.orientation in the body
 *                axes), R(q0) R(p_e) = R_b T with q0 the end node's reference frame. In
 *                quaternions the end's parameters are tied to X = q0* (x) q_b (x) q_T = Aq q_b
 *                (Aq constant, 4 x 4: FixedTieMap; its sign keeps the start's hemisphere).
 *                Differentiating, the end frame's angular velocity in its own axes is
 *                w_e = T^T w_b (w_b in the body axes; T constant). So the node's rotation rows
 *                become constraints (PlParamTie):
 *                  P rows  g(p_e, Aq q_b) = 0 (quaternions p_e - X, 4 rows, which also hold
 *                          |p_e| = 1; Euler zxy the vector part of conj(Q(p_e)) (x) X, 3 rows),
 *                  W rows  w_e - T^T w_b = 0,
 *                and the node's angular-momentum residual m_e (node frame: the rows before
 *                replacement, J w' + w x J w - moments) is the moment the body supplies; by
 *                Newton's third law it goes to the body's moment rows in the body axes, T m_e:
 *                          body rows += [R^T r_e ; a x R^T r_e + T m_e]   (PlVesselJointLoad).
 *                Exact matrix: dg/dp_e, (dg/dX) Aq on q_b, I and -T^T on w_e, w_b, and the
 *                transfer of the node's W rows through d tau/d m_e = [0; T] (AddJ).
 *                On a body with RAO motion the end frame also turns with the first-order
 *                rotation xi_r: T becomes Tt = R(xi_r) T and the W rows gain the rotation's
 *                own rate, w_e - Tt^T w_b - T^T J_r(xi_r) xi_r' = 0 (AttachFrame); Aq, Tt
 *                and that rate are functions of time alone, so the matrix keeps its pattern.
 *   point k      x' - v = 0;   (m + Ca rho_w V) v' + (m - rho_w V) g e_z
 *                  - 1/2 rho_w CdA |u_c(z) - v| (u_c(z) - v) + sum of the attached r_e = 0
 *                (a clump weight or buoy: isotropic Morison drag in the current at its depth,
 *                added mass on its own acceleration; the current's acceleration during its
 *                ramp is not applied to the point);
 *   body b       PlVesselDynamics (restoring, spring, weight, damping, added mass, environment
 *                load) through PlMultibodyEvaluate, plus the lines' load above, a slender
 *                hull's Morison drag in the current (PlVesselHullLoad, bodies[].hull) and in
 *                waves its first-order wave excitation (bodies[].excitation: a body-frame load,
 *                a function of time alone; pipelay/rao.h).
 * A body with displacement RAOs (bodies[].raos) moves its body points by its first-order motion
 * d(t) (body frame, pipelay/rao.h): an attachment's point is a + d(t), its velocity row
 * v_e - R (v + w x (a + d) + d') (PlVesselJointKinematicsMoving), the line's load acts there;
 * its hull strips likewise sit at c + d and move at R (v + w x (c + d) + d') (StripMotion).
 * A line end on a fixed point is a held end (x = the point's position, v = 0).
 *
 * The iteration matrix dF/dy + c dF/dy' is exact: the kernels' own blocks (dual numbers),
 * the constraint rows' unit and dg/dy_body entries, and the transfer through d tau/d r_e and
 * d tau/d y_body (PlVesselJointLoad). Its sparsity pattern is recorded once by an assembly
 * that visits every entry any state can fill (tests/test_system_dynamic.c checks the matrix
 * against central differences).
 *
 * Start: the static equilibrium of solver/lines.c at rest (y' from the kinematics, zero
 * accelerations), with the free points' and bodies' given initial velocities (the attached
 * end nodes move with their master, a fixed end's frame turning with it: w_e = T^T w_b).
 * lines.c holds a fixed end as a hinge; the whole-system Newton of system_static.c, on this
 * residual, holds its frame (app/pipelay.c reports no equilibrium unless it converges).
 *
 * K ranks: every rank holds the whole state and runs the same IDA with the same KLU solves;
 * the assembly, the cost that grows with the elements, is split. METIS cuts the graph of
 * components (rod elements, free points, the bodies' block; SetUpParts) into K parts; a rank
 * evaluates its elements, the nodes whose right-hand element it has (a line's last node with
 * its last element), its free points, the attachments whose end element it has, and the
 * bodies' block if it is its. Every row that is set rather than summed (a hold, a constraint,
 * a point's kinematics) is set by the one rank that has all of that node's contributions (an
 * end node belongs to one element only), so the partial residuals and matrices add up to the
 * serial ones: summed on rank 0 and broadcast (the same bits on every rank, so that their
 * integrations stay identical). Chosen over a distributed state (PETSc DMNetwork, MUMPS) for
 * the sizes of a system of lines (10^3-10^4 unknowns): one reduction of the residual per
 * Newton iteration and of the matrix values per matrix, and the serial KLU, measured in
 * bench/README.md; the state, the factorisation and the vector operations are not split.
 */
#include <ida/ida.h>
#include <ida/ida_impl.h>
#include <ida/ida_ls_impl.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunnonlinsol/sunnonlinsol_newton.h>
#include <sunmatrix/sunmatrix_sparse.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "condensed_klu.h"
#include "sundials_fast.h"
#include "system_impl.h"
#include "pipelay/rao.h"

/* ---- assembly helpers ------------------------------------------------------------------ */
static int CompareInt2(const void *a, const void *b)
{
  const int *x = a, *y = b; /* by column, then row */
  if (x[1] != y[1]) return x[1] < y[1] ? -1 : 1;
  return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* Appends the pair (a, b) to the array *p of *n pairs (capacity *cap, doubled as needed).
 * Returns 0, or 1 out of memory (nothing appended). */
static int PushPair(int **p, long *n, long *cap, int a, int b)
{
  if (*n == *cap) {
    const long c = *cap ? 2 * *cap : 4096;
    int *q = realloc(*p, sizeof(int) * 2 * (size_t)c);
    if (!q) return 1;
    *p = q;
    *cap = c;
  }
  (*p)[2 * *n] = a;
  (*p)[2 * *n + 1] = b;
  ++*n;
  return 0;
}

/* The position of the entry (row, col) in the pattern's values (a binary search in its column),
 * -1 when it is not in the pattern. */
static int Position(const PlSysDyn s, int row, int col)
{
  sunindextype lo = s->colptr[col], hi = s->colptr[col + 1] - 1;
  while (lo <= hi) {
    const sunindextype mid = (lo + hi) / 2;
    if (s->rowind[mid] == row) return (int)mid;
    if (s->rowind[mid] < row) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

int PlSysDynPosition(const PlSysDyn s, int row, int col) { return Position(s, row, col); }

void PlSysDynRecordEntry(PlSysDyn s, int row, int col)
{
  if (s->recording && PushPair(&s->rec, &s->nrec, &s->caprec, row, col)) s->domain_error = 2;
}

static void PutSearch(PlSysDyn s, int row, int col, double v);

/* Adds v to the matrix entry (row, col): the replayed position when the assembly follows the
 * recorded order (PutSequence), else PutSearch. */
static inline void Put(PlSysDyn s, int row, int col, double v)
{
  if (s->seq_state == 2 && s->val && !s->recording) {
    const long k = s->iseq++;
    if (k < s->nseq && s->seq[2 * k] == row) {
      s->val[s->seq[2 * k + 1]] += v;
      return;
    }
    s->seq_state = 0; /* another order: searched from here on, recorded again next time */
  }
  PutSearch(s, row, col, v);
}

/* The pattern's recording, or the entry's position found by a binary search in its column */
static void PutSearch(PlSysDyn s, int row, int col, double v)
{
  if (s->recording) {
    if (PushPair(&s->rec, &s->nrec, &s->caprec, row, col)) s->domain_error = 2;
    return;
  }
  if (!s->val) return;
  const int mid = Position(s, row, col);
  if (mid >= 0) {
    s->val[mid] += v;
    if (s->seq_state == 1 && PushPair(&s->seq, &s->nseq, &s->capseq, row, mid)) s->seq_state = 0;
    return;
  }
  s->domain_error = 3; /* not in the pattern: a bug, reported by the set-up's check */
  if (s->seq_state == 1) s->seq_state = 0;
}

/* The positions of the matrix entries that go through Put (the lines' ends, points, bodies,
 * attachments; the lines' interior entries go by their positions found once, ListPositions),
 * found by a binary search in their column at the first assembly, are replayed at the next
 * ones (without the replay the OC3 turbine's run, with its dense block of bodies, is 2.3 %
 * slower): the assembly visits the entries in the same order
 * every time (the order follows the pattern, not the state), so the k-th Put goes to the
 * position recorded for it, checked against its row. An assembly in another order (another
 * rank's part, a dense copy) falls back to the search where the rows stop matching and is
 * recorded anew the next time. Called before (begin 1) and after (begin 0) an assembly. */
static void PutSequence(PlSysDyn s, int begin)
{
  if (s->recording || !s->val) return;
  if (begin) {
    if (s->seq_state == 2) s->iseq = 0;
    else {
      s->seq_state = 1;
      s->nseq = 0;
    }
  } else if (s->seq_state == 1) s->seq_state = 2;
  else if (s->seq_state == 2 && s->iseq != s->nseq) s->seq_state = 0;
}

/* Row contributions through the attachment redirect (F may be NULL). */
static void AddF(PlSysDyn s, double *F, int row, double v)
{
  const int r = s->redir[row];
  if (r == -1) F[row] += v;
  else if (r >= 0) {
    Attach *A = &s->at[r / 6];
    const int c = r % 6;
    if (c >= 3) A->mom[c - 3] += v;
    else {
      A->f[c] += v;
      if (A->point >= 0) F[s->poff[A->point] + 3 + c] += v;
    }
  }
}
static void AddJ(PlSysDyn s, int row, int col, double v)
{
  const int r = s->redir[row];
  if (r == -1) Put(s, row, col, v);
  else if (r >= 0) {
    const Attach *A = &s->at[r / 6];
    const int c = r % 6;
    if (A->point >= 0) Put(s, s->poff[A->point] + 3 + c, col, v);
    else
      for (int i = 0; i < 6; ++i)
        Put(s, s->moff + PL_VESSEL_NY * A->body + PL_VESSEL_V + i, col,
            (c < 3 ? A->dtau_df[3 * i + c] : A->dtau_dm[3 * i + c - 3]) * v);
  }
}

/* Sums buf[count] over the ranks: reduced on rank 0 and broadcast, so that every rank holds
 * the same bits (an all-reduce may round differently on different ranks, and the ranks'
 * integrations must stay identical). */
static void SumOverRanks(const PlSysDyn s, double *buf, int count)
{
  if (s->rank == 0) MPI_Reduce(MPI_IN_PLACE, buf, count, MPI_DOUBLE, MPI_SUM, 0, s->comm);
  else MPI_Reduce(buf, NULL, count, MPI_DOUBLE, MPI_SUM, 0, s->comm);
  MPI_Bcast(buf, count, MPI_DOUBLE, 0, s->comm);
}

/* The ranks' partial residuals (and matrices) summed; the error flags and the outputs of the
 * evaluation (end forces, the lines' loads on the bodies) with them. */
static void Combine(PlSysDyn s, double *Fw, int wantJ)
{
  const int n = s->n, nef = 6 * s->nl, nbl = 6 * s->m->nbodies, e = n + nef + 2 * nbl + PL_WORK_N;
  double *r = s->red;
  memcpy(r, Fw, sizeof(double) * (size_t)n);
  memcpy(r + n, s->end_force, sizeof(double) * (size_t)nef);
  memcpy(r + n + nef, s->lines_load, sizeof(double) * (size_t)nbl);
  memcpy(r + n + nef + nbl, s->tau_dp, sizeof(double) * (size_t)nbl);
  memcpy(r + n + nef + 2 * nbl, s->pw, sizeof s->pw);
  for (int k = 1; k <= 3; ++k) r[e + k - 1] = s->domain_error == k;
  SumOverRanks(s, r, e + 3);
  memcpy(Fw, r, sizeof(double) * (size_t)n);
  memcpy(s->end_force, r + n, sizeof(double) * (size_t)nef);
  memcpy(s->lines_load, r + n + nef, sizeof(double) * (size_t)nbl);
  memcpy(s->tau_dp, r + n + nef + nbl, sizeof(double) * (size_t)nbl);
  memcpy(s->pw, r + n + nef + 2 * nbl, sizeof s->pw);
  s->domain_error = 0;
  for (int k = 1; k <= 3; ++k)
    if (r[e + k - 1] > 0.0) s->domain_error = k;
  if (wantJ && s->val) SumOverRanks(s, s->val, (int)s->nnz);
}

/* The rotation rows of a fixed attachment's end node (yn its unknowns, yb the body's): the
 * parameters tied to X = Aq q_b (PlParamTie, on the rows of the parameters; for quaternions
 * p = X, which also holds |p| = 1) and w_e - Tt^T w_b - w_xi = 0 (the body's angular velocity in
 * the end frame, and the RAO rotation's: AttachFrame) on the angular-momentum rows, whose residual
 * m_e went to the body (AddF). f: the node's rows. Aq, Tt and w_xi are functions of time alone
 * (AttachFrame), so the matrix rows keep their pattern: dg/dp_e, dg/dX Aq and I, -Tt^T. */
static void FixedRows(PlSysDyn s, const Attach *A, const double Aq[16], const double Tt[9], const double wxi[3],
                      const double *yn, const double *yb, double *f, int putJ)
{
  const int row = A->row, bo = s->moff + PL_VESSEL_NY * A->body;
  const PlParamKind kind = s->d[A->l]->kind;
  double X[4], gt[4], dgp[16], dgX[16];
  for (int i = 0; i < 4; ++i) {
    X[i] = 0.0;
    for (int j = 0; j < 4; ++j) X[i] += Aq[4 * i + j] * yb[PL_VESSEL_Q + j];
  }
  const int n = PlParamTie(kind, yn + 3, X, gt, dgp, dgX);
  for (int k = 0; k < n; ++k) f[3 + k] = gt[k];
  for (int c = 0; c < 3; ++c) {
    double w = yn[s->iW + c] - wxi[c];
    for (int j = 0; j < 3; ++j) w -= Tt[3 * j + c] * yb[PL_VESSEL_W + j];
    f[s->iW + c] = w;
  }
  if (!putJ) return;
  for (int k = 0; k < n; ++k) {
    for (int j = 0; j < s->np; ++j) Put(s, row + 3 + k, row + 3 + j, dgp[k * s->np + j]);
    for (int j = 0; j < 4; ++j) { /* dg/dq_b = dg/dX Aq */
      double v = 0.0;
      for (int i = 0; i < 4; ++i) v += dgX[4 * k + i] * Aq[4 * i + j];
      Put(s, row + 3 + k, bo + PL_VESSEL_Q + j, v);
    }
  }
  for (int c = 0; c < 3; ++c) {
    Put(s, row + s->iW + c, row + s->iW + c, 1.0);
    for (int j = 0; j < 3; ++j) Put(s, row + s->iW + c, bo + PL_VESSEL_W + j, -Tt[3 * j + c]);
  }
}

/* The sea the loads see: the system's waves in the dynamics, none in the statics (calm water and
 * the current: the waves are a dynamic load). NULL: calm (no kinematics evaluated). */
static PlWaves *SysWaves(const PlSysDyn s) { return s->statics ? NULL : s->waves; }

/* The power the RAO motion puts into a line through its end on a body: the end's support force
 * f (its momentum residual, global) times the part of its velocity the body's own motion does not
 * give, R d' (the body's low-frequency motion and the line's load on it are one system, whose
 * energy it keeps); as a moved end's support (PL_WORK_ENDS). A fixed end's support moment m_e
 * (node frame) adds m_e . w_xi, the RAO rotation's part of its angular velocity (AttachFrame; the
 * caller adds it: w_xi is 0 for a hinge). */
static double RaoPower(const double *yb, const double f[3], const double dd[3])
{
  const double *q = yb + PL_VESSEL_Q;
  const double nq = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  const double qn[4] = {q[0] / nq, q[1] / nq, q[2] / nq, q[3] / nq};
  double R[9], P = 0.0;
  PlQuatToMatrix(qn, R);
  for (int i = 0; i < 3; ++i) P += f[i] * (R[3 * i] * dd[0] + R[3 * i + 1] * dd[1] + R[3 * i + 2] * dd[2]);
  return P;
}

/* Body b's wave excitation at t added to its body-frame load tau (a function of time alone: no
 * matrix entry): the table's force F and moment M about its origin o give [F; M + o x F] about O_b. */
static void Excitation(const PlSysDyn s, int b, double t, double tau[6])
{
  const double *o = s->m->bodies[b].excitation.origin;
  double f[6];
  PlRaoMotionEval(s->exc[b], t, f, NULL, NULL);
  tau[0] += f[0], tau[1] += f[1], tau[2] += f[2];
  tau[3] += f[3] + o[1] * f[2] - o[2] * f[1];
  tau[4] += f[4] + o[2] * f[0] - o[0] * f[2];
  tau[5] += f[5] + o[0] * f[1] - o[1] * f[0];
}

/* The body point of attachment A at the last evaluation's time: a = a_0 + d, a' = d', d the body's
 * RAO motion at a_0 (PlRaoPointMotion; body frame). Returns 0 (a = a_0, no rate) for a body
 * without RAO motion and in the statics. */
static int AttachPoint(const PlSysDyn s, const Attach *A, double a[3], double adot[3])
{
  memcpy(a, A->a, sizeof A->a);
  if (s->statics || !s->rao || !s->rao[A->body]) return 0;
  double d[3];
  PlRaoPointMotion(s->rao[A->body], s->xi[A->body], A->a, d);
  PlRaoPointMotion(s->rao[A->body], s->xi[A->body] + 6, A->a, adot);
  for (int c = 0; c < 3; ++c) a[c] += d[c];
  return 1;
}

/* A fixed attachment's end frame in the body axes at the last evaluation's time, and what the
 * body's RAO rotation adds to the end's angular velocity. The RAO rotation xi_r (body axes, the
 * first-order roll, pitch and yaw) turns the end frame as the rotation vector xi_r:
 * R_e = R_b R(xi_r) T, R(xi_r) = exp([xi_r]x) (to first order the small-angle rotation the body
 * points follow, d = xi_t + xi_r x (a - O)). So Tt = R(xi_r) T, and R_e^T R_e' = [Tt^T w_b + w_xi]x
 * with w_xi = T^T J_r(xi_r) xi_r', J_r(v) = I - (1 - cos th)/th^2 [v]x + (th - sin th)/th^3 [v]x^2
 * (th = |v|; the right Jacobian of exp: R(v)^T d/dt R(v) = [J_r v']x). The tie's map Aq (X = Aq q_b)
 * is PlDynFixedTieMap's for Tt, its sign keeping the hemisphere of the end's parameters p. Returns
 * 0 for a body without RAO motion and in the statics: Tt = T, Aq = A->Aq, w_xi = 0. */
static int AttachFrame(const PlSysDyn s, const Attach *A, const double *p, const double *qb, double Tt[9],
                       double Aq[16], double wxi[3])
{
  memcpy(Tt, A->T, sizeof A->T);
  memcpy(Aq, A->Aq, sizeof A->Aq);
  wxi[0] = wxi[1] = wxi[2] = 0.0;
  if (s->statics || !s->rao || !s->rao[A->body]) return 0;
  const double *xr = s->xi[A->body] + 3, *xrd = s->xi[A->body] + 9;
  const double th2 = xr[0] * xr[0] + xr[1] * xr[1] + xr[2] * xr[2], th = sqrt(th2);
  double q[4] = {1, 0, 0, 0}, R[9];
  if (th > 0.0) PlQuatFromAxisAngle(xr, th, q);
  PlQuatToMatrix(q, R);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) Tt[3 * i + j] = R[3 * i] * A->T[j] + R[3 * i + 1] * A->T[3 + j] + R[3 * i + 2] * A->T[6 + j];
  /* (1 - cos th)/th^2 and (th - sin th)/th^3, by their series where the quotients cancel */
  const double c1 = th < 1e-3 ? 0.5 - th2 / 24.0 : (1.0 - cos(th)) / th2,
               c2 = th < 1e-3 ? 1.0 / 6.0 - th2 / 120.0 : (th - sin(th)) / (th2 * th);
  const double vxd[3] = {xr[1] * xrd[2] - xr[2] * xrd[1], xr[2] * xrd[0] - xr[0] * xrd[2], xr[0] * xrd[1] - xr[1] * xrd[0]};
  const double vxvxd[3] = {xr[1] * vxd[2] - xr[2] * vxd[1], xr[2] * vxd[0] - xr[0] * vxd[2], xr[0] * vxd[1] - xr[1] * vxd[0]};
  double jr[3];
  for (int c = 0; c < 3; ++c) jr[c] = xrd[c] - c1 * vxd[c] + c2 * vxvxd[c];
  for (int c = 0; c < 3; ++c) wxi[c] = A->T[c] * jr[0] + A->T[3 + c] * jr[1] + A->T[6 + c] * jr[2];
  const PlDynLine d = s->d[A->l];
  PlDynFixedTieMap(d->sp->mesh.q0 + 4 * d->ends[A->k].node, Tt, d->kind, p, qb, Aq);
  return 1;
}

/* The water at a point (PlFluidFn for the hulls' drag; the free points' drag): the sea's service (current and waves)
 * when there are waves, else the model's current at the point's height, wet below z = 0. A hull's
 * strips also take their body's RAO motion from here (StripMotion). */
typedef struct {
  const PlModel *m;
  PlWaves *waves;
  double t;
  int grad;                /* the gradient wanted (else PlWavesFluidValues) */
  const PlRaoMotion *rao;  /* the body's RAO motion (NULL: none) */
  const double *xi;        /* its origin's motion and rate at t (12) */
} FluidAt;

/* A hull strip's first-order motion (PlPointMotionFn): the body's RAO motion at the strip's body
 * point, d = xi_t + xi_r x (p - O) and its rate (PlRaoPointMotion). */
static void StripMotion(void *ctx, const double p[3], double d[3], double ddot[3])
{
  const FluidAt *c = ctx;
  PlRaoPointMotion(c->rao, c->xi, p, d);
  PlRaoPointMotion(c->rao, c->xi + 6, p, ddot);
}
static int FluidAtPoint(void *ctx, const double x[3], double u[3], double du_dx[9])
{
  const FluidAt *c = ctx;
  if (c->waves) {
    PlWaveKin k;
    (c->grad ? PlWavesFluid : PlWavesFluidValues)(c->waves, &c->m->current, x, c->t, &k);
    memcpy(u, k.u, sizeof k.u);
    memcpy(du_dx, k.du_dx, sizeof k.du_dx);
    return k.wet;
  }
  double dv[3];
  PlCurrentVelocity(&c->m->current, c->m->water_depth, x[2], c->t, u, dv);
  for (int i = 0; i < 3; ++i) du_dx[3 * i] = du_dx[3 * i + 1] = 0.0, du_dx[3 * i + 2] = dv[i];
  return x[2] < 0.0;
}

int PlBodyLoads(const PlModel *m, PlWaves *waves, const PlRaoMotion *rao, const double xi[12], int b, double t,
                const double *y, double env[6], double tau_body[6], double load_global[6], double tau_hull[6],
                double *dtau_dy)
{
  PlVesselLoadApply(&m->bodies[b].environment, t, env, tau_body, load_global);
  const PlHull *H = &m->bodies[b].hull;
  if (tau_hull) memset(tau_hull, 0, sizeof(double) * 6);
  if (!H->n) return 0;
  FluidAt fa = {m, waves, t, dtau_dy != NULL, rao, xi};
  double tau[6];
  const int bad = PlVesselHullLoad(H, y, m->water_density, FluidAtPoint, rao ? StripMotion : NULL, &fa, tau, dtau_dy);
  for (int i = 0; i < 6; ++i) tau_body[i] += tau[i];
  if (tau_hull) memcpy(tau_hull, tau, sizeof tau);
  return 2 | bad;
}

/* The power of a line end's support on its node (PL_WORK_ENDS): each held row's residual before
 * the hold replaces it (f: the node's rows; the translation rows' the support's force, global,
 * the rotation rows' its moment, node frame) times the velocity it holds, and a dead end
 * moment's M . (R w) (the dead force's work is in the potential energy). */
static double EndPower(const PlSysDyn s, const PlDynLine d, const PlDynEnd *E, const double *yn, const double *f)
{
  double P = 0.0;
  for (int c = 0; c < 3; ++c) {
    if (E->tr[c]) P += f[s->iV + c] * yn[s->iV + c];
    if (E->rot == 1 || (E->rot == 2 && E->rp[c])) P += f[s->iW + c] * yn[s->iW + c];
  }
  const double *M = PlDynNodeMoment(d, E->node);
  if (M) {
    double q[4], R[9];
    PlNodeQuaternion(d->kind, d->sp->mesh.q0 + 4 * E->node, yn + 3, q);
    PlQuatToMatrix(q, R);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) P += M[i] * R[3 * i + j] * yn[s->iW + j];
  }
  return P;
}

/* ---- the residual and the iteration matrix ---------------------------------------------- */
/* The iteration matrix's structure within a node's unknowns (u, p, v, w, anchors): the entries
 * that can be nonzero, so that the pattern (and KLU's work, which follows its nonzeros) holds
 * no entry that is zero in every state (40 % of them at 740 nodes when every pair the kernels
 * visit was kept). An element (rod, weight, seabed, Morison, friction) depends on no angular
 * velocity w, and its moments (the W rows) on no velocity v. */
static int ElementEntry(const PlSysDyn s, int r, int col)
{
  const int colW = col >= s->iW && col < s->iW + 3, rowW = r >= s->iW && r < s->iW + 3;
  return !colW && !(rowW && col >= s->iV && col < s->iV + 3);
}

/* A node's own rows (PlNodeDynamics) away from a line's ends: u' - v = 0 (u_c, v_c), the
 * rotation's kinematics p' - f(p) w = 0 (p, w), M v' (v), J w' + w x J w + D w (w); the
 * friction anchors' rows and columns as the kernels visit them. */
static int NodeEntry(const PlSysDyn s, int r, int col)
{
  const int anchors = s->iA >= 0 && (r >= s->iA || col >= s->iA);
  if (anchors) return 1;
  if (r < 3) return col == r || col == s->iV + r;
  if (r < s->iV) return (col >= 3 && col < s->iV) || (col >= s->iW && col < s->iW + 3);
  if (r < s->iW) return col >= s->iV && col < s->iW;
  return col >= s->iW;
}

/* Element e of the line at base goes by the entry list (eent; ListPositions): its nodes are not
 * the line's ends (no held row) and none of their rows is redirected to an attachment. */
static int ElementListed(const PlSysDyn s, const PlDynLine d, int base, int e)
{
  const int end0 = d->ends[0].node, end1 = d->ends[1].node, row0 = base + e * s->ndd;
  return e != end0 && e + 1 != end0 && e != end1 && e + 1 != end1 && s->plain[row0] && s->plain[row0 + s->ndd];
}

/* Node i likewise (nent). */
static int NodeListed(const PlSysDyn s, const PlDynLine d, int base, int i)
{
  return i != d->ends[0].node && i != d->ends[1].node && s->plain[base + i * s->ndd];
}

int PlSysDynEval(PlSysDyn s, double t, const double *y, const double *yp, double c, double *F, int wantJ)
{
  const PlModel *m = s->m;
  const int ndd = s->ndd, n2 = 2 * ndd, putJ = wantJ;
  /* on K ranks each assembles its parts (the recording of the pattern visits everything) */
  const int split = s->size > 1 && !s->recording && !s->nosplit;
#define MINE(v) (!split || s->owner[v] == s->rank)
  double *Fw = F ? F : s->Fwork, *Ke = putJ ? s->Ke : NULL;
  s->domain_error = 0;
  memset(Fw, 0, sizeof(double) * (size_t)s->n);
  memset(s->lines_load, 0, sizeof *s->lines_load * (size_t)m->nbodies);
  memset(s->end_force, 0, sizeof *s->end_force * (size_t)s->nl);
  memset(s->pw, 0, sizeof s->pw);
  /* the work integrals' rates: in a residual (a matrix-only evaluation leaves them out) */
  double *pw = s->woff >= 0 && !s->statics && F ? s->pw : NULL;
  if (putJ && s->val) memset(s->val, 0, sizeof(double) * (size_t)s->nnz);
  if (putJ) PutSequence(s, 1);
  for (int b = 0; b < m->nbodies; ++b) /* the bodies' RAO motion at t (the attachments' points) */
    if (s->rao && s->rao[b] && !s->statics) PlRaoMotionEval(s->rao[b], t, s->xi[b], s->xi[b] + 6, NULL);
  /* the bodies first: multibody writes its rows; their external loads (environment, a hull's
   * drag in the current), constants for multibody, so a hull's derivatives go in here */
  for (int b = 0; b < m->nbodies; ++b) {
    const int bo = s->moff + PL_VESSEL_NY * b, mine = putJ && MINE(s->vbody);
    double dtau[6 * PL_VESSEL_NY];
    memset(s->tb[b], 0, sizeof s->tb[b]);
    memset(s->lg[b], 0, sizeof s->lg[b]);
    const int moving = !s->statics && s->rao && s->rao[b];
    const int rc = PlBodyLoads(m, SysWaves(s), moving ? s->rao[b] : NULL, moving ? s->xi[b] : NULL, b, t, y + bo,
                               s->env[b], s->tb[b], s->lg[b], s->th[b], mine ? dtau : NULL);
    if (rc & 1) s->domain_error = 1;
    if (s->exc && s->exc[b] && !s->statics) Excitation(s, b, t, s->tb[b]);
    if (mine && (rc & 2))
      for (int i = 0; i < 6; ++i)
        for (int j = 0; j < PL_VESSEL_NY; ++j) Put(s, bo + PL_VESSEL_V + i, bo + j, -dtau[i * PL_VESSEL_NY + j]);
  }
  memset(s->tau_dp, 0, sizeof *s->tau_dp * (size_t)m->nbodies);
  if (s->nmb > 0 && MINE(s->vbody))
    for (int b = 0; b < m->nbodies; ++b) {
      /* the DP controller (models/dp.c): its thrust on the body's rows (a constant load for
       * multibody, so its derivatives go in here), its integral rows */
      const int z = s->zoff[b], bo = s->moff + PL_VESSEL_NY * b;
      if (z < 0) continue;
      double tau[6], rz[6], dtau_dy[6 * PL_VESSEL_NY], dtau_dz[36], drz_dy[6 * PL_VESSEL_NY], drz_dz[36];
      PlDPControlVessel(s->statics ? &s->dp_on[b] : &s->dp_run[b], t, y + bo, y + z, yp + z, c, tau, rz,
                        putJ ? dtau_dy : NULL, putJ ? dtau_dz : NULL, putJ ? drz_dy : NULL, putJ ? drz_dz : NULL);
      for (int i = 0; i < 6; ++i) {
        s->tb[b][i] += tau[i];
        s->tau_dp[b][i] = tau[i];
        Fw[z + i] = rz[i];
      }
      if (putJ)
        for (int i = 0; i < 6; ++i) {
          for (int j = 0; j < PL_VESSEL_NY; ++j) {
            Put(s, bo + PL_VESSEL_V + i, bo + j, -dtau_dy[i * PL_VESSEL_NY + j]);
            Put(s, z + i, bo + j, drz_dy[i * PL_VESSEL_NY + j]);
          }
          for (int j = 0; j < 6; ++j) {
            Put(s, bo + PL_VESSEL_V + i, z + j, -dtau_dz[6 * i + j]);
            Put(s, z + i, z + j, drz_dz[6 * i + j]);
          }
        }
    }
  if (pw && s->nmb > 0 && MINE(s->vbody))
    /* the bodies' powers: W_loads' = sum_b nu . (tau_b - tau_hull,b) (environment, thrusters),
     * W_drag' = sum_b nu . tau_hull,b, W_damping' = sum_b nu^T D(nu) nu (the rows: below) */
    for (int b = 0; b < m->nbodies; ++b) {
      const double *yb = y + s->moff + PL_VESSEL_NY * b;
      double pl, pd, ph = 0.0;
      PlVesselPower(&s->V[b], yb, s->tb[b], s->lg[b], &pl, &pd);
      for (int i = 0; i < 6; ++i) ph += yb[PL_VESSEL_V + i] * s->th[b][i]; /* the hull's share (body frame) */
      pw[PL_WORK_LOADS] += pl - ph;
      pw[PL_WORK_DRAG] += ph;
      pw[PL_WORK_DAMPING] += pd;
    }
  if (s->nmb > 0 && MINE(s->vbody)) {
    if (PlMultibodyEvaluate(&s->mb, t, y + s->moff, yp + s->moff, c, Fw + s->moff, putJ ? s->Jmb : NULL))
      s->domain_error = 1;
    if (putJ)
      for (int i = 0; i < s->nmb; ++i)
        for (int j = 0; j < s->nmb; ++j) Put(s, s->moff + i, s->moff + j, s->Jmb[(size_t)i * s->nmb + j]);
  }
  /* attachments: the transfer maps at the bodies' state (for the matrix) */
  for (int a = 0; a < s->nat; ++a) {
    Attach *A = &s->at[a];
    memset(A->f, 0, sizeof A->f);
    memset(A->mom, 0, sizeof A->mom);
    if (A->body >= 0 && putJ && MINE(A->vert)) {
      const double zero[3] = {0, 0, 0};
      double tau[6], ap[3], apd[3];
      const double *yb = y + s->moff + PL_VESSEL_NY * A->body;
      double Tt[9], Aq[16], wxi[3];
      AttachPoint(s, A, ap, apd);
      if (A->fixed) AttachFrame(s, A, y + A->row + 3, yb + PL_VESSEL_Q, Tt, Aq, wxi);
      PlVesselJointLoad(yb, ap, A->fixed ? Tt : NULL, zero, zero, tau, NULL, A->dtau_df, A->dtau_dm);
    }
  }
  PlSysRollersEval(s, t, y, Fw, putJ, pw); /* the rollers' contacts (roller.c) */
  for (int l = 0; l < s->nl; ++l) {
    const PlDynLine d = s->d[l];
    const PlProblem p = d->sp;
    const int nn = p->mesh.nnodes, ne = p->mesh.nelements, base = s->loff[l];
    double fe[2 * PL_DYN_DOF_MAX];
    d->at_rest = s->statics;
    d->waves = SysWaves(s);
    const int end0 = d->ends[0].node, end1 = d->ends[1].node;
    double qab[8]; /* the residual's node frames of the element (A, B) */
    int qnode = -1;  /* the node whose frame qab + 4 holds */
    for (int e = 0; e < ne; ++e) {
      if (!MINE(s->voff[l] + e)) continue;
      if (s->ends_only && e != end0 && e + 1 != end0 && e != end1 && e + 1 != end1) continue;
      double ya[PL_DYN_DOF_MAX], yb[PL_DYN_DOF_MAX];
      const double *yA = y + base + e * ndd, *yB = yA + ndd;
      for (int k = 0; k < ndd; ++k) ya[k] = yA[k], yb[k] = yB[k]; /* inline: no call per element */
      for (int k = 0; k < 3; ++k) {
        ya[k] += d->xs[3 * e + k];
        yb[k] += d->xs[3 * (e + 1) + k];
      }
      if (!Ke) { /* the residual: node e + 1's frame kept for element e + 1 */
        if (qnode != e) PlNodeQuaternion(d->kind, p->mesh.q0 + 4 * e, ya + 3, qab);
        else memcpy(qab, qab + 4, 4 * sizeof(double));
        PlNodeQuaternion(d->kind, p->mesh.q0 + 4 * (e + 1), yb + 3, qab + 4);
        qnode = e + 1;
      }
      if (PlDynElement(d, e, t, ya, yp + base + e * ndd, yb, yp + base + (e + 1) * ndd, c, fe, Ke, pw, Ke ? NULL : qab))
        s->domain_error = 1;
      if (s->statics && d->iA >= 0) /* at rest the friction anchors stay where the lines' statics had
                                       them (their displacement 0), as the one-line statics hold
                                       them at the start shape */
        for (int a = 0; a < 2; ++a) {
          if (a && e < ne - 1) continue; /* node e's anchor is element e's; the last node's idle one */
          for (int r = d->iA; r < d->iA + 3; ++r) {
            fe[a * ndd + r] = (a ? yB : yA)[r];
            if (Ke) {
              memset(Ke + (size_t)(a * ndd + r) * n2, 0, n2 * sizeof(double));
              Ke[(a * ndd + r) * n2 + a * ndd + r] = 1.0;
            }
          }
        }
      if (s->plain[base + e * ndd] && s->plain[base + (e + 1) * ndd]) { /* no redirected row */
        double *Fe = Fw + base + e * ndd;
        for (int r = 0; r < n2; ++r) Fe[r] += fe[r];
      } else
        for (int a = 0; a < 2; ++a)
          for (int r = 0; r < ndd; ++r) AddF(s, Fw, base + (e + a) * ndd + r, fe[a * ndd + r]);
      if (putJ) {
        const int row0 = base + e * ndd;
        const int *pos = s->epos[l] && s->val && !s->recording ? s->epos[l] + (size_t)e * s->neent : NULL;
        if (pos && pos[0] >= 0) /* neither held nor redirected: the list, at its positions */
          for (int k = 0; k < s->neent; ++k) s->val[pos[k]] += Ke[s->eent[3 * k]];
        else
          for (int a = 0; a < 2; ++a)
            for (int r = s->iV; r < ndd; ++r) {
              if (PlDynRowHeld(d, e + a, r)) continue;
              for (int col = 0; col < n2; ++col)
                if (ElementEntry(s, r, col % ndd))
                  AddJ(s, row0 + a * ndd + r, row0 + col, Ke[(a * ndd + r) * n2 + col]);
            }
      }
    }
    for (int i = 0; i < nn; ++i) {
      if (!MINE(s->voff[l] + (i < ne ? i : ne - 1))) continue;
      if (s->ends_only && i != end0 && i != end1) continue;
      double rn[PL_DYN_DOF_MAX], Kn[PL_DYN_DOF_MAX * PL_DYN_DOF_MAX];
      const int row0 = base + i * ndd;
      PlNodeInertia ni;
      PlDynNodeInertia(d, i, t, &ni);
      /* a held translation's acceleration is the prescribed one: its momentum row, replaced by
       * the hold below, is the support's force (end_force), and IDA's v' there is a derivative
       * no error test watches (the held v is out of it) */
      const double *ypn = yp + row0;
      double ypa[PL_DYN_DOF_MAX];
      for (int k = 0; k < 2; ++k) {
        const PlDynEnd *E = &d->ends[k];
        if (E->node != i || !(E->tr[0] || E->tr[1] || E->tr[2])) continue;
        double xb[3], vb[3], ab[3], pb[4], wb[3];
        PlDynEndPrescribed(d, E, t, xb, vb, ab, pb, wb);
        memcpy(ypa, ypn, sizeof(double) * ndd);
        for (int cc = 0; cc < 3; ++cc)
          if (E->tr[cc]) ypa[s->iV + cc] = ab[cc];
        ypn = ypa;
      }
      PlNodeDynamics(&ni, d->kind, p->mesh.q0 + 4 * i, y + row0, ypn, c, PlDynNodeMoment(d, i), rn,
                     putJ ? Kn : NULL);
      if (pw) /* the rotational damping's moment -D_n w (node frame) */
        for (int cc = 0; cc < 3; ++cc) {
          const double w = y[row0 + s->iW + cc];
          pw[PL_WORK_ROTATIONAL_DAMPING] -= ni.D[cc] * w * w;
        }
      if (d->iA >= 0) { /* the node's own ndd0 rows and columns; the friction anchor's are the element's */
        const int n0 = d->iA;
        for (int r = n0; r < ndd; ++r) rn[r] = 0.0;
        if (putJ) {
          for (int r = n0 - 1; r >= 0; --r)
            for (int col = ndd - 1; col >= 0; --col) Kn[r * ndd + col] = col < n0 ? Kn[r * n0 + col] : 0.0;
          memset(Kn + n0 * ndd, 0, (size_t)(ndd - n0) * ndd * sizeof(double));
        }
      }
      for (int k = 0; k < 2; ++k)
        if (d->ends[k].node == i)
          for (int cc = 0; cc < 3; ++cc) rn[s->iV + cc] -= d->ends[k].F[cc];
      if (s->plain[row0])
        for (int r = 0; r < ndd; ++r) Fw[row0 + r] += rn[r];
      else
        for (int r = 0; r < ndd; ++r) AddF(s, Fw, row0 + r, rn[r]);
      if (!putJ) continue;
      for (int r = 0; r < ndd; ++r)
        if (PlDynRowHeld(d, i, r)) memset(Kn + r * ndd, 0, ndd * sizeof(double));
      for (int k = 0; k < 2; ++k)
        if (d->ends[k].node == i) PlDynEndJacobian(d, &d->ends[k], y + row0, Kn);
      const int *pos = s->npos[l] && s->val && !s->recording ? s->npos[l] + (size_t)i * s->nnent : NULL;
      if (pos && pos[0] >= 0) /* neither held nor redirected: the list, at its positions */
        for (int k = 0; k < s->nnent; ++k) s->val[pos[k]] += Kn[s->nent[2 * k] * ndd + s->nent[2 * k + 1]];
      else
        for (int r = 0; r < ndd; ++r)
          for (int col = 0; col < ndd; ++col)
            if (i == end0 || i == end1 || NodeEntry(s, r, col)) AddJ(s, row0 + r, row0 + col, Kn[r * ndd + col]);
    }
    /* the ends' momentum residual before a hold replaces it, then the holds */
    for (int k = 0; k < 2; ++k) {
      if (!MINE(s->voff[l] + (k ? ne - 1 : 0))) continue;
      const int row0 = base + d->ends[k].node * ndd;
      for (int cc = 0; cc < 3; ++cc) s->end_force[l][k][cc] = s->redir[row0 + s->iV + cc] == -1 ? Fw[row0 + s->iV + cc] : 0.0;
      if (pw) pw[PL_WORK_ENDS] += EndPower(s, d, &d->ends[k], y + row0, Fw + row0);
      PlDynEndResidual(d, &d->ends[k], t, y + row0, Fw + row0);
    }
  }
  /* free points: kinematics, inertia with added mass, net weight, Morison drag */
  for (int k = 0; k < m->npoints; ++k) {
    const int o = s->poff[k];
    if (o < 0 || !MINE(s->vpt[k])) continue;
    const PlPointModel *pt = &m->points[k];
    const double wnet = (pt->mass - m->water_density * pt->volume) * m->gravity;
    const double mt = pt->mass + pt->added_mass_coefficient * m->water_density * pt->volume;
    for (int cc = 0; cc < 3; ++cc) {
      Fw[o + cc] = yp[o + cc] - y[o + 3 + cc];
      Fw[o + 3 + cc] += mt * yp[o + 3 + cc] + (cc == 2 ? wnet : 0.0);
      if (putJ) {
        Put(s, o + cc, o + cc, c);
        Put(s, o + cc, o + 3 + cc, -1.0);
        Put(s, o + 3 + cc, o + 3 + cc, c * mt);
      }
    }
    if (pt->drag_area > 0.0) {
      /* -f_d = -1/2 rho CdA |u| u with u = u_w(x) - v (u_w the water's velocity: the current, and the
       * waves' with waves); d(-f_d)/du = -1/2 rho CdA (|u| I + u u^T/|u|), du/dv = -I, du/dx = du_w/dx
       * (in a calm sea only its z column, du_c/dz) */
      double uc[3], u[3], D[9], G[9];
      PlWaves *sea = SysWaves(s);
      const double xp[3] = {y[o] + s->pxs[k][0], y[o + 1] + s->pxs[k][1], y[o + 2] + s->pxs[k][2]};
      FluidAt water = {m, sea, t, putJ, NULL, NULL};
      FluidAtPoint(&water, xp, uc, G);
      for (int cc = 0; cc < 3; ++cc) u[cc] = uc[cc] - y[o + 3 + cc];
      const double un = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]), hc = 0.5 * m->water_density * pt->drag_area;
      for (int i = 0; i < 3; ++i) {
        Fw[o + 3 + i] -= hc * un * u[i];
        if (pw) pw[PL_WORK_DRAG] += hc * un * u[i] * y[o + 3 + i];
        for (int j = 0; j < 3; ++j) D[3 * i + j] = -hc * ((i == j ? un : 0.0) + (un > 0.0 ? u[i] * u[j] / un : 0.0));
      }
      if (putJ)
        for (int i = 0; i < 3; ++i) {
          if (sea)
            for (int j = 0; j < 3; ++j)
              Put(s, o + 3 + i, o + j, D[3 * i] * G[j] + D[3 * i + 1] * G[3 + j] + D[3 * i + 2] * G[6 + j]);
          else
            Put(s, o + 3 + i, o + 2, D[3 * i] * G[2] + D[3 * i + 1] * G[5] + D[3 * i + 2] * G[8]);
          for (int j = 0; j < 3; ++j) Put(s, o + 3 + i, o + 3 + j, -D[3 * i + j]);
        }
    }
  }
  /* attachments: the constraint rows and the load on the bodies */
  for (int a = 0; a < s->nat; ++a) {
    Attach *A = &s->at[a];
    const PlDynLine d = s->d[A->l];
    if (!MINE(A->vert)) continue;
    const int node = d->ends[A->k].node, row = A->row;
    double x[3], v[3];
    for (int cc = 0; cc < 3; ++cc) {
      x[cc] = y[row + cc] + d->xs[3 * node + cc];
      v[cc] = y[row + s->iV + cc];
      s->end_force[A->l][A->k][cc] = A->f[cc];
    }
    if (A->point >= 0) {
      const int o = s->poff[A->point];
      for (int cc = 0; cc < 3; ++cc) {
        Fw[row + cc] = x[cc] - (y[o + cc] + s->pxs[A->point][cc]);
        Fw[row + s->iV + cc] = v[cc] - y[o + 3 + cc];
        if (putJ) {
          Put(s, row + cc, row + cc, 1.0);
          Put(s, row + cc, o + cc, -1.0);
          Put(s, row + s->iV + cc, row + s->iV + cc, 1.0);
          Put(s, row + s->iV + cc, o + 3 + cc, -1.0);
        }
      }
      continue;
    }
    const int bo = s->moff + PL_VESSEL_NY * A->body;
    double g[6], dg[6 * PL_VESSEL_NY], tau[6], dtau[6 * PL_VESSEL_NY], df[18], dm[18], ap[3], apd[3];
    const int moving = AttachPoint(s, A, ap, apd);
    if (PlVesselJointKinematicsMoving(y + bo, ap, moving ? apd : NULL, x, v, g, putJ ? dg : NULL)) s->domain_error = 1;
    double Tt[9], Aq[16], wxi[3];
    if (A->fixed) AttachFrame(s, A, y + row + 3, y + bo + PL_VESSEL_Q, Tt, Aq, wxi);
    if (moving && pw) pw[PL_WORK_ENDS] += RaoPower(y + bo, A->f, apd) + (A->mom[0] * wxi[0] + A->mom[1] * wxi[1] + A->mom[2] * wxi[2]);
    PlVesselJointLoad(y + bo, ap, A->fixed ? Tt : NULL, A->f, A->mom, tau, putJ ? dtau : NULL, df, dm);
    if (A->fixed) FixedRows(s, A, Aq, Tt, wxi, y + row, y + bo, Fw + row, putJ);
    for (int cc = 0; cc < 3; ++cc) {
      Fw[row + cc] = g[cc];
      Fw[row + s->iV + cc] = g[3 + cc];
    }
    for (int i = 0; i < 6; ++i) {
      Fw[bo + PL_VESSEL_V + i] += tau[i];
      s->lines_load[A->body][i] -= tau[i];
    }
    if (!putJ) continue;
    for (int cc = 0; cc < 3; ++cc) {
      Put(s, row + cc, row + cc, 1.0);
      Put(s, row + s->iV + cc, row + s->iV + cc, 1.0);
      for (int j = 0; j < PL_VESSEL_NY; ++j) {
        Put(s, row + cc, bo + j, dg[cc * PL_VESSEL_NY + j]);
        Put(s, row + s->iV + cc, bo + j, dg[(3 + cc) * PL_VESSEL_NY + j]);
      }
    }
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < PL_VESSEL_NY; ++j) Put(s, bo + PL_VESSEL_V + i, bo + j, dtau[i * PL_VESSEL_NY + j]);
  }
  if (s->woff >= 0 && putJ && (!split || s->rank == 0)) /* the work rows' matrix (one rank) */
    for (int k = 0; k < s->nwork; ++k) Put(s, s->woff + k, s->woff + k, s->statics ? 1.0 : c);
#undef MINE
  if (putJ) PutSequence(s, 0);
  if (split) Combine(s, Fw, putJ);
  /* the work integrals W' = P; at rest (statics) held at 0. Their derivatives in y and y' are
   * left out of the matrix: no other row depends on W, so Newton's iteration on y is unchanged
   * and W follows it, one iteration behind (block-triangular; tests/system_fd.h checks the
   * other rows and these rows' diagonal) */
  if (s->woff >= 0)
    for (int k = 0; k < s->nwork; ++k) Fw[s->woff + k] = s->statics ? y[s->woff + k] : yp[s->woff + k] - s->pw[k];
  if (!s->domain_error) { /* a value that is not finite: x - x is NaN for it, 0 else (four sums) */
    double z[4] = {0.0, 0.0, 0.0, 0.0};
    int i = 0;
    for (; i + 4 <= s->n; i += 4)
      for (int k = 0; k < 4; ++k) z[k] += Fw[i + k] - Fw[i + k];
    for (; i < s->n; ++i) z[0] += Fw[i] - Fw[i];
    if (!(z[0] + z[1] + z[2] + z[3] == 0.0)) s->domain_error = 1;
  }
  return s->domain_error;
}

int PlSysDynSize(const PlSysDyn s) { return s->n; }

int PlSysDynResidual(PlSysDyn s, double t, const double *y, const double *yp, double *F)
{
  return PlSysDynEval(s, t, y, yp, 0.0, F, 0);
}

int PlSysDynOutputLoads(PlSysDyn s, double t, const double *y, const double *yp)
{
  /* the end forces are the end nodes' momentum rows before their holds: the end elements'
   * and the end nodes' own terms; the bodies' and points' loads add the attached ends' */
  s->ends_only = 1;
  const int bad = PlSysDynEval(s, t, y, yp, 0.0, NULL, 0);
  s->ends_only = 0;
  return bad;
}

int PlSysDynMatrixDense(PlSysDyn s, double t, const double *y, const double *yp, double c, double *J)
{
  double *v = malloc(sizeof(double) * (size_t)s->nnz);
  if (!v) return 1;
  double *keep = s->val;
  s->val = v;
  const int bad = PlSysDynEval(s, t, y, yp, c, NULL, 1);
  s->val = keep;
  PlSysDynDense(s, v, J);
  free(v);
  return bad;
}

void PlSysDynDense(const PlSysDyn s, const double *v, double *J)
{
  memset(J, 0, sizeof(double) * (size_t)s->n * (size_t)s->n);
  for (int col = 0; col < s->n; ++col)
    for (sunindextype k = s->colptr[col]; k < s->colptr[col + 1]; ++k) J[(size_t)s->rowind[k] * s->n + col] += v[k];
}

/* ---- energy ----------------------------------------------------------------------------- */
/* The energy at time t of state y, line lp's top element dl longer than at t (lp -1: none;
 * PlSysDynPayoutGradient's derivative): e[3] = kinetic, strain, potential. A pay-out line's top
 * element, its nodes' masses and weights are those of its l(t) (+ dl). top_only: only the part
 * that depends on line lp's top length (its top element and its two nodes). strain 0: e[1], the
 * lines' strain energy, left at 0 (the caller has it from its stations). */
static void Energy(PlSysDyn s, double t, int lp, double dl_lp, int top_only, int strain, const double *y,
                   double e[3])
{
  const PlModel *m = s->m;
  e[0] = e[1] = e[2] = 0.0;
  for (int l = 0; l < s->nl; ++l) {
    if (top_only && l != lp) continue;
    const PlDynLine d = s->d[l];
    const PlProblem p = d->sp;
    const int nn = p->mesh.nnodes, ne = p->mesh.nelements, nd = d->nd;
    const double *yl = y + s->loff[l];
    const PlSegment *top = &p->model.segments[p->mesh.segment[ne - 1]];
    const double dl = l == lp ? dl_lp : 0.0, Ltop = d->payout ? PlDynTopLength(d, t) + dl : 0.0;
    for (int i = top_only ? ne - 1 : 0; i < nn; ++i) {
      const double *yi = yl + (size_t)i * s->ndd;
      PlNodeInertia ni;
      double wn = d->wnode[i];
      if (d->payout) {
        PlDynNodeInertia(d, i, t, &ni);
        if (i >= ne - 1) {
          ni.mass += 0.5 * dl * top->section.mass_per_length;
          for (int c = 0; c < 3; ++c) ni.J[c] += 0.5 * dl * top->section.inertia[c];
          wn += 0.5 * (Ltop - d->Ltop0) * p->w[ne - 1];
        }
      } else
        ni = d->inertia[i];
      e[0] += PlNodeKineticEnergy(&ni, d->kind, yi);
      e[2] += wn * (yi[2] + d->xs[3 * i + 2]);
      for (int k = 0; k < 2; ++k)
        if (d->ends[k].node == i)
          for (int c = 0; c < 3; ++c) e[2] -= d->ends[k].F[c] * (yi[c] + d->xs[3 * i + c]);
      if (i < ne && strain) {
        double ue[PL_ELEM_DOF_MAX];
        memcpy(ue, yi, nd * sizeof(double));
        memcpy(ue + nd, yi + s->ndd, nd * sizeof(double));
        for (int k = 0; k < 3; ++k) {
          ue[k] += d->xs[3 * i + k];
          ue[nd + k] += d->xs[3 * (i + 1) + k];
        }
        PlRodElement el = p->elements[i];
        if (d->payout && i == ne - 1) el.L = Ltop;
        e[1] += PlRodElementEnergy(&el, ue);
      }
    }
  }
  if (top_only) return;
  for (int k = 0; k < m->npoints; ++k) {
    const int o = s->poff[k];
    if (o < 0) continue;
    const PlPointModel *pt = &m->points[k];
    const double *v = y + o + 3;
    const double mt = pt->mass + pt->added_mass_coefficient * m->water_density * pt->volume;
    e[0] += 0.5 * mt * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); /* the point's and its added mass's */
    e[2] += (pt->mass - m->water_density * pt->volume) * m->gravity * (y[o + 2] + s->pxs[k][2]);
  }
  for (int b = 0; b < m->nbodies; ++b) {
    const double *yb = y + s->moff + PL_VESSEL_NY * b;
    e[0] += PlVesselKineticEnergy(&s->V[b], yb);
    e[2] += PlVesselPotentialEnergy(&s->V[b], yb);
  }
}

void PlSysDynEnergy(PlSysDyn s, double t, const double *y, double *kin, double *strain, double *pot)
{
  double e[3];
  Energy(s, t, -1, 0.0, 0, 1, y, e);
  *kin = e[0];
  *strain = e[1];
  *pot = e[2];
}

double PlSysDynPayoutGradient(PlSysDyn s, int l, double t, const double *y)
{
  const PlDynLine d = s->d[l];
  if (!d->payout) return 0.0;
  double ep[3], em[3];
  const double h = 1e-6 * d->Ltop0;
  Energy(s, t, l, h, 1, 1, y, ep);
  Energy(s, t, l, -h, 1, 1, y, em);
  return ((ep[0] + ep[1] + ep[2]) - (em[0] + em[1] + em[2])) / (2.0 * h);
}

/* ---- energy.csv -------------------------------------------------------------------------
 * One table of the columns every dynamic run writes (one-line runs, dynamic_run.c; systems,
 * system_run.c, bodies alone included, whose rows stop after dissipated_J): t_s, the energies
 * kinetic_J, strain_J, potential_J and total_J (PlSysDynEnergy), then the work integrals
 * (PL_WORK_*, dynamic_impl.h) in kWorkColumn's order with friction_stored_J, the friction
 * springs' stored energy sum_e P_e Psi(u_e) (PlDynFrictionEnergy), before friction_slip_J;
 * a pay-out run's work_payout_J (the pay-out's power integrated over the integrator's steps:
 * solver/dynamic.c) and remesh_J,
 * the energy the splits, merges and retirements changed (PlSysDynAddRemeshEnergy: the
 * discretisation's change, the new node's balance, a retired element's energy); and
 *   balance_J = total_J - total_J(0) - (work_loads_J + work_drag_J + work_added_mass_J
 *               + work_seabed_J + work_seabed_damping_J + work_friction_J + work_ends_J
 *               + work_rotational_damping_J + work_splash_zone_J + work_rollers_J + work_payout_J
 *               + remesh_J)
 *               + dissipated_J,
 * the energy the equations do not account for: zero up to the integration error. The
 * friction's split is a second balance: -work_friction_J = friction_stored_J -
 * friction_stored_J(0) + friction_slip_J + friction_nonconservative_J. */
static const char *const kWorkColumn[PL_WORK_N] = {
  "work_loads_J", "work_drag_J", "dissipated_J", "work_added_mass_J", "work_seabed_J", "work_seabed_damping_J",
  "work_friction_J", "work_ends_J", "work_rotational_damping_J", "work_splash_zone_J", "work_rollers_J", "friction_slip_J",
  "friction_nonconservative_J"};

/* 1 when a line pays out (its energy.csv has work_payout_J and remesh_J). */
static int Payout(const PlSysDyn s)
{
  for (int l = 0; l < s->nl; ++l)
    if (s->d[l]->payout) return 1;
  return 0;
}

void PlSysDynEnergyHeader(const PlSysDyn s, char *buf, size_t len)
{
  const int payout = Payout(s);
  size_t used = (size_t)snprintf(buf, len, "t_s,kinetic_J,strain_J,potential_J,total_J");
  for (int k = 0; k < s->nwork && used < len; ++k)
    used += (size_t)snprintf(buf + used, len - used, "%s,%s", k == PL_WORK_FRICTION_SLIP ? ",friction_stored_J" : "",
                             kWorkColumn[k]);
  if (used < len) snprintf(buf + used, len - used, "%s,balance_J\n", payout ? ",work_payout_J,remesh_J" : "");
}

void PlSysDynAddRemeshEnergy(PlSysDyn s, double dE) { s->remesh_energy += dE; }
double PlSysDynRemeshEnergy(const PlSysDyn s) { return s->remesh_energy; }

void PlSysDynWorkRows(const PlSysDyn s, int *first, int *count)
{
  *first = s->woff;
  *count = s->nwork;
}

/* The friction springs' stored energy at state y [J]. */
static double FrictionEnergy(const PlSysDyn s, const double *y)
{
  double E = 0.0;
  for (int l = 0; l < s->nl; ++l) {
    const PlDynLine d = s->d[l];
    if (d->iA < 0) continue;
    const double *yl = y + s->loff[l];
    for (int e = 0; e < d->sp->mesh.nelements; ++e) {
      const double *yA = yl + (size_t)e * s->ndd, *yB = yA + s->ndd;
      double xA[3], xB[3];
      for (int c = 0; c < 3; ++c) xA[c] = yA[c] + d->xs[3 * e + c], xB[c] = yB[c] + d->xs[3 * (e + 1) + c];
      E += PlDynFrictionEnergy(d, e, xA, xB, yA + d->iA);
    }
  }
  return E;
}

double PlSysDynEnergyRow(PlSysDyn s, double t, const double *y, const double *strain, const double *w_payout,
                         double *e0, FILE *f, PlEnergyChange *c)
{
  double e[3], W = 0.0, big = 0.0;
  Energy(s, t, -1, 0.0, 0, !strain, y, e);
  if (strain) e[1] = *strain;
  const double total = e[0] + e[1] + e[2];
  if (!isfinite(*e0)) *e0 = total;
  fprintf(f, "%.17g,%.17g,%.17g,%.17g,%.17g", t, e[0], e[1], e[2], total);
  for (int k = 0; k < s->nwork; ++k) {
    const double w = y[s->woff + k];
    if (k == PL_WORK_FRICTION_SLIP) fprintf(f, ",%.17g", FrictionEnergy(s, y));
    fprintf(f, ",%.17g", w);
    big = fmax(big, fabs(w));
    if (k == PL_WORK_DAMPING) W -= w; /* dissipated */
    else if (k < PL_WORK_FRICTION_SLIP) W += w;
  }
  if (w_payout) {
    fprintf(f, ",%.17g,%.17g", *w_payout, s->remesh_energy);
    W += *w_payout + s->remesh_energy;
    big = fmax(big, fabs(*w_payout));
  }
  const double balance = total - *e0 - W;
  if (c) {
    c->change = total - *e0;
    c->scale = fmax(big, fabs(c->change));
  }
  fprintf(f, ",%.17g\n", balance);
  return balance;
}

/* ---- set-up ----------------------------------------------------------------------------- */
/* The static state of every line, point and body (at rest, y' = 0). */
static void StartState(PlSysDyn s, const PlLinesReport *rep, double *y, double *yp)
{
  const PlModel *m = s->m;
  memset(y, 0, sizeof(double) * (size_t)s->n);
  memset(yp, 0, sizeof(double) * (size_t)s->n);
  for (int l = 0; l < s->nl; ++l) {
    const PlDynLine d = s->d[l];
    const PlProblem p = d->sp;
    double *us = NULL;
    if (PlGatherUnknowns(p, &us)) continue;
    for (int i = 0; i < p->mesh.nnodes; ++i) {
      double *yi = y + s->loff[l] + (size_t)i * s->ndd;
      for (int r = 3; r < d->nd; ++r) yi[r] = us[(size_t)i * d->nd + r];
      if (d->kind == PL_PARAM_QUATERNION) {
        const double nq = sqrt(yi[3] * yi[3] + yi[4] * yi[4] + yi[5] * yi[5] + yi[6] * yi[6]);
        for (int k = 0; k < 4; ++k) yi[3 + k] /= nq;
      }
    }
    free(us);
  }
  for (int b = 0; b < m->nbodies; ++b) {
    double *yb = y + s->moff + PL_VESSEL_NY * b;
    const double *eta = rep->body_eta[b];
    for (int c = 0; c < 3; ++c) yb[c] = eta[c];
    PlVesselQuatFromEulerZYX(eta + 3, yb + PL_VESSEL_Q);
  }
}

/* A fixed attachment's tie X = Aq q_b, X = q0* (x) q_b (x) q_T (q0 the end node's reference
 * frame, q_T of T: R(q0) R(p) = R_b T; PlDynFixedTieMap); for quaternion
 * parameters the sign that keeps the hemisphere of the end node's parameters in y. */
static void FixedTieMap(PlSysDyn s, Attach *A, const double *y)
{
  const PlDynLine d = s->d[A->l];
  PlDynFixedTieMap(d->sp->mesh.q0 + 4 * d->ends[A->k].node, A->T, d->kind, y + A->row + 3,
                   y + s->moff + PL_VESSEL_NY * A->body + PL_VESSEL_Q, A->Aq);
}

/* The run's start from the static state y: the free points' and bodies' initial velocities,
 * the attached end nodes moving with their masters, y' from the kinematics. */
static void KinematicRates(PlSysDyn s, const double *y, double *yp);
static void HeldMotion(PlSysDyn s, double t, double *y, double *yp);

static void InitialMotion(PlSysDyn s, double *y, double *yp)
{
  const PlModel *m = s->m;
  memset(yp, 0, sizeof(double) * (size_t)s->n);
  for (int k = 0; k < m->npoints; ++k)
    if (s->poff[k] >= 0)
      for (int c = 0; c < 3; ++c) y[s->poff[k] + 3 + c] = m->points[k].velocity[c];
  for (int b = 0; b < m->nbodies; ++b) {
    double *yb = y + s->moff + PL_VESSEL_NY * b;
    for (int c = 0; c < 3; ++c) {
      yb[PL_VESSEL_V + c] = m->bodies[b].velocity[c];
      yb[PL_VESSEL_W + c] = m->bodies[b].angular_velocity[c];
    }
  }
  /* the attached end nodes move with their masters */
  for (int a = 0; a < s->nat; ++a) {
    const Attach *A = &s->at[a];
    double *v = y + A->row + s->iV;
    if (A->point >= 0) memcpy(v, y + s->poff[A->point] + 3, sizeof(double) * 3);
    else {
      const double *yb = y + s->moff + PL_VESSEL_NY * A->body, *q = yb + PL_VESSEL_Q, *w = yb + PL_VESSEL_W;
      double R[9], vb[3];
      PlQuatToMatrix(q, R);
      vb[0] = yb[PL_VESSEL_V] + w[1] * A->a[2] - w[2] * A->a[1];
      vb[1] = yb[PL_VESSEL_V + 1] + w[2] * A->a[0] - w[0] * A->a[2];
      vb[2] = yb[PL_VESSEL_V + 2] + w[0] * A->a[1] - w[1] * A->a[0];
      for (int i = 0; i < 3; ++i) v[i] = R[3 * i] * vb[0] + R[3 * i + 1] * vb[1] + R[3 * i + 2] * vb[2];
      if (A->fixed) /* the end frame turns with the body: w_e = T^T w_b */
        for (int c = 0; c < 3; ++c)
          y[A->row + s->iW + c] = A->T[c] * w[0] + A->T[3 + c] * w[1] + A->T[6 + c] * w[2];
    }
  }
  /* the held DOFs of a line's given ends at their prescribed motion's start (t = 0), as a
   * one-line run's start (dynamic.c ApplyHeld): a ramp that starts at a speed starts there */
  HeldMotion(s, 0.0, y, yp);
  KinematicRates(s, y, yp);
}

/* The held DOFs of the lines' given ends at their prescribed motion at time t, and their rates:
 * the positions u = d(t) - x_s, u' = v = d'(t), v' = d''(t) (the momentum row a hold replaces
 * reads that acceleration), the rotation parameters and their rates from w = w_b(t). At a
 * breakpoint t the time functions give the values of the interval that starts at t. */
static void HeldMotion(PlSysDyn s, double t, double *y, double *yp)
{
  for (int l = 0; l < s->nl; ++l) {
    const PlDynLine d = s->d[l];
    for (int k = 0; k < 2; ++k) {
      const PlDynEnd *E = &d->ends[k];
      const size_t o = (size_t)s->loff[l] + (size_t)E->node * s->ndd;
      double xb[3], vb[3], ab[3], pb[4], wb[3], *yi = y + o, *ypi = yp + o;
      PlDynEndPrescribed(d, E, t, xb, vb, ab, pb, wb);
      for (int c = 0; c < 3; ++c)
        if (E->tr[c]) {
          yi[c] = xb[c] - d->xs[3 * E->node + c];
          yi[s->iV + c] = ypi[c] = vb[c];
          ypi[s->iV + c] = ab[c];
        }
      if (E->rot == 1) {
        for (int j = 0; j < s->np; ++j) yi[3 + j] = pb[j];
        for (int c = 0; c < 3; ++c) yi[s->iW + c] = wb[c];
        PlParamRateFromOmega(d->kind, yi + 3, yi + s->iW, ypi + 3);
      }
    }
  }
}

/* The rates the kinematic rows give at state y (u' = v, p' from w, the points' x' = v, the
 * bodies' r', q'); the others (accelerations) zero. */
static void KinematicRates(PlSysDyn s, const double *y, double *yp)
{
  const PlModel *m = s->m;
  for (int l = 0; l < s->nl; ++l) {
    const PlDynLine d = s->d[l];
    for (int i = 0; i < d->sp->mesh.nnodes; ++i) {
      const double *yi = y + s->loff[l] + (size_t)i * s->ndd;
      double *ypi = yp + s->loff[l] + (size_t)i * s->ndd;
      for (int c = 0; c < 3; ++c) ypi[c] = yi[s->iV + c];
      PlParamRateFromOmega(d->kind, yi + 3, yi + s->iW, ypi + 3);
    }
  }
  for (int k = 0; k < m->npoints; ++k)
    if (s->poff[k] >= 0)
      for (int c = 0; c < 3; ++c) yp[s->poff[k] + c] = y[s->poff[k] + 3 + c];
  for (int b = 0; b < m->nbodies; ++b) {
    const double *yb = y + s->moff + PL_VESSEL_NY * b;
    double ypb[PL_VESSEL_NY];
    if (!PlVesselConsistentRate(&s->V[b], yb, NULL, NULL, ypb))
      memcpy(yp + s->moff + PL_VESSEL_NY * b, ypb, sizeof(double) * PL_VESSEL_V); /* r', q' */
  }
}

static int BuildPattern(PlSysDyn s)
{
  double *y = calloc((size_t)s->n, sizeof(double)), *yp = calloc((size_t)s->n, sizeof(double)),
         *F = calloc((size_t)s->n, sizeof(double));
  int rc = !y || !yp || !F;
  if (!rc) {
    memcpy(y, N_VGetArrayPointer(s->y), sizeof(double) * (size_t)s->n);
    s->recording = 1;
    s->nrec = 0;
    PlSysDynEval(s, 0.0, y, yp, 1.0, F, 1);
    s->recording = 0;
    rc = s->domain_error == 2;
  }
  /* the recorded (row, column) entries in compressed columns: bucketed by column (a counting
   * sort, linear in the entries), each column's rows sorted and their repeats dropped */
  long *start = NULL;
  int *rows = NULL;
  if (!rc) {
    start = calloc((size_t)s->n + 1, sizeof(long));
    rows = malloc(sizeof(int) * (size_t)(s->nrec > 0 ? s->nrec : 1));
    s->colptr = calloc((size_t)s->n + 1, sizeof(sunindextype));
    s->rowind = malloc(sizeof(sunindextype) * (size_t)(s->nrec > 0 ? s->nrec : 1));
    rc = !start || !rows || !s->colptr || !s->rowind;
  }
  if (!rc) {
    for (long k = 0; k < s->nrec; ++k) start[s->rec[2 * k + 1] + 1]++;
    for (int c = 0; c < s->n; ++c) start[c + 1] += start[c];
    for (long k = 0; k < s->nrec; ++k) { /* colptr counts the column's entries placed so far */
      const int c = s->rec[2 * k + 1];
      rows[start[c] + s->colptr[c + 1]++] = s->rec[2 * k];
    }
    long nz = 0;
    for (int c = 0; c < s->n; ++c) {
      int *col = rows + start[c];
      const long m = start[c + 1] - start[c];
      for (long k = 1; k < m; ++k) { /* insertion sort: a column holds a few dozen rows, recorded
                                        nearly in order (the elements' and nodes' loops run down the line) */
        const int r = col[k];
        long j = k;
        for (; j > 0 && col[j - 1] > r; --j) col[j] = col[j - 1];
        col[j] = r;
      }
      s->colptr[c + 1] = 0;
      for (long k = 0; k < m; ++k)
        if (k == 0 || col[k] != col[k - 1]) {
          s->rowind[nz++] = col[k];
          s->colptr[c + 1]++;
        }
    }
    for (int c = 0; c < s->n; ++c) s->colptr[c + 1] += s->colptr[c];
    s->nnz = nz;
  }
  free(start);
  free(rows);
  free(s->rec);
  s->rec = NULL;
  s->caprec = s->nrec = 0;
  free(y);
  free(yp);
  free(F);
  return rc;
}

/* The parts of the assembly on K ranks: the graph of components (each line's elements in a
 * chain, an end element joined to its free point or to the bodies' block), weighted by cost
 * (an element 10, a free point 2, the bodies' block 10 per body), cut by METIS on rank 0 and
 * broadcast. Returns 0, or 1 out of memory or METIS failed. */
static int SetUpParts(PlSysDyn s)
{
  const PlModel *m = s->m;
  int nv = 0;
  for (int l = 0; l < s->nl; ++l) {
    s->voff[l] = nv;
    nv += s->d[l]->sp->mesh.nelements;
  }
  for (int k = 0; k < m->npoints; ++k) s->vpt[k] = s->poff[k] >= 0 ? nv++ : -1;
  s->vbody = m->nbodies > 0 ? nv++ : -1;
  s->nv = nv;
  for (int a = 0; a < s->nat; ++a)
    s->at[a].vert = s->voff[s->at[a].l] + (s->at[a].k ? s->d[s->at[a].l]->sp->mesh.nelements - 1 : 0);
  s->owner = calloc((size_t)nv, sizeof(int));
  if (!s->owner) return 1;
  if (s->size < 2) return 0;
  int rc = 0;
  if (s->rank == 0) {
    /* edges (both directions), then compressed rows without duplicates */
    int ne = 0, cap = 2 * nv + 8 * (s->nl > 0 ? s->nl : 1);
    int *E = malloc(sizeof(int) * 2 * (size_t)cap), *xadj = calloc((size_t)nv + 1, sizeof(int)),
        *adj = malloc(sizeof(int) * (size_t)cap), *w = malloc(sizeof(int) * (size_t)nv);
    rc = !E || !xadj || !adj || !w;
    if (!rc) {
#define EDGE(a, b) (E[2 * ne] = (a), E[2 * ne + 1] = (b), ++ne, E[2 * ne] = (b), E[2 * ne + 1] = (a), ++ne)
      for (int l = 0; l < s->nl; ++l) {
        const int nel = s->d[l]->sp->mesh.nelements;
        for (int e = 0; e + 1 < nel; ++e) EDGE(s->voff[l] + e, s->voff[l] + e + 1);
        for (int e = 0; e < nel; ++e) w[s->voff[l] + e] = 10;
      }
      for (int a = 0; a < s->nat; ++a) {
        const Attach *A = &s->at[a];
        EDGE(A->vert, A->point >= 0 ? s->vpt[A->point] : s->vbody);
      }
#undef EDGE
      for (int k = 0; k < m->npoints; ++k)
        if (s->vpt[k] >= 0) w[s->vpt[k]] = 2;
      if (s->vbody >= 0) w[s->vbody] = 10 * m->nbodies;
      qsort(E, (size_t)ne, sizeof(int) * 2, CompareInt2); /* by the second entry, then the first */
      int na = 0;
      for (int k = 0; k < ne; ++k) {
        if (k > 0 && E[2 * k] == E[2 * k - 2] && E[2 * k + 1] == E[2 * k - 1]) continue;
        adj[na++] = E[2 * k];
        xadj[E[2 * k + 1] + 1]++;
      }
      for (int v = 0; v < nv; ++v) xadj[v + 1] += xadj[v];
      rc = PlPartitionGraph(nv, xadj, adj, w, s->size, s->owner, &s->edge_cut);
    }
    free(E), free(xadj), free(adj), free(w);
  }
  MPI_Bcast(&rc, 1, MPI_INT, 0, s->comm);
  if (!rc) {
    MPI_Bcast(s->owner, nv, MPI_INT, 0, s->comm);
    MPI_Bcast(&s->edge_cut, 1, MPI_INT, 0, s->comm);
  }
  return rc;
}

void PlSysDynGetParts(const PlSysDyn s, PlSysDynParts *parts)
{
  memset(parts, 0, sizeof *parts);
  parts->ranks = s->size;
  parts->edge_cut = s->edge_cut;
  for (int l = 0; l < s->nl; ++l)
    for (int e = 0; e < s->d[l]->sp->mesh.nelements; ++e)
      if (s->owner[s->voff[l] + e] < 64) parts->elements[s->owner[s->voff[l] + e]]++;
  for (int k = 0; k < s->m->npoints; ++k)
    if (s->vpt[k] >= 0 && s->owner[s->vpt[k]] < 64) parts->points[s->owner[s->vpt[k]]]++;
  if (s->vbody >= 0 && s->owner[s->vbody] < 64) parts->bodies[s->owner[s->vbody]] += s->m->nbodies;
}

void PlSysDynSetSplit(PlSysDyn s, int split) { s->nosplit = !split; }

/* IDA's error weights w_i = 1 / (rtol |y_i| + atol_i), in one vectorised pass: the bits of
 * IDA's own IDASVtolerances weights (|y|, rtol |y| + atol, its minimum, the reciprocal: four
 * passes). Every atol_i is positive (the schema's ranges, the set-up's constants), so the
 * minimum's test for a weight that is not positive cannot fail and is left out. A body's
 * translational velocity's weights are then multiplied by vbody_w (PlSysDynCreate: its error
 * counts as in a model of that body alone). */
static int ErrorWeights(N_Vector yy, N_Vector ew, void *ud)
{
  const PlSysDyn s = ud;
  const double *restrict y = N_VGetArrayPointer(yy), *restrict at = N_VGetArrayPointer(s->atol), rt = s->rtol;
  double *restrict w = N_VGetArrayPointer(ew);
  const int n = s->n;
  for (int i = 0; i < n; ++i) w[i] = 1.0 / (rt * fabs(y[i]) + at[i]);
  for (int b = 0; b < s->m->nbodies && s->vbody_w != 1.0; ++b)
    for (int c = 0; c < 3; ++c) w[s->moff + PL_VESSEL_NY * b + PL_VESSEL_V + c] *= s->vbody_w;
  s->snorm.ewt = w; /* the weights the strain norm goes with (PlStrainNorm) */
  return 0;
}

static int IdaRes(realtype t, N_Vector yy, N_Vector yp, N_Vector rr, void *ud)
{
  PlSysDyn s = ud;
  return PlSysDynEval(s, t, N_VGetArrayPointer(yy), N_VGetArrayPointer(yp), 0.0, N_VGetArrayPointer(rr), 0) ? 1 : 0;
}

/* IDA's Newton convergence coefficient (see PlSysDynCreate) */
static const double kNewtonCoefficient = 0.1;
static const double kWorkAtol = 1.0e-6; /* [J] the work integrals' absolute tolerance */

static int IdaJac(realtype t, realtype cj, N_Vector yy, N_Vector yp, N_Vector rr, SUNMatrix Jm, void *ud, N_Vector t1,
                  N_Vector t2, N_Vector t3)
{
  (void)rr, (void)t1, (void)t2, (void)t3;
  PlSysDyn s = ud;
  s->val = SUNSparseMatrix_Data(Jm);
  const int bad = PlSysDynEval(s, t, N_VGetArrayPointer(yy), N_VGetArrayPointer(yp), cj, NULL, 1);
  s->nls_ss = 20.0; /* a new matrix: no rate known */
  IDAGetNumSteps(s->ida, &s->jac_step);
  return bad == 3 ? -1 : bad ? 1 : 0;
}

/* IDA's Newton convergence test, with the iteration matrix renewed at least every
 * kMatrixAge steps. IDA's own test accepts the corrector when ss |d| <= tol (|d| the weighted
 * RMS norm of the Newton update, ss = rate / (1 - rate) from the updates' ratio, 20 right
 * after a new matrix), and it carries ss from step to step: a step whose first update is
 * accepted takes the rate of some earlier step. IDA renews the matrix only when cj moves by
 * 25 % or Newton fails, so on the 5.4.3 J-lay one matrix served 34 steps on average and ss
 * came from steps long past; correctors that had not converged passed, and since |d| is a mean
 * over every unknown, their error could sit at a few unknowns: the top element's strain. The
 * top tension then missed a reference (rtol 1e-7) by up to 3.35 % at isolated output times
 * (0.32 % RMS) at the default tolerances, 3.3 to 3.6 % with Newton coefficients 0.33 to 0.01. With
 * the matrix renewed every 20 steps (as the one-line integrator did, whose figures were 0.35 %
 * and 0.10 %), ss is measured afresh at least that often: 0.34 % and 0.093 %, with 976 steps
 * and 59 matrices instead of 996 and 29 (at 5 steps: 0.30 %, 203 matrices). Renewal is asked
 * of the Newton solver at the start of a step whose matrix is older (NewtonSolve: its
 * callLSetup set), so no iteration is spent on the old matrix. At 740 nodes, without the renewal the
 * top tension spikes by up to 9.3 % at isolated output times (bench/README.md, the fourth round):
 * tests/check_tension_accuracy.py guards it. */
static const long kMatrixAge = 20;

static int NewtonTest(SUNNonlinearSolver NLS, N_Vector ycor, N_Vector del, realtype tol, N_Vector ewt, void *ud)
{
  (void)ycor;
  PlSysDyn s = ud;
  int m = 0;
  SUNNonlinSolGetCurIter(NLS, &m);
  double delnrm = N_VWrmsNorm(del, ewt);
  if (m == 0) {
    s->nls_oldnrm = delnrm;
    if (delnrm <= 1e-4 * tol) return SUN_NLS_SUCCESS;
  } else {
    const double rate = pow(delnrm / s->nls_oldnrm, 1.0 / m);
    if (rate > 0.9) return SUN_NLS_CONV_RECVR;
    s->nls_ss = rate / (1.0 - rate);
  }
  return s->nls_ss * delnrm <= tol ? SUN_NLS_SUCCESS : SUN_NLS_CONTINUE;
}

/* IDA's Newton solve of a step (SUNNonlinSolSolve_Newton), with a new iteration matrix first
 * when the current one is kMatrixAge steps old (mem is IDA's memory). */
static int NewtonSolve(SUNNonlinearSolver NLS, N_Vector y0, N_Vector ycor, N_Vector w, realtype tol,
                       booleantype callLSetup, void *mem)
{
  void *ud = NULL;
  long nst = 0;
  IDAGetUserData(mem, &ud);
  IDAGetNumSteps(mem, &nst);
  const PlSysDyn s = ud;
  if (s && nst - s->jac_step >= kMatrixAge) callLSetup = SUNTRUE;
  return SUNNonlinSolSolve_Newton(NLS, y0, ycor, w, tol, callLSetup, mem);
}

/* *pos = the positions in the pattern's values of the listed entries of line l's elements
 * (node 0: eent, entries of stride 3, row and column offsets at 1 and 2) or nodes (node 1: nent,
 * stride 2, at 0 and 1), count of them, nlist entries each; -1 for an item off the list path
 * (PlSysDynEval then takes the general loop: the pattern's recording takes it for every item,
 * which visits the same entries). An entry of a listed item that is not in the pattern is a
 * bug. */
static PetscErrorCode ListPositions(PlSysDyn s, int l, int node, int count, const int *list, int nlist, int stride,
                                    int **pos)
{
  const PlDynLine d = s->d[l];
  const int base = s->loff[l], ro = stride - 2;
  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1((size_t)count * nlist + 1, pos));
  for (int e = 0; e < count; ++e) {
    const int on = node ? NodeListed(s, d, base, e) : ElementListed(s, d, base, e), row0 = base + e * s->ndd;
    for (int k = 0; k < nlist; ++k) {
      const int *q = list + stride * k, p = on ? Position(s, row0 + q[ro], row0 + q[ro + 1]) : -1;
      PetscCheck(!on || p >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s %d's entry %d is not in the pattern",
                 node ? "node" : "element", e, k);
      (*pos)[(size_t)e * nlist + k] = p;
    }
  }
  PetscFunctionReturn(0);
}

/* Each body's RAO motion and wave excitation in the sea s->waves (pipelay/rao.h): the sea's
 * linear components, the body's initial pose, the sea's ramp. */
static PetscErrorCode RaoSetUp(PlSysDyn s)
{
  const PlModel *m = s->m;
  int any = 0;
  for (int b = 0; b < m->nbodies; ++b) any |= m->bodies[b].rao.nh > 0 || m->bodies[b].excitation.nh > 0;
  if (!any) return 0;
  PlWavesInfo info;
  PlWavesGetInfo(s->waves, &info);
  PetscCheck(!info.stream, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
             "a body's RAO motion or excitation needs a linear sea (a stream-function wave is not a sum of components)");
  const int n = info.n_components;
  double *c = malloc(sizeof(double) * 5 * (size_t)(n > 0 ? n : 1));
  s->rao = calloc((size_t)m->nbodies, sizeof *s->rao);
  s->xi = calloc((size_t)m->nbodies, sizeof *s->xi);
  s->exc = calloc((size_t)m->nbodies, sizeof *s->exc);
  PetscCheck(c && s->rao && s->xi && s->exc, PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory for the bodies' RAO motion");
  for (int i = 0; i < n; ++i) PlWavesComponent(s->waves, i, c + i, c + n + i, c + 2 * n + i, c + 3 * n + i, c + 4 * n + i);
  for (int b = 0; b < m->nbodies; ++b) {
    const PlVesselModel *v = &m->bodies[b];
    if (v->rao.nh > 0)
      PetscCheck(s->rao[b] = PlRaoMotionCreate(&v->rao, n, c, c + n, c + 2 * n, c + 3 * n, c + 4 * n, v->position,
                                               v->rpy[2], m->sea.ramp_time),
                 PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory for the bodies' RAO motion");
    if (v->excitation.nh > 0)
      PetscCheck(s->exc[b] = PlRaoMotionCreate(&v->excitation, n, c, c + n, c + 2 * n, c + 3 * n, c + 4 * n,
                                               v->position, v->rpy[2], m->sea.ramp_time),
                 PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory for the bodies' wave excitation");
  }
  free(c);
  return 0;
}

PetscErrorCode PlSysDynCreate(PlLines L, const PlLinesReport *rep, PlSysDyn *out)
{
  const PlModel *m = PlLinesModel(L);
  PlSysDyn s;
  PetscFunctionBeginUser;
  *out = NULL;
  PetscCall(PetscCalloc1(1, &s));
  s->m = m;
  s->L = L;
  s->nl = m->nlines;
  s->nbp = PlModelBreakpoints(m, &s->bp);
  PetscCheck(s->nbp >= 0, PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory");
  s->bp_done = -INFINITY;
  s->tstop = INFINITY;
  {
    const int nl = m->nlines > 0 ? m->nlines : 1, npt = m->npoints > 0 ? m->npoints : 1;
    const int nb = m->nbodies > 0 ? m->nbodies : 1, nj = m->njoints > 0 ? m->njoints : 1;
    PetscCall(PetscCalloc1(nl, &s->d));
    PetscCall(PetscCalloc1(nl, &s->loff));
    PetscCall(PetscCalloc1(nl, &s->epos));
    PetscCall(PetscCalloc1(nl, &s->npos));
    PetscCall(PetscCalloc1(nl, &s->end_force));
    PetscCall(PetscCalloc1(nl, &s->voff));
    PetscCall(PetscCalloc1(2 * nl, &s->at));
    PetscCall(PetscCalloc1(npt, &s->poff));
    PetscCall(PetscCalloc1(npt, &s->pxs));
    PetscCall(PetscCalloc1(npt, &s->vpt));
    PetscCall(PetscCalloc1(nb, &s->V));
    PetscCall(PetscCalloc1(nb, &s->zoff));
    PetscCall(PetscCalloc1(nb, &s->dp_on));
    PetscCall(PetscCalloc1(nb, &s->dp_run));
    PetscCall(PetscCalloc1(nb, &s->hold));
    PetscCall(PetscCalloc1(nb, &s->hold_eta));
    PetscCall(PetscCalloc1(nb, &s->held_load));
    PetscCall(PetscCalloc1(nb, &s->tau_dp));
    PetscCall(PetscCalloc1(nb, &s->tb));
    PetscCall(PetscCalloc1(nb, &s->lg));
    PetscCall(PetscCalloc1(nb, &s->env));
    PetscCall(PetscCalloc1(nb, &s->th));
    PetscCall(PetscCalloc1(nb, &s->lines_load));
    PetscCall(PetscCalloc1(nj, &s->jt));
  }
  if (m->sea.ntrains > 0) { /* the one sea every load asks (built once; the loader has built it before) */
    char msg[PL_ERRMSG_MAX];
    s->waves = PlWavesCreate(m->water_depth, m->gravity, m->water_density, m->sea.stretching, m->sea.trains,
                             m->sea.ntrains, msg, sizeof msg);
    PetscCheck(s->waves, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "%s", msg);
    PetscCheck(!PlWavesSetRamp(s->waves, m->sea.ramp_time), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
               "waves.ramp_time %g s: a ramp needs a linear sea", m->sea.ramp_time);
    PetscCall(RaoSetUp(s));
  }
  s->comm = PlLinesComm(L);
  PetscCallMPI(MPI_Comm_rank(s->comm, &s->rank));
  PetscCallMPI(MPI_Comm_size(s->comm, &s->size));
  int n = 0;
  for (int l = 0; l < s->nl; ++l) {
    PetscCall(PlDynLineSetUp(PlLinesProblem(L, l), &s->d[l]));
    const PlDynLine d = s->d[l];
    s->loff[l] = n;
    n += d->sp->mesh.nnodes * d->ndd;
    s->ndd = d->ndd;
    s->iV = d->iV;
    s->iW = d->iW;
    s->iA = d->iA;
    s->np = d->np;
  }
  if (s->waves) { /* below the crests and the widest wetting band (a Morison element's d_o or d_h,
                     its band's width) a point is wet whatever eta is: the sea skips eta there */
    double band = 0.0;
    for (int l = 0; l < s->nl; ++l)
      for (int e = 0; e < s->d[l]->sp->mesh.nelements; ++e)
        band = fmax(band, fmax(s->d[l]->morison[e].d_o, s->d[l]->morison[e].d_h));
    PetscCheck(!PlWavesSetSurfaceBand(s->waves, band), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "the wetting band %g m", band);
  }
  for (int k = 0; k < m->npoints; ++k) {
    s->poff[k] = m->points[k].fixed ? -1 : n;
    if (!m->points[k].fixed) n += 6;
    memcpy(s->pxs[k], rep->point_position[k], sizeof s->pxs[k]);
  }
  PlMultibodyFromModel(m, s->V, s->jt, s->tb, s->lg, &s->mb);
  s->moff = n;
  s->nmb = m->nbodies ? PlMultibodySize(&s->mb) : 0;
  n += s->nmb;
  for (int b = 0; b < m->nbodies; ++b) { /* the DP controllers' integral states */
    s->zoff[b] = m->bodies[b].has_dp ? n : -1;
    if (m->bodies[b].has_dp) {
      n += 6;
      s->dp_on[b] = s->dp_run[b] = m->bodies[b].dp;
      s->dp_on[b].start_time = -1.0e30;
      s->dp_on[b].ramp_time = 0.0;
    }
  }
  /* the work integrals W' = P (PL_WORK_*: states that nothing depends on; energy.csv's balance):
   * bodies without lines carry their first three (their loads, their hulls' drag, their damping) */
  s->woff = s->nl > 0 || m->nbodies > 0 ? n : -1;
  s->nwork = s->nl > 0 ? PL_WORK_N : s->woff >= 0 ? PL_WORK_N_BODIES : 0;
  n += s->nwork;
  s->n = n;
  PetscCall(PetscMalloc1(n, &s->redir));
  PetscCall(PetscMalloc1(n, &s->rowforce));
  PetscCall(PetscMalloc1(n, &s->Fwork));
  PetscCall(PetscMalloc1((size_t)4 * s->ndd * s->ndd, &s->Ke));
  for (int i = 0; i < n; ++i) s->redir[i] = -1;
  if (s->nmb) PetscCall(PetscMalloc1((size_t)s->nmb * s->nmb, &s->Jmb));
  /* the attachments: an end on a free point or a body (a fixed point stays a held end) */
  for (int l = 0; l < s->nl; ++l)
    for (int k = 0; k < 2; ++k) {
      const PlEnd *E = &m->lines[l].ends[k];
      const int pt = E->point >= 0 && !m->points[E->point].fixed ? E->point : -1;
      if (pt < 0 && E->body < 0) continue;
      PlDynEnd *DE = &s->d[l]->ends[k];
      for (int c = 0; c < 3; ++c) DE->tr[c] = DE->rp[c] = false; /* the master's rows, not a hold */
      DE->rot = 0;
      Attach *A = &s->at[s->nat];
      A->l = l;
      A->k = k;
      A->row = s->loff[l] + DE->node * s->ndd;
      A->point = pt;
      A->body = pt >= 0 ? -1 : E->body;
      memcpy(A->a, E->at, sizeof A->a);
      A->fixed = A->body >= 0 && E->connection == PL_HANGOFF_FIXED;
      memcpy(A->T, E->body_frame, sizeof A->T);
      for (int c = 0; c < 3; ++c) {
        s->redir[A->row + c] = -2;
        s->redir[A->row + s->iV + c] = 6 * s->nat + c;
        if (A->fixed) s->redir[A->row + s->iW + c] = 6 * s->nat + 3 + c;
      }
      if (A->fixed)
        for (int r = 3; r < s->iV; ++r) s->redir[A->row + r] = -2;
      s->nat++;
    }
  { /* the element's and the node's entry lists (the filters' pairs, in their loops' order) */
    const int ndd = s->ndd, n2 = 2 * ndd;
    PetscCall(PetscMalloc1((size_t)3 * 2 * ndd * n2, &s->eent));
    PetscCall(PetscMalloc1((size_t)2 * ndd * ndd, &s->nent));
    s->neent = s->nnent = 0;
    for (int a = 0; a < 2; ++a)
      for (int r = s->iV; r < ndd; ++r)
        for (int col = 0; col < n2; ++col)
          if (ElementEntry(s, r, col % ndd)) {
            int *q = s->eent + 3 * s->neent++;
            q[0] = (a * ndd + r) * n2 + col, q[1] = a * ndd + r, q[2] = col;
          }
    for (int r = 0; r < ndd; ++r)
      for (int col = 0; col < ndd; ++col)
        if (NodeEntry(s, r, col)) s->nent[2 * s->nnent] = r, s->nent[2 * s->nnent++ + 1] = col;
  }
  PetscCall(PetscCalloc1(n, &s->plain));
  for (int l = 0; l < s->nl; ++l)
    for (int i = 0; i < s->d[l]->sp->mesh.nnodes; ++i) {
      const int row0 = s->loff[l] + i * s->ndd;
      s->plain[row0] = 1;
      for (int r = 0; r < s->ndd; ++r) s->plain[row0] &= s->redir[row0 + r] == -1;
    }
  /* IDA */
  PetscCheck(SUNContext_Create(NULL, &s->ctx) == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "SUNContext_Create failed");
  s->y = N_VNew_Serial(n, s->ctx);
  if (s->y) N_VEnableFusedOps_Serial(s->y, SUNTRUE); /* IDA clones y: its predictor and updates fused */
  s->yp = N_VNew_Serial(n, s->ctx);
  s->atol = N_VNew_Serial(n, s->ctx);
  PetscCheck(s->y && s->yp && s->atol, PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory");
  PlVectorFastOps(s->y); /* before IDAInit, which clones y */
  PlVectorFastOps(s->yp);
  PlVectorFastOps(s->atol);
  StartState(s, rep, N_VGetArrayPointer(s->y), N_VGetArrayPointer(s->yp));
  for (int a = 0; a < s->nat; ++a)
    if (s->at[a].fixed) FixedTieMap(s, &s->at[a], N_VGetArrayPointer(s->y));
  for (int i = 0; i < n; ++i) s->rowforce[i] = 1;
  for (int l = 0; l < s->nl; ++l)
    for (int i = 0; i < s->d[l]->sp->mesh.nnodes; ++i)
      for (int r = 0; r < s->ndd; ++r)
        if (r < s->iV || (s->iA >= 0 && r >= s->iA)) s->rowforce[s->loff[l] + i * s->ndd + r] = 0; /* kinematic */
  for (int k = 0; k < m->npoints; ++k)
    if (s->poff[k] >= 0)
      for (int c = 0; c < 3; ++c) s->rowforce[s->poff[k] + c] = 0;
  for (int a = 0; a < s->nat; ++a) /* a fixed end's angular-velocity constraint [rad/s] */
    for (int c = 0; c < 3 && s->at[a].fixed; ++c) s->rowforce[s->at[a].row + s->iW + c] = 0;
  for (int b = 0; b < m->nbodies; ++b)
    for (int r = 0; r < PL_VESSEL_V; ++r) s->rowforce[s->moff + PL_VESSEL_NY * b + r] = 0;
  for (int k = s->moff + PL_VESSEL_NY * m->nbodies; k < n; ++k) s->rowforce[k] = 0; /* joints' and DP's rows */
  const PlDynamicSettings *ds = &m->analysis.dynamic;
  double *at = N_VGetArrayPointer(s->atol), axmin = ds->atol_position;
  for (int l = 0; l < s->nl; ++l) {
    const PlProblem p = s->d[l]->sp;
    const int ne = p->mesh.nelements;
    for (int i = 0; i < p->mesh.nnodes; ++i) {
      double Lmin = p->elements[i < ne ? i : ne - 1].L;
      if (i > 0) Lmin = fmin(Lmin, p->elements[i - 1].L);
      const double ax = ds->atol_strain > 0.0 ? fmin(ds->atol_position, ds->atol_strain * Lmin) : ds->atol_position;
      axmin = fmin(axmin, ax);
      for (int r = 0; r < s->ndd; ++r)
        at[s->loff[l] + i * s->ndd + r] = r < 3 || (s->iA >= 0 && r >= s->iA) ? ax
                                          : r < s->iV                        ? ds->atol_rotation
                                          : r < s->iW                        ? ds->atol_velocity
                                                                             : ds->atol_angular_velocity;
    }
  }
  for (int k = 0; k < m->npoints; ++k)
    if (s->poff[k] >= 0)
      for (int c = 0; c < 6; ++c) at[s->poff[k] + c] = c < 3 ? axmin : ds->atol_velocity;
  for (int b = 0; b < m->nbodies; ++b)
    for (int k = 0; k < PL_VESSEL_NY; ++k)
      at[s->moff + PL_VESSEL_NY * b + k] = k < PL_VESSEL_Q   ? ds->atol_position
                                          : k < PL_VESSEL_V ? ds->atol_rotation
                                          : k < PL_VESSEL_W ? ds->atol_velocity
                                                            : ds->atol_angular_velocity;
  for (int k = s->moff + PL_VESSEL_NY * m->nbodies; k < s->moff + s->nmb; ++k) at[k] = ds->atol_reaction; /* multipliers */
  for (int k = s->moff + s->nmb; k < n; ++k) at[k] = ds->atol_position; /* DP integral states [m s, rad s] */
  /* The work integrals' absolute tolerance: bodies alone kWorkAtol (in the error test); with
   * lines the position tolerance times the lines' reference force (their weight and end loads,
   * the statics' force_scale), the work a position error of atol does, and out of the error
   * test (below), so that the energy accounting leaves the steps to the motion: their error is
   * the quadrature error of IDA's formula on the power of the integrated motion. */
  double fref = 0.0;
  for (int l = 0; l < s->nl; ++l) fref += s->d[l]->sp->force_scale;
  for (int k = 0; k < s->nwork; ++k) at[s->woff + k] = s->nl > 0 ? ds->atol_position * fref : kWorkAtol;
  /* The rods' strains in IDA's error norm (PlStrainNorm, sundials_fast.h). A line's effective
   * tension and shear forces are its elements' stiffnesses times their strains, which are
   * differences of the nodes' positions over the element length (EA / L is about 1e9 N/m for a
   * steel pipe with 2 m elements). IDA's weighted RMS norm of the components does not see such a
   * difference: the weights rtol |u| + atol let a node that has moved 10 m carry 1e-3 m of error,
   * and an error at a few nodes is averaged over all of them; on stiff lines the tension at the
   * defaults had one-sample spikes of 5 to 20 %. Each element e therefore adds its strain error,
   * the difference of its end positions over its length, against atol_strain. (The strain along
   * the chord alone is not enough: with only that the spikes stayed, 9 to 10 %; nor the strain
   * rate, whose stick-slip and contact ringing on a laid pipe cost 25 times the steps.) */
  {
    int np = 0;
    for (int l = 0; l < s->nl; ++l) np += s->d[l]->sp->mesh.nelements;
    s->sn_idx = malloc(sizeof(int) * (size_t)(2 * np + 1));
    s->sn_winv = malloc(sizeof(double) * (size_t)(np + 1));
    PetscCheck(s->sn_idx && s->sn_winv, PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory");
    int q = 0;
    for (int l = 0; l < s->nl; ++l) {
      const PlProblem p = s->d[l]->sp;
      /* An element far shorter than its line's mean (the growing top element of a pay-out, a
       * split at an attachment) is held as one of half the mean length: its strain is a small
       * part of the line's tension and would otherwise set every step. */
      double Lmean = 0.0;
      for (int e = 0; e < p->mesh.nelements; ++e) Lmean += p->elements[e].L / p->mesh.nelements;
      for (int e = 0; e < p->mesh.nelements; ++e, ++q) {
        s->sn_idx[q] = s->loff[l] + e * s->ndd;
        s->sn_idx[np + q] = s->loff[l] + (e + 1) * s->ndd;
        s->sn_winv[q] = 1.0 / (ds->atol_strain * fmax(p->elements[e].L, 0.5 * Lmean));
      }
    }
    s->snorm = (PlStrainNorm){.ctx = s->ctx, .npairs = np, .a = s->sn_idx, .b = s->sn_idx + np, .winv = s->sn_winv};
    if (np > 0) {
      PetscCheck(!PlStrainNormRegister(&s->snorm), PETSC_COMM_SELF, PETSC_ERR_LIB,
                 "more than 64 simulations at once in one process");
      s->sn_registered = 1;
    }
  }
  /* A body's translational velocity in the norm. IDA tests the RMS of the weighted errors
   * over the norm's n + 3 n_e entries (the unknowns and the elements' strain terms above). With
   * lines a body's 13 unknowns are a few of thousands (three 50-element moorings and three
   * bodies: 2512), so an error of one of them counts sqrt(2512 / 13) = 14 times less than in
   * a model of that body alone, and its velocity may be 14 atol_velocity off before a step
   * fails. Its translational velocity is what its loads on the lines and joints follow (the
   * inertial force M dv/dt they take), and a body joined to another carries that body's angular-rate error times
   * the lever arm between them (a rotor 90 m above a spar's O_b: v_rotor = v_spar + w_spar x
   * r, so 1e-3 m/s there is 1.1e-5 rad/s of the spar's rocking and yawing). Its three weights
   * are multiplied by sqrt((n + 3 n_e) / 13), so that its error counts as in the RMS of that
   * body's own 13 unknowns: held to atol_velocity + rtol |v| as declared, whatever the lines'
   * size. Its pose and angular velocity keep the plain weights: an angular-rate error reaches
   * the joints as the translational velocity of the bodies joined to it (above), which is
   * weighed; the pose is the integral of the velocities, and a spinning body's attitude at
   * rtol |q| (a phase over every turn) would set the steps for no gain in the loads. Without
   * a line (no strain terms) every unknown is a body's or a point's and the norm is left as it
   * is. */
  s->vbody_w = s->snorm.npairs > 0 ? sqrt((double)(n + 3 * s->snorm.npairs) / PL_VESSEL_NY) : 1.0;
  for (int k = 0; k < n; ++k) /* ErrorWeights relies on it */
    PetscCheck(at[k] > 0.0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "absolute tolerance %d is %g, not positive", k, at[k]);
  PetscCheck(!PlSysRollersCreate(s), PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory (the stinger's rollers)");
  PetscCheck(!BuildPattern(s), PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory building the system's matrix pattern");
  for (int l = 0; l < s->nl; ++l) { /* the listed entries' positions in the pattern, found once */
    PetscCall(ListPositions(s, l, 0, s->d[l]->sp->mesh.nelements, s->eent, s->neent, 3, &s->epos[l]));
    PetscCall(ListPositions(s, l, 1, s->d[l]->sp->mesh.nnodes, s->nent, s->nnent, 2, &s->npos[l]));
  }
  PetscCheck(!SetUpParts(s), s->comm, PETSC_ERR_LIB, "cannot partition the system over %d ranks (METIS)", s->size);
  PetscCall(PetscMalloc1((size_t)n + 6 * (s->nl + 2 * m->nbodies) + PL_WORK_N + 3, &s->red));
  s->rtol = ds->rtol;
  s->A = SUNSparseMatrix(n, n, s->nnz, CSC_MAT, s->ctx);
  PetscCheck(s->A, PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory");
  PlSparseFastOps(s->A); /* its pattern set here, once: IDA's zeroing keeps it */
  memcpy(SUNSparseMatrix_IndexPointers(s->A), s->colptr, sizeof(sunindextype) * ((size_t)n + 1));
  memcpy(SUNSparseMatrix_IndexValues(s->A), s->rowind, sizeof(sunindextype) * (size_t)s->nnz);
  { /* the lines' translational kinematics u_c' - v_c = 0, condensed where their rows hold only
       those two entries (away from held and attached ends) */
    int nc = 0, *cr, *cv;
    for (int l = 0; l < s->nl; ++l) nc += 3 * s->d[l]->sp->mesh.nnodes;
    PetscCall(PetscMalloc2((size_t)nc + 1, &cr, (size_t)nc + 1, &cv));
    nc = 0;
    for (int l = 0; l < s->nl; ++l)
      for (int i = 0; i < s->d[l]->sp->mesh.nnodes; ++i)
        for (int c = 0; c < 3; ++c) {
          cr[nc] = s->loff[l] + i * s->ndd + c;
          cv[nc++] = s->loff[l] + i * s->ndd + s->iV + c;
        }
    s->LS = PlCondensedKLU(s->A, cr, cv, nc, NULL, s->ctx);
    PetscCall(PetscFree2(cr, cv));
  }
  s->ida = IDACreate(s->ctx);
  PetscCheck(s->LS && s->ida, PETSC_COMM_SELF, PETSC_ERR_LIB, "cannot create IDA with KLU");
  PetscCheck(IDAInit(s->ida, IdaRes, 0.0, s->y, s->yp) == IDA_SUCCESS && IDAWFtolerances(s->ida, ErrorWeights) ==
               IDA_SUCCESS && IDASetUserData(s->ida, s) == IDA_SUCCESS &&
               IDASetLinearSolver(s->ida, s->LS, s->A) == IDA_SUCCESS && IDASetJacFn(s->ida, IdaJac) == IDA_SUCCESS,
             PETSC_COMM_SELF, PETSC_ERR_LIB, "cannot set up IDA for the system of lines");
  { /* IDA writes its divided differences phi[j], j >= 2, only as the order reaches them (IDAInit
     * sets phi[0] = y and phi[1] = y'), and reads none before it has written it; zeroed here, the
     * slots a run has not reached are defined bytes in a checkpoint (PlSysDynIntegratorSave),
     * restored as they were */
    const IDAMem im = (IDAMem)s->ida;
    for (int j = 2; j <= im->ida_maxord_alloc; ++j) N_VConst(0.0, im->ida_phi[j]);
  }
  /* Newton's stopping test: IDA's modified Newton keeps one KLU factorisation for as long as
   * cj is steady (15 matrices in 7820 steps of the 5.4.3 J-lay at rtol 1e-9), and with its
   * default coefficient 0.33 the corrector's remaining error (a third of the error weights,
   * converging slowly on the stale matrix) reaches the accelerations through yp = cj y + ...:
   * the top's lateral load was 1 % off the one-line integrator's at rtol 1e-9 (worse than at
   * 1e-7) and a restarted run differed from the uninterrupted one by 2.7e-4 of the largest
   * moment. At 0.1: 7e-6 of the one-line result, restarts within 2.6e-5 (tests/
   * check_restart.py). */
  IDASetNonlinConvCoef(s->ida, kNewtonCoefficient);
  s->NLS = SUNNonlinSol_Newton(s->y, s->ctx); /* IDA's Newton, with NewtonSolve and NewtonTest */
  if (s->NLS) s->NLS->ops->solve = NewtonSolve;
  PetscCheck(s->NLS && IDASetNonlinearSolver(s->ida, s->NLS) == IDA_SUCCESS &&
               SUNNonlinSolSetConvTestFn(s->NLS, NewtonTest, s) == SUN_NLS_SUCCESS,
             PETSC_COMM_SELF, PETSC_ERR_LIB, "cannot set up IDA's Newton solver");
  s->nls_ss = 20.0;
  {
    /* Out of the error test (IDASetId 0, IDASetSuppressAlg): the joints' multipliers (index 2,
     * solver/multibody.c), and the velocities a line's end holds at given functions of time
     * (line_dynamics.c: a held translation's v_c, a held rotation's angular velocity), which
     * carry no integration error. A prescribed motion whose velocity jumps (a linear time
     * series: tests/models/stall_linear.yaml, the heave reversing at t = 5 s) puts that jump
     * into the held v_c, whose error estimate stays at the jump however short the step: IDA
     * cut the step to 3e-16 s there. The held positions stay in the test: they are continuous,
     * and a kink in them costs a few short steps (at 0.4 m/s: steps down to about atol/0.4),
     * while a near-jump (1 m in a microsecond) still collapses the step, which the stall test
     * of PlIdaAdvance reports. */
    s->id = N_VNew_Serial(n, s->ctx);
    PetscCheck(s->id, PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory");
    PlVectorFastOps(s->id);
    double *id = N_VGetArrayPointer(s->id);
    for (int i = 0; i < n; ++i) id[i] = 1.0;
    if (s->nmb) PlMultibodyIds(&s->mb, id + s->moff);
    for (int k = 0; k < s->nwork && s->nl > 0; ++k) id[s->woff + k] = 0.0;
    for (int l = 0; l < s->nl; ++l)
      for (int k = 0; k < 2; ++k) {
        const PlDynEnd *E = &s->d[l]->ends[k];
        double *in = id + s->loff[l] + (size_t)E->node * s->ndd;
        for (int c = 0; c < 3; ++c) {
          if (E->tr[c]) in[s->iV + c] = 0.0;
          if (E->rot == 1) in[s->iW + c] = 0.0;
        }
      }
    PetscCheck(IDASetId(s->ida, s->id) == IDA_SUCCESS, PETSC_COMM_SELF, PETSC_ERR_LIB, "IDASetId failed");
    IDASetSuppressAlg(s->ida, SUNTRUE);
  }
  IDASetMaxNumSteps(s->ida, ds->max_steps > 0 ? ds->max_steps : 1000000);
  IDASetMaxOrd(s->ida, ds->max_order);
  if (ds->max_step > 0.0) IDASetMaxStep(s->ida, ds->max_step);
  if (ds->initial_step > 0.0) IDASetInitStep(s->ida, ds->initial_step);
  IDASetMaxConvFails(s->ida, 20);
  IDASetMaxErrTestFails(s->ida, 20);
  /* No stop time at the duration: IDA steps past it and the last output is interpolated, as
   * every other (the ends' motions and the loads are defined beyond it: a time series holds
   * its last row). So the state at the run's end is a step of the sequence a longer run takes,
   * and a run continued to a longer duration (--restart) takes that run's steps. */
  *out = s;
  PetscFunctionReturn(0);
}

PetscErrorCode PlSysDynDestroy(PlSysDyn *ps)
{
  PetscFunctionBeginUser;
  PlSysDyn s = *ps;
  if (!s) PetscFunctionReturn(0);
  PlSysRollersDestroy(s);
  if (s->ida) IDAFree(&s->ida);
  if (s->NLS) SUNNonlinSolFree(s->NLS);
  if (s->LS) SUNLinSolFree(s->LS);
  if (s->LSs) SUNLinSolFree(s->LSs);
  if (s->A) SUNMatDestroy(s->A);
  if (s->y) N_VDestroy(s->y);
  if (s->yp) N_VDestroy(s->yp);
  if (s->atol) N_VDestroy(s->atol);
  if (s->id) N_VDestroy(s->id);
  if (s->sn_registered) PlStrainNormUnregister(&s->snorm);
  free(s->sn_idx);
  free(s->sn_winv);
  free(s->bp);
  if (s->ctx) SUNContext_Free(&s->ctx);
  for (int l = 0; s->d && l < s->nl; ++l) PetscCall(PlDynLineDestroy(&s->d[l]));
  PlWavesDestroy(s->waves);
  for (int b = 0; s->rao && b < s->m->nbodies; ++b) PlRaoMotionDestroy(s->rao[b]);
  for (int b = 0; s->exc && b < s->m->nbodies; ++b) PlRaoMotionDestroy(s->exc[b]);
  free(s->rao);
  free(s->exc);
  free(s->xi);
  free(s->colptr);
  free(s->rowind);
  free(s->owner);
  PetscCall(PetscFree(s->red));
  free(s->rec);
  free(s->seq);
  PetscCall(PetscFree(s->redir));
  PetscCall(PetscFree(s->plain));
  for (int l = 0; s->epos && l < s->nl; ++l) {
    PetscCall(PetscFree(s->epos[l]));
    PetscCall(PetscFree(s->npos[l]));
  }
  PetscCall(PetscFree(s->eent));
  PetscCall(PetscFree(s->nent));
  PetscCall(PetscFree(s->rowforce));
  PetscCall(PetscFree(s->Fwork));
  PetscCall(PetscFree(s->Ke));
  PetscCall(PetscFree(s->Jmb));
  PetscCall(PetscFree(s->d));
  PetscCall(PetscFree(s->loff));
  PetscCall(PetscFree(s->epos));
  PetscCall(PetscFree(s->npos));
  PetscCall(PetscFree(s->end_force));
  PetscCall(PetscFree(s->voff));
  PetscCall(PetscFree(s->at));
  PetscCall(PetscFree(s->poff));
  PetscCall(PetscFree(s->pxs));
  PetscCall(PetscFree(s->vpt));
  PetscCall(PetscFree(s->V));
  PetscCall(PetscFree(s->zoff));
  PetscCall(PetscFree(s->dp_on));
  PetscCall(PetscFree(s->dp_run));
  PetscCall(PetscFree(s->hold));
  PetscCall(PetscFree(s->hold_eta));
  PetscCall(PetscFree(s->held_load));
  PetscCall(PetscFree(s->tau_dp));
  PetscCall(PetscFree(s->tb));
  PetscCall(PetscFree(s->lg));
  PetscCall(PetscFree(s->env));
  PetscCall(PetscFree(s->th));
  PetscCall(PetscFree(s->lines_load));
  PetscCall(PetscFree(s->jt));
  PetscCall(PetscFree(s));
  *ps = NULL;
  PetscFunctionReturn(0);
}

double *PlSysDynState(PlSysDyn s) { return N_VGetArrayPointer(s->y); }
double *PlSysDynRate(PlSysDyn s) { return N_VGetArrayPointer(s->yp); }

PlDynLine PlSysDynLine(const PlSysDyn s, int l) { return s->d[l]; }
PlWaves *PlSysDynWaves(const PlSysDyn s) { return s->waves; }
const PlModel *PlSysDynModel(const PlSysDyn s) { return s->m; }
void *PlSysDynIDA(PlSysDyn s) { return s->ida; }
N_Vector PlSysDynStateVector(PlSysDyn s) { return s->y; }
N_Vector PlSysDynRateVector(PlSysDyn s) { return s->yp; }

void PlSysDynEndForce(const PlSysDyn s, int l, int e, double f[3])
{
  /* the support's force on the end node is end_force; with the end's applied dead force F they
   * hold the line's pull, -(S + F): its magnitude is the end's effective tension */
  const double *F = s->d[l]->ends[e].F;
  for (int c = 0; c < 3; ++c) f[c] = -(s->end_force[l][e][c] + F[c]);
}

void PlSysDynPoint(const PlSysDyn s, int p, const double *y, double x[6])
{
  const int o = s->poff[p];
  for (int c = 0; c < 3; ++c) {
    x[c] = o >= 0 ? y[o + c] + s->pxs[p][c] : s->pxs[p][c];
    x[3 + c] = o >= 0 ? y[o + 3 + c] : 0.0;
  }
}

void PlSysDynBodyOutput(const PlSysDyn s, int b, double t, const double *y, PlVesselOutput *o)
{
  const double *yb = y + s->moff + PL_VESSEL_NY * b;
  memset(o, 0, sizeof *o);
  PlVesselEta(yb, o->eta, NULL);
  for (int i = 0; i < 6; ++i) {
    o->nu[i] = yb[PL_VESSEL_V + i];
    o->eta_ref[i] = o->eta[i];
    o->pipe_load[i] = s->lines_load[b][i];
    o->environment[i] = s->env[b][i];
    o->thrust[i] = s->tau_dp[b][i];
    o->z[i] = s->zoff[b] >= 0 ? y[s->zoff[b] + i] : 0.0;
  }
  if (s->zoff[b] >= 0) {
    double dref[6];
    PlDPReferenceEval(&s->dp_run[b].ref, t, o->eta_ref, dref); /* (a route's guidance is the run's) */
  }
  /* the body's reported point (hang_off.point of a body alone; O_b for a body of a model of
   * lines, whose lines hang from it by their ends' at) */
  PlVesselHangOff(&s->m->bodies[b], yb, yb + PL_VESSEL_Q, o->hang_off_point, NULL);
}

void *PlSysDynStaticSummary(const PlSysDyn s, const PlLinesReport *rep) { return PlLinesSummaryBuild(s->L, rep); }

PlLines PlSysDynLines(const PlSysDyn s) { return s->L; }

void PlSysDynNodeUnknowns(const PlSysDyn s, int l, const double *y, int i0, int count, double *u)
{
  const PlDynLine d = s->d[l];
  const int nd = d->nd;
  for (int i = i0; i < i0 + count; ++i) {
    const double *yi = y + s->loff[l] + (size_t)i * s->ndd;
    for (int r = 0; r < nd; ++r) u[(size_t)(i - i0) * nd + r] = yi[r] + (r < 3 ? d->xs[3 * i + r] : 0.0);
  }
}

double *PlSysDynLineUnknowns(const PlSysDyn s, int l, const double *y, int *nnodes)
{
  const int nn = s->d[l]->sp->mesh.nnodes;
  double *u = malloc(sizeof(double) * (size_t)nn * s->d[l]->nd);
  *nnodes = nn;
  if (u) PlSysDynNodeUnknowns(s, l, y, 0, nn, u);
  return u;
}

void PlSysDynBodyPose(const PlSysDyn s, int b, const double *y, double r[3], double R[9])
{
  const double *yb = y + s->moff + PL_VESSEL_NY * b, *q = yb + PL_VESSEL_Q;
  const double nq = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  const double qn[4] = {q[0] / nq, q[1] / nq, q[2] / nq, q[3] / nq};
  memcpy(r, yb, sizeof(double) * 3);
  PlQuatToMatrix(qn, R);
}

/* The joints' reactions lambda and the bodies' accelerations nu' consistent with the poses,
 * the velocities and the rest of the state at t: the index-2 system's Newton-Euler rows and
 * the time derivative of its velocity constraint,
 *   M nu' + G^T lambda = -F_NE(nu' = 0, lambda = 0),   G nu' = -(dG/dt) nu,
 * with M = dF_NE/dnu', G^T = dF_NE/dlambda, G = dF_vel/dnu and (dG/dt) nu = dF_vel/dp p' (p
 * the poses, p' their rates in yp), read off the bodies' block of the iteration matrix at
 * c = 0 and c = 1. Writes nu' into yp, lambda into y, and mu = 0 (its value on the solution).
 * lambda is a function of the differential state, which IDA's error test controls: the
 * multipliers IDA carries (out of that test, index 2) are not, so this is how a reported
 * reaction is computed. Every rank alike (the bodies' block is assembled whole). Returns 0, 1
 * when the saddle-point matrix is singular, 2 out of memory. */
static int JointReactions(PlSysDyn s, double t, double *y, double *yp)
{
  const PlModel *m = s->m;
  const int n = s->n, nmb = s->nmb, nb = m->nbodies, nv = PL_VESSEL_NY, mo = s->moff;
  const int nlam = (nmb - nv * nb) / 2, k = 6 * nb + nlam;
  double *F = malloc(sizeof(double) * (size_t)n), *J0 = malloc(sizeof(double) * (size_t)nmb * nmb),
         *J1 = malloc(sizeof(double) * (size_t)nmb * nmb), *Fb = malloc(sizeof(double) * (size_t)nmb),
         *A = calloc((size_t)k * k, sizeof(double)), *b = calloc((size_t)k, sizeof(double));
  int *cols = malloc(sizeof(int) * (size_t)k), rc = 2;
  const int keep = s->nosplit;
  s->nosplit = 1;
  if (!F || !J0 || !J1 || !Fb || !A || !b || !cols) goto done;
  rc = 1;
  for (int bb = 0; bb < nb; ++bb)
    for (int i = 0; i < 6; ++i) yp[mo + nv * bb + PL_VESSEL_V + i] = 0.0;
  for (int i = nv * nb; i < nmb; ++i) y[mo + i] = yp[mo + i] = 0.0;
  /* F: the bodies' rows take the lines' loads from the end elements and nodes alone
   * (PlSysDynOutputLoads); the block is multibody's own (PlSysDynEval puts it as it is) */
  s->ends_only = 1;
  const int bad = PlSysDynEval(s, t, y, yp, 0.0, F, 0);
  s->ends_only = 0;
  if (bad || PlMultibodyEvaluate(&s->mb, t, y + mo, yp + mo, 0.0, Fb, J0) ||
      PlMultibodyEvaluate(&s->mb, t, y + mo, yp + mo, 1.0, Fb, J1))
    goto done;
  /* the unknowns: nu' of each body (columns of yp), then lambda of each joint (columns of y);
   * the rows: each body's Newton-Euler rows, then each joint's velocity rows (block indices) */
  int off = nv * nb, e = 0;
  for (int bb = 0; bb < nb; ++bb)
    for (int i = 0; i < 6; ++i) cols[e++] = nv * bb + PL_VESSEL_V + i;
  for (int j = 0; j < s->mb.njoints; ++j) {
    const int mj = PlJointRowCount(s->jt[j].joint.kind);
    for (int r = 0; r < mj; ++r) cols[e++] = off + r;
    off += 2 * mj;
  }
  for (int r = 0; r < k; ++r) {
    const int row = cols[r], is_ne = r < 6 * nb;
    for (int c = 0; c < k; ++c) {
      const int col = cols[c], is_acc = c < 6 * nb;
      const double j0 = J0[(size_t)row * nmb + col], j1 = J1[(size_t)row * nmb + col];
      A[(size_t)r * k + c] = is_ne ? (is_acc ? j1 - j0 : j0) : (is_acc ? j0 : 0.0);
    }
    if (is_ne) b[r] = -F[mo + row];
    else { /* -(dF_vel/dp) p' over the poses r, q of every body */
      double sum = 0.0;
      for (int bb = 0; bb < nb; ++bb)
        for (int i = 0; i < PL_VESSEL_V; ++i) sum += J0[(size_t)row * nmb + nv * bb + i] * yp[mo + nv * bb + i];
      b[r] = -sum;
    }
  }
  if (PlDenseSolveInPlace(k, A, b)) goto done;
  for (int bb = 0; bb < nb; ++bb)
    for (int i = 0; i < 6; ++i) yp[mo + nv * bb + PL_VESSEL_V + i] = b[6 * bb + i];
  for (int r = 6 * nb; r < k; ++r) y[mo + cols[r]] = b[r];
  rc = 0;
done:
  s->nosplit = keep;
  free(F), free(J0), free(J1), free(Fb), free(A), free(b), free(cols);
  return rc;
}

/* The consistent start of bodies without lines (their initial velocities are given, not a
 * rest): each body's accelerations under its loads at t = 0 (PlVesselConsistentRate: exact
 * without joints), the DP integral states' rates z' = f, and with joints the accelerations
 * and reactions of JointReactions. IDACalcIC cannot do this: F = 0 holds already with any
 * lambda (the index-2 form has no row that fixes it at t = 0). Returns 0, 1 when a body's mass
 * matrix or the saddle-point matrix is singular, 2 out of memory. */
static int BodiesStart(PlSysDyn s, double *y, double *yp)
{
  const PlModel *m = s->m;
  const int nb = m->nbodies, nv = PL_VESSEL_NY, mo = s->moff;
  double *F = malloc(sizeof(double) * (size_t)s->n);
  if (!F) return 2;
  const int keep = s->nosplit;
  double *keepval = s->val;
  s->nosplit = 1;
  s->val = NULL;
  int rc = 1;
  PlSysDynEval(s, 0.0, y, yp, 0.0, F, 0); /* the loads at t = 0: s->tb, s->lg */
  for (int bb = 0; bb < nb; ++bb)
    if (PlVesselConsistentRate(&s->V[bb], y + mo + nv * bb, s->tb[bb], s->lg[bb], yp + mo + nv * bb)) goto done;
  PlSysDynEval(s, 0.0, y, yp, 0.0, F, 0);
  for (int bb = 0; bb < nb; ++bb)
    if (s->zoff[bb] >= 0)
      for (int i = 0; i < 6; ++i) yp[s->zoff[bb] + i] -= F[s->zoff[bb] + i];
  for (int i = 0; i < s->nwork; ++i) yp[s->woff + i] -= F[s->woff + i];
  rc = 0;
done:
  s->nosplit = keep;
  s->val = keepval;
  free(F);
  return rc ? rc : m->njoints ? JointReactions(s, 0.0, y, yp) : 0;
}

int PlSysDynJointReactions(PlSysDyn s, double t, const double *y, const double *yp, double *ymb)
{
  double *yc = malloc(sizeof(double) * (size_t)s->n), *ypc = malloc(sizeof(double) * (size_t)s->n);
  int rc = 2;
  if (yc && ypc) {
    memcpy(yc, y, sizeof(double) * (size_t)s->n);
    memcpy(ypc, yp, sizeof(double) * (size_t)s->n);
    rc = JointReactions(s, t, yc, ypc);
    if (!rc) memcpy(ymb, yc + s->moff, sizeof(double) * (size_t)s->nmb);
  }
  free(yc), free(ypc);
  return rc;
}

/* The work integrals' rates W' = P at the start state (zero work so far). 1 out of memory. */
static int WorkStart(PlSysDyn s, double *y, double *yp)
{
  if (s->nl == 0 || s->woff < 0) return 0; /* bodies alone: BodiesStart */
  double *F = malloc(sizeof(double) * (size_t)s->n);
  if (!F) return 1;
  for (int k = 0; k < s->nwork; ++k) y[s->woff + k] = yp[s->woff + k] = 0.0;
  PlSysDynEval(s, 0.0, y, yp, 0.0, F, 0);
  for (int k = 0; k < s->nwork; ++k) yp[s->woff + k] = s->pw[k];
  free(F);
  return 0;
}

int PlSysDynPrepareRun(PlSysDyn s)
{
  double *y = N_VGetArrayPointer(s->y), *yp = N_VGetArrayPointer(s->yp);
  InitialMotion(s, y, yp);
  if (s->nl == 0 && s->nmb > 0) {
    const int rc = BodiesStart(s, y, yp);
    if (rc) return rc + 1;
  }
  if (WorkStart(s, y, yp)) return 3;
  return PlSysDynResumeRun(s, 0.0, y, yp);
}

int PlSysDynSetLineVelocity(PlSysDyn s, int l, const double *v)
{
  const PlDynLine d = s->d[l];
  double *y = N_VGetArrayPointer(s->y), *yp = N_VGetArrayPointer(s->yp);
  for (int i = 0; i < d->sp->mesh.nnodes; ++i)
    for (int c = 0; c < 3; ++c)
      if (!PlDynRowHeld(d, i, s->iV + c) && s->redir[s->loff[l] + i * s->ndd + s->iV + c] == -1)
        y[s->loff[l] + i * s->ndd + s->iV + c] = v[3 * i + c];
  memset(yp, 0, sizeof(double) * (size_t)s->n);
  KinematicRates(s, y, yp);
  if (WorkStart(s, y, yp)) return 1;
  return PlSysDynResumeRun(s, 0.0, y, yp);
}

void PlSysDynHoldThrust(PlSysDyn s, int b, const double tau[6])
{
  memcpy(s->dp_run[b].tau_hold, tau, sizeof s->dp_run[b].tau_hold);
}

int PlSysDynResumeRun(PlSysDyn s, double t, const double *y, const double *yp)
{
  /* the state may be s's own (PlSysDynPrepareRun) */
  if (y != N_VGetArrayPointer(s->y)) memcpy(N_VGetArrayPointer(s->y), y, sizeof(double) * (size_t)s->n);
  if (yp != N_VGetArrayPointer(s->yp)) memcpy(N_VGetArrayPointer(s->yp), yp, sizeof(double) * (size_t)s->n);
  s->bp_done = t;
  return IDAReInit(s->ida, t, s->y, s->yp) != IDA_SUCCESS;
}

void PlSysDynSetStopTime(PlSysDyn s, double t)
{
  s->tstop = t;
}

/* IDA's counters, which IDAReInit zeroes: a breakpoint's restart carries them over (the run's
 * steps, its step limit, a checkpoint's counters). */
static void Counters(void *ida, long c[8], int add)
{
  const IDAMem im = (IDAMem)ida;
  const IDALsMem lm = (IDALsMem)im->ida_lmem;
  long *f[8] = {&im->ida_nst, &im->ida_nre, &im->ida_ncfn, &im->ida_netf, &im->ida_nni, &im->ida_nnf,
                &im->ida_nsetups, &lm->nje};
  for (int k = 0; k < 8; ++k) {
    if (add) *f[k] += c[k];
    else c[k] = *f[k];
  }
}

/* The restart at breakpoint tb, where IDA stopped at its last step (its stop time). At tb a
 * load or a prescribed position is not C^1 (models/motion.c), so the solution's first
 * derivatives or their rates jump: IDA's history polynomial, fitted on the left of tb, is not
 * the solution's on the right, and the first steps after tb would take it as their predictor
 * and error estimate. IDA restarts at order 1 at tb (IDAReInit, as at the start) from
 *   y  = IDA's solution at tb: every state integrated is continuous there, and the held DOFs
 *        set to their prescribed values at tb (a linear series' velocity, a step's position:
 *        the values of the interval that starts at tb: HeldMotion);
 *   y' = IDA's derivative at tb from the left, with what jumps replaced by its value on the
 *        right: the held DOFs' u' = v_b(tb+) (a linear series' slope) and v' = a_b(tb+), the
 *        held rotations' parameter rates.
 * The other components of y' that jump are the free DOFs' accelerations under a load that
 * steps (a step load, a DP thrust whose reference velocity jumps): the order-1 step measures
 * their jump (its error estimate is the corrector's change h |dv'| from the predictor) and is
 * sized to it, and its corrector solves the equations of motion on the right. Under a
 * prescribed position whose slope jumps they do not jump (the elements feel the held
 * position, continuous), their rates do. IDA's counters carry over: saved here and added back
 * after the first step (IDASolve's first call after IDAReInit keys its initial step on a zero
 * step count). Returns 0, or an IDA flag < 0. */
static int BreakpointRestart(PlSysDyn s, void *ida, N_Vector y, N_Vector yp, double tb)
{
  if (IDAGetDky(ida, tb, 0, y) != IDA_SUCCESS || IDAGetDky(ida, tb, 1, yp) != IDA_SUCCESS) return IDA_ILL_INPUT;
  HeldMotion(s, tb, N_VGetArrayPointer(y), N_VGetArrayPointer(yp));
  Counters(ida, s->carry, 0);
  s->carry[8] = 1;
  return PlSysDynResumeRun(s, tb, N_VGetArrayPointer(y), N_VGetArrayPointer(yp)) ? IDA_ILL_INPUT : 0;
}

/* The first breakpoint of s at or after t. */
static int BreakpointAfter(const PlSysDyn s, double t)
{
  int lo = 0, hi = s->nbp; /* bp[lo - 1] < t <= bp[hi] */
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (s->bp[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* IDA's time, and its rounding of a stop time: IDASolve returns at a stop time within *fuzz of
 * its time. */
static double IdaTime(void *ida, double *fuzz)
{
  realtype tn = 0.0, hh = 0.0;
  IDAGetCurrentTime(ida, &tn);
  IDAGetCurrentStep(ida, &hh);
  *fuzz = 100.0 * UNIT_ROUNDOFF * (fabs(tn) + fabs(hh));
  return tn;
}

int PlSysDynAtBreakpoint(const PlSysDyn s, void *ida)
{
  double fuzz;
  const double tn = IdaTime(ida, &fuzz);
  const int k = BreakpointAfter(s, tn - fuzz);
  return k < s->nbp && s->bp[k] <= tn + fuzz;
}

int PlIdaStep(void *ida, N_Vector y, N_Vector yp, realtype *tret)
{
  void *ud = NULL;
  double fuzz;
  IDAGetUserData(ida, &ud);
  double tn = IdaTime(ida, &fuzz);
  const PlSysDyn s = ud;
  double stop = INFINITY;
  if (s) {
    int k = BreakpointAfter(s, tn - fuzz);
    if (k < s->nbp && s->bp[k] <= tn + fuzz && fabs(s->bp_done - s->bp[k]) > fuzz) { /* stopped there */
      const int rc = BreakpointRestart(s, ida, y, yp, s->bp[k]);
      if (rc) return rc;
      tn = s->bp[k];
    }
    while (k < s->nbp && s->bp[k] <= tn + fuzz) ++k;
    if (k < s->nbp) stop = s->bp[k];
    if (s->tstop > tn) stop = fmin(stop, s->tstop);
    if (stop < INFINITY && IDASetStopTime(ida, stop) != IDA_SUCCESS) return IDA_ILL_INPUT;
  }
  int rc = IDASolve(ida, tn + PL_IDA_FIRST_STEP_HORIZON, tret, y, yp, IDA_ONE_STEP); /* tout: PL_IDA_FIRST_STEP_HORIZON */
  if (!s) return rc;
  if (s->carry[8]) {
    Counters(ida, s->carry, 1);
    s->jac_step += s->carry[0];
    s->carry[8] = 0;
  }
  if (rc == IDA_TSTOP_RETURN) {
    if (*tret >= s->tstop) s->tstop = INFINITY;
    else rc = IDA_SUCCESS; /* a breakpoint: the next step restarts there */
  }
  return rc;
}

/* The plausibility of a state in time, as the statics check theirs (solver/static.c): a state
 * no pipe, rope or chain reaches is a runaway of the model (a prescribed motion the line cannot
 * follow, a load in the wrong units), not a result. Checked after every step:
 *   - each element's stretch |x_B - x_A| / L - 1 within +-5 %: the axial strain of the chord,
 *     which bounds the rod's (steel yields near 0.2 %, fibre ropes break near 10 to 20 % but
 *     carry working loads below 2 %); the statics refuse |strain| > 5 % too;
 *   - a node no deeper below the seabed than max(5 d_o, 1 m): the contact rests at d_o/8, so
 *     that much penetration means the contact has let the line through;
 *   - each body's quaternion norm within 1e-2 of 1 (its rate term holds it to the integration's
 *     tolerance) and the joints' gap below 0.1 m (their constraints hold it to the tolerances:
 *     the OC3 turbine's drifts 6 mm over 100 s at the defaults; a decimetre is a joint let go).
 * 0, or 1 with what, where and when, and what to change, in why. */
/* Element e of line l's chord strain |x_b - x_a| / L - 1 in state y at time t. */
static double ChordStrain(const PlSysDyn s, int l, int e, double t, const double *y)
{
  const PlDynLine d = s->d[l];
  const double *ua = y + s->loff[l] + (size_t)e * s->ndd, *ub = ua + s->ndd, *xa = d->xs + 3 * e;
  double c2 = 0.0;
  for (int k = 0; k < 3; ++k) c2 += pow(xa[3 + k] + ub[k] - xa[k] - ua[k], 2);
  const double L = d->payout && e == d->sp->mesh.nelements - 1 ? PlDynTopLength(d, t) : d->sp->elements[e].L;
  return sqrt(c2) / L - 1.0;
}

double PlSysDynMaxStrain(const PlSysDyn s, double t, const double *y)
{
  double worst = 0.0;
  for (int l = 0; l < s->nl; ++l)
    for (int e = 0; e < s->d[l]->sp->mesh.nelements; ++e) worst = fmax(worst, fabs(ChordStrain(s, l, e, t, y)));
  return worst;
}

int PlSysDynPlausible(const PlSysDyn s, double t, const double *y, char *why, size_t len)
{
  for (int l = 0; l < s->nl; ++l) {
    const PlDynLine d = s->d[l];
    const PlProblem p = d->sp;
    const int ne = p->mesh.nelements;
    char name[PL_NAME_MAX + 8];
    if (l < s->m->nlines && (s->nl > 1 || strcmp(s->m->lines[l].name, "line")))
      snprintf(name, sizeof name, "line %s's", s->m->lines[l].name);
    else snprintf(name, sizeof name, "the line's");
    for (int e = 0; e < ne; ++e) {
      const double strain = ChordStrain(s, l, e, t, y);
      if (fabs(strain) > 0.05) {
        snprintf(why, len,
                 "the %s of %s element from S = %.6g to %.6g m reached %.2f %% at t = %.6g s, beyond the "
                 "plausible 5 %% (steel yields near 0.2 %%): the line is %s. A prescribed motion larger or faster "
                 "than the line can follow (ends.*.motion: its amplitude against the water depth and the line's "
                 "slack), an end pulled beyond the line's length, or a load in the wrong units; check them",
                 strain > 0 ? "axial strain" : "shortening of the chord", name, p->mesh.S[e], p->mesh.S[e + 1],
                 100.0 * strain, t, strain > 0 ? "torn apart" : "folded onto itself");
        return 1;
      }
    }
    if (p->model.seabed == PL_SEABED_NONE) continue;
    for (int i = 0; i <= ne; ++i) {
      const PlSection *sec = &p->model.segments[p->mesh.segment[i < ne ? i : ne - 1]].section;
      const double *u = y + s->loff[l] + (size_t)i * s->ndd, *x0 = d->xs + 3 * i;
      const double x[3] = {x0[0] + u[0], x0[1] + u[1], x0[2] + u[2]};
      const double pen = PlSeabedPenetration(&p->model, sec, x), lim = fmax(5.0 * sec->outer_diameter, 1.0);
      if (pen > lim) {
        snprintf(why, len,
                 "%s node at S = %.6g m is %.3g m into the seabed at t = %.6g s (more than %.3g m: the contact "
                 "rests at d_o/8): the seabed has let the line through. A motion or load driving the line into the "
                 "seabed faster than its contact can hold (seabed.stiffness, or the default nonlinear seabed), or "
                 "an end placed below the seabed; check them",
                 name, p->mesh.S[i], pen, t, lim);
        return 1;
      }
    }
  }
  for (int b = 0; b < s->m->nbodies && s->moff >= 0; ++b) {
    const double *q = y + s->moff + PL_VESSEL_NY * b + PL_VESSEL_Q;
    const double nq = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (fabs(nq - 1.0) > 1e-2) {
      snprintf(why, len,
               "body %s's attitude quaternion has norm %.6g at t = %.6g s (it should stay 1): the body spins faster "
               "than its norm term holds it; give the body a larger norm_rate, or tighter analysis.dynamic "
               "tolerances", s->m->bodies[b].id, nq, t);
      return 1;
    }
  }
  if (s->m->njoints && s->nmb) {
    const double gap = PlMultibodyJointGap(&s->mb, y + s->moff);
    if (gap > 0.1) {
      snprintf(why, len,
               "the joints have drifted %.3g m apart at t = %.6g s (more than 0.1 m): their constraints no longer "
               "hold; tighter analysis.dynamic tolerances (atol_reaction) or a smaller max_step",
               gap, t);
      return 1;
    }
  }
  return 0;
}

int PlSysDynStepLimit(const PlSysDyn s, void *ida, double t, char *why, size_t len)
{
  long nst = 0;
  realtype h = 0.0;
  IDAGetNumSteps(ida, &nst);
  IDAGetLastStep(ida, &h);
  const int max_steps = s->m->analysis.dynamic.max_steps;
  if (max_steps <= 0 || nst < max_steps) return 0;
  snprintf(why, len,
           "analysis.dynamic.max_steps (%d) reached at t = %.6g s, the last step %.3g s: raise it for a long run, or "
           "look at what keeps the steps short (a stiff contact or a fast motion: analysis.dynamic tolerances, "
           "seabed.damping)",
           max_steps, t, (double)h);
  return 1;
}

/* ---- the integrator's whole state, for a restart that continues with the same bits ----
 * IDA's own restart (IDAReInit) starts again at order 1 from y, y' and a fresh matrix: another
 * step sequence than the uninterrupted run's. The state that decides the next steps is IDA's
 * history (its divided differences phi and the step data), its Newton and matrix-age data,
 * ours (the matrix's step, the Newton rate estimate) and the factors of the iteration matrix
 * (condensed_klu.c, as the matrices that made them). IDA's memory layout comes from
 * ida_impl.h, installed with SUNDIALS 6.4 (Debian 12's libsundials-dev); IDAInitialSetup, the
 * set-up IDASolve runs at its first step, is an exported symbol of that library. */

int IDAInitialSetup(IDAMem IDA_mem);

enum { kIntegScalars = 32 };

long PlSysDynIntegratorSize(const PlSysDyn s)
{
  const IDAMem im = (IDAMem)s->ida;
  return kIntegScalars + 5L * MXORDP1 + (long)(im->ida_maxord_alloc + 1) * s->n + PlCondensedKLUStateSize(s->LS);
}

void PlSysDynIntegratorSave(const PlSysDyn s, double *b)
{
  const IDAMem im = (IDAMem)s->ida;
  const IDALsMem lm = (IDALsMem)im->ida_lmem;
  double *x = b;
  const double sc[kIntegScalars] = {
    im->ida_kk, im->ida_kused, im->ida_knew, im->ida_phase, im->ida_ns, im->ida_hin, im->ida_h0u, im->ida_hh,
    im->ida_hused, im->ida_eta, im->ida_tn, im->ida_tretlast, im->ida_cj, im->ida_cjlast, im->ida_cjold,
    im->ida_cjratio, im->ida_ss, im->ida_oldnrm, im->ida_epsNewt, im->ida_toldel, (double)im->ida_nst,
    (double)im->ida_nre, (double)im->ida_ncfn, (double)im->ida_netf, (double)im->ida_nni, (double)im->ida_nnf,
    (double)im->ida_nsetups, im->ida_tolsf, (double)lm->nje, (double)s->jac_step, s->nls_ss, s->nls_oldnrm};
  memcpy(x, sc, sizeof sc);
  x += kIntegScalars;
  const realtype *arr[5] = {im->ida_psi, im->ida_alpha, im->ida_beta, im->ida_sigma, im->ida_gamma};
  for (int k = 0; k < 5; ++k, x += MXORDP1) memcpy(x, arr[k], sizeof(double) * MXORDP1);
  for (int j = 0; j <= im->ida_maxord_alloc; ++j, x += s->n)
    memcpy(x, N_VGetArrayPointer(im->ida_phi[j]), sizeof(double) * (size_t)s->n);
  PlCondensedKLUStateSave(s->LS, x);
}

/* After IDAReInit at the state's time (PlSysDynResumeRun): IDA's first-step set-up, then its
 * history, ours and the factors put back. 0, or 1 when the buffer is not this system's. */
static int IntegratorRestore(PlSysDyn s, const double *b, long count)
{
  const IDAMem im = (IDAMem)s->ida;
  if (count != PlSysDynIntegratorSize(s)) return 1;
  if (IDAInitialSetup(im) != IDA_SUCCESS) return 1;
  im->ida_SetupDone = SUNTRUE;
  const IDALsMem lm = (IDALsMem)im->ida_lmem;
  const double *x = b;
  im->ida_kk = (int)x[0], im->ida_kused = (int)x[1], im->ida_knew = (int)x[2], im->ida_phase = (int)x[3];
  im->ida_ns = (int)x[4], im->ida_hin = x[5], im->ida_h0u = x[6], im->ida_hh = x[7], im->ida_hused = x[8];
  im->ida_eta = x[9], im->ida_tn = x[10], im->ida_tretlast = x[11], im->ida_cj = x[12], im->ida_cjlast = x[13];
  im->ida_cjold = x[14], im->ida_cjratio = x[15], im->ida_ss = x[16], im->ida_oldnrm = x[17];
  im->ida_epsNewt = x[18], im->ida_toldel = x[19], im->ida_nst = (long)x[20], im->ida_nre = (long)x[21];
  im->ida_ncfn = (long)x[22], im->ida_netf = (long)x[23], im->ida_nni = (long)x[24], im->ida_nnf = (long)x[25];
  im->ida_nsetups = (long)x[26], im->ida_tolsf = x[27], lm->nje = (long)x[28], s->jac_step = (long)x[29];
  s->nls_ss = x[30], s->nls_oldnrm = x[31];
  x += kIntegScalars;
  realtype *arr[5] = {im->ida_psi, im->ida_alpha, im->ida_beta, im->ida_sigma, im->ida_gamma};
  for (int k = 0; k < 5; ++k, x += MXORDP1) memcpy(arr[k], x, sizeof(double) * MXORDP1);
  for (int j = 0; j <= im->ida_maxord_alloc; ++j, x += s->n)
    memcpy(N_VGetArrayPointer(im->ida_phi[j]), x, sizeof(double) * (size_t)s->n);
  return PlCondensedKLUStateRestore(s->LS, s->A, x);
}

int PlSysDynResumeRunState(PlSysDyn s, double t, const double *y, const double *yp, const double *state, long count)
{
  if (PlSysDynResumeRun(s, t, y, yp)) return 1;
  if (!(state && count > 0)) return 0;
  s->bp_done = -INFINITY; /* IDA's history as saved: stopped at a breakpoint, it restarts there */
  return IntegratorRestore(s, state, count);
}
