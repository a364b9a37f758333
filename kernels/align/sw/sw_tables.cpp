#include "sw_tables.h"

#include "sw_strip.h"

namespace dpx {
namespace align {

std::vector<std::uint32_t> paired_table(const ScoreMatrix& m) {
  const int d = m.size() + 1;
  std::vector<std::uint32_t> t(static_cast<std::size_t>(d) * d * d);
  for (int q = 0; q < d; ++q)
    for (int a = 0; a < d; ++a)
      for (int b = 0; b < d; ++b) t[(q * d + a) * d + b] = ops::lanes::pack(m.score(q, a), m.score(q, b));
  t.resize((t.size() + 3) / 4 * 4);
  return t;
}

std::vector<std::int16_t> two_lookup_table(const ScoreMatrix& m) {
  const int d = m.size() + 1;
  constexpr int kCopies = TwoLookupScorer::kCopies;
  std::vector<std::int16_t> t(static_cast<std::size_t>(d) * d * kCopies);
  for (int q = 0; q < d; ++q)
    for (int a = 0; a < d; ++a)
      for (int k = 0; k < kCopies; ++k) t[(q * d + a) * kCopies + k] = static_cast<std::int16_t>(m.score(q, a));
  t.resize((t.size() + 7) / 8 * 8);
  return t;
}

std::vector<std::int32_t> single_table(const ScoreMatrix& m) {
  const int d = m.size() + 1;
  std::vector<std::int32_t> t(static_cast<std::size_t>(d) * d);
  for (int q = 0; q < d; ++q)
    for (int a = 0; a < d; ++a) t[q * d + a] = m.score(q, a);
  t.resize((t.size() + 3) / 4 * 4);
  return t;
}

}  // namespace align
}  // namespace dpx
