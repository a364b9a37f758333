// The CUDA forms of edit distance and DTW in a build without CUDA: they say so.
#include "dpx/align_distance.h"

namespace dpx {
namespace {

Status not_built(const char* what) {
  return Status(StatusCode::kNotBuilt, std::string(what) + ": libdpx was built without CUDA support");
}

}  // namespace

Status edit_distance_cuda(const SequenceBatch&, const SequenceBatch&, Pairing, const EditOptions&,
                          std::vector<EditResult>*, cudaStream_t) {
  return not_built("edit_distance_cuda");
}

Status edit_distance_cuda_async(const DeviceSequenceBatch&, const DeviceSequenceBatch&, Pairing, std::size_t,
                                std::int64_t*, cudaStream_t) {
  return not_built("edit_distance_cuda_async");
}

Status dtw_cuda(const SeriesBatch&, const SeriesBatch&, Pairing, const DtwOptions&, std::vector<DtwResult>*,
                cudaStream_t) {
  return not_built("dtw_cuda");
}

Status dtw_cuda_async(const DeviceSeriesBatch&, const DeviceSeriesBatch&, Pairing, const DtwOptions&, std::size_t,
                      std::int64_t*, cudaStream_t) {
  return not_built("dtw_cuda_async");
}

Status dtw_float_cuda(const FloatSeriesBatch&, const FloatSeriesBatch&, Pairing, const DtwFloatOptions&,
                      std::vector<float>*, cudaStream_t) {
  return not_built("dtw_float_cuda");
}

Status dtw_float_cuda_async(const DeviceFloatSeriesBatch&, const DeviceFloatSeriesBatch&, Pairing,
                            const DtwFloatOptions&, std::size_t, float*, cudaStream_t) {
  return not_built("dtw_float_cuda_async");
}

}  // namespace dpx
