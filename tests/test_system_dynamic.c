/*
 * test_system_dynamic.c - the dynamics of several lines, points and bodies
 * (solver/system_dynamic.c; issue 14).
 *
 *   jacobian_quat, jacobian_euler  the analytic iteration matrix dF/dy + c dF/dy' of a system
 *       with every kind of attachment (two lines on a free clump-buoy point, a fixed anchor
 *       point, a line hung from a body at an offset body point on a hinge, a line hung from a
 *       second body joined to the first by a revolute joint: its multipliers, GGL; the first
 *       body's DP controller with its integral states, on a circular reference) and
 *       every load (Morison drag and added mass in a sheared current, on the lines and on the
 *       free point, seabed contact with damping, the
 *       body's spring, hydrostatics, added mass, damping and weight, the float's hull drag in the current,
 *       its top strip dry) against central
 *       differences of the residual, at a generic state (the static equilibrium displaced,
 *       with velocities and rates), entry by entry within 1e-6 of its row's largest entry (its
 *       statics need not converge: the state is displaced anyway).
 *   jacobian_waves_quat, jacobian_waves_euler  the same in waves (a regular and a short-crested sea,
 *       Wheeler-stretched, with the current): every load takes the sea's kinematics.
 *   element_waves  the waves' part of each element's matrix (in the sea less calm) of a riser
 *       through the surface of a steep sea against central differences of the waves' part of its
 *       loads, within 1e-6 of each row's largest entry of that part.
 *   jacobian_rao_quat, jacobian_rao_euler  the same in waves ramped in over 1 s with the float moving
 *       by its displacement RAOs (a table at 4 headings x 3 periods, at a forward speed): the riser's
 *       top on the float's moving body point (a + d(t), its rate in the velocity row), and the flap
 *       driven by a wave excitation table, at t = 0.3 s.
 *   jacobian_damped_quat, jacobian_damped_euler  the same with structural axial damping in the
 *       bottom line and the riser (axial_damping 4e7 N s: c_a/L a tenth of EA/L), at the same
 *       tolerance.
 *   jacobian_fixed_quat, jacobian_fixed_euler  the same with the riser's top end fixed to the
 *       float (connection: fixed: its rotation tied to the float's, its moment into the float),
 *       at the same tolerance.
 *   jacobian_rao_fixed_quat, jacobian_rao_fixed_euler  jacobian_rao_* with the top end fixed: its
 *       frame turns with the float's RAO rotation (a time-dependent tie), at the same tolerance.
 *   hull_rao_particle  a hull strip on displacement RAOs that move it as the water particle feels
 *       (almost) no drag: at most 1e-4 of the still strip's.
 *   rao_fixed_frame  that fixed end's frame where its rows vanish is R_b exp(xi_r) T (1e-12) and
 *       its angular velocity the frame's rate (central differences in time, 1e-8 rad/s).
 *   jacobian_stinger_quat, jacobian_stinger_euler  the same, and the statics' matrix, for a pipe
 *       pressed by a stinger's three rollers (their contact with damping, roller.c) at the
 *       displaced state, every roller in contact there; jacobian_stinger_moving with the top end
 *       heaving and pitching and the stinger moving with it (at t = 0.3 s).
 *   split  (on K MPI ranks) the residual and matrix assembled in METIS parts and summed equal
 *       the whole assembly's, both rotation parametrisations, with the riser's top hinged and fixed.
 *   outputs  the outputs' loads from the elements and nodes at the lines' ends
 *       (PlSysDynOutputLoads) equal those a whole residual leaves, to the bit: every line end's
 *       force and every body's loads (lines, environment, thrust), at a generic state of the
 *       system above, hinged and fixed (the split case checks them on K ranks too).
 *   rest   (the lazy-S of verification/lines_buoy and the cable between two bodies of
 *       lines_bodies) the dynamic residual at the start (the static equilibrium of
 *       solver/lines.c at rest) is zero: every row within 1e-7 of the force scale (the largest end tension), so a run
 *       released from it stays there (statics and dynamics are one residual).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pipelay/models.h"
#include "pipelay/solver.h"
#include "check.h"
#include "system_fd.h"
#include "../solver/dynamic_impl.h" /* PlSysDynEndForce, PlSysDynBodyOutput; PlSysDynLine, PlSysDynWaves */
#include "../solver/system_impl.h"  /* the attachments and the bodies' RAO motion (rao_fixed_frame) */
#include "pipelay/rao.h"

static const char *kSystem =
  "environment: {water_depth: 120, water_density: 1025, gravity: 9.80665}\n"
  "seabed: {model: nonlinear, damping: 2.0e3}\n"
  "current: {profile: sheared, surface_speed: 0.6, seabed_speed: 0.1, direction: 30}\n"
  "points:\n"
  "  - {name: clump, position: [60, 0, -80], mass: 3000, volume: 0.5, drag_area: 1.2, added_mass_coefficient: 0.8}\n"
  "  - {name: anchor, position: [-40, 0, -120], fixed: true}\n"
  "bodies:\n"
  "  - name: float\n"
  "    mass: 20000\n"
  "    radii_of_gyration: [3, 4, 4]\n"
  "    added_mass: [[5000, 0, 0, 0, 0, 0], [0, 6000, 0, 0, 0, 0], [0, 0, 8000, 0, 0, 0], [0, 0, 0, 3.0e4, 0, 0],\n"
  "                 [0, 0, 0, 0, 3.0e4, 0], [0, 0, 0, 0, 0, 2.0e4]]\n"
  "    linear_damping: [[2.0e3, 0, 0, 0, 0, 0], [0, 2.0e3, 0, 0, 0, 0], [0, 0, 4.0e3, 0, 0, 0], [0, 0, 0, 1.0e4, 0, 0],\n"
  "                     [0, 0, 0, 0, 1.0e4, 0], [0, 0, 0, 0, 0, 1.0e4]]\n"
  "    spring: {stiffness: [[4.0e4, 0, 0], [0, 4.0e4, 0], [0, 0, 0]], anchor: [150, 0, -5]}\n"
  "    restoring: {waterplane_area: 30, gm_transverse: 2, gm_longitudinal: 3, displacement: 20000, heave_equilibrium: -5}\n"
  "    initial: {position: [150, 0, -5]}\n"
  "    hull: [{top: 7.5, bottom: -6, diameter: 3, drag_normal: 0.8}, {top: -6, bottom: -9, diameter: 3, diameter_bottom: 2}]\n"
  "    dp: {kp: [2.0e4, 2.0e4, 0, 0, 0, 1.0e5], kd: [1.0e5, 1.0e5, 0, 0, 0, 2.0e5], ki: [500, 500, 0, 0, 0, 1000],\n"
  "         actuated: [surge, sway, yaw], reference: {type: circle, eta: [150, 0, 0, 0, 0, 10], radius: 5, period: 60, hold: 100}}\n"
  "  - {name: flap, mass: 4000, radii_of_gyration: [1, 2, 2], centre_of_gravity: [0, 0, -1], weight: true,\n"
  "     initial: {position: [150, 0, -12]}}\n"
  "joints:\n"
  "  - {name: hinge, type: revolute, bodies: [flap, float], point: [150, 0, -11], axis: [0, 1, 0]}\n"
  "lines:\n"
  "  - name: bottomline\n"
  "    line:\n"
  "      length: 130\n"
  "      sections: [{outer_diameter: 0.2, EA: 4.0e8, EI: 2.0e5, GJ: 1.5e5, mass_per_length: 80,\n"
  "                  hydrodynamics: {drag_normal: 1.1, drag_tangential: 0.05, added_mass_normal: 1.0}}]\n"
  "    mesh: {elements: 6}\n"
  "    ends: {bottom: {point: anchor}, top: {point: clump}}\n"
  "  - name: riser\n"
  "    line:\n"
  "      length: 135\n"
  "      sections: [{outer_diameter: 0.2, EA: 4.0e8, EI: 2.0e5, GJ: 1.5e5, mass_per_length: 60,\n"
  "                  hydrodynamics: {drag_normal: 1.0, added_mass_normal: 0.8}}]\n"
  "    mesh: {elements: 5}\n"
  "    ends: {bottom: {point: clump}, top: {body: float, at: [2, 1, -3]}}\n"
  "  - name: tail\n"
  "    line:\n"
  "      length: 115\n"
  "      sections: [{outer_diameter: 0.2, EA: 4.0e8, EI: 2.0e5, GJ: 1.5e5, mass_per_length: 80}]\n"
  "    mesh: {elements: 3}\n"
  "    ends: {bottom: {body: flap, at: [0, 0, -2]}, top: {point: clump}}\n"
  "analysis: {type: dynamic, dynamic: {duration: 1}}\n";

