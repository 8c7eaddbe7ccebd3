#pragma once
// Gautier's parallel filtering and decimation of identification equations.
//
// The rows one sample contributes, A_k x = b_k (A_k: regressor rows, b_k: measured side), hold for
// every sample k, so any linear filter h applied to both sides keeps them exact:
// (sum_j h_kj A_j) x = sum_j h_kj b_j. Filtering the *equations* instead of the signals they are
// made of is what keeps the low-pass from bending them: the dynamics are not linear in q, q_dot
// and q_ddot, so smoothing the signals at the band of interest distorts the regressor, while the
// signals here need only the light filter their differentiation asks for. The zero-phase
// Butterworth low-pass (mocap/filtfilt.hpp) runs over every column of the buffered rows and over
// the measured side, then every `decimation`-th sample is kept: the rest carry no information
// above the cut-off that the kept ones do not (the folded least squares also runs that much
// faster).
//
// Samples are buffered in runs of the same row structure (row count and structure weights) without a time
// gap, at most `chunk_s` long (memory: rows x (columns + 1) doubles per sample); each run is
// filtered on its own. Edge transients need no trimming: the equations stay exact through them.
// Valid only when the rows are the same linear combination of the equations of motion at every
// sample (IdentificationRows::fixed_projection); the caller passes the rest through unfiltered.

#include <functional>

#include "dynid/core/types.hpp"
#include "dynid/mocap/butterworth.hpp"

namespace dynid {

struct ParallelFilterOptions {
  double cutoff_hz = 10.0;  ///< -3 dB of the zero-phase low-pass on both sides [Hz]
  int order = 2;            ///< Butterworth order of each pass
  /// Keep every n-th filtered sample; 0: the largest n that keeps at least 4 samples per cut-off
  /// period (rate / (4 cutoff)).
  int decimation = 0;
  double chunk_s = 2.0;  ///< longest run filtered at once [s]
};

class ParallelRowFilter {
 public:
  /// Receives the filtered rows of one kept sample: A (rows x columns), b, weights, time [s].
  using Sink = std::function<void(const MatrixX& A, const VectorX& b, const VectorX& weights, double time)>;

  /// `sample_rate_hz`: the rate of the samples added. Throws std::invalid_argument when the cut-off
  /// is not below the Nyquist frequency.
  ParallelRowFilter(double sample_rate_hz, const ParallelFilterOptions& options, Sink sink);

  /// Adds the rows of the sample at `time` [s]; runs that end are filtered and handed to the sink.
  void add(double time, const MatrixX& A, const VectorX& b, const VectorX& weights) {
    add(time, A, b, weights, weights);
  }
  /// The same with weights that vary from sample to sample within one row structure (`structure`:
  /// the weights that stay while the rows mean the same, IdentificationRows::structure_weights).
  /// Each sample's rows are scaled by sqrt(weights / structure) before the filter, which keeps the
  /// equations exact and puts each sample in the fit with its own weight; the sink receives
  /// `structure` as the weights.
  void add(double time, const MatrixX& A, const VectorX& b, const VectorX& weights, const VectorX& structure);
  /// Filters and hands over what is buffered (call after the last sample).
  void flush();

  int decimation() const { return decimation_; }
  double cutoff_hz() const { return options_.cutoff_hz; }
  long samples_in() const { return samples_in_; }
  long samples_out() const { return samples_out_; }
  /// Noise-equivalent bandwidth of the zero-phase filter [Hz]: the integral of its power gain
  /// |H(f)|^4 from 0 to the Nyquist frequency (0.83 x the cut-off for order 2).
  double noise_bandwidth_hz() const;
  /// How much least-squares standard deviations computed as if the kept rows' noise were white
  /// understate the real ones: white sensor noise low-passed to bandwidth B and kept at rate f_rows
  /// is correlated from row to row, and for regressors below the cut-off the estimate's variance is
  /// f_rows / (2 B) times the white-noise formula's (1 when f_rows <= 2 B). The square root of that.
  double standard_deviation_factor() const;

 private:
  ParallelFilterOptions options_;
  Sink sink_;
  IirFilter filter_;
  double period_ = 0.0;
  double sample_rate_hz_ = 0.0;
  int decimation_ = 1;
  Eigen::Index capacity_ = 0;  ///< samples per chunk
  // The run being buffered: column k holds sample k's rows, column-major [A | b] (rows x (cols + 1)).
  Eigen::MatrixXd buffer_;
  Eigen::VectorXd times_;
  VectorX weights_, scale_;
  Eigen::Index rows_ = 0, cols_ = 0, count_ = 0;
  long samples_in_ = 0, samples_out_ = 0;
  long phase_ = 0;  ///< global sample counter: decimation keeps the same grid across runs
};

}  // namespace dynid
