// Damaged C3D files give a std::runtime_error naming the file and the problem, never a crash:
// specific damage, then every truncation and many single-byte corruptions of a valid file.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "dynid/core/number_format.hpp"
#include "dynid/mocap/c3d_reader.hpp"
#include "dynid/mocap/c3d_writer.hpp"
#include "mocap/mocap_fixtures.hpp"

namespace dynid {
namespace {

using testing::synthetic_c3d;
using testing::SyntheticC3d;

// Reads as dynid mocap inspect does: the file, the SI view, every plate's wrenches.
void read_everything(const std::string& bytes) {
  const MocapRecording rec = recording_from_c3d(parse_c3d(bytes, "fuzz.c3d"), "fuzz.c3d");
  for (const ForcePlate& plate : rec.force_plates) ground_reaction_series(plate, rec.analogs);
}

void expect_error(const std::string& bytes, const std::string& fragment) {
  try {
    read_everything(bytes);
    FAIL() << "expected an error with '" << fragment << "'";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("fuzz.c3d: ", 0), 0u) << e.what();
  }
}

void put_i16(std::string& bytes, std::size_t at, int value) {
  bytes[at] = static_cast<char>(value & 0xFF);
  bytes[at + 1] = static_cast<char>((value >> 8) & 0xFF);
}

std::size_t find_name(const std::string& bytes, const std::string& name) {
  const std::size_t at = bytes.find(name);
  EXPECT_NE(at, std::string::npos) << name;
  return at;
}

TEST(C3dMalformed, SpecificDamage) {
  const std::string good = c3d_bytes(synthetic_c3d(C3dProcessor::Intel, false).file);
  expect_error(good.substr(0, 100), "truncated");
  // Cut inside the data: the whole frames present are read, with a warning (c3d_spec_bytes_test.cpp);
  // cut where the data start: nothing to read.
  const C3dFile cut = parse_c3d(good.substr(0, good.size() - 600), "fuzz.c3d");
  EXPECT_LT(cut.frame_count(), parse_c3d(good, "fuzz.c3d").frame_count());
  ASSERT_FALSE(cut.warnings.empty());
  EXPECT_NE(cut.warnings.back().find("(the data present)"), std::string::npos) << cut.warnings.back();
  const std::size_t data_block =
      static_cast<std::uint8_t>(good[16]) + 256u * static_cast<std::uint8_t>(good[17]);  // header word 9, Intel
  const std::size_t data_start = (data_block - 1) * 512;
  expect_error(good.substr(0, data_start), "truncated");

  std::string not_c3d = good;
  not_c3d[1] = 'x';
  expect_error(not_c3d, "not a C3D file");

  std::string processor = good;
  processor[512 + 3] = 99;
  expect_error(processor, "unknown processor type 99");

  std::string param_pointer = good;
  param_pointer[0] = 100;
  expect_error(param_pointer, "bad parameter pointer");

  // The pointer after POINT:SCALE's name sent far past the section.
  std::string next = good;
  put_i16(next, find_name(next, "SCALE") + 5, 30000);
  expect_error(next, "bad parameter pointer");

  std::string bad_type = good;
  bad_type[find_name(bad_type, "SCALE") + 7] = 3;
  expect_error(bad_type, "type 3");

  // The header's last frame past the data while POINT:FRAMES and the data agree: the parameters
  // win, with a warning (c3d_spec_bytes_test.cpp builds the field's cases byte by byte).
  std::string frames = good;
  put_i16(frames, 8, 200);
  const C3dFile read = parse_c3d(frames, "fuzz.c3d");
  EXPECT_EQ(read.frame_count(), parse_c3d(good, "fuzz.c3d").frame_count());
  ASSERT_FALSE(read.warnings.empty());
  EXPECT_NE(read.warnings.back().find("POINT:FRAMES"), std::string::npos) << read.warnings.back();

  // Unknown plate type (TYPE is Int16 [4]: 2 3 4 1).
  std::string plate = good;
  put_i16(plate, find_name(plate, "TYPE") + 9, 9);  // name, pointer, type, 1 dimension, 4
  expect_error(plate, "force plate 1: TYPE 9 is not supported");

  // A plate channel beyond the analog channels.
  std::string channel = good;
  put_i16(channel, find_name(channel, "CHANNEL") + 13, 99);  // name, pointer, type, 2 dimensions
  expect_error(channel, "CHANNEL names analog channel 99");

  // A NaN rate.
  C3dFile nan_rate = synthetic_c3d(C3dProcessor::Intel, true).file;
  std::string bytes = c3d_bytes(nan_rate);
  const std::size_t rate = bytes.find("RATE");
  const float nan = std::nanf("");
  std::memcpy(&bytes[rate + 4 + 4], &nan, 4);
  expect_error(bytes, "POINT:RATE is nan");
}

TEST(C3dMalformed, AnAnalogRateOffThePointRateTimesTheSamplesPerFrameIsNamed) {
  // ANALOG:RATE ten times the point rate x the samples per frame: the two streams would span
  // different times.
  SyntheticC3d bad = synthetic_c3d(C3dProcessor::Intel, true);
  const C3dFile good_file = parse_c3d(c3d_bytes(bad.file), "fuzz.c3d");
  for (const std::string& w : recording_from_c3d(good_file, "fuzz.c3d").warnings)
    EXPECT_EQ(w.find("ANALOG:RATE"), std::string::npos) << w;
  const double spf = static_cast<double>(good_file.analog_samples_per_frame());
  bad.file.parameters.set_number("ANALOG", "RATE", C3dType::Float, 1000.0 * spf);  // the point rate is 100 Hz
  const C3dFile file = parse_c3d(c3d_bytes(bad.file), "fuzz.c3d");
  const MocapRecording rec = recording_from_c3d(file, "fuzz.c3d");
  EXPECT_EQ(rec.analog_rate, 1000.0 * spf);
  const auto w = std::find_if(rec.warnings.begin(), rec.warnings.end(),
                              [](const std::string& x) { return x.starts_with("ANALOG:RATE"); });
  ASSERT_NE(w, rec.warnings.end());
  const double frames = static_cast<double>(file.frame_count());
  EXPECT_EQ(*w, "ANALOG:RATE is " + format_exact(1000.0 * spf) + " Hz, not the point rate 100 Hz x " +
                    format_exact(spf) +
                    " analog samples per frame; the analog samples are timed by "
                    "ANALOG:RATE, so they span " +
                    format_exact(frames / 1000.0) + " s and the frames " + format_exact(frames / 100.0) + " s");
}

TEST(C3dMalformed, NonFiniteFloatSamplesAreNamedAndAValidPointWithoutCoordinatesIsMissing) {
  SyntheticC3d synthetic = synthetic_c3d(C3dProcessor::Intel, true);
  C3dFile& f = synthetic.file;
  ASSERT_GT(f.analogs.size(), 0);
  ASSERT_GE(f.point_info(2, 1), 0.0);  // valid in the synthetic file
  f.analogs(4, 1) = std::numeric_limits<double>::infinity();
  f.analogs(9, 1) = std::nan("");
  std::string bytes = c3d_bytes(f);
  // Point 2's y at frame 3 made NaN in the stored bytes, its residual left valid (a writer would
  // mark such a point missing; a damaged or careless one does not). Float storage, Intel order:
  // frames of (4 words per point + the analog values) 4-byte floats from the header's data block.
  const auto u16 = [&](std::size_t at) {
    return static_cast<std::size_t>(static_cast<unsigned char>(bytes[at]) | static_cast<unsigned char>(bytes[at + 1])
                                                                                << 8);
  };
  const std::size_t frame_bytes = (4 * u16(2) + u16(4)) * 4, data = (u16(16) - 1) * 512;
  const float nan = std::nanf("");
  std::memcpy(&bytes[data + 2 * frame_bytes + (4 * 1 + 1) * 4], &nan, 4);
  const C3dFile read = parse_c3d(bytes, "nan.c3d");
  EXPECT_LT(read.point_info(2, 1), 0.0);  // read as missing
  const auto said = [&](const std::string& text) {
    return std::any_of(read.warnings.begin(), read.warnings.end(),
                       [&](const std::string& w) { return w.find(text) != std::string::npos; });
  };
  EXPECT_TRUE(said("1 point samples marked valid hold coordinates that are not finite (the first: point 2, frame 3)"));
  EXPECT_TRUE(said("2 analog samples are not finite (the first: channel 2, sample 5)"));
  EXPECT_TRUE(parse_c3d(c3d_bytes(synthetic_c3d(C3dProcessor::Intel, true).file), "ok.c3d").warnings.empty());
}

TEST(C3dMalformed, EveryTruncationIsAnErrorNotACrash) {
  for (const bool float_storage : {false, true}) {
    const std::string good = c3d_bytes(synthetic_c3d(C3dProcessor::Dec, float_storage).file);
    for (std::size_t n = 0; n < good.size(); n += (n < 4096 ? 1 : 61)) {
      try {
        read_everything(good.substr(0, n));
      } catch (const std::runtime_error&) {
      }
    }
  }
}

TEST(C3dMalformed, CorruptedBytesAreErrorsNotCrashes) {
  const std::string good = c3d_bytes(synthetic_c3d(C3dProcessor::Intel, false).file);
  int errors = 0, reads = 0;
  for (std::size_t at = 0; at < good.size(); at += (at < 4096 ? 1 : 13))
    for (const int value : {0x00, 0xFF, 0x7F, 0x80, 0x55}) {
      std::string bad = good;
      bad[at] = static_cast<char>(value);
      try {
        read_everything(bad);
        ++reads;
      } catch (const std::runtime_error&) {
        ++errors;
      }
    }
  EXPECT_GT(errors, 100);
  EXPECT_GT(reads, 100);
}

}  // namespace
}  // namespace dynid
