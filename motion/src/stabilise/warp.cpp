// The warp's host side: the fixed-point plan of a plane, the argument checks,
// the CPU warp (rows shared out on the worker pool) and the CUDA entry point.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "cuda_backend.h"
#include "stabilise/stabilise_cuda.h"
#include "stabilise/warp_sample.h"
#include "worker_pool.h"

namespace dpx {

namespace {

std::int64_t to_fixed(double v) {
  return static_cast<std::int64_t>(std::llround(v * (1 << kWarpFracBits)));
}

}  // namespace

WarpPlan warp_plan(const Similarity& correction, double zoom, int luma_width, int luma_height, int sub_x,
                   int sub_y, WarpInterpolation interpolation, WarpBorder border) {
  // Luma: src = A dst + b with A = (scale / zoom) R, turning about the centre
  // c.
  const double cx = (luma_width - 1) / 2.0, cy = (luma_height - 1) / 2.0;
  const double k = correction.scale / zoom;
  const double a00 = k * std::cos(correction.angle), a10 = k * std::sin(correction.angle);
  const double a01 = -a10, a11 = a00;
  const double b0 = cx + correction.tx - (a00 * cx + a01 * cy);
  const double b1 = cy + correction.ty - (a10 * cx + a11 * cy);
  // A plane pixel j covers luma l = S j + o (S = diag(sub_x, sub_y), o the
  // offset to its centre): j_src = S^-1 A S j_dst + S^-1 (A o + b - o).
  const double sx = sub_x, sy = sub_y, ox = (sx - 1) / 2.0, oy = (sy - 1) / 2.0;
  WarpPlan plan;
  plan.m00 = to_fixed(a00);
  plan.m01 = to_fixed(a01 * sy / sx);
  plan.m10 = to_fixed(a10 * sx / sy);
  plan.m11 = to_fixed(a11);
  plan.b0 = to_fixed((a00 * ox + a01 * oy + b0 - ox) / sx);
  plan.b1 = to_fixed((a10 * ox + a11 * oy + b1 - oy) / sy);
  plan.interpolation = interpolation;
  plan.border = border;
  return plan;
}

Status stabilise_detail::validate_warp(const PlaneView& src, const MutablePlaneView& dst,
                                       const WarpPlan& plan) {
  DPX_RETURN_IF_ERROR(validate_plane(src, "src"));
  DPX_RETURN_IF_ERROR(validate_plane(dst.as_const(), "dst"));
  DPX_RETURN_IF_ERROR(validate_same_shape(src, dst.as_const()));
  if (src.data == dst.data) return invalid_argument("warp: src and dst are the same plane");
  const std::uintptr_t odd = reinterpret_cast<std::uintptr_t>(src.data) |
                             reinterpret_cast<std::uintptr_t>(dst.data) | src.pitch | dst.pitch;
  if (src.type == SampleType::kU16 && (odd & 1u) != 0)
    return invalid_argument("warp: 16-bit samples at an odd address or pitch");
  if (plan.interpolation != WarpInterpolation::kBilinear && plan.interpolation != WarpInterpolation::kBicubic)
    return invalid_argument("warp: unknown interpolation");
  if (plan.border != WarpBorder::kBlack && plan.border != WarpBorder::kReplicate)
    return invalid_argument("warp: unknown border");
  // Positions must fit an int after the shift anywhere in the plane.
  const double limit = static_cast<double>(std::numeric_limits<int>::max() / 4) * (1 << kWarpFracBits);
  const double w = src.width, h = src.height;
  for (const double x : {0.0, w})
    for (const double y : {0.0, h}) {
      const double px = double(plan.m00) * x + double(plan.m01) * y + double(plan.b0);
      const double py = double(plan.m10) * x + double(plan.m11) * y + double(plan.b1);
      if (std::abs(px) > limit || std::abs(py) > limit)
        return invalid_argument("warp: the map leaves the range of positions");
    }
  return Status::ok();
}

namespace {

template <typename T>
Status warp_cpu_typed(const PlaneView& src, const MutablePlaneView& dst, const WarpPlan& plan, int threads) {
  const stabilise_detail::Source<T> s = stabilise_detail::make_source<T>(src, plan);
  unsigned char* out = static_cast<unsigned char*>(dst.data);
  return runtime::for_each_range(static_cast<std::size_t>(dst.height), threads, 16,
                                 [&](std::size_t y0, std::size_t y1) {
                                   for (std::size_t y = y0; y < y1; ++y)
                                     stabilise_detail::warp_row(s, plan, out, dst.pitch, static_cast<int>(y));
                                   return Status::ok();
                                 });
}

}  // namespace

Status warp_plane_cpu(const PlaneView& src, const MutablePlaneView& dst, const WarpPlan& plan, int threads) {
  DPX_RETURN_IF_ERROR(stabilise_detail::validate_warp(src, dst, plan));
  return src.type == SampleType::kU8 ? warp_cpu_typed<std::uint8_t>(src, dst, plan, threads)
                                     : warp_cpu_typed<std::uint16_t>(src, dst, plan, threads);
}

Status warp_plane_cuda(const PlaneView& src, const MutablePlaneView& dst, const WarpPlan& plan,
                       cudaStream_t stream) {
  DPX_RETURN_IF_ERROR(stabilise_detail::validate_warp(src, dst, plan));
  DPX_CUDA_BACKEND("warp_plane_cuda", stabilise_detail::warp_launch(src, dst, plan, stream));
}

}  // namespace dpx
