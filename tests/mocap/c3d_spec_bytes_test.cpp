// C3D files built byte by byte from the C3D User Guide (c3d.org, "The C3D File Format"), independent
// of dynid's writer: a 512-byte header block, one parameter block (groups and parameters as linked
// records) and the 3-D data as IEEE floats. The field's cases of issue 15: counts that run past the
// data (ezc3d's Optotrak.c3d: header and POINT:FRAMES 1149, the file ends after 29 frames), a
// parameter section of an odd number of blocks with records across block boundaries, trailing junk
// after the data, and groups and parameters with nothing in them.

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "dynid/core/number_format.hpp"
#include "dynid/mocap/c3d_reader.hpp"

namespace dynid {
namespace {

constexpr std::size_t kBlock = 512;

void put_u8(std::string& b, std::size_t at, int v) { b[at] = static_cast<char>(v & 0xFF); }
void put_i16(std::string& b, std::size_t at, int v) {  // Intel: little-endian
  put_u8(b, at, v);
  put_u8(b, at + 1, v >> 8);
}
void put_f32(std::string& b, std::size_t at, float v) {
  std::uint32_t u = 0;
  std::memcpy(&u, &v, 4);
  for (int k = 0; k < 4; ++k) put_u8(b, at + static_cast<std::size_t>(k), static_cast<int>(u >> (8 * k)));
}

/// One parameter-section record list: groups (negative id) and parameters (positive id), each
/// "name length, id, name, int16 offset to the next record (from the offset word), ..." .
class ParameterSection {
 public:
  void group(int id, const std::string& name) {
    std::string r = head(-id, name);
    r += '\0';  // description length 0
    records_.push_back(r);
  }
  /// `type`: -1 char, 2 int16, 4 float; `dims` its dimensions; `data` the bytes.
  void parameter(int group, const std::string& name, int type, const std::vector<int>& dims, const std::string& data) {
    std::string r = head(group, name);
    r += static_cast<char>(type);
    r += static_cast<char>(dims.size());
    for (int d : dims) r += static_cast<char>(d);
    r += data;
    r += '\0';  // description length 0
    records_.push_back(r);
  }
  /// The section's bytes from its first byte: 4 header bytes, the records linked by their offsets
  /// (the last one 0), padded to whole blocks.
  /// `stated_blocks`: the block count written in the section's third byte (0: the true count).
  std::string bytes(int processor, int stated_blocks = 0) const {
    std::string b(4, '\0');
    put_u8(b, 0, 1);
    put_u8(b, 1, 0x50);
    put_u8(b, 3, processor);
    for (std::size_t i = 0; i < records_.size(); ++i) {
      std::string r = records_[i];
      const std::size_t name_length = static_cast<std::uint8_t>(r[0]);
      const std::size_t offset_at = 2 + name_length;
      put_i16(r, offset_at, i + 1 == records_.size() ? 0 : static_cast<int>(r.size() - offset_at));
      b += r;
    }
    const std::size_t blocks = (b.size() + kBlock - 1) / kBlock;
    put_u8(b, 2, stated_blocks > 0 ? stated_blocks : static_cast<int>(blocks));
    b.resize(blocks * kBlock, '\0');
    return b;
  }

