#!/usr/bin/env python3
"""check_plots.py - checks the plots a pipelay run leaves in RUN_DIR/plots.

usage: check_plots.py RUN_DIR [--static] [--dynamic] [--bodies] [--system] [--sections N]

For every expected plot NAME: NAME.gp (the gnuplot script), NAME.png (a PNG image) and
NAME.svg exist, and the SVG (parsed as XML) holds the plot title and every axis label with
its unit, e.g. "arc length S from the bottom end [m]", "effective tension n1 [kN]",
"bending moment [kN m]", as text elements. --static checks the static plots (from
static.csv), --dynamic the dynamic ones (from envelopes.csv and timeseries_<name>.csv:
one time-series plot per file present, the top (tension, load on the top, top angles) from
timeseries_top.csv, the energy from energy.csv).
--system checks a model of several lines: the configuration of every line with its points and
bodies (static_system). --bodies checks a model without a line: per body (timeseries_<body>.csv with the pose
columns) its position, attitude and velocities, per joint its force and moment, and the
energy (issue 14).
Also (issue 13, item 11): the tick labels of the curvature plot are all different (no
repeated "0.003"); the plan view's legend is below the plot; when summary.json has a
touchdown point, the static plots against S and the configuration mark it; with
--sections N (N > 1) the N - 1 section boundaries are marked on the plots against S.
Quiet on success; one line per failure and exit status 1.
"""
import glob
import os
import re
import sys
import xml.etree.ElementTree as ET

S = "arc length S from the bottom end [m]"
T = "time t [s]"
STATIC = {
    "static_configuration": ("Static configuration of the line", ["x [m]", "z [m]", "y [m]"]),
    "static_tension": ("Effective tension along the line (static)", [S, "effective tension n1 [kN]"]),
    "static_bending_moment": ("Bending moments along the line (static)", [S, "bending moment [kN m]"]),
    "static_curvature": ("Bending curvature along the line (static)", [S, "curvature |kappa| [1/m]"]),
    "static_seabed_force": ("Seabed contact force along the line (static)",
                            [S, "seabed contact force per length [kN/m]"]),
}
DYNAMIC = {
    "dynamic_envelope_displacement": ("Displacement envelopes from the static shape (dynamic)",
                                      [S, "dx [m]", "dy [m]", "dz [m]"]),
    "dynamic_envelope_bending_moment": ("Bending moment envelopes (dynamic)", [S, "m2 [kN m]", "m3 [kN m]"]),
    "dynamic_envelope_tension": ("Effective tension envelope (dynamic)", [S, "effective tension n1 [kN]"]),
    "dynamic_top_tension": ("The top of the line (dynamic)", [T, "tension [kN]", "force [kN]", "angle [deg]",
                                                             "flex-joint angle [deg]"]),
    "dynamic_energy": ("Mechanical energy (dynamic)", [T, "energy [kJ]"]),
}
failures = []


def svg_texts(path):
    root = ET.parse(path).getroot()
    texts = []
    for el in root.iter():
        if el.tag.rsplit("}", 1)[-1] == "text":
            texts.append("".join(el.itertext()).strip())
    return texts


def check(plots, name, title, labels):
    base = os.path.join(plots, name)
    for ext in (".gp", ".png", ".svg"):
        if not os.path.isfile(base + ext):
            failures.append(f"{base}{ext}: missing")
            return
    with open(base + ".png", "rb") as f:
        if f.read(8) != b"\x89PNG\r\n\x1a\n":
            failures.append(f"{base}.png: not a PNG image")
    try:
        texts = svg_texts(base + ".svg")
    except ET.ParseError as e:
        failures.append(f"{base}.svg: not valid XML: {e}")
        return
    if title not in texts:
        failures.append(f"{base}.svg: no title '{title}'")
    for label in labels:
        if label not in texts:
            failures.append(f"{base}.svg: no axis label '{label}'")
    for label in labels:
        if not re.search(r"\[[^\]]+\]$", label):
            failures.append(f"{name}: label '{label}' has no unit")


def number(text):
    try:
        return float(text)
    except ValueError:
        return None


