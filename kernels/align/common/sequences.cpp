#include "dpx/sequences.h"

#include <string>

#include "cuda_backend.h"

namespace dpx {

Status validate_pairing(std::size_t queries, std::size_t targets, Pairing pairing, const char* what) {
  const std::string name(what);
  if (pairing == Pairing::kPairwise && queries != targets) {
    return invalid_argument(name + ": pairwise batches differ in size (" + std::to_string(queries) +
                            " queries, " + std::to_string(targets) + " targets)");
  }
  if (pairing == Pairing::kOneToMany && queries != 1) {
    return invalid_argument(name + ": one-to-many needs exactly one query, got " +
                            std::to_string(queries));
  }
  if (pairing != Pairing::kPairwise && pairing != Pairing::kOneToMany) {
    return invalid_argument(name + ": unknown pairing");
  }
  return Status::ok();
}

template <typename T>
Status DevicePackedBatch<T>::upload(const PackedBatch<T>& host, cudaStream_t stream) {
  if (!runtime::kCudaBuilt) return runtime::cuda_not_built("DevicePackedBatch::upload");
  count_ = 0;
  const std::size_t data_bytes = host.total_length() * sizeof(T);
  const std::size_t offset_bytes = host.offsets().size() * sizeof(std::uint64_t);
  // Never allocate zero bytes: an empty batch or one of empty sequences still gets valid pointers.
  DPX_RETURN_IF_ERROR(data_.allocate(data_bytes > 0 ? data_bytes : sizeof(T)));
  DPX_RETURN_IF_ERROR(offsets_.allocate(offset_bytes));
  DPX_RETURN_IF_ERROR(runtime::copy_to_device(data_.data(), host.data(), data_bytes, stream));
  DPX_RETURN_IF_ERROR(runtime::copy_to_device(offsets_.data(), host.offsets().data(), offset_bytes, stream));
  count_ = host.size();
  return Status::ok();
}

template class DevicePackedBatch<char>;
template class DevicePackedBatch<std::int32_t>;
template class DevicePackedBatch<float>;

}  // namespace dpx
