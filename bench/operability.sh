#!/usr/bin/env bash
# pipelay operability on 1 and 2 MPI ranks: the first N sea states (default 24) of
# examples/operability/sea_states.csv with the 12-inch J-lay of examples/operability (100 s of
# sea each), solved from scratch on each rank count; prints the wall time, the cases per hour and
# per hour per core, the CPU time (user + sys of the ranks) and the cases per CPU hour, the
# speed-up of 2 ranks over 1, whether their tables are byte-identical, and the machine's core
# count and load (on a shared machine the wall time is what the scheduler gave us; the CPU time
# says what the cases cost).
#   bench/operability.sh [PIPELAY] [N]      (default build/pipelay, 24)
set -euo pipefail
cd "$(dirname "$0")/.."
P=${1:-build/pipelay}
N=${2:-24}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
grep -v '^#' examples/operability/sea_states.csv | head -n $((N + 1)) > "$W/states.csv"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %6s %10s %12s %16s %9s %16s\n' ranks cases "wall [s]" "cases/hour" "cases/hour/core" "CPU [s]" \
  "cases/CPU hour"
declare -A rate
TIMEFORMAT='%R %U %S'
for k in 1 2; do
  read -r wall user sys < <({ time mpiexec -n "$k" "$P" operability examples/operability/jlay12_operability.yaml \
    --sea-states "$W/states.csv" --output "$W/r$k" --quiet --no-plots; } 2>&1 | tail -1)
  rate[$k]=$(awk -v n="$N" -v a="$wall" 'BEGIN {print n * 3600 / a}')
  awk -v k="$k" -v n="$N" -v a="$wall" -v r="${rate[$k]}" -v c="$(awk -v u="$user" -v s="$sys" 'BEGIN {print u + s}')" \
    'BEGIN {printf "%-6d %6d %10.2f %12.1f %16.1f %9.2f %16.1f\n", k, n, a, r, r / k, c, n * 3600 / c}'
done
awk -v a="${rate[2]}" -v b="${rate[1]}" 'BEGIN {printf "2 ranks / 1 rank: %.2fx the cases per hour\n", a / b}'
for t in cases.csv allowable.csv operability.csv fatigue_per_year.csv; do
  cmp -s "$W/r1/$t" "$W/r2/$t" && echo "$t: 2 ranks byte-identical to 1" || echo "$t: DIFFERS"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
