// The motion-capture path against the simulation's truth: on a noise-free squat of the kid-size
// humanoid standing with each foot on its own force plate, the base pose from marker IK, the base
// acceleration and the per-contact wrenches from the plates agree with the truth stream; with
// realistic noise, `identify inertial` from markers and plates recovers the total mass and the
// held-out base wrench; a missing stream, a foot off the plates and two feet on one plate are refused
// by name.

#include "dynid/data/mocap_source.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>

#include "dynid/data/residual_wrench.hpp"
#include "dynid/mocap/filtfilt.hpp"
#include "dynid/pipeline/inertial_identification.hpp"
#include "dynid/scenarios/scenario.hpp"
#include "support/scratch_files.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

class MocapSourceTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    for (const NoiseLevel noise : {NoiseLevel::None, NoiseLevel::Realistic}) {
      ScenarioOptions o;
      o.scenario = "squat";
      o.out_dir = test::fresh_dir("mocap_source", noise == NoiseLevel::None ? "squat_none" : "squat_noisy");
      o.noise = noise;
      run_scenario(test::bundled_robot("kid_humanoid"), o);
      (noise == NoiseLevel::None ? clean_ : noisy_) = o.out_dir;
    }
  }
  /// A copy of the clean data set (stream files linked) with dataset.json changed by `edit`.
  static std::string edited(const std::string& name, const std::function<void(json&)>& edit) {
    const std::string dir = test::fresh_dir("mocap_source", name);
    fs::create_directories(dir);
    for (const auto& e : fs::directory_iterator(clean_))
      if (e.path().filename() != "dataset.json")
        fs::create_symlink(fs::absolute(e.path()), dir + "/" + e.path().filename().string());
    json j = json::parse(std::ifstream(clean_ + "/dataset.json"));
    edit(j);
    std::ofstream(dir + "/dataset.json") << j.dump(2);
    return dir;
  }
  static std::string refusal(const std::string& dir) {
    const Robot robot = test::bundled_robot("kid_humanoid");
    try {
      MocapSource s(robot.model, *robot.sidecar, read_dataset_info(dir));
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "(accepted)";
  }
  static std::string clean_, noisy_;
};
std::string MocapSourceTest::clean_, MocapSourceTest::noisy_;

Matrix3 rotation(const VectorX& q) { return Eigen::Quaterniond(q[6], q[3], q[4], q[5]).toRotationMatrix(); }

