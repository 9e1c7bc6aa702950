/*
 * loader_graph.c - readers of the model graph: joints between bodies, the connection points
 * and the lines of a model of several lines, and the checks of how they are joined (every
 * point and body has a line, no line ends twice on one point, no body DOF left unrestored).
 */
#include "loader_impl.h"

/* Orthonormal frame F (columns n, f2, f3; row-major) with its first column along n (unit). */
static void frame_from_axis(const double n[3], double F[9])
{
  const double a[3] = {fabs(n[0]) < 0.9 ? 1.0 : 0.0, fabs(n[0]) < 0.9 ? 0.0 : 1.0, 0.0};
  double f2[3] = {n[1] * a[2] - n[2] * a[1], n[2] * a[0] - n[0] * a[2], n[0] * a[1] - n[1] * a[0]};
  const double l = sqrt(f2[0] * f2[0] + f2[1] * f2[1] + f2[2] * f2[2]);
  for (int i = 0; i < 3; i++) f2[i] /= l;
  const double f3[3] = {n[1] * f2[2] - n[2] * f2[1], n[2] * f2[0] - n[0] * f2[2], n[0] * f2[1] - n[1] * f2[0]};
  for (int i = 0; i < 3; i++) {
    F[3 * i] = n[i];
    F[3 * i + 1] = f2[i];
    F[3 * i + 2] = f3[i];
  }
}

/* The kernel's data of joint j from the bodies' initial poses (models.h, PlJointModel). */
static void joint_from_initial_poses(const PlModel *m, PlJointModel *j)
{
  double F[9];
  frame_from_axis(j->axis, F);
  for (int side = 0; side < 2; side++) {
    double *p = side ? j->joint.pb : j->joint.pa, *Fs = side ? j->joint.Fb : j->joint.Fa;
    if (j->body[side] < 0) { /* the ground: global */
      memcpy(p, j->point, 3 * sizeof *p);
      memcpy(Fs, F, sizeof F);
      continue;
    }
    const PlVesselModel *b = &m->bodies[j->body[side]];
    double q[4], R[9];
    PlVesselQuatFromEulerZYX(b->rpy, q);
    PlQuatToMatrix(q, R);
    for (int r = 0; r < 3; r++) {
      p[r] = 0.0;
      for (int k = 0; k < 3; k++) p[r] += R[3 * k + r] * (j->point[k] - b->position[k]);
      for (int col = 0; col < 3; col++) {
        double sum = 0.0;
        for (int k = 0; k < 3; k++) sum += R[3 * k + r] * F[3 * k + col];
        Fs[3 * r + col] = sum;
      }
    }
  }
}

/* The bodies' initial velocities must be ones the joint allows: G_a nu_a + G_b nu_b = 0
 * (to 1e-8 of the velocities' scale). */