/* kSystem in waves: a regular Airy wave and a short-crested JONSWAP sea, Wheeler-stretched, whose
 * kinematics load every line (drag on the relative velocity, the fluid's inertia, the wetted
 * fraction under the moving surface), the free point's drag and the float's hull strips (the
 * current added by the sea's one service, PlWavesFluid) */
static const char *WavesSystem(char *buf, size_t cap)
{
  snprintf(buf, cap, "%s%s", kSystem,
           "waves:\n"
           "  stretching: wheeler\n"
           "  trains:\n"
           "    - {kind: airy, height: 4, period: 9, heading: 20, phase: 40}\n"
           "    - {kind: jonswap, hs: 3, tp: 8, n_components: 30, n_directions: 3, spreading_s: 4, seed: 7, heading: -30}\n");
  return buf;
}

/* WavesSystem with the float on a displacement RAO table (tests/models/rao_small.csv), the flap
 * driven by a wave excitation table (the same numbers as N/m, N m/m) and the sea ramped in over
 * 1 s: the riser's top moves with the float's RAO motion at its body point (at t = 0.3 s, inside
 * the ramp: the motion and its rate nonzero) */
static const char *RaoSystem(char *buf, size_t cap)
{
  char waves[8192];
  WavesSystem(waves, sizeof waves);
  const char *at = strstr(waves, "    initial: {position: [150, 0, -5]}\n");
  if (!at) return "";
  at += strlen("    initial: {position: [150, 0, -5]}\n");
  char tmp[8192];
  snprintf(tmp, sizeof tmp, "%.*s    raos: {file: %s/models/rao_small.csv, heading: towards, phase: lag, rotations: deg, "
           "origin: [1, 0.5, -2], phase_origin: [3, 0, 0], speed: 0.5}\n%s  ramp_time: 1\n",
           (int)(at - waves), waves, PL_TESTS_DIR, at);
  const char *flap = strstr(tmp, "initial: {position: [150, 0, -12]}}");
  if (!flap) return "";
  snprintf(buf, cap, "%.*sinitial: {position: [150, 0, -12]},\n     excitation: {file: %s/models/rao_small.csv, heading: "
           "from, phase: lead, origin: [0.5, 0.2, -1]}}%s", (int)(flap - tmp), tmp, PL_TESTS_DIR,
           flap + strlen("initial: {position: [150, 0, -12]}}"));
  return buf;
}

/* verification/lines_buoy and lines_bodies (5 m elements) with a dynamic analysis: systems
 * whose static equilibrium is known to converge */
static const char *kBuoy =
  "environment: {water_depth: 300, water_density: 1025, gravity: 9.80665}\n"
  "seabed: {model: none}\n"
  "points:\n"
  "  - {name: buoy, position: [120, 0, -150], mass: 5000, volume: 30}\n"
  "lines:\n"
  "  - name: lower\n"
  "    line: {length: 200, sections: [{outer_diameter: 0.1, EA: 5.0e8, EI: 1.0e3, GJ: 1.0e3, mass_per_length: 100}]}\n"
  "    mesh: {elements: 40}\n"
  "    ends: {bottom: {position: [0, 0, -250], fixed: [x, y, z]}, top: {point: buoy}}\n"
  "  - name: upper\n"
  "    line: {length: 250, sections: [{outer_diameter: 0.1, EA: 5.0e8, EI: 1.0e3, GJ: 1.0e3, mass_per_length: 100}]}\n"
  "    mesh: {elements: 50}\n"
  "    ends: {bottom: {point: buoy}, top: {position: [300, 0, -20], fixed: [x, y, z]}}\n"
  "analysis: {type: dynamic, dynamic: {duration: 1}}\n";
static const char *kBodies =
  "environment: {water_depth: 300, water_density: 1025, gravity: 9.80665}\n"
  "seabed: {model: none}\n"
  "bodies:\n"
  "  - {name: west, mass: 1000, radii_of_gyration: [1, 1, 1], initial: {position: [-100, 0, -50]},\n"
  "     spring: {stiffness: [[1.0e5, 0, 0], [0, 1.0e5, 0], [0, 0, 1.0e5]], anchor: [-100, 0, -50]}}\n"
  "  - {name: east, mass: 1000, radii_of_gyration: [1, 1, 1], initial: {position: [100, 0, -50]},\n"
  "     spring: {stiffness: [[1.0e5, 0, 0], [0, 1.0e5, 0], [0, 0, 1.0e5]], anchor: [100, 0, -50]}}\n"
  "lines:\n"
  "  - name: span\n"
  "    line: {length: 220, sections: [{outer_diameter: 0.1, EA: 5.0e8, EI: 1.0e3, GJ: 1.0e3, mass_per_length: 100}]}\n"
  "    mesh: {elements: 44}\n"
  "    ends: {bottom: {body: west, at: [0, 0, 0]}, top: {body: east, at: [0, 0, 0]}}\n"
  "analysis: {type: dynamic, dynamic: {duration: 1}}\n";

