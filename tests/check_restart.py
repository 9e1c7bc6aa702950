#!/usr/bin/python3
"""check_restart.py - an interrupted dynamic run, restarted, ends where an uninterrupted
run ends (issue 7: interrupted runs lose nothing).

Runs examples/jlay_circle.yaml (20 s, tight tolerances so that it takes a few seconds),
sends SIGINT when the top time series has passed t = 8 s, expects exit status 5 and a
restart file, continues it with --restart (exit 0), and runs it once uninterrupted. The
final state must agree: positions (final rows) and displacement envelopes to 1e-6 of the
line length; section forces, moments and curvature (final rows and envelopes) to 1e-4 of
the largest value of that quantity in the run - the restarted IDA begins afresh at order 1,
so the two runs agree to the integration tolerance (rtol 1e-7), not to round-off. The time
series must have the same times and the ParaView collection as many frames. The restart's
real-time factor (summary.json and console) is the time it simulated itself (from the restart
time to the end) over its own wall time.
usage: check_restart.py PIPELAY EXAMPLES_DIR WORKDIR
"""
import csv, os, shutil, signal, subprocess, sys, time

pipelay, examples, work = sys.argv[1:4]
model = os.path.join(examples, "jlay_circle.yaml")
sets = ["--set", "analysis.dynamic.duration=20", "--set", "analysis.dynamic.rtol=1e-7",
        "--set", "analysis.dynamic.atol_position=1e-7", "--set", "mesh.elements=199", "--no-plots", "--quiet"]
a, b = os.path.join(work, "interrupted"), os.path.join(work, "full")
for d in (a, b):
    shutil.rmtree(d, ignore_errors=True)
fails = []

def rows(path):
    with open(path) as f:
        return list(csv.reader(f))

