// `--perturb geometry` (sim/geometry_perturbation.hpp): the tolerance classes are ISO 2768-1 class
// m's table, the true joints sit where MuJoCo's compiled model puts them, off the nominal ones by
// errors spread over the documented tolerance band (neither zero nor beyond it), and the true
// robot's feet, by MuJoCo's own kinematics, are off dynid's nominal kinematics by less than the
// stacked tolerances allow but by more than nothing; a URDF written from the perturbed model reads
// back as that model. Also the `--perturb` list's parsing.

#include "dynid/sim/geometry_perturbation.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "dynid/dynamics/kinematics.hpp"
#include "dynid/dynamics/sole_contacts.hpp"
#include "dynid/model/topology.hpp"
#include "dynid/model/urdf_reader.hpp"
#include "dynid/model/urdf_writer.hpp"
#include "dynid/sim/mjcf_export.hpp"
#include "dynid/sim/perturbations.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

constexpr double kDeg = std::numbers::pi / 180.0;

int body_of_joint(const Model& model, const std::string& joint) {
  for (std::size_t b = 1; b < model.bodies.size(); ++b)
    if (model.bodies[b].joint_name == joint) return static_cast<int>(b);
  return -1;
}

TEST(GeometryPerturbation, TolerancesAreIso2768ClassM) {
  // ISO 2768-1 table 1 (linear) and table 3 (angular), tolerance class m.
  EXPECT_DOUBLE_EQ(iso2768m_linear_tolerance(0.110), 0.3e-3);               // 30-120 mm
  EXPECT_DOUBLE_EQ(iso2768m_linear_tolerance(0.025), 0.2e-3);               // 6-30 mm
  EXPECT_DOUBLE_EQ(iso2768m_linear_tolerance(0.200), 0.5e-3);               // 120-400 mm
  EXPECT_DOUBLE_EQ(iso2768m_linear_tolerance(0.600), 0.8e-3);               // 400-1000 mm
  EXPECT_DOUBLE_EQ(iso2768m_angular_tolerance(0.110), 20.0 / 60.0 * kDeg);  // 50-120 mm: 20'
  EXPECT_DOUBLE_EQ(iso2768m_angular_tolerance(0.030), 30.0 / 60.0 * kDeg);  // 10-50 mm: 30'
  EXPECT_DOUBLE_EQ(iso2768m_angular_tolerance(0.300), 10.0 / 60.0 * kDeg);  // 120-400 mm: 10'
  // Coincident axes sit in a part at least a servo horn's bolt circle (20 mm) wide.
  EXPECT_DOUBLE_EQ(iso2768m_linear_tolerance(0.0), 0.2e-3);
  EXPECT_DOUBLE_EQ(iso2768m_angular_tolerance(0.0), 30.0 / 60.0 * kDeg);
}

