// The CUDA morphology launcher behind dpx::morph_cuda(), with the kernel variant exposed for the
// tests and dpx-bench (the public call always takes the default). Built only with CUDA.
#pragma once

#include "dpx/morphology.h"

namespace dpx {
namespace detail {

enum class MorphKernel {
  kDpx,       // packed 16-bit lanes, window max/min from the DPX three-operand instructions
  kPlain,     // the same kernel with two-operand max/min (what DPX itself brings)
  kByteSimd,  // u8 only: four samples per word, __vmaxu4 / __vminu4
};

// The variant dpx::morph_cuda() runs for u8 planes; u16 planes always run kDpx.
// Flip to MorphKernel::kDpx if the H200 measurement says so (docs/perf-morph.md).
constexpr MorphKernel kMorphDefaultU8 = MorphKernel::kDpx;

const char* morph_kernel_name(MorphKernel kernel);

// Runs all iterations on `stream`. Arguments must already have passed morph_validate();
// kByteSimd on u16 data fails with kUnsupported.
Status morph_cuda_launch(const PlaneView& src, const MutablePlaneView& dst, const MorphParams& params,
                         cudaStream_t stream, DeviceBuffer* scratch, MorphKernel kernel);

}  // namespace detail
}  // namespace dpx
