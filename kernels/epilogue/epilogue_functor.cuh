// The arithmetic of the epilogue, for the host and the device alike: the CPU implementation and
// the CUDA kernels both run these functors (the CPU with the host side of dpx::ops), so the two
// backends cannot drift apart. Values travel as packed s16x2 words (lane 0 = the lower element);
// int8 results sit sign-extended in 16-bit lanes until they are stored.
#pragma once

#include <cstdint>

#include "dpx/epilogue.h"
#include "dpx_ops.cuh"

namespace dpx {
namespace epilogue {

static_assert((-5 >> 1) == -3, "the rounding shift relies on an arithmetic right shift");

// ---- parameters as the functors read them (validated, pointers of the backend in use) ----------

struct ActivationArgs {
  ActivationKind kind = ActivationKind::kNone;
  std::uint32_t lo2 = 0, hi2 = 0;  // kClamp bounds, the same value in both lanes
};

struct ChannelTable {
  const RequantChannel* entries = nullptr;  // [count], or null: no per-channel constants
  std::uint32_t count = 1;
  bool channel_shifts = false;  // entries[c].shift, else tensor_shift, for every element
  int tensor_shift = 0;
  bool wide_sums = false;  // some channel adds a bias with shift 0: acc + bias needs 33 bits
};

struct RequantArgs {
  ChannelTable channels;
  std::int32_t type_min = -32768, type_max = 32767;  // the output type's range
  ActivationArgs act;
};

struct MergeArgs {
  MergeOp op = MergeOp::kMax;
  ActivationArgs act;
};

// ---- one element ------------------------------------------------------------------------------

// (v + 2^(s-1)) >> s for s in 0..31, in 64 bits; the rounding term (2^s) / 2 is 0 for s = 0.
DPX_HD std::int64_t rounding_shift(std::int64_t v, int s) {
  return (v + static_cast<std::int64_t>((std::uint32_t{1} << s) >> 1)) >> s;
}

// The same for an int32 v, exactly, in 32 bits: floor(v / 2^s) plus bit s-1 of v, which is the
// carry that adding 2^(s-1) brings into bit s. (v >> s) <= 2^30 - 1 for s >= 1, so the sum cannot
// overflow. Where there is no bias this spares the 64-bit arithmetic.
DPX_HD std::int32_t rounding_shift32(std::int32_t v, int s) {
  const int below = s > 0 ? s - 1 : 0;
  const std::int32_t any = s > 0 ? 1 : 0;
  return (v >> s) + ((v >> below) & any);
}

// ---- a channel's constants prepared for 32-bit arithmetic ------------------------------------
// With B = bias + 2^(s-1) split as high * 2^s + low (0 <= low < 2^s), the rounding shift of
// acc + bias is (acc >> s) + high + (((acc & (2^s - 1)) + low) >> s). No term needs 64 bits, and
// for s >= 1 the sum stays within int32: acc >> s and high are at most about 2^(31-s) each (s = 1
// reaches 2^31 - 1 exactly at the extremes). With s = 0 and a bias the sum is acc + bias, which
// can leave int32: such a channel keeps the 64-bit form (fits_32_bits).
struct PreparedChannel {
  std::int32_t shift = 0;
  std::uint32_t mask = 0;  // 2^s - 1
  std::uint32_t low = 0;
  std::int32_t high = 0;
};

DPX_HD bool fits_32_bits(std::int32_t bias, int s) {
  return s > 0 || bias == 0;
}

DPX_HD PreparedChannel prepare_channel(std::int32_t bias, int s) {
  const std::int64_t unit = std::int64_t{1} << s;
  const std::int64_t b = static_cast<std::int64_t>(bias) + unit / 2;
  const std::int64_t high = b >= 0 ? b / unit : -((-b + unit - 1) / unit);  // floor(b / 2^s)
  PreparedChannel c;
  c.shift = s;
  c.mask = static_cast<std::uint32_t>(unit - 1);
  c.low = static_cast<std::uint32_t>(b - high * unit);
  c.high = static_cast<std::int32_t>(high);
  return c;
}

// rounding_shift(acc + bias, s) for a channel prepared from (bias, s) with fits_32_bits.
DPX_HD std::int32_t rounding_shift_prepared(std::int32_t acc, const PreparedChannel& c) {
  const std::uint32_t carry = ((static_cast<std::uint32_t>(acc) & c.mask) + c.low) >> c.shift;
  return (acc >> c.shift) + static_cast<std::int32_t>(carry) + c.high;
}

// max(min(v, hi), lo): two min/max instructions for 32-bit v.
template <typename T>
DPX_HD std::int32_t saturate(T v, std::int32_t lo, std::int32_t hi) {
  const T below_hi = v > hi ? T{hi} : v;
  return static_cast<std::int32_t>(below_hi < lo ? T{lo} : below_hi);
}

constexpr std::int32_t kInt16Min = -32768, kInt16Max = 32767;

// ---- constants of consecutive elements --------------------------------------------------------
// Both walkers start at element `first`; constants() gives the bias and shift of the element they
// stand on, next() steps one element, skip(k) k (< count) elements further.

// No bias and one shift for the whole tensor.
class TensorConstants {
 public:
  static constexpr bool kBias = false;
  DPX_HD TensorConstants(const ChannelTable& t, std::uint64_t /*first*/) : shift_(t.tensor_shift) {}
  DPX_HD RequantChannel constants() const { return RequantChannel{0, shift_}; }
  DPX_HD void next() {}
  DPX_HD void skip(std::uint32_t /*k*/) {}

