// The GPU kernels' own code, run on the host by the simulator, against the CPU alignment: every
// strip shape, packed lanes with two pairs, padding, passes over wide targets, 16-bit overflow and
// the 32-bit rerun, pairs planned in 32 bits, the traceback layout and walk.
#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "align_reference.h"
#include "dpx/align.h"
#include "align/sw/sw_plan.h"
#include "align/sw/sw_scan_profile.h"
#include "scan_cases.h"
#include "sw_simulator.h"
#include "test_util.h"

namespace dpx {
namespace {


using test::align_options;
using test::builtin_matrix;

// Simulated GPU == CPU, field by field and CIGAR by CIGAR; returns the simulation's statistics.
dpx::test::SimulationStats expect_same_as_cpu(const SequenceBatch& q, const SequenceBatch& t, Pairing pairing,
                                              const ScoreMatrix& m, const AlignOptions& o,
                                              dpx::test::SimScan scan = dpx::test::SimScan::kPairedTable) {
  std::vector<AlignResult> cpu, sim;
  dpx::test::SimulationStats stats;
  const dpx::Status a = dpx::align_cpu(q, t, pairing, m, o, &cpu);
  const dpx::Status b = dpx::test::simulate_gpu(q, t, pairing, m, o, &sim, &stats, scan);
  EXPECT_TRUE(a.is_ok()) << a.message();
  EXPECT_TRUE(b.is_ok()) << b.message();
  EXPECT_EQ(cpu.size(), sim.size());
  int shown = 0;
  for (std::size_t k = 0; k < cpu.size() && k < sim.size() && shown < 5; ++k) {
    if (dpx::test::describe(cpu[k]) == dpx::test::describe(sim[k])) continue;
    ++shown;
    const std::size_t qi = pairing == Pairing::kOneToMany ? 0 : k;
    ADD_FAILURE() << dpx::align_mode_name(o.mode) << " pair " << k << " (n=" << q.length(qi) << ", m=" << t.length(k)
                  << ", open " << o.gap_open << ", extend " << o.gap_extend << ", " << m.name() << ")\n  cpu "
                  << dpx::test::describe(cpu[k]) << "\n  sim " << dpx::test::describe(sim[k]);
  }
  return stats;
}

// Target lengths that land in every strip shape, on its edges, and past the widest (passes).
const std::vector<int> kLengths = {0, 1, 2, 3, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 255, 256, 257,
                                   383, 384, 385, 511, 512, 513, 640, 641, 767, 768, 896, 897, 1023, 1024, 1025, 1500, 2100};

TEST(SwSimulation, OneQueryAgainstManyTargets) {
  auto rng = dpx::test::seeded_rng();
  const ScoreMatrix m = builtin_matrix("blosum62");
  for (AlignMode mode : {AlignMode::kLocal, AlignMode::kGlobal, AlignMode::kSemiGlobal}) {
    SequenceBatch q, t;
    const std::string query = dpx::test::random_sequence(rng, 150, m.letters());
    q.add(query);
    for (int len : kLengths) {
      std::string s = dpx::test::random_sequence(rng, len, m.letters());
      // related targets: part of the query planted inside, across the pass boundaries of wide ones
      if (len > 40 && len % 2 == 1) s.replace(len / 3, std::min<std::size_t>(60, len / 2), query.substr(20, std::min<std::size_t>(60, len / 2)));
      if (len > 1100) s.replace(1024 - 70, 140, query.substr(5, 140));
      if (len > 2100 - 1) s.replace(2048 - 30, 100, query.substr(40, 100));
      t.add(s);
    }
    const auto stats = expect_same_as_cpu(q, t, Pairing::kOneToMany, m, align_options(mode, 11, 1, false));
    EXPECT_GT(stats.two_pair_slots, 5);
    EXPECT_GT(stats.multipass_slots, 0);
  }
}

// The database scan (local, score only, one query against many): every scan shape, both lanes,
// targets past the widest in passes, queries from one letter up, the 16-bit limit and its rerun.
TEST(SwSimulation, DatabaseScanScoresOnly) {
  auto rng = dpx::test::seeded_rng();
  const ScoreMatrix m = builtin_matrix("blosum62");
  std::vector<int> lengths = kLengths;
  for (int len : {160, 161, 224, 288, 300, 416, 448, 449, 576, 704, 705, 832, 960, 1408, 1409, 3000}) lengths.push_back(len);
  for (int n : {1, 2, 31, 32, 33, 150, 701}) {
    SequenceBatch q, t;
    const std::string query = dpx::test::random_sequence(rng, n, m.letters());
    q.add(query);
    for (int len : lengths) {
      std::string s = dpx::test::random_sequence(rng, len, m.letters());
      // the query planted inside, across the pass boundaries of wide targets
      for (int at : {len / 3, 700, 1400, 2100})
        if (at + n <= len && len % 2 == 1) s.replace(static_cast<std::size_t>(at), query.size(), query);
      t.add(s);
    }
    AlignOptions o = align_options(AlignMode::kLocal, n % 2 ? 11 : 10, n % 2 ? 1 : 2, false);
    o.score_only = true;
    const auto stats = expect_same_as_cpu(q, t, Pairing::kOneToMany, m, o);
    EXPECT_GT(stats.scan_launches, 20);
    EXPECT_GT(stats.two_pair_slots, 10);
    EXPECT_GT(stats.multipass_slots, 0);
    EXPECT_EQ(stats.reruns, 0);
  }
  // lanes past the int16 limit come back for 32 bits, whichever lane of a slot they are in
  SequenceBatch q, t;
  q.add(std::string(3100, 'W'));
  for (int len : {3100, 2978, 2979, 2000, 3100, 400}) t.add(std::string(static_cast<std::size_t>(len), 'W'));
  AlignOptions o = align_options(AlignMode::kLocal, 11, 1, false);
  o.score_only = true;
  EXPECT_EQ(expect_same_as_cpu(q, t, Pairing::kOneToMany, m, o).reruns, 4);  // 2,978 * 11 is past 32,767 - 11 too
}

// The scan with the query profile (sw_scan_profile.h) on profile_scan_cases: every profile shape,
// queries in one pass and in several, both lanes, every letter, random matrices, the 16-bit limit
// and its rerun.
TEST(SwSimulation, ProfileScanScoresOnly) {
  auto rng = dpx::test::seeded_rng();
  const std::vector<dpx::test::ScanCase> cases = dpx::test::profile_scan_cases(rng);
  unsigned shapes = 0;
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const dpx::test::ScanCase& c = cases[k];
    const std::int32_t n = static_cast<std::int32_t>(c.query.length(0));
    shapes |= 1u << align::profile_config(n);
    const auto stats =
        expect_same_as_cpu(c.query, c.targets, Pairing::kOneToMany, c.matrix, c.options, dpx::test::SimScan::kQueryProfile);
    EXPECT_EQ(stats.profile_launches, stats.scan_launches) << "n=" << n;
    EXPECT_GT(stats.profile_launches, 0) << "n=" << n;
    EXPECT_GT(stats.two_pair_slots, 0) << "n=" << n;
    EXPECT_EQ(stats.multipass_slots > 0, n > align::kProfileConfigs[align::profile_config(n)].width()) << "n=" << n;
    EXPECT_EQ(stats.reruns, k + 1 == cases.size() ? 4 : 0) << "n=" << n;
  }
  EXPECT_EQ(shapes, (1u << align::kProfileConfigCount) - 1);
}

// The profile's chunk layout: what the threads read (profile_chunk) is what the profile holds there
// (profile_column), every column once; the 8 threads of a quarter warp read 8 different 16-byte
// bank groups whatever their letters.
TEST(SwSimulation, ProfileLayoutIsOneToOneAndConflictFree) {
  auto rng = dpx::test::seeded_rng();
  std::uniform_int_distribution<int> letter(0, 24);
  for (const align::StripConfig& s : align::kProfileConfigs) {
    const std::int32_t row = align::profile_row_bytes(3 * s.width() - 5, s.width());
    ASSERT_EQ(row, 3 * s.width());
    std::vector<int> seen(static_cast<std::size_t>(row), 0);
    for (std::int32_t p = 0; p < 3; ++p) {
      for (int t = 0; t < s.group; ++t) {
        for (int j = 0; j < s.columns / align::kProfileChunk; ++j) {
          for (int k = 0; k < align::kProfileChunk; ++k) {
            const std::int32_t at = align::profile_chunk(p, t, j, s.group, s.columns) + k;
            ASSERT_LT(at, row);
            ++seen[static_cast<std::size_t>(at)];
            EXPECT_EQ(align::profile_column(at, s.group, s.columns), p * s.width() + t * s.columns + j * 16 + k);
          }
        }
      }
      for (int j = 0; j < s.columns / align::kProfileChunk; ++j) {
        for (int first = 0; first < s.group; first += 8) {
          unsigned banks = 0;
          for (int t = first; t < first + 8; ++t)
            banks |= 1u << ((letter(rng) * row + align::profile_chunk(p, t, j, s.group, s.columns)) / 16 % 8);
          EXPECT_EQ(banks, 0xFFu) << s.group << " x " << s.columns << " pass " << p << " chunk " << j;
        }
      }
    }
    EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), row) << s.group << " x " << s.columns;
  }
}

