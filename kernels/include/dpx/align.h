// Pairwise sequence alignment: Smith-Waterman (local), Needleman-Wunsch (global) and semi-global
// (the query end to end, free target ends), with affine gaps and a substitution matrix, on the
// CPU and on CUDA with identical results.
//
//   dpx::ScoreMatrix blosum;
//   dpx::ScoreMatrix::builtin("blosum62", &blosum);
//   dpx::AlignOptions opt;                       // local, open 11, extend 1, score and ends only
//   std::vector<dpx::AlignResult> res;
//   dpx::align_cpu(queries, targets, dpx::Pairing::kOneToMany, blosum, opt, &res);
//
// Scoring. A gap of length L costs gap_open + (L - 1) * gap_extend (the parasail/SSW convention:
// gap_open is the cost of the first gap letter, so open 11 / extend 1 charges 11 for one letter,
// 12 for two); a linear gap is gap_open == gap_extend. The recurrence, with s(a, b) the matrix:
//   E[i][j] = max(E[i][j-1] - extend, H[i][j-1] - open)      gap in the query (target letters, D)
//   F[i][j] = max(F[i-1][j] - extend, H[i-1][j] - open)      gap in the target (query letters, I)
//   H[i][j] = max(H[i-1][j-1] + s(q[i-1], t[j-1]), E[i][j], F[i][j] [, 0 for local])
// Boundaries (gap(L) = 0 for L = 0, else open + (L - 1) * extend; E and F start at minus infinity):
//   local        H[i][0] = H[0][j] = 0;          score = max over all cells
//   global       H[i][0] = -gap(i), H[0][j] = -gap(j); score = H[n][m]
//   semi-global  H[i][0] = -gap(i), H[0][j] = 0; score = max over j of H[n][j]
// Limits: 0 <= gap_extend <= gap_open <= kAlignMaxGap; sequences up to kAlignMaxLength letters;
// matrix entries in [-128, 127]. Within these every score is exact in 32 bits.
//
// Letters are mapped through the matrix: case-insensitively, anything not in its alphabet to its
// wildcard ('X' for the protein matrices, 'N' for DNA).
//
// Results. Positions are 0-based, begin inclusive, end exclusive: the alignment covers
// query[query_begin, query_end) and target[target_begin, target_end).
//   * Ends: local — the cell holding the maximum; where several hold it, the smallest query end,
//     then the smallest target end. Global — (n, m). Semi-global — (n, the smallest target end
//     holding the maximum). A local score of 0 is the empty alignment: every position 0.
//   * Begins and the CIGAR are computed when AlignOptions::traceback is set; otherwise the begins
//     are -1 for local (and the target begin for semi-global), and the CIGAR is empty.
//   * With AlignOptions::score_only only the score is computed: begins and ends are all -1 (also
//     for empty sequences). What ranking a database needs; on the GPU a local query against many
//     targets then runs a leaner kernel (no search for the best cell), about twice as fast.
//   * CIGAR operations: '=' the two letters map to the same matrix letter (not the wildcard),
//     'X' any other aligned pair, 'I' a query letter against a gap, 'D' a target letter against a
//     gap. Re-scoring it with the matrix and gap costs (rescore_cigar) gives the score exactly.
//   * Ties in the traceback: the diagonal before a gap, a gap in the query (D) before one in the
//     target (I), extending a gap before opening one; a local alignment stops where H drops to 0.
//
// Empty sequences follow from the boundaries: local 0 (all positions 0); global -gap(m) for an
// empty query, -gap(n) for an empty target; semi-global 0 for an empty query, -gap(n) for an empty
// target. The CIGAR is then the one gap run, or empty.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dpx/device.h"
#include "dpx/sequences.h"
#include "dpx/status.h"

namespace dpx {

constexpr std::size_t kAlignMaxLength = 65536;  // letters per sequence
constexpr int kAlignMaxGap = 8192;              // largest gap_open / gap_extend

// A square substitution matrix over up to kMaxLetters - 1 letters (the last index is kept for the
// kernels' padding), one of which is the wildcard.
class ScoreMatrix {
 public:
  static constexpr int kMaxLetters = 32;

  // Built-in protein matrices (NCBI values, alphabet ARNDCQEGHILKMFPSTWYVBZX*, wildcard X):
  // "blosum45", "blosum50", "blosum62", "blosum80", "pam250" (any case).
  static Status builtin(std::string_view name, ScoreMatrix* out);
  // DNA: ACGT score `match` against themselves and `mismatch` against each other; N (the
  // wildcard, where every other letter goes) scores `mismatch` against everything, N included.
  static Status dna(int match, int mismatch, ScoreMatrix* out);
  // A matrix in the NCBI text format: '#' comments, a line of column letters, then one line per
  // letter (the letter, then its scores in column order); rows and columns in the same order.
  // `wildcard` must be one of the letters.
  static Status parse(std::string_view text, char wildcard, std::string name, ScoreMatrix* out);
  // From letters and row-major scores (letters.size()^2 of them).
  static Status from_scores(std::string_view letters, const std::vector<int>& scores, char wildcard,
                            std::string name, ScoreMatrix* out);

