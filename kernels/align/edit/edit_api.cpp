// The public CUDA edit-distance calls: argument checks, then the launcher
// (kNotBuilt without the CUDA backend).
#include "cuda_backend.h"
#include "align/common/distance_checks.h"
#include "edit_cuda.h"
#include "dpx/align_distance.h"

namespace dpx {

Status edit_distance_cuda(const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                          const EditOptions& options, std::vector<EditResult>* out, cudaStream_t stream) {
  DPX_RETURN_IF_ERROR(align::check_edit_inputs(queries, targets, pairing, out, "edit_distance_cuda"));
  DPX_CUDA_BACKEND("edit_distance_cuda",
                   align::edit_distance_cuda_launch(queries, targets, pairing, options, out, stream));
}

Status edit_distance_cuda_async(const DeviceSequenceBatch& queries, const DeviceSequenceBatch& targets,
                                Pairing pairing, std::size_t max_length, std::int64_t* distances,
                                cudaStream_t stream) {
  DPX_RETURN_IF_ERROR(align::check_device_inputs(queries.size(), targets.size(), pairing, max_length, distances,
                                                 "edit_distance_cuda_async"));
  DPX_CUDA_BACKEND("edit_distance_cuda_async",
                   align::launch_edit_bitparallel(queries, targets, pairing, max_length, distances, stream));
}

}  // namespace dpx
