/*
 * rao.c - displacement RAO tables and the first-order motion they give (formulation, formats
 * and conventions in pipelay/rao.h).
 */
#include "pipelay/rao.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipelay/models.h"

static const char *const kDofNames[6] = {"surge", "sway", "heave", "roll", "pitch", "yaw"};

static int Fail(PlRaoError *e, int line, int col, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  e->line = line, e->col = col;
  vsnprintf(e->msg, sizeof e->msg, fmt, ap);
  va_end(ap);
  return 1;
}

/* ---- the rows of a file, before they are put on the grid ----------------------------------- */
typedef struct {
  double heading; /* [rad] in [0, 2 pi) */
  double period;  /* [s] */
  int dof;        /* 0..5 */
  double re, im;  /* H in the internal form */
  int line;
} Row;
typedef struct {
  Row *r;
  int n, cap;
} Rows;

static int Push(Rows *rs, const Row *r)
{
  if (rs->n == rs->cap) {
    const int cap = rs->cap ? 2 * rs->cap : 256;
    Row *p = realloc(rs->r, (size_t)cap * sizeof *p);
    if (!p) return 1;
    rs->r = p, rs->cap = cap;
  }
  rs->r[rs->n++] = *r;
  return 0;
}

static double WrapHeading(double deg)
{
  double h = fmod(deg, 360.0);
  if (h < 0.0) h += 360.0;
  if (h >= 360.0) h = 0.0; /* fmod of -1e-17 + 360 rounds to 360 */
  return h * (M_PI / 180.0);
}

