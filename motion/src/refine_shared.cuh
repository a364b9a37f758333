// The warp's shared-memory view of the second stage on the GPU (refine_cuda.cu): the buffers'
// layout, the staging of a frame region with the frame's edges replicated, and the lane's part of
// a candidate's SAD on the staged samples (the overload of refine_block.h's partial_sad that the
// shared stage's samples select), or on the frame's phase planes (frame_planes.h). Device code
// that a host compiler also builds (tests/motion/cuda_host_shim.h), so a test runs it lane by lane
// on the CPU against the CPU's own reading of the frames.
#pragma once

#include <cstddef>
#include <cstdint>

#include "frame_planes.h"
#include "refine_block.h"
#include "subpel_filter.h"

namespace dpx {
namespace motion_detail {

constexpr int kMaxBlock = 32;  // motion_validate's largest block
// The widest window_around(): the predictive search's, or the sub-pel stage's with the filters' taps.
constexpr int kMaxReach = kPredictiveWindow > kSubpelReach ? kPredictiveWindow : kSubpelReach;
constexpr int kMaxWindow = kMaxBlock + 2 * kMaxReach;

constexpr int kPitch = kMaxWindow;  // samples per row of both shared buffers

// The block and one reference window (its first sample at frame coordinates (rx, ry)) in shared
// memory, rows kPitch apart. B is the block's side when the block is whole (every lane's pixels
// then sit at fixed offsets), 0 for a block cut by the frame's edge.
template <typename T, int B>
struct SharedSamples {
  const T* cur;
  const T* ref;
  int rx, ry;
  // The reference at frame coordinates (x, y) inside the window, the frame's edges replicated
  // there by the staging.
  __device__ int ref_edge(int x, int y) const { return ref[(y - ry) * kPitch + (x - rx)]; }
};

// Pixel (x, y) of the block (block coordinates), from its staged copy.
template <typename T, int B>
__device__ int block_pixel(const SharedSamples<T, B>& px, const BlockSpan&, int x, int y) {
  return px.cur[y * kPitch + x];
}

// Copies rows [0, rows) x columns [0, columns) of a frame region at (x0, y0) into `to` (rows
// kPitch apart), samples outside the frame replicated from its edge (FrameSamples::ref_edge).
template <typename T>
__device__ void stage_rows(const unsigned char* frame, std::size_t pitch, int width, int height, int x0,
                           int y0, int columns, int rows, int lane, T* to) {
  for (int y = 0; y < rows; ++y) {
    const int fy = y0 + y < 0 ? 0 : (y0 + y >= height ? height - 1 : y0 + y);
    const T* row = reinterpret_cast<const T*>(frame + static_cast<std::size_t>(fy) * pitch);
    for (int x = lane; x < columns; x += 32) {
      const int fx = x0 + x < 0 ? 0 : (x0 + x >= width ? width - 1 : x0 + x);
      to[y * kPitch + x] = row[fx];
    }
  }
}

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
  const int r =
      w.whole ? p[0] : (w.w00 * p[0] + w.w01 * p[1] + w.w10 * p[kPitch] + w.w11 * p[kPitch + 1] + 8) >> 4;
  return __sad(c, r, sum);
}

// The lane's part of a candidate's SAD from shared memory: the same samples and arithmetic as the
// generic partial_sad (refine_block.h), with the addressing and the bilinear weights hoisted out of
// the pixel loop. A weight of 0 multiplies a sample the generic code does not read; it lies in the
// buffer (sub-pel candidates have a whole part of cx - 1 or cx) and adds nothing. Whole offsets and
// bilinear samples only: the sharper filters' candidates read phase planes (the overload below).
template <typename T, int B>
__device__ std::uint32_t partial_sad(const SharedSamples<T, B>& px, const SubpelFilter&, const BlockSpan& b,
                                     int vx, int vy, int s) {
  const SubpelOffset ox = subpel_offset(vx, s), oy = subpel_offset(vy, s);
  const T* ref = px.ref + (b.y0 + oy.whole - px.ry) * kPitch + (b.x0 + ox.whole - px.rx);
  const Weights w{(4 - ox.quarter) * (4 - oy.quarter), ox.quarter * (4 - oy.quarter),
                  (4 - ox.quarter) * oy.quarter, ox.quarter * oy.quarter, (ox.quarter | oy.quarter) == 0};
  std::uint32_t sum = 0;
  if constexpr (B > 0) {
    // Pixel lane + 32k of the block: row lane / B + k * 32 / B, column lane % B.
    if (B * B < 32 && b.y >= B) return 0;  // 4x4 blocks: lanes 16..31 hold no pixel
    const int first = b.y * kPitch + b.x;
#pragma unroll
    for (int k = 0; k < (B * B + 31) / 32; ++k)
      sum = add_pixel(px.cur, ref, first + k * (32 / B) * kPitch, w, sum);
  } else {
    for_lane_pixels(b, [&](int x, int y) { sum = add_pixel(px.cur, ref, y * kPitch + x, w, sum); });
  }
  return sum;
}

// The lane's part of a sub-pel candidate's SAD (v in quarter pixels) from the frame's phase planes
// (frame_planes.h, the sharp filters): the planes' partial_sad (refine_planes.h) with a whole
// block's fixed pixel offsets, as the overload above does for the window, the candidate's plane
// rows a run-time pitch apart in global memory.
template <typename T, int B>
__device__ std::uint32_t partial_sad(const PatchSamples<SharedSamples<T, B>, FramePatch<T>>& p,
                                     const SubpelFilter& f, const BlockSpan& b, int vx, int vy, int s) {
  if constexpr (B == 0) {
    return partial_sad<SharedSamples<T, B>, FramePatch<T>>(p, f, b, vx, vy, s);
  } else {
    if (B * B < 32 && b.y >= B) return 0;  // 4x4 blocks: lanes 16..31 hold no pixel
    const SubpelOffset ox = subpel_offset(vx, 4), oy = subpel_offset(vy, 4);
    const T* plane = p.planes.frame.sample(b.x0 + ox.whole + b.x, b.y0 + oy.whole + b.y, ox.quarter, oy.quarter);
    const T* cur = p.px.cur + b.y * kPitch + b.x;
    std::uint32_t sum = 0;
#pragma unroll
    for (int k = 0; k < (B * B + 31) / 32; ++k) {
      sum = __sad(static_cast<int>(cur[k * (32 / B) * kPitch]), static_cast<int>(__ldg(plane)), sum);
      plane += (32 / B) * p.planes.frame.pitch;
    }
    return sum;
  }
}

}  // namespace motion_detail
}  // namespace dpx