/* A riser from the seabed through the surface of a steep sea (a 6 m Airy wave and a short-crested
 * JONSWAP sea, Wheeler-stretched, and a current): its elements below, in and above the surface's
 * band */
static const char *kRiserWaves =
  "environment: {water_depth: 60, water_density: 1025, gravity: 9.80665}\n"
  "seabed: {model: none}\n"
  "current: {profile: uniform, speed: 0.4, direction: 30}\n"
  "waves:\n"
  "  stretching: wheeler\n"
  "  trains:\n"
  "    - {kind: airy, height: 6, period: 9, heading: 20, phase: 50}\n"
  "    - {kind: jonswap, hs: 3, tp: 8, n_components: 30, n_directions: 3, spreading_s: 4, seed: 7, heading: -30}\n"
  "lines:\n"
  "  - name: riser\n"
  "    line: {length: 66, sections: [{outer_diameter: 0.5, EA: 4.0e8, EI: 2.0e5, GJ: 1.5e5, mass_per_length: 80,\n"
  "           hydrodynamics: {drag_normal: 1.1, drag_tangential: 0.05, added_mass_normal: 1.0, added_mass_tangential: 0.2}}]}\n"
  "    mesh: {elements: 66}\n"
  "    ends: {bottom: {position: [0, 0, -60], fixed: [x, y, z]}, top: {position: [0, 0, 6], fixed: [x, y, z]}}\n"
  "analysis: {type: dynamic, dynamic: {duration: 1}}\n";

/* A pipe held at both ends over a stinger of three rollers 30 cm above its straight line (a
 * nearly straight arc), with contact damping: the rollers press into it at the start. */
static const char *kStinger =
  "name: stinger\n"
  "environment: {water_depth: 50}\n"
  "lines:\n"
  "  - name: pipe\n"
  "    line: {length: 20, sections: [{outer_diameter: 0.32385, wall_thickness: 0.0159,\n"
  "           material: {youngs_modulus: 207e9, shear_modulus: 7.96e10, density: 7850},\n"
  "           hydrodynamics: {drag_normal: 1.0, added_mass_normal: 1.0}}]}\n"
  "    mesh: {elements: 20}\n"
  "    ends: {bottom: {position: [0, 0, -10], fixed: [x, y, z]}, top: {position: [20, 0, -10], fixed: [x, y, z]}}\n"
  "stinger: {radius: 1e5, start: [4.5, 0, -9.7], heading: 0, spacing: 5, count: 3, damping: 2e4}\n"
  "analysis: {type: dynamic, dynamic: {duration: 1}}\n";

/* kStinger with the top end heaving and pitching (the stinger moves with it, roller.c). */
static const char *StingerMoving(char *buf, size_t len)
{
  snprintf(buf, len, "%s", kStinger);
  char *top = strstr(buf, "top: {position: [20, 0, -10], fixed: [x, y, z]}");
  if (top) {
    const char *moving = "top: {position: [20, 0, -10], fixed: [x, y, z], motion: {type: harmonic, dofs: {z: {amplitude: "
                         "0.2, period: 3}, ry: {amplitude: 2, period: 3, phase: 30}}}}";
    char rest[4096];
    snprintf(rest, sizeof rest, "%s", top + strlen("top: {position: [20, 0, -10], fixed: [x, y, z]}"));
    snprintf(top, len - (size_t)(top - buf), "%s%s", moving, rest);
  }
  return buf;
}

static int LoadText(const char *text, const char *rotation, PlModel *m)
{
  PlError err;
  const char *sets[1] = {rotation};
  const int rc = PlModelLoadString("system.yaml", text, strlen(text), 1, sets, m, &err);
  if (rc) fprintf(stderr, "FAIL model load: %s\n", err.msg);
  return rc;
}

/* A solved system and its dynamic problem. */
static PetscErrorCode SetUp(const char *text, const char *rotation, int need_statics, PlModel *m, PlLines *L,
                            PlLinesReport *rep, PlSysDyn *S)
{
  PetscFunctionBeginUser;
  PetscCheck(!LoadText(text, rotation, m), PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "model");
  PetscCall(PlLinesCreate(PETSC_COMM_WORLD, m, L));
  PetscCall(PlLinesSolve(*L, NULL, 1, rep));
  if (need_statics) CHECK_TRUE(rep->converged, "the system's static equilibrium converges");
  PetscCall(PlSysDynCreate(*L, rep, S));
  PetscFunctionReturn(0);
}

/* The end forces and the bodies' outputs after the last evaluation, into o (its size:
 * OutputsSize). */
static int OutputsSize(const PlModel *m) { return 6 * m->nlines + 24 * m->nbodies; }

static void Outputs(PlSysDyn S, const PlModel *m, const double *y, double *o)
{
  for (int l = 0; l < m->nlines; ++l)
    for (int e = 0; e < 2; ++e) PlSysDynEndForce(S, l, e, o + 6 * l + 3 * e);
  o += 6 * m->nlines;
  for (int b = 0; b < m->nbodies; ++b) {
    PlVesselOutput vo;
    PlSysDynBodyOutput(S, b, 0.3, y, &vo);
    memcpy(o + 24 * b, vo.pipe_load, sizeof(double) * 6);
    memcpy(o + 24 * b + 6, vo.environment, sizeof(double) * 6);
    memcpy(o + 24 * b + 12, vo.thrust, sizeof(double) * 6);
    memcpy(o + 24 * b + 18, vo.nu, sizeof(double) * 6);
  }
}

/* PlSysDynOutputLoads against PlSysDynResidual's loads at a generic state: equal to the bit
 * (the end nodes' rows sum the same terms in the same order); after a residual at another
 * state, so that nothing is left over from it. */
static int OutputsAgree(PlSysDyn S, const PlModel *m, const double *y, const double *yp)
{
  const int n = PlSysDynSize(S), no = OutputsSize(m);
  double *F = malloc(sizeof(double) * n), *a = malloc(sizeof(double) * no), *b = malloc(sizeof(double) * no);
  int same = F && a && b;
  if (same) {
    same = PlSysDynResidual(S, 0.3, y, yp, F) == 0;
    Outputs(S, m, y, a);
    same = same && PlSysDynResidual(S, 0.2, PlSysDynState(S), PlSysDynRate(S), F) == 0;
    same = same && PlSysDynOutputLoads(S, 0.3, y, yp) == 0;
    Outputs(S, m, y, b);
    double big = 0.0;
    for (int k = 0; k < no; ++k) big = fmax(big, fabs(a[k]));
    same = same && big > 0.0 && !memcmp(a, b, sizeof(double) * no);
  }
  free(F), free(a), free(b);
  return same;
}

/* A generic state: the start with every unknown moved by a deterministic pseudo-random amount
 * of its own size (positions 0.05 m, rotation parameters 0.01, velocities 0.2 m/s), every rate
 * too (the same on every rank). */
