// The one place that reaches the DPX intrinsics.
//
// Two policies with the same static functions:
//   dpx::ops::Dpx   — on the GPU the Hopper DPX instructions (__vimax3_*, __viaddmax_*, __vibmin_*,
//                     ...; emulated by the CUDA headers below sm_90);
//   dpx::ops::Plain — the same results from ordinary two-operand max/min and adds.
// Kernels take the policy as a template parameter, so every benchmark can run the identical kernel
// both ways and show what DPX itself brings. On the host (CPU backends, or a compiler without CUDA)
// both policies are the portable definitions below, which is what makes the CPU twins bit-identical.
//
// Conventions shared with the intrinsics:
//   * x2 forms work on two 16-bit lanes of a 32-bit word (lane 0 = low half);
//   * adds wrap around (two's complement), they do not saturate;
//   * *_relu clamps each result lane at 0 after the max/min;
//   * bmax/bmin set the predicate when the FIRST operand is the result, ties included:
//     bmax: p = (a >= b), bmin: p = (a <= b).
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#include <cuda_runtime.h>
#define DPX_HD __host__ __device__ __forceinline__
#else
#define DPX_HD inline
#endif

// Unrolls a loop in device code only: register arrays need constant indices there, and host
// compilers unroll on their own (some warn about the pragma).
#if defined(__CUDA_ARCH__)
#define DPX_UNROLL _Pragma("unroll")
#else
#define DPX_UNROLL
#endif

// The intrinsic in device code and the portable definition everywhere else; the intrinsic is
// never even seen by a host-only compiler.
#if defined(__CUDA_ARCH__)
#define DPX_INTRINSIC_OR_PORTABLE(intrinsic_call, portable_call) intrinsic_call
#else
#define DPX_INTRINSIC_OR_PORTABLE(intrinsic_call, portable_call) portable_call
#endif

namespace dpx {
namespace ops {

namespace lanes {
// 16-bit lane helpers for the portable definitions.
DPX_HD std::uint32_t lo(std::uint32_t w) { return w & 0xFFFFu; }
DPX_HD std::uint32_t hi(std::uint32_t w) { return w >> 16; }
DPX_HD std::int32_t slo(std::uint32_t w) { return static_cast<std::int16_t>(w & 0xFFFFu); }
DPX_HD std::int32_t shi(std::uint32_t w) { return static_cast<std::int16_t>(w >> 16); }
DPX_HD std::uint32_t pack(std::int32_t lo16, std::int32_t hi16) {
  return (static_cast<std::uint32_t>(lo16) & 0xFFFFu) | (static_cast<std::uint32_t>(hi16) << 16);
}
template <typename T>
DPX_HD T max2(T a, T b) { return a > b ? a : b; }
template <typename T>
DPX_HD T min2(T a, T b) { return a < b ? a : b; }
DPX_HD std::int32_t relu(std::int32_t v) { return v > 0 ? v : 0; }
// Wrapping 16-bit add, interpreted as signed / unsigned.
DPX_HD std::int32_t sadd16(std::int32_t a, std::int32_t b) {
  return static_cast<std::int16_t>(static_cast<std::uint16_t>(a + b));
}
DPX_HD std::uint32_t uadd16(std::uint32_t a, std::uint32_t b) { return (a + b) & 0xFFFFu; }
DPX_HD std::int32_t wadd32(std::int32_t a, std::int32_t b) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
}
}  // namespace lanes

// Portable definitions: what every operation means, and the host side of both policies.
struct Plain {

  // --- 32-bit three-operand max/min -------------------------------------------------------------
  static DPX_HD std::int32_t max3_s32(std::int32_t a, std::int32_t b, std::int32_t c) {
    return lanes::max2(lanes::max2(a, b), c);
  }
  static DPX_HD std::int32_t min3_s32(std::int32_t a, std::int32_t b, std::int32_t c) {
    return lanes::min2(lanes::min2(a, b), c);
  }
  static DPX_HD std::uint32_t max3_u32(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return lanes::max2(lanes::max2(a, b), c);
  }
  static DPX_HD std::uint32_t min3_u32(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return lanes::min2(lanes::min2(a, b), c);
  }
  static DPX_HD std::int32_t max_s32_relu(std::int32_t a, std::int32_t b) {
    return lanes::relu(lanes::max2(a, b));
  }
  static DPX_HD std::int32_t max3_s32_relu(std::int32_t a, std::int32_t b, std::int32_t c) {
    return lanes::relu(max3_s32(a, b, c));
  }
  static DPX_HD std::int32_t min3_s32_relu(std::int32_t a, std::int32_t b, std::int32_t c) {
    return lanes::relu(min3_s32(a, b, c));
  }

