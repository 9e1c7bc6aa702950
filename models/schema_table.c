/*
 * schema_table.c - the keys of the model file, one row each: path, type, unit, range,
 * required or default, and a one-line description (PlKeySpec, models.h).
 *
 * This table is the one place that owns each key's default and range. The loader
 * (models/loader*.c) takes from it the keys every mapping allows (the children of a row,
 * in table order, which is the order messages list them in), each number's unit and
 * range, and each default (PlModelInitDefaults, PlSchemaDefault); `pipelay info --keys`
 * prints it and tests/check_docs_keys.py holds docs/model-file.md's key tables to it.
 *
 * Paths: "a.b" a key of a mapping, "a[*]" any item of a list, "ends.*" any key (the
 * per-end rows, bottom and top alike). A row with same_as (lines[*].line, bodies[*]) takes
 * the keys of another path; a row of its own under it (bodies[*].name) wins.
 * Ranges: lo/hi with lo_open/hi_open; every number is besides 0 or within 1e-15 to 1e15
 * in magnitude (docs/model-file.md, "Limits of physically meaningful input").
 */
#include <math.h>
#include <stddef.h>

#include "pipelay/fatigue.h"
#include "pipelay/models.h"
#include "schema.h"

/* choices, in the order of the enums the readers map them to */
const char *const PlChoiceNoYes[] = {"false", "true", NULL};
const char *const PlChoiceRotations[] = {"quaternion", "euler_zxy", NULL};
const char *const PlChoiceSeabedModels[] = {"none", "nonlinear", "linear", NULL};
const char *const PlChoiceCurrentProfiles[] = {"none", "uniform", "sheared", "table", NULL};
const char *const PlChoiceMotionTypes[] = {"harmonic", "circle", "timeseries", "route", NULL};
const char *const PlChoiceCircleDirections[] = {"counter_clockwise", "clockwise", NULL};
const char *const PlChoiceInterpolations[] = {"linear", "cubic", NULL};
const char *const PlChoiceAnalysisTypes[] = {"static", "dynamic", NULL};
const char *const PlChoiceGuesses[] = {"catenary", "straight", NULL};
const char *const PlChoiceRestShapes[] = {"sections", "start", NULL};
const char *const PlChoiceVesselAxes[] = {"pipelay", "fossen_ned", NULL};
const char *const PlChoiceHangOffKinds[] = {"fixed", "hinge", NULL};
const char *const PlChoiceZReferences[] = {"sea_level", "seabed", NULL};
const char *const PlChoiceLoadFrames[] = {"global", "body", NULL};
const char *const PlChoiceRefTypes[] = {"fixed", "circle", "line", "waypoints", "route", NULL};
const char *const PlChoiceHeadings[] = {"fixed", "along_path", NULL};
const char *const PlChoiceJointTypes[] = {"spherical", "revolute", "prismatic", "fixed", NULL};
const char *const PlChoiceWaveKinds[] = {"airy", "stream", "jonswap", "pm", "table", "series", NULL};
const char *const PlChoiceStretchings[] = {"vertical", "wheeler", "extrapolation", NULL};
const char *const PlChoiceRaoFormats[] = {"csv", "wamit4", NULL};
const char *const PlChoiceRaoPhases[] = {"lag", "lead", NULL};          /* PlRaoPhase */
const char *const PlChoiceRaoHeadings[] = {"towards", "from", NULL};    /* PlRaoHeading */
const char *const PlChoiceRaoRotations[] = {"deg", "rad", NULL};        /* PlRaoRotation */
/* the S-N curves and environments of DNV-RP-C203 (include/pipelay/fatigue.h: their order is
 * PlSNCurve's and PlSNEnvironment's; output/fatigue.c holds the tables) */
const char *const PlSNCurveNames[] = {"B1", "B2", "C", "C1", "C2", "D", "E", "F", "F1", "F3", "G", "W1", "W2", "W3", NULL};
const char *const PlSNEnvironmentNames[] = {"air", "seawater_cp", "free_corrosion", NULL};
/* the design: block's choices (include/pipelay/design.h: in PlDnvSafetyClass's and
 * PlDnvFabrication's order) */
const char *const PlDnvSafetyClassNames[] = {"low", "medium", "high", NULL};
const char *const PlDnvFabricationNames[] = {"seamless", "uo_tro_erw", "uoe", NULL};

/* ranges: lo, hi, lo_open, hi_open */
#define R_POS 0.0, INFINITY, true, false     /* > 0 */
#define R_NONNEG 0.0, INFINITY, false, false /* >= 0 */
#define R_ANY -INFINITY, INFINITY, false, false
#define R_ANGLE -360.0, 360.0, false, false  /* [deg] an orientation, direction or phase */
#define R_SLOPE 0.0, 45.0, false, true       /* [deg] a seabed slope: 0 to below 45 */
#define R_INCLINE -90.0, 90.0, true, true    /* [deg] a slope below the horizontal, not vertical */
#define R_FRAC 0.0, 1.0, true, true          /* a relative tolerance */
#define R_KS 0.0, 1.0, true, false           /* a shear coefficient */
#define R_NU -1.0, 0.5, true, true           /* a Poisson's ratio */
#define R_FORCE -1e12, 1e12, false, false    /* [N] a load: 10^5 x the largest lay tensions */
#define R_MOMENT -1e13, 1e13, false, false   /* [N m] */
#define R_ATLEAST1 1.0, INFINITY, false, false /* >= 1 (a stress concentration factor) */
#define R_TENSION 0.0, 1e12, true, false     /* [N] a tension to reach: > 0, R_FORCE's bound */
#define R_TILT 0.0, 90.0, true, true         /* [deg] a line's angle from the horizontal */

#define REQ PL_KEY_REQUIRED
#define DEF PL_KEY_DEFAULT
#define OPT PL_KEY_OPTIONAL
#define CND PL_KEY_CONDITIONAL

/* one row of each type */
#define NUM(p, u, R, need, def, dt, d) {p, PL_KEY_NUMBER, u, R, 0, need, def, dt, NULL, NULL, d}
#define INT(p, lo, hi, need, def, dt, d)                                                      \
  {p, PL_KEY_INTEGER, "-", lo, hi, false, false, 0, need, def, dt, NULL, NULL, d}
#define STR(p, need, dt, d) {p, PL_KEY_STRING, "-", R_ANY, 0, need, NAN, dt, NULL, NULL, d}
#define CHO(p, ch, need, def, dt, d) {p, PL_KEY_CHOICE, "-", R_ANY, 0, need, def, dt, ch, NULL, d}
#define BOOL(p, def, dt, d)                                                                   \
  {p, PL_KEY_BOOL, "-", R_ANY, 0, PL_KEY_DEFAULT, def, dt, PlChoiceNoYes, NULL, d}
