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
// gap; each run is filtered on its own. A long run is filtered in chunks of about `chunk_s`
// (memory: rows x (columns + 1) doubles per sample) that overlap by twice the filter's settling
// length, and each chunk hands over only the samples at least that far from its cut edges, so a run
// comes out as if filtered whole. Valid only when the rows are the same linear combination of the
// equations of motion at every sample (IdentificationRows::fixed_projection); the caller passes the
// rest through unfiltered.
//
// A run's own ends: the equations stay exact through the filter's edge transients, but the noise
// does not fall there (the zero-phase filter's edge handling leans on the end samples), so the rows
// within the settling length of a run's start or end are weighted by the noise variance the filter
// actually leaves at each of them.
//
// Weights: a kept row stands for the `decimation` samples around it. For regressors inside the
// pass band the filter loses none of their information (what it removes is noise), so the kept
// rows carry the weight of all the samples they stand for: information_weight() times the
// samples' own, which puts filtered and unfiltered rows of one fit on the same scale and leaves the
// data's residual scale (the CAD prior's c) at 1 when the noise model holds.

#include <functional>
#include <utility>
#include <vector>

#include "dynid/core/types.hpp"
#include "dynid/mocap/butterworth.hpp"

namespace dynid {

struct ParallelFilterOptions {
  double cutoff_hz = 10.0;  ///< -3 dB of the zero-phase low-pass on both sides [Hz]
  int order = 2;            ///< Butterworth order of each pass
  /// Keep every n-th filtered sample; 0: the largest n that keeps at least 4 samples per cut-off
  /// period (rate / (4 cutoff)).
  int decimation = 0;
  double chunk_s = 2.0;  ///< about how much of a run is filtered at once [s] (at least 4 settling lengths)
};

class ParallelRowFilter {
 public:
  /// Receives the filtered rows of one kept sample: A (rows x columns), b, weights (the run's
  /// structure weights times information_weight()), time [s].
  using Sink = std::function<void(const MatrixX& A, const VectorX& b, const VectorX& weights, double time)>;

  /// `sample_rate_hz`: the rate of the samples added. Throws std::invalid_argument when the cut-off
  /// is not below the Nyquist frequency.
  ParallelRowFilter(double sample_rate_hz, const ParallelFilterOptions& options, Sink sink);

  /// Adds the rows of the sample at `time` [s]; runs that end are filtered and handed to the sink.
  void add(double time, const MatrixX& A, const VectorX& b, const VectorX& weights) {
    add(time, A, b, weights, weights);
  }
  /// The same with weights that vary from sample to sample within one row structure (`structure`:
  /// weights that stay while the rows mean the same; a run ends where they change).
  /// Each sample's rows are scaled by sqrt(weights / structure) before the filter, which keeps the
  /// equations exact and puts each sample in the fit with its own weight; the sink receives
  /// `structure` times information_weight() as the weights. A unit `structure` (rows whitened by
  /// their own weights, what the identification passes) lets runs last whatever the weights do:
  /// with measured contact wrenches they follow the posture from sample to sample.
  void add(double time, const MatrixX& A, const VectorX& b, const VectorX& weights, const VectorX& structure);
  /// Filters and hands over what is buffered (call after the last sample).
  void flush();

  int decimation() const { return decimation_; }
  double cutoff_hz() const { return options_.cutoff_hz; }
  long samples_in() const { return samples_in_; }
  long samples_out() const { return samples_out_; }
  /// Runs filtered so far (a run of one sample passes unfiltered).
  long runs() const { return runs_; }
  /// Noise-equivalent bandwidth of the zero-phase filter [Hz]: the integral of its power gain
  /// |H(f)|^4 from 0 to the Nyquist frequency (0.83 x the cut-off for order 2).
  double noise_bandwidth_hz() const;
  /// How much least-squares standard deviations computed as if the kept rows' noise were white
  /// understate the real ones: white sensor noise low-passed to bandwidth B and kept at rate f_rows
  /// is correlated from row to row, and for regressors below the cut-off the estimate's variance is
  /// f_rows / (2 B) times the white-noise formula's (1 when f_rows <= 2 B). The square root of that.
  double standard_deviation_factor() const;
  /// How many samples' worth of information a kept row carries: the decimation, or, when rows are
  /// kept slower than twice the noise bandwidth (independent rows, each with the variance
  /// 2 B / rate of white noise low-passed), rate / (2 B): what white noise's variance fell by.
  /// Near a run's ends, where the filter leaves more noise, a row weighs 1 / that variance if less.
  double information_weight() const;
  /// Samples after which the zero-phase filter's response to an impulse has fallen below 1e-4 of
  /// its peak: how far a chunk's cut edge or a run's end reaches into the filtered rows.
  Eigen::Index settling_samples() const { return settling_; }

 private:
  ParallelFilterOptions options_;
  Sink sink_;
  IirFilter filter_;
  double period_ = 0.0;
  double sample_rate_hz_ = 0.0;
  int decimation_ = 1;
  Eigen::Index capacity_ = 0;  ///< samples per chunk
  Eigen::Index settling_ = 0;
  double interior_variance_ = 1.0;  ///< white noise's variance after the filter, away from edges
  // The run being buffered: column k holds sample k's rows, column-major [A | b] (rows x (cols + 1)).
  Eigen::MatrixXd buffer_;
  Eigen::VectorXd times_;
  std::vector<long> index_;  ///< global sample numbers: decimation keeps one grid across runs
  VectorX weights_, kept_weights_, scale_;
  double information_weight_ = 1.0;
  Eigen::Index rows_ = 0, cols_ = 0, count_ = 0;
  bool run_started_here_ = true;  ///< the buffer's first sample starts its run (else: overlap)
  long samples_in_ = 0, samples_out_ = 0, runs_ = 0;
  long next_index_ = 0;
  // White noise's variance after the filter at a run's first and last settling_ samples, for runs of
  // at least 4 settling lengths (the same for all of them; computed at the first); shorter runs
  // compute their own.
  Eigen::VectorXd start_variance_, end_variance_;

  /// Filters the buffer and hands over its samples from the first not yet handed over; all of
  /// them when the run ends here, else up to settling_ before the buffer's end, keeping the last
  /// 2 settling_ samples buffered as the next chunk's start.
  void filter_chunk(bool run_ends);
  /// White noise's variance after the filter at the first and last min(settling_, n) samples of a
  /// run of n samples.
  std::pair<Eigen::VectorXd, Eigen::VectorXd> edge_variance(Eigen::Index n) const;
};

}  // namespace dynid
