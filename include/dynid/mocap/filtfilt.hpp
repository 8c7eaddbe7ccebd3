#pragma once
// Zero-phase filtering: the signal filtered forward, then backward, with scipy.signal.filtfilt's
// default edge handling (padtype 'odd', padlen = 3 * max(len(a), len(b)), initial conditions
// lfilter_zi scaled by the first sample of each pass). The test compares against scipy.
//
// Motion-capture signals have gaps (NaN). filtfilt_with_gaps filters each run of finite samples
// on its own, exactly as filtfilt would filter that run alone; gaps stay NaN, and runs too short
// for the padding (padlen samples or fewer) become NaN too, rather than be passed unfiltered.
//
// Numerics: the transfer-function form loses accuracy for high orders at low normalised cutoffs
// (order 6 at 20 Hz / 1 kHz: the lfilter_zi solve is good to 1e-10 only, in scipy as here).
// Orders up to 4, what motion capture uses, agree with scipy to 1e-10.

#include <Eigen/Core>

#include "dynid/mocap/butterworth.hpp"

namespace dynid {

/// Direct form II transposed, as scipy.signal.lfilter with initial state `zi` (size order).
Eigen::VectorXd lfilter(const IirFilter& filter, const Eigen::VectorXd& x, const Eigen::VectorXd& zi);

/// Steady-state initial state for a unit step input (scipy.signal.lfilter_zi).
Eigen::VectorXd lfilter_zi(const IirFilter& filter);

/// Samples of padding on each side: 3 * max(len(a), len(b)).
Eigen::Index filtfilt_padlen(const IirFilter& filter);

/// Zero-phase filtered `x`; needs x.size() > filtfilt_padlen(filter) and finite samples
/// (throws std::invalid_argument otherwise).
Eigen::VectorXd filtfilt(const IirFilter& filter, const Eigen::VectorXd& x);

/// filtfilt of one piece of a longer signal, for signals filtered a piece at a time (bounded memory).
/// Where `starts` (`ends`), the piece begins (ends) where the signal does and is padded exactly as
/// filtfilt pads it; elsewhere the pass starts at the steady state of the piece's edge sample, a
/// wrong initial state whose effect decays as the filter's impulse response does. A piece that
/// reaches filtfilt_settling(filter) samples beyond the samples wanted on each open side gives them
/// as filtfilt of the whole signal would, to round-off (tests/mocap/filtfilt_piece_test.cpp). With both
/// flags it is filtfilt (same requirements, same result).
Eigen::VectorXd filtfilt_piece(const IirFilter& filter, const Eigen::VectorXd& x, bool starts, bool ends);

/// Samples after which the impulse response of one pass of `filter` stays below `tolerance` times
/// its peak: the overlap filtfilt_piece needs. At least filtfilt_padlen(filter) + 1.
Eigen::Index filtfilt_settling(const IirFilter& filter, double tolerance = 1e-17);

/// As filtfilt, run by run between NaN gaps (see above).
Eigen::VectorXd filtfilt_with_gaps(const IirFilter& filter, const Eigen::VectorXd& x);

/// What the zero-phase filter does to white noise of unit standard deviation per sample, away from
/// the edges: the standard deviation of its output (`value`) and of the output's difference quotient
/// (y[k+1] - y[k]) * sample_rate_hz (`rate`, [1/s]); with `then`, both after a second zero-phase
/// filter `then` at the same rate (applied to the output and to the difference quotient alike). An
/// empty filter (no coefficients) passes the noise as it is. The data path uses it to say how much
/// noise its differentiated signals carry into the identification's rows.
struct FilteredNoiseGain {
  double value = 1.0;
  double rate = 0.0;  ///< [1/s]
};
FilteredNoiseGain filtered_white_noise_gain(const IirFilter& filter, double sample_rate_hz,
                                            const IirFilter& then = IirFilter{});

/// filtfilt_with_gaps applied to every row of `signals` (rows = signals, columns = samples), e.g.
/// MocapRecording::marker_positions or ::analogs.
Eigen::MatrixXd filtfilt_rows(const IirFilter& filter, const Eigen::MatrixXd& signals);

}  // namespace dynid
