/*
 * cmd_info.c - "pipelay info FILE [--set key.path=value]...": the model as the program
 * understands it, without solving anything.
 *
 * Prints, with units: the environment; per section the derived properties of
 * materials.h (EA, EI2, EI3, GJ, GA2, GA3, mass per length m_p, submerged weight per length
 * w = (m_p - rho_w pi d_o^2/4) g (eq 5.33), outer and hydrodynamic diameter) and its
 * elements (count, min/max/mean length); the mesh; the seabed; the ends (held DOFs,
 * positions, forces, moments); the analysis. One "label value unit" per line, so that
 * scripts can read it. A model error prints the same "FILE:LINE:COL: key: ..." line as
 * "pipelay run" and returns 2.
 *
 * "pipelay info --keys [--markdown]" prints instead the model file's keys, one row each
 * from the schema table (models/schema_table.c): path, type, unit, default or requirement,
 * range and description; with --markdown as the tables docs/model-file.md is checked
 * against (tests/check_docs_keys.py).
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "describe.h"
#include "pipelay/meshes.h"
#include "pipelay/solver.h"

int PlCmdInfo(int argc, char **argv)
{
  if (argc >= 3 && !strcmp(argv[2], "--keys")) {
    const bool markdown = argc == 4 && !strcmp(argv[3], "--markdown");
    if (argc > 4 || (argc == 4 && !markdown)) {
      fprintf(stderr, "usage: pipelay info --keys [--markdown]\n");
      return PL_EXIT_BAD_INPUT;
    }
    PlSchemaPrint(stdout, markdown);
    return fflush(stdout) == 0 ? PL_EXIT_OK : PL_EXIT_FAILURE;
  }
  const char *file = NULL;
  const char **sets = calloc(argc > 0 ? (size_t)argc : 1, sizeof *sets);
  int nsets = 0;
  if (!sets) {
    fprintf(stderr, "pipelay: out of memory\n");
    return PL_EXIT_FAILURE;
  }
  for (int i = 2; i < argc; ++i) {
    if (!strcmp(argv[i], "--set")) {
      if (i + 1 >= argc) {
        fprintf(stderr, "pipelay: --set needs a value\n");
        free(sets);
        return PL_EXIT_BAD_INPUT;
      }
      sets[nsets++] = argv[++i];
    } else if (!file && argv[i][0] != '-') file = argv[i];
    else {
      fprintf(stderr, "pipelay: unknown argument '%s'\nusage: pipelay info FILE [--set key.path=value]...\n", argv[i]);
      free(sets);
      return PL_EXIT_BAD_INPUT;
    }
  }
  if (!file) {
    fprintf(stderr, "usage: pipelay info FILE [--set key.path=value]...\n");
    free(sets);
    return PL_EXIT_BAD_INPUT;
  }
  PlModel *m = calloc(1, sizeof *m);
  PlError err;
  PlMesh mesh;
  memset(&mesh, 0, sizeof mesh);
  int rc = m ? PlModelLoad(file, nsets, sets, m, &err) : PL_EXIT_FAILURE;
  free(sets);
  if (rc) {
    fprintf(stderr, "%s\n", m ? err.msg : "pipelay: out of memory");
    PlModelFree(m);
    free(m);
    return rc;
  }
  for (int k = 0; k < m->nwarnings; ++k) fprintf(stderr, "%s\n", m->warnings[k]);
  if (m->nlines > 0) {
    const int rc2 = PlDescribeLines(stdout, m, 0);
    PlModelFree(m);
    free(m);
    return rc2 ? PL_EXIT_BAD_INPUT : 0;
  }
  if (m->rigid_body) {
    PlDescribeBodies(stdout, m);
    PlModelFree(m);
    free(m);
    return 0;
  }
  if (PlMeshCreate(m, &mesh)) {
    fprintf(stderr, "pipelay: %s: the mesh cannot be built (more than 10 million nodes, or out of memory)\n", file);
    PlModelFree(m);
    free(m);
    return PL_EXIT_BAD_INPUT;
  }

  PlDescribeModel(stdout, m, &mesh, 0);

  PlMeshDestroy(&mesh);
  PlModelFree(m);
  free(m);
  return PL_EXIT_OK;
}
