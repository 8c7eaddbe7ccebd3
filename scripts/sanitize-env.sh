# Sourced by scripts/test.sh --sanitize and scripts/fuzz.sh: the one instrumented build both use,
# build-sanitize/ (docs/reliability.md). With clang and libFuzzer installed (Debian: clang,
# libclang-rt-14-dev) it is clang's, with AddressSanitizer + UndefinedBehaviorSanitizer and
# libFuzzer's coverage instrumentation, so the fuzz harnesses link the objects the test suite ran;
# without them it is GCC's with the two sanitizers and no harnesses. -O1 -g1 (line tables for the
# reports) keep build and run time reasonable; warnings are the Release build's job.
# Sets BUILD_DIR, DYNID_CMAKE_ARGS, DYNID_LIBFUZZER (1 or 0) and the sanitizers' options.
ROOT="${ROOT:?}"
export BUILD_DIR="${SANITIZE_BUILD_DIR:-$ROOT/build-sanitize}"
DYNID_LIBFUZZER=0
probe="$(mktemp -d)"
echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' >"$probe/p.cpp"
if command -v clang++ >/dev/null && clang++ -fsanitize=fuzzer,address,undefined "$probe/p.cpp" -o "$probe/p" 2>/dev/null; then
  DYNID_LIBFUZZER=1
fi
rm -rf "$probe"
export DYNID_CMAKE_ARGS="-DDYNID_SANITIZE=ON -DDYNID_WERROR=OFF -DDYNID_BUILD_BENCHMARKS=OFF
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1\ -g1"
if [ "$DYNID_LIBFUZZER" = 1 ]; then
  DYNID_CMAKE_ARGS="$DYNID_CMAKE_ARGS -DCMAKE_CXX_COMPILER=clang++ -DDYNID_FUZZ=ON"
fi
supp="$ROOT/tests/sanitizers"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1"
export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:suppressions=$supp/ubsan.supp"
