/*
 * plot.c - plots of a run, drawn by gnuplot from the CSV files in the output directory.
 *
 * For every plot NAME this writes DIR/plots/NAME.gp, a self-contained gnuplot script that
 * reads ../static.csv (or ../envelopes.csv, ../timeseries_<point>.csv) by column name and
 * writes NAME.png (pngcairo, or png when cairo is missing) and NAME.svg beside itself; it
 * then runs "gnuplot NAME.gp" in DIR/plots through popen and checks that both images
 * appeared. The scripts change to their own directory first, so a user can edit one and
 * rerun it from anywhere: gnuplot DIR/plots/NAME.gp. Because the plots are made from the
 * files, "pipelay plot DIR" redraws those of a finished run.
 *
 * Units on the axes: lengths m, forces kN, moments kN m, force per length kN/m, curvature
 * 1/m, time s (the CSV columns are SI; the scripts divide by 1e3 where they say kN).
 * The gnuplot program is "gnuplot" on PATH, or the one named by the environment variable
 * PIPELAY_GNUPLOT. Plots never fail a run: every problem is a warning on o->warnings.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "output_impl.h"

void PlPlotOptionsDefault(PlPlotOptions *o)
{
  memset(o, 0, sizeof *o);
  o->water_depth_m = NAN;
  o->touchdown_S_m = NAN;
  o->warnings = stderr;
}

static void Warn(const PlPlotOptions *o, const char *fmt, ...)
{
  if (!o->warnings) return;
  va_list ap;
  va_start(ap, fmt);
  fputs("pipelay: warning: ", o->warnings);
  vfprintf(o->warnings, fmt, ap);
  fputc('\n', o->warnings);
  va_end(ap);
}

void PlPlotOptionsFromModel(PlPlotOptions *o, const PlModel *m, const char *dir)
{
  o->water_depth_m = m->water_depth;
  o->seabed_dzdx = -m->seabed_normal[0] / m->seabed_normal[2]; /* the plane along x at y = 0 */
  snprintf(o->name, sizeof o->name, "%s", m->name);
  o->nboundaries = 0;
  double S = 0.0;
  for (int k = 0; k + 1 < m->nsegments && o->nboundaries < PL_PLOT_MAX_MARKS; ++k) {
    S += m->segments[k].length;
    o->boundary_S_m[o->nboundaries++] = S;
  }
  o->touchdown_S_m = NAN;
  cJSON *root = PlOutputSummaryRead(dir);
  const cJSON *td = cJSON_GetObjectItemCaseSensitive(root, "touchdown_arc_length_m");
  if (!td) td = cJSON_GetObjectItemCaseSensitive(root, "static_touchdown_arc_length_m");
  if (cJSON_IsNumber(td)) o->touchdown_S_m = td->valuedouble;
  cJSON_Delete(root);
}

void PlPlotOptionsFromRun(const char *dir, PlPlotOptions *o)
{
  FILE *warnings = o->warnings;
  PlPlotOptionsDefault(o);
  o->warnings = warnings;
  char path[PL_PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/summary.json", dir);
  cJSON *root = PlOutputSummaryRead(dir);
  const cJSON *in = cJSON_GetObjectItemCaseSensitive(root, "input");
  const cJSON *name = cJSON_GetObjectItemCaseSensitive(in, "name");
  const cJSON *file = cJSON_GetObjectItemCaseSensitive(in, "model_file");
  const cJSON *ov = cJSON_GetObjectItemCaseSensitive(in, "overrides");
  if (cJSON_IsString(name)) snprintf(o->name, sizeof o->name, "%s", name->valuestring);
  if (cJSON_IsString(file)) {
    int n = cJSON_IsArray(ov) ? cJSON_GetArraySize(ov) : 0, ok = 1;
    const char **sets = calloc(n > 0 ? (size_t)n : 1, sizeof *sets);
    for (int k = 0; sets && k < n; ++k) {
      const cJSON *s = cJSON_GetArrayItem(ov, k);
      if (cJSON_IsString(s)) sets[k] = s->valuestring;
      else ok = 0;
    }
    /* the model file as given (relative to the run's working directory), else relative
     * to the parent of dir (an output directory made beside the model's tree) */
    PlModel *m = calloc(1, sizeof *m);
    PlError err;
    char alt[2 * PL_PATH_MAX];
    const char *slash = strrchr(dir, '/');
    if (slash) snprintf(alt, sizeof alt, "%.*s/%s", (int)(slash - dir), dir, file->valuestring);
    int loaded = sets && m && ok && !PlModelLoad(file->valuestring, n, sets, m, &err);
    if (!loaded && sets && m && ok && slash && file->valuestring[0] != '/') {
      PlModelFree(m);
      loaded = !PlModelLoad(alt, n, sets, m, &err);
    }
    if (loaded) PlPlotOptionsFromModel(o, m, dir);
    else
      Warn(o, "the model of %s (%s) could not be loaded again: the seabed is not drawn", path,
           file->valuestring);
    PlModelFree(m);
    free(m);
    free(sets);
  }
  cJSON_Delete(root);
}

/* ---- a growing text buffer ------------------------------------------------------------- */
typedef struct {
  char *s;       /* text (malloc'd), NUL-terminated */
  size_t n, cap; /* length and allocation */
  int failed;    /* out of memory: the text is incomplete */
} Text;

static void Add(Text *t, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  va_list ap2;
  va_copy(ap2, ap);
  const int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0 || t->failed) {
    t->failed = 1;
    va_end(ap2);
    return;
  }
  if (t->n + (size_t)n + 1 > t->cap) {
    size_t c = t->cap ? 2 * t->cap : 4096;
    while (c < t->n + (size_t)n + 1) c *= 2;
    char *p = realloc(t->s, c);
    if (!p) {
      t->failed = 1;
      va_end(ap2);
      return;
    }
    t->s = p;
    t->cap = c;
  }
  vsnprintf(t->s + t->n, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  t->n += (size_t)n;
}

/* ---- running gnuplot ----------------------------------------------------------------- */
/* The scripts are written as they come and drawn together at the end (PlotterDrain): in as
 * many gnuplot processes as the machine has cores (at most PL_PLOT_JOBS), each drawing its
 * share of the scripts one after another ("gnuplot a.gp b.gp ..."; every script begins with
 * reset, so none inherits another's settings). A gnuplot process costs about as much to start
 * as to draw one plot, so one per script (13 for a dynamic run) spent half the plots' time
 * starting. */
#define PL_PLOT_JOBS 8    /* at most this many gnuplot processes at once */
#define PL_PLOT_QUEUE 64  /* scripts per plotter */

typedef struct {
  const PlPlotOptions *o;
  char dir[PL_PATH_MAX];          /* the run's output directory */
  char plots[PL_PATH_MAX + 8];    /* dir/plots */
  char gnuplot[PL_PATH_MAX];      /* the gnuplot program, "" when not found */
  char name_gp[600];              /* the model name as a gnuplot single-quoted string body */
  char queue[PL_PLOT_QUEUE][128]; /* the scripts to draw (names) */
  int nqueue, slots;              /* queued; processes allowed at once (the machine's cores) */
  int made, failed;               /* images drawn; a script failed */
} Plotter;
void PlOutputFindGnuplot(char *out, size_t len)
{
  const char *env = getenv("PIPELAY_GNUPLOT");
  out[0] = '\0';
  if (env && env[0]) {
    if (strchr(env, '/')) {
      if (!access(env, X_OK)) snprintf(out, len, "%s", env);
      return;
    }
  } else env = "gnuplot";
  const char *path = getenv("PATH");
  if (!path) path = "/usr/bin:/bin";
  while (*path) {
    const char *end = strchr(path, ':');
    const size_t n = end ? (size_t)(end - path) : strlen(path);
    char cand[PL_PATH_MAX];
    if (n > 0 && snprintf(cand, sizeof cand, "%.*s/%s", (int)n, path, env) < (int)sizeof cand &&
        !access(cand, X_OK)) {
      snprintf(out, len, "%s", cand);
      return;
    }
    path += n;
    if (*path == ':') ++path;
  }
}

/* Appends s to t in single quotes for /bin/sh. */
static void AddShellQuoted(Text *t, const char *s)
{
  Add(t, "'");
  for (; *s; ++s) {
    if (*s == '\'') Add(t, "'\\''");
    else Add(t, "%c", *s);
  }
  Add(t, "'");
}

/* Sets up a plotter for dir; returns 0, or -1 with a warning (no gnuplot, no plots dir). */
static int PlotterInit(Plotter *P, const char *dir, const PlPlotOptions *o)
{
  memset(P, 0, sizeof *P);
  P->o = o;
  if (strlen(dir) >= PL_PATH_MAX - 64) {
    Warn(o, "%.900s: path too long for plots", dir);
    return -1;
  }
  snprintf(P->dir, sizeof P->dir, "%s", dir);
  snprintf(P->plots, sizeof P->plots, "%s/plots", dir);
  PlError err;
  if (PlMakeDirs(P->plots, &err)) {
    Warn(o, "no plots: %s", err.msg);
    return -1;
  }
  /* the model name inside '...' in gnuplot: quote doubled, control characters dropped */
  size_t k = 0;
  for (const char *c = o->name; *c && k + 3 < sizeof P->name_gp; ++c) {
    if ((unsigned char)*c < 32 || *c == 127) continue;
    if (*c == '\'') P->name_gp[k++] = '\'';
    P->name_gp[k++] = *c;
  }
  P->name_gp[k] = '\0';
  PlOutputFindGnuplot(P->gnuplot, sizeof P->gnuplot);
  const long cores = sysconf(_SC_NPROCESSORS_ONLN);
  P->slots = cores < 1 ? 1 : cores > PL_PLOT_JOBS ? PL_PLOT_JOBS : (int)cores;
  return 0;
}

/* Reads a gnuplot process's output and waits for it; checks that every script of its batch
 * (queue entries first, first + step, ...) wrote both images: P->made, or a warning and
 * P->failed. */
static void FinishBatch(Plotter *P, FILE *p, int first, int step)
{
  const PlPlotOptions *o = P->o;
  char out[2048];
  size_t nout = 0;
  for (;;) {
    char buf[512];
    const size_t n = fread(buf, 1, sizeof buf, p);
    if (!n) break;
    for (size_t k = 0; k < n && nout + 1 < sizeof out; ++k) out[nout++] = buf[k];
  }
  out[nout] = '\0';
  const int status = pclose(p);
  int bad = 0;
  if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status)) {
    while (nout && (out[nout - 1] == '\n' || out[nout - 1] == ' ')) out[--nout] = '\0';
    Warn(o, "gnuplot failed (status %d) on %s/%s.gp or a script after it in its batch%s%s",
         status == -1 ? -1 : WEXITSTATUS(status), P->plots, P->queue[first], nout ? ":\n" : "", out);
    bad = P->failed = 1;
  }
  for (int q = first; q < P->nqueue; q += step)
    for (int k = 0; k < 2; ++k) {
      char img[PL_PATH_MAX + 256];
      struct stat sb;
      snprintf(img, sizeof img, "%s/%s.%s", P->plots, P->queue[q], k ? "svg" : "png");
      if (stat(img, &sb) || sb.st_size == 0) {
        if (!bad) Warn(o, "gnuplot did not write %s", img);
        bad = P->failed = 1;
      } else
        P->made++;
    }
}

