#pragma once
// Force plates as the C3D FORCE_PLATFORM group describes them, and the ground reaction wrench and
// centre of pressure (COP) they give (C3D User Guide, "The FORCE_PLATFORM group").
//
// Plate frame: right-handed, axes given by the corners (corner 1 in the +x+y quadrant, 2 in -x+y,
// 3 in -x-y, 4 in +x-y), z = x cross y, which for a floor plate points down into the ground. Its
// reference point here is the centre of the working surface (mean of the corners).
//
// Channels, once scaled (ANALOG:SCALE, CAL_MATRIX), give the wrench in plate axes:
//   type 1: Fx Fy Fz, COPx COPy (plate axes, from the surface centre), Tz
//   type 2: Fx Fy Fz Mx My Mz, moments about the transducer origin
//   type 3: Kistler fx12 fx34 fy14 fy23 fz1 fz2 fz3 fz4; ORIGIN = (a, b, az0): sensors at
//           (+-a, +-b) in the sensor plane, which lies az0 below the surface (az0 < 0, z down)
//   type 4: as type 2 after the 6x6 FORCE_PLATFORM:CAL_MATRIX (column-major in the file)
// For types 2 and 4, ORIGIN is the vector from the transducer origin to the surface centre in
// plate axes (negative z). Files with a positive ORIGIN z used the older opposite convention; the
// reader flips the vector and says so in `notes` (as Visual3D and ezc3d do).
//
// Sign: the scaled channels are the ground reaction, the wrench the plate exerts on the body: a
// subject standing on a floor plate (z down) gives Fz < 0, i.e. an upward force in the lab. This
// is what the public C3D files checked store (Vicon Nexus, Qualisys, BTS, the c3d.org TYPE-2/3/4
// samples; docs/mocap.md) and what ezc3d reports; dynid keeps it and expresses it in world axes,
// SI units.

#include <Eigen/Core>
#include <string>
#include <vector>

#include "dynid/spatial/skew.hpp"

namespace dynid {

struct ForcePlate {
  int number = 1;  ///< 1-based, as in the file
  int type = 2;    ///< C3D FORCE_PLATFORM:TYPE: 1, 2, 3 or 4
  Eigen::Matrix<double, 3, 4> corners_world = Eigen::Matrix<double, 3, 4>::Zero();  ///< [m]
  Vector3 origin_plate = Vector3::Zero();     ///< FORCE_PLATFORM:ORIGIN [m], plate axes (see above)
  std::vector<int> channels;                  ///< 0-based analog channel of each plate channel (6 or 8)
  Matrix6 calibration = Matrix6::Identity();  ///< type 4: channels -> [F; M] (moments in file length units)
  double moment_to_si = 1.0;                  ///< factor from the moment channels' (or calibrated moments') unit to N m
  double length_to_si = 1.0;                  ///< factor from the COP channels' unit (type 1) to m
  std::vector<std::string> notes;             ///< conventions the reader had to guess

  /// Number of analog channels the type uses (6, or 8 for type 3).
  static int channel_count(int type);
  /// Plate axes in world: columns x, y, z (from the corners, orthonormalised).
  Matrix3 rotation_world_plate() const;
  /// Centre of the working surface in world [m].
  Vector3 center_world() const;
};

/// Wrench the plate measures (ground reaction on the body), plate axes, moment about the surface centre.
struct PlateWrench {
  Vector3 force_plate = Vector3::Zero();             ///< [N]
  Vector3 moment_at_center_plate = Vector3::Zero();  ///< [N m]
};

/// Ground reaction of one plate at one analog sample, world axes.
struct PlateSample {
  Vector3 force_world = Vector3::Zero();             ///< [N], on the body
  Vector3 moment_at_center_world = Vector3::Zero();  ///< [N m], about the plate's surface centre
  Vector3 cop_world = Vector3::Zero();               ///< [m], NaN when |normal force| < threshold
  /// [N m] about the outward surface normal (-z of the plate: up for a floor plate) at the COP; NaN if gated
  double free_moment = 0.0;
};

/// Default threshold below which the COP is undefined (noise over the plate's area).
constexpr double kDefaultCopThreshold = 20.0;  // N

/// The wrench from one sample of every analog channel (`analog_sample`, scaled as in the file).
/// Allocation free; throws std::out_of_range if a channel index is outside the sample.
PlateWrench plate_wrench(const ForcePlate& plate, const Eigen::Ref<const Eigen::VectorXd>& analog_sample);

/// Ground reaction in world for a plate wrench; the COP is NaN where the normal force is below
/// `cop_threshold` newtons in magnitude. Allocation free.
PlateSample ground_reaction(const ForcePlate& plate, const PlateWrench& wrench,
                            double cop_threshold = kDefaultCopThreshold);

/// Ground reaction of every analog sample (columns of `analogs`, channels x samples).
struct PlateSeries {
  Eigen::Matrix3Xd force_world, moment_at_center_world, cop_world;
  Eigen::VectorXd free_moment;
  PlateSample at(Eigen::Index sample) const;
};
PlateSeries ground_reaction_series(const ForcePlate& plate, const Eigen::MatrixXd& analogs,
                                   double cop_threshold = kDefaultCopThreshold);

/// Ground reaction of several plates together: the sum of their wrenches.
struct CombinedSample {
  Vector3 force_world = Vector3::Zero();             ///< [N]
  Vector3 moment_at_origin_world = Vector3::Zero();  ///< [N m], about the world origin
  Vector3 cop_world = Vector3::Zero();               ///< [m], NaN when |vertical force| < threshold
};
/// The COP lies on the horizontal plane (world z up) at the plates' mean surface height.
CombinedSample combined_ground_reaction(const std::vector<ForcePlate>& plates, const std::vector<PlateSample>& samples,
                                        double cop_threshold = kDefaultCopThreshold);

/// The channel values a plate would record for `wrench` (the inverse of plate_wrench): builds
/// fixtures and checks the plate models against each other. Type 3 distributes the load over its
/// sensors with no twist between them.
Eigen::VectorXd plate_channels(const ForcePlate& plate, const PlateWrench& wrench);

}  // namespace dynid
