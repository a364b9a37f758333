// The planes of a negotiated video format, worked out once per caps: for each plane its width,
// height, channels interleaved per pixel and sample type. Frames are then only mapped, checked
// against the layout and turned into plane views (host or device pointers, as mapped).
#pragma once

#include <gst/video/video.h>

#include <string>

#include "dpx/plane.h"

namespace gstdpx {

struct PlaneShape {
  int width = 0;
  int height = 0;
  int channels = 1;
  dpx::SampleType type = dpx::SampleType::kU8;
};

class FrameLayout {
 public:
  // Describes `info`; false (with the reason in `why`) for formats whose planes are not plain
  // arrays of 1, 2 or 4 interleaved u8/u16 samples.
  bool set(const GstVideoInfo& info, std::string* why);

  const GstVideoInfo& info() const { return info_; }
  unsigned n_planes() const { return n_planes_; }
  // Bit i set for every plane i of the format.
  unsigned all_planes() const { return (1u << n_planes_) - 1; }
  const PlaneShape& plane(unsigned p) const { return planes_[p]; }

  // Plane `p` of a frame mapped with this layout's info.
  dpx::MutablePlaneView view(const GstVideoFrame* frame, unsigned p) const;

  // Maps `buffer` and checks that every plane (offsets and strides from its GstVideoMeta or the
  // caps) lies inside it; false with the reason in `why` (nothing stays mapped).
  bool map(GstVideoFrame* frame, GstBuffer* buffer, GstMapFlags flags, std::string* why) const;

 private:
  bool fits(const GstVideoFrame* frame, std::string* why) const;

  GstVideoInfo info_{};
  unsigned n_planes_ = 0;
  PlaneShape planes_[GST_VIDEO_MAX_PLANES];
};

}  // namespace gstdpx
