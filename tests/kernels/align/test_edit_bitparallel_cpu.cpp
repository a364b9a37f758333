// The bit-parallel distance (edit_distance_cpu without CIGARs) against the DP (the CIGAR path's
// distance, cell by cell) and the definition, at the word boundaries and over byte alphabets.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "align/edit/edit_bitparallel_cpu.h"
#include "distance_reference.h"
#include "dpx/align_distance.h"
#include "test_util.h"

namespace {

using dpx::EditOptions;
using dpx::EditResult;
using dpx::Pairing;
using dpx::SequenceBatch;

std::vector<std::int64_t> distances(const SequenceBatch& q, const SequenceBatch& t, bool via_dp) {
  EditOptions options;
  options.cigar = via_dp;
  std::vector<EditResult> r;
  const dpx::Status s = dpx::edit_distance_cpu(q, t, Pairing::kPairwise, options, &r);
  EXPECT_TRUE(s.is_ok()) << s.message();
  std::vector<std::int64_t> d;
  for (const EditResult& e : r) d.push_back(e.distance);
  return d;
}

TEST(EditBitParallelCpu, EqualsDpAtWordBoundariesOverManyAlphabets) {
  auto rng = dpx::test::seeded_rng();
  for (int alphabet : {1, 2, 4, 20, 64, 256}) {
    SequenceBatch q, t;
    for (std::size_t n : dpx::test::kWordBoundaryLengths) {
      for (std::size_t m : dpx::test::kWordBoundaryLengths) {
        const std::string a = dpx::test::random_byte_letters(rng, n, alphabet);
        std::string b = dpx::test::random_byte_letters(rng, m, alphabet);
        if (n == m && n > 0 && alphabet > 1) b = a, b[n / 2] = a[0] == b[n / 2] ? a[n / 2] : a[0];  // near-equal
        q.add(a);
        t.add(b);
      }
    }
    const auto bits = distances(q, t, false), dp = distances(q, t, true);
    ASSERT_EQ(bits.size(), dp.size());
    for (std::size_t p = 0; p < dp.size(); ++p) {
      EXPECT_EQ(bits[p], dp[p]) << "alphabet " << alphabet << " pair " << p << " (" << q.length(p) << "x"
                                << t.length(p) << ")";
    }
  }
}

TEST(EditBitParallelCpu, RelatedPairsEqualTheDefinition) {
  auto rng = dpx::test::seeded_rng();
  for (int alphabet : {2, 4, 26}) {
    const auto p = dpx::test::random_sequence_pairs(rng, {1, 63, 64, 65, 129, 300}, alphabet);
    const auto bits = distances(p.queries, p.targets, false);
    for (std::size_t i = 0; i < bits.size(); ++i) {
      EXPECT_EQ(bits[i], dpx::test::brute_edit_distance(p.queries.view(i), p.targets.view(i))) << "pair " << i;
    }
  }
}

TEST(EditBitParallelCpu, SymmetricAndReusesItsWorkspace) {
  auto rng = dpx::test::seeded_rng();
  dpx::align::BitParallelWorkspace ws;
  for (int round = 0; round < 50; ++round) {
    std::uniform_int_distribution<std::size_t> len(0, 200);
    const std::string a = dpx::test::random_byte_letters(rng, len(rng), 256);
    const std::string b = dpx::test::random_byte_letters(rng, len(rng), 256);
    const std::int64_t expected = dpx::test::brute_edit_distance(a, b);
    EXPECT_EQ(dpx::align::edit_distance_bitparallel(a, b, &ws), expected) << "round " << round;
    EXPECT_EQ(dpx::align::edit_distance_bitparallel(b, a, &ws), expected) << "round " << round;
  }
}

TEST(EditBitParallelCpu, LongPairOfManyWords) {
  auto rng = dpx::test::seeded_rng();
  const std::string a = dpx::test::random_letters(rng, 5000, 4);
  const std::string b = dpx::test::mutate(rng, a, 0.2, 4);
  SequenceBatch q, t;
  q.add(a);
  t.add(b);
  EXPECT_EQ(distances(q, t, false), distances(q, t, true));
}

}  // namespace
