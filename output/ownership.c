/*
 * ownership.c - a run owns its output folder.
 *
 * The kinds of file a run writes are listed once, here (kTop, kSub; a model of several lines
 * also writes each line's results into a line_NAME folder of the same kinds). Before a new run (not
 * a restart) PlOutputClean removes every file of those kinds from the folder, so that no
 * file of an earlier run (a time series, dynamic.pvd, restart.bin, a plot) survives beside
 * the new results; any other file the user put there is left alone. After the run,
 * PlOutputRecordFiles writes the list of the run's files into summary.json ("files", paths
 * relative to the folder); "pipelay plot" and "pipelay verify" read only the files listed
 * there (PlOutputFileListed).
 * The numbered ParaView frames (vtk/NAME_NNNNNN*.vtu) are the exception: a run reusing its
 * folder writes its frames over the earlier run's in place (deleting thousands of files and
 * creating them again made ext4 search for free inodes: a third of a moored platform's run
 * with 600 frames of three lines and a body), so PlOutputClean leaves them and
 * PlOutputRecordFiles removes those the run did not write: the frame writer notes each file
 * it wrote by its inode (PlOutputFrameWritten; a file written over keeps its inode). Not by
 * time: on Linux 6.18 a frame written after the clean could carry an earlier mtime than the
 * clean's coarse clock. A run killed before it records its files leaves the earlier run's
 * later frames, listed in no collection.
 */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cjson/cJSON.h>
#include "output_impl.h"
#include "pipelay/solver.h"

/* file-name patterns of the folder itself, and of its subfolders */
static const char *const kTop[] = {"static.csv",   "static_elements.csv", "static.pvd",  "summary.json",
                                   "envelopes.csv", "energy.csv",         "payout.csv",  "touchdown.csv",
                                   "lay.csv",       "as_laid.csv",        "route.csv",        "restart.bin",   "dynamic.pvd",
                                   "waves.csv",     "statistics.csv",     "spectra.csv",   "fatigue.csv",
                                   "design.csv",    "design_envelope.csv",
                                   "timeseries_*.csv", ".*.tmp", NULL};
static const struct {
  const char *dir;
  const char *const pattern[4];
} kSub[] = {{"vtk", {"*.vtu", ".*.tmp", NULL}}, {"plots", {"*.gp", "*.png", "*.svg", NULL}}};

static int Matches(const char *const *patterns, const char *name)
{
  for (int k = 0; patterns[k]; ++k)
    if (!fnmatch(patterns[k], name, FNM_PERIOD)) return 1;
  return 0;
}

/* Calls fn(ctx, prefix + relative path, full path) for every file of a run's kinds in dir
 * and, at the top level, in its line_NAME folders (a model of several lines writes each
 * line's results there, solver/lines.c). */
static int ForEachIn(const char *dir, const char *prefix, int depth, int (*fn)(void *, const char *, const char *),
                     void *ctx)
{
  const size_t nsub = sizeof kSub / sizeof *kSub;
  for (size_t s = 0; s <= nsub; ++s) {
    char folder[PL_PATH_MAX + 64];
    const char *const *patterns = s < nsub ? kSub[s].pattern : kTop;
    const int len = s < nsub ? snprintf(folder, sizeof folder, "%s/%s", dir, kSub[s].dir)
                             : snprintf(folder, sizeof folder, "%s", dir);
    if (len >= (int)sizeof folder) continue; /* longer than any path this run writes */
    DIR *d = opendir(folder);
    if (!d) continue;
    struct dirent *e;
    int rc = 0;
    while (!rc && (e = readdir(d))) {
      char rel[PL_PATH_MAX], full[2 * PL_PATH_MAX + 64];
      struct stat sb;
      snprintf(full, sizeof full, "%s/%s", folder, e->d_name);
      if (s == nsub && depth == 0 && !fnmatch("line_*", e->d_name, FNM_PERIOD) && !stat(full, &sb) &&
          S_ISDIR(sb.st_mode)) {
        char sub[PL_PATH_MAX];
        snprintf(sub, sizeof sub, "%.200s/", e->d_name);
        rc = ForEachIn(full, sub, 1, fn, ctx);
        continue;
      }
      if (!Matches(patterns, e->d_name)) continue;
      if (stat(full, &sb) || !S_ISREG(sb.st_mode)) continue;
      if (s < nsub) snprintf(rel, sizeof rel, "%.200s%s/%.200s", prefix, kSub[s].dir, e->d_name);
      else snprintf(rel, sizeof rel, "%.200s%.200s", prefix, e->d_name);
      rc = fn(ctx, rel, full);
    }
    closedir(d);
    if (rc) return rc;
  }
  return 0;
}

