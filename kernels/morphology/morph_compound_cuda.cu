// The one-pass compound operations of square 3x3 / 5x5 elements on the register schedule
// (morph_rows_compound.cuh): launch and dispatch, DPX lanes, four rows per thread. Built apart
// from morph_cuda.cu so that the two compile side by side.
#include <cuda_runtime.h>

#include "cuda_check.h"
#include "dpx_ops.cuh"
#include "morph_lanes.cuh"
#include "morph_pass.cuh"
#include "morph_rows_compound.cuh"

namespace dpx {
namespace morph {
namespace {

constexpr int kCompoundRows = 4;  // output rows per thread
constexpr int kBlockRows = RowsLaunch::block_rows(kCompoundRows);

template <template <class, bool> class Lanes, int C, int Size, MorphShape Shape, MorphOp kOp>
Status run_compound(const PassArgs& a, cudaStream_t stream) {
  constexpr int kStep = compound_warp_bytes(compound_kernel(kOp));
  const dim3 grid((a.row_bytes + kStep - 1) / kStep, (a.height + kBlockRows - 1) / kBlockRows);
  morph_compound_kernel<Lanes, ops::Dpx, C, Size, Shape, kCompoundRows, kOp>
      <<<grid, RowsLayout::kThreads, 0, stream>>>(a);
  DPX_CUDA_CHECK_LAUNCH("morph_compound_kernel");
  return Status::ok();
}

template <template <class, bool> class Lanes>
struct CompoundPass {
  template <int C, int Size, MorphShape Shape>
  struct At {
    static PassFn fn(const MorphParams& p) {
      PassFn pass = nullptr;
      with_compound_op(p.op, [&](auto op) { pass = run_compound<Lanes, C, Size, Shape, decltype(op)::value>; });
      return pass;
    }
  };
};

}  // namespace

PassFn dpx_compound_pass(SampleType type, int channels, const MorphParams& p) {
  return type == SampleType::kU16 ? dispatch<CompoundPass<U16x2Lanes>::At>(channels, p)
                                  : dispatch<CompoundPass<U8SplitLanes>::At>(channels, p);
}

}  // namespace morph
}  // namespace dpx
