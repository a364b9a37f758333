#include "worker_pool.h"

#include <pthread.h>

#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <new>
#include <string>
#include <utility>
#include <vector>

namespace dpx {
namespace runtime {

int hardware_threads() {
  // glibc reads /sys for this on every call: three system calls, more than a small filter costs
  static const int threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  return threads;
}

int worker_count(int requested, std::size_t items) {
  const int wanted = requested > 0 ? requested : hardware_threads();
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

// One run() call: its indices are claimed one at a time, under the pool's mutex.
struct Call {
  Call(const WorkerBody& b, int n) : body(b), workers(n) {}
  const WorkerBody& body;
  const int workers;
  int next = 0;     // the next index to claim
  int running = 0;  // claimed and not finished
  FirstFailure failure;
};

}  // namespace

struct WorkerPool::State {
  ThreadStarter start;
  int max_threads;
  std::mutex mutex;
  std::condition_variable queued;    // a call has indices to claim, or the pool stops
  std::condition_variable finished;  // a call's last running index finished
  std::deque<Call*> calls;           // calls with indices left to claim, oldest first
  std::vector<std::thread> threads;
  bool stopping = false;

  // Claims the next index of `c` (the mutex held); a call with none left leaves the queue.
  int claim(Call& c) {
    const int i = c.next++;
    if (c.next == c.workers)
      for (auto it = calls.begin(); it != calls.end(); ++it)
        if (*it == &c) {
          calls.erase(it);
          break;
        }
    ++c.running;
    return i;
  }

  // Runs a claimed index with the mutex released. A call that already failed skips the rest.
  void run_claimed(Call& c, int index, std::unique_lock<std::mutex>& lock) {
    lock.unlock();
    if (!c.failure.stop()) run_one(c.body, index, &c.failure);
    lock.lock();
    if (--c.running == 0 && c.next == c.workers) finished.notify_all();
  }

  void serve() {
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      queued.wait(lock, [this] { return stopping || !calls.empty(); });
      if (stopping) return;
      Call& c = *calls.front();
      run_claimed(c, claim(c), lock);
    }
  }

  // Starts threads up to `wanted` (the mutex held). A thread that cannot be started leaves the
  // pool smaller: callers run the indices no thread takes.
  void grow(int wanted) {
    const std::size_t target = static_cast<std::size_t>(std::min(wanted, max_threads));
    if (threads.size() >= target) return;
    try {
      threads.reserve(target);
      while (threads.size() < target) threads.push_back(start([this] { serve(); }));
    } catch (...) {
    }
  }
};

WorkerPool::WorkerPool(ThreadStarter start, int max_threads) : state_(new State) {
  state_->start = start;
  state_->max_threads = std::max(max_threads, 0);
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    state_->stopping = true;
  }
  state_->queued.notify_all();
  for (std::thread& t : state_->threads) t.join();
}

int WorkerPool::threads() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  return static_cast<int>(state_->threads.size());
}

Status WorkerPool::run(int workers, const WorkerBody& body) {
  Call c(body, std::max(workers, 1));
  if (c.workers == 1) {
    run_one(body, 0, &c.failure);
    return c.failure.take();
  }
  State& s = *state_;
  std::unique_lock<std::mutex> lock(s.mutex);
  s.grow(c.workers - 1);
  s.calls.push_back(&c);
  for (int i = 1; i < c.workers; ++i) s.queued.notify_one();
  while (c.next < c.workers) s.run_claimed(c, s.claim(c), lock);
  s.finished.wait(lock, [&c] { return c.running == 0; });
  return c.failure.take();
}

namespace {

std::atomic<WorkerPool*> g_shared{nullptr};
std::atomic<WorkerPool*> g_before_fork{nullptr};  // kept reachable; its threads stayed in the parent

void replace_after_fork() {
  g_before_fork.store(g_shared.exchange(new WorkerPool()));
}

}  // namespace

WorkerPool& WorkerPool::shared() {
  static const bool created = [] {
    g_shared.store(new WorkerPool());
    pthread_atfork(nullptr, nullptr, replace_after_fork);
    return true;
  }();
  (void)created;
  return *g_shared.load(std::memory_order_acquire);
}

Status run_workers(int workers, const WorkerBody& body) {
  return WorkerPool::shared().run(workers, body);
}

}  // namespace runtime
}  // namespace dpx
