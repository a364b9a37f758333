// DTW on the CPU against the definition, hand-checked cases, bands, extremes and bad input.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "distance_reference.h"
#include "dpx/align_distance.h"
#include "test_util.h"

namespace {

using dpx::DtwOptions;
using dpx::DtwResult;
using dpx::Pairing;
using dpx::SeriesBatch;
using Series = std::vector<std::int32_t>;

std::int64_t one_pair(const Series& a, const Series& b, int band = -1) {
  SeriesBatch ba, bb;
  ba.add(a.data(), a.size());
  bb.add(b.data(), b.size());
  std::vector<DtwResult> out;
  DtwOptions options;
  options.band = band;
  const dpx::Status s = dpx::dtw_cpu(ba, bb, Pairing::kPairwise, options, &out);
  EXPECT_TRUE(s.is_ok()) << s.message();
  return out.empty() ? -2 : out[0].cost;
}

TEST(DtwCpu, HandCheckedCosts) {
  EXPECT_EQ(one_pair({1, 2, 3}, {1, 2, 3}), 0);
  EXPECT_EQ(one_pair({1, 2, 3}, {1, 1, 2, 2, 3, 3}), 0);  // warping absorbs repeats
  EXPECT_EQ(one_pair({0, 0, 0}, {1, 1, 1}), 3);
  EXPECT_EQ(one_pair({1, 3, 4, 9}, {1, 3, 7, 8, 9}), 4);  // 1-1, 3-3, 4-7, 9-8, 9-9
  EXPECT_EQ(one_pair({5}, {1, 2, 3}), 4 + 3 + 2);
  EXPECT_EQ(one_pair({-5, 5}, {5, -5}), 20);
}

TEST(DtwCpu, EmptySeriesAndNoPathMarker) {
  EXPECT_EQ(one_pair({}, {}), 0);
  EXPECT_EQ(one_pair({}, {1, 2}), dpx::kDtwNoPath);
  EXPECT_EQ(one_pair({7}, {}), dpx::kDtwNoPath);
  EXPECT_EQ(one_pair({1, 2, 3, 4}, {1}, 2), dpx::kDtwNoPath);  // |4 - 1| > band 2
  EXPECT_EQ(one_pair({1, 2, 3, 4}, {1}, 3), 0 + 1 + 2 + 3);
}

TEST(DtwCpu, BandZeroIsTheLockstepDistance) {
  auto rng = dpx::test::seeded_rng();
  const Series a = dpx::test::random_series(rng, 50, -1000, 1000), b = dpx::test::random_series(rng, 50, -1000, 1000);
  std::int64_t lockstep = 0;
  for (std::size_t i = 0; i < a.size(); ++i) lockstep += std::abs(static_cast<std::int64_t>(a[i]) - b[i]);
  EXPECT_EQ(one_pair(a, b, 0), lockstep);
}

TEST(DtwCpu, ExtremeValuesDoNotOverflow) {
  const std::int32_t lo = std::numeric_limits<std::int32_t>::min(), hi = std::numeric_limits<std::int32_t>::max();
  const std::int64_t span = static_cast<std::int64_t>(hi) - lo;  // 2^32 - 1
  EXPECT_EQ(one_pair({lo}, {hi}), span);
  EXPECT_EQ(one_pair({lo, lo, lo}, {hi, hi, hi}), 3 * span);
  Series a(2000, lo), b(3000, hi);
  EXPECT_EQ(one_pair(a, b), 3000 * span);  // the shortest path has max(n, m) cells
}

TEST(DtwCpu, MatchesDefinitionOnRandomPairs) {
  auto rng = dpx::test::seeded_rng();
  SeriesBatch a, b;
  std::vector<Series> as, bs;
  const std::size_t lengths[] = {0, 1, 2, 31, 32, 33, 120};
  for (std::size_t n : lengths)
    for (std::size_t m : lengths) {
      const std::int32_t range = (n * 7 + m) % 3 == 0 ? 2000000000 : 100;
      as.push_back(dpx::test::random_series(rng, n, -range, range));
      bs.push_back(dpx::test::random_series(rng, m, -range, range));
      a.add(as.back().data(), n);
      b.add(bs.back().data(), m);
    }
  for (int band : {-1, 0, 1, 5, 40}) {
    std::vector<DtwResult> out;
    DtwOptions options;
    options.band = band;
    ASSERT_TRUE(dpx::dtw_cpu(a, b, Pairing::kPairwise, options, &out, 3).is_ok());
    ASSERT_EQ(out.size(), as.size());
    for (std::size_t i = 0; i < as.size(); ++i) {
      EXPECT_EQ(out[i].cost, dpx::test::brute_dtw(as[i], bs[i], band))
          << "pair " << i << " " << as[i].size() << "x" << bs[i].size() << " band " << band;
    }
  }
}

TEST(DtwCpu, OneToMany) {
  auto rng = dpx::test::seeded_rng();
  const Series a = dpx::test::random_series(rng, 77, -50, 50);
  SeriesBatch one, targets;
  one.add(a.data(), a.size());
  std::vector<Series> bs;
  for (std::size_t m : {0, 1, 60, 77, 90}) {
    bs.push_back(dpx::test::random_series(rng, m, -50, 50));
    targets.add(bs.back().data(), m);
  }
  std::vector<DtwResult> out;
  ASSERT_TRUE(dpx::dtw_cpu(one, targets, Pairing::kOneToMany, {}, &out).is_ok());
  ASSERT_EQ(out.size(), bs.size());
  for (std::size_t i = 0; i < bs.size(); ++i) EXPECT_EQ(out[i].cost, dpx::test::brute_dtw(a, bs[i], -1));
}

TEST(DtwCpu, BadInputIsRefusedWithAMessage) {
  SeriesBatch one, two;
  const std::int32_t v[] = {1, 2};
  one.add(v, 2);
  two.add(v, 1);
  two.add(v, 2);
  std::vector<DtwResult> out;
  EXPECT_EQ(dpx::dtw_cpu(one, two, Pairing::kPairwise, {}, &out).code(), dpx::StatusCode::kInvalidArgument);
  EXPECT_EQ(dpx::dtw_cpu(two, two, Pairing::kOneToMany, {}, &out).code(), dpx::StatusCode::kInvalidArgument);
  EXPECT_EQ(dpx::dtw_cpu(one, one, Pairing::kPairwise, {}, nullptr).code(), dpx::StatusCode::kInvalidArgument);
  DtwOptions bad_band;
  bad_band.band = -2;
  const dpx::Status s = dpx::dtw_cpu(one, one, Pairing::kPairwise, bad_band, &out);
  EXPECT_EQ(s.code(), dpx::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("band"), std::string::npos) << s.message();
  SeriesBatch too_long;
  const Series big(dpx::kAlignDistanceMaxLength + 1, 3);
  too_long.add(big.data(), big.size());
  EXPECT_EQ(dpx::dtw_cpu(too_long, one, Pairing::kPairwise, {}, &out).code(), dpx::StatusCode::kInvalidArgument);
}

}  // namespace
