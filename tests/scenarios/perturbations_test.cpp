// `dynid simulate --perturb` (sim/perturbations.hpp) in a scenario: with `none` (the default) a walk
// is the walk dynid simulated before the perturbations existed, to the last digit of truth.csv;
// with `geometry` the MuJoCo model the simulation runs, and truth.urdf, have the true joint origins
// and axes that dataset.json lists, while the controllers' model stays nominal.

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "../../src/scenarios/scenario_run.hpp"
#include "dynid/dynamics/sole_contacts.hpp"
#include "dynid/model/urdf_reader.hpp"
#include "dynid/scenarios/scenario.hpp"
#include "support/scratch_files.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

using json = nlohmann::json;

ScenarioOptions short_walk(const std::string& name, const std::vector<std::string>& perturbations) {
  ScenarioOptions o;
  o.scenario = "walk";
  o.out_dir = test::fresh_dir("perturbations", name);
  o.seed = 1;
  o.noise = NoiseLevel::None;
  o.walk_steps = 2;
  o.walk_speed_mps = 0.1;
  o.perturbations = perturbations;
  return o;
}

std::string last_line(const std::string& text) {
  std::istringstream in(text);
  std::string line, last;
  long lines = 0;
  while (std::getline(in, line))
    if (!line.empty()) last = line, ++lines;
  return std::to_string(lines) + " lines, last: " + last;
}

TEST(Perturbations, NoneIsTheWalkOfBeforeAndGeometryChangesIt) {
  const Robot robot = test::bundled_robot("kid_humanoid");
  const ScenarioOptions none = short_walk("none", {});
  run_scenario(robot, none);
  // Recorded with dynid before `--perturb` existed (main at bc4a325: `dynid simulate kid_humanoid
  // --scenario walk --steps 2 --speed 0.1 --noise none`): row count and the start of the last row
  // of truth.csv (time, base position, base quaternion x). Re-recorded once since, when the soles
  // got torsional friction (MuJoCo condim 4; the row count and time unchanged, the base moved by
  // 0.02 mm): 4809 lines, last: 5.311000000,0.0376667240362,0.000468123965762,0.284462975616,...
  const std::string before =
      "4809 lines, last: 5.311000000,0.03766125108,0.000446702227738,0.284462995605,-0.00118909949564,";
  const std::string now = last_line(test::read_file(none.out_dir + "/truth.csv"));
  EXPECT_EQ(now.substr(0, before.size()), before);
  const json dataset = json::parse(test::read_file(none.out_dir + "/dataset.json"));
  EXPECT_EQ(dataset["perturbations"], json::object());

  const ScenarioOptions geometry = short_walk("geometry", {"geometry"});
  run_scenario(robot, geometry);
  EXPECT_NE(last_line(test::read_file(geometry.out_dir + "/truth.csv")).substr(0, before.size()), before);
  const json listed = json::parse(test::read_file(geometry.out_dir + "/dataset.json"))["perturbations"];
  ASSERT_TRUE(listed.contains("geometry")) << listed.dump();
  EXPECT_EQ(listed["geometry"]["joints"].size(), static_cast<std::size_t>(robot.model.nv - 6));
  EXPECT_GT(listed["geometry"]["max_origin_error_m"].get<double>(), 0.1e-3);
  // truth.urdf is the true robot: read back, its joints are the nominal ones plus the listed errors
  // (the idealised walk's are the nominal ones).
  const Model true_urdf = read_urdf_file(geometry.out_dir + "/truth.urdf");
  const Model ideal_urdf = read_urdf_file(none.out_dir + "/truth.urdf");
  for (std::size_t b = 1; b < robot.model.bodies.size(); ++b) {
    const Body& nominal = robot.model.bodies[b];
    if (nominal.joint_type == JointType::FreeFlyer) continue;
    const json& e = listed["geometry"]["joints"][nominal.joint_name];
    const Vector3 error(e["origin_error_m"][0], e["origin_error_m"][1], e["origin_error_m"][2]);
    const Vector3 axis(e["true_axis"][0], e["true_axis"][1], e["true_axis"][2]);
    const Body& read = true_urdf.bodies[static_cast<std::size_t>(true_urdf.body_index(nominal.name))];
    EXPECT_LT((read.joint_placement.translation - nominal.joint_placement.translation - error).norm(), 1e-12)
        << nominal.joint_name;
    EXPECT_LT((read.axis - axis).norm(), 1e-12) << nominal.joint_name;
    const Body& ideal = ideal_urdf.bodies[static_cast<std::size_t>(ideal_urdf.body_index(nominal.name))];
    EXPECT_LT((ideal.joint_placement.translation - nominal.joint_placement.translation).norm(), 1e-15);
    EXPECT_LT((ideal.axis - nominal.axis).norm(), 1e-15);
  }
  for (const auto& [joint, e] : listed["geometry"]["joints"].items())
    for (const json& component : e["origin_error_m"])
      EXPECT_LE(std::abs(component.get<double>()), e["origin_tolerance_m"].get<double>()) << joint;
}

