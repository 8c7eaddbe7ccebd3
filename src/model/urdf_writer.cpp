#include "dynid/model/urdf_writer.hpp"

#include <tinyxml2.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <map>
#include <sstream>
#include <stdexcept>

#include "dynid/core/atomic_file.hpp"

#include "dynid/core/number_format.hpp"
#include "dynid/model/urdf_from_model.hpp"

namespace dynid {
namespace {

/// A value in a change line a person reads (the file itself has format_exact's digits).
std::string readable(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", x);
  return text;
}

/// Inertial frame rotation of an existing <inertial> (identity when absent), so rewritten values
/// keep the user's inertial axes.
Matrix3 inertial_rotation(const tinyxml2::XMLElement* inertial) {
  if (!inertial) return Matrix3::Identity();
  const tinyxml2::XMLElement* origin = inertial->FirstChildElement("origin");
  if (!origin || !origin->Attribute("rpy")) return Matrix3::Identity();
  std::istringstream s(origin->Attribute("rpy"));
  Vector3 rpy = Vector3::Zero();
  s >> rpy.x() >> rpy.y() >> rpy.z();
  return rotation_from_rpy(rpy);
}

void set_inertial(tinyxml2::XMLDocument& doc, tinyxml2::XMLElement* link, const Inertia& in_link_frame) {
  tinyxml2::XMLElement* inertial = link->FirstChildElement("inertial");
  const Matrix3 R = inertial_rotation(inertial);
  if (!inertial) {
    inertial = doc.NewElement("inertial");
    link->InsertFirstChild(inertial);
  }
  const Matrix3 I = R.transpose() * in_link_frame.inertia_com() * R;
  auto child = [&](const char* name) {
    tinyxml2::XMLElement* e = inertial->FirstChildElement(name);
    if (!e) e = inertial->InsertEndChild(doc.NewElement(name))->ToElement();
    return e;
  };
  tinyxml2::XMLElement* origin = child("origin");
  origin->SetAttribute("xyz", format_exact(in_link_frame.com()).c_str());
  origin->SetAttribute("rpy", format_exact(rpy_from_rotation(R)).c_str());
  child("mass")->SetAttribute("value", format_exact(in_link_frame.mass).c_str());
  tinyxml2::XMLElement* inertia = child("inertia");
  inertia->SetAttribute("ixx", format_exact(I(0, 0)).c_str());
  inertia->SetAttribute("ixy", format_exact(I(0, 1)).c_str());
  inertia->SetAttribute("ixz", format_exact(I(0, 2)).c_str());
  inertia->SetAttribute("iyy", format_exact(I(1, 1)).c_str());
  inertia->SetAttribute("iyz", format_exact(I(1, 2)).c_str());
  inertia->SetAttribute("izz", format_exact(I(2, 2)).c_str());
}

Vector3 parse_vector(const tinyxml2::XMLElement* e, const char* attribute, const Vector3& absent) {
  if (!e || !e->Attribute(attribute)) return absent;
  std::istringstream s(e->Attribute(attribute));
  Vector3 v = absent;
  s >> v.x() >> v.y() >> v.z();
  return v;
}

/// Moves the joint origins and axes of the file to the model's where they differ (a simulator's true
/// geometry, sim/geometry_perturbation.hpp); a model read from the file leaves every joint as it is.
void set_joint_geometry(tinyxml2::XMLDocument& doc, tinyxml2::XMLElement* robot, const Model& model,
                        UrdfWriteReport& report) {
  std::map<std::string, tinyxml2::XMLElement*> joints;
  for (tinyxml2::XMLElement* j = robot->FirstChildElement("joint"); j; j = j->NextSiblingElement("joint"))
    joints[j->Attribute("name") ? j->Attribute("name") : ""] = j;
  std::map<std::string, const LinkRecord*> links;
  for (const LinkRecord& l : model.links) links[l.name] = &l;
  for (std::size_t b = 1; b < model.bodies.size(); ++b) {
    const Body& body = model.bodies[b];
    if (body.joint_type != JointType::Revolute && body.joint_type != JointType::Prismatic) continue;
    const auto child = links.find(body.name);
    if (child == links.end() || !joints.count(body.joint_name)) continue;
    const auto parent = links.find(child->second->parent_link);
    if (parent == links.end()) continue;
    tinyxml2::XMLElement* joint = joints[body.joint_name];
    // The URDF origin is in the parent link's frame, dynid's joint placement in the parent body's.
    const SE3 origin = parent->second->placement_in_body.inverse() * body.joint_placement;
    tinyxml2::XMLElement* origin_el = joint->FirstChildElement("origin");
    const Vector3 file_xyz = parse_vector(origin_el, "xyz", Vector3::Zero());
    const double moved = (origin.translation - file_xyz).norm();
    if (moved > 1e-12 * (1.0 + file_xyz.norm())) {
      if (!origin_el) origin_el = joint->InsertFirstChild(doc.NewElement("origin"))->ToElement();
      origin_el->SetAttribute("xyz", format_exact(origin.translation).c_str());
      report.changes.push_back("joint '" + body.joint_name + "': origin moved by " + format_exact(1e3 * moved) + " mm");
    }
    tinyxml2::XMLElement* axis_el = joint->FirstChildElement("axis");
    const Vector3 file_axis = parse_vector(axis_el, "xyz", Vector3::UnitX()).normalized();
    const double turned = std::acos(std::clamp(file_axis.dot(body.axis.normalized()), -1.0, 1.0));
    if (turned > 1e-12) {
      if (!axis_el) axis_el = joint->InsertEndChild(doc.NewElement("axis"))->ToElement();
      axis_el->SetAttribute("xyz", format_exact(Vector3(body.axis.normalized())).c_str());
      report.changes.push_back("joint '" + body.joint_name + "': axis turned by " +
                               format_exact(turned * 180.0 / 3.14159265358979323846) + " deg");
    }
  }
}

bool same(const Inertia& a, const Inertia& b) {
  return (a.to_parameters() - b.to_parameters()).norm() <= 1e-14 * (1.0 + b.to_parameters().norm());
}

/// Joints the model has locked (lock_joints): a moving URDF joint whose child link rides on its
/// parent's body. Written as fixed joints at the lock position (their origin now includes the
/// joint's motion there), so the file reads back as the locked model.
void write_locked_joints(tinyxml2::XMLDocument& doc, tinyxml2::XMLElement& robot, const Model& model,
                         const std::string& path, UrdfWriteReport& report) {
  std::map<std::string, const LinkRecord*> record;
  for (const LinkRecord& l : model.links) record[l.name] = &l;
  for (tinyxml2::XMLElement* j = robot.FirstChildElement("joint"); j; j = j->NextSiblingElement("joint")) {
    const tinyxml2::XMLElement* child = j->FirstChildElement("child");
    const char* type = j->Attribute("type");
    if (!child || !child->Attribute("link") || !type || std::string(type) == "fixed") continue;
    const auto it = record.find(child->Attribute("link"));
    if (it == record.end()) continue;
    const LinkRecord& l = *it->second;
    if (l.body <= 0 || model.bodies[static_cast<std::size_t>(l.body)].name == l.name) continue;  // still moves
    const auto parent = record.find(l.parent_link);
    if (parent == record.end() || parent->second->body != l.body)
      throw std::runtime_error(path + ": joint '" + l.parent_joint +
                               "' is locked but its parent link is not on its body");
    const SE3 origin = parent->second->placement_in_body.inverse() * l.placement_in_body;
    const std::string was = type;
    j->SetAttribute("type", "fixed");
    tinyxml2::XMLElement* o = j->FirstChildElement("origin");
    if (!o) o = j->InsertFirstChild(doc.NewElement("origin"))->ToElement();
    o->SetAttribute("xyz", format_exact(origin.translation).c_str());
    o->SetAttribute("rpy", format_exact(rpy_from_rotation(origin.rotation)).c_str());
    for (const char* drop : {"axis", "limit", "dynamics", "calibration", "safety_controller", "mimic"})
      while (tinyxml2::XMLElement* e = j->FirstChildElement(drop)) j->DeleteChild(e);
    const std::string note = " dynid: joint '" + l.parent_joint + "' (" + was +
                             ") locked in the identification: fixed at its lock position, its child's inertia part "
                             "of the identified body ";
    tinyxml2::XMLNode* comment = doc.NewComment(note.c_str());
    if (tinyxml2::XMLNode* before = j->PreviousSibling())
      robot.InsertAfterChild(before, comment);
    else
      robot.InsertFirstChild(comment);
    report.changes.push_back("joint '" + l.parent_joint + "': locked, written as a fixed joint");
  }
}

}  // namespace

UrdfWriteReport write_urdf_inertials(const Model& model, const std::string& original_urdf_path) {
  tinyxml2::XMLDocument doc;
  if (doc.LoadFile(original_urdf_path.c_str()) != tinyxml2::XML_SUCCESS)
    throw std::runtime_error(original_urdf_path + ": cannot read the URDF (" + std::string(doc.ErrorStr()) + ")");
  if (doc.FirstChildElement("mujoco")) {
    // An MJCF model: no URDF to edit, the identified model is written whole (model/urdf_from_model.hpp).
    UrdfWriteReport report;
    report.urdf = urdf_from_model(model, "dynid: written from the model read from " + original_urdf_path +
                                             " (MJCF): one link per dynid body, its whole inertia");
    report.changes.push_back("written from the model (the input is MJCF): one link per body");
    return report;
  }
  tinyxml2::XMLElement* robot = doc.FirstChildElement("robot");
  if (!robot) throw std::runtime_error(original_urdf_path + ": no <robot> element");
  std::map<std::string, tinyxml2::XMLElement*> elements;
  for (tinyxml2::XMLElement* l = robot->FirstChildElement("link"); l; l = l->NextSiblingElement("link"))
    elements[l->Attribute("name") ? l->Attribute("name") : ""] = l;

  UrdfWriteReport report;
  for (std::size_t b = 1; b < model.bodies.size(); ++b) {
    const Body& body = model.bodies[b];
    const LinkRecord* main = nullptr;
    Inertia merged_others;  // merged fixed links' inertias, body frame
    std::vector<const LinkRecord*> others;
    for (const LinkRecord& l : model.links) {
      if (l.body != static_cast<int>(b)) continue;
      if (l.name == body.name) {
        main = &l;
      } else {
        others.push_back(&l);
        if (l.has_inertial) merged_others += l.inertia.transformed(l.placement_in_body);
      }
    }
    if (!main || !elements.count(main->name))
      throw std::runtime_error(original_urdf_path + ": link '" + body.name + "' of the model is not in the file");
    tinyxml2::XMLElement* main_el = elements[main->name];

    const Inertia main_in_body = body.inertia - merged_others;
    const Inertia main_new = main_in_body.transformed(main->placement_in_body.inverse());
    const bool others_have_mass = merged_others.mass > 0.0;
    const bool remainder_ok = main_new.mass == 0.0 || check_physical_consistency(main_new).consistent;
    if (!others_have_mass || remainder_ok) {
      const bool unchanged =
          main->has_inertial ? same(main_new, main->inertia) : main_new.mass == 0.0 && main_new.inertia.isZero();
      if (!unchanged) {
        set_inertial(doc, main_el, main_new);
        report.changes.push_back(main_new.mass == main->inertia.mass
                                     ? "link '" + main->name + "': inertia and centre of mass (mass kept, " +
                                           readable(main_new.mass) + " kg)"
                                     : "link '" + main->name + "': mass " + readable(main->inertia.mass) + " -> " +
                                           readable(main_new.mass) + " kg");
      }
      continue;
    }
    // Fold: the main link carries the whole body; merged links lose their inertial.
    set_inertial(doc, main_el, body.inertia.transformed(main->placement_in_body.inverse()));
    std::string emptied;
    for (const LinkRecord* o : others) {
      if (!o->has_inertial) continue;
      tinyxml2::XMLElement* e = elements[o->name];
      if (tinyxml2::XMLElement* in = e ? e->FirstChildElement("inertial") : nullptr) e->DeleteChild(in);
      emptied += (emptied.empty() ? "'" : ", '") + o->name + "'";
    }
    // Said in the file, where a reader of the URDF looks for why those links have no inertial.
    const std::string note = " dynid: link '" + main->name + "' carries the whole identified body (mass " +
                             format_exact(body.inertia.mass) + " kg): what remained for it after the inertials of " +
                             emptied + ", fixed to it, was not a physical body, so their inertials were removed ";
    if (tinyxml2::XMLNode* before = main_el->PreviousSibling())
      robot->InsertAfterChild(before, doc.NewComment(note.c_str()));
    else
      robot->InsertFirstChild(doc.NewComment(note.c_str()));
    report.changes.push_back("link '" + main->name + "': carries the whole identified body (mass " +
                             readable(body.inertia.mass) + " kg); inertials of the links fixed to it were removed");
  }
  set_joint_geometry(doc, robot, model, report);
  write_locked_joints(doc, *robot, model, original_urdf_path, report);
  tinyxml2::XMLPrinter printer;
  doc.Print(&printer);
  report.urdf = printer.CStr();
  return report;
}

UrdfWriteReport write_urdf_file(const Model& model, const std::string& original_urdf_path,
                                const std::string& output_path) {
  std::error_code ec;
  if (std::filesystem::equivalent(original_urdf_path, output_path, ec))
    throw std::runtime_error(output_path + ": refusing to overwrite the input URDF");
  UrdfWriteReport report = write_urdf_inertials(model, original_urdf_path);
  write_file_atomically(output_path, report.urdf);
  return report;
}

}  // namespace dynid
