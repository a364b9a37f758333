// Independent definitions the alignment tests check against: an exhaustive enumeration of
// alignments (tiny sequences) and a textbook three-matrix recurrence in 64 bits.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "dpx/align.h"

namespace dpx {
namespace test {

// The best score over every alignment the mode allows, by enumeration (lengths up to ~6).
std::int64_t brute_force_score(const std::string& q, const std::string& t, const ScoreMatrix& m,
                               const AlignOptions& o);

struct ReferenceEnds {
  std::int64_t score;
  std::int32_t query_end, target_end;
};

// Full H/E/F matrices in int64 with the documented boundaries and end-position rule.
ReferenceEnds reference_score(const std::string& q, const std::string& t, const ScoreMatrix& m,
                              const AlignOptions& o);

// A random sequence over `letters`, sometimes lower case, sometimes a letter outside the alphabet.
std::string random_sequence(std::mt19937_64& rng, std::size_t length, const std::string& letters);

// A random symmetric-or-not matrix over `letters` with scores in [lo, hi].
ScoreMatrix random_matrix(std::mt19937_64& rng, const std::string& letters, int lo, int hi);

// Checks one result against the reference: score, ends, and with a traceback the begins, the
// CIGAR's span and its re-scoring. Returns "" when all hold, else what failed.
std::string check_against_reference(const AlignResult& r, const std::string& q, const std::string& t,
                                    const ScoreMatrix& m, const AlignOptions& o);

// A built-in matrix (fails the test when the name is unknown).
ScoreMatrix builtin_matrix(const char* name);

AlignOptions align_options(AlignMode mode, int open, int extend, bool traceback);

// A local pair (BLOSUM62, gap 11/1) whose best score, 22, lies twice: at query row 500, target
// column 2 ("WW") and at row 100, columns 1,025-1,027 ("CCA"), a later pass of the same strip
// thread in every alignment kernel's shape. The end is the smaller row, the later pass's cell.
struct QueryTarget {
  std::string query, target;
};
QueryTarget equal_best_scores_across_passes();

// "score=.. q=[b,e) t=[b,e) cigar" for messages.
std::string describe(const AlignResult& r);

}  // namespace test
}  // namespace dpx