TEST(GeometryPerturbation, TrueJointsAreWhereMujocoPutsThemWithinTheToleranceBand) {
  double sum_origin = 0.0, sum_tilt = 0.0;
  int origins = 0, tilts = 0;
  for (const std::string robot : {"kid_humanoid", "adult_humanoid"}) {
    const Model nominal = test::bundled_robot(robot).model;
    Model truth = nominal;
    const std::vector<JointGeometryError> errors = perturb_geometry(truth, 1);
    const test::MjModelPtr m = test::load_mujoco(to_mjcf(truth));
    int checked = 0;
    for (const JointGeometryError& e : errors) {
      const int b = body_of_joint(nominal, e.joint);
      ASSERT_GT(b, 0) << e.joint;
      const Body& nb = nominal.bodies[static_cast<std::size_t>(b)];
      const int mb = mj_name2id(m.get(), mjOBJ_BODY, nb.name.c_str());
      const int mj = mj_name2id(m.get(), mjOBJ_JOINT, e.joint.c_str());
      ASSERT_GE(mb, 0);
      ASSERT_GE(mj, 0);
      // MuJoCo's compiled body position and joint axis (body frame) against the nominal ones.
      const Vector3 pos(m->body_pos[3 * mb], m->body_pos[3 * mb + 1], m->body_pos[3 * mb + 2]);
      const Vector3 axis(m->jnt_axis[3 * mj], m->jnt_axis[3 * mj + 1], m->jnt_axis[3 * mj + 2]);
      const Vector3 offset = pos - nb.joint_placement.translation;
      EXPECT_LT((offset - e.origin_error).norm(), 1e-12) << e.joint;
      EXPECT_LE(offset.cwiseAbs().maxCoeff(), e.origin_tolerance_m * (1.0 + 1e-9)) << e.joint;
      const double tilt = std::acos(std::clamp(axis.normalized().dot(nb.axis.normalized()), -1.0, 1.0));
      EXPECT_NEAR(tilt, e.axis_tilt_rad, 1e-6) << e.joint;
      EXPECT_LE(tilt, e.axis_tolerance_rad + 1e-6) << e.joint;
      EXPECT_DOUBLE_EQ(e.origin_tolerance_m, iso2768m_linear_tolerance(nb.joint_placement.translation.norm()));
      for (int k = 0; k < 3; ++k) sum_origin += std::abs(offset[k]) / e.origin_tolerance_m;
      origins += 3;
      sum_tilt += tilt / e.axis_tolerance_rad;
      ++tilts;
      ++checked;
    }
    EXPECT_EQ(checked, nominal.nv - 6) << robot;  // every joint of the floating-base robots
  }
  // Uniform within the band: the mean of |error| / limit is 1/2 (0.06 is more than 3 standard
  // deviations of the mean over these ~140 components and ~50 axes).
  EXPECT_NEAR(sum_origin / origins, 0.5, 0.06);
  EXPECT_NEAR(sum_tilt / tilts, 0.5, 0.1);
}

TEST(GeometryPerturbation, TrueFeetAreOffTheNominalKinematicsByLessThanTheStackedTolerances) {
  const Robot robot = test::bundled_robot("kid_humanoid");
  const Model& nominal = robot.model;
  Model truth = nominal;
  const std::vector<JointGeometryError> errors = perturb_geometry(truth, 1);
  const test::MjModelPtr m = test::load_mujoco(to_mjcf(truth));
  const test::MjDataPtr d(mj_makeData(m.get()));
  // The walk's crouched posture, base at the origin.
  VectorX q = nominal.neutral_configuration();
  for (std::size_t i = 1; i < nominal.bodies.size(); ++i) {
    const Body& b = nominal.bodies[i];
    if (b.joint_type == JointType::FreeFlyer) continue;
    const double value = b.joint_name.find("knee") != std::string::npos          ? 1.2
                         : b.joint_name.find("hip_pitch") != std::string::npos   ? -0.6
                         : b.joint_name.find("ankle_pitch") != std::string::npos ? -0.6
                                                                                 : 0.05;
    q[b.idx_q] = std::clamp(value, b.limits.lower, b.limits.upper);
    const int j = mj_name2id(m.get(), mjOBJ_JOINT, b.joint_name.c_str());
    ASSERT_GE(j, 0);
    d->qpos[m->jnt_qposadr[j]] = q[b.idx_q];
  }
  d->qpos[3] = 1.0;  // free joint: position 0, quaternion w = 1 (MuJoCo's w x y z)
  mj_kinematics(m.get(), d.get());
  Data data(nominal), true_data(truth);
  forward_kinematics(nominal, data, q);
  forward_kinematics(truth, true_data, q);
  const auto [left, right] = left_right_soles(nominal, *robot.sidecar);
  for (int c : {left, right}) {
    const int foot = nominal
                         .frames[static_cast<std::size_t>(
                             nominal.frame_index(robot.sidecar->contacts[static_cast<std::size_t>(c)].name))]
                         .body;
    const int mb = mj_name2id(m.get(), mjOBJ_BODY, nominal.bodies[static_cast<std::size_t>(foot)].name.c_str());
    const Vector3 true_foot(d->xpos[3 * mb], d->xpos[3 * mb + 1], d->xpos[3 * mb + 2]);
    const Vector3 nominal_foot = data.oMi[static_cast<std::size_t>(foot)].translation;
    // dynid's kinematics of the perturbed model is MuJoCo's: the simulated robot is that model.
    EXPECT_LT((true_data.oMi[static_cast<std::size_t>(foot)].translation - true_foot).norm(), 1e-12);
    // Each joint on the chain moves the foot by at most its origin error (sqrt(3) limits) plus twice
    // its axis tilt times its distance to the foot (a tilted axis turns the child by at most 2 tilts).
    double bound = 0.0;
    for (int b = foot; b > 1; b = nominal.bodies[static_cast<std::size_t>(b)].parent)
      for (const JointGeometryError& e : errors)
        if (e.joint == nominal.bodies[static_cast<std::size_t>(b)].joint_name)
          bound +=
              std::sqrt(3.0) * e.origin_tolerance_m +
              2.0 * e.axis_tolerance_rad * (nominal_foot - data.oMi[static_cast<std::size_t>(b)].translation).norm();
    const double off = (true_foot - nominal_foot).norm();
    // Seed 1: 0.65 and 0.45 mm against a bound of 12.9 mm (the bound takes every tilt at its limit
    // and at right angles to the lever).
    EXPECT_GT(off, 0.1e-3) << "the perturbation is present";
    EXPECT_LT(off, bound) << "within the stacked tolerances";
  }
}

