/*
 * dynamic_run.c - a dynamic analysis from start to files: the output loop, time series of
 * the ends and named points, envelopes along the arc length, progress line and the JSON
 * summary. Tuned for runs of 10^2..10^4 output times of 10^2..10^4 nodes: post-processing
 * costs one gather and one pass over the elements per output time.
 *
 * Files (rank 0, in the output directory, every double with 17 significant digits):
 *   timeseries_bottom.csv, timeseries_top.csv, timeseries_<point>.csv, envelopes.csv
 *       the line's files (line_series.c, where their columns are described)
 *   energy.csv     the energies, the work integrals and the balance (PlSysDynEnergyRow, whose
 *       table in system_dynamic.c describes the columns; with pay-out work_payout_J below)
 *   waves.csv      (a model with waves) the sea's elevation at the top end and the probes
 *       (wave_series.c)
 *   summary.json   "analysis": "dynamic": the static start's results as static_* keys, the
 *       extrema over the whole run (DynamicSummary), the counters, "completed".
 *   restart.bin    the state to continue from (--restart), with the model as text.
 * Checkpoints: restart.bin, envelopes.csv and summary.json ("completed": false and the time
 * reached) are rewritten atomically after the first output, then every output.checkpoint_interval
 * seconds of wall-clock time (default 10), and at the end (also after a signal, an IDA failure or a failed
 * write), so that a killed run leaves a consistent set saying how far it got. Top tension is
 * the effective tension of the top node station (the top element's axial force).
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <stdint.h>
#include <cjson/cJSON.h>
#include "system_impl.h"

/* energy.csv: the pipe's mechanical energy (kinetic, strain, potential: the lumped submerged
 * weights and the dead end forces), the work of every other load integrated with the motion
 * (drag, added mass, seabed, friction, the ends' supports, damping, the splash zone) and
 * balance_J, total - total(0) - the work, which closes to the integration error
 * (PlSysDynEnergyRow: the columns). With pay-out (ends.top.payout) work_payout_J, the work
 * the pay-out has brought in (PlDynamicPayoutWork), and remesh_J, the energy the splits, merges
 * and retirements changed. */

/* payout.csv (ends.top.payout): the pipe paid out (in: negative) and its rate, the
 * pull on the tensioner (the top end's load) and, under tension control, the tension it
 * acts on at its last sample (the load cell's low-pass) and its set tension (else empty). */
static const char *kPayoutHeader = "t_s,paid_out_m,rate_m_per_s,top_load_N,filtered_tension_N,set_tension_N\n";

/* The files of a run: the line's (line_series.c: its series, touchdown.csv and envelopes) and the
 * run's own, each written when its model has what it reports. */
enum { F_ENERGY, F_VESSEL, F_PAYOUT, F_LAY, F_WAVES, F_N };
static const char *const kRunFiles[F_N] = {"energy.csv", "timeseries_vessel.csv", "payout.csv", "lay.csv",
                                           "waves.csv"};
typedef struct {
  PlLineSeries ls;
  FILE *f[F_N];
  char path[F_N][PL_PATH_MAX + 32];
} Writer;

static int OpenSeries(Writer *w, const char *dir, const PlProblem p, const char *energy_header, double t_restart,
                      PlError *err)
{
  int io = PlLineSeriesOpen(&w->ls, dir, p, t_restart, err);
  const PlModel *m = &p->model;
  const bool on[F_N] = {true, m->vessel.present, m->ends[1].payout, m->route.n > 0, m->sea.ntrains > 0};
  char wave_header[4096];
  PlWaveSeriesHeader(m, wave_header, sizeof wave_header);
  const char *header[F_N] = {energy_header, PlVesselSeriesHeader(), kPayoutHeader, PlLaySeriesHeader(),
                             wave_header};
  for (int k = 0; !io && k < F_N; ++k) {
    snprintf(w->path[k], sizeof w->path[k], "%s/%s", dir, kRunFiles[k]);
    if (!on[k]) continue;
    if (t_restart >= 0.0) {
      w->f[k] = PlTrimSeries(w->path[k], t_restart);
      if (!w->f[k]) {
        snprintf(err->msg, sizeof err->msg, "%.900s: cannot continue the time series: %s", w->path[k], strerror(errno));
        return PL_EXIT_IO;
      }
      continue;
    }
    w->f[k] = fopen(w->path[k], "w");
    if (!w->f[k] || fputs(header[k], w->f[k]) < 0 || fflush(w->f[k])) {
      snprintf(err->msg, sizeof err->msg, "%.900s: cannot write: %s", w->path[k], strerror(errno));
      return PL_EXIT_IO;
    }
  }
  return io;
}

/* ---- restart files ----------------------------------------------------------------------
 * DIR/restart.bin (PlRestartHeader in dynamic_impl.h), rewritten atomically at every
 * checkpoint; a one-line run keeps its envelopes (12 per node) and, with a design: block, its
 * design envelopes (PlDesignEnvelopePack) as the aux block (AuxSize). */
