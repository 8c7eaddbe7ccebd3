// The SI view of a C3D file (C3D User Guide: POINT, ANALOG and FORCE_PLATFORM groups).

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "dynid/mocap/c3d_reader.hpp"

#include "dynid/core/number_format.hpp"
#include "dynid/mocap/force_plate.hpp"

namespace dynid {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string lower_compact(const std::string& s) {
  std::string out;
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c)) && c != '.' && c != '*' && c != '-' && c != '_')
      out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return out;
}

// GROUP:NAME continued by NAME2, NAME3, ... (the User Guide's way past 255 entries).
std::vector<std::string> numbered_strings(const C3dParameters& p, const std::string& group, const std::string& name) {
  std::vector<std::string> out = p.strings(group, name);
  for (int k = 2; p.find(group, name + std::to_string(k)); ++k) {
    const std::vector<std::string> more = p.strings(group, name + std::to_string(k));
    out.insert(out.end(), more.begin(), more.end());
  }
  return out;
}

std::vector<double> numbered_numbers(const C3dParameters& p, const std::string& group, const std::string& name,
                                     bool as_unsigned = false) {
  auto values = [&](const std::string& n) {
    const C3dParameter* q = p.find(group, n);
    return !q ? std::vector<double>{} : as_unsigned ? q->unsigned_numbers() : q->numbers;
  };
  std::vector<double> out = values(name);
  for (int k = 2; p.find(group, name + std::to_string(k)); ++k) {
    const std::vector<double> more = values(name + std::to_string(k));
    out.insert(out.end(), more.begin(), more.end());
  }
  return out;
}

double length_to_metres(const std::string& unit, const std::string& label) {
  const std::string u = lower_compact(unit);
  // Some writers cut the word to the parameter's length ("mete", c3d.org sample 15).
  if (u == "mm" || u.starts_with("millim")) return 1e-3;
  if (u == "cm" || u.starts_with("centim")) return 1e-2;
  if (u == "m" || u.starts_with("met")) return 1.0;
  throw std::runtime_error(label + ": POINT:UNITS '" + unit + "' is not a length unit dynid knows (mm, cm, m)");
}

void read_points(const C3dFile& file, const std::string& label, const C3dReadOptions& options, MocapRecording& rec) {
  const C3dParameters& p = file.parameters;
  const Eigen::Index n = file.point_count(), frames = file.frame_count();
  std::vector<std::string> units = p.strings("POINT", "UNITS");
  rec.length_unit_in_file = units.empty() || units[0].empty() ? "mm" : units[0];
  if (units.empty() || units[0].empty())
    rec.warnings.push_back("POINT:UNITS is missing; assuming mm (the C3D default)");
  const double to_m = length_to_metres(rec.length_unit_in_file, label);

  rec.point_rate = p.number("POINT", "RATE").value_or(file.header_frame_rate);
  if (frames > 0 && !(std::isfinite(rec.point_rate) && rec.point_rate > 0))
    throw std::runtime_error(label + ": POINT:RATE is " + std::to_string(rec.point_rate) +
                             "; a positive frame rate is required");
  rec.first_frame = file.first_frame;

  rec.marker_labels = numbered_strings(p, "POINT", "LABELS");
  if (static_cast<Eigen::Index>(rec.marker_labels.size()) < n)
    rec.warnings.push_back("POINT:LABELS names " + std::to_string(rec.marker_labels.size()) + " of " +
                           std::to_string(n) + " points; the others are called POINT<n>");
  rec.marker_labels.resize(static_cast<std::size_t>(n));
  for (Eigen::Index i = 0; i < n; ++i)
    if (rec.marker_labels[static_cast<std::size_t>(i)].empty())
      rec.marker_labels[static_cast<std::size_t>(i)] = "POINT" + std::to_string(i + 1);

  rec.marker_positions.resize(3 * n, frames);
  rec.marker_valid.resize(n, frames);
  for (Eigen::Index f = 0; f < frames; ++f)
    for (Eigen::Index i = 0; i < n; ++i) {
      const Eigen::Vector3d x = file.points.block<1, 3>(f, 3 * i).transpose();
      // A negative 4th word marks an invalid point (C3D User Guide, "3D point data").
      const bool valid = file.point_info(f, i) >= 0 && x.allFinite() && !(options.zero_means_missing && x.isZero(0));
      rec.marker_valid(i, f) = valid;
      rec.marker_positions.block<3, 1>(3 * i, f) = valid ? Eigen::Vector3d(x * to_m) : Eigen::Vector3d::Constant(kNaN);
    }
}

