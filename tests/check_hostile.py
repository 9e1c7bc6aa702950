#!/usr/bin/python3
"""check_hostile.py - hostile input to the pipelay program: each case gives one clear
message and the documented exit status (README, "Exit statuses").

Usage: check_hostile.py PIPELAY [WORK_DIR]

Runs "pipelay run" on generated inputs in WORK_DIR (default: a new temporary directory,
removed when every case passes): NaN, infinities and out-of-range numbers; negative, huge
and too small element counts; loads that are not physically meaningful; empty, blank and
binary files; deep nesting, a node bomb and a 20 MiB file; anchors (accepted) and aliases
(refused); duplicate keys; a current table out of order; a time-series file that is
missing, malformed, not finite, binary or a directory; bad --set overrides; an unreadable
model file; an output directory that cannot be made (a path under a regular file: chmod
does not stop root); the vessel's keys (missing, mistyped and out-of-range values, matrices
that are not symmetric positive definite, a hinge with an orientation, ends.top beside a
vessel, a DP controller without a reference, one waypoint, its time series); and the other
exit statuses, 3 (no convergence) and 5 (SIGINT).

A model error must leave exactly one line on stderr, "FILE:LINE:COL: key: text", whose
"FILE:LINE:COL: key: " equals the expectation and whose text contains the expected words;
an I/O error exactly one line "pipelay: ..." naming the path. Quiet on success apart from
a closing count; one line per failed case on failure (exit status 1).
"""
import concurrent.futures
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

PIPELAY = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else None
FAILED = []
PASSED = [0]

# A small static model (the J-lay of examples/jlay_900m.yaml on 99 elements); line numbers
# of the expectations below count from its first line.
STATIC = """\
environment:
  water_depth: 900
  water_density: 1025
line:
  length: 1500
  sections:
    - outer_diameter: 0.762
      wall_thickness: 0.033
      material: {youngs_modulus: 206e9, shear_modulus: 7.9231e10, density: 7850}
mesh:
  elements: 99
ends:
  bottom: {position: [0, 0, -899.71425], fixed: all}
  top:
    position: [~, 0, 0]
    fixed: [y, z]
    force: [400e3, 0, 0]
    moment: [0, 0, 0]
"""

# The same with the top end hanging from a vessel (issue 4): a hinge at O_b, DP on a fixed
# point; line numbers of the expectations count from its first line.
VESSEL = """\
environment:
  water_depth: 900
  water_density: 1025
line:
  length: 1500
  sections:
    - outer_diameter: 0.762
      wall_thickness: 0.033
      material: {youngs_modulus: 206e9, shear_modulus: 7.9231e10, density: 7850}
mesh:
  elements: 99
ends:
  bottom: {position: [0, 0, -899.71425], fixed: all}
vessel:
  mass: 6.0e6
  radii_of_gyration: [7.0, 19.05, 19.05]
  added_mass: [[7.644e5, 0, 0, 0, 0, 0], [0, 5.3412e6, 0, 0, 0, -3.401568e7], [0, 0, 9.6446e6, 0, 0, 0], [0, 0, 0, 1.51813e8, 0, 0], [0, 0, 0, 0, 4.267725e9, 0], [0, -3.401568e7, 0, 0, 0, 2.274963e9]]
  restoring: {waterplane_area: 1219.2, heave_equilibrium: 0, gm_transverse: 1.9113, gm_longitudinal: 84.398, displacement: 6.0e6}
  initial:
    position: [1000, 0, 0]
  hang_off:
    point: [0, 0, 0]
    connection: hinge
  environment_load: {force: [0, 6.0e5, 0], start_time: 10}
  dp:
    kp: [0.5e6, 0.5e6, 0, 0, 0, 0]
    kd: [0.4e7, 0.4e7, 0, 0, 0, 0]
    reference:
      type: fixed
      eta: [1000, 0, 0, 0, 0, 0]
"""

# The same as a dynamic model (top end on a circle, as examples/jlay_circle.yaml).
DYNAMIC = STATIC + """\
    motion: {type: circle, radius: 2.5, period: 10, ramp_up: 10, hold: 30, ramp_down: 10}
analysis:
  type: dynamic
  dynamic: {duration: 2}
"""


def run(args, cwd, timeout=300):
    """Runs pipelay with args in cwd; returns (status, stderr lines)."""
    p = subprocess.run([PIPELAY] + args, cwd=cwd, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, timeout=timeout)
    err = p.stderr.decode("utf-8", "replace")
    return p.returncode, err.splitlines()


def record(name, ok, detail):
    if ok:
        PASSED[0] += 1
    else:
        FAILED.append("FAIL: %s: %s" % (name, detail))


def expect_model_error(name, status, lines, head, words):
    """One line 'head' + text containing words (head = 'FILE:LINE:COL: key: ')."""
    detail = "status %d, stderr %r; expected status 2 and one line %r...%r" % (
        status, lines, head, words)
    ok = (status == 2 and len(lines) == 1 and lines[0].startswith(head)
          and words in lines[0][len(head):]
          and re.match(r"^[^:\n]+:\d+:\d+: [^\n]+: .+$", lines[0]) is not None)
    record(name, ok, detail)


