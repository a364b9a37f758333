// The CUDA alignment against the CPU, bit-exact: scores, positions and CIGARs on random pairs of
// many lengths, random matrices and gap costs, scores past the int16 range, both pairings, all
// modes; every CIGAR re-scored; bad input. Skipped where no CUDA device is.
#include <gtest/gtest.h>

#include "align_reference.h"
#include "dpx/align.h"
#include "test_util.h"

namespace dpx {
namespace {

using test::align_options;
using test::builtin_matrix;

// Runs both backends; expects identical results and CIGARs that re-score to the score. Small
// pairs are also checked against the textbook recurrence.
void expect_gpu_equals_cpu(const SequenceBatch& q, const SequenceBatch& t, Pairing pairing, const ScoreMatrix& m,
                           const AlignOptions& o) {
  std::vector<AlignResult> cpu, gpu;
  const dpx::Status a = dpx::align_cpu(q, t, pairing, m, o, &cpu);
  ASSERT_TRUE(a.is_ok()) << a.message();
  gpu.assign(cpu.size() + 3, AlignResult{-777, -7, -7, -7, -7, "poison"});
  const dpx::Status b = dpx::align_cuda(q, t, pairing, m, o, &gpu, nullptr);
  ASSERT_TRUE(b.is_ok()) << b.message();
  ASSERT_EQ(gpu.size(), cpu.size());
  int shown = 0;
  for (std::size_t k = 0; k < cpu.size(); ++k) {
    const std::size_t qi = pairing == Pairing::kOneToMany ? 0 : k;
    const std::string context = std::string(dpx::align_mode_name(o.mode)) + " pair " + std::to_string(k) + " n=" +
                                std::to_string(q.length(qi)) + " m=" + std::to_string(t.length(k)) + " open " +
                                std::to_string(o.gap_open) + " extend " + std::to_string(o.gap_extend) + " " + m.name();
    if (dpx::test::describe(cpu[k]) != dpx::test::describe(gpu[k]) && shown++ < 5) {
      ADD_FAILURE() << context << "\n  cpu " << dpx::test::describe(cpu[k]) << "\n  gpu " << dpx::test::describe(gpu[k]);
    }
    if (!o.traceback) continue;
    std::int64_t rescored = 0;
    const dpx::Status s = dpx::rescore_cigar(gpu[k].cigar, q.view(qi), t.view(k), gpu[k].query_begin,
                                             gpu[k].target_begin, m, o, &rescored);
    EXPECT_TRUE(s.is_ok()) << context << ": " << s.message();
    EXPECT_EQ(rescored, gpu[k].score) << context;
    if (q.length(qi) * t.length(k) <= 250000 && shown < 5) {
      const std::string err = dpx::test::check_against_reference(gpu[k], std::string(q.view(qi)), std::string(t.view(k)), m, o);
      if (!err.empty() && shown++ < 5) ADD_FAILURE() << context << ": " << err;
    }
  }
}

const int kLengths[] = {0, 1, 2, 31, 32, 33, 64, 65, 100, 255, 256, 257, 511, 512, 513, 700, 1000, 1023, 1024, 1025, 2500};

TEST(AlignCuda, RandomPairsAllModesBothPairings) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  const ScoreMatrix m = builtin_matrix("blosum62");
  std::uniform_int_distribution<int> pick(0, sizeof(kLengths) / sizeof(kLengths[0]) - 1);
  for (bool traceback : {false, true}) {
    for (AlignMode mode : {AlignMode::kLocal, AlignMode::kGlobal, AlignMode::kSemiGlobal}) {
      SequenceBatch q, t, one;
      const std::string query = dpx::test::random_sequence(rng, 400, m.letters());
      one.add(query);
      for (int k = 0; k < 160; ++k) {
        const std::string a = dpx::test::random_sequence(rng, kLengths[pick(rng)], m.letters());
        std::string b = dpx::test::random_sequence(rng, kLengths[pick(rng)], m.letters());
        if (k % 3 == 0 && !a.empty()) b.insert(b.size() / 2, a.substr(0, a.size() * 2 / 3));  // related pairs
        if (k % 4 == 1) b.insert(b.size() / 3, query.substr(k % 100, 150));
        q.add(a);
        t.add(b);
      }
      const AlignOptions o = align_options(mode, 11, 1, traceback);
      expect_gpu_equals_cpu(q, t, Pairing::kPairwise, m, o);
      expect_gpu_equals_cpu(one, t, Pairing::kOneToMany, m, o);
    }
  }
}

TEST(AlignCuda, RandomMatricesAndGapCosts) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  std::uniform_int_distribution<int> len(0, 1300), gap(0, 30);
  for (int rep = 0; rep < 12; ++rep) {
    const std::string letters = std::string("ACDEFGHIKLMNPQRSTVWYBZOUJ0123456789").substr(0, rep % 4 == 3 ? 31 : 4 + 2 * rep);
    const ScoreMatrix m = dpx::test::random_matrix(rng, letters, rep % 3 == 2 ? -128 : -7, rep % 3 == 2 ? 127 : 8);
    const int extend = gap(rng) / 3;
    const AlignOptions o = align_options(static_cast<AlignMode>(rep % 3), extend + gap(rng), extend, rep % 2 == 1);
    SequenceBatch q, t, one;
    one.add(dpx::test::random_sequence(rng, len(rng), letters));
    for (int k = 0; k < 40; ++k) {
      q.add(dpx::test::random_sequence(rng, len(rng), letters));
      t.add(dpx::test::random_sequence(rng, len(rng), letters));
    }
    expect_gpu_equals_cpu(q, t, Pairing::kPairwise, m, o);
    expect_gpu_equals_cpu(one, t, Pairing::kOneToMany, m, o);
  }
}

