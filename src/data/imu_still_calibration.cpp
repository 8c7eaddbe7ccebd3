#include "dynid/data/imu_still_calibration.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <stdexcept>

namespace dynid {
namespace {

constexpr double kDeg = 180.0 / std::numbers::pi;

std::string format(const char* pattern, double a, double b = 0.0, double c = 0.0) {
  char text[200];
  std::snprintf(text, sizeof text, pattern, a, b, c);
  return text;
}

}  // namespace

ImuCalibration calibrate_imu(const std::vector<ImuStillWindow>& windows, const ImuCalibrationOptions& options,
                             const std::optional<Matrix3>& known_axes) {
  if (windows.empty())
    throw std::runtime_error("IMU calibration: the robot never holds still (every joint below " +
                             format("%.3g", options.max_joint_speed) + " rad/s and the base's kinematic rate below " +
                             format("%.3g", options.max_base_rate) + " rad/s for " +
                             format("%.3g", options.min_duration_s + 2.0 * options.trim_s) +
                             " s); record a still period, e.g. standing before the motion");
  ImuCalibration c;
  c.windows = windows;
  double samples = 0.0;
  for (const ImuStillWindow& w : windows) {
    c.gyro_bias_rad_s += static_cast<double>(w.samples) * w.gyro;
    samples += static_cast<double>(w.samples);
    c.still_seconds += w.end - w.start;
  }
  c.gyro_bias_rad_s /= samples;

  // Procrustes on the centred means of the windows in use: R_sf maximising sum a_c . R u_c. Then
  // windows whose residual lies far beyond the others' are set aside and the fit repeated (a foot
  // that was not flat: the kinematic attitude of that window is wrong).
  std::vector<bool> used(windows.size(), true);
  Vector3 u_mean, a_mean;
  Matrix3 R = Matrix3::Identity(), Cuu;
  double N = 0.0, dof = 0.0;
  for (int round = 0; round < 4; ++round) {
    N = static_cast<double>(std::count(used.begin(), used.end(), true));
    u_mean.setZero();
    a_mean.setZero();
    for (std::size_t k = 0; k < windows.size(); ++k)
      if (used[k]) {
        u_mean += windows[k].gravity_in_frame / N;
        a_mean += windows[k].accelerometer / N;
      }
    Matrix3 H = Matrix3::Zero();
    Cuu.setZero();
    double spread = 0.0;
    for (std::size_t k = 0; k < windows.size(); ++k) {
      if (!used[k]) continue;
      const Vector3 uc = windows[k].gravity_in_frame - u_mean, ac = windows[k].accelerometer - a_mean;
      H += ac * uc.transpose();
      Cuu += uc * uc.transpose();
      const double angle =
          std::acos(std::clamp(windows[k].gravity_in_frame.normalized().dot(u_mean.normalized()), -1.0, 1.0));
      spread += angle * angle / N;
    }
    c.attitude_spread_deg = std::sqrt(spread) * kDeg;
    const Eigen::JacobiSVD<Matrix3> svd(H, Eigen::ComputeFullU | Eigen::ComputeFullV);
    Matrix3 D = Matrix3::Identity();
    D(2, 2) = (svd.matrixU() * svd.matrixV().transpose()).determinant() < 0.0 ? -1.0 : 1.0;
    R = N >= 2.0 ? Matrix3(svd.matrixU() * D * svd.matrixV().transpose()) : Matrix3::Identity();
    double rss = 0.0;
    std::vector<double> residual(windows.size()), kept;
    for (std::size_t k = 0; k < windows.size(); ++k) {
      residual[k] = (windows[k].accelerometer - a_mean - R * (windows[k].gravity_in_frame - u_mean)).norm();
      if (used[k]) {
        rss += residual[k] * residual[k];
        kept.push_back(residual[k]);
      }
    }
    dof = 3.0 * N - 6.0;
    c.residual_rms_m_s2 = dof > 0.0 ? std::sqrt(rss / dof) : std::numeric_limits<double>::quiet_NaN();
    if (kept.size() < 8) break;  // too few for a robust scale
    std::nth_element(kept.begin(), kept.begin() + static_cast<long>(kept.size() / 2), kept.end());
    // The norm of a 3-vector of independent N(0, s^2) has its median at 1.54 s; set aside beyond 4 s.
    const double limit = 4.0 * kept[kept.size() / 2] / 1.54;
    std::vector<bool> next(windows.size());
    for (std::size_t k = 0; k < windows.size(); ++k) next[k] = residual[k] <= limit;
    if (next == used || round == 3 || std::count(next.begin(), next.end(), true) < 3) break;
    used = next;
  }
  c.windows_set_aside = static_cast<int>(std::count(used.begin(), used.end(), false));
  const Eigen::AngleAxisd fitted(R.transpose());
  c.misalignment_deg = fitted.angle() * kDeg;
  c.misalignment_axis = fitted.angle() > 0.0 ? Vector3(fitted.axis()) : Vector3(Vector3::UnitZ());

  // Small rotations d of the frame axes (R exp([d]x)): information sum (|u_c|^2 1 - u_c u_c^T) / sigma^2.
  const Matrix3 J = Cuu.trace() * Matrix3::Identity() - Cuu;
  const Eigen::SelfAdjointEigenSolver<Matrix3> eig(J);
  if (dof <= 0.0 || eig.eigenvalues().minCoeff() <= 1e-12 * std::max(1e-12, eig.eigenvalues().maxCoeff())) {
    c.std_deg.setConstant(std::numeric_limits<double>::infinity());
  } else {
    c.std_deg = (c.residual_rms_m_s2 * c.residual_rms_m_s2 * J.inverse()).diagonal().cwiseSqrt() * kDeg;
  }
  Eigen::Index worst = 0;
  const double worst_std = c.std_deg.maxCoeff(&worst);
  c.axes_determined = worst_std <= options.max_axes_std_deg;
  if (known_axes) {
    c.axes_determined = true;
    c.sensor_axes_in_frame = *known_axes;
    c.axes_note = "given (another recording's calibration)";
  } else if (c.axes_determined) {
    c.sensor_axes_in_frame = R.transpose();
    c.axes_note =
        format("taken: %.0f still windows at attitudes %.2g deg apart (RMS) fix them within %.2g deg", N,
               c.attitude_spread_deg, worst_std) +
        (c.windows_set_aside > 0
             ? format(" (%.0f window(s) set aside: their attitude disagrees with the others' fit)", c.windows_set_aside)
             : std::string());
  } else {
    c.axes_note =
        (windows.size() < 3 ? format("kept at the sidecar's: %.0f still window(s) at one attitude", N)
                            : format("kept at the sidecar's: %.0f still windows at attitudes %.2g deg apart "
                                     "(RMS) leave the rotation about ",
                                     N, c.attitude_spread_deg) +
                                  std::string(1, "xyz"[worst]) + format(" uncertain by %.2g deg", worst_std)) +
        "; a tilt of the axes then reads as part of the accelerometer bias";
  }
  c.accel_bias_m_s2 = a_mean - c.sensor_axes_in_frame.transpose() * u_mean;
  return c;
}

}  // namespace dynid
