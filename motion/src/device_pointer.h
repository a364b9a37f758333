// A check that a pointer can be read by the GPU before a kernel uses it: a host pointer handed to
// the CUDA entry points becomes an error Status instead of a fault that poisons the context.
#pragma once

#include "dpx/status.h"

namespace dpx {
namespace motion_detail {

Status check_device_pointer(const void* p, const char* what);

}  // namespace motion_detail
}  // namespace dpx
