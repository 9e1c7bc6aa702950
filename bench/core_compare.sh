#!/usr/bin/env bash
# The one-line path against the system core on the same models (issue 14: "the general core
# must not be slower than today's special case"): each model run as a whole `pipelay run`
# (statics, dynamics, ParaView frames, no plots) in its one-line form and rewritten as a model
# of one line of lines: (scripts/one_line_as_lines.py), three times each; the one-line form
# with -pipelay_one_line_integrator (the special case's integrator, solver/dynamic.c), alternating; prints
# the median whole-command wall time and, for dynamic runs, the dynamic phase's wall time and
# IDA steps from summary.json, and the machine's core count.
#   bench/core_compare.sh [PIPELAY]      (default build/pipelay)
set -euo pipefail
cd "$(dirname "$0")/.."
P=${1:-build/pipelay}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
echo "machine: $(nproc) cores, one rank"
printf '%-34s %-9s %10s %12s %7s\n' case form "whole [s]" "dynamic [s]" steps
run_case() { # label model [--set ...]
  local label=$1 model=$2
  shift 2
  python3 scripts/one_line_as_lines.py "$model" "$W/lines.yaml"
  for form in one-line system; do
    local m=$model
    [ "$form" = system ] && m=$W/lines.yaml
    local times=() args=("$@")
    # the special case's own integrator (pipelay run now integrates a line without a vessel
    # on the system core)
    [ "$form" = one-line ] && args+=(-pipelay_one_line_integrator)
    # the line's keys sit under lines[0] in the system form
    [ "$form" = system ] && args=("${@/mesh./lines[0].mesh.}")
    for k in 1 2 3; do
      t0=$(date +%s.%N)
      "$P" run "$m" --output "$W/out_$form" --no-plots --quiet "${args[@]}" >/dev/null
      t1=$(date +%s.%N)
      times+=("$(echo "$t1 - $t0" | bc)")
    done
    med=$(printf '%s\n' "${times[@]}" | sort -g | sed -n 2p)
    python3 - "$W/out_$form/summary.json" "$label" "$form" "$med" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
d = s.get("dynamic") if isinstance(s.get("dynamic"), dict) else s
wall = d.get("wall_time_s") if "steps" in d else None
steps = d.get("steps")
print(f"{sys.argv[2]:<34} {sys.argv[3]:<9} {float(sys.argv[4]):10.3f} "
      f"{(f'{wall:12.3f}' if wall is not None else '           -')} {steps if steps is not None else '-':>7}")
PY
  done
}
run_case "static J-lay, 740 nodes" examples/jlay_900m.yaml
run_case "dynamic J-lay 5.4.3, 100 nodes" examples/jlay_circle.yaml --set mesh.elements=99
run_case "dynamic J-lay 5.4.3, 740 nodes" examples/jlay_circle.yaml --set mesh.elements=739
