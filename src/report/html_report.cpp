#include "dynid/report/html_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "dynid/core/atomic_file.hpp"
#include "dynid/core/number_format.hpp"
#include "dynid/core/xml_escape.hpp"

namespace dynid {

namespace {

// Plot geometry [px]: the drawing area is inset by the margins for ticks and labels.
constexpr double kWidth = 760.0, kHeight = 300.0;
constexpr double kLeft = 70.0, kRight = 150.0, kTop = 30.0, kBottom = 45.0;
constexpr double kPlotW = kWidth - kLeft - kRight, kPlotH = kHeight - kTop - kBottom;
constexpr std::size_t kMaxBuckets = 700;  // about one column per pixel

// Okabe-Ito: distinguishable with the common colour-vision deficiencies.
const char* const kPalette[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"};

const char* colour(std::size_t i) { return kPalette[i % (sizeof(kPalette) / sizeof(kPalette[0]))]; }

std::string px(double v) { return format_fixed(v, 1); }

/// Short tick label: enough digits to tell neighbouring ticks apart.
std::string tick_label(double v, double step) {
  if (std::abs(v) < 1e-12 * std::max(1.0, step)) v = 0.0;
  char buf[32];
  const double mag = std::max(std::abs(v), step);
  if (mag >= 1e5 || mag < 1e-3)
    std::snprintf(buf, sizeof buf, "%.2g", v);
  else {
    const int decimals = std::max(0, static_cast<int>(std::ceil(-std::log10(step) - 1e-9)));
    std::snprintf(buf, sizeof buf, "%.*f", std::min(decimals, 6), v);
  }
  return buf;
}

struct Range {
  double lo = std::numeric_limits<double>::infinity(), hi = -std::numeric_limits<double>::infinity();
  void add(double v) {
    if (!std::isfinite(v)) return;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  /// A drawable range: empty -> [0, 1], a single value -> widened around it.
  void finish() {
    if (!(lo <= hi)) lo = 0.0, hi = 1.0;
    if (hi - lo <= 1e-12 * std::max(1.0, std::abs(hi))) {
      const double pad = std::max(1e-9, 0.05 * std::abs(hi));
      lo -= pad;
      hi += pad;
    }
  }
};

std::string svg_open(const std::string& title) {
  return "<figure><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + px(kWidth) + "\" height=\"" + px(kHeight) +
         "\" viewBox=\"0 0 " + px(kWidth) + " " + px(kHeight) + "\" role=\"img\"><title>" + xml_escape(title) +
         "</title><text x=\"" + px(kLeft + kPlotW / 2) + "\" y=\"18\" text-anchor=\"middle\" class=\"t\">" +
         xml_escape(title) + "</text>";
}

/// Frame, y ticks with grid lines and the y label.
std::string y_axis(const Range& y, const std::vector<double>& ticks, const std::string& label) {
  std::string s = "<rect x=\"" + px(kLeft) + "\" y=\"" + px(kTop) + "\" width=\"" + px(kPlotW) + "\" height=\"" +
                  px(kPlotH) + "\" class=\"frame\"/>";
  const double step = ticks.size() > 1 ? ticks[1] - ticks[0] : 1.0;
  for (double t : ticks) {
    const double py = kTop + kPlotH * (y.hi - t) / (y.hi - y.lo);
    s += "<line x1=\"" + px(kLeft) + "\" x2=\"" + px(kLeft + kPlotW) + "\" y1=\"" + px(py) + "\" y2=\"" + px(py) +
         "\" class=\"grid\"/><text x=\"" + px(kLeft - 6) + "\" y=\"" + px(py + 4) + "\" text-anchor=\"end\">" +
         tick_label(t, step) + "</text>";
  }
  s += "<text transform=\"translate(16 " + px(kTop + kPlotH / 2) + ") rotate(-90)\" text-anchor=\"middle\">" +
       xml_escape(label) + "</text>";
  return s;
}

std::string legend(const std::vector<std::string>& labels) {
  std::string s;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    const double ly = kTop + 8 + 18.0 * static_cast<double>(i);
    s += "<rect x=\"" + px(kLeft + kPlotW + 12) + "\" y=\"" + px(ly - 6) + "\" width=\"14\" height=\"4\" fill=\"" +
         colour(i) + "\"/><text x=\"" + px(kLeft + kPlotW + 32) + "\" y=\"" + px(ly) + "\">" + xml_escape(labels[i]) +
         "</text>";
  }
  return s;
}

}  // namespace

std::vector<double> nice_ticks(double lo, double hi, int target) {
  if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi)) return {lo};
  const double raw = (hi - lo) / std::max(1, target);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * mag >= raw) {
      step = m * mag;
      break;
    }
  std::vector<double> ticks;
  for (double t = std::ceil(lo / step - 1e-9) * step; t <= hi + 1e-9 * step; t += step) ticks.push_back(t);
  return ticks;
}

