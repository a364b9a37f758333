// The substitution tables the kernels' scorers read (sw_strip.h), built on the host. The padding
// letter D - 1 (D = alphabet + 1) scores 0 against everything; sizes are rounded up to 16 bytes.
#pragma once

#include <cstdint>
#include <vector>

#include "dpx/align.h"

namespace dpx {
namespace align {

std::vector<std::uint32_t> paired_table(const ScoreMatrix& m);      // PairedScorer
std::vector<std::int16_t> two_lookup_table(const ScoreMatrix& m);   // TwoLookupScorer
std::vector<std::int32_t> single_table(const ScoreMatrix& m);       // SingleScorer

}  // namespace align
}  // namespace dpx
