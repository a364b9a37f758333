// Progress on standard error for runs that take a while: nothing for the first two seconds, then
// on a terminal a bar with the rate and the time left, rewritten in place once a second; otherwise
// one line every five seconds.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

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

// "1:05" or "2:03:04".
std::string format_duration(double seconds);

// Seconds from `start` to now (search's --timings).
double seconds_since(std::chrono::steady_clock::time_point start);

}  // namespace cli
}  // namespace dpx
