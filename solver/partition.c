/*
 * partition.c - the parts of a graph for K MPI ranks, from METIS.
 *
 * The graph is the system's: its vertices are the components that assemble (a rod element,
 * a free point, the bodies' block), weighted by their cost, and its edges join components
 * that share unknowns (consecutive elements of a line, a line's end element and its master).
 * METIS balances the weights across the parts and cuts few edges: a cut edge is an unknown
 * whose contributions come from two ranks. One rank computes the parts and broadcasts them,
 * so that every rank holds the same assignment even if METIS were not deterministic.
 */
#include <metis.h>
#include <stdlib.h>
#include "pipelay/solver.h"

int PlPartitionGraph(int nv, const int *xadj, const int *adj, const int *vwgt, int nparts, int *part, int *cut)
{
  *cut = 0;
  if (nparts <= 1 || nv <= 1) {
    for (int v = 0; v < nv; ++v) part[v] = 0;
    return 0;
  }
  const int ne = xadj[nv];
  idx_t *x = malloc(sizeof(idx_t) * ((size_t)nv + 1)), *a = malloc(sizeof(idx_t) * (size_t)(ne > 0 ? ne : 1)),
        *w = malloc(sizeof(idx_t) * (size_t)nv), *p = malloc(sizeof(idx_t) * (size_t)nv);
  int rc = !x || !a || !w || !p;
  if (!rc) {
    for (int v = 0; v <= nv; ++v) x[v] = xadj[v];
    for (int k = 0; k < ne; ++k) a[k] = adj[k];
    for (int v = 0; v < nv; ++v) w[v] = vwgt[v] > 0 ? vwgt[v] : 1;
    idx_t n = nv, ncon = 1, np = nparts, obj = 0, opt[METIS_NOPTIONS];
    METIS_SetDefaultOptions(opt);
    opt[METIS_OPTION_SEED] = 1;
    opt[METIS_OPTION_NUMBERING] = 0;
    /* recursive bisection for a few parts (METIS' own advice below 8), k-way beyond */
    const int st = nparts < 8 ? METIS_PartGraphRecursive(&n, &ncon, x, a, w, NULL, NULL, &np, NULL, NULL, opt, &obj, p)
                              : METIS_PartGraphKway(&n, &ncon, x, a, w, NULL, NULL, &np, NULL, NULL, opt, &obj, p);
    rc = st != METIS_OK;
    if (!rc) {
      for (int v = 0; v < nv; ++v) part[v] = (int)p[v];
      *cut = (int)obj;
    }
  }
  free(x), free(a), free(w), free(p);
  return rc;
}
