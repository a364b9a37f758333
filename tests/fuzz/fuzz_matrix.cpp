// Matrix files in the NCBI format (--matrix FILE): any text gives a matrix or a message; a matrix
// read is square over its letters, its wildcard one of them, and every score within its range.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "dpx/align.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const char wildcard = static_cast<char>(dpx::fuzz::take_byte(&data, &size));
  dpx::ScoreMatrix m;
  const dpx::Status s = dpx::ScoreMatrix::parse(std::string_view(reinterpret_cast<const char*>(data), size), wildcard, "fuzz", &m);
  if (!s.is_ok()) {
    if (s.message().empty()) std::abort();
    return 0;
  }
  if (m.size() < 1 || m.size() >= dpx::ScoreMatrix::kMaxLetters || m.wildcard() < 0 || m.wildcard() >= m.size()) std::abort();
  for (int i = 0; i < m.size(); ++i)
    for (int j = 0; j < m.size(); ++j)
      if (m.score(i, j) < m.min_score() || m.score(i, j) > m.max_score()) std::abort();
  for (int c = 0; c < 256; ++c)
    if (m.encode(static_cast<char>(c)) >= m.size()) std::abort();
  return 0;
}
