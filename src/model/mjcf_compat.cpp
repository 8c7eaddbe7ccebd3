#include "dynid/model/mjcf_compat.hpp"

#include <tinyxml2.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>

namespace dynid {

namespace fs = std::filesystem;
using tinyxml2::XMLDocument;
using tinyxml2::XMLElement;
using tinyxml2::XMLNode;

struct MjcfCompat::State {
  std::string path;
  XMLDocument doc;
  XMLElement* root = nullptr;
  std::string inertia_from_geom = "auto";
  std::vector<std::string> warnings;
  std::map<std::string, double> effort_limits;
  std::string model_name;
  std::string refusal;
};

namespace {

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw std::runtime_error(where + ": " + what);
}

std::string attr(const XMLElement* e, const char* name) {
  const char* v = e->Attribute(name);
  return v ? v : "";
}

bool named(const XMLElement* e, const char* name) { return std::string(e->Name()) == name; }

std::string where(const std::string& path, const XMLElement* e) {
  return e->GetLineNum() > 0 ? path + ":" + std::to_string(e->GetLineNum()) : path;
}

/// Every element under (and including) `root`, in document order.
std::vector<XMLElement*> elements(XMLElement* root) {
  std::vector<XMLElement*> out;
  std::function<void(XMLElement*)> walk = [&](XMLElement* e) {
    out.push_back(e);
    for (XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) walk(c);
  };
  walk(root);
  return out;
}

std::vector<XMLElement*> elements_named(XMLElement* root, const std::string& name) {
  std::vector<XMLElement*> out;
  for (XMLElement* e : elements(root))
    if (e->Name() == name) out.push_back(e);
  return out;
}

bool inside(const XMLElement* e, const char* ancestor) {
  for (const XMLNode* p = e->Parent(); p; p = p->Parent())
    if (const XMLElement* pe = p->ToElement(); pe && named(pe, ancestor)) return true;
  return false;
}

void remove(XMLElement* e) { e->Parent()->DeleteChild(e); }

bool is_lfs_pointer(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  char buf[64] = {};
  in.read(buf, sizeof buf - 1);
  return std::string(buf, static_cast<std::size_t>(in.gcount())).rfind("version https://git-lfs", 0) == 0;
}

void load_xml(XMLDocument& doc, const std::string& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot open the " + what);
  std::ostringstream text;
  text << in.rdbuf();
  if (text.str().empty()) fail(path, "the " + what + " is empty");
  if (doc.Parse(text.str().c_str(), text.str().size()) != tinyxml2::XML_SUCCESS)
    fail(path + ":" + std::to_string(doc.ErrorLineNum()),
         std::string("invalid MJCF: not valid XML (") + doc.ErrorName() + ")");
}

/// Replaces every <include file="..."/> by the children of that file's <mujoco> element (paths
/// relative to the main file's directory, as MuJoCo resolves them).
void inline_includes(MjcfCompat::State& s, const fs::path& dir) {
  for (int pass = 0;; ++pass) {
    std::vector<XMLElement*> includes = elements_named(s.root, "include");
    if (includes.empty()) return;
    if (pass > 50) fail(s.path, "more than 50 levels of <include> (a file includes itself?)");
    XMLElement* inc = includes.front();
    const std::string file = attr(inc, "file");
    if (file.empty()) fail(where(s.path, inc), "<include> has no file attribute");
    const fs::path full = fs::path(file).is_absolute() ? fs::path(file) : dir / file;
    XMLDocument other;
    load_xml(other, full.string(), "MJCF file included by " + where(s.path, inc));
    XMLElement* other_root = other.RootElement();
    if (!other_root || !named(other_root, "mujoco"))
      fail(full.string(), "an included MJCF file must have a <mujoco> root element");
    XMLNode* anchor = inc;
    for (XMLElement* c = other_root->FirstChildElement(); c; c = c->NextSiblingElement())
      anchor = inc->Parent()->InsertAfterChild(anchor, c->DeepClone(&s.doc));
    remove(inc);
  }
}

/// The last value any <compiler> gives `name`.
std::optional<std::string> compiler_attribute(XMLElement* root, const char* name) {
  std::optional<std::string> value;
  for (XMLElement* c : elements_named(root, "compiler"))
    if (const char* v = c->Attribute(name)) value = v;
  return value;
}

/// Mesh, height-field and skin files to absolute paths (meshdir, else assetdir), textures dropped.
void absolute_asset_paths(MjcfCompat::State& s, const fs::path& dir) {
  const std::string meshdir =
      compiler_attribute(s.root, "meshdir").value_or(compiler_attribute(s.root, "assetdir").value_or(""));
  for (XMLElement* c : elements_named(s.root, "compiler"))
    for (const char* a : {"meshdir", "texturedir", "assetdir"}) c->DeleteAttribute(a);
  for (const char* kind : {"mesh", "hfield"})
    for (XMLElement* e : elements_named(s.root, kind)) {
      const std::string file = attr(e, "file");
      if (file.empty() || !inside(e, "asset")) continue;
      const fs::path full = fs::path(file).is_absolute() ? fs::path(file) : dir / meshdir / file;
      e->SetAttribute("file", full.lexically_normal().string().c_str());
    }
  int visual = 0;
  for (const char* kind : {"texture", "skin"})
    for (XMLElement* e : elements_named(s.root, kind)) {
      remove(e);
      ++visual;
    }
  for (XMLElement* e : elements_named(s.root, "material")) e->DeleteAttribute("texture");
  if (visual > 0)
    s.warnings.push_back(std::to_string(visual) + " texture/skin element(s) not loaded: they are visual only");
}

/// Sections dynid does not read are not passed to MuJoCo.
void drop_unused_sections(MjcfCompat::State& s) {
  std::string not_read;
  for (const char* section : {"sensor", "actuator"}) {
    int count = 0;
    for (XMLElement* e = s.root->FirstChildElement(section); e; e = e->NextSiblingElement(section))
      for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) ++count;
    if (count > 0) not_read += (not_read.empty() ? "" : ", ") + std::to_string(count) + " <" + section + "> entries";
  }
  if (!not_read.empty())
    s.warnings.push_back("not read: " + not_read +
                         " (dynid takes sensors and actuators from the sidecar, "
                         "docs/robot-sidecar.md)");
  for (const char* section :
       {"sensor", "actuator", "keyframe", "visual", "contact", "custom", "extension", "statistic"})
    while (XMLElement* e = s.root->FirstChildElement(section)) remove(e);
  for (const char* section : {"tendon", "equality"}) {
    int count = 0;
    while (XMLElement* e = s.root->FirstChildElement(section)) {
      for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) ++count;
      remove(e);
    }
    if (count > 0)
      s.warnings.push_back(std::to_string(count) + " <" + section +
                           "> element(s) ignored: dynid models a kinematic tree (no loop closures, couplings or "
                           "tendons)");
  }
  for (XMLElement* d : elements_named(s.root, "default"))
    for (const char* kind :
         {"motor", "position", "velocity", "general", "intvelocity", "damper", "cylinder", "muscle", "adhesion"})
      while (XMLElement* e = d->FirstChildElement(kind)) remove(e);
}

