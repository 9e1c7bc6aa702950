#!/usr/bin/env bash
# pipelay against MoorDyn v2.7.1 at equal accuracy on the same line: the 740-node J-lay on a
# circle (examples/jlay_circle.yaml with mesh.elements=739: 1500 m of 30-inch pipe in 900 m of
# water, the bottom clamped on the seabed, the top moved on a 2.5 m circle of period 10 s for
# 60 s). MoorDyn gets the same line (bench/moordyn/jlay_input.py: 739 segments, the pipe's EA,
# EI, mass, diameter and drag, the seabed, a clamp at the bottom, a hinge at the top), starts
# from pipelay's static shape and its own static solve, and its top is moved on pipelay's path
# (bench/moordyn/drive_jlay.c). Both driven by this script:
#   1. pipelay at its defaults, with every integration tolerance 10 times tighter, and 100 times
#      tighter (its converged answer); MoorDyn (explicit RK4) at dtM = 0.1 s / n for each n of NS (default
#      "170 180 200 400 800": the first is past RK4's stability limit, the last the converged
#      answer), two runs at a time (not timed).
#   2. The accuracy of each: the top tension every 0.1 s over the 60 s against the same code's
#      converged answer, the largest difference at any output time over the converged series'
#      peak, in %. MoorDyn's change from the second finest to the finest dtM shows whether its
#      series has stopped changing.
#   3. The cross-check of the physics: the two codes' converged top-tension series against each
#      other (and their static top tensions).
#   4. Timing at equal accuracy, RUNS times alternately (default 3, medians): pipelay's whole
#      `pipelay run --no-plots --quiet` and its dynamic phase (summary.json real_time_factor) at
#      its defaults and with the tolerances / 10, MoorDyn's time loop and initial conditions
#      (drive_jlay's own clocks) at its largest dtM within 1 %.
# MoorDyn is cloned and built here (needs network, git, cmake and a C++ compiler; or
# MOORDYN_SRC=DIR of a MoorDyn source tree); pipelay's build is BUILD_DIR (default build).
# Prints the machine, its load, the tables; KEEP=DIR keeps the work files (series) there, and
# with REUSE=1 the MoorDyn study runs already in KEEP are not run again (their MoorDyn build and
# inputs must be the same).
#   bench/moordyn_jlay.sh [BUILD_DIR] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
B=$(cd "${1:-build}" && pwd)
RUNS=${2:-3}
NS=${NS:-170 180 200 400 800}
PY=${PYTHON:-/usr/bin/python3} # with numpy and yaml
MODEL=examples/jlay_circle.yaml
ELEMENTS=739
if [ -n "${KEEP:-}" ]; then
  mkdir -p "$KEEP"
  W=$(cd "$KEEP" && pwd)
else
  W=$(mktemp -d)
  trap 'rm -rf "$W"' EXIT
fi
. bench/moordyn/build.sh
moordyn_build "$W" bench/moordyn/drive_jlay.c "$W/drive_jlay"
export LD_LIBRARY_PATH="$W/md/source${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); one core each"
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"

