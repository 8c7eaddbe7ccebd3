#include "dynid/data/truth_source.hpp"

#include <array>
#include <cmath>
#include <fstream>
#include <stdexcept>

namespace dynid {

TruthSource::TruthSource(const Model& model, const RobotSidecar& sidecar, const DatasetInfo& dataset, TimeWindow window,
                         std::vector<JointLock> locks, double lock_tolerance)
    : model_(model), reader_(dataset.stream("truth").file), window_(window), lock_tolerance_(lock_tolerance) {
  for (const std::string& n : model.configuration_names()) q_col_.push_back(reader_.column("q." + n));
  const auto vnames = model.velocity_names();
  for (const std::string& n : vnames) {
    v_col_.push_back(reader_.column("v." + n));
    a_col_.push_back(reader_.column("a." + n));
  }
  for (std::size_t i = 0; i < vnames.size(); ++i)
    tau_col_.push_back(model.floating_base && i < 6 ? -1 : reader_.column("tau." + vnames[i]));
  static const char* const kAxes[6] = {"fx", "fy", "fz", "tx", "ty", "tz"};
  for (const ContactSurface& c : sidecar.contacts) {
    std::array<int, 6> cols{};
    for (int k = 0; k < 6; ++k) cols[static_cast<std::size_t>(k)] = reader_.column("wrench." + c.name + "." + kAxes[k]);
    wrench_col_.push_back(cols);
  }
  for (const JointLock& lock : locks) lock_col_.emplace_back(reader_.column("q." + lock.joint), lock);
  const auto [t0, t1] = stream_time_range(reader_.path());
  const double rate = dataset.stream("truth").rate_hz;
  const double lo = std::max(t0, window.start), hi = std::min(t1 + 0.5 / rate, window.end);
  size_ = hi > lo ? static_cast<long>(std::llround((hi - lo) * rate)) : 0;
}

std::string TruthSource::description() const { return "truth stream " + reader_.path(); }

ForceNoise TruthSource::noise() const {
  // Noise-free: the weights only set the metric; use the F/T class so both paths weigh rows alike.
  return ForceNoise{};
}

void TruthSource::rewind() { reader_.rewind(); }

bool TruthSource::next(MotionSample& s) {
  while (reader_.next(row_)) {
    const double t = row_[0];
    if (!window_.contains(t)) {
      if (t >= window_.end) return false;
      continue;
    }
    s.time = t;
    s.q.resize(model_.nq);
    s.v.resize(model_.nv);
    s.a.resize(model_.nv);
    s.joint_torques.setConstant(model_.nv, 0.0);
    auto value = [&](int col, const char* what) {
      const double x = row_[static_cast<std::size_t>(col)];
      if (!std::isfinite(x))
        throw std::runtime_error(reader_.path() + ": line " + std::to_string(reader_.line()) + ": channel '" +
                                 reader_.header()[static_cast<std::size_t>(col)] + "' is empty or not finite (" + what +
                                 ")");
      return x;
    };
    for (int i = 0; i < model_.nq; ++i) s.q[i] = value(q_col_[static_cast<std::size_t>(i)], "configuration");
    for (int i = 0; i < model_.nv; ++i) {
      s.v[i] = value(v_col_[static_cast<std::size_t>(i)], "velocity");
      s.a[i] = value(a_col_[static_cast<std::size_t>(i)], "acceleration");
      const int tc = tau_col_[static_cast<std::size_t>(i)];
      if (tc >= 0) s.joint_torques[i] = value(tc, "joint torque");
    }
    s.contact_wrenches.resize(wrench_col_.size());
    for (std::size_t c = 0; c < wrench_col_.size(); ++c) {
      Vector6 w;
      for (int k = 0; k < 6; ++k) w[k] = value(wrench_col_[c][static_cast<std::size_t>(k)], "contact wrench");
      s.contact_wrenches[c] = Force::from_vector(w);
    }
    for (const auto& [col, lock] : lock_col_) {
      const double x = value(col, "locked joint");
      if (std::abs(x - lock.position) > lock_tolerance_)
        throw std::runtime_error(reader_.path() + ": line " + std::to_string(reader_.line()) + ": locked joint '" +
                                 lock.joint + "' is at " + std::to_string(x) + " rad, not at its lock " +
                                 std::to_string(lock.position) + " (the recording moves it)");
    }
    return true;
  }
  return false;
}

std::pair<double, double> stream_time_range(const std::string& csv_path) {
  std::ifstream in(csv_path, std::ios::binary);
  if (!in) throw std::runtime_error(csv_path + ": cannot open the file");
  std::string line;
  std::getline(in, line);  // header
  if (!std::getline(in, line)) throw std::runtime_error(csv_path + ": no samples");
  const double t0 = std::stod(line.substr(0, line.find(',')));
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  std::streamoff back = std::min<std::streamoff>(size, 65536);
  in.seekg(size - back);
  std::string tail((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == '\r')) tail.pop_back();
  const std::string last = tail.substr(tail.rfind('\n') + 1);
  return {t0, std::stod(last.substr(0, last.find(',')))};
}

}  // namespace dynid
