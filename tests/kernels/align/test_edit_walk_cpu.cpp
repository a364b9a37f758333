// The CUDA CIGAR walk's logic on the host: the bit-parallel columns recorded in the recording
// kernel's layout (built here by the same Myers step), walked back by edit_walk.cuh on one host
// lane, must give the CPU path's distance and CIGAR byte for byte — lengths around the 64-row
// words and the 64 x 64 windows, related and unrelated pairs, every byte as a letter, queries
// longer and shorter than targets, patterns of more than 32 words (two words a lane).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "align/edit/cigar_text.cuh"
#include "align/edit/edit_walk.cuh"
#include "distance_reference.h"
#include "dpx/align_distance.h"
#include "test_util.h"

namespace {

using dpx::align::ColumnRecord;
using dpx::align::kWordBits;

// A pair's columns as the recording kernel lays them out: Pv, Mv and the bottom score of each
// 64-row word of the query, for every target letter.
struct HostRecord {
  std::vector<std::uint64_t> pv, mv;
  std::vector<std::int32_t> score;
  ColumnRecord view;
  std::int64_t words = 0;
  int lane_shift = 0;
};

std::unique_ptr<HostRecord> record_columns(const std::string& q, const std::string& t) {
  auto r = std::make_unique<HostRecord>();
  const auto n = static_cast<std::int64_t>(q.size()), m = static_cast<std::int64_t>(t.size());
  r->words = dpx::align::pattern_words(n);
  r->lane_shift = dpx::align::length_class_lane_shift(r->words);
  const std::uint64_t entries = dpx::align::column_record_entries(n, m);
  r->pv.assign(entries, 0);
  r->mv.assign(entries, 0);
  r->score.assign(entries, 0);
  std::vector<std::uint64_t> pv(static_cast<std::size_t>(r->words), ~std::uint64_t{0}), mv(pv.size(), 0);
  std::vector<std::int32_t> score(pv.size());
  for (std::int64_t w = 0; w < r->words; ++w) score[w] = dpx::align::column_zero_score(w);
  for (std::int64_t j = 0; j < m; ++j) {
    int h = 1;  // D(0, j) = j
    for (std::int64_t w = 0; w < r->words; ++w) {
      std::uint64_t eq = 0;
      for (int b = 0; b < kWordBits && w * kWordBits + b < n; ++b) {
        if (q[w * kWordBits + b] == t[j]) eq |= std::uint64_t{1} << b;
      }
      int delta = 0;
      h = dpx::align::myers_block_step(&pv[w], &mv[w], eq, h, kWordBits - 1, &delta);
      score[w] += h;
      const std::uint64_t at = dpx::align::column_record_index(r->words, r->lane_shift, j, w);
      EXPECT_LT(at, entries);
      r->pv[at] = pv[w];
      r->mv[at] = mv[w];
      r->score[at] = score[w];
    }
  }
  r->view.pv = r->pv.data();
  r->view.mv = r->mv.data();
  r->view.score = r->score.data();
  return r;
}

struct HostLane {
  static constexpr int kSize = 1;
  int lane() const { return 0; }
  void sync() const {}
};

// Distance and CIGAR by the walk, as the kernel writes them.
dpx::EditResult walk(const std::string& q, const std::string& t, bool* consistent) {
  const auto record = record_columns(q, t);
  const dpx::align::PairColumns cols{&record->view, 0, record->words, record->lane_shift};
  const auto n = static_cast<std::int64_t>(q.size()), m = static_cast<std::int64_t>(t.size());
  auto window = std::make_unique<dpx::align::WalkWindow>();
  std::string text(dpx::align::cigar_text_bound(n, m, std::max(n, m)), '\0');
  dpx::align::ReversedCigarText cigar(text.data());
  dpx::EditResult r;
  const std::int32_t distance = dpx::align::walk_start(cols, n, m);
  r.distance = distance;
  *consistent = dpx::align::walk_back_columns(HostLane{}, *window, cols, q.data(), n, t.data(), m, distance, cigar);
  text.resize(cigar.close());
  r.cigar.assign(text.rbegin(), text.rend());
  return r;
}

void expect_walk_equals_cpu(const std::string& q, const std::string& t) {
  dpx::SequenceBatch qb, tb;
  qb.add(q);
  tb.add(t);
  std::vector<dpx::EditResult> cpu;
  ASSERT_TRUE(dpx::edit_distance_cpu(qb, tb, dpx::Pairing::kPairwise, {true}, &cpu, 1).is_ok());
  bool consistent = false;
  const dpx::EditResult walked = walk(q, t, &consistent);
  EXPECT_TRUE(consistent) << q.size() << "x" << t.size();
  EXPECT_EQ(walked.distance, cpu[0].distance) << q.size() << "x" << t.size();
  EXPECT_EQ(walked.cigar, cpu[0].cigar) << q.size() << "x" << t.size();
}

const std::vector<std::size_t> kWalkLengths = {0, 1, 2, 31, 32, 33, 62, 63, 64, 65, 66, 127, 128, 129, 200, 1000};

TEST(EditWalkCpu, EqualsCpuCigarsAroundWordsAndWindows) {
  auto rng = dpx::test::seeded_rng();
  for (int alphabet : {2, 4, 26}) {
    const auto p = dpx::test::random_sequence_pairs(rng, kWalkLengths, alphabet);
    for (std::size_t k = 0; k < p.queries.size(); ++k) {
      expect_walk_equals_cpu(std::string(p.queries.view(k)), std::string(p.targets.view(k)));
    }
  }
}

TEST(EditWalkCpu, EqualsCpuOnEveryByteRelatedAndIdenticalPairs) {
  auto rng = dpx::test::seeded_rng();
  for (std::size_t n : {65, 300, 1000}) {
    const std::string bytes = dpx::test::random_byte_letters(rng, n, 256);
    expect_walk_equals_cpu(bytes, bytes);                                        // d = 0
    expect_walk_equals_cpu(bytes, dpx::test::mutate(rng, bytes, 0.1, 4));        // related
    expect_walk_equals_cpu(dpx::test::mutate(rng, bytes, 0.3, 4), bytes);        // query longer or shorter
    expect_walk_equals_cpu(bytes, std::string(n / 2 + 3, '\x7f'));               // disjoint alphabets
  }
}

// Patterns of 33 and more words run as 32 lanes of two words: the layout puts column j's words
// 2L and 2L + 1 on the same step row.
TEST(EditWalkCpu, EqualsCpuWithTwoWordsALane) {
  auto rng = dpx::test::seeded_rng();
  const std::string a = dpx::test::random_letters(rng, 2049, 4);
  EXPECT_EQ(dpx::align::length_class_lane_shift(dpx::align::pattern_words(2049)), 1);
  expect_walk_equals_cpu(a, dpx::test::mutate(rng, a, 0.1, 4));
  expect_walk_equals_cpu(dpx::test::random_letters(rng, 2100, 4), dpx::test::random_letters(rng, 700, 4));
}

// The walk finds a word's entry through the words a lane of the pattern's length class, which
// edit_bitparallel_cuda.cu's class list fixes: (4..32 lanes, 1 word) up to 32 words, then 32 lanes
// of 2, 4 .. 32 words. This checks the function against that list as written there.
TEST(EditWalkCpu, LaneShiftIsOneWordUpTo32WordsThenPowersOfTwo) {
  EXPECT_EQ(dpx::align::length_class_lane_shift(1), 0);
  EXPECT_EQ(dpx::align::length_class_lane_shift(32), 0);
  EXPECT_EQ(dpx::align::length_class_lane_shift(33), 1);
  EXPECT_EQ(dpx::align::length_class_lane_shift(64), 1);
  EXPECT_EQ(dpx::align::length_class_lane_shift(65), 2);
  EXPECT_EQ(dpx::align::length_class_lane_shift(1024), 5);
}

}  // namespace
