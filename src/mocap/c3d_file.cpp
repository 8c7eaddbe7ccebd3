#include "dynid/mocap/c3d_file.hpp"

namespace dynid {

Eigen::Index C3dFile::analog_samples_per_frame() const {
  return frame_count() == 0 || analogs.cols() == 0 ? 0 : analogs.rows() / frame_count();
}

double C3dFile::point_scale() const { return parameters.number("POINT", "SCALE").value_or(-1.0); }

}  // namespace dynid
