#!/usr/bin/env python3
"""pipelay sweep and --start-from (issue 12, items 2 and 5).

1. A 30-inch lay-tension sweep of examples/jlay_900m.yaml from 1000 kN down to 50 kN in 20
   cases: every case converges; its table (sweep.csv) matches 20 independent `pipelay run`
   runs, each from its own default start, to 1e-6 relative in top tension, hang-off angle and
   layback; the five plots exist (PNG and SVG); sweep.json has the same rows.
2. The same sweep on 2 MPI ranks (two blocks of 10 cases, each continued on its own rank)
   gives the same table to 1e-6.
3. --start-from: a run started from a converged run's folder takes at most 2 Newton
   iterations and gives the same top tension (1e-8); started from it onto a mesh of 300
   elements, it converges to within 1e-4 of a 300-element run from the default start.

usage: check_sweep.py PIPELAY MPIEXEC EXAMPLES WORKDIR
"""
import csv, json, os, shutil, subprocess, sys

def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout + p.stderr

def table(path):
    with open(path) as f:
        return list(csv.DictReader(f))

def rel(a, b):
    return abs(a - b) / max(abs(b), 1e-300)

def main():
    pipelay, mpiexec, examples, work = sys.argv[1:5]
    model = os.path.join(examples, "jlay_900m.yaml")
    fails, npass = [], [0]
    def check(ok, what):
        print(("PASS " if ok else "FAIL ") + what)
        if not ok:
            fails.append(what)
        else:
            npass[0] += 1
    os.makedirs(work, exist_ok=True)
    sw1, sw2 = os.path.join(work, "sweep1"), os.path.join(work, "sweep2")
    for d in (sw1, sw2):
        shutil.rmtree(d, ignore_errors=True)
    vary = "ends.top.force[0]=1000e3:50e3:20"
    rc, out = run([pipelay, "sweep", model, "--vary", vary, "--output", sw1, "--quiet"])
    check(rc == 0, "sweep 1000 -> 50 kN, 20 cases: exit 0 (got %d) %s" % (rc, out[-300:] if rc else ""))
    rows = table(os.path.join(sw1, "sweep.csv"))
    check(len(rows) == 20 and all(r["converged"] == "1" for r in rows), "every one of the 20 cases converged")
    worst = 0.0
    for i, r in enumerate(rows):
        v = float(r["value"])
        d = os.path.join(work, "single_%02d" % i)
        rc, out = run([pipelay, "run", model, "--set", "ends.top.force[0]=%.17g" % v, "--output", d, "--quiet",
                       "--no-plots"])
        if rc != 0:
            check(False, "independent run at %g N: exit %d %s" % (v, rc, out[-300:]))
            continue
        s = json.load(open(os.path.join(d, "summary.json")))
        for key in ("top_tension_N", "hang_off_angle_deg", "layback_m"):
            worst = max(worst, rel(float(r[key]), s[key]))
    check(worst <= 1e-6, "sweep table against 20 independent runs: largest relative difference %.2e (<= 1e-6)" % worst)
    for name in ("top_tension", "hang_off_angle", "layback", "max_bending_moment", "max_strain"):
        for ext in ("png", "svg", "gp"):
            p = os.path.join(sw1, "plots", "sweep_%s.%s" % (name, ext))
            check(os.path.isfile(p) and os.path.getsize(p) > 0, "plot %s" % os.path.basename(p))
    js = json.load(open(os.path.join(sw1, "sweep.json")))
    check(len(js["cases"]) == 20 and all(abs(c["top_tension_N"] - float(r["top_tension_N"])) <= 1e-9 * abs(c["top_tension_N"])
                                        for c, r in zip(js["cases"], rows)), "sweep.json has the rows of sweep.csv")
    rc, out = run([mpiexec, "--allow-run-as-root", "--oversubscribe", "-n", "2", pipelay, "sweep", model, "--vary", vary,
                   "--output", sw2, "--quiet"])
    check(rc == 0, "the sweep on 2 ranks: exit 0 (got %d) %s" % (rc, out[-300:] if rc else ""))
    if rc == 0:
        rows2 = table(os.path.join(sw2, "sweep.csv"))
        w2 = max(rel(float(a[k]), float(b[k])) for a, b in zip(rows2, rows)
                 for k in ("top_tension_N", "hang_off_angle_deg", "layback_m", "max_bending_moment_Nm"))
        check(len(rows2) == 20 and w2 <= 1e-6, "2 ranks against 1 rank: largest relative difference %.2e (<= 1e-6)" % w2)
    # --start-from
    base = os.path.join(work, "single_12")  # 400 kN, from the default start
    s0 = json.load(open(os.path.join(base, "summary.json")))
    d = os.path.join(work, "restarted")
    rc, out = run([pipelay, "run", model, "--start-from", base, "--output", d, "--quiet", "--no-plots",
                   "--set", "ends.top.force[0]=4e5"])
    s1 = json.load(open(os.path.join(d, "summary.json"))) if rc == 0 else {}
    check(rc == 0 and s1.get("newton_iterations", 99) <= 2 and rel(s1["top_tension_N"], s0["top_tension_N"]) <= 1e-8,
          "--start-from a converged run: %s Newton iterations (<= 2), top tension to 1e-8" % s1.get("newton_iterations"))
    d3, d4 = os.path.join(work, "restarted300"), os.path.join(work, "default300")
    rc3, _ = run([pipelay, "run", model, "--start-from", base, "--output", d3, "--quiet", "--no-plots",
                  "--set", "ends.top.force[0]=4e5", "--set", "mesh.elements=300"])
    rc4, _ = run([pipelay, "run", model, "--output", d4, "--quiet", "--no-plots", "--set", "ends.top.force[0]=4e5",
                  "--set", "mesh.elements=300"])
    if rc3 == 0 and rc4 == 0:
        a, b = json.load(open(os.path.join(d3, "summary.json"))), json.load(open(os.path.join(d4, "summary.json")))
        check(rel(a["top_tension_N"], b["top_tension_N"]) <= 1e-8 and rel(a["layback_m"], b["layback_m"]) <= 1e-6,
              "--start-from onto 300 elements equals the 300-element run from the default start")
    else:
        check(False, "--start-from onto 300 elements: exit %d / %d" % (rc3, rc4))
    rc, out = run([pipelay, "run", model, "--start-from", os.path.join(work, "no_such_dir"), "--output", d, "--quiet"])
    check(rc == 2 and "static.csv" in out, "--start-from a folder without static.csv: exit 2 naming the file")
    print("%d passed, %d failed" % (npass[0], len(fails)))
    return 1 if fails else 0

if __name__ == "__main__":
    sys.exit(main())
