/*
 * schema.h - the model file's schema inside models/: the table (schema_table.c) and the
 * path matching the loader walks it with (schema.c). The public part is in models.h
 * (PlKeySpec, PlSchemaFind, PlSchemaPrint).
 */
#pragma once
#include <stddef.h>

#include "pipelay/models.h"

extern const PlKeySpec PlSchemaTable[];
extern const int PlSchemaTableRows;

/* choices of the table, NULL-terminated, in the order of the enums they map to */
extern const char *const PlChoiceNoYes[];
extern const char *const PlChoiceRotations[];
extern const char *const PlChoiceSeabedModels[];
extern const char *const PlChoiceCurrentProfiles[];
extern const char *const PlChoiceMotionTypes[];
extern const char *const PlChoiceCircleDirections[];
extern const char *const PlChoiceInterpolations[];
extern const char *const PlChoiceAnalysisTypes[];
extern const char *const PlChoiceGuesses[];
extern const char *const PlChoiceRestShapes[];
extern const char *const PlChoiceVesselAxes[];
extern const char *const PlChoiceHangOffKinds[];
extern const char *const PlChoiceZReferences[];
extern const char *const PlChoiceLoadFrames[];
extern const char *const PlChoiceRefTypes[];
extern const char *const PlChoiceHeadings[];
extern const char *const PlChoiceJointTypes[];
extern const char *const PlChoiceWaveKinds[];
extern const char *const PlChoiceStretchings[];
extern const char *const PlChoiceRaoFormats[];
extern const char *const PlChoiceRaoPhases[];
extern const char *const PlChoiceRaoHeadings[];
extern const char *const PlChoiceRaoRotations[];

#define PL_SCHEMA_MAX_KEYS 48 /* keys of one mapping, at most (the vessel has 18) */

/* The keys a mapping at path (concrete or pattern; "" the top level) allows, in table
 * order, into names (capacity cap, NULL-terminated). Returns their number (0: the path
 * is no mapping of the schema). */
int PlSchemaChildren(const char *path, const char **names, int cap);

/* The unit of row k for messages: "" for a dimensionless key ("-"). */
const char *PlSchemaUnit(const PlKeySpec *k);
