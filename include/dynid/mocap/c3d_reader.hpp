#pragma once
// C3D files (C3D User Guide, c3d.org): Intel (processor 84), DEC (85, VAX floats) and MIPS (86,
// big-endian), integer and float storage, more than 65535 frames (POINT:FRAMES as float or
// TRIAL:ACTUAL_START_FIELD/ACTUAL_END_FIELD), analog channels and force plates of types 1-4.
//
// Errors are std::runtime_error "LABEL: reason" raised where the file stops making sense:
// truncated sections, parameter pointers outside the file, counts that do not fit the data,
// unknown processor or plate types.

#include <string>

#include "dynid/mocap/c3d_file.hpp"
#include "dynid/mocap/mocap_recording.hpp"

namespace dynid {

/// The file as stored. `label` names it in errors.
C3dFile parse_c3d(const std::string& bytes, const std::string& label);
C3dFile read_c3d_file(const std::string& path);

struct C3dReadOptions {
  /// Treat a point stored as exactly (0, 0, 0) as missing, as older software marked gaps that way
  /// (C3D User Guide, "Invalid data"); a negative residual always means missing.
  bool zero_means_missing = true;
};

/// Largest mean force a plate may read over its FORCE_PLATFORM:ZERO frames, as a fraction of the
/// largest force it reads in the trial, for that mean to be taken as its zero baseline (an
/// amplifier's offset); more means someone stood on it there, and its channels stay as stored, with
/// a warning.
inline constexpr double kPlateZeroMaxLoadFraction = 0.1;

/// The SI view: markers in metres (POINT:UNITS converted), scaled analog channels, force plates
/// (their channels zeroed on FORCE_PLATFORM:ZERO where the plate is unloaded there; what was done
/// is in each plate's notes and in the warnings).
MocapRecording recording_from_c3d(const C3dFile& file, const std::string& label, const C3dReadOptions& options = {});
MocapRecording read_c3d(const std::string& path, const C3dReadOptions& options = {});

}  // namespace dynid
