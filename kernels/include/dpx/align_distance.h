// Edit distance (Levenshtein, unit costs) and dynamic time warping (DTW) over batches of pairs,
// on the CPU and on CUDA with bit-identical results.
//
//   dpx::SequenceBatch q, t;  q.add("kitten");  t.add("sitting");
//   std::vector<dpx::EditResult> r;
//   dpx::edit_distance_cpu(q, t, dpx::Pairing::kPairwise, {/*cigar=*/true}, &r);
//   // r[0].distance == 3, r[0].cigar == "1X3=1X1=1D"
//
// Pairs: Pairing::kPairwise takes queries[i] with targets[i]; Pairing::kOneToMany the single
// query with every target. Results come back in pair order.
//
// Edit distance
//   * Letters are compared as raw bytes, case-sensitively ('a' != 'A'); any byte value is a letter.
//   * An empty sequence against a sequence of length L has distance L (L deletions or insertions);
//     two empty sequences have distance 0 and an empty CIGAR.
//   * CIGAR (EditOptions::cigar) — run-length encoded, read along the query:
//       '=' query and target letters equal, 'X' substitution, 'I' a query letter absent from the
//       target (insertion to the reference), 'D' a target letter absent from the query (deletion).
//     Its cost (X + I + D counts) equals the distance, and applying it to the query re-creates the
//     target. Among optimal alignments the one chosen is fixed (ties prefer the diagonal, then
//     'I', then 'D', walking back from the end), identical on the CPU and CUDA.
//
// DTW
//   * Series of int32; cell cost |a_i - b_j| (computed without overflow, up to 2^32 - 1);
//     D(i, j) = |a_i - b_j| + min(D(i-1, j), D(i, j-1), D(i-1, j-1)), D(0, 0) = 0, the result is
//     D(n, m): the usual DTW with steps (1,0), (0,1), (1,1) and the path from (1,1) to (n,m).
//   * Sakoe-Chiba band (DtwOptions::band = R >= 0): only cells with |i - j| <= R are allowed
//     (indices 1-based on both series, no rescaling for unequal lengths). R = -1: no band.
//   * No warping path — one series empty and the other not, or a band narrower than the length
//     difference (|n - m| > R) — gives cost kDtwNoPath (the maximum int64, "infinity"), not an error.
//     Two empty series cost 0.
//   * Costs accumulate in int64 and cannot overflow: a path has at most n + m - 1 cells of cost
//     below 2^32, so every D(i, j) < 2^32 * 2^18 for lengths within kAlignDistanceMaxLength.
//     The CUDA kernels run a pair in 32-bit lanes only when a bound computed from the pair's value
//     range proves every cell fits; otherwise in 64-bit. Nothing wraps.
//
// DTW on float series
//   * FloatSeriesBatch; cell cost |a_i - b_j| (DtwCost::kAbsolute) or (a_i - b_j)^2 (kSquared), the
//     same recurrence and band as above, in float32: d = a_i - b_j rounded once, then d * d + min
//     as one fused multiply-add (one rounding; std::fma on the CPU) or |d| + min rounded once, so
//     the CPU and CUDA give the same bits. The three-way
//     minimum ignores NaN (fmin), so a NaN cost makes only its own cell NaN.
//   * No warping path: +infinity (kDtwFloatNoPath). Two empty series cost 0.
//
// Limits and errors
//   * Sequences and series up to kAlignDistanceMaxLength (65,536) elements; longer ones, mismatched
//     batch sizes (validate_pairing), a band below -1 or a null output return kInvalidArgument and
//     write nothing. A CUDA failure during edit_distance_cuda leaves `out` sized to the pair count
//     with unspecified contents (it is written in place, so a reused vector keeps its strings).
//   * CIGARs on the CPU: the distance comes first, then the DP runs only in the band of diagonals
//     an optimal path can use (width <= distance + 1), keeping 2 bits per band cell while the pair
//     is computed. On CUDA: the bit-parallel kernels keep every column's difference words (2 bits
//     and a score per 64 cells, about n * m / 4 + n * m / 16 bytes: ~1.3 GiB for two 65,536-letter
//     sequences) and a warp walks back through them; the batch runs in chunks of at most 512 MiB
//     of columns (a larger single pair runs alone).
//
// CUDA forms
//   * edit_distance_cuda / dtw_cuda are conveniences: they upload the batches, run the kernels on
//     `stream`, copy the results back and synchronise `stream` before returning.
//   * The *_cuda_async forms take batches already in device memory, write device result arrays and
//     synchronise nothing (scratch is stream-ordered memory from libdpx's pool, see device.h).
//     They cannot read lengths back, so the caller declares the longest sequence in either batch
//     (the host batches' max_length()); it is validated, sizes the scratch and picks 16- or 32-bit
//     lanes. A pair whose real length exceeds the declared one gets kDistanceInvalid, never an
//     out-of-bounds access. Pairing and batch sizes are checked from the device batches' size().
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "dpx/device.h"
#include "dpx/sequences.h"
#include "dpx/status.h"

