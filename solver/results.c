/*
 * results.c - post-processing of a static state and the files a run leaves.
 *
 * Element stations are the midpoint (quadrature point) values of each element: the
 * material stress resultants n = (effective tension, shear 2, shear 3) and couples
 * m = (torque, bending 2, bending 3) of eqs 5.23-5.24. Node stations carry the nodal
 * positions and the mean of the adjacent elements' values (the end nodes take their one
 * element's), and the seabed contact force per length at the node.
 * Files (rank 0): static.csv (nodes), static_elements.csv (elements), summary.json,
 * every double printed with 17 significant digits (round-trip).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cjson/cJSON.h>
#include <sundials/sundials_version.h>
#include "solver_impl.h"

PetscErrorCode PlProblemStations(PlProblem p, PlStation **nodes_out, int *nn_out,
                                 PlStation **el_out, int *ne_out)
{
  const int nn = p->mesh.nnodes, ne = p->mesh.nelements;
  PetscMPIInt rank;
  double *u;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(p->comm, &rank));
  PetscCall(PlGatherUnknowns(p, &u));
  *nodes_out = NULL;
  *el_out = NULL;
  *nn_out = *ne_out = 0;
  if (rank) {
    free(u);
    PetscFunctionReturn(0);
  }
  const int rc = PlStationsOf(p, u, nodes_out, el_out);
  free(u);
  PetscCheck(!rc, p->comm, PETSC_ERR_MEM, "out of memory in post-processing");
  *nn_out = nn;
  *ne_out = ne;
  PetscFunctionReturn(0);
}

/* Element e's station from its section state st (bad: outside the rod's domain), ue its nodes'
 * static unknowns. */
static void ElementStation(const PlProblem p, int e, const double *ue, const PlRodSectionState *st, int bad,
                           PlStation *s)
{
  memset(s, 0, sizeof *s);
  s->S = 0.5 * (p->mesh.S[e] + p->mesh.S[e + 1]);
  if (bad) { /* outside the rod's domain (a 180-degree turn over the element): no section */
    const double nan = NAN;
    s->tension = s->torque = s->curvature = s->axial_strain = s->strain_energy = nan;
    for (int c = 0; c < 3; ++c) s->x[c] = 0.5 * (ue[c] + ue[p->nd + c]);
    s->shear[0] = s->shear[1] = s->moment[0] = s->moment[1] = nan;
    return;
  }
  memcpy(s->x, st->xm, sizeof s->x);
  s->tension = st->n[0];
  s->shear[0] = st->n[1];
  s->shear[1] = st->n[2];
  s->torque = st->m[0];
  s->moment[0] = st->m[1];
  s->moment[1] = st->m[2];
  s->curvature = hypot(st->kappa[1], st->kappa[2]);
  s->axial_strain = st->gamma[0];
  s->strain_energy = PlRodSectionEnergy(&p->elements[e], st);
  for (int c = 0; c < 3; ++c) {
    s->t2[c] = st->Rm[3 * c + 1];
    s->t3[c] = st->Rm[3 * c + 2];
  }
}

void PlElementStationOf(const PlProblem p, int e, const double *ue, PlStation *s)
{
  const int nd = p->nd;
  double q[2][4];
  PlRodSectionState st;
  for (int k = 0; k < 2; ++k) PlNodeQuaternion(p->kind, p->mesh.q0 + 4 * (e + k), ue + k * nd + 3, q[k]);
  const int bad = PlRodElementStateOfFrames(&p->elements[e], ue, ue + nd, q[0], q[1], &st);
  ElementStation(p, e, ue, &st, bad, s);
}

void PlStationsAddStrainEnergy(const PlStation *elements, int ne, double *U)
{
  for (int e = 0; e < ne; ++e) *U += elements[e].strain_energy;
}