/// Default classes by name (the top-level <default> without a class is "main").
std::map<std::string, XMLElement*> default_classes(XMLElement* root) {
  std::map<std::string, XMLElement*> out;
  for (XMLElement* d : elements_named(root, "default")) {
    const std::string c = attr(d, "class");
    out[c.empty() ? "main" : c] = d;
  }
  return out;
}

/// The value `element` gets for `attribute`: its own, else its class's (own class, else the nearest
/// childclass of its bodies, else main), else the class's ancestors'.
std::optional<std::string> resolved_attribute(XMLElement* element, const char* attribute,
                                              const std::map<std::string, XMLElement*>& classes) {
  if (const char* v = element->Attribute(attribute)) return v;
  std::string cls = attr(element, "class");
  for (const XMLNode* p = element->Parent(); cls.empty() && p; p = p->Parent())
    if (const XMLElement* pe = p->ToElement(); pe && named(pe, "body")) cls = attr(pe, "childclass");
  if (cls.empty()) cls = "main";
  const auto it = classes.find(cls);
  for (const XMLElement* d = it == classes.end() ? nullptr : it->second; d && named(d, "default");
       d = d->Parent() ? d->Parent()->ToElement() : nullptr)
    if (const XMLElement* x = d->FirstChildElement(element->Name()); x && x->Attribute(attribute))
      return x->Attribute(attribute);
  return std::nullopt;
}

