// The CUDA launchers behind the public DTW calls (dtw_api.cpp checks the arguments first, so these
// do not). Defined with the CUDA backend only; always the DPX kernels. The plain-op variants are in
// align_variants.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "dpx/align_distance.h"

namespace dpx {
namespace align {

Status launch_dtw(const DeviceSeriesBatch& a, const DeviceSeriesBatch& b, Pairing pairing, const DtwOptions& options,
                  std::size_t max_length, std::int64_t* costs, cudaStream_t stream);
Status launch_dtw_float(const DeviceFloatSeriesBatch& a, const DeviceFloatSeriesBatch& b, Pairing pairing,
                        const DtwFloatOptions& options, std::size_t max_length, float* costs, cudaStream_t stream);

// The host-batch forms: upload, launch, copy back, wait for `stream`.
Status dtw_cuda_launch(const SeriesBatch& a, const SeriesBatch& b, Pairing pairing, const DtwOptions& options,
                       std::vector<DtwResult>* out, cudaStream_t stream);
Status dtw_float_cuda_launch(const FloatSeriesBatch& a, const FloatSeriesBatch& b, Pairing pairing,
                             const DtwFloatOptions& options, std::vector<float>* costs, cudaStream_t stream);

}  // namespace align
}  // namespace dpx
