// Row-by-row copy of a plane between host buffers whose pitches differ (no GPU involved).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "dpx/plane.h"

namespace gstdpx {

inline void copy_rows(void* dst, std::size_t dst_pitch, const void* src, std::size_t src_pitch,
                      std::size_t row_bytes, int rows) {
  auto* d = static_cast<std::uint8_t*>(dst);
  const auto* s = static_cast<const std::uint8_t*>(src);
  if (dst_pitch == row_bytes && src_pitch == row_bytes) {
    std::memcpy(d, s, row_bytes * static_cast<std::size_t>(rows));
    return;
  }
  for (int y = 0; y < rows; ++y) std::memcpy(d + y * dst_pitch, s + y * src_pitch, row_bytes);
}

inline void copy_plane(const dpx::PlaneView& src, const dpx::MutablePlaneView& dst) {
  copy_rows(dst.data, dst.pitch, src.data, src.pitch, src.row_bytes(), src.height);
}

}  // namespace gstdpx
