// The CUDA morphology launcher behind dpx::morph_cuda(), with the kernel variant and the schedule
// exposed for the tests and dpx-bench (the public call always takes the defaults). The launcher
// is built only with CUDA; the enums are plain C++ (the host emulation test uses them too).
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

// How a block moves through its column of the plane (morph_band.cuh; docs/perf-morph.md):
enum class MorphSchedule {
  kStream,  // a tall band per block (about two blocks per SM), rows streamed through a ring in
            // shared memory two groups of 32 rows ahead: loads overlap compute and stores
  kSplit,   // 64-row tiles loaded as two groups: the top half is filtered while the bottom loads
  kTile32,  // 32-row tiles, one load: twice the blocks of kTile64
  kTile64,  // 64-row tiles, one load, then compute, then store (the first version). Built for the
            // cases dpx-bench times only: Dpx policy, one channel, rect (else kUnsupported)
};

// The schedule dpx::morph_cuda() runs: the fastest on the H200 for every measured case
// (4K GRAY8 3x3: tile32 13.5 us, split 16.0-16.3, tile64 14.6-16.3, stream 19.2; docs/performance.md).
constexpr MorphSchedule kMorphDefaultSchedule = MorphSchedule::kTile32;

constexpr const char* morph_schedule_name(MorphSchedule schedule) {
  return schedule == MorphSchedule::kStream  ? "stream"
         : schedule == MorphSchedule::kSplit ? "split"
         : schedule == MorphSchedule::kTile32 ? "tile32"
                                              : "tile64";
}

// Runs all iterations on `stream`. Arguments must already have passed morph_validate();
// kByteSimd on u16 data and kTile64 outside its cases fail with kUnsupported.
Status morph_cuda_launch(const PlaneView& src, const MutablePlaneView& dst, const MorphParams& params,
                         cudaStream_t stream, DeviceBuffer* scratch, MorphKernel kernel,
                         MorphSchedule schedule = kMorphDefaultSchedule);

}  // namespace detail
}  // namespace dpx
