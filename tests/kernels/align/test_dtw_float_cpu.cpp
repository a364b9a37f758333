// Float DTW on the CPU against a full-matrix definition (same operation order), hand-checked
// costs, agreement with the int32 DTW on integer values, bands, empty series and bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "distance_reference.h"
#include "dpx/align_distance.h"
#include "test_util.h"

namespace {

using dpx::DtwCost;
using dpx::DtwFloatOptions;
using dpx::FloatSeriesBatch;
using dpx::Pairing;
using Series = std::vector<float>;

float one_pair(const Series& a, const Series& b, DtwCost cost = DtwCost::kAbsolute, int band = -1) {
  FloatSeriesBatch ba, bb;
  ba.add(a.data(), a.size());
  bb.add(b.data(), b.size());
  std::vector<float> out;
  DtwFloatOptions options;
  options.band = band;
  options.cost = cost;
  const dpx::Status s = dpx::dtw_float_cpu(ba, bb, Pairing::kPairwise, options, &out);
  EXPECT_TRUE(s.is_ok()) << s.message();
  return out.empty() ? -2.0f : out[0];
}

TEST(DtwFloatCpu, HandCheckedCosts) {
  EXPECT_EQ(one_pair({1, 2, 3}, {1, 1, 2, 2, 3, 3}), 0.0f);
  EXPECT_EQ(one_pair({0, 0, 0}, {1, 1, 1}), 3.0f);
  EXPECT_EQ(one_pair({5}, {1, 2, 3}), 9.0f);
  EXPECT_EQ(one_pair({5}, {1, 2, 3}, DtwCost::kSquared), 16.0f + 9.0f + 4.0f);
  EXPECT_EQ(one_pair({0.5f, 1.5f}, {1.0f}, DtwCost::kSquared), 0.5f);
  EXPECT_EQ(one_pair({}, {}), 0.0f);
  EXPECT_EQ(one_pair({}, {1}), dpx::kDtwFloatNoPath);
  EXPECT_EQ(one_pair({1, 2, 3, 4}, {1}, DtwCost::kAbsolute, 2), dpx::kDtwFloatNoPath);  // |n - m| > band
  EXPECT_EQ(one_pair({1, 2, 3, 4}, {1}, DtwCost::kAbsolute, 3), 0.0f + 1 + 2 + 3);
}

// The definition: the whole matrix, the cost and step written out in the same order (the squared
// cost and the minimum in one fused multiply-add).
float brute_dtw_float(const Series& a, const Series& b, bool squared, int band) {
  const std::size_t n = a.size(), m = b.size();
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<std::vector<float>> d(n + 1, std::vector<float>(m + 1, inf));
  d[0][0] = 0.0f;
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= m; ++j) {
      const long di = static_cast<long>(i) - static_cast<long>(j);
      if (band >= 0 && std::labs(di) > band) continue;
      const float diff = a[i - 1] - b[j - 1];
      const float best = std::fmin(std::fmin(d[i - 1][j - 1], d[i][j - 1]), d[i - 1][j]);
      d[i][j] = squared ? std::fma(diff, diff, best) : std::fabs(diff) + best;
    }
  return d[n][m];
}

Series random_floats(std::mt19937_64& rng, std::size_t n) {
  std::uniform_real_distribution<float> v(-100.0f, 100.0f);
  Series s(n);
  for (auto& x : s) x = v(rng);
  return s;
}

TEST(DtwFloatCpu, MatchesDefinitionBitForBit) {
  auto rng = dpx::test::seeded_rng();
  for (DtwCost cost : {DtwCost::kAbsolute, DtwCost::kSquared}) {
    for (int band : {-1, 0, 3, 40}) {
      for (std::size_t n : {1, 2, 17, 64, 130}) {
        for (std::size_t m : {1, 5, 64, 129}) {
          const Series a = random_floats(rng, n), b = random_floats(rng, m);
          const float want = brute_dtw_float(a, b, cost == DtwCost::kSquared, band);
          EXPECT_EQ(one_pair(a, b, cost, band), want) << n << "x" << m << " band " << band;
          EXPECT_EQ(one_pair(b, a, cost, band), want) << "transposed " << n << "x" << m << " band " << band;
        }
      }
    }
  }
}

TEST(DtwFloatCpu, IntegerValuesEqualTheInt32Dtw) {
  auto rng = dpx::test::seeded_rng();
  for (int band : {-1, 7}) {
    const auto x = dpx::test::random_series(rng, 300, -1000, 1000), y = dpx::test::random_series(rng, 280, -1000, 1000);
    dpx::SeriesBatch ia, ib;
    ia.add(x.data(), x.size());
    ib.add(y.data(), y.size());
    dpx::DtwOptions io;
    io.band = band;
    std::vector<dpx::DtwResult> want;
    ASSERT_TRUE(dpx::dtw_cpu(ia, ib, Pairing::kPairwise, io, &want).is_ok());
    const float got = one_pair(Series(x.begin(), x.end()), Series(y.begin(), y.end()), DtwCost::kAbsolute, band);
    if (want[0].cost == dpx::kDtwNoPath) {
      EXPECT_EQ(got, dpx::kDtwFloatNoPath);
    } else {
      EXPECT_EQ(static_cast<std::int64_t>(got), want[0].cost) << "band " << band;
    }
  }
}

TEST(DtwFloatCpu, OneToManyEqualsPairwise) {
  auto rng = dpx::test::seeded_rng();
  const Series q = random_floats(rng, 90);
  FloatSeriesBatch one, many, repeated;
  one.add(q.data(), q.size());
  for (std::size_t k = 0; k < 20; ++k) {
    const Series t = random_floats(rng, 10 * k);
    many.add(t.data(), t.size());
    repeated.add(q.data(), q.size());
  }
  DtwFloatOptions options;
  options.cost = DtwCost::kSquared;
  std::vector<float> a, b;
  ASSERT_TRUE(dpx::dtw_float_cpu(one, many, Pairing::kOneToMany, options, &a, 3).is_ok());
  ASSERT_TRUE(dpx::dtw_float_cpu(repeated, many, Pairing::kPairwise, options, &b, 1).is_ok());
  EXPECT_EQ(a, b);
}

TEST(DtwFloatCpu, BadInputIsRefused) {
  FloatSeriesBatch a;
  const float x[] = {1.0f};
  a.add(x, 1);
  std::vector<float> out;
  DtwFloatOptions bad_band;
  bad_band.band = -2;
  EXPECT_EQ(dpx::dtw_float_cpu(a, a, Pairing::kPairwise, bad_band, &out).code(), dpx::StatusCode::kInvalidArgument);
  DtwFloatOptions bad_cost;
  bad_cost.cost = static_cast<DtwCost>(7);
  EXPECT_EQ(dpx::dtw_float_cpu(a, a, Pairing::kPairwise, bad_cost, &out).code(), dpx::StatusCode::kInvalidArgument);
  EXPECT_EQ(dpx::dtw_float_cpu(a, a, Pairing::kPairwise, {}, nullptr).code(), dpx::StatusCode::kInvalidArgument);
  FloatSeriesBatch two;
  two.add(x, 1);
  two.add(x, 1);
  EXPECT_EQ(dpx::dtw_float_cpu(two, a, Pairing::kPairwise, {}, &out).code(), dpx::StatusCode::kInvalidArgument);
}

}  // namespace
