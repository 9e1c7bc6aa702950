#!/usr/bin/env bash
# The dynamics of a system of lines, points and bodies (issue 14; solver/system_dynamic.c) as
# a benchmark: each model of tests/models/system_*.yaml run as a whole `pipelay run` (statics,
# dynamics, ParaView frames, no plots), three times; prints the median whole-command wall time
# and, from summary.json, the unknowns, IDA steps, the dynamic phase's wall time and its
# real-time factor, and the machine's core count.
#   bench/system_dynamic.sh [PIPELAY]      (default build/pipelay)
set -euo pipefail
cd "$(dirname "$0")/.."
P=${1:-build/pipelay}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
echo "machine: $(nproc) cores"
printf '%-22s %9s %7s %9s %14s %13s\n' model unknowns steps "sim [s]" "dynamic [s]" "whole [s]"
for m in tests/models/system_lazy_s.yaml tests/models/system_bodies.yaml tests/models/system_moored.yaml \
         tests/models/system_bounce.yaml; do
  times=()
  for k in 1 2 3; do
    t0=$(date +%s.%N)
    "$P" run "$m" --output "$W/out" --no-plots --quiet
    t1=$(date +%s.%N)
    times+=("$(awk -v a="$t1" -v b="$t0" 'BEGIN {print a - b}')")
  done
  med=$(printf '%s\n' "${times[@]}" | sort -g | sed -n 2p)
  /usr/bin/python3 - "$W/out/summary.json" "$(basename "$m")" "$med" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["dynamic"]
print(f"{sys.argv[2]:<22} {d['unknowns']:9d} {d['steps']:7d} {d['simulated_time_s']:9.3g} "
      f"{d['wall_time_s']:7.3f} ({d['real_time_factor']:4.0f}x) {float(sys.argv[3]):8.3f}")
PY
done
