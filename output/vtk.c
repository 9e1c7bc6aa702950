/*
 * vtk.c - ParaView files of the line: VTK XML unstructured grids (.vtu) and the time
 * collection (.pvd) that lets ParaView play a run.
 *
 * Format (VTK file formats, "XML File Formats", UnstructuredGrid, version 1.0):
 *   <VTKFile type="UnstructuredGrid" version="1.0" byte_order=HOST header_type="UInt64">
 *     FieldData TimeValue (ascii), one Piece with PointData, Points, Cells, then
 *     <AppendedData encoding="raw">_ followed, per array and in the order of the XML, by
 *     its byte count (UInt64) and its values (Float64, Int64 or UInt8, host byte order).
 * Raw binary keeps every double bit for bit (a CSV value printed with 17 digits reads back
 * to the same double) and the files small for runs with many output times. No VTK library.
 * The line is one poly line (cell type 4) through the nodes; its point data are the
 * columns of static.csv plus outer_diameter_m and radius_m (for ParaView's Tube filter:
 * Vary Radius "By Absolute Scalar", Scalars radius_m, Radius Factor 1).
 *
 * Collection: DIR/static.pvd or DIR/dynamic.pvd lists <DataSet timestep part name file>
 * entries with file names relative to DIR. It is written whole (tmp + rename) when the series
 * starts and ends; after each dynamic frame its new entries are written in place over the
 * closing lines, which follow them again (O(1) per frame, about 90 bytes per entry), so
 * between frames and after an interruption it is a complete collection that lists complete
 * .vtu files only: a dynamic frame is written whole before the collection names it (over an
 * earlier run's frame of the same name in place, FrameOpen), the static grid to a temporary
 * and renamed. The frames' interval is output.vtk_interval (PlModelVtkFrame).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "pipelay/output.h"
#include "output_impl.h"

/* ---- one .vtu ----------------------------------------------------------------------------- */
static const char *HostByteOrder(void)
{
  const uint16_t one = 1;
  uint8_t first;
  memcpy(&first, &one, 1);
  return first == 1 ? "LittleEndian" : "BigEndian";
}

/* Appends one raw array (UInt64 byte count, then the bytes). Returns 0 or -1. */
static int WriteRaw(FILE *f, const void *p, uint64_t nbytes)
{
  if (fwrite(&nbytes, sizeof nbytes, 1, f) != 1) return -1;
  if (nbytes && fwrite(p, 1, (size_t)nbytes, f) != (size_t)nbytes) return -1;
  return 0;
}

/* A dynamic frame's file, opened to be written over in place: an earlier run's frame of that
 * name is not truncated first (a truncation of a written file took 0.35 ms on the development
 * machine's disk, 2 % of a 740-node run's dynamic phase with its 61 frames); FrameEnd cuts
 * what a longer earlier frame leaves past the new end. */
static FILE *FrameOpen(const char *path)
{
  const int fd = open(path, O_WRONLY | O_CREAT, 0666);
  if (fd < 0) return NULL;
  FILE *f = fdopen(fd, "wb"); /* (fdopen's "w" does not truncate) */
  if (!f) close(fd);
  return f;
}

/* The frame's end: the file cut at the written length. Returns 0, or 1 on an error. */
static int FrameEnd(FILE *f)
{
  if (fflush(f)) return 1;
  const long end = ftell(f);
  return end < 0 || ftruncate(fileno(f), (off_t)end) != 0;
}

