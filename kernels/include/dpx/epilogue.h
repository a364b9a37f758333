// Quantised-inference epilogue: int32 accumulators to int16 / int8 (bias, rounding shift,
// saturation, activation), the same with a residual add, and three-input max / min merges of
// int16 tensors (pooling, multi-branch joins).
//
//   dpx::RequantParams p;
//   p.shift = 7;
//   p.activation = dpx::Activation::relu();
//   dpx::Status s = dpx::requantize_cuda(d_acc, n, p, d_out, stream);  // device pointers, asynchronous
//   dpx::Status s = dpx::requantize_cpu(acc, n, p, out);               // host pointers, multi-threaded
//
// Both implementations give bit-identical results. The arithmetic, for element i (c = i mod C when
// per-channel constants are given):
//
//   v   = (int64) acc[i] + bias[c]             the bias is added BEFORE the shift, in 64 bits, so
//                                              it never wraps (bias 0 when there is none)
//   r   = (v + 2^(s-1)) >> s                   s = shift[c], or the tensor's shift; s in 0..31, and
//                                              s = 0 leaves v as it is. The shift is arithmetic, so
//                                              ties round towards +infinity (-2.5 -> -2, 2.5 -> 3)
//   q   = saturate(r)                          to int16 [-32768, 32767] or int8 [-128, 127]
//   out = activation(q)                        none, ReLU max(q, 0), or clamp min(max(q, lo), hi)
//
// Residual:  out = activation(saturate16(q + residual[i])), q the int16 value above.
// Merge3:    out = activation(max(a[i], b[i], c[i]))  (or min), all int16.
//
// Memory: int16 results are written as packed pairs, two lanes per 32-bit word (lane 0 at the lower
// address), which is the layout of an ordinary int16_t[n]. Pointers need only the alignment of their
// element type (4 bytes for int32, 2 for int16, 1 for int8); n may be odd or 0. An output may be the
// very same array as an int16 input (in place); any other overlap with an input is refused.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "dpx/device.h"
#include "dpx/status.h"

namespace dpx {

enum class QuantType { kInt16, kInt8 };

enum class ActivationKind { kNone, kRelu, kClamp };

// What is applied to the saturated value. For kClamp, lo <= hi and both must be representable in
// the output type.
struct Activation {
  ActivationKind kind = ActivationKind::kNone;
  std::int32_t lo = 0;
  std::int32_t hi = 0;

  static Activation none() { return Activation{}; }
  static Activation relu() { return Activation{ActivationKind::kRelu, 0, 0}; }
  static Activation clamp(std::int32_t lo, std::int32_t hi) { return Activation{ActivationKind::kClamp, lo, hi}; }
};

// The constants of one channel, as the kernels read them (one 8-byte load).
struct alignas(8) RequantChannel {
  std::int32_t bias = 0;   // 0 where the table has no bias
  std::int32_t shift = 0;  // meaningful where the table has shifts
};

// Per-channel constants: a bias and/or a shift for each of C channels; element i belongs to channel
// i mod C (the innermost dimension of a row-major [..., C] tensor, e.g. NHWC). set() copies and
// checks host arrays; the CPU functions read that copy, the CUDA functions the device copy made by
// upload(). Keep the object alive (and do not set() or upload() again) until the work that reads it
// has finished.
class RequantChannels {
 public:
  // bias and shifts are host arrays of `channels` entries; either may be null (no bias / the
  // tensor's shift for every channel), not both. Every shift must lie in 0..31.
  Status set(std::size_t channels, const std::int32_t* bias, const std::int32_t* shifts);

  // Enqueues the copy to device memory on `stream`; work on other streams must be ordered after it.
  // The source is pageable host memory, so the runtime may wait for the stream (a setup step).
  Status upload(cudaStream_t stream);

  std::size_t channels() const { return entries_.size(); }
  bool has_bias() const { return has_bias_; }
  bool has_shifts() const { return has_shifts_; }
  bool uploaded() const { return uploaded_; }
  // Whether some channel has its own shift 0 and a bias that is not 0.
  bool has_unshifted_bias() const { return has_unshifted_bias_; }

  // channels() entries on the host; on the device (null until uploaded since the last set()).
  const RequantChannel* host_channels() const { return entries_.empty() ? nullptr : entries_.data(); }
  const RequantChannel* device_channels() const {
    return uploaded_ ? device_.as<const RequantChannel>() : nullptr;
  }

  static constexpr std::size_t kMaxChannels = 0x7FFFFFFF;

 private:
  std::vector<RequantChannel> entries_;
  bool has_bias_ = false, has_shifts_ = false, has_unshifted_bias_ = false;
  DeviceBuffer device_;
  bool uploaded_ = false;
};

// Requantisation parameters (the struct is small and copied freely; `channels` is only borrowed).
struct RequantParams {
  int shift = 0;                              // 0..31, for every element unless channels has shifts
  const RequantChannels* channels = nullptr;  // per-channel bias and/or shifts, or none
  QuantType output = QuantType::kInt16;
  Activation activation;
};

enum class MergeOp { kMax, kMin };

struct Merge3Params {
  MergeOp op = MergeOp::kMax;
  Activation activation;  // kClamp bounds within int16
};

// acc[n] -> out[n], int16_t or int8_t as params.output says. out must not overlap acc.
// CPU: host memory; `threads` = 0 uses every hardware thread.
Status requantize_cpu(const std::int32_t* acc, std::size_t n, const RequantParams& params, void* out,
                      int threads = 0);
// CUDA: device-accessible memory, asynchronous on `stream` (nothing synchronises).
Status requantize_cuda(const std::int32_t* acc, std::size_t n, const RequantParams& params, void* out,
                       cudaStream_t stream);

// acc[n], residual[n] -> out[n] (int16; params.output must be kInt16). out may be residual itself.
Status requantize_residual_cpu(const std::int32_t* acc, const std::int16_t* residual, std::size_t n,
                               const RequantParams& params, std::int16_t* out, int threads = 0);
Status requantize_residual_cuda(const std::int32_t* acc, const std::int16_t* residual, std::size_t n,
                                const RequantParams& params, std::int16_t* out, cudaStream_t stream);

// a[n], b[n], c[n] -> out[n]. out may be one of the inputs itself.
Status merge3_cpu(const std::int16_t* a, const std::int16_t* b, const std::int16_t* c, std::size_t n,
                  const Merge3Params& params, std::int16_t* out, int threads = 0);
Status merge3_cuda(const std::int16_t* a, const std::int16_t* b, const std::int16_t* c, std::size_t n,
                   const Merge3Params& params, std::int16_t* out, cudaStream_t stream);

}  // namespace dpx
