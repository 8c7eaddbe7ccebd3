// Joint friction and armature identified with the inertial parameters on a fixed-base arm
// (--source sensors / truth, --friction viscous,coulomb --armature). The data: a 4-joint arm on a
// Fourier excitation, its joint torques from dynid's RNEA of a true model (inertias 10-40 % off
// the nominal URDF) plus known viscous, Coulomb (tanh, the documented smoothing) and armature
// torques, as a motor-side torque measurement reads them. The identification sees them through
// the regressor (a second formulation of the dynamics) and the friction columns; the truth comes
// from the true URDF and its sidecar, not from the code under test.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "dynid/dynamics/rnea.hpp"
#include "dynid/ident/joint_friction.hpp"
#include "dynid/io/csv_stream.hpp"
#include "dynid/model/robot.hpp"
#include "dynid/model/sidecar_reader.hpp"
#include "dynid/model/urdf_writer.hpp"
#include "dynid/pipeline/inertial_identification.hpp"
#include "dynid/sim/mjcf_export.hpp"
#include "support/scratch_files.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

constexpr const char* kArmUrdf = R"(<?xml version="1.0"?>
<robot name="arm4">
  <link name="world"/>
  <joint name="fix" type="fixed"><parent link="world"/><child link="base"/></joint>
  <link name="base"><inertial><mass value="5"/><inertia ixx="0.05" iyy="0.05" izz="0.05" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="shoulder_yaw" type="revolute"><parent link="base"/><child link="upper0"/>
    <origin xyz="0 0 0.1"/><axis xyz="0 0 1"/><limit lower="-3" upper="3" effort="80" velocity="3"/></joint>
  <link name="upper0"><inertial><origin xyz="0.01 0.02 0.08"/><mass value="2.5"/>
    <inertia ixx="0.02" iyy="0.025" izz="0.012" ixy="0.001" ixz="-0.002" iyz="0.001"/></inertial></link>
  <joint name="shoulder_pitch" type="revolute"><parent link="upper0"/><child link="upper1"/>
    <origin xyz="0 0 0.15"/><axis xyz="0 1 0"/><limit lower="-2" upper="2" effort="80" velocity="3"/></joint>
  <link name="upper1"><inertial><origin xyz="0.02 -0.01 0.15"/><mass value="2.0"/>
    <inertia ixx="0.03" iyy="0.032" izz="0.006" ixy="0.0005" ixz="0.001" iyz="-0.001"/></inertial></link>
  <joint name="elbow" type="revolute"><parent link="upper1"/><child link="fore"/>
    <origin xyz="0 0.05 0.3"/><axis xyz="0 1 0"/><limit lower="-2.5" upper="2.5" effort="40" velocity="3"/></joint>
  <link name="fore"><inertial><origin xyz="-0.01 0.01 0.12"/><mass value="1.2"/>
    <inertia ixx="0.012" iyy="0.013" izz="0.003" ixy="0.0002" ixz="-0.0004" iyz="0.0003"/></inertial></link>
  <joint name="wrist" type="revolute"><parent link="fore"/><child link="hand"/>
    <origin xyz="0 0 0.25"/><axis xyz="0 0 1"/><limit lower="-3" upper="3" effort="10" velocity="4"/></joint>
  <link name="hand"><inertial><origin xyz="0.03 0.01 0.05"/><mass value="0.6"/>
    <inertia ixx="0.002" iyy="0.0025" izz="0.0015" ixy="0.0001" ixz="0.0002" iyz="-0.0001"/></inertial></link>
</robot>
)";

/// True friction per joint (viscous [N m s/rad], Coulomb [N m], armature [kg m^2]).
struct TrueFriction {
  double viscous, coulomb, armature;
};
const TrueFriction kFriction[4] = {{0.8, 1.2, 0.30}, {1.1, 1.5, 0.25}, {0.6, 0.9, 0.12}, {0.15, 0.25, 0.02}};

struct ArmData {
  std::string model, dir;
};

