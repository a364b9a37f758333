// What the traceback walk reads: the direction codes of a slot lane through a window of 32 x 32
// cells of the DP matrix, whose direction entries (and letters) are fetched at once and then read
// cell by cell. On the device a warp fills the window together (lane r fetches row i0 - r: the few
// entries that row's 32 columns touch, all loads in flight at once) and every lane runs walk_back
// in step, so a step reads shared memory instead of waiting on a dependent global load; each step
// lowers i, j or both, so the walk leaves a window after 32 to 63 steps. The host simulation
// fills the same window row by row.
#pragma once

#include <cstdint>

#include "sw_cell.h"
#include "sw_group.h"

namespace dpx {
namespace align {

constexpr int kWalkWindow = 32;
constexpr int kWalkWindowRowWords = 16;  // direction words of a window row, for every shape

struct WalkWindowCells {
  alignas(16) std::uint32_t words[kWalkWindow][kWalkWindowRowWords];  // row r: its strips' entries
  std::uint8_t query[kWalkWindow];   // row i0 - r's letter (matrix index)
  std::uint8_t target[kWalkWindow];  // column j0 - r's letter
};

// Letters provides int query(x), int target(x): the matrix index of query[x], target[x] (0-based).
template <int G, int R, bool kPacked, class Letters>
struct WindowedDirections {
  static constexpr int kWords = traceback_thread_words(kPacked);  // words of a (pass, step, thread) entry
  static constexpr int kStrips = (kWalkWindow + 2 * R - 2) / R;  // strips a window row can touch
  static_assert(kStrips * kWords <= kWalkWindowRowWords, "a window row holds every entry it touches");
  struct alignas(4 * kWords) Entry {
    std::uint32_t w[kWords];
  };

  WalkWindowCells* cells;
  const std::uint32_t* dirs;  // the slot's direction words
  std::int32_t rows;          // the slot's longest query: the layout's row count
  int lane;                   // the pair's lane in the slot
  Letters letters;
  int wildcard;
  const std::int32_t* scores;  // the D x D substitution table (single_table, sw_tables.h)
  int side;                    // D
  std::int32_t i0 = 0, j0 = 0;  // the window's corner (i0 = 0: none yet)
  std::int32_t strip0 = 0;      // the strip of its first column

  DPX_HD std::uint32_t code(std::int32_t i, std::int32_t j) {
    if (i > i0 || j > j0 || i <= i0 - kWalkWindow || j <= j0 - kWalkWindow) move_to(i, j);
    const std::int32_t col = j - 1;
    return entry_code<kPacked>(&cells->words[i0 - i][(col / R - strip0) * kWords], col % R, lane);
  }
  // Called after code(i, j), so (i, j) is in the window.
  DPX_HD bool same(std::int32_t i, std::int32_t j) const {
    return letters_match(cells->query[i0 - i], cells->target[j0 - j], wildcard);
  }
  DPX_HD std::int32_t score(std::int32_t i, std::int32_t j) const {
    return scores[cells->query[i0 - i] * side + cells->target[j0 - j]];
  }

 private:
  DPX_HD void move_to(std::int32_t i, std::int32_t j) {
    i0 = i;
    j0 = j;
    strip0 = (j0 > kWalkWindow ? j0 - kWalkWindow : 0) / R;
#ifdef __CUDA_ARCH__
    __syncwarp();  // every lane is done with the old window
    fill_row(static_cast<int>(threadIdx.x % 32));
    __syncwarp();
#else
    for (int r = 0; r < kWalkWindow; ++r) fill_row(r);
#endif
  }

  DPX_HD void fill_row(int r) {
    const std::int32_t i = i0 - r, j = j0 - r;
    cells->query[r] = static_cast<std::uint8_t>(i >= 1 ? letters.query(i - 1) : 0);
    cells->target[r] = static_cast<std::uint8_t>(j >= 1 ? letters.target(j - 1) : 0);
    if (i < 1) return;
    Entry e[kStrips];
DPX_UNROLL
    for (int s = 0; s < kStrips; ++s) {
      const std::int32_t col = (strip0 + s) * R;
      int c;
      e[s] = col < j0 ? reinterpret_cast<const Entry*>(dirs)[direction_entry<G, R>(rows, i, col + 1, &c)] : Entry{};
    }
    Entry* row = reinterpret_cast<Entry*>(cells->words[r]);
DPX_UNROLL
    for (int s = 0; s < kStrips; ++s) row[s] = e[s];
  }
};

}  // namespace align
}  // namespace dpx
