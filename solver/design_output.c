/*
 * design_output.c - the design answers along a line (design: block): pressures, true-wall
 * tension, hoop and von Mises stresses and the DNV-ST-F101 utilisations at every node station,
 * their envelopes over a dynamic run and the governing place and time (design.csv,
 * design_envelope.csv, summary.json's "design").
 *
 * Load effects of a node (include/pipelay/design.h has the formulas):
 *   M = |(m2, m3)| the bending moment, S = n1 the effective axial force (tension positive),
 *   eps = |kappa| D/2 + |gamma1| the largest longitudinal strain at the fibres (bending plus
 *   the axial strain, each taken at its worst sign: conservative for the compressive strain the
 *   displacement-controlled criterion wants), pressures at the node's height.
 * Functional and environmental parts: a static run's loads are all functional. In a dynamic
 * run the functional part is the static start's value at the node and the environmental part
 * is the rest, value - static value (signed), so that gamma_F gamma_C weighs the static state
 * and gamma_E the dynamic response to waves, vessel motion and the like.
 * Both load combinations (a: gamma_F 1.2, gamma_E 0.7; b: 1.1, 1.3) are checked and each
 * node's utilisation is the largest of LCC a, LCC b, DCC a, DCC b.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "solver_impl.h"

static const char *const kCriteria[4] = {"lcc_a", "lcc_b", "dcc_a", "dcc_b"};

/* The load effects at a station: moment, effective force, strain (D the outer diameter). */
static void Effects(const PlStation *s, double D, double *M, double *S, double *eps)
{
  *M = hypot(s->moment[0], s->moment[1]);
  *S = s->tension;
  *eps = fabs(s->curvature) * 0.5 * D + fabs(s->axial_strain);
}

void PlDesignPointOf(const PlModel *m, const PlStation *s, const PlStation *ref, PlDesignPoint *d)
{
  const PlSection *sec = PlModelSectionAt(m, s->S);
  const double D = sec->outer_diameter, t = sec->wall_thickness, z = s->x[2];
  memset(d, 0, sizeof *d);
  d->p_i = PlInternalPressure(&m->design.pressure, sec->contents_density, m->gravity, z);
  d->p_e = PlExternalPressure(m->water_density, m->gravity, z);
  double M, S, eps;
  Effects(s, D, &M, &S, &eps);
  PlWallStress w;
  PlWallStressOf(D, t, S, M, s->torque, d->p_i, d->p_e, &w);
  d->true_wall_tension = w.true_wall_tension;
  d->hoop_thin = w.hoop_thin;
  d->hoop_inner = w.hoop_inner;
  d->hoop_outer = w.hoop_outer;
  d->von_mises_inner = w.von_mises_inner;
  d->von_mises_outer = w.von_mises_outer;
  d->von_mises = w.von_mises;
  d->governing = -1;
  d->utilisation = NAN;
  d->lcc_axial_ratio = NAN;
  const PlDnvSpec *spec = &m->design.dnv;
  if (!spec->present) return;
  PlDnvCapacity c;
  PlDnvCapacityOf(spec, D, t, sec->youngs_modulus, sec->poissons_ratio, &c);
  double MF = M, SF = S, eF = eps;
  if (ref) Effects(ref, D, &MF, &SF, &eF);
  PlDnvLoad l = {MF, M - MF, SF, S - SF, eF, eps - eF, d->p_i, d->p_e, 0.0, 0.0, PlDnvConditionFactor(spec, s->S)};
  d->gamma_C = l.gamma_C;
  for (int b = 0; b < 2; ++b) {
    PlDnvCheck k;
    PlDnvCombination(b, &l.gamma_F, &l.gamma_E);
    PlDnvCheckOf(&c, &l, &k);
    d->lcc[b] = k.lcc;
    d->dcc[b] = k.dcc;
    d->lcc_axial_ratio = b ? fmax(d->lcc_axial_ratio, k.axial_ratio) : k.axial_ratio;
  }
  const double u[4] = {d->lcc[0], d->lcc[1], d->dcc[0], d->dcc[1]};
  for (int k = 0; k < 4; ++k)
    if (d->governing < 0 || u[k] > d->utilisation) d->governing = k, d->utilisation = u[k];
}

