#include "dynid/ident/static_identification.hpp"

#include <Eigen/LU>
#include <Eigen/QR>
#include <Eigen/SVD>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>

#include "dynid/dynamics/center_of_mass.hpp"

namespace dynid {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

Inertia with_mass_and_com(const Inertia& reference, double mass, const Vector3& com) {
  // Rotational inertia about the COM scales with the mass (same shape, denser or lighter).
  const double ratio = reference.mass > 0.0 ? mass / reference.mass : 0.0;
  return Inertia::from_com(mass, com, reference.inertia_com() * ratio);
}

// Per pose, what the parameters act on: world pose of each segment and the fixed bodies' first moment.
struct PoseTerms {
  std::vector<Matrix3> R;  // per segment
  std::vector<Vector3> p;
  Vector3 fixed_moment = Vector3::Zero();  // sum over fixed bodies of m (p + R c), world [kg m]
};

}  // namespace

std::vector<int> default_static_segments(const Model& model) {
  static const char* const kKeys[] = {"pelvis", "torso",     "trunk",    "chest",   "thigh",     "shank", "shin",
                                      "calf",   "upper_arm", "upperarm", "forearm", "lower_arm", "hand"};
  std::vector<int> out;
  for (std::size_t i = 1; i < model.bodies.size(); ++i) {
    const Body& b = model.bodies[i];
    bool main = b.joint_type == JointType::FreeFlyer;
    std::vector<std::string> names = b.links;
    names.push_back(b.name);
    for (const std::string& n : names)
      for (const char* k : kKeys)
        if (lower(n).find(k) != std::string::npos) main = true;
    if (main && b.inertia.mass > 0.0) out.push_back(static_cast<int>(i));
  }
  return out;
}

Model scaled_model(const Model& model, double factor) {
  Model out = model;
  for (std::size_t i = 1; i < out.bodies.size(); ++i) {
    Inertia& I = out.bodies[i].inertia;
    I.mass *= factor;
    I.mc *= factor;
    I.inertia *= factor;
  }
  return out;
}

double gcom_error(const Model& model, const VectorX& q, const Vector3& cop) {
  Data data(model);
  center_of_mass(model, data, q);
  const Vector3 g = ground_projected_com(model, data.com);
  return (g - cop).head<2>().norm();
}

