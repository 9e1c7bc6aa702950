#!/usr/bin/env bash
# Issue 17's lay bench, one MPI rank: 1 km of the 30-inch pipe (OD 0.762 m, WT 33 mm) J-laid in
# 900 m of water at 2 km/day, 12 h simulated. The line of examples/jlay_900m.yaml (1500 m on 99
# elements, anchored at the origin) with its top at the hang-off point; the hang-off advances
# along +x at V = 2000/86400 m/s (a time series of its offset, the pay-out's own C^2 ramp over
# 60 s from t = 10 s) while the tensioner pays out at V: 999 m are laid, the top element is
# split 65 times (165 nodes at the end), nothing is retired. Output every 10 s. Prints the
# dynamic phase's real-time factor (summary.json, its files included), the whole `pipelay run`
# process's wall time with its plots, and with --no-plots, the median of RUNS runs (default 3),
# the steps, and the machine's core count.
#   bench/lay.sh [BUILD_DIR] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-build}
RUNS=${2:-3}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); one MPI rank"
median() { sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
/usr/bin/python3 - "$W" <<'EOF'
import sys
sys.path.insert(0, "tests")
from check_payout import s_of  # the pay-out's C^2 ramp (models/motion.c, PlPayout)
W = sys.argv[1]
V, T = 2000.0 / 86400.0, 43200.0


with open(W + "/vessel.csv", "w") as f:
    f.write("t,x,y,z\n")
    for t in list(range(0, 100)) + list(range(100, int(T) + 200, 100)):
        f.write("%d,%.12g,0,0\n" % (t, s_of(t, V, 10.0, 60.0)))
from check_payout import MODEL  # the line held at the hang-off: one owner of the model text
with open(W + "/lay.yaml", "w") as f:
    f.write(MODEL % (1500.0, "    motion: {type: timeseries, file: vessel.csv, interpolation: cubic}\n"
                             "    payout: {rate: %.12g, start_time: 10, ramp_time: 60}\nanalysis:\n  type: dynamic\n"
                             "  dynamic: {duration: %g, output_interval: 10}\n" % (V, T)))
# the same lay by a DP vessel (tests/check_dp_lay.py's: examples/jlay_circle_dp.yaml's vessel,
# hinged at O_b, with that example's stiff PD) whose reference follows a straight route at the lay
# speed (vessel.dp.reference type route)
from check_dp_lay import dp_vessel
VESSEL = dp_vessel(972.0567065, 2.7e7, 2.4e7, V, 60.0) + "lay:\n  route: {points: [[0, 0], [5000, 0]]}\n"
text = MODEL % (1500.0, "    payout: {rate: %.12g, start_time: 10, ramp_time: 60}\n%sanalysis:\n  type: dynamic\n"
                        "  dynamic: {duration: %g, output_interval: 10}\n" % (V, VESSEL, T))
text = text.replace("    position: [972.0567065, 0, 0]\n    fixed: [x, y, z]\n", "")
with open(W + "/dplay.yaml", "w") as f:
    f.write(text)
EOF
printf '%-32s %14s %12s %10s %8s\n' "run" "dynamic phase" "whole [s]" "steps" "splits"
for run in "lay with" "lay without" "dplay with" "dplay without"; do
  read -r model plots <<< "$run"
  flag=$([ "$plots" = without ] && echo --no-plots || true)
  out=$(for k in $(seq "$RUNS"); do
          t0=$(date +%s.%N)
          "$B/pipelay" run "$W/$model.yaml" --output "$W/o" --quiet $flag
          t1=$(date +%s.%N)
          /usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['real_time_factor'], float(sys.argv[3]) - float(sys.argv[2]), d['steps'], d['payout_remeshes'])" \
            "$W/o/summary.json" "$t0" "$t1"
        done)
  rtf=$(echo "$out" | awk '{print $1}' | median)
  wall=$(echo "$out" | awk '{print $2}' | median)
  steps=$(echo "$out" | awk '{print $3}' | head -1)
  splits=$(echo "$out" | awk '{print $4}' | head -1)
  name=$([ "$model" = dplay ] && echo "1 km, DP vessel, $plots plots" || echo "1 km at 2 km/day, $plots plots")
  printf '%-32s %13.0fx %12.2f %10s %8s\n' "$name" "$rtf" "$wall" "$steps" "$splits"
done
echo "(12 h simulated: the whole process at X s of wall time is 43200/X times real time)"
