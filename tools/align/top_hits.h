// The best hits of one query: score descending, ties by database order, at most N of them, none
// below a minimum score. A bounded heap, so a pass over millions of targets keeps only N.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace dpx {
namespace cli {

struct Hit {
  std::int32_t score;
  std::uint32_t target;  // index in the database
};

// True when `a` is reported before `b`.
inline bool ranks_before(const Hit& a, const Hit& b) {
  return a.score != b.score ? a.score > b.score : a.target < b.target;
}

class TopHits {
 public:
  // limit 0 keeps every hit of at least `min_score`.
  TopHits(std::size_t limit, std::int32_t min_score) : limit_(limit), min_score_(min_score) {}

  void offer(Hit hit);
  // Offers every hit `other` kept: the result is the same as one pass over both inputs, because the
  // order is total and anything `other` dropped ranks below N hits it kept.
  void merge(const TopHits& other);
  // The hits kept, best first.
  std::vector<Hit> sorted() const;
  std::size_t size() const { return heap_.size(); }

 private:
  std::size_t limit_;
  std::int32_t min_score_;
  std::vector<Hit> heap_;  // the worst kept hit on top once full
};

}  // namespace cli
}  // namespace dpx
