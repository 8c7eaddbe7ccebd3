// A libFuzzer program for one harness of fuzz/fuzz_readers.hpp, named at compile time
// (DYNID_FUZZ_HARNESS): it aborts, so libFuzzer keeps the input, when a reader breaks the rule.

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "fuzz_readers.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string problem =
      dynid::fuzz::read_input(DYNID_FUZZ_HARNESS, std::string(reinterpret_cast<const char*>(data), size));
  if (!problem.empty()) {
    std::fprintf(stderr, "dynid fuzz: %s: %s\n", DYNID_FUZZ_HARNESS, problem.c_str());
    std::abort();
  }
  return 0;
}
