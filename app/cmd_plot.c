/*
 * cmd_plot.c - "pipelay plot DIR": redraws the plots of a finished run from the files in
 * its output directory (static.csv for the static plots; envelopes.csv and
 * timeseries_*.csv for the dynamic ones, whichever exist). The model name and the water
 * depth (seabed line) come from DIR/summary.json and the model file it names.
 * Exit status: 0 plots made, 2 DIR is not a run's output directory, 4 plots could not be
 * made (no gnuplot, or a script failed: the warning says which).
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "commands.h"
#include "pipelay/output.h"

/* 1 when dir holds a timeseries_*.csv file. */
static int HasTimeSeries(const char *dir)
{
  DIR *d = opendir(dir);
  int found = 0;
  if (!d) return 0;
  struct dirent *e;
  while (!found && (e = readdir(d))) {
    const size_t n = strlen(e->d_name);
    found = !strncmp(e->d_name, "timeseries_", 11) && n > 15 && !strcmp(e->d_name + n - 4, ".csv") &&
            PlOutputFileListed(dir, e->d_name);
  }
  closedir(d);
  return found;
}

int PlCmdPlot(int argc, char **argv)
{
  static const char usage[] = "usage: pipelay plot DIR   (the output directory of a finished run)\n";
  if (argc != 3 || argv[2][0] == '-') {
    fputs(usage, stderr);
    return PL_EXIT_BAD_INPUT;
  }
  const char *dir = argv[2];
  struct stat sb;
  char path[PL_PATH_MAX + 64];
  if (strlen(dir) >= PL_PATH_MAX - 64 || stat(dir, &sb) || !S_ISDIR(sb.st_mode)) {
    fprintf(stderr, "pipelay: %s: not a directory\n", dir);
    return PL_EXIT_BAD_INPUT;
  }
  /* only the files of the run that wrote summary.json (ownership.c) */
  snprintf(path, sizeof path, "%s/static.csv", dir);
  const int has_static = !stat(path, &sb) && PlOutputFileListed(dir, "static.csv");
  snprintf(path, sizeof path, "%s/envelopes.csv", dir);
  const int has_dynamic = (!stat(path, &sb) && PlOutputFileListed(dir, "envelopes.csv")) || HasTimeSeries(dir);
  if (!has_static && !has_dynamic) {
    fprintf(stderr, "pipelay: %s: no results to plot (static.csv, envelopes.csv or timeseries_*.csv)\n", dir);
    return PL_EXIT_BAD_INPUT;
  }
  PlPlotOptions o;
  PlPlotOptionsDefault(&o);
  PlPlotOptionsFromRun(dir, &o);
  int nimages = 0, failed = 0;
  if (has_static) {
    const int n = PlPlotStatic(dir, &o);
    if (n < 0) failed = 1;
    else nimages += n;
  }
  if (has_dynamic) {
    const int n = PlPlotDynamic(dir, &o);
    if (n < 0) failed = 1;
    else nimages += n;
  }
  if (failed) {
    fprintf(stderr, "pipelay: plots of %s not (all) made: see the warnings above\n", dir);
    return PL_EXIT_IO;
  }
  printf("pipelay: %d images (PNG and SVG) and their gnuplot scripts in %s/plots/\n", nimages, dir);
  return PL_EXIT_OK;
}
