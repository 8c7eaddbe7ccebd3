#include "c3d_words.hpp"

#include <array>
#include <bit>
#include <cmath>
#include <stdexcept>

#include "dynid/mocap/vax_float.hpp"

namespace dynid::c3d_detail {

void WordReader::fail(const std::string& what) const { throw std::runtime_error(label_ + ": " + what); }

void WordReader::require(std::size_t offset, std::size_t n, const std::string& what) const {
  if (offset > bytes_.size() || n > bytes_.size() - offset)
    fail("truncated: " + what + " needs bytes " + std::to_string(offset) + ".." + std::to_string(offset + n) +
         " but the file has " + std::to_string(bytes_.size()) + " bytes");
}

std::uint8_t WordReader::u8(std::size_t offset) const {
  require(offset, 1, "a byte");
  return static_cast<std::uint8_t>(bytes_[offset]);
}

std::uint16_t WordReader::u16(std::size_t offset) const {
  require(offset, 2, "a 16-bit word");
  const auto b0 = static_cast<std::uint8_t>(bytes_[offset]);
  const auto b1 = static_cast<std::uint8_t>(bytes_[offset + 1]);
  return processor_ == C3dProcessor::Mips ? static_cast<std::uint16_t>(b0 << 8 | b1)
                                          : static_cast<std::uint16_t>(b1 << 8 | b0);
}

double WordReader::real(std::size_t offset) const {
  require(offset, 4, "a float");
  std::array<std::uint8_t, 4> b{};
  for (std::size_t i = 0; i < 4; ++i) b[i] = static_cast<std::uint8_t>(bytes_[offset + i]);
  if (processor_ == C3dProcessor::Dec) return vax_f_to_double(b);
  const std::uint32_t bits =
      processor_ == C3dProcessor::Mips
          ? (std::uint32_t{b[0]} << 24 | std::uint32_t{b[1]} << 16 | std::uint32_t{b[2]} << 8 | b[3])
          : (std::uint32_t{b[3]} << 24 | std::uint32_t{b[2]} << 16 | std::uint32_t{b[1]} << 8 | b[0]);
  return std::bit_cast<float>(bits);
}

void WordWriter::u8(int value) { out_.push_back(static_cast<char>(static_cast<std::uint8_t>(value))); }

void WordWriter::i16(double value) {
  if (!(value >= -32768.0 && value <= 65535.0) || value != std::floor(value))
    throw std::range_error("C3D: " + std::to_string(value) + " does not fit a 16-bit integer word");
  const auto bits = static_cast<std::uint16_t>(static_cast<std::int32_t>(value) & 0xFFFF);
  if (processor_ == C3dProcessor::Mips) {
    u8(bits >> 8);
    u8(bits & 0xFF);
  } else {
    u8(bits & 0xFF);
    u8(bits >> 8);
  }
}

void WordWriter::real(double value) {
  if (processor_ == C3dProcessor::Dec) {
    for (std::uint8_t b : double_to_vax_f(value)) u8(b);
    return;
  }
  if (std::isfinite(value) && std::fabs(value) > 3.4028234663852886e38)
    throw std::range_error("C3D: " + std::to_string(value) + " does not fit a float");
  const auto bits = std::bit_cast<std::uint32_t>(static_cast<float>(value));
  for (int i = 0; i < 4; ++i) {
    const int shift = processor_ == C3dProcessor::Mips ? 24 - 8 * i : 8 * i;
    u8(static_cast<int>((bits >> shift) & 0xFF));
  }
}

void WordWriter::pad_to_block() { out_.resize((out_.size() + kBlock - 1) / kBlock * kBlock, '\0'); }

void WordWriter::patch_i16(std::size_t offset, int value) {
  WordWriter w(processor_);
  w.i16(value);
  out_[offset] = w.out_[0];
  out_[offset + 1] = w.out_[1];
}

}  // namespace dynid::c3d_detail
