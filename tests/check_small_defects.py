#!/usr/bin/env python3
"""Small defects of issue 13 (item 8), each as it was reported:
1. `pipelay compare f.csv f.csv` on an all-zero column passes (exit 0); a column that differs
   from an all-zero reference fails (exit 6);
2. `pipelay verify` without a DIR finds its cases from outside the repository root (run from
   the filesystem root, one fast case);
3. `pipelay run --help` (and `pipelay run FILE --help`) prints the usage and exits 0;
4. `pipelay --help` names exit status 6;
5. `pipelay info` shows what reaches the solver (item 9): the drag and added-mass
   coefficients, the current, the motion's parameters, the dynamic settings, the vessel and
   its DP gains;
6. `pipelay run ... | head -1`: the run is not killed by SIGPIPE (exit 0, no PETSc crash
   report) and its files are complete (summary.json says completed).

usage: check_small_defects.py PIPELAY WORKDIR EXAMPLES
"""
import os, subprocess, sys

def run(cmd, cwd=None):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd)
    return p.returncode, p.stdout, p.stderr

def main():
    pipelay, work, examples = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    z, z2 = os.path.join(work, "zeros.csv"), os.path.join(work, "not_zeros.csv")
    open(z, "w").write("t_s,a,b\n0,1,0\n1,2,0\n2,3,0\n")
    open(z2, "w").write("t_s,a,b\n0,1,0\n1,2,0.1\n2,3,0\n")
    fails = 0
    def check(ok, what):
        nonlocal fails
        print(("PASS " if ok else "FAIL ") + what)
        fails += not ok
    rc, out, err = run([pipelay, "compare", z, z])
    check(rc == 0, "compare f.csv f.csv with an all-zero column: exit %d (want 0)" % rc)
    rc, out, err = run([pipelay, "compare", z2, z])
    check(rc == 6, "compare against an all-zero reference that differs: exit %d (want 6)" % rc)
    rc, out, err = run([os.path.abspath(pipelay), "verify", "--case", "rollup", "--report",
                        os.path.join(os.path.abspath(work), "verify_from_root")], cwd="/")
    check(rc == 0 and "checks passed" in out, "verify from / finds its cases: exit %d %s" % (rc, err.strip()[:200]))
    for cmd in (["run", "--help"], ["run", "some_model.yaml", "--help"]):
        rc, out, err = run([pipelay] + cmd)
        check(rc == 0 and out.startswith("usage:") and not err.strip(), "pipelay %s: exit %d, usage on stdout" % (" ".join(cmd), rc))
    rc, out, err = run([pipelay, "--help"])
    check(rc == 0 and "6 a check" in out, "pipelay --help names exit status 6")
    rc, out, err = run([pipelay, "info", os.path.join(examples, "jlay_circle.yaml"), "--set",
                        "current={profile: uniform, speed: 0.7, direction: 30}"])
    want = ["drag coefficient normal      1 - (C_dn)", "added mass normal", "prescribed motion            circle",
            "radius                       2.5 m", "profile                      uniform", "speed                        0.7 m/s",
            "IDA relative tolerance", "atol position", "max BDF order"]
    missing = [w for w in want if w not in out]
    check(rc == 0 and not missing, "info shows hydrodynamics, current, motion, dynamic settings (missing: %s)" % missing)
    rc, out, err = run([pipelay, "info", os.path.join(examples, "dp_sec44.yaml")])
    want = ["vessel:", "mass (M_RB 11)", "hang-off point", "DP controller", "Kp surge, sway, heave"]
    missing = [w for w in want if w not in out]
    check(rc == 0 and not missing, "info shows the vessel and its DP controller (missing: %s)" % missing)
    out_dir = os.path.join(work, "piped")
    p = subprocess.Popen([pipelay, "run", os.path.join(examples, "jlay_circle.yaml"), "--set",
                          "analysis.dynamic.duration=5", "--output", out_dir],  # plots: gnuplot runs flush stdout
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    p.stdout.readline()
    p.stdout.close()  # the reader stops after one line, as head -1 does
    err = p.stderr.read()
    rc = p.wait()
    import json
    try:
        done = json.load(open(os.path.join(out_dir, "summary.json"))).get("completed")
    except (OSError, ValueError):
        done = None
    check(rc == 0 and "PETSC ERROR" not in err and done is True,
          "run | head -1: exit %d, summary completed %s, stderr %r" % (rc, done, err.strip()[:200]))
    print("%d passed, %d failed" % (9 - fails, fails))
    return 1 if fails else 0

if __name__ == "__main__":
    sys.exit(main())