TEST(SwSimulation, PairwiseBatches) {
  auto rng = dpx::test::seeded_rng();
  const ScoreMatrix m = builtin_matrix("blosum50");
  std::uniform_int_distribution<int> pick(0, static_cast<int>(kLengths.size()) - 1);
  for (AlignMode mode : {AlignMode::kLocal, AlignMode::kGlobal, AlignMode::kSemiGlobal}) {
    SequenceBatch q, t;
    for (int k = 0; k < 70; ++k) {
      const std::string a = dpx::test::random_sequence(rng, kLengths[pick(rng)] % 700, m.letters());
      std::string b = dpx::test::random_sequence(rng, kLengths[pick(rng)], m.letters());
      if (k % 3 == 0 && !a.empty()) b = b.substr(0, b.size() / 2) + a + b.substr(b.size() / 2);  // related pairs
      q.add(a);
      t.add(b);
    }
    const auto stats = expect_same_as_cpu(q, t, Pairing::kPairwise, m, align_options(mode, 10, 2, false));
    EXPECT_GT(stats.two_pair_slots, 10);
  }
}

TEST(SwSimulation, RandomMatricesAndGaps) {
  auto rng = dpx::test::seeded_rng();
  std::uniform_int_distribution<int> len(0, 300), gap(0, 40);
  for (int rep = 0; rep < 12; ++rep) {
    // small alphabets to large (31 letters: the one-to-many table no longer fits, two lookups instead)
    const std::string letters = std::string("ACDEFGHIKLMNPQRSTVWYBZOUJ0123456789").substr(0, rep % 3 == 2 ? 31 : 4 + rep);
    const ScoreMatrix m = dpx::test::random_matrix(rng, letters, rep % 4 == 3 ? -128 : -9, rep % 4 == 3 ? 127 : 9);
    const int extend = gap(rng) / 4;
    const AlignOptions o = align_options(static_cast<AlignMode>(rep % 3), extend + gap(rng), extend, false);
    SequenceBatch q, t, one;
    one.add(dpx::test::random_sequence(rng, len(rng), letters));
    for (int k = 0; k < 24; ++k) {
      q.add(dpx::test::random_sequence(rng, len(rng), letters));
      t.add(dpx::test::random_sequence(rng, len(rng) * (k % 5 == 0 ? 4 : 1), letters));
    }
    expect_same_as_cpu(q, t, Pairing::kPairwise, m, o);
    expect_same_as_cpu(one, t, Pairing::kOneToMany, m, o);
  }
}

