// Lane formats of the CUDA morphology: how the 32-bit words of a tile row are reduced.
//
// The tile keeps the image's own bytes ("storage words"). Each format turns a storage word into
// one or two "compute words" of lanes, one sample per lane, and says which instruction takes the
// max/min of three compute words lane by lane:
//   U16x2Lanes  — u16 samples, two per word, as stored: Ops::max3_u16x2 / min3_u16x2 (DPX).
//   U8WideLanes — u8 samples widened to 16-bit lanes (b0 b1 | b2 b3 -> two words), so that the
//                 same packed 16-bit three-operand instructions apply; narrowed again on store.
//   U8SplitLanes — u8 samples as the high bytes of 16-bit lanes, the even samples in one compute
//                 word and the odd ones in the other (1 instruction to split, where widening takes 2).
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
  // Compute word 0 holds a storage word's even samples and word 1 its odd ones (U8SplitLanes);
  // otherwise the samples keep their order across the compute words.
  static constexpr bool kEvenOdd = false;

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
struct U8SplitLanes : Packed16Lanes<Ops, kMax, std::uint8_t, 2> {
  static constexpr bool kEvenOdd = true;
  // Bytes b0 b1 b2 b3 -> lanes whose high bytes are (b0, b2) and (b1, b3): the word moved up a byte
  // and the word itself. The low bytes are whatever they are: the high byte of a 16-bit max/min is
  // the max/min of the high bytes, so the samples' results never depend on them.
  static __device__ __forceinline__ void widen(std::uint32_t s, std::uint32_t* c) {
    c[0] = s << 8;
    c[1] = s;
  }
  static __device__ __forceinline__ std::uint32_t narrow(const std::uint32_t* c) {
    return __byte_perm(c[0], c[1], 0x7351);
  }
};

// The format a pass over pixels of C channels runs for L: L, except that the split form of two
// channels is the widened one. There a pixel's two samples are one compute word, which moves along
// the row as a whole word; split, each half would take a funnel shift a word.
template <class L, int C>
struct ChannelLanes {
  using type = L;
};
template <class Ops, bool kMax>
struct ChannelLanes<U8SplitLanes<Ops, kMax>, 2> {
  using type = U8WideLanes<Ops, kMax>;
};
template <class L, int C>
using LanesFor = typename ChannelLanes<L, C>::type;

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
