// The public CUDA DTW calls: argument checks, then the launcher
// (kNotBuilt without the CUDA backend).
#include "cuda_backend.h"
#include "align/common/distance_checks.h"
#include "dtw_cuda.h"
#include "dpx/align_distance.h"

namespace dpx {

Status dtw_cuda(const SeriesBatch& a, const SeriesBatch& b, Pairing pairing, const DtwOptions& options,
                std::vector<DtwResult>* out, cudaStream_t stream) {
  DPX_RETURN_IF_ERROR(align::check_dtw_inputs(a, b, pairing, options, out, "dtw_cuda"));
  DPX_CUDA_BACKEND("dtw_cuda", align::dtw_cuda_launch(a, b, pairing, options, out, stream));
}

Status dtw_cuda_async(const DeviceSeriesBatch& a, const DeviceSeriesBatch& b, Pairing pairing,
                      const DtwOptions& options, std::size_t max_length, std::int64_t* costs, cudaStream_t stream) {
  DPX_RETURN_IF_ERROR(align::check_dtw_device_inputs(a.size(), b.size(), pairing, options, max_length, costs,
                                                     "dtw_cuda_async"));
  DPX_CUDA_BACKEND("dtw_cuda_async", align::launch_dtw(a, b, pairing, options, max_length, costs, stream));
}

Status dtw_float_cuda(const FloatSeriesBatch& a, const FloatSeriesBatch& b, Pairing pairing,
                      const DtwFloatOptions& options, std::vector<float>* costs, cudaStream_t stream) {
  DPX_RETURN_IF_ERROR(align::check_dtw_float_inputs(a, b, pairing, options, costs, "dtw_float_cuda"));
  DPX_CUDA_BACKEND("dtw_float_cuda", align::dtw_float_cuda_launch(a, b, pairing, options, costs, stream));
}

Status dtw_float_cuda_async(const DeviceFloatSeriesBatch& a, const DeviceFloatSeriesBatch& b, Pairing pairing,
                            const DtwFloatOptions& options, std::size_t max_length, float* costs,
                            cudaStream_t stream) {
  DPX_RETURN_IF_ERROR(align::check_dtw_float_options(options, "dtw_float_cuda_async"));
  DPX_RETURN_IF_ERROR(
      align::check_device_inputs(a.size(), b.size(), pairing, max_length, costs, "dtw_float_cuda_async"));
  DPX_CUDA_BACKEND("dtw_float_cuda_async", align::launch_dtw_float(a, b, pairing, options, max_length, costs, stream));
}

}  // namespace dpx
