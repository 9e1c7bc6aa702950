#!/usr/bin/env python3
"""restart_exact: a run interrupted by a signal and continued with --restart equals the
uninterrupted run to the bit.

restart.bin keeps the integrator's whole state (PlSysDynIntegratorSave: IDA's history, its
Newton and matrix data, the iteration matrix's factors as the matrices that made them), so the
restarted run takes the steps the uninterrupted one took: every row of every time series and of
energy.csv the same bytes, the same step count in summary.json.

Cases: examples/jlay_circle.yaml at 740 nodes, 120 s, with a design: block (the one-line path;
its design_envelope.csv, which restart.bin keeps, compared too), the same model
written as a model of lines (scripts/one_line_as_lines.py: the system's run driver), and a
model of bodies alone (verification/multibody_joints/heavy_top.yaml, 40 s: a body on a
spherical joint, whose multipliers are algebraic states of the integrator), each sent
SIGINT after a fraction of its wall time (retried later in the run if the signal came before
the dynamics or after the end). The lines with a uniform current of 0.3 m/s switched on at t = 60 s
(a step: a breakpoint of the forcing, where IDA stops and restarts, PlIdaStep): the restarted
run resumes before it, and must restart there as the uninterrupted run did, or after it.

usage: check_restart_exact.py PIPELAY WORKDIR SOURCE_DIR
"""
import json, os, signal, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import series  # noqa: E402


def main():
    pipelay, work, src = (os.path.abspath(a) for a in sys.argv[1:4])
    os.makedirs(work, exist_ok=True)
    sets = ["--set", "mesh.elements=739", "--set", "analysis.dynamic.duration=120", "--set", "current.profile=uniform",
            "--set", "current.speed=0.3", "--set", "current.start_time=60", "--set", "design.internal_pressure=10e6",
            "--set", "design.dnv_f101.smys=450e6", "--set", "design.dnv_f101.smts=535e6"]
    one = os.path.join(src, "examples", "jlay_circle.yaml")
    lines = os.path.join(work, "jlay_circle_lines.yaml")
    subprocess.run([sys.executable, os.path.join(src, "scripts", "one_line_as_lines.py"), one, lines], check=True)
    lsets = [s.replace("mesh.elements", "lines[0].mesh.elements") for s in sets]
    top = os.path.join(src, "verification", "multibody_joints", "heavy_top.yaml")
    fails = 0
    for name, model, st in (("one_line", one, sets), ("lines", lines, lsets),
                            ("bodies", top, ["--set", "analysis.dynamic.duration=40"])):
        full, cut = os.path.join(work, name + "_full"), os.path.join(work, name + "_cut")
        t0 = time.monotonic()
        subprocess.run([pipelay, "run", model, "--quiet", "--no-plots", "--output", full] + st, check=True,
                       cwd=os.path.dirname(model))
        wall = time.monotonic() - t0
        rc = None
        for frac in (0.5, 0.7, 0.3, 0.85):
            p = subprocess.Popen([pipelay, "run", model, "--quiet", "--no-plots", "--output", cut] + st,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=os.path.dirname(model))
            time.sleep(frac * wall)
            p.send_signal(signal.SIGINT)
            rc = p.wait()
            if rc == 5 and os.path.exists(os.path.join(cut, "restart.bin")):
                break
        if rc != 5:
            print("FAIL %s: no run was interrupted (exit %s)" % (name, rc))
            fails += 1
            continue
        j = json.load(open(os.path.join(cut, "summary.json")))
        at = j.get("dynamic", j).get("simulated_time_s")
        r = subprocess.run([pipelay, "run", model, "--quiet", "--no-plots", "--restart", cut] + st,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=os.path.dirname(model))
        if r.returncode:
            print("FAIL %s: the restart exited %d %s" % (name, r.returncode, r.stderr[-300:]))
            fails += 1
            continue
        files = sorted(series(full)) + ["energy.csv"] + sorted(
            os.path.relpath(os.path.join(r, f), full) for r, _, fs in os.walk(full) for f in fs if f == "design_envelope.csv")
        bad = []
        for rel in files:
            a = open(os.path.join(full, rel)).read()
            b = open(os.path.join(cut, rel)).read()
            if a != b:
                bad.append(rel)
        sf = json.load(open(os.path.join(full, "summary.json")))
        sc = json.load(open(os.path.join(cut, "summary.json")))
        steps = (sf.get("dynamic", sf).get("steps"), sc.get("dynamic", sc).get("steps"))
        ok = not bad and steps[0] == steps[1]
        print("%s %s: interrupted at t = %s s and restarted; %d files %s; steps %s and %s" %
              ("PASS" if ok else "FAIL", name, at, len(files), "the same bytes" if not bad else "differ: %s" % bad,
               steps[0], steps[1]))
        fails += not ok
    print("%d failure(s)" % fails)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
