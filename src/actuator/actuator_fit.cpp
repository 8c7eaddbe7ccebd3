#include "dynid/actuator/actuator_fit.hpp"

#include <Eigen/Dense>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "dynid/core/types.hpp"

namespace dynid {
namespace {

void check_trial(const ActuatorTrialSeries& t, std::size_t index) {
  const std::string which = "actuator trial " + std::to_string(index + 1) + ": ";
  const std::size_t n = t.command_rad.size();
  for (const auto* v : {&t.position_rad, &t.supply_v, &t.tau_o_nm, &t.qdot_rad_s, &t.qddot_rad_s2})
    if (v->size() != n) throw std::invalid_argument(which + "its series differ in length");
  if (!(t.dt_s > 0.0)) throw std::invalid_argument(which + "the sample period is not positive");
  if (!(t.gain_per_rad > 0.0)) throw std::invalid_argument(which + "the servo gain k_P k_ctrl is not positive");
  for (std::size_t i = 0; i < n; ++i) {
    for (double x :
         {t.command_rad[i], t.position_rad[i], t.supply_v[i], t.tau_o_nm[i], t.qdot_rad_s[i], t.qddot_rad_s2[i]})
      if (!std::isfinite(x))
        throw std::invalid_argument(which + "sample " + std::to_string(i) + " is not finite (missing channel value?)");
    if (!(t.supply_v[i] > 0.0))
      throw std::invalid_argument(which + "supply voltage at sample " + std::to_string(i) + " is not positive");
  }
}

struct Rows {
  MatrixX a;
  VectorX u;
  std::vector<char> heldout;
};

Rows build_rows(const std::vector<ActuatorTrialSeries>& trials, double t_d, const StribeckShape& shape,
                const ActuatorFitOptions& o) {
  const int cols = o.fit_armature ? 5 : 4;
  std::vector<ActuatorAlpha> phis;
  std::vector<double> us;
  std::vector<char> held;
  for (const auto& t : trials) {
    const int d = static_cast<int>(std::lround(t_d / t.dt_s));
    const std::vector<double> u = applied_voltage(t, d);
    const long block = std::max<long>(1, std::lround(o.block_s / t.dt_s));
    for (std::size_t n = 0; n < u.size(); ++n) {
      const std::size_t m = n + static_cast<std::size_t>(d);
      if (std::abs(t.qdot_rad_s[m]) < o.min_speed_rad_s || std::abs(u[n]) > o.max_duty * t.supply_v[m]) continue;
      phis.push_back(
          actuator_regressor(t.tau_o_nm[m], t.qdot_rad_s[m], t.qddot_rad_s2[m], shape, o.sign_velocity_rad_s));
      us.push_back(u[n]);
      held.push_back((static_cast<long>(n) / block) % o.heldout_every == o.heldout_every - 1);
    }
  }
  const long count = static_cast<long>(us.size());
  Rows r{MatrixX(count, cols), VectorX(count), std::move(held)};
  for (long row = 0; row < count; ++row) {
    for (int c = 0; c < cols; ++c) r.a(row, c) = phis[static_cast<std::size_t>(row)][static_cast<std::size_t>(c)];
    r.u[row] = us[static_cast<std::size_t>(row)];
  }
  return r;
}

VectorX solve(const MatrixX& a, const VectorX& u) { return a.colPivHouseholderQr().solve(u); }

}  // namespace

void ActuatorFitOptions::complete() {
  if (reaction_times_s.empty())
    for (int ms = 0; ms <= 60; ++ms) reaction_times_s.push_back(1e-3 * ms);
  if (stribeck_velocities.empty()) stribeck_velocities = {0.05, 0.1, 0.2, 0.4};
  if (stribeck_exponents.empty()) stribeck_exponents = {0.5, 0.75, 1.0};
}

std::vector<double> applied_voltage(const ActuatorTrialSeries& t, int shift) {
  std::vector<double> u;
  const long n = static_cast<long>(t.command_rad.size()) - shift;
  for (long i = 0; i < n; ++i) {
    const std::size_t k = static_cast<std::size_t>(i), m = static_cast<std::size_t>(i + shift);
    u.push_back(servo_voltage(t.command_rad[k], t.position_rad[m], t.gain_per_rad, t.supply_v[m]));
  }
  return u;
}

ActuatorFit fit_actuator(const std::vector<ActuatorTrialSeries>& trials, ActuatorFitOptions o) {
  if (trials.empty()) throw std::invalid_argument("actuator fit: no trial");
  for (std::size_t i = 0; i < trials.size(); ++i) check_trial(trials[i], i);
  o.complete();
  if (o.heldout_every < 2) throw std::invalid_argument("actuator fit: heldout_every must be at least 2");
  const int cols = o.fit_armature ? 5 : 4;

  ActuatorFit fit;
  double best = std::numeric_limits<double>::infinity();
  ActuatorGridPoint chosen;
  for (double t_d : o.reaction_times_s)
    for (double qs : o.stribeck_velocities)
      for (double delta : o.stribeck_exponents) {
        const Rows r = build_rows(trials, t_d, {qs, delta}, o);
        long n_fit = 0, n_held = 0;
        for (char h : r.heldout) (h ? n_held : n_fit) += 1;
        if (n_fit < 4 * cols || n_held < cols) continue;
        MatrixX a_fit(n_fit, cols), a_held(n_held, cols);
        VectorX u_fit(n_fit), u_held(n_held);
        for (long i = 0, f = 0, h = 0; i < r.a.rows(); ++i) {
          if (r.heldout[static_cast<std::size_t>(i)]) {
            a_held.row(h) = r.a.row(i);
            u_held[h++] = r.u[i];
          } else {
            a_fit.row(f) = r.a.row(i);
            u_fit[f++] = r.u[i];
          }
        }
        const VectorX x = solve(a_fit, u_fit);
        const double rms = std::sqrt((a_held * x - u_held).squaredNorm() / static_cast<double>(n_held));
        fit.grid.push_back({t_d, qs, delta, rms});
        if (rms < best) {
          best = rms;
          chosen = fit.grid.back();
        }
      }
  if (fit.grid.empty())
    throw std::invalid_argument("actuator fit: too few samples for " + std::to_string(cols) +
                                " coefficients (record at least a few seconds of motion)");

  const StribeckShape shape{chosen.stribeck_velocity, chosen.stribeck_exponent};
  const Rows r = build_rows(trials, chosen.reaction_time_s, shape, o);
  const VectorX x = solve(r.a, r.u);
  const VectorX residual = r.a * x - r.u;
  const long dof = std::max<long>(1, r.a.rows() - cols);
  const double sigma2 = residual.squaredNorm() / static_cast<double>(dof);
  const MatrixX cov = sigma2 * (r.a.transpose() * r.a).ldlt().solve(MatrixX::Identity(cols, cols));
  fit.model.stribeck = shape;
  fit.model.reaction_time_s = chosen.reaction_time_s;
  for (int c = 0; c < cols; ++c) {
    fit.model.alpha[static_cast<std::size_t>(c)] = x[c];
    fit.alpha_std[static_cast<std::size_t>(c)] = std::sqrt(std::max(0.0, cov(c, c)));
  }
  fit.rms_v = std::sqrt(residual.squaredNorm() / static_cast<double>(r.a.rows()));
  fit.heldout_rms_v = chosen.heldout_rms_v;
  fit.rows = r.a.rows();
  return fit;
}

}  // namespace dynid
