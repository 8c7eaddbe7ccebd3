// `dynid demo`, the README's main job: it runs end to end, prints its table and leaves the reports
// it points to. The numbers in the table are checked against the simulation's own truth (the true
// mass the data set's summary.json reports), not against a copy of the output.

#include <gtest/gtest.h>

#include <array>
#include <map>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>

#include "run_dynid.hpp"

namespace {

TEST(CliDemo, InertialStageIdentifiesTheKidHumanoid) {
  const std::string out = std::filesystem::temp_directory_path() / ("dynid_demo_" + std::to_string(::getpid()));
  std::filesystem::remove_all(out);
  const Result r = run("demo --stage inertial --perturb none --quiet --out " + out);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;  // --quiet
  EXPECT_NE(r.out.find("Testbed: idealised (--perturb none)"), std::string::npos) << r.out;
  EXPECT_TRUE(std::filesystem::exists(out + "/kid_inertial/report.html"));
  EXPECT_NE(r.out.find(out + "/kid_inertial/report.html"), std::string::npos) << r.out;

  // "total mass [kg]  nominal identified true": identified within 1 % of the simulated truth.
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex(R"(total mass \[kg\]\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+))")))
      << r.out;
  std::ifstream summary_file(out + "/kid_walk/summary.json");
  const nlohmann::json sim = nlohmann::json::parse(summary_file);
  const double truth = sim["true_total_mass"].get<double>();
  EXPECT_NEAR(std::stod(m[3]), truth, 5e-4);
  EXPECT_NEAR(std::stod(m[2]), truth, 0.005 * truth);
  EXPECT_NEAR(std::stod(m[1]), sim["nominal_total_mass"].get<double>(), 5e-4);

  // Held-out base force RMS, on the trunk bending (paper 003's validation motion, OUT/kid_trunk_bend):
  // the model identified from the walk explains it far better than the nominal one, at the
  // force-plate class (0.7 N quantization) and below (0.09 N measured).
  EXPECT_TRUE(std::filesystem::exists(out + "/kid_trunk_bend/dataset.json"));
  EXPECT_NE(r.out.find("held out: trunk bending"), std::string::npos) << r.out;
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex(R"(base force RMS \[N\]\s+([0-9.]+)\s+([0-9.]+))"))) << r.out;
  EXPECT_LT(std::stod(m[2]), 0.25 * std::stod(m[1]));
  EXPECT_LT(std::stod(m[2]), 0.4);
  std::filesystem::remove_all(out);
}

// The static stage's table, checked as the inertial stage's is: the figures the poses estimate
// against the simulation's truth. The identified total mass is the weighed mass the demo passes in
// (--total-mass, the fit's equality constraint), so it is only checked to be the true one printed.
TEST(CliDemo, StaticStageIdentifiesTheAdultHumanoid) {
  const std::string out = std::filesystem::temp_directory_path() / ("dynid_demo_static_" + std::to_string(::getpid()));
  std::filesystem::remove_all(out);
  const Result r = run("demo --stage static --perturb none --quiet --out " + out);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find(out + "/adult_static/report.html"), std::string::npos) << r.out;
  EXPECT_TRUE(std::filesystem::exists(out + "/adult_static/report.html"));

  std::ifstream sim_file(out + "/adult_static_poses/summary.json");
  const nlohmann::json sim = nlohmann::json::parse(sim_file);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex(R"(total mass \[kg\]\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+))")))
      << r.out;
  EXPECT_NEAR(std::stod(m[1]), sim["nominal_total_mass"].get<double>(), 5e-4);
  EXPECT_NEAR(std::stod(m[3]), sim["true_total_mass"].get<double>(), 5e-4);
  // Held-out poses: the CAD model misses the battery packs by millimetres (paper 000: 9.2 mm), the
  // identified model sub-millimetre.
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex(R"(held-out GCOM error \[mm\]\s+([0-9.]+)\s+([0-9.]+))")))
      << r.out;
  EXPECT_GE(std::stod(m[1]), 5.0);
  EXPECT_LE(std::stod(m[2]), 1.0);
  // Squat residual |Fz|: the missing weight (about 10 kg) before, the true model's floor after.
  ASSERT_TRUE(
      std::regex_search(r.out, m, std::regex(R"(squat residual \|Fz\| \[N\]\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+))")))
      << r.out;
  EXPECT_GT(std::stod(m[1]), 50.0);
  EXPECT_LT(std::stod(m[2]), 1.25 * std::stod(m[3]) + 0.5);
  // Every main segment's mass within 5 % of the truth (CAD's are 10 % or more off).
  std::ifstream id_file(out + "/adult_static/summary.json");
  const nlohmann::json id = nlohmann::json::parse(id_file);
  ASSERT_FALSE(id["segments"].empty());
  for (const auto& seg : id["segments"]) {
    EXPECT_LT(std::abs(seg["mass_error_percent"].get<double>()), 5.0) << seg["name"];
    EXPECT_GT(std::abs(seg["mass_error_percent_nominal"].get<double>()), 10.0) << seg["name"];
  }
  // On the idealised testbed the fit leaves what the markers' and plates' noise leaves in the poses'
  // means (measured 1.31 times it, 0.014 mm), no more.
  EXPECT_EQ(id["unexplained_residual"]["level"], "at-sensor-noise") << id["unexplained_residual"].dump();
  std::filesystem::remove_all(out);
}

