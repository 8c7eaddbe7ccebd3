#pragma once
// The static-pose protocol of paper 000 (REEM-C, 172 poses): statically stable poses in six
// categories, joints set near the ends of their range, feet on force plates.
//   double support with arm focus | single support left | single support right | torso |
//   crouching | wide stance on one plate | wide stance on two plates
// Poses are generated with whole-body IK on the nominal model (what a lab's pose script knows):
// feet flat at their targets, COM over the middle of the support polygon, base upright.

#include <random>
#include <string>
#include <vector>

#include "dynid/model/sidecar.hpp"
#include "dynid/sim/scene.hpp"

namespace dynid {

struct StaticPose {
  std::string category;
  VectorX q;                 ///< reference configuration (nq), feet on the ground
  std::vector<int> support;  ///< sidecar contact indices on the ground
};

/// `count` poses (paper 000: 172) in the seven categories, seeded. Throws if the IK cannot place
/// a category's feet (robot without two soles). The base is held upright, or with `base_tilt_deg`
/// > 0 tilted in each pose by an angle uniform within that about a random horizontal axis (the
/// attitudes an IMU's mounting is calibrated from, data/imu_still_calibration.hpp); the tilts are
/// drawn from their own generator, so the poses' other draws are those of the upright poses.
std::vector<StaticPose> generate_static_poses(const Model& nominal, const RobotSidecar& sidecar,
                                              const std::vector<ForcePlateSpec>& plates, int count, unsigned seed,
                                              double base_tilt_deg = 0.0);

}  // namespace dynid
