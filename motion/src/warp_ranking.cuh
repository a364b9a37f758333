// Ranking a warp's candidates together (refine_cuda.cu and refine_subpel_registers.cuh): the lanes
// hold their parts of 8 candidates' SADs; 9 shuffles total them (halving the values at each of the
// first three exchanges) so that lane L holds candidate (L >> 2) & 7's, each lane scores that one —
// frame and range checks, the penalty — and three exchanges find the first by precedes(). Against
// one reduction and one comparison a candidate, this is about a fifth of the shuffles and an
// eighth of the scoring; precedes() is a total order, so the result is the same.
#pragma once

#include <cstdint>

#include "refine_block.h"

namespace dpx {
namespace motion_detail {

struct WarpSum {  // every lane gets the warp's total
  __device__ std::uint32_t operator()(std::uint32_t v) const {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xFFFFFFFFu, v, o);
    return v;
  }
};

// The warp's totals of 8 partial sums: lane L ends with the total of candidate (L >> 2) & 7.
__device__ __forceinline__ std::uint32_t warp_totals_of_8(const std::uint32_t (&part)[8], int lane) {
  std::uint32_t v4[4], v2[2];
  const bool hi16 = lane & 16, hi8 = lane & 8, hi4 = lane & 4;
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    const std::uint32_t keep = hi16 ? part[k + 4] : part[k], send = hi16 ? part[k] : part[k + 4];
    v4[k] = keep + __shfl_xor_sync(0xFFFFFFFFu, send, 16);
  }
#pragma unroll
  for (int k = 0; k < 2; ++k) {
    const std::uint32_t keep = hi8 ? v4[k + 2] : v4[k], send = hi8 ? v4[k] : v4[k + 2];
    v2[k] = keep + __shfl_xor_sync(0xFFFFFFFFu, send, 8);
  }
  const std::uint32_t keep = hi4 ? v2[1] : v2[0], send = hi4 ? v2[0] : v2[1];
  std::uint32_t v = keep + __shfl_xor_sync(0xFFFFFFFFu, send, 4);
  v += __shfl_xor_sync(0xFFFFFFFFu, v, 2);
  return v + __shfl_xor_sync(0xFFFFFFFFu, v, 1);
}

// The candidate of 8 that lane L scores once warp_totals_of_8 has run: (L >> 2) & 7.
__device__ __forceinline__ int scored_candidate(int lane) { return (lane >> 2) & 7; }

// The place k = 3 (ny + 1) + nx + 1 of neighbour n of a centre, for candidates that are its 8
// neighbours in the order (ny, nx) = (-1, -1), (-1, 0), ... (1, 1) without the centre.
__device__ __forceinline__ constexpr int neighbour_place(int n) { return n < 4 ? n : n + 1; }

// A candidate and its own SAD (the stored SAD when there is a penalty).
struct ScoredChoice {
  Choice choice;
  std::uint32_t sad;
};

// Keeps in `best` the first by precedes() of itself and 8 candidates: `part` the lane's parts of
// their SADs; (vx, vy) (units of 1/s) the candidate lane L scores, (L >> 2) & 7, which counts only
// when `usable` and inside the frame and range (consider()'s test), ranked as consider() ranks it:
// weight * SAD + the penalty, in the penalty's units.
__device__ __forceinline__ void keep_best_of_8(const RefineJob& j, const BlockSpan& b, const Penalty& pen,
                                               const std::uint32_t (&part)[8], int lane, int vx, int vy, int s,
                                               bool usable, ScoredChoice* best, std::uint32_t weight = 1) {
  const std::uint32_t sad = warp_totals_of_8(part, lane);
  const bool inside = usable && component_inside(vx, s, b.x0, b.bw, j.width, j.range) &&
                      component_inside(vy, s, b.y0, b.bh, j.height, j.range);
  const int x = vx * (pen.scale / s), y = vy * (pen.scale / s);
  // A candidate that does not count never wins: the largest cost loses to any real one.
  Choice c{inside ? weight * sad + pen.units(x, y) : UINT32_MAX, x, y};
  std::uint32_t c_sad = sad;
#pragma unroll
  for (int mask = 4; mask <= 16; mask <<= 1) {
    const Choice o{__shfl_xor_sync(0xFFFFFFFFu, c.cost, mask), __shfl_xor_sync(0xFFFFFFFFu, c.x, mask),
                   __shfl_xor_sync(0xFFFFFFFFu, c.y, mask)};
    const std::uint32_t o_sad = __shfl_xor_sync(0xFFFFFFFFu, c_sad, mask);
    if (precedes(o, c)) c = o, c_sad = o_sad;
  }
  if (c.cost != UINT32_MAX && precedes(c, best->choice)) *best = ScoredChoice{c, c_sad};
}

}  // namespace motion_detail
}  // namespace dpx
