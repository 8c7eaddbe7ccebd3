// dynid-identification-bench: whole-body identification at paper 004's data size.
//   dynid-identification-bench [--benchmark_*]
// 72,000 samples of the 16-DOF biped (paper 004: 72 s at 1 kHz), for both sensor sets: contact
// sensing (the 6 base-link equations) and full sensing (all 22 equations). Per sample: the
// regressor rows, their base columns and the fold into the streaming least-squares factor; then the
// solve. The samples are random states (the regressor's cost does not depend on where states come
// from); the observations are the model's own generalized forces, read from memory as a data set
// would be.
//
//   BM_Identify/rows/threads       the pipeline: base-link or full regressor, rows folded by their
//                                  support (RegressorRowFolder), one stream per thread, merged
//   BM_IdentifyDense/rows          reference: full regressor, all base columns of every row folded
//   BM_Regressors/rows             the regressors alone (72,000 of them)
//   BM_IdentifyScaling/rows/samples the pipeline on one thread for 10,000, 72,000 and 720,000
//                                  samples: cost linear in samples, memory flat (run one size per
//                                  process under /usr/bin/time -v for its peak RSS)
// rows: 0 = the 6 base-link rows (contact sensing), 1 = all rows (full sensing).

#include <benchmark/benchmark.h>

#include <random>
#include <thread>

#include "dynid/dynamics/regressor.hpp"
#include "dynid/dynamics/rnea.hpp"
#include "dynid/ident/base_parameters.hpp"
#include "dynid/ident/regressor_row_folder.hpp"
#include "dynid/ident/streaming_least_squares.hpp"
#include "dynid/model/random_state.hpp"
#include "dynid/model/robot.hpp"

namespace {

constexpr int kSamples = 72000;
constexpr int kStates = 1000;

struct Problem {
  dynid::Model model;
  dynid::BaseParameters base;
  std::vector<dynid::StateSample> states;
  std::vector<dynid::VectorX> observations;  ///< the selected generalized forces per state
  bool all_rows = false;

  explicit Problem(bool all) : all_rows(all) {
    model = dynid::load_robot(std::string(DYNID_MODELS_DIR) + "/biped16.urdf").model;
    dynid::BaseParameterOptions options;
    if (!all_rows) options.rows = dynid::base_link_rows(model);
    base = dynid::compute_base_parameters(model, options);
    std::mt19937 rng(1);
    dynid::Data data(model);
    for (int k = 0; k < kStates; ++k) {
      states.push_back(dynid::random_state(model, rng));
      const dynid::StateSample& s = states.back();
      observations.push_back(dynid::rnea(model, data, s.q, s.v, s.a)(base.rows));
    }
  }
};

const Problem& problem(bool all_rows) {
  static const Problem contact(false), full(true);
  return all_rows ? full : contact;
}

/// Samples [begin, end) into `ls` by the structured path.
void fold_samples(const Problem& P, dynid::StreamingLeastSquares& ls, int begin, int end) {
  dynid::Data data(P.model);
  dynid::RegressorRowFolder folder(P.model, P.base, ls);
  for (int k = begin; k < end; ++k) {
    const dynid::StateSample& s = P.states[static_cast<std::size_t>(k % kStates)];
    const dynid::VectorX& y = P.observations[static_cast<std::size_t>(k % kStates)];
    if (P.all_rows)
      folder.add(ls, dynid::joint_torque_regressor(P.model, data, s.q, s.v, s.a), y);
    else
      folder.add(ls, dynid::base_link_regressor(P.model, data, s.q, s.v, s.a), y);
  }
}

void BM_Identify(benchmark::State& state) {
  const Problem& P = problem(state.range(0) == 1);
  const int threads = static_cast<int>(state.range(1));
  for (auto _ : state) {
    std::vector<dynid::StreamingLeastSquares> streams(static_cast<std::size_t>(threads),
                                                      dynid::StreamingLeastSquares(P.base.num_base()));
    std::vector<std::thread> workers;
    for (int t = 1; t < threads; ++t)
      workers.emplace_back([&, t] {
        fold_samples(P, streams[static_cast<std::size_t>(t)], kSamples * t / threads, kSamples * (t + 1) / threads);
      });
    fold_samples(P, streams[0], 0, kSamples / threads);
    for (std::thread& w : workers) w.join();
    for (int t = 1; t < threads; ++t) streams[0].merge(streams[static_cast<std::size_t>(t)]);
    benchmark::DoNotOptimize(streams[0].solve().x.data());
  }
  state.counters["samples"] = kSamples;
}
BENCHMARK(BM_Identify)
    ->ArgsProduct({{0, 1}, {1, 2}})
    ->ArgNames({"all_rows", "threads"})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3)
    ->UseRealTime();

void BM_IdentifyScaling(benchmark::State& state) {
  const Problem& P = problem(state.range(0) == 1);
  const int samples = static_cast<int>(state.range(1));
  for (auto _ : state) {
    dynid::StreamingLeastSquares ls(P.base.num_base());
    fold_samples(P, ls, 0, samples);
    benchmark::DoNotOptimize(ls.solve().x.data());
  }
  state.counters["samples"] = samples;
  state.counters["us_per_sample"] = benchmark::Counter(static_cast<double>(samples) * state.iterations(),
                                                       benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_IdentifyScaling)
    ->ArgsProduct({{0, 1}, {10000, 72000, 720000}})
    ->ArgNames({"all_rows", "samples"})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->UseRealTime();

void BM_IdentifyDense(benchmark::State& state) {
  const Problem& P = problem(state.range(0) == 1);
  const int nrows = static_cast<int>(P.base.rows.size()), block = 50;
  dynid::Data data(P.model);
  dynid::MatrixX rows(block * nrows, P.base.num_base());
  dynid::VectorX b(block * nrows);
  for (auto _ : state) {
    dynid::StreamingLeastSquares ls(P.base.num_base());
    for (int k = 0; k < kSamples; ++k) {
      const dynid::StateSample& s = P.states[static_cast<std::size_t>(k % kStates)];
      const dynid::MatrixX& Y = dynid::joint_torque_regressor(P.model, data, s.q, s.v, s.a);
      const int r = (k % block) * nrows;
      for (int j = 0; j < P.base.num_base(); ++j)
        rows.block(r, j, nrows, 1) = Y.col(P.base.independent[static_cast<std::size_t>(j)]).head(nrows);
      b.segment(r, nrows) = P.observations[static_cast<std::size_t>(k % kStates)];
      if (k % block == block - 1) ls.add(rows, b);
    }
    benchmark::DoNotOptimize(ls.solve().x.data());
  }
  state.counters["samples"] = kSamples;
}
BENCHMARK(BM_IdentifyDense)->Arg(0)->Arg(1)->ArgName("all_rows")->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_Regressors(benchmark::State& state) {
  const Problem& P = problem(state.range(0) == 1);
  dynid::Data data(P.model);
  for (auto _ : state)
    for (int k = 0; k < kSamples; ++k) {
      const dynid::StateSample& s = P.states[static_cast<std::size_t>(k % kStates)];
      if (P.all_rows)
        benchmark::DoNotOptimize(dynid::joint_torque_regressor(P.model, data, s.q, s.v, s.a).data());
      else
        benchmark::DoNotOptimize(dynid::base_link_regressor(P.model, data, s.q, s.v, s.a).data());
    }
  state.counters["samples"] = kSamples;
}
BENCHMARK(BM_Regressors)->Arg(0)->Arg(1)->ArgName("all_rows")->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

BENCHMARK_MAIN();
