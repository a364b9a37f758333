// 32-bit score and traceback-direction kernels.
#define DPX_ALIGN_INSTANTIATING
#include "sw_instances.h"

namespace dpx {
namespace align {

DPX_ALIGN_SCORE32(, true)
DPX_ALIGN_SCORE32(, false)

}  // namespace align
}  // namespace dpx
