// A stream file with Windows line ends (CRLF, as a spreadsheet on Windows saves it) reads as the
// same file with LF ends, by the whole-file reader and the row reader alike: before, the whole-file
// reader took the CR for part of the last field and refused every row ("'2.5\r' is not a number").

#include "dynid/io/csv_stream.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "dynid/io/csv_row_reader.hpp"
#include "support/scratch_files.hpp"

namespace dynid {
namespace {

namespace fs = std::filesystem;

/// Writes the lines joined by `end` to `name` in a scratch directory; its path.
std::string write_lines(const std::string& name, const std::vector<std::string>& lines, const std::string& end) {
  const std::string dir = test::fresh_dir("csv_stream", "crlf");
  fs::create_directories(dir);
  std::ofstream out(dir + "/" + name, std::ios::binary);
  for (const std::string& l : lines) out << l << end;
  return dir + "/" + name;
}

TEST(CsvStream, WindowsLineEndsReadAsUnixOnes) {
  // The last field of the second row is empty: a missing sample, not "\r".
  const std::vector<std::string> lines = {"time,q.a,q.b", "0.00,1.5,2.5", "0.01,1.25,", "", "0.02,-1e-3,4"};
  const std::string lf = write_lines("lf.csv", lines, "\n");
  const CsvStream unix_file = read_csv_stream(lf);
  ASSERT_EQ(unix_file.header, (std::vector<std::string>{"time", "q.a", "q.b"}));
  ASSERT_EQ(unix_file.values.rows(), 3);
  EXPECT_EQ(unix_file.values(2, 1), -1e-3);
  EXPECT_TRUE(std::isnan(unix_file.values(1, 2)));

  const std::string crlf = write_lines("crlf.csv", lines, "\r\n");
  const CsvStream windows_file = read_csv_stream(crlf);
  EXPECT_EQ(windows_file.header, unix_file.header);
  ASSERT_EQ(windows_file.values.rows(), unix_file.values.rows());
  CsvRowReader rows(crlf);
  EXPECT_EQ(rows.header(), unix_file.header);
  std::vector<double> row;
  for (Eigen::Index r = 0; r < unix_file.values.rows(); ++r) {
    ASSERT_TRUE(rows.next(row));
    for (Eigen::Index c = 0; c < 3; ++c) {
      const double expected = unix_file.values(r, c);
      const auto same = [&](double x) { return std::isnan(expected) ? std::isnan(x) : x == expected; };
      EXPECT_TRUE(same(windows_file.values(r, c))) << "row " << r << ", column " << c;
      EXPECT_TRUE(same(row[static_cast<std::size_t>(c)])) << "row " << r << ", column " << c;
    }
  }
  EXPECT_FALSE(rows.next(row));
}

}  // namespace
}  // namespace dynid