int PlStationsOf(const PlProblem p, const double *u, PlStation **nodes_out, PlStation **el_out)
{
  const int nd = p->nd, nn = p->mesh.nnodes, ne = p->mesh.nelements;
  PlStation *N = calloc(nn, sizeof *N), *E = calloc(ne, sizeof *E);
  double *q = malloc(sizeof(double) * 4 * (size_t)nn), *sig = malloc(sizeof(double) * 2 * (size_t)ne);
  if (!N || !E || !q || !sig) {
    free(N);
    free(E);
    free(q);
    free(sig);
    return 1;
  }
  /* each node's frame once (its element stations' and its own), each Gauss point's seabed
   * pressure once (both its nodes') */
  const double gq = 0.5 / sqrt(3.0), xi[2] = {0.5 - gq, 0.5 + gq};
  for (int i = 0; i < nn; ++i) PlNodeQuaternion(p->kind, p->mesh.q0 + 4 * i, u + (size_t)i * nd + 3, q + 4 * i);
  for (int e = 0; e < ne; ++e) {
    const double *ue = u + (size_t)e * nd;
    PlRodSectionState st;
    const int bad = PlRodElementStateOfFrames(&p->elements[e], ue, ue + nd, q + 4 * e, q + 4 * (e + 1), &st);
    ElementStation(p, e, ue, &st, bad, &E[e]);
    const PlSection *sec = &p->model.segments[p->mesh.segment[e]].section;
    for (int k = 0; k < 2; ++k) {
      double x[3], dsig;
      for (int c = 0; c < 3; ++c) x[c] = (1.0 - xi[k]) * ue[c] + xi[k] * ue[nd + c];
      PlSeabedLaw(&p->model, sec, p->w[e], PlSeabedPenetration(&p->model, sec, x), &sig[2 * e + k], &dsig);
    }
  }
  for (int i = 0; i < nn; ++i) {
    PlStation *s = &N[i];
    const int a = i > 0 ? i - 1 : 0, b = i < ne ? i : ne - 1;
    s->S = p->mesh.S[i];
    for (int c = 0; c < 3; ++c) s->x[c] = u[i * nd + c];
    s->tension = 0.5 * (E[a].tension + E[b].tension);
    s->shear[0] = 0.5 * (E[a].shear[0] + E[b].shear[0]);
    s->shear[1] = 0.5 * (E[a].shear[1] + E[b].shear[1]);
    s->torque = 0.5 * (E[a].torque + E[b].torque);
    s->moment[0] = 0.5 * (E[a].moment[0] + E[b].moment[0]);
    s->moment[1] = 0.5 * (E[a].moment[1] + E[b].moment[1]);
    s->curvature = 0.5 * (E[a].curvature + E[b].curvature);
    s->axial_strain = 0.5 * (E[a].axial_strain + E[b].axial_strain);
    /* the seabed's force per length carried at the node: the solver's consistent nodal force
     * (two-point Gauss on its elements, as assembled) over its tributary length. A node's own
     * penetration would mislead on a curved seabed: there the chords between nodes lie off the
     * surface by its curvature times L^2/8, which a stiff law turns into large forces. */
    double fz = 0.0, trib = 0.0, R[9];
    for (int e = i - 1; e <= i; ++e) {
      if (e < 0 || e >= ne) continue;
      const double L = p->elements[e].L;
      trib += 0.5 * L;
      for (int k = 0; k < 2; ++k) fz += 0.5 * L * (e == i ? 1.0 - xi[k] : xi[k]) * sig[2 * e + k];
    }
    s->seabed_force = trib > 0.0 ? fz / trib : 0.0;
    PlQuatToMatrix(q + 4 * i, R);
    for (int c = 0; c < 3; ++c) {
      s->t2[c] = R[3 * c + 1];
      s->t3[c] = R[3 * c + 2];
    }
  }
  free(q);
  free(sig);
  *nodes_out = N;
  *el_out = E;
  return 0;
}

/* Touchdown: from the top down, the first node in contact; the crossing interpolated. */
double PlTouchdown(const PlProblem p, const PlStation *N, int nn, double xt[3])
{
  const int ne = p->mesh.nelements;
  if (p->model.seabed == PL_SEABED_NONE) return NAN;
  for (int i = nn - 1; i >= 0; --i) {
    const PlSection *sec = &p->model.segments[p->mesh.segment[i < ne ? i : ne - 1]].section;
    const double pen = PlSeabedPenetration(&p->model, sec, N[i].x);
    if (pen <= 0.0) continue;
    double Std = N[i].S;
    for (int c = 0; c < 3; ++c) xt[c] = N[i].x[c];
    if (i + 1 < nn) {
      const double pen1 = PlSeabedPenetration(&p->model, sec, N[i + 1].x);
      const double f = pen / (pen - pen1);
      Std = N[i].S + f * (N[i + 1].S - N[i].S);
      for (int c = 0; c < 3; ++c) xt[c] = N[i].x[c] + f * (N[i + 1].x[c] - N[i].x[c]);
    }
    return Std;
  }
  return NAN;
}

