// `dynid import c3d` and the identify commands taking a lab's C3D trials: the simulated static poses
// are written as a lab writes them — one C3D trial per pose, markers in mm as 32-bit floats, two
// type-2 force plates whose channels are the ground reaction in plate axes about the transducer
// origin (built here from the C3D User Guide's conventions with the plate model of
// mocap/force_plate.hpp, not from the importer) — then imported: the data set holds the same
// markers and plate wrenches as the simulation's, and `identify static` on the trials gives the
// figures it gives on the simulated data set. Also the label map, the unknown labels and the
// one-line errors.

#include "dynid/mocap/c3d_import.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>

#include "../mocap/mocap_fixtures.hpp"
#include "cli/run_dynid.hpp"
#include "dynid/data/lab_recording.hpp"
#include "dynid/mocap/c3d_writer.hpp"
#include "dynid/scenarios/scenario.hpp"
#include "support/lab_recording_difference.hpp"
#include "support/scratch_files.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

constexpr double kTransducerDepthMm = 40.0;  // surface centre 40 mm above the transducer origin

struct Trials {
  std::string dataset;                    ///< the simulation's data set
  std::vector<std::string> files;         ///< one C3D per pose
  std::vector<Eigen::Index> first_frame;  ///< each trial's first marker row in the data set
};

/// The data set's plates as C3D type-2 floor plates (SI, as the reader should find them).
std::vector<ForcePlate> c3d_plates(const LabRecording& rec) {
  std::vector<ForcePlate> plates;
  for (std::size_t i = 0; i < rec.dataset.force_plates.size(); ++i) {
    const ForcePlateInfo& info = rec.dataset.force_plates[i];
    const Eigen::Matrix3Xd& c = info.corners;
    const double half_x = 0.5 * (c.row(0).maxCoeff() - c.row(0).minCoeff());
    const double half_y = 0.5 * (c.row(1).maxCoeff() - c.row(1).minCoeff());
    ForcePlate p;
    p.number = static_cast<int>(i + 1);
    p.type = 2;
    p.corners_world = testing::floor_plate_corners(info.origin, half_x, half_y);
    p.origin_plate = Vector3(0.0, 0.0, -kTransducerDepthMm * 1e-3);
    p.length_to_si = 1e-3;
    p.moment_to_si = 1e-3;
    for (int k = 0; k < 6; ++k) p.channels.push_back(6 * static_cast<int>(i) + k);
    plates.push_back(p);
  }
  return plates;
}

