// CUDA runtime errors as dpx::Status, for the plugin's own runtime calls (staging copies, the
// motion reference). Only for files built with the CUDA backend.
#pragma once

#include <cuda_runtime_api.h>

#include <string>

#include "dpx/status.h"

namespace gstdpx {

inline dpx::Status cuda_status(cudaError_t err, const char* what) {
  if (err == cudaSuccess) return dpx::Status::ok();
  const dpx::StatusCode code =
      err == cudaErrorMemoryAllocation ? dpx::StatusCode::kOutOfMemory : dpx::StatusCode::kCudaError;
  return dpx::Status(code, std::string(what) + ": " + cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ")");
}

}  // namespace gstdpx

// Evaluates a CUDA runtime call; returns a failed Status from the enclosing function on error.
#define GSTDPX_CUDA_TRY(call) DPX_RETURN_IF_ERROR(::gstdpx::cuda_status((call), #call))
