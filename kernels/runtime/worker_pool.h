// The one CPU worker pool of libdpx: run_workers() runs a body for worker indices [0, N) on the
// process's pool of threads and the calling thread, and returns a Status. The threads are started
// on first use and kept, so a call costs a wake-up, not a thread start (which costs more than a
// small image's whole filter). Nothing escapes as an exception and nothing calls std::terminate:
// an exception thrown by a body becomes the returned Status; a thread that cannot be started only
// leaves fewer threads, and the caller runs the indices no thread took. for_each_item() and
// for_each_range() are the two ways the families share out work on it.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <thread>

#include "dpx/status.h"

namespace dpx {
namespace runtime {

// The machine's hardware threads (at least 1), read once a process.
int hardware_threads();

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

// Threads that run the indices of queued calls. Every index of a call runs exactly once, on a
// pool thread or on the calling thread; indices never wait for one another (a body must not), so
// a call completes however few threads there are, and bodies may call run() again.
class WorkerPool {
 public:
  static constexpr int kMaxThreads = 256;
  explicit WorkerPool(ThreadStarter start = start_thread, int max_threads = kMaxThreads);
  ~WorkerPool();  // stops and joins the threads; no call may be running
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Runs body for indices [0, workers) and returns the first failure, or ok. Indices not yet
  // started when a body fails are skipped.
  Status run(int workers, const WorkerBody& body);
  int threads() const;

  // The process's pool: never destroyed (calls may come from static destructors); a child
  // process after fork gets a new one.
  static WorkerPool& shared();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// run() on the process's pool.
Status run_workers(int workers, const WorkerBody& body);

// Calls body(workspace, item) for every item in [0, count), items handed out one at a time (they
// may differ in cost); Workspace is default-constructed once per worker. `threads` as worker_count.
template <class Workspace, class Body>
Status for_each_item(std::size_t count, int threads, Body body) {
  std::atomic<std::size_t> next{0};
  return run_workers(worker_count(threads, count), [&](const Worker& w) -> Status {
    Workspace ws;
    for (std::size_t i = next++; i < count && !w.stop; i = next++) DPX_RETURN_IF_ERROR(body(ws, i));
    return Status::ok();
  });
}

// Calls body(begin, end) over [0, n) cut into contiguous ranges of at least `min_per_worker`
// items (fewer workers than `threads` when n is small). Ranges are as equal as whole items allow.
template <class Body>
Status for_each_range(std::size_t n, int threads, std::size_t min_per_worker, Body body) {
  const std::size_t most = std::max<std::size_t>(1, n / std::max<std::size_t>(min_per_worker, 1));
  const int workers = worker_count(threads, std::min(n, most));
  return run_workers(workers, [&](const Worker& w) {
    const std::size_t parts = static_cast<std::size_t>(workers);
    const std::size_t i = static_cast<std::size_t>(w.index);
    return body(n * i / parts, n * (i + 1) / parts);
  });
}

}  // namespace runtime
}  // namespace dpx