/// The arm (URDF + sidecar) and a 24 s Fourier excitation at 1 kHz: truth, encoders and torques
/// streams, truth.urdf and truth.yaml (its friction). `noisy`: encoders of 2^18 counts per turn and
/// torques with 0.15 N m white noise; otherwise exact and declared noise-free. `mujoco`: the true
/// arm exported to MuJoCo with its damping and armature (no Coulomb friction: MuJoCo's is a
/// constraint, not this model), the motor torques of the excitation applied, and the truth
/// stream's acceleration MuJoCo's own forward dynamics (mj_forward) at each state.
/// `negative_viscous_joint` >= 0: that joint's torques carry minus its viscous friction (a term the
/// data ask to be negative; truth.yaml still states the positive one).
/// `coulomb_levels` non-empty: per joint the Coulomb level while it moves positive and negative
/// (f+ max(tanh, 0) + f- min(tanh, 0)) instead of the symmetric one; truth.yaml then states no
/// Coulomb friction (the sidecar has one level).
ArmData write_arm_data(const std::string& name, bool noisy, bool mujoco = false, int negative_viscous_joint = -1,
                       const std::vector<std::pair<double, double>>& coulomb_levels = {}) {
  namespace fs = std::filesystem;
  ArmData out;
  const std::string root = test::fresh_dir("joint_friction", name);
  fs::create_directories(root + "/data");
  out.model = root + "/arm4.urdf";
  std::ofstream(out.model) << kArmUrdf;
  std::ofstream(root + "/arm4.yaml")
      << "robot: arm4\nbase_link: base\nfloating_base: false\njoint_torque_sensors: all\n";
  const Robot robot = load_robot(out.model);
  const Model& nominal = robot.model;
  // The true model: every link's mass, COM and inertia off the CAD one (a real body still).
  Model truth = nominal;
  for (std::size_t b = 1; b < truth.bodies.size(); ++b) {
    const Inertia& in = truth.bodies[b].inertia;
    const double s = 1.1 + 0.1 * static_cast<double>(b % 3);
    truth.bodies[b].inertia =
        Inertia::from_com(in.mass * s, in.com() + Vector3(0.01, -0.015, 0.02), in.inertia_com() * (s + 0.1));
  }
  out.dir = root + "/data";
  write_urdf_file(truth, out.model, out.dir + "/truth.urdf");
  {
    std::ofstream y(out.dir + "/truth.yaml");
    y << "robot: arm4\nbase_link: base\nfloating_base: false\njoint_torque_sensors: all\nactuators:\n";
    const char* joints[4] = {"shoulder_yaw", "shoulder_pitch", "elbow", "wrist"};
    for (int j = 0; j < 4; ++j) {
      y << "  - joint: " << joints[j] << "\n    damping: " << kFriction[j].viscous
        << "\n    armature: " << kFriction[j].armature << "\n";
      if (!mujoco && coulomb_levels.empty()) y << "    coulomb_friction: " << kFriction[j].coulomb << "\n";
    }
  }
  test::MjModelPtr mj_model;
  test::MjDataPtr mj_data;
  if (mujoco) {
    MjcfOptions mjcf;
    mjcf.joint_limits = false;
    mjcf.armature.assign(truth.bodies.size(), 0.0);
    mjcf.damping.assign(truth.bodies.size(), 0.0);
    for (std::size_t b = 1; b < truth.bodies.size(); ++b) {
      mjcf.armature[b] = kFriction[truth.bodies[b].idx_v].armature;
      mjcf.damping[b] = kFriction[truth.bodies[b].idx_v].viscous;
    }
    mj_model = test::load_mujoco(to_mjcf(truth, mjcf));
    mj_data.reset(mj_makeData(mj_model.get()));
  }
  const double rate = 1000.0, duration = 24.0, vs = 0.02;
  std::vector<Channel> truth_channels, enc, tau;
  const std::vector<std::string> names = nominal.velocity_names();
  for (const std::string& n : names) truth_channels.push_back({"q." + n, "rad"});
  for (const std::string& n : names) truth_channels.push_back({"v." + n, "rad/s"});
  for (const std::string& n : names) truth_channels.push_back({"a." + n, "rad/s^2"});
  for (const std::string& n : names) truth_channels.push_back({"tau." + n, "N m"});
  for (const std::string& n : names) enc.push_back({"q." + n, "rad"});
  for (const std::string& n : names) tau.push_back({"tau." + n, "N m"});
  CsvStreamWriter truth_csv(out.dir + "/truth.csv", truth_channels, 15), enc_csv(out.dir + "/encoders.csv", enc, 12),
      tau_csv(out.dir + "/torques.csv", tau, 12);
  Data data(truth);
  std::mt19937 rng(3);
  std::normal_distribution<double> gauss(0.0, 1.0);
  const double count = 2.0 * M_PI / 262144.0;
  VectorX q(4), v(4), a(4);
  std::vector<double> row, enc_row, tau_row;
  for (long k = 0; k <= static_cast<long>(duration * rate); ++k) {
    const double t = static_cast<double>(k) / rate;
    // Five harmonics of 0.1 Hz .. 0.5 Hz per joint, amplitudes within the limits.
    for (int j = 0; j < 4; ++j) {
      q[j] = v[j] = a[j] = 0.0;
      for (int h = 1; h <= 5; ++h) {
        const double w = 2.0 * M_PI * 0.1 * h * (1.0 + 0.13 * j), amp = 0.35 / h, ph = 0.9 * j + 1.7 * h;
        q[j] += amp * std::sin(w * t + ph);
        v[j] += amp * w * std::cos(w * t + ph);
        a[j] -= amp * w * w * std::sin(w * t + ph);
      }
    }
    VectorX tau_motor = rnea(truth, data, q, v, a);
    for (int j = 0; j < 4; ++j) {
      const double sign = std::tanh(v[j] / vs);
      const double coulomb = mujoco ? 0.0
                             : coulomb_levels.empty()
                                 ? kFriction[j].coulomb * sign
                                 : (sign > 0.0 ? coulomb_levels[static_cast<std::size_t>(j)].first
                                               : coulomb_levels[static_cast<std::size_t>(j)].second) *
                                       sign;
      tau_motor[j] += (j == negative_viscous_joint ? -1.0 : 1.0) * kFriction[j].viscous * v[j] + coulomb +
                      kFriction[j].armature * a[j];
    }
    if (mujoco) {  // the same torques through MuJoCo's dynamics: its acceleration is the data's
      for (std::size_t b = 1; b < truth.bodies.size(); ++b) {
        const int id = mj_name2id(mj_model.get(), mjOBJ_JOINT, truth.bodies[b].joint_name.c_str());
        const int i = truth.bodies[b].idx_v;
        mj_data->qpos[mj_model->jnt_qposadr[id]] = q[i];
        mj_data->qvel[mj_model->jnt_dofadr[id]] = v[i];
        mj_data->qfrc_applied[mj_model->jnt_dofadr[id]] = tau_motor[i];
      }
      mj_forward(mj_model.get(), mj_data.get());
      for (std::size_t b = 1; b < truth.bodies.size(); ++b) {
        const int id = mj_name2id(mj_model.get(), mjOBJ_JOINT, truth.bodies[b].joint_name.c_str());
        a[truth.bodies[b].idx_v] = mj_data->qacc[mj_model->jnt_dofadr[id]];
      }
    }
    row.clear();
    enc_row.clear();
    tau_row.clear();
    for (const VectorX* x : {&q, &v, &a, &tau_motor})
      for (int j = 0; j < 4; ++j) row.push_back((*x)[j]);
    for (int j = 0; j < 4; ++j) {
      enc_row.push_back(noisy ? std::round(q[j] / count) * count : q[j]);
      tau_row.push_back(tau_motor[j] + (noisy ? 0.15 * gauss(rng) : 0.0));
    }
    truth_csv.write(t, row);
    enc_csv.write(t, enc_row);
    tau_csv.write(t, tau_row);
  }
  truth_csv.close();
  enc_csv.close();
  tau_csv.close();
  nlohmann::json d;
  d["format"] = "dynid-dataset";
  d["robot"] = "arm4";
  d["truth"] = "truth.urdf";
  d["gravity"] = {0.0, 0.0, -9.81};
  d["velocity"] = "instant";
  for (const char* s : {"truth", "encoders", "torques"})
    d["streams"][s] = {{"file", std::string(s) + ".csv"}, {"rate_hz", rate}, {"noise_free", !noisy}};
  std::ofstream(out.dir + "/dataset.json") << d.dump(2);
  return out;
}