def expect_form(name, status, lines, file):
    """Status 2 and one line 'FILE:LINE:COL: key: text' (for random input)."""
    ok = (status == 2 and len(lines) == 1
          and re.match(r"^%s:\d+:\d+: [^\n]+: .+$" % re.escape(file), lines[0]) is not None)
    record(name, ok, "status %d, stderr %r; expected status 2 and one line %s:L:C: key: text"
           % (status, lines, file))


def write(work, name, data):
    path = os.path.join(work, name)
    with open(path, "wb") as f:
        f.write(data.encode() if isinstance(data, str) else data)
    return name


def model_case(work, name, text, head, words, sets=()):
    """Writes text to name.yaml, runs it and expects one model error."""
    file = write(work, name + ".yaml", text)
    args = ["run", file] + [a for s in sets for a in ("--set", s)]
    args += ["--no-plots", "--quiet", "--output", name + "_out"]
    status, lines = run(args, work)
    expect_model_error(name, status, lines, head.replace("FILE", file), words)


def sub(text, old, new):
    assert old in text, old
    return text.replace(old, new, 1)


def numbers(work):
    model_case(work, "nan", sub(STATIC, "water_density: 1025", "water_density: .nan"),
               "FILE:3:18: environment.water_density: ", "expected a finite number, found '.nan'")
    model_case(work, "nan_word", sub(STATIC, "water_depth: 900", "water_depth: NaN"),
               "FILE:2:16: environment.water_depth: ", "expected a finite number, found 'NaN'")
    model_case(work, "inf", sub(STATIC, "length: 1500", "length: .inf"),
               "FILE:5:11: line.length: ", "expected a finite number, found '.inf'")
    model_case(work, "minus_inf", sub(STATIC, "force: [400e3, 0, 0]", "force: [-.Inf, 0, 0]"),
               "FILE:17:13: ends.top.force[0]: ", "expected a finite number, found '-.Inf'")
    model_case(work, "overflow_1e400", sub(STATIC, "wall_thickness: 0.033",
                                           "wall_thickness: 1e400"),
               "FILE:8:23: line.sections[0].wall_thickness: ",
               "number out of range (not a finite double), found '1e400'")
    model_case(work, "inf_in_set", STATIC, "--set:1:1: ends.top.force[1]: ",
               "expected a finite number, found '.inf'", sets=["ends.top.force=[1, .inf, 0]"])


def counts(work):
    why = "must be an integer from 2 to 1000000 (a line needs at least 2 elements), got "
    for name, value in [("elements_negative", "-5"), ("elements_1e12", "1000000000000"),
                        ("elements_huge", "99999999999999999999999"), ("elements_zero", "0"),
                        ("elements_one", "1")]:
        model_case(work, name, sub(STATIC, "elements: 99", "elements: " + value),
                   "FILE:11:13: mesh.elements: ", why + value)
    model_case(work, "elements_float", sub(STATIC, "elements: 99", "elements: 1e3"),
               "FILE:11:13: mesh.elements: ", "expected an integer, found '1e3'")
    model_case(work, "target_length_whole_line",
               sub(STATIC, "elements: 99", "target_length: 1500"),
               "FILE:11:18: mesh.target_length: ",
               "must be at most half of line.length (750 m), so that the line has at least 2 "
               "elements; got 1500")
    model_case(work, "target_length_tiny", sub(STATIC, "elements: 99", "target_length: 1e-6"),
               "FILE:11:18: mesh.target_length: ",
               "gives 1.5e+09 elements (line.length / target_length), more than the 1000000")
    model_case(work, "load_steps_negative", STATIC, "--set:1:1: analysis.load_steps: ",
               "must be an integer from 1 to 1000000, got -99999999999999999999",
               sets=["analysis.load_steps=-99999999999999999999"])


def loads(work):
    model_case(work, "force_1e300", sub(STATIC, "force: [400e3, 0, 0]", "force: [1e300, 0, 0]"),
               "FILE:17:13: ends.top.force[0]: ",
               "must be at most 1e+12 N in magnitude (a larger force is not physically "
               "meaningful for a line), got 1e300")
    model_case(work, "force_negative_huge", STATIC, "--set:1:1: ends.top.force[2]: ",
               "must be at most 1e+12 N in magnitude", sets=["ends.top.force=[4e5, 0, -2e12]"])
    model_case(work, "moment_1e14", sub(STATIC, "moment: [0, 0, 0]", "moment: [0, 1e14, 0]"),
               "FILE:18:17: ends.top.moment[1]: ",
               "must be at most 1e+13 N m in magnitude (a larger moment is not physically "
               "meaningful for a line), got 1e14")


