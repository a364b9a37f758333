// The host-batch calls (align_cuda, edit_distance_cuda, dtw_cuda, dtw_float_cuda) when the GPU
// fails: with fault injection each CUDA allocation, copy and launch of a call fails in turn, and
// every such call returns that error (out of memory for an allocation), align_cuda (every mode, both
// pairings) and the DTW calls with their output as it was (edit_distance_cuda writes its results
// in place); once N passes the last such call, the output is the CPU's. Skipped where no CUDA
// device is.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "align_reference.h"
#include "distance_reference.h"
#include "dpx/align.h"
#include "dpx/align_distance.h"
#include "dpx/fault_injection.h"
#include "test_util.h"

namespace dpx {
namespace {

// Runs call(&out) from `poison` with the Nth call of each kind failing, N = 1, 2, ... until the
// call succeeds; `text` turns an output into something EXPECT_EQ can compare; `kept`: a failed
// call leaves the output as it was.
template <typename Out>
void expect_each_failure_clean(const Out& cpu, const Out& poison, bool kept,
                               const std::function<Status(Out*)>& call,
                               const std::function<std::string(const Out&)>& text) {
  const struct {
    const char* kind;
    StatusCode code;
  } kinds[] = {{"alloc", StatusCode::kOutOfMemory},
               {"copy", StatusCode::kCudaError},
               {"launch", StatusCode::kCudaError}};
  for (const auto& k : kinds) {
    int failed = 0;
    bool passed_the_last = false;
    for (int n = 1; n <= 200 && !passed_the_last; ++n) {
      const std::string setting = std::string(k.kind) + ":" + std::to_string(n);
      Out out = poison;
      set_fault_injection(setting.c_str());
      const Status s = call(&out);
      set_fault_injection(nullptr);
      passed_the_last = s.is_ok();
      if (passed_the_last) {
        EXPECT_EQ(text(out), text(cpu)) << setting;
        break;
      }
      ++failed;
      EXPECT_EQ(s.code(), k.code) << setting << ": " << s.message();
      if (kept) {
        EXPECT_EQ(text(out), text(poison)) << setting << ": the output changed";
      }
    }
    EXPECT_TRUE(passed_the_last) << k.kind;
    EXPECT_GT(failed, 0) << k.kind << ": no call of this kind failed";
  }
}

template <typename T, typename Show>
std::string join(const std::vector<T>& v, const Show& show) {
  std::string s = std::to_string(v.size()) + ":";
  for (const T& x : v) s += " " + show(x);
  return s;
}

TEST(HostBatchFaults, AlignCuda) {
  DPX_REQUIRE_GPU();
  auto rng = test::seeded_rng();
  const ScoreMatrix m = test::builtin_matrix("blosum62");
  SequenceBatch q, t;
  for (int k = 0; k < 24; ++k) {
    q.add(test::random_sequence(rng, 20 + 37 * k, m.letters()));
    t.add(test::random_sequence(rng, k % 5 == 0 ? 0 : 40 + 23 * k, m.letters()));
  }
  SequenceBatch one;
  one.add(test::random_sequence(rng, 150, m.letters()));
  // every mode's kernels: the pairwise shapes, and the paired-table ones of one query against many
  for (AlignMode mode : {AlignMode::kLocal, AlignMode::kGlobal, AlignMode::kSemiGlobal}) {
    for (Pairing pairing : {Pairing::kPairwise, Pairing::kOneToMany}) {
      for (bool traceback : {false, true}) {
        SCOPED_TRACE(std::string(align_mode_name(mode)) +
                     (pairing == Pairing::kPairwise ? " pairwise" : " one to many") +
                     (traceback ? " traceback" : " score only"));
        const SequenceBatch& queries = pairing == Pairing::kPairwise ? q : one;
        const AlignOptions o = test::align_options(mode, 11, 1, traceback);
        std::vector<AlignResult> cpu;
        ASSERT_TRUE(align_cpu(queries, t, pairing, m, o, &cpu).is_ok());
        expect_each_failure_clean<std::vector<AlignResult>>(
            cpu, {AlignResult{-777, -7, -7, -7, -7, "poison"}}, true,
            [&](std::vector<AlignResult>* out) {
              return align_cuda(queries, t, pairing, m, o, out, nullptr);
            },
            [](const std::vector<AlignResult>& v) {
              return join(v, [](const AlignResult& r) { return test::describe(r); });
            });
      }
    }
  }
}

TEST(HostBatchFaults, EditDistanceCuda) {
  DPX_REQUIRE_GPU();
  auto rng = test::seeded_rng();
  const auto p = test::random_sequence_pairs(rng, {0, 1, 33, 300, 1000}, 4);
  for (bool cigar : {false, true}) {
    SCOPED_TRACE(cigar ? "CIGAR" : "distance");
    EditOptions o;
    o.cigar = cigar;
    std::vector<EditResult> cpu;
    ASSERT_TRUE(edit_distance_cpu(p.queries, p.targets, Pairing::kPairwise, o, &cpu).is_ok());
    expect_each_failure_clean<std::vector<EditResult>>(
        cpu, {EditResult{-7, "poison"}}, false,
        [&](std::vector<EditResult>* out) {
          return edit_distance_cuda(p.queries, p.targets, Pairing::kPairwise, o, out, nullptr);
        },
        [](const std::vector<EditResult>& v) {
          return join(v, [](const EditResult& r) { return std::to_string(r.distance) + "/" + r.cigar; });
        });
  }
}

TEST(HostBatchFaults, DtwCuda) {
  DPX_REQUIRE_GPU();
  auto rng = test::seeded_rng();
  SeriesBatch a, b;
  for (std::size_t n : {0, 1, 40, 300, 1100}) {
    const std::vector<std::int32_t> x = test::random_series(rng, n, -100, 100);
    const std::vector<std::int32_t> y = test::random_series(rng, n + 17, -100, 100);
    a.add(x.data(), x.size());
    b.add(y.data(), y.size());
  }
  const DtwOptions o;
  std::vector<DtwResult> cpu;
  ASSERT_TRUE(dtw_cpu(a, b, Pairing::kPairwise, o, &cpu).is_ok());
  expect_each_failure_clean<std::vector<DtwResult>>(
      cpu, {DtwResult{-7}}, true,
      [&](std::vector<DtwResult>* out) { return dtw_cuda(a, b, Pairing::kPairwise, o, out, nullptr); },
      [](const std::vector<DtwResult>& v) {
        return join(v, [](const DtwResult& r) { return std::to_string(r.cost); });
      });
}

TEST(HostBatchFaults, DtwFloatCuda) {
  DPX_REQUIRE_GPU();
  auto rng = test::seeded_rng();
  std::uniform_real_distribution<float> value(-50.0f, 50.0f);
  FloatSeriesBatch a, b;
  for (std::size_t n : {1, 40, 300, 900}) {
    std::vector<float> x(n), y(n + 9);
    for (float& v : x) v = value(rng);
    for (float& v : y) v = value(rng);
    a.add(x.data(), x.size());
    b.add(y.data(), y.size());
  }
  const DtwFloatOptions o;
  std::vector<float> cpu;
  ASSERT_TRUE(dtw_float_cpu(a, b, Pairing::kPairwise, o, &cpu).is_ok());
  expect_each_failure_clean<std::vector<float>>(
      cpu, {-7.0f}, true,
      [&](std::vector<float>* out) { return dtw_float_cuda(a, b, Pairing::kPairwise, o, out, nullptr); },
      [](const std::vector<float>& v) {
        return join(v, [](float c) {
          std::uint32_t bits = 0;
          std::memcpy(&bits, &c, sizeof bits);
          return std::to_string(bits);
        });
      });
}

}  // namespace
}  // namespace dpx
