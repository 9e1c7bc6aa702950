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
static int CompareDouble(const void *a, const void *b)
{
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

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
  qsort(bp, (size_t)n, sizeof *bp, CompareDouble);
  int k = 1;
  for (int i = 1; i < n; ++i)
    if (bp[i] - bp[k - 1] > 1e-9 * m->length) bp[k++] = bp[i];
  bp[k - 1] = m->length;
  return k;
}

/* PlMeshCreate with room for the breakpoints bp and the pieces' element counts. */
static int Create(const PlModel *m, PlMesh *mesh, double *bp, int *counts);

int PlMeshCreate(const PlModel *m, PlMesh *mesh)
{
  memset(mesh, 0, sizeof *mesh);
  const size_t n = 2 + (size_t)m->nsegments + 2 * (size_t)m->nzones; /* the ends, sections, zones */
  double *bp = malloc(n * sizeof *bp);
  int *counts = malloc(n * sizeof *counts);
  const int rc = bp && counts ? Create(m, mesh, bp, counts) : -1;
  free(bp);
  free(counts);
  return rc;
}

static int Create(const PlModel *m, PlMesh *mesh, double *bp, int *counts)
{
  const int nbp = Breakpoints(m, bp);
  const double global = m->mesh_elements > 0 ? m->length / m->mesh_elements : m->mesh_target_length;
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

bool PlModelCurvedAtRest(const PlModel *m)
{
  for (int i = 0; i < m->nsegments; ++i) {
    const PlSegment *g = &m->segments[i];
    if (g->bend_radius > 0.0 || g->curvature[0] != 0.0 || g->curvature[1] != 0.0 || g->curvature[2] != 0.0)
      return true;
  }
  return false;
}

/* The material curvature of section g whose rest frame at its start is q (PlMeshRestShape). */
static void SectionCurvature(const PlSegment *g, const double q[4], double k[3])
{
  if (!(g->bend_radius > 0.0)) {
    memcpy(k, g->curvature, 3 * sizeof(double));
    return;
  }
  const double qc[4] = {q[0], -q[1], -q[2], -q[3]};
  PlQuatRotate(qc, g->bend_normal, k); /* R_s^T n */
  for (int i = 0; i < 3; ++i) k[i] /= g->bend_radius;
}

double PlMeshRestShape(const PlModel *m, const PlMesh *mesh, double *xr, double *qr)
{
  double turn = 0.0;
  const PlEnd *b = &m->ends[0];
  for (int c = 0; c < 3; ++c) xr[c] = b->has_position[c] ? b->position[c] : 0.0;
  PlQuatFromMatrix(b->orientation, qr);
  double k[3] = {0, 0, 0};
  for (int e = 0; e < mesh->nelements; ++e) {
    const double *q = qr + 4 * e;
    if (e == 0 || mesh->segment[e] != mesh->segment[e - 1]) SectionCurvature(&m->segments[mesh->segment[e]], q, k);
    double dx[3], dq[4], gx[3];
    const double h = mesh->S[e + 1] - mesh->S[e];
    turn = fmax(turn, h * sqrt(k[0] * k[0] + k[1] * k[1] + k[2] * k[2]));
    PlRodArcStep(k, h, dx, dq);
    PlQuatRotate(q, dx, gx);
    for (int c = 0; c < 3; ++c) xr[3 * (e + 1) + c] = xr[3 * e + c] + gx[c];
    PlQuatMul(q, dq, qr + 4 * (e + 1));
  }
  return turn;
}

/* Straight from the bottom end A to the point P (every node at its share of the chord),
 * frames along the chord. */
static void StraightTo(const PlModel *m, PlMesh *mesh, const double P[3])
{
  const PlEnd *b = &m->ends[0];
  const double d[3] = {P[0] - b->position[0], P[1] - b->position[1], P[2] - b->position[2]};
  const double hor = hypot(d[0], d[1]);
  double heading = hor > 0.0 ? atan2(d[1], d[0]) : 0.0;
  if (!(hor > 0.0)) { /* vertical chord: the bottom frame's heading */
    double q[4], t1[3];
    const double e1[3] = {1, 0, 0};
    PlQuatFromMatrix(b->orientation, q);
    PlQuatRotate(q, e1, t1);
    heading = atan2(t1[1], t1[0]);
  }
  double q[4];
  FrameOf(heading, atan2(d[2], hor), q);
  for (int i = 0; i < mesh->nnodes; ++i) {
    const double f = mesh->S[i] / m->length;
    for (int c = 0; c < 3; ++c) mesh->x0[3 * i + c] = b->position[c] + f * d[c];
    memcpy(mesh->q0 + 4 * i, q, sizeof q);
  }
  mesh->guess_used = PL_GUESS_STRAIGHT;
}

/* The start shape "catenary": the elastic catenary of the sections (models/catenary.c)
 * between the bottom end A and the top end B, in the vertical plane through A along the
 * heading: A -> B horizontally when the top's horizontal position is held, else the top
 * force's horizontal direction, else the bottom frame's t1. What the top prescribes picks
 * the unknowns:
 *   x, y, z held          H and V0 from the span and the height (suspended, touching down,
 *                         taut or vertical);
 *   z held, x/y free      H = the top force's horizontal part, V0 from the height;
 *   x, y held, z free     V at the top = the top force's vertical part, H from the span;
 *   nothing held          H and V from the top force.
 * Nodes below the seabed's resting level (a suspended line that would sag through it) are
 * lifted to it. Where no catenary exists: a straight line from A to B (or to the top's
 * height along the heading), saying why in guess_note. */
static void Cross(const double a[3], const double b[3], double c[3])
{
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

/* The start shape "results": a previous run's static shape (static.csv), mapped onto this
 * mesh by the relative arc length S/L (so a different element count or line length works):
 * positions interpolated linearly, section axes t2, t3 likewise and made orthonormal again
 * (t1 = t2 x t3). Returns 0, or -1 with the reason in guess_note. */
static int FromResults(const PlModel *m, PlMesh *mesh)
{
  PlShape sh;
  char why[200];
  if (PlShapeRead(m->analysis.start_from, &sh, why, sizeof why)) {
    snprintf(mesh->guess_note, sizeof mesh->guess_note, "start from results not possible (%s)", why);
    return -1;
  }
  const double Lold = sh.v[(size_t)PL_SHAPE_NCOL * (sh.n - 1)] - sh.v[0];
  int j = 0;
  for (int i = 0; i < mesh->nnodes; ++i) {
    const double S = sh.v[0] + mesh->S[i] / m->length * Lold;
    while (j + 2 < sh.n && sh.v[(size_t)PL_SHAPE_NCOL * (j + 1)] < S) ++j;
    const double *a = sh.v + (size_t)PL_SHAPE_NCOL * j, *b = a + PL_SHAPE_NCOL;
    const double f = fmin(1.0, fmax(0.0, (S - a[0]) / (b[0] - a[0])));
    double v[PL_SHAPE_NCOL];
    for (int k = 0; k < PL_SHAPE_NCOL; ++k) v[k] = (1.0 - f) * a[k] + f * b[k];
    for (int c = 0; c < 3; ++c) mesh->x0[3 * i + c] = v[1 + c];
    double t1[3], t2[3], t3[3] = {v[7], v[8], v[9]};
    Cross(v + 4, t3, t1);
    double n1 = sqrt(t1[0] * t1[0] + t1[1] * t1[1] + t1[2] * t1[2]);
    const double n3 = sqrt(t3[0] * t3[0] + t3[1] * t3[1] + t3[2] * t3[2]);
    if (!(n1 > 1e-6) || !(n3 > 1e-6)) {
      PlShapeFree(&sh);
      snprintf(mesh->guess_note, sizeof mesh->guess_note, "start from results not possible (static.csv: "
               "degenerate section axes near S = %.3f m)", S);
      return -1;
    }
    for (int c = 0; c < 3; ++c) {
      t1[c] /= n1;
      t3[c] /= n3;
    }
    Cross(t3, t1, t2);
    Cross(t1, t2, t3);
    const double R[9] = {t1[0], t2[0], t3[0], t1[1], t2[1], t3[1], t1[2], t2[2], t3[2]};
    PlQuatFromMatrix(R, mesh->q0 + 4 * i);
  }
  PlShapeFree(&sh);
  mesh->guess_used = PL_GUESS_RESULTS;
  return 0;
}

/* On a bathymetry grid: every node but the bottom end's that the start laid on the seabed (arc
 * length S <= s_laid) or that lies below the seabed's resting level of the centreline (the penetration kappa_r at which the law carries the submerged weight w:
 * d_o/8 for eq 5.38, w/k for the linear law; (d_o/2 - kappa_r) sqrt(1 + |grad|^2) above z_s
 * vertically) is put at it, its frame along the grid's slope in the heading's direction: the
 * laid pipe follows the grid into its dips (a node left in the air over a dip would carry no
 * load at the start's zero tension: a singular first Newton step). Nothing on a plane (the
 * starts handle it). */
static void LiftOntoGrid(const PlModel *m, PlMesh *mesh, double d0, double w, double heading, double s_laid)
{
  if (!m->bathymetry || m->seabed == PL_SEABED_NONE) return;
  const double ch = cos(heading), sh = sin(heading);
  const double rest = m->seabed == PL_SEABED_LINEAR && m->seabed_stiffness > 0.0 ? fabs(w) / m->seabed_stiffness
                                                                                  : d0 / 8.0;
  for (int i = 1; i < mesh->nnodes; ++i) {
    double zs, g[2];
    PlBathymetryEval(m->bathymetry, mesh->x0[3 * i], mesh->x0[3 * i + 1], &zs, g, NULL);
    const double zrest = zs + (0.5 * d0 - rest) * sqrt(1.0 + g[0] * g[0] + g[1] * g[1]);
    if (mesh->x0[3 * i + 2] >= zrest && !(mesh->S[i] <= s_laid)) continue;
    mesh->x0[3 * i + 2] = zrest;
    FrameOf(heading, atan(g[0] * ch + g[1] * sh), mesh->q0 + 4 * i);
  }
}

/* The start on a sloped seabed (seabed.slope) of a line whose top is held at height h above
 * its bottom end and pulled by H along the heading: the inextensible natural catenary that
 * lands tangentially on the plane, its laid part straight along the slope from the bottom end
 * (verification/jlay_slope's closed form, make_reference.py): with beta the plane's slope
 * along the heading, a = H/w (w the line's mean submerged weight) and s the laid length, the
 * touchdown at s along the slope, u_TD = asinh(tan beta), the top at
 * cosh(u_top) = cosh(u_TD) + (h - s sin beta)/a, and L - s = a (sinh u_top - tan beta), solved
 * for s by bisection. Returns 1 when used, 0 (the flat start instead) for a flat seabed, a
 * line that does not reach the seabed or no solution. */
static int SlopedStart(const PlModel *m, PlMesh *mesh, const PlElasticCatenary *c, double H, double heading, double h,
                       double beta, double *s_laid)
{
  const double ch = cos(heading), sh = sin(heading);
  if (fabs(beta) < 1e-9 || !(H > 0.0)) return 0;
  double W = 0.0;
  for (int i = 0; i < c->nsections; ++i) W += c->w[i] * c->L[i];
  const double L = c->length, a = H / (W / L), uTD = asinh(tan(beta));
  double lo = 0.0, hi = L, utop = 0.0;
  for (int it = 0; it < 200; ++it) {
    const double sl = 0.5 * (lo + hi), ct = cosh(uTD) + (h - sl * sin(beta)) / a;
    if (!(ct >= 1.0)) { /* the top below the touchdown: less laid */
      hi = sl;
      continue;
    }
    utop = acosh(ct);
    if (a * (sinh(utop) - tan(beta)) < L - sl) lo = sl;
    else hi = sl;
  }
  const double sl = 0.5 * (lo + hi);
  if (!(sl > 0.0 && sl < L)) return 0;
  *s_laid = sl;
  const PlEnd *b = &m->ends[0];
  for (int i = 0; i < mesh->nnodes; ++i) {
    const double S = mesh->S[i];
    double x, z, el;
    if (S <= sl) {
      x = S * cos(beta), z = S * sin(beta), el = beta;
    } else {
      const double u = asinh(sinh(uTD) + (S - sl) / a);
      x = sl * cos(beta) + a * (u - uTD);
      z = sl * sin(beta) + a * (cosh(u) - cosh(uTD));
      el = atan(sinh(u));
    }
    mesh->x0[3 * i + 0] = b->position[0] + x * ch;
    mesh->x0[3 * i + 1] = b->position[1] + x * sh;
    mesh->x0[3 * i + 2] = b->position[2] + z;
    FrameOf(heading, el, mesh->q0 + 4 * i);
  }
  mesh->guess_used = PL_GUESS_CATENARY;
  return 1;
}

/* PlMeshInitialGuess with room for the sections' lengths L, weights w and stiffnesses EA. */
static void InitialGuess(const PlModel *m, PlMesh *mesh, double *L, double *w, double *EA);

void PlMeshInitialGuess(const PlModel *m, PlMesh *mesh)
{
  const size_t n = m->nsegments > 0 ? (size_t)m->nsegments : 1;
  double *buf = malloc(3 * n * sizeof *buf);
  if (!buf) {
    snprintf(mesh->guess_note, sizeof mesh->guess_note, "catenary start not possible (out of memory); straight line used");
    Straight(m, mesh);
    return;
  }
  InitialGuess(m, mesh, buf, buf + n, buf + 2 * n);
  free(buf);
}

static void InitialGuess(const PlModel *m, PlMesh *mesh, double *L, double *w, double *EA)
{
  mesh->guess_note[0] = '\0';
  const PlEnd *b = &m->ends[0], *t = &m->ends[1];
  if (m->analysis.initial_guess == PL_GUESS_STRAIGHT) {
    if (PlModelCurvedAtRest(m)) {
      PlMeshRestShape(m, mesh, mesh->x0, mesh->q0);
      mesh->guess_used = PL_GUESS_STRAIGHT;
    } else {
      Straight(m, mesh);
    }
    return;
  }
  if (m->analysis.initial_guess == PL_GUESS_RESULTS && !FromResults(m, mesh)) return;
  const char *why = NULL;
  if (!(b->has_position[0] && b->has_position[1] && b->has_position[2])) {
    snprintf(mesh->guess_note, sizeof mesh->guess_note,
             "catenary start not possible (the bottom end's position is not given in full); straight line used");
    Straight(m, mesh);
    return;
  }
  const bool hx = t->has_position[0] && t->fixed[PL_DOF_X], hy = t->has_position[1] && t->fixed[PL_DOF_Y];
  const bool hz = t->has_position[2] && t->fixed[PL_DOF_Z];
  PlElasticCatenary c = {0};
  c.nsections = m->nsegments;
  for (int i = 0; i < m->nsegments; ++i) {
    const PlSection *s = &m->segments[i].section;
    L[i] = m->segments[i].length;
    w[i] = PlSectionSubmergedWeight(s, m->water_density, m->gravity);
    EA[i] = s->EA;
    c.length += L[i];
  }
  c.L = L, c.w = w, c.EA = EA;
  const double d0 = m->segments[0].section.outer_diameter;
  c.on_seabed = m->seabed != PL_SEABED_NONE && b->position[2] <= PlSeabedHeight(m, b->position[0], b->position[1]) + d0;
  /* the heading and the horizontal distance to the top */
  double heading = 0.0, span = 0.0;
  const double Fh = hypot(t->force[0], t->force[1]);
  if (hx && hy && hypot(t->position[0] - b->position[0], t->position[1] - b->position[1]) > 1e-9 * m->length) {
    heading = atan2(t->position[1] - b->position[1], t->position[0] - b->position[0]);
    span = hypot(t->position[0] - b->position[0], t->position[1] - b->position[1]);
  } else if (!(hx && hy) && Fh > 0.0) {
    heading = atan2(t->force[1], t->force[0]);
  } else {
    double q[4], t1[3];
    const double e1[3] = {1, 0, 0};
    PlQuatFromMatrix(b->orientation, q);
    PlQuatRotate(q, e1, t1);
    heading = atan2(t1[1], t1[0]);
  }
  const double ch = cos(heading), sh = sin(heading);
  double W = 0.0;
  for (int i = 0; i < c.nsections; ++i) W += c.w[i] * c.L[i];
  double H = 0.0, V0 = 0.0, h = hz ? t->position[2] - b->position[2] : 0.0;
  int mode;
  if (hx && hy && hz) mode = PL_CATENARY_SPAN_HEIGHT;
  else if (hz) {
    mode = PL_CATENARY_HEIGHT;
    H = t->force[0] * ch + t->force[1] * sh;
    if (!(H > 0.0)) why = "the top is free horizontally but pulled by no horizontal force";
  } else if (hx && hy) {
    mode = PL_CATENARY_SPAN_FREE_TOP;
    V0 = t->force[2] - W;
  } else {
    mode = PL_CATENARY_GIVEN;
    H = fmax(0.0, t->force[0] * ch + t->force[1] * sh);
    V0 = t->force[2] - W;
  }
  if (!why && PlElasticCatenarySolve(&c, mode, span, h, &H, &V0)) why = "no catenary of this line joins its ends";
  if (!why && mode == PL_CATENARY_SPAN_FREE_TOP && V0 + W < 0.0 && H == 0.0)
    why = "the top's vertical force does not hold the line's weight";
  /* a vertical line (H = 0) whose bottom is in compression (V0 < 0: a line no longer than
   * its chord, its weight not yet stretching it) would fold back on itself, its frames
   * turning 180 deg between two elements; the straight chord is the start instead */
  if (!why && !(H > 0.0) && V0 < 0.0 && !c.on_seabed) why = "a vertical line in compression at its bottom";
  if (why) {
    double P[3];
    if (hx && hy && hz) memcpy(P, t->position, sizeof P);
    else if (hz && fabs(h) < m->length) { /* to the top's height along the heading */
      const double hor = sqrt(m->length * m->length - h * h);
      P[0] = b->position[0] + hor * ch;
      P[1] = b->position[1] + hor * sh;
      P[2] = t->position[2];
    } else {
      snprintf(mesh->guess_note, sizeof mesh->guess_note, "catenary start not possible (%s); straight line used", why);
      Straight(m, mesh);
      return;
    }
    snprintf(mesh->guess_note, sizeof mesh->guess_note,
             "catenary start not possible (%s); straight line from the bottom end to the top used", why);
    StraightTo(m, mesh, P);
    return;
  }
  if (mode == PL_CATENARY_HEIGHT && c.on_seabed) {
    /* the plane's slope along the heading; on a bathymetry grid the mean slope from the
     * bottom end to below the top of the flat seabed's catenary, the grid's depths then
     * lifting what lies below them (LiftOntoGrid) */
    const double *n = m->seabed_normal;
    double beta = atan(-(n[0] * ch + n[1] * sh) / n[2]);
    if (m->bathymetry) {
      double xe, ze, be;
      PlElasticCatenaryPoint(&c, H, V0, c.length, &xe, &ze, &be);
      const double zb = PlSeabedHeight(m, b->position[0], b->position[1]);
      const double zt = PlSeabedHeight(m, b->position[0] + xe * ch, b->position[1] + xe * sh);
      beta = xe > 0.0 ? atan((zt - zb) / xe) : 0.0;
    }
    double s_laid = 0.0;
    if (SlopedStart(m, mesh, &c, H, heading, h, beta, &s_laid)) {
      LiftOntoGrid(m, mesh, d0, c.w[0], heading, s_laid);
      return;
    }
  }
  /* the seabed's resting level of the centreline (eq 5.38: penetration d_o/8 along the
   * normal n of a sloped plane: d_o/2 - d_o/8 above it, (d_o/2 - d_o/8)/n_z vertically); a node
   * of the flat-seabed catenary below it is lifted onto it, its frame along the slope in the
   * heading's direction */
  const double *n = m->seabed_normal, lift = (0.5 * d0 - d0 / 8.0) / n[2];
  const double slope_beta = atan(-(n[0] * ch + n[1] * sh) / n[2]);
  double s_flat = 0.0; /* the last node laid on the flat seabed */
  for (int i = 0; i < mesh->nnodes; ++i) {
    double x, z, beta;
    PlElasticCatenaryPoint(&c, H, V0, mesh->S[i], &x, &z, &beta);
    mesh->x0[3 * i + 0] = b->position[0] + x * ch;
    mesh->x0[3 * i + 1] = b->position[1] + x * sh;
    mesh->x0[3 * i + 2] = b->position[2] + z;
    if (i && m->seabed != PL_SEABED_NONE) {
      const double zrest = PlSeabedHeight(m, mesh->x0[3 * i], mesh->x0[3 * i + 1]) + lift;
      if (mesh->x0[3 * i + 2] < zrest) {
        mesh->x0[3 * i + 2] = zrest;
        beta = slope_beta;
        s_flat = mesh->S[i];
      }
    }
    FrameOf(heading, beta, mesh->q0 + 4 * i);
  }
  LiftOntoGrid(m, mesh, d0, c.w[0], heading, s_flat);
  mesh->guess_used = PL_GUESS_CATENARY;
}