// Scores past the int16 range: local pairs are caught and rerun in 32 bits, non-local ones are
// planned in 32 bits; the results must not change.
TEST(SwSimulation, ScoresBeyondSixteenBits) {
  auto rng = dpx::test::seeded_rng();
  const ScoreMatrix m = builtin_matrix("blosum62");
  const std::string w(3100, 'W');  // 3100 * 11 = 34100 > 32767
  std::string near(2978, 'W');     // 2978 * 11 = 32758: just under the local limit of 32767 - 11
  SequenceBatch q, t;
  for (const std::string& s : {w, near, std::string(2979, 'W')}) {
    q.add(s);
    t.add(s);
  }
  const std::string x = dpx::test::random_sequence(rng, 3000, m.letters());
  q.add(x);
  t.add(x);  // identical random protein: about 5.3 per letter
  q.add(x);
  t.add(dpx::test::random_sequence(rng, 3000, m.letters()));
  for (AlignMode mode : {AlignMode::kLocal, AlignMode::kGlobal, AlignMode::kSemiGlobal}) {
    const auto stats = expect_same_as_cpu(q, t, Pairing::kPairwise, m, align_options(mode, 11, 1, false));
    // local pairs all start in 16 bits and the three above the lanes' limit come back for 32;
    // the others that cannot fit are planned in 32 bits from the start
    if (mode == AlignMode::kLocal) {
      EXPECT_EQ(stats.reruns, 3);
      EXPECT_EQ(stats.wide_pairs, 0);
    } else {
      EXPECT_EQ(stats.reruns, 0);
      EXPECT_GE(stats.wide_pairs, 3);
    }
  }
  // large gap costs push global scores below the int16 range
  SequenceBatch gq, gt;
  gq.add(std::string(400, 'A'));
  gt.add(std::string(40, 'A'));
  expect_same_as_cpu(gq, gt, Pairing::kPairwise, m, align_options(AlignMode::kGlobal, 8000, 100, false));
}