TEST(AlignCuda, DnaMatchMismatch) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  ScoreMatrix m;
  ASSERT_TRUE(ScoreMatrix::dna(2, -3, &m).is_ok());
  SequenceBatch q, t;
  for (int k = 0; k < 100; ++k) {
    const std::string read = dpx::test::random_sequence(rng, 150, "ACGT");
    q.add(read);
    t.add(dpx::test::random_sequence(rng, 200, "ACGT") + read + dpx::test::random_sequence(rng, 300, "ACGTN"));
  }
  for (AlignMode mode : {AlignMode::kLocal, AlignMode::kSemiGlobal})
    for (bool traceback : {false, true}) expect_gpu_equals_cpu(q, t, Pairing::kPairwise, m, align_options(mode, 5, 2, traceback));
}

// Long pairs, and scores the packed 16-bit lanes cannot hold: local pairs must come back for the
// 32-bit rerun, non-local ones run in 32 bits from the start.
TEST(AlignCuda, LongPairsAndScoresBeyondSixteenBits) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  const ScoreMatrix m = builtin_matrix("blosum62");
  const std::string x = dpx::test::random_sequence(rng, 10000, m.letters());
  std::string y = x;
  std::uniform_int_distribution<std::size_t> where(0, y.size() - 1);
  for (int k = 0; k < 400; ++k) y[where(rng)] = 'G';
  for (int k = 0; k < 30; ++k) y.erase(where(rng) % y.size(), 1 + k % 5);
  SequenceBatch q, t;
  q.add(x);
  t.add(x);  // identical: local score ~ 53000
  q.add(x);
  t.add(y);
  q.add(std::string(3100, 'W'));
  t.add(std::string(3100, 'W'));  // 34100
  q.add(std::string(2978, 'W'));
  t.add(std::string(2978, 'W'));  // 32758: the largest a 16-bit lane keeps
  q.add(dpx::test::random_sequence(rng, 10000, m.letters()));
  t.add(dpx::test::random_sequence(rng, 3000, m.letters()));
  for (AlignMode mode : {AlignMode::kLocal, AlignMode::kGlobal, AlignMode::kSemiGlobal}) {
    expect_gpu_equals_cpu(q, t, Pairing::kPairwise, m, align_options(mode, 11, 1, false));
    expect_gpu_equals_cpu(q, t, Pairing::kPairwise, m, align_options(mode, 11, 1, true));
  }
}

// Equal best scores in different passes (on the device, passes of a traceback slot are different
// warps, merged at the last): the end is the smaller query row, as on the CPU.
TEST(AlignCuda, EqualBestScoresAcrossPasses) {
  DPX_REQUIRE_GPU();
  const ScoreMatrix m = builtin_matrix("blosum62");
  const dpx::test::QueryTarget pair = dpx::test::equal_best_scores_across_passes();
  SequenceBatch q, t, one;
  for (int k = 0; k < 3; ++k) {
    q.add(pair.query);
    t.add(pair.target);
  }
  one.add(pair.query);
  for (bool traceback : {false, true}) {
    expect_gpu_equals_cpu(q, t, Pairing::kPairwise, m, align_options(AlignMode::kLocal, 11, 1, traceback));
    expect_gpu_equals_cpu(one, t, Pairing::kOneToMany, m, align_options(AlignMode::kLocal, 11, 1, traceback));
  }
}

