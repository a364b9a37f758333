#include "top_hits.h"

#include <algorithm>

namespace dpx {
namespace cli {

void TopHits::offer(Hit hit) {
  if (order_ != nullptr) hit.target = order_->original(hit.target);
  keep(hit);
}

void TopHits::keep(Hit hit) {
  if (hit.score < min_score_) return;
  if (limit_ == 0 || heap_.size() < limit_) {
    heap_.push_back(hit);
    if (limit_ != 0) std::push_heap(heap_.begin(), heap_.end(), ranks_before);
    return;
  }
  if (!ranks_before(hit, heap_.front())) return;
  std::pop_heap(heap_.begin(), heap_.end(), ranks_before);
  heap_.back() = hit;
  std::push_heap(heap_.begin(), heap_.end(), ranks_before);
}

void TopHits::merge(const TopHits& other) {
  for (const Hit& h : other.heap_) keep(h);
}

std::vector<Hit> TopHits::sorted() const {
  std::vector<Hit> out = heap_;
  std::sort(out.begin(), out.end(), ranks_before);
  return out;
}

}  // namespace cli
}  // namespace dpx
