// The best hits of one query: score descending, ties by database order, at most N of them, none
// below a minimum score. A bounded heap, so a pass over millions of targets keeps only N.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "database_order.h"

namespace dpx {
namespace cli {

struct Hit {
  std::int32_t score;
  std::uint32_t target;  // index in the database's original order
};

// True when `a` is reported before `b`.
inline bool ranks_before(const Hit& a, const Hit& b) {
  return a.score != b.score ? a.score > b.score : a.target < b.target;
}

class TopHits {
 public:
  // limit 0 keeps every hit of at least `min_score`. `order` (none: the identity) maps the stored
  // indices offered to original ones.
  TopHits(std::size_t limit, std::int32_t min_score, const DatabaseOrder* order = nullptr)
      : limit_(limit), min_score_(min_score), order_(order) {}

  // `hit.target` is a stored index.
  void offer(Hit hit);
  // Offers every hit `other` kept: the result is the same as one pass over both inputs, because the
  // order is total and anything `other` dropped ranks below N hits it kept.
  void merge(const TopHits& other);
  // The hits kept, best first.
  std::vector<Hit> sorted() const;
  std::size_t size() const { return heap_.size(); }

 private:
  void keep(Hit hit);  // `hit.target` is an original index

  std::size_t limit_;
  std::int32_t min_score_;
  const DatabaseOrder* order_;
  std::vector<Hit> heap_;  // the worst kept hit on top once full
};

}  // namespace cli
}  // namespace dpx
