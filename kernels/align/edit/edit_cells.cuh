// Edit distance (Levenshtein, unit costs) as wavefront cells, host and device:
//   D(i, j) = min(D(i-1, j-1) + [q_i != t_j], D(i-1, j) + 1, D(i, j-1) + 1),  D(i, 0) = i, D(0, j) = j.
// Letters are bytes compared exactly. Two lane layouts for the score: two pairs in the u16x2
// halves of a word (while every value fits 16 bits) or one pair per 32-bit word.
// A third cell also records which neighbour won (2 bits per cell) for the CIGAR traceback.
#pragma once

#include <cstdint>

#include "dpx/align_distance.h"
#include "dpx_ops.cuh"
#include "align/common/pair_batch.cuh"

namespace dpx {
namespace align {

// Longest sequence the u16x2 lanes take: values stay <= length + strip padding (512 rows), and
// diag + (q XOR t) adds at most 255, so no lane ever carries into its neighbour.
constexpr std::int64_t kEditPackedMaxLength = 64000;

struct PackedU16x2 {
  static constexpr int kLanes = 2;
  static constexpr std::uint32_t kOne = 0x00010001u;
  template <class Ops>
  static DPX_HD std::uint32_t min3(std::uint32_t a, std::uint32_t b, std::uint32_t c) { return Ops::min3_u16x2(a, b, c); }
  template <class Ops>
  static DPX_HD std::uint32_t addmin(std::uint32_t a, std::uint32_t b, std::uint32_t c) { return Ops::addmin_u16x2(a, b, c); }
  static DPX_HD std::uint32_t lane_value(std::uint32_t v, int lane) { return (v >> (16 * lane)) & 0xFFFFu; }
};

struct WideU32 {
  static constexpr int kLanes = 1;
  static constexpr std::uint32_t kOne = 1u;
  template <class Ops>
  static DPX_HD std::uint32_t min3(std::uint32_t a, std::uint32_t b, std::uint32_t c) { return Ops::min3_u32(a, b, c); }
  template <class Ops>
  static DPX_HD std::uint32_t addmin(std::uint32_t a, std::uint32_t b, std::uint32_t c) { return Ops::addmin_u32(a, b, c); }
  static DPX_HD std::uint32_t lane_value(std::uint32_t v, int) { return v; }
};

// One cell of the score recurrence. `x` = q_i XOR t_j per lane (0 when the letters match, else
// 1..255), so diag + x >= diag + 1 on a mismatch and
//   D = min(diag + x, min3(diag, up, left) + 1): one three-way min and one fused add-min.
template <class Ops, class L>
DPX_HD std::uint32_t edit_score_step(std::uint32_t diag, std::uint32_t up, std::uint32_t left, std::uint32_t x) {
  return L::template addmin<Ops>(L::template min3<Ops>(diag, up, left), L::kOne, diag + x);
}

// Traceback codes: which neighbour a cell came from. Ties prefer the diagonal, then up.
enum EditDir : unsigned {
  kEditDiag = 0,  // '=' or 'X'
  kEditUp = 1,    // 'I': a query letter the target lacks
  kEditLeft = 2,  // 'D': a target letter the query lacks
};

// The same cell, 32-bit, also giving the code; bmin's predicate says whether its first operand
// won (ties included), which is exactly the preference order above.
template <class Ops>
DPX_HD std::uint32_t edit_trace_step(std::uint32_t diag, std::uint32_t up, std::uint32_t left, std::uint32_t x,
                                     unsigned* code) {
  const std::uint32_t sub = Ops::addmin_u32(diag, 1u, diag + x);  // diag + [letters differ]
  bool sub_wins = false, best_wins = false;
  const std::uint32_t best = Ops::bmin_u32(sub, up + 1u, &sub_wins);
  const std::uint32_t v = Ops::bmin_u32(best, left + 1u, &best_wins);
  *code = best_wins ? (sub_wins ? kEditDiag : kEditUp) : kEditLeft;
  return v;
}

DPX_HD std::uint32_t letter(const char* s, std::int64_t i) { return static_cast<unsigned char>(s[i]); }

// Score cell over L::kLanes pairs. A lane is live when its pair's longer side lies in
// (live_above, live_up_to]; a pair longer than the declared maximum is rejected instead.
template <class Ops, class L>
struct EditScoreCell {
  using Value = std::uint32_t;
  using RowKey = std::uint32_t;
  using ColKey = std::uint32_t;
  static constexpr int kTargets = L::kLanes;
  static constexpr bool kRecords = false;

