// The CUDA morphology launcher behind dpx::morph_cuda() (DPX lanes, the default schedule) and the
// schedules a block can move through its column with; the variants (other lanes, other schedules)
// are in morph_variants.h. The launcher is built only with CUDA; the enum and the rows a lane are
// plain C++ (the host emulation test uses them too).
#pragma once

#include "dpx/morphology.h"

namespace dpx {
namespace detail {

// How a block moves through its column of the plane (morph_band.cuh; docs/notes/morphology.md):
enum class MorphSchedule {
  kStream,  // a tall band per block (about two blocks per SM), rows streamed through a ring in
            // shared memory two groups of 32 rows ahead: loads overlap compute and stores
  kSplit,   // 64-row tiles loaded as two groups: the top half is filtered while the bottom loads
  kTile32,  // 32-row tiles, one load: twice the blocks of kTile64
  kTile64,  // 64-row tiles, one load, then compute, then store (the first schedule). Built for the
            // cases dpx-bench times only: Dpx policy, one channel, rect (else kUnsupported)
  kRegisters,  // no shared memory: a warp's input rows loaded into registers at once, the
               // horizontal halo by shuffles (morph_rows.cuh); 4 output rows a lane
  kRegisters2,  // the same with 2 output rows a lane
};

// The output rows a lane and the schedule dpx::morph_cuda() runs for planes of `type` and square
// elements of side `size` (3 or 5; other elements take the separable passes, which have neither):
// two for u16 planes and for u8 5x5, four for u8 3x3: where the two differed on the H200, the fewer
// rows a lane (fewer registers, more warps) won; for u8 3x3 they were within the spread between
// calls (the measurements are in docs/notes/morphology.md; dpx-bench morph times both).
constexpr int morph_default_rows(SampleType type, int size) { return type == SampleType::kU16 || size == 5 ? 2 : 4; }
constexpr MorphSchedule morph_default_schedule(SampleType type, int size) {
  return morph_default_rows(type, size) == 2 ? MorphSchedule::kRegisters2 : MorphSchedule::kRegisters;
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

namespace morph {

// Rows a lane of the fused passes a dispatch builds (morph_pass.cuh), by element side (3 or 5);
// 0: none built there.
template <int R3, int R5>
struct RowsBySize {
  static constexpr int of(int size) { return size == 3 ? R3 : R5; }
};
template <int R>
using FixedRows = RowsBySize<R, R>;
// The rows of the library's passes (detail::morph_default_rows()).
template <SampleType T>
using DefaultRows = RowsBySize<detail::morph_default_rows(T, 3), detail::morph_default_rows(T, 5)>;
// R rows a lane where the library's passes run other rows: what the variants build beside them.
template <SampleType T, int R>
using RowsBesideDefault =
    RowsBySize<detail::morph_default_rows(T, 3) == R ? 0 : R, detail::morph_default_rows(T, 5) == R ? 0 : R>;

}  // namespace morph
}  // namespace dpx