InertialIdentificationOptions arm_options(const ArmData& arm, const std::string& source, bool friction) {
  InertialIdentificationOptions o;
  o.model = arm.model;
  o.data = arm.dir;
  o.source = source;
  o.sensors = "joints";
  o.truth_urdf = arm.dir + "/truth.urdf";
  o.prior = 0.0;  // least squares alone: its standard deviations are the ones to hold it to
  if (friction) {
    o.friction = "viscous,coulomb";
    o.armature = true;
  }
  return o;
}

TEST(JointFriction, RegressorTermsAndOptions) {
  EXPECT_DOUBLE_EQ(joint_friction_regressor("viscous", -0.3, 2.0, 0.02), -0.3);
  EXPECT_DOUBLE_EQ(joint_friction_regressor("coulomb", 0.02, 2.0, 0.02), std::tanh(1.0));
  EXPECT_DOUBLE_EQ(joint_friction_regressor("coulomb", -1e-9, 2.0, 0.0), -1.0);  // v_s = 0: the sign
  EXPECT_DOUBLE_EQ(joint_friction_regressor("offset", 5.0, 2.0, 0.02), 1.0);
  EXPECT_DOUBLE_EQ(joint_friction_regressor("armature", 5.0, 2.0, 0.02), 2.0);
  const JointFrictionTerms t = parse_joint_friction_terms("coulomb,viscous", true);
  EXPECT_EQ(t.names(), (std::vector<std::string>{"viscous", "coulomb", "armature"}));
  EXPECT_THROW(parse_joint_friction_terms("viscous,stiction", false), std::invalid_argument);
  EXPECT_THROW(parse_joint_friction_terms("viscous", false, -1.0), std::invalid_argument);
}

