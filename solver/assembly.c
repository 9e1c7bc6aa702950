/*
 * assembly.c - the discrete static problem on PETSc objects: residual and Jacobian.
 *
 *   F(u) = sum_e f_int^e(u)                      rod elements (elements/rod.c)
 *        - lambda sum_e f_grav^e                 weight -q(z) e3: the submerged weight w
 *                                                (5.33), w L/2 per node, below the sea
 *                                                surface, the dry weight above it
 *                                                (PlElementWeight)
 *        - sum_e f_seabed^e(u)                   sigma(z) e3 (5.38), two-point Gauss
 *        - lambda sum_e f_drag^e(u)              Morison drag of the current on the line at
 *                                                rest (PlProblemElementLoads)
 *        - lambda (end forces, end moments)      dead loads; moments through H(p)^T R0^T M
 *        + gauge (quaternion nodes)              k (|p|^2 - 1) p, see elements.h
 * Held DOFs: F_i = s_i (u_i - ubar_i(lambda)), ubar = start + lambda (target - start), and
 * row i of the Jacobian is s_i e_i. The Jacobian is the exact derivative of F.
 *
 * Layout: DMDA 1-D, dof = 6 or 7 per node, stencil width 1; a rank assembles the elements
 * whose first node it owns (the second may be a ghost) and adds into ghosted local
 * vectors / MatSetValuesLocal, so the result does not depend on the number of ranks.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "solver_impl.h"
#include "pipelay/elements.h"

const PlModel *PlProblemModel(PlProblem p) { return &p->model; }
const PlMesh *PlProblemMesh(PlProblem p) { return &p->mesh; }
SNES PlProblemSNES(PlProblem p) { return p->snes; }
Vec PlProblemSolution(PlProblem p) { return p->u; }
void PlProblemSetLoadFactor(PlProblem p, double lambda) { p->lambda = lambda; }

void PlProblemSetEndLoads(PlProblem p, int end, const double F[3], const double M[3])
{
  for (int c = 0; c < 3; ++c) {
    p->model.ends[end].force[c] = F ? F[c] : 0.0;
    p->model.ends[end].moment[c] = M ? M[c] : 0.0;
  }
}

/* Held DOFs, their start/target values and row scales for one end node. */
static void SetUpEnd(PlProblem p, int end, int node)
{
  const PlEnd *E = &p->model.ends[end];
  const int nd = p->nd, np = nd - 3;
  const PlSection *sec = &p->model.segments[p->mesh.segment[end ? p->mesh.nelements - 1 : 0]].section;
  const double Le = p->elements[end ? p->mesh.nelements - 1 : 0].L;
  double *target = p->bc_target + node * nd;
  char *mask = p->bc_mask + node * nd;
  for (int c = 0; c < 3; ++c) {
    p->bc_scale[node * nd + c] = sec->EA / Le;
    if (E->fixed[c]) {
      mask[c] = 1;
      target[c] = E->position[c];
    }
  }
  for (int c = 0; c < np; ++c) p->bc_scale[node * nd + 3 + c] = fmax(sec->EI[0], sec->GJ) / Le;
  /* rotations: target parameters of R0^T R_prescribed (R0 = the node's reference frame) */
  double pt[4];
  PlParamIdentity(p->kind, pt);
  if (E->has_orientation) {
    double qpres[4], q0c[4], qrel[4];
    PlQuatFromMatrix(E->orientation, qpres);
    const double *q0 = p->mesh.q0 + 4 * node;
    q0c[0] = q0[0];
    for (int i = 1; i < 4; ++i) q0c[i] = -q0[i];
    PlQuatMul(q0c, qpres, qrel);
    PlParamFromQuaternion(p->kind, qrel, pt);
  }
  const bool all = E->fixed[PL_DOF_RX] && E->fixed[PL_DOF_RY] && E->fixed[PL_DOF_RZ];
  for (int c = 0; c < 3; ++c) {
    if (!E->fixed[3 + c]) continue;
    if (all) {
      for (int i = 0; i < np; ++i) {
        mask[3 + i] = 1;
        target[3 + i] = pt[i];
      }
    } else {
      const int i = PlHeldParam(p->kind, c);
      mask[3 + i] = 1;
      target[3 + i] = pt[i];
    }
  }
}

/* The static solver's layout for p's mesh: its DMDA (nd unknowns per node), state and matrix,
 * the state set to u [nnodes nd] (every rank passes all of it). */
