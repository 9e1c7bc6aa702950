/*
 * table.c - CSV files in memory (named columns of numbers) and linear interpolation: what the
 * plots read back from the result files, and what the verification tools and pipelay decay
 * read. Uses neither MPI nor PETSc.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "output_impl.h"

/* ---- CSV tables ------------------------------------------------------------------------- */

void PlTableFree(PlTable *t)
{
  if (!t) return;
  free(t->names);
  free(t->values);
  free(t->text);
  free(t->buffer);
  memset(t, 0, sizeof *t);
}

int PlTableColumn(const PlTable *t, const char *name)
{
  for (int c = 0; c < t->ncols; ++c)
    if (!strcmp(t->names[c], name)) return c;
  return -1;
}

const double *PlTableData(const PlTable *t, int c) { return t->values + (size_t)c * (size_t)t->nrows; }

/* Splits the NUL-terminated line s in place into fields: comma-separated (comma = 1) or separated
 * by blanks; double quotes around a field are removed; blanks around fields are trimmed.
 * Returns the number of fields (at most max; -1 when there are more). */
static int SplitLine(char *s, int comma, char **fields, int max)
{
  int n = 0;
  char *p = s;
  for (;;) {
    while (*p == ' ' || *p == '\t') ++p;
    if (!comma && !*p) break;
    char *start = p, *stop;
    if (*p == '"') {
      start = ++p;
      while (*p && *p != '"') ++p;
      stop = p;
      if (*p == '"') ++p;
      while (*p == ' ' || *p == '\t') ++p;
    } else {
      while (*p && (comma ? *p != ',' : (*p != ' ' && *p != '\t'))) ++p;
      stop = p;
      while (stop > start && (stop[-1] == ' ' || stop[-1] == '\t')) --stop;
    }
    const char sep = *p;
    *stop = '\0';
    if (n == max) return -1;
    fields[n++] = start;
    if (!sep) break;
    if (comma) {
      if (sep != ',') break;
      ++p;
    } else if (sep == ' ' || sep == '\t') ++p;
  }
  return n;
}

static int TableError(PlError *err, const char *path, int line, const char *fmt, ...)
{
  char what[320];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  snprintf(err->msg, sizeof err->msg, "%.600s:%d: %s", path, line, what);
  return PL_EXIT_BAD_INPUT;
}

