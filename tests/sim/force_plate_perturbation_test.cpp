// `--perturb force-plates` (sim/force_plate_perturbation.hpp) in recorded data: the same noise-free
// static poses with and without it (the plates do not touch the motion) differ in plates.csv as the
// listed gains, crosstalk, centre-of-pressure shift and zero drift say — written out here from the
// documented definitions (a force at COP + δ; gains, crosstalk and drift on the channels) — and the
// drawn errors lie within their documented bands.

#include "dynid/sim/force_plate_perturbation.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "dynid/io/csv_stream.hpp"
#include "dynid/scenarios/scenario.hpp"
#include "support/scratch_files.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

std::string poses(const std::string& name, const std::vector<std::string>& perturbations) {
  ScenarioOptions o;
  o.scenario = "static-poses";
  o.seed = 4;
  o.noise = NoiseLevel::None;
  o.static_pose_count = 3;
  o.perturbations = perturbations;
  o.out_dir = test::fresh_dir("force_plate_perturbation", name);
  run_scenario(test::bundled_robot("adult_humanoid"), o);
  return o.out_dir;
}

TEST(ForcePlatePerturbation, RecordedPlatesReadTheListedErrors) {
  const std::string with = poses("plates", {"force-plates"}), without = poses("none", {});
  const nlohmann::json listed =
      nlohmann::json::parse(test::read_file(with + "/dataset.json"))["perturbations"]["force-plates"]["plates"];
  ASSERT_EQ(listed.size(), 2u);
  const CsvStream a = read_csv_stream(with + "/plates.csv"), b = read_csv_stream(without + "/plates.csv");
  ASSERT_EQ(a.values.rows(), b.values.rows());
  for (const auto& [plate, e] : listed.items()) {
    auto v = [&](const char* key, int k) { return e[key][k].get<double>(); };
    for (int k = 0; k < 3; ++k) EXPECT_LE(std::abs(v("gain", k) - 1.0), kPlateGainTolerance);
    for (int k = 0; k < 2; ++k) {
      EXPECT_LE(std::abs(v("crosstalk_fz_to_fx_fy", k)), kPlateCrosstalk);
      EXPECT_LE(std::abs(v("cop_bias_m", k)), kPlateCopBiasM);
      EXPECT_LE(std::abs(v("cop_scale", k)), kPlateCopScale);
    }
    for (int k = 0; k < 6; ++k)
      EXPECT_LE(std::abs(v("drift_per_s", k)), k < 3 ? kPlateForceDriftNPerS : kPlateMomentDriftNmPerS);
    const Eigen::Index c = b.column(plate + ".fx");
    double worst_force = 0.0, worst_moment = 0.0, largest_change = 0.0;
    for (Eigen::Index r = 0; r < b.values.rows(); ++r) {
      const double t = b.values(r, 0);
      const Vector3 f = b.values.block<1, 3>(r, c).transpose(), m = b.values.block<1, 3>(r, c + 3).transpose();
      if (std::abs(f.z()) < 100.0) continue;  // a foot barely on the plate: no COP to speak of
      // The true COP relative to the top centre, and the force applied instead at COP + delta.
      const Vector3 cop(-m.y() / f.z(), m.x() / f.z(), 0.0);
      const Vector3 delta(v("cop_bias_m", 0) + v("cop_scale", 0) * cop.x(),
                          v("cop_bias_m", 1) + v("cop_scale", 1) * cop.y(), 0.0);
      Vector3 f_expected(v("gain", 0) * f.x() + v("crosstalk_fz_to_fx_fy", 0) * f.z(),
                         v("gain", 1) * f.y() + v("crosstalk_fz_to_fx_fy", 1) * f.z(), v("gain", 2) * f.z());
      Vector3 m_expected = m + delta.cross(f);
      for (int k = 0; k < 3; ++k) {
        f_expected[k] += v("drift_per_s", k) * t;
        m_expected[k] += v("drift_per_s", 3 + k) * t;
      }
      const Vector3 fa = a.values.block<1, 3>(r, c).transpose(), ma = a.values.block<1, 3>(r, c + 3).transpose();
      worst_force = std::max(worst_force, (fa - f_expected).norm());
      worst_moment = std::max(worst_moment, (ma - m_expected).norm());
      largest_change = std::max(largest_change, (fa - f).norm());
    }
    EXPECT_LT(worst_force, 1e-6) << plate;  // the CSV's 10 significant digits of ~400 N
    EXPECT_LT(worst_moment, 1e-6) << plate;
    EXPECT_GT(largest_change, 0.5) << plate;  // the errors are there: newtons on a 400 N load
  }
}

}  // namespace
}  // namespace dynid
