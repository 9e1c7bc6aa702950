#!/usr/bin/env python3
"""Checkpoints and --restart of a dynamic run of a system of lines (solver/system_run.c) on
tests/models/system_three_lines.yaml: three lines, two bodies on springs (west released with a
velocity), a free clump and a fixed anchor.

  reference  the whole run (2 s, rtol 1e-7) and the same at rtol 1e-8 with every atol 100 times
             smaller (as check_one_line_system.py): their difference, each column over its largest value, is the integration
             error E of the reference.
  duration   the run to 1 s (completed, its final checkpoint), then --restart with duration 2 s
             (only the duration may change): it completes, summary.json says restarted_at_s,
             the time of IDA's last step, at or past 1 s (IDA steps past the duration and
             interpolates the last output), and its counters go on (more steps than the first
             part's); every time series of the run (timeseries_lines.csv, energy.csv,
             timeseries_point_clump.csv, timeseries_west.csv, timeseries_east.csv, each
             line_NAME/timeseries_*.csv) has exactly one row per output time (no duplicate, no
             gap), and equals the uninterrupted reference's to the bit (restart.bin keeps the
             integrator's whole state, so the restart takes the reference's steps); the ParaView
             collections list every output time once.
  signal     a run of 30 s with output.checkpoint_interval 0 (a checkpoint at every output) gets
             SIGINT once it has written 20 outputs: exit 5, summary.json "completed": false with
             the time reached (before 4 s); --restart with duration 4 s finishes it with one
             row per output time, equal to an uninterrupted 4 s run to the bit.
  refused    a restart with a changed model value (the clump's mass) exits 2 naming the point and
             the value, every file of the folder as it was; a missing restart.bin and a cut one exit 2 naming
             the file.
Usage: check_system_restart.py PIPELAY MODELS_DIR WORKDIR
"""
import csv, glob, json, math, os, shutil, signal, subprocess, sys, time

pipelay, models, work = sys.argv[1:4]
model = os.path.join(models, "system_three_lines.yaml")
os.makedirs(work, exist_ok=True)
failures = 0
env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1")
TIGHT = ["analysis.dynamic.rtol=1e-8", "analysis.dynamic.atol_strain=5e-9", "analysis.dynamic.atol_position=1e-7",
         "analysis.dynamic.atol_rotation=1e-7", "analysis.dynamic.atol_velocity=1e-5",
         "analysis.dynamic.atol_angular_velocity=1e-5"]  # check_one_line_system.py's
DT = 0.05


def check(ok, what):
    global failures
    print(("PASS " if ok else "FAIL ") + what)
    failures += 0 if ok else 1


def cmd(*args, out=None, restart=None, sets=()):
    c = [pipelay, "run", model, "--no-plots", "--quiet"]
    if out:
        c += ["--output", os.path.join(work, out)]
    if restart:
        c += ["--restart", os.path.join(work, restart)]
    for s in sets:
        c += ["--set", s]
    return c


def run(out=None, restart=None, sets=(), expect=0):
    p = subprocess.run(cmd(out=out, restart=restart, sets=sets), capture_output=True, text=True, env=env)
    if p.returncode != expect:
        print(p.stdout + p.stderr)
    check(p.returncode == expect, f"{'--restart ' + restart if restart else out} {' '.join(sets)}: exit "
                                  f"{p.returncode} (expected {expect})")
    return p


def table(path):
    with open(path) as f:
        return [{k: float(v) for k, v in row.items()} for row in csv.DictReader(f)]


def series(d):
    """Every time series of a system run, relative to its folder."""
    return sorted(os.path.relpath(f, d) for f in glob.glob(os.path.join(d, "timeseries_*.csv")) +
                  glob.glob(os.path.join(d, "energy.csv")) + glob.glob(os.path.join(d, "line_*", "timeseries_*.csv")))


def difference(da, db):
    """The largest difference of two runs' series, each column over its largest value (columns
    below 1e-2 in their unit are noise; energy.csv's balance_J is the integration error itself,
    not a result); the row counts must agree."""
    worst = 0.0
    for f in series(da):
        a, b = table(os.path.join(da, f)), table(os.path.join(db, f))
        if len(a) != len(b):
            return math.inf
        for col in a[0]:
            scale = max(abs(r[col]) for r in a)
            if col in ("t_s", "balance_J") or scale < 1e-2:
                continue
            worst = max(worst, max(abs(ra[col] - rb[col]) for ra, rb in zip(a, b)) / scale)
    return worst


