// OpenSim ground reaction files (.mot / .sto) and a TRC trial's plates from them: both header forms
// OpenSim's files use (the SIMM `datacolumns` one of subject01_walk1_grf.mot, padded, each row ending
// in a tab; and `nRows=` / `nColumns=`), plate identifiers with a prefix or an infix, one-line errors
// for malformed files, and the plates attached to a trial checked against the definition of the
// wrench (force at a point with a torque) through dynid's C3D plate model.

#include "dynid/mocap/ground_reaction_file.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>

#include "dynid/mocap/force_plate.hpp"
#include "dynid/mocap/trc_force_plates.hpp"
#include "support/scratch_files.hpp"

namespace dynid {
namespace {

namespace fs = std::filesystem;

// The layout of OpenSim's subject01_walk1_grf.mot (values made up): SIMM header, padded columns,
// a tab at the end of every line, the second plate prefixed `l_`.
const std::string kSimmHeader =
    "name walk_grf.mot\ndatacolumns 19\ndatarows 2\nrange 0.000000 0.001700\nendheader\n"
    "   time\t ground_force_vx\t ground_force_vy\t ground_force_vz\t ground_force_px\t ground_force_py\t "
    "ground_force_pz\t l_ground_force_vx\t l_ground_force_vy\t l_ground_force_vz\t l_ground_force_px\t "
    "l_ground_force_py\t l_ground_force_pz\t ground_torque_x\t ground_torque_y\t ground_torque_z\t "
    "l_ground_torque_x\t l_ground_torque_y\t l_ground_torque_z\t\n"
    "  0.00000000\t 101.5\t 745.4\t -47.4\t 0.378\t -0.0075\t 0.127\t 17.2\t 20.4\t -7.4\t 0.81\t -0.0075\t "
    "-0.053\t 0.0\t 13.5\t 0.0\t 1.55\t -0.75\t 6.88\t\n"
    "  0.00170000\t 103.2\t 743.0\t -46.8\t 0.378\t -0.0075\t 0.128\t 18.9\t 28.7\t -7.8\t 0.80\t -0.0075\t "
    "-0.052\t 0.0\t 12.5\t 0.0\t 1.31\t -0.63\t 6.11\t\n";

// OpenSim 4's header, identifiers with an infix per side (as Moco's example ground reactions).
std::string opensim_file(const std::string& rows_said, const std::string& rows) {
  std::string header =
      "ground_reaction.mot\nversion=1\nnRows=" + rows_said + "\nnColumns=19\ninDegrees=no\nendheader\ntime";
  for (const char* side : {"r", "l"})
    for (const char* id : {"v", "p"})
      for (const char* a : {"x", "y", "z"}) header += std::string("\tground_force_") + side + "_" + id + a;
  for (const char* side : {"r", "l"})
    for (const char* a : {"x", "y", "z"}) header += std::string("\tground_torque_") + side + "_" + a;
  return header + "\n" + rows;
}

const std::string kRow0 =
    "0.230\t-109.8\t729.5\t-51.6\t1.05\t0\t-0.42\t2.18\t39.3\t9.16\t0.73\t0\t-0.60\t0\t2.18\t0\t0\t2.0\t0\n";
const std::string kRow1 =
    "0.231\t-109.3\t732.1\t-51.6\t1.05\t0\t-0.42\t1.89\t38.0\t8.65\t0.73\t0\t-0.60\t0\t1.99\t0\t0\t1.8\t0\n";

void expect_error(const std::string& text, const std::string& fragment) {
  try {
    const OpenSimStorage s = parse_opensim_storage(text, "bad.mot");
    for (const GroundReactionColumns& c : find_ground_reaction_columns(s)) plate_series(s, c);
    FAIL() << "expected an error with " << fragment;
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(fragment), std::string::npos) << what;
    EXPECT_EQ(what.rfind("bad.mot: ", 0), 0u) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
}

TEST(GroundReactionFile, ReadsTheSimmHeaderWithPrefixedPlates) {
  const OpenSimStorage s = parse_opensim_storage(kSimmHeader, "walk_grf.mot");
  ASSERT_EQ(s.names.size(), 19u);
  ASSERT_EQ(s.time.size(), 2);
  EXPECT_DOUBLE_EQ(s.time[1], 0.0017);
  const std::vector<GroundReactionColumns> plates = find_ground_reaction_columns(s);
  ASSERT_EQ(plates.size(), 2u);
  EXPECT_EQ(plates[0].force, "ground_force_v");
  EXPECT_EQ(plates[0].point, "ground_force_p");
  EXPECT_EQ(plates[0].torque, "ground_torque_");
  EXPECT_EQ(plates[1].force, "l_ground_force_v");
  EXPECT_EQ(plates[1].torque, "l_ground_torque_");
  const GroundReactionSeries left = plate_series(s, plates[1]);
  EXPECT_DOUBLE_EQ(left.force(1, 1), 28.7);
  EXPECT_DOUBLE_EQ(left.point(2, 0), -0.053);
  EXPECT_DOUBLE_EQ(left.torque(2, 1), 6.11);
}

TEST(GroundReactionFile, ReadsOpenSimsHeaderWithInfixedPlates) {
  const OpenSimStorage s = parse_opensim_storage(opensim_file("2", kRow0 + kRow1), "g.mot");
  const std::vector<GroundReactionColumns> plates = find_ground_reaction_columns(s);
  ASSERT_EQ(plates.size(), 2u);
  EXPECT_EQ(plates[0].force, "ground_force_r_v");
  EXPECT_EQ(plates[0].point, "ground_force_r_p");
  EXPECT_EQ(plates[0].torque, "ground_torque_r_");
  EXPECT_EQ(plates[1].force, "ground_force_l_v");
  EXPECT_DOUBLE_EQ(plate_series(s, plates[1]).torque(1, 1), 1.8);
}

TEST(GroundReactionFile, MalformedFilesAreOneLineNamingTheFileAndLine) {
  expect_error("version=1\nnRows=1\ntime\tground_force_vx\n0\t1\n", "no `endheader` line");
  expect_error(opensim_file("2", kRow0 + "0.231\t1\t2\n"), "line 9: 3 values, but the header names 19 columns");
  expect_error(opensim_file("3", kRow0 + kRow1), "line 3: nRows is 3 but the table has 2 rows");
  expect_error(opensim_file("2", kRow0 + "0.230" + kRow1.substr(5)), "line 9: time 0.230 does not increase");
  std::string nan_force = kRow1;
  nan_force.replace(nan_force.find("732.1"), 5, "NaN");
  expect_error(opensim_file("2", kRow0 + nan_force), "line 9: ground_force_r_vy is not a finite number");
  std::string word = kRow1;
  word.replace(word.find("732.1"), 5, "abc");
  expect_error(opensim_file("2", kRow0 + word), "line 9: ground_force_r_vy 'abc' is not a number");
  // A plate without its torque columns.
  expect_error(
      "x\nendheader\ntime\tground_force_vx\tground_force_vy\tground_force_vz\tground_force_px\tground_force_py"
      "\tground_force_pz\n0\t1\t2\t3\t4\t5\t6\n",
      "plate 'ground_force_v' has no column 'ground_torque_x'");
  expect_error("x\nendheader\ntime\tknee_angle\n0\t1\n", "no ground reaction columns");
  expect_error("x\nendheader\nframe\tground_force_vx\n0\t1\n", "the first column is 'frame', not time");
  expect_error("x\nnColumns=3\nendheader\ntime\tground_force_vx\n0\t1\n",
               "line 2: nColumns is 3 but the table names 2");
  expect_error("x\nendheader\ntime\tground_force_vx\n", "no data rows");
  // Lines of only a vertical tab or form feed are blank (found by fuzz/: the names were read from one).
  expect_error("x\nendheader\n\v\n\f\n", "no column names after endheader");
  expect_error("x\nendheader\n\v\ntime\tground_force_vx\n\f\n", "no data rows");
}

TEST(GroundReactionFile, KeepsTheHeadersUnitsAndReadsOsimC3dsMomentNames) {
  // OpenSim 4's STO metadata line, and the older Storage `units` key (Storage::readHeader).
  const std::string columns =
      "time\tground_force_1_vx\tground_force_1_vy\tground_force_1_vz\tground_force_1_px\tground_force_1_py\t"
      "ground_force_1_pz\tground_moment_1_mx\tground_moment_1_my\tground_moment_1_mz\n0\t1\t2\t3\t4\t5\t6\t7\t8\t9\n";
  const OpenSimStorage a = parse_opensim_storage("grfs\nversion=1\nUnits=mm\nnRows=1\nendheader\n" + columns, "a.mot");
  EXPECT_EQ(a.units, "mm");
  EXPECT_EQ(a.units_line, 3u);
  const OpenSimStorage b = parse_opensim_storage("grfs\nunits millimeters\nendheader\n" + columns, "b.mot");
  EXPECT_EQ(b.units, "millimeters");
  EXPECT_EQ(b.units_line, 2u);
  EXPECT_EQ(parse_opensim_storage("grfs\nendheader\n" + columns, "c.mot").units, "");
  // osimC3D.writeMOT (OpenSim's Matlab utility) names plate N's moment ground_moment_N_m{x,y,z}.
  const std::vector<GroundReactionColumns> plates = find_ground_reaction_columns(a);
  ASSERT_EQ(plates.size(), 1u);
  EXPECT_EQ(plates[0].force, "ground_force_1_v");
  EXPECT_EQ(plates[0].point, "ground_force_1_p");
  EXPECT_EQ(plates[0].torque, "ground_moment_1_m");
  EXPECT_DOUBLE_EQ(plate_series(a, plates[0]).torque(2, 0), 9.0);
  EXPECT_EQ(metres_per_length_unit("MM"), 1e-3);
  EXPECT_EQ(metres_per_length_unit("Millimeters"), 1e-3);
  EXPECT_EQ(metres_per_length_unit("cm"), 1e-2);
  EXPECT_EQ(metres_per_length_unit("meters"), 1.0);
  EXPECT_EQ(metres_per_length_unit("Radians"), 0.0);
}

/// A one-marker TRC-like trial: 100 Hz, 10 frames from lab time 1.0 s.
MocapRecording trial() {
  MocapRecording rec;
  rec.source = "trial.trc";
  rec.point_rate = 100.0;
  rec.first_frame_time = 1.0;
  rec.last_frame_time = 1.09;
  rec.marker_labels = {"M"};
  rec.marker_positions = Eigen::MatrixXd::Zero(3, 10);
  rec.marker_valid.setConstant(1, 10, true);
  return rec;
}

/// One plate centred at (1.25, 0.25, 0.02), 0.4 m x 0.6 m.
std::vector<PlateLayoutEntry> layout() {
  PlateLayoutEntry e;
  const Vector3 c(1.25, 0.25, 0.02);
  const double sx[4] = {1, -1, -1, 1}, sy[4] = {1, 1, -1, -1};
  for (int k = 0; k < 4; ++k) e.corners.col(k) = c + Vector3(0.2 * sx[k], 0.3 * sy[k], 0.0);
  return {e};
}

/// A one-plate .mot: `rows` rows from `t0` every `period` (plus `jitter(k)`), the load of row k
/// from `load(k)` = {force, point, torque}; `header` lines between the name and endheader.
std::string write_mot(
    const std::string& name, int rows, double t0, double period, const std::function<std::array<Vector3, 3>(int)>& load,
    const std::function<double(int)>& jitter = [](int) { return 0.0; }, const std::string& header = "") {
  const std::string dir = test::fresh_dir("ground_reaction_file", "mot");
  fs::create_directories(dir);
  const std::string path = dir + "/" + name;
  std::ofstream out(path);
  out << "g\n"
      << header
      << "endheader\ntime\tground_force_vx\tground_force_vy\tground_force_vz\tground_force_px\tground_force_py\t"
         "ground_force_pz\tground_torque_x\tground_torque_y\tground_torque_z\n";
  out.precision(15);
  for (int k = 0; k < rows; ++k) {
    out << t0 + k * period + jitter(k);
    for (const Vector3& v : load(k))
      for (int a = 0; a < 3; ++a) out << "\t" << v[a];
    out << "\n";
  }
  return path;
}

TEST(TrcForcePlates, WrenchTimeAndPlaceholderPointsAgainstTheDefinitions) {
  // 1000 Hz from 0.9995 s: the samples between the trial's first frame and one period after its
  // last are kept, the first half a sample after the first frame.
  const Vector3 F(10.0, -5.0, 700.0), p(1.3, 0.2, 0.02), T(0.0, 0.0, 1.5);
  const std::string path = write_mot("load.mot", 200, 0.9995, 1e-3, [&](int k) {
    // Rows 50..59 unloaded with the exporter's placeholder point (0, 0, 0), off the plate.
    if (k >= 50 && k < 60) return std::array<Vector3, 3>{Vector3(0, 0, 15.0), Vector3::Zero(), Vector3(0, 0, 0.2)};
    return std::array<Vector3, 3>{F, p, T};
  });
  MocapRecording rec = trial();
  const TrcPlatesReport r = attach_trc_force_plates(rec, path, layout(), Matrix3::Identity(), 20.0);
  EXPECT_EQ(r.rate_hz, 1000.0);
  EXPECT_FALSE(r.resampled);
  EXPECT_EQ(r.samples_kept, 100);  // 1.0005 ... 1.0995 s
  EXPECT_EQ(r.samples_dropped, 100);
  EXPECT_NEAR(rec.analog_start, 5e-4, 1e-12);
  ASSERT_EQ(r.points_outside_plate, std::vector<long>{10});  // rows 50..59 are samples 49..58
  ASSERT_EQ(r.warnings.size(), 1u);
  // Read back through the C3D plate model: force, COP and the moment about the centre as defined.
  const PlateSeries s = ground_reaction_series(rec.force_plates[0], rec.analogs, 20.0);
  const Vector3 centre(1.25, 0.25, 0.02);
  EXPECT_LT((s.force_world.col(0) - F).norm(), 1e-12);
  EXPECT_LT((s.cop_world.col(0) - p).norm(), 1e-12);
  EXPECT_LT((s.moment_at_center_world.col(0) - ((p - centre).cross(F) + T)).norm(), 1e-10);
  EXPECT_LT((s.moment_at_center_world.col(49) - Vector3(0, 0, 0.2)).norm(), 1e-12);  // the torque alone
  EXPECT_TRUE(std::isnan(s.cop_world(0, 49)));                                       // 15 N: no COP
}

TEST(TrcForcePlates, PrintedStampsJitterAndFramesThatDoNotFit) {
  const auto steady = [](int) {
    return std::array<Vector3, 3>{Vector3(0, 0, 500.0), Vector3(1.25, 0.25, 0.02), Vector3::Zero()};
  };
  // 600 Hz printed with 4 decimals (OpenSim's example file: 0.0017, 0.0033, ...): 600 Hz exactly.
  {
    const std::string dir = test::fresh_dir("ground_reaction_file", "printed");
    fs::create_directories(dir);
    std::ofstream out(dir + "/p.mot");
    out << "g\nendheader\ntime\tground_force_vx\tground_force_vy\tground_force_vz\tground_force_px\tground_force_py"
           "\tground_force_pz\tground_torque_x\tground_torque_y\tground_torque_z\n";
    char buf[32];
    for (int k = 0; k < 120; ++k) {
      std::snprintf(buf, sizeof buf, "%.4f", 1.0 + k / 600.0);
      out << buf << "\t0\t0\t500\t1.25\t0.25\t0.02\t0\t0\t0\n";
    }
    out.close();
    MocapRecording rec = trial();
    const TrcPlatesReport r = attach_trc_force_plates(rec, dir + "/p.mot", layout(), Matrix3::Identity(), 20.0);
    EXPECT_EQ(r.rate_hz, 600.0);
    EXPECT_FALSE(r.resampled);
    EXPECT_LT(r.largest_stamp_deviation_s, 0.5e-4 + 1e-12);
    EXPECT_EQ(r.samples_kept, 60);
  }
  // Stamps off the grid by up to 0.4 period: interpolated onto it, and said so.
  {
    const std::string path = write_mot("jitter.mot", 200, 0.95, 1e-3, steady, [](int k) { return k % 2 ? 4e-4 : 0.0; });
    MocapRecording rec = trial();
    const TrcPlatesReport r = attach_trc_force_plates(rec, path, layout(), Matrix3::Identity(), 20.0);
    EXPECT_TRUE(r.resampled);
    EXPECT_NEAR(rec.analogs(2, 10), 500.0, 1e-9);
    EXPECT_EQ(r.warnings.size(), 1u);
  }
  const auto expect_error = [](const std::string& path, const std::vector<PlateLayoutEntry>& plates,
                               const std::string& fragment) {
    MocapRecording rec = trial();
    try {
      attach_trc_force_plates(rec, path, plates, Matrix3::Identity(), 20.0);
      ADD_FAILURE() << "expected " << fragment;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
    }
  };
  // Loaded samples at points off the plate: the file's frame or unit is not the layout's; a file
  // that does not say its unit is pointed to --plates-unit.
  expect_error(write_mot("mm.mot", 200, 0.95, 1e-3,
                         [](int) {
                           return std::array<Vector3, 3>{Vector3(0, 0, 500.0), Vector3(1250, 250, 20), Vector3::Zero()};
                         }),
               layout(), "100 of 100 loaded samples are applied at a point off the plate");
  expect_error(write_mot("mm.mot", 200, 0.95, 1e-3,
                         [](int) {
                           return std::array<Vector3, 3>{Vector3(0, 0, 500.0), Vector3(1250, 250, 20), Vector3::Zero()};
                         }),
               layout(), "--plates-unit mm");
  expect_error(write_mot("late.mot", 50, 5.0, 1e-3, steady), layout(), "does not overlap the trial's");
  std::vector<PlateLayoutEntry> two = layout();
  two.push_back(two.front());
  expect_error(write_mot("one.mot", 200, 0.95, 1e-3, steady), two,
               "1 plates (ground_force_v) but the plate layout has 2");
  // A TRC whose Time column does not step at its DataRate (thinned without its rate changed).
  {
    MocapRecording thinned = trial();
    thinned.last_frame_time = 1.9;
    try {
      attach_trc_force_plates(thinned, write_mot("thin.mot", 200, 0.95, 1e-3, steady), layout(), Matrix3::Identity(),
                              20.0);
      ADD_FAILURE() << "a Time column that disagrees with DataRate must be refused";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(
          std::string(e.what()).find("trial.trc: its Time column steps 0.100000 s a frame but its DataRate is 100"),
          std::string::npos)
          << e.what();
    }
  }
  std::vector<PlateLayoutEntry> wall = layout();
  wall.front().corners.row(2).swap(wall.front().corners.row(1));  // the plate in the x-z plane
  expect_error(write_mot("wall.mot", 200, 0.95, 1e-3, steady), wall, "is not horizontal in dynid's z-up world");
}

TEST(TrcForcePlates, MillimetreFilesReadAsTheirMetreTwins) {
  // One load given in metres and N m, and the same in millimetres and N mm: points and torques x 1000.
  const auto load = [](double unit) {
    return [unit](int k) {
      const double f = 400.0 + 3.0 * k;
      return std::array<Vector3, 3>{Vector3(12.0 - 0.1 * k, -7.5, f), unit * Vector3(1.31 + 5e-4 * k, 0.12, 0.02),
                                    unit * Vector3(0.4, -0.3, 2.0 + 0.01 * k)};
    };
  };
  const auto attach = [](const std::string& path, const std::string& unit) {
    MocapRecording rec = trial();
    const TrcPlatesReport r = attach_trc_force_plates(rec, path, layout(), Matrix3::Identity(), 20.0, unit);
    return std::pair{rec.analogs, r};
  };
  const auto [metres, metres_report] = attach(write_mot("m.mot", 200, 0.95, 1e-3, load(1.0)), "");
  EXPECT_EQ(metres_report.length_unit_from, "default");
  ASSERT_EQ(metres.cols(), 100);
  const std::string mm = write_mot("mm.mot", 200, 0.95, 1e-3, load(1e3));
  const auto [given, given_report] = attach(mm, "mm");
  EXPECT_EQ(given_report.length_unit, "mm");
  EXPECT_EQ(given_report.length_unit_from, "given");
  EXPECT_LT((given - metres).cwiseAbs().maxCoeff(), 1e-9);
  EXPECT_EQ(given_report.points_outside_plate.front(), 0);
  // The header saying so (OpenSim's STO metadata), with or without the same unit given.
  const std::string said = write_mot(
      "said.mot", 200, 0.95, 1e-3, load(1e3), [](int) { return 0.0; }, "version=1\nUnits=mm\n");
  const auto [header, header_report] = attach(said, "");
  EXPECT_EQ(header_report.length_unit_from, "header");
  EXPECT_LT((header - metres).cwiseAbs().maxCoeff(), 1e-9);
  EXPECT_LT((attach(said, "mm").first - metres).cwiseAbs().maxCoeff(), 1e-9);
  const auto expect_error = [](const std::string& path, const std::string& unit, const std::string& fragment) {
    MocapRecording rec = trial();
    try {
      attach_trc_force_plates(rec, path, layout(), Matrix3::Identity(), 20.0, unit);
      ADD_FAILURE() << "expected " << fragment;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
    }
  };
  expect_error(said, "m", "said.mot: line 3: the header says units mm but --plates-unit says m");
  expect_error(write_mot(
                   "odd.mot", 200, 0.95, 1e-3, load(1.0), [](int) { return 0.0; }, "units=furlongs\n"),
               "", "odd.mot: line 2: units 'furlongs' is not a length unit");
  // A metre file read as millimetres: its points land 1.4 mm from the lab's origin, off the plate
  // (centred at x = 1.25 m); the message names the unit it read them in.
  expect_error(write_mot("m2.mot", 200, 0.95, 1e-3, load(1.0)), "mm", "its points were read in mm (--plates-unit)");
}

}  // namespace
}  // namespace dynid
