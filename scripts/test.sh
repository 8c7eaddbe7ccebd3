#!/usr/bin/env bash
# Sets up (dependencies + build) and runs dynid's whole test suite with CTest.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
"$ROOT/scripts/setup.sh"
cd "$BUILD_DIR"
ctest --output-on-failure -j "${JOBS:-$(nproc)}"