const char *PlDesignCriterionName(int k) { return k >= 0 && k < 4 ? kCriteria[k] : "none"; }

/* ---- static: design.csv ------------------------------------------------------------------ */
int PlDesignWriteStatic(const char *dir, const PlModel *m, const PlStation *N, int nn, PlError *err)
{
  char path[PL_PATH_MAX + 64], tmp[PL_PATH_MAX + 80];
  FILE *f = PlFileOpenAtomic(dir, "design.csv", path, sizeof path, tmp, sizeof tmp, err);
  if (!f) return PL_EXIT_IO;
  const bool dnv = m->design.dnv.present;
  fputs("S_m,x_m,y_m,z_m,internal_pressure_Pa,external_pressure_Pa,effective_tension_N,true_wall_tension_N,"
        "hoop_stress_thin_Pa,hoop_stress_inner_Pa,hoop_stress_outer_Pa,von_mises_inner_Pa,von_mises_outer_Pa", f);
  fputs(dnv ? ",gamma_C,lcc_a,lcc_b,dcc_a,dcc_b,utilisation,lcc_axial_ratio\n" : "\n", f);
  for (int i = 0; i < nn; ++i) {
    const PlStation *s = &N[i];
    PlDesignPoint d;
    PlDesignPointOf(m, s, NULL, &d);
    fprintf(f, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g", s->S, s->x[0],
            s->x[1], s->x[2], d.p_i, d.p_e, s->tension, d.true_wall_tension, d.hoop_thin, d.hoop_inner,
            d.hoop_outer, d.von_mises_inner, d.von_mises_outer);
    if (dnv)
      fprintf(f, ",%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g", d.gamma_C, d.lcc[0], d.lcc[1], d.dcc[0], d.dcc[1],
              d.utilisation, d.lcc_axial_ratio);
    fputc('\n', f);
  }
  return PlFileCommit(f, 0, tmp, path, err);
}

/* ---- envelopes ---------------------------------------------------------------------------- */
static void Reset(PlDesignEnvelope *e)
{
  e->max_utilisation = e->max_von_mises = e->max_lcc_axial_ratio = NAN;
  e->governing = -1;
}

int PlDesignEnvelopeInit(PlDesignEnvelope *e, int nn)
{
  memset(e, 0, sizeof *e);
  Reset(e);
  e->nn = nn;
  e->v = malloc(sizeof(double) * kDesignEnvColumns * (size_t)(nn > 0 ? nn : 1));
  if (!e->v) return -1;
  for (size_t k = 0; k < (size_t)kDesignEnvColumns * nn; ++k) e->v[k] = NAN;
  return 0;
}

enum { kDesignEnvScalars = 14 };
size_t PlDesignEnvelopePacked(int nn) { return (size_t)kDesignEnvColumns * (size_t)nn + kDesignEnvScalars; }

/* The governing values in the order of the checkpoint (governing as a double: exact). */
static void Scalars(PlDesignEnvelope *e, double *s, int to)
{
  double *p[kDesignEnvScalars - 1] = {&e->max_utilisation, &e->S, &e->t, &e->x[0], &e->x[1], &e->x[2],
                                      &e->max_von_mises, &e->von_mises_S, &e->von_mises_t, &e->max_lcc_axial_ratio,
                                      &e->lcc_axial_ratio_S, &e->lcc_axial_ratio_t, NULL};
  for (int k = 0; p[k]; ++k) {
    if (to) s[k] = *p[k];
    else *p[k] = s[k];
  }
  if (to) s[kDesignEnvScalars - 2] = e->governing;
  else e->governing = (int)s[kDesignEnvScalars - 2];
  if (to) s[kDesignEnvScalars - 1] = 0.0; /* spare */
}

void PlDesignEnvelopePack(const PlDesignEnvelope *e, double *buf)
{
  memcpy(buf, e->v, sizeof(double) * kDesignEnvColumns * (size_t)e->nn);
  Scalars((PlDesignEnvelope *)e, buf + (size_t)kDesignEnvColumns * e->nn, 1);
}