static PetscErrorCode SetUpState(PlProblem p, const double *u)
{
  const int nn = p->mesh.nnodes, nd = p->nd;
  PetscInt xs, xm;
  PetscScalar **ua;
  PetscFunctionBeginUser;
  PetscCall(DMDACreate1d(p->comm, DM_BOUNDARY_NONE, nn, nd, 1, NULL, &p->da));
  PetscCall(DMSetFromOptions(p->da));
  PetscCall(DMSetUp(p->da));
  PetscCall(DMCreateGlobalVector(p->da, &p->u));
  {
    /* the matrix in nd x nd blocks, a node's unknowns (a 1-d DMDA makes only scalar AIJ):
     * block row i couples nodes i-1, i, i+1 (the elements on either side); PlFormJacobian adds
     * whole element and node blocks, and PETSc's LU factors and solves block-wise */
    ISLocalToGlobalMapping ltog;
    PetscInt xm0;
    PetscCall(DMDAGetCorners(p->da, NULL, NULL, NULL, &xm0, NULL, NULL));
    PetscCall(MatCreate(p->comm, &p->J));
    PetscCall(MatSetSizes(p->J, xm0 * nd, xm0 * nd, PETSC_DETERMINE, PETSC_DETERMINE));
    PetscCall(MatSetType(p->J, MATBAIJ));
    PetscCall(MatSeqBAIJSetPreallocation(p->J, nd, 3, NULL));
    PetscCall(MatMPIBAIJSetPreallocation(p->J, nd, 3, NULL, 2, NULL));
    PetscCall(DMGetLocalToGlobalMapping(p->da, &ltog));
    PetscCall(MatSetLocalToGlobalMapping(p->J, ltog, ltog));
  }
  PetscCall(MatSetOption(p->J, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE));
  PetscCall(DMDAGetCorners(p->da, &xs, NULL, NULL, &xm, NULL, NULL));
  PetscCall(DMDAVecGetArrayDOF(p->da, p->u, &ua));
  for (PetscInt i = xs; i < xs + xm; ++i)
    for (int c = 0; c < nd; ++c) ua[i][c] = u[(size_t)i * nd + c];
  PetscCall(DMDAVecRestoreArrayDOF(p->da, p->u, &ua));
  PetscFunctionReturn(0);
}

/* Each element stress-free in the line's rest shape: its Gamma0 and K0 from the start shape
 * (line.rest_shape start) or from the sections' curvature at rest (PlMeshRestShape). */
static PetscErrorCode SetRestShape(PlProblem p)
{
  const int nn = p->mesh.nnodes;
  double *xr, *qr;
  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(3 * nn, &xr, 4 * nn, &qr));
  if (p->model.rest_from_start) {
    memcpy(xr, p->mesh.x0, 3 * (size_t)nn * sizeof *xr);
    memcpy(qr, p->mesh.q0, 4 * (size_t)nn * sizeof *qr);
  } else {
    /* the element's measures take its turn as the rotation of less than 180 deg between its
     * frames (the loader holds a model's elements below 160 deg: ld_read_mesh) */
    const double turn = PlMeshRestShape(&p->model, &p->mesh, xr, qr);
    PetscCheck(turn < M_PI, p->comm, PETSC_ERR_USER_INPUT,
               "an element turns by %.1f deg in the line's rest shape: refine the mesh there", turn * 180.0 / M_PI);
  }
  for (int e = 0; e + 1 < nn; ++e) {
    const double d0[3] = {xr[3 * e + 3] - xr[3 * e], xr[3 * e + 4] - xr[3 * e + 1], xr[3 * e + 5] - xr[3 * e + 2]};
    PetscCheck(!PlRodElementSetRest(&p->elements[e], d0, qr + 4 * e, qr + 4 * (e + 1)), p->comm,
               PETSC_ERR_USER_INPUT, "element %d (S = %g to %g m) turns by 180 deg or more in the line's rest shape: "
               "refine the mesh where it is curved", e, p->mesh.S[e], p->mesh.S[e + 1]);
  }
  PetscCall(PetscFree2(xr, qr));
  PetscFunctionReturn(0);
}

PetscErrorCode PlProblemCreate(MPI_Comm comm, const PlModel *model, PlProblem *out)
{
  PlProblem p;
  PetscFunctionBeginUser;
  PetscCall(PetscCalloc1(1, &p));
  p->comm = comm;
  p->hold_factor = -1.0;
  PetscCheck(PlModelCopy(model, &p->model) == 0, comm, PETSC_ERR_MEM, "out of memory for the model");
  /* the time of the static solve (the current, the bodies' environment loads): every load
   * settled in a static analysis; t = 0 before a dynamic one (its ramps then start from an
   * equilibrium) */
  p->current_time = model->analysis.kind == PL_ANALYSIS_DYNAMIC ? 0.0 : PlModelSettledTime(model);
  p->kind = model->rotation == PL_ROT_QUATERNION ? PL_PARAM_QUATERNION : PL_PARAM_EULER_ZXY;
  p->nd = PlNodeDofCount(p->kind);
  PetscCheck(PlMeshCreate(model, &p->mesh) == 0, comm, PETSC_ERR_MEM, "cannot build the mesh (out of memory or more than 10 million nodes)");
  PlMeshInitialGuess(model, &p->mesh);
  const int nn = p->mesh.nnodes, ne = p->mesh.nelements, nd = p->nd;

  PetscCall(PetscMalloc1(ne, &p->elements));
  PetscCall(PetscMalloc1(ne, &p->w));
  for (int e = 0; e < ne; ++e) {
    const PlSection *s = &model->segments[p->mesh.segment[e]].section;
    PlRodElementInit(&p->elements[e], p->mesh.S[e + 1] - p->mesh.S[e], s, p->mesh.q0 + 4 * e,
                     p->mesh.q0 + 4 * (e + 1), p->kind);
    p->w[e] = PlSectionSubmergedWeight(s, model->water_density, model->gravity);
  }
  if (model->rest_from_start || PlModelCurvedAtRest(model)) PetscCall(SetRestShape(p));
  PetscCall(PetscCalloc1(nn * nd, &p->bc_mask));
  PetscCall(PetscCalloc1(nn * nd, &p->bc_start));
  PetscCall(PetscCalloc1(nn * nd, &p->bc_target));
  PetscCall(PetscCalloc1(nn * nd, &p->bc_scale));
  PetscCall(PetscMalloc1(nn, &p->gauge_k));
  for (int i = 0; i < nn; ++i) {
    const int e = i < ne ? i : ne - 1;
    /* as stiff as the stiffest coupling of the parameters (shear: GA L) so that Newton
     * steps keep |p| near 1; the converged state does not depend on it */
    p->gauge_k[i] = fmax(p->elements[e].CT[1], p->elements[e].CT[2]) * p->elements[e].L;
    for (int c = 0; c < 3; ++c) p->bc_start[i * nd + c] = p->mesh.x0[3 * i + c];
    PlParamIdentity(p->kind, p->bc_start + i * nd + 3);
  }
  if (model->friction && model->seabed != PL_SEABED_NONE) { /* the anchors: the line as laid */
    PetscCall(PetscMalloc1((size_t)ne * 9, &p->fric));
    for (int e = 0; e < ne; ++e) PlProblemSetAnchor(p, e, p->mesh.x0 + 3 * e, p->mesh.x0 + 3 * (e + 1));
  }
  SetUpEnd(p, 0, 0);
  SetUpEnd(p, 1, nn - 1);
  /* free DOFs keep target = start (unused) */
  for (int i = 0; i < nn * nd; ++i)
    if (!p->bc_mask[i]) p->bc_target[i] = p->bc_start[i];

  /* reference force for the automatic absolute tolerance */
  double fref = 0.0;
  for (int e = 0; e < ne; ++e) fref += fabs(p->w[e]) * p->elements[e].L;
  for (int k = 0; k < 2; ++k)
    for (int c = 0; c < 3; ++c)
      fref += fabs(model->ends[k].force[c]) + fabs(model->ends[k].moment[c]) / model->length;
  for (int e = 0; e < ne; ++e) fref = fmax(fref, 1e-6 * p->elements[e].CT[0]);
  p->force_scale = fref;

  PetscCall(SetUpState(p, p->bc_start)); /* initial state: the guess */
  *out = p;
  PetscFunctionReturn(0);
}