static int check_joint_velocities(const Scope *s, const PlModel *m, const PlJointModel *j)
{
  double y[2][PL_VESSEL_NY];
  for (int side = 0; side < 2; side++) {
    memset(y[side], 0, sizeof y[side]);
    if (j->body[side] < 0) continue;
    const PlVesselModel *b = &m->bodies[j->body[side]];
    memcpy(y[side], b->position, 3 * sizeof(double));
    PlVesselQuatFromEulerZYX(b->rpy, y[side] + PL_VESSEL_Q);
    memcpy(y[side] + PL_VESSEL_V, b->velocity, 3 * sizeof(double));
    memcpy(y[side] + PL_VESSEL_W, b->angular_velocity, 3 * sizeof(double));
  }
  PlJointEvalOut o;
  PlJointEval(&j->joint, y[0], j->body[1] >= 0 ? y[1] : NULL, &o);
  double worst = 0.0, scale = 1e-3;
  for (int side = 0; side < 2; side++) {
    if (j->body[side] < 0) continue;
    const double *p = side ? j->joint.pb : j->joint.pa;
    const double lp = 1.0 + sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    for (int c = 0; c < 6; c++) scale = fmax(scale, fabs(y[side][PL_VESSEL_V + c]) * (c < 3 ? 1.0 : lp));
  }
  for (int r = 0; r < o.m; r++) {
    double rate = 0.0;
    for (int c = 0; c < 6; c++)
      rate += o.Ga[6 * r + c] * y[0][PL_VESSEL_V + c] + (j->body[1] >= 0 ? o.Gb[6 * r + c] * y[1][PL_VESSEL_V + c] : 0.0);
    worst = fmax(worst, fabs(rate));
  }
  if (worst <= 1e-8 * scale) return 0;
  const PlYNode *nn = ld_value_of(s, "name");
  char np[PATH_CAP];
  ld_join_key(np, sizeof np, s->path, "name");
  return ld_at(s->err, nn, np,
            "the initial velocities of %s%s%s violate this joint (its constraint changes at %.3g m/s or rad/s): "
            "give initial velocity and angular_velocity the joint allows (a body turning at w about a fixed "
            "joint point P moves its origin at w x (r - P); velocity is in the body frame)",
            m->bodies[j->body[0]].id, j->body[1] >= 0 ? " and " : "",
            j->body[1] >= 0 ? m->bodies[j->body[1]].id : "", worst);
}

static int read_joint_items(const Ctx *c, const PlYNode *list, const char *path, PlModel *m,
                            char (*seen)[PL_NAME_MAX], const PlYNode **seen_nodes);

/* joints: links between the bodies, or a body and the ground, at the initial poses. */
int ld_read_joints(const Ctx *c, const Scope *top, PlModel *m)
{
  char path[PATH_CAP];
  const PlYNode *list;
  int rc = ld_open_list(c->err, top, "joints", true, "joints {name, type, bodies, point, axis}", &list, path);
  if (rc || !list || list->nitems == 0) return rc;
  free(m->joints);
  m->njoints = 0;
  const size_t nseen = (size_t)m->nbodies + list->nitems; /* the bodies' names, then the joints' */
  m->joints = ld_alloc(list->nitems, sizeof *m->joints);
  char(*seen)[PL_NAME_MAX] = ld_alloc(nseen, sizeof *seen);
  const PlYNode **seen_nodes = ld_alloc(nseen, sizeof *seen_nodes);
  if (!m->joints || !seen || !seen_nodes) rc = ld_at(c->err, list, path, "out of memory (%zu joints)", list->nitems);
  else rc = read_joint_items(c, list, path, m, seen, seen_nodes);
  free(seen);
  free(seen_nodes);
  return rc;
}

/* The items of joints: (list, at path) into m->joints (room for all); seen, seen_nodes: room for
 * the bodies' and the joints' names and their nodes (duplicate messages). */
