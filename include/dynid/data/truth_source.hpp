#pragma once
// Samples from a data set's noise-free `truth` stream (simulation only): q, v, a, joint torques and
// contact wrenches exactly as the simulation had them. Used for the "without error" checks (paper
// 003) and as the reference the sensor path is measured against. Reads one row at a time.
//
// The model may have locked joints (model/lock_joints.hpp): channels are matched by name, and the
// recorded position of every locked joint must stay within `lock_tolerance` of its lock (a servo
// holding a joint gives a little, ~1 mrad in a walk; `simulate` welds locked joints, which stay
// exactly at their lock).

#include <memory>

#include "dynid/data/dataset_info.hpp"
#include "dynid/ident/motion_sample.hpp"
#include "dynid/io/csv_row_reader.hpp"
#include "dynid/model/lock_joints.hpp"
#include "dynid/model/sidecar.hpp"

namespace dynid {

/// Samples with time in [start, end).
struct TimeWindow {
  double start = -1e300, end = 1e300;
  bool contains(double t) const { return t >= start && t < end; }
};

class TruthSource : public MotionSource {
 public:
  /// Throws naming the file and channel when a channel the model needs is missing.
  TruthSource(const Model& model, const RobotSidecar& sidecar, const DatasetInfo& dataset, TimeWindow window = {},
              std::vector<JointLock> locks = {}, double lock_tolerance = 5e-3);
  bool next(MotionSample& sample) override;
  void rewind() override;
  long size_hint() const override { return size_; }
  std::string description() const override;
  ForceNoise noise() const override;

 private:
  const Model& model_;
  CsvRowReader reader_;
  TimeWindow window_;
  std::vector<int> q_col_, v_col_, a_col_;
  std::vector<int> tau_col_;                    ///< per velocity coordinate, -1 for the base
  std::vector<std::array<int, 6>> wrench_col_;  ///< per sidecar contact
  std::vector<std::pair<int, JointLock>> lock_col_;
  double lock_tolerance_;
  std::vector<double> row_;
  long size_ = -1;
};

/// First and last time of a CSV stream [s] (reads its first and last lines only).
std::pair<double, double> stream_time_range(const std::string& csv_path);

}  // namespace dynid
