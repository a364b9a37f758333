// Where each stored database sequence stands in the database's original (FASTA) order. A database
// made by makedb stores its sequences sorted by length; hits rank ties and are reported by the
// original order, so that a search gives the same rows whichever file it read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace dpx {
namespace cli {

class DatabaseOrder {
 public:
  DatabaseOrder() = default;  // stored in the original order
  // original[p] is the original index of stored sequence p, each below `database_size` and distinct
  // (a part of a database holds fewer than the whole).
  DatabaseOrder(std::vector<std::uint32_t> original, std::size_t database_size)
      : original_(std::move(original)), stored_(database_size) {
    for (std::size_t p = 0; p < original_.size(); ++p) stored_[original_[p]] = p;
  }

  bool identity() const { return original_.empty(); }
  std::uint32_t original(std::size_t stored) const {
    return identity() ? static_cast<std::uint32_t>(stored) : original_[stored];
  }
  std::size_t stored(std::uint32_t original) const { return identity() ? original : stored_[original]; }

 private:
  std::vector<std::uint32_t> original_;
  std::vector<std::size_t> stored_;
};

}  // namespace cli
}  // namespace dpx
