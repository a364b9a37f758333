// The walk back through the recorded bit-parallel columns (edit_column_record.cuh) that spells a
// pair's CIGAR, host and device: the CUDA kernel runs it on a warp (edit_cigar_cuda.cu), the tests
// on one host lane over a record built by the same recurrence.
//
// The walk takes, at (i, j) with D(i, j) = v, the first of diagonal, up ('I'), left ('D') whose
// candidate equals v — edit_trace_step's order — so the CIGAR is the full DP's byte for byte.
// Each step's reads depend on the step before, so the group fills a window of cells first — 64
// rows (i0 - 63 .. i0: two 64-bit words at most) by 64 columns (j0 - 63 .. j0), a column a lane:
// D at row i0 from the column's bottom score and a popcount, then up a row at a time by the
// difference bits — and lane 0 walks up to 62 steps through it (a step reads the row above and
// the column left of its cell), one shared-memory read a step. The group refills the window where
// the walk leaves it.
#pragma once

#include <cstdint>

#include "edit_column_record.cuh"

namespace dpx {
namespace align {

constexpr int kWalkSpan = 64;
constexpr int kWalkSteps = kWalkSpan - 2;

// A window's cells, D(i0 - di, j0 - dj) at d[dj][di] (the odd row length puts the lanes' column
// stores in different banks), its letters, and the walk's cell as lane 0 left it.
struct WalkWindow {
  static constexpr int kColumn = kWalkSpan + 1;
  std::int32_t d[kWalkSpan][kColumn];
  char q[kWalkSpan], t[kWalkSpan];
  std::int64_t i, j;
  std::int32_t v;  // D(i, j)
};

DPX_HD int popcount64(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __popcll(x);
#else
  return __builtin_popcountll(x);
#endif
}

// One pair's recorded columns.
struct PairColumns {
  const ColumnRecord* record;
  std::uint64_t base;  // the pair's first entry
  std::int64_t words;
  int lane_shift;

