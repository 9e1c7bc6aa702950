#!/usr/bin/env python3
"""What the command line says when it refuses an input or a run fails: whole, and not silent.

1. `pipelay sweep FILE --vary A=... --vary B=...`: a sweep varies one key; a second --vary is
   refused with exit 2 and a message naming both (it used to be dropped, the first key's sweep
   run as if the second were not given).

usage: check_run_messages.py PIPELAY REPO_ROOT WORKDIR
"""
import os, subprocess, sys

def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)
    return p.returncode, p.stdout, p.stderr

def main():
    pipelay, root, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    fails = 0
    def check(ok, what):
        nonlocal fails
        print(("PASS " if ok else "FAIL ") + what)
        fails += not ok

    # 1. a second --vary
    rc, out, err = run([pipelay, "sweep", os.path.join(root, "examples", "jlay_900m.yaml"), "--vary",
                        "ends.top.force[0]=300e3,400e3", "--vary", "mesh.elements=100,200", "--output",
                        os.path.join(work, "two_vary"), "--quiet", "--no-plots"])
    check(rc == 2 and "only one --vary" in err and "mesh.elements=100,200" in err and "ends.top.force[0]" in err
          and len(err.strip().splitlines()) == 1 and not os.path.exists(os.path.join(work, "two_vary", "sweep.csv")),
          "sweep with two --vary: exit %d (want 2), stderr %r" % (rc, err.strip()[:300]))

    print("%d failed" % fails)
    return 1 if fails else 0

if __name__ == "__main__":
    sys.exit(main())
