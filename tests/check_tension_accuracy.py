#!/usr/bin/env python3
"""check_tension_accuracy.py - the top tension of a fine mesh holds issue 15's accuracy at the
default tolerances, at every output time.

Runs examples/jlay_circle.yaml (the section 5.4.3 J-lay, top on a 2.5 m circle, 60 s) with 740
nodes twice: at the default tolerances, and with every tolerance ten times tighter (rtol,
atol_position, atol_rotation, atol_velocity, atol_strain). The effective tension at the top
(timeseries_top.csv) of the two must agree within 0.3 % of its largest value at every one of
the 601 output times (issue 15's bound; measured 0.137 %). A mean over the history would not
do: the failures this guards against are isolated spikes. With a 2 m element at the top, a
position error of 2e-5 m between its nodes is already 1 % of the tension (EA = 1.55e10 N), while
IDA's error test and Newton's weighted RMS norm weigh positions there by rtol |u| = 2.4e-4 m.
The accuracy rests on the iteration matrix's renewal every 20 steps (solver/system_dynamic.c,
kMatrixAge): without it the tension spikes at isolated times, by up to 9.3 % against a reference
that keeps it (bench/README.md), and the two runs here, both without it, differ by 14.6 %
(27 output times beyond 0.3 %).
Usage: check_tension_accuracy.py PIPELAY EXAMPLES_DIR WORKDIR
"""
import csv, os, subprocess, sys

pipelay, examples, work = sys.argv[1:4]
os.makedirs(work, exist_ok=True)
model = os.path.join(examples, "jlay_circle.yaml")
tight = ["analysis.dynamic.rtol=1e-5", "analysis.dynamic.atol_position=1e-6", "analysis.dynamic.atol_rotation=1e-6",
         "analysis.dynamic.atol_velocity=1e-4", "analysis.dynamic.atol_angular_velocity=1e-4", "analysis.dynamic.atol_strain=5e-8"]
failures = []


def run(name, sets):
    out = os.path.join(work, name)
    cmd = [pipelay, "run", model, "--output", out, "--quiet", "--no-plots", "--set", "mesh.elements=739"]
    for s in sets:
        cmd += ["--set", s]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        print(f"check_tension_accuracy: FAIL {' '.join(cmd)}: exit {r.returncode}: {r.stderr.strip()[:300]}")
        sys.exit(1)
    with open(os.path.join(out, "timeseries_top.csv")) as f:
        rows = list(csv.DictReader(f))
    return [float(r["t_s"]) for r in rows], [float(r["effective_tension_N"]) for r in rows]


t, T = run("default", [])
t2, T2 = run("tight", tight)
if len(t) != 601 or t != t2:
    failures.append(f"the two runs' output times differ ({len(t)} and {len(t2)} rows; 601 expected)")
else:
    scale = max(abs(x) for x in T2)
    d = [abs(a - b) / scale for a, b in zip(T, T2)]
    k = max(range(len(d)), key=lambda i: d[i])
    print(f"check_tension_accuracy: top tension against tolerances / 10: largest difference {100 * d[k]:.3f} % "
          f"of {scale:.6g} N at t = {t[k]:g} s (bound 0.3 %)")
    if d[k] > 0.003:
        failures.append(f"the top tension differs from the run with tolerances / 10 by {100 * d[k]:.3f} % of its "
                        f"largest value at t = {t[k]:g} s ({sum(x > 0.003 for x in d)} output times beyond 0.3 %)")
for f in failures:
    print("check_tension_accuracy: FAIL", f)
sys.exit(1 if failures else 0)
