/*
 * test_output.c - the VTK writer of output/ on a synthetic dynamic run, and the files a
 * dynamic run leaves for plotting.
 *
 *   test_output DIR
 *
 * Writes into DIR (created) what a dynamic run of a 40-element line with two sections
 * (d_o = 0.762 m below S = 50 m, 0.5 m above) would leave: static.csv, the static VTK
 * series, a dynamic VTK series of 11 output times (t = 0 ... 5 s) in which the line sways
 * x(S, t) = x0(S) + a (S/L) sin(2 pi t / T), with an extra hexahedron block "box" riding on
 * the top end at every output time, and envelopes.csv and timeseries_{bottom,mid,top}.csv
 * in the documented formats. tests/check_vtk.py then reads the VTK files back with VTK,
 * and "pipelay plot DIR" plots the CSV files.
 * Checked here (quiet on success): the .pvd lists every output so far after each write
 * (what an interrupted run leaves); a static series keeps one output when written twice;
 * the writer removes dynamic_*.vtu of an earlier run; a time that does not increase and an
 * empty line are refused with PL_EXIT_FAILURE; an output path under a regular file gives
 * PL_EXIT_IO with a message.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "check.h"
#include "pipelay/output.h"

enum { kNodes = 41, kOutputs = 11 };

static const double kLength = 100.0, kAmplitude = 2.0, kPeriod = 4.0;

/* Stations of the synthetic line at time t: a quarter circle of radius 100/(pi/2) m. */
static void Stations(double t, PlStation *s)
{
  const double R = kLength / (M_PI / 2);
  for (int i = 0; i < kNodes; ++i) {
    const double S = kLength * i / (kNodes - 1), a = S / R;
    memset(&s[i], 0, sizeof s[i]);
    s[i].S = S;
    s[i].x[0] = R * sin(a) + kAmplitude * (S / kLength) * sin(2 * M_PI * t / kPeriod);
    s[i].x[1] = 0.1 * S * t;
    s[i].x[2] = -R + R * (1 - cos(a)) - 10.0;
    s[i].tension = 1e5 + 1e3 * S + 5e3 * sin(2 * M_PI * t / kPeriod);
    s[i].shear[0] = 1.0 / 3.0;
    s[i].shear[1] = -S;
    s[i].torque = 1e-20 * i;
    s[i].moment[0] = 1e6 / 3.0 * sin(a) * (1 + 0.1 * t);
    s[i].moment[1] = -2e3 * t;
    s[i].curvature = 1.0 / R;
    s[i].axial_strain = 1e-5 * S;
    s[i].seabed_force = S < 20 ? 1234.5 : 0.0;
    s[i].t2[1] = 1.0;
    s[i].t3[0] = -sin(a);
    s[i].t3[2] = cos(a);
  }
}

static int CountDataSets(const char *path)
{
  char buf[1 << 16];
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  const size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  if (!strstr(buf, "</VTKFile>")) return -1;
  int count = 0;
  for (const char *p = buf; (p = strstr(p, "<DataSet ")); ++p) ++count;
  return count;
}

static void WriteRow(FILE *f, const PlStation *s, double t)
{
  fprintf(f, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", t, s->x[0], s->x[1], s->x[2],
          s->tension, s->moment[0], s->moment[1], s->curvature);
}

