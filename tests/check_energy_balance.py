#!/usr/bin/env python3
"""energy.csv's balance with seabed friction and the other dissipations (issue 17; the work
integrals of solver/system_dynamic.c, the friction's energy of models/friction.c).

energy.csv carries the work of every load the energies do not hold, integrated with the motion
as states of the DAE, and balance_J = total - total(0) - sum of the work (+ dissipated_J); the
friction's work splits into its springs' stored energy, the anchors' slip and the rest:
-work_friction = friction_stored - friction_stored(0) + friction_slip + friction_nonconservative
(the law is hyperelastic, models/friction.c, so the last is zero but for the round-off of the
law's solve and the springs' energy that a changing normal force brings, nil on a flat seabed). Both close to the integration error; the tolerance is stated from the run's
tolerances: |balance| <= 10 rtol max|work| + 100 atol_position F_ref (F_ref the line's weight
and end loads, the work integrals' own absolute tolerance: a position error of atol_position
under the line's forces, over about 100 steps' accumulation).

1. Friction (check_friction.py's 30-inch pipe, 100 m, on a flat seabed 100 m deep, mu_a = 0.5,
   mu_l = 0.8, delta_a = 5 mm, delta_l = 76.2 mm), IDA at rtol 1e-7:
   a. the top end drawn 2 m along the pipe at 0.1 m/s: the pipe slides axially as a rigid body
      (its stretch under mu_a w L is 0.2 mm), so the energy the slip dissipates is the closed
      form mu_a w L tanh(4) (d - 4 delta_a), d the middle's travel (the anchors follow at the
      law's sliding slip s = 4, where the friction is tanh(4) of mu_a w: along the axis with the
      smaller mu delta the law's elastic slip at s is delta_a s), within 1 %; the friction's work
      is -(stored + slip + non-conservative) and the ends' work (the pull) pays for it;
   b. a current across it at 1.5 mu_l w ramped in: the pipe breaks out and slides sideways as a
      rigid body; the slip's energy is mu_l w L tanh(4) (d - u_el) within 1 %, u_el the law's
      lateral elastic slip where the anchors flow, at s = 4 (r = tanh 4): u_el = delta_l ((1 -
      eps) tanh 4 + 4 eps), eps = mu_a delta_a/(mu_l delta_l) = 0.041 (models/friction.c; 0.0855 m,
      where the former tanh law had 4 delta_l = 0.305 m); the drag's work (positive: the current
      drives) pays for it;
   c. the top end drawn along as in a, and from 6 s the current of b across: the slip turns,
      where a non-conservative law does work around the turn (the former tanh law's
      friction_nonconservative_J reached 1266 J here), so the check that it stays nil checks the
      law's conservation;
   in all: balance closes (tolerance above) and the friction's split to ten times it (u' =
   v_m - a' is the small difference of two integrated rates: 1.96 J at rtol 1e-7, 8.2 J at
   1e-6, 0.59 J at 1e-8 on the lateral slide), the slip's energy never decreases, the
   non-conservative work stays below 1e-9 of it (zero to round-off: the law is hyperelastic and
   the seabed flat), the stored energy while sliding is the law's closed form on its axis,
   w L Psi(s) between s = 3 and 4 (the springs at their sliding slip; axially Psi = mu_a delta_a
   log cosh s, laterally Psi = mu_l delta_l (1 - eps) tanh^2(s)/2 + mu_a delta_a log cosh s),
   and the driving work equals the
   slip's and the springs' within 1 %; when the drawn end comes back (its cubic path overshoots
   by 7 mm) the springs unload with no slip.
2. The J-lay circle of examples/jlay_circle.yaml for 12 s (drag, seabed, the top end driven on
   its circle), with contact damping, added mass, tangential drag and rotational damping
   switched on so that every work term is exercised: at the example's tolerances (rtol 1e-4)
   and at rtol 1e-6 (atols 1e-9) the balance closes to the stated tolerance and drops with the
   tolerances; the drag, the contact damping and the rotational damping only take energy out
   (their work never increases), the driven end puts it in; every term except the splash
   zone's (tenths of a joule) is larger than the tight run's closure, so each is checked.

usage: check_energy_balance.py PIPELAY WORKDIR EXAMPLES
"""
import csv, json, math, os, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_friction import model, shape, MUA, MUL, DA, DL, W, D, RHO, ZREST  # noqa: E402

