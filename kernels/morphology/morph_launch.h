// The CUDA morphology launcher behind dpx::morph_cuda() (DPX lanes, the default schedule) and the
// schedules a block can move through its column with; the variants (other lanes, other schedules)
// are in morph_variants.h. The launcher is built only with CUDA; the enum is plain C++ (the host
// emulation test uses it too).
#pragma once

#include "dpx/morphology.h"

namespace dpx {
namespace detail {

// How a block moves through its column of the plane (morph_band.cuh; docs/perf-morph.md):
enum class MorphSchedule {
  kStream,  // a tall band per block (about two blocks per SM), rows streamed through a ring in
            // shared memory two groups of 32 rows ahead: loads overlap compute and stores
  kSplit,   // 64-row tiles loaded as two groups: the top half is filtered while the bottom loads
  kTile32,  // 32-row tiles, one load: twice the blocks of kTile64
  kTile64,  // 64-row tiles, one load, then compute, then store (the first version). Built for the
            // cases dpx-bench times only: Dpx policy, one channel, rect (else kUnsupported)
  kRegisters,  // no shared memory: a warp's input rows loaded into registers at once, the
               // horizontal halo by shuffles (morph_rows.cuh); 4 output rows a lane
  kRegisters2,  // the same with 2 output rows a lane: every case of u16 planes; of u8 planes
                // only kTile64's cases
};

// The output rows a lane and the schedule dpx::morph_cuda() runs for planes of `type` (one call,
// 4K: GRAY8 3x3 registers 7.29-7.33 us, registers2 7.24-7.31, tile32 13.1-13.9; GRAY16 3x3
// registers2 11.16-11.36, registers 11.42-11.49). GRAY8 5x5 runs faster at two rows (8.13 against
// 8.35-8.39 us), which the variants build for one channel and rect only: the library's u8
// instances stay at four rows (docs/perf-morph.md, ninth version).
constexpr int morph_default_rows(SampleType type) { return type == SampleType::kU16 ? 2 : 4; }
constexpr MorphSchedule morph_default_schedule(SampleType type) {
  return morph_default_rows(type) == 2 ? MorphSchedule::kRegisters2 : MorphSchedule::kRegisters;
}

constexpr const char* morph_schedule_name(MorphSchedule schedule) {
  return schedule == MorphSchedule::kStream  ? "stream"
         : schedule == MorphSchedule::kSplit ? "split"
         : schedule == MorphSchedule::kTile32 ? "tile32"
         : schedule == MorphSchedule::kTile64 ? "tile64"
         : schedule == MorphSchedule::kRegisters ? "registers"
                                                 : "registers2";
}

// Runs all iterations on `stream` with the DPX kernels and morph_default_schedule(). Arguments must
// already have passed morph_validate().
Status morph_cuda_launch(const PlaneView& src, const MutablePlaneView& dst, const MorphParams& params,
                         cudaStream_t stream, DeviceBuffer* scratch);

}  // namespace detail
}  // namespace dpx
