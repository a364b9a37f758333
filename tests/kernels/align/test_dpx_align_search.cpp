// dpx-align search's parts: the bounded top-N against brute force, shards merged against one pass,
// the BLAST tabular numbers, and (with a GPU) the CUDA scorer's output bytes against the CPU's.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <random>
#include <string>

#include "blast_tabular.h"
#include "hit_writer.h"
#include "karlin_altschul.h"
#include "search_engine.h"
#include "search_report.h"
#include "test_util.h"

namespace dpx {
namespace cli {
namespace {

// Queries and a database drawn from a few ancestors with point mutations, so that scores vary
// widely and equal scores (ties) are common.
void related_sequences(std::mt19937_64& rng, std::size_t queries, std::size_t targets, NamedSequences* q,
                       NamedSequences* db) {
  static const char kResidues[] = "ARNDCQEGHILKMFPSTWYV";
  std::vector<std::string> ancestors(3);
  for (std::string& a : ancestors) {
    a.resize(20 + rng() % 40);
    for (char& c : a) c = kResidues[rng() % 20];
  }
  auto draw = [&](std::size_t count, const char* prefix, NamedSequences* out) {
    for (std::size_t i = 0; i < count; ++i) {
      std::string s = ancestors[rng() % ancestors.size()];
      s = s.substr(rng() % 5);
      for (char& c : s)
        if (rng() % 4 == 0) c = kResidues[rng() % 20];
      out->names.push_back(prefix + std::to_string(i));
      out->lines.push_back(2 * i + 1);
      out->letters.add(s);
    }
  };
  draw(queries, "q", q);
  draw(targets, "t", db);
}

std::vector<Hit> brute_force(const std::vector<AlignResult>& all, HitLimits limits) {
  std::vector<Hit> hits;
  for (std::size_t t = 0; t < all.size(); ++t)
    if (all[t].score >= limits.min_score) hits.push_back({all[t].score, static_cast<std::uint32_t>(t)});
  // by score alone, stable: equal scores stay in database order
  std::stable_sort(hits.begin(), hits.end(), [](const Hit& a, const Hit& b) { return a.score > b.score; });
  if (limits.top != 0 && hits.size() > limits.top) hits.resize(limits.top);
  return hits;
}

struct Searcher {
  ScoreMatrix matrix;
  AlignOptions options;
  Searcher() { ScoreMatrix::builtin("blosum62", &matrix); }

  std::vector<std::vector<Hit>> run(const NamedSequences& q, const NamedSequences& db, HitLimits limits,
                                    const std::vector<ShardScorer*>& scorers) {
    SearchControl control;
    std::vector<std::vector<Hit>> best;
    const Status s = search_best_hits(q.letters, db.letters, db.order, {0, db.letters.size()}, limits, scorers, &control, [] {}, &best);
    EXPECT_TRUE(s.is_ok()) << s.message();
    EXPECT_EQ(control.pairs.load(), q.names.size() * db.names.size());
    return best;
  }

  // The rows write_hits makes of `best`, aligned on the CPU or by `aligner`.
  std::string rows(const NamedSequences& q, const NamedSequences& db, const std::vector<std::vector<Hit>>& best,
                   const PairAligner& aligner) {
    std::FILE* f = std::tmpfile();
    EXPECT_NE(f, nullptr);
    if (f == nullptr) return "";
    {
      TsvHitWriter writer(f);
      const Status s = write_hits(q, db, best, aligner, &writer, nullptr);
      EXPECT_TRUE(s.is_ok()) << s.message();
    }
    return test::rewound_text(f);
  }