  // --- packed 16-bit three-operand max/min ------------------------------------------------------
  static DPX_HD std::uint32_t max3_u16x2(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return lanes::pack(max3_u32(lanes::lo(a), lanes::lo(b), lanes::lo(c)),
                       max3_u32(lanes::hi(a), lanes::hi(b), lanes::hi(c)));
  }
  static DPX_HD std::uint32_t min3_u16x2(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return lanes::pack(min3_u32(lanes::lo(a), lanes::lo(b), lanes::lo(c)),
                       min3_u32(lanes::hi(a), lanes::hi(b), lanes::hi(c)));
  }
  static DPX_HD std::uint32_t max3_s16x2(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return lanes::pack(max3_s32(lanes::slo(a), lanes::slo(b), lanes::slo(c)),
                       max3_s32(lanes::shi(a), lanes::shi(b), lanes::shi(c)));
  }
  static DPX_HD std::uint32_t min3_s16x2(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return lanes::pack(min3_s32(lanes::slo(a), lanes::slo(b), lanes::slo(c)),
                       min3_s32(lanes::shi(a), lanes::shi(b), lanes::shi(c)));
  }
  static DPX_HD std::uint32_t max_s16x2(std::uint32_t a, std::uint32_t b) {
    return lanes::pack(lanes::max2(lanes::slo(a), lanes::slo(b)), lanes::max2(lanes::shi(a), lanes::shi(b)));
  }
  static DPX_HD std::uint32_t min_s16x2(std::uint32_t a, std::uint32_t b) {
    return lanes::pack(lanes::min2(lanes::slo(a), lanes::slo(b)), lanes::min2(lanes::shi(a), lanes::shi(b)));
  }
  static DPX_HD std::uint32_t max_s16x2_relu(std::uint32_t a, std::uint32_t b) {
    return lanes::pack(lanes::relu(lanes::max2(lanes::slo(a), lanes::slo(b))),
                       lanes::relu(lanes::max2(lanes::shi(a), lanes::shi(b))));
  }
  static DPX_HD std::uint32_t min_s16x2_relu(std::uint32_t a, std::uint32_t b) {
    return lanes::pack(lanes::relu(lanes::min2(lanes::slo(a), lanes::slo(b))),
                       lanes::relu(lanes::min2(lanes::shi(a), lanes::shi(b))));
  }
  static DPX_HD std::uint32_t max3_s16x2_relu(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return lanes::pack(lanes::relu(max3_s32(lanes::slo(a), lanes::slo(b), lanes::slo(c))),
                       lanes::relu(max3_s32(lanes::shi(a), lanes::shi(b), lanes::shi(c))));
  }
  static DPX_HD std::uint32_t min3_s16x2_relu(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return lanes::pack(lanes::relu(min3_s32(lanes::slo(a), lanes::slo(b), lanes::slo(c))),
                       lanes::relu(min3_s32(lanes::shi(a), lanes::shi(b), lanes::shi(c))));
  }