void PlDesignEnvelopeUnpack(PlDesignEnvelope *e, const double *buf)
{
  memcpy(e->v, buf, sizeof(double) * kDesignEnvColumns * (size_t)e->nn);
  Scalars(e, (double *)buf + (size_t)kDesignEnvColumns * e->nn, 0);
}

void PlDesignEnvelopeFree(PlDesignEnvelope *e)
{
  free(e->v);
  e->v = NULL;
}

int PlDesignEnvelopeRenumber(PlDesignEnvelope *e, int nn, int kept, int dropped)
{
  /* as PlLineSeriesRenumber: node i of the new numbering was i + dropped (below kept), the top
   * stays the top, a node paid out starts empty */
  double *v = malloc(sizeof(double) * kDesignEnvColumns * (size_t)nn);
  if (!v) return -1;
  for (int i = 0; i < nn; ++i) {
    const int o = i == nn - 1 ? e->nn - 1 : i + dropped < kept ? i + dropped : -1;
    for (int k = 0; k < kDesignEnvColumns; ++k) v[kDesignEnvColumns * i + k] = o >= 0 ? e->v[kDesignEnvColumns * o + k] : NAN;
  }
  free(e->v);
  e->v = v;
  e->nn = nn;
  return 0;
}

/* v > *slot or *slot not yet set: v is the new maximum */
static int Raise(double *slot, double v)
{
  if (isnan(v) || !(isnan(*slot) || v > *slot)) return 0;
  *slot = v;
  return 1;
}

void PlDesignEnvelopeUpdate(PlDesignEnvelope *e, const PlModel *m, double t, const PlStation *N, int nn,
                            const PlStation *stat)
{
  for (int i = 0; i < nn && i < e->nn; ++i) {
    PlDesignPoint d;
    PlDesignPointOf(m, &N[i], stat ? &stat[i] : NULL, &d);
    double *r = e->v + (size_t)kDesignEnvColumns * i;
    r[0] = N[i].S;
    if (isnan(r[1]) || d.true_wall_tension < r[1]) r[1] = d.true_wall_tension;
    Raise(&r[2], d.true_wall_tension);
    if (Raise(&r[3], d.von_mises)) r[4] = t;
    const double u[4] = {d.lcc[0], d.lcc[1], d.dcc[0], d.dcc[1]};
    if (m->design.dnv.present) {
      for (int k = 0; k < 4; ++k) Raise(&r[5 + k], u[k]);
      if (Raise(&r[9], d.utilisation)) r[10] = t;
      Raise(&r[11], d.lcc_axial_ratio);
      if (Raise(&e->max_lcc_axial_ratio, d.lcc_axial_ratio)) e->lcc_axial_ratio_S = N[i].S, e->lcc_axial_ratio_t = t;
    }
    if (Raise(&e->max_von_mises, d.von_mises)) e->von_mises_S = N[i].S, e->von_mises_t = t;
    if (m->design.dnv.present && Raise(&e->max_utilisation, d.utilisation)) {
      e->governing = d.governing;
      e->S = N[i].S;
      e->t = t;
      memcpy(e->x, N[i].x, sizeof e->x);
    }
  }
}

int PlDesignWriteEnvelope(const char *dir, const PlModel *m, const PlDesignEnvelope *e, PlError *err)
{
  char path[PL_PATH_MAX + 64], tmp[PL_PATH_MAX + 80];
  FILE *f = PlFileOpenAtomic(dir, "design_envelope.csv", path, sizeof path, tmp, sizeof tmp, err);
  if (!f) return PL_EXIT_IO;
  const bool dnv = m->design.dnv.present;
  fputs("S_m,min_true_wall_tension_N,max_true_wall_tension_N,max_von_mises_Pa,t_max_von_mises_s", f);
  fputs(dnv ? ",max_lcc_a,max_lcc_b,max_dcc_a,max_dcc_b,max_utilisation,t_max_utilisation_s,max_lcc_axial_ratio\n"
            : "\n", f);
  for (int i = 0; i < e->nn; ++i) {
    const double *r = e->v + (size_t)kDesignEnvColumns * i;
    fprintf(f, "%.17g,%.17g,%.17g,%.17g,%.17g", r[0], r[1], r[2], r[3], r[4]);
    if (dnv) fprintf(f, ",%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g", r[5], r[6], r[7], r[8], r[9], r[10], r[11]);
    fputc('\n', f);
  }
  return PlFileCommit(f, 0, tmp, path, err);
}

