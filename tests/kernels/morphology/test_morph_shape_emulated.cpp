// The one-pass cross / ellipse schedule's device code (morph_shape.cuh) run on the host: a block at a
// time, each warp's lanes on host threads meeting at each __syncwarp, all meeting at each
// __syncthreads, with the grid, shared memory and arguments the launcher uses
// (shape_pass_args) and stale shared memory. Checked byte for byte against morph_cpu on every
// border rule, u8 and u16, 1, 2 and 4 channels, dilate and erode, frames of one pixel, smaller than
// the element, across blocks both ways with padded and misaligned rows, and crosses and ellipses
// from 1x1 to 63x63, square and not (morph_validate takes odd sides only, the anchor at the centre).
#include "morph_emulation.h"  // first: the CUDA stand-ins the device headers expect

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "../../../kernels/morphology/morph_shape.cuh"
#include "morph_test_util.h"
#include "test_util.h"

namespace dpx {
namespace test {
namespace {

constexpr std::uint32_t kStaleShared = 0x5A5A5A5Au;  // stale shared memory must not leak into results

// Threads an emulated block runs on: two warps instead of the device's eight, each thread owning
// four times the outputs (the block's loops stride by its warps and threads; what a thread owns is
// where the counts differ). 256 host threads a block made one element take tens of seconds here.
constexpr int kEmulatedThreads = 64;

template <typename T, bool kMax>
void run_shape_pass(const HostPlane& src, HostPlane& dst, const MorphParams& p) {
  const std::vector<morph::Bar> bars = morph::mask_bars(p.shape, morph_width(p), morph_height(p));
  morph::ShapeLaunch s;
  const morph::ShapePassArgs a = morph::shape_pass_args(src.view(), dst.mutable_view(), bars, p.border, &s);
  std::vector<std::uint32_t> staged(s.shared_bytes / sizeof(std::uint32_t));
  for (int by = 0; by < s.blocks_y; ++by) {
    for (int bx = 0; bx < s.blocks_x; ++bx) {
      std::fill(staged.begin(), staged.end(), kStaleShared);
      run_emulated_block(kEmulatedThreads, 1, bx, by,
                         [&] { morph::shape_pass<T, kMax, kEmulatedThreads>(a, staged.data(), bx, by); });
    }
  }
}

struct ElementCase {
  MorphShape shape;
  int width, height;
};

// One pixel; smaller than every element but 1x1 (borders fold and repeat); odd widths whose
// samples end inside a block, on a 16-byte aligned pitch; two blocks across and down (128 samples,
// 64 rows a block) with a padded, misaligned pitch, except for elements of more than ten bars,
// whose twenty widening steps a block make that frame the suite's slowest: the 63x9 ellipse and
// the 63x63 cross hold the widest halo to it.
std::vector<Geometry> shape_geometries(const ElementCase& e) {
  std::vector<Geometry> g = {{1, 1, 0, 0, false}, {3, 7, 1, 1, false}, {37, 19, 0, 0, true}};
  if (morph::mask_bars(e.shape, e.width, e.height).size() <= 10) g.push_back({133, 70, 3, 1, false});
  return g;
}

class MorphShapeEmulated : public ::testing::TestWithParam<ElementCase> {};

// Every border rule on every frame; the sample type, dilate / erode and the channels turn from run
// to run (each appears with every rule across the elements).
TEST_P(MorphShapeEmulated, MatchesCpu) {
  std::mt19937_64 rng = seeded_rng();
  const ElementCase e = GetParam();
  int turn = e.width + 3 * e.height;
  for (const Geometry& g : shape_geometries(e)) {
    for (BorderMode border : {BorderMode::kReplicate, BorderMode::kReflect101, BorderMode::kNeutral}) {
      MorphCase c;
      c.params.shape = e.shape;
      c.params.width = e.width;
      c.params.height = e.height;
      c.params.border = border;
      c.params.op = turn % 2 == 0 ? MorphOp::kDilate : MorphOp::kErode;
      c.type = turn / 2 % 2 == 0 ? SampleType::kU8 : SampleType::kU16;
      c.channels = 1 << (turn / 4 % 3);
      ++turn;
      HostPlane src = make_plane(g, c.channels, c.type);
      fill_random(src, rng);
      HostPlane want = make_plane(g.width, g.height, c.channels, c.type);
      ASSERT_TRUE(morph_cpu(src.view(), want.mutable_view(), c.params).is_ok());
      HostPlane got = make_plane(g, c.channels, c.type);
      const bool dilate = c.params.op == MorphOp::kDilate;
      if (c.type == SampleType::kU8) {
        dilate ? run_shape_pass<std::uint8_t, true>(src, got, c.params)
               : run_shape_pass<std::uint8_t, false>(src, got, c.params);
      } else {
        dilate ? run_shape_pass<std::uint16_t, true>(src, got, c.params)
               : run_shape_pass<std::uint16_t, false>(src, got, c.params);
      }
      const std::string what = describe(c) + " " + std::to_string(g.width) + "x" + std::to_string(g.height) +
                               " pitch " + std::to_string(src.pitch) + " offset " +
                               std::to_string(src.offset);
      EXPECT_EQ(first_difference(want, got), "") << what;
      EXPECT_TRUE(padding_untouched(got)) << what << ": wrote outside its rows";
    }
  }
}

std::string element_name(const ::testing::TestParamInfo<ElementCase>& i) {
  return std::string(i.param.shape == MorphShape::kCross ? "cross" : "ellipse") +
         std::to_string(i.param.width) + "x" + std::to_string(i.param.height);
}

// Both shapes at 1x1 (one bar, nothing to widen), 3x3 and 5x5 (two bars), a line (1 x n: the
// widest bar is the centre pixel), 15x15 (an ellipse of five bars), wide and tall ones, and 63x63
// (an ellipse of 19 bars, widening steps that triple, halo wider than a block's tile on 4 channels);
// among them column windows of every run length (1, 2, 4 and 8 rows: windows of 1 to 31 rows).
INSTANTIATE_TEST_SUITE_P(
    Elements, MorphShapeEmulated,
    ::testing::Values(ElementCase{MorphShape::kCross, 1, 1}, ElementCase{MorphShape::kEllipse, 1, 1},
                      ElementCase{MorphShape::kCross, 3, 3}, ElementCase{MorphShape::kEllipse, 3, 3},
                      ElementCase{MorphShape::kCross, 5, 5}, ElementCase{MorphShape::kEllipse, 5, 5},
                      ElementCase{MorphShape::kEllipse, 1, 7}, ElementCase{MorphShape::kCross, 9, 1},
                      ElementCase{MorphShape::kEllipse, 15, 15}, ElementCase{MorphShape::kCross, 15, 15},
                      ElementCase{MorphShape::kEllipse, 21, 5}, ElementCase{MorphShape::kCross, 7, 45},
                      ElementCase{MorphShape::kEllipse, 63, 9}, ElementCase{MorphShape::kEllipse, 63, 63},
                      ElementCase{MorphShape::kCross, 63, 63}),
    element_name);

}  // namespace
}  // namespace test
}  // namespace dpx
