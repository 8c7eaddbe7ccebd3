// The force plates report what an anti-aliased plate amplifier gives: the mean wrench over the
// simulation steps since the previous sample. Checked against the truth stream's contact wrenches
// (a second record of the same physics, written every step) on a noise-free kid squat, and against
// single-step sampling, which folds the contacts' step-to-step chatter into the low band.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "dynid/io/csv_stream.hpp"
#include "dynid/scenarios/scenario.hpp"
#include "dynid/sim/scene.hpp"
#include "support/scratch_files.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

/// Per truth row and plate: the wrench the robot applies to the plate (world axes, about the
/// plate's top centre), from the truth stream's contact wrenches (what the ground applies to the
/// sole, world axes, about the world origin). Each contact goes to the plate under its centre of
/// pressure at the row of largest load (the feet stay put in a squat).
std::vector<std::array<Vector6, 2>> plate_wrenches_from_truth(const CsvStream& truth,
                                                              const std::vector<ForcePlateSpec>& plates,
                                                              const std::vector<std::string>& contacts) {
  const Eigen::Index rows = truth.values.rows();
  std::vector<std::array<Vector6, 2>> out(static_cast<std::size_t>(rows),
                                          std::array<Vector6, 2>{Vector6::Zero(), Vector6::Zero()});
  for (const std::string& c : contacts) {
    const Eigen::Index col = truth.column("wrench." + c + ".fx");
    Eigen::Index loaded = 0;
    truth.values.col(col + 2).maxCoeff(&loaded);
    const double fz = truth.values(loaded, col + 2);
    const double cop_x = -truth.values(loaded, col + 4) / fz, cop_y = truth.values(loaded, col + 3) / fz;
    int plate = -1;
    for (std::size_t p = 0; p < plates.size(); ++p)
      if (std::abs(cop_x - plates[p].top_center_world.x()) < 0.5 * plates[p].size_x &&
          std::abs(cop_y - plates[p].top_center_world.y()) < 0.5 * plates[p].size_y)
        plate = static_cast<int>(p);
    EXPECT_GE(plate, 0) << c << " stands on no plate";
    if (plate < 0) continue;
    const Vector3& o = plates[static_cast<std::size_t>(plate)].top_center_world;
    for (Eigen::Index r = 0; r < rows; ++r) {
      const Vector3 f = truth.values.row(r).segment<3>(col).transpose();
      const Vector3 n = truth.values.row(r).segment<3>(col + 3).transpose();
      Vector6 on_plate;
      on_plate << -f, -(n - o.cross(f));
      out[static_cast<std::size_t>(r)][static_cast<std::size_t>(plate)] += on_plate;
    }
  }
  return out;
}

/// A signal sampled at `time` interpolated linearly onto `grid` (as the mocap path puts the plates
/// on a uniform grid), then averaged over a sliding window of `window` grid points.
std::vector<double> low_band(const std::vector<double>& time, const std::vector<double>& x,
                             const std::vector<double>& grid, int window) {
  std::vector<double> on_grid(grid.size());
  for (std::size_t k = 0, j = 0; k < grid.size(); ++k) {
    while (j + 2 < time.size() && time[j + 1] < grid[k]) ++j;
    const double s = std::clamp((grid[k] - time[j]) / (time[j + 1] - time[j]), 0.0, 1.0);
    on_grid[k] = (1.0 - s) * x[j] + s * x[j + 1];
  }
  std::vector<double> out;
  double sum = 0.0;
  for (std::size_t k = 0; k < on_grid.size(); ++k) {
    sum += on_grid[k];
    if (k >= static_cast<std::size_t>(window)) sum -= on_grid[k - static_cast<std::size_t>(window)];
    if (k + 1 >= static_cast<std::size_t>(window)) out.push_back(sum / window);
  }
  return out;
}

double mean_abs_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double sum = 0.0;
  for (std::size_t k = 0; k < a.size(); ++k) sum += std::abs(a[k] - b[k]);
  return sum / static_cast<double>(a.size());
}

