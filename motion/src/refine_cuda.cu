// The second stage on the GPU: one warp per block runs refine_block.h, its lanes sharing the
// block's pixels, with the block and each reference window its candidates read copied into the
// warp's shared memory first (a candidate's SAD then costs no global access) — except the sub-pel
// stage of whole 8x8 and 16x16 blocks, which runs on registers (refine_subpel_registers.cuh); and
// the 4x box average of the predictive search, one thread per coarse pixel.
#include <cuda_runtime.h>

#include <cstdint>

#include "block_match_cuda.h"
#include "cuda_check.h"
#include "refine_block.h"
#include "refine_subpel_registers.cuh"

namespace dpx {
namespace motion_detail {

namespace {

constexpr int kWarpsPerCta = 4;
constexpr int kMaxBlock = 32;                                // motion_validate's largest block
constexpr int kMaxWindow = kMaxBlock + 2 * kPredictiveWindow;  // the widest window_around()

constexpr int kPitch = kMaxWindow;  // samples per row of both shared buffers

// The block and one reference window (its first sample at frame coordinates (rx, ry)) in shared
// memory, rows kPitch apart. B is the block's side when the block is whole (every lane's pixels
// then sit at fixed offsets), 0 for a block cut by the frame's edge.
template <typename T, int B>
struct SharedSamples {
  const T* cur;
  const T* ref;
  int rx, ry;
};

// One pixel: |cur - ref| at a whole offset, or against the bilinear sample, added to `sum` (one
// accumulating VABSDIFF).
struct Weights {
  int w00, w01, w10, w11;
  bool whole;
};
template <typename T>
__device__ std::uint32_t add_pixel(const T* cur, const T* ref, int off, const Weights& w, std::uint32_t sum) {
  const int c = cur[off];
  const T* p = ref + off;
  const int r = w.whole ? p[0] : (w.w00 * p[0] + w.w01 * p[1] + w.w10 * p[kPitch] + w.w11 * p[kPitch + 1] + 8) >> 4;
  return __sad(c, r, sum);
}

// The lane's part of a candidate's SAD from shared memory: the same samples and arithmetic as the
// generic partial_sad (refine_block.h), with the addressing and the bilinear weights hoisted out of
// the pixel loop. A weight of 0 multiplies a sample the generic code does not read; it lies in the
// buffer (sub-pel candidates have a whole part of cx - 1 or cx) and adds nothing.
template <typename T, int B>
__device__ std::uint32_t partial_sad(const SharedSamples<T, B>& px, const BlockSpan& b, int vx, int vy, int s) {
  const SubpelOffset ox = subpel_offset(vx, s), oy = subpel_offset(vy, s);
  const T* ref = px.ref + (b.y0 + oy.whole - px.ry) * kPitch + (b.x0 + ox.whole - px.rx);
  const Weights w{(4 - ox.quarter) * (4 - oy.quarter), ox.quarter * (4 - oy.quarter), (4 - ox.quarter) * oy.quarter,
                  ox.quarter * oy.quarter, (ox.quarter | oy.quarter) == 0};
  std::uint32_t sum = 0;
  if constexpr (B > 0) {
    // Pixel lane + 32k of the block: row lane / B + k * 32 / B, column lane % B.
    if (B * B < 32 && b.y >= B) return 0;  // 4x4 blocks: lanes 16..31 hold no pixel
    const int first = b.y * kPitch + b.x;
#pragma unroll
    for (int k = 0; k < (B * B + 31) / 32; ++k) sum = add_pixel(px.cur, ref, first + k * (32 / B) * kPitch, w, sum);
  } else {
    int x = b.x, y = b.y;
    while (y < b.bh) {
      sum = add_pixel(px.cur, ref, y * kPitch + x, w, sum);
      x += b.step_x;
      y += b.step_y;
      if (x >= b.bw) x -= b.bw, ++y;
    }
  }
  return sum;
}

// Copies rows [0, rows) x columns [0, columns) of a frame region at (x0, y0) into `to` (rows
// kPitch apart), samples outside the frame as 0.
template <typename T>
__device__ void stage_rows(const unsigned char* frame, std::size_t pitch, int width, int height, int x0, int y0,
                           int columns, int rows, int lane, T* to) {
  for (int y = 0; y < rows; ++y) {
    const int fy = y0 + y;
    for (int x = lane; x < columns; x += 32) {
      const int fx = x0 + x;
      const bool inside = fx >= 0 && fx < width && fy >= 0 && fy < height;
      to[y * kPitch + x] = inside ? reinterpret_cast<const T*>(frame + static_cast<std::size_t>(fy) * pitch)[fx] : T(0);
    }
  }
}

// Copies each window the block's candidates read into the warp's buffer. Samples outside the
// frame are set to 0: no candidate inside the frame reads them.
template <typename T, int B>
struct SharedStage {
  const unsigned char* frame;  // the reference frame
  std::size_t pitch;
  int width, height;
  const T* cur;
  T* ref;
  int lane;

