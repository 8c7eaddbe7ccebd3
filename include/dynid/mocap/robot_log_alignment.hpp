#pragma once
// A robot's own log (encoders, joint torques) put on a motion-capture trial's clock, for `dynid
// import c3d --robot-log` (docs/data-format.md, "The robot's own log beside a trial"). The lab and
// the robot record on clocks that nobody synchronised: the offset is either given (a sync pulse the
// user read off both recordings) or estimated here from what both see — the joint angles. The
// markers give them by inverse kinematics on the model; the log gives them from the encoders. The
// offset is the one that makes the two agree best (least mean square difference over the joints the
// log has, sub-sample by a parabola through the minimum), so static poses, whose angles are
// constant, align as well as motion does: the log is searched for where the robot held that pose.
// Constant angle biases (marker placement, encoder zero) stay in the difference, small against the
// motion or the distance between poses.

#include <limits>
#include <string>
#include <vector>

#include "dynid/io/log_import.hpp"
#include "dynid/mocap/mocap_recording.hpp"

namespace dynid {

/// Joint angles over a trial, as the markers give them.
struct MarkerJointAngles {
  std::vector<double> time;                ///< [s] trial time: 0 at the trial's first marker frame
  std::vector<std::string> joints;         ///< model joint names (one-dof joints)
  Eigen::MatrixXd q;                       ///< joints x frames [rad or m]; NaN where IK had < 3 markers
  double ik_rms_m = 0.0;                   ///< median over frames of the IK's marker RMS [m]
  std::vector<std::string> unseen_joints;  ///< asked for, but no visible marker moves with them
};

/// Solves the model's marker IK (model markers by name, `marker_names[m]` the name of the trial's
/// column m; columns the model lacks are ignored) on every `stride`-th frame of the trial, each frame
/// warm-started from the previous one. Throws naming the trial when the model has no markers or no
/// frame has 3 of them. Joints that no marker visible in the first solved frame moves by at least
/// `min_lever_m` per radian (a marker that far from the axis) are left out and listed as unseen: IK
/// leaves them wherever it started them.
MarkerJointAngles joint_angles_from_markers(const Model& model, const MocapRecording& trial,
                                            const std::vector<std::string>& marker_names,
                                            const std::vector<std::string>& joints, int stride = 1,
                                            double min_lever_m = 0.05);

struct RobotLogOffset {
  double offset_s = 0.0;    ///< log time at the trial's first marker frame [s]
  double rms_rad = 0.0;     ///< RMS of (encoder - marker IK angle) over joints and frames at the offset
  double spread_rad = 0.0;  ///< RMS of the marker IK angles about their per-joint means: what motion there was
  long frames = 0;          ///< frames compared
  /// Curvature of the mean square difference at the offset [rad^2/s^2] (0 when the minimum is at
  /// the search's edge): how sharply the match fixes the offset.
  double sharpness = 0.0;
};

struct RobotLogAlignmentOptions {
  double step_s = 0.0;        ///< search grid [s] (0: the trial's frame interval)
  double min_overlap = 0.8;   ///< fraction of the trial's frames the log must cover at an offset
  double max_rms_rad = 0.05;  ///< above this at the best offset the estimate is refused
  /// Offsets searched [s]: only within [search_from_s, search_to_s] when both are finite (NaN: every
  /// offset at which the log covers the trial).
  double search_from_s = std::numeric_limits<double>::quiet_NaN();
  double search_to_s = std::numeric_limits<double>::quiet_NaN();
};

/// The offset that makes `log`'s angles at offset + t best match the marker angles at trial time t,
/// searched over every offset at which the log covers `min_overlap` of the trial. Throws one line
/// naming `what` when the log cannot cover the trial, or when even the best offset leaves an RMS
/// above `max_rms_rad` (the log is of another motion, or the map's signs or units are wrong), telling
/// the user to give the offset.
RobotLogOffset estimate_robot_log_offset(const MarkerJointAngles& markers, const LogSeries& log,
                                         const std::string& what, const RobotLogAlignmentOptions& options = {});

/// The robot's clock against the lab's: log time = offset_s + (1 + drift_ppm 1e-6) trial time.
struct RobotLogDrift {
  double offset_s = 0.0;           ///< log time at the trial's first marker frame (trial time 0) [s]
  double drift_ppm = 0.0;          ///< how much faster the log's clock runs than the lab's [1e-6]
  double drift_std_ppm = 0.0;      ///< standard deviation of drift_ppm from the windows' scatter about the line
  int windows = 0;                 ///< windows whose offsets the line went through
  int windows_without_motion = 0;  ///< windows left out: the marker angles hardly moved in them
};

struct RobotLogDriftOptions {
  double window_s = 1.0;         ///< length of each window [s of trial time]
  double search_s = 0.05;        ///< each window's offset searched within this of the whole trial's [s]
  double min_motion_rad = 0.01;  ///< windows whose marker angles move less (RMS about their mean) are left out
  RobotLogAlignmentOptions alignment;
};

/// Offset and drift of the log's clock over one trial: the trial is cut into windows of
/// `window_s`, each window's offset is estimated as estimate_robot_log_offset does for the trial (searched
/// within `search_s` of `whole`, the whole trial's offset), and a straight line through the windows'
/// offsets against their mid times gives the drift (its slope) and the offset at trial time 0.
/// Windows where nothing moves (static poses) say nothing about time and are left out. Throws one line
/// naming `what` when fewer than 3 windows with motion remain, telling the user to give the drift.
RobotLogDrift estimate_robot_log_drift(const MarkerJointAngles& markers, const LogSeries& log, const std::string& what,
                                       const RobotLogOffset& whole, const RobotLogDriftOptions& options = {});

}  // namespace dynid
