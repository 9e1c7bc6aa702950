#!/usr/bin/env bash
# Issue 16's speed: the OC3 Hywind surge free decay (verification/oc3_hywind, 600 s simulated,
# output every 0.5 s) with three mooring lines of 50 and of 200 elements each, one MPI rank:
# the dynamic phase's real-time factor (summary.json) and the whole `pipelay run --no-plots`
# process's wall time, the median of RUNS runs (default 3). Prints the machine's core count.
#   bench/oc3_decay.sh [BUILD_DIR] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-build}
RUNS=${2:-3}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); one MPI rank"
median() { sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
printf '%-18s %14s %16s %12s\n' "elements per line" "dynamic phase" "whole [s]" "steps"
for ne in 50 200; do
  sets=(--set analysis.type=dynamic --set analysis.dynamic.duration=600 --set analysis.dynamic.output_interval=0.5
        --set "bodies[0].environment_load.file=release_surge.csv")
  for l in 0 1 2; do sets+=(--set "lines[$l].mesh.elements=$ne"); done
  out=$(for k in $(seq "$RUNS"); do
          t0=$(date +%s.%N)
          "$B/pipelay" run verification/oc3_hywind/oc3_hywind.yaml "${sets[@]}" --output "$W/o" --no-plots --quiet
          t1=$(date +%s.%N)
          /usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1]))['dynamic']; print(d['real_time_factor'], float(sys.argv[3]) - float(sys.argv[2]), d['steps'])" \
            "$W/o/summary.json" "$t0" "$t1"
        done)
  rtf=$(echo "$out" | awk '{print $1}' | median)
  wall=$(echo "$out" | awk '{print $2}' | median)
  steps=$(echo "$out" | awk '{print $3}' | head -1)
  printf '%-18s %13.1fx %16.2f %12s\n' "$ne" "$rtf" "$wall" "$steps"
done
