/*
 * csvdiff.c - compares two result CSVs with the same header, column by column:
 * max |a - b| <= tol * max(|a| over the column, floor). Used to check that a run on two
 * MPI ranks reproduces the one-rank run. The floor keeps columns that are zero to
 * round-off (e.g. out-of-plane values of a planar case) from failing on noise.
 * usage: csvdiff A.csv B.csv RELTOL FLOOR
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXCOL 64

static int ReadRow(FILE *f, double *v, int *n)
{
  char line[8192];
  if (!fgets(line, sizeof line, f)) return 0;
  *n = 0;
  for (char *tok = strtok(line, ",\n"); tok && *n < MAXCOL; tok = strtok(NULL, ",\n")) v[(*n)++] = strtod(tok, NULL);
  return 1;
}

int main(int argc, char **argv)
{
  if (argc != 5) {
    fprintf(stderr, "usage: csvdiff A.csv B.csv RELTOL FLOOR\n");
    return 2;
  }
  FILE *a = fopen(argv[1], "r"), *b = fopen(argv[2], "r");
  if (!a || !b) {
    fprintf(stderr, "FAIL cannot open %s or %s\n", argv[1], argv[2]);
    return 1;
  }
  const double tol = atof(argv[3]), floor_ = atof(argv[4]);
  char ha[4096], hb[4096];
  if (!fgets(ha, sizeof ha, a) || !fgets(hb, sizeof hb, b) || strcmp(ha, hb)) {
    fprintf(stderr, "FAIL headers differ\n");
    return 1;
  }
  double va[MAXCOL], vb[MAXCOL], dmax[MAXCOL] = {0}, amax[MAXCOL] = {0};
  int na, nb, rows = 0, ncol = 0;
  while (ReadRow(a, va, &na)) {
    if (!ReadRow(b, vb, &nb) || na != nb) {
      fprintf(stderr, "FAIL row %d: row counts or widths differ\n", rows + 1);
      return 1;
    }
    ncol = na;
    for (int c = 0; c < na; ++c) {
      dmax[c] = fmax(dmax[c], fabs(va[c] - vb[c]));
      amax[c] = fmax(amax[c], fabs(va[c]));
    }
    ++rows;
  }
  if (ReadRow(b, vb, &nb)) {
    fprintf(stderr, "FAIL %s has more rows\n", argv[2]);
    return 1;
  }
  int bad = 0;
  for (int c = 0; c < ncol; ++c)
    if (!(dmax[c] <= tol * fmax(amax[c], floor_))) {
      fprintf(stderr, "FAIL column %d: max |diff| %.3e > %.1e x max(|value| %.3e, floor %.1e)\n", c + 1, dmax[c], tol, amax[c], floor_);
      bad = 1;
    }
  if (!rows) {
    fprintf(stderr, "FAIL no rows\n");
    bad = 1;
  }
  return bad;
}
