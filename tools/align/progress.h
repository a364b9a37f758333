// A progress line on standard error for runs that take a while: nothing for the first two
// seconds, then at most one update a second (rewritten in place on a terminal).
#pragma once

#include <chrono>
#include <cstdint>

namespace dpx {
namespace cli {

class Progress {
 public:
  Progress(std::uint64_t total_pairs, bool enabled);
  void update(std::uint64_t done_pairs, std::uint64_t done_cells);
  void finish();

 private:
  using Clock = std::chrono::steady_clock;
  std::uint64_t total_;
  bool enabled_, shown_ = false, terminal_;
  Clock::time_point start_, last_;
};

}  // namespace cli
}  // namespace dpx
