// Force plates: the COP of a known point load is the load point; plate types 1-4 give the same
// ground reaction for the same load; hand-computed Kistler cases; combined COP of two plates.

#include "dynid/mocap/force_plate.hpp"

#include <gtest/gtest.h>

#include "mocap/mocap_fixtures.hpp"

namespace dynid {
namespace {

using testing::floor_plate_corners;
using testing::PointLoad;
using testing::wrench_for;

ForcePlate make_plate(int type, double yaw = 0.3) {
  ForcePlate p;
  p.type = type;
  p.corners_world = floor_plate_corners(Vector3(1.2, -0.4, 0.02), 0.3, 0.2, yaw);
  p.origin_plate = type == 3 ? Vector3(0.21, 0.16, -0.041) : Vector3(0.001, -0.002, -0.038);
  for (int k = 0; k < ForcePlate::channel_count(type); ++k) p.channels.push_back(k);
  if (type == 4)
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) p.calibration(i, j) = (i == j ? 1.0 : 0.02 * (i - j));
  return p;
}

const PointLoad kLoad{Vector3(35.0, -12.0, 640.0), Vector3(1.31, -0.35, 0.02), 1.7};

TEST(ForcePlate, PlateFrameFromCorners) {
  const ForcePlate p = make_plate(2, 0.0);
  const Matrix3 R = p.rotation_world_plate();
  EXPECT_TRUE(R.col(2).isApprox(-Vector3::UnitZ())) << "a floor plate's z points down";
  EXPECT_TRUE(R.col(0).isApprox(Vector3::UnitX()));
  EXPECT_NEAR((R.transpose() * R - Matrix3::Identity()).norm(), 0.0, 1e-15);
  EXPECT_TRUE(p.center_world().isApprox(Vector3(1.2, -0.4, 0.02)));
}

TEST(ForcePlate, CopOfAPointLoadIsTheLoadPoint) {
  for (int type : {1, 2, 3, 4}) {
    SCOPED_TRACE(type);
    const ForcePlate plate = make_plate(type);
    const Eigen::VectorXd channels = plate_channels(plate, wrench_for(plate, kLoad));
    const PlateSample s = ground_reaction(plate, plate_wrench(plate, channels));
    EXPECT_LT((s.cop_world - kLoad.point_world).norm(), 1e-12);
    EXPECT_LT((s.force_world - kLoad.force_world).norm(), 1e-10);
    EXPECT_NEAR(s.free_moment, kLoad.tau, 1e-10);
    const Vector3 moment =
        (kLoad.point_world - plate.center_world()).cross(kLoad.force_world) + kLoad.tau * Vector3::UnitZ();
    EXPECT_LT((s.moment_at_center_world - moment).norm(), 1e-10);
  }
}

TEST(ForcePlate, Type2ChannelsFromTheDefinition) {
  // Type 2 by hand: the channels are F and the moment about the transducer origin O, and
  // ORIGIN = centre - O in plate axes.
  const ForcePlate plate = make_plate(2);
  const PlateWrench w = wrench_for(plate, kLoad);
  Eigen::VectorXd ch(6);
  ch << w.force_plate, w.moment_at_center_plate + plate.origin_plate.cross(w.force_plate);
  const PlateSample s = ground_reaction(plate, plate_wrench(plate, ch));
  EXPECT_LT((s.cop_world - kLoad.point_world).norm(), 1e-12);
}

TEST(ForcePlate, KistlerByHand) {
  const ForcePlate plate = make_plate(3, 0.0);
  const Matrix3 R = plate.rotation_world_plate();
  // 400 N shared evenly: COP at the centre.
  Eigen::VectorXd even(8);
  even << 0, 0, 0, 0, -100, -100, -100, -100;  // reaction up = -z of the plate
  PlateSample s = ground_reaction(plate, plate_wrench(plate, even));
  EXPECT_LT((s.cop_world - plate.center_world()).norm(), 1e-12);
  EXPECT_NEAR(s.force_world.z(), 400.0, 1e-12);
  // All on sensor 1, at (a, b) in plate axes: the COP is above it.
  Eigen::VectorXd one(8);
  one << 0, 0, 0, 0, -400, 0, 0, 0;
  s = ground_reaction(plate, plate_wrench(plate, one));
  EXPECT_LT((s.cop_world - (plate.center_world() + R * Vector3(0.21, 0.16, 0.0))).norm(), 1e-12);
  // A horizontal force acts at the surface, az0 above the sensors: no COP shift for a load
  // applied at the centre, even though the sensors see a moment.
  Eigen::VectorXd sheared = even;
  sheared[0] = sheared[1] = 50.0;  // Fx = 100 N
  const double az0 = plate.origin_plate.z();
  // The sensors see My = -Fx az0 from the force at the surface: fz on the -x side grows.
  const double dfz = -100.0 * az0 / (4 * 0.21);
  sheared[4] += dfz;
  sheared[7] += dfz;
  sheared[5] -= dfz;
  sheared[6] -= dfz;
  s = ground_reaction(plate, plate_wrench(plate, sheared));
  EXPECT_LT((s.cop_world - plate.center_world()).norm(), 1e-12);
}

TEST(ForcePlate, TypesAgreeForTheSameLoad) {
  std::vector<PlateSample> samples;
  for (int type : {1, 2, 3, 4}) {
    const ForcePlate plate = make_plate(type);
    samples.push_back(ground_reaction(plate, plate_wrench(plate, plate_channels(plate, wrench_for(plate, kLoad)))));
  }
  for (std::size_t i = 1; i < samples.size(); ++i) {
    EXPECT_LT((samples[i].force_world - samples[0].force_world).norm(), 1e-10);
    EXPECT_LT((samples[i].moment_at_center_world - samples[0].moment_at_center_world).norm(), 1e-10);
    EXPECT_LT((samples[i].cop_world - samples[0].cop_world).norm(), 1e-12);
  }
}

TEST(ForcePlate, CopIsGatedBelowTheThreshold) {
  const ForcePlate plate = make_plate(2);
  PointLoad light = kLoad;
  light.force_world = Vector3(1.0, 0.0, 15.0);
  const PlateWrench w = wrench_for(plate, light);
  EXPECT_TRUE(ground_reaction(plate, w).cop_world.array().isNaN().all());
  EXPECT_TRUE(std::isnan(ground_reaction(plate, w).free_moment));
  EXPECT_TRUE(ground_reaction(plate, w, 10.0).cop_world.allFinite());
  EXPECT_TRUE(ground_reaction(plate, w).force_world.allFinite()) << "the force is still reported";
}

TEST(ForcePlate, CombinedCopIsTheCentreOfTheTwoLoads) {
  ForcePlate left = make_plate(2, 0.0), right = make_plate(3, 0.0);
  right.corners_world.row(0).array() += 0.7;
  const PointLoad a{Vector3(0, 0, 300.0), left.center_world() + Vector3(0.05, 0.02, 0), 0.0};
  const PointLoad b{Vector3(0, 0, 500.0), right.center_world() + Vector3(-0.03, 0.04, 0), 0.0};
  const std::vector<PlateSample> samples = {ground_reaction(left, wrench_for(left, a)),
                                            ground_reaction(right, wrench_for(right, b))};
  const CombinedSample c = combined_ground_reaction({left, right}, samples);
  const Vector3 expected = (300.0 * a.point_world + 500.0 * b.point_world) / 800.0;
  EXPECT_LT((c.cop_world - expected).norm(), 1e-12);
  EXPECT_NEAR(c.force_world.z(), 800.0, 1e-10);
}

TEST(ForcePlate, UnknownTypeIsAnError) {
  ForcePlate p = make_plate(2);
  p.type = 7;
  try {
    plate_wrench(p, Eigen::VectorXd::Zero(6));
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("TYPE 7"), std::string::npos);
  }
}

}  // namespace
}  // namespace dynid
