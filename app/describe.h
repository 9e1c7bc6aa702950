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
/* A model of several lines: its points, then each line as a one-line model (fingerprint: as
 * for PlDescribeModel, the restart fingerprint of a system). 0, or 1 when a mesh cannot be
 * built (the message on stderr). */
int PlDescribeLines(FILE *out, const PlModel *m, int fingerprint);
