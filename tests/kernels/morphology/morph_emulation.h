// What the host emulations of the morphology device code share (test_morph_tile_emulated.cpp,
// test_morph_rows_emulated.cpp): the stand-ins for the CUDA built-ins, then the kernel arguments
// for host planes.
#pragma once

#include "cuda_host_shim.h"  // first: defines what the device headers expect

#include "../../../kernels/morphology/morph_tile.cuh"
#include "morph_test_util.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace dpx {
namespace test {

// Runs f() as block (block_x, block_y) of dim_x x dim_y threads (dim_x a multiple of 32): each
// warp's lanes on host threads that meet at each shuffle, the warps side by side, all of them
// meeting at each __syncthreads.
template <class F>
void run_emulated_block(int dim_x, int dim_y, int block_x, int block_y, const F& f) {
  EmulatedBlockBarrier barrier(static_cast<unsigned>(dim_x * dim_y));
  std::vector<std::thread> warps;
  for (int ty = 0; ty < dim_y; ++ty) {
    for (int first = 0; first < dim_x; first += static_cast<int>(EmulatedWarp::kLanes)) {
      warps.emplace_back([&, ty, first] {
        EmulatedWarp::run(static_cast<unsigned>(first), [&] {
          threadIdx.y = static_cast<unsigned>(ty);
          blockIdx.x = static_cast<unsigned>(block_x);
          blockIdx.y = static_cast<unsigned>(block_y);
          blockDim.x = static_cast<unsigned>(dim_x);
          blockDim.y = static_cast<unsigned>(dim_y);
          emulated_block_barrier = &barrier;
          f();
        });
      });
    }
  }
  for (std::thread& w : warps) w.join();
}

// The kernels' arguments for filtering `src` into `dst` (same shape) under `border`.
inline morph::PassArgs emulated_args(const HostPlane& src, HostPlane& dst, BorderMode border) {
  const auto* in = static_cast<const std::uint8_t*>(src.view().data);
  auto* out = static_cast<std::uint8_t*>(dst.mutable_view().data);
  return morph::PassArgs{in,         src.pitch, out,    dst.pitch, src.width, src.height, static_cast<int>(src.row_bytes()),
                         border,     morph::vector_ok(in, src.pitch), morph::vector_ok(out, dst.pitch)};
}

// An element's case for `turn` under `border`: dilate / erode, u8 / u16 and 1, 2 or 4 channels turn
// with it (twelve consecutive turns take every combination).
inline MorphCase turned_case(MorphShape shape, int width, int height, BorderMode border, int turn) {
  MorphCase c;
  c.params.shape = shape;
  c.params.width = width;
  c.params.height = height;
  c.params.border = border;
  c.params.op = turn % 2 == 0 ? MorphOp::kDilate : MorphOp::kErode;
  c.type = turn / 2 % 2 == 0 ? SampleType::kU8 : SampleType::kU16;
  c.channels = 1 << (turn / 4 % 3);
  return c;
}

// An emulated pass of case `c` over `src` (a plane of frame g) against morph_cpu, byte for byte, and
// nothing written outside the rows: run(sample, dilate, src, got) with `sample` a std::uint8_t or
// std::uint16_t and `dilate` a std::bool_constant, as the case's type and operation say.
template <class Run>
void expect_emulation_matches_cpu(const MorphCase& c, const Geometry& g, const HostPlane& src,
                                  const Run& run) {
  HostPlane want = make_plane(g.width, g.height, c.channels, c.type);
  ASSERT_TRUE(morph_cpu(src.view(), want.mutable_view(), c.params).is_ok());
  HostPlane got = make_plane(g, c.channels, c.type);
  const bool dilate = c.params.op == MorphOp::kDilate;
  const auto with_sample = [&](auto sample) {
    if (dilate) {
      run(sample, std::true_type{}, src, got);
    } else {
      run(sample, std::false_type{}, src, got);
    }
  };
  if (c.type == SampleType::kU8) {
    with_sample(std::uint8_t{});
  } else {
    with_sample(std::uint16_t{});
  }
  const std::string what = describe(c) + " " + std::to_string(g.width) + "x" + std::to_string(g.height) +
                           " pitch " + std::to_string(src.pitch) + " offset " + std::to_string(src.offset);
  EXPECT_EQ(first_difference(want, got), "") << what;
  EXPECT_TRUE(padding_untouched(got)) << what << ": wrote outside its rows";
}

}  // namespace test
}  // namespace dpx
