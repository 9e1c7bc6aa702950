#!/usr/bin/env python3
"""output_invariance: what a run writes does not change what it computes.

The same dynamic model run with output_interval 0.1 s and 0.05 s, with checkpoints every
10 s of wall time and none, with plots on and off, with ParaView frames every second and at
every output, and with an output point added, takes the same number of
steps, Newton iterations and iteration matrices, and every value of every time series is the
same to the bit at the common output times. IDA steps past the output times and interpolates
back (it does not stop at them), and the size of its first step is set by the run's duration,
not by the first output time.

Cases: a one-line stiff jumper (tests/models/accuracy_jumper.yaml) and a system of lines and
bodies (tests/models/system_bodies.yaml).

usage: check_output_invariance.py PIPELAY WORKDIR SOURCE_DIR
"""
import json, os, subprocess, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import series

def run(pipelay, model, out, sets, plots=False):
    args = [pipelay, "run", model, "--quiet", "--output", out] + ([] if plots else ["--no-plots"])
    for s in sets:
        args += ["--set", s]
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode:
        print(p.stderr[-500:])
    return p.returncode


def rows(path):
    with open(path) as f:
        lines = f.read().splitlines()
    return {line.split(",", 1)[0]: line for line in lines[1:]}

def counters(d):
    j = json.load(open(os.path.join(d, "summary.json")))
    dyn = j.get("dynamic", j)
    return tuple(dyn.get(k) for k in ("steps", "nonlinear_iterations", "jacobian_evaluations"))

def same(a, b):
    """(ok, what): every row of a whose time b also has is identical to the byte."""
    sa, sb = series(a), series(b)
    if not set(sa) <= set(sb):
        return False, "files missing: %s" % sorted(set(sa) - set(sb))
    common = 0
    for rel in sa:
        ra, rb = rows(sa[rel]), rows(sb[rel])
        for t, line in ra.items():
            if t in rb:
                common += 1
                if rb[t] != line:
                    return False, "%s differs at t = %s" % (rel, t)
    return common > 0, "%d common rows" % common

def main():
    pipelay, work, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
    os.makedirs(work, exist_ok=True)
    fails = 0
    for name, model, base in (
        ("jumper", os.path.join(src, "tests", "models", "accuracy_jumper.yaml"), ["analysis.dynamic.duration=40"]),
        ("bodies", os.path.join(src, "tests", "models", "system_bodies.yaml"), []),
    ):
        d = lambda tag: os.path.join(work, name + "_" + tag)
        variants = [
            ("dt005", base + ["analysis.dynamic.output_interval=0.05"], False),
            ("nockpt", base + ["output.checkpoint_interval=0"], False),
            ("plots", base, True),
            ("vtk_every_output", base + ["output.vtk_interval=0"], False),
        ]
        if name == "jumper":  # an output point between nodes (a one-line model's output.points)
            variants.append(("point", base + ["output.points=[{name: mid, arc_length: 85.3}]"], False))
        if run(pipelay, model, d("ref"), base):
            print("FAIL %s: the reference run failed" % name)
            fails += 1
            continue
        for tag, sets, plots in variants:
            if run(pipelay, model, d(tag), sets, plots):
                print("FAIL %s %s: the run failed" % (name, tag))
                fails += 1
                continue
            ok, what = same(d("ref"), d(tag))
            c0, c1 = counters(d("ref")), counters(d(tag))
            ok = ok and c0 == c1
            print("%s %s %s: %s; steps, iterations, matrices %s and %s" %
                  ("PASS" if ok else "FAIL", name, tag, what, c0, c1))
            fails += not ok
    print("%d failure(s)" % fails)
    return 1 if fails else 0

if __name__ == "__main__":
    sys.exit(main())
