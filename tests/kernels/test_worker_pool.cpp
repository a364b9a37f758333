// The CPU worker pool: every item runs once; a throwing body and a failing body each come back as
// a Status; a thread that cannot be started, nested calls and callers on several threads lose
// nothing; the threads are kept between calls, and a forked child gets a pool of its own.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <vector>

#include "worker_pool.h"

namespace dpx {
namespace {

std::atomic<int> g_started{0};

// Starts one thread, then fails as std::thread does when the system has none left.
std::thread start_one_then_fail(std::function<void()> fn) {
  if (g_started++ >= 1) throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again));
  return std::thread(std::move(fn));
}

TEST(WorkerPool, EveryItemOnce) {
  std::vector<std::atomic<int>> hits(1000);
  const Status s = runtime::for_each_item<int>(hits.size(), 4, [&](int&, std::size_t i) {
    ++hits[i];
    return Status::ok();
  });
  ASSERT_TRUE(s.is_ok()) << s.message();
  for (const auto& h : hits) EXPECT_EQ(h.load(), 1);
}

TEST(WorkerPool, RangesCoverEverythingOnce) {
  std::vector<std::atomic<int>> hits(1001);
  const Status s = runtime::for_each_range(hits.size(), 3, 100, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) ++hits[i];
    return Status::ok();
  });
  ASSERT_TRUE(s.is_ok()) << s.message();
  for (const auto& h : hits) EXPECT_EQ(h.load(), 1);
}

TEST(WorkerPool, ThreadStartFailureLeavesFewerThreadsAndLosesNothing) {
  g_started = 0;
  runtime::WorkerPool pool(start_one_then_fail);
  std::vector<std::atomic<int>> ran(4);
  const Status s = pool.run(4, [&](const runtime::Worker& w) {
    ++ran[w.index];
    return Status::ok();
  });
  ASSERT_TRUE(s.is_ok()) << s.message();
  for (const auto& r : ran) EXPECT_EQ(r.load(), 1);
  EXPECT_EQ(pool.threads(), 1);  // the one thread started; the caller ran what it did not take
}

TEST(WorkerPool, ThreadsAreKeptBetweenCalls) {
  runtime::WorkerPool pool;
  std::atomic<int> ran{0};
  const auto body = [&](const runtime::Worker&) {
    ++ran;
    return Status::ok();
  };
  ASSERT_TRUE(pool.run(3, body).is_ok());
  EXPECT_EQ(pool.threads(), 2);
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(pool.run(3, body).is_ok());
  EXPECT_EQ(pool.threads(), 2);
  EXPECT_EQ(ran.load(), 303);
  ASSERT_TRUE(pool.run(1, body).is_ok());  // one worker: the caller alone
  EXPECT_EQ(pool.threads(), 2);
}

TEST(WorkerPool, NestedCallsComplete) {
  // every index of the outer call runs a call of its own on the same pool: no thread waits for
  // an index nobody can take
  runtime::WorkerPool pool(runtime::start_thread, 2);
  std::atomic<int> inner{0};
  const Status s = pool.run(4, [&](const runtime::Worker&) {
    return pool.run(4, [&](const runtime::Worker&) {
      ++inner;
      return Status::ok();
    });
  });
  ASSERT_TRUE(s.is_ok()) << s.message();
  EXPECT_EQ(inner.load(), 16);
}

TEST(WorkerPool, CallersOnSeveralThreadsAtOnce) {
  runtime::WorkerPool pool(runtime::start_thread, 3);
  std::vector<std::atomic<long>> sums(4);
  std::vector<std::thread> callers;
  for (int c = 0; c < 4; ++c)
    callers.emplace_back([&, c] {
      for (int round = 0; round < 200; ++round) {
        const Status s = pool.run(5, [&](const runtime::Worker& w) {
          sums[c] += w.index + 1;
          return Status::ok();
        });
        if (!s.is_ok()) sums[c] = -1000000;
      }
    });
  for (std::thread& t : callers) t.join();
  for (const auto& sum : sums) EXPECT_EQ(sum.load(), 200 * 15);
}

TEST(WorkerPool, IndicesAfterAFailureAreSkipped) {
  runtime::WorkerPool pool(runtime::start_thread, 0);  // no threads: indices run in order
  std::vector<int> ran;
  const Status s = pool.run(5, [&](const runtime::Worker& w) {
    ran.push_back(w.index);
    return w.index == 1 ? Status(StatusCode::kOverflow, "index 1") : Status::ok();
  });
  EXPECT_EQ(s.code(), StatusCode::kOverflow);
  EXPECT_EQ(ran, (std::vector<int>{0, 1}));
}

TEST(WorkerPool, SharedPoolWorksInAForkedChild) {
  ASSERT_TRUE(runtime::run_workers(3, [](const runtime::Worker&) { return Status::ok(); }).is_ok());
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {  // the parent's threads did not come along: the child gets a pool of its own
    std::atomic<int> ran{0};
    const Status s = runtime::run_workers(3, [&](const runtime::Worker&) {
      ++ran;
      return Status::ok();
    });
    _exit(s.is_ok() && ran.load() == 3 ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
}

TEST(WorkerPool, ThrowingBodyIsAStatus) {
  for (int threads : {1, 4}) {
    const Status s = runtime::run_workers(threads, [threads](const runtime::Worker& w) -> Status {
      if (w.index == threads - 1) throw std::runtime_error("boom");
      return Status::ok();
    });
    EXPECT_EQ(s.code(), StatusCode::kInternal) << threads;
    EXPECT_NE(s.message().find("boom"), std::string::npos) << s.message();
  }
  const Status oom = runtime::run_workers(2, [](const runtime::Worker&) -> Status { throw std::bad_alloc(); });
  EXPECT_EQ(oom.code(), StatusCode::kOutOfMemory) << oom.message();
}

// A worker's workspace that counts the workers started.
std::atomic<int> g_workspaces{0};
struct CountedWorkspace {
  CountedWorkspace() { ++g_workspaces; }
};

TEST(WorkerPool, FirstFailureStopsTheItems) {
  // The failing item waits (up to 5 s) until the second worker has started, so that worker is
  // inside its loop when the failure comes; the items after it take 100 us each. Only the flag the
  // failure sets stops that worker before it has run all of them (2 s of them).
  constexpr int kItems = 20000;
  g_workspaces = 0;
  std::atomic<int> ran{0};
  const Status s = runtime::for_each_item<CountedWorkspace>(kItems, 2, [&](CountedWorkspace&, std::size_t i) {
    ++ran;
    if (i == 10) {
      const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(5);
      while (g_workspaces.load() < 2 && std::chrono::steady_clock::now() < give_up) std::this_thread::yield();
      return Status(StatusCode::kOverflow, "item 10");
    }
    if (i > 10) std::this_thread::sleep_for(std::chrono::microseconds(100));
    return Status::ok();
  });
  EXPECT_EQ(s.code(), StatusCode::kOverflow);
  EXPECT_EQ(s.message(), "item 10");
  EXPECT_LT(ran.load(), kItems);
}

TEST(WorkerPool, WorkerCount) {
  EXPECT_EQ(runtime::worker_count(8, 3), 3);
  EXPECT_EQ(runtime::worker_count(2, 0), 1);
  EXPECT_GE(runtime::worker_count(0, 1000), 1);
}

}  // namespace
}  // namespace dpx
