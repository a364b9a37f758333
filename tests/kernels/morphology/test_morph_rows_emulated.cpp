// The register schedule's device code run on the host: one dilation or erosion (morph_rows.cuh)
// and the one-pass compound operations (morph_rows_compound.cuh), each warp's 32 lanes on host
// threads that meet at every shuffle (cuda_host_shim.h). Checked against morph_cpu for every
// operation, shape, size, channel count and sample type, on frames that end inside and across a
// warp's 512 / 480 bytes and its rows, tight, padded and misaligned; outputs poisoned, padding
// checked. The GPU tests hold the real kernels to the same results on the device.
#include "morph_emulation.h"  // first: the CUDA stand-ins the device headers expect

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../../../kernels/morphology/morph_compound.h"  // is_compound
#include "../../../kernels/morphology/morph_lanes.cuh"
#include "../../../kernels/morphology/morph_launch.h"  // DefaultRows
#include "../../../kernels/morphology/morph_rows_compound.cuh"
#include "morph_test_util.h"
#include "test_util.h"

namespace dpx {
namespace test {
namespace {

using morph::RowsLayout;
using morph::PassArgs;

// Output rows per lane, as the library builds the kernels: the compound operations' at four, the
// single passes at detail::morph_default_rows() (morph::DefaultRows).
constexpr int kCompoundRows = 4;

// Every block of the grid whose warps step `warp_bytes` along the rows, each warp in turn.
template <class Body>
void run_grid(const PassArgs& a, int warp_bytes, int rows, const Body& body) {
  const int blocks_x = (a.row_bytes + warp_bytes - 1) / warp_bytes;
  const int block_rows = RowsLayout::kWarps * rows;
  const int blocks_y = (a.height + block_rows - 1) / block_rows;
  for (int by = 0; by < blocks_y; ++by) {
    for (int bx = 0; bx < blocks_x; ++bx) {
      for (int w = 0; w < RowsLayout::kWarps; ++w) {
        if ((by * RowsLayout::kWarps + w) * rows >= a.height) break;  // such warps return at once
        EmulatedWarp::run(static_cast<unsigned>(w * RowsLayout::kLanes), [&] { body(bx, by); });
      }
    }
  }
}

enum class Format { kU16, kU8Split, kU8x4 };

// p.op with the lanes `Lanes` (max for dilate, min for erode; both for the compound operations),
// single passes at Rows::of(size) rows a lane.
template <template <class, bool> class Lanes, class Rows>
void run_op(const PassArgs& a, int channels, const MorphParams& p) {
  using ops::Dpx;
  morph::with_square_element(channels, p.size, p.shape, [&](auto c, auto size, auto shape) {
    constexpr int C = decltype(c)::value, Size = decltype(size)::value;
    constexpr MorphShape Shape = decltype(shape)::value;
    const bool compound = morph::with_compound_op(p.op, [&](auto op) {
      constexpr MorphOp kOp = decltype(op)::value;
      run_grid(a, morph::compound_warp_bytes(morph::compound_kernel(kOp)), kCompoundRows, [&](int bx, int by) {
        morph::compound_pass<Lanes, Dpx, C, Size, Shape, kCompoundRows, kOp>(a, bx, by);
      });
    });
    if (compound) return;
    constexpr int kRows = Rows::of(Size);
    run_grid(a, RowsLayout::kWarpBytes, kRows, [&](int bx, int by) {
      if (p.op == MorphOp::kDilate) {
        morph::rows_pass<Lanes<Dpx, true>, C, Size, Shape, kRows>(a, bx, by);
      } else {
        morph::rows_pass<Lanes<Dpx, false>, C, Size, Shape, kRows>(a, bx, by);
      }
    });
  });
}

void run_format(Format f, const PassArgs& a, int channels, const MorphParams& p) {
  if (f == Format::kU16) run_op<morph::U16x2Lanes, morph::DefaultRows<SampleType::kU16>>(a, channels, p);
  if (f == Format::kU8Split) run_op<morph::U8SplitLanes, morph::DefaultRows<SampleType::kU8>>(a, channels, p);
  if (f == Format::kU8x4) run_op<morph::U8x4Lanes, morph::FixedRows<4>>(a, channels, p);  // the variants' byte SIMD
}

// The lane formats the library and the variants build for `c` on the register schedule.
std::vector<Format> formats_for(const MorphCase& c) {
  if (c.type == SampleType::kU16) return {Format::kU16};
  if (morph::is_compound(c.params.op)) return {Format::kU8Split};
  return {Format::kU8Split, Format::kU8x4};
}

// Frames: one pixel, narrower and shorter than the element, inside one warp, ending just past
// 480 and 512 bytes (u8, one channel) and across several warps (more channels, u16), a second
// block of rows and partial row groups; tight, padded and misaligned pitches. Small, because
// every shuffle is a meeting of 32 host threads.
const std::vector<Geometry>& register_geometries() {
  static const std::vector<Geometry> g = {
      {1, 1, 0, 0, false},   {2, 5, 0, 0, false},  {7, 4, 5, 3, false},   {37, 19, 0, 0, true},
      {130, 11, 7, 2, false}, {481, 9, 0, 0, true}, {513, 6, 3, 1, false},
  };
  return g;
}

// Each operation with the fused elements' shapes, sizes, channel counts and sample types, one
// border rule each, turning from case to case (the kernels do not look at it: morph_rows.cuh).
std::vector<MorphCase> register_cases() {
  std::vector<MorphCase> cases;
  for (MorphOp op : {MorphOp::kDilate, MorphOp::kErode, MorphOp::kOpen, MorphOp::kClose, MorphOp::kGradient,
                     MorphOp::kTopHat, MorphOp::kBlackHat}) {
    for (MorphCase c : all_morph_cases()) {
      const int turn = (c.params.size + c.channels + static_cast<int>(c.type) + static_cast<int>(c.params.shape)) % 3;
      if (c.params.op != MorphOp::kDilate || static_cast<int>(c.params.border) != turn) continue;
      c.params.op = op;
      cases.push_back(c);
    }
  }
  return cases;
}

class MorphRowsEmulated : public ::testing::TestWithParam<MorphCase> {};

TEST_P(MorphRowsEmulated, MatchesCpu) {
  std::mt19937_64 rng = seeded_rng();
  const MorphCase c = GetParam();
  for (const Geometry& g : register_geometries()) {
    HostPlane src = make_plane(g, c.channels, c.type);
    fill_random(src, rng);
    HostPlane want = make_plane(g.width, g.height, c.channels, c.type);
    ASSERT_TRUE(morph_cpu(src.view(), want.mutable_view(), c.params).is_ok());
    for (Format f : formats_for(c)) {
      HostPlane got = make_plane(g, c.channels, c.type);
      const PassArgs a = emulated_args(src, got, c.params.border);
      run_format(f, a, c.channels, c.params);
      const std::string what = describe(c) + " " + std::to_string(g.width) + "x" + std::to_string(g.height) +
                               " pitch " + std::to_string(src.pitch) + " format " + std::to_string(static_cast<int>(f));
      EXPECT_EQ(first_difference(want, got), "") << what;
      EXPECT_TRUE(padding_untouched(got)) << what << ": wrote outside its rows";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllCases, MorphRowsEmulated, ::testing::ValuesIn(register_cases()));

}  // namespace
}  // namespace test
}  // namespace dpx
