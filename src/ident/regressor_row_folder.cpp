#include "dynid/ident/regressor_row_folder.hpp"

#include <map>
#include <stdexcept>

#include "dynid/model/topology.hpp"

namespace dynid {
namespace {

/// The body whose joint owns velocity coordinate `row`.
std::size_t body_of_row(const Model& model, int row) {
  for (std::size_t i = 1; i < model.bodies.size(); ++i) {
    const Body& b = model.bodies[i];
    if (row >= b.idx_v && row < b.idx_v + b.nv) return i;
  }
  throw std::invalid_argument("equation row " + std::to_string(row) + " is not a velocity coordinate of " +
                              model.label());
}

}  // namespace

std::vector<std::vector<int>> equation_row_supports(const Model& model, const BaseParameters& base) {
  std::vector<std::vector<int>> supports;
  for (const int row : base.rows) {
    const std::size_t owner = body_of_row(model, row);
    const Body& joint = model.bodies[owner];
    // Force equations (a prismatic joint, the linear rows of a free flyer) see only m and m c.
    const bool force_only =
        joint.joint_type == JointType::Prismatic || (joint.joint_type == JointType::FreeFlyer && row - joint.idx_v < 3);
    // Y_base[:, k] = Y[:, independent[k]]: a base column acts where its own standard parameter does.
    std::vector<int> support;
    for (int k = 0; k < base.num_base(); ++k) {
      const int parameter = base.independent[static_cast<std::size_t>(k)];
      const std::size_t body = static_cast<std::size_t>(parameter / 10) + 1;
      const bool mass_or_first_moment = parameter % 10 < 4;  // m, mcx, mcy, mcz
      if (dynid::supports(model, static_cast<int>(owner), static_cast<int>(body)) &&
          (!force_only || mass_or_first_moment))
        support.push_back(k);
    }
    supports.push_back(std::move(support));
  }
  return supports;
}

RegressorRowFolder::RegressorRowFolder(const Model& model, const BaseParameters& base, StreamingLeastSquares& ls)
    : base_(base) {
  if (ls.num_parameters() != base.num_base())
    throw std::invalid_argument("regressor rows: the least-squares stream has " + std::to_string(ls.num_parameters()) +
                                " parameters, the model " + std::to_string(base.num_base()) + " base parameters");
  const std::vector<std::vector<int>> supports = equation_row_supports(model, base);
  std::map<std::vector<int>, std::size_t> by_support;
  for (std::size_t r = 0; r < supports.size(); ++r) {
    auto [it, fresh] = by_support.try_emplace(supports[r], groups_.size());
    if (fresh) {
      Group g;
      g.base = supports[r];
      for (const int k : g.base) g.standard.push_back(base.independent[static_cast<std::size_t>(k)]);
      groups_.push_back(std::move(g));
    }
    Group& g = groups_[it->second];
    g.rows.push_back(static_cast<int>(r));
    g.equations.push_back(base.rows[r]);
  }
  for (Group& g : groups_) {
    g.A = MatrixX::Zero(static_cast<Eigen::Index>(g.rows.size()), static_cast<Eigen::Index>(g.base.size()));
    g.b = VectorX::Zero(g.A.rows());
    g.w = VectorX::Ones(g.A.rows());
  }
  setup(ls);
}

void RegressorRowFolder::setup(StreamingLeastSquares& ls) {
  if (ls.num_parameters() != base_.num_base())
    throw std::invalid_argument("regressor rows: the least-squares stream has " + std::to_string(ls.num_parameters()) +
                                " parameters, the model " + std::to_string(base_.num_base()) + " base parameters");
  for (Group& g : groups_) g.id = static_cast<int>(g.base.size()) == base_.num_base() ? 0 : ls.add_column_group(g.base);
}

void RegressorRowFolder::add(StreamingLeastSquares& ls, const Eigen::Ref<const MatrixX>& Y,
                             const Eigen::Ref<const VectorX>& y, const Eigen::Ref<const VectorX>& weights) {
  const Eigen::Index n = static_cast<Eigen::Index>(base_.rows.size());
  if (Y.cols() != base_.num_standard() || y.size() != n || (weights.size() != 0 && weights.size() != n))
    throw std::invalid_argument("regressor rows: Y has " + std::to_string(Y.cols()) + " columns (expected " +
                                std::to_string(base_.num_standard()) + "), y " + std::to_string(y.size()) +
                                " and weights " + std::to_string(weights.size()) + " entries (expected " +
                                std::to_string(n) + ")");
  for (Group& g : groups_) {
    for (std::size_t k = 0; k < g.rows.size(); ++k) {
      const Eigen::Index r = static_cast<Eigen::Index>(k);
      const int equation = g.equations[k];
      if (equation >= Y.rows())
        throw std::invalid_argument("regressor rows: Y has " + std::to_string(Y.rows()) + " rows, equation " +
                                    std::to_string(equation) + " is selected");
      for (std::size_t c = 0; c < g.standard.size(); ++c)
        g.A(r, static_cast<Eigen::Index>(c)) = Y(equation, g.standard[c]);
      g.b[r] = y[g.rows[k]];
      g.w[r] = weights.size() != 0 ? weights[g.rows[k]] : 1.0;
    }
    ls.add(g.id, g.A, g.b, g.w);
  }
}

}  // namespace dynid
