#include "dynid/sim/true_model.hpp"

#include <random>
#include <stdexcept>

#include "dynid/core/random_draws.hpp"

namespace dynid {

double true_total_mass(const std::string& robot_name, double nominal_total_mass) {
  if (robot_name == "adult_humanoid") return 77.6;  // paper 000, weighed REEM-C
  if (robot_name == "kid_humanoid") return 8.0;     // paper 003, weighed UT-mu2
  return 1.10 * nominal_total_mass;
}

double true_total_mass(const Model& nominal) {
  if (nominal.name == "adult_humanoid" || nominal.name == "kid_humanoid" || nominal.floating_base)
    return true_total_mass(nominal.name, nominal.total_mass());
  const double welded = nominal.bodies.empty() ? 0.0 : nominal.bodies.front().inertia.mass;
  return nominal.total_mass() + 0.10 * (nominal.total_mass() - welded);
}

namespace {

/// Radius of gyration about the COM, a length scale for where added masses can sit.
double gyration_radius(const Inertia& I) {
  if (!(I.mass > 0.0)) return 0.02;
  return std::max(0.01, std::sqrt(I.inertia_com().trace() / (2.0 * I.mass)));
}

bool is_trunk(const std::string& name) {
  return name.find("torso") != std::string::npos || name.find("trunk") != std::string::npos ||
         name.find("chest") != std::string::npos;
}

}  // namespace

TrueModel make_true_model(const Model& nominal, double target_total_mass, unsigned seed) {
  const double missing = target_total_mass - nominal.total_mass();
  if (missing < 0.0) throw std::invalid_argument("true total mass is below the nominal mass");
  TrueModel out{nominal, {}};
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);

  // Moving bodies only: what is welded to the world does not affect identification.
  double limb_mass = 0.0;
  std::vector<int> base_bodies;
  for (int i = 1; i < static_cast<int>(nominal.bodies.size()); ++i) {
    const Body& b = nominal.bodies[static_cast<std::size_t>(i)];
    if ((nominal.floating_base && b.parent == 0) || is_trunk(b.name))
      base_bodies.push_back(i);
    else
      limb_mass += b.inertia.mass;
  }
  double total_moving = 0.0;
  for (int i = 1; i < static_cast<int>(nominal.bodies.size()); ++i)
    total_moving += nominal.bodies[static_cast<std::size_t>(i)].inertia.mass;

  auto add = [&](int body, const std::string& cause, double mass, const Vector3& offset_dir, double spread) {
    if (mass <= 0.0) return;
    Body& b = out.model.bodies[static_cast<std::size_t>(body)];
    const double r = gyration_radius(nominal.bodies[static_cast<std::size_t>(body)].inertia);
    const Vector3 position = b.inertia.com() + spread * r * offset_dir;
    // A small solid sphere (radius r/4), so the added body has its own rotational inertia.
    const double rs = 0.25 * r;
    const Inertia added = Inertia::from_com(mass, position, Matrix3::Identity() * (0.4 * mass * rs * rs));
    b.inertia += added;
    out.perturbations.push_back({b.name, cause, mass, position});
  };
  auto random_dir = [&] { return draw_vector3(u, rng); };

  const double battery = base_bodies.empty() ? 0.0 : (limb_mass > 0.0 ? 0.4 * missing : missing);
  // Without a base to carry batteries, motors, cables and paint share all of the missing mass.
  const double limb_scale = base_bodies.empty() ? 1.0 / 0.6 : 1.0;
  if (nominal.name == "adult_humanoid") {
    // A full-size humanoid carries its batteries as packs on its back (REEM-C, TALOS): well behind
    // the CAD COM of the pelvis and the torso, where the nominal model has nothing; one pack sits
    // off to the left, the other side of the back taken by the harness of the computers. This is
    // what makes a CAD model's GCOM centimetres off on such robots (paper 000: 9.2 mm mean).
    const Vector3 back(-1.0, 0.0, 0.0), left(0.0, 1.0, 0.0);
    for (int i : base_bodies) {
      const Vector3 dir = back + (is_trunk(nominal.bodies[static_cast<std::size_t>(i)].name) ? 0.5 : 0.0) * left;
      add(i, "battery", battery / static_cast<double>(base_bodies.size()), dir + 0.3 * random_dir(), 1.2);
    }
  } else {
    for (int i : base_bodies) add(i, "battery", battery / static_cast<double>(base_bodies.size()), random_dir(), 0.6);
  }
  if (limb_mass > 0.0) {
    for (int i = 1; i < static_cast<int>(nominal.bodies.size()); ++i) {
      const Body& b = nominal.bodies[static_cast<std::size_t>(i)];
      if ((nominal.floating_base && b.parent == 0) || is_trunk(b.name)) continue;
      const double share = b.inertia.mass / limb_mass;
      add(i, "motor", 0.3 * limb_scale * missing * share, random_dir(), 0.5);
      // Cables run toward the parent joint: the body frame origin is at that joint.
      const Vector3 toward_joint = -b.inertia.com().normalized();
      add(i, "cable", 0.2 * limb_scale * missing * share, toward_joint.allFinite() ? toward_joint : random_dir(), 0.8);
    }
  }
  const double paint_total = limb_mass > 0.0 ? 0.1 * limb_scale * missing : 0.0;
  for (int i = 1; i < static_cast<int>(nominal.bodies.size()) && paint_total > 0.0; ++i) {
    const Body& b = nominal.bodies[static_cast<std::size_t>(i)];
    add(i, "paint", paint_total * b.inertia.mass / total_moving, random_dir(), 0.9);
  }
  // Rounding: the last body absorbs the difference so the total is exact.
  const double residual = target_total_mass - out.model.total_mass();
  if (std::abs(residual) > 1e-12 && !out.perturbations.empty()) {
    Body& b = out.model.bodies[static_cast<std::size_t>(base_bodies.empty() ? 1 : base_bodies.front())];
    b.inertia += Inertia::from_com(residual, b.inertia.com(), Matrix3::Zero());
  }
  return out;
}

}  // namespace dynid
