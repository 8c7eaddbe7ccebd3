#include "dynid/mocap/lab_up_axis.hpp"

#include <stdexcept>

namespace dynid {

Matrix3 rotation_to_z_up(const std::string& up) {
  if (up == "z") return Matrix3::Identity();
  if (up == "y") {
    Matrix3 R;
    R << 1, 0, 0,  //
        0, 0, -1,  //
        0, 1, 0;
    return R;
  }
  throw std::invalid_argument("--up: '" + up + "' is not y or z (the lab frame's vertical axis)");
}

void rotate_lab_frame(MocapRecording& recording, const Matrix3& world_lab) {
  if (world_lab.isIdentity(0.0)) return;
  for (Eigen::Index m = 0; m < recording.marker_count(); ++m)
    recording.marker_positions.middleRows<3>(3 * m) = world_lab * recording.marker_positions.middleRows<3>(3 * m);
  for (ForcePlate& plate : recording.force_plates) plate.corners_world = world_lab * plate.corners_world;
}

}  // namespace dynid
