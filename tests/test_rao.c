/*
 * test_rao.c - displacement RAO tables and the motion they give (models/rao.c, pipelay/rao.h).
 *
 *   conventions  a CSV table's declared conventions (lag or lead, towards or from, deg or rad)
 *                give the complex RAO R e^{-+i Phi} at the converted heading, to 1e-15;
 *                WAMIT's .4 rows give Re + i Im with the rotations over ULEN, other bodies' modes
 *                and PER <= 0 skipped.
 *   interpolation  periodic in heading across 360 deg, linear in period, the ends held: against
 *                the weights computed here, to 1e-15.
 *   phase        a crest at the phase origin at t = 0 (an Airy wave of phase 0): the motion is
 *                a R cos(omega t - Phi) for a lag Phi (its peak Phi/omega after the crest) and
 *                a R cos(omega t + Phi) for a lead, to 1e-12; a phase origin d metres up-wave
 *                delays it by k d / omega; with forward speed U the motion's period is the
 *                encounter period 2 pi/(omega - k U cos beta_r).
 *   rigid        the motion of a body point equals the rigid-body transform of the origin's
 *                motion (the small-angle rotation matrix I + S(theta) applied to the lever arm),
 *                position and velocity, to 1e-12; the rates are the time derivatives of the
 *                motion (central differences, 1e-7) and the ramp starts the motion at rest.
 *   long_wave    the shipped MSS supply vessel table (examples/raos/mss_supply) at its longest
 *                period, 60 s, against the long-wave limits of a free-floating body (OrcaFlex's
 *                "RAO quality checks"): heave amplitude 1 (within 1e-3) in phase with the crest
 *                (1 deg), surge |cos beta| (within 0.01) lagging 90 deg when the waves travel
 *                forward and leading when aft (2 deg), pitch k |cos beta| (within 4 % of k,
 *                k = omega^2/g) leading (bow down, our y to port) in following seas by 90 deg
 *                (2 deg); at every 10 deg of heading.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "pipelay/rao.h"
#include "pipelay/waves.h"

static const double kPi = 3.14159265358979323846;

static const char *WriteFile(const char *name, const char *text)
{
  static char path[512];
  snprintf(path, sizeof path, "%s/%s", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", name);
  FILE *f = fopen(path, "w");
  if (!f) return NULL;
  fputs(text, f);
  fclose(f);
  return path;
}

/* A table of two headings (0, 90 as given) and two periods (5, 10 s): heave R = 0.5 + period/20 + heading/900,
 * phase 30 deg; pitch 2 deg/m, phase -40 deg; the other DOFs absent. */
static const char *kCsv = "# a comment\n"
                          "heading,period,dof,amplitude,phase\n"
                          "0,5,heave,0.75,30\n"
                          "0,10,heave,1.0,30\n"
                          "90,5,heave,0.85,30\n"
                          "90,10,heave,1.1,30\n"
                          "0,5,pitch,2,-40\n"
                          "0,10,pitch,2,-40\n"
                          "90,5,pitch,2,-40\n"
                          "90,10,pitch,2,-40\n";