namespace dpx {

// Longest sequence or series any call accepts.
constexpr std::size_t kAlignDistanceMaxLength = 65536;

// DTW cost of a pair with no warping path (see above).
constexpr std::int64_t kDtwNoPath = std::numeric_limits<std::int64_t>::max();

// Written by the asynchronous forms for a pair longer than the declared maximum length.
constexpr std::int64_t kDistanceInvalid = -1;

// Float DTW: no warping path, and (asynchronous forms) a pair longer than the declared length.
constexpr float kDtwFloatNoPath = std::numeric_limits<float>::infinity();
constexpr float kDtwFloatInvalid = -1.0f;

struct EditOptions {
  bool cigar = false;  // also produce a CIGAR per pair
};

struct EditResult {
  std::int64_t distance = 0;
  std::string cigar;  // empty unless EditOptions::cigar
};

struct DtwOptions {
  int band = -1;  // Sakoe-Chiba radius in cells, -1 = none
};

enum class DtwCost { kAbsolute, kSquared };

struct DtwFloatOptions {
  int band = -1;  // Sakoe-Chiba radius in cells, -1 = none
  DtwCost cost = DtwCost::kAbsolute;
};

struct DtwResult {
  std::int64_t cost = 0;  // kDtwNoPath when no warping path exists
};

// --- edit distance ------------------------------------------------------------------------------

// `threads` <= 0: one per hardware thread.
Status edit_distance_cpu(const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                         const EditOptions& options, std::vector<EditResult>* out, int threads = 0);

// Uploads, runs on `stream`, copies back and synchronises `stream`.
Status edit_distance_cuda(const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                          const EditOptions& options, std::vector<EditResult>* out,
                          cudaStream_t stream);

// Distances only, asynchronous: `distances` is device memory for pair_count() int64 values.
// `max_length`: the longest sequence in either batch (see above).
Status edit_distance_cuda_async(const DeviceSequenceBatch& queries, const DeviceSequenceBatch& targets,
                                Pairing pairing, std::size_t max_length, std::int64_t* distances,
                                cudaStream_t stream);

// --- DTW ----------------------------------------------------------------------------------------

Status dtw_cpu(const SeriesBatch& a, const SeriesBatch& b, Pairing pairing, const DtwOptions& options,
               std::vector<DtwResult>* out, int threads = 0);

// Uploads, runs on `stream`, copies back and synchronises `stream`.
Status dtw_cuda(const SeriesBatch& a, const SeriesBatch& b, Pairing pairing, const DtwOptions& options,
                std::vector<DtwResult>* out, cudaStream_t stream);

// Costs only, asynchronous: `costs` is device memory for pair_count() int64 values.
// `max_length`: the longest series in either batch (see above).
Status dtw_cuda_async(const DeviceSeriesBatch& a, const DeviceSeriesBatch& b, Pairing pairing,
                      const DtwOptions& options, std::size_t max_length, std::int64_t* costs,
                      cudaStream_t stream);

// --- DTW on float series -------------------------------------------------------------------------

Status dtw_float_cpu(const FloatSeriesBatch& a, const FloatSeriesBatch& b, Pairing pairing,
                     const DtwFloatOptions& options, std::vector<float>* costs, int threads = 0);

// Uploads, runs on `stream`, copies back and synchronises `stream`.
Status dtw_float_cuda(const FloatSeriesBatch& a, const FloatSeriesBatch& b, Pairing pairing,
                      const DtwFloatOptions& options, std::vector<float>* costs, cudaStream_t stream);

// Costs only, asynchronous: `costs` is device memory for pair_count() floats.
// `max_length`: the longest series in either batch (see above).
Status dtw_float_cuda_async(const DeviceFloatSeriesBatch& a, const DeviceFloatSeriesBatch& b, Pairing pairing,
                            const DtwFloatOptions& options, std::size_t max_length, float* costs,
                            cudaStream_t stream);

}  // namespace dpx
