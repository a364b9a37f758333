// Asynchronous launchers of the edit-distance and DTW kernels with a choice of operation policy:
// the public *_cuda_async calls use DPX; the benchmark also runs the identical kernels with plain
// two-operand min/max to show what the DPX instructions bring. Inputs are validated here.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dpx/align_distance.h"
#include "ops_policy.h"

namespace dpx {
namespace align {

Status launch_edit_distance(const DeviceSequenceBatch& queries, const DeviceSequenceBatch& targets, Pairing pairing,
                            std::size_t max_length, std::int64_t* distances, OpsPolicy policy, cudaStream_t stream);

Status launch_dtw(const DeviceSeriesBatch& a, const DeviceSeriesBatch& b, Pairing pairing, const DtwOptions& options,
                  std::size_t max_length, std::int64_t* costs, OpsPolicy policy, cudaStream_t stream);

}  // namespace align
}  // namespace dpx
