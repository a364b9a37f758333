// The second stage on the GPU, one warp per block, its lanes sharing the block's pixels: after a
// predictive coarse search, the predictive search and the sub-pel stage with the block and each
// reference window its candidates read copied into the warp's shared memory first (a candidate's
// SAD then costs no global access), whole blocks ranking their integer candidates 8 at a time
// (warp_ranking.cuh), cut blocks running refine_block.h as the CPU does; after a full search, the
// sub-pel stage alone, on registers for whole 8x8 and 16x16 blocks with bilinear samples
// (refine_subpel_registers.cuh), on shared memory otherwise (refine_shared.cuh). And the 4x box
// average of the predictive search, one thread per coarse pixel.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "block_match_cuda.h"
#include "cuda_check.h"
#include "refine_block.h"
#include "refine_planes.h"
#include "refine_shared.cuh"
#include "refine_subpel_registers.cuh"
#include "warp_ranking.cuh"

namespace dpx {
namespace motion_detail {

namespace {

// A warp's part of the CTA's dynamic shared memory: the block, a reference window and, with a
// sharp filter, a patch's planes (refine_planes.h). As many warps a CTA as fit 46 KB (no opt-in
// beyond the default 48 KB), at most 4: bilinear jobs keep 4 warps and no planes; 16-bit 32x32
// blocks with planes run one warp a CTA (the planes alone take 37 KB).
template <typename T, int B>
struct WarpShared {
  static constexpr int kCur = kMaxBlock * kPitch;
  static constexpr int kRef = (kMaxWindow + 1) * kPitch;  // a row to spare: see partial_sad
  static constexpr int kPlanes = patch_plane_samples(B);

  __host__ __device__ static bool has_planes(const RefineJob& job) { return job.filter.mode != MotionInterpolation::kBilinear; }
  static std::size_t bytes_per_warp(bool planes) { return sizeof(T) * (kCur + kRef + (planes ? kPlanes : 0)); }
  static int warps(bool planes) {
    const std::size_t fit = 46 * 1024 / bytes_per_warp(planes);
    return fit < 1 ? 1 : (fit > 4 ? 4 : static_cast<int>(fit));
  }

  T* cur;
  T* ref;
  T* planes;  // null without planes

  __device__ static WarpShared of(unsigned char* shared, const RefineJob& job, int warp) {
    const bool planes = has_planes(job);
    T* base = reinterpret_cast<T*>(shared) + warp * (kCur + kRef + (planes ? kPlanes : 0));
    return WarpShared{base, base + kCur, planes ? base + kCur + kRef : nullptr};
  }
};

// The lane's parts of 8 integer candidates' SADs for a whole block, pixel by pixel (each of the
// block's pixels read once for the 8): candidate t at `offset[t]` samples from (x0, y0) in the
// window, counted when bit t of `valid` is set (else 0).
template <typename T, int B>
__device__ __forceinline__ void integer_sads_of_8(const SharedSamples<T, B>& px, const BlockSpan& b, int x0, int y0,
                                                  const int (&offset)[8], unsigned valid, std::uint32_t (&part)[8]) {
#pragma unroll
  for (int t = 0; t < 8; ++t) part[t] = 0;
  if (B * B < 32 && b.y >= B) return;  // 4x4 blocks: lanes 16..31 hold no pixel
  const int first = b.y * kPitch + b.x;
  const T* ref = px.ref + (b.y0 + y0 - px.ry) * kPitch + (b.x0 + x0 - px.rx) + first;
#pragma unroll
  for (int k = 0; k < (B * B + 31) / 32; ++k) {
    const int row = k * (32 / B) * kPitch;
    const int c = px.cur[first + row];
#pragma unroll
    for (int t = 0; t < 8; ++t)
      if (valid >> t & 1) part[t] = __sad(c, ref[row + offset[t]], part[t]);
  }
}


// Copies each window the block's candidates read into the warp's buffer. Samples outside the
// frame repeat its edge: only the filters' outer taps read them as samples; a candidate outside
// the frame may cost its SAD on them and then does not count.
template <typename T, int B>
struct SharedStage {
  const unsigned char* frame;  // the reference frame
  std::size_t pitch;
  int width, height;
  const T* cur;
  T* ref;
  T* planes;  // patch_plane_samples(block)
  int block;
  int lane;

