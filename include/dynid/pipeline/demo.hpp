#pragma once
// `dynid demo`: dynid's main job end to end on the bundled robots, as library calls.
//   1. inertial: simulate the kid-size humanoid walking 10 steps (upper body held, realistic
//      sensors) -> identify every leg link's inertial parameters from the foot F/T sensors alone
//      (`--sensors contact`, papers 003/004), physically consistent, validated on the same robot
//      bending its trunk (paper 003's validation motion).
//   2. static: simulate the adult humanoid in paper 000's 172 static poses and its squat ->
//      identify masses and COMs from markers and force plates, validated on the squat.
//   3. actuator: learn the servo_bench hip servo's command by ILC and fit its motor and friction
//      model (paper 002), validated on a held-out trajectory and P gain.
// Each writes its data sets and report under DemoOptions::out_dir; the command prints the tables.

#include <functional>
#include <string>
#include <vector>

#include "dynid/pipeline/actuator_identification.hpp"
#include "dynid/pipeline/inertial_identification.hpp"
#include "dynid/pipeline/static_pipeline.hpp"
#include "dynid/scenarios/scenario.hpp"

namespace dynid {

struct DemoOptions {
  std::string out_dir = "dynid-demo";
  unsigned seed = 1;  ///< of the simulations
  /// Testbed imperfections of every simulated robot and lab (simulate's `--perturb`,
  /// sim/perturbations.hpp); none: the idealised testbed. With `time` the inertial stage aligns
  /// the streams' clocks (`--align-time`), with `markers` the static stage calibrates the marker
  /// mounts (`--calibrate-markers`), as a user with those errors would. The servo bench has none.
  std::vector<std::string> perturbations;
  /// Told, before each step, the command line that does the same; may be empty.
  std::function<void(const std::string&)> announce;
  /// Makes a progress callback (fraction 0..1, what) for each step; may be empty.
  std::function<std::function<void(double, const std::string&)>()> progress;
};

struct InertialDemo {
  ScenarioSummary walk;  ///< the simulation (its true total mass)
  InertialIdentificationResult identification;
  std::string report;  ///< path of report.html
};

struct StaticDemo {
  ScenarioSummary poses;  ///< the static-pose simulation (its true total mass)
  StaticPipelineResult identification;
  std::string report;  ///< path of report.html
};

struct ActuatorDemo {
  ActuatorIdentificationResult identification;
  std::string report;  ///< path of report.html
};

/// Stage 1 into OUT/kid_walk, OUT/kid_trunk_bend and OUT/kid_inertial. Throws if the simulated robot falls.
InertialDemo run_inertial_demo(const DemoOptions& options);

/// Stage 2 into OUT/adult_static_poses, OUT/adult_squat and OUT/adult_static.
StaticDemo run_static_demo(const DemoOptions& options);

/// Stage 3 into OUT/servo_actuator (`identify actuator servo_bench --joint l_hip_pitch`).
ActuatorDemo run_actuator_demo(const DemoOptions& options);

}  // namespace dynid
