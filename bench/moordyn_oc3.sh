#!/usr/bin/env bash
# Issue 16's speed against MoorDyn: MoorDyn v2.7.1 (explicit RK2, lumped masses) on the OC3
# Hywind moorings with 50 segments per line (bench/moordyn/oc3_50.txt, from MoorDyn's own test
# input), its three fairleads moved as pipelay's OC3 surge free decay (verification/oc3_hywind,
# 600 s) moved them, against that pipelay run itself (the spar and its three 50-element rod
# moorings solved together, implicitly). MoorDyn is cloned and built here (needs network, git,
# cmake and a C++ compiler; or MOORDYN_SRC=DIR of a MoorDyn source tree); pipelay's build is
# BUILD_DIR (default build). Prints the machine, each dtM's wall time and real-time factor.
#   bench/moordyn_oc3.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
B=$(cd "${1:-build}" && pwd)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
. bench/moordyn/build.sh
moordyn_build "$W" bench/moordyn/drive.c "$W/drive"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); one core each"
t0=$(date +%s.%N)
"$B/pipelay" run verification/oc3_hywind/oc3_hywind.yaml --set analysis.type=dynamic --set analysis.dynamic.duration=600 \
  --set analysis.dynamic.output_interval=0.5 --set "bodies[0].environment_load.file=release_surge.csv" --output "$W/pl" \
  --no-plots --quiet
t1=$(date +%s.%N)
python3 -c "import json,sys; d=json.load(open(sys.argv[1]))['dynamic']; print('pipelay, spar and moorings together: dynamic phase %.2f s (%.0fx real time), whole run %.2f s' % (600/d['real_time_factor'], d['real_time_factor'], float(sys.argv[3])-float(sys.argv[2])))" \
  "$W/pl/summary.json" "$t0" "$t1"
for dtm in 0.002 0.005; do
  sed "s/^0.002         dtM/$dtm         dtM/" bench/moordyn/oc3_50.txt > "$W/in_$dtm.txt"
  r=$(cd "$W" && LD_LIBRARY_PATH="$W/md/source" ./drive "in_$dtm.txt" "$W/pl/timeseries_spar.csv" 0.05 600 2>/dev/null | tail -1)
  echo "$r" | awk -v d="$dtm" '{printf "MoorDyn, moorings alone, dtM %s s: time loop %.2f s (%.0fx real time), initial conditions %.2f s\n", d, $2, 600 / $2, $1}'
done
