/*
 * multibody.c - rigid bodies joined by joints, as one residual F(t, y, y') = 0 for IDA
 * (docs/design-system-core.md §5.2). The bodies' and joints' part of the system
 * core: lines attach to it in a later step.
 *
 * Unknowns: per body the 13 of PlVessel (r, q, v, w); per joint j with m_j rows, lambda_j
 * (m_j, the reaction) and mu_j (m_j, the GGL projection multiplier). Rows, for body b with
 * the joints J(b) it belongs to (nu = (v, w) in its body frame):
 *
 *   kinematics   r' - R (v - u_v) = 0,   the attitude rows of PlVesselDynamics with w - u_w,
 *                u = sum_j G_jb^T mu_j           (the Gear-Gupta-Leimkuhler projection)
 *   Newton-Euler PlVesselDynamics with tau_body = -sum_j G_jb^T lambda_j
 *                (the joint's reaction on the body: force and moment in its frame about O_b)
 *   joint j      G_ja nu_a + G_jb nu_b = 0   (velocity constraint, index 2), rows of lambda_j
 *                g_j(positions) = 0          (position constraint), rows of mu_j
 *
 * With g = 0 and G nu = 0 on the solution, g' = G (nu - G^T mu) = -G G^T mu = 0 gives
 * mu = 0: the projection only steers the numerical solution back onto g = 0. lambda and mu
 * are algebraic (PlMultibodyIds: 0); IDA is told to leave them out of its error test
 * (IDASetSuppressAlg), as SUNDIALS' slider-crank example does for this form. The attitude
 * rows are linear in w, so replacing w by w - u_w adds E(q) u_w / 2 to them (E of
 * vessel.c), and r' - R v becomes r' - R v + R u_v.
 *
 * The iteration matrix dF/dy + c dF/dy' is exact: the bodies' blocks from PlVesselDynamics
 * (dual numbers), the joints' from PlJointEval's derivatives of g and G, the projection's
 * through R(q/|q|) and E(q); tests/test_multibody.c checks it against central differences.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "solver_impl.h"

int PlMultibodySize(const PlMultibody *mb)
{
  int n = PL_VESSEL_NY * mb->nbodies;
  for (int j = 0; j < mb->njoints; ++j) n += 2 * PlJointRowCount(mb->joints[j].joint.kind);
  return n;
}

void PlMultibodyIds(const PlMultibody *mb, double *id)
{
  const int n = PlMultibodySize(mb), nb = PL_VESSEL_NY * mb->nbodies;
  for (int k = 0; k < n; ++k) id[k] = k < nb ? 1.0 : 0.0;
}

/* E(q) u / 2 with E = [-q_v^T ; q_0 I + [q_v]x] (the attitude kinematics of vessel.c) */
static void HalfE(const double q[4], const double u[3], double out[4])
{
  out[0] = -0.5 * (q[1] * u[0] + q[2] * u[1] + q[3] * u[2]);
  out[1] = 0.5 * (q[0] * u[0] + q[2] * u[2] - q[3] * u[1]);
  out[2] = 0.5 * (q[0] * u[1] + q[3] * u[0] - q[1] * u[2]);
  out[3] = 0.5 * (q[0] * u[2] + q[1] * u[1] - q[2] * u[0]);
}

/* dR(q/|q|)/dq_k (4 matrices, row-major) for R of the unit quaternion n = q/|q|:
 * dR/dq_k = sum_l dR/dn_l (delta_lk - n_l n_k)/|q|, R(n) the polynomial of QToR. */
static void RotationDerivative(const double q[4], double dR[4][9])
{
  const double nq = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  const double n0 = q[0] / nq, n1 = q[1] / nq, n2 = q[2] / nq, n3 = q[3] / nq, n[4] = {n0, n1, n2, n3};
  const double dn[9][4] = {
    {0, 0, -4 * n2, -4 * n3},          {-2 * n3, 2 * n2, 2 * n1, -2 * n0}, {2 * n2, 2 * n3, 2 * n0, 2 * n1},
    {2 * n3, 2 * n2, 2 * n1, 2 * n0},  {0, -4 * n1, 0, -4 * n3},           {-2 * n1, -2 * n0, 2 * n3, 2 * n2},
    {-2 * n2, 2 * n3, -2 * n0, 2 * n1}, {2 * n1, 2 * n0, 2 * n3, 2 * n2},   {0, -4 * n1, -4 * n2, 0}};
  for (int k = 0; k < 4; ++k)
    for (int e = 0; e < 9; ++e) {
      double s = 0.0;
      for (int l = 0; l < 4; ++l) s += dn[e][l] * ((l == k) - n[l] * n[k]) / nq;
      dR[k][e] = s;
    }
}

