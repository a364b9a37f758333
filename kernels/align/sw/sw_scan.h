// One thread of the database scan: score-only local alignment of one query against many targets
// (AlignOptions::score_only), two targets per slot in the packed 16-bit lanes, the paired table.
// The layout is the strip kernels' (sw_group.h): G threads of R target columns each, thread t a
// row behind thread t - 1. What the scan leaves out is what made those kernels spend 8 instructions
// a cell where the recurrence needs 3: no search for the best cell (a running maximum per lane is
// all a score needs), no bounds checks and no branches per step.
//
// Every thread runs every step. Rows before the first and after the last are rows of the padding
// letter, which scores 0 against everything, as are the columns past a target's end. In local
// alignment such rows and columns cannot raise the maximum: starting from H = 0, E, F < 0 above
// row 1 they stay H = 0, and below or beside the real cells no value exceeds the largest real H
// (every new value is an old one plus 0, or less). So the running maximum over all cells a thread
// computes is the score, whatever padding the slot's shape adds.
//
// Host and device code: the kernel moves h_out and e_out between threads with warp shuffles, the
// host simulation (tests) with copies; both call this.
#pragma once

#include <cstdint>

#include "sw_cell.h"
#include "sw_strip.h"

namespace dpx {
namespace align {

// Table-row arrays (query rows, column stores) start kScanRowPad entries before row 1 so a thread
// up to 31 rows behind its group's first one indexes them without a check.
constexpr int kScanRowPad = 32;
// Steps between the load of a query row (or a boundary entry) and its use.
constexpr int kScanAhead = 2;

// Entries of the query-row array and of one group's column store for a query of n rows.
DPX_HD constexpr std::int32_t scan_row_entries(std::int32_t n) { return n + 2 * kScanRowPad + 4 * kScanAhead; }

// Entries a group's column store holds for a range of `rows` query rows: the scan's padded rows,
// or the strip kernels' one entry a row.
DPX_HD constexpr std::int32_t column_store_rows(bool scan, std::int32_t rows) {
  return scan ? scan_row_entries(rows) : rows;
}

// Entry x of the query-row array of a query of n rows: the table's byte offset for row
// x - kScanRowPad (1-based), whose letter is letter(i) (the matrix index of query[i - 1]); the
// padding letter d - 1 outside rows 1..n.
template <class LetterOf>
DPX_HD std::uint32_t scan_query_row(std::int32_t x, std::int32_t n, int d, const LetterOf& letter) {
  const std::int32_t i = x - kScanRowPad;
  return static_cast<std::uint32_t>((i >= 1 && i <= n ? letter(i) : d - 1) * d * d) * 4u;
}

// Steps of one pass: every row reaches the last thread, rounded up to whole load rounds.
DPX_HD constexpr std::int32_t scan_steps(std::int32_t n, int group) {
  return (n + group - 1 + kScanAhead - 1) / kScanAhead * kScanAhead;
}

// H and E of a pass's last column for one row: what the next pass's first thread starts from.
struct ScanEdge {
  std::uint32_t h, e;
};

// What every scan thread keeps, whatever gives it its substitution scores: the strip's H and F,
// the running maximum, and the hand-over to its neighbour and between passes (the column store).
// kPasses: rows handed over through a column store between passes (the single-pass shapes leave
// that out: its registers are what lets R reach 32 without spilling).
template <class Ops, int G, int R, bool kPasses>
struct ScanStrip {
  using L = Lanes16<Ops>;
  using V = typename L::V;
  static constexpr int kWidth = G * R;
  static_assert(R % 2 == 0, "the running maximum takes two columns at a time");

  int t = 0;                          // index in the group
  std::int32_t n = 0;                 // rows
  ScanEdge* edges = nullptr;          // this group's column store (kScanRowPad before row 1)
  std::int32_t pass = 0;
  bool last_pass = true;

  V h[R];  // H of the last row done, per column
  V f[R];  // F of the next row, per column
  V diag;  // H[i-1][c0-1] for the next row
  V best;  // the largest H seen, per lane
  V h_out, e_out;  // to the right neighbour: H of the last column, E after it
  ScanEdge edge_ahead[kScanAhead];

