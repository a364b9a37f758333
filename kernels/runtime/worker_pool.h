// The one CPU worker pool of libdpx: run_workers() runs a body on N workers (N - 1 new threads
// plus the calling thread) and returns a Status. Nothing escapes as an exception and nothing
// calls std::terminate: a thread that cannot be started, an allocation failure or an exception
// thrown by a body becomes the returned Status, and every thread already started is joined.
// for_each_item() and for_each_range() are the two ways the families share out work on it.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <functional>
#include <thread>

#include "dpx/status.h"

namespace dpx {
namespace runtime {

// Worker count for `items` pieces of work: `requested` (<= 0: every hardware thread), at least
// 1, never more than the items.
int worker_count(int requested, std::size_t items);

// What a body sees: its index in [0, workers) and a flag set once any worker failed, so long
// loops can stop early.
struct Worker {
  int index;
  const std::atomic<bool>& stop;
};

using WorkerBody = std::function<Status(const Worker&)>;

// Starts one thread running `fn`; replaceable so tests can make a start fail.
using ThreadStarter = std::thread (*)(std::function<void()> fn);
std::thread start_thread(std::function<void()> fn);

// Runs body on `workers` workers and returns the first failure (a body's Status, an exception it
// threw, or a thread that could not be started), or ok.
Status run_workers(int workers, const WorkerBody& body, ThreadStarter start = start_thread);

// Calls body(workspace, item) for every item in [0, count), items handed out one at a time (they
// may differ in cost); Workspace is default-constructed once per worker. `threads` as worker_count.
template <class Workspace, class Body>
Status for_each_item(std::size_t count, int threads, Body body, ThreadStarter start = start_thread) {
  std::atomic<std::size_t> next{0};
  return run_workers(
      worker_count(threads, count),
      [&](const Worker& w) -> Status {
        Workspace ws;
        for (std::size_t i = next++; i < count && !w.stop; i = next++) DPX_RETURN_IF_ERROR(body(ws, i));
        return Status::ok();
      },
      start);
}

// Calls body(begin, end) over [0, n) cut into contiguous ranges of at least `min_per_worker`
// items (fewer workers than `threads` when n is small). Ranges are as equal as whole items allow.
template <class Body>
Status for_each_range(std::size_t n, int threads, std::size_t min_per_worker, Body body,
                      ThreadStarter start = start_thread) {
  const std::size_t most = std::max<std::size_t>(1, n / std::max<std::size_t>(min_per_worker, 1));
  const int workers = worker_count(threads, std::min(n, most));
  return run_workers(
      workers,
      [&](const Worker& w) -> Status {
        const std::size_t parts = static_cast<std::size_t>(workers);
        const std::size_t i = static_cast<std::size_t>(w.index);
        return body(n * i / parts, n * (i + 1) / parts);
      },
      start);
}

}  // namespace runtime
}  // namespace dpx
