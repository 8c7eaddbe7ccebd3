#include "fuzz_readers.hpp"

#include <unistd.h>

#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <stdexcept>

#include "dynid/data/dataset_info.hpp"
#include "dynid/ident/fourier_trajectory.hpp"
#include "dynid/io/csv_row_reader.hpp"
#include "dynid/io/csv_stream.hpp"
#include "dynid/io/log_import.hpp"
#include "dynid/io/state_json.hpp"
#include "dynid/mocap/c3d_import.hpp"
#include "dynid/mocap/c3d_reader.hpp"
#include "dynid/mocap/force_plate.hpp"
#include "dynid/mocap/ground_reaction_file.hpp"
#include "dynid/mocap/trc_force_plates.hpp"
#include "dynid/mocap/trc_reader.hpp"
#include "dynid/model/mjcf_reader.hpp"
#include "dynid/model/sidecar.hpp"
#include "dynid/model/sidecar_reader.hpp"
#include "dynid/model/urdf_reader.hpp"

namespace dynid::fuzz {
namespace {

namespace fs = std::filesystem;

/// "" when `read` returns or throws a std::exception whose message contains `label`.
std::string kept_rule(const std::string& label, const std::function<void()>& read) {
  try {
    read();
  } catch (const std::exception& e) {
    if (std::string(e.what()).find(label) == std::string::npos)
      return "the error does not name the input '" + label + "': " + e.what();
  }
  return "";
}

/// A directory of this process's own under the system temporary directory, removed at exit.
const fs::path& scratch_directory() {
  static const fs::path dir = [] {
    const fs::path d = fs::temp_directory_path() / ("dynid-fuzz-" + std::to_string(::getpid()));
    fs::create_directories(d);
    std::atexit([] {
      std::error_code ignored;
      fs::remove_all(scratch_directory(), ignored);
    });
    return d;
  }();
  return dir;
}

/// Writes `input` to scratch_directory()/name (replacing it), for the readers that take a path.
std::string write_scratch(const std::string& name, const std::string& input) {
  const std::string path = (scratch_directory() / name).string();
  std::ofstream(path, std::ios::binary | std::ios::trunc) << input;
  return path;
}

/// The bundled kid-size humanoid (models/kid_humanoid.urdf), read once.
const Model& kid_model() {
  static const Model model = read_urdf_file(std::string(DYNID_MODELS_DIR) + "/kid_humanoid.urdf");
  return model;
}

std::string urdf(const std::string& xml) {
  std::string problem = kept_rule("fuzz.urdf", [&] { read_urdf_string(xml, "fuzz.urdf"); });
  if (problem.empty())
    problem = kept_rule("fuzz.urdf", [&] {
      UrdfReadOptions fixed;
      fixed.floating_base = false;
      read_urdf_string(xml, "fuzz.urdf", fixed);
    });
  return problem;
}

// The names checked against the bundled robot as `dynid` does for every robot it loads.
std::string sidecar(const std::string& yaml) {
  return kept_rule("fuzz.yaml", [&] {
    RobotSidecar s = read_sidecar_string(yaml, "fuzz.yaml");
    Model model = kid_model();
    attach_sidecar(model, s);
    joint_armature(model, s);
  });
}

// Both CSV stream readers and the log-table reader of `dynid import log`.
std::string csv(const std::string& text) {
  const std::string path = write_scratch("stream.csv", text);
  std::string problem = kept_rule(path, [&] { read_csv_stream(path); });
  if (problem.empty())
    problem = kept_rule(path, [&] {
      CsvRowReader reader(path);
      std::vector<double> row;
      while (reader.next(row)) {
      }
      reader.rewind();
      reader.next(row);
    });
  if (problem.empty()) problem = kept_rule(path, [&] { read_log_table(path); });
  return problem;
}

// In a directory that holds the files `dynid simulate` writes, so inputs naming them get further.
std::string dataset(const std::string& json) {
  static const bool streams_written = [] {
    for (const char* name :
         {"encoders.csv", "imu.csv", "ft.csv", "torques.csv", "truth.csv", "markers.csv", "plates.csv", "truth.urdf"})
      write_scratch(name, "");
    return true;
  }();
  (void)streams_written;
  const std::string path = write_scratch("dataset.json", json);
  return kept_rule(path, [&] { read_dataset_info(scratch_directory().string()); });
}

std::string trc(const std::string& text) {
  return kept_rule("fuzz.trc", [&] { parse_trc(text, "fuzz.trc"); });
}

// As `dynid mocap inspect` reads: the file, its SI view and every force plate's ground reaction.
std::string c3d(const std::string& bytes) {
  return kept_rule("fuzz.c3d", [&] {
    const MocapRecording rec = recording_from_c3d(parse_c3d(bytes, "fuzz.c3d"), "fuzz.c3d");
    for (const ForcePlate& plate : rec.force_plates) ground_reaction_series(plate, rec.analogs);
  });
}

std::string state_json(const std::string& json) {
  return kept_rule("fuzz.json", [&] { read_state_json_string(kid_model(), json, "fuzz.json"); });
}

// With the trajectory's analytic bounds, which `dynid simulate` checks against the limits.
std::string excitation(const std::string& json) {
  const std::string path = write_scratch("excitation.json", json);
  return kept_rule(path, [&] {
    const FourierTrajectory traj = read_fourier_trajectory(path);
    for (int j = 0; j < traj.num_joints(); ++j) {
      traj.position_bound(j);
      traj.velocity_bound(j);
      traj.acceleration_bound(j);
    }
  });
}

std::string log_map(const std::string& yaml) {
  const std::string path = write_scratch("map.yaml", yaml);
  return kept_rule(path, [&] { read_log_map(path, kid_model()); });
}

// As `dynid import c3d TRIAL.trc --plates FILE.mot` reads: the table, its plates, and the plates
// attached to a 1 s trial (100 Hz from 0 s) at a layout with one floor plate per plate found.
std::string grf_mot(const std::string& text) {
  const std::string path = write_scratch("grf.mot", text);
  return kept_rule(path, [&] {
    const OpenSimStorage storage = read_opensim_storage(path);
    const std::vector<GroundReactionColumns> plates = find_ground_reaction_columns(storage);
    for (const GroundReactionColumns& c : plates) plate_series(storage, c);
    MocapRecording trial;
    trial.source = path;
    trial.point_rate = 100.0;
    trial.last_frame_time = 0.99;
    trial.marker_labels = {"M"};
    trial.marker_positions = Eigen::MatrixXd::Zero(3, 100);
    trial.marker_valid.setConstant(1, 100, true);
    std::vector<PlateLayoutEntry> layout(plates.size());
    for (std::size_t p = 0; p < plates.size(); ++p) {
      const double y = static_cast<double>(p);
      layout[p].corners << 0.6, 0.0, 0.0, 0.6, y + 0.4, y + 0.4, y, y, 0.0, 0.0, 0.0, 0.0;
    }
    attach_trc_force_plates(trial, path, layout, Matrix3::Identity(), 20.0);
  });
}

// An MJCF file as every command reads MODEL: dynid's edits for MuJoCo 2.2.2 (model/mjcf_compat.hpp),
// MuJoCo's compiler, the conversion to dynid's model; floating and fixed base.
std::string mjcf(const std::string& xml) {
  const std::string path = write_scratch("model.xml", xml);
  std::string problem = kept_rule(path, [&] { read_mjcf_file(path); });
  if (problem.empty())
    problem = kept_rule(path, [&] {
      UrdfReadOptions fixed;
      fixed.floating_base = false;
      read_mjcf_file(path, fixed);
    });
  return problem;
}

// The label map of `dynid import c3d --labels`.
std::string labels(const std::string& yaml) {
  const std::string path = write_scratch("labels.yaml", yaml);
  return kept_rule(path, [&] { read_marker_label_map(path); });
}

// The plate layout of `--plate-layout` (YAML or JSON; a C3D layout is the c3d harness's reader).
std::string plate_layout(const std::string& yaml) {
  const std::string path = write_scratch("plates.yaml", yaml);
  return kept_rule(path, [&] { read_plate_layout(path); });
}

const std::map<std::string, std::string (*)(const std::string&)>& harnesses() {
  static const std::map<std::string, std::string (*)(const std::string&)> table = {{"urdf", urdf},
                                                                                   {"sidecar", sidecar},
                                                                                   {"csv", csv},
                                                                                   {"dataset", dataset},
                                                                                   {"trc", trc},
                                                                                   {"c3d", c3d},
                                                                                   {"state_json", state_json},
                                                                                   {"excitation", excitation},
                                                                                   {"log_map", log_map},
                                                                                   {"grf_mot", grf_mot},
                                                                                   {"mjcf", mjcf},
                                                                                   {"labels", labels},
                                                                                   {"plate_layout", plate_layout}};
  return table;
}

}  // namespace

const std::vector<std::string>& harness_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& entry : harnesses()) out.push_back(entry.first);
    return out;
  }();
  return names;
}

std::string read_input(const std::string& name, const std::string& input) {
  const auto it = harnesses().find(name);
  if (it == harnesses().end()) throw std::invalid_argument("no fuzz harness '" + name + "'");
  return it->second(input);
}

}  // namespace dynid::fuzz