TEST(JointFriction, FixedBaseArmNoiseFreeRecoversBaseParametersFrictionAndArmature) {
  const ArmData arm = write_arm_data("exact", false);
  const InertialIdentificationResult r = run_inertial_identification(arm_options(arm, "truth", true));
  ASSERT_TRUE(r.base_param_max_rel_error && r.friction_max_rel_error);
  EXPECT_LT(*r.base_param_max_rel_error, 1e-6);
  EXPECT_LT(*r.friction_max_rel_error, 1e-6);
  // The first joint turns about a fixed vertical axis: its armature acts exactly as the first
  // link's inertia about that axis, so it is grouped with it (and its truth added there); every
  // other term is estimated.
  int estimated = 0, grouped = 0;
  for (const JointFrictionTerm& f : r.friction) {
    ASSERT_TRUE(f.truth) << f.joint << " " << f.term;
    if (f.grouped_with.empty()) {
      ++estimated;
      EXPECT_NEAR(f.value, *f.truth, 1e-6 * *f.truth) << f.joint << " " << f.term;
    } else {
      ++grouped;
      EXPECT_TRUE(f.joint == "shoulder_yaw" || f.joint == "shoulder_pitch") << f.joint;
      EXPECT_EQ(f.term, "armature");
    }
  }
  EXPECT_EQ(estimated, 10);
  EXPECT_EQ(grouped, 2);

  // The sensor path of a fixed base (encoders differentiated, torque stream): no longer refused, and
  // on exact data close to the truth (central differences at 1 kHz are its only error).
  const InertialIdentificationResult s = run_inertial_identification(arm_options(arm, "sensors", true));
  EXPECT_LT(*s.base_param_max_rel_error, 1e-3);
  EXPECT_LT(*s.friction_max_rel_error, 1e-3);
}

TEST(JointFriction, ConsistentFitHoldsATermTheDataWantNegativeAtZero) {
  // The third joint's torques carry minus its viscous friction: unconstrained, the estimate is that
  // negative value; with --consistent it is held at zero and flagged, and nothing else is.
  const ArmData arm = write_arm_data("negative_viscous", false, false, 2);
  InertialIdentificationOptions o = arm_options(arm, "truth", true);
  const InertialIdentificationResult free_fit = run_inertial_identification(o);
  o.consistent = true;
  const InertialIdentificationResult held = run_inertial_identification(o);
  const std::string joint = held.identified_model.bodies[3].joint_name;
  int flagged = 0;
  for (const JointFrictionTerm& f : free_fit.friction)
    if (f.joint == joint && f.term == "viscous") {
      EXPECT_NEAR(f.value, -kFriction[2].viscous, 1e-6);
    }
  for (const JointFrictionTerm& f : held.friction) {
    if (f.at_bound) ++flagged;
    if (f.joint == joint && f.term == "viscous") {
      EXPECT_TRUE(f.at_bound);
      EXPECT_EQ(f.value, 0.0);
    } else if (f.grouped_with.empty() && f.term != "offset") {
      EXPECT_GT(f.value, 0.0) << f.joint << " " << f.term;
    }
  }
  EXPECT_EQ(flagged, 1);
  const nlohmann::json summary = nlohmann::json::parse(held.summary_json);
  EXPECT_EQ(summary["friction"][joint]["at_bound"], nlohmann::json::array({"viscous"}));
  // The inertias are refitted with the term held: the same as the consistent fit of a model
  // without that term at all (--friction-joint drops it; a second formulation of "held at zero").
  InertialIdentificationOptions dropped = o;
  dropped.friction_joints = {{joint, "coulomb,armature"}};
  const InertialIdentificationResult d = run_inertial_identification(dropped);
  ASSERT_EQ(d.base_values.size(), held.base_values.size());
  const double gap = (held.base_values - d.base_values).norm() / d.base_values.norm();
  const double moved = (held.base_values - free_fit.base_values).norm() / d.base_values.norm();
  std::printf("held term: base parameters %.3g from the fit without it (%.3g from the free fit)\n", gap, moved);
  EXPECT_LT(gap, 1e-6);
  EXPECT_GT(moved, 1e3 * gap);  // the held term moved the inertias: the refit is not a no-op
  for (const JointFrictionTerm& f : held.friction)
    for (const JointFrictionTerm& g : d.friction) {
      if (f.joint == g.joint && f.term == g.term && f.grouped_with.empty()) {
        EXPECT_NEAR(f.value, g.value, 1e-6 * (1.0 + std::abs(g.value))) << f.joint << " " << f.term;
      }
    }
}

