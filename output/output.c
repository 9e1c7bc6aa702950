/*
 * output.c - what a static run writes besides its CSV and JSON files (the VTK series of
 * the static state and the static plots), and helpers shared by output/.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include "output_impl.h"

int PlOutputMakeDirs(const char *dir, PlError *err)
{
  char buf[PL_PATH_MAX + 64];
  if (!dir[0]) {
    snprintf(err->msg, sizeof err->msg, "the output directory is an empty path");
    return PL_EXIT_IO;
  }
  if (snprintf(buf, sizeof buf, "%s", dir) >= (int)sizeof buf) {
    snprintf(err->msg, sizeof err->msg, "%.900s: directory path too long", dir);
    return PL_EXIT_IO;
  }
  for (char *c = buf + 1;; ++c) {
    const char save = *c;
    if (save == '/' || save == '\0') {
      *c = '\0';
      if (mkdir(buf, 0777) && errno != EEXIST) {
        snprintf(err->msg, sizeof err->msg, "%.900s: cannot create the directory: %s", buf, strerror(errno));
        return PL_EXIT_IO;
      }
      *c = save;
    }
    if (save == '\0') break;
  }
  struct stat sb;
  if (stat(dir, &sb) || !S_ISDIR(sb.st_mode)) {
    snprintf(err->msg, sizeof err->msg, "%.900s: not a directory", dir);
    return PL_EXIT_IO;
  }
  return 0;
}

int PlOutputNameValid(const char *name)
{
  if (!name || !name[0] || strlen(name) > 100) return 0;
  for (const char *c = name; *c; ++c)
    if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
          *c == '_' || *c == '-'))
      return 0;
  return 1;
}

int PlOutputWriteStatic(const char *dir, const PlModel *m, const PlStation *nodes, int nnodes,
                        int plots, PlError *err)
{
  PlVtkSeries vs;
  int rc = PlVtkSeriesCreate(dir, PL_VTK_STATIC, m, &vs, err);
  if (!rc) rc = PlVtkSeriesWrite(vs, 0.0, nodes, nnodes, err);
  if (!rc) rc = PlVtkSeriesFinish(vs, err);
  PlVtkSeriesDestroy(&vs);
  if (rc) return rc;
  if (plots) {
    PlPlotOptions o;
    PlPlotOptionsDefault(&o);
    o.water_depth_m = m->water_depth;
    snprintf(o.name, sizeof o.name, "%s", m->name);
    (void)PlPlotStatic(dir, &o);
  }
  return 0;
}
