#include "dynid/actuator/ilc.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace dynid {

std::vector<double> ilc_update(const std::vector<double>& command, const std::vector<double>& reference,
                               const std::vector<double>& measured, double lambda, int shift) {
  if (command.size() != reference.size() || measured.size() != reference.size())
    throw std::invalid_argument("ilc_update: command, reference and measured differ in length (" +
                                std::to_string(command.size()) + ", " + std::to_string(reference.size()) + ", " +
                                std::to_string(measured.size()) + ")");
  if (shift < 0) throw std::invalid_argument("ilc_update: negative reaction-time shift");
  std::vector<double> next(command);
  if (command.empty()) return next;
  const std::size_t n = command.size();
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t j = std::min(n - 1, i + static_cast<std::size_t>(shift));
    next[i] += lambda * (reference[j] - measured[j]);
  }
  return next;
}

double max_windowed_error(const std::vector<double>& reference, const std::vector<double>& measured, int window) {
  if (reference.size() != measured.size())
    throw std::invalid_argument("max_windowed_error: reference and measured differ in length");
  const long n = static_cast<long>(reference.size());
  double worst = 0.0;
  for (long i = 0; i < n; ++i) {
    double best = std::numeric_limits<double>::infinity();
    // -D < a < D (eq. 28: open window).
    for (long a = -(window - 1); a <= window - 1; ++a) {
      const long j = i + a;
      if (j < 0 || j >= n) continue;
      best = std::min(best, std::abs(reference[static_cast<std::size_t>(i)] - measured[static_cast<std::size_t>(j)]));
    }
    if (std::isfinite(best)) worst = std::max(worst, best);
  }
  return worst;
}

int estimate_reaction_samples(const std::vector<double>& reference, const std::vector<double>& measured, int max_lag) {
  if (reference.size() != measured.size())
    throw std::invalid_argument("estimate_reaction_samples: reference and measured differ in length");
  const long n = static_cast<long>(reference.size());
  int best_lag = 0;
  double best = -std::numeric_limits<double>::infinity();
  for (int lag = 0; lag <= max_lag; ++lag) {
    double sum = 0.0;
    for (long i = 1; i + lag < n; ++i) {
      const std::size_t k = static_cast<std::size_t>(i), m = static_cast<std::size_t>(i + lag);
      sum += (reference[k] - reference[k - 1]) * (measured[m] - measured[m - 1]);
    }
    if (sum > best) {
      best = sum;
      best_lag = lag;
    }
  }
  return best_lag;
}

double mean_abs_error(const std::vector<double>& reference, const std::vector<double>& measured) {
  if (reference.size() != measured.size() || reference.empty())
    throw std::invalid_argument("mean_abs_error: empty or different lengths");
  double sum = 0.0;
  for (std::size_t i = 0; i < reference.size(); ++i) sum += std::abs(reference[i] - measured[i]);
  return sum / static_cast<double>(reference.size());
}

}  // namespace dynid
