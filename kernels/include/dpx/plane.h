// Image planes as views: pointer, size, pitch in bytes, interleaved channels and sample type.
// Nothing assumes pitch == width * bytes per pixel, alignment, or sizes that divide a tile.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dpx/status.h"

namespace dpx {

enum class SampleType { kU8, kU16 };

inline int sample_bytes(SampleType type) { return type == SampleType::kU8 ? 1 : 2; }

struct PlaneView {
  const void* data = nullptr;
  int width = 0;        // pixels
  int height = 0;       // rows
  std::size_t pitch = 0;  // bytes from one row to the next
  int channels = 1;     // interleaved samples per pixel: 1, 2 or 4
  SampleType type = SampleType::kU8;

  std::size_t row_bytes() const {
    return static_cast<std::size_t>(width) * channels * sample_bytes(type);
  }
  const std::uint8_t* row(int y) const {
    return static_cast<const std::uint8_t*>(data) + static_cast<std::size_t>(y) * pitch;
  }
};

struct MutablePlaneView {
  void* data = nullptr;
  int width = 0;
  int height = 0;
  std::size_t pitch = 0;
  int channels = 1;
  SampleType type = SampleType::kU8;

  PlaneView as_const() const { return PlaneView{data, width, height, pitch, channels, type}; }
  std::size_t row_bytes() const { return as_const().row_bytes(); }
  std::uint8_t* row(int y) const {
    return static_cast<std::uint8_t*>(data) + static_cast<std::size_t>(y) * pitch;
  }
};

// Checks a view: non-null data, width/height >= 1, channels in {1, 2, 4}, pitch >= a row.
// `what` names the plane in the message ("src", "dst").
Status validate_plane(const PlaneView& plane, const char* what);

// Checks that two views describe the same geometry (size, channels, type).
Status validate_same_shape(const PlaneView& a, const PlaneView& b);

}  // namespace dpx
