/*
 * files.c - the result files' primitives: the output directory (mkdir -p) and atomic writes
 * (DIR/.NAME.tmp written, then renamed to DIR/NAME), so that a reader never sees a
 * half-written file and a failed write leaves the previous file in place.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "pipelay/results.h"

FILE *PlFileOpenAtomic(const char *dir, const char *name, char *path, size_t plen, char *tmp, size_t tlen,
                       PlError *err)
{
  if (snprintf(path, plen, "%s/%s", dir, name) >= (int)plen || snprintf(tmp, tlen, "%s/.%s.tmp", dir, name) >= (int)tlen) {
    snprintf(err->msg, sizeof err->msg, "%.900s/%.60s: path too long", dir, name);
    return NULL;
  }
  FILE *f = fopen(tmp, "w");
  if (!f) snprintf(err->msg, sizeof err->msg, "%.900s: cannot write: %s", tmp, strerror(errno));
  return f;
}

int PlMakeDirs(const char *dir, PlError *err)
{
  char buf[PL_PATH_MAX];
  if (!dir[0]) {
    snprintf(err->msg, sizeof err->msg, "the output directory is an empty path");
    return PL_EXIT_IO;
  }
  if (snprintf(buf, sizeof buf, "%s", dir) >= (int)sizeof buf) {
    snprintf(err->msg, sizeof err->msg, "%s: output directory path too long", dir);
    return PL_EXIT_IO;
  }
  for (char *c = buf + 1; ; ++c) {
    const char save = *c;
    if (save == '/' || save == '\0') {
      *c = '\0';
      if (mkdir(buf, 0777) && errno != EEXIST) {
        snprintf(err->msg, sizeof err->msg, "%.900s: cannot create the output directory: %s", buf, strerror(errno));
        return PL_EXIT_IO;
      }
      *c = save;
    }
    if (save == '\0') break;
  }
  struct stat sb;
  if (stat(dir, &sb) || !S_ISDIR(sb.st_mode)) {
    snprintf(err->msg, sizeof err->msg, "%s: the output path is not a directory", dir);
    return PL_EXIT_IO;
  }
  return 0;
}

int PlFileCommit(FILE *f, int bad, const char *tmp, const char *path, PlError *err)
{
  if (!f) bad = 1;
  else {
    bad |= ferror(f) != 0;
    bad |= fclose(f) != 0;
  }
  if (bad || rename(tmp, path)) {
    snprintf(err->msg, sizeof err->msg, "%.900s: write failed: %s", path, strerror(errno));
    remove(tmp);
    return PL_EXIT_IO;
  }
  return 0;
}

