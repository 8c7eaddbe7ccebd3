#pragma once
// `dynid mocap inspect`: what dynid reads from a C3D or TRC file, in SI units (docs/mocap.md):
// rates, frames, markers, analog channels, and each force plate with its corners, channels and
// first wrenches and centres of pressure.

#include <nlohmann/json.hpp>
#include <string>

namespace dynid {

/// `cop_threshold`: vertical force [N] below which the COP is undefined; `first_frames`: how many
/// first frames to list per plate. Throws std::runtime_error "PATH: reason" on a file it cannot read.
nlohmann::json inspect_mocap_file(const std::string& path, double cop_threshold, int first_frames);

}  // namespace dynid
