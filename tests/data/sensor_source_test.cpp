// The sensor path against the simulation's truth: on a noise-free squat of the kid-size humanoid,
// the state and contact wrenches dynid rebuilds from encoders, gyro and foot F/T agree with the
// truth stream; on a noisy walk the base acceleration from the accelerometer follows the truth
// where leg kinematics cannot; the row reader agrees with the whole-file reader; bad streams are named;
// processed in chunks (bounded memory), the samples are those of the whole recording at once.

#include "dynid/data/sensor_source.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "dynid/io/csv_row_reader.hpp"
#include "dynid/io/csv_stream.hpp"
#include "dynid/mocap/filtfilt.hpp"
#include "dynid/scenarios/scenario.hpp"
#include "support/scratch_files.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

namespace fs = std::filesystem;

class SensorSourceTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ScenarioOptions o;
    o.scenario = "squat";
    o.out_dir = test::fresh_dir("sensor_source", "squat_none");
    o.noise = NoiseLevel::None;
    run_scenario(test::bundled_robot("kid_humanoid"), o);
    dir_ = o.out_dir;
  }
  static std::string dir_;
};
std::string SensorSourceTest::dir_;

Matrix3 rotation(const VectorX& q) { return Eigen::Quaterniond(q[6], q[3], q[4], q[5]).toRotationMatrix(); }

TEST_F(SensorSourceTest, RebuildsTheTrueStateAndWrenches) {
  // Noise-free streams are read raw (no low-pass), with the velocity convention the data set
  // declares (the simulator's: the mean over the step before), so the rates and forces compare with
  // the truth's own: what remains is the estimator's error.
  const Robot robot = test::bundled_robot("kid_humanoid");
  const DatasetInfo info = read_dataset_info(dir_);
  SensorSource sensors(robot.model, *robot.sidecar, info);
  TruthSource truth(robot.model, *robot.sidecar, info);
  const int nj = robot.model.nv - 6;
  MotionSample s, t;
  double q_err = 0.0, tilt_err = 0.0;
  std::vector<Eigen::VectorXd> est, ref;  // per sample: base rate, joint rates, total force (base axes)
  ASSERT_TRUE(truth.next(t));
  while (sensors.next(s)) {
    while (t.time < s.time - 1e-9) ASSERT_TRUE(truth.next(t));
    ASSERT_NEAR(t.time, s.time, 1e-9);
    q_err = std::max(q_err, (s.q.tail(nj) - t.q.tail(nj)).cwiseAbs().maxCoeff());
    // Gravity in base axes: the tilt, free of the yaw and position the kinematics cannot know.
    const Vector3 gs = rotation(s.q).transpose() * Vector3::UnitZ(), gt = rotation(t.q).transpose() * Vector3::UnitZ();
    tilt_err = std::max(tilt_err, std::acos(std::min(1.0, gs.dot(gt))));
    Vector3 fs = Vector3::Zero(), ft = Vector3::Zero();
    for (std::size_t c = 0; c < s.contact_wrenches.size(); ++c) {
      fs += rotation(s.q).transpose() * s.contact_wrenches[c].linear;
      ft += rotation(t.q).transpose() * t.contact_wrenches[c].linear;
    }
    Eigen::VectorXd e(3 + nj + 3), r(3 + nj + 3);
    e << s.v.segment<3>(3), s.v.tail(nj), fs;
    r << t.v.segment<3>(3), t.v.tail(nj), ft;
    est.push_back(e);
    ref.push_back(r);
  }
  const Eigen::Index n = static_cast<Eigen::Index>(est.size()), m = est[0].size();
  ASSERT_GT(n, 4000);
  Eigen::MatrixXd E(m, n), T(m, n);
  for (Eigen::Index k = 0; k < n; ++k) {
    E.col(k) = est[static_cast<std::size_t>(k)];
    T.col(k) = ref[static_cast<std::size_t>(k)];
  }
  // Away from the ends (as when both were filtered).
  const Eigen::Index edge = 200, inner = n - 2 * edge;
  const auto rel = [&](Eigen::Index row, Eigen::Index rows) {
    return (E.block(row, edge, rows, inner) - T.block(row, edge, rows, inner)).norm() /
           T.block(row, edge, rows, inner).norm();
  };
  std::printf(
      "joint q max error %.3g rad, tilt max error %.3g rad; relative RMS vs truth: base rate "
      "%.3g, joint rates %.3g, total force (base axes) %.3g\n",
      q_err, tilt_err, rel(0, 3), rel(3, nj), rel(3 + nj, 3));
  EXPECT_LT(q_err, 1e-3);     // the encoders, unfiltered
  EXPECT_LT(tilt_err, 2e-3);  // soles flat on the ground to the soft contacts' penetration
  EXPECT_LT(rel(0, 3), 0.1);
  EXPECT_LT(rel(3, nj), 0.01);
  EXPECT_LT(rel(3 + nj, 3), 1e-4);  // only the F/T-to-base mapping differs
}

