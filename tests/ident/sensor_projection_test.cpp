// Partial force sensing (paper 004 III-C): after projecting out the unmeasured torques and contact
// wrenches, the measured ones explain Y pi exactly; sets that lose the base are refused.

#include "dynid/ident/sensor_projection.hpp"

#include <gtest/gtest.h>

#include <random>

#include "dynid/dynamics/jacobian.hpp"
#include "dynid/dynamics/regressor.hpp"
#include "dynid/dynamics/rnea.hpp"
#include "dynid/dynamics/sole_contacts.hpp"
#include "dynid/ident/base_parameters.hpp"
#include "dynid/ident/streaming_least_squares.hpp"
#include "dynid/model/random_state.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

/// A physically consistent sample in double support: random motion, random left-sole wrench, the
/// right-sole wrench that balances the base (base rows of Y pi = sum J^T lambda), joint torques the rest.
struct Sample {
  VectorX q, v, a, tau;         // tau: generalized forces of the joints (base rows 0)
  std::vector<Vector6> lambda;  // per active contact, contact frame
};

Sample double_support_sample(const Model& model, Data& data, const std::vector<int>& contacts, std::mt19937& rng) {
  const auto s = random_state(model, rng);
  Sample out{s.q, s.v, s.a, VectorX(), {}};
  const VectorX f = rnea(model, data, s.q, s.v, s.a);  // = Y pi
  std::vector<Matrix6X> J;
  for (int c : contacts) {
    J.emplace_back(6, model.nv);
    frame_jacobian(model, data, c, ReferenceFrame::Local, J.back());
  }
  std::normal_distribution<double> g(0.0, 50.0);
  Vector6 l0;
  for (int k = 0; k < 6; ++k) l0[k] = g(rng);
  // Base rows: f_b = J0_b^T l0 + J1_b^T l1  ->  solve for l1.
  const Matrix6 J1b = J[1].leftCols<6>();
  const Vector6 l1 = J1b.transpose().fullPivLu().solve(f.head<6>() - J[0].leftCols<6>().transpose() * l0);
  out.lambda = {l0, l1};
  out.tau = f - J[0].transpose() * l0 - J[1].transpose() * l1;
  EXPECT_LT(out.tau.head<6>().norm(), 1e-8 * (1 + f.norm()));
  return out;
}

VectorX measured_values(const Model& model, const SensorProjection& p, const Sample& s,
                        const std::vector<int>& contacts) {
  VectorX m(static_cast<Eigen::Index>(p.measured_names.size()));
  for (std::size_t k = 0; k < p.measured_names.size(); ++k) {
    const std::string& n = p.measured_names[k];
    const auto dot = n.rfind('.');
    bool done = false;
    if (dot != std::string::npos) {
      static const char* const kAxes[6] = {"fx", "fy", "fz", "tx", "ty", "tz"};
      for (std::size_t c = 0; c < contacts.size() && !done; ++c)
        if (model.frames[static_cast<std::size_t>(contacts[c])].name == n.substr(0, dot))
          for (int a = 0; a < 6; ++a)
            if (n.substr(dot + 1) == kAxes[a]) {
              m[static_cast<Eigen::Index>(k)] = s.lambda[c][a];
              done = true;
            }
    }
    if (!done)
      m[static_cast<Eigen::Index>(k)] = s.tau[model.bodies[static_cast<std::size_t>(model.joint_index(n))].idx_v];
  }
  return m;
}

class SensorProjectionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    robot = test::bundled_robot("biped16");
    const auto [l, r] = left_right_soles(robot.model, *robot.sidecar);
    contacts = {robot.model.frame_index(robot.sidecar->contacts[static_cast<std::size_t>(l)].name),
                robot.model.frame_index(robot.sidecar->contacts[static_cast<std::size_t>(r)].name)};
  }
  Robot robot;
  std::vector<int> contacts;
};