int PlVtkWriteBlock(const char *path, const PlVtkBlock *b, double t_s, int frame, PlError *err)
{
  if (!isfinite(t_s) || b->npoints < 0 || b->ncells < 0 || b->narrays < 0) {
    snprintf(err->msg, sizeof err->msg, "%.900s: invalid VTK block (time %g, %d points, %d cells)",
             path, t_s, b->npoints, b->ncells);
    return PL_EXIT_FAILURE;
  }
  for (int k = 0; k < b->narrays; ++k)
    if (!PlOutputNameValid(b->arrays[k].name) ||
        (b->arrays[k].ncomponents != 1 && b->arrays[k].ncomponents != 3)) {
      snprintf(err->msg, sizeof err->msg, "%.900s: invalid point-data array %d", path, k);
      return PL_EXIT_FAILURE;
    }
  const int64_t nconn = b->ncells ? b->offsets[b->ncells - 1] : 0;
  if (nconn < 0) {
    snprintf(err->msg, sizeof err->msg, "%.900s: invalid cell offsets", path);
    return PL_EXIT_FAILURE;
  }
  char tmp[PL_PATH_MAX + 96];
  if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
    snprintf(err->msg, sizeof err->msg, "%.900s: path too long", path);
    return PL_EXIT_IO;
  }
  FILE *f = frame ? FrameOpen(path) : fopen(tmp, "wb");
  if (!f) {
    snprintf(err->msg, sizeof err->msg, "%.900s: cannot write: %s", frame ? path : tmp, strerror(errno));
    return PL_EXIT_IO;
  }
  const uint64_t np = (uint64_t)b->npoints, nc = (uint64_t)b->ncells, hdr = sizeof(uint64_t);
  uint64_t off = 0;
  fprintf(f, "<?xml version=\"1.0\"?>\n"
             "<!-- written by pipelay %s -->\n"
             "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"%s\" header_type=\"UInt64\">\n"
             "  <UnstructuredGrid>\n"
             "    <FieldData>\n"
             "      <DataArray type=\"Float64\" Name=\"TimeValue\" NumberOfTuples=\"1\" format=\"ascii\">%.17g</DataArray>\n"
             "    </FieldData>\n"
             "    <Piece NumberOfPoints=\"%d\" NumberOfCells=\"%d\">\n"
             "      <PointData>\n",
          PIPELAY_VERSION, HostByteOrder(), t_s, b->npoints, b->ncells);
  for (int k = 0; k < b->narrays; ++k) {
    const PlVtkArray *a = &b->arrays[k];
    fprintf(f, "        <DataArray type=\"Float64\" Name=\"%s\" NumberOfComponents=\"%d\" "
               "format=\"appended\" offset=\"%llu\"/>\n",
            a->name, a->ncomponents, (unsigned long long)off);
    off += hdr + 8 * np * (uint64_t)a->ncomponents;
  }
  fprintf(f, "      </PointData>\n"
             "      <Points>\n"
             "        <DataArray type=\"Float64\" Name=\"position_m\" NumberOfComponents=\"3\" "
             "format=\"appended\" offset=\"%llu\"/>\n"
             "      </Points>\n", (unsigned long long)off);
  off += hdr + 24 * np;
  fprintf(f, "      <Cells>\n"
             "        <DataArray type=\"Int64\" Name=\"connectivity\" format=\"appended\" offset=\"%llu\"/>\n",
          (unsigned long long)off);
  off += hdr + 8 * (uint64_t)nconn;
  fprintf(f, "        <DataArray type=\"Int64\" Name=\"offsets\" format=\"appended\" offset=\"%llu\"/>\n",
          (unsigned long long)off);
  off += hdr + 8 * nc;
  fprintf(f, "        <DataArray type=\"UInt8\" Name=\"types\" format=\"appended\" offset=\"%llu\"/>\n"
             "      </Cells>\n"
             "    </Piece>\n"
             "  </UnstructuredGrid>\n"
             "  <AppendedData encoding=\"raw\">\n   _",
          (unsigned long long)off);
  int bad = 0;
  for (int k = 0; k < b->narrays && !bad; ++k)
    bad = WriteRaw(f, b->arrays[k].values, 8 * np * (uint64_t)b->arrays[k].ncomponents);
  if (!bad) bad = WriteRaw(f, b->points, 24 * np);
  if (!bad) bad = WriteRaw(f, b->connectivity, 8 * (uint64_t)nconn);
  if (!bad) bad = WriteRaw(f, b->offsets, 8 * nc);
  if (!bad) bad = WriteRaw(f, b->types, nc);
  if (!bad) bad = fputs("\n  </AppendedData>\n</VTKFile>\n", f) < 0;
  if (!frame) return PlFileCommit(f, bad, tmp, path, err);
  bad |= ferror(f) != 0;
  if (!bad) bad = FrameEnd(f);
  bad |= fclose(f) != 0;
  if (bad) {
    snprintf(err->msg, sizeof err->msg, "%.900s: write failed: %s", path, strerror(errno));
    remove(path);
    return PL_EXIT_IO;
  }
  PlOutputFrameWritten(path);
  return 0;
}

