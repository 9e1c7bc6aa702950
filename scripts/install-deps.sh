#!/usr/bin/env bash
# Installs pipelay's build and test dependencies from Debian packages (run as root).
# Skips apt entirely when everything is already there.
set -euo pipefail
pkgs=(build-essential cmake pkg-config petsc-dev libsundials-dev libsuitesparse-dev libyaml-dev libmetis-dev
      libcjson-dev openmpi-bin
      gnuplot-nox python3-vtk9 python3-jsonschema python3-yaml  # plots; VTK, JSON-schema and docs checks (tests)
      clang libclang-rt-dev valgrind)  # scripts/run-checks.sh: libFuzzer (clang's runtime), memcheck
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
