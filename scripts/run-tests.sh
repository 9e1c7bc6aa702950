#!/usr/bin/env bash
# Installs what is missing, builds pipelay warning-free (-Werror) and runs every test with
# CTest. Extra arguments go to ctest (e.g. -L unit, -LE slow).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DPIPELAY_WERROR=ON >/dev/null
cmake --build build -j"$(nproc)"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
cd build && ctest --output-on-failure -j"$(nproc)" "$@"