/* On K ranks (run with mpiexec): the residual and iteration matrix assembled in METIS parts and
 * summed equal those one rank assembles whole, at a generic state: F within 1e-10 of its row's
 * largest matrix entry times 1 (m, rad or m/s), the matrix within 1e-12 of it; every rank
 * assembles some elements. */
static PetscErrorCode SplitCase(const char *text, const char *rotation)
{
  static PlModel m;
  static PlLinesReport rep;
  PlLines L;
  PlSysDyn S;
  PetscMPIInt size;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(SetUp(text, rotation, 0, &m, &L, &rep, &S));
  const int n = PlSysDynSize(S);
  double *y = malloc(sizeof(double) * n), *yp = malloc(sizeof(double) * n), *Js = malloc(sizeof(double) * n * n),
         *Jf = malloc(sizeof(double) * n * n), *Fs = malloc(sizeof(double) * n), *Ff = malloc(sizeof(double) * n);
  PetscCheck(y && yp && Js && Jf && Fs && Ff, PETSC_COMM_WORLD, PETSC_ERR_MEM, "memory");
  FdGenericState(S, 12345, y, yp);
  PlSysDynParts parts;
  PlSysDynGetParts(S, &parts);
  int least = 1 << 30;
  for (int r = 0; r < size && r < 64; ++r) least = parts.elements[r] < least ? parts.elements[r] : least;
  printf("split %s: %d ranks, elements per rank", rotation, parts.ranks);
  for (int r = 0; r < size && r < 64; ++r) printf(" %d", parts.elements[r]);
  printf(", %d edges cut\n", parts.edge_cut);
  CHECK_TRUE(size > 1 && parts.ranks == size && least > 0, "run on K > 1 ranks, each assembling some elements");
  CHECK_TRUE(PlSysDynResidual(S, 0.3, y, yp, Fs) == 0 && PlSysDynMatrixDense(S, 0.3, y, yp, 37.0, Js) == 0,
             "the parts' residual and matrix");
  PlSysDynSetSplit(S, 0);
  CHECK_TRUE(PlSysDynResidual(S, 0.3, y, yp, Ff) == 0 && PlSysDynMatrixDense(S, 0.3, y, yp, 37.0, Jf) == 0,
             "the whole residual and matrix");
  double ef = 0.0, ej = 0.0;
  for (int i = 0; i < n; ++i) {
    double rowmax = 0.0;
    for (int k = 0; k < n; ++k) rowmax = fmax(rowmax, fabs(Jf[(size_t)i * n + k]));
    rowmax = fmax(rowmax, 1e-12);
    ef = fmax(ef, fabs(Fs[i] - Ff[i]) / rowmax);
    for (int k = 0; k < n; ++k) ej = fmax(ej, fabs(Js[(size_t)i * n + k] - Jf[(size_t)i * n + k]) / rowmax);
  }
  printf("split %s: %d unknowns; parts against whole: residual %.2e, matrix %.2e (of the row's largest entry)\n",
         rotation, n, ef, ej);
  CHECK_TRUE(OutputsAgree(S, &m, y, yp), "the outputs' loads from the ends equal the whole residual's (whole)");
  PlSysDynSetSplit(S, 1);
  CHECK_TRUE(OutputsAgree(S, &m, y, yp), "the outputs' loads from the ends equal the whole residual's (in parts)");
  CHECK_TRUE(ef <= 1e-10, "the parts' residual equals the whole one (1e-10 of the row's largest matrix entry)");
  CHECK_TRUE(ej <= 1e-12, "the parts' matrix equals the whole one (1e-12 of the row's largest entry)");
  free(y), free(yp), free(Js), free(Jf), free(Fs), free(Ff);
  PetscCall(PlSysDynDestroy(&S));
  PetscCall(PlLinesDestroy(&L));
  PlModelFree(&m);
  PetscFunctionReturn(0);
}

/* kSystem with structural axial damping in its first two lines into buf. */
static const char *DampedSystem(char *buf, size_t cap)
{
  const char *a = strstr(kSystem, "mass_per_length: 80,"), *b = strstr(kSystem, "mass_per_length: 60,");
  snprintf(buf, cap, "%.*smass_per_length: 80, axial_damping: 4.0e7,%.*smass_per_length: 60, axial_damping: 4.0e7,%s",
           (int)(a - kSystem), kSystem, (int)(b - a - 20), a + 20, b + 20);
  return buf;
}

/* base (kSystem or a variant of it) with the riser's top end fixed to the float (its frame held
 * at zxy angles [5, -60, 3] in the float's axes, its moment into the float) into buf. */
static const char *FixedOn(const char *base, char *buf, size_t cap)
{
  const char *hinge = "top: {body: float, at: [2, 1, -3]}";
  const char *at = strstr(base, hinge);
  if (!at) return "";
  snprintf(buf, cap, "%.*stop: {body: float, at: [2, 1, -3], connection: fixed, orientation: [5, -60, 3]}%s",
           (int)(at - base), base, at + strlen(hinge));
  return buf;
}
static const char *FixedSystem(char *buf, size_t cap) { return FixedOn(kSystem, buf, cap); }

/* RaoSystem with the riser's top fixed to the float: its frame turns with the RAO rotation */
static const char *RaoFixedSystem(char *buf, size_t cap)
{
  static char rao[8192];
  return FixedOn(RaoSystem(rao, sizeof rao), buf, cap);
}

static PetscErrorCode JacobianCase(const char *text, const char *rotation)
{
  static PlModel m;
  static PlLinesReport rep;
  PlLines L;
  PlSysDyn S;
  PetscFunctionBeginUser;
  PetscCall(SetUp(text, rotation, 0, &m, &L, &rep, &S)); /* any state: it is displaced below */
  const int n = PlSysDynSize(S);
  double *y = malloc(sizeof(double) * n), *yp = malloc(sizeof(double) * n);
  PetscCheck(y && yp, PETSC_COMM_WORLD, PETSC_ERR_MEM, "memory");
  FdGenericState(S, 12345, y, yp);
  int wr, wc;
  const double worst = FdMatrixError(S, 0, 0.3, y, yp, 37.0, &wr, &wc);
  printf("%s: %d unknowns, largest |J - J_fd| = %.2e of its row's largest entry (row %d, column %d)\n", rotation, n,
         worst, wr, wc);
  CHECK_TRUE(worst >= 0.0, "the matrix at a state inside the domain");
  CHECK_TRUE(worst <= 1e-6, "iteration matrix against central differences (1e-6 of the row's largest entry)");
  if (m.stinger.present) { /* the statics' matrix too, and the rollers were in contact */
    const double ws = FdMatrixError(S, 1, 0.0, y, yp, 0.0, &wr, &wc);
    int pressed = 0;
    double *F = malloc(sizeof(double) * n);
    PetscCheck(F && PlSysDynResidual(S, 0.3, y, yp, F) == 0, PETSC_COMM_WORLD, PETSC_ERR_MEM, "the residual");
    free(F);
    for (int k = 0; k < m.stinger.nrollers; ++k) {
      PlRollerResult r;
      PlSysRollersResult(S, k, &r);
      pressed += r.element >= 0 && r.gap < 0.0;
    }
    printf("%s: statics' matrix %.2e of its row's largest entry (row %d, column %d); %d of %d rollers pressed\n",
           rotation, ws, wr, wc, pressed, m.stinger.nrollers);
    CHECK_TRUE(ws >= 0.0 && ws <= 1e-6, "the statics' matrix against central differences (1e-6)");
    CHECK_TRUE(pressed == m.stinger.nrollers, "every roller presses on the pipe at the checked state");
  }
  free(y), free(yp);
  PetscCall(PlSysDynDestroy(&S));
  PetscCall(PlLinesDestroy(&L));
  PlModelFree(&m);
  PetscFunctionReturn(0);
}

