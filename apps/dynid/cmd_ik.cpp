// dynid ik MODEL DATA|C3D|TRC --out FILE: marker inverse kinematics, one configuration per frame.

#include <algorithm>
#include <cmath>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "dynid/core/atomic_file.hpp"
#include "dynid/core/number_format.hpp"
#include "dynid/mocap/marker_ik.hpp"
#include "dynid/mocap/marker_trajectories.hpp"
#include "dynid/model/robot.hpp"

namespace dynid::cli {
namespace {

struct IkArgs {
  std::string model, input, out;
  int calibrate_frames = 0;
};

int run_ik(const IkArgs& a) {
  const Robot robot = load_robot(a.model);
  const Model& model = robot.model;
  MarkerIk ik(model, model_markers(model));
  const MarkerTrajectories rec = read_marker_trajectories(a.input);
  const std::vector<int> match = match_markers(rec, ik.markers());
  const Eigen::Index frames = rec.frame_count();
  if (frames == 0) throw std::runtime_error(a.input + ": no marker frames");
  const auto nm = static_cast<Eigen::Index>(ik.markers().size());
  if (a.calibrate_frames > 0) {
    std::vector<Eigen::Matrix3Xd> trial;
    for (Eigen::Index f = 0; f < std::min<Eigen::Index>(a.calibrate_frames, frames); ++f) {
      Eigen::Matrix3Xd y(3, nm);
      model_marker_frame(rec, match, f, y);
      trial.push_back(y);
    }
    calibrate_from_neutral_trial(ik, trial);
  }
  std::ostringstream out;
  out << "time";
  for (const std::string& c : model.configuration_names()) out << ",q." << c;
  out << ",marker_rms,marker_max,markers_used,iterations\n";
  Eigen::Matrix3Xd y(3, nm);
  VectorX q;
  double worst_rms = 0.0, sum_rms = 0.0;
  for (Eigen::Index f = 0; f < frames; ++f) {
    model_marker_frame(rec, match, f, y);
    if (f == 0) q = ik.initial_configuration(y);
    const MarkerIkFrame r = ik.solve(y, q);
    out << format_exact(rec.time[static_cast<std::size_t>(f)]);
    for (Eigen::Index k = 0; k < q.size(); ++k) out << ',' << format_exact(q[k]);
    out << ',' << format_exact(r.rms) << ',' << format_exact(r.max) << ',' << r.markers_used << ',' << r.iterations
        << '\n';
    worst_rms = std::max(worst_rms, r.rms);
    sum_rms += r.rms;
  }
  write_file_atomically(a.out, out.str());
  std::cout << "dynid ik: " << frames << " frames, "
            << std::count_if(match.begin(), match.end(), [](int m) { return m >= 0; }) << " of " << nm
            << " model markers recorded; marker RMS mean " << format_exact(1e3 * sum_rms / static_cast<double>(frames))
            << " mm, worst frame " << format_exact(1e3 * worst_rms) << " mm -> " << a.out << "\n";
  return 0;
}

}  // namespace

void register_ik(CLI::App& app, Action& action) {
  auto args = std::make_shared<IkArgs>();
  auto* ik = app.add_subcommand("ik", "Marker inverse kinematics: the configuration of every motion-capture frame");
  ik->add_option("MODEL", args->model, "URDF or bundled robot (its sidecar names the markers)")->required();
  ik->add_option("INPUT", args->input, "Data set directory, its markers.csv, a C3D or a TRC")->required();
  ik->add_option("--out", args->out, "CSV to write: time, q.<coordinate>..., marker_rms, marker_max [m]")->required();
  ik->add_option("--calibrate-frames", args->calibrate_frames,
                 "Calibrate the marker offsets on the first N frames (a neutral static trial) first")
      ->check(CLI::NonNegativeNumber);
  ik->callback([&action, args] { action = [args] { return run_ik(*args); }; });
}

}  // namespace dynid::cli
