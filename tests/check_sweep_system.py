#!/usr/bin/env python3
"""pipelay sweep on a system of lines and bodies: the OC3 Hywind spar's offset-restoring curve
(issue 16, item 4).

Sweeps the surge load on the spar of verification/oc3_hywind/oc3_hywind.yaml from 0 to 1.5 MN
in 13 cases (bodies[0].environment_load.force[0]) and checks the table against that case's
independent reference, offset_curve.csv (make_reference.py: the surge-heave-pitch equilibrium
of three elastic catenaries with the spar's hydrostatics): every case converges; the surge
offset within 0.5 % (0.01 m at zero load), the pitch within 1 % (0.001 deg at zero load), each
line's fairlead tension within 0.5 %; the restoring stiffness column equals the central
differences dF/dx of the table's own offsets to 1e-9 and those of the reference within 1 %;
sweep.json has the same rows; the three plots exist (PNG and SVG).

usage: check_sweep_system.py PIPELAY SOURCE_DIR WORKDIR
"""
import csv, json, os, shutil, subprocess, sys


def table(path):
    with open(path) as f:
        return [{k: float(v) for k, v in r.items()} for r in csv.DictReader(f)]


def main():
    pipelay, src, work = sys.argv[1:4]
    case = os.path.join(src, "verification", "oc3_hywind")
    out = os.path.join(work, "sweep_oc3")
    shutil.rmtree(out, ignore_errors=True)
    p = subprocess.run([pipelay, "sweep", os.path.join(case, "oc3_hywind.yaml"), "--vary",
                        "bodies[0].environment_load.force[0]=0:1.5e6:13", "--output", out],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    fails, npass = [], [0]

    def check(ok, what):
        print(("PASS " if ok else "FAIL ") + what)
        (npass.__setitem__(0, npass[0] + 1) if ok else fails.append(what))

    check(p.returncode == 0, "sweep exits 0 (got %d)" % p.returncode)
    if p.returncode:
        print(p.stdout)
        return 1
    rows, ref = table(os.path.join(out, "sweep.csv")), table(os.path.join(case, "offset_curve.csv"))
    check(len(rows) == 13 and all(r["converged"] == 1 for r in rows), "13 cases, all converged")
    worst = {"surge": 0.0, "pitch": 0.0, "tension": 0.0}
    for r in rows:
        f = [q for q in ref if abs(q["load_N"] - r["value"]) < 1e-6]
        if not f:
            fails.append("no reference row at %g N" % r["value"])
            continue
        q = f[0]
        worst["surge"] = max(worst["surge"], abs(r["spar_x_m"] - q["surge_m"]) / max(abs(q["surge_m"]), 2.0))
        worst["pitch"] = max(worst["pitch"], abs(r["spar_pitch_deg"] - q["pitch_deg"]) / max(abs(q["pitch_deg"]), 0.1))
        for l in (1, 2, 3):
            worst["tension"] = max(worst["tension"], abs(r["line%d_top_tension_N" % l] - q["line%d_tension_N" % l]) /
                                   q["line%d_tension_N" % l])
    check(worst["surge"] <= 5e-3, "surge offsets within 0.5 %% of the reference (largest %.3g)" % worst["surge"])
    check(worst["pitch"] <= 1e-2, "pitch within 1 %% of the reference (largest %.3g)" % worst["pitch"])
    check(worst["tension"] <= 5e-3, "fairlead tensions within 0.5 %% (largest %.3g)" % worst["tension"])

    def stiffness(xs, fs):
        k = []
        for i in range(len(xs)):
            a, b = max(i - 1, 0), min(i + 1, len(xs) - 1)
            k.append((fs[b] - fs[a]) / (xs[b] - xs[a]))
        return k

    own = stiffness([r["spar_x_m"] for r in rows], [r["value"] for r in rows])
    refk = stiffness([q["surge_m"] for q in ref], [q["load_N"] for q in ref])
    e_own = max(abs(r["restoring_stiffness_N_per_m"] - k) / k for r, k in zip(rows, own))
    e_ref = max(abs(r["restoring_stiffness_N_per_m"] - k) / k for r, k in zip(rows, refk))
    check(e_own <= 1e-9, "restoring_stiffness_N_per_m is dF/dx of the table (%.2g)" % e_own)
    check(e_ref <= 1e-2, "stiffness within 1 %% of the reference curve's (largest %.3g; %.1f kN/m at rest, "
          "%.1f kN/m at 1.5 MN)" % (e_ref, rows[0]["restoring_stiffness_N_per_m"] / 1e3,
                                    rows[-1]["restoring_stiffness_N_per_m"] / 1e3))
    with open(os.path.join(out, "sweep.json")) as f:
        js = json.load(f)
    check(len(js["cases"]) == 13 and abs(js["cases"][4]["spar_x_m"] - rows[4]["spar_x_m"]) < 1e-12,
          "sweep.json has the table's rows")
    for name in ("sweep_restoring", "sweep_stiffness", "sweep_line_tensions"):
        for ext in ("png", "svg"):
            path = os.path.join(out, "plots", name + "." + ext)
            check(os.path.exists(path) and os.path.getsize(path) > 0, "plot " + name + "." + ext)
    print("check_sweep_system: %d passed, %d failed" % (npass[0], len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
