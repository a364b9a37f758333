// The sub-pel filters (subpel_filter.h) against their definitions: impulse responses that spell
// out each filter's taps at every phase, samples worked by hand at the frame's edges, the clip of
// deep samples, and every phase at random places (edges included) against reference_sample, the
// codecs' texts written out independently.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "dpx/motion.h"
#include "motion_test_util.h"
#include "refine_block.h"
#include "subpel_filter.h"
#include "test_util.h"

namespace {

using dpx::MotionInterpolation;
using dpx::SampleType;
using dpx::test::TestPlane;
namespace md = dpx::motion_detail;

constexpr MotionInterpolation kModes[] = {MotionInterpolation::kBilinear, MotionInterpolation::kH264,
                                          MotionInterpolation::kHevc};

// The filter of the library on a test plane, through the CPU's own sample reader.
int filtered(const TestPlane& p, MotionInterpolation mode, int x, int y, int fx, int fy) {
  const md::SubpelFilter f = md::subpel_filter(mode, p.type() == SampleType::kU8 ? 1 : 2);
  const auto* data = p.bytes().data();
  if (p.type() == SampleType::kU8) {
    const md::FrameSamples<std::uint8_t> px{data, data, p.pitch(), p.pitch(), p.width(), p.height()};
    return md::interpolated(px, f, x, y, fx, fy);
  }
  const md::FrameSamples<std::uint16_t> px{data, data, p.pitch(), p.pitch(), p.width(), p.height()};
  return md::interpolated(px, f, x, y, fx, fy);
}

TestPlane flat(int w, int h, int v, SampleType type = SampleType::kU8) {
  TestPlane p(w, h, type, 3);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) p.set(x, y, v);
  return p;
}

// Grey 128 with one pixel of 128 + 64 at (8, 8): the 1-D HEVC sample at (x + f/4, 8) is
// (64 * 128 + 64 c + 32) >> 6 = 128 + c, c the tap that lands on the impulse — tap 3 + (8 - x),
// so walking x from 4 to 11 reads the phase's taps backwards.
TEST(MotionFilters, HevcImpulseResponsesAreItsTaps) {
  TestPlane p = flat(17, 17, 128);
  p.set(8, 8, 192);
  const int taps[4][8] = {{0, 0, 0, 64, 0, 0, 0, 0},
                          {-1, 4, -10, 58, 17, -5, 1, 0},
                          {-1, 4, -11, 40, 40, -11, 4, -1},
                          {0, 1, -5, 17, 58, -10, 4, -1}};
  for (int f = 1; f < 4; ++f)
    for (int x = 4; x <= 11; ++x) {
      SCOPED_TRACE("phase " + std::to_string(f) + " x " + std::to_string(x));
      EXPECT_EQ(filtered(p, MotionInterpolation::kHevc, x, 8, f, 0), 128 + taps[f][3 + 8 - x]);
      EXPECT_EQ(filtered(p, MotionInterpolation::kHevc, 8, x, 0, f), 128 + taps[f][3 + 8 - x]);
    }
  // Both fractions: 128 + (64 cx cy + 2048) >> 12 = 128 + floor((cx cy + 32) / 64). At (3/4, 1/4)
  // from (8, 8) the taps on the impulse are phase 3's 4th (17) and phase 1's 4th (58):
  // 17 * 58 = 986 -> (986 + 32) / 64 = 15.9 -> 15.
  EXPECT_EQ(filtered(p, MotionInterpolation::kHevc, 8, 8, 3, 1), 128 + 15);
  // Half/half: 40 * 40 = 1600 -> 25.5 -> 25; from (7, 7) the taps are 40 and 40 again (the 5th).
  EXPECT_EQ(filtered(p, MotionInterpolation::kHevc, 8, 8, 2, 2), 153);
  EXPECT_EQ(filtered(p, MotionInterpolation::kHevc, 7, 7, 2, 2), 153);
  // From (6, 8) at (2/4, 1/4): half tap 6 (-11) by quarter tap 3 (58): -638 -> -9.47 -> -10.
  EXPECT_EQ(filtered(p, MotionInterpolation::kHevc, 6, 8, 2, 1), 118);
}

