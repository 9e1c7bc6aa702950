/*
 * drive_jlay.c - runs MoorDyn (v2 C API) on the J-lay written by jlay_input.py with its top
 * (the input's one coupled point) moved on pipelay's `motion: circle` path, and writes the top
 * tension (bench/moordyn_jlay.sh). Not part of pipelay: a benchmark driver.
 *
 *   drive_jlay INPUT SHAPE X0 RADIUS PERIOD RAMP_UP HOLD RAMP_DOWN DIRECTION DT T DT_OUT SERIES
 *
 * The start is pipelay's static shape: SHAPE is pipelay's static.csv (the nodes' S_m, x_m, y_m,
 * z_m), one row per MoorDyn node. MoorDyn places a line's nodes on its own catenary at start
 * (MoorDyn_Init_NoIC); that state is saved (MoorDyn_SaveState: the nodes' positions and
 * velocities as IEEE doubles), each interior node's position, found there by its bits, is
 * replaced by pipelay's, and a second instance of the model (INPUT with the option fileIC naming
 * that state, written beside INPUT as INPUT.ic.txt) starts from it with MoorDyn's own static
 * solve (MoorDyn_Init with its stationary scheme, as INPUT's ICgenDynamic, TmaxIC and threshIC
 * set it): MoorDyn's equilibrium nearest to pipelay's shape. SHAPE "-": MoorDyn's own start
 * (its catenary, then its static solve) instead.
 *
 * X0 the top's static x (the coupled point's position at rest: (X0, 0, 0)); RADIUS, PERIOD,
 * RAMP_UP, HOLD, RAMP_DOWN the circle (start time 0) and DIRECTION +1 counter-clockwise, -1
 * clockwise, as models/motion.c: the offset d(t) = r a(t) (cos th, sin th, 0), th = +-2 pi t /
 * PERIOD, a the quintic ramp f(s) = s^3 (10 - 15 s + 6 s^2) from 0 to 1 over RAMP_UP, 1 for HOLD,
 * 1 - f over RAMP_DOWN, 0 after. DT the coupling step [s]: MoorDyn is stepped from t to t + DT
 * with the point at its place on the path at t and the velocity (d(t + DT) - d(t)) / DT, so it
 * moves along the chord and ends each step on the path (MoorDyn moves a coupled point linearly
 * within a step); with DT = dtM each call is one MoorDyn step. T the simulated time, DT_OUT the
 * output interval (a multiple of DT), SERIES the CSV written: t_s, top_tension_N, the tension of
 * the line's top segment (MoorDyn's node tension at the top node: EA times the segment's strain,
 * BA being 0), the axial force of the element at the top as pipelay's timeseries_top.csv gives
 * it.
 *
 * Prints one line, the last of its standard output (MoorDyn writes its log there before it): the
 * wall times of the initial conditions (the catenary start, the state's patch and MoorDyn_Init's
 * static solve) and of the time loop [s], the steps, the static top tension [N] (the top
 * segment's), the static force of the line on the top point, horizontal and vertical [N], and the
 * number of segments.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "MoorDyn2.h"

static double R, Per, Up, Hold, Down, Dir;

static double Now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static double Ramp(double s)
{
  if (s <= 0.0) return 0.0;
  if (s >= 1.0) return 1.0;
  return s * s * s * (10.0 - 15.0 * s + 6.0 * s * s);
}

/* The top's offset from its static place at time t. */
static void Circle(double t, double d[3])
{
  double a = 0.0;
  if (t <= 0.0 || t >= Up + Hold + Down) a = 0.0;
  else if (t < Up) a = Up > 0.0 ? Ramp(t / Up) : 1.0;
  else if (t <= Up + Hold) a = 1.0;
  else a = Down > 0.0 ? 1.0 - Ramp((t - Up - Hold) / Down) : 0.0;
  const double th = Dir * 2.0 * M_PI * t / Per;
  d[0] = R * a * cos(th);
  d[1] = R * a * sin(th);
  d[2] = 0.0;
}

static double TopTension(MoorDynLine line, unsigned int nseg)
{
  double ten[3];
  if (MoorDyn_GetLineNodeTen(line, nseg, ten)) return NAN;
  return sqrt(ten[0] * ten[0] + ten[1] * ten[1] + ten[2] * ten[2]);
}

/* The top segment's tension from the nodes' positions, EA (l / l0 - 1) as MoorDyn's own
 * (BA = 0): MoorDyn's node tensions are set by its force evaluations, the first of which is in
 * the first step. */
static double TopTensionOfShape(MoorDynLine line, unsigned int nseg)
{
  double a[3], b[3], ea, ul;
  if (MoorDyn_GetLineNodePos(line, nseg - 1, a) || MoorDyn_GetLineNodePos(line, nseg, b) ||
      MoorDyn_GetLineConstantEA(line, &ea) || MoorDyn_GetLineUnstretchedLength(line, &ul))
    return NAN;
  const double l = sqrt((b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1]) + (b[2] - a[2]) * (b[2] - a[2]));
  return ea * (l / (ul / nseg) - 1.0);
}

