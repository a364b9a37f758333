// The CUDA tile code (morph_tile.cuh, morph_lanes.cuh) run on the host: each block's threads run
// the load phase one after another, then the filter phase, with cuda_host_shim.h standing in for
// the CUDA built-ins. Checked against morph_cpu on every case of the matrix and every lane format,
// so the indexing, halos, border chunks and row-end stores are tested on machines without a GPU
// (the GPU tests hold the real kernels to the same results on the device).
#include "cuda_host_shim.h"  // first: defines what the device headers expect

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "../../../kernels/morphology/morph_lanes.cuh"
#include "../../../kernels/morphology/morph_tile.cuh"
#include "morph_test_util.h"
#include "test_util.h"

namespace dpx {
namespace test {
namespace {

using morph::Tile;
using morph::TileArgs;

template <class L, int C, int Size, MorphShape Shape>
void run_blocks(const TileArgs& a) {
  alignas(16) static std::uint8_t tile[Tile::shared_bytes(2)];
  for (int y0 = 0; y0 < a.height; y0 += Tile::kRows) {
    for (int x0 = 0; x0 < a.row_bytes; x0 += Tile::kWidthBytes) {
      std::memset(tile, 0x5A, sizeof tile);  // stale shared memory must not leak into results
      for (unsigned t = 0; t < Tile::kThreads; ++t) {
        threadIdx.x = t;
        morph::load_tile<typename L::Sample, C, Size / 2>(a, tile, x0, y0, L::kNeutral);
      }
      for (unsigned t = 0; t < Tile::kThreads; ++t) {
        threadIdx.x = t;
        morph::filter_chunk<L, C, Size, Shape>(a, tile, x0, y0);
      }
    }
  }
}

template <class L, int C, int Size>
void pick_shape(const TileArgs& a, MorphShape shape) {
  if (shape == MorphShape::kRect) run_blocks<L, C, Size, MorphShape::kRect>(a);
  if (shape == MorphShape::kCross) run_blocks<L, C, Size, MorphShape::kCross>(a);
  if (shape == MorphShape::kEllipse) run_blocks<L, C, Size, MorphShape::kEllipse>(a);
}

template <class L>
void pick_geometry(const TileArgs& a, int channels, const MorphParams& p) {
  const bool five = p.size == 5;
  if (channels == 1) five ? pick_shape<L, 1, 5>(a, p.shape) : pick_shape<L, 1, 3>(a, p.shape);
  if (channels == 2) five ? pick_shape<L, 2, 5>(a, p.shape) : pick_shape<L, 2, 3>(a, p.shape);
  if (channels == 4) five ? pick_shape<L, 4, 5>(a, p.shape) : pick_shape<L, 4, 3>(a, p.shape);
}

enum class Format { kU16, kU8Wide, kU8x4 };

template <bool kMax>
void run_format(Format f, const TileArgs& a, int channels, const MorphParams& p) {
  using ops::Dpx;
  if (f == Format::kU16) pick_geometry<morph::U16x2Lanes<Dpx, kMax>>(a, channels, p);
  if (f == Format::kU8Wide) pick_geometry<morph::U8WideLanes<Dpx, kMax>>(a, channels, p);
  if (f == Format::kU8x4) pick_geometry<morph::U8x4Lanes<Dpx, kMax>>(a, channels, p);
}

bool vector_ok(const void* p, std::size_t pitch) {
  return reinterpret_cast<std::uintptr_t>(p) % 16 == 0 && pitch % 16 == 0;
}

class MorphTileEmulated : public ::testing::TestWithParam<MorphCase> {};

TEST_P(MorphTileEmulated, MatchesCpu) {
  std::mt19937_64 rng = seeded_rng();
  const MorphCase c = GetParam();
  const std::vector<Format> formats =
      c.type == SampleType::kU16 ? std::vector<Format>{Format::kU16} : std::vector<Format>{Format::kU8Wide, Format::kU8x4};
  for (const Geometry& g : edge_geometries()) {
    HostPlane src = make_plane(g, c.channels, c.type);
    fill_random(src, rng);
    HostPlane want = make_plane(g.width, g.height, c.channels, c.type);
    ASSERT_TRUE(morph_cpu(src.view(), want.mutable_view(), c.params).is_ok());
    for (Format f : formats) {
      HostPlane got = make_plane(g, c.channels, c.type);
      const TileArgs a{static_cast<const std::uint8_t*>(src.view().data), src.pitch,
                       static_cast<std::uint8_t*>(got.mutable_view().data), got.pitch, g.width, g.height,
                       static_cast<int>(src.row_bytes()), c.params.border, vector_ok(src.view().data, src.pitch),
                       vector_ok(got.view().data, got.pitch)};
      if (c.params.op == MorphOp::kDilate) {
        run_format<true>(f, a, c.channels, c.params);
      } else {
        run_format<false>(f, a, c.channels, c.params);
      }
      const std::string what = describe(c) + " " + std::to_string(g.width) + "x" + std::to_string(g.height) +
                               " format " + std::to_string(static_cast<int>(f));
      EXPECT_EQ(first_difference(want, got), "") << what;
      EXPECT_TRUE(padding_untouched(got)) << what << ": wrote outside its rows";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllCases, MorphTileEmulated, ::testing::ValuesIn(all_morph_cases()));

}  // namespace
}  // namespace test
}  // namespace dpx
