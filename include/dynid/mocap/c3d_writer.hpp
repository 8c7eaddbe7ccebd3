#pragma once
// Writes a C3dFile in its processor's format (Intel, DEC or MIPS) and storage (POINT:SCALE < 0:
// floats, else 16-bit integers). The writer sets the parameters that describe the layout from the
// data (POINT:USED, POINT:FRAMES, POINT:DATA_START, ANALOG:USED and, past 65535 frames,
// TRIAL:ACTUAL_START_FIELD/ACTUAL_END_FIELD); everything else is written as given, so reading
// the result gives back the same parameters and the same stored values. A point with a NaN
// coordinate is written invalid: (0, 0, 0) with a 4th word of -1.

#include <string>

#include "dynid/mocap/c3d_file.hpp"

namespace dynid {

/// The bytes of the file. Throws std::invalid_argument when the data do not fit the format
/// (sizes that disagree, integers out of 16-bit range, missing POINT:SCALE or POINT:RATE).
std::string c3d_bytes(const C3dFile& file);

/// Writes atomically (core/atomic_file.hpp).
void write_c3d_file(const std::string& path, const C3dFile& file);

}  // namespace dynid
