#pragma once
// Samples from a motion-capture lab (docs/identification.md, "Data path", motion capture): a marker
// set on the robot and force plates under its feet, with or without joint encoders.
//
//  - base pose: marker IK of every marker frame (data/lab_motion.hpp; with encoders only the base
//    is solved, the joints held at the encoder readings); then, as the static pipeline's validation
//    does, a zero-phase Butterworth low-pass (order `filter_order` per pass, -3 dB at `cutoff_hz`,
//    default 4 Hz) of
//    the configuration on the marker grid and central differences for the base twist and
//    acceleration (data/residual_wrench.hpp, differentiate_configurations), linearly interpolated
//    at the sample times;
//  - joints: the encoders filtered and differentiated as the sensor source does (same filter,
//    central differences at the encoder rate); without an encoders stream, from the marker IK
//    (whole configuration, samples at the marker frames), refused when a joint has no marker on a
//    body beyond it (the IK would hold it where it starts);
//  - contact wrenches: the plates, on a uniform grid at their rate, through the same low-pass,
//    interpolated at the sample times. A plate records the force the robot applies to it and the
//    moment about its top centre; the ground's wrench on the robot is its opposite, moved to the
//    world origin. Each plate is given to the sidecar contact standing on it: the contact frame's
//    origin (world, from the sample's configuration) lies inside the plate's corners and at most
//    `contact_height` above its top. A plate carrying more than `loaded_force` with no contact on
//    it, a loaded plate under two contacts (one plate cannot split their wrenches) and a contact
//    down on the ground outside every plate (its load is not measured) are refused, naming the
//    plate, the contacts and the time;
//  - joint torques: not measured (NaN).
//
// The ends of the overlap of markers, plates and encoders are dropped: `trim_s`, and at least
// `edge_periods` periods of the cut-off. The zero-phase filter's padding (odd extension) is not
// dynamically consistent: it flips the sign of the acceleration beyond the end while the wrench
// keeps its level, so filtered motion and filtered wrenches disagree near the ends (noise-free adult
// squat at 4 Hz: 8.6 N m RMS 0.1-0.2 s from the start, 0.01 N m after 0.5 s).
// Samples are held in memory (a few hundred bytes each).

#include "dynid/data/dataset_info.hpp"
#include "dynid/data/truth_source.hpp"
#include "dynid/ident/motion_sample.hpp"
#include "dynid/model/lock_joints.hpp"
#include "dynid/model/sidecar.hpp"

namespace dynid {

enum class MocapJoints { Auto, Encoders, Markers };

struct MocapSourceOptions {
  /// Low-pass cut-off of base pose, joints and plate wrenches [Hz]. Lower than the sensor path's
  /// 10 Hz: the base acceleration is the markers' position (0.5 mm noise class) differentiated
  /// twice; 4 Hz is also what the static pipeline's validation uses.
  double cutoff_hz = 4.0;
  int filter_order = 2;                    ///< Butterworth order of each pass (zero-phase: twice this)
  double trim_s = 0.1;                     ///< dropped at each end at least [s]
  double edge_periods = 2.5;               ///< and at least this many cut-off periods (1 / cutoff_hz)
  double lock_tolerance = 5e-3;            ///< locked joints must stay within this of their lock [rad]
  MocapJoints joints = MocapJoints::Auto;  ///< Auto: encoders when the data set has them, else marker IK
  double contact_height = 0.05;            ///< a contact frame this close above a plate's top stands on it [m]
  double loaded_force = 20.0;              ///< a plate carries the robot above this normal force [N]
};

class MocapSource : public MotionSource {
 public:
  /// Reads and processes the streams. Throws with a one-line reason naming what is missing (the
  /// markers stream, the plates, the plate corners, an encoder channel) or which foot is off the plates.
  MocapSource(const Model& model, const RobotSidecar& sidecar, const DatasetInfo& dataset,
              const MocapSourceOptions& options = {}, TimeWindow window = {}, std::vector<JointLock> locks = {});
  bool next(MotionSample& sample) override;
  void rewind() override { cursor_ = 0; }
  long size_hint() const override { return static_cast<long>(samples_.size()); }
  std::string description() const override { return description_; }
  ForceNoise noise() const override { return noise_; }

  /// Index of the sidecar contact each plate was given to at the first sample (-1: none), in the
  /// data set's plate order.
  const std::vector<int>& plate_contacts() const { return plate_contacts_; }

 private:
  std::vector<MotionSample> samples_;
  std::size_t cursor_ = 0;
  std::string description_;
  ForceNoise noise_;
  std::vector<int> plate_contacts_;
};

}  // namespace dynid