/// actuatorfrcrange (MuJoCo >= 3.0) -> the joints' effort limits, then dropped.
void translate_actuator_force_range(MjcfCompat::State& s) {
  const std::map<std::string, XMLElement*> classes = default_classes(s.root);
  XMLElement* world = s.root->FirstChildElement("worldbody");
  for (XMLElement* j : world ? elements_named(world, "joint") : std::vector<XMLElement*>{}) {
    const std::string name = attr(j, "name");
    const auto range = resolved_attribute(j, "actuatorfrcrange", classes);
    if (name.empty() || !range || resolved_attribute(j, "actuatorfrclimited", classes).value_or("auto") == "false")
      continue;
    std::istringstream in(*range);
    double lo = 0.0, hi = 0.0;
    if (!(in >> lo >> hi) || !std::isfinite(lo) || !std::isfinite(hi))
      fail(where(s.path, j), "joint '" + name + "': actuatorfrcrange \"" + *range + "\" is not two numbers");
    if (std::max(std::abs(lo), std::abs(hi)) > 0.0) s.effort_limits[name] = std::max(std::abs(lo), std::abs(hi));
  }
  int count = 0;
  for (XMLElement* j : elements_named(s.root, "joint"))
    if (j->Attribute("actuatorfrcrange")) {
      j->DeleteAttribute("actuatorfrcrange");
      ++count;
    }
  if (count > 0)
    s.warnings.push_back("<joint actuatorfrcrange> (" + std::to_string(count) + (count == 1 ? " place" : " places") +
                         ") read as the joints' effort limits, then dropped: MuJoCo 2.2.2 does not know it");
}

bool geom_carries_inertia(const MjcfCompat::State& s, const XMLElement* geom) {
  if (s.inertia_from_geom == "false") return false;
  const XMLNode* parent = geom->Parent();
  const XMLElement* body = parent ? parent->ToElement() : nullptr;
  if (!body || !named(body, "body")) return named(body, "default");  // a class: used anywhere
  return s.inertia_from_geom == "true" || !body->FirstChildElement("inertial");
}

std::string body_name(const XMLElement* geom) {
  const XMLElement* body = geom->Parent() ? geom->Parent()->ToElement() : nullptr;
  return body && named(body, "body") && body->Attribute("name") ? body->Attribute("name") : "(unnamed)";
}

/// Meshes whose file is absent or a Git LFS pointer: their geoms are dropped where no inertia
/// comes from them; otherwise an error naming the file and the body.
void drop_unusable_meshes(MjcfCompat::State& s) {
  XMLElement* world = s.root->FirstChildElement("worldbody");
  for (XMLElement* mesh : elements_named(s.root, "mesh")) {
    if (!inside(mesh, "asset") || !mesh->Attribute("file")) continue;
    const fs::path file = attr(mesh, "file");
    std::error_code ec;
    const bool exists = fs::is_regular_file(file, ec);
    if (exists && !is_lfs_pointer(file)) continue;
    const std::string why = exists ? "is a Git LFS pointer, not the mesh (git lfs pull fetches it)" : "does not exist";
    const std::string name = mesh->Attribute("name") ? attr(mesh, "name") : file.stem().string();
    std::vector<XMLElement*> geoms;
    for (XMLElement* g : world ? elements_named(world, "geom") : std::vector<XMLElement*>{})
      if (attr(g, "mesh") == name) geoms.push_back(g);
    for (XMLElement* g : geoms)
      if (geom_carries_inertia(s, g))
        fail(where(s.path, g), "mesh file " + file.string() + " " + why + ", and body '" + body_name(g) +
                                   "' has no <inertial>: MuJoCo computes its inertia from that mesh");
    for (XMLElement* g : geoms) remove(g);
    remove(mesh);
    s.warnings.push_back("mesh '" + name + "' dropped with its " + std::to_string(geoms.size()) + " geom(s): " +
                         file.string() + " " + why + " (no inertia comes from it: the bodies have <inertial>)");
  }
}

/// Elements whose unknown attributes or keywords may change the tree or the inertias.
bool structural(const std::string& element) {
  static const std::set<std::string> kinds = {"mujoco", "worldbody", "body",    "inertial",
                                              "frame",  "include",   "compiler"};
  return kinds.count(element) > 0;
}

/// MuJoCo's error: (kind, element, attribute-or-keyword).
struct Complaint {
  enum Kind { Attribute, Element, Keyword, Other } kind = Other;
  std::string element, word;
};