  const char* q[L::kLanes] = {};
  const char* t[L::kLanes] = {};
  int n[L::kLanes] = {}, m[L::kLanes] = {};
  bool live[L::kLanes] = {}, rejected[L::kLanes] = {};
  std::int64_t pair[L::kLanes] = {};
  int rows_ = 0, cols_ = 0;
  std::int64_t* out = nullptr;

  DPX_HD int rows() const { return rows_; }
  DPX_HD int cols() const { return cols_; }
  DPX_HD Value edge(int x) const { return static_cast<std::uint32_t>(x) * L::kOne; }
  DPX_HD RowKey row_key(int i) const {
    RowKey k = 0;
    for (int l = 0; l < L::kLanes; ++l) {
      if (live[l] && i < n[l]) k |= letter(q[l], i) << (16 * l);
    }
    return k;
  }
  DPX_HD ColKey col_key(int j) const {
    ColKey k = 0;
    for (int l = 0; l < L::kLanes; ++l) {
      if (live[l] && j < m[l]) k |= letter(t[l], j) << (16 * l);
    }
    return k;
  }
  DPX_HD Value step(Value diag, Value up, Value left, RowKey rk, ColKey ck, int, int, unsigned*) const {
    return edit_score_step<Ops, L>(diag, up, left, rk ^ ck);
  }
  DPX_HD bool target(int lane, int* row, int* col) const {
    *row = n[lane];
    *col = m[lane];
    return live[lane];
  }
  DPX_HD void deliver(int lane, Value v) const { out[pair[lane]] = L::lane_value(v, lane); }
  DPX_HD void record(int, int, int, unsigned) const {}
  DPX_HD void reject_oversized() const {
    for (int l = 0; l < L::kLanes; ++l) {
      if (rejected[l]) out[pair[l]] = kDistanceInvalid;
    }
  }
};

// Builds the score cells of a batch: task k covers pairs k*kLanes .. k*kLanes + kLanes - 1.
template <class Ops, class L>
struct EditScoreFactory {
  using Cell = EditScoreCell<Ops, L>;
  PairBatchView<char> batch;
  std::int64_t live_above = -1, live_up_to = 0;  // lanes whose longer side lies in (above, up_to]
  std::int64_t max_length = 0;                    // declared; longer pairs are rejected
  bool report_rejected = false;                   // one of the launches reports them
  std::int64_t* out = nullptr;

  DPX_HD std::int64_t tasks() const { return (batch.pairs + L::kLanes - 1) / L::kLanes; }

  template <class Group>
  DPX_HD Cell make(std::int64_t task, const Group&) const {
    Cell c;
    c.out = out;
    for (int l = 0; l < L::kLanes; ++l) {
      const std::int64_t p = task * L::kLanes + l;
      if (p >= batch.pairs) break;
      const auto q = batch.query(p);
      const auto t = batch.target(p);
      const std::int64_t longer = q.length > t.length ? q.length : t.length;
      c.pair[l] = p;
      c.rejected[l] = report_rejected && longer > max_length;
      c.live[l] = longer > live_above && longer <= live_up_to && longer <= max_length;
      if (!c.live[l]) continue;
      c.q[l] = q.data;
      c.t[l] = t.data;
      c.n[l] = static_cast<int>(q.length);
      c.m[l] = static_cast<int>(t.length);
      c.rows_ = c.n[l] > c.rows_ ? c.n[l] : c.rows_;
      c.cols_ = c.m[l] > c.cols_ ? c.m[l] : c.cols_;
    }
    return c;
  }
};

// --- traceback ------------------------------------------------------------------------------------

// Rows per lane of the traceback wavefront: 16 rows x 2 bits fill one word per lane and step.
constexpr int kTraceRows = 16;

// Direction words of one pair in the wavefront's own order (strip, step, lane), so each step's
// stores are consecutive words; G is the group size the codes were computed with.
DPX_HD std::uint64_t trace_word_count(std::int64_t n, std::int64_t m, int group) {
  if (n == 0 || m == 0) return 0;
  const std::int64_t strips = (n + group * kTraceRows - 1) / (group * kTraceRows);
  return static_cast<std::uint64_t>(strips) * static_cast<std::uint64_t>(m + group - 1) * group;
}
DPX_HD std::uint64_t trace_word_index(int strip, int step, int lane, std::int64_t m, int group) {
  return (static_cast<std::uint64_t>(strip) * static_cast<std::uint64_t>(m + group - 1) + step) * group + lane;
}

// Code of cell (i, j), 1-based, from the striped words.
struct StripedTraceDirs {
  const std::uint32_t* words;
  std::int64_t m;
  int group;
  DPX_HD unsigned operator()(std::int64_t i, std::int64_t j) const {
    const std::int64_t r = i - 1;
    const int strip = static_cast<int>(r / (group * kTraceRows));
    const int lane = static_cast<int>((r % (group * kTraceRows)) / kTraceRows);
    const int reg = static_cast<int>(r % kTraceRows);
    const int step = static_cast<int>(j - 1) + lane;
    return (words[trace_word_index(strip, step, lane, m, group)] >> (2 * reg)) & 3u;
  }
};

// Score cell of one pair that records the codes for the traceback.
template <class Ops, int G>
struct EditTraceCell {
  using Value = std::uint32_t;
  using RowKey = std::uint32_t;
  using ColKey = std::uint32_t;
  static constexpr int kTargets = 1;
  static constexpr bool kRecords = true;