static const char kRestartMagic[8] = "PLRST06";

void PlRestartHeaderInit(PlRestartHeader *h, int nnodes, int ndd, int nextra, int kind, int naux, const char *text)
{
  memset(h, 0, sizeof *h);
  memcpy(h->magic, kRestartMagic, 8);
  h->nnodes = nnodes;
  h->ndd = ndd;
  h->nextra = nextra;
  h->kind = kind;
  h->naux = naux;
  h->text_len = text ? (int64_t)strlen(text) : 0;
}

int PlRestartWrite(const char *dir, PlRestartHeader *h, PlSysDyn S, const double *y, const double *yp,
                   const double *aux, const char *text, PlError *err)
{
  h->nint = PlSysDynIntegratorSize(S);
  double *integ = malloc(sizeof(double) * (size_t)h->nint);
  if (!integ) {
    snprintf(err->msg, sizeof err->msg, "out of memory for the checkpoint");
    return PL_EXIT_FAILURE;
  }
  PlSysDynIntegratorSave(S, integ);
  char path[PL_PATH_MAX + 64], tmp[PL_PATH_MAX + 80];
  const size_t n = (size_t)h->nnodes * h->ndd + (size_t)h->nextra;
  FILE *f = PlFileOpenAtomic(dir, "restart.bin", path, sizeof path, tmp, sizeof tmp, err);
  if (!f) {
    free(integ);
    return PL_EXIT_IO;
  }
  int bad = fwrite(h, sizeof *h, 1, f) != 1;
  bad |= fwrite(y, sizeof(double), n, f) != n;
  bad |= fwrite(yp, sizeof(double), n, f) != n;
  bad |= fwrite(aux, sizeof(double), (size_t)h->naux, f) != (size_t)h->naux;
  if (h->nint) bad |= fwrite(integ, sizeof(double), (size_t)h->nint, f) != (size_t)h->nint;
  if (h->text_len) bad |= fwrite(text, 1, (size_t)h->text_len, f) != (size_t)h->text_len;
  const int rc = PlFileCommit(f, bad, tmp, path, err);
  free(integ);
  return rc;
}

static int ReadHeader(FILE *f, PlRestartHeader *h)
{
  return fread(h, sizeof *h, 1, f) == 1 && !memcmp(h->magic, kRestartMagic, 8) && h->noutputs > 0 &&
         h->nnodes > 0 && h->ndd > 0 && h->nextra >= 0 && h->naux >= 0 && h->text_len >= 0 &&
         h->text_len < (1 << 24) && h->nint >= 0 && h->nint < ((int64_t)1 << 34);
}

int PlDynamicRestartInfo(const char *dir, int *noutputs, double *t, PlError *err)
{
  char path[PL_PATH_MAX + 64];
  PlRestartHeader h;
  snprintf(path, sizeof path, "%s/restart.bin", dir);
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err->msg, sizeof err->msg, "%.900s: cannot read the restart file: %s", path, strerror(errno));
    return PL_EXIT_BAD_INPUT;
  }
  const int ok = ReadHeader(f, &h);
  fclose(f);
  if (!ok) {
    snprintf(err->msg, sizeof err->msg, "%.900s: not a pipelay restart file of this version (or cut short)", path);
    return PL_EXIT_BAD_INPUT;
  }
  *noutputs = h.noutputs;
  *t = h.t;
  return 0;
}

void PlDynamicStatsAdd(PlDynamicStats *st, const PlDynamicStats *base)
{
  st->steps += base->steps;
  st->residual_evaluations += base->residual_evaluations;
  st->nonlinear_iterations += base->nonlinear_iterations;
  st->nonlinear_failures += base->nonlinear_failures;
  st->jacobian_evaluations += base->jacobian_evaluations;
  st->error_test_failures += base->error_test_failures;
}

/* The first lines where two model texts differ, each under the heading it belongs to (the
 * last line before it indented by two blanks: "  end top (S = L)", "  section 2: ..."),
 * "was: ... / now: ..." (at most three). */
static void TextDiff(const char *was, const char *now, char *out, size_t len)
{
  size_t used = 0;
  int shown = 0;
  const char *head = NULL, *top = NULL;
  size_t lhead = 0, ltop = 0;
  out[0] = '\0';
  while ((*was || *now) && shown < 3) {
    const char *ew = strchr(was, '\n'), *en = strchr(now, '\n');
    const size_t lw = ew ? (size_t)(ew - was) : strlen(was), ln = en ? (size_t)(en - now) : strlen(now);
    if (ln > 2 && now[0] == ' ' && now[1] == ' ' && now[2] != ' ') {
      head = now + 2;
      lhead = ln - 2;
    } else if (ln > 5 && !strncmp(now, "line ", 5)) { /* a system's line ("line NAME (...):") */
      const char *sp = memchr(now + 5, ' ', ln - 5);
      top = now;
      ltop = sp ? (size_t)(sp - now) : ln;
      head = NULL;
    }
    if (lw != ln || memcmp(was, now, lw)) {
      const int k = snprintf(out + used, len - used, "\n  in '%.*s%s%.*s':\n    was: %.*s\n    now: %.*s",
                             (int)(top ? (ltop > 40 ? 40 : ltop) : 0), top ? top : "", top && head ? ", " : "",
                             (int)(head ? (lhead > 40 ? 40 : lhead) : (top ? 0 : 5)), head ? head : "model",
                             (int)(lw > 60 ? 60 : lw), was, (int)(ln > 60 ? 60 : ln), now);
      if (k < 0 || (size_t)k >= len - used) break;
      used += (size_t)k;
      ++shown;
    }
    was += lw + (ew ? 1 : 0);
    now += ln + (en ? 1 : 0);
  }
}

