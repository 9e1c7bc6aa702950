#!/usr/bin/env python3
"""The lay along a route by a DP vessel (issue 17, item 4; models.h, PlDPReference kind route):
the vessel's DP reference is derived from lay.route, the lay speed and the layback, and a
sampled guidance (a PI law on the touchdown point's measured offset from the route) keeps the
touchdown point on the route.

The 12-inch J-lay of tests/check_lay_route.py (150 m of water, 5 m elements, seabed friction
mu_a = mu_l = 0.5), hung from a 6000 t DP vessel (examples/jlay_circle_dp.yaml's, on a hinge at
O_b) whose reference is `type: route` at the lay speed V = 0.2 m/s, the tensioner paying out at V.
Each case is run twice: closed loop (the DP vessel) and open loop (the top end on a `route`
motion: the vessel on the route's tangent at the touchdown's target, the static layback ahead,
as check_lay_route.py).

1. Cross current: a straight route along +x and a uniform current of 0.3 m/s across it (+y,
   ramped in from 50 s over 100 s). The current deflects the suspended span, so the open loop
   lays the pipe off the route by the span's drift d (its touchdown offset over the last 300 s);
   the guidance's integral takes the drift up: the closed loop's touchdown offset over the last
   300 s is at most 5 % of d, and the vessel stands upcurrent of the route by d (its mean offset
   is -d within 10 %: the span's shape in a steady current does not depend on where it hangs).
2. A 30 deg left bend of radius 400 m (check_lay_route.py's hold case): the open loop lands the
   pipe outside the bend (the sagbend's stiffness makes the touchdown lag the span's turn; 6.3 m
   measured); the closed loop lands every laid node within 2.5 m of the route and within 40 % of the
   open loop's worst offset, and the vessel's heading turns with the route (30 deg within 0.5 deg
   at the end).

usage: check_dp_lay.py PIPELAY WORKDIR
"""
import csv, math, os, subprocess, sys

