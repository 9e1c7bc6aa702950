#!/usr/bin/env bash
# The speed a user sees (issue 15's table): the §5.4.3 J-lay on a circle (examples/jlay_circle.yaml,
# 60 s simulated) at 100 and 740 nodes, as real-time factors (simulated seconds per wall second)
# of
#   solver alone        build/bench/bench_dynamic (statics excluded, a state sample every
#                       output, no files)
#   dynamic phase       a whole `pipelay run`'s summary.json real_time_factor (the dynamic
#                       phase with its files: series, ParaView frames, checkpoints)
#   whole, no plots     the whole `pipelay run --no-plots` process (start-up, statics, files)
#   whole, plots        the whole `pipelay run` process with its default outputs and plots
# each the median of RUNS runs (default 3), and the static solve of the 740-node J-lay
# (examples/jlay_900m.yaml: build/bench/bench_static, median of 20). Prints the machine's core
# count. One MPI rank.
#   bench/speed.sh [BUILD_DIR] [RUNS]      (default build 3)
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-build}
RUNS=${2:-3}
P="$B/pipelay"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
T=60
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); one MPI rank"
median() { sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
wall() { # the wall time [s] of one run of the command
  local t0 t1
  t0=$(date +%s.%N)
  "$@" > /dev/null
  t1=$(date +%s.%N)
  awk -v a="$t1" -v b="$t0" 'BEGIN {print a - b}'
}
printf '%-6s %14s %14s %16s %14s\n' nodes "solver alone" "dynamic phase" "whole, no plots" "whole, plots"
for n in 100 740; do
  set=(--set "mesh.elements=$((n - 1))")
  solver=$(for k in $(seq "$RUNS"); do
             "$B/bench/bench_dynamic" examples/jlay_circle.yaml "$n" | awk -v n="$n" '$1 == n {print $6; exit}'
           done | median)
  phase=$(for k in $(seq "$RUNS"); do
            "$P" run examples/jlay_circle.yaml "${set[@]}" --output "$W/np" --no-plots --quiet > /dev/null
            /usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['real_time_factor'])" \
              "$W/np/summary.json"
          done | median)
  noplots=$(for k in $(seq "$RUNS"); do
              wall "$P" run examples/jlay_circle.yaml "${set[@]}" --output "$W/np" --no-plots --quiet
            done | median)
  plots=$(for k in $(seq "$RUNS"); do
            wall "$P" run examples/jlay_circle.yaml "${set[@]}" --output "$W/pl" --quiet
          done | median)
  printf '%-6s %13.1fx %13.1fx %15.1fx %13.1fx\n' "$n" "$solver" "$phase" "$(awk -v w="$noplots" -v t=$T 'BEGIN {print t / w}')" \
    "$(awk -v w="$plots" -v t=$T 'BEGIN {print t / w}')"
done
"$B/bench/bench_static" examples/jlay_900m.yaml 20 | sed 's/^/static: /'
