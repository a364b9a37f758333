// Input checks shared by the CPU and CUDA edit-distance and DTW calls, so both backends accept and
// refuse exactly the same inputs with the same messages.
#pragma once

#include <cstddef>

#include "dpx/align_distance.h"

namespace dpx {
namespace align {

// Pairing, non-null output and every length within kAlignDistanceMaxLength.
Status check_edit_inputs(const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                         const void* out, const char* what);
// The same for series, plus the band (-1 or >= 0).
Status check_dtw_inputs(const SeriesBatch& a, const SeriesBatch& b, Pairing pairing, const DtwOptions& options,
                        const void* out, const char* what);
Status check_dtw_float_inputs(const FloatSeriesBatch& a, const FloatSeriesBatch& b, Pairing pairing,
                              const DtwFloatOptions& options, const void* out, const char* what);
// Band and cost kind of float DTW.
Status check_dtw_float_options(const DtwFloatOptions& options, const char* what);

// What the asynchronous forms can check without reading device memory: pairing of the device
// batches' sizes, the declared maximum length and the output pointer.
Status check_device_inputs(std::size_t queries, std::size_t targets, Pairing pairing, std::size_t max_length,
                           const void* out, const char* what);
Status check_band(int band, const char* what);
// check_device_inputs and the band: what the asynchronous DTW call (and its variants) check.
Status check_dtw_device_inputs(std::size_t a, std::size_t b, Pairing pairing, const DtwOptions& options,
                               std::size_t max_length, const void* out, const char* what);

}  // namespace align
}  // namespace dpx
