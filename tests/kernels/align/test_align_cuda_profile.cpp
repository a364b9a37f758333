// The database scan with the query profile (variants::ProfileScan) on the device against the CPU,
// score by score, on profile_scan_cases: every profile shape in one pass and in several, targets
// from empty up, every letter, random matrices, the 16-bit limit and its rerun. Each case runs after another
// query's scores were left in the same results, so a score the kernel did not write shows. Skipped
// where no CUDA device is.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "align_reference.h"
#include "dpx/align.h"
#include "scan_cases.h"
#include "test_util.h"

#if DPX_HAVE_CUDA
#include "align/common/align_variants.h"
#include "align/sw/sw_scan_profile.h"
#endif

namespace dpx {
namespace {

TEST(AlignCudaProfileScan, SameScoresAsCpu) {
  DPX_REQUIRE_GPU();
#if DPX_HAVE_CUDA
  auto rng = test::seeded_rng();
  Stream stream;
  ASSERT_TRUE(stream.create().is_ok());
  variants::ProfileScan scan;
  for (const test::ScanCase& c : test::profile_scan_cases(rng)) {
    const ScoreMatrix& m = c.matrix;
    const std::int32_t n = static_cast<std::int32_t>(c.query.length(0));
    ASSERT_TRUE(align::profile_scan_fits(m.size() + 1, n)) << "n=" << n << " would not take the profile";
    std::vector<AlignResult> cpu;
    ASSERT_TRUE(align_cpu(c.query, c.targets, Pairing::kOneToMany, m, c.options, &cpu).is_ok());
    // another query first, its scores left in `out`
    SequenceBatch other;
    other.add(test::random_sequence(rng, static_cast<std::size_t>(n), m.letters()));
    DeviceSequenceBatch dq, dt, dother;
    ASSERT_TRUE(dt.upload(c.targets, stream.get()).is_ok());
    ASSERT_TRUE(dq.upload(c.query, stream.get()).is_ok());
    ASSERT_TRUE(dother.upload(other, stream.get()).is_ok());
    AlignPlan plan;
    ASSERT_TRUE(plan.create(other, c.targets, Pairing::kOneToMany, m, c.options, stream.get()).is_ok());
    DeviceAlignResults out;
    std::vector<std::int32_t> scores;
    ASSERT_TRUE(scan.run(plan, dother, dt, &out, stream.get()).is_ok());
    ASSERT_TRUE(plan.set_query(c.query, stream.get()).is_ok());
    const Status run = scan.run(plan, dq, dt, &out, stream.get());
    ASSERT_TRUE(run.is_ok()) << run.message();
    ASSERT_TRUE(out.download_scores(&scores, stream.get()).is_ok());
    ASSERT_EQ(scores.size(), cpu.size());
    int shown = 0;
    for (std::size_t k = 0; k < cpu.size(); ++k) {
      if (scores[k] != cpu[k].score && shown++ < 5)
        ADD_FAILURE() << "n=" << n << " target " << k << " (m=" << c.targets.length(k) << "): gpu "
                      << scores[k] << ", cpu " << cpu[k].score;
    }
  }
#endif
}

}  // namespace
}  // namespace dpx
