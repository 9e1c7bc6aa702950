#!/usr/bin/env bash
# Cost per simulated second against the node count (issue 15: O(N) up to 10,000 nodes): the
# §5.4.3 J-lay (examples/jlay_circle.yaml, 60 s) solved by build/bench/bench_dynamic --scaling
# (statics excluded, no files) at 100 ... 10,000 nodes, one MPI rank. Prints the wall time per
# simulated second and per node and simulated second: constant per node means O(N) per step;
# the step count's growth with N (finer elements, shorter axial waves) shows in the steps column.
#   bench/scaling.sh [BUILD_DIR] [NODES...]      (default build, 100 300 1000 3000 10000)
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-build}
shift || true
N=("$@")
[ ${#N[@]} -gt 0 ] || N=(100 300 1000 3000 10000)
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); one MPI rank"
"$B/bench/bench_dynamic" examples/jlay_circle.yaml "${N[@]}" --scaling
