// Edit distance with CIGAR in a band around the known distance d (the CPU path, edit_cigar_cpu.cpp).
//
// Why the band gives the full DP's CIGAR, bit for bit. Let D be the full matrix and B the same
// recurrence (edit_trace_step, same tie rules) evaluated only on the band cells, every cell outside
// the band read as kBandInf. B >= D everywhere (B minimises over a subset of paths).
//   1. Any path (0,0) -> (i,j) costs >= |i - j| and (i,j) -> (n,m) costs >= |(m - j) - (n - i)|, so
//      a cell on an optimal path to (n, m) has k = j - i with |k| + |delta - k| <= d, delta = m - n:
//      k in [ceil((delta - d) / 2), floor((delta + d) / 2)] — the band (width <= d + 1, inside
//      [-n, m] since d <= max(n, m)).
//   2. Such a cell's optimal prefix stays on optimal paths, hence in the band: B = D there.
//   3. The code of a cell is the first of (diagonal, up, left) whose candidate equals the minimum.
//      At a cell on an optimal path, a neighbour whose candidate reaches D(i,j) is itself on an
//      optimal path (prefix, step, suffix), so B = D for it; every other candidate exceeds D(i,j)
//      in D and, B >= D, in B too. Same minimum, same set of winners: the same code.
//   4. The traceback from (n, m) only visits cells on optimal paths (each step keeps D(i,j) =
//      D(prev) + cost), so it reads exactly the full DP's codes.
#pragma once

#include <cstdint>

#include "dpx_ops.cuh"

namespace dpx {
namespace align {

// Value of a cell outside the band: + 1 and + 255 stay far from wrapping and never win.
constexpr std::uint32_t kBandInf = 0x3FFFFFFFu;

// Diagonals k = j - i in [lo, lo + width) of an n x m pair at distance d.
struct EditBand {
  std::int64_t lo = 0, width = 0;
};

DPX_HD EditBand edit_band(std::int64_t n, std::int64_t m, std::int64_t d) {
  const std::int64_t delta = m - n;
  EditBand b;
  b.lo = -((d - delta) / 2);  // d - delta >= 0: plain division floors
  b.width = (delta + d) / 2 - b.lo + 1;
  return b;
}

}  // namespace align
}  // namespace dpx
