#pragma once
// Ground reaction files as OpenSim workflows write them beside a TRC (`.mot` / `.sto`, e.g. OpenSim's
// own subject01_walk1_grf.mot): a header ended by `endheader`, then a tab-separated table whose first
// column is `time` [s]. Per plate nine columns, named by three identifiers as OpenSim's ExternalForce
// names them (force_identifier, point_identifier, torque_identifier) followed by x, y, z:
//   ground_force_vx vy vz    force the ground applies to the body [N]
//   ground_force_px py pz    the point it is applied at (the centre of pressure) [m]
//   ground_torque_x y z      the torque applied with it (the free moment) [N m]
// each plate's identifiers with a prefix (`1_ground_force_v`, `l_ground_force_v`) or an infix
// (`ground_force_r_v`, `ground_torque_r_`). All in the lab frame the file was written in.
//
// Header forms read: OpenSim's (`nRows=`, `nColumns=`, `inDegrees=`, `version=`, `DataRate=` ...) and
// the older SIMM one (`name`, `datacolumns`, `datarows`, `range`); the counts, where given, must
// match the table. A `units` line (`Units=mm`, `units mm`) is kept for the reader to apply: the
// columns above are in metres and N m unless it, or the user, says otherwise (trc_force_plates.hpp).
// The wrench of a plate is whatever (force, point, torque) say: any point and any torque give the
// same wrench, so files that put the point at a fixed origin and the whole moment in the torque read
// the same as files with the COP and the free moment.

#include <Eigen/Core>
#include <map>
#include <string>
#include <vector>

namespace dynid {

/// One plate's three column identifiers (without the trailing x/y/z).
struct GroundReactionColumns {
  std::string force, point, torque;  ///< e.g. "1_ground_force_v", "1_ground_force_p", "1_ground_torque_"
};

/// The table of a `.mot` / `.sto` file.
struct OpenSimStorage {
  std::string source;                         ///< the file (or label) it came from
  std::vector<std::string> names;             ///< column names, `time` first
  Eigen::VectorXd time;                       ///< [s], strictly increasing
  Eigen::MatrixXd values;                     ///< rows x (names.size() - 1): the columns after time
  std::vector<std::size_t> lines;             ///< the 1-based file line of each row (for messages)
  std::map<std::string, Eigen::Index> index;  ///< column name -> index into `values` (time: -1)
  /// The header's `units` line as written (OpenSim's `Units=mm` metadata, the older `units mm`), ""
  /// when it has none; `units_line` its 1-based line.
  std::string units;
  std::size_t units_line = 0;
  /// Index into `values` of column `name`; throws "SOURCE: no column 'name'".
  Eigen::Index column(const std::string& name) const;
};

/// Throws std::runtime_error "LABEL: line N: reason" (missing endheader, a row whose count differs
/// from the header's, a field that is not a number, a time that does not increase, counts that
/// disagree with nRows / nColumns).
OpenSimStorage parse_opensim_storage(const std::string& text, const std::string& label);
OpenSimStorage read_opensim_storage(const std::string& path);

/// A length unit as headers spell it (OpenSim's Units: m, meters, cm, centimeters, mm, millimeters, any
/// case) -> metres per unit; 0 when `text` is not one.
double metres_per_length_unit(const std::string& text);

/// The plates' identifiers found among the column names, in order of first appearance: every
/// `PRE` `ground_force_` `MID` `v`{x,y,z} with its `PRE ground_force_ MID p` and
/// `PRE ground_torque_ MID` (or `ground_moment_ MID`, or `ground_moment_ MID m` as OpenSim's
/// osimC3D.writeMOT names them: ground_moment_1_mx) columns. Throws naming the file and the missing
/// column when a plate's force has no point or torque columns, or when there is no plate.
std::vector<GroundReactionColumns> find_ground_reaction_columns(const OpenSimStorage& storage);

/// One plate's samples, in the file's frame and units (ground on the body).
struct GroundReactionSeries {
  GroundReactionColumns columns;
  Eigen::Matrix3Xd force, point, torque;  ///< [N], [m], [N m], one column per row of the file
};

/// The plate's nine columns; throws naming the file and the column that is missing. NaN is refused
/// in the force and torque (line and column named); a NaN point is kept (an unloaded plate's).
GroundReactionSeries plate_series(const OpenSimStorage& storage, const GroundReactionColumns& columns);

}  // namespace dynid
