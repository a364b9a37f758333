#include "scratch.h"

#include <cuda_runtime_api.h>

#include <cstdint>
#include <map>
#include <mutex>

#include "cuda_check.h"

namespace dpx {
namespace runtime {
namespace {

// Memory a pool keeps mapped across synchronisations. The device's default pool keeps none, so
// every call would map its scratch again (for a call of a millisecond, a tenth of its time).
constexpr std::uint64_t kPoolKeepBytes = std::uint64_t{1} << 30;

// One pool per device, created on first use and kept for the life of the process; the stream's
// device, as cudaMallocAsync would take.
Status library_pool(cudaStream_t stream, cudaMemPool_t* pool) {
  static std::mutex mutex;
  static std::map<int, cudaMemPool_t> pools;
  int device = 0;
  DPX_CUDA_TRY(cudaStreamGetDevice(stream, &device));
  std::lock_guard<std::mutex> lock(mutex);
  const auto it = pools.find(device);
  if (it != pools.end()) {
    *pool = it->second;
    return Status::ok();
  }
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device;
  DPX_CUDA_TRY(cudaMemPoolCreate(pool, &props));
  std::uint64_t keep = kPoolKeepBytes;
  DPX_CUDA_TRY(cudaMemPoolSetAttribute(*pool, cudaMemPoolAttrReleaseThreshold, &keep));
  pools.emplace(device, *pool);
  return Status::ok();
}

}  // namespace

Status ScratchLease::acquire(std::size_t bytes, void** data) {
  *data = nullptr;
  if (bytes == 0) return Status::ok();
  if (caller_ != nullptr) {
    if (caller_->size() < bytes) DPX_RETURN_IF_ERROR(caller_->allocate(bytes));
    *data = caller_->data();
    return Status::ok();
  }
  DPX_RETURN_IF_ERROR(release());
  cudaMemPool_t pool = nullptr;
  DPX_RETURN_IF_ERROR(library_pool(stream_, &pool));
  DPX_CUDA_TRY(cudaMallocFromPoolAsync(&owned_, bytes, pool, stream_));
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