TEST_F(MocapSourceTest, RebuildsTheTrueBaseAndContactWrenches) {
  // The mocap path low-passes (4 Hz); the truth carries contact and servo chatter. The base
  // twist and acceleration are compared with the truth's own configurations (1 kHz, exact)
  // through the same filter and differences, the wrenches with the truth's through the same
  // filter: what remains is the path's own error (marker IK at 150 Hz with millisecond time
  // stamps, interpolation between marker frames and plate samples, the plate-to-contact
  // assignment and the sign and moment point of the plate wrench).
  const Robot robot = test::bundled_robot("kid_humanoid");
  const DatasetInfo info = read_dataset_info(clean_);
  const MocapSourceOptions options;
  MocapSource mocap(robot.model, *robot.sidecar, info, options);
  const std::size_t nc = robot.sidecar->contacts.size();
  ASSERT_EQ(nc, 2u);
  ASSERT_EQ(mocap.plate_contacts().size(), 2u);  // each plate went to its own contact
  EXPECT_GE(mocap.plate_contacts()[0], 0);
  EXPECT_GE(mocap.plate_contacts()[1], 0);
  EXPECT_NE(mocap.plate_contacts()[0], mocap.plate_contacts()[1]);

  TruthSource truth(robot.model, *robot.sidecar, info);
  std::vector<MotionSample> truth_samples;
  std::vector<double> truth_time;
  std::vector<VectorX> truth_q;
  for (MotionSample t; truth.next(t);) {
    truth_time.push_back(t.time);
    truth_q.push_back(t.q);
    truth_samples.push_back(t);
  }
  const SampledMotion reference = differentiate_configurations(robot.model, truth_time, truth_q, options.cutoff_hz);
  const Eigen::Index m = 12 + 6 * static_cast<Eigen::Index>(nc);
  std::vector<Eigen::VectorXd> est, ref;  // per sample: base twist (6), acceleration (6), wrench per contact (6)
  double pos_err2 = 0.0, rot_err2 = 0.0;
  std::size_t j = 0;
  for (MotionSample s; mocap.next(s);) {
    while (truth_time[j] < s.time - 1e-9) ASSERT_LT(++j, truth_time.size());
    ASSERT_NEAR(truth_time[j], s.time, 1e-9);
    const MotionSample& t = truth_samples[j];
    // The pose against the truth's configuration through the same filter: the marker IK's own error.
    const VectorX& q_ref = reference.q[j];
    pos_err2 += (s.q.head<3>() - q_ref.head<3>()).squaredNorm();
    const double angle = Eigen::AngleAxisd(rotation(s.q).transpose() * rotation(q_ref)).angle();
    rot_err2 += angle * angle;
    Eigen::VectorXd e(m), r(m);
    e << s.v.head<6>(), s.a.head<6>(), Eigen::VectorXd::Zero(6 * static_cast<Eigen::Index>(nc));
    r << reference.v[j].head<6>(), reference.a[j].head<6>(), Eigen::VectorXd::Zero(6 * static_cast<Eigen::Index>(nc));
    for (std::size_t c = 0; c < nc; ++c) {
      e.segment<6>(12 + 6 * static_cast<Eigen::Index>(c)) = s.contact_wrenches[c].to_vector();
      r.segment<6>(12 + 6 * static_cast<Eigen::Index>(c)) = t.contact_wrenches[c].to_vector();
    }
    est.push_back(e);
    ref.push_back(r);
  }
  const Eigen::Index n = static_cast<Eigen::Index>(est.size());
  ASSERT_GT(n, 3500);  // 5 s at 1 kHz less 2.5 cut-off periods at each end
  Eigen::MatrixXd E(m, n), T(m, n);
  for (Eigen::Index k = 0; k < n; ++k) {
    E.col(k) = est[static_cast<std::size_t>(k)];
    T.col(k) = ref[static_cast<std::size_t>(k)];
  }
  T.bottomRows(m - 12) = filtfilt_rows(butterworth_lowpass(2, options.cutoff_hz, 1000.0), T.bottomRows(m - 12));
  // Away from the ends, where the two series' filter edge transients differ.
  const Eigen::Index edge = 200, inner = n - 2 * edge;
  const auto rms = [&](const Eigen::MatrixXd& X, Eigen::Index row) {
    return std::sqrt(X.block(row, edge, 3, inner).squaredNorm() / static_cast<double>(inner));
  };
  const Eigen::MatrixXd D = E - T;
  const double pos_rms = std::sqrt(pos_err2 / static_cast<double>(n));
  const double rot_rms = std::sqrt(rot_err2 / static_cast<double>(n));
  std::printf("base pose RMS error: position %.3g mm, orientation %.3g mrad\n", 1e3 * pos_rms, 1e3 * rot_rms);
  const char* const rows[4] = {"linear velocity [m/s]", "angular velocity [rad/s]", "linear acceleration [m/s^2]",
                               "angular acceleration [rad/s^2]"};
  for (int r = 0; r < 4; ++r) std::printf("base %s: RMS error %.3g of %.3g\n", rows[r], rms(D, 3 * r), rms(T, 3 * r));
  EXPECT_LT(pos_rms, 1e-5);  // noise-free markers printed to 0.1 um: the IK fits them
  EXPECT_LT(rot_rms, 5e-5);
  EXPECT_LT(rms(D, 0), 1e-3 * rms(T, 0));
  EXPECT_LT(rms(D, 3), 1e-2 * rms(T, 3));
  EXPECT_LT(rms(D, 6), 2e-2 * rms(T, 6));
  EXPECT_LT(rms(D, 9), 0.15 * rms(T, 9));  // the squat barely turns the base (0.03 rad/s^2 RMS)
  for (std::size_t c = 0; c < nc; ++c) {
    const Eigen::Index r = 12 + 6 * static_cast<Eigen::Index>(c);
    std::printf("contact %s: force RMS error %.3g N of %.3g, torque about the world origin %.3g N m of %.3g\n",
                robot.sidecar->contacts[c].name.c_str(), rms(D, r), rms(T, r), rms(D, r + 3), rms(T, r + 3));
    // The plates sample the contacts' chatter at 900 Hz, the truth at 1 kHz: a few 1e-3 of the load.
    EXPECT_LT(rms(D, r), 5e-3 * rms(T, r));
    EXPECT_LT(rms(D, r + 3), 5e-3 * rms(T, r + 3));
  }
}

