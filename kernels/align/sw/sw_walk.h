// The traceback walk over direction codes (sw_cell.h), shared by the CPU and the CUDA walker so
// both produce the same alignment. Starts at the end cell in state H and moves towards the start.
#pragma once

#include <cstdint>

#include "dpx/align.h"
#include "sw_cell.h"

namespace dpx {
namespace align {

// Access provides:
//   std::uint32_t code(i, j)  — direction code of cell (i, j), 1 <= i, 1 <= j;
//   bool same(i, j)           — the letters query[i-1] and target[j-1] count as '=';
//   std::int32_t score(i, j)  — their substitution score (read by local walks only);
//   void emit(char op, count) — the next `count` operations, walking backwards.
// Starts at the end cell (i, j) of score `score`. A local walk carries H back along its path
// (minus the substitution on a diagonal step, plus extend or open on a gap letter) and stops
// where H is 0: there the cell's recurrence took the floor, so the codes need no mark for it.
// Returns the begin cell: the alignment covers query[*qb, end_i), target[*tb, end_j).
template <class Access>
DPX_HD void walk_back(AlignMode mode, std::int32_t open, std::int32_t extend, std::int32_t score, std::int32_t i,
                      std::int32_t j, Access& acc, std::int32_t* qb, std::int32_t* tb) {
  enum { kH, kE, kF } state = kH;
  const bool local = mode == AlignMode::kLocal;
  std::int32_t value = score;  // local: H in state kH, E or F in the gap states
  while (true) {
    if (state == kH && (i == 0 || j == 0)) {
      if (!local) {
        acc.emit('I', i);  // the leading query gap, H[i][0] = -gap(i)
        i = 0;
        if (mode == AlignMode::kGlobal) {
          acc.emit('D', j);  // the leading target gap, H[0][j] = -gap(j)
          j = 0;
        }
      }
      break;
    }
    if (state == kH) {
      if (local && value == 0) break;
      const std::uint32_t source = acc.code(i, j) & kSourceMask;
      if (source == kFromE) {
        state = kE;
      } else if (source == kFromF) {
        state = kF;
      } else {
        acc.emit(acc.same(i, j) ? '=' : 'X', 1);
        if (local) value -= acc.score(i, j);
        --i;
        --j;
      }
    } else if (state == kE) {
      acc.emit('D', 1);
      const bool extends = j >= 2 && (acc.code(i, j - 1) & kExtendE);
      value += extends ? extend : open;
      --j;
      state = extends ? kE : kH;
    } else {
      acc.emit('I', 1);
      const bool extends = i >= 2 && (acc.code(i - 1, j) & kExtendF);
      value += extends ? extend : open;
      --i;
      state = extends ? kF : kH;
    }
  }
  *qb = i;
  *tb = j;
}

// The five result fields of a pair (score, query begin/end, target begin/end) from its best cell,
// before any traceback: begins not known yet are -1; a local score of 0 is the empty alignment.
// Score-only results have every position -1.
DPX_HD void result_fields(AlignMode mode, bool score_only, std::int32_t score, std::int32_t i, std::int32_t j,
                          std::int32_t out[5]) {
  const bool empty = mode == AlignMode::kLocal && score == 0;
  out[0] = score;
  out[1] = score_only ? -1 : empty ? 0 : (mode == AlignMode::kLocal ? -1 : 0);
  out[2] = score_only ? -1 : empty ? 0 : i;
  out[3] = score_only ? -1 : empty ? 0 : (mode == AlignMode::kGlobal ? 0 : -1);
  out[4] = score_only ? -1 : empty ? 0 : j;
}

}  // namespace align
}  // namespace dpx
