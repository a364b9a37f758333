// The bit-parallel edit DP's columns, kept for the walk back that spells the CIGAR (edlib's idea):
// per target letter j and pattern word w, the vertical-difference words Pv, Mv and the score at
// the word's bottom row. Any cell follows: D(i, j) = score(w, j) minus the differences of the rows
// of word w below row i. Rows past the pattern's end in its last word are rows of letters that
// match nothing — a valid DP of a longer pattern whose rows 1..n are unchanged — so the bottom
// row is always the word's row 64 and no word needs a mask for the pattern's length.
//
// Layout of a pair with W words: entry (j + L) * W + w for column j (0-based) and word w = L * K + k
// held by lane L of its group (K = 2^length_class_lane_shift words a lane). Lane L computes
// column j at step j + L, so one step's stores are consecutive words: coalesced.
#pragma once

#include <cstdint>

#include "edit_bitparallel.cuh"

namespace dpx {
namespace align {

// Where the kernel writes a pair's columns; nullptr pv: distances only.
struct ColumnRecord {
  std::uint64_t* pv = nullptr;
  std::uint64_t* mv = nullptr;
  std::int32_t* score = nullptr;
  const std::uint64_t* first_entry = nullptr;  // per pair of the launch
};

// Words per lane of the length class that runs a pattern of `words` words, as a shift: one word
// up to 32 words (groups of 4..32 lanes), then 32 lanes of 2, 4, .. 32 words.
DPX_HD int length_class_lane_shift(std::int64_t words) {
  int shift = 0;
  while ((std::int64_t{32} << shift) < words) ++shift;
  return shift;
}

// Entries of a pair whose pattern has n letters and text m: a row of W entries per step, at most
// m + 31 steps (32 lanes).
DPX_HD std::uint64_t column_record_entries(std::int64_t n, std::int64_t m) {
  return static_cast<std::uint64_t>(pattern_words(n)) * static_cast<std::uint64_t>(m + 31);
}

DPX_HD std::uint64_t column_record_index(std::int64_t words, int lane_shift, std::int64_t j, std::int64_t w) {
  return static_cast<std::uint64_t>((j + (w >> lane_shift)) * words + w);
}

// Score at the bottom row (64) of a pattern word before the first target letter: D(i, 0) = i.
DPX_HD std::int32_t column_zero_score(std::int64_t w) { return static_cast<std::int32_t>(kWordBits * (w + 1)); }

}  // namespace align
}  // namespace dpx