TEST_F(SensorProjectionTest, MeasuredForcesExplainTheProjectedDynamics) {
  const Model& model = robot.model;
  Data data(model);
  std::mt19937 rng(3);
  // One leg's torque sensors plus both feet: the partial set.
  std::string left_leg;
  for (int b = model.frames[static_cast<std::size_t>(contacts[0])].body; b > 1;
       b = model.bodies[static_cast<std::size_t>(b)].parent)
    left_leg += model.bodies[static_cast<std::size_t>(b)].joint_name + ",";
  const std::string feet = model.frames[static_cast<std::size_t>(contacts[0])].name + "," +
                           model.frames[static_cast<std::size_t>(contacts[1])].name;
  for (const std::string& spec : std::vector<std::string>{"full", "contact", "joints", left_leg + feet}) {
    const SensorSet set = parse_sensor_set(model, *robot.sidecar, spec);
    for (int k = 0; k < 5; ++k) {
      const Sample s = double_support_sample(model, data, contacts, rng);
      const SensorProjection p = project_sensors(model, data, s.q, set, contacts);
      EXPECT_EQ(p.base_rank, 6) << spec;
      const VectorX lhs =
          p.projector * joint_torque_regressor(model, data, s.q, s.v, s.a) * model.inertial_parameters();
      const VectorX rhs = p.projector * p.measured_map * measured_values(model, p, s, contacts);
      EXPECT_LT((lhs - rhs).norm(), 1e-9 * (1 + lhs.norm())) << spec;
      EXPECT_LT(
          (p.projector * p.projector.transpose() - MatrixX::Identity(p.projector.rows(), p.projector.rows())).norm(),
          1e-10);
    }
  }
}

TEST_F(SensorProjectionTest, InsufficientSetsLoseTheBase) {
  const Model& model = robot.model;
  Data data(model);
  // One foot's F/T and nothing else in double support: the other foot's wrench and all joint
  // torques are unknown, and they can explain any base motion.
  const SensorSet one_foot =
      parse_sensor_set(model, *robot.sidecar, model.frames[static_cast<std::size_t>(contacts[0])].name);
  const SensorProjection p = project_sensors(model, data, model.neutral_configuration(), one_foot, contacts);
  EXPECT_LT(p.base_rank, 6);
  EXPECT_THROW(parse_sensor_set(model, *robot.sidecar, "l_sole,elbow_of_nobody"), std::invalid_argument);
}

TEST_F(SensorProjectionTest, PartialSetIdentifiesTheFullSensingBaseParameters) {
  // Noise-free data, feet F/T + torque sensors of one leg: the same base parameters as full sensing.
  const Model& model = robot.model;
  Data data(model);
  std::mt19937 rng(8);
  const BaseParameters base = compute_base_parameters(model);
  std::string spec = model.frames[static_cast<std::size_t>(contacts[0])].name + "," +
                     model.frames[static_cast<std::size_t>(contacts[1])].name;
  for (int b = model.frames[static_cast<std::size_t>(contacts[1])].body; b > 1;
       b = model.bodies[static_cast<std::size_t>(b)].parent)
    spec += "," + model.bodies[static_cast<std::size_t>(b)].joint_name;
  const SensorSet set = parse_sensor_set(model, *robot.sidecar, spec);
  StreamingLeastSquares ls(base.num_base());
  for (int k = 0; k < 300; ++k) {
    const Sample s = double_support_sample(model, data, contacts, rng);
    const SensorProjection p = project_sensors(model, data, s.q, set, contacts);
    const MatrixX Y = joint_torque_regressor(model, data, s.q, s.v, s.a);
    ls.add(p.projector * base_regressor(base, Y),
           p.projector * p.measured_map * measured_values(model, p, s, contacts));
  }
  const VectorX truth = base_parameter_values(base, model.inertial_parameters());
  const VectorX x = ls.solve().x;
  EXPECT_LT((x - truth).cwiseAbs().maxCoeff() / truth.cwiseAbs().maxCoeff(), 1e-6);
}

}  // namespace
}  // namespace dynid
