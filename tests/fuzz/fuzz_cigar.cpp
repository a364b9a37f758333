// CIGAR strings as rescore_cigar reads them: any text against any two sequences gives a score or
// a message, never a read outside the sequences.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "dpx/align.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const dpx::ScoreMatrix matrix = [] {
    dpx::ScoreMatrix m;
    if (!dpx::ScoreMatrix::builtin("blosum62", &m).is_ok()) std::abort();
    return m;
  }();
  const std::uint8_t q = dpx::fuzz::take_byte(&data, &size), t = dpx::fuzz::take_byte(&data, &size);
  const std::uint8_t qb = dpx::fuzz::take_byte(&data, &size), tb = dpx::fuzz::take_byte(&data, &size);
  // the sequences exactly as long as asked, in their own allocations so ASan sees any overread
  const std::string query(q % 64, 'A'), target(t % 64, 'A');
  std::string cigar(reinterpret_cast<const char*>(data), size);
  dpx::AlignOptions options;
  std::int64_t score = 0;
  const dpx::Status s = dpx::rescore_cigar(cigar, query, target, static_cast<std::int8_t>(qb), static_cast<std::int8_t>(tb),
                                           matrix, options, &score);
  if (!s.is_ok() && s.message().empty()) std::abort();
  return 0;
}
