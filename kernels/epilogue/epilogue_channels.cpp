// RequantChannels: the per-channel bias / shift table, checked on the host, copied to the device.
#include <string>

#include "dpx/epilogue.h"

#include "cuda_backend.h"

namespace dpx {

Status RequantChannels::set(std::size_t channels, const std::int32_t* bias, const std::int32_t* shifts) {
  entries_.clear();
  has_bias_ = has_shifts_ = has_unshifted_bias_ = uploaded_ = false;
  if (bias == nullptr && shifts == nullptr) {
    return invalid_argument("requant channels: neither a bias nor shifts given");
  }
  if (channels == 0) return invalid_argument("requant channels: C = 0 with a bias or shifts");
  if (channels > kMaxChannels) {
    return invalid_argument("requant channels: C = " + std::to_string(channels) + " exceeds " +
                            std::to_string(kMaxChannels));
  }
  for (std::size_t c = 0; shifts != nullptr && c < channels; ++c) {
    if (shifts[c] < 0 || shifts[c] > 31) {
      return invalid_argument("requant channels: shift " + std::to_string(shifts[c]) + " of channel " +
                              std::to_string(c) + " outside 0..31");
    }
  }
  entries_.resize(channels);
  for (std::size_t c = 0; c < channels; ++c) {
    entries_[c].bias = bias != nullptr ? bias[c] : 0;
    entries_[c].shift = shifts != nullptr ? shifts[c] : 0;
    if (shifts != nullptr && entries_[c].shift == 0 && entries_[c].bias != 0) has_unshifted_bias_ = true;
  }
  has_bias_ = bias != nullptr;
  has_shifts_ = shifts != nullptr;
  return Status::ok();
}

Status RequantChannels::upload(cudaStream_t stream) {
  if (!runtime::kCudaBuilt) return runtime::cuda_not_built("requant channels: upload");
  uploaded_ = false;
  if (entries_.empty()) return invalid_argument("requant channels: upload() before a successful set()");
  const std::size_t bytes = entries_.size() * sizeof(RequantChannel);
  if (device_.size() != bytes) DPX_RETURN_IF_ERROR(device_.allocate(bytes));
  // From pageable memory: the runtime may wait for the stream to stage it (a one-off setup step).
  DPX_RETURN_IF_ERROR(runtime::copy_to_device(device_.data(), entries_.data(), bytes, stream));
  uploaded_ = true;
  return Status::ok();
}

}  // namespace dpx
