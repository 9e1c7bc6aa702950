#!/usr/bin/env bash
# The system of lines on K MPI ranks (issue 14, item 5: the assembly split into METIS parts,
# solver/system_dynamic.c): tests/models/system_three_lines.yaml (three lines, two bodies, a
# clump) refined tenfold (230 + 230 + 350 = 810 elements, about 10 800 unknowns), 2 s of
# dynamics, run whole (`pipelay run`: statics, dynamics, ParaView frames, no plots) on 1, 2 and
# 3 ranks, three times each; prints the median whole-command time, the dynamic phase's wall
# time from summary.json, IDA's steps and the machine's core count.
#   bench/system_ranks.sh [PIPELAY]      (default build/pipelay)
set -euo pipefail
cd "$(dirname "$0")/.."
P=${1:-build/pipelay}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
echo "machine: $(nproc) cores"
printf '%-6s %9s %7s %12s %10s\n' ranks unknowns steps "dynamic [s]" "whole [s]"
for k in 1 2 3; do
  times=()
  for rep in 1 2 3; do
    t0=$(date +%s.%N)
    mpiexec -n "$k" "$P" run tests/models/system_three_lines.yaml --output "$W/out" --no-plots --quiet \
      --set 'lines[0].mesh.elements=230' --set 'lines[1].mesh.elements=230' --set 'lines[2].mesh.elements=350'
    t1=$(date +%s.%N)
    times+=("$(awk -v a="$t1" -v b="$t0" 'BEGIN {print a - b}')")
  done
  med=$(printf '%s\n' "${times[@]}" | sort -g | sed -n 2p)
  /usr/bin/python3 - "$W/out/summary.json" "$k" "$med" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["dynamic"]
print(f"{sys.argv[2]:<6} {d['unknowns']:9d} {d['steps']:7d} {d['wall_time_s']:12.3f} {float(sys.argv[3]):10.3f}")
PY
done
