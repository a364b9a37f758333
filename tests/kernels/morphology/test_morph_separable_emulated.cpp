// The separable passes' device code (morph_separable.cuh) run on the host: the row pass a block at
// a time, its threads on host threads that meet at each __syncthreads, the column pass thread by
// thread (its threads share nothing), each with the grid, shared memory and arguments the library
// uses (row_pass_args / column_pass_args), the intermediate plane and the one-column bar as
// morph_separable.cu lays them out, the bars in the library's order (for_each_bar_pass). Checked
// against morph_cpu for rectangles, a cross and an ellipse, so the packed row groups, partial
// groups and tiles, border columns, column runs, channels, u16 rows and the merging of bars are
// tested on machines without a GPU (the GPU tests hold the real kernels to the same results on the
// device).
#include "morph_emulation.h"  // first: the CUDA stand-ins the device headers expect

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "../../../kernels/morphology/morph_separable.cuh"
#include "morph_test_util.h"
#include "test_util.h"

namespace dpx {
namespace test {
namespace {

using morph::PassShape;

constexpr std::uint32_t kStaleShared = 0x5A5A5A5Au;  // stale shared memory must not leak into results

// Host threads a row-pass block runs on. The pass strides every loop by blockDim, so the count
// does not change what it computes; 32 instead of the device's 128 keeps the thread starts and
// barrier meetings affordable on two cores (and gives each thread more strides to take).
constexpr int kEmulatedRowThreads = 32;

template <typename T, bool kMax>
void run_row_pass(const PlaneView& in, const MutablePlaneView& out, int radius, BorderMode border) {
  PassShape s;
  const morph::RowPassArgs a = morph::row_pass_args<T>(in, out, radius, border, &s);
  std::vector<std::uint32_t> shared(s.shared_bytes / 4);
  for (int by = 0; by < s.blocks_y; ++by) {
    for (int bx = 0; bx < s.blocks_x; ++bx) {
      std::fill(shared.begin(), shared.end(), kStaleShared);
      EmulatedBlockBarrier barrier(kEmulatedRowThreads);
      std::vector<std::thread> threads;
      for (int t = 0; t < kEmulatedRowThreads; ++t) {
        threads.emplace_back([&, t] {
          threadIdx.x = static_cast<unsigned>(t);
          blockIdx.x = static_cast<unsigned>(bx);
          blockIdx.y = static_cast<unsigned>(by);
          blockDim.x = kEmulatedRowThreads;
          emulated_block_barrier = &barrier;
          morph::with_window_run(a.run, [&](auto run) { morph::row_pass<T, kMax, decltype(run)::value>(a, shared.data()); });
        });
      }
      for (std::thread& t : threads) t.join();
    }
  }
}

// A block at a time, its warps side by side (they meet at the tile's barriers), each warp's lanes
// on host threads that meet at each shuffle; the tile starts stale and its copies land late.
template <typename T, bool kMax>
void run_column_pass(const PlaneView& in, const MutablePlaneView& out, int radius, int half_width, BorderMode border,
                     bool merge) {
  PassShape s;
  const morph::ColumnPassArgs a = morph::column_pass_args(in, out, radius, half_width, border, merge, &s);
  std::vector<uint2> tile(s.shared_bytes / sizeof(uint2));
  for (int by = 0; by < s.blocks_y; ++by) {
    for (int bx = 0; bx < s.blocks_x; ++bx) {
      std::fill(tile.begin(), tile.end(), uint2{kStaleShared, kStaleShared});
      run_emulated_block(s.threads_x, s.threads_y, bx, by, [&] {
        morph::with_column_pass(a.run_rows, half_width, in.channels, [&](auto run, auto channels) {
          morph::column_pass<T, kMax, decltype(run)::value, decltype(channels)::value>(a, tile.data());
        });
      });
      ASSERT_TRUE(emulated_copies_drained()) << "column pass block " << bx << "," << by << " left copies unwaited";
    }
  }
}

// One dilation / erosion of `src` into `dst` with the element's bars, in the library's own order
// (for_each_bar_pass); `rows` is the intermediate plane.
template <typename T, bool kMax>
void run_element(const HostPlane& src, HostPlane& rows, HostPlane& dst, const MorphParams& p) {
  const std::vector<morph::Bar> bars = morph::mask_bars(p.shape, morph_width(p), morph_height(p));
  const Status s = morph::for_each_bar_pass(
      src.view(), dst.mutable_view(), rows.mutable_view(), bars,
      [&](const MutablePlaneView& to, int half_width) {
        run_row_pass<T, kMax>(src.view(), to, half_width, p.border);
        return Status::ok();
      },
      [&](const PlaneView& from, int half_height, int half_width, bool merge) {
        run_column_pass<T, kMax>(from, dst.mutable_view(), half_height, half_width, p.border, merge);
        return Status::ok();
      },
      [&] {
        for (int y = 0; y < src.height; ++y) std::memcpy(rows.mutable_view().row(y), src.view().row(y), src.row_bytes());
        return Status::ok();
      });
  ASSERT_TRUE(s.is_ok()) << s.message();
}

// Frames: one pixel; narrower and shorter than the element; a partial row group and block (heights
// not a multiple of 8 or 32 rows, u16: 4 or 16); across the 256-pixel row tile; taller than a
// row-pass block and than a column run's rows (the pointer walk); tight, padded, misaligned (rows
// that do not end on a word) and 16-byte aligned pitches; rows a box pass reads in place, of one
// warp and of several, with a pitch of whole words but not chunks and one of whole chunks; tall
// enough that a column-pass block's tile lies inside the plane (its copies without the border rule).
const std::vector<Geometry>& separable_geometries() {
  static const std::vector<Geometry> g = {{1, 1, 0, 0, false},
                                          {3, 7, 1, 1, false},
                                          {37, 19, 0, 0, true},
                                          {261, 13, 3, 1, false},
                                          {29, 67, 2, 0, false},
                                          {60, 9, 0, 0, false},
                                          {300, 21, 0, 0, true},
                                          {24, 170, 0, 0, true}};
  return g;
}

struct ElementCase {
  MorphShape shape;
  int width, height;
};

class MorphSeparableEmulated : public ::testing::TestWithParam<ElementCase> {};

// Every sample type and channel count on every frame; the border rule and dilate / erode turn
// from run to run (each appears with every type and channel count across the elements).
TEST_P(MorphSeparableEmulated, MatchesCpu) {
  std::mt19937_64 rng = seeded_rng();
  const ElementCase r = GetParam();
  int turn = r.width + r.height;
  for (const Geometry& g : separable_geometries()) {
    for (SampleType type : {SampleType::kU8, SampleType::kU16}) {
      for (int channels : {1, 2, 4}) {
        MorphCase c;
        c.params.shape = r.shape;
        c.params.width = r.width;
        c.params.height = r.height;
        c.params.border = static_cast<BorderMode>(turn % 3);
        c.params.op = turn % 2 == 0 ? MorphOp::kDilate : MorphOp::kErode;
        c.channels = channels;
        c.type = type;
        ++turn;
        HostPlane src = make_plane(g, channels, type);
        fill_random(src, rng);
        HostPlane want = make_plane(g.width, g.height, channels, type);
        ASSERT_TRUE(morph_cpu(src.view(), want.mutable_view(), c.params).is_ok());
        // The intermediate as the library allocates it: 16-byte aligned pitch, rows readable to it.
        HostPlane rows = make_plane(Geometry{g.width, g.height, 0, 0, true}, channels, type);
        HostPlane got = make_plane(g, channels, type);
        const bool dilate = c.params.op == MorphOp::kDilate;
        if (type == SampleType::kU8) {
          dilate ? run_element<std::uint8_t, true>(src, rows, got, c.params)
                 : run_element<std::uint8_t, false>(src, rows, got, c.params);
        } else {
          dilate ? run_element<std::uint16_t, true>(src, rows, got, c.params)
                 : run_element<std::uint16_t, false>(src, rows, got, c.params);
        }
        const std::string what = describe(c) + " " + std::to_string(g.width) + "x" + std::to_string(g.height) +
                                 " pitch " + std::to_string(src.pitch) + " offset " + std::to_string(src.offset);
        EXPECT_EQ(first_difference(want, got), "") << what;
        EXPECT_TRUE(padding_untouched(got)) << what << ": wrote outside its rows";
      }
    }
  }
}

std::string element_name(const ::testing::TestParamInfo<ElementCase>& i) {
  static const char* kShape[] = {"rect", "cross", "ellipse"};
  return kShape[static_cast<int>(i.param.shape)] + std::to_string(i.param.width) + "x" +
         std::to_string(i.param.height);
}

// A run along the rows only, along the columns only, both, a run wider than the frames, one that
// shrinks a block's row groups (a 255-wide line of four channels leaves room for two), column
// runs of each length (bars of 3, 5, 9, 31 rows: runs of 2, 4, 8 and, for a box pass, its longest)
// and a tall bar's long middle (131 rows: a box pass too tall for the tile, loading straight from
// the plane), a column alone through the tile in runs of 16 (21 rows), and the elements of several
// bars merged in `dst` (a cross: a row and a column; an ellipse: three bars).
static_assert(morph::window_run_length(3) == 2 && morph::window_run_length(5) == 4 &&
                  morph::window_run_length(9) == 8 &&
                  morph::window_run_length(31, morph::kMaxBoxRun) == morph::kMaxBoxRun &&
                  morph::window_run_length(21) == morph::kMaxRun,
              "the bars below run the column pass in runs of every length");
INSTANTIATE_TEST_SUITE_P(Elements, MorphSeparableEmulated,
                         ::testing::Values(ElementCase{MorphShape::kRect, 3, 1}, ElementCase{MorphShape::kRect, 1, 5},
                                           ElementCase{MorphShape::kRect, 7, 3}, ElementCase{MorphShape::kRect, 15, 9},
                                           ElementCase{MorphShape::kRect, 5, 31}, ElementCase{MorphShape::kRect, 255, 3},
                                           ElementCase{MorphShape::kRect, 3, 131},
                                           ElementCase{MorphShape::kRect, 45, 3},
                                           ElementCase{MorphShape::kRect, 63, 1}, ElementCase{MorphShape::kRect, 1, 21},
                                           ElementCase{MorphShape::kCross, 5, 9},
                                           ElementCase{MorphShape::kEllipse, 7, 5}),
                         element_name);

}  // namespace
}  // namespace test
}  // namespace dpx
