#include "dynid/ident/sensor_projection.hpp"

#include <Eigen/QR>
#include <Eigen/SVD>
#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "dynid/dynamics/jacobian.hpp"

namespace dynid {
namespace {

std::vector<int> contact_frames(const Model& model, const RobotSidecar& sidecar) {
  std::vector<int> frames;
  for (const ContactSurface& c : sidecar.contacts) frames.push_back(model.frame_index(c.name));
  return frames;
}

std::vector<int> joint_bodies(const Model& model) {
  std::vector<int> bodies;
  for (std::size_t i = 1; i < model.bodies.size(); ++i)
    if (model.bodies[i].joint_type != JointType::FreeFlyer) bodies.push_back(static_cast<int>(i));
  return bodies;
}

int rank_of(const MatrixX& M) {
  if (M.size() == 0) return 0;
  Eigen::ColPivHouseholderQR<MatrixX> qr(M);
  qr.setThreshold(1e-10);
  return static_cast<int>(qr.rank());
}

}  // namespace

SensorSet parse_sensor_set(const Model& model, const RobotSidecar& sidecar, const std::string& spec) {
  SensorSet set;
  set.label = spec;
  const std::vector<int> contacts = contact_frames(model, sidecar);
  if (spec == "full" || spec == "joints") set.torque_joints = joint_bodies(model);
  if (spec == "full" || spec == "contact") set.contact_frames = contacts;
  if (spec == "full" || spec == "joints" || spec == "contact") return set;
  std::stringstream s(spec);
  std::string name;
  while (std::getline(s, name, ',')) {
    if (name.empty()) continue;
    if (const auto j = model.find_joint(name);
        j && model.bodies[static_cast<std::size_t>(*j)].joint_type != JointType::FreeFlyer) {
      set.torque_joints.push_back(*j);
      continue;
    }
    bool found = false;
    for (int f : contacts)
      if (model.frames[static_cast<std::size_t>(f)].name == name) {
        set.contact_frames.push_back(f);
        found = true;
      }
    if (!found)
      throw std::invalid_argument("sensor '" + name + "' is neither a joint of " + model.name +
                                  " nor a contact of its sidecar (use full, contact, joints, minimal, or names)");
  }
  return set;
}

SensorProjection project_sensors(const Model& model, Data& data, const VectorX& q, const SensorSet& set,
                                 const std::vector<int>& active_contacts) {
  forward_kinematics(model, data, q);
  const int nv = model.nv;
  std::vector<Eigen::VectorXd> measured, unmeasured;
  SensorProjection out;
  for (int b : joint_bodies(model)) {
    VectorX column = VectorX::Zero(nv);
    column[model.bodies[static_cast<std::size_t>(b)].idx_v] = 1.0;  // S^T e_j
    if (std::find(set.torque_joints.begin(), set.torque_joints.end(), b) != set.torque_joints.end()) {
      measured.push_back(column);
      out.measured_names.push_back(model.bodies[static_cast<std::size_t>(b)].joint_name);
    } else {
      unmeasured.push_back(column);
    }
  }
  Matrix6X J(6, nv);
  static const char* const kAxes[6] = {"fx", "fy", "fz", "tx", "ty", "tz"};
  for (int f : active_contacts) {
    frame_jacobian(model, data, f, ReferenceFrame::Local, J);
    const bool is_measured =
        std::find(set.contact_frames.begin(), set.contact_frames.end(), f) != set.contact_frames.end();
    for (int k = 0; k < 6; ++k) {
      if (is_measured) {
        measured.push_back(J.row(k).transpose());
        out.measured_names.push_back(model.frames[static_cast<std::size_t>(f)].name + "." + kAxes[k]);
      } else {
        unmeasured.push_back(J.row(k).transpose());
      }
    }
  }
  out.measured_map.resize(nv, static_cast<Eigen::Index>(measured.size()));
  for (std::size_t k = 0; k < measured.size(); ++k) out.measured_map.col(static_cast<Eigen::Index>(k)) = measured[k];
  MatrixX Ax(nv, static_cast<Eigen::Index>(unmeasured.size()));
  for (std::size_t k = 0; k < unmeasured.size(); ++k) Ax.col(static_cast<Eigen::Index>(k)) = unmeasured[k];

  if (Ax.cols() == 0) {
    out.projector = MatrixX::Identity(nv, nv);
  } else {
    // Null space of A_x^T: the left singular vectors beyond A_x's rank (eq. 22).
    Eigen::JacobiSVD<MatrixX> svd(Ax, Eigen::ComputeFullU);
    const VectorX& sv = svd.singularValues();
    int r = 0;
    while (r < sv.size() && sv[r] > 1e-10 * std::max(1.0, sv[0])) ++r;
    out.unmeasured_rank = r;
    out.projector = svd.matrixU().rightCols(nv - r).transpose();
  }
  out.base_rank = model.floating_base ? rank_of(out.projector.leftCols(6)) : 6;
  return out;
}

}  // namespace dynid