def files(work):
    status, lines = run(["run", write(work, "empty.yaml", ""), "--no-plots"], work)
    expect_model_error("empty_file", status, lines, "empty.yaml:1:1: (document): ",
                       "the file is empty")
    status, lines = run(["run", write(work, "blank.yaml", "\n  \n# only a comment\n"),
                         "--no-plots"], work)
    expect_model_error("blank_file", status, lines, "blank.yaml:1:1: (document): ",
                       "no YAML document, only blank lines or comments")
    rng = random.Random(20240607)
    for k in range(6):  # /dev/urandom-like bytes, reproducible
        data = bytes(rng.getrandbits(8) for _ in range(rng.choice([1, 17, 4096, 100000])))
        name = write(work, "garbage%d.bin" % k, data)
        status, lines = run(["run", name, "--no-plots"], work)
        expect_form("binary_garbage_%d" % k, status, lines, name)
    with open("/dev/urandom", "rb") as f:  # and once the real thing
        name = write(work, "urandom.bin", f.read(65536))
    status, lines = run(["run", name, "--no-plots"], work)
    expect_form("dev_urandom", status, lines, name)
    status, lines = run(["run", "no_such_model.yaml", "--no-plots"], work)
    expect_model_error("missing_model_file", status, lines, "no_such_model.yaml:0:0: (file): ",
                       "cannot read: No such file or directory")
    os.makedirs(os.path.join(work, "a_directory.yaml"), exist_ok=True)
    status, lines = run(["run", "a_directory.yaml", "--no-plots"], work)
    expect_model_error("model_is_a_directory", status, lines, "a_directory.yaml:0:0: (file): ",
                       "cannot read: Is a directory")
    big = write(work, "big.yaml", STATIC + "#" + "x" * (20 * 1024 * 1024) + "\n")
    status, lines = run(["run", big, "--no-plots"], work)
    expect_model_error("file_20_MiB", status, lines, "big.yaml:0:0: (file): ",
                       "cannot read: larger than 16 MiB")


def yaml_structure(work):
    deep = "".join("  " * i + "a%d:\n" % i for i in range(100))
    model_case(work, "nesting_100_block", deep, "FILE:65:", "nesting deeper than 64 levels")
    model_case(work, "nesting_100_flow", "name: " + "[" * 100 + "]" * 100 + "\n", "FILE:1:",
               "nesting deeper than 64 levels")
    bomb = "name: [" + ",".join("0" for _ in range(100005)) + "]\n"
    model_case(work, "node_bomb", bomb, "FILE:1:", "too many YAML nodes (more than 100000)")
    model_case(work, "alias", sub(STATIC, "  water_density: 1025\n",
                                  "  water_density: &rho 1025\n  gravity: *rho\n"),
               "FILE:4:12: environment.gravity: ", "YAML aliases are not supported (found '*rho')")
    laughs = ("a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
              "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n")
    model_case(work, "billion_laughs", laughs, "FILE:2:8: b[0]: ",
               "YAML aliases are not supported")
    merge = sub(STATIC, "mesh:\n", "base: &b {elements: 99}\nmesh:\n  <<: *b\n")
    model_case(work, "merge_key", merge, "FILE:12:7: mesh.<<: ",
               "YAML aliases are not supported (found '*b')")
    # an anchor without an alias is harmless: the model loads
    anchored = sub(STATIC, "  water_depth: 900", "  water_depth: &depth 900")
    file = write(work, "anchor.yaml", anchored)
    status, lines = run(["info", file], work)
    record("anchor_accepted", status == 0 and lines == [],
           "status %d, stderr %r; expected 0 and nothing" % (status, lines))
    model_case(work, "duplicate_key", sub(STATIC, "  water_density: 1025", "  water_depth: 800"),
               "FILE:3:3: environment.water_depth: ",
               "duplicate key 'water_depth' (first given at duplicate_key.yaml:2:3)")
    model_case(work, "duplicate_top_key", STATIC + "mesh: {elements: 10}\n", "FILE:19:1: mesh: ",
               "duplicate key 'mesh' (first given at duplicate_top_key.yaml:10:1)")
    model_case(work, "two_documents", STATIC + "---\nname: second\n", "FILE:19:1: ",
               "only one YAML document is allowed")
    model_case(work, "tag", sub(STATIC, "water_depth: 900", "water_depth: !!float 900"),
               "FILE:2:16: ", "YAML tags are not supported")


def current_and_timeseries(work):
    table = "current: {profile: table, table: [[-100, 0.5], [-900, 0.1], [0, 0.8]]}\n"
    model_case(work, "current_table_out_of_order", DYNAMIC + table,
               "FILE:23:49: current.table[1][0]: ",
               "z must increase from row to row: must be greater than -100 m (the z of row 0), "
               "got -900")
    ts = sub(DYNAMIC, "motion: {type: circle, radius: 2.5, period: 10, ramp_up: 10, hold: 30, "
                      "ramp_down: 10}", "motion: {type: timeseries, file: %s}")
    model_case(work, "timeseries_missing", ts % "missing.csv", "FILE:19:38: ends.top.motion.file: ",
               "cannot read 'missing.csv' (resolved to 'missing.csv'): No such file or directory")
    write(work, "malformed.csv", "t,x,y,z\n0,0,0,0\n0.5,1.0,abc,0\n")
    model_case(work, "timeseries_malformed", ts % "malformed.csv",
               "malformed.csv:3:9: ends.top.motion.file: ", "expected a number, found 'abc'")
    write(work, "nan.csv", "t,x,y,z\n0,0,0,0\n1,nan,0,0\n")
    model_case(work, "timeseries_nan", ts % "nan.csv", "nan.csv:3:3: ends.top.motion.file: ",
               "expected a finite number, found 'nan'")
    write(work, "header.csv", "time,x,y,z\n0,0,0,0\n1,0,0,0\n")
    model_case(work, "timeseries_bad_header", ts % "header.csv",
               "header.csv:1:1: ends.top.motion.file: ", "expected the header 't,x,y,z'")
    write(work, "backwards.csv", "t,x,y,z\n0,0,0,0\n2,0,0,0\n1,0,0,0\n")
    model_case(work, "timeseries_time_backwards", ts % "backwards.csv",
               "backwards.csv:4:1: ends.top.motion.file: ", "t must increase from row to row")
    write(work, "binary.csv", bytes(range(256)) * 64)
    model_case(work, "timeseries_binary", ts % "binary.csv",
               "binary.csv:1:1: ends.top.motion.file: ", "expected the header 't,x,y,z'")
    write(work, "empty.csv", "")
    model_case(work, "timeseries_empty", ts % "empty.csv", "empty.csv:1:1: ends.top.motion.file: ",
               "no header line")
    os.makedirs(os.path.join(work, "csvdir"), exist_ok=True)
    model_case(work, "timeseries_directory", ts % "csvdir", "FILE:19:38: ends.top.motion.file: ",
               "(resolved to 'csvdir'): Is a directory")


