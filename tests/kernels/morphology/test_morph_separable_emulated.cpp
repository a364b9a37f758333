// The separable passes' device code (morph_separable.cuh) run on the host: the row pass a block at
// a time, its threads on host threads that meet at each __syncthreads, the column pass thread by
// thread (its threads share nothing), each with the grid, shared memory and arguments the library
// uses (row_pass_args / column_pass_args), the intermediate plane and the one-column bar as
// morph_separable.cu lays them out. Checked against morph_cpu for rectangles — one bar, one row
// pass and one column pass — so the packed row groups, partial groups and tiles, border columns,
// channels and u16 rows are tested on machines without a GPU (the GPU tests hold the real kernels
// to the same results on the device).
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
// does not change what it computes; 32 instead of the device's 256 keeps the thread starts and
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
          morph::row_pass<T, kMax>(a, shared.data());
        });
      }
      for (std::thread& t : threads) t.join();
    }
  }
}

template <typename T, bool kMax>
void run_column_pass(const PlaneView& in, const MutablePlaneView& out, int radius, BorderMode border) {
  PassShape s;
  const morph::ColumnPassArgs a = morph::column_pass_args(in, out, radius, border, false, &s);
  std::vector<std::uint32_t> shared(s.shared_bytes / 4);
  for (int by = 0; by < s.blocks_y; ++by) {
    for (int bx = 0; bx < s.blocks_x; ++bx) {
      std::fill(shared.begin(), shared.end(), kStaleShared);
      for (int t = 0; t < s.threads; ++t) {
        threadIdx.x = static_cast<unsigned>(t);
        blockIdx.x = static_cast<unsigned>(bx);
        blockIdx.y = static_cast<unsigned>(by);
        blockDim.x = static_cast<unsigned>(s.threads);
        morph::column_pass<T, kMax>(a, shared.data());
      }
    }
  }
}

// One rectangle as morph_separable.cu runs its single bar: a one-row bar is the row pass straight
// into dst; a one-column bar the column pass on src (or on a copy of it in `rows`, where src's
// rows do not end on a word); otherwise the row pass into `rows`, then the column pass into dst.
template <typename T, bool kMax>
void run_rect(const HostPlane& src, HostPlane& rows, HostPlane& dst, const MorphParams& p) {
  const int hw = morph_width(p) / 2, hh = morph_height(p) / 2;
  if (hh == 0) return run_row_pass<T, kMax>(src.view(), dst.mutable_view(), hw, p.border);
  PlaneView columns_in = rows.view();
  if (hw != 0) {
    run_row_pass<T, kMax>(src.view(), rows.mutable_view(), hw, p.border);
  } else if (morph::column_readable(src.view())) {
    columns_in = src.view();
  } else {
    for (int y = 0; y < src.height; ++y) std::memcpy(rows.mutable_view().row(y), src.view().row(y), src.row_bytes());
  }
  run_column_pass<T, kMax>(columns_in, dst.mutable_view(), hh, p.border);
}

// Frames: one pixel; narrower and shorter than the element; a partial row group (heights not a
// multiple of 4 or 16); across the 256-pixel row tile; tight, padded, misaligned (rows that do not
// end on a word) and 16-byte aligned pitches.
const std::vector<Geometry>& separable_geometries() {
  static const std::vector<Geometry> g = {
      {1, 1, 0, 0, false}, {3, 7, 1, 1, false}, {37, 19, 0, 0, true}, {261, 13, 3, 1, false}};
  return g;
}

struct RectCase {
  int width, height;
};

class MorphSeparableEmulated : public ::testing::TestWithParam<RectCase> {};

// Every sample type and channel count on every frame; the border rule and dilate / erode turn
// from run to run (each appears with every type and channel count across the rectangles).
TEST_P(MorphSeparableEmulated, MatchesCpu) {
  std::mt19937_64 rng = seeded_rng();
  const RectCase r = GetParam();
  int turn = r.width + r.height;
  for (const Geometry& g : separable_geometries()) {
    for (SampleType type : {SampleType::kU8, SampleType::kU16}) {
      for (int channels : {1, 2, 4}) {
        MorphCase c;
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
          dilate ? run_rect<std::uint8_t, true>(src, rows, got, c.params)
                 : run_rect<std::uint8_t, false>(src, rows, got, c.params);
        } else {
          dilate ? run_rect<std::uint16_t, true>(src, rows, got, c.params)
                 : run_rect<std::uint16_t, false>(src, rows, got, c.params);
        }
        const std::string what = describe(c) + " " + std::to_string(g.width) + "x" + std::to_string(g.height) +
                                 " pitch " + std::to_string(src.pitch) + " offset " + std::to_string(src.offset);
        EXPECT_EQ(first_difference(want, got), "") << what;
        EXPECT_TRUE(padding_untouched(got)) << what << ": wrote outside its rows";
      }
    }
  }
}

// A run along the rows only, along the columns only, both, a run wider than the frames and one
// that shrinks a block's row groups (a 255-wide line of four channels leaves room for two).
INSTANTIATE_TEST_SUITE_P(Rectangles, MorphSeparableEmulated,
                         ::testing::Values(RectCase{3, 1}, RectCase{1, 5}, RectCase{7, 3}, RectCase{15, 9},
                                           RectCase{5, 31}, RectCase{255, 3}),
                         [](const ::testing::TestParamInfo<RectCase>& i) {
                           return std::to_string(i.param.width) + "x" + std::to_string(i.param.height);
                         });

}  // namespace
}  // namespace test
}  // namespace dpx