/* Plots drawn behind the run (PlPlotInBackground): a plotter's processes and its copy. */
typedef struct Pending {
  Plotter P;
  PlPlotOptions o;
  FILE *proc[PL_PLOT_JOBS];
  int nb;
  struct Pending *next;
} Pending;
static int g_background;
static Pending *g_pending;

void PlPlotInBackground(int on) { g_background = on; }

/* Draws the queued scripts (see the section's comment) and waits for them; adds their images
 * to *n and a failure to *failed. In the background (PlPlotInBackground) it starts them and
 * returns; PlPlotWaitBackground collects them. */
static void PlotterDrain(Plotter *P, int *n, int *failed)
{
  const int nb = P->nqueue < P->slots ? P->nqueue : P->slots;
  FILE *proc[PL_PLOT_JOBS] = {NULL};
  for (int b = 0; b < nb; ++b) {
    Text cmd = {0};
    Add(&cmd, "cd ");
    AddShellQuoted(&cmd, P->plots);
    Add(&cmd, " && exec ");
    AddShellQuoted(&cmd, P->gnuplot);
    for (int q = b; q < P->nqueue; q += nb) {
      Add(&cmd, " ");
      AddShellQuoted(&cmd, P->queue[q]);
      Add(&cmd, ".gp");
    }
    Add(&cmd, " 2>&1");
    if (cmd.failed) {
      Warn(P->o, "%s: out of memory", P->plots);
      P->failed = 1;
    } else {
      fflush(NULL); /* the child must not repeat our buffered output */
      proc[b] = popen(cmd.s, "r");
      if (!proc[b]) {
        Warn(P->o, "cannot run %s: %s", P->gnuplot, strerror(errno));
        P->failed = 1;
      }
    }
    free(cmd.s);
  }
  Pending *bg = g_background && nb > 0 ? malloc(sizeof *bg) : NULL;
  if (bg) {
    bg->P = *P;
    bg->o = *P->o;
    bg->P.o = &bg->o;
    memcpy(bg->proc, proc, sizeof proc);
    bg->nb = nb;
    bg->next = g_pending;
    g_pending = bg;
  } else
    for (int b = 0; b < nb; ++b)
      if (proc[b]) FinishBatch(P, proc[b], b, nb);
  P->nqueue = 0;
  *n += P->made;
  if (P->failed) *failed = 1;
  P->made = P->failed = 0;
}

int PlPlotWaitBackground(void)
{
  int made = 0, failed = 0;
  while (g_pending) {
    Pending *bg = g_pending;
    g_pending = bg->next;
    for (int b = 0; b < bg->nb; ++b)
      if (bg->proc[b]) FinishBatch(&bg->P, bg->proc[b], b, bg->nb);
    made += bg->P.made;
    failed |= bg->P.failed;
    free(bg);
  }
  return failed ? -1 : made;
}

static void WarnNoGnuplot(const Plotter *P);

/* Waits for the plotter's scripts: the number of images made (n those counted before), or -1
 * when one failed or gnuplot is missing (with the warning). */
static int PlotterFinish(Plotter *P, int n, int failed)
{
  PlotterDrain(P, &n, &failed);
  if (!P->gnuplot[0]) {
    WarnNoGnuplot(P);
    return -1;
  }
  return failed ? -1 : n;
}

/* Writes plots/name.gp (preamble, then body once per image format) and queues it for
 * PlotterDrain, which draws it and counts its images. width x height in pixels. Returns 0
 * when queued, or -1 with a warning. Without gnuplot only the script is written (the caller
 * warns once). */
static int RunScript(Plotter *P, const char *name, int width, int height, const Text *body)
{
  const PlPlotOptions *o = P->o;
  char gp[PL_PATH_MAX + 256], tmp[PL_PATH_MAX + 300];
  snprintf(gp, sizeof gp, "%s/%s.gp", P->plots, name);
  snprintf(tmp, sizeof tmp, "%s/.%s.gp.tmp", P->plots, name);
  if (body->failed) {
    Warn(o, "%s: out of memory", gp);
    return -1;
  }
  FILE *f = fopen(tmp, "w");
  if (!f) {
    Warn(o, "%s: cannot write: %s", tmp, strerror(errno));
    return -1;
  }
  fprintf(f,
          "# %s.gp - written by pipelay %s from the CSV files of the run in the directory above.\n"
          "# Edit and rerun with: gnuplot %s.gp (from any directory: it changes to its own);\n"
          "# it writes %s.png and %s.svg beside itself.\n"
          "reset\n"
          "if (strlen(ARG0) > 0) {\n"
          "  d = ARG0; i = strlen(d)\n"
          "  while (i > 0 && d[i:i] ne \"/\") { i = i - 1 }\n"
          "  if (i > 0) { cd d[1:i] }\n"
          "}\n"
          "set datafile separator comma\n"
          "set encoding utf8\n"
          "run_name = '%s'\n"
          "T(s) = strlen(run_name) > 0 ? s . \"\\n\" . run_name : s\n"
          "do for [fmt in \"png svg\"] {\n"
          "  if (fmt eq \"png\") {\n"
          "    if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
          "      set terminal pngcairo size %d,%d noenhanced font \"sans,11\"\n"
          "    } else {\n"
          "      set terminal png size %d,%d noenhanced\n"
          "    }\n"
          "  } else {\n"
          "    set terminal svg size %d,%d dynamic noenhanced font \"sans,11\" background \"white\"\n"
          "  }\n"
          "  set output \"%s.\" . fmt\n"
          "  set autoscale\n"
          "  set autoscale xfix\n"
          "  set offsets 0, 0, 0, 0\n"
          "  set grid\n"
          "%s"
          "  set output\n"
          "}\n",
          name, PIPELAY_VERSION, name, name, name, P->name_gp, width, height, width, height, width,
          height, name, body->s ? body->s : "");
  int bad = ferror(f);
  if (fclose(f)) bad = 1;
  if (bad || rename(tmp, gp)) {
    Warn(o, "%s: write failed: %s", gp, strerror(errno));
    remove(tmp);
    return -1;
  }
  if (!P->gnuplot[0]) return -1;

  if (strlen(name) >= sizeof P->queue[0] || P->nqueue >= PL_PLOT_QUEUE) {
    Warn(o, "%s: plot name too long, or too many plots", gp);
    return -1;
  }
  for (int k = 0; k < 2; ++k) {
    char img[PL_PATH_MAX + 256];
    snprintf(img, sizeof img, "%s/%s.%s", P->plots, name, k ? "svg" : "png");
    remove(img);
  }
  snprintf(P->queue[P->nqueue++], sizeof P->queue[0], "%s", name);
  return 0;
}

