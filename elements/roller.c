/*
 * roller.c - the contact of a line with a roller (an S-lay stinger's, elements.h PlRoller):
 * one kernel for the statics and the dynamics, with its exact tangent.
 *
 * Geometry. The roller is an infinite cylinder of axis a through c; the pipe rests on its side
 * n (normal to a); m = a x n completes the frame. A node x has the coordinates
 *     u = (x - c).m  (along the roller's normal plane's normal, i.e. along the pipe),
 *     w = (x - c).n  (height above the axis on the contact side);
 * the coordinate along a is free (the roller is infinite: the pipe may slide along it).
 * The line's segment A-B (linear between its nodes, as the rod's centreline) crosses the
 * roller's normal plane u = 0 at
 *     xi = uA/(uA - uB),   h = wA + xi (wB - wA) = (uA wB - uB wA)/(uA - uB),
 * the pipe's centreline height above the axis, measured along n, where it passes over the
 * roller. The crossing moves from one segment to the next through their common node (where
 * both give h = w of that node), so h is continuous along the line. The crossing with the
 * largest h within reach (h > rho - reach; PlRollerCrossing) carries the contact: the pipe
 * passes over the roller on its side n, or at most reach below it (a pipe a start shape has
 * put under the stinger is pushed up onto it, as a roller with a contact side does); a line's
 * far crossings (one that turns back under the stinger) are out of reach.
 *
 * Law. The gap normal to the pipe, g = c h - rho, c = (1 + s_eff^2)^(-1/2) (the distance of
 * the roller's axis from the pipe's smoothed centreline through the crossing, whose slope in the
 * roller's plane is s_eff below), and a penalty on p = -g, C^1 so that Newton converges through
 * touch-down and lift-off:
 *     F(p) = 0 (p <= 0),  k p^2/(2 delta) (0 < p < delta),  k (p - delta/2) (p >= delta).
 * The force is normal to the pipe, shared between the segment's nodes by the crossing's linear
 * weights: f_A = F (1 - xi) nu, f_B = F xi nu, the roller's reaction -F nu, with
 *     nu = c (n - s_eff m),   s_eff = (1 - xi) sigma_A + xi sigma_B,
 * sigma_A, sigma_B the nodes' slopes dw/du (the mean of the slopes of their two segments, the
 * segment's own at a line's end): nu is the unit normal to the pipe's tangent m + s_eff n. With
 * the segment's own slope s instead (the gradient of a potential of h), the force's direction
 * would jump by the angle between two segments where the crossing passes a node (a kink of
 * h(x)); a pipe resting on a roller with a node over it then has no equilibrium Newton can
 * reach (the residual jumps by F times that angle). The nodes' mean slopes are continuous
 * there, so the gap and the force are continuous along the line; the price is a stencil of four
 * nodes (the segment's and its neighbours') and a tangent that is not symmetric. Measured
 * normal to the pipe, the penetration of a pipe that crosses a roller's plane steeply (a start
 * shape far below the stinger) is its distance, not the height along n that grows without
 * bound with the slope.
 * In dynamics a damping along nu, -cd H(p) c h' (the same weights), with h' = dh/dx . v,
 * H(p) = F'(p)/k (0 out of contact, rising to 1 over delta) and
 *     dh/dxA = (1 - xi)(n - s m),   dh/dxB = xi (n - s m),
 * opposes the approach and the separation while in contact.
 * Tangent: with phi = F - cd H c h', f_a = phi W_a nu (W_A = 1 - xi, W_B = xi) and
 *     df_a/dx_k = W_a nu (dphi/dx_k)^T + phi nu (dW_a/dx_k)^T + phi W_a dnu/ds (ds_eff/dx_k)^T,
 *     dnu/ds = dc/ds (n - s m) - c m,   dc/ds = -s c^3,   dg/dx = c dh/dx + h dc/ds ds_eff/dx,
 *     dphi/dx = -F' dg/dx - cd (-H' dg/dx c h' + H dc/ds ds_eff/dx h' + H c d2h/dx2 v),
 *     df_a/dv_b = -cd H c W_a nu (dh/dx_b)^T,
 *     dxi/dxA = -uB/D^2 m,  dxi/dxB = uA/D^2 m  (D = uA - uB),
 *     ds/dx2 = (n - s m)/(u2 - u1) = -ds/dx1 for a segment 1-2 of slope s,
 *     ds_eff/dx = (sigma_B - sigma_A) dxi/dx + (1 - xi) dsigma_A/dx + xi dsigma_B/dx,
 * and the second derivatives of h in (uA, wA, uB, wB):
 *     h_uAuA = -2 uB (wA - wB)/D^3,  h_uAuB = (wA - wB)(uA + uB)/D^3,  h_uBuB = 2 uA (wB - wA)/D^3,
 *     h_wAuA = uB/D^2,  h_wAuB = -uA/D^2,  h_wBuA = -uB/D^2,  h_wBuB = uA/D^2,  the w-w terms 0;
 * in the global frame d2h/dx_a dx_b = sum over the pairs of h_(i a)(j b) e_i e_j^T (e_u = m,
 * e_w = n). tests/test_roller.c holds the tangent to finite differences and the force's
 * continuity along a line.
 */
