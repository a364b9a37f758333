// Argument checks shared by both backends, and the translation of the public parameters into the
// functor arguments of epilogue_functor.cuh.
#pragma once

#include <cstddef>
#include <cstdint>
#include <numeric>

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

// Blocks for the resident-channel kernel near `blocks`: a multiple of C / gcd(C, step), `step` the
// elements a block passes over in one turn of its grid-stride loop, so that a thread's stride is a
// whole number of channel periods; 0 when that multiple would exceed `limit` blocks.
inline int resident_channel_blocks(std::uint32_t channels, std::uint64_t step, int blocks, int limit) {
  const std::uint64_t period = channels / std::gcd(std::uint64_t{channels}, step);
  if (period > static_cast<std::uint64_t>(limit)) return 0;
  const std::uint64_t periods = static_cast<std::uint64_t>(blocks) / period;
  return static_cast<int>((periods > 0 ? periods : 1) * period);
}

// Bytes of one output element.
inline std::size_t output_bytes(QuantType type) { return type == QuantType::kInt8 ? 1 : 2; }

}  // namespace epilogue
}  // namespace dpx
