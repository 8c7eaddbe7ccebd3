#pragma once
// The Eigen types every layer of dynid speaks in (double precision, fixed sizes where the size is
// known): 3-vectors and rotations, 6-D spatial vectors and their 6x6 operators, dynamic vectors.

#include <Eigen/Core>

namespace dynid {

using Vector3 = Eigen::Vector3d;
using Matrix3 = Eigen::Matrix3d;
using Vector6 = Eigen::Matrix<double, 6, 1>;
using Matrix6 = Eigen::Matrix<double, 6, 6>;
using VectorX = Eigen::VectorXd;
using MatrixX = Eigen::MatrixXd;

}  // namespace dynid
