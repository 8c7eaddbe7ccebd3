#pragma once
// Checks of a data set against the model it is read with, for what no reader can refuse on its own
// (docs/cli.md "What dynid says when the input is wrong"): a stream with a time gap, a joint that
// never moves, a data set recorded for another robot, a model whose inertias are not physically
// consistent. Each finding is one named warning (it starts with the case's name and a colon) for
// summary.json `input_warnings`, the report and stderr; the commands still run, since each of these
// can be what the user meant (a gap between trials, a joint held still on purpose). Streams are read
// one row at a time: memory does not grow with the recording.

#include <string>
#include <vector>

#include "dynid/data/dataset_info.hpp"
#include "dynid/model/model.hpp"

namespace dynid {

struct InputCheckOptions {
  /// A time gap: consecutive samples further apart than this many of the stream's nominal periods
  /// (1 / dataset.json `rate_hz`).
  double gap_periods = 5.0;
  /// A joint never moves when its recorded position spans less than this: [rad] (0.1 degree) for a
  /// revolute joint, [m] for a prismatic one.
  double still_range_rad = 1.7453292519943295e-3;
  double still_range_m = 1e-4;
};

/// "time gap: FILE ..." for each stream of `data` with samples further apart than `gap_periods`
/// periods. A gap between two of the data set's segments (one ends where the gap starts, another
/// starts where it ends, none runs across it: trials laid end to end by `dynid import c3d`) is the
/// data set's layout and not counted.
std::vector<std::string> time_gap_warnings(const DatasetInfo& data, const InputCheckOptions& options = {});

/// "joint never moves: ..." for each 1-DOF joint of `model` whose channel q.JOINT in the data set's
/// stream `stream` (encoders, truth) spans less than the options' range. None when the data set has
/// no such stream.
std::vector<std::string> still_joint_warnings(const Model& model, const DatasetInfo& data, const std::string& stream,
                                              const InputCheckOptions& options = {});

/// Everything above for the commands that read a data set with a model: the model reader's own
/// findings ("model: link 'L' is not physically consistent: ..."), "another robot: ..." when
/// dataset.json names another robot than the model, the time gaps, and the joints that never move in
/// `joint_stream` (empty: encoders, else truth).
std::vector<std::string> input_warnings(const Model& model, const DatasetInfo& data, std::string joint_stream = {},
                                        const InputCheckOptions& options = {});

}  // namespace dynid
