// Helpers shared by the test suites: seeded random data (the seed is printed so a failure can be
// repeated with DPX_TEST_SEED), poisoning, GPU availability.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace dpx {
namespace test {

// A generator seeded from DPX_TEST_SEED (default 20261129) mixed with the running test's name,
// so each test has its own stream and the printed seed repeats it exactly.
inline std::mt19937_64 seeded_rng() {
  const char* env = std::getenv("DPX_TEST_SEED");
  const std::uint64_t base = env ? std::strtoull(env, nullptr, 10) : 20261129ull;
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = info ? std::string(info->test_suite_name()) + "." + info->name() : "";
  const std::uint64_t seed = base ^ std::hash<std::string>{}(name);
  ::testing::Test::RecordProperty("seed", std::to_string(seed));
  std::printf("[   SEED   ] %s base seed %llu (DPX_TEST_SEED=%llu repeats it)\n", name.c_str(),
              static_cast<unsigned long long>(base), static_cast<unsigned long long>(base));
  return std::mt19937_64(seed);
}

template <typename T>
std::vector<T> random_vector(std::mt19937_64& rng, std::size_t n, T lo, T hi) {
  std::uniform_int_distribution<long long> dist(lo, hi);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(dist(rng));
  return v;
}

inline std::vector<std::uint8_t> random_bytes(std::mt19937_64& rng, std::size_t n) {
  return random_vector<std::uint8_t>(rng, n, 0, 255);
}

// Everything written to `f` (a std::tmpfile), read back from its start; closes it.
inline std::string rewound_text(std::FILE* f) {
  std::string text;
  std::rewind(f);
  char buf[4096];
  for (std::size_t got; (got = std::fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, got);
  std::fclose(f);
  return text;
}

constexpr std::uint8_t kPoisonByte = 0xA5;

// True when a CUDA device is usable; GPU tests start with DPX_REQUIRE_GPU().
bool gpu_available();

}  // namespace test
}  // namespace dpx

#define DPX_REQUIRE_GPU()                                                      \
  do {                                                                         \
    if (!::dpx::test::gpu_available()) GTEST_SKIP() << "no CUDA device (GPU test skipped)"; \
  } while (0)

// Tests of what happens without CUDA skip, where CUDA works, with a reason that starts with this
// text: a GPU machine's run (scripts/gpu-verify.sh) tells them from GPU tests that did not run.
#define DPX_ONLY_WITHOUT_CUDA "only where CUDA is unavailable: "