int PlRestartRead(const char *dir, const PlRestartHeader *want, const char *text, PlRestartHeader *h, double *y,
                  double *yp, double *aux, double **integ, PlError *err)
{
  if (integ) *integ = NULL;
  char path[PL_PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/restart.bin", dir);
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err->msg, sizeof err->msg, "%.900s: cannot read the restart file: %s", path, strerror(errno));
    return PL_EXIT_BAD_INPUT;
  }
  if (!ReadHeader(f, h)) {
    fclose(f);
    snprintf(err->msg, sizeof err->msg, "%.900s: not a pipelay restart file of this version (or cut short)", path);
    return PL_EXIT_BAD_INPUT;
  }
  const size_t n = (size_t)want->nnodes * want->ndd + (size_t)want->nextra;
  const size_t nsaved = (size_t)h->nnodes * h->ndd + (size_t)h->nextra;
  char *saved = calloc((size_t)h->text_len + 1, 1);
  double *st = h->nint ? malloc(sizeof(double) * (size_t)h->nint) : NULL;
  int ok = saved && (!h->nint || st) && n == nsaved && h->naux == want->naux && fread(y, sizeof(double), n, f) == n &&
           fread(yp, sizeof(double), n, f) == n && fread(aux, sizeof(double), (size_t)h->naux, f) == (size_t)h->naux &&
           (!h->nint || fread(st, sizeof(double), (size_t)h->nint, f) == (size_t)h->nint) &&
           (h->text_len == 0 || fread(saved, 1, (size_t)h->text_len, f) == (size_t)h->text_len);
  fclose(f);
  if (ok && text && strcmp(saved, text)) {
    char diff[520]; /* with the path (200) and the text (~280): within the 1024 of a message */
    TextDiff(saved, text, diff, sizeof diff);
    snprintf(err->msg, sizeof err->msg,
             "%.200s: the model differs from the run that wrote this restart file, so it cannot be continued "
             "(only analysis.dynamic.duration may change); restart with the model file and --set options of that "
             "run, or start a new run. What differs (pipelay info shows the whole model):%s", path, diff);
    free(saved);
    free(st);
    return PL_EXIT_BAD_INPUT;
  }
  free(saved);
  if (ok && (h->nnodes != want->nnodes || h->ndd != want->ndd || h->nextra != want->nextra || h->kind != want->kind)) {
    snprintf(err->msg, sizeof err->msg,
             "%.700s: the restart file belongs to another model (%lld unknowns); restart with the model file and --set "
             "options of the interrupted run", path, (long long)nsaved);
    free(st);
    return PL_EXIT_BAD_INPUT;
  }
  if (!ok) {
    snprintf(err->msg, sizeof err->msg, "%.900s: not a pipelay restart file of this model (or cut short)", path);
    free(st);
    return PL_EXIT_BAD_INPUT;
  }
  if (integ) *integ = st;
  else free(st);
  return 0;
}

/* The progress line at t of [0, T]; t0 the time this process started from (a restart's), wall
 * its wall time since. */
static void Progress(double t, double t0, double T, long steps, double wall, int done)
{
  const double rtf = wall > 0 ? (t - t0) / wall : 0.0, left = rtf > 0 ? (T - t) / rtf : 0.0;
  fprintf(stdout, "\r  t = %8.3f / %.3f s   steps %7ld   %8.1fx real time   %6.1f s left   ", t, T, steps, rtf,
          left);
  if (done) fputc('\n', stdout);
  fflush(stdout);
}

/* ---- summary.json of a dynamic run ----------------------------------------------------------
 * The static start's results keep their meaning under a static_ prefix (static_top_tension_N,
 * static_max_bending_moment_Nm, ...); the unprefixed extrema (max_effective_tension_N,
 * max_bending_moment_Nm, ...) are over the whole run, each with the arc length and the time
 * where it occurred; completed says whether the run reached its duration. */
static const char *const kStaticKeys[] = {
  "top_tension_N", "top_horizontal_tension_N", "hang_off_angle_deg", "layback_m", "touchdown_arc_length_m",
  "max_bending_moment_Nm", "max_bending_moment_arc_length_m", "max_axial_strain", "max_fibre_strain",
  "max_effective_tension_N", "max_curvature_1pm", "design"};

