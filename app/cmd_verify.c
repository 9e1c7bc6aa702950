/*
 * cmd_verify.c - "pipelay verify [DIR] [--case NAME]... [--report DIR] [--skip-slow] [--reuse]":
 * runs the verification cases (verification/README.md), prints the table of checks and
 * writes the report.
 *
 * DIR (default: verification) is a folder of cases (every subfolder with a case.yaml, in
 * name order) or one case folder. For each case, every run of its case.yaml is a child
 * process of this program, "pipelay run MODEL --set ... --output REPORT/CASE/runs/ID
 * --quiet --no-plots", with its output in REPORT/CASE/runs/ID.log and its exit status in
 * REPORT/CASE/runs/ID.status (children keep runs isolated: a crash or an MPI abort in one
 * run does not take the others down). Then the checks are evaluated on the run files and
 * the plots drawn (tools/verify/verify.c). --reuse evaluates the runs already in REPORT
 * instead of running them again (to redraw a report). --ranks K runs each model on K MPI
 * ranks: "COMMAND -n K pipelay run ...", COMMAND from --mpiexec (default mpiexec, found in
 * PATH), so that the same checks test K ranks against the references.
 *
 * REPORT (default: verification_report) receives report.md (summary, per case: the
 * description from the top of case.yaml, runs with their wall times, the checks, the
 * plots), results.csv (every check, machine-readable) and one folder per case.
 * Exit status: 0 every check passed, 2 bad command line or case file, 4 the report could
 * not be written, 6 (PL_EXIT_CHECK_FAILED) a check failed or could not be evaluated.
 */
#define _XOPEN_SOURCE 700 /* nftw */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "commands.h"
#include "pipelay/output.h"
#include "../tools/verify/verify.h"

static const char usage[] =
  "usage: pipelay verify [DIR] [--case NAME]... [--report DIR] [--skip-slow] [--reuse]\n"
  "                      [--ranks K [--mpiexec COMMAND]]\n"
  "Runs the verification cases in DIR (default: verification; a folder of case folders, or\n"
  "one case folder), prints the table of checks and writes DIR_REPORT/report.md with plots\n"
  "(--report, default: verification_report). --case runs only the named cases; --skip-slow\n"
  "leaves out the cases marked slow; --reuse evaluates the runs already in the report folder.\n"
  "--ranks K runs every model on K MPI ranks, as COMMAND -n K pipelay run ... (COMMAND: mpiexec\n"
  "unless --mpiexec gives another, e.g. \"mpiexec --oversubscribe\"; its words split at blanks):\n"
  "the checks then show that K ranks reproduce the reference as one rank does.\n"
  "Exit status: 0 all checks pass, 2 bad input, 4 report not written, 6 a check failed.\n";

typedef struct {
  PlVerifyCase *c;             /* loaded case (heap) */
  int status[PL_VERIFY_MAX_RUNS];
  double wall[PL_VERIFY_MAX_RUNS]; /* [s] per run */
  double case_wall;            /* [s] runs + evaluation + plots */
  int nplots;                  /* plots drawn */
  PlCheckResult *results;      /* [c->nchecks] */
} CaseRun;

static double Now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int IsDir(const char *p)
{
  struct stat sb;
  return !stat(p, &sb) && S_ISDIR(sb.st_mode);
}

static int HasCase(const char *dir)
{
  char p[PL_PATH_MAX + 16];
  struct stat sb;
  snprintf(p, sizeof p, "%s/case.yaml", dir);
  return !stat(p, &sb) && S_ISREG(sb.st_mode);
}

