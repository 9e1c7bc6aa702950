# bench/moordyn/build.sh - sourced by the MoorDyn comparisons (bench/moordyn_*.sh): builds
# MoorDyn v2.7.1 (from MOORDYN_SRC, an unpacked source tree, else a shallow clone of its tag)
# in the work directory W and links one of the drivers here against it.
#   moordyn_build W DRIVER.c OUT     (then OUT runs with LD_LIBRARY_PATH=W/md/source)
moordyn_build() {
  local w=$1 driver=$2 out=$3 src=${MOORDYN_SRC:-}
  if [ -z "$src" ]; then
    git clone -q --depth 1 --branch v2.7.1 https://github.com/FloatingArrayDesign/MoorDyn.git "$w/MoorDyn"
    src="$w/MoorDyn"
  fi
  cmake -S "$src" -B "$w/md" -DPYTHON_WRAPPER=OFF -DCMAKE_BUILD_TYPE=Release > "$w/cmake.log"
  make -C "$w/md" -j"$(nproc)" moordyn > "$w/make.log"
  gcc -O2 "$driver" -I"$src/source" -I"$w/md/source" -L"$w/md/source" -lmoordyn -lm -o "$out"
}
