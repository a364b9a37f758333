// The kernels and launchers of the separable passes on block maxima (morph_rect.h); the device
// code is in morph_rect.cuh.
#include <cuda_runtime.h>

#include <cstdint>

#include "cuda_check.h"
#include "launch_sizing.h"
#include "morph_rect.cuh"
#include "morph_rect.h"

namespace dpx {
namespace morph {
namespace {

template <typename T, bool kMax, int kRun>
__global__ void __launch_bounds__(kColumnWarpChunks* rect_column_max_warps<T>())
    block_maxima_column_kernel(RectColumnArgs a) {
  extern __shared__ uint2 maxima[];  // a.maxima rows of kColumnWarpChunks chunks
  store_column_block_maxima<T, kMax, kRun>(a, maxima);
  __syncthreads();
  block_maxima_column_runs<T, kMax, kRun>(a, maxima);
}

// The u8 row pass in runs of 16 would take 95 registers and fit 5 blocks an SM: a 4K frame's 1,020
// blocks then run in two rounds. Held to 8 blocks (64 registers, a 96-byte spill that stays in L1)
// they run in one, 11 % faster on the H100. Any minimum changes ptxas's register heuristic, so the
// other instantiations (already at 8 blocks or faster unbounded) get none.
template <typename T, int kRun>
constexpr int row_pass_min_blocks() {
  return sizeof(T) == 1 && kRun == kMaxRun ? 8 : 0;
}

template <typename T, bool kMax, int kRun>
__global__ void __launch_bounds__(kRowThreads, row_pass_min_blocks<T, kRun>())
    block_maxima_row_kernel(RectRowArgs a) {
  extern __shared__ uint4 shared[];  // the row pass's lines and results, then the maxima
  const RowBlock<T> b(a.row, reinterpret_cast<std::uint32_t*>(shared));
  load_row_lines<T, kMax>(a.row, b);
  __syncthreads();
  store_row_block_maxima<T, kMax, kRun>(a, b);
  __syncthreads();
  block_maxima_row_runs<T, kMax, kRun>(a, b);
  __syncthreads();
  store_row_results<T>(a.row, b);
}

template <typename T, bool kMax>
Status launch_rows(const PlaneView& in, const MutablePlaneView& out, int radius, BorderMode border,
                   cudaStream_t stream) {
  PassShape s;
  const RectRowArgs a = rect_row_args<T>(in, out, radius, border, &s);
  with_window_run(a.row.run, [&](auto run) {
    block_maxima_row_kernel<T, kMax, decltype(run)::value>
        <<<dim3(s.blocks_x, s.blocks_y), dim3(s.threads_x, s.threads_y), s.shared_bytes, stream>>>(a);
  });
  DPX_CUDA_CHECK_LAUNCH("block_maxima_row_kernel");
  return Status::ok();
}

template <typename T, bool kMax>
Status launch_columns(const PlaneView& in, const MutablePlaneView& out, int radius, BorderMode border,
                      bool merge, cudaStream_t stream) {
  int sms = 0;
  DPX_RETURN_IF_ERROR(runtime::sm_count(&sms));
  PassShape s;
  const RectColumnArgs a = rect_column_args<T>(in, out, radius, border, merge, sms, &s);
  with_window_run(a.column.run_rows, [&](auto run) {
    block_maxima_column_kernel<T, kMax, decltype(run)::value>
        <<<dim3(s.blocks_x, s.blocks_y), dim3(s.threads_x, s.threads_y), s.shared_bytes, stream>>>(a);
  });
  DPX_CUDA_CHECK_LAUNCH("block_maxima_column_kernel");
  return Status::ok();
}

}  // namespace

Status block_maxima_row_pass(const PlaneView& in, const MutablePlaneView& out, int radius, BorderMode border,
                             bool dilate, cudaStream_t stream) {
  if (in.type == SampleType::kU8) {
    return dilate ? launch_rows<std::uint8_t, true>(in, out, radius, border, stream)
                  : launch_rows<std::uint8_t, false>(in, out, radius, border, stream);
  }
  return dilate ? launch_rows<std::uint16_t, true>(in, out, radius, border, stream)
                : launch_rows<std::uint16_t, false>(in, out, radius, border, stream);
}

Status block_maxima_column_pass(const PlaneView& in, const MutablePlaneView& out, int radius,
                                BorderMode border, bool merge, bool dilate, cudaStream_t stream) {
  if (in.type == SampleType::kU8) {
    return dilate ? launch_columns<std::uint8_t, true>(in, out, radius, border, merge, stream)
                  : launch_columns<std::uint8_t, false>(in, out, radius, border, merge, stream);
  }
  return dilate ? launch_columns<std::uint16_t, true>(in, out, radius, border, merge, stream)
                : launch_columns<std::uint16_t, false>(in, out, radius, border, merge, stream);
}

}  // namespace morph
}  // namespace dpx
