#pragma once
// The parameter section of a C3D file: named groups holding named, typed, multi-dimensional
// parameters (C3D User Guide, "The parameter section"). Values are kept exactly as stored so that a
// file written back is the file read; the typed getters below interpret them.
//
// Arrays follow the FORTRAN convention of the format: the first dimension varies fastest. A
// character parameter's first dimension is the length of each string, e.g. POINT:LABELS is
// (length, count).

#include <optional>
#include <string>
#include <vector>

namespace dynid {

/// Storage type of a parameter, as the byte in the file says (C3D User Guide: -1, 1, 2, 4).
enum class C3dType : int { Char = -1, Byte = 1, Int16 = 2, Float = 4 };

struct C3dGroup {
  std::string name;  ///< upper case by convention; looked up case-insensitively
  std::string description;
  bool locked = false;

  bool operator==(const C3dGroup&) const = default;
};

struct C3dParameter {
  std::string group;  ///< name of the group it belongs to
  std::string name;
  std::string description;
  bool locked = false;
  C3dType type = C3dType::Int16;
  std::vector<int> dimensions;  ///< empty: a scalar; each dimension 0..255
  std::vector<double> numbers;  ///< Byte (0..255), Int16 (signed), Float values in file order
  std::string chars;            ///< Char data, all bytes in file order

  /// Number of stored elements: the product of the dimensions (1 for a scalar).
  std::size_t element_count() const;
  /// Char parameters as strings: one per element of dimensions 2.., trailing blanks removed.
  std::vector<std::string> strings() const;
  /// Int16 values read as unsigned 16-bit (C3D files use that for counts above 32767).
  std::vector<double> unsigned_numbers() const;

  bool operator==(const C3dParameter&) const = default;
};

/// Groups and parameters in file order.
struct C3dParameters {
  std::vector<C3dGroup> groups;
  std::vector<C3dParameter> parameters;

  const C3dGroup* find_group(const std::string& group) const;
  const C3dParameter* find(const std::string& group, const std::string& name) const;
  C3dParameter* find(const std::string& group, const std::string& name);

  /// The numbers of GROUP:NAME, empty when absent (Char parameters have none).
  std::vector<double> numbers(const std::string& group, const std::string& name) const;
  /// The first number of GROUP:NAME, if present and non-empty.
  std::optional<double> number(const std::string& group, const std::string& name) const;
  /// The strings of GROUP:NAME, empty when absent or not Char.
  std::vector<std::string> strings(const std::string& group, const std::string& name) const;

  /// Adds or replaces GROUP:NAME (creating the group), returns it for further edits. Float
  /// values are rounded to 32-bit floats, as the file will store them.
  C3dParameter& set_numbers(const std::string& group, const std::string& name, C3dType type,
                            const std::vector<double>& values, const std::vector<int>& dimensions);
  C3dParameter& set_number(const std::string& group, const std::string& name, C3dType type, double value);
  /// Char parameter (length, count); strings are blank-padded to the longest.
  C3dParameter& set_strings(const std::string& group, const std::string& name, const std::vector<std::string>& values);
  void remove(const std::string& group, const std::string& name);

  bool operator==(const C3dParameters&) const = default;
};

}  // namespace dynid