std::string quoted_after(const std::string& text, const std::string& marker) {
  const std::size_t at = text.find(marker);
  if (at == std::string::npos) return "";
  const std::size_t start = at + marker.size();
  const std::size_t end = text.find('\'', start);
  return end == std::string::npos ? "" : text.substr(start, end - start);
}

Complaint parse_complaint(const std::string& error) {
  Complaint c;
  c.element = quoted_after(error, "Element '");
  if (c.element.empty()) return c;
  if (error.find("unrecognized attribute: '") != std::string::npos) {
    c.kind = Complaint::Attribute;
    c.word = quoted_after(error, "unrecognized attribute: '");
  } else if (error.find("unrecognized element") != std::string::npos) {
    c.kind = Complaint::Element;
  } else if (error.find("invalid keyword: '") != std::string::npos) {
    c.kind = Complaint::Keyword;
    c.word = quoted_after(error, "invalid keyword: '");
  }
  return c;
}

// <frame> (MuJoCo >= 3.1): a coordinate frame that only places its children. MuJoCo 2.2.2 does not
// know it, so each frame is folded into its children's own pos and orientation (and a geom's
// fromto), innermost first, and its children take its place. Orientations follow MuJoCo's rules:
// quat "w x y z", axisangle, euler (compiler eulerseq; lower case rotates with the frame), xyaxes,
// zaxis, angles in the compiler's unit (degree unless angle="radian").

struct Placement {
  Eigen::Vector3d pos = Eigen::Vector3d::Zero();
  Eigen::Quaterniond rot = Eigen::Quaterniond::Identity();
};

std::vector<double> numbers(const std::string& text, std::size_t count, const std::string& where_, const char* what) {
  std::istringstream in(text);
  std::vector<double> out(count);
  for (double& x : out)
    if (!(in >> x) || !std::isfinite(x))
      fail(where_, std::string(what) + " \"" + text + "\" is not " + std::to_string(count) + " numbers");
  return out;
}

/// MuJoCo's euler angles (in the compiler's unit) in the compiler's eulerseq: a lower-case axis
/// rotates with the frame, an upper-case one about the fixed axes.
Eigen::Quaterniond euler_rotation(const std::array<double, 3>& angles, double angle_unit, const std::string& eulerseq) {
  Eigen::Quaterniond rot = Eigen::Quaterniond::Identity();
  for (std::size_t i = 0; i < 3; ++i) {
    const char axis = eulerseq[i];
    const Eigen::Quaterniond r(
        Eigen::AngleAxisd(angles[i] * angle_unit, Eigen::Vector3d::Unit(std::tolower(axis) - 'x')));
    rot = std::islower(axis) ? rot * r : r * rot;
  }
  return rot;
}

/// The element's own placement, class defaults included (throws naming the element on bad values).
Placement placement_of(XMLElement* e, const std::map<std::string, XMLElement*>& classes, double angle_unit,
                       const std::string& eulerseq, const std::string& where_) {
  Placement p;
  if (const auto pos = resolved_attribute(e, "pos", classes)) {
    const std::vector<double> v = numbers(*pos, 3, where_, "pos");
    p.pos = Eigen::Vector3d(v[0], v[1], v[2]);
  }
  if (const auto q = resolved_attribute(e, "quat", classes)) {
    const std::vector<double> v = numbers(*q, 4, where_, "quat");
    p.rot = Eigen::Quaterniond(v[0], v[1], v[2], v[3]).normalized();
  } else if (const auto aa = resolved_attribute(e, "axisangle", classes)) {
    const std::vector<double> v = numbers(*aa, 4, where_, "axisangle");
    p.rot = Eigen::AngleAxisd(v[3] * angle_unit, Eigen::Vector3d(v[0], v[1], v[2]).normalized());
  } else if (const auto eu = resolved_attribute(e, "euler", classes)) {
    const std::vector<double> v = numbers(*eu, 3, where_, "euler");
    p.rot = euler_rotation({v[0], v[1], v[2]}, angle_unit, eulerseq);
  } else if (const auto xy = resolved_attribute(e, "xyaxes", classes)) {
    const std::vector<double> v = numbers(*xy, 6, where_, "xyaxes");
    const Eigen::Vector3d x = Eigen::Vector3d(v[0], v[1], v[2]).normalized();
    const Eigen::Vector3d y =
        (Eigen::Vector3d(v[3], v[4], v[5]) - x.dot(Eigen::Vector3d(v[3], v[4], v[5])) * x).normalized();
    Eigen::Matrix3d R;
    R << x, y, x.cross(y);
    p.rot = Eigen::Quaterniond(R);
  } else if (const auto z = resolved_attribute(e, "zaxis", classes)) {
    const std::vector<double> v = numbers(*z, 3, where_, "zaxis");
    p.rot = Eigen::Quaterniond::FromTwoVectors(Eigen::Vector3d::UnitZ(), Eigen::Vector3d(v[0], v[1], v[2]));
  }
  return p;
}

