// The DTW kernels' device code run on simulated groups (see sim_group.h): 32- and 64-bit cells,
// the split of pairs between them, bands, against the definition.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "align/dtw/dtw_cells.cuh"
#include "distance_reference.h"
#include "dpx/align_distance.h"
#include "sim_group.h"
#include "test_util.h"

namespace {

using dpx::Pairing;
using dpx::SeriesBatch;
using dpx::test::kPoisonResult;
using Series = std::vector<std::int32_t>;

struct SeriesPairs {
  SeriesBatch a, b;
  std::vector<Series> as, bs;
  void add(Series x, Series y) {
    a.add(x.data(), x.size());
    b.add(y.data(), y.size());
    as.push_back(std::move(x));
    bs.push_back(std::move(y));
  }
};

// Lengths crossing the strip edges; every third pair with values wide enough to need 64 bits.
SeriesPairs random_pairs(std::mt19937_64& rng) {
  SeriesPairs p;
  const std::size_t lengths[] = {0, 1, 2, 15, 16, 17, 45};
  int k = 0;
  for (std::size_t n : lengths)
    for (std::size_t m : lengths) {
      const std::int32_t range = ++k % 3 == 0 ? 2000000000 : 1000;
      p.add(dpx::test::random_series(rng, n, -range, range), dpx::test::random_series(rng, m, -range, range));
    }
  return p;
}

// Runs one width's launch; returns which pairs it wrote.
template <int G, int R, class Ops, typename V, bool kBanded>
std::vector<std::int64_t> simulate(const SeriesPairs& p, int band, std::int64_t declared_max, std::vector<std::int64_t> out,
                                   int members = 1) {
  dpx::align::DtwFactory<Ops, V, kBanded> f;
  f.batch = dpx::test::host_view(p.a, p.b, Pairing::kPairwise);
  f.band = band;
  f.max_length = declared_max;
  f.report_rejected = sizeof(V) == 4;
  f.out = out.data();
  dpx::test::simulate<G, R>(f, members, static_cast<int>(declared_max));
  return out;
}

template <int G, int R, class Ops, bool kBanded>
void expect_matches_definition(const SeriesPairs& p, int band, int members = 1) {
  std::vector<std::int64_t> out(p.as.size(), kPoisonResult);
  out = simulate<G, R, Ops, std::int32_t, kBanded>(p, band, 100, out, members);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const bool empty = p.as[i].empty() || p.bs[i].empty();
    std::int32_t lo = INT32_MAX, hi = INT32_MIN;
    for (auto v : p.as[i]) lo = std::min(lo, v), hi = std::max(hi, v);
    for (auto v : p.bs[i]) lo = std::min(lo, v), hi = std::max(hi, v);
    const bool wide = !empty && dpx::align::dtw_needs_wide(static_cast<std::int64_t>(hi) - lo,
                                                            static_cast<std::int64_t>(p.as[i].size()),
                                                            static_cast<std::int64_t>(p.bs[i].size()));
    EXPECT_EQ(out[i] == kPoisonResult, wide) << "32-bit launch and pair " << i;
  }
  out = simulate<G, R, Ops, std::int64_t, kBanded>(p, band, 100, out, members);
  for (std::size_t i = 0; i < out.size(); ++i) {
    EXPECT_EQ(out[i], dpx::test::brute_dtw(p.as[i], p.bs[i], band))
        << "pair " << i << " " << p.as[i].size() << "x" << p.bs[i].size() << " band " << band << " G=" << G;
  }
}

TEST(DtwWavefront, BothWidthsMatchDefinition) {
  auto rng = dpx::test::seeded_rng();
  const SeriesPairs p = random_pairs(rng);
  expect_matches_definition<8, 2, dpx::ops::Dpx, false>(p, -1);
  expect_matches_definition<4, 3, dpx::ops::PlainOps, false>(p, -1);
  expect_matches_definition<16, 16, dpx::ops::Dpx, false>(p, -1);
}

TEST(DtwWavefront, GroupsSharingEachPairMatchDefinition) {
  auto rng = dpx::test::seeded_rng();
  const SeriesPairs p = random_pairs(rng);
  expect_matches_definition<4, 2, dpx::ops::Dpx, false>(p, -1, 3);
  expect_matches_definition<4, 2, dpx::ops::Dpx, true>(p, 5, 2);
}

TEST(DtwWavefront, BandsMatchDefinition) {
  auto rng = dpx::test::seeded_rng();
  const SeriesPairs p = random_pairs(rng);
  for (int band : {0, 1, 7, 30}) expect_matches_definition<8, 2, dpx::ops::Dpx, true>(p, band);
}

TEST(DtwWavefront, PairsOverTheDeclaredLengthAreMarkedInvalid) {
  SeriesPairs p;
  p.add({1, 2, 3}, {1, 2, 4});
  p.add(Series(30, 5), {5});
  p.add({}, {});
  std::vector<std::int64_t> out(3, kPoisonResult);
  out = simulate<8, 2, dpx::ops::Dpx, std::int32_t, false>(p, -1, 20, out);
  out = simulate<8, 2, dpx::ops::Dpx, std::int64_t, false>(p, -1, 20, out);
  EXPECT_EQ(out, (std::vector<std::int64_t>{1, dpx::kDistanceInvalid, 0}));
}

}  // namespace
