#include "dynid/spatial/inertia.hpp"

#include <Eigen/Eigenvalues>
#include <sstream>

namespace dynid {

ConsistencyReport check_physical_consistency(const Inertia& body, double tolerance) {
  ConsistencyReport report;
  std::ostringstream why;
  if (!(body.mass > 0.0)) {
    why << "mass " << body.mass << " kg is not positive";
    report.consistent = false;
    report.reason = why.str();
    return report;
  }
  const Matrix3 I_com = body.inertia_com();
  const Matrix3 sym = 0.5 * (I_com + I_com.transpose());
  if ((sym - I_com).norm() > 1e-9 * (1.0 + sym.norm())) {
    report.consistent = false;
    report.reason = "inertia tensor is not symmetric";
    return report;
  }
  Eigen::SelfAdjointEigenSolver<Matrix3> eig(sym, Eigen::EigenvaluesOnly);
  const Vector3 l = eig.eigenvalues();  // ascending
  const double scale = std::max(std::abs(l[2]), 1e-300);
  if (!(l[0] > tolerance * scale)) {
    why << "rotational inertia at the COM is not positive definite (principal moments " << l[0] << ", " << l[1] << ", "
        << l[2] << " kg m^2)";
    report.consistent = false;
  } else if (!(l[0] + l[1] > l[2] * (1.0 + tolerance))) {
    why << "principal moments " << l[0] << ", " << l[1] << ", " << l[2]
        << " kg m^2 violate the triangle inequality (no real body has them)";
    report.consistent = false;
  }
  report.reason = why.str();
  return report;
}

}  // namespace dynid