static cJSON *DynamicSummary(const PlProblem p, const PlStaticReport *srep, const PlStaticSummary *ssum,
                             const PlDynamicRunOptions *opt, const PlDynamicResult *res, int nranks, double T,
                             double dt)
{
  const PlModel *m = &p->model;
  cJSON *root = PlSummaryBuild(m, srep, ssum, p->mesh.nnodes, p->mesh.nelements, nranks, opt->noverrides,
                               opt->overrides);
  cJSON_ReplaceItemInObject(root, "analysis", cJSON_CreateString("dynamic"));
  for (size_t k = 0; k < sizeof kStaticKeys / sizeof *kStaticKeys; ++k) {
    cJSON *v = cJSON_DetachItemFromObject(root, kStaticKeys[k]);
    char key[96];
    snprintf(key, sizeof key, "static_%s", kStaticKeys[k]);
    if (v) cJSON_AddItemToObject(root, key, v);
  }
  cJSON *st_wall = cJSON_DetachItemFromObject(root, "wall_time_s");
  if (st_wall) cJSON_AddItemToObject(root, "static_wall_time_s", st_wall);
  cJSON_AddNumberToObject(root, "wall_time_s", res->wall_time_s);
  cJSON_AddBoolToObject(root, "completed", res->completed);
  cJSON_AddNumberToObject(root, "duration_s", T);
  cJSON_AddNumberToObject(root, "simulated_time_s", res->simulated_time_s);
  cJSON_AddNumberToObject(root, "real_time_factor", res->real_time_factor);
  const PlDynamicStats *st = &res->stats;
  cJSON_AddNumberToObject(root, "steps", (double)st->steps);
  cJSON_AddNumberToObject(root, "nonlinear_iterations", (double)st->nonlinear_iterations);
  cJSON_AddNumberToObject(root, "nonlinear_failures", (double)st->nonlinear_failures);
  cJSON_AddNumberToObject(root, "jacobian_evaluations", (double)st->jacobian_evaluations);
  cJSON_AddNumberToObject(root, "residual_evaluations", (double)st->residual_evaluations);
  cJSON_AddNumberToObject(root, "error_test_failures", (double)st->error_test_failures);
  cJSON_AddNumberToObject(root, "output_interval_s", dt);
  const PlRunExtrema *x = &res->extrema;
  PlRunExtremaToJson(root, x);
  if (res->ida_flag) cJSON_AddStringToObject(root, "dynamic_failure", res->failure);
  else if (res->io_status) cJSON_AddStringToObject(root, "dynamic_failure", res->err.msg);
  else if (res->interrupted) cJSON_AddStringToObject(root, "dynamic_failure", "interrupted by a signal");
  if (opt->restart) cJSON_AddNumberToObject(root, "restarted_at_s", res->restarted_at_s);
  if (res->has_design) PlDesignSummaryAdd(root, m, &res->design, 1);
  cJSON_AddNumberToObject(root, "max_energy_balance_J", res->max_energy_balance_J);
  cJSON_AddNumberToObject(root, "max_work_J", res->max_work_J);
  if (m->ends[1].payout) { /* the pipe paid out (in: negative) by the last output, and the line's length then */
    cJSON_AddNumberToObject(root, "paid_out_m", res->paid_out_m);
    cJSON_AddNumberToObject(root, "line_length_m", m->length + res->paid_out_m);
    cJSON_AddNumberToObject(root, "payout_remeshes", res->payout_remeshes);
    cJSON_AddNumberToObject(root, "line_nodes", p->mesh.nnodes);
    cJSON_AddNumberToObject(root, "retired_elements", res->retired_elements);
    cJSON_AddNumberToObject(root, "retired_length_m", p->mesh.S[0]);
  }
  if (res->has_vessel) PlSummaryAddVessel(root, m, res);
  return root;
}

/* Every checkpoint (rank 0): restart.bin, envelopes.csv and summary.json, each written
 * atomically, so that a run killed at any moment leaves a consistent set that says how far
 * it got ("completed": false, "simulated_time_s"). Also called at the end. */

typedef struct {
  const PlProblem p;
  const PlStaticReport *srep;
  const PlStaticSummary *ssum;
  const PlDynamicRunOptions *opt;
  int nranks;
  double T, dt;
} SummaryContext;

/* The aux block's size for nn nodes: the envelopes, and the design envelopes with a design: block. */
static int AuxSize(const PlModel *m, int nn)
{
  return 12 * nn + (m->design.present ? (int)PlDesignEnvelopePacked(nn) : 0);
}