/* Frees what depends on p's mesh: the solver's state, matrix, DMDA and SNES (parts the
 * static solve made on demand included), the per-element and per-node arrays and the mesh. */
static PetscErrorCode FreeMeshParts(PlProblem p)
{
  PetscFunctionBeginUser;
  PetscCall(SNESDestroy(&p->snes));
  PetscCall(VecDestroy(&p->ptc_D));
  PetscCall(VecDestroy(&p->ptc_ref));
  PetscCall(VecDestroy(&p->ptc_work));
  PetscCall(MatDestroy(&p->J));
  PetscCall(VecDestroy(&p->u));
  PetscCall(DMDestroy(&p->da));
  PetscCall(PetscFree(p->elements));
  PetscCall(PetscFree(p->w));
  PetscCall(PetscFree(p->bc_mask));
  PetscCall(PetscFree(p->bc_start));
  PetscCall(PetscFree(p->bc_target));
  PetscCall(PetscFree(p->bc_scale));
  PetscCall(PetscFree(p->gauge_k));
  PetscCall(PetscFree(p->fric));
  PlMeshDestroy(&p->mesh);
  PetscFunctionReturn(0);
}

PetscErrorCode PlProblemDestroy(PlProblem *pp)
{
  PetscFunctionBeginUser;
  if (!pp || !*pp) PetscFunctionReturn(0);
  PlProblem p = *pp;
  PetscCall(FreeMeshParts(p));
  PlModelFree(&p->model);
  PetscCall(PetscFree(p));
  *pp = NULL;
  PetscFunctionReturn(0);
}

/* Seabed contact of element e by two-point Gauss (models/seabed.c: along the plane's normal):
 * nodal forces f[2][3] and their derivatives k[a][b] = d f_a / d x_b (3 x 3, row-major). */
static void SeabedElement(const PlProblem p, int e, const double xA[3], const double xB[3], double f[2][3],
                          double k[2][2][9])
{
  const PlSection *s = &p->model.segments[p->mesh.segment[e]].section;
  const double L = p->elements[e].L, g = 0.5 / sqrt(3.0);
  const double xi[2] = {0.5 - g, 0.5 + g}; /* Gauss points on [0, 1], weights 1/2 */
  memset(f, 0, sizeof(double) * 6);
  memset(k, 0, sizeof(double) * 36);
  for (int q = 0; q < 2; ++q) {
    const double N[2] = {1.0 - xi[q], xi[q]};
    double x[3], F[3], dF[9];
    for (int c = 0; c < 3; ++c) x[c] = N[0] * xA[c] + N[1] * xB[c];
    PlSeabedContact(&p->model, s, p->w[e], x, F, dF);
    for (int a = 0; a < 2; ++a) {
      for (int c = 0; c < 3; ++c) f[a][c] += 0.5 * L * N[a] * F[c];
      for (int b = 0; b < 2; ++b)
        for (int c = 0; c < 9; ++c) k[a][b][c] += 0.5 * L * N[a] * N[b] * dF[c];
    }
  }
}

void PlProblemSetAnchor(PlProblem p, int e, const double xA[3], const double xB[3])
{
  const PlSection *s = &p->model.segments[p->mesh.segment[e]].section;
  double *A = p->fric + 9 * (size_t)e, t[3], kappa, n[3];
  for (int c = 0; c < 3; ++c) A[c] = 0.5 * (xA[c] + xB[c]), t[c] = xB[c] - xA[c];
  PlSeabedGeometry(&p->model, s, A, &kappa, n, NULL, NULL);
  PlFrictionFrame(t, n, A + 3, A + 6);
}

