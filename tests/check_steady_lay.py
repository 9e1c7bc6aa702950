#!/usr/bin/env python3
"""Steady lay is a moving static catenary (issue 17, "Done when"; docs/design-laying.md
sections 3 and 4).

A 12-inch steel pipe (OD 0.3239 m, WT 15.9 mm, drag C_dn = 1) J-laid in 150 m of water: 400 m
of pipe on 80 elements of 5 m, the bottom end anchored on the seabed at the origin, the top
held at the hang-off point (330, 0, 0). Its static solution (the run's own static phase) is the
reference: top tension 88.1 kN, hang-off angle 64.5 deg, layback 177.9 m, touchdown at
S = 152 m. In time the vessel advances along +x at V = 0.1 m/s (a time series of the hang-off's
offset, x(t) = s(t)) while the tensioner pays out at the same rate (`ends.top.payout.rate`,
from t = 10 s with a 20 s C^2 ramp, the same s(t)): 78 m are laid in 800 s, the top element
split 15 times. After the transient (t >= 300 s), in the vessel's frame:
- the suspended shape is the static catenary of the same horizontal tension within 0.5 %: the
  top tension and the horizontal tension along the pipe (their means over each 50 s split
  cycle; at single outputs the top tension is within 3 %: the integration's error in a stiff
  pipe's end force shows at isolated outputs, up to 1.6 % here, 0.6 % at rtol 1e-5), the
  horizontal tension along the pipe (T cos of the hang-off angle: the top
  load's own horizontal component also carries the top element's shear, 2 M / l, which the
  element's growth from 5 to 10 m between splits changes), the hang-off angle (0.5 % of it),
  the layback and the suspended length (S_top - S_touchdown) against the static ones, at
  every output from 300 s to 800 s (measured within 0.4 %: the drag of the moving pipe,
  O(rho C_d D V^2) = 2 N/m on 0.36 kN/m of submerged weight, is the difference);
- it does not drift: between 400 s and 800 s the top tension (its means over the split cycles
  that start and end the interval, 400-450 s and 750-800 s: a single output carries the
  integration's error in the end force, up to 1 %) and the layback change by less than 0.1 %
  and the hang-off angle by less than 0.01 deg;
- the touchdown point walks with the vessel: its arc length advances at V within 0.5 %
  (the laid length grows by what is paid out);
- no pipe is lost or made at the splits: the line's length at the end (the top node's arc
  length in envelopes.csv, the sum of its elements) equals line.length + paid_out_m to
  1e-9 relative, and paid_out_m = s(T) to 1e-9 m.

usage: check_steady_lay.py PIPELAY WORKDIR
"""
import csv, json, math, os, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_payout import s_of  # the pay-out's C^2 ramp (models/motion.c, PlPayout): the vessel's advance too

MODEL = """name: steady lay at 0.1 m/s
environment: {water_depth: 150, water_density: 1025, gravity: 9.80665}
line:
  length: 400
  sections:
    - outer_diameter: 0.3239
      wall_thickness: 0.0159
      material: {youngs_modulus: 206e9, shear_modulus: 7.9231e10, density: 7850}
      hydrodynamics: {drag_normal: 1.0}
seabed: {model: nonlinear}
mesh: {target_length: 5}
ends:
  bottom: {position: [0, 0, -149.838], orientation: [0, 0, 0], fixed: all}
  top:
    position: [330, 0, 0]
    fixed: [x, y, z]
    motion: {type: timeseries, file: %s, interpolation: cubic}
    payout: {rate: %g, start_time: 10, ramp_time: 20}
analysis:
  type: dynamic
  dynamic: {duration: %g, output_interval: 1}
"""

V, T, L0 = 0.1, 800.0, 400.0


