#pragma once
// Force plates' zero from the windows where they carry nothing (issue 19; docs/identification-static.md,
// "Force-plate zero"). A strain-gauge plate's amplifier zero drifts (tenths of a newton per minute);
// labs zero the plates unloaded before a session, and a C3D file says what it subtracted
// (FORCE_PLATFORM:ZERO, applied by the C3D import: src/mocap/c3d_recording.cpp). Other recordings (a data set's plates
// stream, TRC with .mot plates) say nothing, but a protocol that lifts a foot from its plate (paper 000's poses on one
// foot) shows the plate's zero whenever it is unloaded: what it reads then is its zero.
//
// Per plate, the stretches where |f_z| stays below a threshold for long enough (less a margin at each
// end, where the foot lifts off or lands) are the unloaded windows; each window, cut into blocks of a
// few seconds, gives the zero of all six channels at each block's mean time; a line through them
// (weighted by the blocks' lengths) is the zero's offset and drift. Blocks spanning less than
// min_drift_span_s give the offset only; no window leaves the plate as recorded (the caller warns).

#include <string>
#include <vector>

#include "dynid/core/types.hpp"
#include "dynid/data/lab_recording.hpp"

namespace dynid {

struct PlateZeroOptions {
  double unloaded_below_n = 20.0;  ///< |f_z| below this [N]: no foot on the plate (as the COP's 20 N)
  double min_window_s = 0.5;       ///< an unloaded stretch at least this long [s] ...
  double edge_s = 0.1;             ///< ... less this at each end [s]
  double block_s = 2.0;            ///< each window cut into blocks of at most this, the line's points [s]
  /// Windows' mean times spanning less than this [s] give the offset only (drift 0): over a short
  /// span the noise of the windows' means would read as drift.
  double min_drift_span_s = 30.0;
};

struct PlateZero {
  std::string plate;
  int windows = 0;                         ///< unloaded windows found (0: the plate is left as recorded)
  double unloaded_s = 0.0;                 ///< their total length [s]
  double reference_time_s = 0.0;           ///< t0: the recording's first plate sample [s]
  bool drift_estimated = false;            ///< false: offset only (the blocks span too short a time)
  Vector6 offset = Vector6::Zero();        ///< the unloaded reading at t0 [N; N m], the plates stream's order
  Vector6 drift_per_s = Vector6::Zero();   ///< its change per second [N/s; N m/s]
  Vector6 residual_rms = Vector6::Zero();  ///< the windows' means about the line [N; N m]
};

struct PlateZeroing {
  PlateZeroOptions options;
  std::vector<PlateZero> plates;  ///< the recording's plates, in its order
};

/// The zero of every plate of `rec` from its unloaded windows. Throws when `rec` has no plates
/// stream or a sample is not finite.
PlateZeroing estimate_plate_zero(const LabRecording& rec, const PlateZeroOptions& options = {});

/// Subtracts each plate's zero (offset + drift (t - t0)) from every sample of `rec`'s plates stream;
/// plates without a window are left as recorded. Throws when `rec` has other plates than `zero`'s.
void remove_plate_zero(const PlateZeroing& zero, LabRecording& rec);

}  // namespace dynid
