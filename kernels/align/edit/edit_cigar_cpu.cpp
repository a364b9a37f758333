#include "edit_cigar_cpu.h"

#include <algorithm>

#include "align/common/cigar.h"
#include "edit_band.cuh"
#include "edit_cells.cuh"

namespace dpx {
namespace align {
namespace {

// Codes at cell index k, 4 per byte; `index` maps (i, j), 1-based, to k.
template <class Index>
struct PackedDirs {
  const std::uint8_t* codes;
  Index index;
  unsigned operator()(std::int64_t i, std::int64_t j) const {
    const std::uint64_t k = index(i, j);
    return (codes[k >> 2] >> (2 * (k & 3))) & 3u;
  }
};

void put_code(std::uint8_t* codes, std::uint64_t k, unsigned code) {
  codes[k >> 2] |= static_cast<std::uint8_t>(code << (2 * (k & 3)));
}

template <class Index>
std::string trace(const char* q, std::int64_t n, const char* t, std::int64_t m, const CigarWorkspace& w, Index index,
                  std::vector<char>* ops) {
  ops->resize(n + m);
  const std::int64_t count = edit_traceback(q, n, t, m, PackedDirs<Index>{w.codes.data(), index}, ops->data());
  return cigar_from_reversed_ops(ops->data(), count);
}

}  // namespace

std::int64_t edit_cigar_full(const char* q, std::int64_t n, const char* t, std::int64_t m, CigarWorkspace* w,
                             std::string* cigar) {
  std::int64_t distance = std::max(n, m);
  w->codes.clear();
  if (n > 0 && m > 0) {
    w->prev.resize(m + 1);
    w->cur.resize(m + 1);
    w->codes.assign((static_cast<std::uint64_t>(n) * m + 3) / 4, 0);
    std::uint32_t* prev = w->prev.data();
    std::uint32_t* cur = w->cur.data();
    for (std::int64_t j = 0; j <= m; ++j) prev[j] = static_cast<std::uint32_t>(j);
    std::uint64_t k = 0;
    for (std::int64_t i = 1; i <= n; ++i) {
      cur[0] = static_cast<std::uint32_t>(i);
      for (std::int64_t j = 1; j <= m; ++j, ++k) {
        unsigned code = 0;
        cur[j] = edit_trace_step<ops::Dpx>(prev[j - 1], prev[j], cur[j - 1], letter(q, i - 1) ^ letter(t, j - 1), &code);
        put_code(w->codes.data(), k, code);
      }
      std::swap(prev, cur);
    }
    distance = prev[m];
  }
  const auto index = [m](std::int64_t i, std::int64_t j) { return static_cast<std::uint64_t>((i - 1) * m + (j - 1)); };
  *cigar = trace(q, n, t, m, *w, index, &w->ops);
  return distance;
}

// Rows of the band: row i keeps diagonals q = 0 .. width - 1 (column j = i + lo + q) at index
// q + 1, with out-of-band sentinels at 0 and width + 1; left is cur[q], up prev[q + 2], diagonal
// prev[q + 1].
std::int64_t edit_cigar_banded(const char* q, std::int64_t n, const char* t, std::int64_t m, std::int64_t distance,
                               CigarWorkspace* w, std::string* cigar) {
  const EditBand band = edit_band(n, m, distance);
  const std::int64_t width = band.width;
  w->codes.clear();
  if (n > 0 && m > 0) {
    w->prev.assign(width + 2, kBandInf);
    w->cur.assign(width + 2, kBandInf);
    w->codes.assign((static_cast<std::uint64_t>(n) * width + 3) / 4, 0);
    std::uint32_t* prev = w->prev.data();
    std::uint32_t* cur = w->cur.data();
    for (std::int64_t c = 0; c < width; ++c) {
      const std::int64_t j = band.lo + c;
      prev[c + 1] = j >= 0 && j <= m ? static_cast<std::uint32_t>(j) : kBandInf;
    }
    for (std::int64_t i = 1; i <= n; ++i) {
      const std::uint64_t row = static_cast<std::uint64_t>(i - 1) * width;
      for (std::int64_t c = 0; c < width; ++c) {
        const std::int64_t j = i + band.lo + c;
        if (j < 0 || j > m) {
          cur[c + 1] = kBandInf;
        } else if (j == 0) {
          cur[c + 1] = static_cast<std::uint32_t>(i);
        } else {
          unsigned code = 0;
          cur[c + 1] = edit_trace_step<ops::Dpx>(prev[c + 1], prev[c + 2], cur[c], letter(q, i - 1) ^ letter(t, j - 1),
                                                 &code);
          put_code(w->codes.data(), row + c, code);
        }
      }
      std::swap(prev, cur);
    }
    distance = prev[m - n - band.lo + 1];
  }
  const std::int64_t lo = band.lo;
  const auto index = [lo, width](std::int64_t i, std::int64_t j) {
    return static_cast<std::uint64_t>((i - 1) * width + (j - i - lo));
  };
  *cigar = trace(q, n, t, m, *w, index, &w->ops);
  return distance;
}

}  // namespace align
}  // namespace dpx