 private:
  int shift_;
};

// Channel i mod count, followed without a division per element.
class ChannelConstants {
 public:
  static constexpr bool kBias = true;  // possibly 0 (a shifts-only table)
  DPX_HD ChannelConstants(const ChannelTable& t, std::uint64_t first)
      : t_(t), c_(static_cast<std::uint32_t>(first % t.count)) {}
  DPX_HD RequantChannel constants() const {
    const RequantChannel e = t_.entries[c_];
    return RequantChannel{e.bias, t_.channel_shifts ? e.shift : t_.tensor_shift};
  }
  DPX_HD void next() {
    if (++c_ == t_.count) c_ = 0;
  }
  DPX_HD void skip(std::uint32_t k) {  // count < 2^31, so c_ + k cannot wrap
    c_ += k;
    if (c_ >= t_.count) c_ -= t_.count;
  }

 private:
  ChannelTable t_;
  std::uint32_t c_;
};

// ---- packed words -----------------------------------------------------------------------------

// The activation on N packed words through the ops policy.
template <typename Ops>
struct PairActivation {
  ActivationArgs a;

  template <int N>
  DPX_HD void operator()(std::uint32_t (&w)[N]) const {
    switch (a.kind) {
      case ActivationKind::kRelu:
        DPX_UNROLL
        for (int j = 0; j < N; ++j) w[j] = Ops::max_s16x2_relu(w[j], 0u);
        break;
      case ActivationKind::kClamp:
        DPX_UNROLL
        for (int j = 0; j < N; ++j) w[j] = Ops::min_s16x2(Ops::max_s16x2(w[j], a.lo2), a.hi2);
        break;
      case ActivationKind::kNone:
        break;
    }
  }
};

// Int8 results: the low bytes of the lanes of two words, in element order, as one word.
DPX_HD std::uint32_t pack_bytes(std::uint32_t w0, std::uint32_t w1) {
  return (w0 & 0xFFu) | ((w0 >> 8) & 0xFF00u) | ((w1 & 0xFFu) << 16) | ((w1 << 8) & 0xFF000000u);
}

// ---- the epilogues ----------------------------------------------------------------------------

template <typename Ops>
struct Requantizer {
  RequantArgs args;

  // Bias, rounding shift and saturation of one accumulator (before the activation), with the
  // constants k stands on.
  template <typename K>
  DPX_HD std::int32_t value(std::int32_t acc, const K& k) const {
    const RequantChannel c = k.constants();
    if constexpr (K::kBias) {
      return saturate(rounding_shift(static_cast<std::int64_t>(acc) + c.bias, c.shift), args.type_min, args.type_max);
    } else {
      return saturate(rounding_shift32(acc, c.shift), args.type_min, args.type_max);
    }
  }
  // The same followed by the residual add (int16 output only).
  template <typename K>
  DPX_HD std::int32_t value_plus(std::int32_t acc, const K& k, std::int32_t residual) const {
    return saturate(value(acc, k) + residual, kInt16Min, kInt16Max);
  }

  // N accumulators (N even) to N/2 activated words; k follows the elements.
  template <int N, typename K>
  DPX_HD void pairs(const std::int32_t (&acc)[N], K& k, std::uint32_t (&w)[N / 2]) const {
    DPX_UNROLL
    for (int j = 0; j < N / 2; ++j) {
      const std::int32_t v0 = value(acc[2 * j], k);
      k.next();
      const std::int32_t v1 = value(acc[2 * j + 1], k);
      k.next();
      w[j] = ops::lanes::pack(v0, v1);
    }
    PairActivation<Ops>{args.act}(w);
  }
  // The same with the residual pairs `res`.
  template <int N, typename K>
  DPX_HD void pairs_plus(const std::int32_t (&acc)[N], const std::uint32_t (&res)[N / 2], K& k,
                         std::uint32_t (&w)[N / 2]) const {
    DPX_UNROLL
    for (int j = 0; j < N / 2; ++j) {
      const std::int32_t v0 = value_plus(acc[2 * j], k, ops::lanes::slo(res[j]));
      k.next();
      const std::int32_t v1 = value_plus(acc[2 * j + 1], k, ops::lanes::shi(res[j]));
      k.next();
      w[j] = ops::lanes::pack(v0, v1);
    }
    PairActivation<Ops>{args.act}(w);
  }

