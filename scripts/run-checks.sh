#!/usr/bin/env bash
# Memory-safety and robustness checks of pipelay (README, "Checks"); CI runs them after
# scripts/run-tests.sh. Three steps, each in its own build directory:
#   asan      build-asan (gcc, -DPIPELAY_SANITIZE=ON: AddressSanitizer + UBSan, every
#             report fatal, leaks checked with scripts/lsan.supp for Open MPI) and the
#             unit and verification tests not labelled slow, less verify_pendulum_energy and
#             verify_quaternion_euler (their 630 s and 363 s of a 23-min step: dynamic_passivity
#             and the Jacobian tests of both rotation parametrisations run the same kernels);
#   valgrind  build-valgrind (RelWithDebInfo): memcheck of a static run, a 2 s dynamic
#             run, 40 s of the coupled pipe + vessel + DP run (section 4.4), 2 s of a
#             cable between two bodies (the system of lines) and 2 s of the laying features
#             (a bathymetry grid, seabed friction, pay-out: tests/models/lay_features.yaml) and 8 s
#             of the lay along a route with a split and its plots (tests/models/lay_route.yaml) and 60 s
#             of the lay from a DP vessel on its route reference with a split
#             (examples/lay_route_dp.yaml); any error
#             or definitely lost block fails (scripts/valgrind.supp names what Open MPI
#             keeps);
#   fuzz      build-fuzz (clang, -DPIPELAY_FUZZ=ON): the libFuzzer harnesses fuzz_loader
#             and fuzz_timeseries side by side for a fixed number of executions from the
#             seed corpus (tests/fuzz/README.md).
# Usage: scripts/run-checks.sh [asan] [valgrind] [fuzz]     (no argument: all three)
# Environment: PIPELAY_FUZZ_RUNS (fuzz_loader executions, default 600000),
#   PIPELAY_FUZZ_TS_RUNS (fuzz_timeseries, default 100000), PIPELAY_FUZZ_SEED (default 1).
# Every step runs; the script exits 1 when any failed, after a summary with their times.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
scripts/install-deps.sh || exit 1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
jobs=$(nproc)
steps=("$@")
[ ${#steps[@]} -eq 0 ] && steps=(asan valgrind fuzz)
summary=()
failed=0

step_asan() {
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-O1 -g" \
    -DPIPELAY_WERROR=ON -DPIPELAY_SANITIZE=ON >/dev/null || return 1
  cmake --build build-asan -j"$jobs" >/dev/null || { cmake --build build-asan; return 1; }
  # full stacks for leaks (Open MPI's own libraries lack frame pointers)
  ASAN_OPTIONS=fast_unwind_on_malloc=0:detect_leaks=1 \
  LSAN_OPTIONS=suppressions=$root/scripts/lsan.supp:print_suppressions=0 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-asan --output-on-failure -j"$jobs" -L 'unit|verification' -LE 'slow|mpi' \
      -E '^(verify_pendulum_energy|verify_quaternion_euler)$' --timeout 900
}

step_valgrind() {
  cmake -S . -B build-valgrind -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPIPELAY_WERROR=ON \
    >/dev/null || return 1
  cmake --build build-valgrind -j"$jobs" --target pipelay_cli >/dev/null \
    || { cmake --build build-valgrind --target pipelay_cli; return 1; }
  local out=build-valgrind/memcheck rc=0
  rm -rf "$out" && mkdir -p "$out"
  local vg=(valgrind --tool=memcheck --leak-check=full --show-leak-kinds=definite
            --errors-for-leak-kinds=definite --error-exitcode=97 --num-callers=40
            --track-origins=yes --suppressions="$root/scripts/valgrind.supp")
  local -a runs=(
    "static|run examples/jlay_900m.yaml --no-plots --output $out/static"
    "dynamic|run examples/jlay_circle.yaml --set analysis.dynamic.duration=2 --no-plots --output $out/dynamic"
    "vessel|run examples/dp_sec44.yaml --set analysis.dynamic.duration=40 --no-plots --output $out/vessel"
    "lines|run tests/models/system_bodies.yaml --set analysis.dynamic.duration=2 --no-plots --output $out/lines"
    "laying|run tests/models/lay_features.yaml --no-plots --output $out/laying"
    "route|run tests/models/lay_route.yaml --output $out/route"
    "dplay|run examples/lay_route_dp.yaml --set analysis.dynamic.duration=60 --no-plots --output $out/dplay")
  for r in "${runs[@]}"; do
    local name=${r%%|*} args=${r#*|}
    # shellcheck disable=SC2086
    "${vg[@]}" --log-file="$out/$name.log" build-valgrind/pipelay $args >"$out/$name.out" 2>&1
    local st=$?
    local errs lost
    errs=$(grep -o 'ERROR SUMMARY: [0-9]* errors' "$out/$name.log" | tail -1)
    lost=$(grep -o 'definitely lost: [0-9,]* bytes in [0-9,]* blocks' "$out/$name.log" | tail -1)
    echo "run-checks: valgrind $name: exit $st, ${errs:-no summary}, ${lost:-definitely lost: 0 bytes}"
    if [ "$st" -ne 0 ]; then
      cat "$out/$name.out"; cat "$out/$name.log"; rc=1
    fi
  done
  return $rc
}

# One harness: fuzz_NAME for RUNS executions from its corpus dirs (after the options in
# "$@"); new inputs go to build-fuzz/run-NAME/new (the first directory: the seed corpus
# in the repository is only read), a crash leaves its input in build-fuzz/artifacts/ and
# is printed (hex) so that it can be added to the corpus.
fuzz_one() {
  local name=$1 runs=$2; shift 2
  local work=build-fuzz/run-$name
  rm -rf "$work" && mkdir -p "$work/new" build-fuzz/artifacts
  build-fuzz/fuzz_$name -runs="$runs" -seed="${PIPELAY_FUZZ_SEED:-1}" -max_len=16384 \
    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="build-fuzz/artifacts/$name-" "$work/new" "$@" >"$work/log" 2>&1
  local st=$?
  local execs secs corpus
  execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$work/log" | awk '{print $2}')
  secs=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$work/log" | awk '{print $5}')
  corpus=$(grep -o 'corp: [0-9]*' "$work/log" | tail -1 | awk '{print $2}')
  echo "run-checks: fuzz_$name: exit $st, ${execs:-?} executions in ${secs:-?} s," \
       "corpus $corpus inputs ($(ls "$work/new" | wc -l) new), crashes: $( [ $st -eq 0 ] && echo 0 || echo 1)"
  if [ "$st" -ne 0 ]; then
    grep -v '^#' "$work/log" | tail -60
    for f in build-fuzz/artifacts/"$name"-*; do
      [ -f "$f" ] && { echo "input $f (hex):"; od -An -tx1 -v "$f" | head -64; }
    done
    return 1
  fi
}

step_fuzz() {
  cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Release \
    -DPIPELAY_WERROR=ON -DPIPELAY_FUZZ=ON >/dev/null || return 1
  cmake --build build-fuzz -j"$jobs" --target fuzz_loader fuzz_timeseries >/dev/null \
    || { cmake --build build-fuzz --target fuzz_loader fuzz_timeseries; return 1; }
  rm -rf build-fuzz/artifacts
  # fuzz_timeseries writes its CSV file once per execution: keep it in memory if possible
  if [ -d /dev/shm ] && [ -w /dev/shm ]; then export TMPDIR=/dev/shm; fi
  fuzz_one loader "${PIPELAY_FUZZ_RUNS:-600000}" -dict=tests/fuzz/loader.dict \
    tests/fuzz/corpus/loader tests/bad_models examples &
  local p1=$!
  fuzz_one timeseries "${PIPELAY_FUZZ_TS_RUNS:-100000}" tests/fuzz/corpus/timeseries &
  local p2=$!
  local rc=0
  wait $p1 || rc=1
  wait $p2 || rc=1
  return $rc
}

for s in "${steps[@]}"; do
  case $s in
    asan|valgrind|fuzz) ;;
    *) echo "run-checks: unknown step '$s' (asan, valgrind, fuzz)" >&2; exit 2 ;;
  esac
  echo "run-checks: $s ..."
  t0=$SECONDS
  if "step_$s"; then res=passed; else res=FAILED; failed=1; fi
  summary+=("$s: $res in $((SECONDS - t0)) s")
done
for l in "${summary[@]}"; do echo "run-checks: $l"; done
exit $failed
