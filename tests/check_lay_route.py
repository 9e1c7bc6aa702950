#!/usr/bin/env python3
"""The lay along a route (issue 17, items 4 and 5; docs/design-laying.md section 4) and the
curved-lay criterion.

The 12-inch J-lay of tests/check_steady_lay.py (150 m of water, 400 m of pipe on 80 elements of
5 m, submerged weight w = 355.5 N/m) with its top end on a route motion (`ends.top.motion:
{type: route}`): the vessel leads the touchdown point along `lay.route` by the static layback,
as the tensioner pays out (the pay-out rate is the lay speed).

1. A straight route along +x at 0.1 m/s for 800 s (as the steady lay's time series): the
   vessel's path is the route's, its station advances by the pay-out (1e-5 m: the hold is a
   constraint the integrator meets to its tolerance) at zero offset; the touchdown point stays
   on the route (|offset| < 1 mm) and its station advances with the pay-out within 0.5 %;
   lay.csv's laid tension (the residual lay tension where the pipe lands), its mean from
   300 s, is the static bottom tension within 1 % (single outputs scatter by about 10 %: the
   strain of a stiff pipe at the integration's tolerance); as_laid.csv's laid nodes sit on the
   route (|offset| < 1 mm).
   With `lay.retire_behind: 60` the same lay retires the laid pipe 60 m behind the touchdown
   point into a fixed end (33 elements, 165 m): the suspended span is unchanged (top and laid
   tension over the last 100 s and the layback within 0.1 %, the touchdown's station within
   5 cm).
2. The curved-lay criterion: a route that turns 30 deg to the left at (400, 0) on an arc of
   radius R, laid at 0.2 m/s for 2200 s with seabed friction mu_a = mu_l = 0.5 (mobilisation
   5 mm and 0.1 d_o): the laid pipe holds its curve where R > T_b / (mu_l w) and slides inward
   below it. With T_b the catenary's bottom tension while the touchdown crosses the bend (the
   top load's horizontal part, averaged: about 34.5 kN, R_crit = 194 m), R = 400 m (above
   1.5 R_crit) holds: no laid node on the arc moves inward after landing by more than 0.5 m
   (as_laid.csv's moved_offset_m; measured 0.17 m); R = 100 m (below R_crit / 1.5) slides:
   every laid node on the arc has moved inward by more than 1 m (measured 2.8 to 5.6 m); and
   without friction the 400 m arc slides inward by tens of metres (measured 38-64 m): the
   friction holds it. route.csv's length is the legs' less the bend's tangent lengths plus the
   arc (1e-9) and its arc points lie on the circle (1e-9 of R).

usage: check_lay_route.py PIPELAY WORKDIR
"""
import csv, json, math, os, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_payout import s_of  # the pay-out's C^2 ramp (models/motion.c, PlPayout)

MODEL = """name: lay along a route
environment: {water_depth: 150, water_density: 1025, gravity: 9.80665}
line:
  length: 400
  sections:
    - outer_diameter: 0.3239
      wall_thickness: 0.0159
      material: {youngs_modulus: 206e9, shear_modulus: 7.9231e10, density: 7850}
      hydrodynamics: {drag_normal: 1.0}
seabed:
  model: nonlinear
%smesh: {target_length: 5}
ends:
  bottom: {position: [0, 0, -149.838], orientation: [0, 0, 0], fixed: all}
  top:
    position: [330, 0, 0]
    fixed: [x, y, z]
    motion: {type: route}
    payout: {rate: %g, start_time: 10, ramp_time: 20}
lay:
  route: {points: %s%s}
analysis:
  type: dynamic
  dynamic: {duration: %g, output_interval: %g}
"""
OD, WT = 0.3239, 0.0159
W = (7850 * math.pi / 4 * (OD ** 2 - (OD - 2 * WT) ** 2) - 1025 * math.pi / 4 * OD ** 2) * 9.80665


