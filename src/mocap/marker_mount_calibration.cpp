#include "dynid/mocap/marker_mount_calibration.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <map>
#include <stdexcept>

#include "dynid/dynamics/kinematics.hpp"
#include "dynid/spatial/skew.hpp"

namespace dynid {

std::vector<Vector3> non_rigid_part(const std::vector<ModelMarker>& markers, const std::vector<Vector3>& change,
                                    const std::vector<bool>& valid) {
  std::map<int, std::vector<std::size_t>> by_body;
  for (std::size_t m = 0; m < markers.size(); ++m)
    if (valid[m]) by_body[markers[m].body].push_back(m);
  std::vector<Vector3> out(markers.size(), Vector3::Zero());
  for (const auto& [body, members] : by_body) {
    if (members.size() < 3) continue;
    Vector3 centroid = Vector3::Zero();
    for (std::size_t m : members) centroid += markers[m].offset;
    centroid /= static_cast<double>(members.size());
    // Least squares d_i ~ t + w x p_i = t - [p_i]x w over the body's markers.
    MatrixX A(3 * static_cast<Eigen::Index>(members.size()), 6);
    VectorX d(A.rows());
    for (std::size_t k = 0; k < members.size(); ++k) {
      const Eigen::Index r = 3 * static_cast<Eigen::Index>(k);
      A.block<3, 3>(r, 0).setIdentity();
      A.block<3, 3>(r, 3) = -skew(Vector3(markers[members[k]].offset - centroid));
      d.segment<3>(r) = change[members[k]];
    }
    const VectorX x = A.completeOrthogonalDecomposition().solve(d);
    const VectorX rest = d - A * x;
    for (std::size_t k = 0; k < members.size(); ++k)
      out[members[k]] = rest.segment<3>(3 * static_cast<Eigen::Index>(k));
  }
  return out;
}

namespace {

/// Per marker: its measured positions in its body frame over the frames, averaged over those within
/// kOutlierM of their component-wise median (a frame whose labels were swapped, or a marker knocked,
/// does not drag the mean); the nominal offset for a marker never seen.
constexpr double kOutlierM = 5e-3;

std::vector<Vector3> robust_body_frame_means(const Model& model, const std::vector<ModelMarker>& markers,
                                             const std::vector<Eigen::Matrix3Xd>& measured,
                                             const std::vector<VectorX>& q) {
  std::vector<std::vector<Vector3>> local(markers.size());
  Data data(model);
  for (std::size_t f = 0; f < q.size(); ++f) {
    forward_kinematics(model, data, q[f]);
    for (std::size_t m = 0; m < markers.size(); ++m) {
      const Vector3 y = measured[f].col(static_cast<Eigen::Index>(m));
      if (y.allFinite()) local[m].push_back(data.oMi[static_cast<std::size_t>(markers[m].body)].act_inv(y));
    }
  }
  std::vector<Vector3> out(markers.size());
  for (std::size_t m = 0; m < markers.size(); ++m) {
    if (local[m].empty()) {
      out[m] = markers[m].offset;
      continue;
    }
    Vector3 median;
    for (int k = 0; k < 3; ++k) {
      std::vector<double> c;
      for (const Vector3& p : local[m]) c.push_back(p[k]);
      std::nth_element(c.begin(), c.begin() + static_cast<long>(c.size() / 2), c.end());
      median[k] = c[c.size() / 2];
    }
    Vector3 sum = Vector3::Zero();
    int n = 0;
    for (const Vector3& p : local[m])
      if ((p - median).norm() <= kOutlierM) sum += p, ++n;
    out[m] = n > 0 ? Vector3(sum / n) : median;
  }
  return out;
}

}  // namespace

MarkerMountCalibration calibrate_marker_mounts(MarkerIk& ik, const std::vector<Eigen::Matrix3Xd>& measured,
                                               std::vector<VectorX> start, int rounds) {
  if (measured.size() != start.size())
    throw std::invalid_argument("marker calibration: frames and start configurations differ in count");
  const std::vector<ModelMarker> nominal = ik.markers();
  MarkerMountCalibration out;
  out.q = std::move(start);
  out.calibrated.assign(nominal.size(), false);
  std::vector<int> seen(nominal.size(), 0);
  for (const Eigen::Matrix3Xd& y : measured)
    for (std::size_t m = 0; m < nominal.size(); ++m)
      if (y.col(static_cast<Eigen::Index>(m)).allFinite()) ++seen[m];
  std::map<int, int> per_body;
  for (std::size_t m = 0; m < nominal.size(); ++m)
    if (seen[m] > 0) ++per_body[nominal[m].body];
  for (std::size_t m = 0; m < nominal.size(); ++m) out.calibrated[m] = seen[m] > 0 && per_body[nominal[m].body] >= 3;

  auto solve_all = [&] {
    double sum = 0.0;
    for (std::size_t f = 0; f < measured.size(); ++f) sum += ik.solve(measured[f], out.q[f]).rms;
    return measured.empty() ? 0.0 : sum / static_cast<double>(measured.size());
  };
  out.rms_before = solve_all();
  std::vector<Vector3> offsets(nominal.size());
  for (std::size_t m = 0; m < nominal.size(); ++m) offsets[m] = nominal[m].offset;
  for (int round = 0; round < rounds; ++round) {
    const std::vector<Vector3> mean = robust_body_frame_means(ik.model(), nominal, measured, out.q);
    // The change of this round relative to the nominal layout, its rigid part per body removed.
    std::vector<Vector3> change(nominal.size());
    for (std::size_t m = 0; m < nominal.size(); ++m) change[m] = mean[m] - nominal[m].offset;
    const std::vector<Vector3> kept = non_rigid_part(nominal, change, out.calibrated);
    for (std::size_t m = 0; m < nominal.size(); ++m) offsets[m] = nominal[m].offset + kept[m];
    ik.set_offsets(offsets);
    out.rms_after = solve_all();
    out.rounds = round + 1;
  }
  if (rounds == 0) out.rms_after = out.rms_before;
  out.offsets = offsets;
  out.change.resize(nominal.size());
  for (std::size_t m = 0; m < nominal.size(); ++m) out.change[m] = offsets[m] - nominal[m].offset;
  return out;
}

}  // namespace dynid
