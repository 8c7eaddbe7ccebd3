#pragma once
// A TRC trial's force plates from the ground reaction file recorded beside it (OpenSim's `.mot` /
// `.sto`: mocap/ground_reaction_file.hpp). The file holds each plate's wrench but not where the
// plate is, so the plates' corners come from a plate layout: a small YAML/JSON file, or a C3D of the
// same lab (its FORCE_PLATFORM corners; the C3D's own plates and analogs are not used).
//
// The plates become C3D type-2 plates of the trial (ForcePlate, channels = the ground reaction in
// plate axes, the moment about the surface centre), so the import writes them exactly as it writes
// a C3D's plates (mocap/c3d_import.hpp): plates.csv, force_plates, COP gating.
//
// Time: the file's time column and the TRC's Time column are the same lab clock. The file's samples
// from the TRC's first frame to one frame period after its last are kept (others are counted and
// dropped); its rate is the mean over its rows. Stamps printed with few digits (OpenSim's 600 Hz
// example file: 0.0017, 0.0033, ...) are read on that uniform grid when every stamp is within a
// quarter period of it; otherwise the rows are interpolated linearly onto the grid (reported).
//
// Moment: about the plate's surface centre c, M = (p - c) x F + T for force F applied at point p
// with torque T. Exporters write p = 0 (or NaN) where they found no COP (an unloaded plate); a point
// that is not finite or lies more than kPointOutsidePlateM outside the plate is such a placeholder,
// and the moment is then taken as T about the centre (counted and warned about: the error is at most
// |F| times the distance from the centre). When more than a tenth of the loaded samples (normal
// force above the COP threshold) have their point outside the plate, the file is in another frame or
// unit than the corners and the import is refused.
//
// Units: forces in N; points in the file's length unit and torques in N times it (N m, or N mm as
// OpenSim's C3D export writes a C3D's millimetres when not asked to convert). The unit is the one
// given (`--plates-unit`), else the header's `units` line (OpenSim's `Units=mm` metadata or the
// older `units mm`), else metres; a given unit and a header that disagree are refused.

#include <optional>
#include <string>
#include <vector>

#include "dynid/mocap/ground_reaction_file.hpp"
#include "dynid/mocap/mocap_recording.hpp"

namespace dynid {

inline constexpr double kPointOutsidePlateM = 0.05;  ///< margin around the plate's edges [m]

/// One plate of a layout: corners in the lab frame [m], in order around the plate (C3D's
/// FORCE_PLATFORM:CORNERS order); optionally the ground reaction file's identifiers of its columns
/// (else the file's plates are taken in their column order).
struct PlateLayoutEntry {
  Eigen::Matrix<double, 3, 4> corners = Eigen::Matrix<double, 3, 4>::Zero();
  std::optional<GroundReactionColumns> columns;
};

/// A layout file: YAML or JSON (`plates: [{corners: [[x, y, z] x 4], force:, point:, torque:}]`,
/// optional `units: m|mm|cm`), or a .c3d (its plates' corners, in order). Throws one line naming
/// the file and the entry at fault.
std::vector<PlateLayoutEntry> read_plate_layout(const std::string& path);

/// What attaching the plates did (import.json `plate_files[]`).
struct TrcPlatesReport {
  std::string file;
  double rate_hz = 0.0;                             ///< the file's mean rate
  double largest_stamp_deviation_s = 0.0;           ///< of its stamps from the uniform grid
  bool resampled = false;                           ///< interpolated onto the grid (deviation > period / 4)
  long samples_kept = 0, samples_dropped = 0;       ///< within / outside the TRC's span
  std::string length_unit = "m";                    ///< of the points (torques in N times it), as read
  std::string length_unit_from = "default";         ///< "given", "header" or "default" (metres)
  std::vector<std::string> columns;                 ///< per plate: its force identifier in the file
  std::vector<long> points_outside_plate;           ///< per plate: samples whose moment was taken as T at the centre
  std::vector<double> largest_force_without_point;  ///< per plate: the largest |normal force| among them [N]
  std::vector<std::string> warnings;
};

/// Gives `trial` (a TRC recording, markers already in dynid's world) the plates of the ground
/// reaction file `grf_path` at the layout's corners, after turning the file's vectors and the
/// corners by `world_lab` (lab_up_axis.hpp). `length_unit`: the file's ("m", "mm"; "" for its
/// header's, else metres). Plates are matched to the layout by the entries'
/// identifiers or in order; their numbers must agree. Throws one line naming the file and what is
/// wrong (no overlap with the trial, corners that are not a horizontal rectangle in z-up world,
/// points off the plates).
TrcPlatesReport attach_trc_force_plates(MocapRecording& trial, const std::string& grf_path,
                                        const std::vector<PlateLayoutEntry>& layout, const Matrix3& world_lab,
                                        double cop_threshold_n, const std::string& length_unit = "");

}  // namespace dynid
