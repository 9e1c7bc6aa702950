/*
 * wave_series.c - waves.csv, a dynamic run's record of the sea (a model with waves:): the
 * surface elevation eta [m] from the system's sea (PlWavesElevation) at each line's top end,
 * where that end is at the output time (a hang-off point moves with its vessel), and at the
 * fixed probes of waves.probes.
 */
#include <stdio.h>
#include <string.h>
#include "dynamic_impl.h"

void PlWaveSeriesHeader(const PlModel *m, char *buf, size_t cap)
{
  size_t n = (size_t)snprintf(buf, cap, "t_s");
  if (m->nlines == 0) n += (size_t)snprintf(buf + (n < cap ? n : cap), n < cap ? cap - n : 0, ",eta_top_m");
  for (int l = 0; l < m->nlines; ++l)
    n += (size_t)snprintf(buf + (n < cap ? n : cap), n < cap ? cap - n : 0, ",eta_%s_top_m", m->lines[l].name);
  for (int k = 0; k < m->sea.nprobes; ++k)
    n += (size_t)snprintf(buf + (n < cap ? n : cap), n < cap ? cap - n : 0, ",eta_probe%d_m", k + 1);
  snprintf(buf + (n < cap ? n : cap), n < cap ? cap - n : 0, "\n");
}

void PlWaveSeriesRow(FILE *f, PlWaves *w, const PlSea *sea, double t, const double (*tops)[3], int ntops)
{
  fprintf(f, "%.17g", t);
  for (int l = 0; l < ntops; ++l) fprintf(f, ",%.17g", PlWavesElevation(w, tops[l][0], tops[l][1], t));
  for (int k = 0; k < sea->nprobes; ++k) fprintf(f, ",%.17g", PlWavesElevation(w, sea->probes[k][0], sea->probes[k][1], t));
  fputc('\n', f);
}
