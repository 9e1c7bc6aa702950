/*
 * cmd_decay.c - pipelay decay: the natural periods and damping ratios of a body's free decay.
 *
 *   pipelay decay DIR [--body NAME] [--dof DOF]... [--from T] [--to T] [--quiet] [--no-plots]
 *
 * DIR is the output directory of a dynamic run with a body (a vessel, bodies:, a platform on
 * its lines); NAME the body (default: the only body whose timeseries_NAME.csv is in DIR);
 * DOF one of surge, sway, heave (O_b's x, y, z, m) and roll, pitch, yaw (deg), all six by
 * default; [from, to] the part of the run analysed (s; default all). Each DOF's cycles
 * (output/decay.c: extremes refined by parabolas, the period between extremes of the same
 * kind, the damping ratio from the logarithmic decrement of the swings) are written to
 * DIR/decay_NAME_DOF.csv (cycle, t_s, period_s, amplitude in m or deg, damping_ratio) and
 * summed up in DIR/decay_NAME.json (per DOF: cycles, mean period, its spread, mean damping
 * ratio, and the first cycle's), with plots DIR/plots/decay_NAME_DOF.* (the signal, the
 * period per cycle, the damping ratio against the amplitude). A DOF with fewer than 4
 * extremes (no decay) is listed as such; one whose swings do not fall (PlDecayFitSwings: the
 * decrement fitted to all its swings is not positive beyond their scatter, as a steady
 * oscillation's) has its cycles written but is reported as not a decay, with "quality":
 * "no_decay" in the summary ("decay" otherwise). Either, asked for by --dof, makes the exit
 * status 3. Exit status: 0; 2 bad arguments or files; 3 a DOF asked for has no decay; 4 a file
 * could not be written.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "pipelay/output.h"
#include "commands.h"

static const char usage[] =
  "usage: pipelay decay DIR [--body NAME] [--dof surge|sway|heave|roll|pitch|yaw]... [--from T] [--to T]\n"
  "                         [--quiet] [--no-plots]\n"
  "The natural periods and damping ratios of a body's free decay in the dynamic run in DIR:\n"
  "per DOF (all six by default) the cycles in DIR/decay_NAME_DOF.csv, a summary in\n"
  "DIR/decay_NAME.json and plots in DIR/plots/decay_NAME_DOF.*.\n"
  "A DOF whose swings do not fall is reported as not a decay (\"quality\": \"no_decay\").\n"
  "Exit status: 0 ok, 2 bad arguments or files, 3 a DOF asked for has no decay, 4 output not written.\n";

static const char *const kDof[6] = {"surge", "sway", "heave", "roll", "pitch", "yaw"};
static const char *const kColumn[6] = {"x_m", "y_m", "z_m", "roll_deg", "pitch_deg", "yaw_deg"};
static const char *const kUnit[6] = {"m", "m", "m", "deg", "deg", "deg"};

/* The bodies with a time series in dir: timeseries_NAME.csv whose header has the columns of a
 * body (x_m ... yaw_deg, surge_velocity_mps). names[k] malloc'd. */
static int FindBodies(const char *dir, char names[][256], int max)
{
  DIR *d = opendir(dir);
  if (!d) return -1;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) && n < max) {
    const size_t len = strlen(e->d_name);
    if (len <= 15 || strncmp(e->d_name, "timeseries_", 11) || strcmp(e->d_name + len - 4, ".csv") || len - 15 >= 256)
      continue;
    char path[PL_PATH_MAX + 300], line[1024];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    FILE *f = fopen(path, "r");
    if (!f) continue;
    const int ok = fgets(line, sizeof line, f) && !strncmp(line, "t_s,x_m,y_m,z_m,roll_deg,pitch_deg,yaw_deg,surge_velocity_mps", 60);
    fclose(f);
    if (!ok) continue;
    memcpy(names[n], e->d_name + 11, len - 15);
    names[n][len - 15] = '\0';
    ++n;
  }
  closedir(d);
  return n;
}

static int WriteCycles(const char *path, const char *unit, const PlDecayCycle *c, int nc, PlError *err)
{
  char tmp[PL_PATH_MAX + 700];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *f = fopen(tmp, "w");
  if (f) {
    fprintf(f, "cycle,t_s,period_s,amplitude_%s,damping_ratio\n", unit);
    for (int k = 0; k < nc; ++k)
      fprintf(f, "%d,%.10g,%.10g,%.10g,%.10g\n", k + 1, c[k].t, c[k].period, c[k].amplitude, c[k].damping_ratio);
  }
  return PlFileCommit(f, 0, tmp, path, err);
}

