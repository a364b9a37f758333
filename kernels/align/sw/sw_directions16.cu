// Packed 16-bit traceback-direction kernels.
#define DPX_ALIGN_INSTANTIATING
#include "sw_instances.h"

namespace dpx {
namespace align {

DPX_ALIGN_DIRECTIONS(, PairedScorer, true)
DPX_ALIGN_DIRECTIONS(, PairedScorer, false)
DPX_ALIGN_DIRECTIONS(, TwoLookupScorer, true)
DPX_ALIGN_DIRECTIONS(, TwoLookupScorer, false)

}  // namespace align
}  // namespace dpx
