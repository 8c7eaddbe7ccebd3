// dynid-marker-ik-bench: marker IK frames per second on the adult humanoid (36 DOF, 51 markers),
// a smooth whole-body motion at 150 Hz with 0.5 mm marker noise, each frame warm-started from the
// previous one (how `dynid ik` runs a trial).

#include <benchmark/benchmark.h>

#include <random>

#include "dynid/mocap/marker_ik.hpp"
#include "dynid/model/robot.hpp"

namespace {

using namespace dynid;

struct Trial {
  std::vector<Eigen::Matrix3Xd> frames;
  VectorX q0;
};

Trial make_trial(const Model& model, MarkerIk& ik, int count) {
  std::mt19937 rng(1);
  std::normal_distribution<double> noise(0.0, 0.5e-3);
  Trial t;
  const VectorX neutral = model.neutral_configuration();
  for (int f = 0; f < count; ++f) {
    const double time = f / 150.0;
    VectorX q = neutral;
    q[2] = 0.9;
    for (std::size_t i = 2; i < model.bodies.size(); ++i) {
      const Body& b = model.bodies[i];
      const double mid = 0.5 * (b.limits.lower + b.limits.upper), half = 0.3 * (b.limits.upper - b.limits.lower);
      q[b.idx_q] =
          mid + half * std::sin(2.0 * 3.14159 * (0.3 + 0.05 * static_cast<double>(i)) * time + static_cast<double>(i));
    }
    if (f == 0) t.q0 = q;
    Eigen::Matrix3Xd y = ik.model_positions(q);
    for (Eigen::Index k = 0; k < y.size(); ++k) y.data()[k] += noise(rng);
    t.frames.push_back(y);
  }
  return t;
}

void BM_MarkerIkFrame(benchmark::State& state) {
  const Robot robot = load_robot(DYNID_MODELS_DIR "/adult_humanoid.urdf");
  MarkerIk ik(robot.model, model_markers(robot.model));
  const Trial trial = make_trial(robot.model, ik, 600);
  VectorX q = trial.q0;
  std::size_t f = 0;
  long iterations = 0;
  for (auto _ : state) {
    const MarkerIkFrame r = ik.solve(trial.frames[f], q);
    iterations += r.iterations;
    benchmark::DoNotOptimize(q.data());
    if (++f == trial.frames.size()) {
      f = 0;
      q = trial.q0;
    }
  }
  state.counters["frames/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["LM iterations/frame"] = static_cast<double>(iterations) / static_cast<double>(state.iterations());
  state.counters["markers"] = static_cast<double>(ik.markers().size());
  state.counters["dof"] = robot.model.nv;
}
BENCHMARK(BM_MarkerIkFrame)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
