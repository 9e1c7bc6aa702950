/*
 * pipelay.c - the command-line program: a thin layer over libpipelay.
 *
 *   pipelay run FILE [--set key.path=value]... [--output DIR] [--quiet] [--no-plots] [PETSc options]
 *   pipelay info FILE [--set key.path=value]...      (app/cmd_info.c)
 *   pipelay info --keys [--markdown]                 (app/cmd_info.c)
 *   pipelay plot DIR                                  (app/cmd_plot.c)
 *   pipelay verify [DIR] [--case NAME]... [--report DIR] (app/cmd_verify.c)
 *   pipelay compare RESULT REFERENCE [--tol ...]      (app/cmd_compare.c)
 *   pipelay --version | --help
 *
 * Exit statuses: 0 success, 1 internal error, 2 bad input, 3 no convergence (the last
 * converged state is written), 4 output could not be written, 5 interrupted.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <petscsys.h>
#include "pipelay/solver.h"
#include "pipelay/fatigue.h"
#include "pipelay/output.h"
#include "commands.h"
#include "describe.h"

static const char usage[] =
  "usage: pipelay run FILE [--set key.path=value]... [--output DIR] [--restart DIR] [--start-from DIR]\n"
  "                        [--quiet] [--no-plots] [PETSc options]\n"
  "       pipelay sweep FILE --vary KEY=START:STOP:COUNT|KEY=V1,V2,... [--vary KEY2=...]... [--set ...]\n"
  "                          [--output DIR]\n"
  "       pipelay operability FILE --sea-states TABLE [--set ...] [--output DIR]\n"
  "       pipelay info FILE [--set key.path=value]...\n"
  "       pipelay info --keys [--markdown]\n"
  "       pipelay plot DIR\n"
  "       pipelay verify [DIR] [--case NAME]... [--report DIR] [--skip-slow] [--reuse]\n"
  "       pipelay compare RESULT REFERENCE [--tol [COLUMN=]TYPE:VALUE]... [--x COLUMN]\n"
  "       pipelay decay DIR [--body NAME] [--dof DOF]... [--from T] [--to T]\n"
  "       pipelay --version\n"
  "Runs the analysis of the YAML model FILE (see docs/model-file.md). --set overrides any\n"
  "value of the file; --output sets the output directory; --restart DIR continues the\n"
  "interrupted dynamic run in DIR (same FILE and --set options) from its last output time;\n"
  "--start-from DIR starts the static solve from the static shape of the run in DIR.\n"
  "PETSc options (-snes_monitor,\n"
  "-ksp_type ..., -pc_type ...) go after FILE. A run also writes ParaView files (DIR/*.pvd,\n"
  "DIR/vtk/) and plots (DIR/plots/, with gnuplot; --no-plots turns them off).\n"
  "info prints the model as understood (section properties, mesh, ends, analysis);\n"
  "info --keys prints every key of the model file: type, unit, default, range, meaning;\n"
  "plot redraws the plots of a finished run from the files in its output directory DIR.\n"
  "verify runs the verification cases (verification/README.md) and writes a report;\n"
  "compare compares a run's CSV file with a reference CSV file (exit 6: a check failed);\n"
  "decay gives a body's natural periods and damping ratios from the free decay of a run in DIR;\n"
  "sweep solves FILE for each value of KEY, each from the last converged (pipelay sweep --help).\n"
  "Exit status: 0 ok, 2 bad input, 3 no convergence, 4 output not written, 5 interrupted,\n"
  "6 a check of verify or compare failed.\n";

typedef struct {
  const char *file;            /* model file */
  const char *output;          /* --output or NULL */
  const char *restart;         /* --restart DIR or NULL */
  const char *start_from;      /* --start-from DIR or NULL */
  const char *sets[256];       /* --set values */
  int nsets;
  int quiet;
  int no_plots;                /* --no-plots */
} Args;

/* Returns 0, or PL_EXIT_BAD_INPUT with a message printed. PETSc options (single dash) and
 * their values are skipped: PetscInitialize has them. */
static int ParseArgs(int argc, char **argv, Args *a, int rank)
{
  memset(a, 0, sizeof *a);
  if (argc < 3 || strcmp(argv[1], "run")) {
    if (!rank) fputs(usage, stderr);
    return PL_EXIT_BAD_INPUT;
  }
  for (int i = 2; i < argc; ++i)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      if (!rank) fputs(usage, stdout);
      return -1; /* help printed: exit 0 */
    }
  a->file = argv[2];
  for (int i = 3; i < argc; ++i) {
    int petsc;
    if (!strcmp(argv[i], "--restart")) {
      if (i + 1 >= argc || !argv[i + 1][0] || strlen(argv[i + 1]) >= PL_PATH_MAX) {
        if (!rank) fprintf(stderr, "pipelay: --restart needs the output directory of the interrupted run\n");
        return PL_EXIT_BAD_INPUT;
      }
      a->restart = argv[++i];
      continue;
    }
    if (!strcmp(argv[i], "--start-from")) {
      if (i + 1 >= argc || !argv[i + 1][0] || strlen(argv[i + 1]) >= PL_PATH_MAX) {
        if (!rank) fprintf(stderr, "pipelay: --start-from needs the output directory of a previous static run\n");
        return PL_EXIT_BAD_INPUT;
      }
      a->start_from = argv[++i];
      continue;
    }
    if (!strcmp(argv[i], "--set") || !strcmp(argv[i], "--output")) {
      if (i + 1 >= argc) {
        if (!rank) fprintf(stderr, "pipelay: %s needs a value\n", argv[i]);
        return PL_EXIT_BAD_INPUT;
      }
      if (argv[i][2] == 's') {
        if (a->nsets == (int)(sizeof a->sets / sizeof a->sets[0])) {
          if (!rank) fprintf(stderr, "pipelay: more than 256 --set options\n");
          return PL_EXIT_BAD_INPUT;
        }
        a->sets[a->nsets++] = argv[++i];
      } else {
        a->output = argv[++i];
        if (!a->output[0] || strlen(a->output) >= PL_PATH_MAX) {
          if (!rank) fprintf(stderr, "pipelay: --output needs a directory path of 1 to %d characters\n", PL_PATH_MAX - 1);
          return PL_EXIT_BAD_INPUT;
        }
      }
    } else if (!strcmp(argv[i], "--quiet")) a->quiet = 1;
    else if (!strcmp(argv[i], "--no-plots")) a->no_plots = 1;
    else if ((petsc = PlArgPetscOption(argc, argv, &i, "pipelay", rank)) < 0) return PL_EXIT_BAD_INPUT;
    else if (!petsc) {
      if (!rank) fprintf(stderr, "pipelay: unknown argument '%s'\n%s", argv[i], usage);
      return PL_EXIT_BAD_INPUT;
    }
  }
  return 0;
}

