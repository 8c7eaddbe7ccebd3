// `dynid import c3d TRIAL.trc --plates TRIAL.mot --plate-layout LAYOUT`: the simulated static poses
// written as an OpenSim workflow writes them — one TRC per pose (markers in mm), one ground reaction
// .mot per pose (OpenSim's column names, the ground's force on the robot applied at the COP with the
// free moment for one plate and at the plate centre with the whole moment for the other, a second of
// samples before and after the trial, its own time column), the plates' corners in a small YAML —
// then imported: the data set holds the simulation's markers and plate wrenches, on the trials'
// clock, also when every file is in OpenSim's y-up frame (`--up y`), and `identify static` gives
// the figures it gives on the simulated data set. The files are written here from the formats'
// definitions (TRC header, OpenSim's ExternalForce columns), not by the importer's code.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <tuple>

#include "cli/run_dynid.hpp"
#include "dynid/data/lab_recording.hpp"
#include "dynid/mocap/c3d_import.hpp"
#include "dynid/scenarios/scenario.hpp"
#include "support/lab_recording_difference.hpp"
#include "support/scratch_files.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

constexpr int kSamplesPerFrame = 6;    // plates at 900 Hz, markers at 150 Hz (the simulation's)
constexpr long kExtraSamples = 90;     // the .mot runs 0.1 s before and after each trial
constexpr double kTrialClock = 12.25;  // the lab clock at the first pose's first frame [s]
constexpr double kPlateLag = 4e-4;     // the plates sample 0.4 ms after the cameras [s]

/// World (z up) to the files' lab frame: itself, or OpenSim's y up (x forward, y up, z right).
Vector3 to_lab(const Vector3& w, bool y_up) { return y_up ? Vector3(w.x(), w.z(), -w.y()) : w; }

std::string number(double x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.12g", x);
  return buf;
}

/// Frames [start, start + n) as a TRC (Motion Analysis / OpenSim layout), millimetres.
void write_trc(const LabRecording& rec, Eigen::Index start, Eigen::Index n, double t0, bool y_up,
               const std::string& path) {
  std::ofstream out(path);
  const auto& labels = rec.markers.labels;
  out << "PathFileType\t4\t(X/Y/Z)\t" << fs::path(path).filename().string() << "\n"
      << "DataRate\tCameraRate\tNumFrames\tNumMarkers\tUnits\tOrigDataRate\tOrigDataStartFrame\tOrigNumFrames\n"
      << "150.00\t150.00\t" << n << "\t" << labels.size() << "\tmm\t150.00\t1\t" << n << "\nFrame#\tTime";
  for (const std::string& l : labels) out << "\t" << l << "\t\t";
  out << "\n\t";
  for (std::size_t m = 0; m < labels.size(); ++m) out << "\tX" << m + 1 << "\tY" << m + 1 << "\tZ" << m + 1;
  out << "\n\n";
  for (Eigen::Index k = 0; k < n; ++k) {
    out << k + 1 << "\t" << number(t0 + static_cast<double>(k) / 150.0);
    for (std::size_t m = 0; m < labels.size(); ++m) {
      const Vector3 x = rec.markers.positions.block<3, 1>(3 * static_cast<Eigen::Index>(m), start + k);
      const Vector3 lab = to_lab(1e3 * x, y_up);
      for (int a = 0; a < 3; ++a) out << "\t" << (x.allFinite() ? number(lab[a]) : "NaN");
    }
    out << "\n";
  }
}

/// How the .mot files give lengths: `per_metre` units a metre for points (and N per-metre-units for
/// torques: 1000 writes millimetres and N mm), `header` lines added before endheader.
struct MotUnits {
  double per_metre = 1.0;
  std::string header;
};

