// The tie rule as numbers, shared by the CPU search and the CUDA kernel so both order candidates
// the same way.
//
// tie_key(dx, dy) orders candidates of equal SAD: |dx| + |dy| first, then dy, then dx, 8 bits each
// (R <= 64 keeps every field below 256). match_key puts the SAD above it, so the smallest
// match_key over all candidates is the vector the API defines, and it decodes back to (dx, dy).
#pragma once

#include <cstdint>

#include "dpx/motion.h"
#include "dpx_ops.cuh"

namespace dpx {
namespace motion_detail {

static_assert(2 * kMotionMaxRange < 256, "each tie_key field must fit 8 bits");

DPX_HD std::uint32_t tie_key(int dx, int dy, int range) {
  const int manhattan = (dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy);
  return (static_cast<std::uint32_t>(manhattan) << 16) | (static_cast<std::uint32_t>(dy + range) << 8) |
         static_cast<std::uint32_t>(dx + range);
}

DPX_HD std::uint64_t match_key(std::uint32_t sad, int dx, int dy, int range) {
  return (static_cast<std::uint64_t>(sad) << 32) | tie_key(dx, dy, range);
}

DPX_HD MotionVector decode_match_key(std::uint64_t key, int range) {
  MotionVector v;
  v.sad = static_cast<std::uint32_t>(key >> 32);
  v.dy = static_cast<std::int16_t>(static_cast<int>((key >> 8) & 0xFFu) - range);
  v.dx = static_cast<std::int16_t>(static_cast<int>(key & 0xFFu) - range);
  return v;
}

// The candidate offsets a block may use: the block's in-frame pixels (x0, y0, bw x bh) stay in
// the reference and |d| <= range. Inclusive bounds; lo <= 0 <= hi always.
struct OffsetRange {
  int lo, hi;
};
DPX_HD OffsetRange offset_range(int origin, int extent, int frame, int range) {
  const int lo = -origin, hi = frame - origin - extent;
  return OffsetRange{lo > -range ? lo : -range, hi < range ? hi : range};
}

}  // namespace motion_detail
}  // namespace dpx
