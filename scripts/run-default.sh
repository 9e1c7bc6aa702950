#!/usr/bin/env bash
# Installs what is missing, builds pipelay and runs the default case (examples/jlay_900m.yaml).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
build/pipelay run examples/jlay_900m.yaml --output jlay_900m_out
