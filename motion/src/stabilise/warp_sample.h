// The warp's per-pixel work, the one definition both backends run: integer
// arithmetic on the fixed-point plan, so the CPU and CUDA warps agree bit for
// bit by construction.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dpx/stabilise.h"
#include "dpx_ops.cuh"

namespace dpx {
namespace stabilise_detail {

constexpr int kWeightBits = 8; // bilinear/bicubic phase: 1/256 pixel
constexpr int kPhaseShift = kWarpFracBits - kWeightBits;
constexpr int kCubicBits = 11; // bicubic tap weights sum to 2^11

// One interleaved plane and its border rule.
template <typename T> struct Source {
  const unsigned char *data;
  std::size_t pitch;
  int width, height, channels;
  WarpBorder border;
  std::uint16_t fill[4];

  // Channel c of pixel (x, y), or what the border rule gives outside the plane.
  DPX_HD int tap(int x, int y, int c) const {
    if (x < 0 || y < 0 || x >= width || y >= height) {
      if (border == WarpBorder::kBlack)
        return fill[c];
      x = x < 0 ? 0 : (x >= width ? width - 1 : x);
      y = y < 0 ? 0 : (y >= height ? height - 1 : y);
    }
    return reinterpret_cast<const T *>(data + static_cast<std::size_t>(y) *
                                                  pitch)[x * channels + c];
  }
};

template <typename T>
DPX_HD Source<T> make_source(const PlaneView &src, const WarpPlan &plan) {
  Source<T> s{static_cast<const unsigned char *>(src.data),
              src.pitch,
              src.width,
              src.height,
              src.channels,
              plan.border,
              {plan.fill[0], plan.fill[1], plan.fill[2], plan.fill[3]}};
  return s;
}

// Catmull-Rom weights of the taps at -1, 0, 1, 2 for a phase t = p / 256,
// summing to 2^kCubicBits.
DPX_HD void cubic_weights(int p, int w[4]) {
  // 2 * 256^3 * w(t), exact in 64 bits, then rounded to kCubicBits.
  const std::int64_t t = p, t2 = t * t, t3 = t2 * t;
  const std::int64_t one = 256, one2 = one * one;
  const std::int64_t a = -t * one2 + 2 * t2 * one - t3;
  const std::int64_t c = t * one2 + 4 * t2 * one - 3 * t3;
  const std::int64_t d = -t2 * one + t3;
  const int shift = 25 - kCubicBits; // 2 * 256^3 = 2^25
  const std::int64_t half = std::int64_t(1) << (shift - 1);
  w[0] = static_cast<int>((a + half) >> shift);
  w[2] = static_cast<int>((c + half) >> shift);
  w[3] = static_cast<int>((d + half) >> shift);
  w[1] = (1 << kCubicBits) - w[0] - w[2] - w[3];
}

template <typename T> DPX_HD T clamp_sample(std::int64_t v) {
  const std::int64_t hi = static_cast<T>(~T(0));
  return static_cast<T>(v < 0 ? 0 : (v > hi ? hi : v));
}

// Writes channel values of output pixel (x, y) to out[0 .. channels).
template <typename T>
DPX_HD void warp_pixel(const Source<T> &src, const WarpPlan &plan, int x, int y,
                       T *out) {
  const std::int64_t sx = plan.m00 * x + plan.m01 * y + plan.b0;
  const std::int64_t sy = plan.m10 * x + plan.m11 * y + plan.b1;
  const int ix = static_cast<int>(sx >> kWarpFracBits),
            iy = static_cast<int>(sy >> kWarpFracBits);
  const int px =
      static_cast<int>((sx >> kPhaseShift) & ((1 << kWeightBits) - 1));
  const int py =
      static_cast<int>((sy >> kPhaseShift) & ((1 << kWeightBits) - 1));
  if (plan.interpolation == WarpInterpolation::kBilinear) {
    const int one = 1 << kWeightBits;
    for (int c = 0; c < src.channels; ++c) {
      const std::int64_t top = std::int64_t(src.tap(ix, iy, c)) * (one - px) +
                               std::int64_t(src.tap(ix + 1, iy, c)) * px;
      const std::int64_t bottom =
          std::int64_t(src.tap(ix, iy + 1, c)) * (one - px) +
          std::int64_t(src.tap(ix + 1, iy + 1, c)) * px;
      const std::int64_t v = top * (one - py) + bottom * py;
      out[c] =
          clamp_sample<T>((v + (std::int64_t(1) << (2 * kWeightBits - 1))) >>
                          (2 * kWeightBits));
    }
    return;
  }
  int wx[4], wy[4];
  cubic_weights(px, wx);
  cubic_weights(py, wy);
  for (int c = 0; c < src.channels; ++c) {
    std::int64_t v = 0;
    for (int j = 0; j < 4; ++j) {
      std::int64_t row = 0;
      for (int i = 0; i < 4; ++i)
        row += std::int64_t(wx[i]) * src.tap(ix - 1 + i, iy - 1 + j, c);
      v += row * wy[j];
    }
    out[c] = clamp_sample<T>((v + (std::int64_t(1) << (2 * kCubicBits - 1))) >>
                             (2 * kCubicBits));
  }
}

// Warps row y of `dst`.
template <typename T>
DPX_HD void warp_row(const Source<T> &src, const WarpPlan &plan,
                     unsigned char *dst, std::size_t dst_pitch, int y) {
  T *row = reinterpret_cast<T *>(dst + static_cast<std::size_t>(y) * dst_pitch);
  for (int x = 0; x < src.width; ++x)
    warp_pixel(src, plan, x, y, row + x * src.channels);
}

// The arguments both backends check.
Status validate_warp(const PlaneView &src, const MutablePlaneView &dst,
                     const WarpPlan &plan);

} // namespace stabilise_detail
} // namespace dpx