/// Base linear acceleration, base axes, of every sample of `source` (classical: a + w x v) with its time.
std::pair<std::vector<double>, std::vector<Vector3>> base_accelerations(MotionSource& source) {
  std::pair<std::vector<double>, std::vector<Vector3>> out;
  MotionSample s;
  while (source.next(s)) {
    out.first.push_back(s.time);
    out.second.push_back(s.a.head<3>() + s.v.segment<3>(3).cross(s.v.head<3>()));
  }
  return out;
}

/// RMS error [m/s^2] of the sensor path's base acceleration (base axes) against the truth's base
/// velocity (world axes) through the sensor path's 10 Hz filter, differentiated: the motion the
/// integrator made. Prints it with the motion's own RMS.
double base_acceleration_error(const Robot& robot, const DatasetInfo& info, const SensorSourceOptions& o,
                               const char* label) {
  TruthSource truth(robot.model, *robot.sidecar, info);
  std::vector<double> t_time;
  std::vector<Matrix3> t_rot;
  Eigen::MatrixXd t_vel;  // 3 x n, world axes
  {
    std::vector<Vector3> v;
    MotionSample t;
    while (truth.next(t)) {
      t_time.push_back(t.time);
      t_rot.push_back(rotation(t.q));
      v.push_back(t_rot.back() * t.v.head<3>());
    }
    t_vel.resize(3, static_cast<Eigen::Index>(v.size()));
    for (std::size_t k = 0; k < v.size(); ++k) t_vel.col(static_cast<Eigen::Index>(k)) = v[k];
  }
  t_vel = filtfilt_rows(butterworth_lowpass(2, 10.0, 1000.0), t_vel);
  SensorSource sensors(robot.model, *robot.sidecar, info, o);
  const auto [time, acc] = base_accelerations(sensors);
  double e2 = 0.0, r2 = 0.0;
  std::size_t j = 0, count = 0;
  for (std::size_t k = 0; k < time.size(); ++k) {
    while (j < t_time.size() && t_time[j] < time[k] - 1e-9) ++j;
    if (j < 200 || j + 200 >= t_time.size()) continue;  // the filtered truth's edge transients
    EXPECT_NEAR(t_time[j], time[k], 1e-9);
    const Eigen::Index i = static_cast<Eigen::Index>(j);
    const Vector3 ref = t_rot[j].transpose() * (t_vel.col(i + 1) - t_vel.col(i - 1)) / 2e-3;
    e2 += (acc[k] - ref).squaredNorm();
    r2 += ref.squaredNorm();
    ++count;
  }
  EXPECT_GT(count, 2000u);
  std::printf("base acceleration from %s: RMS error %.3g m/s^2 (motion RMS %.3g m/s^2)\n", label,
              std::sqrt(e2 / static_cast<double>(count)), std::sqrt(r2 / static_cast<double>(count)));
  return std::sqrt(e2 / static_cast<double>(count));
}

/// A walk of the kid-size humanoid with realistic sensors and the upper body locked: its data set.
DatasetInfo simulated_walk(const Robot& robot, const std::string& name, int steps) {
  ScenarioOptions sim;
  sim.scenario = "walk";
  sim.out_dir = test::fresh_dir("sensor_source", name);
  sim.noise = NoiseLevel::Realistic;
  sim.walk_steps = steps;
  sim.lock_upper_body = true;
  EXPECT_FALSE(run_scenario(robot, sim).fell);
  return read_dataset_info(sim.out_dir);
}

TEST(SensorSourceWalk, BaseAccelerationFromTheAccelerometerFollowsTheTruth) {
  // Walking with realistic sensors. Stance-leg kinematics assume the anchor foot fixed, which the
  // filter window breaks around every touch-down; the accelerometer does not depend on it.
  const Robot robot = test::bundled_robot("kid_humanoid");
  const DatasetInfo info = simulated_walk(robot, "walk_realistic", 4);
  SensorSourceOptions kinematic, inertial;
  kinematic.use_accelerometer = false;
  const double from_kinematics = base_acceleration_error(robot, info, kinematic, "leg kinematics");
  const double from_accelerometer = base_acceleration_error(robot, info, inertial, "the accelerometer");
  EXPECT_LT(from_accelerometer, 0.05);  // BMI088-class noise and bias through a 10 Hz low-pass
  EXPECT_LT(from_accelerometer, 0.2 * from_kinematics);
}

