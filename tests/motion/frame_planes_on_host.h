// The frame-wide phase planes (frame_planes.h) for the tests: built on the host by the kernel's own
// tile steps — every thread index of a tile stages its share, then every one builds its share, as
// frame_planes_kernel runs them — and checked sample by sample against the filter functor.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frame_planes.h"
#include "motion_test_util.h"
#include "test_util.h"

namespace dpx {
namespace test {

// A buffer of planes for a frame, poisoned (unwritten samples show).
struct HostFramePlanes {
  std::vector<unsigned char> bytes;
  motion_detail::PhasePlanes planes;
  HostFramePlanes(int width, int height, int sample_bytes) {
    planes.layout = motion_detail::frame_planes_layout(width, height, sample_bytes);
    bytes.assign(planes.layout.total_bytes(), kPoisonByte);
    planes.data = bytes.data();
  }
};

// frame_planes_kernel's steps over every tile of the frame `ref` (rows `ref_pitch` bytes apart)
// into `planes`, tiles staged into a buffer of stale samples.
template <typename T>
void build_frame_planes_on_host(const unsigned char* ref, std::size_t ref_pitch, int width, int height,
                                MotionInterpolation mode, const motion_detail::PhasePlanes& planes) {
  namespace md = motion_detail;
  using Tile = md::FramePlaneTile;
  const md::FrameSamples<T> frame{ref, ref, ref_pitch, ref_pitch, width, height};
  const md::FramePlanes<T> out = md::FramePlanes<T>::of(planes);
  const md::SubpelFilter f = md::subpel_filter(mode, sizeof(T));
  std::vector<T> tile(Tile::kSamples);
  for (int ty = 0; ty < Tile::rows(height); ++ty)
    for (int tx = 0; tx < Tile::columns(width); ++tx) {
      std::fill(tile.begin(), tile.end(), static_cast<T>(0xA5A5u));
      for (int t = 0; t < Tile::kThreads; ++t) md::stage_plane_tile(frame, tx, ty, t, tile.data());
      for (int t = 0; t < Tile::kThreads; ++t)
        md::build_plane_tile(f, out, width, height, tx, ty, t, tile.data());
    }
}

// The first sample of `planes` (host bytes in `layout`) that differs from the functor's sample of
// `ref` (SubpelFilter, the frame's edges replicated) — every phase, the frame and its one-sample
// margin — or a padding byte past a row that was written; "" when none.
inline std::string first_plane_difference(const TestPlane& ref, MotionInterpolation mode,
                                          const std::vector<unsigned char>& bytes,
                                          const motion_detail::FramePlanesLayout& layout) {
  namespace md = motion_detail;
  const int w = ref.width(), h = ref.height(), sample = ref.type() == SampleType::kU8 ? 1 : 2;
  const md::SubpelFilter f = md::subpel_filter(mode, sample);
  const md::FrameSamples<std::uint8_t> u8{
      ref.bytes().data(), ref.bytes().data(), ref.pitch(), ref.pitch(), w, h};
  const md::FrameSamples<std::uint16_t> u16{
      ref.bytes().data(), ref.bytes().data(), ref.pitch(), ref.pitch(), w, h};
  const std::size_t row_bytes = static_cast<std::size_t>(w + 2 * md::kFramePlaneMargin) * sample;
  for (int p = 0; p < 16; ++p)
    for (int y = -1; y <= h; ++y) {
      const unsigned char* row = bytes.data() + p * layout.plane_bytes + (y + 1) * layout.pitch;
      for (int x = -1; x <= w; ++x) {
        const unsigned char* at = row + (x + 1) * sample;
        const int got = sample == 1 ? at[0] : at[0] | at[1] << 8;
        const int want = sample == 1
                             ? f(md::EdgeSamples<md::FrameSamples<std::uint8_t>>{u8}, x, y, p & 3, p >> 2)
                             : f(md::EdgeSamples<md::FrameSamples<std::uint16_t>>{u16}, x, y, p & 3, p >> 2);
        if (got != want)
          return "phase (" + std::to_string(p & 3) + ", " + std::to_string(p >> 2) + ") sample (" +
                 std::to_string(x) + ", " + std::to_string(y) + "): " + std::to_string(got) +
                 ", the filter " + std::to_string(want);
      }
      for (std::size_t i = row_bytes; i < layout.pitch; ++i)
        if (row[i] != kPoisonByte)
          return "padding byte " + std::to_string(i) + " of row " + std::to_string(y) + " written";
    }
  return "";
}

}  // namespace test
}  // namespace dpx
