// The fused 3x3 / 5x5 pass of the register kernel (thin kernel, launch), the compile-time dispatch
// of a pass on the lane format, the rows a lane and the launch, and the launcher every schedule
// shares: the library instantiates the DPX lanes at DefaultRows (morph_cuda.cu), the internal
// variants library the others and the shared-memory band schedules (morph_variants.cu).
#pragma once

#include <cuda_runtime.h>

#include <vector>

#include "cuda_check.h"
#include "dpx/morphology.h"
#include "morph_bars.h"
#include "morph_launch.h"
#include "morph_rows.cuh"
#include "morph_separable.h"  // SeparableLaunchers

namespace dpx {
namespace morph {

// One pass over the plane (one iteration): launches its kernel with the grid it needs.
using PassFn = Status (*)(const PassArgs&, cudaStream_t);

// The register kernel's launch: a warp per 512 bytes of R rows, RowsLayout::kWarps warps a block.
struct RowsLaunch {
  static constexpr int block_rows(int rows_per_thread) { return RowsLayout::kWarps * rows_per_thread; }
  static dim3 grid(int rows_per_thread, int height, int row_bytes) {
    return dim3((row_bytes + RowsLayout::kWarpBytes - 1) / RowsLayout::kWarpBytes,
                (height + block_rows(rows_per_thread) - 1) / block_rows(rows_per_thread));
  }

  template <class L, int C, int Size, MorphShape Shape, int R>
  static Status run(const PassArgs& a, cudaStream_t stream) {
    morph_rows_kernel<L, C, Size, Shape, R><<<grid(R, a.height, a.row_bytes), RowsLayout::kThreads, 0, stream>>>(a);
    DPX_CUDA_CHECK_LAUNCH("morph_rows_kernel");
    return Status::ok();
  }
};

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

// One dilation or erosion (the lane format L says which) at Rows::of(Size) rows per thread,
// launched by Launch (RowsLaunch, or a band schedule of the variants).
template <class L, class Rows, class Launch = RowsLaunch>
struct SinglePass {
  template <int C, int Size, MorphShape Shape>
  struct At {
    static PassFn fn(const MorphParams&) {
      if constexpr (Rows::of(Size) == 0) {
        return nullptr;
      } else {
        return Launch::template run<L, C, Size, Shape, Rows::of(Size)>;
      }
    }
  };
};

// p.op's pass with Lanes<Ops, max?>; nullptr for the compound operations (two passes, or the
// one-pass kernels of morph_compound_cuda.cu).
template <template <class, bool> class Lanes, class Ops, class Rows, class Launch = RowsLaunch>
PassFn op_pass(int channels, const MorphParams& p) {
  if (p.op == MorphOp::kDilate) return dispatch<SinglePass<Lanes<Ops, true>, Rows, Launch>::template At>(channels, p);
  if (p.op == MorphOp::kErode) return dispatch<SinglePass<Lanes<Ops, false>, Rows, Launch>::template At>(channels, p);
  return nullptr;
}

// One dilation (`dilate`) or erosion of `in` into `out` over all bars of an element.
using ElementPassFn = Status (*)(const PlaneView& in, const MutablePlaneView& out,
                                 const std::vector<Bar>& bars, bool dilate, BorderMode border,
                                 cudaStream_t stream);

// The passes one call runs: the fused ones on a square 3x3 or 5x5 element, and a variant's for
// crosses and ellipses and for the separable passes where it has them.
struct FusedPasses {
  // The pass of `p` (p.op dilate or erode, or a compound operation of one iteration done in one
  // pass) for a plane of `type` and `channels`; nullptr where none is built.
  PassFn (*pass_for)(SampleType type, int channels, const MorphParams& p);
  // Output rows of the plane one block covers at the least: the launches refuse planes whose grid
  // would have more than 65,535 blocks down.
  int (*block_rows)(SampleType type, int size);
  const char* schedule;  // named in the error where pass_for has nothing
  // Where set, every cross and ellipse takes it (a variant's: all bars of the element in one pass,
  // morph_shape.h) instead of the passes the library chooses (morph_launch.h).
  ElementPassFn element_pass = nullptr;
  // A variant's passes in place of the ones the separable passes choose.
  SeparableLaunchers separable = {};
};

// The DPX passes dpx::morph_cuda runs: the register kernel at DefaultRows, and their block rows.
PassFn dpx_pass(SampleType type, int channels, const MorphParams& p);
int dpx_block_rows(SampleType type, int size);

// The DPX one-pass compound operations of the register kernel (morph_compound_cuda.cu), p.op
// compound; nullptr where none is built.
PassFn dpx_compound_pass(SampleType type, int channels, const MorphParams& p);

// One call after morph_validate(): the fused passes of `passes` for square 3x3 / 5x5 elements
// (the separable passes otherwise), every iteration and operation; a compound operation of one
// iteration in one pass where `passes` has one for it.
Status morph_cuda_run(const PlaneView& src, const MutablePlaneView& dst, const MorphParams& params,
                      cudaStream_t stream, DeviceBuffer* scratch, const FusedPasses& passes);

}  // namespace morph
}  // namespace dpx