 private:
  static std::string head(int id, const std::string& name) {
    std::string r;
    r += static_cast<char>(name.size());
    r += static_cast<char>(id);
    r += name;
    r += std::string(2, '\0');  // offset to the next record, set in bytes()
    return r;
  }
  std::vector<std::string> records_;
};

std::string i16(int v) {
  std::string s(2, '\0');
  put_i16(s, 0, v);
  return s;
}
std::string f32(float v) {
  std::string s(4, '\0');
  put_f32(s, 0, v);
  return s;
}

/// What a test file varies; the defaults are a well-formed file.
struct Layout {
  int header_last = 30;             // header word 5 (first frame 1)
  int parameter_frames = 30;        // POINT:FRAMES
  int stored = 30;                  // frames in the data section
  bool pad_data = true;             // zero padding of the data section to the block's end
  std::string trailing = {};        // bytes after the data section
  int stated_parameter_blocks = 0;  // the parameter section's third byte (0: the true count)
  bool long_notes = false;          // a 1250-character NOTES:TEXT ahead of POINT: the section spans 3 blocks
  bool zero_sized = false;          // groups and parameters with nothing in them (see ZeroSized... below)
  bool empty_rate = false;          // POINT:RATE of dimension [0]
  float header_rate = 100.0f;
  float header_scale = -1.0f;  // words 7-8 (the parameter POINT:SCALE stays -1: floats)
};

/// Two markers, `stored` frames in float storage. Marker m at frame f: (1000 m + f, 2 f, -f) mm.
std::string spec_file(const Layout& l) {
  const int points = 2;
  ParameterSection p;
  if (l.long_notes) {
    p.group(2, "NOTES");
    std::string text;
    for (int i = 0; i < 1250; ++i) text += static_cast<char>('a' + i % 26);
    p.parameter(2, "TEXT", -1, {250, 5}, text);
  }
  p.group(1, "POINT");
  p.parameter(1, "USED", 2, {}, i16(points));
  p.parameter(1, "FRAMES", 2, {}, i16(l.parameter_frames));
  p.parameter(1, "SCALE", 4, {}, f32(-1.0f));
  if (l.empty_rate)
    p.parameter(1, "RATE", 4, {0}, "");
  else
    p.parameter(1, "RATE", 4, {}, f32(100.0f));
  p.parameter(1, "DATA_START", 2, {}, i16(0));  // set below, once the section's size is known
  p.parameter(1, "UNITS", -1, {2}, "mm");
  p.parameter(1, "LABELS", -1, {4, 2}, "M1  M2  ");
  if (l.zero_sized) {
    p.parameter(1, "DESCRIPTIONS", -1, {0, 2}, "");  // two descriptions of length 0
    p.group(3, "EMPTY");                             // a group without parameters
    p.group(4, "ANALOG");
    p.parameter(4, "USED", 2, {}, i16(0));
    p.parameter(4, "LABELS", -1, {0, 0}, "");
    p.parameter(4, "SCALE", 4, {0}, "");
    p.group(5, "FORCE_PLATFORM");
    p.parameter(5, "USED", 2, {}, i16(0));
    p.parameter(5, "TYPE", 2, {0}, "");
    p.parameter(5, "CORNERS", 4, {3, 4, 0}, "");
    p.parameter(5, "CHANNEL", 2, {6, 0}, "");
  }
  std::string parameters = p.bytes(84, l.stated_parameter_blocks);  // Intel
  const int data_block = 2 + static_cast<int>(parameters.size() / kBlock);
  // POINT:DATA_START's value: 2 bytes before the description-length byte of the record after "DATA_START".
  const std::size_t at_data_start = parameters.find("DATA_START") + 10 + 2 + 1 + 1;  // name, offset, type, 0 dims
  put_i16(parameters, at_data_start, data_block);

  std::string header(kBlock, '\0');
  put_u8(header, 0, 2);  // the parameter section starts at block 2
  put_u8(header, 1, 0x50);
  put_i16(header, 2, points);  // word 2: 3-D points
  put_i16(header, 4, 0);       // word 3: analog values per frame
  put_i16(header, 6, 1);       // word 4: first frame
  put_i16(header, 8, l.header_last);
  put_i16(header, 10, 10);              // word 6: interpolation gap
  put_f32(header, 12, l.header_scale);  // words 7-8: scale (negative: floats)
  put_i16(header, 16, data_block);      // word 9: data start block
  put_i16(header, 18, 0);               // word 10: analog samples per frame
  put_f32(header, 20, l.header_rate);   // words 11-12: frame rate

  std::string data(static_cast<std::size_t>(l.stored * points * 16), '\0');
  std::size_t at = 0;
  for (int f = 0; f < l.stored; ++f)
    for (int m = 0; m < points; ++m) {
      for (float v : {1000.0f * m + f, 2.0f * f, -1.0f * f}) {
        put_f32(data, at, v);
        at += 4;
      }
      put_f32(data, at, 0.0f);  // residual 0: valid
      at += 4;
    }
  if (l.pad_data) data.resize((data.size() + kBlock - 1) / kBlock * kBlock, '\0');
  return header + parameters + data + l.trailing;
}

std::string optotrak_like(int header_last, int parameter_frames, int stored) {
  return spec_file({.header_last = header_last, .parameter_frames = parameter_frames, .stored = stored});
}

std::string read_error(const std::string& bytes, const std::string& label) {
  try {
    parse_c3d(bytes, label);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "no error";
}

TEST(C3dSpecBytes, AgreeingCountsReadAsWritten) {
  const C3dFile f = parse_c3d(optotrak_like(30, 30, 30), "agree.c3d");
  EXPECT_EQ(f.frame_count(), 30);
  EXPECT_EQ(f.point_count(), 2);
  EXPECT_TRUE(f.warnings.empty()) << f.warnings.front();
  EXPECT_EQ(f.points(29, 3), 1029.0);  // marker 2 (x), frame 30
  EXPECT_EQ(f.points(29, 4), 58.0);
  EXPECT_EQ(f.points(7, 2), -7.0);
}

TEST(C3dSpecBytes, HeaderCountPastTheDataLosesToTheParameters) {
  // ezc3d's Optotrak.c3d: the header 1149 frames, POINT:FRAMES and the data 30.
  const C3dFile f = parse_c3d(optotrak_like(1149, 30, 30), "optotrak.c3d");
  EXPECT_EQ(f.frame_count(), 30);
  EXPECT_EQ(f.points(29, 3), 1029.0);
  ASSERT_EQ(f.warnings.size(), 1u);
  // The data section holds 32 whole frames: the 30 and the zero padding to the block's end.
  EXPECT_NE(f.warnings[0].find("the header says 1149 frames, POINT:FRAMES 30 and the data hold 32; read 30"),
            std::string::npos)
      << f.warnings[0];
}

TEST(C3dSpecBytes, ACountPastTheEndReadsTheWholeFramesPresent) {
  // ezc3d's Optotrak.c3d: header and POINT:FRAMES both 1149, the file ends right after frame 29,
  // with no padding to the block's end. The data present win, with a warning.
  const C3dFile f = parse_c3d(
      spec_file({.header_last = 1149, .parameter_frames = 1149, .stored = 29, .pad_data = false}), "optotrak.c3d");
  EXPECT_EQ(f.frame_count(), 29);
  EXPECT_EQ(f.points(28, 3), 1028.0);  // marker 2 (x), frame 29: the last one stored
  EXPECT_EQ(f.points(28, 5), -28.0);
  ASSERT_EQ(f.warnings.size(), 1u);
  EXPECT_EQ(
      f.warnings[0],
      "the header says 1149 frames, POINT:FRAMES 1149, but the file ends after 29 whole frames; read 29 (the data "
      "present)");
}

TEST(C3dSpecBytes, AFileCutInsideAFrameKeepsTheWholeFramesBefore) {
  std::string bytes = spec_file({.stored = 30, .pad_data = false});
  bytes.resize(bytes.size() - 20);  // frame 30 loses 20 of its 32 bytes
  const C3dFile f = parse_c3d(bytes, "cut.c3d");
  EXPECT_EQ(f.frame_count(), 29);
  EXPECT_EQ(f.points(28, 0), 28.0);
  ASSERT_EQ(f.warnings.size(), 1u);
  EXPECT_EQ(f.warnings[0],
            "the header says 30 frames, POINT:FRAMES 30, but the file ends after 29 whole frames and 12 bytes of one "
            "more; read 29 (the data present)");
}

TEST(C3dSpecBytes, ADataSectionWithoutOneWholeFrameIsTruncated) {
  std::string bytes = spec_file({.stored = 30, .pad_data = false});
  const std::size_t data_start = 2 * kBlock;  // header and one parameter block
  EXPECT_NE(read_error(bytes.substr(0, data_start + 31), "cut.c3d").find("cut.c3d: truncated"), std::string::npos);
  EXPECT_NE(read_error(bytes.substr(0, data_start), "cut.c3d").find("cut.c3d: truncated"), std::string::npos);
}

TEST(C3dSpecBytes, ParameterSectionOfThreeBlocksWithRecordsAcrossTheirBoundaries) {
  const std::string bytes = spec_file({.long_notes = true});
  ASSERT_EQ(bytes[kBlock + 2], 3);  // three parameter blocks: the data start at block 5
  ASSERT_EQ(bytes[16], 5);
  // NOTES:TEXT's 1250 characters run from the section's first block across its second into its third.
  const std::size_t text = bytes.find("abcdefghij");
  ASSERT_LT(text, 2 * kBlock);
  ASSERT_GT(text + 1250, 3 * kBlock);
  const C3dFile f = parse_c3d(bytes, "three_blocks.c3d");
  EXPECT_TRUE(f.warnings.empty()) << f.warnings.front();
  EXPECT_EQ(f.frame_count(), 30);
  EXPECT_EQ(f.points(29, 3), 1029.0);
  const C3dParameter* notes = f.parameters.find("NOTES", "TEXT");
  ASSERT_NE(notes, nullptr);
  EXPECT_EQ(notes->chars.size(), 1250u);
  EXPECT_EQ(notes->chars.substr(510, 6), "qrstuv");  // 510 % 26 = 16: 'q'
  EXPECT_EQ(f.parameters.strings("POINT", "LABELS"), (std::vector<std::string>{"M1", "M2"}));

  // The third byte is often wrong (the User Guide: "should not be used"); the data start decides.
  for (int stated : {1, 2, 4, 9}) {
    const C3dFile g = parse_c3d(spec_file({.stated_parameter_blocks = stated, .long_notes = true}), "stated.c3d");
    EXPECT_EQ(g.frame_count(), 30) << stated;
    EXPECT_EQ(g.points(29, 3), 1029.0) << stated;
    EXPECT_EQ(g.parameters.find("NOTES", "TEXT")->chars, notes->chars) << stated;
  }
}

TEST(C3dSpecBytes, TrailingJunkAfterTheDataIsIgnored) {
  std::string junk;
  for (int i = 0; i < 1500; ++i) junk += static_cast<char>(0xA5 ^ i);  // not a multiple of a block, nor of a frame
  for (bool pad : {true, false}) {
    const C3dFile f = parse_c3d(spec_file({.pad_data = pad, .trailing = junk}), "junk.c3d");
    EXPECT_EQ(f.frame_count(), 30) << pad;
    EXPECT_TRUE(f.warnings.empty()) << f.warnings.front();
    EXPECT_EQ(f.points(29, 3), 1029.0) << pad;
    EXPECT_EQ(f.points(29, 4), 58.0) << pad;
  }
}

TEST(C3dSpecBytes, ZeroSizedGroupsAndParametersAreRead) {
  const std::string bytes = spec_file({.zero_sized = true});
  const C3dFile f = parse_c3d(bytes, "zero.c3d");
  EXPECT_TRUE(f.warnings.empty()) << f.warnings.front();
  EXPECT_NE(f.parameters.find_group("EMPTY"), nullptr);
  for (const C3dParameter& p : f.parameters.parameters) EXPECT_NE(p.group, "EMPTY") << p.name;
  const C3dParameter* corners = f.parameters.find("FORCE_PLATFORM", "CORNERS");
  ASSERT_NE(corners, nullptr);
  EXPECT_EQ(corners->dimensions, (std::vector<int>{3, 4, 0}));
  EXPECT_TRUE(corners->numbers.empty());
  EXPECT_TRUE(f.parameters.strings("ANALOG", "LABELS").empty());
  EXPECT_TRUE(f.parameters.strings("POINT", "DESCRIPTIONS").empty());
  // The parameters after the empty ones are where the User Guide's offsets put them.
  EXPECT_EQ(f.parameters.number("FORCE_PLATFORM", "USED").value_or(-1.0), 0.0);

  const MocapRecording rec = recording_from_c3d(f, "zero.c3d");
  EXPECT_EQ(rec.marker_labels, (std::vector<std::string>{"M1", "M2"}));
  EXPECT_EQ(rec.frame_count(), 30);
  EXPECT_EQ(rec.analogs.rows(), 0);
  EXPECT_TRUE(rec.force_plates.empty());
  EXPECT_TRUE(rec.warnings.empty()) << rec.warnings.front();
  EXPECT_DOUBLE_EQ(rec.marker_positions(3, 29), 1.029);  // metres
}

TEST(C3dSpecBytes, AnEmptyRateParameterFallsBackToTheHeader) {
  // POINT:RATE of dimension [0] holds no value; the header's rate (words 11-12) is the one there is.
  const MocapRecording rec =
      recording_from_c3d(parse_c3d(spec_file({.empty_rate = true, .header_rate = 120.0f}), "rate.c3d"), "rate.c3d");
  EXPECT_EQ(rec.point_rate, 120.0);
  const MocapRecording with_rate =
      recording_from_c3d(parse_c3d(spec_file({.header_rate = 120.0f}), "rate.c3d"), "rate.c3d");
  EXPECT_EQ(with_rate.point_rate, 100.0);  // the parameter wins when it has a value
}

TEST(C3dSpecBytes, AHeaderScaleOffThePointScaleParameterIsNamedAndTheParameterDescribesTheData) {
  // The header's scale factor disagreeing with POINT:SCALE: in its factor, and in its sign (the
  // header saying integers where the parameter and the data are floats).
  for (const float header_scale : {-0.1f, 0.1f}) {
    const C3dFile f = parse_c3d(spec_file({.header_scale = header_scale}), "scale.c3d");
    EXPECT_EQ(f.frame_count(), 30);
    EXPECT_EQ(f.points(29, 3), 1029.0);  // read as floats, as written
    ASSERT_EQ(f.warnings.size(), 1u);
    EXPECT_NE(f.warnings.front().find("POINT:SCALE is -1 but the header says " + format_exact(header_scale)),
              std::string::npos)
        << f.warnings.front();
    EXPECT_NE(f.warnings.front().find("the parameter describes the data (floats)"), std::string::npos);
  }
  EXPECT_TRUE(parse_c3d(spec_file({}), "scale.c3d").warnings.empty());  // agreeing: nothing said
}

}  // namespace
}  // namespace dynid