static int CompareStrings(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Case folders under root (sorted, malloc'd strings), or root itself when it is a case. */
static int ListCases(const char *root, char ***out)
{
  *out = NULL;
  char **v = NULL;
  int n = 0;
  if (HasCase(root)) {
    v = malloc(sizeof *v);
    if (v && (v[0] = strdup(root))) n = 1;
    *out = v;
    return n;
  }
  DIR *d = opendir(root);
  if (!d) return 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char p[PL_PATH_MAX];
    if (snprintf(p, sizeof p, "%s/%s", root, e->d_name) >= (int)sizeof p || !IsDir(p) || !HasCase(p)) continue;
    char **w = realloc(v, sizeof *v * (size_t)(n + 1));
    if (!w) break;
    v = w;
    if (!(v[n] = strdup(p))) break;
    ++n;
  }
  closedir(d);
  if (n) qsort(v, (size_t)n, sizeof *v, CompareStrings);
  *out = v;
  return n;
}

static int RemoveEntry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
  (void)sb;
  (void)flag;
  (void)ftw;
  remove(path);
  return 0;
}

/* mkdir -p */
static int MakeDirs(const char *dir)
{
  char buf[PL_PATH_MAX];
  if (snprintf(buf, sizeof buf, "%s", dir) >= (int)sizeof buf) return -1;
  for (char *c = buf + 1;; ++c) {
    const char save = *c;
    if (save == '/' || !save) {
      *c = '\0';
      if (mkdir(buf, 0777) && errno != EEXIST) return -1;
      *c = save;
    }
    if (!save) break;
  }
  return IsDir(dir) ? 0 : -1;
}

/* Runs "pipelay run ..." for run r of case c into work/runs/ID; returns its exit status
 * (128 + signal when killed, 127 when it could not start). */
/* How runs are started: directly, or under an MPI launcher with K ranks. */
typedef struct {
  int ranks;                 /* 1: this program directly */
  char words[512];           /* the launcher command, its words separated by NULs */
  const char *argv[16];      /* the launcher's words */
  int nargv;
} Launcher;

/* Splits COMMAND at blanks into l->argv; -1 when it is empty or has more than 12 words. */
static int LauncherParse(Launcher *l, const char *command)
{
  if (snprintf(l->words, sizeof l->words, "%s", command) >= (int)sizeof l->words) return -1;
  l->nargv = 0;
  for (char *tok = strtok(l->words, " \t"); tok; tok = strtok(NULL, " \t")) {
    if (l->nargv == 12) return -1;
    l->argv[l->nargv++] = tok;
  }
  return l->nargv ? 0 : -1;
}

