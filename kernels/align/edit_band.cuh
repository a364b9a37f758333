// Edit distance with CIGAR in a band around the known distance d (host and device).
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

// Device layout of the codes: step t = 2i + q (q = k - lo) walks the band's anti-diagonals; the
// cells of one step are q = (t & 1) + 2x, x = 0 .. half - 1, stored as 32-cell chunks of two
// bit-plane words (low bits, high bits of the code). Step t's chunk c is word pair t * chunks + c.
struct BandTraceLayout {
  std::int64_t lo = 0, width = 0, steps = 0, chunks = 0;

  DPX_HD static BandTraceLayout make(std::int64_t n, std::int64_t m, std::int64_t d) {
    const EditBand b = edit_band(n, m, d);
    BandTraceLayout l;
    l.lo = b.lo;
    l.width = b.width;
    l.steps = n == 0 || m == 0 ? 0 : n + m - b.lo + 1;  // (n, m) is step 2n + (m - n - lo)
    l.chunks = ((b.width + 1) / 2 + 31) / 32;
    return l;
  }
  DPX_HD std::uint64_t words() const { return static_cast<std::uint64_t>(steps * chunks) * 2; }
};

// Where cell (i, j), 1-based, keeps its code in the device layout: bit `bit` of the word pair
// (low bits, high bits) of chunk `chunk` at step `step`.
struct BandCodeAt {
  std::int64_t step, chunk;
  unsigned bit;
};
DPX_HD BandCodeAt band_code_at(const BandTraceLayout& l, std::int64_t i, std::int64_t j) {
  const std::int64_t q = j - i - l.lo;
  const std::int64_t x = q >> 1;
  return BandCodeAt{2 * i + q, x >> 5, static_cast<unsigned>(x & 31)};
}
DPX_HD unsigned band_code(std::uint32_t low, std::uint32_t high, unsigned bit) {
  return ((low >> bit) & 1u) | (((high >> bit) & 1u) << 1);
}

// Upper bound on the CIGAR text of a pair at distance d: at most 2d + 1 runs (edit runs hold >= 1
// edit each, '=' runs lie between them) of <= 7 characters, and at most 2 characters per operation.
DPX_HD std::uint64_t cigar_text_bound(std::int64_t n, std::int64_t m, std::int64_t d) {
  const std::int64_t by_runs = 7 * (2 * d + 1), by_ops = 2 * (n + m);
  return static_cast<std::uint64_t>(by_runs < by_ops ? by_runs : by_ops);
}

// CIGAR text written during the walk back (last operation first): each run goes down reversed
// (letter, then digits lowest first), so the whole text read backwards is the CIGAR; close()
// flushes the last run and gives the length, and the caller reverses the text.
struct ReversedCigarText {
  char* text;
  std::int64_t length = 0, run = 0;
  char letter = 0;

  DPX_HD explicit ReversedCigarText(char* out) : text(out) {}
  DPX_HD void operator()(char op) {
    if (run > 0 && op != letter) flush();
    letter = op;
    ++run;
  }
  DPX_HD std::int64_t close() {
    if (run > 0) flush();
    return length;
  }

 private:
  DPX_HD void flush() {
    text[length++] = letter;
    for (; run > 0; run /= 10) text[length++] = static_cast<char>('0' + run % 10);
  }
};

}  // namespace align
}  // namespace dpx
