// The one-pass cross / ellipse schedule's device code (morph_shape.cuh) run on the host: a block at a
// time, each warp's lanes on host threads meeting at each __syncwarp, all meeting at each
// __syncthreads, with the grid, shared memory, arguments and levels the launcher uses
// (shape_pass_args) and stale shared memory. Checked byte for byte against morph_cpu on every
// border rule, u8 and u16, 1, 2 and 4 channels, dilate and erode, frames of one pixel, smaller than
// the element, across blocks both ways with padded and misaligned rows, and crosses and ellipses
// from 1x1 to 63x63, square and not (morph_validate takes odd sides only, the anchor at the centre):
// a fixed list that reads bars from one word and from two (odd and even distances), and sizes drawn
// at random. The levels themselves are checked on every element.
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

std::string element_text(const ElementCase& e) {
  return std::string(e.shape == MorphShape::kCross ? "cross" : "ellipse") + std::to_string(e.width) + "x" +
         std::to_string(e.height);
}

// One pixel; smaller than every element but 1x1 (borders fold and repeat); odd widths whose
// samples end inside a block, on a 16-byte aligned pitch; two blocks across and down (128 samples,
// 128 rows a block: the second's top half whole, its bottom half a few rows) with a padded,
// misaligned pitch.
const std::vector<Geometry>& shape_geometries() {
  static const std::vector<Geometry> g = {
      {1, 1, 0, 0, false}, {3, 7, 1, 1, false}, {37, 19, 0, 0, true}, {133, 197, 3, 1, false}};
  return g;
}

// The element on frame g under `border`; `turn` picks the sample type, dilate / erode and the
// channels (consecutive turns go through all twelve).
void expect_matches_cpu(const ElementCase& e, const Geometry& g, BorderMode border, int turn, std::mt19937_64& rng) {
  const MorphCase c = turned_case(e.shape, e.width, e.height, border, turn);
  HostPlane src = make_plane(g, c.channels, c.type);
  fill_random(src, rng);
  expect_emulation_matches_cpu(c, g, src, [&](auto sample, auto dilate, const HostPlane& in, HostPlane& out) {
    run_shape_pass<decltype(sample), decltype(dilate)::value>(in, out, c.params);
  });
}

constexpr BorderMode kBorders[] = {BorderMode::kReplicate, BorderMode::kReflect101, BorderMode::kNeutral};

class MorphShapeEmulated : public ::testing::TestWithParam<ElementCase> {};

// Every border rule on every frame but the largest (one rule there, the suite's time); the sample
// type, dilate / erode and the channels turn from run to run (each appears with every rule across
// the elements).
TEST_P(MorphShapeEmulated, MatchesCpu) {
  std::mt19937_64 rng = seeded_rng();
  const ElementCase e = GetParam();
  int turn = e.width + 3 * e.height;
  const std::vector<Geometry>& geometries = shape_geometries();
  const BorderMode largest_frame_border = kBorders[turn % 3];
  for (const Geometry& g : geometries) {
    for (BorderMode border : kBorders) {
      if (&g == &geometries.back() && border != largest_frame_border) continue;
      expect_matches_cpu(e, g, border, turn++, rng);
    }
  }
}

// Elements of odd sides drawn from 1 to 63, each on one frame under one rule, type, operation and
// channel count drawn as well: over the runs (DPX_TEST_SEED) every size meets every combination.
TEST(MorphShapeEmulatedSampled, MatchesCpu) {
  std::mt19937_64 rng = seeded_rng();
  std::uniform_int_distribution<int> side(0, kMorphMaxShapeSize / 2), pick(0, 1 << 20);
  for (int i = 0; i < 8; ++i) {
    const ElementCase e{pick(rng) % 2 == 0 ? MorphShape::kCross : MorphShape::kEllipse, 2 * side(rng) + 1,
                        2 * side(rng) + 1};
    const std::vector<Geometry>& geometries = shape_geometries();
    SCOPED_TRACE(element_text(e));
    expect_matches_cpu(e, geometries[pick(rng) % geometries.size()], kBorders[pick(rng) % 3], pick(rng), rng);
  }
}

