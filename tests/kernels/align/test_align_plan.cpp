// AlignPlan's lifecycle: a create() that fails leaves the plan empty, and an empty plan refuses
// to run. Runs in every build: without CUDA (or without a device) create() fails by itself.
#include <gtest/gtest.h>

#include <random>

#include "dpx/align.h"
#include "test_util.h"

namespace dpx {
namespace {

struct PlanInputs {
  SequenceBatch queries, targets;
  ScoreMatrix matrix;
  AlignOptions options;
  PlanInputs() {
    queries.add("HEAGAWGHEE");
    targets.add("PAWHEAE");
    targets.add("HEAGAWGHE");
    ScoreMatrix::builtin("blosum62", &matrix);
  }
};

void expect_empty(AlignPlan& plan) {
  EXPECT_EQ(plan.pairs(), 0u);
  EXPECT_EQ(plan.cells(), 0u);
  DeviceSequenceBatch dq, dt;
  DeviceAlignResults results;
  const Status run = plan.run(dq, dt, &results, nullptr);
  EXPECT_EQ(run.code(), StatusCode::kInvalidArgument) << run.message();
  EXPECT_NE(run.message().find("not created"), std::string::npos) << run.message();
  SequenceBatch query;
  query.add("HEA");
  EXPECT_FALSE(plan.set_query(query, nullptr).is_ok());
}

// Valid input: on a machine with a device the plan is made; where CUDA is missing (not built, no
// device) create fails part way, and nothing of it may remain.
TEST(AlignPlan, FailedCreateLeavesNoHalfBuiltPlan) {
  PlanInputs in;
  AlignPlan plan;
  const Status s = plan.create(in.queries, in.targets, Pairing::kOneToMany, in.matrix, in.options, nullptr);
  if (s.is_ok()) {
    EXPECT_EQ(plan.pairs(), 2u);
    GTEST_SKIP() << DPX_ONLY_WITHOUT_CUDA "create succeeded here; the invalid-input test covers the failure";
  }
  expect_empty(plan);
}

// A failed create replaces whatever the plan held before: it is empty, not the previous plan.
TEST(AlignPlan, FailedCreateOnInvalidInputEmptiesThePlan) {
  PlanInputs in;
  AlignPlan plan;
  (void)plan.create(in.queries, in.targets, Pairing::kOneToMany, in.matrix, in.options, nullptr);
  AlignOptions bad = in.options;
  bad.gap_extend = bad.gap_open + 1;
  const Status s = plan.create(in.queries, in.targets, Pairing::kOneToMany, in.matrix, bad, nullptr);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.message();
  expect_empty(plan);
}

TEST(AlignPlan, SetQueryOnEmptyPlanFails) {
  AlignPlan plan;
  SequenceBatch query;
  query.add("HEA");
  const Status s = plan.set_query(query, nullptr);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("not created"), std::string::npos) << s.message();
}

// One plan, many queries: each set_query() gives what a fresh align_cpu gives, in every mode, with
// and without traceback, and score only, for queries longer, shorter, equal and empty (the
// 16/32-bit split of global pairs moves with the query length; local plans keep their layout).
TEST(AlignPlan, SetQueryMatchesTheCpuForEachQuery) {
  if (!test::gpu_available()) GTEST_SKIP() << "no CUDA device";
  std::mt19937_64 rng = test::seeded_rng();
  ScoreMatrix matrix;
  ScoreMatrix::builtin("blosum62", &matrix);
  auto random_letters = [&](std::size_t n) {
    std::string s(n, 'A');
    for (char& c : s) c = "ARNDCQEGHILKMFPSTWYV"[rng() % 20];
    return s;
  };
  SequenceBatch targets;
  for (int k = 0; k < 300; ++k) targets.add(random_letters(k % 7 == 0 ? 0 : 1 + rng() % (k < 5 ? 4000 : 300)));
  const std::size_t lengths[] = {120, 120, 3, 0, 3500, 57};
  for (AlignMode mode : {AlignMode::kLocal, AlignMode::kGlobal, AlignMode::kSemiGlobal}) {
    for (const char* output : {"ends", "traceback", "score only"}) {
      AlignOptions o;
      o.mode = mode;
      o.traceback = output[0] == 't';
      o.score_only = output[0] == 's';
      AlignPlan plan;
      DeviceSequenceBatch dq, dt;
      DeviceAlignResults results;
      ASSERT_TRUE(dt.upload(targets, nullptr).is_ok());
      for (std::size_t q = 0; q < sizeof(lengths) / sizeof(lengths[0]); ++q) {
        SequenceBatch query;
        query.add(random_letters(lengths[q]));
        const Status planned = q == 0 ? plan.create(query, targets, Pairing::kOneToMany, matrix, o, nullptr)
                                      : plan.set_query(query, nullptr);
        ASSERT_TRUE(planned.is_ok()) << planned.message();
        ASSERT_TRUE(dq.upload(query, nullptr).is_ok());
        ASSERT_TRUE(plan.run(dq, dt, &results, nullptr).is_ok());
        std::vector<AlignResult> gpu, cpu;
        std::vector<std::int32_t> scores(3, -7);  // poisoned: must be replaced whole
        ASSERT_TRUE(results.download(&gpu, nullptr).is_ok());
        ASSERT_TRUE(results.download_scores(&scores, nullptr).is_ok());
        ASSERT_TRUE(align_cpu(query, targets, Pairing::kOneToMany, matrix, o, &cpu).is_ok());
        ASSERT_EQ(gpu.size(), cpu.size());
        ASSERT_EQ(scores.size(), cpu.size());
        for (std::size_t k = 0; k < cpu.size(); ++k) ASSERT_EQ(scores[k], cpu[k].score) << "scores alone, pair " << k;
        for (std::size_t k = 0; k < cpu.size(); ++k) {
          const std::string at = std::string(align_mode_name(mode)) + " " + output + " query " +
                                 std::to_string(q) + " pair " + std::to_string(k);
          ASSERT_EQ(gpu[k].score, cpu[k].score) << at;
          ASSERT_EQ(gpu[k].query_begin, cpu[k].query_begin) << at;
          ASSERT_EQ(gpu[k].query_end, cpu[k].query_end) << at;
          ASSERT_EQ(gpu[k].target_begin, cpu[k].target_begin) << at;
          ASSERT_EQ(gpu[k].target_end, cpu[k].target_end) << at;
          ASSERT_EQ(gpu[k].cigar, cpu[k].cigar) << at;
        }
      }
    }
  }
}

// A plan refuses device batches whose query is not the one it was pointed at.
TEST(AlignPlan, RunAfterSetQueryRefusesTheOldQuery) {
  if (!test::gpu_available()) GTEST_SKIP() << "no CUDA device";
  PlanInputs in;
  AlignPlan plan;
  ASSERT_TRUE(plan.create(in.queries, in.targets, Pairing::kOneToMany, in.matrix, in.options, nullptr).is_ok());
  SequenceBatch longer;
  longer.add("HEAGAWGHEEHEAGAWGHEE");
  ASSERT_TRUE(plan.set_query(longer, nullptr).is_ok());
  DeviceSequenceBatch dq, dt;
  ASSERT_TRUE(dq.upload(in.queries, nullptr).is_ok());
  ASSERT_TRUE(dt.upload(in.targets, nullptr).is_ok());
  DeviceAlignResults results;
  ASSERT_TRUE(plan.run(dq, dt, &results, nullptr).is_ok());
  std::vector<AlignResult> out;
  EXPECT_EQ(results.download(&out, nullptr).code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(out.empty());
  std::vector<std::int32_t> scores;
  EXPECT_EQ(results.download_scores(&scores, nullptr).code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(scores.empty());
}

}  // namespace
}  // namespace dpx
