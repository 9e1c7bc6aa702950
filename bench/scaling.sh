#!/usr/bin/env bash
# Cost per simulated second against the node count (issue 15: O(N) up to 10,000 nodes): the
# §5.4.3 J-lay (examples/jlay_circle.yaml, 60 s) solved by build/bench/bench_dynamic --scaling
# (statics excluded, no files) at 100 ... 10,000 nodes, one MPI rank. Prints the wall time per
# simulated second, per node and simulated second, and per node and step: a constant cost per
# node and step is O(N) work per step. The step count grows with N because the position
# tolerance is analysis.dynamic.atol_strain times the element length (the same strain accuracy
# on finer elements: a tighter tolerance on each node).
#   bench/scaling.sh [BUILD_DIR] [NODES...]      (default build, 100 300 1000 3000 10000)
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-build}
shift || true
N=("$@")
[ ${#N[@]} -gt 0 ] || N=(100 300 1000 3000 10000)
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); one MPI rank"
"$B/bench/bench_dynamic" examples/jlay_circle.yaml "${N[@]}" --scaling