// Every element's levels (shape_levels): each bar reads a level of half-width v with v <= w <= 2v
// (w its half-width), the levels never narrow from the narrowest bar to the widest, and the
// shared-memory words they cost by the count are never more than a level a bar takes.
TEST(MorphShapeLevels, ReadWithinTwiceTheLevelAndCostNoMoreThanALevelABar) {
  std::vector<std::uint8_t> bytes(4);
  for (int channels : {1, 2, 4}) {
    const PlaneView in{bytes.data(), 1, 1, 4, channels, SampleType::kU8};
    const MutablePlaneView out{bytes.data(), 1, 1, 4, channels, SampleType::kU8};
    for (MorphShape shape : {MorphShape::kCross, MorphShape::kEllipse}) {
      for (int w = 1; w <= kMorphMaxShapeSize; w += 2) {
        for (int h = 1; h <= kMorphMaxShapeSize; h += 2) {
          morph::ShapeLaunch s;
          const morph::ShapePassArgs a =
              morph::shape_pass_args(in, out, morph::mask_bars(shape, w, h), BorderMode::kReplicate, &s);
          const std::string what = element_text({shape, w, h}) + " channels " + std::to_string(channels);
          std::int64_t planned = 0, bar_by_bar = 0;
          for (int b = a.bars - 1, v = 0, own = 0; b >= 0; --b) {
            const morph::Bar bar = a.bar[b];
            ASSERT_TRUE(a.level[b] <= bar.half_width && bar.half_width <= 2 * a.level[b])
                << what << " bar " << b;
            ASSERT_GE(a.level[b], v) << what << " bar " << b;
            planned += morph::shape_widening_words(a, bar.half_height, v, a.level[b]) +
                       morph::shape_window_words(a, b) * (a.level[b] == bar.half_width ? 1 : 2);
            bar_by_bar += morph::shape_widening_words(a, bar.half_height, own, bar.half_width) +
                          morph::shape_window_words(a, b);
            v = a.level[b];
            own = bar.half_width;
          }
          EXPECT_LE(planned, bar_by_bar) << what;
        }
      }
    }
  }
}

std::string element_name(const ::testing::TestParamInfo<ElementCase>& i) { return element_text(i.param); }

// Both shapes at 1x1 (one bar, nothing to widen), 3x3 and 5x5 (two bars; 5x5 reads its wide bar
// from two words one sample either side), a line (1 x n: the widest bar is the centre pixel), 15x15
// (an ellipse of five bars on one level), wide and tall ones, 31x31 and 63x63 (ellipses of 10 and
// 19 bars on three and four levels, widening steps that triple, two words at odd and even
// distances, halo wider than a block's tile on 4 channels); among them column windows of every
// run length (1, 2, 4 and 8 rows: windows of 1 to 31 rows).
INSTANTIATE_TEST_SUITE_P(
    Elements, MorphShapeEmulated,
    ::testing::Values(ElementCase{MorphShape::kCross, 1, 1}, ElementCase{MorphShape::kEllipse, 1, 1},
                      ElementCase{MorphShape::kCross, 3, 3}, ElementCase{MorphShape::kEllipse, 3, 3},
                      ElementCase{MorphShape::kCross, 5, 5}, ElementCase{MorphShape::kEllipse, 5, 5},
                      ElementCase{MorphShape::kEllipse, 1, 7}, ElementCase{MorphShape::kCross, 9, 1},
                      ElementCase{MorphShape::kEllipse, 15, 15}, ElementCase{MorphShape::kCross, 15, 15},
                      ElementCase{MorphShape::kEllipse, 21, 5}, ElementCase{MorphShape::kCross, 7, 45},
                      ElementCase{MorphShape::kEllipse, 63, 9}, ElementCase{MorphShape::kEllipse, 63, 5},
                      ElementCase{MorphShape::kEllipse, 5, 63}, ElementCase{MorphShape::kCross, 31, 31},
                      ElementCase{MorphShape::kEllipse, 31, 31}, ElementCase{MorphShape::kEllipse, 63, 63},
                      ElementCase{MorphShape::kCross, 63, 63}),
    element_name);

}  // namespace
}  // namespace test
}  // namespace dpx
