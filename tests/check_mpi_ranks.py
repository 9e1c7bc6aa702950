#!/usr/bin/env python3
"""check_mpi_ranks.py - K MPI ranks reproduce one rank to the integration tolerance (issue 13, item 5).

An adaptive integrator's result is only defined up to its tolerance: rounding differences
(sums reduced in another order, MUMPS's factorisation on K ranks against PETSc's on one)
change a step size or a Newton decision in the last bits, and from there the two runs
follow two step sequences, each within the tolerance. So what K ranks must meet is the
accuracy of one rank. The run with every tolerance (rtol, atol_position, atol_rotation,
atol_velocity, atol_strain) ten times tighter is the nearly exact answer x_tight; for every
column of every time series, the K-rank error is bounded by the one-rank error, both as the
root mean square over the output times:

    rms_t (x_K - x_tight) <= 3 rms_t (x_1 - x_tight) + 1e-9 max_t |x_1| + 1e-12.

The RMS, not the largest error over time: a derived column such as the top bending moment (a
difference of rotations over an element length) has isolated output times where a run's error
is several times its typical one, and which output time depends on the step sequence. Measured
on examples/jlay_circle_dp.yaml (60 s), top bending moment: with the start of the one-line
vessel statics (before 2026-11) the largest error was 1.12e4 N m on one rank and 2.18e4 N m on
two (ratio 1.95); with the start of the system core's statics, equal to 1e-9, 5.19e3 and
1.89e4 N m (3.6) at different output times, while the RMS errors were 869 and 1150 N m (1.3),
then 580 and 996 N m (1.7). On tests/models/scr_current_heave.yaml the largest ratio of the
largest errors was 1.96 (2 ranks, the effective tension at S = 330 m), hence the factor 3.
The last two terms are round-off (1e-12 in SI units for a column that is zero, e.g. y in a
plane case). The check fails if a rank count changed the physics (a reduction that drops a
rank's share, a missing ghost update, a load counted twice): such an error does not shrink
with the tolerance. The largest differences |x_K - x_1| and |x_K - x_tight| and the steps
taken are printed.

Usage: check_mpi_ranks.py PIPELAY MPIEXEC OUTDIR EXAMPLE DURATION [RANKS...]
"""
import csv, glob, json, os, subprocess, sys

pipelay, mpiexec, out, example, duration = sys.argv[1:6]
ranks = [int(k) for k in sys.argv[6:]] or [2, 3]
name = os.path.splitext(os.path.basename(example))[0]
TIGHT = ["analysis.dynamic.rtol=1e-5", "analysis.dynamic.atol_position=1e-6", "analysis.dynamic.atol_rotation=1e-6",
         "analysis.dynamic.atol_velocity=1e-4", "analysis.dynamic.atol_angular_velocity=1e-4", "analysis.dynamic.atol_strain=5e-8"]
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


def rmsdiff(a, b, j):
    return (sum((x[j] - y[j]) ** 2 for x, y in zip(a, b)) / len(a)) ** 0.5


one, s1 = run("1", 1, [])
tight, st = run("tight", 1, TIGHT)
print(f"{name}: {duration} s; steps: 1 rank {s1}, tight tolerances {st}")
failures = 0
for k in ranks:
    many, sk = run(str(k), k, [])
    worst = (0.0, "")
    for f, (head, a) in one.items():
        b = many[f][1]
        c = tight[f][1]
        if len(a) != len(b) or len(a) != len(c):
            sys.exit(f"FAIL {name}: {f} has {len(a)} rows on one rank, {len(b)} on {k}, {len(c)} tight")
        for j in range(1, len(head)):
            e1 = rmsdiff(a, c, j)
            ek = rmsdiff(b, c, j)
            bound = 3.0 * e1 + 1e-9 * max(abs(x[j]) for x in a) + 1e-12
            if ek > bound:
                failures += 1
                print(f"FAIL {name} {k} ranks: {f} {head[j]}: RMS error (x_{k} - x_tight) = {ek:.3e} > 3 RMS(x_1 - "
                      f"x_tight) + 1e-9 max|x| + 1e-12 = {bound:.3e} (largest |x_{k} - x_tight| {maxdiff(b, c, j):.3e}, "
                      f"|x_{k} - x_1| {maxdiff(a, b, j):.3e})")
            elif ek / bound > worst[0]:
                worst = (ek / bound, f"{f} {head[j]}: RMS error {ek:.3e}, one rank's {e1:.3e}; largest "
                                     f"|x_{k} - x_tight| {maxdiff(b, c, j):.3e}, |x_{k} - x_1| {maxdiff(a, b, j):.3e}")
    print(f"{name} {k} ranks: {sk} steps; the largest error relative to its bound: {worst[0]:.2f} ({worst[1]})")
sys.exit(1 if failures else 0)