int main(int argc, char **argv)
{
  if (argc != 2) {
    fprintf(stderr, "usage: test_output DIR\n");
    return 2;
  }
  const char *dir = argv[1];
  char path[2048];
  PlError err;
  PlModel *m = calloc(1, sizeof *m);
  if (!m) return 1;
  PlSegment segs[2] = {{0}};
  m->nsegments = 2;
  m->segments = segs; /* the test's (m is freed with free()) */
  m->segments[0].length = 50.0;
  m->segments[0].section.outer_diameter = 0.762;
  m->segments[1].length = 50.0;
  m->segments[1].section.outer_diameter = 0.5;
  m->length = kLength;

  /* static.csv, and a static series written twice (it keeps the last) */
  PlStation s0[kNodes], s[kNodes], smin[kNodes], smax[kNodes];
  Stations(0.0, s0);
  CHECK_TRUE(mkdir(dir, 0777) == 0 || errno == EEXIST, "create DIR");
  snprintf(path, sizeof path, "%s/static.csv", dir);
  FILE *f = fopen(path, "w");
  CHECK_TRUE(f != NULL, "write static.csv");
  if (!f) return CHECK_DONE();
  fputs("S_m,x_m,y_m,z_m,effective_tension_N,shear_force_2_N,shear_force_3_N,torque_Nm,"
        "bending_moment_2_Nm,bending_moment_3_Nm,curvature_1pm,axial_strain,seabed_force_Npm,"
        "t2_x,t2_y,t2_z,t3_x,t3_y,t3_z\n", f);
  for (int i = 0; i < kNodes; ++i) {
    const PlStation *a = &s0[i];
    fprintf(f, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,"
               "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n",
            a->S, a->x[0], a->x[1], a->x[2], a->tension, a->shear[0], a->shear[1], a->torque,
            a->moment[0], a->moment[1], a->curvature, a->axial_strain, a->seabed_force, a->t2[0],
            a->t2[1], a->t2[2], a->t3[0], a->t3[1], a->t3[2]);
  }
  CHECK_TRUE(fclose(f) == 0, "close static.csv");
  PlVtkSeries vs;
  Stations(1.0, s);
  CHECK_TRUE(PlVtkSeriesCreate(dir, PL_VTK_STATIC, m, &vs, &err) == 0, err.msg);
  CHECK_TRUE(PlVtkSeriesWrite(vs, 0.0, s, kNodes, &err) == 0, err.msg);
  CHECK_TRUE(PlVtkSeriesWrite(vs, 0.0, s0, kNodes, &err) == 0, err.msg);
  CHECK_TRUE(PlVtkSeriesFinish(vs, &err) == 0, err.msg);
  PlVtkSeriesDestroy(&vs);
  CHECK_TRUE(vs == NULL, "Destroy sets the handle to NULL");
  PlVtkSeriesDestroy(&vs);
  snprintf(path, sizeof path, "%s/static.pvd", dir);
  CHECK_TRUE(CountDataSets(path) == 1, "static.pvd lists one data set after two writes");

  /* a stale file of an earlier dynamic run */
  snprintf(path, sizeof path, "%s/vtk/dynamic_000099.vtu", dir);
  f = fopen(path, "w");
  if (f) fclose(f);

  /* the dynamic series with an extra block, the time series and the envelopes */
  CHECK_TRUE(PlVtkSeriesCreate(dir, PL_VTK_DYNAMIC, m, &vs, &err) == 0, err.msg);
  if (!vs) return CHECK_DONE();
  struct stat sb;
  char stale[2048];
  snprintf(stale, sizeof stale, "%s", path);
  CHECK_TRUE(stat(stale, &sb) == 0, "the stale dynamic_000099.vtu stays while the run writes (frames are written over)");
  snprintf(path, sizeof path, "%s/dynamic.pvd", dir);
  CHECK_TRUE(CountDataSets(path) == 0, "a new dynamic.pvd is an empty, valid collection");
  FILE *ts[3];
  static const char *const names[3] = {"bottom", "mid", "top"};
  const int node[3] = {0, kNodes / 2, kNodes - 1};
  for (int k = 0; k < 3; ++k) {
    char p[2048];
    snprintf(p, sizeof p, "%s/timeseries_%s.csv", dir, names[k]);
    ts[k] = fopen(p, "w");
    CHECK_TRUE(ts[k] != NULL, "open a time series");
    if (!ts[k]) return CHECK_DONE();
    fputs("t_s,x_m,y_m,z_m,effective_tension_N,bending_moment_2_Nm,bending_moment_3_Nm,curvature_1pm\n", ts[k]);
  }
  for (int j = 0; j < kOutputs; ++j) {
    const double t = 0.5 * j;
    Stations(t, s);
    for (int i = 0; i < kNodes; ++i) {
      if (j == 0) smin[i] = smax[i] = s[i];
      for (int c = 0; c < 3; ++c) {
        smin[i].x[c] = fmin(smin[i].x[c], s[i].x[c]);
        smax[i].x[c] = fmax(smax[i].x[c], s[i].x[c]);
      }
      for (int c = 0; c < 2; ++c) {
        smin[i].moment[c] = fmin(smin[i].moment[c], s[i].moment[c]);
        smax[i].moment[c] = fmax(smax[i].moment[c], s[i].moment[c]);
      }
      smin[i].tension = fmin(smin[i].tension, s[i].tension);
      smax[i].tension = fmax(smax[i].tension, s[i].tension);
    }
    /* a 4 m x 2 m x 1 m box centred on the top end (VTK_HEXAHEDRON point order) */
    double box[24];
    static const int corner[8][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                                     {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};
    for (int v = 0; v < 8; ++v) {
      box[3 * v + 0] = s[kNodes - 1].x[0] + 2.0 * corner[v][0];
      box[3 * v + 1] = s[kNodes - 1].x[1] + 1.0 * corner[v][1];
      box[3 * v + 2] = s[kNodes - 1].x[2] + 0.5 * corner[v][2];
    }
    const int64_t conn[8] = {0, 1, 2, 3, 4, 5, 6, 7}, off = 8;
    const uint8_t type = 12;
    const PlVtkBlock extra = {"box", 8, box, 1, conn, &off, &type, 0, NULL};
    CHECK_TRUE(PlVtkSeriesWriteBlocks(vs, t, s, kNodes, &extra, 1, &err) == 0, err.msg);
    CHECK_TRUE(CountDataSets(path) == 2 * (j + 1), "dynamic.pvd lists every output written so far");
    for (int k = 0; k < 3; ++k) WriteRow(ts[k], &s[node[k]], t);
  }
  for (int k = 0; k < 3; ++k) CHECK_TRUE(fclose(ts[k]) == 0, "close a time series");
  CHECK_TRUE(PlVtkSeriesWrite(vs, 5.0, s, kNodes, &err) == PL_EXIT_FAILURE, "a repeated time is refused");
  CHECK_TRUE(PlVtkSeriesWrite(vs, 6.0, s, 0, &err) == PL_EXIT_FAILURE, "an empty line is refused");
  CHECK_TRUE(CountDataSets(path) == 2 * kOutputs, "refused writes leave the collection alone");
  CHECK_TRUE(PlVtkSeriesFinish(vs, &err) == 0, err.msg);
  PlVtkSeriesDestroy(&vs);
  CHECK_TRUE(stat(stale, &sb) != 0, "the stale dynamic_000099.vtu, beyond this run's frames, is removed at the end");

  snprintf(path, sizeof path, "%s/envelopes.csv", dir);
  f = fopen(path, "w");
  CHECK_TRUE(f != NULL, "write envelopes.csv");
  if (!f) return CHECK_DONE();
  fputs("S_m,dx_min_m,dx_max_m,dy_min_m,dy_max_m,dz_min_m,dz_max_m,bending_moment_2_min_Nm,"
        "bending_moment_2_max_Nm,bending_moment_3_min_Nm,bending_moment_3_max_Nm,"
        "effective_tension_min_N,effective_tension_max_N,effective_tension_static_N\n", f);
  for (int i = 0; i < kNodes; ++i) {
    fprintf(f, "%.17g", s0[i].S);
    for (int c = 0; c < 3; ++c) fprintf(f, ",%.17g,%.17g", smin[i].x[c] - s0[i].x[c], smax[i].x[c] - s0[i].x[c]);
    for (int c = 0; c < 2; ++c) fprintf(f, ",%.17g,%.17g", smin[i].moment[c], smax[i].moment[c]);
    fprintf(f, ",%.17g,%.17g,%.17g\n", smin[i].tension, smax[i].tension, s0[i].tension);
  }
  CHECK_TRUE(fclose(f) == 0, "close envelopes.csv");

  /* an output directory that cannot be made */
  snprintf(path, sizeof path, "%s/static.csv/sub", dir);
  err.msg[0] = '\0';
  CHECK_TRUE(PlVtkSeriesCreate(path, PL_VTK_DYNAMIC, m, &vs, &err) == PL_EXIT_IO && vs == NULL && err.msg[0],
             "an output path under a regular file gives PL_EXIT_IO and a message");
  free(m);
  return CHECK_DONE();
}