/* Reads pipelay's static.csv: n rows of x, y, z into xyz (3 n). Returns n, or -1. */
static int ReadShape(const char *path, double *xyz, int nmax)
{
  FILE *f = fopen(path, "r");
  char buf[8192];
  int n = 0;
  if (!f || !fgets(buf, sizeof buf, f)) return -1;
  if (strncmp(buf, "S_m,x_m,y_m,z_m,", 16)) return -1;
  while (n < nmax && fgets(buf, sizeof buf, f)) {
    double s;
    if (sscanf(buf, "%lf,%lf,%lf,%lf", &s, xyz + 3 * n, xyz + 3 * n + 1, xyz + 3 * n + 2) == 4) ++n;
  }
  fclose(f);
  return n;
}

/* Writes the state file ic of pipelay's shape: the state MoorDyn saved at its catenary start
 * (cat: a 9-byte header, "MoorDyn" and two version bytes, then 64-bit words) with each interior
 * node's position (cur, as MoorDyn reports it) replaced by pipelay's (xyz). A node's three
 * coordinates are found as three consecutive words holding its doubles' bits (MoorDyn stores a
 * line's state row by row: position, velocity); each must occur once. */
static int PatchState(const char *cat, const char *ic, const double *cur, const double *xyz, unsigned nseg)
{
  enum { kHead = 9 };
  FILE *f = fopen(cat, "rb");
  if (!f) return 1;
  fseek(f, 0, SEEK_END);
  const long bytes = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char head[kHead];
  const size_t nw = (bytes - kHead) / 8;
  uint64_t *w = malloc(nw * 8 + 8);
  if (bytes < kHead || (bytes - kHead) % 8 || !w || fread(head, 1, kHead, f) != kHead || memcmp(head, "MoorDyn", 7) ||
      fread(w, 8, nw, f) != nw) {
    fprintf(stderr, "drive_jlay: %s: not a MoorDyn state file\n", cat);
    return 1;
  }
  fclose(f);
  for (unsigned i = 1; i < nseg; ++i) {
    uint64_t key[3], rep[3];
    memcpy(key, cur + 3 * i, 24);
    memcpy(rep, xyz + 3 * i, 24);
    long at = -1;
    for (size_t k = 0; k + 2 < nw; ++k)
      if (w[k] == key[0] && w[k + 1] == key[1] && w[k + 2] == key[2]) {
        if (at >= 0) {
          fprintf(stderr, "drive_jlay: node %u's position occurs twice in the saved state\n", i);
          return 1;
        }
        at = (long)k;
      }
    if (at < 0) {
      fprintf(stderr, "drive_jlay: node %u's position not found in the saved state\n", i);
      return 1;
    }
    memcpy(w + at, rep, 24);
  }
  f = fopen(ic, "wb");
  if (!f || fwrite(head, 1, kHead, f) != kHead || fwrite(w, 8, nw, f) != nw || fclose(f)) return 1;
  free(w);
  return 0;
}

/* INPUT with the option "STATE fileIC" added after its OPTIONS header, written to out. */
static int WriteIcInput(const char *input, const char *state, const char *out)
{
  FILE *f = fopen(input, "r"), *g = fopen(out, "w");
  char buf[8192];
  int done = 0;
  if (!f || !g) return 1;
  while (fgets(buf, sizeof buf, f)) {
    fputs(buf, g);
    if (!done && strstr(buf, "OPTIONS")) fprintf(g, "%s fileIC\n", state), done = 1;
  }
  fclose(f);
  return fclose(g) || !done;
}

/* A MoorDyn instance of INPUT started from pipelay's shape (SHAPE, static.csv) with the top at
 * x: MoorDyn's catenary start (MoorDyn_Init_NoIC) saved, the interior nodes' positions replaced
 * by pipelay's, and a second instance (INPUT.ic.txt: INPUT with fileIC naming that state)
 * initialised from it by MoorDyn_Init (MoorDyn's static solve). NULL on failure. */
