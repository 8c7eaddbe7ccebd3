#include "dynid/data/input_checks.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "dynid/core/number_format.hpp"
#include "dynid/io/csv_row_reader.hpp"

namespace dynid {
namespace {

/// Whether the gap from sample time a to b lies between two segments (one ends by a, another starts
/// from b, none runs across it): the data set's layout, e.g. trials laid end to end. `tol` [s]: a
/// segment's end may be exclusive (one period after its last sample, as the simulator's static poses
/// write it).
bool between_segments(const std::vector<TimeSegment>& segments, double a, double b, double tol) {
  const auto any = [&](auto&& f) { return std::any_of(segments.begin(), segments.end(), f); };
  return any([&](const TimeSegment& s) { return s.end <= a + tol; }) &&
         any([&](const TimeSegment& s) { return s.start >= b - tol; }) &&
         !any([&](const TimeSegment& s) { return s.start < b - tol && s.end > a + tol; });
}

}  // namespace

std::vector<std::string> time_gap_warnings(const DatasetInfo& data, const InputCheckOptions& options) {
  std::vector<std::string> out;
  for (const auto& [name, stream] : data.streams) {
    if (!(stream.rate_hz > 0.0)) continue;
    const double period = 1.0 / stream.rate_hz, limit = options.gap_periods * period;
    CsvRowReader reader(stream.file);
    std::vector<double> row;
    double previous = std::numeric_limits<double>::quiet_NaN(), longest = 0.0, longest_after = 0.0;
    long gaps = 0;
    while (reader.next(row)) {
      const double t = row[0];
      if (!std::isnan(previous) && t - previous > limit &&
          !between_segments(data.segments, previous, t, 1.5 * period)) {
        ++gaps;
        if (t - previous > longest) {
          longest = t - previous;
          longest_after = previous;
        }
      }
      previous = t;
    }
    if (gaps == 0) continue;
    out.push_back("time gap: " + stream.file + " has " + std::to_string(gaps) + (gaps == 1 ? " gap" : " gaps") +
                  " longer than " + format_fixed(options.gap_periods, 0) + " sample periods (" +
                  format_fixed(limit, 4) + " s at its " + format_fixed(stream.rate_hz, 1) + " Hz), the longest " +
                  format_fixed(longest, 4) + " s after t = " + format_fixed(longest_after, 4) +
                  " s: the stream has no samples there");
  }
  return out;
}

std::vector<std::string> still_joint_warnings(const Model& model, const DatasetInfo& data, const std::string& stream,
                                              const InputCheckOptions& options) {
  std::vector<std::string> out;
  if (!data.has_stream(stream)) return out;
  CsvRowReader reader(data.stream(stream).file);
  struct Channel {
    const Body* body;
    int column;
    double low = std::numeric_limits<double>::infinity(), high = -std::numeric_limits<double>::infinity();
  };
  std::vector<Channel> channels;
  for (std::size_t b = 1; b < model.bodies.size(); ++b) {
    const Body& body = model.bodies[b];
    if (body.joint_type != JointType::Revolute && body.joint_type != JointType::Prismatic) continue;
    const int column = reader.find_column("q." + body.joint_name);
    if (column >= 0) channels.push_back({&body, column});
  }
  if (channels.empty()) return out;
  std::vector<double> row;
  while (reader.next(row))
    for (Channel& c : channels) {
      const double x = row[static_cast<std::size_t>(c.column)];
      if (std::isnan(x)) continue;  // a missing sample
      c.low = std::min(c.low, x);
      c.high = std::max(c.high, x);
    }
  for (const Channel& c : channels) {
    if (!(c.high >= c.low)) continue;  // no sample at all: the reader that needs it says so
    const bool prismatic = c.body->joint_type == JointType::Prismatic;
    const double range = c.high - c.low, still = prismatic ? options.still_range_m : options.still_range_rad;
    if (range >= still) continue;
    const std::string unit = prismatic ? " m" : " rad";
    out.push_back("joint never moves: '" + c.body->joint_name + "' spans " + format_fixed(range, 6) + unit + " in " +
                  reader.path() + " (less than " + format_fixed(still, 6) + unit +
                  "): the data cannot show what only its motion shows, which stays at the prior or makes the "
                  "problem rank-deficient; --lock " +
                  c.body->joint_name + "=" + format_fixed(0.5 * (c.low + c.high), 4) + " takes it out of the model");
  }
  return out;
}

std::vector<std::string> input_warnings(const Model& model, const DatasetInfo& data, std::string joint_stream,
                                        const InputCheckOptions& options) {
  std::vector<std::string> out;
  for (const std::string& w : model.warnings)
    if (w.find("not physically consistent") != std::string::npos) out.push_back("model: " + w);
  if (!data.robot.empty() && !model.name.empty() && data.robot != model.name)
    out.push_back("another robot: " + data.directory + " was recorded for robot '" + data.robot + "', the model is '" +
                  model.name + "' (joints of the same name are read as this model's)");
  for (std::string& w : time_gap_warnings(data, options)) out.push_back(std::move(w));
  if (joint_stream.empty()) joint_stream = data.has_stream("encoders") ? "encoders" : "truth";
  for (std::string& w : still_joint_warnings(model, data, joint_stream, options)) out.push_back(std::move(w));
  return out;
}

}  // namespace dynid
