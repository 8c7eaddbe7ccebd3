// dynid-walk-bench: the simulation testbed's real-time factor on its heaviest routine job.
//   dynid-walk-bench [--benchmark_*]
// 60 s of adult-humanoid walking (73 steps at 0.2 m/s, realistic sensors): whole-body IK planning,
// MuJoCo at 1 kHz with contacts, servos on the field bus, every sensor stream written and every
// sample checked against dynid's RNEA. Target: under 60 s wall (real-time factor > 1). The
// counters report the simulated time, the real-time factor and the steps walked.

#include <benchmark/benchmark.h>

#include <filesystem>

#include "dynid/model/robot.hpp"
#include "dynid/scenarios/scenario.hpp"

namespace {

void BM_AdultWalk60s(benchmark::State& state) {
  const dynid::Robot robot = dynid::load_robot(std::string(DYNID_MODELS_DIR) + "/adult_humanoid.urdf");
  dynid::ScenarioOptions options;
  options.scenario = "walk";
  options.walk_steps = 73;
  options.out_dir = (std::filesystem::temp_directory_path() / "dynid-walk-bench").string();
  dynid::ScenarioSummary summary;
  for (auto _ : state) summary = dynid::run_scenario(robot, options);
  std::filesystem::remove_all(options.out_dir);
  state.counters["simulated_s"] = summary.duration_s;
  state.counters["realtime_factor"] = summary.realtime_factor;
  state.counters["steps"] = summary.steps;
  state.counters["fell"] = summary.fell ? 1.0 : 0.0;
}
BENCHMARK(BM_AdultWalk60s)->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
