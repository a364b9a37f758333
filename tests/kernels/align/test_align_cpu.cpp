// The CPU alignment against hand-checked cases, exhaustive enumeration and the textbook
// recurrence; CIGARs re-scored; empty sequences and bad input.
#include <gtest/gtest.h>

#include "align_reference.h"
#include "dpx/align.h"
#include "test_util.h"

namespace dpx {
namespace {


ScoreMatrix matrix(const char* name) { return dpx::test::builtin_matrix(name); }
AlignOptions options(AlignMode mode, int open, int extend, bool traceback) {
  return dpx::test::align_options(mode, open, extend, traceback);
}

AlignResult align_one(const std::string& q, const std::string& t, const ScoreMatrix& m, const AlignOptions& o) {
  SequenceBatch qs, ts;
  qs.add(q);
  ts.add(t);
  std::vector<AlignResult> out;
  const dpx::Status s = dpx::align_cpu(qs, ts, Pairing::kPairwise, m, o, &out, 1);
  EXPECT_TRUE(s.is_ok()) << s.message();
  return out.empty() ? AlignResult{} : out[0];
}

// Durbin et al., Biological Sequence Analysis, ch. 2: BLOSUM50, linear gap 8.
TEST(AlignCpu, TextbookLocalAlignment) {
  const AlignResult r = align_one("HEAGAWGHEE", "PAWHEAE", matrix("blosum50"), options(AlignMode::kLocal, 8, 8, true));
  EXPECT_EQ(r.score, 28);  // AWGHE / AW-HE: 5 + 15 - 8 + 10 + 6
  EXPECT_EQ(r.query_begin, 4);
  EXPECT_EQ(r.query_end, 9);
  EXPECT_EQ(r.target_begin, 1);
  EXPECT_EQ(r.target_end, 5);
  EXPECT_EQ(r.cigar, "2=1I2=");
}

TEST(AlignCpu, TextbookGlobalAlignment) {
  const AlignResult r = align_one("HEAGAWGHEE", "PAWHEAE", matrix("blosum50"), options(AlignMode::kGlobal, 8, 8, true));
  EXPECT_EQ(r.score, 1);
  EXPECT_EQ(r.query_begin, 0);
  EXPECT_EQ(r.query_end, 10);
  EXPECT_EQ(r.target_end, 7);
  std::int64_t rescored = 0;
  ASSERT_TRUE(dpx::rescore_cigar(r.cigar, "HEAGAWGHEE", "PAWHEAE", 0, 0, matrix("blosum50"),
                                 options(AlignMode::kGlobal, 8, 8, true), &rescored).is_ok());
  EXPECT_EQ(rescored, 1) << r.cigar;
}

TEST(AlignCpu, AffineGapsByHand) {
  ScoreMatrix dna;
  ASSERT_TRUE(ScoreMatrix::dna(1, -1, &dna).is_ok());
  // 4 matches and one gap of 4: 4 - (3 + 3 * 1)
  AlignResult r = align_one("AAAAAAAA", "AAAA", dna, options(AlignMode::kGlobal, 3, 1, true));
  EXPECT_EQ(r.score, -2);
  // ties: the diagonal first from the end, so the gap is at the start of the query
  EXPECT_EQ(r.cigar, "4I4=");
  // semi-global: the whole query inside the target, target ends free
  r = align_one("ACGT", "TTACGTTT", dna, options(AlignMode::kSemiGlobal, 3, 1, true));
  EXPECT_EQ(r.score, 4);
  EXPECT_EQ(r.target_begin, 2);
  EXPECT_EQ(r.target_end, 6);
  EXPECT_EQ(r.cigar, "4=");
  // one gap of 2 beats two gaps of 1: GGAATT vs GGTT -> 4 - (3 + 1)
  r = align_one("GGAATTCC", "GGTTCC", dna, options(AlignMode::kGlobal, 3, 1, true));
  EXPECT_EQ(r.score, 6 - 4);
  EXPECT_EQ(r.cigar, "2=2I4=");
  // local with a mismatch kept because the flanks pay for it
  r = align_one("ACGTTACGT", "ACGTCACGT", dna, options(AlignMode::kLocal, 3, 1, true));
  EXPECT_EQ(r.score, 7);
  EXPECT_EQ(r.cigar, "4=1X4=");
}

TEST(AlignCpu, EmptySequences) {
  const ScoreMatrix m = matrix("blosum62");
  AlignResult r = align_one("", "ACDE", m, options(AlignMode::kLocal, 5, 2, true));
  EXPECT_EQ(r.score, 0);
  EXPECT_EQ(r.query_end, 0);
  EXPECT_EQ(r.target_end, 0);
  EXPECT_EQ(r.cigar, "");
  r = align_one("", "ACD", m, options(AlignMode::kGlobal, 5, 2, true));
  EXPECT_EQ(r.score, -9);
  EXPECT_EQ(r.cigar, "3D");
  EXPECT_EQ(r.target_end, 3);
  r = align_one("AC", "", m, options(AlignMode::kGlobal, 5, 2, true));
  EXPECT_EQ(r.score, -7);
  EXPECT_EQ(r.cigar, "2I");
  r = align_one("", "ACD", m, options(AlignMode::kSemiGlobal, 5, 2, true));
  EXPECT_EQ(r.score, 0);
  EXPECT_EQ(r.cigar, "");
  r = align_one("ACD", "", m, options(AlignMode::kSemiGlobal, 5, 2, false));
  EXPECT_EQ(r.score, -9);
  r = align_one("", "", m, options(AlignMode::kGlobal, 5, 2, true));
  EXPECT_EQ(r.score, 0);
  EXPECT_EQ(r.cigar, "");
  // a local alignment with nothing positive is the empty one
  r = align_one("WWW", "PPP", m, options(AlignMode::kLocal, 5, 2, true));
  EXPECT_EQ(r.score, 0);
  EXPECT_EQ(r.query_begin, 0);
  EXPECT_EQ(r.cigar, "");
}

// Every mode, several gap settings and matrices, against the enumeration of all alignments.
TEST(AlignCpu, MatchesExhaustiveEnumerationOnTinyPairs) {
  auto rng = dpx::test::seeded_rng();
  ScoreMatrix dna;
  ASSERT_TRUE(ScoreMatrix::dna(2, -3, &dna).is_ok());
  const ScoreMatrix mats[] = {matrix("blosum62"), dna, dpx::test::random_matrix(rng, "ABCD", -6, 6)};
  const int gaps[][2] = {{1, 1}, {3, 1}, {5, 2}, {0, 0}, {11, 1}};
  std::uniform_int_distribution<int> len(0, 5);
  int checked = 0;
  for (const ScoreMatrix& m : mats)
    for (const auto& g : gaps)
      for (AlignMode mode : {AlignMode::kLocal, AlignMode::kGlobal, AlignMode::kSemiGlobal})
        for (int rep = 0; rep < 6; ++rep) {
          const std::string q = dpx::test::random_sequence(rng, len(rng), m.letters().substr(0, std::min(4, m.size())));
          const std::string t = dpx::test::random_sequence(rng, len(rng), m.letters().substr(0, std::min(4, m.size())));
          const AlignOptions o = options(mode, g[0], g[1], true);
          const AlignResult r = align_one(q, t, m, o);
          EXPECT_EQ(r.score, dpx::test::brute_force_score(q, t, m, o))
              << dpx::align_mode_name(mode) << " q=" << q << " t=" << t << " gaps " << g[0] << "/" << g[1] << " " << m.name();
          const std::string err = dpx::test::check_against_reference(r, q, t, m, o);
          EXPECT_EQ(err, "") << dpx::align_mode_name(mode) << " q=" << q << " t=" << t;
          ++checked;
        }
  EXPECT_EQ(checked, 3 * 5 * 3 * 6);
}

// Random pairs of many lengths against the textbook recurrence (score, ends, CIGAR re-scoring).
TEST(AlignCpu, MatchesTheRecurrenceOnRandomPairs) {
  auto rng = dpx::test::seeded_rng();
  const ScoreMatrix mats[] = {matrix("blosum62"), matrix("pam250"), dpx::test::random_matrix(rng, "ACGTN", -4, 5)};
  const int lengths[] = {1, 2, 3, 17, 31, 32, 33, 64, 100, 257};
  std::uniform_int_distribution<int> pick(0, 9), gap(0, 12);
  for (int rep = 0; rep < 60; ++rep) {
    const ScoreMatrix& m = mats[rep % 3];
    const int ext = gap(rng) / 3;
    const AlignOptions o = options(static_cast<AlignMode>(rep % 3), ext + gap(rng), ext, rep % 2 == 0);
    const std::string q = dpx::test::random_sequence(rng, lengths[pick(rng)], m.letters());
    std::string t = dpx::test::random_sequence(rng, lengths[pick(rng)], m.letters());
    if (rep % 4 == 1) t = q.substr(q.size() / 3) + t;  // related pairs as well
    const AlignResult r = align_one(q, t, m, o);
    EXPECT_EQ(dpx::test::check_against_reference(r, q, t, m, o), "")
        << dpx::align_mode_name(o.mode) << " n=" << q.size() << " m=" << t.size() << " " << m.name();
  }
}

TEST(AlignCpu, ThreadsAndPairingsGiveTheSameResults) {
  auto rng = dpx::test::seeded_rng();
  const ScoreMatrix m = matrix("blosum62");
  SequenceBatch one, queries, targets;
  const std::string q = dpx::test::random_sequence(rng, 120, m.letters());
  one.add(q);
  for (int k = 0; k < 40; ++k) {
    queries.add(q);
    targets.add(dpx::test::random_sequence(rng, 1 + k * 7, m.letters()));
  }
  for (AlignMode mode : {AlignMode::kLocal, AlignMode::kGlobal, AlignMode::kSemiGlobal}) {
    const AlignOptions o = options(mode, 11, 1, true);
    std::vector<AlignResult> a, b, c;
    ASSERT_TRUE(dpx::align_cpu(queries, targets, Pairing::kPairwise, m, o, &a, 1).is_ok());
    ASSERT_TRUE(dpx::align_cpu(queries, targets, Pairing::kPairwise, m, o, &b, 3).is_ok());
    ASSERT_TRUE(dpx::align_cpu(one, targets, Pairing::kOneToMany, m, o, &c, 0).is_ok());
    ASSERT_EQ(a.size(), 40u);
    for (std::size_t k = 0; k < a.size(); ++k) {
      EXPECT_EQ(dpx::test::describe(a[k]), dpx::test::describe(b[k])) << k;
      EXPECT_EQ(dpx::test::describe(a[k]), dpx::test::describe(c[k])) << k;
    }
  }
}

// A pair large enough that the traceback recomputes blocks from checkpoints.
TEST(AlignCpu, LongTracebackAcrossBlocks) {
  auto rng = dpx::test::seeded_rng();
  const ScoreMatrix m = matrix("blosum62");
  const std::string q = dpx::test::random_sequence(rng, 6000, m.letters());
  std::string t = q;
  std::uniform_int_distribution<std::size_t> where(0, t.size() - 1);
  for (int k = 0; k < 300; ++k) t[where(rng)] = 'W';                  // substitutions
  for (int k = 0; k < 20; ++k) t.erase(where(rng) % t.size(), 1 + k % 7);  // deletions
  t.insert(3000, "ACDEFGHIK");                                          // an insertion
  for (AlignMode mode : {AlignMode::kLocal, AlignMode::kGlobal, AlignMode::kSemiGlobal}) {
    const AlignResult with = align_one(q, t, m, options(mode, 11, 1, true));
    const AlignResult without = align_one(q, t, m, options(mode, 11, 1, false));
    EXPECT_EQ(with.score, without.score);
    EXPECT_EQ(with.query_end, without.query_end);
    EXPECT_EQ(with.target_end, without.target_end);
    std::int64_t rescored = 0;
    const dpx::Status s = dpx::rescore_cigar(with.cigar, q, t, with.query_begin, with.target_begin, m,
                                             options(mode, 11, 1, true), &rescored);
    ASSERT_TRUE(s.is_ok()) << s.message();
    EXPECT_EQ(rescored, with.score) << dpx::align_mode_name(mode);
    EXPECT_GT(with.score, 20000);
  }
}

TEST(AlignCpu, RescoreCigar) {
  const ScoreMatrix m = matrix("blosum62");
  const AlignOptions o = options(AlignMode::kGlobal, 11, 1, true);
  std::int64_t s = 0;
  ASSERT_TRUE(dpx::rescore_cigar("2=3D1X2I", "WWAKK", "WWGGGC", 0, 0, m, o, &s).is_ok());
  EXPECT_EQ(s, 11 + 11 - (11 + 2) + m.score('A', 'C') - (11 + 1));
  // adjacent runs of one operation are one gap
  ASSERT_TRUE(dpx::rescore_cigar("1D2D", "", "GGG", 0, 0, m, o, &s).is_ok());
  EXPECT_EQ(s, -(11 + 2));
  EXPECT_FALSE(dpx::rescore_cigar("2=", "WA", "WW", 0, 0, m, o, &s).is_ok());   // '=' on a mismatch
  EXPECT_FALSE(dpx::rescore_cigar("3=", "WW", "WWW", 0, 0, m, o, &s).is_ok());  // past the end
  EXPECT_FALSE(dpx::rescore_cigar("2Q", "WW", "WW", 0, 0, m, o, &s).is_ok());
  EXPECT_FALSE(dpx::rescore_cigar("=", "WW", "WW", 0, 0, m, o, &s).is_ok());
  EXPECT_FALSE(dpx::rescore_cigar("1=", "WW", "WW", 3, 0, m, o, &s).is_ok());
}

TEST(AlignCpu, BadInputGetsAClearStatus) {
  const ScoreMatrix m = matrix("blosum62");
  SequenceBatch two, three, one;
  two.add("AC");
  two.add("DE");
  three.add("A");
  three.add("C");
  three.add("D");
  one.add("W");
  std::vector<AlignResult> out;
  AlignOptions o;
  dpx::Status s = dpx::align_cpu(two, three, Pairing::kPairwise, m, o, &out);
  EXPECT_EQ(s.code(), dpx::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("differ in size"), std::string::npos) << s.message();
  s = dpx::align_cpu(two, three, Pairing::kOneToMany, m, o, &out);
  EXPECT_NE(s.message().find("exactly one query"), std::string::npos) << s.message();
  SequenceBatch long_one;
  long_one.add(std::string(dpx::kAlignMaxLength + 1, 'A'));
  s = dpx::align_cpu(one, long_one, Pairing::kOneToMany, m, o, &out);
  EXPECT_NE(s.message().find("the limit is 65536"), std::string::npos) << s.message();
  for (auto g : {std::pair<int, int>{1, 2}, {-1, -1}, {9000, 1}}) {
    o.gap_open = g.first;
    o.gap_extend = g.second;
    s = dpx::align_cpu(one, one, Pairing::kPairwise, m, o, &out);
    EXPECT_NE(s.message().find("gap costs"), std::string::npos) << s.message();
  }
  o = AlignOptions{};
  o.mode = static_cast<AlignMode>(7);
  EXPECT_FALSE(dpx::align_cpu(one, one, Pairing::kPairwise, m, o, &out).is_ok());
  EXPECT_FALSE(dpx::align_cpu(one, one, Pairing::kPairwise, ScoreMatrix{}, AlignOptions{}, &out).is_ok());
  EXPECT_FALSE(dpx::align_cpu(one, one, Pairing::kPairwise, m, AlignOptions{}, nullptr).is_ok());
  // the limit itself is accepted
  EXPECT_TRUE(dpx::validate_align_batches(one, SequenceBatch(), Pairing::kOneToMany, "x").is_ok());
}

}  // namespace
}  // namespace dpx
