#pragma once
// What the data do not determine stays at CAD (docs/identification.md, "The CAD prior").
//
// A CAD model is wrong by kilograms, not by orders of magnitude: each body's physical parameters
// get a prior standard deviation on their own scale, for a body of nominal mass m, size L (the
// larger of its COM offset and its radius of gyration, at least 2 cm), with f = 0.3 by default:
//   mass: f m;   centre of mass c: f L per axis;   inertia about the COM, each entry: f m L^2
// (CadPriorCoordinates::Com, the default). These are independent: CAD misses point-like masses and
// misplaces COMs. The standard parameters pi = (m, m c, inertia about the body origin) then move
// together, as any real change of a body moves them (the parallel-axis theorem: a link heavier by
// dm at its COM is heavier about its joint by dm |c|^2), pi - pi_0 = J dp with J = d pi / d p at
// the nominal body (cad_prior_jacobian), and the prior on the base parameters x = K pi is
// N(K pi_0, K J D J^T K^T). CadPriorCoordinates::Origin puts the same kind of scales on the standard
// parameters themselves (first moments f m L, inertia about the body origin f m L^2), independent.
//
// The data's weight against it is estimated from the data (empirical Bayes): the rows are weighted
// by their sensors' noise, but on a real robot (and in a realistic simulation) an equation's error
// is larger and correlated in time. The training samples are folded into contiguous blocks; at the
// estimate x the blocks' scores s_b = H_b x - g_b have E[sum_b s_b^T M s_b] = c tr(M H) - sum_b
// tr(M H_b B H_b) (B the posterior covariance: what the fit itself absorbs) when the error is c
// times the sensor noise and independent between blocks, which gives c. The estimate
// minimizes (1/c) ||W^1/2 (A x - b)||^2 + (x - x0)^T P (x - x0), iterated with c to a fixed point;
// its covariance (H / c + P)^-1 covers both the data's error and, where the data are silent, the
// CAD model's.

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "dynid/ident/streaming_least_squares.hpp"
#include "dynid/model/model.hpp"

namespace dynid {

/// Where the CAD prior's standard deviations are independent (above).
enum class CadPriorCoordinates {
  Com,    ///< per body: mass, centre of mass, inertia about the COM (10 per body, p below)
  Origin  ///< the standard parameters: mass, first moments, inertia about the body origin
};
const char* to_string(CadPriorCoordinates c);

/// Prior standard deviation of each prior coordinate (10 per moving body) of a CAD model,
/// `fraction` of the body's own scale (above). Origin: the standard parameters in Pinocchio order.
/// Com: m [kg], c [m] in the body frame, inertia about the COM [kg m^2] (Ixx Ixy Iyy Ixz Iyz Izz).
/// Bodies without mass get the Origin scales of a body of 1 % of the model's mean body mass in
/// either coordinates (a COM is undefined without mass).
VectorX cad_parameter_scales(const Model& nominal, double fraction = 0.3,
                             CadPriorCoordinates coordinates = CadPriorCoordinates::Origin);

/// J = d pi / d p at the nominal model (10 x 10 blocks on the diagonal, one per moving body): the
/// standard parameters' change per unit change of the prior coordinates. Identity for Origin, and
/// for massless bodies.
MatrixX cad_prior_jacobian(const Model& nominal, CadPriorCoordinates coordinates);

/// Information A^T W A and A^T W b of a contiguous stretch of samples.
struct InformationBlock {
  MatrixX H;
  VectorX g;
};

/// The training rows as contiguous blocks of samples for the fits below, in memory independent of
/// the recording's length: each block's rows are folded on their own; when a block is complete it
/// joins `total` (StreamingLeastSquares::merge, in order) and is kept as its InformationBlock only.
/// At most `max_blocks` (even) are kept: at two more, neighbouring blocks are merged in pairs (their
/// information adds: the pair as one block of twice the length) and later blocks are twice as long,
/// so all blocks keep one length. Recordings of up to max_blocks + 1 blocks are blocked as they
/// always were (512: 256 s of 0.5 s blocks).
class InformationBlockFold {
 public:
  InformationBlockFold(StreamingLeastSquares& total, double block_s, std::size_t max_blocks = 512);
  /// Rows of the sample at `time` [s] (increasing): a new block starts when the current one spans
  /// the block length.
  void add(const Eigen::Ref<const MatrixX>& A, const Eigen::Ref<const VectorX>& b,
           const Eigen::Ref<const VectorX>& weights, double time);
  /// Closes the last block (call once, after the last add).
  void finish();
  const std::vector<InformationBlock>& blocks() const { return blocks_; }
  std::vector<InformationBlock>& blocks() { return blocks_; }
  /// Samples in each block.
  const std::vector<long>& samples() const { return samples_; }
  /// Length of the blocks now being formed [s] (block_s doubled at each pairwise merge).
  double block_s() const { return block_s_; }

