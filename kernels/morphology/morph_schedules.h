// The schedules a block of the fused 3x3 / 5x5 pass can move through its column with: the
// register kernel the library runs, at its rows a lane or others, and the shared-memory band
// schedules (morph_band.cuh) that only the variants build (morph_variants.h). Plain C++: the host
// emulation tests use them too.
#pragma once

#include "dpx/morphology.h"
#include "morph_launch.h"

namespace dpx {
namespace variants {

// How a block moves through its column of the plane (morph_band.cuh; docs/notes/morphology.md):
enum class MorphSchedule {
  kStream,  // a tall band per block (about two blocks per SM), rows streamed through a ring in
            // shared memory two groups of 32 rows ahead: loads overlap compute and stores
  kSplit,   // 64-row tiles loaded as two groups: the top half is filtered while the bottom loads
  kTile32,  // 32-row tiles, one load: twice the blocks of kTile64
  kTile64,  // 64-row tiles, one load, then compute, then store (the first schedule). Built for the
            // cases dpx-bench times only: Dpx policy, one channel, rect (else kUnsupported)
  kRegisters,   // no shared memory: a warp's input rows loaded into registers at once, the
                // horizontal halo by shuffles (morph_rows.cuh); 4 output rows a lane
  kRegisters2,  // the same with 2 output rows a lane
};

// The schedule dpx::morph_cuda() runs for planes of `type` and square elements of side `size`.
constexpr MorphSchedule morph_default_schedule(SampleType type, int size) {
  return detail::morph_default_rows(type, size) == 2 ? MorphSchedule::kRegisters2 : MorphSchedule::kRegisters;
}

constexpr const char* morph_schedule_name(MorphSchedule schedule) {
  return schedule == MorphSchedule::kStream    ? "stream"
         : schedule == MorphSchedule::kSplit   ? "split"
         : schedule == MorphSchedule::kTile32  ? "tile32"
         : schedule == MorphSchedule::kTile64  ? "tile64"
         : schedule == MorphSchedule::kRegisters ? "registers"
                                                 : "registers2";
}

}  // namespace variants
}  // namespace dpx
