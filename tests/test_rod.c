/*
 * test_rod.c - the rod element against exact invariants and finite differences.
 *
 * 1. Residual = gradient of the strain energy: r is compared with the central
 *    finite-difference gradient of U on deformed, twisted configurations (relative
 *    rotations up to ~1.2 rad per element, random reference frames), both parametrisations.
 *    Tolerance 1e-6 relative to max|r|. This checks the hand derivation of the residual.
 * 2. Tangent: K (the analytic tangent) against central differences of r: 1e-6 relative to
 *    max|K|; and against the forward-mode (dual number) differentiation of the kernel,
 *    PlRodElementInternalAD, on 2000 states per parametrisation whose relative rotations
 *    range from 1e-4 rad (the series branches of the kernel and of the tangent's coefficient
 *    slopes) to 1.5 rad: every entry within 1e-10 of its row's largest entry (round-off;
 *    a wrong term of the derivation shows as O(1)).
 * 3. Objectivity: a straight, unstressed rod of 10 elements rotated rigidly by angles up to
 *    170 deg about random axes (and translated by ~100 m) has zero internal force to
 *    round-off: |r| <= 1e-13 EA |x|/L (the rounding of the chord), both parametrisations.
 * 4. Exact strain measures: an element bent into an arc of curvature k has kappa = k and
 *    gamma = 0 exactly (to 1e-12).
 * 4b. Curved at rest: 1 and 2 repeat with elements given random rest shapes (PlRodElementSetRest:
 *    a chord off t1 by up to 0.1 L, rest frames turned by up to 0.8 rad), same tolerances; and a
 *    helix of 12 elements built by PlRodArcStep (its end within 1e-12 of one step over the whole
 *    length; each element's K0 its curvature k to 1e-14) is stress-free in its rest shape moved
 *    rigidly (rotations 0 to 170 deg, translations ~100 m): forces within the bound of 3, strains
 *    and curvatures x L within 1e-13 (L + 200 m)/L (the chord's rounding).
 * 5. The dynamic rows' form (PlRodElementNodeForces): the force and the moments in the nodes'
 *    frames, m = R^T r_w, equal the parameter rows of PlRodElementInternal mapped by
 *    PlNodeMapParamForce (m = B(p) H(p)^T R0^T r_w, the map the iteration matrix is built
 *    with), on 2000 states per parametrisation with relative rotations 1e-4 to 1.5 rad and
 *    off-unit quaternions: within 1e-12 of the largest entry (round-off; a wrong frame or a
 *    missing |p| shows as O(1)).
 * 6. The Morison loads' hand-derived iteration matrix (PlRodElementMorison) against the
 *    forward-mode differentiation of their kernel (PlRodElementMorisonAD) on 2000 random states
 *    (drag with and without skin friction, added mass, a sheared current or, on two in three,
 *    waves: a full velocity gradient, an accelerating fluid (its inertia with C_an and C_at, the
 *    acceleration's gradient) and a sloping surface eta; relative velocities from 1e-3 to 3 m/s, c from 1 to 1e3), half of
 *    them deep and half with nodes in or about the sea surface's band (horizontal and vertical
 *    chords; the wetted fractions and their slopes):
 *    every entry within 1e-10 of its row's largest (seen: round-off; a wrong term is O(1)), the
 *    loads equal.
 * 6b. The Morison loads act on the wetted part only: an element of outer diameter d_o = 0.5 m
 *    moving at 1 m/s across its axis with an acceleration (drag and added mass, no current)
 *    wholly above the band (z >= d_o/2) has zero load and zero iteration matrix (it used to feel
 *    the water's); lying horizontally at z = 0 (wetted fraction phi = 1/2 everywhere) it has
 *    half the deep load, node by node; vertical from z = -L/2 to L/2 (L = 10 m >> d_o) its
 *    loads are F_a = sum_q (L/2) N_a(xi_q) phi(z_q) f_q + phi(z_a) m_a a_n with f_q the deep
 *    drag per length: the lower Gauss point and node wet, the upper dry, so the total is half
 *    the deep total (1e-12), and with added mass alone the upper node has none, the lower all.
 * 7. The same for a quaternion node's own rows (PlNodeDynamics against PlNodeDynamicsAD; the
 *    hand-derived matrix serves nodes without a dead moment): 2000 random states with off-unit
 *    quaternions, rates, angular velocities up to 3 rad/s and c from 1 to 1e3: within 1e-10 of
 *    each row's largest entry, the rows equal; and the map of the rod's parameter force to the
 *    node's moments, its dm/dp by hand against PlNodeMapParamForceAD (1e-10).
 */
