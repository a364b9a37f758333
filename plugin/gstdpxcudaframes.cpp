#include "gstdpxcudaframes.h"

#include <cuda_runtime_api.h>

#include "dpx/cuda_status.h"

namespace gstdpx {
namespace {

dpx::Status make_event(cudaEvent_t* event) {
  if (*event == nullptr) DPX_CUDA_TRY(cudaEventCreateWithFlags(event, cudaEventDisableTiming));
  return dpx::Status::ok();
}

void destroy_event(cudaEvent_t* event) {
  if (*event != nullptr) cudaEventDestroy(*event);
  *event = nullptr;
}

}  // namespace

dpx::Status CudaFrames::ensure(unsigned slots) {
  if (work_.get() == nullptr) {
    DPX_RETURN_IF_ERROR(upload_.create());
    DPX_RETURN_IF_ERROR(work_.create());
  }
  DPX_RETURN_IF_ERROR(make_event(&uploaded_));
  if (slots_.size() < slots) slots_.resize(slots);
  for (Slot& s : slots_) DPX_RETURN_IF_ERROR(make_event(&s.done));
  return dpx::Status::ok();
}

void CudaFrames::release() {
  for (Slot& s : slots_) {
    s.stager.release();
    destroy_event(&s.done);
  }
  slots_.clear();
  destroy_event(&uploaded_);
  upload_.reset();
  work_.reset();
}

dpx::Status CudaFrames::work_after_uploads() {
  DPX_CUDA_TRY(cudaEventRecord(uploaded_, upload_.get()));
  DPX_CUDA_TRY(cudaStreamWaitEvent(work_.get(), uploaded_, 0));
  return dpx::Status::ok();
}

dpx::Status CudaFrames::record(unsigned slot) {
  DPX_CUDA_TRY(cudaEventRecord(slots_[slot].done, work_.get()));
  return dpx::Status::ok();
}

dpx::Status CudaFrames::wait(unsigned slot) {
  DPX_CUDA_TRY(cudaEventSynchronize(slots_[slot].done));
  return dpx::Status::ok();
}

}  // namespace gstdpx
