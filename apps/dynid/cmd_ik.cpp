// dynid ik MODEL DATA|C3D|TRC --out FILE: marker inverse kinematics, one configuration per frame.

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>

#include "commands.hpp"
#include "dynid/core/atomic_file.hpp"
#include "dynid/core/number_format.hpp"
#include "dynid/io/csv_stream.hpp"
#include "dynid/mocap/marker_ik.hpp"
#include "dynid/mocap/marker_trajectories.hpp"
#include "dynid/model/robot.hpp"

namespace dynid::cli {
namespace {

struct EncoderStream {
  std::vector<int> q_index;  ///< per channel: index in q, -1 for a joint the model lacks
  CsvStream csv;
};

EncoderStream read_encoders(const Model& model, const std::string& path) {
  EncoderStream e{{}, read_csv_stream(path)};
  for (std::size_t c = 1; c < e.csv.header.size(); ++c) {
    const std::string& h = e.csv.header[c];
    const auto b = h.rfind("q.", 0) == 0 ? model.find_joint(h.substr(2)) : std::nullopt;
    e.q_index.push_back(b ? model.bodies[static_cast<std::size_t>(*b)].idx_q : -1);
  }
  return e;
}

// Joint angles of the encoder sample nearest to time t, into q.
void encoders_at(const EncoderStream& e, double t, VectorX& q) {
  if (e.csv.values.rows() == 0) return;
  Eigen::Index best = 0;
  (e.csv.values.col(0).array() - t).abs().minCoeff(&best);
  for (std::size_t c = 0; c < e.q_index.size(); ++c)
    if (e.q_index[c] >= 0 && std::isfinite(e.csv.values(best, static_cast<Eigen::Index>(c) + 1)))
      q[e.q_index[c]] = e.csv.values(best, static_cast<Eigen::Index>(c) + 1);
}

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
  // A data set's encoders, when it has them, give a third start (the robot's own joint angles).
  std::optional<EncoderStream> encoders;
  if (std::filesystem::is_directory(a.input) && std::filesystem::exists(a.input + "/encoders.csv"))
    encoders = read_encoders(model, a.input + "/encoders.csv");
  std::vector<double> steps;
  for (std::size_t k = 1; k < rec.time.size(); ++k) steps.push_back(rec.time[k] - rec.time[k - 1]);
  std::nth_element(steps.begin(), steps.begin() + static_cast<long>(steps.size() / 2), steps.end());
  const double period = steps.empty() ? 0.0 : steps[steps.size() / 2];  // median frame spacing [s]
  double worst_rms = 0.0, sum_rms = 0.0;
  for (Eigen::Index f = 0; f < frames; ++f) {
    model_marker_frame(rec, match, f, y);
    if (f == 0) q = ik.initial_configuration(y);
    MarkerIkFrame r = ik.solve(y, q);
    // After a gap or a poor fit (a new trial or pose, not the previous frame's neighbour): start
    // again from the base markers with the previous and with the neutral joints; keep the best.
    const bool gap =
        f > 0 && rec.time[static_cast<std::size_t>(f)] - rec.time[static_cast<std::size_t>(f - 1)] > 1.5 * period;
    if (gap || r.rms > 2e-3) {
      for (int start = 0; start < 3; ++start) {
        VectorX q2 = ik.initial_configuration(y);
        if (start == 0) q2.tail(model.nq - 7) = q.tail(model.nq - 7);
        if (start == 2) {
          if (!encoders) break;
          encoders_at(*encoders, rec.time[static_cast<std::size_t>(f)], q2);
        }
        const MarkerIkFrame r2 = ik.solve(y, q2);
        if (r2.markers_used >= 3 && r2.rms < r.rms) q = q2, r = r2;
      }
    }
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
