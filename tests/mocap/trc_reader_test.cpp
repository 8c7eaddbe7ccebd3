// TRC files: Cortex layout with empty fields for missing markers, OpenSim's NaN, units, and
// clear errors for malformed files.

#include "dynid/mocap/trc_reader.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace dynid {
namespace {

std::string trc(const std::string& units, const std::string& frames, const std::string& data) {
  return "PathFileType\t4\t(X/Y/Z)\twalk.trc\n"
         "DataRate\tCameraRate\tNumFrames\tNumMarkers\tUnits\tOrigDataRate\tOrigDataStartFrame\tOrigNumFrames\n"
         "120.00\t120.00\t" +
         frames + "\t2\t" + units + "\t120.00\t10\t" + frames +
         "\n"
         "Frame#\tTime\tLHEE\t\t\tRHEE\t\t\n"
         "\t\tX1\tY1\tZ1\tX2\tY2\tZ2\n"
         "\n" +
         data;
}

const std::string kData =
    "10\t0.000\t100.5\t200\t30\t-1\t2\t3\r\n"
    "11\t0.00833\t\t\t\t-1.5\t2.5\t3.5\n"
    "12\t0.01667\t101\t201\t31\tNaN\tNaN\tNaN\n";

void expect_error(const std::string& text, const std::string& fragment) {
  try {
    parse_trc(text, "bad.trc");
    FAIL() << "expected an error with " << fragment;
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("bad.trc: ", 0), 0u) << e.what();
  }
}

TEST(Trc, ReadsCortexAndOpenSimConventions) {
  const MocapRecording rec = parse_trc(trc("mm", "3", kData), "walk.trc");
  EXPECT_EQ(rec.point_rate, 120.0);
  EXPECT_EQ(rec.first_frame, 10);
  EXPECT_EQ(rec.last_frame(), 12);
  EXPECT_EQ(rec.marker_labels, (std::vector<std::string>{"LHEE", "RHEE"}));
  EXPECT_EQ(rec.marker_position(0, 0), Eigen::Vector3d(0.1005, 0.2, 0.03));
  EXPECT_TRUE(rec.marker_valid(1, 1));
  EXPECT_FALSE(rec.marker_valid(0, 1)) << "empty fields";
  EXPECT_TRUE(rec.marker_position(0, 1).array().isNaN().all());
  EXPECT_FALSE(rec.marker_valid(1, 2)) << "NaN";
  EXPECT_EQ(rec.analogs.size(), 0);
}

// OpenSim's markers_walk.trc pads its header values with extra tabs; its first frame's Time is the
// trial's start on the lab clock (what a separate plate file is aligned by).
TEST(Trc, PaddedHeaderValuesAndTheFirstFramesTime) {
  std::string padded = trc("mm", "3", kData);
  const std::string plain = "120.00\t120.00\t3\t2\tmm";
  padded.replace(padded.find(plain), plain.size(), "  120.00\t\t  120.00\t\t 3\t\t 2\t\t mm");
  const MocapRecording rec = parse_trc(padded, "padded.trc");
  EXPECT_EQ(rec.point_rate, 120.0);
  EXPECT_EQ(rec.marker_count(), 2);
  EXPECT_EQ(rec.first_frame_time, 0.0);
  std::string later = trc("mm", "3", kData);
  later.replace(later.find("10\t0.000"), 8, "10\t2.500");
  EXPECT_EQ(parse_trc(later, "later.trc").first_frame_time, 2.5);
  EXPECT_TRUE(rec.warnings.empty());  // 120 Hz and a Time column stepping 1/120 s
  // Every tenth frame kept with DataRate unchanged (OpenSim's std_walking2_markers.trc): said.
  std::string thinned = trc("mm", "3", "1\t0.0\t1\t2\t3\n2\t0.0833\t1\t2\t3\n3\t0.1667\t1\t2\t3\n");
  const MocapRecording t = parse_trc(thinned, "thinned.trc");
  ASSERT_EQ(t.warnings.size(), 1u);
  EXPECT_NE(t.warnings[0].find("the Time column steps 0.08335"), std::string::npos) << t.warnings[0];
  EXPECT_NE(t.warnings[0].find("DataRate is 120.00 Hz"), std::string::npos) << t.warnings[0];
}

TEST(Trc, ShortRowsAreMissingMarkersAndMetresStayMetres) {
  const MocapRecording rec = parse_trc(trc("m", "1", "1\t0\t1\t2\t3\n"), "short.trc");
  EXPECT_EQ(rec.marker_position(0, 0), Eigen::Vector3d(1, 2, 3));
  EXPECT_FALSE(rec.marker_valid(1, 0));
}

TEST(Trc, MalformedFilesAreClearErrors) {
  expect_error("hello\n", "not a TRC file");
  expect_error(trc("mm", "4", kData), "NumFrames is 4 but the file has 3 frames");
  expect_error(trc("furlong", "3", kData), "Units 'furlong'");
  expect_error(trc("mm", "3", "1\t0\t1\t2\tx3\n2\t0\t1\t1\t1\n3\t0\t1\t1\t1\n"), "'x3' is not a number");
  expect_error(trc("mm", "1", "1\t0\t1\t2\t3\t4\t5\t6\t7\n"), "wrong counts");
  std::string nan_rate = trc("mm", "3", kData);
  nan_rate.replace(nan_rate.find("120.00"), 6, "nan");
  expect_error(nan_rate, "DataRate");
  expect_error(trc("mm", "3", kData).substr(0, 60), "truncated");
  std::string three_names = trc("mm", "3", kData);
  three_names.replace(three_names.find("RHEE"), 4, "RHEE\tTOE");
  expect_error(three_names, "NumMarkers is 2");
  // A frame number past int (found by fuzz/, tests/fixtures/fuzz/trc/): an error, not a wrapped int.
  expect_error(trc("mm", "1", "99999999999\t0\t1\t2\t3\n"), "line 7: the frame number 99999999999 is not a whole");
  expect_error(trc("mm", "1", "1.5\t0\t1\t2\t3\n"), "frame number 1.5");
}

TEST(Trc, MissingFileIsAnError) { EXPECT_THROW(read_trc("/nonexistent/x.trc"), std::runtime_error); }

}  // namespace
}  // namespace dynid