/* ---- the series --------------------------------------------------------------------------- */
enum { kLineArrays = 14 };    /* point-data arrays of the line */
enum { kDesignArrays = 6 };   /* and of the design: block (design_arrays below) */

struct PlVtkSeries_ {
  PlVtkSeriesKind kind;
  char dir[PL_PATH_MAX];             /* the run's output directory */
  int nsegments;
  double *segment_top_m;             /* [nsegments] arc length of each segment's top end [m] */
  double *outer_diameter_m;          /* [nsegments] d_o of each segment [m] */
  int noutputs;                      /* output times written */
  double last_t_s;                   /* time of the last output [s] */
  char *entries;                     /* the <DataSet .../> lines so far (malloc'd) */
  size_t nentries, centries;         /* bytes used and allocated in entries */
  long pvd_head;                     /* bytes of the .pvd before its entries (0: unknown) */
  int nwork;                         /* nodes the work arrays are sized for */
  double *work;                      /* point data of the line [24 nwork] */
  const PlModel *model;              /* the line's model (borrowed: it outlives the series); its
                                        design: block adds the design arrays */
  double *points;                    /* [3 nwork] */
  int64_t *connectivity;             /* [nwork] 0, 1, ..., n-1 */
  PlSeaSurface sea;                  /* a dynamic run's sea surface (PlVtkSeriesAddSea), or NULL */
};

static const char *Stem(const PlVtkSeries vs) { return vs->kind == PL_VTK_STATIC ? "static" : "dynamic"; }

/* A collection's <DataSet/> lines built in memory (entries, n; NULL on out of memory). */
typedef struct {
  char *s;
  size_t n, cap;
  int oom;
} Entries;

static void AddEntry(Entries *e, double t, int part, const char *name, const char *file)
{
  char line[2 * PL_PATH_MAX];
  const int k = snprintf(line, sizeof line, "    <DataSet timestep=\"%.17g\" group=\"\" part=\"%d\" name=\"%s\" file=\"%s\"/>\n",
                         t, part, name, file);
  if (k < 0 || k >= (int)sizeof line || e->oom) {
    e->oom = 1;
    return;
  }
  if (e->n + (size_t)k + 1 > e->cap) {
    size_t c = e->cap ? 2 * e->cap : 4096;
    while (c < e->n + (size_t)k + 1) c *= 2;
    char *p = realloc(e->s, c);
    if (!p) {
      e->oom = 1;
      return;
    }
    e->s = p;
    e->cap = c;
  }
  memcpy(e->s + e->n, line, (size_t)k + 1);
  e->n += (size_t)k;
}

/* Appends the <DataSet/> line of one part of one output time to vs->entries.
 * Returns 0 or -1 (out of memory). */
static int AppendEntry(PlVtkSeries vs, double t_s, int part, const char *name, const char *file)
{
  Entries e = {vs->entries, vs->nentries, vs->centries, 0};
  AddEntry(&e, t_s, part, name, file);
  vs->entries = e.s;
  vs->nentries = e.n;
  vs->centries = e.cap;
  return e.oom ? -1 : 0;
}

static const char kPvdTail[] = "  </Collection>\n</VTKFile>\n";

/* DIR/STEM.pvd (tmp + rename) with the <DataSet/> lines entries[n] (may be empty); *head (may
 * be NULL) the bytes before the entries. */
