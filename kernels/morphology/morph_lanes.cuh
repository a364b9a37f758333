// Lane formats of the CUDA morphology: how the 32-bit words of a tile row are reduced.
//
// The tile keeps the image's own bytes ("storage words"). Each format turns a storage word into
// one or two "compute words" of lanes, one sample per lane, and says which instruction takes the
// max/min of three compute words lane by lane:
//   U16x2Lanes  — u16 samples, two per word, as stored: Ops::max3_u16x2 / min3_u16x2 (DPX).
//   U8WideLanes — u8 samples widened to 16-bit lanes (b0 b1 | b2 b3 -> two words), so that the
//                 same packed 16-bit three-operand instructions apply; narrowed again on store.
//   U8x4Lanes   — u8 samples, four per word, byte SIMD: two Ops::max_u8x4 (__vmaxu4).
// The kernels take the format (which carries the policy and dilate/erode) as a template
// parameter; channels and shifts are expressed in lanes, so the tile code is format-agnostic.
#pragma once

#include <cstdint>

#include "dpx_ops.cuh"

namespace dpx {
namespace morph {

// What every format states: sample type, lanes per compute word, compute words per storage
// word, the sample that never wins, and the identity conversion.
template <class Ops, bool kMax, typename SampleT, int kLanesPerWord, int kComputeWords>
struct LaneFormat {
  using Policy = Ops;
  using Sample = SampleT;
  static constexpr int kLanes = kLanesPerWord;
  static constexpr int kLaneBits = 32 / kLanesPerWord;
  static constexpr int kComputePerStorage = kComputeWords;
  static constexpr Sample kNeutral = kMax ? 0 : static_cast<Sample>(~Sample{0});

  static __device__ __forceinline__ void widen(std::uint32_t s, std::uint32_t* c) { c[0] = s; }
  static __device__ __forceinline__ std::uint32_t narrow(const std::uint32_t* c) { return c[0]; }
};

// Two 16-bit lanes per compute word: the packed three-operand instructions.
template <class Ops, bool kMax, typename SampleT, int kComputeWords>
struct Packed16Lanes : LaneFormat<Ops, kMax, SampleT, 2, kComputeWords> {
  static __device__ __forceinline__ std::uint32_t reduce3(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return kMax ? Ops::max3_u16x2(a, b, c) : Ops::min3_u16x2(a, b, c);
  }
};

template <class Ops, bool kMax>
struct U16x2Lanes : Packed16Lanes<Ops, kMax, std::uint16_t, 1> {};

template <class Ops, bool kMax>
struct U8WideLanes : Packed16Lanes<Ops, kMax, std::uint8_t, 2> {
  // Bytes b0 b1 b2 b3 -> lanes (b0, b1) and (b2, b3): sample order is kept, one sample per lane.
  static __device__ __forceinline__ void widen(std::uint32_t s, std::uint32_t* c) {
    c[0] = __byte_perm(s, 0u, 0x4140);
    c[1] = __byte_perm(s, 0u, 0x4342);
  }
  static __device__ __forceinline__ std::uint32_t narrow(const std::uint32_t* c) {
    return __byte_perm(c[0], c[1], 0x6420);
  }
};

template <class Ops, bool kMax>
struct U8x4Lanes : LaneFormat<Ops, kMax, std::uint8_t, 4, 1> {
  static __device__ __forceinline__ std::uint32_t reduce3(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return kMax ? Ops::max_u8x4(Ops::max_u8x4(a, b), c) : Ops::min_u8x4(Ops::min_u8x4(a, b), c);
  }
};

// max(x - y, 0) sample by sample of two storage words (the compound operations' difference).
template <typename Sample>
__device__ __forceinline__ std::uint32_t subtract_saturated(std::uint32_t x, std::uint32_t y) {
  if constexpr (sizeof(Sample) == 1) {
    return __vsubus4(x, y);
  } else {
    return __vsubus2(x, y);
  }
}

}  // namespace morph
}  // namespace dpx
