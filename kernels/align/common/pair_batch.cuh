// Read-only view of two packed batches and their pairing, usable on the host and the device: the
// batches' data and offsets (host or device pointers) and which query goes with which target.
#pragma once

#include <cstdint>

#include "dpx/sequences.h"
#include "dpx_ops.cuh"

namespace dpx {
namespace align {

template <typename T>
struct PairBatchView {
  const T* query_data = nullptr;
  const std::uint64_t* query_offsets = nullptr;
  const T* target_data = nullptr;
  const std::uint64_t* target_offsets = nullptr;
  std::int64_t pairs = 0;
  bool one_to_many = false;  // every pair uses query 0

  struct Side {
    const T* data;
    std::int64_t length;
  };
  DPX_HD Side query(std::int64_t pair) const { return side(query_data, query_offsets, one_to_many ? 0 : pair); }
  DPX_HD Side target(std::int64_t pair) const { return side(target_data, target_offsets, pair); }

 private:
  static DPX_HD Side side(const T* data, const std::uint64_t* offsets, std::int64_t i) {
    return Side{data + offsets[i], static_cast<std::int64_t>(offsets[i + 1] - offsets[i])};
  }
};

// View of two batches in device memory.
template <typename T>
PairBatchView<T> make_device_view(const DevicePackedBatch<T>& queries, const DevicePackedBatch<T>& targets,
                                  Pairing pairing) {
  PairBatchView<T> v;
  v.query_data = queries.data();
  v.query_offsets = queries.offsets();
  v.target_data = targets.data();
  v.target_offsets = targets.offsets();
  v.pairs = static_cast<std::int64_t>(pair_count(queries.size(), targets.size(), pairing));
  v.one_to_many = pairing == Pairing::kOneToMany;
  return v;
}

}  // namespace align
}  // namespace dpx