/// Frames [start, start + n) of a simulated recording as a lab's C3D trial: markers in mm, the
/// plates as type-2 plates (ground reaction in plate axes about the transducer origin).
void write_trial_c3d(const LabRecording& rec, const std::vector<ForcePlate>& plates, Eigen::Index start, Eigen::Index n,
                     const std::string& path) {
  const Eigen::Index markers = static_cast<Eigen::Index>(rec.markers.labels.size());
  const int spf = 6;  // plates at 900 Hz, markers at 150 Hz
  C3dFile file;
  C3dParameters& p = file.parameters;
  p.set_number("POINT", "SCALE", C3dType::Float, -0.01);
  p.set_number("POINT", "RATE", C3dType::Float, 150.0);
  std::vector<std::string> labels = rec.markers.labels;
  labels[0] = "Robot:" + labels[0];  // a Vicon subject prefix
  p.set_strings("POINT", "LABELS", labels);
  p.set_strings("POINT", "UNITS", {"mm"});
  file.points.resize(n, 3 * markers);
  file.point_info.resize(n, markers);
  for (Eigen::Index k = 0; k < n; ++k)
    for (Eigen::Index m = 0; m < markers; ++m) {
      const Vector3 x = rec.markers.positions.block<3, 1>(3 * m, start + k);
      const bool missing = !x.allFinite();
      file.points.block(k, 3 * m, 1, 3) = missing ? Eigen::RowVector3d::Zero() : Eigen::RowVector3d(1e3 * x);
      file.point_info(k, m) = missing ? -1.0 : 0.0;
    }
  std::vector<double> corners, origins, channel, scales, offsets;
  std::vector<std::string> analog_labels, units;
  for (const ForcePlate& plate : plates) {
    for (int k = 0; k < 12; ++k) corners.push_back(1e3 * plate.corners_world(k % 3, k / 3));
    for (int k = 0; k < 3; ++k) origins.push_back(1e3 * plate.origin_plate[k]);
    for (int k = 0; k < 6; ++k) {
      channel.push_back(plate.channels[static_cast<std::size_t>(k)] + 1);
      scales.push_back(1.0);
      offsets.push_back(0.0);
      units.push_back(k < 3 ? "N" : "Nmm");
      analog_labels.push_back("FP" + std::to_string(plate.number) + (k < 3 ? "F" : "M") + "xyz"[k % 3]);
    }
  }
  const int channels = static_cast<int>(6 * plates.size());
  p.set_number("FORCE_PLATFORM", "USED", C3dType::Int16, static_cast<double>(plates.size()));
  p.set_numbers("FORCE_PLATFORM", "TYPE", C3dType::Int16, std::vector<double>(plates.size(), 2.0),
                {static_cast<int>(plates.size())});
  p.set_numbers("FORCE_PLATFORM", "CORNERS", C3dType::Float, corners, {3, 4, static_cast<int>(plates.size())});
  p.set_numbers("FORCE_PLATFORM", "ORIGIN", C3dType::Float, origins, {3, static_cast<int>(plates.size())});
  p.set_numbers("FORCE_PLATFORM", "CHANNEL", C3dType::Int16, channel, {6, static_cast<int>(plates.size())});
  p.set_number("ANALOG", "USED", C3dType::Int16, channels);
  p.set_number("ANALOG", "RATE", C3dType::Float, 900.0);
  p.set_number("ANALOG", "GEN_SCALE", C3dType::Float, 1.0);
  p.set_numbers("ANALOG", "SCALE", C3dType::Float, scales, {channels});
  p.set_numbers("ANALOG", "OFFSET", C3dType::Int16, offsets, {channels});
  p.set_strings("ANALOG", "LABELS", analog_labels);
  p.set_strings("ANALOG", "UNITS", units);
  file.analogs.resize(spf * n, channels);
  for (Eigen::Index s = 0; s < spf * n; ++s)
    for (std::size_t i = 0; i < plates.size(); ++i) {
      // plates.csv: the robot's wrench on the plate about its top centre, world axes; the C3D
      // stores the ground reaction on the robot, plate axes.
      const Eigen::Index col = spf * start + s;
      const Vector3 force = -rec.plate_wrench.block<3, 1>(6 * static_cast<Eigen::Index>(i), col);
      const Vector3 m = -rec.plate_wrench.block<3, 1>(6 * static_cast<Eigen::Index>(i) + 3, col);
      const Matrix3 R = plates[i].rotation_world_plate();
      const Eigen::VectorXd ch = plate_channels(plates[i], {R.transpose() * force, R.transpose() * m});
      for (int k = 0; k < 6; ++k) file.analogs(s, plates[i].channels[static_cast<std::size_t>(k)]) = ch[k];
    }
  write_c3d_file(path, file);
}