  // --- fused add + max/min: op(a + b, c), the add wrapping ---------------------------------------
  static DPX_HD std::int32_t addmax_s32(std::int32_t a, std::int32_t b, std::int32_t c) {
    return lanes::max2(lanes::wadd32(a, b), c);
  }
  static DPX_HD std::int32_t addmin_s32(std::int32_t a, std::int32_t b, std::int32_t c) {
    return lanes::min2(lanes::wadd32(a, b), c);
  }
  static DPX_HD std::int32_t addmax_s32_relu(std::int32_t a, std::int32_t b, std::int32_t c) {
    return lanes::relu(addmax_s32(a, b, c));
  }
  static DPX_HD std::uint32_t addmax_u32(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return lanes::max2(a + b, c);
  }
  static DPX_HD std::uint32_t addmin_u32(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return lanes::min2(a + b, c);
  }
  static DPX_HD std::uint32_t add_s16x2(std::uint32_t a, std::uint32_t b) {
    return lanes::pack(lanes::sadd16(lanes::slo(a), lanes::slo(b)), lanes::sadd16(lanes::shi(a), lanes::shi(b)));
  }
  static DPX_HD std::uint32_t addmax_s16x2(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return lanes::pack(lanes::max2(lanes::sadd16(lanes::slo(a), lanes::slo(b)), lanes::slo(c)),
                       lanes::max2(lanes::sadd16(lanes::shi(a), lanes::shi(b)), lanes::shi(c)));
  }
  static DPX_HD std::uint32_t addmin_s16x2(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return lanes::pack(lanes::min2(lanes::sadd16(lanes::slo(a), lanes::slo(b)), lanes::slo(c)),
                       lanes::min2(lanes::sadd16(lanes::shi(a), lanes::shi(b)), lanes::shi(c)));
  }
  static DPX_HD std::uint32_t addmax_s16x2_relu(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return max_s16x2_relu(addmax_s16x2(a, b, c), 0u);
  }
  static DPX_HD std::uint32_t addmax_u16x2(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return lanes::pack(lanes::max2(lanes::uadd16(lanes::lo(a), lanes::lo(b)), lanes::lo(c)),
                       lanes::max2(lanes::uadd16(lanes::hi(a), lanes::hi(b)), lanes::hi(c)));
  }
  static DPX_HD std::uint32_t addmin_u16x2(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return lanes::pack(lanes::min2(lanes::uadd16(lanes::lo(a), lanes::lo(b)), lanes::lo(c)),
                       lanes::min2(lanes::uadd16(lanes::hi(a), lanes::hi(b)), lanes::hi(c)));
  }

  // --- max/min that also say whether the first operand won (ties: the first wins) --------------
  static DPX_HD std::int32_t bmax_s32(std::int32_t a, std::int32_t b, bool* first) {
    *first = a >= b;
    return *first ? a : b;
  }
  static DPX_HD std::int32_t bmin_s32(std::int32_t a, std::int32_t b, bool* first) {
    *first = a <= b;
    return *first ? a : b;
  }
  static DPX_HD std::uint32_t bmax_u32(std::uint32_t a, std::uint32_t b, bool* first) {
    *first = a >= b;
    return *first ? a : b;
  }
  static DPX_HD std::uint32_t bmin_u32(std::uint32_t a, std::uint32_t b, bool* first) {
    *first = a <= b;
    return *first ? a : b;
  }
  static DPX_HD std::uint32_t bmax_s16x2(std::uint32_t a, std::uint32_t b, bool* first_hi,
                                         bool* first_lo) {
    *first_lo = lanes::slo(a) >= lanes::slo(b);
    *first_hi = lanes::shi(a) >= lanes::shi(b);
    return lanes::pack(*first_lo ? lanes::slo(a) : lanes::slo(b),
                       *first_hi ? lanes::shi(a) : lanes::shi(b));
  }
  // bmax_s16x2 that records what it kept: lo_bit (hi_bit) ORed into *bits when the low (high)
  // lane kept a.
  static DPX_HD std::uint32_t bmax_s16x2_bits(std::uint32_t a, std::uint32_t b, std::uint32_t* bits, std::uint32_t lo_bit,
                                              std::uint32_t hi_bit) {
    bool hi, lo;
    const std::uint32_t r = bmax_s16x2(a, b, &hi, &lo);
    *bits |= (lo ? lo_bit : 0u) | (hi ? hi_bit : 0u);
    return r;
  }