static int read_joint_items(const Ctx *c, const PlYNode *list, const char *path, PlModel *m,
                            char (*seen)[PL_NAME_MAX], const PlYNode **seen_nodes)
{
  int nseen = 0;
  for (int k = 0; k < m->nbodies; k++) {
    snprintf(seen[nseen], PL_NAME_MAX, "%s", m->bodies[k].id);
    seen_nodes[nseen++] = c->body_names[k] ? c->body_names[k] : list;
  }
  for (size_t i = 0; i < list->nitems; i++) {
    char ip[PATH_CAP], bp[PATH_CAP];
    ld_join_index(ip, sizeof ip, path, i);
    Scope s;
    int rc = ld_open_scope(c->err, list->items[i], list->items[i], ip, &s);
    if (rc) return rc;
    PlJointModel *j = &m->joints[i];
    const PlYNode *nn = NULL;
    if ((rc = ld_read_object_name(&s, "joint", j->name, sizeof j->name, (const char(*)[PL_NAME_MAX])seen, seen_nodes,
                               nseen, &nn)))
      return rc;
    snprintf(seen[nseen], PL_NAME_MAX, "%s", j->name);
    seen_nodes[nseen++] = nn;
    if (!ld_pair_of(&s, "type")) return ld_missing(&s, "type", NULL, " (spherical, revolute, prismatic or fixed)");
    int type = 0;
    if ((rc = ld_get_choice(&s, "type", &type))) return rc;
    j->joint.kind = (PlJointKind)type;
    /* bodies: [A, B], B may be ground */
    const PlYNode *nb = ld_value_of(&s, "bodies");
    ld_join_key(bp, sizeof bp, s.path, "bodies");
    if (!nb) return ld_missing(&s, "bodies", NULL, " ([A, B]: two bodies, or a body and ground)");
    if (nb->kind != PL_YNODE_SEQ || nb->nitems != 2)
      return ld_at(c->err, nb, bp, "expected two names [A, B] (bodies, or a body and ground), found %s", ld_found(nb).s);
    for (int side = 0; side < 2; side++) {
      const PlYNode *it = nb->items[side];
      char itp[PATH_CAP];
      ld_join_index(itp, sizeof itp, bp, (size_t)side);
      if (it->kind != PL_YNODE_SCALAR || strlen(it->text) != it->len)
        return ld_at(c->err, it, itp, "expected a body name, found %s", ld_found(it).s);
      if (!strcmp(it->text, "ground")) {
        j->body[side] = -1;
        continue;
      }
      j->body[side] = PlModelBodyIndex(m, it->text);
      if (j->body[side] < 0) {
        char names[512] = "";
        for (int k = 0; k < m->nbodies; k++) {
          if (k) ld_cat(names, sizeof names, ", ");
          ld_cat(names, sizeof names, m->bodies[k].id);
        }
        return ld_at(c->err, it, itp, "no body named '%s' (the bodies are: %s; or ground)", ld_got(it).s, names);
      }
    }
    if (j->body[0] < 0 && j->body[1] < 0)
      return ld_at(c->err, nb, bp, "joins the ground to itself: name at least one body");
    if (j->body[0] == j->body[1])
      return ld_at(c->err, nb, bp, "joins body '%s' to itself: name two bodies, or a body and ground",
                m->bodies[j->body[0]].id);
    if (j->body[0] < 0) { /* the kernel's body A is a body: swap */
      j->body[0] = j->body[1];
      j->body[1] = -1;
    }
    if ((rc = ld_get_list(&s, "point", j->point, NULL))) return rc;
    const bool axial = j->joint.kind == PL_JOINT_REVOLUTE || j->joint.kind == PL_JOINT_PRISMATIC;
    if (!axial) {
      if ((rc = ld_reject_key(&s, "axis", "is only used by a revolute or a prismatic joint (type is '%s')",
                           PlChoiceJointTypes[type])))
        return rc;
      j->axis[0] = 1.0, j->axis[1] = j->axis[2] = 0.0;
    } else {
      const PlYNode *na = NULL;
      if (!ld_pair_of(&s, "axis"))
        return ld_missing(&s, "axis", NULL, type == PL_JOINT_REVOLUTE ? " (the hinge axis, global, at the initial poses)"
                                                                   : " (the sliding direction, global, at the initial poses)");
      if ((rc = ld_get_list(&s, "axis", j->axis, &na))) return rc;
      const double l = sqrt(j->axis[0] * j->axis[0] + j->axis[1] * j->axis[1] + j->axis[2] * j->axis[2]);
      char ap[PATH_CAP];
      ld_join_key(ap, sizeof ap, s.path, "axis");
      if (!(l > 1e-12) || !isfinite(l)) return ld_at(c->err, na, ap, "must be a non-zero direction, found %s", ld_got(na).s);
      for (int k = 0; k < 3; k++) j->axis[k] /= l;
    }
    joint_from_initial_poses(m, j);
    if ((rc = check_joint_velocities(&s, m, j))) return rc;
    m->njoints = (int)i + 1;
  }
  return 0;
}

static int read_gpoint_items(Ctx *c, const PlYNode *list, const char *path, PlModel *m, const PlYNode **name_nodes,
                             char (*seen)[PL_NAME_MAX]);

