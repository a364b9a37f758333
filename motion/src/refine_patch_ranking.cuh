// The candidates of a sub-pel patch ranked 8 at a time on the GPU: the overload of rank_patch
// (refine_block.h) that a whole block's patch on the frame's phase planes (frame_planes.h)
// selects. The 80 positions within 1 px of the centre but itself go in 10 groups of 8, row by
// row; each lane adds its pixels of all 8 candidates' SADs (its block pixels read once for the 8),
// and warp_ranking.cuh totals, scores and ranks the group at once, where one at a time costs a
// reduction and a scoring a candidate. precedes() is a total order, so the winner is the one
// rank_patch finds. Device code that a host compiler also builds (the warps on the host,
// tests/motion/test_motion_warp_on_host.cpp).
#pragma once

#include <cstdint>
#include <type_traits>

#include "refine_block.h"
#include "refine_shared.cuh"
#include "warp_ranking.cuh"

namespace dpx {
namespace motion_detail {

// Position k (0..80, row by row) of the patch around `centre` skipping the centre (k = 40) itself:
// the offset of candidate i (0..79) in quarter pixels, dx or dy in -4..4.
__device__ __forceinline__ int patch_place(int i) { return i < 40 ? i : i + 1; }

// Blocks cut by the frame's edge (B = 0) keep the generic rank_patch, one candidate at a time.
template <typename T, int B, typename Sum, typename = std::enable_if_t<(B > 0)>>
__device__ void rank_patch(const RefineJob& j, const PatchSamples<SharedSamples<T, B>, FramePatch<T>>& patch,
                           const BlockSpan& b,
                           const Penalty& quarter_pen, const Choice& centre, const Sum&, std::uint32_t weight,
                           Choice* q) {
  const int lane = b.y * B + b.x;  // block_span's split of a whole block
  ScoredChoice best{*q, 0};
#pragma unroll 1
  for (int g = 0; g < 80; g += 8) {
    std::uint32_t part[8];
#pragma unroll
    for (int t = 0; t < 8; ++t) {
      const int k = patch_place(g + t);
      part[t] = partial_sad(patch, j.filter, b, centre.x + k % 9 - 4, centre.y + k / 9 - 4, 4);
    }
    const int k = patch_place(g + scored_candidate(lane));
    keep_best_of_8(j, b, quarter_pen, part, lane, centre.x + k % 9 - 4, centre.y + k / 9 - 4, 4, true, &best,
                   weight);
  }
  *q = best.choice;
}

}  // namespace motion_detail
}  // namespace dpx
