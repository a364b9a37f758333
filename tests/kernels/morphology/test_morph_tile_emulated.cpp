// The CUDA device code (morph_band.cuh, morph_tile.cuh, morph_lanes.cuh) run on the host: each
// block runs the kernel's own schedule (band_pass), every phase by each thread in turn, with
// cuda_host_shim.h standing in for the CUDA built-ins. Asynchronous copies land either at their
// wait (reading a ring row too soon shows) or at their issue (overwriting a ring row still to be
// read shows). Checked against morph_cpu on every case of the matrix, every lane format and every
// schedule, plus band parameters that make the ring wrap on these small planes, so the indexing,
// halos, ring slots, border chunks and row-end stores are tested on machines without a GPU (the
// GPU tests hold the real kernels to the same results on the device).
#include "morph_emulation.h"  // first: the CUDA stand-ins the device headers expect

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "../../../kernels/morphology/morph_band.cuh"
#include "../../../kernels/morphology/morph_lanes.cuh"
#include "morph_test_util.h"
#include "test_util.h"

namespace dpx {
namespace test {
namespace {

using morph::BandArgs;
using morph::BandPlan;
using morph::Tile;
using morph::PassArgs;

// A block's threads on the host: each phase runs for every thread before the next begins.
struct EmulatedThreads {
  template <class F>
  void each(const F& f) const {
    for (unsigned t = 0; t < Tile::kThreads; ++t) {
      threadIdx.x = t;
      f();
    }
  }
  void sync() const {}
};

template <class L, int C, int Size, MorphShape Shape>
void run_blocks(const PassArgs& a, const BandPlan& p) {
  std::vector<uint4> ring(p.shared_bytes / sizeof(uint4));
  for (int by = 0; by < p.blocks_y; ++by) {
    for (int bx = 0; bx < p.blocks_x; ++bx) {
      std::memset(ring.data(), 0x5A, p.shared_bytes);  // stale shared memory must not leak into results
      auto* bytes = reinterpret_cast<std::uint8_t*>(ring.data());
      if (p.rows_per_thread == 8) {
        morph::band_pass<L, C, Size, Shape, 8>(EmulatedThreads{}, a, p.args, bytes, bx, by);
      } else {
        morph::band_pass<L, C, Size, Shape, 4>(EmulatedThreads{}, a, p.args, bytes, bx, by);
      }
      ASSERT_TRUE(emulated_copies_drained()) << "block " << bx << "," << by << " left copies unwaited";
    }
  }
}

template <class L>
void run_geometry(const PassArgs& a, const BandPlan& plan, int channels, const MorphParams& p) {
  morph::with_square_element(channels, p.size, p.shape, [&](auto c, auto size, auto shape) {
    run_blocks<L, decltype(c)::value, decltype(size)::value, decltype(shape)::value>(a, plan);
  });
}

enum class Format { kU16, kU8Split, kU8x4 };

template <bool kMax>
void run_format(Format f, const PassArgs& a, const BandPlan& plan, int channels, const MorphParams& p) {
  using ops::Dpx;
  if (f == Format::kU16) run_geometry<morph::U16x2Lanes<Dpx, kMax>>(a, plan, channels, p);
  if (f == Format::kU8Split) run_geometry<morph::U8SplitLanes<Dpx, kMax>>(a, plan, channels, p);
  if (f == Format::kU8x4) run_geometry<morph::U8x4Lanes<Dpx, kMax>>(a, plan, channels, p);
}

// Every schedule as the launcher plans it (the streaming one for a large and a one-SM device), and
// band parameters that wrap the ring on planes of a few dozen rows: with no prefetch, with one
// and three groups ahead, and at 8 rows per thread.
std::vector<std::pair<std::string, BandPlan>> plans_for(int height, int row_bytes, int radius) {
  using variants::MorphSchedule;
  std::vector<std::pair<std::string, BandPlan>> plans;
  for (MorphSchedule s :
       {MorphSchedule::kStream, MorphSchedule::kSplit, MorphSchedule::kTile32, MorphSchedule::kTile64}) {
    plans.emplace_back(variants::morph_schedule_name(s), morph::plan_band(s, height, row_bytes, radius, 132));
  }
  plans.emplace_back("stream on one SM", morph::plan_band(MorphSchedule::kStream, height, row_bytes, radius, 1));
  const auto wrapping = [&](int rows_per_thread, int band_rows, int prefetch) {
    return std::make_pair("band " + std::to_string(band_rows) + " prefetch " + std::to_string(prefetch) + " at " +
                              std::to_string(rows_per_thread) + " rows per thread",
                          morph::plan_bands(rows_per_thread, band_rows, prefetch, height, row_bytes, radius));
  };
  plans.push_back(wrapping(4, 64, 0));
  plans.push_back(wrapping(4, 96, 1));
  plans.push_back(wrapping(4, 128, 3));
  plans.push_back(wrapping(8, 128, 0));
  return plans;
}

class MorphTileEmulated : public ::testing::TestWithParam<MorphCase> {};

TEST_P(MorphTileEmulated, MatchesCpu) {
  std::mt19937_64 rng = seeded_rng();
  const MorphCase c = GetParam();
  const std::vector<Format> formats = c.type == SampleType::kU16 ? std::vector<Format>{Format::kU16}
                                                                 : std::vector<Format>{Format::kU8Split, Format::kU8x4};
  for (const Geometry& g : edge_geometries()) {
    HostPlane src = make_plane(g, c.channels, c.type);
    fill_random(src, rng);
    HostPlane want = make_plane(g.width, g.height, c.channels, c.type);
    ASSERT_TRUE(morph_cpu(src.view(), want.mutable_view(), c.params).is_ok());
    for (Format f : formats) {
      for (const auto& [name, plan] : plans_for(g.height, static_cast<int>(src.row_bytes()), c.params.size / 2)) {
        for (bool early : {false, true}) {
          emulated_copies_land_early = early;
          HostPlane got = make_plane(g, c.channels, c.type);
          const PassArgs a = emulated_args(src, got, c.params.border);
          if (c.params.op == MorphOp::kDilate) {
            run_format<true>(f, a, plan, c.channels, c.params);
          } else {
            run_format<false>(f, a, plan, c.channels, c.params);
          }
          const std::string what = describe(c) + " " + std::to_string(g.width) + "x" + std::to_string(g.height) +
                                   " format " + std::to_string(static_cast<int>(f)) + " schedule " + name +
                                   (early ? " (copies land early)" : " (copies land late)");
          EXPECT_EQ(first_difference(want, got), "") << what;
          EXPECT_TRUE(padding_untouched(got)) << what << ": wrote outside its rows";
        }
      }
    }
  }
  emulated_copies_land_early = false;
}

INSTANTIATE_TEST_SUITE_P(AllCases, MorphTileEmulated, ::testing::ValuesIn(all_morph_cases()));

}  // namespace
}  // namespace test
}  // namespace dpx
