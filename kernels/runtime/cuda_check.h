// Turns CUDA runtime errors into dpx::Status with the failing call, its error text and file:line.
// Only for files built with the CUDA backend.
#pragma once

#include <cuda_runtime_api.h>

#include <string>

#include "dpx/status.h"

namespace dpx {
namespace detail {

inline Status cuda_status(cudaError_t err, const char* what, const char* file, int line) {
  if (err == cudaSuccess) return Status::ok();
  const StatusCode code =
      err == cudaErrorMemoryAllocation ? StatusCode::kOutOfMemory : StatusCode::kCudaError;
  return Status(code, std::string(what) + ": " + cudaGetErrorName(err) + " (" +
                          cudaGetErrorString(err) + ") at " + file + ":" + std::to_string(line));
}

}  // namespace detail
}  // namespace dpx

// Evaluates a CUDA runtime call; returns a failed Status from the enclosing function on error.
#define DPX_CUDA_TRY(call) \
  DPX_RETURN_IF_ERROR(::dpx::detail::cuda_status((call), #call, __FILE__, __LINE__))

// Checks that the launch just made was accepted (bad configuration, missing kernel image, ...).
#define DPX_CUDA_CHECK_LAUNCH(kernel_name) \
  DPX_RETURN_IF_ERROR(::dpx::detail::cuda_status(cudaGetLastError(), "launch of " kernel_name, __FILE__, __LINE__))
