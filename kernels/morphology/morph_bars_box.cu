// The kernel and launcher of the bars box pass (morph_bars_box.h); the device code is in
// morph_bars_box.cuh.
#include <cuda_runtime.h>

#include <cstdint>

#include "cuda_check.h"
#include "morph_bars_box.cuh"
#include "morph_bars_box.h"

namespace dpx {
namespace morph {
namespace {

template <typename T, bool kMax, int kRun, int C, bool kSharedCore>
__global__ void __launch_bounds__(kColumnWarpChunks* kColumnRunsPerBlock) bars_box_kernel(BarsBoxArgs b) {
  extern __shared__ uint2 bars_box_tile[];  // column_tile_bytes
  bars_box_pass<T, kMax, kRun, C, kSharedCore>(b, bars_box_tile);
}

template <typename T, bool kMax>
Status launch(const BarsBoxArgs& b, const PassShape& s, int channels, cudaStream_t stream) {
  // The column pass's dispatch; its shapes the pass never takes (no row window, runs of one row:
  // bars_box_args) build no kernel.
  with_column_pass(b.column.run_rows, b.column.half_width, channels, [&](auto run, auto c) {
    constexpr int kRun = decltype(run)::value, C = decltype(c)::value;
    if constexpr (C > 0 && kRun > 1) {
      with_shared_core(bars_share_core(b.bars, b.half_height[b.bars - 1]), [&](auto core) {
        bars_box_kernel<T, kMax, kRun, C, decltype(core)::value>
            <<<dim3(s.blocks_x, s.blocks_y), dim3(s.threads_x, s.threads_y), s.shared_bytes, stream>>>(b);
      });
    }
  });
  DPX_CUDA_CHECK_LAUNCH("bars_box_kernel");
  return Status::ok();
}

}  // namespace

bool bars_box_fits(const PlaneView& in, const std::vector<Bar>& bars) {
  BarsBoxArgs b;
  PassShape s;
  return bars_box_args(in, MutablePlaneView{}, bars, BorderMode::kReplicate, &b, &s);
}

Status bars_box_pass(const PlaneView& in, const MutablePlaneView& out, const std::vector<Bar>& bars,
                     bool dilate, BorderMode border, cudaStream_t stream) {
  BarsBoxArgs b;
  PassShape s;
  if (!bars_box_args(in, out, bars, border, &b, &s)) {
    return Status(StatusCode::kUnsupported, "morphology: element too wide or tall for the bars box pass");
  }
  if (in.type == SampleType::kU8) {
    return dilate ? launch<std::uint8_t, true>(b, s, in.channels, stream)
                  : launch<std::uint8_t, false>(b, s, in.channels, stream);
  }
  return dilate ? launch<std::uint16_t, true>(b, s, in.channels, stream)
                : launch<std::uint16_t, false>(b, s, in.channels, stream);
}

}  // namespace morph
}  // namespace dpx