std::string text_of(const Eigen::Vector3d& v) {
  std::ostringstream out;
  out.precision(17);
  out << v.x() << ' ' << v.y() << ' ' << v.z();
  return out.str();
}

void flatten_frame(MjcfCompat::State& s, XMLElement* frame, const std::map<std::string, XMLElement*>& classes,
                   double angle_unit, const std::string& eulerseq) {
  const std::string at = where(s.path, frame);
  const Placement f = placement_of(frame, classes, angle_unit, eulerseq, at);
  static const std::set<std::string> placed = {"body", "geom", "site", "camera", "light"};
  std::vector<XMLElement*> children;
  for (XMLElement* c = frame->FirstChildElement(); c; c = c->NextSiblingElement()) children.push_back(c);
  for (XMLElement* c : children) {
    const std::string kind = c->Name();
    if (!placed.count(kind))
      fail(where(s.path, c), "<" + kind +
                                 "> inside <frame> is not supported (dynid folds frames into bodies, geoms, "
                                 "sites, cameras and lights)");
    if (kind == "geom") {
      if (const auto fromto = resolved_attribute(c, "fromto", classes)) {
        const std::vector<double> v = numbers(*fromto, 6, where(s.path, c), "fromto");
        const Eigen::Vector3d a = f.pos + f.rot * Eigen::Vector3d(v[0], v[1], v[2]);
        const Eigen::Vector3d b = f.pos + f.rot * Eigen::Vector3d(v[3], v[4], v[5]);
        c->SetAttribute("fromto", (text_of(a) + " " + text_of(b)).c_str());
        continue;
      }
    }
    const Placement own = placement_of(c, classes, angle_unit, eulerseq, where(s.path, c));
    const Eigen::Vector3d pos = f.pos + f.rot * own.pos;
    const Eigen::Quaterniond rot = (f.rot * own.rot).normalized();
    for (const char* a : {"axisangle", "euler", "xyaxes", "zaxis"}) c->DeleteAttribute(a);
    c->SetAttribute("pos", text_of(pos).c_str());
    std::ostringstream q;
    q.precision(17);
    q << rot.w() << ' ' << rot.x() << ' ' << rot.y() << ' ' << rot.z();
    c->SetAttribute("quat", q.str().c_str());
  }
  // The children take the frame's place, in order.
  XMLNode* parent = frame->Parent();
  XMLNode* after = frame;
  for (XMLElement* c : children) after = parent->InsertAfterChild(after, c);
  remove(frame);
}

/// A frame's childclass made explicit on what it reaches, so the frame can be folded away: as for a
/// body's childclass, every element below it that admits a class and has none takes it, down to a
/// body or frame with a childclass of its own. Elements directly in the frame (or in nested frames
/// without a childclass) get `class`; a body without a childclass gets the frame's as its own, which
/// MuJoCo 2.2.2 then applies to the body's subtree.
void give_frame_childclass(XMLElement* e, const char* cls) {
  static const std::set<std::string> admits = {"geom", "site", "camera", "light", "joint"};
  for (XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
    const std::string kind = c->Name();
    if (kind == "body") {
      if (!c->Attribute("childclass")) c->SetAttribute("childclass", cls);
    } else if (kind == "frame") {
      if (!c->Attribute("childclass")) give_frame_childclass(c, cls);
    } else if (admits.count(kind) && !c->Attribute("class")) {
      c->SetAttribute("class", cls);
    }
  }
}

int expand_frame_childclasses(MjcfCompat::State& s) {
  XMLElement* world = s.root->FirstChildElement("worldbody");
  int count = 0;
  for (XMLElement* f : world ? elements_named(world, "frame") : std::vector<XMLElement*>{})
    if (const char* cls = f->Attribute("childclass")) {
      give_frame_childclass(f, cls);
      f->DeleteAttribute("childclass");
      ++count;
    }
  return count;
}

