// C3D parsing (C3D User Guide, c3d.org: "The header section", "The parameter section",
// "The 3D point and analog data section").

#include "dynid/mocap/c3d_reader.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <stdexcept>

#include "c3d_words.hpp"
#include "dynid/core/number_format.hpp"
#include "file_bytes.hpp"

namespace dynid {
namespace {

using c3d_detail::kBlock;
using c3d_detail::WordReader;

constexpr std::uint8_t kKey = 0x50;  // second byte of the header and of the parameter section

C3dProcessor processor_from_byte(int byte, const std::string& label) {
  if (byte == 84 || byte == 85 || byte == 86) return static_cast<C3dProcessor>(byte);
  throw std::runtime_error(label + ": unknown processor type " + std::to_string(byte) +
                           " in the parameter section (84 Intel, 85 DEC, 86 MIPS)");
}

// Parameter section: 4 bytes (reserved, key, block count, processor), then groups and parameters,
// each pointing to the next; a zero pointer or a zero-length name ends the list.
// The block count in the section's third byte is often wrong; the section ends where the data
// start (when the header says so) or at the end of the file.
C3dParameters parse_parameters(const WordReader& r, std::size_t section_start, std::size_t section_end,
                               std::vector<std::string>& warnings) {
  struct Group {
    C3dGroup group;
    bool defined = false;
  };
  std::map<int, Group> groups;
  std::vector<int> group_order;
  std::vector<std::pair<int, C3dParameter>> parameters;

  std::size_t pos = section_start + 4;
  for (int entries = 0;; ++entries) {
    if (entries > 100000) r.fail("bad parameter section: more than 100000 entries");
    r.require(pos, 2, "a parameter entry");
    const int name_length = r.i8(pos);
    const int id = r.i8(pos + 1);
    if (name_length == 0 || id == 0) break;
    const std::size_t length = static_cast<std::size_t>(std::abs(name_length));
    r.require(pos + 2, length + 2, "a parameter name");
    std::string name;
    for (std::size_t i = 0; i < length; ++i) name.push_back(static_cast<char>(r.u8(pos + 2 + i)));
    if (!std::all_of(name.begin(), name.end(), [](char c) { return c >= ' ' && c < 127; }))
      r.fail("bad parameter section: the entry at byte " + std::to_string(pos) + " has no readable name");
    const std::size_t p = pos + 2 + length;
    const int offset = r.i16(p);
    const std::size_t next = p + static_cast<std::size_t>(std::max(offset, 0));
    auto read_text = [&](std::size_t at, const char* what) {
      const std::size_t n = r.u8(at);
      r.require(at + 1, n, std::string(what) + " of " + name);
      std::string s;
      for (std::size_t i = 0; i < n; ++i) s.push_back(static_cast<char>(r.u8(at + 1 + i)));
      return s;
    };
    if (id < 0) {
      Group& g = groups[-id];
      if (g.defined) warnings.push_back("group id " + std::to_string(-id) + " is defined twice");
      if (!g.defined) group_order.push_back(-id);
      g.defined = true;
      g.group = {name, read_text(p + 2, "the description"), name_length < 0};
    } else {
      C3dParameter param;
      param.name = name;
      param.locked = name_length < 0;
      const int type = r.i8(p + 2);
      if (type != -1 && type != 1 && type != 2 && type != 4)
        r.fail("bad parameter section: parameter " + name + " has type " + std::to_string(type) +
               " (expected -1, 1, 2 or 4)");
      param.type = static_cast<C3dType>(type);
      const int dims = r.u8(p + 3);
      if (dims > 7) r.fail("bad parameter section: parameter " + name + " has " + std::to_string(dims) + " dimensions");
      for (int d = 0; d < dims; ++d) param.dimensions.push_back(r.u8(p + 4 + static_cast<std::size_t>(d)));
      const std::size_t data = p + 4 + static_cast<std::size_t>(dims);
      const std::size_t size = static_cast<std::size_t>(std::abs(type));
      const std::size_t count = param.element_count();
      r.require(data, count * size + 1, "the values of parameter " + name);
      for (std::size_t i = 0; i < count; ++i) {
        const std::size_t at = data + i * size;
        switch (param.type) {
          case C3dType::Char:
            param.chars.push_back(static_cast<char>(r.u8(at)));
            break;
          case C3dType::Byte:
            param.numbers.push_back(r.u8(at));
            break;
          case C3dType::Int16:
            param.numbers.push_back(r.i16(at));
            break;
          case C3dType::Float:
            param.numbers.push_back(r.real(at));
            break;
        }
      }
      param.description = read_text(data + count * size, "the description");
      parameters.emplace_back(id, std::move(param));
    }
    if (offset == 0 || next == section_end) break;
    if (offset < 2 || next > section_end)
      r.fail("bad parameter pointer: entry " + name + " at byte " + std::to_string(pos) + " points to byte " +
             std::to_string(static_cast<long long>(p) + offset) + ", outside the parameter section (bytes " +
             std::to_string(section_start) + ".." + std::to_string(section_end) + ")");
    pos = next;
  }

  C3dParameters out;
  for (int id : group_order) out.groups.push_back(groups[id].group);
  for (auto& [id, param] : parameters) {
    Group& g = groups[id];
    if (!g.defined) {
      // Some writers leave parameters of a group they did not write (c3d.org sample 10).
      g = {{"GROUP" + std::to_string(id), "", false}, true};
      out.groups.push_back(g.group);
      warnings.push_back("parameter " + param.name + " belongs to group id " + std::to_string(id) +
                         ", which is not defined; kept as group " + g.group.name);
    }
    param.group = g.group.name;
    out.parameters.push_back(std::move(param));
  }
  return out;
}

// 32-bit frame number stored as two unsigned 16-bit words (TRIAL:ACTUAL_START_FIELD/END_FIELD).
std::optional<double> trial_field(const C3dParameters& params, const char* name) {
  const C3dParameter* p = params.find("TRIAL", name);
  if (!p || p->type != C3dType::Int16 || p->numbers.size() < 2) return std::nullopt;
  const std::vector<double> w = p->unsigned_numbers();
  return w[0] + 65536.0 * w[1];
}

}  // namespace

C3dFile parse_c3d(const std::string& bytes, const std::string& label) {
  if (bytes.size() < kBlock)
    throw std::runtime_error(label + ": truncated: a C3D file starts with a 512-byte header, the file has " +
                             std::to_string(bytes.size()) + " bytes");
  const auto first_byte = static_cast<std::uint8_t>(bytes[0]);
  if (static_cast<std::uint8_t>(bytes[1]) != kKey)
    throw std::runtime_error(label + ": not a C3D file (its second byte is " +
                             std::to_string(static_cast<std::uint8_t>(bytes[1])) + ", not 80)");
  if (first_byte < 2)
    throw std::runtime_error(label + ": bad parameter pointer: the header puts the parameter section at block " +
                             std::to_string(first_byte));
  const std::size_t param_start = (first_byte - 1u) * kBlock;
  if (param_start + 4 > bytes.size())
    throw std::runtime_error(label + ": bad parameter pointer: the parameter section (block " +
                             std::to_string(first_byte) + ") is beyond the end of the file");
  C3dFile file;
  file.processor = processor_from_byte(static_cast<std::uint8_t>(bytes[param_start + 3]), label);
  const WordReader r(bytes, label, file.processor);

  // Header words (1-based in the User Guide) at byte 2 * (word - 1).
  const int header_points = r.u16(2);
  const int header_analogs_per_frame = r.u16(4);
  const int header_first = r.u16(6);
  const int header_last = r.u16(8);
  file.max_interpolation_gap = r.u16(10);
  const double header_scale = r.real(12);
  const int header_data_start = r.u16(16);
  const int header_samples_per_frame = r.u16(18);
  file.header_frame_rate = r.real(20);

  const std::size_t param_end =
      header_data_start > first_byte ? std::min<std::size_t>((header_data_start - 1u) * kBlock, r.size()) : r.size();
  file.parameters = parse_parameters(r, param_start, param_end, file.warnings);
  const C3dParameters& params = file.parameters;

  // Layout of the data section.
  const double scale = params.number("POINT", "SCALE").value_or(header_scale);
  if (!std::isfinite(scale) || scale == 0.0)
    r.fail("POINT:SCALE is " + std::to_string(scale) + "; a non-zero scale is required");
  // The parameter describes the data, as for the counts (docs/mocap.md); a header that disagrees,
  // in the storage its sign gives or in the factor, is named.
  if (scale != header_scale && params.number("POINT", "SCALE"))
    file.warnings.push_back("POINT:SCALE is " + format_exact(scale) + " but the header says " +
                            format_exact(header_scale) + " (" + (header_scale < 0 ? "floats" : "integers") +
                            "); the parameter describes the data (" + (scale < 0 ? "floats" : "integers") + ")");
  const std::size_t word = scale < 0 ? 4 : 2;
  const auto n_points = static_cast<Eigen::Index>(header_points);
  if (const C3dParameter* used = params.find("POINT", "USED");
      used && !used->numbers.empty() && used->unsigned_numbers().front() != header_points)
    file.warnings.push_back("POINT:USED is " + std::to_string(used->unsigned_numbers().front()) +
                            " but the header says " + std::to_string(header_points) +
                            " points; the header describes the data");
  Eigen::Index samples_per_frame = header_samples_per_frame;
  Eigen::Index channels = 0;
  if (header_analogs_per_frame > 0) {
    if (samples_per_frame == 0) r.fail("wrong counts: the header has analog data but 0 analog samples per frame");
    if (header_analogs_per_frame % samples_per_frame != 0)
      r.fail("wrong counts: " + std::to_string(header_analogs_per_frame) +
             " analog values per frame is not a multiple of " + std::to_string(samples_per_frame) +
             " samples per frame");
    channels = header_analogs_per_frame / samples_per_frame;
  } else {
    samples_per_frame = 0;
  }

  const std::size_t frame_bytes =
      (4 * static_cast<std::size_t>(n_points) + static_cast<std::size_t>(header_analogs_per_frame)) * word;
  // The header's 16-bit frame numbers stop at 65535; longer trials give the count in
  // TRIAL:ACTUAL_START_FIELD/END_FIELD or POINT:FRAMES (a float past 32767).
  double first = header_first;
  double frames = header_last >= header_first ? header_last - header_first + 1 : 0;
  const auto start_field = trial_field(params, "ACTUAL_START_FIELD");
  const auto end_field = trial_field(params, "ACTUAL_END_FIELD");
  if (frame_bytes == 0) {
    // Nothing is stored per frame: the header's count is all there is.
  } else if (start_field && end_field && *end_field >= *start_field && *end_field - *start_field + 1 > frames &&
             *end_field < 2147483647.0) {
    first = *start_field;
    frames = *end_field - *start_field + 1;
  } else if (const C3dParameter* p = params.find("POINT", "FRAMES"); p && !p->numbers.empty()) {
    const double n = p->unsigned_numbers().front();
    if (std::isfinite(n) && n > frames && n < 2147483647.0 - first && n == std::floor(n)) frames = n;
  }
  file.first_frame = static_cast<int>(first);

  std::size_t data_block = static_cast<std::size_t>(header_data_start);
  if (data_block == 0)
    if (const C3dParameter* p = params.find("POINT", "DATA_START"); p && !p->numbers.empty())
      data_block = static_cast<std::size_t>(p->unsigned_numbers().front());
  if (data_block < 2 || data_block <= first_byte)
    r.fail("bad data pointer: the data section is said to start at block " + std::to_string(data_block));
  const std::size_t data_start = (data_block - 1) * kBlock;
  // A count that runs past the end of the data (C3D User Guide and ezc3d: the data present win).
  // When POINT:FRAMES gives a smaller count that the data hold, the parameters win; otherwise the
  // whole frames present are read. Either way with a warning naming both counts: a file cut short
  // is read short, never silently. A data section without one whole frame is refused as truncated.
  // The public case: ezc3d's Optotrak.c3d, whose header and POINT:FRAMES say 1149 frames while the
  // file ends after 29 (docs/mocap.md).
  const std::size_t held =
      frame_bytes > 0 && data_start <= bytes.size() ? (bytes.size() - data_start) / frame_bytes : 0;
  if (frame_bytes > 0 && held >= 1 && static_cast<double>(held) < frames) {
    const std::string said = "the header says " + std::to_string(static_cast<long>(frames)) + " frames";
    const C3dParameter* p = params.find("POINT", "FRAMES");
    const double n = p && !p->numbers.empty() ? p->unsigned_numbers().front() : -1.0;
    if (n >= 1.0 && n < frames && n <= static_cast<double>(held) && n == std::floor(n)) {
      file.warnings.push_back(said + ", POINT:FRAMES " + std::to_string(static_cast<long>(n)) + " and the data hold " +
                              std::to_string(held) + "; read " + std::to_string(static_cast<long>(n)) +
                              " (the parameters')");
      frames = n;
    } else {
      const std::size_t rest = bytes.size() - data_start - held * frame_bytes;
      file.warnings.push_back(said + (n >= 0.0 ? ", POINT:FRAMES " + std::to_string(static_cast<long>(n)) : "") +
                              ", but the file ends after " + std::to_string(held) + " whole frames" +
                              (rest > 0 ? " and " + std::to_string(rest) + " bytes of one more" : "") + "; read " +
                              std::to_string(held) + " (the data present)");
      frames = static_cast<double>(held);
    }
  }
  const auto n_frames = static_cast<std::size_t>(frames);
  if (frame_bytes > 0 && (data_start > bytes.size() || held < n_frames))
    r.fail("truncated: " + std::to_string(n_frames) + " frames of " + std::to_string(frame_bytes) +
           " bytes from byte " + std::to_string(data_start) + " need " +
           std::to_string(data_start + n_frames * frame_bytes) + " bytes, the file has " +
           std::to_string(bytes.size()) + " (not one whole frame)");

  const auto F = static_cast<Eigen::Index>(n_frames);
  file.points.resize(F, 3 * n_points);
  file.point_info.resize(F, n_points);
  file.analogs.resize(F * samples_per_frame, channels);
  const bool is_float = word == 4;
  auto value = [&](std::size_t at) { return is_float ? r.real(at) : static_cast<double>(r.i16(at)); };
  const double point_factor = is_float ? 1.0 : scale;
  std::size_t at = data_start;
  for (Eigen::Index f = 0; f < F; ++f) {
    for (Eigen::Index i = 0; i < n_points; ++i) {
      for (Eigen::Index k = 0; k < 3; ++k, at += word) file.points(f, 3 * i + k) = value(at) * point_factor;
      file.point_info(f, i) = value(at);
      at += word;
    }
    for (Eigen::Index s = 0; s < samples_per_frame; ++s)
      for (Eigen::Index c = 0; c < channels; ++c, at += word) file.analogs(f * samples_per_frame + s, c) = value(at);
  }
  // Float storage can hold NaN and infinities, which no valid sample is. A point whose residual
  // says valid but whose coordinates are not finite is made invalid (missing), and named; analog
  // samples are kept as stored (a plate reads NaN there), and named.
  if (is_float) {
    long points_dropped = 0;
    Eigen::Index first_frame = -1, first_point = -1;
    for (Eigen::Index f = 0; f < F; ++f)
      for (Eigen::Index i = 0; i < n_points; ++i)
        if (file.point_info(f, i) >= 0.0 && !file.points.row(f).segment(3 * i, 3).allFinite()) {
          file.point_info(f, i) = -1.0;
          if (points_dropped++ == 0) first_frame = f, first_point = i;
        }
    if (points_dropped > 0)
      file.warnings.push_back(std::to_string(points_dropped) +
                              " point samples marked valid hold coordinates that are not finite (the first: point " +
                              std::to_string(first_point + 1) + ", frame " + std::to_string(first_frame + 1) +
                              "); read as missing");
    const auto analogs_bad = static_cast<long>((!file.analogs.array().isFinite()).count());
    if (analogs_bad > 0) {
      Eigen::Index row = 0, column = 0;
      for (Eigen::Index k = 0; k < file.analogs.size(); ++k)
        if (!std::isfinite(file.analogs.data()[k])) {
          row = k % file.analogs.rows();
          column = k / file.analogs.rows();
          break;
        }
      file.warnings.push_back(std::to_string(analogs_bad) + " analog samples are not finite (the first: channel " +
                              std::to_string(column + 1) + ", sample " + std::to_string(row + 1) +
                              "); a force plate on such a channel reads NaN there");
    }
  }
  return file;
}

C3dFile read_c3d_file(const std::string& path) { return parse_c3d(mocap_detail::file_bytes(path), path); }

MocapRecording read_c3d(const std::string& path, const C3dReadOptions& options) {
  return recording_from_c3d(read_c3d_file(path), path, options);
}

}  // namespace dynid