#define VEC(p, u, R, need, dt, d) {p, PL_KEY_VEC3, u, R, 3, need, NAN, dt, NULL, NULL, d}
#define LST(p, u, R, n, need, dt, d) {p, PL_KEY_LIST, u, R, n, need, NAN, dt, NULL, NULL, d}
#define MAT(p, u, n, need, dt, d) {p, PL_KEY_MATRIX, u, R_ANY, n, need, NAN, dt, NULL, NULL, d}
#define ROWS(p, u, need, dt, d) {p, PL_KEY_ROWS, u, R_ANY, 0, need, NAN, dt, NULL, NULL, d}
#define NAMES(p, need, dt, d) {p, PL_KEY_NAMES, "-", R_ANY, 0, need, NAN, dt, NULL, NULL, d}
#define MAP(p, need, dt, d) {p, PL_KEY_MAP, "-", R_ANY, 0, need, NAN, dt, NULL, NULL, d}
#define MAPS(p, need, dt, d) {p, PL_KEY_MAPS, "-", R_ANY, 0, need, NAN, dt, NULL, NULL, d}
#define SAME(p, t, need, dt, as, d) {p, t, "-", R_ANY, 0, need, NAN, dt, NULL, as, d}

/* the circle keys, of an end's motion and of a DP reference (radius and period, then the
 * ramps, hold and direction; each list gives its start_time between them) */
#define CIRCLE_A(P)                                                                           \
  NUM(P ".radius", "m", R_POS, REQ, NAN, "required", "circle: the radius the end moves on"), \
  NUM(P ".period", "s", R_POS, REQ, NAN, "required", "circle: time for one turn")
#define CIRCLE_B(P)                                                                           \
  NUM(P ".ramp_up", "s", R_NONNEG, DEF, 0.0, "0", "circle: time the radius grows over"),     \
  NUM(P ".hold", "s", R_NONNEG, REQ, NAN, "required", "circle: time at the full radius"),    \
  NUM(P ".ramp_down", "s", R_NONNEG, DEF, 0.0, "0", "circle: time the radius shrinks over"), \
  CHO(P ".direction", PlChoiceCircleDirections, DEF, 0, "`counter_clockwise`",               \
      "circle: the sense of turning, seen from above")