  // --- byte SIMD (not DPX): four u8 lanes of a word ---------------------------------------------
  static DPX_HD std::uint32_t max_u8x4(std::uint32_t a, std::uint32_t b) {
    std::uint32_t r = 0;
    for (int s = 0; s < 32; s += 8) r |= lanes::max2((a >> s) & 0xFFu, (b >> s) & 0xFFu) << s;
    return r;
  }
  static DPX_HD std::uint32_t min_u8x4(std::uint32_t a, std::uint32_t b) {
    std::uint32_t r = 0;
    for (int s = 0; s < 32; s += 8) r |= lanes::min2((a >> s) & 0xFFu, (b >> s) & 0xFFu) << s;
    return r;
  }

  // --- sums of absolute differences (not DPX; the inner step of block matching) ----------------
  // acc + sum over the four u8 lanes of |a - b|; the add wraps.
  static DPX_HD std::uint32_t sad_u8x4(std::uint32_t a, std::uint32_t b, std::uint32_t acc) {
    for (int s = 0; s < 32; s += 8) {
      const std::uint32_t x = (a >> s) & 0xFFu, y = (b >> s) & 0xFFu;
      acc += x > y ? x - y : y - x;
    }
    return acc;
  }
  // acc + |a - b| on whole unsigned words; the add wraps.
  static DPX_HD std::uint32_t sad_u32(std::uint32_t a, std::uint32_t b, std::uint32_t acc) {
    return acc + (a > b ? a - b : b - a);
  }
  // acc + |a - b| on signed words (the larger minus the smaller, modulo 2^32); the add wraps.
  static DPX_HD std::uint32_t sad_s32(std::int32_t a, std::int32_t b, std::uint32_t acc) {
    const std::uint32_t ua = static_cast<std::uint32_t>(a), ub = static_cast<std::uint32_t>(b);
    return acc + (a > b ? ua - ub : ub - ua);
  }
};

#if defined(__CUDA_ARCH__)
namespace simd {
// vabsdiff4 in its accumulating form: one instruction per four pixels, where __vsadu4 followed by
// an add costs one more.
__device__ __forceinline__ std::uint32_t sad_u8x4(std::uint32_t a, std::uint32_t b, std::uint32_t acc) {
  std::uint32_t d;
  asm("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(acc));
  return d;
}
// __vibmax_s16x2 with its result operand marked early-clobber. CUDA's own sm_90 form writes the
// result first and then reads `a` again to set the predicates; without the early-clobber the compiler
// may give both the same register (a loop-carried best = bmax(best, v) gets exactly that), and then
// both predicates compare the result with itself and always say "a kept". Same instructions
// otherwise, so ptxas still emits one VIMNMX.S16x2 with its two predicate outputs.
// `a` must not be a constant: with a = 0 ptxas swaps the operands (the constant goes second) and
// the predicates then say whether b was kept (seen on the H200 with CUDA 13.0).
__device__ __forceinline__ std::uint32_t bmax_s16x2(std::uint32_t a, std::uint32_t b, bool* first_hi, bool* first_lo) {
#if __CUDA_ARCH__ >= 900
  std::uint32_t r, hi, lo;
  asm("{.reg .pred ph, pl;\n\t"
      ".reg .s16 r0, r1, a0, a1;\n\t"
      "max.s16x2 %0, %3, %4;\n\t"
      "mov.b32 {r0, r1}, %0;\n\t"
      "mov.b32 {a0, a1}, %3;\n\t"
      "setp.eq.s16 pl, r0, a0;\n\t"
      "setp.eq.s16 ph, r1, a1;\n\t"
      "selp.b32 %1, 1, 0, ph;\n\t"
      "selp.b32 %2, 1, 0, pl;}"
      : "=&r"(r), "=r"(hi), "=r"(lo)
      : "r"(a), "r"(b));
  *first_hi = hi != 0;
  *first_lo = lo != 0;
  return r;
#else
  return __vibmax_s16x2(a, b, first_hi, first_lo);  // the header's emulation reads its inputs first
#endif
}
// The same with the predicates ORing their bits straight into *bits (one predicated OR each, where
// going through bools costs a select and an add).
__device__ __forceinline__ std::uint32_t bmax_s16x2_bits(std::uint32_t a, std::uint32_t b, std::uint32_t* bits,
                                                        std::uint32_t lo_bit, std::uint32_t hi_bit) {
#if __CUDA_ARCH__ >= 900
  std::uint32_t r, x = *bits;
  asm("{.reg .pred ph, pl;\n\t"
      ".reg .s16 r0, r1, a0, a1;\n\t"
      "max.s16x2 %0, %2, %3;\n\t"
      "mov.b32 {r0, r1}, %0;\n\t"
      "mov.b32 {a0, a1}, %2;\n\t"
      "setp.eq.s16 pl, r0, a0;\n\t"
      "setp.eq.s16 ph, r1, a1;\n\t"
      "@pl or.b32 %1, %1, %4;\n\t"
      "@ph or.b32 %1, %1, %5;}"
      : "=&r"(r), "+r"(x)
      : "r"(a), "r"(b), "r"(lo_bit), "r"(hi_bit));
  *bits = x;
  return r;
#else
  bool hi, lo;
  const std::uint32_t r = bmax_s16x2(a, b, &hi, &lo);
  *bits |= (lo ? lo_bit : 0u) | (hi ? hi_bit : 0u);
  return r;
#endif
}
}  // namespace simd
#endif

// The DPX policy: the intrinsics in device code, the portable definitions on the host.
struct Dpx {
  static constexpr const char* kName = "dpx";
  static DPX_HD std::int32_t max3_s32(std::int32_t a, std::int32_t b, std::int32_t c) {
    return DPX_INTRINSIC_OR_PORTABLE(__vimax3_s32(a, b, c), Plain::max3_s32(a, b, c));
  }
  static DPX_HD std::int32_t min3_s32(std::int32_t a, std::int32_t b, std::int32_t c) {
    return DPX_INTRINSIC_OR_PORTABLE(__vimin3_s32(a, b, c), Plain::min3_s32(a, b, c));
  }
  static DPX_HD std::uint32_t max3_u32(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return DPX_INTRINSIC_OR_PORTABLE(__vimax3_u32(a, b, c), Plain::max3_u32(a, b, c));
  }
  static DPX_HD std::uint32_t min3_u32(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return DPX_INTRINSIC_OR_PORTABLE(__vimin3_u32(a, b, c), Plain::min3_u32(a, b, c));
  }
  static DPX_HD std::int32_t max_s32_relu(std::int32_t a, std::int32_t b) {
    return DPX_INTRINSIC_OR_PORTABLE(__vimax_s32_relu(a, b), Plain::max_s32_relu(a, b));
  }
  static DPX_HD std::int32_t max3_s32_relu(std::int32_t a, std::int32_t b, std::int32_t c) {
    return DPX_INTRINSIC_OR_PORTABLE(__vimax3_s32_relu(a, b, c), Plain::max3_s32_relu(a, b, c));
  }
  static DPX_HD std::int32_t min3_s32_relu(std::int32_t a, std::int32_t b, std::int32_t c) {
    return DPX_INTRINSIC_OR_PORTABLE(__vimin3_s32_relu(a, b, c), Plain::min3_s32_relu(a, b, c));
  }
  static DPX_HD std::uint32_t max3_u16x2(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return DPX_INTRINSIC_OR_PORTABLE(__vimax3_u16x2(a, b, c), Plain::max3_u16x2(a, b, c));
  }
  static DPX_HD std::uint32_t min3_u16x2(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return DPX_INTRINSIC_OR_PORTABLE(__vimin3_u16x2(a, b, c), Plain::min3_u16x2(a, b, c));
  }
  static DPX_HD std::uint32_t max3_s16x2(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return DPX_INTRINSIC_OR_PORTABLE(__vimax3_s16x2(a, b, c), Plain::max3_s16x2(a, b, c));
  }
  static DPX_HD std::uint32_t min3_s16x2(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return DPX_INTRINSIC_OR_PORTABLE(__vimin3_s16x2(a, b, c), Plain::min3_s16x2(a, b, c));
  }
  // Two-operand packed max/min have no DPX form: the SIMD instruction, as in PlainOps.
  static DPX_HD std::uint32_t max_s16x2(std::uint32_t a, std::uint32_t b) {
    return DPX_INTRINSIC_OR_PORTABLE(__vmaxs2(a, b), Plain::max_s16x2(a, b));
  }
  static DPX_HD std::uint32_t min_s16x2(std::uint32_t a, std::uint32_t b) {
    return DPX_INTRINSIC_OR_PORTABLE(__vmins2(a, b), Plain::min_s16x2(a, b));
  }
  static DPX_HD std::uint32_t max_s16x2_relu(std::uint32_t a, std::uint32_t b) {
    return DPX_INTRINSIC_OR_PORTABLE(__vimax_s16x2_relu(a, b), Plain::max_s16x2_relu(a, b));
  }
  static DPX_HD std::uint32_t min_s16x2_relu(std::uint32_t a, std::uint32_t b) {
    return DPX_INTRINSIC_OR_PORTABLE(__vimin_s16x2_relu(a, b), Plain::min_s16x2_relu(a, b));
  }
  static DPX_HD std::uint32_t max3_s16x2_relu(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return DPX_INTRINSIC_OR_PORTABLE(__vimax3_s16x2_relu(a, b, c), Plain::max3_s16x2_relu(a, b, c));
  }
  static DPX_HD std::uint32_t min3_s16x2_relu(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return DPX_INTRINSIC_OR_PORTABLE(__vimin3_s16x2_relu(a, b, c), Plain::min3_s16x2_relu(a, b, c));
  }
  static DPX_HD std::int32_t addmax_s32(std::int32_t a, std::int32_t b, std::int32_t c) {
    return DPX_INTRINSIC_OR_PORTABLE(__viaddmax_s32(a, b, c), Plain::addmax_s32(a, b, c));
  }
  static DPX_HD std::int32_t addmin_s32(std::int32_t a, std::int32_t b, std::int32_t c) {
    return DPX_INTRINSIC_OR_PORTABLE(__viaddmin_s32(a, b, c), Plain::addmin_s32(a, b, c));
  }
  static DPX_HD std::int32_t addmax_s32_relu(std::int32_t a, std::int32_t b, std::int32_t c) {
    return DPX_INTRINSIC_OR_PORTABLE(__viaddmax_s32_relu(a, b, c), Plain::addmax_s32_relu(a, b, c));
  }
  static DPX_HD std::uint32_t addmax_u32(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return DPX_INTRINSIC_OR_PORTABLE(__viaddmax_u32(a, b, c), Plain::addmax_u32(a, b, c));
  }
  static DPX_HD std::uint32_t addmin_u32(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return DPX_INTRINSIC_OR_PORTABLE(__viaddmin_u32(a, b, c), Plain::addmin_u32(a, b, c));
  }
  // Packed add: the SIMD instruction, as in PlainOps (DPX has no plain add).
  static DPX_HD std::uint32_t add_s16x2(std::uint32_t a, std::uint32_t b) {
    return DPX_INTRINSIC_OR_PORTABLE(__vadd2(a, b), Plain::add_s16x2(a, b));
  }
  static DPX_HD std::uint32_t addmax_s16x2(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return DPX_INTRINSIC_OR_PORTABLE(__viaddmax_s16x2(a, b, c), Plain::addmax_s16x2(a, b, c));
  }
  static DPX_HD std::uint32_t addmin_s16x2(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return DPX_INTRINSIC_OR_PORTABLE(__viaddmin_s16x2(a, b, c), Plain::addmin_s16x2(a, b, c));
  }
  static DPX_HD std::uint32_t addmax_s16x2_relu(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return DPX_INTRINSIC_OR_PORTABLE(__viaddmax_s16x2_relu(a, b, c), Plain::addmax_s16x2_relu(a, b, c));
  }
  static DPX_HD std::uint32_t addmax_u16x2(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return DPX_INTRINSIC_OR_PORTABLE(__viaddmax_u16x2(a, b, c), Plain::addmax_u16x2(a, b, c));
  }
  static DPX_HD std::uint32_t addmin_u16x2(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return DPX_INTRINSIC_OR_PORTABLE(__viaddmin_u16x2(a, b, c), Plain::addmin_u16x2(a, b, c));
  }
  static DPX_HD std::int32_t bmax_s32(std::int32_t a, std::int32_t b, bool* first) {
    return DPX_INTRINSIC_OR_PORTABLE(__vibmax_s32(a, b, first), Plain::bmax_s32(a, b, first));
  }
  static DPX_HD std::int32_t bmin_s32(std::int32_t a, std::int32_t b, bool* first) {
    return DPX_INTRINSIC_OR_PORTABLE(__vibmin_s32(a, b, first), Plain::bmin_s32(a, b, first));
  }
  static DPX_HD std::uint32_t bmax_u32(std::uint32_t a, std::uint32_t b, bool* first) {
    return DPX_INTRINSIC_OR_PORTABLE(__vibmax_u32(a, b, first), Plain::bmax_u32(a, b, first));
  }
  static DPX_HD std::uint32_t bmin_u32(std::uint32_t a, std::uint32_t b, bool* first) {
    return DPX_INTRINSIC_OR_PORTABLE(__vibmin_u32(a, b, first), Plain::bmin_u32(a, b, first));
  }
  static DPX_HD std::uint32_t bmax_s16x2(std::uint32_t a, std::uint32_t b, bool* first_hi, bool* first_lo) {
    return DPX_INTRINSIC_OR_PORTABLE(simd::bmax_s16x2(a, b, first_hi, first_lo),
                                     Plain::bmax_s16x2(a, b, first_hi, first_lo));
  }
  static DPX_HD std::uint32_t bmax_s16x2_bits(std::uint32_t a, std::uint32_t b, std::uint32_t* bits, std::uint32_t lo_bit,
                                              std::uint32_t hi_bit) {
    return DPX_INTRINSIC_OR_PORTABLE(simd::bmax_s16x2_bits(a, b, bits, lo_bit, hi_bit),
                                     Plain::bmax_s16x2_bits(a, b, bits, lo_bit, hi_bit));
  }
  static DPX_HD std::uint32_t max_u8x4(std::uint32_t a, std::uint32_t b) {
    return DPX_INTRINSIC_OR_PORTABLE(__vmaxu4(a, b), Plain::max_u8x4(a, b));
  }
  static DPX_HD std::uint32_t min_u8x4(std::uint32_t a, std::uint32_t b) {
    return DPX_INTRINSIC_OR_PORTABLE(__vminu4(a, b), Plain::min_u8x4(a, b));
  }
  static DPX_HD std::uint32_t sad_u8x4(std::uint32_t a, std::uint32_t b, std::uint32_t acc) {
    return DPX_INTRINSIC_OR_PORTABLE(simd::sad_u8x4(a, b, acc), Plain::sad_u8x4(a, b, acc));
  }
  static DPX_HD std::uint32_t sad_u32(std::uint32_t a, std::uint32_t b, std::uint32_t acc) {
    return DPX_INTRINSIC_OR_PORTABLE(__usad(a, b, acc), Plain::sad_u32(a, b, acc));
  }
  // One VABSDIFF that also adds (sm_90), where |a - b| + acc would take three instructions.
  static DPX_HD std::uint32_t sad_s32(std::int32_t a, std::int32_t b, std::uint32_t acc) {
    return DPX_INTRINSIC_OR_PORTABLE(__sad(a, b, acc), Plain::sad_s32(a, b, acc));
  }
};

// The plain policy kernels name: two-operand max/min only. On the GPU its packed forms use the
// two-operand SIMD instructions, so a comparison against Dpx measures the three-operand and fused
// instructions and nothing else.
struct PlainOps : Plain {
  static constexpr const char* kName = "plain";
  static DPX_HD std::uint32_t max3_u16x2(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return DPX_INTRINSIC_OR_PORTABLE(__vmaxu2(__vmaxu2(a, b), c), Plain::max3_u16x2(a, b, c));
  }
  static DPX_HD std::uint32_t min3_u16x2(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return DPX_INTRINSIC_OR_PORTABLE(__vminu2(__vminu2(a, b), c), Plain::min3_u16x2(a, b, c));
  }
  static DPX_HD std::uint32_t max3_s16x2(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return DPX_INTRINSIC_OR_PORTABLE(__vmaxs2(__vmaxs2(a, b), c), Plain::max3_s16x2(a, b, c));
  }
  static DPX_HD std::uint32_t min3_s16x2(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return DPX_INTRINSIC_OR_PORTABLE(__vmins2(__vmins2(a, b), c), Plain::min3_s16x2(a, b, c));
  }
  // Packed add (per-lane wrap, no carry between lanes) then two-operand min.
  static DPX_HD std::uint32_t addmin_u16x2(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return DPX_INTRINSIC_OR_PORTABLE(__vminu2(__vadd2(a, b), c), Plain::addmin_u16x2(a, b, c));
  }
  // The same for the signed max.
  static DPX_HD std::uint32_t addmax_s16x2(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return DPX_INTRINSIC_OR_PORTABLE(__vmaxs2(__vadd2(a, b), c), Plain::addmax_s16x2(a, b, c));
  }
  static DPX_HD std::uint32_t add_s16x2(std::uint32_t a, std::uint32_t b) {
    return DPX_INTRINSIC_OR_PORTABLE(__vadd2(a, b), Plain::add_s16x2(a, b));
  }
  static DPX_HD std::uint32_t max_u8x4(std::uint32_t a, std::uint32_t b) {
    return DPX_INTRINSIC_OR_PORTABLE(__vmaxu4(a, b), Plain::max_u8x4(a, b));
  }
  static DPX_HD std::uint32_t min_u8x4(std::uint32_t a, std::uint32_t b) {
    return DPX_INTRINSIC_OR_PORTABLE(__vminu4(a, b), Plain::min_u8x4(a, b));
  }
  static DPX_HD std::uint32_t max_s16x2(std::uint32_t a, std::uint32_t b) {
    return DPX_INTRINSIC_OR_PORTABLE(__vmaxs2(a, b), Plain::max_s16x2(a, b));
  }
  static DPX_HD std::uint32_t min_s16x2(std::uint32_t a, std::uint32_t b) {
    return DPX_INTRINSIC_OR_PORTABLE(__vmins2(a, b), Plain::min_s16x2(a, b));
  }
  // The ReLU forms as a separate max with 0 (what the CUDA headers do below sm_90).
  static DPX_HD std::uint32_t max_s16x2_relu(std::uint32_t a, std::uint32_t b) {
    return DPX_INTRINSIC_OR_PORTABLE(__vmaxs2(__vmaxs2(a, b), 0u), Plain::max_s16x2_relu(a, b));
  }
  static DPX_HD std::uint32_t min_s16x2_relu(std::uint32_t a, std::uint32_t b) {
    return DPX_INTRINSIC_OR_PORTABLE(__vmaxs2(__vmins2(a, b), 0u), Plain::min_s16x2_relu(a, b));
  }
  static DPX_HD std::uint32_t max3_s16x2_relu(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return DPX_INTRINSIC_OR_PORTABLE(__vmaxs2(__vmaxs2(__vmaxs2(a, b), c), 0u), Plain::max3_s16x2_relu(a, b, c));
  }
  static DPX_HD std::uint32_t min3_s16x2_relu(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return DPX_INTRINSIC_OR_PORTABLE(__vmaxs2(__vmins2(__vmins2(a, b), c), 0u), Plain::min3_s16x2_relu(a, b, c));
  }
  static DPX_HD std::uint32_t sad_u8x4(std::uint32_t a, std::uint32_t b, std::uint32_t acc) {
    return DPX_INTRINSIC_OR_PORTABLE(simd::sad_u8x4(a, b, acc), Plain::sad_u8x4(a, b, acc));
  }
  static DPX_HD std::uint32_t sad_u32(std::uint32_t a, std::uint32_t b, std::uint32_t acc) {
    return DPX_INTRINSIC_OR_PORTABLE(__usad(a, b, acc), Plain::sad_u32(a, b, acc));
  }
  // One VABSDIFF that also adds (sm_90), where |a - b| + acc would take three instructions.
  static DPX_HD std::uint32_t sad_s32(std::int32_t a, std::int32_t b, std::uint32_t acc) {
    return DPX_INTRINSIC_OR_PORTABLE(__sad(a, b, acc), Plain::sad_s32(a, b, acc));
  }
};

}  // namespace ops
}  // namespace dpx
