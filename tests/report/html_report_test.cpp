// The HTML report: well-formed (parsed by tinyxml2 as XML), text escaped, plot coordinates where the
// axes say, decimation that keeps spikes, clear errors for inconsistent input.

#include <gtest/gtest.h>
#include <tinyxml2.h>

#include <cmath>
#include <filesystem>
#include <sstream>

#include "../support/scratch_files.hpp"
#include "dynid/report/html_report.hpp"

namespace {

using dynid::HtmlReport;

/// Every element with the given name, depth first.
void collect(const tinyxml2::XMLElement* e, const std::string& name, std::vector<const tinyxml2::XMLElement*>& out) {
  for (; e != nullptr; e = e->NextSiblingElement()) {
    if (name == e->Name()) out.push_back(e);
    collect(e->FirstChildElement(), name, out);
  }
}

std::vector<const tinyxml2::XMLElement*> elements(const tinyxml2::XMLDocument& doc, const std::string& name) {
  std::vector<const tinyxml2::XMLElement*> out;
  collect(doc.RootElement(), name, out);
  return out;
}

TEST(HtmlReport, IsWellFormedAndEscapesText) {
  HtmlReport report("Mass <identification> & more");
  report.heading("Section \"A\"");
  report.paragraph("a < b && c > d");
  report.table({"RMS", {"channel", "nominal", "identified"}, {{"Fz [N]", "98.1", "0.7"}, {"<Tx>", "1", "2"}}});
  report.plot(
      {"wrench", "time [s]", "force [N]", {{"measured", {0, 1, 2}, {1, 2, 3}}, {"model", {0, 1, 2}, {1, NAN, 3}}}});
  report.bars({"GCOM error", "mm", {"p1", "p2"}, {"nominal", "identified"}, {{5, 9}, {0.5, 0.4}}});
  tinyxml2::XMLDocument doc;
  ASSERT_EQ(doc.Parse(report.html().c_str()), tinyxml2::XML_SUCCESS) << doc.ErrorStr();
  EXPECT_STREQ(elements(doc, "h1").at(0)->GetText(), "Mass <identification> & more");
  EXPECT_STREQ(elements(doc, "p").at(0)->GetText(), "a < b && c > d");
  EXPECT_EQ(elements(doc, "tr").size(), 3u);
  EXPECT_STREQ(elements(doc, "td").at(3)->GetText(), "<Tx>");
  EXPECT_EQ(elements(doc, "svg").size(), 2u);
  // The NaN splits the model curve into two pieces: three polylines in all.
  EXPECT_EQ(elements(doc, "polyline").size(), 3u);
  // Four bars (2 categories x 2 groups) plus the legend swatches (2 + 2 for both plots).
  EXPECT_EQ(elements(doc, "rect").size(), 2u /*frames*/ + 4u /*bars*/ + 4u /*legend*/);
}

TEST(HtmlReport, PlotCoordinatesFollowTheAxes) {
  // y from 0 to 10 on ticks 0, 2, ..., 10: the point (x_min, 0) sits at the bottom-left corner of the
  // frame and (x_max, 10) at the top-right one.
  HtmlReport report("r");
  report.plot({"line", "x", "y", {{"s", {0.0, 5.0}, {0.0, 10.0}}}});
  tinyxml2::XMLDocument doc;
  ASSERT_EQ(doc.Parse(report.html().c_str()), tinyxml2::XML_SUCCESS);
  const auto* frame = elements(doc, "rect").at(0);
  const double x0 = frame->DoubleAttribute("x"), y0 = frame->DoubleAttribute("y");
  const double w = frame->DoubleAttribute("width"), h = frame->DoubleAttribute("height");
  std::istringstream points(elements(doc, "polyline").at(0)->Attribute("points"));
  double ax, ay, bx, by;
  char comma;
  points >> ax >> comma >> ay >> bx >> comma >> by;
  EXPECT_NEAR(ax, x0, 0.06);
  EXPECT_NEAR(ay, y0 + h, 0.06);
  EXPECT_NEAR(bx, x0 + w, 0.06);
  EXPECT_NEAR(by, y0, 0.06);
}

TEST(HtmlReport, ATimeGapBreaksTheLineAlsoAfterDecimation) {
  // Three held poses recorded 1 s each at 100 Hz with 1.5 s between them (as static poses are): the
  // line breaks at both gaps; 30,000 samples each are decimated, the gaps still break it; evenly
  // spaced samples and a single uneven step below 5 x the median stay one line.
  const auto poses = [](int per_pose) {
    dynid::PlotSeries s{"held poses", {}, {}};
    for (int p = 0; p < 3; ++p)
      for (int k = 0; k < per_pose; ++k) {
        s.x.push_back(2.5 * p + static_cast<double>(k) / per_pose);
        s.y.push_back(std::sin(0.01 * k + p));
      }
    return s;
  };
  for (const int per_pose : {100, 30000}) {
    HtmlReport report("r");
    report.plot({"poses", "time [s]", "y", {poses(per_pose)}});
    tinyxml2::XMLDocument doc;
    ASSERT_EQ(doc.Parse(report.html().c_str()), tinyxml2::XML_SUCCESS);
    EXPECT_EQ(elements(doc, "polyline").size(), 3u) << per_pose;
  }
  HtmlReport even("r");
  even.plot({"even", "x", "y", {{"s", {0.0, 1.0, 2.0, 3.0, 4.0, 8.0, 9.0}, {0, 1, 0, 1, 0, 1, 0}}}});
  tinyxml2::XMLDocument doc;
  ASSERT_EQ(doc.Parse(even.html().c_str()), tinyxml2::XML_SUCCESS);
  EXPECT_EQ(elements(doc, "polyline").size(), 1u);
  // A path in a plane: x goes back, so its jumps are the path's, drawn.
  HtmlReport path("r");
  path.plot({"path", "x [m]", "y [m]", {{"s", {0.0, 0.001, 0.002, 0.5, 0.501, 0.0}, {0, 0, 0, 1, 1, 0}}}});
  tinyxml2::XMLDocument path_doc;
  ASSERT_EQ(path_doc.Parse(path.html().c_str()), tinyxml2::XML_SUCCESS);
  EXPECT_EQ(elements(path_doc, "polyline").size(), 1u);
}

TEST(HtmlReport, DecimationKeepsSpikesAndOrder) {
  std::vector<double> y(100000, 0.0);
  y[12345] = 7.0;
  y[77777] = -3.0;
  const std::vector<std::size_t> keep = dynid::decimate_min_max(y, 500);
  EXPECT_LE(keep.size(), 4u * 500u);
  EXPECT_TRUE(std::is_sorted(keep.begin(), keep.end()));
  EXPECT_NE(std::find(keep.begin(), keep.end(), 12345u), keep.end());
  EXPECT_NE(std::find(keep.begin(), keep.end(), 77777u), keep.end());
  EXPECT_EQ(keep.front(), 0u);
  EXPECT_EQ(keep.back(), y.size() - 1);
  EXPECT_EQ(dynid::decimate_min_max(std::vector<double>(50, 1.0), 500).size(), 50u);
}

TEST(HtmlReport, NiceTicksAreRoundAndCoverTheRange) {
  // (2.9 + 0.37) / 6 = 0.545 per tick asked for: the next round step is 1.
  const std::vector<double> t = dynid::nice_ticks(-0.37, 2.9);
  ASSERT_EQ(t.size(), 3u);
  const double step = t[1] - t[0];
  EXPECT_NEAR(step, 1.0, 1e-12);
  EXPECT_NEAR(dynid::nice_ticks(0.0, 2.9)[1], 0.5, 1e-12);  // 0.48 per tick -> 0.5
  EXPECT_GE(t.front(), -0.37);
  EXPECT_LE(t.front() - step, -0.37);
  EXPECT_LE(t.back(), 2.9);
  EXPECT_GT(t.back() + step, 2.9);
}

TEST(HtmlReport, InconsistentInputIsRefused) {
  HtmlReport report("r");
  EXPECT_THROW(report.plot({"p", "x", "y", {{"s", {0, 1}, {0}}}}), std::invalid_argument);
  EXPECT_THROW(report.bars({"b", "y", {"c1", "c2"}, {"g"}, {{1.0}}}), std::invalid_argument);
  EXPECT_THROW(report.table({"t", {"a", "b"}, {{"1"}}}), std::invalid_argument);
}

TEST(HtmlReport, WritesTheFile) {
  const std::string dir = dynid::test::fresh_dir("html_report", "write");
  std::filesystem::create_directories(dir);
  HtmlReport report("written");
  report.paragraph("hello");
  report.write(dir + "/report.html");
  EXPECT_EQ(dynid::test::read_file(dir + "/report.html"), report.html());
}

}  // namespace