static void AddNum(cJSON *o, const char *key, double v)
{
  if (isfinite(v)) cJSON_AddNumberToObject(o, key, v);
  else cJSON_AddNullToObject(o, key);
}

void PlDesignSummaryAdd(void *root_, const PlModel *m, const PlDesignEnvelope *e, int dynamic)
{
  cJSON *d = cJSON_AddObjectToObject((cJSON *)root_, "design");
  cJSON_AddNumberToObject(d, "internal_pressure_Pa", m->design.pressure.internal_pressure);
  cJSON_AddNumberToObject(d, "internal_pressure_level_m", m->design.pressure.internal_pressure_level);
  AddNum(d, "max_von_mises_Pa", e->max_von_mises);
  AddNum(d, "max_von_mises_S_m", e->von_mises_S);
  if (dynamic) AddNum(d, "max_von_mises_t_s", e->von_mises_t);
  if (!m->design.dnv.present) return;
  cJSON *g = cJSON_AddObjectToObject(d, "dnv_f101");
  cJSON_AddStringToObject(g, "safety_class", PlDnvSafetyClassNames[m->design.dnv.safety_class]);
  AddNum(g, "max_utilisation", e->max_utilisation);
  cJSON_AddStringToObject(g, "criterion", PlDesignCriterionName(e->governing));
  AddNum(g, "S_m", e->S);
  if (dynamic) AddNum(g, "t_s", e->t);
  cJSON_AddItemToObject(g, "position_m", cJSON_CreateDoubleArray(e->x, 3));
  AddNum(g, "max_lcc_axial_ratio", e->max_lcc_axial_ratio);
  AddNum(g, "max_lcc_axial_ratio_S_m", e->lcc_axial_ratio_S);
  if (dynamic) AddNum(g, "max_lcc_axial_ratio_t_s", e->lcc_axial_ratio_t);
  cJSON_AddBoolToObject(g, "lcc_valid", !(e->max_lcc_axial_ratio >= PL_DNV_LCC_AXIAL_LIMIT));
}

void PlDesignPrint(FILE *f, const PlModel *m, const PlDesignEnvelope *e, int dynamic)
{
  fprintf(f, "  design: largest von Mises stress %.2f MPa at S = %.2f m", e->max_von_mises / 1e6, e->von_mises_S);
  if (dynamic) fprintf(f, ", t = %.2f s", e->von_mises_t);
  fputc('\n', f);
  if (!m->design.dnv.present) return;
  fprintf(f, "  DNV-ST-F101 local buckling: utilisation %.4f (%s) at S = %.2f m", e->max_utilisation,
          PlDesignCriterionName(e->governing), e->S);
  if (dynamic) fprintf(f, ", t = %.2f s", e->t);
  fprintf(f, "%s\n", e->max_utilisation > 1.0 ? " - EXCEEDS 1" : "");
  if (e->max_lcc_axial_ratio >= PL_DNV_LCC_AXIAL_LIMIT) {
    fprintf(f, "  warning: |S_Sd|/S_p reaches %.4f at S = %.2f m", e->max_lcc_axial_ratio, e->lcc_axial_ratio_S);
    if (dynamic) fprintf(f, ", t = %.2f s", e->lcc_axial_ratio_t);
    fprintf(f, ": DNV-ST-F101's load-controlled criterion holds for |S_Sd|/S_p < %.1f only (its LCC values there "
               "are outside the criterion's range)\n", PL_DNV_LCC_AXIAL_LIMIT);
  }
}