#include <string.h>
#include "check.h"
#include "pipelay/elements.h"

static double Rand(unsigned *s)
{
  *s = *s * 1103515245u + 12345u;
  return ((*s >> 8) & 0xffffff) / (double)0x1000000 * 2.0 - 1.0;
}

static void RandomQuat(unsigned *s, double maxangle, double q[4])
{
  double a[3] = {Rand(s), Rand(s), Rand(s)};
  PlQuatFromAxisAngle(a, maxangle * Rand(s), q);
}

static PlSection TestSection(void)
{
  PlSection s = {0};
  s.EA = 1.5569e10;
  s.GA[0] = 9.0330e9;
  s.GA[1] = 7.1e9;
  s.GJ = 7.9720e8;
  s.EI[0] = 1.0364e9;
  s.EI[1] = 0.8e9;
  return s;
}

/* A deformed state: positions near a chord of length ~L, parameters of random rotations. */
static void RandomState(unsigned *seed, PlParamKind kind, const PlRodElement *e, double *u)
{
  const int nd = PlNodeDofCount(kind);
  for (int a = 0; a < 2; ++a) {
    double qp[4];
    RandomQuat(seed, 0.6, qp); /* node rotation relative to its reference frame */
    for (int i = 0; i < 3; ++i) u[a * nd + i] = (a ? e->L : 0.0) * (i == 0) + 0.05 * e->L * Rand(seed);
    PlParamFromQuaternion(kind, qp, u + a * nd + 3);
    if (kind == PL_PARAM_QUATERNION) /* an off-unit quaternion: the kernel must normalise */
      for (int i = 0; i < 4; ++i) u[a * nd + 3 + i] *= 1.0 + 0.1 * Rand(seed);
  }
}

/* Gives e a random rest shape (a curved element): a chord of length ~L off the frame's t1 and
 * node B's rest frame turned up to 0.8 rad from A's, both about A's reference frame. */
static void RandomRest(unsigned *seed, PlRodElement *e)
{
  double dl[3] = {e->L * (1.0 + 0.02 * Rand(seed)), 0.1 * e->L * Rand(seed), 0.1 * e->L * Rand(seed)}, d0[3], qr[4], qB[4];
  PlQuatRotate(e->q0[0], dl, d0);
  RandomQuat(seed, 0.8, qr);
  PlQuatMul(e->q0[0], qr, qB);
  CHECK_TRUE(PlRodElementSetRest(e, d0, e->q0[0], qB) == 0, "a rest shape inside the domain");
}

static void TestGradientAndTangent(PlParamKind kind, unsigned seed, int curved)
{
  const PlSection sec = TestSection();
  const int nd = PlNodeDofCount(kind), n = 2 * nd;
  for (int trial = 0; trial < 20; ++trial) {
    double q0A[4], q0B[4];
    RandomQuat(&seed, 3.0, q0A);
    RandomQuat(&seed, 0.4, q0B);
    PlQuatMul(q0A, q0B, q0B); /* B's frame near A's */
    PlRodElement e;
    PlRodElementInit(&e, 2.0 + Rand(&seed), &sec, q0A, q0B, kind);
    if (curved) RandomRest(&seed, &e);
    double u[PL_ELEM_DOF_MAX], r[PL_ELEM_DOF_MAX], K[PL_ELEM_DOF_MAX * PL_ELEM_DOF_MAX];
    RandomState(&seed, kind, &e, u);
    /* put the positions in A's frame so the state is strained, not torn apart */
    double xa[3], xb[3];
    PlQuatRotate(q0A, u, xa);
    PlQuatRotate(q0A, u + nd, xb);
    memcpy(u, xa, sizeof xa);
    memcpy(u + nd, xb, sizeof xb);
    CHECK_TRUE(PlRodElementInternal(&e, u, r, K) == 0, "element state inside the domain");

    double rmax = 0.0, kmax = 0.0, gerr = 0.0, kerr = 0.0;
    for (int i = 0; i < n; ++i) rmax = fmax(rmax, fabs(r[i]));
    for (int i = 0; i < n * n; ++i) kmax = fmax(kmax, fabs(K[i]));
    for (int j = 0; j < n; ++j) {
      const double h = 1e-6 * (j % nd < 3 ? e.L : 1.0);
      double up[PL_ELEM_DOF_MAX], um[PL_ELEM_DOF_MAX], rp[PL_ELEM_DOF_MAX], rm[PL_ELEM_DOF_MAX];
      memcpy(up, u, sizeof up);
      memcpy(um, u, sizeof um);
      up[j] += h;
      um[j] -= h;
      const double dU = (PlRodElementEnergy(&e, up) - PlRodElementEnergy(&e, um)) / (2 * h);
      gerr = fmax(gerr, fabs(dU - r[j]));
      PlRodElementInternal(&e, up, rp, NULL);
      PlRodElementInternal(&e, um, rm, NULL);
      for (int i = 0; i < n; ++i) kerr = fmax(kerr, fabs((rp[i] - rm[i]) / (2 * h) - K[i * n + j]));
    }
    char what[128];
    snprintf(what, sizeof what, "%s%s trial %d: residual vs FD energy gradient (rel)",
             kind == PL_PARAM_QUATERNION ? "quaternion" : "euler", curved ? " curved" : "", trial);
    CHECK_ABS(gerr / rmax, 0.0, 1e-6, what);
    snprintf(what, sizeof what, "%s%s trial %d: tangent vs FD of residual (rel)",
             kind == PL_PARAM_QUATERNION ? "quaternion" : "euler", curved ? " curved" : "", trial);
    CHECK_ABS(kerr / kmax, 0.0, 1e-6, what);
  }
}