static void Conventions(void)
{
  const char *p = WriteFile("pl_rao_conv.csv", kCsv);
  for (int phase = 0; phase < 2; phase++)
    for (int head = 0; head < 2; head++) {
      PlRaoConventions cv = {(PlRaoPhase)phase, (PlRaoHeading)head, PL_RAO_DEG};
      PlRaoTable t = {0};
      PlRaoError e;
      CHECK_TRUE(PlRaoReadCsv(p, &cv, &t, &e) == 0, "the CSV table reads");
      if (!t.block) continue;
      CHECK_TRUE(t.nh == 2 && t.np == 2, "2 headings x 2 periods");
      const double s = phase == PL_RAO_LEAD ? 1.0 : -1.0, b0 = head == PL_RAO_FROM ? kPi : 0.0;
      double H[12];
      PlRaoInterpolate(&t, b0 + 0.5 * kPi, 10.0, H); /* the table's 90 deg, 10 s */
      CHECK_ABS(H[4], 1.1 * cos(s * kPi / 6), 1e-15, "heave Re");
      CHECK_ABS(H[5], 1.1 * sin(s * kPi / 6), 1e-15, "heave Im");
      CHECK_ABS(H[8], 2 * kPi / 180 * cos(-s * 40 * kPi / 180), 1e-15, "pitch Re (deg/m to rad/m)");
      CHECK_ABS(H[9], 2 * kPi / 180 * sin(-s * 40 * kPi / 180), 1e-15, "pitch Im");
      CHECK_ABS(H[0] + H[1] + H[2] + H[3] + H[6] + H[7] + H[10] + H[11], 0.0, 0.0, "absent DOFs are zero");
      PlRaoFree(&t);
    }
  /* WAMIT: body 2 of a two-body file (modes 7..12), ULEN 10; a PER <= 0 row skipped */
  const char *w = WriteFile("pl_rao.4", " -1.0  0.0  9  1.0 0.0 1.0 0.0\n"
                                        "  8.0  0.0  3  0.5 10. 0.4 0.3\n"
                                        "  8.0  0.0  9  0.6 20. 0.6 -0.2\n"
                                        "  8.0  0.0 11  2.0 30. 1.5 2.5\n"
                                        "  8.0 45.0  9  0.6 20. 0.1 0.2\n"
                                        "  8.0 45.0 11  2.0 30. 3.0 -1.0\n");
  PlRaoTable t = {0};
  PlRaoError e;
  CHECK_TRUE(PlRaoReadWamit(w, 2, 10.0, &t, &e) == 0, "the WAMIT .4 file reads");
  if (t.block) {
    CHECK_TRUE(t.nh == 2 && t.np == 1, "2 headings x 1 period");
    double H[12];
    PlRaoInterpolate(&t, 45.0 * kPi / 180, 8.0, H);
    CHECK_ABS(H[4], 0.1, 1e-15, "heave Re of body 2 (mode 9)");
    CHECK_ABS(H[5], 0.2, 1e-15, "heave Im");
    CHECK_ABS(H[8], 0.3, 1e-15, "pitch Re over ULEN (mode 11)");
    CHECK_ABS(H[9], -0.1, 1e-15, "pitch Im over ULEN");
    PlRaoFree(&t);
  }
  /* a refusal: its line and column */
  const char *bad = WriteFile("pl_rao_bad.csv", "heading,period,dof,amplitude,phase\n0,5,heave,0.75,30\n0,5,bob,1,0\n");
  PlRaoConventions cv = {PL_RAO_LAG, PL_RAO_TOWARDS, PL_RAO_DEG};
  CHECK_TRUE(PlRaoReadCsv(bad, &cv, &t, &e) == 1 && e.line == 3 && e.col == 5 &&
                 !strcmp(e.msg, "the dof 'bob' is none of surge, sway, heave, roll, pitch, yaw"),
             "an unknown DOF: line 3, column 5, its message");
}

static void Interpolation(void)
{
  const char *p = WriteFile("pl_rao_interp.csv", "heading,period,dof,amplitude,phase\n"
                                                 "10,4,heave,1,0\n10,8,heave,2,0\n"
                                                 "180,4,heave,3,0\n180,8,heave,4,0\n"
                                                 "350,4,heave,5,0\n350,8,heave,6,0\n");
  PlRaoConventions cv = {PL_RAO_LEAD, PL_RAO_TOWARDS, PL_RAO_RAD};
  PlRaoTable t = {0};
  PlRaoError e;
  CHECK_TRUE(PlRaoReadCsv(p, &cv, &t, &e) == 0, "reads");
  if (!t.block) return;
  double H[12];
  const double d = kPi / 180;
  PlRaoInterpolate(&t, 0.0, 6.0, H); /* halfway from 350 to 370: (5.5 + 1.5)/2 */
  CHECK_ABS(H[4], 3.5, 1e-15, "across 360 deg, halfway");
  PlRaoInterpolate(&t, 355 * d, 4.0, H);
  CHECK_ABS(H[4], 0.75 * 5 + 0.25 * 1, 1e-14, "355 deg: a quarter of the way from 350 to 10");
  PlRaoInterpolate(&t, -5 * d, 4.0, H);
  CHECK_ABS(H[4], 0.75 * 5 + 0.25 * 1, 1e-14, "-5 deg is 355 deg");
  PlRaoInterpolate(&t, 5 * d, 4.0, H);
  CHECK_ABS(H[4], 0.25 * 5 + 0.75 * 1, 1e-14, "5 deg: three quarters of the way from 350 to 10");
  PlRaoInterpolate(&t, 95 * d, 7.0, H); /* heading weight 85/170, period 3/4 */
  CHECK_ABS(H[4], 0.5 * (1.75) + 0.5 * (3.75), 1e-14, "bilinear inside");
  PlRaoInterpolate(&t, 180 * d, 100.0, H);
  CHECK_ABS(H[4], 4.0, 0.0, "the longest period held");
  PlRaoInterpolate(&t, 180 * d, 1.0, H);
  CHECK_ABS(H[4], 3.0, 0.0, "the shortest period held");
  PlRaoFree(&t);
}

