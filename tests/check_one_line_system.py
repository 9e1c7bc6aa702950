#!/usr/bin/env python3
"""check_one_line_system.py - a one-line model and the same model written as a system of one line
give the same results (issue 14: "the single-rank results equal today's to 1e-8 (statics) and
within the integration tolerance (dynamics)").

Each model of the one-line form (line:, mesh:, ends:) is rewritten here into the form of
several lines (lines: [{name: pipe, line, mesh, ends}]). The two forms take different paths:
the one-line statics (solver/static.c) against the substructured statics and the whole
system's Newton (solver/lines.c, system_static.c: the attachments' holds, the dynamic residual
at rest), and the one-line run's driver and files (solver/dynamic_run.c) against the system's
(system_run.c, line_series.c per line), both integrating on the system core
(solver/system_dynamic.c) from the same start: their dynamics agree to round-off (0 N measured
on both cases below, 2026-11-25), so the dynamic checks are of the two drivers' files.
Agreement tests those paths; the dynamics' physics is tested against closed forms in
test_dynamic.c, and the attachment of an end to a body against an end held by the line's own
model in check_fixed_hangoff.py.

  static    verification/riflex_table54/jlay.yaml, verification/catenary_table53/catenary.yaml,
            tests/models/jlay_current_static.yaml, verification/rollup/rollup.yaml: every
            column of static.csv (positions, tension, shear, moments, curvature, strain, seabed
            force, frames) equal within 1e-8 of the column's largest magnitude (positions: of
            the line length; forces: of the line's force level, the largest of its forces and
            of its moments over its length; the axial strain: of that level over EA), or within 100 times the one-line solve's final
            residual over the force level where that is larger.
  dynamic   tests/models/scr_current_heave.yaml for 10 s: the SCR with a nonlinear seabed, a
            current 30 deg off its plane and heave and surge of its top (a harmonic prescribed
            motion on the held end), and verification/dynamic_convergence/jlay_circle.yaml for 8 s
            (a circle motion of the top). Run both ways at the default tolerances and at tight
            ones (rtol 1e-8, every atol 100 times smaller): the integration error of a run is
            estimated by |default - tight| of the one-line run's top force; the two forms at
            tight tolerances must agree within a tenth of it (top force components [N]) and the
            kinetic energy within a tenth of its estimate likewise. A moved end that stood still,
            a different start or a file written from another state would differ by more than
            the integration error. The same for the files each line of a system run writes in
            OUTPUT/line_NAME/ (line_series.c, shared with the one-line run): the top's and each
            named output point's time series (position, tension, bending moment), the
            envelopes and touchdown.csv (the touchdown point and the layback).

Usage: check_one_line_system.py PIPELAY SOURCE_DIR WORK_DIR
"""
import csv
import json
import math
import os
import subprocess
import sys

import yaml

PIPELAY, SRC, WORK = sys.argv[1:4]
sys.path.insert(0, os.path.join(SRC, "scripts"))
from one_line_as_lines import as_lines  # noqa: E402
TIGHT = ["analysis.dynamic.rtol=1e-8", "analysis.dynamic.atol_strain=5e-9", "analysis.dynamic.atol_position=1e-7",
         "analysis.dynamic.atol_rotation=1e-7", "analysis.dynamic.atol_velocity=1e-5",
         "analysis.dynamic.atol_angular_velocity=1e-5"]
failures = []


def check(ok, msg):
    print(("ok    " if ok else "FAIL  ") + msg)
    if not ok:
        failures.append(msg)


def run(model, out, sets=(), options=()):
    cmd = [PIPELAY, "run", model, "--output", out, "--no-plots", "--quiet", *options]
    for s in sets:
        cmd += ["--set", s]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"FAIL  {' '.join(cmd)}: exit {r.returncode}\n{r.stdout}{r.stderr}")