/* An element of random reference frames (relative rotation up to sc [rad]) and length 1 to
 * 11 m, and a state u near its chord with nodal rotations up to sc (quaternions off unit norm). */
static void RandomElement(unsigned *seed, PlParamKind kind, const PlSection *sec, double sc, PlRodElement *e,
                          double *u)
{
  const int nd = PlNodeDofCount(kind);
  double q0A[4], q0B[4], qA[4], qB[4];
  RandomQuat(seed, 3.0, q0A);
  RandomQuat(seed, sc, q0B);
  PlQuatMul(q0A, q0B, q0B);
  PlRodElementInit(e, 1.0 + 10.0 * fabs(Rand(seed)), sec, q0A, q0B, kind);
  RandomQuat(seed, sc, qA);
  RandomQuat(seed, sc, qB);
  for (int a = 0; a < 2; ++a) {
    double x[3] = {(a ? e->L : 0.0) + 0.01 * e->L * Rand(seed), 0.05 * e->L * Rand(seed), 0.05 * e->L * Rand(seed)};
    PlQuatRotate(q0A, x, u + a * nd);
    PlParamFromQuaternion(kind, a ? qB : qA, u + a * nd + 3);
    if (kind == PL_PARAM_QUATERNION)
      for (int i = 0; i < 4; ++i) u[a * nd + 3 + i] *= 1.0 + 0.1 * Rand(seed);
  }
}

static void TestAnalyticAgainstAD(PlParamKind kind, unsigned seed, int curved)
{
  const PlSection sec = TestSection();
  const int nd = PlNodeDofCount(kind), n = 2 * nd;
  const double scales[4] = {1e-4, 0.05, 0.3, 1.5}; /* relative rotations [rad] */
  double worst = 0.0, rworst = 0.0;
  int inside = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    PlRodElement e;
    double u[PL_ELEM_DOF_MAX], r1[PL_ELEM_DOF_MAX], r2[PL_ELEM_DOF_MAX];
    double K1[PL_ELEM_DOF_MAX * PL_ELEM_DOF_MAX], K2[PL_ELEM_DOF_MAX * PL_ELEM_DOF_MAX];
    RandomElement(&seed, kind, &sec, scales[trial % 4], &e, u);
    if (curved) RandomRest(&seed, &e);
    if (PlRodElementInternal(&e, u, r1, K1) || PlRodElementInternalAD(&e, u, r2, K2)) continue;
    ++inside;
    double rmax = 0.0;
    for (int i = 0; i < n; ++i) rmax = fmax(rmax, fabs(r2[i]));
    for (int i = 0; i < n; ++i) {
      double rowmax = 0.0;
      for (int j = 0; j < n; ++j) rowmax = fmax(rowmax, fabs(K2[i * n + j]));
      for (int j = 0; j < n; ++j) worst = fmax(worst, fabs(K1[i * n + j] - K2[i * n + j]) / rowmax);
      rworst = fmax(rworst, fabs(r1[i] - r2[i]) / rmax);
    }
  }
  char what[128];
  snprintf(what, sizeof what, "%s: all 2000 states inside the domain",
           kind == PL_PARAM_QUATERNION ? "quaternion" : "euler");
  CHECK_TRUE(inside == 2000, what);
  snprintf(what, sizeof what, "%s%s: analytic tangent against dual numbers, of the row's largest entry",
           kind == PL_PARAM_QUATERNION ? "quaternion" : "euler", curved ? " curved" : "");
  CHECK_ABS(worst, 0.0, 1e-10, what);
  snprintf(what, sizeof what, "%s: the two tangents' residuals (of the largest entry)",
           kind == PL_PARAM_QUATERNION ? "quaternion" : "euler");
  CHECK_ABS(rworst, 0.0, 1e-12, what);
  printf("%s%s: analytic tangent against dual numbers: %.2e of the row's largest entry\n",
         kind == PL_PARAM_QUATERNION ? "quaternion" : "euler", curved ? " curved" : "", worst);
}

