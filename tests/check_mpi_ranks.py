#!/usr/bin/env python3
"""check_mpi_ranks.py - K MPI ranks give one rank's answer to the bit.

A run of one model is computed by rank 0 alone (app/pipelay.c says why: a split assembly and a
distributed static solve round otherwise than one rank, and an adaptive integrator then takes
another step sequence, each within its tolerance but not the same answer). So every column of
every time series of the K-rank run equals the one-rank run's to the bit, and the step counts
are equal. The check fails if a rank count changed anything at all.

Usage: check_mpi_ranks.py PIPELAY MPIEXEC OUTDIR EXAMPLE DURATION [RANKS...]
"""
import csv, glob, json, os, subprocess, sys

pipelay, mpiexec, out, example, duration = sys.argv[1:6]
ranks = [int(k) for k in sys.argv[6:]] or [2, 3]
name = os.path.splitext(os.path.basename(example))[0]
env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")


def run(tag, k, sets):
    d = os.path.join(out, f"{name}_{tag}")
    cmd = ([mpiexec, "--oversubscribe", "-n", str(k)] if k > 1 else []) + [pipelay, "run", example, "--output", d,
                                                                          "--quiet", "--no-plots"]
    for s in [f"analysis.dynamic.duration={duration}"] + sets:
        cmd += ["--set", s]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    if r.returncode != 0:
        print(r.stdout)
        sys.exit(f"FAIL {name} {tag}: exit status {r.returncode}")
    series = {}
    for f in sorted(glob.glob(os.path.join(d, "timeseries_*.csv"))):
        with open(f) as fh:
            rows = list(csv.reader(fh))
        series[os.path.basename(f)] = (rows[0], [[float(v) for v in row] for row in rows[1:]])
    with open(os.path.join(d, "summary.json")) as fh:
        steps = json.load(fh)["steps"]
    return series, steps


def maxdiff(a, b, j):
    return max(abs(x[j] - y[j]) for x, y in zip(a, b))


one, s1 = run("1", 1, [])
print(f"{name}: {duration} s; steps: 1 rank {s1}")
failures = 0
for k in ranks:
    many, sk = run(str(k), k, [])
    worst = 0.0
    for f, (head, a) in one.items():
        b = many[f][1]
        if len(a) != len(b):
            sys.exit(f"FAIL {name}: {f} has {len(a)} rows on one rank, {len(b)} on {k}")
        for j in range(1, len(head)):
            d = maxdiff(a, b, j)
            worst = max(worst, d)
            if d != 0.0:
                failures += 1
                print(f"FAIL {name} {k} ranks: {f} {head[j]}: |x_{k} - x_1| up to {d:.3e}")
    if sk != s1:
        failures += 1
        print(f"FAIL {name} {k} ranks: {sk} steps against {s1}")
    print(f"{name} {k} ranks: {sk} steps; the largest |x_{k} - x_1| {worst:.3e}")
sys.exit(1 if failures else 0)