# 1. pipelay: the defaults and every tolerance / 100
set_mesh=(--set "mesh.elements=$ELEMENTS")
tight=() tenth=()
for kv in rtol=1e-4 atol_position=1e-5 atol_rotation=1e-5 atol_velocity=1e-3 atol_angular_velocity=1e-3 atol_strain=5e-7; do
  k=${kv%%=*} v=${kv#*=}
  tight+=(--set "analysis.dynamic.$k=$("$PY" -c "print($v / 100)")")
  tenth+=(--set "analysis.dynamic.$k=$("$PY" -c "print($v / 10)")")
done
"$B/pipelay" run "$MODEL" "${set_mesh[@]}" --output "$W/pl" --no-plots --quiet
"$B/pipelay" run "$MODEL" "${set_mesh[@]}" "${tenth[@]}" --output "$W/pl_tenth" --no-plots --quiet
"$B/pipelay" run "$MODEL" "${set_mesh[@]}" "${tight[@]}" --output "$W/pl_tight" --no-plots --quiet

# the top's static x and the circle, as the model and pipelay's static answer give them
read -r X0 CIRCLE < <("$PY" - "$MODEL" "$W/pl/timeseries_top.csv" <<'EOF'
import csv, sys, yaml
m = yaml.safe_load(open(sys.argv[1]))["ends"]["top"]["motion"]
assert m["type"] == "circle" and float(m.get("start_time", 0)) == 0
row = next(csv.DictReader(open(sys.argv[2])))
d = 1 if m.get("direction", "counter_clockwise") == "counter_clockwise" else -1
print(row["x_m"], m["radius"], m["period"], m["ramp_up"], m["hold"], m["ramp_down"], d)
EOF
)

# 2. MoorDyn at each dtM, two at a time
md_run() { # n: dtM = 0.1 / n
  local n=$1 d
  d=$("$PY" -c "print(0.1 / $1)")
  mkdir -p "$W/md_$n"
  "$PY" bench/moordyn/jlay_input.py "$MODEL" $ELEMENTS "$X0" "$d" RK4 "$W/md_$n/in.txt"
  # shellcheck disable=SC2086
  if (cd "$W/md_$n" && "$W/drive_jlay" in.txt "$W/pl/static.csv" "$X0" $CIRCLE "$d" 60 0.1 series.csv \
        > log.txt 2> err.txt); then tail -1 "$W/md_$n/log.txt" > "$W/md_$n/result.txt"
  else echo "failed: $(grep -m1 'drive_jlay:' "$W/md_$n/err.txt")" > "$W/md_$n/result.txt"; fi
}
jobs_now=0
for n in $NS; do
  if [ -n "${REUSE:-}" ] && [ -s "$W/md_$n/result.txt" ]; then continue; fi
  md_run "$n" &
  jobs_now=$((jobs_now + 1))
  if [ $jobs_now -ge 2 ]; then wait -n; jobs_now=$((jobs_now - 1)); fi
done
wait
"$PY" - "$W" "$NS" <<'EOF' > "$W/accuracy.txt"
import csv, json, os, sys
import numpy as np
W, NS = sys.argv[1], [int(n) for n in sys.argv[2].split()]
def series(path, col):
    r = list(csv.DictReader(open(path)))
    return {round(float(x["t_s"]) * 10): float(x[col]) for x in r}
def diff(a, ref):
    k = sorted(set(a) & set(ref))
    d = np.array([abs(a[i] - ref[i]) for i in k])
    peak = max(abs(ref[i]) for i in k)
    j = int(np.argmax(d))
    return 100 * d[j] / peak, k[j] / 10, len(k)
pl = series(f"{W}/pl/timeseries_top.csv", "effective_tension_N")
plt = series(f"{W}/pl_tight/timeseries_top.csv", "effective_tension_N")
e, t, n = diff(pl, plt)
s, st = json.load(open(f"{W}/pl/summary.json")), json.load(open(f"{W}/pl_tight/summary.json"))
print(f"pipelay defaults: {e:.3f} % (at t = {t:.1f} s, {n} outputs), {s['steps']} steps; tolerances / 100: {st['steps']} steps")
e, t, n = diff(series(f"{W}/pl_tenth/timeseries_top.csv", "effective_tension_N"), plt)
print(f"pipelay tolerances / 10: {e:.4f} % (at t = {t:.1f} s), {json.load(open(f'{W}/pl_tenth/summary.json'))['steps']} steps")
ok = [n for n in NS if os.path.exists(f"{W}/md_{n}/series.csv") and not open(f"{W}/md_{n}/result.txt").read().startswith("failed")]
for n in NS:
    if n not in ok:
        print(f"MoorDyn dtM = {0.1 / n:.4g} s: {open(f'{W}/md_{n}/result.txt').read().strip()}")
ref_n = max(ok)
ref = series(f"{W}/md_{ref_n}/series.csv", "top_tension_N")
best = None
for n in sorted(ok):
    if n == ref_n:
        continue
    e, t, k = diff(series(f"{W}/md_{n}/series.csv", "top_tension_N"), ref)
    print(f"MoorDyn dtM = {0.1 / n:.4g} s: {e:.4f} % against dtM = {0.1 / ref_n:.4g} s (at t = {t:.1f} s, {k} outputs)")
    if e <= 1.0 and best is None:
        best = n
print(f"MoorDyn converged answer: dtM = {0.1 / ref_n:.4g} s")
print(f"chosen {best}")
# 3. cross-check: the converged series of the two codes
e, t, k = diff(ref, plt)
a = np.array([ref[i] for i in sorted(set(ref) & set(plt))]); b = np.array([plt[i] for i in sorted(set(ref) & set(plt))])
tt = np.array(sorted(set(ref) & set(plt))) / 10
print(f"cross-check, MoorDyn (dtM {0.1 / ref_n:.4g} s) against pipelay (tolerances / 100): largest difference {e:.2f} % of "
      f"pipelay's peak at t = {t:.1f} s; mean difference {100 * np.mean(a - b) / b.max():+.3f} %, rms {100 * np.sqrt(np.mean((a - b) ** 2)) / b.max():.3f} %")
print(f"  top tension max: pipelay {b.max() / 1e3:.1f} kN at {tt[b.argmax()]:.1f} s, MoorDyn {a.max() / 1e3:.1f} kN at {tt[a.argmax()]:.1f} s; "
      f"min: pipelay {b.min() / 1e3:.1f} kN at {tt[b.argmin()]:.1f} s, MoorDyn {a.min() / 1e3:.1f} kN at {tt[a.argmin()]:.1f} s")
r = open(f"{W}/md_{ref_n}/result.txt").read().split("\n")[-2].split()  # drive_jlay's line (the last)
print(f"  static: top element tension pipelay {plt[0] / 1e3:.2f} kN, MoorDyn (top segment) {float(r[3]) / 1e3:.2f} kN ({100 * (float(r[3]) / plt[0] - 1):+.3f} %); "
      f"top force (H, V) pipelay ({s['static_top_horizontal_tension_N'] / 1e3:.1f}, {(s['static_top_tension_N'] ** 2 - s['static_top_horizontal_tension_N'] ** 2) ** 0.5 / 1e3:.1f}) kN, "
      f"MoorDyn ({float(r[4]) / 1e3:.1f}, {-float(r[5]) / 1e3:.1f}) kN; |top force| pipelay {s['static_top_tension_N'] / 1e3:.1f} kN, "
      f"MoorDyn {(float(r[4]) ** 2 + float(r[5]) ** 2) ** 0.5 / 1e3:.1f} kN")
EOF
cat "$W/accuracy.txt"
BEST=$(awk '$1 == "chosen" {print $2}' "$W/accuracy.txt")
if [ "$BEST" = None ]; then echo "no MoorDyn dtM within 1 %"; exit 1; fi

# 4. timing, alternately
median() { sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
: > "$W/t_pl" ; : > "$W/t_rtf"; : > "$W/t_pl10" ; : > "$W/t_rtf10"; : > "$W/t_ic"; : > "$W/t_loop"
pl_timed() { # files for the wall time and the real-time factor, then the extra arguments
  local fw=$1 fr=$2 t0 t1
  shift 2
  t0=$(date +%s.%N)
  "$B/pipelay" run "$MODEL" "${set_mesh[@]}" "$@" --output "$W/pl_t" --no-plots --quiet
  t1=$(date +%s.%N)
  awk -v a="$t1" -v b="$t0" 'BEGIN {print a - b}' >> "$fw"
  "$PY" -c "import json,sys; print(json.load(open(sys.argv[1]))['real_time_factor'])" "$W/pl_t/summary.json" >> "$fr"
}
for k in $(seq "$RUNS"); do
  pl_timed "$W/t_pl" "$W/t_rtf"
  pl_timed "$W/t_pl10" "$W/t_rtf10" "${tenth[@]}"
  d=$("$PY" -c "print(0.1 / $BEST)")
  # shellcheck disable=SC2086
  r=$(cd "$W/md_$BEST" && "$W/drive_jlay" in.txt "$W/pl/static.csv" "$X0" $CIRCLE "$d" 60 0.1 series_t.csv 2> /dev/null | tail -1)
  cmp -s "$W/md_$BEST/series.csv" "$W/md_$BEST/series_t.csv" || echo "warning: MoorDyn's timed series differs from its study run"
  echo "$r" | awk '{print $1}' >> "$W/t_ic"
  echo "$r" | awk '{print $2}' >> "$W/t_loop"
done
wp=$(median < "$W/t_pl"); rtf=$(median < "$W/t_rtf"); ic=$(median < "$W/t_ic"); loop=$(median < "$W/t_loop")
wp10=$(median < "$W/t_pl10"); rtf10=$(median < "$W/t_rtf10")
echo "timing, medians of $RUNS alternated runs; each run:"
for f in t_pl t_rtf t_pl10 t_rtf10 t_ic t_loop; do echo "  $f: $(tr '\n' ' ' < "$W/$f")"; done
awk -v wp="$wp" -v rtf="$rtf" 'BEGIN {printf "pipelay, defaults: whole run %.2f s (%.1fx real time), dynamic phase %.2f s (%.1fx)\n", wp, 60 / wp, 60 / rtf, rtf}'
awk -v wp="$wp10" -v rtf="$rtf10" 'BEGIN {printf "pipelay, tolerances / 10: whole run %.2f s (%.1fx real time), dynamic phase %.2f s (%.1fx)\n", wp, 60 / wp, 60 / rtf, rtf}'
awk -v ic="$ic" -v loop="$loop" -v n="$BEST" 'BEGIN {printf "MoorDyn, RK4, dtM %.4g s: time loop %.2f s (%.2fx real time), initial conditions %.2f s, together %.2f s\n", 0.1 / n, loop, 60 / loop, ic, ic + loop}'
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
