// What the CPU and CUDA alignment paths share on the host: argument checks, gap costs, results of
// pairs with an empty side, and CIGAR assembly.
#pragma once

#include <climits>
#include <cstddef>
#include <cstdint>
#include <string>

#include "dpx/align.h"
#include "sw_cell.h"

namespace dpx {
namespace align {

// Cost of a gap of `length` letters (0 for none).
inline std::int64_t gap_cost(std::int64_t length, const AlignOptions& o) {
  return length == 0 ? 0 : o.gap_open + (length - 1) * o.gap_extend;
}

// The most pairs one alignment call takes: the plan and the kernels index pairs with int32
// (slots, and the per-pair lengths at 2 * pair + 1).
constexpr std::size_t kAlignMaxPairs = (static_cast<std::size_t>(INT32_MAX) - 1) / 2;

// Fails with kUnsupported when `pairs` is over kAlignMaxPairs.
Status check_pair_count(std::size_t pairs, const char* what);

// Options, matrix and batches of one alignment call; `what` prefixes the message.
Status validate_align_call(const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                           const ScoreMatrix& matrix, const AlignOptions& options, const char* what);

// The result of a pair with n == 0 or m == 0 (all modes, CIGAR included when asked for).
AlignResult empty_side_result(std::int32_t n, std::int32_t m, const AlignOptions& options);

}  // namespace align
}  // namespace dpx
