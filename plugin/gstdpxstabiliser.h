/* dpxdeshake's per-stream state, apart from GStreamer's element glue: the frames measured but not
 * yet out (their motion in the camera path), the border zoom, and each plane's warp for the
 * negotiated format (its subsampling, the channel the motion is measured on, the black of each
 * channel). Frames go in with `measure`, in arrival order, and come out with `next` once the path
 * has their window. */
#pragma once

#include <gst/video/video.h>

#include <deque>
#include <string>

#include "dpx/stabilise.h"

namespace gstdpx {

enum class DeshakeBorder { kBlack, kReplicate, kZoom };

/* One frame on its way out: what was measured and what is applied. */
struct DeshakeFrame {
  guint64 number = 0; /* since the element started */
  GstClockTime pts = GST_CLOCK_TIME_NONE;
  dpx::FitResult fit;  /* measured against the previous frame (fit.reliable FALSE: none) */
  dpx::PathFrame path; /* path.correction is what the warp applies */
  double zoom = 1.0;
};

class Stabiliser {
 public:
  /* The planes of `info`: false (with the reason) for a frame below what the analyser measures. */
  bool configure(const GstVideoInfo& info, std::string* why);

  void set_params(const dpx::PathParams& path) { path_.set_params(path); }
  const dpx::PathParams& params() const { return path_.params(); }

  /* The luma plane's index and the channel the motion is measured on. */
  guint luma_plane() const { return luma_plane_; }
  int luma_channel() const { return luma_channel_; }

  /* Measures the next frame on its luma plane `luma` (device memory when `on_device`) and adds it
   * to the path; `stream` set: the CUDA backend, which measures host frames on the GPU too;
   * `restart`: the frame follows no frame (first, DISCONT, after a flush). */
  dpx::Status measure(const dpx::PlaneView& luma, cudaStream_t stream, bool on_device, bool restart,
                      GstClockTime pts);
  /* The end of the frames that follow each other: every measured frame becomes ready. */
  void finish() { path_.finish(); }
  bool ready() const { return path_.ready(); }
  std::size_t measured() const { return pending_.size(); }
  /* The oldest measured frame, its correction final, with its zoom for `border`. */
  DeshakeFrame next(DeshakeBorder border);

  /* The warp of plane `p` for `frame`. */
  dpx::WarpPlan plan(guint p, const DeshakeFrame& frame, DeshakeBorder border,
                     dpx::WarpInterpolation interpolation) const;

  /* Frees the analysis's device memory (with its CUDA context current); the next frame starts a
   * new path. */
  void release_device() {
    analyser_.release();
    upload_.reset();
  }
  /* Forgets every frame (flush, stop); numbering goes on. */
  void reset();
  void restart_numbering() { number_ = 0; }

 private:
  dpx::MotionAnalyser analyser_;
  dpx::DeviceBuffer upload_; /* the luma of a system-memory frame on the CUDA backend */
  dpx::CameraPath path_;
  dpx::BorderZoom zoom_;
  std::deque<DeshakeFrame> pending_;
  guint64 number_ = 0;
  int width_ = 0, height_ = 0;
  guint luma_plane_ = 0;
  int luma_channel_ = 0;
  struct PlaneWarp {
    int sub_x = 1, sub_y = 1;
    guint16 fill[4] = {0, 0, 0, 0};
  };
  PlaneWarp planes_[GST_VIDEO_MAX_PLANES];
};

}  // namespace gstdpx