/// The compiler's angle unit [rad per unit] and eulerseq (checked).
std::pair<double, std::string> angle_conventions(const MjcfCompat::State& s) {
  const double angle_unit = compiler_attribute(s.root, "angle").value_or("degree") == "radian" ? 1.0 : M_PI / 180.0;
  const std::string eulerseq = compiler_attribute(s.root, "eulerseq").value_or("xyz");
  if (eulerseq.size() != 3 || std::any_of(eulerseq.begin(), eulerseq.end(),
                                          [](char c) { return std::string("xyzXYZ").find(c) == std::string::npos; }))
    fail(s.path, "compiler eulerseq \"" + eulerseq + "\" is not three of x, y, z, X, Y, Z");
  return {angle_unit, eulerseq};
}

// <replicate> (MuJoCo >= 3.1.5): `count` copies of its children, copy i placed in a frame at pos_i
// with orientation euler(i * euler), pos_0 = 0, pos_{i+1} = pos_i + R_i offset (MuJoCo's
// xml_native_reader.cc attaches each copy in such a frame), every name in copy i suffixed with
// `sep` and i zero-padded to the digits of count, an inner replicate's suffix first. Expanded here
// into <frame> elements (with the replicate's childclass), folded afterwards like any frame.
void expand_replicate(MjcfCompat::State& s, XMLElement* rep, double angle_unit, const std::string& eulerseq) {
  const std::string at = where(s.path, rep);
  for (const tinyxml2::XMLAttribute* a = rep->FirstAttribute(); a; a = a->Next())
    if (!std::set<std::string>{"count", "offset", "euler", "sep", "childclass"}.count(a->Name()))
      fail(at, std::string("<replicate ") + a->Name() +
                   "> is not an attribute dynid knows (count, offset, euler, sep, "
                   "childclass)");
  const int count = rep->IntAttribute("count", 0);
  if (!rep->Attribute("count") || count < 1 || count > 10000 ||
      std::to_string(count) != std::string(rep->Attribute("count")))
    fail(at, "<replicate count> must be a whole number from 1 to 10000");
  const auto vector3 = [&](const char* name) {
    if (!rep->Attribute(name)) return Eigen::Vector3d::Zero().eval();
    const std::vector<double> v = numbers(attr(rep, name), 3, at, name);
    return Eigen::Vector3d(v[0], v[1], v[2]);
  };
  const Eigen::Vector3d offset = vector3("offset"), euler = vector3("euler");
  const std::string sep = rep->Attribute("sep") ? attr(rep, "sep") : "";
  static const std::set<std::string> placed = {"body", "geom", "site", "camera", "light", "frame"};
  for (XMLElement* c = rep->FirstChildElement(); c; c = c->NextSiblingElement())
    if (!placed.count(c->Name()))
      fail(where(s.path, c), std::string("<") + c->Name() +
                                 "> inside <replicate> is not supported (dynid replicates bodies, geoms, sites, "
                                 "cameras, lights and frames)");
  const std::size_t digits = std::to_string(count).size();
  Eigen::Vector3d pos = Eigen::Vector3d::Zero();
  XMLNode* after = rep;
  for (int i = 0; i < count; ++i) {
    const Eigen::Quaterniond rot = euler_rotation({i * euler.x(), i * euler.y(), i * euler.z()}, angle_unit, eulerseq);
    XMLElement* frame = s.doc.NewElement("frame");
    frame->SetAttribute("pos", text_of(pos).c_str());
    std::ostringstream q;
    q.precision(17);
    q << rot.w() << ' ' << rot.x() << ' ' << rot.y() << ' ' << rot.z();
    frame->SetAttribute("quat", q.str().c_str());
    if (const char* cls = rep->Attribute("childclass")) frame->SetAttribute("childclass", cls);
    std::string suffix = std::to_string(i);
    suffix = sep + std::string(digits - suffix.size(), '0') + suffix;
    for (XMLElement* c = rep->FirstChildElement(); c; c = c->NextSiblingElement()) {
      XMLElement* copy = c->DeepClone(&s.doc)->ToElement();
      std::vector<XMLElement*> named_elements = {copy};
      for (std::size_t k = 0; k < named_elements.size(); ++k)
        for (XMLElement* d = named_elements[k]->FirstChildElement(); d; d = d->NextSiblingElement())
          named_elements.push_back(d);
      for (XMLElement* e : named_elements)
        if (const char* name = e->Attribute("name")) e->SetAttribute("name", (std::string(name) + suffix).c_str());
      frame->InsertEndChild(copy);
    }
    after = rep->Parent()->InsertAfterChild(after, frame);
    pos += rot * offset;
  }
  remove(rep);
}

