// Bit-parallel edit distance on the CPU: the shorter sequence is the pattern (fewer words per
// column); each target letter advances the column's blocks top to bottom, hout feeding hin.
#include "edit_bitparallel_cpu.h"

#include <algorithm>

#include "edit_bitparallel.cuh"

namespace dpx {
namespace align {

std::int64_t edit_distance_bitparallel(std::string_view q, std::string_view t, BitParallelWorkspace* ws) {
  const std::string_view pattern = q.size() <= t.size() ? q : t;
  const std::string_view text = q.size() <= t.size() ? t : q;
  const auto n = static_cast<std::int64_t>(pattern.size());
  if (n == 0) return static_cast<std::int64_t>(text.size());
  const std::int64_t words = pattern_words(n);
  if (ws->peq.size() < static_cast<std::size_t>(256 * words)) ws->peq.assign(256 * words, 0);
  std::uint64_t* peq = ws->peq.data();
  for (std::int64_t i = 0; i < n; ++i) {
    peq[static_cast<unsigned char>(pattern[i]) * words + i / kWordBits] |= std::uint64_t{1} << (i % kWordBits);
  }
  ws->pv.assign(words, ~std::uint64_t{0});
  ws->mv.assign(words, 0);
  std::uint64_t* pv = ws->pv.data();
  std::uint64_t* mv = ws->mv.data();
  const int last_bit = static_cast<int>((n - 1) % kWordBits);
  std::int64_t distance = n;
  for (const char c : text) {
    const std::uint64_t* eq = peq + static_cast<unsigned char>(c) * words;
    int h = 1, delta = 0;
    for (std::int64_t w = 0; w + 1 < words; ++w) h = myers_block_step(&pv[w], &mv[w], eq[w], h, 63, &delta);
    myers_block_step(&pv[words - 1], &mv[words - 1], eq[words - 1], h, last_bit, &delta);
    distance += delta;
  }
  for (std::int64_t i = 0; i < n; ++i) peq[static_cast<unsigned char>(pattern[i]) * words + i / kWordBits] = 0;
  return distance;
}

}  // namespace align
}  // namespace dpx
