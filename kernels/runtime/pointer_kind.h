// Which memory a pointer points to, asked of the CUDA runtime: the one check every CUDA entry
// point makes before a kernel reads a caller's pointer, so a host pointer becomes a Status
// instead of a fault that poisons the context. CUDA builds only.
#pragma once

#include "dpx/status.h"

namespace dpx {
namespace runtime {

enum class PointerKind {
  kPageable,  // ordinary host memory, unknown to CUDA
  kPinned,    // page-locked host memory (cudaHostAlloc / cudaHostRegister)
  kDevice,    // cudaMalloc
  kManaged,   // cudaMallocManaged
};

Status pointer_kind(const void* p, PointerKind* kind);

// Fails with kInvalidArgument when the current device cannot read `p` from a kernel: pageable
// memory on a device without pageable-memory access. `what` and `name` start the message.
Status check_device_readable(const void* p, const char* what, const char* name);

}  // namespace runtime
}  // namespace dpx