/// Every sample of a source.
std::vector<MotionSample> all_samples(MotionSource& source) {
  std::vector<MotionSample> out;
  MotionSample s;
  while (source.next(s)) out.push_back(s);
  return out;
}

/// Largest difference between two sample sequences per quantity (q, v, a, contact wrenches, joint
/// torques), relative to the quantity's largest magnitude in `ref`.
std::array<double, 5> relative_differences(const std::vector<MotionSample>& got, const std::vector<MotionSample>& ref) {
  EXPECT_EQ(got.size(), ref.size());
  const std::size_t n = std::min(got.size(), ref.size());
  for (std::size_t k = 0; k < n; ++k) EXPECT_EQ(got[k].time, ref[k].time);
  const auto compare = [&](auto get) {
    double scale = 0.0, diff = 0.0;
    for (std::size_t k = 0; k < n; ++k) {
      const VectorX r = get(ref[k]), g = get(got[k]);
      scale = std::max(scale, r.cwiseAbs().maxCoeff());
      diff = std::max(diff, (g - r).cwiseAbs().maxCoeff());
    }
    return scale > 0.0 ? diff / scale : diff;  // a quantity the source leaves zero: absolute
  };
  const auto wrenches = [](const MotionSample& s) {
    VectorX w(6 * static_cast<Eigen::Index>(s.contact_wrenches.size()));
    for (std::size_t c = 0; c < s.contact_wrenches.size(); ++c)
      w.segment<6>(6 * static_cast<Eigen::Index>(c)) << s.contact_wrenches[c].linear, s.contact_wrenches[c].angular;
    return w;
  };
  const auto torques = [](const MotionSample& s) {
    return VectorX(s.joint_torques.unaryExpr([](double x) { return std::isfinite(x) ? x : 0.0; }));
  };
  return {compare([](const MotionSample& s) { return s.q; }), compare([](const MotionSample& s) { return s.v; }),
          compare([](const MotionSample& s) { return s.a; }), compare(wrenches), compare(torques)};
}

TEST(SensorSourceChunks, ChunkedSamplesAreTheWholeRecordingsSamples) {
  // A walk with realistic sensors (low-pass, gyro and accelerometer biases, foot F/T, touch-downs):
  // read in one chunk, every stream is filtered whole as before; in chunks, each piece is filtered
  // with the filter's settling length of context. Chunk boundaries land on a touch-down (where the
  // stance anchor changes) and, with short chunks, everywhere.
  const Robot robot = test::bundled_robot("kid_humanoid");
  const DatasetInfo info = simulated_walk(robot, "walk_chunks", 3);
  const double rate = info.stream("encoders").rate_hz;
  SensorSourceOptions whole;
  whole.chunk_s = 1e6;
  SensorSource one(robot.model, *robot.sidecar, info, whole);
  const std::vector<MotionSample> ref = all_samples(one);
  ASSERT_GT(ref.size(), 2000u);
  // The touch-downs: a foot's normal force crossing a quarter of the weight (the anchor's rule).
  const double weight = robot.model.total_mass() * robot.model.gravity.norm();
  std::vector<std::size_t> touch_downs;
  for (std::size_t k = 1; k < ref.size(); ++k)
    for (std::size_t c = 0; c < ref[k].contact_wrenches.size(); ++c)
      if (std::abs(ref[k - 1].contact_wrenches[c].linear.z()) < 0.25 * weight &&
          std::abs(ref[k].contact_wrenches[c].linear.z()) >= 0.25 * weight)
        touch_downs.push_back(k);
  ASSERT_GE(touch_downs.size(), 2u);
  // Encoder row of sample k: the first kept row (trim) plus k; chunks start at row 1.
  const long first_row = std::max<long>(2, std::lround(SensorSourceOptions{}.trim_s * rate));
  const long touch_row = first_row + static_cast<long>(touch_downs[1]);
  for (const long chunk : {touch_row - 1, (touch_row - 1) / 3, 13L, 250L}) {
    SensorSourceOptions o;
    o.chunk_s = static_cast<double>(chunk) / rate;
    SensorSource chunked(robot.model, *robot.sidecar, info, o);
    EXPECT_EQ(chunked.size_hint(), one.size_hint());
    const std::vector<MotionSample> got = all_samples(chunked);
    const auto d = relative_differences(got, ref);
    std::printf(
        "chunks of %ld samples, largest relative difference from the whole recording's: q %.1e, v %.1e, "
        "a %.1e, wrenches %.1e, joint torques %.1e\n",
        chunk, d[0], d[1], d[2], d[3], d[4]);
    // The filtered signals agree to the filter's round-off floor (~2e-14 of the range,
    // tests/mocap/filtfilt_piece_test.cpp); their differences divide that by 2 dt (v) and dt^2 (a),
    // against rates and accelerations a few and a few hundred times the joints' range.
    EXPECT_LT(d[0], 1e-12) << chunk;
    EXPECT_LT(d[1], 1e-10) << chunk;
    EXPECT_LT(d[2], 2e-9) << chunk;
    EXPECT_LT(d[3], 1e-12) << chunk;
    EXPECT_LT(d[4], 1e-12) << chunk;
    // A second pass (rewind) gives the same samples.
    chunked.rewind();
    const auto again = relative_differences(all_samples(chunked), got);
    EXPECT_EQ(*std::max_element(again.begin(), again.end()), 0.0);
  }
}

