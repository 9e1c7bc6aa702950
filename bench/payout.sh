#!/usr/bin/env bash
# Issue 17's pay-out runs (tests/check_payout.py's models), one MPI rank: the J-lay of
# examples/jlay_900m.yaml on 99 elements with its top held at the hang-off, (a) lowered by 22 m
# of pay-out at 0.05 m/s over 460 s, output every 1 s, and (b) under tension control while the
# hang-off drifts 10 m (4000 s, output every 5 s, the controller sampling every 1 s): the
# dynamic phase's real-time factor (summary.json) and the whole `pipelay run --no-plots`
# process's wall time, the median of RUNS runs (default 3). Prints the machine's core count.
#   bench/payout.sh [BUILD_DIR] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-build}
RUNS=${2:-3}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); one MPI rank"
median() { sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
# the models are tests/check_payout.py's (MODEL: the line held at the hang-off)
base() { /usr/bin/python3 -c "import sys; sys.path.insert(0, 'tests'); from check_payout import MODEL; print(MODEL % (1500.0, ''), end='')"; }
printf 't,x,y,z\n0,0,0,0\n300,0,0,0\n900,5,0,0\n1500,10,0,0\n4000,10,0,0\n' > "$W/drift.csv"
{ base; printf '    payout: {rate: 0.05, start_time: 10, ramp_time: 20}\nanalysis:\n  type: dynamic\n  dynamic: {duration: 460, output_interval: 1}\n'; } > "$W/lowering.yaml"
{ base; printf '    motion: {type: timeseries, file: drift.csv, interpolation: cubic}\n    payout: {tension: 1510570.77, gain: 1e-6, max_rate: 0.5, lag: 10, interval: 1}\nanalysis:\n  type: dynamic\n  dynamic: {duration: 4000, output_interval: 5}\n'; } > "$W/tension.yaml"
printf '%-34s %14s %12s %10s\n' "run" "dynamic phase" "whole [s]" "steps"
for case in lowering tension; do
  out=$(for k in $(seq "$RUNS"); do
          t0=$(date +%s.%N)
          "$B/pipelay" run "$W/$case.yaml" --output "$W/o" --no-plots --quiet
          t1=$(date +%s.%N)
          /usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['real_time_factor'], float(sys.argv[3]) - float(sys.argv[2]), d['steps'])" \
            "$W/o/summary.json" "$t0" "$t1"
        done)
  rtf=$(echo "$out" | awk '{print $1}' | median)
  wall=$(echo "$out" | awk '{print $2}' | median)
  steps=$(echo "$out" | awk '{print $3}' | head -1)
  label=$([ "$case" = lowering ] && echo "lowering, 22 m paid out in 460 s" || echo "tension control, 10 m drift, 4000 s")
  printf '%-34s %13.0fx %12.2f %10s\n' "$label" "$rtf" "$wall" "$steps"
done
