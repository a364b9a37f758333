// Asynchronous launchers of the edit-distance and DTW kernels. The DP kernels take an operation
// policy: the public DTW call uses DPX; the benchmark also runs the identical kernels with plain
// two-operand min/max to show what the DPX instructions bring. Inputs are validated here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "dpx/align_distance.h"
#include "ops_policy.h"

namespace dpx {
namespace align {

Status launch_edit_distance(const DeviceSequenceBatch& queries, const DeviceSequenceBatch& targets, Pairing pairing,
                            std::size_t max_length, std::int64_t* distances, OpsPolicy policy, cudaStream_t stream);

// Unit-cost distances by the bit-parallel kernels (what edit_distance_cuda_async runs).
Status launch_edit_bitparallel(const DeviceSequenceBatch& queries, const DeviceSequenceBatch& targets, Pairing pairing,
                               std::size_t max_length, std::int64_t* distances, cudaStream_t stream);

// Distances and CIGARs of batches already uploaded (dq, dt: copies of queries, targets), written
// into `results` (sized to the pair count); synchronises `stream`. kBanded (what edit_distance_cuda
// runs): bit-parallel distances, then the DP in the band around each (edit_band_cuda.cu); kFullDp:
// every cell of every pair (edit_cuda.cu). Both give the same CIGARs.
enum class CigarPath { kBanded, kFullDp };
Status edit_cigar_cuda(const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                       const DeviceSequenceBatch& dq, const DeviceSequenceBatch& dt, CigarPath path,
                       std::vector<EditResult>* results, cudaStream_t stream);
Status edit_cigar_banded(const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                         const DeviceSequenceBatch& dq, const DeviceSequenceBatch& dt, std::vector<EditResult>* results,
                         cudaStream_t stream);

Status launch_dtw(const DeviceSeriesBatch& a, const DeviceSeriesBatch& b, Pairing pairing, const DtwOptions& options,
                  std::size_t max_length, std::int64_t* costs, OpsPolicy policy, cudaStream_t stream);

Status launch_dtw_float(const DeviceFloatSeriesBatch& a, const DeviceFloatSeriesBatch& b, Pairing pairing,
                        const DtwFloatOptions& options, std::size_t max_length, float* costs, cudaStream_t stream);

}  // namespace align
}  // namespace dpx
