// What both morphology backends share: the structuring elements and argument checks.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "dpx/morphology.h"

namespace dpx {

Status morph_mask(MorphShape shape, int size, std::uint8_t mask[25]) {
  if (size != 3 && size != 5) {
    return invalid_argument("morphology: size " + std::to_string(size) + " (3 or 5 supported)");
  }
  if (shape != MorphShape::kRect && shape != MorphShape::kCross && shape != MorphShape::kEllipse) {
    return invalid_argument("morphology: unknown shape");
  }
  std::memset(mask, 0, 25);
  const int r = size / 2;
  for (int y = 0; y < size; ++y) {
    for (int x = 0; x < size; ++x) {
      bool on = true;
      if (shape == MorphShape::kCross) {
        on = x == r || y == r;
      } else if (shape == MorphShape::kEllipse) {
        // OpenCV getStructuringElement(MORPH_ELLIPSE), anchor at the centre: row dy covers the
        // columns within cvRound(c * sqrt((r^2 - dy^2) / r^2)) of the centre, r = c = size / 2
        // (cvRound rounds half to even, as std::lrint does; so 3x3 is the cross).
        const int dy = y - r;
        const double inv_r2 = 1.0 / (r * r);
        const long half = std::lrint(r * std::sqrt((r * r - dy * dy) * inv_r2));
        on = x >= r - half && x <= r + half;
      }
      mask[y * size + x] = on ? 1 : 0;
    }
  }
  return Status::ok();
}

Status morph_validate(const PlaneView& src, const MutablePlaneView& dst, const MorphParams& params) {
  DPX_RETURN_IF_ERROR(validate_plane(src, "src"));
  DPX_RETURN_IF_ERROR(validate_plane(dst.as_const(), "dst"));
  DPX_RETURN_IF_ERROR(validate_same_shape(src, dst.as_const()));
  if (src.type == SampleType::kU16) {
    const auto misaligned = [](const void* p, std::size_t pitch) {
      return (reinterpret_cast<std::uintptr_t>(p) | pitch) % 2 != 0;
    };
    if (misaligned(src.data, src.pitch) || misaligned(dst.data, dst.pitch)) {
      return invalid_argument("morphology: u16 planes need 2-byte aligned data pointers and pitches");
    }
  }
  std::uint8_t mask[25];
  DPX_RETURN_IF_ERROR(morph_mask(params.shape, params.size, mask));
  if (params.op != MorphOp::kDilate && params.op != MorphOp::kErode) {
    return invalid_argument("morphology: unknown operation");
  }
  if (params.border != BorderMode::kReplicate && params.border != BorderMode::kReflect101 &&
      params.border != BorderMode::kNeutral) {
    return invalid_argument("morphology: unknown border mode");
  }
  if (params.iterations < 1 || params.iterations > kMorphMaxIterations) {
    return invalid_argument("morphology: iterations " + std::to_string(params.iterations) +
                            " (1.." + std::to_string(kMorphMaxIterations) + ")");
  }
  // Overlap check on the byte ranges the two planes span (as addresses: the planes may live in
  // unrelated allocations).
  const auto s0 = reinterpret_cast<std::uintptr_t>(src.data);
  const auto d0 = reinterpret_cast<std::uintptr_t>(dst.data);
  const std::uintptr_t s1 = s0 + (src.height - 1) * src.pitch + src.row_bytes();
  const std::uintptr_t d1 = d0 + (dst.height - 1) * dst.pitch + dst.row_bytes();
  if (s0 < d1 && d0 < s1) return invalid_argument("morphology: src and dst overlap (in-place is not supported)");
  return Status::ok();
}

}  // namespace dpx