def check_marks(run, plots, sections):
    """Item 11: curvature ticks, the plan legend, touchdown and section marks."""
    texts = svg_texts(os.path.join(plots, "static_curvature.svg"))
    ticks = [t for t in texts if number(t) is not None]
    if len(ticks) != len(set(ticks)):
        failures.append(f"static_curvature.svg: repeated tick labels {ticks}")
    with open(os.path.join(plots, "static_configuration.gp")) as f:
        gp = f.read()
    plan = gp.find("Plan view")
    if plan < 0 or gp.rfind("set key below", 0, plan) < gp.rfind("Elevation", 0, plan):
        failures.append("static_configuration.gp: the plan view's legend is not below the plot")
    try:
        import json
        with open(os.path.join(run, "summary.json")) as f:
            s = json.load(f)
        td = s.get("touchdown_arc_length_m", s.get("static_touchdown_arc_length_m"))
    except (OSError, ValueError):
        td = None
    for name in ("static_tension", "static_bending_moment", "static_curvature", "static_configuration"):
        texts = svg_texts(os.path.join(plots, name + ".svg"))
        if td is not None and not any(t.startswith("touchdown") for t in texts):
            failures.append(f"{name}.svg: the touchdown point (S = {td:.1f} m) is not marked")
        for k in range(1, sections):
            if f"sections {k}|{k + 1}" not in texts:
                failures.append(f"{name}.svg: the boundary of sections {k} and {k + 1} is not marked")


def main(argv):
    sections = 1
    if "--sections" in argv:
        i = argv.index("--sections")
        sections = int(argv[i + 1])
        del argv[i:i + 2]
    if len(argv) < 3 or any(a not in ("--static", "--dynamic", "--bodies", "--system") for a in argv[2:]):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    run = argv[1]
    plots = os.path.join(run, "plots")
    expected = {}
    if "--static" in argv:
        expected.update(STATIC)
    if "--dynamic" in argv:
        expected.update(DYNAMIC)
        for f in sorted(glob.glob(os.path.join(run, "timeseries_*.csv"))):
            point = os.path.basename(f)[len("timeseries_"):-len(".csv")]
            expected[f"dynamic_timeseries_{point}"] = (
                f"Time series at the point {point} (dynamic)",
                [T, "displacement [m]", "effective tension n1 [kN]", "bending moment [kN m]", "curvature [1/m]"])
    if "--dynamic" in argv and not os.path.isfile(os.path.join(run, "energy.csv")):
        expected.pop("dynamic_energy")
    if "--system" in argv:
        expected["static_system"] = ("Static configuration of the lines", ["x [m]", "z [m]", "y [m]"])
    if "--bodies" in argv:
        expected["dynamic_energy"] = DYNAMIC["dynamic_energy"]
        for f in sorted(glob.glob(os.path.join(run, "timeseries_*.csv"))):
            name = os.path.basename(f)[len("timeseries_"):-len(".csv")]
            with open(f) as fh:
                header = fh.readline()
            if "roll_deg" in header:
                expected[f"dynamic_body_{name}"] = (f"Body {name} (dynamic)", [T, "position [m]", "angle [deg]",
                                                                           "velocity [m/s]", "rate [deg/s]"])
            elif "force_x_N" in header:
                expected[f"dynamic_joint_{name}"] = (f"Joint {name}: its load on the first body, global (dynamic)",
                                                     [T, "force [N]", "moment [N m]"])
            else:
                failures.append(f"{f}: neither a body's nor a joint's time series")
    top = os.path.join(run, "timeseries_top.csv")
    if "--dynamic" in argv and os.path.isfile(top):
        with open(top) as f:
            if "top_load_x_N" not in f.readline():  # a synthetic run in the old format: one panel
                expected["dynamic_top_tension"] = ("The top of the line (dynamic)", [T, "tension [kN]"])
    for name, (title, labels) in expected.items():
        check(plots, name, title, labels)
    if "--static" in argv and not failures:
        check_marks(run, plots, sections)
    for msg in failures:
        print(f"check_plots: FAIL {msg}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