/* A one-component Airy sea (phase 0: a crest at the origin at t = 0). */
static PlWaves *Airy(double T, double heading_deg, double *a, double *w, double *k, double *b, double *phi)
{
  PlWaveTrain tr;
  memset(&tr, 0, sizeof tr);
  tr.kind = PL_WAVE_AIRY;
  tr.amplitude = 1.5;
  tr.height = NAN;
  tr.period = T;
  tr.heading_deg = heading_deg;
  char err[256];
  PlWaves *wv = PlWavesCreate(200.0, 9.81, 1025.0, PL_STRETCH_VERTICAL, &tr, 1, err, sizeof err);
  if (!wv) fprintf(stderr, "%s\n", err);
  else PlWavesComponent(wv, 0, a, w, k, b, phi);
  return wv;
}

static void Phase(void)
{
  const double Phi = 35.0, R = 0.8;
  char text[512];
  snprintf(text, sizeof text, "heading,period,dof,amplitude,phase\n0,5,heave,%g,%g\n0,20,heave,%g,%g\n", R, Phi, R, Phi);
  const char *p = WriteFile("pl_rao_phase.csv", text);
  double a, w, k, b, phi;
  PlWaves *wv = Airy(10.0, 0.0, &a, &w, &k, &b, &phi);
  if (!wv) return;
  for (int lead = 0; lead < 2; lead++) {
    PlRaoConventions cv = {(PlRaoPhase)lead, PL_RAO_TOWARDS, PL_RAO_RAD};
    PlRaoTable t = {0};
    PlRaoError e;
    CHECK_TRUE(PlRaoReadCsv(p, &cv, &t, &e) == 0, "reads");
    if (!t.block) continue;
    const double r0[3] = {0, 0, 0};
    PlRaoMotion *m = PlRaoMotionCreate(&t, 1, &a, &w, &k, &b, &phi, r0, 0.0, 0.0);
    const double sgn = lead ? 1.0 : -1.0;
    for (int i = 0; i < 20; i++) {
      const double tt = 0.37 * i, x[3] = {0, 0, 0};
      double xi[6];
      PlRaoMotionEval(m, tt, xi, NULL, NULL);
      CHECK_ABS(PlWavesElevation(wv, x[0], x[1], tt), a * cos(w * tt), 1e-12, "a crest at the origin at t = 0");
      CHECK_ABS(xi[2], a * R * cos(w * tt + sgn * Phi * kPi / 180), 1e-12, "heave = a R cos(omega t -+ Phi)");
    }
    if (!lead) { /* the peak comes Phi/omega after the crest */
      double xi[6], xid[6];
      PlRaoMotionEval(m, Phi * kPi / 180 / w, xi, xid, NULL);
      CHECK_ABS(xid[2], 0.0, 1e-12, "lag: the heave's peak (zero rate) at omega t = Phi");
      CHECK_ABS(xi[2], a * R, 1e-12, "lag: its peak value a R");
    }
    PlRaoMotionDestroy(m);
    /* the phase origin 12 m up-wave (x = -12 with the waves travelling along +x) meets the
     * crest 12 k/omega earlier: the motion leads by k 12 */
    t.phase_origin[0] = -12.0;
    m = PlRaoMotionCreate(&t, 1, &a, &w, &k, &b, &phi, r0, 0.0, 0.0);
    double xi[6];
    PlRaoMotionEval(m, 1.3, xi, NULL, NULL);
    CHECK_ABS(xi[2], a * R * cos(w * 1.3 + 12.0 * k + sgn * Phi * kPi / 180), 1e-12, "the phase origin's crest");
    PlRaoMotionDestroy(m);
    /* forward speed 2 m/s into head seas (the body's heading 180 deg): encounter frequency */
    t.phase_origin[0] = 0.0;
    t.speed = 2.0;
    m = PlRaoMotionCreate(&t, 1, &a, &w, &k, &b, &phi, r0, kPi, 0.0);
    const double we = w + 2.0 * k;
    for (int i = 0; i < 5; i++) {
      PlRaoMotionEval(m, 3.1 * i, xi, NULL, NULL);
      CHECK_ABS(xi[2], a * R * cos(we * 3.1 * i + sgn * Phi * kPi / 180), 1e-12, "head seas at 2 m/s: omega_e");
    }
    PlRaoMotionDestroy(m);
    PlRaoFree(&t);
  }
  PlWavesDestroy(wv);
}