  DPX_HD void begin_slot() { best = 0; }

  // Starts pass p: row 0 above every column, the left edge's first entries on their way.
  DPX_HD void start_pass(std::int32_t p, bool last, const GapCosts<L>& g) {
    pass = p;
    last_pass = last;
DPX_UNROLL
    for (int c = 0; c < R; ++c) {
      h[c] = 0;
      f[c] = g.neg_open;  // F[1][j] = H[0][j] - open
    }
    diag = 0;
    h_out = 0;
    e_out = g.neg_open;
DPX_UNROLL
    for (int k = 0; k < kScanAhead; ++k)
      if (kPasses && pass > 0) edge_ahead[k] = edges[kScanRowPad + k + 1];
  }

  // Step s (k = s % kScanAhead): row s - t + 1 of this thread's columns, sub(c) the substitution
  // score of column c in that row. (h_in, e_in) are thread t - 1's outputs of step s - 1; thread 0
  // takes H[i][c0], E[i][c0+1] from the left edge of the matrix (0, -open) or from the previous
  // pass's column store.
  template <class Sub>
  DPX_HD void cells(std::int32_t s, int k, V h_in, V e_in, const GapCosts<L>& g, const Sub& sub) {
    if (t == 0) {
      const bool open_edge = !kPasses || pass == 0 || s + 1 > n;
      h_in = open_edge ? 0u : edge_ahead[k].h;
      e_in = open_edge ? g.neg_open : edge_ahead[k].e;
    }
    if (kPasses && pass > 0) edge_ahead[k] = edges[kScanRowPad + s + kScanAhead + 1];
    V d = diag, e = e_in;
DPX_UNROLL
    for (int c = 0; c < R; ++c) {
      const V up = h[c];
      h[c] = cell<L, true>(d, sub(c), e, f[c], g);
      d = up;
      if (c % 2 == 1) best = L::max3(best, h[c - 1], h[c]);
    }
    diag = h_in;
    h_out = h[R - 1];
    e_out = e;
    if (kPasses && t == G - 1 && !last_pass) edges[kScanRowPad + s - G + 2] = ScanEdge{h_out, e_out};
  }
};

// The paired table's scan: rows are the query's letters, the same in both lanes; columns the two
// targets' letters.
template <class Ops, int G, int R, bool kPasses>
struct ScanThread : ScanStrip<Ops, G, R, kPasses> {
  using Strip = ScanStrip<Ops, G, R, kPasses>;
  using typename Strip::L;
  using typename Strip::V;

  const std::uint32_t* table = nullptr;  // paired table, D * D words per query letter
  const std::uint32_t* rows = nullptr;   // per query row (kScanRowPad before row 1): its table offset in bytes
  std::uint32_t col[R];  // 4 * (a * D + b), the column's letters in the two lanes: a byte offset, so a
                         // lookup's address is one add (row offset + column offset)
  std::uint32_t row_ahead[kScanAhead];

  // Starts pass p over the letters (matrix indices, padding past the ends) of the two targets.
  DPX_HD void begin_pass(std::int32_t p, bool last, const std::uint8_t (&a)[R], const std::uint8_t (&b)[R], int d,
                         const GapCosts<L>& g) {
DPX_UNROLL
    for (int c = 0; c < R; ++c) col[c] = static_cast<std::uint32_t>(a[c] * d + b[c]) * 4u;
    this->start_pass(p, last, g);
DPX_UNROLL
    for (int k = 0; k < kScanAhead; ++k) row_ahead[k] = rows[kScanRowPad + k - this->t + 1];
  }

  DPX_HD void step(std::int32_t s, int k, V h_in, V e_in, const GapCosts<L>& g) {
    const unsigned char* qrow = reinterpret_cast<const unsigned char*>(table) + row_ahead[k];
    row_ahead[k] = rows[kScanRowPad + s + kScanAhead - this->t + 1];
    this->cells(s, k, h_in, e_in, g,
                [&](int c) { return *reinterpret_cast<const std::uint32_t*>(qrow + col[c]); });
  }
};

}  // namespace align
}  // namespace dpx