static int CompareDouble(const void *a, const void *b)
{
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The distinct values of v[n] (sorted, equal to 1e-9 relative: one value) into out; their count. */
static int Distinct(double *v, int n, double *out)
{
  qsort(v, (size_t)n, sizeof *v, CompareDouble);
  int m = 0;
  for (int i = 0; i < n; i++)
    if (m == 0 || v[i] - out[m - 1] > 1e-9 * fmax(1.0, fabs(v[i]))) out[m++] = v[i];
  return m;
}

static int IndexOf(const double *v, int n, double x)
{
  int lo = 0, hi = n - 1;
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (v[mid] < x - 1e-9 * fmax(1.0, fabs(x))) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* The rows on the grid of their distinct headings and periods: each (heading, period, DOF) of a
 * DOF the rows have must be given once; a DOF without rows is zero. */
static int Grid(const Rows *rs, PlRaoTable *t, PlRaoError *e)
{
  if (rs->n == 0) return Fail(e, 0, 0, "the table holds no RAO rows");
  double *tmp = malloc(2 * (size_t)rs->n * sizeof *tmp), *hs = tmp + rs->n;
  if (!tmp) return Fail(e, 0, 0, "out of memory for the table");
  for (int i = 0; i < rs->n; i++) tmp[i] = rs->r[i].heading;
  double *hv = malloc((size_t)rs->n * sizeof *hv), *pv = malloc((size_t)rs->n * sizeof *pv);
  if (!hv || !pv) {
    free(tmp), free(hv), free(pv);
    return Fail(e, 0, 0, "out of memory for the table");
  }
  const int nh = Distinct(tmp, rs->n, hv);
  for (int i = 0; i < rs->n; i++) hs[i] = rs->r[i].period;
  const int np = Distinct(hs, rs->n, pv);
  free(tmp);
  const size_t nH = (size_t)nh * np * 12;
  double *block = calloc((size_t)nh + np + nH, sizeof *block);
  int *seen = calloc((size_t)nh * np * 6, sizeof *seen), has[6] = {0, 0, 0, 0, 0, 0};
  if (!block || !seen) {
    free(hv), free(pv), free(block), free(seen);
    return Fail(e, 0, 0, "out of memory for the table");
  }
  memcpy(block, hv, (size_t)nh * sizeof *block);
  memcpy(block + nh, pv, (size_t)np * sizeof *block);
  double *H = block + nh + np;
  int rc = 0;
  for (int i = 0; !rc && i < rs->n; i++) {
    const Row *r = &rs->r[i];
    const int ih = IndexOf(hv, nh, r->heading), ip = IndexOf(pv, np, r->period), g = (ih * np + ip) * 6 + r->dof;
    if (seen[g])
      rc = Fail(e, r->line, 1, "a second row for heading %.10g deg, period %.10g s, %s (first at line %d)",
                r->heading * 180.0 / M_PI, r->period, kDofNames[r->dof], seen[g]);
    seen[g] = r->line;
    has[r->dof] = 1;
    H[2 * g] = r->re, H[2 * g + 1] = r->im;
  }
  for (int g = 0; !rc && g < nh * np * 6; g++)
    if (has[g % 6] && !seen[g])
      rc = Fail(e, 0, 0,
                "the table has no row for heading %.10g deg, period %.10g s, %s (a DOF given at any heading and "
                "period needs every heading and period of the file)",
                hv[g / 6 / np] * 180.0 / M_PI, pv[g / 6 % np], kDofNames[g % 6]);
  free(hv), free(pv), free(seen);
  if (rc) {
    free(block);
    return rc;
  }
  t->nh = nh, t->np = np, t->block = block;
  return 0;
}

/* ---- CSV ------------------------------------------------------------------------------------ */
static char *Trim(char *s)
{
  while (isspace((unsigned char)*s)) s++;
  char *end = s + strlen(s);
  while (end > s && isspace((unsigned char)end[-1])) *--end = '\0';
  return s;
}

/* Splits line (modified) at commas into at most max fields; their count, and each field's column. */
static int Split(char *line, char **f, int *col, int max)
{
  int n = 0;
  char *p = line;
  while (n < max) {
    col[n] = (int)(p - line) + 1;
    char *c = strchr(p, ',');
    if (c) *c = '\0';
    f[n++] = Trim(p);
    if (!c) return n;
    p = c + 1;
  }
  return max + 1; /* more fields than max */
}

static int Number(const char *s, double *v)
{
  char *end;
  errno = 0;
  *v = strtod(s, &end);
  return !(end != s && *end == '\0' && errno != ERANGE && isfinite(*v));
}

static int ReadCsvRow(char *buf, int line, const PlRaoConventions *cv, Row *r, PlRaoError *e)
{
  char *f[5];
  int col[5];
  const int n = Split(buf, f, col, 5);
  if (n != 5) return Fail(e, line, 1, "expected 5 fields heading,period,dof,amplitude,phase, found %s", n > 5 ? "more" : "fewer");
  double v[5];
  static const char *const what[5] = {"heading (deg)", "period (s)", "", "amplitude", "phase (deg)"};
  for (int k = 0; k < 5; k++)
    if (k != 2 && Number(f[k], &v[k])) return Fail(e, line, col[k], "the %s '%s' is not a finite number", what[k], f[k]);
  int dof = -1;
  for (int k = 0; k < 6; k++)
    if (!strcmp(f[2], kDofNames[k])) dof = k;
  if (dof < 0) return Fail(e, line, col[2], "the dof '%s' is none of surge, sway, heave, roll, pitch, yaw", f[2]);
  if (!(v[1] > 0.0)) return Fail(e, line, col[1], "the period must be > 0 s, got %.10g", v[1]);
  if (!(v[3] >= 0.0)) return Fail(e, line, col[3], "the amplitude must be >= 0, got %.10g", v[3]);
  const double amp = dof >= 3 && cv->rotations == PL_RAO_DEG ? v[3] * (M_PI / 180.0) : v[3];
  const double ph = (cv->phase == PL_RAO_LEAD ? 1.0 : -1.0) * v[4] * (M_PI / 180.0);
  r->heading = WrapHeading(v[0] + (cv->heading == PL_RAO_FROM ? 180.0 : 0.0));
  r->period = v[1];
  r->dof = dof;
  r->re = amp * cos(ph), r->im = amp * sin(ph);
  r->line = line;
  return 0;
}

int PlRaoReadCsv(const char *path, const PlRaoConventions *cv, PlRaoTable *t, PlRaoError *e)
{
  FILE *fp = fopen(path, "rb");
  if (!fp) return Fail(e, 0, 0, "cannot read '%s': %s", path, strerror(errno));
  char buf[1024];
  int line = 0, header = 0, rc = 0;
  Rows rs = {NULL, 0, 0};
  while (!rc && fgets(buf, sizeof buf, fp)) {
    line++;
    char *s = Trim(buf);
    if (*s == '\0' || *s == '#') continue;
    if (!header) {
      char *f[5];
      int col[5];
      const int n = Split(s, f, col, 5);
      static const char *const names[5] = {"heading", "period", "dof", "amplitude", "phase"};
      for (int k = 0; !rc && k < 5; k++)
        if (n != 5 || strcmp(f[k], names[k]))
          rc = Fail(e, line, 1, "the header must be 'heading,period,dof,amplitude,phase'");
      header = 1;
      continue;
    }
    Row r;
    if (!(rc = ReadCsvRow(s, line, cv, &r, e)) && Push(&rs, &r)) rc = Fail(e, line, 1, "out of memory");
  }
  fclose(fp);
  if (!rc && !header) rc = Fail(e, 0, 0, "the file has no header 'heading,period,dof,amplitude,phase'");
  if (!rc) rc = Grid(&rs, t, e);
  free(rs.r);
  return rc;
}

/* ---- WAMIT .4 ------------------------------------------------------------------------------ */
int PlRaoReadWamit(const char *path, int body, double ulen, PlRaoTable *t, PlRaoError *e)
{
  FILE *fp = fopen(path, "rb");
  if (!fp) return Fail(e, 0, 0, "cannot read '%s': %s", path, strerror(errno));
  char buf[1024];
  int line = 0, rc = 0;
  Rows rs = {NULL, 0, 0};
  while (!rc && fgets(buf, sizeof buf, fp)) {
    line++;
    char *s = Trim(buf);
    if (*s == '\0') continue;
    double v[7];
    char *p = s;
    for (int k = 0; !rc && k < 7; k++) {
      char *end;
      v[k] = strtod(p, &end);
      if (end == p || !isfinite(v[k]))
        rc = Fail(e, line, (int)(p - s) + 1,
                  "expected 7 numbers PER BETA I Mod Pha Re Im (a WAMIT .4 row), found %s at field %d",
                  end == p ? "no number" : "a value that is not finite", k + 1);
      p = end;
    }
    if (rc) break;
    const int mode = (int)v[2];
    if (v[2] != mode || mode < 1) {
      rc = Fail(e, line, 1, "the mode I must be a positive integer, got %.10g", v[2]);
      break;
    }
    if (v[0] <= 0.0 || (mode - 1) / 6 != body - 1) continue; /* infinite or zero period; another body */
    const int dof = (mode - 1) % 6;
    const double s_rot = dof >= 3 ? 1.0 / ulen : 1.0;
    const Row r = {WrapHeading(v[1]), v[0], dof, v[5] * s_rot, v[6] * s_rot, line};
    if (Push(&rs, &r)) rc = Fail(e, line, 1, "out of memory");
  }
  fclose(fp);
  if (!rc && rs.n == 0) rc = Fail(e, 0, 0, "the file has no RAO rows of body %d at a period > 0", body);
  if (!rc) rc = Grid(&rs, t, e);
  free(rs.r);
  return rc;
}

void PlRaoFree(PlRaoTable *t)
{
  free(t->block);
  t->block = NULL, t->nh = t->np = 0;
}

int PlRaoCopy(const PlRaoTable *src, PlRaoTable *dst)
{
  *dst = *src;
  if (!src->block) return 0;
  const size_t n = (size_t)src->nh + src->np + (size_t)src->nh * src->np * 12;
  if (!(dst->block = malloc(n * sizeof *dst->block))) {
    dst->nh = dst->np = 0;
    return -1;
  }
  memcpy(dst->block, src->block, n * sizeof *dst->block);
  return 0;
}

/* ---- interpolation ------------------------------------------------------------------------ */
/* The bracket i, i + 1 of x in v[n] (increasing) and the weight w of i + 1, the ends held. */
static void Bracket(const double *v, int n, double x, int *i, double *w)
{
  if (n == 1 || x <= v[0]) {
    *i = 0, *w = 0.0;
    return;
  }
  if (x >= v[n - 1]) {
    *i = n - 2, *w = 1.0;
    return;
  }
  int lo = 0, hi = n - 1; /* v[lo] <= x < v[hi] */
  while (hi - lo > 1) {
    const int mid = (lo + hi) / 2;
    if (v[mid] <= x) lo = mid;
    else hi = mid;
  }
  *i = lo, *w = (x - v[lo]) / (v[hi] - v[lo]);
}

void PlRaoInterpolate(const PlRaoTable *t, double beta_r, double T, double H[12])
{
  const double *hv = t->block, *pv = hv + t->nh, *Hd = pv + t->np;
  const double b = WrapHeading(beta_r * (180.0 / M_PI));
  int h0 = 0, h1 = 0, p0, p1;
  double wh = 0.0, wp;
  if (t->nh > 1) { /* periodic: [h[nh-1], h[0] + 2 pi) is the last interval */
    if (b >= hv[0] && b < hv[t->nh - 1]) {
      Bracket(hv, t->nh, b, &h0, &wh);
      h1 = h0 + 1;
    } else {
      h0 = t->nh - 1, h1 = 0;
      const double span = hv[0] + 2.0 * M_PI - hv[t->nh - 1], d = b >= hv[t->nh - 1] ? b - hv[t->nh - 1] : b + 2.0 * M_PI - hv[t->nh - 1];
      wh = d / span;
    }
  }
  Bracket(pv, t->np, T, &p0, &wp);
  p1 = t->np > 1 ? p0 + 1 : p0;
  for (int j = 0; j < 12; j++) {
    const double a00 = Hd[(h0 * t->np + p0) * 12 + j], a01 = Hd[(h0 * t->np + p1) * 12 + j];
    const double a10 = Hd[(h1 * t->np + p0) * 12 + j], a11 = Hd[(h1 * t->np + p1) * 12 + j];
    H[j] = (1.0 - wh) * ((1.0 - wp) * a00 + wp * a01) + wh * ((1.0 - wp) * a10 + wp * a11);
  }
}

/* ---- the motion ---------------------------------------------------------------------------- */
typedef struct {
  double w;      /* omega_e [rad/s] */
  double c0;     /* the phase constant -k.x_ph0 - phi [rad] */
  double aH[12]; /* a H [6][re, im] */
} Term;

struct PlRaoMotion_ {
  int n;
  Term *c;
  double origin[3];
  double ramp_time;
};

PlRaoMotion *PlRaoMotionCreate(const PlRaoTable *t, int ncomp, const double *a, const double *omega,
                               const double *k, const double *beta, const double *phi, const double r0[3],
                               double psi0, double ramp_time)
{
  PlRaoMotion *m = calloc(1, sizeof *m);
  if (!m || (ncomp > 0 && !(m->c = calloc((size_t)ncomp, sizeof *m->c)))) {
    free(m);
    return NULL;
  }
  m->n = ncomp;
  memcpy(m->origin, t->origin, sizeof m->origin);
  m->ramp_time = ramp_time;
  const double cp = cos(psi0), sp = sin(psi0);
  const double xph[2] = {r0[0] + cp * t->phase_origin[0] - sp * t->phase_origin[1],
                         r0[1] + sp * t->phase_origin[0] + cp * t->phase_origin[1]};
  for (int i = 0; i < ncomp; i++) {
    Term *c = &m->c[i];
    const double br = beta[i] - psi0, we = omega[i] - k[i] * t->speed * cos(br);
    c->w = we;
    c->c0 = -k[i] * (xph[0] * cos(beta[i]) + xph[1] * sin(beta[i])) - phi[i];
    double H[12];
    PlRaoInterpolate(t, br, 2.0 * M_PI / fabs(we), H);
    for (int j = 0; j < 12; j++) c->aH[j] = a[i] * H[j];
  }
  return m;
}

void PlRaoMotionDestroy(PlRaoMotion *m)
{
  if (!m) return;
  free(m->c);
  free(m);
}

void PlRaoMotionEval(const PlRaoMotion *m, double t, double xi[6], double xid[6], double xidd[6])
{
  double x[6] = {0}, xd[6] = {0}, xdd[6] = {0};
  for (int i = 0; i < m->n; i++) {
    const Term *c = &m->c[i];
    const double th = c->w * t + c->c0, cs = cos(th), sn = sin(th), w = c->w;
    for (int j = 0; j < 6; j++) {
      const double re = c->aH[2 * j], im = c->aH[2 * j + 1];
      const double v = re * cs - im * sn;  /* Re{aH e^{i th}} */
      const double dv = -w * (re * sn + im * cs); /* Re{i w aH e^{i th}} */
      x[j] += v, xd[j] += dv, xdd[j] -= w * w * v;
    }
  }
  double f = 1.0, df = 0.0, ddf = 0.0;
  if (m->ramp_time > 0.0) {
    PlRamp(t / m->ramp_time, &f, &df, &ddf);
    df /= m->ramp_time, ddf /= m->ramp_time * m->ramp_time;
  }
  for (int j = 0; j < 6; j++) {
    if (xi) xi[j] = f * x[j];
    if (xid) xid[j] = f * xd[j] + df * x[j];
    if (xidd) xidd[j] = f * xdd[j] + 2.0 * df * xd[j] + ddf * x[j];
  }
}

void PlRaoPointMotion(const PlRaoMotion *m, const double xi[6], const double p[3], double d[3])
{
  const double r[3] = {p[0] - m->origin[0], p[1] - m->origin[1], p[2] - m->origin[2]};
  d[0] = xi[0] + xi[4] * r[2] - xi[5] * r[1];
  d[1] = xi[1] + xi[5] * r[0] - xi[3] * r[2];
  d[2] = xi[2] + xi[3] * r[1] - xi[4] * r[0];
}