static void Rigid(void)
{
  const char *p = WriteFile("pl_rao_rigid.csv", "heading,period,dof,amplitude,phase\n"
                                                "0,8,surge,0.3,80\n0,8,sway,0.2,-20\n0,8,heave,0.9,10\n"
                                                "0,8,roll,0.04,100\n0,8,pitch,0.03,-70\n0,8,yaw,0.01,45\n");
  PlRaoConventions cv = {PL_RAO_LAG, PL_RAO_TOWARDS, PL_RAO_RAD};
  PlRaoTable t = {0};
  PlRaoError e;
  CHECK_TRUE(PlRaoReadCsv(p, &cv, &t, &e) == 0, "reads");
  if (!t.block) return;
  t.origin[0] = 3.0, t.origin[1] = -1.0, t.origin[2] = 2.0;
  double a, w, k, b, phi;
  PlWaves *wv = Airy(8.0, 30.0, &a, &w, &k, &b, &phi);
  if (!wv) return;
  const double r0[3] = {10, 20, 0}, P[3] = {-25.0, 4.0, -6.0}, Tr = 15.0;
  PlRaoMotion *m = PlRaoMotionCreate(&t, 1, &a, &w, &k, &b, &phi, r0, 0.4, Tr);
  double xi[6], xid[6], d[3], dd[3];
  PlRaoMotionEval(m, 0.0, xi, xid, NULL);
  double s0 = 0.0;
  for (int j = 0; j < 6; j++) s0 += fabs(xi[j]) + fabs(xid[j]);
  CHECK_ABS(s0, 0.0, 0.0, "the ramp starts the motion at rest");
  for (int i = 1; i < 12; i++) {
    const double tt = 2.3 * i;
    PlRaoMotionEval(m, tt, xi, xid, NULL);
    PlRaoPointMotion(m, xi, P, d);
    PlRaoPointMotion(m, xid, P, dd);
    /* the rigid-body transform: x_P = O + xi_t + (I + S(theta)) (P - O) */
    const double L[3] = {P[0] - t.origin[0], P[1] - t.origin[1], P[2] - t.origin[2]};
    const double Rs[9] = {1, -xi[5], xi[4], xi[5], 1, -xi[3], -xi[4], xi[3], 1};
    const double Rd[9] = {0, -xid[5], xid[4], xid[5], 0, -xid[3], -xid[4], xid[3], 0};
    for (int c = 0; c < 3; c++) {
      const double x = t.origin[c] + xi[c] + Rs[3 * c] * L[0] + Rs[3 * c + 1] * L[1] + Rs[3 * c + 2] * L[2];
      const double v = xid[c] + Rd[3 * c] * L[0] + Rd[3 * c + 1] * L[1] + Rd[3 * c + 2] * L[2];
      CHECK_ABS(P[c] + d[c], x, 1e-12, "the point's position: the rigid-body transform of the origin's motion");
      CHECK_ABS(dd[c], v, 1e-12, "its velocity likewise");
    }
    /* the rates are the motion's time derivatives */
    const double h = 1e-4;
    double xp[6], xm[6], xpd[6], xmd[6], xidd[6];
    PlRaoMotionEval(m, tt + h, xp, xpd, NULL);
    PlRaoMotionEval(m, tt - h, xm, xmd, NULL);
    PlRaoMotionEval(m, tt, xi, xid, xidd);
    for (int j = 0; j < 6; j++) {
      CHECK_ABS(xid[j], (xp[j] - xm[j]) / (2 * h), 1e-7, "xi' = d xi/dt");
      CHECK_ABS(xidd[j], (xpd[j] - xmd[j]) / (2 * h), 1e-7, "xi'' = d xi'/dt");
    }
  }
  PlRaoMotionDestroy(m);
  PlWavesDestroy(wv);
  PlRaoFree(&t);
}