void PlProblemFrictionLaw(const PlProblem p, int e, const double xA[3], const double xB[3], const double a[3],
                          double *P, double dP[2][3], double phi[3], double dphi[9], double *rho)
{
  const PlModel *m = &p->model;
  const PlSection *s = &m->segments[p->mesh.segment[e]].section;
  const double *A = p->fric + 9 * (size_t)e, L = p->elements[e].L, g = 0.5 / sqrt(3.0);
  const double xi[2] = {0.5 - g, 0.5 + g};
  *P = 0.0;
  memset(dP, 0, 6 * sizeof(double));
  for (int q = 0; q < 2; ++q) {
    const double N[2] = {1.0 - xi[q], xi[q]};
    double x[3], kappa, n[3], dk[3], sig, dsig;
    for (int c = 0; c < 3; ++c) x[c] = N[0] * xA[c] + N[1] * xB[c];
    PlSeabedGeometry(m, s, x, &kappa, n, dk, NULL);
    PlSeabedLaw(m, s, p->w[e], kappa, &sig, &dsig);
    *P += 0.5 * L * sig;
    for (int b = 0; b < 2; ++b)
      for (int c = 0; c < 3; ++c) dP[b][c] += 0.5 * L * dsig * N[b] * dk[c];
  }
  double u[3], da, dl;
  for (int c = 0; c < 3; ++c) u[c] = 0.5 * (xA[c] + xB[c]) - a[c];
  PlFrictionMobilisation(m, s, &da, &dl);
  PlFrictionSaturated(m, da, dl, A + 3, A + 6, u, phi, dphi, rho);
}

/* Seabed friction of element e in a static analysis (models/friction.c): the element's normal
 * force P and the law phi at its midpoint's slip from its anchor (PlProblemFrictionLaw), the
 * force F = P phi shared equally by its nodes:
 *   f_a = F/2,  df_a/dx_b = (1/2) [P dphi/du (1/2) + phi (dP/dx_b)^T].
 * *P_out: P [N]; *rho_out: the law's utilisation measure rho (tanh(rho) of the capacity);
 * either may be NULL. */
static void FrictionElement(const PlProblem p, int e, const double xA[3], const double xB[3], double f[2][3],
                            double k[2][2][9], double *P_out, double *rho_out)
{
  double P, dP[2][3], phi[3], dphi[9];
  PlProblemFrictionLaw(p, e, xA, xB, p->fric + 9 * (size_t)e, &P, dP, phi, dphi, rho_out);
  if (P_out) *P_out = P;
  for (int a = 0; a < 2; ++a) {
    for (int c = 0; c < 3; ++c) f[a][c] = 0.5 * P * phi[c];
    for (int b = 0; b < 2; ++b)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) k[a][b][3 * i + j] = 0.5 * (0.5 * P * dphi[3 * i + j] + phi[i] * dP[b][j]);
  }
}

void PlProblemFrictionState(const PlProblem p, int e, const double *uA, const double *uB, double *P, double *rho)
{
  double f[2][3], k[2][2][9];
  FrictionElement(p, e, uA, uB, f, k, P, rho);
}

/* The external loads of element e at rest, on its nodes' translation rows (residual sign:
 * minus the load), and their derivative with respect to the nodes' positions:
 *   weight              lambda q on each node's z row (PlElementWeight: w L/2 when
 *                       submerged, the dry weight above the sea surface);
 *   seabed              -sigma(kappa) n by two-point Gauss (SeabedElement);
 *   current drag        the Morison drag of the element at rest in the current v_c(z)
 *                       (PlRodElementMorison, the dynamic analysis' kernel with zero node
 *                       velocities), times lambda, at the time p->current_time: the settled
 *                       current in a static analysis, the current at t = 0 before a dynamic one.
 * f[6] = rows xA, xB; K[36] = df/d(xA, xB) (row-major 6 x 6) when not NULL. */
