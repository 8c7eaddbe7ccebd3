#pragma once
// DEC (VAX F_floating) single precision, the float format of C3D files whose processor type is 85
// (C3D User Guide, "DEC floating point"; VAX Architecture Reference Manual, F_floating).
//
// A VAX F float is 0.1f x 2^(e - 128) with an 8-bit excess-128 exponent e and 23 stored fraction
// bits, laid out as two little-endian 16-bit words: the first holds sign, exponent and the high
// fraction bits, the second the low fraction bits. Its value is therefore IEEE's 1.f x 2^(e - 129),
// exactly representable as an IEEE double (and as an IEEE float except for e = 255 and e <= 2).

#include <array>
#include <cstdint>

namespace dynid {

/// Value of the 4 bytes of a VAX F float in file order. e = 0 is zero (sign 0) or the VAX
/// "reserved operand" (sign 1), returned as NaN.
double vax_f_to_double(const std::array<std::uint8_t, 4>& bytes);

/// The 4 file-order bytes of `value` (rounded to IEEE float first) as a VAX F float.
/// Values too small for F_floating become 0; NaN, infinities and |value| >= 2^127 throw
/// std::range_error.
std::array<std::uint8_t, 4> double_to_vax_f(double value);

}  // namespace dynid
