// The anti-diagonal wavefront that runs one DP matrix on a group of G lanes (a warp or part of one).
//
// Rows (query) are cut into strips of G * R rows; within a strip lane L keeps rows
// [L*R, L*R + R) in registers and sweeps the columns (target) one per step, L steps behind lane
// L - 1, from which it receives the value of the row just above its own (and the column key) by a
// shuffle. Lane 0 takes the row above the strip from the previous strip's bottom row, which lane
// G - 1 left in `scratch` (two rows, alternating, so a strip never reads what it writes).
//
// Long pairs can be shared by several groups ("members", one warp each): member k runs strips
// k, k + members, ..., each starting as soon as the strip above has published the columns it needs
// (a Handoff: per-strip column counters; strip s + 1 overwrites the row strip s - 1 left only in
// columns strip s has already read). A lone group uses SoloHandoff, which does nothing.
//
// The recurrence itself is a Cell policy (edit distance, DTW, ...):
//   using Value, RowKey, ColKey;           Value is what a cell holds and what lanes pass on
//   static constexpr int kTargets;         result cells per matrix (packed lanes: one per lane)
//   static constexpr bool kRecords;        whether record() keeps the per-cell direction codes
//   int rows() const, cols() const;        matrix size without the edge row/column
//   Value edge(int x) const;               D(x, 0) == D(0, x)
//   RowKey row_key(int i) const;           0-based row; i may lie past rows() (strip padding)
//   ColKey col_key(int j) const;           0-based column, j < cols()
//   Value step(Value diag, Value up, Value left, RowKey, ColKey, int i, int j, unsigned* code) const;
//                                          D(i, j) from D(i-1, j-1), D(i-1, j), D(i, j-1), 1-based
//   bool target(int t, int* row, int* col) const;   result cell t, false when there is none
//   void deliver(int t, Value v) const;             called once per target by exactly one lane
//   void record(int strip, int step, int lane, unsigned word) const;   2-bit codes of R rows
//
// A Group provides kSize, lane(), shfl_up(v) (lane L gets lane L-1's v), shfl_xor(v, mask) and
// sync() (all lanes, ordering their memory accesses). On the device it is WarpGroup below; the
// host tests run the same code on a simulated group to check the schedule without a GPU.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dpx_ops.cuh"

namespace dpx {
namespace align {

// Register value of index k among R registers, without dynamic indexing (which would spill).
template <int R, typename T>
DPX_HD T select_register(const T (&regs)[R], int k) {
  T v = regs[0];
  DPX_UNROLL
  for (int r = 1; r < R; ++r) {
    if (r == k) v = regs[r];
  }
  return v;
}

// Where a result cell (row, col >= 1) lies in the wavefront, for the lane that owns it: strip,
// register and column. Other lanes get strip -1 (never matches).
struct TargetSlot {
  int strip = -1, reg = 0, col = 0;
};

template <int G, int R>
DPX_HD TargetSlot locate_target(int row, int col, int lane) {
  TargetSlot t;
  if (((row - 1) % (G * R)) / R != lane) return t;
  t.strip = (row - 1) / (G * R);
  t.reg = (row - 1) % R;
  t.col = col;
  return t;
}

// Scratch values a group needs for a matrix of `cols` columns (two boundary rows).
DPX_HD std::size_t wavefront_scratch_values(int cols) { return 2 * (static_cast<std::size_t>(cols) + 1); }

// Lane 0's look-ahead: the column key and the row above the strip for the next few columns are
// loaded early so the loads' latency overlaps the steps in between. In strip s the row above is
// strip s - 1's bottom row; the handoff waits until that strip has published the column.
template <class Cell, int P>
struct ColumnFeed {
  using Value = typename Cell::Value;
  using ColKey = typename Cell::ColKey;
  ColKey key[P];
  Value up[P];