int PlMultibodyEvaluate(const PlMultibody *mb, double t, const double *y, const double *yp, double c, double *F,
                        double *J)
{
  (void)t;
  const int nb = mb->nbodies, n = PlMultibodySize(mb);
  const int nbs = nb > 0 ? nb : 1;
  double tau[nbs][6], u[nbs][6];
  memset(tau, 0, sizeof tau);
  memset(u, 0, sizeof u);
  double *du = NULL; /* du[(6 b + c) n + col]: d u_b,c / d y_col (the projection's loads) */
  if (J) {
    memset(J, 0, sizeof(double) * (size_t)n * (size_t)n);
    du = calloc((size_t)nb * 6 * (size_t)n, sizeof *du);
    if (!du) return 1;
  }
  int off = PL_VESSEL_NY * nb;
  for (int j = 0; j < mb->njoints; ++j) {
    const PlMultibodyJoint *jt = &mb->joints[j];
    const int a = jt->body[0], b = jt->body[1];
    PlJointEvalOut o;
    PlJointEval(&jt->joint, y + PL_VESSEL_NY * a, b >= 0 ? y + PL_VESSEL_NY * b : NULL, &o);
    const double *lam = y + off, *mu = y + off + o.m;
    for (int r = 0; r < o.m; ++r) {
      double rate = 0.0;
      for (int c = 0; c < 6; ++c) {
        rate += o.Ga[6 * r + c] * y[PL_VESSEL_NY * a + PL_VESSEL_V + c];
        tau[a][c] -= o.Ga[6 * r + c] * lam[r];
        u[a][c] += o.Ga[6 * r + c] * mu[r];
        if (b >= 0) {
          rate += o.Gb[6 * r + c] * y[PL_VESSEL_NY * b + PL_VESSEL_V + c];
          tau[b][c] -= o.Gb[6 * r + c] * lam[r];
          u[b][c] += o.Gb[6 * r + c] * mu[r];
        }
      }
      F[off + r] = rate;        /* velocity constraint */
      F[off + o.m + r] = o.g[r]; /* position constraint */
    }
    if (J) {
      /* columns of the 14 position parameters: a's (r, q), then b's */
      int pcol[14];
      for (int k = 0; k < 14; ++k) pcol[k] = k < 7 ? PL_VESSEL_NY * a + k : (b >= 0 ? PL_VESSEL_NY * b + k - 7 : -1);
      const int nbj = b >= 0 ? 2 : 1;
      for (int r = 0; r < o.m; ++r) {
        double *Jv = J + (size_t)(off + r) * n, *Jg = J + (size_t)(off + o.m + r) * n;
        for (int k = 0; k < 14; ++k)
          if (pcol[k] >= 0) Jg[pcol[k]] += o.dg[14 * r + k];
        for (int s2 = 0; s2 < nbj; ++s2) {
          const int body = s2 ? b : a;
          const double *G = s2 ? o.Gb : o.Ga, *dG = s2 ? o.dGb : o.dGa;
          const double *nu = y + PL_VESSEL_NY * body + PL_VESSEL_V;
          for (int cc = 0; cc < 6; ++cc) {
            const double Gv = G[6 * r + cc];
            Jv[PL_VESSEL_NY * body + PL_VESSEL_V + cc] += Gv;
            /* Newton-Euler rows of the body: + G^T lambda */
            J[(size_t)(PL_VESSEL_NY * body + PL_VESSEL_V + cc) * n + off + r] += Gv;
            du[(size_t)(6 * body + cc) * n + off + o.m + r] += Gv;
            for (int k = 0; k < 14; ++k) {
              if (pcol[k] < 0) continue;
              const double d = dG[14 * (6 * r + cc) + k];
              Jv[pcol[k]] += d * nu[cc];
              J[(size_t)(PL_VESSEL_NY * body + PL_VESSEL_V + cc) * n + pcol[k]] += d * lam[r];
              du[(size_t)(6 * body + cc) * n + pcol[k]] += d * mu[r];
            }
          }
        }
      }
    }
    off += 2 * o.m;
  }
  for (int b = 0; b < nb; ++b) {
    const double *yb = y + PL_VESSEL_NY * b;
    double *Fb = F + PL_VESSEL_NY * b, K[PL_VESSEL_NY * PL_VESSEL_NY];
    if (mb->tau_body)
      for (int cc = 0; cc < 6; ++cc) tau[b][cc] += mb->tau_body[b][cc];
    if (PlVesselDynamics(&mb->bodies[b], yb, yp + PL_VESSEL_NY * b, c, tau[b], mb->load_global ? mb->load_global[b] : NULL,
                         Fb, J ? K : NULL)) {
      free(du);
      return 1;
    }
    if (J)
      for (int i = 0; i < PL_VESSEL_NY; ++i)
        for (int k = 0; k < PL_VESSEL_NY; ++k) J[(size_t)(PL_VESSEL_NY * b + i) * n + PL_VESSEL_NY * b + k] += K[PL_VESSEL_NY * i + k];
    /* the projection: v -> v - u_v, w -> w - u_w in the kinematic rows */
    const double *q = yb + PL_VESSEL_Q;
    const double qq = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    double R[9], qn[4];
    for (int i = 0; i < 4; ++i) qn[i] = q[i] / sqrt(qq);
    PlQuatToMatrix(qn, R);
    for (int i = 0; i < 3; ++i) Fb[i] += R[3 * i] * u[b][0] + R[3 * i + 1] * u[b][1] + R[3 * i + 2] * u[b][2];
    double e[4];
    HalfE(q, u[b] + 3, e);
    for (int i = 0; i < 4; ++i) Fb[PL_VESSEL_Q + i] += e[i];
    if (!J) continue;
    /* through u: R du_v, E(q) du_w / 2 */
    for (int col = 0; col < n; ++col) {
      const double dv[3] = {du[(size_t)(6 * b) * n + col], du[(size_t)(6 * b + 1) * n + col], du[(size_t)(6 * b + 2) * n + col]};
      const double dw[3] = {du[(size_t)(6 * b + 3) * n + col], du[(size_t)(6 * b + 4) * n + col],
                            du[(size_t)(6 * b + 5) * n + col]};
      if (dv[0] == 0.0 && dv[1] == 0.0 && dv[2] == 0.0 && dw[0] == 0.0 && dw[1] == 0.0 && dw[2] == 0.0) continue;
      for (int i = 0; i < 3; ++i) J[(size_t)(PL_VESSEL_NY * b + i) * n + col] += R[3 * i] * dv[0] + R[3 * i + 1] * dv[1] + R[3 * i + 2] * dv[2];
      double de[4];
      HalfE(q, dw, de);
      for (int i = 0; i < 4; ++i) J[(size_t)(PL_VESSEL_NY * b + PL_VESSEL_Q + i) * n + col] += de[i];
    }
    /* through the body's own q: dR/dq u_v, E(e_k) u_w / 2 (E is linear in q) */
    double dR[4][9];
    RotationDerivative(q, dR);
    for (int k = 0; k < 4; ++k) {
      const int col = PL_VESSEL_NY * b + PL_VESSEL_Q + k;
      for (int i = 0; i < 3; ++i)
        J[(size_t)(PL_VESSEL_NY * b + i) * n + col] += dR[k][3 * i] * u[b][0] + dR[k][3 * i + 1] * u[b][1] + dR[k][3 * i + 2] * u[b][2];
      double ek[4] = {0, 0, 0, 0}, de[4];
      ek[k] = 1.0;
      HalfE(ek, u[b] + 3, de);
      for (int i = 0; i < 4; ++i) J[(size_t)(PL_VESSEL_NY * b + PL_VESSEL_Q + i) * n + col] += de[i];
    }
  }
  free(du);
  return 0;
}

