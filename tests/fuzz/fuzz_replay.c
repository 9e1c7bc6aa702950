/*
 * fuzz_replay.c - runs a libFuzzer harness (LLVMFuzzerTestOneInput) over files, without
 * libFuzzer: the regression test of the fuzzing corpus in the ordinary (and the
 * sanitizer) build, with any C compiler.
 *
 * Usage: fuzz_replay PATH...   each PATH a file or a directory (its files, not recursive,
 *                              names starting with '.' skipped)
 * The harness aborts on a broken contract and the sanitizers stop the process on a
 * report, so reaching the end means every input passed: prints "N inputs passed" and
 * exits 0. Exits 1 when a path cannot be read or holds no input.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Reads the whole file into a malloc'd buffer; returns 0 or -1. */
static int read_file(const char *path, uint8_t **data, size_t *size)
{
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  size_t cap = 4096, len = 0;
  uint8_t *buf = malloc(cap);
  while (buf) {
    if (len == cap) {
      uint8_t *nb = realloc(buf, 2 * cap);
      if (!nb) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = nb;
      cap *= 2;
    }
    const size_t n = fread(buf + len, 1, cap - len, f);
    len += n;
    if (n == 0) break;
  }
  const int bad = ferror(f) || !buf;
  fclose(f);
  if (bad) {
    free(buf);
    return -1;
  }
  *data = buf;
  *size = len;
  return 0;
}

/* Runs the harness on one file; returns 0 or -1 (unreadable). */
static int run_file(const char *path)
{
  uint8_t *data = NULL;
  size_t size = 0;
  if (read_file(path, &data, &size)) {
    fprintf(stderr, "fuzz_replay: cannot read %s\n", path);
    return -1;
  }
  LLVMFuzzerTestOneInput(data, size);
  free(data);
  return 0;
}

static int cmp_names(const void *a, const void *b)
{
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Runs the harness on every file of directory dir (sorted); adds to *count. 0 or -1. */
static int run_dir(const char *dir, int *count)
{
  DIR *d = opendir(dir);
  if (!d) return -1;
  char **names = NULL;
  size_t n = 0, cap = 0;
  int rc = 0;
  struct dirent *de;
  while ((de = readdir(d)) != NULL) {
    if (de->d_name[0] == '.') continue;
    if (n == cap) {
      cap = cap ? 2 * cap : 64;
      char **nn = realloc(names, cap * sizeof *nn);
      if (!nn) {
        rc = -1;
        break;
      }
      names = nn;
    }
    names[n] = strdup(de->d_name);
    if (!names[n]) {
      rc = -1;
      break;
    }
    n++;
  }
  closedir(d);
  if (n) qsort(names, n, sizeof *names, cmp_names);
  for (size_t i = 0; i < n; i++) {
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    if (rc == 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
      if (run_file(path)) rc = -1;
      else (*count)++;
    }
    free(names[i]);
  }
  free(names);
  return rc;
}

int main(int argc, char **argv)
{
  int count = 0;
  if (argc < 2) {
    fprintf(stderr, "usage: %s FILE_OR_DIR...\n", argv[0]);
    return 1;
  }
  for (int i = 1; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st) != 0) {
      fprintf(stderr, "fuzz_replay: cannot read %s\n", argv[i]);
      return 1;
    }
    const int rc = S_ISDIR(st.st_mode) ? run_dir(argv[i], &count) : run_file(argv[i]);
    if (rc) {
      fprintf(stderr, "fuzz_replay: cannot read %s\n", argv[i]);
      return 1;
    }
    if (!S_ISDIR(st.st_mode)) count++;
  }
  if (count == 0) {
    fprintf(stderr, "fuzz_replay: no input\n");
    return 1;
  }
  printf("%d inputs passed\n", count);
  return 0;
}
