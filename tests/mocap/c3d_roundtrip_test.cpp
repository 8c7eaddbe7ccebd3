// C3D writer -> reader round trips: exact for every processor (Intel, DEC, MIPS) and storage
// (integer, float), and the SI view equals the synthetic truth.

#include <gtest/gtest.h>

#include "dynid/mocap/c3d_reader.hpp"
#include "dynid/mocap/c3d_writer.hpp"
#include "mocap/mocap_fixtures.hpp"

namespace dynid {
namespace {

using testing::synthetic_c3d;
using testing::SyntheticC3d;

struct Format {
  C3dProcessor processor;
  bool float_storage;
};
const Format kFormats[] = {{C3dProcessor::Intel, false}, {C3dProcessor::Intel, true}, {C3dProcessor::Dec, false},
                           {C3dProcessor::Dec, true},    {C3dProcessor::Mips, false}, {C3dProcessor::Mips, true}};

void expect_same_matrix(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, const char* what) {
  ASSERT_EQ(a.rows(), b.rows()) << what;
  ASSERT_EQ(a.cols(), b.cols()) << what;
  EXPECT_TRUE((a.array() == b.array()).all()) << what;
}

TEST(C3dRoundTrip, ExactForEveryProcessorAndStorage) {
  for (const Format& format : kFormats) {
    SCOPED_TRACE(static_cast<int>(format.processor) * 10 + format.float_storage);
    const SyntheticC3d s = synthetic_c3d(format.processor, format.float_storage, 7);
    const std::string bytes = c3d_bytes(s.file);
    EXPECT_EQ(bytes.size() % 512, 0u);
    const C3dFile back = parse_c3d(bytes, "synthetic.c3d");
    EXPECT_EQ(back.processor, format.processor);
    EXPECT_EQ(back.first_frame, 7);
    EXPECT_EQ(back.float_storage(), format.float_storage);
    EXPECT_TRUE(back.warnings.empty());
    expect_same_matrix(back.points, s.file.points, "points");
    expect_same_matrix(back.point_info, s.file.point_info, "point_info");
    expect_same_matrix(back.analogs, s.file.analogs, "analogs");
    for (const C3dParameter& p : s.file.parameters.parameters) {
      const C3dParameter* q = back.parameters.find(p.group, p.name);
      ASSERT_NE(q, nullptr) << p.group << ":" << p.name;
      EXPECT_EQ(*q, p) << p.group << ":" << p.name;
    }
    EXPECT_EQ(back.parameters.number("POINT", "USED"), 3.0);
    EXPECT_EQ(back.parameters.number("POINT", "FRAMES"), testing::kSyntheticFrames);
    EXPECT_EQ(c3d_bytes(back), bytes) << "a second pass must write the same bytes";
  }
}

TEST(C3dRoundTrip, RecordingEqualsTheTruth) {
  for (const Format& format : kFormats) {
    SCOPED_TRACE(static_cast<int>(format.processor) * 10 + format.float_storage);
    const SyntheticC3d s = synthetic_c3d(format.processor, format.float_storage);
    const MocapRecording rec = recording_from_c3d(parse_c3d(c3d_bytes(s.file), "synthetic.c3d"), "synthetic.c3d");
    EXPECT_EQ(rec.marker_labels, (std::vector<std::string>{"LASI", "RASI", "LTOE"}));
    EXPECT_EQ(rec.point_rate, 100.0);
    EXPECT_EQ(rec.analog_rate, 200.0);
    EXPECT_EQ(rec.first_frame, 1);
    EXPECT_EQ(rec.last_frame(), testing::kSyntheticFrames);
    ASSERT_EQ(rec.frame_count(), testing::kSyntheticFrames);
    for (Eigen::Index f = 0; f < rec.frame_count(); ++f)
      for (Eigen::Index m = 0; m < 3; ++m) {
        const Eigen::Vector3d truth_mm = s.marker_positions_mm.block<1, 3>(f, 3 * m).transpose();
        EXPECT_EQ(rec.marker_valid(m, f), truth_mm.allFinite());
        if (truth_mm.allFinite())
          EXPECT_EQ(rec.marker_position(m, f), truth_mm * 1e-3);
        else
          EXPECT_TRUE(rec.marker_position(m, f).array().isNaN().all());
      }
    // The EMG channel: (stored - 0) * SCALE 1/1024 * GEN_SCALE 2.
    EXPECT_EQ(rec.analogs(rec.analogs.rows() - 1, 3), s.file.analogs(3, s.file.analogs.cols() - 1) / 512.0);
    EXPECT_EQ(rec.analog_labels.back(), "EMG1");
    EXPECT_EQ(rec.analog_units.back(), "V");

    ASSERT_EQ(rec.force_plates.size(), s.plates.size());
    for (std::size_t i = 0; i < s.plates.size(); ++i) {
      const ForcePlate& plate = rec.force_plates[i];
      SCOPED_TRACE(plate.type);
      EXPECT_EQ(plate.type, s.plates[i].type);
      EXPECT_EQ(plate.channels, s.plates[i].channels);
      EXPECT_TRUE(plate.corners_world.isApprox(s.plates[i].corners_world, 1e-12));
      EXPECT_TRUE(plate.notes.empty());
      const PlateSeries series = ground_reaction_series(plate, rec.analogs);
      for (int f = 0; f < testing::kSyntheticFrames; ++f)
        for (int k = 0; k < testing::kSamplesPerFrame; ++k) {
          const PlateSample got = series.at(f * testing::kSamplesPerFrame + k);
          const testing::PointLoad& truth = s.loads[i][static_cast<std::size_t>(f)];
          // Integer counts of 0.25 N, 100 N mm and 1 mm (type 1 COP) bound the error.
          EXPECT_LT((got.force_world - truth.force_world).norm(), 0.3);
          if (f == 0) {
            EXPECT_TRUE(got.cop_world.array().isNaN().all()) << "4 N is below the 20 N threshold";
            continue;
          }
          EXPECT_LT((got.cop_world - truth.point_world).norm(), 1e-3);
          EXPECT_NEAR(got.free_moment, truth.tau, 0.5);
        }
    }
  }
}

TEST(C3dRoundTrip, EveryFormatReadsTheSame) {
  const SyntheticC3d reference = synthetic_c3d(C3dProcessor::Intel, true);
  const MocapRecording a = recording_from_c3d(parse_c3d(c3d_bytes(reference.file), "a"), "a");
  for (const Format& format : kFormats) {
    const MocapRecording b =
        recording_from_c3d(parse_c3d(c3d_bytes(synthetic_c3d(format.processor, format.float_storage).file), "b"), "b");
    EXPECT_TRUE((a.marker_valid == b.marker_valid).all());
    // NaN where missing, the same numbers elsewhere.
    EXPECT_TRUE((a.marker_positions.array() == b.marker_positions.array() ||
                 (a.marker_positions.array().isNaN() && b.marker_positions.array().isNaN()))
                    .all());
    expect_same_matrix(a.analogs, b.analogs, "analogs");
  }
}

TEST(C3d, MoreThan65535Frames) {
  C3dFile f;
  f.processor = C3dProcessor::Dec;
  f.parameters.set_number("POINT", "SCALE", C3dType::Float, -1.0);
  f.parameters.set_number("POINT", "RATE", C3dType::Float, 1000.0);
  f.parameters.set_strings("POINT", "LABELS", {"M"});
  const Eigen::Index n = 70000;
  f.points.resize(n, 3);
  f.point_info = Eigen::MatrixXd::Zero(n, 1);
  for (Eigen::Index i = 0; i < n; ++i) f.points.row(i) << static_cast<double>(i), 1.0, 2.0;
  const std::string bytes = c3d_bytes(f);
  const C3dFile back = parse_c3d(bytes, "long.c3d");
  ASSERT_EQ(back.frame_count(), n);
  EXPECT_EQ(back.points(n - 1, 0), static_cast<double>(n - 1));
  EXPECT_EQ(back.parameters.find("POINT", "FRAMES")->type, C3dType::Float);
  const MocapRecording rec = recording_from_c3d(back, "long.c3d");
  EXPECT_EQ(rec.last_frame(), 70000);

  // Without the TRIAL fields, POINT:FRAMES (a float) gives the count.
  std::string no_trial = bytes;
  for (std::size_t at; (at = no_trial.find("ACTUAL_")) != std::string::npos;) no_trial[at] = 'X';
  const C3dFile back2 = parse_c3d(no_trial, "long.c3d");
  EXPECT_EQ(back2.frame_count(), n);
  EXPECT_FALSE(back2.parameters.find("TRIAL", "ACTUAL_END_FIELD"));
}

TEST(C3d, LabelsContinueInLabels2) {
  C3dFile f;
  f.parameters.set_number("POINT", "SCALE", C3dType::Float, -1.0);
  f.parameters.set_number("POINT", "RATE", C3dType::Float, 50.0);
  std::vector<std::string> first, second;
  for (int i = 0; i < 300; ++i) (i < 255 ? first : second).push_back("M" + std::to_string(i));
  f.parameters.set_strings("POINT", "LABELS", first);
  f.parameters.set_strings("POINT", "LABELS2", second);
  f.points = Eigen::MatrixXd::Ones(2, 900);
  f.point_info = Eigen::MatrixXd::Zero(2, 300);
  const MocapRecording rec = recording_from_c3d(parse_c3d(c3d_bytes(f), "many.c3d"), "many.c3d");
  ASSERT_EQ(rec.marker_labels.size(), 300u);
  EXPECT_EQ(rec.marker_labels[299], "M299");
  EXPECT_EQ(rec.length_unit_in_file, "mm");
  EXPECT_FALSE(rec.warnings.empty()) << "POINT:UNITS was missing";
}

TEST(C3d, ZeroPointIsMissingUnlessAsked) {
  C3dFile f;
  f.parameters.set_number("POINT", "SCALE", C3dType::Float, 0.5);
  f.parameters.set_number("POINT", "RATE", C3dType::Float, 50.0);
  f.parameters.set_strings("POINT", "UNITS", {"m"});
  f.points = Eigen::MatrixXd::Zero(1, 3);
  f.point_info = Eigen::MatrixXd::Zero(1, 1);
  const C3dFile back = parse_c3d(c3d_bytes(f), "zero.c3d");
  EXPECT_FALSE(recording_from_c3d(back, "zero.c3d").marker_valid(0, 0));
  C3dReadOptions keep;
  keep.zero_means_missing = false;
  EXPECT_TRUE(recording_from_c3d(back, "zero.c3d", keep).marker_valid(0, 0));
}

}  // namespace
}  // namespace dynid
