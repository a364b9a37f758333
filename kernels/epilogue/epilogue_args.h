// Argument checks shared by both backends, and the translation of the public parameters into the
// functor arguments of epilogue_functor.cuh.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dpx/epilogue.h"
#include "epilogue_functor.cuh"

namespace dpx {
namespace epilogue {

// Which copy of a RequantChannels table the arguments point at.
enum class Memory { kHost, kDevice };

// requantize (residual == nullptr and !with_residual) or requantize_residual: pointers, alignment,
// overlap, shift range, output type, activation and channel table. `what` prefixes messages.
Status resolve_requantize(const char* what, const std::int32_t* acc, const std::int16_t* residual,
                          bool with_residual, std::size_t n, const RequantParams& params, const void* out,
                          Memory memory, RequantArgs* args);

Status resolve_merge3(const std::int16_t* a, const std::int16_t* b, const std::int16_t* c, std::size_t n,
                      const Merge3Params& params, const std::int16_t* out, MergeArgs* args);

// CPU thread count: 0 (every hardware thread) or more.
Status check_threads(const char* what, int threads);

// Bytes of one output element.
inline std::size_t output_bytes(QuantType type) { return type == QuantType::kInt8 ? 1 : 2; }

}  // namespace epilogue
}  // namespace dpx
