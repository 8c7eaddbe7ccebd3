// The hot-path algorithms run in a controller's 1 kHz loop: once a Data workspace exists they must
// not touch the heap. malloc is wrapped in this test program to count allocations.

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>

#include "dynid/dynamics/center_of_mass.hpp"
#include "dynid/dynamics/centroidal.hpp"
#include "dynid/dynamics/crba.hpp"
#include "dynid/dynamics/jacobian.hpp"
#include "dynid/dynamics/moving_reference_dynamics.hpp"
#include "dynid/dynamics/regressor.hpp"
#include "dynid/dynamics/rnea.hpp"
#include "dynid/dynamics/static_regressor.hpp"
#include "dynid/ident/angular_acceleration.hpp"
#include "dynid/ident/regressor_row_folder.hpp"
#include "dynid/mocap/marker_ik.hpp"
#include "support/test_models.hpp"

namespace {
std::atomic<long> g_allocations{0};
std::atomic<bool> g_counting{false};
}  // namespace

// AddressSanitizer (scripts/test.sh --sanitize) owns malloc: a second definition of malloc in the
// program bypasses its allocator, and the program aborted before main ("CHECK failed:
// asan_posix.cpp ... tsd_key_inited"), taking every test of dynid_tests with it. Under ASan the
// count comes from its allocation hook instead, which sees malloc, calloc, realloc and operator new.
#if defined(__SANITIZE_ADDRESS__)
#define DYNID_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DYNID_TEST_ASAN 1
#endif
#endif

#ifdef DYNID_TEST_ASAN
// The sanitizer runtimes' allocation hook (declared in clang's allocator_interface header; GCC 12's libasan
// exports it without shipping that header).
extern "C" int __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void*, std::size_t),
                                                         void (*free_hook)(const volatile void*));
namespace {
void count_allocation(const volatile void*, std::size_t) {
  if (g_counting) ++g_allocations;
}
void ignore_free(const volatile void*) {}
const int g_hooks_installed = __sanitizer_install_malloc_and_free_hooks(count_allocation, ignore_free);
}  // namespace
#else
// Eigen allocates with malloc, operator new ends in malloc: counting malloc sees both. glibc's
// __libc_* entry points do the real work.
extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* malloc(std::size_t size) {
  if (g_counting) ++g_allocations;
  return __libc_malloc(size);
}
void* calloc(std::size_t n, std::size_t size) {
  if (g_counting) ++g_allocations;
  return __libc_calloc(n, size);
}
void* realloc(void* p, std::size_t size) {
  if (g_counting) ++g_allocations;
  return __libc_realloc(p, size);
}
}
#endif