TEST_F(MocapSourceTest, RealisticMocapRecoversTheMassAndTheBaseWrench) {
  InertialIdentificationOptions o;
  o.model = "kid_humanoid";
  o.data = noisy_;
  o.sensors = "contact";
  o.truth_urdf = noisy_ + "/truth.urdf";
  o.source = "mocap";
  const InertialIdentificationResult r = run_inertial_identification(o);
  std::printf(
      "mocap source: total mass %.4f kg (truth %.4f, nominal %.4f), held-out base force RMS %.3g -> %.3g N, "
      "moment %.3g -> %.3g N m\n",
      r.total_mass, *r.truth_total_mass, r.nominal_total_mass, r.nominal_rms.force, r.identified_rms.force,
      r.nominal_rms.moment, r.identified_rms.moment);
  EXPECT_LT(std::abs(r.total_mass - *r.truth_total_mass), 0.01 * *r.truth_total_mass);
  EXPECT_LT(r.identified_rms.force, 0.05 * r.nominal_rms.force) << r.summary_json;
  EXPECT_LT(r.identified_rms.moment, 0.5 * r.nominal_rms.moment) << r.summary_json;
}

TEST_F(MocapSourceTest, MissingStreamsAndFeetOffThePlatesAreRefused) {
  const std::string no_markers = edited("no_markers", [](json& j) { j["streams"].erase("markers"); });
  EXPECT_NE(refusal(no_markers).find("no 'markers' stream"), std::string::npos) << refusal(no_markers);
  const std::string no_plates = edited("no_plates", [](json& j) {
    j["streams"].erase("plates");
    j.erase("force_plates");
  });
  EXPECT_NE(refusal(no_plates).find("no force plates"), std::string::npos) << refusal(no_plates);
  const std::string no_corners = edited("no_corners", [](json& j) { j["force_plates"][0].erase("corners"); });
  EXPECT_NE(refusal(no_corners).find("has no corners"), std::string::npos) << refusal(no_corners);
  // The plates moved 1 m away: the robot's weight on a plate no foot stands on.
  const std::string moved = edited("moved", [](json& j) {
    for (json& p : j["force_plates"]) {
      p["origin"][0] = p["origin"][0].get<double>() + 1.0;
      for (json& c : p["corners"]) c[0] = c[0].get<double>() + 1.0;
    }
  });
  EXPECT_NE(refusal(moved).find("no contact stands on it"), std::string::npos) << refusal(moved);
  // Only the first plate listed: the other foot is down off the plates.
  const std::string one_plate = edited("one_plate", [](json& j) { j["force_plates"].erase(1); });
  EXPECT_NE(refusal(one_plate).find("off the force plates"), std::string::npos) << refusal(one_plate);
  // The first plate's corners spread under both feet while it carries load.
  const std::string shared = edited("shared", [](json& j) {
    json& p = j["force_plates"][0];
    const double x = p["origin"][0], z = p["origin"][2];
    p["corners"] = json::array({{x + 1, 1, z}, {x - 1, 1, z}, {x - 1, -1, z}, {x + 1, -1, z}});
  });
  EXPECT_NE(refusal(shared).find("one plate cannot split"), std::string::npos) << refusal(shared);
  // Joints from the markers with the kid's marker set (pelvis and torso only): the legs are unseen.
  const Robot robot = test::bundled_robot("kid_humanoid");
  MocapSourceOptions from_markers;
  from_markers.joints = MocapJoints::Markers;
  try {
    MocapSource s(robot.model, *robot.sidecar, read_dataset_info(clean_), from_markers);
    ADD_FAILURE() << "joints without markers were accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("no marker of"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("hip"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace dynid