/// One C3D per pose of the simulated static-poses data set (the frames between two time gaps).
const Trials& trials() {
  static const Trials t = [] {
    const Robot robot = test::bundled_robot("adult_humanoid");
    Trials out;
    out.dataset = test::fresh_dir("c3d_import", "poses");
    ScenarioOptions o;
    o.scenario = "static-poses";
    o.out_dir = out.dataset;
    o.seed = 6;
    o.static_pose_count = 12;
    run_scenario(robot, o);
    const LabRecording rec = read_lab_recording(out.dataset);
    const std::vector<ForcePlate> plates = c3d_plates(rec);
    const Eigen::Index frames = rec.markers.frame_count();
    const int spf = 6;  // plates at 900 Hz, markers at 150 Hz
    EXPECT_EQ(static_cast<Eigen::Index>(rec.plate_time.size()), spf * frames);
    const std::string dir = test::fresh_dir("c3d_import", "trials");
    Eigen::Index start = 0;
    for (Eigen::Index f = 1; f <= frames; ++f) {
      if (f < frames &&
          rec.markers.time[static_cast<std::size_t>(f)] - rec.markers.time[static_cast<std::size_t>(f - 1)] < 0.1)
        continue;
      const Eigen::Index n = f - start;
      const std::string path = dir + "/pose_" + std::to_string(out.files.size() + 1) + ".c3d";
      write_trial_c3d(rec, plates, start, n, path);
      out.files.push_back(path);
      out.first_frame.push_back(start);
      start = f;
    }
    return out;
  }();
  return t;
}

TEST(C3dImport, TrialsImportBackToTheSimulatedMarkersAndPlates) {
  const Trials& t = trials();
  ASSERT_EQ(t.files.size(), 12u);
  const Robot robot = test::bundled_robot("adult_humanoid");
  C3dImportOptions o;
  o.trials = t.files;
  o.out_dir = test::fresh_dir("c3d_import", "imported");
  fs::remove_all(o.out_dir);
  o.model = &robot.model;
  const C3dImportResult r = import_c3d(o);
  EXPECT_TRUE(r.unknown_labels.empty()) << r.unknown_labels.front();  // the "Robot:" prefix was dropped
  EXPECT_TRUE(r.missing_markers.empty());
  const LabRecording sim = read_lab_recording(t.dataset), imported = read_lab_recording(o.out_dir);
  ASSERT_EQ(imported.markers.frame_count(), sim.markers.frame_count());
  ASSERT_EQ(imported.markers.labels, sim.markers.labels);
  ASSERT_EQ(imported.plate_wrench.cols(), sim.plate_wrench.cols());
  // Markers: millimetres as 32-bit floats (7 digits): within 1e-4 mm of the simulated metres.
  const test::LabRecordingDifference d = test::lab_recording_difference(sim, imported);
  EXPECT_EQ(d.missing_mismatch, 0);
  EXPECT_LT(d.marker, 1e-7);
  EXPECT_LT(d.force, 1e-4);   // 400 N in float32
  EXPECT_LT(d.moment, 1e-4);  // 80 N m = 8e4 N mm in float32, about the transducer and moved back
  // Plates where the data set has them; each trial is a segment.
  ASSERT_EQ(imported.dataset.force_plates.size(), sim.dataset.force_plates.size());
  for (std::size_t p = 0; p < sim.dataset.force_plates.size(); ++p)
    EXPECT_LT((imported.dataset.force_plates[p].origin - sim.dataset.force_plates[p].origin).norm(), 1e-9);
  ASSERT_EQ(imported.dataset.segments.size(), 12u);
  EXPECT_EQ(imported.dataset.segments[3].label, "pose_4");
  EXPECT_EQ(imported.dataset.segments[3].category, "trial");
}