static int FileExists(const char *dir, const char *name)
{
  char path[PL_PATH_MAX + 256];
  struct stat sb;
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return !stat(path, &sb) && S_ISREG(sb.st_mode);
}

/* Adds a script's result r (images or -1) to the running total *n; *failed on -1. */
static void Tally(int r, int *n, int *failed)
{
  if (r < 0) *failed = 1;
  else *n += r;
}

static void WarnNoGnuplot(const Plotter *P)
{
  Warn(P->o, "gnuplot not found (install the Debian package gnuplot-nox, or set PIPELAY_GNUPLOT): "
             "no images made; the scripts are in %s/", P->plots);
}

/* ---- marks: section boundaries and the static touchdown point -------------------------- */
/* Vertical lines on a plot against the arc length S: each section boundary (grey, dotted)
 * and the static touchdown point (brown, dashed), labelled along the line from the bottom. They stay for the
 * following panels of a multiplot; ClearMarks removes them. */
static void AddMarksS(Text *b, const PlPlotOptions *o)
{
  for (int k = 0; k < o->nboundaries; ++k)
    Add(b, "  set arrow from %.17g, graph 0 to %.17g, graph 1 nohead dt 3 lw 1 lc rgb '#7f7f7f' front\n"
           "  set label 'sections %d|%d' at %.17g, graph 0.02 left rotate by 90 offset -0.6, 0 front font ',9' "
           "tc rgb '#7f7f7f'\n",
        o->boundary_S_m[k], o->boundary_S_m[k], k + 1, k + 2, o->boundary_S_m[k]);
  if (isfinite(o->touchdown_S_m))
    Add(b, "  set arrow from %.17g, graph 0 to %.17g, graph 1 nohead dt 2 lw 1.5 lc rgb '#8c564b' front\n"
           "  set label 'touchdown (static)' at %.17g, graph 0.02 left rotate by 90 offset -0.6, 0 front font ',9' "
           "tc rgb '#8c564b'\n",
        o->touchdown_S_m, o->touchdown_S_m, o->touchdown_S_m);
}

static void ClearMarks(Text *b) { Add(b, "  unset arrow\n  unset label\n"); }

/* The same marks as points on the static shape (from dir/static.csv, interpolated in S):
 * coordinates a and b (0 x, 1 y, 2 z) of the plot's axes. */
static void AddMarksShape(Text *b, const char *dir, const PlPlotOptions *o, int ca, int cb)
{
  char path[PL_PATH_MAX + 64];
  PlTable t;
  PlError err;
  snprintf(path, sizeof path, "%s/static.csv", dir);
  if (PlTableRead(path, &t, &err)) return;
  static const char *const names[3] = {"x_m", "y_m", "z_m"};
  const int cS = PlTableColumn(&t, "S_m"), c1 = PlTableColumn(&t, names[ca]), c2 = PlTableColumn(&t, names[cb]);
  if (cS < 0 || c1 < 0 || c2 < 0 || t.nrows < 2) {
    PlTableFree(&t);
    return;
  }
  const double *S = PlTableData(&t, cS), *A = PlTableData(&t, c1), *B = PlTableData(&t, c2);
  for (int k = 0; k <= o->nboundaries; ++k) {
    const double Sk = k < o->nboundaries ? o->boundary_S_m[k] : o->touchdown_S_m;
    if (!isfinite(Sk)) continue;
    int i = 0;
    while (i < t.nrows - 2 && S[i + 1] < Sk) ++i;
    const double f = S[i + 1] > S[i] ? (Sk - S[i]) / (S[i + 1] - S[i]) : 0.0;
    const double a = A[i] + f * (A[i + 1] - A[i]), c = B[i] + f * (B[i + 1] - B[i]);
    /* labels right of the point on the first half of the line, left of it on the second */
    const int right = Sk > 0.5 * S[t.nrows - 1];
    const char *side = right ? "right offset -1" : "left offset 1";
    if (k < o->nboundaries)
      Add(b, "  set label 'sections %d|%d' at %.17g, %.17g %s, -1 point pt 2 ps 1.5 lc rgb '#7f7f7f' front "
             "font ',9' tc rgb '#7f7f7f'\n", k + 1, k + 2, a, c, side);
    else
      Add(b, "  set label 'touchdown' at %.17g, %.17g %s, 1 point pt 7 ps 1.5 lc rgb '#8c564b' front "
             "font ',9' tc rgb '#8c564b'\n", a, c, side);
  }
  PlTableFree(&t);
}

/* The curvature axis (of f's column curvature_1pm): tick labels with four significant digits
 * in scientific form, and a range of at least 1% of the value, so that two ticks never get
 * the same label (a nearly constant curvature would otherwise get ticks 1e-7 apart). */
static const char *kCurvatureAxis =
  "  stats f using \"curvature_1pm\" nooutput\n"
  "  if (STATS_max - STATS_min < 0.01 * abs(STATS_max)) {\n"
  "    c0 = (STATS_max + STATS_min) / 2\n"
  "    set yrange [c0 - 0.005 * abs(c0) - 1e-12 : c0 + 0.005 * abs(c0) + 1e-12]\n"
  "  }\n"
  "  set format y '%.3e'\n";

/* ---- static plots ------------------------------------------------------------------------ */
static const char *kS = "arc length S from the bottom end [m]";
static int HeaderHas(const char *dir, const char *file, const char *col);

/* The design answers along the line (design.csv or design_envelope.csv, the model's design:
 * block): the largest von Mises stress and, with the code check, the DNV-ST-F101 utilisations
 * against their limit 1. */
static void DesignPlot(Plotter *P, const char *dir, const PlPlotOptions *o, int dynamic, int *n, int *failed)
{
  const char *file = dynamic ? "design_envelope.csv" : "design.csv";
  if (!FileExists(dir, file)) return;
  const int dnv = HeaderHas(dir, file, dynamic ? "max_utilisation" : "utilisation");
  const char *pre = dynamic ? "max_" : "";
  Text b = {0};
  Add(&b, "  f = '../%s'\n", file);
  AddMarksS(&b, o);
  Add(&b, "  set multiplot layout %d,1 title T('Design checks along the line (%s)')\n"
          "  set key top right\n  set xlabel '%s'\n"
          "  set title 'von Mises stress (largest of the inner and outer fibres)'\n  set ylabel '[MPa]'\n",
      dnv ? 2 : 1, dynamic ? "dynamic envelope" : "static", kS);
  if (dynamic)
    Add(&b, "  plot f using \"S_m\":(column(\"max_von_mises_Pa\")/1e6) with lines lw 2 title 'largest over the run'\n");
  else
    Add(&b, "  plot f using \"S_m\":(column(\"von_mises_outer_Pa\")/1e6) with lines lw 2 title 'outer fibre', \\\n"
            "       f using \"S_m\":(column(\"von_mises_inner_Pa\")/1e6) with lines lw 2 title 'inner fibre'\n");
  if (dnv)
    Add(&b, "  set title 'DNV-ST-F101 local buckling: utilisation'\n  set ylabel 'utilisation [-]'\n"
            "  plot f using \"S_m\":\"%slcc_a\" with lines lw 2 title 'LCC a', \\\n"
            "       f using \"S_m\":\"%slcc_b\" with lines lw 2 title 'LCC b', \\\n"
            "       f using \"S_m\":\"%sdcc_a\" with lines lw 2 dt 2 title 'DCC a', \\\n"
            "       f using \"S_m\":\"%sdcc_b\" with lines lw 2 dt 2 title 'DCC b', \\\n"
            "       1 with lines lw 1 lc rgb 'black' title 'limit'\n", pre, pre, pre, pre);
  Add(&b, "  unset multiplot\n");
  Tally(RunScript(P, dynamic ? "dynamic_envelope_design" : "static_design", 1200, dnv ? 1000 : 750, &b), n, failed);
  free(b.s);
}