PetscErrorCode PlStaticSummarize(PlProblem p, const PlStation *N, int nn, const PlStation *E,
                                 int ne, PlStaticSummary *s)
{
  PetscFunctionBeginUser;
  memset(s, 0, sizeof *s);
  if (p->vessel_solved) {
    s->has_vessel = 1;
    s->vessel = p->vessel_report;
  }
  /* the gather is collective: every rank takes part, only rank 0 (nn > 0) summarises */
  double *u;
  PetscCall(PlGatherUnknowns(p, &u));
  if (nn == 0) {
    free(u);
    PetscFunctionReturn(0);
  }
  /* top reaction: R = n^e(last element) + the top element's loads on the top node (weight,
   * seabed, current drag: the top node's equilibrium, as its residual row) */
  const int last = ne - 1;
  PlRodSectionState st;
  double qtop[4];
  PlRodElementState(&p->elements[last], u + last * p->nd, &st);
  PlNodeQuaternion(p->kind, p->mesh.q0 + 4 * (nn - 1), u + (nn - 1) * p->nd + 3, qtop);
  double fl[6]; /* the top element's loads: the top node's share (rows 3..5) */
  PlProblemElementLoads(p, last, u + last * p->nd, u + (last + 1) * p->nd, fl, NULL);
  free(u);
  double ne_sp[3];
  for (int c = 0; c < 3; ++c)
    ne_sp[c] = st.Rm[3 * c] * st.n[0] + st.Rm[3 * c + 1] * st.n[1] + st.Rm[3 * c + 2] * st.n[2];
  for (int c = 0; c < 3; ++c) ne_sp[c] += fl[3 + c];
  /* with the sign of the effective tension n1 of the top element: compression is negative */
  s->top_tension_N = copysign(sqrt(ne_sp[0] * ne_sp[0] + ne_sp[1] * ne_sp[1] + ne_sp[2] * ne_sp[2]), st.n[0]);
  s->top_horizontal_tension_N = hypot(ne_sp[0], ne_sp[1]);
  double R[9];
  PlQuatToMatrix(qtop, R);
  s->hang_off_angle_deg = atan2(R[6], hypot(R[0], R[3])) * 180.0 / M_PI;

  double xt[3];
  s->touchdown_arc_length_m = PlTouchdown(p, N, nn, xt);
  s->layback_m = isfinite(s->touchdown_arc_length_m) ? hypot(N[nn - 1].x[0] - xt[0], N[nn - 1].x[1] - xt[1]) : NAN;
  s->off_grid_node = -1;
  for (int i = nn - 1; i >= 0 && p->model.bathymetry && p->model.seabed != PL_SEABED_NONE; --i) {
    double z;
    if (PlBathymetryEval(p->model.bathymetry, N[i].x[0], N[i].x[1], &z, NULL, NULL)) continue;
    s->off_grid_node = i;
    s->off_grid_xy[0] = N[i].x[0], s->off_grid_xy[1] = N[i].x[1];
    break;
  }
  s->friction_mobilised = s->friction_mobilised_arc_length_m = NAN;
  if (p->fric)
    for (int e = 0; e < ne; ++e) {
      double P, rho;
      PlProblemFrictionState(p, e, N[e].x, N[e + 1].x, &P, &rho);
      if (P > 0.0 && !(tanh(rho) <= s->friction_mobilised)) {
        s->friction_mobilised = tanh(rho);
        s->friction_mobilised_arc_length_m = 0.5 * (N[e].S + N[e + 1].S);
      }
    }
  s->max_axial_strain = -INFINITY;
  s->max_fibre_strain = -INFINITY;
  for (int e = 0; e < ne; ++e) {
    const double M = hypot(E[e].moment[0], E[e].moment[1]);
    if (M > s->max_bending_moment_Nm) {
      s->max_bending_moment_Nm = M;
      s->max_bending_moment_arc_length_m = E[e].S;
    }
    const double d_o = p->model.segments[p->mesh.segment[e]].section.outer_diameter;
    s->max_axial_strain = fmax(s->max_axial_strain, E[e].axial_strain);
    s->max_fibre_strain = fmax(s->max_fibre_strain, E[e].axial_strain + 0.5 * d_o * E[e].curvature);
    s->max_tension_N = fmax(s->max_tension_N, E[e].tension);
    s->max_curvature_1pm = fmax(s->max_curvature_1pm, E[e].curvature);
  }
  if (p->model.design.present) { /* the governing values only (design.csv has the line) */
    PetscCheck(!PlDesignEnvelopeInit(&s->design, nn), PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory");
    PlDesignEnvelopeUpdate(&s->design, &p->model, 0.0, N, nn, NULL);
    PlDesignEnvelopeFree(&s->design);
    s->has_design = 1;
  }
  PetscFunctionReturn(0);
}

static const char *kStationHeader =
  "S_m,x_m,y_m,z_m,effective_tension_N,shear_force_2_N,shear_force_3_N,torque_Nm,"
  "bending_moment_2_Nm,bending_moment_3_Nm,curvature_1pm,axial_strain,seabed_force_Npm,"
  "t2_x,t2_y,t2_z,t3_x,t3_y,t3_z\n";

static int WriteStations(const char *dir, const char *name, const PlStation *s, int n, PlError *err)
{
  char path[PL_PATH_MAX + 64], tmp[PL_PATH_MAX + 80];
  FILE *f = PlFileOpenAtomic(dir, name, path, sizeof path, tmp, sizeof tmp, err);
  if (!f) return PL_EXIT_IO;
  fputs(kStationHeader, f);
  for (int i = 0; i < n; ++i) {
    const PlStation *a = &s[i];
    fprintf(f, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,"
               "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n",
            a->S, a->x[0], a->x[1], a->x[2], a->tension, a->shear[0], a->shear[1], a->torque,
            a->moment[0], a->moment[1], a->curvature, a->axial_strain, a->seabed_force, a->t2[0],
            a->t2[1], a->t2[2], a->t3[0], a->t3[1], a->t3[2]);
  }
  return PlFileCommit(f, 0, tmp, path, err);
}

static void AddNumber(cJSON *o, const char *key, double v)
{
  if (isfinite(v)) cJSON_AddNumberToObject(o, key, v);
  else cJSON_AddNullToObject(o, key);
}

void *PlSummaryBuild(const PlModel *m, const PlStaticReport *rep, const PlStaticSummary *s,
                     int nnodes, int nelements, int nranks, int noverrides,
                     const char *const *overrides)
{
  cJSON *root = cJSON_CreateObject();
  cJSON *in = cJSON_AddObjectToObject(root, "input");
  cJSON_AddStringToObject(in, "model_file", m->source_path);
  cJSON_AddStringToObject(in, "name", m->name);
  cJSON *ov = cJSON_AddArrayToObject(in, "overrides");
  for (int i = 0; i < noverrides; ++i) cJSON_AddItemToArray(ov, cJSON_CreateString(overrides[i]));
  cJSON_AddStringToObject(in, "rotation", m->rotation == PL_ROT_QUATERNION ? "quaternion" : "euler_zxy");
  cJSON_AddNumberToObject(in, "nodes", nnodes);
  cJSON_AddNumberToObject(in, "elements", nelements);
  cJSON_AddNumberToObject(in, "mpi_ranks", nranks);
  cJSON *ver = cJSON_AddObjectToObject(root, "versions");
  char buf[64];
  cJSON_AddStringToObject(ver, "pipelay", PIPELAY_VERSION);
  snprintf(buf, sizeof buf, "%d.%d.%d", PETSC_VERSION_MAJOR, PETSC_VERSION_MINOR, PETSC_VERSION_SUBMINOR);
  cJSON_AddStringToObject(ver, "petsc", buf);
  cJSON_AddStringToObject(ver, "sundials", SUNDIALS_VERSION);

  cJSON_AddStringToObject(root, "analysis", "static");
  cJSON_AddBoolToObject(root, "converged", rep->converged);
  cJSON_AddNumberToObject(root, "newton_iterations", rep->newton_iterations);
  cJSON_AddNumberToObject(root, "load_steps", rep->load_steps);
  cJSON_AddNumberToObject(root, "cutbacks", rep->cutbacks);
  cJSON_AddStringToObject(root, "static_strategy", rep->strategy == PL_STATIC_PTC ? "pseudo_transient" : "newton");
  cJSON_AddNumberToObject(root, "ptc_steps", rep->ptc_steps);
  AddNumber(root, "load_factor", rep->lambda);
  AddNumber(root, "final_residual_norm_N", rep->final_residual_norm);
  AddNumber(root, "wall_time_s", rep->wall_time_s);
  if (rep->target_solves) { /* ends.top.target: the force that reaches it */
    cJSON_AddNumberToObject(root, "target_solves", rep->target_solves);
    cJSON_AddItemToObject(root, "top_force_N", cJSON_CreateDoubleArray(rep->target_force_N, 3));
  }
  AddNumber(root, "top_tension_N", s->top_tension_N);
  AddNumber(root, "top_horizontal_tension_N", s->top_horizontal_tension_N);
  AddNumber(root, "hang_off_angle_deg", s->hang_off_angle_deg);
  AddNumber(root, "layback_m", s->layback_m);
  AddNumber(root, "touchdown_arc_length_m", s->touchdown_arc_length_m);
  AddNumber(root, "max_bending_moment_Nm", s->max_bending_moment_Nm);
  AddNumber(root, "max_bending_moment_arc_length_m", s->max_bending_moment_arc_length_m);
  AddNumber(root, "max_axial_strain", s->max_axial_strain);
  AddNumber(root, "max_fibre_strain", s->max_fibre_strain);
  AddNumber(root, "max_effective_tension_N", s->max_tension_N);
  AddNumber(root, "max_curvature_1pm", s->max_curvature_1pm);
  if (isfinite(s->friction_mobilised)) {
    AddNumber(root, "friction_mobilised", s->friction_mobilised);
    AddNumber(root, "friction_mobilised_arc_length_m", s->friction_mobilised_arc_length_m);
  }
  if (s->has_design) PlDesignSummaryAdd(root, m, &s->design, 0);
  cJSON *hist = cJSON_AddArrayToObject(root, "residual_history_N");
  for (int k = 0; k < rep->nhistory; ++k) cJSON_AddItemToArray(hist, cJSON_CreateNumber(rep->history[k]));
  if (!rep->converged) cJSON_AddStringToObject(root, "failure", rep->failure);
  if (s->has_vessel) {
    const PlVesselStaticReport *v = &s->vessel;
    const double r2d = 180.0 / 3.14159265358979323846;
    const double eta[6] = {v->eta[0], v->eta[1], v->eta[2], v->eta[3] * r2d, v->eta[4] * r2d, v->eta[5] * r2d};
    cJSON *o = cJSON_AddObjectToObject(root, "vessel_static");
    cJSON_AddBoolToObject(o, "converged", v->converged);
    cJSON_AddItemToObject(o, "eta_m_deg", cJSON_CreateDoubleArray(eta, 6));
    cJSON_AddItemToObject(o, "dp_integral_states", cJSON_CreateDoubleArray(v->z, 6));
    cJSON_AddItemToObject(o, "thrust_N_Nm", cJSON_CreateDoubleArray(v->thrust, 6));
    cJSON_AddItemToObject(o, "pipe_load_N_Nm", cJSON_CreateDoubleArray(v->pipe_load, 6));
    cJSON_AddItemToObject(o, "environment_N_Nm", cJSON_CreateDoubleArray(v->environment, 6));
    AddNumber(o, "imbalance_relative", v->residual_rel);
    cJSON_AddNumberToObject(o, "iterations", v->iterations);
    cJSON_AddNumberToObject(o, "rejected_steps", v->rejected);
    cJSON *h = cJSON_AddArrayToObject(o, "held_dofs");
    static const char *nm[6] = {"surge", "sway", "heave", "roll", "pitch", "yaw"};
    for (int i = 0; i < 6; ++i)
      if (v->held[i]) cJSON_AddItemToArray(h, cJSON_CreateString(nm[i]));
    cJSON_AddItemToObject(o, "unbalanced_N_Nm", cJSON_CreateDoubleArray(v->unbalanced, 6));
    if (v->failure[0]) cJSON_AddStringToObject(o, "failure", v->failure);
  }
  return root;
}

int PlSummaryWrite(const char *dir, void *root_, PlError *err)
{
  cJSON *root = (cJSON *)root_;
  char *text = cJSON_Print(root);
  if (!text) {
    snprintf(err->msg, sizeof err->msg, "summary.json: out of memory");
    return PL_EXIT_IO;
  }
  char path[PL_PATH_MAX + 64], tmp[PL_PATH_MAX + 80];
  FILE *f = PlFileOpenAtomic(dir, "summary.json", path, sizeof path, tmp, sizeof tmp, err);
  const int bad = !f || fputs(text, f) < 0 || fputc('\n', f) == EOF;
  free(text);
  return f ? PlFileCommit(f, bad, tmp, path, err) : PL_EXIT_IO;
}

int PlWriteStaticResults(const char *dir, const PlModel *m, const PlStaticReport *rep,
                         const PlStaticSummary *s, const PlStation *nodes, int nnodes,
                         const PlStation *elements, int nelements, int nranks,
                         int noverrides, const char *const *overrides, PlError *err)
{
  int rc = PlMakeDirs(dir, err);
  if (rc) return rc;
  if ((rc = WriteStations(dir, "static.csv", nodes, nnodes, err))) return rc;
  if ((rc = WriteStations(dir, "static_elements.csv", elements, nelements, err))) return rc;
  if (m->design.present && (rc = PlDesignWriteStatic(dir, m, nodes, nnodes, err))) return rc;
  cJSON *root = PlSummaryBuild(m, rep, s, nnodes, nelements, nranks, noverrides, overrides);
  rc = PlSummaryWrite(dir, root, err);
  cJSON_Delete(root);
  return rc;
}

/* ---- the vessel's time series and summary block (dynamic_run.c, body.c) ------------------- */
const char *PlVesselSeriesHeader(void)
{
  return "t_s,x_m,y_m,z_m,roll_deg,pitch_deg,yaw_deg,surge_velocity_mps,sway_velocity_mps,heave_velocity_mps,"
         "roll_rate_degps,pitch_rate_degps,yaw_rate_degps,x_ref_m,y_ref_m,yaw_ref_deg,offset_m,"
         "thrust_surge_N,thrust_sway_N,thrust_yaw_Nm,pipe_surge_N,pipe_sway_N,pipe_heave_N,pipe_roll_Nm,"
         "pipe_pitch_Nm,pipe_yaw_Nm,hang_off_x_m,hang_off_y_m,hang_off_z_m\n";
}

void PlVesselSeriesRow(FILE *f, double t, const PlVesselOutput *o)
{
  const double r2d = 180.0 / 3.14159265358979323846;
  fprintf(f, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g", t, o->eta[0], o->eta[1], o->eta[2], o->eta[3] * r2d,
          o->eta[4] * r2d, o->eta[5] * r2d);
  fprintf(f, ",%.17g,%.17g,%.17g,%.17g,%.17g,%.17g", o->nu[0], o->nu[1], o->nu[2], o->nu[3] * r2d, o->nu[4] * r2d,
          o->nu[5] * r2d);
  fprintf(f, ",%.17g,%.17g,%.17g,%.17g", o->eta_ref[0], o->eta_ref[1], o->eta_ref[5] * r2d,
          hypot(o->eta[0] - o->eta_ref[0], o->eta[1] - o->eta_ref[1]));
  fprintf(f, ",%.17g,%.17g,%.17g", o->thrust[0], o->thrust[1], o->thrust[5]);
  for (int i = 0; i < 6; ++i) fprintf(f, ",%.17g", o->pipe_load[i]);
  for (int i = 0; i < 3; ++i) fprintf(f, ",%.17g", o->hang_off_point[i]);
  fputc('\n', f);
  fflush(f);
}

void PlSummaryAddVessel(void *root_, const PlModel *m, const PlDynamicResult *res)
{
  cJSON *root = (cJSON *)root_;
  const PlVesselOutput *vo = &res->vessel_final;
  cJSON *v = cJSON_AddObjectToObject(root, "vessel_dynamic");
  const double r2d = 180.0 / 3.14159265358979323846;
  const double eta[6] = {vo->eta[0], vo->eta[1], vo->eta[2], vo->eta[3] * r2d, vo->eta[4] * r2d, vo->eta[5] * r2d};
  cJSON_AddItemToObject(v, "final_eta_m_deg", cJSON_CreateDoubleArray(eta, 6));
  cJSON_AddItemToObject(v, "final_hang_off_point_m", cJSON_CreateDoubleArray(vo->hang_off_point, 3));
  if (m->vessel.has_dp) {
    const double off[2] = {vo->eta[0] - vo->eta_ref[0], vo->eta[1] - vo->eta_ref[1]};
    cJSON_AddItemToObject(v, "final_offset_from_reference_m", cJSON_CreateDoubleArray(off, 2));
    cJSON_AddNumberToObject(v, "max_offset_from_reference_m", res->vessel_max_offset_m);
    cJSON_AddItemToObject(v, "final_thrust_N_Nm", cJSON_CreateDoubleArray(vo->thrust, 6));
    cJSON_AddItemToObject(v, "final_integral_states", cJSON_CreateDoubleArray(vo->z, 6));
  }
  cJSON_AddNumberToObject(v, "max_horizontal_thrust_N", res->vessel_max_thrust_N);
  if (!m->rigid_body) cJSON_AddItemToObject(v, "final_pipe_load_N_Nm", cJSON_CreateDoubleArray(vo->pipe_load, 6));
}