/// Plate samples [start, start + n) (and kExtraSamples unloaded ones either side) as OpenSim's
/// ground reaction .mot: plate 1 `ground_force_v/p`, `ground_torque_` with the point at the COP
/// and the free moment (point at the centre with the whole moment where the plate is unloaded);
/// plate 2 `1_...` with the point at the plate centre and the whole moment, always.
void write_mot(const LabRecording& rec, Eigen::Index start, Eigen::Index n, double t0, bool y_up,
               const std::string& path, const MotUnits& units = {}) {
  std::ofstream out(path);
  const long rows = n + 2 * kExtraSamples;
  out << fs::path(path).filename().string() << "\nversion=1\nnRows=" << rows << "\nnColumns=19\ninDegrees=yes\n"
      << units.header << "endheader\ntime";
  for (const char* pre : {"", "1_"})
    for (const char* id : {"ground_force_v", "ground_force_p"})
      for (const char* a : {"x", "y", "z"}) out << "\t" << pre << id << a;
  for (const char* pre : {"", "1_"})
    for (const char* a : {"x", "y", "z"}) out << "\t" << pre << "ground_torque_" << a;
  out << "\n";
  for (long r = 0; r < rows; ++r) {
    const Eigen::Index s = start + r - kExtraSamples;
    const bool inside = r >= kExtraSamples && r < kExtraSamples + n;
    Vector3 force[2], point[2], torque[2];
    for (int p = 0; p < 2; ++p) {
      const Vector3 centre = rec.dataset.force_plates[static_cast<std::size_t>(p)].origin;
      // The simulation's plates.csv: the robot's wrench on the plate about its centre; the file: the
      // ground's on the robot.
      const Vector3 f = inside ? Vector3(-rec.plate_wrench.block<3, 1>(6 * p, s)) : Vector3::Zero();
      const Vector3 m = inside ? Vector3(-rec.plate_wrench.block<3, 1>(6 * p + 3, s)) : Vector3::Zero();
      force[p] = f;
      point[p] = centre;
      torque[p] = m;
      if (p == 0 && std::abs(f.z()) >= 20.0) {
        // m = (cop - centre) x f + (0, 0, tz) with the COP on the surface: cop - centre = (dx, dy, 0).
        const double dx = -m.y() / f.z(), dy = m.x() / f.z();
        point[p] = centre + Vector3(dx, dy, 0.0);
        torque[p] = Vector3(0.0, 0.0, m.z() - (dx * f.y() - dy * f.x()));
      }
    }
    out << number(t0 + static_cast<double>(r) / 900.0);
    for (int p = 0; p < 2; ++p) {
      point[p] *= units.per_metre;
      torque[p] *= units.per_metre;
      for (const Vector3* v : {&force[p], &point[p]})
        for (int a = 0; a < 3; ++a) out << "\t" << number(to_lab(*v, y_up)[a]);
    }
    for (int p = 0; p < 2; ++p)
      for (int a = 0; a < 3; ++a) out << "\t" << number(to_lab(torque[p], y_up)[a]);
    out << "\n";
  }
}

/// The plates' corners of `rec` in the files' frame, into `dir`: YAML in order (z up, mm), JSON with
/// the identifiers (y up, m). Returns the file.
std::string write_layout(const LabRecording& rec, const std::string& dir, bool y_up) {
  const std::string path = dir + (y_up ? "/plates.json" : "/plates.yaml");
  std::ofstream layout(path);
  layout << (y_up ? "{\"plates\": [" : "units: mm\nplates:\n");
  for (std::size_t p = 0; p < rec.dataset.force_plates.size(); ++p) {
    const Eigen::Matrix3Xd& c = rec.dataset.force_plates[p].corners;
    std::string corners;
    for (Eigen::Index k = 0; k < c.cols(); ++k) {
      const Vector3 x = to_lab(c.col(k), y_up) * (y_up ? 1.0 : 1e3);
      corners += std::string(k ? ", " : "") + "[" + number(x[0]) + ", " + number(x[1]) + ", " + number(x[2]) + "]";
    }
    const std::string pre = p == 0 ? "" : "1_";
    if (y_up)
      layout << (p ? ", " : "") << "{\"corners\": [" << corners << "], \"force\": \"" << pre
             << "ground_force_v\", \"point\": \"" << pre << "ground_force_p\", \"torque\": \"" << pre
             << "ground_torque_\"}";
    else
      layout << "  - corners: [" << corners << "]\n";
  }
  if (y_up) layout << "]}\n";
  return path;
}