static MoorDyn StartFromShape(const char *input, const char *shape, const double x[3], const double xd[3])
{
  unsigned int nseg = 0;
  MoorDyn sys = MoorDyn_Create(input);
  MoorDynLine line = sys ? MoorDyn_GetLine(sys, 1) : NULL;
  if (!line || MoorDyn_GetLineN(line, &nseg) || MoorDyn_Init_NoIC(sys, x, xd)) return NULL;
  double *cur = malloc(sizeof(double) * 3 * (nseg + 1)), *xyz = malloc(sizeof(double) * 3 * (nseg + 2));
  if (!cur || !xyz) return NULL;
  if (ReadShape(shape, xyz, nseg + 2) != (int)nseg + 1) {
    fprintf(stderr, "drive_jlay: %s: expected %u nodes\n", shape, nseg + 1);
    return NULL;
  }
  for (unsigned i = 0; i <= nseg; ++i)
    if (MoorDyn_GetLineNodePos(line, i, cur + 3 * i)) return NULL;
  char cat[4096], ic[4096], icin[4096];
  snprintf(cat, sizeof cat, "%s.catenary.bin", input);
  snprintf(ic, sizeof ic, "%s.pipelay.bin", input);
  snprintf(icin, sizeof icin, "%s.ic.txt", input);
  const char *slash = strrchr(ic, '/'); /* MoorDyn reads fileIC beside the input file */
  if (MoorDyn_SaveState(sys, cat) || PatchState(cat, ic, cur, xyz, nseg) ||
      WriteIcInput(input, slash ? slash + 1 : ic, icin)) {
    fprintf(stderr, "drive_jlay: cannot write the start's state\n");
    return NULL;
  }
  free(cur);
  free(xyz);
  MoorDyn_Close(sys);
  sys = MoorDyn_Create(icin);
  if (!sys || MoorDyn_Init(sys, x, xd)) return NULL;
  return sys;
}

int main(int argc, char **argv)
{
  if (argc != 14) {
    fprintf(stderr, "usage: drive_jlay INPUT SHAPE X0 RADIUS PERIOD RAMP_UP HOLD RAMP_DOWN DIRECTION DT T DT_OUT SERIES\n");
    return 2;
  }
  ++argv; /* the arguments after SHAPE keep their places below */
  const char *input = argv[0], *shape = argv[1];
  const double x0 = atof(argv[2]);
  R = atof(argv[3]), Per = atof(argv[4]), Up = atof(argv[5]), Hold = atof(argv[6]), Down = atof(argv[7]);
  Dir = atof(argv[8]) < 0 ? -1.0 : 1.0;
  const double dt = atof(argv[9]), tend = atof(argv[10]), dtout = atof(argv[11]);
  const long nsteps = lround(tend / dt), every = lround(dtout / dt);
  if (!(dt > 0) || nsteps < 1 || every < 1 || fabs(every * dt - dtout) > 1e-9 * dtout || !(Per > 0)) {
    fprintf(stderr, "drive_jlay: DT, T, DT_OUT and PERIOD must be positive and DT_OUT a multiple of DT\n");
    return 2;
  }
  FILE *out = fopen(argv[12], "w");
  if (!out) {
    fprintf(stderr, "drive_jlay: cannot write %s\n", argv[12]);
    return 2;
  }
  double x[3] = {x0, 0.0, 0.0}, xd[3] = {0.0, 0.0, 0.0}, f[3], d0[3], d1[3];
  unsigned int ndof = 0, nseg = 0;
  const double t0 = Now();
  MoorDyn sys = NULL;
  if (strcmp(shape, "-")) sys = StartFromShape(input, shape, x, xd);
  else if ((sys = MoorDyn_Create(input)) && MoorDyn_Init(sys, x, xd)) sys = NULL;
  MoorDynLine line = sys ? MoorDyn_GetLine(sys, 1) : NULL;
  if (!line || MoorDyn_NCoupledDOF(sys, &ndof) || ndof != 3 || MoorDyn_GetLineN(line, &nseg)) {
    fprintf(stderr, "drive_jlay: %s: cannot start (one line and one coupled point expected)\n", input);
    return 1;
  }
  const double t1 = Now();
  double t = 0.0, h = 0.0;
  if (MoorDyn_Step(sys, x, xd, f, &t, &h)) return 1; /* h = 0: the forces only */
  const double T0 = TopTensionOfShape(line, nseg);
  fprintf(out, "t_s,top_tension_N\n%.17g,%.17g\n", 0.0, T0);
  for (long k = 0; k < nsteps; ++k) {
    const double ta = k * dt;
    Circle(ta, d0);
    Circle(ta + dt, d1);
    for (int i = 0; i < 3; ++i) {
      x[i] = (i == 0 ? x0 : 0.0) + d0[i];
      xd[i] = (d1[i] - d0[i]) / dt;
    }
    t = ta;
    h = dt;
    if (MoorDyn_Step(sys, x, xd, f, &t, &h)) {
      fprintf(stderr, "drive_jlay: MoorDyn failed at t = %g s\n", ta);
      return 1;
    }
    if ((k + 1) % every) continue;
    const double tt = TopTension(line, nseg);
    if (!isfinite(tt)) {
      fprintf(stderr, "drive_jlay: the top tension is not finite at t = %g s\n", ta + dt);
      return 1;
    }
    fprintf(out, "%.17g,%.17g\n", (k + 1) * dt, tt);
  }
  const double t2 = Now();
  fclose(out);
  printf("%.3f %.3f %ld %.6f %.6f %.6f %u\n", t1 - t0, t2 - t1, nsteps, T0, hypot(f[0], f[1]), f[2], nseg);
  MoorDyn_Close(sys);
  return 0;
}