  PairAligner cpu_aligner() {
    return [this](const SequenceBatch& a, const SequenceBatch& b, std::vector<AlignResult>* out) {
      AlignOptions traceback = options;
      traceback.traceback = true;
      return align_cpu(a, b, Pairing::kPairwise, matrix, traceback, out, 1);
    };
  }
};

TEST(TopHits, KeepsTheBestInOrderLikeASort) {
  std::mt19937_64 rng = test::seeded_rng();
  std::vector<AlignResult> scores(500);
  for (AlignResult& r : scores) r.score = static_cast<std::int32_t>(rng() % 12);  // many ties
  for (const HitLimits limits : {HitLimits{0, 0}, HitLimits{1, 0}, HitLimits{7, 3}, HitLimits{500, 1}, HitLimits{0, 11}}) {
    TopHits top(limits.top, limits.min_score);
    for (std::size_t t = 0; t < scores.size(); ++t) top.offer({scores[t].score, static_cast<std::uint32_t>(t)});
    const std::vector<Hit> got = top.sorted(), want = brute_force(scores, limits);
    ASSERT_EQ(got.size(), want.size()) << "top " << limits.top << " min " << limits.min_score;
    for (std::size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(got[i].score, want[i].score) << i;
      EXPECT_EQ(got[i].target, want[i].target) << i;
    }
  }
}

// The CPU search against every pair aligned on its own, sorted by score then database order.
TEST(SearchEngine, CpuTopHitsMatchBruteForce) {
  std::mt19937_64 rng = test::seeded_rng();
  Searcher s;
  NamedSequences q, db;
  related_sequences(rng, 5, 90, &q, &db);
  auto cpu = make_cpu_scorer(s.matrix, s.options, 2);
  for (const HitLimits limits : {HitLimits{10, 1}, HitLimits{0, 1}, HitLimits{3, 40}, HitLimits{90, 0}}) {
    const std::vector<std::vector<Hit>> best = s.run(q, db, limits, {cpu.get()});
    for (std::size_t i = 0; i < q.names.size(); ++i) {
      SequenceBatch one;
      one.add(q.letters.view(i));
      std::vector<AlignResult> all;
      ASSERT_TRUE(align_cpu(one, db.letters, Pairing::kOneToMany, s.matrix, s.options, &all, 1).is_ok());
      const std::vector<Hit> want = brute_force(all, limits);
      ASSERT_EQ(best[i].size(), want.size()) << "query " << i << ", top " << limits.top;
      for (std::size_t k = 0; k < want.size(); ++k) {
        EXPECT_EQ(best[i][k].score, want[k].score) << "query " << i << " hit " << k;
        EXPECT_EQ(best[i][k].target, want[k].target) << "query " << i << " hit " << k;
      }
    }
  }
}

// Several scorers (as for several GPUs) each take a part of the database; the merged rows are
// those of one pass, byte for byte.
TEST(SearchEngine, ShardsMergeToOnePass) {
  std::mt19937_64 rng = test::seeded_rng();
  Searcher s;
  NamedSequences q, db;
  related_sequences(rng, 4, 70, &q, &db);
  std::vector<std::unique_ptr<ShardScorer>> owned;
  for (int i = 0; i < 5; ++i) owned.push_back(make_cpu_scorer(s.matrix, s.options, 1));
  const HitLimits limits{6, 1};
  const std::string one = s.rows(q, db, s.run(q, db, limits, {owned[0].get()}), s.cpu_aligner());
  for (std::size_t n : {2, 3, 5}) {
    std::vector<ShardScorer*> scorers;
    for (std::size_t i = 0; i < n; ++i) scorers.push_back(owned[i].get());
    EXPECT_EQ(s.rows(q, db, s.run(q, db, limits, scorers), s.cpu_aligner()), one) << n << " shards";
  }
  EXPECT_EQ(std::count(one.begin(), one.end(), '\n'), 1 + 4 * 6);
}

TEST(TargetRanges, SplitsCoverTheRangeInOrder) {
  SequenceBatch db;
  for (std::size_t len : {5, 300, 7, 7, 7, 90, 1, 1, 40}) db.add(std::string(len, 'A'));
  for (std::size_t parts : {1, 2, 4, 9, 12}) {
    const std::vector<TargetRange> r = split_evenly(db, {1, 9}, parts);
    ASSERT_EQ(r.size(), parts);
    EXPECT_EQ(r.front().begin, 1u);
    EXPECT_EQ(r.back().end, 9u);
    for (std::size_t i = 1; i < r.size(); ++i) EXPECT_EQ(r[i].begin, r[i - 1].end) << parts;
  }
  const std::vector<TargetRange> chunks = split_by_size(db, {0, 9}, 100, 4);
  const std::vector<std::size_t> ends = {1, 2, 5, 7, 9};  // the 300-letter sequence alone
  ASSERT_EQ(chunks.size(), ends.size());
  for (std::size_t i = 0; i < ends.size(); ++i) EXPECT_EQ(chunks[i].end, ends[i]) << i;
}

TEST(SearchEngine, StopsWhenAsked) {
  std::mt19937_64 rng = test::seeded_rng();
  Searcher s;
  NamedSequences q, db;
  related_sequences(rng, 3, 20, &q, &db);
  auto cpu = make_cpu_scorer(s.matrix, s.options, 1);
  std::atomic<bool> stop{true};
  SearchControl control;
  control.stop = &stop;
  std::vector<std::vector<Hit>> best;
  ASSERT_TRUE(search_best_hits(q.letters, db.letters, db.order, {0, 20}, {5, 1}, {cpu.get()}, &control, [] {}, &best).is_ok());
  EXPECT_EQ(control.pairs.load(), 0u);
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  BlastTabularWriter writer(f, {0.267, 0.041}, 100);
  const std::vector<std::vector<Hit>> some = {{{10, 0}}, {}, {}};
  ASSERT_TRUE(write_hits(q, db, some, s.cpu_aligner(), &writer, &stop).is_ok());
  EXPECT_EQ(std::ftell(f), 0L);
  std::fclose(f);
}

TEST(KarlinAltschul, PublishedPairsInThisToolsGapConvention) {
  KarlinAltschul ka;
  ASSERT_TRUE(find_karlin_altschul("blosum62", 12, 1, &ka));  // BLAST's 11/1
  EXPECT_DOUBLE_EQ(ka.lambda, 0.267);
  EXPECT_DOUBLE_EQ(ka.k, 0.041);
  ASSERT_TRUE(find_karlin_altschul("blosum62", 11, 1, &ka));  // BLAST's 10/1
  EXPECT_DOUBLE_EQ(ka.lambda, 0.243);
  EXPECT_DOUBLE_EQ(ka.k, 0.024);
  ASSERT_TRUE(find_karlin_altschul("blosum45", 17, 2, &ka));  // BLAST's 15/2
  EXPECT_DOUBLE_EQ(ka.lambda, 0.203);
  EXPECT_FALSE(find_karlin_altschul("blosum62", 5, 5, &ka));
  EXPECT_FALSE(find_karlin_altschul("dna(2,-3)", 5, 2, &ka));
  EXPECT_NE(karlin_altschul_pairs().find("blosum62: 13/2 12/2"), std::string::npos) << karlin_altschul_pairs();
}

TEST(BlastTabular, NumbersPrintedAsBlastPrintsThem) {
  EXPECT_EQ(blast_evalue(0.0), "0.0");
  EXPECT_EQ(blast_evalue(5e-181), "0.0");
  EXPECT_EQ(blast_evalue(1.234e-100), "1.23e-100");
  EXPECT_EQ(blast_evalue(0.000512), "5.12e-04");
  EXPECT_EQ(blast_evalue(0.0504), "0.050");
  EXPECT_EQ(blast_evalue(0.5), "0.50");
  EXPECT_EQ(blast_evalue(5.04), "5.0");
  EXPECT_EQ(blast_evalue(123.4), "123");
  EXPECT_EQ(blast_bit_score(8.46), " 8.5");
  EXPECT_EQ(blast_bit_score(99.9), "99.9");
  EXPECT_EQ(blast_bit_score(150.7), "150");
  EXPECT_EQ(blast_bit_score(123456.0), "1.235e+05");
  EXPECT_EQ(blast_percent(8, 9), "88.889");
  EXPECT_EQ(blast_percent(0, 0), "0.000");
  const AlignmentCounts c = count_alignment("3=1X2I1D4=12X1I");
  EXPECT_EQ(c.length, 24);
  EXPECT_EQ(c.identities, 7);
  EXPECT_EQ(c.mismatches, 13);
  EXPECT_EQ(c.gap_opens, 3);  // I next to D opens twice
}

// With a GPU: the CUDA scorer (also as two scorers on one device) and CUDA traceback give the
// CPU's rows byte for byte.
TEST(SearchEngine, CudaRowsEqualCpuRows) {
  DPX_REQUIRE_GPU();
  std::mt19937_64 rng = test::seeded_rng();
  Searcher s;
  NamedSequences q, db;
  related_sequences(rng, 6, 3000, &q, &db);
  auto cpu = make_cpu_scorer(s.matrix, s.options, 0);
  auto gpu0 = make_cuda_scorer(s.matrix, s.options, 0);
  auto gpu1 = make_cuda_scorer(s.matrix, s.options, 0);
  const HitLimits limits{10, 1};
  const std::string want = s.rows(q, db, s.run(q, db, limits, {cpu.get()}), s.cpu_aligner());
  Stream stream;
  ASSERT_TRUE(stream.create().is_ok());
  const PairAligner cuda = [&](const SequenceBatch& a, const SequenceBatch& b, std::vector<AlignResult>* out) {
    AlignOptions traceback = s.options;
    traceback.traceback = true;
    return align_cuda(a, b, Pairing::kPairwise, s.matrix, traceback, out, stream.get());
  };
  EXPECT_EQ(s.rows(q, db, s.run(q, db, limits, {gpu0.get()}), cuda), want);
  EXPECT_EQ(s.rows(q, db, s.run(q, db, limits, {gpu0.get(), gpu1.get()}), cuda), want);
}

}  // namespace
}  // namespace cli
}  // namespace dpx
