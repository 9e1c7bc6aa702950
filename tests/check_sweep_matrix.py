#!/usr/bin/env python3
"""pipelay sweep with two --vary keys: a load-case matrix (the full factorial, the last key
varying fastest).

1. examples/jlay_900m.yaml (a 30-inch J-lay, static) on a 100-element mesh: the lay tension
   ends.top.force[0] over 300 and 400 kN times the water density over 1000, 1025 and 1050 kg/m^3,
   6 cases. The table has both keys' columns, in the order of the product; each case equals,
   to 1e-12 of each quantity's peak, the case of the one-key sweep of the water density with the
   tension given by --set (a row of the matrix is that sweep: same starts, same continuation),
   and the independent `pipelay run` of the case to 1e-9 (another start, the same equilibrium:
   the Newton tolerance). sweep.json names each case by its values.
2. A key given twice is refused (exit 2) with a message naming it.

usage: check_sweep_matrix.py PIPELAY EXAMPLES WORKDIR
"""
import csv, json, os, shutil, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks, command

QUANTITIES = ("top_tension_N", "top_horizontal_tension_N", "hang_off_angle_deg", "layback_m",
              "touchdown_arc_length_m", "max_bending_moment_Nm", "max_fibre_strain", "max_effective_tension_N")


def table(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def call(args):
    rc, _, err = command(args)
    return rc, err


def worst(pairs):
    """pairs: {quantity: [(a, b), ...]}: the largest |a - b| over the peak |b| of its quantity."""
    out = 0.0
    for q, v in pairs.items():
        peak = max(abs(b) for _, b in v)
        out = max([out] + [abs(a - b) / peak for a, b in v])
    return out


def main():
    pipelay, examples, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    c = Checks(pipelay, work)
    model = os.path.join(examples, "jlay_900m.yaml")
    tensions, densities = [300e3, 400e3], [1000.0, 1025.0, 1050.0]
    common = ["--set", "mesh.elements=100", "--quiet", "--no-plots"]
    mx = os.path.join(work, "matrix")
    rc, err = call([pipelay, "sweep", model, "--vary", "ends.top.force[0]=300e3,400e3", "--vary",
                    "environment.water_density=1000,1025,1050", "--output", mx] + common)
    c.check(rc == 0, "the 2 x 3 matrix sweep exits 0 (%d) %s" % (rc, err[-300:]))
    rows = table(os.path.join(mx, "sweep.csv")) if rc == 0 else []
    order = [(t, r) for t in tensions for r in densities]
    c.check(len(rows) == 6 and [(float(r["ends.top.force[0]"]), float(r["environment.water_density"])) for r in rows]
            == order, "sweep.csv has 6 rows with both keys' columns in the product's order (last key fastest)")
    cases = json.load(open(os.path.join(mx, "sweep.json")))["cases"] if rc == 0 else []
    c.check(len(cases) == 6 and cases[4].get("name") == "ends.top.force[0] = 400000, environment.water_density = 1025",
            "sweep.json names case 4 by its values (%r)" % (cases[4].get("name") if len(cases) > 4 else None))
    sweeps, runs = {}, {}
    for k, (t, r) in enumerate(order):
        if k >= len(rows):
            break
        one = os.path.join(work, "one_%g" % t)
        if t not in sweeps:
            rc1, err = call([pipelay, "sweep", model, "--set", "ends.top.force[0]=%r" % t, "--vary",
                             "environment.water_density=1000,1025,1050", "--output", one] + common)
            c.check(rc1 == 0, "the one-key sweep at %g N exits 0 %s" % (t, err[-300:]))
            sweeps[t] = table(os.path.join(one, "sweep.csv")) if rc1 == 0 else []
        run = os.path.join(work, "run_%d" % k)
        rc2, err = call([pipelay, "run", model, "--set", "ends.top.force[0]=%r" % t, "--set",
                         "environment.water_density=%r" % r, "--output", run] + common)
        c.check(rc2 == 0, "the run of case %d exits 0 %s" % (k, err[-300:]))
        s = json.load(open(os.path.join(run, "summary.json"))) if rc2 == 0 else {}
        one_row = sweeps[t][densities.index(r)] if sweeps[t] else {}
        for q in QUANTITIES:
            if q in one_row:
                sweeps.setdefault("pairs", {}).setdefault(q, []).append((float(rows[k][q]), float(one_row[q])))
            if q in s:
                runs.setdefault(q, []).append((float(rows[k][q]), float(s[q])))
    sp = sweeps.get("pairs", {})
    c.check(len(sp) == len(QUANTITIES) and all(len(v) == 6 for v in sp.values()) and worst(sp) <= 1e-12,
            "each matrix case equals the one-key sweep's case to 1e-12 of the peak (worst %.2e, %d quantities)"
            % (worst(sp) if sp else float("nan"), len(sp)))
    c.check(len(runs) == len(QUANTITIES) and all(len(v) == 6 for v in runs.values()) and worst(runs) <= 1e-9,
            "each matrix case equals its independent run to 1e-9 of the peak (worst %.2e)"
            % (worst(runs) if runs else float("nan")))
    rc, err = call([pipelay, "sweep", model, "--vary", "ends.top.force[0]=300e3,400e3", "--vary",
                    "ends.top.force[0]=500e3", "--output", os.path.join(work, "twice")] + common)
    c.check(rc == 2 and "already varied" in err and "ends.top.force[0]" in err and len(err.strip().splitlines()) == 1,
            "a key varied twice: exit %d (want 2), stderr %r" % (rc, err.strip()[:200]))
    print("%d failure(s)" % c.fails)
    return 1 if c.fails else 0


if __name__ == "__main__":
    sys.exit(main())