// `--perturb`: the demo on the realistic testbed. The static stage with the markers mounted off
// the sidecar: the data set lists the perturbation, the identification calibrates the mounts (as
// the announced command line says) and still brings the held-out GCOM error below 1 mm (issue 19).
TEST(CliDemo, PerturbRunsTheStageOnTheRealisticTestbed) {
  const std::string out = std::filesystem::temp_directory_path() / ("dynid_demo_perturb_" + std::to_string(::getpid()));
  std::filesystem::remove_all(out);
  // Issue 19's static must-show: paper 000's protocol with every perturbation on.
  const Result r = run("demo --stage static --perturb all --seed 3 --out " + out);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("Testbed: the true robots and lab with "), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("--perturb inertia,geometry,joint-elasticity,time,markers,force-plates"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("--calibrate-markers --zero-plates --calibrate-plates"), std::string::npos) << r.err;
  std::ifstream dataset_file(out + "/adult_static_poses/dataset.json");
  const nlohmann::json dataset = nlohmann::json::parse(dataset_file);
  EXPECT_TRUE(dataset["perturbations"].contains("markers")) << dataset["perturbations"].dump();
  EXPECT_TRUE(dataset["perturbations"].contains("force-plates")) << dataset["perturbations"].dump();
  std::ifstream id_file(out + "/adult_static/summary.json");
  const nlohmann::json id = nlohmann::json::parse(id_file);
  EXPECT_TRUE(id.contains("marker_calibration"));
  // What the calibrations cannot take out (the plates' COP error, the mounts the poses cannot show)
  // is the same throughout a pose: far above the noise of the poses' means (the demo's seed 1: 10.4 times).
  EXPECT_GT(id["unexplained_residual"]["noise_ratio"].get<double>(), 5.0) << id["unexplained_residual"].dump();
  ASSERT_TRUE(id["plate_calibration"].is_object()) << id["plate_calibration"].dump();
  EXPECT_EQ(id["plate_calibration"]["split"], "per plate");
  // Each plate's zero from the poses on the other foot: the drift the simulator put in (within
  // +-0.2 N/min, +-0.02 N m/min), found within a tenth of its band (seed 1: 0.004 and 0.001 N/min
  // off in Fz).
  const nlohmann::json& listed = dataset["perturbations"]["force-plates"]["plates"];
  ASSERT_TRUE(id["plate_zero"].is_object()) << id["plate_zero"].dump();
  ASSERT_EQ(id["plate_zero"]["plates"].size(), 2u) << id["plate_zero"].dump();
  for (const auto& [plate, zero] : id["plate_zero"]["plates"].items()) {
    EXPECT_GE(zero["windows"].get<int>(), 1) << plate;
    ASSERT_TRUE(zero["drift_estimated"].get<bool>()) << plate;
    for (int c = 0; c < 6; ++c)
      EXPECT_NEAR(60.0 * zero["drift_per_s"][c].get<double>(), 60.0 * listed[plate]["drift_per_s"][c].get<double>(),
                  c < 3 ? 0.04 : 0.004)
          << plate << " channel " << c;
  }
  // The squat's plates and markers on clocks 44 ms apart (seed 3): the plates read on the markers'.
  std::ifstream squat_file(out + "/adult_squat/dataset.json");
  const nlohmann::json offsets = nlohmann::json::parse(squat_file)["perturbations"]["time"]["time_offset_s"];
  const nlohmann::json& clock = id["residual_wrench"]["plate_time_alignment"];
  ASSERT_TRUE(clock.is_object()) << id["residual_wrench"].dump();
  EXPECT_TRUE(clock["applied"].get<bool>()) << clock.dump();
  const double simulated = offsets["plates"].get<double>() - offsets["markers"].get<double>();
  EXPECT_GT(std::abs(simulated), 0.02);
  EXPECT_NEAR(clock["offset_s"].get<double>(), simulated, 2e-3) << clock.dump();
  // The same clock under the key every identification summary shares.
  const nlohmann::json& shared = id["time_alignment"]["force_plates"];
  ASSERT_TRUE(shared.is_object()) << id["time_alignment"].dump();
  EXPECT_EQ(shared["offset_s"].get<double>(), clock["offset_s"].get<double>());
  EXPECT_EQ(shared["drift_ppm"].get<double>(), 0.0);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex(R"(held-out GCOM error \[mm\]\s+([0-9.]+)\s+([0-9.]+))")))
      << r.out;
  EXPECT_GE(std::stod(m[1]), 5.0);
  EXPECT_LE(std::stod(m[2]), 1.0);
  // The squat: |Fz| under 5 N, and |Tx|, |Ty| at least 4 times below the nominal model's. The
  // plates' crosstalk (up to 1 % of the weight into each horizontal force, at the base's height),
  // a swapped marker pair and the clocks put 0.95 / 0.59 N m into the identified model's moments and
  // 2.0 N into |Fz|; with the plates calibrated from the poses, the swap dropped and the clocks
  // aligned, measured 2.52 / 6.30 -> 0.41 / 0.20 N m and 0.58 N (seeds 1 and 2: 4.3 / 18, 4.1 / 20
  // times below).
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex(R"(squat residual \|Fz\| \[N\]\s+([0-9.]+)\s+([0-9.]+))")))
      << r.out;
  EXPECT_LT(std::stod(m[2]), 5.0);
  for (const char* axis : {"Tx", "Ty"}) {
    ASSERT_TRUE(std::regex_search(
        r.out, m,
        std::regex(std::string(R"(squat residual \|)") + axis + R"(\| \[N m\]\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+))")))
        << r.out;
    EXPECT_LE(4.0 * std::stod(m[2]), std::stod(m[1])) << axis;
  }
  std::filesystem::remove_all(out);
}