def main():
    pipelay, work = sys.argv[1:3]
    fails = 0

    def check(ok, what):
        nonlocal fails
        fails += not ok
        print("%s %s" % ("PASS" if ok else "FAIL", what))

    def run(name, text):
        path = os.path.join(work, name + ".yaml")
        with open(path, "w") as f:
            f.write(text)
        out = os.path.join(work, name)
        p = subprocess.run([pipelay, "run", path, "--output", out, "--quiet", "--no-plots"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if p.returncode:
            check(False, "%s: exit %d %s" % (name, p.returncode, p.stderr[-600:]))
            return None
        return out

    # 1. the straight route
    V, T = 0.1, 800.0
    out = run("route_straight", MODEL % ("", V, "[[0, 0], [2000, 0]]", "", T, 1))
    if out:
        sm = json.load(open(os.path.join(out, "summary.json")))
        lay = list(csv.DictReader(open(os.path.join(out, "lay.csv"))))
        sv0 = float(lay[0]["vessel_station_m"])
        dv = max(abs(float(r["vessel_station_m"]) - sv0 - s_of(float(r["t_s"]), V)) for r in lay)
        ov = max(abs(float(r["vessel_offset_m"])) for r in lay)
        ot = max(abs(float(r["touchdown_offset_m"])) for r in lay)
        check(dv <= 1e-5 and ov <= 1e-9 and ot <= 1e-3,
              "straight route: the vessel's station advances by the pay-out to %.1e m at offset %.1e m; the touchdown "
              "point's offset at most %.1e m (1 mm)" % (dv, ov, ot))
        a, b = lay[400], lay[-1]
        speed = (float(b["touchdown_station_m"]) - float(a["touchdown_station_m"])) / (float(b["t_s"]) - float(a["t_s"]))
        Tb = float(lay[0]["laid_tension_N"])
        Tl = [float(r["laid_tension_N"]) for r in lay[300:]]
        dT = sum(Tl) / len(Tl) / Tb - 1
        check(abs(speed / V - 1) <= 5e-3 and abs(dT) <= 1e-2,
              "straight route: the touchdown point's station advances at %.5f m/s (0.5 %% of %g); the laid tension's "
              "mean from 300 s %+.2e of the static bottom tension %.0f N (1 %%; single outputs %.0f to %.0f N: the "
              "strain of a stiff pipe at the integration's tolerance, EA atol_strain = 1.6 kN)"
              % (speed, V, dT, Tb, min(Tl), max(Tl)))
        laid = [r for r in csv.DictReader(open(os.path.join(out, "as_laid.csv"))) if r["on_seabed"] == "1"]
        om = max(abs(float(r["offset_m"])) for r in laid)
        check(len(laid) > 20 and om <= 1e-3,
              "straight route: as_laid.csv's %d laid nodes within %.1e m of the route (1 mm); %s top elements split"
              % (len(laid), om, sm.get("payout_remeshes")))

    # 1b. retirement: the same lay with laid pipe retired 60 m behind the touchdown point
    if out:
        out2 = run("route_retire", (MODEL % ("", V, "[[0, 0], [2000, 0]]", "", T, 1))
                   .replace("  route: {points: [[0, 0], [2000, 0]]}", "  route: {points: [[0, 0], [2000, 0]]}\n"
                            "  retire_behind: 60"))
        if out2:
            here = os.path.dirname(os.path.abspath(__file__))
            q = subprocess.run([sys.executable, os.path.join(here, "check_summary_schema.py"),
                                os.path.join(here, "..", "docs", "summary-schema.json"), os.path.join(out2, "summary.json")],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            check(q.returncode == 0, "summary.json of a lay with splits and retirement against docs/summary-schema.json "
                  "(%s)" % (q.stdout.strip()[-300:] or "valid"))
            sm2 = json.load(open(os.path.join(out2, "summary.json")))
            a = list(csv.DictReader(open(os.path.join(out, "lay.csv"))))
            b = list(csv.DictReader(open(os.path.join(out2, "lay.csv"))))
            ta = list(csv.DictReader(open(os.path.join(out, "touchdown.csv"))))
            tb = list(csv.DictReader(open(os.path.join(out2, "touchdown.csv"))))
            mean = lambda rows, k: sum(float(r[k]) for r in rows[-100:]) / 100.0
            dT = mean(b, "top_tension_N") / mean(a, "top_tension_N") - 1
            dL = mean(b, "laid_tension_N") / mean(a, "laid_tension_N") - 1
            dS = abs(float(b[-1]["touchdown_station_m"]) - float(a[-1]["touchdown_station_m"]))
            dB = float(tb[-1]["layback_m"]) / float(ta[-1]["layback_m"]) - 1
            check(sm2.get("retired_elements", 0) >= 20 and abs(dT) <= 1e-3 and abs(dL) <= 1e-3 and dS <= 0.05
                  and abs(dB) <= 1e-3,
                  "retiring laid pipe 60 m behind the touchdown point (%s elements, %.0f m; %s nodes left of %s) leaves "
                  "the suspended span as it was: top tension %+.1e and laid tension %+.1e over the last 100 s, layback "
                  "%+.1e (0.1 %%), touchdown station %.3f m (5 cm)"
                  % (sm2.get("retired_elements"), sm2.get("retired_length_m", float("nan")), sm2.get("line_nodes"),
                     json.load(open(os.path.join(out, "summary.json"))).get("line_nodes"), dT, dL, dB, dS))

    # 2. the curved-lay criterion
    V, T, mu = 0.2, 2200.0, 0.5
    fric = "  friction: {axial: %g, lateral: %g}\n" % (mu, mu)
    turn = math.radians(30.0)
    pts = "[[0, 0], [400, 0], [%.9f, %.9f]]" % (400 + 1500 * math.cos(turn), 1500 * math.sin(turn))
    res = {}
    for name, R, f in (("hold", 400.0, fric), ("slide", 100.0, fric), ("frictionless", 400.0, "")):
        out = run("route_%s" % name, MODEL % (f, V, pts, ", radius: %g" % R, T, 5))
        if not out:
            continue
        s0 = 400 - R * math.tan(turn / 2)
        s1 = s0 + R * turn
        lay = list(csv.DictReader(open(os.path.join(out, "lay.csv"))))
        top = list(csv.DictReader(open(os.path.join(out, "timeseries_top.csv"))))
        # the catenary's bottom tension while the touchdown crosses the bend: the top load's
        # horizontal part (the horizontal tension is constant along a catenary), averaged
        H = [math.hypot(float(q["top_load_x_N"]), float(q["top_load_y_N"])) for r, q in zip(lay, top)
             if r["touchdown_station_m"] and s0 <= float(r["touchdown_station_m"]) <= s1]
        arc = [r for r in csv.DictReader(open(os.path.join(out, "as_laid.csv")))
               if r["landed_t_s"] and s0 <= float(r["station_m"]) <= s1]
        moved = [float(r["moved_offset_m"]) for r in arc]
        if name == "hold":  # the route's geometry: its length, legs less their bends' tangents plus the arc
            rt = list(csv.DictReader(open(os.path.join(out, "route.csv"))))
            Tt = R * math.tan(turn / 2)
            want = 400 - Tt + R * turn + 1500 - Tt
            rad = max(abs(math.hypot(float(r["x_m"]) - (400 - Tt), float(r["y_m"]) - R) - R)
                      for r in rt if s0 <= float(r["station_m"]) <= s1)
            check(abs(float(rt[-1]["station_m"]) - want) <= 1e-9 * want and rad <= 1e-9 * R,
                  "route.csv: the route is %.9f m long (legs less the bend's tangents plus the arc: %.9f m; 1e-9) and "
                  "its arc points lie %.1e m off the circle of radius %g m about its centre" %
                  (float(rt[-1]["station_m"]), want, rad, R))
        res[name] = (R, sum(H) / len(H) if H else float("nan"), moved, float(lay[-1]["touchdown_station_m"] or "nan"),
                     s1)
    if "hold" in res:
        R, Hb, moved, std, s1 = res["hold"]
        rc = Hb / (mu * W)
        check(std > s1 + 20 and len(moved) >= 10 and R > 1.5 * rc and max(moved) <= 0.5,
              "R = %g m > 1.5 T_b/(mu_l w) = 1.5 x %.0f m (T_b %.0f N over the bend, w %.1f N/m): the laid arc holds its "
              "curve: %d nodes moved inward after landing by at most %.3f m (0.5 m)"
              % (R, rc, Hb, W, len(moved), max(moved) if moved else float("nan")))
    if "slide" in res:
        R, Hb, moved, std, s1 = res["slide"]
        rc = Hb / (mu * W)
        check(std > s1 + 20 and len(moved) >= 5 and R < rc / 1.5 and min(moved) >= 1.0,
              "R = %g m < T_b/(mu_l w) / 1.5 = %.0f m / 1.5 (T_b %.0f N over the bend): the laid arc slides inward: its "
              "%d nodes moved inward by %.2f to %.2f m (more than 1 m)"
              % (R, rc, Hb, len(moved), min(moved) if moved else float("nan"), max(moved) if moved else float("nan")))
    if "frictionless" in res:
        moved = res["frictionless"][2]
        check(len(moved) > 0 and min(moved) >= 10.0,
              "without friction the 400 m arc slides inward by %.1f to %.1f m (more than 10 m): the friction holds it"
              % (min(moved) if moved else float("nan"), max(moved) if moved else float("nan")))
    print("%d failed" % fails)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
