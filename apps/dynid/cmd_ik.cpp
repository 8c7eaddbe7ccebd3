// dynid ik MODEL DATA|C3D|TRC --out FILE: marker inverse kinematics, one configuration per frame.

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <optional>

#include "commands.hpp"
#include "dynid/core/atomic_file.hpp"
#include "dynid/core/number_format.hpp"
#include "dynid/data/lab_motion.hpp"
#include "dynid/mocap/marker_trajectories.hpp"
#include "dynid/model/robot.hpp"

namespace dynid::cli {
namespace {

struct IkArgs {
  std::string model, input, out;
  int calibrate_frames = 0;
  bool fixed_base = false;
};

int run_ik(const IkArgs& a) {
  const Robot robot = load_robot(a.model, model_read_options(a.fixed_base));
  const Model& model = robot.model;
  // A data set directory brings its encoders (a third start after a gap); a file only markers.
  std::optional<LabRecording> recording;
  if (std::filesystem::is_directory(a.input)) recording = read_lab_recording(a.input);
  const MarkerTrajectories markers = recording ? recording->markers : read_marker_trajectories(a.input);
  if (markers.frame_count() == 0) throw std::runtime_error(a.input + ": no marker frames");
  MarkerConfigurationOptions options;
  options.restarts = true;
  options.calibrate_frames = a.calibrate_frames;
  const MarkerConfigurations ik =
      solve_marker_configurations(model, markers, recording ? &*recording : nullptr, options);
  write_file_atomically(a.out, marker_configurations_csv(model, ik));
  double worst_rms = 0.0, sum_rms = 0.0;
  for (const double rms : ik.rms) worst_rms = std::max(worst_rms, rms), sum_rms += rms;
  std::cout << "dynid ik: " << ik.time.size() << " frames, " << ik.markers_recorded << " of " << ik.markers_in_model
            << " model markers recorded; marker RMS mean "
            << format_exact(1e3 * sum_rms / static_cast<double>(ik.time.size())) << " mm, worst frame "
            << format_exact(1e3 * worst_rms) << " mm";
  const long frames_with_dropped =
      std::count_if(ik.dropped.begin(), ik.dropped.end(), [](int dropped) { return dropped > 0; });
  if (frames_with_dropped > 0)
    std::cout << "; " << frames_with_dropped << " frames had a mislabelled marker (over "
              << format_fixed(1e3 * options.outlier_m, 0) << " mm from the model: a swapped label or a ghost) dropped";
  std::cout << " -> " << a.out << "\n";
  return 0;
}

}  // namespace

void register_ik(CLI::App& app, Action& action) {
  auto args = std::make_shared<IkArgs>();
  auto* ik = app.add_subcommand("ik", "Marker inverse kinematics: the configuration of every motion-capture frame");
  ik->add_option("MODEL", args->model, "URDF or MJCF file, or bundled robot (its sidecar names the markers)")
      ->required();
  ik->add_option("INPUT", args->input, "Data set directory, its markers.csv, a C3D or a TRC")->required();
  ik->add_option("--out", args->out, "CSV to write: time, q.<coordinate>..., marker_rms, marker_max [m]")->required();
  ik->add_option("--calibrate-frames", args->calibrate_frames,
                 "Calibrate the marker offsets on the first N frames (a neutral static trial) first")
      ->check(CLI::NonNegativeNumber);
  add_fixed_base_flag(*ik, args->fixed_base);
  ik->callback([&action, args] { action = [args] { return run_ik(*args); }; });
}

}  // namespace dynid::cli
