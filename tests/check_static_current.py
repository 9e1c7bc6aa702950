#!/usr/bin/env python3
"""Static current against a settled dynamic run (issue 12, item 3): the 30-inch J-lay in a
uniform lateral current of 0.5 m/s. The static analysis (the current's drag on the line at
rest) and the dynamic analysis (the current ramped in, 900 s with damping, settled) must
agree at the output points S = 500, 800, 1200 m: lateral offset y within 0.5 % of the static
offset (the dynamic run creeps to it with a time constant of about 150 s; measured -2.6e-4
at 900 s), x within 0.01 m (measured 1.1e-3 m), effective tension within 1e-4 (1.5e-6).

usage: check_static_current.py PIPELAY MODELS_DIR WORKDIR
"""
import csv, os, subprocess, sys

def main():
    pipelay, models, work = sys.argv[1:4]
    st, dy = os.path.join(work, "current_static"), os.path.join(work, "current_dynamic")
    for model, out in (("jlay_current_static.yaml", st), ("jlay_current_dynamic.yaml", dy)):
        p = subprocess.run([pipelay, "run", os.path.join(models, model), "--output", out, "--quiet", "--no-plots"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if p.returncode:
            print("FAIL %s: exit %d %s" % (model, p.returncode, p.stderr[-400:]))
            return 1
    nodes = list(csv.DictReader(open(os.path.join(st, "static.csv"))))
    fails = 0
    for name, S in (("s500", 500.0), ("s800", 800.0), ("s1200", 1200.0)):
        last = list(csv.DictReader(open(os.path.join(dy, "timeseries_%s.csv" % name))))[-1]
        node = min(nodes, key=lambda r: abs(float(r["S_m"]) - S))  # the output point's node
        ys, yd = float(node["y_m"]), float(last["y_m"])
        xs, xd = float(node["x_m"]), float(last["x_m"])
        ts, td = float(node["effective_tension_N"]), float(last["effective_tension_N"])
        ok = abs(yd - ys) <= 5e-3 * abs(ys) and abs(xd - xs) <= 0.01 and abs(td - ts) <= 1e-4 * abs(ts) and abs(ys) > 1.0
        fails += not ok
        print("%s S = %.1f m: y static %.4f m, dynamic at t = %s s %.4f m (%+.2e); x %+.4f m; tension %+.2e" % (
            "PASS" if ok else "FAIL", float(node["S_m"]), ys, last["t_s"], yd, (yd - ys) / ys, xd - xs, (td - ts) / ts))
    print("%d passed, %d failed" % (3 - fails, fails))
    return 1 if fails else 0

if __name__ == "__main__":
    sys.exit(main())