// A user matrix at the top of the score range: 127 per match overflows the 16-bit lanes after 258
// letters, so most of these local pairs come back for the 32-bit rerun, one to many and pairwise.
TEST(AlignCuda, HighScoringMatrixOverflowsIntoTheRerun) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  ScoreMatrix m;
  ASSERT_TRUE(ScoreMatrix::dna(127, -128, &m).is_ok());
  const std::string x = dpx::test::random_sequence(rng, 2000, "ACGT");
  SequenceBatch one, q, t;
  one.add(x);
  for (std::size_t len : {1, 31, 32, 33, 200, 257, 258, 259, 300, 1024, 2000}) {
    q.add(x.substr(0, len));
    t.add(x.substr(0, len));
  }
  for (int k = 0; k < 40; ++k) {
    const std::size_t at = rng() % 1500, len = 1 + rng() % 500;
    q.add(x.substr(at, len));
    t.add(dpx::test::random_sequence(rng, 50, "ACGT") + x.substr(at, len));
  }
  expect_gpu_equals_cpu(q, t, Pairing::kPairwise, m, align_options(AlignMode::kLocal, 200, 50, false));
  expect_gpu_equals_cpu(one, t, Pairing::kOneToMany, m, align_options(AlignMode::kLocal, 200, 50, false));
  AlignOptions scan = align_options(AlignMode::kLocal, 200, 50, false);
  scan.score_only = true;  // the database scan's lanes go to the same rerun
  expect_gpu_equals_cpu(one, t, Pairing::kOneToMany, m, scan);
}

// More scan lanes go to the 32-bit rerun than one round of its groups holds (a few thousand a GPU):
// the rerun's warps take fixed shares of them, whatever counter the scan's launches claimed from.
TEST(AlignCuda, DatabaseScanRerunsMoreLanesThanOneRoundHolds) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  ScoreMatrix m;
  ASSERT_TRUE(ScoreMatrix::dna(127, -128, &m).is_ok());
  const std::string x = dpx::test::random_sequence(rng, 600, "ACGT");
  SequenceBatch one, t;
  one.add(x);
  for (int k = 0; k < 12000; ++k) {  // 270+ matching letters score past 32,767: every lane reruns
    const std::size_t len = 270 + rng() % 131, at = rng() % (x.size() - len + 1);
    t.add(dpx::test::random_sequence(rng, rng() % 40, "ACGT") + x.substr(at, len));
  }
  AlignOptions o = align_options(AlignMode::kLocal, 200, 50, false);
  o.score_only = true;
  expect_gpu_equals_cpu(one, t, Pairing::kOneToMany, m, o);
}

// The database scan (local, score only, one query against many targets) on every shape: target
// lengths across all widths and past the widest (passes), queries from one letter to thousands,
// the query planted in some targets, across pass boundaries.
TEST(AlignCuda, DatabaseScanEqualsCpu) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  const ScoreMatrix m = builtin_matrix("blosum62");
  std::uniform_int_distribution<int> short_len(0, 1100), long_len(1100, 4000);
  for (int n : {1, 31, 32, 33, 300, 1500, 5000}) {
    SequenceBatch one, t;
    const std::string query = dpx::test::random_sequence(rng, n, m.letters());
    one.add(query);
    for (int k = 0; k < 1500; ++k) {
      const int len = k % 20 == 0 ? long_len(rng) : short_len(rng);
      std::string s = dpx::test::random_sequence(rng, len, m.letters());
      const int at = k % 3 == 0 ? len / 2 : 704 - n / 2;
      if (k % 5 == 0 && at >= 0 && at + n <= len) s.replace(static_cast<std::size_t>(at), query.size(), query);
      t.add(s);
    }
    for (int extend : {1, 3}) {
      AlignOptions o = align_options(AlignMode::kLocal, 11, extend, false);
      o.score_only = true;
      expect_gpu_equals_cpu(one, t, Pairing::kOneToMany, m, o);
    }
  }
}

TEST(AlignCuda, SequencesAtTheLengthLimit) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  const ScoreMatrix m = builtin_matrix("blosum62");
  SequenceBatch one, t;
  one.add(dpx::test::random_sequence(rng, dpx::kAlignMaxLength, m.letters()));
  t.add(dpx::test::random_sequence(rng, 300, m.letters()));
  t.add(std::string(one.view(0).substr(30000, 250)));
  for (AlignMode mode : {AlignMode::kLocal, AlignMode::kGlobal, AlignMode::kSemiGlobal})
    for (bool traceback : {false, true})
      expect_gpu_equals_cpu(one, t, Pairing::kOneToMany, m, align_options(mode, 11, 1, traceback));
}