static void TestNodeForces(PlParamKind kind, unsigned seed)
{
  const PlSection sec = TestSection();
  const int nd = PlNodeDofCount(kind);
  const double scales[4] = {1e-4, 0.05, 0.3, 1.5}; /* relative rotations [rad] */
  double worst = 0.0;
  int inside = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    PlRodElement e;
    double u[PL_ELEM_DOF_MAX], r[PL_ELEM_DOF_MAX];
    RandomElement(&seed, kind, &sec, scales[trial % 4], &e, u);
    double want[12], got[12], qn[2][4];
    if (PlRodElementInternal(&e, u, r, NULL)) continue;
    for (int a = 0; a < 2; ++a) {
      for (int i = 0; i < 3; ++i) want[3 * a + i] = r[a * nd + i];
      PlNodeMapParamForce(kind, u + a * nd + 3, r + a * nd + 3, want + 6 + 3 * a, NULL);
      PlNodeQuaternion(kind, e.q0[a], u + a * nd + 3, qn[a]);
    }
    double f[3];
    if (PlRodElementNodeForces(&e, u, u + nd, qn[0], qn[1], f, got + 6, got + 9)) continue;
    ++inside;
    for (int i = 0; i < 3; ++i) {
      got[i] = -f[i];
      got[3 + i] = f[i];
    }
    double big = 0.0, err = 0.0;
    for (int i = 0; i < 12; ++i) {
      big = fmax(big, fabs(want[i]));
      err = fmax(err, fabs(got[i] - want[i]));
    }
    worst = fmax(worst, err / big);
  }
  const char *name = kind == PL_PARAM_QUATERNION ? "quaternion" : "euler";
  char what[128];
  snprintf(what, sizeof what, "%s: node forces: all 2000 states inside the domain", name);
  CHECK_TRUE(inside == 2000, what);
  snprintf(what, sizeof what, "%s: node-frame moments R^T r_w against B(p) r_p (of the largest entry)", name);
  CHECK_ABS(worst, 0.0, 1e-12, what);
  printf("%s: node-frame forces against the parameter route: %.2e of the largest entry\n", name, worst);
}

