// Batch sizes the int32 pair indices of the alignment plan cannot hold are refused with a Status
// (checked on the counting function: such a batch itself would need gigabytes).
#include <gtest/gtest.h>

#include <climits>
#include <cstdint>

#include "align/sw/sw_common.h"

namespace dpx {
namespace {

TEST(AlignLimits, PairCountsPastInt32IndicesAreRefused) {
  EXPECT_TRUE(align::check_pair_count(0, "t").is_ok());
  EXPECT_TRUE(align::check_pair_count(align::kAlignMaxPairs, "t").is_ok());
  // Every pair's lengths sit at 2 * pair and 2 * pair + 1 of an int32-indexed table.
  EXPECT_LE(2 * static_cast<std::int64_t>(align::kAlignMaxPairs) + 1, INT32_MAX);
  for (const std::size_t pairs : {align::kAlignMaxPairs + 1, static_cast<std::size_t>(INT32_MAX) + 1,
                                  static_cast<std::size_t>(UINT32_MAX) + 7, SIZE_MAX}) {
    const Status s = align::check_pair_count(pairs, "align_cuda");
    EXPECT_EQ(s.code(), StatusCode::kUnsupported) << pairs;
    EXPECT_NE(s.message().find("align_cuda: " + std::to_string(pairs) + " pairs"), std::string::npos) << s.message();
  }
}

}  // namespace
}  // namespace dpx