TEST(JointFriction, LoggedVelocitiesReplaceTheEncodersDerivatives) {
  // The arm's exact velocities as the robot's own velocity channel (what `dynid import log` writes
  // from a log's dq columns). Both paths have O(dt^2) truncation; the encoders' second differences
  // also amplify the stream's 12-digit rounding by 1/dt^2 (1e-12 rad -> 1e-6 rad/s^2 at 1 kHz),
  // the velocities' central differences only by 1/dt: with them the fit must get closer to the
  // truth (measured: 4.3e-5 against 4.6e-4).
  const ArmData arm = write_arm_data("logged_velocities", false);
  InertialIdentificationOptions o = arm_options(arm, "sensors", true);
  o.sensor_options.logged_velocities = true;
  try {
    run_inertial_identification(o);
    ADD_FAILURE() << "no error without a velocities stream";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("the data set has no velocities stream"), std::string::npos) << e.what();
  }
  const CsvStream truth = read_csv_stream(arm.dir + "/truth.csv");
  std::vector<Channel> channels;
  std::vector<Eigen::Index> columns;
  for (const std::string& name : truth.header)
    if (name.rfind("v.", 0) == 0) {
      channels.push_back({name, "rad/s"});
      columns.push_back(truth.column(name));
    }
  ASSERT_EQ(channels.size(), 4u);
  {
    CsvStreamWriter velocities(arm.dir + "/velocities.csv", channels, 15);
    std::vector<double> row(channels.size());
    for (Eigen::Index k = 0; k < truth.values.rows(); ++k) {
      for (std::size_t c = 0; c < columns.size(); ++c) row[c] = truth.values(k, columns[c]);
      velocities.write(truth.values(k, 0), row);
    }
    velocities.close();
  }
  nlohmann::json d = nlohmann::json::parse(test::read_file(arm.dir + "/dataset.json"));
  d["streams"]["velocities"] = d["streams"]["encoders"];
  d["streams"]["velocities"]["file"] = "velocities.csv";
  std::ofstream(arm.dir + "/dataset.json") << d.dump(2);

  o.sensor_options.logged_velocities = false;
  const InertialIdentificationResult differentiated = run_inertial_identification(o);
  o.sensor_options.logged_velocities = true;
  const InertialIdentificationResult logged = run_inertial_identification(o);
  ASSERT_TRUE(logged.base_param_max_rel_error && differentiated.base_param_max_rel_error);
  std::printf("base parameters' largest relative error: differentiated %.3g, logged velocities %.3g\n",
              *differentiated.base_param_max_rel_error, *logged.base_param_max_rel_error);
  EXPECT_LT(*logged.base_param_max_rel_error, 1e-4);
  EXPECT_LT(*logged.base_param_max_rel_error, 0.2 * *differentiated.base_param_max_rel_error);
  EXPECT_LT(*logged.friction_max_rel_error, 1e-4);
}

TEST(JointFriction, MujocoDampingAndArmatureRecoveredFromItsForwardDynamics) {
  // The torques of the excitation applied to MuJoCo's model of the true arm (its damping and
  // armature); the identification sees MuJoCo's accelerations, a dynamics it did not compute.
  const ArmData arm = write_arm_data("mujoco", false, true);
  InertialIdentificationOptions o = arm_options(arm, "truth", true);
  o.friction = "viscous";
  const InertialIdentificationResult r = run_inertial_identification(o);
  ASSERT_TRUE(r.base_param_max_rel_error && r.friction_max_rel_error);
  EXPECT_LT(*r.base_param_max_rel_error, 1e-6);
  EXPECT_LT(*r.friction_max_rel_error, 1e-6);
  for (const JointFrictionTerm& f : r.friction) EXPECT_TRUE(f.truth) << f.joint << " " << f.term;
}