TEST(GeometryPerturbation, WrittenUrdfIsThePerturbedModel) {
  // Random trees with fixed links and rotated joint origins: a joint whose parent link is merged
  // into a body by a rotated fixed joint has its URDF origin in that link's frame, not the body's.
  for (unsigned seed = 1; seed <= 4; ++seed) {
    const std::string path = test::write_temp_file(test::random_tree_urdf(12, seed), ".urdf");
    const Model nominal = read_urdf_file(path);
    Model truth = nominal;
    const std::vector<JointGeometryError> errors = perturb_geometry(truth, seed);
    ASSERT_FALSE(errors.empty());
    const UrdfWriteReport written = write_urdf_inertials(truth, path);
    const Model read = read_urdf_string(written.urdf);
    ASSERT_EQ(read.bodies.size(), truth.bodies.size());
    for (std::size_t b = 1; b < truth.bodies.size(); ++b) {
      const Body& t = truth.bodies[b];
      const Body& r = read.bodies[static_cast<std::size_t>(read.body_index(t.name))];
      EXPECT_LT((r.joint_placement.translation - t.joint_placement.translation).norm(), 1e-12) << t.joint_name;
      EXPECT_LT((r.joint_placement.rotation - t.joint_placement.rotation).norm(), 1e-12) << t.joint_name;
      EXPECT_LT((r.axis - t.axis).norm(), 1e-12) << t.joint_name;
    }
    // The nominal model written back changes no joint.
    for (const std::string& change : write_urdf_inertials(nominal, path).changes)
      EXPECT_EQ(change.find("joint"), std::string::npos) << change;
  }
}

TEST(Perturbations, ParsesNoneAllAndListsAndRefusesWhatIsUnknown) {
  EXPECT_TRUE(parse_perturbations("none").empty());
  EXPECT_EQ(parse_perturbations("all"), perturbation_names());
  EXPECT_EQ(parse_perturbations("geometry"), std::vector<std::string>{"geometry"});
  auto message = [](const std::string& text) {
    try {
      parse_perturbations(text);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(parse_perturbations("sensor-bus,imu"), (std::vector<std::string>{"imu", "sensor-bus"}));
  EXPECT_NE(message("sensor-buss").find("unknown --perturb 'sensor-buss'"), std::string::npos);
  EXPECT_NE(message("geomtery").find("unknown --perturb 'geomtery'"), std::string::npos) << message("geomtery");
  EXPECT_NE(message("geometry,geometry").find("twice"), std::string::npos);
  EXPECT_NE(message("").find("names no perturbation"), std::string::npos) << message("");
}

}  // namespace
}  // namespace dynid