TEST(SwSimulation, Traceback) {
  auto rng = dpx::test::seeded_rng();
  const ScoreMatrix m = builtin_matrix("pam250");
  std::uniform_int_distribution<int> pick(0, static_cast<int>(kLengths.size()) - 1);
  for (AlignMode mode : {AlignMode::kLocal, AlignMode::kGlobal, AlignMode::kSemiGlobal}) {
    SequenceBatch q, t, one;
    one.add(dpx::test::random_sequence(rng, 90, m.letters()));
    for (int k = 0; k < 30; ++k) {
      const std::string a = dpx::test::random_sequence(rng, kLengths[pick(rng)] % 400, m.letters());
      std::string b = dpx::test::random_sequence(rng, kLengths[pick(rng)] % 700, m.letters());
      if (k % 2 == 0 && !a.empty()) b.insert(b.size() / 3, a.substr(a.size() / 4));
      q.add(a);
      t.add(b);
    }
    const auto stats = expect_same_as_cpu(q, t, Pairing::kPairwise, m, align_options(mode, 8, 2, true));
    EXPECT_GT(stats.multipass_slots, 0);
    EXPECT_GT(stats.two_pair_slots, 0);  // the packed lanes
    expect_same_as_cpu(one, t, Pairing::kOneToMany, m, align_options(mode, 3, 3, true));
    // gaps too dear for 16 bits: the 32-bit shapes, in the same chunk as packed slots
    SequenceBatch dear_q = q, dear_t = t;
    dear_q.add(std::string(300, 'W'));
    dear_t.add(std::string(20, 'W'));
    const auto wide = expect_same_as_cpu(dear_q, dear_t, Pairing::kPairwise, m, align_options(mode, 200, 150, true));
    EXPECT_GT(wide.two_pair_slots, 0);
    EXPECT_GT(wide.wide_pairs, 0);
  }
  // every packed shape (the walk reads each layout through its window)
  SequenceBatch shaped_q, shaped_t;
  for (auto [n, mm] : {std::pair{700, 700}, {300, 700}, {40, 600}, {500, 200}, {20, 100}, {90, 450}, {33, 1000}}) {
    shaped_q.add(dpx::test::random_sequence(rng, n, m.letters()));
    shaped_t.add(dpx::test::random_sequence(rng, mm, m.letters()));
  }
  const auto shaped = expect_same_as_cpu(shaped_q, shaped_t, Pairing::kPairwise, m,
                                         align_options(AlignMode::kLocal, 10, 1, true));
  for (int c = dpx::align::kTracebackPackedFirst; c < dpx::align::kTracebackConfigCount; ++c)
    EXPECT_TRUE(shaped.traceback_shapes & (1u << c)) << "shape " << c;
  // the simulated CIGARs also re-score to their scores (a CPU/simulation agreement on a wrong
  // CIGAR would otherwise pass)
  SequenceBatch q, t;
  q.add("HEAGAWGHEE");
  t.add("PAWHEAE");
  std::vector<AlignResult> sim;
  ASSERT_TRUE(dpx::test::simulate_gpu(q, t, Pairing::kPairwise, builtin_matrix("blosum50"),
                                      align_options(AlignMode::kLocal, 8, 8, true), &sim, nullptr).is_ok());
  EXPECT_EQ(sim[0].score, 28);
  EXPECT_EQ(sim[0].cigar, "2=1I2=");
}

