#!/usr/bin/env python3
"""Plausibility warnings (issue 12, item 7): values that could be intended are warned about
with one line `FILE:LINE:COL: key: warning: ...` and the run goes on (exit 0); a section that
floats is accepted when marked `buoyant: true`. (The errors are bad models of
tests/bad_models/plausible_*.yaml, checked by the test `loader`.)

usage: check_plausible.py PIPELAY EXAMPLES
"""
import os, subprocess, sys

CASES = [  # (override, key in the message, a word of the warning)
    ("line.sections[0].material.youngs_modulus=5e8", "line.sections[0].material.youngs_modulus", "HDPE"),
    ("environment.gravity=10.5", "environment.gravity", "gravity"),
    ("environment.water_density=1200", "environment.water_density", "sea or fresh water"),
    ("ends.top.position=[~,0,150]", "ends.top.position", "above the sea surface"),
]

def main():
    pipelay, examples = sys.argv[1:3]
    model = os.path.join(examples, "jlay_900m.yaml")
    fails = 0
    for ov, key, word in CASES:
        p = subprocess.run([pipelay, "info", model, "--set", ov], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        ok = (p.returncode == 0 and len(lines) == 1 and lines[0].startswith("--set:1:1: %s: warning: " % key)
              and word in lines[0])
        print("%s %s: exit %d, %r" % ("PASS" if ok else "FAIL", ov, p.returncode, lines))
        fails += not ok
    # a time series shorter than the dynamic run (issue 13, item 7): warned, then held
    stall = os.path.join(os.path.dirname(os.path.abspath(__file__)), "models", "stall_linear.yaml")
    p = subprocess.run([pipelay, "info", stall, "--set", "analysis.dynamic.duration=20"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    ok = p.returncode == 0 and "ends.top.motion.file: warning: the time series ends at t = 10 s" in p.stderr
    print("%s a time series shorter than the run: exit %d, %r" % ("PASS" if ok else "FAIL", p.returncode, p.stderr.strip()))
    fails += not ok
    # a buoyancy section: refused without the key, accepted with it
    sets = ["line.sections[0].material.density=900"]
    p = subprocess.run([pipelay, "info", model, "--set", sets[0]], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    ok = p.returncode == 2 and "buoyant: true" in p.stderr
    print("%s a floating section without buoyant: true: exit %d" % ("PASS" if ok else "FAIL", p.returncode))
    fails += not ok
    p = subprocess.run([pipelay, "info", model, "--set", sets[0], "--set", "line.sections[0].buoyant=true"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    ok = p.returncode == 0 and not p.stderr.strip()
    print("%s the same with buoyant: true: exit %d %s" % ("PASS" if ok else "FAIL", p.returncode, p.stderr.strip()))
    fails += not ok
    print("%d passed, %d failed" % (len(CASES) + 3 - fails, fails))
    return 1 if fails else 0

if __name__ == "__main__":
    sys.exit(main())
