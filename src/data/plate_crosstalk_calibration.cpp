#include "dynid/data/plate_crosstalk_calibration.hpp"

#include <Eigen/SVD>
#include <cmath>
#include <stdexcept>

namespace dynid {
namespace {

/// Below this ratio of the smallest to the largest singular value of the unknowns' columns (each
/// scaled to unit norm) the poses do not tell the plates' crosstalk apart.
constexpr double kSplitConditionFloor = 0.02;

double rms(const VectorX& x) { return x.size() > 0 ? std::sqrt(x.squaredNorm() / static_cast<double>(x.size())) : 0.0; }

/// Least squares A x = b with A's columns scaled to unit norm; the ratio of A's smallest to largest
/// scaled singular value in `condition`.
VectorX scaled_least_squares(const MatrixX& A, const VectorX& b, double& condition) {
  VectorX scale = A.colwise().norm().transpose();
  for (Eigen::Index c = 0; c < scale.size(); ++c)
    if (!(scale[c] > 0.0)) scale[c] = 1.0;
  const MatrixX As = A * scale.cwiseInverse().asDiagonal();
  const Eigen::JacobiSVD<MatrixX> svd(As, Eigen::ComputeThinU | Eigen::ComputeThinV);
  const VectorX& s = svd.singularValues();
  condition = s.size() > 0 && s[0] > 0.0 ? s[s.size() - 1] / s[0] : 0.0;
  return svd.solve(b).cwiseQuotient(scale);
}

}  // namespace

PlateCrosstalkCalibration calibrate_plate_crosstalk(const LabRecording& rec,
                                                    const std::vector<std::pair<double, double>>& spans) {
  const std::string& data = rec.dataset.directory;
  const Eigen::Index plates = static_cast<Eigen::Index>(rec.dataset.force_plates.size());
  if (plates == 0 || rec.plate_time.empty())
    throw std::runtime_error(data + ": plate calibration needs a plates stream and its force_plates in dataset.json");
  const Eigen::Index poses = static_cast<Eigen::Index>(spans.size());
  // Each pose: the plates' mean vertical force, the summed horizontal forces, the mean time.
  MatrixX fz(poses, plates);
  MatrixX horizontal(poses, 2);
  VectorX time(poses);
  for (Eigen::Index k = 0; k < poses; ++k) {
    const auto [start, end] = spans[static_cast<std::size_t>(k)];
    VectorX sum = VectorX::Zero(6 * plates);
    double t_sum = 0.0;
    int n = 0;
    for (std::size_t i = 0; i < rec.plate_time.size(); ++i)
      if (rec.plate_time[i] >= start && rec.plate_time[i] <= end) {
        sum += rec.plate_wrench.col(static_cast<Eigen::Index>(i));
        t_sum += rec.plate_time[i];
        ++n;
      }
    if (n == 0)
      throw std::runtime_error(data + ": no plate sample between " + std::to_string(start) + " and " +
                               std::to_string(end) + " s (plate calibration)");
    sum /= n;
    time[k] = t_sum / n;
    horizontal.row(k).setZero();
    for (Eigen::Index p = 0; p < plates; ++p) {
      fz(k, p) = sum[6 * p + 2];
      horizontal(k, 0) += sum[6 * p];
      horizontal(k, 1) += sum[6 * p + 1];
    }
  }
  if (!(fz.cwiseAbs().maxCoeff() > 1.0))
    throw std::runtime_error(data + ": the plates carry no vertical load during the poses (plate calibration)");

  PlateCrosstalkCalibration out;
  out.poses = static_cast<int>(poses);
  for (const ForcePlateInfo& p : rec.dataset.force_plates) out.plates.push_back(p.name);
  // Unknowns per horizontal axis: a crosstalk per plate and the summed drift rate.
  if (poses < plates + 3)
    throw std::runtime_error(data + ": " + std::to_string(poses) + " static poses are too few to calibrate " +
                             std::to_string(plates) + " plates' crosstalk (need " + std::to_string(plates + 3) + ")");
  MatrixX A(poses, plates + 1);
  A << fz, time;
  double condition = 0.0;
  MatrixX x(plates + 1, 2);
  for (int h = 0; h < 2; ++h) x.col(h) = scaled_least_squares(A, horizontal.col(h), condition);
  out.per_plate = plates == 1 || condition >= kSplitConditionFloor;
  if (!out.per_plate) {  // one crosstalk for every plate: the summed vertical force carries it
    MatrixX common(poses, 2);
    common << fz.rowwise().sum(), time;
    for (int h = 0; h < 2; ++h) {
      const VectorX y = scaled_least_squares(common, horizontal.col(h), condition);
      x.col(h).head(plates).setConstant(y[0]);
      x(plates, h) = y[1];
    }
  }
  for (Eigen::Index p = 0; p < plates; ++p) out.crosstalk.emplace_back(x(p, 0), x(p, 1));
  out.drift_n_per_s = Eigen::Vector2d(x(plates, 0), x(plates, 1));
  for (int h = 0; h < 2; ++h) {
    out.rms_before_n[h] = rms(horizontal.col(h));
    out.rms_after_n[h] = rms(horizontal.col(h) - A * x.col(h));
  }
  return out;
}

void remove_plate_crosstalk(const PlateCrosstalkCalibration& calibration, LabRecording& rec) {
  const std::size_t plates = rec.dataset.force_plates.size();
  if (plates != calibration.plates.size())
    throw std::runtime_error(rec.dataset.directory + ": " + std::to_string(plates) +
                             " force plates, the plate calibration has " + std::to_string(calibration.plates.size()));
  for (std::size_t p = 0; p < plates; ++p) {
    if (rec.dataset.force_plates[p].name != calibration.plates[p])
      throw std::runtime_error(rec.dataset.directory + ": force plate '" + rec.dataset.force_plates[p].name +
                               "' is not the calibrated plate '" + calibration.plates[p] + "'");
    const Eigen::Index r = 6 * static_cast<Eigen::Index>(p);
    for (int h = 0; h < 2; ++h)
      rec.plate_wrench.row(r + h) -= calibration.crosstalk[p][h] * rec.plate_wrench.row(r + 2);
  }
}

}  // namespace dynid
