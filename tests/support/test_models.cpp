#include "support/test_models.hpp"

#include <gtest/gtest.h>

#include <unistd.h>
#include <Eigen/Geometry>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace dynid::test {

namespace fs = std::filesystem;

namespace {

std::string v3(const Vector3& v) {
  std::ostringstream s;
  s.precision(17);
  s << v.x() << " " << v.y() << " " << v.z();
  return s.str();
}

}  // namespace

std::string random_tree_urdf(int num_links, unsigned seed, bool include_fixed, bool principal_tensors) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::uniform_real_distribution<double> pos(0.0, 1.0);
  std::ostringstream x;
  x.precision(17);
  x << "<?xml version=\"1.0\"?>\n<robot name=\"random_tree_" << seed << "\">\n";
  for (int i = 0; i < num_links; ++i) {
    // Box-shaped body: consistent principal moments, then rotated by a random inertial rpy and
    // written as a full tensor in a second random frame, so both code paths are exercised.
    const double m = 0.5 + 2.5 * pos(rng);
    const Vector3 dims(0.05 + 0.3 * pos(rng), 0.05 + 0.3 * pos(rng), 0.05 + 0.3 * pos(rng));
    const Vector3 principal(m / 12 * (dims.y() * dims.y() + dims.z() * dims.z()),
                            m / 12 * (dims.x() * dims.x() + dims.z() * dims.z()),
                            m / 12 * (dims.x() * dims.x() + dims.y() * dims.y()));
    const Matrix3 R = principal_tensors ? Matrix3::Identity() : rotation_from_rpy(Vector3(u(rng), u(rng), u(rng)));
    const Matrix3 I = R * principal.asDiagonal() * R.transpose();
    x << "  <link name=\"link" << i << "\">\n    <inertial>\n      <origin xyz=\""
      << v3(Vector3(0.1 * u(rng), 0.1 * u(rng), 0.1 * u(rng))) << "\" rpy=\"" << v3(Vector3(u(rng), u(rng), u(rng)))
      << "\"/>\n      <mass value=\"" << m << "\"/>\n      <inertia ixx=\"" << I(0, 0) << "\" ixy=\"" << I(0, 1)
      << "\" ixz=\"" << I(0, 2) << "\" iyy=\"" << I(1, 1) << "\" iyz=\"" << I(1, 2) << "\" izz=\"" << I(2, 2)
      << "\"/>\n    </inertial>\n  </link>\n";
  }
  for (int i = 1; i < num_links; ++i) {
    std::uniform_int_distribution<int> parent_dist(std::max(0, i - 6), i - 1);
    const int parent = parent_dist(rng);
    const double kind = pos(rng);
    std::string type = kind < 0.45 ? "revolute" : kind < 0.65 ? "continuous" : kind < 0.85 ? "prismatic" : "fixed";
    if (!include_fixed && type == "fixed") type = "revolute";
    Vector3 axis;
    if (pos(rng) < 0.5) {
      axis = Vector3::Unit(static_cast<int>(3 * pos(rng)) % 3);
    } else {
      axis = Vector3(u(rng), u(rng), u(rng)).normalized();
    }
    x << "  <joint name=\"joint" << i << "\" type=\"" << type << "\">\n    <parent link=\"link" << parent
      << "\"/>\n    <child link=\"link" << i << "\"/>\n    <origin xyz=\""
      << v3(Vector3(0.3 * u(rng), 0.3 * u(rng), 0.3 * u(rng))) << "\" rpy=\"" << v3(Vector3(u(rng), u(rng), u(rng)))
      << "\"/>\n";
    if (type != "fixed") x << "    <axis xyz=\"" << v3(axis) << "\"/>\n";
    if (type == "revolute") x << "    <limit lower=\"-2.5\" upper=\"2.5\" effort=\"100\" velocity=\"10\"/>\n";
    if (type == "prismatic") x << "    <limit lower=\"-0.4\" upper=\"0.4\" effort=\"300\" velocity=\"2\"/>\n";
    x << "  </joint>\n";
  }
  x << "</robot>\n";
  return x.str();
}

std::vector<std::string> bundled_robots() {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(DYNID_MODELS_DIR))
    if (e.path().extension() == ".urdf") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

Robot bundled_robot(const std::string& stem) {
  return load_robot(std::string(DYNID_MODELS_DIR) + "/" + stem + ".urdf");
}

double relative_error(const MatrixX& a, const MatrixX& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return std::numeric_limits<double>::infinity();
  return (a - b).norm() / std::max(1.0, b.norm());
}

std::string write_temp_file(const std::string& text, const std::string& suffix) {
  static std::atomic<int> counter{0};
  const fs::path dir = fs::temp_directory_path() / ("dynid_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path path = dir / ("file" + std::to_string(counter++) + suffix);
  std::ofstream(path) << text;
  return path.string();
}

MjModelPtr load_mujoco(const std::string& xml, const std::string& suffix) {
  const std::string path = write_temp_file(xml, suffix);
  char error[1000] = "";
  mjModel* m = mj_loadXML(path.c_str(), nullptr, error, sizeof(error));
  EXPECT_NE(m, nullptr) << "MuJoCo could not load the model: " << error;
  return MjModelPtr(m);
}

}  // namespace dynid::test