std::vector<std::size_t> decimate_min_max(const std::vector<double>& y, std::size_t buckets) {
  std::vector<std::size_t> keep;
  if (buckets == 0 || y.size() <= 4 * buckets) {
    for (std::size_t i = 0; i < y.size(); ++i) keep.push_back(i);
    return keep;
  }
  for (std::size_t b = 0; b < buckets; ++b) {
    const std::size_t first = b * y.size() / buckets, last = (b + 1) * y.size() / buckets - 1;
    std::size_t lo = first, hi = first;
    for (std::size_t i = first; i <= last; ++i) {
      if (!std::isfinite(y[i])) continue;
      if (!std::isfinite(y[lo]) || y[i] < y[lo]) lo = i;
      if (!std::isfinite(y[hi]) || y[i] > y[hi]) hi = i;
    }
    std::vector<std::size_t> bucket = {first, lo, hi, last};
    // A gap (non-finite value) inside the bucket must survive so the line breaks there.
    for (std::size_t i = first; i <= last; ++i)
      if (!std::isfinite(y[i])) {
        bucket.push_back(i);
        break;
      }
    std::sort(bucket.begin(), bucket.end());
    bucket.erase(std::unique(bucket.begin(), bucket.end()), bucket.end());
    keep.insert(keep.end(), bucket.begin(), bucket.end());
  }
  return keep;
}

HtmlReport::HtmlReport(std::string title) : title_(std::move(title)) {}

void HtmlReport::heading(const std::string& text) { body_ += "<h2>" + xml_escape(text) + "</h2>\n"; }

void HtmlReport::paragraph(const std::string& text) { body_ += "<p>" + xml_escape(text) + "</p>\n"; }

void HtmlReport::table(const ReportTable& table) {
  std::string s = "<table>";
  if (!table.caption.empty()) s += "<caption>" + xml_escape(table.caption) + "</caption>";
  s += "<tr>";
  for (const std::string& h : table.header) s += "<th>" + xml_escape(h) + "</th>";
  s += "</tr>";
  for (const auto& row : table.rows) {
    if (!table.header.empty() && row.size() != table.header.size())
      throw std::invalid_argument("report table '" + table.caption + "': a row has " + std::to_string(row.size()) +
                                  " cells for " + std::to_string(table.header.size()) + " columns");
    s += "<tr>";
    for (const std::string& cell : row) s += "<td>" + xml_escape(cell) + "</td>";
    s += "</tr>";
  }
  body_ += s + "</table>\n";
}

void HtmlReport::plot(const LinePlot& plot) {
  Range x, y;
  for (const PlotSeries& series : plot.series) {
    if (series.x.size() != series.y.size())
      throw std::invalid_argument("plot '" + plot.title + "', series '" + series.label +
                                  "': " + std::to_string(series.x.size()) + " x values for " +
                                  std::to_string(series.y.size()) + " y values");
    for (std::size_t i = 0; i < series.x.size(); ++i)
      if (std::isfinite(series.y[i])) {
        x.add(series.x[i]);
        y.add(series.y[i]);
      }
  }
  x.finish();
  y.finish();
  const std::vector<double> xticks = nice_ticks(x.lo, x.hi), yticks = nice_ticks(y.lo, y.hi);
  std::string s = svg_open(plot.title) + y_axis(y, yticks, plot.y_label);
  const double xstep = xticks.size() > 1 ? xticks[1] - xticks[0] : 1.0;
  for (double t : xticks) {
    const double pxx = kLeft + kPlotW * (t - x.lo) / (x.hi - x.lo);
    s += "<line x1=\"" + px(pxx) + "\" x2=\"" + px(pxx) + "\" y1=\"" + px(kTop) + "\" y2=\"" + px(kTop + kPlotH) +
         "\" class=\"grid\"/><text x=\"" + px(pxx) + "\" y=\"" + px(kTop + kPlotH + 16) + "\" text-anchor=\"middle\">" +
         tick_label(t, xstep) + "</text>";
  }
  s += "<text x=\"" + px(kLeft + kPlotW / 2) + "\" y=\"" + px(kHeight - 6) + "\" text-anchor=\"middle\">" +
       xml_escape(plot.x_label) + "</text>";
  std::vector<std::string> labels;
  for (std::size_t k = 0; k < plot.series.size(); ++k) {
    const PlotSeries& series = plot.series[k];
    labels.push_back(series.label);
    const auto to_x = [&](double v) { return kLeft + kPlotW * (v - x.lo) / (x.hi - x.lo); };
    const auto to_y = [&](double v) { return kTop + kPlotH * (y.hi - v) / (y.hi - y.lo); };
    const std::vector<std::size_t> keep = decimate_min_max(series.y, series.points ? 0 : kMaxBuckets);
    if (series.points) {
      for (std::size_t i : keep)
        if (std::isfinite(series.y[i]) && std::isfinite(series.x[i]))
          s += "<circle cx=\"" + px(to_x(series.x[i])) + "\" cy=\"" + px(to_y(series.y[i])) + "\" r=\"2.5\" fill=\"" +
               colour(k) + "\"/>";
      continue;
    }
    std::string points;
    const auto flush = [&] {
      if (!points.empty())
        s += "<polyline fill=\"none\" stroke=\"" + std::string(colour(k)) + "\" stroke-width=\"1.3\" points=\"" +
             points + "\"/>";
      points.clear();
    };
    // Along a time-like x (never decreasing), a step beyond 5 times the series' median step is a gap
    // in the recording (static poses recorded only while held, a log's dropout): the line breaks
    // there rather than bridge it. A path in a plane (x going back and forth) is drawn whole.
    std::vector<std::size_t> gaps_through(series.x.size(), 0);  // gaps between samples 0 .. i
    if (series.x.size() > 2 && std::is_sorted(series.x.begin(), series.x.end())) {
      std::vector<double> steps;
      for (std::size_t i = 1; i < series.x.size(); ++i) steps.push_back(std::abs(series.x[i] - series.x[i - 1]));
      std::nth_element(steps.begin(), steps.begin() + static_cast<long>(steps.size() / 2), steps.end());
      const double limit = 5.0 * steps[steps.size() / 2];
      for (std::size_t i = 1; i < series.x.size(); ++i)
        gaps_through[i] = gaps_through[i - 1] + (limit > 0.0 && std::abs(series.x[i] - series.x[i - 1]) > limit);
    }
    std::size_t previous = 0;
    for (std::size_t i : keep) {
      if (!std::isfinite(series.y[i]) || !std::isfinite(series.x[i])) {
        flush();
        continue;
      }
      if (!points.empty() && gaps_through[i] != gaps_through[previous]) flush();
      points += (points.empty() ? "" : " ") + px(to_x(series.x[i])) + "," + px(to_y(series.y[i]));
      previous = i;
    }
    flush();
  }
  body_ += s + legend(labels) + "</svg></figure>\n";
}

