// Bit scores and E-values of local alignment scores from the gapped Karlin-Altschul parameters of
// a matrix and gap pair (karlin_altschul_table.h).
#pragma once

#include <cstdint>
#include <string>

namespace dpx {
namespace cli {

struct KarlinAltschul {
  double lambda = 0, k = 0;

  // (λS - ln K) / ln 2.
  double bit_score(std::int64_t score) const;
  // K m n e^(-λS): m the query's length, n the database's total length (the search space, without
  // BLAST's edge-effect length adjustment).
  double evalue(std::int64_t score, std::uint64_t query_length, std::uint64_t database_length) const;
};

// The parameters of `matrix` (a built-in name) with dpx-align's gap costs (--gap-open is the cost of
// a gap's first letter); false when the pair is not in the table.
bool find_karlin_altschul(const std::string& matrix, int gap_open, int gap_extend, KarlinAltschul* out);

// The supported pairs in dpx-align's terms, one matrix a line: "blosum62: 12/1 11/1 ...".
std::string karlin_altschul_pairs();

}  // namespace cli
}  // namespace dpx
