// DTW on CUDA against the CPU implementation, bit-exact: many lengths, bands, value ranges that
// need 64-bit cells, one-to-many, the asynchronous form with poisoned outputs, bad input.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "distance_reference.h"
#include "dpx/align_distance.h"
#include "dpx/device.h"
#include "test_util.h"

#if DPX_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace {

using dpx::DtwOptions;
using dpx::DtwResult;
using dpx::Pairing;
using dpx::SeriesBatch;
using Series = std::vector<std::int32_t>;

void expect_gpu_equals_cpu(const SeriesBatch& a, const SeriesBatch& b, Pairing pairing, int band) {
  dpx::Stream stream;
  ASSERT_TRUE(stream.create().is_ok());
  DtwOptions options;
  options.band = band;
  std::vector<DtwResult> cpu, gpu(2);
  ASSERT_TRUE(dpx::dtw_cpu(a, b, pairing, options, &cpu).is_ok());
  const dpx::Status s = dpx::dtw_cuda(a, b, pairing, options, &gpu, stream.get());
  ASSERT_TRUE(s.is_ok()) << s.message();
  ASSERT_EQ(gpu.size(), cpu.size());
  int reported = 0;
  for (std::size_t i = 0; i < cpu.size() && reported < 10; ++i) {
    if (gpu[i].cost != cpu[i].cost) {
      ++reported;
      ADD_FAILURE() << "pair " << i << " band " << band << ": gpu " << gpu[i].cost << ", cpu " << cpu[i].cost;
    }
  }
}

// Every length against every length; narrow values (32-bit cells) and, every third pair, values
// spread over the whole int32 range (64-bit cells).
void add_pairs(std::mt19937_64& rng, const std::vector<std::size_t>& lengths, SeriesBatch* a, SeriesBatch* b) {
  int k = 0;
  for (std::size_t n : lengths)
    for (std::size_t m : lengths) {
      const bool wide = ++k % 3 == 0;
      const std::int32_t lo = wide ? std::numeric_limits<std::int32_t>::min() : -500;
      const std::int32_t hi = wide ? std::numeric_limits<std::int32_t>::max() : 500;
      const Series x = dpx::test::random_series(rng, n, lo, hi), y = dpx::test::random_series(rng, m, lo, hi);
      a->add(x.data(), n);
      b->add(y.data(), m);
    }
}

TEST(DtwCuda, CostsEqualCpuOnManyLengthsAndBands) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  SeriesBatch a, b;
  add_pairs(rng, {0, 1, 2, 31, 32, 33, 127, 128, 129, 1000, 1300}, &a, &b);
  for (int band : {-1, 0, 1, 16, 200}) expect_gpu_equals_cpu(a, b, Pairing::kPairwise, band);
}

TEST(DtwCuda, LongPairsEqualCpu) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  SeriesBatch a, b;
  add_pairs(rng, {10000, 7001}, &a, &b);
  expect_gpu_equals_cpu(a, b, Pairing::kPairwise, -1);
  expect_gpu_equals_cpu(a, b, Pairing::kPairwise, 3000);
}

// Values spanning the widest range that still runs in 32-bit cells (range * (n + m - 1) just below
// 2^30), extremes alternating: the register sweep's cells outside each lane's columns grow towards
// 2^31 from the infinity and must not wrap into a winning minimum.
TEST(DtwCuda, WidestNarrowRangeEqualsCpu) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  std::bernoulli_distribution high(0.5);
  SeriesBatch a, b;
  for (const auto& [n, m] : std::vector<std::pair<std::size_t, std::size_t>>{
           {2, 2}, {5, 1023}, {33, 40}, {129, 129}, {300, 2}, {700, 1023}, {1023, 1023}}) {
    const auto range = static_cast<std::int32_t>(((std::int64_t{1} << 30) - 1) / static_cast<std::int64_t>(n + m - 1));
    Series x(n), y(m);
    for (auto& v : x) v = high(rng) ? range : 0;
    for (auto& v : y) v = high(rng) ? range : 0;
    a.add(x.data(), n);
    b.add(y.data(), m);
  }
  for (int band : {-1, 0, 3}) expect_gpu_equals_cpu(a, b, Pairing::kPairwise, band);
}

TEST(DtwCuda, ExtremeValuesNeed64BitCells) {
  DPX_REQUIRE_GPU();
  const std::int32_t lo = std::numeric_limits<std::int32_t>::min(), hi = std::numeric_limits<std::int32_t>::max();
  SeriesBatch a, b;
  const Series x(2000, lo), y(3000, hi), z = {lo, hi, lo}, w = {hi};
  a.add(x.data(), x.size());
  b.add(y.data(), y.size());
  a.add(z.data(), z.size());
  b.add(w.data(), w.size());
  std::vector<DtwResult> gpu;
  dpx::Stream stream;
  ASSERT_TRUE(stream.create().is_ok());
  ASSERT_TRUE(dpx::dtw_cuda(a, b, Pairing::kPairwise, {}, &gpu, stream.get()).is_ok());
  ASSERT_EQ(gpu.size(), 2u);
  const std::int64_t span = static_cast<std::int64_t>(hi) - lo;
  EXPECT_EQ(gpu[0].cost, 3000 * span);
  EXPECT_EQ(gpu[1].cost, 2 * span);
}

