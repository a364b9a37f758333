// The sub-pel stage of a whole 8x8 or 16x16 block on the GPU with its samples in registers: the same
// candidates, SADs and order as refine_block's sub-pel loop (refine_block.h), hence the same
// vectors, in about a quarter of the instructions. Lane L takes column L % B and B*B/32 consecutive
// rows from (L / B) * B*B/32 (refine_block interleaves rows instead; a SAD is a sum, so the split is
// free), holds those pixels and the reference samples one row above to one row below them in
// columns x - 1 .. x + 1 around the integer vector, and computes every candidate's bilinear samples
// from these registers: no shared memory, no addressing per candidate, every weight known at compile
// time (the quarter step is one of 9 variants, by the half-pel winner), and the 8 neighbours of a
// step reduced together and ranked by the warp at once.
#pragma once

#include <cstddef>
#include <cstdint>

#include "refine_block.h"
#include "warp_ranking.cuh"

namespace dpx {
namespace motion_detail {

// The blocks this path takes (a lane's rows must be whole and its registers few).
template <int B>
constexpr bool kRegisterSubpel = B == 8 || B == 16;

template <typename T, int B>
struct RegisterPatch {
  static constexpr int kRows = B * B / 32;  // rows of the lane's column
  int cur[kRows];                          // the block's pixels
  int ref[kRows + 2][3];                   // reference rows y0 - 1 .. y0 + kRows, columns x - 1 .. x + 1
  // 8-bit samples also go two rows a word — rows r and r + kPairs in 16-bit halves, where a bilinear
  // sum (at most 16 * 255 + 8) cannot carry into the other — so one multiply-add weighs two pixels,
  // and the results go four a byte permute into one accumulating VABSDIFF4 (dpx_ops.cuh).
  static constexpr bool kPacked = sizeof(T) == 1;
  static constexpr int kPairs = kRows / 2, kQuads = (kPairs + 1) / 2;
  std::uint32_t ref2[kPairs + 2][3];
  std::uint32_t cur4[kQuads];  // bytes: rows 2q, 2q + kPairs, 2q + 1, 2q + 1 + kPairs

  // Four pixels as bytes from the 16-bit halves of two pair words (values below 256).
  static __device__ __forceinline__ std::uint32_t quad(const std::uint32_t (&pairs)[kPairs], int q) {
    return __byte_perm(pairs[2 * q], 2 * q + 1 < kPairs ? pairs[2 * q + 1] : 0u, 0x6420);
  }

  // The lane's pixels and the reference around the integer vector (cx, cy). Samples outside the
  // frame read as 0: only candidates that component_inside() refuses, or weights of 0, touch them.
  __device__ void load(const RefineJob& j, const BlockSpan& b, int cx, int cy, int lane) {
    const int x = lane % B, y0 = (lane / B) * kRows;
#pragma unroll
    for (int k = 0; k < kRows; ++k)
      cur[k] = reinterpret_cast<const T*>(j.cur + static_cast<std::size_t>(b.y0 + y0 + k) * j.cur_pitch)[b.x0 + x];
    const int fx0 = b.x0 + cx + x - 1, fy0 = b.y0 + cy + y0 - 1;
#pragma unroll
    for (int r = 0; r < kRows + 2; ++r) {
      const int fy = fy0 + r;
      const bool row_inside = fy >= 0 && fy < j.height;
      const T* row = reinterpret_cast<const T*>(j.ref + static_cast<std::size_t>(row_inside ? fy : 0) * j.ref_pitch);
#pragma unroll
      for (int c = 0; c < 3; ++c) {
        const int fx = fx0 + c;
        ref[r][c] = row_inside && fx >= 0 && fx < j.width ? row[fx] : 0;
      }
    }
    if constexpr (kPacked) {
#pragma unroll
      for (int r = 0; r < kPairs + 2; ++r)
#pragma unroll
        for (int c = 0; c < 3; ++c) ref2[r][c] = static_cast<std::uint32_t>(ref[r][c] | ref[r + kPairs][c] << 16);
      std::uint32_t pairs[kPairs];
#pragma unroll
      for (int k = 0; k < kPairs; ++k) pairs[k] = static_cast<std::uint32_t>(cur[k] | cur[k + kPairs] << 16);
#pragma unroll
      for (int q = 0; q < kQuads; ++q) cur4[q] = quad(pairs, q);
    }
  }

