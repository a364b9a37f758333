#include "gstdpxstabiliser.h"

#include <string>

#if DPX_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "dpx/cuda_status.h"
#endif

namespace gstdpx {

namespace {

/* The black of component `c`: no light in R, G, B and luma (16 in limited-range luma), the
 * middle of the range in chroma, opaque alpha; in the format's bits and place. */
guint16 black_of(const GstVideoInfo& info, guint c) {
  const GstVideoFormatInfo* f = info.finfo;
  const guint depth = GST_VIDEO_FORMAT_INFO_DEPTH(f, c);
  guint v = 0;
  if (c == GST_VIDEO_COMP_A && GST_VIDEO_FORMAT_INFO_HAS_ALPHA(f))
    v = (1u << depth) - 1;
  else if (GST_VIDEO_FORMAT_INFO_IS_YUV(f) && c != GST_VIDEO_COMP_Y)
    v = 1u << (depth - 1);
  else if (GST_VIDEO_FORMAT_INFO_IS_YUV(f) && info.colorimetry.range != GST_VIDEO_COLOR_RANGE_0_255)
    v = 16u << (depth - 8);
  return static_cast<guint16>(v << GST_VIDEO_FORMAT_INFO_SHIFT(f, c));
}

/* The sample index of component `c` within its plane's pixel: its rank by offset among the
 * components of that plane (GStreamer gives some offsets in bytes and others in samples). */
int channel_of(const GstVideoFormatInfo* f, guint c) {
  int rank = 0;
  for (guint o = 0; o < GST_VIDEO_FORMAT_INFO_N_COMPONENTS(f); ++o)
    if (GST_VIDEO_FORMAT_INFO_PLANE(f, o) == GST_VIDEO_FORMAT_INFO_PLANE(f, c) &&
        GST_VIDEO_FORMAT_INFO_POFFSET(f, o) < GST_VIDEO_FORMAT_INFO_POFFSET(f, c))
      ++rank;
  return rank;
}

}  // namespace

bool Stabiliser::configure(const GstVideoInfo& info, std::string* why) {
  const GstVideoFormatInfo* f = info.finfo;
  width_ = GST_VIDEO_INFO_WIDTH(&info);
  height_ = GST_VIDEO_INFO_HEIGHT(&info);
  if (width_ < dpx::kStabiliseMinWidth || height_ < dpx::kStabiliseMinHeight) {
    *why = "frames of " + std::to_string(width_) + "x" + std::to_string(height_) + " are below the " +
           std::to_string(dpx::kStabiliseMinWidth) + "x" + std::to_string(dpx::kStabiliseMinHeight) +
           " the motion measurement needs";
    return false;
  }
  /* Motion is measured on luma, or on green where the format has no luma. */
  const guint motion = GST_VIDEO_FORMAT_INFO_IS_RGB(f) ? GST_VIDEO_COMP_G : GST_VIDEO_COMP_Y;
  luma_plane_ = GST_VIDEO_FORMAT_INFO_PLANE(f, motion);
  luma_channel_ = channel_of(f, motion);
  for (auto& p : planes_) p = PlaneWarp();
  for (guint c = 0; c < GST_VIDEO_FORMAT_INFO_N_COMPONENTS(f); ++c) {
    PlaneWarp& p = planes_[GST_VIDEO_FORMAT_INFO_PLANE(f, c)];
    p.sub_x = 1 << GST_VIDEO_FORMAT_INFO_W_SUB(f, c);
    p.sub_y = 1 << GST_VIDEO_FORMAT_INFO_H_SUB(f, c);
    p.fill[channel_of(f, c)] = black_of(info, c);
  }
  return true;
}

dpx::Status Stabiliser::measure(const dpx::PlaneView& luma, cudaStream_t stream, bool on_device, bool restart,
                                GstClockTime pts) {
  if (restart) analyser_.restart();
  dpx::PlaneView where = luma;
#if DPX_HAVE_CUDA
  /* On the CUDA backend a frame in system memory is measured on the GPU too: its luma goes up. */
  if (stream != nullptr && !on_device) {
    const std::size_t row = luma.row_bytes(), bytes = row * luma.height;
    if (upload_.size() < bytes) DPX_RETURN_IF_ERROR(upload_.allocate(bytes));
    DPX_CUDA_TRY(cudaMemcpy2DAsync(upload_.data(), row, luma.data, luma.pitch, row, luma.height,
                                   cudaMemcpyHostToDevice, stream));
    where.data = upload_.data();
    where.pitch = row;
    on_device = true;
  }
#endif
  dpx::FrameMotion m;
  DPX_RETURN_IF_ERROR(on_device ? analyser_.analyse_cuda(where, luma_channel_, stream, &m)
                                : analyser_.analyse_cpu(where, luma_channel_, &m));
  const bool cut = !m.measured || !m.fit.reliable;
  path_.push(m.motion(), cut);
  DeshakeFrame f;
  f.number = number_++;
  f.pts = pts;
  f.fit = m.fit;
  pending_.push_back(f);
  return dpx::Status::ok();
}

DeshakeFrame Stabiliser::next(DeshakeBorder border) {
  DeshakeFrame f = pending_.front();
  pending_.pop_front();
  f.path = path_.pop();
  if (f.path.cut) zoom_.reset();
  f.zoom = border == DeshakeBorder::kZoom ? zoom_.next(f.path.correction, width_, height_) : 1.0;
  return f;
}

dpx::WarpPlan Stabiliser::plan(guint p, const DeshakeFrame& frame, DeshakeBorder border,
                               dpx::WarpInterpolation interpolation) const {
  const PlaneWarp& w = planes_[p];
  /* Zoom keeps the source inside the frame; the edge pixels of its taps are replicated. */
  const dpx::WarpBorder rule =
      border == DeshakeBorder::kBlack ? dpx::WarpBorder::kBlack : dpx::WarpBorder::kReplicate;
  dpx::WarpPlan plan = dpx::warp_plan(frame.path.correction, frame.zoom, width_, height_, w.sub_x, w.sub_y,
                                      interpolation, rule);
  for (int c = 0; c < 4; ++c) plan.fill[c] = w.fill[c];
  return plan;
}

void Stabiliser::reset() {
  analyser_.restart();
  path_.reset();
  zoom_.reset();
  pending_.clear();
}

}  // namespace gstdpx