// Grey 128 with 128 + 32 at (8, 8): H.264's half samples are 128 + t for the 6-tap's t on the
// impulse ((32 * 128 + 32 t + 16) >> 5), the centre j 128 + floor((32 t u + 512) / 1024), the
// quarters the rounded averages of their two neighbours.
TEST(MotionFilters, H264ImpulseResponsesAtEveryPhase) {
  TestPlane p = flat(17, 17, 128);
  p.set(8, 8, 160);
  const auto h264 = [&](int x, int y, int fx, int fy) {
    return filtered(p, MotionInterpolation::kH264, x, y, fx, fy);
  };
  // Half samples b between (x, 8) and (x + 1, 8): taps 1, -5, 20, 20, -5, 1 from x = 10 down to 5.
  const int b_at[6] = {129, 123, 148, 148, 123, 129};  // x = 10, 9, 8, 7, 6, 5
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(h264(10 - i, 8, 2, 0), b_at[i]) << "b at x " << 10 - i;
    EXPECT_EQ(h264(8, 10 - i, 0, 2), b_at[i]) << "h at y " << 10 - i;
  }
  // j at (7.5, 7.5): 20 * 20 * 32 = 12800 -> (12800 + 512) >> 10 = 13; at (5.5, 7.5): 1 * 20 ->
  // 640 + 512 = 1152 -> 1; at (6.5, 6.5): (-5)(-5) 32 = 800 -> 1; at (6.5, 7.5): -100 * 32 =
  // -3200 -> -2688 >> 10 = -3.
  EXPECT_EQ(h264(7, 7, 2, 2), 141);
  EXPECT_EQ(h264(5, 7, 2, 2), 129);
  EXPECT_EQ(h264(6, 6, 2, 2), 129);
  EXPECT_EQ(h264(6, 7, 2, 2), 125);
  // From G = (7, 7): G, H = (8, 7), M = (7, 8), b (row 7) and h (column 7) miss the impulse: 128.
  // m (column 8, between rows 7 and 8) and s (row 8, between columns 7 and 8) take its 20 tap: 148;
  // j = 141. Quarters: f = (b + j + 1) >> 1 = 135, g = (b + m + 1) >> 1 = 138, i = (h + j + 1) >> 1
  // = 135, k = (j + m + 1) >> 1 = 145, p = (h + s + 1) >> 1 = 138, q = (j + s + 1) >> 1 = 145,
  // r = (m + s + 1) >> 1 = 148, the rest average 128s.
  const int quarter[4][4] = {// [fy][fx], H.264's names G a b c / d e f g / h i j k / n p q r
                             {128, 128, 128, 128},
                             {128, 128, 135, 138},
                             {128, 135, 141, 145},
                             {128, 138, 145, 148}};
  for (int fy = 0; fy < 4; ++fy)
    for (int fx = 0; fx < 4; ++fx) EXPECT_EQ(h264(7, 7, fx, fy), quarter[fy][fx]) << fx << ", " << fy;
}

// Bilinear weights in quarter pixels, at (1/4, 3/4) from a 0 whose right, lower and diagonal
// neighbours are 160: (3*1*0 + 1*1*160 + 3*3*160 + 1*3*160 + 8) >> 4 = 2088 >> 4 = 130; at
// (1/2, 1/2): (4*160*3 + 8) >> 4 = 120.
TEST(MotionFilters, BilinearWeights) {
  TestPlane p = flat(4, 4, 160);
  p.set(1, 1, 0);
  EXPECT_EQ(filtered(p, MotionInterpolation::kBilinear, 1, 1, 1, 3), 130);
  EXPECT_EQ(filtered(p, MotionInterpolation::kBilinear, 1, 1, 2, 2), 120);
}