LINE = """environment: {water_depth: 150, water_density: 1025, gravity: 9.80665}
line:
  length: 400
  sections:
    - outer_diameter: 0.3239
      wall_thickness: 0.0159
      material: {youngs_modulus: 206e9, shear_modulus: 7.9231e10, density: 7850}
      hydrodynamics: {drag_normal: 1.0}
seabed:
  model: nonlinear
  friction: {axial: 0.5, lateral: 0.5}
mesh: {target_length: 5}
%s
lay:
  route: {points: %s, radius: 400}
analysis:
  type: dynamic
  dynamic: {duration: %g, output_interval: 5}
"""
OPEN = """name: lay along a route, open loop
ends:
  bottom: {position: [0, 0, -149.838], orientation: [0, 0, 0], fixed: all}
  top:
    position: [330, 0, 0]
    fixed: [x, y, z]
    motion: {type: route}
    payout: {rate: 0.2, start_time: 10, ramp_time: 20}
"""
CLOSED = """name: lay along a route by a DP vessel
ends:
  bottom: {position: [0, 0, -149.838], orientation: [0, 0, 0], fixed: all}
  top:
    payout: {rate: 0.2, start_time: 10, ramp_time: 20}
vessel:
  axes: pipelay
  mass: 6.0e6
  centre_of_gravity: [0, 0, 0]
  radii_of_gyration: [7.0, 19.05, 19.05]
  added_mass:
    - [7.644e5, 0, 0, 0, 0, 0]
    - [0, 5.3412e6, 0, 0, 0, -3.401568e7]
    - [0, 0, 9.6446e6, 0, 0, 0]
    - [0, 0, 0, 1.51813e8, 0, 0]
    - [0, 0, 0, 0, 4.267725e9, 0]
    - [0, -3.401568e7, 0, 0, 0, 2.274963e9]
  linear_damping:
    - [7.7032e4, 0, 0, 0, 0, 0]
    - [0, 2.54549e5, 0, 0, 0, -2.033122e6]
    - [0, 0, 5.5386e6, 0, 0, 0]
    - [0, 0, 0, 6.7173e7, 0, 0]
    - [0, 0, 0, 0, 3.39444e9, 0]
    - [0, -6.72242e5, 0, 0, 0, 3.84811e8]
  quadratic_damping: [6.057e3, 1.84615e5, 0, 0, 0, 2.5526e9]
  restoring: {waterplane_area: 1219.2, heave_equilibrium: 0, gm_transverse: 1.9113, gm_longitudinal: 84.398,
              displacement: 6.0e6}
  initial: {position: [330, 0, 0], orientation: [0, 0, 0]}
  hang_off: {point: [0, 0, 0], connection: hinge}
  dp:
    kp: [6.0e5, 6.0e5, 0, 0, 0, 1.0e8]
    kd: [3.0e6, 3.0e6, 0, 0, 0, 1.0e9]
    ki: [0, 0, 0, 0, 0, 0]
    actuated: [surge, sway, yaw]
    reference: {type: route, eta: [330, 0, 0, 0, 0, 0], speed: 0.2, start_time: 10, ramp_time: 20,
                heading: along_path}
"""
CURRENT = "current: {profile: uniform, speed: 0.3, direction: 90, start_time: 50, ramp_time: 100}\n"


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

    def table(out, name):
        return list(csv.DictReader(open(os.path.join(out, name))))

    def mean(xs):
        return sum(xs) / len(xs) if xs else float("nan")

    # 1. cross current on a straight route
    T = 2500.0
    res = {}
    for name, head in (("open", OPEN), ("closed", CLOSED)):
        out = run("current_" + name, head + CURRENT + LINE % ("", "[[0, 0], [3000, 0]]", T))
        if out:
            lay = [r for r in table(out, "lay.csv") if float(r["t_s"]) >= T - 300 and r["touchdown_offset_m"]]
            res[name] = (mean([float(r["touchdown_offset_m"]) for r in lay]),
                         max(abs(float(r["touchdown_offset_m"])) for r in lay),
                         mean([float(r["vessel_offset_m"]) for r in lay]))
    if len(res) == 2:
        d, eo, yv = res["open"][0], res["closed"][1], res["closed"][2]
        check(abs(d) >= 0.3 and eo <= 0.05 * abs(d) and abs(yv + d) <= 0.1 * abs(d),
              "cross current 0.3 m/s: the open loop lays the pipe %.3f m off the route (the span's drift d); the DP "
              "vessel's guidance keeps the touchdown within %.3f m of it over the last 300 s (5 %% of |d|) and stands "
              "%.3f m off the route (-d within 10 %%: %+.1f %%)" % (d, eo, yv, 100 * (yv + d) / abs(d) if d else 0))

    # 2. a 30 deg left bend of radius 400 m
    T, R, turn = 2200.0, 400.0, math.radians(30.0)
    pts = "[[0, 0], [400, 0], [%.9f, %.9f]]" % (400 + 1500 * math.cos(turn), 1500 * math.sin(turn))
    s0 = 400 - R * math.tan(turn / 2)
    s1 = s0 + R * turn
    worst = {}
    for name, head in (("open", OPEN), ("closed", CLOSED)):
        out = run("bend_" + name, head + LINE % ("", pts, T))
        if not out:
            continue
        laid = [r for r in table(out, "as_laid.csv") if r["landed_t_s"]]
        arc = [abs(float(r["offset_m"])) for r in laid if s0 <= float(r["station_m"]) <= s1]
        worst[name] = (max(abs(float(r["offset_m"])) for r in laid), len(arc), max(arc) if arc else float("nan"))
        if name == "closed":
            yaw = float(table(out, "timeseries_vessel.csv")[-1]["yaw_deg"])
            check(abs(yaw - 30.0) <= 0.5, "bend: the vessel's heading turns with the route: %.2f deg at the end (30 "
                  "within 0.5)" % yaw)
    if len(worst) == 2:
        o, c = worst["open"], worst["closed"]
        check(c[1] >= 30 and c[0] <= 2.5 and c[0] <= 0.4 * o[0],
              "30 deg bend, R = 400 m: the open loop lays the pipe up to %.2f m off the route (%.2f m on the arc); the "
              "DP vessel's guidance up to %.2f m (2.5 m, and at most 40 %% of the open loop's: %.0f %%; %d laid nodes "
              "on the arc)" % (o[0], o[2], c[0], 100 * c[0] / o[0], c[1]))
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
