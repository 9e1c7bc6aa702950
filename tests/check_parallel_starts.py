#!/usr/bin/python3
"""check_parallel_starts.py - many pipelay runs started at once on one machine all start.

Usage: check_parallel_starts.py PIPELAY

Starts 48 static runs of a small J-lay (one MPI singleton each, no launcher) at the same
moment, each into its own output directory, and requires every one to exit 0 with its
summary written. Open MPI's isolated singletons once shared one session directory, and one
run's MPI_Finalize removed it while another's MPI_Init created it: 2 to 10 of 60 such runs
aborted in MPI_Init (solver/mpi_start.c). Quiet on success apart from a count.
"""
import os
import shutil
import subprocess
import sys
import tempfile

MODEL = """\
environment: {water_depth: 900, water_density: 1025}
line:
  length: 1500
  sections:
    - outer_diameter: 0.762
      wall_thickness: 0.033
      material: {youngs_modulus: 206e9, shear_modulus: 7.9231e10, density: 7850}
mesh: {elements: 40}
ends:
  bottom: {position: [0, 0, -899.71425], fixed: all}
  top: {position: [~, 0, 0], fixed: [y, z], force: [400e3, 0, 0], moment: [0, 0, 0]}
"""
RUNS = 48


def main():
    pipelay = os.path.abspath(sys.argv[1])
    work = tempfile.mkdtemp(prefix="pipelay_starts_")
    model = os.path.join(work, "model.yaml")
    with open(model, "w") as f:
        f.write(MODEL)
    env = dict(os.environ)
    for k in [k for k in env if k.startswith("OMPI_MCA_")]:
        del env[k]
    procs = [subprocess.Popen([pipelay, "run", model, "--output", os.path.join(work, "o%d" % i),
                               "--no-plots", "--quiet"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, env=env) for i in range(RUNS)]
    failed = []
    for i, p in enumerate(procs):
        _, err = p.communicate()
        summary = os.path.join(work, "o%d" % i, "summary.json")
        if p.returncode != 0 or not os.path.exists(summary):
            failed.append("run %d: status %d, %s" % (i, p.returncode, err.decode(errors="replace")[:300]))
    for line in failed:
        print("FAIL:", line)
    print("check_parallel_starts: %d of %d runs started together succeeded" % (RUNS - len(failed), RUNS))
    if failed:
        print("check_parallel_starts: the runs are in", work)
        return 1
    shutil.rmtree(work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
