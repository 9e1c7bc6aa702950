/*
 * bench_waves.c - cost of the sea's kinematics service (models/waves.c) per point and per
 * component: the 2 Gauss points of each of the 739 elements of a 740-node line (1478 points,
 * from the seabed at -100 m up to -1 m, 900 m horizontally, as a J-lay's line lies), all
 * evaluated at one time ("one residual evaluation"), repeated over time steps.
 *
 * Seas: a long-crested JONSWAP (Hs 4 m, Tp 10 s, gamma 3.3) of N = 200 and 1000 components in
 * 100 m of water, for each stretching; and the same points placed near the surface (-1..-10 m)
 * where no component is skipped. Prints the median over the repeats (default 7) of the
 * process CPU time (not wall time: the development machine is shared) in ns per point per
 * component of PlWavesKinematics (with the gradients), of PlWavesFluidValues (the values a
 * residual evaluation needs) and of PlWavesElevation for reference.
 * usage: bench_waves [REPEATS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "pipelay/waves.h"

static double Now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts); /* CPU time: the machine is shared */
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static int Cmp(const void *a, const void *b)
{
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

enum { NPTS = 1478, NSTEPS = 5 };

/* ns per point per component, the median of the repeats; mode 0 PlWavesKinematics, 1
 * PlWavesElevation, 2 PlWavesFluidValues (no gradients) */
static double Time(PlWaves *w, int ncomp, double pts[][3], int repeats, int mode, double *sink)
{
  double ts[32];
  for (int r = 0; r < repeats; ++r) {
    const double t0 = Now();
    for (int s = 0; s < NSTEPS; ++s) {
      const double t = 100.0 + 0.1 * s;
      for (int i = 0; i < NPTS; ++i) {
        if (mode == 1) *sink += PlWavesElevation(w, pts[i][0], pts[i][1], t);
        else if (mode == 2) {
          PlWaveKin k;
          PlWavesFluidValues(w, NULL, pts[i], t, &k);
          *sink += k.u[0] + k.a[1];
        } else {
          PlWaveKin k;
          PlWavesKinematics(w, pts[i], t, &k);
          *sink += k.u[0] + k.du_dx[4];
        }
      }
    }
    ts[r] = (Now() - t0) / ((double)NSTEPS * NPTS * ncomp) * 1e9;
  }
  qsort(ts, repeats, sizeof *ts, Cmp);
  return ts[repeats / 2];
}

int main(int argc, char **argv)
{
  int repeats = argc > 1 ? atoi(argv[1]) : 7;
  if (repeats < 1) repeats = 1;
  if (repeats > 32) repeats = 32;
  static double deep[NPTS][3], shallow[NPTS][3];
  for (int i = 0; i < NPTS; ++i) {
    const double r = (double)i / (NPTS - 1);
    deep[i][0] = 900.0 * r, deep[i][1] = 5.0 * r, deep[i][2] = -100.0 + 99.0 * r * r;
    shallow[i][0] = 900.0 * r, shallow[i][1] = 5.0 * r, shallow[i][2] = -10.0 + 9.0 * r;
  }
  const PlWaveStretching sts[] = {PL_STRETCH_VERTICAL, PL_STRETCH_WHEELER, PL_STRETCH_EXTRAPOLATION};
  const char *names[] = {"vertical", "Wheeler", "extrapolation"};
  const int ns[] = {200, 1000};
  double sink = 0.0;
  printf("CPU ns per point per component (median of %d; %d points x %d times)\n", repeats, NPTS, NSTEPS);
  printf("%-14s %6s %12s %12s %12s %12s\n", "stretching", "N", "line", "near surface", "values only", "eta only");
  for (int s = 0; s < 3; ++s)
    for (int c = 0; c < 2; ++c) {
      PlWaveTrain tr;
      memset(&tr, 0, sizeof tr);
      tr.kind = PL_WAVE_JONSWAP, tr.hs = 4.0, tr.tp = 10.0, tr.gamma = 3.3, tr.n_components = ns[c], tr.seed = 1;
      char err[256];
      PlWaves *w = PlWavesCreate(100.0, 9.81, 1025.0, sts[s], &tr, 1, err, sizeof err);
      if (!w) {
        fprintf(stderr, "%s\n", err);
        return 1;
      }
      const double a = Time(w, ns[c], deep, repeats, 0, &sink), b = Time(w, ns[c], shallow, repeats, 0, &sink);
      const double v = Time(w, ns[c], deep, repeats, 2, &sink), e = Time(w, ns[c], shallow, repeats, 1, &sink);
      printf("%-14s %6d %12.1f %12.1f %12.1f %12.1f\n", names[s], ns[c], a, b, v, e);
      PlWavesDestroy(w);
    }
  printf("(checksum %g)\n", sink);
  return 0;
}