  __device__ SharedSamples<T, B> operator()(const BlockSpan&, const Window& w) const {
    __syncwarp();  // every lane is done with the previous window and planes
    stage_rows(frame, pitch, width, height, w.rx, w.ry, w.rw, w.rh, lane, ref);
    __syncwarp();
    return SharedSamples<T, B>{cur, ref, w.rx, w.ry};
  }
  // The planes of the patch around whole pixel (cx, cy), built by the warp from the window they read.
  __device__ PatchSamples<SharedSamples<T, B>, T> patch(const BlockSpan& b, const SubpelFilter& f, int cx,
                                                        int cy) const {
    const SharedSamples<T, B> px = (*this)(b, window_around(b, cx, cy, kSubpelReach));
    const PatchPlanes<T> p{planes, block + 2, cx, cy};
    build_patch_planes(px, f, b, cx, cy, lane, 32, p);
    __syncwarp();
    return PatchSamples<SharedSamples<T, B>, T>{px, p};
  }
};

// The predictive search of a whole block with its candidates ranked 8 at a time (warp_ranking.cuh):
// the same starts, windows, walk and result as predictive_search (refine_block.h). A candidate
// outside the frame or range costs its SAD on the staged window's edge samples and then does not count.
template <typename T, int B>
__device__ Choice warp_predictive_search(const RefineJob& j, const BlockSpan& b, int c, int r, const Penalty& pen,
                                         const SharedStage<T, B>& stage, int lane) {
  constexpr int kSide = 2 * kPredictiveWindow + 1, kWindow = kSide * kSide;  // candidates a start
  Vec starts[6];
  const int count = predictive_starts(j, b, c, r, starts);
  ScoredChoice best{Choice{UINT32_MAX, 0, 0}, 0};
  const int n = scored_candidate(lane);
  for (int i = 0; i < count; ++i) {
    const auto px = stage(b, window_around(b, starts[i].x, starts[i].y, kPredictiveWindow));
    const int x0 = starts[i].x - kPredictiveWindow, y0 = starts[i].y - kPredictiveWindow;  // the window's corner
    // Groups of 8 candidates row by row from the corner; one at a time, so that only one group's
    // sums are live.
#pragma unroll 1
    for (int g = 0; g < kWindow; g += 8) {
      int offset[8];
#pragma unroll
      for (int t = 0; t < 8; ++t) offset[t] = (g + t) / kSide * kPitch + (g + t) % kSide;
      std::uint32_t part[8];
      integer_sads_of_8(px, b, x0, y0, offset, kWindow - g >= 8 ? 0xFFu : (1u << (kWindow - g)) - 1, part);
      const int k = g + n;
      keep_best_of_8(j, b, pen, part, lane, x0 + k % kSide, y0 + k / kSide, 1, k < kWindow, &best);
    }
  }
  for (int step = 0; step < kDescentSteps; ++step) {
    const Choice centre = best.choice;
    const int cx = centre.x / j.scale, cy = centre.y / j.scale;
    const auto px = stage(b, window_around(b, cx, cy, 1));
    int offset[8];
#pragma unroll
    for (int t = 0; t < 8; ++t) {
      const int k = neighbour_place(t);
      offset[t] = k / 3 * kPitch + k % 3;
    }
    std::uint32_t part[8];
    integer_sads_of_8(px, b, cx - 1, cy - 1, offset, 0xFFu, part);
    const int k = neighbour_place(scored_candidate(lane));
    keep_best_of_8(j, b, pen, part, lane, cx + k % 3 - 1, cy + k / 3 - 1, 1, true, &best);
    if (best.choice.x == centre.x && best.choice.y == centre.y) break;
  }
  return best.choice;
}

// After the coarse search: the predictive search, then the sub-pel stage, on shared memory; whole
// blocks rank their integer candidates 8 at a time, blocks cut by the frame's edge run refine_block.
template <typename T, int B>
__global__ void __launch_bounds__(4 * 32) refine_kernel(RefineJob job) {
  extern __shared__ __align__(16) unsigned char shared[];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const WarpShared<T, B> mem = WarpShared<T, B>::of(shared, job, warp);
  const int block = blockIdx.x * (blockDim.x / 32) + warp;
  if (block >= job.columns * job.rows) return;  // the whole warp leaves together
  const int r = block / job.columns, c = block - r * job.columns;
  const BlockSpan b = block_span(job, c, r, lane, 32);
  // Ordered before any read by the stage's __syncwarp.
  stage_rows(job.cur, job.cur_pitch, job.width, job.height, b.x0, b.y0, b.bw, b.bh, lane, mem.cur);
  if (b.bw == B && b.bh == B) {
    const SharedStage<T, B> stage{job.ref, job.ref_pitch, job.width,  job.height, mem.cur,
                                  mem.ref, mem.planes,    job.block,  lane};
    const Penalty pen = job.cost.at(c, r, job.columns);
    Choice best = warp_predictive_search<T, B>(job, b, c, r, pen, stage, lane);
    const std::uint32_t sad = needs_subpel_stage(job, pen) ? subpel_stage(job, b, pen, stage, WarpSum{}, &best) : 0;
    if (lane == 0) store_choice(job, c, r, pen, best, sad);
  } else {
    const SharedStage<T, 0> stage{job.ref, job.ref_pitch, job.width,  job.height, mem.cur,
                                  mem.ref, mem.planes,    job.block,  lane};
    refine_block(job, c, r, lane, 32, stage, WarpSum{});
  }
}

// The sub-pel stage of refine_block on shared memory (S: the block's side when whole, else 0).
template <typename T, int S>
__device__ std::uint32_t shared_subpel(const RefineJob& job, const BlockSpan& b, const Penalty& pen, T* cur, T* ref,
                                       T* planes, int lane, Choice* best) {
  // Ordered before any read by the stage's __syncwarp.
  stage_rows(job.cur, job.cur_pitch, job.width, job.height, b.x0, b.y0, b.bw, b.bh, lane, cur);
  const SharedStage<T, S> stage{job.ref, job.ref_pitch, job.width, job.height, cur, ref, planes, job.block, lane};
  return subpel_stage(job, b, pen, stage, WarpSum{}, best);
}

// After a full search (no integer search here): whole 8x8 and 16x16 blocks with bilinear samples
// take the sub-pel stage on registers, the others refine_block's on shared memory. A kernel of its own, so the predictive
// search's code and registers stay out of it.
template <typename T, int B>
__global__ void __launch_bounds__(4 * 32) full_search_subpel_kernel(RefineJob job) {
  extern __shared__ __align__(16) unsigned char shared[];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const WarpShared<T, B> mem = WarpShared<T, B>::of(shared, job, warp);
  const int block = blockIdx.x * (blockDim.x / 32) + warp;
  if (block >= job.columns * job.rows) return;  // the whole warp leaves together
  const int r = block / job.columns, c = block - r * job.columns;
  const BlockSpan b = block_span(job, c, r, lane, 32);
  const Penalty pen = job.cost.at(c, r, job.columns);
  Choice best = full_search_choice(job, c, r);
  std::uint32_t sad = 0;
  if (needs_subpel_stage(job, pen)) {
    const bool whole = b.bw == B && b.bh == B;
    if constexpr (kRegisterSubpel<B>) {
      // The register patch holds the bilinear footprint only.
      if (whole && job.filter.mode == MotionInterpolation::kBilinear)
        sad = register_subpel<T, B>(job, b, pen, lane, &best);
      else
        sad = whole ? shared_subpel<T, B>(job, b, pen, mem.cur, mem.ref, mem.planes, lane, &best)
                    : shared_subpel<T, 0>(job, b, pen, mem.cur, mem.ref, mem.planes, lane, &best);
    } else {
      sad = whole ? shared_subpel<T, B>(job, b, pen, mem.cur, mem.ref, mem.planes, lane, &best)
                  : shared_subpel<T, 0>(job, b, pen, mem.cur, mem.ref, mem.planes, lane, &best);
    }
  }
  if (lane == 0) store_choice(job, c, r, pen, best, sad);
}

template <typename T, int B>
void launch_for_block(const RefineJob& job, cudaStream_t stream) {
  using Shared = WarpShared<T, B>;
  const bool planes = Shared::has_planes(job);
  const int warps = Shared::warps(planes);
  const std::size_t bytes = warps * Shared::bytes_per_warp(planes);
  const long long blocks = static_cast<long long>(job.columns) * job.rows;
  const unsigned ctas = static_cast<unsigned>((blocks + warps - 1) / warps);
  if (job.predictive)
    refine_kernel<T, B><<<ctas, warps * 32, bytes, stream>>>(job);
  else
    full_search_subpel_kernel<T, B><<<ctas, warps * 32, bytes, stream>>>(job);
}

template <typename T>
Status launch_refine(const RefineJob& job, cudaStream_t stream) {
  switch (job.block) {
    case 4: launch_for_block<T, 4>(job, stream); break;
    case 8: launch_for_block<T, 8>(job, stream); break;
    case 16: launch_for_block<T, 16>(job, stream); break;
    default: launch_for_block<T, 32>(job, stream); break;  // motion_validate: 4..32
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
  return type == SampleType::kU8 ? launch_refine<std::uint8_t>(job, stream) : launch_refine<std::uint16_t>(job, stream);
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
