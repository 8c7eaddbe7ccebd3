#pragma once
// report.html of `dynid identify inertial`: measured vs reconstructed base wrench and joint torques
// on the held-out motion (paper 003 figs. 4-5), the RMS table nominal vs identified (paper 004
// fig. 6), and the base parameters with their standard deviations.

#include <string>

namespace dynid {

struct InertialIdentificationResult;

/// Writes the report atomically to `path`.
void write_identification_report(const InertialIdentificationResult& result, const std::string& path);

}  // namespace dynid