int PlTableRead(const char *path, PlTable *t, PlError *err)
{
  memset(t, 0, sizeof *t);
  if (strlen(path) >= sizeof t->path) return TableError(err, path, 0, "path too long");
  memcpy(t->path, path, strlen(path) + 1);
  FILE *f = fopen(path, "rb");
  if (!f) return TableError(err, path, 0, "cannot read: %s", strerror(errno));
  struct stat sb; /* a table is a file: a device or a pipe (a result file linked to /dev/full or
                     /dev/zero) would be read without end */
  if (fstat(fileno(f), &sb) || !S_ISREG(sb.st_mode)) {
    fclose(f);
    return TableError(err, path, 0, "not a regular file");
  }
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  for (;;) {
    if (!buf) break;
    if (n + 1 >= cap) {
      char *b = realloc(buf, 2 * cap);
      if (!b) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = b;
      cap *= 2;
    }
    const size_t k = fread(buf + n, 1, cap - n - 1, f);
    n += k;
    if (!k) break;
  }
  const int bad = ferror(f);
  fclose(f);
  if (!buf || bad) {
    free(buf);
    return TableError(err, path, 0, bad ? "read error" : "out of memory");
  }
  buf[n] = '\0';
  t->buffer = buf;
  /* lines: count them for the allocations */
  size_t nlines = 1;
  for (size_t k = 0; k < n; ++k) nlines += buf[k] == '\n';
  char **fields = NULL;
  int maxf = 0, line = 0, comma = 1, rc = 0;
  size_t rowcap = 0;
  char *p = buf;
  if ((unsigned char)p[0] == 0xEF && (unsigned char)p[1] == 0xBB && (unsigned char)p[2] == 0xBF) p += 3;
  while (*p) {
    char *eol = strchr(p, '\n');
    char *next = eol ? eol + 1 : p + strlen(p);
    if (eol) *eol = '\0';
    if (eol && eol > p && eol[-1] == '\r') eol[-1] = '\0';
    ++line;
    char *s = p;
    p = next;
    while (*s == ' ' || *s == '\t') ++s;
    if (!*s || *s == '#') continue;
    if (!t->names) { /* the header */
      comma = strchr(s, ',') != NULL;
      maxf = 1;
      for (const char *c = s; *c; ++c) maxf += (*c == ',' || *c == ' ' || *c == '\t');
      fields = malloc(sizeof *fields * (size_t)(maxf + 1));
      if (!fields) {
        rc = TableError(err, path, line, "out of memory");
        break;
      }
      const int nf = SplitLine(s, comma, fields, maxf);
      if (nf < 1) {
        rc = TableError(err, path, line, "no column names in the header");
        break;
      }
      t->ncols = nf;
      t->names = malloc(sizeof *t->names * (size_t)nf);
      if (!t->names) {
        rc = TableError(err, path, line, "out of memory");
        break;
      }
      for (int c = 0; c < nf; ++c) {
        if (!fields[c][0]) {
          rc = TableError(err, path, line, "column %d has no name", c + 1);
          break;
        }
        for (int d = 0; d < c; ++d)
          if (!strcmp(fields[d], fields[c])) {
            rc = TableError(err, path, line, "column name '%s' appears twice", fields[c]);
            break;
          }
        if (rc) break;
        t->names[c] = fields[c];
      }
      if (rc) break;
      rowcap = nlines;
      t->values = malloc(sizeof *t->values * rowcap * (size_t)nf);
      t->text = malloc(sizeof *t->text * rowcap * (size_t)nf);
      if (!t->values || !t->text) {
        rc = TableError(err, path, line, "out of memory");
        break;
      }
      continue;
    }
    const int nf = SplitLine(s, comma, fields, maxf > t->ncols ? maxf : t->ncols);
    if (nf != t->ncols) {
      rc = TableError(err, path, line, "%s fields, the header names %d", nf < 0 ? "too many" : "wrong number of", t->ncols);
      if (nf >= 0) snprintf(err->msg + strlen(err->msg), sizeof err->msg - strlen(err->msg), " (found %d)", nf);
      break;
    }
    for (int c = 0; c < nf; ++c) {
      char *end;
      errno = 0;
      double v = strtod(fields[c], &end);
      if (end == fields[c] || *end) v = NAN;
      t->text[(size_t)t->nrows * (size_t)t->ncols + (size_t)c] = fields[c];
      t->values[(size_t)t->nrows * (size_t)t->ncols + (size_t)c] = v; /* row-major for now */
    }
    ++t->nrows;
  }
  free(fields);
  if (!rc && !t->names) rc = TableError(err, path, line, "no header line (column names)");
  if (rc) {
    PlTableFree(t);
    return rc;
  }
  /* row-major -> column-major */
  double *v = malloc(sizeof *v * ((size_t)t->nrows * (size_t)t->ncols + 1));
  char **tx = malloc(sizeof *tx * ((size_t)t->nrows * (size_t)t->ncols + 1));
  if (!v || !tx) {
    free(v);
    free(tx);
    PlTableFree(t);
    return TableError(err, path, 0, "out of memory");
  }
  for (int r = 0; r < t->nrows; ++r)
    for (int c = 0; c < t->ncols; ++c) {
      v[(size_t)c * (size_t)t->nrows + (size_t)r] = t->values[(size_t)r * (size_t)t->ncols + (size_t)c];
      tx[(size_t)c * (size_t)t->nrows + (size_t)r] = t->text[(size_t)r * (size_t)t->ncols + (size_t)c];
    }
  free(t->values);
  free(t->text);
  t->values = v;
  t->text = tx;
  return 0;
}

double PlInterpolate(const double *x, const double *y, int n, double a)
{
  if (n < 1 || !isfinite(a)) return NAN;
  const double span = x[n - 1] - x[0], eps = 1e-9 * (fabs(span) > 0 ? fabs(span) : 1.0);
  if (a < x[0] - eps || a > x[n - 1] + eps) return NAN;
  if (n == 1 || a <= x[0]) return y[0];
  if (a >= x[n - 1]) return y[n - 1];
  int lo = 0, hi = n - 1; /* x[lo] <= a < x[hi] */
  while (hi - lo > 1) {
    const int mid = (lo + hi) / 2;
    if (x[mid] <= a) lo = mid;
    else hi = mid;
  }
  const double d = x[hi] - x[lo];
  if (!(d > 0)) return y[lo];
  const double f = (a - x[lo]) / d;
  return y[lo] + f * (y[hi] - y[lo]);
}
