// The fused 3x3 / 5x5 pass (thin kernel, launch) and its compile-time dispatch as templates on the
// lane format and the rows per thread, and the launcher both builds of it share: the library
// instantiates the DPX lanes at four rows per thread (morph_cuda.cu), the internal variants
// library the plain-op and byte-SIMD lanes and eight rows per thread (morph_variants.cu).
#pragma once

#include <cuda_runtime.h>

#include "cuda_check.h"
#include "dpx/morphology.h"
#include "morph_band.cuh"
#include "morph_launch.h"
#include "morph_rows.cuh"

namespace dpx {
namespace morph {

template <class L, int C, int Size, MorphShape Shape, int R>
__global__ void __launch_bounds__(Tile::kThreads) morph_band_kernel(TileArgs a, BandArgs b) {
  extern __shared__ uint4 ring[];  // BandArgs::ring_rows rows of Tile::kStride bytes
  band_pass<L, C, Size, Shape, R>(DeviceThreads{}, a, b, reinterpret_cast<std::uint8_t*>(ring), blockIdx.x,
                                  blockIdx.y);
}

// One pass over the plane (one iteration).
using PassFn = Status (*)(const TileArgs&, const BandPlan&, cudaStream_t);

template <class L, int C, int Size, MorphShape Shape, int R>
Status run_pass(const TileArgs& a, const BandPlan& plan, cudaStream_t stream) {
  const dim3 grid(plan.blocks_x, plan.blocks_y);
  if (plan.in_registers) {
    morph_rows_kernel<L, C, Size, Shape, R><<<grid, RowsLayout::kThreads, 0, stream>>>(a);
    DPX_CUDA_CHECK_LAUNCH("morph_rows_kernel");
    return Status::ok();
  }
  morph_band_kernel<L, C, Size, Shape, R><<<grid, Tile::kThreads, plan.shared_bytes, stream>>>(a, plan.args);
  DPX_CUDA_CHECK_LAUNCH("morph_band_kernel");
  return Status::ok();
}

template <class L, int C, int Size, int R>
PassFn pick_shape(MorphShape shape) {
  switch (shape) {
    case MorphShape::kRect: return run_pass<L, C, Size, MorphShape::kRect, R>;
    case MorphShape::kCross: return run_pass<L, C, Size, MorphShape::kCross, R>;
    case MorphShape::kEllipse: return run_pass<L, C, Size, MorphShape::kEllipse, R>;
  }
  return nullptr;
}

template <class L, int C, int R>
PassFn pick_size(const MorphParams& p) {
  return p.size == 3 ? pick_shape<L, C, 3, R>(p.shape) : pick_shape<L, C, 5, R>(p.shape);
}

template <class L, int R>
PassFn pick_channels(int channels, const MorphParams& p) {
  switch (channels) {
    case 1: return pick_size<L, 1, R>(p);
    case 2: return pick_size<L, 2, R>(p);
    case 4: return pick_size<L, 4, R>(p);
  }
  return nullptr;
}

template <template <class, bool> class Lanes, class Ops, int R>
PassFn pick_op(int channels, const MorphParams& p) {
  return p.op == MorphOp::kDilate ? pick_channels<Lanes<Ops, true>, R>(channels, p)
                                  : pick_channels<Lanes<Ops, false>, R>(channels, p);
}

// The fused pass of `p` (a square 3x3 or 5x5 element, p.op dilate or erode) for a plane of `type`
// and `channels`, at `rows_per_thread`; nullptr where none is built.
using PickPass = PassFn (*)(SampleType type, int channels, const MorphParams& p, int rows_per_thread);

// The DPX passes at four rows per thread (what dpx::morph_cuda runs).
PassFn pick_dpx_pass(SampleType type, int channels, const MorphParams& p, int rows_per_thread);

// One call after morph_validate(): the band plan of `schedule`, the fused passes from `pick` for
// square 3x3 / 5x5 elements (the separable passes otherwise), every iteration and operation.
Status morph_cuda_run(const PlaneView& src, const MutablePlaneView& dst, const MorphParams& params,
                      cudaStream_t stream, DeviceBuffer* scratch, detail::MorphSchedule schedule, PickPass pick);

}  // namespace morph
}  // namespace dpx