TEST(SensorSourceChunks, LockedJointsAreCheckedAndLeftOutInEveryChunk) {
  // The walk's upper body is welded at its neutral pose: its elbows locked there, the robot without
  // them (the encoders still have their channels, which the source checks and does not return).
  const Robot robot = test::bundled_robot("kid_humanoid");
  const DatasetInfo info = simulated_walk(robot, "walk_locked", 2);
  const VectorX neutral = robot.model.neutral_configuration();
  std::vector<JointLock> locks;
  for (const char* joint : {"l_elbow", "r_elbow"})
    locks.push_back(
        {joint, neutral[robot.model.bodies[static_cast<std::size_t>(*robot.model.find_joint(joint))].idx_q]});
  const Model locked = lock_joints(robot.model, locks);
  SensorSourceOptions whole, chunked;
  whole.chunk_s = 1e6;
  chunked.chunk_s = 0.25;
  SensorSource one(locked, *robot.sidecar, info, whole, {}, locks);
  SensorSource pieces(locked, *robot.sidecar, info, chunked, {}, locks);
  const std::vector<MotionSample> ref = all_samples(one), got = all_samples(pieces);
  ASSERT_GT(ref.size(), 1000u);
  EXPECT_EQ(ref[0].q.size(), locked.nq);
  EXPECT_EQ(got[0].q.size(), locked.nq);
  const auto d = relative_differences(got, ref);
  EXPECT_LT(d[0], 1e-12);
  EXPECT_LT(d[2], 2e-9);
  // A lock the encoders contradict is named with its line, whichever chunk it is in.
  locks[0].position -= 0.1;
  try {
    SensorSource s(lock_joints(robot.model, locks), *robot.sidecar, info, chunked, {}, locks);
    ADD_FAILURE() << "a moved lock was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("locked joint 'l_elbow'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("line 2:"), std::string::npos) << e.what();
  }
}

TEST_F(SensorSourceTest, RowReaderReadsWhatTheFileReaderReads) {
  const CsvStream whole = read_csv_stream(dir_ + "/imu.csv");
  CsvRowReader rows(dir_ + "/imu.csv");
  EXPECT_EQ(rows.header(), whole.header);
  std::vector<double> row;
  for (int pass = 0; pass < 2; ++pass) {
    Eigen::Index k = 0;
    while (rows.next(row)) {
      for (std::size_t c = 0; c < row.size(); ++c) ASSERT_EQ(row[c], whole.values(k, static_cast<Eigen::Index>(c)));
      ++k;
    }
    EXPECT_EQ(k, whole.values.rows());
    rows.rewind();
  }
  EXPECT_EQ(stream_time_range(dir_ + "/imu.csv").second, whole.values(whole.values.rows() - 1, 0));
}

TEST_F(SensorSourceTest, MissingOrEmptyChannelsAreNamed) {
  const Robot robot = test::bundled_robot("kid_humanoid");
  const std::string broken = test::fresh_dir("sensor_source", "broken");
  fs::create_directories(broken);
  for (const auto& e : fs::directory_iterator(dir_))
    fs::copy_file(e.path(), broken + "/" + e.path().filename().string());
  // An empty encoder field in the middle of the recording.
  {
    std::ifstream in(dir_ + "/encoders.csv");
    std::ofstream out(broken + "/encoders.csv");
    std::string line;
    for (int k = 0; std::getline(in, line); ++k) {
      if (k == 100) line = line.substr(0, line.rfind(',') + 1);
      out << line << "\n";
    }
  }
  try {
    SensorSource s(robot.model, *robot.sidecar, read_dataset_info(broken));
    ADD_FAILURE() << "an empty encoder field was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("line 101"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("q.r_elbow"), std::string::npos) << e.what();
  }
  // Plates without F/T: refused with the reason, not a wrong answer.
  SensorSourceOptions o;
  o.wrenches = "plates";
  try {
    SensorSource s(robot.model, *robot.sidecar, read_dataset_info(dir_), o);
    ADD_FAILURE() << "plates were accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("placement"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace dynid