struct LabFiles {
  std::string dataset;  ///< the simulation's
  std::vector<std::string> trc, mot;
  std::string layout;
  std::vector<double> trial_clock;  ///< each TRC's first Time [s]
};

/// One TRC and one .mot per pose of the simulated static poses, in the z-up or y-up lab frame, the
/// .mot files in `units` (metres by default; `variant` names the directory of another unit's).
LabFiles write_lab_files(bool y_up, const MotUnits& units = {}, const std::string& variant = "") {
  static const std::string dataset = [] {
    const Robot robot = test::bundled_robot("adult_humanoid");
    const std::string dir = test::fresh_dir("trc_plates", "poses");
    ScenarioOptions o;
    o.scenario = "static-poses";
    o.out_dir = dir;
    o.seed = 6;
    o.static_pose_count = 12;
    run_scenario(robot, o);
    return dir;
  }();
  LabFiles out;
  out.dataset = dataset;
  const LabRecording rec = read_lab_recording(dataset);
  const Eigen::Index frames = rec.markers.frame_count();
  EXPECT_EQ(static_cast<Eigen::Index>(rec.plate_time.size()), kSamplesPerFrame * frames);
  const std::string dir = test::fresh_dir("trc_plates", std::string(y_up ? "files_y_up" : "files_z_up") + variant);
  fs::create_directories(dir);
  Eigen::Index start = 0;
  for (Eigen::Index f = 1; f <= frames; ++f) {
    if (f < frames &&
        rec.markers.time[static_cast<std::size_t>(f)] - rec.markers.time[static_cast<std::size_t>(f - 1)] < 0.1)
      continue;
    const std::string stem = dir + "/pose_" + std::to_string(out.trc.size() + 1);
    // Each trial on the lab's clock, 30 s apart; the .mot starts 0.1 s before its TRC, its samples
    // kPlateLag after the frames.
    const double t0 = kTrialClock + 30.0 * static_cast<double>(out.trc.size());
    write_trc(rec, start, f - start, t0, y_up, stem + ".trc");
    write_mot(rec, kSamplesPerFrame * start, kSamplesPerFrame * (f - start),
              t0 - static_cast<double>(kExtraSamples) / 900.0 + kPlateLag, y_up, stem + ".mot", units);
    out.trc.push_back(stem + ".trc");
    out.mot.push_back(stem + ".mot");
    out.trial_clock.push_back(t0);
    start = f;
  }
  out.layout = write_layout(rec, dir, y_up);
  return out;
}

/// The imported data set holds the simulation's markers and plate wrenches, each trial's plate
/// samples at its frames' times.
void expect_same_as_simulation(const LabFiles& files, const std::string& imported_dir) {
  const LabRecording sim = read_lab_recording(files.dataset), imported = read_lab_recording(imported_dir);
  ASSERT_EQ(imported.markers.frame_count(), sim.markers.frame_count());
  ASSERT_EQ(imported.markers.labels, sim.markers.labels);
  ASSERT_EQ(imported.plate_wrench.cols(), sim.plate_wrench.cols());  // the extra samples were left out
  const test::LabRecordingDifference d = test::lab_recording_difference(sim, imported);
  EXPECT_EQ(d.missing_mismatch, 0);
  EXPECT_LT(d.marker, 1e-9);  // 12 digits of millimetres
  EXPECT_LT(d.force, 1e-8);   // 12 digits of about 400 N
  EXPECT_LT(d.moment, 1e-8);  // through the COP and back
  ASSERT_EQ(imported.dataset.force_plates.size(), sim.dataset.force_plates.size());
  for (std::size_t p = 0; p < sim.dataset.force_plates.size(); ++p)
    EXPECT_LT((imported.dataset.force_plates[p].origin - sim.dataset.force_plates[p].origin).norm(), 1e-12);
  // Time base: within each trial, plate sample k is at the trial's first frame + kPlateLag + k / 900 s
  // (the .mot's own clock against the TRC's).
  ASSERT_EQ(imported.dataset.segments.size(), files.trc.size());
  std::size_t k = 0;
  double largest = 0.0;
  for (const auto& segment : imported.dataset.segments) {
    for (long i = 0; k < imported.plate_time.size() && imported.plate_time[k] <= segment.end + 1e-9; ++k, ++i)
      largest = std::max(
          largest, std::abs(imported.plate_time[k] - (segment.start + kPlateLag + static_cast<double>(i) / 900.0)));
  }
  EXPECT_EQ(k, imported.plate_time.size());
  EXPECT_LT(largest, 1e-9);
}