void read_analogs(const C3dFile& file, const std::string& label, MocapRecording& rec) {
  const C3dParameters& p = file.parameters;
  const Eigen::Index channels = file.analog_channel_count();
  if (channels == 0) return;
  rec.analog_rate =
      p.number("ANALOG", "RATE").value_or(rec.point_rate * static_cast<double>(file.analog_samples_per_frame()));
  if (!(std::isfinite(rec.analog_rate) && rec.analog_rate > 0))
    throw std::runtime_error(label + ": ANALOG:RATE is " + std::to_string(rec.analog_rate) +
                             "; a positive rate is required");
  // The User Guide's layout: ANALOG:RATE = point rate x analog samples per frame. Where a file
  // disagrees, its analogs and points span different times (dynid import would misalign plates and
  // markers); the analogs are timed by ANALOG:RATE, as ezc3d does, and the user is told.
  const double layout_rate = rec.point_rate * static_cast<double>(file.analog_samples_per_frame());
  if (p.number("ANALOG", "RATE") && std::isfinite(layout_rate) && layout_rate > 0 &&
      std::abs(rec.analog_rate - layout_rate) > 1e-6 * layout_rate)
    rec.warnings.push_back("ANALOG:RATE is " + format_exact(rec.analog_rate) + " Hz, not the point rate " +
                           format_exact(rec.point_rate) + " Hz x " + std::to_string(file.analog_samples_per_frame()) +
                           " analog samples per frame; the analog samples are timed by ANALOG:RATE, so they "
                           "span " +
                           format_exact(static_cast<double>(file.analogs.rows()) / rec.analog_rate) +
                           " s and the frames " +
                           format_exact(static_cast<double>(file.frame_count()) / rec.point_rate) + " s");
  const auto n = static_cast<std::size_t>(channels);
  rec.analog_labels = numbered_strings(p, "ANALOG", "LABELS");
  rec.analog_labels.resize(n);
  for (std::size_t c = 0; c < n; ++c)
    if (rec.analog_labels[c].empty()) rec.analog_labels[c] = "ANALOG" + std::to_string(c + 1);
  rec.analog_units = numbered_strings(p, "ANALOG", "UNITS");
  rec.analog_units.resize(n);

  std::vector<double> scale = numbered_numbers(p, "ANALOG", "SCALE");
  if (scale.size() < n) {
    rec.warnings.push_back("ANALOG:SCALE has " + std::to_string(scale.size()) + " of " + std::to_string(n) +
                           " values; the others are 1");
    scale.resize(n, 1.0);
  }
  const bool is_unsigned =
      lower_compact(p.strings("ANALOG", "FORMAT").empty() ? "" : p.strings("ANALOG", "FORMAT")[0]) == "unsigned";
  std::vector<double> offset = numbered_numbers(p, "ANALOG", "OFFSET", is_unsigned);
  offset.resize(n, 0.0);
  const double gen_scale = p.number("ANALOG", "GEN_SCALE").value_or(1.0);
  if (!std::isfinite(gen_scale)) throw std::runtime_error(label + ": ANALOG:GEN_SCALE is not finite");

  // Stored values are signed 16-bit unless ANALOG:FORMAT is UNSIGNED (integer files only).
  const bool unsigned_words = is_unsigned && !file.float_storage();
  rec.analogs.resize(channels, file.analogs.rows());
  for (Eigen::Index c = 0; c < channels; ++c) {
    const auto k = static_cast<std::size_t>(c);
    const double factor = scale[k] * gen_scale;
    for (Eigen::Index s = 0; s < file.analogs.rows(); ++s) {
      double raw = file.analogs(s, c);
      if (unsigned_words && raw < 0) raw += 65536.0;
      rec.analogs(c, s) = (raw - offset[k]) * factor;
    }
  }
}