p = subprocess.Popen([pipelay, "run", model, "--output", a] + sets, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
series = os.path.join(a, "timeseries_top.csv")
t_int = None
while p.poll() is None:
    try:
        r = rows(series)
        if len(r) > 2 and float(r[-1][0]) >= 8.0:
            t_int = float(r[-1][0])
            p.send_signal(signal.SIGINT)
            break
    except (OSError, ValueError, IndexError):
        pass
    time.sleep(0.002)  # the run takes a few tenths of a second: poll often enough to catch t = 8 s
err = p.communicate()[1].decode()
if t_int is None:
    fails.append("the run ended before it could be interrupted (status %s)" % p.returncode)
elif p.returncode != 5:
    fails.append("interrupted run: status %s, want 5; stderr: %s" % (p.returncode, err.strip()))
elif "interrupted" not in err:
    fails.append("interrupted run: no message on stderr: %r" % err)
if not os.path.exists(os.path.join(a, "restart.bin")):
    fails.append("no restart file after the interruption")
# the restart prints its summary (not --quiet): its real-time factor is checked below
r = subprocess.run([pipelay, "run", model, "--restart", a] + [x for x in sets if x != "--quiet"], capture_output=True,
                   text=True)
if r.returncode != 0:
    fails.append("restart: status %d: %s" % (r.returncode, r.stderr.strip()))
restart_out = r.stdout
r = subprocess.run([pipelay, "run", model, "--output", b] + sets, capture_output=True, text=True)
if r.returncode != 0:
    fails.append("full run: status %d: %s" % (r.returncode, r.stderr.strip()))

# scales per unit (the largest magnitude of that kind of quantity in any compared file): a
# column of near-zero values (the bending moment at the clamped end) is judged against the
# moments of the whole run, not against its own noise
names = ("timeseries_top.csv", "timeseries_bottom.csv", "timeseries_node25.csv", "envelopes.csv")
def unit(col):
    for u in ("_Nm", "_1pm", "_N", "_m", "_s"):
        if col.endswith(u):
            return u
    return col
scale = {"_m": 1500.0}
for name in names:
    rb = rows(os.path.join(b, name))
    for j, col in enumerate(rb[0]):
        u = unit(col)
        if u != "_m":
            scale[u] = max(scale.get(u, 0.0), max(abs(float(x[j])) for x in rb[1:]))
worst = {}
for name in names:
    ra, rb = rows(os.path.join(a, name)), rows(os.path.join(b, name))
    if ra[0] != rb[0] or len(ra) != len(rb):
        fails.append("%s: header or row count differ (%d vs %d rows)" % (name, len(ra), len(rb)))
        continue
    if name.startswith("timeseries") and [x[0] for x in ra] != [x[0] for x in rb]:
        fails.append("%s: the output times differ" % name)
    pairs = [(ra[-1], rb[-1])] if name.startswith("timeseries") else list(zip(ra[1:], rb[1:]))
    for xa, xb in pairs:
        for j, (va, vb) in enumerate(zip(xa, xb)):
            u = unit(rb[0][j])
            if u == "_s" or rb[0][j] == "S_m":
                continue
            e = abs(float(va) - float(vb)) / (scale[u] or 1.0)
            tol = 1e-6 if u == "_m" else 1e-4
            worst[u] = max(worst.get(u, 0.0), e)
            if e > tol:
                fails.append("%s column %s: %s vs %s (%.2e of the run's largest, > %g)" % (name, rb[0][j], va, vb, e, tol))
# the restart's real-time factor: the time this process simulated (from restarted_at_s to the
# end) over this process's wall time, in summary.json (within 1 %) and on the console (within
# 1 % and the rounding of its printed digits)
import json, re
try:
    sj = json.load(open(os.path.join(a, "summary.json")))
    sim = sj["simulated_time_s"] - sj["restarted_at_s"]
    want = sim / sj["wall_time_s"]
    if not (sj["restarted_at_s"] > 0 and abs(sj["real_time_factor"] - want) <= 0.01 * want):
        fails.append("restart: summary.json real_time_factor %.4g, but (simulated_time_s %.6g - restarted_at_s %.6g) "
                     "/ wall_time_s %.4g = %.4g" % (sj["real_time_factor"], sj["simulated_time_s"],
                                                    sj["restarted_at_s"], sj["wall_time_s"], want))
    m = re.search(r"wall time ([0-9.]+) s for the ([0-9.e+-]+) s from the restart at ([0-9.e+-]+) s, ([0-9.]+)x real "
                  r"time", restart_out)
    if not m:
        fails.append("restart: the console does not say the wall time and the real-time factor of the restart's own "
                     "simulated time: %r" % restart_out[-400:])
    else:
        wall, span, t0, rtf = (float(x) for x in m.groups())
        if not (abs(span - sim) <= 1e-5 * span and abs(t0 - sj["restarted_at_s"]) <= 1e-5 * t0
                and abs(rtf - span / wall) <= 0.01 * span / wall + 0.05 + span * 5e-4 / wall ** 2):
            fails.append("restart: console %r: the factor is not the simulated time from the restart over the wall "
                         "time" % m.group(0))
except (OSError, ValueError, KeyError) as e:
    fails.append("restart: summary.json: %s" % e)
na = open(os.path.join(a, "dynamic.pvd")).read().count("<DataSet")
nb = open(os.path.join(b, "dynamic.pvd")).read().count("<DataSet")
if na != nb:
    fails.append("ParaView frames: %d after the restart, %d uninterrupted" % (na, nb))
print("check_restart: interrupted at t = %s s; after --restart the final state matches the uninterrupted run: "
      "positions and displacements to %.2e of L; forces %.2e, moments %.2e, curvature %.2e of the run's largest; "
      "%d ParaView frames" % (t_int, worst.get("_m", 0), worst.get("_N", 0), worst.get("_Nm", 0), worst.get("_1pm", 0), na))
for f in fails[:10]:
    print("FAIL " + f)
sys.exit(1 if fails else 0)
