/*
 * describe.h - the model as text (describe.c): "pipelay info" and the restart fingerprint.
 */
#pragma once
#include <stdio.h>
#include "pipelay/meshes.h"

/* Writes the model and its mesh to out, one "label value unit" per line. fingerprint: leave
 * out what does not change the solution (path, name, duration, output directory). */
void PlDescribeModel(FILE *out, const PlModel *m, const PlMesh *mesh, int fingerprint);
/* A model without a line: its bodies, joints and dynamic settings. */
void PlDescribeBodies(FILE *out, const PlModel *m);