TEST(AlignCuda, EmptyBatchesAndSequences) {
  DPX_REQUIRE_GPU();
  const ScoreMatrix m = builtin_matrix("blosum62");
  SequenceBatch q, t;
  std::vector<AlignResult> out(3);
  ASSERT_TRUE(dpx::align_cuda(q, t, Pairing::kPairwise, m, AlignOptions{}, &out, nullptr).is_ok());
  EXPECT_TRUE(out.empty());
  for (const char* a : {"", "A", "WWW"}) {
    for (const char* b : {"", "C", "WW"}) {
      q.add(a);
      t.add(b);
    }
  }
  for (AlignMode mode : {AlignMode::kLocal, AlignMode::kGlobal, AlignMode::kSemiGlobal})
    for (bool traceback : {false, true}) expect_gpu_equals_cpu(q, t, Pairing::kPairwise, m, align_options(mode, 4, 1, traceback));
}

TEST(AlignCuda, BadInputGetsAClearStatus) {
  const ScoreMatrix m = builtin_matrix("blosum62");
  SequenceBatch two, three, too_long;
  two.add("AC");
  two.add("DE");
  three.add("A");
  three.add("C");
  three.add("D");
  too_long.add(std::string(dpx::kAlignMaxLength + 1, 'A'));
  std::vector<AlignResult> out;
  dpx::Status s = dpx::align_cuda(two, three, Pairing::kPairwise, m, AlignOptions{}, &out, nullptr);
  EXPECT_EQ(s.code(), dpx::StatusCode::kInvalidArgument);
  s = dpx::align_cuda(three, too_long, Pairing::kPairwise, m, AlignOptions{}, &out, nullptr);
  EXPECT_EQ(s.code(), dpx::StatusCode::kInvalidArgument);
  s = dpx::align_cuda(two, too_long, Pairing::kOneToMany, m, AlignOptions{}, &out, nullptr);
  EXPECT_NE(s.message().find("exactly one query"), std::string::npos) << s.message();
  AlignOptions bad;
  bad.gap_open = 1;
  bad.gap_extend = 3;
  s = dpx::align_cuda(two, two, Pairing::kPairwise, m, bad, &out, nullptr);
  EXPECT_NE(s.message().find("gap costs"), std::string::npos) << s.message();
  dpx::AlignPlan plan;
  dpx::DeviceSequenceBatch dq, dt;
  dpx::DeviceAlignResults results;
  EXPECT_FALSE(plan.run(dq, dt, &results, nullptr).is_ok());  // never created
  if (!dpx::test::gpu_available()) return;
  ASSERT_TRUE(plan.create(two, two, Pairing::kPairwise, m, AlignOptions{}, nullptr).is_ok());
  ASSERT_TRUE(dq.upload(three, nullptr).is_ok());
  ASSERT_TRUE(dt.upload(three, nullptr).is_ok());
  s = plan.run(dq, dt, &results, nullptr);
  EXPECT_NE(s.message().find("made for 2 queries"), std::string::npos) << s.message();
}

// One target set against queries of changing lengths (each length change re-plans the query
// side): every query's results and scores equal the CPU's; a failed query leaves the aligner usable.
TEST(AlignCuda, OneToManyAlignerEqualsCpuQueryAfterQuery) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  const ScoreMatrix m = builtin_matrix("blosum62");
  std::uniform_int_distribution<int> pick(0, sizeof(kLengths) / sizeof(kLengths[0]) - 1);
  SequenceBatch targets;
  for (int k = 0; k < 3000; ++k) targets.add(dpx::test::random_sequence(rng, kLengths[pick(rng)] % 600, m.letters()));
  for (bool traceback : {false, true}) {
    for (AlignMode mode : {AlignMode::kLocal, AlignMode::kGlobal, AlignMode::kSemiGlobal}) {
      const AlignOptions o = align_options(mode, 11, 1, traceback);
      OneToManyAligner aligner(targets, m, o);
      for (int length : {300, 300, 1, 33, 0, 1025, 300}) {
        SequenceBatch query;
        query.add(dpx::test::random_sequence(rng, length, m.letters()));
        const std::string context = std::string(align_mode_name(mode)) + (traceback ? " traceback" : "") +
                                    " query length " + std::to_string(length);
        std::vector<AlignResult> cpu, gpu(5, AlignResult{-777, -7, -7, -7, -7, "poison"});
        ASSERT_TRUE(align_cpu(query, targets, Pairing::kOneToMany, m, o, &cpu).is_ok()) << context;
        const Status a = aligner.align(query, &gpu);
        ASSERT_TRUE(a.is_ok()) << context << ": " << a.message();
        ASSERT_EQ(gpu.size(), cpu.size()) << context;
        std::vector<std::int32_t> scores(7, -777);
        const Status b = aligner.scores(query, &scores);
        ASSERT_TRUE(b.is_ok()) << context << ": " << b.message();
        ASSERT_EQ(scores.size(), cpu.size()) << context;
        int shown = 0;
        for (std::size_t k = 0; k < cpu.size(); ++k) {
          if (dpx::test::describe(cpu[k]) != dpx::test::describe(gpu[k]) && shown++ < 5)
            ADD_FAILURE() << context << " target " << k << "\n  cpu " << dpx::test::describe(cpu[k]) << "\n  gpu "
                          << dpx::test::describe(gpu[k]);
          if (scores[k] != cpu[k].score && shown++ < 5)
            ADD_FAILURE() << context << " target " << k << ": score " << scores[k] << ", cpu " << cpu[k].score;
        }
      }
      SequenceBatch two;
      two.add("MKV");
      two.add("MKV");
      std::vector<AlignResult> out;
      EXPECT_EQ(aligner.align(two, &out).code(), StatusCode::kInvalidArgument);
      SequenceBatch again;
      again.add("HEAGAWGHEE");
      std::vector<AlignResult> cpu;
      ASSERT_TRUE(align_cpu(again, targets, Pairing::kOneToMany, m, o, &cpu).is_ok());
      ASSERT_TRUE(aligner.align(again, &out).is_ok()) << "usable after a refused call";
      ASSERT_EQ(out.size(), cpu.size());
      for (std::size_t k = 0; k < cpu.size(); ++k) ASSERT_EQ(dpx::test::describe(out[k]), dpx::test::describe(cpu[k]));
    }
  }
}

