/*
 * commands.h - subcommands of the command-line program other than "run" (app/ only).
 * Each takes main's argc/argv (argv[1] is the subcommand), prints what it has to say and
 * returns the exit status (PL_EXIT_*). Neither initialises MPI or PETSc.
 */
#pragma once

/* pipelay info FILE [--set key.path=value]...: the model as understood (cmd_info.c). */
int PlCmdInfo(int argc, char **argv);

/* pipelay plot DIR: redraws the plots of a finished run from its files (cmd_plot.c). */
int PlCmdPlot(int argc, char **argv);

/* pipelay verify [DIR] [--case NAME]... [--report DIR] [--skip-slow] [--reuse]: runs the
 * verification cases, prints the table of checks, writes the report (cmd_verify.c). */
int PlCmdVerify(int argc, char **argv);

/* pipelay compare RESULT REFERENCE [--tol [COLUMN=]TYPE:VALUE]... [--x COLUMN]: compares
 * the columns of two CSV files (cmd_compare.c). */
int PlCmdCompare(int argc, char **argv);

/* pipelay sweep FILE --vary KEY=VALUES ...: static solves over a range of one value, each
 * started from its converged neighbour (cmd_sweep.c). Needs PETSc initialised (MPI: the
 * cases are split into one contiguous block per rank). */
int PlCmdSweep(int argc, char **argv);

/* pipelay operability FILE --sea-states TABLE ...: the model's dynamic run in each sea state,
 * the allowable Hs, operability and fatigue per year (cmd_operability.c). Needs PETSc
 * initialised (MPI: case i on rank i mod K). */
int PlCmdOperability(int argc, char **argv);

/* pipelay decay DIR [--body NAME] [--dof DOF]... [--from T] [--to T]: the natural periods and
 * damping ratios of a body's free decay in a finished dynamic run (cmd_decay.c). */
int PlCmdDecay(int argc, char **argv);

/* How run and sweep read argv[*i] when it starts with one dash: a PETSc option (PETSc's
 * options are words, -snes_monitor; PetscInitialize has them) returns 1 with *i past it and its
 * value (the next argument, when that is not an option); a one-letter option ("-o"), a mistyped
 * one of pipelay's, which have two dashes, is refused with a message on stderr (rank 0, naming
 * cmd): -1; anything else 0. */
int PlArgPetscOption(int argc, char **argv, int *i, const char *cmd, int rank);
