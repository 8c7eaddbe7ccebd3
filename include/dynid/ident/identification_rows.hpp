#pragma once
// The equations one sample contributes to the identification of the base parameters, for a sensor
// set (ident/sensor_projection.hpp): P Y_base pi_base = P A_m f_m, with P the projection that removes
// the unmeasured forces (the 6 base rows for `contact`), and the default row weights.
//
// Weights (docs/identification.md, "Weighting"): rows mix newtons and newton-metres, so each row
// gets 1 / sigma^2, sigma^2 = sum_j (P A_m)_ij^2 sigma_j^2 the variance the measured forces' noise
// (ForceNoise: contact force, contact moment, joint torque) puts on it. Force and moment rows, and
// joint-torque rows, are then in the same unit: standard deviations. When the source's derived
// accelerations carry noise (ForceNoise::acceleration, e.g. a differentiated gyro), sigma^2 also
// counts (P M)_ij^2 sigma_a,j^2, M the nominal model's mass matrix: an error in the regressor's inputs.
//
// It also gives the full equations for validation: Y pi against the measured generalized forces
// f = sum_c J_c^T lambda_c + [0; tau], whose base rows are the base wrench (base frame, about its
// origin) and whose joint rows are the joint torques where they are measured.

#include "dynid/dynamics/jacobian.hpp"
#include "dynid/ident/base_parameters.hpp"
#include "dynid/ident/motion_sample.hpp"
#include "dynid/ident/sensor_projection.hpp"

namespace dynid {

class IdentificationRows {
 public:
  IdentificationRows(const Model& model, const RobotSidecar& sidecar, const BaseParameters& base, SensorSet set,
                     ForceNoise noise);

  /// Contacts known to be off the ground: while a segment says one foot carries the robot
  /// (`support` left or right), the other sole's contact is free and its wrench zero, so when the
  /// sensor set does not measure that contact the projection no longer removes the lifted leg's
  /// equations (a lifted foot shows in its joint torques; paper 004's joints-only set). Measured
  /// contacts, segments without a stated support, or `both`, keep every contact; so do the first
  /// and last sixth of a single-support segment, where the real contact may still be on.
  void set_support(const Model& model, const RobotSidecar& sidecar, const std::vector<TimeSegment>& segments);

  /// Computes the rows of `sample` (forward kinematics, regressor, projection). Throws naming the
  /// sensor set when the rank condition rank(S_b V_x) = 6 fails at this sample.
  void build(const MotionSample& sample);

  /// True when the last sample's rows are the same linear combination of the equations of motion as
  /// at any other sample with this flag (every active contact measured: the projection removes only
  /// constant joint-torque directions), so that filtering rows across samples keeps them exact.
  bool fixed_projection() const { return fixed_projection_; }
  const MatrixX& rows() const { return A_; }      ///< P Y_base (r x num_base)
  const VectorX& measured() const { return b_; }  ///< P A_m f_m (r)
  const VectorX& weights() const { return w_; }   ///< 1 / sigma^2 per row
  /// The weights from the measured channels' noise alone: the same at every sample whose rows are
  /// the same combination of the same sensors with the same noise map (not with measured contact
  /// wrenches, whose map follows the posture); weights() adds the noise of the derived
  /// accelerations, which varies with the configuration.
  const VectorX& structure_weights() const { return structure_weights_; }
  /// True when the source's accelerations carry noise (ForceNoise::acceleration).
  bool has_acceleration_noise() const { return noise_.acceleration.cols() > 0; }
  /// For the last sample built, one matrix per noise source c (ForceNoise::acceleration's columns
  /// d_c, after the rows' own filter when the parallel filter takes these rows):
  /// B_c = P (Y(q, 0, d_c) - Y(q, 0, 0)) (r x num_standard), the rows' change for one standard
  /// deviation of that source, so that the noise adds E[dA^T W dA] = sum_c B_c^T W B_c to the
  /// normal equations (errors in variables).
  const std::vector<MatrixX>& acceleration_noise_rows();
  const MatrixX& regressor() const { return Y_; }             ///< full Y (nv x num_standard)
  const MatrixX& projected_regressor() const { return PY_; }  ///< P Y (r x num_standard)
  /// P S^T e_j for each joint torque sensor of the set (r x its torque joints, in the set's order):
  /// the columns of constant sensor offsets, which enter the equations as P Y pi + P S^T o = P A_m f_m.
  const MatrixX& torque_offset_columns() const { return T_; }
  /// Measured generalized forces f (nv): base wrench rows, then joint torques (NaN where unmeasured).
  const VectorX& generalized_forces() const { return f_; }
  /// The columns of a calibration correction of each measured contact wrench (off by default):
  /// a sensor that reads f_m = C f has f = (I + E) f_m with E small, so its part of the measured
  /// side P A_m f_m misses P A_m E f_m, which is linear in E: one column P A_m e_i f_m,j per entry
  /// E_ij within the force block (i, j in fx fy fz) and within the moment block (tx ty tz) of each
  /// contact in the set's order, 18 per contact (force rows i-major, then moment), in the frame of
  /// the contact's F/T sensor (the sidecar's sensor on the contact's link that measures the external
  /// wrench; the contact frame when there is none). The equations become P Y pi - sum E_ij col_ij = P A_m f_m.
  void set_wrench_calibration(bool on) { wrench_calibration_ = on; }
  /// Reads each measured contact's wrench through a known calibration of its F/T sensor (the
  /// sensor-frame force and moment matrices, per contact in the set's order, as identified above):
  /// validation data read by the identified calibration. Empty: as measured.
  void set_wrench_correction(std::vector<std::pair<Matrix3, Matrix3>> correction) {
    wrench_correction_ = std::move(correction);
  }
  const MatrixX& wrench_calibration_columns() const { return C_; }

 private:
  const Model& model_;
  const BaseParameters& base_;
  SensorSet set_;
  ForceNoise noise_;
  std::vector<int> contacts_;
  struct FreeSpan {
    double start, end;  ///< [s]
    int frame;          ///< contact frame off the ground
  };
  std::vector<FreeSpan> free_;
  std::vector<int> active_;
  bool fixed_projection_ = true;
  Data data_;
  Matrix6X J_;
  MatrixX Y_, PY_, A_, T_, PM_, projector_, C_;
  bool wrench_calibration_ = false;
  std::vector<std::pair<Matrix3, Matrix3>> wrench_correction_;
  std::vector<SE3> sensor_in_contact_;  ///< per measured contact: its F/T sensor's frame in the contact frame
  VectorX q_;
  std::vector<MatrixX> noise_rows_;
  bool row_filtered_ = false;  ///< the last sample's rows are what the parallel filter takes
  const MatrixX& acceleration_sources() const {
    return row_filtered_ ? noise_.row_filtered_acceleration : noise_.acceleration;
  }
  VectorX b_, w_, f_, structure_weights_, row_variance_;
};

}  // namespace dynid