static int Checkpoint(const SummaryContext *c, const Writer *w, PlRestartHeader *rh, PlSysDyn S, const double *y,
                      const double *yp, const PlDynamicResult *res, PlError *err)
{
  const char *dir = c->p->model.output_dir;
  rh->stats = res->stats;
  rh->ext = res->extrema;
  double *aux = malloc(sizeof(double) * (size_t)(rh->naux > 0 ? rh->naux : 1));
  if (!aux) {
    snprintf(err->msg, sizeof err->msg, "out of memory for the checkpoint");
    return PL_EXIT_FAILURE;
  }
  memcpy(aux, w->ls.env, sizeof(double) * 12 * (size_t)w->ls.nn);
  if (res->has_design) PlDesignEnvelopePack(&res->design, aux + 12 * (size_t)w->ls.nn);
  int io = PlRestartWrite(dir, rh, S, y, yp, aux, c->opt->fingerprint, err);
  free(aux);
  if (!io) io = PlLineSeriesEnvelopes(&w->ls, dir, err);
  if (!io && res->has_design) io = PlDesignWriteEnvelope(dir, &c->p->model, &res->design, err);
  if (!io) {
    cJSON *root = DynamicSummary(c->p, c->srep, c->ssum, c->opt, res, c->nranks, c->T, c->dt);
    io = PlSummaryWrite(dir, root, err);
    cJSON_Delete(root);
  }
  return io;
}

/* The counters of this process's IDA plus those of the runs before a restart. */
/* Pay-out: the run's node arrays after the line was renumbered (PlDynamicRenumbered: its first
 * `dropped` nodes retired, those up to `kept` and its top kept): the static stations (a
 * paid-out node's are the top's, where it entered, at its own arc length), the envelopes and
 * series' nodes, the checkpoint's sizes. */
static PetscErrorCode Renumbered(PlProblem p, PlDynamic d, int kept, int dropped, int *nn, PlStation **stat,
                                 PlLineSeries *ls, PlRestartHeader *rh, const char *text, double **y, double **yp)
{
  const int n2 = p->mesh.nnodes, ndd = PlDynamicNodeDofs(d), nstate = PlDynamicSize(d);
  PetscMPIInt rank;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(p->comm, &rank));
  double *y2 = realloc(*y, sizeof(double) * nstate);
  if (y2) *y = y2;
  double *yp2 = realloc(*yp, sizeof(double) * nstate);
  if (yp2) *yp = yp2;
  PetscCheck(y2 && yp2, p->comm, PETSC_ERR_MEM, "out of memory");
  PlRestartHeaderInit(rh, n2, ndd, nstate - n2 * ndd, (int)p->kind, AuxSize(&p->model, n2), text);
  if (rank) { /* rank 0 holds the stations and series */
    *nn = n2;
    PetscFunctionReturn(0);
  }
  PlStation *s = malloc(sizeof(PlStation) * n2);
  PetscCheck(s, p->comm, PETSC_ERR_MEM, "out of memory");
  for (int i = 0; i < n2; ++i) {
    const int o = i + dropped < kept && i < n2 - 1 ? i + dropped : *nn - 1;
    s[i] = (*stat)[o];
    if (o == *nn - 1) s[i].S = p->mesh.S[i];
  }
  PetscCheck(!PlLineSeriesRenumber(ls, n2, kept, dropped, s), p->comm, PETSC_ERR_MEM, "out of memory");
  free(*stat);
  *stat = s;
  *nn = n2;
  PetscFunctionReturn(0);
}

static PetscErrorCode Stats(const PlDynamic d, const PlDynamicStats *base, PlDynamicStats *st)
{
  PetscFunctionBeginUser;
  PetscCall(PlDynamicGetStats(d, st));
  PlDynamicStatsAdd(st, base);
  PetscFunctionReturn(0);
}