 private:
  void close();
  StreamingLeastSquares& total_;
  double block_s_;
  std::size_t max_blocks_;
  std::optional<StreamingLeastSquares> current_;
  long current_samples_ = 0;
  double start_ = 0.0;
  std::vector<InformationBlock> blocks_;
  std::vector<long> samples_;
};

struct CadPriorFit {
  VectorX x;                ///< the estimate
  MatrixX covariance;       ///< (H / c + P)^-1
  double data_scale = 1.0;  ///< c: the equations' error in units of their sensors' noise, squared
  int iterations = 0;
  bool converged = false;
  VectorX prior_variance;      ///< diag(P^-1) where P is positive, else +inf (no prior)
  VectorX posterior_variance;  ///< diag(covariance)
};

/// The empirical-Bayes estimate above. `P`: prior information (p x p; zero rows and columns for
/// unknowns without a prior, e.g. sensor offsets, which the data must then determine), `x0` its
/// mean. Throws std::runtime_error when H / c + P is singular (an unknown neither the data nor the
/// prior determine) or there are fewer than 2 blocks.
/// `exact`: information from a measurement whose error the data's scale c does not describe (a
/// weighed total mass): added to the data's as it is, not divided by c (empty: none).
CadPriorFit fit_with_cad_prior(const std::vector<InformationBlock>& blocks, const MatrixX& P, const VectorX& x0,
                               int max_iterations = 30, double initial_data_scale = 1.0,
                               const InformationBlock& exact = {});

/// The four classes of standard parameter whose CAD error scale the data can tell apart: a CAD model
/// misses point-like masses (cables, screws, electronics), which move masses by tens of percent,
/// centres of mass by a fraction of a link's size and the diagonal of the inertia by a few percent,
/// but leave products of inertia almost untouched.
enum class CadParameterClass { Mass = 0, FirstMoment = 1, DiagonalInertia = 2, ProductOfInertia = 3 };
constexpr int kCadParameterClasses = 4;
/// Class of standard parameter `i` (10 per body, Pinocchio order m, mc, Ixx Ixy Iyy Ixz Iyz Izz).
CadParameterClass cad_parameter_class(Eigen::Index i);
const char* to_string(CadParameterClass c);

/// The CAD prior with its scale learned from the data, one fraction per class (hierarchical
/// empirical Bayes): the prior coordinates' change from CAD dp ~ N(0, diag(f_class^2 s^2)) with s
/// the unit scales (cad_parameter_scales(nominal, 1, coordinates)), the base parameters
/// x = x_nominal + K dp (K: the base parameters' map times cad_prior_jacobian), the unknowns
/// [offsets without prior; x]. Each outer step fits with fit_with_cad_prior, then sets f_class^2 to
/// the class mean of E[dp_i^2] / s_i^2 under the posterior (EM), kept within [0.001, initial],
/// until the fractions settle. The classes follow the coordinates (cad_parameter_class): with Com
/// coordinates the second class is the COM's position, the last two the inertia about the COM.
struct LearnedCadPrior {
  CadPriorFit fit;
  std::array<double, kCadParameterClasses> fraction{};  ///< learned f per class
  /// What the data asked for in the last step before the ceiling (the initial fraction): above it,
  /// errors of the data that their noise model does not explain.
  std::array<double, kCadParameterClasses> wanted_fraction{};
  /// Each prior coordinate's posterior E[dp_i^2] / s_i^2 in the last step, s_i its unit scale: how
  /// far, in its body's own scale, the data moved it (squared). Which coordinates drove a class's
  /// wanted fraction above the ceiling.
  VectorX coordinate_moves;
  VectorX scales;             ///< the learned prior standard deviation of each prior coordinate
  MatrixX prior_information;  ///< on the unknowns (zero rows and columns for the offsets)
  int iterations = 0;
  bool converged = false;
};
/// `offset_information`: a prior information (1 / variance) per offset, mean 0 (empty: none; 0 for
/// an offset without prior).
LearnedCadPrior fit_with_learned_cad_prior(const std::vector<InformationBlock>& blocks, const MatrixX& K,
                                           const VectorX& unit_scales, const VectorX& x_nominal,
                                           Eigen::Index num_offsets, double initial_fraction = 0.3,
                                           int max_iterations = 200, const VectorX& offset_information = {},
                                           const InformationBlock& exact = {});

/// The classes whose wanted fraction exceeds the ceiling (the fraction they were held at, within
/// 1e-9): the data asked for a looser prior than `ceiling` allows.
std::vector<CadParameterClass> classes_above_ceiling(const LearnedCadPrior& learned, double ceiling);

/// A prior coordinate's name from its standard parameter's (Model::parameter_names, "thigh.mcx"):
/// with Com coordinates "thigh.com_x", "thigh.Ixx_about_com"; with Origin coordinates unchanged.
std::string cad_prior_coordinate_name(const std::string& standard_name, CadPriorCoordinates coordinates);

/// Share of a parameter's prior variance the data removed: 1 - posterior / prior (0: kept at CAD,
/// 1: determined by the motion). 1 for unknowns without a prior.
VectorX determination(const CadPriorFit& fit);

/// "determined by this motion" (determination >= 0.75), "kept at CAD" (<= 0.25) or "partly determined".
const char* determination_status(double determination);

struct DeterminationCounts {
  int determined = 0, kept_at_cad = 0, partly = 0;
};
DeterminationCounts count_determination(const VectorX& determination);

/// "Kept at CAD" taken literally (`--keep-at-cad`): the unknowns with a prior whose determination
/// is at most `threshold` are set to their prior mean x0, and the others re-estimated given them
/// (the posterior's conditional mean, with the data's scale c of `fit`). Without it such an unknown
/// still moves with the ones the data see, through the prior's correlations (in the COM frame a
/// body's inertia about its joint follows its mass and COM), by amounts the data cannot check.
/// The variances are left as they were: a held unknown keeps its marginal posterior variance,
/// nearly its prior's. Only unknowns from index `first` on are candidates (the inertial ones after
/// the sensor offsets). Returns the held unknowns' indices (ascending).
std::vector<Eigen::Index> keep_undetermined_at_prior(CadPriorFit& fit, const std::vector<InformationBlock>& blocks,
                                                     const MatrixX& prior_information, const VectorX& x0,
                                                     const InformationBlock& exact = {}, Eigen::Index first = 0,
                                                     double threshold = 0.25);

}  // namespace dynid
