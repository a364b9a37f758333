// CIGAR text written during a walk back from (n, m) (last operation first), host and device.
#pragma once

#include <cstdint>

#include "dpx_ops.cuh"

namespace dpx {
namespace align {

// Upper bound on the CIGAR text of a pair at distance d: at most 2d + 1 runs (edit runs hold >= 1
// edit each, '=' runs lie between them) of <= 7 characters, and at most 2 characters per operation.
DPX_HD std::uint64_t cigar_text_bound(std::int64_t n, std::int64_t m, std::int64_t d) {
  const std::int64_t by_runs = 7 * (2 * d + 1), by_ops = 2 * (n + m);
  return static_cast<std::uint64_t>(by_runs < by_ops ? by_runs : by_ops);
}

// CIGAR text written during the walk back (last operation first): each run goes down reversed
// (letter, then digits lowest first), so the whole text read backwards is the CIGAR; close()
// flushes the last run and gives the length, and the caller reverses the text. Counts are 32-bit
// (a CIGAR of two 65,536-letter sequences has at most 262,144 characters): division by ten is then
// a multiply, not the 64-bit division routine.
struct ReversedCigarText {
  char* text;
  std::uint32_t length = 0, run = 0;
  char letter = 0;

  DPX_HD explicit ReversedCigarText(char* out) : text(out) {}
  DPX_HD void operator()(char op) {
    if (run > 0 && op != letter) flush();
    letter = op;
    ++run;
  }
  DPX_HD std::uint32_t close() {
    if (run > 0) flush();
    return length;
  }

 private:
  DPX_HD void flush() {
    text[length++] = letter;
    for (; run > 0; run /= 10) text[length++] = static_cast<char>('0' + run % 10);
  }
};

}  // namespace align
}  // namespace dpx