int PlMultibodyResidual(const PlMultibody *mb, double t, const double *y, const double *yp, double *F)
{
  return PlMultibodyEvaluate(mb, t, y, yp, 0.0, F, NULL);
}

void PlMultibodyJointLoad(const PlMultibody *mb, const double *y, int j, double P[3], double force[3],
                          double moment[3])
{
  int off = PL_VESSEL_NY * mb->nbodies;
  for (int k = 0; k < j; ++k) off += 2 * PlJointRowCount(mb->joints[k].joint.kind);
  const PlMultibodyJoint *jt = &mb->joints[j];
  const double *ya = y + PL_VESSEL_NY * jt->body[0];
  PlJointEvalOut o;
  PlJointEval(&jt->joint, ya, jt->body[1] >= 0 ? y + PL_VESSEL_NY * jt->body[1] : NULL, &o);
  double tau[6] = {0, 0, 0, 0, 0, 0}; /* on body a, its frame, about O_a: -G_a^T lambda */
  for (int r = 0; r < o.m; ++r)
    for (int c = 0; c < 6; ++c) tau[c] -= o.Ga[6 * r + c] * y[off + r];
  const double *q = ya + PL_VESSEL_Q, *pa = jt->joint.pa;
  const double nq = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  const double qn[4] = {q[0] / nq, q[1] / nq, q[2] / nq, q[3] / nq};
  double R[9];
  PlQuatToMatrix(qn, R);
  /* moment about the joint point: m_O - p_a x f (body frame), then global */
  const double *f = tau, *m = tau + 3;
  const double mp[3] = {m[0] - (pa[1] * f[2] - pa[2] * f[1]), m[1] - (pa[2] * f[0] - pa[0] * f[2]),
                        m[2] - (pa[0] * f[1] - pa[1] * f[0])};
  for (int i = 0; i < 3; ++i) {
    P[i] = ya[i] + R[3 * i] * pa[0] + R[3 * i + 1] * pa[1] + R[3 * i + 2] * pa[2];
    force[i] = R[3 * i] * f[0] + R[3 * i + 1] * f[1] + R[3 * i + 2] * f[2];
    moment[i] = R[3 * i] * mp[0] + R[3 * i + 1] * mp[1] + R[3 * i + 2] * mp[2];
  }
}

