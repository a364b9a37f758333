// What both morphology backends share: the structuring elements and argument checks.
#include <cmath>
#include <cstdint>
#include <string>

#include "dpx/morphology.h"
#include "morph_bars.h"

namespace dpx {
namespace morph {

std::vector<int> row_half_widths(MorphShape shape, int width, int height) {
  const int c = width / 2, r = height / 2;
  std::vector<int> half(height, c);
  if (shape == MorphShape::kRect || (width == 1 && height == 1)) return half;
  for (int y = 0; y < height; ++y) {
    const int dy = y - r;
    if (shape == MorphShape::kCross) {
      half[y] = dy == 0 ? c : 0;
    } else {
      // MORPH_ELLIPSE: row dy covers the columns within cvRound(c * sqrt((r^2 - dy^2) / r^2)) of
      // the centre (cvRound rounds half to even, as std::lrint does; so 3x3 is the cross), clipped
      // to the mask; a one-row ellipse is its centre pixel (OpenCV takes 1 / r^2 as 0 there).
      const double inv_r2 = r != 0 ? 1.0 / (static_cast<double>(r) * r) : 0.0;
      const long dx = std::lrint(c * std::sqrt((static_cast<double>(r) * r - dy * dy) * inv_r2));
      half[y] = static_cast<int>(dx < c ? dx : c);
    }
  }
  return half;
}

std::vector<Bar> mask_bars(MorphShape shape, int width, int height) {
  const std::vector<int> half = row_half_widths(shape, width, height);
  const int r = height / 2;
  // Walking out from the centre row, each row whose run is wider than the next one's closes a bar
  // that reaches up to it (and, by symmetry, as far down).
  std::vector<Bar> bars;
  for (int dy = 0; dy <= r; ++dy) {
    if (dy == r || half[r + dy + 1] < half[r + dy]) bars.push_back(Bar{half[r + dy], dy});
  }
  return bars;
}

}  // namespace morph

namespace {

Status check_side(const char* what, int v, MorphShape shape) {
  const bool rect = shape == MorphShape::kRect;
  const int limit = rect ? kMorphMaxRectSize : kMorphMaxShapeSize;
  if (v < 1 || v > limit || v % 2 == 0) {
    return invalid_argument(std::string("morphology: element ") + what + " " + std::to_string(v) +
                            " (odd, 1.." + std::to_string(limit) + (rect ? " for rect)" : " for cross and ellipse)"));
  }
  return Status::ok();
}

Status check_element(MorphShape shape, int width, int height) {
  if (shape != MorphShape::kRect && shape != MorphShape::kCross && shape != MorphShape::kEllipse) {
    return invalid_argument("morphology: unknown shape");
  }
  DPX_RETURN_IF_ERROR(check_side("width", width, shape));
  return check_side("height", height, shape);
}

}  // namespace

Status morph_mask(MorphShape shape, int width, int height, std::vector<std::uint8_t>* mask) {
  DPX_RETURN_IF_ERROR(check_element(shape, width, height));
  const std::vector<int> half = morph::row_half_widths(shape, width, height);
  mask->assign(static_cast<std::size_t>(width) * height, 0);
  const int c = width / 2;
  for (int y = 0; y < height; ++y) {
    for (int x = c - half[y]; x <= c + half[y]; ++x) (*mask)[static_cast<std::size_t>(y) * width + x] = 1;
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
  DPX_RETURN_IF_ERROR(check_element(params.shape, morph_width(params), morph_height(params)));
  if (params.op < MorphOp::kDilate || params.op > MorphOp::kBlackHat) {
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