def overrides(work):
    file = write(work, "ok.yaml", STATIC)
    for name, arg, head, words in [
            ("set_missing_equals", "mesh.elements", "--set:1:1: mesh.elements: ", "missing '='"),
            ("set_empty", "", "--set:1:1: (override): ", "missing '=' in ''"),
            ("set_no_key", "=5", "--set:1:1: (override): ", "malformed key path ''"),
            ("set_unknown_key", "foo.bar=1", "--set:1:1: foo.bar: ", "unknown key 'foo'"),
            ("set_bad_yaml", "ends.top.force=[1, 2", "--set:1:1: ends.top.force: ",
             "invalid value"),
            ("set_alias", "name=*x", "--set:1:1: name: ", "YAML aliases are not supported")]:
        status, lines = run(["run", file, "--set", arg, "--no-plots"], work)
        expect_model_error(name, status, lines, head, words)


def vessel(work):
    V = VESSEL
    I6 = "[[1e6, 0, 0, 0, 0, 0], [0, 1e6, 0, 0, 0, 0], [0, 0, 1e6, 0, 0, 0], %s, " \
         "[0, 0, 0, 0, 1e9, 0], [0, 0, 0, 0, 0, 1e9]]"
    cases = [
        ("vessel_missing_mass", sub(V, "  mass: 6.0e6\n", ""), "FILE:14:1: vessel: ",
         "missing required key 'mass' (kg) (or 'mass_matrix'", ()),
        ("vessel_negative_mass", sub(V, "mass: 6.0e6", "mass: -6.0e6"), "FILE:15:9: vessel.mass: ",
         "must be greater than 0 kg, got -6.0e6", ()),
        ("vessel_mass_not_a_number", sub(V, "mass: 6.0e6", "mass: heavy"),
         "FILE:15:9: vessel.mass: ", "expected a number (kg), found 'heavy'", ()),
        ("vessel_mass_matrix_not_spd",
         sub(V, V[V.index("  mass:"):V.index("  restoring:")],
             "  mass_matrix: %s\n" % (I6 % "[0, 0, 0, -1e8, 0, 0]")),
         "FILE:15:16: vessel.mass_matrix: ", "mass matrix M_RB + M_A is not positive definite", ()),
        ("vessel_mass_matrix_with_mass", V, "--set:1:1: vessel.mass_matrix: ",
         "cannot be combined with 'mass'", ["vessel.mass_matrix=" + I6 % "[0, 0, 0, 1e8, 0, 0]"]),
        ("vessel_added_mass_short_row", V, "--set:1:1: vessel.added_mass[2]: ",
         "expected a row of 6 numbers (kg, kg m, kg m^2), found a list of 5 items",
         ["vessel.added_mass[2]=[0, 0, 1, 0, 0]"]),
        ("vessel_added_mass_not_symmetric", V, "FILE:17:15: vessel.added_mass: ",
         "mass matrix M_RB + M_A is not symmetric", ["vessel.added_mass[5][1]=0"]),
        ("vessel_inertia_not_positive_definite",
         sub(V, "radii_of_gyration: [7.0, 19.05, 19.05]",
             "inertia: [[1e9, 2e9, 0], [2e9, 1e9, 0], [0, 0, 1e9]]"),
         "FILE:16:12: vessel.inertia: ", "must be positive definite", ()),
        ("vessel_radii_and_inertia", V, "--set:1:1: vessel.inertia: ",
         "give either 'radii_of_gyration' or 'inertia', not both",
         ["vessel.inertia=[[1e9, 0, 0], [0, 1e9, 0], [0, 0, 1e9]]"]),
        ("vessel_damping_not_dissipative", V, "--set:1:1: vessel.linear_damping: ",
         "its symmetric part is not positive semidefinite",
         ["vessel.linear_damping=" + I6 % "[0, 0, 0, -1e8, 0, 0]"]),
        ("vessel_gm_without_displacement", sub(V, ", displacement: 6.0e6}", "}"),
         "FILE:18:3: vessel.restoring: ", "missing required key 'displacement' (kg)", ()),
        ("vessel_spring_not_symmetric", V, "--set:1:1: vessel.spring.stiffness: ",
         "must be symmetric: entry (2, 1) is 3, entry (1, 2) is 2",
         ["vessel.spring={stiffness: [[1, 2, 0], [3, 1, 0], [0, 0, 0]], anchor: [0, 0, 0]}"]),
        ("vessel_bad_axes", V, "--set:1:1: vessel.axes: ",
         "expected one of: pipelay, fossen_ned; found 'ned'", ["vessel.axes=ned"]),
        ("vessel_unknown_key", sub(V, "  mass: 6.0e6\n", "  mass: 6.0e6\n  masss: 1\n"),
         "FILE:16:3: vessel.masss: ", "unknown key 'masss'", ()),
        ("vessel_duplicate_key", sub(V, "  mass: 6.0e6\n", "  mass: 6.0e6\n  mass: 7.0e6\n"),
         "FILE:16:3: vessel.mass: ", "duplicate key 'mass'", ()),
        ("vessel_missing_initial", sub(V, "  initial:\n    position: [1000, 0, 0]\n", ""),
         "FILE:14:1: vessel: ", "missing required key 'initial'", ()),
        ("vessel_initial_position_two_items", sub(V, "position: [1000, 0, 0]", "position: [1000, 0]"),
         "FILE:20:15: vessel.initial.position: ", "expected a list of 3 numbers (m), found a list "
         "of 2 items", ()),
        ("vessel_velocity_in_static", sub(V, "    position: [1000, 0, 0]\n",
                                          "    position: [1000, 0, 0]\n    velocity: [1, 0, 0]\n"),
         "FILE:21:5: vessel.initial.velocity: ", "is only used by a dynamic analysis", ()),
        ("vessel_missing_hang_off_point", sub(V, "    point: [0, 0, 0]\n", ""),
         "FILE:21:3: vessel.hang_off: ", "missing required key 'point' (m)", ()),
        ("vessel_hinge_with_orientation",
         sub(V, "    connection: hinge\n", "    connection: hinge\n    orientation: [0, -90, 0]\n"),
         "FILE:24:5: vessel.hang_off.orientation: ", "is only used by a fixed connection", ()),
        ("vessel_fixed_without_orientation", sub(V, "connection: hinge", "connection: fixed"),
         "FILE:21:3: vessel.hang_off: ", "missing required key 'orientation' (deg)", ()),
        ("vessel_bad_connection", sub(V, "connection: hinge", "connection: welded"),
         "FILE:23:17: vessel.hang_off.connection: ", "expected one of: fixed, hinge; found 'welded'",
         ()),
        ("vessel_top_position", sub(V, "  bottom: {position: [0, 0, -899.71425], fixed: all}\n",
                                    "  bottom: {position: [0, 0, -899.71425], fixed: all}\n"
                                    "  top: {position: [0, 0, 0]}\n"),
         "FILE:14:9: ends.top.position: ", "is not allowed with a vessel: the top end hangs from "
         "the vessel", ()),
        ("vessel_top_force_set", V, "--set:1:1: ends.top.force: ", "is not allowed with a vessel",
         ["ends.top.force=[4e5, 0, 0]"]),
        ("vessel_line_too_short", V, "--set:1:1: line.length: ",
         "line shorter than the 899.71425 m vertical distance between its ends", ["line.length=850"]),
        ("vessel_load_too_large", V, "--set:1:1: vessel.environment_load.force[1]: ",
         "must be at most 1e+12 N in magnitude (a larger force is not physically meaningful for "
         "a vessel)", ["vessel.environment_load.force=[0, 1e13, 0]"]),
        ("vessel_dp_without_reference",
         sub(V, "    reference:\n      type: fixed\n      eta: [1000, 0, 0, 0, 0, 0]\n", ""),
         "FILE:25:3: vessel.dp: ", "missing required key 'reference'", ()),
        ("vessel_dp_without_kd", sub(V, "    kd: [0.4e7, 0.4e7, 0, 0, 0, 0]\n", ""),
         "FILE:25:3: vessel.dp: ", "missing required key 'kd' (N s/m for x, y, z; N m s/rad", ()),
        ("vessel_dp_negative_gain", sub(V, "kp: [0.5e6, 0.5e6, 0,", "kp: [0.5e6, 0.5e6, -1,"),
         "FILE:26:24: vessel.dp.kp[2]: ", "must be at least 0 N/m, got -1", ()),
        ("vessel_dp_gains_too_few", V, "--set:1:1: vessel.dp.kp: ",
         "expected a list of 6 numbers (N/m for x, y, z; N m/rad for roll, pitch, yaw), found a "
         "list of 3 items", ["vessel.dp.kp=[1, 2, 3]"]),
        ("vessel_dp_unknown_dof", V, "--set:1:1: vessel.dp.actuated[1]: ",
         "expected one of: surge, sway, heave, roll, pitch, yaw; found 'thruster'",
         ["vessel.dp.actuated=[surge, thruster]"]),
        ("vessel_dp_reference_type", sub(V, "type: fixed", "type: spiral"),
         "FILE:29:13: vessel.dp.reference.type: ",
         "expected one of: fixed, circle, line, waypoints, route; found 'spiral'", ()),
        ("vessel_dp_route_without_route", sub(V, "type: fixed", "type: route\n      speed: 0.1"),
         "FILE:29:13: vessel.dp.reference.type: ", "route: needs lay.route, the route the vessel lays along", ()),
        ("vessel_dp_route_gain_negative", sub(V, "type: fixed", "type: route\n      speed: 0.1\n      gain: -1"),
         "FILE:31:13: vessel.dp.reference.gain: ", "must be at least 0", ()),
        ("vessel_dp_reference_eta_angle", sub(V, "eta: [1000, 0, 0, 0, 0, 0]",
                                             "eta: [1000, 0, 0, 0, 0, 400]"),
         "FILE:30:31: vessel.dp.reference.eta[5]: ", "must be at most 360 deg, got 400", ()),
        ("vessel_dp_circle_key_in_fixed", V, "--set:1:1: vessel.dp.reference.radius: ",
         "is only used by a circle reference (type is 'fixed')", ["vessel.dp.reference.radius=2"]),
        ("vessel_dp_one_waypoint", V, "--set:1:1: vessel.dp.reference.points: ",
         "expected a list of 2 or more points [x, y] (m), found a list of 1 item",
         ["vessel.dp.reference={type: waypoints, eta: [0, 0, 0, 0, 0, 0], points: [[0, 0]], "
          "speeds: []}"]),
        ("vessel_dp_waypoint_speeds", V, "--set:1:1: vessel.dp.reference.speeds[0]: ",
         "must be greater than 0 m/s, got 0",
         ["vessel.dp.reference={type: waypoints, eta: [0, 0, 0, 0, 0, 0], "
          "points: [[0, 0], [10, 0]], speeds: [0]}"]),
        ("vessel_dp_line_without_speed", V, "FILE:28:5: vessel.dp.reference: ",
         "missing required key 'speed' (m/s)",
         ["vessel.dp.reference={type: line, eta: [0, 0, 0, 0, 0, 0]}"]),
    ]
    for name, text, head, words, sets in cases:
        model_case(work, name, text, head, words, sets=sets)
    # a rigid body alone (a vessel without line:): no line keys, a dynamic analysis
    body = ("environment: {water_depth: 100}\n"
            "vessel:\n  mass: 1\n  radii_of_gyration: [1, 1, 1]\n  initial: {position: [0, 0, 0]}\n")
    model_case(work, "body_with_mesh", body + "mesh: {elements: 10}\n", "FILE:6:1: mesh: ",
               "describes the line; a model without line: is a system of rigid bodies", ())
    model_case(work, "body_static", body, "FILE:1:1: analysis.type: ",
               "a system of rigid bodies (vessel: or bodies: without line:) needs analysis.type: dynamic", ())
    # bodies and joints (a model without a line): the graph's errors name the key
    bodies = ("environment: {water_depth: 100}\n"
              "analysis: {type: dynamic, dynamic: {duration: 1}}\n"
              "bodies:\n"
              "  - {name: arm, mass: 1, radii_of_gyration: [1, 1, 1], initial: {position: [0, 0, -1]}}\n"
              "  - {name: tip, mass: 1, radii_of_gyration: [1, 1, 1], initial: {position: [0, 0, -2]}}\n")
    model_case(work, "joint_unknown_body",
               bodies + "joints:\n  - {name: pin, type: spherical, bodies: [arm, hand], point: [0, 0, 0]}\n",
               "FILE:7:48: joints[0].bodies[1]: ", "no body named 'hand' (the bodies are: arm, tip; or ground)", ())
    model_case(work, "joint_same_body",
               bodies + "joints:\n  - {name: pin, type: spherical, bodies: [arm, arm], point: [0, 0, 0]}\n",
               "FILE:7:42: joints[0].bodies: ", "joins body 'arm' to itself", ())
    model_case(work, "joint_duplicate_name",
               bodies + "joints:\n  - {name: tip, type: spherical, bodies: [arm, ground], point: [0, 0, 0]}\n",
               "FILE:7:12: joints[0].name: ", "duplicate name 'tip' (first given at", ())
    model_case(work, "joint_revolute_without_axis",
               bodies + "joints:\n  - {name: pin, type: revolute, bodies: [arm, ground], point: [0, 0, 0]}\n",
               "FILE:7:5: joints[0]: ", "missing required key 'axis'", ())
    model_case(work, "joint_spherical_with_axis",
               bodies + "joints:\n  - {name: pin, type: spherical, bodies: [arm, ground], point: [0, 0, 0], "
                        "axis: [0, 1, 0]}\n",
               "FILE:7:75: joints[0].axis: ", "is only used by a revolute or a prismatic joint", ())
    model_case(work, "joint_velocity_violated",
               sub(bodies, "position: [0, 0, -1]}", "position: [0, 0, -1], velocity: [0, 0, 1]}") +
               "joints:\n  - {name: pin, type: spherical, bodies: [arm, ground], point: [0, 0, 0]}\n",
               "FILE:7:12: joints[0].name: ", "the initial velocities of arm violate this joint", ())
    model_case(work, "bodies_with_line", V + "bodies: []\n", "FILE:", "bodies: is not yet available with a line", ())
    # several lines joined at points: the graph's errors name the key
    sec = "[{outer_diameter: 0.1, EA: 5.0e8, EI: 1.0e3, GJ: 1.0e3, mass_per_length: 100}]"
    lines = ("environment: {water_depth: 300}\n"
             "points:\n  - {name: clump, position: [0, 0, -100], mass: 2000}\n"
             "lines:\n"
             "  - name: left\n"
             "    line: {length: 120, sections: " + sec + "}\n"
             "    mesh: {elements: 20}\n"
             "    ends: {bottom: {position: [-100, 0, -50], fixed: [x, y, z]}, top: {point: clump}}\n")
    model_case(work, "lines_unknown_point", sub(lines, "top: {point: clump}", "top: {point: buoy}"),
               "FILE:8:79: lines[0].ends.top.point: ", "no point named 'buoy' (the points are: clump)", ())
    model_case(work, "lines_point_unused",
               sub(lines, "mass: 2000}\n", "mass: 2000}\n  - {name: spare, position: [0, 0, -90], fixed: true}\n"),
               "FILE:4:12: points[1].name: ", "point 'spare' has no line attached to it", ())
    model_case(work, "lines_both_ends_on_point",
               sub(lines, "bottom: {position: [-100, 0, -50], fixed: [x, y, z]}", "bottom: {point: clump}"),
               "FILE:5:5: lines[0]: ", "both ends on point 'clump'", ())
    model_case(work, "lines_point_with_position",
               sub(lines, "top: {point: clump}", "top: {point: clump, position: [0, 0, 0]}"),
               "FILE:8:86: lines[0].ends.top.position: ", "cannot be given with 'point'", ())
    model_case(work, "lines_fixed_point_velocity", sub(lines, "mass: 2000}", "mass: 2000, fixed: true, velocity: [0, 0, 1]}"),
               "FILE:3:78: points[0].velocity: ", "a fixed point does not move", ())
    model_case(work, "lines_with_line", lines + "line: {length: 10}\n", "FILE:9:1: line: ",
               "is the form of a one-line model", ())
    bodyblk = ("bodies:\n  - {name: float, mass: 1000, radii_of_gyration: [1, 1, 1], initial: {position: [0, 0, -100]}, "
            "spring: {stiffness: [[1e5, 0, 0], [0, 1e5, 0], [0, 0, 1e5]], anchor: [0, 0, -100]}}\n")
    model_case(work, "lines_unknown_body", sub(lines, "top: {point: clump}", "top: {body: raft, at: [0, 0, 0]}"),
               "FILE:8:78: lines[0].ends.top.body: ", "no body named 'raft' (the bodies are: none; give them under "
               "bodies:)", ())
    model_case(work, "lines_body_without_at", bodyblk + sub(lines, "top: {point: clump}", "top: {body: float}"),
               "FILE:10:66: lines[0].ends.top: ", "missing required key 'at'", ())
    model_case(work, "lines_at_without_body", sub(lines, "top: {point: clump}", "top: {at: [0, 0, 0]}"),
               "FILE:8:72: lines[0].ends.top.at: ", "is the body point of an end attached to a body", ())
    model_case(work, "lines_orientation_on_hinge",
               bodyblk + sub(lines, "top: {point: clump}", "top: {body: float, at: [0, 0, 0], orientation: [0, 0, 0]}"),
               "FILE:10:100: lines[0].ends.top.orientation: ", "is only used by a fixed connection", ())
    model_case(work, "lines_fixed_without_orientation",
               bodyblk + sub(lines, "top: {point: clump}", "top: {body: float, at: [0, 0, 0], connection: fixed}"),
               "FILE:10:66: lines[0].ends.top: ", "missing required key 'orientation'", ())
    model_case(work, "lines_connection_on_point", sub(lines, "top: {point: clump}", "top: {point: clump, connection: fixed}"),
               "FILE:8:86: lines[0].ends.top.connection: ", "is only used by an end attached to a body", ())
    model_case(work, "lines_body_unused", bodyblk + lines, "FILE:2:12: bodies[0].name: ",
               "body 'float' has no line or joint attached to it", ())
    # a body DOF with nothing restoring it: every line end at O_b, no restoring of its own (a
    # warning at the body's name; the model is read, exit 0)
    file = write(work, "lines_body_unrestored.yaml",
                 bodyblk + sub(lines, "top: {point: clump}", "top: {body: float, at: [0, 0, 0]}")
                 + "  - name: right\n    line: {length: 120, sections: " + sec + "}\n    mesh: {elements: 20}\n"
                 "    ends: {bottom: {position: [100, 0, -50], fixed: [x, y, z]}, top: {point: clump}}\n")
    status, err = run(["info", file], work)
    want = file + ":2:12: bodies[0].name: warning: every line end on body 'float' is at the body point [0, 0, 0] m"
    record("lines_body_unrestored", status == 0 and any(l.startswith(want) and "roll, pitch, yaw" in l for l in err),
           "expected exit 0 and a warning starting %r; got %d: %s" % (want, status, " | ".join(err[:3])))
    model_case(work, "points_in_one_line_model", STATIC + "points: [{name: a, position: [0, 0, 0]}]\n",
               "FILE:%d:1: points: " % (STATIC.count("\n") + 1), "are the connection points of a model of lines:", ())
    model_case(work, "body_weight_mass_matrix",
               sub(bodies, "mass: 1, radii_of_gyration: [1, 1, 1], initial: {position: [0, 0, -1]}",
                   "mass_matrix: [[1,0,0,0,0,0],[0,1,0,0,0,0],[0,0,1,0,0,0],[0,0,0,1,0,0],[0,0,0,0,1,0],"
                   "[0,0,0,0,0,1]], weight: true, initial: {position: [0, 0, -1]}"),
               "FILE:4:", "bodies[0].weight: needs 'mass' and 'centre_of_gravity'", ())
    model_case(work, "body_hang_off_connection",
               body + "  hang_off: {point: [0, 0, 0], connection: hinge}\n"
                      "analysis: {type: dynamic, dynamic: {duration: 1, output_interval: 0.1}}\n",
               "FILE:6:32: vessel.hang_off.connection: ", "is not used by a rigid body alone", ())
    # the environmental time series: missing, not its header, not finite
    ts = sub(V, "start_time: 10}", "start_time: 10, file: %s}")
    model_case(work, "vessel_load_file_missing", ts % "no_wind.csv",
               "FILE:24:66: vessel.environment_load.file: ",
               "cannot read 'no_wind.csv' (resolved to 'no_wind.csv'): No such file or directory")
    write(work, "wind_header.csv", "t,x,y,z\n0,0,0,0\n1,0,0,0\n")
    model_case(work, "vessel_load_file_header", ts % "wind_header.csv",
               "wind_header.csv:1:3: vessel.environment_load.file: ",
               "expected the header 't,Fx,Fy,Fz,Mx,My,Mz', found 't,x,y,z'")
    write(work, "wind_nan.csv", "t,Fx,Fy,Fz,Mx,My,Mz\n0,0,0,0,0,0,0\n1,0,nan,0,0,0,0\n")
    model_case(work, "vessel_load_file_nan", ts % "wind_nan.csv",
               "wind_nan.csv:3:5: vessel.environment_load.file: ",
               "expected a finite number, found 'nan'")


