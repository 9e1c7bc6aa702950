#!/usr/bin/env python3
"""dynamic_plausible: a run that leaves the physical domain stops and says so.

1. The 12-inch J-lay of tests/models/accuracy_jlay12.yaml (300 m of water) heaved 500 m at its
   top (the file's amplitude changed in a copy): the loader warns at the amplitude
   (FILE:LINE:COL, more than the water depth), and the run stops with exit 3 within 10 s of
   wall time, naming what left the plausible (here the seabed, which the line is driven through
   before any element stretches 5 %), where (the arc length) and when; summary.json says
   "completed": false and the series hold every output before the stop. Without the check the
   run crawled on to tens of MN.
2. The 170 m jumper of tests/models/accuracy_jumper.yaml (no seabed) heaved 500 m: exit 3
   within 10 s naming the axial strain (at least 5 %), the element's arc lengths and the time.
3. The J-lay as the file has it (1.5 m of heave) runs through: the check does not fire on a
   plausible state.
4. analysis.dynamic.max_steps stops a run at that many steps (exit 3, said so): IDA's own
   limit counts one IDASolve call's steps, one in the runners' one-step mode.
5. The console's least effective tension (where, when, "compression" when negative) is
   summary.json's, on the J-lay and on the SCR in heave (tests/models/scr_current_heave.yaml),
   which compresses at its touchdown.

usage: check_dynamic_plausible.py PIPELAY WORKDIR SOURCE_DIR
"""
import json, os, re, subprocess, sys, time

def run(pipelay, model, out, sets):
    args = [pipelay, "run", model, "--no-plots", "--output", out]
    for x in sets:
        args += ["--set", x]
    t0 = time.monotonic()
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
    return p, time.monotonic() - t0

def main():
    pipelay, work, src = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    fails = 0
    def check(ok, what):
        nonlocal fails
        print(("PASS " if ok else "FAIL ") + what)
        fails += not ok
    text = open(os.path.join(src, "tests", "models", "accuracy_jlay12.yaml")).read()
    assert "z: {amplitude: 1.5," in text
    model = os.path.join(work, "jlay12_heave500.yaml")
    open(model, "w").write(text.replace("z: {amplitude: 1.5,", "z: {amplitude: 500,"))
    out = os.path.join(work, "heave500")
    p, wall = run(pipelay, model, out, [])
    err = p.stderr
    m = re.search(r"node at S = ([0-9.e+-]+) m is ([0-9.e+-]+) m into the seabed at t = ([0-9.e+-]+) s", err)
    last = err.strip().splitlines()[-1] if err.strip() else ""
    check(p.returncode == 3 and wall < 10.0 and m is not None,
          "500 m heave of the J-lay: exit %d after %.1f s, %s" % (p.returncode, wall, last[:300]))
    check(re.search(r"jlay12_heave500\.yaml:\d+:\d+: ends\.top\.motion\.dofs\.z\.amplitude: warning: 500 m is more "
                    r"than the water depth", err) is not None, "the load-time warning names file, line, column, key")
    try:
        summ = json.load(open(os.path.join(out, "summary.json")))
        rows = open(os.path.join(out, "timeseries_top.csv")).read().splitlines()[1:]
        t_last = float(rows[-1].split(",")[0])
        t_stop = float(m.group(3)) if m else -1.0
        check(summ.get("completed") is False and 0.0 < t_last <= t_stop and t_stop - t_last < 0.1 + 1e-9,
              "the outputs before the stop are written: completed %s, last output %.2f s, stop %.4g s"
              % (summ.get("completed"), t_last, t_stop))
    except (OSError, ValueError, IndexError) as e:
        check(False, "the outputs before the stop are written: %s" % e)
    p, wall = run(pipelay, os.path.join(src, "tests", "models", "accuracy_jumper.yaml"), os.path.join(work, "jumper500"),
                  ["ends.top.motion.dofs.x.amplitude=500"])
    last = p.stderr.strip().splitlines()[-1] if p.stderr.strip() else ""
    m = re.search(r"axial strain of the line's element from S = ([0-9.e+-]+) to ([0-9.e+-]+) m reached ([0-9.]+) % "
                  r"at t = ([0-9.e+-]+) s", p.stderr)
    check(p.returncode == 3 and wall < 10.0 and m is not None and float(m.group(3)) >= 5.0,
          "500 m motion of the jumper: exit %d after %.1f s, %s" % (p.returncode, wall, last[:300]))
    # analysis.dynamic.max_steps holds: the jumper allowed 50 steps stops at the 50th
    p, wall = run(pipelay, os.path.join(src, "tests", "models", "accuracy_jumper.yaml"), os.path.join(work, "steps50"),
                  ["analysis.dynamic.max_steps=50"])
    check(p.returncode == 3 and "analysis.dynamic.max_steps (50) reached at t = " in p.stderr,
          "max_steps 50: exit %d, %s" % (p.returncode, p.stderr.strip().splitlines()[-1][:200] if p.stderr.strip() else ""))
    p, wall = run(pipelay, os.path.join(src, "tests", "models", "accuracy_jlay12.yaml"), os.path.join(work, "heave15"),
                  ["analysis.dynamic.duration=20"])
    check(p.returncode == 0, "1.5 m heave runs through: exit %d %s" % (p.returncode, p.stderr.strip()[-200:]))
    # the console's extremes are summary.json's: the least effective tension with where and
    # when, and a compression said so (the SCR in heave compresses at its touchdown)
    for name, model, sets, comp in (("heave15", "accuracy_jlay12.yaml", ["analysis.dynamic.duration=20"], False),
                                    ("scr", "scr_current_heave.yaml", [], True)):
        out = os.path.join(work, name + "_console")
        p, wall = run(pipelay, os.path.join(src, "tests", "models", model), out, sets)
        summ = json.load(open(os.path.join(out, "summary.json")))
        m = re.search(r"min effective tension ([0-9.e+-]+) kN at S = ([0-9.e+-]+) m, t = ([0-9.e+-]+) s( \(compression\))?",
                      p.stdout)
        ok = (m is not None and abs(float(m.group(1)) * 1e3 - summ["min_effective_tension_N"]) < 1e-4 * 1e3 + 1.0 and
              abs(float(m.group(2)) - summ["min_effective_tension_arc_length_m"]) < 1e-3 and
              abs(float(m.group(3)) - summ["min_effective_tension_time_s"]) < 1e-3 and
              (m.group(4) is not None) == comp == (summ["min_effective_tension_N"] < 0))
        check(ok, "%s: the console's least effective tension is summary.json's (%s; %.6g N at S = %.6g m, t = %.6g s)"
              % (name, m.group(0) if m else "not printed", summ["min_effective_tension_N"],
                 summ["min_effective_tension_arc_length_m"], summ["min_effective_tension_time_s"]))
    print("%d failure(s)" % fails)
    return 1 if fails else 0

if __name__ == "__main__":
    sys.exit(main())
