// dynid-identification-bench: whole-body identification at paper 004's data size.
//   dynid-identification-bench [--benchmark_*]
// 72,000 samples of the 16-DOF biped (paper 004: 72 s at 1 kHz): for each sample the joint-torque
// regressor, its base columns, and the fold into the streaming least-squares factor; then the solve.
// The samples are random states (the regressor's cost does not depend on where states come from).

#include <benchmark/benchmark.h>

#include <random>

#include "dynid/dynamics/regressor.hpp"
#include "dynid/ident/base_parameters.hpp"
#include "dynid/ident/streaming_least_squares.hpp"
#include "dynid/model/random_state.hpp"
#include "dynid/model/robot.hpp"

namespace {

/// state.range(0): 1 = all equations (full sensing), 0 = the 6 base-link rows (contact sensing).
void BM_IdentifyBiped16_72000Samples(benchmark::State& state) {
  const bool all_rows = state.range(0) == 1;
  const dynid::Model model = dynid::load_robot(std::string(DYNID_MODELS_DIR) + "/biped16.urdf").model;
  dynid::BaseParameterOptions options;
  if (!all_rows) options.rows = dynid::base_link_rows(model);
  const dynid::BaseParameters base = dynid::compute_base_parameters(model, options);
  const int nrows = all_rows ? model.nv : 6;
  std::mt19937 rng(1);
  std::vector<dynid::StateSample> states;
  for (int k = 0; k < 1000; ++k) states.push_back(dynid::random_state(model, rng));
  dynid::Data data(model);
  const int samples = 72000, block = 50;
  dynid::MatrixX rows(block * nrows, base.num_base());
  dynid::VectorX b(block * nrows);
  for (auto _ : state) {
    dynid::StreamingLeastSquares ls(base.num_base());
    for (int k = 0; k < samples; ++k) {
      const dynid::StateSample& s = states[static_cast<std::size_t>(k % 1000)];
      const dynid::MatrixX& Y = dynid::joint_torque_regressor(model, data, s.q, s.v, s.a);
      const int r = (k % block) * nrows;
      for (int j = 0; j < base.num_base(); ++j)
        rows.block(r, j, nrows, 1) = Y.col(base.independent[static_cast<std::size_t>(j)]).head(nrows);
      b.segment(r, nrows) = Y.topRows(nrows) * model.inertial_parameters();
      if (k % block == block - 1) ls.add(rows, b);
    }
    benchmark::DoNotOptimize(ls.solve().x.data());
  }
  state.counters["samples"] = samples;
}
BENCHMARK(BM_IdentifyBiped16_72000Samples)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

BENCHMARK_MAIN();
