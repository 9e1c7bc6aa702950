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
import csv, math, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks  # PASS/FAIL lines and the runs of pipelay
from check_lay_route import MODEL as LAY_ROUTE  # the 12-inch lay on its route motion

FRICTION = "  friction: {axial: 0.5, lateral: 0.5}\n"
ROUTE_TOP = "    position: [330, 0, 0]\n    fixed: [x, y, z]\n    motion: {type: route}\n"


def model(closed, points, T, extra=""):
    """check_lay_route.py's J-lay with friction at 0.2 m/s along the route through points [m] for T
    [s]: the top on the open-loop route motion, or (closed) hung from the DP vessel."""
    text = LAY_ROUTE % (FRICTION, 0.2, points, ", radius: 400", T, 5)
    if closed:
        assert ROUTE_TOP in text
        text = text.replace(ROUTE_TOP, "") + dp_vessel(330.0, 6.0e5, 3.0e6, 0.2, 20.0)
    return text + extra


def dp_vessel(x0, kp, kd, speed, ramp):
    """The DP vessel the lay tests and bench/lay.sh hang the pipe from: examples/jlay_circle_dp.yaml's
    6000 t supply vessel, hinged at O_b, starting at x0 on the route, with surge and sway gains
    kp, kd [N/m, N s/m] (yaw 1e8 or 1e9 N m/rad and 1e9 N m s/rad), its reference the route at the
    lay speed [m/s] ramped in from 10 s over ramp [s]."""
    rows = lambda m: "[" + ", ".join("[%s]" % ", ".join(r.split()) for r in m.strip().split("\n")) + "]"
    added = """7.644e5 0 0 0 0 0
               0 5.3412e6 0 0 0 -3.401568e7
               0 0 9.6446e6 0 0 0
               0 0 0 1.51813e8 0 0
               0 0 0 0 4.267725e9 0
               0 -3.401568e7 0 0 0 2.274963e9"""
    damping = """7.7032e4 0 0 0 0 0
                 0 2.54549e5 0 0 0 -2.033122e6
                 0 0 5.5386e6 0 0 0
                 0 0 0 6.7173e7 0 0
                 0 0 0 0 3.39444e9 0
                 0 -6.72242e5 0 0 0 3.84811e8"""
    return ("vessel:\n  axes: pipelay\n  mass: 6.0e6\n  centre_of_gravity: [0, 0, 0]\n"
            "  radii_of_gyration: [7.0, 19.05, 19.05]\n  added_mass: %s\n  linear_damping: %s\n"
            "  quadratic_damping: [6.057e3, 1.84615e5, 0, 0, 0, 2.5526e9]\n"
            "  restoring: {waterplane_area: 1219.2, heave_equilibrium: 0, gm_transverse: 1.9113, "
            "gm_longitudinal: 84.398, displacement: 6.0e6}\n"
            "  initial: {position: [%.9g, 0, 0], orientation: [0, 0, 0]}\n"
            "  hang_off: {point: [0, 0, 0], connection: hinge}\n"
            "  dp:\n    kp: [%g, %g, 0, 0, 0, %g]\n    kd: [%g, %g, 0, 0, 0, 1.0e9]\n    ki: [0, 0, 0, 0, 0, 0]\n"
            "    actuated: [surge, sway, yaw]\n"
            "    reference: {type: route, eta: [%.9g, 0, 0, 0, 0, 0], speed: %.12g, start_time: 10, "
            "ramp_time: %g, heading: along_path}\n"
            % (rows(added), rows(damping), x0, kp, kp, 1.0e8 if kp < 1e7 else 1.0e9, kd, kd, x0, speed, ramp))


CURRENT = "current: {profile: uniform, speed: 0.3, direction: 90, start_time: 50, ramp_time: 100}\n"


def main():
    pipelay, work = sys.argv[1:3]
    ck = Checks(pipelay, work)
    check, run = ck.check, ck.run

    def table(out, name):
        return list(csv.DictReader(open(os.path.join(out, name))))

    def mean(xs):
        return sum(xs) / len(xs) if xs else float("nan")

    # 1. cross current on a straight route
    T = 2500.0
    res = {}
    for name in ("open", "closed"):
        out = run("current_" + name, model(name == "closed", "[[0, 0], [3000, 0]]", T, CURRENT))
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
    for name in ("open", "closed"):
        out = run("bend_" + name, model(name == "closed", pts, T))
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
    sys.exit(1 if ck.fails else 0)


if __name__ == "__main__":
    main()
