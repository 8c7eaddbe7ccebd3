#include "dynid/mocap/c3d_parameters.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <utility>

namespace dynid {
namespace {

bool same_name(const std::string& a, const std::string& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::toupper(static_cast<unsigned char>(x)) == std::toupper(static_cast<unsigned char>(y));
         });
}

std::string trim_right(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\0')) s.pop_back();
  return s;
}

// GROUP:NAME, created (with its group) when missing.
C3dParameter& slot(C3dParameters& set, const std::string& group, const std::string& name) {
  if (!set.find_group(group)) set.groups.push_back({group, "", false});
  if (C3dParameter* p = set.find(group, name)) return *p;
  set.parameters.push_back({});
  set.parameters.back().group = group;
  set.parameters.back().name = name;
  return set.parameters.back();
}

}  // namespace

std::size_t C3dParameter::element_count() const {
  std::size_t n = 1;
  for (int d : dimensions) n *= static_cast<std::size_t>(d);
  return n;
}

std::vector<std::string> C3dParameter::strings() const {
  if (type != C3dType::Char) return {};
  if (dimensions.empty()) return {trim_right(chars)};
  const std::size_t length = static_cast<std::size_t>(dimensions[0]);
  const std::size_t count = length == 0 ? 0 : chars.size() / length;
  std::vector<std::string> out;
  out.reserve(count);
  for (std::size_t i = 0; i < count; ++i) out.push_back(trim_right(chars.substr(i * length, length)));
  return out;
}

std::vector<double> C3dParameter::unsigned_numbers() const {
  std::vector<double> out = numbers;
  if (type == C3dType::Int16)
    for (double& x : out)
      if (x < 0) x += 65536.0;
  return out;
}

const C3dGroup* C3dParameters::find_group(const std::string& group) const {
  for (const C3dGroup& g : groups)
    if (same_name(g.name, group)) return &g;
  return nullptr;
}

const C3dParameter* C3dParameters::find(const std::string& group, const std::string& name) const {
  for (const C3dParameter& p : parameters)
    if (same_name(p.group, group) && same_name(p.name, name)) return &p;
  return nullptr;
}

C3dParameter* C3dParameters::find(const std::string& group, const std::string& name) {
  return const_cast<C3dParameter*>(std::as_const(*this).find(group, name));
}

std::vector<double> C3dParameters::numbers(const std::string& group, const std::string& name) const {
  const C3dParameter* p = find(group, name);
  return p ? p->numbers : std::vector<double>{};
}

std::optional<double> C3dParameters::number(const std::string& group, const std::string& name) const {
  const C3dParameter* p = find(group, name);
  if (!p || p->numbers.empty()) return std::nullopt;
  return p->numbers.front();
}

std::vector<std::string> C3dParameters::strings(const std::string& group, const std::string& name) const {
  const C3dParameter* p = find(group, name);
  return p ? p->strings() : std::vector<std::string>{};
}

C3dParameter& C3dParameters::set_numbers(const std::string& group, const std::string& name, C3dType type,
                                         const std::vector<double>& values, const std::vector<int>& dimensions) {
  if (type == C3dType::Char) throw std::invalid_argument("C3D parameter " + group + ":" + name + ": not numeric");
  C3dParameter* p = &slot(*this, group, name);
  p->type = type;
  p->dimensions = dimensions;
  p->numbers = values;
  // What the file will hold: a Float parameter is a 32-bit float.
  if (type == C3dType::Float)
    for (double& x : p->numbers) x = static_cast<float>(x);
  p->chars.clear();
  if (p->element_count() != values.size())
    throw std::invalid_argument("C3D parameter " + group + ":" + name + ": dimensions do not match the values");
  return *p;
}

C3dParameter& C3dParameters::set_number(const std::string& group, const std::string& name, C3dType type, double value) {
  return set_numbers(group, name, type, {value}, {});
}

C3dParameter& C3dParameters::set_strings(const std::string& group, const std::string& name,
                                         const std::vector<std::string>& values) {
  std::size_t length = 1;
  for (const std::string& v : values) length = std::max(length, v.size());
  if (length > 255 || values.size() > 255)
    throw std::invalid_argument("C3D parameter " + group + ":" + name + ": more than 255 strings or characters");
  C3dParameter* p = &slot(*this, group, name);
  p->type = C3dType::Char;
  p->dimensions = {static_cast<int>(length), static_cast<int>(values.size())};
  p->numbers.clear();
  p->chars.clear();
  for (const std::string& v : values) p->chars += v + std::string(length - v.size(), ' ');
  return *p;
}

void C3dParameters::remove(const std::string& group, const std::string& name) {
  std::erase_if(parameters,
                [&](const C3dParameter& p) { return same_name(p.group, group) && same_name(p.name, name); });
}

}  // namespace dynid
