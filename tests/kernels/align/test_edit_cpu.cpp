// Edit distance on the CPU against the definition, hand-checked cases, CIGARs and bad input.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "align/common/cigar.h"
#include "distance_reference.h"
#include "dpx/align_distance.h"
#include "test_util.h"

namespace {

using dpx::EditOptions;
using dpx::EditResult;
using dpx::Pairing;
using dpx::SequenceBatch;

std::vector<EditResult> run_cpu(const SequenceBatch& q, const SequenceBatch& t, Pairing pairing, bool cigar,
                                int threads = 0) {
  std::vector<EditResult> out;
  EditOptions options;
  options.cigar = cigar;
  const dpx::Status s = dpx::edit_distance_cpu(q, t, pairing, options, &out, threads);
  EXPECT_TRUE(s.is_ok()) << s.message();
  return out;
}

EditResult one_pair(const std::string& q, const std::string& t, bool cigar = true) {
  SequenceBatch bq, bt;
  bq.add(q);
  bt.add(t);
  auto r = run_cpu(bq, bt, Pairing::kPairwise, cigar);
  return r.empty() ? EditResult{} : r[0];
}

TEST(EditCpu, HandCheckedDistances) {
  EXPECT_EQ(one_pair("kitten", "sitting").distance, 3);
  EXPECT_EQ(one_pair("sitting", "kitten").distance, 3);
  EXPECT_EQ(one_pair("flaw", "lawn").distance, 2);
  EXPECT_EQ(one_pair("intention", "execution").distance, 5);
  EXPECT_EQ(one_pair("abc", "abc").distance, 0);
  EXPECT_EQ(one_pair("abc", "xyz").distance, 3);
  EXPECT_EQ(one_pair("a", "").distance, 1);
  EXPECT_EQ(one_pair("", "").distance, 0);
  EXPECT_EQ(one_pair("", "hello").distance, 5);
  EXPECT_EQ(one_pair("ACGT", "acgt").distance, 4);  // case-sensitive bytes
  EXPECT_EQ(one_pair(std::string("a\0b", 3), std::string("a\xff" "b", 3)).distance, 1);  // any byte is a letter
}

TEST(EditCpu, HandCheckedCigars) {
  // Ties prefer the diagonal, then 'I', then 'D', walking back from the end.
  EXPECT_EQ(one_pair("kitten", "sitting").cigar, "1X3=1X1=1D");
  EXPECT_EQ(one_pair("sitting", "kitten").cigar, "1X3=1X1=1I");
  EXPECT_EQ(one_pair("abc", "abc").cigar, "3=");
  EXPECT_EQ(one_pair("", "abc").cigar, "3D");
  EXPECT_EQ(one_pair("abc", "").cigar, "3I");
  EXPECT_EQ(one_pair("", "").cigar, "");
  EXPECT_EQ(one_pair("aXc", "ac").cigar, "1=1I1=");
  EXPECT_EQ(one_pair("ac", "aXc").cigar, "1=1D1=");
}

TEST(EditCpu, CigarRunLengthEncoding) {
  const std::string ops = "==X==IIID";
  EXPECT_EQ(dpx::align::cigar_from_ops(ops.data(), ops.size()), "2=1X2=3I1D");
  const std::string reversed(ops.rbegin(), ops.rend());
  EXPECT_EQ(dpx::align::cigar_from_reversed_ops(reversed.data(), reversed.size()), "2=1X2=3I1D");
  EXPECT_EQ(dpx::align::cigar_from_ops(nullptr, 0), "");
  const std::string long_run(1234, '=');
  EXPECT_EQ(dpx::align::cigar_from_ops(long_run.data(), long_run.size()), "1234=");
}

TEST(EditCpu, MatchesDefinitionOnRandomPairs) {
  auto rng = dpx::test::seeded_rng();
  for (int alphabet : {2, 4, 20}) {
    const auto p = dpx::test::random_sequence_pairs(rng, {0, 1, 2, 7, 31, 32, 33, 100, 257}, alphabet);
    const auto plain = run_cpu(p.queries, p.targets, Pairing::kPairwise, false);
    const auto traced = run_cpu(p.queries, p.targets, Pairing::kPairwise, true, 2);
    ASSERT_EQ(plain.size(), p.queries.size());
    ASSERT_EQ(traced.size(), p.queries.size());
    for (std::size_t i = 0; i < p.queries.size(); ++i) {
      const auto q = p.queries.view(i), t = p.targets.view(i);
      const std::int64_t want = dpx::test::brute_edit_distance(q, t);
      EXPECT_EQ(plain[i].distance, want) << "pair " << i << " lengths " << q.size() << "x" << t.size();
      EXPECT_TRUE(plain[i].cigar.empty());
      EXPECT_EQ(traced[i].distance, want) << "pair " << i;
      EXPECT_TRUE(dpx::test::cigar_is_valid(traced[i].cigar, q, t, want)) << "pair " << i;
    }
  }
}

TEST(EditCpu, OneToManyEqualsPairwiseWithTheQueryRepeated) {
  auto rng = dpx::test::seeded_rng();
  const std::string query = dpx::test::random_letters(rng, 150, 4);
  SequenceBatch one, repeated, targets;
  one.add(query);
  for (std::size_t len : {0, 1, 40, 150, 151, 300}) {
    targets.add(dpx::test::mutate(rng, query.substr(0, std::min<std::size_t>(len, query.size())), 0.2, 4));
    repeated.add(query);
  }
  const auto a = run_cpu(one, targets, Pairing::kOneToMany, true);
  const auto b = run_cpu(repeated, targets, Pairing::kPairwise, true);
  ASSERT_EQ(a.size(), targets.size());
  ASSERT_EQ(b.size(), targets.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].distance, dpx::test::brute_edit_distance(query, targets.view(i)));
    EXPECT_EQ(a[i].distance, b[i].distance);
    EXPECT_EQ(a[i].cigar, b[i].cigar);
  }
}

