#include "epilogue_args.h"

#include <cstdint>
#include <string>

namespace dpx {
namespace epilogue {
namespace {

bool aligned(const void* p, std::size_t alignment) {
  return reinterpret_cast<std::uintptr_t>(p) % alignment == 0;
}

// True when the byte ranges [a, a + a_bytes) and [b, b + b_bytes) share a byte.
bool overlap(const void* a, std::size_t a_bytes, const void* b, std::size_t b_bytes) {
  const auto a0 = reinterpret_cast<std::uintptr_t>(a), b0 = reinterpret_cast<std::uintptr_t>(b);
  return a_bytes > 0 && b_bytes > 0 && a0 < b0 + b_bytes && b0 < a0 + a_bytes;
}

Status check_array(const std::string& what, const char* name, const void* p, std::size_t n,
                   std::size_t element_bytes) {
  if (n > 0 && p == nullptr) return invalid_argument(what + ": " + name + " is null (n = " + std::to_string(n) + ")");
  if (!aligned(p, element_bytes)) {
    return invalid_argument(what + ": " + name + " is not aligned to its " + std::to_string(element_bytes) +
                            "-byte elements");
  }
  return Status::ok();
}

// The output may be an input of the same element type itself, or lie apart from it.
Status check_apart_or_same(const std::string& what, const char* name, const void* in, const void* out,
                           std::size_t bytes) {
  if (in != out && overlap(in, bytes, out, bytes)) {
    return invalid_argument(what + ": out partly overlaps " + name + " (only the very same array is allowed)");
  }
  return Status::ok();
}

Status check_type(const std::string& what, QuantType type, std::int32_t* type_min, std::int32_t* type_max) {
  switch (type) {
    case QuantType::kInt16: *type_min = -32768; *type_max = 32767; return Status::ok();
    case QuantType::kInt8: *type_min = -128; *type_max = 127; return Status::ok();
  }
  return invalid_argument(what + ": unknown output type " + std::to_string(static_cast<int>(type)));
}

Status resolve_activation(const std::string& what, const Activation& act, std::int32_t type_min,
                          std::int32_t type_max, ActivationArgs* args) {
  switch (act.kind) {
    case ActivationKind::kNone:
    case ActivationKind::kRelu:
      *args = ActivationArgs{act.kind, 0, 0};
      return Status::ok();
    case ActivationKind::kClamp:
      if (act.lo > act.hi) {
        return invalid_argument(what + ": clamp lo " + std::to_string(act.lo) + " > hi " + std::to_string(act.hi));
      }
      if (act.lo < type_min || act.hi > type_max) {
        return invalid_argument(what + ": clamp [" + std::to_string(act.lo) + ", " + std::to_string(act.hi) +
                                "] outside the output range [" + std::to_string(type_min) + ", " +
                                std::to_string(type_max) + "]");
      }
      *args = ActivationArgs{act.kind, ops::lanes::pack(act.lo, act.lo), ops::lanes::pack(act.hi, act.hi)};
      return Status::ok();
  }
  return invalid_argument(what + ": unknown activation " + std::to_string(static_cast<int>(act.kind)));
}

Status resolve_channels(const std::string& what, const RequantParams& params, Memory memory, ChannelTable* table) {
  *table = ChannelTable{};
  table->tensor_shift = params.shift;
  const RequantChannels* ch = params.channels;
  if (ch == nullptr) return Status::ok();
  if (ch->channels() == 0) return invalid_argument(what + ": the per-channel table is empty (set() it first)");
  if (memory == Memory::kDevice && !ch->uploaded()) {
    return invalid_argument(what + ": the per-channel table has no device copy (upload() it after set())");
  }
  table->entries = memory == Memory::kDevice ? ch->device_channels() : ch->host_channels();
  table->count = static_cast<std::uint32_t>(ch->channels());
  table->channel_shifts = ch->has_shifts();
  table->wide_sums = ch->has_bias() && (ch->has_shifts() ? ch->has_unshifted_bias() : params.shift == 0);
  return Status::ok();
}

}  // namespace

Status resolve_requantize(const char* what_c, const std::int32_t* acc, const std::int16_t* residual,
                          bool with_residual, std::size_t n, const RequantParams& params, const void* out,
                          Memory memory, RequantArgs* args) {
  const std::string what(what_c);
  if (n > SIZE_MAX / 8) return invalid_argument(what + ": n = " + std::to_string(n) + " is too large");
  DPX_RETURN_IF_ERROR(check_array(what, "acc", acc, n, sizeof(std::int32_t)));
  if (params.shift < 0 || params.shift > 31) {
    return invalid_argument(what + ": shift " + std::to_string(params.shift) + " outside 0..31");
  }
  DPX_RETURN_IF_ERROR(check_type(what, params.output, &args->type_min, &args->type_max));
  const std::size_t out_bytes = output_bytes(params.output);
  DPX_RETURN_IF_ERROR(check_array(what, "out", out, n, out_bytes));
  if (overlap(acc, n * sizeof(std::int32_t), out, n * out_bytes)) return invalid_argument(what + ": out overlaps acc");
  if (with_residual) {
    if (params.output != QuantType::kInt16) return invalid_argument(what + ": the residual add needs int16 output");
    DPX_RETURN_IF_ERROR(check_array(what, "residual", residual, n, sizeof(std::int16_t)));
    DPX_RETURN_IF_ERROR(check_apart_or_same(what, "residual", residual, out, n * sizeof(std::int16_t)));
  }
  DPX_RETURN_IF_ERROR(resolve_activation(what, params.activation, args->type_min, args->type_max, &args->act));
  return resolve_channels(what, params, memory, &args->channels);
}

Status resolve_merge3(const std::int16_t* a, const std::int16_t* b, const std::int16_t* c, std::size_t n,
                      const Merge3Params& params, const std::int16_t* out, MergeArgs* args) {
  const std::string what("merge3");
  if (n > SIZE_MAX / 8) return invalid_argument(what + ": n = " + std::to_string(n) + " is too large");
  const std::size_t bytes = n * sizeof(std::int16_t);
  const char* names[] = {"a", "b", "c"};
  const std::int16_t* inputs[] = {a, b, c};
  DPX_RETURN_IF_ERROR(check_array(what, "out", out, n, sizeof(std::int16_t)));
  for (int i = 0; i < 3; ++i) {
    DPX_RETURN_IF_ERROR(check_array(what, names[i], inputs[i], n, sizeof(std::int16_t)));
    DPX_RETURN_IF_ERROR(check_apart_or_same(what, names[i], inputs[i], out, bytes));
  }
  if (params.op != MergeOp::kMax && params.op != MergeOp::kMin) {
    return invalid_argument(what + ": unknown operation " + std::to_string(static_cast<int>(params.op)));
  }
  args->op = params.op;
  return resolve_activation(what, params.activation, kInt16Min, kInt16Max, &args->act);
}

Status check_threads(const char* what, int threads) {
  if (threads < 0) {
    return invalid_argument(std::string(what) + ": threads " + std::to_string(threads) + " (0 = all, or >= 1)");
  }
  return Status::ok();
}

}  // namespace epilogue
}  // namespace dpx