static int WriteCollection(const char *dir, const char *stem, const char *entries, size_t n, long *head,
                           PlError *err)
{
  char path[PL_PATH_MAX + 64], tmp[PL_PATH_MAX + 80], name[PL_PATH_MAX];
  snprintf(name, sizeof name, "%s.pvd", stem);
  FILE *f = PlFileOpenAtomic(dir, name, path, sizeof path, tmp, sizeof tmp, err);
  if (!f) return PL_EXIT_IO;
  int bad = fprintf(f, "<?xml version=\"1.0\"?>\n<!-- written by pipelay %s: open in ParaView -->\n"
                       "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"%s\">\n  <Collection>\n",
                    PIPELAY_VERSION, HostByteOrder()) < 0;
  const long h = bad ? -1 : ftell(f);
  if (head) *head = h > 0 ? h : 0;
  if (!bad && n) bad = fwrite(entries, 1, n, f) != n;
  if (!bad) bad = fputs(kPvdTail, f) < 0;
  return PlFileCommit(f, bad, tmp, path, err);
}

static int WritePvd(PlVtkSeries vs, PlError *err)
{
  return WriteCollection(vs->dir, Stem(vs), vs->entries, vs->nentries, &vs->pvd_head, err);
}

/* The series' .pvd grown by its entries from byte `from` on, written over the closing lines
 * that then follow them again; the whole file when its layout is not known. */
static int AppendPvd(PlVtkSeries vs, size_t from, PlError *err)
{
  if (vs->pvd_head <= 0) return WritePvd(vs, err);
  char path[PL_PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/%s.pvd", vs->dir, Stem(vs));
  FILE *f = fopen(path, "r+");
  if (!f) return WritePvd(vs, err);
  int bad = fseek(f, vs->pvd_head + (long)from, SEEK_SET) != 0;
  if (!bad && vs->nentries > from) bad = fwrite(vs->entries + from, 1, vs->nentries - from, f) != vs->nentries - from;
  if (!bad) bad = fputs(kPvdTail, f) < 0;
  if (fclose(f)) bad = 1;
  if (bad) {
    snprintf(err->msg, sizeof err->msg, "%.900s: cannot write: %s", path, strerror(errno));
    return PL_EXIT_IO;
  }
  return 0;
}

/* Removes DIR/vtk/dynamic_NNNNNN*.vtu with NNNNNN >= from, left by an earlier, longer run
 * (only names this writer makes; the frames below are this run's, written over the earlier
 * run's in place). */
static void RemoveOldDynamicFiles(const char *vtkdir, int from)
{
  DIR *d = opendir(vtkdir);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    const char *n = e->d_name;
    const size_t len = strlen(n);
    if (strncmp(n, "dynamic_", 8) || len < 8 + 6 + 4 || strcmp(n + len - 4, ".vtu")) continue;
    int digits = 1;
    for (int k = 8; k < 14; ++k) digits &= n[k] >= '0' && n[k] <= '9';
    if (!digits || atoi(n + 8) < from) continue;
    char path[PL_PATH_MAX + 300];
    snprintf(path, sizeof path, "%s/%s", vtkdir, n);
    remove(path);
  }
  closedir(d);
}

static int SeriesCreate(const char *dir, PlVtkSeriesKind kind, const PlModel *m, int nkeep, const double *times,
                        PlVtkSeries *out, PlError *err);

int PlVtkSeriesCreate(const char *dir, PlVtkSeriesKind kind, const PlModel *m, PlVtkSeries *out,
                      PlError *err)
{
  return SeriesCreate(dir, kind, m, 0, NULL, out, err);
}

int PlVtkSeriesResume(const char *dir, const PlModel *m, int nkeep, const double *times, PlVtkSeries *out,
                      PlError *err)
{
  return SeriesCreate(dir, PL_VTK_DYNAMIC, m, nkeep, times, out, err);
}