TEST(JointFriction, RealisticSensorsWithinThreeStdAndFrictionColumnsHalveHeldOutTorqueError) {
  const ArmData arm = write_arm_data("noisy", true);
  // Torque noise low-passed with the encoders is correlated from sample to sample; Gautier's
  // parallel filter (2 Hz, 8 rows a second) with its standard-deviation factor (1.55 here,
  // ParallelRowFilter::standard_deviation_factor) makes the stated standard deviations honest: over
  // 12 noise seeds the RMS of (estimate - truth) / std is 0.5-1.4, before the factor 1.0-2.1.
  InertialIdentificationOptions o = arm_options(arm, "sensors", true);
  o.parallel_filter.cutoff_hz = 2.0;
  const InertialIdentificationResult r = run_inertial_identification(o);
  ASSERT_TRUE(r.base_truth);
  for (int k = 0; k < r.base.num_base(); ++k)
    EXPECT_LT(std::abs(r.base_values[k] - (*r.base_truth)[k]), 3.0 * r.base_std[k]) << r.base.name(k);
  for (const JointFrictionTerm& f : r.friction) {
    if (!f.grouped_with.empty()) continue;
    EXPECT_LT(std::abs(f.value - *f.truth), 3.0 * f.std) << f.joint << " " << f.term;
  }

  // Without the friction columns the same data leave the friction in the held-out torque error.
  InertialIdentificationOptions no_friction = o;
  no_friction.friction.clear();
  no_friction.armature = false;
  const InertialIdentificationResult without = run_inertial_identification(no_friction);
  ASSERT_TRUE(r.identified_rms.torque && without.identified_rms.torque);
  EXPECT_GT(*without.identified_rms.torque, 2.0 * *r.identified_rms.torque);
  // The run with friction also reports the fit without it, from its folded factor: the same
  // number as the separate run's.
  ASSERT_TRUE(r.torque_rms_without_friction);
  EXPECT_NEAR(*r.torque_rms_without_friction, *without.identified_rms.torque, 1e-6 * *without.identified_rms.torque);
  // The friction as a sidecar's actuators: entries, read back by the sidecar reader.
  const std::string out = std::filesystem::path(arm.dir).parent_path().string() + "/out";
  std::filesystem::create_directories(out);
  write_inertial_identification(prepare_inertial_identification(o), r, out);
  const std::vector<ActuatorInfo> actuators = read_actuators_file(out + "/actuators.yaml");
  ASSERT_EQ(actuators.size(), 4u);
  for (const JointFrictionTerm& f : r.friction)
    for (const ActuatorInfo& a : actuators) {
      if (a.joint != f.joint) continue;
      if (f.term == "viscous") {
        EXPECT_DOUBLE_EQ(*a.damping, f.value);
      } else if (f.term == "coulomb") {
        EXPECT_DOUBLE_EQ(*a.coulomb_friction, f.value);
      } else {
        EXPECT_EQ(a.armature.has_value(), f.grouped_with.empty()) << a.joint;
      }
    }
  const nlohmann::json summary = nlohmann::json::parse(r.summary_json);
  EXPECT_DOUBLE_EQ(summary["coulomb_smoothing_velocity"].get<double>(), 0.02);
  EXPECT_DOUBLE_EQ(summary["validation"]["torque_rms"]["identified_without_friction"].get<double>(),
                   *r.torque_rms_without_friction);
  EXPECT_TRUE(summary["friction"]["elbow"]["viscous"].is_number());
  EXPECT_TRUE(summary["friction"]["elbow"]["std"]["armature"].is_number());
  EXPECT_EQ(summary["friction"]["shoulder_yaw"]["grouped_with"]["armature"].get<std::string>().rfind("upper0", 0), 0u);
  // Per joint: every joint's torque is measured at every sample, so the mean of the per-joint
  // squares is the overall square; the fit without friction columns, per joint, is the separate
  // run's.
  const nlohmann::json& per_joint = summary["validation"]["torque_rms_per_joint"];
  ASSERT_EQ(per_joint.size(), 4u);
  const nlohmann::json separate = nlohmann::json::parse(without.summary_json)["validation"]["torque_rms_per_joint"];
  double mean_square = 0.0;
  for (const auto& [joint, rms] : per_joint.items()) {
    mean_square += std::pow(rms["identified"].get<double>(), 2) / 4.0;
    EXPECT_GT(rms["nominal"].get<double>(), rms["identified"].get<double>()) << joint;
    EXPECT_NEAR(rms["identified_without_friction"].get<double>(), separate[joint]["identified"].get<double>(),
                1e-6 * separate[joint]["identified"].get<double>())
        << joint;
  }
  EXPECT_NEAR(std::sqrt(mean_square), *r.identified_rms.torque, 1e-9 * *r.identified_rms.torque);
}