static void LongWave(const char *dir)
{
  char path[1024];
  snprintf(path, sizeof path, "%s/raos/mss_supply/supply_raos.csv", dir);
  PlRaoConventions cv = {PL_RAO_LEAD, PL_RAO_TOWARDS, PL_RAO_RAD};
  PlRaoTable t = {0};
  PlRaoError e;
  if (PlRaoReadCsv(path, &cv, &t, &e)) {
    fprintf(stderr, "%s:%d:%d: %s\n", path, e.line, e.col, e.msg);
    CHECK_TRUE(0, "the shipped table reads");
    return;
  }
  CHECK_TRUE(t.nh == 36 && t.np == 36, "36 headings x 36 periods");
  const double T = t.block[t.nh + t.np - 1], w = 2 * kPi / T, k = w * w / 9.81;
  CHECK_ABS(T, 60.0, 1e-4, "the longest period 60 s");
  double worst[3] = {0, 0, 0};
  for (int h = 0; h < 360; h += 10) {
    const double beta = h * kPi / 180, c = cos(beta);
    double H[12];
    PlRaoInterpolate(&t, beta, T, H);
    const double heave = hypot(H[4], H[5]), surge = hypot(H[0], H[1]), pitch = hypot(H[8], H[9]);
    CHECK_ABS(heave, 1.0, 1e-3, "heave amplitude -> 1");
    CHECK_ABS(atan2(H[5], H[4]) * 180 / kPi, 0.0, 1.0, "heave in phase with the crest");
    CHECK_ABS(surge, fabs(c), 0.01, "surge -> |cos beta|");
    CHECK_ABS(pitch / k, fabs(c), 0.04, "pitch -> k |cos beta| (the wave slope)");
    worst[0] = fmax(worst[0], fabs(heave - 1.0));
    worst[1] = fmax(worst[1], fabs(surge - fabs(c)));
    worst[2] = fmax(worst[2], fabs(pitch / k - fabs(c)));
    if (fabs(c) > 0.5) {
      const double s = c > 0 ? 1.0 : -1.0; /* lead -90 (a lag of 90) travelling forward */
      CHECK_ABS(atan2(H[1], H[0]) * 180 / kPi, -90.0 * s, 2.0, "surge lags 90 deg (waves forward), leads (aft)");
      CHECK_ABS(atan2(H[9], H[8]) * 180 / kPi, 90.0 * s, 2.0, "pitch leads 90 deg (waves forward), lags (aft)");
    }
  }
  printf("long waves (T = %.4g s): |heave - 1| <= %.2e, |surge - |cos b|| <= %.2e, |pitch/k - |cos b|| <= %.2e\n", T,
         worst[0], worst[1], worst[2]);
  PlRaoFree(&t);
}

int main(int argc, char **argv)
{
  const char *c = argc > 1 ? argv[1] : "";
  if (!strcmp(c, "conventions")) Conventions();
  else if (!strcmp(c, "interpolation")) Interpolation();
  else if (!strcmp(c, "phase")) Phase();
  else if (!strcmp(c, "rigid")) Rigid();
  else if (!strcmp(c, "long_wave") && argc > 2) LongWave(argv[2]);
  else {
    fprintf(stderr, "usage: test_rao conventions|interpolation|phase|rigid|long_wave EXAMPLES_DIR\n");
    return 2;
  }
  return pl_check_failures ? 1 : 0;
}