const PlKeySpec PlSchemaTable[] = {
    /* ---- the top level ---- */
    STR("name", DEF, "the file's base name", "free text for reports"),
    MAP("environment", REQ, "required", "water and gravity"),
    MAP("line", CND, "required", "a one-line model's length and cross-sections"),
    MAP("seabed", DEF, "`{model: nonlinear}`", "seabed contact law"),
    MAP("current", OPT, "none", "current profile (static and dynamic analyses)"),
    MAP("waves", OPT, "none (calm sea)", "waves: their kinematics load the lines in dynamic analyses"),
    MAP("mesh", CND, "required", "element count or size of the line"),
    CHO("rotation", PlChoiceRotations, DEF, 0, "`quaternion`",
        "how the nodes' rotations are parametrised"),
    MAP("ends", CND, "required", "boundary conditions and loads at S = 0 and S = L"),
    MAP("lay", OPT, "none", "the lay: its route on the seabed (a one-line model)"),
    MAP("analysis", DEF, "all defaults", "solver settings; type: dynamic for a time-domain run"),
    MAP("output", DEF, "all defaults", "where results go; output points of a dynamic run"),
    MAP("vessel", OPT, "none", "a 6-DOF vessel the top end hangs from (or the one body)"),
    MAPS("bodies", OPT, "none", "rigid bodies of a model without line: or of lines:"),
    MAPS("joints", OPT, "none", "joints between bodies, or a body and the ground"),
    MAPS("lines", OPT, "none", "several named lines instead of line, mesh and ends"),
    MAPS("points", OPT, "none", "the connection points of lines:"),
    MAP("design", OPT, "none", "pressures and the DNV-ST-F101 code check of every line (post-processing)"),
    MAP("fatigue", OPT, "none", "Miner damage of a dynamic run's line points (fatigue.csv)"),
    MAP("stinger", OPT, "none", "an S-lay stinger's rollers under a line of lines:"),
    MAP("operability", OPT, "none", "the limits of pipelay operability's sea states (criteria of each case)"),

    /* ---- environment ---- */
    NUM("environment.water_depth", "m", R_POS, REQ, NAN, "required",
        "depth of the seabed below mean sea level"),
    NUM("environment.water_density", "kg/m^3", R_POS, DEF, 1025.0, "1025", "sea water density"),
    NUM("environment.gravity", "m/s^2", R_POS, DEF, 9.80665, "9.80665",
        "acceleration of gravity"),

    /* ---- line and its sections ---- */
    NUM("line.length", "m", R_POS, REQ, NAN, "required", "total unstretched length L"),
    MAPS("line.sections", REQ, "required", "1 or more sections from the bottom end (S = 0) up"),
    CHO("line.rest_shape", PlChoiceRestShapes, DEF, 0, "`sections`",
        "stress-free shape: the sections' (straight or curved at rest) or the start shape"),
    NUM("line.sections[*].length", "m", R_POS, CND, NAN, "required, except on the last section",
        "length of the section (the last one may take the rest)"),
    NUM("line.sections[*].outer_diameter", "m", R_POS, REQ, NAN, "required",
        "outer diameter: buoyancy and seabed contact"),
    NUM("line.sections[*].hydrodynamic_diameter", "m", R_POS, DEF, NAN, "`outer_diameter`",
        "drag and added-mass diameter"),
    NUM("line.sections[*].wall_thickness", "m", R_POS, REQ, NAN, "required",
        "pipe form: wall thickness, less than half the outer diameter"),
    MAP("line.sections[*].material", REQ, "required", "pipe form: the wall material"),
    NUM("line.sections[*].contents_density", "kg/m^3", R_NONNEG, DEF, 0.0, "0",
        "pipe form: density of the fluid in the bore"),
    NUM("line.sections[*].shear_coefficient", "-", R_KS, DEF, 0.5, "0.5",
        "pipe form: shear correction factor k_s"),
    NUM("line.sections[*].EA", "N", R_POS, REQ, NAN, "required", "explicit form: axial stiffness"),
    NUM("line.sections[*].EI", "N m^2", R_POS, CND, NAN, "required, unless `EI2` and `EI3`",
        "explicit form: bending stiffness about both axes"),
    NUM("line.sections[*].EI2", "N m^2", R_POS, CND, NAN, "give both instead of `EI`",
        "explicit form: bending stiffness about t2"),
    NUM("line.sections[*].EI3", "N m^2", R_POS, CND, NAN, "give both instead of `EI`",
        "explicit form: bending stiffness about t3"),
    NUM("line.sections[*].GJ", "N m^2", R_POS, REQ, NAN, "required", "explicit form: torsional stiffness"),
    NUM("line.sections[*].GA", "N", R_POS, DEF, NAN, "0.5 EA / (2 (1 + 0.3))",
        "explicit form: shear stiffness GA2 = GA3"),
    NUM("line.sections[*].mass_per_length", "kg/m", R_POS, REQ, NAN, "required",
        "explicit form: mass per length, contents included"),
    VEC("line.sections[*].rotary_inertia", "kg m", R_POS, OPT, "from `radius_of_gyration`",
        "explicit form: [J1, J2, J3] per length"),
    NUM("line.sections[*].radius_of_gyration", "m", R_POS, OPT, NAN, "(see above)",
        "explicit form: J1 = m r^2, J2 = J3 = J1/2"),
    MAP("line.sections[*].hydrodynamics", DEF, "all defaults",
        "Morison coefficients and rotational damping"),
    BOOL("line.sections[*].buoyant", 0, "false", "the section may float (a buoyancy section)"),
    VEC("line.sections[*].curvature", "1/m", R_ANY, DEF, "[0, 0, 0]",
        "stress-free curvature in the section's axes [twist, about t2, about t3]"),
    NUM("line.sections[*].bend_radius", "m", R_POS, OPT, NAN, "none (straight at rest)",
        "stress-free bend radius about `bend_normal` (instead of `curvature`)"),
    VEC("line.sections[*].bend_normal", "-", R_ANY, CND, "required with `bend_radius`",
        "global axis the rest shape turns about (normal of the bend's plane)"),
    CHO("line.sections[*].sn_curve", PlSNCurveNames, OPT, 0, "`fatigue.sn_curve`",
        "the section's own S-N curve (fatigue:)"),
    NUM("line.sections[*].scf", "-", R_ATLEAST1, OPT, NAN, "`fatigue.scf`",
        "the section's own stress concentration factor (fatigue:)"),
    NUM("line.sections[*].axial_damping", "N s", R_NONNEG, DEF, 0.0, "0",
        "structural (Kelvin-Voigt) axial damping c_a: an axial force c_a times the strain rate"),
    NUM("line.sections[*].material.youngs_modulus", "Pa", R_POS, REQ, NAN, "required",
        "Young's modulus E"),
    NUM("line.sections[*].material.shear_modulus", "Pa", R_POS, CND, NAN,
        "give exactly one of the two", "shear modulus G"),
    NUM("line.sections[*].material.poissons_ratio", "-", R_NU, CND, NAN,
        "give exactly one of the two", "Poisson's ratio: G = E / (2 (1 + nu))"),
    NUM("line.sections[*].material.density", "kg/m^3", R_POS, REQ, NAN, "required",
        "density of the wall"),
    NUM("line.sections[*].hydrodynamics.drag_normal", "-", R_NONNEG, DEF, 1.0, "1.0",
        "normal drag coefficient C_dn"),
    NUM("line.sections[*].hydrodynamics.drag_tangential", "-", R_NONNEG, DEF, 0.0, "0.0",
        "tangential drag coefficient C_dt"),
    NUM("line.sections[*].hydrodynamics.drag_axial_skin", "-", R_NONNEG, OPT, NAN, "none (`drag_tangential`)",
        "C_dz on the skin area pi d (OrcaFlex's axial Cd, MoorDyn's CdAx): C_dt = pi C_dz"),
    NUM("line.sections[*].hydrodynamics.added_mass_normal", "-", R_NONNEG, DEF, 0.0, "0.0",
        "normal added-mass coefficient C_an"),
    NUM("line.sections[*].hydrodynamics.added_mass_tangential", "-", R_NONNEG, DEF, 0.0, "0.0",
        "tangential added-mass coefficient C_at"),
    VEC("line.sections[*].hydrodynamics.rotational_damping", "N s", R_NONNEG, DEF, "[0, 0, 0]",
        "[D4, D5, D6]: rotational damping per length about t1, t2, t3"),

    /* ---- seabed ---- */
    CHO("seabed.model", PlChoiceSeabedModels, DEF, 1, "`nonlinear`", "seabed contact law"),
    NUM("seabed.stiffness", "N/m^2", R_POS, CND, NAN, "required for `linear`",
        "linear model: stiffness per length of pipe"),
    NUM("seabed.damping", "N s/m^2", R_NONNEG, DEF, NAN, "0.5 of critical, per section",
        "contact damping per length of pipe, along the seabed's normal (default 2 zeta sqrt(k m), zeta = 0.5)"),
    MAP("seabed.slope", OPT, "none (flat)", "a sloped plane through (0, 0, -water_depth)"),
    NUM("seabed.slope.angle", "deg", R_SLOPE, REQ, NAN, "required",
        "beta: the plane's slope, 0 to below 45"),
    NUM("seabed.slope.direction", "deg", R_ANGLE, DEF, 0.0, "0",
        "psi: the direction the seabed rises towards, from +x towards +y"),
    MAP("seabed.bathymetry", OPT, "none (a plane)", "measured depths on a grid (not with `slope`)"),
    STR("seabed.bathymetry.file", REQ, "required",
        "CSV `x,y,depth` (m) on a regular grid, relative to the model file"),
    MAP("seabed.friction", OPT, "none (frictionless)", "Coulomb friction, elastic-slip"),
    NUM("seabed.friction.axial", "-", R_NONNEG, REQ, NAN, "required", "mu_a: the axial friction coefficient"),
    NUM("seabed.friction.lateral", "-", R_NONNEG, REQ, NAN, "required", "mu_l: the lateral friction coefficient"),
    NUM("seabed.friction.mobilisation_axial", "m", R_POS, DEF, 0.005, "0.005",
        "delta_a: the axial slip at which the friction is mobilised"),
    NUM("seabed.friction.mobilisation_lateral", "m", R_POS, OPT, NAN, "0.1 outer_diameter",
        "delta_l: the lateral slip at which the friction is mobilised"),

    /* ---- current ---- */
    CHO("current.profile", PlChoiceCurrentProfiles, REQ, 0, "required", "the profile U(z)"),
    NUM("current.direction", "deg", R_ANGLE, DEF, 0.0, "0",
        "direction the water flows towards, from +x towards +y"),
    NUM("current.speed", "m/s", R_NONNEG, CND, NAN, "required for `uniform`", "uniform: the speed"),
    NUM("current.surface_speed", "m/s", R_NONNEG, CND, NAN, "required for `sheared`",
        "sheared: the speed at z = 0"),
    NUM("current.seabed_speed", "m/s", R_NONNEG, CND, NAN, "required for `sheared`",
        "sheared: the speed at the seabed"),
    ROWS("current.table", "m, m/s", CND, "required for `table`",
         "table: 2 or more rows [z, speed], z <= 0 increasing, speed >= 0"),
    NUM("current.start_time", "s", R_NONNEG, DEF, 0.0, "0", "the current is off before"),
    NUM("current.ramp_time", "s", R_NONNEG, DEF, 0.0, "0", "time the current ramps in over"),

    /* ---- waves ---- */
    CHO("waves.stretching", PlChoiceStretchings, DEF, 0, "`vertical`",
        "the linear kinematics above z = 0, up to the surface: vertical, wheeler or extrapolation"),
    MAPS("waves.trains", REQ, "required", "1 or more wave trains, superposed"),
    NUM("waves.ramp_time", "s", R_NONNEG, DEF, 0.0, "0",
        "the bodies' RAO motion ramps in over it from t = 0 (C^2, 10r^3 - 15r^4 + 6r^5); > 0 with raos"),
    ROWS("waves.probes", "m", OPT, "none", "points [x, y] (global) whose surface elevation waves.csv records"),
    CHO("waves.trains[*].kind", PlChoiceWaveKinds, REQ, 0, "required",
        "airy, stream (regular), jonswap, pm, table (spectra) or series (a measured record)"),
    NUM("waves.trains[*].heading", "deg", R_ANGLE, DEF, 0.0, "0",
        "direction the waves travel towards, from +x towards +y"),
    NUM("waves.trains[*].height", "m", R_POS, CND, NAN, "airy: `height` or `amplitude`; stream: required",
        "regular: the height H, crest to trough"),
    NUM("waves.trains[*].amplitude", "m", R_POS, CND, NAN, "airy: `height` or `amplitude`",
        "airy: the amplitude a = H/2"),
    NUM("waves.trains[*].period", "s", R_POS, CND, NAN, "required for `airy` and `stream`",
        "regular: the period T"),
    NUM("waves.trains[*].phase", "deg", R_ANGLE, DEF, 0.0, "0",
        "regular: phi: a crest at the origin at t = phi/omega"),
    INT("waves.trains[*].stream_terms", 4, 64, DEF, 0, "the fewest of 16-64 that converge",
        "stream: the Fourier terms N"),
    NUM("waves.trains[*].hs", "m", R_POS, CND, NAN, "required for `jonswap` and `pm`",
        "the significant wave height H_s"),
    NUM("waves.trains[*].tp", "s", R_POS, CND, NAN, "required for `jonswap` and `pm`",
        "the spectral peak period T_p"),
    NUM("waves.trains[*].gamma", "-", R_POS, DEF, NAN, "DNV's rule from `hs` and `tp`",
        "jonswap: the peak enhancement factor"),
    NUM("waves.trains[*].sigma_a", "-", R_POS, DEF, 0.07, "0.07", "jonswap: the width below omega_p"),
    NUM("waves.trains[*].sigma_b", "-", R_POS, DEF, 0.09, "0.09", "jonswap: the width above omega_p"),
    INT("waves.trains[*].n_components", 1, 100000, DEF, 200, "200",
        "jonswap, pm, table: frequency bins of equal energy"),
    NUM("waves.trains[*].omega_min", "rad/s", R_POS, DEF, NAN, "0.5 omega_p (table: its first row)",
        "jonswap, pm, table: the lowest frequency synthesised"),
    NUM("waves.trains[*].omega_max", "rad/s", R_POS, DEF, NAN,
        "6 omega_p (table: its last row; series: Nyquist)",
        "the highest frequency synthesised (series: the harmonics kept)"),
    INT("waves.trains[*].n_directions", 1, 1000, DEF, 1, "1 (long-crested)",
        "jonswap, pm, table: directions per frequency bin"),
    NUM("waves.trains[*].spreading_s", "-", R_POS, CND, NAN, "required with `n_directions` > 1",
        "the exponent s of the cos^2s spreading"),
    INT("waves.trains[*].seed", 0, 2147483647, CND, NAN, "required for `jonswap`, `pm` and `table`",
        "the random frequencies and phases: the same seed, the same sea"),
    BOOL("waves.trains[*].rayleigh", 0, "`false`", "jonswap, pm, table: Rayleigh amplitudes (else equal ones)"),
    ROWS("waves.trains[*].table", "rad/s, m^2 s/rad", CND, "required for `table`",
         "table: 2 or more rows [omega, S(omega)], omega increasing, S >= 0"),
    STR("waves.trains[*].file", CND, "series: `file` or `elevations`",
        "series: CSV `t,eta` (s, m), evenly spaced t, relative to the model file"),
    LST("waves.trains[*].elevations", "m", R_ANY, 0, CND, "series: `file` or `elevations`",
        "series: the record eta_i (evenly spaced, `dt` apart)"),
    NUM("waves.trains[*].dt", "s", R_POS, CND, NAN, "required with `elevations`",
        "series: the time between elevations"),
    NUM("waves.trains[*].t0", "s", R_ANY, DEF, 0.0, "0", "series with `elevations`: the time of the first"),
    LST("waves.trains[*].reference", "m", R_ANY, 2, DEF, "[0, 0]",
        "series: the point [x, y] (global) where the record was measured"),

    /* ---- mesh ---- */
    INT("mesh.elements", 2, 1000000, CND, NAN, "give exactly one of `elements` and `target_length`",
        "total element count"),
    NUM("mesh.target_length", "m", R_POS, CND, NAN, "give exactly one of the two",
        "element length to aim for (at most line.length / 2)"),
    MAPS("mesh.zones", OPT, "none", "finer zones"),
    NUM("mesh.zones[*].from", "m", R_NONNEG, REQ, NAN, "required",
        "start of the zone, 0 <= from < line.length"),
    NUM("mesh.zones[*].to", "m", R_ANY, REQ, NAN, "required",
        "end of the zone, from < to <= line.length"),
    NUM("mesh.zones[*].target_length", "m", R_POS, REQ, NAN, "required",
        "element length in the zone"),

    /* ---- ends ---- */
    MAP("ends.bottom", REQ, "required", "the end at S = 0"),
    MAP("ends.top", CND, "required", "the end at S = L (left out with a vessel)"),
    VEC("ends.*.position", "m", R_ANY, OPT, "all three free (null)",
        "global x, y, z, each a number or null"),
    CHO("ends.*.z_reference", PlChoiceZReferences, DEF, 0, "`sea_level`",
        "the datum of position's z: the sea level (z = 0) or the seabed under the end (z up from it)"),
    VEC("ends.*.orientation", "deg", R_ANGLE, OPT, "the frame of the initial guess",
        "zxy Euler angles [phi, theta, psi] of the end frame (on a body, fixed: in its axes)"),
    NAMES("ends.*.fixed", DEF, "`none`", "held DOFs: all, none or names from x, y, z, rx, ry, rz"),
    VEC("ends.*.force", "N", R_FORCE, DEF, "[0, 0, 0]", "global dead load"),
    VEC("ends.*.moment", "N m", R_MOMENT, DEF, "[0, 0, 0]",
        "global dead moment"),
    MAP("ends.*.target", OPT, "none",
        "top end of `line:`: `force` scaled (its direction kept) to reach a top tension or hang-off angle"),
    NUM("ends.*.target.tension", "N", R_TENSION, CND, NAN, "required without `angle`",
        "the top tension to reach (the line's force on its top end)"),
    NUM("ends.*.target.angle", "deg", R_TILT, CND, NAN, "required without `tension`",
        "the hang-off angle to reach (the top tangent from the horizontal)"),
    MAP("ends.*.motion", OPT, "none", "prescribed motion in a dynamic analysis"),
    MAP("ends.*.payout", OPT, "none", "top end, dynamic: pipe paid out (or in) there"),
    NUM("ends.*.payout.rate", "m/s", R_ANY, CND, NAN, "required without `tension`",
        "a prescribed rate: > 0 paying out, < 0 in"),
    NUM("ends.*.payout.tension", "N", R_POS, CND, NAN, "required without `rate`",
        "tension control: the set tension the tensioner holds"),
    NUM("ends.*.payout.gain", "m/s/N", R_POS, CND, NAN, "required with `tension`",
        "k: the rate commanded per newton of tension above the set one"),
    NUM("ends.*.payout.max_rate", "m/s", R_POS, CND, NAN, "required with `tension`",
        "the largest rate the tensioner pays out or in at"),
    NUM("ends.*.payout.lag", "s", R_POS, DEF, 1.0, "1", "tension: the winch's first-order lag tau"),
    NUM("ends.*.payout.interval", "s", R_POS, DEF, 0.1, "0.1", "tension: the controller's sample interval"),
    NUM("ends.*.payout.filter", "s", R_NONNEG, DEF, 20.0, "20",
        "tension: the load cell's low-pass time constant (0: unfiltered)"),
    NUM("ends.*.payout.start_time", "s", R_NONNEG, DEF, 0.0, "0",
        "when the rate starts to rise (tension: when the controller starts)"),
    NUM("ends.*.payout.ramp_time", "s", R_NONNEG, DEF, 0.0, "0", "`rate`: the rise to it (C^2 ramp)"),
    MAP("lay.route", REQ, "required", "the planned route: waypoints, arcs at the corners"),
    NUM("lay.retire_behind", "m", R_NONNEG, DEF, 0.0, "0 (never)",
        "laid pipe this far behind the touchdown point becomes a fixed end"),
    ROWS("lay.route.points", "m", REQ, "required", "2 or more points [x, y], global, in the lay's order"),
    NUM("lay.route.radius", "m", R_POS, CND, NAN, "required with 3 or more points",
        "the arcs' radius at the inner points"),
    STR("ends.*.point", CND, "none", "lines: the point the end is held at"),
    STR("ends.*.body", CND, "none", "lines: the body the end hangs from"),
    LST("ends.*.at", "m", R_ANY, 3, CND, "required with `body`",
        "lines: the body point the end hangs from, body frame"),
    CHO("ends.*.connection", PlChoiceHangOffKinds, DEF, 1, "`hinge`",
        "lines: an end on a body: hinge, or fixed at `orientation` in the body axes"),
    CHO("ends.*.motion.type", PlChoiceMotionTypes, REQ, 0, "required", "the kind of motion"),
    NUM("ends.*.motion.start_time", "s", R_NONNEG, DEF, 0.0, "0",
        "harmonic and circle: the motion starts then"),
    NUM("ends.*.motion.ramp_time", "s", R_NONNEG, DEF, 0.0, "0",
        "harmonic: time the motion ramps in over"),
    MAP("ends.*.motion.dofs", REQ, "required", "harmonic: the moved DOFs"),
    CIRCLE_A("ends.*.motion"),
    CIRCLE_B("ends.*.motion"),
    STR("ends.*.motion.file", REQ, "required", "timeseries: CSV file, relative to the model file"),
    CHO("ends.*.motion.interpolation", PlChoiceInterpolations, DEF, 0, "`linear`",
        "timeseries: linear or cubic (C^1) between rows"),
    MAP("ends.*.motion.dofs.x", OPT, "none", "harmonic motion along global x"),
    MAP("ends.*.motion.dofs.y", OPT, "none", "harmonic motion along global y"),
    MAP("ends.*.motion.dofs.z", OPT, "none", "harmonic motion along global z"),
    MAP("ends.*.motion.dofs.rx", OPT, "none", "harmonic rotation about t1"),
    MAP("ends.*.motion.dofs.ry", OPT, "none", "harmonic rotation about t2"),
    MAP("ends.*.motion.dofs.rz", OPT, "none", "harmonic rotation about t3"),
    NUM("ends.*.motion.dofs.x.amplitude", "m", R_ANY, REQ, NAN, "required", "amplitude along x"),
    NUM("ends.*.motion.dofs.y.amplitude", "m", R_ANY, REQ, NAN, "required", "amplitude along y"),
    NUM("ends.*.motion.dofs.z.amplitude", "m", R_ANY, REQ, NAN, "required", "amplitude along z"),
    NUM("ends.*.motion.dofs.rx.amplitude", "deg", R_ANGLE, REQ, NAN, "required", "amplitude about t1"),
    NUM("ends.*.motion.dofs.ry.amplitude", "deg", R_ANGLE, REQ, NAN, "required", "amplitude about t2"),
    NUM("ends.*.motion.dofs.rz.amplitude", "deg", R_ANGLE, REQ, NAN, "required", "amplitude about t3"),
    NUM("ends.*.motion.dofs.*.period", "s", R_POS, REQ, NAN, "required", "period"),
    NUM("ends.*.motion.dofs.*.phase", "deg", R_ANGLE, DEF, 0.0, "0", "phase"),

    /* ---- analysis ---- */
    CHO("analysis.type", PlChoiceAnalysisTypes, DEF, 0, "`static`", "static or dynamic"),
    INT("analysis.load_steps", 1, 1000000, DEF, 1, "1", "initial number of load increments"),
    INT("analysis.max_cutbacks", 0, 60, DEF, 10, "10", "halvings of a failed Newton increment"),
    INT("analysis.max_iterations", 1, 1000000, DEF, 50, "50", "Newton iterations per load step"),
    NUM("analysis.rtol", "-", R_FRAC, DEF, 1e-10, "1e-10", "relative residual tolerance"),
    NUM("analysis.atol", "N", R_NONNEG, DEF, 0.0, "0", "absolute residual tolerance (0: automatic)"),
    CHO("analysis.initial_guess", PlChoiceGuesses, DEF, 0, "`catenary`", "start shape"),
    STR("analysis.start_from", OPT, "none", "a previous run's output directory: its static shape"),
    STR("analysis.petsc_options", DEF, "`\"\"`", "extra PETSc options"),
    MAP("analysis.dynamic", CND, "required with `type: dynamic`", "settings of the time integration"),
    NUM("analysis.dynamic.duration", "s", R_POS, REQ, NAN, "required", "simulated time"),
    NUM("analysis.dynamic.output_interval", "s", R_POS, DEF, 0.1, "0.1", "time between output rows"),
    NUM("analysis.dynamic.rtol", "-", R_FRAC, DEF, 1e-4, "1e-4 (1e-7 without a line)", "relative tolerance"),
    NUM("analysis.dynamic.atol_position", "m", R_POS, DEF, 1e-5, "1e-5 (1e-8 without a line)",
        "absolute tolerance on displacements"),
    NUM("analysis.dynamic.atol_rotation", "-", R_POS, DEF, 1e-5, "1e-5 (1e-8 without a line)",
        "absolute tolerance on rotation parameters"),
    NUM("analysis.dynamic.atol_velocity", "m/s", R_POS, DEF, 1e-3, "1e-3 (1e-6 without a line)",
        "absolute tolerance on velocities"),
    NUM("analysis.dynamic.atol_angular_velocity", "rad/s", R_POS, DEF, 1e-3, "1e-3 (1e-6 without a line)",
        "absolute tolerance on angular velocities"),
    NUM("analysis.dynamic.max_step", "s", R_NONNEG, DEF, 0.0, "0", "largest time step (0: no limit)"),
    NUM("analysis.dynamic.initial_step", "s", R_NONNEG, DEF, 0.0, "0",
        "first time step (0: chosen by IDA)"),
    INT("analysis.dynamic.max_order", 1, 5, DEF, 2, "2 (5 without a line)",
        "highest BDF order; at most 2 with a line (BDF3-5 are not A-stable), up to 5 for rigid bodies alone"),
    INT("analysis.dynamic.max_steps", 1, 2147483647, DEF, 1000000, "1000000", "time steps allowed"),
    NUM("analysis.dynamic.atol_strain", "-", R_POS, DEF, 5e-7, "5e-7",
        "absolute tolerance on each element's strain"),
    NUM("analysis.dynamic.atol_reaction", "N", R_POS, DEF, 1.0, "1",
        "absolute tolerance of joint reactions"),

    /* ---- design: pressures and the code check (output only: the solution does not change) ---- */
    NUM("design.internal_pressure", "Pa", R_ANY, DEF, 0.0, "0",
        "p_ref: the internal (gauge) pressure at the level `internal_pressure_level`"),
    NUM("design.internal_pressure_level", "m", R_ANY, DEF, 0.0, "0",
        "z_ref: where p_ref is given; below it p_i = p_ref + rho_c g (z_ref - z), rho_c the section's contents_density"),
    MAP("design.dnv_f101", OPT, "none (pressures and stresses only)", "the DNV-ST-F101 local-buckling check"),
    NUM("design.dnv_f101.smys", "Pa", R_POS, REQ, NAN, "required", "SMYS: specified minimum yield stress"),
    NUM("design.dnv_f101.smts", "Pa", R_POS, REQ, NAN, "required", "SMTS: specified minimum tensile strength"),
    NUM("design.dnv_f101.yield_derating", "Pa", R_NONNEG, DEF, 0.0, "0",
        "f_y,temp: the yield stress's derating at the design temperature"),
    NUM("design.dnv_f101.tensile_derating", "Pa", R_NONNEG, DEF, 0.0, "0",
        "f_u,temp: the tensile strength's derating at the design temperature"),
    BOOL("design.dnv_f101.supplementary_u", 0, "false", "supplementary requirement U: alpha_U = 1.0 (else 0.96)"),
    CHO("design.dnv_f101.safety_class", PlDnvSafetyClassNames, DEF, 1, "`medium`",
        "gamma_SC 1.04 / 1.14 / 1.26 and gamma_eps 2.0 / 2.5 / 3.3"),
    CHO("design.dnv_f101.fabrication", PlDnvFabricationNames, DEF, 0, "`seamless`",
        "alpha_fab 1.0 / 0.93 / 0.85"),
    NUM("design.dnv_f101.corrosion_allowance", "m", R_NONNEG, DEF, 0.0, "0", "t_corr: t2 = t - t_corr"),
    NUM("design.dnv_f101.ovality", "-", R_NONNEG, DEF, 0.005, "0.005", "f0: the out-of-roundness (at least 0.005 is used)"),
    NUM("design.dnv_f101.alpha_h", "-", R_KS, DEF, 0.93, "0.93",
        "alpha_h: the largest allowed Rt0.5/Rm (strain hardening, DCC)"),
    NUM("design.dnv_f101.condition_factor", "-", R_POS, DEF, 1.0, "1",
        "gamma_C outside the zones"),
    MAPS("design.dnv_f101.zones", OPT, "none", "gamma_C along arc-length zones (at most 32)"),
    NUM("design.dnv_f101.zones[*].from", "m", R_NONNEG, REQ, NAN, "required", "arc length where the zone starts"),
    NUM("design.dnv_f101.zones[*].to", "m", R_NONNEG, REQ, NAN, "required", "arc length where it ends (> from)"),
    NUM("design.dnv_f101.zones[*].condition_factor", "-", R_POS, REQ, NAN, "required", "gamma_C in the zone"),

    /* ---- output ---- */
    STR("output.directory", DEF, "the file's base name without its extension",
        "the output directory"),
    MAPS("output.points", OPT, "none", "named points along the line or lines (dynamic)"),
    NUM("output.checkpoint_interval", "s", R_NONNEG, DEF, 10.0, "10",
        "wall-clock time between checkpoints of a dynamic run"),
    NUM("output.statistics_start", "s", R_NONNEG, DEF, 0.0, "0",
        "the time from which a dynamic run's statistics are taken (statistics.csv)"),
    NUM("output.vtk_interval", "s", R_NONNEG, DEF, 1.0, "1",
        "simulated time between ParaView frames of a dynamic run: a multiple of "
        "analysis.dynamic.output_interval (the default 1 s is rounded to the nearest one); 0: every output"),
    /* ---- fatigue ---- */
    CHO("fatigue.sn_curve", PlSNCurveNames, REQ, 0, "required", "the DNV-RP-C203 S-N curve"),
    CHO("fatigue.environment", PlSNEnvironmentNames, DEF, 1, "`seawater_cp`",
        "the S-N curve's environment: air, seawater with cathodic protection, free corrosion"),
    NUM("fatigue.scf", "-", R_ATLEAST1, DEF, 1.0, "1", "stress concentration factor"),
    INT("fatigue.angles", 4, 360, DEF, 16, "16", "points around the circumference"),
    NUM("fatigue.exposure", "s/year", R_POS, OPT, NAN, "none",
        "the time per year the run's conditions act: damage per year and life"),
    /* ---- operability ---- */
    NUM("operability.max_utilisation", "-", R_POS, OPT, NAN, "1 with `design.dnv_f101`, else none",
        "the largest DNV-ST-F101 utilisation of an operable sea state"),
    NUM("operability.max_top_tension", "N", R_POS, OPT, NAN, "none", "the largest top tension of an operable sea state"),
    NUM("operability.min_effective_tension", "N", R_FORCE, OPT, NAN, "none",
        "the least effective tension along the line of an operable sea state"),
    NUM("operability.max_fibre_strain", "-", R_POS, OPT, NAN, "none",
        "the largest fibre strain of an operable sea state"),
    INT("operability.n_components", 1, 100000, DEF, 200, "200", "frequency bins of each sea state's JONSWAP train"),
    INT("operability.seed", 0, 2147483647, DEF, 1, "1", "the sea states' seed when the table has no seed column"),

    STR("output.points[*].name", REQ, "required", "the point's name: A-Z, a-z, 0-9, _ and -"),
    NUM("output.points[*].arc_length", "m", R_NONNEG, REQ, NAN, "required",
        "arc length from the bottom end, at most the line's length"),
    STR("output.points[*].line", CND, "required with `lines:`", "the name of the line the point is on"),

    /* ---- vessel (and every item of bodies:) ---- */
    STR("vessel.name", DEF, "`\"\"`", "free text"),
    CHO("vessel.axes", PlChoiceVesselAxes, DEF, 0, "`pipelay`", "body axes of the body-frame data"),
    NUM("vessel.mass", "kg", R_POS, CND, NAN, "required, unless `mass_matrix` is given",
        "the body's mass"),
    LST("vessel.centre_of_gravity", "m", R_ANY, 3, DEF, "[0, 0, 0]", "r_g from O_b, body frame"),
    LST("vessel.radii_of_gyration", "m", R_POS, 3, CND,
        "give exactly one of `radii_of_gyration` and `inertia` with `mass`",
        "[r_x, r_y, r_z] about the centre of gravity"),
    MAT("vessel.inertia", "kg m^2", 3, CND, "(see above)",
        "I_g about the centre of gravity, body axes"),
    MAT("vessel.mass_matrix", "kg, kg m, kg m^2", 6, CND, "instead of `mass`",
        "the total 6x6 mass matrix about O_b"),
    MAT("vessel.added_mass", "kg, kg m, kg m^2", 6, DEF, "0", "6x6 added mass A(infinity)"),
    MAT("vessel.linear_damping", "N s/m, N s, N m s", 6, DEF, "0", "6x6 linear damping D_p"),
    LST("vessel.quadratic_damping", "N s^2/m^2, N m s^2", R_NONNEG, 6, DEF, "[0, 0, 0, 0, 0, 0]",
        "quadratic damping d_i |nu_i| per DOF"),
    MAP("vessel.restoring", OPT, "none", "hydrostatic restoring"),
    MAP("vessel.spring", OPT, "none", "a linear spring on O_b"),
    MAP("vessel.yaw_spring", OPT, "none", "a spring on the heading (a crowfoot mooring's yaw stiffness)"),
    MAPS("vessel.hull", OPT, "none", "sections of a slender hull along the body z axis: Morison drag in the current"),
    NUM("vessel.norm_rate", "1/s", R_POS, DEF, 1.0, "max(1, 100 w0)",
        "rate of the quaternion's unit-norm term (w0: the initial spin, rad/s)"),
    MAP("vessel.initial", REQ, "required", "initial pose and velocities"),
    MAP("vessel.hang_off", CND, "required", "where and how the line hangs from the vessel"),
    MAP("vessel.environment_load", OPT, "none", "environmental force and moment"),
    MAP("vessel.dp", OPT, "none", "the DP controller"),
    MAP("vessel.raos", OPT, "none", "displacement RAOs: the body's first-order motion in the waves (dynamic)"),
    STR("vessel.raos.file", REQ, "required", "the RAO table (relative to the model file)"),
    CHO("vessel.raos.format", PlChoiceRaoFormats, DEF, 0, "`csv`",
        "csv (heading,period,dof,amplitude,phase rows) or wamit4 (WAMIT's .4 file)"),
    CHO("vessel.raos.phase", PlChoiceRaoPhases, CND, 0, "required for `csv`",
        "the table's phases: lag (the motion's peak after the crest) or lead"),
    CHO("vessel.raos.heading", PlChoiceRaoHeadings, CND, 0, "required for `csv`",
        "the table's heading relative to the body's x axis, towards y: the waves' direction of travel (towards) or where they come from (from)"),
    CHO("vessel.raos.rotations", PlChoiceRaoRotations, CND, 0, "required for `csv`",
        "the rotation RAOs' unit: deg or rad per m of wave amplitude"),
    VEC("vessel.raos.origin", "m", R_ANY, REQ, "required", "the RAO origin (whose motion the table gives), body frame from O_b"),
    VEC("vessel.raos.phase_origin", "m", R_ANY, DEF, "`origin`",
        "the point whose crest the phases refer to, body frame from O_b"),
    NUM("vessel.raos.speed", "m/s", R_ANY, DEF, 0.0, "0",
        "forward speed along the body's x axis: the encounter frequency omega - k U cos(beta_r)"),
    NUM("vessel.raos.length_scale", "m", R_POS, CND, NAN, "required for `wamit4`",
        "WAMIT's ULEN: the rotations are divided by it"),
    INT("vessel.raos.body", 1, 1000, DEF, 1, "1", "wamit4: the body of the file (modes 6 (body - 1) + 1..6)"),
    MAP("vessel.excitation", OPT, "none",
        "first-order wave force RAOs: the waves' force and moment on the body (dynamic; not with raos)"),
    STR("vessel.excitation.file", REQ, "required", "the force RAO table, the CSV format of raos (N/m, N m/m)"),
    CHO("vessel.excitation.phase", PlChoiceRaoPhases, REQ, 0, "required", "the table's phases: lag or lead"),
    CHO("vessel.excitation.heading", PlChoiceRaoHeadings, REQ, 0, "required",
        "the table's heading relative to the body's x axis: towards or from"),
    VEC("vessel.excitation.origin", "m", R_ANY, REQ, "required",
        "the point the table's moments are about, body frame from O_b"),
    VEC("vessel.excitation.phase_origin", "m", R_ANY, DEF, "`origin`",
        "the point whose crest the phases refer to, body frame from O_b"),
    NUM("vessel.excitation.speed", "m/s", R_ANY, DEF, 0.0, "0",
        "forward speed along the body's x axis: the encounter frequency"),
    BOOL("vessel.weight", 0, "`false`", "the weight acts at centre_of_gravity"),
    NUM("vessel.restoring.waterplane_area", "m^2", R_POS, OPT, NAN, "none", "A_wp"),
    NUM("vessel.restoring.heave_equilibrium", "m", R_ANY, CND, NAN,
        "required with `waterplane_area`", "z of O_b where the vessel floats"),
    NUM("vessel.restoring.gm_transverse", "m", R_NONNEG, DEF, 0.0, "0", "GM_T, roll"),
    NUM("vessel.restoring.gm_longitudinal", "m", R_NONNEG, DEF, 0.0, "0", "GM_L, pitch"),
    NUM("vessel.restoring.displacement", "kg", R_POS, CND, NAN,
        "required with `gm_transverse` or `gm_longitudinal`", "mass of the displaced water"),
    NUM("vessel.restoring.metacentric_radius", "m", R_NONNEG, OPT, NAN, "none",
        "BM = I_wp/V: the exact wall-sided law of an axisymmetric hull at large angles"),
    MAT("vessel.spring.stiffness", "N/m", 3, REQ, "required", "K_s, global, symmetric"),
    LST("vessel.spring.anchor", "m", R_ANY, 3, REQ, "required", "rest position of O_b, global"),
    NUM("vessel.yaw_spring.stiffness", "N m/rad", R_POS, REQ, NAN, "required",
        "K_psi: the moment -K_psi (psi - psi_0) about the global z axis"),
    NUM("vessel.yaw_spring.heading", "deg", R_ANGLE, DEF, 0.0, "0", "psi_0, the rest heading (yaw)"),
    NUM("vessel.hull[*].top", "m", R_ANY, REQ, NAN, "required", "the section's top, body z"),
    NUM("vessel.hull[*].bottom", "m", R_ANY, REQ, NAN, "required", "the section's bottom, body z (below top)"),
    NUM("vessel.hull[*].diameter", "m", R_POS, REQ, NAN, "required", "diameter at the top"),
    NUM("vessel.hull[*].diameter_bottom", "m", R_POS, DEF, NAN, "`diameter`", "diameter at the bottom (a cone)"),
    NUM("vessel.hull[*].drag_normal", "-", R_NONNEG, DEF, 1.0, "1.0", "C_d across the axis"),
    LST("vessel.initial.position", "m", R_ANY, 3, REQ, "required", "O_b at t = 0, global"),
    LST("vessel.initial.orientation", "deg", R_ANGLE, 3, DEF, "[0, 0, 0]",
        "[roll, pitch, yaw], zyx Euler angles"),
    LST("vessel.initial.velocity", "m/s", R_ANY, 3, DEF, "[0, 0, 0]", "velocity of O_b, body frame"),
    LST("vessel.initial.angular_velocity", "deg/s", R_ANY, 3, DEF, "[0, 0, 0]",
        "angular velocity, body frame"),
    LST("vessel.hang_off.point", "m", R_ANY, 3, REQ, "required", "the hang-off point from O_b, body frame"),
    CHO("vessel.hang_off.connection", PlChoiceHangOffKinds, CND, 0, "required",
        "fixed or hinge (a ball joint)"),
    LST("vessel.hang_off.orientation", "deg", R_ANGLE, 3, CND, "required with `fixed`",
        "zxy Euler angles of the top section's frame, body axes"),
    CHO("vessel.environment_load.frame", PlChoiceLoadFrames, DEF, 0, "`global`",
        "global (dead) or body (follower) load"),
    VEC("vessel.environment_load.force", "N", R_FORCE, DEF, "[0, 0, 0]",
        "constant force"),
    VEC("vessel.environment_load.moment", "N m", R_MOMENT, DEF, "[0, 0, 0]",
        "constant moment"),
    NUM("vessel.environment_load.start_time", "s", R_NONNEG, DEF, 0.0, "0", "the load starts then"),
    NUM("vessel.environment_load.ramp_time", "s", R_NONNEG, DEF, 0.0, "0", "time the load ramps in over"),
    STR("vessel.environment_load.file", OPT, "none", "a CSV time series t,Fx,Fy,Fz,Mx,My,Mz added"),
    LST("vessel.dp.kp", "N/m, N m/rad", R_NONNEG, 6, REQ, "required", "proportional gains"),
    LST("vessel.dp.kd", "N s/m, N m s/rad", R_NONNEG, 6, REQ, "required", "derivative gains"),
    LST("vessel.dp.ki", "N/(m s), N m/(rad s)", R_NONNEG, 6, DEF, "[0, 0, 0, 0, 0, 0]",
        "integral gains"),
    LST("vessel.dp.integral_bound", "m s, rad s", R_NONNEG, 6, DEF, "[0, 0, 0, 0, 0, 0]",
        "bounds of the integral states (0: unbounded)"),
    NUM("vessel.dp.antiwindup_time", "s", R_POS, DEF, 1.0, "1", "anti-windup time constant"),
    NAMES("vessel.dp.actuated", DEF, "[surge, sway, yaw]", "the body-frame DOFs the thrusters act in"),
    LST("vessel.dp.thrust_max", "N, N m", R_NONNEG, 6, DEF, "[0, 0, 0, 0, 0, 0]",
        "largest thrust per DOF (0: no limit)"),
    NUM("vessel.dp.start_time", "s", R_NONNEG, DEF, 0.0, "0", "the controller is off before"),
    NUM("vessel.dp.ramp_time", "s", R_NONNEG, DEF, 0.0, "0", "time the controller blends in over"),
    MAP("vessel.dp.reference", REQ, "required", "the set point or path"),
    CHO("vessel.dp.reference.type", PlChoiceRefTypes, REQ, 0, "required", "the kind of reference"),
    LST("vessel.dp.reference.eta", "m, deg", R_ANY, 6, REQ, "required",
        "set point or start: x, y, z (m), roll, pitch, yaw (deg, -360 to 360)"),
    CIRCLE_A("vessel.dp.reference"),
    NUM("vessel.dp.reference.start_time", "s", R_NONNEG, DEF, 0.0, "0", "the path starts then"),
    CIRCLE_B("vessel.dp.reference"),
    NUM("vessel.dp.reference.speed", "m/s", R_NONNEG, REQ, NAN, "required", "line, route: lay speed"),
    NUM("vessel.dp.reference.course", "deg", R_ANGLE, DEF, 0.0, "0", "line: direction of travel"),
    NUM("vessel.dp.reference.ramp_time", "s", R_NONNEG, DEF, 0.0, "0",
        "line, route: time the speed ramps in over"),
    CHO("vessel.dp.reference.heading", PlChoiceHeadings, DEF, 0, "`fixed`",
        "line, waypoints, route: yaw reference fixed or along the path"),
    NUM("vessel.dp.reference.gain", "-", R_NONNEG, DEF, 4.0, "4",
        "route: the guidance's proportional gain g on the touchdown's offset (time constant 2 T/(1 + g), "
        "T = layback / lay speed)"),
    NUM("vessel.dp.reference.interval", "s", R_POS, DEF, 10.0, "10",
        "route: the guidance's sample interval (the touchdown point measured)"),
    ROWS("vessel.dp.reference.points", "m", REQ, "required", "waypoints: 2 or more points [x, y], global"),
    LST("vessel.dp.reference.speeds", "m/s", R_POS, 0, REQ, "required",
        "waypoints: one speed per leg"),

    /* ---- bodies, joints ---- */
    SAME("bodies[*]", PL_KEY_MAP, REQ, "required", "vessel", "a body: the keys of vessel"),
    STR("bodies[*].name", REQ, "required", "the body's name: letters, digits, _ and -"),
    STR("joints[*].name", REQ, "required", "the joint's name: letters, digits, _ and -"),
    CHO("joints[*].type", PlChoiceJointTypes, REQ, 0, "required", "the kind of joint"),
    NAMES("joints[*].bodies", REQ, "required", "[A, B]: two bodies, or a body and ground"),
    LST("joints[*].point", "m", R_ANY, 3, REQ, "required", "the joint point, global, at the initial poses"),
    LST("joints[*].axis", "-", R_ANY, 3, CND, "required for `revolute` and `prismatic`",
        "hinge axis or sliding direction, global"),

    /* ---- stinger ---- */
    STR("stinger.line", CND, "the only line", "the name of the line it carries"),
    NUM("stinger.radius", "m", R_POS, REQ, NAN, "required", "R: the pipe's centreline radius over the rollers"),
    LST("stinger.start", "m", R_ANY, 3, REQ, "required", "the arc's first point (the pipe's centreline), global"),
    NUM("stinger.heading", "deg", R_ANGLE, DEF, 180.0, "180",
        "the lay's plan direction away from the vessel, from +x towards +y"),
    NUM("stinger.start_angle", "deg", R_INCLINE, DEF, 0.0, "0",
        "the pipe's slope below the horizontal at start"),
    NUM("stinger.spacing", "m", R_POS, CND, NAN, "required without stations", "arc length between rollers"),
    INT("stinger.count", 1, PL_ROLLERS_MAX, CND, 0, "required without stations", "the number of rollers"),
    LST("stinger.stations", "m", R_NONNEG, 0, CND, "spacing and count",
        "the rollers' arc lengths from start, increasing"),
    NUM("stinger.roller_radius", "m", R_POS, DEF, 0.25, "0.25", "the rollers' radius"),
    NUM("stinger.stiffness", "N/m", R_POS, DEF, NAN, "1e-3 EA/d_o of the line's top section",
        "the contact's penalty stiffness"),
    NUM("stinger.damping", "N s/m", R_NONNEG, DEF, 0.0, "0", "the contact's damping along its normal (dynamics)"),
    NUM("stinger.reach", "m", R_POS, DEF, NAN, "`radius`",
        "a pipe crossing a roller's normal deeper than this below its surface is not in contact"),

    /* ---- lines and points ---- */
    STR("lines[*].name", REQ, "required", "the line's name"),
    SAME("lines[*].line", PL_KEY_MAP, REQ, "required", "line", "the keys of line"),
    SAME("lines[*].mesh", PL_KEY_MAP, REQ, "required", "mesh", "the keys of mesh"),
    SAME("lines[*].ends", PL_KEY_MAP, REQ, "required", "ends", "the keys of ends"),
    STR("points[*].name", REQ, "required", "the point's name: letters, digits, _ and -"),
    LST("points[*].position", "m", R_ANY, 3, REQ, "required", "global position"),
    BOOL("points[*].fixed", 0, "`false`", "an anchor (true) or a free point in force balance"),
    NUM("points[*].mass", "kg", R_NONNEG, DEF, 0.0, "0", "a clump weight"),
    NUM("points[*].volume", "m^3", R_NONNEG, DEF, 0.0, "0", "displaced volume (a buoy)"),
    LST("points[*].velocity", "m/s", R_ANY, 3, DEF, "[0, 0, 0]", "a free point's initial velocity"),
    NUM("points[*].drag_area", "m^2", R_NONNEG, DEF, 0.0, "0", "a free point's C_d A (isotropic Morison drag)"),
    NUM("points[*].added_mass_coefficient", "-", R_NONNEG, DEF, 0.0, "0",
        "C_a: a free point's added mass C_a rho_w volume"),
};

const int PlSchemaTableRows = (int)(sizeof PlSchemaTable / sizeof PlSchemaTable[0]);
