#include "progress.h"

#include <unistd.h>

#include <cstdio>

namespace dpx {
namespace cli {
namespace {

constexpr int kBarWidth = 30;

}  // namespace

std::string format_duration(double seconds) {
  const long long s = seconds < 0 ? 0 : static_cast<long long>(seconds + 0.5);
  char buf[32];
  if (s >= 3600) {
    std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%lld:%02lld", s / 60, s % 60);
  }
  return buf;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

Progress::Progress(std::uint64_t total_pairs, bool enabled)
    : total_(total_pairs), enabled_(enabled), terminal_(isatty(STDERR_FILENO) != 0), start_(Clock::now()), last_(start_) {}

void Progress::update(std::uint64_t done_pairs, std::uint64_t done_cells) {
  if (!enabled_) return;
  const Clock::time_point now = Clock::now();
  const double since_start = std::chrono::duration<double>(now - start_).count();
  const double every = terminal_ ? 1.0 : 5.0;
  if (since_start < 2.0 || (shown_ && std::chrono::duration<double>(now - last_).count() < every)) return;
  last_ = now;
  shown_ = true;
  const double fraction = total_ ? double(done_pairs) / double(total_) : 1.0;
  const std::string eta = fraction > 0 ? format_duration(since_start * (1.0 - fraction) / fraction) : "?";
  const double gcups = double(done_cells) / since_start * 1e-9;
  if (terminal_) {
    std::string bar(kBarWidth, ' ');
    for (int i = 0; i < kBarWidth && i < static_cast<int>(fraction * kBarWidth); ++i) bar[i] = '#';
    std::fprintf(stderr, "\r[%s] %5.1f%% %.2f GCUPS, ETA %s ", bar.c_str(), 100.0 * fraction, gcups, eta.c_str());
  } else {
    std::fprintf(stderr, "dpx-align: %llu / %llu pairs (%.1f%%), %.2f GCUPS, ETA %s\n",
                 static_cast<unsigned long long>(done_pairs), static_cast<unsigned long long>(total_), 100.0 * fraction,
                 gcups, eta.c_str());
  }
  std::fflush(stderr);
}

void Progress::finish() {
  if (shown_ && terminal_) std::fputc('\n', stderr);
}

}  // namespace cli
}  // namespace dpx
