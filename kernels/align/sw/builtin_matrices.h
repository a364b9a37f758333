// The built-in substitution matrices, as raw scores (ScoreMatrix wraps them).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dpx {
namespace align {

// The alphabet of the built-in protein matrices, in row order; 'X' is the wildcard.
extern const char* const kProteinLetters;

// Row-major scores of the named built-in matrix (lower-case name); false when there is none.
bool builtin_scores(std::string_view name, std::vector<int>* scores);

// "blosum45", ... in a fixed order (for messages and --help).
std::vector<std::string> builtin_names();

}  // namespace align
}  // namespace dpx