/* Element e's loads fe (2 ndd) and matrix Ke of line d at the state y, y' (the system's, positions as
 * displacements from d->xs) in the sea waves (NULL: calm). */
static void ElementAt(PlDynLine d, PlWaves *waves, int e, double t, const double *y, const double *yp, double c,
                      double *fe, double *Ke)
{
  double ya[2][PL_DYN_DOF_MAX], ypa[2][PL_DYN_DOF_MAX];
  for (int a = 0; a < 2; ++a) {
    memcpy(ya[a], y + (size_t)(e + a) * d->ndd, sizeof(double) * d->ndd);
    memcpy(ypa[a], yp + (size_t)(e + a) * d->ndd, sizeof(double) * d->ndd);
    for (int k = 0; k < 3; ++k) ya[a][k] += d->xs[3 * (e + a) + k];
  }
  d->waves = waves;
  PlDynElement(d, e, t, ya[0], ypa[0], ya[1], ypa[1], c, fe, Ke, NULL, NULL);
}

/* The waves' part of every element's matrix (the matrix in the sea less the calm one: the
 * kinematics' velocity and acceleration gradients, the moving surface's wetted fraction, the
 * fluid's inertia) against central differences of the waves' part of its loads, in the
 * position and velocity columns of the loads' rows, each within 1e-6 of its row's largest
 * entry of that part: a check the whole matrix's (jacobian_waves_*) cannot make, where the
 * pipe's axial stiffness is 1e6 times larger. */
static PetscErrorCode ElementWavesCase(const char *rotation)
{
  static PlModel m;
  static PlLinesReport rep;
  PlLines L;
  PlSysDyn S;
  PetscFunctionBeginUser;
  PetscCall(SetUp(kRiserWaves, rotation, 0, &m, &L, &rep, &S));
  const int n = PlSysDynSize(S);
  double *y = malloc(sizeof(double) * n), *yp = malloc(sizeof(double) * n);
  PetscCheck(y && yp && PlSysDynWaves(S), PETSC_COMM_WORLD, PETSC_ERR_MEM, "memory, or no sea");
  FdGenericState(S, 4242, y, yp);
  /* a fiftieth of its displacements: the elements' strains (5 % there) make internal forces of
   * 1e7 N, whose rounding would swamp the waves' part in the differences */
  for (int i = 0; i < n; ++i) {
    y[i] = PlSysDynState(S)[i] + 0.02 * (y[i] - PlSysDynState(S)[i]);
    yp[i] = PlSysDynRate(S)[i] + 0.02 * (yp[i] - PlSysDynRate(S)[i]);
  }
  PlDynLine d = PlSysDynLine(S, 0);
  PlWaves *sea = PlSysDynWaves(S);
  const int ndd = d->ndd, n2 = 2 * ndd, ne = d->sp->mesh.nelements;
  const double t = 0.3, c = 37.0;
  double *Kw = malloc(sizeof(double) * n2 * n2), *K0 = malloc(sizeof(double) * n2 * n2);
  double fw[2 * PL_DYN_DOF_MAX], f0[2 * PL_DYN_DOF_MAX], fp[2 * PL_DYN_DOF_MAX], fm[2 * PL_DYN_DOF_MAX];
  double gp[2 * PL_DYN_DOF_MAX], gm[2 * PL_DYN_DOF_MAX];
  double worst = 0.0, biggest = 0.0;
  int we = -1, surface = 0;
  for (int e = 0; e < ne; ++e) {
    ElementAt(d, sea, e, t, y, yp, c, fw, Kw);
    ElementAt(d, NULL, e, t, y, yp, c, f0, K0);
    const double z = 0.5 * (y[(size_t)e * ndd + 2] + d->xs[3 * e + 2] + y[(size_t)(e + 1) * ndd + 2] + d->xs[3 * e + 5]);
    const double eta = PlWavesElevation(sea, d->xs[3 * e], d->xs[3 * e + 1], t);
    surface += fabs(z - eta) < 1.5; /* the element in or about the surface's band */
    for (int a = 0; a < 2; ++a)
      for (int i = 0; i < 3; ++i) {
        const int row = a * ndd + d->iV + i;
        double rowmax = 0.0, err = 0.0;
        for (int b = 0; b < 2; ++b)
          for (int s = 0; s < 2; ++s)
            for (int j = 0; j < 3; ++j) rowmax = fmax(rowmax, fabs(Kw[row * n2 + b * ndd + (s ? d->iV : 0) + j] -
                                                                     K0[row * n2 + b * ndd + (s ? d->iV : 0) + j]));
        for (int b = 0; b < 2; ++b)
          for (int s = 0; s < 2; ++s)
            for (int j = 0; j < 3; ++j) {
              const int col = b * ndd + (s ? d->iV : 0) + j;
              const size_t k = (size_t)(e + b) * ndd + (s ? d->iV : 0) + j;
              const double h = 1e-4; /* the waves' loads vary over metres: Richardson's O(h^4) is nil */
              double fd[2];
              for (int pass = 0; pass < 2; ++pass) { /* h and h/2, Richardson */
                const double hh = pass ? 0.5 * h : h, y0 = y[k], yp0 = yp[k];
                y[k] = y0 + hh, yp[k] = yp0 + (s ? c * hh : 0.0);
                ElementAt(d, sea, e, t, y, yp, c, fp, NULL);
                ElementAt(d, NULL, e, t, y, yp, c, gp, NULL);
                y[k] = y0 - hh, yp[k] = yp0 - (s ? c * hh : 0.0);
                ElementAt(d, sea, e, t, y, yp, c, fm, NULL);
                ElementAt(d, NULL, e, t, y, yp, c, gm, NULL);
                y[k] = y0, yp[k] = yp0;
                fd[pass] = ((fp[row] - gp[row]) - (fm[row] - gm[row])) / (2.0 * hh);
              }
              const double fdr = (4.0 * fd[1] - fd[0]) / 3.0;
              err = fmax(err, fabs(fdr - (Kw[row * n2 + col] - K0[row * n2 + col])));
            }
        biggest = fmax(biggest, rowmax);
        if (rowmax > 0.0 && err / rowmax > worst) worst = err / rowmax, we = e;
      }
  }
  printf("%s: the waves' part of %d elements' matrices (%d in or about the surface), largest entry %.3e: largest "
         "|K - K_fd| %.2e of its row's largest entry (element %d)\n", rotation, ne, surface, biggest, worst, we);
  CHECK_TRUE(surface >= 2 && biggest > 0.0, "elements in the surface's band, and a waves' part of the matrix");
  CHECK_TRUE(worst <= 1e-6, "the waves' part of the element matrices against central differences (1e-6 of the row's largest)");
  free(Kw), free(K0), free(y), free(yp);
  PetscCall(PlSysDynDestroy(&S));
  PetscCall(PlLinesDestroy(&L));
  PlModelFree(&m);
  PetscFunctionReturn(0);
}

