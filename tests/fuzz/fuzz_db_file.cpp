// The database file of makedb as search opens it. With the first byte odd, the input's checksums
// are made to match first, so the fuzzer reaches the field checks behind them. Whatever is read
// holds what the reader promises, and writing it again and reading that back gives the same.
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "db_file.h"
#include "dpx/align.h"
#include "fuzz_input.h"
#include "letters.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const dpx::cli::LetterRule rule = [] {
    dpx::ScoreMatrix m;
    if (!dpx::ScoreMatrix::builtin("blosum62", &m).is_ok()) std::abort();
    return dpx::cli::LetterRule{dpx::cli::Alphabet::of_matrix(m, 'X', false, false).identity(), "--matrix blosum62"};
  }();
  const std::uint8_t options = dpx::fuzz::take_byte(&data, &size);
  std::string bytes(reinterpret_cast<const char*>(data), size);
  if (options & 1) dpx::cli::seal_database(&bytes);
  dpx::cli::NamedSequences db;
  std::string error;
  if (!dpx::cli::read_database_bytes(bytes.data(), bytes.size(), "fuzz.dpxdb", rule, &db, &error)) {
    if (error.empty()) std::abort();
    return 0;
  }
  if (db.names.empty() || db.names.size() != db.letters.size() || db.names.size() != db.lines.size()) std::abort();
  for (std::size_t p = 0; p < db.names.size(); ++p) {
    if (db.order.stored(db.order.original(p)) != p || db.letters.length(p) == 0) std::abort();
  }
  return 0;
}
