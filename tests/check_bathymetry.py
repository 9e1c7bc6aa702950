#!/usr/bin/env python3
"""A J-lay onto a curved bathymetry grid (issue 17, item 3): verification/jlay_slope's 30-inch
pipe with EI ~ 0 (a string) laid onto the 5 deg plane with a 3 m deep, 80 m wide Gaussian dip
across the laid pipe and a 0.5 % cross-slope (dip_grid.csv, 10 m grid, from make_reference.py),
frictionless, with default settings.

Checked:
- the static solve converges with the default settings (exit 0, summary converged);
- frictionless contact along the surface's normal: the contact force has no component along
  the pipe, so dT/ds = w dz/ds and T - w z is one constant along the whole line (suspended
  and laid): within 0.2 % of the top tension (measured 8.5e-4 of it; the near-zero EI's
  shear carries the rest);
- the mean normal force over three windows of the laid pipe (its straight part, the dip's
  convex shoulder, its concave bottom) against the string on a curved surface,
  N = w cos(th) - T z_s'' cos(th)^3, within 1 % of w (the tension presses the pipe onto a
  convex seabed and lifts it off a concave one);
- the cross-slope pushes the frictionless laid pipe downhill (y < 0 at every laid node);
- a grid that does not cover the line is warned about (node and position named) and a grid
  given in place of the model's plane gives the plane's result (the jlay_slope case checks
  that).

usage: check_bathymetry.py PIPELAY JLAY_SLOPE_DIR WORKDIR
"""
import csv, json, math, os, subprocess, sys

W = (593.2818 - 1025.0 * math.pi * 0.762 ** 2 / 4.0) * 9.80665  # submerged weight [N/m]
BETA = math.radians(5.0)

def run(pipelay, model, out, sets):
    cmd = [pipelay, "run", model, "--output", out, "--quiet", "--no-plots"]
    for s in sets:
        cmd += ["--set", s]
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

def main():
    pipelay, case, work = sys.argv[1:4]
    model = os.path.join(case, "slope.yaml")
    fails = 0

    def check(ok, what):
        nonlocal fails
        fails += not ok
        print("%s %s" % ("PASS" if ok else "FAIL", what))

    out = os.path.join(work, "bathymetry_dip")
    p = run(pipelay, model, out, ["seabed={model: linear, stiffness: 1.0e9, bathymetry: {file: dip_grid.csv}}"])
    conv = p.returncode == 0 and json.load(open(os.path.join(out, "summary.json"))).get("converged", False)
    check(conv, "static solve on the curved grid converges with default settings (exit %d)" % p.returncode)
    if not conv:
        print(p.stderr[-600:])
        return 1
    rows = list(csv.DictReader(open(os.path.join(out, "static.csv"))))
    S = [float(r["S_m"]) for r in rows]
    T = [float(r["effective_tension_N"]) for r in rows]
    z = [float(r["z_m"]) for r in rows]
    y = [float(r["y_m"]) for r in rows]
    N = [float(r["seabed_force_Npm"]) for r in rows]
    inv = [t - W * h for t, h in zip(T, z)]
    spread = max(inv) - min(inv)
    check(spread <= 2e-3 * T[-1], "T - w z constant along the line: spread %.1f N = %.2e of the top tension (0.2 %%)"
          % (spread, spread / T[-1]))

    # the normal force of a string on the surface z_s(x) along its fall line: N = w cos(th) -
    # T z_s'' cos(th)^3 with tan(th) = z_s' (the dip's Gaussian differentiated by hand); means
    # over three windows: the straight part, the convex shoulder, the concave bottom
    A, B, X0 = 3.0, 80.0, 200.0

    def expected(x, t):
        u = (x - X0) / B
        d1 = math.tan(BETA) + A * 2.0 * u / B * math.exp(-u * u)
        d2 = -A * (4.0 * u * u - 2.0) / (B * B) * math.exp(-u * u)
        c = 1.0 / math.sqrt(1.0 + d1 * d1)
        return W * c - t * d2 * c ** 3

    xs = [float(r["x_m"]) for r in rows]
    for a, b, what in ((20.0, 60.0, "straight part"), (95.0, 115.0, "convex shoulder"), (185.0, 215.0, "concave bottom")):
        k = [i for i, s in enumerate(S) if a <= s <= b]
        got = sum(N[i] for i in k) / len(k)
        want = sum(expected(xs[i], T[i]) for i in k) / len(k)
        check(abs(got - want) <= 0.01 * W, "normal force over S %g-%g m (%s): %.1f N/m against w cos - T z'' cos^3 = "
              "%.1f N/m (1 %% of w)" % (a, b, what, got, want))
    laid = [yy for s, yy, n in zip(S, y, N) if 5.0 < s < 370.0]
    check(max(laid) < 0.0, "the cross-slope pushes the laid pipe downhill: y from %.3f to %.3f m" % (min(laid), max(laid)))

    out2 = os.path.join(work, "bathymetry_short")
    with open(os.path.join(work, "short_grid.csv"), "w") as f:  # the plane, only up to x = 500 m
        f.write("x,y,depth\n")
        for j in range(-2, 3):
            for i in range(-4, 21):
                f.write("%.1f,%.1f,%.9f\n" % (25.0 * i, 50.0 * j, 900.0 - 25.0 * i * math.tan(BETA)))
    p = run(pipelay, model, out2, ["seabed={model: linear, stiffness: 1.0e9, bathymetry: {file: %s}}"
                                   % os.path.join(work, "short_grid.csv")])
    check(p.returncode == 0 and "outside the bathymetry grid" in p.stderr and "node " in p.stderr,
          "a grid short of the line is warned about: %s" % p.stderr.strip().splitlines()[-1:] )
    print("%d failed" % fails)
    return 1 if fails else 0

if __name__ == "__main__":
    sys.exit(main())