  // One element alone (heads, tails, odd ends): lane 0 of a word whose lane 1 is unused.
  template <typename K>
  DPX_HD std::int32_t single(std::int32_t acc, K& k) const {
    std::uint32_t w[1] = {ops::lanes::pack(value(acc, k), 0)};
    k.next();
    PairActivation<Ops>{args.act}(w);
    return ops::lanes::slo(w[0]);
  }
  template <typename K>
  DPX_HD std::int32_t single_plus(std::int32_t acc, std::int32_t residual, K& k) const {
    std::uint32_t w[1] = {ops::lanes::pack(value_plus(acc, k, residual), 0)};
    k.next();
    PairActivation<Ops>{args.act}(w);
    return ops::lanes::slo(w[0]);
  }
};

// The requantisation of a vector whose elements' channels are prepared beforehand (a thread that
// meets the same channels at every step holds them in registers). Without a residual, saturation
// and activation are one clamp to [lo, hi], their intersection; with one, [lo, hi] is the int16
// range and the activation follows the add, as in Requantizer.
template <typename Ops>
struct PreparedRequantizer {
  std::int32_t lo = kInt16Min, hi = kInt16Max;
  ActivationArgs act;

  static DPX_HD PreparedRequantizer make(const RequantArgs& a, bool residual) {
    PreparedRequantizer p;
    p.lo = a.type_min;
    p.hi = a.type_max;
    p.act = a.act;
    if (!residual && a.act.kind == ActivationKind::kRelu) p.lo = 0;
    if (!residual && a.act.kind == ActivationKind::kClamp) {
      p.lo = ops::lanes::slo(a.act.lo2);
      p.hi = ops::lanes::slo(a.act.hi2);
    }
    return p;
  }

  template <int N>
  DPX_HD void pairs(const std::int32_t (&acc)[N], const PreparedChannel (&ch)[N],
                    std::uint32_t (&w)[N / 2]) const {
    DPX_UNROLL
    for (int j = 0; j < N / 2; ++j) {
      w[j] = ops::lanes::pack(saturate(rounding_shift_prepared(acc[2 * j], ch[2 * j]), lo, hi),
                              saturate(rounding_shift_prepared(acc[2 * j + 1], ch[2 * j + 1]), lo, hi));
    }
  }
  template <int N>
  DPX_HD void pairs_plus(const std::int32_t (&acc)[N], const std::uint32_t (&res)[N / 2],
                         const PreparedChannel (&ch)[N], std::uint32_t (&w)[N / 2]) const {
    DPX_UNROLL
    for (int j = 0; j < N / 2; ++j) {
      const std::int32_t q0 = saturate(rounding_shift_prepared(acc[2 * j], ch[2 * j]), lo, hi);
      const std::int32_t q1 = saturate(rounding_shift_prepared(acc[2 * j + 1], ch[2 * j + 1]), lo, hi);
      w[j] = ops::lanes::pack(saturate(q0 + ops::lanes::slo(res[j]), kInt16Min, kInt16Max),
                              saturate(q1 + ops::lanes::shi(res[j]), kInt16Min, kInt16Max));
    }
    PairActivation<Ops>{act}(w);
  }
};

template <typename Ops>
struct Merger {
  MergeArgs args;

  // out = activation(max or min of a, b, c), N packed words at a time. ReLU is fused into the
  // three-operand instruction; a clamp follows it.
  template <int N>
  DPX_HD void operator()(const std::uint32_t (&a)[N], const std::uint32_t (&b)[N], const std::uint32_t (&c)[N],
                         std::uint32_t (&w)[N]) const {
    const bool relu = args.act.kind == ActivationKind::kRelu;
    if (args.op == MergeOp::kMax && relu) {
      DPX_UNROLL
      for (int j = 0; j < N; ++j) w[j] = Ops::max3_s16x2_relu(a[j], b[j], c[j]);
    } else if (args.op == MergeOp::kMax) {
      DPX_UNROLL
      for (int j = 0; j < N; ++j) w[j] = Ops::max3_s16x2(a[j], b[j], c[j]);
    } else if (relu) {
      DPX_UNROLL
      for (int j = 0; j < N; ++j) w[j] = Ops::min3_s16x2_relu(a[j], b[j], c[j]);
    } else {
      DPX_UNROLL
      for (int j = 0; j < N; ++j) w[j] = Ops::min3_s16x2(a[j], b[j], c[j]);
    }
    if (!relu) PairActivation<Ops>{args.act}(w);
  }

  DPX_HD std::int32_t single(std::int16_t a, std::int16_t b, std::int16_t c) const {
    const std::uint32_t wa[1] = {ops::lanes::pack(a, 0)}, wb[1] = {ops::lanes::pack(b, 0)},
                        wc[1] = {ops::lanes::pack(c, 0)};
    std::uint32_t w[1];
    (*this)(wa, wb, wc, w);
    return ops::lanes::slo(w[0]);
  }
};

}  // namespace epilogue
}  // namespace dpx
