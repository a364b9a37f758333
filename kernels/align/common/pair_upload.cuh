// Host batches copied into stream-ordered scratch and viewed as pairs: the upload of the host-batch
// calls. The scratch comes from the library's pool, so a repeated call allocates nothing from the
// driver (a DevicePackedBatch's buffers are cudaMalloc'd and freed, which synchronise).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

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

// The host-batch form of a kernel that writes one value a pair: both batches uploaded, then
// launch(view, out) into stream-ordered scratch, the values copied back into `host` (sized to the
// pair count, at least one); synchronises `stream`.
template <typename T, typename V, class Launch>
Status run_host_batch(const PackedBatch<T>& queries, const PackedBatch<T>& targets, Pairing pairing,
                      std::vector<V>* host, cudaStream_t stream, const Launch& launch) {
  PairUpload<T> upload(stream);
  DPX_RETURN_IF_ERROR(upload.upload(queries, targets, pairing));
  runtime::ScratchLease lease(nullptr, stream);
  V* out = nullptr;
  DPX_RETURN_IF_ERROR(lease.acquire_array(host->size(), &out));
  DPX_RETURN_IF_ERROR(launch(upload.view(), out));
  DPX_CUDA_TRY(cudaMemcpyAsync(host->data(), out, host->size() * sizeof(V), cudaMemcpyDeviceToHost, stream));
  DPX_CUDA_TRY(cudaStreamSynchronize(stream));
  return Status::ok();
}

}  // namespace align
}  // namespace dpx