  // Column c's word w (pv, mv, score at the word's bottom row); column 0 is D(i, 0) = i.
  DPX_HD void word(std::int64_t c, std::int64_t w, std::uint64_t* pv, std::uint64_t* mv, std::int32_t* score) const {
    *pv = ~std::uint64_t{0};
    *mv = 0;
    *score = column_zero_score(w);
    if (c >= 1 && w < words) {
      const std::uint64_t at = base + column_record_index(words, lane_shift, c - 1, w);
      *pv = record->pv[at];
      *mv = record->mv[at];
      *score = record->score[at];
    }
  }
};

// D(i, c) for row i (>= 1) in a word whose bottom score is `score`: less the differences of the
// rows below it.
DPX_HD std::int32_t cell_in_word(std::uint64_t pv, std::uint64_t mv, std::int32_t score, std::int64_t i) {
  const std::uint64_t below = ~std::uint64_t{1} << ((i - 1) % kWordBits);
  return score - popcount64(pv & below) + popcount64(mv & below);
}

// D(n, m): the last column's last word.
DPX_HD std::int32_t walk_start(const PairColumns& cols, std::int64_t n, std::int64_t m) {
  if (n == 0 || m == 0) return static_cast<std::int32_t>(n + m);
  std::uint64_t pv, mv;
  std::int32_t score;
  cols.word(m, cols.words - 1, &pv, &mv, &score);
  return cell_in_word(pv, mv, score, n);
}

// Rows i0 - 63 .. i0 of a column as bits 0 .. 63 of one word, from the two words that hold them
// (`shift`: the bit of row i0 - 63 in that pair; negative when the window starts above row 1,
// whose missing rows become zeros).
DPX_HD std::uint64_t window_bits(std::uint64_t low, std::uint64_t high, int shift) {
  if (shift < 0) return low << -shift;
  return shift == 0 ? low : (low >> shift) | (high << (kWordBits - shift));
}

// Column dj of the window at (i0, j0): D(i0, c), then up a row at a time by the vertical
// differences — the difference of row 1 takes D(1, c) to D(0, c) = c, so the first row needs no
// case of its own. Rows < 0 and columns < 0 are never read.
DPX_HD void fill_window_column(WalkWindow& win, const PairColumns& cols, std::int64_t i0, std::int64_t j0, int dj) {
  const std::int64_t c = j0 - dj;
  if (c < 0) return;
  const std::int64_t first = i0 - kWalkSpan;  // bit index of row i0 - 63, counting row 1 as bit 0
  const std::int64_t w0 = first > 0 ? first / kWordBits : 0;
  const int shift = static_cast<int>(first - kWordBits * w0);
  const bool upper = (i0 - 1) / kWordBits > w0;  // row i0 is in word w0 + 1
  std::uint64_t p0, m0, p1, m1;
  std::int32_t s0, s1;
  cols.word(c, w0, &p0, &m0, &s0);
  cols.word(c, w0 + 1, &p1, &m1, &s1);
  std::int32_t d = cell_in_word(upper ? p1 : p0, upper ? m1 : m0, upper ? s1 : s0, i0);
  const std::uint64_t pv = window_bits(p0, p1, shift), mv = window_bits(m0, m1, shift);
  const auto phigh = static_cast<std::uint32_t>(pv >> 32), mhigh = static_cast<std::uint32_t>(mv >> 32);
  const auto plow = static_cast<std::uint32_t>(pv), mlow = static_cast<std::uint32_t>(mv);
  std::int32_t* column = win.d[dj];
  DPX_UNROLL
  for (int di = 0; di < kWalkSpan; ++di) {
    column[di] = d;
    const int bit = kWalkSpan - 1 - di;  // row i0 - di
    const std::uint32_t p = bit >= 32 ? phigh >> (bit - 32) : plow >> bit;
    const std::uint32_t m = bit >= 32 ? mhigh >> (bit - 32) : mlow >> bit;
    d -= static_cast<std::int32_t>(p & 1u) - static_cast<std::int32_t>(m & 1u);
  }
}

// Lane 0's walk through the window at (i0, j0): di rows up and dj columns left of the corner;
// leaves the cell it stopped at in win.i, win.j, win.v.
template <class Emit>
DPX_HD void walk_window(WalkWindow& win, std::int64_t i0, std::int64_t j0, Emit& emit) {
  const int last_di = static_cast<int>(i0 - 1 < kWalkSteps ? i0 - 1 : kWalkSteps);
  const int last_dj = static_cast<int>(j0 - 1 < kWalkSteps ? j0 - 1 : kWalkSteps);
  const std::int32_t* cells = &win.d[0][0];
  std::int32_t v = win.v;
  int di = 0, dj = 0, at = 0;  // at: cell (di, dj)
  while (di <= last_di && dj <= last_dj) {
    const std::int32_t diag = cells[at + WalkWindow::kColumn + 1];  // D(i - 1, j - 1)
    const char a = win.q[di], b = win.t[dj];
    if (diag + (a != b ? 1 : 0) == v) {
      emit(a == b ? '=' : 'X');
      v = diag;
      ++di;
      ++dj;
      at += WalkWindow::kColumn + 1;
    } else if (cells[at + 1] == v - 1) {  // D(i - 1, j) + 1
      emit('I');
      --v;
      ++di;
      ++at;
    } else {
      emit('D');
      --v;
      ++dj;
      at += WalkWindow::kColumn;
    }
  }
  win.i = i0 - di;
  win.j = j0 - dj;
  win.v = v;
}

// One pair's walk from (n, m), whose value lane 0 passes as `distance` (walk_start), until it
// reaches the first row or column, by a group of Group::kSize lanes (lane(), sync()); lane 0
// emits the operations, last first. Returns true when the walk is consistent: it ends at (i, j)
// with D(i, j) = i + j, the first row's and column's value (false would be a defect).
template <class Group, class Emit>
DPX_HD bool walk_back_columns(const Group& g, WalkWindow& win, const PairColumns& cols, const char* q, std::int64_t n,
                              const char* t, std::int64_t m, std::int32_t distance, Emit& emit) {
  if (g.lane() == 0) {
    win.i = n;
    win.j = m;
    win.v = distance;
  }
  g.sync();
  while (win.i > 0 && win.j > 0) {
    const std::int64_t i0 = win.i, j0 = win.j;
    for (int dj = g.lane(); dj < kWalkSpan; dj += Group::kSize) fill_window_column(win, cols, i0, j0, dj);
    for (int s = g.lane(); s < kWalkSpan; s += Group::kSize) {
      win.q[s] = i0 - 1 - s >= 0 ? q[i0 - 1 - s] : 0;
      win.t[s] = j0 - 1 - s >= 0 ? t[j0 - 1 - s] : 0;
    }
    g.sync();
    if (g.lane() == 0) walk_window(win, i0, j0, emit);
    g.sync();  // lane 0's reads of the window and writes of the cell before the next fill
  }
  const bool consistent = win.v == win.i + win.j;
  if (g.lane() == 0) {
    for (std::int64_t i = win.i; i > 0; --i) emit('I');
    for (std::int64_t j = win.j; j > 0; --j) emit('D');
  }
  return consistent;
}

}  // namespace align
}  // namespace dpx
