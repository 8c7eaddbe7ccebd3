// dynid identify SUBCOMMAND: identification commands. `inertial` is here; each further
// subcommand registers itself with one line in register_identify.
//
// dynid identify inertial MODEL DATA --sensors SET --out DIR [--source sensors|mocap|truth] [--truth URDF]
//   [--plates GRF.mot --plate-layout LAYOUT [--plates-unit m|mm] [--up y]]
//   [--validate DATA | --validate-split F | --validate-window FROM:TO|SEGMENT] [--lock JOINT=VALUE ...] [--consistent]
//   [--prior WEIGHT] [--weighting sensors|residual]
//   [--fixed-base] [--torque-offsets] [--torque-gains | --torque-gain-std F] [--ft-calibration [--ft-calibration-std
//   F]] [--total-mass KG
//   [--total-mass-std KG]] [--friction viscous,coulomb,offset] [--armature]
//   [--friction-joint JOINT=TERMS ...]
//   [--coulomb-smoothing-velocity RAD_S]
//   [--fix-mass-com URDF]
//   [--cutoff HZ] [--no-lowpass] [--velocities differentiated|logged] [--imu-calibration [--imu-axes SUMMARY]]
//   [--no-imu-bias] [--gyro-noise D]
//   [--accelerometer-noise D] [--imu-noise-from-data] [--parallel-filter HZ] [--parallel-filter-all-rows]
//   [--time-offset STREAM=S ...]
//   [--align-time] [--align-kinematics-only] [--align-drift]
//   [--wrenches auto|ft|plates] [--mocap-joints auto|encoders|markers] [--holdout FRACTION]
//   [--quiet]

#include <cmath>
#include <iostream>
#include <optional>

#include "commands.hpp"
#include "dynid/core/staged_directory.hpp"
#include "dynid/mocap/c3d_import.hpp"
#include "dynid/pipeline/inertial_identification.hpp"
#include "progress_line.hpp"