void PlProblemElementLoads(const PlProblem p, int e, const double *uA, const double *uB, double f[6], double *K)
{
  const PlModel *m = &p->model;
  const PlSegment *seg = &m->segments[p->mesh.segment[e]];
  const double L = p->elements[e].L;
  double fs[2][3], ks[2][2][9];
  memset(f, 0, 6 * sizeof(double));
  if (K) memset(K, 0, 36 * sizeof(double));
  double fw[2], kw[2][2];
  SeabedElement(p, e, uA, uB, fs, ks);
  PlElementWeight(&seg->section, m->water_density, m->gravity, L, uA[2], uB[2], fw, K ? kw : NULL);
  for (int a = 0; a < 2; ++a) {
    f[3 * a + 2] += p->lambda * fw[a];
    for (int c = 0; c < 3; ++c) f[3 * a + c] -= fs[a][c];
    if (K)
      for (int b = 0; b < 2; ++b) {
        K[(3 * a + 2) * 6 + 3 * b + 2] += p->lambda * kw[a][b];
        for (int c = 0; c < 3; ++c)
          for (int d = 0; d < 3; ++d)
            if (m->bathymetry || (m->seabed_normal[c] != 0.0 && m->seabed_normal[d] != 0.0))
              K[(3 * a + c) * 6 + 3 * b + d] -= ks[a][b][3 * c + d];
      }
  }
  if (p->fric) { /* seabed friction (FrictionElement) */
    double ff[2][3], kf[2][2][9];
    FrictionElement(p, e, uA, uB, ff, kf, NULL, NULL);
    for (int a = 0; a < 2; ++a)
      for (int c = 0; c < 3; ++c) {
        f[3 * a + c] -= ff[a][c];
        if (K)
          for (int b = 0; b < 2; ++b)
            for (int d = 0; d < 3; ++d) K[(3 * a + c) * 6 + 3 * b + d] -= kf[a][b][3 * c + d];
      }
  }
  if (m->current.kind == PL_CURRENT_NONE || (seg->hydro.drag_normal <= 0.0 && seg->hydro.drag_tangential <= 0.0))
    return;
  const PlSection *s = &seg->section;
  const PlMorison h = {.L = L, .rho_w = m->water_density,
                       .d_h = s->hydro_diameter > 0.0 ? s->hydro_diameter : s->outer_diameter,
                       .Cdn = seg->hydro.drag_normal, .Cdt = seg->hydro.drag_tangential, .d_o = s->outer_diameter};
  const double gq = 0.5 / sqrt(3.0), xi[2] = {0.5 - gq, 0.5 + gq};
  double yA[6] = {uA[0], uA[1], uA[2], 0, 0, 0}, yB[6] = {uB[0], uB[1], uB[2], 0, 0, 0}, yp[6] = {0};
  double f6[6], K6[72];
  PlFluidAt fl[2]; /* the statics: calm water and the current */
  for (int q = 0; q < 2; ++q)
    PlCurrentFluid(&m->current, m->water_depth, (1.0 - xi[q]) * uA[2] + xi[q] * uB[2], p->current_time, &fl[q]);
  PlRodElementMorison(&h, yA, yp, yB, yp, 3, fl, 0.0, f6, K ? K6 : NULL);
  for (int i = 0; i < 6; ++i) {
    f[i] += p->lambda * f6[i];
    if (K) /* the position columns of K6 (columns xA, vA, xB, vB) */
      for (int b = 0; b < 2; ++b)
        for (int j = 0; j < 3; ++j) K[i * 6 + 3 * b + j] += p->lambda * K6[i * 12 + 6 * b + j];
  }
}

static PetscBool EndMomentGiven(const PlEnd *E)
{
  return E->moment[0] != 0.0 || E->moment[1] != 0.0 || E->moment[2] != 0.0;
}

PetscErrorCode PlFormFunction(SNES snes, Vec U, Vec F, void *ctx)
{
  PlProblem p = (PlProblem)ctx;
  const int nd = p->nd, nn = p->mesh.nnodes, ne = p->mesh.nelements;
  Vec Uloc, Floc;
  PetscScalar **u, **f;
  PetscInt xs, xm;
  int bad = 0;
  PetscFunctionBeginUser;
  PetscCall(DMGetLocalVector(p->da, &Uloc));
  PetscCall(DMGetLocalVector(p->da, &Floc));
  PetscCall(DMGlobalToLocal(p->da, U, INSERT_VALUES, Uloc));
  PetscCall(VecZeroEntries(Floc));
  PetscCall(DMDAGetCorners(p->da, &xs, NULL, NULL, &xm, NULL, NULL));
  PetscCall(DMDAVecGetArrayDOFRead(p->da, Uloc, &u));
  PetscCall(DMDAVecGetArrayDOF(p->da, Floc, &f));
  for (PetscInt e = xs; e < xs + xm && e < ne; ++e) {
    double ue[PL_ELEM_DOF_MAX], re[PL_ELEM_DOF_MAX];
    for (int c = 0; c < nd; ++c) {
      ue[c] = u[e][c];
      ue[nd + c] = u[e + 1][c];
    }
    if (PlRodElementInternal(&p->elements[e], ue, re, NULL)) bad = 1;
    double fl[6];
    PlProblemElementLoads(p, (int)e, ue, ue + nd, fl, NULL);
    for (int c = 0; c < nd; ++c) {
      f[e][c] += re[c];
      f[e + 1][c] += re[nd + c];
    }
    for (int c = 0; c < 3; ++c) {
      f[e][c] += fl[c];
      f[e + 1][c] += fl[3 + c];
    }
  }
  for (int k = 0; k < 2; ++k) {
    const PetscInt i = k ? nn - 1 : 0;
    if (i < xs || i >= xs + xm) continue;
    const PlEnd *E = &p->model.ends[k];
    for (int c = 0; c < 3; ++c) f[i][c] -= p->lambda * E->force[c];
    if (EndMomentGiven(E)) {
      double pr[4], M[3];
      for (int c = 0; c < 3; ++c) M[c] = p->lambda * E->moment[c];
      PlNodeMomentGeneralised(p->kind, p->mesh.q0 + 4 * i, &u[i][3], M, pr, NULL);
      for (int c = 0; c < nd - 3; ++c) f[i][3 + c] -= pr[c];
    }
  }
  if (p->kind == PL_PARAM_QUATERNION)
    for (PetscInt i = xs; i < xs + xm; ++i) {
      double pq[4] = {u[i][3], u[i][4], u[i][5], u[i][6]}, r[4] = {0, 0, 0, 0};
      PlQuaternionGauge(p->gauge_k[i], pq, r, NULL);
      for (int c = 0; c < 4; ++c) f[i][3 + c] += r[c];
    }
  PetscCall(DMDAVecRestoreArrayDOFRead(p->da, Uloc, &u));
  PetscCall(DMDAVecRestoreArrayDOF(p->da, Floc, &f));
  PetscCall(VecZeroEntries(F));
  PetscCall(DMLocalToGlobal(p->da, Floc, ADD_VALUES, F));
  PetscCall(DMRestoreLocalVector(p->da, &Floc));
  PetscCall(DMRestoreLocalVector(p->da, &Uloc));

  /* held DOFs (owned rows only) */
  const PetscScalar **ug;
  PetscScalar **fg;
  PetscCall(DMDAVecGetArrayDOFRead(p->da, U, &ug));
  PetscCall(DMDAVecGetArrayDOF(p->da, F, &fg));
  for (PetscInt i = xs; i < xs + xm; ++i)
    for (int c = 0; c < nd; ++c) {
      const PetscInt k = i * nd + c;
      if (!p->bc_mask[k]) continue;
      const double mu = p->hold_factor < 0.0 ? p->lambda : p->hold_factor;
      const double ubar = p->bc_start[k] + mu * (p->bc_target[k] - p->bc_start[k]);
      fg[i][c] = p->bc_scale[k] * (ug[i][c] - ubar);
    }
  PetscCall(DMDAVecRestoreArrayDOFRead(p->da, U, &ug));
  PetscCall(DMDAVecRestoreArrayDOF(p->da, F, &fg));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, p->comm));
  p->domain_error = bad;
  if (bad && snes) PetscCall(SNESSetFunctionDomainError(snes));
  PetscFunctionReturn(0);
}