void expand_replicates(MjcfCompat::State& s) {
  XMLElement* world = s.root->FirstChildElement("worldbody");
  std::vector<XMLElement*> replicates = world ? elements_named(world, "replicate") : std::vector<XMLElement*>{};
  if (replicates.empty()) return;
  const auto [angle_unit, eulerseq] = angle_conventions(s);
  // Innermost first (document order lists a replicate before those inside it), so an outer copy
  // copies the inner copies and appends its suffix after theirs.
  std::reverse(replicates.begin(), replicates.end());
  for (XMLElement* r : replicates) expand_replicate(s, r, angle_unit, eulerseq);
  s.warnings.push_back(std::to_string(replicates.size()) +
                       " <replicate> element(s) expanded into their copies: MuJoCo 2.2.2 does not know <replicate>");
}

/// <attach> (MuJoCo >= 3.2) brings in another model's body, compiled with that model's own compiler
/// settings, defaults and assets (MuJoCo's "Attachment"): not reproduced here without a MuJoCo 3 to
/// check against, so refused before compiling, saying what to do instead.
void refuse_attach(const MjcfCompat::State& s) {
  XMLElement* world = s.root->FirstChildElement("worldbody");
  for (XMLElement* a : world ? elements_named(world, "attach") : std::vector<XMLElement*>{})
    fail(where(s.path, a),
         "<attach> (another model's body, MuJoCo >= 3.2) is not read by dynid: write the attached body into this "
         "file, or give the file MuJoCo >= 3.2 saves after loading this one (docs/mjcf.md)");
}

void flatten_frames(MjcfCompat::State& s) {
  XMLElement* world = s.root->FirstChildElement("worldbody");
  if (!world) return;
  std::vector<XMLElement*> frames = elements_named(world, "frame");
  if (frames.empty()) return;
  const std::map<std::string, XMLElement*> classes = default_classes(s.root);
  const auto [angle_unit, eulerseq] = angle_conventions(s);
  // Innermost first: document order lists a frame before the frames inside it.
  std::reverse(frames.begin(), frames.end());
  for (XMLElement* f : frames) flatten_frame(s, f, classes, angle_unit, eulerseq);
  s.warnings.push_back(std::to_string(frames.size()) +
                       " <frame> element(s) folded into their children's "
                       "positions and orientations: MuJoCo 2.2.2 does not know <frame>");
}

}  // namespace

MjcfCompat::MjcfCompat(const std::string& path) : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.path = path;
  load_xml(s.doc, path, "model file");
  s.root = s.doc.RootElement();
  if (!s.root || !named(s.root, "mujoco"))
    fail(path, std::string("root element <") + (s.root ? s.root->Name() : "") + ">, expected <mujoco> (MJCF)");
  s.model_name = s.root->Attribute("model") ? attr(s.root, "model") : fs::path(path).stem().string();
  const fs::path dir = fs::absolute(fs::path(path)).parent_path();
  inline_includes(s, dir);
  s.inertia_from_geom = compiler_attribute(s.root, "inertiafromgeom").value_or("auto");
  absolute_asset_paths(s, dir);
  drop_unused_sections(s);
  expand_replicates(s);
  refuse_attach(s);
  const int childclasses = expand_frame_childclasses(s);
  if (childclasses > 0)
    s.warnings.push_back(std::to_string(childclasses) +
                         " <frame childclass> given to the elements below each frame (as MuJoCo >= 3.1 does) "
                         "before the frames are folded");
  translate_actuator_force_range(s);
  drop_unusable_meshes(s);
  flatten_frames(s);
  if (!compiler_attribute(s.root, "autolimits")) {
    XMLElement* c = s.root->FirstChildElement("compiler");
    if (!c) c = s.root->InsertFirstChild(s.doc.NewElement("compiler"))->ToElement();
    c->SetAttribute("autolimits", "true");
  }
}

