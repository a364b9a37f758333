// Definitions the edit-distance and DTW tests hold the library to: full (n+1) x (m+1) matrices
// straight from the recurrences, a CIGAR checker, and random inputs.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "dpx/align_distance.h"

namespace dpx {
namespace test {

inline std::int64_t brute_edit_distance(std::string_view q, std::string_view t) {
  const std::size_t n = q.size(), m = t.size();
  std::vector<std::vector<std::int64_t>> d(n + 1, std::vector<std::int64_t>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = static_cast<std::int64_t>(i);
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = static_cast<std::int64_t>(j);
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= m; ++j)
      d[i][j] = std::min({d[i - 1][j - 1] + (q[i - 1] == t[j - 1] ? 0 : 1), d[i - 1][j] + 1, d[i][j - 1] + 1});
  return d[n][m];
}

// Plain DTW over the whole matrix; cells outside the band (|i - j| > band, band >= 0) unreachable.
inline std::int64_t brute_dtw(const std::vector<std::int32_t>& a, const std::vector<std::int32_t>& b, int band) {
  const std::size_t n = a.size(), m = b.size();
  const std::int64_t inf = INT64_MAX / 4;
  std::vector<std::vector<std::int64_t>> d(n + 1, std::vector<std::int64_t>(m + 1, inf));
  d[0][0] = 0;
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= m; ++j) {
      const auto di = static_cast<std::int64_t>(i) - static_cast<std::int64_t>(j);
      if (band >= 0 && (di > band || -di > band)) continue;
      const std::int64_t cost = std::abs(static_cast<std::int64_t>(a[i - 1]) - b[j - 1]);
      const std::int64_t best = std::min({d[i - 1][j - 1], d[i - 1][j], d[i][j - 1]});
      if (best < inf) d[i][j] = best + cost;
    }
  return d[n][m] >= inf ? kDtwNoPath : d[n][m];
}

// A CIGAR is valid for (q, t) with distance `distance` when it parses, consumes both sequences,
// '=' / 'X' match the letters, X + I + D == distance, and applying it to q yields t.
inline ::testing::AssertionResult cigar_is_valid(const std::string& cigar, std::string_view q, std::string_view t,
                                                 std::int64_t distance) {
  std::size_t i = 0, j = 0, pos = 0;
  std::int64_t cost = 0;
  std::string rebuilt;
  while (pos < cigar.size()) {
    std::size_t len = 0, digits = 0;
    while (pos < cigar.size() && std::isdigit(static_cast<unsigned char>(cigar[pos]))) {
      len = len * 10 + static_cast<std::size_t>(cigar[pos++] - '0');
      ++digits;
    }
    if (digits == 0 || len == 0 || pos >= cigar.size()) return ::testing::AssertionFailure() << "malformed " << cigar;
    const char op = cigar[pos++];
    for (std::size_t k = 0; k < len; ++k) {
      if (op == '=' || op == 'X') {
        if (i >= q.size() || j >= t.size()) return ::testing::AssertionFailure() << "runs past the end: " << cigar;
        if ((q[i] == t[j]) != (op == '=')) return ::testing::AssertionFailure() << op << " at query " << i << ": " << cigar;
        cost += op == 'X';
        rebuilt += t[j];
        ++i;
        ++j;
      } else if (op == 'I') {
        if (i >= q.size()) return ::testing::AssertionFailure() << "I past the query: " << cigar;
        ++cost;
        ++i;
      } else if (op == 'D') {
        if (j >= t.size()) return ::testing::AssertionFailure() << "D past the target: " << cigar;
        ++cost;
        rebuilt += t[j];
        ++j;
      } else {
        return ::testing::AssertionFailure() << "unknown op " << op << " in " << cigar;
      }
    }
  }
  if (i != q.size() || j != t.size()) return ::testing::AssertionFailure() << "does not consume both: " << cigar;
  if (cost != distance) return ::testing::AssertionFailure() << "costs " << cost << ", distance " << distance;
  if (rebuilt != t) return ::testing::AssertionFailure() << "rebuilds " << rebuilt << " not " << t;
  return ::testing::AssertionSuccess();
}

// Random letters from the first `alphabet` of "ACGT..." (small alphabets give many ties).
inline std::string random_letters(std::mt19937_64& rng, std::size_t n, int alphabet) {
  static const char kLetters[] = "ACGTacgtNRYKMSWBDHV0123456789-*xyz";
  std::uniform_int_distribution<int> pick(0, alphabet - 1);
  std::string s(n, ' ');
  for (auto& c : s) c = kLetters[pick(rng)];
  return s;
}

// Lengths around the 64-bit words of the bit-parallel distance.
inline const std::vector<std::size_t> kWordBoundaryLengths = {0, 1, 31, 32, 33, 63, 64, 65, 127, 128, 129, 1000};

// Letters drawn from `alphabet` byte values spread over 0..255 (256: every byte, NUL included).
inline std::string random_byte_letters(std::mt19937_64& rng, std::size_t n, int alphabet) {
  std::uniform_int_distribution<int> pick(0, alphabet - 1);
  std::string s(n, '\0');
  for (auto& c : s) c = static_cast<char>(pick(rng) * (256 / alphabet) + (alphabet < 256 ? 7 : 0));
  return s;
}

// `base` with about rate * size random edits (substitutions, insertions, deletions).
inline std::string mutate(std::mt19937_64& rng, const std::string& base, double rate, int alphabet) {
  std::string out;
  std::uniform_real_distribution<double> u(0, 1);
  std::uniform_int_distribution<int> kind(0, 2);
  for (char c : base) {
    if (u(rng) >= rate) {
      out += c;
      continue;
    }
    switch (kind(rng)) {
      case 0: out += random_letters(rng, 1, alphabet); break;
      case 1: out += c; out += random_letters(rng, 1, alphabet); break;
      default: break;
    }
  }
  return out;
}

// Pairs of random lengths in each listed size, related (mutated) and unrelated.
struct SequencePairs {
  SequenceBatch queries, targets;
};

inline SequencePairs random_sequence_pairs(std::mt19937_64& rng, const std::vector<std::size_t>& lengths,
                                           int alphabet) {
  SequencePairs p;
  for (std::size_t n : lengths) {
    for (std::size_t m : lengths) {
      const std::string q = random_letters(rng, n, alphabet);
      const std::string t = n == m ? mutate(rng, q, 0.1, alphabet) : random_letters(rng, m, alphabet);
      p.queries.add(q);
      p.targets.add(n == m && !t.empty() ? t.substr(0, m) : t);
    }
  }
  return p;
}

inline std::vector<std::int32_t> random_series(std::mt19937_64& rng, std::size_t n, std::int32_t lo, std::int32_t hi) {
  std::uniform_int_distribution<std::int64_t> pick(lo, hi);
  std::vector<std::int32_t> v(n);
  for (auto& x : v) x = static_cast<std::int32_t>(pick(rng));
  return v;
}

}  // namespace test
}  // namespace dpx
