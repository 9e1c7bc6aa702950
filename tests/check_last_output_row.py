#!/usr/bin/env python3
"""The last output row of a run of bodies on lines is the state at the duration.

IDA stops at the duration (its stop time). When the step that passes the last output time but
one lands on the duration itself, the last output needs no further step: its row must still be
the state at the duration, interpolated from IDA's last step, not the previous output's state
left in the state vectors. The OC3 spar released in surge (verification/oc3_hywind, its
decay_surge run) shows it at 300 s with outputs every 0.5 s. In every time series the run
writes (the bodies', the lines' end forces, the energy, each line's ends) the last time must
equal the duration and the last two rows must differ in their values, not only in their time.

usage: check_last_output_row.py PIPELAY VERIFICATION_DIR WORKDIR
"""
import csv, glob, os, shutil, subprocess, sys


def main():
    pipelay, verification, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    case = os.path.join(verification, "oc3_hywind")
    fails = []

    def check(ok, what):
        print(("PASS " if ok else "FAIL ") + what)
        if not ok:
            fails.append(what)

    for T in (300, 100):
        out = os.path.join(work, "T%d" % T)
        p = subprocess.run([pipelay, "run", os.path.join(case, "oc3_hywind.yaml"), "--quiet", "--no-plots",
                            "--output", out, "--set", "analysis.type=dynamic",
                            "--set", "analysis.dynamic.duration=%d" % T, "--set", "analysis.dynamic.output_interval=0.5",
                            "--set", "output.vtk_interval=%d" % T,
                            "--set", "bodies[0].environment_load.file=" + os.path.join(case, "release_surge.csv")],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        check(p.returncode == 0, "T = %d s: the run exits 0 (%d: %s)" % (T, p.returncode, p.stderr.strip()[-300:]))
        if p.returncode:
            continue
        files = sorted(glob.glob(os.path.join(out, "timeseries_*.csv")) + [os.path.join(out, "energy.csv")] +
                       glob.glob(os.path.join(out, "line_*", "timeseries_*.csv")))
        check(len(files) >= 8, "T = %d s: the run's time series (%d files)" % (T, len(files)))
        for f in files:
            rows = list(csv.reader(open(f)))
            name = os.path.relpath(f, out)
            last, prev = rows[-1], rows[-2]
            check(abs(float(last[0]) - T) < 1e-9 and abs(float(prev[0]) - (T - 0.5)) < 1e-9,
                  "T = %d s, %s: the last two rows at %s s and %s s" % (T, name, prev[0], last[0]))
            check(last[1:] != prev[1:], "T = %d s, %s: the last row is not the previous one's state" % (T, name))
    print("%d failed" % len(fails))
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