int PlArgPetscOption(int argc, char **argv, int *i, const char *cmd, int rank)
{
  const char *arg = argv[*i];
  if (arg[0] != '-' || arg[1] == '-') return 0;
  if (arg[1] && arg[2]) {
    if (*i + 1 < argc && argv[*i + 1][0] != '-') ++*i; /* its value */
    return 1;
  }
  if (!rank)
    fprintf(stderr, "%s: unknown argument '%s': pipelay's options have two dashes (--output DIR, --set KEY=VALUE, "
                    "--quiet; --help lists them), single-dash options are PETSc's\n", cmd, arg);
  return -1;
}

static void PrintSummary(const PlModel *m, const PlMesh *mesh, const PlStaticReport *r,
                         const PlStaticSummary *s, const char *dir, int nranks, int written)
{
  printf("pipelay %s: %s (%s)\n", PIPELAY_VERSION, m->name, m->source_path);
  printf("  nodes %d, elements %d, rotations %s, MPI ranks %d, initial guess %s\n", mesh->nnodes,
         mesh->nelements, m->rotation == PL_ROT_QUATERNION ? "quaternion" : "euler_zxy", nranks,
         mesh->guess_used == PL_GUESS_CATENARY ? "catenary"
                                                : (mesh->guess_used == PL_GUESS_RESULTS ? "a previous run's shape" : "straight"));
  if (mesh->guess_note[0]) printf("  note: %s\n", mesh->guess_note);
  if (r->strategy == PL_STATIC_PTC)
    printf("  static solve: %s by pseudo-transient continuation after Newton failed: %d steps (%d rejected), %d "
           "Newton iterations in all, %.3f s\n", r->converged ? "converged" : "NOT CONVERGED", r->ptc_steps,
           r->ptc_rejected, r->newton_iterations, r->wall_time_s);
  else
    printf("  static solve: %s, %d Newton iterations, %d load step%s, %d cut-back%s, %.3f s\n",
           r->converged ? "converged" : "NOT CONVERGED", r->newton_iterations, r->load_steps,
           r->load_steps == 1 ? "" : "s", r->cutbacks, r->cutbacks == 1 ? "" : "s", r->wall_time_s);
  if (r->converged && r->strategy == PL_STATIC_NEWTON) {
    printf("  residual norms of the last load step [N]:");
    for (int k = 0; k < r->nhistory; ++k) printf(" %.2e", r->history[k]);
    printf("\n");
  }
  if (!r->converged)
    printf("  NOT AN EQUILIBRIUM: the values below are of the last state reached (residual %.3e N)\n",
           r->final_residual_norm);
  if (r->target_solves) {
    const double *f = r->target_force_N;
    printf("  top force (solved)       %12.4f kN: (%.4f, %.4f, %.4f) kN, for the target %s in %d static solves\n",
           sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]) / 1e3, f[0] / 1e3, f[1] / 1e3, f[2] / 1e3,
           m->ends[1].target == PL_TARGET_TENSION ? "top tension" : "hang-off angle", r->target_solves);
  }
  printf("  top tension              %12.4f kN\n", s->top_tension_N / 1e3);
  printf("  top horizontal tension   %12.4f kN\n", s->top_horizontal_tension_N / 1e3);
  printf("  hang-off angle           %12.4f deg (top tangent from horizontal)\n", s->hang_off_angle_deg);
  if (isfinite(s->layback_m)) {
    printf("  layback                  %12.3f m (top to touchdown, horizontal)\n", s->layback_m);
    printf("  touchdown arc length     %12.3f m (from the bottom end)\n", s->touchdown_arc_length_m);
  } else printf("  touchdown                         none (no seabed contact)\n");
  printf("  max bending moment       %12.4f kN m at S = %.2f m\n", s->max_bending_moment_Nm / 1e3,
         s->max_bending_moment_arc_length_m);
  printf("  max axial strain         %12.4e (max fibre strain %.4e)\n", s->max_axial_strain, s->max_fibre_strain);
  if (isfinite(s->friction_mobilised))
    printf("  seabed friction          %12.1f %% of the capacity at most, at S = %.2f m\n", 100.0 * s->friction_mobilised,
           s->friction_mobilised_arc_length_m);
  if (s->has_design) PlDesignPrint(stdout, m, &s->design, 0);
  if (!written) printf("  results NOT written to %s/ (see the message above)\n", dir);
}

/* Room for one more output time in *times (n used of *cap; doubled as needed). 0, or 1 out
 * of memory (err says so). */
static int RoomForTime(double **times, int n, int *cap, PlError *err)
{
  if (n < *cap) return 0;
  const int c = *cap ? 2 * *cap : 256;
  double *p = realloc(*times, sizeof(double) * (size_t)c);
  if (!p) {
    snprintf(err->msg, sizeof err->msg, "out of memory");
    return 1;
  }
  *times = p;
  *cap = c;
  return 0;
}

/* The ParaView frames of the first nkeep outputs of an interrupted run (a restart keeps
 * them): their times in *times (capacity *cap, grown), their count returned, or -1. */
static int KeptFrames(const PlModel *m, int nkeep, double **times, int *cap, PlError *err)
{
  const double dt = m->analysis.dynamic.output_interval;
  const long nout = (long)ceil(m->analysis.dynamic.duration / dt - 1e-9);
  int nf = 0;
  if (RoomForTime(times, 0, cap, err)) return -1;
  for (long k = 0; k < nkeep; ++k)
    if (PlModelVtkFrame(m, k, nout)) {
      if (RoomForTime(times, nf, cap, err)) return -1;
      (*times)[nf++] = k == nout ? m->analysis.dynamic.duration : k * dt;
    }
  return nf;
}

static volatile sig_atomic_t g_stop = 0;

/* The communicator a run of one model computes on: PETSC_COMM_SELF of rank 0 when the command
 * has several ranks (main says why), else PETSC_COMM_WORLD (one rank). */
static MPI_Comm g_run_comm;
static void OnSignal(int sig)
{
  (void)sig;
  g_stop = 1;
}

/* Observer of the dynamic run: ParaView files at every output time (rank 0). */
static int WriteVtkFrame(void *ctx, double t, const PlStation *nodes, const PlStation *stat, int nnodes, PlError *err)
{
  return PlVtkSeriesWriteRef((PlVtkSeries)ctx, t, nodes, stat, nnodes, err);
}

