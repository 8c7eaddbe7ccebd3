#include "dynid/data/stream_resampling.hpp"

#include <cmath>
#include <stdexcept>

namespace dynid {

Eigen::VectorXd filtered_channel(const CsvStream& s, const std::string& name, const IirFilter& filter) {
  const Eigen::Index c = s.column(name);
  const Eigen::VectorXd x = s.values.col(c);
  for (Eigen::Index i = 0; i < x.size(); ++i)
    if (!std::isfinite(x[i]))
      throw std::runtime_error(s.path + ": line " + std::to_string(i + 2) + ": channel '" + name +
                               "' is empty or not finite");
  if (filter.b.size() == 0) return x;  // no low-pass
  if (x.size() <= filtfilt_padlen(filter))
    throw std::runtime_error(s.path + ": too few samples (" + std::to_string(x.size()) + ") to filter");
  return filtfilt(filter, x);
}

double interpolate_at(const Eigen::VectorXd& t, const Eigen::VectorXd& x, double tq, Eigen::Index& hint) {
  const Eigen::Index n = t.size();
  if (tq <= t[0]) return x[0];
  if (tq >= t[n - 1]) return x[n - 1];
  while (hint + 1 < n && t[hint + 1] < tq) ++hint;
  while (hint > 0 && t[hint] > tq) --hint;
  const double u = (tq - t[hint]) / (t[hint + 1] - t[hint]);
  return (1.0 - u) * x[hint] + u * x[hint + 1];
}

Eigen::MatrixXd resampled(const CsvStream& s, const std::vector<std::string>& names, const IirFilter& filter,
                          const Eigen::VectorXd& times) {
  Eigen::MatrixXd out(static_cast<Eigen::Index>(names.size()), times.size());
  const Eigen::VectorXd t = s.values.col(0);
  for (std::size_t i = 0; i < names.size(); ++i) {
    const Eigen::VectorXd x = filtered_channel(s, names[i], filter);
    Eigen::Index hint = 0;
    for (Eigen::Index k = 0; k < times.size(); ++k)
      out(static_cast<Eigen::Index>(i), k) = interpolate_at(t, x, times[k], hint);
  }
  return out;
}

}  // namespace dynid