int PlPlotStatic(const char *dir, const PlPlotOptions *o)
{
  Plotter P;
  if (!FileExists(dir, "static.csv")) {
    Warn(o, "%s/static.csv not found: no static plots", dir);
    return -1;
  }
  if (PlotterInit(&P, dir, o)) return -1;
  int n = 0, failed = 0;
  const char *f = "f = '../static.csv'\n";

  { /* configuration: elevation and plan */
    Text b = {0};
    Add(&b, "  %s", f);
    Add(&b, "  set multiplot layout 2,1 title T('Static configuration of the line')\n"
            "  set title 'Elevation (x-z plane)'\n"
            "  set xlabel 'x [m]'\n"
            "  set ylabel 'z [m]'\n"
            "  set key left center\n"
            "  set offsets 0, 0, graph 0.05, graph 0.05\n");
    AddMarksShape(&b, dir, o, 0, 2);
    if (isfinite(o->water_depth_m))
      Add(&b, "  plot f using \"x_m\":\"z_m\" with lines lw 2 lc rgb '#1f77b4' title 'pipe centreline', \\\n"
              "       %.17g + %.17g * x with lines dt 2 lw 1.5 lc rgb '#8c564b' title 'seabed (z = %g m at x = 0%s)', "
              "\\\n       0 with lines dt 3 lc rgb '#17becf' title 'mean sea level (z = 0)'\n",
          -o->water_depth_m, o->seabed_dzdx, -o->water_depth_m, o->seabed_dzdx != 0.0 ? ", sloped" : "");
    else
      Add(&b, "  plot f using \"x_m\":\"z_m\" with lines lw 2 lc rgb '#1f77b4' title 'pipe centreline'\n");
    ClearMarks(&b);
    AddMarksShape(&b, dir, o, 0, 1);
    Add(&b, "  set offsets 0, 0, 0, 0\n"
            "  set key below\n"
            "  set title 'Plan view (x-y plane)'\n"
            "  set xlabel 'x [m]'\n"
            "  set ylabel 'y [m]'\n"
            "  stats f using \"y_m\" nooutput\n"
            "  if (STATS_max - STATS_min < 1.0) {\n"
            "    set yrange [(STATS_max + STATS_min)/2 - 1 : (STATS_max + STATS_min)/2 + 1]\n"
            "  }\n"
            "  plot f using \"x_m\":\"y_m\" with lines lw 2 lc rgb '#1f77b4' title 'pipe centreline'\n"
            "  unset multiplot\n");
    Tally(RunScript(&P, "static_configuration", 1200, 1000, &b), &n, &failed);
    free(b.s);
  }
  { /* effective tension */
    Text b = {0};
    Add(&b, "  %s", f);
    AddMarksS(&b, o);
    Add(&b, "  set title T('Effective tension along the line (static)')\n"
            "  set xlabel '%s'\n"
            "  set ylabel 'effective tension n1 [kN]'\n"
            "  set key top left\n"
            "  plot f using \"S_m\":(column(\"effective_tension_N\")/1e3) with lines lw 2 title 'effective tension'\n",
        kS);
    Tally(RunScript(&P, "static_tension", 1200, 750, &b), &n, &failed);
    free(b.s);
  }
  { /* bending moments */
    Text b = {0};
    Add(&b, "  %s", f);
    AddMarksS(&b, o);
    Add(&b, "  set title T('Bending moments along the line (static)')\n"
            "  set xlabel '%s'\n"
            "  set ylabel 'bending moment [kN m]'\n"
            "  set key top right\n"
            "  plot f using \"S_m\":(sqrt(column(\"bending_moment_2_Nm\")**2 + column(\"bending_moment_3_Nm\")**2)/1e3) "
            "with lines lw 3 lc rgb '#7f7f7f' title 'magnitude |m|', \\\n"
            "       f using \"S_m\":(column(\"bending_moment_2_Nm\")/1e3) with lines lw 2 lc rgb '#1f77b4' title 'm2 (about t2)', \\\n"
            "       f using \"S_m\":(column(\"bending_moment_3_Nm\")/1e3) with lines lw 2 lc rgb '#d62728' title 'm3 (about t3)'\n",
        kS);
    Tally(RunScript(&P, "static_bending_moment", 1200, 750, &b), &n, &failed);
    free(b.s);
  }
  { /* curvature */
    Text b = {0};
    Add(&b, "  %s", f);
    AddMarksS(&b, o);
    Add(&b, "  set title T('Bending curvature along the line (static)')\n"
            "  set xlabel '%s'\n"
            "  set ylabel 'curvature |kappa| [1/m]'\n"
            "%s"
            "  set key top right\n"
            "  plot f using \"S_m\":\"curvature_1pm\" with lines lw 2 title 'curvature'\n",
        kS, kCurvatureAxis);
    Tally(RunScript(&P, "static_curvature", 1200, 750, &b), &n, &failed);
    free(b.s);
  }
  { /* seabed contact force */
    Text b = {0};
    Add(&b, "  %s", f);
    AddMarksS(&b, o);
    Add(&b, "  set title T('Seabed contact force along the line (static)')\n"
            "  set xlabel '%s'\n"
            "  set ylabel 'seabed contact force per length [kN/m]'\n"
            "  set key top right\n"
            "  plot f using \"S_m\":(column(\"seabed_force_Npm\")/1e3) with lines lw 2 title 'contact force'\n",
        kS);
    Tally(RunScript(&P, "static_seabed_force", 1200, 750, &b), &n, &failed);
    free(b.s);
  }
  DesignPlot(&P, dir, o, 0, &n, &failed);
  return PlotterFinish(&P, n, failed);
}

/* ---- sweep plots ------------------------------------------------------------------------- */
int PlPlotSystem(const char *dir, const PlPlotOptions *o)
{
  cJSON *root = PlOutputSummaryRead(dir);
  const cJSON *lines = cJSON_GetObjectItemCaseSensitive(root, "lines");
  const cJSON *points = cJSON_GetObjectItemCaseSensitive(root, "points");
  const cJSON *bodies = cJSON_GetObjectItemCaseSensitive(root, "bodies");
  if (!cJSON_IsObject(lines)) {
    Warn(o, "%s/summary.json: no lines: no system plot", dir);
    cJSON_Delete(root);
    return -1;
  }
  Plotter P;
  if (PlotterInit(&P, dir, o)) {
    cJSON_Delete(root);
    return -1;
  }
  int n = 0, failed = 0;
  Text b = {0};
  Add(&b, "  set multiplot layout 2,1 title T('Static configuration of the lines')\n");
  for (int view = 0; view < 2; ++view) {
    const char *v = view ? "y" : "z";
    Add(&b, "  set title '%s'\n  set xlabel 'x [m]'\n  set ylabel '%s [m]'\n  set key outside right top\n  unset label\n",
        view ? "Plan view (x-y plane)" : "Elevation (x-z plane)", v);
    const cJSON *e;
    /* the points and the bodies' origins as marked labels (inline data cannot stand in the
     * script's block) */
    cJSON_ArrayForEach(e, points) {
      const cJSON *pos = cJSON_GetObjectItemCaseSensitive(e, "position_m");
      if (cJSON_GetArraySize(pos) != 3) continue;
      Add(&b, "  set label 'point %s' at %.17g, %.17g point pt 7 ps 1.5 lc rgb '#d62728' offset 1, 1 front\n",
          e->string, cJSON_GetArrayItem(pos, 0)->valuedouble, cJSON_GetArrayItem(pos, view ? 1 : 2)->valuedouble);
    }
    cJSON_ArrayForEach(e, bodies) {
      const cJSON *eta = cJSON_GetObjectItemCaseSensitive(e, "eta_m_deg");
      if (cJSON_GetArraySize(eta) != 6) continue;
      Add(&b, "  set label 'body %s (O_b)' at %.17g, %.17g point pt 5 ps 1.5 lc rgb '#9467bd' offset 1, 1 front\n",
          e->string, cJSON_GetArrayItem(eta, 0)->valuedouble, cJSON_GetArrayItem(eta, view ? 1 : 2)->valuedouble);
    }
    int k = 0;
    Add(&b, "  plot");
    cJSON_ArrayForEach(e, lines)
      Add(&b, "%s '../line_%s/static.csv' using \"x_m\":\"%s_m\" with lines lw 2 title 'line %s'",
          k++ ? ", \\\n      " : "", e->string, v, e->string);
    if (!view && isfinite(o->water_depth_m))
      Add(&b, ", \\\n       %.17g + %.17g * x with lines dt 2 lw 1.5 lc rgb '#8c564b' title 'seabed (z = %g m at x = 0)'",
          -o->water_depth_m, o->seabed_dzdx, -o->water_depth_m);
    Add(&b, "\n");
  }
  Add(&b, "  unset multiplot\n");
  Tally(RunScript(&P, "static_system", 1200, 1100, &b), &n, &failed);
  free(b.s);
  cJSON_Delete(root);
  return PlotterFinish(&P, n, failed);
}

