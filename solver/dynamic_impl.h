/*
 * dynamic_impl.h - the dynamic problem object shared by the solver's dynamic files
 * (private).
 */
#pragma once
#include <ida/ida.h>
#include <nvector/nvector_petsc.h>
#include <sunnonlinsol/sunnonlinsol_petscsnes.h>
#include "solver_impl.h"

/* How the dynamic run holds an end node. */
typedef struct {
  int node;                 /* node index */
  bool tr[3];               /* translation held (x_c = xbar_c(t), v_c = vbar_c(t)) */
  int rot;                  /* 0 free, 1 all three held (p = pbar(t), w = wbar(t)), 2 partial */
  bool rp[3];               /* partial: rotation component c held at its static value */
  const PlMotion *motion;   /* prescribed motion (kind NONE: none) */
  double xs[3];             /* static position [m] */
  double ps[4];             /* static rotation parameters */
  double qs[4];             /* unit quaternion of R(ps) (without R0) */
  double F[3], M[3];        /* dead end force [N] and moment [N m] (global) */
} PlDynEnd;

struct PlDynamic_ {
  PlProblem sp;             /* the static problem: model, mesh, elements, static state */
  MPI_Comm comm;
  PlParamKind kind;
  int np, nd, ndd;          /* rotation parameters, static and dynamic DOFs per node */
  int iV, iW;               /* offsets of v and w in a node's unknowns */
  DM da;                    /* 1-D DMDA, ndd DOFs per node, same ownership as sp->da */
  Vec y, yp;                /* state and rate (global) */
  Vec work_y, work_yp;      /* iteration matrix: y = ypred + ycor, yp = yppred + cj ycor */
  Mat J;                    /* iteration matrix dF/dy + cj dF/dyp */
  PlNodeInertia *inertia;   /* [nnodes] lumped */
  PlMorison *morison;       /* [nelements] */
  double *xs;               /* [3 nnodes] static positions: y carries u = x - xs [m] */
  double *wnode;            /* [nnodes] lumped submerged weight [N] (potential energy) */
  PlDynEnd ends[2];
  double t0;                /* start time [s] */
  double t_out;             /* time of the state in y (the last output) [s] */
  /* IDA */
  SUNContext sunctx;
  void *ida;
  N_Vector ny, nyp, natol, newt;
  SUNNonlinearSolver nls;
  SNES snes;
  Vec ewt;                  /* IDA's error weights (for the Newton convergence test) */
  /* Newton control (IDA-like modified Newton on top of SNES) */
  double cj_J;              /* cj of the assembled iteration matrix (0: none) */
  long nst_J;               /* IDA step count when it was assembled */
  int force_J;              /* assemble at the next chance */
  long njac;                /* iteration matrices assembled */
  long nni;                 /* Newton iterations (all solves) */
  double del1, ss;          /* first update norm and rate factor of the current solve */
  int domain_error;         /* a residual evaluation left the rod's domain */
};