TEST(Perturbations, TheSimulationRunsTheTrueGeometryTheControllersTheNominal) {
  const Robot robot = test::bundled_robot("kid_humanoid");
  const ScenarioOptions o = short_walk("run", {"geometry"});
  std::filesystem::create_directories(o.out_dir);
  scenario_detail::Run run(robot, o, SceneSpec{}, StreamRates{});
  run.start_simulation();
  const test::MjModelPtr m = test::load_mujoco(run.sim->mjcf());
  const json dataset_geometry = [&] {
    json joints = json::object();
    for (const JointGeometryError& e : run.geometry)
      joints[e.joint] = {e.origin_error.x(), e.origin_error.y(), e.origin_error.z()};
    return joints;
  }();
  ASSERT_EQ(run.geometry.size(), static_cast<std::size_t>(robot.model.nv - 6));
  for (std::size_t b = 1; b < robot.model.bodies.size(); ++b) {
    const Body& nominal = robot.model.bodies[b];
    if (nominal.joint_type == JointType::FreeFlyer) continue;
    const int mb = mj_name2id(m.get(), mjOBJ_BODY, nominal.name.c_str());
    ASSERT_GE(mb, 0) << nominal.name;
    const Vector3 pos(m->body_pos[3 * mb], m->body_pos[3 * mb + 1], m->body_pos[3 * mb + 2]);
    const auto& e = dataset_geometry.at(nominal.joint_name);
    const Vector3 listed(e[0].get<double>(), e[1].get<double>(), e[2].get<double>());
    // MuJoCo's compiled joint origin is the nominal one plus the listed error, which is not zero.
    EXPECT_LT((pos - nominal.joint_placement.translation - listed).norm(), 1e-12) << nominal.joint_name;
    EXPECT_GT(listed.norm(), 1e-6) << nominal.joint_name;
  }
  // The controllers plan and servo on the robot's nominal model, untouched.
  const Robot fresh = test::bundled_robot("kid_humanoid");
  for (std::size_t b = 1; b < fresh.model.bodies.size(); ++b) {
    EXPECT_EQ(robot.model.bodies[b].joint_placement.translation, fresh.model.bodies[b].joint_placement.translation);
    EXPECT_EQ(robot.model.bodies[b].axis, fresh.model.bodies[b].axis);
  }
}

// --perturb sensor-bus: with the same commands (no feedback), the balance control's readings are
// those of the run without it, `latency_bus_periods` bus ticks earlier; the gyro and each foot's
// F/T wrench are compared, after the first ticks, which repeat the first reading.
TEST(Perturbations, SensorBusHandsTheControllerReadingsOfEarlierBusTicks) {
  const Robot robot = test::bundled_robot("kid_humanoid");
  std::vector<std::vector<BalanceMeasurement>> seen;
  int latency = -1;
  for (const std::vector<std::string>& perturbations : {std::vector<std::string>{}, {"sensor-bus"}}) {
    ScenarioOptions o = short_walk(perturbations.empty() ? "bus_none" : "bus", perturbations);
    o.noise = NoiseLevel::Realistic;  // the readings carry their noise: a shift, not a smooth copy
    std::filesystem::create_directories(o.out_dir);
    scenario_detail::Run run(robot, o, SceneSpec{}, StreamRates{});
    if (run.sensor_bus) latency = run.sensor_bus->latency_bus_periods;
    const VectorX q0 = robot.model.neutral_configuration();
    run.start(q0);
    run.sensing = true;
    const auto [left, right] = left_right_soles(robot.model, *robot.sidecar);
    const std::vector<int> both = {left, right};
    const std::vector<SE3> feet = {SE3::Identity(), SE3::Identity()};
    run.sim->set_state(run.on_ground(q0, both), VectorX::Zero(robot.model.nv));
    const int per_bus = scenario_detail::bus_ticks(o.bus_rate_hz, run.sim->timestep());
    std::vector<BalanceMeasurement> readings;
    for (int k = 0; k < 40 * per_bus; ++k) {
      if (k % per_bus == 0) readings.push_back(run.read_sensors(both, feet, per_bus * run.sim->timestep()));
      run.step(q0, VectorX::Zero(robot.model.nv), false);
    }
    EXPECT_EQ(run.controller_read_sensors(), true);
    seen.push_back(readings);
  }
  ASSERT_GE(latency, kSensorBusMinLatency);
  ASSERT_LE(latency, kSensorBusMaxLatency);
  const auto& now = seen[0];
  const auto& late = seen[1];
  double largest_step = 0.0;
  for (std::size_t k = static_cast<std::size_t>(latency); k < late.size(); ++k) {
    const std::size_t then = k - static_cast<std::size_t>(latency);
    EXPECT_LT((late[k].base_angular_velocity - now[then].base_angular_velocity).norm(), 1e-12) << k;
    for (std::size_t f = 0; f < 2; ++f)
      EXPECT_LT((late[k].sole_wrenches[f].to_vector() - now[then].sole_wrenches[f].to_vector()).norm(), 1e-9) << k;
    if (k > 0)
      largest_step = std::max(largest_step, (now[k].base_angular_velocity - now[k - 1].base_angular_velocity).norm());
  }
  // The readings change from tick to tick (noise), so a shift by the wrong count would fail above.
  EXPECT_GT(largest_step, 1e-4);
}

}  // namespace
}  // namespace dynid
