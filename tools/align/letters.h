// How dpx-align reads sequence letters, one rule for every command: case is folded to upper case
// (--keep-case compares letters as written); a letter outside the alphabet is an error naming its
// file, line and column, or (--unknown-as-wildcard, sw/nw/sg) becomes the matrix's wildcard with one
// warning giving the count. U and O become C and K, as NCBI BLAST does, when the matrix lacks them.
#pragma once

#include <array>
#include <cstddef>
#include <string>

#include "dpx/align.h"

namespace dpx {
namespace cli {

class Alphabet {
 public:
  // edit: the letters A-Z (and a-z with keep_case), compared as they are.
  static Alphabet letters(bool keep_case);
  // sw, nw, sg: the matrix's letters. `wildcard` (0 = none) is where unknown letters go when
  // `unknown_as_wildcard`; without one they are errors.
  static Alphabet of_matrix(const ScoreMatrix& matrix, char wildcard, bool keep_case, bool unknown_as_wildcard);

  // The letter `c` is read as; 0 when it is unknown and has no wildcard to become.
  char map(char c) const { return to_[static_cast<unsigned char>(c)]; }
  // True when map(c) is the wildcard standing in for an unknown letter.
  bool stands_in(char c) const { return stand_in_[static_cast<unsigned char>(c)]; }
  // The whole rule as 512 bytes (what each byte is read as, then whether as a stand-in): two rules
  // with the same identity read every file alike.
  std::string identity() const;

 private:
  std::array<char, 256> to_{};
  std::array<bool, 256> stand_in_{};
};

}  // namespace cli
}  // namespace dpx
