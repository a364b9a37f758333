#include "worker_pool.h"

#include <exception>
#include <mutex>
#include <new>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

namespace dpx {
namespace runtime {

int worker_count(int requested, std::size_t items) {
  const int hardware = static_cast<int>(std::thread::hardware_concurrency());
  const int wanted = std::max(requested > 0 ? requested : hardware, 1);
  return static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(wanted), std::max<std::size_t>(items, 1)));
}

std::thread start_thread(std::function<void()> fn) { return std::thread(std::move(fn)); }

namespace {

// The first failure of any worker, kept once; later ones are dropped.
class FirstFailure {
 public:
  void record(Status s) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!stop_.exchange(true)) status_ = std::move(s);
  }
  const std::atomic<bool>& stop() const { return stop_; }
  Status take() {
    std::lock_guard<std::mutex> lock(mutex_);
    return status_;
  }

 private:
  std::mutex mutex_;
  std::atomic<bool> stop_{false};
  Status status_;
};

// Runs one worker's body and turns whatever it throws into a Status.
void run_one(const WorkerBody& body, int index, FirstFailure* failure) {
  try {
    Status s = body(Worker{index, failure->stop()});
    if (!s.is_ok()) failure->record(std::move(s));
  } catch (const std::bad_alloc&) {
    failure->record(Status(StatusCode::kOutOfMemory, "worker " + std::to_string(index) + ": host allocation failed"));
  } catch (const std::exception& e) {
    failure->record(Status(StatusCode::kInternal, "worker " + std::to_string(index) + " failed: " + e.what()));
  } catch (...) {
    failure->record(Status(StatusCode::kInternal, "worker " + std::to_string(index) + " failed"));
  }
}

}  // namespace

Status run_workers(int workers, const WorkerBody& body, ThreadStarter start) {
  FirstFailure failure;
  std::vector<std::thread> pool;
  try {
    pool.reserve(static_cast<std::size_t>(std::max(workers - 1, 0)));
    for (int w = 1; w < workers; ++w) pool.push_back(start([&body, w, &failure] { run_one(body, w, &failure); }));
  } catch (const std::system_error& e) {
    failure.record(Status(StatusCode::kOutOfMemory, "could not start worker thread " + std::to_string(pool.size() + 1) +
                                                        " of " + std::to_string(workers) + ": " + e.what()));
  } catch (const std::bad_alloc&) {
    failure.record(Status(StatusCode::kOutOfMemory, "host allocation failed while starting worker threads"));
  }
  if (!failure.stop()) run_one(body, 0, &failure);
  for (std::thread& t : pool) t.join();
  return failure.take();
}

}  // namespace runtime
}  // namespace dpx
