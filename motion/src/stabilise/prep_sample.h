// The analyser's preparation, the one definition both backends run: the
// downscaled 8-bit copy of one channel of the luma plane, and each block's
// texture on it. Integer arithmetic only, so the CPU and CUDA copies (and so
// the vectors and the fit) are the same.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dpx/plane.h"
#include "dpx_ops.cuh"

namespace dpx {
namespace stabilise_detail {

// Copy pixel (x, y): the rounded mean of the factor x factor source samples it
// covers, in 8-bit steps (16-bit samples keep their top byte). The copy is
// floor(size / factor) pixels.
template <typename T>
DPX_HD std::uint8_t downscale_pixel(const PlaneView &src, int channel,
                                    int factor, int x, int y) {
  std::uint32_t total = 0;
  for (int j = 0; j < factor; ++j) {
    const T *row = reinterpret_cast<const T *>(
        static_cast<const unsigned char *>(src.data) +
        static_cast<std::size_t>(factor * y + j) * src.pitch);
    for (int i = 0; i < factor; ++i)
      total += row[(factor * x + i) * src.channels + channel];
  }
  const std::uint32_t count = static_cast<std::uint32_t>(factor * factor) *
                              (sizeof(T) == 1 ? 1u : 256u);
  return static_cast<std::uint8_t>((total + count / 2) / count);
}

// Block (column, row) of `block` pixels on a width x height 8-bit copy: the sum
// over its pixels of the absolute differences to the right and lower neighbours
// inside the copy.
DPX_HD std::uint32_t block_texture(const std::uint8_t *copy, int width,
                                   int height, int block, int column, int row) {
  const int x0 = column * block, y0 = row * block;
  const int x1 = x0 + block < width ? x0 + block : width,
            y1 = y0 + block < height ? y0 + block : height;
  std::uint32_t total = 0;
  for (int y = y0; y < y1; ++y) {
    const std::uint8_t *p = copy + static_cast<std::size_t>(y) * width;
    for (int x = x0; x < x1; ++x) {
      if (x + 1 < width)
        total += p[x + 1] > p[x] ? p[x + 1] - p[x] : p[x] - p[x + 1];
      if (y + 1 < height)
        total +=
            p[x + width] > p[x] ? p[x + width] - p[x] : p[x] - p[x + width];
    }
  }
  return total;
}

} // namespace stabilise_detail
} // namespace dpx
