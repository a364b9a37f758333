#include "scratch.h"

#include <cuda_runtime_api.h>

#include "cuda_check.h"

namespace dpx {
namespace runtime {

Status ScratchLease::acquire(std::size_t bytes, void** data) {
  *data = nullptr;
  if (bytes == 0) return Status::ok();
  if (caller_ != nullptr) {
    if (caller_->size() < bytes) DPX_RETURN_IF_ERROR(caller_->allocate(bytes));
    *data = caller_->data();
    return Status::ok();
  }
  DPX_RETURN_IF_ERROR(release());
  DPX_CUDA_TRY(cudaMallocAsync(&owned_, bytes, stream_));
  *data = owned_;
  return Status::ok();
}

Status ScratchLease::release() {
  if (owned_ == nullptr) return Status::ok();
  void* p = owned_;
  owned_ = nullptr;
  DPX_CUDA_TRY(cudaFreeAsync(p, stream_));
  return Status::ok();
}

}  // namespace runtime
}  // namespace dpx