/* The extremes an engineer checks first after a dynamic run (over its outputs, x): the top
 * tension's range, the least effective tension with where and when (a compression said so:
 * the line may buckle there), the largest bending moment and fibre strain with where and when. */
static void PrintRunExtrema(const PlRunExtrema *x, const char *in)
{
  printf("%stop tension %.4f .. %.4f kN (at t = %.6g and %.6g s)\n", in, x->min_top_tension.value / 1e3,
         x->max_top_tension.value / 1e3, x->min_top_tension.t_s, x->max_top_tension.t_s);
  printf("%smin effective tension %.4f kN at S = %.6g m, t = %.6g s%s\n", in, x->min_tension.value / 1e3,
         x->min_tension.S_m, x->min_tension.t_s, x->min_tension.value < 0.0 ? " (compression)" : "");
  printf("%smax bending moment %.4f kN m at S = %.6g m, t = %.6g s\n", in, x->max_moment.value / 1e3, x->max_moment.S_m,
         x->max_moment.t_s);
  printf("%smax fibre strain %.4e at S = %.6g m, t = %.6g s (axial strain up to %.4e)\n", in, x->max_fibre_strain.value,
         x->max_fibre_strain.S_m, x->max_fibre_strain.t_s, x->max_axial_strain.value);
}

/* rc broadcast from rank 0 over PETSC_COMM_WORLD, the other ranks polling every 20 ms rather
 * than spinning in the broadcast while rank 0 computes. */
static PetscErrorCode BcastWaiting(int *rc)
{
  MPI_Request req;
  int done = 0;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Ibcast(rc, 1, MPI_INT, 0, PETSC_COMM_WORLD, &req));
  for (;;) {
    PetscCallMPI(MPI_Test(&req, &done, MPI_STATUS_IGNORE));
    if (done) break;
    nanosleep(&(struct timespec){0, 20000000}, NULL);
  }
  PetscFunctionReturn(0);
}

/* The exit status of a finished dynamic run, its failure said on stderr (dir: its results). */
static int EndStatus(const PlDynamicResult *res, const char *dir)
{
  if (res->io_status) {
    fprintf(stderr, "pipelay: %s\n", res->err.msg);
    return res->io_status;
  }
  if (res->ida_flag) {
    fprintf(stderr, "pipelay: the dynamic analysis stopped: %s; results up to t = %.6g s are written to %s/\n",
            res->failure, res->simulated_time_s, dir);
    return PL_EXIT_NOT_CONVERGED;
  }
  if (res->interrupted) {
    fprintf(stderr, "pipelay: interrupted at t = %.6g s; results so far are written to %s/\n", res->simulated_time_s,
            dir);
    return PL_EXIT_INTERRUPTED;
  }
  return 0;
}

/* The dynamic plots of a run of m (whichever time series it wrote). */
static void DynamicPlots(const PlModel *m)
{
  (void)PlPlotWaitBackground(); /* the static plots first (the same plots folder) */
  PlPlotOptions po;
  PlPlotOptionsDefault(&po);
  PlPlotOptionsFromModel(&po, m, m->output_dir);
  PlPlotDynamic(m->output_dir, &po);
}

/* The dynamic analysis that follows a converged static solve: run, write, print. */
static PetscErrorCode RunDynamic(PlProblem prob, const PlStaticReport *rep, const PlStaticSummary *sum,
                                 const Args *a, PetscMPIInt rank, int *rc)
{
  const PlModel *m = PlProblemModel(prob);
  PlDynamicRunOptions opt = {0};
  PlDynamicResult res;
  PlVtkSeries vs = NULL;
  PlError err;
  PetscFunctionBeginUser;
  opt.quiet = a->quiet;
  opt.noverrides = a->nsets;
  opt.overrides = a->sets;
  opt.stop = &g_stop;
  opt.restart = a->restart != NULL;
  /* the model as text: restart.bin keeps it, and a restart must match it */
  char *fingerprint = NULL;
  size_t fplen = 0;
  FILE *fp = open_memstream(&fingerprint, &fplen);
  if (fp) {
    PlDescribeModel(fp, m, PlProblemMesh(prob), 1);
    if (fclose(fp)) {
      free(fingerprint);
      fingerprint = NULL;
    }
  }
  opt.fingerprint = fingerprint;
  int vrc = 0;
  if (!rank && a->restart) {
    int nkeep = 0;
    double tr = 0.0;
    vrc = PlDynamicRestartInfo(m->output_dir, &nkeep, &tr, &err);
    if (!vrc) {
      double *times = NULL;
      int cap = 0;
      const int nf = KeptFrames(m, nkeep, &times, &cap, &err);
      vrc = nf < 0 ? PL_EXIT_IO : PlVtkSeriesResume(m->output_dir, m, nf, times, &vs, &err);
      free(times);
    }
  } else if (!rank)
    vrc = PlVtkSeriesCreate(m->output_dir, PL_VTK_DYNAMIC, m, &vs, &err);
  if (!rank && vrc == 0 && PlVtkSeriesAddSea(vs, m, &err))
    fprintf(stderr, "pipelay: warning: no sea surface in the ParaView files: %s\n", err.msg);
  if (!rank && vrc == 0) {
    opt.observer = WriteVtkFrame;
    opt.observer_ctx = vs;
  } else if (!rank)
    fprintf(stderr, "pipelay: warning: no ParaView files: %s\n", err.msg);
  signal(SIGINT, OnSignal);
  signal(SIGTERM, OnSignal);
  if (!rank && !a->quiet)
    printf("  dynamic analysis: %.6g s, output every %.6g s, rtol %.1e\n", m->analysis.dynamic.duration,
           m->analysis.dynamic.output_interval, m->analysis.dynamic.rtol);
  PetscCall(PlDynamicRunToFiles(prob, rep, sum, &opt, &res));
  free(fingerprint);
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  if (vs) {
    if (PlVtkSeriesFinish(vs, &err)) fprintf(stderr, "pipelay: warning: %s\n", err.msg);
    PlVtkSeriesDestroy(&vs);
  }
  if (!rank && !a->no_plots) DynamicPlots(m);
  if (!rank) {
    if (!a->quiet) {
      printf("  dynamic: %s at t = %.6g s, %ld steps, %ld Newton iterations, %ld iteration matrices, "
             "%ld error-test failures\n", res.completed ? "completed" : "STOPPED", res.simulated_time_s,
             res.stats.steps, res.stats.nonlinear_iterations, res.stats.jacobian_evaluations,
             res.stats.error_test_failures);
      if (a->restart)
        printf("  wall time %.3f s for the %.6g s from the restart at %.6g s, %.1fx real time\n", res.wall_time_s,
               res.simulated_time_s - res.restarted_at_s, res.restarted_at_s, res.real_time_factor);
      else printf("  wall time %.3f s, %.1fx real time\n", res.wall_time_s, res.real_time_factor);
      if (isfinite(res.max_top_tension_N)) PrintRunExtrema(&res.extrema, "  ");
      if (res.has_design) PlDesignPrint(stdout, m, &res.design, 1);
    }
    *rc = EndStatus(&res, m->output_dir);
  }
  PetscCallMPI(MPI_Bcast(rc, 1, MPI_INT, 0, g_run_comm));
  PetscFunctionReturn(0);
}