static void TestMorisonTangent(unsigned seed)
{
  const int iV = 7, ndd = 13;
  double worst = 0.0, fworst = 0.0;
  for (int trial = 0; trial < 2000; ++trial) {
    const double vs = trial % 4 == 0 ? 1e-3 : trial % 4 == 1 ? 0.1 : trial % 4 == 2 ? 1.0 : 3.0;
    PlMorison h = {1.0 + 10.0 * fabs(Rand(&seed)), 1025.0, 0.3 + 0.5 * fabs(Rand(&seed)), 1.2 * fabs(Rand(&seed)),
                   trial % 2 ? 0.0 : 0.1 * fabs(Rand(&seed)), fabs(Rand(&seed)), 0.2 * fabs(Rand(&seed)),
                   0.3 + 0.5 * fabs(Rand(&seed))};
    const int surface = (trial / 4) % 2, vertical = (trial / 8) % 2; /* nodes about z = 0 */
    double y[2][13], yp[2][13];
    PlFluidAt fl[2];
    for (int a = 0; a < 2; ++a)
      for (int i = 0; i < ndd; ++i) {
        y[a][i] = i < 3 ? (a ? h.L * (i == 0) : 0.0) + 0.1 * h.L * Rand(&seed) - 900.0 * (i == 2) : vs * Rand(&seed);
        yp[a][i] = Rand(&seed);
      }
    if (surface)
      for (int a = 0; a < 2; ++a)
        y[a][2] = (vertical ? (a ? 0.3 : -0.3) * h.L : 0.0) + 0.8 * h.d_o * Rand(&seed);
    const int waves = trial % 3 != 0; /* else a current alone: u(z), no acceleration, eta = 0 */
    for (int q = 0; q < 2; ++q) {
      memset(&fl[q], 0, sizeof fl[q]);
      for (int i = 0; i < 3; ++i) {
        fl[q].u[i] = 0.5 * Rand(&seed);
        for (int j = 0; j < 3; ++j) fl[q].du_dx[3 * i + j] = waves || j == 2 ? 1e-2 * Rand(&seed) : 0.0;
        fl[q].a[i] = waves ? Rand(&seed) : 0.0;
        for (int j = 0; j < 3; ++j) fl[q].da_dx[3 * i + j] = waves ? 0.05 * Rand(&seed) : 0.0;
      }
      if (waves) {
        fl[q].eta = 0.5 * h.d_o * Rand(&seed);
        fl[q].deta_dx[0] = 0.2 * Rand(&seed), fl[q].deta_dx[1] = 0.2 * Rand(&seed);
      }
    }
    const double c = pow(10.0, 3.0 * fabs(Rand(&seed)));
    double f1[6], f2[6], K1[72], K2[72];
    PlRodElementMorison(&h, y[0], yp[0], y[1], yp[1], iV, fl, c, f1, K1);
    PlRodElementMorisonAD(&h, y[0], yp[0], y[1], yp[1], iV, fl, c, f2, K2);
    double fbig = 0.0;
    for (int i = 0; i < 6; ++i) fbig = fmax(fbig, fabs(f2[i]));
    for (int i = 0; i < 6; ++i) {
      double rowmax = 0.0;
      for (int j = 0; j < 12; ++j) rowmax = fmax(rowmax, fabs(K2[i * 12 + j]));
      for (int j = 0; j < 12; ++j) worst = fmax(worst, fabs(K1[i * 12 + j] - K2[i * 12 + j]) / rowmax);
      fworst = fmax(fworst, fabs(f1[i] - f2[i]) / fbig);
    }
  }
  CHECK_ABS(worst, 0.0, 1e-10, "Morison: hand-derived iteration matrix against dual numbers (of the row's largest)");
  CHECK_ABS(fworst, 0.0, 1e-14, "Morison: the loads of the two");
  printf("Morison: hand-derived iteration matrix against dual numbers: %.2e of the row's largest entry\n", worst);
}

/* The Morison loads f[6] and their largest matrix entry for the element of h from z = zA to zB
 * (horizontal along x when equal, else vertical), both nodes moving at 1 m/s in y and
 * accelerating at 2 m/s^2 in y, no current. */
static double MorisonAt(const PlMorison *h, double zA, double zB, double f[6])
{
  const int iV = 7;
  double y[2][13] = {{0}}, yp[2][13] = {{0}}, K[72];
  PlFluidAt fl[2];
  memset(fl, 0, sizeof fl);
  y[1][0] = zA == zB ? h->L : 0.0;
  y[0][2] = zA;
  y[1][2] = zB;
  for (int a = 0; a < 2; ++a) {
    y[a][iV + 1] = 1.0;
    yp[a][iV + 1] = 2.0;
  }
  PlRodElementMorison(h, y[0], yp[0], y[1], yp[1], iV, fl, 10.0, f, K);
  double kmax = 0.0;
  for (int i = 0; i < 72; ++i) kmax = fmax(kmax, fabs(K[i]));
  return kmax;
}

static void TestMorisonSurface(void)
{
  const PlMorison h = {10.0, 1025.0, 0.5, 1.2, 0.0, 1.0, 0.0, 0.5};
  double deep[6], air[6], half[6], vert[6], vdeep[6];
  MorisonAt(&h, -900.0, -900.0, deep);
  const double kair = MorisonAt(&h, 0.25, 0.25, air);
  MorisonAt(&h, 0.0, 0.0, half);
  MorisonAt(&h, -5.0, 5.0, vert);
  MorisonAt(&h, -905.0, -895.0, vdeep);
  double amax = 0.0, hworst = 0.0, tv = 0.0, tdeep = 0.0;
  for (int i = 0; i < 6; ++i) {
    amax = fmax(amax, fabs(air[i]));
    hworst = fmax(hworst, fabs(half[i] - 0.5 * deep[i]));
  }
  for (int a = 0; a < 2; ++a) {
    tv += vert[3 * a + 1];
    tdeep += vdeep[3 * a + 1];
  }
  CHECK_TRUE(fabs(deep[1]) > 1e3, "Morison at the surface: the deep element has a load");
  CHECK_ABS(amax, 0.0, 0.0, "Morison at the surface: no load on an element in the air");
  CHECK_ABS(kair, 0.0, 0.0, "Morison at the surface: no iteration matrix in the air");
  CHECK_ABS(hworst / fabs(deep[1]), 0.0, 1e-12, "Morison at the surface: half the deep load at z = 0");
  CHECK_REL(tv, 0.5 * tdeep, 1e-12, "Morison at the surface: a vertical element half under water, half the load");
  const PlMorison ham = {10.0, 1025.0, 0.5, 0.0, 0.0, 1.0, 0.0, 0.5}; /* added mass alone: at the nodes */
  MorisonAt(&ham, -5.0, 5.0, vert);
  MorisonAt(&ham, -905.0, -895.0, vdeep);
  CHECK_ABS(vert[4], 0.0, 0.0, "Morison at the surface: no added mass on the dry upper node");
  CHECK_REL(vert[1], vdeep[1], 1e-12, "Morison at the surface: the wet lower node's added mass");
  printf("Morison at the surface: deep %.6g N per node, in the air %.3g N, at z = 0 %.6g N, vertical half wet "
         "%.6g of %.6g N in all\n", deep[1], air[1], half[1], tv, tdeep);
}

