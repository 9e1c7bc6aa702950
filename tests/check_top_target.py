#!/usr/bin/env python3
"""check_top_target.py - a J-lay given by its top tension, or by its hang-off (tower) angle,
reproduces the run given by the horizontal tension those correspond to (ends.top.target).

1. examples/jlay_900m.yaml (30 in pipe in 900 m, H = 400 kN at a hinged top free in x; 150
   elements) gives the top tension T0 and the hang-off angle theta0 (summary.json).
2. The same model started from H = 300 kN with ends.top.target.tension = T0, and from
   H = 600 kN with ends.top.target.angle = theta0: the solved top force is 400 kN to 1e-8, and
   every column of static.csv equals the H run's to 1e-8 of the column's largest magnitude
   (the static solves' tolerance is 1e-10 of the residual: both runs sit within that of the
   same equilibrium).
3. A top tension below the suspended weight is refused before any solve: 0.99 w h, w the
   pipe's submerged weight per metre computed here from its section (w = (rho_s A_s - rho_w
   pi d^2/4) g) and h the height from the bottom end to the top; exit 2, the key's place and
   the bound in the message. A tension between w h and T0 - H0 (1110.59 kN: the catenary's
   T - H = w h plus the bending's share) passes the loader, and cannot be reached with a
   positive H: the solve says so (exit 3) as the top force falls towards zero.

usage: check_top_target.py PIPELAY WORKDIR SOURCE_DIR
"""
import json, math, os, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks, column_difference, numeric_table as table  # noqa: E402


def run(pipelay, model, out, sets):
    args = [pipelay, "run", model, "--output", out, "--quiet", "--no-plots", "--set", "mesh.elements=150"]
    for s in sets:
        args += ["--set", s]
    return subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def main():
    pipelay, work, src = (os.path.abspath(a) for a in sys.argv[1:4])
    os.makedirs(work, exist_ok=True)
    c = Checks(pipelay, work)
    model = os.path.join(src, "examples", "jlay_900m.yaml")
    base = os.path.join(work, "h400")
    p = run(pipelay, model, base, [])
    if p.returncode:
        c.check(False, "the H = 400 kN run: exit %d %s" % (p.returncode, p.stderr[-400:]))
        return 1
    s0 = json.load(open(os.path.join(base, "summary.json")))
    T0, th0 = s0["top_tension_N"], s0["hang_off_angle_deg"]
    head, ref = table(os.path.join(base, "static.csv"))
    for name, sets in (("tension", ["ends.top.force=[300e3,0,0]", "ends.top.target.tension=%.17g" % T0]),
                       ("angle", ["ends.top.force=[600e3,0,0]", "ends.top.target.angle=%.17g" % th0])):
        out = os.path.join(work, name)
        p = run(pipelay, model, out, sets)
        if p.returncode:
            c.check(False, "target %s: exit %d %s" % (name, p.returncode, p.stderr[-400:]))
            continue
        s = json.load(open(os.path.join(out, "summary.json")))
        F = s["top_force_N"]
        c.check(abs(F[0] - 400e3) <= 1e-8 * 400e3 and F[1] == 0 and F[2] == 0,
                "target %s: the solved top force (%.10g, %g, %g) N is H = 400 kN to 1e-8, in %d static solves"
                % (name, F[0], F[1], F[2], s["target_solves"]))
        h2, got = table(os.path.join(out, "static.csv"))
        worst, where = column_difference(head, ref, got)
        c.check(h2 == head and len(got) == len(ref) and worst <= 1e-8,
                "target %s: static.csv equals the H = 400 kN run's, largest difference %.2e of a column's peak (%s; "
                "1e-8 allowed)" % (name, worst, where))
    # the suspended weight's bound, computed from the example's section
    do, t, rho_s, rho_w, g = 0.762, 0.033, 7850.0, 1025.0, 9.80665
    A_s = math.pi / 4 * (do ** 2 - (do - 2 * t) ** 2)
    w = (rho_s * A_s - rho_w * math.pi * do ** 2 / 4) * g
    h = 0.0 - (-899.71425)
    p = run(pipelay, model, os.path.join(work, "low"), ["ends.top.target.tension=%.6g" % (0.99 * w * h)])
    c.check(p.returncode == 2 and "ends.top.target.tension" in p.stderr and "--set:" in p.stderr
            and ("w h = %.6g kN" % (w * h / 1e3)) in p.stderr,
            "a top tension of 0.99 w h (w h = %.6g kN) refused with exit %d: %s" % (w * h / 1e3, p.returncode,
                                                                                  p.stderr.strip()[:300]))
    Tx = 0.5 * (w * h + T0 - 400e3)
    p = run(pipelay, model, os.path.join(work, "high"), ["ends.top.target.tension=%.9g" % Tx])
    c.check(p.returncode == 3 and "was not reached" in p.stderr and "suspended weight" in p.stderr,
            "a top tension of %.6g kN, between w h and T0 - H0 = %.6g kN, passes the loader and the solve says it "
            "cannot be reached (exit %d): %s" % (Tx / 1e3, (T0 - 400e3) / 1e3, p.returncode, p.stderr.strip()[:400]))
    print("%d failure(s)" % c.fails)
    return 1 if c.fails else 0


if __name__ == "__main__":
    sys.exit(main())