/* key as the text of a gnuplot single-quoted string (quotes doubled, control characters dropped). */
static void QuoteKey(const char *key, char *k, size_t len)
{
  size_t j = 0;
  for (const char *c = key; *c && j + 3 < len; ++c) {
    if ((unsigned char)*c < 32 || *c == 127) continue;
    if (*c == '\'') k[j++] = '\'';
    k[j++] = *c;
  }
  k[j] = '\0';
}

int PlPlotSweepSystem(const char *dir, const char *key, const char *offset_column, const char *const *tension_columns,
                      int ntension, const PlPlotOptions *o)
{
  Plotter P;
  if (!FileExists(dir, "sweep.csv")) {
    Warn(o, "%s/sweep.csv not found: no sweep plots", dir);
    return -1;
  }
  if (PlotterInit(&P, dir, o)) return -1;
  char k[600];
  QuoteKey(key, k, sizeof k);
  const char *conv = "(column(\"converged\") > 0 ? column(\"%s\")%s : NaN)";
  int n = 0, failed = 0;
  if (offset_column) { /* a force sweep: the restoring curve and its stiffness */
    static const struct {
      const char *name, *column, *title, *ylabel;
    } kRest[] = {
      {"sweep_restoring", "value", "Restoring force (the applied load) against the offset", "force [kN]"},
      {"sweep_stiffness", "restoring_stiffness_N_per_m", "Restoring stiffness dF/dx against the offset", "stiffness [kN/m]"},
    };
    for (size_t q = 0; q < 2; ++q) {
      Text b = {0};
      char ycol[200];
      snprintf(ycol, sizeof ycol, conv, kRest[q].column, "/1e3");
      Add(&b, "  f = '../sweep.csv'\n"
              "  set title T('%s (%s)')\n"
              "  set xlabel '%s [m]'\n"
              "  set ylabel '%s'\n"
              "  set key off\n"
              "  set format y '%%.4g'\n"
              "  plot f using \"%s\":%s with linespoints lw 2 pt 7\n",
          kRest[q].title, k, offset_column, kRest[q].ylabel, offset_column, ycol);
      Tally(RunScript(&P, kRest[q].name, 1000, 700, &b), &n, &failed);
      free(b.s);
    }
  }
  if (ntension > 0) {
    Text b = {0};
    Add(&b, "  f = '../sweep.csv'\n"
            "  set title T('Top tension of each line against %s')\n"
            "  set xlabel '%s'\n"
            "  set ylabel 'top tension [kN]'\n"
            "  set key top left\n"
            "  set format y '%%.4g'\n"
            "  plot ",
        offset_column ? offset_column : k, offset_column ? offset_column : k);
    for (int c = 0; c < ntension; ++c) {
      char ycol[200], title[200];
      snprintf(ycol, sizeof ycol, conv, tension_columns[c], "/1e3");
      QuoteKey(tension_columns[c], title, sizeof title);
      Add(&b, "%sf using \"%s\":%s with linespoints lw 2 pt 7 title '%s'", c ? ", \\\n       " : "",
          offset_column ? offset_column : "value", ycol, title);
    }
    Add(&b, "\n");
    Tally(RunScript(&P, "sweep_line_tensions", 1000, 700, &b), &n, &failed);
    free(b.s);
  }
  return PlotterFinish(&P, n, failed);
}

int PlPlotDecay(const char *dir, const char *body, const char *dof, const char *column, const char *unit,
                const PlPlotOptions *o)
{
  Plotter P;
  char series[PL_NAME_MAX + 64], cycles[PL_NAME_MAX + 64], name[PL_NAME_MAX + 64];
  snprintf(series, sizeof series, "timeseries_%s.csv", body);
  snprintf(cycles, sizeof cycles, "decay_%s_%s.csv", body, dof);
  snprintf(name, sizeof name, "decay_%s_%s", body, dof);
  if (!FileExists(dir, series) || !FileExists(dir, cycles)) {
    Warn(o, "%s/%s or %s not found: no decay plot", dir, series, cycles);
    return -1;
  }
  if (PlotterInit(&P, dir, o)) return -1;
  char b_q[PL_NAME_MAX * 2 + 8];
  QuoteKey(body, b_q, sizeof b_q);
  Text b = {0};
  Add(&b, "  s = '../%s'\n"
          "  c = '../%s'\n"
          "  set multiplot layout 3,1 title T('Free decay of %s in %s')\n"
          "  set key off\n"
          "  set xlabel 't [s]'\n"
          "  set ylabel '%s [%s]'\n"
          "  plot s using \"t_s\":\"%s\" with lines lw 2\n"
          "  set ylabel 'period [s]'\n"
          "  plot c using \"t_s\":\"period_s\" with linespoints lw 2 pt 7\n"
          "  set xlabel 'amplitude [%s]'\n"
          "  set ylabel 'damping ratio [-]'\n"
          "  plot c using \"amplitude_%s\":\"damping_ratio\" with linespoints lw 2 pt 7\n"
          "  unset multiplot\n",
      series, cycles, b_q, dof, dof, unit, column, unit, unit);
  int n = 0, failed = 0;
  Tally(RunScript(&P, name, 1000, 1100, &b), &n, &failed);
  free(b.s);
  return PlotterFinish(&P, n, failed);
}

int PlPlotSweep(const char *dir, const char *key, const PlPlotOptions *o)
{
  Plotter P;
  if (!FileExists(dir, "sweep.csv")) {
    Warn(o, "%s/sweep.csv not found: no sweep plots", dir);
    return -1;
  }
  if (PlotterInit(&P, dir, o)) return -1;
  char k[600];
  QuoteKey(key, k, sizeof k);
  static const struct {
    const char *name, *column, *scale, *title, *ylabel;
  } kPlots[] = {
    {"sweep_top_tension", "top_tension_N", "/1e3", "Top tension", "top tension [kN]"},
    {"sweep_hang_off_angle", "hang_off_angle_deg", "", "Hang-off angle (top tangent from horizontal)", "hang-off angle [deg]"},
    {"sweep_layback", "layback_m", "", "Layback (top to touchdown, horizontal)", "layback [m]"},
    {"sweep_max_bending_moment", "max_bending_moment_Nm", "/1e3", "Largest bending moment (sagbend)", "bending moment [kN m]"},
    {"sweep_max_strain", "max_fibre_strain", "*100", "Largest fibre strain", "fibre strain [%]"},
  };
  int n = 0, failed = 0;
  for (size_t q = 0; q < sizeof kPlots / sizeof kPlots[0]; ++q) {
    Text b = {0};
    Add(&b, "  f = '../sweep.csv'\n"
            "  set title T('%s against %s')\n"
            "  set xlabel '%s'\n"
            "  set ylabel '%s'\n"
            "  set key top left\n"
            "  set format y '%%.4g'\n"
            "  plot f using \"value\":(column(\"converged\") > 0 ? column(\"%s\")%s : NaN) with linespoints lw 2 pt 7 "
            "title 'converged', \\\n"
            "       f using \"value\":(column(\"converged\") > 0 ? NaN : column(\"%s\")%s) with points pt 6 ps 2 "
            "lc rgb '#d62728' title 'not converged'\n",
        kPlots[q].title, k, k, kPlots[q].ylabel, kPlots[q].column, kPlots[q].scale, kPlots[q].column, kPlots[q].scale);
    Tally(RunScript(&P, kPlots[q].name, 1000, 700, &b), &n, &failed);
    free(b.s);
  }
  return PlotterFinish(&P, n, failed);
}

