#include "dynid/pipeline/izmp_study.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "dynid/core/atomic_file.hpp"
#include "dynid/core/number_format.hpp"
#include "dynid/report/html_report.hpp"
#include "dynid/scenarios/scenario.hpp"

namespace dynid {
namespace {

IzmpStudySetup setup(const char* name, IzmpMethod method, double acd, AngularAccelerationSource source,
                     DifferenceScheme differences) {
  IzmpStudySetup s;
  s.name = name;
  s.settings.method = method;
  s.settings.acd_rate_hz = acd;
  s.settings.bus_rate_hz = 125.0;
  s.settings.angular_acceleration = source;
  s.settings.differences = differences;
  s.settings.add_inertial_noise = true;
  return s;
}

nlohmann::json setups_json(const std::vector<IzmpStudySetup>& setups) {
  nlohmann::json out = nlohmann::json::object();
  for (const IzmpStudySetup& s : setups) {
    auto number = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
    out[s.name] = {
        {"method", to_string(s.settings.method)},
        {"acd_hz", s.settings.acd_rate_hz},
        {"bus_hz", s.settings.bus_rate_hz},
        {"angular_acceleration", s.settings.method == IzmpMethod::IrMd ? "none (momentum difference quotient)"
                                                                       : to_string(s.settings.angular_acceleration)},
        {"relative_error_percent", number(s.relative_error_percent)},
        {"relative_error_percent_all_single_support", number(s.relative_error_percent_all)},
        {"physical_zmp_rms_mm", number(s.physical_zmp_rms_mm)}};
  }
  return out;
}

std::string fixed_or_dash(double v, int digits) { return std::isfinite(v) ? format_fixed(v, digits) : "-"; }

std::string table_text(const std::vector<IzmpStudySetup>& level, const std::vector<IzmpStudySetup>& slope,
                       double slope_deg) {
  // The paper's Delta (figs. 9 and 10), level walk only: it did not run the setups on a slope.
  const char* paper[] = {"65.2", "16.1", "112.4", "4.4", "18.9"};
  char line[256];
  std::ostringstream out;
  std::snprintf(line, sizeof line, "%-5s %-6s %-9s %-15s | %-27s | %-27s | %s\n", "setup", "method", "ACD/bus",
                "omega_dot", "level: Delta %, phys. mm", (format_exact(slope_deg) + " deg: Delta %, phys. mm").c_str(),
                "paper Delta %");
  out << line;
  for (std::size_t i = 0; i < level.size(); ++i) {
    const IzmpSettings& s = level[i].settings;
    const std::string rates = format_exact(s.acd_rate_hz) + "/" + format_exact(s.bus_rate_hz);
    const std::string source = s.method == IzmpMethod::IrMd ? "-" : to_string(s.angular_acceleration);
    const std::string lv =
        fixed_or_dash(level[i].relative_error_percent, 1) + ", " + fixed_or_dash(level[i].physical_zmp_rms_mm, 1);
    const std::string sl = i < slope.size() ? fixed_or_dash(slope[i].relative_error_percent, 1) + ", " +
                                                  fixed_or_dash(slope[i].physical_zmp_rms_mm, 1)
                                            : "-";
    std::snprintf(line, sizeof line, "%-5s %-6s %-9s %-15s | %-27s | %-27s | %s\n", level[i].name.c_str(),
                  to_string(s.method), rates.c_str(), source.c_str(), lv.c_str(), sl.c_str(), i < 5 ? paper[i] : "");
    out << line;
  }
  return out.str();
}

std::string study_report(const IzmpStudyResult& r, double slope_deg) {
  HtmlReport report("dynid izmp study");
  report.paragraph(
      "Paper 001's setups A-E (Table 3) on the simulated walk: relative error Delta of the IZMP's NIF y "
      "coordinate against the same method with ideal signals at 500 Hz (the paper's reference, figs. 9 and 10), "
      "and the RMS distance to the ZMP of the simulator's contact forces (the physical reference).");
  BarPlot delta{"Relative error Delta [%] (paper: A 65.2, B 16.1, C 112.4, D 4.4, E 18.9)", "Delta [%]", {}, {}, {}};
  BarPlot physical{"RMS distance to the physical ZMP [mm]", "RMS [mm]", {}, {}, {}};
  delta.groups = physical.groups = {"level", format_exact(slope_deg) + " deg slope"};
  delta.values.assign(2, {});
  physical.values.assign(2, {});
  for (std::size_t i = 0; i < r.level.size(); ++i) {
    delta.categories.push_back(r.level[i].name);
    physical.categories.push_back(r.level[i].name);
    delta.values[0].push_back(r.level[i].relative_error_percent);
    physical.values[0].push_back(r.level[i].physical_zmp_rms_mm);
    delta.values[1].push_back(i < r.slope.size() ? r.slope[i].relative_error_percent : 0.0);
    physical.values[1].push_back(i < r.slope.size() ? r.slope[i].physical_zmp_rms_mm : 0.0);
  }
  report.bars(delta);
  // Fig. 10: the MR-AD setups alone, on their own scale.
  BarPlot mr_ad{"MR-AD only: Delta [%] (paper: B 16.1, D 4.4, E 18.9)", "Delta [%]", {}, delta.groups, {{}, {}}};
  for (std::size_t i = 0; i < r.level.size(); ++i) {
    if (r.level[i].settings.method != IzmpMethod::MrAd) continue;
    mr_ad.categories.push_back(r.level[i].name);
    for (int g = 0; g < 2; ++g)
      mr_ad.values[static_cast<std::size_t>(g)].push_back(delta.values[static_cast<std::size_t>(g)][i]);
  }
  report.bars(mr_ad);
  report.bars(physical);
  ReportTable table{
      "Setups (Delta: paper's relative error [%]; physical: RMS distance to the ZMP of the contact forces [mm])",
      {"setup", "method", "ACD/bus [Hz]", "omega_dot", "level Delta", "level physical", "slope Delta", "slope physical",
       "paper Delta"},
      {}};
  const char* paper[] = {"65.2", "16.1", "112.4", "4.4", "18.9"};
  for (std::size_t i = 0; i < r.level.size(); ++i) {
    const IzmpSettings& st = r.level[i].settings;
    const bool slope = i < r.slope.size();
    table.rows.push_back(
        {r.level[i].name, to_string(st.method), format_exact(st.acd_rate_hz) + "/" + format_exact(st.bus_rate_hz),
         st.method == IzmpMethod::IrMd ? "-" : to_string(st.angular_acceleration),
         fixed_or_dash(r.level[i].relative_error_percent, 1), fixed_or_dash(r.level[i].physical_zmp_rms_mm, 1),
         slope ? fixed_or_dash(r.slope[i].relative_error_percent, 1) : "-",
         slope ? fixed_or_dash(r.slope[i].physical_zmp_rms_mm, 1) : "-", i < 5 ? paper[i] : ""});
  }
  report.table(table);
  return report.html();
}

}  // namespace

std::vector<IzmpStudySetup> izmp_study_setups(DifferenceScheme differences) {
  using M = IzmpMethod;
  using S = AngularAccelerationSource;
  return {setup("A", M::IrMd, 125.0, S::Gyro, differences), setup("B", M::MrAd, 125.0, S::Accelerometers, differences),
          setup("C", M::IrMd, 500.0, S::Gyro, differences), setup("D", M::MrAd, 500.0, S::Accelerometers, differences),
          setup("E", M::MrAd, 500.0, S::Gyro, differences)};
}

std::vector<IzmpStudySetup> evaluate_izmp_setups(const Robot& robot, const IzmpRecording& recording,
                                                 std::vector<IzmpStudySetup> setups, unsigned noise_seed) {
  for (IzmpStudySetup& s : setups) {
    s.settings.noise_seed = noise_seed;
    const IzmpSeries series = evaluate_izmp(robot, recording, s.settings);
    // The paper's reference: the same method and omega_dot source, ideal signals, 500 Hz ACD and bus.
    IzmpSettings ideal = s.settings;
    ideal.add_inertial_noise = false;
    ideal.acd_rate_hz = ideal.bus_rate_hz = 500.0;
    const IzmpSeries reference = evaluate_izmp(robot, recording, ideal);
    s.relative_error_percent = izmp_relative_error(series, reference);
    s.relative_error_percent_all = izmp_relative_error(series, reference, 0.0);
    s.physical_zmp_rms_mm = physical_zmp_rms_mm(series);
  }
  return setups;
}

IzmpStudyResult run_izmp_study(const IzmpStudyOptions& o) {
  auto progress = [&](double f, const std::string& m) {
    if (o.progress) o.progress(f, m);
  };
  IzmpStudyResult result;
  const Robot nominal = load_robot(o.robot);
  std::filesystem::create_directories(o.out_dir);
  const std::vector<IzmpStudySetup> setups = izmp_study_setups(o.differences);
  for (int walk = 0; walk < 2; ++walk) {
    ScenarioOptions scenario;
    scenario.scenario = "walk";
    scenario.out_dir = o.out_dir + (walk == 0 ? "/level_walk" : "/slope_walk");
    scenario.seed = o.seed;
    scenario.noise = NoiseLevel::None;
    scenario.walk_steps = o.steps;
    scenario.slope_deg = walk == 0 ? 0.0 : o.slope_deg;
    const std::string label = walk == 0 ? "level walk" : "slope walk";
    scenario.progress = [&](double f, const std::string& m) { progress(0.5 * walk + 0.35 * f, label + ": " + m); };
    const ScenarioSummary sim = run_scenario(nominal, scenario);
    if (sim.fell) throw std::runtime_error("the simulated " + o.robot + " fell during the " + label);
    // The model the simulator ran, so that Delta and the physical RMS measure the method alone.
    Robot robot = nominal;
    use_inertias_of(robot, scenario.out_dir + "/truth.urdf");
    progress(0.5 * walk + 0.35, label + ": setups A-E");
    IzmpSettings load;  // MR-AD with accelerometers reads every stream the setups need
    const IzmpRecording recording = load_izmp_recording(robot, scenario.out_dir, load);
    (walk == 0 ? result.level : result.slope) = evaluate_izmp_setups(robot, recording, setups, o.seed);
  }
  progress(1.0, "done");
  result.table = table_text(result.level, result.slope, o.slope_deg);
  nlohmann::json summary;
  summary["robot"] = o.robot;
  summary["seed"] = o.seed;
  summary["steps"] = o.steps;
  summary["slope_deg"] = o.slope_deg;
  summary["differences"] = to_string(o.differences);
  summary["reference"] = "same method and omega_dot source, ideal (noise-free) signals, ACD = bus = 500 Hz";
  summary["delta_samples"] =
      "single support, reference at least 1 cm from y = 0 (the IZMP's NIF y coordinate, paper 001 sect. 4.6); "
      "relative_error_percent_all_single_support without that floor";
  summary["noise"] = "white, sigma = density * sqrt(ACD rate): gyro and accelerometers (MR-AD), base velocity (IR-MD)";
  summary["paper_relative_error_percent"] = {{"A", 65.2}, {"B", 16.1}, {"C", 112.4}, {"D", 4.4}, {"E", 18.9}};
  summary["setups"] = setups_json(result.level);
  summary["slope_setups"] = setups_json(result.slope);
  result.summary = summary;
  write_file_atomically(o.out_dir + "/summary.json", summary.dump(2) + "\n");
  write_file_atomically(o.out_dir + "/report.html", study_report(result, o.slope_deg));
  return result;
}

}  // namespace dynid
