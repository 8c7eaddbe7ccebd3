// `static-poses`: paper 000's protocol of statically stable poses on two force plates.

#include "dynid/dynamics/whole_body_ik.hpp"
#include "scenario_run.hpp"

namespace dynid::scenario_detail {

void run_static_poses(Run& run) {
  const Model& nominal = run.robot.model;
  run.progress(0.0, "generating " + std::to_string(run.options.static_pose_count) + " static poses (IK)");
  const std::vector<StaticPose> poses =
      generate_static_poses(nominal, *run.robot.sidecar, run.scene.plates, run.options.static_pose_count,
                            run.options.seed, run.options.static_pose_base_tilt_deg);
  run.start(poses.front().q);
  const VectorX zero_v = VectorX::Zero(nominal.nv);
  const double dt = run.sim->timestep();
  const int settle_steps = static_cast<int>(std::lround(1.5 / dt));
  const int record_steps = static_cast<int>(std::lround(1.0 / dt));
  for (std::size_t i = 0; i < poses.size(); ++i) {
    const StaticPose& pose = poses[i];
    run.sim->set_state(run.on_ground(pose.q, pose.support), zero_v);
    for (int k = 0; k < settle_steps; ++k) run.step(pose.q, zero_v, false);
    Segment seg{"pose " + std::to_string(i), pose.category, run.sim->time(), 0.0, 0.0, 0.0};
    run.recorder->restart_clocks(run.sim->time());
    double cop_error_sum = 0.0;
    for (int k = 0; k < record_steps; ++k) {
      run.step(pose.q, zero_v, true);
      for (std::size_t j = 1; j < run.truth.model.bodies.size(); ++j) {
        const Body& b = run.truth.model.bodies[j];
        if (b.joint_type != JointType::FreeFlyer)
          seg.max_joint_speed = std::max(seg.max_joint_speed, std::abs(run.sim->v()[b.idx_v]));
      }
      // Combined COP of all plates (sum of wrenches about the world origin) vs the true GCOM.
      Force total = Force::Zero();
      for (std::size_t p = 0; p < run.scene.plates.size(); ++p) {
        const Force& w = run.sim->plate_wrenches()[p];
        total += Force(w.linear, w.angular + run.scene.plates[p].top_center_world.cross(w.linear));
      }
      const Eigen::Vector2d cop(-total.angular.y() / total.linear.z(), total.angular.x() / total.linear.z());
      const Vector3 com = center_of_mass(run.truth.model, run.truth_data, run.sim->q());
      cop_error_sum += (cop - com.head<2>()).norm();
    }
    seg.end = run.sim->time();
    seg.cop_gcom_error = cop_error_sum / record_steps;
    run.segments.push_back(seg);
    run.progress(double(i + 1) / double(poses.size()),
                 "pose " + std::to_string(i + 1) + "/" + std::to_string(poses.size()));
    if (run.fell) break;
  }
}

}  // namespace dynid::scenario_detail
