#include "dynid/ident/angular_acceleration.hpp"

#include <Eigen/Eigenvalues>
#include <cstdio>
#include <stdexcept>

#include "dynid/spatial/skew.hpp"

namespace dynid {
namespace {

std::string names_of(const AccelerometerMount& reference, const std::vector<AccelerometerMount>& others) {
  std::string out = reference.name;
  for (const AccelerometerMount& m : others) out += ", " + m.name;
  return out;
}

}  // namespace

AccelerometerArray::AccelerometerArray(AccelerometerMount reference, std::vector<AccelerometerMount> others)
    : reference_(std::move(reference)), others_(std::move(others)) {
  if (others_.empty())
    throw std::invalid_argument("angular acceleration from accelerometers needs accelerometers besides the IMU's ('" +
                                reference_.name + "'); the sidecar lists none under `accelerometers:`");
  const Eigen::Index k = static_cast<Eigen::Index>(others_.size());
  // omega_dot x r_j = -[r_j]x omega_dot: stack A = [-[r_1]x; ...; -[r_k]x] (3k x 3).
  Eigen::MatrixXd A(3 * k, 3);
  for (Eigen::Index j = 0; j < k; ++j) {
    offsets_.push_back(others_[static_cast<std::size_t>(j)].position - reference_.position);
    A.block<3, 3>(3 * j, 0) = -skew(offsets_.back());
  }
  const Matrix3 AtA = A.transpose() * A;
  const Eigen::SelfAdjointEigenSolver<Matrix3> eig(AtA);
  const double largest = eig.eigenvalues().maxCoeff(), smallest = eig.eigenvalues().minCoeff();
  // A 100x weaker direction would amplify noise 10x more than the best: treat it as undetermined.
  if (!(largest > 1e-8) || smallest < 1e-4 * largest) {
    const Vector3 axis = eig.eigenvectors().col(0);
    char buf[160];
    std::snprintf(buf, sizeof buf, "(%.3f, %.3f, %.3f)", axis.x(), axis.y(), axis.z());
    throw std::invalid_argument("accelerometers " + names_of(reference_, others_) +
                                " lie on one line through the IMU: their offsets cannot determine the angular "
                                "acceleration about the root axis " +
                                buf + "; mount one off that line");
  }
  pseudo_inverse_ = AtA.inverse() * A.transpose();
}

AccelerometerArray AccelerometerArray::from_model(const Model& model, const std::string& imu_frame,
                                                  const std::vector<std::string>& accelerometer_frames) {
  auto mount = [&](const std::string& name) {
    const auto index = model.find_frame(name);
    if (!index) throw std::invalid_argument(model.label() + ": no sensor frame '" + name + "'");
    const Frame& f = model.frames[static_cast<std::size_t>(*index)];
    if (f.body != 1 || !model.floating_base)
      throw std::invalid_argument(
          model.label() + ": sensor '" + name + "' is on link '" + f.link +
          "', not on the floating root body: it cannot measure the root's angular acceleration");
    return AccelerometerMount{name, f.placement.translation, f.placement.rotation};
  };
  std::vector<AccelerometerMount> others;
  for (const std::string& name : accelerometer_frames) others.push_back(mount(name));
  return AccelerometerArray(mount(imu_frame), std::move(others));
}

Vector3 AccelerometerArray::angular_acceleration(const Vector3& omega, const Vector3& reference_reading,
                                                 const Eigen::Ref<const Eigen::Matrix3Xd>& readings) const {
  const Vector3 a0 = reference_.rotation * reference_reading;
  Vector3 omega_dot = Vector3::Zero();
  for (std::size_t j = 0; j < others_.size(); ++j) {
    const Vector3& r = offsets_[j];
    // Eq. 24: omega_dot x r_j = a_j - a_0 - omega x (omega x r_j); gravity cancels in a_j - a_0.
    const Vector3 b =
        others_[j].rotation * readings.col(static_cast<Eigen::Index>(j)) - a0 - omega.cross(omega.cross(r));
    omega_dot += pseudo_inverse_.block<3, 3>(0, 3 * static_cast<Eigen::Index>(j)) * b;
  }
  return omega_dot;
}

Vector3 AccelerometerArray::specific_force_at(const Vector3& point, const Vector3& omega, const Vector3& omega_dot,
                                              const Vector3& reference_reading) const {
  const Vector3 r = point - reference_.position;
  return reference_.rotation * reference_reading + omega_dot.cross(r) + omega.cross(omega.cross(r));
}

Matrix3 AccelerometerArray::noise_covariance_per_unit_variance() const {
  // omega_dot = sum_j P_j (R_j n_j - R_0 n_0): the n_j independent, n_0 shared by every term.
  Matrix3 shared = Matrix3::Zero(), cov = Matrix3::Zero();
  for (std::size_t j = 0; j < others_.size(); ++j) {
    const Matrix3 P = pseudo_inverse_.block<3, 3>(0, 3 * static_cast<Eigen::Index>(j));
    cov += P * P.transpose();
    shared += P;
  }
  return cov + shared * shared.transpose();
}

}  // namespace dynid