static int SpawnRun(const char *self, const Launcher *launch, const PlVerifyCase *c, const PlVerifyRun *r,
                    const char *work)
{
  char out[PL_PATH_MAX + 256], log[PL_PATH_MAX + 256], model[2 * PL_PATH_MAX];
  snprintf(out, sizeof out, "%s/runs/%s", work, r->id);
  snprintf(log, sizeof log, "%s/runs/%s.log", work, r->id);
  if (r->model[0] == '/') snprintf(model, sizeof model, "%s", r->model);
  else snprintf(model, sizeof model, "%s/%s", c->dir, r->model);
  nftw(out, RemoveEntry, 16, FTW_DEPTH | FTW_PHYS); /* no stale files of an earlier run */
  const char *argv[32 + 2 * PL_VERIFY_MAX_SETS];
  char ranks[32];
  int n = 0;
  if (launch->ranks > 1) {
    for (int k = 0; k < launch->nargv; ++k) argv[n++] = launch->argv[k];
    snprintf(ranks, sizeof ranks, "%d", launch->ranks);
    argv[n++] = "-n";
    argv[n++] = ranks;
    argv[n++] = self;
  } else argv[n++] = "pipelay";
  argv[n++] = "run";
  argv[n++] = model;
  for (int k = 0; k < r->nsets; ++k) {
    argv[n++] = "--set";
    argv[n++] = r->sets[k];
  }
  argv[n++] = "--output";
  argv[n++] = out;
  argv[n++] = "--quiet";
  argv[n++] = "--no-plots";
  argv[n] = NULL;
  fflush(NULL);
  const pid_t pid = fork();
  if (pid < 0) return 127;
  if (pid == 0) {
    const int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
      close(fd);
    }
    if (launch->ranks > 1) execvp(argv[0], (char *const *)argv);
    else execv(self, (char *const *)argv);
    fprintf(stderr, "pipelay verify: cannot run %s: %s\n", launch->ranks > 1 ? argv[0] : self, strerror(errno));
    _exit(127);
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return 127;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

static void WriteStatus(const char *work, const char *id, int status, double wall)
{
  char p[PL_PATH_MAX + 256];
  snprintf(p, sizeof p, "%s/runs/%s.status", work, id);
  FILE *f = fopen(p, "w");
  if (!f) return;
  fprintf(f, "%d %.6f\n", status, wall);
  fclose(f);
}

/* --reuse: the status and wall time saved by an earlier verify; 127 when there is none. */
static int ReadStatus(const char *work, const char *id, double *wall)
{
  char p[PL_PATH_MAX + 256];
  snprintf(p, sizeof p, "%s/runs/%s.status", work, id);
  FILE *f = fopen(p, "r");
  int status = 127;
  *wall = 0;
  if (!f) return status;
  if (fscanf(f, "%d %lf", &status, wall) != 2) status = 127;
  fclose(f);
  return status;
}

static void MdText(FILE *f, const char *s)
{
  for (; *s; ++s) {
    if (*s == '|') fputs("\\|", f);
    else fputc(*s, f);
  }
}

/* The case's part of report.md. */
static void ReportCase(FILE *f, const char *report, const CaseRun *cr)
{
  const PlVerifyCase *c = cr->c;
  int pass = 0;
  for (int k = 0; k < c->nchecks; ++k) pass += cr->results[k].pass || cr->results[k].known_miss;
  fprintf(f, "\n## %s: %s\n\n", c->name, c->title);
  fprintf(f, "%s, %d of %d checks pass; wall time %.1f s%s.\n\n", pass == c->nchecks ? "**Passes**" : "**FAILS**", pass,
          c->nchecks, cr->case_wall, c->slow ? " (marked slow)" : "");
  if (c->about[0]) fprintf(f, "```text\n%s```\n\n", c->about);
  fputs("| run | model | overrides | exit status | wall time |\n|---|---|---|---|---|\n", f);
  for (int k = 0; k < c->nruns; ++k) {
    const PlVerifyRun *r = &c->runs[k];
    fprintf(f, "| %s | `%s` | ", r->id, r->model);
    for (int s = 0; s < r->nsets; ++s) {
      fputs(s ? ", `" : "`", f);
      MdText(f, r->sets[s]);
      fputs("`", f);
    }
    fprintf(f, " | %d | %.1f s |\n", cr->status[k], cr->wall[k]);
  }
  fputs("\n", f);
  PlCheckPrintMarkdown(f, cr->results, c->nchecks, 1);
  fputs("\n", f);
  for (int p = 0; p < c->nplots; ++p) {
    char png[PL_PATH_MAX], full[2 * PL_PATH_MAX];
    struct stat sb;
    snprintf(png, sizeof png, "%s/%s.png", c->name, c->plots[p].name);
    snprintf(full, sizeof full, "%s/%s", report, png);
    if (!stat(full, &sb))
      fprintf(f, "![%s](%s)\n\n", c->plots[p].title[0] ? c->plots[p].title : c->plots[p].name, png);
    else
      fprintf(f, "(plot %s not drawn: see the warnings of the verify run; its script is %s/%s.gp)\n\n",
              c->plots[p].name, c->name, c->plots[p].name);
  }
}

static int WriteReport(const char *report, CaseRun *cases, int ncases, int argc, char **argv, int *nfail)
{
  char path[PL_PATH_MAX + 64], tmp[PL_PATH_MAX + 64];
  int total = 0, passed = 0;
  for (int i = 0; i < ncases; ++i)
    for (int k = 0; k < cases[i].c->nchecks; ++k)
      ++total, passed += cases[i].results[k].pass || cases[i].results[k].known_miss;
  *nfail = total - passed; /* known misses (listed in case.yaml with their evidence) do not count */
  snprintf(path, sizeof path, "%s/report.md", report);
  snprintf(tmp, sizeof tmp, "%s/.report.md.tmp", report);
  FILE *f = fopen(tmp, "w");
  if (!f) {
    fprintf(stderr, "pipelay: %s: cannot write: %s\n", tmp, strerror(errno));
    return PL_EXIT_IO;
  }
  char when[64];
  const time_t now = time(NULL);
  strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", gmtime(&now));
  fprintf(f, "# pipelay verification report\n\n"
             "pipelay %s, %s. Command: `pipelay", PIPELAY_VERSION, when);
  for (int k = 1; k < argc; ++k) fprintf(f, " %s", argv[k]);
  fprintf(f, "`.\n\n**%s**: %d of %d checks pass in %d case%s.\n\n", passed == total ? "All checks pass" : "Checks fail",
          passed, total, ncases, ncases == 1 ? "" : "s");
  fputs("The cases, their reference data and the tolerance formats are described in "
        "verification/README.md of the source tree. Every case folder holds the model files, the "
        "reference data (with their source) and case.yaml; this report's folder holds, per case, "
        "the runs (`CASE/runs/ID/`, with `ID.log`), the plots (PNG, SVG and the gnuplot scripts) and "
        "`results.csv` at the top (every check, machine-readable).\n\n", f);
  fputs("| case | title | checks passed | wall time | result |\n|---|---|---|---|---|\n", f);
  for (int i = 0; i < ncases; ++i) {
    int p = 0;
    for (int k = 0; k < cases[i].c->nchecks; ++k) p += cases[i].results[k].pass || cases[i].results[k].known_miss;
    fprintf(f, "| [%s](#%s) | ", cases[i].c->name, cases[i].c->name);
    MdText(f, cases[i].c->title);
    fprintf(f, " | %d / %d | %.1f s | %s |\n", p, cases[i].c->nchecks, cases[i].case_wall,
            p == cases[i].c->nchecks ? "pass" : "**FAIL**");
  }
  fputs("\nError and tolerance columns: `abs` differences are in the quantity's unit; `rel` is "
        "(computed − reference)/|reference|; for a series, the computed series is interpolated "
        "linearly onto the reference's abscissae (arc length S or time t): `abs`/`rel` give the "
        "largest difference (where it occurs), `RMS … of range` the RMS difference over the "
        "reference's range (max − min), `max`/`min rel` the relative error of the extreme values; "
        "`decreasing` asks a sequence (e.g. RMS differences over refined meshes) to fall, and shows its "
        "largest ratio of a value to the one before; `|comp| <= …% of |ref|` (ratio_max) bounds a number "
        "by a fraction of another (e.g. what one run leaves of another run's offset), and shows "
        "|computed|/|reference|.\n", f);
  for (int i = 0; i < ncases; ++i) ReportCase(f, report, &cases[i]);
  int bad = ferror(f);
  if (fclose(f)) bad = 1;
  if (bad || rename(tmp, path)) {
    fprintf(stderr, "pipelay: %s: write failed\n", path);
    return PL_EXIT_IO;
  }
  /* every result in one CSV */
  int n = 0;
  for (int i = 0; i < ncases; ++i) n += cases[i].c->nchecks;
  PlCheckResult *all = calloc(n > 0 ? (size_t)n : 1, sizeof *all);
  if (!all) return PL_EXIT_IO;
  n = 0;
  for (int i = 0; i < ncases; ++i)
    for (int k = 0; k < cases[i].c->nchecks; ++k) all[n++] = cases[i].results[k];
  PlError err;
  snprintf(path, sizeof path, "%s/results.csv", report);
  const int rc = PlCheckWriteCsv(path, all, n, &err);
  if (rc) fprintf(stderr, "pipelay: %s\n", err.msg);
  free(all);
  return rc;
}

int PlCmdVerify(int argc, char **argv)
{
  const char *root = "verification", *report = "verification_report";
  const char *only[64];
  const char *mpiexec = "mpiexec";
  int nonly = 0, skip_slow = 0, reuse = 0, root_given = 0;
  Launcher launch = {.ranks = 1};
  for (int i = 2; i < argc; ++i) {
    if (!strcmp(argv[i], "--ranks") || !strcmp(argv[i], "--mpiexec")) {
      if (i + 1 >= argc || !argv[i + 1][0]) {
        fprintf(stderr, "pipelay: %s needs a value\n%s", argv[i], usage);
        return PL_EXIT_BAD_INPUT;
      }
      if (argv[i][2] == 'm') mpiexec = argv[++i];
      else {
        char *end;
        const long k = strtol(argv[++i], &end, 10);
        if (*end || k < 1 || k > 4096) {
          fprintf(stderr, "pipelay: --ranks %s: give a whole number of MPI ranks from 1 to 4096\n", argv[i]);
          return PL_EXIT_BAD_INPUT;
        }
        launch.ranks = (int)k;
      }
    } else if (!strcmp(argv[i], "--case") || !strcmp(argv[i], "--report")) {
      if (i + 1 >= argc || !argv[i + 1][0]) {
        fprintf(stderr, "pipelay: %s needs a value\n%s", argv[i], usage);
        return PL_EXIT_BAD_INPUT;
      }
      if (argv[i][2] == 'r') report = argv[++i];
      else if (nonly == 64) {
        fprintf(stderr, "pipelay: more than 64 --case options\n");
        return PL_EXIT_BAD_INPUT;
      } else only[nonly++] = argv[++i];
    } else if (!strcmp(argv[i], "--skip-slow")) skip_slow = 1;
    else if (!strcmp(argv[i], "--reuse")) reuse = 1;
    else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      fputs(usage, stdout);
      return PL_EXIT_OK;
    } else if (argv[i][0] != '-' && !root_given) {
      root = argv[i];
      root_given = 1;
    } else {
      fprintf(stderr, "pipelay: unknown argument '%s'\n%s", argv[i], usage);
      return PL_EXIT_BAD_INPUT;
    }
  }
  /* without a DIR: ./verification, else the verification/ beside the build folder of this
   * program (build/pipelay -> verification/), so that it runs from any directory */
  static char beside[PL_PATH_MAX];
  struct stat sb;
  if (!root_given && stat(root, &sb)) {
    char exe[PL_PATH_MAX];
    const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
      exe[n] = '\0';
      char *slash = strrchr(exe, '/');
      if (slash) *slash = '\0';
      if (snprintf(beside, sizeof beside, "%s/../verification", exe) < (int)sizeof beside && !stat(beside, &sb) &&
          S_ISDIR(sb.st_mode))
        root = beside;
    }
  }
  if (strlen(root) > PL_PATH_MAX - 300 || strlen(report) > PL_PATH_MAX - 300) {
    fprintf(stderr, "pipelay: path too long\n");
    return PL_EXIT_BAD_INPUT;
  }
  if (!IsDir(root)) {
    fprintf(stderr, "pipelay: %s: not a directory (a folder of verification cases, or one case folder)\n", root);
    return PL_EXIT_BAD_INPUT;
  }
  if (LauncherParse(&launch, mpiexec)) {
    fprintf(stderr, "pipelay: --mpiexec '%s': give the MPI launcher command, at most 12 words\n", mpiexec);
    return PL_EXIT_BAD_INPUT;
  }
  char self[PL_PATH_MAX];
  const ssize_t ns = readlink("/proc/self/exe", self, sizeof self - 1);
  if (ns <= 0) {
    fprintf(stderr, "pipelay: cannot find this program (/proc/self/exe): %s\n", strerror(errno));
    return PL_EXIT_FAILURE;
  }
  self[ns] = '\0';

  char **dirs;
  const int ndirs = ListCases(root, &dirs);
  CaseRun *cases = calloc(ndirs > 0 ? (size_t)ndirs : 1, sizeof *cases);
  int ncases = 0, rc = 0;
  int found[64] = {0};
  for (int i = 0; !rc && cases && i < ndirs; ++i) {
    PlVerifyCase *c = malloc(sizeof *c);
    PlError err;
    if (!c) {
      rc = PL_EXIT_FAILURE;
      break;
    }
    if (PlVerifyCaseLoad(dirs[i], c, &err)) {
      fprintf(stderr, "%s\n", err.msg);
      free(c);
      rc = PL_EXIT_BAD_INPUT;
      break;
    }
    int take = !nonly;
    for (int k = 0; k < nonly; ++k)
      if (!strcmp(only[k], c->name)) take = found[k] = 1;
    if (skip_slow && c->slow) take = 0;
    if (!take) {
      free(c);
      continue;
    }
    cases[ncases++].c = c;
  }
  for (int k = 0; !rc && k < nonly; ++k)
    if (!found[k]) {
      fprintf(stderr, "pipelay: no case '%s' in %s\n", only[k], root);
      rc = PL_EXIT_BAD_INPUT;
    }
  if (!rc && !ncases) {
    fprintf(stderr, "pipelay: %s: no verification cases to run (folders with a case.yaml)\n", root);
    rc = PL_EXIT_BAD_INPUT;
  }
  if (!rc && MakeDirs(report)) {
    fprintf(stderr, "pipelay: %s: cannot create the report folder: %s\n", report, strerror(errno));
    rc = PL_EXIT_IO;
  }
  for (int i = 0; !rc && i < ncases; ++i) {
    CaseRun *cr = &cases[i];
    const PlVerifyCase *c = cr->c;
    char work[PL_PATH_MAX + 128], runs[PL_PATH_MAX + 256];
    snprintf(work, sizeof work, "%s/%s", report, c->name);
    snprintf(runs, sizeof runs, "%s/runs", work);
    if (MakeDirs(runs)) {
      fprintf(stderr, "pipelay: %s: cannot create: %s\n", runs, strerror(errno));
      rc = PL_EXIT_IO;
      break;
    }
    const double t0 = Now();
    for (int k = 0; k < c->nruns; ++k) {
      if (reuse) {
        cr->status[k] = ReadStatus(work, c->runs[k].id, &cr->wall[k]);
        continue;
      }
      if (launch.ranks > 1) printf("verify %s: run %s on %d ranks ...", c->name, c->runs[k].id, launch.ranks);
      else printf("verify %s: run %s ...", c->name, c->runs[k].id);
      fflush(stdout);
      const double r0 = Now();
      cr->status[k] = SpawnRun(self, &launch, c, &c->runs[k], work);
      cr->wall[k] = Now() - r0;
      WriteStatus(work, c->runs[k].id, cr->status[k], cr->wall[k]);
      printf(" %s (%.1f s)\n", cr->status[k] ? "FAILED" : "done", cr->wall[k]);
      if (cr->status[k])
        printf("verify %s: run %s exit status %d: see %s/%s.log\n", c->name, c->runs[k].id, cr->status[k], runs,
               c->runs[k].id);
    }
    cr->results = calloc((size_t)c->nchecks, sizeof *cr->results);
    if (!cr->results) {
      rc = PL_EXIT_FAILURE;
      break;
    }
    PlVerifyCaseEvaluate(c, work, cr->status, cr->results);
    cr->nplots = PlVerifyCasePlots(c, work, stderr);
    cr->case_wall = Now() - t0;
    if (reuse)
      for (int k = 0; k < c->nruns; ++k) cr->case_wall += cr->wall[k];
  }
  int nfail = 0;
  if (!rc) {
    int n = 0;
    for (int i = 0; i < ncases; ++i) n += cases[i].c->nchecks;
    PlCheckResult *all = calloc((size_t)n, sizeof *all);
    if (all) {
      n = 0;
      for (int i = 0; i < ncases; ++i)
        for (int k = 0; k < cases[i].c->nchecks; ++k) all[n++] = cases[i].results[k];
      printf("\n");
      PlCheckPrintTable(stdout, all, n);
      free(all);
    }
    rc = WriteReport(report, cases, ncases, argc, argv, &nfail);
    if (!rc) printf("report: %s/report.md (plots and runs in %s/CASE/)\n", report, report);
    if (!rc && nfail) rc = PL_EXIT_CHECK_FAILED;
  }
  for (int i = 0; i < ncases; ++i) {
    free(cases[i].c);
    free(cases[i].results);
  }
  free(cases);
  for (int i = 0; i < ndirs; ++i) free(dirs[i]);
  free(dirs);
  return rc;
}
