// CIGAR strings from alignment operations, one letter per aligned column ('=', 'X', 'I', 'D', ...):
// runs of the same letter become "<count><letter>", e.g. "==X==I" -> "2=1X2=1I".
#pragma once

#include <cstddef>
#include <string>

namespace dpx {
namespace align {

// Operations in alignment order.
std::string cigar_from_ops(const char* ops, std::size_t count);

// Operations stored last to first, as a traceback produces them.
std::string cigar_from_reversed_ops(const char* ops, std::size_t count);

}  // namespace align
}  // namespace dpx