TEST(TrcPlatesImport, TrcAndMotImportBackToTheSimulatedMarkersAndPlates) {
  const LabFiles files = write_lab_files(false);
  ASSERT_EQ(files.trc.size(), 12u);
  const Robot robot = test::bundled_robot("adult_humanoid");
  C3dImportOptions o;
  o.trials = files.trc;
  o.plate_files = files.mot;
  o.plate_layout_path = files.layout;
  o.out_dir = test::fresh_dir("trc_plates", "imported");
  o.model = &robot.model;
  const C3dImportResult r = import_c3d(o);
  EXPECT_TRUE(r.unknown_labels.empty());
  EXPECT_EQ(r.plates, (std::vector<std::string>{"plate1", "plate2"}));
  EXPECT_EQ(r.analog_rate_hz, 900.0);  // the .mot's rate from its time column
  expect_same_as_simulation(files, o.out_dir);
  const json summary = json::parse(r.summary_json);
  ASSERT_EQ(summary["plate_files"].size(), 12u);
  EXPECT_EQ(summary["plate_files"][0]["samples_outside_trial"].get<long>(), 2 * kExtraSamples);
  EXPECT_EQ(summary["plate_files"][0]["plates"], (json{"ground_force_v", "1_ground_force_v"}));
  EXPECT_FALSE(summary["plate_files"][0]["resampled"].get<bool>());
}

TEST(TrcPlatesImport, OpenSimsYUpFilesImportToTheSameDataSet) {
  const LabFiles files = write_lab_files(true);
  const std::string out = test::fresh_dir("trc_plates", "imported_y_up");
  std::string args = "import c3d";
  for (const std::string& f : files.trc) args += " " + f;
  args += " --plates";
  for (const std::string& f : files.mot) args += " " + f;
  const Result r = run(args + " --plate-layout " + files.layout + " --up y --model adult_humanoid --out " + out);
  ASSERT_EQ(r.code, 0) << r.err;
  expect_same_as_simulation(files, out);
  // Without --up y the y-up plates stand on their edge: one line naming the plate and the option.
  const Result wrong = run(args + " --plate-layout " + files.layout + " --out " + out + "_wrong");
  EXPECT_EQ(wrong.code, 1);
  EXPECT_NE(wrong.err.find("is not horizontal in dynid's z-up world"), std::string::npos) << wrong.err;
  EXPECT_NE(wrong.err.find("--up y"), std::string::npos) << wrong.err;
  EXPECT_EQ(std::count(wrong.err.begin(), wrong.err.end(), '\n'), 1) << wrong.err;
  EXPECT_FALSE(fs::exists(out + "_wrong"));
}