  const std::string& name() const { return name_; }
  const std::string& letters() const { return letters_; }  // in index order, upper case
  int size() const { return static_cast<int>(letters_.size()); }
  int wildcard() const { return wildcard_; }              // index of the wildcard letter
  int max_score() const { return max_; }
  int min_score() const { return min_; }

  // Letter -> index (case-insensitive; unknown letters -> wildcard).
  std::uint8_t encode(char c) const { return code_[static_cast<unsigned char>(c)]; }
  int score(int a, int b) const { return scores_[a * kMaxLetters + b]; }
  int score(char a, char b) const { return score(encode(a), encode(b)); }
  // The 256-entry letter -> index table and the kMaxLetters x kMaxLetters score table (row =
  // query letter), for the kernels.
  const std::uint8_t* code_table() const { return code_; }
  const std::int8_t* score_table() const { return scores_; }

 private:
  std::string name_, letters_;
  int wildcard_ = 0, max_ = 0, min_ = 0;
  std::uint8_t code_[256] = {};
  std::int8_t scores_[kMaxLetters * kMaxLetters] = {};
};

enum class AlignMode {
  kLocal,       // Smith-Waterman
  kGlobal,      // Needleman-Wunsch
  kSemiGlobal,  // the whole query against any part of the target (free target ends)
};

const char* align_mode_name(AlignMode mode);

struct AlignOptions {
  AlignMode mode = AlignMode::kLocal;
  int gap_open = 11;       // cost of the first letter of a gap
  int gap_extend = 1;      // cost of each further letter
  bool traceback = false;  // also the begins and the CIGAR
  bool score_only = false; // the score alone, begins and ends -1 (not with traceback)
};

struct AlignResult {
  std::int32_t score = 0;
  std::int32_t query_begin = -1, query_end = 0;
  std::int32_t target_begin = -1, target_end = 0;
  std::string cigar;  // e.g. "5=1X2I3=", only with traceback
};

// Checks options against the limits above; `what` prefixes the message.
Status validate_align_options(const AlignOptions& options, const char* what);

// Checks a batch pair for an alignment call: pairing, and every length within kAlignMaxLength.
Status validate_align_batches(const SequenceBatch& queries, const SequenceBatch& targets,
                              Pairing pairing, const char* what);

// The score of `cigar` placed at (query_begin, target_begin): matrix scores of its aligned pairs
// minus its gap costs. Fails when the CIGAR is malformed, leaves the sequences, or an '='/'X'
// disagrees with the letters.
Status rescore_cigar(std::string_view cigar, std::string_view query, std::string_view target,
                     std::int32_t query_begin, std::int32_t target_begin, const ScoreMatrix& matrix,
                     const AlignOptions& options, std::int64_t* score);

// --- CPU ----------------------------------------------------------------------------------------
// Aligns every pair the pairing forms; out gets one result per pair, in pair order. threads = 0
// uses every hardware thread. Traceback memory per pair: a few rows of the matrix plus direction
// bytes for at most 32 MiB of cells at a time and checkpoints of 8 bytes per target letter every
// block of rows (about 100 MB for a 65,536 x 65,536 pair, far less for short ones).
Status align_cpu(const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                 const ScoreMatrix& matrix, const AlignOptions& options,
                 std::vector<AlignResult>* out, int threads = 0);

// --- CUDA ---------------------------------------------------------------------------------------
// The GPU runs every pair in packed 16-bit lanes (two alignments per instruction) while its scores
// are guaranteed to fit, or — for local alignment — until they come near the int16 limit, and
// recomputes such pairs in 32 bits; the result never depends on which path ran. Traceback runs in
// the packed lanes where the pair's values are guaranteed to fit 16 bits, else in 32 bits, and
// stores 4 bits per cell on the device, n * m / 2 bytes per pair (a little more for the packed
// shapes' padding); batches are split so this workspace stays within a quarter of the free device
// memory, clamped to 1-4 GiB, or the largest single pair or pair of pairs — about 2 GiB at the limit.

// Device-side results of one call, in pair order.
class DeviceAlignResults {
 public:
  std::size_t size() const { return count_; }
  // Per pair: score, query_begin, query_end, target_begin, target_end (int32 each, 5 per pair).
  const std::int32_t* fields() const { return fields_.as<const std::int32_t>(); }
  // Copies everything back (CIGARs included) and waits for `stream`.
  Status download(std::vector<AlignResult>* out, cudaStream_t stream) const;
  // The scores alone (one per pair, in pair order), after waiting for `stream`: what ranking a
  // database needs. The fields come back in one contiguous copy; no result is built per pair.
  Status download_scores(std::vector<std::int32_t>* scores, cudaStream_t stream) const;