TEST(C3dImport, IdentifyStaticOnTheTrialsGivesTheDataSetsFigures) {
  const Trials& t = trials();
  const std::string out_sim = test::fresh_dir("c3d_import", "id_sim"),
                    out_c3d = test::fresh_dir("c3d_import", "id_c3d");
  const std::string imported = test::fresh_dir("c3d_import", "cli_imported");
  std::string files;
  for (const std::string& f : t.files) files += " " + f;
  const Result import_result = run("import c3d" + files + " --model adult_humanoid --out " + imported);
  ASSERT_EQ(import_result.code, 0) << import_result.err;
  const json summary = json::parse(import_result.out);
  EXPECT_EQ(summary["plates"].size(), 2u);
  const std::string common = " --total-mass 77.6 --windows segments --heldout-fraction 0.25";
  const Result a = run("identify static adult_humanoid " + t.dataset + common + " --out " + out_sim);
  const Result b = run("identify static adult_humanoid " + imported + common + " --out " + out_c3d);
  ASSERT_EQ(a.code, 0) << a.err;
  ASSERT_EQ(b.code, 0) << b.err;
  const json sa = json::parse(test::read_file(out_sim + "/summary.json"));
  const json sb = json::parse(test::read_file(out_c3d + "/summary.json"));
  EXPECT_EQ(sa["poses"], sb["poses"]);
  const double ga = sa["gcom_error_mm"]["identified"]["heldout"]["mean"].get<double>();
  const double gb = sb["gcom_error_mm"]["identified"]["heldout"]["mean"].get<double>();
  // The trials hold no encoders: the marker IK starts without them and lands within a millimetre of
  // marker RMS where the encoders' start lands within 0.1 mm, so the figures agree to a few tenths
  // of a percent, not to the last digit.
  EXPECT_NEAR(gb, ga, 0.02) << "held-out GCOM error [mm]";
  ASSERT_EQ(sa["segments"].size(), sb["segments"].size());
  for (std::size_t s = 0; s < sa["segments"].size(); ++s)
    EXPECT_NEAR(sb["segments"][s]["mass_after"].get<double>(), sa["segments"][s]["mass_after"].get<double>(),
                5e-3 * sa["segments"][s]["mass_after"].get<double>())
        << sa["segments"][s]["name"];
  // The trials given straight to `identify static` (imported on the fly, as `import c3d` does):
  // the imported data set's figures.
  const std::string out_direct_all = test::fresh_dir("c3d_import", "id_direct_all");
  const Result c = run("identify static adult_humanoid" + files + common + " --out " + out_direct_all);
  ASSERT_EQ(c.code, 0) << c.err;
  const json sc = json::parse(test::read_file(out_direct_all + "/summary.json"));
  EXPECT_EQ(sc["poses"], sb["poses"]);
  EXPECT_NEAR(sc["gcom_error_mm"]["identified"]["heldout"]["mean"].get<double>(), gb, 1e-9 * gb);
  ASSERT_EQ(sc["segments"].size(), sb["segments"].size());
  for (std::size_t s = 0; s < sb["segments"].size(); ++s)
    EXPECT_NEAR(sc["segments"][s]["mass_after"].get<double>(), sb["segments"][s]["mass_after"].get<double>(),
                1e-9 * sb["segments"][s]["mass_after"].get<double>())
        << sb["segments"][s]["name"];
  // The static poses are detectable in the imported trials themselves (the default `--windows
  // detect`, the settled-window detector, not the trials' segments): it finds every trial's pose.
  const std::string out_detect = test::fresh_dir("c3d_import", "id_detect");
  const Result d = run("identify static adult_humanoid " + imported +
                       " --total-mass 77.6 --heldout-fraction 0.25 --out " + out_detect);
  ASSERT_EQ(d.code, 0) << d.err;
  const json sd = json::parse(test::read_file(out_detect + "/summary.json"));
  EXPECT_EQ(sd["poses"], sb["poses"]);
  EXPECT_EQ(sd["poses"]["fit"].get<int>() + sd["poses"]["heldout"].get<int>(), static_cast<int>(t.files.size()));
  // A single trial given directly where the data set is expected is imported on the fly.
  const Result direct = run("identify static adult_humanoid " + t.files.front() + " --total-mass 77.6 --out " +
                            test::fresh_dir("c3d_import", "id_direct"));
  EXPECT_NE(direct.err.find(t.files.front() + ": found 1 static poses; need at least 2"), std::string::npos)
      << direct.err;  // named by the file the user gave, not the temporary data set
}

