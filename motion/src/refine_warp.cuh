// A warp's work in the second stage on the GPU (refine_cuda.cu launches it), one block per warp,
// its lanes sharing the block's pixels: after a predictive coarse search, the predictive search and
// the sub-pel stage with the block and each reference window its candidates read copied into the
// warp's shared memory first (a candidate's SAD then costs no global access), whole blocks ranking
// their integer candidates 8 at a time (warp_ranking.cuh), cut blocks running refine_block.h as the
// CPU does; after a full search, the sub-pel stage alone, on registers for whole 8x8 and 16x16
// blocks without phase planes (refine_subpel_registers.cuh), on shared memory otherwise
// (refine_shared.cuh). Each comes in two builds by `PlaneSource`: without planes (bilinear, or no
// sub-pel step), or reading the frame-wide phase planes a kernel built before (frame_planes.h, the
// sharp filters' search), so that neither carries the other's code and registers. Device code that
// a host compiler also builds (tests/motion/cuda_host_shim.h), so a test runs whole warps on the CPU.
#pragma once

#include <cstddef>
#include <cstdint>

#include "refine_block.h"
#include "refine_patch_ranking.cuh"
#include "refine_planes.h"
#include "refine_shared.cuh"
#include "refine_subpel_registers.cuh"
#include "warp_ranking.cuh"

namespace dpx {
namespace motion_detail {

// Where a build's sharp sub-pel search reads its candidates' samples: nowhere (bilinear, or no
// sub-pel step), or the frame's phase planes in global memory.
enum class PlaneSource { kNone, kFrame };

// A warp's part of the CTA's dynamic shared memory: the block and a reference window. As many
// warps a CTA as fit 46 KB (no opt-in beyond the default 48 KB), at most 4.
template <typename T, int B, PlaneSource P>
struct WarpShared {
  static constexpr int kCur = kMaxBlock * kPitch;
  static constexpr int kRef = (kMaxWindow + 1) * kPitch;  // a row to spare: see partial_sad
  static constexpr std::size_t kBytes = sizeof(T) * (kCur + kRef);
  static constexpr int kWarps =
      46 * 1024 / kBytes < 1 ? 1 : (46 * 1024 / kBytes > 4 ? 4 : 46 * 1024 / kBytes);

  T* cur;
  T* ref;

  __device__ static WarpShared of(unsigned char* shared, int warp) {
    T* base = reinterpret_cast<T*>(shared) + warp * (kCur + kRef);
    return WarpShared{base, base + kCur};
  }
};

// Copies each window the block's candidates read into the warp's buffer. Samples outside the
// frame repeat its edge: only the filters' outer taps read them as samples; a candidate outside
// the frame may cost its SAD on them and then does not count.
template <typename T, int B>
struct SharedStage {
  static constexpr SubpelPaths kSubpelPaths = SubpelPaths::kNeighbours;
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

// The stage of the build that reads the frame's planes: the windows of the integer search as
// above; a patch is the frame's planes seen from it, nothing to build. The planes' place is read
// from the job (the kernel's parameter) when a patch starts, not held through the integer search.
template <typename T, int B>
struct SharedFramePatchStage : SharedStage<T, B> {
  static constexpr SubpelPaths kSubpelPaths = SubpelPaths::kPatches;
  const PhasePlanes& phases;

