#include "progress.h"

#include <unistd.h>

#include <cstdio>

namespace dpx {
namespace cli {

Progress::Progress(std::uint64_t total_pairs, bool enabled)
    : total_(total_pairs), enabled_(enabled), terminal_(isatty(STDERR_FILENO) != 0), start_(Clock::now()), last_(start_) {}

void Progress::update(std::uint64_t done_pairs, std::uint64_t done_cells) {
  if (!enabled_) return;
  const Clock::time_point now = Clock::now();
  const double since_start = std::chrono::duration<double>(now - start_).count();
  if (since_start < 2.0 || std::chrono::duration<double>(now - last_).count() < 1.0) return;
  last_ = now;
  shown_ = true;
  std::fprintf(stderr, "%sdpx-align: %llu / %llu pairs (%.1f%%), %.2f GCUPS%s", terminal_ ? "\r" : "",
               static_cast<unsigned long long>(done_pairs), static_cast<unsigned long long>(total_),
               total_ ? 100.0 * double(done_pairs) / double(total_) : 100.0, double(done_cells) / since_start * 1e-9,
               terminal_ ? "" : "\n");
  std::fflush(stderr);
}

void Progress::finish() {
  if (shown_ && terminal_) std::fputc('\n', stderr);
}

}  // namespace cli
}  // namespace dpx
