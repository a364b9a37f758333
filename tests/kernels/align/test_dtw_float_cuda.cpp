// Float DTW on CUDA against the CPU, bit for bit: lengths around every register class (4 .. 32
// rows per lane) and past it (strip wavefront), bands, both costs, one-to-many, the asynchronous
// form with poisoned outputs and over-declared lengths.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "dpx/align_distance.h"
#include "dpx/device.h"
#include "test_util.h"

#if DPX_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace {

using dpx::DtwCost;
using dpx::DtwFloatOptions;
using dpx::FloatSeriesBatch;
using dpx::Pairing;

void add_random(std::mt19937_64& rng, std::size_t n, FloatSeriesBatch* batch) {
  std::uniform_real_distribution<float> v(-50.0f, 50.0f);
  std::vector<float> s(n);
  for (auto& x : s) x = v(rng);
  batch->add(s.data(), s.size());
}

void expect_gpu_equals_cpu(const FloatSeriesBatch& a, const FloatSeriesBatch& b, Pairing pairing,
                           const DtwFloatOptions& options) {
  dpx::Stream stream;
  ASSERT_TRUE(stream.create().is_ok());
  std::vector<float> cpu, gpu;
  ASSERT_TRUE(dpx::dtw_float_cpu(a, b, pairing, options, &cpu).is_ok());
  const dpx::Status s = dpx::dtw_float_cuda(a, b, pairing, options, &gpu, stream.get());
  ASSERT_TRUE(s.is_ok()) << s.message();
  ASSERT_EQ(gpu.size(), cpu.size());
  int reported = 0;
  for (std::size_t i = 0; i < cpu.size() && reported < 10; ++i) {
    if (std::memcmp(&gpu[i], &cpu[i], sizeof(float)) != 0) {
      ++reported;
      ADD_FAILURE() << "pair " << i << " band " << options.band << " squared "
                    << (options.cost == DtwCost::kSquared) << ": gpu " << gpu[i] << ", cpu " << cpu[i];
    }
  }
}

TEST(DtwFloatCuda, EveryClassAndBandEqualsCpu) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  const std::vector<std::size_t> lengths = {0, 1, 31, 127, 128, 129, 256, 257, 512, 513, 1023, 1024, 1025, 1500};
  FloatSeriesBatch a, b;
  for (std::size_t n : lengths)
    for (std::size_t m : lengths) {
      add_random(rng, n, &a);
      add_random(rng, m, &b);
    }
  for (DtwCost cost : {DtwCost::kAbsolute, DtwCost::kSquared}) {
    for (int band : {-1, 0, 10, 600}) {
      DtwFloatOptions options;
      options.cost = cost;
      options.band = band;
      expect_gpu_equals_cpu(a, b, Pairing::kPairwise, options);
    }
  }
}

TEST(DtwFloatCuda, OneQueryAgainstManySeries) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  FloatSeriesBatch q, many;
  add_random(rng, 1023, &q);
  for (int k = 0; k < 700; ++k) add_random(rng, k % 7 == 0 ? 2000 : 1023, &many);
  DtwFloatOptions options;
  options.cost = DtwCost::kSquared;
  expect_gpu_equals_cpu(q, many, Pairing::kOneToMany, options);
}

// Infinities and NaNs in the series: the kernels' minimum works on bit patterns and the register
// sweep computes cells outside each lane's columns, so both must still act as fmin over the
// definition's cells. NaN costs compare as "both NaN" (the payload is the platform's).
TEST(DtwFloatCuda, NonFiniteValuesEqualCpu) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  const float specials[] = {std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::quiet_NaN()};
  std::uniform_int_distribution<int> pick(0, 3);
  FloatSeriesBatch a, b;
  for (std::size_t n : {1, 2, 31, 33, 129, 700, 1023, 1300}) {
    for (std::size_t m : {1, 40, 1023}) {
      for (int specials_in : {1, 2, 3}) {  // in a, in b, in both
        std::uniform_real_distribution<float> v(-50.0f, 50.0f);
        std::vector<float> x(n), y(m);
        for (auto& e : x) e = v(rng);
        for (auto& e : y) e = v(rng);
        std::uniform_int_distribution<std::size_t> at_x(0, n - 1), at_y(0, m - 1);
        if (specials_in & 1) x[at_x(rng)] = specials[pick(rng)];
        if (specials_in & 2) y[at_y(rng)] = specials[pick(rng)];
        a.add(x.data(), x.size());
        b.add(y.data(), y.size());
      }
    }
  }
  dpx::Stream stream;
  ASSERT_TRUE(stream.create().is_ok());
  for (DtwCost cost : {DtwCost::kAbsolute, DtwCost::kSquared}) {
    for (int band : {-1, 5}) {
      DtwFloatOptions options;
      options.cost = cost;
      options.band = band;
      std::vector<float> cpu, gpu;
      ASSERT_TRUE(dpx::dtw_float_cpu(a, b, Pairing::kPairwise, options, &cpu).is_ok());
      ASSERT_TRUE(dpx::dtw_float_cuda(a, b, Pairing::kPairwise, options, &gpu, stream.get()).is_ok());
      ASSERT_EQ(gpu.size(), cpu.size());
      for (std::size_t i = 0; i < cpu.size(); ++i) {
        const bool same = std::isnan(cpu[i]) ? std::isnan(gpu[i]) : std::memcmp(&gpu[i], &cpu[i], sizeof(float)) == 0;
        EXPECT_TRUE(same) << "pair " << i << " (" << a.length(i) << " x " << b.length(i) << ") band " << band
                          << " squared " << (cost == DtwCost::kSquared) << ": gpu " << gpu[i] << ", cpu " << cpu[i];
      }
    }
  }
}

#if DPX_HAVE_CUDA
TEST(DtwFloatCuda, AsyncFormWritesEveryPairAndMarksOverDeclaredLengths) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  FloatSeriesBatch a, b;
  for (std::size_t n : {0, 5, 300, 900}) {
    add_random(rng, n, &a);
    add_random(rng, 400, &b);
  }
  dpx::Stream stream;
  ASSERT_TRUE(stream.create().is_ok());
  dpx::DeviceFloatSeriesBatch da, db;
  ASSERT_TRUE(da.upload(a, stream.get()).is_ok());
  ASSERT_TRUE(db.upload(b, stream.get()).is_ok());
  dpx::DeviceBuffer out;
  ASSERT_TRUE(out.allocate(a.size() * sizeof(float)).is_ok());
  ASSERT_EQ(cudaMemsetAsync(out.data(), dpx::test::kPoisonByte, a.size() * sizeof(float), stream.get()), cudaSuccess);
  const dpx::Status s = dpx::dtw_float_cuda_async(da, db, Pairing::kPairwise, {}, 500, out.as<float>(), stream.get());
  ASSERT_TRUE(s.is_ok()) << s.message();
  std::vector<float> got(a.size()), cpu;
  ASSERT_EQ(cudaMemcpyAsync(got.data(), out.data(), got.size() * sizeof(float), cudaMemcpyDeviceToHost, stream.get()),
            cudaSuccess);
  ASSERT_TRUE(stream.synchronize().is_ok());
  ASSERT_TRUE(dpx::dtw_float_cpu(a, b, Pairing::kPairwise, {}, &cpu).is_ok());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i], a.length(i) > 500 ? dpx::kDtwFloatInvalid : cpu[i]) << "pair " << i;
  }
}
#endif

}  // namespace