namespace dynid {
namespace {

TEST(NoAllocation, HotPathsDoNotAllocate) {
  for (const std::string& stem : test::bundled_robots()) {
    const Model model = test::bundled_robot(stem).model;
    Data data(model);
    std::mt19937 rng(5);
    const test::State s = test::random_state(model, rng);
    std::vector<Force> f_ext(model.bodies.size(), Force::Zero());
    Matrix6X J(6, model.nv);
    g_allocations = 0;
    g_counting = true;
    rnea(model, data, s.q, s.v, s.a);
    rnea(model, data, s.q, s.v, s.a, f_ext);
    nonlinear_effects(model, data, s.q, s.v);
    generalized_gravity(model, data, s.q);
    crba(model, data, s.q);
    joint_torque_regressor(model, data, s.q, s.v, s.a);
    if (model.bodies[1].joint_type == JointType::FreeFlyer) base_link_regressor(model, data, s.q, s.v, s.a);
    com_regressor(model, data, s.q);
    center_of_mass(model, data, s.q, s.v, s.a);
    centroidal_momentum_rate(model, data, s.q, s.v, s.a);
    forward_kinematics(model, data, s.q, s.v, s.a);
    frame_jacobian(model, data, static_cast<int>(model.frames.size()) - 1, ReferenceFrame::LocalWorldAligned, J);
    frame_classical_acceleration(model, data, static_cast<int>(model.frames.size()) - 1);
    g_counting = false;
    EXPECT_EQ(g_allocations.load(), 0) << stem;
    // The counter itself works: a dynamic Eigen vector is one allocation.
    g_allocations = 0;
    g_counting = true;
    VectorX scratch = s.v * 2.0;
    g_counting = false;
    EXPECT_EQ(g_allocations.load(), 1) << scratch.size();
  }
}

// Paper 001's per-sample chain on the walker: omega_dot from the accelerometers, the specific force
// moved to the root, MR-AD, the NIF and the IZMP.
TEST(NoAllocation, MovingReferenceDynamicsAndIzmp) {
  const Robot robot = test::bundled_robot("walker");
  const Model& model = robot.model;
  const AccelerometerArray array = AccelerometerArray::from_model(model, "imu", {"acc_x", "acc_y", "acc_z"});
  MovingReferenceData data(model);
  std::mt19937 rng(6);
  const test::State s = test::random_state(model, rng);
  const VectorX qj = s.q.tail(model.nq - 7), qdj = s.v.tail(model.nv - 6), qddj = s.a.tail(model.nv - 6);
  Eigen::Matrix3Xd readings = Eigen::Matrix3Xd::Random(3, 3);
  const Vector3 w(0.1, -0.2, 0.05), a0(0.3, 0.1, 9.7);
  g_allocations = 0;
  g_counting = true;
  RootMotion root;
  root.angular_velocity = w;
  root.angular_acceleration = array.angular_acceleration(w, a0, readings);
  root.specific_force = array.specific_force_at(Vector3::Zero(), w, root.angular_acceleration, a0);
  const MovingReferenceWrench wrench = moving_reference_wrench(model, data, qj, qdj, qddj, root);
  const Matrix3 R = nif_rotation(Vector3(0.05, 0.0, 1.0));
  const Vector3 z = izmp_on_plane(Force(R * wrench.contact_wrench.linear, R * wrench.contact_wrench.angular), -0.8);
  g_counting = false;
  EXPECT_EQ(g_allocations.load(), 0);
  EXPECT_TRUE(z.allFinite() || z.hasNaN());  // used, so the chain is not optimized away
}

// The per-sample identification step: regressor rows copied into the least-squares stream's
// buffers. (A fold, once per 1024 buffered rows of a column group, lets Eigen's blocked QR take its
// workspace; that is not per sample.)
TEST(NoAllocation, AddingRegressorRowsPerSample) {
  const Model model = test::bundled_robot("biped16").model;
  const BaseParameters base = compute_base_parameters(model);
  BaseParameterOptions contact_rows;
  contact_rows.rows = base_link_rows(model);
  const BaseParameters contact = compute_base_parameters(model, contact_rows);
  StreamingLeastSquares ls(base.num_base()), ls_contact(contact.num_base());
  RegressorRowFolder folder(model, base, ls), folder_contact(model, contact, ls_contact);
  Data data(model);
  std::mt19937 rng(2);
  const test::State s = test::random_state(model, rng);
  const VectorX y = VectorX::Ones(model.nv), weights = VectorX::Constant(model.nv, 2.0);
  for (int k = 0; k < 5; ++k) {
    folder.add(ls, joint_torque_regressor(model, data, s.q, s.v, s.a), y, weights);
    folder_contact.add(ls_contact, base_link_regressor(model, data, s.q, s.v, s.a), y.head(6), weights.head(6));
  }
  g_allocations = 0;
  g_counting = true;
  for (int k = 0; k < 100; ++k) {  // at most 3 x 105 rows per column group: no fold yet
    folder.add(ls, joint_torque_regressor(model, data, s.q, s.v, s.a), y, weights);
    folder_contact.add(ls_contact, base_link_regressor(model, data, s.q, s.v, s.a), y.head(6), weights.head(6));
  }
  g_counting = false;
  EXPECT_EQ(g_allocations.load(), 0);
}

// Marker IK runs per motion-capture frame (thousands per trial): a frame, including rejected steps,
// joints held at their limits and a missing marker, solves in the IK's own workspace.
TEST(NoAllocation, MarkerIkSolvePerFrame) {
  const Model model = test::bundled_robot("adult_humanoid").model;
  MarkerIk ik(model, model_markers(model));
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  VectorX q_true = model.neutral_configuration();
  q_true[2] = 0.9;
  for (std::size_t i = 2; i < model.bodies.size(); ++i) {
    const Body& b = model.bodies[i];
    q_true[b.idx_q] = 0.5 * (b.limits.lower + b.limits.upper) + 0.45 * (b.limits.upper - b.limits.lower) * u(rng);
  }
  const Body& knee = model.bodies[static_cast<std::size_t>(*model.find_joint("l_knee"))];
  q_true[knee.idx_q] = knee.limits.lower;  // at a limit: the step there is held
  Eigen::Matrix3Xd y = ik.model_positions(q_true);
  y.col(7).setConstant(std::numeric_limits<double>::quiet_NaN());  // a dropout
  VectorX q = q_true;
  for (Eigen::Index k = 7; k < q.size(); ++k) q[k] += 0.1 * u(rng);
  q.head<3>() += Vector3(0.02, -0.01, 0.01);
  g_allocations = 0;
  g_counting = true;
  const MarkerIkFrame r = ik.solve(y, q);
  g_counting = false;
  EXPECT_EQ(g_allocations.load(), 0);
  EXPECT_GT(r.iterations, 2);  // it did work: several Levenberg-Marquardt steps
  EXPECT_EQ(r.markers_used, 50);
  EXPECT_LT(r.max, 1e-9);
}

}  // namespace
}  // namespace dynid