TEST(JointFriction, FixedBaseFlagNeedsNoSidecar) {
  // The arm's URDF without the `world` link (its root then floats by default) and without a
  // sidecar: --fixed-base fixes the root and takes every joint's torque as measured.
  const ArmData arm = write_arm_data("no_sidecar", false);
  std::string urdf = kArmUrdf;
  const std::string world = R"(<link name="world"/>
  <joint name="fix" type="fixed"><parent link="world"/><child link="base"/></joint>)";
  urdf.erase(urdf.find(world), world.size());
  const std::string bare = std::filesystem::path(arm.model).parent_path().string() + "/bare_arm.urdf";
  std::ofstream(bare) << urdf;
  InertialIdentificationOptions o = arm_options(arm, "truth", true);
  o.model = bare;
  EXPECT_THROW(prepare_inertial_identification(o), std::runtime_error);  // floating, no sidecar
  o.fixed_base = true;
  const InertialIdentificationResult r = run_inertial_identification(o);
  EXPECT_FALSE(r.identified_model.floating_base);
  EXPECT_LT(*r.base_param_max_rel_error, 1e-6);
  EXPECT_LT(*r.friction_max_rel_error, 1e-6);
}

TEST(JointFriction, AsymmetricCoulombRegressorAndRefusals) {
  // The two levels' columns: each the symmetric one on its side of zero velocity, zero on the other;
  // together the symmetric column.
  EXPECT_DOUBLE_EQ(joint_friction_regressor("coulomb_positive", 0.02, 2.0, 0.02), std::tanh(1.0));
  EXPECT_DOUBLE_EQ(joint_friction_regressor("coulomb_positive", -0.02, 2.0, 0.02), 0.0);
  EXPECT_DOUBLE_EQ(joint_friction_regressor("coulomb_negative", -0.02, 2.0, 0.02), -std::tanh(1.0));
  EXPECT_DOUBLE_EQ(joint_friction_regressor("coulomb_negative", 0.02, 2.0, 0.02), 0.0);
  EXPECT_DOUBLE_EQ(joint_friction_regressor("coulomb_negative", -1e-9, 2.0, 0.0), -1.0);
  const JointFrictionTerms t = parse_joint_friction_terms("coulomb-asymmetric,viscous", true);
  EXPECT_EQ(t.names(), (std::vector<std::string>{"viscous", "coulomb_positive", "coulomb_negative", "armature"}));
  // With the sign function f+ and f- span exactly what Coulomb plus an offset span (and with tanh
  // up to the smoothing band); with symmetric Coulomb the pair already holds it: refused.
  for (const char* list : {"coulomb-asymmetric,offset", "coulomb,coulomb-asymmetric"})
    EXPECT_THROW(parse_joint_friction_terms(list, false), std::invalid_argument) << list;
  try {
    parse_joint_friction_terms("offset,coulomb-asymmetric", false, 0.02, "--friction-joint elbow");
    ADD_FAILURE() << "coulomb-asymmetric with offset accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("--friction-joint elbow: coulomb-asymmetric and offset are the same unknowns"),
              std::string::npos)
        << e.what();
  }
}

