#include "dynid/actuator/ilc_reference.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numbers>
#include <sstream>
#include <stdexcept>

namespace dynid {
namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

// Minimum-jerk blend 0 -> 1 on s in [0, 1] and its first two derivatives d/ds.
double mj(double s) { return s * s * s * (10.0 - 15.0 * s + 6.0 * s * s); }
double mj1(double s) { return 30.0 * s * s * (1.0 - s) * (1.0 - s); }
double mj2(double s) { return 60.0 * s * (1.0 - s) * (1.0 - 2.0 * s); }

struct Sample {
  double q = 0.0, qd = 0.0, qdd = 0.0;
  Sample& operator+=(const Sample& o) {
    q += o.q;
    qd += o.qd;
    qdd += o.qdd;
    return *this;
  }
};

// Window w(t) on [t0, t1]: min-jerk fade in over `fade`, 1, fade out; with derivatives.
Sample window(double t, double t0, double t1, double fade) {
  if (t <= t0 || t >= t1) return {};
  Sample w{1.0, 0.0, 0.0};
  if (t < t0 + fade) {
    const double s = (t - t0) / fade;
    w = {mj(s), mj1(s) / fade, mj2(s) / (fade * fade)};
  } else if (t > t1 - fade) {
    const double s = (t1 - t) / fade;
    w = {mj(s), -mj1(s) / fade, mj2(s) / (fade * fade)};
  }
  return w;
}

// A sum of sines on [t0, t1] under the window: (w f)'' = w'' f + 2 w' f' + w f''.
Sample windowed_sines(double t, double t0, double t1, double fade,
                      const std::vector<std::pair<double, double>>& sines) {
  const Sample w = window(t, t0, t1, fade);
  if (w.q == 0.0 && w.qd == 0.0) return {};
  Sample f;
  for (const auto& [amplitude, hz] : sines) {
    const double phase = kTwoPi * hz * (t - t0), k = kTwoPi * hz;
    f.q += amplitude * std::sin(phase);
    f.qd += amplitude * k * std::cos(phase);
    f.qdd -= amplitude * k * k * std::sin(phase);
  }
  return {w.q * f.q, w.qd * f.q + w.q * f.qd, w.qdd * f.q + 2.0 * w.qd * f.qd + w.q * f.qdd};
}

// A minimum-jerk move by `delta` during [t0, t0 + T]; holds the end value after.
Sample move(double t, double t0, double duration, double delta) {
  if (t <= t0) return {};
  if (t >= t0 + duration) return {delta, 0.0, 0.0};
  const double s = (t - t0) / duration;
  return {delta * mj(s), delta * mj1(s) / duration, delta * mj2(s) / (duration * duration)};
}

}  // namespace

SampledTrajectory default_ilc_reference(double center, double dt, double scale) {
  if (!(dt > 0.0) || !(scale > 0.0))
    throw std::invalid_argument("default_ilc_reference: dt and scale must be positive");
  SampledTrajectory r;
  r.dt_s = dt;
  const double end = 18.0;
  const long n = std::lround(end / dt) + 1;
  for (long i = 0; i < n; ++i) {
    const double t = double(i) * dt;
    Sample s{center, 0.0, 0.0};
    s += windowed_sines(t, 0.5, 6.5, 1.0, {{0.3 * scale, 1.0}, {0.08 * scale, 2.0}});  // walking
    s += windowed_sines(t, 7.0, 8.75, 0.25, {{0.3 * scale, 1.6}});                     // fast oscillation
    // Kick: wind up by -0.4, hold, swing 1 rad forward fast, hold, return to the centre.
    s += move(t, 9.25, 0.6, -0.4 * scale);
    s += move(t, 10.05, 0.625, 1.0 * scale);
    s += move(t, 11.0, 0.9, -0.6 * scale);
    // Slow moves through the Stribeck region (peak 0.11 rad/s): static friction shows only there.
    s += move(t, 12.2, 2.5, 0.15 * scale);
    s += move(t, 15.0, 2.5, -0.15 * scale);
    r.position_rad.push_back(s.q);
    r.velocity_rad_s.push_back(s.qd);
    r.acceleration_rad_s2.push_back(s.qdd);
  }
  return r;
}

SampledTrajectory trajectory_from_positions(double dt, std::vector<double> q) {
  if (q.size() < 3) throw std::invalid_argument("a trajectory needs at least 3 samples");
  if (!(dt > 0.0)) throw std::invalid_argument("a trajectory needs a positive sample period");
  for (std::size_t i = 0; i < q.size(); ++i)
    if (!std::isfinite(q[i])) throw std::invalid_argument("trajectory sample " + std::to_string(i) + " is not finite");
  SampledTrajectory r;
  r.dt_s = dt;
  const std::size_t n = q.size();
  r.velocity_rad_s.resize(n);
  r.acceleration_rad_s2.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t a = i == 0 ? 0 : i - 1, b = i + 1 == n ? n - 1 : i + 1;
    r.velocity_rad_s[i] = (q[b] - q[a]) / (double(b - a) * dt);
  }
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t c = std::clamp<std::size_t>(i, 1, n - 2);
    r.acceleration_rad_s2[i] = (q[c + 1] - 2.0 * q[c] + q[c - 1]) / (dt * dt);
  }
  r.position_rad = std::move(q);
  return r;
}

SampledTrajectory read_reference_csv(const std::string& path, double dt) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path + ": cannot read the reference trajectory");
  std::string line;
  std::getline(in, line);  // header
  std::vector<double> time, q;
  int number = 1;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty()) continue;
    std::stringstream row(line);
    std::string a, b;
    std::getline(row, a, ',');
    std::getline(row, b, ',');
    double t = 0.0, x = 0.0;
    try {
      t = std::stod(a);
      x = std::stod(b);
    } catch (const std::exception&) {
      throw std::invalid_argument(path + ": line " + std::to_string(number) + ": expected 'time,position' numbers");
    }
    if (!std::isfinite(t) || !std::isfinite(x))
      throw std::invalid_argument(path + ": line " + std::to_string(number) + ": value is not finite");
    if (!time.empty() && !(t > time.back()))
      throw std::invalid_argument(path + ": line " + std::to_string(number) + ": time does not increase");
    time.push_back(t);
    q.push_back(x);
  }
  if (time.size() < 3) throw std::invalid_argument(path + ": fewer than 3 rows (header 'time,position' then samples)");
  std::vector<double> resampled;
  std::size_t k = 0;
  for (double t = time.front(); t <= time.back() + 1e-9; t += dt) {
    while (k + 2 < time.size() && time[k + 1] < t) ++k;
    const double s = std::clamp((t - time[k]) / (time[k + 1] - time[k]), 0.0, 1.0);
    resampled.push_back(q[k] + s * (q[k + 1] - q[k]));
  }
  return trajectory_from_positions(dt, std::move(resampled));
}

}  // namespace dynid
