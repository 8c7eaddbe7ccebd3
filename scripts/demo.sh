#!/usr/bin/env bash
# dynid's main job on the bundled robots (sets itself up first): `dynid demo` simulates the true
# kid-size humanoid walking and identifies its inertial parameters from its foot F/T sensors, IMU
# and encoders, then (paper 000) identifies the adult humanoid's masses and COMs from static poses
# on force plates, then a servo's motor model (paper 002); it prints nominal vs identified vs true
# and the paths of the HTML reports. The robots and the lab are the realistic testbed's (every
# imperfection of docs/scenarios.md); `--perturb none` gives the idealised one.
# Outputs go to dynid-demo/ (or DEMO_OUT); extra arguments go to `dynid demo` (e.g. --stage inertial).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
"$ROOT/scripts/setup.sh" >/dev/null
"$BUILD_DIR/dynid" demo --out "${DEMO_OUT:-$ROOT/dynid-demo}" "$@"