static int SeriesCreate(const char *dir, PlVtkSeriesKind kind, const PlModel *m, int nkeep, const double *times,
                        PlVtkSeries *out, PlError *err)
{
  *out = NULL;
  char vtkdir[PL_PATH_MAX + 8];
  if (strlen(dir) >= PL_PATH_MAX - 40) {
    snprintf(err->msg, sizeof err->msg, "%.900s: output directory path too long", dir);
    return PL_EXIT_IO;
  }
  snprintf(vtkdir, sizeof vtkdir, "%s/vtk", dir);
  int rc = PlMakeDirs(vtkdir, err);
  if (rc) return rc;
  PlVtkSeries vs = calloc(1, sizeof *vs);
  if (!vs) {
    snprintf(err->msg, sizeof err->msg, "VTK output: out of memory");
    return PL_EXIT_IO;
  }
  vs->kind = kind;
  snprintf(vs->dir, sizeof vs->dir, "%s", dir);
  vs->segment_top_m = calloc((size_t)m->nsegments + 1, sizeof *vs->segment_top_m);
  vs->outer_diameter_m = calloc((size_t)m->nsegments + 1, sizeof *vs->outer_diameter_m);
  if (!vs->segment_top_m || !vs->outer_diameter_m) {
    snprintf(err->msg, sizeof err->msg, "VTK output: out of memory");
    PlVtkSeriesDestroy(&vs);
    return PL_EXIT_IO;
  }
  vs->nsegments = m->nsegments;
  vs->model = m;
  double top = 0.0;
  for (int k = 0; k < m->nsegments; ++k) {
    top += m->segments[k].length;
    vs->segment_top_m[k] = top;
    vs->outer_diameter_m[k] = m->segments[k].section.outer_diameter;
  }
  vs->last_t_s = -INFINITY;
  for (int k = 0; k < nkeep; ++k) { /* a restarted run keeps the frames written before */
    char rel[64];
    snprintf(rel, sizeof rel, "vtk/dynamic_%06d.vtu", k);
    if (AppendEntry(vs, times[k], 0, "line", rel)) {
      snprintf(err->msg, sizeof err->msg, "VTK output: out of memory for the collection");
      PlVtkSeriesDestroy(&vs);
      return PL_EXIT_IO;
    }
    vs->noutputs = k + 1;
    vs->last_t_s = times[k];
  }
  if ((rc = WritePvd(vs, err))) {
    PlVtkSeriesDestroy(&vs);
    return rc;
  }
  *out = vs;
  return 0;
}

void PlVtkSeriesDestroy(PlVtkSeries *vs)
{
  if (!vs || !*vs) return;
  free((*vs)->entries);
  free((*vs)->work);
  free((*vs)->points);
  free((*vs)->connectivity);
  free((*vs)->segment_top_m);
  free((*vs)->outer_diameter_m);
  PlSeaSurfaceDestroy(&(*vs)->sea);
  free(*vs);
  *vs = NULL;
}

/* Outer diameter at arc length S: the segment above a segment boundary (as the stations
 * of solver/results.c take the element above a node), the last one at the top. */
static double OuterDiameterAt(const PlVtkSeries vs, double S)
{
  for (int k = 0; k + 1 < vs->nsegments; ++k)
    if (S < vs->segment_top_m[k]) return vs->outer_diameter_m[k];
  return vs->nsegments ? vs->outer_diameter_m[vs->nsegments - 1] : 0.0;
}

/* The design arrays of the line (solver/design_output.c) into arrays[0..) with their columns
 * from col: internal and external pressure, true-wall tension, Lame's inner hoop stress, the
 * largest von Mises stress and, with dnv_f101, the utilisation (a dynamic frame: only with the
 * static stations ref, which give the functional part). Returns the count. */
static int DesignArrays(const PlVtkSeries vs, const PlStation *nodes, const PlStation *ref, int n, double *col,
                        PlVtkArray *arrays)
{
  const PlModel *m = vs->model;
  if (!m->design.present || m->nsegments < 1) return 0;
  static const char *const names[kDesignArrays] = {"internal_pressure_Pa", "external_pressure_Pa",
                                                   "true_wall_tension_N", "hoop_stress_inner_Pa", "von_mises_Pa",
                                                   "dnv_utilisation"};
  const int na = m->design.dnv.present && (vs->kind == PL_VTK_STATIC || ref) ? kDesignArrays : kDesignArrays - 1;
  for (int i = 0; i < n; ++i) {
    PlDesignPoint d;
    PlDesignPointOf(m, &nodes[i], ref ? &ref[i] : NULL, &d);
    const double v[kDesignArrays] = {d.p_i, d.p_e, d.true_wall_tension, d.hoop_inner, d.von_mises, d.utilisation};
    for (int k = 0; k < na; ++k) col[(size_t)k * n + i] = v[k];
  }
  for (int k = 0; k < na; ++k) arrays[k] = (PlVtkArray){names[k], 1, col + (size_t)k * n};
  return na;
}

