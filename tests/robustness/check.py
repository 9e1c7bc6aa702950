#!/usr/bin/env python3
"""The static robustness suite (issue 12): every model of models/ (generate.py) with pipelay's
DEFAULT solver settings must converge, with no axial strain beyond 5 %, and match its
independent reference (references.csv, from reference.py: the planar elastica as a BVP) in
hang-off angle within 0.1 deg and in top tension and layback within 0.5 %. A 3-D case (a
bottom clamped off the lay direction) has no planar reference: it is held to its aligned
twin's reference (the misalignment bends the laid pipe near the clamp, not the suspended
span) with the same tolerances.

usage: check.py --pipelay PATH [--work DIR] [--write-table FILE] [--only SUBSTRING] [--jobs N]
                [--set KEY=VALUE ...]
--set passes each override to every run (e.g. analysis.initial_guess=straight: the same models
must converge to the same references from a straight start).
Prints one line per case and 'N passed, M failed'; exit 1 if any failed.
"""
import argparse, csv, json, os, shutil, subprocess, sys, time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
TOL_ANGLE, TOL_REL, STRAIN = 0.1, 0.005, 0.05


def run_case(pipelay, work, c, sets):
    name = c["name"]
    out = os.path.join(work, name)
    shutil.rmtree(out, ignore_errors=True)
    t0 = time.monotonic()
    cmd = [pipelay, "run", os.path.join(HERE, "models", name + ".yaml"), "--output", out, "--quiet", "--no-plots"]
    for kv in sets:
        cmd += ["--set", kv]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - t0
    s = {}
    try:
        s = json.load(open(os.path.join(out, "summary.json")))
    except (OSError, ValueError):
        pass
    return name, p.returncode, s, wall, p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pipelay", required=True)
    ap.add_argument("--work", default="robustness_runs")
    ap.add_argument("--write-table")
    ap.add_argument("--only")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    a = ap.parse_args()
    cases = json.load(open(os.path.join(HERE, "manifest.json")))
    if a.only:
        cases = [c for c in cases if a.only in c["name"]]
    refs = {r["case"]: r for r in csv.DictReader(open(os.path.join(HERE, "references.csv")))}
    os.makedirs(a.work, exist_ok=True)
    with ThreadPoolExecutor(max_workers=a.jobs) as ex:
        results = list(ex.map(lambda c: run_case(a.pipelay, a.work, c, a.set), cases))
    rows, nfail = [], 0
    for c, (name, rc, s, wall, err) in zip(cases, results):
        ref = refs.get(c.get("aligned_twin", name), {})
        why = []
        conv = rc == 0 and s.get("converged") is True
        if not conv:
            why.append("not converged (exit %d): %s" % (rc, err.strip().splitlines()[-1][:200] if err.strip() else ""))
        strain = s.get("max_axial_strain")
        if strain is None or not abs(strain) <= STRAIN:
            why.append("axial strain %s beyond %g" % (strain, STRAIN))
        errs = {}
        for key, kind in (("hang_off_angle_deg", "abs"), ("top_tension_N", "rel"), ("layback_m", "rel")):
            r = ref.get(key, "")
            v = s.get(key)
            if r in ("", "nan") or v is None:
                continue
            r = float(r)
            e = v - r if kind == "abs" else (v - r) / abs(r)
            errs[key] = e
            tol = TOL_ANGLE if kind == "abs" else TOL_REL
            if not abs(e) <= tol:
                why.append("%s %.6g against the reference %.6g (%s %.3g > %g)" % (key, v, r, kind, e, tol))
        if not ref or ref.get("top_tension_N", "") in ("", "nan"):
            why.append("no reference")
        ok = not why
        nfail += not ok
        print("%s %-40s %s its %4s %s %6.2f s  dT %+.1e  dangle %+.1e  dlayback %s%s" % (
            "PASS" if ok else "FAIL", name, "conv" if conv else "NOT ", s.get("newton_iterations", "-"),
            "ptc" if s.get("static_strategy") == "pseudo_transient" else "   ", wall, errs.get("top_tension_N", float("nan")),
            errs.get("hang_off_angle_deg", float("nan")),
            "%+.1e" % errs["layback_m"] if "layback_m" in errs else "   -   ", "" if ok else "  <- " + "; ".join(why)))
        rows.append((name, conv, s.get("newton_iterations"), s.get("static_strategy"), s.get("ptc_steps"), wall,
                     strain, errs, ok, "; ".join(why)))
    print("%d passed, %d failed" % (len(cases) - nfail, nfail))
    if a.write_table:
        its = sorted(r[2] for r in rows if r[2] is not None)
        walls = sorted(r[5] for r in rows)
        with open(a.write_table, "w") as f:
            f.write("# Static robustness suite: results\n\n")
            f.write("Made by `tests/robustness/check.py --write-table` (pipelay's default settings%s; %d cases; "
                    "machine: %d cores). Errors against the independent BVP reference (references.csv): angle in "
                    "degrees, tension and layback relative; tolerances 0.1 deg and 0.5 %%.\n\n" % (
                        "".join(", `--set %s`" % kv for kv in a.set), len(rows), os.cpu_count()))
            f.write("Converged: %d of %d. Median Newton iterations %s, median wall time %.2f s (whole `pipelay run`).\n\n"
                    % (sum(r[1] for r in rows), len(rows), its[len(its) // 2] if its else "-", walls[len(walls) // 2]))
            f.write("| case | converged | Newton its | strategy | wall [s] | max axial strain | top tension | hang-off "
                    "angle [deg] | layback | result |\n|---|---|---|---|---|---|---|---|---|---|\n")
            for name, conv, it, strat, ptc, wall, strain, errs, ok, why in rows:
                f.write("| %s | %s | %s | %s | %.2f | %s | %s | %s | %s | %s |\n" % (
                    name, "yes" if conv else "**no**", it, strat or "-", wall,
                    "%.2e" % strain if strain is not None else "-",
                    "%+.1e" % errs["top_tension_N"] if "top_tension_N" in errs else "-",
                    "%+.1e" % errs["hang_off_angle_deg"] if "hang_off_angle_deg" in errs else "-",
                    "%+.1e" % errs["layback_m"] if "layback_m" in errs else "-", "pass" if ok else "**FAIL** " + why))
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main())