TEST(EditCpu, ThreadCountDoesNotChangeResults) {
  auto rng = dpx::test::seeded_rng();
  const auto p = dpx::test::random_sequence_pairs(rng, {5, 60, 200}, 4);
  const auto one = run_cpu(p.queries, p.targets, Pairing::kPairwise, true, 1);
  const auto many = run_cpu(p.queries, p.targets, Pairing::kPairwise, true, 7);
  ASSERT_EQ(one.size(), many.size());
  for (std::size_t i = 0; i < one.size(); ++i) {
    EXPECT_EQ(one[i].distance, many[i].distance);
    EXPECT_EQ(one[i].cigar, many[i].cigar);
  }
}

TEST(EditCpu, LongPairAgainstDefinition) {
  auto rng = dpx::test::seeded_rng();
  const std::string q = dpx::test::random_letters(rng, 3000, 4);
  const std::string t = dpx::test::mutate(rng, q, 0.15, 4);
  const EditResult r = one_pair(q, t);
  const std::int64_t want = dpx::test::brute_edit_distance(q, t);
  EXPECT_EQ(r.distance, want);
  EXPECT_TRUE(dpx::test::cigar_is_valid(r.cigar, q, t, want));
}

TEST(EditCpu, BadInputIsRefusedWithAMessage) {
  SequenceBatch two, three, one;
  two.add("ab");
  two.add("cd");
  three.add("a");
  three.add("b");
  three.add("c");
  one.add("x");
  std::vector<EditResult> out(5);
  dpx::Status s = dpx::edit_distance_cpu(two, three, Pairing::kPairwise, {}, &out);
  EXPECT_EQ(s.code(), dpx::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("differ in size"), std::string::npos) << s.message();
  EXPECT_EQ(out.size(), 5u);  // untouched
  s = dpx::edit_distance_cpu(two, three, Pairing::kOneToMany, {}, &out);
  EXPECT_EQ(s.code(), dpx::StatusCode::kInvalidArgument);
  s = dpx::edit_distance_cpu(one, three, Pairing::kPairwise, {}, nullptr);
  EXPECT_EQ(s.code(), dpx::StatusCode::kInvalidArgument);

  SequenceBatch too_long, short_one;
  too_long.add(std::string(dpx::kAlignDistanceMaxLength + 1, 'A'));
  short_one.add("A");
  s = dpx::edit_distance_cpu(short_one, too_long, Pairing::kPairwise, {}, &out);
  EXPECT_EQ(s.code(), dpx::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("65536"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("target 0"), std::string::npos) << s.message();
}

TEST(EditCpu, EmptyBatchGivesNoResults) {
  SequenceBatch q, t;
  std::vector<EditResult> out(3);
  ASSERT_TRUE(dpx::edit_distance_cpu(q, t, Pairing::kPairwise, {}, &out).is_ok());
  EXPECT_TRUE(out.empty());
}

}  // namespace