static void TestNodeTangent(unsigned seed)
{
  const int n = 13;
  double worst = 0.0, rworst = 0.0, mworst = 0.0;
  for (int trial = 0; trial < 2000; ++trial) {
    PlNodeInertia ni = {1e3 * fabs(Rand(&seed)), {50.0 * fabs(Rand(&seed)), 30.0 * fabs(Rand(&seed)), 30.0 * fabs(Rand(&seed))},
                        {5.0 * fabs(Rand(&seed)), fabs(Rand(&seed)), fabs(Rand(&seed))}};
    double y[13], yp[13], q[4], q0[4];
    RandomQuat(&seed, 3.0, q0);
    RandomQuat(&seed, 3.0, q);
    for (int i = 0; i < n; ++i) {
      y[i] = 3.0 * Rand(&seed);
      yp[i] = 3.0 * Rand(&seed);
    }
    for (int i = 0; i < 4; ++i) y[3 + i] = q[i] * (1.0 + 0.1 * Rand(&seed));
    const double c = pow(10.0, 3.0 * fabs(Rand(&seed)));
    double r1[13], r2[13], K1[169], K2[169];
    PlNodeDynamics(&ni, PL_PARAM_QUATERNION, q0, y, yp, c, NULL, r1, K1);
    PlNodeDynamicsAD(&ni, PL_PARAM_QUATERNION, q0, y, yp, c, NULL, r2, K2);
    for (int i = 0; i < n; ++i) {
      double rowmax = 0.0;
      for (int j = 0; j < n; ++j) rowmax = fmax(rowmax, fabs(K2[i * n + j]));
      for (int j = 0; j < n; ++j) worst = fmax(worst, fabs(K1[i * n + j] - K2[i * n + j]) / rowmax);
      rworst = fmax(rworst, fabs(r1[i] - r2[i]));
    }
    /* the rod's parameter force mapped to the node's moments, dm/dp */
    double rp[4], m1[3], m2[3], D1[12], D2[12];
    for (int i = 0; i < 4; ++i) rp[i] = 1e6 * Rand(&seed);
    PlNodeMapParamForce(PL_PARAM_QUATERNION, y + 3, rp, m1, D1);
    PlNodeMapParamForceAD(PL_PARAM_QUATERNION, y + 3, rp, m2, D2);
    for (int i = 0; i < 3; ++i) {
      double rowmax = 0.0;
      for (int j = 0; j < 4; ++j) rowmax = fmax(rowmax, fabs(D2[4 * i + j]));
      for (int j = 0; j < 4; ++j) mworst = fmax(mworst, fabs(D1[4 * i + j] - D2[4 * i + j]) / rowmax);
      rworst = fmax(rworst, fabs(m1[i] - m2[i]));
    }
  }
  CHECK_ABS(worst, 0.0, 1e-10, "quaternion node: hand-derived iteration matrix against dual numbers (of the row's largest)");
  CHECK_ABS(rworst, 0.0, 0.0, "quaternion node: the rows and moments of the two");
  CHECK_ABS(mworst, 0.0, 1e-10, "quaternion node: hand-derived dm/dp of the parameter force's map (of the row's largest)");
  printf("quaternion node: hand-derived iteration matrix against dual numbers: %.2e of the row's largest entry\n", worst);
}

