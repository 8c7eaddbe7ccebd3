#pragma once
// The lab frame's vertical axis. dynid's world is z up (gravity (0, 0, -9.81)); OpenSim's ground is
// y up (x forward, y up, z to the right), and TRC / .mot files made for OpenSim are written in it.
// A y-up recording is turned to z up by the rotation about x by +90 degrees,
//   (x, y, z) -> (x, -z, y),
// which keeps x forward and puts OpenSim's y (up) on z and its z (right) on -y (left of forward).

#include <string>

#include "dynid/mocap/mocap_recording.hpp"

namespace dynid {

/// Rotation from a lab frame whose vertical axis is `up` ("z": identity, "y": as above) to dynid's
/// z-up world. Throws std::invalid_argument for anything else.
Matrix3 rotation_to_z_up(const std::string& up);

/// Rotates everything of `recording` that lives in the lab frame: markers and force plate corners
/// (the plates' channels are in plate axes, which turn with their corners).
void rotate_lab_frame(MocapRecording& recording, const Matrix3& world_lab);

}  // namespace dynid
