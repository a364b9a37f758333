// What the FASTA / FASTQ harnesses share: the letter rule an option byte picks, and the reader's
// promises checked on what it read.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <string>

#include "dpx/align.h"
#include "letters.h"
#include "sequence_reader.h"

namespace dpx {
namespace fuzz {

// `options`: bit 0 the edit alphabet instead of blosum62's, bit 1 --keep-case, bit 2
// --unknown-as-wildcard.
inline cli::Alphabet alphabet_for(std::uint8_t options) {
  static const ScoreMatrix matrix = [] {
    ScoreMatrix m;
    if (!ScoreMatrix::builtin("blosum62", &m).is_ok()) std::abort();
    return m;
  }();
  const bool keep_case = options & 2;
  return options & 1 ? cli::Alphabet::letters(keep_case) : cli::Alphabet::of_matrix(matrix, 'X', keep_case, options & 4);
}

// A refusal says why; records read have a name and a line each, letters, no control character in
// a name, and rising header lines.
inline void check_sequences(bool read, const cli::NamedSequences& out, const std::string& error) {
  if (!read) {
    if (error.empty()) std::abort();
    return;
  }
  if (out.names.empty() || out.names.size() != out.lines.size() || out.names.size() != out.letters.size()) std::abort();
  for (std::size_t i = 0; i < out.names.size(); ++i) {
    if (out.letters.length(i) == 0 || out.names[i].empty()) std::abort();
    for (char c : out.names[i])
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f || c == ' ') std::abort();
    for (char c : out.letters.view(i))
      if (c == 0 || c == '\n' || c == '\r') std::abort();
    if (i > 0 && out.lines[i] <= out.lines[i - 1]) std::abort();
  }
}

}  // namespace fuzz
}  // namespace dpx
