// Contiguous ranges of the database: shards (one per device, or --shard i/n) and the chunks a
// shard is scored in. Contiguous, so merging per-range hits in range order keeps database order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "dpx/sequences.h"

namespace dpx {
namespace cli {

struct TargetRange {
  std::size_t begin = 0, end = 0;  // sequence indices, end exclusive
  std::size_t size() const { return end - begin; }
};

// `parts` ranges covering `range` with about the same number of letters each (the work of a range
// grows with its letters); empty ranges where there are fewer sequences than parts.
std::vector<TargetRange> split_evenly(const SequenceBatch& db, TargetRange range, std::size_t parts);
// The same over `offsets` (SequenceBatch::offsets()'s form).
std::vector<TargetRange> split_evenly(const std::vector<std::uint64_t>& offsets, TargetRange range, std::size_t parts);

// Consecutive ranges covering `range`, each within `max_bytes` counting a sequence as its letters
// plus `per_sequence` bytes (a longer sequence alone is a range of its own).
std::vector<TargetRange> split_by_size(const SequenceBatch& db, TargetRange range, std::size_t max_bytes,
                                       std::size_t per_sequence);

// The sequences of `range` as a batch of their own.
SequenceBatch copy_range(const SequenceBatch& db, TargetRange range);

}  // namespace cli
}  // namespace dpx
