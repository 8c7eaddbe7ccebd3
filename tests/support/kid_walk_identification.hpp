#pragma once
// Shared by the tests that identify the kid humanoid's simulated walk: its options and the
// per-class comparison with CAD (summary.json parameter_error_vs_nominal).

#include <gtest/gtest.h>

#include <string>

#include "dynid/pipeline/inertial_identification.hpp"

namespace dynid::test {

/// The walk in `data` (upper body locked), foot F/T + IMU + encoders, compared with its truth.urdf.
inline InertialIdentificationOptions kid_walk_options(const std::string& data) {
  InertialIdentificationOptions o;
  o.model = "kid_humanoid";
  o.data = data;
  o.sensors = "contact";
  o.source = "sensors";
  o.lock_upper_body = true;
  o.truth_urdf = data + "/truth.urdf";
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