/* points: the connection nodes of a model of lines; name_nodes: room for their name nodes. */
static int read_gpoints(Ctx *c, const Scope *top, PlModel *m, const PlYNode **name_nodes)
{
  char path[PATH_CAP];
  const PlYNode *list;
  int rc = ld_open_list(c->err, top, "points", false, "points {name, position, fixed, mass, volume}", &list, path);
  if (rc || !list) return rc;
  free(m->points);
  m->npoints = 0;
  m->points = ld_alloc(list->nitems, sizeof *m->points);
  char(*seen)[PL_NAME_MAX] = ld_alloc(list->nitems, sizeof *seen);
  if (!m->points || !seen) rc = ld_at(c->err, list, path, "out of memory (%zu points)", list->nitems);
  else rc = read_gpoint_items(c, list, path, m, name_nodes, seen);
  free(seen);
  return rc;
}

/* The items of points: (list, at path) into m->points (room for all). */
static int read_gpoint_items(Ctx *c, const PlYNode *list, const char *path, PlModel *m, const PlYNode **name_nodes,
                             char (*seen)[PL_NAME_MAX])
{
  for (size_t i = 0; i < list->nitems; i++) {
    char ip[PATH_CAP];
    ld_join_index(ip, sizeof ip, path, i);
    Scope s;
    int rc = ld_open_scope(c->err, list->items[i], list->items[i], ip, &s);
    if (rc) return rc;
    PlPointModel *pt = &m->points[i];
    if ((rc = ld_read_object_name(&s, "point", pt->name, sizeof pt->name, (const char(*)[PL_NAME_MAX])seen, name_nodes,
                               (int)i, &name_nodes[i])))
      return rc;
    snprintf(seen[i], PL_NAME_MAX, "%s", pt->name);
    if ((rc = ld_get_list(&s, "position", pt->position, NULL))) return rc;
    int fixed = ld_choice_default(&s, "fixed");
    if ((rc = ld_get_choice(&s, "fixed", &fixed))) return rc;
    pt->fixed = fixed == 1;
    if ((rc = ld_get_number(&s, "mass", &pt->mass, NULL))) return rc;
    if ((rc = ld_get_number(&s, "volume", &pt->volume, NULL))) return rc;
    if ((rc = ld_get_list(&s, "velocity", pt->velocity, NULL))) return rc;
    if ((rc = ld_get_number(&s, "drag_area", &pt->drag_area, NULL))) return rc;
    if ((rc = ld_get_number(&s, "added_mass_coefficient", &pt->added_mass_coefficient, NULL))) return rc;
    for (int h = 0; h < 2 && pt->fixed; ++h) {
      const char *key = h ? "added_mass_coefficient" : "drag_area";
      if (h ? pt->added_mass_coefficient == 0.0 : pt->drag_area == 0.0) continue;
      char hp[PATH_CAP];
      ld_join_key(hp, sizeof hp, ip, key);
      return ld_at(c->err, ld_value_of_node(list->items[i], key), hp,
                   "a fixed point does not move: give drag and added mass only to a free point (fixed: false)");
    }
    if (pt->fixed && (pt->velocity[0] != 0.0 || pt->velocity[1] != 0.0 || pt->velocity[2] != 0.0)) {
      char vp[PATH_CAP];
      ld_join_key(vp, sizeof vp, ip, "velocity");
      return ld_at(c->err, ld_value_of_node(list->items[i], "velocity"), vp,
                "a fixed point does not move: give a velocity only to a free point (fixed: false)");
    }
    m->npoints = (int)i + 1;
  }
  return 0;
}

/* A line whose two ends are both where the model puts them (a fixed point, a body's point at
 * the body's initial pose, an end holding x, y and z at its position; a free point's position
 * is only where its solve starts) must reach between them: ends farther apart than its length
 * (1 + PL_CHORD_STRAIN) ask more strain than any line takes (as the one-line model's check in
 * loader.c). lm: the line as read (its ends' positions set), path: "lines[i]". 0 or 2. */