static int WriteBlocks(PlVtkSeries vs, double t_s, const PlStation *nodes, const PlStation *ref, int n,
                       const PlVtkBlock *extra, int nextra, PlError *err);

int PlVtkSeriesWriteBlocks(PlVtkSeries vs, double t_s, const PlStation *nodes, int n,
                           const PlVtkBlock *extra, int nextra, PlError *err)
{
  return WriteBlocks(vs, t_s, nodes, NULL, n, extra, nextra, err);
}

int PlVtkSeriesWriteRef(PlVtkSeries vs, double t_s, const PlStation *nodes, const PlStation *ref, int nnodes,
                        PlError *err)
{
  return WriteBlocks(vs, t_s, nodes, ref, nnodes, NULL, 0, err);
}

static int WriteBlocks(PlVtkSeries vs, double t_s, const PlStation *nodes, const PlStation *ref, int n,
                       const PlVtkBlock *extra, int nextra, PlError *err)
{
  if (!isfinite(t_s) || n < 1 || nextra < 0) {
    snprintf(err->msg, sizeof err->msg, "VTK output: invalid call (time %g, %d nodes)", t_s, n);
    return PL_EXIT_FAILURE;
  }
  if (vs->kind == PL_VTK_DYNAMIC && !(t_s > vs->last_t_s)) {
    snprintf(err->msg, sizeof err->msg, "VTK output: time %.17g s does not follow %.17g s", t_s, vs->last_t_s);
    return PL_EXIT_FAILURE;
  }
  for (int k = 0; k < nextra; ++k)
    if (!PlOutputNameValid(extra[k].name) || !strcmp(extra[k].name, "line")) {
      snprintf(err->msg, sizeof err->msg, "VTK output: invalid block name '%.100s'", extra[k].name ? extra[k].name : "");
      return PL_EXIT_FAILURE;
    }
  if (n > vs->nwork) {
    double *w = malloc(sizeof(double) * (18 + kDesignArrays) * (size_t)n), *p = malloc(sizeof(double) * 3 * (size_t)n);
    int64_t *c = malloc(sizeof(int64_t) * (size_t)n);
    if (!w || !p || !c) {
      free(w);
      free(p);
      free(c);
      snprintf(err->msg, sizeof err->msg, "VTK output: out of memory for %d nodes", n);
      return PL_EXIT_IO;
    }
    free(vs->work);
    free(vs->points);
    free(vs->connectivity);
    vs->work = w;
    vs->points = p;
    vs->connectivity = c;
    vs->nwork = n;
  }
  /* columns of the work array: 12 scalars, then t2 and t3 (3 components each) */
  static const char *const names[kLineArrays] = {
    "S_m", "outer_diameter_m", "radius_m", "effective_tension_N", "shear_force_2_N",
    "shear_force_3_N", "torque_Nm", "bending_moment_2_Nm", "bending_moment_3_Nm", "curvature_1pm",
    "axial_strain", "seabed_force_Npm", "t2", "t3"};
  double *col[kLineArrays];
  for (int k = 0; k < 12; ++k) col[k] = vs->work + (size_t)k * n;
  col[12] = vs->work + (size_t)12 * n;
  col[13] = vs->work + (size_t)15 * n;
  for (int i = 0; i < n; ++i) {
    const PlStation *s = &nodes[i];
    const double d_o = OuterDiameterAt(vs, s->S);
    const double v[12] = {s->S, d_o, 0.5 * d_o, s->tension, s->shear[0], s->shear[1], s->torque,
                          s->moment[0], s->moment[1], s->curvature, s->axial_strain, s->seabed_force};
    for (int k = 0; k < 12; ++k) col[k][i] = v[k];
    for (int c = 0; c < 3; ++c) {
      col[12][3 * i + c] = s->t2[c];
      col[13][3 * i + c] = s->t3[c];
      vs->points[3 * i + c] = s->x[c];
    }
    vs->connectivity[i] = i;
  }
  PlVtkArray arrays[kLineArrays + kDesignArrays];
  for (int k = 0; k < kLineArrays; ++k) {
    arrays[k].name = names[k];
    arrays[k].ncomponents = k < 12 ? 1 : 3;
    arrays[k].values = col[k];
  }
  const int narrays = kLineArrays + DesignArrays(vs, nodes, ref, n, vs->work + (size_t)18 * n, arrays + kLineArrays);
  const int64_t offset = n;
  const uint8_t type = 4; /* VTK_POLY_LINE */
  const PlVtkBlock line = {"line", n, vs->points, 1, vs->connectivity, &offset, &type, narrays, arrays};

  /* file names, relative to the output directory */
  char stem[64], rel[PL_PATH_MAX], path[2 * PL_PATH_MAX];
  if (vs->kind == PL_VTK_STATIC) snprintf(stem, sizeof stem, "static");
  else snprintf(stem, sizeof stem, "dynamic_%06d", vs->noutputs);
  const size_t nentries0 = vs->nentries; /* restored when this output fails */
  PlVtkBlock sea;
  PlVtkArray elevation;
  const int nsea = vs->sea && vs->kind == PL_VTK_DYNAMIC; /* the sea surface after the extra blocks */
  if (nsea) PlSeaSurfaceBlock(vs->sea, t_s, nodes, n, &sea, &elevation);
  for (int k = -1; k < nextra + nsea; ++k) {
    const PlVtkBlock *b = k < 0 ? &line : k < nextra ? &extra[k] : &sea;
    if (k < 0) snprintf(rel, sizeof rel, "vtk/%s.vtu", stem);
    else snprintf(rel, sizeof rel, "vtk/%s_%.200s.vtu", stem, b->name);
    snprintf(path, sizeof path, "%s/%s", vs->dir, rel);
    int rc = PlVtkWriteBlock(path, b, t_s, vs->kind == PL_VTK_DYNAMIC, err);
    if (!rc && AppendEntry(vs, t_s, k + 1, b->name, rel)) {
      snprintf(err->msg, sizeof err->msg, "VTK output: out of memory for the collection");
      rc = PL_EXIT_IO;
    }
    if (rc) {
      vs->nentries = nentries0;
      if (vs->entries) vs->entries[nentries0] = '\0';
      return rc;
    }
  }
  if (vs->kind == PL_VTK_STATIC && nentries0) { /* one output: the new one replaces the old */
    memmove(vs->entries, vs->entries + nentries0, vs->nentries - nentries0 + 1);
    vs->nentries -= nentries0;
  }
  vs->noutputs++;
  vs->last_t_s = t_s;
  return vs->kind == PL_VTK_DYNAMIC ? AppendPvd(vs, nentries0, err) : WritePvd(vs, err);
}