static PetscErrorCode OutputsCase(const char *text, const char *rotation)
{
  static PlModel m;
  static PlLinesReport rep;
  PlLines L;
  PlSysDyn S;
  PetscFunctionBeginUser;
  PetscCall(SetUp(text, rotation, 0, &m, &L, &rep, &S));
  const int n = PlSysDynSize(S);
  double *y = malloc(sizeof(double) * n), *yp = malloc(sizeof(double) * n);
  PetscCheck(y && yp, PETSC_COMM_WORLD, PETSC_ERR_MEM, "memory");
  FdGenericState(S, 777, y, yp);
  CHECK_TRUE(OutputsAgree(S, &m, y, yp), "the outputs' loads from the lines' ends equal the whole residual's");
  printf("outputs %s: %d lines, %d bodies: the end forces and the bodies' loads from the ends alone are the whole "
         "residual's\n", rotation, m.nlines, m.nbodies);
  free(y), free(yp);
  PetscCall(PlSysDynDestroy(&S));
  PetscCall(PlLinesDestroy(&L));
  PlModelFree(&m);
  PetscFunctionReturn(0);
}

static PetscErrorCode RestCase(const char *text)
{
  static PlModel m;
  static PlLinesReport rep;
  PlLines L;
  PlSysDyn S;
  PetscFunctionBeginUser;
  PetscCall(SetUp(text, "rotation=quaternion", 1, &m, &L, &rep, &S));
  const int n = PlSysDynSize(S);
  double *F = malloc(sizeof(double) * n);
  PetscCheck(F, PETSC_COMM_WORLD, PETSC_ERR_MEM, "memory");
  PlSysDynResidual(S, 0.0, PlSysDynState(S), PlSysDynRate(S), F);
  double scale = 0.0, worst = 0.0;
  int wi = -1;
  for (int l = 0; l < m.nlines; ++l)
    for (int e = 0; e < 2; ++e) scale = fmax(scale, rep.end_tension[l][e]);
  for (int i = 0; i < n; ++i)
    if (fabs(F[i]) > worst) worst = fabs(F[i]), wi = i;
  printf("rest: %d unknowns; largest residual at the static equilibrium %.3e N (row %d) = %.2e of the largest end "
         "tension %.4e N\n", n, worst, wi, worst / scale, scale);
  CHECK_TRUE(worst <= 1e-7 * scale, "the dynamic residual vanishes at the static equilibrium (1e-7 of the tension)");
  free(F);
  PetscCall(PlSysDynDestroy(&S));
  PetscCall(PlLinesDestroy(&L));
  PlModelFree(&m);
  PetscFunctionReturn(0);
}

/* exp([v]x) by Rodrigues' formula, R = I + sin th/th [v]x + (1 - cos th)/th^2 [v]x^2 (row-major) */
static void RotationFromVector(const double v[3], double R[9])
{
  const double th = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  const double a = th > 0.0 ? sin(th) / th : 1.0, b = th > 0.0 ? (1.0 - cos(th)) / (th * th) : 0.5;
  const double K[9] = {0, -v[2], v[1], v[2], 0, -v[0], -v[1], v[0], 0};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double kk = 0.0;
      for (int l = 0; l < 3; ++l) kk += K[3 * i + l] * K[3 * l + j];
      R[3 * i + j] = (i == j) + a * K[3 * i + j] + b * kk;
    }
}

static void MatMul3(const double *A, const double *B, double *C)
{
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) C[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
}

/* The fixed end's frame, at a state where its tie rows vanish (the end's parameters set from
 * the residual at p = 0: quaternion rows p - X), is R_b exp([xi_r]x) T, xi_r the float's RAO
 * rotation at t (PlRaoMotionEval), exp by Rodrigues' formula, T the end's frame in the float's
 * axes: every entry within 1e-12 (the tangent t1 is its first column); and the angular velocity
 * its W rows ask for (from the residual at w_e = 0) is the end frame's, Tt^T w_b plus the RAO
 * rotation's own rate T^T exp(xi_r)^T d/dt exp(xi_r) by central differences in time (1e-8 rad/s). */
