#include "letters.h"

#include <cctype>

namespace dpx {
namespace cli {

Alphabet Alphabet::letters(bool keep_case) {
  Alphabet a;
  for (int c = 0; c < 256; ++c) {
    if (!std::isalpha(c)) continue;
    a.to_[c] = static_cast<char>(keep_case ? c : std::toupper(c));
  }
  return a;
}

Alphabet Alphabet::of_matrix(const ScoreMatrix& matrix, char wildcard, bool keep_case, bool unknown_as_wildcard) {
  Alphabet a;
  const std::string& letters = matrix.letters();
  auto known = [&](char c) { return letters.find(c) != std::string::npos; };
  for (char c : letters) {
    a.to_[static_cast<unsigned char>(c)] = c;
    if (!keep_case) a.to_[static_cast<unsigned char>(std::tolower(c))] = c;
  }
  // NCBI's reading of selenocysteine and pyrrolysine for matrices without them
  const char ncbi[][2] = {{'U', 'C'}, {'O', 'K'}};
  for (const auto& pair : ncbi) {
    if (known(pair[0]) || !known(pair[1])) continue;
    a.to_[static_cast<unsigned char>(pair[0])] = pair[1];
    if (!keep_case) a.to_[static_cast<unsigned char>(std::tolower(pair[0]))] = pair[1];
  }
  if (!unknown_as_wildcard || wildcard == 0) return a;
  for (int c = 0; c < 256; ++c) {
    if (a.to_[c] != 0 || std::isspace(c)) continue;
    a.to_[c] = wildcard;
    a.stand_in_[c] = true;
  }
  return a;
}

std::string Alphabet::identity() const {
  std::string out(to_.begin(), to_.end());
  for (bool s : stand_in_) out += static_cast<char>(s);
  return out;
}

}  // namespace cli
}  // namespace dpx
