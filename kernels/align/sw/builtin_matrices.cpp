// The built-in protein substitution matrices: the NCBI BLOSUM45/50/62/80 and PAM250 tables, stored
// as lower triangles (they are symmetric), one row per letter in the order ARNDCQEGHILKMFPSTWYVBZX*.
// Row i holds the scores of letter i against letters 0..i.
#include "builtin_matrices.h"

#include <cctype>
#include <cstdlib>
#include <string>

namespace dpx {
namespace align {
namespace {

// BLOSUM45, 1/3 bit units
constexpr const char* kBlosum45 =
    "A  5\n"
    "R -2  7\n"
    "N -1  0  6\n"
    "D -2 -1  2  7\n"
    "C -1 -3 -2 -3 12\n"
    "Q -1  1  0  0 -3  6\n"
    "E -1  0  0  2 -3  2  6\n"
    "G  0 -2  0 -1 -3 -2 -2  7\n"
    "H -2  0  1  0 -3  1  0 -2 10\n"
    "I -1 -3 -2 -4 -3 -2 -3 -4 -3  5\n"
    "L -1 -2 -3 -3 -2 -2 -2 -3 -2  2  5\n"
    "K -1  3  0  0 -3  1  1 -2 -1 -3 -3  5\n"
    "M -1 -1 -2 -3 -2  0 -2 -2  0  2  2 -1  6\n"
    "F -2 -2 -2 -4 -2 -4 -3 -3 -2  0  1 -3  0  8\n"
    "P -1 -2 -2 -1 -4 -1  0 -2 -2 -2 -3 -1 -2 -3  9\n"
    "S  1 -1  1  0 -1  0  0  0 -1 -2 -3 -1 -2 -2 -1  4\n"
    "T  0 -1  0 -1 -1 -1 -1 -2 -2 -1 -1 -1 -1 -1 -1  2  5\n"
    "W -2 -2 -4 -4 -5 -2 -3 -2 -3 -2 -2 -2 -2  1 -3 -4 -3 15\n"
    "Y -2 -1 -2 -2 -3 -1 -2 -3  2  0  0 -1  0  3 -3 -2 -1  3  8\n"
    "V  0 -2 -3 -3 -1 -3 -3 -3 -3  3  1 -2  1  0 -3 -1  0 -3 -1  5\n"
    "B -1 -1  4  5 -2  0  1 -1  0 -3 -3  0 -2 -3 -2  0  0 -4 -2 -3  4\n"
    "Z -1  0  0  1 -3  4  4 -2  0 -3 -2  1 -1 -3 -1  0 -1 -2 -2 -3  2  4\n"
    "X  0 -1 -1 -1 -2 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1  0  0 -2 -1 -1 -1 -1 -1\n"
    "* -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5  1\n";

// BLOSUM50, 1/3 bit units
constexpr const char* kBlosum50 =
    "A  5\n"
    "R -2  7\n"
    "N -1 -1  7\n"
    "D -2 -2  2  8\n"
    "C -1 -4 -2 -4 13\n"
    "Q -1  1  0  0 -3  7\n"
    "E -1  0  0  2 -3  2  6\n"
    "G  0 -3  0 -1 -3 -2 -3  8\n"
    "H -2  0  1 -1 -3  1  0 -2 10\n"
    "I -1 -4 -3 -4 -2 -3 -4 -4 -4  5\n"
    "L -2 -3 -4 -4 -2 -2 -3 -4 -3  2  5\n"
    "K -1  3  0 -1 -3  2  1 -2  0 -3 -3  6\n"
    "M -1 -2 -2 -4 -2  0 -2 -3 -1  2  3 -2  7\n"
    "F -3 -3 -4 -5 -2 -4 -3 -4 -1  0  1 -4  0  8\n"
    "P -1 -3 -2 -1 -4 -1 -1 -2 -2 -3 -4 -1 -3 -4 10\n"
    "S  1 -1  1  0 -1  0 -1  0 -1 -3 -3  0 -2 -3 -1  5\n"
    "T  0 -1  0 -1 -1 -1 -1 -2 -2 -1 -1 -1 -1 -2 -1  2  5\n"
    "W -3 -3 -4 -5 -5 -1 -3 -3 -3 -3 -2 -3 -1  1 -4 -4 -3 15\n"
    "Y -2 -1 -2 -3 -3 -1 -2 -3  2 -1 -1 -2  0  4 -3 -2 -2  2  8\n"
    "V  0 -3 -3 -4 -1 -3 -3 -4 -4  4  1 -3  1 -1 -3 -2  0 -3 -1  5\n"
    "B -2 -1  4  5 -3  0  1 -1  0 -4 -4  0 -3 -4 -2  0  0 -5 -3 -4  5\n"
    "Z -1  0  0  1 -3  4  5 -2  0 -3 -3  1 -1 -4 -1  0 -1 -2 -2 -3  2  5\n"
    "X -1 -1 -1 -1 -2 -1 -1 -2 -1 -1 -1 -1 -1 -2 -2 -1  0 -3 -1 -1 -1 -1 -1\n"
    "* -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5  1\n";

// BLOSUM62, 1/2 bit units
constexpr const char* kBlosum62 =
    "A  4\n"
    "R -1  5\n"
    "N -2  0  6\n"
    "D -2 -2  1  6\n"
    "C  0 -3 -3 -3  9\n"
    "Q -1  1  0  0 -3  5\n"
    "E -1  0  0  2 -4  2  5\n"
    "G  0 -2  0 -1 -3 -2 -2  6\n"
    "H -2  0  1 -1 -3  0  0 -2  8\n"
    "I -1 -3 -3 -3 -1 -3 -3 -4 -3  4\n"
    "L -1 -2 -3 -4 -1 -2 -3 -4 -3  2  4\n"
    "K -1  2  0 -1 -3  1  1 -2 -1 -3 -2  5\n"
    "M -1 -1 -2 -3 -1  0 -2 -3 -2  1  2 -1  5\n"
    "F -2 -3 -3 -3 -2 -3 -3 -3 -1  0  0 -3  0  6\n"
    "P -1 -2 -2 -1 -3 -1 -1 -2 -2 -3 -3 -1 -2 -4  7\n"
    "S  1 -1  1  0 -1  0  0  0 -1 -2 -2  0 -1 -2 -1  4\n"
    "T  0 -1  0 -1 -1 -1 -1 -2 -2 -1 -1 -1 -1 -2 -1  1  5\n"
    "W -3 -3 -4 -4 -2 -2 -3 -2 -2 -3 -2 -3 -1  1 -4 -3 -2 11\n"
    "Y -2 -2 -2 -3 -2 -1 -2 -3  2 -1 -1 -2 -1  3 -3 -2 -2  2  7\n"
    "V  0 -3 -3 -3 -1 -2 -2 -3 -3  3  1 -2  1 -1 -2 -2  0 -3 -1  4\n"
    "B -2 -1  3  4 -3  0  1 -1  0 -3 -4  0 -3 -3 -2  0 -1 -4 -3 -3  4\n"
    "Z -1  0  0  1 -3  3  4 -2  0 -3 -3  1 -1 -3 -1  0 -1 -3 -2 -2  1  4\n"
    "X  0 -1 -1 -1 -2 -1 -1 -1 -1 -1 -1 -1 -1 -1 -2  0  0 -2 -1 -1 -1 -1 -1\n"
    "* -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4  1\n";

// BLOSUM80, 1/3 bit units
constexpr const char* kBlosum80 =
    "A  7\n"
    "R -3  9\n"
    "N -3 -1  9\n"
    "D -3 -3  2 10\n"
    "C -1 -6 -5 -7 13\n"
    "Q -2  1  0 -1 -5  9\n"
    "E -2 -1 -1  2 -7  3  8\n"
    "G  0 -4 -1 -3 -6 -4 -4  9\n"
    "H -3  0  1 -2 -7  1  0 -4 12\n"
    "I -3 -5 -6 -7 -2 -5 -6 -7 -6  7\n"
    "L -3 -4 -6 -7 -3 -4 -6 -7 -5  2  6\n"
    "K -1  3  0 -2 -6  2  1 -3 -1 -5 -4  8\n"
    "M -2 -3 -4 -6 -3 -1 -4 -5 -4  2  3 -3  9\n"
    "F -4 -5 -6 -6 -4 -5 -6 -6 -2 -1  0 -5  0 10\n"
    "P -1 -3 -4 -3 -6 -3 -2 -5 -4 -5 -5 -2 -4 -6 12\n"
    "S  2 -2  1 -1 -2 -1 -1 -1 -2 -4 -4 -1 -3 -4 -2  7\n"
    "T  0 -2  0 -2 -2 -1 -2 -3 -3 -2 -3 -1 -1 -4 -3  2  8\n"
    "W -5 -5 -7 -8 -5 -4 -6 -6 -4 -5 -4 -6 -3  0 -7 -6 -5 16\n"
    "Y -4 -4 -4 -6 -5 -3 -5 -6  3 -3 -2 -4 -3  4 -6 -3 -3  3 11\n"
    "V -1 -4 -5 -6 -2 -4 -4 -6 -5  4  1 -4  1 -2 -4 -3  0 -5 -3  7\n"
    "B -3 -2  5  6 -6 -1  1 -2 -1 -6 -7 -1 -5 -6 -4  0 -1 -8 -5 -6  6\n"
    "Z -2  0 -1  1 -7  5  6 -4  0 -6 -5  1 -3 -6 -2 -1 -2 -5 -4 -4  0  6\n"
    "X -1 -2 -2 -3 -4 -2 -2 -3 -2 -2 -2 -2 -2 -3 -3 -1 -1 -5 -3 -2 -3 -1 -2\n"
    "* -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8  1\n";

// PAM250, scale ln(2)/3
constexpr const char* kPam250 =
    "A  2\n"
    "R -2  6\n"
    "N  0  0  2\n"
    "D  0 -1  2  4\n"
    "C -2 -4 -4 -5 12\n"
    "Q  0  1  1  2 -5  4\n"
    "E  0 -1  1  3 -5  2  4\n"
    "G  1 -3  0  1 -3 -1  0  5\n"
    "H -1  2  2  1 -3  3  1 -2  6\n"
    "I -1 -2 -2 -2 -2 -2 -2 -3 -2  5\n"
    "L -2 -3 -3 -4 -6 -2 -3 -4 -2  2  6\n"
    "K -1  3  1  0 -5  1  0 -2  0 -2 -3  5\n"
    "M -1  0 -2 -3 -5 -1 -2 -3 -2  2  4  0  6\n"
    "F -3 -4 -3 -6 -4 -5 -5 -5 -2  1  2 -5  0  9\n"
    "P  1  0  0 -1 -3  0 -1  0  0 -2 -3 -1 -2 -5  6\n"
    "S  1  0  1  0  0 -1  0  1 -1 -1 -3  0 -2 -3  1  2\n"
    "T  1 -1  0  0 -2 -1  0  0 -1  0 -2  0 -1 -3  0  1  3\n"
    "W -6  2 -4 -7 -8 -5 -7 -7 -3 -5 -2 -3 -4  0 -6 -2 -5 17\n"
    "Y -3 -4 -2 -4  0 -4 -4 -5  0 -1 -1 -4 -2  7 -5 -3 -3  0 10\n"
    "V  0 -2 -2 -2 -2 -2 -2 -1 -2  4  2 -2  2 -1 -1 -1  0 -6 -2  4\n"
    "B  0 -1  2  3 -4  1  3  0  1 -2 -3  1 -2 -4 -1  0  0 -5 -3 -2  3\n"
    "Z  0  0  1  3 -5  3  3  0  2 -2 -3  0 -2 -5  0  0 -1 -6 -4 -2  2  3\n"
    "X  0 -1  0 -1 -3 -1 -1 -1 -1 -1 -1 -1 -1 -2 -1  0  0 -4 -2 -1 -1 -1 -1\n"
    "* -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8  1\n";
struct Entry {
  const char* name;
  const char* lower_triangle;
};
constexpr Entry kBuiltins[] = {{"blosum45", kBlosum45}, {"blosum50", kBlosum50}, {"blosum62", kBlosum62},
                               {"blosum80", kBlosum80}, {"pam250", kPam250}};

}  // namespace

const char* const kProteinLetters = "ARNDCQEGHILKMFPSTWYVBZX*";

bool builtin_scores(std::string_view name, std::vector<int>* scores) {
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const Entry& e : kBuiltins) {
    if (lower != e.name) continue;
    const int n = static_cast<int>(std::string(kProteinLetters).size());
    scores->assign(static_cast<std::size_t>(n) * n, 0);
    const char* p = e.lower_triangle;
    for (int i = 0; i < n; ++i) {
      p += 2;  // the row letter and its space
      for (int j = 0; j <= i; ++j) {
        char* end = nullptr;
        const int v = static_cast<int>(std::strtol(p, &end, 10));
        p = end;
        (*scores)[i * n + j] = v;
        (*scores)[j * n + i] = v;
      }
      ++p;  // newline
    }
    return true;
  }
  return false;
}

std::vector<std::string> builtin_names() {
  std::vector<std::string> names;
  for (const Entry& e : kBuiltins) names.push_back(e.name);
  return names;
}

}  // namespace align
}  // namespace dpx