static int check_line_reach(const Ctx *c, const PlModel *m, const PlModel *lm, const char *name, const char *path)
{
  const char *what[2];
  char pt[2][PL_NAME_MAX + 40];
  for (int e = 0; e < 2; e++) {
    const PlEnd *E = &lm->ends[e];
    if (E->point >= 0) {
      if (!m->points[E->point].fixed) return 0;
      snprintf(pt[e], sizeof pt[e], "fixed point '%s'", m->points[E->point].name);
    } else if (E->body >= 0) {
      snprintf(pt[e], sizeof pt[e], "body '%s' at its initial pose", m->bodies[E->body].id);
    } else {
      for (int i = 0; i < 3; i++)
        if (!E->fixed[i] || !E->has_position[i]) return 0;
      snprintf(pt[e], sizeof pt[e], "the held %s end", e ? "top" : "bottom");
    }
    what[e] = pt[e];
  }
  const double *a = lm->ends[0].position, *b = lm->ends[1].position;
  const double chord = sqrt((b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1]) + (b[2] - a[2]) * (b[2] - a[2]));
  if (!(chord > lm->length * (1.0 + PL_CHORD_STRAIN))) return 0;
  char lp[PATH_CAP];
  ld_join_key(lp, sizeof lp, path, "line.length");
  return ld_at(c->err, c->line_length, lp,
               "line '%s': its ends (%s and %s) are %.10g m apart, %.3g %% more than the line's length %.10g m: no "
               "pipe stretches that far (give a longer line or closer ends)",
               name, what[0], what[1], chord, 100.0 * (chord / lm->length - 1.0), lm->length);
}

/* lines: each item a one-line model's line, mesh and ends, with a name. */
static int read_lines(Ctx *c, const Scope *top, PlModel *m, const PlYNode **point_nodes)
{
  char path[PATH_CAP];
  const PlYNode *list;
  int rc0 = ld_open_list(c->err, top, "lines", false, "lines {name, line, mesh, ends}", &list, path);
  if (rc0 || !list) return rc0;
  free(m->lines);
  m->nlines = 0;
  const size_t nnames = (size_t)m->npoints + list->nitems; /* the points' names, then the lines' */
  m->lines = ld_alloc(list->nitems, sizeof *m->lines);
  char(*seen)[PL_NAME_MAX] = ld_alloc(nnames, sizeof *seen);
  const PlYNode **seen_nodes = ld_alloc(nnames, sizeof *seen_nodes);
  PlModel *lm = malloc(sizeof *lm);
  if (lm) PlModelInitDefaults(lm);
  int rc = 0;
  if (!m->lines || !seen || !seen_nodes || !lm) rc = ld_at(c->err, list, path, "out of memory (%zu lines)", list->nitems);
  int nseen = 0;
  for (int k = 0; k < m->npoints && !rc; k++) {
    snprintf(seen[nseen], PL_NAME_MAX, "%s", m->points[k].name);
    seen_nodes[nseen++] = point_nodes[k];
  }
  for (size_t i = 0; i < list->nitems && !rc; i++) {
    char ip[PATH_CAP];
    ld_join_index(ip, sizeof ip, path, i);
    Scope s;
    if ((rc = ld_open_scope(c->err, list->items[i], list->items[i], ip, &s))) break;
    PlLineModel *L = &m->lines[i];
    const PlYNode *nn = NULL;
    if ((rc = ld_read_object_name(&s, "line", L->name, sizeof L->name, (const char(*)[PL_NAME_MAX])seen, seen_nodes, nseen,
                               &nn)))
      break;
    snprintf(seen[nseen], PL_NAME_MAX, "%s", L->name);
    seen_nodes[nseen++] = nn;
    PlModelFree(lm); /* the defaults (its arrays moved into the lines before) */
    c->end_z[0] = c->end_z[1] = NULL;
    if ((rc = ld_read_line(c, &s, lm)) || (rc = ld_read_mesh(c, &s, lm)) || (rc = ld_read_ends(c, &s, lm))) break;
    if ((rc = check_line_reach(c, m, lm, L->name, ip))) break;
    ld_line_take(lm, L);
    if (L->ends[0].point >= 0 && L->ends[0].point == L->ends[1].point)
      rc = ld_at(c->err, s.anchor, ip, "both ends on point '%s': a line from a point back to it is not a connection",
              m->points[L->ends[0].point].name);
    m->nlines = (int)i + 1;
  }
  PlModelFree(lm); /* what an error left in it */
  free(lm);
  free(seen);
  free(seen_nodes);
  return rc;
}