// Equal best scores in different passes of one thread's strip: the end is the smaller query row
// (the CPU's row-major order), even where the later pass holds it.
TEST(SwSimulation, EqualBestScoresAcrossPasses) {
  const ScoreMatrix m = builtin_matrix("blosum62");
  const dpx::test::QueryTarget pair = dpx::test::equal_best_scores_across_passes();
  for (bool traceback : {false, true}) {
    SequenceBatch q, t, one;
    for (int k = 0; k < 3; ++k) {  // a slot of two pairs and one of one
      q.add(pair.query);
      t.add(pair.target);
    }
    one.add(pair.query);
    expect_same_as_cpu(q, t, Pairing::kPairwise, m, align_options(AlignMode::kLocal, 11, 1, traceback));
    expect_same_as_cpu(one, t, Pairing::kOneToMany, m, align_options(AlignMode::kLocal, 11, 1, traceback));
  }
}

TEST(SwPlan, SlotsCoverEveryPairOnce) {
  auto rng = dpx::test::seeded_rng();
  const ScoreMatrix m = builtin_matrix("blosum62");
  dpx::align::PairLengths len;
  std::uniform_int_distribution<int> d(0, 5000);
  for (int k = 0; k < 500; ++k) {
    len.n.push_back(d(rng) % (k % 7 == 0 ? 5000 : 600));
    len.m.push_back(d(rng) % (k % 5 == 0 ? 5000 : 1100));
  }
  for (AlignMode mode : {AlignMode::kLocal, AlignMode::kGlobal}) {
    const auto plan = dpx::align::plan_scores(len, Pairing::kPairwise, m, align_options(mode, 11, 1, false));
    std::vector<int> seen(len.n.size(), 0);
    for (int p : plan.trivial) ++seen[p];
    for (const auto& r : plan.ranges16) {
      const auto& c = dpx::align::kScore16Configs[r.config];
      for (int x = r.first; x < r.first + r.count; ++x)
        for (int p : {plan.slots16[x].a, plan.slots16[x].b}) {
          if (p < 0) continue;
          ++seen[p];
          // the narrowest shape that holds the target, or the widest one in passes
          EXPECT_TRUE(len.m[p] <= c.width() || r.config == dpx::align::kScore16ConfigCount - 1);
          EXPECT_TRUE(r.config == 0 || len.m[p] > dpx::align::kScore16Configs[r.config - 1].width());
          EXPECT_LE(len.n[p], r.max_rows);
        }
    }
    for (const auto& s : plan.slots32) ++seen[s.a];
    for (std::size_t k = 0; k < seen.size(); ++k) EXPECT_EQ(seen[k], 1) << k;
    // local pairs all start in packed lanes (a lane near the limit is rerun in 32 bits)
    EXPECT_EQ(plan.slots32.empty(), mode == AlignMode::kLocal);
  }
}