MjcfCompat::~MjcfCompat() = default;

std::string MjcfCompat::xml() const {
  tinyxml2::XMLPrinter printer;
  state_->doc.Print(&printer);
  return printer.CStr();
}

bool MjcfCompat::resolve(const std::string& mujoco_error) {
  State& s = *state_;
  const Complaint c = parse_complaint(mujoco_error);
  std::string first_line = mujoco_error.substr(0, mujoco_error.find('\n'));
  s.refusal = s.path + ": MuJoCo 2.2.2 cannot compile it: " + first_line;
  if (c.kind == Complaint::Other) return false;
  std::vector<XMLElement*> carriers;
  std::string attribute = c.word;
  for (XMLElement* e : elements_named(s.root, c.element)) {
    if (c.kind == Complaint::Attribute && e->Attribute(c.word.c_str())) carriers.push_back(e);
    if (c.kind == Complaint::Element) carriers.push_back(e);
    if (c.kind == Complaint::Keyword)
      for (const tinyxml2::XMLAttribute* a = e->FirstAttribute(); a; a = a->Next())
        if (a->Value() == c.word) {
          carriers.push_back(e);
          attribute = a->Name();
        }
  }
  if (carriers.empty()) return false;
  const XMLElement* first = carriers.front();
  const std::string what = c.kind == Complaint::Element ? "<" + c.element + ">"
                           : c.kind == Complaint::Attribute
                               ? "<" + c.element + " " + c.word + ">"
                               : "<" + c.element + " " + attribute + "=\"" + c.word + "\">";
  bool safe = !structural(c.element);
  if (c.kind == Complaint::Element) {
    static const std::set<std::string> tree = {"frame", "replicate", "attach", "flexcomp", "flex",     "model",
                                               "body",  "joint",     "geom",   "inertial", "composite"};
    safe = !tree.count(c.element);
  } else if (c.element == "compiler") {
    safe = attribute == "alignfree" || attribute == "saveinertial" || attribute == "usethread";
  } else if (c.element == "geom") {
    safe = std::none_of(carriers.begin(), carriers.end(), [&](XMLElement* g) { return geom_carries_inertia(s, g); });
  } else if (c.element == "body") {
    safe = attribute == "gravcomp";  // a force MuJoCo applies, not a property of the body
  } else if (c.element == "mesh") {
    // Only how the mesh is loaded or collides, or (inertia) how an inertia is computed from it:
    // safe when no geom an inertia comes from uses the mesh, or the value is 2.2.2's own ("legacy").
    XMLElement* world = s.root->FirstChildElement("worldbody");
    const std::vector<XMLElement*> geoms = world ? elements_named(world, "geom") : std::vector<XMLElement*>{};
    safe = std::all_of(carriers.begin(), carriers.end(), [&](XMLElement* m) {
      if (attribute == "maxhullvert" || attribute == "content_type") return true;
      if (attribute == "inertia" && attr(m, "inertia") == "legacy") return true;
      const std::string mesh = m->Attribute("name") ? attr(m, "name") : fs::path(attr(m, "file")).stem().string();
      return std::none_of(geoms.begin(), geoms.end(),
                          [&](XMLElement* g) { return attr(g, "mesh") == mesh && geom_carries_inertia(s, g); });
    });
  }
  if (!safe) {
    s.refusal = where(s.path, first) + ": " + what +
                " is not known to Debian's MuJoCo 2.2.2 and may change the tree or the inertias; dynid cannot read "
                "this file (docs/mjcf.md)";
    return false;
  }
  for (XMLElement* e : carriers) {
    if (c.kind == Complaint::Element)
      remove(e);
    else
      e->DeleteAttribute(attribute.c_str());
  }
  s.warnings.push_back(what + " dropped (" + std::to_string(carriers.size()) +
                       (carriers.size() == 1 ? " place" : " places") +
                       "): MuJoCo 2.2.2 does not know it, and it cannot change the tree or the inertias");
  s.refusal.clear();
  return true;
}

const std::string& MjcfCompat::refusal() const { return state_->refusal; }
const std::vector<std::string>& MjcfCompat::warnings() const { return state_->warnings; }
const std::map<std::string, double>& MjcfCompat::effort_limits() const { return state_->effort_limits; }
const std::string& MjcfCompat::model_name() const { return state_->model_name; }

}  // namespace dynid
