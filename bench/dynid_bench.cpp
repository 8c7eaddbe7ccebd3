// dynid-bench: timings of the hot-path algorithms on one robot (floating base; a URDF whose root
// is a `world` link, e.g. arm7, is timed with its fixed base).
//   dynid-bench [--model URDF|STEM] [--benchmark_filter=...] [--benchmark_repetitions=N] ...
// States are drawn once (seeded) and cycled so that the loop sees varied configurations.

#include <benchmark/benchmark.h>

#include <cstring>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "dynid/dynamics/centroidal.hpp"
#include "dynid/dynamics/crba.hpp"
#include "dynid/dynamics/moving_reference_dynamics.hpp"
#include "dynid/dynamics/regressor.hpp"
#include "dynid/dynamics/rnea.hpp"
#include "dynid/ident/base_parameters.hpp"
#include "dynid/model/robot.hpp"

namespace {

struct Fixture {
  dynid::Model model;
  std::vector<dynid::VectorX> q, v, a;
};

Fixture& fixture() {
  static Fixture f;
  return f;
}

void draw_states(Fixture& f, int count) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int k = 0; k < count; ++k) {
    dynid::VectorX q = f.model.neutral_configuration();
    for (std::size_t i = 1; i < f.model.bodies.size(); ++i) {
      const dynid::Body& b = f.model.bodies[i];
      if (b.joint_type == dynid::JointType::FreeFlyer) {
        q.segment<3>(b.idx_q) << u(rng), u(rng), u(rng);
        Eigen::Vector4d quat(u(rng), u(rng), u(rng), u(rng));
        q.segment<4>(b.idx_q + 3) = quat.normalized();
      } else {
        q[b.idx_q] = std::isfinite(b.limits.lower)
                         ? b.limits.lower + (0.5 + 0.5 * u(rng)) * (b.limits.upper - b.limits.lower)
                         : 3.0 * u(rng);
      }
    }
    dynid::VectorX v(f.model.nv), a(f.model.nv);
    for (int i = 0; i < f.model.nv; ++i) {
      v[i] = u(rng);
      a[i] = u(rng);
    }
    f.q.push_back(q);
    f.v.push_back(v);
    f.a.push_back(a);
  }
}

void BM_RNEA(benchmark::State& state) {
  const Fixture& f = fixture();
  dynid::Data data(f.model);
  std::size_t k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(dynid::rnea(f.model, data, f.q[k], f.v[k], f.a[k]).data());
    k = (k + 1) % f.q.size();
  }
}
BENCHMARK(BM_RNEA);

void BM_CRBA(benchmark::State& state) {
  const Fixture& f = fixture();
  dynid::Data data(f.model);
  std::size_t k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(dynid::crba(f.model, data, f.q[k]).data());
    k = (k + 1) % f.q.size();
  }
}
BENCHMARK(BM_CRBA);

void BM_Regressor(benchmark::State& state) {
  const Fixture& f = fixture();
  dynid::Data data(f.model);
  std::size_t k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(dynid::joint_torque_regressor(f.model, data, f.q[k], f.v[k], f.a[k]).data());
    k = (k + 1) % f.q.size();
  }
}
BENCHMARK(BM_Regressor);

/// The 6 base-link rows alone (contact-force identification); floating-base models only.
void BM_BaseLinkRegressor(benchmark::State& state) {
  const Fixture& f = fixture();
  if (!f.model.floating_base) {
    state.SkipWithError("a fixed-base model has no base-link rows");
    return;
  }
  dynid::Data data(f.model);
  std::size_t k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(dynid::base_link_regressor(f.model, data, f.q[k], f.v[k], f.a[k]).data());
    k = (k + 1) % f.q.size();
  }
}
BENCHMARK(BM_BaseLinkRegressor);