  template <class Handoff>
  DPX_HD void load(const Cell& cell, const Value* above, const Handoff& handoff, int strip, int j, int slot) {
    if (j <= cell.cols()) {
      key[slot] = cell.col_key(j - 1);
      if (above != nullptr) handoff.wait(strip - 1, j);
      up[slot] = above ? above[j] : cell.edge(j);
    } else {
      key[slot] = ColKey();
      up[slot] = Value();
    }
  }
  template <class Handoff>
  DPX_HD void prime(const Cell& cell, const Value* above, const Handoff& handoff, int strip) {
    DPX_UNROLL
    for (int p = 0; p < P; ++p) load(cell, above, handoff, strip, p + 1, p);
  }
  // Takes column j's values and loads column j + P.
  template <class Handoff>
  DPX_HD void next(const Cell& cell, const Value* above, const Handoff& handoff, int strip, int j, ColKey* k,
                   Value* u) {
    *k = key[0];
    *u = up[0];
    DPX_UNROLL
    for (int p = 0; p + 1 < P; ++p) {
      key[p] = key[p + 1];
      up[p] = up[p + 1];
    }
    load(cell, above, handoff, strip, j + P, P - 1);
  }
};

// A group that runs every strip of its matrix itself: strips follow each other in program order.
struct SoloHandoff {
  DPX_HD void wait(int, int) const {}
  DPX_HD void publish(int, int) const {}
};

#if defined(__CUDACC__)
#pragma nv_exec_check_disable
#endif
// Runs strips member, member + members, ... of the matrix (all of them for a lone group).
template <int R, class Cell, class Group, class Handoff = SoloHandoff>
DPX_HD void run_wavefront(const Cell& cell, const Group& g, typename Cell::Value* scratch, int member = 0,
                          int members = 1, const Handoff& handoff = Handoff()) {
  using Value = typename Cell::Value;
  using RowKey = typename Cell::RowKey;
  using ColKey = typename Cell::ColKey;
  constexpr int G = Group::kSize;
  constexpr int kStripRows = G * R;
  static_assert(!Cell::kRecords || R <= 16, "direction codes of R rows must fit one 32-bit word");
  const int lane = g.lane();
  const int rows = cell.rows(), cols = cell.cols();

  TargetSlot targets[Cell::kTargets];
  DPX_UNROLL
  for (int t = 0; t < Cell::kTargets; ++t) {
    int r = 0, c = 0;
    if (!cell.target(t, &r, &c)) continue;
    if (r == 0 || c == 0) {
      if (lane == 0 && member == 0) cell.deliver(t, cell.edge(r + c));  // an edge cell: nothing to compute
      continue;
    }
    targets[t] = locate_target<G, R>(r, c, lane);
  }
  if (rows == 0 || cols == 0) return;

  const int strips = (rows + kStripRows - 1) / kStripRows;
  const int steps = cols + G - 1;
  for (int s = member; s < strips; s += members) {
    const int base = s * kStripRows + lane * R;  // rows base+1 .. base+R (1-based)
    Value h[R];
    RowKey rk[R];
    DPX_UNROLL
    for (int k = 0; k < R; ++k) {
      h[k] = cell.edge(base + k + 1);
      rk[k] = cell.row_key(base + k);
    }
    const Value* above = s > 0 ? scratch + (s & 1) * (cols + 1) : nullptr;
    Value* below = s + 1 < strips ? scratch + ((s + 1) & 1) * (cols + 1) : nullptr;

    ColumnFeed<Cell, 4> feed{};  // only lane 0 loads it
    if (lane == 0) feed.prime(cell, above, handoff, s);
    Value diag = cell.edge(base);  // D(base, 0)
    Value send = h[R - 1];
    ColKey key = ColKey();
    for (int step = 0; step < steps; ++step) {
      const int j = step - lane + 1;  // this lane's column
      Value up = g.shfl_up(send);
      ColKey ck = g.shfl_up(key);
      if (j < 1 || j > cols) continue;
      if (lane == 0) feed.next(cell, above, handoff, s, j, &ck, &up);
      const Value top = up;
      Value d = diag;
      unsigned word = 0;
      DPX_UNROLL
      for (int k = 0; k < R; ++k) {
        const Value left = h[k];
        unsigned code = 0;
        const Value v = cell.step(d, up, left, rk[k], ck, base + k + 1, j, &code);
        if constexpr (Cell::kRecords) word |= code << (2 * k);
        d = left;
        h[k] = v;
        up = v;
      }
      if constexpr (Cell::kRecords) cell.record(s, step, lane, word);
      diag = top;
      send = h[R - 1];
      key = ck;
      if (below != nullptr && lane == G - 1) {
        below[j] = send;
        handoff.publish(s, j);
      }
      DPX_UNROLL
      for (int t = 0; t < Cell::kTargets; ++t) {
        if (targets[t].strip == s && targets[t].col == j) {
          cell.deliver(t, select_register<R>(h, targets[t].reg));
        }
      }
    }
    g.sync();  // the next strip reads the bottom row this one wrote
  }
}

// One task of a batch kernel on member `member` of `members` groups sharing it: the factory builds
// the cell (Factory::Cell make(task, group)); pairs over the declared length are reported once.
#if defined(__CUDACC__)
#pragma nv_exec_check_disable
#endif
template <int R, class Factory, class Group, class Handoff = SoloHandoff>
DPX_HD void run_task(const Factory& factory, std::int64_t task, const Group& g, typename Factory::Cell::Value* scratch,
                     int member = 0, int members = 1, const Handoff& handoff = Handoff()) {
  const auto cell = factory.make(task, g);
  if (g.lane() == 0 && member == 0) cell.reject_oversized();
  run_wavefront<R>(cell, g, scratch, member, members, handoff);
}

#if defined(__CUDACC__)
// Strip progress shared by the warps of a block (shared memory): the producer's lane G - 1 fences
// its boundary-row store before publishing the column; the consumer fences after seeing it.
struct BlockHandoff {
  int* progress;  // columns published, per strip
  __device__ void wait(int strip, int col) const {
    while (*static_cast<volatile int*>(progress + strip) < col) {
    }
    __threadfence_block();
  }
  __device__ void publish(int strip, int col) const {
    __threadfence_block();
    *static_cast<volatile int*>(progress + strip) = col;
  }
};
#endif

#if defined(__CUDACC__)
// G consecutive lanes of a warp (G a power of two, at most 32).
template <int G>
struct WarpGroup {
  static_assert(G >= 2 && G <= 32 && (G & (G - 1)) == 0, "group size: a power of two up to 32");
  static constexpr int kSize = G;
  unsigned mask;
  int lane_id;

  __device__ WarpGroup() {
    const int warp_lane = static_cast<int>(threadIdx.x & 31u);
    lane_id = warp_lane & (G - 1);
    mask = G == 32 ? 0xFFFFFFFFu : (((1u << G) - 1u) << (warp_lane - lane_id));
  }
  __device__ int lane() const { return lane_id; }
  template <typename T>
  __device__ T shfl_up(T v) const { return __shfl_up_sync(mask, v, 1, G); }
  template <typename T>
  __device__ T shfl_xor(T v, int lane_mask) const { return __shfl_xor_sync(mask, v, lane_mask, G); }
  __device__ void sync() const { __syncwarp(mask); }
};
#endif

}  // namespace align
}  // namespace dpx
