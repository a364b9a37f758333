// The CUDA epilogue's launch sequences as templates on the op policy: checks, split, grid, stream
// (the kernels are in epilogue_kernels.cuh). The library instantiates them for DPX
// (epilogue_cuda.cu), the internal variants library for plain ops (epilogue_variants.cu).
//
// Layering: public *_cuda (epilogue_cuda_api.cpp) -> run_* / launch_* (split, grid, plan, stream)
// -> *_kernel (thin) -> device functions per vector / per edge element -> epilogue_functor.cuh.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "cuda_check.h"
#include "epilogue_args.h"
#include "epilogue_kernels.cuh"
#include "launch_sizing.h"
#include "pointer_kind.h"

namespace dpx {
namespace epilogue {

// Blocks for `vectors` work items: no more than the GPU holds at once (SMs x resident blocks, which
// *resident_out receives when given).
template <auto kKernel>
Status grid_for(std::uint64_t vectors, int* blocks, std::int64_t* resident_out = nullptr) {
  std::int64_t resident = 0;
  DPX_RETURN_IF_ERROR(runtime::resident_blocks(kKernel, kThreads, 0, &resident));
  if (resident_out != nullptr) *resident_out = resident;
  const std::uint64_t needed = (vectors + kThreads - 1) / kThreads;
  *blocks = static_cast<int>(std::max<std::uint64_t>(1, std::min(needed, static_cast<std::uint64_t>(resident))));
  return Status::ok();
}

// A pointer the GPU cannot reach would fail inside the kernel and spoil the context; refuse it here.
inline Status check_reachable(const char* what, const char* name, const void* p) {
  return runtime::check_device_readable(p, what, name);
}

template <typename Ops, typename K, typename Out, bool kResidual>
Status launch_requantize(const std::int32_t* acc, const std::int16_t* residual, void* out, std::size_t n,
                         const RequantArgs& args, cudaStream_t stream) {
  constexpr auto kernel = requantize_kernel<Ops, K, Out, kResidual>;
  const Split split = split_output(out, sizeof(Out), n);
  int blocks = 0;
  DPX_RETURN_IF_ERROR(grid_for<kernel>(split.chunks, &blocks));
  kernel<<<blocks, kThreads, 0, stream>>>(plan_requantize<Out>(acc, residual, out, split, args, blocks));
  DPX_CUDA_CHECK_LAUNCH("requantize_kernel");
  return Status::ok();
}

// The resident-channel kernel where the table suits it (every channel's sum fits 32 bits and the
// grid can be made a whole number of channel periods); *launched says whether it ran.
template <bool kResidual>
Status launch_requantize_resident(const std::int32_t* acc, const std::int16_t* residual, void* out,
                                  std::size_t n, const RequantArgs& args, cudaStream_t stream,
                                  bool* launched) {
  *launched = false;
  if (args.channels.wide_sums) return Status::ok();
  constexpr auto kernel = requantize_resident_kernel<kResidual>;
  const Split split = split_output(out, sizeof(std::int16_t), n);
  int blocks = 0;
  std::int64_t resident = 0;
  DPX_RETURN_IF_ERROR(grid_for<kernel>(split.chunks, &blocks, &resident));
  constexpr std::uint64_t kStep = std::uint64_t{kThreads} * (kVectorBytes / sizeof(std::int16_t));
  blocks = resident_channel_blocks(args.channels.count, kStep, blocks, static_cast<int>(4 * resident));
  if (blocks == 0) return Status::ok();
  kernel<<<blocks, kThreads, 0, stream>>>(
      plan_requantize<std::int16_t>(acc, residual, out, split, args, blocks));
  DPX_CUDA_CHECK_LAUNCH("requantize_resident_kernel");
  *launched = true;
  return Status::ok();
}

// kResident: per-channel int16 requantisation takes the resident-channel kernel where it can.
template <typename Ops, typename Out, bool kResidual, bool kResident>
Status dispatch_constants(const std::int32_t* acc, const std::int16_t* residual, void* out, std::size_t n,
                          const RequantArgs& args, cudaStream_t stream) {
  const bool per_channel = args.channels.entries != nullptr;
  if constexpr (kResident && sizeof(Out) == 2) {
    bool launched = false;
    if (per_channel)
      DPX_RETURN_IF_ERROR(
          launch_requantize_resident<kResidual>(acc, residual, out, n, args, stream, &launched));
    if (launched) return Status::ok();
  }
  return per_channel ? launch_requantize<Ops, ChannelConstants, Out, kResidual>(acc, residual, out, n, args, stream)
                     : launch_requantize<Ops, TensorConstants, Out, kResidual>(acc, residual, out, n, args, stream);
}

template <typename Ops, bool kResident>
Status run_requantize(const std::int32_t* acc, const std::int16_t* residual, bool with_residual,
                      std::size_t n, const RequantParams& params, void* out, cudaStream_t stream) {
  const char* what = with_residual ? "requantize_residual" : "requantize";
  RequantArgs args;
  DPX_RETURN_IF_ERROR(resolve_requantize(what, acc, residual, with_residual, n, params, out, Memory::kDevice, &args));
  if (n == 0) return Status::ok();
  DPX_RETURN_IF_ERROR(check_reachable(what, "acc", acc));
  DPX_RETURN_IF_ERROR(check_reachable(what, "out", out));
  if (with_residual) DPX_RETURN_IF_ERROR(check_reachable(what, "residual", residual));
  if (with_residual)
    return dispatch_constants<Ops, std::int16_t, true, kResident>(acc, residual, out, n, args, stream);
  if (params.output == QuantType::kInt8) {
    return dispatch_constants<Ops, std::int8_t, false, kResident>(acc, nullptr, out, n, args, stream);
  }
  return dispatch_constants<Ops, std::int16_t, false, kResident>(acc, nullptr, out, n, args, stream);
}

template <typename Ops>
Status run_merge3(const std::int16_t* a, const std::int16_t* b, const std::int16_t* c, std::size_t n,
                  const Merge3Params& params, std::int16_t* out, cudaStream_t stream) {
  MergeArgs args;
  DPX_RETURN_IF_ERROR(resolve_merge3(a, b, c, n, params, out, &args));
  if (n == 0) return Status::ok();
  for (const auto& [name, p] : {std::pair<const char*, const void*>{"a", a}, {"b", b}, {"c", c}, {"out", out}}) {
    DPX_RETURN_IF_ERROR(check_reachable("merge3", name, p));
  }
  constexpr auto kernel = merge3_kernel<Ops>;
  const Split split = split_output(out, sizeof(std::int16_t), n);
  int blocks = 0;
  DPX_RETURN_IF_ERROR(grid_for<kernel>(split.chunks, &blocks));
  kernel<<<blocks, kThreads, 0, stream>>>(plan_merge3(a, b, c, out, split, args));
  DPX_CUDA_CHECK_LAUNCH("merge3_kernel");
  return Status::ok();
}

}  // namespace epilogue
}  // namespace dpx
