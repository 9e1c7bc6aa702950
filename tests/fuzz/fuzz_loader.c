/*
 * fuzz_loader.c - libFuzzer harness of the model layer: YAML parsing, --set overrides,
 * validation and model set-up (mesh and initial guess). Nothing is solved; no PETSc.
 *
 * Input: the bytes of a model file, optionally followed by a NUL byte and up to 8
 * NUL-separated overrides ("key.path=value", as from --set). A model file holding a NUL
 * is refused by the loader anyway, so the split loses no case.
 *
 * The model is named /nonexistent-pipelay-fuzz/model.yaml: a time-series file
 * (ends.*.motion.file) resolves into that directory and is never found (the fuzzing build
 * of the loader treats absolute paths as relative there too), so no file is opened.
 *
 * Besides the sanitizers' reports, a run aborts (a "crash" to libFuzzer) when the loader
 * breaks its contract:
 *   - the status is neither 0 nor 2;
 *   - an error message is empty, unterminated, longer than one line, or not of the form
 *     "FILE:LINE:COL: key: what is wrong" (FILE is the model, "--set", or a time-series
 *     file), or an error leaves the model owning memory;
 *   - an accepted model has a non-finite or non-positive section property, a mesh that
 *     cannot be built (it is bounded by the loader's limits), fewer than 2 elements, node
 *     arc lengths that do not increase from 0 to L, or a non-finite initial guess;
 *   - the prescribed motions or the current give a non-finite value at a time from 0 to
 *     twice the duration;
 *   - an accepted vessel fails PlVesselCheck or its DP controller PlDPControllerCheck, has a
 *     non-finite value, a top end not held at a finite hang-off point, or an environmental
 *     load or DP reference that is not finite at those times;
 *   - PlModelCopy of an accepted model differs from it (its time-series tables included).
 * Meshes of more than 200000 elements are skipped (valid, but slow to build per run).
 *
 * Built by CMake with -DPIPELAY_FUZZ=ON (clang); tests/fuzz/fuzz_replay.c runs the same
 * function over the seed corpus in the ordinary test suite. See tests/fuzz/README.md.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipelay/meshes.h"
#include "pipelay/models.h"

#define MAX_OVERRIDES 8

static const char kModelName[] = "/nonexistent-pipelay-fuzz/model.yaml";

/* Stops the run with a message (libFuzzer reports the input that got here). */
static void fail(const char *what, const char *detail)
{
  fprintf(stderr, "fuzz_loader: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
  abort();
}

/* True for "D+:D+: " at s (line and column of a message). */
static int line_col(const char *s)
{
  for (int part = 0; part < 2; part++) {
    if (*s < '0' || *s > '9') return 0;
    while (*s >= '0' && *s <= '9') s++;
    if (*s++ != ':') return 0;
  }
  return *s == ' ';
}

/* Checks the form of an error message: one line "FILE:LINE:COL: key: text". */
static void check_message(const PlError *err)
{
  if (!memchr(err->msg, '\0', sizeof err->msg)) fail("error message not terminated", NULL);
  if (strchr(err->msg, '\n') || strchr(err->msg, '\r'))
    fail("error message longer than one line", err->msg);
  const char *rest = NULL;
  const size_t nlen = strlen(kModelName);
  if (strncmp(err->msg, kModelName, nlen) == 0 && err->msg[nlen] == ':')
    rest = err->msg + nlen + 1;
  else if (strncmp(err->msg, "--set:", 6) == 0)
    rest = err->msg + 6;
  else if (strncmp(err->msg, "/nonexistent-pipelay-fuzz/", 26) == 0) /* a time series */
    rest = strchr(err->msg + 26, ':') ? strchr(err->msg + 26, ':') + 1 : NULL;
  if (!rest || !line_col(rest)) fail("error message without FILE:LINE:COL: ", err->msg);
  const char *key = strchr(strchr(rest, ':') + 1, ' ') + 1; /* after "LINE:COL: " */
  /* "key: text", both non-empty (a key is user text: it may itself hold ": ") */
  const char *sep = key[0] ? strstr(key + 1, ": ") : NULL;
  if (!sep || !sep[2]) fail("error message without 'key: text'", err->msg);
  if (strncmp(err->msg, "--set:", 6) == 0 && strncmp(key, "(document): ", 12) == 0)
    fail("an override's error names the document", err->msg);
}

/* Fails unless the n values of v are finite. */
static void check_finite(const double *v, int n, const char *what)
{
  for (int i = 0; i < n; i++)
    if (!isfinite(v[i])) fail(what, "not finite");
}

/* Checks that an accepted model is finite and sensible, and that it copies. */
static void check_model(const PlModel *m)
{
  if (!(m->nsegments >= 1 && m->segments)) fail("section count", NULL);
  if (!(isfinite(m->length) && m->length > 0.0)) fail("line length", NULL);
  for (int i = 0; i < m->nsegments; i++) {
    const PlSegment *g = &m->segments[i];
    const PlSection *s = &g->section;
    const double pos[] = {g->length, s->EA,         s->GA[0],     s->GA[1],
                          s->GJ,     s->EI[0],      s->EI[1],     s->mass_per_length,
                          s->inertia[0], s->inertia[1], s->inertia[2], s->outer_diameter,
                          s->hydro_diameter};
    for (size_t k = 0; k < sizeof pos / sizeof pos[0]; k++)
      if (!(isfinite(pos[k]) && pos[k] > 0.0)) {
        char d[64];
        snprintf(d, sizeof d, "section %d, value %zu = %g", i, k, pos[k]);
        fail("section property not finite and positive", d);
      }
  }
  PlModel *copy = malloc(sizeof *copy);
  if (!copy) return;
  if (PlModelCopy(m, copy) == 0) {
    if (copy->nsegments != m->nsegments || copy->segments == m->segments ||
        memcmp(copy->segments, m->segments, sizeof *m->segments * (size_t)m->nsegments))
      fail("PlModelCopy differs (sections, or shares them)", NULL);
    for (int e = 0; e < 2; e++) {
      const PlMotion *a = &m->ends[e].motion, *b = &copy->ends[e].motion;
      if (a->nrows != b->nrows || (a->table && memcmp(a->table, b->table,
                                                     (size_t)a->nrows * 7 * sizeof *a->table)))
        fail("PlModelCopy differs", NULL);
    }
    const PlVesselLoad *a = &m->vessel.environment, *b = &copy->vessel.environment;
    if (a->nrows != b->nrows || (a->table && (a->table == b->table ||
                                              memcmp(a->table, b->table,
                                                     (size_t)a->nrows * 7 * sizeof *a->table))))
      fail("PlModelCopy differs (environmental load)", NULL);
    PlModelFree(copy);
  }
  free(copy);
}

/* Checks an accepted vessel: its own checks pass, its values are finite, the top end hangs
 * from it. */
static void check_body(const PlModel *m, const PlVesselModel *v)
{
  if (!v->present) {
    if (v->has_dp || v->environment.table) fail("a vessel's parts without a vessel", NULL);
    return;
  }
  char msg[512];
  if (PlVesselCheck(&v->body, msg, sizeof msg) != 0)
    fail("accepted vessel fails PlVesselCheck", msg);
  if (v->has_dp && PlDPControllerCheck(&v->dp, msg, sizeof msg) != 0)
    fail("accepted DP controller fails PlDPControllerCheck", msg);
  const PlVessel *V = &v->body;
  check_finite(V->MRB, 36, "vessel MRB");
  check_finite(V->MA, 36, "vessel MA");
  check_finite(V->Dp, 36, "vessel Dp");
  check_finite(V->Dq, 6, "vessel Dq");
  check_finite(V->K_spring, 9, "vessel spring");
  check_finite(V->r_anchor, 3, "vessel anchor");
  check_finite(v->position, 3, "vessel position");
  check_finite(v->rpy, 3, "vessel attitude");
  check_finite(v->velocity, 3, "vessel velocity");
  check_finite(v->angular_velocity, 3, "vessel angular velocity");
  check_finite(v->hang_off, 3, "vessel hang-off point");
  check_finite(v->top_frame, 9, "vessel top frame");
  check_finite(v->environment.value, 6, "vessel environment load");
  if (m->rigid_body) return; /* no line hangs from it */
  if (v != &m->vessel) return;
  const PlEnd *top = &m->ends[1];
  if (!(top->fixed[0] && top->fixed[1] && top->fixed[2]) || top->motion.kind != PL_MOTION_NONE)
    fail("the top end does not hang from the vessel", NULL);
  check_finite(top->position, 3, "top end at the hang-off point");
  check_finite(top->orientation, 9, "top end frame");
}

/* The time functions of a dynamic model at a few times and heights: finite values. */
static void check_time_functions(const PlModel *m)
{
  const double T = m->analysis.kind == PL_ANALYSIS_DYNAMIC ? m->analysis.dynamic.duration : 1.0;
  const double ts[] = {0.0, 0.37 * T, T, 2.0 * T};
  for (size_t k = 0; k < sizeof ts / sizeof ts[0]; k++) {
    for (int e = 0; e < 2; e++) {
      double d[3], dd[3], ddd[3], th[3], dth[3];
      bool moved[6];
      PlMotionEval(&m->ends[e].motion, ts[k], d, dd, ddd, th, dth);
      PlMotionHeldDofs(&m->ends[e].motion, moved);
      check_finite(d, 3, "motion offset");
      check_finite(dd, 3, "motion velocity");
      check_finite(ddd, 3, "motion acceleration");
      check_finite(th, 3, "motion rotation");
      check_finite(dth, 3, "motion angular velocity");
    }
    double w[6], er[6], erd[6];
    PlVesselLoadEval(&m->vessel.environment, ts[k], w);
    check_finite(w, 6, "vessel environment load");
    PlDPReferenceEval(&m->vessel.dp.ref, ts[k], er, erd);
    check_finite(er, 6, "DP reference");
    check_finite(erd, 6, "DP reference rate");
    const double zs[] = {0.0, -0.5 * m->water_depth, -m->water_depth, 1.0};
    for (size_t j = 0; j < sizeof zs / sizeof zs[0]; j++) {
      double v[3], dv[3];
      PlCurrentVelocity(&m->current, m->water_depth, zs[j], ts[k], v, dv);
      check_finite(v, 3, "current velocity");
      check_finite(dv, 3, "current shear");
    }
  }
}

/* Upper estimate of the element count (as the loader bounds it). */
static double element_estimate(const PlModel *m)
{
  double n = m->mesh_elements > 0 ? m->mesh_elements : m->length / m->mesh_target_length;
  for (int z = 0; z < m->nzones; z++)
    n += (m->zones[z].s_to - m->zones[z].s_from) / m->zones[z].target_length;
  return n + m->nsegments + 2 * m->nzones + 1;
}

/* Builds the mesh and the initial guess of an accepted model and checks them. */
static void check_mesh(const PlModel *m)
{
  if (!(element_estimate(m) <= 200000.0)) return;
  PlMesh mesh;
  if (PlMeshCreate(m, &mesh) != 0) fail("PlMeshCreate failed on an accepted model", NULL);
  if (mesh.nelements < 2 || mesh.nnodes != mesh.nelements + 1) fail("element count", NULL);
  if (mesh.S[0] != 0.0 || mesh.S[mesh.nnodes - 1] != m->length) fail("mesh ends", NULL);
  for (int i = 0; i + 1 < mesh.nnodes; i++)
    if (!(mesh.S[i + 1] > mesh.S[i])) fail("node arc lengths do not increase", NULL);
  for (int e = 0; e < mesh.nelements; e++)
    if (mesh.segment[e] < 0 || mesh.segment[e] >= m->nsegments) fail("element segment", NULL);
  PlMeshInitialGuess(m, &mesh);
  for (int i = 0; i < 3 * mesh.nnodes; i++)
    if (!isfinite(mesh.x0[i])) fail("initial guess position not finite", mesh.guess_note);
  for (int i = 0; i < 4 * mesh.nnodes; i++)
    if (!isfinite(mesh.q0[i])) fail("initial guess frame not finite", mesh.guess_note);
  PlMeshDestroy(&mesh);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  /* the model text, then NUL-separated overrides (copied so that each is terminated) */
  const uint8_t *nul = memchr(data, 0, size);
  const size_t text_len = nul ? (size_t)(nul - data) : size;
  char *text = malloc(text_len + 1);
  char *rest = NULL;
  const char *ov[MAX_OVERRIDES];
  int nov = 0;
  if (!text) return 0;
  memcpy(text, data, text_len);
  text[text_len] = '\0';
  if (nul) {
    const size_t rlen = size - text_len - 1;
    rest = malloc(rlen + 1);
    if (!rest) {
      free(text);
      return 0;
    }
    memcpy(rest, nul + 1, rlen);
    rest[rlen] = '\0';
    for (size_t i = 0; i <= rlen && nov < MAX_OVERRIDES;) {
      ov[nov++] = rest + i;
      i += strlen(rest + i) + 1;
    }
  }

  PlModel *m = malloc(sizeof *m);
  PlError err;
  if (m) {
    const int rc = PlModelLoadString(kModelName, text, text_len, nov, ov, m, &err);
    if (rc == 2) {
      check_message(&err);
      if (m->ends[0].motion.table || m->ends[1].motion.table || m->vessel.environment.table)
        fail("a failed load owns a time-series table", NULL);
    } else if (rc == 0) {
      if (m->rigid_body) { /* bodies and joints: no line to check */
        if (m->nbodies < 1 || m->vessel.present || m->analysis.kind != PL_ANALYSIS_DYNAMIC || m->nsegments != 0)
          fail("a model without a line has no body, a vessel at a line's top, no dynamic analysis, or a line", NULL);
        for (int b = 0; b < m->nbodies; ++b) check_body(m, &m->bodies[b]);
        for (int j = 0; j < m->njoints; ++j)
          if (m->joints[j].body[0] < 0 || m->joints[j].body[0] >= m->nbodies || m->joints[j].body[1] >= m->nbodies ||
              m->joints[j].body[0] == m->joints[j].body[1])
            fail("a joint between unknown bodies", m->joints[j].name);
        check_time_functions(m);
      } else if (m->nlines > 0) { /* several lines: each as the one-line model the solver makes */
        if (m->vessel.present) fail("a model of lines with a vessel (its bodies are bodies:)", NULL);
        for (int b = 0; b < m->nbodies; ++b) check_body(m, &m->bodies[b]);
        for (int j = 0; j < m->njoints; ++j)
          if (m->joints[j].body[0] < 0 || m->joints[j].body[0] >= m->nbodies || m->joints[j].body[1] >= m->nbodies ||
              m->joints[j].body[0] == m->joints[j].body[1])
            fail("a joint between unknown bodies", m->joints[j].name);
        PlModel *lm = malloc(sizeof *lm);
        for (int l = 0; lm && l < m->nlines; ++l) {
          for (int e = 0; e < 2; ++e) {
            const PlEnd *E = &m->lines[l].ends[e];
            if (E->point >= m->npoints || E->body >= m->nbodies || (E->point >= 0 && E->body >= 0))
              fail("a line end attached to an unknown point or body, or to both", m->lines[l].name);
          }
          if (PlModelLineModel(m, l, lm)) continue; /* out of memory */
          check_model(lm);
          check_mesh(lm);
          PlModelFree(lm);
        }
        free(lm);
      } else {
        check_model(m);
        check_body(m, &m->vessel);
        check_time_functions(m);
        check_mesh(m);
      }
      PlModelFree(m);
    } else {
      char d[32];
      snprintf(d, sizeof d, "%d", rc);
      fail("PlModelLoadString returned neither 0 nor 2", d);
    }
    free(m);
  }
  free(rest);
  free(text);
  return 0;
}
