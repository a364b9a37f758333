// One thread's share of the alignment kernels: a strip of R consecutive target columns, swept one
// query row at a time. A group of G threads covers G * R columns (a pass); thread t works on row
// i while thread t + 1 works on row i - 1, each handing H and E of its last column to the next.
// Targets wider than a pass take several passes; the last thread of a pass leaves H and E of its
// last column for every row in memory, and the first thread of the next pass reads them back.
//
// Everything here is plain host/device code (no CUDA specifics), so the group can be run on the
// host as well, step by step, exactly as the kernel runs it (the tests do).
#pragma once

#include <cstdint>
#include <type_traits>

#include "dpx/align.h"
#include "sw_cell.h"

namespace dpx {
namespace align {

// --- substitution lookups -------------------------------------------------------------------------
// Letters are matrix indices; index `pad` (= the alphabet size) fills strips past the end of a
// sequence and scores 0 against everything. D = pad + 1 entries per table side.

// Lanes16, both lanes aligning the same query (one query against many targets): one table word
// holds both lanes' scores, pack(s(q, a), s(q, b)), at q * D * D + a * D + b.
struct PairedScorer {
  using Column = std::uint32_t;       // a * D + b
  using Row = const std::uint32_t*;   // the table at q * D * D
  const std::uint32_t* table;
  int d;
  DPX_HD Row row(int qa, int) const { return table + qa * d * d; }
  DPX_HD Column column(int a, int b) const { return static_cast<Column>(a * d + b); }
  DPX_HD std::uint32_t sub(Row r, Column c) const { return r[c]; }
};

// Lanes16, each lane its own query (pairwise batches): two lookups in a D x D table of int16 that
// is replicated kCopies times, entry x of copy k at x * kCopies + k, so the threads of a warp spread
// over the shared-memory banks instead of piling onto the few words of one small table.
struct TwoLookupScorer {
  static constexpr int kCopies = 16;
  struct Column {
    std::uint32_t a, b;  // byte offsets of the letters' entries: letter * kCopies * 2
  };
  struct Row {
    const unsigned char *a, *b;
  };
  const std::int16_t* table;  // already offset to this thread's copy
  int d;
  DPX_HD Row row(int qa, int qb) const {
    const unsigned char* t = reinterpret_cast<const unsigned char*>(table);
    return Row{t + qa * d * kCopies * 2, t + qb * d * kCopies * 2};
  }
  DPX_HD Column column(int a, int b) const {
    return Column{static_cast<std::uint32_t>(a * kCopies * 2), static_cast<std::uint32_t>(b * kCopies * 2)};
  }
  // Byte offsets, so that an address is one add (no scaling) before the load.
  DPX_HD std::uint32_t sub(Row r, Column c) const {
    return ops::lanes::pack(*reinterpret_cast<const std::int16_t*>(r.a + c.a), *reinterpret_cast<const std::int16_t*>(r.b + c.b));
  }
};

// Lanes32: one alignment, a D x D int32 table.
struct SingleScorer {
  using Column = std::uint32_t;
  using Row = const std::int32_t*;
  const std::int32_t* table;
  int d;
  DPX_HD Row row(int qa, int) const { return table + qa * d; }
  DPX_HD Column column(int a, int) const { return static_cast<Column>(a); }
  DPX_HD std::int32_t sub(Row r, Column c) const { return r[c]; }
};

// --- one alignment of a slot ----------------------------------------------------------------------
// A slot is what one group aligns at once: one pair (Lanes32) or two (Lanes16, one per lane).
struct LaneJob {
  const char* query;   // letters, n of them
  const char* target;  // letters, m of them
  std::int32_t n = 0, m = 0;
  std::int32_t pair = -1;  // output index; -1: no alignment in this lane (it runs on padding)
};

// The best cell a thread has seen for one lane; groups reduce these with `better`.
struct Candidate {
  std::int32_t score, i, j;
};
// Higher score, then the smaller query end, then the smaller target end (dpx/align.h).
DPX_HD bool better(const Candidate& a, const Candidate& b) {
  return a.score > b.score || (a.score == b.score && (a.i < b.i || (a.i == b.i && a.j < b.j)));
}

// How a strip's lanes start each pass and where its first column's left neighbour comes from.
template <class L>
struct Edges {
  bool local, global;
  std::int32_t open, extend;
  GapCosts<L> g;
  DPX_HD Edges(AlignMode mode, std::int32_t open_, std::int32_t extend_)
      : local(mode == AlignMode::kLocal), global(mode == AlignMode::kGlobal), open(open_), extend(extend_),
        g(open_, extend_) {}
  // H[0][j], both lanes (the boundaries depend on the position only).
  DPX_HD typename L::V top(std::int32_t j) const { return L::splat(top_boundary(global, j, open, extend)); }
  // E that follows an H on its left: max(-inf - extend, h - open).
  DPX_HD typename L::V e_after(typename L::V h) const {
    return L::addmax(g.neg_inf, g.neg_extend, L::addmax(h, g.neg_open, g.floor));
  }
  // Column 0 of row i: H[i][0].
  DPX_HD typename L::V left(std::int32_t i) const { return L::splat(left_boundary(local, i, open, extend)); }
};

template <class Ops, class L, class Scorer, bool kLocal, int R>
struct Strip {
  using V = typename L::V;
  static constexpr int kLanes = L::kLanes;
  static_assert(R % 2 == 0, "strips hold an even number of columns");
  using Directions = std::conditional_t<kLanes == 1, CodeWord, DirectionPlanes>;

