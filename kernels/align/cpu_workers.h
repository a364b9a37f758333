// Runs per-pair work of the CPU implementations on a few threads, pairs handed out one at a time
// (pairs differ in length); each worker keeps its own buffers.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <mutex>
#include <new>
#include <system_error>
#include <thread>
#include <vector>

#include "dpx/status.h"

namespace dpx {
namespace align {

// Worker count: `requested` (<= 0: the hardware's), no more than the items.
inline int worker_count(int requested, std::size_t items) {
  int n = requested > 0 ? requested : static_cast<int>(std::thread::hardware_concurrency());
  n = std::max(n, 1);
  return static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(n), std::max<std::size_t>(items, 1)));
}

// Calls body(workspace, item) for every item in [0, count); Workspace is default-constructed once
// per worker. The first failing Status (or an allocation failure) stops the rest and is returned.
template <class Workspace, class Body>
Status for_each_item(std::size_t count, int workers, Body body) {
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  Status first_error;
  std::mutex error_mutex;
  auto work = [&] {
    try {
      Workspace ws;
      for (std::size_t i = next++; i < count && !failed; i = next++) {
        Status s = body(ws, i);
        if (!s.is_ok()) {
          std::lock_guard<std::mutex> lock(error_mutex);
          if (!failed.exchange(true)) first_error = s;
        }
      }
    } catch (const std::bad_alloc&) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (!failed.exchange(true)) first_error = Status(StatusCode::kOutOfMemory, "host allocation failed");
    }
  };
  std::vector<std::thread> pool;
  for (int w = 1; w < workers; ++w) {
    try {
      pool.emplace_back(work);
    } catch (const std::system_error&) {
      break;  // fewer threads than asked; the ones running take all items
    }
  }
  work();
  for (auto& t : pool) t.join();
  return first_error;
}

}  // namespace align
}  // namespace dpx
