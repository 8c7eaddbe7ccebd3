#pragma once
// Self-contained HTML reports (`report.html` of the identification commands): headings, text,
// tables and plots drawn as inline SVG. No JavaScript, no fonts or scripts from the network: the
// file opens anywhere, also on a lab machine without internet, and can be mailed as it is.
//
// The page is well-formed XML (XHTML syntax), so tests and tools can parse it.

#include <string>
#include <vector>

namespace dynid {

/// One curve of a line plot. Non-finite y values break the line (a gap, e.g. a marker dropout), and
/// so does, along an x that never decreases, a step beyond 5 times the series' median step (a time
/// gap in the recording).
struct PlotSeries {
  std::string label;
  std::vector<double> x, y;
  bool points = false;  ///< draw markers instead of a line
};

struct LinePlot {
  std::string title, x_label, y_label;
  std::vector<PlotSeries> series;
};

/// Grouped bars: one group of bars per category (e.g. per pose: nominal and identified error).
struct BarPlot {
  std::string title, y_label;
  std::vector<std::string> categories;      ///< along the x axis
  std::vector<std::string> groups;          ///< one bar per group in each category
  std::vector<std::vector<double>> values;  ///< values[group][category]
};

struct ReportTable {
  std::string caption;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

class HtmlReport {
 public:
  explicit HtmlReport(std::string title);

  void heading(const std::string& text);    ///< section title
  void paragraph(const std::string& text);  ///< plain text (escaped)
  /// Throws std::invalid_argument when a row's width differs from the header's.
  void table(const ReportTable& table);
  /// Series longer than the page can show are decimated by keeping each bucket's minimum and maximum,
  /// so spikes stay visible. Throws std::invalid_argument when a series' x and y lengths differ.
  void plot(const LinePlot& plot);
  /// Throws std::invalid_argument when values are not groups x categories.
  void bars(const BarPlot& plot);

  std::string html() const;
  /// Writes the page atomically (a reader never sees half a report).
  void write(const std::string& path) const;

 private:
  std::string title_;
  std::string body_;
};

/// Tick positions for an axis over [lo, hi]: about `target` round values (1, 2, 5 x 10^k).
std::vector<double> nice_ticks(double lo, double hi, int target = 6);

/// Indices of the points kept when drawing `y` in `buckets` columns: per bucket the first, minimum,
/// maximum and last point, in order (all indices when y is short).
std::vector<std::size_t> decimate_min_max(const std::vector<double>& y, std::size_t buckets);

}  // namespace dynid
