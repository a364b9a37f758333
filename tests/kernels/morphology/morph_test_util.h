// Shared by the morphology tests: host planes with padded pitches and poisoned padding, random
// contents, the brute-force definition of dilate/erode, and the matrix of cases.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "dpx/morphology.h"

namespace dpx {
namespace test {

// A plane in a host buffer: `offset` bytes before the first row (to misalign it) and
// `pitch - row_bytes` bytes of padding after each row, all initialised to kPoisonByte.
// make_plane() counts `pitch_pad` and `offset` in samples, so u16 planes stay 2-byte aligned.
struct HostPlane {
  std::vector<std::uint8_t> bytes;
  int width = 0, height = 0, channels = 1;
  SampleType type = SampleType::kU8;
  std::size_t pitch = 0, offset = 0;

  std::size_t row_bytes() const { return static_cast<std::size_t>(width) * channels * sample_bytes(type); }
  PlaneView view() const { return PlaneView{bytes.data() + offset, width, height, pitch, channels, type}; }
  MutablePlaneView mutable_view() {
    return MutablePlaneView{bytes.data() + offset, width, height, pitch, channels, type};
  }
  int get(int x, int y, int c) const;
  void set(int x, int y, int c, int v);
};

HostPlane make_plane(int width, int height, int channels, SampleType type, std::size_t pitch_pad = 0,
                     std::size_t offset = 0);

// Pitch that keeps 16-byte alignment (row_bytes + pitch_pad samples, rounded up to 16 bytes).
std::size_t aligned_pitch(int width, int channels, SampleType type, std::size_t pitch_pad);

// Random samples, with about one in eight at 0 or the type's maximum so ties and the neutral
// values themselves are exercised.
void fill_random(HostPlane& plane, std::mt19937_64& rng);

// Every operation straight from the definition: dilate/erode over every mask position of
// morph_mask(), each outside coordinate resolved on its own (reflect101 through its period
// 2n - 2), iterations applied one after another; the compound operations composed as OpenCV's
// morphologyEx defines them. Independent of both implementations.
HostPlane reference_morph(const HostPlane& src, const MorphParams& params);

// First differing sample of two planes' rows ("" when equal), e.g. "x 3 y 0 c 1: 17 vs 200".
std::string first_difference(const HostPlane& expected, const HostPlane& actual);

// True when every byte outside the rows (offset and pitch padding) still holds kPoisonByte.
bool padding_untouched(const HostPlane& plane);

// One combination of everything but the geometry and the iterations.
struct MorphCase {
  MorphParams params;
  int channels = 1;
  SampleType type = SampleType::kU8;
};

// Dilate/erode x shape x {3, 5} x border x channels x type (the fused kernels' cases).
std::vector<MorphCase> all_morph_cases();

// Every operation x shape x size class x border, each with one of the channel / sample type
// combinations in turn (all of them appear across the list).
std::vector<MorphCase> operation_cases();

std::string describe(const MorphCase& c);

// Sizes that catch edge handling: single pixels, single rows and columns, sizes smaller than
// the element, widths that are not multiples of 4, 16 or a tile, padded and odd pitches,
// misaligned first rows, and 16-byte aligned pitches longer than the row (where vector stores
// could spill into the padding). pitch_pad and offset count samples.
struct Geometry {
  int width, height;
  std::size_t pitch_pad, offset;
  bool align16;  // round the pitch up to a multiple of 16 bytes (offset is then 0)
};
HostPlane make_plane(const Geometry& g, int channels, SampleType type);
const std::vector<Geometry>& edge_geometries();

// The frames operation_cases() run on: tiny, smaller than the element, padded, misaligned.
const std::vector<Geometry>& operation_geometries(const MorphParams& params);

}  // namespace test
}  // namespace dpx
