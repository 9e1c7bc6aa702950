#!/usr/bin/env bash
# The static robustness suite as a benchmark (issue 12): every model of tests/robustness/ run
# with the default settings, one at a time; prints the table, the median Newton iterations and
# wall time (the whole `pipelay run`) and the machine's core count; then the 20-case lay-tension
# sweep of examples/jlay_900m.yaml as a whole command.
#   bench/static_robustness.sh [PIPELAY]      (default build/pipelay)
set -euo pipefail
cd "$(dirname "$0")/.."
P=${1:-build/pipelay}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
echo "machine: $(nproc) cores"
/usr/bin/python3 tests/robustness/check.py --pipelay "$P" --work "$W/runs" --jobs 1 --write-table "$W/table.md" | tail -1
grep -E "^Converged" "$W/table.md"
t0=$(date +%s.%N)
"$P" sweep examples/jlay_900m.yaml --vary "ends.top.force[0]=1000e3:50e3:20" --output "$W/sweep" --quiet
t1=$(date +%s.%N)
echo "20-case sweep (1000 -> 50 kN), whole command: $(awk -v a="$t1" -v b="$t0" 'BEGIN {print a - b}') s"
