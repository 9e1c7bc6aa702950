/*
 * loader_timeseries.c - the time-series CSV files of the model (ends.*.motion.file,
 * vessel.environment_load.file): read in one pass with a bounded line buffer (files up to
 * 256 MiB, 10 million rows), every error as FILE:LINE:COL of the CSV file; paths relative
 * to the model file (resolve_path).
 */
#include "loader_impl.h"

/* ---- prescribed motion of an end ------------------------------------------------------ */

/* A buffered reader of one file, line by line. */
typedef struct {
  FILE *f;
  unsigned char buf[1 << 16];
  size_t pos, len;  /* unread bytes: buf[pos..len) */
  size_t total;     /* bytes read so far */
  bool eof;
  int read_errno;   /* errno of a failed read */
} CsvReader;

/* Reads the next line into line (capacity CSV_LINE_MAX + 1) without its "\n" or "\r\n",
 * NUL-terminated, its length in *n (it may hold NUL bytes). Returns 1 for a line, 0 at the
 * end of the file, -1 on a read error (r->read_errno), -2 when the file is larger than
 * CSV_MAX_BYTES, -3 for a line longer than CSV_LINE_MAX bytes. */
static int csv_line(CsvReader *r, char *line, size_t *n)
{
  size_t used = 0;
  bool any = false;
  for (;;) {
    if (r->pos == r->len) {
      if (r->eof) break;
      errno = 0;
      const size_t got_n = fread(r->buf, 1, sizeof r->buf, r->f);
      if (got_n == 0) {
        r->eof = true;
        if (ferror(r->f)) {
          r->read_errno = errno ? errno : EIO;
          return -1;
        }
        break;
      }
      r->total += got_n;
      if (r->total > CSV_MAX_BYTES) return -2;
      r->pos = 0;
      r->len = got_n;
    }
    any = true;
    const unsigned char *start = r->buf + r->pos;
    const size_t avail = r->len - r->pos;
    const unsigned char *nl = memchr(start, '\n', avail);
    const size_t take = nl ? (size_t)(nl - start) : avail;
    if (used + take > CSV_LINE_MAX) return -3;
    memcpy(line + used, start, take);
    used += take;
    r->pos += take + (nl ? 1 : 0);
    if (nl) break;
  }
  if (!any) return 0;
  if (used > 0 && line[used - 1] == '\r') used--;
  line[used] = '\0';
  *n = used;
  return 1;
}

/* One comma-separated field: its text without surrounding blanks and the 1-based column
 * where it starts (its first non-blank byte; just after the comma when it is blank). */
typedef struct {
  const char *s;
  size_t len;
  int col;
} Field;

/* Splits line[0..n) at commas into f (the first CSV_MAX_FIELDS); returns the field count. */
static int csv_split(const char *line, size_t n, Field *f)
{
  int nf = 0;
  size_t i = 0;
  for (;;) {
    size_t a = i;
    while (a < n && (line[a] == ' ' || line[a] == '\t')) a++;
    size_t e = a;
    while (e < n && line[e] != ',') e++;
    size_t b = e;
    while (b > a && (line[b - 1] == ' ' || line[b - 1] == '\t')) b--;
    if (nf < CSV_MAX_FIELDS) {
      f[nf].s = line + a;
      f[nf].len = b - a;
      f[nf].col = (int)(a < b ? a : i) + 1; /* a blank field: where it starts */
    }
    nf++;
    if (e >= n) return nf;
    i = e + 1;
  }
}

/* True for a line that is blank or a comment ('#' as its first non-blank byte). */
static bool csv_skip(const char *line, size_t n)
{
  size_t i = 0;
  while (i < n && (line[i] == ' ' || line[i] == '\t')) i++;
  return i == n || line[i] == '#';
}

/* Where a time series is read from, for messages. */
typedef struct {
  PlError *err;
  const char *file; /* the file as opened (resolved path) */
  const char *key;  /* key path of the file: entry */
  const CsvFormat *fmt;
} CsvPlace;

/* Parses field f of line `line` as a finite number (the rules of the YAML numbers).
 * Returns 0 or 2. */