// Enough pairs that the launch picks small groups (several per warp), each pair several strips.
TEST(DtwCuda, LargeBatchOfMediumPairsEqualsCpu) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  SeriesBatch a, b;
  for (int k = 0; k < 12000; ++k) {
    const Series x = dpx::test::random_series(rng, 300 + static_cast<std::size_t>(k % 40), -1000, 1000);
    const Series y = dpx::test::random_series(rng, 280 + static_cast<std::size_t>(k % 70), -1000, 1000);
    a.add(x.data(), x.size());
    b.add(y.data(), y.size());
  }
  expect_gpu_equals_cpu(a, b, Pairing::kPairwise, -1);
  expect_gpu_equals_cpu(a, b, Pairing::kPairwise, 30);
}

TEST(DtwCuda, OneToManyEqualsCpu) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  const Series q = dpx::test::random_series(rng, 900, -100, 100);
  SeriesBatch one, targets;
  one.add(q.data(), q.size());
  for (int k = 0; k < 200; ++k) {
    const Series t = dpx::test::random_series(rng, static_cast<std::size_t>(k * 11) % 1500, -100, 100);
    targets.add(t.data(), t.size());
  }
  expect_gpu_equals_cpu(one, targets, Pairing::kOneToMany, -1);
  expect_gpu_equals_cpu(one, targets, Pairing::kOneToMany, 100);
}

#if DPX_HAVE_CUDA
TEST(DtwCuda, AsyncFormWritesEveryPairAndMarksOverDeclaredLengths) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  SeriesBatch a, b;
  add_pairs(rng, {0, 5, 100, 400}, &a, &b);
  dpx::Stream stream;
  ASSERT_TRUE(stream.create().is_ok());
  dpx::DeviceSeriesBatch da, db;
  ASSERT_TRUE(da.upload(a, stream.get()).is_ok());
  ASSERT_TRUE(db.upload(b, stream.get()).is_ok());
  const std::size_t pairs = a.size();
  dpx::DeviceBuffer out;
  ASSERT_TRUE(out.allocate(pairs * sizeof(std::int64_t)).is_ok());
  ASSERT_EQ(cudaMemsetAsync(out.data(), dpx::test::kPoisonByte, pairs * sizeof(std::int64_t), stream.get()), cudaSuccess);
  const std::size_t declared = 300;  // the 400-long series exceed it
  ASSERT_TRUE(dpx::dtw_cuda_async(da, db, Pairing::kPairwise, {}, declared, out.as<std::int64_t>(), stream.get()).is_ok());
  std::vector<std::int64_t> got(pairs);
  ASSERT_EQ(cudaMemcpyAsync(got.data(), out.data(), pairs * sizeof(std::int64_t), cudaMemcpyDeviceToHost, stream.get()),
            cudaSuccess);
  ASSERT_TRUE(stream.synchronize().is_ok());
  std::vector<DtwResult> cpu;
  ASSERT_TRUE(dpx::dtw_cpu(a, b, Pairing::kPairwise, {}, &cpu).is_ok());
  for (std::size_t i = 0; i < pairs; ++i) {
    const bool over = std::max(a.length(i), b.length(i)) > declared;
    EXPECT_EQ(got[i], over ? dpx::kDistanceInvalid : cpu[i].cost) << "pair " << i;
  }
}
#endif

TEST(DtwCuda, BadInputIsRefusedBeforeAnyWork) {
  DPX_REQUIRE_GPU();
  dpx::Stream stream;
  ASSERT_TRUE(stream.create().is_ok());
  SeriesBatch one, two;
  const std::int32_t v[] = {4, 5};
  one.add(v, 2);
  two.add(v, 1);
  two.add(v, 2);
  std::vector<DtwResult> out;
  EXPECT_EQ(dpx::dtw_cuda(one, two, Pairing::kPairwise, {}, &out, stream.get()).code(), dpx::StatusCode::kInvalidArgument);
  DtwOptions bad;
  bad.band = -7;
  EXPECT_EQ(dpx::dtw_cuda(one, one, Pairing::kPairwise, bad, &out, stream.get()).code(), dpx::StatusCode::kInvalidArgument);
  dpx::DeviceSeriesBatch d1;
  ASSERT_TRUE(d1.upload(one, stream.get()).is_ok());
  dpx::DeviceBuffer buf;
  ASSERT_TRUE(buf.allocate(sizeof(std::int64_t)).is_ok());
  EXPECT_EQ(dpx::dtw_cuda_async(d1, d1, Pairing::kPairwise, bad, 2, buf.as<std::int64_t>(), stream.get()).code(),
            dpx::StatusCode::kInvalidArgument);
  EXPECT_EQ(dpx::dtw_cuda_async(d1, d1, Pairing::kPairwise, {}, 2, nullptr, stream.get()).code(),
            dpx::StatusCode::kInvalidArgument);
  EXPECT_TRUE(stream.synchronize().is_ok());
}

}  // namespace
