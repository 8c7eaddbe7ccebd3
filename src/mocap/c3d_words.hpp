#pragma once
// Words of a C3D file in its processor's format (private to src/mocap). Every read is bounds
// checked and fails with "LABEL: truncated ..." so that a damaged file is an error, not a crash.

#include <cstdint>
#include <string>

#include "dynid/mocap/c3d_file.hpp"

namespace dynid::c3d_detail {

class WordReader {
 public:
  WordReader(const std::string& bytes, std::string label, C3dProcessor processor)
      : bytes_(bytes), label_(std::move(label)), processor_(processor) {}

  /// Throws unless bytes [offset, offset + n) exist; `what` names the part being read.
  void require(std::size_t offset, std::size_t n, const std::string& what) const;
  std::uint8_t u8(std::size_t offset) const;
  std::int8_t i8(std::size_t offset) const { return static_cast<std::int8_t>(u8(offset)); }
  std::uint16_t u16(std::size_t offset) const;
  std::int16_t i16(std::size_t offset) const { return static_cast<std::int16_t>(u16(offset)); }
  /// A 32-bit float in the processor's format (IEEE little/big endian or VAX F).
  double real(std::size_t offset) const;
  std::size_t size() const { return bytes_.size(); }
  const std::string& label() const { return label_; }
  [[noreturn]] void fail(const std::string& what) const;

 private:
  const std::string& bytes_;
  std::string label_;
  C3dProcessor processor_;
};

class WordWriter {
 public:
  explicit WordWriter(C3dProcessor processor) : processor_(processor) {}
  void u8(int value);
  /// Signed 16-bit; values 32768..65535 are written as their unsigned bit pattern.
  void i16(double value);
  void real(double value);
  void bytes(const std::string& text) { out_ += text; }
  /// Pads with zero bytes to the next multiple of 512 (a C3D block).
  void pad_to_block();
  /// Overwrites a 16-bit word already written at `offset`.
  void patch_i16(std::size_t offset, int value);
  std::size_t size() const { return out_.size(); }
  std::string& str() { return out_; }

 private:
  std::string out_;
  C3dProcessor processor_;
};

constexpr std::size_t kBlock = 512;

}  // namespace dynid::c3d_detail
