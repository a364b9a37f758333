// Alignment variants that only dpx-bench and the tests run (the internal dpx_variants library,
// CUDA builds only): the public calls always take the DPX kernels and the bit-vector CIGAR walk.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "dpx/align.h"
#include "dpx/align_distance.h"
#include "ops_policy.h"

namespace dpx {
namespace variants {

// AlignPlan::run with the op policy chosen; kPlain is built for local plans only.
Status run_align_plan(OpsPolicy policy, const AlignPlan& plan, const DeviceSequenceBatch& queries,
                      const DeviceSequenceBatch& targets, DeviceAlignResults* out, cudaStream_t stream);

// AlignPlan::run with the database scan reading a query profile (sw_scan_profile.h) instead of the
// paired table, for plans that run the scan and queries whose profile fits a block's shared
// memory; other plans and queries run AlignPlan::run. The same scores; the profile and column
// store are kept between calls (grown, never shrunk), so one object serves one stream.
class ProfileScan {
 public:
  Status run(const AlignPlan& plan, const DeviceSequenceBatch& queries, const DeviceSequenceBatch& targets,
             DeviceAlignResults* out, cudaStream_t stream);

 private:
  DeviceBuffer profile_, store_;
};

// Distances by the DP score kernels (the public asynchronous call runs the bit-parallel ones).
Status launch_edit_distance(OpsPolicy policy, const DeviceSequenceBatch& queries, const DeviceSequenceBatch& targets,
                            Pairing pairing, std::size_t max_length, std::int64_t* distances, cudaStream_t stream);

// Distances and CIGARs of batches already uploaded (dq, dt: copies of queries, targets), written
// into `results` (sized to the pair count); synchronises `stream`. kBitVector: what
// edit_distance_cuda runs (the walk back through the bit-parallel columns); kFullDp: every cell of
// every pair with its direction codes. Both give the same CIGARs.
enum class CigarPath { kBitVector, kFullDp };
Status edit_cigar_cuda(CigarPath path, const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                       const DeviceSequenceBatch& dq, const DeviceSequenceBatch& dt, std::vector<EditResult>* results,
                       cudaStream_t stream);

// dtw_cuda_async with the op policy chosen.
Status launch_dtw(OpsPolicy policy, const DeviceSeriesBatch& a, const DeviceSeriesBatch& b, Pairing pairing,
                  const DtwOptions& options, std::size_t max_length, std::int64_t* costs, cudaStream_t stream);

}  // namespace variants
}  // namespace dpx