TEST(JointFriction, AsymmetricCoulombLevelsRecovered) {
  // Each joint's Coulomb level differs by direction (a gear's preload, a cable's drag): f+ / f-.
  const std::vector<std::pair<double, double>> levels = {{1.2, 0.7}, {1.5, 2.1}, {0.9, 0.5}, {0.25, 0.4}};
  const ArmData arm = write_arm_data("asymmetric", false, false, -1, levels);
  InertialIdentificationOptions o = arm_options(arm, "truth", true);
  o.friction = "viscous,coulomb-asymmetric";
  const InertialIdentificationResult r = run_inertial_identification(o);
  ASSERT_TRUE(r.base_param_max_rel_error && r.friction_max_rel_error);
  EXPECT_LT(*r.base_param_max_rel_error, 1e-6);
  EXPECT_LT(*r.friction_max_rel_error, 1e-6);  // viscous and armature: truth.yaml
  int pairs = 0;
  for (const JointFrictionTerm& f : r.friction) {
    if (f.term != "coulomb_positive" && f.term != "coulomb_negative") continue;
    const int j = r.identified_model.bodies[static_cast<std::size_t>(r.identified_model.joint_index(f.joint))].idx_v;
    const double level = f.term == "coulomb_positive" ? levels[static_cast<std::size_t>(j)].first
                                                      : levels[static_cast<std::size_t>(j)].second;
    EXPECT_NEAR(f.value, level, 1e-6 * level) << f.joint << " " << f.term;
    EXPECT_FALSE(f.truth) << f.joint;  // the sidecar has no asymmetric key
    ++pairs;
  }
  EXPECT_EQ(pairs, 8);
  // The symmetric model cannot follow them: its fit leaves a torque error the pair removes.
  InertialIdentificationOptions symmetric = o;
  symmetric.friction = "viscous,coulomb";
  const InertialIdentificationResult s = run_inertial_identification(symmetric);
  ASSERT_TRUE(r.identified_rms.torque && s.identified_rms.torque);
  std::printf("held-out torque RMS: asymmetric Coulomb %.3g N m, symmetric %.3g N m\n", *r.identified_rms.torque,
              *s.identified_rms.torque);
  EXPECT_GT(*s.identified_rms.torque, 1e3 * *r.identified_rms.torque);

  // The same levels with realistic torque noise through the sensor path: within 3 std.
  const ArmData noisy = write_arm_data("asymmetric_noisy", true, false, -1, levels);
  InertialIdentificationOptions n = arm_options(noisy, "sensors", true);
  n.friction = "viscous,coulomb-asymmetric";
  n.parallel_filter.cutoff_hz = 2.0;
  const InertialIdentificationResult rn = run_inertial_identification(n);
  for (const JointFrictionTerm& f : rn.friction) {
    if (f.term != "coulomb_positive" && f.term != "coulomb_negative") continue;
    const int j = rn.identified_model.bodies[static_cast<std::size_t>(rn.identified_model.joint_index(f.joint))].idx_v;
    const double level = f.term == "coulomb_positive" ? levels[static_cast<std::size_t>(j)].first
                                                      : levels[static_cast<std::size_t>(j)].second;
    EXPECT_LT(std::abs(f.value - level), 3.0 * f.std) << f.joint << " " << f.term;
    std::printf("%s %s: %.4f (true %.2f, std %.4f)\n", f.joint.c_str(), f.term.c_str(), f.value, level, f.std);
  }

  // actuators.yaml: the sidecar has one Coulomb level; an asymmetric pair goes there as its mean.
  const std::string out = std::filesystem::path(arm.dir).parent_path().string() + "/out";
  std::filesystem::create_directories(out);
  write_inertial_identification(prepare_inertial_identification(o), r, out);
  const std::vector<ActuatorInfo> actuators = read_actuators_file(out + "/actuators.yaml");
  ASSERT_EQ(actuators.size(), 4u);
  for (const ActuatorInfo& a : actuators) {
    const int j = r.identified_model.bodies[static_cast<std::size_t>(r.identified_model.joint_index(a.joint))].idx_v;
    ASSERT_TRUE(a.coulomb_friction) << a.joint;
    const auto& [fp, fn] = levels[static_cast<std::size_t>(j)];
    EXPECT_NEAR(*a.coulomb_friction, 0.5 * (fp + fn), 1e-6) << a.joint;
  }
  EXPECT_NE(test::read_file(out + "/actuators.yaml").find("# asymmetric Coulomb: coulomb_positive"), std::string::npos);
  const nlohmann::json summary = nlohmann::json::parse(r.summary_json);
  EXPECT_NEAR(summary["friction"]["elbow"]["coulomb_positive"].get<double>(), 0.9, 1e-6);
  EXPECT_NEAR(summary["friction"]["elbow"]["coulomb_negative"].get<double>(), 0.5, 1e-6);
  EXPECT_DOUBLE_EQ(summary["coulomb_smoothing_velocity"].get<double>(), 0.02);

  // On symmetric friction the pair comes out as the one level (truth.yaml's coulomb_friction is
  // the truth of both).
  const ArmData sym = write_arm_data("asymmetric_on_symmetric", false);
  InertialIdentificationOptions so = arm_options(sym, "truth", true);
  so.friction = "viscous,coulomb-asymmetric";
  const InertialIdentificationResult rs = run_inertial_identification(so);
  ASSERT_TRUE(rs.friction_max_rel_error);
  EXPECT_LT(*rs.friction_max_rel_error, 1e-6);
  int with_truth = 0;
  for (const JointFrictionTerm& f : rs.friction) with_truth += f.term.rfind("coulomb_", 0) == 0 && f.truth;
  EXPECT_EQ(with_truth, 8);
}

TEST(JointFriction, RefusesWhatItCannotEstimate) {
  const ArmData arm = write_arm_data("refusals", false);
  InertialIdentificationOptions o = arm_options(arm, "truth", false);
  o.friction = "viscous,offset";
  o.torque_offsets = true;
  EXPECT_THROW(prepare_inertial_identification(o), std::invalid_argument);
  o.torque_offsets = false;
  o.friction = "viscous,stick";
  EXPECT_THROW(prepare_inertial_identification(o), std::invalid_argument);
  // Asymmetric Coulomb and a torque sensor offset: the same span as Coulomb plus an offset.
  o.friction = "viscous,coulomb-asymmetric";
  o.torque_offsets = true;
  try {
    prepare_inertial_identification(o);
    ADD_FAILURE() << "coulomb-asymmetric with --torque-offsets accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("same unknown on joint 'shoulder_yaw'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace dynid