/* A warning when the lines of body b cannot restore some of its rotations and the body has
 * nothing of its own that does (a body DOF with nothing restoring it).
 * Every end on the body at one body point P: the lines' forces act at P, so a turn about
 * O_b that leaves P in place, about the axis O_b P (all three when P = O_b), meets no
 * moment from them; of the body's own restoring, a metacentric height restores roll
 * (gm_transverse) or pitch (gm_longitudinal), and a weight below O_b restores roll and pitch;
 * nothing restores yaw. Judged here on the axes of the body frame only; the solve judges
 * every DOF from the stiffness and holds what nothing restores (docs/model-file.md). */
static void unrestored_rotations(const Ctx *c, PlModel *m, int b)
{
  const double *P = NULL;
  for (int l = 0; l < m->nlines; l++)
    for (int e = 0; e < 2; e++) {
      const PlEnd *E = &m->lines[l].ends[e];
      if (E->body != b) continue;
      if (P && (E->at[0] != P[0] || E->at[1] != P[1] || E->at[2] != P[2])) return; /* two points */
      P = E->at;
    }
  if (!P || m->nwarnings >= PL_MAX_WARNINGS) return;
  const PlVessel *V = &m->bodies[b].body;
  const bool low_weight = V->weight_mass > 0.0 && V->r_g[2] < 0.0;
  const bool own[3] = {V->GM_T > 0.0 || low_weight, V->GM_L > 0.0 || low_weight, false};
  static const char *const kRot[3] = {"roll", "pitch", "yaw"};
  const double r = sqrt(P[0] * P[0] + P[1] * P[1] + P[2] * P[2]);
  char names[64] = "";
  int n = 0;
  for (int k = 0; k < 3; k++) {
    const bool about_axis = r == 0.0 || fabs(fabs(P[k]) - r) <= 1e-12 * r; /* P on body axis k */
    if (!about_axis || own[k]) continue;
    if (n++) ld_cat(names, sizeof names, ", ");
    ld_cat(names, sizeof names, kRot[k]);
  }
  if (!n) return;
  char np[PATH_CAP];
  snprintf(np, sizeof np, "bodies[%d].name", b);
  PlError w;
  const PlYNode *at_node = c->body_names[b];
  ld_report(&w, at_node->source, at_node->line, at_node->col, np,
            "warning: every line end on body '%s' is at the body point [%.6g, %.6g, %.6g] m%s, so the lines "
            "exert no moment against its %s, and the body has no restoring of its own there (restoring: "
            "gm_transverse or gm_longitudinal, or weight: true below O_b; nothing restores yaw); the solve "
            "holds %s at initial.orientation: attach the lines at more than one body point to let it turn",
            m->bodies[b].id, P[0], P[1], P[2], r == 0.0 ? " (O_b)" : "", names, n > 1 ? "them" : "it");
  memcpy(m->warnings[m->nwarnings++], w.msg, sizeof w.msg);
}

/* The root of point k in the union-find parent[]. */
static int point_root(int *parent, int k)
{
  while (parent[k] != k) k = parent[k] = parent[parent[k]];
  return k;
}

/* Every free point must reach a support through its lines: the points joined by lines form
 * groups, and a group is held when one of its lines ends at a fixed point, on a body, or at an
 * end that holds a translation (fixed). A group of free points and free line ends only has no
 * equilibrium (nothing takes its weight), and its solve reported zero tensions and positions.
 * Returns 0 or the message at the first such point's name. */
