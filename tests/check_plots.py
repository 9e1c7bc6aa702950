#!/usr/bin/env python3
"""check_plots.py - checks the plots a pipelay run leaves in RUN_DIR/plots.

usage: check_plots.py RUN_DIR [--static] [--dynamic]

For every expected plot NAME: NAME.gp (the gnuplot script), NAME.png (a PNG image) and
NAME.svg exist, and the SVG (parsed as XML) holds the plot title and every axis label with
its unit, e.g. "arc length S from the bottom end [m]", "effective tension n1 [kN]",
"bending moment [kN m]", as text elements. --static checks the static plots (from
static.csv), --dynamic the dynamic ones (from envelopes.csv and timeseries_<name>.csv:
one time-series plot per file present, and the top tension from timeseries_top.csv).
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
    "dynamic_top_tension": ("Top tension (dynamic)", [T, "top tension (effective tension at the top node) [kN]"]),
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


def main(argv):
    if len(argv) < 3 or any(a not in ("--static", "--dynamic") for a in argv[2:]):
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
    for name, (title, labels) in expected.items():
        check(plots, name, title, labels)
    for msg in failures:
        print(f"check_plots: FAIL {msg}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
