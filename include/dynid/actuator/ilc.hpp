#pragma once
// Iterative Learning Control of paper 002 (Arimoto's P-type update, eqs. 20-21) and its windowed
// tracking error (eq. 28). Signals are sampled on one uniform grid (index n = time n dt).

#include <vector>

namespace dynid {

/// Eq. (21): command^(k+1)(n) = command^(k)(n) + lambda e^(k)(n + shift), e = reference - measured,
/// shift = round(t_d / dt) samples (the reaction time: the error at n + shift is what the command at n
/// caused). Past the end the last error is used. Throws if the lengths differ or shift < 0.
std::vector<double> ilc_update(const std::vector<double>& command, const std::vector<double>& reference,
                               const std::vector<double>& measured, double lambda, int shift_samples);

/// Eq. (28): max over n of min over |a| < D of |reference(n) - measured(n + a)|, D = window_samples
/// (measured samples outside the record are skipped) [units of the signals]. Allows for latency: a
/// trajectory followed with a delay below D has zero windowed error at its plateaus and extrema.
double max_windowed_error(const std::vector<double>& reference, const std::vector<double>& measured,
                          int window_samples);

/// The reaction time in samples: the lag L in [0, max_lag] at which the measured motion's first
/// differences correlate best with the reference's (paper 002 reads t_d off the delay between
/// command and reaction under P control, its fig. 5).
int estimate_reaction_samples(const std::vector<double>& reference, const std::vector<double>& measured, int max_lag);

/// Mean of |reference - measured|.
double mean_abs_error(const std::vector<double>& reference, const std::vector<double>& measured);

}  // namespace dynid