static int csv_number(const CsvPlace *cp, int line, const Field *f, double *out)
{
  if (f->len == 0)
    return ld_report(cp->err, cp->file, line, f->col, cp->key,
                  "expected a number, found an empty field");
  bool charset_ok = true;
  for (size_t i = 0; charset_ok && i < f->len; i++)
    charset_ok = f->s[i] != '\0' && strchr("0123456789+-.eE", f->s[i]) != NULL;
  char *end = NULL;
  double v = 0.0;
  if (charset_ok) v = strtod(f->s, &end); /* stops at ',', a blank or the line's NUL */
  const Txt shown = ld_clip(f->s, f->len);
  if (!charset_ok || end != f->s + f->len) {
    char word[16];
    if (f->len < sizeof word) {
      memcpy(word, f->s, f->len);
      word[f->len] = '\0';
      if (strlen(word) == f->len && ld_nonfinite_word(word))
        return ld_report(cp->err, cp->file, line, f->col, cp->key,
                      "expected a finite number, found '%s'", shown.s);
    }
    return ld_report(cp->err, cp->file, line, f->col, cp->key, "expected a number, found '%s'",
                  shown.s);
  }
  if (!isfinite(v))
    return ld_report(cp->err, cp->file, line, f->col, cp->key,
                  "number out of range (not a finite double), found '%s'", shown.s);
  if (!ld_meaningful(v))
    return ld_report(cp->err, cp->file, line, f->col, cp->key, NOT_MEANINGFUL_FMT, shown.s);
  *out = v;
  return 0;
}

/* Checks the header line (fields f[0..nf), the line line[0..n)) against cp->fmt; sets
 * *ncols to its field count (fmt->nshort or fmt->nfull). Returns 0 or 2. */
static int csv_header(const CsvPlace *cp, int line, const char *text, size_t n,
                      const Field *f, int nf, int *ncols)
{
  const CsvFormat *fmt = cp->fmt;
  int bad_col = 0;
  const int nfull = fmt->nfull, ncheck = nf < nfull ? nf : nfull;
  for (int i = 0; i < ncheck && !bad_col; i++)
    if (f[i].len != strlen(fmt->names[i]) || memcmp(f[i].s, fmt->names[i], f[i].len) != 0)
      bad_col = f[i].col;
  if (!bad_col && (nf == fmt->nshort || nf == nfull)) {
    *ncols = nf;
    return 0;
  }
  if (!bad_col) bad_col = nf > nfull ? f[nfull].col : (int)n + 1; /* too many, or too few names */
  const Txt shown = ld_clip_n(text, n, 80);
  return ld_report(cp->err, cp->file, line, bad_col, cp->key, "expected the header %s, found '%s'",
                fmt->shown, shown.s);
}

/* Reads a time series in cp->fmt from the open file f (see docs/model-file.md) into
 * *table ([nrows][fmt->nfull], malloc'd, missing columns 0), *nrows and *ncols. fnode is the YAML
 * value of the file: key and shown the path as given, for errors that are not at a place
 * of the file. Returns 0, or 2 with nothing allocated and the outputs unchanged. */
