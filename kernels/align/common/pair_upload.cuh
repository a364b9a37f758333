// Host batches copied into stream-ordered scratch and viewed as pairs: the host-batch edit call's
// upload. The scratch comes from the library's pool, so a repeated call allocates nothing from the
// driver (a DeviceSequenceBatch's buffers are cudaMalloc'd and freed, which synchronise).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "cuda_check.h"
#include "dpx/sequences.h"
#include "pair_batch.cuh"
#include "scratch.h"

namespace dpx {
namespace align {

template <typename T>
class PairUpload {
 public:
  explicit PairUpload(cudaStream_t stream) : stream_(stream), queries_(nullptr, stream), targets_(nullptr, stream) {}

  Status upload(const PackedBatch<T>& queries, const PackedBatch<T>& targets, Pairing pairing) {
    DPX_RETURN_IF_ERROR(copy(queries, &queries_, &view_.query_data, &view_.query_offsets));
    DPX_RETURN_IF_ERROR(copy(targets, &targets_, &view_.target_data, &view_.target_offsets));
    view_.pairs = static_cast<std::int64_t>(pair_count(queries.size(), targets.size(), pairing));
    view_.one_to_many = pairing == Pairing::kOneToMany;
    return Status::ok();
  }
  const PairBatchView<T>& view() const { return view_; }

 private:
  // One lease a batch: its offsets, then its elements.
  Status copy(const PackedBatch<T>& host, runtime::ScratchLease* lease, const T** data,
              const std::uint64_t** offsets) {
    const std::size_t offset_bytes = host.offsets().size() * sizeof(std::uint64_t);
    const std::size_t data_bytes = host.total_length() * sizeof(T);
    std::uint64_t* device = nullptr;
    DPX_RETURN_IF_ERROR(lease->acquire_array(host.offsets().size() + (data_bytes + 7) / 8 + 1, &device));
    DPX_CUDA_TRY(cudaMemcpyAsync(device, host.offsets().data(), offset_bytes, cudaMemcpyHostToDevice, stream_));
    T* elements = reinterpret_cast<T*>(device + host.offsets().size());
    if (data_bytes > 0) {
      DPX_CUDA_TRY(cudaMemcpyAsync(elements, host.data(), data_bytes, cudaMemcpyHostToDevice, stream_));
    }
    *offsets = device;
    *data = elements;
    return Status::ok();
  }

  cudaStream_t stream_;
  runtime::ScratchLease queries_, targets_;
  PairBatchView<T> view_;
};

}  // namespace align
}  // namespace dpx
