// DeviceAlignResults on the host side: what download() copied back, turned into AlignResults.
// Kept apart from the CUDA code so both builds (and the tests) run the same checks.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "dpx/align.h"

namespace dpx {
namespace align {

// The score written for a pair whose sequences do not have the planned lengths (the kernels leave
// it alone rather than overrun workspaces sized by the plan).
constexpr std::int32_t kRefusedScore = INT32_MIN;

// Where a run writes on the device: five fields a pair and, with a traceback, the operations and
// their counts.
struct ResultArrays {
  std::int32_t* fields = nullptr;
  char* ops = nullptr;
  std::int32_t* op_counts = nullptr;
};

// One run's results as copied from the device.
struct HostAlignResults {
  std::size_t count = 0;
  std::vector<std::int32_t> fields;       // 5 per pair
  bool traceback = false;
  std::vector<std::int32_t> op_counts;    // per pair, traceback only
  std::vector<char> ops;                  // pair k's operations end at op_offsets[k + 1]
  std::vector<std::uint64_t> op_offsets;  // count + 1 entries, traceback only
  std::vector<std::pair<std::int32_t, std::string>> fixed_cigars;  // pairs with an empty side
};

// What a download of `count` pairs copies into: with a traceback the operation offsets (count + 1
// entries), and the CIGARs of the pairs with an empty side.
HostAlignResults host_results(std::size_t count, bool traceback, const std::vector<std::uint64_t>& op_offsets,
                              const std::vector<std::pair<std::int32_t, std::string>>& fixed_cigars);

// Fills `out` with one result per pair, or returns the first problem found and leaves `out` as it was.
Status assemble_results(const HostAlignResults& in, std::vector<AlignResult>* out);

// The scores of `in` (fields only), or the first pair the kernels refused; `out` changes only on success.
Status assemble_scores(const HostAlignResults& in, std::vector<std::int32_t>* out);

}  // namespace align
}  // namespace dpx