// A database of many more slots than the scan's first round of groups (132 SMs x 2 blocks x 32
// groups = 8,448 on an H100): past that round the warps claim their batches one at a time. Three
// queries in turn through one aligner, so a batch left out would keep what the results held before
// (the previous query's scores) against the CPU's.
TEST(AlignCuda, DatabaseScanClaimsEveryBatchPastTheFirstRound) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  const ScoreMatrix m = builtin_matrix("blosum62");
  std::uniform_int_distribution<int> short_len(1, 200), long_len(200, 1500);
  SequenceBatch targets;
  for (int k = 0; k < 60000; ++k)
    targets.add(dpx::test::random_sequence(rng, k % 25 == 0 ? long_len(rng) : short_len(rng), m.letters()));
  AlignOptions o = align_options(AlignMode::kLocal, 11, 1, false);
  o.score_only = true;
  OneToManyAligner aligner(targets, m, o);
  for (int length : {130, 48, 130}) {
    SequenceBatch query;
    query.add(dpx::test::random_sequence(rng, length, m.letters()));
    std::vector<AlignResult> cpu;
    ASSERT_TRUE(align_cpu(query, targets, Pairing::kOneToMany, m, o, &cpu).is_ok());
    std::vector<std::int32_t> scores(targets.size(), -777);
    const Status s = aligner.scores(query, &scores);
    ASSERT_TRUE(s.is_ok()) << s.message();
    ASSERT_EQ(scores.size(), cpu.size());
    int wrong = 0;
    for (std::size_t k = 0; k < cpu.size(); ++k) {
      if (scores[k] != cpu[k].score && wrong++ < 5)
        ADD_FAILURE() << "query length " << length << " target " << k << " (length " << targets.length(k)
                      << "): score " << scores[k] << ", cpu " << cpu[k].score;
    }
    EXPECT_EQ(wrong, 0) << "query length " << length;
  }
}

TEST(AlignCuda, AutoBackendAgreesWithTheCpu) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  const ScoreMatrix m = builtin_matrix("blosum80");
  SequenceBatch q, t;
  for (int k = 0; k < 50; ++k) {
    q.add(dpx::test::random_sequence(rng, 50 + k, m.letters()));
    t.add(dpx::test::random_sequence(rng, 80 + 3 * k, m.letters()));
  }
  std::vector<AlignResult> a, b;
  const AlignOptions o = align_options(AlignMode::kLocal, 10, 1, true);
  ASSERT_TRUE(dpx::align_batch(dpx::Backend::kAuto, q, t, Pairing::kPairwise, m, o, &a).is_ok());
  ASSERT_TRUE(dpx::align_batch(dpx::Backend::kCpu, q, t, Pairing::kPairwise, m, o, &b).is_ok());
  for (std::size_t k = 0; k < a.size(); ++k) EXPECT_EQ(dpx::test::describe(a[k]), dpx::test::describe(b[k]));
}

}  // namespace
}  // namespace dpx
