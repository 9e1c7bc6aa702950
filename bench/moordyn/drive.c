/*
 * drive.c - times MoorDyn (v2 C API) on the OC3-Hywind moorings with the fairleads moved as a
 * pipelay run moved them (bench/moordyn_oc3.sh). Not part of pipelay: a benchmark driver.
 *
 *   drive INPUT SERIES DT T
 *
 * INPUT a MoorDyn input file with three coupled points (the fairleads, at radius 5.2 m, 70 m
 * below the still water line; MoorDyn's line 1 runs along +x, pipelay's along -x, so the motion
 * is mirrored: x -> -x, pitch -> -pitch); SERIES a pipelay body time series
 * (timeseries_NAME.csv: t_s, x_m, y_m, z_m, roll_deg, pitch_deg, ...) of a body whose O_b is
 * 78 m below the still water line in the design pose (verification/oc3_hywind); DT the coupling
 * step [s] (MoorDyn sub-steps it with its dtM); T the simulated time [s]. Prints the wall time
 * of the initial conditions and of the time loop.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "MoorDyn2.h"

#define NMAX 200000
static double T[NMAX], X[NMAX], Z[NMAX], P[NMAX];
static int n;

static double Now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* The three fairleads at time t (the series interpolated linearly, mirrored). */
static void Fairleads(double t, double x[9])
{
  static const double fa[3][3] = {{5.2, 0, -70}, {-2.6, 4.5, -70}, {-2.6, -4.5, -70}};
  const double zo = -78.0;
  int k = 0;
  while (k + 2 < n && T[k + 1] < t) ++k;
  double a = (t - T[k]) / (T[k + 1] - T[k]);
  a = a < 0 ? 0 : a > 1 ? 1 : a;
  const double xx = -(X[k] + a * (X[k + 1] - X[k])), zz = Z[k] + a * (Z[k + 1] - Z[k]);
  const double p = -(P[k] + a * (P[k + 1] - P[k]));
  for (int q = 0; q < 3; ++q) {
    const double bx = fa[q][0], by = fa[q][1], bz = fa[q][2] - zo;
    x[3 * q] = xx + cos(p) * bx + sin(p) * bz;
    x[3 * q + 1] = by;
    x[3 * q + 2] = zz - sin(p) * bx + cos(p) * bz;
  }
}

int main(int argc, char **argv)
{
  if (argc != 5) {
    fprintf(stderr, "usage: drive INPUT SERIES DT T\n");
    return 2;
  }
  FILE *f = fopen(argv[2], "r");
  char line[8192];
  if (!f || !fgets(line, sizeof line, f)) {
    fprintf(stderr, "drive: cannot read %s\n", argv[2]);
    return 2;
  }
  while (n < NMAX && fgets(line, sizeof line, f)) {
    double v[6];
    if (sscanf(line, "%lf,%lf,%lf,%lf,%lf,%lf", v, v + 1, v + 2, v + 3, v + 4, v + 5) != 6) continue;
    T[n] = v[0], X[n] = v[1], Z[n] = v[3], P[n] = v[5] * M_PI / 180.0;
    ++n;
  }
  fclose(f);
  const double dtc = atof(argv[3]), tend = atof(argv[4]);
  if (n < 2 || !(dtc > 0) || !(tend > 0)) {
    fprintf(stderr, "drive: a series of at least 2 rows and positive DT and T are needed\n");
    return 2;
  }
  MoorDyn sys = MoorDyn_Create(argv[1]);
  unsigned int ndof = 0;
  if (!sys || MoorDyn_NCoupledDOF(sys, &ndof) || ndof != 9) {
    fprintf(stderr, "drive: %s: expected 3 coupled points\n", argv[1]);
    return 1;
  }
  double x[9], xd[9] = {0}, fo[9], x1[9];
  Fairleads(0.0, x);
  const double t0 = Now();
  if (MoorDyn_Init(sys, x, xd)) return 1;
  const double t1 = Now();
  double t = 0.0;
  long steps = 0;
  while (t < tend - 1e-9) {
    double dt = dtc;
    Fairleads(t, x);
    Fairleads(t + dtc, x1);
    for (int i = 0; i < 9; ++i) xd[i] = (x1[i] - x[i]) / dtc;
    if (MoorDyn_Step(sys, x, xd, fo, &t, &dt)) {
      fprintf(stderr, "drive: MoorDyn failed at t = %g s\n", t);
      return 1;
    }
    ++steps;
  }
  const double t2 = Now();
  printf("%.3f %.3f %ld %.1f\n", t1 - t0, t2 - t1, steps, hypot(fo[0], fo[2]));
  MoorDyn_Close(sys);
  return 0;
}
