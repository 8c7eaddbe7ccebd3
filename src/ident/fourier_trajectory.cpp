#include "dynid/ident/fourier_trajectory.hpp"

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

namespace dynid {

using json = nlohmann::json;

double FourierTrajectory::omega() const { return 2.0 * M_PI * base_frequency_hz; }

void FourierTrajectory::evaluate(double t, Eigen::Ref<VectorX> q, Eigen::Ref<VectorX> qd,
                                 Eigen::Ref<VectorX> qdd) const {
  const double w = omega();
  q = q0;
  qd.setZero();
  qdd.setZero();
  for (int l = 1; l <= harmonics(); ++l) {
    const double wl = w * l, s = std::sin(wl * t), c = std::cos(wl * t);
    for (int j = 0; j < num_joints(); ++j) {
      const double aj = a(j, l - 1), bj = b(j, l - 1);
      q[j] += (aj * s - bj * c) / wl;
      qd[j] += aj * c + bj * s;
      qdd[j] += wl * (bj * c - aj * s);
    }
  }
}

double FourierTrajectory::position_bound(int j) const {
  double sum = 0.0;
  for (int l = 1; l <= harmonics(); ++l) sum += std::hypot(a(j, l - 1), b(j, l - 1)) / (omega() * l);
  return sum;
}

double FourierTrajectory::velocity_bound(int j) const {
  double sum = 0.0;
  for (int l = 1; l <= harmonics(); ++l) sum += std::hypot(a(j, l - 1), b(j, l - 1));
  return sum;
}

double FourierTrajectory::acceleration_bound(int j) const {
  double sum = 0.0;
  for (int l = 1; l <= harmonics(); ++l) sum += std::hypot(a(j, l - 1), b(j, l - 1)) * omega() * l;
  return sum;
}

json to_json(const FourierTrajectory& traj, double duration_s, double sample_rate_hz, const json& extra) {
  json out{{"format", "dynid-excitation"},
           {"version", 1},
           {"base_frequency_hz", traj.base_frequency_hz},
           {"period_s", 1.0 / traj.base_frequency_hz},
           {"harmonics", traj.harmonics()},
           {"duration_s", duration_s}};
  json joints = json::array();
  for (int j = 0; j < traj.num_joints(); ++j) {
    json aj = json::array(), bj = json::array();
    for (int l = 0; l < traj.harmonics(); ++l) {
      aj.push_back(traj.a(j, l));
      bj.push_back(traj.b(j, l));
    }
    joints.push_back({{"name", traj.joints[static_cast<std::size_t>(j)]},
                      {"q0", traj.q0[j]},
                      {"a", aj},
                      {"b", bj},
                      {"position_bound", traj.position_bound(j)},
                      {"velocity_bound", traj.velocity_bound(j)},
                      {"acceleration_bound", traj.acceleration_bound(j)}});
  }
  out["joints"] = joints;
  json held = json::array();
  for (const JointLock& l : traj.held) held.push_back({{"joint", l.joint}, {"position", l.position}});
  out["held_joints"] = held;
  for (const auto& [key, value] : extra.items()) out[key] = value;
  json columns = json::array({"t"});
  for (const std::string& n : traj.joints) columns.push_back(n);
  json rows = json::array();
  const int n = traj.num_joints();
  VectorX q(n), qd(n), qdd(n);
  const long count = static_cast<long>(std::floor(duration_s * sample_rate_hz + 1e-9)) + 1;
  for (long k = 0; k < count; ++k) {
    const double t = static_cast<double>(k) / sample_rate_hz;
    traj.evaluate(t, q, qd, qdd);
    json row = json::array({t});
    for (int j = 0; j < n; ++j) row.push_back(q[j]);
    rows.push_back(row);
  }
  out["samples"] = {{"rate_hz", sample_rate_hz}, {"columns", columns}, {"q", rows}};
  return out;
}

namespace {

double finite_number(const json& value, const std::string& what, const std::string& path) {
  if (!value.is_number() || !std::isfinite(value.get<double>()))
    throw std::runtime_error(path + ": " + what + " is not a finite number");
  return value.get<double>();
}

}  // namespace

FourierTrajectory read_fourier_trajectory(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read excitation trajectory " + path);
  json doc;
  try {
    doc = json::parse(in);
  } catch (const json::exception& e) {
    throw std::runtime_error(path + " is not JSON (" + std::string(e.what()) + ")");
  }
  if (!doc.is_object() || !doc.contains("format") || doc["format"] != "dynid-excitation")
    throw std::runtime_error(path + " is not a dynid excitation trajectory (\"format\": \"dynid-excitation\")");
  FourierTrajectory traj;
  if (!doc.contains("base_frequency_hz")) throw std::runtime_error(path + ": no base_frequency_hz");
  traj.base_frequency_hz = finite_number(doc["base_frequency_hz"], "base_frequency_hz", path);
  if (traj.base_frequency_hz <= 0.0) throw std::runtime_error(path + ": base_frequency_hz must be positive");
  if (!doc.contains("joints") || !doc["joints"].is_array() || doc["joints"].empty())
    throw std::runtime_error(path + ": no joints");
  const json& joints = doc["joints"];
  const auto n = static_cast<Eigen::Index>(joints.size());
  Eigen::Index harmonics = -1;
  traj.q0.resize(n);
  for (Eigen::Index j = 0; j < n; ++j) {
    const json& joint = joints[static_cast<std::size_t>(j)];
    if (!joint.is_object() || !joint.contains("name") || !joint["name"].is_string())
      throw std::runtime_error(path + ": joint " + std::to_string(j) + " has no name");
    const std::string name = joint["name"].get<std::string>();
    for (const std::string& seen : traj.joints)
      if (seen == name) throw std::runtime_error(path + ": joint '" + name + "' appears twice");
    traj.joints.push_back(name);
    if (!joint.contains("q0") || !joint.contains("a") || !joint.contains("b") || !joint["a"].is_array() ||
        !joint["b"].is_array())
      throw std::runtime_error(path + ": joint '" + name + "' needs q0, a and b");
    traj.q0[j] = finite_number(joint["q0"], "q0 of '" + name + "'", path);
    const auto count = static_cast<Eigen::Index>(joint["a"].size());
    if (count == 0 || static_cast<Eigen::Index>(joint["b"].size()) != count || (harmonics >= 0 && count != harmonics))
      throw std::runtime_error(path + ": joint '" + name + "' has " + std::to_string(joint["a"].size()) + " a and " +
                               std::to_string(joint["b"].size()) + " b coefficients; every joint needs the same " +
                               "non-zero number of both");
    if (harmonics < 0) {
      harmonics = count;
      traj.a.resize(n, harmonics);
      traj.b.resize(n, harmonics);
    }
    for (Eigen::Index l = 0; l < harmonics; ++l) {
      traj.a(j, l) = finite_number(joint["a"][static_cast<std::size_t>(l)], "a of '" + name + "'", path);
      traj.b(j, l) = finite_number(joint["b"][static_cast<std::size_t>(l)], "b of '" + name + "'", path);
    }
  }
  if (doc.contains("held_joints")) {
    const json& held = doc["held_joints"];
    if (!held.is_array()) throw std::runtime_error(path + ": held_joints is not a list");
    for (const json& h : held) {
      if (!h.is_object() || !h.contains("joint") || !h["joint"].is_string() || !h.contains("position"))
        throw std::runtime_error(path + ": every held joint needs a joint name and a position");
      const std::string name = h["joint"].get<std::string>();
      traj.held.push_back({name, finite_number(h["position"], "position of held joint '" + name + "'", path)});
    }
  }
  return traj;
}

}  // namespace dynid