void BM_CentroidalMomentumRate(benchmark::State& state) {
  const Fixture& f = fixture();
  dynid::Data data(f.model);
  std::size_t k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(dynid::centroidal_momentum_rate(f.model, data, f.q[k], f.v[k], f.a[k]).linear.data());
    k = (k + 1) % f.q.size();
  }
}
BENCHMARK(BM_CentroidalMomentumRate);

/// Paper 001 per field-bus sample: MR-AD's wrench about the moving root, the NIF and the IZMP
/// (docs/robust-inverse-dynamics.md; compare with BM_RNEA on the same --model, e.g. walker).
void BM_MovingReferenceIzmp(benchmark::State& state) {
  const Fixture& f = fixture();
  dynid::MovingReferenceData data(f.model);
  const Eigen::Index nj = f.model.nv - 6;
  std::size_t k = 0;
  for (auto _ : state) {
    dynid::RootMotion root;
    root.angular_velocity = f.v[k].segment<3>(3);
    root.angular_acceleration = f.a[k].segment<3>(3);
    root.specific_force = f.a[k].head<3>() + dynid::Vector3(0.0, 0.0, 9.81);
    const dynid::MovingReferenceWrench w =
        dynid::moving_reference_wrench(f.model, data, f.q[k].tail(nj), f.v[k].tail(nj), f.a[k].tail(nj), root);
    const dynid::Matrix3 R = dynid::nif_rotation(dynid::Vector3(0.05, 0.0, 1.0));
    const dynid::Vector3 z =
        dynid::izmp_on_plane(dynid::Force(R * w.contact_wrench.linear, R * w.contact_wrench.angular), -0.8);
    benchmark::DoNotOptimize(z.data());
    k = (k + 1) % f.q.size();
  }
}
BENCHMARK(BM_MovingReferenceIzmp);

/// Base parameters, one whole analysis per iteration. Args: random states (0 = default), base rows
/// only (1) or all rows (0).
void BM_BaseParameters(benchmark::State& state) {
  const Fixture& f = fixture();
  dynid::BaseParameterOptions options;
  options.num_samples = static_cast<int>(state.range(0));
  if (state.range(1) == 1 && !f.model.floating_base) {
    state.SkipWithError("a fixed-base model has no base-link rows");
    return;
  }
  if (state.range(1) == 1) options.rows = dynid::base_link_rows(f.model);
  for (auto _ : state) benchmark::DoNotOptimize(dynid::compute_base_parameters(f.model, options).K.data());
}
BENCHMARK(BM_BaseParameters)
    ->Args({0, 0})
    ->Args({0, 1})
    ->Args({2000, 0})
    ->Args({2000, 1})
    ->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  std::string model = "adult_humanoid";
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--model") == 0 && i + 1 < argc) {
      model = argv[++i];
    } else if (std::strncmp(argv[i], "--model=", 8) == 0) {
      model = argv[i] + 8;
    } else {
      rest.push_back(argv[i]);
    }
  }
  try {
    if (!std::getenv("DYNID_MODELS_DIR")) setenv("DYNID_MODELS_DIR", DYNID_MODELS_DIR, 0);
    dynid::UrdfReadOptions options;
    options.floating_base = true;
    try {
      fixture().model = dynid::load_robot(model, options).model;
    } catch (const std::exception&) {  // a robot bolted to the world (arm7, servo_bench): fixed base
      options.floating_base = false;
      fixture().model = dynid::load_robot(model, options).model;
    }
  } catch (const std::exception& e) {
    std::cerr << "dynid-bench: " << e.what() << "\n";
    return 2;
  }
  draw_states(fixture(), 64);
  std::cerr << "model " << fixture().model.name << ": nq " << fixture().model.nq << ", nv " << fixture().model.nv
            << ", bodies " << fixture().model.num_moving_bodies() << "\n";
  int n = static_cast<int>(rest.size());
  benchmark::Initialize(&n, rest.data());
  if (benchmark::ReportUnrecognizedArguments(n, rest.data())) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
