// The edit-distance kernels' device code run on simulated groups (see sim_group.h): the packed
// u16x2 and 32-bit score cells and the direction-recording cell with its traceback, for several
// group sizes and rows per lane, against the definition and the CPU implementation.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "align/common/cigar.h"
#include "align/edit/edit_cells.cuh"
#include "distance_reference.h"
#include "dpx/align_distance.h"
#include "sim_group.h"
#include "test_util.h"

namespace {

using dpx::Pairing;
using dpx::SequenceBatch;
using dpx::align::EditScoreFactory;
using dpx::align::PackedU16x2;
using dpx::align::WideU32;
using dpx::test::kPoisonResult;

template <int G, int R, class Ops, class L>
std::vector<std::int64_t> simulate_scores(const SequenceBatch& q, const SequenceBatch& t, Pairing pairing,
                                          std::int64_t declared_max, std::int64_t live_above = -1, int members = 1) {
  std::vector<std::int64_t> out(dpx::pair_count(q.size(), t.size(), pairing), kPoisonResult);
  EditScoreFactory<Ops, L> f;
  f.batch = dpx::test::host_view(q, t, pairing);
  f.live_above = live_above;
  f.live_up_to = declared_max;
  f.max_length = declared_max;
  f.report_rejected = true;
  f.out = out.data();
  dpx::test::simulate<G, R>(f, members, static_cast<int>(declared_max));
  return out;
}

template <int G, int R, class Ops, class L>
void expect_scores_match_definition(std::uint64_t salt, int members = 1) {
  auto rng = dpx::test::seeded_rng();
  rng.seed(rng() ^ salt);
  const auto p = dpx::test::random_sequence_pairs(rng, {0, 1, 2, 17, 31, 32, 33, 70}, 4);
  const auto longest = static_cast<std::int64_t>(std::max(p.queries.max_length(), p.targets.max_length()));
  const auto got = simulate_scores<G, R, Ops, L>(p.queries, p.targets, Pairing::kPairwise, longest, -1, members);
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i], dpx::test::brute_edit_distance(p.queries.view(i), p.targets.view(i)))
        << "pair " << i << " " << p.queries.length(i) << "x" << p.targets.length(i) << " G=" << G << " R=" << R
        << " members=" << members;
  }
}

TEST(EditWavefront, PackedLanesMatchDefinition) {
  expect_scores_match_definition<8, 2, dpx::ops::Dpx, PackedU16x2>(1);
  expect_scores_match_definition<4, 5, dpx::ops::Dpx, PackedU16x2>(2);   // rows not a power of two
  expect_scores_match_definition<16, 16, dpx::ops::Dpx, PackedU16x2>(3);  // the kernel's shape
}

TEST(EditWavefront, GroupsSharingEachPairMatchDefinition) {
  expect_scores_match_definition<4, 2, dpx::ops::Dpx, PackedU16x2>(7, 2);
  expect_scores_match_definition<4, 3, dpx::ops::Dpx, WideU32>(8, 3);
  expect_scores_match_definition<8, 2, dpx::ops::Dpx, PackedU16x2>(9, 5);  // more members than some pairs have strips
}

TEST(EditWavefront, PlainPolicyGivesTheSameScores) {
  expect_scores_match_definition<8, 3, dpx::ops::PlainOps, PackedU16x2>(4);
}

TEST(EditWavefront, WideLanesMatchDefinition) {
  expect_scores_match_definition<8, 2, dpx::ops::Dpx, WideU32>(5);
  expect_scores_match_definition<32, 16, dpx::ops::Dpx, WideU32>(6);
}

TEST(EditWavefront, OneToManyAndOddPairCount) {
  auto rng = dpx::test::seeded_rng();
  SequenceBatch one, targets;
  const std::string query = dpx::test::random_letters(rng, 45, 4);
  one.add(query);
  for (std::size_t m : {3, 45, 0, 90, 44}) targets.add(dpx::test::mutate(rng, query.substr(0, m), 0.2, 4));
  const auto got = simulate_scores<8, 2, dpx::ops::Dpx, PackedU16x2>(one, targets, Pairing::kOneToMany, 200);
  ASSERT_EQ(got.size(), targets.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i], dpx::test::brute_edit_distance(query, targets.view(i))) << "target " << i;
  }
}

TEST(EditWavefront, PairsOverTheDeclaredLengthAreMarkedInvalid) {
  SequenceBatch q, t;
  q.add("ACGTACGT");
  t.add("ACGTTCGT");
  q.add(std::string(40, 'A'));  // over the declared 20
  t.add("A");
  q.add("GG");
  t.add(std::string(21, 'G'));  // over as well
  q.add("");
  t.add("TTT");
  const auto got = simulate_scores<8, 2, dpx::ops::Dpx, PackedU16x2>(q, t, Pairing::kPairwise, 20);
  EXPECT_EQ(got, (std::vector<std::int64_t>{1, dpx::kDistanceInvalid, dpx::kDistanceInvalid, 3}));
}

