#include "target_ranges.h"

namespace dpx {
namespace cli {

std::vector<TargetRange> split_evenly(const SequenceBatch& db, TargetRange range, std::size_t parts) {
  return split_evenly(db.offsets(), range, parts);
}

std::vector<TargetRange> split_evenly(const std::vector<std::uint64_t>& offsets, TargetRange range, std::size_t parts) {
  const std::uint64_t first = offsets[range.begin];
  const std::uint64_t letters = offsets[range.end] - first;
  std::vector<TargetRange> out;
  std::size_t at = range.begin;
  for (std::size_t p = 1; p <= parts; ++p) {
    // ends where the letters reach p / parts of the range's; every sequence lands in one part
    const std::uint64_t goal = first + letters * p / parts;
    std::size_t end = at;
    while (end < range.end && (p == parts || offsets[end + 1] <= goal)) ++end;
    out.push_back({at, end});
    at = end;
  }
  return out;
}

std::vector<TargetRange> split_by_size(const SequenceBatch& db, TargetRange range, std::size_t max_bytes,
                                       std::size_t per_sequence) {
  std::vector<TargetRange> out;
  std::size_t at = range.begin;
  while (at < range.end) {
    std::size_t end = at, bytes = 0;
    while (end < range.end && (end == at || bytes + db.length(end) + per_sequence <= max_bytes)) {
      bytes += db.length(end) + per_sequence;
      ++end;
    }
    out.push_back({at, end});
    at = end;
  }
  return out;
}

SequenceBatch copy_range(const SequenceBatch& db, TargetRange range) {
  SequenceBatch out;
  out.reserve(db.offsets()[range.end] - db.offsets()[range.begin]);
  for (std::size_t i = range.begin; i < range.end; ++i) out.add(db.item(i), db.length(i));
  return out;
}

}  // namespace cli
}  // namespace dpx