namespace dynid::cli {
namespace {

/// "NAME=NUMBER" of a repeatable option, or an error naming the option and its form.
std::pair<std::string, double> name_equals_number(const std::string& text, const std::string& option,
                                                  const std::string& form) {
  const std::size_t eq = text.find('=');
  std::size_t used = 0;
  double value = 0.0;
  try {
    if (eq != std::string::npos) value = std::stod(text.substr(eq + 1), &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (eq == std::string::npos || eq == 0 || used == 0 || used != text.size() - eq - 1 || !std::isfinite(value))
    throw std::invalid_argument(option + " '" + text + "': expected " + form);
  return {text.substr(0, eq), value};
}

void register_identify_inertial(CLI::App& identify, Action& action) {
  auto* cmd = identify.add_subcommand(
      "inertial", "Identify every link's mass, COM and inertia from motion data and any force sensor set");
  struct Args {
    InertialIdentificationOptions o;
    std::vector<std::string> locks;
    std::string mocap_joints = "auto";
    std::optional<double> cutoff_hz;
    std::string velocities = "differentiated";
    std::string prior = "auto";
    std::string prior_scale = "learned";
    std::string prior_frame = "origin";
    bool quiet = false;
    bool no_lowpass = false, no_imu_bias = false, imu_noise_from_data = false, align_kinematics_only = false;
    std::vector<std::string> time_offsets;
    std::vector<std::string> gear_stiffness;
    std::string gear_backlash;
    std::vector<std::string> friction_joints;
    C3dImportOptions trial_plates;  ///< a TRC trial's force plates (--plates ...)
    std::string validate_plates;    ///< a TRC --validate's ground reaction file
  };
  auto args = std::make_shared<Args>();
  InertialIdentificationOptions& o = args->o;
  cmd->add_option("MODEL", o.model, "URDF or MJCF file, or bundled robot name (needs its sidecar)")->required();
  cmd->add_option("DATA", o.data,
                  "Data set directory (docs/data-format.md), or a lab's C3D/TRC trial (imported; a TRC with --plates)")
      ->required();
  add_trial_plate_options(*cmd, args->trial_plates);
  cmd->add_option("--sensors", o.sensors,
                  "full | contact | joints | minimal (the smallest set for the data's contact states) | "
                  "comma-separated joint and contact names")
      ->required();
  cmd->add_option("--out", o.out_dir, "Output directory")->required();
  cmd->add_option("--source", o.source,
                  "sensors (default: encoders, IMU, F/T, what a real robot has) | mocap (markers, force plates, "
                  "encoders) | truth (oracle: the simulator's noise-free stream)")
      ->check(CLI::IsMember({"truth", "sensors", "mocap"}))
      ->default_val("sensors");
  cmd->add_option("--truth", o.truth_urdf, "True URDF: report the error of the identified base parameters");
  cmd->add_option("--validate", o.validate,
                  "Data set for validation, or a lab's C3D or TRC trial (default: the last 30 % of DATA)");
  cmd->add_option("--validate-plates", args->validate_plates,
                  "With a TRC trial as --validate: its ground reaction file (.mot/.sto; plates where --plate-layout "
                  "says)");
  cmd->add_option("--holdout,--validate-split", o.holdout_fraction,
                  "Held-out share at the end of DATA when --validate is not given (default 0.3)")
      ->check(CLI::Range(0.01, 0.99));
  cmd->add_option("--validate-window", o.validation_window,
                  "Hold out this window of DATA instead: FROM:TO [s, the data set's time] or the label of one of "
                  "its segments (dataset.json); the fit uses the rest, before and after it");
  cmd->add_option("--lock", args->locks, "Hold a joint at a position: JOINT=VALUE (rad or m); repeatable");
  cmd->add_flag("--lock-upper-body", o.lock_upper_body,
                "Lock every joint off the legs at its neutral value (data of simulate --lock-upper-body)");
  cmd->add_flag("--consistent", o.consistent, "Physically consistent estimate (every link a rigid body)");
  cmd->add_option("--consistent-prior", o.consistent_fit.prior_weight,
                  "Pull of the consistent fit toward the nominal model (scaled parameters, relative to the data)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--consistent-iterations", o.consistent_fit.max_iterations,
                  "Newton iterations per barrier step of the consistent fit at most")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--prior", args->prior,
                  "auto (default): keep what the data do not determine at the CAD model, with the data's weight from "
                  "their own spread (docs/identification.md); or a number: weight of an isotropic pull toward the "
                  "nominal base parameters relative to the data (0 = none)");
  cmd->add_option("--prior-scale", args->prior_scale,
                  "With --prior auto: learned (default): the CAD prior's scale per class of parameter (mass, first "
                  "moment, diagonal inertia, products of inertia) from the data; or a number: one fraction of each "
                  "body's own scale for all (0.3 before dynid learned it)");
  cmd->add_option("--prior-frame", args->prior_frame,
                  "With --prior auto: origin (default): the CAD prior on the standard parameters (first moments, "
                  "inertia about the body origin) independently; com: on each body's mass, centre of mass and "
                  "inertia about the COM, so the inertia about the joint moves with the mass as the parallel-axis "
                  "theorem says (the demo's; better with a clean data path such as --parallel-filter, worse where "
                  "the data bias masses or COMs: docs/identification.md)")
      ->check(CLI::IsMember({"com", "origin"}));
  cmd->add_flag("--keep-at-cad", o.keep_at_cad,
                "With --prior auto: the base parameters the motion does not determine (\"kept at CAD\", the data "
                "took at most 25 % of their prior variance, or --keep-below's share) are set to their CAD values, and "
                "the rest re-estimated "
                "given them (docs/identification.md, \"Keeping at CAD\")");
  cmd->add_option("--keep-below", o.keep_below,
                  "With --keep-at-cad: hold the base parameters whose determination is at most this (default 0.25, "
                  "the report's \"kept at CAD\"; 0.5 also holds the less determined half of \"partly determined\")")
      ->check(CLI::Range(0.0, 0.99));
  cmd->add_option("--weighting", o.weighting,
                  "Row weights: sensors (their noise) | residual (each equation also by its own residual, Gautier)")
      ->check(CLI::IsMember({"sensors", "residual"}));
  cmd->add_flag("--torque-offsets", o.torque_offsets,
                "Also estimate a constant offset of each joint torque sensor of the set (summary.json torque_offsets)");
  cmd->add_flag("--torque-gains", o.torque_gains,
                "Also estimate the gain of each joint torque sensor of the set, the contact wrenches fixing the scale "
                "(summary.json torque_gains)");
  cmd->add_option("--torque-gain-std", o.torque_gain_std,
                  "The joint torque sensors' gain accuracy (a fraction, 1 sigma), not estimated but counted: what such "
                  "gain errors do to the estimate is added to the standard deviations (base_parameters.json "
                  "std_from_torque_gains); for sets that cannot estimate the gains (a fixed-base arm). Not with "
                  "--torque-gains")
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--ft-calibration", o.ft_calibration,
                "Also estimate the calibration of each measured contact wrench's F/T sensor (force and moment "
                "3x3 corrections in the sensor's frame, prior --ft-calibration-std), with --total-mass for their scale "
                "(summary.json ft_calibration; docs/identification.md, \"F/T calibration and a weighed total mass\")");
  cmd->add_option("--ft-calibration-std", o.ft_calibration_std,
                  "With --ft-calibration: prior standard deviation of each correction entry (default 0.02: a six-axis "
                  "sensor's accuracy class)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--total-mass", o.total_mass_kg,
                  "The robot's total mass weighed on a scale [kg]: one more equation, the sum of the masses")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--total-mass-std", o.total_mass_std_kg,
                  "With --total-mass: the scale's standard deviation [kg] (default 0.1 % of the mass)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--gear-windup", o.gear_windup_deg,
                  "The gears' twist at each joint's effort limit [deg] (one gear class, e.g. a catalogue's "
                  "stiffness): taken off the encoders under the first fit's link torques, then the fit again "
                  "(summary.json gear_windup; docs/identification.md, \"Gear wind-up\")")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--gear-backlash", args->gear_backlash,
                  "DEG|sidecar: the gears' play [deg, total, joint side] as motor-side encoders see it, or each "
                  "sidecar actuator's backlash [rad]: the rotor's place in it, on the flank the link torque names "
                  "and crossing it against the sidecar's armature, taken off the encoders under the first fit's "
                  "link torques, then the fit again (summary.json gear_backlash; docs/identification.md, \"Gear "
                  "backlash\")");
  cmd->add_option("--gear-windup-torque-cutoff", o.gear_windup_torque_cutoff_hz,
                  "With --gear-windup / --gear-stiffness / --gear-backlash: low-pass of the link torques the "
                  "correction uses [Hz] "
                  "(default 3; the correction is differentiated twice with the encoders)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--gear-stiffness", args->gear_stiffness,
                  "A joint's torsional stiffness behind its encoder, JOINT=K [N m/rad] (a catalogue's or a bench's; "
                  "repeat per joint; for that joint instead of --gear-windup's class value), or `sidecar`: each "
                  "sidecar actuator's torsional_stiffness");
  cmd->add_flag("--fixed-base", o.fixed_base,
                "The robot's root is fixed to the world (an arm); without a sidecar every joint's torque is taken "
                "as measured");
  cmd->add_option("--friction", o.friction,
                  "Joint friction terms estimated per joint with a torque sensor: any of viscous,coulomb,offset "
                  "(or coulomb-asymmetric: a level per direction; summary.json friction; docs/identification.md, "
                  "\"Joint friction and armature\")");
  cmd->add_option("--friction-joint", args->friction_joints,
                  "One joint's friction terms instead of --friction / --armature, JOINT=TERMS (the --friction list, "
                  "armature allowed; none: no term; repeatable), e.g. a3=viscous,coulomb")
      ->type_name("JOINT=TERMS");
  cmd->add_flag("--armature", o.armature,
                "Also estimate each such joint's armature (reflected rotor inertia; grouped with a link inertia "
                "where the data cannot tell them apart)");
  cmd->add_option("--coulomb-smoothing-velocity", o.coulomb_smoothing_velocity,
                  "v_s of the Coulomb term tanh(qd / v_s) [rad/s] (default 0.02; 0: the sign function)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--fix-mass-com", o.fix_mass_com,
                  "URDF (e.g. from identify static) whose masses and COMs are kept; the rest is estimated");
  // CLI11's PositiveNumber says "not in range 0 to 1.8e308" for 0; name the way to no filter instead.
  const CLI::Validator positive_hz(
      [](std::string& text) {
        try {
          std::size_t used = 0;
          const double v = std::stod(text, &used);
          if (used == text.size() && v > 0.0 && std::isfinite(v)) return std::string();
        } catch (const std::exception&) {
        }
        return "'" + text + "' is not a positive frequency in Hz (--no-lowpass: no filter)";
      },
      "HZ>0");
  cmd->add_option("--cutoff", args->cutoff_hz,
                  "Low-pass cut-off of the measured paths [Hz] (default: sensors 10, mocap 4)")
      ->check(positive_hz);
  cmd->add_option("--parallel-filter", o.parallel_filter.cutoff_hz,
                  "Low-pass both sides of the training equations at HZ and decimate (Gautier's parallel filter; "
                  "sensor and truth paths; pair with a higher --cutoff, e.g. --cutoff 15 --parallel-filter 3; "
                  "docs/identification.md)")
      ->check(positive_hz);
  cmd->add_flag("--parallel-filter-all-rows", o.parallel_filter_all_rows,
                "With --parallel-filter: filter the rows whose weights change from sample to sample too "
                "(measured contact wrenches, IMU noise), each whitened by its weights first; without it they "
                "are decimated, not filtered (docs/identification.md, \"Parallel filtering\")");
  cmd->add_flag("--no-lowpass", args->no_lowpass,
                "Sensor path: no low-pass of the streams (noise-free data; derivatives at the full rate)");
  cmd->add_option("--time-offset", args->time_offsets,
                  "Sensor path: a stream's clock offset against the encoders, STREAM=SECONDS (stream stamp minus "
                  "robot time; repeatable), instead of the estimate")
      ->type_name("STREAM=S");
  cmd->add_flag("--align-time", o.align_time,
                "Sensor path: estimate each stream's clock offset against the encoders (F/T, IMU) from the leg "
                "kinematics, refine it to the minimum of the fit's residual, and apply those above half an encoder "
                "period (for streams recorded on their own clocks; docs/identification.md, \"Time alignment\")");
  cmd->add_option("--validate-clocks", o.validate_clocks,
                  "With --validate: estimate (default: the validation data's own clocks, as --align-time estimates "
                  "them) or training (read it on the training data's clocks: the same devices with the same "
                  "offsets; for a slow validation motion, which is no signal for a clock)")
      ->check(CLI::IsMember({"estimate", "training"}));
  cmd->add_flag("--align-kinematics-only", args->align_kinematics_only,
                "With --align-time: keep the kinematic estimate of the offsets (no refinement by the fit's "
                "residual, which costs one fit per offset tried: 20-30 fits)");
  cmd->add_flag(
      "--align-drift", o.align_drift,
      "Sensor path: with --align-time, also estimate each stream's clock drift [ppm] from windows along the "
      "recording and apply it (long recordings of steady motion; docs/identification.md, \"Time alignment\")");
  cmd->add_option("--velocities", args->velocities,
                  "Sensor path, fixed base: joint velocities 'differentiated' from the encoders (default) or "
                  "'logged' (the data set's velocities stream, e.g. from dynid import log with dq columns)")
      ->check(CLI::IsMember({"differentiated", "logged"}));
  cmd->add_flag("--imu-calibration", o.imu_calibration,
                "Sensor path: calibrate the base IMU where the robot holds still: the gyro's bias (instead of its "
                "mean against the whole motion's kinematic rate, which takes the feet's slip for bias) and, when "
                "still poses at different attitudes fix them, its axes (a board sits about a degree off its "
                "sidecar frame); refused when the data never hold still (summary.json imu_calibration; "
                "docs/identification.md, \"IMU calibration\")");
  cmd->add_option("--imu-axes", o.imu_axes_from,
                  "With --imu-calibration: the IMU's axes from the summary.json of an earlier --imu-calibration run "
                  "whose still poses fixed them (tilted static poses, `simulate --base-tilt`); these data then give "
                  "the gyro's bias only");
  cmd->add_flag("--no-imu-bias", args->no_imu_bias,
                "Sensor path: keep the IMU readings as they are (no bias removal against leg kinematics)");
  cmd->add_option("--gyro-noise", o.sensor_options.gyro_noise_density,
                  "Sensor path: the IMU gyro's white noise density [rad/s/sqrt(Hz)] (default 2.44e-4, Bosch BMI088 "
                  "class); its share of the base's angular acceleration weights the rows and its bias is taken off "
                  "the fit (0: not modelled)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--accelerometer-noise", o.sensor_options.accelerometer_noise_density,
                  "Sensor path: the IMU accelerometer's white noise density [m/s^2/sqrt(Hz)] (default 1.72e-3, "
                  "BMI088 class; 0: not modelled)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--imu-noise-from-data", args->imu_noise_from_data,
                "Sensor path: estimate the IMU's white noise densities from its stream's own second differences "
                "instead of --gyro-noise / --accelerometer-noise (summary.json acceleration_noise)");
  cmd->add_option("--wrenches", o.sensor_options.wrenches, "Contact wrenches of the sensor path: auto | ft | plates")
      ->check(CLI::IsMember({"auto", "ft", "plates"}));
  cmd->add_option("--mocap-joints", args->mocap_joints,
                  "Joints of the mocap path: auto (encoders when recorded) | encoders | markers (marker IK)")
      ->check(CLI::IsMember({"auto", "encoders", "markers"}));
  cmd->add_flag("--quiet", args->quiet, "No progress output");
  cmd->callback([&action, args] {
    action = [args] {
      InertialIdentificationOptions opts = args->o;
      for (const std::string& text : args->locks) opts.locks.push_back(parse_joint_lock(text));
      if (args->prior != "auto") {
        std::size_t used = 0;
        double weight = 0.0;
        try {
          weight = std::stod(args->prior, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used != args->prior.size())
          throw std::invalid_argument("--prior: 'auto' or a weight, not '" + args->prior + "'");
        opts.prior = weight;
        if (opts.keep_at_cad)
          throw std::invalid_argument("--keep-at-cad needs the CAD prior (--prior auto), not --prior " + args->prior);
      }
      if (opts.keep_below != 0.25 && !opts.keep_at_cad)
        throw std::invalid_argument("--keep-below goes with --keep-at-cad");
      if (args->gear_backlash == "sidecar") {
        opts.gear_backlash_from_sidecar = true;
      } else if (!args->gear_backlash.empty()) {
        std::size_t used = 0;
        double deg = -1.0;
        try {
          deg = std::stod(args->gear_backlash, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used != args->gear_backlash.size() || !(deg >= 0.0))
          throw std::invalid_argument("--gear-backlash: an angle in degrees (0 or more) or 'sidecar', not '" +
                                      args->gear_backlash + "'");
        opts.gear_backlash_deg = deg;
      }
      if (args->prior_scale != "learned") {
        std::size_t used = 0;
        double fraction = 0.0;
        try {
          fraction = std::stod(args->prior_scale, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used != args->prior_scale.size() || !(fraction > 0.0))
          throw std::invalid_argument("--prior-scale: 'learned' or a positive fraction, not '" + args->prior_scale +
                                      "'");
        opts.learn_cad_prior_scale = false;
        opts.cad_prior_fraction = fraction;
      }
      opts.cad_prior_coordinates =
          args->prior_frame == "origin" ? CadPriorCoordinates::Origin : CadPriorCoordinates::Com;
      if (args->cutoff_hz) opts.sensor_options.cutoff_hz = opts.mocap_options.cutoff_hz = *args->cutoff_hz;
      // An explicit cut-off is used even on data declared noise-free.
      if (args->cutoff_hz) opts.sensor_options.raw_when_noise_free = false;
      if (args->no_lowpass) opts.sensor_options.cutoff_hz = 0.0;
      if (args->no_imu_bias) opts.sensor_options.remove_imu_bias = false;
      if (args->align_kinematics_only) opts.align_time_by_fit = false;
      if (args->imu_noise_from_data)
        opts.sensor_options.gyro_noise_density = opts.sensor_options.accelerometer_noise_density = -1.0;
      opts.sensor_options.logged_velocities = args->velocities == "logged";
      for (const std::string& text : args->time_offsets) {
        const auto [stream, seconds] = name_equals_number(text, "--time-offset", "STREAM=SECONDS, e.g. ft=0.04");
        opts.time_offsets[stream] = seconds;
      }
      for (const std::string& text : args->gear_stiffness) {
        if (text == "sidecar") {
          opts.gear_stiffness_from_sidecar = true;
          continue;
        }
        const auto [joint, k] = name_equals_number(text, "--gear-stiffness", "JOINT=N_M_PER_RAD, e.g. l_knee=1500");
        if (!opts.gear_stiffness.emplace(joint, k).second)
          throw std::invalid_argument("--gear-stiffness: joint '" + joint + "' given twice");
      }
      for (const std::string& text : args->friction_joints) {
        const std::size_t eq = text.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
          throw std::invalid_argument("--friction-joint '" + text + "': expected JOINT=TERMS, e.g. a3=viscous,coulomb");
        if (!opts.friction_joints.emplace(text.substr(0, eq), text.substr(eq + 1)).second)
          throw std::invalid_argument("--friction-joint: joint '" + text.substr(0, eq) + "' given twice");
      }
      opts.mocap_options.joints = args->mocap_joints == "encoders"  ? MocapJoints::Encoders
                                  : args->mocap_joints == "markers" ? MocapJoints::Markers
                                                                    : MocapJoints::Auto;
      if (!args->quiet) opts.progress = progress_line();
      StagedDirectory out(opts.out_dir, "identify inertial");  // a kill -9 leaves the previous output or none
      opts.out_dir = out.path();
      // A lab's C3D or TRC trial where a data set is expected: imported for this run.
      // --source mocap reads the plates: a TRC (markers only) needs its ground reaction file with it.
      const ImportedTrials trials({opts.data}, opts.validate, args->validate_plates, nullptr, args->trial_plates,
                                  opts.source == "mocap" ? "identify inertial --source mocap" : "");
      opts.data = trials.data->path();
      opts.validate = trials.validation->path();
      opts.user_terms = [&](const std::string& text) { return trials.in_user_terms(text); };
      InertialIdentificationResult r;
      try {
        r = run_inertial_identification(opts);
      } catch (const std::exception& e) {
        throw std::runtime_error(trials.in_user_terms(e.what()));
      }
      out.commit();
      std::cout << r.summary_json;
      for (const std::string& w : r.input_warnings) std::cerr << "warning: " << w << "\n";
      for (const std::string& w : r.warnings) std::cerr << "warning: " << w << "\n";
      return 0;
    };
  });
}

}  // namespace

void register_identify(CLI::App& app, Action& action) {
  auto* identify = app.add_subcommand("identify", "Identify the robot's dynamic model from data");
  identify->require_subcommand(1);
  register_identify_inertial(*identify, action);
  add_identify_static(*identify, action);
  add_identify_actuator(*identify, action);
}

}  // namespace dynid::cli
