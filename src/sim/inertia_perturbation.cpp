#include "dynid/sim/inertia_perturbation.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <cmath>
#include <numbers>
#include <random>

#include "dynid/core/random_draws.hpp"

namespace dynid {

std::vector<BodyInertiaError> perturb_inertia(Model& model, unsigned seed) {
  std::mt19937 rng(seed * 2246822519u + 7u);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<BodyInertiaError> out;
  for (std::size_t i = 1; i < model.bodies.size(); ++i) {
    Body& b = model.bodies[i];
    if (!(b.inertia.mass > 0.0)) continue;
    const Matrix3 Ic = b.inertia.inertia_com();
    const Matrix3 spread = 0.5 * Ic.trace() * Matrix3::Identity() - Ic;  // Σ = ∫ρ r rᵀ about the COM
    Eigen::SelfAdjointEigenSolver<Matrix3> eig(spread);
    BodyInertiaError e;
    e.body = b.name;
    e.spread_scale = Vector3::Ones() + kInertiaSpreadTolerance * draw_vector3(u, rng);
    const Vector3 axis = draw_vector3(u, rng).normalized();
    const double angle = kInertiaAxesToleranceDeg * std::numbers::pi / 180.0 * 0.5 * (1.0 + u(rng));
    e.axes_rotation_rad = angle;
    const Matrix3 R = Eigen::AngleAxisd(angle, axis).toRotationMatrix();
    const Matrix3 V = R * eig.eigenvectors();
    const Vector3 s = eig.eigenvalues().cwiseMax(0.0).cwiseProduct(e.spread_scale);
    const Matrix3 true_spread = V * s.asDiagonal() * V.transpose();
    Matrix3 true_Ic = true_spread.trace() * Matrix3::Identity() - true_spread;
    true_Ic = 0.5 * (true_Ic + true_Ic.transpose());
    e.inertia_change = (true_Ic - Ic).norm() / std::max(Ic.norm(), 1e-300);
    b.inertia = Inertia::from_com(b.inertia.mass, b.inertia.com(), true_Ic);
    out.push_back(e);
  }
  return out;
}

}  // namespace dynid