int PlVtkSeriesAddSea(PlVtkSeries vs, const PlModel *m, PlError *err)
{
  if (vs->kind != PL_VTK_DYNAMIC || m->sea.ntrains < 1 || vs->sea) return 0;
  vs->sea = PlSeaSurfaceCreate(m, err);
  return vs->sea ? 0 : PL_EXIT_FAILURE;
}

int PlVtkSeriesWrite(PlVtkSeries vs, double t_s, const PlStation *nodes, int nnodes, PlError *err)
{
  return PlVtkSeriesWriteBlocks(vs, t_s, nodes, nnodes, NULL, 0, err);
}

int PlVtkSeriesFinish(PlVtkSeries vs, PlError *err)
{
  if (vs->kind == PL_VTK_DYNAMIC) {
    char vtkdir[PL_PATH_MAX + 8];
    snprintf(vtkdir, sizeof vtkdir, "%s/vtk", vs->dir);
    RemoveOldDynamicFiles(vtkdir, vs->noutputs);
  }
  return WritePvd(vs, err);
}

/* Writes the collection of the entries built, or says out of memory; frees them. */
static int CommitEntries(const char *dir, const char *stem, Entries *e, PlError *err)
{
  int rc;
  if (e->oom) {
    snprintf(err->msg, sizeof err->msg, "%.900s/%s.pvd: out of memory", dir, stem);
    rc = PL_EXIT_FAILURE;
  } else
    rc = WriteCollection(dir, stem, e->s, e->n, NULL, err);
  free(e->s);
  return rc;
}

