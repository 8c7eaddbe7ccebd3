// C3D files built byte by byte from the C3D User Guide (c3d.org, "The C3D File Format"), independent
// of dynid's writer: a 512-byte header block, one parameter block (groups and parameters as linked
// records) and the 3-D data as IEEE floats. The field's case of issue 15: ezc3d's Optotrak.c3d,
// whose header says 1149 frames while POINT:FRAMES and the data hold 30.

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>

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
  std::string bytes(int processor) const {
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
    put_u8(b, 2, static_cast<int>(blocks));
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

/// Two markers, `stored` frames at 100 Hz in float storage; header last frame `header_last`,
/// POINT:FRAMES `parameter_frames`. Marker m at frame f: (1000 m + f, 2 f, -f) mm.
std::string optotrak_like(int header_last, int parameter_frames, int stored) {
  const int points = 2;
  ParameterSection p;
  p.group(1, "POINT");
  p.parameter(1, "USED", 2, {}, i16(points));
  p.parameter(1, "FRAMES", 2, {}, i16(parameter_frames));
  p.parameter(1, "SCALE", 4, {}, f32(-1.0f));
  p.parameter(1, "RATE", 4, {}, f32(100.0f));
  p.parameter(1, "DATA_START", 2, {}, i16(3));
  p.parameter(1, "UNITS", -1, {2}, "mm");
  p.parameter(1, "LABELS", -1, {4, 2}, "M1  M2  ");
  const std::string parameters = p.bytes(84);  // Intel
  EXPECT_EQ(parameters.size(), kBlock);        // one block: the data start at block 3

  std::string header(kBlock, '\0');
  put_u8(header, 0, 2);  // the parameter section starts at block 2
  put_u8(header, 1, 0x50);
  put_i16(header, 2, points);  // word 2: 3-D points
  put_i16(header, 4, 0);       // word 3: analog values per frame
  put_i16(header, 6, 1);       // word 4: first frame
  put_i16(header, 8, header_last);
  put_i16(header, 10, 10);      // word 6: interpolation gap
  put_f32(header, 12, -1.0f);   // words 7-8: scale (negative: floats)
  put_i16(header, 16, 3);       // word 9: data start block
  put_i16(header, 18, 0);       // word 10: analog samples per frame
  put_f32(header, 20, 100.0f);  // words 11-12: frame rate

  std::string data(static_cast<std::size_t>(stored * points * 16), '\0');
  std::size_t at = 0;
  for (int f = 0; f < stored; ++f)
    for (int m = 0; m < points; ++m) {
      for (float v : {1000.0f * m + f, 2.0f * f, -1.0f * f}) {
        put_f32(data, at, v);
        at += 4;
      }
      put_f32(data, at, 0.0f);  // residual 0: valid
      at += 4;
    }
  data.resize((data.size() + kBlock - 1) / kBlock * kBlock, '\0');
  return header + parameters + data;
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

TEST(C3dSpecBytes, ACountNothingBacksIsStillTruncated) {
  // Header and parameters both say 1149, the data hold 30: a file cut short, refused.
  try {
    parse_c3d(optotrak_like(1149, 1149, 30), "cut.c3d");
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cut.c3d: truncated"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace dynid