  V h[R];  // H of the last row done, per column
  V f[R];  // F of the next row, per column
  typename Scorer::Column col[R];
  V diag;  // H[i-1][c0-1] for the next row
  std::int32_t c0;  // first column of the strip, 0-based
  V best;           // local: the best H seen, per lane
  Candidate found[kLanes];

  // Starts a pass at column c0 (0-based) with the encoded letters of the strip's columns.
  DPX_HD void begin(std::int32_t first_column, const std::uint8_t (&letters)[kLanes][R], const Scorer& sc,
                    const Edges<L>& edges) {
    c0 = first_column;
    diag = edges.top(c0);
DPX_UNROLL
    for (int c = 0; c < R; ++c) {
      col[c] = sc.column(letters[0][c], letters[kLanes - 1][c]);
      h[c] = edges.top(c0 + c + 1);
      f[c] = edges.e_after(h[c]);  // F[1][j] follows H[0][j] the same way E follows H
    }
  }

  // Clears what a thread has found; non-local lanes start from H[n][0] of their own row n.
  DPX_HD void reset_found(const LaneJob (&jobs)[kLanes], const Edges<L>& edges) {
    best = L::splat(0);
DPX_UNROLL
    for (int k = 0; k < kLanes; ++k) {
      found[k] = kLocal ? Candidate{0, 0, 0}
                        : Candidate{edges.global ? INT32_MIN : left_boundary(false, jobs[k].n, edges.open, edges.extend),
                                    jobs[k].n, 0};
    }
  }

  // Row i (1-based) of the strip. h_left = H[i][c0-1], e_in = E[i][c0]. Leaves H[i][c0+R-1] in
  // h[R-1] and returns E[i][c0+R]. With `rec` also records the row's traceback directions.
  DPX_HD V row(std::int32_t i, V h_left, V e_in, typename Scorer::Row qrow, const Scorer& sc, const Edges<L>& edges,
               Directions* rec) {
    V d = diag;
    V e = e_in;
    V row_max = d;
DPX_UNROLL
    for (int c = 0; c < R; ++c) {
      const V up = h[c];
      const V s = sc.sub(qrow, col[c]);
      V v;
      if (rec == nullptr) {
        v = cell<L, kLocal>(d, s, e, f[c], edges.g);
      } else if constexpr (kLanes == 1) {
        std::uint32_t code;
        v = cell_with_direction<Ops, kLocal>(d, s, e, f[c], edges.open, edges.extend, &code);
        rec->code |= code << (4 * c);
      } else {
        v = cell16_with_direction<Ops, kLocal>(d, s, e, f[c], edges.g, c, *rec);
      }
      d = up;
      h[c] = v;
      if (kLocal && c % 2 == 1) row_max = c == 1 ? L::max(h[0], h[1]) : L::max3(row_max, h[c - 1], h[c]);
    }
    diag = h_left;
    if (kLocal) track_local(i, row_max);
    return e;
  }

  // Non-local: at each lane's last row, the cells the result can come from.
  DPX_HD void capture_last_row(std::int32_t i, const LaneJob (&jobs)[kLanes], bool global) {
DPX_UNROLL
    for (int k = 0; k < kLanes; ++k) {
      if (i != jobs[k].n) continue;
DPX_UNROLL
      for (int c = 0; c < R; ++c) {
        const std::int32_t j = c0 + c + 1, v = L::lane(h[c], k);
        const bool take = global ? j == jobs[k].m : (j <= jobs[k].m && v > found[k].score);
        if (take) found[k] = Candidate{v, i, j};
      }
    }
  }

 private:
  // Local: the first row where a lane's maximum grows, and the first column holding it there.
  DPX_HD void track_local(std::int32_t i, V row_max) {
    bool improved[kLanes];
    best = L::keep_max(best, row_max, improved);
DPX_UNROLL
    for (int k = 0; k < kLanes; ++k) {
      if (!improved[k]) continue;
      const std::int32_t target = L::lane(best, k);
      std::int32_t at = R;
DPX_UNROLL
      for (int c = R - 1; c >= 0; --c)
        if (L::lane(h[c], k) == target) at = c;
      found[k] = Candidate{target, i, c0 + at + 1};
    }
  }
};

// The letter a strip or row uses for position p (0-based) of a sequence of length `len`.
DPX_HD int letter_at(const char* seq, std::int32_t len, std::int32_t p, const std::uint8_t* code, int pad) {
  return p < len ? code[static_cast<unsigned char>(seq[p])] : pad;
}

}  // namespace align
}  // namespace dpx
