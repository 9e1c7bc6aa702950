/*
 * mesh.c - nodes along the arc length and the initial geometry of a line.
 *
 * Workload: one line of up to ~10^5 nodes, built once per run; nothing here is hot.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pipelay/meshes.h"
#include "pipelay/elements.h"

#define PL_MESH_MAX_NODES 10000000

/* Target element length at arc length S (the finest zone covering S, else the global). */
static double TargetAt(const PlModel *m, double S, double global)
{
  double t = global;
  for (int z = 0; z < m->nzones; ++z)
    if (S >= m->zones[z].s_from && S <= m->zones[z].s_to) t = fmin(t, m->zones[z].target_length);
  return t;
}

/* Sorted breakpoints: 0, segment ends, zone ends, L (duplicates removed). */
static int Breakpoints(const PlModel *m, double *bp)
{
  int n = 0;
  double s = 0.0;
  bp[n++] = 0.0;
  for (int i = 0; i < m->nsegments; ++i) {
    s += m->segments[i].length;
    bp[n++] = s;
  }
  bp[n - 1] = m->length;
  for (int z = 0; z < m->nzones; ++z) {
    bp[n++] = m->zones[z].s_from;
    bp[n++] = m->zones[z].s_to;
  }
  for (int i = 1; i < n; ++i) /* insertion sort: n is small */
    for (int j = i; j > 0 && bp[j] < bp[j - 1]; --j) {
      const double t = bp[j];
      bp[j] = bp[j - 1];
      bp[j - 1] = t;
    }
  int k = 1;
  for (int i = 1; i < n; ++i)
    if (bp[i] - bp[k - 1] > 1e-9 * m->length) bp[k++] = bp[i];
  bp[k - 1] = m->length;
  return k;
}

int PlMeshCreate(const PlModel *m, PlMesh *mesh)
{
  memset(mesh, 0, sizeof *mesh);
  double bp[1 + PL_MAX_SECTIONS + 2 * PL_MAX_ZONES + 1];
  const int nbp = Breakpoints(m, bp);
  const double global = m->mesh_elements > 0 ? m->length / m->mesh_elements : m->mesh_target_length;
  int counts[1 + PL_MAX_SECTIONS + 2 * PL_MAX_ZONES + 1];
  long total = 0;
  for (int i = 0; i + 1 < nbp; ++i) {
    const double len = bp[i + 1] - bp[i];
    const double t = TargetAt(m, 0.5 * (bp[i] + bp[i + 1]), global);
    /* round to nearest for an element count, up for a target length */
    double c = m->mesh_elements > 0 && m->nzones == 0 ? floor(len / t + 0.5) : ceil(len / t - 1e-9);
    if (c < 1.0) c = 1.0;
    if (c > PL_MESH_MAX_NODES) return -1;
    counts[i] = (int)c;
    total += counts[i];
  }
  if (m->mesh_elements > 0 && m->nzones == 0 && total != m->mesh_elements) {
    /* rounding per piece can miss the requested count by a few: fix on the longest pieces */
    while (total != m->mesh_elements) {
      int best = -1;
      double bestlen = -1.0;
      for (int i = 0; i + 1 < nbp; ++i) {
        const double per = (bp[i + 1] - bp[i]) / counts[i];
        if (total < m->mesh_elements ? per > bestlen : (counts[i] > 1 && -per > bestlen)) {
          bestlen = total < m->mesh_elements ? per : -per;
          best = i;
        }
      }
      if (best < 0) break;
      counts[best] += total < m->mesh_elements ? 1 : -1;
      total += total < m->mesh_elements ? 1 : -1;
    }
  }
  if (total + 1 > PL_MESH_MAX_NODES) return -1;
  /* a line needs at least 2 elements (the loader checks mesh.elements and target_length) */
  if (total < 2) return -1;
  mesh->nelements = (int)total;
  mesh->nnodes = (int)total + 1;
  mesh->S = malloc(sizeof(double) * mesh->nnodes);
  mesh->segment = malloc(sizeof(int) * mesh->nelements);
  mesh->x0 = malloc(sizeof(double) * 3 * mesh->nnodes);
  mesh->q0 = malloc(sizeof(double) * 4 * mesh->nnodes);
  if (!mesh->S || !mesh->segment || !mesh->x0 || !mesh->q0) {
    PlMeshDestroy(mesh);
    return -1;
  }
  int k = 0;
  for (int i = 0; i + 1 < nbp; ++i)
    for (int j = 0; j < counts[i]; ++j) mesh->S[k++] = bp[i] + (bp[i + 1] - bp[i]) * j / counts[i];
  mesh->S[k] = m->length;
  /* element -> segment */
  double send = m->segments[0].length;
  int seg = 0;
  for (int e = 0; e < mesh->nelements; ++e) {
    const double mid = 0.5 * (mesh->S[e] + mesh->S[e + 1]);
    while (seg + 1 < m->nsegments && mid > send) send += m->segments[++seg].length;
    mesh->segment[e] = seg;
  }
  return 0;
}

