#!/usr/bin/env python3
"""examples/spread_mooring_barge.yaml: a barge on a 12-line chain spread mooring (more lines than
a model once could hold) at rest and in time.

1. The static start with no environment load (the example's dynamic run cut to 1 s, its load
   set to zero): the whole system converges; the spread is symmetric about the barge's x and y
   axes, so the barge's surge, sway, roll, pitch and yaw are zero to round-off (1e-9 m, 1e-9 deg)
   and the legs that mirror one another (the same leg of the four corner groups) have equal
   fairlead tensions (relative 1e-9); each leg's fairlead and anchor tensions against the
   elastic catenary on a flat frictionless seabed through the anchor (tests/catenary.py:
   solve_seabed, from the model file's chain, anchors and fairleads at the barge's solved
   heave), relative 0.2 % (the rod's 10 m elements and its seabed contact law against the
   rigid seabed; measured at most 0.064 %); the lines' vertical pull equals the barge's lost
   buoyancy, rho g A_wp times its sinkage (relative 1e-6).
2. The example's dynamics with its environment load (200 kN surge, 100 kN sway, 2 MN m yaw,
   ramped in over 30 s), cut to 40 s: exit 0, the run completed, and the barge moved with the
   load (x and y positive).

usage: check_spread_mooring.py PIPELAY EXAMPLES WORKDIR
"""
import json, math, os, shutil, subprocess, sys
import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import catenary  # noqa: E402


def main():
    pipelay, examples, work = sys.argv[1:4]
    model = os.path.join(examples, "spread_mooring_barge.yaml")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    fails, npass = [], [0]

    def check(ok, what):
        print(("PASS " if ok else "FAIL ") + what)
        if ok:
            npass[0] += 1
        else:
            fails.append(what)

    m = yaml.safe_load(open(model))
    env = m["environment"]
    rho, g = float(env["water_density"]), float(env["gravity"])
    body = m["bodies"][0]
    lines = m["lines"]
    check(len(lines) == 12, "the example has 12 lines")

    # 1. the static start, no environment load
    out1 = os.path.join(work, "static")
    p = subprocess.run([pipelay, "run", model, "--set", "analysis.dynamic.duration=1", "--set",
                        "bodies[0].environment_load.force=[0, 0, 0]", "--set",
                        "bodies[0].environment_load.moment=[0, 0, 0]", "--output", out1, "--quiet", "--no-plots"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    check(p.returncode == 0, "the static start and 1 s run exit 0 (%d: %s)" % (p.returncode, p.stderr[-300:]))
    if p.returncode == 0:
        s = json.load(open(os.path.join(out1, "summary.json")))
        check(s["converged"], "the whole system converged")
        eta = s["bodies"]["barge"]["eta_m_deg"]
        check(all(abs(eta[i]) <= 1e-9 for i in (0, 1)), "no surge or sway: %.3g, %.3g m" % (eta[0], eta[1]))
        check(all(abs(eta[i]) <= 1e-9 for i in (3, 4, 5)),
              "no roll, pitch or yaw: %.3g, %.3g, %.3g" % (eta[3], eta[4], eta[5]))
        # mirror images: leg X of group ne, nw, sw, se
        top = {l["name"]: s["lines"][l["name"]]["top"]["tension_N"] for l in lines}
        for leg in "abc":
            t = [top[q + leg] for q in ("ne", "nw", "sw", "se")]
            check(max(t) - min(t) <= 1e-9 * max(t), "leg %s of the four groups pulls alike: %s N" %
                  (leg, ", ".join("%.6f" % v for v in t)))
        # each leg against the elastic catenary on the seabed
        r = s["bodies"]["barge"]["eta_m_deg"]
        worst = 0.0
        fz = 0.0
        for l in lines:
            sec = l["line"]["sections"][0]
            d = float(sec["outer_diameter"])  # (PyYAML reads 4.93e8 as text: YAML 1.1)
            w = (float(sec["mass_per_length"]) - rho * math.pi * d * d / 4.0) * g
            A = [float(v) for v in l["ends"]["bottom"]["position"]]
            at = [float(v) for v in l["ends"]["top"]["at"]]
            B = [r[0] + at[0], r[1] + at[1], r[2] + at[2]]  # no rotation (checked above)
            H, V0, TA, TB, Lb = catenary.solve_seabed(A, B, float(l["line"]["length"]), w, float(sec["EA"]))
            got = s["lines"][l["name"]]
            e_top = abs(got["top"]["tension_N"] / TB - 1.0)
            e_bot = abs(got["bottom"]["tension_N"] / TA - 1.0)
            worst = max(worst, e_top, e_bot)
            check(e_top <= 2e-3 and e_bot <= 2e-3 and Lb > 0.0,
                  "%s: fairlead %.1f N against the catenary's %.1f N, anchor %.1f N against %.1f N (%.0f m on the "
                  "seabed)" % (l["name"], got["top"]["tension_N"], TB, got["bottom"]["tension_N"], TA, Lb))
            fz += got["top"]["force_on_support_N"][2]
        print("largest relative difference from the catenary: %.2e" % worst)
        rest = body["restoring"]
        sink = float(rest["heave_equilibrium"]) - r[2]
        buoy = rho * g * float(rest["waterplane_area"]) * sink
        check(abs(-fz - buoy) <= 1e-6 * buoy, "the lines' vertical pull %.1f N is the lost buoyancy %.1f N "
              "(sinkage %.4f m)" % (-fz, buoy, sink))

    # 2. the dynamics with the example's environment load
    out2 = os.path.join(work, "dynamic")
    p = subprocess.run([pipelay, "run", model, "--set", "analysis.dynamic.duration=40", "--output", out2, "--quiet",
                        "--no-plots"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    check(p.returncode == 0, "40 s of the dynamics under the environment load exit 0 (%d: %s)" %
          (p.returncode, p.stderr[-300:]))
    if p.returncode == 0:
        s = json.load(open(os.path.join(out2, "summary.json")))
        check(s["completed"], "the run completed")
        rows = open(os.path.join(out2, "timeseries_barge.csv")).read().split("\n")
        head = rows[0].split(",")
        last = [float(v) for v in rows[-2].split(",")]
        x, y = last[head.index("x_m")], last[head.index("y_m")]
        check(x > 0.0 and y > 0.0, "the barge moved with the load: x %.3f m, y %.3f m" % (x, y))

    print("%d passed, %d failed" % (npass[0], len(fails)))
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
