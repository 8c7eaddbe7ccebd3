#pragma once
// What a data set directory holds, from its dataset.json (docs/data-format.md): streams and their
// rates, gravity, force plates, labelled time segments, the nominal and (simulation only) true
// model. The one reader of dataset.json; the streams' contents are read by their users
// (data/sensor_source.hpp, data/lab_recording.hpp).

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "dynid/ident/motion_sample.hpp"
#include "dynid/spatial/skew.hpp"

namespace dynid {

/// How a sample relates to the continuous signal it measures (dataset.json `stamp`).
enum class Stamp {
  Instant,     ///< the value at its time stamp (default)
  PeriodMean,  ///< the mean over the sample period before its time stamp
};

struct StreamInfo {
  std::string file;  ///< absolute path
  double rate_hz = 0.0;
  bool noise_free = false;       ///< dataset.json `noise_free`: the stream carries no sensor noise
  Stamp stamp = Stamp::Instant;  ///< of every channel, unless `stamps` names the quantity
  /// Per quantity (the channel name's middle part, e.g. "gyro", "acc" of "imu.gyro.x"): its stamp
  /// when dataset.json's `stamp` is an object.
  std::map<std::string, Stamp> stamps;
  /// The stamp of the channels of `quantity`.
  Stamp stamp_of(const std::string& quantity) const {
    const auto it = stamps.find(quantity);
    return it == stamps.end() ? stamp : it->second;
  }
};

/// Which velocity the data set's dynamics go with at a time stamp (dataset.json `velocity`).
enum class VelocityConvention {
  Instant,       ///< the derivative at the stamp (a continuous robot; default)
  PeriodBefore,  ///< the mean over the encoder period before the stamp (dynid simulate's mj_Euler)
};

struct ForcePlateInfo {
  std::string name;
  Vector3 origin = Vector3::Zero();  ///< top centre, world [m]
  /// Corners of the top surface in order around it, world [m] (3 x corners; 0 columns when
  /// dataset.json does not give them).
  Eigen::Matrix3Xd corners = Eigen::Matrix3Xd(3, 0);
};

struct DatasetInfo {
  std::string directory;
  std::string robot;
  std::string model;       ///< nominal URDF named by the data set (may be empty)
  std::string truth_urdf;  ///< absolute path of truth.urdf, empty when the data set has none
  std::string scenario;
  Vector3 gravity{0.0, 0.0, -9.81};  ///< world [m/s^2]
  VelocityConvention velocity = VelocityConvention::Instant;
  std::map<std::string, StreamInfo> streams;
  std::vector<ForcePlateInfo> force_plates;
  std::vector<TimeSegment> segments;

  bool has_stream(const std::string& name) const { return streams.count(name) > 0; }
  /// Throws naming the data set and the stream when absent.
  const StreamInfo& stream(const std::string& name) const;
};

/// Reads DIR/dataset.json (or the file itself when `path` names it). Throws "PATH: reason" when it
/// is missing or malformed, a listed stream file does not exist or a segment ends before it starts.
DatasetInfo read_dataset_info(const std::string& path);

}  // namespace dynid