  // The lane's part of the SAD at the quarter-pel offset (DX, DY) from the integer vector,
  // -3 <= D <= 3, i.e. whole part W = floor(D / 4) (-1 or 0) and quarters D - 4W: interpolated()'s
  // arithmetic (a whole offset gives (16 p + 8) >> 4 = p), with the weights known here.
  template <int DX, int DY>
  __device__ __forceinline__ std::uint32_t sad_at() const {
    constexpr int wx = DX >= 0 ? 0 : -1, wy = DY >= 0 ? 0 : -1, qx = DX - 4 * wx, qy = DY - 4 * wy;
    constexpr int w00 = (4 - qx) * (4 - qy), w01 = qx * (4 - qy), w10 = (4 - qx) * qy, w11 = qx * qy;
    std::uint32_t sum = 0;
    if constexpr (kPacked) {
      std::uint32_t pairs[kPairs];
#pragma unroll
      for (int k = 0; k < kPairs; ++k) {
        const std::uint32_t(&top)[3] = ref2[k + 1 + wy];
        const std::uint32_t(&bottom)[3] = ref2[k + 2 + wy];
        pairs[k] = (w00 * top[1 + wx] + w01 * top[2 + wx] + w10 * bottom[1 + wx] + w11 * bottom[2 + wx] + 0x00080008u) >> 4;
      }
#pragma unroll
      for (int q = 0; q < kQuads; ++q) sum = ops::Dpx::sad_u8x4(quad(pairs, q), cur4[q], sum);
    } else {
#pragma unroll
      for (int k = 0; k < kRows; ++k) {
        const int(&top)[3] = ref[k + 1 + wy];
        const int(&bottom)[3] = ref[k + 2 + wy];
        const int r = (w00 * top[1 + wx] + w01 * top[2 + wx] + w10 * bottom[1 + wx] + w11 * bottom[2 + wx] + 8) >> 4;
        sum = __sad(cur[k], r, sum);
      }
    }
    return sum;
  }
};

// The 8 neighbours of a centre at quarter-pel offset (DCX, DCY), Q quarters apart, in the order
// (ny, nx) = (-1, -1), (-1, 0), ... (1, 1) without the centre: the lane's part of each SAD.
template <int DCX, int DCY, int Q, typename Patch>
__device__ __forceinline__ void neighbour_sads(const Patch& p, std::uint32_t (&part)[8]) {
  part[0] = p.template sad_at<DCX - Q, DCY - Q>();
  part[1] = p.template sad_at<DCX, DCY - Q>();
  part[2] = p.template sad_at<DCX + Q, DCY - Q>();
  part[3] = p.template sad_at<DCX - Q, DCY>();
  part[4] = p.template sad_at<DCX + Q, DCY>();
  part[5] = p.template sad_at<DCX - Q, DCY + Q>();
  part[6] = p.template sad_at<DCX, DCY + Q>();
  part[7] = p.template sad_at<DCX + Q, DCY + Q>();
}

// One step of refine_block's sub-pel loop from the lanes' parts of the 8 neighbours' SADs of a
// centre at quarter-pel offset (dcx, dcy) from the integer vector (cx, cy), `quarters` apart.
__device__ __forceinline__ void keep_best_neighbour(const RefineJob& j, const BlockSpan& b, const Penalty& pen,
                                                    int cx, int cy, int dcx, int dcy, int quarters,
                                                    const std::uint32_t (&part)[8], int lane, ScoredChoice* best) {
  const int k = neighbour_place(scored_candidate(lane)), s = j.scale;
  const int vx = (4 * cx + dcx + (k % 3 - 1) * quarters) * s / 4, vy = (4 * cy + dcy + (k / 3 - 1) * quarters) * s / 4;
  keep_best_of_8(j, b, pen, part, lane, vx, vy, s, true, best);
}

// refine_block's sub-pel stage for a whole B x B block: improves `best` (output units) and returns
// the chosen vector's own SAD when there is a penalty (0 otherwise, as refine_block).
template <typename T, int B>
__device__ std::uint32_t register_subpel(const RefineJob& j, const BlockSpan& b, const Penalty& pen, int lane,
                                         Choice* best) {
  const int s = j.scale, cx = best->x / s, cy = best->y / s;
  RegisterPatch<T, B> patch;
  patch.load(j, b, cx, cy, lane);
  // The integer vector's own SAD is needed only when it stays the best under a penalty.
  ScoredChoice scored{*best, 0};
  if (pen.lambda > 0) scored.sad = WarpSum{}(patch.template sad_at<0, 0>());
  std::uint32_t part[8];
  if (s >= 2) {  // half pixels around the integer vector
    neighbour_sads<0, 0, 2>(patch, part);
    keep_best_neighbour(j, b, pen, cx, cy, 0, 0, 2, part, lane, &scored);
  }
  if (s == 4) {  // quarter pixels around the best half: one of 9 centres, each with its weights
    const int dcx = scored.choice.x - 4 * cx, dcy = scored.choice.y - 4 * cy;
    switch ((dcy + 2) / 2 * 3 + (dcx + 2) / 2) {
      case 0: neighbour_sads<-2, -2, 1>(patch, part); break;
      case 1: neighbour_sads<0, -2, 1>(patch, part); break;
      case 2: neighbour_sads<2, -2, 1>(patch, part); break;
      case 3: neighbour_sads<-2, 0, 1>(patch, part); break;
      case 4: neighbour_sads<0, 0, 1>(patch, part); break;
      case 5: neighbour_sads<2, 0, 1>(patch, part); break;
      case 6: neighbour_sads<-2, 2, 1>(patch, part); break;
      case 7: neighbour_sads<0, 2, 1>(patch, part); break;
      default: neighbour_sads<2, 2, 1>(patch, part); break;
    }
    keep_best_neighbour(j, b, pen, cx, cy, dcx, dcy, 1, part, lane, &scored);
  }
  *best = scored.choice;
  return pen.lambda > 0 ? scored.sad : 0;
}

}  // namespace motion_detail
}  // namespace dpx
