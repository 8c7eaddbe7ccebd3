#pragma once
// `dynid izmp study ROBOT`: paper 001's simulation study, reproducible. Simulates the robot's walk
// (dynid simulate's walk scenario, noise-free sensors) on level ground and up a 10 degree slope, and
// evaluates setups A-E of the paper's Table 3 on both walks:
//   A  IR-MD  ACD 125 Hz, bus 125 Hz        B  MR-AD  125 / 125, algebraic omega_dot
//   C  IR-MD  ACD 500 Hz, bus 125 Hz        D  MR-AD  500 / 125, algebraic omega_dot
//   E  MR-AD  500 / 125, omega_dot by the gyro's difference quotient
// with white noise on the inertial sensors at the ACD rate (sigma = density sqrt(f), sim/sensor_noise;
// IR-MD: on the base velocity, as the paper does). Each setup's relative error Delta is against the
// paper's reference (the same method with ideal signals at ACD = bus = 500 Hz), and its RMS against
// the physical ZMP of the simulator's contact forces, which the paper could not have.

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "dynid/pipeline/izmp.hpp"

namespace dynid {

struct IzmpStudyOptions {
  std::string robot = "walker";
  std::string out_dir;
  unsigned seed = 1;
  int steps = 10;                                             ///< walking steps per walk (the closing step included)
  double slope_deg = 10.0;                                    ///< the second walk's slope
  DifferenceScheme differences = DifferenceScheme::Backward;  ///< the paper's causal difference quotients
  std::function<void(double, const std::string&)> progress;
};

struct IzmpStudySetup {
  std::string name;  ///< "A" ... "E"
  IzmpSettings settings;
  double relative_error_percent = 0.0, physical_zmp_rms_mm = 0.0;
  double relative_error_percent_all = 0.0;  ///< Delta without the 1 cm floor on the reference
};

struct IzmpStudyResult {
  std::vector<IzmpStudySetup> level, slope;
  nlohmann::json summary;  ///< what summary.json holds
  std::string table;       ///< the printed table of Delta (paper 001 figs. 9 and 10)
};

/// The five setups of Table 3 (differences: the quotient every setup uses).
std::vector<IzmpStudySetup> izmp_study_setups(DifferenceScheme differences);

/// Evaluates the setups on one recorded walk (noise-free sensors and a truth stream).
std::vector<IzmpStudySetup> evaluate_izmp_setups(const Robot& robot, const IzmpRecording& recording,
                                                 std::vector<IzmpStudySetup> setups, unsigned noise_seed);

/// Simulates both walks into out_dir/level_walk and out_dir/slope_walk, evaluates them, writes
/// out_dir/summary.json and out_dir/report.html.
IzmpStudyResult run_izmp_study(const IzmpStudyOptions& options);

}  // namespace dynid
