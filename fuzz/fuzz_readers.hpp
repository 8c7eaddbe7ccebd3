#pragma once
// dynid's file readers as the fuzz harnesses drive them (docs/reliability.md): one entry per
// harness, shared by the libFuzzer programs (fuzz/harness.cpp) and the unit test that re-reads the
// past findings (tests/fuzz/fuzz_regressions_test.cpp).
//
// The rule every reader keeps on any input: it returns, or throws a std::exception whose message
// names the input (its label or path), as `dynid` prints it on one line. Any other exception or a
// message that does not name the input breaks the rule (a sanitizer report is caught by the
// sanitizers themselves).

#include <string>
#include <vector>

namespace dynid::fuzz {

/// The harnesses: urdf, sidecar, csv, dataset, trc, c3d, state_json, excitation, log_map, grf_mot,
/// mjcf, labels, plate_layout.
const std::vector<std::string>& harness_names();

/// Reads `input` with the readers of harness `name`. Returns "" when they kept the rule, else what
/// broke it. Throws std::invalid_argument for an unknown name.
std::string read_input(const std::string& name, const std::string& input);

}  // namespace dynid::fuzz
