// Feed-forward joint torques of a planned whole-body motion on the nominal model (walk, excite).

#include <array>

#include "dynid/dynamics/rnea.hpp"
#include "dynid/dynamics/whole_body_ik.hpp"
#include "dynid/spatial/explog.hpp"
#include "scenario_run.hpp"

namespace dynid::scenario_detail {

std::vector<VectorX> planned_feedforward(const Model& nominal, const std::vector<VectorX>& q_ref,
                                         const std::vector<double>& left_share, int left_body, int right_body,
                                         double period, const std::array<Vector3, 2>* sole_points) {
  Data data(nominal);
  const int n = static_cast<int>(q_ref.size());
  // Central differences over at least 8 ms: the IK's convergence noise, divided by a short period
  // squared, would swamp the accelerations.
  const int k = std::max(1, static_cast<int>(std::ceil(0.008 / period - 1e-9)));
  const double h = k * period;
  auto at = [&](int i) -> const VectorX& { return q_ref[static_cast<std::size_t>(std::clamp(i, 0, n - 1))]; };
  auto velocity = [&](const VectorX& qa, const VectorX& qb, double span) {
    VectorX out = VectorX::Zero(nominal.nv);
    const Eigen::Quaterniond ra(qa[6], qa[3], qa[4], qa[5]), rb(qb[6], qb[3], qb[4], qb[5]);
    const Matrix3 Ra = ra.toRotationMatrix(), Rb = rb.toRotationMatrix();
    out.head<3>() = Ra.transpose() * (qb.head<3>() - qa.head<3>()) / span;  // base frame
    out.segment<3>(3) = log3(Ra.transpose() * Rb) / span;
    for (std::size_t j = 1; j < nominal.bodies.size(); ++j) {
      const Body& b = nominal.bodies[j];
      if (b.joint_type != JointType::FreeFlyer) out[b.idx_v] = (qb[b.idx_q] - qa[b.idx_q]) / span;
    }
    return out;
  };
  std::vector<Force> f_ext(nominal.bodies.size(), Force::Zero());
  std::vector<VectorX> tau_ff(static_cast<std::size_t>(n), VectorX::Zero(nominal.nv));
  for (int i = 0; i < n; ++i) {
    const VectorX& q = q_ref[static_cast<std::size_t>(i)];
    const VectorX v = velocity(at(i - k), at(i + k), 2.0 * h);
    const VectorX a = (velocity(q, at(i + k), h) - velocity(at(i - k), q, h)) / h;
    const VectorX base = rnea(nominal, data, q, v, a).head<6>();
    // The wrench the ground must apply, at the base: move it to the feet in their shares.
    const Force ground_world = data.oMi[1].act(Force(base.head<3>(), base.tail<3>()));
    const double share = left_share[static_cast<std::size_t>(i)];
    Force left = ground_world * share, right = ground_world * (1.0 - share);
    if (sole_points && ground_world.linear.z() > 1e-9) {
      // Each foot's share acts at its own sole point (moved off the line between them as far as the
      // ZMP is), the free moment shared alike: the feet stay loaded about their centres.
      const Vector3& f = ground_world.linear;
      const Vector3& moment = ground_world.angular;
      const Vector3 &cl = (*sole_points)[0], &cr = (*sole_points)[1];
      const double zg = 0.5 * (cl.z() + cr.z());
      const Vector3 zmp((zg * f.x() - moment.y()) / f.z(), (moment.x() + zg * f.y()) / f.z(), zg);
      const Vector3 off = zmp - (share * cl + (1.0 - share) * cr);
      const Vector3 free = moment - zmp.cross(f);
      left = Force(share * f, (cl + off).cross(share * f) + share * free);
      right = Force((1.0 - share) * f, (cr + off).cross((1.0 - share) * f) + (1.0 - share) * free);
    }
    f_ext[static_cast<std::size_t>(left_body)] = world_wrench_to_body(data, left_body, left);
    f_ext[static_cast<std::size_t>(right_body)] = world_wrench_to_body(data, right_body, right);
    VectorX& tau = tau_ff[static_cast<std::size_t>(i)];
    tau = rnea(nominal, data, q, v, a, f_ext);
    tau.head<6>().setZero();
  }
  return tau_ff;
}

}  // namespace dynid::scenario_detail
