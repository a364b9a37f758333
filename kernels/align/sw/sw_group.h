// One thread of a group as the alignment kernels drive it: its strip, what it hands to its right
// neighbour each step, what thread 0 takes in from outside (query letters, the left boundary or
// the previous pass's last column), and what it writes (direction words, the boundary for the next
// pass). The CUDA driver moves the per-step values with warp shuffles; the host simulation used by
// the tests moves them with plain copies — both call exactly this code.
//
// Schedule of a slot with `rows` query rows, `passes` passes of G * R columns:
//   for pass p:  begin_pass(p);  for step s = 0 .. rows + G - 2:  thread t works on row s - t + 1,
//   taking (H, E, letters) of that row from thread t - 1's previous step (thread 0: feed(row)).
#pragma once

#include <cstdint>

#include "sw_plan.h"
#include "sw_strip.h"

namespace dpx {
namespace align {

// Direction words of a slot of `rows` rows in `passes` passes of a shape of `group` threads, each
// storing `thread_words` words a step (the layout direction_entry reads); its column stores follow.
DPX_HD std::uint64_t slot_direction_words(std::int32_t rows, std::int32_t passes, int group, int thread_words) {
  return std::uint64_t(thread_words) * std::uint64_t(passes) * std::uint64_t(rows + group - 1) * std::uint64_t(group);
}

template <class Ops, class L_, class Scorer, bool kLocal, bool kDirections_, int G, int R>
struct GroupThread {
  using L = L_;
  static constexpr bool kLocalMode = kLocal;
  static constexpr bool kDirections = kDirections_;
  using V = typename L::V;
  using StripT = Strip<Ops, L, Scorer, kLocal, R>;
  static constexpr int kLanes = L::kLanes;
  static constexpr int kGroup = G;
  static constexpr int kWidth = G * R;
  static_assert(!kDirections || R <= (kLanes == 1 ? 8 : 16),
                "directions: one word of 8 codes (32 bits) or bit planes of 16 columns (packed) per strip");
  struct alignas(16) PlaneWords {  // the packed store of a step: its four plane words in one write
    std::uint32_t w[traceback_thread_words(true)];
  };
  static constexpr int kThreadWords = traceback_thread_words(kLanes == 2);  // what store_directions writes

  struct Feed {  // thread 0's inputs for one row
    std::uint32_t letters;
    V h, e;
  };
  struct Boundary {  // H and E of a pass's last column, one per row
    V h, e;
  };
  static_assert(sizeof(Boundary) == kColumnStoreEntryWords * sizeof(std::uint32_t), "column-store entry");

  int t = 0;  // index in the group
  LaneJob jobs[kLanes];
  std::int32_t rows = 0, passes = 0, pass = 0;
  const std::uint8_t* code = nullptr;  // letter -> matrix index
  int pad = 0;                         // the padding letter's index
  const Boundary* boundary_in = nullptr;  // the previous pass's last column (rows entries)
  Boundary* boundary_out = nullptr;       // this pass's, for the next one
  std::uint32_t* dirs = nullptr;       // kDirections: this slot's direction words
  StripT strip;
  Candidate kept[kLanes];              // the best of the passes before this one (see begin_pass)
  V h_out, e_out;                      // to the right neighbour
  std::uint32_t letters_out = 0;

  // Sets up a slot. `lanes` pairs in `jobs_in`; empty lanes have n = m = 0.
  DPX_HD void begin_slot(int thread, const LaneJob (&jobs_in)[kLanes], const Edges<L>& edges) {
    t = thread;
    rows = 0;
    pass = 0;
    std::int32_t cols = 0;
DPX_UNROLL
    for (int k = 0; k < kLanes; ++k) {
      jobs[k] = jobs_in[k];
      rows = jobs[k].n > rows ? jobs[k].n : rows;
      cols = jobs[k].m > cols ? jobs[k].m : cols;
    }
    passes = (cols + kWidth - 1) / kWidth;
    strip.reset_found(jobs, edges);
DPX_UNROLL
    for (int k = 0; k < kLanes; ++k) kept[k] = strip.found[k];
  }

  // Each pass finds its own best cell and `kept` the best of those before it: a cell equal to an
  // earlier pass's best but on a smaller row wins, as in the CPU's row-major order (a running
  // best carried into the next pass would lose it). The traceback runs one pass a slot and warp
  // (PassItem) and merges the passes' results the same way, with `better`.
  DPX_HD void begin_pass(int p, const Scorer& sc, const Edges<L>& edges) {
    if (!kDirections && p > pass) {
DPX_UNROLL
      for (int k = 0; k < kLanes; ++k)
        if (better(strip.found[k], kept[k])) kept[k] = strip.found[k];
      strip.reset_found(jobs, edges);
    }
    pass = p;
    const std::int32_t first = p * kWidth + t * R;
    std::uint8_t letters[kLanes][R];
DPX_UNROLL
    for (int k = 0; k < kLanes; ++k)
DPX_UNROLL
      for (int c = 0; c < R; ++c)
        letters[k][c] = static_cast<std::uint8_t>(letter_at(jobs[k].target, jobs[k].m, first + c, code, pad));
    strip.begin(first, letters, sc, edges);
    h_out = strip.h[R - 1];
    e_out = edges.e_after(h_out);
    letters_out = 0;
  }

