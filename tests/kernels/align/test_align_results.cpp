// DeviceAlignResults' host side: results come back whole or not at all.
#include <gtest/gtest.h>

#include "align/sw/align_results.h"

namespace dpx {
namespace {

using align::HostAlignResults;

// Three pairs with CIGARs: "2=", "1=1I", and pair 2 with an empty side ("3D" from the host).
HostAlignResults three_pairs() {
  HostAlignResults in;
  in.count = 3;
  in.fields = {4, 0, 2, 0, 2, /**/ 1, 0, 2, 0, 1, /**/ -5, 0, 0, 0, 3};
  in.traceback = true;
  in.op_offsets = {0, 4, 7, 10};
  in.op_counts = {2, 2, 0};
  in.ops = {'?', '?', '=', '=', '?', '=', 'I', '?', '?', '?'};
  in.fixed_cigars = {{2, "3D"}};
  return in;
}

const std::vector<AlignResult> kPoison = {AlignResult{-777, -7, -7, -7, -7, "poison"}};

void expect_untouched(const std::vector<AlignResult>& out) {
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].score, -777);
  EXPECT_EQ(out[0].cigar, "poison");
}

TEST(AlignResults, AssemblesEveryPair) {
  std::vector<AlignResult> out = kPoison;
  const Status s = align::assemble_results(three_pairs(), &out);
  ASSERT_TRUE(s.is_ok()) << s.message();
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].score, 4);
  EXPECT_EQ(out[0].cigar, "2=");
  EXPECT_EQ(out[1].target_end, 1);
  EXPECT_EQ(out[1].cigar, "1=1I");
  EXPECT_EQ(out[2].score, -5);
  EXPECT_EQ(out[2].cigar, "3D");
}

// A refused pair after good ones: an error, and the caller's vector as it was.
TEST(AlignResults, RefusedPairLeavesOutputUntouched) {
  HostAlignResults in = three_pairs();
  in.fields[2 * 5] = align::kRefusedScore;
  std::vector<AlignResult> out = kPoison;
  const Status s = align::assemble_results(in, &out);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("pair 2"), std::string::npos) << s.message();
  expect_untouched(out);
}

TEST(AlignResults, CorruptTracebackCountLeavesOutputUntouched) {
  HostAlignResults in = three_pairs();
  in.op_counts[1] = 4;  // more operations than pair 1's room (3)
  std::vector<AlignResult> out = kPoison;
  const Status s = align::assemble_results(in, &out);
  EXPECT_FALSE(s.is_ok());
  expect_untouched(out);
}

}  // namespace
}  // namespace dpx