def one_row_per_output(d, T, what):
    want = [round(k * DT, 9) for k in range(int(round(T / DT)) + 1)]
    bad = [f for f in series(d) if [round(r["t_s"], 9) for r in table(os.path.join(d, f))] != want]
    check(not bad and len(series(d)) >= 11, f"{what}: each of {len(series(d))} time series has one row per output "
                                            f"time 0 .. {T} s, no duplicate, no gap{' (not: ' + str(bad) + ')' if bad else ''}")
    for pvd in [os.path.join(d, "dynamic.pvd")] + glob.glob(os.path.join(d, "line_*", "dynamic.pvd")):
        with open(pvd) as f:
            times = [float(x.split('"')[0]) for x in f.read().split('timestep="')[1:]]
        uniq = sorted(set(round(t, 9) for t in times))
        # ParaView frames every output.vtk_interval (the default 1 s) and at the last output
        every = round(1.0 / DT)
        frames = [t for k, t in enumerate(want) if k % every == 0 or k == len(want) - 1]
        check(uniq == frames and len(times) == len(set(times)) * (len(times) // max(1, len(set(times)))),
              f"{what}: {os.path.relpath(pvd, d)} lists a frame every {every} outputs and the last, each once "
              f"({len(uniq)} frames, {len(frames)} expected of {len(want)} outputs)")


def summary(d):
    with open(os.path.join(d, "summary.json")) as f:
        return json.load(f)


# ---- reference ----
ref = os.path.join(work, "ref")
run(out="ref")
run(out="ref_tight", sets=TIGHT)
E = difference(ref, os.path.join(work, "ref_tight"))
print(f"reference: integration error E = {E:.3g} (rtol 1e-7 against 1e-8, relative to each column's largest value)")
check(0 < E < 0.5, "the reference's integration error is measurable")

# ---- duration ----
run(out="part", sets=["analysis.dynamic.duration=1"])
part = os.path.join(work, "part")
s1 = summary(part)
check(s1["completed"] is True and os.path.exists(os.path.join(part, "restart.bin")),
      "the 1 s run completes with its final checkpoint (restart.bin)")
run(restart="part", sets=["analysis.dynamic.duration=2"])
s2 = summary(part)
dy1, dy2 = s1["dynamic"], s2["dynamic"]
check(s2["completed"] is True and dy2["simulated_time_s"] == 2 and 1 <= dy2.get("restarted_at_s", 0) < 1.1,
      f"the restart completes to 2 s, summary.json: restarted_at_s {dy2.get('restarted_at_s')} (IDA's last step, "
      f"at or past the 1 s of the first run)")
check(dy2["steps"] > dy1["steps"] and dy2["nonlinear_iterations"] > dy1["nonlinear_iterations"],
      f"the counters go on: steps {dy1['steps']} -> {dy2['steps']} (the whole run alone: "
      f"{summary(ref)['dynamic']['steps']})")
one_row_per_output(part, 2.0, "restarted")
D = difference(ref, part)
print(f"duration: restarted run against the reference: {D:.3g} (E = {E:.3g})")
check(D == 0, f"the restarted run equals the uninterrupted reference to the bit (largest difference {D:.3g}; its "
      f"integration error E {E:.3g})")
for name, line in dy2["lines"].items():
    r = summary(ref)["dynamic"]["lines"][name]
    for end in ("bottom", "top"):
        a, b = r[end]["max_tension_N"], line[end]["max_tension_N"]
        check(abs(a - b) <= 4 * E * a + 1e-6, f"{name} {end}: largest tension over the whole run kept across the "
                                              f"restart ({b:.6g} N, reference {a:.6g} N)")

# ---- signal ----
run(out="ref4", sets=["analysis.dynamic.duration=4"])
run(out="ref4_tight", sets=["analysis.dynamic.duration=4"] + TIGHT)
E4 = difference(os.path.join(work, "ref4"), os.path.join(work, "ref4_tight"))
sig = os.path.join(work, "sig")
shutil.rmtree(sig, ignore_errors=True)  # no rows of an earlier run to wait for
p = subprocess.Popen(cmd(out="sig", sets=["analysis.dynamic.duration=30", "output.checkpoint_interval=0"]),
                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
t0 = time.time()
def rows(path):
    try:
        with open(path) as f:
            return sum(1 for _ in f) - 1
    except OSError:
        return 0


while rows(os.path.join(sig, "energy.csv")) < 20 and p.poll() is None and time.time() - t0 < 60:
    time.sleep(0.002)
p.send_signal(signal.SIGINT)
err = p.communicate()[1]
ss = summary(sig)
print(f"signal: interrupted at t = {ss['dynamic']['simulated_time_s']} s (exit {p.returncode})")
check(p.returncode == 5 and ss["completed"] is False and 0.9 < ss["dynamic"]["simulated_time_s"] < 4,
      "SIGINT after 20 outputs: exit 5, summary.json says completed false with the time reached")
run(restart="sig", sets=["analysis.dynamic.duration=4"])
s3 = summary(sig)
check(s3["completed"] is True and s3["dynamic"]["restarted_at_s"] > 0 and s3["dynamic"]["steps"] > ss["dynamic"]["steps"],
      f"the interrupted run finishes from its checkpoint at {s3['dynamic'].get('restarted_at_s')} s, steps "
      f"{ss['dynamic']['steps']} -> {s3['dynamic']['steps']}")
one_row_per_output(sig, 4.0, "interrupted and restarted")
D4 = difference(os.path.join(work, "ref4"), sig)
print(f"signal: against the uninterrupted run: {D4:.3g} (E4 = {E4:.3g})")
check(D4 == 0, f"equal to the uninterrupted run to the bit (largest difference {D4:.3g}; E4 {E4:.3g})")

# ---- refused ----
def snapshot(d):
    return {f: open(f, "rb").read() for f in glob.glob(os.path.join(d, "**"), recursive=True) if os.path.isfile(f)}


before = snapshot(part)
p = run(restart="part", sets=["analysis.dynamic.duration=3", "points[0].mass=2500"], expect=2)
after = snapshot(part)
if before != after:
    print("changed:", [f for f in set(before) | set(after) if before.get(f) != after.get(f)])
check("point clump" in p.stderr and "2500" in p.stderr and before == after,
      "a restart with another clump mass is refused naming the point and the value, every file of the folder as it was")
os.makedirs(os.path.join(work, "empty"), exist_ok=True)
p = run(restart="empty", expect=2)
check("restart.bin" in p.stderr and p.stderr.count("cannot read the restart file") == 1,
      "a missing restart.bin: exit 2 naming the file (once)")
with open(os.path.join(part, "restart.bin"), "r+b") as f:
    f.truncate(200)
p = run(restart="part", sets=["analysis.dynamic.duration=3"], expect=2)
check("restart.bin" in p.stderr, "a cut restart.bin: exit 2 naming the file")

print(f"{failures} failed")
sys.exit(1 if failures else 0)
