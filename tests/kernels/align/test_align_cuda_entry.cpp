// The CUDA entry points of the alignment families in every build: arguments are checked first
// (the same refusals with or without CUDA), then, in a build without CUDA, each call says so as
// "<call>: libdpx was built without CUDA support" (kNotBuilt).
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "dpx/align.h"
#include "dpx/align_distance.h"
#include "dpx/device.h"
#include "test_util.h"

namespace dpx {
namespace {

struct EntryPoint {
  std::string what;
  std::function<Status()> invalid;  // refused by the argument checks
  std::function<Status()> valid;    // passes them
};

std::vector<EntryPoint> entry_points() {
  static SequenceBatch queries, targets;
  static SeriesBatch series_a, series_b;
  static FloatSeriesBatch float_a, float_b;
  static ScoreMatrix matrix;
  if (queries.size() == 0) {
    queries.add("HEAGAWGHEE");
    targets.add("PAWHEAE");
    const std::int32_t values[] = {1, 5, 2};
    series_a.add(values, 3);
    series_b.add(values, 2);
    const float floats[] = {0.5f, 1.5f};
    float_a.add(floats, 2);
    float_b.add(floats, 1);
    ScoreMatrix::builtin("blosum62", &matrix);
  }
  static std::vector<EditResult> edits;
  static std::vector<DtwResult> dtws;
  static std::vector<float> float_costs;
  static std::vector<AlignResult> aligned;
  static std::vector<std::int32_t> scores;
  static SequenceBatch one_query, two_queries;
  if (one_query.size() == 0) {
    one_query.add("HEAGAWGHEE");
    two_queries.add("HEAGAWGHEE");
    two_queries.add("PAW");
  }
  static DeviceSequenceBatch dq, dt;
  static DeviceSeriesBatch da, db;
  static DeviceFloatSeriesBatch dfa, dfb;
  AlignOptions bad_gaps;
  bad_gaps.gap_extend = bad_gaps.gap_open + 1;
  DtwOptions bad_band;
  bad_band.band = -2;
  DtwFloatOptions bad_cost;
  bad_cost.cost = static_cast<DtwCost>(7);
  DtwFloatOptions bad_float_band;
  bad_float_band.band = -2;
  const Pairing one = Pairing::kPairwise;
  return {
      {"edit_distance_cuda", [=] { return edit_distance_cuda(queries, targets, one, {}, nullptr, nullptr); },
       [=] { return edit_distance_cuda(queries, targets, one, {}, &edits, nullptr); }},
      {"edit_distance_cuda_async",
       [=] { return edit_distance_cuda_async(dq, dt, one, kAlignDistanceMaxLength + 1, nullptr, nullptr); },
       [=] { return edit_distance_cuda_async(dq, dt, one, 10, nullptr, nullptr); }},
      {"dtw_cuda", [=] { return dtw_cuda(series_a, series_b, one, bad_band, &dtws, nullptr); },
       [=] { return dtw_cuda(series_a, series_b, one, {}, &dtws, nullptr); }},
      {"dtw_cuda_async", [=] { return dtw_cuda_async(da, db, one, bad_band, 10, nullptr, nullptr); },
       [=] { return dtw_cuda_async(da, db, one, {}, 10, nullptr, nullptr); }},
      {"dtw_float_cuda", [=] { return dtw_float_cuda(float_a, float_b, one, bad_cost, &float_costs, nullptr); },
       [=] { return dtw_float_cuda(float_a, float_b, one, {}, &float_costs, nullptr); }},
      {"dtw_float_cuda_async", [=] { return dtw_float_cuda_async(dfa, dfb, one, bad_float_band, 10, nullptr, nullptr); },
       [=] { return dtw_float_cuda_async(dfa, dfb, one, {}, 10, nullptr, nullptr); }},
      {"align_cuda", [=] { return align_cuda(queries, targets, one, matrix, {}, nullptr, nullptr); },
       [=] { return align_cuda(queries, targets, one, matrix, {}, &aligned, nullptr); }},
      {"AlignPlan::create",
       [=] {
         AlignPlan plan;
         return plan.create(queries, targets, one, matrix, bad_gaps, nullptr);
       },
       [=] {
         AlignPlan plan;
         return plan.create(queries, targets, one, matrix, {}, nullptr);
       }},
      {"DeviceAlignResults::download", [] { return DeviceAlignResults().download(nullptr, nullptr); },
       [] { return DeviceAlignResults().download(&aligned, nullptr); }},
      {"OneToManyAligner::align", [=] { return OneToManyAligner(targets, matrix, {}).align(two_queries, &aligned); },
       [=] { return OneToManyAligner(targets, matrix, {}).align(one_query, &aligned); }},
      {"OneToManyAligner::scores", [=] { return OneToManyAligner(targets, matrix, {}).scores(one_query, nullptr); },
       [=] { return OneToManyAligner(targets, matrix, {}).scores(one_query, &scores); }},
  };
}

TEST(AlignCudaEntry, ArgumentsAreCheckedFirst) {
  for (const EntryPoint& e : entry_points()) {
    const Status s = e.invalid();
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << e.what << ": " << s.message();
    EXPECT_EQ(s.message().rfind(e.what + ":", 0), 0u) << e.what << ": " << s.message();
  }
}

TEST(AlignCudaEntry, WithoutCudaEveryCallSaysSo) {
  if (cuda_built()) GTEST_SKIP() << DPX_ONLY_WITHOUT_CUDA "built with CUDA";
  for (const EntryPoint& e : entry_points()) {
    const Status s = e.valid();
    EXPECT_EQ(s.code(), StatusCode::kNotBuilt) << e.what << ": " << s.message();
    EXPECT_EQ(s.message(), e.what + ": libdpx was built without CUDA support");
  }
}

}  // namespace
}  // namespace dpx