void HtmlReport::bars(const BarPlot& plot) {
  if (plot.values.size() != plot.groups.size())
    throw std::invalid_argument("bar plot '" + plot.title + "': " + std::to_string(plot.values.size()) +
                                " value rows for " + std::to_string(plot.groups.size()) + " groups");
  Range y;
  y.add(0.0);  // bars grow from zero
  for (const auto& row : plot.values) {
    if (row.size() != plot.categories.size())
      throw std::invalid_argument("bar plot '" + plot.title + "': a group has " + std::to_string(row.size()) +
                                  " values for " + std::to_string(plot.categories.size()) + " categories");
    for (double v : row) y.add(v);
  }
  y.finish();
  const std::vector<double> yticks = nice_ticks(y.lo, y.hi);
  std::string s = svg_open(plot.title) + y_axis(y, yticks, plot.y_label);
  const double n = std::max<double>(1.0, static_cast<double>(plot.categories.size()));
  const double slot = kPlotW / n, bar = 0.8 * slot / std::max<double>(1.0, static_cast<double>(plot.groups.size()));
  const auto to_y = [&](double v) { return kTop + kPlotH * (y.hi - v) / (y.hi - y.lo); };
  // Label at most ~25 categories so the labels stay readable.
  const std::size_t every =
      std::max<std::size_t>(1, plot.categories.size() / 25 + (plot.categories.size() % 25 ? 1 : 0));
  for (std::size_t c = 0; c < plot.categories.size(); ++c) {
    const double x0 = kLeft + slot * static_cast<double>(c) + 0.1 * slot;
    for (std::size_t g = 0; g < plot.groups.size(); ++g) {
      const double v = plot.values[g][c];
      if (!std::isfinite(v)) continue;
      const double top = to_y(std::max(v, 0.0)), bottom = to_y(std::min(v, 0.0));
      s += "<rect x=\"" + px(x0 + bar * static_cast<double>(g)) + "\" y=\"" + px(top) + "\" width=\"" +
           px(std::max(bar, 0.5)) + "\" height=\"" + px(std::max(bottom - top, 0.3)) + "\" fill=\"" + colour(g) +
           "\"><title>" + xml_escape(plot.categories[c] + ", " + plot.groups[g] + ": " + tick_label(v, 1e-4)) +
           "</title></rect>";
    }
    if (c % every == 0)
      s += "<text x=\"" + px(x0 + 0.4 * slot) + "\" y=\"" + px(kTop + kPlotH + 16) + "\" text-anchor=\"middle\">" +
           xml_escape(plot.categories[c]) + "</text>";
  }
  body_ += s + legend(plot.groups) + "</svg></figure>\n";
}

std::string HtmlReport::html() const {
  return "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head><meta "
         "charset=\"utf-8\"/><title>" +
         xml_escape(title_) +
         "</title>\n<style>body{font-family:sans-serif;max-width:60em;margin:2em auto;color:#222}"
         "table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #bbb;padding:.25em .6em;"
         "text-align:right}th{background:#eee}caption{font-weight:bold;text-align:left;padding:.3em 0}"
         "svg text{font-size:12px;fill:#222}svg .t{font-size:14px;font-weight:bold}"
         ".frame{fill:none;stroke:#444}.grid{stroke:#ddd}figure{margin:1em 0}</style></head>\n<body>\n<h1>" +
         xml_escape(title_) + "</h1>\n" + body_ + "</body>\n</html>\n";
}

void HtmlReport::write(const std::string& path) const { write_file_atomically(path, html()); }

}  // namespace dynid
