// CUDA runtime errors as dpx::Status: the failing call, the error's name and text, and file:line.
// For code built with the CUDA toolkit — libdpx's CUDA files and users that make CUDA runtime calls
// of their own beside libdpx (the GStreamer plugin's copies and events); the rest of the public API
// needs no CUDA header.
#pragma once

#include <cuda_runtime_api.h>

#include <string>

#include "dpx/fault_injection.h"
#include "dpx/status.h"

namespace dpx {

inline Status cuda_status(cudaError_t err, const char* what, const char* file, int line) {
  if (err == cudaSuccess) return Status::ok();
  const StatusCode code =
      err == cudaErrorMemoryAllocation ? StatusCode::kOutOfMemory : StatusCode::kCudaError;
  return Status(code, std::string(what) + ": " + cudaGetErrorName(err) + " (" +
                          cudaGetErrorString(err) + ") at " + file + ":" + std::to_string(line));
}

// The error fault injection (dpx/fault_injection.h) puts in place of `call` when it is due, else
// cudaSuccess: the allocation, copy or launch failed as CUDA would report it.
inline cudaError_t injected_cuda_error(const char* call) {
  if (!fault_injection_armed()) return cudaSuccess;
  switch (fault_due(call)) {
    case Fault::kAlloc: return cudaErrorMemoryAllocation;
    case Fault::kCopy: return cudaErrorUnknown;
    case Fault::kLaunch: return cudaErrorLaunchFailure;
    case Fault::kNone: break;
  }
  return cudaSuccess;
}

}  // namespace dpx

// The result of a CUDA runtime call described by `name`, or the error fault injection gives it
// (the call is then not made).
#define DPX_CUDA_RESULT_AS(call, name)                                        \
  [&]() -> cudaError_t {                                                      \
    const cudaError_t dpx_injected_ = ::dpx::injected_cuda_error(name);      \
    return dpx_injected_ != cudaSuccess ? dpx_injected_ : (call);             \
  }()

// Evaluates a CUDA runtime call; returns a failed Status from the enclosing function on error.
#define DPX_CUDA_TRY(call) \
  DPX_RETURN_IF_ERROR(::dpx::cuda_status(DPX_CUDA_RESULT_AS(call, #call), #call, __FILE__, __LINE__))
