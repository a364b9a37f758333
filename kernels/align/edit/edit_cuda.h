// The CUDA launchers behind the public edit-distance calls (edit_api.cpp checks the arguments
// first, so these do not). Defined with the CUDA backend only; always the DPX kernels. The
// plain-op and full-DP variants are in align_variants.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "dpx/align_distance.h"

namespace dpx {
namespace align {

// Unit-cost distances by the bit-parallel kernels (edit_distance_cuda_async).
Status launch_edit_bitparallel(const DeviceSequenceBatch& queries, const DeviceSequenceBatch& targets, Pairing pairing,
                               std::size_t max_length, std::int64_t* distances, cudaStream_t stream);

// The host-batch form: upload, launch, copy back, wait for `stream`.
Status edit_distance_cuda_launch(const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                                 const EditOptions& options, std::vector<EditResult>* out, cudaStream_t stream);

}  // namespace align
}  // namespace dpx
