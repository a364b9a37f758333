// The launchers the library instantiates (for the DPX policy), each in its own file so they compile
// in parallel; files that only call them include this instead of instantiating them again.
#pragma once

#include "sw_kernels.cuh"
#include "sw_scan.cuh"

namespace dpx {
namespace align {

#define DPX_ALIGN_SCORE16(EXTERN, SCORER, LOCAL) \
  EXTERN template Status launch_score16<ops::Dpx, SCORER, LOCAL>(int, const SwLaunchArgs&, std::int64_t, cudaStream_t);
#define DPX_ALIGN_SCORE32(EXTERN, LOCAL)                                                                               \
  EXTERN template Status launch_score32<ops::Dpx, LOCAL>(const SwLaunchArgs&, std::int32_t, std::int64_t, cudaStream_t); \
  DPX_ALIGN_DIRECTIONS(EXTERN, SingleScorer, LOCAL)
#define DPX_ALIGN_DIRECTIONS(EXTERN, SCORER, LOCAL) \
  EXTERN template Status launch_directions<ops::Dpx, SCORER, LOCAL>(int, const SwLaunchArgs&, cudaStream_t);

#define DPX_ALIGN_SCAN(EXTERN) \
  EXTERN template Status launch_scan<ops::Dpx>(int, const SwLaunchArgs&, std::int64_t, cudaStream_t);

#ifndef DPX_ALIGN_INSTANTIATING
DPX_ALIGN_SCAN(extern)
DPX_ALIGN_SCORE16(extern, PairedScorer, true)
DPX_ALIGN_SCORE16(extern, PairedScorer, false)
DPX_ALIGN_SCORE16(extern, TwoLookupScorer, true)
DPX_ALIGN_SCORE16(extern, TwoLookupScorer, false)
DPX_ALIGN_SCORE32(extern, true)
DPX_ALIGN_SCORE32(extern, false)
DPX_ALIGN_DIRECTIONS(extern, PairedScorer, true)
DPX_ALIGN_DIRECTIONS(extern, PairedScorer, false)
DPX_ALIGN_DIRECTIONS(extern, TwoLookupScorer, true)
DPX_ALIGN_DIRECTIONS(extern, TwoLookupScorer, false)
#endif

}  // namespace align
}  // namespace dpx