TEST(TrcPlatesImport, IdentifyStaticOnTheImportedTrialsGivesTheDataSetsFigures) {
  const LabFiles files = write_lab_files(false);
  const std::string imported = test::fresh_dir("trc_plates", "cli_imported");
  std::string args = "import c3d";
  for (const std::string& f : files.trc) args += " " + f;
  for (const std::string& f : files.mot) args += " --plates " + f;
  const Result import_result =
      run(args + " --plate-layout " + files.layout + " --model adult_humanoid --out " + imported);
  ASSERT_EQ(import_result.code, 0) << import_result.err;
  const std::string common = " --total-mass 77.6 --windows segments --heldout-fraction 0.25";
  const std::string out_sim = test::fresh_dir("trc_plates", "id_sim"),
                    out_trc = test::fresh_dir("trc_plates", "id_trc");
  const Result a = run("identify static adult_humanoid " + files.dataset + common + " --out " + out_sim);
  const Result b = run("identify static adult_humanoid " + imported + common + " --out " + out_trc);
  ASSERT_EQ(a.code, 0) << a.err;
  ASSERT_EQ(b.code, 0) << b.err;
  const json sa = json::parse(test::read_file(out_sim + "/summary.json"));
  const json sb = json::parse(test::read_file(out_trc + "/summary.json"));
  EXPECT_EQ(sa["poses"], sb["poses"]);
  // As with the C3D trials (c3d_import_test.cpp): no encoders in the trials, so the marker IK starts
  // without them; the figures agree to a few tenths of a percent.
  EXPECT_NEAR(sb["gcom_error_mm"]["identified"]["heldout"]["mean"].get<double>(),
              sa["gcom_error_mm"]["identified"]["heldout"]["mean"].get<double>(), 0.02);
  ASSERT_EQ(sa["segments"].size(), sb["segments"].size());
  for (std::size_t s = 0; s < sa["segments"].size(); ++s)
    EXPECT_NEAR(sb["segments"][s]["mass_after"].get<double>(), sa["segments"][s]["mass_after"].get<double>(),
                5e-3 * sa["segments"][s]["mass_after"].get<double>())
        << sa["segments"][s]["name"];
}