static int ForEachRunFile(const char *dir, int (*fn)(void *, const char *, const char *), void *ctx)
{
  return ForEachIn(dir, "", 0, fn, ctx);
}

/* A numbered ParaView frame: NAME_NNNNNN.vtu or NAME_NNNNNN_PART.vtu in a vtk folder. */
static int IsFrame(const char *rel)
{
  const char *base = strrchr(rel, '/');
  if (!base || base - rel < 3) return 0;
  const char *dir = base - 3; /* "vtk/NAME", at the start or after a '/' */
  if (strncmp(dir, "vtk/", 4) || (dir > rel && dir[-1] != '/')) return 0;
  return !fnmatch("*_[0-9][0-9][0-9][0-9][0-9][0-9].vtu", base + 1, 0) ||
         !fnmatch("*_[0-9][0-9][0-9][0-9][0-9][0-9]_*.vtu", base + 1, 0);
}

/* the frames this process wrote, by device and inode; g_cleaned: PlOutputClean ran */
typedef struct {
  dev_t dev;
  ino_t ino;
} FileId;
static FileId *g_frames;
static size_t g_nframes, g_capframes;
static int g_cleaned;

void PlOutputFrameWritten(const char *path)
{
  struct stat sb;
  if (stat(path, &sb)) return;
  if (g_nframes == g_capframes) {
    const size_t cap = g_capframes ? 2 * g_capframes : 1024;
    FileId *p = realloc(g_frames, sizeof(FileId) * cap);
    if (!p) return; /* unnoted: at worst removed as stale, and missing from no collection's list */
    g_frames = p;
    g_capframes = cap;
  }
  g_frames[g_nframes++] = (FileId){sb.st_dev, sb.st_ino};
}

static int CompareId(const void *a, const void *b)
{
  const FileId *x = a, *y = b;
  if (x->dev != y->dev) return x->dev < y->dev ? -1 : 1;
  return x->ino < y->ino ? -1 : x->ino > y->ino;
}

static int RemoveOne(void *ctx, const char *rel, const char *full)
{
  PlError *err = ctx;
  if (IsFrame(rel)) return 0; /* written over in place; PlOutputRecordFiles removes the rest */
  if (!remove(full)) return 0;
  snprintf(err->msg, sizeof err->msg, "%.900s: cannot remove this file of an earlier run (%s): %s", full, rel,
           strerror(errno));
  return PL_EXIT_IO;
}

int PlOutputClean(const char *dir, PlError *err)
{
  g_cleaned = 1;
  return ForEachRunFile(dir, RemoveOne, err);
}

/* Removes a numbered frame this process did not write: an earlier run's, not written over. */
static int RemoveStaleFrame(void *ctx, const char *rel, const char *full)
{
  (void)ctx;
  struct stat sb;
  if (!IsFrame(rel) || stat(full, &sb)) return 0;
  const FileId id = {sb.st_dev, sb.st_ino};
  if (!g_nframes || !bsearch(&id, g_frames, g_nframes, sizeof id, CompareId)) remove(full);
  return 0;
}

static int AddName(void *ctx, const char *rel, const char *full)
{
  (void)full;
  cJSON_AddItemToArray((cJSON *)ctx, cJSON_CreateString(rel));
  return 0;
}

