// The camera motion of a frame against the previous one: the downscaled 8-bit
// copy and its block textures (prep_sample.h, on the CPU or CUDA), block
// matching of the copy against the last one, then the robust fit on the host
// over the blocks that are not flat.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

#include "cuda_backend.h"
#include "dpx/stabilise.h"
#include "stabilise/prep_sample.h"
#include "stabilise/stabilise_cuda.h"
#include "worker_pool.h"

namespace dpx {

struct MotionAnalyser::Device {
  DeviceBuffer copy[2];
  DeviceBuffer texture, vectors;
  PinnedBuffer host_texture, host_vectors;
};

namespace {

MotionParams search_params(const AnalyseParams& p) {
  MotionParams m;
  m.block_size = p.block_size;
  m.search_range = p.search_range;
  m.subpel = p.subpel;
  m.search = MotionSearch::kPredictive;
  // The fit pools hundreds of vectors: bilinear samples give it the precision it needs at a fraction
  // of the sharp filters' cost.
  m.interpolation = MotionInterpolation::kBilinear;
  return m;
}

Status grow(DeviceBuffer& b, std::size_t bytes) {
  return b.size() >= bytes ? Status::ok() : b.allocate(bytes);
}
Status grow(PinnedBuffer& b, std::size_t bytes) {
  return b.size() >= bytes ? Status::ok() : b.allocate(bytes);
}

// The device steps, named only where the CUDA backend is built.
Status prep_on_device(const PlaneView& luma, int channel, int factor, const MutablePlaneView& copy,
                      const MotionGrid& grid, std::uint32_t* texture, cudaStream_t stream) {
  DPX_CUDA_BACKEND("analyse_cuda",
                   stabilise_detail::prep_launch(luma, channel, factor, copy, grid, texture, stream));
}
Status fetch_and_wait(const stabilise_detail::HostCopy* copies, int count, cudaStream_t stream) {
  DPX_CUDA_BACKEND("analyse_cuda", stabilise_detail::download_and_wait(copies, count, stream));
}

}  // namespace

MotionAnalyser::MotionAnalyser() = default;
MotionAnalyser::~MotionAnalyser() {
  delete device_;
}

void MotionAnalyser::release() {
  delete device_;
  device_ = nullptr;
  have_previous_ = false;
}

int analyse_downscale(int width, const AnalyseParams& params) {
  if (params.downscale > 0) return params.downscale;
  int f = 1;
  while (f < 4 && width / (2 * f) >= 640) f *= 2;
  return f;
}

namespace {

Status check_luma(const PlaneView& luma, int channel, const AnalyseParams& p, const FrameMotion* out) {
  if (out == nullptr) return invalid_argument("analyse: null output");
  DPX_RETURN_IF_ERROR(validate_plane(luma, "luma"));
  if (channel < 0 || channel >= luma.channels)
    return invalid_argument("analyse: channel outside the plane's channels");
  if (luma.width < kStabiliseMinWidth || luma.height < kStabiliseMinHeight)
    return invalid_argument("analyse: plane of " + std::to_string(luma.width) + "x" +
                            std::to_string(luma.height) + " is below " + std::to_string(kStabiliseMinWidth) +
                            "x" + std::to_string(kStabiliseMinHeight));
  if (p.downscale != 0 && p.downscale != 1 && p.downscale != 2 && p.downscale != 4)
    return invalid_argument("analyse: downscale 0 (automatic), 1, 2 or 4");
  if (!(p.min_texture >= 0)) return invalid_argument("analyse: min_texture >= 0");
  if (luma.type == SampleType::kU16 && ((reinterpret_cast<std::uintptr_t>(luma.data) | luma.pitch) & 1u) != 0)
    return invalid_argument("analyse: 16-bit samples at an odd address or pitch");
  return Status::ok();
}

template <typename T>
Status downscale_cpu(const PlaneView& luma, int channel, int factor, std::uint8_t* copy, int width,
                     int height, int threads) {
  return runtime::for_each_range(
      static_cast<std::size_t>(height), threads, 32, [&](std::size_t y0, std::size_t y1) {
        for (std::size_t y = y0; y < y1; ++y)
          for (int x = 0; x < width; ++x)
            copy[y * width + x] =
                stabilise_detail::downscale_pixel<T>(luma, channel, factor, x, static_cast<int>(y));
        return Status::ok();
      });
}

}  // namespace

Status MotionAnalyser::analyse_cpu(const PlaneView& luma, int channel, FrameMotion* out, int threads) {
  DPX_RETURN_IF_ERROR(check_luma(luma, channel, params_, out));
  const int f = analyse_downscale(luma.width, params_);
  const int w = luma.width / f, h = luma.height / f;
  std::vector<std::uint8_t>& cur = host_[current_];
  cur.resize(static_cast<std::size_t>(w) * h);
  DPX_RETURN_IF_ERROR(luma.type == SampleType::kU8
                          ? downscale_cpu<std::uint8_t>(luma, channel, f, cur.data(), w, h, threads)
                          : downscale_cpu<std::uint16_t>(luma, channel, f, cur.data(), w, h, threads));
  const MotionGrid grid = motion_grid(w, h, params_.block_size);
  texture_.resize(grid.count());
  for (int r = 0; r < grid.rows; ++r)
    for (int c = 0; c < grid.columns; ++c)
      texture_[static_cast<std::size_t>(r) * grid.columns + c] =
          stabilise_detail::block_texture(cur.data(), w, h, grid.block_size, c, r);
  const bool search = have_previous_ && prev_width_ == luma.width && prev_height_ == luma.height &&
                      prev_type_ == luma.type && prev_factor_ == f && !prev_on_device_;
  if (search) {
    const PlaneView a{cur.data(), w, h, static_cast<std::size_t>(w), 1, SampleType::kU8};
    const PlaneView b{host_[1 - current_].data(), w, h, static_cast<std::size_t>(w), 1, SampleType::kU8};
    DPX_RETURN_IF_ERROR(motion_estimate_cpu(a, b, search_params(params_), &field_, threads));
  }
  out->measured = search;
  prev_on_device_ = false;
  return finish(luma, out);
}

Status MotionAnalyser::analyse_cuda(const PlaneView& luma, int channel, cudaStream_t stream,
                                    FrameMotion* out) {
  DPX_RETURN_IF_ERROR(check_luma(luma, channel, params_, out));
  return analyse_device(luma, channel, stream, out);
}

Status MotionAnalyser::analyse_device(const PlaneView& luma, int channel, cudaStream_t stream,
                                      FrameMotion* out) {
  if (device_ == nullptr) device_ = new Device();
  Device& d = *device_;
  const int f = analyse_downscale(luma.width, params_);
  const int w = luma.width / f, h = luma.height / f;
  const std::size_t bytes = static_cast<std::size_t>(w) * h;
  const MotionGrid grid = motion_grid(w, h, params_.block_size);
  const bool search = have_previous_ && prev_width_ == luma.width && prev_height_ == luma.height &&
                      prev_type_ == luma.type && prev_factor_ == f && prev_on_device_;
  DPX_RETURN_IF_ERROR(grow(d.copy[current_], bytes));
  DPX_RETURN_IF_ERROR(grow(d.texture, grid.count() * sizeof(std::uint32_t)));
  DPX_RETURN_IF_ERROR(grow(d.vectors, grid.count() * sizeof(MotionVector)));
  DPX_RETURN_IF_ERROR(grow(d.host_texture, grid.count() * sizeof(std::uint32_t)));
  DPX_RETURN_IF_ERROR(grow(d.host_vectors, grid.count() * sizeof(MotionVector)));
  const MutablePlaneView copy{d.copy[current_].data(), w, h, static_cast<std::size_t>(w), 1, SampleType::kU8};
  DPX_RETURN_IF_ERROR(prep_on_device(luma, channel, f, copy, grid, d.texture.as<std::uint32_t>(), stream));
  if (search) {
    const PlaneView prev{d.copy[1 - current_].data(), w, h, static_cast<std::size_t>(w), 1, SampleType::kU8};
    DPX_RETURN_IF_ERROR(motion_estimate_cuda(copy.as_const(), prev, search_params(params_),
                                             d.vectors.as<MotionVector>(), grid.count(), stream));
  }
  const stabilise_detail::HostCopy copies[2] = {
      {d.host_texture.data(), d.texture.data(), grid.count() * sizeof(std::uint32_t)},
      {d.host_vectors.data(), d.vectors.data(), grid.count() * sizeof(MotionVector)}};
  DPX_RETURN_IF_ERROR(fetch_and_wait(copies, search ? 2 : 1, stream));
  texture_.assign(d.host_texture.as<std::uint32_t>(), d.host_texture.as<std::uint32_t>() + grid.count());
  if (search) {
    field_.resize(grid);
    field_.grid.scale = motion_scale(search_params(params_));
    std::memcpy(field_.vectors.data(), d.host_vectors.data(), grid.count() * sizeof(MotionVector));
  }
  out->measured = search;
  prev_on_device_ = true;
  return finish(luma, out);
}

// The fit over the blocks that are not flat, in the copy's pixels, then scaled
// to the luma plane; the copy becomes the next frame's reference.
Status MotionAnalyser::finish(const PlaneView& luma, FrameMotion* out) {
  const int f = analyse_downscale(luma.width, params_);
  out->fit = FitResult();
  have_previous_ = true;
  prev_width_ = luma.width;
  prev_height_ = luma.height;
  prev_type_ = luma.type;
  prev_factor_ = f;
  current_ = 1 - current_;
  if (!out->measured) return Status::ok();
  const MotionGrid& g = field_.grid;
  const int w = luma.width / f, h = luma.height / f;
  std::vector<Correspondence> points;
  points.reserve(g.count());
  // The outer ring of blocks is left out: a block there cannot follow content
  // that moved out of the frame (its candidates stay inside), so its vector is
  // clamped rather than wrong enough to be an outlier.
  for (int r = 1; r + 1 < g.rows; ++r)
    for (int c = 1; c + 1 < g.columns; ++c) {
      const int bw = std::min(g.block_size, w - c * g.block_size),
                bh = std::min(g.block_size, h - r * g.block_size);
      const std::size_t i = static_cast<std::size_t>(r) * g.columns + c;
      if (texture_[i] < params_.min_texture * 2.0 * bw * bh) continue;
      Correspondence p;
      p.x = c * g.block_size + (bw - 1) / 2.0;
      p.y = r * g.block_size + (bh - 1) / 2.0;
      p.u = p.x + static_cast<double>(field_.vectors[i].dx) / g.scale;
      p.v = p.y + static_cast<double>(field_.vectors[i].dy) / g.scale;
      points.push_back(p);
    }
  // The luma centre in the copy's pixels (copy pixel j covers luma f j .. f j +
  // f - 1).
  const double cx = ((luma.width - 1) / 2.0 - (f - 1) / 2.0) / f,
               cy = ((luma.height - 1) / 2.0 - (f - 1) / 2.0) / f;
  DPX_RETURN_IF_ERROR(fit_similarity(points.data(), points.size(), cx, cy, params_.fit, &out->fit));
  out->fit.motion.tx *= f;
  out->fit.motion.ty *= f;
  out->fit.residual_rms *= f;
  return Status::ok();
}

}  // namespace dpx