/* A rigid body alone (a vessel without a line): its dynamic run, on rank 0. */
/* ParaView frames of the bodies of a model without a line: each body the uniform box of its
 * mass and inertia (PlVesselEquivalentBox), vtk/bodies_NNNNNN.vtu, listed in dynamic.pvd. */
typedef struct {
  const char *dir;
  double (*dims)[3]; /* [nbodies] */
  int nframes, cap;
  double *times;
} BodyFrames;

static int WriteBodyFrame(void *ctx, double t, int nb, const double (*r)[3], const double (*R)[9], PlError *err)
{
  BodyFrames *bf = ctx;
  char path[PL_PATH_MAX + 64];
  if (RoomForTime(&bf->times, bf->nframes, &bf->cap, err)) return PL_EXIT_FAILURE;
  snprintf(path, sizeof path, "%s/vtk", bf->dir);
  int rc = PlMakeDirs(path, err);
  snprintf(path, sizeof path, "%s/vtk/bodies_%06d.vtu", bf->dir, bf->nframes);
  if (!rc) rc = PlVtkBoxesWrite(path, t, nb, r, R, (const double(*)[3])bf->dims, err);
  if (!rc) bf->times[bf->nframes++] = t;
  return rc;
}

/* ParaView frames of a system of lines: each line's series in its folder (line_NAME/vtk,
 * line_NAME/dynamic.pvd), the output times kept for the system's dynamic.pvd. */
typedef struct {
  int nlines, nframes, cap;
  PlVtkSeries *vs; /* [nlines] */
  double *times;
} LineFrames;

static int WriteLineFrames(void *ctx, double t, int nl, PlStation *const *nodes, PlStation *const *stat, const int *nn,
                           PlError *err)
{
  LineFrames *lf = ctx;
  for (int l = 0; l < nl; ++l) {
    const int rc = PlVtkSeriesWriteRef(lf->vs[l], t, nodes[l], stat[l], nn[l], err);
    if (rc) return rc;
  }
  if (RoomForTime(&lf->times, lf->nframes, &lf->cap, err)) return PL_EXIT_FAILURE;
  lf->times[lf->nframes++] = t;
  return 0;
}

/* The dynamic run of a system of lines from its static equilibrium: every rank integrates
 * (each assembles its METIS part), rank 0 writes. */
