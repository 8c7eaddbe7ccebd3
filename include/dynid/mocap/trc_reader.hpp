#pragma once
// TRC marker files (Motion Analysis Cortex, OpenSim): tab-separated text,
//   PathFileType  4  (X/Y/Z)  NAME
//   DataRate  CameraRate  NumFrames  NumMarkers  Units  OrigDataRate  OrigDataStartFrame  OrigNumFrames
//   <their values>
//   Frame#  Time  NAME1        NAME2 ...
//                 X1  Y1  Z1   X2  Y2  Z2 ...
//   1  0.000  x  y  z  ...
// Units mm, cm or m (converted to metres). A missing marker is empty fields (Cortex) or NaN
// (OpenSim); either gives NaN with valid = false. NumFrames and NumMarkers must match the data.

#include <string>

#include "dynid/mocap/mocap_recording.hpp"

namespace dynid {

/// Throws std::runtime_error "LABEL: reason" (line numbers are 1-based).
MocapRecording parse_trc(const std::string& text, const std::string& label);
MocapRecording read_trc(const std::string& path);

}  // namespace dynid
