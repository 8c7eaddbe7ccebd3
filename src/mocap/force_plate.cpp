#include "dynid/mocap/force_plate.hpp"

#include <Eigen/Geometry>
#include <Eigen/LU>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace dynid {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Moments about the surface centre S from moments about the transducer origin O, r = S - O.
Vector3 moment_at_center(const Vector3& moment_at_origin, const Vector3& force, const Vector3& r) {
  return moment_at_origin - r.cross(force);
}

// The vector from the transducer origin to the surface centre (header comment).
Vector3 origin_to_center(const ForcePlate& plate) {
  return plate.type == 3 ? Vector3(0.0, 0.0, plate.origin_plate.z()) : plate.origin_plate;
}

[[noreturn]] void unsupported_type(const ForcePlate& plate) {
  throw std::invalid_argument("force plate " + std::to_string(plate.number) + ": TYPE " + std::to_string(plate.type) +
                              " is not supported (dynid reads types 1, 2, 3 and 4)");
}

}  // namespace

int ForcePlate::channel_count(int type) { return type == 3 ? 8 : 6; }

Matrix3 ForcePlate::rotation_world_plate() const {
  const auto& c = corners_world;
  const Vector3 x = ((c.col(0) + c.col(3)) - (c.col(1) + c.col(2))).normalized();
  const Vector3 y_guess = (c.col(0) + c.col(1)) - (c.col(2) + c.col(3));
  const Vector3 z = x.cross(y_guess).normalized();
  Matrix3 R;
  R << x, z.cross(x), z;
  return R;
}

Vector3 ForcePlate::center_world() const { return corners_world.rowwise().mean(); }

PlateWrench plate_wrench(const ForcePlate& plate, const Eigen::Ref<const Eigen::VectorXd>& analog_sample) {
  double ch[8] = {};
  const int n = ForcePlate::channel_count(plate.type);
  if (static_cast<int>(plate.channels.size()) < n)
    throw std::out_of_range("force plate " + std::to_string(plate.number) + ": needs " + std::to_string(n) +
                            " channels");
  for (int k = 0; k < n; ++k) {
    const int c = plate.channels[static_cast<std::size_t>(k)];
    if (c < 0 || c >= analog_sample.size())
      throw std::out_of_range("force plate " + std::to_string(plate.number) + ": channel " + std::to_string(c + 1) +
                              " is not an analog channel");
    ch[k] = analog_sample[c];
  }
  PlateWrench wrench;
  Vector3& F = wrench.force_plate;
  switch (plate.type) {
    case 1: {
      F << ch[0], ch[1], ch[2];
      const Vector3 cop(ch[3] * plate.length_to_si, ch[4] * plate.length_to_si, 0.0);
      wrench.moment_at_center_plate = cop.cross(F) + Vector3(0.0, 0.0, ch[5] * plate.moment_to_si);
      break;
    }
    case 2:
    case 4: {
      Vector6 w;
      w << ch[0], ch[1], ch[2], ch[3], ch[4], ch[5];
      if (plate.type == 4) w = plate.calibration * w;
      F = w.head<3>();
      wrench.moment_at_center_plate = moment_at_center(w.tail<3>() * plate.moment_to_si, F, origin_to_center(plate));
      break;
    }
    case 3: {
      // Kistler's eight-channel plate (C3D User Guide, TYPE-3; Kistler 9281/9287 manuals): sensors
      // 1..4 at (a, b), (-a, b), (-a, -b), (a, -b) in the sensor plane.
      const double a = plate.origin_plate.x(), b = plate.origin_plate.y();
      const double fx12 = ch[0], fx34 = ch[1], fy14 = ch[2], fy23 = ch[3];
      const double fz1 = ch[4], fz2 = ch[5], fz3 = ch[6], fz4 = ch[7];
      F << fx12 + fx34, fy14 + fy23, fz1 + fz2 + fz3 + fz4;
      const Vector3 moment_at_sensors(b * (fz1 + fz2 - fz3 - fz4), a * (-fz1 + fz2 + fz3 - fz4),
                                      b * (fx34 - fx12) + a * (fy14 - fy23));
      wrench.moment_at_center_plate = moment_at_center(moment_at_sensors, F, origin_to_center(plate));
      break;
    }
    default:
      unsupported_type(plate);
  }
  return wrench;
}

