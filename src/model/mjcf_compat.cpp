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

/// Marks an <attach> copied by a <replicate>: the suffix its names take (expand_attach).
constexpr const char* kAttachSuffix = "dynid-replicate-suffix";

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

/// The default classes `element` draws from, nearest first: its own class (else the nearest
/// childclass of its bodies, else main), then that class's ancestors.
std::vector<const XMLElement*> class_chain(const XMLElement* element,
                                           const std::map<std::string, XMLElement*>& classes) {
  std::string cls = attr(element, "class");
  for (const XMLNode* p = element->Parent(); cls.empty() && p; p = p->Parent())
    if (const XMLElement* pe = p->ToElement(); pe && named(pe, "body")) cls = attr(pe, "childclass");
  if (cls.empty()) cls = "main";
  std::vector<const XMLElement*> chain;
  const auto it = classes.find(cls);
  for (const XMLElement* d = it == classes.end() ? nullptr : it->second; d && named(d, "default");
       d = d->Parent() ? d->Parent()->ToElement() : nullptr)
    chain.push_back(d);
  return chain;
}

/// The value `element` gets for `attribute`: its own, else its classes' (class_chain).
std::optional<std::string> resolved_attribute(XMLElement* element, const char* attribute,
                                              const std::map<std::string, XMLElement*>& classes) {
  if (const char* v = element->Attribute(attribute)) return v;
  for (const XMLElement* d : class_chain(element, classes))
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
  static const std::set<std::string> placed = {"body", "geom", "site", "camera", "light", "frame", "attach"};
  for (XMLElement* c = rep->FirstChildElement(); c; c = c->NextSiblingElement())
    if (!placed.count(c->Name()))
      fail(where(s.path, c), std::string("<") + c->Name() +
                                 "> inside <replicate> is not supported (dynid replicates bodies, geoms, sites, "
                                 "cameras, lights, frames and attachments)");
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
      for (XMLElement* e : named_elements) {
        if (const char* name = e->Attribute("name")) e->SetAttribute("name", (std::string(name) + suffix).c_str());
        // An <attach> in the copy: what it brings in takes the suffix too, after its prefixed names
        // (MuJoCo attaches each copy with the suffix: "other" + "body" + "0").
        if (named(e, "attach")) e->SetAttribute(kAttachSuffix, (attr(e, kAttachSuffix) + suffix).c_str());
      }
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

// <attach model="M" body="B" prefix="P"/> (MuJoCo >= 3.2) puts a copy of body B of the model file M
// (an <asset><model name="M" file="..."/>) at the attaching body or frame, as MuJoCo's parser
// (xml_native_reader.cc) and attachment (user_api.cc mjs_attach, user_objects.cc mjCFrame::operator+=
// and NameSpace, user_model.cc operator+=) do it:
//  - the child file is parsed on its own: its includes, replicates, attachments, compiler settings,
//    defaults and asset directories are its own; its path is relative to this file's directory;
//  - B keeps its own pos and orientation, now relative to the attaching body or frame (a <frame> that
//    held B in the child is not carried: MuJoCo gives B the attaching frame instead);
//  - every name in the copy becomes prefix + name + suffix (the suffix of a <replicate> around the
//    <attach>), and so do its references to the child's meshes, materials, height fields, classes;
//  - the child's default classes come along, its top-level one as class prefix + "main" under this
//    file's top-level default; MuJoCo applies defaults when it parses the child, so this file's
//    defaults never reach the copy and the child's never reach this file;
//  - each element of the copy is compiled with the child's compiler angle unit, eulerseq,
//    inertiafromgeom, bounds and autolimits (the element keeps its model's mjsCompiler);
//  - all the child's assets are copied in, prefixed (MuJoCo copies them whether used or not).
// MuJoCo 2.2.2 knows none of it: the copy is written into this file with its classes made explicit,
// its angles converted to this file's unit and sequence where they differ, and this file's top-level
// defaults undone for it (MuJoCo's own default values written into the copied top-level class).

void load_model(MjcfCompat::State& s, const std::string& path, std::vector<std::string> attaching);

struct ModelAsset {
  fs::path file;
  std::string at;
};

/// The <model> assets by name: the file relative to this file's directory (xml_native_reader.cc:
/// modelfiledir + file, not assetdir); without a name, the child's <mujoco model="..."> ("MuJoCo
/// Model", MuJoCo's default model name, when it has none). The first of a name wins (FindSpec).
std::map<std::string, ModelAsset> model_assets(const MjcfCompat::State& s, const fs::path& dir) {
  std::map<std::string, ModelAsset> out;
  for (XMLElement* m : elements_named(s.root, "model")) {
    if (!inside(m, "asset")) continue;
    const std::string at = where(s.path, m);
    const std::string file = attr(m, "file");
    if (file.empty()) fail(at, "<model> has no file attribute");
    const fs::path full = (fs::path(file).is_absolute() ? fs::path(file) : dir / file).lexically_normal();
    std::error_code ec;
    if (!fs::is_regular_file(full, ec)) fail(at, "<model> file " + full.string() + " does not exist");
    std::string name = attr(m, "name");
    if (name.empty()) {
      XMLDocument doc;
      load_xml(doc, full.string(), "model file of " + at);
      const XMLElement* r = doc.RootElement();
      name = r && r->Attribute("model") ? r->Attribute("model") : "MuJoCo Model";
    }
    out.emplace(name, ModelAsset{full, at});
  }
  return out;
}

/// The compiler settings MuJoCo applies per element with the element's own model's compiler, and
/// dynid cannot convert: the child's must equal this file's (MuJoCo's defaults when unset).
void check_compilers_agree(const MjcfCompat::State& s, const MjcfCompat::State& c, const std::string& at) {
  static const std::vector<std::pair<const char*, const char*>> settings = {
      {"inertiafromgeom", "auto"}, {"inertiagrouprange", "0 5"}, {"boundmass", "0"},
      {"boundinertia", "0"},       {"balanceinertia", "false"},  {"autolimits", "true"}};
  const auto same = [](const std::string& a, const std::string& b) {
    std::istringstream x(a), y(b);
    double u = 0.0, v = 0.0;
    bool numeric = false;
    while (x >> u) {
      if (!(y >> v) || u != v) return false;
      numeric = true;
    }
    return numeric ? (y >> v).fail() : a == b;
  };
  for (const auto& [name, fallback] : settings) {
    const std::string mine = compiler_attribute(s.root, name).value_or(fallback);
    const std::string theirs = compiler_attribute(c.root, name).value_or(fallback);
    if (!same(mine, theirs))
      fail(at, std::string("<compiler ") + name + "=\"" + theirs + "\"> of " + c.path +
                   " differs from this file's (\"" + mine +
                   "\"): MuJoCo compiles the attached elements with their own model's setting, which dynid " +
                   "does not reproduce (give both files the same)");
  }
}

/// What <attach> copies, in the child: body B (body="world": the world body itself), frame F, or,
/// with neither, the world body's contents.
XMLElement* attach_source(const MjcfCompat::State& c, const XMLElement* a, const std::string& at) {
  XMLElement* world = c.root->FirstChildElement("worldbody");
  if (!world) fail(at, "<attach>: " + c.path + " has no <worldbody>");
  const char* kind = a->Attribute("body") ? "body" : a->Attribute("frame") ? "frame" : nullptr;
  if (!kind || (std::string(kind) == "body" && attr(a, kind) == "world")) return world;
  for (XMLElement* e : elements_named(world, kind))
    if (attr(e, "name") == attr(a, kind)) return e;
  fail(at, std::string("<attach ") + kind + "=\"" + attr(a, kind) + "\">: no " + kind + " named '" + attr(a, kind) +
               "' in " + c.path);
}

/// The copy may hold what MuJoCo 2.2.2 reads in a body once frames are folded.
void check_attachable(const MjcfCompat::State& c, XMLElement* source) {
  static const std::set<std::string> kinds = {"worldbody", "body",   "joint", "freejoint", "geom",
                                              "site",      "camera", "light", "frame",     "inertial"};
  for (XMLElement* e : elements(source))
    if (!kinds.count(e->Name()))
      fail(where(c.path, e), std::string("<") + e->Name() +
                                 "> in an attached body is not supported (dynid attaches bodies, joints, geoms, sites, "
                                 "cameras, lights, frames and inertials)");
}

/// Every joint, geom, site, camera and light of the copy names its class (its own, else its bodies'
/// nearest childclass in the child, else "main"), and the bodies' childclass goes: nothing of the
/// attaching file's classes can then reach the copy.
void make_classes_explicit(XMLElement* source) {
  static const std::set<std::string> admits = {"joint", "geom", "site", "camera", "light"};
  std::vector<std::pair<XMLElement*, std::string>> classes;
  for (XMLElement* e : elements(source)) {
    if (!admits.count(e->Name()) || e->Attribute("class")) continue;
    std::string cls;
    for (const XMLNode* p = e->Parent(); cls.empty() && p; p = p->Parent())
      if (const XMLElement* pe = p->ToElement(); pe && named(pe, "body")) cls = attr(pe, "childclass");
    classes.emplace_back(e, cls.empty() ? "main" : cls);
  }
  for (const auto& [e, cls] : classes) e->SetAttribute("class", cls.c_str());
  for (XMLElement* e : elements(source)) e->DeleteAttribute("childclass");
}

std::string quat_text(const Eigen::Quaterniond& q) {
  std::ostringstream out;
  out.precision(17);
  out << q.w() << ' ' << q.x() << ' ' << q.y() << ' ' << q.z();
  return out.str();
}

/// The orientation attribute MuJoCo uses for `e` (ResolveOrientation): its own alternative (axisangle,
/// xyaxes, zaxis, euler), else its classes' nearest one (an alternative read from a default outlives
/// the element's own quat), else its own quat, else its classes'.
std::optional<std::pair<std::string, std::string>> orientation_source(
    XMLElement* e, const std::map<std::string, XMLElement*>& classes) {
  static const std::array<const char*, 4> alternatives = {"axisangle", "xyaxes", "zaxis", "euler"};
  for (const char* a : alternatives)
    if (e->Attribute(a)) return std::pair{std::string(a), attr(e, a)};
  const std::vector<const XMLElement*> chain = class_chain(e, classes);
  for (const XMLElement* d : chain)
    if (const XMLElement* x = d->FirstChildElement(e->Name()))
      for (const char* a : alternatives)
        if (x->Attribute(a)) return std::pair{std::string(a), attr(x, a)};
  if (const auto q = resolved_attribute(e, "quat", classes)) return std::pair{std::string("quat"), *q};
  return std::nullopt;
}

/// The child's angles in this file's unit and sequence: an euler or axisangle orientation becomes
/// the quat it means in the child; hinge (and ball) ranges, hinge ref and springref are scaled
/// (user_objects.cc converts them with the joint's own compiler). Values a class gave are written on
/// the element; the copied classes then lose their euler and axisangle (copy_defaults).
void convert_angles(const MjcfCompat::State& c, XMLElement* source, double from_unit, const std::string& from_seq,
                    double to_unit) {
  const std::map<std::string, XMLElement*> classes = default_classes(c.root);
  static const std::set<std::string> oriented = {"body", "geom", "site", "camera", "light", "frame", "inertial"};
  for (XMLElement* e : elements(source)) {
    const std::string at = where(c.path, e);
    if (oriented.count(e->Name())) {
      const auto src = orientation_source(e, classes);
      if (!src || (src->first != "euler" && src->first != "axisangle")) continue;
      Eigen::Quaterniond q;
      if (src->first == "euler") {
        const std::vector<double> v = numbers(src->second, 3, at, "euler");
        q = euler_rotation({v[0], v[1], v[2]}, from_unit, from_seq);
      } else {
        const std::vector<double> v = numbers(src->second, 4, at, "axisangle");
        q = Eigen::AngleAxisd(v[3] * from_unit, Eigen::Vector3d(v[0], v[1], v[2]).normalized());
      }
      for (const char* a : {"axisangle", "xyaxes", "zaxis", "euler"}) e->DeleteAttribute(a);
      e->SetAttribute("quat", quat_text(q).c_str());
    } else if (named(e, "joint")) {
      const std::string type = resolved_attribute(e, "type", classes).value_or("hinge");
      if (type != "hinge" && type != "ball") continue;
      for (const char* a : {"range", "ref", "springref"}) {
        if (type == "ball" && std::string(a) != "range") continue;
        const auto value = resolved_attribute(e, a, classes);
        if (!value) continue;
        std::vector<double> v = numbers(*value, std::string(a) == "range" ? 2 : 1, at, a);
        std::ostringstream out;
        out.precision(17);
        for (std::size_t i = 0; i < v.size(); ++i) out << (i ? " " : "") << v[i] * from_unit / to_unit;
        e->SetAttribute(a, out.str().c_str());
      }
    }
  }
}

std::string prefixed(const std::string& prefix, const std::string& name, const std::string& suffix) {
  return prefix + name + suffix;
}

/// MuJoCo's NameSpace on the copy: names, class and the references to the child's assets.
void namespace_copy(XMLElement* copy, const std::string& prefix, const std::string& suffix) {
  for (XMLElement* e : elements(copy))
    for (const char* a : {"name", "class", "mesh", "material", "hfield", "target"})
      if (const char* v = e->Attribute(a)) e->SetAttribute(a, prefixed(prefix, v, suffix).c_str());
}

/// Names MuJoCo keeps unique, by kind: worldbody elements, assets (a mesh or height field without a
/// name is known by its file's stem) and default classes.
std::map<std::string, std::set<std::string>> names_by_kind(XMLElement* root) {
  std::map<std::string, std::set<std::string>> out;
  for (XMLElement* e : elements(root)) {
    std::string kind = e->Name();
    if (kind == "freejoint") kind = "joint";
    if (kind == "default") {
      if (e->Attribute("class")) out["default class"].insert(attr(e, "class"));
    } else if (inside(e, "asset") && (kind == "mesh" || kind == "hfield") && !e->Attribute("name")) {
      out[kind].insert(fs::path(attr(e, "file")).stem().string());
    } else if (e->Attribute("name") && !inside(e, "default") && kind != "model") {
      out[kind].insert(attr(e, "name"));
    }
  }
  return out;
}

void check_unique_names(XMLElement* root, XMLElement* added, const std::string& at, const std::string& prefix) {
  std::map<std::string, std::set<std::string>> taken = names_by_kind(root);
  for (const auto& [kind, names] : names_by_kind(added))
    for (const std::string& n : names)
      if (taken[kind].count(n))
        fail(at, "<attach prefix=\"" + prefix + "\">: the attached " + kind + " '" + n +
                     "' has the name of one already in this model (MuJoCo: repeated name)");
}

/// MuJoCo's own defaults (user_init.c) for what this file's top-level default may set: written into
/// the copied top-level class, so that the copy gets MuJoCo's value, not this file's default.
const std::map<std::string, std::map<std::string, std::string>>& builtin_defaults() {
  static const std::string solref = "0.02 1", solimp = "0.9 0.95 0.001 0.5 2";
  static const std::map<std::string, std::map<std::string, std::string>> table = {
      {"joint",
       {{"type", "hinge"},
        {"group", "0"},
        {"pos", "0 0 0"},
        {"axis", "0 0 1"},
        {"limited", "auto"},
        {"range", "0 0"},
        {"ref", "0"},
        {"springref", "0"},
        {"stiffness", "0"},
        {"armature", "0"},
        {"damping", "0"},
        {"frictionloss", "0"},
        {"margin", "0"},
        {"solreflimit", solref},
        {"solimplimit", solimp},
        {"solreffriction", solref},
        {"solimpfriction", solimp},
        {"actuatorfrclimited", "auto"},
        {"actuatorfrcrange", "0 0"}}},
      {"geom",
       {{"type", "sphere"},
        {"contype", "1"},
        {"conaffinity", "1"},
        {"condim", "3"},
        {"group", "0"},
        {"priority", "0"},
        {"size", "0 0 0"},
        {"friction", "1 0.005 0.0001"},
        {"density", "1000"},
        {"solmix", "1"},
        {"solref", solref},
        {"solimp", solimp},
        {"margin", "0"},
        {"gap", "0"},
        {"pos", "0 0 0"},
        {"rgba", "0.5 0.5 0.5 1"},
        {"fitscale", "1"}}},
      {"site",
       {{"type", "sphere"},
        {"group", "0"},
        {"pos", "0 0 0"},
        {"size", "0.005 0.005 0.005"},
        {"rgba", "0.5 0.5 0.5 1"}}},
      {"mesh", {{"scale", "1 1 1"}, {"maxhullvert", "-1"}, {"inertia", "legacy"}}}};
  return table;
}

/// This file's top-level default undone in the copied top-level class `top`, for the kinds the copy
/// holds: each attribute it sets that the child's own top-level default does not gets MuJoCo's own
/// value; one without such a value (mass, fromto, an orientation, ...) is an error naming it.
void undo_top_level_default(const MjcfCompat::State& s, XMLElement* top, const std::set<std::string>& kinds,
                            const std::string& at) {
  const XMLElement* main = s.root->FirstChildElement("default");
  if (!main) return;
  for (const auto& [kind, builtin] : builtin_defaults()) {
    if (!kinds.count(kind)) continue;
    for (const XMLElement* d = main->FirstChildElement(kind.c_str()); d; d = d->NextSiblingElement(kind.c_str()))
      for (const tinyxml2::XMLAttribute* a = d->FirstAttribute(); a; a = a->Next()) {
        XMLElement* own = top->FirstChildElement(kind.c_str());
        if (own && own->Attribute(a->Name())) continue;
        const auto value = builtin.find(a->Name());
        if (value == builtin.end())
          fail(at, "this file's top-level <default> sets <" + kind + " " + a->Name() +
                       ">, which MuJoCo does not apply to attached elements, and dynid has no MuJoCo default to "
                       "give them instead (set it in a class)");
        if (!own) own = top->InsertFirstChild(top->GetDocument()->NewElement(kind.c_str()))->ToElement();
        own->SetAttribute(a->Name(), value->second.c_str());
      }
  }
}

/// The child's default classes under this file's top-level default: its top-level one as class
/// prefix + "main" + suffix, the others prefixed inside it (user_model.cc operator+=(mjCDef)).
void copy_defaults(MjcfCompat::State& s, const MjcfCompat::State& c, const std::string& prefix,
                   const std::string& suffix, bool strip_angles, const std::set<std::string>& kinds,
                   const std::string& at) {
  XMLElement* top = s.doc.NewElement("default");
  top->SetAttribute("class", prefixed(prefix, "main", suffix).c_str());
  for (const XMLElement* d = c.root->FirstChildElement("default"); d; d = d->NextSiblingElement("default"))
    for (const XMLElement* x = d->FirstChildElement(); x; x = x->NextSiblingElement())
      top->InsertEndChild(x->DeepClone(&s.doc));
  for (XMLElement* e : elements(top)) {
    if (e != top && named(e, "default")) e->SetAttribute("class", prefixed(prefix, attr(e, "class"), suffix).c_str());
    if (strip_angles && inside(e, "default") && !named(e, "default"))
      for (const char* a : {"euler", "axisangle"}) e->DeleteAttribute(a);
  }
  undo_top_level_default(s, top, kinds, at);
  check_unique_names(s.root, top, at, prefix);
  XMLElement* main = s.root->FirstChildElement("default");
  if (!main) main = s.root->InsertFirstChild(s.doc.NewElement("default"))->ToElement();
  main->InsertEndChild(top);
}

/// The child's assets, prefixed, into this file's <asset> (all of them, as MuJoCo copies them); a
/// mesh or material without a class takes the copied top-level class, as it took the child's.
void copy_assets(MjcfCompat::State& s, const MjcfCompat::State& c, const std::string& prefix, const std::string& suffix,
                 const std::string& at) {
  XMLElement* added = s.doc.NewElement("asset");
  for (const XMLElement* a = c.root->FirstChildElement("asset"); a; a = a->NextSiblingElement("asset"))
    for (const XMLElement* x = a->FirstChildElement(); x; x = x->NextSiblingElement()) {
      XMLElement* copy = added->InsertEndChild(x->DeepClone(&s.doc))->ToElement();
      if (!copy->Attribute("name") && copy->Attribute("file"))
        copy->SetAttribute("name", fs::path(attr(copy, "file")).stem().string().c_str());
      if ((named(copy, "mesh") || named(copy, "material")) && !copy->Attribute("class"))
        copy->SetAttribute("class", "main");
      for (const char* n : {"name", "class"})
        if (const char* v = copy->Attribute(n)) copy->SetAttribute(n, prefixed(prefix, v, suffix).c_str());
    }
  if (!added->FirstChildElement()) {
    s.doc.DeleteNode(added);
    return;
  }
  check_unique_names(s.root, added, at, prefix);
  XMLElement* assets = s.root->FirstChildElement("asset");
  if (!assets)
    assets = s.root->InsertAfterChild(s.root->FirstChildElement("default"), added)->ToElement();
  else {
    while (XMLElement* x = added->FirstChildElement()) assets->InsertEndChild(x);
    s.doc.DeleteNode(added);
  }
}

/// The copy of what <attach> names, as it goes into this file: body B, or the world's contents in
/// a frame (body="world": the world as a body named "world").
XMLElement* copy_of_source(MjcfCompat::State& s, XMLElement* source, const XMLElement* a) {
  if (!named(source, "worldbody")) return source->DeepClone(&s.doc)->ToElement();
  XMLElement* copy = s.doc.NewElement(a->Attribute("body") ? "body" : "frame");
  if (a->Attribute("body")) copy->SetAttribute("name", "world");
  for (const XMLElement* x = source->FirstChildElement(); x; x = x->NextSiblingElement())
    copy->InsertEndChild(x->DeepClone(&s.doc));
  return copy;
}

void expand_attach(MjcfCompat::State& s, XMLElement* a, const std::map<std::string, ModelAsset>& models,
                   const std::vector<std::string>& attaching) {
  const std::string at = where(s.path, a);
  for (const tinyxml2::XMLAttribute* x = a->FirstAttribute(); x; x = x->Next())
    if (!std::set<std::string>{"model", "body", "frame", "prefix", kAttachSuffix}.count(x->Name()))
      fail(at, std::string("<attach ") + x->Name() + "> is not an attribute dynid knows (model, body, frame, prefix)");
  if (!a->Attribute("model"))
    fail(at,
         "<attach> without model (attaching from this same file) is not supported by dynid: attach a <model> asset");
  if (!a->Attribute("prefix")) fail(at, "<attach> has no prefix (MuJoCo requires one)");
  if (a->Attribute("body") && a->Attribute("frame")) fail(at, "<attach> names both a body and a frame");
  const std::string model = attr(a, "model"), prefix = attr(a, "prefix"), suffix = attr(a, kAttachSuffix);
  const auto m = models.find(model);
  if (m == models.end()) fail(at, "<attach model=\"" + model + "\">: no <model name=\"" + model + "\"> asset");
  const std::string file = fs::weakly_canonical(m->second.file).string();
  if (std::find(attaching.begin(), attaching.end(), file) != attaching.end()) {
    std::string cycle;
    for (const std::string& f : attaching) cycle += f + " -> ";
    fail(at, "<attach model=\"" + model + "\"> makes a cycle: " + cycle + file);
  }
  std::vector<std::string> chain = attaching;
  chain.push_back(file);
  MjcfCompat::State c;
  load_model(c, m->second.file.string(), chain);
  check_compilers_agree(s, c, at);
  const auto [unit, seq] = angle_conventions(s);
  const auto [child_unit, child_seq] = angle_conventions(c);
  XMLElement* source = attach_source(c, a, at);
  check_attachable(c, source);
  make_classes_explicit(source);
  const bool convert = unit != child_unit || seq != child_seq;
  if (convert) convert_angles(c, source, child_unit, child_seq, unit);
  XMLElement* copy = copy_of_source(s, source, a);
  namespace_copy(copy, prefix, suffix);
  check_unique_names(s.root, copy, at, prefix);
  std::set<std::string> kinds = {"mesh"};
  for (XMLElement* e : elements(copy)) kinds.insert(e->Name());
  copy_defaults(s, c, prefix, suffix, convert, kinds, at);
  copy_assets(s, c, prefix, suffix, at);
  a->Parent()->InsertAfterChild(a, copy);
  remove(a);
  for (const std::string& w : c.warnings) s.warnings.push_back("attached " + c.path + ": " + w);
  for (const char* section : {"option", "size"})
    if (c.root->FirstChildElement(section))
      s.warnings.push_back("attached " + c.path + ": its <" + section +
                           "> is not used (MuJoCo keeps the attaching model's)");
}

void expand_attaches(MjcfCompat::State& s, const fs::path& dir, const std::vector<std::string>& attaching) {
  XMLElement* world = s.root->FirstChildElement("worldbody");
  const std::vector<XMLElement*> attaches = world ? elements_named(world, "attach") : std::vector<XMLElement*>{};
  const std::map<std::string, ModelAsset> models = model_assets(s, dir);
  for (XMLElement* a : attaches) expand_attach(s, a, models, attaching);
  for (XMLElement* m : elements_named(s.root, "model"))
    if (inside(m, "asset")) remove(m);
  if (!attaches.empty())
    s.warnings.push_back(std::to_string(attaches.size()) +
                         " <attach> element(s) expanded into the attached models' bodies (names prefixed, their own "
                         "classes, assets and angle units): MuJoCo 2.2.2 does not know <attach>");
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

/// Reads the file at `path` into `s` and applies every edit that comes before the frames are folded
/// (an attached model goes through this too, in its own State). `attaching`: the files whose
/// <attach> led here, for cycles.
void load_model(MjcfCompat::State& s, const std::string& path, std::vector<std::string> attaching) {
  s.path = path;
  load_xml(s.doc, path, "model file");
  s.root = s.doc.RootElement();
  if (!s.root || !named(s.root, "mujoco"))
    fail(path, std::string("root element <") + (s.root ? s.root->Name() : "") + ">, expected <mujoco> (MJCF)");
  s.model_name = s.root->Attribute("model") ? attr(s.root, "model") : fs::path(path).stem().string();
  const fs::path dir = fs::absolute(fs::path(path)).parent_path();
  if (attaching.empty()) attaching.push_back(fs::weakly_canonical(fs::absolute(fs::path(path))).string());
  inline_includes(s, dir);
  s.inertia_from_geom = compiler_attribute(s.root, "inertiafromgeom").value_or("auto");
  absolute_asset_paths(s, dir);
  drop_unused_sections(s);
  expand_replicates(s);
  expand_attaches(s, dir, attaching);
  const int childclasses = expand_frame_childclasses(s);
  if (childclasses > 0)
    s.warnings.push_back(std::to_string(childclasses) +
                         " <frame childclass> given to the elements below each frame (as MuJoCo >= 3.1 does) "
                         "before the frames are folded");
}

}  // namespace

MjcfCompat::MjcfCompat(const std::string& path) : state_(std::make_unique<State>()) {
  State& s = *state_;
  load_model(s, path, {});
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
    if (c.kind == Complaint::Element && e != s.root) carriers.push_back(e);  // the root is MuJoCo's own
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
    // Nor one that holds any of those (found by fuzzing: a <mujoco> nested in the model, with a
    // worldbody and bodies of its own).
    safe = !tree.count(c.element) && std::none_of(carriers.begin(), carriers.end(), [&](XMLElement* e) {
      return std::any_of(tree.begin(), tree.end(), [&](const std::string& t) { return !elements_named(e, t).empty(); });
    });
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
  if (c.kind == Complaint::Element) {
    // Only the outermost: an unknown element inside another goes with it (found by fuzzing: deleting
    // it again touched freed memory). Chosen before anything is deleted.
    std::vector<XMLElement*> outermost;
    for (XMLElement* e : carriers) {
      bool nested = false;
      for (const XMLNode* p = e->Parent(); p && !nested; p = p->Parent())
        nested = std::find(carriers.begin(), carriers.end(), p) != carriers.end();
      if (!nested) outermost.push_back(e);
    }
    for (XMLElement* e : outermost) remove(e);
  } else {
    for (XMLElement* e : carriers) e->DeleteAttribute(attribute.c_str());
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