// Past the frame's edge the taps read the edge sample. Row 0 is 10, 20, 30, ... (x + 1) * 10:
//   H.264 half at (0.5, 0): taps at x = -2..3 read 10, 10, 10, 20, 30, 40:
//     10 - 50 + 200 + 400 - 150 + 40 = 450 -> (450 + 16) >> 5 = 14 (15 on the unclipped ramp).
//   HEVC half at (0.5, 0): taps at x = -3..4 read 10, 10, 10, 10, 20, 30, 40, 50:
//     -10 + 40 - 110 + 400 + 800 - 330 + 160 - 50 = 900 -> (900 + 32) >> 6 = 14.
//   At the right edge (width 8, last sample 80), HEVC half at (6.5, 0): taps at x = 3..10 read
//     40, 50, 60, 70, 80, 80, 80, 80: -40 + 200 - 660 + 2800 + 3200 - 880 + 320 - 80 = 4860 ->
//     (4860 + 32) >> 6 = 76 (75 on the ramp).
//   H.264 half at (6.5, 0): taps at x = 4..9 read 50, 60, 70, 80, 80, 80:
//     50 - 300 + 1400 + 1600 - 400 + 80 = 2430 -> (2430 + 16) >> 5 = 76.
TEST(MotionFilters, EdgesReplicateTheEdgeSample) {
  TestPlane p(8, 3, SampleType::kU8);
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 8; ++x) p.set(x, y, (x + 1) * 10);
  EXPECT_EQ(filtered(p, MotionInterpolation::kH264, 0, 0, 2, 0), 14);
  EXPECT_EQ(filtered(p, MotionInterpolation::kHevc, 0, 0, 2, 0), 14);
  EXPECT_EQ(filtered(p, MotionInterpolation::kHevc, 6, 0, 2, 0), 76);
  EXPECT_EQ(filtered(p, MotionInterpolation::kH264, 6, 0, 2, 0), 76);
  // Vertically every row is the same: any vertical fraction leaves a column's value.
  for (MotionInterpolation mode : kModes)
    for (int fy = 1; fy < 4; ++fy) EXPECT_EQ(filtered(p, mode, 3, 1, 0, fy), 40) << static_cast<int>(mode);
}

// Overshoot past the largest sample is clipped: a step 0 | 65535 in 16-bit samples.
TEST(MotionFilters, DeepSamplesClipAtTheTop) {
  TestPlane p(12, 12, SampleType::kU16);
  for (int y = 0; y < 12; ++y)
    for (int x = 0; x < 12; ++x) p.set(x, y, x < 6 ? 0 : 65535);
  // HEVC half at (6.5, y): the taps at x = 3..10 are -1, 4, -11 on zeros, then 40, 40, -11, 4, -1
  // on 65535: (72 * 65535 + 32) >> 6 = 73727, clipped; H.264's: 36 * 65535 >> 5, clipped; HEVC's
  // at (4.5, y): -11 + 4 - 1 on 65535, below 0, clipped; both halves: (72 * 65535 >> 4) -> 73727.
  EXPECT_EQ(filtered(p, MotionInterpolation::kHevc, 6, 5, 2, 0), 65535);
  EXPECT_EQ(filtered(p, MotionInterpolation::kH264, 6, 5, 2, 0), 65535);
  EXPECT_EQ(filtered(p, MotionInterpolation::kHevc, 4, 5, 2, 0), 0);  // the undershoot side
  EXPECT_EQ(filtered(p, MotionInterpolation::kHevc, 6, 5, 2, 2), 65535);
}

// Every phase of every mode at random places, edges included, on 8- and 16-bit noise: the
// library's filter equals the codecs' texts written out (reference_sample).
TEST(MotionFilters, EveryPhaseMatchesTheDefinition) {
  auto rng = dpx::test::seeded_rng();
  for (SampleType type : {SampleType::kU8, SampleType::kU16}) {
    const int top = type == SampleType::kU8 ? 255 : 65535;
    for (const auto& size :
         {std::pair<int, int>{1, 1}, std::pair<int, int>{2, 5}, std::pair<int, int>{23, 17}}) {
      const TestPlane p = dpx::test::random_plane(rng, size.first, size.second, type, top, 2);
      for (MotionInterpolation mode : kModes)
        for (int y = 0; y < size.second; ++y)
          for (int x = 0; x < size.first; ++x)
            for (int fy = 0; fy < 4; ++fy)
              for (int fx = 0; fx < 4; ++fx) {
                // Bilinear reads its footprint only: the candidates keep it inside the frame.
                if (mode == MotionInterpolation::kBilinear &&
                    ((fx && x + 1 >= size.first) || (fy && y + 1 >= size.second)))
                  continue;
                ASSERT_EQ(filtered(p, mode, x, y, fx, fy), dpx::test::reference_sample(p, mode, x, y, fx, fy))
                    << "mode " << static_cast<int>(mode) << " at (" << x << ", " << y << ") phase (" << fx
                    << ", " << fy << "), " << size.first << "x" << size.second
                    << (type == SampleType::kU8 ? " u8" : " u16");
              }
    }
  }
}

}  // namespace
