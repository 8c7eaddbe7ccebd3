#pragma once
// Gear wind-up behind the encoders (docs/identification.md, "Gear wind-up"). A gear, its bearings
// and housing twist under the torque they carry to the link; an encoder on the motor side of them
// reads the link's angle plus that twist,
//     q_encoder = q_link + c tau_link,     c = 1 / k [rad per N m]
// (the testbed's `--perturb joint-elasticity`, sim/joint_elasticity_perturbation.hpp). The sensor
// path undoes it with the link torques a model predicts along the recording,
//     q_link = q_encoder - c tau_hat(t),
// subtracted from the low-passed encoders (tau_hat is as smooth as the kinematics it comes from).
// A gear's play (backlash) too: an encoder on the motor side reads the link angle plus the rotor's
// place in the play, on the flank the link torque's sign names and crossing it when that torque
// reverses (actuator/gear_dead_band.hpp); the sensor path subtracts that place, predicted from the
// same link torques and low-passed as the encoders are.

#include <string>
#include <vector>

#include "dynid/ident/motion_sample.hpp"
#include "dynid/model/model.hpp"
#include "dynid/model/sidecar.hpp"

namespace dynid {

/// The torque each of some joints carries to its link, along a recording.
struct LinkTorqueTrack {
  std::vector<std::string> joints;  ///< joint names, the rows of `torque`
  std::vector<double> times;        ///< [s], increasing
  MatrixX torque;                   ///< joints x times [N m, N for prismatic joints]
  /// Row j's torque at time t [s]: linear between samples, held beyond the first and last.
  double at(std::size_t j, double t) const;
};

/// Row `j` of `values` (a column per entry of `times` [s], increasing) at time `t`: linear between
/// samples, held beyond the first and last.
double interpolate_track_row(const std::vector<double>& times, const MatrixX& values, std::size_t j, double t);

/// The correction the sensor path applies: per joint of the track, its compliance and its gear's
/// play.
struct GearWindup {
  LinkTorqueTrack link_torque;
  std::vector<double> compliance;  ///< per row of link_torque [rad per N m]
  /// Per row of link_torque, the encoder's offset from the link angle in the gear's play at the
  /// track's times [rad] (gear_play_offsets), before the encoders' low-pass; empty: no play.
  MatrixX play_offset;
};

/// `track` low-passed at `cutoff_hz` (zero-phase Butterworth, order 2; <= 0 or at or above the
/// track's Nyquist rate: unchanged).
LinkTorqueTrack lowpassed(LinkTorqueTrack track, double cutoff_hz);

/// The rotor's place in each gear's play along `track` (actuator/gear_dead_band.hpp): per row, a
/// play of `play[j]` [rad] crossed under the track's torque against `armature[j]` [kg m^2] and
/// `damping[j]` [N m s/rad] (0: instantly), starting at rest on the flank of the first torque.
/// Returns joints x times [rad].
MatrixX gear_play_offsets(const LinkTorqueTrack& track, const std::vector<double>& play,
                          const std::vector<double>& armature, const std::vector<double>& damping);

/// The link torques of `joints` (names of `model`'s joints) along one pass of `source`: inverse
/// dynamics of `model` at each sample, with the sample's contact wrenches (sidecar contacts) on the
/// bodies that carry them, then low-passed at `cutoff_hz` (zero-phase Butterworth, order 2; <= 0:
/// none). The low-pass matters: the correction is a position, which the sensor path differentiates
/// twice, so what the torques carry at the kinematics' bandwidth (their accelerations' noise, the
/// touch-downs) would come back amplified as acceleration. Right only where every contact that
/// carries load is measured. Rewinds `source` first. Throws naming an unknown joint, or when the
/// source has no samples.
LinkTorqueTrack link_torque_track(const Model& model, const RobotSidecar& sidecar, MotionSource& source,
                                  const std::vector<std::string>& joints, double cutoff_hz);

}  // namespace dynid
