// The choice of dpx::morph_cuda()'s passes for elements other than square 3x3 / 5x5
// (morph_launch.h): the block-maxima row and column passes for windows of 127 samples or more (u8; 129 on
// u16), the one-pass schedule for ellipses from 31 (u8) or 15 (u16) on either side; the separable passes just
// below those. The passes themselves are held to morph_cpu on the host by MorphRectEmulated (block maxima,
// 255-sample windows included) and MorphShapeEmulated (the one-pass schedule, ellipses up to 63x63), and on
// the device by MorphCuda.DefaultPathsOfLargeElementsMatchCpu and
// MorphPlanesCuda.LargeElementsMatchCpuPerPlane.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../../../kernels/morphology/morph_bars.h"
#include "../../../kernels/morphology/morph_launch.h"

namespace dpx {
namespace test {
namespace {

using detail::morph_block_maxima_window;
using detail::morph_one_pass_shape;

MorphParams element(MorphShape shape, int width, int height) {
  return MorphParams{MorphOp::kDilate, shape, 3, width, height};
}

// Which axes of a rectangle's one bar run on block maxima for `type`: "rows", "columns", both or
// neither.
std::string block_maxima_axes(SampleType type, int width, int height) {
  const std::vector<morph::Bar> bars = morph::mask_bars(MorphShape::kRect, width, height);
  EXPECT_EQ(bars.size(), 1u);
  std::string axes;
  if (bars[0].half_width != 0 && morph_block_maxima_window(type, bars[0].half_width)) axes += "rows";
  if (bars[0].half_height != 0 && morph_block_maxima_window(type, bars[0].half_height)) {
    axes += axes.empty() ? "columns" : " columns";
  }
  return axes.empty() ? "none" : axes;
}

TEST(MorphDefaults, LongWindowsTakeBlockMaxima) {
  EXPECT_FALSE(morph_block_maxima_window(SampleType::kU8, 62));  // 125 samples
  EXPECT_TRUE(morph_block_maxima_window(SampleType::kU8, 63));   // 127 samples
  EXPECT_FALSE(morph_block_maxima_window(SampleType::kU16, 63));
  EXPECT_TRUE(morph_block_maxima_window(SampleType::kU16, 64));  // 129 samples
  for (SampleType type : {SampleType::kU8, SampleType::kU16}) {
    EXPECT_TRUE(morph_block_maxima_window(type, kMorphMaxRectSize / 2));
    EXPECT_EQ(block_maxima_axes(type, 255, 255), "rows columns");
    EXPECT_EQ(block_maxima_axes(type, 255, 1), "rows");
    EXPECT_EQ(block_maxima_axes(type, 1, 255), "columns");
    EXPECT_EQ(block_maxima_axes(type, 129, 129), "rows columns");
    EXPECT_EQ(block_maxima_axes(type, 255, 125), "rows");
    EXPECT_EQ(block_maxima_axes(type, 125, 129), "columns");
    // The library's own passes below.
    for (int side : {3, 31, 63, 125}) {
      EXPECT_EQ(block_maxima_axes(type, side, side), "none") << side;
      EXPECT_EQ(block_maxima_axes(type, side, 1), "none") << side;
      EXPECT_EQ(block_maxima_axes(type, 1, side), "none") << side;
    }
  }
  // 127 samples: block maxima on u8 only.
  EXPECT_EQ(block_maxima_axes(SampleType::kU8, 127, 127), "rows columns");
  EXPECT_EQ(block_maxima_axes(SampleType::kU16, 127, 127), "none");
}

TEST(MorphDefaults, LargeEllipsesTakeTheOnePassSchedule) {
  // u8: from 31 on either side.
  for (const auto& [w, h] : std::vector<std::pair<int, int>>{{31, 31}, {63, 63}, {31, 1}, {1, 31}, {63, 5}}) {
    EXPECT_TRUE(morph_one_pass_shape(SampleType::kU8, element(MorphShape::kEllipse, w, h))) << w << "x" << h;
  }
  for (const auto& [w, h] : std::vector<std::pair<int, int>>{{29, 29}, {15, 15}, {5, 5}, {29, 1}}) {
    EXPECT_FALSE(morph_one_pass_shape(SampleType::kU8, element(MorphShape::kEllipse, w, h))) << w << "x" << h;
  }
  // u16: from 15.
  for (const auto& [w, h] :
       std::vector<std::pair<int, int>>{{15, 15}, {31, 31}, {63, 63}, {15, 3}, {1, 15}}) {
    EXPECT_TRUE(morph_one_pass_shape(SampleType::kU16, element(MorphShape::kEllipse, w, h))) << w << "x" << h;
  }
  for (const auto& [w, h] : std::vector<std::pair<int, int>>{{13, 13}, {5, 5}, {13, 1}}) {
    EXPECT_FALSE(morph_one_pass_shape(SampleType::kU16, element(MorphShape::kEllipse, w, h)))
        << w << "x" << h;
  }
  // `size` stands in for a 0 width and height.
  MorphParams sized;
  sized.shape = MorphShape::kEllipse;
  sized.size = 31;
  EXPECT_TRUE(morph_one_pass_shape(SampleType::kU8, sized));
  // Crosses and rectangles never: the separable (or fused) passes won there.
  for (SampleType type : {SampleType::kU8, SampleType::kU16}) {
    for (int side : {5, 15, 31, 63}) {
      EXPECT_FALSE(morph_one_pass_shape(type, element(MorphShape::kCross, side, side))) << side;
      EXPECT_FALSE(morph_one_pass_shape(type, element(MorphShape::kRect, side, side))) << side;
    }
  }
}

}  // namespace
}  // namespace test
}  // namespace dpx