PlateSample ground_reaction(const ForcePlate& plate, const PlateWrench& wrench, double cop_threshold) {
  const Matrix3 R = plate.rotation_world_plate();
  const Vector3& F = wrench.force_plate;
  const Vector3& M = wrench.moment_at_center_plate;
  PlateSample s;
  s.force_world = R * F;
  s.moment_at_center_world = R * M;
  if (!(std::fabs(F.z()) >= cop_threshold)) {
    s.cop_world.setConstant(kNaN);
    s.free_moment = kNaN;
    return s;
  }
  // M = cop x F + (0, 0, tau) with the COP on the surface (z = 0 in plate axes).
  const Vector3 cop_plate(-M.y() / F.z(), M.x() / F.z(), 0.0);
  s.cop_world = plate.center_world() + R * cop_plate;
  // Moment left at the COP, about plate z; the outward normal is -z.
  s.free_moment = -(M.z() - (cop_plate.x() * F.y() - cop_plate.y() * F.x()));
  return s;
}

PlateSample PlateSeries::at(Eigen::Index i) const {
  return {force_world.col(i), moment_at_center_world.col(i), cop_world.col(i), free_moment[i]};
}

PlateSeries ground_reaction_series(const ForcePlate& plate, const Eigen::MatrixXd& analogs, double cop_threshold) {
  const Eigen::Index n = analogs.cols();
  PlateSeries out{Eigen::Matrix3Xd(3, n), Eigen::Matrix3Xd(3, n), Eigen::Matrix3Xd(3, n), Eigen::VectorXd(n)};
  for (Eigen::Index i = 0; i < n; ++i) {
    const PlateSample s = ground_reaction(plate, plate_wrench(plate, analogs.col(i)), cop_threshold);
    out.force_world.col(i) = s.force_world;
    out.moment_at_center_world.col(i) = s.moment_at_center_world;
    out.cop_world.col(i) = s.cop_world;
    out.free_moment[i] = s.free_moment;
  }
  return out;
}

CombinedSample combined_ground_reaction(const std::vector<ForcePlate>& plates, const std::vector<PlateSample>& samples,
                                        double cop_threshold) {
  if (plates.size() != samples.size() || plates.empty())
    throw std::invalid_argument("combined_ground_reaction: one sample per plate is required");
  CombinedSample c;
  double height = 0.0;
  for (std::size_t i = 0; i < plates.size(); ++i) {
    const Vector3 center = plates[i].center_world();
    c.force_world += samples[i].force_world;
    c.moment_at_origin_world += center.cross(samples[i].force_world) + samples[i].moment_at_center_world;
    height += center.z() / static_cast<double>(plates.size());
  }
  const Vector3& F = c.force_world;
  const Vector3& M = c.moment_at_origin_world;
  if (!(std::fabs(F.z()) >= cop_threshold)) {
    c.cop_world.setConstant(kNaN);
    return c;
  }
  // M = p x F + tau z with p = (x, y, height).
  c.cop_world << (height * F.x() - M.y()) / F.z(), (M.x() + height * F.y()) / F.z(), height;
  return c;
}

Eigen::VectorXd plate_channels(const ForcePlate& plate, const PlateWrench& wrench) {
  const Vector3& F = wrench.force_plate;
  const Vector3 moment_at_origin = wrench.moment_at_center_plate + origin_to_center(plate).cross(F);
  Eigen::VectorXd ch(ForcePlate::channel_count(plate.type));
  switch (plate.type) {
    case 1: {
      const Vector3& M = wrench.moment_at_center_plate;
      const double x = -M.y() / F.z(), y = M.x() / F.z();
      ch << F, x / plate.length_to_si, y / plate.length_to_si, (M.z() - (x * F.y() - y * F.x())) / plate.moment_to_si;
      break;
    }
    case 2:
    case 4: {
      Vector6 w;
      w << F, moment_at_origin / plate.moment_to_si;
      ch = plate.type == 4 ? Vector6(plate.calibration.partialPivLu().solve(w)) : w;
      break;
    }
    case 3: {
      const double a = plate.origin_plate.x(), b = plate.origin_plate.y();
      const Vector3& M = moment_at_origin;
      const double s = F.z(), u = M.x() / b, v = M.y() / a;  // no twist: fz1 - fz2 + fz3 - fz4 = 0
      ch << (F.x() - M.z() / (2 * b)) / 2, (F.x() + M.z() / (2 * b)) / 2, (F.y() + M.z() / (2 * a)) / 2,
          (F.y() - M.z() / (2 * a)) / 2, (s + u - v) / 4, (s + u + v) / 4, (s - u + v) / 4, (s - u - v) / 4;
      break;
    }
    default:
      unsupported_type(plate);
  }
  return ch;
}

}  // namespace dynid