  const char* q = nullptr;
  const char* t = nullptr;
  int n = 0, m = 0;
  std::int64_t* distance = nullptr;
  std::uint32_t* words = nullptr;  // this pair's trace_word_count(n, m, G) words

  DPX_HD int rows() const { return n; }
  DPX_HD int cols() const { return m; }
  DPX_HD Value edge(int x) const { return static_cast<std::uint32_t>(x); }
  DPX_HD RowKey row_key(int i) const { return i < n ? letter(q, i) : 0u; }
  DPX_HD ColKey col_key(int j) const { return letter(t, j); }
  DPX_HD Value step(Value diag, Value up, Value left, RowKey rk, ColKey ck, int, int, unsigned* code) const {
    return edit_trace_step<Ops>(diag, up, left, rk ^ ck, code);
  }
  DPX_HD bool target(int, int* row, int* col) const {
    *row = n;
    *col = m;
    return true;
  }
  DPX_HD void deliver(int, Value v) const { *distance = v; }
  DPX_HD void record(int strip, int step, int lane, unsigned word) const {
    words[trace_word_index(strip, step, lane, m, G)] = word;
  }
  DPX_HD void reject_oversized() const {}
};

// Pairs first .. first + count - 1 of a batch, each with its slice of the direction words.
template <class Ops, int G>
struct EditTraceFactory {
  using Cell = EditTraceCell<Ops, G>;
  PairBatchView<char> batch;
  std::int64_t first = 0, count = 0;
  const std::uint64_t* word_offsets = nullptr;  // per pair of the chunk
  std::uint32_t* words = nullptr;
  std::int64_t* distances = nullptr;            // per pair of the chunk

  DPX_HD std::int64_t tasks() const { return count; }

  template <class Group>
  DPX_HD Cell make(std::int64_t task, const Group&) const {
    Cell c;
    const auto q = batch.query(first + task);
    const auto t = batch.target(first + task);
    c.q = q.data;
    c.t = t.data;
    c.n = static_cast<int>(q.length);
    c.m = static_cast<int>(t.length);
    c.distance = distances + task;
    c.words = words + word_offsets[task];
    return c;
  }
};

// One step of the walk back from (i, j) by the cell's code: hands the operation to `emit` and moves.
// The letters are those of row i and column j (only a diagonal step compares them).
template <class Emit>
DPX_HD void edit_walk_step(unsigned code, char q_letter, char t_letter, Emit& emit, std::int64_t* i, std::int64_t* j) {
  if (code == kEditDiag) {
    emit(q_letter == t_letter ? '=' : 'X');
    --*i;
    --*j;
  } else if (code == kEditUp) {
    emit('I');
    --*i;
  } else {
    emit('D');
    --*j;
  }
}

// Walks back from (n, m) to (0, 0) along the recorded codes, handing each operation ('=', 'X',
// 'I', 'D') to `emit`, last to first.
template <class Dirs, class Emit>
DPX_HD void edit_walk_back(const char* q, std::int64_t n, const char* t, std::int64_t m, const Dirs& dirs, Emit& emit) {
  std::int64_t i = n, j = m;
  while (i > 0 || j > 0) {
    const bool inside = i > 0 && j > 0;
    const unsigned code = i == 0 ? kEditLeft : j == 0 ? kEditUp : dirs(i, j);
    edit_walk_step(code, inside ? q[i - 1] : 0, inside ? t[j - 1] : 0, emit, &i, &j);
  }
}

// The walk's operations last to first into `ops` (room for n + m); returns their number.
template <class Dirs>
DPX_HD std::int64_t edit_traceback(const char* q, std::int64_t n, const char* t, std::int64_t m, const Dirs& dirs,
                                   char* ops) {
  struct Store {
    char* ops;
    std::int64_t count;
    DPX_HD void operator()(char op) { ops[count++] = op; }
  } store{ops, 0};
  edit_walk_back(q, n, t, m, dirs, store);
  return store.count;
}

}  // namespace align
}  // namespace dpx