static PetscErrorCode RaoFixedFrameCase(void)
{
  static PlModel m;
  static PlLinesReport rep;
  static char text[8192];
  PlLines L;
  PlSysDyn S;
  PetscFunctionBeginUser;
  PetscCall(SetUp(RaoFixedSystem(text, sizeof text), "rotation=quaternion", 0, &m, &L, &rep, &S));
  const int n = PlSysDynSize(S);
  double *y = malloc(sizeof(double) * n), *yp = malloc(sizeof(double) * n), *F = malloc(sizeof(double) * n);
  PetscCheck(y && yp && F, PETSC_COMM_WORLD, PETSC_ERR_MEM, "memory");
  memcpy(y, PlSysDynState(S), sizeof(double) * n);
  memcpy(yp, PlSysDynRate(S), sizeof(double) * n);
  const Attach *A = NULL;
  for (int a = 0; a < S->nat; ++a)
    if (S->at[a].fixed) A = &S->at[a];
  PetscCheck(A && S->rao && S->rao[A->body], PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "no fixed end on a RAO body");
  const double t = 0.3;
  double *yb = y + S->moff + PL_VESSEL_NY * A->body;
  yb[PL_VESSEL_W] = 0.02, yb[PL_VESSEL_W + 1] = -0.03, yb[PL_VESSEL_W + 2] = 0.01; /* the float turning */
  for (int k = 0; k < 4; ++k) y[A->row + 3 + k] = 0.0;
  for (int c = 0; c < 3; ++c) y[A->row + S->iW + c] = 0.0;
  PlSysDynResidual(S, t, y, yp, F);
  for (int k = 0; k < 4; ++k) y[A->row + 3 + k] = -F[A->row + 3 + k];
  double we[3];
  for (int c = 0; c < 3; ++c) we[c] = y[A->row + S->iW + c] = -F[A->row + S->iW + c];
  PlSysDynResidual(S, t, y, yp, F);
  double tie = 0.0;
  for (int k = 0; k < 4; ++k) tie = fmax(tie, fabs(F[A->row + 3 + k]));
  for (int c = 0; c < 3; ++c) tie = fmax(tie, fabs(F[A->row + S->iW + c]));
  CHECK_TRUE(tie <= 1e-15, "the end's rotation rows vanish at the parameters and angular velocity read from them");
  /* the expected frame R_b exp(xi_r) T */
  double xi[6], xip[6], xim[6], Rb[9], Rx[9], Rxp[9], Rxm[9], RbRx[9], Re[9], q[4], Rq0[9], Rp[9], Ract[9];
  const double h = 1e-5;
  PlRaoMotionEval(S->rao[A->body], t, xi, NULL, NULL);
  PlRaoMotionEval(S->rao[A->body], t + h, xip, NULL, NULL);
  PlRaoMotionEval(S->rao[A->body], t - h, xim, NULL, NULL);
  const double nq = sqrt(yb[3] * yb[3] + yb[4] * yb[4] + yb[5] * yb[5] + yb[6] * yb[6]);
  for (int k = 0; k < 4; ++k) q[k] = yb[PL_VESSEL_Q + k] / nq;
  PlQuatToMatrix(q, Rb);
  RotationFromVector(xi + 3, Rx);
  RotationFromVector(xip + 3, Rxp);
  RotationFromVector(xim + 3, Rxm);
  MatMul3(Rb, Rx, RbRx);
  MatMul3(RbRx, A->T, Re);
  const PlDynLine d = S->d[A->l];
  PlQuatToMatrix(d->sp->mesh.q0 + 4 * d->ends[A->k].node, Rq0);
  PlQuatToMatrix(y + A->row + 3, Rp);
  MatMul3(Rq0, Rp, Ract);
  double err = 0.0, tan = 0.0, turn = 0.0;
  for (int i = 0; i < 9; ++i) err = fmax(err, fabs(Ract[i] - Re[i]));
  for (int i = 0; i < 3; ++i) tan = fmax(tan, fabs(Ract[3 * i] - Re[3 * i]));
  for (int i = 0; i < 3; ++i) turn = fmax(turn, fabs(xi[3 + i]));
  printf("RAO rotation |xi_r| up to %.3e rad at t = %g s: frame R_b exp(xi_r) T within %.2e, tangent within %.2e\n",
         turn, t, err, tan);
  CHECK_TRUE(turn > 1e-4, "the RAO rotation is not nil at t (inside the ramp)");
  CHECK_TRUE(tan <= 1e-12, "the fixed end's tangent t1 follows R_b exp(xi_r) T (1e-12)");
  CHECK_TRUE(err <= 1e-12, "the fixed end's frame is R_b exp(xi_r) T (1e-12)");
  /* the angular velocity in the end frame: Re^T Re' with R_b turning at w_b (body axes) and
   * exp(xi_r(t)) by central differences */
  double dRx[9], Tt[9], S1[9], RxT[9];
  for (int i = 0; i < 9; ++i) dRx[i] = (Rxp[i] - Rxm[i]) / (2.0 * h);
  MatMul3(Rx, A->T, Tt);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) RxT[3 * i + j] = Rx[3 * j + i];
  MatMul3(RxT, dRx, S1); /* exp^T d/dt exp = [w_rao]x, rao's axes */
  const double wr[3] = {S1[7], S1[2], S1[3]};
  const double *wb = yb + PL_VESSEL_W;
  double wexp[3], werr = 0.0;
  for (int c = 0; c < 3; ++c) {
    wexp[c] = 0.0;
    for (int j = 0; j < 3; ++j) wexp[c] += Tt[3 * j + c] * wb[j] + A->T[3 * j + c] * wr[j];
    werr = fmax(werr, fabs(we[c] - wexp[c]));
  }
  printf("end angular velocity [%.6e %.6e %.6e] rad/s, from the frame's rate within %.2e\n", we[0], we[1], we[2], werr);
  CHECK_TRUE(werr <= 1e-8, "the fixed end's angular velocity is its frame's, Tt^T w_b + T^T w_rao (1e-8 rad/s)");
  free(y), free(yp), free(F);
  PetscCall(PlSysDynDestroy(&S));
  PetscCall(PlLinesDestroy(&L));
  PlModelFree(&m);
  PetscFunctionReturn(0);
}

/* A spar of one hull strip at z = -5 m on displacement RAOs that move that point as linear
 * theory's water particle there (tests/models/rao_particle.csv: surge cosh k(z+h)/sinh kh a
 * quarter period after the crest, heave sinh k(z+h)/sinh kh), in that 10 s, 0.1 m wave, the body's
 * low-frequency state at rest at its initial pose: the strip moves with the water, so its drag
 * is that of the difference between the water's velocity at the moved point and the particle's,
 * of order k a = 4e-3 of the velocity (the drag (k a)^2, and with the norm's regularisation
 * |u_n|_e >= 1e-4 m/s up to 1e-4 |u_n| |u|^-2 where |u| is small): at most 1e-3 of the drag on the
 * same spar held still (no raos), at three times after the ramp. Without the RAO velocity in the strip's relative velocity the two
 * are alike. (A slack tether holds the spar: a system needs a line; it does not touch the hull.) */
static const char *kParticle =
  "environment: {water_depth: 100, water_density: 1025, gravity: 9.80665}\n"
  "bodies:\n"
  "  - name: spar\n"
  "    mass: 20000\n"
  "    radii_of_gyration: [3, 4, 4]\n"
  "    restoring: {waterplane_area: 30, gm_transverse: 2, gm_longitudinal: 3, displacement: 20000, heave_equilibrium: 0}\n"
  "    initial: {position: [0, 0, 0]}\n"
  "    hull: [{top: -4.5, bottom: -5.5, diameter: 2}]\n"
  "%s"
  "waves:\n"
  "  ramp_time: 1\n"
  "  trains: [{kind: airy, amplitude: 0.1, period: 10, heading: 0}]\n"
  "lines:\n"
  "  - name: tether\n"
  "    line: {length: 56, sections: [{outer_diameter: 0.1, EA: 1.0e8, EI: 1.0e3, GJ: 1.0e3, mass_per_length: 10}]}\n"
  "    mesh: {elements: 8}\n"
  "    ends: {bottom: {position: [0, 0, -60], fixed: [x, y, z]}, top: {body: spar, at: [0, 0, -5.5]}}\n"
  "analysis: {type: dynamic, dynamic: {duration: 10}}\n";

