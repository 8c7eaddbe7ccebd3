// dataset.json whose values nest deeply (a list inside a list, 200,000 times) where dynid expects
// a word or a list of objects: one error naming the file, as for any other wrong value. Before,
// printing or copying the nested value recursed once per level and `dynid` died of a stack
// overflow (the Release build at 100,000 levels, the sanitizer build at 10,000).

#include "dynid/data/dataset_info.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "support/scratch_files.hpp"

namespace dynid {
namespace {

namespace fs = std::filesystem;

/// `levels` lists, each holding the next: [[[...]]].
std::string nested_lists(int levels) {
  return std::string(static_cast<std::size_t>(levels), '[') + std::string(static_cast<std::size_t>(levels), ']');
}

/// A data set directory whose dataset.json is `json` (with one empty stream file, a.csv).
std::string dataset_with(const std::string& name, const std::string& json) {
  const std::string dir = test::fresh_dir("dataset_info", name);
  fs::create_directories(dir);
  std::ofstream(dir + "/a.csv") << "time\n";
  std::ofstream(dir + "/dataset.json") << json;
  return dir;
}

/// The message of what read_dataset_info throws ("" when it returns).
std::string error_of(const std::string& dir) {
  try {
    read_dataset_info(dir);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

constexpr int kDeep = 200000;
const std::string kStream = R"("streams": {"a": {"file": "a.csv", "rate_hz": 100)";

TEST(DatasetInfo, DeeplyNestedValuesAreOneErrorNamingTheFile) {
  struct Case {
    const char* name;
    std::string json;
    const char* says;
  };
  const Case cases[] = {
      {"velocity", R"({"format": "dynid-dataset", "velocity": )" + nested_lists(kDeep) + "}",
       "'velocity' must be \"instant\" or \"period-before\", not a JSON array"},
      {"stamp", R"({"format": "dynid-dataset", )" + kStream + R"(, "stamp": )" + nested_lists(kDeep) + "}}}",
       "stream 'a': stamp must be \"instant\" or \"period-mean\", not a JSON array"},
      {"force_plates",
       R"({"format": "dynid-dataset", )" + kStream + R"(}}, "force_plates": )" + nested_lists(kDeep) + "}",
       "cannot use at() with array"},
      {"segments", R"({"format": "dynid-dataset", )" + kStream + R"(}}, "segments": )" + nested_lists(kDeep) + "}",
       "cannot use value() with array"},
  };
  for (const Case& c : cases) {
    const std::string dir = dataset_with(c.name, c.json);
    const std::string message = error_of(dir);
    EXPECT_EQ(message.rfind(dir + "/dataset.json: ", 0), 0u) << c.name << ": " << message.substr(0, 200);
    EXPECT_NE(message.find(c.says), std::string::npos) << c.name << ": " << message.substr(0, 200);
    EXPECT_EQ(message.find('\n'), std::string::npos) << c.name;
    EXPECT_LT(message.size(), 300u) << c.name;  // the kind of value, not its text
  }
}

// A stream whose file is the data set's directory (an empty name) is named as such, not read as a
// stream file without a header.
TEST(DatasetInfo, AStreamFileThatIsADirectoryIsNamed) {
  for (const char* file : {"", ".", "sub"}) {
    const std::string dir = dataset_with(
        std::string("directory_") + (*file ? file : "empty"),
        R"({"format": "dynid-dataset", "streams": {"a": {"file": ")" + std::string(file) + R"(", "rate_hz": 100}}})");
    fs::create_directories(dir + "/sub");
    const std::string message = error_of(dir);
    EXPECT_EQ(message.rfind(dir + "/dataset.json: stream 'a': ", 0), 0u) << message;
    EXPECT_NE(message.find(" is a directory, not a stream file"), std::string::npos) << message;
  }
}

// A value that does not nest is still quoted in the error, as it was written.
TEST(DatasetInfo, WrongWordsAreQuotedInTheError) {
  EXPECT_NE(error_of(dataset_with("velocity_number", R"({"format": "dynid-dataset", "velocity": 3})"))
                .find("must be \"instant\" or \"period-before\", not 3"),
            std::string::npos);
  EXPECT_NE(
      error_of(dataset_with("stamp_word", R"({"format": "dynid-dataset", )" + kStream + R"(, "stamp": "late"}}})"))
          .find("not \"late\""),
      std::string::npos);
}

}  // namespace
}  // namespace dynid
