// The portable definitions in dpx_ops.cuh against hand-worked cases: these are what the CPU
// twins compute, and what the device tests hold the DPX instructions to.
#include <gtest/gtest.h>

#include "dpx_ops.cuh"

namespace {

using dpx::ops::Plain;
using dpx::ops::lanes::pack;

TEST(DpxOpsHost, BminPredicateIsTrueWhenFirstOperandWinsTiesIncluded) {
  bool p = false;
  EXPECT_EQ(Plain::bmin_s32(3, 5, &p), 3);
  EXPECT_TRUE(p);
  EXPECT_EQ(Plain::bmin_s32(5, 3, &p), 3);
  EXPECT_FALSE(p);
  EXPECT_EQ(Plain::bmin_s32(4, 4, &p), 4);
  EXPECT_TRUE(p);
  EXPECT_EQ(Plain::bmax_s32(-1, -1, &p), -1);
  EXPECT_TRUE(p);
  EXPECT_EQ(Plain::bmax_s32(-2, 7, &p), 7);
  EXPECT_FALSE(p);
  EXPECT_EQ(Plain::bmin_u32(0xFFFFFFFFu, 1u, &p), 1u);  // unsigned compare
  EXPECT_FALSE(p);
}

TEST(DpxOpsHost, Max3S16x2ReluWorksPerLaneThenClamps) {
  // lane0: max(-5, -7, -1) = -1 -> 0; lane1: max(100, -3, 20) = 100
  const std::uint32_t a = pack(-5, 100), b = pack(-7, -3), c = pack(-1, 20);
  EXPECT_EQ(Plain::max3_s16x2_relu(a, b, c), pack(0, 100));
  EXPECT_EQ(Plain::max3_s16x2(a, b, c), pack(-1, 100));
  EXPECT_EQ(Plain::min3_s16x2(a, b, c), pack(-7, -3));
}

TEST(DpxOpsHost, TwoOperandS16x2MaxMinArePerLaneAndSigned) {
  const std::uint32_t a = pack(-32768, 7), b = pack(32767, -7);
  EXPECT_EQ(Plain::max_s16x2(a, b), pack(32767, 7));
  EXPECT_EQ(Plain::min_s16x2(a, b), pack(-32768, -7));
  EXPECT_EQ(Plain::max_s16x2_relu(pack(-3, -9), pack(-4, 2)), pack(0, 2));
}

TEST(DpxOpsHost, AddMaxWrapsAndRelu) {
  EXPECT_EQ(Plain::addmax_s32_relu(-10, 3, -2), 0);
  EXPECT_EQ(Plain::addmax_s32_relu(10, 3, -2), 13);
  EXPECT_EQ(Plain::addmax_s32(2147483647, 1, 0), 0);  // wrap to INT32_MIN, then max with 0
  EXPECT_EQ(Plain::addmin_s32(2147483647, 1, 0), static_cast<std::int32_t>(0x80000000u));
  // 16-bit lanes wrap independently: 0x7FFF + 1 = -32768 in lane 0
  EXPECT_EQ(Plain::addmax_s16x2(pack(32767, 5), pack(1, 5), pack(-30000, 9)), pack(-30000, 10));
  EXPECT_EQ(Plain::add_s16x2(pack(32767, -32768), pack(1, -1)), pack(-32768, 32767));  // each lane wraps alone
  EXPECT_EQ(Plain::addmin_s16x2(pack(32767, 5), pack(1, 5), pack(-30000, 9)), pack(-32768, 9));
  EXPECT_EQ(Plain::addmin_u16x2(pack(65535, 2), pack(2, 3), pack(7, 4)), pack(1, 4));
}

TEST(DpxOpsHost, UnsignedPackedLanes) {
  EXPECT_EQ(Plain::max3_u16x2(pack(65535, 1), pack(0, 2), pack(1, 3)), pack(65535, 3));
  EXPECT_EQ(Plain::min3_u16x2(pack(65535, 1), pack(0, 2), pack(1, 3)), pack(0, 1));
  EXPECT_EQ(Plain::max_u8x4(0x01FF7F80u, 0x02FE8001u), 0x02FF8080u);
  EXPECT_EQ(Plain::min_u8x4(0x01FF7F80u, 0x02FE8001u), 0x01FE7F01u);
}

TEST(DpxOpsHost, SumsOfAbsoluteDifferences) {
  // lanes: |0x80-0x01| + |0x7F-0x80| + |0xFF-0xFE| + |0x01-0x02| = 127 + 1 + 1 + 1
  EXPECT_EQ(Plain::sad_u8x4(0x01FF7F80u, 0x02FE8001u, 1000u), 1130u);
  EXPECT_EQ(Plain::sad_u8x4(0x00FF00FFu, 0xFF00FF00u, 0u), 4u * 255u);
  EXPECT_EQ(Plain::sad_u8x4(0xFFFFFFFFu, 0u, 0xFFFFFFFFu), 4u * 255u - 1u);  // the add wraps
  EXPECT_EQ(Plain::sad_u32(3u, 65535u, 10u), 65542u);
  EXPECT_EQ(Plain::sad_u32(65535u, 3u, 10u), 65542u);
}

}  // namespace
