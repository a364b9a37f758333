#include "karlin_altschul.h"

#include <cmath>

#include "karlin_altschul_table.h"

namespace dpx {
namespace cli {

double KarlinAltschul::bit_score(std::int64_t score) const {
  return (lambda * static_cast<double>(score) - std::log(k)) / std::log(2.0);
}

double KarlinAltschul::evalue(std::int64_t score, std::uint64_t query_length, std::uint64_t database_length) const {
  return k * static_cast<double>(query_length) * static_cast<double>(database_length) *
         std::exp(-lambda * static_cast<double>(score));
}

bool find_karlin_altschul(const std::string& matrix, int gap_open, int gap_extend, KarlinAltschul* out) {
  for (const KarlinAltschulEntry& e : kKarlinAltschulTable) {
    if (matrix == e.matrix && gap_open == e.existence + e.extension && gap_extend == e.extension) {
      *out = {e.lambda, e.k};
      return true;
    }
  }
  return false;
}

std::string karlin_altschul_pairs() {
  std::string text, current;
  for (const KarlinAltschulEntry& e : kKarlinAltschulTable) {
    if (current != e.matrix) {
      text += (current.empty() ? "" : "\n") + std::string(e.matrix) + ":";
      current = e.matrix;
    }
    text += " " + std::to_string(e.existence + e.extension) + "/" + std::to_string(e.extension);
  }
  return text;
}

}  // namespace cli
}  // namespace dpx