static int check_points_held(const Ctx *c, const PlModel *m, const PlYNode *const *point_nodes)
{
  if (m->npoints == 0) return 0;
  int *parent = ld_alloc((size_t)m->npoints, sizeof *parent);
  bool *held = ld_alloc((size_t)m->npoints, sizeof *held);
  if (!parent || !held) {
    free(parent);
    free(held);
    return ld_at(c->err, point_nodes[0], "points", "out of memory");
  }
  int rc = 0;
  for (int k = 0; k < m->npoints; k++) parent[k] = k;
  for (int l = 0; l < m->nlines; l++) {
    const int a = m->lines[l].ends[0].point, b = m->lines[l].ends[1].point;
    if (a >= 0 && b >= 0) parent[point_root(parent, a)] = point_root(parent, b);
  }
  for (int k = 0; k < m->npoints; k++) held[k] = false;
  for (int k = 0; k < m->npoints; k++)
    if (m->points[k].fixed) held[point_root(parent, k)] = true;
  for (int l = 0; l < m->nlines; l++)
    for (int e = 0; e < 2; e++) {
      const PlEnd *E = &m->lines[l].ends[e], *O = &m->lines[l].ends[1 - e];
      const bool support = E->body >= 0 || (E->point < 0 && (E->fixed[0] || E->fixed[1] || E->fixed[2]));
      if (support && O->point >= 0) held[point_root(parent, O->point)] = true;
    }
  for (int k = 0; k < m->npoints && !rc; k++) {
    if (m->points[k].fixed || held[point_root(parent, k)]) continue;
    char names[256] = "";
    for (int l = 0; l < m->nlines; l++) {
      const int a = m->lines[l].ends[0].point, b = m->lines[l].ends[1].point;
      if ((a < 0 || point_root(parent, a) != point_root(parent, k)) &&
          (b < 0 || point_root(parent, b) != point_root(parent, k)))
        continue;
      if (names[0]) ld_cat(names, sizeof names, ", ");
      ld_cat(names, sizeof names, m->lines[l].name);
    }
    char np[PATH_CAP];
    snprintf(np, sizeof np, "points[%d].name", k);
    rc = ld_at(c->err, point_nodes[k], np,
               "free point '%s' reaches no support through its lines (%s): they end only at free points and free "
               "line ends, so nothing holds its weight and there is no equilibrium; join it by a line to a fixed "
               "point, a body or an end held in 'fixed'",
               m->points[k].name, names);
  }
  free(parent);
  free(held);
  return rc;
}

/* Scratch of a model of lines' reader, one entry per point or body of the file's lists. */
typedef struct {
  const PlYNode **point_nodes; /* points[*].name value nodes */
  int *uses, *buses;           /* line ends on each point, on each body */
  int *jointed;                /* the body is in a joint */
} GraphScratch;
static int read_line_system(Ctx *c, const Scope *top, PlModel *m, const GraphScratch *g);

/* A model of several lines (lines: and points:; statics today). */
int ld_read_line_system(Ctx *c, const Scope *top, PlModel *m)
{
  const PlYNode *pl = ld_value_of(top, "points"), *bl = ld_value_of(top, "bodies");
  const size_t np = (pl && pl->kind == PL_YNODE_SEQ ? pl->nitems : 0) + 1;
  const size_t nb = (bl && bl->kind == PL_YNODE_SEQ ? bl->nitems : 0) + 1;
  GraphScratch g = {ld_alloc(np, sizeof *g.point_nodes), ld_alloc(np, sizeof *g.uses), ld_alloc(nb, sizeof *g.buses),
                    ld_alloc(nb, sizeof *g.jointed)};
  int rc;
  if (!g.point_nodes || !g.uses || !g.buses || !g.jointed) rc = ld_at(c->err, top->anchor, "lines", "out of memory");
  else rc = read_line_system(c, top, m, &g);
  free(g.point_nodes);
  free(g.uses);
  free(g.buses);
  free(g.jointed);
  return rc;
}

