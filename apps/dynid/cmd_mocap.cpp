// dynid mocap inspect FILE [--json]: what dynid reads from a C3D or TRC file.

#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "dynid/mocap/force_plate.hpp"
#include "dynid/pipeline/mocap_inspection.hpp"

namespace dynid::cli {
namespace {

using json = nlohmann::json;

std::string text_vec(const json& v) {
  if (v.is_null()) return "-";
  std::ostringstream s;
  s << std::fixed << std::setprecision(4) << "[" << v[0].get<double>() << ", " << v[1].get<double>() << ", "
    << v[2].get<double>() << "]";
  return s.str();
}

void print_text(const json& d) {
  std::cout << d["file"].get<std::string>() << " (" << d["format"].get<std::string>();
  if (d.contains("c3d"))
    std::cout << ", " << d["c3d"]["processor"].get<std::string>() << ", " << d["c3d"]["storage"].get<std::string>();
  std::cout << ")\n"
            << "  frames " << d["frames"]["first"] << ".." << d["frames"]["last"] << " (" << d["frames"]["count"]
            << ") at " << d["points"]["rate"] << " Hz\n"
            << "  markers " << d["points"]["count"] << " (in " << d["points"]["units_in_file"].get<std::string>()
            << ", " << std::setprecision(3) << 100.0 * d["points"]["valid_fraction"].get<double>() << " % present)";
  for (const auto& l : d["points"]["labels"]) std::cout << " " << l.get<std::string>();
  std::cout << "\n  analog channels " << d["analogs"]["count"] << " at " << d["analogs"]["rate"] << " Hz\n";
  for (const auto& p : d["force_plates"]) {
    std::cout << "  force plate " << p["number"] << ": type " << p["type"] << ", centre " << text_vec(p["center"])
              << " m, origin " << text_vec(p["origin"]) << " m, moments in file as '"
              << p["units"]["moment_channels_in_file"].get<std::string>() << "'\n";
    for (const auto& s : p["first_frames"])
      std::cout << "    frame " << s["frame"] << ": force " << text_vec(s["force"]) << " N, moment "
                << text_vec(s["moment"]) << " N m, COP " << text_vec(s["cop"]) << " m\n";
    if (!p["first_loaded"].is_null())
      std::cout << "    first loaded frame " << p["first_loaded"]["frame"] << ": force "
                << text_vec(p["first_loaded"]["force"]) << " N, COP " << text_vec(p["first_loaded"]["cop"]) << " m\n";
    for (const auto& n : p["notes"]) std::cout << "    note: " << n.get<std::string>() << "\n";
  }
  for (const auto& w : d["warnings"]) std::cout << "  warning: " << w.get<std::string>() << "\n";
}

}  // namespace

void register_mocap(CLI::App& app, Action& action) {
  auto* mocap = app.add_subcommand("mocap", "Motion-capture files (C3D, TRC)");
  mocap->require_subcommand(1);
  auto* inspect = mocap->add_subcommand(
      "inspect", "Rates, frames, markers, analog channels and force plates (first wrenches and COP) of a C3D or TRC");
  auto file = std::make_shared<std::string>();
  auto as_json = std::make_shared<bool>(false);
  auto threshold = std::make_shared<double>(kDefaultCopThreshold);
  auto frames = std::make_shared<int>(3);
  inspect->add_option("FILE", *file, "C3D or TRC file")->required();
  inspect->add_flag("--json", *as_json, "Print JSON");
  inspect->add_option("--cop-threshold", *threshold, "Vertical force [N] below which the COP is undefined (default 20)")
      ->check(CLI::NonNegativeNumber);
  inspect->add_option("--frames", *frames, "How many first frames to show per force plate (default 3)")
      ->check(CLI::Range(0, 1000));
  inspect->callback([&action, file, as_json, threshold, frames] {
    action = [file, as_json, threshold, frames] {
      const json d = inspect_mocap_file(*file, *threshold, *frames);
      if (*as_json)
        std::cout << d.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
      else
        print_text(d);
      return 0;
    };
  });
}

}  // namespace dynid::cli