double PlMultibodyJointGap(const PlMultibody *mb, const double *y)
{
  double gap = 0.0;
  for (int j = 0; j < mb->njoints; ++j) {
    const PlMultibodyJoint *jt = &mb->joints[j];
    PlJointEvalOut o;
    PlJointEval(&jt->joint, y + PL_VESSEL_NY * jt->body[0], jt->body[1] >= 0 ? y + PL_VESSEL_NY * jt->body[1] : NULL,
                &o);
    /* the translational rows: 2 across a prismatic guide, else the 3 of the joint point */
    const int nd = jt->joint.kind == PL_JOINT_PRISMATIC ? 2 : 3;
    for (int r = 0; r < nd && r < o.m; ++r) gap = fmax(gap, fabs(o.g[r]));
  }
  return gap;
}

const char *PlJointSeriesHeader(void)
{
  return "t_s,point_x_m,point_y_m,point_z_m,force_x_N,force_y_N,force_z_N,moment_x_Nm,moment_y_Nm,moment_z_Nm\n";
}

void PlJointSeriesRow(FILE *f, double t, const double P[3], const double F[3], const double M[3])
{
  fprintf(f, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", t, P[0], P[1], P[2], F[0], F[1], F[2],
          M[0], M[1], M[2]);
  fflush(f);
}

void PlMultibodyFromModel(const PlModel *m, PlVessel *V, PlMultibodyJoint *jt, double (*tau_body)[6],
                          double (*load_global)[6], PlMultibody *mb)
{
  for (int b = 0; b < m->nbodies; ++b) V[b] = m->bodies[b].body;
  for (int j = 0; j < m->njoints; ++j) {
    jt[j].joint = m->joints[j].joint;
    jt[j].body[0] = m->joints[j].body[0];
    jt[j].body[1] = m->joints[j].body[1];
  }
  mb->nbodies = m->nbodies;
  mb->njoints = m->njoints;
  mb->bodies = V;
  mb->joints = jt;
  mb->tau_body = (const double(*)[6])tau_body;
  mb->load_global = (const double(*)[6])load_global;
}