StaticIdentificationResult identify_static(const Model& nominal, const std::vector<MeasuredStaticPose>& poses,
                                           const StaticIdentificationOptions& options) {
  const double M = options.total_mass;
  if (!(M > 0.0) || !std::isfinite(M))
    throw std::invalid_argument("static identification: the weighed total mass must be positive");
  if (!(options.cop_sigma > 0.0) || !(options.mass_sigma > 0.0) || !(options.com_sigma > 0.0))
    throw std::invalid_argument("static identification: sigmas must be positive");
  const double ratio = M / nominal.total_mass();
  if (!(ratio > 0.5 && ratio < 2.0))
    throw std::invalid_argument("static identification: weighed mass " + std::to_string(M) +
                                " kg differs from the model's " + std::to_string(nominal.total_mass()) +
                                " kg by more than a factor 2 (units?)");
  std::vector<int> segments = options.segments.empty() ? default_static_segments(nominal) : options.segments;
  if (segments.empty()) throw std::invalid_argument(nominal.label() + ": no segments to identify (name them)");
  std::sort(segments.begin(), segments.end());
  segments.erase(std::unique(segments.begin(), segments.end()), segments.end());
  for (int s : segments)
    if (s <= 0 || s >= static_cast<int>(nominal.bodies.size()))
      throw std::invalid_argument("static identification: segment index " + std::to_string(s) +
                                  " is not a moving body");
  std::vector<const MeasuredStaticPose*> fit;
  for (const MeasuredStaticPose& pose : poses) {
    if (pose.q.size() != nominal.nq || !pose.q.allFinite() || !pose.cop.head<2>().allFinite() || !(pose.weight >= 0.0))
      throw std::invalid_argument("static pose '" + pose.label + "': configuration, COP or weight is invalid");
    if (!pose.heldout && pose.weight > 0.0) fit.push_back(&pose);
  }
  if (fit.empty()) throw std::invalid_argument("static identification: no poses to fit");

  const std::size_t S = segments.size();
  const Eigen::Index P = 4 * static_cast<Eigen::Index>(S);
  std::vector<char> is_segment(nominal.bodies.size(), 0);
  for (int s : segments) is_segment[static_cast<std::size_t>(s)] = 1;

  // Start (and prior centre).
  Model start = options.prior == StaticPrior::Scaled ? scaled_model(nominal, M / nominal.total_mass()) : nominal;
  double fixed_mass = start.bodies[0].inertia.mass;
  double free_mass = 0.0;
  for (std::size_t i = 1; i < start.bodies.size(); ++i)
    (is_segment[i] ? free_mass : fixed_mass) += start.bodies[i].inertia.mass;
  if (!(M > fixed_mass))
    throw std::invalid_argument("static identification: weighed mass " + std::to_string(M) +
                                " kg is not above the fixed bodies' " + std::to_string(fixed_mass) + " kg");
  if (!(free_mass > 0.0)) throw std::invalid_argument("static identification: the chosen segments have no mass");
  const double free_scale = (M - fixed_mass) / free_mass;
  VectorX p0(P), sigma(P);
  for (std::size_t k = 0; k < S; ++k) {
    const Inertia& I = start.bodies[static_cast<std::size_t>(segments[k])].inertia;
    const Eigen::Index r = 4 * static_cast<Eigen::Index>(k);
    p0[r] = I.mass * free_scale;
    p0.segment<3>(r + 1) = I.com();
    sigma[r] = options.mass_sigma * std::max(p0[r], 1e-3);
    sigma.segment<3>(r + 1).setConstant(options.com_sigma);
  }

  // Pose terms (the configuration is fixed: the parameters do not move the bodies).
  std::vector<PoseTerms> terms(fit.size());
  {
    Data data(start);
    for (std::size_t n = 0; n < fit.size(); ++n) {
      forward_kinematics(start, data, fit[n]->q);
      PoseTerms& t = terms[n];
      t.fixed_moment = start.bodies[0].inertia.mc;  // universe-fixed links: world frame
      for (std::size_t i = 1; i < start.bodies.size(); ++i) {
        if (is_segment[i]) continue;
        const Inertia& I = start.bodies[i].inertia;
        t.fixed_moment += I.mass * data.oMi[i].translation + data.oMi[i].rotation * I.mc;
      }
      for (int s : segments) {
        t.R.push_back(data.oMi[static_cast<std::size_t>(s)].rotation);
        t.p.push_back(data.oMi[static_cast<std::size_t>(s)].translation);
      }
    }
  }

  const Eigen::Index rows = 2 * static_cast<Eigen::Index>(fit.size());
  VectorX r(rows);
  MatrixX J(rows, P);  // d r / d x, x = (p - p0) / sigma
  auto residuals = [&](const VectorX& p, bool with_jacobian) {
    double total = fixed_mass;
    for (std::size_t k = 0; k < S; ++k) total += p[4 * static_cast<Eigen::Index>(k)];
    for (std::size_t n = 0; n < fit.size(); ++n) {
      const PoseTerms& t = terms[n];
      Vector3 moment = t.fixed_moment;
      for (std::size_t k = 0; k < S; ++k) {
        const Eigen::Index c = 4 * static_cast<Eigen::Index>(k);
        moment += p[c] * (t.p[k] + t.R[k] * p.segment<3>(c + 1));
      }
      const Vector3 gcom = moment / total;
      const double w = std::sqrt(fit[n]->weight) / options.cop_sigma;
      const Eigen::Index row = 2 * static_cast<Eigen::Index>(n);
      r.segment<2>(row) = w * (gcom - fit[n]->cop).head<2>();
      if (!with_jacobian) continue;
      for (std::size_t k = 0; k < S; ++k) {
        const Eigen::Index c = 4 * static_cast<Eigen::Index>(k);
        const Vector3 body_com = t.p[k] + t.R[k] * p.segment<3>(c + 1);
        J.block<2, 1>(row, c) = w * sigma[c] * ((body_com - gcom) / total).head<2>();
        J.block<2, 3>(row, c + 1) = w * (p[c] / total) * t.R[k].topRows<2>() * sigma[c + 1];
      }
    }
  };
  auto objective = [&](const VectorX& p) {
    residuals(p, false);
    return r.squaredNorm() + ((p - p0).array() / sigma.array()).matrix().squaredNorm();
  };

  // Mass constraint in scaled coordinates: a_x . x = M - fixed - sum(p0 masses) (= 0 by construction).
  VectorX a(P);
  a.setZero();
  for (std::size_t k = 0; k < S; ++k) a[4 * static_cast<Eigen::Index>(k)] = sigma[4 * static_cast<Eigen::Index>(k)];

  StaticIdentificationResult result;
  VectorX p = p0;
  double cost = objective(p);
  double mu = 1e-3;
  MatrixX K(P + 1, P + 1);
  VectorX rhs(P + 1);
  for (int it = 0; it < options.max_iterations; ++it) {
    result.iterations = it + 1;
    residuals(p, true);
    const VectorX x = ((p - p0).array() / sigma.array()).matrix();
    MatrixX A = J.transpose() * J;
    A.diagonal().array() += 1.0;  // prior
    const VectorX g = J.transpose() * r + x;
    double mass_gap = M - fixed_mass;
    for (std::size_t k = 0; k < S; ++k) mass_gap -= p[4 * static_cast<Eigen::Index>(k)];
    bool accepted = false;
    VectorX step;
    for (int trial = 0; trial < 20 && !accepted; ++trial) {
      K.setZero();
      K.topLeftCorner(P, P) = A;
      K.topLeftCorner(P, P).diagonal() += mu * A.diagonal();
      K.block(0, P, P, 1) = a;
      K.block(P, 0, 1, P) = a.transpose();
      rhs.head(P) = -g;
      rhs[P] = mass_gap;
      step = K.partialPivLu().solve(rhs).head(P);
      const VectorX p_new = p + (step.array() * sigma.array()).matrix();
      bool positive = true;
      for (std::size_t k = 0; k < S; ++k) positive = positive && p_new[4 * static_cast<Eigen::Index>(k)] > 0.0;
      const double new_cost = positive ? objective(p_new) : std::numeric_limits<double>::infinity();
      if (new_cost <= cost) {
        accepted = true;
        const double change = cost - new_cost;
        p = p_new;
        cost = new_cost;
        mu = std::max(mu * 0.1, 1e-12);
        if (step.norm() < 1e-10 || change <= 1e-12 * cost) result.converged = true;
      } else {
        mu *= 10.0;
      }
    }
    if (!accepted) {
      result.converged = true;  // no descent left at any damping
      break;
    }
    if (result.converged) break;
  }
  result.cost = cost;

  // Identified model.
  result.identified = start;
  for (std::size_t k = 0; k < S; ++k) {
    const int s = segments[k];
    const Eigen::Index c = 4 * static_cast<Eigen::Index>(k);
    const Body& nb = nominal.bodies[static_cast<std::size_t>(s)];
    result.identified.bodies[static_cast<std::size_t>(s)].inertia =
        with_mass_and_com(nb.inertia, p[c], p.segment<3>(c + 1));
    result.segments.push_back({nb.name, s, nb.inertia.mass, p[c], nb.inertia.com(), p.segment<3>(c + 1)});
    for (const char* suffix : {".mass", ".com_x", ".com_y", ".com_z"})
      result.parameter_names.push_back(nb.name + suffix);
  }

  // Observability at the solution: the data Jacobian on the constraint's null space, in prior units.
  residuals(p, true);
  Eigen::HouseholderQR<MatrixX> qr(a);
  const MatrixX Q = qr.householderQ();
  const MatrixX Z = Q.rightCols(P - 1);
  const Eigen::JacobiSVD<MatrixX> svd(J * Z, Eigen::ComputeFullV);
  const VectorX sv = svd.singularValues();
  VectorX unobservable_share = VectorX::Zero(P);
  for (Eigen::Index k = 0; k < P - 1; ++k) {
    const double s = k < sv.size() ? sv[k] : 0.0;
    if (s >= 1.0) {
      ++result.rank;
      continue;
    }
    const VectorX v = Z * svd.matrixV().col(k);
    unobservable_share += v.cwiseAbs2();
    UnobservableDirection d;
    d.information = s;
    std::vector<Eigen::Index> order(static_cast<std::size_t>(P));
    for (Eigen::Index i = 0; i < P; ++i) order[static_cast<std::size_t>(i)] = i;
    std::sort(order.begin(), order.end(),
              [&](Eigen::Index i, Eigen::Index j) { return std::abs(v[i]) > std::abs(v[j]); });
    for (Eigen::Index i : order)
      if (std::abs(v[i]) >= 0.3) d.parameters.emplace_back(result.parameter_names[static_cast<std::size_t>(i)], v[i]);
    result.directions.push_back(d);
  }
  for (Eigen::Index i = 0; i < P; ++i)
    if (unobservable_share[i] > 0.5) result.unobservable.push_back(result.parameter_names[static_cast<std::size_t>(i)]);
  return result;
}

}  // namespace dynid
