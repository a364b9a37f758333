// Bit-parallel edit distance (Myers 1999, blocks of 64 rows as in Hyyrö's and edlib's global form),
// host and device: one step advances a column of 64 DP rows by one target letter in about twenty
// word operations instead of 64 cell updates.
//
// The pattern (n letters) runs down the rows in words of 64; for each target letter c, Eq[c] has a
// bit set where the pattern letter equals c. A column is kept as two bit vectors of its vertical
// differences D(i, j) - D(i-1, j): Pv (+1) and Mv (-1); D(i, 0) = i makes Pv all ones. A block
// receives the horizontal difference of the row above it (hin: +1 for the top block, D(0, j) = j)
// and passes its bottom row's on (hout), which is how several blocks of one column chain. The
// distance starts at D(n, 0) = n and follows the horizontal differences of row n.
#pragma once

#include <cstdint>

#include "dpx_ops.cuh"

namespace dpx {
namespace align {

constexpr int kWordBits = 64;

DPX_HD std::int64_t pattern_words(std::int64_t n) { return (n + kWordBits - 1) / kWordBits; }

// Advances one block by one target letter with match bits `eq`; `hin` in {-1, 0, +1}. Returns the
// horizontal difference leaving bit 63 (hout) and writes the one leaving bit `bit` to *delta (the
// distance row of the last block; unused otherwise, and then optimised away).
DPX_HD int myers_block_step(std::uint64_t* pv, std::uint64_t* mv, std::uint64_t eq, int hin, int bit, int* delta) {
  const std::uint64_t p = *pv, m = *mv;
  const std::uint64_t hin_neg = hin < 0 ? 1u : 0u;
  const std::uint64_t hin_pos = hin > 0 ? 1u : 0u;
  const std::uint64_t xv = eq | m;
  eq |= hin_neg;  // a -1 entering the block acts as a match on its first row
  const std::uint64_t xh = (((eq & p) + p) ^ p) | eq;
  std::uint64_t ph = m | ~(xh | p);
  std::uint64_t mh = p & xh;
  *delta = static_cast<int>((ph >> bit) & 1u) - static_cast<int>((mh >> bit) & 1u);
  const int hout = static_cast<int>(ph >> 63) - static_cast<int>(mh >> 63);
  ph = (ph << 1) | hin_pos;
  mh = (mh << 1) | hin_neg;
  *pv = mh | ~(xv | ph);
  *mv = ph & xv;
  return hout;
}

}  // namespace align
}  // namespace dpx