 private:
  friend struct DeviceAlignResultsAccess;  // the library's launch code
  DeviceBuffer fields_, ops_, op_counts_;
  std::vector<std::uint64_t> op_offsets_;  // where pair i's traceback operations start in ops_
  std::vector<std::pair<std::int32_t, std::string>> fixed_cigars_;  // pairs with an empty side
  std::size_t count_ = 0;
  bool traceback_ = false;
};

// The work of one batch shape on the GPU — pair order, length classes, 16/32-bit choice, device
// workspace — built from the host batches' lengths, then run any number of times on device
// batches of those lengths. create() uploads its tables on `stream` and waits for them; run() is
// asynchronous. A pair whose device sequences turn out to have other lengths than planned is not
// computed (nothing is written outside the plan's workspaces) and download() reports it; pairs
// the plan saw with an empty side keep the results computed on the host. A create() that fails
// leaves the plan empty: run() and set_query() on it return an error and launch nothing.
//
// One target set, many queries: create a one-to-many plan for the first query, then set_query()
// for each next one. The target side (tables, target order, device copies) is kept; what depends
// on the query length is re-planned only when the length changes, and workspaces only grow.
class AlignPlan {
 public:
  AlignPlan();
  ~AlignPlan();
  AlignPlan(AlignPlan&&) noexcept;
  AlignPlan& operator=(AlignPlan&&) noexcept;
  AlignPlan(const AlignPlan&) = delete;
  AlignPlan& operator=(const AlignPlan&) = delete;

  Status create(const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                const ScoreMatrix& matrix, const AlignOptions& options, cudaStream_t stream);
  // One-to-many plans: the same targets against `query` (a batch of one) from now on. Waits for
  // `stream`; a failure leaves the plan empty.
  Status set_query(const SequenceBatch& query, cudaStream_t stream);
  // The device batches must hold sequences of the lengths the plan was made for (see above).
  Status run(const DeviceSequenceBatch& queries, const DeviceSequenceBatch& targets,
             DeviceAlignResults* out, cudaStream_t stream) const;

  std::size_t pairs() const;
  std::uint64_t cells() const;  // sum of n * m over the pairs (for GCUPS)

  struct Impl;

 private:
  friend struct AlignPlanAccess;  // the internal variants library runs a plan on other kernels
  Impl* impl_ = nullptr;
};

// One set of targets against one query after another, on CUDA: the targets are uploaded and the
// plan made at the first query; each next query only uploads itself and points the plan at it
// (AlignPlan::set_query), so a query costs its cells rather than a plan, an upload of the targets
// and a round of allocations. What dpx-align's sw/nw/sg and the Python package's all-against-all
// scores run. The targets must stay alive and unchanged while the aligner is used. Its work goes
// on a stream of its own on the calling thread's current device, and each call waits for it.
class OneToManyAligner {
 public:
  OneToManyAligner(const SequenceBatch& targets, const ScoreMatrix& matrix, const AlignOptions& options);
  ~OneToManyAligner();
  OneToManyAligner(const OneToManyAligner&) = delete;
  OneToManyAligner& operator=(const OneToManyAligner&) = delete;

  // `query` (a batch of one) against every target: (*out)[k] for target k.
  Status align(const SequenceBatch& query, std::vector<AlignResult>* out);
  // The same, the scores alone (one contiguous copy back, no result built per target).
  Status scores(const SequenceBatch& query, std::vector<std::int32_t>* out);

 private:
  Status run(const SequenceBatch& query);
  struct State;
  State* state_;
};

// Convenience: plan, upload, run, download; waits for `stream` before returning.
Status align_cuda(const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                  const ScoreMatrix& matrix, const AlignOptions& options,
                  std::vector<AlignResult>* out, cudaStream_t stream);

// Runs on the backend asked for (kAuto: CUDA when a device is usable, else the CPU) on the
// default stream; the host form above.
Status align_batch(Backend backend, const SequenceBatch& queries, const SequenceBatch& targets,
                   Pairing pairing, const ScoreMatrix& matrix, const AlignOptions& options,
                   std::vector<AlignResult>* out);

}  // namespace dpx

// Edit distance and DTW: the other sequence recurrences of the library.
#include "dpx/align_distance.h"