PetscErrorCode PlFormJacobian(SNES snes, Vec U, Mat J, Mat P, void *ctx)
{
  PlProblem p = (PlProblem)ctx;
  const int nd = p->nd, nn = p->mesh.nnodes, ne = p->mesh.nelements, n2 = 2 * nd;
  Vec Uloc;
  PetscScalar **u;
  PetscInt xs, xm, gxs;
  PetscFunctionBeginUser;
  (void)snes;
  PetscCall(MatZeroEntries(P));
  PetscCall(DMGetLocalVector(p->da, &Uloc));
  PetscCall(DMGlobalToLocal(p->da, U, INSERT_VALUES, Uloc));
  PetscCall(DMDAGetCorners(p->da, &xs, NULL, NULL, &xm, NULL, NULL));
  PetscCall(DMDAGetGhostCorners(p->da, &gxs, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAVecGetArrayDOFRead(p->da, Uloc, &u));
  for (PetscInt e = xs; e < xs + xm && e < ne; ++e) {
    double ue[PL_ELEM_DOF_MAX], K[PL_ELEM_DOF_MAX * PL_ELEM_DOF_MAX];
    const PetscInt idx[2] = {e - gxs, e + 1 - gxs};
    for (int c = 0; c < nd; ++c) {
      ue[c] = u[e][c];
      ue[nd + c] = u[e + 1][c];
    }
    if (PlRodElementInternal(&p->elements[e], ue, NULL, K)) memset(K, 0, sizeof K);
    double fl[6], Kl[36];
    PlProblemElementLoads(p, (int)e, ue, ue + nd, fl, Kl);
    for (int a = 0; a < 2; ++a)
      for (int i = 0; i < 3; ++i)
        for (int b = 0; b < 2; ++b)
          for (int j = 0; j < 3; ++j) K[(a * nd + i) * n2 + b * nd + j] += Kl[(3 * a + i) * 6 + 3 * b + j];
    for (int a = 0; a < 2; ++a) /* held rows carry only s e_i (added below) */
      for (int c = 0; c < nd; ++c)
        if (p->bc_mask[(e + a) * nd + c]) memset(K + (a * nd + c) * n2, 0, n2 * sizeof(double));
    PetscCall(MatSetValuesBlockedLocal(P, 2, idx, 2, idx, K, ADD_VALUES));
  }
  for (PetscInt i = xs; i < xs + xm; ++i) {
    /* the node's block: the gauge and a given end moment on its parameters, the holds */
    double Kn[16], Kb[PL_NODE_DOF_MAX * PL_NODE_DOF_MAX];
    const PetscInt bi = i - gxs;
    const int np = nd - 3;
    memset(Kn, 0, sizeof Kn);
    memset(Kb, 0, sizeof Kb);
    if (p->kind == PL_PARAM_QUATERNION) {
      double pq[4] = {u[i][3], u[i][4], u[i][5], u[i][6]}, r[4] = {0, 0, 0, 0};
      PlQuaternionGauge(p->gauge_k[i], pq, r, Kn);
    }
    const int k = i == 0 ? 0 : (i == nn - 1 ? 1 : -1);
    if (k >= 0 && EndMomentGiven(&p->model.ends[k])) {
      double pr[4], Km[16], M[3];
      for (int c = 0; c < 3; ++c) M[c] = p->lambda * p->model.ends[k].moment[c];
      PlNodeMomentGeneralised(p->kind, p->mesh.q0 + 4 * i, &u[i][3], M, pr, Km);
      for (int a = 0; a < np * np; ++a) Kn[a] -= Km[a];
    }
    for (int a = 0; a < np; ++a)
      if (!p->bc_mask[i * nd + 3 + a])
        for (int b = 0; b < np; ++b) Kb[(3 + a) * nd + 3 + b] = Kn[a * np + b];
    for (int c = 0; c < nd; ++c)
      if (p->bc_mask[i * nd + c]) Kb[c * nd + c] = p->bc_scale[i * nd + c];
    PetscCall(MatSetValuesBlockedLocal(P, 1, &bi, 1, &bi, Kb, ADD_VALUES));
  }
  PetscCall(DMDAVecRestoreArrayDOFRead(p->da, Uloc, &u));
  PetscCall(DMRestoreLocalVector(p->da, &Uloc));
  PetscCall(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
  if (J != P) {
    PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode PlVecGatherAll(Vec v, double *out)
{
  VecScatter sc;
  Vec all;
  const PetscScalar *a;
  PetscInt n;
  PetscFunctionBeginUser;
  PetscCall(VecScatterCreateToAll(v, &sc, &all));
  PetscCall(VecScatterBegin(sc, v, all, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(sc, v, all, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGetSize(all, &n)); /* natural order: a 1-D DMDA keeps it */
  PetscCall(VecGetArrayRead(all, &a));
  memcpy(out, a, sizeof(double) * n);
  PetscCall(VecRestoreArrayRead(all, &a));
  PetscCall(VecScatterDestroy(&sc));
  PetscCall(VecDestroy(&all));
  PetscFunctionReturn(0);
}

PetscErrorCode PlGatherUnknowns(PlProblem p, double **out)
{
  const PetscInt n = (PetscInt)p->mesh.nnodes * p->nd;
  PetscFunctionBeginUser;
  double *u = malloc(sizeof(double) * n);
  PetscCheck(u, p->comm, PETSC_ERR_MEM, "out of memory gathering the state");
  PetscCall(PlVecGatherAll(p->u, u));
  *out = u;
  PetscFunctionReturn(0);
}

PetscErrorCode PlProblemGatherState(PlProblem p, double **xo, double **qo, int *nno)
{
  const int nd = p->nd, nn = p->mesh.nnodes;
  double *u;
  PetscFunctionBeginUser;
  PetscCall(PlGatherUnknowns(p, &u));
  double *x = malloc(sizeof(double) * 3 * nn), *q = malloc(sizeof(double) * 4 * nn);
  if (!x || !q) {
    free(x);
    free(q);
    free(u);
    SETERRQ(p->comm, PETSC_ERR_MEM, "out of memory gathering the state");
  }
  for (int i = 0; i < nn; ++i) {
    for (int c = 0; c < 3; ++c) x[3 * i + c] = u[i * nd + c];
    PlNodeQuaternion(p->kind, p->mesh.q0 + 4 * i, u + i * nd + 3, q + 4 * i);
  }
  free(u);
  *xo = x;
  *qo = q;
  *nno = nn;
  PetscFunctionReturn(0);
}

void PlProblemEndReactionLocal(const PlProblem p, int end, const double *ue_in, double f[3], double m[3])
{
  const int nd = p->nd, nn = p->mesh.nnodes, e = end ? p->mesh.nelements - 1 : 0, a = end ? 1 : 0;
  const int i = end ? nn - 1 : 0;
  double ue[PL_ELEM_DOF_MAX], re[PL_ELEM_DOF_MAX], fl[6];
  memcpy(ue, ue_in, sizeof(double) * 2 * nd);
  PlRodElementInternal(&p->elements[e], ue, re, NULL);
  PlProblemElementLoads(p, e, ue, ue + nd, fl, NULL);
  const PlEnd *E = &p->model.ends[end];
  for (int c = 0; c < 3; ++c) f[c] = re[a * nd + c] + fl[3 * a + c] - p->lambda * E->force[c];
  double rp[4];
  for (int c = 0; c < nd - 3; ++c) rp[c] = re[a * nd + 3 + c];
  if (EndMomentGiven(E)) {
    double pr[4], M[3];
    for (int c = 0; c < 3; ++c) M[c] = p->lambda * E->moment[c];
    PlNodeMomentGeneralised(p->kind, p->mesh.q0 + 4 * i, ue + (size_t)a * nd + 3, M, pr, NULL);
    for (int c = 0; c < nd - 3; ++c) rp[c] -= pr[c];
  }
  PlNodeMapParamForce(p->kind, ue + (size_t)a * nd + 3, rp, m, NULL);
}

PetscErrorCode PlProblemEndReaction(PlProblem p, int end, double f[3], double m[3])
{
  const int nd = p->nd, e = end ? p->mesh.nelements - 1 : 0;
  double *u = NULL;
  PetscFunctionBeginUser;
  PetscCall(PlGatherUnknowns(p, &u));
  PlProblemEndReactionLocal(p, end, u + (size_t)e * nd, f, m);
  free(u);
  PetscFunctionReturn(0);
}

/* ---- renumbering (pay-out: solver/dynamic.c) -------------------------------------------- */
PetscErrorCode PlProblemRenumber(PlProblem p, int nn, const int *from, const double *S, const double *x,
                                 const double *q, int seg)
{
  const int nd = p->nd, ne = nn - 1, nn_old = p->mesh.nnodes;
  double *uold;
  PlMesh M;
  PlRodElement *el;
  double *w, *fric = NULL, *bs, *bt, *bsc, *gk;
  char *bm;
  PetscFunctionBeginUser;
  PetscCheck(nn >= 2, p->comm, PETSC_ERR_ARG_OUTOFRANGE, "a line needs two nodes");
  PetscCall(PlGatherUnknowns(p, &uold));
  memset(&M, 0, sizeof M);
  M.nnodes = nn;
  M.nelements = ne;
  M.S = malloc(sizeof(double) * nn);
  M.segment = malloc(sizeof(int) * ne);
  M.x0 = malloc(sizeof(double) * 3 * nn);
  M.q0 = malloc(sizeof(double) * 4 * nn);
  M.guess_used = p->mesh.guess_used;
  memcpy(M.guess_note, p->mesh.guess_note, sizeof M.guess_note);
  PetscCheck(M.S && M.segment && M.x0 && M.q0, p->comm, PETSC_ERR_MEM, "out of memory");
  PetscCall(PetscMalloc1(ne, &el));
  PetscCall(PetscMalloc1(ne, &w));
  if (p->fric) PetscCall(PetscMalloc1((size_t)ne * 9, &fric));
  PetscCall(PetscCalloc1(nn * nd, &bm));
  PetscCall(PetscCalloc1(nn * nd, &bs));
  PetscCall(PetscCalloc1(nn * nd, &bt));
  PetscCall(PetscCalloc1(nn * nd, &bsc));
  PetscCall(PetscMalloc1(nn, &gk));
  double *unew;
  PetscCall(PetscMalloc1((size_t)nn * nd, &unew));
  for (int i = 0; i < nn; ++i) {
    const int o = from[i];
    M.S[i] = S[i];
    if (o >= 0) {
      PetscCheck(o < nn_old, p->comm, PETSC_ERR_ARG_OUTOFRANGE, "no old node %d", o);
      memcpy(M.x0 + 3 * i, p->mesh.x0 + 3 * o, sizeof(double) * 3);
      memcpy(M.q0 + 4 * i, p->mesh.q0 + 4 * o, sizeof(double) * 4);
      memcpy(bm + (size_t)i * nd, p->bc_mask + (size_t)o * nd, nd);
      memcpy(bs + (size_t)i * nd, p->bc_start + (size_t)o * nd, sizeof(double) * nd);
      memcpy(bt + (size_t)i * nd, p->bc_target + (size_t)o * nd, sizeof(double) * nd);
      memcpy(bsc + (size_t)i * nd, p->bc_scale + (size_t)o * nd, sizeof(double) * nd);
      memcpy(unew + (size_t)i * nd, uold + (size_t)o * nd, sizeof(double) * nd);
      gk[i] = p->gauge_k[o];
    } else { /* a new node, free, at x with frame q: its parameters the identity */
      memcpy(M.x0 + 3 * i, x + 3 * i, sizeof(double) * 3);
      memcpy(M.q0 + 4 * i, q + 4 * i, sizeof(double) * 4);
      memcpy(bs + (size_t)i * nd, x + 3 * i, sizeof(double) * 3);
      PlParamIdentity(p->kind, bs + (size_t)i * nd + 3);
      memcpy(bt + (size_t)i * nd, bs + (size_t)i * nd, sizeof(double) * nd);
      memcpy(unew + (size_t)i * nd, bs + (size_t)i * nd, sizeof(double) * nd);
      gk[i] = -1.0; /* below, from its elements */
    }
  }
  for (int e = 0; e < ne; ++e) {
    const int a = from[e], b = from[e + 1];
    if (a >= 0 && b == a + 1) { /* an element kept */
      M.segment[e] = p->mesh.segment[a];
      el[e] = p->elements[a];
      w[e] = p->w[a];
      if (fric) memcpy(fric + 9 * (size_t)e, p->fric + 9 * (size_t)a, sizeof(double) * 9);
      continue;
    }
    M.segment[e] = seg;
    PetscCheck(!p->model.rest_from_start && !PlModelCurvedAtRest(&p->model), p->comm, PETSC_ERR_SUP,
               "pay-out of a line curved at rest is not supported (its new elements' rest shape)");
    const PlSection *s = &p->model.segments[seg].section;
    PlRodElementInit(&el[e], S[e + 1] - S[e], s, M.q0 + 4 * e, M.q0 + 4 * (e + 1), p->kind);
    w[e] = PlSectionSubmergedWeight(s, p->model.water_density, p->model.gravity);
  }
  for (int i = 0; i < nn; ++i)
    if (gk[i] < 0.0) {
      const int e = i < ne ? i : ne - 1;
      gk[i] = fmax(el[e].CT[1], el[e].CT[2]) * el[e].L;
    }
  free(uold);
  /* swap in */
  PetscCall(FreeMeshParts(p));
  p->mesh = M;
  p->elements = el;
  p->w = w;
  p->fric = fric;
  p->bc_mask = bm;
  p->bc_start = bs;
  p->bc_target = bt;
  p->bc_scale = bsc;
  p->gauge_k = gk;
  for (int e = 0; fric && e < ne; ++e) /* a new element's anchor: its midpoint as it is now */
    if (!(from[e] >= 0 && from[e + 1] == from[e] + 1))
      PlProblemSetAnchor(p, e, unew + (size_t)e * nd, unew + (size_t)(e + 1) * nd);
  PetscCall(SetUpState(p, unew));
  PetscCall(PetscFree(unew));
  PetscFunctionReturn(0);
}
