#!/usr/bin/env bash
# Sets up (dependencies + build) and runs dynid's whole test suite with CTest.
#   scripts/test.sh              # Release build in build/
#   scripts/test.sh --sanitize   # AddressSanitizer + UndefinedBehaviorSanitizer build in
#                                # build-sanitize/ (scripts/sanitize-env.sh; on demand, not in CI:
#                                # docs/reliability.md)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ "${1:-}" = "--sanitize" ]; then
  # shellcheck source=scripts/sanitize-env.sh
  source "$ROOT/scripts/sanitize-env.sh"
elif [ -n "${1:-}" ]; then
  echo "usage: scripts/test.sh [--sanitize]" >&2
  exit 2
fi
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
BUILD_DIR="$BUILD_DIR" "$ROOT/scripts/setup.sh"
cd "$BUILD_DIR"
ctest --output-on-failure -j "${JOBS:-$(nproc)}"