TEST(TrcPlatesImport, OptionsThatDoNotGoTogetherAreOneLine) {
  const LabFiles files = write_lab_files(false);
  const std::string out = test::fresh_dir("trc_plates", "bad_options");
  const auto expect_one_line = [&](const std::string& args, const std::string& fragment) {
    const Result r = run("import c3d " + args + " --out " + out);
    EXPECT_EQ(r.code, 1) << args;
    EXPECT_NE(r.err.find(fragment), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(fs::exists(out));
  };
  expect_one_line(files.trc[0] + " --plates " + files.mot[0], "--plates needs --plate-layout");
  expect_one_line(files.trc[0] + " " + files.trc[1] + " --plates " + files.mot[0] + " --plate-layout " + files.layout,
                  "1 plate files for 2 trials");
  expect_one_line(files.trc[0] + " --plates " + files.mot[1] + " --plate-layout " + files.layout,
                  "does not overlap the trial's");  // pose 2's plates beside pose 1
  expect_one_line(files.trc[0] + " --plate-layout " + files.layout, "--plate-layout needs --plates");
  const std::string c3d = std::string(DYNID_TEST_FIXTURES_DIR) + "/mocap/four_plates.c3d";
  expect_one_line(c3d + " --plates " + files.mot[0] + " --plate-layout " + files.layout,
                  "--plates goes with TRC trials (a C3D carries its own force plates)");
}

/// `--plates F1 F2 ...` (and the trials before it) as one argument string.
std::string trials_and_plates(const LabFiles& files) {
  std::string args;
  for (const std::string& f : files.trc) args += " " + f;
  args += " --plates";
  for (const std::string& f : files.mot) args += " " + f;
  return args + " --plate-layout " + files.layout;
}

TEST(TrcPlatesImport, IdentifyStaticTakesTheTrcTrialsWithTheirPlatesDirectly) {
  const LabFiles files = write_lab_files(false);
  const std::string imported = test::fresh_dir("trc_plates", "direct_imported");
  const Result import_result =
      run("import c3d" + trials_and_plates(files) + " --model adult_humanoid --out " + imported);
  ASSERT_EQ(import_result.code, 0) << import_result.err;
  const std::string common = " --total-mass 77.6 --windows segments --heldout-fraction 0.25";
  const std::string out_imported = test::fresh_dir("trc_plates", "direct_id_imported"),
                    out_direct = test::fresh_dir("trc_plates", "direct_id_direct");
  const Result a = run("identify static adult_humanoid " + imported + common + " --out " + out_imported);
  // No import step: the TRCs and their .mot files straight into identify static.
  const Result b = run("identify static adult_humanoid" + trials_and_plates(files) + common + " --out " + out_direct);
  ASSERT_EQ(a.code, 0) << a.err;
  ASSERT_EQ(b.code, 0) << b.err;
  const json sa = json::parse(test::read_file(out_imported + "/summary.json"));
  const json sb = json::parse(test::read_file(out_direct + "/summary.json"));
  EXPECT_EQ(sa["poses"], sb["poses"]);
  for (const char* model : {"nominal", "identified"})
    for (const char* set : {"fit", "heldout"})
      EXPECT_NEAR(sb["gcom_error_mm"][model][set]["mean"].get<double>(),
                  sa["gcom_error_mm"][model][set]["mean"].get<double>(), 1e-9)
          << model << " " << set;
  ASSERT_EQ(sa["segments"].size(), sb["segments"].size());
  for (std::size_t s = 0; s < sa["segments"].size(); ++s)
    EXPECT_NEAR(sb["segments"][s]["mass_after"].get<double>(), sa["segments"][s]["mass_after"].get<double>(), 1e-9)
        << sa["segments"][s]["name"];
  EXPECT_NEAR(sb["total_mass"]["identified"].get<double>(), sa["total_mass"]["identified"].get<double>(), 1e-9);
  // The imported data set was temporary: the user's error messages and the summary name the
  // trials, not it.
  EXPECT_EQ(b.err.find("dynid-imported"), std::string::npos) << b.err;
  EXPECT_EQ(sb.dump().find("dynid-imported"), std::string::npos) << sb["data"];
  EXPECT_NE(sb.dump().find(files.trc.front()), std::string::npos);
}

TEST(TrcPlatesImport, IdentifyCommandsRefuseTrialOptionsThatDoNotGoTogetherInOneLine) {
  const LabFiles files = write_lab_files(false);
  const std::string out = test::fresh_dir("trc_plates", "identify_bad_options");
  const auto expect_one_line = [&](const std::string& args, const std::string& fragment) {
    const Result r = run(args + " --out " + out);
    EXPECT_EQ(r.code, 1) << args;
    EXPECT_NE(r.err.find(fragment), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(fs::exists(out));
  };
  const std::string st = "identify static adult_humanoid ", mass = " --total-mass 77.6";
  const std::string c3d = std::string(DYNID_TEST_FIXTURES_DIR) + "/mocap/four_plates.c3d";
  expect_one_line(
      st + files.trc[0] + " " + files.trc[1] + " --plates " + files.mot[0] + " --plate-layout " + files.layout + mass,
      "1 plate files for 2 trials: give one per trial, in order");
  expect_one_line(st + c3d + " --plates " + files.mot[0] + " --plate-layout " + files.layout + mass,
                  "--plates goes with TRC trials (a C3D carries its own force plates)");
  expect_one_line(st + files.dataset + " --plates " + files.mot[0] + " --plate-layout " + files.layout + mass,
                  files.dataset + ": --plates, --plate-layout, --plates-unit and --up go with TRC trials");
  expect_one_line(st + files.dataset + " " + files.trc[0] + mass,
                  files.dataset + ": is not a .c3d or .trc trial: give one data set directory, or one or more");
  expect_one_line(st + files.trc[0] + " " + files.trc[1] + mass,
                  files.trc[0] +
                      ": a TRC holds markers only and identify static needs force plates: give the "
                      "trial's ground reaction file with --plates FILE.mot");
  expect_one_line(st + files.dataset + mass + " --validate " + files.trc[0],
                  "--validate " + files.trc[0] +
                      ": a TRC holds markers only and the validation needs force plates: give its ground reaction "
                      "file with --validate-plates FILE.mot");
  expect_one_line(st + files.dataset + mass + " --validate-plates " + files.mot[0],
                  "--validate-plates goes with a TRC trial as --validate (none given)");
  expect_one_line("identify inertial adult_humanoid " + files.trc[0] + " --source mocap --sensors contact --quiet",
                  files.trc[0] + ": a TRC holds markers only and identify inertial --source mocap needs force plates");
  expect_one_line("identify inertial adult_humanoid " + files.trc[0] + " --source mocap --sensors contact --quiet" +
                      " --plates " + files.mot[0] + " " + files.mot[1] + " --plate-layout " + files.layout,
                  "2 plate files for 1 trials");
}

TEST(TrcPlatesImport, MotFilesInMillimetresImportToTheSameDataSet) {
  const LabFiles metres = write_lab_files(false);
  // Points in mm and torques in N mm, as OpenSim's C3D export writes them unconverted: once without a
  // word in the header, once with OpenSim's `Units=mm` metadata line.
  const LabFiles mm = write_lab_files(false, {1e3, ""}, "_mm");
  const LabFiles said = write_lab_files(false, {1e3, "Units=mm\n"}, "_mm_said");
  const std::string base = test::fresh_dir("trc_plates", "units");
  const auto import = [&](const LabFiles& files, const std::string& extra, const std::string& out) {
    return run("import c3d" + trials_and_plates(files) + extra + " --model adult_humanoid --out " + out);
  };
  const Result si = import(metres, "", base + "_m");
  ASSERT_EQ(si.code, 0) << si.err;
  const LabRecording reference = read_lab_recording(base + "_m");
  for (const auto& [files, extra, out] : {std::tuple{mm, std::string(" --plates-unit mm"), base + "_mm_given"},
                                          std::tuple{said, std::string(), base + "_mm_header"}}) {
    const Result r = import(files, extra, out);
    ASSERT_EQ(r.code, 0) << r.err;
    const LabRecording imported = read_lab_recording(out);
    ASSERT_EQ(imported.plate_wrench.cols(), reference.plate_wrench.cols());
    ASSERT_EQ(imported.plate_time.size(), reference.plate_time.size());
    const test::LabRecordingDifference d = test::lab_recording_difference(reference, imported);
    EXPECT_EQ(d.marker, 0.0) << out;  // the same TRCs
    EXPECT_LT(d.force, 1e-9) << out;
    EXPECT_LT(d.moment, 1e-9) << out;
    for (std::size_t k = 0; k < reference.plate_time.size(); ++k)
      ASSERT_EQ(imported.plate_time[k], reference.plate_time[k]);
    const json summary = json::parse(test::read_file(out + "/import.json"));
    EXPECT_EQ(summary["plate_files"][0]["length_unit"], "mm") << out;
    EXPECT_EQ(summary["plate_files"][0]["length_unit_from"], extra.empty() ? "header" : "given") << out;
  }
  // The unlabelled millimetres without the option: one line naming it, nothing written.
  const Result refused = import(mm, "", base + "_refused");
  EXPECT_EQ(refused.code, 1);
  EXPECT_NE(refused.err.find("loaded samples are applied at a point off the plate"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("--plates-unit mm"), std::string::npos) << refused.err;
  EXPECT_EQ(std::count(refused.err.begin(), refused.err.end(), '\n'), 1) << refused.err;
  EXPECT_FALSE(fs::exists(base + "_refused"));
  // A header and an option that disagree, and the option without --plates.
  const Result disagree = import(said, " --plates-unit m", base + "_disagree");
  EXPECT_EQ(disagree.code, 1);
  EXPECT_NE(disagree.err.find(said.mot[0] + ": line 6: the header says units mm but --plates-unit says m"),
            std::string::npos)
      << disagree.err;
  const Result alone = run("import c3d " + metres.trc[0] + " --plates-unit mm --out " + base + "_alone");
  EXPECT_EQ(alone.code, 1);
  EXPECT_NE(alone.err.find("--plates-unit needs --plates"), std::string::npos) << alone.err;
}

TEST(TrcPlatesImport, IdentifyInertialTakesATrcSquatWithItsPlatesDirectly) {
  // The adult's noise-free squat as a lab would hand it over: one TRC (mm) and its .mot.
  const std::string dataset = test::fresh_dir("trc_plates", "squat");
  const Result simulated = run("simulate adult_humanoid --scenario squat --noise none --quiet --out " + dataset);
  ASSERT_EQ(simulated.code, 0) << simulated.err;
  const LabRecording rec = read_lab_recording(dataset);
  const Eigen::Index frames = rec.markers.frame_count();
  ASSERT_EQ(static_cast<Eigen::Index>(rec.plate_time.size()), kSamplesPerFrame * frames);
  const std::string dir = test::fresh_dir("trc_plates", "squat_files");
  fs::create_directories(dir);
  write_trc(rec, 0, frames, kTrialClock, false, dir + "/squat.trc");
  write_mot(rec, 0, kSamplesPerFrame * frames, kTrialClock - static_cast<double>(kExtraSamples) / 900.0 + kPlateLag,
            false, dir + "/squat.mot");
  const std::string plates = " --plates " + dir + "/squat.mot --plate-layout " + write_layout(rec, dir, false);
  const std::string imported = test::fresh_dir("trc_plates", "squat_imported");
  const Result import_result = run("import c3d " + dir + "/squat.trc" + plates + " --out " + imported);
  ASSERT_EQ(import_result.code, 0) << import_result.err;
  const std::string common = " --source mocap --sensors contact --quiet --out ";
  const Result a =
      run("identify inertial adult_humanoid " + imported + common + test::fresh_dir("trc_plates", "squat_id_imported"));
  const Result b = run("identify inertial adult_humanoid " + dir + "/squat.trc" + plates + common +
                       test::fresh_dir("trc_plates", "squat_id_direct"));
  ASSERT_EQ(a.code, 0) << a.err;
  ASSERT_EQ(b.code, 0) << b.err;
  const json sa = json::parse(a.out), sb = json::parse(b.out);
  EXPECT_NEAR(sb["total_mass"].get<double>(), sa["total_mass"].get<double>(), 1e-9);
  for (const char* model : {"nominal", "identified"})
    EXPECT_NEAR(sb["validation"]["wrench_rms"][model].get<double>(),
                sa["validation"]["wrench_rms"][model].get<double>(), 1e-9)
        << model;
  EXPECT_EQ(sb["data"], dir + "/squat.trc");  // the trial, not its temporary import
  EXPECT_EQ(b.out.find("dynid-imported"), std::string::npos);
  // The trial as the validation motion, with its plates (--validate-plates; the layout is the
  // lab's): the figures of the imported data set as --validate.
  const std::string layout = " --plate-layout " + write_layout(rec, dir, false);
  const Result c = run("identify inertial adult_humanoid " + imported + " --validate " + imported + common +
                       test::fresh_dir("trc_plates", "squat_validate_imported"));
  const Result d =
      run("identify inertial adult_humanoid " + imported + " --validate " + dir + "/squat.trc" + " --validate-plates " +
          dir + "/squat.mot" + layout + common + test::fresh_dir("trc_plates", "squat_validate_trc"));
  ASSERT_EQ(c.code, 0) << c.err;
  ASSERT_EQ(d.code, 0) << d.err;
  const json sc = json::parse(c.out), sd = json::parse(d.out);
  for (const char* model : {"nominal", "identified"})
    EXPECT_NEAR(sd["validation"]["wrench_rms"][model].get<double>(),
                sc["validation"]["wrench_rms"][model].get<double>(), 1e-9)
        << model;
  EXPECT_EQ(sd["validation_data"], dir + "/squat.trc");
  // The import's figures are the robot's: the squat identifies it (as on the simulated data set).
  EXPECT_LT(sb["validation"]["wrench_rms"]["identified"].get<double>(),
            sb["validation"]["wrench_rms"]["nominal"].get<double>())
      << b.out;
}

}  // namespace
}  // namespace dynid