static PetscErrorCode RunLinesDynamic(PlModel *m, const Args *a, PlLines L, PlSysDyn S, const PlLinesReport *rep,
                                      PetscMPIInt rank, int *rc)
{
  PetscFunctionBeginUser;
  PlDynamicRunOptions opt;
  static PlDynamicResult res;
  memset(&opt, 0, sizeof opt);
  opt.quiet = a->quiet || rank;
  opt.stop = &g_stop;
  opt.restart = a->restart != NULL;
  /* the system as text: restart.bin keeps it, and a restart must match it */
  char *fingerprint = NULL;
  size_t fplen = 0;
  FILE *fp = open_memstream(&fingerprint, &fplen);
  if (fp && (PlDescribeLines(fp, m, 1) | fclose(fp))) {
    free(fingerprint);
    fingerprint = NULL;
  }
  opt.fingerprint = fingerprint;
  LineFrames lf = {m->nlines, 0, 0, calloc((size_t)m->nlines + 1, sizeof *lf.vs), NULL};
  BodyFrames bf = {m->output_dir, calloc((size_t)m->nbodies + 1, sizeof *bf.dims), 0, 0, NULL};
  PlError verr;
  int vrc = 0;
  PetscCheck(lf.vs && bf.dims, PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory");
  if (!rank) {
    /* a restart keeps the frames of its outputs (restart.bin says how many) and goes on */
    int nkeep = 0, unreadable = 0; /* unreadable: the run below says why */
    double tr = 0.0;
    if (a->restart && (unreadable = vrc = PlDynamicRestartInfo(m->output_dir, &nkeep, &tr, &verr)) == 0) {
      const int nf = KeptFrames(m, nkeep, &lf.times, &lf.cap, &verr);
      if (nf < 0 || KeptFrames(m, nkeep, &bf.times, &bf.cap, &verr) < 0) vrc = PL_EXIT_FAILURE;
      else lf.nframes = bf.nframes = nkeep = nf;
    }
    for (int l = 0; l < m->nlines && !vrc; ++l) {
      char dir[PL_PATH_MAX + PL_NAME_MAX + 8];
      const PlModel *lm = PlProblemModel(PlLinesProblem(L, l));
      snprintf(dir, sizeof dir, "%s/line_%s", m->output_dir, m->lines[l].name);
      vrc = a->restart ? PlVtkSeriesResume(dir, lm, nkeep, lf.times, &lf.vs[l], &verr)
                       : PlVtkSeriesCreate(dir, PL_VTK_DYNAMIC, lm, &lf.vs[l], &verr);
    }
    for (int b = 0; b < m->nbodies; ++b) PlVesselEquivalentBox(&m->bodies[b].body, bf.dims[b]);
    if (vrc && !unreadable) fprintf(stderr, "pipelay: %s\n", verr.msg);
    else if (!vrc) {
      opt.lines_observer = WriteLineFrames;
      opt.lines_observer_ctx = &lf;
      opt.bodies_observer = WriteBodyFrame;
      opt.bodies_observer_ctx = &bf;
    }
    if (!a->quiet) {
      PlSysDynParts parts;
      PlSysDynGetParts(S, &parts);
      printf("  dynamic: %d unknowns, %.6g s", PlSysDynSize(S), m->analysis.dynamic.duration);
      if (parts.ranks > 1) {
        printf("; METIS parts (elements, points, bodies per rank):");
        for (int r = 0; r < parts.ranks && r < 64; ++r)
          printf(" %d/%d/%d", parts.elements[r], parts.points[r], parts.bodies[r]);
        printf(", %d edges cut", parts.edge_cut);
      }
      printf("\n");
      fflush(stdout);
    }
  }
  signal(SIGINT, OnSignal);
  signal(SIGTERM, OnSignal);
  PlSysDynRunToFiles(S, rep, &opt, &res);
  free(fingerprint);
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  if (!rank) {
    const char *names[m->nlines > 0 ? m->nlines : 1];
    for (int l = 0; l < m->nlines; ++l) {
      names[l] = m->lines[l].name;
      if (!vrc && lf.vs[l]) vrc = PlVtkSeriesFinish(lf.vs[l], &verr);
      PlVtkSeriesDestroy(&lf.vs[l]);
    }
    if (!vrc && lf.nframes)
      vrc = PlVtkSystemSeries(m->output_dir, m->nlines, names, m->nbodies > 0, lf.nframes, lf.times, &verr);
    if (vrc && !res.io_status) {
      res.io_status = PL_EXIT_IO;
      res.err = verr;
    }
    free(lf.times);
    free(bf.times);
    if (!a->no_plots && !res.io_status) DynamicPlots(m);
    PlError err;
    if (!res.io_status && PlOutputRecordFiles(m->output_dir, &err)) {
      res.io_status = PL_EXIT_IO;
      res.err = err;
    }
    *rc = EndStatus(&res, m->output_dir);
    if (!*rc && !a->quiet) {
      char from[64] = ""; /* a restart simulated from its restart time on */
      if (a->restart) snprintf(from, sizeof from, " (from the restart at %.6g s)", res.restarted_at_s);
      printf("  dynamic: %.6g s%s in %.3g s wall (%.0fx real time), %ld steps -> %s/\n", res.simulated_time_s, from,
             res.wall_time_s, res.real_time_factor, res.stats.steps, m->output_dir);
    }
    for (int l = 0; !a->quiet && l < res.nlines && l < m->nlines; ++l) {
      printf("  line %s:\n", m->lines[l].name);
      PrintRunExtrema(&res.line_extrema[l], "    ");
      if (res.line_design) PlDesignPrint(stdout, PlProblemModel(PlLinesProblem(L, l)), &res.line_design[l], 1);
    }
    for (int b = 0; !a->quiet && b < res.nbodies; ++b) {
      const PlVesselOutput o = res.body_final[b]; /* at the last output */
      printf("  body %s: final O_b (%.6f, %.6f, %.6f) m, reported point (%.6f, %.6f, %.6f) m\n", m->bodies[b].id,
             o.eta[0], o.eta[1], o.eta[2], o.hang_off_point[0], o.hang_off_point[1], o.hang_off_point[2]);
    }
  }
  free(lf.vs);
  free(bf.dims);
  PlDynamicResultFree(&res);
  PetscCallMPI(MPI_Bcast(rc, 1, MPI_INT, 0, g_run_comm));
  PetscFunctionReturn(0);
}

/* A model of several lines: their statics, each line's results in OUTPUT/line_NAME/ as a
 * one-line run writes them, the system's in OUTPUT/summary.json. *rc gets the exit status. */
static PetscErrorCode RunLines(PlModel *m, const Args *a, PetscMPIInt rank, PetscMPIInt size, int *rc)
{
  PlLines L;
  static PlLinesReport rep;
  PlError err;
  PetscFunctionBeginUser;
  PetscCall(PlLinesCreate(g_run_comm, m, &L));
  signal(SIGINT, OnSignal);
  signal(SIGTERM, OnSignal);
  /* the lines' own solves, then the whole system in one Newton from there (every rank alike) */
  PlSysDyn S = NULL;
  PlSysStaticReport srep;
  char warning[1200]; /* the whole system's failure (PlSysStaticReport) and a few words */
  PetscCall(PlSystemStatics(L, &g_stop, a->quiet, &rep, &srep, &S, warning, sizeof warning));
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  if (!rank && warning[0]) fprintf(stderr, "pipelay: warning: %s\n", warning);
  if (!rank && !a->quiet && m->rigid_body)
    printf("pipelay %s: %s (%s)\n  %d rigid bod%s and %d joint%s, no line: from the initial poses, %.6g s, output "
           "every %.6g s, rtol %.1e\n", PIPELAY_VERSION, m->name, m->source_path, m->nbodies,
           m->nbodies == 1 ? "y" : "ies", m->njoints, m->njoints == 1 ? "" : "s", m->analysis.dynamic.duration,
           m->analysis.dynamic.output_interval, m->analysis.dynamic.rtol);
  else if (!rank && !a->quiet) {
    int nfree = 0;
    for (int k = 0; k < m->npoints; ++k) nfree += !m->points[k].fixed;
    printf("pipelay %s: %s (%s)\n  %d lines, %d points (%d free), %d bodies, MPI ranks %d: %s in %d Newton "
           "iterations (%d re-solves of the lines), imbalance %.1e\n", PIPELAY_VERSION, m->name, m->source_path,
           m->nlines, m->npoints, nfree, m->nbodies, size, rep.converged ? "converged" : "NOT CONVERGED",
           rep.iterations, rep.line_solves, rep.residual_rel);
    if (S)
      printf("  the whole system in one Newton: %s in %d steps (%d rejected), imbalance %.1e of %.4g N\n",
             srep.converged ? "converged" : "NOT CONVERGED", srep.iterations, srep.rejected, srep.residual,
             srep.force_scale);
  }
  for (int l = 0; l < m->nlines; ++l) {
    PlProblem p = PlLinesProblem(L, l);
    PlStaticSummary sum;
    PlStation *nodes, *els;
    int nn, ne;
    PetscCall(PlProblemStations(p, &nodes, &nn, &els, &ne));
    PetscCall(PlStaticSummarize(p, nodes, nn, els, ne, &sum));
    if (!rank && !a->restart) { /* a restart keeps the files of the run it continues */
      char dir[PL_PATH_MAX + PL_NAME_MAX + 8];
      snprintf(dir, sizeof dir, "%s/line_%s", m->output_dir, m->lines[l].name);
      PlStaticReport lr = rep.line[l];
      lr.converged = rep.converged;
      snprintf(lr.failure, sizeof lr.failure, "%s", rep.failure);
      const PlModel *lm = PlProblemModel(p);
      int wrc = PlMakeDirs(dir, &err);
      if (!wrc) wrc = PlOutputClean(dir, &err);
      if (!wrc) wrc = PlWriteStaticResults(dir, lm, &lr, &sum, nodes, nn, els, ne, size, a->nsets, a->sets, &err);
      if (!wrc) wrc = PlOutputWriteStatic(dir, lm, nodes, nn, !a->no_plots, &err);
      if (!wrc) wrc = PlOutputRecordFiles(dir, &err);
      if (wrc) {
        fprintf(stderr, "pipelay: %s\n", err.msg);
        if (!*rc) *rc = wrc;
      }
      if (!a->quiet)
        printf("  line %s: %d nodes; bottom tension %.3f kN, top tension %.3f kN; max bending moment %.3f kN m "
               "-> %s/\n", m->lines[l].name, nn, rep.end_tension[l][0] / 1e3, rep.end_tension[l][1] / 1e3,
               sum.max_bending_moment_Nm / 1e3, dir);
      if (!a->quiet && sum.has_design) PlDesignPrint(stdout, lm, &sum.design, 0);
    } else if (!rank && !a->quiet)
      printf("  line %s: %d nodes; bottom tension %.3f kN, top tension %.3f kN (the static start of the restart)\n",
             m->lines[l].name, nn, rep.end_tension[l][0] / 1e3, rep.end_tension[l][1] / 1e3);
    free(nodes);
    free(els);
  }
  if (!rank && !m->rigid_body) { /* bodies alone have no statics to write */
    if (!a->quiet) {
      for (int k = 0; k < m->npoints; ++k)
        printf("  point %s%s: (%.4f, %.4f, %.4f) m\n", m->points[k].name, m->points[k].fixed ? " (fixed)" : "",
               rep.point_position[k][0], rep.point_position[k][1], rep.point_position[k][2]);
      for (int b = 0; b < m->nbodies; ++b) {
        const double *e = rep.body_eta[b], r2d = 180.0 / 3.14159265358979323846;
        printf("  body %s: O_b (%.4f, %.4f, %.4f) m; roll %.4f, pitch %.4f, yaw %.4f deg\n", m->bodies[b].id, e[0],
               e[1], e[2], e[3] * r2d, e[4] * r2d, e[5] * r2d);
      }
      if (m->stinger.present && rep.rollers_solved) PlSlayPrint(stdout, m, &rep);
      for (int j = 0; j < m->njoints && rep.joints_solved; ++j) {
        const double *f = rep.joint_force[j], *mm = rep.joint_moment[j];
        printf("  joint %s: force on %s (%.4f, %.4f, %.4f) kN, moment (%.4f, %.4f, %.4f) kN m\n", m->joints[j].name,
               m->bodies[m->joints[j].body[0]].id, f[0] / 1e3, f[1] / 1e3, f[2] / 1e3, mm[0] / 1e3, mm[1] / 1e3,
               mm[2] / 1e3);
      }
    }
    for (int b = 0; b < m->nbodies; ++b) {
      double worst = 0.0;
      for (int i = 0; i < 6; ++i) worst = fmax(worst, fabs(rep.body_unbalanced[b][i]));
      if (worst > 0.0)
        fprintf(stderr, "pipelay: warning: body %s: no restoring in some DOFs (no spring or hydrostatics): held at "
                        "the initial pose; the loads left there (body frame) are %.3g, %.3g, %.3g N, %.3g, %.3g, %.3g "
                        "N m\n", m->bodies[b].id, rep.body_unbalanced[b][0], rep.body_unbalanced[b][1],
                rep.body_unbalanced[b][2], rep.body_unbalanced[b][3], rep.body_unbalanced[b][4],
                rep.body_unbalanced[b][5]);
    }
    int wrc = 0;
    if (!a->restart) { /* a restart keeps the files of the run it continues */
      wrc = PlLinesWriteSummary(L, &rep, m->output_dir, &err);
      const char *names[m->nlines > 0 ? m->nlines : 1];
      for (int l = 0; l < m->nlines; ++l) names[l] = m->lines[l].name;
      if (!wrc) wrc = PlVtkSystemCollection(m->output_dir, m->nlines, names, &err);
    }
    if (wrc) {
      fprintf(stderr, "pipelay: %s\n", err.msg);
      if (!*rc) *rc = wrc;
    }
    if (!wrc && !a->no_plots && !a->restart) {
      PlPlotOptions po;
      PlPlotOptionsDefault(&po);
      po.water_depth_m = m->water_depth;
      po.seabed_dzdx = -m->seabed_normal[0] / m->seabed_normal[2];
      snprintf(po.name, sizeof po.name, "%s", m->name);
      PlPlotSystem(m->output_dir, &po);
    }
  }
  if (!rank) {
    if (!rep.converged && a->restart) {
      fprintf(stderr, "pipelay: --restart: the static start did not converge, so the run cannot be continued:\n%s\n",
              rep.failure);
      if (!*rc) *rc = g_stop ? PL_EXIT_INTERRUPTED : PL_EXIT_NOT_CONVERGED;
    } else if (!rep.converged) {
      fprintf(stderr, "pipelay: the static equilibrium of the lines did not converge: %s; the last state is written "
                      "to %s/\n", rep.failure, m->output_dir);
      if (!*rc) *rc = g_stop ? PL_EXIT_INTERRUPTED : PL_EXIT_NOT_CONVERGED;
    }
  }
  PetscCallMPI(MPI_Bcast(rc, 1, MPI_INT, 0, g_run_comm));
  if (!*rc && S && m->analysis.kind == PL_ANALYSIS_DYNAMIC) PetscCall(RunLinesDynamic(m, a, L, S, &rep, rank, rc));
  PetscCall(PlSysDynDestroy(&S));
  PetscCall(PlLinesDestroy(&L));
  PlLinesReportFree(&rep);
  PetscFunctionReturn(0);
}

/* The static analysis of m: solve, post-process, write, print. *rc gets the exit status. */
static PetscErrorCode RunStatic(PlModel *m, const Args *a, PetscMPIInt rank, PetscMPIInt size, int *rc)
{
  PlProblem prob;
  PlStaticReport rep;
  PlStaticSummary sum;
  PlStation *nodes, *els;
  PlError err;
  int nn, ne;
  PetscFunctionBeginUser;
  PetscCall(PlProblemCreate(g_run_comm, m, &prob));
  PlProblemSetStopFlag(prob, &g_stop);
  PlProblemSetQuiet(prob, a->quiet);
  signal(SIGINT, OnSignal);
  signal(SIGTERM, OnSignal);
  PlVesselStaticReport vrep;
  bool converged;
  PetscCall(PlStaticAnalysis(prob, &rep, &vrep, &converged));
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  PetscCall(PlProblemStations(prob, &nodes, &nn, &els, &ne));
  PetscCall(PlStaticSummarize(prob, nodes, nn, els, ne, &sum));
  if (!rank && a->restart) {
    /* a restart keeps the files of the run it continues (the static start is the same) */
    if (!rep.converged) {
      fprintf(stderr, "pipelay: --restart: the static start did not converge, so the run cannot be continued:\n%s\n",
              rep.failure);
      *rc = rep.interrupted ? PL_EXIT_INTERRUPTED : PL_EXIT_NOT_CONVERGED;
    }
  } else if (!rank) {
    int wrc = PlWriteStaticResults(m->output_dir, m, &rep, &sum, nodes, nn, els, ne, size,
                                   a->nsets, a->sets, &err);
    /* VTK, plots: a dynamic run's static plots are drawn while it integrates */
    PlPlotInBackground(m->analysis.kind == PL_ANALYSIS_DYNAMIC && converged);
    if (!wrc) wrc = PlOutputWriteStatic(m->output_dir, m, nodes, nn, !a->no_plots, &err);
    PlPlotInBackground(0);
    if (wrc) {
      fprintf(stderr, "pipelay: %s\n", err.msg);
      *rc = wrc;
    }
    if (!a->quiet) PrintSummary(m, PlProblemMesh(prob), &rep, &sum, m->output_dir, size, !wrc);
    if (!rank && sum.off_grid_node >= 0) /* a warning: printed when quiet too */
      fprintf(stderr, "pipelay: warning: node %d at (%.2f, %.2f) m lies outside the bathymetry grid: the seabed there "
              "holds the depths of the grid's edge (extend the grid to cover the line)\n", sum.off_grid_node,
              sum.off_grid_xy[0], sum.off_grid_xy[1]);
    if (m->vessel.present && rep.converged) {
      const double r2d = 180.0 / 3.14159265358979323846;
      if (!a->quiet) {
        printf("  vessel equilibrium: %s in %d steps of the whole system's Newton (%d rejected), imbalance %.1e\n",
               vrep.converged ? "converged" : "NOT CONVERGED", vrep.iterations, vrep.rejected, vrep.residual_rel);
        printf("    O_b (%.4f, %.4f, %.4f) m; roll %.4f, pitch %.4f, yaw %.4f deg\n", vrep.eta[0], vrep.eta[1],
               vrep.eta[2], vrep.eta[3] * r2d, vrep.eta[4] * r2d, vrep.eta[5] * r2d);
        printf("    pipe load on the vessel (body) %.2f, %.2f, %.2f kN; DP thrust %.2f, %.2f kN, %.2f kN m\n",
               vrep.pipe_load[0] / 1e3, vrep.pipe_load[1] / 1e3, vrep.pipe_load[2] / 1e3, vrep.thrust[0] / 1e3,
               vrep.thrust[1] / 1e3, vrep.thrust[5] / 1e3);
      }
      if (vrep.nheld)
        fprintf(stderr, "pipelay: warning: no restoring in %s (no DP gain, mooring or hydrostatics): held at the "
                        "initial pose; the loads left there (body frame) are %.3g, %.3g, %.3g N, %.3g, %.3g, %.3g "
                        "N m, and the vessel drifts in them in a dynamic run\n", vrep.held_text, vrep.unbalanced[0],
                vrep.unbalanced[1], vrep.unbalanced[2], vrep.unbalanced[3], vrep.unbalanced[4], vrep.unbalanced[5]);
      if (!vrep.converged) {
        fprintf(stderr, "pipelay: the vessel's static equilibrium did not converge: %s; the last pose is written "
                        "to %s/\n", vrep.failure, m->output_dir);
        if (!*rc) *rc = PL_EXIT_NOT_CONVERGED;
      }
    }
    if (!rep.converged) {
      if (rep.interrupted)
        fprintf(stderr, "pipelay: interrupted during the static solve; the last state reached (not an "
                        "equilibrium) is written to %s/\n", m->output_dir);
      else
        fprintf(stderr, "pipelay: the static solve did not converge; the last state reached (%s, not an "
                        "equilibrium) is written to %s/. What was tried:\n%s\n",
                rep.strategy == PL_STATIC_PTC ? "of the pseudo-transient continuation" : "the last converged load step",
                m->output_dir, rep.failure);
      if (!*rc) *rc = rep.interrupted ? PL_EXIT_INTERRUPTED : PL_EXIT_NOT_CONVERGED;
    }
  }
  PetscCallMPI(MPI_Bcast(rc, 1, MPI_INT, 0, g_run_comm));
  if (!*rc && m->analysis.kind == PL_ANALYSIS_DYNAMIC) PetscCall(RunDynamic(prob, &rep, &sum, a, rank, rc));
  free(nodes);
  free(els);
  PetscCall(PlProblemDestroy(&prob));
  PetscFunctionReturn(0);
}

/* Before PetscFinalize, which restores SIGPIPE's default and flushes stdout: a reader that
 * stopped early (| head) gets nothing more, and the program is not killed for it. */
static void StdoutDone(void)
{
  if (fflush(stdout) == EOF && errno == EPIPE && !freopen("/dev/null", "w", stdout)) clearerr(stdout);
}

int main(int argc, char **argv)
{
  PetscMPIInt rank, size;
  if (argc >= 2 && !strcmp(argv[1], "--version")) {
    printf("pipelay %s\n", PIPELAY_VERSION);
    return 0;
  }
  if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
    fputs(usage, argc < 2 ? stderr : stdout);
    return argc < 2 ? PL_EXIT_BAD_INPUT : 0;
  }
  if (!strcmp(argv[1], "info")) return PlCmdInfo(argc, argv); /* no MPI, no PETSc */
  if (!strcmp(argv[1], "plot")) return PlCmdPlot(argc, argv);
  if (!strcmp(argv[1], "verify")) return PlCmdVerify(argc, argv);   /* runs children: no MPI here */
  if (!strcmp(argv[1], "compare")) return PlCmdCompare(argc, argv);
  if (!strcmp(argv[1], "decay")) return PlCmdDecay(argc, argv);
  PetscCall(PlInitialize(&argc, &argv));
  /* output piped into a reader that stops early (| head): the console lines are lost, the run
   * and its files are not (no death by SIGPIPE, no PETSc crash report) */
  signal(SIGPIPE, SIG_IGN);
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  if (!strcmp(argv[1], "sweep") || !strcmp(argv[1], "operability")) {
    const int src = argv[1][0] == 's' ? PlCmdSweep(argc, argv) : PlCmdOperability(argc, argv);
    StdoutDone();
    PetscCall(PetscFinalize());
    return src;
  }
  Args a;
  int rc = ParseArgs(argc, argv, &a, rank);
  if (rc < 0) { /* --help */
    StdoutDone();
    PetscCall(PetscFinalize());
    return PL_EXIT_OK;
  }
  PlModel *m = NULL;
  PlError err;
  if (!rc) {
    PetscCall(PetscCalloc1(1, &m));
    rc = PlModelLoad(a.file, a.nsets, a.sets, m, &err);
    if (rc && !rank) fprintf(stderr, "%s\n", err.msg);
    for (int k = 0; !rc && !rank && k < m->nwarnings; ++k) fprintf(stderr, "%s\n", m->warnings[k]);
  }
  if (!rc && a.start_from) { /* --start-from DIR: as analysis.start_from, relative to here */
    PlShape shape;
    char why[PL_ERRMSG_MAX];
    if (PlShapeRead(a.start_from, &shape, why, sizeof why)) {
      if (!rank) fprintf(stderr, "pipelay: --start-from: %s\n", why);
      rc = PL_EXIT_BAD_INPUT;
    } else {
      PlShapeFree(&shape);
      snprintf(m->analysis.start_from, sizeof m->analysis.start_from, "%s", a.start_from);
      m->analysis.initial_guess = PL_GUESS_RESULTS;
    }
  }
  if (rc) {
    PlModelFree(m); /* accepts NULL */
    PetscCall(PetscFree(m));
    StdoutDone();
    PetscCall(PetscFinalize());
    return rc;
  }
  if (a.output) snprintf(m->output_dir, sizeof m->output_dir, "%s", a.output);
  if (!rc && a.restart) {
    snprintf(m->output_dir, sizeof m->output_dir, "%s", a.restart);
    if (m->analysis.kind != PL_ANALYSIS_DYNAMIC) {
      if (!rank) fprintf(stderr, "pipelay: --restart continues a dynamic analysis; %s is a static one\n", a.file);
      rc = PL_EXIT_BAD_INPUT;
    }
  }
  if (!rc) { /* an output directory that cannot be made is found before a long solve */
    int orc = 0;
    if (!rank && (orc = PlMakeDirs(m->output_dir, &err))) fprintf(stderr, "pipelay: %s\n", err.msg);
    PetscCallMPI(MPI_Bcast(&orc, 1, MPI_INT, 0, PETSC_COMM_WORLD));
    if (orc) rc = orc;
  }
  if (!rc && !a.restart) { /* the folder is this run's: no file of an earlier run stays */
    int orc = 0;
    if (!rank && (orc = PlOutputClean(m->output_dir, &err))) fprintf(stderr, "pipelay: %s\n", err.msg);
    PetscCallMPI(MPI_Bcast(&orc, 1, MPI_INT, 0, PETSC_COMM_WORLD));
    if (orc) rc = orc;
  }
  const int ran = !rc;
  /* A run of one model is computed by rank 0 alone, the others wait for its exit status: an
   * assembly split over K ranks sums each row's parts in another order than one rank does, and
   * the static solve distributed over them (MUMPS) rounds otherwise too, so that K ranks took
   * other steps and gave other answers than one rank (within the tolerances, not to the bit),
   * and they were slower than one rank for every model here (bench/README.md,
   * system_ranks.sh). Ranks serve `pipelay sweep`, a case per block of ranks. */
  g_run_comm = size > 1 ? PETSC_COMM_SELF : PETSC_COMM_WORLD;
  if (size > 1 && !rc && !rank && !a.quiet)
    printf("pipelay: a run of one model is computed on one rank; %d rank(s) wait (pipelay sweep spreads cases "
           "over ranks)\n", size - 1);
  PetscErrorCode ierr = 0;
  if (!rank) {
    /* a system of lines, points and bodies, or of bodies alone; or the one-line model */
    if (!rc && (m->nlines > 0 || m->rigid_body)) ierr = RunLines(m, &a, 0, 1, &rc);
    else if (!rc) ierr = RunStatic(m, &a, 0, 1, &rc);
  } else if (size > 1) {
    /* the waiting ranks leave a signal to rank 0 (which stops at its next step and writes what
     * it has) and do not spin on the broadcast */
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
  }
  if (ierr) {
    if (!rank)
      fprintf(stderr, "pipelay: PETSc error %d (described above)%s\n", (int)ierr,
              ierr == PETSC_ERR_ARG_UNKNOWN_TYPE || ierr == PETSC_ERR_ARG_OUTOFRANGE || ierr == PETSC_ERR_ARG_WRONG
                ? ": check the PETSc options" : "");
    rc = ierr == PETSC_ERR_ARG_UNKNOWN_TYPE || ierr == PETSC_ERR_ARG_OUTOFRANGE || ierr == PETSC_ERR_ARG_WRONG
           ? PL_EXIT_BAD_INPUT : PL_EXIT_FAILURE;
  }
  (void)PlPlotWaitBackground(); /* every plot drawn before the files are listed */
  if (ran && !rank) { /* summary.json lists the run's files; the console only those */
    char path[PL_PATH_MAX + 64];
    struct stat sb;
    snprintf(path, sizeof path, "%s/summary.json", m->output_dir);
    if (!stat(path, &sb) && m->analysis.kind == PL_ANALYSIS_DYNAMIC) { /* every series' statistics */
      int irregular = 0;
      for (int k = 0; k < m->sea.ntrains; ++k)
        irregular |= m->sea.trains[k].kind != PL_WAVE_AIRY && m->sea.trains[k].kind != PL_WAVE_STREAM;
      const int src = PlRunStatistics(m->output_dir, m->statistics_start, irregular, a.quiet ? NULL : stdout, &err);
      if (src) fprintf(stderr, "pipelay: %s\n", err.msg);
      if (src && (!rc || rc == PL_EXIT_NOT_CONVERGED || rc == PL_EXIT_INTERRUPTED)) rc = src;
      const int fsrc = m->fatigue.present ? PlRunFatigue(m, m->output_dir, m->statistics_start, a.quiet ? NULL : stdout, &err) : 0;
      if (fsrc) fprintf(stderr, "pipelay: %s\n", err.msg);
      if (fsrc && (!rc || rc == PL_EXIT_NOT_CONVERGED || rc == PL_EXIT_INTERRUPTED)) rc = fsrc;
    }
    if (!stat(path, &sb)) {
      const int frc = PlOutputRecordFiles(m->output_dir, &err);
      if (frc) fprintf(stderr, "pipelay: %s\n", err.msg);
      if (frc && (!rc || rc == PL_EXIT_NOT_CONVERGED || rc == PL_EXIT_INTERRUPTED)) rc = frc;
    }
    if (!a.quiet) {
      static char files[16384];
      PlOutputDescribeFiles(m->output_dir, files, sizeof files);
      printf("  written to %s/: %s\n", m->output_dir, files[0] ? files : "nothing");
    }
  }
  PetscCall(BcastWaiting(&rc));
  PlModelFree(m);
  PetscCall(PetscFree(m));
  StdoutDone();
  PetscCall(PetscFinalize());
  return rc;
}