static PetscErrorCode HullDrag(const char *text, const double *ts, int nt, double (*F)[3])
{
  static PlModel m;
  static PlLinesReport rep;
  PlLines L;
  PlSysDyn S;
  PetscFunctionBeginUser;
  PetscCall(SetUp(text, "rotation=quaternion", 0, &m, &L, &rep, &S));
  const int n = PlSysDynSize(S);
  double *y = malloc(sizeof(double) * n), *yp = malloc(sizeof(double) * n), *R = malloc(sizeof(double) * n);
  PetscCheck(y && yp && R, PETSC_COMM_WORLD, PETSC_ERR_MEM, "memory");
  memcpy(y, PlSysDynState(S), sizeof(double) * n);
  memcpy(yp, PlSysDynRate(S), sizeof(double) * n);
  /* the body at rest at its initial pose (O_b at the origin, upright): the strip at z = -5 m */
  for (int c = 0; c < PL_VESSEL_NY; ++c) y[S->moff + c] = c == PL_VESSEL_Q ? 1.0 : 0.0;
  for (int i = 0; i < nt; ++i) {
    PlSysDynResidual(S, ts[i], y, yp, R);
    for (int c = 0; c < 3; ++c) F[i][c] = S->th[0][c];
  }
  free(y), free(yp), free(R);
  PetscCall(PlSysDynDestroy(&S));
  PetscCall(PlLinesDestroy(&L));
  PlModelFree(&m);
  PetscFunctionReturn(0);
}

static PetscErrorCode HullRaoParticleCase(void)
{
  static char moving[4096], still[4096], raos[512];
  PetscFunctionBeginUser;
  snprintf(raos, sizeof raos, "    raos: {file: %s/models/rao_particle.csv, heading: towards, phase: lag, rotations: deg, origin: [0, 0, 0]}\n",
           PL_TESTS_DIR);
  snprintf(moving, sizeof moving, kParticle, raos);
  snprintf(still, sizeof still, kParticle, "");
  const double ts[3] = {3.1, 4.7, 6.2};
  double Fm[3][3], Fs[3][3];
  PetscCall(HullDrag(moving, ts, 3, Fm));
  PetscCall(HullDrag(still, ts, 3, Fs));
  double worst = 0.0;
  for (int i = 0; i < 3; ++i) {
    const double fm = sqrt(Fm[i][0] * Fm[i][0] + Fm[i][1] * Fm[i][1] + Fm[i][2] * Fm[i][2]);
    const double fs = sqrt(Fs[i][0] * Fs[i][0] + Fs[i][1] * Fs[i][1] + Fs[i][2] * Fs[i][2]);
    printf("t = %.1f s: the strip's drag moving with the water %.3e N, held still %.3e N\n", ts[i], fm, fs);
    CHECK_TRUE(fs > 0.1, "the still spar feels the wave's drag (> 0.1 N)");
    worst = fmax(worst, fm / fs);
  }
  printf("largest ratio %.2e\n", worst);
  CHECK_TRUE(worst <= 1e-3, "a strip moving with the water particle feels at most 1e-3 of the still strip's drag");
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscFunctionBeginUser;
  PetscCall(PlInitialize(&argc, &argv));
  const char *c = argc > 1 ? argv[1] : "";
  PetscErrorCode rc = 1;
  static char fixed[8192];
  if (!strcmp(c, "jacobian_quat")) rc = JacobianCase(kSystem, "rotation=quaternion");
  else if (!strcmp(c, "jacobian_euler")) rc = JacobianCase(kSystem, "rotation=euler_zxy");
  else if (!strcmp(c, "jacobian_damped_quat")) rc = JacobianCase(DampedSystem(fixed, sizeof fixed), "rotation=quaternion");
  else if (!strcmp(c, "jacobian_damped_euler")) rc = JacobianCase(DampedSystem(fixed, sizeof fixed), "rotation=euler_zxy");
  else if (!strcmp(c, "jacobian_fixed_quat")) rc = JacobianCase(FixedSystem(fixed, sizeof fixed), "rotation=quaternion");
  else if (!strcmp(c, "jacobian_fixed_euler")) rc = JacobianCase(FixedSystem(fixed, sizeof fixed), "rotation=euler_zxy");
  else if (!strcmp(c, "jacobian_waves_quat")) rc = JacobianCase(WavesSystem(fixed, sizeof fixed), "rotation=quaternion");
  else if (!strcmp(c, "jacobian_waves_euler")) rc = JacobianCase(WavesSystem(fixed, sizeof fixed), "rotation=euler_zxy");
  else if (!strcmp(c, "jacobian_rao_quat")) rc = JacobianCase(RaoSystem(fixed, sizeof fixed), "rotation=quaternion");
  else if (!strcmp(c, "jacobian_rao_euler")) rc = JacobianCase(RaoSystem(fixed, sizeof fixed), "rotation=euler_zxy");
  else if (!strcmp(c, "jacobian_rao_fixed_quat")) rc = JacobianCase(RaoFixedSystem(fixed, sizeof fixed), "rotation=quaternion");
  else if (!strcmp(c, "jacobian_rao_fixed_euler")) rc = JacobianCase(RaoFixedSystem(fixed, sizeof fixed), "rotation=euler_zxy");
  else if (!strcmp(c, "rao_fixed_frame")) rc = RaoFixedFrameCase();
  else if (!strcmp(c, "hull_rao_particle")) rc = HullRaoParticleCase();
  else if (!strcmp(c, "jacobian_stinger_quat")) rc = JacobianCase(kStinger, "rotation=quaternion");
  else if (!strcmp(c, "jacobian_stinger_euler")) rc = JacobianCase(kStinger, "rotation=euler_zxy");
  else if (!strcmp(c, "jacobian_stinger_moving")) rc = JacobianCase(StingerMoving(fixed, sizeof fixed), "rotation=quaternion");
  else if (!strcmp(c, "element_waves")) rc = ElementWavesCase("rotation=quaternion");
  else if (!strcmp(c, "rest")) rc = RestCase(kBuoy) || RestCase(kBodies);
  else if (!strcmp(c, "outputs"))
    rc = OutputsCase(kSystem, "rotation=quaternion") || OutputsCase(FixedSystem(fixed, sizeof fixed), "rotation=quaternion") ||
         OutputsCase(kSystem, "rotation=euler_zxy");
  else if (!strcmp(c, "split"))
    rc = SplitCase(kSystem, "rotation=quaternion") || SplitCase(kSystem, "rotation=euler_zxy") ||
         SplitCase(FixedSystem(fixed, sizeof fixed), "rotation=quaternion") ||
         SplitCase(FixedSystem(fixed, sizeof fixed), "rotation=euler_zxy");
  else fprintf(stderr, "unknown case '%s'\n", c);
  PetscCall(PetscFinalize());
  return rc || pl_check_failures ? 1 : 0;
}
