#!/usr/bin/env bash
# Builds dynid's libFuzzer harnesses (fuzz/, one per file reader; clang + ASan + UBSan) in the
# instrumented build the sanitizer suite uses too, build-sanitize/ (scripts/sanitize-env.sh), and
# runs them one after the other (docs/reliability.md).
#   scripts/fuzz.sh                 # 60 s in total, split evenly over the harnesses
#   scripts/fuzz.sh 1800 c3d urdf   # 1800 s each for the harnesses named
#   FUZZ_RUNS=1000000 scripts/fuzz.sh 1800 c3d   # stops at 10^6 executions or 1800 s, what comes first
# First every harness re-reads the regression inputs of past findings (tests/fixtures/fuzz/NAME/),
# then fuzzes from its corpus, build-sanitize/fuzz-corpus/NAME (kept between runs), seeded from
# fuzz/seeds/NAME and the bundled files (models/, tests/fixtures/, docs/examples/). A finding stops
# the script with the input saved as build-sanitize/fuzz-findings/NAME-*: fix the reader and copy
# the input to tests/fixtures/fuzz/NAME/ (tests/fuzz/fuzz_regressions_test.cpp re-reads it).
# Per run and harness: executions, seconds and result appended to build-sanitize/fuzz-stats.tsv.
# Exits 77 (skipped) without clang and libFuzzer (Debian: clang, libclang-rt-14-dev).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JOBS="${JOBS:-$(nproc)}"
ALL=(urdf sidecar csv dataset trc c3d state_json excitation log_map grf_mot mjcf labels plate_layout)

seconds=60
if [ $# -gt 0 ]; then
  seconds="$1"
  shift
fi
harnesses=("$@")
if [ ${#harnesses[@]} -eq 0 ]; then
  harnesses=("${ALL[@]}")
  # The default run is a total; an explicit time with named harnesses is per harness.
  per=$((seconds / ${#harnesses[@]}))
  [ "$per" -ge 1 ] || per=1
else
  per="$seconds"
fi

# shellcheck source=scripts/sanitize-env.sh
source "$ROOT/scripts/sanitize-env.sh"
if [ "$DYNID_LIBFUZZER" != 1 ]; then
  echo "dynid fuzz: skipped: clang++ with libFuzzer is not available (Debian: clang, libclang-rt-14-dev)" >&2
  exit 77
fi
if [ "${FUZZ_BUILD:-1}" = 0 ]; then  # FUZZ_BUILD=0: run the harnesses as built (another build is running)
  :
elif [ ! -f "$BUILD_DIR/build.ninja" ]; then
  launcher=()
  if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
  eval "extra=($DYNID_CMAKE_ARGS)"
  cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja "${launcher[@]}" "${extra[@]}" >/dev/null
fi
if [ "${FUZZ_BUILD:-1}" != 0 ]; then cmake --build "$BUILD_DIR" --target dynid_fuzzers -j "$JOBS"; fi

seed() {  # seed NAME: the corpus directory, created from the bundled files on first use
  local name="$1" corpus="$BUILD_DIR/fuzz-corpus/$1"
  if [ ! -d "$corpus" ]; then
    mkdir -p "$corpus"
    if [ -d "$ROOT/fuzz/seeds/$name" ]; then cp "$ROOT/fuzz/seeds/$name"/* "$corpus/"; fi
    case "$name" in
      urdf) cp "$ROOT"/models/*.urdf "$corpus/" ;;
      sidecar) cp "$ROOT"/models/*.yaml "$corpus/" ;;
      c3d) cp "$ROOT"/tests/fixtures/mocap/*.c3d "$corpus/" ;;
      state_json) cp "$ROOT"/docs/examples/*_state.json "$corpus/" ;;
      mjcf) cp "$ROOT"/tests/fixtures/mjcf/*.xml "$corpus/" ;;
    esac
  fi
  echo "$corpus"
}

mkdir -p "$BUILD_DIR/fuzz-findings" "$BUILD_DIR/fuzz-logs"
# The harnesses' scratch files (readers that take a path): libFuzzer does not always run exit
# handlers, so they go to a directory of this script's, removed at the end.
export TMPDIR="$BUILD_DIR/fuzz-tmp"
rm -rf "$TMPDIR"
mkdir -p "$TMPDIR"
trap 'rm -rf "$TMPDIR"' EXIT
stats="$BUILD_DIR/fuzz-stats.tsv"
[ -f "$stats" ] || printf 'harness\texecutions\tseconds\tresult\n' >"$stats"
for name in "${harnesses[@]}"; do
  exe="$BUILD_DIR/fuzz/${name}_fuzz"
  [ -x "$exe" ] || { echo "dynid fuzz: no harness '$name' (one of: ${ALL[*]})" >&2; exit 2; }
  regressions="$ROOT/tests/fixtures/fuzz/$name"
  if [ -d "$regressions" ]; then
    "$exe" "$regressions"/* >"$BUILD_DIR/fuzz-logs/$name-regressions.log" 2>&1 ||
      { echo "dynid fuzz: $name: a past finding is back ($BUILD_DIR/fuzz-logs/$name-regressions.log)" >&2; exit 1; }
  fi
  corpus="$(seed "$name")"
  log="$BUILD_DIR/fuzz-logs/$name.log"
  start=$(date +%s)
  result=ok
  "$exe" "$corpus" -max_total_time="$per" ${FUZZ_RUNS:+-runs="$FUZZ_RUNS"} -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$BUILD_DIR/fuzz-findings/$name-" >"$log" 2>&1 || result=finding
  elapsed=$(($(date +%s) - start))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  printf '%s\t%s\t%s\t%s\n' "$name" "${execs:-?}" "$elapsed" "$result" >>"$stats"
  echo "dynid fuzz: $name: ${execs:-?} executions in ${elapsed} s: $result"
  if [ "$result" != ok ]; then
    grep -E 'ERROR|dynid fuzz:|SUMMARY|Test unit written' "$log" | head -20 >&2
    echo "dynid fuzz: $name: finding; the log is $log" >&2
    exit 1
  fi
done
