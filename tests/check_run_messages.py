#!/usr/bin/env python3
"""What the command line says when it refuses an input or a run fails: whole, and not silent.

1. A one-letter option (`-o DIR` for `--output DIR`) in run and sweep: refused with exit 2
   (PETSc, which reads the single-dash options, ignored it, and the results went elsewhere).
2. A failed static solve of a model of lines (tests/models/system_static.yaml, its tail line's
   bottom end freed in x and pulled by 500 MN): the failure in stderr and in summary.json ends
   with the static solve's whole suggestion ("... -snes_monitor shows every iteration."); it
   was cut at 700 characters, mid-word. The same for a failed one-line dynamic run
   (tests/models/stall_linear.yaml with heave_jump.csv, whose top drops 1 m within 1e-12 s at
   the breakpoint t = 5 s): its message ends with the whole advice ("... spread the jump over a
   longer time") in stderr and in summary.json.

usage: check_run_messages.py PIPELAY REPO_ROOT WORKDIR
"""
import json, os, subprocess, sys

def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)
    return p.returncode, p.stdout, p.stderr

def main():
    pipelay, root, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    models = os.path.join(root, "tests", "models")
    fails = 0
    def check(ok, what):
        nonlocal fails
        print(("PASS " if ok else "FAIL ") + what)
        fails += not ok

    # 1b. a one-letter option (a mistyped --output) is refused before anything runs: PETSc, which
    # takes the single-dash options, would have ignored it and the results gone to the default folder
    for cmd in (["run", os.path.join(root, "examples", "jlay_900m.yaml")],
                ["sweep", os.path.join(root, "examples", "jlay_900m.yaml"), "--vary", "ends.top.force[0]=300e3,400e3"]):
        default_dir = os.path.join(work, "jlay_900m_out")  # where the results would have gone (cwd: work)
        p = subprocess.run([pipelay] + cmd + ["-o", os.path.join(work, "dash_o"), "--quiet", "--no-plots"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600, cwd=work)
        rc, err = p.returncode, p.stderr
        check(rc == 2 and "unknown argument '-o'" in err and "two dashes" in err and not os.path.exists(os.path.join(work, "dash_o"))
              and not os.path.exists(default_dir),
              "%s with -o DIR: exit %d (want 2), stderr %r" % (cmd[0], rc, err.strip()[:200]))

    # 2. a system's static failure, whole
    out_dir = os.path.join(work, "system_fail")
    rc, out, err = run([pipelay, "run", os.path.join(models, "system_static.yaml"), "--set",
                        "lines[2].ends.bottom={position: [60, 20, -115], fixed: [y, z], force: [-5e8, 0, 0]}",
                        "--output", out_dir, "--quiet", "--no-plots"])
    tail = "-snes_monitor shows every iteration."
    try:
        failure = json.load(open(os.path.join(out_dir, "summary.json"))).get("failure", "")
    except (OSError, ValueError):
        failure = ""
    check(rc == 3 and failure.startswith("line tail does not reach its ends") and failure.endswith(tail),
          "a system's static failure in summary.json ends with the whole suggestion: exit %d, ...%r" %
          (rc, failure[-160:]))
    check(tail + "; the last state is written to" in err,
          "a system's static failure on stderr ends with the whole suggestion: ...%r" % err.strip()[-220:])
    try:
        line_failure = json.load(open(os.path.join(out_dir, "line_tail", "summary.json"))).get("failure", "")
    except (OSError, ValueError):
        line_failure = ""
    check(line_failure == failure, "the line's own summary.json repeats it whole (%d of %d characters)" %
          (len(line_failure), len(failure)))

    # 2. a one-line dynamic run's failure, whole
    out_dir = os.path.join(work, "stall")
    rc, out, err = run([pipelay, "run", os.path.join(models, "stall_linear.yaml"), "--set",
                        "ends.top.motion.file=heave_jump.csv", "--output", out_dir, "--quiet", "--no-plots"])
    tail = "spread the jump over a longer time"
    try:
        failure = json.load(open(os.path.join(out_dir, "summary.json"))).get("dynamic_failure", "")
    except (OSError, ValueError):
        failure = ""
    check(rc == 3 and failure.startswith("IDA stopped at t = 5 s") and failure.endswith(tail) and
          ("stopped: " + failure + "; results up to") in err,
          "a dynamic failure, whole in summary.json and on stderr: exit %d, ...%r" % (rc, failure[-120:]))
    print("%d failed" % fails)
    return 1 if fails else 0

if __name__ == "__main__":
    sys.exit(main())
