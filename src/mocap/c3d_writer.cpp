// C3D writing (C3D User Guide, c3d.org): 512-byte header, parameter blocks, data blocks.

#include "dynid/mocap/c3d_writer.hpp"

#include <cmath>
#include <stdexcept>

#include "c3d_words.hpp"
#include "dynid/core/atomic_file.hpp"

namespace dynid {
namespace {

using c3d_detail::kBlock;
using c3d_detail::WordWriter;

[[noreturn]] void invalid(const std::string& what) { throw std::invalid_argument("C3D writer: " + what); }

void write_entry_name(WordWriter& w, const std::string& name, bool locked, int id) {
  if (name.empty() || name.size() > 127) invalid("name '" + name + "' must have 1 to 127 characters");
  const int length = static_cast<int>(name.size());
  w.u8(locked ? -length : length);
  w.u8(id);
  w.bytes(name);
}

void write_description(WordWriter& w, const std::string& description) {
  if (description.size() > 255) invalid("a description has more than 255 characters");
  w.u8(static_cast<int>(description.size()));
  w.bytes(description);
}

// Groups, each followed by its parameters; every entry points to the next, the last one with 0.
std::string parameter_section(const C3dParameters& params, C3dProcessor processor) {
  WordWriter w(processor);
  w.u8(1);
  w.u8(0x50);
  w.u8(0);  // block count, patched below
  w.u8(static_cast<int>(processor));
  std::size_t last_pointer = 0;
  auto start_entry = [&](const std::string& name, bool locked, int id) {
    write_entry_name(w, name, locked, id);
    last_pointer = w.size();
    w.i16(0);  // pointer to the next entry, patched when the entry is complete
  };
  auto end_entry = [&] { w.patch_i16(last_pointer, static_cast<int>(w.size() - last_pointer)); };
  for (std::size_t g = 0; g < params.groups.size(); ++g) {
    const C3dGroup& group = params.groups[g];
    const int id = static_cast<int>(g + 1);
    if (id > 127) invalid("more than 127 groups");
    start_entry(group.name, group.locked, -id);
    write_description(w, group.description);
    end_entry();
    for (const C3dParameter& p : params.parameters) {
      if (params.find_group(p.group) != &group) continue;
      start_entry(p.name, p.locked, id);
      w.u8(static_cast<int>(p.type));
      if (p.dimensions.size() > 7) invalid(p.group + ":" + p.name + " has more than 7 dimensions");
      w.u8(static_cast<int>(p.dimensions.size()));
      for (int d : p.dimensions) {
        if (d < 0 || d > 255) invalid(p.group + ":" + p.name + " has a dimension outside 0..255");
        w.u8(d);
      }
      const std::size_t count = p.element_count();
      if (p.type == C3dType::Char) {
        if (p.chars.size() != count) invalid(p.group + ":" + p.name + ": characters do not match the dimensions");
        w.bytes(p.chars);
      } else {
        if (p.numbers.size() != count) invalid(p.group + ":" + p.name + ": values do not match the dimensions");
        for (double x : p.numbers) {
          if (p.type == C3dType::Byte) {
            if (!(x >= 0 && x <= 255 && x == std::floor(x))) invalid(p.group + ":" + p.name + ": not a byte");
            w.u8(static_cast<int>(x));
          } else if (p.type == C3dType::Int16) {
            w.i16(x);
          } else {
            w.real(x);
          }
        }
      }
      write_description(w, p.description);
      end_entry();
    }
  }
  for (const C3dParameter& p : params.parameters)
    if (!params.find_group(p.group)) invalid(p.group + ":" + p.name + " has no group");
  if (last_pointer != 0) w.patch_i16(last_pointer, 0);
  w.pad_to_block();
  const std::size_t blocks = w.size() / kBlock;
  if (blocks > 255) invalid("the parameter section needs more than 255 blocks");
  w.str()[2] = static_cast<char>(blocks);
  return w.str();
}

// The layout parameters that must agree with the data (see the header).
C3dParameters layout_parameters(const C3dFile& file, int data_block) {
  C3dParameters p = file.parameters;
  const auto frames = static_cast<double>(file.frame_count());
  const double last = file.first_frame + frames - 1;
  p.set_number("POINT", "USED", C3dType::Int16, static_cast<double>(file.point_count()));
  if (frames <= 32767)
    p.set_number("POINT", "FRAMES", C3dType::Int16, frames);
  else
    p.set_number("POINT", "FRAMES", C3dType::Float, frames);
  p.set_number("POINT", "DATA_START", C3dType::Int16, data_block);
  if (file.analog_channel_count() > 0 || p.find_group("ANALOG"))
    p.set_number("ANALOG", "USED", C3dType::Int16, static_cast<double>(file.analog_channel_count()));
  if (last > 65535) {
    auto words = [](double n) { return std::vector<double>{std::fmod(n, 65536.0), std::floor(n / 65536.0)}; };
    p.set_numbers("TRIAL", "ACTUAL_START_FIELD", C3dType::Int16, words(file.first_frame), {2});
    p.set_numbers("TRIAL", "ACTUAL_END_FIELD", C3dType::Int16, words(last), {2});
  }
  return p;
}

}  // namespace

std::string c3d_bytes(const C3dFile& file) {
  const Eigen::Index frames = file.frame_count(), n = file.point_count(), channels = file.analog_channel_count();
  if (file.points.cols() != 3 * n || file.point_info.rows() != frames)
    invalid("points must be frames x (3 points) and point_info frames x points");
  const Eigen::Index spf = file.analog_samples_per_frame();
  if (channels > 0 && (spf == 0 || file.analogs.rows() != frames * spf))
    invalid("analogs must have a whole number of samples per frame");
  if (n > 65535 || channels * spf > 65535 || spf > 65535) invalid("too many points or analog values per frame");
  if (file.first_frame < 1) invalid("the first frame number must be at least 1");
  const auto scale = file.parameters.number("POINT", "SCALE");
  const auto rate = file.parameters.number("POINT", "RATE");
  if (!scale || *scale == 0 || !std::isfinite(*scale)) invalid("POINT:SCALE is required (negative for floats)");
  if (!rate || !(*rate > 0)) invalid("POINT:RATE is required");
  if (channels > 0 && !file.parameters.find("ANALOG", "RATE")) invalid("ANALOG:RATE is required with analog data");

  // The parameter section's size does not depend on DATA_START's value: size it once, then fill in.
  const std::size_t param_blocks = parameter_section(layout_parameters(file, 0), file.processor).size() / kBlock;
  const int data_block = static_cast<int>(2 + param_blocks);
  if (data_block > 32767) invalid("the parameter section is too large");
  const std::string params = parameter_section(layout_parameters(file, data_block), file.processor);

  WordWriter w(file.processor);
  const double last = std::min(65535.0, file.first_frame + static_cast<double>(frames) - 1);
  w.u8(2);
  w.u8(0x50);
  w.i16(static_cast<double>(n));
  w.i16(static_cast<double>(channels * spf));
  w.i16(std::min(file.first_frame, 65535));
  w.i16(std::max(last, 0.0));
  w.i16(file.max_interpolation_gap);
  w.real(*scale);
  w.i16(data_block);
  w.i16(static_cast<double>(spf));
  w.real(*rate);
  w.pad_to_block();
  w.patch_i16(298, 12345);  // word 150: events use 4-character labels; no events are written
  w.bytes(params);

  const bool is_float = *scale < 0;
  auto value = [&](double x) { is_float ? w.real(x) : w.i16(x); };
  for (Eigen::Index f = 0; f < frames; ++f) {
    for (Eigen::Index i = 0; i < n; ++i) {
      const Eigen::Vector3d x = file.points.block<1, 3>(f, 3 * i).transpose();
      if (!x.allFinite()) {
        for (int k = 0; k < 4; ++k) value(k < 3 ? 0.0 : -1.0);
        continue;
      }
      for (int k = 0; k < 3; ++k) value(is_float ? x[k] : std::round(x[k] / *scale));
      value(file.point_info(f, i));
    }
    for (Eigen::Index s = 0; s < spf; ++s)
      for (Eigen::Index c = 0; c < channels; ++c) value(file.analogs(f * spf + s, c));
  }
  w.pad_to_block();
  return w.str();
}

void write_c3d_file(const std::string& path, const C3dFile& file) { write_file_atomically(path, c3d_bytes(file)); }

}  // namespace dynid
