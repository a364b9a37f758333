// CUDA runtime errors as dpx::Status: the failing call, the error's name and text, and file:line.
// For code built with the CUDA toolkit — libdpx's CUDA files and users that make CUDA runtime calls
// of their own beside libdpx (the GStreamer plugin's copies and events); the rest of the public API
// needs no CUDA header.
#pragma once

#include <cuda_runtime_api.h>

#include <string>

#include "dpx/status.h"

namespace dpx {

inline Status cuda_status(cudaError_t err, const char* what, const char* file, int line) {
  if (err == cudaSuccess) return Status::ok();
  const StatusCode code =
      err == cudaErrorMemoryAllocation ? StatusCode::kOutOfMemory : StatusCode::kCudaError;
  return Status(code, std::string(what) + ": " + cudaGetErrorName(err) + " (" +
                          cudaGetErrorString(err) + ") at " + file + ":" + std::to_string(line));
}

}  // namespace dpx

// Evaluates a CUDA runtime call; returns a failed Status from the enclosing function on error.
#define DPX_CUDA_TRY(call) DPX_RETURN_IF_ERROR(::dpx::cuda_status((call), #call, __FILE__, __LINE__))