static int csv_read(const CsvPlace *cp, FILE *f, const PlYNode *fnode, const char *shown,
                    double **table_out, int *nrows_out, int *ncols_out, int **lines_out)
{
  int *lines = NULL; /* each row's line in the file (when lines_out) */
  CsvReader *r = calloc(1, sizeof *r);
  char *text = malloc(CSV_LINE_MAX + 1);
  double *table = NULL;
  size_t cap = 0, nrows = 0;
  int ncols = 0, header_line = 0, line = 0, prev_line = 0, rc = 0;
  const int W = cp->fmt->nfull; /* a table row's width */
  if (!r || !text) {
    rc = ld_at(cp->err, fnode, cp->key, "cannot read '%s' (resolved to '%s'): out of memory", shown,
            cp->file);
    goto done;
  }
  r->f = f;
  for (;;) {
    size_t n = 0;
    const int got_line = csv_line(r, text, &n);
    if (got_line == 0) break;
    if (got_line == -1 || got_line == -2) {
      rc = ld_at(cp->err, fnode, cp->key, "cannot read '%s' (resolved to '%s'): %s", shown, cp->file,
              got_line == -1 ? strerror(r->read_errno) : "larger than 256 MiB");
      goto done;
    }
    line++;
    if (got_line == -3) {
      rc = ld_report(cp->err, cp->file, line, CSV_LINE_MAX + 1, cp->key,
                  "line longer than %d bytes", CSV_LINE_MAX);
      goto done;
    }
    char *p = text;
    if (line == 1 && n >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) { /* UTF-8 byte order mark */
      p += 3;
      n -= 3;
    }
    if (csv_skip(p, n)) continue;
    Field fl[CSV_MAX_FIELDS];
    const int nf = csv_split(p, n, fl);
    if (!ncols) {
      if ((rc = csv_header(cp, line, p, n, fl, nf, &ncols))) goto done;
      header_line = line;
      continue;
    }
    if (nf != ncols) {
      rc = ld_report(cp->err, cp->file, line, nf > ncols ? fl[ncols].col : (int)n + 1, cp->key,
                  "expected %d fields (%s), found %d", ncols,
                  ncols == W ? cp->fmt->full_s : cp->fmt->short_s, nf);
      goto done;
    }
    if (nrows == CSV_MAX_ROWS) {
      rc = ld_report(cp->err, cp->file, line, 1, cp->key, "more than %d data rows", CSV_MAX_ROWS);
      goto done;
    }
    if (nrows == cap) {
      const size_t ncap = cap ? (2 * cap > CSV_MAX_ROWS ? CSV_MAX_ROWS : 2 * cap) : 1024;
      double *nt = realloc(table, ncap * W * sizeof *nt);
      int *nl = nt && lines_out ? realloc(lines, ncap * sizeof *nl) : NULL;
      if (nt) table = nt;
      if (nl) lines = nl;
      if (!nt || (lines_out && !nl)) {
        rc = ld_at(cp->err, fnode, cp->key,
                "cannot read '%s' (resolved to '%s'): out of memory (%zu rows)", shown,
                cp->file, nrows);
        goto done;
      }
      cap = ncap;
    }
    double *row = table + W * nrows;
    for (int k = 0; k < W; k++) row[k] = 0.0;
    for (int k = 0; k < ncols; k++)
      if ((rc = csv_number(cp, line, &fl[k], &row[k]))) goto done;
    if (cp->fmt->increasing && nrows > 0 && !(row[0] > table[W * (nrows - 1)])) {
      const Txt tt = ld_clip(fl[0].s, fl[0].len);
      rc = ld_report(cp->err, cp->file, line, fl[0].col, cp->key,
                  "t must increase from row to row: must be greater than %.10g s (line %d), "
                  "got %s",
                  table[W * (nrows - 1)], prev_line, tt.s);
      goto done;
    }
    prev_line = line;
    if (lines_out) lines[nrows] = line;
    nrows++;
  }
  if (!ncols) {
    rc = ld_report(cp->err, cp->file, 1, 1, cp->key,
                "no header line: expected %s (the file is empty or holds only blank and "
                "comment lines)",
                cp->fmt->shown);
    goto done;
  }
  if (nrows < 2) {
    rc = ld_report(cp->err, cp->file, header_line, 1, cp->key,
                "expected at least 2 data rows after the header, found %zu", nrows);
    goto done;
  }
  double *fit = realloc(table, nrows * W * sizeof *fit); /* give back the unused rows */
  if (fit) table = fit;
  *table_out = table;
  *nrows_out = (int)nrows;
  *ncols_out = ncols;
  if (lines_out) *lines_out = lines;
  table = NULL;
  lines = NULL;
done:
  free(table);
  free(lines);
  free(text);
  free(r);
  return rc;
}

/* The path of file for opening: as given when absolute or when the model's path has no
 * directory, else relative to the model file's directory. */
void ld_resolve_path(const char *model_path, const char *file, char *out, size_t cap)
{
  out[0] = '\0';
  const char *slash = model_path ? strrchr(model_path, '/') : NULL;
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
  /* fuzzing (tests/fuzz): never open a file outside the model's (non-existent) directory */
  const bool absolute = false;
#else
  const bool absolute = file[0] == '/';
#endif
  if (!absolute && slash) {
    const size_t dlen = (size_t)(slash - model_path) + 1;
    if (dlen < cap) {
      memcpy(out, model_path, dlen);
      out[dlen] = '\0';
    }
  }
  ld_cat(out, cap, file);
}

/* Reads the CSV file named by key "file" of scope s (required; the name as given into
 * name[cap]), relative to the model file's directory, in format fmt, into *table
 * ([nrows][fmt->nfull], malloc'd), *nrows and *ncols, and when lines is not NULL each row's
 * line in the file (*lines, malloc'd). Returns 0, or 2 with nothing allocated. */
int ld_read_csv_file(const Ctx *c, const Scope *s, const CsvFormat *fmt, char *name,
                         size_t cap, double **table, int *nrows, int *ncols, int **lines)
{
  int rc;
  if ((rc = ld_get_string(s, "file", false, name, cap))) return rc;
  const PlYNode *fnode = ld_value_of(s, "file");
  char key[PATH_CAP], resolved[2 * PL_PATH_MAX];
  ld_join_key(key, sizeof key, s->path, "file");
  ld_resolve_path(c->model_path, name, resolved, sizeof resolved);
  FILE *f = fopen(resolved, "rb");
  if (!f) {
    const int en = errno;
    return ld_at(c->err, fnode, key, "cannot read '%s' (resolved to '%s'): %s", name, resolved,
              strerror(en));
  }
  const CsvPlace cp = {c->err, resolved, key, fmt};
  rc = csv_read(&cp, f, fnode, name, table, nrows, ncols, lines);
  fclose(f);
  return rc;
}
