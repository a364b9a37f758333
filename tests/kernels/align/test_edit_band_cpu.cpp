// The banded CIGAR (edit_distance_cpu with CIGARs) against the full DP, byte for byte: lengths
// around the word sizes, related and unrelated pairs, identical strings (d = 0) and disjoint
// alphabets (d = max(n, m)).
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "align/edit/edit_band.cuh"
#include "align/edit/edit_bitparallel_cpu.h"
#include "align/edit/edit_cigar_cpu.h"
#include "distance_reference.h"
#include "test_util.h"

namespace {

using dpx::SequenceBatch;

const std::vector<std::size_t> kLengths = {0, 1, 31, 32, 33, 63, 64, 65, 1000};

// Runs both forms on every pair; returns the number of pairs compared.
std::size_t expect_banded_equals_full(const SequenceBatch& queries, const SequenceBatch& targets) {
  dpx::align::BitParallelWorkspace bits;
  dpx::align::CigarWorkspace ws;
  std::size_t compared = 0;
  for (std::size_t p = 0; p < queries.size(); ++p) {
    const std::string_view q = queries.view(p), t = targets.view(p);
    const auto n = static_cast<std::int64_t>(q.size()), m = static_cast<std::int64_t>(t.size());
    std::string full, banded;
    const std::int64_t d_full = dpx::align::edit_cigar_full(q.data(), n, t.data(), m, &ws, &full);
    const std::int64_t d = dpx::align::edit_distance_bitparallel(q, t, &bits);
    const std::int64_t d_banded = dpx::align::edit_cigar_banded(q.data(), n, t.data(), m, d, &ws, &banded);
    EXPECT_EQ(d_banded, d_full) << "pair " << p << " (" << n << "x" << m << ")";
    EXPECT_EQ(banded, full) << "pair " << p << " (" << n << "x" << m << "), d " << d_full;
    ++compared;
  }
  return compared;
}

TEST(EditBandCpu, BandIsTheDiagonalsOfOptimalPaths) {
  // n = m = 10, d = 4: |k| + |0 - k| <= 4 -> k in [-2, 2].
  const dpx::align::EditBand b = dpx::align::edit_band(10, 10, 4);
  EXPECT_EQ(b.lo, -2);
  EXPECT_EQ(b.width, 5);
  // n = 3, m = 8, d = 6 (delta 5): k in [ceil(-1/2), floor(11/2)] = [0, 5].
  const dpx::align::EditBand c = dpx::align::edit_band(3, 8, 6);
  EXPECT_EQ(c.lo, 0);
  EXPECT_EQ(c.width, 6);
  // n = 8, m = 3, d = 5 (delta -5): k in [-5, 0].
  const dpx::align::EditBand e = dpx::align::edit_band(8, 3, 5);
  EXPECT_EQ(e.lo, -5);
  EXPECT_EQ(e.width, 6);
}

TEST(EditBandCpu, RandomPairsGiveTheFullDpCigar) {
  auto rng = dpx::test::seeded_rng();
  for (int alphabet : {2, 4, 26}) {
    const auto p = dpx::test::random_sequence_pairs(rng, kLengths, alphabet);
    EXPECT_EQ(expect_banded_equals_full(p.queries, p.targets), kLengths.size() * kLengths.size());
  }
}

TEST(EditBandCpu, IdenticalAndDisjointStrings) {
  auto rng = dpx::test::seeded_rng();
  SequenceBatch q, t;
  for (std::size_t n : kLengths) {
    const std::string s = dpx::test::random_letters(rng, n, 4);
    q.add(s);
    t.add(s);  // d = 0: the band is the main diagonal alone
    for (std::size_t m : kLengths) {
      std::string a(n, 'a'), b(m, 'b');  // d = max(n, m)
      for (auto& c : a) c = static_cast<char>('a' + rng() % 4);
      for (auto& c : b) c = static_cast<char>('A' + rng() % 4);
      q.add(a);
      t.add(b);
    }
  }
  expect_banded_equals_full(q, t);
}

}  // namespace