int PlPlotOperability(const char *dir, const PlPlotOptions *o)
{
  char path[PL_PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/allowable.csv", dir);
  PlTable t;
  PlError err;
  if (PlTableRead(path, &t, &err)) {
    Warn(o, "%s: no operability plot", err.msg);
    return -1;
  }
  const int ct = PlTableColumn(&t, "tp_s");
  Plotter P;
  if (ct < 0 || PlotterInit(&P, dir, o)) {
    if (ct < 0) Warn(o, "%s has no tp_s column: no operability plot", path);
    PlTableFree(&t);
    return -1;
  }
  Text b = {0};
  Add(&b, "  f = '../allowable.csv'\n"
          "  set title T('Allowable significant wave height against heading (waves travelling towards)')\n"
          "  unset grid\n"
          "  set polar\n"
          "  set angles degrees\n"
          "  set theta counterclockwise right\n"
          "  set size square\n"
          "  set border polar\n"
          "  unset xtics\n"
          "  unset ytics\n"
          "  set ttics 0, 30\n"
          "  set grid polar 30 r\n"
          "  set rlabel 'allowable Hs [m]'\n"
          "  set key outside right top\n");
  /* r up to the largest Hs of the table (or 1 m), rounded up: gnuplot draws the polar border
   * at the last r tic */
  double rmax = 0.0;
  for (int c = 0; c < t.ncols; ++c)
    if (!strncmp(t.names[c], "allowable_hs", 12))
      for (int r = 0; r < t.nrows; ++r) rmax = fmax(rmax, isfinite(PlTableData(&t, c)[r]) ? PlTableData(&t, c)[r] : 0.0);
  rmax = rmax > 0.0 ? ceil(1.1 * rmax) : 1.0; /* whole metres: the outer circle is a tic's */
  Add(&b, "  set rrange [0:%.6g]\n  set rtics 0, %g axis nomirror\n  plot \\\n", rmax, rmax > 10.0 ? 2.0 : 1.0);
  const double *tp = PlTableData(&t, ct);
  int ncurves = 0;
  for (int r = 0; r < t.nrows; ++r) {
    int seen = 0;
    for (int q = 0; q < r; ++q) seen |= tp[q] == tp[r];
    if (seen || !isfinite(tp[r])) continue;
    Add(&b, "%s    f using \"heading_deg\":(column(\"tp_s\") == %.17g ? column(\"allowable_hs_interpolated_m\") : NaN) "
            "with lines lw 2 lc %d title sprintf('Tp = %%g s (interpolated)', %.17g), \\\n"
            "    f using \"heading_deg\":(column(\"tp_s\") == %.17g ? column(\"allowable_hs_m\") : NaN) "
            "with points pt 7 lc %d notitle",
        ncurves ? ", \\\n" : "", tp[r], ncurves + 1, tp[r], tp[r], ncurves + 1);
    ++ncurves;
  }
  Add(&b, "\n");
  PlTableFree(&t);
  int n = 0, failed = 0;
  Tally(RunScript(&P, "operability_polar", 900, 800, &b), &n, &failed);
  free(b.s);
  return PlotterFinish(&P, n, failed);
}

/* 1 when the header line of dir/file names the column col. */
static int HeaderHas(const char *dir, const char *file, const char *col)
{
  char path[PL_PATH_MAX + 64], line[4096];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  int found = 0;
  if (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\r\n")] = '\0';
    for (char *tok = strtok(line, ","); tok && !found; tok = strtok(NULL, ",")) found = !strcmp(tok, col);
  }
  fclose(f);
  return found;
}

/* ---- dynamic plots ------------------------------------------------------------------------ */
static int CompareNames(const void *a, const void *b)
{
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Names <name> of the files timeseries_<name>.csv in dir, sorted (malloc'd; free each and
 * the array). Files with other names are skipped with a warning. */
static int ListTimeSeries(const char *dir, const PlPlotOptions *o, char ***names_out)
{
  *names_out = NULL;
  DIR *d = opendir(dir);
  if (!d) return 0;
  char **names = NULL;
  int n = 0, cap = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    const char *s = e->d_name;
    const size_t len = strlen(s);
    if (strncmp(s, "timeseries_", 11) || len < 16 || strcmp(s + len - 4, ".csv")) continue;
    char name[256];
    snprintf(name, sizeof name, "%.*s", (int)(len - 15), s + 11);
    if (!PlOutputNameValid(name)) {
      Warn(o, "%s/%s: not plotted (point names are [A-Za-z0-9_-]+)", dir, s);
      continue;
    }
    if (n == cap) {
      cap = cap ? 2 * cap : 8;
      char **p = realloc(names, sizeof *names * (size_t)cap);
      if (!p) break;
      names = p;
    }
    if (!(names[n] = strdup(name))) break;
    ++n;
  }
  closedir(d);
  if (n) qsort(names, (size_t)n, sizeof *names, CompareNames);
  *names_out = names;
  return n;
}

/* A plot command of min/max envelopes: a shaded band between the columns lo and hi, both
 * as lines; scale divides the values (1 or 1e3). No newline at the end: the caller ends
 * the command or adds curves. */
static void AddBand(Text *b, const char *lo, const char *hi, double scale, const char *color)
{
  Add(b, "  plot f using \"S_m\":(column(\"%s\")/%g):(column(\"%s\")/%g) with filledcurves "
         "fs transparent solid 0.25 noborder lc rgb '%s' title 'range', \\\n"
         "       f using \"S_m\":(column(\"%s\")/%g) with lines lw 1.5 lc rgb '%s' dt 2 title 'min', \\\n"
         "       f using \"S_m\":(column(\"%s\")/%g) with lines lw 1.5 lc rgb '%s' title 'max'",
      lo, scale, hi, scale, color, lo, scale, color, hi, scale, color);
}

/* One panel of a multiplot: the columns cols[3] of f against t_s, titled names[3]. */
static void AddPanel3(Text *b, const char *title, const char *ylabel, const char *const cols[3],
                      const char *const names[3])
{
  Add(b, "  set title '%s'\n  set ylabel '%s'\n", title, ylabel);
  for (int c = 0; c < 3; ++c)
    Add(b, "%s f using \"t_s\":\"%s\" with lines lw 2 title '%s'%s\n", c ? "      " : "  plot", cols[c], names[c],
        c < 2 ? ", \\" : "");
}

int PlPlotDynamic(const char *dir, const PlPlotOptions *o)
{
  char **names;
  const int nts = ListTimeSeries(dir, o, &names);
  const int env = FileExists(dir, "envelopes.csv");
  int n = 0, failed = 0;
  Plotter P;
  if (!nts && !env) return 0;
  int rigid = 0; /* a model without a line: its vessel is a body like the others */
  {
    cJSON *root = PlOutputSummaryRead(dir);
    const cJSON *an = cJSON_GetObjectItemCaseSensitive(root, "analysis");
    rigid = cJSON_IsString(an) && !strcmp(an->valuestring, "rigid_body");
    cJSON_Delete(root);
  }
  if (PlotterInit(&P, dir, o)) {
    for (int k = 0; k < nts; ++k) free(names[k]);
    free(names);
    return -1;
  }
  if (env) {
    const char *f = "f = '../envelopes.csv'\n";
    { /* displacements */
      static const char *const axis[3] = {"x", "y", "z"};
      Text b = {0};
      Add(&b, "  %s", f);
      AddMarksS(&b, o);
      Add(&b, "  set multiplot layout 3,1 title T('Displacement envelopes from the static shape (dynamic)')\n"
              "  set key top right\n"
              "  set xlabel '%s'\n", kS);
      for (int c = 0; c < 3; ++c) {
        char lo[32], hi[32];
        snprintf(lo, sizeof lo, "d%s_min_m", axis[c]);
        snprintf(hi, sizeof hi, "d%s_max_m", axis[c]);
        Add(&b, "  set title '%s displacement'\n  set ylabel 'd%s [m]'\n", axis[c], axis[c]);
        AddBand(&b, lo, hi, 1, c == 0 ? "#1f77b4" : c == 1 ? "#2ca02c" : "#d62728");
        Add(&b, "\n");
      }
      Add(&b, "  unset multiplot\n");
      Tally(RunScript(&P, "dynamic_envelope_displacement", 1200, 1200, &b), &n, &failed);
      free(b.s);
    }
    { /* bending moments */
      Text b = {0};
      Add(&b, "  %s", f);
      AddMarksS(&b, o);
      Add(&b, "  set multiplot layout 2,1 title T('Bending moment envelopes (dynamic)')\n"
              "  set key top right\n"
              "  set xlabel '%s'\n"
              "  set title 'bending moment m2 (about t2)'\n"
              "  set ylabel 'm2 [kN m]'\n", kS);
      AddBand(&b, "bending_moment_2_min_Nm", "bending_moment_2_max_Nm", 1e3, "#1f77b4");
      Add(&b, "\n  set title 'bending moment m3 (about t3)'\n  set ylabel 'm3 [kN m]'\n");
      AddBand(&b, "bending_moment_3_min_Nm", "bending_moment_3_max_Nm", 1e3, "#d62728");
      Add(&b, "\n  unset multiplot\n");
      Tally(RunScript(&P, "dynamic_envelope_bending_moment", 1200, 1000, &b), &n, &failed);
      free(b.s);
    }
    { /* effective tension */
      Text b = {0};
      Add(&b, "  %s", f);
      AddMarksS(&b, o);
      Add(&b, "  set title T('Effective tension envelope (dynamic)')\n"
              "  set xlabel '%s'\n"
              "  set ylabel 'effective tension n1 [kN]'\n"
              "  set key top left\n", kS);
      AddBand(&b, "effective_tension_min_N", "effective_tension_max_N", 1e3, "#1f77b4");
      Add(&b, ", \\\n       f using \"S_m\":(column(\"effective_tension_static_N\")/1e3) with lines lw 2 "
              "lc rgb 'black' title 'static'\n");
      Tally(RunScript(&P, "dynamic_envelope_tension", 1200, 750, &b), &n, &failed);
      free(b.s);
    }
    DesignPlot(&P, dir, o, 1, &n, &failed);
  }
  if (FileExists(dir, "as_laid.csv") && FileExists(dir, "route.csv")) { /* the lay on its route */
    Text b = {0};
    Add(&b, "  f = '../as_laid.csv'\n  r = '../route.csv'\n"
            "  set multiplot layout 2,1 title T('The pipe as laid on the route (end of the run)')\n"
            "  set key outside right top\n"
            "  set lmargin at screen 0.08\n  set rmargin at screen 0.78\n"
            "  set title 'plan'\n  set xlabel 'x [m]'\n  set ylabel 'y [m]'\n  set size ratio -1\n"
            "  plot r using \"x_m\":\"y_m\" with lines lw 2 lc rgb 'black' title 'route', \\\n"
            "       f using \"x_m\":(column(\"on_seabed\") > 0 ? column(\"y_m\") : NaN) with points pt 7 ps 0.5 "
            "lc rgb '#1f77b4' title 'on the seabed', \\\n"
            "       f using \"x_m\":(column(\"on_seabed\") > 0 ? NaN : column(\"y_m\")) with lines lw 2 "
            "lc rgb '#d62728' title 'suspended'\n"
            "  set size noratio\n"
            "  set title 'offset from the route of the laid pipe (left positive)'\n"
            "  set xlabel 'station along the route [m]'\n  set ylabel 'offset [m]'\n"
            "  plot f using \"station_m\":(column(\"on_seabed\") > 0 ? column(\"offset_m\") : NaN) with linespoints "
            "pt 7 ps 0.5 lw 2 title 'as laid', \\\n"
            "       f using \"station_m\":(column(\"on_seabed\") > 0 ? column(\"offset_m\") - column(\"moved_offset_m\") : NaN) "
            "with lines dt 2 lw 2 title 'where it landed'\n"
            "  unset multiplot\n");
    Tally(RunScript(&P, "lay_plan", 1200, 1200, &b), &n, &failed);
    free(b.s);
  }
  if (FileExists(dir, "lay.csv")) { /* the lay's progress against the laid length */
    Text b = {0};
    Add(&b, "  f = '../lay.csv'\n"
            "  set multiplot layout 3,1 title T('The lay against the laid length')\n"
            "  set key outside right top\n"
            "  set lmargin at screen 0.08\n  set rmargin at screen 0.78\n"
            "  set xlabel 'laid length: touchdown point from the bottom end [m]'\n"
            "  set title 'tension'\n  set ylabel 'tension [kN]'\n"
            "  plot f using \"touchdown_arc_length_m\":(column(\"top_tension_N\")/1e3) with lines lw 2 title 'top', \\\n"
            "       f using \"touchdown_arc_length_m\":(column(\"laid_tension_N\")/1e3) with lines lw 2 title 'laid (residual)'\n"
            "  set title 'sagbend'\n  set ylabel 'fibre strain [%%]'\n"
            "  plot f using \"touchdown_arc_length_m\":(100*column(\"sagbend_fibre_strain\")) with lines lw 2 "
            "title 'largest fibre strain'\n"
            "  set title 'touchdown point and vessel off the route (left positive)'\n  set ylabel 'offset [m]'\n"
            "  plot f using \"touchdown_arc_length_m\":\"touchdown_offset_m\" with lines lw 2 title 'touchdown', \\\n"
            "       f using \"touchdown_arc_length_m\":\"vessel_offset_m\" with lines lw 2 title 'vessel'\n"
            "  unset multiplot\n");
    Tally(RunScript(&P, "lay_progress", 1200, 1300, &b), &n, &failed);
    free(b.s);
  }
  if (FileExists(dir, "energy.csv")) { /* energy.csv: kinetic, strain, potential, total */
    Text b = {0};
    Add(&b, "  f = '../energy.csv'\n"
            "  set title T('Mechanical energy (dynamic)')\n"
            "  set xlabel 'time t [s]'\n"
            "  set ylabel 'energy [kJ]'\n"
            "  set key outside right top\n"
            "  plot f using \"t_s\":(column(\"kinetic_J\")/1e3) with lines lw 2 title 'kinetic', \\\n"
            "       f using \"t_s\":(column(\"strain_J\")/1e3) with lines lw 2 title 'strain', \\\n"
            "       f using \"t_s\":(column(\"potential_J\")/1e3) with lines lw 2 title 'potential', \\\n"
            "       f using \"t_s\":(column(\"total_J\")/1e3) with lines lw 3 lc rgb 'black' title 'total'\n");
    Tally(RunScript(&P, "dynamic_energy", 1200, 750, &b), &n, &failed);
    free(b.s);
  }
  for (int k = 0; k < nts; ++k) {
    if (!strcmp(names[k], "top") && !HeaderHas(dir, "timeseries_top.csv", "top_load_x_N")) {
      /* a top series without the load and angle columns (written by pipelay before 0.2) */
      Text b = {0};
      Add(&b, "  f = '../timeseries_top.csv'\n"
              "  set title T('The top of the line (dynamic)')\n"
              "  set xlabel 'time t [s]'\n"
              "  set ylabel 'tension [kN]'\n"
              "  set key top right\n"
              "  plot f using \"t_s\":(column(\"effective_tension_N\")/1e3) with lines lw 2 title 'n1, top element'\n");
      Tally(RunScript(&P, "dynamic_top_tension", 1200, 750, &b), &n, &failed);
      free(b.s);
    } else if (!strcmp(names[k], "top")) { /* top tension, the load on the top, the top angles */
      Text b = {0};
      Add(&b, "  f = '../timeseries_top.csv'\n"
              "  set multiplot layout 3,1 title T('The top of the line (dynamic)')\n"
              "  set xlabel 'time t [s]'\n"
              "  set key outside right top\n"
              "  set lmargin at screen 0.08\n  set rmargin at screen 0.80\n"
              "  set title 'top tension'\n"
              "  set ylabel 'tension [kN]'\n"
              "  plot f using \"t_s\":(column(\"effective_tension_N\")/1e3) with lines lw 2 title 'n1, top element', \\\n"
              "       f using \"t_s\":(sqrt(column(\"top_load_x_N\")**2 + column(\"top_load_y_N\")**2 + "
              "column(\"top_load_z_N\")**2)/1e3) with lines dt 2 lw 2 title '|load on the top|'\n"
              "  set title 'load of the line on its top (support and applied end force), global frame'\n"
              "  set ylabel 'force [kN]'\n"
              "  plot f using \"t_s\":(column(\"top_load_x_N\")/1e3) with lines lw 2 title 'x', \\\n"
              "       f using \"t_s\":(column(\"top_load_y_N\")/1e3) with lines lw 2 title 'y', \\\n"
              "       f using \"t_s\":(column(\"top_load_z_N\")/1e3) with lines lw 2 title 'z'\n"
              "  set title 'top angles'\n"
              "  set ylabel 'angle [deg]'\n"
              "  set y2label 'flex-joint angle [deg]'\n  set ytics nomirror\n  set y2tics\n  set key below\n"
              "  plot f using \"t_s\":\"hang_off_angle_deg\" with lines lw 2 title 'top tangent from horizontal', \\\n"
              "       f using \"t_s\":\"flex_joint_angle_deg\" axes x1y2 with lines lw 2 title 'from its static direction (y2)'\n"
              "  unset y2label\n  unset y2tics\n  set ytics mirror\n"
              "  unset multiplot\n");
      Tally(RunScript(&P, "dynamic_top_tension", 1200, 1300, &b), &n, &failed);
      free(b.s);
    }
    char file[300];
    snprintf(file, sizeof file, "timeseries_%s.csv", names[k]);
    const int body = (rigid || strcmp(names[k], "vessel")) && HeaderHas(dir, file, "roll_deg");
    const int joint = !body && HeaderHas(dir, file, "force_x_N") && HeaderHas(dir, file, "point_x_m");
    if (body || joint) { /* a body or a joint of a model without a line */
      static const char *const xyz[3] = {"x", "y", "z"}, *const dofs[3] = {"roll", "pitch", "yaw"};
      static const char *const pos[3] = {"x_m", "y_m", "z_m"}, *const ang[3] = {"roll_deg", "pitch_deg", "yaw_deg"};
      static const char *const vel[3] = {"surge_velocity_mps", "sway_velocity_mps", "heave_velocity_mps"};
      static const char *const vn[3] = {"surge", "sway", "heave"};
      static const char *const rate[3] = {"roll_rate_degps", "pitch_rate_degps", "yaw_rate_degps"};
      static const char *const force[3] = {"force_x_N", "force_y_N", "force_z_N"};
      static const char *const moment[3] = {"moment_x_Nm", "moment_y_Nm", "moment_z_Nm"};
      Text v = {0};
      Add(&v, "  f = '../%s'\n"
              "  set multiplot layout %d,1 title T('%s %s%s (dynamic)')\n"
              "  set xlabel 'time t [s]'\n"
              "  set key outside right top\n"
              "  set lmargin at screen 0.08\n  set rmargin at screen 0.82\n",
          file, body ? 4 : 2, body ? "Body" : "Joint", names[k], body ? "" : ": its load on the first body, global");
      if (body) {
        AddPanel3(&v, "position of O_b (global)", "position [m]", pos, xyz);
        AddPanel3(&v, "attitude (zyx Euler angles)", "angle [deg]", ang, dofs);
        AddPanel3(&v, "velocity of O_b (body frame)", "velocity [m/s]", vel, vn);
        AddPanel3(&v, "angular velocity (body frame)", "rate [deg/s]", rate, dofs);
      } else {
        AddPanel3(&v, "force", "force [N]", force, xyz);
        AddPanel3(&v, "moment about the joint point", "moment [N m]", moment, xyz);
      }
      Add(&v, "  unset multiplot\n");
      char script[300];
      snprintf(script, sizeof script, "dynamic_%s_%s", body ? "body" : "joint", names[k]);
      Tally(RunScript(&P, script, 1200, body ? 1400 : 1000, &v), &n, &failed);
      free(v.s);
      continue;
    }
    if (!strcmp(names[k], "lines") && HeaderHas(dir, file, "t_s")) { /* a system of lines: every end's tension */
      Text v = {0};
      Add(&v, "  f = '../timeseries_lines.csv'\n"
              "  set title T('Tension at the line ends (dynamic)')\n"
              "  set xlabel 'time t [s]'\n"
              "  set ylabel 'tension [kN]'\n"
              "  set key outside right top noenhanced\n"
              "  plot for [i=2:*:4] f using 1:(column(i)/1e3) with lines lw 2 title columnhead(i)\n");
      Tally(RunScript(&P, "dynamic_line_ends", 1200, 750, &v), &n, &failed);
      free(v.s);
      continue;
    }
    if (!strncmp(names[k], "point_", 6) && HeaderHas(dir, file, "vx_mps")) { /* a free point of a system of lines */
      static const char *const xyz[3] = {"x", "y", "z"};
      static const char *const vel[3] = {"vx_mps", "vy_mps", "vz_mps"}, *const pos[3] = {"x_m", "y_m", "z_m"};
      Text v = {0};
      Add(&v, "  f = '../%s'\n"
              "  set multiplot layout 2,1 title T('Point %s (dynamic)')\n"
              "  set xlabel 'time t [s]'\n"
              "  set key outside right top\n"
              "  set lmargin at screen 0.08\n  set rmargin at screen 0.82\n",
          file, names[k] + 6);
      AddPanel3(&v, "position (global)", "position [m]", pos, xyz);
      AddPanel3(&v, "velocity (global)", "velocity [m/s]", vel, xyz);
      Add(&v, "  unset multiplot\n");
      char script[300];
      snprintf(script, sizeof script, "dynamic_%s", names[k]);
      Tally(RunScript(&P, script, 1200, 900, &v), &n, &failed);
      free(v.s);
      continue;
    }
    if (!strcmp(names[k], "vessel")) { /* timeseries_vessel.csv: the vessel and its DP */
      Text v = {0};
      Add(&v, "  f = '../timeseries_vessel.csv'\n"
              "  set multiplot layout 4,1 title T('Vessel (dynamic)')\n"
              "  set xlabel 'time t [s]'\n"
              "  set key top right\n"
              "  set title 'position of O_b and the DP reference'\n"
              "  set ylabel 'x [m]'\n"
              "  set y2label 'y [m]'\n  set ytics nomirror\n  set y2tics\n"
              "  plot f using \"t_s\":\"x_m\" with lines lw 2 title 'x', \\\n"
              "       f using \"t_s\":\"x_ref_m\" with lines dt 2 lw 2 title 'x reference', \\\n"
              "       f using \"t_s\":\"y_m\" axes x1y2 with lines lw 2 title 'y', \\\n"
              "       f using \"t_s\":\"y_ref_m\" axes x1y2 with lines dt 2 lw 2 title 'y reference'\n"
              "  unset y2label\n  unset y2tics\n  set ytics mirror\n"
              "  set title 'horizontal distance from the reference'\n"
              "  set ylabel 'offset [m]'\n"
              "  plot f using \"t_s\":\"offset_m\" with lines lw 2 title 'offset'\n"
              "  set title 'attitude (zyx Euler angles)'\n"
              "  set ylabel 'angle [deg]'\n"
              "  plot f using \"t_s\":\"roll_deg\" with lines lw 2 title 'roll', \\\n"
              "       f using \"t_s\":\"pitch_deg\" with lines lw 2 title 'pitch', \\\n"
              "       f using \"t_s\":\"yaw_deg\" with lines lw 2 title 'yaw'\n"
              "  set title 'DP thrust and the pipe load on the vessel (body frame)'\n"
              "  set ylabel 'force [kN]'\n"
              "  plot f using \"t_s\":(column(\"thrust_surge_N\")/1e3) with lines lw 2 title 'thrust surge', \\\n"
              "       f using \"t_s\":(column(\"thrust_sway_N\")/1e3) with lines lw 2 title 'thrust sway', \\\n"
              "       f using \"t_s\":(column(\"pipe_surge_N\")/1e3) with lines dt 2 lw 2 title 'pipe surge', \\\n"
              "       f using \"t_s\":(column(\"pipe_sway_N\")/1e3) with lines dt 2 lw 2 title 'pipe sway'\n"
              "  unset multiplot\n");
      Tally(RunScript(&P, "dynamic_vessel", 1200, 1400, &v), &n, &failed);
      free(v.s);
      continue;
    }
    Text b = {0};
    char script[300];
    snprintf(script, sizeof script, "dynamic_timeseries_%s", names[k]);
    Add(&b, "  f = '../timeseries_%s.csv'\n"
            "  stats f using \"x_m\" every ::0::0 nooutput\n  x0 = STATS_min\n"
            "  stats f using \"y_m\" every ::0::0 nooutput\n  y0 = STATS_min\n"
            "  stats f using \"z_m\" every ::0::0 nooutput\n  z0 = STATS_min\n"
            "  set multiplot layout 4,1 title T('Time series at the point %s (dynamic)')\n"
            "  set xlabel 'time t [s]'\n"
            "  set key top right\n"
            "  set title sprintf('displacement from the first output (x0, y0, z0) = (%%.3f, %%.3f, %%.3f) m', x0, y0, z0)\n"
            "  set ylabel 'displacement [m]'\n"
            "  plot f using \"t_s\":(column(\"x_m\") - x0) with lines lw 2 title 'dx', \\\n"
            "       f using \"t_s\":(column(\"y_m\") - y0) with lines lw 2 title 'dy', \\\n"
            "       f using \"t_s\":(column(\"z_m\") - z0) with lines lw 2 title 'dz'\n"
            "  set title 'effective tension'\n"
            "  set ylabel 'effective tension n1 [kN]'\n"
            "  plot f using \"t_s\":(column(\"effective_tension_N\")/1e3) with lines lw 2 title 'n1'\n"
            "  set title 'bending moments'\n"
            "  set ylabel 'bending moment [kN m]'\n"
            "  plot f using \"t_s\":(column(\"bending_moment_2_Nm\")/1e3) with lines lw 2 title 'm2 (about t2)', \\\n"
            "       f using \"t_s\":(column(\"bending_moment_3_Nm\")/1e3) with lines lw 2 title 'm3 (about t3)'\n"
            "  set title 'bending curvature'\n"
            "  set ylabel 'curvature [1/m]'\n"
            "%s"
            "  plot f using \"t_s\":\"curvature_1pm\" with lines lw 2 title 'curvature'\n"
            "  unset multiplot\n",
        names[k], names[k], kCurvatureAxis);
    Tally(RunScript(&P, script, 1200, 1400, &b), &n, &failed);
    free(b.s);
  }
  for (int k = 0; k < nts; ++k) free(names[k]);
  free(names);
  return PlotterFinish(&P, n, failed);
}
