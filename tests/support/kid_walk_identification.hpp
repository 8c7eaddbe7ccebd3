#pragma once
// Shared by the tests that identify the kid humanoid's simulated walk: its options and the
// per-class comparison with CAD (summary.json parameter_error_vs_nominal).

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "dynid/pipeline/inertial_identification.hpp"

namespace dynid::test {

/// The play the testbed's encoders see in data set `dir` [deg] (dataset.json
/// encoder_backlash_deg; 0 without).
inline double encoder_backlash_deg(const std::string& dir) {
  std::ifstream in(dir + "/dataset.json");
  const nlohmann::json dataset = nlohmann::json::parse(in);
  return dataset.value("encoder_backlash_deg", 0.0);
}

/// The walk in `data` (upper body locked), foot F/T + IMU + encoders, compared with its truth.urdf.
inline InertialIdentificationOptions kid_walk_options(const std::string& data) {
  InertialIdentificationOptions o;
  o.model = "kid_humanoid";
  o.data = data;
  o.sensors = "contact";
  o.source = "sensors";
  o.lock_upper_body = true;
  o.truth_urdf = data + "/truth.urdf";
  // On the realistic testbed the motor-side encoders see the gears' 0.1 deg play (dataset.json
  // encoder_backlash_deg, docs/scenarios.md): taken off them as the demo does, with the
  // datasheet's round figure.
  o.gear_backlash_deg = encoder_backlash_deg(data) > 0.0 ? 0.1 : 0.0;
  return o;
}

/// Median |identified - truth| / median |CAD - truth| of class `cls` ("mass", "first_moment", ...).
inline double class_ratio(const InertialIdentificationResult& r, const std::string& cls) {
  for (const auto& [name, value] : r.parameter_error_vs_nominal)
    if (name == cls) return value;
  ADD_FAILURE() << "no ratio " << cls;
  return 0.0;
}

}  // namespace dynid::test
