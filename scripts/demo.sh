#!/usr/bin/env bash
# dynid's main job on a bundled robot (sets itself up first). For now: describe the kid-size
# humanoid and evaluate its dynamics at a walking-like state; later stages of dynid replace this
# with `dynid demo` (simulate -> identify).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
"$ROOT/scripts/setup.sh" >/dev/null
DYNID="$BUILD_DIR/dynid"
"$DYNID" info kid_humanoid
echo
echo "Base wrench and joint torques (rnea) at docs/examples/kid_humanoid_state.json:"
"$DYNID" compute kid_humanoid --state "$ROOT/docs/examples/kid_humanoid_state.json" --quantity rnea
echo
echo "Centre of mass:"
"$DYNID" compute kid_humanoid --state "$ROOT/docs/examples/kid_humanoid_state.json" --quantity com