// The inertial stage with the feet's F/T sensors miscalibrated (--perturb ft): the demo calibrates
// them with the model, the robot weighed on a scale, as its announced command line says; the total
// mass comes back (0.9 % low as read on seed 1) and the held-out base force is the true model's
// (docs/identification.md, "F/T calibration and a weighed total mass").
TEST(CliDemo, InertialStageCalibratesMiscalibratedFtSensors) {
  const std::string out = std::filesystem::temp_directory_path() / ("dynid_demo_ft_" + std::to_string(::getpid()));
  std::filesystem::remove_all(out);
  const Result r = run("demo --stage inertial --perturb ft --seed 1 --out " + out);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("--ft-calibration --total-mass 8.000"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("F/T force gains, calibrated with the model (weighed total mass 8.000 kg): l_sole"),
            std::string::npos)
      << r.out;
  std::ifstream id_file(out + "/kid_inertial/summary.json");
  const nlohmann::json id = nlohmann::json::parse(id_file);
  EXPECT_EQ(id["ft_calibration"]["contacts"].size(), 2u) << id["ft_calibration"].dump();
  // The calibrated vertical force gains against the simulated sensors' true calibration
  // (dataset.json perturbations.ft; read force = M * true force, so the correction is M^-1). The
  // total mass is not asserted: weighed, it is the calibration's input.
  std::ifstream walk_file(out + "/kid_walk/dataset.json");
  const nlohmann::json truth_ft = nlohmann::json::parse(walk_file)["perturbations"]["ft"]["sensors"];
  for (const auto& [contact, c] : id["ft_calibration"]["contacts"].items()) {
    const nlohmann::json& m = truth_ft[c["sensor"].get<std::string>()]["force_matrix"];
    auto at = [&](int i, int k) { return m[static_cast<std::size_t>(i)][static_cast<std::size_t>(k)].get<double>(); };
    const double det = at(0, 0) * (at(1, 1) * at(2, 2) - at(1, 2) * at(2, 1)) -
                       at(0, 1) * (at(1, 0) * at(2, 2) - at(1, 2) * at(2, 0)) +
                       at(0, 2) * (at(1, 0) * at(2, 1) - at(1, 1) * at(2, 0));
    const double true_gain = (at(0, 0) * at(1, 1) - at(0, 1) * at(1, 0)) / det;  // (M^-1)(2, 2)
    EXPECT_NEAR(c["force_matrix"][2][2].get<double>(), true_gain, 0.2 * std::abs(1.0 - true_gain)) << contact;
  }
  const nlohmann::json& force = id["validation"]["wrench_rms"];
  EXPECT_NEAR(force["identified"].get<double>(), force["truth"].get<double>(), 0.15 * force["truth"].get<double>())
      << force.dump();
  std::filesystem::remove_all(out);
}

