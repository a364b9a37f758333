// Packed 16-bit score kernels, one query against many targets.
#define DPX_ALIGN_INSTANTIATING
#include "sw_instances.h"

namespace dpx {
namespace align {
DPX_ALIGN_SCORE16(, PairedScorer, true)
DPX_ALIGN_SCORE16(, PairedScorer, false)
}  // namespace align
}  // namespace dpx