int PlVtkSystemCollection(const char *dir, int nlines, const char *const *names, PlError *err)
{
  const double t0 = 0.0;
  return PlVtkSystemSeries(dir, nlines, names, 0, 0, &t0, err);
}

int PlVtkSystemSeries(const char *dir, int nlines, const char *const *names, int bodies, int nframes,
                      const double *times, PlError *err)
{
  Entries e = {NULL, 0, 0, 0};
  const int dynamic = nframes > 0;
  for (int k = 0; k < (dynamic ? nframes : 1); ++k) {
    for (int l = 0; l < nlines; ++l) {
      char file[PL_NAME_MAX + 48];
      if (dynamic) snprintf(file, sizeof file, "line_%.*s/vtk/dynamic_%06d.vtu", PL_NAME_MAX, names[l], k);
      else snprintf(file, sizeof file, "line_%.*s/vtk/static.vtu", PL_NAME_MAX, names[l]);
      AddEntry(&e, times[k], l, names[l], file);
    }
    if (bodies) {
      char file[48];
      snprintf(file, sizeof file, "vtk/bodies_%06d.vtu", k);
      AddEntry(&e, times[k], nlines, "bodies", file);
    }
  }
  return CommitEntries(dir, dynamic ? "dynamic" : "static", &e, err);
}

int PlVtkBoxesWrite(const char *path, double t_s, int nboxes, const double (*centre)[3], const double (*R)[9],
                    const double (*dims)[3], PlError *err)
{
  const int np = 8 * nboxes;
  double *pts = malloc(sizeof(double) * 3 * (size_t)(np + 1)), *id = malloc(sizeof(double) * (size_t)(np + 1));
  int64_t *conn = malloc(sizeof(int64_t) * (size_t)(np + 1)), *offs = malloc(sizeof(int64_t) * (size_t)(nboxes + 1));
  uint8_t *types = malloc((size_t)nboxes + 1);
  if (!pts || !id || !conn || !offs || !types) {
    free(pts), free(id), free(conn), free(offs), free(types);
    snprintf(err->msg, sizeof err->msg, "%.900s: out of memory", path);
    return PL_EXIT_FAILURE;
  }
  /* VTK_HEXAHEDRON corner order: the bottom face (z-) counter-clockwise, then the top face */
  static const int sx[8] = {-1, 1, 1, -1, -1, 1, 1, -1}, sy[8] = {-1, -1, 1, 1, -1, -1, 1, 1},
                   sz[8] = {-1, -1, -1, -1, 1, 1, 1, 1};
  for (int b = 0; b < nboxes; ++b) {
    for (int k = 0; k < 8; ++k) {
      const double a[3] = {0.5 * sx[k] * dims[b][0], 0.5 * sy[k] * dims[b][1], 0.5 * sz[k] * dims[b][2]};
      for (int i = 0; i < 3; ++i)
        pts[3 * (8 * b + k) + i] = centre[b][i] + R[b][3 * i] * a[0] + R[b][3 * i + 1] * a[1] + R[b][3 * i + 2] * a[2];
      conn[8 * b + k] = 8 * b + k;
      id[8 * b + k] = b;
    }
    offs[b] = 8 * (b + 1);
    types[b] = 12;
  }
  const PlVtkArray arrays[1] = {{"body_index", 1, id}};
  const PlVtkBlock block = {"bodies", np, pts, nboxes, conn, offs, types, 1, arrays};
  const int rc = PlVtkWriteBlock(path, &block, t_s, 1, err);
  free(pts), free(id), free(conn), free(offs), free(types);
  return rc;
}

int PlVtkCollectionWrite(const char *dir, const char *stem, int nframes, const double *times, const char *file_format,
                         PlError *err)
{
  Entries e = {NULL, 0, 0, 0};
  for (int k = 0; k < nframes; ++k) {
    char file[PL_PATH_MAX];
    snprintf(file, sizeof file, file_format, k);
    AddEntry(&e, times[k], 0, stem, file);
  }
  return CommitEntries(dir, stem, &e, err);
}