def main():
    pipelay, work = sys.argv[1:3]
    fails = 0

    def check(ok, what):
        nonlocal fails
        fails += not ok
        print("%s %s" % ("PASS" if ok else "FAIL", what))

    path = os.path.join(work, "steady_lay_vessel.csv")
    with open(path, "w") as f:
        f.write("t,x,y,z\n")
        for i in range(0, int(T) + 2):
            f.write("%d,%.12g,0,0\n" % (i, s_of(i, V)))
    model = os.path.join(work, "steady_lay.yaml")
    with open(model, "w") as f:
        f.write(MODEL % (path, V, T))
    out = os.path.join(work, "steady_lay")
    p = subprocess.run([pipelay, "run", model, "--output", out, "--quiet", "--no-plots"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode:
        print("FAIL the lay run: exit %d %s" % (p.returncode, p.stderr[-800:]))
        return 1
    sm = json.load(open(os.path.join(out, "summary.json")))
    Ts, ths, Ls, Sts = (sm["static_top_tension_N"], sm["static_hang_off_angle_deg"], sm["static_layback_m"],
                        sm["static_touchdown_arc_length_m"])
    Hs = Ts * math.cos(math.radians(ths))
    top = {int(round(float(r["t_s"]))): r for r in csv.DictReader(open(os.path.join(out, "timeseries_top.csv")))}
    td = {int(round(float(r["t_s"]))): r for r in csv.DictReader(open(os.path.join(out, "touchdown.csv")))}
    worst = {"hang-off angle": 0.0, "layback": 0.0, "suspended length": 0.0}
    tension, horiz = {}, {}
    for t in range(300, int(T) + 1):
        r = top[t]
        Td = math.sqrt(sum(float(r["top_load_%s_N" % c]) ** 2 for c in "xyz"))
        tension[t] = Td
        horiz[t] = Td * math.cos(math.radians(float(r["hang_off_angle_deg"])))
        Sd = float(td[t]["touchdown_arc_length_m"])
        dev = {"hang-off angle": float(r["hang_off_angle_deg"]) / ths - 1,
               "layback": float(td[t]["layback_m"]) / Ls - 1,
               "suspended length": (L0 + s_of(t, V) - Sd) / (L0 - Sts) - 1}
        for k, v in dev.items():
            if abs(v) > abs(worst[k]):
                worst[k] = v
    # the top tension over each split cycle (50 s: the top element grows from 5 to 10 m), and at
    # every output
    cyc = [sum(tension[t] for t in range(a, a + 50)) / 50.0 / Ts - 1 for a in range(300, int(T), 50)]
    worst["top tension (50 s means)"] = max(cyc, key=abs)
    cyc = [sum(horiz[t] for t in range(a, a + 50)) / 50.0 / Hs - 1 for a in range(300, int(T), 50)]
    worst["horizontal tension (50 s means)"] = max(cyc, key=abs)
    spike = max((tension[t] / Ts - 1 for t in tension), key=abs)
    check(all(abs(v) <= 5e-3 for v in worst.values()),
          "steady lay at %g m/s, 300 to %g s, against the static catenary (top tension %.1f kN, H %.1f kN, hang-off "
          "%.2f deg, layback %.2f m, suspended %.2f m): largest deviations %s (0.5 %%)"
          % (V, T, Ts / 1e3, Hs / 1e3, ths, Ls, L0 - Sts,
             ", ".join("%s %+.2e" % (k, v) for k, v in worst.items())))
    check(abs(spike) <= 0.03, "the top tension at every output from 300 s within 3 %% of the static: %+.2e (the "
          "integration's error in a stiff pipe's end force at isolated outputs; the 50 s means are within 0.5 %%)"
          % spike)
    a, b = top[400], top[int(T)]
    Ta = sum(tension[t] for t in range(400, 450)) / 50.0
    Tb = sum(tension[t] for t in range(int(T) - 50, int(T))) / 50.0
    dL = float(td[int(T)]["layback_m"]) / float(td[400]["layback_m"]) - 1
    dth = float(b["hang_off_angle_deg"]) - float(a["hang_off_angle_deg"])
    check(abs(Tb / Ta - 1) < 1e-3 and abs(dL) < 1e-3 and abs(dth) < 0.01,
          "no drift from 400 s to %g s: top tension (50 s means) %+.2e, layback %+.2e, hang-off angle %+.4f deg (0.1 %%, 0.01 deg)"
          % (T, Tb / Ta - 1, dL, dth))
    speed = (float(td[int(T)]["touchdown_arc_length_m"]) - float(td[400]["touchdown_arc_length_m"])) / (T - 400)
    check(abs(speed / V - 1) <= 5e-3, "the touchdown point advances along the pipe at %.5f m/s against the vessel's "
          "%g m/s (0.5 %%)" % (speed, V))
    env = list(csv.DictReader(open(os.path.join(out, "envelopes.csv"))))
    Send = float(env[-1]["S_m"])
    paid = sm.get("paid_out_m", float("nan"))
    check(abs(Send / (L0 + paid) - 1) <= 1e-9 and abs(paid - s_of(T, V)) <= 1e-9,
          "the line's length at the end %.9f m = line.length + paid_out_m %.9f m (%.1e; 1e-9), paid_out_m - s(T) = "
          "%.1e m, over %s splits (%s nodes)" % (Send, L0 + paid, Send / (L0 + paid) - 1, paid - s_of(T, V),
                                                 sm.get("payout_remeshes"), sm.get("line_nodes")))
    print("%d failed" % fails)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