  // What the thread found for lane k over the passes it ran.
  DPX_HD Candidate result(int k) const {
    return kDirections || better(strip.found[k], kept[k]) ? strip.found[k] : kept[k];
  }

  // kDirections: the column store that pass p leaves for pass p + 1, after the slot's direction words.
  DPX_HD Boundary* column_store(int p) const {
    const std::uint64_t words = slot_direction_words(rows, passes, G, kThreadWords);
    return reinterpret_cast<Boundary*>(dirs + words) + std::uint64_t(p) * std::uint64_t(rows);
  }

  // Thread 0's inputs for row i of the current pass (also valid, and unused, past the last row).
  DPX_HD Feed feed(std::int32_t i, const Edges<L>& edges) const {
    Feed f;
    const int qa = letter_at(jobs[0].query, jobs[0].n, i - 1, code, pad);
    const int qb = letter_at(jobs[kLanes - 1].query, jobs[kLanes - 1].n, i - 1, code, pad);
    f.letters = static_cast<std::uint32_t>(qa) | (static_cast<std::uint32_t>(qb) << 8);
    if (pass == 0 || i < 1 || i > rows) {
      f.h = edges.left(i);
      f.e = edges.e_after(f.h);
    } else {
      f.h = boundary_in[i - 1].h;
      f.e = boundary_in[i - 1].e;
    }
    return f;
  }

  // Step s: (h_in, e_in, letters_in) come from thread t - 1's previous step; thread 0 uses `fed`.
  DPX_HD void step(int s, V h_in, V e_in, std::uint32_t letters_in, const Feed& fed, const Scorer& sc,
                   const Edges<L>& edges) {
    if (t == 0) {
      h_in = fed.h;
      e_in = fed.e;
      letters_in = fed.letters;
    }
    letters_out = letters_in;
    const std::int32_t i = s - t + 1;
    if (i < 1 || i > rows || pass >= passes) return;
    typename StripT::Directions rec;
    const typename Scorer::Row qrow = sc.row(static_cast<int>(letters_in & 0xFFu), static_cast<int>(letters_in >> 8));
    e_out = strip.row(i, h_in, e_in, qrow, sc, edges, kDirections ? &rec : nullptr);
    h_out = strip.h[R - 1];
    if (!kLocal) strip.capture_last_row(i, jobs, edges.global);
    if (kDirections) store_directions((static_cast<std::uint64_t>(pass) * (rows + G - 1) + s) * G + t, rec);
    if (t == G - 1 && pass + 1 < passes) boundary_out[i - 1] = Boundary{h_out, e_out};
  }

  // Steps of a pass for a group (or a warp of groups) whose longest slot has `most_rows` rows.
  static DPX_HD int steps(std::int32_t most_rows) { return most_rows + G - 1; }

 private:
  DPX_HD void store_directions(std::uint64_t x, const CodeWord& r) { dirs[x] = r.code; }
  DPX_HD void store_directions(std::uint64_t x, const DirectionPlanes& p) {
    PlaneWords w;
    p.words(w.w);
    reinterpret_cast<PlaneWords*>(dirs)[x] = w;
  }
};

// Where cell (i, j) (1-based) of a slot with n rows (its longest query) lies in the layout
// GroupThread::step writes: the index of its (pass, step, thread) entry (one word in 32 bits, four
// packed) and its column within the thread's strip.
template <int G, int R>
DPX_HD std::uint64_t direction_entry(std::int32_t n, std::int32_t i, std::int32_t j, int* column) {
  const std::int32_t col = j - 1, pass = col / (G * R), t = (col % (G * R)) / R;
  *column = col % R;
  return (static_cast<std::uint64_t>(pass) * (n + G - 1) + (i - 1 + t)) * G + t;
}

// The 4-bit code of column c of a thread's strip for lane `lane`, from its (pass, step, thread)
// entry: one word of 8 codes in 32 bits, four plane words packed.
template <bool kPacked>
DPX_HD std::uint32_t entry_code(const std::uint32_t* words, int c, int lane) {
  return kPacked ? code_from_planes(words, c + 16 * lane) : (words[0] >> (4 * c)) & 15u;
}

}  // namespace align
}  // namespace dpx