void *PlOutputSummaryRead(const char *dir)
{
  char path[PL_PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/summary.json", dir);
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  const size_t max = 64u << 20;
  char *buf = malloc(max + 1);
  const size_t n = buf ? fread(buf, 1, max + 1, f) : 0;
  const int bad = !buf || ferror(f) || n > max;
  fclose(f);
  cJSON *root = NULL;
  if (!bad) {
    buf[n] = '\0';
    root = cJSON_Parse(buf);
  }
  free(buf);
  return root;
}

int PlOutputRecordFiles(const char *dir, PlError *err)
{
  cJSON *root = PlOutputSummaryRead(dir);
  if (!root) {
    snprintf(err->msg, sizeof err->msg, "%.900s/summary.json: cannot read the summary back to list the run's files", dir);
    return PL_EXIT_IO;
  }
  if (g_cleaned) {
    if (g_nframes) qsort(g_frames, g_nframes, sizeof *g_frames, CompareId);
    ForEachRunFile(dir, RemoveStaleFrame, NULL);
  }
  cJSON *files = cJSON_CreateArray();
  ForEachRunFile(dir, AddName, files);
  cJSON_DeleteItemFromObjectCaseSensitive(root, "files");
  cJSON_AddItemToObject(root, "files", files);
  const int rc = PlOutputSummaryWrite(dir, root, err);
  cJSON_Delete(root);
  return rc;
}

int PlOutputSummaryWrite(const char *dir, const void *root, PlError *err)
{
  char path[PL_PATH_MAX + 64], tmp[PL_PATH_MAX + 80];
  snprintf(path, sizeof path, "%s/summary.json", dir);
  snprintf(tmp, sizeof tmp, "%s/.summary.json.tmp", dir);
  char *out = cJSON_Print(root);
  FILE *f = out ? fopen(tmp, "w") : NULL;
  const int bad = !f || fputs(out, f) < 0 || fputc('\n', f) == EOF;
  free(out);
  return PlFileCommit(f, bad, tmp, path, err);
}

int PlOutputFileListed(const char *dir, const char *rel)
{
  cJSON *root = PlOutputSummaryRead(dir);
  const cJSON *files = cJSON_GetObjectItemCaseSensitive(root, "files");
  int listed = 1; /* no list (an older or a killed run): every file of the folder counts */
  if (cJSON_IsArray(files)) {
    listed = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, files) if (cJSON_IsString(e) && !strcmp(e->valuestring, rel)) listed = 1;
  }
  cJSON_Delete(root);
  return listed;
}

typedef struct {
  char *buf;
  size_t len, used;
  int nsub[sizeof kSub / sizeof *kSub];
  int nlines, cap;                /* the line folders found, room for them */
  int *nline;                     /* [cap] their files */
  char (*line)[PL_NAME_MAX + 8];  /* [cap] their names */
} Listing;

static int ListOne(void *ctx, const char *rel, const char *full)
{
  Listing *l = ctx;
  (void)full;
  if (!strncmp(rel, "line_", 5) && strchr(rel, '/')) { /* a line's folder: counted as a whole */
    const size_t n = (size_t)(strchr(rel, '/') - rel);
    for (int k = 0; k < l->nlines; ++k)
      if (strlen(l->line[k]) == n && !strncmp(l->line[k], rel, n)) {
        ++l->nline[k];
        return 0;
      }
    if (l->nlines == l->cap) { /* room for more (out of memory: the folder goes unlisted) */
      const int cap = l->cap ? 2 * l->cap : 16;
      int *nl = realloc(l->nline, sizeof *nl * (size_t)cap);
      if (nl) l->nline = nl;
      char(*ln)[PL_NAME_MAX + 8] = nl ? realloc(l->line, sizeof *ln * (size_t)cap) : NULL;
      if (ln) l->line = ln, l->cap = cap;
    }
    if (l->nlines < l->cap) {
      snprintf(l->line[l->nlines], sizeof l->line[0], "%.*s", (int)n, rel);
      l->nline[l->nlines++] = 1;
    }
    return 0;
  }
  for (size_t s = 0; s < sizeof kSub / sizeof *kSub; ++s)
    if (!strncmp(rel, kSub[s].dir, strlen(kSub[s].dir)) && rel[strlen(kSub[s].dir)] == '/') {
      ++l->nsub[s];
      return 0;
    }
  if (rel[0] == '.') return 0; /* a temporary file */
  const int k = snprintf(l->buf + l->used, l->len - l->used, "%s%s", l->used ? ", " : "", rel);
  if (k > 0 && (size_t)k < l->len - l->used) l->used += (size_t)k;
  return 0;
}

void PlOutputDescribeFiles(const char *dir, char *buf, size_t len)
{
  static Listing l;
  memset(&l, 0, sizeof l);
  l.buf = buf;
  l.len = len;
  buf[0] = '\0';
  ForEachRunFile(dir, ListOne, &l);
  for (int k = 0; k < l.nlines; ++k) {
    const int n = snprintf(buf + l.used, len - l.used, "%s%s/ (%d file%s)", l.used ? ", " : "", l.line[k], l.nline[k],
                           l.nline[k] == 1 ? "" : "s");
    if (n > 0 && (size_t)n < len - l.used) l.used += (size_t)n;
  }
  for (size_t s = 0; s < sizeof kSub / sizeof *kSub; ++s) {
    if (!l.nsub[s]) continue;
    const int k = snprintf(buf + l.used, len - l.used, "%s%s/ (%d file%s)", l.used ? ", " : "", kSub[s].dir, l.nsub[s],
                           l.nsub[s] == 1 ? "" : "s");
    if (k > 0 && (size_t)k < len - l.used) l.used += (size_t)k;
  }
  free(l.nline);
  free(l.line);
}
