// Force-plate crosstalk calibrated from static poses (data/plate_crosstalk_calibration.hpp). A
// hand-built recording whose plates read known crosstalk and drift on top of forces that sum to
// the weight (the legs pushing against each other on the plates) gives them back exactly; poses
// that never shift the weight give one common value; and on simulated static poses with
// `--perturb force-plates` the calibration finds the crosstalk the simulator lists in dataset.json.

#include "dynid/data/plate_crosstalk_calibration.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "dynid/scenarios/scenario.hpp"
#include "support/scratch_files.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

constexpr double kWeight = 760.0;  // [N]

/// Two plates; pose k holds `share(k)` of the weight on the left plate for 1 s, the legs pushing
/// apart with a pose-dependent force (cancelling between the plates). The plates read crosstalk
/// `c[p]` of their vertical force into f_x, f_y and a horizontal zero drift `drift[p]` [N/s].
LabRecording recording(int poses, const std::function<double(int)>& share, const std::array<Eigen::Vector2d, 2>& c,
                       const std::array<Eigen::Vector2d, 2>& drift) {
  LabRecording rec;
  rec.dataset.directory = "hand-built";
  rec.dataset.force_plates = {{"plate_left", Vector3(0, 0.3, 0), {}}, {"plate_right", Vector3(0, -0.3, 0), {}}};
  const int per_pose = 10;
  rec.plate_wrench.setZero(12, poses * per_pose);
  for (int k = 0; k < poses; ++k)
    for (int i = 0; i < per_pose; ++i) {
      const int col = k * per_pose + i;
      const double t = k + 0.1 * i;
      rec.plate_time.push_back(t);
      const Eigen::Vector2d squeeze(5.0 * std::sin(1.3 * k), 20.0 + 3.0 * std::cos(0.7 * k));
      const double fz[2] = {-share(k) * kWeight, -(1.0 - share(k)) * kWeight};  // the robot pushes down
      for (int p = 0; p < 2; ++p) {
        const Eigen::Vector2d fh = (p == 0 ? 1.0 : -1.0) * squeeze + c[static_cast<std::size_t>(p)] * fz[p] +
                                   drift[static_cast<std::size_t>(p)] * t;
        rec.plate_wrench.block<3, 1>(6 * p, col) = Vector3(fh.x(), fh.y(), fz[p]);
      }
    }
  return rec;
}

std::vector<std::pair<double, double>> spans(int poses) {
  std::vector<std::pair<double, double>> out;
  for (int k = 0; k < poses; ++k) out.emplace_back(k, k + 0.95);
  return out;
}

TEST(PlateCrosstalkCalibration, PosesShiftingTheWeightGiveEachPlatesCrosstalkAndTheDrift) {
  const std::array<Eigen::Vector2d, 2> c = {Eigen::Vector2d(0.0078, -0.0055), Eigen::Vector2d(0.0026, 0.0011)};
  const std::array<Eigen::Vector2d, 2> drift = {Eigen::Vector2d(0.003, -0.001), Eigen::Vector2d(-0.002, 0.0025)};
  LabRecording rec = recording(
      12, [](int k) { return k % 4 == 0 ? 1.0 : (k % 4 == 1 ? 0.0 : 0.3 + 0.04 * k); }, c, drift);
  const PlateCrosstalkCalibration cal = calibrate_plate_crosstalk(rec, spans(12));
  ASSERT_TRUE(cal.per_plate);
  ASSERT_EQ(cal.crosstalk.size(), 2u);
  for (int p = 0; p < 2; ++p)
    EXPECT_LT((cal.crosstalk[static_cast<std::size_t>(p)] - c[static_cast<std::size_t>(p)]).norm(), 1e-12);
  EXPECT_LT((cal.drift_n_per_s - (drift[0] + drift[1])).norm(), 1e-12);
  EXPECT_GT(cal.rms_before_n.norm(), 1.0);
  EXPECT_LT(cal.rms_after_n.norm(), 1e-10);
  // Removing it leaves each plate's own horizontal force and drift: the left plate's f_x at the
  // first sample of the first pose (all on the left plate) is its squeeze, 0 N.
  remove_plate_crosstalk(cal, rec);
  EXPECT_NEAR(rec.plate_wrench(0, 0), 0.0, 1e-9);
  EXPECT_NEAR(rec.plate_wrench(1, 0), 20.0 + 3.0, 1e-9);
}