  __device__ SharedSamples<T, B> operator()(const BlockSpan&, const Window& w) const {
    __syncwarp();  // every lane is done with the previous window
    stage_rows(frame, pitch, width, height, w.rx, w.ry, w.rw, w.rh, lane, ref);
    __syncwarp();
    return SharedSamples<T, B>{cur, ref, w.rx, w.ry};
  }
};

template <typename T, int B>
__global__ void __launch_bounds__(kWarpsPerCta * 32) refine_kernel(RefineJob job) {
  __shared__ T cur[kWarpsPerCta][kMaxBlock * kPitch];
  __shared__ T ref[kWarpsPerCta][(kMaxWindow + 1) * kPitch];  // a row to spare: see partial_sad
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int block = blockIdx.x * kWarpsPerCta + warp;
  if (block >= job.columns * job.rows) return;  // the whole warp leaves together
  const int r = block / job.columns, c = block - r * job.columns;
  const BlockSpan b = block_span(job, c, r, lane, 32);
  const bool whole = b.bw == B && b.bh == B;
  // Ordered before any read by the stage's __syncwarp. The register sub-pel stage reads the frames
  // itself, so a full search's whole blocks need no copy.
  if (job.predictive || !(whole && kRegisterSubpel<B>))
    stage_rows(job.cur, job.cur_pitch, job.width, job.height, b.x0, b.y0, b.bw, b.bh, lane, cur[warp]);
  if (whole) {
    const SharedStage<T, B> stage{job.ref, job.ref_pitch, job.width, job.height, cur[warp], ref[warp], lane};
    if constexpr (kRegisterSubpel<B>) {
      const Penalty pen = job.cost.at(c, r, job.columns);
      Choice best = integer_choice(job, b, c, r, pen, stage, WarpSum{});
      const std::uint32_t sad = needs_subpel_stage(job, pen) ? register_subpel<T, B>(job, b, pen, lane, &best) : 0;
      if (lane == 0) store_choice(job, c, r, pen, best, sad);
    } else {
      refine_block(job, c, r, lane, 32, stage, WarpSum{});
    }
  } else {
    const SharedStage<T, 0> stage{job.ref, job.ref_pitch, job.width, job.height, cur[warp], ref[warp], lane};
    refine_block(job, c, r, lane, 32, stage, WarpSum{});
  }
}

template <typename T>
Status launch_refine(const RefineJob& job, unsigned ctas, cudaStream_t stream) {
  switch (job.block) {
    case 4: refine_kernel<T, 4><<<ctas, kWarpsPerCta * 32, 0, stream>>>(job); break;
    case 8: refine_kernel<T, 8><<<ctas, kWarpsPerCta * 32, 0, stream>>>(job); break;
    case 16: refine_kernel<T, 16><<<ctas, kWarpsPerCta * 32, 0, stream>>>(job); break;
    default: refine_kernel<T, 32><<<ctas, kWarpsPerCta * 32, 0, stream>>>(job); break;  // motion_validate: 4..32
  }
  DPX_CUDA_CHECK_LAUNCH("refine_kernel");
  return Status::ok();
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
  return type == SampleType::kU8 ? launch_refine<std::uint8_t>(job, ctas, stream)
                                 : launch_refine<std::uint16_t>(job, ctas, stream);
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
