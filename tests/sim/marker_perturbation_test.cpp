// `--perturb markers` (sim/marker_perturbation.hpp) in recorded data: the same static poses simulated
// with and without it (the perturbation does not touch the motion: truth.csv is the same) differ in
// markers.csv by exactly each marker's listed mount error turned into world axes by its link's
// attitude at the frame, the errors fill the ±3 mm band, the occlusion gaps have the documented
// lengths, and the two swapped labels carry each other's positions for 0.5 s of frames.

#include "dynid/sim/marker_perturbation.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "dynid/dynamics/kinematics.hpp"
#include "dynid/io/csv_stream.hpp"
#include "dynid/scenarios/scenario.hpp"
#include "support/scratch_files.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

std::string poses(const std::string& name, const std::vector<std::string>& perturbations) {
  ScenarioOptions o;
  o.scenario = "static-poses";
  o.seed = 3;
  o.noise = NoiseLevel::None;
  o.static_pose_count = 4;
  o.perturbations = perturbations;
  o.out_dir = test::fresh_dir("marker_perturbation", name);
  run_scenario(test::bundled_robot("adult_humanoid"), o);
  return o.out_dir;
}

TEST(MarkerPerturbation, RecordedMarkersSitWhereTheListedMountsPutThem) {
  const Robot robot = test::bundled_robot("adult_humanoid");
  const Model& model = robot.model;
  const std::string with = poses("markers", {"markers"}), without = poses("none", {});
  const nlohmann::json listed =
      nlohmann::json::parse(test::read_file(with + "/dataset.json"))["perturbations"]["markers"];
  ASSERT_TRUE(listed.is_object());
  const CsvStream a = read_csv_stream(with + "/markers.csv"), b = read_csv_stream(without + "/markers.csv");
  const CsvStream truth = read_csv_stream(without + "/truth.csv");
  EXPECT_EQ(read_csv_stream(with + "/truth.csv").values, truth.values);  // the same motion
  ASSERT_EQ(a.values.rows(), b.values.rows());
  const std::vector<std::string> q_names = model.configuration_names();
  Data data(model);
  const std::string swap_a = listed["swap"]["markers"][0], swap_b = listed["swap"]["markers"][1];
  long checked = 0, hidden = 0, swapped_frames = 0;
  double sum_fraction = 0.0;
  int mounts = 0;
  for (const SidecarFrame& m : robot.sidecar->markers) {
    const auto& e = listed["mount_error_m"][m.name];
    const Vector3 error(e[0].get<double>(), e[1].get<double>(), e[2].get<double>());
    for (int k = 0; k < 3; ++k) {
      EXPECT_LE(std::abs(error[k]), kMarkerMountToleranceM) << m.name;
      sum_fraction += std::abs(error[k]) / kMarkerMountToleranceM;
      ++mounts;
    }
  }
  EXPECT_NEAR(sum_fraction / mounts, 0.5, 0.1);
  Eigen::Index truth_row = 0;
  for (Eigen::Index r = 0; r < a.values.rows(); ++r) {
    const double t = a.values(r, 0);
    while (truth_row + 1 < truth.values.rows() && truth.values(truth_row + 1, 0) <= t + 1e-9) ++truth_row;
    VectorX q(model.nq);
    for (int i = 0; i < model.nq; ++i)
      q[i] = truth.values(truth_row, truth.column("q." + q_names[static_cast<std::size_t>(i)]));
    forward_kinematics(model, data, q);
    bool swap_frame = false;
    for (const SidecarFrame& m : robot.sidecar->markers) {
      const Eigen::Index c = a.column(m.name + ".x");
      const Vector3 pa = a.values.block<1, 3>(r, c).transpose(), pb = b.values.block<1, 3>(r, c).transpose();
      if (!pa.allFinite()) {
        ++hidden;
        continue;
      }
      const auto& e = listed["mount_error_m"][m.name];
      const Vector3 error(e[0].get<double>(), e[1].get<double>(), e[2].get<double>());
      const SE3 X = frame_placement(model, data, model.frame_index(m.name));
      const Vector3 expected = pb + X.rotation * (m.placement.rotation.transpose() * error);
      if ((m.name == swap_a || m.name == swap_b) && (pa - expected).norm() > 1e-3) {
        swap_frame = true;  // checked below against the other label's position
        const std::string other = m.name == swap_a ? swap_b : swap_a;
        const Eigen::Index co = b.column(other + ".x");
        const auto& eo = listed["mount_error_m"][other];
        const SidecarFrame& om = robot.sidecar->markers[static_cast<std::size_t>(
            std::find_if(robot.sidecar->markers.begin(), robot.sidecar->markers.end(),
                         [&](const SidecarFrame& f) { return f.name == other; }) -
            robot.sidecar->markers.begin())];
        const SE3 Xo = frame_placement(model, data, model.frame_index(other));
        const Vector3 other_expected =
            b.values.block<1, 3>(r, co).transpose() +
            Xo.rotation * (om.placement.rotation.transpose() *
                           Vector3(eo[0].get<double>(), eo[1].get<double>(), eo[2].get<double>()));
        EXPECT_LT((pa - other_expected).norm(), 2e-5) << m.name << " at " << t;
        continue;
      }
      // Rotation from the truth row at or before the frame (the poses are held: tiny motion).
      EXPECT_LT((pa - expected).norm(), 2e-5) << m.name << " at " << t;
      ++checked;
    }
    if (swap_frame) ++swapped_frames;
  }
  EXPECT_GT(checked, 1000);
  EXPECT_EQ(swapped_frames, listed["swap"]["frames_recorded"].get<long>());
  EXPECT_EQ(swapped_frames, 75);  // 0.5 s at 150 Hz
  // Gaps: each marker's runs of hidden frames last 0.05-0.5 s (a run can be cut by a recording
  // window's end, so only the upper bound holds for every run).
  EXPECT_GT(listed["gaps"].get<long>(), 0);
  EXPECT_GT(hidden, 0);
  for (const SidecarFrame& m : robot.sidecar->markers) {
    const Eigen::Index c = a.column(m.name + ".x");
    long run = 0;
    for (Eigen::Index r = 0; r <= a.values.rows(); ++r) {
      if (r < a.values.rows() && std::isnan(a.values(r, c))) {
        ++run;
        continue;
      }
      EXPECT_LE(static_cast<double>(run) / 150.0, kMarkerGapMaxS + 1.0 / 150.0 + 1e-9) << m.name;
      run = 0;
    }
  }
}

}  // namespace
}  // namespace dynid