/// FORCE_PLATFORM:ZERO [first, last]: the frames (1-based, counted from the file's first frame)
/// whose analog mean is each plate's zero baseline, which the reading application subtracts (C3D
/// User Guide). Applied only where the plate is unloaded in that window (its mean force there at most
/// kPlateZeroMaxLoadFraction of the largest force it reads in the trial): Vicon writes [1, 10] by
/// default whether or not the subject already stands on the plate, and subtracting a loaded baseline
/// would remove the subject's weight. [0, 0], [1, 0] or a missing parameter: no baseline. Type 1
/// plates (COP channels) are not zeroed.
void zero_force_plates(const C3dFile& file, MocapRecording& rec) {
  const std::vector<double> zero = file.parameters.numbers("FORCE_PLATFORM", "ZERO");
  if (zero.size() < 2 || !(zero[0] >= 1.0) || !(zero[1] >= zero[0]) || rec.force_plates.empty()) return;
  const auto first = static_cast<Eigen::Index>(zero[0]), last = static_cast<Eigen::Index>(zero[1]);
  const Eigen::Index spf = std::max<Eigen::Index>(1, file.analog_samples_per_frame());
  const Eigen::Index begin = (first - 1) * spf, end = std::min<Eigen::Index>(last * spf, rec.analogs.cols());
  const std::string frames = "frames " + std::to_string(first) + "-" + std::to_string(last);
  auto note = [&](ForcePlate& plate, const std::string& what) {
    plate.notes.push_back(what);
    rec.warnings.push_back("force plate " + std::to_string(plate.number) + ": " + what);
  };
  for (ForcePlate& plate : rec.force_plates) {
    if (end <= begin) {
      note(plate, "not zeroed: FORCE_PLATFORM:ZERO " + frames + " lie outside the trial");
      continue;
    }
    if (plate.type == 1) {
      note(plate, "not zeroed: FORCE_PLATFORM:ZERO on a type 1 plate (COP channels) is not applied");
      continue;
    }
    Eigen::VectorXd mean = Eigen::VectorXd::Zero(rec.analogs.rows());
    for (Eigen::Index s = begin; s < end; ++s) mean += rec.analogs.col(s);
    mean /= static_cast<double>(end - begin);
    const double load = plate_wrench(plate, mean).force_plate.norm();
    double largest = 0.0;
    for (Eigen::Index s = 0; s < rec.analogs.cols(); ++s)
      largest = std::max(largest, plate_wrench(plate, rec.analogs.col(s)).force_plate.norm());
    if (!(load <= kPlateZeroMaxLoadFraction * largest)) {
      note(plate, "not zeroed: the plate carries " + format_fixed(load, 1) + " N in FORCE_PLATFORM:ZERO " + frames +
                      ", more than " + format_fixed(100.0 * kPlateZeroMaxLoadFraction, 0) +
                      " % of its largest reading (" + format_fixed(largest, 1) + " N): someone stood on it there");
      continue;
    }
    for (int c : plate.channels) rec.analogs.row(c).array() -= mean[c];
    note(plate, "zeroed on FORCE_PLATFORM:ZERO " + frames + " (baseline " + format_fixed(load, 2) + " N)");
  }
}