TEST(PlateAveraging, PlatesReportTheMeanWrenchOfTheStepsSinceTheirPreviousSample) {
  const Robot robot = test::bundled_robot("kid_humanoid");
  const std::string dir = test::fresh_dir("plate_averaging_test", "squat");
  ScenarioOptions options;
  options.scenario = "squat";
  options.out_dir = dir;
  options.noise = NoiseLevel::None;
  options.seed = 1;
  ASSERT_FALSE(run_scenario(robot, options).fell);
  const CsvStream truth = read_csv_stream(dir + "/truth.csv");
  const CsvStream plates = read_csv_stream(dir + "/plates.csv");
  const std::vector<ForcePlateSpec> specs = default_force_plates();
  ASSERT_EQ(specs.size(), 2u);
  std::vector<std::string> contacts;
  for (const ContactSurface& c : robot.sidecar->contacts) contacts.push_back(c.name);
  const std::vector<std::array<Vector6, 2>> on_plates = plate_wrenches_from_truth(truth, specs, contacts);

  // The truth stream has a row every simulation step; the plates one about every 1.11 ms, so some
  // plate samples span two steps.
  const Eigen::Index truth_rows = truth.values.rows(), plate_rows = plates.values.rows();
  ASSERT_GT(plate_rows, 4000);  // 5 s at 900 Hz
  const char* const channels[6] = {"fx", "fy", "fz", "mx", "my", "mz"};
  Eigen::Index r = 0, spanning_two = 0;
  std::vector<double> plate_time, step_time;
  std::array<std::array<std::vector<double>, 6>, 2> mean_signal, single_signal, truth_signal;
  for (Eigen::Index k = 0; k < plate_rows; ++k) {
    const double t = plates.values(k, 0);
    // Steps since the previous plate sample: truth rows in (t_prev, t]; the first sample is one step.
    Vector6 sum[2] = {Vector6::Zero(), Vector6::Zero()};
    int steps = 0;
    while (r < truth_rows && truth.values(r, 0) <= t + 1e-7) {
      for (int p = 0; p < 2; ++p) sum[p] += on_plates[static_cast<std::size_t>(r)][static_cast<std::size_t>(p)];
      ++steps, ++r;
    }
    ASSERT_GE(steps, 1) << "no truth row at the plate sample " << t;
    if (k == 0) {
      ASSERT_EQ(steps, 1) << "the first sample is the instantaneous one";
    }
    ASSERT_NEAR(truth.values(r - 1, 0), t, 1e-7) << "plate samples fall on simulation steps";
    if (steps == 2) ++spanning_two;
    for (int p = 0; p < 2; ++p) {
      const ForcePlateSpec& spec = specs[static_cast<std::size_t>(p)];
      const Vector6 mean = sum[p] / steps;
      for (int c = 0; c < 6; ++c) {
        const double recorded = plates.values(k, plates.column(spec.name + "." + channels[c]));
        // The plates stream keeps 10 significant digits, the truth 12.
        EXPECT_NEAR(recorded, mean[c], 1e-9 * std::max(1.0, std::abs(mean[c])))
            << spec.name << "." << channels[c] << " at " << t << " s over " << steps << " steps";
        mean_signal[static_cast<std::size_t>(p)][static_cast<std::size_t>(c)].push_back(recorded);
        single_signal[static_cast<std::size_t>(p)][static_cast<std::size_t>(c)].push_back(
            on_plates[static_cast<std::size_t>(r - 1)][static_cast<std::size_t>(p)][c]);
      }
      // The COP channels follow from the mean wrench, as the amplifier's channels give them.
      if (std::abs(mean[2]) > 20.0) {
        EXPECT_NEAR(plates.values(k, plates.column(spec.name + ".copx")), spec.top_center_world.x() - mean[4] / mean[2],
                    1e-8);
        EXPECT_NEAR(plates.values(k, plates.column(spec.name + ".copy")), spec.top_center_world.y() + mean[3] / mean[2],
                    1e-8);
      }
    }
    plate_time.push_back(t);
  }
  EXPECT_GT(spanning_two, plate_rows / 20) << "900 Hz on 1 ms steps: every tenth step falls between samples";

  // Against single-step sampling (the truth at the plate sample times): in the band the mocap
  // path keeps (here: a 40 ms moving average on the step grid), the mean follows the truth's own
  // low band several times more closely; single steps alias the step-to-step chatter into it.
  for (Eigen::Index k = 0; k < truth_rows; ++k) {
    step_time.push_back(truth.values(k, 0));
    for (int p = 0; p < 2; ++p)
      for (int c = 0; c < 6; ++c)
        truth_signal[static_cast<std::size_t>(p)][static_cast<std::size_t>(c)].push_back(
            on_plates[static_cast<std::size_t>(k)][static_cast<std::size_t>(p)][c]);
  }
  for (int p = 0; p < 2; ++p)
    for (int c : {2, 3, 4}) {  // fz, mx, my: what the base's force and moment balance lean on most
      const auto& truth_x = truth_signal[static_cast<std::size_t>(p)][static_cast<std::size_t>(c)];
      const std::vector<double> reference = low_band(step_time, truth_x, step_time, 40);
      const double mean_error = mean_abs_difference(
          low_band(plate_time, mean_signal[static_cast<std::size_t>(p)][static_cast<std::size_t>(c)], step_time, 40),
          reference);
      const double single_error = mean_abs_difference(
          low_band(plate_time, single_signal[static_cast<std::size_t>(p)][static_cast<std::size_t>(c)], step_time, 40),
          reference);
      EXPECT_LT(mean_error, 0.5 * single_error) << specs[static_cast<std::size_t>(p)].name << "." << channels[c];
    }
}

}  // namespace
}  // namespace dynid
