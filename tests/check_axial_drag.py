#!/usr/bin/env python3
"""check_axial_drag.py - the axial drag given in the skin-area convention of other codes
(hydrodynamics.drag_axial_skin, C_dz on pi d, as OrcaFlex's axial Cd and MoorDyn's CdAx) is the
same load as drag_tangential = pi C_dz on the diameter.

examples/jlay_900m.yaml (150 elements) in a 1.5 m/s uniform current along the lay direction,
where the axial drag matters along the laid and suspended pipe: with drag_axial_skin = 0.008
and with drag_tangential = pi x 0.008, static.csv agrees to 1e-12 of each column's peak (the
one rounding of pi C_dz apart), and differs from the run without axial drag by more than 1e-4
(the load is felt). `pipelay info` shows the conversion; giving both keys is refused (exit 2).

usage: check_axial_drag.py PIPELAY WORKDIR SOURCE_DIR
"""
import math, os, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks, column_difference, numeric_table as table  # noqa: E402

HYD = "line.sections[0].hydrodynamics."


def diff(a, b):
    head, x = table(os.path.join(a, "static.csv"))
    _, y = table(os.path.join(b, "static.csv"))
    return column_difference(head, x, y)[0]


def main():
    pipelay, work, src = (os.path.abspath(a) for a in sys.argv[1:4])
    os.makedirs(work, exist_ok=True)
    c = Checks(pipelay, work)
    model = os.path.join(src, "examples", "jlay_900m.yaml")
    base = ["--set", "mesh.elements=150", "--set", "current.profile=uniform", "--set", "current.speed=1.5",
            "--set", "current.direction=0"]
    cz = 0.008
    cases = {"skin": [HYD + "drag_axial_skin=%.17g" % cz], "diameter": [HYD + "drag_tangential=%.17g" % (math.pi * cz)],
             "none": []}
    out = {}
    for name, sets in cases.items():
        out[name] = os.path.join(work, name)
        args = [pipelay, "run", model, "--output", out[name], "--quiet", "--no-plots"] + base
        for s in sets:
            args += ["--set", s]
        p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if p.returncode:
            c.check(False, "%s: exit %d %s" % (name, p.returncode, p.stderr[-400:]))
            return 1
    d = diff(out["skin"], out["diameter"])
    c.check(d <= 1e-12, "drag_axial_skin %g equals drag_tangential pi x %g: largest difference %.2e of a column's "
            "peak (1e-12 allowed)" % (cz, cz, d))
    d0 = diff(out["none"], out["skin"])
    c.check(d0 > 1e-4, "the axial drag is felt: %.2e of a column's peak from the run without it" % d0)
    p = subprocess.run([pipelay, "info", model, "--set", HYD + "drag_axial_skin=%g" % cz], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    line = [ln for ln in p.stdout.splitlines() if "drag coefficient tangential" in ln]
    c.check(p.returncode == 0 and line and ("%.6g" % (math.pi * cz)) in line[0] and "pi x drag_axial_skin" in line[0],
            "pipelay info shows C_dt = pi C_dz: %s" % (line[0].strip() if line else "(no line)"))
    p = subprocess.run([pipelay, "info", model, "--set", HYD + "drag_axial_skin=%g" % cz, "--set",
                        HYD + "drag_tangential=0.02"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    c.check(p.returncode == 2 and "not both" in p.stderr, "both conventions at once refused (exit %d): %s"
            % (p.returncode, p.stderr.strip()[:200]))
    print("%d failure(s)" % c.fails)
    return 1 if c.fails else 0


if __name__ == "__main__":
    sys.exit(main())
