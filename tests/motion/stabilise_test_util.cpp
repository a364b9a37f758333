#include "stabilise_test_util.h"

#include <cmath>
#include <cstring>

namespace dpx {
namespace test {

HostImage::HostImage(int w, int h, int c, SampleType t, int pad)
    : width(w), height(h), channels(c), type(t),
      pitch(static_cast<std::size_t>(w) * c * sample_bytes(t) + pad),
      bytes(pitch * h, 0) {}

int HostImage::get(int x, int y, int c) const {
  const std::uint8_t *row = bytes.data() + static_cast<std::size_t>(y) * pitch;
  if (type == SampleType::kU8)
    return row[x * channels + c];
  std::uint16_t v;
  std::memcpy(&v, row + 2 * (x * channels + c), 2);
  return v;
}

void HostImage::set(int x, int y, int c, int v) {
  std::uint8_t *row = bytes.data() + static_cast<std::size_t>(y) * pitch;
  if (type == SampleType::kU8) {
    row[x * channels + c] = static_cast<std::uint8_t>(v);
    return;
  }
  const std::uint16_t s = static_cast<std::uint16_t>(v);
  std::memcpy(row + 2 * (x * channels + c), &s, 2);
}

HostImage random_image(std::mt19937_64 &rng, int w, int h, int channels,
                       SampleType type, int pad) {
  HostImage img(w, h, channels, type, pad);
  std::uniform_int_distribution<int> dist(0, type == SampleType::kU8 ? 255
                                                                     : 65535);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < channels; ++c)
        img.set(x, y, c, dist(rng));
  return img;
}

HostImage random_scene(std::mt19937_64 &rng, int w, int h) {
  // Sums of random blobs at a few scales, then grain.
  std::vector<double> acc(static_cast<std::size_t>(w) * h, 0.0);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int scale : {48, 16, 6}) {
    const int gw = w / scale + 2, gh = h / scale + 2;
    std::vector<double> grid(static_cast<std::size_t>(gw) * gh);
    for (auto &g : grid)
      g = u(rng);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const double fx = double(x) / scale, fy = double(y) / scale;
        const int ix = static_cast<int>(fx), iy = static_cast<int>(fy);
        const double ax = fx - ix, ay = fy - iy;
        const double v =
            (grid[iy * gw + ix] * (1 - ax) + grid[iy * gw + ix + 1] * ax) *
                (1 - ay) +
            (grid[(iy + 1) * gw + ix] * (1 - ax) +
             grid[(iy + 1) * gw + ix + 1] * ax) *
                ay;
        acc[static_cast<std::size_t>(y) * w + x] += v * scale;
      }
  }
  HostImage img(w, h, 1, SampleType::kU8);
  std::normal_distribution<double> grain(0.0, 2.0);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const double v =
          (acc[static_cast<std::size_t>(y) * w + x] - 35.0) / 25.0 * 255.0 +
          128.0 + grain(rng);
      img.set(
          x, y, 0,
          static_cast<int>(std::lround(std::fmax(0.0, std::fmin(255.0, v)))));
    }
  return img;
}

HostImage view_of(const HostImage &scene, const Similarity &camera,
                  double origin_x, double origin_y, int width, int height) {
  // The scene window of the frame's size at the origin, warped by `camera`
  // about its centre: the same map as warp_plan (the library's warp is tested
  // on its own against a plain reference).
  HostImage window(width, height, 1, SampleType::kU8);
  const int ox = static_cast<int>(origin_x), oy = static_cast<int>(origin_y);
  Similarity rest = camera;
  rest.tx += origin_x - ox;
  rest.ty += origin_y - oy;
  // Read the window with a margin large enough for the camera's reach.
  const int margin = 64;
  HostImage big(width + 2 * margin, height + 2 * margin, 1, SampleType::kU8);
  for (int y = 0; y < big.height; ++y)
    for (int x = 0; x < big.width; ++x)
      big.set(x, y, 0, scene.get(ox + x - margin, oy + y - margin, 0));
  HostImage out(big.width, big.height, 1, SampleType::kU8);
  const WarpPlan plan =
      warp_plan(rest, 1.0, big.width, big.height, 1, 1,
                WarpInterpolation::kBicubic, WarpBorder::kReplicate);
  (void)warp_plane_cpu(big.view(), out.mutable_view(), plan, 1);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      window.set(x, y, 0, out.get(x + margin, y + margin, 0));
  return window;
}

} // namespace test
} // namespace dpx
