// The CPU worker pool: every item runs once; a thread that cannot be started, a throwing body and
// a failing body each come back as a Status, with every started thread joined.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <system_error>
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

TEST(WorkerPool, ThreadStartFailureIsAStatus) {
  g_started = 0;
  std::atomic<int> ran{0};
  const Status s = runtime::run_workers(
      4,
      [&](const runtime::Worker&) {
        ++ran;
        return Status::ok();
      },
      start_one_then_fail);
  EXPECT_EQ(s.code(), StatusCode::kOutOfMemory) << s.message();
  EXPECT_NE(s.message().find("could not start worker thread 2 of 4"), std::string::npos) << s.message();
  EXPECT_EQ(ran.load(), 1);  // the one thread started ran and was joined; the caller's share did not
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

TEST(WorkerPool, FirstFailureStopsTheItems) {
  std::atomic<int> ran{0};
  const Status s = runtime::for_each_item<int>(100000, 2, [&](int&, std::size_t i) {
    ++ran;
    return i == 10 ? Status(StatusCode::kOverflow, "item 10") : Status::ok();
  });
  EXPECT_EQ(s.code(), StatusCode::kOverflow);
  EXPECT_EQ(s.message(), "item 10");
  EXPECT_LT(ran.load(), 100000);
}

TEST(WorkerPool, WorkerCount) {
  EXPECT_EQ(runtime::worker_count(8, 3), 3);
  EXPECT_EQ(runtime::worker_count(2, 0), 1);
  EXPECT_GE(runtime::worker_count(0, 1000), 1);
}

}  // namespace
}  // namespace dpx