#include <math.h>
#include <string.h>
#include "pipelay/elements.h"

static double Dot3(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* The frame's along-pipe direction m = a x n. */
static void AlongPipe(const PlRoller *r, double m[3])
{
  m[0] = r->a[1] * r->n[2] - r->a[2] * r->n[1];
  m[1] = r->a[2] * r->n[0] - r->a[0] * r->n[2];
  m[2] = r->a[0] * r->n[1] - r->a[1] * r->n[0];
}

/* The coordinates (u, w) of x. */
static void Coordinates(const PlRoller *r, const double m[3], const double x[3], double *u, double *w)
{
  const double d[3] = {x[0] - r->c[0], x[1] - r->c[1], x[2] - r->c[2]};
  *u = Dot3(d, m);
  *w = Dot3(d, r->n);
}

int PlRollerCrossing(const PlRoller *r, const double xA[3], const double xB[3], PlRollerOut *o)
{
  double m[3], uA, wA, uB, wB;
  AlongPipe(r, m);
  Coordinates(r, m, xA, &uA, &wA);
  Coordinates(r, m, xB, &uB, &wB);
  if (!(fmin(uA, uB) <= 0.0 && fmax(uA, uB) > 0.0)) return 0;
  const double D = uA - uB, h = (uA * wB - uB * wA) / D;
  if (!(h > r->rho - r->reach)) return 0;
  o->xi = uA / D;
  o->gap = h - r->rho;
  return 1;
}

/* The penalty F(p), its slope F'(p) and the damping's weight H(p) = F'/k with its slope H'. */
static void Penalty(const PlRoller *r, double p, double *F, double *dF, double *H, double *dH)
{
  *F = *dF = *H = *dH = 0.0;
  if (p <= 0.0) return;
  if (p < r->delta) {
    *F = 0.5 * r->k * p * p / r->delta;
    *dF = r->k * p / r->delta;
    *H = p / r->delta;
    *dH = 1.0 / r->delta;
  } else {
    *F = r->k * (p - 0.5 * r->delta);
    *dF = r->k;
    *H = 1.0;
  }
}

/* The slope s = (w2 - w1)/(u2 - u1) of the segment 1-2 and its gradients: ds/dx2 =
 * (n - s m)/(u2 - u1) = -ds/dx1. Returns 0 when the segment is normal to the roller's plane
 * (no slope). */
static int Slope(const double m[3], const double n[3], double u1, double w1, double u2, double w2, double *sl,
                 double g1[3], double g2[3])
{
  const double du = u2 - u1;
  if (!(fabs(du) > 1e-12 * (fabs(w2 - w1) + fabs(u1) + fabs(u2)))) return 0;
  *sl = (w2 - w1) / du;
  for (int i = 0; i < 3; ++i) {
    g2[i] = (n[i] - *sl * m[i]) / du;
    g1[i] = -g2[i];
  }
  return 1;
}

void PlRollerContact(const PlRoller *r, const double *xP, const double xA[3], const double xB[3], const double *xQ,
                     const double *vA, const double *vB, PlRollerOut *o, double *K, double *C)
{
  double m[3], u[4] = {0.0}, w[4] = {0.0};
  const double *x[4] = {xP, xA, xB, xQ};
  AlongPipe(r, m);
  for (int j = 0; j < 4; ++j)
    if (x[j]) Coordinates(r, m, x[j], &u[j], &w[j]);
  const double uA = u[1], wA = w[1], uB = u[2], wB = w[2];
  const double D = uA - uB, D2 = D * D, D3 = D2 * D;
  const double h = (uA * wB - uB * wA) / D, xi = uA / D;
  o->xi = xi;
  /* gradients over the nodes P, A, B, Q (3 each): h, xi, and the smoothed slope s_eff */
  double gh[12] = {0.0}, gxi[12] = {0.0}, gs[12] = {0.0};
  const double gl[4] = {uB * (wA - wB) / D2, -uB / D, uA * (wB - wA) / D2, uA / D};
  for (int a = 0; a < 2; ++a)
    for (int i = 0; i < 3; ++i) gh[3 * (1 + a) + i] = gl[2 * a] * m[i] + gl[2 * a + 1] * r->n[i];
  for (int i = 0; i < 3; ++i) gxi[3 + i] = -uB / D2 * m[i], gxi[6 + i] = uA / D2 * m[i];
  double se = 0.0, gse[12] = {0.0}, sP = 0.0, gP[12] = {0.0}, sQ = 0.0, gQ[12] = {0.0};
  Slope(m, r->n, uA, wA, uB, wB, &se, gse + 3, gse + 6);
  /* the nodes' slopes: the mean of their two segments' (the segment's own at a line's end) */
  const int hasP = xP && Slope(m, r->n, u[0], w[0], uA, wA, &sP, gP, gP + 3);
  const int hasQ = xQ && Slope(m, r->n, uB, wB, u[3], w[3], &sQ, gQ + 6, gQ + 9);
  const double sigA = hasP ? 0.5 * (sP + se) : se, sigB = hasQ ? 0.5 * (se + sQ) : se;
  const double seff = (1.0 - xi) * sigA + xi * sigB;
  for (int k = 0; k < 12; ++k) {
    const double gA = hasP ? 0.5 * (gP[k] + gse[k]) : gse[k], gB = hasQ ? 0.5 * (gse[k] + gQ[k]) : gse[k];
    gs[k] = (sigB - sigA) * gxi[k] + (1.0 - xi) * gA + xi * gB;
  }
  /* the pipe's unit normal nu = c (n - s_eff m), c = (1 + s_eff^2)^(-1/2), and the gap normal
   * to the pipe g = c h - rho, with their gradients (dc/ds = -s c^3) */
  const double cs = 1.0 / sqrt(1.0 + seff * seff), dcs = -seff * cs * cs * cs;
  double nu[3], dnu[3], gg[12];
  for (int i = 0; i < 3; ++i) {
    nu[i] = cs * (r->n[i] - seff * m[i]);
    dnu[i] = dcs * (r->n[i] - seff * m[i]) - cs * m[i];
  }
  for (int k = 0; k < 12; ++k) gg[k] = cs * gh[k] + h * dcs * gs[k];
  o->gap = cs * h - r->rho;
  /* the second derivatives of h over A, B (the damping's rate h' = dh/dx . v) */
  double Hl[4][4] = {{0.0}};
  Hl[0][0] = -2.0 * uB * (wA - wB) / D3;
  Hl[0][2] = Hl[2][0] = (wA - wB) * (uA + uB) / D3;
  Hl[2][2] = 2.0 * uA * (wB - wA) / D3;
  Hl[1][0] = Hl[0][1] = uB / D2;
  Hl[1][2] = Hl[2][1] = -uA / D2;
  Hl[3][0] = Hl[0][3] = -uB / D2;
  Hl[3][2] = Hl[2][3] = uA / D2;
  const double *e[2] = {m, r->n};
  double F, dF, H, dH;
  Penalty(r, -o->gap, &F, &dF, &H, &dH);
  const int damped = vA && vB && r->cd > 0.0 && H > 0.0;
  double v[6] = {0.0}, hdot = 0.0;
  if (damped)
    for (int i = 0; i < 3; ++i) v[i] = vA[i], v[3 + i] = vB[i];
  for (int k = 0; k < 6; ++k) hdot += gh[3 + k] * v[k];
  const double phi = F - (damped ? r->cd * H * cs * hdot : 0.0), W[2] = {1.0 - xi, xi};
  o->force = F;
  for (int a = 0; a < 2; ++a)
    for (int i = 0; i < 3; ++i) o->f[3 * a + i] = phi * W[a] * nu[i];
  if (!K) return;
  double gphi[12]; /* dphi/dx over P, A, B, Q */
  for (int k = 0; k < 12; ++k) {
    gphi[k] = -dF * gg[k];
    if (damped) {
      double Hv = 0.0; /* d(h')/dx_k = sum_c d2h/dx_k dx_c . v_c (A and B only) */
      if (k >= 3 && k < 9) {
        const int b = (k - 3) / 3, j = (k - 3) % 3;
        for (int c = 0; c < 2; ++c)
          for (int q = 0; q < 3; ++q) {
            double hs = 0.0;
            for (int p = 0; p < 2; ++p)
              for (int pp = 0; pp < 2; ++pp) hs += Hl[2 * b + p][2 * c + pp] * e[p][j] * e[pp][q];
            Hv += hs * v[3 * c + q];
          }
      }
      gphi[k] += r->cd * (dH * gg[k] * cs * hdot - H * dcs * gs[k] * hdot - H * cs * Hv);
    }
  }
  /* df_a/dx_k = W_a nu dphi/dx_k + phi nu dW_a/dx_k + phi W_a dnu/ds ds_eff/dx_k (dW_A = -dxi, dW_B = dxi) */
  for (int a = 0; a < 2; ++a)
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 12; ++k) {
        const double dW = a ? gxi[k] : -gxi[k];
        K[12 * (3 * a + i) + k] = -(W[a] * nu[i] * gphi[k] + phi * nu[i] * dW + phi * W[a] * dnu[i] * gs[k]);
      }
  if (C)
    for (int a = 0; a < 2; ++a)
      for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 6; ++k) C[6 * (3 * a + i) + k] = damped ? r->cd * H * cs * W[a] * nu[i] * gh[3 + k] : 0.0;
}
