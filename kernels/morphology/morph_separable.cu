// Kernels and launchers of the separable CUDA morphology (morph_separable.h); the device code is
// in morph_separable.cuh.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "cuda_check.h"
#include "morph_lanes.cuh"   // subtract_saturated
#include "morph_launch.h"    // morph_block_maxima_window
#include "morph_rect.h"
#include "morph_separable.cuh"
#include "morph_separable.h"
#include "morph_tile.cuh"  // vector_ok

namespace dpx {
namespace morph {
namespace {

template <typename T, bool kMax, int kRun>
__global__ void __launch_bounds__(kRowThreads) row_pass_kernel(RowPassArgs a) {
  extern __shared__ uint4 shared[];
  row_pass<T, kMax, kRun>(a, reinterpret_cast<std::uint32_t*>(shared));
}

// Blocks an SM the column pass must leave room for: six for a box pass in runs of kMaxBoxRun (u8
// unbounded takes 109 registers: four blocks), else no bound (0: even a bound of one block took a
// box pass in runs of one row from 40 registers to 64, and made the 15x1 bar slower).
template <int kRun, int C>
constexpr int column_min_blocks() {
  return C != 0 && kRun == kMaxBoxRun ? 6 : 0;
}

template <typename T, bool kMax, int kRun, int C>
__global__ void __launch_bounds__(kColumnWarpChunks * kColumnRunsPerBlock, column_min_blocks<kRun, C>())
    column_pass_kernel(ColumnPassArgs a) {
  extern __shared__ uint2 column_tile[];  // column_tile_bytes where a.tiled
  column_pass<T, kMax, kRun, C>(a, column_tile);
}

// max(a - b, 0) sample by sample, 16 bytes a thread: one 16-byte load of each input and one store
// (per-word saturating SIMD subtraction) where all three planes are 16-byte aligned and the chunk
// lies inside the row, sample by sample otherwise. `out` may be `a` or `b`: each thread reads its
// chunk before writing it.
template <typename T>
__global__ void subtract_kernel(const std::uint8_t* a, std::size_t a_pitch, const std::uint8_t* b,
                                std::size_t b_pitch, std::uint8_t* out, std::size_t out_pitch, int row_bytes,
                                int height, bool vector) {
  constexpr int kChunk = 16;
  const int xb = (blockIdx.x * blockDim.x + threadIdx.x) * kChunk;
  if (xb >= row_bytes) return;
  for (std::size_t y = blockIdx.y; y < static_cast<std::size_t>(height); y += gridDim.y) {
    const std::uint8_t* ra = a + y * a_pitch + xb;
    const std::uint8_t* rb = b + y * b_pitch + xb;
    std::uint8_t* ro = out + y * out_pitch + xb;
    if (vector && xb + kChunk <= row_bytes) {
      const uint4 va = *reinterpret_cast<const uint4*>(ra);
      const uint4 vb = *reinterpret_cast<const uint4*>(rb);
      *reinterpret_cast<uint4*>(ro) = make_uint4(subtract_saturated<T>(va.x, vb.x), subtract_saturated<T>(va.y, vb.y),
                                                    subtract_saturated<T>(va.z, vb.z), subtract_saturated<T>(va.w, vb.w));
      continue;
    }
    for (int x = 0; x < kChunk && xb + x < row_bytes; x += static_cast<int>(sizeof(T))) {
      const T va = *reinterpret_cast<const T*>(ra + x);
      const T vb = *reinterpret_cast<const T*>(rb + x);
      *reinterpret_cast<T*>(ro + x) = static_cast<T>(va > vb ? va - vb : 0);
    }
  }
}

template <typename T, bool kMax>
Status launch_rows(const PlaneView& in, const MutablePlaneView& out, int radius, BorderMode border,
                   cudaStream_t stream) {
  PassShape s;
  const RowPassArgs a = row_pass_args<T>(in, out, radius, border, &s);
  with_window_run(a.run, [&](auto run) {
    row_pass_kernel<T, kMax, decltype(run)::value>
        <<<dim3(s.blocks_x, s.blocks_y), dim3(s.threads_x, s.threads_y), s.shared_bytes, stream>>>(a);
  });
  DPX_CUDA_CHECK_LAUNCH("row_pass_kernel");
  return Status::ok();
}

template <typename T, bool kMax>
Status launch_columns(const PlaneView& in, const MutablePlaneView& out, int radius, int half_width, BorderMode border,
                      bool merge, cudaStream_t stream) {
  PassShape s;
  const ColumnPassArgs a = column_pass_args(in, out, radius, half_width, border, merge, &s);
  with_column_pass(a.run_rows, half_width, in.channels, [&](auto run, auto channels) {
    column_pass_kernel<T, kMax, decltype(run)::value, decltype(channels)::value>
        <<<dim3(s.blocks_x, s.blocks_y), dim3(s.threads_x, s.threads_y), s.shared_bytes, stream>>>(a);
  });
  DPX_CUDA_CHECK_LAUNCH("column_pass_kernel");
  return Status::ok();
}

template <typename T, bool kMax>
Status run_bars(const PlaneView& in, const MutablePlaneView& out, const MutablePlaneView& rows,
                const std::vector<Bar>& bars, BorderMode border, cudaStream_t stream, const SeparableLaunchers& launchers) {
  return for_each_bar_pass(
      in, out, rows, bars,
      [&](const MutablePlaneView& dst, int half_width) {
        if (launchers.rows != nullptr) return launchers.rows(in, dst, half_width, border, kMax, stream);
        if (detail::morph_block_maxima_window(in.type, half_width)) {
          return block_maxima_row_pass(in, dst, half_width, border, kMax, stream);
        }
        return launch_rows<T, kMax>(in, dst, half_width, border, stream);
      },
      [&](const PlaneView& src, int half_height, int half_width, bool merge) {
        if (half_width == 0 && launchers.columns != nullptr) {
          return launchers.columns(src, out, half_height, border, merge, kMax, stream);
        }
        if (half_width == 0 && detail::morph_block_maxima_window(in.type, half_height)) {
          return block_maxima_column_pass(src, out, half_height, border, merge, kMax, stream);
        }
        return launch_columns<T, kMax>(src, out, half_height, half_width, border, merge, stream);
      },
      [&]() -> Status {
        DPX_CUDA_TRY(cudaMemcpy2DAsync(rows.data, rows.pitch, in.data, in.pitch, in.row_bytes(), in.height,
                                       cudaMemcpyDeviceToDevice, stream));
        return Status::ok();
      });
}

}  // namespace

Status separable_pass(const PlaneView& in, const MutablePlaneView& out, const MutablePlaneView& rows,
                      const std::vector<Bar>& bars, bool dilate, BorderMode border, cudaStream_t stream,
                      const SeparableLaunchers& launchers) {
  if (in.type == SampleType::kU8) {
    return dilate ? run_bars<std::uint8_t, true>(in, out, rows, bars, border, stream, launchers)
                  : run_bars<std::uint8_t, false>(in, out, rows, bars, border, stream, launchers);
  }
  return dilate ? run_bars<std::uint16_t, true>(in, out, rows, bars, border, stream, launchers)
                : run_bars<std::uint16_t, false>(in, out, rows, bars, border, stream, launchers);
}

Status subtract_cuda(const PlaneView& a, const PlaneView& b, const MutablePlaneView& out, cudaStream_t stream) {
  constexpr int kThreads = 256;
  const int row_bytes = static_cast<int>(a.row_bytes());
  const dim3 grid((row_bytes + 16 * kThreads - 1) / (16 * kThreads), std::min(a.height, 65535));
  const auto* pa = static_cast<const std::uint8_t*>(a.data);
  const auto* pb = static_cast<const std::uint8_t*>(b.data);
  auto* po = static_cast<std::uint8_t*>(out.data);
  const bool vector = vector_ok(pa, a.pitch) && vector_ok(pb, b.pitch) && vector_ok(po, out.pitch);
  if (a.type == SampleType::kU8) {
    subtract_kernel<std::uint8_t>
        <<<grid, kThreads, 0, stream>>>(pa, a.pitch, pb, b.pitch, po, out.pitch, row_bytes, a.height, vector);
  } else {
    subtract_kernel<std::uint16_t>
        <<<grid, kThreads, 0, stream>>>(pa, a.pitch, pb, b.pitch, po, out.pitch, row_bytes, a.height, vector);
  }
  DPX_CUDA_CHECK_LAUNCH("subtract_kernel");
  return Status::ok();
}

}  // namespace morph
}  // namespace dpx
