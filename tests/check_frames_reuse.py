#!/usr/bin/env python3
"""check_frames_reuse.py - a run reusing its output folder writes its ParaView frames over the
earlier run's in place, and no frame of the earlier run survives it (output/ownership.c).

usage: check_frames_reuse.py PIPELAY MODELS_DIR WORK_DIR

tests/models/system_moored.yaml (three lines and a body, 5 s, a frame every 1 s: 6 frames per
line and of the bodies) is run into WORK_DIR/out, then again with 2 s (3 frames): afterwards
every line_*/vtk/dynamic_*.vtu and vtk/bodies_*.vtu in the folder is one dynamic.pvd lists
(none of the first run's later frames left), the frames kept were written over (newer than the
second run's start) and end where the new frame ends (the first run's frames are made 4 kB
longer before the second run: a frame written over a longer one in place is cut at its own
end, output/vtk.c), and summary.json's "files" lists them. Then the same model as a static
analysis into the same folder: no frame at all is left. Quiet on success; one line per failure, exit status 1.
"""
import glob, json, os, re, subprocess, sys, time

pipelay, models, work = sys.argv[1:4]
out = os.path.join(work, "out")
os.makedirs(work, exist_ok=True)
failures = []


def run(*sets, model=os.path.join(models, "system_moored.yaml")):
    cmd = [pipelay, "run", model, "--output", out, "--quiet", "--no-plots"]
    for s in sets:
        cmd += ["--set", s]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        failures.append(f"{' '.join(cmd)}: exit {r.returncode}: {r.stderr.strip()[:300]}")


def frames():
    return sorted(glob.glob(os.path.join(out, "line_*", "vtk", "dynamic_*.vtu")) +
                  glob.glob(os.path.join(out, "vtk", "bodies_*.vtu")))


def listed():
    names = set()
    for pvd in [os.path.join(out, "dynamic.pvd")] + glob.glob(os.path.join(out, "line_*", "dynamic.pvd")):
        if os.path.isfile(pvd):
            base = os.path.dirname(pvd)
            names |= {os.path.normpath(os.path.join(base, f)) for f in re.findall(r'file="([^"]+)"', open(pvd).read())}
    return names


run("analysis.dynamic.duration=5")
first = frames()
if len(first) != 4 * 6:
    failures.append(f"first run: {len(first)} frames, expected 24 (3 lines and the bodies at 0, 1, ..., 5 s)")
for f in first:  # longer than the second run's frames of the same names
    with open(f, "ab") as g:
        g.write(b"x" * 4096)
time.sleep(0.05)
t0 = time.time()
run("analysis.dynamic.duration=2")
second = frames()
for f in second:
    with open(f, "rb") as g:
        if not g.read().endswith(b"</VTKFile>\n"):
            failures.append(f"second run: {f} does not end with its own </VTKFile> (an earlier frame's tail left)")
            break
if len(second) != 4 * 3:
    failures.append(f"second run: {len(second)} frames in the folder, expected 12: {second[:6]}")
if {os.path.normpath(f) for f in second} != listed():
    failures.append("second run: the frames in the folder are not those its collections list")
old = [f for f in second if os.stat(f).st_mtime < t0 - 0.01]
if old:
    failures.append(f"second run: {len(old)} frames older than the run: {old[:3]}")
with open(os.path.join(out, "summary.json")) as f:
    files = set(json.load(f).get("files", []))
missing = [f for f in second if os.path.relpath(f, out) not in files]
if missing:
    failures.append(f"summary.json's files miss {missing[:3]}")
static = os.path.join(work, "static.yaml")  # the same model, its analysis static
with open(os.path.join(models, "system_moored.yaml")) as f:
    text = f.read()
with open(static, "w") as f:
    f.write(re.sub(r"(?m)^analysis:.*$", "analysis: {type: static}", text))
run(model=static)
if frames():
    failures.append(f"a static run after the dynamic ones leaves {len(frames())} frames")
for f in failures:
    print("check_frames_reuse: FAIL", f)
sys.exit(1 if failures else 0)
