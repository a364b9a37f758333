// The second stage on the GPU: one warp per block runs refine_block.h, its lanes sharing the
// block's pixels, with the block and each reference window its candidates read copied into the
// warp's shared memory first (a candidate's SAD then costs no global access); and the 4x box
// average of the predictive search, one thread per coarse pixel.
#include <cuda_runtime.h>

#include <cstdint>

#include "block_match_cuda.h"
#include "cuda_check.h"
#include "refine_block.h"

namespace dpx {
namespace motion_detail {

namespace {

constexpr int kWarpsPerCta = 4;
constexpr int kMaxBlock = 32;                                // motion_validate's largest block
constexpr int kMaxWindow = kMaxBlock + 2 * kPredictiveWindow;  // the widest window_around()

// The block (kMaxBlock samples per row) and one reference window (rw samples per row, its first
// at frame coordinates (rx, ry)) in shared memory.
template <typename T>
struct SharedSamples {
  const T* cur;
  const T* ref;
  int rx, ry, rw;
};

// The lane's part of a candidate's SAD from shared memory: the same samples and arithmetic as the
// generic partial_sad (refine_block.h), with the addressing and the bilinear weights hoisted out of
// the pixel loop. A weight of 0 multiplies a sample the generic code does not read; it lies in the
// window (sub-pel candidates have a whole part of cx - 1 or cx) and adds nothing.
template <typename T>
__device__ std::uint32_t partial_sad(const SharedSamples<T>& px, const BlockSpan& b, int vx, int vy, int s) {
  const SubpelOffset ox = subpel_offset(vx, s), oy = subpel_offset(vy, s);
  const int rw = px.rw;
  const T* ref = px.ref + (b.y0 + oy.whole - px.ry) * rw + (b.x0 + ox.whole - px.rx);
  int x = b.x, y = b.y;
  std::uint32_t sum = 0;
  if ((ox.quarter | oy.quarter) == 0) {
    while (y < b.bh) {
      sum += static_cast<std::uint32_t>(abs(static_cast<int>(px.cur[y * kMaxBlock + x]) - ref[y * rw + x]));
      x += b.step_x;
      y += b.step_y;
      if (x >= b.bw) x -= b.bw, ++y;
    }
    return sum;
  }
  const int w11 = ox.quarter * oy.quarter, w10 = (4 - ox.quarter) * oy.quarter;
  const int w01 = ox.quarter * (4 - oy.quarter), w00 = (4 - ox.quarter) * (4 - oy.quarter);
  while (y < b.bh) {
    const T* p = ref + y * rw + x;
    const int r = (w00 * p[0] + w01 * p[1] + w10 * p[rw] + w11 * p[rw + 1] + 8) >> 4;
    sum += static_cast<std::uint32_t>(abs(static_cast<int>(px.cur[y * kMaxBlock + x]) - r));
    x += b.step_x;
    y += b.step_y;
    if (x >= b.bw) x -= b.bw, ++y;
  }
  return sum;
}

// Copies each window the block's candidates read into the warp's buffer. Samples outside the
// frame are set to 0: no candidate inside the frame reads them.
template <typename T>
struct SharedStage {
  const unsigned char* frame;  // the reference frame
  std::size_t pitch;
  int width, height;
  T* cur;
  T* ref;
  int lane;

  __device__ SharedSamples<T> operator()(const BlockSpan& b, const Window& w) const {
    __syncwarp();  // every lane is done with the previous window
    for (int i = lane; i < w.rw * w.rh; i += 32) {
      const int y = i / w.rw, x = i - y * w.rw;
      const int fx = w.rx + x, fy = w.ry + y;
      const bool inside = fx >= 0 && fx < width && fy >= 0 && fy < height;
      ref[i] = inside ? reinterpret_cast<const T*>(frame + static_cast<std::size_t>(fy) * pitch)[fx] : T(0);
    }
    __syncwarp();
    return SharedSamples<T>{cur, ref, w.rx, w.ry, w.rw};
  }
};

struct WarpSum {  // every lane gets the warp's total
  __device__ std::uint32_t operator()(std::uint32_t v) const {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xFFFFFFFFu, v, o);
    return v;
  }
};

template <typename T>
__global__ void __launch_bounds__(kWarpsPerCta * 32) refine_kernel(RefineJob job) {
  __shared__ T cur[kWarpsPerCta][kMaxBlock * kMaxBlock];
  __shared__ T ref[kWarpsPerCta][kMaxWindow * kMaxWindow];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int block = blockIdx.x * kWarpsPerCta + warp;
  if (block >= job.columns * job.rows) return;  // the whole warp leaves together
  const int r = block / job.columns, c = block - r * job.columns;
  const BlockSpan b = block_span(job, c, r, lane, 32);
  for (int i = lane; i < b.bw * b.bh; i += 32) {  // ordered before any read by the stage's __syncwarp
    const int y = i / b.bw, x = i - y * b.bw;
    cur[warp][y * kMaxBlock + x] =
        reinterpret_cast<const T*>(job.cur + static_cast<std::size_t>(b.y0 + y) * job.cur_pitch)[b.x0 + x];
  }
  const SharedStage<T> stage{job.ref, job.ref_pitch, job.width, job.height, cur[warp], ref[warp], lane};
  refine_block(job, c, r, lane, 32, stage, WarpSum{});
}

template <typename T>
__global__ void box_average_kernel(PlaneView src, MutablePlaneView dst) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= dst.width || y >= dst.height) return;
  reinterpret_cast<T*>(static_cast<unsigned char*>(dst.data) + static_cast<std::size_t>(y) * dst.pitch)[x] =
      box_average_4x<T>(static_cast<const unsigned char*>(src.data), src.pitch, src.width, src.height, x, y);
}

}  // namespace

Status refine_cuda(const RefineJob& job, SampleType type, cudaStream_t stream) {
  const long long blocks = static_cast<long long>(job.columns) * job.rows;
  const unsigned ctas = static_cast<unsigned>((blocks + kWarpsPerCta - 1) / kWarpsPerCta);
  if (type == SampleType::kU8)
    refine_kernel<std::uint8_t><<<ctas, kWarpsPerCta * 32, 0, stream>>>(job);
  else
    refine_kernel<std::uint16_t><<<ctas, kWarpsPerCta * 32, 0, stream>>>(job);
  DPX_CUDA_CHECK_LAUNCH("refine_kernel");
  return Status::ok();
}

Status box_average_cuda(const PlaneView& src, const MutablePlaneView& dst, cudaStream_t stream) {
  const dim3 threads(32, 8);
  const dim3 grid((dst.width + 31) / 32, (dst.height + 7) / 8);
  if (src.type == SampleType::kU8)
    box_average_kernel<std::uint8_t><<<grid, threads, 0, stream>>>(src, dst);
  else
    box_average_kernel<std::uint16_t><<<grid, threads, 0, stream>>>(src, dst);
  DPX_CUDA_CHECK_LAUNCH("box_average_kernel");
  return Status::ok();
}

}  // namespace motion_detail
}  // namespace dpx
