#!/usr/bin/env python3
"""check_depth_sweep.py - an end placed relative to the seabed (ends.*.z_reference: seabed)
follows the water depth, so that a J-lay can be swept over depth.

1. examples/jlay_900m.yaml with its bottom end given as 0.28575 m above the seabed (the
   centreline at d_o/2 - d_o/8 above it) instead of z = -899.71425 m: static.csv equals the
   example's to 1e-9 of each column's largest magnitude (the same model; 150 elements).
2. `pipelay sweep --vary environment.water_depth=800,900,1000`: every case converges, its
   bottom end lies at -depth + 0.28575 m (1e-9 m), and the top tension grows with the depth as
   the catenary's T_top = H + w h says for a fixed H: T(d) - T(800) = w (d - 800) within 0.1 %,
   w the pipe's submerged weight per metre computed here from its section (the bending's share
   of T - H, about 0.2 kN of 1110 kN, is the same at every depth to well within that).
3. z_reference: seabed with a free z is refused (exit 2, naming the key).

usage: check_depth_sweep.py PIPELAY WORKDIR SOURCE_DIR
"""
import math, os, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks, column_difference, numeric_table as table  # noqa: E402


def main():
    pipelay, work, src = (os.path.abspath(a) for a in sys.argv[1:4])
    os.makedirs(work, exist_ok=True)
    c = Checks(pipelay, work)
    example = os.path.join(src, "examples", "jlay_900m.yaml")
    text = open(example).read()
    old = "position: [0, 0, -899.71425]"
    if old not in text:
        c.check(False, "the example's bottom end is no longer %s: update this test" % old)
        return 1
    rel = os.path.join(work, "jlay_seabed.yaml")
    with open(rel, "w") as f:
        f.write(text.replace(old, "position: [0, 0, 0.28575]\n    z_reference: seabed"))
    base = ["--quiet", "--no-plots", "--set", "mesh.elements=150"]
    outs = {}
    for name, model in (("absolute", example), ("seabed", rel)):
        outs[name] = os.path.join(work, name)
        p = subprocess.run([pipelay, "run", model, "--output", outs[name]] + base, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        if p.returncode:
            c.check(False, "%s: exit %d %s" % (name, p.returncode, p.stderr[-400:]))
            return 1
    head, a = table(os.path.join(outs["absolute"], "static.csv"))
    _, b = table(os.path.join(outs["seabed"], "static.csv"))
    worst, _ = column_difference(head, a, b)
    c.check(len(a) == len(b) and worst <= 1e-9,
            "the bottom end 0.28575 m above the seabed equals z = -899.71425 m: largest difference %.2e of a "
            "column's peak (1e-9 allowed)" % worst)
    sweep = os.path.join(work, "sweep")
    depths = [800.0, 900.0, 1000.0]
    p = subprocess.run([pipelay, "sweep", rel, "--vary", "environment.water_depth=" + ",".join("%g" % d for d in depths),
                        "--output", sweep] + base, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode:
        c.check(False, "the depth sweep: exit %d %s" % (p.returncode, p.stderr[-400:]))
        return 1
    h, rows = table(os.path.join(sweep, "sweep.csv"))
    T = {r[h.index("value")]: r[h.index("top_tension_N")] for r in rows}
    c.check(all(r[h.index("converged")] == 1 for r in rows) and sorted(T) == depths,
            "the depth sweep: %d cases, all converged" % len(rows))
    for k, d in enumerate(depths):
        sh, st = table(os.path.join(sweep, "case_%03d" % k, "static.csv"))
        z0 = st[0][sh.index("z_m")]
        c.check(abs(z0 - (-d + 0.28575)) <= 1e-9, "depth %g m: the bottom end at z = %.12g m, -depth + 0.28575 m "
                "to 1e-9 m" % (d, z0))
    do, t, rho_s, rho_w, g = 0.762, 0.033, 7850.0, 1025.0, 9.80665
    w = (rho_s * math.pi / 4 * (do ** 2 - (do - 2 * t) ** 2) - rho_w * math.pi * do ** 2 / 4) * g
    for d in depths[1:]:
        dT, cat = T[d] - T[depths[0]], w * (d - depths[0])
        c.check(abs(dT - cat) <= 1e-3 * cat, "T(%g) - T(%g) = %.6g kN against the catenary's w dh = %.6g kN "
                "(%.3f %%; 0.1 %% allowed)" % (d, depths[0], dT / 1e3, cat / 1e3, 100 * abs(dT - cat) / cat))
    bad = os.path.join(work, "bad.yaml")
    with open(bad, "w") as f:
        f.write(text.replace(old, "position: [0, 0, ~]\n    z_reference: seabed"))
    p = subprocess.run([pipelay, "run", bad, "--output", os.path.join(work, "bad")] + base, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    c.check(p.returncode == 2 and "ends.bottom.z_reference" in p.stderr and "bad.yaml:" in p.stderr,
            "z_reference: seabed without a z refused (exit %d): %s" % (p.returncode, p.stderr.strip()[:200]))
    print("%d failure(s)" % c.fails)
    return 1 if c.fails else 0


if __name__ == "__main__":
    sys.exit(main())