void read_force_plates(const C3dFile& file, const std::string& label, MocapRecording& rec) {
  const C3dParameters& p = file.parameters;
  auto fail = [&](const std::string& what) { throw std::runtime_error(label + ": " + what); };
  auto whole = [&](double x, const std::string& what) {
    if (!(std::isfinite(x) && std::fabs(x) < 65536 && x == std::floor(x))) fail(what + " is not a whole number");
    return static_cast<int>(x);
  };
  const int used = whole(p.number("FORCE_PLATFORM", "USED").value_or(0.0), "FORCE_PLATFORM:USED");
  if (used <= 0) return;
  const std::vector<double> types = p.numbers("FORCE_PLATFORM", "TYPE");
  const std::vector<double> corners = p.numbers("FORCE_PLATFORM", "CORNERS");
  const std::vector<double> origins = p.numbers("FORCE_PLATFORM", "ORIGIN");
  const C3dParameter* channel = p.find("FORCE_PLATFORM", "CHANNEL");
  const C3dParameter* cal = p.find("FORCE_PLATFORM", "CAL_MATRIX");
  const auto u = static_cast<std::size_t>(used);
  if (types.size() < u || corners.size() < 12 * u || origins.size() < 3 * u || !channel ||
      channel->dimensions.size() != 2 || static_cast<std::size_t>(channel->dimensions[1]) < u)
    fail("wrong counts: FORCE_PLATFORM:USED is " + std::to_string(used) +
         " but TYPE, CORNERS (3x4 each), ORIGIN (3 each) or CHANNEL (n x USED) describe fewer plates");
  const double to_m = length_to_metres(rec.length_unit_in_file, label);
  const auto rows = static_cast<std::size_t>(channel->dimensions[0]);
  if (channel->numbers.size() < rows * u) fail("FORCE_PLATFORM:CHANNEL is not a table of channel numbers");
  for (std::size_t i = 0; i < u; ++i) {
    ForcePlate plate;
    plate.number = static_cast<int>(i + 1);
    plate.type = whole(types[i], "FORCE_PLATFORM:TYPE");
    const std::string name = "force plate " + std::to_string(plate.number);
    if (plate.type < 1 || plate.type > 4)
      fail(name + ": TYPE " + std::to_string(plate.type) + " is not supported (dynid reads types 1, 2, 3 and 4)");
    for (int k = 0; k < 12; ++k)
      plate.corners_world(k % 3, k / 3) = corners[12 * i + static_cast<std::size_t>(k)] * to_m;
    for (int k = 0; k < 3; ++k) plate.origin_plate[k] = origins[3 * i + static_cast<std::size_t>(k)] * to_m;
    if (!plate.corners_world.allFinite() || !plate.origin_plate.allFinite())
      fail(name + ": CORNERS or ORIGIN is not finite");
    if (plate.rotation_world_plate().hasNaN()) fail(name + ": its CORNERS do not span a plane");
    const auto count = static_cast<std::size_t>(ForcePlate::channel_count(plate.type));
    if (rows < count)
      fail(name + ": FORCE_PLATFORM:CHANNEL lists " + std::to_string(rows) + " channels per plate, TYPE " +
           std::to_string(plate.type) + " needs " + std::to_string(count));
    for (std::size_t k = 0; k < count; ++k) {
      const int c = whole(channel->numbers[i * rows + k], "FORCE_PLATFORM:CHANNEL") - 1;
      if (c < 0 || c >= rec.analogs.rows())
        fail(name + ": FORCE_PLATFORM:CHANNEL names analog channel " + std::to_string(c + 1) + " of " +
             std::to_string(rec.analogs.rows()));
      plate.channels.push_back(c);
    }
    plate.length_to_si = to_m;
    // Moments are in N x POINT:UNITS whatever ANALOG:UNITS says (C3D User Guide,
    // FORCE_PLATFORM:CAL_MATRIX and "Calculating SCALE values"); files labelled "Nm" with
    // millimetre points hold N mm (c3d.org sample 3).
    plate.moment_to_si = to_m;
    if (plate.type == 4) {
      if (!cal || cal->dimensions.size() != 3 || cal->dimensions[0] != 6 || cal->dimensions[1] != 6 ||
          static_cast<std::size_t>(cal->dimensions[2]) <= i || cal->numbers.size() < 36 * (i + 1))
        fail(name + ": TYPE 4 needs FORCE_PLATFORM:CAL_MATRIX (6, 6, USED)");
      // Stored column by column (C3D User Guide, FORCE_PLATFORM:CAL_MATRIX).
      plate.calibration = Eigen::Map<const Matrix6>(cal->numbers.data() + 36 * i);
      if (!plate.calibration.allFinite()) fail(name + ": CAL_MATRIX is not finite");
    }
    if (plate.type != 1 && plate.origin_plate.z() > 0) {
      plate.notes.push_back("ORIGIN z was positive (older convention); used its opposite");
      if (plate.type == 3)
        plate.origin_plate.z() = -plate.origin_plate.z();
      else
        plate.origin_plate = -plate.origin_plate;
    }
    rec.force_plates.push_back(std::move(plate));
  }
  zero_force_plates(file, rec);
}

}  // namespace

MocapRecording recording_from_c3d(const C3dFile& file, const std::string& label, const C3dReadOptions& options) {
  MocapRecording rec;
  rec.source = label;
  rec.warnings = file.warnings;
  read_points(file, label, options, rec);
  read_analogs(file, label, rec);
  read_force_plates(file, label, rec);
  return rec;
}

}  // namespace dynid
