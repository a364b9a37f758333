// Packed 16-bit score kernels, pairwise batches.
#define DPX_ALIGN_INSTANTIATING
#include "sw_instances.h"

namespace dpx {
namespace align {
DPX_ALIGN_SCORE16(, TwoLookupScorer, true)
DPX_ALIGN_SCORE16(, TwoLookupScorer, false)
}  // namespace align
}  // namespace dpx
