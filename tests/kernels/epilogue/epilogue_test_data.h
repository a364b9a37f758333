// Inputs that exercise the epilogue, shared by its CPU and GPU tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace dpx {
namespace test {

// Accumulators for elements whose shift is shift_of(i): a mix of full-range int32 (mostly
// saturating), values within reach of the int16 range after the shift, exact rounding ties
// (x.5 after the shift, both signs) and the int32 extremes.
template <typename ShiftOf>
std::vector<std::int32_t> epilogue_accumulators(std::mt19937_64& rng, std::size_t n, ShiftOf shift_of) {
  constexpr std::int64_t kMin = std::numeric_limits<std::int32_t>::min();
  constexpr std::int64_t kMax = std::numeric_limits<std::int32_t>::max();
  std::uniform_int_distribution<std::int64_t> full(kMin, kMax), near(-40000, 40000), kind(0, 9);
  std::vector<std::int32_t> acc(n);
  for (std::size_t i = 0; i < n; ++i) {
    const int s = shift_of(i);
    const std::int64_t unit = std::int64_t{1} << s;
    std::int64_t v = 0;
    switch (kind(rng)) {
      case 0: case 1: case 2: v = full(rng); break;
      case 3: v = i % 2 ? kMax : kMin; break;
      case 4: v = near(rng) * unit + unit / 2; break;  // a tie
      default: v = near(rng) * unit + std::uniform_int_distribution<std::int64_t>(0, unit - 1)(rng); break;
    }
    acc[i] = static_cast<std::int32_t>(v < kMin ? kMin : (v > kMax ? kMax : v));
  }
  return acc;
}

// int16 values: full range, with the extremes and zero well represented.
inline std::vector<std::int16_t> epilogue_int16(std::mt19937_64& rng, std::size_t n) {
  std::uniform_int_distribution<int> full(-32768, 32767), kind(0, 7);
  const std::int16_t edges[] = {-32768, 32767, 0, -1};
  std::vector<std::int16_t> v(n);
  for (auto& x : v) x = static_cast<std::int16_t>(kind(rng) == 0 ? edges[full(rng) & 3] : full(rng));
  return v;
}

inline std::vector<std::int32_t> epilogue_shifts(std::mt19937_64& rng, std::size_t channels) {
  std::vector<std::int32_t> s(channels);
  const std::int32_t edges[] = {0, 31};
  for (std::size_t c = 0; c < channels; ++c) {
    s[c] = c < 2 ? edges[c] : std::uniform_int_distribution<std::int32_t>(0, 31)(rng);
  }
  return s;
}

inline std::vector<std::int32_t> epilogue_bias(std::mt19937_64& rng, std::size_t channels) {
  std::vector<std::int32_t> b(channels);
  std::uniform_int_distribution<std::int32_t> full(std::numeric_limits<std::int32_t>::min(),
                                                   std::numeric_limits<std::int32_t>::max());
  std::uniform_int_distribution<std::int32_t> small(-5000, 5000);
  for (std::size_t c = 0; c < channels; ++c) b[c] = c % 3 == 0 ? full(rng) : small(rng);
  return b;
}

}  // namespace test
}  // namespace dpx
