#!/usr/bin/env python3
"""check_fixed_hangoff.py - a line end fixed to a body: the one-line form (line: + vessel: with
hang_off.connection: fixed; the one-line statics, the vessel's equilibrium by the whole system's
Newton from there, solver/vessel_static.c, and the one-line run's driver) against the lines
form (lines: + bodies:; the substructured statics of solver/lines.c, which holds the end as a
hinge, then the whole system's Newton clamping it, and the system's run driver). Both
integrate on the system core (solver/system_dynamic.c): the two paths to the same equilibrium
and the two drivers are compared.

Problem: examples/dp_sec44.yaml (a J-lay: 1200 m of 30-inch pipe in 800 m of water, clamped on
the seabed, its top clamped in the DP vessel's tower at 73 deg), shortened: 40 s instead of
200 s, the environment load (6e5 N in y) and the sheared current ramped in over 5 s from
t = 2 s (steps would make the output at t = 2 s depend on which side of the step each run
evaluates, and excite transients that only the tightest tolerances resolve), the DP
controller (PID, the system core's bodies take it too) acting from t = 0, so that both runs
start from the same steady state. The test writes it twice: as a one-line model (line:,
vessel: with hang_off.connection: fixed) and converted into lines: + bodies: (the vessel a
body, the top end {body: vessel, at: hang_off.point, connection: fixed, orientation:
hang_off.orientation}), and runs both with pipelay.

Independent of the system core's attachment rows (cases welded_fixed, welded_hinge): the same
J-lay with its top held at the vessel's initial hang-off by the line's own end model (ends.top
fixed: all at the top frame, or x, y, z for the hinge) against its top attached to a body
welded to the ground (joints: type fixed): statics within 1e-8 of the top force, dynamics
within a tenth of the integration error.

Checked (case fixed, and case hinge with connection: hinge in both):
  statics   the top end's force (one-line: summary.json top_force; lines: the line's end
            force in summary.json) within 1e-8 relative to its magnitude, the vessel's pose
            (x, y, z within 1e-8 m, angles within 1e-8 deg). Both are Newton solves to 1e-9 of
            their force scales on the same discretisation, so they agree to well below that.
  dynamics  both runs at tight tolerances (rtol 1e-8, atols / 100): the top force components
            and the vessel's pose over time agree within a tenth of the integration error of
            either (the difference of its default- and tight-tolerance runs), and within
            2e-5 of the force's magnitude.
Usage: check_fixed_hangoff.py PIPELAY MODEL OUT_DIR
"""
import copy, csv, json, math, os, subprocess, sys

import yaml

PIPELAY, MODEL, OUT = sys.argv[1], sys.argv[2], sys.argv[3]
DURATION = 40.0
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL " + what)


def one_line_model(connection):
    with open(MODEL) as f:
        m = yaml.safe_load(f)
    v = m["vessel"]
    v["hang_off"]["connection"] = connection
    if connection == "hinge":
        del v["hang_off"]["orientation"]
    v["environment_load"].update({"start_time": 2.0, "ramp_time": 5.0})
    v["dp"]["start_time"] = 0.0
    m["current"].update({"start_time": 2.0, "ramp_time": 5.0})
    m["analysis"]["dynamic"].update({"duration": DURATION, "output_interval": 0.5})
    m.pop("output", None)
    return m


def lines_model(one):
    """The same model as lines: + bodies: (the vessel a body named vessel)."""
    m = copy.deepcopy(one)
    v = m.pop("vessel")
    ho = v.pop("hang_off")
    v.pop("name", None)
    v = dict({"name": "vessel"}, **v)
    top = {"body": "vessel", "at": ho["point"], "connection": ho["connection"]}
    if "orientation" in ho:
        top["orientation"] = ho["orientation"]
    line = {"name": "pipe", "line": m.pop("line"), "mesh": m.pop("mesh"),
            "ends": {"bottom": m.pop("ends")["bottom"], "top": top}}
    m["bodies"] = [v]
    m["lines"] = [line]
    m.pop("rotation", None)  # a lines: model takes the default (quaternion), as dp_sec44
    return m


