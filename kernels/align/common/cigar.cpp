#include "cigar.h"

namespace dpx {
namespace align {
namespace {

// Encodes ops[first], ops[first + stride], ... (count letters); stride is +1 or -1.
std::string run_length_encode(const char* ops, std::ptrdiff_t first, std::ptrdiff_t stride, std::size_t count) {
  std::string cigar;
  std::size_t run = 0;
  char letter = 0;
  for (std::size_t k = 0; k < count; ++k) {
    const char op = ops[first + static_cast<std::ptrdiff_t>(k) * stride];
    if (run > 0 && op != letter) {
      cigar += std::to_string(run);
      cigar += letter;
      run = 0;
    }
    letter = op;
    ++run;
  }
  if (run > 0) {
    cigar += std::to_string(run);
    cigar += letter;
  }
  return cigar;
}

}  // namespace

std::string cigar_from_ops(const char* ops, std::size_t count) { return run_length_encode(ops, 0, 1, count); }

std::string cigar_from_reversed_ops(const char* ops, std::size_t count) {
  return run_length_encode(ops, static_cast<std::ptrdiff_t>(count) - 1, -1, count);
}

}  // namespace align
}  // namespace dpx
