// libdpx's CUDA checks: DPX_CUDA_TRY around runtime calls (public, dpx/cuda_status.h) and the check
// after a kernel launch. Only for files built with the CUDA backend.
#pragma once

#include "dpx/cuda_status.h"

// Checks that the launch just made was accepted (bad configuration, missing kernel image, ...), or
// makes it fail when fault injection says so.
#define DPX_CUDA_CHECK_LAUNCH(kernel_name)                                                                 \
  DPX_RETURN_IF_ERROR(::dpx::cuda_status(DPX_CUDA_RESULT_AS(cudaGetLastError(), "launch of " kernel_name), \
                                         "launch of " kernel_name, __FILE__, __LINE__))