TEST(PlateCrosstalkCalibration, PosesThatNeverShiftTheWeightGiveOneValueForEveryPlate) {
  const std::array<Eigen::Vector2d, 2> c = {Eigen::Vector2d(0.006, 0.002), Eigen::Vector2d(0.002, -0.004)};
  const std::array<Eigen::Vector2d, 2> none = {Eigen::Vector2d::Zero(), Eigen::Vector2d::Zero()};
  const PlateCrosstalkCalibration cal = calibrate_plate_crosstalk(recording(
                                                                      10, [](int) { return 0.5; }, c, none),
                                                                  spans(10));
  EXPECT_FALSE(cal.per_plate);
  // Half the weight on each: the summed horizontal force reads the mean crosstalk of the two.
  for (const Eigen::Vector2d& x : cal.crosstalk) EXPECT_LT((x - 0.5 * (c[0] + c[1])).norm(), 1e-12);
}

TEST(PlateCrosstalkCalibration, TooFewPosesOrOtherPlatesAreRefused) {
  const std::array<Eigen::Vector2d, 2> zero = {Eigen::Vector2d::Zero(), Eigen::Vector2d::Zero()};
  LabRecording rec = recording(
      4, [](int k) { return 0.25 * k; }, zero, zero);
  EXPECT_THROW(
      {
        try {
          calibrate_plate_crosstalk(rec, spans(4));
        } catch (const std::runtime_error& e) {
          EXPECT_NE(std::string(e.what()).find("4 static poses are too few to calibrate 2 plates"), std::string::npos)
              << e.what();
          throw;
        }
      },
      std::runtime_error);
  const PlateCrosstalkCalibration cal = calibrate_plate_crosstalk(recording(
                                                                      8, [](int k) { return 0.125 * k; }, zero, zero),
                                                                  spans(8));
  rec.dataset.force_plates[1].name = "plate_3";
  EXPECT_THROW(remove_plate_crosstalk(cal, rec), std::runtime_error);
}

TEST(PlateCrosstalkCalibration, SimulatedPlatesCrosstalkIsFoundFromTheStaticPoses) {
  ScenarioOptions o;
  o.scenario = "static-poses";
  o.seed = 4;
  o.noise = NoiseLevel::Realistic;
  o.static_pose_count = 16;
  o.perturbations = {"force-plates"};
  o.out_dir = test::fresh_dir("plate_crosstalk", "poses");
  run_scenario(test::bundled_robot("adult_humanoid"), o);
  const LabRecording rec = read_lab_recording(o.out_dir);
  std::vector<std::pair<double, double>> windows;
  for (const TimeSegment& s : rec.dataset.segments) windows.emplace_back(s.start + 0.05, s.end - 0.05);
  const PlateCrosstalkCalibration cal = calibrate_plate_crosstalk(rec, windows);
  const nlohmann::json listed =
      nlohmann::json::parse(test::read_file(o.out_dir + "/dataset.json"))["perturbations"]["force-plates"]["plates"];
  ASSERT_EQ(cal.plates.size(), 2u);
  EXPECT_TRUE(cal.per_plate);
  for (std::size_t p = 0; p < 2; ++p) {
    const nlohmann::json& x = listed.at(cal.plates[p])["crosstalk_fz_to_fx_fy"];
    const Eigen::Vector2d truth(x[0].get<double>(), x[1].get<double>());
    std::printf("%s: crosstalk %.5f %.5f, simulated %.5f %.5f\n", cal.plates[p].c_str(), cal.crosstalk[p].x(),
                cal.crosstalk[p].y(), truth.x(), truth.y());
    // The plates' noise and the drift's unobservable split leave a few 1e-5 (crosstalk up to 1e-2).
    EXPECT_LT((cal.crosstalk[p] - truth).cwiseAbs().maxCoeff(), 2e-4) << cal.plates[p];
  }
  EXPECT_LT(cal.rms_after_n.norm(), 0.1 * cal.rms_before_n.norm());
}

}  // namespace
}  // namespace dynid