static int read_line_system(Ctx *c, const Scope *top, PlModel *m, const GraphScratch *g)
{
  int rc;
  static const char *const single[] = {"line", "mesh", "ends", "vessel", NULL};
  for (int k = 0; single[k]; k++)
    if ((rc = ld_reject_key(top, single[k],
                         k < 3 ? "is the form of a one-line model; with lines: each line gives its own line, mesh "
                                 "and ends"
                               : "is not yet available with lines: (lines on bodies come with the system core's "
                                 "assembler, docs/design-system-core.md)")))
      return rc;
  if ((rc = ld_reject_key(top, "lay", "is not yet available with lines: (the lay acts on a one-line model's "
                                     "pay-out; docs/design-laying.md)")))
    return rc;
  if ((rc = ld_read_seabed(c, top, m))) return rc;
  int rot = (int)m->rotation;
  if ((rc = ld_get_choice(top, "rotation", &rot))) return rc;
  m->rotation = rot ? PL_ROT_EULER_ZXY : PL_ROT_QUATERNION;
  if ((rc = ld_read_analysis(c, top, m))) return rc;
  if ((rc = ld_read_current(top, m))) return rc;
  if ((rc = ld_read_waves(c, top, m))) return rc;
  const PlYNode **point_nodes = g->point_nodes;
  if ((rc = read_gpoints(c, top, m, point_nodes))) return rc;
  const PlYPair *pb = ld_pair_of(top, "bodies");
  if (pb && pb->value->kind == PL_YNODE_SEQ)
    for (size_t i = 0; i < pb->value->nitems; i++) {
      const PlYNode *item = pb->value->items[i];
      const PlYNode *ho = item->kind == PL_YNODE_MAP ? ld_value_of_node(item, "hang_off") : NULL;
      if (!ho) continue;
      char hp[PATH_CAP];
      snprintf(hp, sizeof hp, "bodies[%zu].hang_off", i);
      return ld_at(c->err, ho, hp, "is not used by a body of a model of lines (a line hangs from it by ends.*.body "
                                "with at)");
    }
  c->body_only = true;
  rc = ld_read_bodies(c, top, m);
  c->body_only = false;
  if (rc) return rc;
  int *uses = g->uses, *buses = g->buses;
  c->graph = m;
  c->point_uses = uses;
  c->body_uses = buses;
  rc = read_lines(c, top, m, point_nodes);
  c->graph = NULL;
  c->point_uses = c->body_uses = NULL;
  if (rc) return rc;
  if ((rc = ld_read_output(c, top, m))) return rc; /* after the lines: its points name one */
  if ((rc = ld_read_fatigue(c, top, m))) return rc;  /* after the lines: their sections */
  if ((rc = ld_read_operability(c, top, m))) return rc;
  if ((rc = ld_read_joints(c, top, m))) return rc;
  if ((rc = ld_read_stinger(top, m))) return rc;
  int *jointed = g->jointed;
  for (int j = 0; j < m->njoints; j++)
    for (int k = 0; k < 2; k++)
      if (m->joints[j].body[k] >= 0) jointed[m->joints[j].body[k]] = 1;
  for (int b = 0; b < m->nbodies; b++)
    if (!buses[b] && !jointed[b]) {
      char np[PATH_CAP];
      snprintf(np, sizeof np, "bodies[%d].name", b);
      return ld_at(c->err, c->body_names[b], np, "body '%s' has no line or joint attached to it", m->bodies[b].id);
    }
  for (int b = 0; b < m->nbodies; b++)
    if (!jointed[b] && !m->bodies[b].has_dp) unrestored_rotations(c, m, b); /* a joint or DP may restore it */
  for (int k = 0; k < m->npoints; k++) {
    char np[PATH_CAP];
    snprintf(np, sizeof np, "points[%d].name", k);
    if (!uses[k]) return ld_at(c->err, point_nodes[k], np, "point '%s' has no line attached to it", m->points[k].name);
  }
  return check_points_held(c, m, point_nodes);
}
