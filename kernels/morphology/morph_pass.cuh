// The fused 3x3 / 5x5 pass (thin kernel, launch) and its compile-time dispatch as templates on the
// lane format and the rows per thread, and the launcher both builds of it share: the library
// instantiates the DPX lanes at DefaultRows (morph_cuda.cu), the internal variants library the
// others (morph_variants.cu).
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

// The pass of a square 3x3 / 5x5 element chosen on the run-time channels, size and shape:
// Pass<C, Size, Shape>::fn(p), nullptr where none is built.
template <template <int, int, MorphShape> class Pass>
PassFn dispatch(int channels, const MorphParams& p) {
  PassFn pass = nullptr;
  with_square_element(channels, p.size, p.shape,
                      [&](auto c, auto size, auto shape) {
                        pass = Pass<decltype(c)::value, decltype(size)::value, decltype(shape)::value>::fn(p);
                      });
  return pass;
}

// One dilation or erosion (the lane format L says which) at Rows::of(Size) rows per thread.
template <class L, class Rows>
struct SinglePass {
  template <int C, int Size, MorphShape Shape>
  struct At {
    static PassFn fn(const MorphParams&) {
      if constexpr (Rows::of(Size) == 0) {
        return nullptr;
      } else {
        return run_pass<L, C, Size, Shape, Rows::of(Size)>;
      }
    }
  };
};

// p.op's pass with Lanes<Ops, max?>; nullptr for the compound operations (two passes, or the
// one-pass kernels of morph_compound_cuda.cu).
template <template <class, bool> class Lanes, class Ops, class Rows>
PassFn pick_op(int channels, const MorphParams& p) {
  if (p.op == MorphOp::kDilate) return dispatch<SinglePass<Lanes<Ops, true>, Rows>::template At>(channels, p);
  if (p.op == MorphOp::kErode) return dispatch<SinglePass<Lanes<Ops, false>, Rows>::template At>(channels, p);
  return nullptr;
}

// The fused pass of `p` (a square 3x3 or 5x5 element; p.op dilate or erode, or with
// p.iterations 1 a compound operation) for a plane of `type` and `channels`, at
// `rows_per_thread`; nullptr where none is built.
using PickPass = PassFn (*)(SampleType type, int channels, const MorphParams& p, int rows_per_thread);

// The DPX passes dpx::morph_cuda runs (morph_default_schedule()): DefaultRows; nullptr for other
// rows per thread.
PassFn pick_dpx_pass(SampleType type, int channels, const MorphParams& p, int rows_per_thread);

// The DPX one-pass compound operations of the register schedule (morph_compound_cuda.cu), p.op
// compound; nullptr where none is built.
PassFn pick_dpx_compound(SampleType type, int channels, const MorphParams& p);

// One call after morph_validate(): the band plan of `schedule`, the fused passes from `pick` for
// square 3x3 / 5x5 elements (the separable passes otherwise), every iteration and operation; a
// compound operation of one iteration in one pass where `pick` has one for it.
Status morph_cuda_run(const PlaneView& src, const MutablePlaneView& dst, const MorphParams& params,
                      cudaStream_t stream, DeviceBuffer* scratch, detail::MorphSchedule schedule, PickPass pick);

}  // namespace morph
}  // namespace dpx