def run(model, name, *sets):
    d = os.path.join(OUT, name)
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, "model.yaml")
    with open(path, "w") as f:
        yaml.safe_dump(model, f, sort_keys=False)
    cmd = [PIPELAY, "run", path, "--quiet", "--set", "output.directory=" + os.path.join(d, "out")]
    for s in sets:
        cmd += ["--set", s]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        print("FAIL %s: pipelay exited with %d\n%s%s" % (name, p.returncode, p.stdout, p.stderr))
        sys.exit(1)
    return os.path.join(d, "out")


def read_csv(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return {k: [float(r[k]) for r in rows] for k in rows[0]}


POSE = ["x_m", "y_m", "z_m", "roll_deg", "pitch_deg", "yaw_deg"]


def one_line_series(d):
    """time, the top end's force (x, y, z) [N] and the vessel's pose (x, y, z [m], roll, pitch,
    yaw [deg]) of a one-line run."""
    top, ves = read_csv(os.path.join(d, "timeseries_top.csv")), read_csv(os.path.join(d, "timeseries_vessel.csv"))
    return top["t_s"], [top["top_load_%s_N" % c] for c in "xyz"], [ves[k] for k in POSE]


def lines_series(d):
    """The same of a lines: run (the pipe's end b, the body vessel)."""
    lt, bt = read_csv(os.path.join(d, "timeseries_lines.csv")), read_csv(os.path.join(d, "timeseries_vessel.csv"))
    return lt["t_s"], [lt["pipe_b_force_%s_N" % c] for c in "xyz"], [bt[k] for k in POSE]


def largest_difference(a, b):
    """The largest difference of the force components [N] and of the pose [m or deg] of two
    runs over their common output times."""
    ta, fa, pa = a
    tb, fb, pb = b
    n = min(len(ta), len(tb))
    assert n > 10 and all(abs(ta[i] - tb[i]) < 1e-9 for i in range(n)), "the runs' output times differ"
    df = max(abs(fa[c][i] - fb[c][i]) for c in range(3) for i in range(n))
    dp = max(abs(pa[c][i] - pb[c][i]) for c in range(6) for i in range(n))
    return df, dp


def tight_sets():
    """rtol 1e-8 and the absolute tolerances a hundredth of their defaults (pipelay info --keys)."""
    out = subprocess.run([PIPELAY, "info", "--keys"], capture_output=True, text=True).stdout
    sets = ["analysis.dynamic.rtol=1e-8"]
    for line in out.splitlines():
        w = line.split()
        if w and w[0].startswith("analysis.dynamic.atol_"):
            sets.append("%s=%.6g" % (w[0], float(w[3]) / 100.0))
    assert len(sets) == 7, "the absolute tolerances of pipelay info --keys"
    return sets


def case(connection):
    one = one_line_model(connection)
    lines = lines_model(one)
    tight = tight_sets()
    a, b = one_line_series(run(one, connection + "_one")), lines_series(run(lines, connection + "_lines"))
    info = subprocess.run([PIPELAY, "info", os.path.join(OUT, connection + "_lines", "model.yaml")],
                          capture_output=True, text=True).stdout
    said = "fixed (its frame turns with the body" if connection == "fixed" else "a hinge (rotations free"
    check(said in info, "%s: pipelay info says how the line's top hangs from its body" % connection)
    at = one_line_series(run(one, connection + "_one_tight", *tight))
    bt = lines_series(run(lines, connection + "_lines_tight", *tight))
    # statics: the t = 0 row is the static equilibrium of each
    fmag = math.sqrt(sum(a[1][c][0] ** 2 for c in range(3)))
    ds = max(abs(a[1][c][0] - b[1][c][0]) for c in range(3)) / fmag
    dpose = max(abs(a[2][c][0] - b[2][c][0]) for c in range(6))
    print("%s statics: top force %.6e N, components agree to %.1e of it; pose to %.1e (m, deg)" %
          (connection, fmag, ds, dpose))
    check(ds <= 1e-8, "%s statics: the top force components agree within 1e-8 of its magnitude" % connection)
    check(dpose <= 1e-8, "%s statics: the vessel's pose agrees within 1e-8 m and deg" % connection)
    # dynamics
    ia, ia_p = largest_difference(a, at)
    ib, ib_p = largest_difference(b, bt)
    dt, dt_p = largest_difference(at, bt)
    print("%s dynamics over %g s: integration error (default - tight) one-line %.3e N, %.3e m|deg; lines %.3e N, "
          "%.3e m|deg; one-line vs lines at tight tolerances %.3e N, %.3e m|deg" %
          (connection, DURATION, ia, ia_p, ib, ib_p, dt, dt_p))
    check(dt <= 0.1 * min(ia, ib) and dt <= 2e-5 * fmag,
          "%s dynamics: the top force of the two forms agrees within a tenth of the integration error"
          % connection)
    check(dt_p <= 0.1 * min(ia_p, ib_p), "%s dynamics: the vessel's pose agrees within a tenth of the integration error"
          % connection)


def welded_models(connection):
    """The J-lay's top held at the vessel's initial hang-off, two ways: a one-line model whose
    top end is held there (fixed: all, at the top frame; hinge: x, y, z), and a lines: model
    whose top is attached to a body welded to the ground by a fixed joint (the vessel without
    its DP and environment load)."""
    one = one_line_model(connection)
    v = one.pop("vessel")
    ho = v["hang_off"]
    pos = [v["initial"]["position"][c] + ho["point"][c] for c in range(3)]
    assert not any(v["initial"].get("orientation", [0, 0, 0])), "the vessel starts level"
    top = {"position": pos, "fixed": "all" if connection == "fixed" else ["x", "y", "z"]}
    if connection == "fixed":
        top["orientation"] = ho["orientation"]
    held = copy.deepcopy(one)
    held["ends"]["top"] = top
    body = copy.deepcopy(v)
    for k in ("dp", "environment_load"):
        body.pop(k, None)
    welded = lines_model(dict(one, vessel=body))
    welded["joints"] = [{"name": "weld", "type": "fixed", "bodies": ["vessel", "ground"], "point": pos}]
    return held, welded


def welded_case(connection):
    """An end attached to a body (the attachment rows of system_dynamic.c, the joint's
    multipliers) against an end held by the line's own model (line_dynamics.c's held rows): two
    implementations of the same hold. Statics within 1e-8 of the top force, dynamics (the
    current ramped in) within a tenth of the integration error."""
    held, welded = welded_models(connection)
    tight = tight_sets()
    series = {}
    for form, model in (("held", held), ("welded", welded)):
        for tol, sets in (("default", []), ("tight", tight)):
            d = run(model, "welded_%s_%s_%s" % (connection, form, tol), *sets)
            if form == "held":
                r = read_csv(os.path.join(d, "timeseries_top.csv"))
                series[form, tol] = (r["t_s"], [r["top_load_%s_N" % c] for c in "xyz"])
            else:
                r = read_csv(os.path.join(d, "timeseries_lines.csv"))
                series[form, tol] = (r["t_s"], [r["pipe_b_force_%s_N" % c] for c in "xyz"])

    def diff(a, b):
        n = min(len(a[0]), len(b[0]))
        assert n > 10 and all(abs(a[0][i] - b[0][i]) < 1e-9 for i in range(n)), "the runs' output times differ"
        return max(abs(a[1][c][i] - b[1][c][i]) for c in range(3) for i in range(n))
    h, w = series["held", "default"], series["welded", "default"]
    fmag = math.sqrt(sum(h[1][c][0] ** 2 for c in range(3)))
    ds = max(abs(h[1][c][0] - w[1][c][0]) for c in range(3)) / fmag
    ih, iw = diff(h, series["held", "tight"]), diff(w, series["welded", "tight"])
    dt = diff(series["held", "tight"], series["welded", "tight"])
    print("welded %s: statics top force %.6e N, held and welded agree to %.1e of it; dynamics: integration error held "
          "%.3e N, welded %.3e N; held vs welded at tight tolerances %.3e N" % (connection, fmag, ds, ih, iw, dt))
    check(ds <= 1e-8, "welded %s statics: the top force of an end held and of an end on a welded body agree within "
          "1e-8" % connection)
    check(dt <= 0.1 * min(ih, iw), "welded %s dynamics: the top force of the held and the welded end agree within a "
          "tenth of the integration error" % connection)


os.makedirs(OUT, exist_ok=True)
for c in (sys.argv[4:] or ["fixed", "hinge", "welded_fixed", "welded_hinge"]):
    welded_case(c[7:]) if c.startswith("welded_") else case(c)
if failures:
    sys.exit(1)
