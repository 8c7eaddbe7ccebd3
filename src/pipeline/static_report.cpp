// report.html of the static identification: paper 000 fig. 5 (GCOM error per pose, nominal vs
// identified) and fig. 6 (residual base wrench over the validation motion), with the numbers.

#include <utility>

#include "dynid/core/number_format.hpp"
#include "dynid/pipeline/static_pipeline.hpp"
#include "dynid/report/html_report.hpp"

namespace dynid {
namespace {

std::string fmt(double v, int decimals = 2) { return format_fixed(v, decimals); }

}  // namespace

std::string static_identification_report(const StaticPipelineResult& r, const Robot& robot) {
  HtmlReport page("Static identification of " + robot.model.name);
  const nlohmann::json& s = r.summary;
  if (s.contains("input_warnings"))
    for (const auto& w : s["input_warnings"]) page.paragraph("Input warning: " + w.get<std::string>() + ".");
  page.paragraph("Masses and centres of mass of the chosen segments from " + std::to_string(r.poses.size()) +
                 " static poses (paper 000): the measured centre of pressure of each settled pose is its ground-"
                 "projected COM (GCOM); the segments are fitted so the model's GCOM matches it, with the total "
                 "mass held at the weighed mass.");
  page.heading("GCOM error per pose");
  const double m = s["total_mass"]["measured"].get<double>();
  ReportTable t{"GCOM error [mm]: mean / std / max", {"model", "fit poses", "held-out poses"}, {}};
  for (const char* which : {"nominal", "identified"}) {
    std::vector<std::string> row{which};
    for (const char* set : {"fit", "heldout"}) {
      const auto& e = s["gcom_error_mm"][which][set];
      row.push_back(e["mean"].is_null() ? "-"
                                        : fmt(e["mean"].get<double>()) + " / " + fmt(e["std"].get<double>()) + " / " +
                                              fmt(e["max"].get<double>()));
    }
    t.rows.push_back(row);
  }
  page.table(t);
  LinePlot fig5{
      "Distance of the model GCOM to the measured COP per pose (paper 000 fig. 5)", "pose", "GCOM error [mm]", {}};
  PlotSeries nominal{"nominal", {}, {}, true}, identified{"identified", {}, {}, true},
      heldout{"identified, held-out poses", {}, {}, true};
  for (std::size_t n = 0; n < r.poses.size(); ++n) {
    nominal.x.push_back(static_cast<double>(n));
    nominal.y.push_back(1e3 * r.gcom_error_nominal[n]);
    PlotSeries& target = r.poses[n].heldout ? heldout : identified;
    target.x.push_back(static_cast<double>(n));
    target.y.push_back(1e3 * r.gcom_error_identified[n]);
  }
  fig5.series = {nominal, identified, heldout};
  page.plot(fig5);

  if (r.gcom_noise_m > 0.0) {
    page.heading("What the model leaves unexplained");
    page.paragraph(r.unexplained.explanation + " The ratio is " + r.unexplained.basis + ": " +
                   fmt(1e3 * r.gcom_noise_m, 3) + " mm of noise in a pose's mean.");
    ReportTable ratio{"Fitted poses' GCOM residual in units of the noise of their means",
                      {"residual / noise", "at the noise", "above it", "far above it"},
                      {}};
    ratio.rows.push_back({fmt(r.unexplained.noise_ratio), "<= " + fmt(kResidualAtNoise, 1),
                          "<= " + fmt(kResidualFarAbove, 1), "> " + fmt(kResidualFarAbove, 1)});
    page.table(ratio);
  }
  page.heading("Segments");
  page.paragraph("Total mass: measured " + fmt(m, 3) + " kg, nominal " +
                 fmt(s["total_mass"]["nominal"].get<double>(), 3) + " kg, identified " +
                 fmt(s["total_mass"]["identified"].get<double>(), 3) + " kg.");
  ReportTable segs{"Segment masses [kg] and COMs [mm, body frame]",
                   {"segment", "mass before", "mass after", "COM before", "COM after"},
                   {}};
  const bool truth = s.contains("truth");
  if (truth) segs.header.insert(segs.header.end(), {"true mass", "mass error [%]", "COM error [mm]"});
  for (const auto& e : s["segments"]) {
    auto com = [](const nlohmann::json& c) {
      return fmt(1e3 * c[0].get<double>(), 1) + ", " + fmt(1e3 * c[1].get<double>(), 1) + ", " +
             fmt(1e3 * c[2].get<double>(), 1);
    };
    std::vector<std::string> row{e["name"].get<std::string>(), fmt(e["mass_before"].get<double>(), 3),
                                 fmt(e["mass_after"].get<double>(), 3), com(e["com_before"]), com(e["com_after"])};
    if (truth)
      row.insert(row.end(), {fmt(e["mass_true"].get<double>(), 3), fmt(e["mass_error_percent"].get<double>(), 1),
                             fmt(e["com_error_mm"].get<double>(), 1)});
    segs.rows.push_back(row);
  }
  page.table(segs);
  const auto& obs = s["observability"];
  std::string unobs;
  for (const auto& n : obs["unobservable"]) unobs += (unobs.empty() ? "" : ", ") + n.get<std::string>();
  page.paragraph(
      "The poses determine " + std::to_string(obs["observable_combinations"].get<int>()) + " of the " +
      std::to_string(obs["parameters"].get<int>() - 1) +
      " free combinations of the parameters (one is fixed by the total mass). Not observable from these poses "
      "(the prior around the mass-scaled model decides them): " +
      (unobs.empty() ? std::string("none") : unobs) + ".");

  for (const std::string& w : r.warnings) page.paragraph("Warning: " + w + ".");
  if (r.plate_zero) {
    page.heading("Force-plate zero (from the windows where a plate carries no foot)");
    page.paragraph(
        "A plate carrying less than " + fmt(r.plate_zero->options.unloaded_below_n, 0) + " N for at least " +
        fmt(r.plate_zero->options.min_window_s, 1) +
        " s reads its own zero; a line through those readings is each channel's offset and drift, removed from "
        "every sample before the poses, the crosstalk and the validation read the plates.");
    ReportTable zeros{"Zero per plate (offset at the recording's start; drift per minute)",
                      {"recording", "plate", "windows", "unloaded [s]", "Fx, Fy, Fz [N]", "Tx, Ty, Tz [N m]",
                       "Fz drift [N/min]", "Tx, Ty drift [N m/min]"},
                      {}};
    auto rows = [&](const char* recording, const PlateZeroing& zero) {
      for (const PlateZero& z : zero.plates) {
        if (z.windows == 0) {
          zeros.rows.push_back({recording, z.plate, "0", "0", "left as recorded", "", "", ""});
          continue;
        }
        const Vector6 d = 60.0 * z.drift_per_s;
        zeros.rows.push_back({recording, z.plate, std::to_string(z.windows), fmt(z.unloaded_s, 1),
                              fmt(z.offset[0], 2) + ", " + fmt(z.offset[1], 2) + ", " + fmt(z.offset[2], 2),
                              fmt(z.offset[3], 3) + ", " + fmt(z.offset[4], 3) + ", " + fmt(z.offset[5], 3),
                              z.drift_estimated ? fmt(d[2], 3) : "not estimated",
                              z.drift_estimated ? fmt(d[3], 4) + ", " + fmt(d[4], 4) : "not estimated"});
      }
    };
    rows("poses", *r.plate_zero);
    if (r.validation_plate_zero) rows("validation", *r.validation_plate_zero);
    page.table(zeros);
  }
  if (r.plate_calibration) {
    const PlateCrosstalkCalibration& c = *r.plate_calibration;
    page.heading("Force-plate crosstalk (calibrated from the poses)");
    page.paragraph(
        "Standing still, the ground's horizontal force on the robot sums to zero over the plates; what the "
        "plates' horizontal channels read summed over the " +
        std::to_string(c.poses) + " poses, " + fmt(c.rms_before_n.x()) + " / " + fmt(c.rms_before_n.y()) +
        " N RMS (x / y), is their crosstalk from the vertical force, " + fmt(c.rms_after_n.x()) + " / " +
        fmt(c.rms_after_n.y()) + " N once removed. " +
        (c.per_plate ? "The poses shift the weight between the plates, so each plate has its own value."
                     : "The poses never shift the weight between the plates: one value for every plate.") +
        " It is removed from the poses' and the validation motion's plates.");
    ReportTable per_plate{
        "Horizontal force read per newton of vertical force", {"plate", "f_x / f_z", "f_y / f_z"}, {}};
    for (std::size_t p = 0; p < c.plates.size(); ++p)
      per_plate.rows.push_back({c.plates[p], fmt(c.crosstalk[p].x(), 5), fmt(c.crosstalk[p].y(), 5)});
    page.table(per_plate);
  }
  if (r.validated) {
    page.heading("Residual base wrench on the validation motion");
    if (r.plate_clock)
      page.paragraph(r.plate_clock->warning.empty()
                         ? "The plates run on their own clock: read on the markers', " +
                               fmt(1e3 * r.plate_clock->clock.offset_s, 1) + " ms off (" + r.plate_clock->compared +
                               ", correlation " + fmt(r.plate_clock->correlation, 3) + ")."
                         : "The plates' clock was not aligned to the markers': " + r.plate_clock->warning + ".");
    static const char* const kAxes[6] = {"Tx [N m]", "Ty [N m]", "Tz [N m]", "Fx [N]", "Fy [N]", "Fz [N]"};
    ReportTable w{"Mean [std] of the absolute residual base wrench (paper 000 Table 1)", {"model"}, {}};
    for (const char* a : kAxes) w.header.push_back(a);
    // With --truth also the true model's row: the floor the pipeline leaves with the right model.
    const std::pair<const char*, const ResidualWrench*> models[] = {
        {"nominal", &r.residual_nominal},
        {"identified", &r.residual_identified},
        {"true model (floor)", r.validated_truth ? &r.residual_truth : nullptr}};
    for (const auto& [name, res] : models) {
      if (!res) continue;
      std::vector<std::string> row{name};
      for (int k = 0; k < 6; ++k) row.push_back(fmt(res->mean_abs[k]) + " [" + fmt(res->std_abs[k]) + "]");
      w.rows.push_back(row);
    }
    page.table(w);
    for (int k = 0; k < 6; ++k) {
      LinePlot p{std::string("Residual ") + kAxes[k] + " (paper 000 fig. 6)", "time [s]", kAxes[k], {}};
      for (const auto* res : {&r.residual_nominal, &r.residual_identified}) {
        PlotSeries series{res == &r.residual_nominal ? "nominal" : "identified", res->time, {}, false};
        for (Eigen::Index i = 0; i < res->values.cols(); ++i) series.y.push_back(res->values(k, i));
        p.series.push_back(series);
      }
      page.plot(p);
    }
  }
  return page.html();
}

}  // namespace dynid