static void TestRigidRotation(PlParamKind kind, unsigned seed)
{
  const PlSection sec = TestSection();
  const int nd = PlNodeDofCount(kind), nel = 10;
  const double Le = 2.0;
  const double angles_deg[] = {10, 45, 90, 120, 150, 170};
  for (size_t k = 0; k < sizeof angles_deg / sizeof angles_deg[0]; ++k) {
    double axis[3] = {Rand(&seed), Rand(&seed), Rand(&seed)}, Q[4], c[3];
    PlQuatFromAxisAngle(axis, angles_deg[k] * M_PI / 180.0, Q);
    for (int i = 0; i < 3; ++i) c[i] = 100.0 * Rand(&seed);
    const double ident[4] = {1, 0, 0, 0};
    double worst = 0.0;
    for (int el = 0; el < nel; ++el) {
      PlRodElement e;
      PlRodElementInit(&e, Le, &sec, ident, ident, kind);
      double u[PL_ELEM_DOF_MAX], r[PL_ELEM_DOF_MAX];
      for (int a = 0; a < 2; ++a) {
        const double x0[3] = {(el + a) * Le, 0, 0};
        PlQuatRotate(Q, x0, u + a * nd);
        for (int i = 0; i < 3; ++i) u[a * nd + i] += c[i];
        PlParamFromQuaternion(kind, Q, u + a * nd + 3);
      }
      PlRodElementInternal(&e, u, r, NULL);
      for (int i = 0; i < 2 * nd; ++i) worst = fmax(worst, fabs(r[i]));
    }
    char what[128];
    snprintf(what, sizeof what, "%s rigid rotation %.0f deg: max |internal force| [N]",
             kind == PL_PARAM_QUATERNION ? "quaternion" : "euler", angles_deg[k]);
    CHECK_ABS(worst, 0.0, 1e-13 * sec.EA * (nel * Le + 200.0) / Le, what);
  }
}

static void TestArc(PlParamKind kind)
{
  /* nodes on a circle of radius rho in the x-z plane, frames tangent: exact arc */
  const PlSection sec = TestSection();
  const int nd = PlNodeDofCount(kind);
  const double rho = 7.0, dth = 0.3, ident[4] = {1, 0, 0, 0};
  PlRodElement e; /* reference length = chord, so the arc carries no axial strain */
  PlRodElementInit(&e, 2.0 * rho * sin(0.5 * dth), &sec, ident, ident, kind);
  double u[PL_ELEM_DOF_MAX];
  const double ey[3] = {0, -1, 0};
  for (int a = 0; a < 2; ++a) {
    const double th = a * dth;
    u[a * nd + 0] = rho * sin(th);
    u[a * nd + 1] = 0.0;
    u[a * nd + 2] = rho * (1.0 - cos(th));
    double qq[4];
    PlQuatFromAxisAngle(ey, th, qq);
    PlParamFromQuaternion(kind, qq, u + a * nd + 3);
  }
  PlRodSectionState st;
  PlRodElementState(&e, u, &st);
  /* curvature about -y of magnitude dth/L_ref; chord equals L_ref so gamma = 0 */
  CHECK_ABS(st.gamma[0], 0.0, 1e-12, "arc: axial strain");
  CHECK_ABS(st.gamma[2], 0.0, 1e-12, "arc: shear strain 3");
  CHECK_REL(-st.kappa[1], dth / e.L, 1e-12, "arc: curvature about t2");
}

/* A rod curved at rest, 12 elements of a helix (material curvature k with twist), built with
 * PlRodArcStep; each element given that rest shape. The rest shape is stress-free to the bit, and
 * so is every rigid motion of it up to round-off; its nodes lie on the helix's closed form. */
