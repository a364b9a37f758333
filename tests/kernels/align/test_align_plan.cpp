// AlignPlan's lifecycle: a create() that fails leaves the plan empty, and an empty plan refuses
// to run. Runs in every build: without CUDA (or without a device) create() fails by itself.
#include <gtest/gtest.h>

#include "dpx/align.h"

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
    GTEST_SKIP() << "create succeeded on this machine; the invalid-input test covers the failure";
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

}  // namespace
}  // namespace dpx