// The narrowest group shape that holds the target, else the 32-thread shape with the least work
// (passes x columns a thread), the wider on a tie.
TEST(SwPlan, PackedTracebackShapes) {
  using dpx::align::kTracebackConfigs;
  const std::vector<std::pair<int, std::pair<int, int>>> want = {
      {1, {8, 16}},      {128, {8, 16}},    {129, {16, 16}},   {256, {16, 16}}, {257, {32, 12}},
      {384, {32, 12}},   {385, {32, 16}},   {512, {32, 16}},   {513, {32, 12}}, {768, {32, 12}},
      {769, {32, 16}},   {1024, {32, 16}},  {1025, {32, 12}},  {1152, {32, 12}}, {1153, {32, 16}},
      {1536, {32, 16}},  {1537, {32, 12}}};
  for (const auto& [m, shape] : want) {
    const int c = dpx::align::packed_traceback_config(m);
    ASSERT_TRUE(dpx::align::traceback_packed(c)) << m;
    EXPECT_EQ(kTracebackConfigs[c].group, shape.first) << m;
    EXPECT_EQ(kTracebackConfigs[c].columns, shape.second) << m;
  }
}

TEST(SwPlan, TracebackChunksStayWithinTheirBudget) {
  const ScoreMatrix m = builtin_matrix("blosum62");
  const AlignOptions o = align_options(AlignMode::kLocal, 11, 1, true);
  dpx::align::PairLengths len;
  for (int k = 0; k < 300; ++k) {
    len.n.push_back(k % 50 == 7 ? 0 : k % 40 == 3 ? 3500 : 100 + k * 3);  // 3,500 x 3,500: beyond 16 bits
    len.m.push_back(k % 3 == 0 ? 40 : k % 40 == 3 ? 3500 : 300 + k);
  }
  const std::uint64_t budget = 400000;
  const auto plan = dpx::align::plan_traceback(len, Pairing::kPairwise, m, o, budget);
  EXPECT_GT(plan.chunks.size(), 3u);
  std::vector<int> seen(len.n.size(), 0);
  for (int p : plan.trivial) ++seen[p];
  int packed_pairs = 0;
  for (const auto& c : plan.chunks) {
    EXPECT_TRUE(c.words <= budget || c.count == 1);  // a slot larger than the budget has its own chunk
    std::vector<std::pair<std::uint64_t, std::uint64_t>> spans;  // the chunk's slots must not overlap
    for (int x = c.first; x < c.first + c.count; ++x) {
      const dpx::align::Slot s = plan.slots[x];
      const int config = plan.config[s.a];
      std::int32_t rows = 0, cols = 0;
      for (int p : {s.a, s.b}) {
        if (p < 0) continue;
        ++seen[p];
        EXPECT_EQ(plan.config[p], config);
        EXPECT_EQ(plan.word_offset[p], plan.word_offset[s.a]);  // a packed slot's pairs share its words
        EXPECT_EQ(dpx::align::traceback_packed(config), dpx::align::fits_16_bits(len.n[p], len.m[p], m, o)) << p;
        rows = std::max(rows, len.n[p]);
        cols = std::max(cols, len.m[p]);
      }
      EXPECT_TRUE(dpx::align::traceback_packed(config) || s.b < 0);
      packed_pairs += dpx::align::traceback_packed(config) ? 1 + (s.b >= 0) : 0;
      EXPECT_EQ(plan.word_offset[s.a] % 4, 0u);  // the packed stores write 16 bytes at once
      spans.emplace_back(plan.word_offset[s.a], plan.word_offset[s.a] + dpx::align::traceback_words(rows, cols, config));
      EXPECT_LE(spans.back().second, c.words);
    }
    std::sort(spans.begin(), spans.end());
    for (std::size_t k = 1; k < spans.size(); ++k) EXPECT_LE(spans[k - 1].second, spans[k].first);
    // each range's pass items: every warp batch of its slots, every pass of the batch's widest
    // slot, in order; only the 32-thread shapes take passes (a batch of one slot)
    std::int32_t next_item = c.items_first;
    for (std::size_t x = 0; x < c.ranges.size(); ++x) {
      const auto& r = c.ranges[x];
      const auto& shape = dpx::align::kTracebackConfigs[r.config];
      EXPECT_EQ(r.first_item, next_item);
      std::int32_t item = r.first_item;
      for (int first = 0; first < r.count; first += 32 / shape.group) {
        int passes = 1;
        for (int y = first; y < std::min(first + 32 / shape.group, r.count); ++y)
          for (int p : {plan.slots[r.first + y].a, plan.slots[r.first + y].b})
            if (p >= 0) passes = std::max(passes, (len.m[p] + shape.width() - 1) / shape.width());
        EXPECT_TRUE(passes == 1 || shape.group == 32);
        for (int pass = 0; pass < passes; ++pass, ++item) {
          ASSERT_LT(item, r.first_item + r.item_count);
          EXPECT_EQ(plan.items[item].first_slot, first);
          EXPECT_EQ(plan.items[item].pass, pass);
        }
      }
      EXPECT_EQ(item, r.first_item + r.item_count);
      next_item = item;
    }
    EXPECT_EQ(next_item, c.items_first + c.items);
  }
  for (std::size_t k = 0; k < seen.size(); ++k) EXPECT_EQ(seen[k], 1) << k;
  EXPECT_GT(packed_pairs, 200);
  // a pair larger than the budget gets a chunk of its own
  dpx::align::PairLengths big;
  big.n = {5000, 10};
  big.m = {5000, 10};
  const auto own = dpx::align::plan_traceback(big, Pairing::kPairwise, m, o, 1000);
  EXPECT_EQ(own.chunks.size(), 2u);
  // the default budget: a quarter of the free memory, within 1 and 4 GiB
  const std::uint64_t gib = std::uint64_t(1) << 30;
  EXPECT_EQ(dpx::align::traceback_budget_words(gib), gib / 4);
  EXPECT_EQ(dpx::align::traceback_budget_words(8 * gib), 2 * gib / 4);
  EXPECT_EQ(dpx::align::traceback_budget_words(140 * gib), 4 * gib / 4);
}

TEST(SwPlan, SixteenBitBounds) {
  const ScoreMatrix m = builtin_matrix("blosum62");
  const AlignOptions g = align_options(AlignMode::kGlobal, 11, 1, false);
  EXPECT_TRUE(dpx::align::fits_16_bits(1024, 1024, m, g));
  EXPECT_TRUE(dpx::align::fits_16_bits(4096, 1024, m, g));
  EXPECT_TRUE(dpx::align::fits_16_bits(2977, 2977, m, g));   // 2977 * 11 <= 32767 - 11
  EXPECT_FALSE(dpx::align::fits_16_bits(2978, 2978, m, g));
  EXPECT_FALSE(dpx::align::fits_16_bits(20000, 20000, m, g));  // the gaps alone
  EXPECT_FALSE(dpx::align::fits_16_bits(100, 100, m, align_options(AlignMode::kGlobal, 8000, 200, false)));
}

}  // namespace
}  // namespace dpx