void PlMeshDestroy(PlMesh *mesh)
{
  if (!mesh) return;
  free(mesh->S);
  free(mesh->segment);
  free(mesh->x0);
  free(mesh->q0);
  memset(mesh, 0, sizeof *mesh);
}

double PlModelMeanSubmergedWeight(const PlModel *m)
{
  double w = 0.0;
  for (int i = 0; i < m->nsegments; ++i)
    w += m->segments[i].length *
         PlSectionSubmergedWeight(&m->segments[i].section, m->water_density, m->gravity);
  return w / m->length;
}

/* Frame with t1 = (cos(beta) h, sin(beta)), h = (cos(heading), sin(heading), 0):
 * R = R_z(heading) R_y(-beta). */
static void FrameOf(double heading, double beta, double q[4])
{
  const double ez[3] = {0, 0, 1}, ey[3] = {0, 1, 0};
  double qz[4], qy[4];
  PlQuatFromAxisAngle(ez, heading, qz);
  PlQuatFromAxisAngle(ey, -beta, qy);
  PlQuatMul(qz, qy, q);
}

static void Straight(const PlModel *m, PlMesh *mesh)
{
  const PlEnd *b = &m->ends[0];
  double q[4], t1[3];
  PlQuatFromMatrix(b->orientation, q);
  const double e1[3] = {1, 0, 0};
  PlQuatRotate(q, e1, t1);
  for (int i = 0; i < mesh->nnodes; ++i) {
    for (int c = 0; c < 3; ++c)
      mesh->x0[3 * i + c] = (b->has_position[c] ? b->position[c] : 0.0) + mesh->S[i] * t1[c];
    memcpy(mesh->q0 + 4 * i, q, sizeof q);
  }
  mesh->guess_used = PL_GUESS_STRAIGHT;
}

void PlMeshInitialGuess(const PlModel *m, PlMesh *mesh)
{
  mesh->guess_note[0] = '\0';
  const PlEnd *b = &m->ends[0], *t = &m->ends[1];
  if (m->analysis.initial_guess == PL_GUESS_STRAIGHT) {
    Straight(m, mesh);
    return;
  }
  const char *why = NULL;
  double heading = 0.0, H = 0.0, span = -1.0;
  const bool top_h_given = t->has_position[0] && t->has_position[1] && t->fixed[PL_DOF_X] &&
                           t->fixed[PL_DOF_Y];
  const double w = PlModelMeanSubmergedWeight(m);
  if (!(b->has_position[0] && b->has_position[1] && b->has_position[2]))
    why = "the bottom end's position is not given in full";
  else if (!t->has_position[2])
    why = "the top end's height is not given";
  else if (!(w > 0.0))
    why = "the line is buoyant (submerged weight <= 0)";
  if (!why) {
    if (top_h_given) {
      const double dx = t->position[0] - b->position[0], dy = t->position[1] - b->position[1];
      heading = atan2(dy, dx);
      span = hypot(dx, dy);
    } else {
      double q[4], t1[3];
      const double e1[3] = {1, 0, 0};
      PlQuatFromMatrix(b->orientation, q);
      PlQuatRotate(q, e1, t1);
      heading = atan2(t1[1], t1[0]);
      H = t->force[0] * cos(heading) + t->force[1] * sin(heading);
      if (!(H > 0.0)) why = "the top end is free horizontally but pulled by no horizontal force";
    }
  }
  const double h = why ? 0.0 : t->position[2] - b->position[2];
  if (!why && !(h > 0.0)) why = "the top end is not above the bottom end";
  PlCatenary c = {0};
  if (!why) {
    if (span >= 0.0) {
      if (PlCatenaryForSpan(m->length, w, h, span, &c)) why = "no catenary of this length spans the ends";
    } else {
      PlCatenarySolve(H, w, h, &c);
      if (c.suspended_length > m->length) why = "the line is too short to reach the seabed as a catenary";
    }
  }
  if (why) {
    snprintf(mesh->guess_note, sizeof mesh->guess_note, "catenary guess not possible (%s); straight line used", why);
    Straight(m, mesh);
    return;
  }
  const double laid = m->length - c.suspended_length;
  const double ch = cos(heading), sh = sin(heading);
  for (int i = 0; i < mesh->nnodes; ++i) {
    const double S = mesh->S[i];
    double hor, z, beta;
    if (S <= laid) {
      hor = S;
      z = 0.0;
      beta = 0.0;
    } else {
      const double sig = S - laid;
      hor = laid + c.a * asinh(sig / c.a);
      z = sqrt(c.a * c.a + sig * sig) - c.a;
      beta = atan2(sig, c.a);
    }
    mesh->x0[3 * i + 0] = b->position[0] + hor * ch;
    mesh->x0[3 * i + 1] = b->position[1] + hor * sh;
    mesh->x0[3 * i + 2] = b->position[2] + z;
    FrameOf(heading, beta, mesh->q0 + 4 * i);
  }
  mesh->guess_used = PL_GUESS_CATENARY;
}