WORK = ("work_loads_J", "work_drag_J", "work_added_mass_J", "work_seabed_J", "work_seabed_damping_J",
        "work_friction_J", "work_ends_J", "work_rotational_damping_J", "work_splash_zone_J", "work_rollers_J")


def rows(out):
    return [{k: float(v) for k, v in r.items()} for r in csv.DictReader(open(os.path.join(out, "energy.csv")))]


def run(args):
    return subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


EPS = MUA * DA / (MUL * DL)  # mu_a delta_a < mu_l delta_l: the lateral law's eps (models/friction.c)


def elastic_slip(name, s):
    """The law's slip along its axis at the utilisation measure s (r = tanh s)."""
    return DA * s if name == "axial" else DL * ((1.0 - EPS) * math.tanh(s) + EPS * s)


def stored(name, s):
    """The law's stored energy per unit normal force along its axis at s (models/friction.c)."""
    if name == "axial":
        return MUA * DA * math.log(math.cosh(s))
    return 0.5 * MUL * DL * (1.0 - EPS) * math.tanh(s) ** 2 + MUA * DA * math.log(math.cosh(s))


def tolerance(r, rtol, atol, fref):
    big = max(abs(x[k]) for x in r for k in WORK + ("dissipated_J",))
    return 10.0 * rtol * big + 100.0 * atol * fref, big


