#include "database_shard.h"

#include <utility>
#include <vector>

#include "target_ranges.h"

namespace dpx {
namespace cli {

NamedSequences shard_of(const NamedSequences& db, std::size_t shard, std::size_t shards) {
  const std::size_t n = db.names.size();
  std::vector<std::uint64_t> offsets(n + 1, 0);  // of the original order
  for (std::size_t p = 0; p < n; ++p) offsets[db.order.original(p) + 1] = db.letters.length(p);
  for (std::size_t i = 0; i < n; ++i) offsets[i + 1] += offsets[i];
  const TargetRange part = split_evenly(offsets, {0, n}, shards)[shard];

  NamedSequences out;
  std::vector<std::uint32_t> original;
  out.letters.reserve(offsets[part.end] - offsets[part.begin]);
  for (std::size_t p = 0; p < n; ++p) {
    const std::uint32_t o = db.order.original(p);
    if (o < part.begin || o >= part.end) continue;
    out.names.push_back(db.names[p]);
    out.lines.push_back(db.lines[p]);
    out.letters.add(db.letters.view(p));
    original.push_back(o);
  }
  out.stand_ins = db.stand_ins;
  out.order = DatabaseOrder(std::move(original), n);
  return out;
}

}  // namespace cli
}  // namespace dpx
