// What both motion backends share: the grid, argument checks and the detection figures.
#include <cmath>
#include <cstdint>
#include <string>

#include "dpx/motion.h"
#include "draw_segment.h"

namespace dpx {

MotionGrid motion_grid(int width, int height, int block_size) {
  MotionGrid g;
  if (width < 1 || height < 1 || block_size < 1) return g;
  g.block_size = block_size;
  g.columns = (width + block_size - 1) / block_size;
  g.rows = (height + block_size - 1) / block_size;
  return g;
}

namespace {

Status validate_luma(const PlaneView& plane, const char* what) {
  DPX_RETURN_IF_ERROR(validate_plane(plane, what));
  if (plane.channels != 1) {
    return invalid_argument(std::string("motion: ") + what + " has " + std::to_string(plane.channels) +
                            " channels (one luma plane is searched)");
  }
  // The CUDA kernel reads 16-bit samples as 16-bit words; the CPU keeps the same rule.
  if (plane.type == SampleType::kU16 &&
      ((reinterpret_cast<std::uintptr_t>(plane.data) | plane.pitch) & 1u) != 0) {
    return invalid_argument(std::string("motion: ") + what +
                            " has 16-bit samples but an odd address or pitch");
  }
  return Status::ok();
}

}  // namespace

Status motion_validate(const PlaneView& current, const PlaneView& reference, const MotionParams& params,
                       const MotionPrevious& previous) {
  DPX_RETURN_IF_ERROR(validate_luma(current, "current"));
  DPX_RETURN_IF_ERROR(validate_luma(reference, "reference"));
  if (current.width != reference.width || current.height != reference.height ||
      current.type != reference.type) {
    return invalid_argument("motion: current and reference differ in size or sample type");
  }
  const int b = params.block_size;
  if (b != 4 && b != 8 && b != 16 && b != 32) {
    return invalid_argument("motion: block size " + std::to_string(b) + " (4, 8, 16 or 32)");
  }
  const bool predictive = params.search == MotionSearch::kPredictive;
  if (!predictive && params.search != MotionSearch::kFull)
    return invalid_argument("motion: unknown search mode (full or predictive)");
  const int max_range = predictive ? kMotionMaxPredictiveRange : kMotionMaxRange;
  if (params.search_range < 1 || params.search_range > max_range) {
    return invalid_argument("motion: search range " + std::to_string(params.search_range) + " (1.." +
                            std::to_string(max_range) + (predictive ? " for the predictive search)" :
                            " for the full search; up to " + std::to_string(kMotionMaxPredictiveRange) +
                            " with the predictive search)"));
  }
  const int s = motion_scale(params);
  if (s != 1 && s != 2 && s != 4) return invalid_argument("motion: unknown subpel mode (none, half or quarter)");
  if (params.interpolation != MotionInterpolation::kBilinear && params.interpolation != MotionInterpolation::kH264 &&
      params.interpolation != MotionInterpolation::kHevc)
    return invalid_argument("motion: unknown interpolation (bilinear, h264 or hevc)");
  if (params.lambda < 0 || params.lambda > kMotionMaxLambda) {
    return invalid_argument("motion: lambda " + std::to_string(params.lambda) + " (0.." +
                            std::to_string(kMotionMaxLambda) + ")");
  }
  if (previous.vectors != nullptr && previous.scale != 1 && previous.scale != 2 && previous.scale != 4)
    return invalid_argument("motion: previous field scale " + std::to_string(previous.scale) + " (1, 2 or 4)");
  return Status::ok();
}

namespace motion_detail {

Status validate_draw(const MutablePlaneView& plane, const MotionGrid& grid, const MotionVector* vectors) {
  DPX_RETURN_IF_ERROR(validate_luma(plane.as_const(), "draw plane"));
  const int b = grid.block_size;
  if (b != 4 && b != 8 && b != 16 && b != 32) {
    return invalid_argument("motion: draw grid block size " + std::to_string(b) + " (4, 8, 16 or 32)");
  }
  const MotionGrid expected = motion_grid(plane.width, plane.height, b);
  if (grid.columns != expected.columns || grid.rows != expected.rows) {
    return invalid_argument("motion: draw grid " + std::to_string(grid.columns) + "x" + std::to_string(grid.rows) +
                            " does not cover the plane (" + std::to_string(expected.columns) + "x" +
                            std::to_string(expected.rows) + " blocks)");
  }
  if (vectors == nullptr) return invalid_argument("motion: draw with null vectors");
  if (grid.scale != 1 && grid.scale != 2 && grid.scale != 4)
    return invalid_argument("motion: draw grid scale " + std::to_string(grid.scale) + " (1, 2 or 4)");
  return Status::ok();
}

}  // namespace motion_detail

MotionStats motion_stats(const MotionVector* vectors, std::size_t count, double threshold, int scale) {
  MotionStats s;
  if (vectors == nullptr || count == 0 || scale < 1) return s;
  double total = 0;
  std::size_t moving = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const double len = std::hypot(static_cast<double>(vectors[i].dx), static_cast<double>(vectors[i].dy)) / scale;
    total += len;
    moving += len > threshold ? 1 : 0;
  }
  s.mean_length = total / static_cast<double>(count);
  s.moving_fraction = static_cast<double>(moving) / static_cast<double>(count);
  return s;
}

}  // namespace dpx