PetscErrorCode PlDynamicRunToFiles(PlProblem p, const PlStaticReport *srep, const PlStaticSummary *ssum,
                                   const PlDynamicRunOptions *opt, PlDynamicResult *res)
{
  const PlModel *m = &p->model;
  const PlDynamicSettings *s = &m->analysis.dynamic;
  const char *dir = m->output_dir;
  int nn = p->mesh.nnodes;
  PetscMPIInt rank, size;
  PlDynamic d;
  Writer w;
  PlStation *N = NULL, *E = NULL, *stat = NULL, *Es = NULL, *laid = NULL;
  int nnr, ner, nlaid = 0;
  PlLayTrack track = {0, NULL};
  PetscFunctionBeginUser;
  memset(res, 0, sizeof *res);
  memset(&w, 0, sizeof w);
  PetscCallMPI(MPI_Comm_rank(p->comm, &rank));
  PetscCallMPI(MPI_Comm_size(p->comm, &size));
  PlRunExtremaInit(&res->extrema);
  const double wall0 = MPI_Wtime();
  PetscCall(PlProblemStations(p, &stat, &nnr, &Es, &ner));
  if (m->design.present && !rank) {
    PetscCheck(!PlDesignEnvelopeInit(&res->design, nn), p->comm, PETSC_ERR_MEM, "out of memory for the envelopes");
    res->has_design = 1;
  }
  PetscCall(PlDynamicCreate(p, opt->stop, &d));
  const int ndd = PlDynamicNodeDofs(d);
  PetscInt nstate = PlDynamicSize(d);
  const size_t nraw = (size_t)nstate; /* nn ndd, then the vessel's unknowns */
  double *yraw = malloc(sizeof(double) * nraw), *ypraw = malloc(sizeof(double) * nraw);
  PetscCheck(yraw && ypraw, p->comm, PETSC_ERR_MEM, "out of memory for the restart state");
  PlRestartHeader rh;
  PlRestartHeaderInit(&rh, nn, ndd, (int)(nstate - (PetscInt)nn * ndd), (int)p->kind, AuxSize(m, nn),
                      opt->fingerprint);
  PlDynamicStats base;
  memset(&base, 0, sizeof base);
  int io = 0;
  long k0 = 0;
  double E0 = NAN; /* energy.csv: the total energy at t = 0 */
  PetscCheck(!PlLineSeriesInit(&w.ls, p, stat), p->comm, PETSC_ERR_MEM, "out of memory for the envelopes");
  PetscCheck(!m->route.n || !PlLayTrackInit(&track, nn), p->comm, PETSC_ERR_MEM, "out of memory for the lay");
  if (opt->restart) {
    /* continue an interrupted run from its last checkpoint (every rank reads the file) */
    PlRestartHeader in;
    double *integ = NULL; /* the integrator's state (PlSysDynIntegratorSave) */
    if (m->ends[1].payout) { /* the tensioner's state and the pay-out's work are not in restart.bin */
      snprintf(res->err.msg, sizeof res->err.msg,
               "%.700s/restart.bin: a restart of a run with pay-out (ends.top.payout) is not built yet: the "
               "line's grown mesh (its splits, merges and retirements), the tensioner's state, a DP route's "
               "guidance and the pay-out's work are not in the checkpoint; run it again from the start", dir);
      io = PL_EXIT_BAD_INPUT;
    } else {
      double *aux = malloc(sizeof(double) * (size_t)rh.naux);
      io = aux ? PlRestartRead(dir, &rh, opt->fingerprint, &in, yraw, ypraw, aux, &integ, &res->err) : PL_EXIT_FAILURE;
      if (!aux) snprintf(res->err.msg, sizeof res->err.msg, "out of memory for the restart state");
      if (!io) { /* the envelopes and the design envelopes as they were at the checkpoint */
        memcpy(w.ls.env, aux, sizeof(double) * 12 * (size_t)nn);
        if (res->has_design) PlDesignEnvelopeUnpack(&res->design, aux + 12 * (size_t)nn);
      }
      free(aux);
    }
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &io, 1, MPI_INT, MPI_MAX, p->comm));
    if (!io) {
      PetscCall(PlDynamicSetRawState(d, in.t, yraw, ypraw, integ, in.nint));
      k0 = in.noutputs;
      res->extrema = in.ext;
      E0 = in.e0;
      res->restarted_at_s = in.t;
      base = in.stats;
      if (integ) memset(&base, 0, sizeof base); /* IDA's restored counters hold the runs before */
    }
    free(integ);
  }
  const int started = !io; /* else nothing of this run is written (a refused restart keeps its files) */
  if (!rank) {
    char eh[1024];
    PlSysDynEnergyHeader(PlDynamicSystem(d), eh, sizeof eh);
    if (!io) io = PlMakeDirs(dir, &res->err);
    if (!io) io = OpenSeries(&w, dir, p, eh, opt->restart ? res->restarted_at_s : -1.0, &res->err);
  }
  PetscCallMPI(MPI_Bcast(&io, 1, MPI_INT, 0, p->comm));
  const int progress = !rank && !opt->quiet && isatty(fileno(stdout));
  const double dt = s->output_interval, T = s->duration;
  const long nout = (long)ceil(T / dt - 1e-9);
  const SummaryContext sc = {p, srep, ssum, opt, size, T, dt};
  double t = opt->restart ? res->restarted_at_s : 0.0, last_checkpoint = -INFINITY;
  long k = k0;
  for (; !io && k <= nout; ++k) {
    const double tout = k == nout ? T : k * dt;
    if (k > 0) {
      PetscCall(PlDynamicAdvance(d, tout, &res->ida_flag, res->failure, sizeof res->failure));
      int kept, dropped;
      if (PlDynamicRenumbered(d, &kept, &dropped, &res->payout_remeshes, &res->retired_elements)) {
        /* pay-out: nodes paid out or taken in, laid pipe retired */
        PetscCall(Renumbered(p, d, kept, dropped, &nn, &stat, &w.ls, &rh, opt->fingerprint, &yraw, &ypraw));
        PetscCheck(!res->has_design || !PlDesignEnvelopeRenumber(&res->design, nn, kept, dropped), p->comm,
                   PETSC_ERR_MEM, "out of memory");
        PetscCheck(!track.land || !PlLayTrackRenumber(&track, nn, kept, dropped), p->comm, PETSC_ERR_MEM,
                   "out of memory");
        nstate = PlDynamicSize(d);
      }
      if (res->ida_flag == PL_DYN_INTERRUPTED) { /* between steps: the state at the last step */
        res->ida_flag = 0;
        res->failure[0] = '\0';
        res->interrupted = 1;
        break;
      }
      if (res->ida_flag) break;
    }
    t = tout;
    PetscCall(PlDynamicStations(d, &N, &nnr, &E, &ner)); /* (the pay-out's top element at t first) */
    if (m->ends[1].payout && !rank) stat[nn - 1].S = p->mesh.S[nn - 1]; /* the top's arc length: the line's length
                                                                           (rank 0 holds the stations) */
    PlVesselOutput vo;
    if (m->vessel.present) {
      PetscCall(PlDynamicVesselOutput(d, &vo));
      res->has_vessel = 1;
      res->vessel_final = vo;
      if (m->vessel.has_dp && t >= m->vessel.dp.start_time)
        res->vessel_max_offset_m = fmax(res->vessel_max_offset_m, hypot(vo.eta[0] - vo.eta_ref[0], vo.eta[1] - vo.eta_ref[1]));
      res->vessel_max_thrust_N = fmax(res->vessel_max_thrust_N, hypot(vo.thrust[0], vo.thrust[1]));
    }
    double top[5], pay[3] = {0, 0, NAN}, Wpay = 0.0;
    PetscCall(PlDynamicTopLoad(d, top));
    if (m->ends[1].payout) {
      PlDynamicPayout(d, &pay[0], &pay[1], &pay[2]);
      res->paid_out_m = pay[0];
      Wpay = PlDynamicPayoutWork(d);
    }
    if (!rank) {
      io = PlLineSeriesRow(&w.ls, t, N, top, k == 0 && !opt->restart, &res->err);
      if (!io) {
        PlEnergyChange ec;
        double strain = 0.0;
        PlStationsAddStrainEnergy(E, ner, &strain);
        const double bal = PlSysDynEnergyRow(PlDynamicSystem(d), t, PlSysDynState(PlDynamicSystem(d)), &strain,
                                             m->ends[1].payout ? &Wpay : NULL, &E0, w.f[F_ENERGY], &ec);
        res->max_energy_balance_J = fmax(res->max_energy_balance_J, fabs(bal));
        res->max_work_J = fmax(res->max_work_J, ec.scale);
        rh.e0 = E0; /* the checkpoints keep it for a restart's balance */
        io = PlSeriesRowWritten(w.f[F_ENERGY], w.path[F_ENERGY], &res->err);
      }
      if (!io && w.f[F_VESSEL]) {
        PlVesselSeriesRow(w.f[F_VESSEL], t, &vo);
        io = PlSeriesRowWritten(w.f[F_VESSEL], w.path[F_VESSEL], &res->err);
      }
      if (!io && w.f[F_PAYOUT]) {
        FILE *f = w.f[F_PAYOUT];
        fprintf(f, "%.17g,%.17g,%.17g,%.17g,", t, pay[0], pay[1], sqrt(top[0] * top[0] + top[1] * top[1] + top[2] * top[2]));
        if (m->ends[1].payout_tension) fprintf(f, "%.17g,%.17g\n", pay[2], m->ends[1].tension_set);
        else fputs(",\n", f);
        io = PlSeriesRowWritten(f, w.path[F_PAYOUT], &res->err);
      }
      if (!io && w.f[F_WAVES]) {
        PlWaveSeriesRow(w.f[F_WAVES], PlSysDynWaves(PlDynamicSystem(d)), &m->sea, t, &N[nn - 1].x, 1);
        io = PlSeriesRowWritten(w.f[F_WAVES], w.path[F_WAVES], &res->err);
      }
      if (!io && w.f[F_LAY]) {
        PlLayTrackUpdate(&track, p, t, N, nn);
        PlLaySeriesRow(w.f[F_LAY], p, t, pay[0], top, N, nn, E, ner);
        io = PlSeriesRowWritten(w.f[F_LAY], w.path[F_LAY], &res->err);
      }
      PlRunExtremaUpdate(&res->extrema, p, t, E, ner, &N[nn - 1]);
      if (res->has_design) PlDesignEnvelopeUpdate(&res->design, m, t, N, nn, stat);
      if (!io && opt->observer && PlModelVtkFrame(m, k, nout)) io = opt->observer(opt->observer_ctx, t, N, stat, nn, &res->err);
    }
    if (m->route.n > 0) { /* the last output's nodes: as_laid.csv at the end */
      free(laid);
      laid = N, nlaid = nn;
    } else
      free(N);
    free(E);
    N = E = NULL;
    res->simulated_time_s = t;
    /* a checkpoint after the first output, then every output.checkpoint_interval s of wall time */
    int due = MPI_Wtime() - last_checkpoint >= m->checkpoint_interval && k < nout;
    PetscCallMPI(MPI_Bcast(&due, 1, MPI_INT, 0, p->comm));
    PetscCallMPI(MPI_Bcast(&io, 1, MPI_INT, 0, p->comm));
    if (due && !io) {
      PetscCall(PlDynamicGetRaw(d, &rh.t, yraw, ypraw));
      PetscCall(Stats(d, &base, &res->stats));
      res->wall_time_s = MPI_Wtime() - wall0;
      res->real_time_factor = res->wall_time_s > 0 ? (t - res->restarted_at_s) / res->wall_time_s : 0.0;
      rh.noutputs = (int32_t)(k + 1);
      rh.t_out = t;
      if (!rank) io = Checkpoint(&sc, &w, &rh, PlDynamicSystem(d), yraw, ypraw, res, &res->err);
      PetscCallMPI(MPI_Bcast(&io, 1, MPI_INT, 0, p->comm));
      last_checkpoint = MPI_Wtime();
    }
    if (progress) {
      PlDynamicStats st;
      PetscCall(Stats(d, &base, &st));
      Progress(t, res->restarted_at_s, T, st.steps, MPI_Wtime() - wall0, k == nout);
    }
    if (opt->stop && *opt->stop) {
      res->interrupted = 1;
      ++k; /* output k is written */
      break;
    }
  }
  if (progress && (res->ida_flag || res->interrupted)) fputc('\n', stdout);
  PetscCall(Stats(d, &base, &res->stats));
  res->simulated_time_s = t;
  res->wall_time_s = MPI_Wtime() - wall0;
  res->real_time_factor = res->wall_time_s > 0 ? (t - res->restarted_at_s) / res->wall_time_s : 0.0;
  res->completed = !res->ida_flag && !res->interrupted && !io && t >= T * (1 - 1e-12);
  res->max_top_tension_N = res->extrema.max_top_tension.value;
  res->min_top_tension_N = res->extrema.min_top_tension.value;
  res->max_bending_moment_Nm = res->extrema.max_moment.value;
  /* The end: summary.json says how the run ended. With a state past the start (an output
   * written, or a restart's), also the envelopes and the final checkpoint: the state where
   * the run ended (an interrupted run: its last step); after an IDA failure restart.bin stays
   * at the last checkpoint, so that a restart does not begin from the failed state. */
  const int have_state = started && (k0 > 0 || k > 0);
  int final_io = 0;
  if (have_state && !res->ida_flag) PetscCall(PlDynamicGetRaw(d, &rh.t, yraw, ypraw));
  if (!rank) {
    for (int j = 0; j < F_N; ++j) {
      if (w.f[j] && fclose(w.f[j]) && !io) {
        snprintf(res->err.msg, sizeof res->err.msg, "%.900s: write failed: %s", w.path[j], strerror(errno));
        io = PL_EXIT_IO;
      }
      w.f[j] = NULL;
    }
    const int lio = PlLineSeriesClose(&w.ls, io ? &(PlError){{0}} : &res->err); /* envelopes stay */
    if (!io) io = lio;
    res->io_status = io;
    PlError *e = io ? &(PlError){{0}} : &res->err; /* the first failure's message stays */
    if (have_state && !res->ida_flag) {
      /* outputs 0 .. k-1 are in the files; the state is at rh.t >= their last time */
      rh.noutputs = (int32_t)k;
      rh.t_out = t;
      final_io = Checkpoint(&sc, &w, &rh, PlDynamicSystem(d), yraw, ypraw, res, e);
    } else if (started) {
      if (have_state) final_io = PlLineSeriesEnvelopes(&w.ls, dir, e);
      if (have_state && !final_io && res->has_design) final_io = PlDesignWriteEnvelope(dir, m, &res->design, e);
      if (!final_io) {
        cJSON *root = DynamicSummary(p, srep, ssum, opt, res, size, T, dt);
        final_io = PlSummaryWrite(dir, root, e);
        cJSON_Delete(root);
      }
    }
    if (!io) io = final_io;
    if (laid) { /* the pipe on the route at the last output */
      int lio = PlAsLaidWrite(dir, p, laid, nlaid, &track, io ? &(PlError){{0}} : &res->err);
      if (!io) io = lio;
      lio = PlRouteWrite(dir, &m->route, io ? &(PlError){{0}} : &res->err);
      if (!io) io = lio;
    }
  }
  free(laid);
  PlDesignEnvelopeFree(&res->design); /* the governing values stay in res */
  PlLayTrackFree(&track);
  PlLineSeriesFree(&w.ls);
  free(yraw);
  free(ypraw);
  PetscCallMPI(MPI_Bcast(&io, 1, MPI_INT, 0, p->comm));
  res->io_status = io;
  free(stat);
  free(Es);
  PetscCall(PlDynamicDestroy(&d));
  PetscFunctionReturn(0);
}
