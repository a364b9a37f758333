// The bars box pass's device code (morph_bars_box.cuh) run on the host: a block at a time, its
// warps side by side (they meet at the tile's barriers), each warp's lanes on host threads that
// meet at each shuffle, with the grid, shared memory and arguments the launcher uses
// (bars_box_args), a stale tile and copies that land late. Checked byte for byte against morph_cpu
// on every border rule, u8 and u16, 1, 2 and 4 channels, dilate and erode, frames smaller than the
// element, several blocks across and down, padded pitches, and crosses and ellipses up to the
// largest; and where the pass takes an element and where it does not.
#include "morph_emulation.h"  // first: the CUDA stand-ins the device headers expect

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "../../../kernels/morphology/morph_bars_box.cuh"
#include "morph_test_util.h"
#include "test_util.h"

namespace dpx {
namespace test {
namespace {

constexpr std::uint32_t kStaleShared = 0x5A5A5A5Au;  // stale shared memory must not leak into results

std::vector<morph::Bar> bars_of(MorphShape shape, int width, int height) {
  return morph::mask_bars(shape, width, height);
}

// Whether the pass takes `bars` over a plane like `plane`.
bool takes(const HostPlane& plane, const std::vector<morph::Bar>& bars) {
  morph::BarsBoxArgs b;
  morph::PassShape s;
  HostPlane out = plane;
  return morph::bars_box_args(plane.view(), out.mutable_view(), bars, BorderMode::kReplicate, &b, &s);
}

// The pass with its column windows around a shared core or each on its own, as `shared_core` says
// whatever the launcher would choose (bars_share_core): both must give the same bytes.
template <typename T, bool kMax>
void run_bars_box(const HostPlane& src, HostPlane& dst, const MorphParams& p, bool shared_core) {
  morph::BarsBoxArgs b;
  morph::PassShape s;
  ASSERT_TRUE(morph::bars_box_args(src.view(), dst.mutable_view(),
                                   bars_of(p.shape, morph_width(p), morph_height(p)), p.border, &b, &s));
  std::vector<uint2> tile(s.shared_bytes / sizeof(uint2));
  for (int by = 0; by < s.blocks_y; ++by) {
    for (int bx = 0; bx < s.blocks_x; ++bx) {
      std::fill(tile.begin(), tile.end(), uint2{kStaleShared, kStaleShared});
      run_emulated_block(s.threads_x, s.threads_y, bx, by, [&] {
        morph::with_column_pass(b.column.run_rows, b.column.half_width, src.channels, [&](auto run, auto c) {
          constexpr int kRun = decltype(run)::value, C = decltype(c)::value;
          if constexpr (C > 0 && kRun > 1) {
            morph::with_shared_core(shared_core, [&](auto core) {
              morph::bars_box_pass<T, kMax, kRun, C, decltype(core)::value>(b, tile.data());
            });
          }
        });
      });
      ASSERT_TRUE(emulated_copies_drained())
          << "bars box block " << bx << "," << by << " left copies unwaited";
    }
  }
}

struct ElementCase {
  MorphShape shape;
  int width, height;
};

std::string element_name(const ::testing::TestParamInfo<ElementCase>& i) {
  return std::string(i.param.shape == MorphShape::kCross ? "cross" : "ellipse") +
         std::to_string(i.param.width) + "x" + std::to_string(i.param.height);
}

// Rows of whole words (the pass reads words): smaller than every element but the smallest; a block
// row and a part, on a padded pitch; several blocks across (a warp stores 24 to 30 chunks) and down
// (32 rows a block row), 16-byte aligned.
const std::vector<Geometry>& bars_box_geometries() {
  static const std::vector<Geometry> g = {
      {4, 1, 0, 0, false}, {12, 9, 0, 0, true}, {36, 45, 4, 0, false}, {260, 70, 0, 0, true}};
  return g;
}

constexpr BorderMode kBorders[] = {BorderMode::kReplicate, BorderMode::kReflect101, BorderMode::kNeutral};

class MorphBarsBoxEmulated : public ::testing::TestWithParam<ElementCase> {};

// Every border rule on every frame but the largest (one rule there, turning with the element: the
// suite's time), the column windows around a shared core and on their own by turns (so every
// element takes both); the sample type, dilate / erode and the channels turn from case to case, skipping
// the combinations the pass does not take (too wide a row window), so every element meets each
// combination it takes across the frames and rules.
TEST_P(MorphBarsBoxEmulated, MatchesCpu) {
  std::mt19937_64 rng = seeded_rng();
  const ElementCase e = GetParam();
  int turn = e.width + 3 * e.height, ran = 0;
  const std::vector<Geometry>& geometries = bars_box_geometries();
  const BorderMode largest_frame_border = kBorders[turn % 3];
  for (const Geometry& g : geometries) {
    for (BorderMode border : kBorders) {
      if (&g == &geometries.back() && border != largest_frame_border) continue;
      for (int tries = 0; tries < 12; ++tries, ++turn) {
        const MorphCase c = turned_case(e.shape, e.width, e.height, border, turn);
        HostPlane src = make_plane(g, c.channels, c.type);
        if (!takes(src, bars_of(e.shape, e.width, e.height))) continue;
        fill_random(src, rng);
        expect_emulation_matches_cpu(
            c, g, src, [&](auto sample, auto dilate, const HostPlane& in, HostPlane& out) {
              run_bars_box<decltype(sample), decltype(dilate)::value>(in, out, c.params, ran % 2 == 0);
            });
        ++ran;
        ++turn;
        break;
      }
    }
  }
  EXPECT_EQ(ran, static_cast<int>(geometries.size() * 3 - 2)) << "a frame and rule the pass took nowhere";
}

// Two bars (crosses, the 3x3 ellipse), bars one to a few rows apart (ellipses, square and not),
// runs of 2, 4 and 8 rows (elements 3, 5 and 9 or more rows high), a long shared core (a cross 63
// rows high), and the largest elements (63 samples: four chunks of u8 each side).
INSTANTIATE_TEST_SUITE_P(
    Elements, MorphBarsBoxEmulated,
    ::testing::Values(ElementCase{MorphShape::kCross, 7, 3}, ElementCase{MorphShape::kCross, 3, 5},
                      ElementCase{MorphShape::kCross, 9, 9}, ElementCase{MorphShape::kCross, 63, 31},
                      ElementCase{MorphShape::kCross, 5, 63}, ElementCase{MorphShape::kEllipse, 3, 3},
                      ElementCase{MorphShape::kEllipse, 7, 7}, ElementCase{MorphShape::kEllipse, 15, 15},
                      ElementCase{MorphShape::kEllipse, 13, 21}, ElementCase{MorphShape::kEllipse, 31, 9},
                      ElementCase{MorphShape::kEllipse, 63, 63}, ElementCase{MorphShape::kEllipse, 9, 63}),
    element_name);

// A shared core where the bars are few against the rows: crosses from 9 rows high, not the
// ellipses, whose bars lie one or two rows apart.
TEST(MorphBarsBox, SharesACoreWhereTheBarsAreFew) {
  const auto shares = [](MorphShape shape, int size) {
    const std::vector<morph::Bar> bars = bars_of(shape, size, size);
    return morph::bars_share_core(static_cast<int>(bars.size()), bars.back().half_height);
  };
  EXPECT_FALSE(shares(MorphShape::kCross, 7));
  for (int size : {9, 15, 31, 63}) EXPECT_TRUE(shares(MorphShape::kCross, size)) << size;
  for (int size : {7, 15, 31, 63}) EXPECT_FALSE(shares(MorphShape::kEllipse, size)) << size;
}

// Where the pass takes an element: the widest bar's row window within four chunks of each side
// (u8: a half-width of 32 samples on one channel, 8 on four; u16: 16 on one), the element's rows
// within the tile (a half-height of 64), two bars or more, and rows the pass reads as words.
TEST(MorphBarsBox, TakesWhatFitsAndNothingElse) {
  const auto plane = [](int width, int channels, SampleType type, std::size_t pad = 0) {
    return make_plane(Geometry{width, 8, pad, 0, false}, channels, type);
  };
  const auto two = [](int half_width, int half_height) {
    return std::vector<morph::Bar>{{half_width, 0}, {0, half_height}};
  };
  const HostPlane u8 = plane(64, 1, SampleType::kU8), u8x4 = plane(64, 4, SampleType::kU8),
                  u16 = plane(64, 1, SampleType::kU16);
  EXPECT_TRUE(takes(u8, two(32, 1)));
  EXPECT_FALSE(takes(u8, two(33, 1)));
  EXPECT_TRUE(takes(u8x4, two(8, 1)));
  EXPECT_FALSE(takes(u8x4, two(9, 1)));
  EXPECT_TRUE(takes(u16, two(16, 1)));
  EXPECT_FALSE(takes(u16, two(17, 1)));
  EXPECT_TRUE(takes(u8, two(1, 64)));
  EXPECT_FALSE(takes(u8, two(1, 65))) << "rows past the tile";
  EXPECT_FALSE(takes(u8, {{4, 4}})) << "one bar: a box pass";
  EXPECT_TRUE(takes(u8, bars_of(MorphShape::kEllipse, 63, 63)));
  EXPECT_FALSE(takes(u16, bars_of(MorphShape::kEllipse, 63, 63)));
  EXPECT_FALSE(takes(plane(63, 1, SampleType::kU8), two(4, 4))) << "rows not of whole words";
  EXPECT_FALSE(takes(plane(64, 1, SampleType::kU8, 1), two(4, 4))) << "pitch not of whole words";
}

}  // namespace
}  // namespace test
}  // namespace dpx