def output_and_statuses(work):
    file = write(work, "good.yaml", STATIC)
    write(work, "regular_file", "not a directory\n")
    status, lines = run(["run", file, "--output", "regular_file/out", "--no-plots", "--quiet"],
                        work)
    record("output_under_a_file", status == 4 and len(lines) == 1 and lines[0] ==
           "pipelay: regular_file/out: cannot create the output directory: Not a directory",
           "status %d, stderr %r; expected 4 and one line 'pipelay: regular_file/out: cannot "
           "create the output directory: Not a directory'" % (status, lines))
    status, lines = run(["run", file, "--output", "regular_file", "--no-plots", "--quiet"], work)
    record("output_is_a_file", status == 4 and len(lines) == 1 and lines[0].startswith(
        "pipelay: regular_file: ") and "not a directory" in lines[0],
        "status %d, stderr %r; expected 4 and one line 'pipelay: regular_file: ... not a "
        "directory'" % (status, lines))
    dyn = write(work, "dyn.yaml", DYNAMIC)
    status, lines = run(["run", dyn, "--output", "regular_file/dyn", "--no-plots", "--quiet"],
                        work)
    record("dynamic_output_under_a_file", status == 4 and len(lines) == 1 and
           lines[0].startswith("pipelay: regular_file/dyn: cannot create the output directory"),
           "status %d, stderr %r; expected 4 and one line" % (status, lines))
    # 3: no convergence (two Newton iterations per load step, one halving, and the
    # pseudo-transient strategies limited to three steps)
    status, lines = run(["run", file, "--output", "nc_out", "--no-plots", "--quiet", "--set",
                         "analysis.max_iterations=2", "--set", "analysis.max_cutbacks=1",
                         "-pipelay_ptc_max_steps", "3"], work)
    record("no_convergence", status == 3 and any("did not converge" in l for l in lines)
           and os.path.isfile(os.path.join(work, "nc_out", "summary.json")),
           "status %d, stderr %r; expected 3, 'did not converge' and nc_out/summary.json"
           % (status, lines))
    # 5: SIGINT during the dynamic analysis, sent once a first output time is written
    # (vtk/dynamic_*.vtu: the handler is installed by then; dynamic.pvd comes earlier)
    out = os.path.join(work, "int_out")

    def frame_written():
        vtk = os.path.join(out, "vtk")
        return os.path.isdir(vtk) and any(n.startswith("dynamic_") for n in os.listdir(vtk))

    p = subprocess.Popen([PIPELAY, "run", dyn, "--output", "int_out", "--no-plots", "--quiet",
                          "--set", "analysis.dynamic.duration=3600"], cwd=work,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    t0 = time.time()
    while p.poll() is None and not frame_written() and time.time() - t0 < 120:
        time.sleep(0.02)
    if p.poll() is None:
        p.send_signal(signal.SIGINT)
    try:
        _, err = p.communicate(timeout=300)
    except subprocess.TimeoutExpired:
        p.kill()
        _, err = p.communicate()
    lines = err.decode("utf-8", "replace").splitlines()
    record("interrupted", p.returncode == 5 and len(lines) == 1 and
           lines[0].startswith("pipelay: interrupted at t = ") and
           os.path.isfile(os.path.join(out, "summary.json")),
           "status %d, stderr %r; expected 5 and one line 'pipelay: interrupted at t = ...'"
           % (p.returncode, lines))


def main():
    if not PIPELAY:
        print("usage: check_hostile.py PIPELAY [WORK_DIR]", file=sys.stderr)
        return 2
    made = len(sys.argv) <= 2
    work = tempfile.mkdtemp(prefix="pipelay_hostile_") if made else os.path.abspath(sys.argv[2])
    os.makedirs(work, exist_ok=True)
    groups = (output_and_statuses, files, yaml_structure, current_and_timeseries, numbers,
              counts, loads, overrides, vessel)
    # the groups use separate files: run them side by side (each run of the program is
    # mostly MPI start-up, slow under the sanitizers)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 1)) as ex:
        for f in [ex.submit(g, work) for g in groups]:
            f.result()
    for line in FAILED:
        print(line, file=sys.stderr)
    print("check_hostile: %d passed, %d failed" % (PASSED[0], len(FAILED)))
    if made and not FAILED:
        shutil.rmtree(work, ignore_errors=True)
    elif FAILED:
        print("check_hostile: the inputs are in %s" % work, file=sys.stderr)
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
