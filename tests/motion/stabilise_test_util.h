// Test fixtures for the stabiliser: interleaved host images of any channel
// count and sample type, and frames of a textured scene seen through a known
// similarity.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "dpx/plane.h"
#include "dpx/stabilise.h"

namespace dpx {
namespace test {

// A host image of `channels` interleaved u8 or u16 samples with `pad` bytes
// after each row.
struct HostImage {
  int width = 0, height = 0, channels = 1;
  SampleType type = SampleType::kU8;
  std::size_t pitch = 0;
  std::vector<std::uint8_t> bytes;

  HostImage() = default;
  HostImage(int w, int h, int c, SampleType t, int pad = 0);
  int get(int x, int y, int c) const;
  void set(int x, int y, int c, int v);
  PlaneView view() const {
    return PlaneView{bytes.data(), width, height, pitch, channels, type};
  }
  MutablePlaneView mutable_view() {
    return MutablePlaneView{bytes.data(), width, height, pitch, channels, type};
  }
};

// Uniform random samples over the type's range.
HostImage random_image(std::mt19937_64 &rng, int w, int h, int channels,
                       SampleType type, int pad = 0);

// A smooth random scene with grain (8-bit), larger than the frames cut from it.
HostImage random_scene(std::mt19937_64 &rng, int w, int h);

// The frame of `scene` whose pixel p shows the scene at camera(p) + origin,
// bicubic: the frame that `camera` maps to the scene (one channel, u8, width x
// height).
HostImage view_of(const HostImage &scene, const Similarity &camera,
                  double origin_x, double origin_y, int width, int height);

} // namespace test
} // namespace dpx
