/*
 * output.c - what a static run writes besides its CSV and JSON files (the VTK series of
 * the static state and the static plots), and helpers shared by output/.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include "output_impl.h"

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
    PlPlotOptionsFromModel(&o, m, dir);
    (void)PlPlotStatic(dir, &o);
  }
  return 0;
}
