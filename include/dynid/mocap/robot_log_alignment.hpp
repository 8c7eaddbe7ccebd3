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
};

struct RobotLogAlignmentOptions {
  double step_s = 0.0;        ///< search grid [s] (0: the trial's frame interval)
  double min_overlap = 0.8;   ///< fraction of the trial's frames the log must cover at an offset
  double max_rms_rad = 0.05;  ///< above this at the best offset the estimate is refused
};

/// The offset that makes `log`'s angles at offset + t best match the marker angles at trial time t,
/// searched over every offset at which the log covers `min_overlap` of the trial. Throws one line
/// naming `what` when the log cannot cover the trial, or when even the best offset leaves an RMS
/// above `max_rms_rad` (the log is of another motion, or the map's signs or units are wrong), telling
/// the user to give the offset.
RobotLogOffset estimate_robot_log_offset(const MarkerJointAngles& markers, const LogSeries& log,
                                         const std::string& what, const RobotLogAlignmentOptions& options = {});

}  // namespace dynid
