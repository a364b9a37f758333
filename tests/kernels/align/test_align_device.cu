// The device-batch form: a plan run twice on a non-blocking stream, the results buffer poisoned in
// between, so a pair the kernels forget to write shows.
#include <gtest/gtest.h>

#include "align/sw/align_cuda_plan.h"
#include "align_reference.h"
#include "cuda_check.h"
#include "dpx/align.h"
#include "test_util.h"

namespace {

TEST(AlignDevice, PlanRunsAgainWithEveryPairWritten) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  const dpx::ScoreMatrix m = dpx::test::builtin_matrix("blosum62");
  dpx::SequenceBatch q, t;
  std::uniform_int_distribution<int> len(0, 1500);
  for (int k = 0; k < 300; ++k) {
    q.add(dpx::test::random_sequence(rng, len(rng), m.letters()));
    t.add(dpx::test::random_sequence(rng, len(rng), m.letters()));
  }
  dpx::Stream stream;
  ASSERT_TRUE(stream.create().is_ok());
  for (dpx::AlignMode mode : {dpx::AlignMode::kLocal, dpx::AlignMode::kGlobal}) {
    for (bool traceback : {false, true}) {
      const dpx::AlignOptions o = dpx::test::align_options(mode, 11, 1, traceback);
      std::vector<dpx::AlignResult> cpu, gpu;
      ASSERT_TRUE(dpx::align_cpu(q, t, dpx::Pairing::kPairwise, m, o, &cpu).is_ok());
      dpx::AlignPlan plan;
      ASSERT_TRUE(plan.create(q, t, dpx::Pairing::kPairwise, m, o, stream.get()).is_ok());
      EXPECT_EQ(plan.pairs(), 300u);
      dpx::DeviceSequenceBatch dq, dt;
      ASSERT_TRUE(dq.upload(q, stream.get()).is_ok());
      ASSERT_TRUE(dt.upload(t, stream.get()).is_ok());
      dpx::DeviceAlignResults results;
      ASSERT_TRUE(plan.run(dq, dt, &results, stream.get()).is_ok());
      dpx::DeviceBuffer& fields = dpx::DeviceAlignResultsAccess::fields(results);
      ASSERT_EQ(cudaMemsetAsync(fields.data(), dpx::test::kPoisonByte, fields.size(), stream.get()), cudaSuccess);
      ASSERT_TRUE(plan.run(dq, dt, &results, stream.get()).is_ok());
      ASSERT_TRUE(results.download(&gpu, stream.get()).is_ok());
      ASSERT_EQ(gpu.size(), cpu.size());
      for (std::size_t k = 0; k < cpu.size(); ++k)
        EXPECT_EQ(dpx::test::describe(gpu[k]), dpx::test::describe(cpu[k])) << k << " " << dpx::align_mode_name(mode);
    }
  }
}

// A device batch whose lengths differ from the plan's: refused per pair, reported by download().
TEST(AlignDevice, BatchesOtherThanPlannedAreRefused) {
  DPX_REQUIRE_GPU();
  auto rng = dpx::test::seeded_rng();
  const dpx::ScoreMatrix m = dpx::test::builtin_matrix("blosum62");
  dpx::SequenceBatch q, t, longer;
  for (int k = 0; k < 20; ++k) {
    q.add(dpx::test::random_sequence(rng, 100, m.letters()));
    t.add(dpx::test::random_sequence(rng, 300, m.letters()));
    longer.add(dpx::test::random_sequence(rng, k == 7 ? 3000 : 300, m.letters()));
  }
  for (bool traceback : {false, true}) {
    dpx::AlignPlan plan;
    ASSERT_TRUE(plan.create(q, t, dpx::Pairing::kPairwise, m, dpx::test::align_options(dpx::AlignMode::kLocal, 11, 1, traceback),
                            nullptr).is_ok());
    dpx::DeviceSequenceBatch dq, dt;
    ASSERT_TRUE(dq.upload(q, nullptr).is_ok());
    ASSERT_TRUE(dt.upload(longer, nullptr).is_ok());
    dpx::DeviceAlignResults results;
    ASSERT_TRUE(plan.run(dq, dt, &results, nullptr).is_ok());
    std::vector<dpx::AlignResult> out;
    const dpx::Status s = results.download(&out, nullptr);
    EXPECT_EQ(s.code(), dpx::StatusCode::kInvalidArgument);
    EXPECT_NE(s.message().find("pair 7"), std::string::npos) << s.message();
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);  // and no fault on the device
  }
}

}  // namespace
