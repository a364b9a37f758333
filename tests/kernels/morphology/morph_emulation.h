// What the host emulations of the morphology device code share (test_morph_tile_emulated.cpp,
// test_morph_rows_emulated.cpp): the stand-ins for the CUDA built-ins, then the kernel arguments
// for host planes.
#pragma once

#include "cuda_host_shim.h"  // first: defines what the device headers expect

#include "../../../kernels/morphology/morph_tile.cuh"
#include "morph_test_util.h"

#include <thread>
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

}  // namespace test
}  // namespace dpx