def table(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def section_ea(sec):
    """A section's axial stiffness EA [N]: given, or E times the steel area."""
    if "EA" in sec:
        return float(sec["EA"])
    do, t = float(sec["outer_diameter"]), float(sec["wall_thickness"])
    return float(sec["material"]["youngs_modulus"]) * math.pi / 4.0 * (do ** 2 - (do - 2.0 * t) ** 2)


def static_case(rel):
    src = os.path.join(SRC, rel)
    tag = os.path.splitext(rel.replace("/", "_"))[0]
    lm = os.path.join(WORK, tag + "_lines.yaml")
    as_lines(src, lm, extra={"analysis": {**(yaml.safe_load(open(src)).get("analysis") or {}), "type": "static"}})
    sets = ["analysis.type=static"] if "dynamic" in (yaml.safe_load(open(src)).get("analysis") or {}) else []
    if sets:  # the dynamic settings would be refused by a static run: drop them in the lines form too
        with open(lm) as f:
            m = yaml.safe_load(f)
        m["analysis"].pop("dynamic", None)
        with open(lm, "w") as f:
            yaml.safe_dump(m, f, sort_keys=False)
    one, sysd = os.path.join(WORK, tag + "_one"), os.path.join(WORK, tag + "_sys")
    run(src, one)
    run(lm, sysd)
    a, b = table(os.path.join(one, "static.csv")), table(os.path.join(sysd, "line_pipe", "static.csv"))
    if len(a) != len(b):
        check(False, f"{rel}: {len(a)} node stations one-line, {len(b)} on the system core")
        return
    L = float(a[-1]["S_m"])
    # the internal forces [N] are measured against the line's force level: the largest of its
    # forces and of its moments over its length (a rod rolled up by an end moment carries no
    # force, M/L is what it carries: its tension is rounding, whose own peak is no scale)
    peak = {col: max(abs(float(r[col])) for r in a) for col in a[0]}
    force_level = max([peak[c] for c in peak if c.endswith("_N")] +
                      [peak[c] / L for c in peak if c.endswith("_Nm")])
    # the two solves each stop at their own convergence tests: the one-line solve at its final
    # residual norm r1 [N] (summary.json), the whole system's Newton at its tolerance or the
    # round-off floor from there; two equilibria r1 apart in unbalanced force differ by about
    # r1 / force level in every relative measure, so the bound is 1e-8 or a hundred times that
    # (a rod rolled up by an end moment, stopped at 3e-6 of its force level)
    with open(os.path.join(one, "summary.json")) as f:
        r1 = json.load(f).get("final_residual_norm_N", 0.0)
    tol = max(1e-8, 100.0 * r1 / force_level)
    # the axial strain against the strain of the force level, force level / EA
    strain_level = force_level / max(section_ea(sec) for sec in yaml.safe_load(open(src))["line"]["sections"])
    worst, where = 0.0, ""
    for col in a[0]:
        scale = L if col in ("S_m", "x_m", "y_m", "z_m") else force_level if col.endswith("_N") else \
            max(peak[col], strain_level) if col == "axial_strain" else peak[col]
        if scale == 0.0:
            scale = 1.0
        d = max(abs(float(r[col]) - float(q[col])) for r, q in zip(a, b)) / scale
        if d > worst:
            worst, where = d, col
    check(worst <= tol, f"{rel}: static.csv, largest relative difference {worst:.2e}{' (' + where + ')' if where else ''} "
          f"<= {tol:.3g}")
    # the end tensions of the two summaries (the system's: the line's pull on each end, what the
    # support and an applied end force hold together)
    with open(os.path.join(one, "summary.json")) as f:
        so = json.load(f)
    with open(os.path.join(sysd, "summary.json")) as f:
        ss = json.load(f)["lines"]["pipe"]
    T1 = so.get("top_tension_N", so.get("static_top_tension_N"))
    d = abs(ss["top"]["tension_N"] - T1) / max(T1, force_level)
    check(d <= tol, f"{rel}: top tension {ss['top']['tension_N']:.10g} N vs one-line {T1:.10g} N, {d:.1e} of the "
          f"line's force level {force_level:.4g} N <= {tol:.3g}")


def dynamic_case(rel, duration):
    src = os.path.join(SRC, rel)
    tag = os.path.splitext(rel.replace("/", "_"))[0]
    lm = os.path.join(WORK, tag + "_lines.yaml")
    as_lines(src, lm)
    T = [f"analysis.dynamic.duration={duration}"]
    dirs = {}
    for form, model in (("one", src), ("sys", lm)):
        for tol, extra in (("default", []), ("tight", TIGHT)):
            d = os.path.join(WORK, f"{tag}_{form}_{tol}")
            run(model, d, T + extra)
            dirs[form, tol] = d

    def top_force(d, form):
        if form == "one":
            return [[float(r[f"top_load_{c}_N"]) for c in "xyz"] for r in table(os.path.join(d, "timeseries_top.csv"))]
        return [[float(r[f"pipe_b_force_{c}_N"]) for c in "xyz"] for r in table(os.path.join(d, "timeseries_lines.csv"))]

    def kinetic(d):
        return [float(r["kinetic_J"]) for r in table(os.path.join(d, "energy.csv"))]

    def maxdiff(x, y):
        assert len(x) == len(y), (len(x), len(y))
        return max(max(abs(p - q) for p, q in zip(u, v)) if isinstance(u, list) else abs(u - v) for u, v in zip(x, y))

    f = {k: top_force(d, k[0]) for k, d in dirs.items()}
    e = {k: kinetic(d) for k, d in dirs.items()}
    err_f = maxdiff(f["one", "default"], f["one", "tight"])
    err_e = maxdiff(e["one", "default"], e["one", "tight"])
    dif_f = maxdiff(f["one", "tight"], f["sys", "tight"])
    dif_e = maxdiff(e["one", "tight"], e["sys", "tight"])
    fmax = max(abs(c) for r in f["one", "tight"] for c in r)
    check(dif_f <= 0.1 * err_f, f"{rel}: top force, lines form vs one-line form at tight tolerances {dif_f:.3g} N "
          f"<= a tenth of the one-line integration error {err_f:.3g} N (of {fmax:.4g} N)")
    check(dif_e <= 0.1 * err_e, f"{rel}: kinetic energy, lines form vs one-line form at tight tolerances {dif_e:.3g} J "
          f"<= a tenth of the one-line integration error {err_e:.3g} J")
    # each line's files of the system run (OUTPUT/line_pipe/) against the one-line run's: the
    # top's series (position, tension, moments, its load), the named points', the envelopes
    names = ["top"] + [p["name"] for p in (yaml.safe_load(open(src)).get("output") or {}).get("points", [])]
    for name in names:
        def series(form, tol):
            d = dirs[form, tol] if form == "one" else os.path.join(dirs[form, tol], "line_pipe")
            rows = table(os.path.join(d, f"timeseries_{name}.csv"))
            return [[float(r[c]) for c in ("x_m", "y_m", "z_m", "effective_tension_N", "bending_moment_2_Nm")]
                    for r in rows]
        for c, col in enumerate(("position", "tension", "bending moment")):
            cols = [0, 1, 2] if c == 0 else [c + 2]
            pick = lambda rows: [[r[i] for i in cols] for r in rows]
            err = maxdiff(pick(series("one", "default")), pick(series("one", "tight")))
            dif = maxdiff(pick(series("one", "tight")), pick(series("sys", "tight")))
            check(dif <= 0.1 * err, f"{rel}: timeseries_{name}.csv {col}, lines form vs one-line form {dif:.3g} <= a "
                  f"tenth of the integration error {err:.3g}")

    def envelope(form, tol):
        d = dirs[form, tol] if form == "one" else os.path.join(dirs[form, tol], "line_pipe")
        return [[float(v) for v in r.values()] for r in table(os.path.join(d, "envelopes.csv"))]
    err = maxdiff(envelope("one", "default"), envelope("one", "tight"))
    dif = maxdiff(envelope("one", "tight"), envelope("sys", "tight"))
    check(dif <= 0.1 * err, f"{rel}: envelopes.csv, lines form vs one-line form {dif:.3g} <= a tenth of the integration "
          f"error {err:.3g}")

    def touchdown(form, tol):  # arc length, x, y, layback; empty cells (no contact) as NaN
        d = dirs[form, tol] if form == "one" else os.path.join(dirs[form, tol], "line_pipe")
        return [[float(r[c]) if r[c] else math.nan for c in ("touchdown_arc_length_m", "touchdown_x_m",
                                                               "touchdown_y_m", "layback_m")]
                for r in table(os.path.join(d, "touchdown.csv"))]
    t1, ts = touchdown("one", "tight"), touchdown("sys", "tight")
    same_contact = all(math.isnan(a[0]) == math.isnan(b[0]) for a, b in zip(t1, ts)) and len(t1) == len(ts)
    nn = lambda rows: [[0.0 if math.isnan(v) else v for v in r] for r in rows]
    err = maxdiff(nn(touchdown("one", "default")), nn(t1))
    dif = maxdiff(nn(t1), nn(ts))
    check(same_contact and dif <= 0.1 * err + 1e-9, f"{rel}: touchdown.csv (the line's, written for both forms), "
          f"lines form vs one-line form {dif:.3g} m <= a tenth of the integration error {err:.3g} m")
    # the moved top does move: the force varies by far more than the agreement
    span = max(r[2] for r in f["one", "tight"]) - min(r[2] for r in f["one", "tight"])
    check(span > 100 * dif_f, f"{rel}: the top force's vertical range {span:.4g} N exceeds 100 times the difference")


os.makedirs(WORK, exist_ok=True)
for rel in ("verification/riflex_table54/jlay.yaml", "verification/catenary_table53/catenary.yaml",
            "tests/models/jlay_current_static.yaml", "verification/rollup/rollup.yaml"):
    static_case(rel)
dynamic_case("tests/models/scr_current_heave.yaml", 10)
dynamic_case("verification/dynamic_convergence/jlay_circle.yaml", 8)
if failures:
    sys.exit(f"{len(failures)} check(s) failed")
print("all checks passed")