static void TestCurvedRigidMotion(PlParamKind kind, unsigned seed)
{
  const PlSection sec = TestSection();
  const int nd = PlNodeDofCount(kind), nel = 12;
  const double Le = 1.5, k[3] = {0.05, -0.2, 0.1}, ident[4] = {1, 0, 0, 0};
  double x[13][3], q[13][4];
  memset(x[0], 0, sizeof x[0]);
  memcpy(q[0], ident, sizeof ident);
  for (int i = 0; i < nel; ++i) {
    double dx[3], dq[4], gx[3];
    PlRodArcStep(k, Le, dx, dq);
    PlQuatRotate(q[i], dx, gx);
    for (int c = 0; c < 3; ++c) x[i + 1][c] = x[i][c] + gx[c];
    PlQuatMul(q[i], dq, q[i + 1]);
  }
  /* the closed form of the end: one arc step over the whole length */
  double dxe[3], dqe[4], err = 0.0;
  PlRodArcStep(k, nel * Le, dxe, dqe);
  for (int c = 0; c < 3; ++c) err = fmax(err, fabs(x[nel][c] - dxe[c]));
  CHECK_ABS(err, 0.0, 1e-12 * nel * Le, "helix of arc steps: end position against one step over its length [m]");
  const double angles_deg[] = {0, 30, 90, 170};
  for (size_t a = 0; a < sizeof angles_deg / sizeof angles_deg[0]; ++a) {
    double axis[3] = {Rand(&seed), Rand(&seed), Rand(&seed)}, Q[4], c[3];
    PlQuatFromAxisAngle(axis, angles_deg[a] * M_PI / 180.0, Q);
    for (int i = 0; i < 3; ++i) c[i] = 100.0 * Rand(&seed);
    double worst = 0.0, smax = 0.0;
    for (int el = 0; el < nel; ++el) {
      PlRodElement e;
      const double d0[3] = {x[el + 1][0] - x[el][0], x[el + 1][1] - x[el][1], x[el + 1][2] - x[el][2]};
      PlRodElementInit(&e, Le, &sec, q[el], q[el + 1], kind);
      CHECK_TRUE(PlRodElementSetRest(&e, d0, q[el], q[el + 1]) == 0, "helix element's rest shape");
      for (int i = 0; i < 3; ++i) CHECK_ABS(e.K0[i], k[i], 1e-14, "helix element: K0 = k (its constant curvature) [1/m]");
      double u[PL_ELEM_DOF_MAX], r[PL_ELEM_DOF_MAX];
      for (int b = 0; b < 2; ++b) {
        PlQuatRotate(Q, x[el + b], u + b * nd);
        for (int i = 0; i < 3; ++i) u[b * nd + i] += c[i];
        /* the node's frame Q q_r = q0 (x) q(p) with q0 = q_r: q(p) = q_r^-1 Q q_r */
        double qc[4] = {q[el + b][0], -q[el + b][1], -q[el + b][2], -q[el + b][3]}, t[4], qp[4];
        PlQuatMul(Q, q[el + b], t);
        PlQuatMul(qc, t, qp);
        PlParamFromQuaternion(kind, qp, u + b * nd + 3);
      }
      PlRodSectionState st;
      PlRodElementInternal(&e, u, r, NULL);
      PlRodElementState(&e, u, &st);
      for (int i = 0; i < 2 * nd; ++i) worst = fmax(worst, fabs(r[i]));
      for (int i = 0; i < 3; ++i) smax = fmax(smax, fmax(fabs(st.gamma[i]), fabs(st.kappa[i]) * Le));
    }
    char what[128];
    snprintf(what, sizeof what, "%s curved rod, rigid rotation %.0f deg: max |internal force| [N]",
             kind == PL_PARAM_QUATERNION ? "quaternion" : "euler", angles_deg[a]);
    CHECK_ABS(worst, 0.0, 1e-13 * sec.EA * (nel * Le + 200.0) / Le, what);
    snprintf(what, sizeof what, "%s curved rod, rigid rotation %.0f deg: max strain, curvature x L",
             kind == PL_PARAM_QUATERNION ? "quaternion" : "euler", angles_deg[a]);
    CHECK_ABS(smax, 0.0, 1e-13 * (nel * Le + 200.0) / Le, what);
  }
}

int main(void)
{
  TestGradientAndTangent(PL_PARAM_QUATERNION, 11u, 0);
  TestGradientAndTangent(PL_PARAM_EULER_ZXY, 12u, 0);
  TestGradientAndTangent(PL_PARAM_QUATERNION, 21u, 1);
  TestGradientAndTangent(PL_PARAM_EULER_ZXY, 22u, 1);
  TestAnalyticAgainstAD(PL_PARAM_QUATERNION, 15u, 0);
  TestAnalyticAgainstAD(PL_PARAM_EULER_ZXY, 16u, 0);
  TestAnalyticAgainstAD(PL_PARAM_QUATERNION, 25u, 1);
  TestAnalyticAgainstAD(PL_PARAM_EULER_ZXY, 26u, 1);
  TestNodeForces(PL_PARAM_QUATERNION, 17u);
  TestNodeForces(PL_PARAM_EULER_ZXY, 18u);
  TestMorisonTangent(19u);
  TestMorisonSurface();
  TestNodeTangent(20u);
  TestRigidRotation(PL_PARAM_QUATERNION, 13u);
  TestRigidRotation(PL_PARAM_EULER_ZXY, 14u);
  TestArc(PL_PARAM_QUATERNION);
  TestArc(PL_PARAM_EULER_ZXY);
  TestCurvedRigidMotion(PL_PARAM_QUATERNION, 23u);
  TestCurvedRigidMotion(PL_PARAM_EULER_ZXY, 24u);
  return CHECK_DONE();
}