  __device__ PatchSamples<SharedSamples<T, B>, FramePatch<T>> patch(const BlockSpan& b, const SubpelFilter&, int cx,
                                                                    int cy) const {
    __syncwarp();  // the block staged into `cur` (the window stays unread)
    return PatchSamples<SharedSamples<T, B>, FramePatch<T>>{
        SharedSamples<T, B>{this->cur, this->ref, 0, 0},
        FramePatch<T>{FramePlanes<const T>::of(phases), b.x0 + cx - 1, b.y0 + cy - 1, cx, cy}};
  }
};

// The stage of a build on the warp's buffers (S: the block's side when whole, else 0).
template <typename T, int S, PlaneSource P, int B>
__device__ auto warp_stage(const RefineJob& job, const WarpShared<T, B, P>& mem, int lane) {
  const SharedStage<T, S> windows{job.ref, job.ref_pitch, job.width, job.height, mem.cur, mem.ref, lane};
  if constexpr (P == PlaneSource::kFrame)
    return SharedFramePatchStage<T, S>{windows, job.phases};
  else
    return windows;
}

// The lane's parts of 8 integer candidates' SADs for a whole block, pixel by pixel (each of the
// block's pixels read once for the 8): candidate t at `offset[t]` samples from (x0, y0) in the
// window, counted when bit t of `valid` is set (else 0).
template <typename T, int B>
__device__ __forceinline__ void integer_sads_of_8(const SharedSamples<T, B>& px, const BlockSpan& b, int x0,
                                                  int y0, const int (&offset)[8], unsigned valid,
                                                  std::uint32_t (&part)[8]) {
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

// The predictive search of a whole block with its candidates ranked 8 at a time (warp_ranking.cuh):
// the same starts, windows, walk and result as predictive_search (refine_block.h). A candidate
// outside the frame or range costs its SAD on the staged window's edge samples and then does not count.
template <typename T, int B, typename Stage>
__device__ Choice warp_predictive_search(const RefineJob& j, const BlockSpan& b, int c, int r,
                                         const Penalty& pen, const Stage& stage, int lane) {
  constexpr int kSide = 2 * kPredictiveWindow + 1, kWindow = kSide * kSide;  // candidates a start
  const PredictiveStarts starts = predictive_starts(j, b, c, r);
  ScoredChoice best{Choice{UINT32_MAX, 0, 0}, 0};
  const int n = scored_candidate(lane);
#pragma unroll 1
  for (int i = 0; i < 6; ++i) {
    if (!(starts.mask >> i & 1)) continue;
    const Vec start = start_at(starts, i);
    const auto px = stage(b, window_around(b, start.x, start.y, kPredictiveWindow));
    const int x0 = start.x - kPredictiveWindow, y0 = start.y - kPredictiveWindow;  // the window's corner
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

// Block (c, r) of a job after the coarse search: the predictive search, then the sub-pel stage, on
// shared memory; whole blocks rank their integer candidates 8 at a time, blocks cut by the frame's
// edge run refine_block. Every lane of the warp calls it with the same block. Inlined into the
// kernel, as shared_subpel is.
template <typename T, int B, PlaneSource P>
__device__ __forceinline__ void predictive_refine_warp(const RefineJob& job,
                                                       const WarpShared<T, B, P>& mem, int c, int r,
                                                       int lane) {
  const BlockSpan b = block_span(job, c, r, lane, 32);
  // Ordered before any read by the stage's __syncwarp.
  stage_rows(job.cur, job.cur_pitch, job.width, job.height, b.x0, b.y0, b.bw, b.bh, lane, mem.cur);
  if (b.bw == B && b.bh == B) {
    const auto stage = warp_stage<T, B, P>(job, mem, lane);
    const Penalty pen = job.cost.at(c, r, job.columns);
    Choice best = warp_predictive_search<T, B>(job, b, c, r, pen, stage, lane);
    const std::uint32_t sad =
        needs_subpel_stage(job, pen) ? subpel_stage(job, b, pen, stage, WarpSum{}, &best) : 0;
    if (lane == 0) store_choice(job, c, r, pen, best, sad);
  } else {
    refine_block(job, c, r, lane, 32, warp_stage<T, 0, P>(job, mem, lane), WarpSum{});
  }
}

// The sub-pel stage of refine_block on shared memory (S: the block's side when whole, else 0).
// Inlined: as a call it takes the job and the block's state by reference, which puts them on a
// stack frame in local memory.
template <typename T, int S, PlaneSource P, int B>
__device__ __forceinline__ std::uint32_t shared_subpel(const RefineJob& job, const BlockSpan& b,
                                                       const Penalty& pen,
                                                       const WarpShared<T, B, P>& mem, int lane,
                                                       Choice* best) {
  // Ordered before any read by the stage's __syncwarp.
  stage_rows(job.cur, job.cur_pitch, job.width, job.height, b.x0, b.y0, b.bw, b.bh, lane, mem.cur);
  return subpel_stage(job, b, pen, warp_stage<T, S, P>(job, mem, lane), WarpSum{}, best);
}

// The sub-pel stage of a whole block: on registers for 8x8 and 16x16 blocks without phase planes
// (the register patch holds the bilinear footprint only), else on shared memory.
template <typename T, int B, PlaneSource P>
__device__ std::uint32_t whole_block_subpel(const RefineJob& job, const BlockSpan& b, const Penalty& pen,
                                            const WarpShared<T, B, P>& mem, int lane, Choice* best) {
  if constexpr (P == PlaneSource::kNone && kRegisterSubpel<B>)
    return register_subpel<T, B>(job, b, pen, lane, best);
  else
    return shared_subpel<T, B>(job, b, pen, mem, lane, best);
}

// Block (c, r) of a job after a full search (no integer search here): the sub-pel stage alone.
// Every lane of the warp calls it with the same block. Inlined into the kernel, as shared_subpel is.
template <typename T, int B, PlaneSource P>
__device__ __forceinline__ void full_search_subpel_warp(const RefineJob& job,
                                                        const WarpShared<T, B, P>& mem, int c, int r,
                                                        int lane) {
  const BlockSpan b = block_span(job, c, r, lane, 32);
  const Penalty pen = job.cost.at(c, r, job.columns);
  Choice best = full_search_choice(job, c, r);
  std::uint32_t sad = 0;
  if (needs_subpel_stage(job, pen)) {
    const bool whole = b.bw == B && b.bh == B;
    sad = whole ? whole_block_subpel(job, b, pen, mem, lane, &best)
                : shared_subpel<T, 0>(job, b, pen, mem, lane, &best);
  }
  if (lane == 0) store_choice(job, c, r, pen, best, sad);
}

}  // namespace motion_detail
}  // namespace dpx
