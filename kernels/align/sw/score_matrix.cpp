// ScoreMatrix: built-in, DNA, parsed and user-given substitution matrices.
#include <cctype>
#include <cstdlib>
#include <sstream>
#include <string>

#include "builtin_matrices.h"
#include "dpx/align.h"

namespace dpx {

namespace {

char upper(char c) { return static_cast<char>(std::toupper(static_cast<unsigned char>(c))); }

}  // namespace

Status ScoreMatrix::from_scores(std::string_view letters, const std::vector<int>& scores, char wildcard,
                                std::string name, ScoreMatrix* out) {
  const std::string what = "score matrix '" + name + "': ";
  const std::size_t n = letters.size();
  if (n == 0 || n > static_cast<std::size_t>(kMaxLetters - 1)) {
    return invalid_argument(what + "needs 1 to " + std::to_string(kMaxLetters - 1) + " letters, got " +
                            std::to_string(n));
  }
  if (scores.size() != n * n) {
    return invalid_argument(what + "needs " + std::to_string(n * n) + " scores for " + std::to_string(n) +
                            " letters, got " + std::to_string(scores.size()));
  }
  ScoreMatrix m;
  m.name_ = std::move(name);
  int wildcard_index = -1;
  for (std::size_t i = 0; i < n; ++i) {
    const char c = upper(letters[i]);
    if (!std::isgraph(static_cast<unsigned char>(c))) {
      return invalid_argument(what + "letter " + std::to_string(i) + " is not a printable character");
    }
    if (m.letters_.find(c) != std::string::npos) {
      return invalid_argument(what + "letter '" + std::string(1, c) + "' appears twice (letters are case-insensitive)");
    }
    m.letters_ += c;
    if (c == upper(wildcard)) wildcard_index = static_cast<int>(i);
  }
  if (wildcard_index < 0) {
    return invalid_argument(what + "the wildcard '" + std::string(1, wildcard) + "' is not one of its letters");
  }
  m.wildcard_ = wildcard_index;
  m.max_ = scores[0];
  m.min_ = scores[0];
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      const int v = scores[i * n + j];
      if (v < -128 || v > 127) {
        return invalid_argument(what + "score " + std::to_string(v) + " of '" + std::string(1, m.letters_[i]) +
                                "' against '" + std::string(1, m.letters_[j]) + "' is outside [-128, 127]");
      }
      m.scores_[i * kMaxLetters + j] = static_cast<std::int8_t>(v);
      m.max_ = v > m.max_ ? v : m.max_;
      m.min_ = v < m.min_ ? v : m.min_;
    }
  }
  for (int c = 0; c < 256; ++c) m.code_[c] = static_cast<std::uint8_t>(wildcard_index);
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char c = static_cast<unsigned char>(m.letters_[i]);
    m.code_[c] = static_cast<std::uint8_t>(i);
    m.code_[static_cast<unsigned char>(std::tolower(c))] = static_cast<std::uint8_t>(i);
  }
  *out = m;
  return Status::ok();
}

Status ScoreMatrix::builtin(std::string_view name, ScoreMatrix* out) {
  std::vector<int> scores;
  if (!align::builtin_scores(name, &scores)) {
    std::string known;
    for (const std::string& n : align::builtin_names()) known += (known.empty() ? "" : ", ") + n;
    return invalid_argument("unknown score matrix '" + std::string(name) + "' (built in: " + known + ")");
  }
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return from_scores(align::kProteinLetters, scores, 'X', lower, out);
}

Status ScoreMatrix::dna(int match, int mismatch, ScoreMatrix* out) {
  const std::string letters = "ACGTN";
  std::vector<int> scores(letters.size() * letters.size(), mismatch);
  for (std::size_t i = 0; i + 1 < letters.size(); ++i) scores[i * letters.size() + i] = match;
  return from_scores(letters, scores, 'N', "dna(" + std::to_string(match) + "," + std::to_string(mismatch) + ")", out);
}

Status ScoreMatrix::parse(std::string_view text, char wildcard, std::string name, ScoreMatrix* out) {
  const std::string what = "score matrix '" + name + "': ";
  std::istringstream in{std::string(text)};
  std::string line, letters;
  std::vector<int> scores;
  int line_no = 0;
  std::size_t row = 0;
  while (std::getline(in, line)) {
    ++line_no;
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    std::istringstream fields(line);
    std::string tok;
    if (letters.empty()) {  // the header: column letters
      while (fields >> tok) {
        if (tok.size() != 1) return invalid_argument(what + "line " + std::to_string(line_no) + ": column '" + tok + "' is not one letter");
        letters += tok;
      }
      continue;
    }
    if (!(fields >> tok) || tok.size() != 1 || row >= letters.size() || upper(tok[0]) != upper(letters[row])) {
      return invalid_argument(what + "line " + std::to_string(line_no) + ": expected the row of '" +
                              (row < letters.size() ? std::string(1, letters[row]) : std::string("(none: too many rows)")) + "'");
    }
    std::size_t count = 0;
    while (fields >> tok) {
      char* end = nullptr;
      const long v = std::strtol(tok.c_str(), &end, 10);
      if (*end != '\0') return invalid_argument(what + "line " + std::to_string(line_no) + ": '" + tok + "' is not a whole number");
      if (v < -128 || v > 127) {
        return invalid_argument(what + "line " + std::to_string(line_no) + ": score " + tok + " is outside [-128, 127]");
      }
      scores.push_back(static_cast<int>(v));
      ++count;
    }
    if (count != letters.size()) {
      return invalid_argument(what + "line " + std::to_string(line_no) + ": " + std::to_string(count) + " scores for " +
                              std::to_string(letters.size()) + " columns");
    }
    ++row;
  }
  if (letters.empty()) return invalid_argument(what + "no column letters found");
  if (row != letters.size()) {
    return invalid_argument(what + std::to_string(row) + " rows for " + std::to_string(letters.size()) + " columns");
  }
  return from_scores(letters, scores, wildcard, std::move(name), out);
}

}  // namespace dpx
