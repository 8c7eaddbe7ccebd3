// report.html of `dynid izmp`: the IZMP's NIF coordinates over time with the stance soles' extent
// and the physical ZMP (paper 001 figs. 6 and 8), and one stretch of walking in the ground plane
// with the soles (fig. 11).

#include <cmath>

#include "dynid/core/number_format.hpp"
#include "dynid/pipeline/izmp.hpp"
#include "dynid/report/html_report.hpp"

namespace dynid {
namespace {

std::string json_text(const nlohmann::json& v) {
  if (v.is_null()) return "—";
  if (v.is_number_float()) return format_fixed(v.get<double>(), 3);
  if (v.is_string()) return v.get<std::string>();
  return v.dump();
}

}  // namespace

std::string izmp_report_html(const IzmpResult& result, const std::string& title) {
  const IzmpSeries& s = result.series;
  HtmlReport report(title);
  report.paragraph(
      "Imaginary ZMP of paper 001 (Giessler & Waltersberger 2023) in the non-inertial frame (NIF): origin at the "
      "root body's origin, z along the ground normal, x the robot's forward direction in the ground plane. "
      "The physical ZMP is that of the simulator's contact wrenches on the same plane (simulated data sets only). "
      "The stance soles' extent is the union of the soles on the ground (both in double support). izmp.csv also "
      "holds the paper's reference series.");
  if (result.summary.contains("input_warnings"))
    for (const auto& w : result.summary["input_warnings"])
      report.paragraph("Input warning: " + w.get<std::string>() + ".");
  ReportTable table{"Summary", {"key", "value"}, {}};
  for (const auto& [key, value] : result.summary.items())
    if (key != "input_warnings" && key != "unexplained_residual") table.rows.push_back({key, json_text(value)});
  report.table(table);

  report.heading("What the IZMP leaves unexplained");
  const nlohmann::json& u = result.summary.value("unexplained_residual", nlohmann::json());
  if (u.is_object()) {
    report.paragraph(u["explanation"].get<std::string>() + " The ratio is " + u["basis"].get<std::string>() + ".");
    ReportTable split{"The IZMP's RMS distance to the physical ZMP [mm], and what it would be with a perfect model",
                      {"this model, recorded sensors", "sensors' part (against ideal signals)",
                       "this model, ideal signals", "true model, ideal signals (the method's floor)", "ratio", "level"},
                      {}};
    split.rows.push_back(
        {json_text(result.summary["physical_zmp_rms_mm"]), json_text(result.summary["sensors_zmp_rms_mm"]),
         json_text(result.summary["ideal_signals_physical_zmp_rms_mm"]),
         json_text(result.summary.value("true_model_ideal_signals_physical_zmp_rms_mm", nlohmann::json())),
         json_text(u["noise_ratio"]), u["level"].get<std::string>()});
    report.table(split);
  } else if (result.summary["ft_zmp_rms_mm"].is_number()) {
    report.paragraph("No truth stream to split the error with. The soles' F/T sensors measure the ZMP: the IZMP is " +
                     json_text(result.summary["ft_zmp_rms_mm"]) +
                     " mm RMS from it (plotted above); that distance holds the sensors' errors, the model's and the "
                     "F/T sensors' own.");
  } else {
    report.paragraph(
        "Nothing to compare with: the data set has no truth stream (the simulator's contact wrenches and ideal "
        "signals) and no F/T sensors under the soles (" +
        json_text(result.summary.value("ft_zmp_note", nlohmann::json())) + ").");
  }

  for (int axis = 0; axis < 2; ++axis) {
    const std::string name = axis == 0 ? "x" : "y";
    LinePlot plot{"IZMP " + name + " in the NIF", "time [s]", name + " [m]", {}};
    PlotSeries izmp{"IZMP (" + json_text(result.summary["method"]) + ")", {}, {}}, physical{"physical ZMP", {}, {}},
        ft{"F/T sensors' ZMP", {}, {}};
    PlotSeries lo{"stance soles " + name + " min", {}, {}}, hi{"stance soles " + name + " max", {}, {}};
    for (std::size_t i = 0; i < s.time.size(); ++i) {
      izmp.x.push_back(s.time[i]);
      izmp.y.push_back(s.izmp_nif[i][axis]);
      physical.x.push_back(s.time[i]);
      physical.y.push_back(s.physical_zmp_nif[i][axis]);
      ft.x.push_back(s.time[i]);
      ft.y.push_back(s.ft_zmp_nif[i][axis]);
      lo.x.push_back(s.time[i]);
      lo.y.push_back(s.support_box[i][2 * axis]);
      hi.x.push_back(s.time[i]);
      hi.y.push_back(s.support_box[i][2 * axis + 1]);
    }
    plot.series = {izmp, physical, lo, hi};
    if (result.summary["ft_zmp_rms_mm"].is_number()) plot.series.push_back(ft);
    report.plot(plot);
  }

  // About one gait cycle in the ground plane from the middle of the recording (1.2 s: two steps of
  // the bundled robots), the single-support samples and each stance sole at the middle of its phase.
  auto single = [&](std::size_t i) { return s.support[i] == Support::Left || s.support[i] == Support::Right; };
  std::size_t begin = s.time.size() / 2;
  while (begin < s.time.size() && !single(begin)) ++begin;
  std::size_t end = begin;
  while (end < s.time.size() && s.time[end] < s.time[begin] + 1.2) ++end;
  LinePlot plane{"IZMP in the ground plane, single support, 1.2 s from the middle (NIF)", "x [m]", "y [m]", {}};
  PlotSeries path{"IZMP", {}, {}}, physical{"physical ZMP", {}, {}};
  std::vector<PlotSeries> soles;
  for (std::size_t i = begin; i < end; ++i) {
    if (!single(i)) continue;
    path.x.push_back(s.izmp_nif[i].x());
    path.y.push_back(s.izmp_nif[i].y());
    physical.x.push_back(s.physical_zmp_nif[i].x());
    physical.y.push_back(s.physical_zmp_nif[i].y());
  }
  for (std::size_t i = begin; i < end;) {
    std::size_t j = i;
    while (j < end && s.support[j] == s.support[i]) ++j;
    // Phases longer than 0.1 s: contact chatter makes short ones at touch-down.
    const Eigen::Vector4d b = s.support_box[(i + j) / 2];
    if (single(i) && s.time[j - 1] - s.time[i] > 0.1 && b.allFinite())
      soles.push_back({std::string(to_string(s.support[i])) + " sole (stance)",
                       {b[0], b[1], b[1], b[0], b[0]},
                       {b[2], b[2], b[3], b[3], b[2]}});
    i = j;
  }
  path.points = physical.points = true;
  plane.series = {path};
  if (!physical.y.empty() && std::isfinite(physical.y.front())) plane.series.push_back(physical);
  for (const PlotSeries& sole : soles) plane.series.push_back(sole);
  if (!path.x.empty()) {
    report.paragraph(
        "The soles move in the NIF as the pelvis travels over them; each is drawn at the middle of its single-support "
        "phase. The inside_support column of izmp.csv tests every sample against the soles at that sample.");
    report.plot(plane);
  }
  return report.html();
}

}  // namespace dynid
