#!/usr/bin/env bash
# Installs dynid's Debian dependencies (when missing) and builds dynid in build/.
# Idempotent: a second run installs nothing and rebuilds only what changed.
#   scripts/setup.sh            # Release build in build/
#   BUILD_DIR=out scripts/setup.sh
#   DYNID_CMAKE_ARGS="-DDYNID_SANITIZE=ON" BUILD_DIR=out scripts/setup.sh   # extra CMake options
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
JOBS="${JOBS:-$(nproc)}"

mapfile -t packages < <(grep -v '^\s*#' "$ROOT/scripts/debian-packages.txt" | grep -v '^\s*$')
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "dynid setup: installing ${missing[*]}" >&2
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  # DYNID_CMAKE_ARGS: extra configuration (scripts/test.sh --sanitize sets it); ccache when present.
  launcher=()
  if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
  eval "extra=(${DYNID_CMAKE_ARGS:-})"
  cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" "${extra[@]}" >/dev/null
fi
# ccache keys on paths relative to the checkout, so a second clone (CI's) reuses this one's objects.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$ROOT}"
cmake --build "$BUILD_DIR" -j "$JOBS"
# The Python module (docs/python.md), when CMake found pybind11: how to import it from the build tree.
if [ -f "$BUILD_DIR/python/dynid/__init__.py" ]; then
  py="$(sed -n 's/^Python_EXECUTABLE:[A-Z]*=//p' "$BUILD_DIR/CMakeCache.txt")"
  echo "dynid setup: Python module built for ${py:-python3}; use it with"
  echo "  export PYTHONPATH=$BUILD_DIR/python    # then: ${py:-python3} -c 'import dynid; print(dynid.__version__)'"
fi