int PlCmdDecay(int argc, char **argv)
{
  const char *dir = NULL, *body = NULL;
  int want[6] = {0}, asked = 0, quiet = 0, no_plots = 0;
  double from = -INFINITY, to = INFINITY;
  for (int i = 2; i < argc; ++i) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(usage, stdout);
      return 0;
    } else if (!strcmp(a, "--body") || !strcmp(a, "--dof") || !strcmp(a, "--from") || !strcmp(a, "--to")) {
      if (i + 1 >= argc) {
        fprintf(stderr, "pipelay decay: %s needs a value\n%s", a, usage);
        return PL_EXIT_BAD_INPUT;
      }
      const char *v = argv[++i];
      if (!strcmp(a, "--body")) body = v;
      else if (!strcmp(a, "--dof")) {
        int k = 0;
        while (k < 6 && strcmp(v, kDof[k])) ++k;
        if (k == 6) {
          fprintf(stderr, "pipelay decay: --dof '%s': expected surge, sway, heave, roll, pitch or yaw\n", v);
          return PL_EXIT_BAD_INPUT;
        }
        want[k] = 1;
        asked = 1;
      } else {
        char *end;
        const double x = strtod(v, &end);
        if (end == v || *end || !isfinite(x)) {
          fprintf(stderr, "pipelay decay: %s '%s': expected a time in seconds\n", a, v);
          return PL_EXIT_BAD_INPUT;
        }
        *(a[2] == 'f' ? &from : &to) = x;
      }
    } else if (!strcmp(a, "--quiet")) quiet = 1;
    else if (!strcmp(a, "--no-plots")) no_plots = 1;
    else if (a[0] == '-' || dir) {
      fprintf(stderr, "pipelay decay: unknown argument '%s'\n%s", a, usage);
      return PL_EXIT_BAD_INPUT;
    } else dir = a;
  }
  if (!dir) {
    fprintf(stderr, "pipelay decay: no run directory DIR\n%s", usage);
    return PL_EXIT_BAD_INPUT;
  }
  if (!(from < to)) {
    fprintf(stderr, "pipelay decay: --from %g is not before --to %g\n", from, to);
    return PL_EXIT_BAD_INPUT;
  }
  if (!asked)
    for (int k = 0; k < 6; ++k) want[k] = 1;
  static char names[64][256];
  char name[256];
  if (body) snprintf(name, sizeof name, "%s", body);
  else {
    const int nb = FindBodies(dir, names, 64);
    if (nb < 0) {
      fprintf(stderr, "pipelay decay: %s: cannot read the directory: %s\n", dir, strerror(errno));
      return PL_EXIT_BAD_INPUT;
    }
    if (nb != 1) {
      fprintf(stderr, "pipelay decay: %s: %s; name it with --body NAME%s", dir,
              nb ? "more than one body has a time series" : "no body's time series (timeseries_NAME.csv of a dynamic run)",
              nb ? " (one of:" : "\n");
      for (int k = 0; k < nb; ++k) fprintf(stderr, " %s%s", names[k], k + 1 < nb ? "," : ")\n");
      return PL_EXIT_BAD_INPUT;
    }
    snprintf(name, sizeof name, "%s", names[0]);
  }
  char path[PL_PATH_MAX + 400];
  snprintf(path, sizeof path, "%s/timeseries_%s.csv", dir, name);
  PlTable tab;
  PlError err;
  if (PlTableRead(path, &tab, &err)) {
    fprintf(stderr, "pipelay decay: %s\n", err.msg);
    return PL_EXIT_BAD_INPUT;
  }
  const int ct = PlTableColumn(&tab, "t_s");
  for (int k = 0; k < 6; ++k)
    if (ct < 0 || PlTableColumn(&tab, kColumn[k]) < 0) {
      fprintf(stderr, "pipelay decay: %s: no column %s: not a body's time series\n", path, ct < 0 ? "t_s" : kColumn[k]);
      PlTableFree(&tab);
      return PL_EXIT_BAD_INPUT;
    }
  const double *t = PlTableData(&tab, ct);
  int i0 = 0, i1 = tab.nrows;
  while (i0 < tab.nrows && t[i0] < from) ++i0;
  while (i1 > i0 && t[i1 - 1] > to) --i1;
  const int n = i1 - i0;
  PlDecayCycle *cyc = malloc(sizeof *cyc * (size_t)(n > 0 ? n : 1));
  PlDecayExtreme *ext = malloc(sizeof *ext * (size_t)(n > 0 ? n : 1));
  cJSON *root = cJSON_CreateObject();
  int rc = 0;
  if (!cyc || !ext || !root) {
    fprintf(stderr, "pipelay decay: out of memory\n");
    rc = PL_EXIT_FAILURE;
  }
  if (!rc) {
    cJSON_AddStringToObject(root, "body", name);
    cJSON_AddStringToObject(root, "time_series", path);
    cJSON_AddNumberToObject(root, "from_s", n > 0 ? t[i0] : 0.0);
    cJSON_AddNumberToObject(root, "to_s", n > 0 ? t[i1 - 1] : 0.0);
  }
  if (!rc && !quiet) printf("pipelay decay: %s, %d samples from %g s to %g s\n", path, n, n ? t[i0] : 0.0, n ? t[i1 - 1] : 0.0);
  cJSON *dofs = rc ? NULL : cJSON_AddObjectToObject(root, "dofs");
  PlPlotOptions po;
  PlPlotOptionsDefault(&po);
  snprintf(po.name, sizeof po.name, "%.200s", dir);
  for (int k = 0; k < 6 && (!rc || rc == PL_EXIT_NOT_CONVERGED); ++k) {
    if (!want[k]) continue;
    const double *x = PlTableData(&tab, PlTableColumn(&tab, kColumn[k])) + i0;
    int next = 0;
    const int nc = PlDecayAnalyse(t + i0, x, n, cyc, n, ext, n, &next);
    if (!nc) {
      if (!quiet || asked) printf("  %-5s no decay (%d extremes; 4 are needed)\n", kDof[k], next);
      if (asked) rc = PL_EXIT_NOT_CONVERGED;
      continue;
    }
    double pm = 0.0, pmin = INFINITY, pmax = -INFINITY, zm = 0.0;
    int nz = 0;
    for (int c = 0; c < nc; ++c) {
      pm += cyc[c].period / nc;
      pmin = fmin(pmin, cyc[c].period);
      pmax = fmax(pmax, cyc[c].period);
      if (isfinite(cyc[c].damping_ratio)) {
        zm += cyc[c].damping_ratio;
        ++nz;
      }
    }
    zm = nz ? zm / nz : NAN;
    PlDecayFit fit;
    PlDecayFitSwings(ext, next, &fit);
    char cpath[PL_PATH_MAX + 600];
    snprintf(cpath, sizeof cpath, "%s/decay_%s_%s.csv", dir, name, kDof[k]);
    if (WriteCycles(cpath, kUnit[k], cyc, nc, &err)) {
      fprintf(stderr, "pipelay: %s\n", err.msg);
      rc = PL_EXIT_IO;
      break;
    }
    cJSON *o = cJSON_AddObjectToObject(dofs, kDof[k]);
    cJSON_AddStringToObject(o, "column", kColumn[k]);
    cJSON_AddStringToObject(o, "quality", fit.decays ? "decay" : "no_decay");
    if (isfinite(fit.log_decrement)) cJSON_AddNumberToObject(o, "log_decrement", fit.log_decrement);
    if (isfinite(fit.log_decrement_se)) cJSON_AddNumberToObject(o, "log_decrement_se", fit.log_decrement_se);
    cJSON_AddNumberToObject(o, "cycles", nc);
    cJSON_AddNumberToObject(o, "mean_period_s", pm);
    cJSON_AddNumberToObject(o, "min_period_s", pmin);
    cJSON_AddNumberToObject(o, "max_period_s", pmax);
    if (isfinite(zm)) cJSON_AddNumberToObject(o, "mean_damping_ratio", zm);
    cJSON_AddNumberToObject(o, "first_period_s", cyc[0].period);
    cJSON_AddNumberToObject(o, "first_amplitude", cyc[0].amplitude);
    cJSON_AddStringToObject(o, "amplitude_unit", kUnit[k]);
    if (isfinite(cyc[0].damping_ratio)) cJSON_AddNumberToObject(o, "first_damping_ratio", cyc[0].damping_ratio);
    if (!fit.decays) {
      if (!quiet || asked)
        printf("  %-5s not a decay: %d cycles of period %.5g s whose swings do not fall (logarithmic decrement "
               "per period %.3g, standard error %.2g; a decay needs it above 6.3e-4 and 3 standard errors)\n",
               kDof[k], nc, pm, fit.log_decrement, fit.log_decrement_se);
      if (asked) rc = PL_EXIT_NOT_CONVERGED;
    } else if (!quiet)
      printf("  %-5s %3d cycles: period %.5g s (%.5g to %.5g), damping ratio %.4g (first cycle %.4g at amplitude "
             "%.4g %s, last %.4g at %.4g %s)\n", kDof[k], nc, pm, pmin, pmax, zm, cyc[0].damping_ratio,
             cyc[0].amplitude, kUnit[k], cyc[nc - 1].damping_ratio, cyc[nc - 1].amplitude, kUnit[k]);
    if (!no_plots) PlPlotDecay(dir, name, kDof[k], kColumn[k], kUnit[k], &po);
  }
  if (!rc || rc == PL_EXIT_NOT_CONVERGED) {
    char *text = cJSON_Print(root);
    char jpath[PL_PATH_MAX + 400], tmp[PL_PATH_MAX + 420];
    snprintf(jpath, sizeof jpath, "%s/decay_%s.json", dir, name);
    snprintf(tmp, sizeof tmp, "%s.tmp", jpath);
    FILE *f = text ? fopen(tmp, "w") : NULL;
    if (f) fprintf(f, "%s\n", text);
    free(text);
    if (PlFileCommit(f, 0, tmp, jpath, &err)) {
      fprintf(stderr, "pipelay: %s\n", err.msg);
      rc = PL_EXIT_IO;
    } else if (!quiet)
      printf("pipelay decay: written %s/decay_%s.json, decay_%s_DOF.csv%s\n", dir, name, name,
             no_plots ? "" : " and plots/decay_*");
  }
  cJSON_Delete(root);
  free(cyc);
  free(ext);
  PlTableFree(&tab);
  return rc;
}