def main():
    pipelay, work, examples = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    fails = 0

    def check(ok, what):
        nonlocal fails
        fails += not ok
        print("%s %s" % ("PASS" if ok else "FAIL", what))

    def closes(r, rtol, atol, fref, what):
        tol, big = tolerance(r, rtol, atol, fref)
        bal = max(abs(x["balance_J"]) for x in r)
        recomputed = max(abs(x["total_J"] - r[0]["total_J"] - sum(x[k] for k in WORK) + x["dissipated_J"]
                             - x["balance_J"]) for x in r)
        check(bal <= tol and recomputed <= 1e-9 * big,
              "%s: |balance_J| <= %.3g J against %.3g J (10 rtol max|work| + 100 atol F_ref; max|work| %.4g J); "
              "balance_J is total - total(0) - the work columns (to %.1e J)" % (what, bal, tol, big, recomputed))
        return bal

    # ---- 1. friction
    L, nel, rtol, atol = 100.0, 50, 1e-7, 1e-8
    fref = W * L
    laid = os.path.join(work, "laid")
    shape(laid, [(L * i / nel, L * i / nel, 0.0, ZREST, 1.0, 0.0) for i in range(nel + 1)])
    fric = "{axial: %g, lateral: %g}" % (MUA, MUL)
    dyn = ("analysis:\n  type: dynamic\n  dynamic: {duration: %g, output_interval: 0.5, rtol: %g, atol_position: %g, "
           "atol_velocity: 1e-7, atol_angular_velocity: 1e-7, atol_rotation: 1e-8}\noutput:\n  points:\n    - {name: mid, arc_length: %g}\n")
    pull = os.path.join(work, "pull.csv")
    with open(pull, "w") as f:
        f.write("t,x,y,z\n")
        for t in range(0, 25):
            f.write("%d,%.6f,0,0\n" % (t, 0.1 * min(max(t - 2, 0), 20)))
    U = math.sqrt(1.5 * MUL * W / (0.5 * RHO * 1.0 * D))
    cases = (("axial", MUA, DA, "{position: [%g, 0, %.12g], motion: {type: timeseries, file: %s, interpolation: cubic}}"
              % (L, ZREST, pull), dyn % (24.0, rtol, atol, L / 2), 0),
             ("lateral", MUL, DL, "{position: [%g, 0, %.12g]}" % (L, ZREST),
              "current: {profile: uniform, speed: %.12g, direction: 90, start_time: 1, ramp_time: 4}\n" % U
              + dyn % (16.0, rtol, atol, L / 2), 1),
             ("turning", MUL, DL, "{position: [%g, 0, %.12g], motion: {type: timeseries, file: %s, interpolation: "
              "cubic}}" % (L, ZREST, pull),
              "current: {profile: uniform, speed: %.12g, direction: 90, start_time: 6, ramp_time: 4}\n" % U
              + dyn % (16.0, rtol, atol, L / 2), 1))
    for (name, mu, delta, top, extra, comp), t_slid in zip(cases, (22.0, 16.0, 16.0)):
        y = os.path.join(work, "friction_%s.yaml" % name)
        out = os.path.join(work, "friction_%s" % name)
        model(y, "energy balance, %s slide" % name, L, nel, fric, "{position: [0, 0, %.12g], fixed: [rx]}" % ZREST,
              top, extra)
        p = run([pipelay, "run", y, "--output", out, "--start-from", laid, "--quiet", "--no-plots"])
        if p.returncode:
            check(False, "friction %s: exit %d %s" % (name, p.returncode, p.stderr[-600:]))
            continue
        r = rows(out)
        closes(r, rtol, atol, fref, "friction, %s slide" % name)
        tol, big = tolerance(r, rtol, atol, fref)
        split = max(abs(x["work_friction_J"] + x["friction_stored_J"] - r[0]["friction_stored_J"] + x["friction_slip_J"]
                        + x["friction_nonconservative_J"]) for x in r)
        check(split <= 10.0 * tol, "friction, %s slide: -work_friction = stored change + slip + non-conservative to %.3g J (%.3g J: "
              "ten times the balance's, u' = v_m - a' being the small difference of two integrated rates)"
              % (name, split, 10.0 * tol))
        slip = [x["friction_slip_J"] for x in r]
        check(all(b >= a - tol for a, b in zip(slip, slip[1:])) and slip[-1] > 0,
              "friction, %s slide: the slip's dissipated energy never decreases (%.6g J at the end)" % (name, slip[-1]))
        loss = max(abs(x["friction_nonconservative_J"]) for x in r)
        check(loss <= 1e-9 * slip[-1], "friction, %s slide: the non-conservative work %.3g J (either sign) is nil: "
              "below 1e-9 of the slip's %.6g J (the law is conservative)" % (name, loss, slip[-1]))
        if name == "turning":
            continue
        mid = list(csv.DictReader(open(os.path.join(out, "timeseries_mid.csv"))))
        d = abs(float(mid[-1]["xyz"[comp] + "_m"]) - float(mid[0]["xyz"[comp] + "_m"]))
        ref = mu * W * L * math.tanh(4.0) * (d - elastic_slip(name, 4.0))
        check(abs(slip[-1] / ref - 1.0) <= 0.01,
              "friction, %s slide: slip dissipated %.6g J against mu w L tanh(4) (d - u_el) = %.6g J, d = %.4f m, "
              "u_el = %.4f m (1 %%)" % (name, slip[-1], ref, d, elastic_slip(name, 4.0)))
        lo, hi = W * L * stored(name, 3.0), W * L * stored(name, 4.0)
        slid = [x for x in r if x["t_s"] <= t_slid + 1e-9][-1]
        st = slid["friction_stored_J"]
        check(lo * 0.99 <= st <= hi * 1.01, "friction, %s slide: stored %.5g J at t = %g s (sliding) within the law's "
              "w L Psi(s), s in [3, 4]: [%.5g, %.5g] J" % (name, st, t_slid, lo, hi))
        drive = r[-1]["work_ends_J" if name == "axial" else "work_drag_J"]
        spent = slip[-1] + r[-1]["friction_stored_J"] - r[0]["friction_stored_J"]
        check(drive > 0 and abs(drive / spent - 1.0) <= 0.01, "friction, %s slide: the %s's work %.6g J pays for the "
              "slip and the springs, %.6g J (1 %%)" % (name, "pull" if name == "axial" else "current", drive, spent))
        if name == "axial":
            # the end's cubic path overshoots 7 mm past 2 m after t = 22 s and comes back: the springs
            # unload elastically, giving back stored energy without slip
            back = [x for x in r if x["t_s"] >= 22.5]
            check(back[-1]["friction_stored_J"] < 0.8 * st and back[-1]["friction_slip_J"] - back[0]["friction_slip_J"]
                  <= 1e-6 * slip[-1], "friction, axial: the end comes back 7 mm: the springs unload (stored %.5g J from "
                  "%.5g J) and nothing slips (%.3g J)" % (back[-1]["friction_stored_J"], st,
                                                          back[-1]["friction_slip_J"] - back[0]["friction_slip_J"]))

    # ---- 2. the J-lay circle
    base = [pipelay, "run", os.path.join(examples, "jlay_circle.yaml"), "--quiet", "--no-plots",
            "--set", "analysis.dynamic.duration=12", "--set", "seabed.damping=2e4",
            "--set", "line.sections[0].hydrodynamics.added_mass_normal=1.0",
            "--set", "line.sections[0].hydrodynamics.drag_tangential=0.1",
            "--set", "line.sections[0].hydrodynamics.rotational_damping=[100,100,100]"]
    tight = ["--set", "analysis.dynamic.rtol=1e-6", "--set", "analysis.dynamic.atol_position=1e-9",
             "--set", "analysis.dynamic.atol_velocity=1e-8", "--set", "analysis.dynamic.atol_rotation=1e-9",
             "--set", "analysis.dynamic.atol_angular_velocity=1e-8",
             "--set", "analysis.dynamic.atol_strain=1e-12"]
    closure = {}
    for tag, extra, rt, at in (("example", [], 1e-4, 1e-5), ("tight", tight, 1e-6, 1e-9)):
        out = os.path.join(work, "jlay_" + tag)
        p = run(base + extra + ["--output", out])
        if p.returncode:
            check(False, "J-lay circle (%s tolerances): exit %d %s" % (tag, p.returncode, p.stderr[-600:]))
            continue
        r = rows(out)
        s = json.load(open(os.path.join(out, "summary.json")))
        fr = s.get("static_top_tension_N", 0.0) + 1500.0 * 1234.0  # the line's weight and its end load
        closure[tag] = closes(r, rt, at, fr, "J-lay circle, %s tolerances" % tag)
        if tag != "tight":
            continue
        # summary.json's max_energy_balance_J and max_work_J: energy.csv's largest |balance_J|, and the
        # largest of |total - total(0)| and of every work column's magnitude, over the outputs
        noscale = ("t_s", "kinetic_J", "strain_J", "potential_J", "total_J", "friction_stored_J", "balance_J")
        bmax = max(abs(x["balance_J"]) for x in r)
        wmax = max(max([abs(x["total_J"] - r[0]["total_J"])] + [abs(v) for k, v in x.items() if k not in noscale])
                   for x in r)
        sb, sw = s.get("max_energy_balance_J"), s.get("max_work_J")
        check(sb is not None and sw is not None and abs(sb - bmax) <= 1e-12 * wmax and abs(sw - wmax) <= 1e-12 * wmax,
              "J-lay circle: summary.json max_energy_balance_J %s J and max_work_J %s J are energy.csv's %.6g J and "
              "%.6g J (1e-12 of the latter)" % (sb, sw, bmax, wmax))
        for k in ("work_drag_J", "work_seabed_damping_J", "work_rotational_damping_J"):
            v = [x[k] for x in r]
            check(all(b <= a + 1e-9 * abs(a) for a, b in zip(v, v[1:])) and v[-1] < 0,
                  "J-lay circle: %s only takes energy out (%.6g J at the end)" % (k, v[-1]))
        check(r[-1]["work_ends_J"] > 0, "J-lay circle: the driven end puts %.6g J in" % r[-1]["work_ends_J"])
        small = [k for k in WORK if k not in ("work_loads_J", "work_friction_J", "work_splash_zone_J", "work_rollers_J")
                 and max(abs(x[k]) for x in r) <= 10.0 * closure[tag]]
        check(not small, "J-lay circle: each work term is above ten times the closure %.3g J (%s)"
              % (closure[tag], ", ".join(small) or "all"))
    if len(closure) == 2:
        check(closure["tight"] < 0.1 * closure["example"], "J-lay circle: the closure drops with the tolerances "
              "(%.3g J at rtol 1e-4, %.3g J at 1e-6)" % (closure["example"], closure["tight"]))
    print("%d failed" % fails)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