TEST(C3dImport, LabelMapRenamesAndDropsAndBadInputIsOneLine) {
  const Trials& t = trials();
  const std::string dir = test::fresh_dir("c3d_import", "labels");
  fs::create_directories(dir);
  {
    std::ofstream map(dir + "/labels.yaml");
    map << "labels:\n  Robot:LASI: LEFT_ASIS\n  RASI:\n";
  }
  C3dImportOptions o;
  o.trials = {t.files.front()};
  o.labels_path = dir + "/labels.yaml";
  o.out_dir = dir + "/out";
  const Robot robot = test::bundled_robot("adult_humanoid");
  o.model = &robot.model;
  const C3dImportResult r = import_c3d(o);
  EXPECT_EQ(r.markers.front(), "LEFT_ASIS");
  EXPECT_EQ(std::count(r.markers.begin(), r.markers.end(), "RASI"), 0);
  EXPECT_EQ(r.unknown_labels, std::vector<std::string>{"LEFT_ASIS"});
  EXPECT_EQ(std::count(r.missing_markers.begin(), r.missing_markers.end(), "LASI"), 1);

  {
    std::ofstream map(dir + "/twice.yaml");
    map << "labels:\n  A: LASI\n  B: LASI\n";
  }
  o.labels_path = dir + "/twice.yaml";
  o.out_dir = dir + "/out2";
  try {
    import_c3d(o);
    ADD_FAILURE() << "a marker named twice must be refused";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("marker 'LASI' is the target of two labels"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(dir + "/out2"));
  // A C3D where a data set is expected, by a command that does not import: one line saying what to do.
  const Result r2 = run("analyze sensors adult_humanoid " + t.files.front());
  EXPECT_NE(r2.code, 0);
  EXPECT_EQ(r2.err.find("JSON"), std::string::npos) << r2.err;
}

/// The adult squat's encoders as the robot's own log, `dir`/robot.csv, on the robot's clock: the
/// sample at lab time t stamped clock(t) plus up to 0.2 ms of jitter, in ms, positions in degrees
/// under the log's own names (pos0, ...), joint `flipped` counted the other way; `map.yaml` says so,
/// `wrong.yaml` misses the flip. Returns the stamps [s].
std::vector<double> write_robot_log(const LabRecording& rec, const std::string& dir,
                                    const std::function<double(double)>& clock, std::size_t flipped) {
  const std::size_t joints = rec.encoder_joints.size();
  std::vector<double> stamps;
  std::ofstream log(dir + "/robot.csv"), map(dir + "/map.yaml"), wrong(dir + "/wrong.yaml");
  log << "stamp_ms";
  for (std::size_t j = 0; j < joints; ++j) log << ",pos" << j;
  log << "\n";
  log.precision(15);
  for (std::size_t k = 0; k < rec.encoder_time.size(); ++k) {
    const double jitter = 2e-4 * std::sin(0.37 * static_cast<double>(k) * static_cast<double>(k));
    stamps.push_back(clock(rec.encoder_time[k]) + jitter);
    log << 1e3 * stamps.back();
    for (std::size_t j = 0; j < joints; ++j)
      log << ","
          << (j == flipped ? -1.0 : 1.0) * rec.encoder_q(static_cast<Eigen::Index>(j), static_cast<Eigen::Index>(k)) *
                 180.0 / M_PI;
    log << "\n";
  }
  for (auto* out : {&map, &wrong}) {
    *out << "time: {column: stamp_ms, unit: ms}\njoints:\n";
    for (std::size_t j = 0; j < joints; ++j)
      *out << "  " << rec.encoder_joints[j] << ": {q: pos" << j
           << ", q_unit: deg, sign: " << (j == flipped && out == &map ? -1 : 1) << "}\n";
  }
  return stamps;
}

/// Largest difference between the encoders of an imported data set and what the log written by
/// write_robot_log says at log time offset + rate t (its samples at their jittered stamps, linear
/// between them).
double largest_log_error(const LabRecording& rec, const std::vector<double>& stamps, const std::string& dataset,
                         double offset, double rate) {
  auto logged_q = [&](double t, Eigen::Index j) {
    const auto it = std::upper_bound(stamps.begin(), stamps.end(), t);
    const auto k1 = static_cast<Eigen::Index>(it - stamps.begin()), k0 = k1 - 1;
    const double w = (t - stamps[static_cast<std::size_t>(k0)]) /
                     (stamps[static_cast<std::size_t>(k1)] - stamps[static_cast<std::size_t>(k0)]);
    return (1.0 - w) * rec.encoder_q(j, k0) + w * rec.encoder_q(j, k1);
  };
  const LabRecording imported = read_lab_recording(dataset);
  EXPECT_EQ(imported.encoder_joints, rec.encoder_joints);
  double worst = 0.0;
  for (std::size_t k = 0; k < imported.encoder_time.size(); ++k)
    for (Eigen::Index j = 0; j < static_cast<Eigen::Index>(rec.encoder_joints.size()); ++j)
      worst = std::max(worst, std::abs(imported.encoder_q(j, static_cast<Eigen::Index>(k)) -
                                       logged_q(offset + rate * imported.encoder_time[k], j)));
  return worst;
}

/// The adult squat (realistic sensors): 3 s of its markers and plates as one C3D trial (from 1 s
/// on), and its encoders as the robot's own log on another clock (7.3215 s ahead, jittered stamps in
/// ms, degrees, renamed columns, one joint's sign flipped): `--robot-log` finds the offset from the
/// markers' IK alone and puts the encoders on the trial's clock; the given offset does the same
/// exactly; a log whose map has a wrong sign is refused in one line and nothing is written.
///
/// The encoders' 0.1 deg backlash (a 1.7 mrad step wherever a joint's torque reverses, which the
/// markers do not see) shifts the best match by 1.3 ms on this motion; without it the estimate is
/// within 0.1 ms (noise-free: 1 us). Both are asserted, each with its own bound, below a third of
/// the 6.7 ms marker frame.
class C3dRobotLog : public ::testing::TestWithParam<double> {};

TEST_P(C3dRobotLog, IsAlignedToTheTrialByTheMarkers) {
  const double backlash = GetParam();
  const Robot robot = test::bundled_robot("adult_humanoid");
  const std::string dir = test::fresh_dir("c3d_import", backlash > 0.0 ? "robot_log" : "robot_log_no_backlash");
  ScenarioOptions so;
  so.scenario = "squat";
  so.out_dir = dir + "/squat";
  so.seed = 3;
  so.backlash_rad = backlash;
  run_scenario(robot, so);
  const LabRecording rec = read_lab_recording(so.out_dir);
  const Eigen::Index first_frame = 150, frames = 450;  // 1 s to 4 s at 150 Hz
  write_trial_c3d(rec, c3d_plates(rec), first_frame, frames, dir + "/squat.c3d");
  const double trial_start = rec.markers.time[static_cast<std::size_t>(first_frame)];

  const double clock_ahead = 7.3215;
  const std::vector<double> log_stamp = write_robot_log(
      rec, dir, [&](double t) { return t + clock_ahead; }, 4);
  auto largest_error = [&](const std::string& dataset, double offset) {
    EXPECT_GT(read_lab_recording(dataset).encoder_time.size(), 2900u);  // 3 s at the log's 1 kHz
    return largest_log_error(rec, log_stamp, dataset, offset, 1.0);
  };

  C3dImportOptions o;
  o.trials = {dir + "/squat.c3d"};
  o.model = &robot.model;
  o.robot_logs = {dir + "/robot.csv"};
  o.robot_log_map = dir + "/map.yaml";
  o.out_dir = dir + "/estimated";
  const C3dImportResult found = import_c3d(o);
  ASSERT_EQ(found.robot_log_offsets.size(), 1u);
  EXPECT_NEAR(found.robot_log_offsets[0], trial_start + clock_ahead, backlash > 0.0 ? 2e-3 : 2e-4);
  const json summary = json::parse(found.summary_json);
  EXPECT_EQ(summary["robot_log"]["trials"][0]["method"], "markers");
  EXPECT_LT(summary["robot_log"]["trials"][0]["rms_rad"].get<double>(), 0.02);

  o.robot_log_offsets = {trial_start + clock_ahead};
  o.out_dir = dir + "/given";
  import_c3d(o);
  EXPECT_LT(largest_error(o.out_dir, trial_start + clock_ahead), 1e-9);
  for (const std::string& w : found.warnings) EXPECT_EQ(w.find("time gap"), std::string::npos) << w;

  // 0.3 s of the log missing inside the trial: still imported (interpolated across), with a named
  // warning in import.json (docs/cli.md); the jittered log above has none.
  {
    std::ifstream in(dir + "/robot.csv");
    std::ofstream out(dir + "/gap.csv");
    const double from_ms = 1e3 * (trial_start + clock_ahead + 1.0), to_ms = from_ms + 300.0;
    for (std::string line; std::getline(in, line);) {
      const bool header = line.rfind("stamp", 0) == 0;
      const double ms = header ? 0.0 : std::stod(line.substr(0, line.find(',')));
      if (header || ms < from_ms || ms >= to_ms) out << line << "\n";
    }
  }
  o.robot_logs = {dir + "/gap.csv"};
  o.out_dir = dir + "/gap";
  const C3dImportResult gap = import_c3d(o);
  std::vector<std::string> gaps;
  for (const std::string& w : gap.warnings)
    if (w.rfind("time gap: ", 0) == 0) gaps.push_back(w);
  ASSERT_EQ(gaps.size(), 1u);
  EXPECT_NE(gaps[0].find("gap.csv has no samples for 0.3"), std::string::npos) << gaps[0];
  EXPECT_NE(json::parse(gap.summary_json)["warnings"].dump().find("time gap: "), std::string::npos);
  o.robot_logs = {dir + "/robot.csv"};

  o.robot_log_offsets.clear();
  o.robot_log_map = dir + "/wrong.yaml";
  o.out_dir = dir + "/wrong";
  try {
    import_c3d(o);
    ADD_FAILURE() << "a log that matches the markers at no offset must be refused";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("rad RMS even at the best offset"), std::string::npos) << what;
    EXPECT_NE(what.find("--robot-log-offset"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
  EXPECT_FALSE(fs::exists(dir + "/wrong"));
  o.model = nullptr;
  o.out_dir = dir + "/no_model";
  EXPECT_THROW(import_c3d(o), std::invalid_argument);
  EXPECT_FALSE(fs::exists(dir + "/no_model"));
}

INSTANTIATE_TEST_SUITE_P(Backlash, C3dRobotLog, ::testing::Values(0.0017, 0.0));

/// Clock drift between the robot and the lab (issue 14): the adult squat's encoders written as a log
/// whose clock runs 400 ppm fast (log time = 2.5 s + (1 + 400e-6) lab time; jittered ms stamps,
/// degrees, a flipped joint, as above), with the trial from 0.5 s to the end of the squat.
/// - Given offset and drift (`--robot-log-drift 400`): the imported encoders are what the log says at
///   offset + (1 + d) t to 1e-9 rad, checked against the log's own stamps, not the importer's.
///   Given the offset but no drift, the last samples are off by the 2 ms the clocks drifted apart.
/// - Estimated (`--robot-log-drift estimate`): 1 s windows, each aligned by the markers' IK, and a
///   line through their offsets; the drift within 3 of its reported standard deviations and within
///   100 ppm, the offset at the trial's first frame within 0.3 ms. Without backlash (the backlash
///   test above shifts a 3 s trial's offset by 1.3 ms, which would swamp a 2 ms drift).
TEST(C3dRobotLogDrift, GivenOrEstimatedDriftPutsTheLogOnTheLabClock) {
  const Robot robot = test::bundled_robot("adult_humanoid");
  const std::string dir = test::fresh_dir("c3d_import", "robot_log_drift");
  ScenarioOptions so;
  so.scenario = "squat";
  so.out_dir = dir + "/squat";
  so.seed = 3;
  so.backlash_rad = 0.0;
  run_scenario(robot, so);
  const LabRecording rec = read_lab_recording(so.out_dir);
  const Eigen::Index first_frame = 75;  // 0.5 s at 150 Hz
  const Eigen::Index frames = static_cast<Eigen::Index>(rec.markers.time.size()) - first_frame - 1;
  ASSERT_GT(frames, 600);  // at least 4 s of trial
  write_trial_c3d(rec, c3d_plates(rec), first_frame, frames, dir + "/squat.c3d");
  const double trial_start = rec.markers.time[static_cast<std::size_t>(first_frame)];
  const double trial_length = rec.markers.time[static_cast<std::size_t>(first_frame + frames - 1)] - trial_start;

  const double ahead = 2.5, drift = 400e-6;
  const std::vector<double> log_stamp = write_robot_log(
      rec, dir, [&](double t) { return ahead + (1.0 + drift) * t; }, 4);
  const double offset = ahead + (1.0 + drift) * trial_start;  // the log's time at the trial's first frame
  auto largest_error = [&](const std::string& dataset, double rate) {
    return largest_log_error(rec, log_stamp, dataset, offset, rate);
  };

  C3dImportOptions o;
  o.trials = {dir + "/squat.c3d"};
  o.model = &robot.model;
  o.robot_logs = {dir + "/robot.csv"};
  o.robot_log_map = dir + "/map.yaml";
  o.robot_log_offsets = {offset};
  o.robot_log_drift_ppm = 1e6 * drift;
  o.out_dir = dir + "/given";
  const C3dImportResult given = import_c3d(o);
  EXPECT_EQ(given.robot_log_drifts_ppm, std::vector<double>{1e6 * drift});
  EXPECT_LT(largest_error(o.out_dir, 1.0 + drift), 1e-9);
  // The same offset without the drift: the log is read drift * t too early by the end.
  o.robot_log_drift_ppm = 0.0;
  o.out_dir = dir + "/no_drift";
  import_c3d(o);
  EXPECT_GT(largest_error(o.out_dir, 1.0 + drift), 1e-4);

  o.robot_log_offsets.clear();
  o.estimate_robot_log_drift = true;
  o.out_dir = dir + "/estimated";
  const C3dImportResult found = import_c3d(o);
  const json entry = json::parse(found.summary_json)["robot_log"]["trials"][0];
  EXPECT_EQ(entry["method"], "markers, with drift");
  const double ppm = entry["drift_ppm"].get<double>(), std_ppm = entry["drift_std_ppm"].get<double>();
  std::cout << "drift " << ppm << " ppm (std " << std_ppm << ", windows " << entry["drift_windows"]
            << "), offset error " << 1e3 * (found.robot_log_offsets[0] - offset) << " ms over " << trial_length
            << " s\n";
  EXPECT_NEAR(ppm, 1e6 * drift, std::max(3.0 * std_ppm, 1.0));
  EXPECT_NEAR(ppm, 1e6 * drift, 100.0);
  EXPECT_NEAR(found.robot_log_offsets[0], offset, 3e-4);
  EXPECT_GE(entry["drift_windows"].get<int>(), 3);

  // Bad combinations are one line each and write nothing.
  o.robot_log_offsets = {offset};
  o.out_dir = dir + "/both";
  try {
    import_c3d(o);
    ADD_FAILURE() << "an offset given with the drift estimated must be refused";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("--robot-log-drift estimate"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(dir + "/both"));
  const Result bad = run("import c3d " + dir + "/squat.c3d --model adult_humanoid --robot-log " + dir +
                         "/robot.csv --map " + dir + "/map.yaml --robot-log-drift fast --out " + dir + "/bad");
  EXPECT_NE(bad.code, 0);
  EXPECT_NE(bad.err.find("neither a number of ppm nor 'estimate'"), std::string::npos) << bad.err;
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
}

}  // namespace
}  // namespace dynid