TEST(EditWavefront, SplitBetweenPackedAndWideLaunchesCoversEveryPairOnce) {
  auto rng = dpx::test::seeded_rng();
  const auto p = dpx::test::random_sequence_pairs(rng, {0, 5, 30, 61}, 4);
  // Pairs longer than 30 go to the wide launch, as pairs over kEditPackedMaxLength do.
  std::vector<std::int64_t> out(p.queries.size(), kPoisonResult);
  EditScoreFactory<dpx::ops::Dpx, PackedU16x2> packed;
  packed.batch = dpx::test::host_view(p.queries, p.targets, Pairing::kPairwise);
  packed.live_up_to = 30;
  packed.max_length = 100;
  packed.report_rejected = true;
  packed.out = out.data();
  dpx::test::simulate_group<8, 2>(packed, 100);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const bool is_long = std::max(p.queries.length(i), p.targets.length(i)) > 30;
    EXPECT_EQ(out[i] == kPoisonResult, is_long) << "pair " << i;
  }
  EditScoreFactory<dpx::ops::Dpx, WideU32> wide;
  wide.batch = packed.batch;
  wide.live_above = 30;
  wide.live_up_to = 100;
  wide.max_length = 100;
  wide.out = out.data();
  dpx::test::simulate_group<8, 2>(wide, 100);
  for (std::size_t i = 0; i < out.size(); ++i) {
    EXPECT_EQ(out[i], dpx::test::brute_edit_distance(p.queries.view(i), p.targets.view(i))) << "pair " << i;
  }
}

// Directions recorded by the wavefront in its striped order, walked back on the host: the CIGARs
// must be exactly the CPU implementation's.
template <int G>
void expect_trace_matches_cpu(std::size_t max_len, int members = 1) {
  auto rng = dpx::test::seeded_rng();
  rng.seed(rng() ^ static_cast<std::uint64_t>(G));
  const auto p = dpx::test::random_sequence_pairs(rng, {0, 1, 15, 16, 17, max_len}, 2);
  const std::size_t pairs = p.queries.size();
  std::vector<std::uint64_t> offsets(pairs + 1, 0);
  for (std::size_t i = 0; i < pairs; ++i) {
    offsets[i + 1] = offsets[i] + dpx::align::trace_word_count(static_cast<std::int64_t>(p.queries.length(i)),
                                                               static_cast<std::int64_t>(p.targets.length(i)), G);
  }
  std::vector<std::uint32_t> words(offsets.back() + 1, 0xA5A5A5A5u);
  std::vector<std::int64_t> distances(pairs, kPoisonResult);
  dpx::align::EditTraceFactory<dpx::ops::Dpx, G> f;
  f.batch = dpx::test::host_view(p.queries, p.targets, Pairing::kPairwise);
  f.count = static_cast<std::int64_t>(pairs);
  f.word_offsets = offsets.data();
  f.words = words.data();
  f.distances = distances.data();
  dpx::test::simulate<G, dpx::align::kTraceRows>(f, members, static_cast<int>(max_len + 8));

  std::vector<dpx::EditResult> cpu;
  dpx::EditOptions with_cigar;
  with_cigar.cigar = true;
  ASSERT_TRUE(dpx::edit_distance_cpu(p.queries, p.targets, Pairing::kPairwise, with_cigar, &cpu).is_ok());
  for (std::size_t i = 0; i < pairs; ++i) {
    const auto q = p.queries.view(i), t = p.targets.view(i);
    std::vector<char> ops(q.size() + t.size() + 1);
    const dpx::align::StripedTraceDirs dirs{words.data() + offsets[i], static_cast<std::int64_t>(t.size()), G};
    const std::int64_t count = dpx::align::edit_traceback(q.data(), static_cast<std::int64_t>(q.size()), t.data(),
                                                          static_cast<std::int64_t>(t.size()), dirs, ops.data());
    const std::string cigar = dpx::align::cigar_from_reversed_ops(ops.data(), static_cast<std::size_t>(count));
    EXPECT_EQ(distances[i], cpu[i].distance) << "pair " << i;
    EXPECT_EQ(cigar, cpu[i].cigar) << "pair " << i << " " << q.size() << "x" << t.size();
    EXPECT_TRUE(dpx::test::cigar_is_valid(cigar, q, t, cpu[i].distance)) << "pair " << i;
  }
}

TEST(EditWavefront, TracebackFromStripedDirectionsEqualsCpuCigars) {
  expect_trace_matches_cpu<4>(150);  // several strips of 64 rows
  expect_trace_matches_cpu<8>(140);
  expect_trace_matches_cpu<4>(200, 3);  // strips shared by three groups
}

}  // namespace