// Issue 20 on the demo's realistic testbed (every perturbation, seed 1): the model the user takes
// home is nowhere farther from the truth than CAD's, class by class (median |identified - true| /
// median |CAD - true|: first moments / inertias 0.99 / 0.77, 0.76 / 1.40 before the demo held the
// parameters its walk does not determine at CAD), the held parameters are CAD's values, and the
// held-out base force is the true model's (docs/identification.md, "Keeping at CAD").
TEST(CliDemo, RealisticInertialStageIsNowhereFartherFromTheTruthThanCad) {
  const std::string out =
      std::filesystem::temp_directory_path() / ("dynid_demo_realistic_" + std::to_string(::getpid()));
  std::filesystem::remove_all(out);
  const Result r = run("demo --stage inertial --out " + out);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("held at CAD's values: "), std::string::npos) << r.out;
  std::ifstream id_file(out + "/kid_inertial/summary.json");
  const nlohmann::json id = nlohmann::json::parse(id_file);
  for (const char* cls : {"mass", "first_moment", "inertia"})
    EXPECT_LE(id["parameter_error_vs_nominal"][cls].get<double>(), 1.0)
        << cls << " " << id["parameter_error_vs_nominal"];
  EXPECT_LT(id["parameter_error_vs_nominal"]["mass"].get<double>(), 0.05);
  // The held ones are CAD's values; the determined ones move (12-15 times closer to the truth).
  std::ifstream base_file(out + "/kid_inertial/base_parameters.json");
  const nlohmann::json base = nlohmann::json::parse(base_file);
  int held = 0, moved = 0;
  for (const nlohmann::json& b : base) {
    const double value = b["value"].get<double>(), nominal = b["nominal"].get<double>();
    const double tolerance = 1e-6 * std::max(std::abs(nominal), 1e-3);
    if (b["determination"].get<double>() <= 0.75) {
      held += std::abs(value - nominal) <= tolerance;
    } else {
      moved += std::abs(value - nominal) > tolerance;
    }
  }
  EXPECT_EQ(held, id["cad_prior"]["held_at_cad"].get<int>());
  // The counts per class against the parameters themselves, counted here from base_parameters.json.
  std::map<std::string, std::array<int, 3>> counted;  // closer, farther, as far
  for (const nlohmann::json& b : base) {
    const std::string name = b["name"], suffix = name.substr(name.rfind('.') + 1);
    const std::string cls = suffix == "m" ? "mass" : suffix.rfind("mc", 0) == 0 ? "first_moment" : "inertia";
    const double id_error = std::abs(b["value"].get<double>() - b["truth"].get<double>());
    const double cad_error = std::abs(b["nominal"].get<double>() - b["truth"].get<double>());
    ++counted[cls][std::abs(id_error - cad_error) <= 1e-6 * cad_error ? 2 : id_error < cad_error ? 0 : 1];
  }
  for (const auto& [cls, n] : counted) {
    const nlohmann::json& c = id["parameter_closer_than_nominal"][cls];
    EXPECT_EQ(c["closer"].get<int>(), n[0]) << cls;
    EXPECT_EQ(c["farther"].get<int>(), n[1]) << cls;
    EXPECT_EQ(c["as_cad"].get<int>(), n[2]) << cls;
  }
  EXPECT_NE(r.out.find("base parameters closer to the truth than CAD's / farther / as far: mass "), std::string::npos)
      << r.out;
  EXPECT_GE(held, 47);  // at least half of the 94
  EXPECT_GE(moved, 10);
  const nlohmann::json& force = id["validation"]["wrench_rms"];
  EXPECT_NEAR(force["identified"].get<double>(), force["truth"].get<double>(), 0.1 * force["truth"].get<double>())
      << force.dump();

  // Issue 19: the total mass from the walk alone, the robot not weighed: the command the demo printed
  // without --ft-calibration --total-mass. Within 1.5 % of the truth (paper 003: 7.93 for 8.0 kg);
  // measured 7.932 kg, -0.85 %: the F/T sensors' gains, uncalibrated, scale the whole model.
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.err, m, std::regex(R"(identify inertial kid_humanoid (.*) -> (\S+))"))) << r.err;
  std::string command = m[1];
  const std::string weighed = " --ft-calibration --total-mass 8.000";
  const std::size_t at = command.find(weighed);
  ASSERT_NE(at, std::string::npos) << command;
  command.erase(at, weighed.size());
  const Result unweighed = run("identify inertial kid_humanoid " + command + " --truth " + out +
                               "/kid_walk/truth.urdf --quiet --out " + out + "/unweighed");
  ASSERT_EQ(unweighed.code, 0) << unweighed.err;
  std::ifstream unweighed_file(out + "/unweighed/summary.json");
  const nlohmann::json u = nlohmann::json::parse(unweighed_file);
  EXPECT_FALSE(u.contains("total_mass_weighed"));
  const double true_mass = u["truth_total_mass"].get<double>();
  EXPECT_NEAR(u["total_mass"].get<double>(), true_mass, 0.015 * true_mass) << u["total_mass"];
  EXPECT_GT(std::abs(u["total_mass"].get<double>() - u["nominal_total_mass"].get<double>()), 0.1 * true_mass);
  std::filesystem::remove_all(out);
}

TEST(CliDemo, UnknownPerturbationIsRefusedBeforeAnyOutput) {
  const Result r = run("demo --perturb markerz --out /nonexistent/never-created");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("unknown --perturb 'markerz'"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_FALSE(std::filesystem::exists("/nonexistent/never-created"));
}

TEST(CliDemo, UnknownStageIsRefused) {
  const Result r = run("demo --stage everything --out /nonexistent/never-created");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("stage"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists("/nonexistent/never-created"));
}

}  // namespace
