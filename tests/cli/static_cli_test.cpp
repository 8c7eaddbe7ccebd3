// `dynid ik` and `dynid identify static` as scripts see them: files, JSON keys, one-line errors.

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "run_dynid.hpp"

namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

void expect_one_line_error(const Result& r, const std::string& fragment) {
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find(fragment), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

std::string scratch(const std::string& name) {
  const fs::path p = fs::temp_directory_path() / ("dynid_static_cli_" + std::to_string(::getpid())) / name;
  fs::remove_all(p);
  fs::create_directories(p.parent_path());
  return p.string();
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Eight noise-free static poses of the adult humanoid (a few seconds to simulate), shared by the tests.
const std::string& static_data() {
  static const std::string dir = [] {
    const std::string d = scratch("poses");
    const Result r = run("simulate adult_humanoid --scenario static-poses --poses 8 --noise none --seed 4 --out " + d);
    EXPECT_EQ(r.code, 0) << r.err;
    return d;
  }();
  return dir;
}

TEST(StaticCli, IkWritesOneConfigurationPerFrame) {
  const std::string out = scratch("q.csv");
  const Result r = run("ik adult_humanoid " + static_data() + " --out " + out);
  ASSERT_EQ(r.code, 0) << r.err;
  std::ifstream in(out);
  std::string header, line;
  std::getline(in, header);
  EXPECT_EQ(header.rfind("time,q.root_joint.px,", 0), 0u);
  EXPECT_NE(header.find(",q.l_knee,"), std::string::npos);
  EXPECT_NE(header.find(",marker_rms,marker_max,markers_used,iterations"), std::string::npos);
  long rows = 0;
  double worst_rms = 0.0;
  while (std::getline(in, line)) {
    ++rows;
    // marker_rms is the fourth field from the end.
    std::vector<std::string> fields;
    std::stringstream ss(line);
    for (std::string f; std::getline(ss, f, ',');) fields.push_back(f);
    worst_rms = std::max(worst_rms, std::stod(fields[fields.size() - 4]));
  }
  EXPECT_EQ(rows, 8 * 150);    // 1 s per pose at 150 Hz
  EXPECT_LT(worst_rms, 1e-6);  // noise-free markers: the model fits them
}

TEST(StaticCli, IdentifyStaticWritesSummaryUrdfAndReport) {
  const std::string out = scratch("ident");
  const Result r = run("identify static adult_humanoid " + static_data() + " --total-mass 77.6 --truth " +
                       static_data() + "/truth.urdf --out " + out);
  ASSERT_EQ(r.code, 0) << r.err;
  const json s = json::parse(slurp(out + "/summary.json"));
  EXPECT_EQ(s["poses"]["fit"].get<int>() + s["poses"]["heldout"].get<int>(), 8);
  EXPECT_EQ(s["poses"]["heldout"].get<int>(), 2);
  // The identified total mass is the --total-mass given (the fit's constraint), so it is not checked;
  // what the poses estimate is: every segment's mass within 6 % of the truth (measured at most
  // 5.1 %, the left hand) where CAD's are 11-17 % light, the COMs CAD misplaces by more than 10 mm
  // (pelvis, torso: 13 and 42 mm) within 75 % of CAD's error (measured 70 % and 41 %), and the
  // held-out poses' GCOM, closer than the CAD model's.
  for (const auto& seg : s["segments"]) {
    EXPECT_LT(std::abs(seg["mass_error_percent"].get<double>()), 6.0) << seg["name"];
    EXPECT_GT(std::abs(seg["mass_error_percent_nominal"].get<double>()), 10.0) << seg["name"];
    if (seg["com_error_mm_nominal"].get<double>() > 10.0) {
      EXPECT_LT(seg["com_error_mm"].get<double>(), 0.75 * seg["com_error_mm_nominal"].get<double>()) << seg["name"];
    }
  }
  EXPECT_LT(s["gcom_error_mm"]["identified"]["heldout"]["mean"].get<double>(),
            0.5 * s["gcom_error_mm"]["nominal"]["heldout"]["mean"].get<double>());
  for (const char* m : {"nominal", "identified"})
    for (const char* set : {"fit", "heldout"})
      for (const char* k : {"mean", "std", "max"})
        EXPECT_TRUE(s["gcom_error_mm"][m][set][k].is_number()) << m << set << k;
  EXPECT_LT(s["gcom_error_mm"]["identified"]["fit"]["mean"].get<double>(),
            s["gcom_error_mm"]["nominal"]["fit"]["mean"].get<double>());
  ASSERT_EQ(s["segments"].size(), 12u);
  for (const char* k :
       {"name", "mass_before", "mass_after", "com_before", "com_after", "mass_true", "mass_error_percent"})
    EXPECT_TRUE(s["segments"][0].contains(k)) << k;
  EXPECT_TRUE(fs::exists(out + "/adult_humanoid_identified.urdf"));
  EXPECT_NE(slurp(out + "/report.html").find("<svg"), std::string::npos);
}

TEST(StaticCli, ClearErrors) {
  expect_one_line_error(run("ik adult_humanoid /nonexistent/markers.csv --out " + scratch("x.csv")), "no such file");
  expect_one_line_error(run("identify static adult_humanoid /nonexistent --total-mass 70 --out " + scratch("o1")),
                        "no such data set");
  expect_one_line_error(
      run("identify static adult_humanoid " + static_data() + " --total-mass 5 --out " + scratch("o2")),
      "differs from the model's");
  expect_one_line_error(run("identify static adult_humanoid " + static_data() +
                            " --total-mass 77 --segments nothing --out " + scratch("o3")),
                        "no moving body or link named 'nothing'");
  // A truncated markers.csv.
  const std::string bad = scratch("bad.csv");
  std::ofstream(bad) << "time,LASI.x,LASI.y,LASI.z\n0.0,1,2\n";
  expect_one_line_error(run("ik adult_humanoid " + bad + " --out " + scratch("y.csv")), "bad.csv");
  // A model without markers.
  expect_one_line_error(run("ik walker " + static_data() + " --out " + scratch("z.csv")), "marker");
}

}  // namespace
